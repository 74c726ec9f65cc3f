"""The command line: every command documented, init, results, clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fedtool.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_has_help_with_an_example_and_is_in_the_readme(name, fedtool):
    result = fedtool(name, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output, f"`fedtool {name} --help` shows no example"
    assert f"`fedtool {name}" in README, f"`fedtool {name}` is not in the README's command table"


def test_init_creates_a_fed_that_runs_its_first_command(tmp_path, fedtool):
    fed = tmp_path / "new-fed"
    result = fedtool("init", fed, "--name", "Test Fed")
    assert result.exit_code == 0, result.output
    for sub in ("rosters", "strategies", "templates", "outbox"):
        assert (fed / sub).is_dir()
    settings = (fed / "rosters/fed.yaml").read_text()
    assert "name: Test Fed" in settings
    # the secret is fresh each time
    other = tmp_path / "other-fed"
    fedtool("init", other)
    assert settings.split("secret:")[1].split()[0] != (other / "rosters/fed.yaml").read_text().split("secret:")[1].split()[0]
    # a fed with no card yet says so clearly
    result = fedtool("open", "1", "--fed", fed)
    assert result.exit_code == 1
    assert "strategies/week-01/card.yaml: no card here" in result.stderr


def test_init_never_overwrites_a_fed(demo_fed, fedtool):
    before = (demo_fed / "rosters/fed.yaml").read_text()
    result = fedtool("init", demo_fed)
    assert result.exit_code == 1
    assert "fedtool init never overwrites one" in result.stderr
    assert (demo_fed / "rosters/fed.yaml").read_text() == before


def test_a_folder_that_is_not_a_fed(tmp_path, fedtool):
    result = fedtool("run", "1", "--fed", tmp_path)
    assert result.exit_code == 1
    assert "no fed settings here; run `fedtool init DIR`" in result.stderr


def test_results_json_lists_every_match(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    rows = json.loads(fedtool("results", "1", "--json", "--fed", demo_fed).output)
    assert [r["id"] for r in rows] == ["m1", "m2", "m3", "m4", "m5"]
    m1 = rows[0]
    assert m1["ruleset"] == "matchmatch"
    assert m1["winner"] == "friendly-sam" and m1["method"] == "dq" and m1["round"] == 3
    assert [s["id"] for s in m1["sides"]] == ["brother-bob", "friendly-sam"]
    assert set(m1["sides"][0]) >= {"stamina", "styles"}
    assert set(m1["sides"][0]["styles"]) == {"Technical", "Power", "Martial Arts", "Brawling", "High-Flying", "Weight", "Cheating", "Teamwork"}
    text = fedtool("results", "1", "--fed", demo_fed).output
    assert "m1: Brother Bob vs. Friendly Sam: Friendly Sam wins by dq in round 3" in text


def test_results_of_a_week_not_run(demo_fed, fedtool):
    result = fedtool("results", "3", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "week 3 has not been run" in result.stderr
    assert not (demo_fed / "fed.db").exists()


def test_open_refuses_to_reroll_silently(demo_fed, fedtool):
    result = fedtool("open", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "week 1 is already open" in result.stderr


def test_open_a_new_week_rolls_grids_the_run_then_reads(demo_fed, fedtool):
    week2 = demo_fed / "strategies/week-06"
    week2.mkdir()
    (week2 / "card.yaml").write_text("matches:\n  - sides: [big-earl, rocky-ridge]\n    rounds: 3\n")
    assert fedtool("open", "6", "--fed", demo_fed).exit_code == 0
    opening = (week2 / "opening.yaml").read_text()
    assert "m1:" in opening and "grid:" in opening
    # the fed has a 2d6 referee table (VII.1), so open rolls one and tells the players
    referee = opening.split("referee: ")[1].split()[0:2]
    assert " ".join(referee) in {"Sam Atan", "Myron Opia", "Stan Model", "Bill Order", "Zero Tolerance"}
    announcement = (demo_fed / "outbox/week-06/announcements/m1-big-earl.md").read_text()
    assert "Big Earl Hollis chooses a letter A-C, Rocky Ridge chooses a number 1-3" in announcement
    assert "3 rounds" in announcement
    assert f"Your referee: **{' '.join(referee)}**" in announcement
    # without strategies the run names both missing files
    result = fedtool("run", "6", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "strategies/week-06/big-earl.yaml: no strategy from Big Earl Hollis for match m1" in result.stderr
    assert "strategies/week-06/rocky-ridge.yaml: no strategy from Rocky Ridge for match m1" in result.stderr


def test_status_shows_what_arrived_and_who_is_missing(demo_fed, fedtool):
    (demo_fed / "strategies/week-02/brother-bob.yaml").unlink()
    vane = demo_fed / "strategies/week-02/victor-vane.yaml"
    vane.write_text(vane.read_text().replace("plus: [Technical, Cheating]", "plus: [Technical, Teamwork]"))
    result = fedtool("status", "2", "--fed", demo_fed)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert any(line.startswith("m4") and "Dr. Victor Vane" in line and "refused" in line for line in lines)
    assert any('victor-vane.yaml, line 2, field plus.1: Teamwork cannot be a "+" style [MatchMatch III.1]' in line for line in lines)
    assert any(line.startswith("m4") and "Brother Bob" in line and "missing" in line for line in lines)
    assert lines[-1] == "7 of 9 sides ready; waiting on Dr. Victor Vane, Brother Bob"
    data = json.loads(fedtool("status", "3", "--json", "--fed", demo_fed).output)
    assert {(r["wrestler"], r["verdict"]) for r in data} >= {("Wes Kimura", "default"), ("Vince Valor", "default")}
