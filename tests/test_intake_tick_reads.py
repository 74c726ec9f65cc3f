"""`fedtool tick` reads the week's sides once (issue 18 item 4, the brief's "week_status twice
per tick"): the reminders, `run_early` and `send`'s stale reminders all ask what each side
has sent, and nothing between them changes a strategy."""

from __future__ import annotations

from fedtool.league.sheets import load_fed
from fedtool.mail import cycle, outgoing
from fedtool.mail.cycle import tick
from test_send import smtp_server  # noqa: F401  (the aiosmtpd fixture)
from test_tick import at, set_schedule, subjects, week_six  # noqa: F401  (the fixture)


def test_a_tick_with_reminders_and_run_early_reads_the_week_once(week_six, fedtool, monkeypatch):  # noqa: F811
    fed_dir, post, inbox, strategies = week_six
    set_schedule(fed_dir, "schedule: {tick_every: 6h, run_early: true}\n")
    assert fedtool("open", "6", "--fed", fed_dir).exit_code == 0
    post.deliver(at(25, 12), "bob@players.example", "Week 6 brother-bob", strategies["brother-bob"], "<bob@x>")
    reads = []
    real = cycle.week_status

    def counted(*args, **kwargs):
        reads.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(cycle, "week_status", counted)
    monkeypatch.setattr(outgoing, "week_status", counted)
    done = tick(load_fed(fed_dir), at(25, 18, 5)).done  # 48 hours before: reminders; run_early: not every side stands yet
    assert done == ["read 1 mail: 1 accepted", "week 6: 3 reminders queued (48 hours before the deadline)", "sent 10 mails"]
    assert reads == [6]  # once: the reminders, run_early and the stale reminders' check share it
    reminded = sorted(to for to, subject in subjects(inbox) if subject.endswith("reminder"))
    assert reminded == ["earl@players.example", "hank@players.example", "sam@players.example"]
