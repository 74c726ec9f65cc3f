"""`fedtool tick` (issue 12): the week runs itself from cron. A week driven by tick alone with
a moving clock (each call given its `now`), against a Maildir and aiosmtpd on loopback."""

from __future__ import annotations

import datetime
import mailbox
import os
from collections import Counter
from email.message import EmailMessage
from email.utils import format_datetime

import pytest
import time_machine

from conftest import snapshot
from fedtool.kernel.errors import FedError
from fedtool.league.sheets import load_fed
from fedtool.mail.cycle import tick
from test_send import smtp_server, with_smtp  # noqa: F401  (the aiosmtpd fixture)

UTC = datetime.timezone.utc
DEADLINE = datetime.datetime(2026, 11, 27, 18, tzinfo=UTC)
CARD = """title: "Week 6: Mail Call"
week: 6
deadline: 2026-11-27T18:00:00Z
matches:
  - {id: m1, sides: [brother-bob, friendly-sam]}
  - {id: m2, sides: [rocky-ridge, big-earl]}
  - {id: m3, ruleset: facemat, sides: [vince-valor, the-warden]}
"""


SCHEDULE = "schedule: {tick_every: 6h}\n"  # these tests jump hours between ticks; cron would tick every few minutes


def set_schedule(fed_dir, schedule):
    settings = fed_dir / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(SCHEDULE, schedule))


def at(day, hour, minute=0):
    return datetime.datetime(2026, 11, day, hour, minute, tzinfo=UTC)


class Post:
    """The fed's Maildir: mails delivered at a moment of the test's clock."""

    def __init__(self, folder):
        self.box = mailbox.Maildir(folder, create=True)
        self.folder = folder

    def deliver(self, when, sender, subject, body, message_id):
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "strategies@dcw.example", subject, message_id
        m["Date"] = format_datetime(when - datetime.timedelta(minutes=1))
        m.set_content(body)
        key = self.box.add(m)
        path = next(p for p in (self.folder / "new").iterdir() if p.name.startswith(key))
        os.utime(path, (when.timestamp(), when.timestamp()))  # its Maildir delivery time


@pytest.fixture
def week_six(demo_fed, tmp_path, smtp_server):  # noqa: F811
    """The demo fed with weeks 1-5 taken away and week 6 booked (a deadline, a Face to the Mat
    match), its mailbox, reminders 48h and 6h before, and an SMTP server on loopback."""
    inbox, port = smtp_server
    strategies = {name: (demo_fed / f"strategies/week-01/{name}.yaml").read_text() for name in ("brother-bob", "friendly-sam", "rocky-ridge", "big-earl")}
    for n in range(1, 6):
        for path in sorted((demo_fed / f"strategies/week-0{n}").iterdir()):
            path.unlink()
        (demo_fed / f"strategies/week-0{n}").rmdir()
    (demo_fed / "strategies/week-06").mkdir()
    (demo_fed / "strategies/week-06/card.yaml").write_text(CARD)
    with_smtp(demo_fed, port)
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(
        "  reply_to: strategies@dcw.example\n",
        f"  reply_to: strategies@dcw.example\n  inbox: {tmp_path / 'Maildir'}\n  remind: [48h, 6h]\n")
        .replace("  matchmatch:\n", "  matchmatch:\n    missing_strategy: default\n") + SCHEDULE)
    post = Post(tmp_path / "Maildir")
    return demo_fed, post, inbox, strategies


def delivered_to(inbox, start=0):
    return Counter(rcpt[0] for rcpt, _ in inbox.mails[start:])


def subjects(inbox, start=0):
    return sorted((rcpt[0], str(m["Subject"])) for rcpt, m in inbox.mails[start:])


