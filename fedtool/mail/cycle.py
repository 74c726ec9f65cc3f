"""`fedtool tick`: the week runs itself. The one command a fedhead puts in cron.

Each tick, under the fed's lock, does what is due and nothing twice: it reads the fed's
mailbox (`mail: inbox:`), files and answers strategies; queues reminders at the fed's spans
before the open week's deadline (`mail: remind: [48h, 6h]`) to the players still without a
standing strategy; runs the week at its deadline (or, with `schedule: run_early: true`, as
soon as every side's strategy stands); and sends everything queued (stale reminders are
dropped unsent). Every step is idempotent: mail read before is not read again, a mail sent
is not sent again, a week run is not run again, so a tick killed half-way is finished by
the next one.

A guard like GalaxyNG's and njudge's: a tick refuses to act when the clock has jumped back
past the last tick, or when the last tick is far older than cron's period (the machine was
off, or cron stopped): the fedhead looks (`fedtool tick --dry-run`) and goes on with
`--force`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from fedtool.fed.schedule import shown_time
from fedtool.fed.settings import Fed
from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.words import counted
from fedtool.league.db import open_league
from fedtool.week.booking import book_all, card_context, week_card, week_in_play
from fedtool.week.run import absences, run_week
from fedtool.week.status import week_status

from .imap import is_imap
from .intake import intake, messages
from .outgoing import Courier, SendReport, merge, queue_reminders, send_outbox, waiting_players

RULE = "fedtool tick"
CLOCK_SLACK = datetime.timedelta(minutes=1)  # a clock may step back this much (NTP) without alarm
FAR = 24  # a last tick older than this many cron periods is "far older than expected"


@dataclass
class TickReport:
    """What a tick did (or, with dry_run, would do), in the fedhead's words."""

    now: datetime.datetime
    dry_run: bool = False
    done: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # steps that could not be done (the others were)


def _guard(fed: Fed, db, now: datetime.datetime) -> None:
    """Refuse to act on a clock that jumped back, or after a silence far longer than cron's period."""
    row = db.execute("SELECT at FROM ticks ORDER BY rowid DESC LIMIT 1").fetchone()
    if row is None:
        return
    last = datetime.datetime.fromisoformat(row[0])
    every = fed.settings.schedule.tick_every
    if now < last - CLOCK_SLACK:
        raise FedError(Problem(None, None, f"the clock has gone back: the last tick was at {last.isoformat()}, and it is now {now.isoformat()}; "
                               "check the machine's clock, then `fedtool tick --force` to go on", RULE))
    if now - last > every * FAR:
        raise FedError(Problem(None, None, f"the last tick was {_ago(now - last)} ago, and cron runs it every {_ago(every)} (schedule: tick_every): "
                               "was the machine off, or has cron stopped? See what is due with `fedtool tick --dry-run`, then `fedtool tick --force`", RULE))


def _inbox(fed: Fed) -> str | None:
    """The fed's mailbox (`mail: inbox:`): an IMAP address as written, a path written relative
    read in the fed's folder, as `database:` is, never in the current folder (review 26)."""
    source = fed.settings.mail.inbox
    if not source or is_imap(source):
        return source
    return str(fed.root / Path(source).expanduser())


