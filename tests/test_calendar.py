"""The suite holds on any day, not only on the day it was written.

CI runs it on a clean clone at any later date. A test whose mails were delivered "now" and
whose deadline was a fixed day passed when it was written and failed once the real clock
passed its dates (tests/test_inbox_week.py, review 26). The tests below are the ones whose
product paths read the clock or a mail's delivery time (deadlines, late and held mail, the
tick and its clock guard, away days, a card opened by the schedule, arrival times, the
site's calendar). They run again in a fresh pytest with `--travel` (tests/conftest.py:
time-machine moves every clock, and each Maildir mail is delivered at the moved clock) at a
day long after the tests' dates and at one before them, so such a test fails here, today,
and not in CI some months on. A test added with a deadline or an arrival time belongs in
DATED. The whole suite runs so with `pytest --travel 2029-02-01T12:00:00`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DATED = [
    "tests/test_inbox_week.py::test_a_scripted_week_by_mail",
    "tests/test_inbox_week.py::test_late_mail_can_be_held_and_accepted_by_the_fedhead",
    "tests/test_inbox.py::test_late_mail_is_refused_after_the_deadline",
    "tests/test_inbox.py::test_a_backdated_mail_without_received_is_dated_by_its_delivery",
    "tests/test_inbox_recorded.py::test_multipart_alternative_files_the_plain_part",
    "tests/test_inbox_commands.py::test_status_shows_only_the_senders_own_sides",
    "tests/test_inbox_identity.py::test_a_strategy_for_a_week_already_run_is_refused_and_nothing_is_filed",
    "tests/test_tick.py::test_a_week_runs_itself",
    "tests/test_tick.py::test_the_clock_guard",
    "tests/test_tick.py::test_the_cli_tick_reads_the_clock_and_the_lock",
    "tests/test_schedule.py::test_open_sets_the_schedules_deadline_and_the_announcement_and_status_show_it",
    "tests/test_review_fixes.py::test_a_dry_run_looks_past_the_clock_guard_and_says_why_a_run_would_refuse",
    "tests/test_away.py::test_each_players_record_after_two_weeks_in_status_standings_and_site",
    "tests/test_seasons_records.py::test_the_calendar_parses_back",
    "tests/test_calendar.py::test_travel_moves_the_clock_and_a_maildir_delivery",  # the option did move the clocks
]

# after every date in the tests (and past a New Year and a leap day); before them all
DAYS = ["2029-03-01T12:00:00", "2026-10-01T12:00:00"]


def test_the_date_bound_tests_hold_long_after_and_before_their_dates():
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_") and key != "SOURCE_DATE_EPOCH"}
    runs = {day: subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "--travel", day, *DATED],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for day in DAYS}  # side by side: each is a few seconds
    for day, run in runs.items():
        output, _ = run.communicate(timeout=600)
        assert run.returncode == 0 and f"{len(DATED)} passed" in output, f"pytest --travel {day}:\n{output[-4000:]}"


def test_travel_moves_the_clock_and_a_maildir_delivery(pytestconfig, tmp_path):
    """The option itself: with it (as the runs above pass it) the product's clock and a new
    Maildir mail's delivery time are the moved day's; without it the mailbox library is left
    as it is."""
    import datetime
    import mailbox
    from email.message import EmailMessage

    from fedtool.kernel import clock
    from fedtool.mail.intake import messages

    when = pytestconfig.getoption("--travel")
    if when is None:
        assert mailbox.Maildir.add.__module__ == "mailbox"
        return
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(EmailMessage())
    (incoming,) = messages(tmp_path / "Maildir")
    moved = datetime.datetime.fromisoformat(when).replace(tzinfo=datetime.timezone.utc)
    assert datetime.timedelta(0) <= clock.now() - moved < datetime.timedelta(minutes=5)
    assert datetime.timedelta(0) <= incoming.received - moved < datetime.timedelta(minutes=5)
