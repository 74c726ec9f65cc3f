"""Delivering the outbox by SMTP: every .eml fedtool wrote, once.

Each mail sent is recorded in the league (`sent_mail`, by its Message-ID), so running
`fedtool send` again sends nothing twice; a mail the server refuses stays queued and is
reported. The password comes from the environment (FEDTOOL_SMTP_PASSWORD), never a file.
A rerun's corrected mails have new Message-IDs, so `send` delivers them; `resend_week`
queues a fresh copy of a week's mail on purpose (outbox/resent/week-NN/mail/).
"""

from __future__ import annotations

import datetime
import hashlib
import os
import queue
import re
import smtplib
import ssl
import threading
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.utils import format_datetime, getaddresses, parsedate_to_datetime
from pathlib import Path

from fedtool.fed.files import leftovers
from fedtool.fed.render import MAIL_POLICY, email
from fedtool.kernel import clock
from fedtool.kernel.dice import derive_seed
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.validation import reserved_domain
from fedtool.fed.settings import Fed, week_name
from fedtool.fed.schedule import shown_time
from fedtool.league.db import open_league, ran_weeks
from fedtool.rulesets import get_ruleset
from fedtool.week.booking import week_card
from fedtool.week.status import week_status

PASSWORD_ENV = "FEDTOOL_SMTP_PASSWORD"


@dataclass
class SendReport:
    sent: list[str] = field(default_factory=list)  # "file: to"
    already: int = 0
    failed: list[str] = field(default_factory=list)  # "file: why"
    reserved: list[str] = field(default_factory=list)  # "file: to" for addresses on a reserved domain (.test, ...)
    stale: list[str] = field(default_factory=list)  # reminders dropped unsent: the player's strategies now stand
    uncertain: list[str] = field(default_factory=list)  # "file: to": a send was stopped while this mail was going out
    other_run: list[str] = field(default_factory=list)  # "file: to": results of a run the league no longer holds (a restore)
    unjudged: list[str] = field(default_factory=list)  # answers to mails whose verdict the league never recorded (a stopped intake)
    dry_run: bool = False
    nothing: str | None = None  # why there was nothing to send at all (a week with no mail): said plainly, no failure


UNCERTAIN = "uncertain: a send was stopped while this mail was going out"

READING, READING_AGAIN = "reading", "reading again"  # inbox_seen's mark while a mail is judged (a crash leaves it)


def answer_name(message_id: str) -> str:
    """The file name of the answer to a mail in outbox/replies/: the SHA-256 of its Message-ID
    (never anything the mail says)."""
    return hashlib.sha256(message_id.encode()).hexdigest()[:16] + ".eml"


def _judged(db) -> set[str]:
    """The answer file names of the mails whose verdict the league holds: an answer written
    by an intake stopped before it recorded the verdict is not one (the next intake judges
    the mail again and writes it again, under the same Message-ID)."""
    if not db["inbox_seen"].exists():
        return set()
    return {answer_name(row[0]) for row in db.execute("SELECT message_id FROM inbox_seen WHERE verdict NOT IN (?, ?)", [READING, READING_AGAIN])}


MAIL_FOLDERS = ("replies", "reminders", "resent")  # outbox/<kind>/week-NN/mail/: answers to strategy mails, reminders, copies sent again