def test_a_week_runs_itself(week_six, fedtool):
    fed_dir, post, inbox, strategies = week_six
    assert fedtool("open", "6", "--fed", fed_dir).exit_code == 0  # the fedhead opens the week: grids, announcements
    fed = load_fed(fed_dir)

    # Tuesday: two strategies arrive; the tick files them, answers, and sends the announcements
    post.deliver(at(24, 12), "bob@players.example", "Week 6 brother-bob", strategies["brother-bob"], "<bob@x>")
    post.deliver(at(24, 12, 30), "sam@players.example", "Week 6 friendly-sam", strategies["friendly-sam"], "<sam@x>")
    first = tick(fed, at(24, 12, 45))
    assert first.problems == []
    assert first.done == ["read 2 mails: 2 accepted", "sent 8 mails"]
    assert delivered_to(inbox) == {"bob@players.example": 2, "sam@players.example": 2, "hank@players.example": 1,
                                   "earl@players.example": 1, "vince@players.example": 1, "warden@players.example": 1}

    # Wednesday 18:00, 48 hours before: reminders to the two MatchMatch players still without
    # one (Face to the Mat strategies are optional: its players are not reminded)
    sent = len(inbox.mails)
    assert tick(fed, at(25, 18, 5)).done == ["week 6: 2 reminders queued (48 hours before the deadline)", "sent 2 mails"]
    assert subjects(inbox, sent) == [("earl@players.example", "Delta Championship Wrestling: week 6 reminder"),
                                     ("hank@players.example", "Delta Championship Wrestling: week 6 reminder")]
    assert tick(fed, at(25, 18, 20)).done == []  # nothing twice
    assert len(inbox.mails) == sent + 2

    # Thursday: Rocky Ridge's strategy; Friday noon, 6 hours before: only Big Earl is reminded
    post.deliver(at(26, 9), "hank@players.example", "Week 6 rocky-ridge", strategies["rocky-ridge"], "<rocky@x>")
    sent = len(inbox.mails)
    assert tick(fed, at(26, 9, 5)).done == ["read 1 mail: 1 accepted", "sent 1 mail"]
    assert tick(fed, at(27, 12, 5)).done == ["week 6: 1 reminder queued (6 hours before the deadline)", "sent 1 mail"]
    assert subjects(inbox, sent) == [("earl@players.example", "Delta Championship Wrestling: week 6 reminder"),
                                     ("hank@players.example", "Re: Week 6 rocky-ridge")]

    # a late mail after the deadline is refused; the run at the deadline plays Big Earl's default
    post.deliver(at(27, 18, 1), "earl@players.example", "Week 6 big-earl", strategies["big-earl"], "<earl-late@x>")
    sent = len(inbox.mails)
    ran = tick(fed, at(27, 18, 10))
    assert ran.problems == [], ran.problems
    assert ran.done[0] == "read 1 mail: 1 refused"
    assert ran.done[1].startswith("week 6 run (the deadline, Friday 27 November 2026, 18:00 UTC, has passed): 3 matches")
    assert ran.done[2] == "sent 8 mails"  # the refusal, six players' results and the card to the fed's list
    assert delivered_to(inbox, sent) == {"earl@players.example": 2, "bob@players.example": 1, "sam@players.example": 1, "hank@players.example": 1,
                                         "vince@players.example": 1, "warden@players.example": 1, "card-list@dcw.example": 1}
    assert "Big Earl Hollis sent no strategy: the fed's default strategy played." in (fed_dir / "outbox/week-06/m2.md").read_text()
    assert tick(fed, at(27, 18, 25)).done == []  # run once, sent once
    assert len(inbox.mails) == sent + 8


def test_run_early_runs_once_every_strategy_stands(week_six, fedtool):
    fed_dir, post, inbox, strategies = week_six
    (fed_dir / "strategies/week-06/card.yaml").write_text(CARD.replace("  - {id: m2, sides: [rocky-ridge, big-earl]}\n  - {id: m3, ruleset: facemat, sides: [vince-valor, the-warden]}\n", ""))
    set_schedule(fed_dir, "schedule: {tick_every: 6h, run_early: true}\n")
    assert fedtool("open", "6", "--fed", fed_dir).exit_code == 0
    fed = load_fed(fed_dir)
    post.deliver(at(24, 12), "bob@players.example", "Week 6 brother-bob", strategies["brother-bob"], "<bob@x>")
    assert tick(fed, at(24, 12, 5)).done == ["read 1 mail: 1 accepted", "sent 3 mails"]  # the answer and the announcements
    post.deliver(at(24, 13), "sam@players.example", "Week 6 friendly-sam", strategies["friendly-sam"], "<sam@x>")
    done = tick(fed, at(24, 13, 5)).done
    assert done[1].startswith("week 6 run (every side's strategy stands): 1 matches")
    assert (fed_dir / "outbox/week-06/m1.md").is_file()


