"""Bad input: one clear message naming the file, the place and the rule; exit 1; no
traceback; nothing written to the database or the outbox (issue 2, "Bad input")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import snapshot


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def broken_yaml(fed: Path) -> None:
    replace_in(fed / "strategies/week-01/brother-bob.yaml", "plus: [Brawling, Cheating]", "plus: [Brawling, Cheating")


def sheet_over_budget(fed: Path) -> None:
    replace_in(fed / "rosters/rocky-ridge.yaml", "stamina: 14", "stamina: 15")


def illegal_strategy(fed: Path) -> None:
    replace_in(fed / "strategies/week-01/big-earl.yaml", "plus: [Weight, Power]", "plus: [Weight, Teamwork]")


def missing_strategy(fed: Path) -> None:
    (fed / "strategies/week-01/relampago.yaml").unlink()


def unknown_wrestler(fed: Path) -> None:
    replace_in(fed / "strategies/week-01/card.yaml", "sides: [mad-dog-maddox, relampago]", "sides: [mad-dog-maddox, el-fantasma]")


CASES = {
    # name: (break the fed, expected pieces of the message: file, place, rule)
    "broken YAML": (broken_yaml, ["strategies/week-01/brother-bob.yaml", "line 3", "broken YAML", "YAML syntax"]),
    "sheet over budget": (sheet_over_budget, ["rosters/rocky-ridge.yaml", "line 2", "costs 43 points", "exactly 42", "MatchMatch I.1"]),
    "illegal strategy": (illegal_strategy, ["strategies/week-01/big-earl.yaml", "line 2", "Teamwork cannot be a \"+\" style", "MatchMatch III.1"]),
    "missing strategy": (missing_strategy, ["strategies/week-01/relampago.yaml", "no strategy from Relámpago for match m5", "MatchMatch III"]),
    "unknown wrestler": (unknown_wrestler, ["strategies/week-01/card.yaml", "line 21, match m5", "unknown wrestler 'el-fantasma'", "card file: sides are roster sheets"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_refused_cleanly(case, demo_fed, fedtool):
    breaker, pieces = CASES[case]
    breaker(demo_fed)
    before = snapshot(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a crash
    assert "Traceback" not in result.output
    message = result.stderr
    for piece in pieces:
        assert piece in message, f"{piece!r} not in: {message}"
    assert len(message.strip().splitlines()) == 1, message  # one problem, one line
    assert snapshot(demo_fed) == before  # no database created, outbox untouched


def test_scripted_dice_running_out_is_refused_cleanly(demo_fed, fedtool):
    dice = demo_fed / "short.dice"
    dice.write_text("# too few\n3\n1 2 3\n4 5 6\n", encoding="utf-8")
    before = snapshot(demo_fed)
    result = fedtool("run", "1", "--dice", dice, "--fed", demo_fed)
    assert result.exit_code == 1
    assert "short.dice" in result.stderr
    assert "ran out of dice: round 1 needs 3d6 for Friendly Sam victory check 3d6, 0 left" in result.stderr
    assert "scripted dice must cover every roll" in result.stderr
    assert snapshot(demo_fed) == before


def test_several_problems_are_all_reported(demo_fed, fedtool):
    sheet_over_budget(demo_fed)
    missing_strategy(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "rosters/rocky-ridge.yaml" in result.stderr
    # the roster problem stops the run before strategies are read
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_existing_league_is_left_alone_by_a_refused_week(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    (demo_fed / "strategies/week-06").mkdir()
    (demo_fed / "strategies/week-06/card.yaml").write_text("matches:\n  - sides: [big-earl, nobody-here]\n", encoding="utf-8")
    db_before = (demo_fed / "fed.db").read_bytes()
    result = fedtool("run", "6", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "strategies/week-06/card.yaml, line 2, match m1: unknown wrestler 'nobody-here'" in result.stderr
    assert (demo_fed / "fed.db").read_bytes() == db_before
    assert not (demo_fed / "outbox/week-06").exists()


def test_a_week_runs_once_unless_rerun(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    again = fedtool("run", "1", "--fed", demo_fed)
    assert again.exit_code == 1
    assert "week 1 has already been run; `fedtool run 1 --rerun` undoes it and runs it again" in again.stderr


def test_rerun_undoes_then_gives_identical_results(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    first_outbox = snapshot(demo_fed / "outbox" / "week-01")
    first_results = fedtool("results", "1", "--json", "--fed", demo_fed).output
    states = lambda: sqlite3.connect(demo_fed / "fed.db").execute(  # noqa: E731
        "SELECT week, wrestler_id, push_level, push_points, injury FROM wrestler_states ORDER BY wrestler_id").fetchall()
    first_states = states()
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    again = snapshot(demo_fed / "outbox" / "week-01")
    # the writeups and the dice log are the same; the card and the mails are corrections (issue 12)
    same = lambda files: {k: v for k, v in files.items() if not k.startswith(("mail/", "card."))}  # noqa: E731
    assert same(again) == same(first_outbox) and len(same(again)) == 11
    assert again["card.md"].decode().count(": no change (") == 5
    assert fedtool("results", "1", "--json", "--fed", demo_fed).output == first_results
    # effects were undone before the rerun, not applied twice
    assert states() == first_states
    # Part II: Sam (level 2) beat Bob (level 2) in m1 by DQ: Sam gains a point; Bob loses
    # one from 0 and drops to level 1 with 2 - 1 = 1. Vane (3) beat Kate (4): both move a level.
    assert (1, "friendly-sam", 2, "1", 0) in first_states
    assert (1, "brother-bob", 1, "1", 0) in first_states
    assert (1, "victor-vane", 4, "0", 0) in first_states
    assert (1, "kate-galloway", 3, "0", 0) in first_states


def test_rerun_of_a_week_never_run_is_refused(demo_fed, fedtool):
    result = fedtool("run", "1", "--rerun", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "week 1 has not been run, so there is nothing to rerun" in result.stderr


def test_push_finishes_setting_keeps_dq_wins_from_moving_push(demo_fed, fedtool):
    """docs/rulings/matchmatch.md, "Which wins move push": a fed may leave DQ wins out."""
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("dq_threshold: 10    # IV.2.c: defaults to 10",
                                                     "dq_threshold: 10\n    push_finishes: [pin, submission, countout]"))
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    rows = sqlite3.connect(demo_fed / "fed.db").execute("SELECT wrestler_id FROM wrestler_states").fetchall()
    moved = {r[0] for r in rows}
    # m1 (Sam over Bob) and m5 (Relámpago over Maddox) ended by DQ: no push change for them
    assert not moved & {"friendly-sam", "brother-bob", "relampago", "mad-dog-maddox"}
    assert {"victor-vane", "kate-galloway", "rocky-ridge"} <= moved


def test_unknown_setting_is_refused(demo_fed, fedtool):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("push_levels: 5 ", "push_level: 5 "))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "rosters/fed.yaml" in result.stderr and "unknown field 'push_level'" in result.stderr


def test_a_fed_may_play_its_default_strategy_for_a_side_without_a_valid_one(demo_fed, fedtool):
    """Issue 6 / docs/rulings/matchmatch.md "Default strategy": with `missing_strategy: default`
    a missing or unplayable strategy is replaced by the fed's default, and the writeup says so.
    Relampago (Technical 4, High-Flying 7) vs. Mad Dog Maddox (Brawling 8): "+" High-Flying and
    Technical, "-" Brawling; second on the card, he picks row 1 (High-Flying, his best, is in
    rows 1 and 2: the first)."""
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("dq_threshold: 10    # IV.2.c: defaults to 10\n",
                                                     "dq_threshold: 10\n    missing_strategy: default\n"))
    missing_strategy(demo_fed)
    illegal_strategy(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    m5 = (demo_fed / "outbox/week-01/m5.md").read_text()
    assert "> Relámpago sent no strategy: the fed's default strategy played." in m5
    assert "- Relámpago: +High-Flying +Technical -Brawling, grid 1 (the fed's default strategy" in m5
    m2 = (demo_fed / "outbox/week-01/m2.md").read_text()
    assert "> Big Earl Hollis sent a strategy that cannot be played (Teamwork cannot be a \"+\" style): the fed's default strategy played." in m2