def queued(fed: Fed, week: int | None, held: set[int], kinds: tuple[str, ...] | None = None) -> list[Path]:
    """Every mail in the outbox (results, announcements, answers to strategy mails and
    reminders), for one week or all. A week's results go only when the league holds the
    week (`held`) and its outbox is settled (no swap left half done: fedtool.fed.files);
    exhibitions (outbox/exhibitions/, `fedtool play`) never go. `kinds`: only the week
    folders' mail and these of `MAIL_FOLDERS` (None: all)."""
    chosen = MAIL_FOLDERS if kinds is None else tuple(k for k in MAIL_FOLDERS if k in kinds)
    if week is not None:
        folders = [fed.outbox_week(week)] + [fed.outbox / kind / week_name(week) for kind in chosen]
    else:
        folders = sorted(p for p in fed.outbox.glob("week-*") if p.is_dir())
        folders += sorted(p for kind in chosen for p in (fed.outbox / kind).glob("*") if p.is_dir())
    # in this order: a week's announcements and results, then answers, then reminders last,
    # so a reminder never goes before the announcement it reminds of
    may_go = {fed.outbox_week(w) / "mail" for w in held if not leftovers(fed.outbox_week(w))}
    return [p for folder in folders if folder.is_dir() for p in sorted(folder.rglob("mail/*.eml"))
            if p.parent in may_go or not _results(fed, p.parent)]


def _of_run(head, ran_at: str | None) -> bool:
    """Whether a results mail is of the run the league holds: a run's mails are dated with
    the run's own time (fedtool.week.run), which the league keeps as the week's `ran_at`.
    After `fedtool restore` to before a rerun, the rerun's mails in the outbox are not."""
    try:
        return ran_at is not None and parsedate_to_datetime(str(head["Date"])) == datetime.datetime.fromisoformat(ran_at)
    except (TypeError, ValueError):
        return False


def _results(fed: Fed, folder: Path) -> bool:
    """Whether a folder of mail is a week's results (outbox/week-*/mail/, not its announcements)."""
    return folder.name == "mail" and folder.parent.parent == fed.outbox and folder.parent.name.startswith("week-")


def send_outbox(fed: Fed, week: int | None = None, dry_run: bool = False, smtp_factory=None, known: dict[Path, tuple[str, str]] | None = None,
                kinds: tuple[str, ...] | None = None, postman: Postman | None = None, statuses: dict[int, list] | None = None) -> SendReport:
    """Send every mail not yet sent; a refused mail stays queued. `smtp_factory(host, port)`
    makes the connection (tests pass their own). `known`: answers an intake of this process
    has just queued, file -> (its Message-ID, its one recipient), so their headers are not
    parsed back (`IntakeReport.answers`). `kinds`: only the week folders' mail ("week":
    announcements and results) and these kinds of `MAIL_FOLDERS` (None: everything).
    `postman`: the connection and records to send with (`Postman`; by default one made here
    and closed at the end). `statuses`: week -> its `week_status` rows, read already by the
    caller (`fedtool tick`) and still so (for the stale reminders)."""
    settings = fed.settings.mail
    if settings.smtp is None and not dry_run:
        raise FedError(Problem("rosters/fed.yaml", "field mail.smtp", "no SMTP server set: give host, port, security (starttls, ssl or none) and user", "fedtool send"))
    if week is not None and not any(f.exists() for f in [fed.outbox_week(week)] + [fed.outbox / k / week_name(week) for k in MAIL_FOLDERS]):
        # no mail for the week (no run, no reminder due): nothing to do is no failure, so `remind N && send N` goes on
        return SendReport(dry_run=dry_run, nothing=f"nothing to send for {week_name(week)}: it has no mail in outbox/ (no run, no reminder due)")
    db = postman.db if postman is not None else open_league(fed.database, create=not dry_run)
    done = {row[0] for row in db.execute("SELECT message_id FROM sent_mail").fetchall()} if db["sent_mail"].exists() else set()
    report = SendReport(dry_run=dry_run)
    if db["sent_mail"].exists() and not dry_run:  # mails a stopped send left in flight: said once, never sent again
        report.uncertain = [f"{row['file']}: {row['to']}" for row in db["sent_mail"].rows_where("sent_at IS NULL", order_by="rowid")]
        if report.uncertain:
            db.execute("UPDATE sent_mail SET sent_at = ? WHERE sent_at IS NULL", [UNCERTAIN])
            db.conn.commit()
    mails = []
    report.stale = drop_stale_reminders(fed, week, statuses) if not dry_run and (kinds is None or "reminders" in kinds) else []
    ran_at = {row[0]: row[1] for row in db.execute("SELECT week, ran_at FROM weeks").fetchall()}
    known = known or {}
    own = None
    judged = None
    replies = fed.outbox / "replies"
    for path in queued(fed, week, set(ran_at), kinds):
        if path.parent.parent.parent == replies and path not in known:
            judged = _judged(db) if judged is None else judged
            if path.name not in judged:
                report.unjudged.append(fed.shown(path))
                continue
        if path in known:  # an answer this process wrote: its headers are known, not parsed back (nor read, when it went before)
            message_id, to = known[path]
            if message_id in done:
                report.already += 1
                continue
            own = own or _own_address(fed)
            head = _Known(message_id, to, own)
            raw = path.read_bytes()
        else:
            raw = path.read_bytes()
            head = _HEADERS.parsebytes(raw, headersonly=True)  # the headers are all `send` reads; the bytes go as written
        if head["Message-ID"] in done:
            report.already += 1
            continue
        if _results(fed, path.parent) and not _of_run(head, ran_at.get(int(path.parent.parent.name[5:]))):
            report.other_run.append(f"{fed.shown(path)}: {head['To']}")
            continue
        mails.append((path, raw, head))
    if dry_run or not mails:
        report.sent = [f"{fed.shown(p)}: {h['To']}" for p, _, h in mails] if dry_run else []
        return report
    mine = postman is None
    postman = postman or Postman(fed, smtp_factory, db)
    try:
        for path, raw, head in mails:
            postman.deliver(path, raw, head, report)
    finally:
        if mine:
            postman.close()
    return report


