"""A week's run is atomic: all of it lands or none of it (issue 2, item 9)."""

from __future__ import annotations

import pytest

from conftest import snapshot
from fedtool.week import run as week_module
from fedtool.fed.settings import Fed


class Crash(Exception):
    pass


def league_after_week_one(fed_dir):
    """A league with week 1 recorded, so a crash has something to spoil."""
    fed = Fed.load(fed_dir)
    week_module.run_week(fed, 1)
    return fed


def test_crash_while_writing_the_database_changes_nothing(demo_fed, monkeypatch):
    fed = league_after_week_one(demo_fed)
    before = snapshot(demo_fed)
    real = week_module.record_week

    def record_then_crash(db, *args, **kwargs):
        real(db, *args, **kwargs)  # every row written...
        raise Crash("disk full")  # ...then the process fails before the commit

    monkeypatch.setattr(week_module, "record_week", record_then_crash)
    with pytest.raises(Crash):
        week_module.run_week(fed, 1, rerun=True)
    assert snapshot(demo_fed) == before


def test_a_failure_between_the_commit_and_the_swap_leaves_the_outbox_to_the_next_command(demo_fed, fedtool, monkeypatch):
    """The league's commit decides (issue 13): a rerun that failed after the league committed
    it, before its outbox was swapped in, leaves the staged outbox; the next writing command
    swaps it in, so the outbox holds the run the league holds."""
    assert fedtool("open", "1", "--reroll", "--fed", demo_fed).exit_code == 0
    announcements = snapshot(demo_fed / "outbox/week-01/announcements")
    fed = league_after_week_one(demo_fed)
    (demo_fed / "strategies/week-01/card.yaml").write_text(
        (demo_fed / "strategies/week-01/card.yaml").read_text().replace("Opening Night", "Opening Night, again"))

    def crash(self):
        raise Crash("killed between the commit and the swap")

    monkeypatch.setattr(week_module.StagedDir, "swap", crash)
    with pytest.raises(Crash):
        week_module.run_week(fed, 1, rerun=True)
    monkeypatch.undo()
    staged = [p.name for p in (demo_fed / "outbox").iterdir() if p.name.startswith(".")]
    assert len(staged) == 1 and staged[0].startswith(".week-01.new-run2-")
    assert "Opening Night, again" not in (demo_fed / "outbox/week-01/card.md").read_text()  # not swapped in yet
    assert fedtool("site", "--fed", demo_fed).exit_code == 0  # any writing command settles it
    assert [p.name for p in (demo_fed / "outbox").iterdir() if p.name.startswith(".")] == []
    assert (demo_fed / "outbox/week-01/card.md").read_text().startswith("# Delta Championship Wrestling: Week 1: Opening Night, again\n")
    assert snapshot(demo_fed / "outbox/week-01/announcements") == announcements and "m1-brother-bob.md" in announcements


def test_a_run_keeps_the_weeks_announcements(demo_fed, fedtool):
    assert fedtool("open", "1", "--reroll", "--fed", demo_fed).exit_code == 0
    announcements = snapshot(demo_fed / "outbox/week-01/announcements")
    assert "m1-brother-bob.md" in announcements
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert snapshot(demo_fed / "outbox/week-01/announcements") == announcements
    assert (demo_fed / "outbox/week-01/m1.md").exists()
