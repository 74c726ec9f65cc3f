"""Referees, ref slack (MatchMatch VII.1) and specialty matches (VII), computed by hand."""

from __future__ import annotations

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.matchmatch.officials import read_referees, roll_referee, sample_referees, slack_threshold, stipulations
from mm_builders import make_setup, make_sheet, make_strategy, run, uniform_grid

STIPS = stipulations(None)
MM_SECTION = "    dq_threshold: 10    # IV.2.c: defaults to 10\n"  # a line of the demo's matchmatch settings


@pytest.mark.parametrize("referee, expected", [("Sam Atan", 16), ("Myron Opia", 14), ("Stan Model", 12), ("Bill Order", 11), ("Zero Tolerance", 8)])
def test_cheating_bob_with_three_points_of_ref_slack(referee, expected):
    """VII.1: "if Cheating Bob had 3 points of ref slack, then his DQ threshold would be ...:
    16 for S.Atan, 14 for My.Opia, 12 for Stan, 11 for Bill Order and 8 for Zero.\""""
    base = {r.name: r.dq_threshold for r in sample_referees()}[referee]
    assert slack_threshold(base, 3) == expected


def test_slack_caps():
    """VII.1: "If the DQ threshold is less than 12, it may never be raised above 12. If it is
    12 or higher, then it can be raised by two points maximum.\""""
    assert slack_threshold(10, 1) == 11
    assert slack_threshold(11, 5) == 12
    assert slack_threshold(12, 1) == 13
    assert slack_threshold(13, 9) == 15
    assert slack_threshold(10, 0) == 10


@pytest.mark.parametrize("faces, name", [((1, 1), "Sam Atan"), ((1, 2), "Myron Opia"), ((2, 2), "Stan Model"), ((5, 5), "Stan Model"), ((5, 6), "Bill Order"), ((6, 6), "Zero Tolerance")])
def test_referee_table_is_rolled_on_2d6(faces, name):
    """VII.1's table: 2 Sam Atan, 3 Myron Opia, 4-10 Stan Model, 11 Bill Order, 12 Zero Tolerance."""
    assert roll_referee(sample_referees(), ScriptedDice(list(faces))).name == name


def test_a_referee_table_must_cover_two_to_twelve():
    with pytest.raises(FedError, match=r"cover \[2, 3, 4, 5, 6, 7, 8, 9, 10, 12\]"):
        read_referees([{"name": "A", "dq_threshold": 10, "roll": "2-10"}, {"name": "B", "dq_threshold": 8, "roll": 12}], "fed.yaml")


def side_sheets(**b_styles):
    a = make_sheet("a", stamina=10, styles={s: 2 for s in ("technical", "power", "martial_arts", "high_flying", "weight")} | {"brawling": 4})
    b = make_sheet("b", stamina=5, styles={s: 1 for s in ("technical", "power", "martial_arts", "high_flying", "weight", "brawling")} | b_styles)
    return a, b


def one_round(a, b, stip, minus_b="teamwork", rounds=1):
    sa = make_strategy(("technical", "power"), "teamwork", "A", [("normal", "stamina")] * rounds)
    sb = make_strategy(("martial_arts", "high_flying"), minus_b, "1", [("normal", "stamina")] * rounds)
    return make_setup(a, sa, b, sb, uniform_grid("weight"), rounds=rounds, stipulation=stip)


def test_cage_match_modifiers():
    """VII Cage Match: "Brawl is added to the Style list automatically. The injury threshold is
    lowered to 2 ... The Pin chance is reduced by 4 (all Pin rolls have an extra -4 modifier)."

    Table: Technical, Power, Martial Arts, High-Flying, Weight (grid), Brawling: six entries,
    so a 6 is Brawling, not "roll again". A: 4+4+4 = 12 + 4 Brawling = 16; B: 2+2+2 = 6 + 1 = 7;
    A by 9: 2 damage to B's Stamina 5 -> 3. 2 taken is enough in a cage: injury check
    6+6+6 = 18 - 3 Stamina - 1 Brawling - 0 defense = 14: injured. Victory check 4+4+4 = 12
    + 1 (Weight 2 > 1) + 1 injury - 3 Stamina - 6 styles - 4 cage = 1: a one count (5 outside a cage).
    """
    a, b = side_sheets()
    result = run(one_round(a, b, STIPS["cage"]), [6, 4, 4, 4, 2, 2, 2, 6, 6, 6, 4, 4, 4])
    (rnd,) = result.rounds
    assert result.style_table[-1] == "brawling" and len(result.style_table) == 6
    assert rnd.style == "brawling" and rnd.style_faces == [6]
    assert [s.total for s in rnd.sides] == [16, 7]
    assert result.final_stamina == [10, 3]
    assert [(c.total, c.injured) for c in rnd.injuries] == [(14, True)]
    assert [(c.total, c.count) for c in rnd.checks] == [(1, 1)]