def _own_address(fed: Fed) -> str:
    return MAIL_POLICY.header_factory("from", str(fed.settings.mail.from_address)).addresses[0].addr_spec


class Postman:
    """One SMTP connection, made when the first mail goes, and the league's record of what was
    sent (`sent_mail`), each mail recorded before and after it goes (`deliver`): at most once."""

    def __init__(self, fed: Fed, smtp_factory=None, db=None):
        self.fed = fed
        self.smtp_factory = smtp_factory
        self.db = db if db is not None else open_league(fed.database)
        self.server = None
        self.pending = False  # a commit is owed (the last mail's "sent" mark)

    def connect(self) -> None:
        smtp = self.fed.settings.mail.smtp
        factory = self.smtp_factory or (smtplib.SMTP_SSL if smtp.security == "ssl" else smtplib.SMTP)
        try:
            if smtp.security == "ssl" and self.smtp_factory is None:
                server = factory(smtp.host, smtp.port, context=ssl.create_default_context(), timeout=30)
            else:
                server = factory(smtp.host, smtp.port, timeout=30)
        except OSError as exc:
            raise FedError(Problem("rosters/fed.yaml", "field mail.smtp", f"cannot reach {smtp.host}:{smtp.port}: {exc}", "fedtool send")) from None
        try:
            if smtp.security == "starttls":
                server.starttls(context=ssl.create_default_context())
            if smtp.user:
                password = os.environ.get(PASSWORD_ENV)
                if not password:
                    raise FedError(Problem(None, None, f"set {PASSWORD_ENV} to the SMTP password for {smtp.user}", "fedtool send"))
                server.login(smtp.user, password)
        except BaseException:
            server.close()
            raise
        # One commit a mail, as intake's: with the write-ahead log and synchronous NORMAL a commit
        # survives the process dying (a kill, a crash), which is what the in-flight marks are for,
        # without an fsync each (a third of a millisecond here, a third of send's own time). A
        # power cut can lose the last marks: those mails go again (a duplicate, never a loss).
        # The log is synced at the end (the checkpoint).
        if not self.db.memory:
            self.db.execute("PRAGMA synchronous = NORMAL")
        self.server = server

    def deliver(self, path: Path, raw: bytes, head, report: SendReport) -> None:
        """One mail sent, at most once: it is recorded as in flight (no sent_at) and committed
        before it goes, so a send killed while talking to the server never sends it again
        (`uncertain` names it). Its "sent" mark rides on the next mail's commit (one commit a
        mail): a kill in between leaves it in flight, never unsent. Plain SQL: sqlite-utils
        reads the table's schema on every call."""
        if self.server is None:
            self.connect()
        fed, db = self.fed, self.db
        message_id = str(head["Message-ID"])
        db.execute("INSERT OR REPLACE INTO sent_mail (message_id, file, [to], sent_at) VALUES (?, ?, ?, NULL)", [message_id, fed.shown(path), str(head["To"])])
        db.conn.commit()
        self.pending = False
        try:
            refused = _deliver(self.server, raw, head)
        except (smtplib.SMTPException, OSError) as exc:
            _forget(db, message_id)  # certainly not sent: the next send tries again
            report.failed.append(f"{fed.shown(path)}: {exc}")
            return
        if refused:
            _forget(db, message_id)
            report.failed.append(f"{fed.shown(path)}: refused for {', '.join(refused)}")
            return
        db.execute("UPDATE sent_mail SET sent_at = ? WHERE message_id = ?", [datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), message_id])
        self.pending = True
        report.sent.append(f"{fed.shown(path)}: {head['To']}")
        if reserved_domain(head.to if isinstance(head, _Known) else head["To"].addresses[0].addr_spec if head["To"].addresses else ""):
            report.reserved.append(f"{fed.shown(path)}: {head['To']}")

    def close(self) -> None:
        """The last mark committed, the log checkpointed, the connection said goodbye to."""
        try:
            if self.pending:
                self.db.conn.commit()
                self.pending = False
            if self.server is not None and not self.db.memory:
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            server, self.server = self.server, None
            if server is not None:
                try:
                    server.quit()
                except (smtplib.SMTPException, OSError):
                    server.close()


