"""A week rerun after one of its wrestlers retired: he fought that week, so the rerun reads
his kept sheet (rosters/retired/) as the first run read his active one. The card still
refuses a retired wrestler in a week he did not fight (README, `fedtool roster retire`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fedtool.cli import cli


def invoke(fed: Path, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, [*args, "--fed", str(fed)])
    assert result.exit_code == code, result.output
    return result.output


def drop_match(card: Path, match: str) -> None:
    text = card.read_text(encoding="utf-8")
    start = text.index(f"  - id: {match}\n")
    end = text.find("  - id: ", start + 1)
    card.write_text(text[:start] + (text[end:] if end > 0 else ""), encoding="utf-8")


def test_a_week_reruns_after_one_of_its_wrestlers_retired(demo_fed):
    invoke(demo_fed, "run", "1")
    invoke(demo_fed, "title", "vacate", "hardcore")
    drop_match(demo_fed / "strategies/week-02/card.yaml", "m4")  # Dr. Victor Vane's week-2 match: then he may retire
    invoke(demo_fed, "roster", "retire", "victor-vane")
    assert (demo_fed / "rosters/retired/victor-vane.yaml").is_file()
    first = invoke(demo_fed, "results", "1")
    out = invoke(demo_fed, "run", "1", "--rerun")
    assert "m4: no change (Dr. Victor Vane wins by submission in round 11)" in out
    assert invoke(demo_fed, "results", "1") == first
    assert (demo_fed / "rosters/retired/victor-vane.yaml").is_file()  # the rerun brings nobody back


def test_a_retired_wrestler_is_still_refused_on_a_week_he_did_not_fight(demo_fed):
    invoke(demo_fed, "run", "1")
    invoke(demo_fed, "title", "vacate", "hardcore")
    drop_match(demo_fed / "strategies/week-02/card.yaml", "m4")
    invoke(demo_fed, "roster", "retire", "victor-vane")
    card = demo_fed / "strategies/week-02/card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("sides: [mad-dog-maddox, kate-galloway]", "sides: [mad-dog-maddox, victor-vane]"), encoding="utf-8")
    out = invoke(demo_fed, "run", "2", code=1)
    assert "'victor-vane' is retired" in out
