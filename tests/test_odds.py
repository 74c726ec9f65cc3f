"""`fedtool odds`: the same engine as the run, the same seeds giving the same counts."""

from __future__ import annotations

import json

import pytest

from fedtool.kernel.dice import SeededDice
from fedtool.fed.settings import Fed
from fedtool.week.odds import simulate, wilson
from fedtool.rulesets.matchmatch import engine
from fedtool.week.booking import book_match


def test_wilson_interval_known_values():
    """Wilson (1927) at 95%: 50 of 100 gives 0.4038-0.5962; 0 of 10 gives 0-0.2775."""
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)


@pytest.fixture(scope="module")
def bob_vs_sam():
    from golden import ROOT

    return book_match(Fed.load(ROOT), 1, "m1")


def test_odds_are_the_weekly_engine_on_fresh_seeds(bob_vs_sam):
    report = simulate(bob_vs_sam, 300, seed=1000, workers=1)
    expected = {}
    for seed in range(1000, 1300):
        result = engine.resolve(bob_vs_sam.setup, SeededDice(seed))
        expected[(result.winner, result.method)] = expected.get((result.winner, result.method), 0) + 1
    wins = [sum(n for (w, _), n in expected.items() if w == i) for i in (0, 1)]
    assert [s.count for s in report.outcomes] == [wins[0], wins[1], 300 - sum(wins)]
    assert sum(s.count for s in report.finishes) == 300
    assert sorted(s.count for s in report.finishes) == sorted(expected.values())


def test_workers_change_nothing_but_speed(bob_vs_sam):
    one = simulate(bob_vs_sam, 4500, seed=7, workers=1)
    two = simulate(bob_vs_sam, 4500, seed=7, workers=2)
    assert one.as_json() == two.as_json()


def test_odds_command_json(fedtool):
    from golden import ROOT

    result = fedtool("odds", "--match", "1/m1", "-n", "400", "--seed", "3", "--json", "--fed", ROOT)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["matches"] == 400 and data["sides"] == ["Brother Bob", "Friendly Sam"] and data["seed"] == 3
    assert sum(o["count"] for o in data["outcomes"]) == 400
    assert all(o["low95"] <= o["share"] <= o["high95"] for o in data["outcomes"] + data["finishes"])


def test_odds_from_sheets_roll_a_grid_per_match_unless_given(fedtool):
    from golden import ROOT

    args = ["odds", "--sheet", ROOT / "rosters/brother-bob.yaml", "--sheet", ROOT / "rosters/friendly-sam.yaml",
            "--strategy", ROOT / "strategies/week-01/brother-bob.yaml", "--strategy", ROOT / "strategies/week-01/friendly-sam.yaml",
            "-n", "200", "--seed", "5", "--json", "--fed", ROOT]
    rolled = json.loads(fedtool(*args).output)
    assert rolled["grid"] == "rolled per match"
    fixed = json.loads(fedtool(*args, "--grid", "Br Po Po/HF Br We/HF Te We").output)
    assert fixed["grid"] == "fixed"


def test_odds_usage_errors(fedtool):
    from golden import ROOT

    result = fedtool("odds", "--fed", ROOT)
    assert result.exit_code == 2 and "give --match WEEK/MATCH, or two --sheet and two --strategy" in result.output
    result = fedtool("odds", "--match", "1/m9", "--fed", ROOT)
    assert result.exit_code == 1 and "no match 'm9' on the card; it has m1, m2, m3, m4, m5" in result.stderr


def test_odds_refuses_a_match_of_a_ruleset_without_trials(fedtool, monkeypatch):
    from golden import ROOT

    from fedtool.rulesets.matclash import MatClash

    monkeypatch.setattr(MatClash, "plays_odds", False)
    result = fedtool("odds", "--match", "3/m1", "--fed", ROOT)
    assert result.exit_code == 1
    assert "match 3/m1 is a matclash match; fedtool odds plays MatchMatch, Face to the Mat, Mad Match matches" in result.stderr


def test_odds_speak_of_a_grid_only_for_a_ruleset_that_has_one(fedtool):
    """A grid is MatchMatch's: its odds say whether the grid was fixed or rolled per match;
    a Mat Clash or Face to the Mat match's odds say nothing of a grid (they said "grid
    fixed"), and their JSON's `grid` is null."""
    from golden import ROOT

    mat_clash = fedtool("odds", "--match", "3/m1", "-n", "50", "--seed", "2", "--fed", ROOT)
    assert mat_clash.exit_code == 0, mat_clash.output
    assert "grid" not in mat_clash.output.splitlines()[0]
    assert json.loads(fedtool("odds", "--match", "3/m3", "-n", "50", "--json", "--fed", ROOT).output)["grid"] is None
    matchmatch = fedtool("odds", "--match", "1/m1", "-n", "50", "--seed", "2", "--fed", ROOT)
    assert "; grid fixed;" in matchmatch.output.splitlines()[0]