# A courier's thread holds this while it talks to the league or the SMTP server, and a fork
# waits for it (os.register_at_fork): intake forks its workers while the courier sends, and a
# child forked while another thread is inside SQLite (which holds its own mutexes, left
# locked in the child) could hang on its first query. Between two mails the courier holds
# nothing, so a fork waits at most one mail.
_BUSY = threading.Lock()


def _release_after_fork() -> None:
    if _BUSY.locked():
        _BUSY.release()


os.register_at_fork(before=_BUSY.acquire, after_in_parent=_release_after_fork, after_in_child=_release_after_fork)


class Courier:
    """Answers sent while intake still judges (`fedtool tick`): a thread with one SMTP
    connection (`Postman`) and a queue. `intake` hands it each batch of answers once the
    commit that records their mails is done (`intake(answered=...)`): the league's commit
    decides, the outbox follows. Before the first answer it sends the week folders' mail
    waiting (announcements and results), so answers never overtake the announcement of
    their week; reminders and copies sent again wait for the tick's last `send_outbox`,
    after the intake (a reminder made stale by a strategy just filed is dropped unsent).

    `close()` waits for every answer handed on, and returns what was sent; a FedError of
    the connection (the server cannot be reached) is kept in `error` and sending stops (the
    answers stay queued for the next `send`); any other error is raised by `close()`."""

    def __init__(self, fed: Fed, smtp_factory=None):
        self.fed = fed
        self.smtp_factory = smtp_factory
        self.report = SendReport()
        self.error: FedError | None = None
        self._fault: BaseException | None = None
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="fedtool-courier", daemon=True)
        self._thread.start()

    def put(self, answers: list[tuple[Path, str, str]]) -> None:
        """Answers to send, each (file, its Message-ID, its recipient), their verdicts committed."""
        self._queue.put(list(answers))

    def close(self) -> SendReport:
        self._queue.put(None)
        self._thread.join()
        if self._fault is not None:
            raise self._fault
        return self.report

    def _run(self) -> None:
        postman = None
        stopped = False
        try:
            with _BUSY:
                postman = Postman(self.fed, self.smtp_factory)  # its own connection to the league: this thread's
                merge(self.report, send_outbox(self.fed, kinds=(), postman=postman))
                done = {row[0] for row in postman.db.execute("SELECT message_id FROM sent_mail").fetchall()}
            own = _own_address(self.fed)
            while (answers := self._queue.get()) is not None:
                for path, message_id, to in answers:
                    if message_id in done:  # a mail judged again after a crash: its answer went before
                        self.report.already += 1
                        continue
                    with _BUSY:
                        postman.deliver(path, path.read_bytes(), _Known(message_id, to, own), self.report)
                    done.add(message_id)
        except FedError as exc:
            self.error = exc
            stopped = True
        except BaseException as exc:  # raised again by close(), in the tick's own thread
            self._fault = exc
            stopped = True
        finally:
            try:
                if postman is not None:
                    with _BUSY:
                        postman.close()
                        postman.db.close()
            except BaseException as exc:
                self._fault = self._fault or exc
            if stopped:  # nothing more is sent: what comes is left queued for the next send
                while self._queue.get() is not None:
                    pass


