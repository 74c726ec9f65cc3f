"""Mat Clash bad input: a clear message with the file, the place and the rule; nothing written."""

from __future__ import annotations

import json
import sqlite3

import pytest
from fedtool.league.db import read_summary

from conftest import snapshot


@pytest.fixture
def week_three(demo_fed, fedtool):
    """The demo league with weeks 1 and 2 run: week 3 (Mat Clash) is next."""
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0
    return demo_fed


CASES = {
    "unknown card": ("tommy-reyes.yaml", "  neutral: [feet_to_back, takedown]", "  neutral: [feet_to_back, flying_armbar]",
                     ["strategies/week-03/tommy-reyes.yaml, line 8, field prefer.neutral.1: unknown card 'flying_armbar'", "[Mat Clash strategy: cards]"]),
    "unknown situation": ("tommy-reyes.yaml", "  bottom: [reversal, escape]", "  underwater: [reversal]",
                          ["strategies/week-03/tommy-reyes.yaml, line 10", "prefer.underwater", "[Mat Clash strategy]"]),
    "threshold not a number": ("tommy-reyes.yaml", "draw: when_stuck", "draw: when_stuck\ntie_when_trailing_by: lots",
                               ["strategies/week-03/tommy-reyes.yaml, line 16, field tie_when_trailing_by: give a whole number here, not 'lots'"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_strategy_is_refused_cleanly(case, week_three, fedtool):
    name, old, new, pieces = CASES[case]
    path = week_three / "strategies/week-03" / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    before = snapshot(week_three)
    result = fedtool("run", "3", "--fed", week_three)
    assert result.exit_code == 1 and "Traceback" not in result.output
    for piece in pieces:
        assert piece in result.stderr, result.stderr
    assert snapshot(week_three) == before


@pytest.mark.parametrize("deck, message", [
    ("base:\n  takedown: 10\n  escape: 7\n  reversal: 7\n  defense: 9\n  near_fall_2: 4\n  near_fall_3: 3\n  near_fall_4: 2\n"
     "  momentum: 4\n  stalling: 3\n  pin: 3\n  mat_beast: 1\n  beastin: 1\n",
     "rosters/my-deck.yaml, base: the base deck has 54 cards; Mat Clash's base deck has 55 [Mat Clash: the 55-card deck]"),
    ("base:\n  takedown: 10\n  headlock: 45\n", "rosters/my-deck.yaml, base: unknown card 'headlock'"),
])
def test_a_feds_deck_file_is_checked(deck, message, week_three, fedtool):
    (week_three / "rosters/my-deck.yaml").write_text(deck)
    settings = week_three / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  matclash:\n", "  matclash:\n    deck: my-deck.yaml\n"))
    before = snapshot(week_three)
    result = fedtool("run", "3", "--fed", week_three)
    assert result.exit_code == 1
    assert message in result.stderr
    assert snapshot(week_three) == before


def test_a_wrestler_without_a_strategy_plays_the_default_and_the_writeup_says_so(week_three, fedtool):
    assert fedtool("run", "3", "--fed", week_three).exit_code == 0
    writeup = (week_three / "outbox/week-03/m2.md").read_text()
    assert "> Wes Kimura sent no strategy and plays the built-in default policy." in writeup


def test_results_record_win_type_score_and_team_points(week_three, fedtool):
    assert fedtool("run", "3", "--fed", week_three).exit_code == 0
    rows = {r["id"]: r for r in json.loads(fedtool("results", "3", "--json", "--fed", week_three).output)}
    assert rows["m1"]["ruleset"] == "matclash" and rows["m1"]["method"] in ("fall", "tech_fall", "major", "decision")
    summary = read_summary(sqlite3.connect(week_three / "fed.db").execute(
        "SELECT summary FROM matches WHERE id = 'week-03/m2'").fetchone()[0])  # packed since m017
    assert len(summary["scraps"]) in (5, 6)
    team = [0, 0]
    for scrap in summary["scraps"][:5]:
        team[[s["id"] for s in summary["sides"]].index(scrap["winner"])] += scrap["team_points"]
    assert summary["team_points"] == team


def test_opening_a_mat_clash_week_announces_the_format(demo_fed, fedtool):
    assert fedtool("open", "3", "--reroll", "--fed", demo_fed).exit_code == 0  # the demo week is open (its commitments)
    text = (demo_fed / "outbox/week-03/announcements/m1-tommy-reyes.md").read_text()
    assert "Ruleset: Mat Clash, Quick Scrap. Up to 2 draws each; Pin and MAT BEAST after the first transition." in text
    assert "Send your strategy as `tommy-reyes.yaml`" in text