def tick(fed: Fed, now: datetime.datetime | None = None, dry_run: bool = False, force: bool = False) -> TickReport:
    """Do what is due (see the module's text). The caller holds the fed's lock. Raises FedError
    when the clock guard refuses; a step that fails is reported and the others still run."""
    now = now or clock.now()
    report = TickReport(now, dry_run)
    db = open_league(fed.database, create=not dry_run)
    if not force:
        try:
            _guard(fed, db, now)
        except FedError as exc:
            if not dry_run:
                raise
            report.problems.append(f"a real tick would refuse: {exc}")  # a dry run looks anyway: it changes nothing
    settings = fed.settings

    # 1. the mailbox; each answer sent as soon as the commit that records its mail is done,
    # while the mails after it are judged (`Courier`: the league's commit decides, the outbox follows)
    answers: dict = {}  # the answers this intake queued, their headers known (`send` need not parse them back)
    sending = SendReport()
    unreachable = None  # the SMTP server's error while the intake's answers went: not tried again this tick
    inbox = _inbox(fed)
    if inbox:
        courier = Courier(fed) if settings.mail.smtp is not None and not dry_run else None
        try:
            if dry_run:
                report.done.append(f"would read {counted(sum(1 for _ in messages(inbox)), 'mail')} in {settings.mail.inbox} (those read before count once)")
            else:
                read = intake(fed, inbox, now, answered=courier.put if courier is not None else None)
                answers = read.answers
                new = len(read.outcomes) - read.count("duplicate")  # a mailbox keeps what was read before: not news
                if new:
                    counts = ", ".join(counted(read.count(v), v) if v == "command" else f"{read.count(v)} {v}"  # the verdicts are adjectives: no plural
                                       for v in ("accepted", "held", "refused", "ignored", "quarantined", "command") if read.count(v))
                    report.done.append(f"read {counted(new, 'mail')}: {counts}")
        except FedError as exc:
            report.problems.append(f"mailbox: {exc}")
        finally:
            if courier is not None:
                sending = courier.close()
                unreachable = courier.error

    # 2. the week in play: reminders, then the run when it is due
    week = week_in_play(fed)
    statuses: dict[int, list] = {}  # the week's sides as `fedtool status` shows them, read once per tick
    if week is not None:
        try:
            _week(fed, week, now, report, statuses)
        except FedError as exc:
            report.problems.append(f"week {week}: {exc}")

    # 3. everything queued
    if settings.mail.smtp is not None:
        try:
            if unreachable is not None:  # said once; what the intake queued waits for the next send
                report.problems.append(f"send: {unreachable}")
            sent = sending if unreachable is not None else merge(sending, send_outbox(fed, None, dry_run, known=answers, statuses=statuses))
            if sent.sent or sent.failed or sent.stale:
                report.done.append(f"{'would send' if dry_run else 'sent'} {counted(len(sent.sent), 'mail')}" + (f", {len(sent.failed)} kept for next time" if sent.failed else "")
                                   + (f", {len(sent.stale)} stale reminders dropped" if sent.stale else ""))
            report.problems.extend(f"not sent: {line}" for line in sent.failed)
            report.done.extend(f"may not have gone out (a send was stopped while sending it; not sent again): {line}" for line in sent.uncertain)
            report.problems.extend(f"not sent: results of a run the league no longer holds (a restore; run the week again): {line}" for line in sent.other_run)
        except FedError as exc:
            report.problems.append(f"send: {exc}")
    if not dry_run:
        with db.atomic():
            db["ticks"].insert({"at": now.isoformat(), "did": "; ".join(report.done + report.problems) or "nothing due"})
    return report


def _week(fed: Fed, week: int, now: datetime.datetime, report: TickReport, statuses: dict[int, list]) -> None:
    """The reminders and the run that are due for the week in play. `statuses` keeps the
    week's `week_status` rows, read once for the reminders, `run_early` and `send`'s stale
    reminders (nothing this step does before the run changes a strategy)."""
    card = week_card(fed, week)
    deadline = card.deadline

    def rows() -> list:
        if week not in statuses:
            statuses[week] = week_status(fed, week)
        return statuses[week]

    come = [before for before in fed.settings.mail.remind if deadline is not None and deadline - before <= now < deadline]
    if come:  # the latest reminder whose time has come (one missed while the machine was off is not sent late)
        before = min(come)
        if report.dry_run:
            waiting = waiting_players(fed, week, rows())
            if waiting:
                report.done.append(f"week {week}: would queue reminders ({_ago(before)} before the deadline) for {', '.join(sorted(waiting))}")
        else:
            queued = queue_reminders(fed, week, before, rows())
            if queued.queued:
                report.done.append(f"week {week}: {counted(len(queued.queued), 'reminder')} queued ({_ago(before)} before the deadline)")
    due = deadline is not None and now >= deadline
    if not due and fed.settings.schedule.run_early:
        due = bool(rows()) and all(row.verdict in ("stands", "away") for row in rows())  # an away player's default plays
        why = "every side's strategy stands"
    else:
        why = f"the deadline, {shown_time(fed, deadline)}, has passed" if deadline else ""
    if not due:
        if deadline is None and report.dry_run:  # said when asked, not every quarter of an hour to cron
            report.done.append(f"week {week}: no deadline yet (give the card a `deadline:`, or a `schedule:` and `fedtool open {week}`)")
        return
    if report.dry_run:
        try:  # booked as the run books it: a week that cannot run says why
            context = card_context(fed, card, week)
            # the rows read above, unless the card has no deadline: then who is away is read on the tick's own day
            absent = absences(fed, open_league(fed.database, create=False), week, card, rows() if deadline is not None else week_status(fed, week, now))
            book_all(fed, card, context.wrestlers, context.states, excused=absent.excused)
            report.done.append(f"week {week}: would run it ({why})")
        except FedError as exc:
            report.done.append(f"week {week}: would try to run it ({why}), but the run would refuse: {exc}")
        return
    ran = run_week(fed, week)
    report.done.append(f"week {week} run ({why}): {len(ran.headlines)} matches, {len(ran.files)} files in {fed.shown(ran.outbox)}")


def _ago(span: datetime.timedelta) -> str:
    minutes = int(span.total_seconds() // 60)
    if minutes == 1:
        return "1 minute"
    if minutes < 120:
        return f"{minutes} minutes"
    if minutes <= 72 * 60:
        return f"{minutes // 60} hours"
    return f"{minutes // 1440} days"