def merge(report: SendReport, other: SendReport) -> SendReport:
    """`other`'s mails added to `report`'s."""
    report.sent += other.sent
    report.already += other.already
    report.failed += other.failed
    report.reserved += other.reserved
    report.stale += other.stale
    report.uncertain += other.uncertain
    report.other_run += other.other_run
    return report


_HEADERS = BytesParser(policy=MAIL_POLICY)
_LINE_END = re.compile(rb"\r?\n")


def _deliver(server: smtplib.SMTP, raw: bytes, head) -> dict:
    """Send one mail of the outbox as written: the envelope from its From, To and Cc; the
    lines ended CR LF as SMTP requires (the outbox is written with the platform's newlines,
    and smtplib passes bytes through as given). A mail with an address that is not ASCII
    goes through `send_message`, which asks the server for SMTPUTF8. Returns the recipients
    the server refused."""
    if isinstance(head, _Known):
        addresses, sender = [head.to], head.sender
    else:
        addresses = [a.addr_spec for name in ("To", "Cc") for header in head.get_all(name, []) for a in header.addresses]
        sender = head["From"].addresses[0].addr_spec if head["From"] and head["From"].addresses else ""
    if not all(a.isascii() for a in [sender, *addresses]) or "Bcc" in head:
        return server.send_message(_HEADERS.parsebytes(raw))
    return server.sendmail(sender, addresses, _LINE_END.sub(b"\r\n", raw))


@dataclass
class _Known:
    """The headers `send` reads of an answer intake has just written (one recipient, no Cc or Bcc)."""

    message_id: str
    to: str
    sender: str

    def __getitem__(self, name: str) -> str:
        return {"Message-ID": self.message_id, "To": self.to, "From": self.sender}[name]

    def __contains__(self, name: str) -> bool:
        return name in ("Message-ID", "To", "From")


def _forget(db, message_id: str) -> None:
    db.execute("DELETE FROM sent_mail WHERE message_id = ?", [message_id])
    db.conn.commit()


@dataclass
class ReminderReport:
    queued: list[str] = field(default_factory=list)  # "address: wrestler names"
    reminded_before: list[str] = field(default_factory=list)  # addresses already sent this week's reminder
    folder: Path | None = None


def waiting_players(fed: Fed, week: int, rows: list | None = None) -> dict[str, list]:
    """Owner address -> his sides of the week's card with no strategy that stands (nothing
    sent, only refused mail, a file that does not stand), less the sides of rulesets where a
    strategy is optional and the default plays (`Ruleset.strategy_optional`). `rows`: the
    week's `week_status(fed, week)`, when the caller has read it."""
    waiting: dict[str, list] = {}
    card = week_card(fed, week)
    rulesets = {m.id: get_ruleset(m.ruleset) for m in card.matches}
    for row in week_status(fed, week) if rows is None else rows:
        if row.verdict == "default" and rulesets[row.match].strategy_optional:
            continue
        if row.verdict in ("missing", "refused", "default") and row.owner:
            waiting.setdefault(row.owner.lower(), []).append(row)
    return waiting