def test_the_clock_guard(week_six):
    fed_dir, *_ = week_six
    set_schedule(fed_dir, "schedule: {tick_every: 15m}\n")
    fed = load_fed(fed_dir)
    tick(fed, at(24, 12))
    with pytest.raises(FedError, match="the clock has gone back: the last tick was at 2026-11-24T12:00:00"):
        tick(fed, at(24, 11, 50))
    with pytest.raises(FedError, match=r"the last tick was 7 hours ago, and cron runs it every 15 minutes \(schedule: tick_every\)"):
        tick(fed, at(24, 19))
    assert tick(fed, at(24, 19), force=True).problems == []
    assert tick(fed, at(24, 19, 10)).problems == []  # back on the clock: no force needed


def test_a_dry_run_says_what_is_due_and_does_nothing(week_six, fedtool):
    fed_dir, post, inbox, strategies = week_six
    assert fedtool("open", "6", "--fed", fed_dir).exit_code == 0
    post.deliver(at(25, 12), "bob@players.example", "Week 6 brother-bob", strategies["brother-bob"], "<bob@x>")
    before = snapshot(fed_dir)
    report = tick(load_fed(fed_dir), at(27, 19), dry_run=True)
    assert report.done[0].startswith("would read 1 mail in ")
    assert report.done[1] == "week 6: would run it (the deadline, Friday 27 November 2026, 18:00 UTC, has passed)"
    assert report.done[2] == "would send 6 mails"
    assert snapshot(fed_dir) == before and inbox.mails == []


def test_a_stale_reminder_is_dropped_unsent(week_six, fedtool):
    """Queued while mail could not go out, a reminder whose player has since sent a strategy
    that stands is dropped before it is sent."""
    fed_dir, post, inbox, strategies = week_six
    assert fedtool("open", "6", "--fed", fed_dir).exit_code == 0
    queued = fedtool("remind", "6", "--fed", fed_dir)
    assert "reminder for hank@players.example: Rocky Ridge" in queued.output
    post.deliver(at(24, 12), "hank@players.example", "Week 6 rocky-ridge", strategies["rocky-ridge"], "<rocky@x>")
    assert fedtool("inbox", post.folder, "--fed", fed_dir).exit_code == 0
    sent = fedtool("send", "6", "--fed", fed_dir)
    assert "dropped a stale reminder (the strategies stand now, or the week has run): outbox/reminders/week-06/mail/hank-players-example.eml: hank@players.example" in sent.output
    reminded = sorted(rcpt[0] for rcpt, m in inbox.mails if str(m["Subject"]).endswith("reminder"))
    assert reminded == ["bob@players.example", "earl@players.example", "sam@players.example"]


def test_the_cli_tick_reads_the_clock_and_the_lock(week_six, fedtool, monkeypatch):
    fed_dir, post, inbox, strategies = week_six
    post.deliver(at(24, 12), "bob@players.example", "Week 6 brother-bob", strategies["brother-bob"], "<bob@x>")
    with time_machine.travel(at(24, 12, 5), tick=False):
        result = fedtool("tick", "--fed", fed_dir)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["read 1 mail: 1 accepted", "sent 1 mail"]
    from filelock import FileLock

    with FileLock(fed_dir / ".fedtool.lock"), time_machine.travel(at(24, 12, 20), tick=False):
        busy = fedtool("tick", "--fed", fed_dir)
    assert busy.exit_code == 1 and "another fedtool command is writing to this fed (waited 0 s)" in busy.stderr
    with time_machine.travel(at(24, 11), tick=False):
        back = fedtool("tick", "--fed", fed_dir)
    assert back.exit_code == 1 and "the clock has gone back" in back.stderr and "Traceback" not in back.output
