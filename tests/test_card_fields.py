"""A match's own fields on the card belong to its ruleset (`Ruleset.card_fields`): the card
file knows only the fields every match has, and each ruleset checks its own, with the line."""

from __future__ import annotations

from conftest import snapshot

CARD_3 = "strategies/week-03/card.yaml"


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path, marker):
    text = path.read_text(encoding="utf-8")
    return text[: text.index(marker)].count("\n") + 1


def test_a_field_of_another_ruleset_is_refused_with_its_line(demo_fed, fedtool):
    """`grid:` is MatchMatch's (III.1); on a Face to the Mat match it is a typo or a mistake."""
    card = demo_fed / CARD_3
    edit(card, "    title: Face to the Mat debut\n", "    title: Face to the Mat debut\n    grid: [[Po, Te, Br], [We, MA, HF], [Br, MA, Ch]]\n")
    before = snapshot(demo_fed)
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"{CARD_3}, line {line_of(card, '    grid:')}, field matches.2.grid: unknown field 'grid' [card file]" in result.stderr
    assert "Traceback" not in result.output and snapshot(demo_fed) == before


def test_a_rulesets_own_field_is_checked_by_its_model(demo_fed, fedtool):
    """Face to the Mat 10.e: a scripted ref bump comes at FAC 1 or later."""
    card = demo_fed / CARD_3
    edit(card, "    title: Face to the Mat debut\n", "    title: Face to the Mat debut\n    ref_bump_at: 0\n")
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"{CARD_3}, line {line_of(card, '    ref_bump_at:')}, field matches.2.ref_bump_at: Input should be greater than or equal to 1 [card file]" in result.stderr


def test_the_same_field_is_another_rulesets_business(demo_fed, fedtool):
    """`format:` is Mat Clash's and Face to the Mat's, each by its own rule; MatchMatch has none."""
    card = demo_fed / "strategies/week-01/card.yaml"
    edit(card, "    title: The rulebook rivals\n", "    title: The rulebook rivals\n    format: dual_match\n")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"line {line_of(card, '    format:')}, field matches.0.format: unknown field 'format' [card file]" in result.stderr
    assert fedtool("run", "3", "--fed", demo_fed).exit_code == 0  # Mat Clash's format: dual_match stands


def test_opening_a_week_checks_the_fields_too(demo_fed, fedtool):
    card = demo_fed / "strategies/week-01/card.yaml"
    edit(card, "    title: Heavy metal\n", "    title: Heavy metal\n    referee: [Stan, Model]\n")
    result = fedtool("open", "1", "--reroll", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"line {line_of(card, '    referee:')}, field matches.1.referee: Input should be a valid string [card file]" in result.stderr


def test_open_refuses_a_match_of_wrestlers_from_another_ruleset(demo_fed, fedtool):
    """A MatchMatch match with a Face to the Mat wrestler is refused when the week opens, before
    any grid is rolled or mailed, as the run refuses it."""
    card = demo_fed / "strategies/week-01/card.yaml"
    edit(card, "    sides: [rocky-ridge, big-earl]\n", "    sides: [rocky-ridge, vince-valor]\n")
    before = snapshot(demo_fed)
    result = fedtool("open", "1", "--reroll", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"line {line_of(card, '  - id: m2')}, match m2: Vince Valor is a facemat wrestler; this is a matchmatch match [card file]" in result.stderr
    assert snapshot(demo_fed) == before