def drop_stale_reminders(fed: Fed, week: int | None = None, statuses: dict[int, list] | None = None) -> list[str]:
    """Remove each queued, unsent reminder that no longer holds: its week has been run, or
    its player's strategies all stand now. Returns what was dropped ("file: to").
    `statuses`: week -> its `week_status` rows, where the caller has read them."""
    db = open_league(fed.database, create=False)
    sent = {r["message_id"] for r in db["sent_mail"].rows} if db["sent_mail"].exists() else set()
    run = set(ran_weeks(db))
    dropped = []
    weeks = [week] if week is not None else sorted(int(p.name[5:]) for p in (fed.outbox / "reminders").glob("week-*") if p.name[5:].isdigit())
    for number in weeks:
        folder = fed.outbox / "reminders" / week_name(number) / "mail"
        files = sorted(folder.glob("*.eml")) if folder.is_dir() else []
        if not files:
            continue
        waiting = waiting_players(fed, number, (statuses or {}).get(number)) if number not in run and (fed.week_dir(number) / "card.yaml").exists() else {}
        for path in files:
            message = BytesParser(policy=MAIL_POLICY).parsebytes(path.read_bytes(), headersonly=True)
            to = message["To"].addresses[0].addr_spec.lower() if message["To"] and message["To"].addresses else ""
            if message["Message-ID"] not in sent and to not in waiting:
                path.unlink()
                dropped.append(f"{fed.shown(path)}: {to}")
    return dropped


def queue_reminders(fed: Fed, week: int, before: datetime.timedelta | None = None, rows: list | None = None) -> ReminderReport:
    """Queue one reminder per player with a side on the week's card that has no valid strategy
    yet (nothing sent, or only refused mail), naming each match, the deadline and how to
    submit. Each player's reminder has one Message-ID per week (per `before`, the span before
    the deadline it is sent at, for `fedtool tick`), so `fedtool send` delivers it once
    however often this runs. `rows`: the week's `week_status(fed, week)`, when the caller has read it."""
    card = week_card(fed, week)
    mail = fed.settings.mail
    to_address = str(mail.reply_to or mail.from_address)
    deadline = f"The deadline is {shown_time(fed, card.deadline)}." if card.deadline else "There is no deadline on the card: send it before the fedhead runs the week."
    matches = {m.id: m for m in card.matches}
    waiting = waiting_players(fed, week, rows)
    tag = "" if before is None else f"-{_span(before)}"
    db = open_league(fed.database)
    sent = {r["message_id"] for r in db["sent_mail"].rows}
    report = ReminderReport(folder=fed.outbox / "reminders" / week_name(week) / "mail")
    domain = str(mail.from_address).rsplit("@", 1)[-1]
    for address, sides in sorted(waiting.items()):
        message_id = f"<{derive_seed(fed.settings.secret, 'message-id', week_name(week), 'reminder' + tag, address):016x}.reminder@{domain}>"
        if message_id in sent:
            report.reminded_before.append(address)
            continue
        lines = [f"Hello {sides[0].owner_name},", "", f"{fed.settings.name} has no valid strategy from you yet for week {week}:", ""]
        for row in sides:
            match = matches[row.match]
            names = " vs. ".join(match.sides)
            if row.verdict == "refused":
                state = "the strategy filed does not stand"
            elif any(" refused" in line for line in row.mails):
                state = "only refused mail so far"
            else:
                state = "nothing received yet"
            extra = " (without one you play the fed's default strategy)" if row.verdict == "default" else ""
            lines.append(f"- match {row.match} ({names}): {row.wrestler}, {state}{extra}")
        # plain text, read as it is (issue 16): quotes, not Markdown's backticks
        lines += ["", deadline, "", f'To submit, mail {to_address} with the subject "Week {week} <wrestler-id>" '
                  f'(for example "Week {week} {sides[0].wrestler_id}") and the strategy as the body or a .yaml or .txt attachment.']
        if mail.passwords:
            lines.append('Put your password on a line of its own: "Password: your-password".')
        lines += ["Every strategy mail is answered: accepted, or refused with each problem and its line."]
        message = email(str(mail.from_address), sides[0].owner_name, address, f"{fed.settings.name}: week {week} reminder",
                        "\n".join(lines) + "\n", None, message_id, mail.reply_to)
        report.folder.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^a-z0-9]+", "-", address).strip("-")[:80] or "player"
        (report.folder / f"{name}{tag}.eml").write_text(message.as_string(), encoding="utf-8")
        report.queued.append(f"{address}: {', '.join(r.wrestler for r in sides)}")
    return report