def test_strap_match_halves_high_flying_before_the_minus():
    """VII Strap Match: "Brawl is added. High-Flying is halved ... Pin chance is reduced by 2."
    A's High-Flying 7 is halved by the strap to 4, then by B's "-" High-Flying to 2 (IV.1.b,
    rounding up each time); B's 5 becomes 3."""
    a, b = side_sheets(high_flying=5)
    a = make_sheet("a", stamina=10, styles={"high_flying": 7, "brawling": 4, "weight": 2})
    setup = one_round(a, b, STIPS["strap"], minus_b="high_flying")
    # High-Flying (entry 4): A 1+1+1 = 3 + 2 = 5; B 6+6+6 = 18 + 3 = 21; B by 16: 4 damage to
    # A's Stamina 10 -> 6. 4 taken: injury check 1+1+1 = 3 - 6 - 2 - 0 = -5, no injury.
    # B's victory check 6+6+6 = 18, a natural 18: the win whatever the strap's -2.
    result = run(setup, [4, 1, 1, 1, 6, 6, 6, 1, 1, 1, 6, 6, 6])
    assert result.start_styles[0]["high_flying"] == 2 and result.start_styles[1]["high_flying"] == 3
    (rnd,) = result.rounds
    assert [s.total for s in rnd.sides] == [5, 21]
    assert rnd.checks[0].total == 18 + 0 + 3 + 0 - 6 - 6 - 2  # Weight 1 < 2; A's Power, MA, Cheating... at 0
    assert result.winner == 1 and result.method == "pin"


def test_scaffold_match_needs_a_d8_and_raises_injury_chance():
    """VII Scaffold Match: "Power and High-Flying are added. The Injury Chance is raised by +4
    ... Pin chance is reduced by 2." Seven entries: the style die is a d8 (ruling), 8 rolls again.
    Roll 8 (again), then 7: High-Flying (the second added style). A 4+4+4 = 12 + 2 = 14;
    B 1+1+1 = 3 + 1 = 4; A by 10: 3 damage, B Stamina 5 -> 2; injury check 3+3+3 = 9 - 2 - 1 - 0
    + 4 scaffold = 10: injured. Victory check 2+2+2 = 6 + 1 Weight + 1 injury - 2 - 7 - 2 = -3."""
    a, b = side_sheets()
    result = run(one_round(a, b, STIPS["scaffold"]), [8, 7, 4, 4, 4, 1, 1, 1, 3, 3, 3, 2, 2, 2])
    (rnd,) = result.rounds
    assert result.style_table[5:] == ["power", "high_flying"]
    assert rnd.style_faces == [8, 7] and rnd.style == "high_flying"
    assert result.log[0][1] == "round style d8"
    assert [(c.total, c.injured) for c in rnd.injuries] == [(10, True)]
    assert [(c.total, c.count) for c in rnd.checks] == [(-3, 0)]


def test_cage_forbids_submission_at_booking(demo_fed, fedtool):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("title: Main event\n", "title: Main event\n    stipulation: cage\n"))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "strategies/week-01/victor-vane.yaml, line 16, round 11: Submission may not be stratted in a Cage Match [MatchMatch VII: Cage Match]" in result.stderr
    assert "strategies/week-01/kate-galloway.yaml, line 23, round 18: Submission may not be stratted in a Cage Match" in result.stderr


def test_unknown_stipulation_and_unknown_field(demo_fed, fedtool):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("title: Main event\n", "title: Main event\n    stipulation: ladder\n"))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert "unknown stipulation 'ladder'; this fed has cage, strap, scaffold" in result.stderr
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(MM_SECTION, MM_SECTION + "    stipulations:\n      ladder: {name: Ladder Match, added_styles: [High-Flying], ladders: 2}\n"))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "field ladders: unknown field 'ladders'" in result.stderr and "stipulation ladder (MatchMatch VII)" in result.stderr


def test_a_fed_defined_stipulation_changes_the_match(demo_fed, fedtool):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(MM_SECTION, MM_SECTION + "    stipulations:\n      ladder: {name: Ladder Match, description: Climb for the belt., added_styles: [High-Flying], pin: -3}\n"))
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("title: Main event\n", "title: Main event\n    stipulation: ladder\n"))
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    writeup = (demo_fed / "outbox/week-01/m4.md").read_text()
    assert writeup.startswith("## Ladder Match: ")
    assert "**Ladder Match.** Climb for the belt." in writeup
    assert "6 High-Flying, 6 roll again" not in writeup and "6 High-Flying." in writeup


def test_referee_named_on_the_card_must_exist(demo_fed, fedtool):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("title: Main event\n", "title: Main event\n    referee: Earl Hebner\n"))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert ("match m4, field referee: referee 'Earl Hebner' is not one of the fed's referees "
            "(Sam Atan, Myron Opia, Stan Model, Bill Order, Zero Tolerance)") in result.stderr
