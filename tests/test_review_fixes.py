"""What a fresh-eyes review of issue 12 found (a new user's and an attacker's tries), fixed."""

from __future__ import annotations

import datetime

from fedtool.league.sheets import load_fed
from fedtool.mail.cycle import tick

UTC = datetime.timezone.utc


def test_a_run_reports_every_match_missing_a_strategy_at_once(demo_fed, fedtool):
    """Everything is read and checked first: one run names the missing strategies of every
    match, not of the first match that has one."""
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    for name in ("heavy-industry.yaml", "kate-galloway.yaml", "brother-bob.yaml"):
        (demo_fed / "strategies/week-02" / name).unlink()
    result = fedtool("run", "2", "--fed", demo_fed)
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if "no strategy from" in line]
    assert [e.split(": ", 2)[2].rsplit(" [", 1)[0] for e in errors] == ["no strategy from Heavy Industry for match m1", "no strategy from Kate \"The Gate\" Galloway for match m3",
                                                     "no strategy from Brother Bob for match m4"]


def test_send_dry_run_needs_no_smtp_server(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    result = fedtool("send", "1", "--dry-run", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "11 to send, 0 sent before, 0 kept for next time" in result.output
    real = fedtool("send", "1", "--fed", demo_fed)
    assert real.exit_code == 1 and "no SMTP server set" in real.stderr


def test_a_problem_found_twice_is_said_once(demo_fed, fedtool):
    """Brother Bob's sheet is read for him and for his tag team: its bad address is one problem."""
    sheet = demo_fed / "rosters/brother-bob.yaml"
    sheet.write_text(sheet.read_text().replace("bob@players.example", "bob@@players.example"))
    result = fedtool("run", "2", "--fed", demo_fed)
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if "brother-bob.yaml" in line and "owner.email" in line]
    assert len(lines) == 1


def test_a_dry_run_looks_past_the_clock_guard_and_says_why_a_run_would_refuse(demo_fed, fedtool):
    """The guard's own advice is to look with --dry-run: a dry run is never refused, it says
    what a real tick would refuse; and a week that cannot run is not promised to run."""
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-20T18:00:00Z\n"))
    (demo_fed / "strategies/week-01/brother-bob.yaml").unlink()
    fed = load_fed(demo_fed)
    tick(fed, datetime.datetime(2026, 11, 19, 12, tzinfo=UTC))
    report = tick(fed, datetime.datetime(2026, 11, 21, 12, tzinfo=UTC), dry_run=True)  # 48 hours later: a real tick would refuse
    assert report.problems == ["a real tick would refuse: the last tick was 48 hours ago, and cron runs it every 15 minutes (schedule: tick_every): "
                               "was the machine off, or has cron stopped? See what is due with `fedtool tick --dry-run`, then `fedtool tick --force` [fedtool tick]"]
    assert report.done[0].startswith("week 1: would try to run it (the deadline, Friday 20 November 2026, 18:00 UTC, has passed), but the run would refuse: ")
    assert "no strategy from Brother Bob for match m1" in report.done[0]


def test_tick_every_must_be_some_time(demo_fed, fedtool):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text() + "schedule: {tick_every: 0m}\n")
    result = fedtool("tick", "--dry-run", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "field schedule.tick_every: '0m' is no time at all: give a span such as 15m, 1h or 1d" in result.stderr


def test_a_tick_with_nothing_due_prints_nothing(demo_fed, fedtool):
    """cron mails the fedhead whatever a tick prints: a week with no deadline yet is said by
    --dry-run, not every quarter of an hour."""
    quiet = fedtool("tick", "--fed", demo_fed)
    assert quiet.exit_code == 0 and quiet.output == ""
    looked = fedtool("tick", "--dry-run", "--fed", demo_fed)
    assert looked.output.splitlines() == ["week 1: no deadline yet (give the card a `deadline:`, or a `schedule:` and `fedtool open 1`)"]


def test_a_reroll_after_strategies_were_filed_warns(demo_fed, fedtool):
    result = fedtool("open", "1", "--reroll", "--fed", demo_fed)
    assert result.exit_code == 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: rerolled with strategies already filed")]
    assert len(warnings) == 1 and "strategies/week-01/brother-bob.yaml" in warnings[0] and "strategies/week-01/relampago.yaml" in warnings[0]
    assert fedtool("open", "5", "--reroll", "--fed", demo_fed).stderr == ""  # week 5's sides have sent nothing