def _span(span: datetime.timedelta) -> str:
    """6h, 2d, 30m: a reminder's span as the settings write it."""
    minutes = int(span.total_seconds() // 60)
    for unit, size in (("d", 1440), ("h", 60)):
        if minutes % size == 0:
            return f"{minutes // size}{unit}"
    return f"{minutes}m"


RESENT = "Resent: "  # the subject prefix of a copy sent again on purpose


@dataclass
class ResendReport:
    queued: list[str] = field(default_factory=list)  # "copy: to"
    folder: Path | None = None


def resend_week(fed: Fed, week: int, to: str | None = None) -> ResendReport:
    """Queue a fresh copy of a week's results mails (every player's and the list's card, or
    only those to `to`) in outbox/resent/week-NN/mail/, for `fedtool send` to deliver.

    Each copy is the mail as the week's latest run wrote it, with a new Message-ID (so it
    is sent even though the original was), `In-Reply-To` and `References` naming the
    original, a subject starting "Resent: " and a Date of now. Each call queues new copies."""
    source = fed.outbox_week(week) / "mail"
    originals = sorted(source.glob("*.eml")) if source.is_dir() else []
    if not originals:
        raise FedError(Problem(fed.shown(fed.outbox_week(week)), None, f"{week_name(week)} has no results mail to send again; run the week first (`fedtool run {week}`)", "fedtool resend"))
    parsed = []
    for path in originals:
        message = BytesParser(policy=MAIL_POLICY).parsebytes(path.read_bytes())
        addresses = [address.lower() for _, address in getaddresses(message.get_all("To", []))]
        parsed.append((path, message, addresses))
    if to is not None:
        wanted = to.strip().lower()
        everyone = sorted({a for _, _, addresses in parsed for a in addresses})
        parsed = [item for item in parsed if wanted in item[2]]
        if not parsed:
            raise FedError(Problem(fed.shown(source), None, f"no mail to {to} in {week_name(week)}'s results; they went to {', '.join(everyone)}", "fedtool resend"))
    folder = fed.outbox / "resent" / week_name(week) / "mail"
    folder.mkdir(parents=True, exist_ok=True)
    domain = str(fed.settings.mail.from_address).rsplit("@", 1)[-1]
    now = format_datetime(clock.now())
    report = ResendReport(folder=folder)
    for path, message, _ in parsed:
        copy = 1 + len(list(folder.glob(f"{path.stem}-*.eml")))
        original_id = str(message["Message-ID"])
        references = " ".join(filter(None, [str(message["References"] or ""), original_id]))
        subject = str(message["Subject"])
        for header in ("Message-ID", "Date", "In-Reply-To", "References", "Subject"):
            del message[header]
        message["Subject"] = subject if subject.startswith(RESENT) else RESENT + subject
        message["Date"] = now
        message["Message-ID"] = f"<{derive_seed(fed.settings.secret, 'message-id', 'resent', original_id, copy):016x}.resent@{domain}>"
        message["In-Reply-To"] = original_id
        message["References"] = references
        target = folder / f"{path.stem}-{copy}.eml"
        target.write_text(message.as_string(), encoding="utf-8")
        report.queued.append(f"{fed.shown(target)}: {message['To']}")
    return report
