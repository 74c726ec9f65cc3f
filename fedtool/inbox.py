"""Strategies by mail: read a mailbox, check each strategy, file the good ones, answer all.

As the best play-by-mail judges do: every order mail gets an answer (accepted, with the
strategy echoed as the resolver reads it; or refused, with each error and its line); a bad
strategy never replaces a good one; no answer goes to mailer daemons, auto-replies, bulk
mail or fedtool's own mail; the same mail read twice counts once (by Message-ID); sizes and
nesting are capped; a name from a mail is never used as a path.
"""

from __future__ import annotations

import datetime
import hashlib
import mailbox
import os
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid, parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import Iterator

from .card import load_card
from .errors import Collector, FedError, Problem
from .fed import Fed, week_name
from .league import open_league, states_before
from .rulesets import get_ruleset
from .week import check_strategy_file, load_wrestlers

MAX_BYTES = 1_000_000
MAX_PARTS = 20
MAX_DEPTH = 5
SILENT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+@-]|$)", re.IGNORECASE)
WEEK = re.compile(r"\bweek\s*(\d{1,4})\b", re.IGNORECASE)


@dataclass
class Outcome:
    message_id: str
    sender: str
    verdict: str  # accepted, refused, ignored, duplicate
    why: str = ""
    filed: str | None = None
    week: int | None = None


@dataclass
class IntakeReport:
    outcomes: list[Outcome] = field(default_factory=list)
    replies: list[Path] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(1 for o in self.outcomes if o.verdict == verdict)


def messages(source: Path) -> Iterator[bytes]:
    """The raw mails in a Maildir, an mbox file or a folder of .eml files."""
    if source.is_dir() and (source / "cur").is_dir() and (source / "new").is_dir():
        box = mailbox.Maildir(source, factory=None, create=False)
        for key in sorted(box.keys()):
            yield box.get_bytes(key)
    elif source.is_file():
        for message in mailbox.mbox(source, create=False):
            yield message.as_bytes()
    elif source.is_dir():
        for path in sorted(source.glob("*.eml")):
            yield path.read_bytes()
    else:
        raise FedError(Problem(str(source), None, "not a Maildir, an mbox file or a folder of .eml files", "fedtool inbox"))


def _depth(part, level: int = 0) -> int:
    if not part.is_multipart():
        return level
    return max((_depth(p, level + 1) for p in part.iter_parts()), default=level)


def _silent(message: EmailMessage, fed: Fed) -> str | None:
    """Why a mail gets no answer at all (no mail loops), or None."""
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return f"auto-submitted ({auto})"
    if message.get("X-Autoreply") or message.get("X-Autorespond"):
        return "an auto-reply"
    if str(message.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list"):
        return "bulk mail"
    if not sender or SILENT_SENDERS.match(sender.split("@")[0]):
        return "from a mail system"
    if sender == str(fed.settings.mail.from_address).lower():
        return "fedtool's own mail"
    return None


def _strategy_text(message: EmailMessage) -> tuple[str, str] | None:
    """The strategy: the first .yaml/.yml/.txt attachment, else the plain body. Returns
    (suffix, text); the attachment's name decides only the suffix, never a path."""
    for part in message.iter_attachments():
        name = (part.get_filename() or "").lower()
        for suffix in (".yaml", ".yml", ".txt"):
            if name.endswith(suffix):
                return (".txt" if suffix == ".txt" else ".yaml"), part.get_content() if part.get_content_maintype() == "text" else part.get_payload(decode=True).decode("utf-8", "replace")
    body = message.get_body(("plain",))
    if body is None:
        html = message.get_body(("html",))
        if html is None:
            return None
        text = re.sub(r"<[^>]+>", "\n", html.get_content())
    else:
        text = body.get_content()
    text = text.split("\n-- \n")[0]  # a signature is not part of the strategy
    suffix = ".yaml" if re.search(r"^\s*(plus|prefer)\s*:", text, re.MULTILINE) else ".txt"
    return suffix, text


def _reply(fed: Fed, original: EmailMessage, to: str, subject: str, text: str) -> EmailMessage:
    reply = EmailMessage()
    reply["From"] = str(fed.settings.mail.from_address)
    reply["To"] = to
    reply["Subject"] = subject
    reply["Auto-Submitted"] = "auto-replied"  # RFC 3834
    domain = str(fed.settings.mail.from_address).rsplit("@", 1)[-1]
    reply["Message-ID"] = make_msgid(domain=domain)
    if original.get("Message-ID"):
        reply["In-Reply-To"] = original["Message-ID"]
        reply["References"] = original["Message-ID"]
    reply.set_content(text)
    return reply


def intake(fed: Fed, source: Path, now: datetime.datetime | None = None) -> IntakeReport:
    """Read every mail in `source`, file the strategies that stand, queue an answer for each."""
    report = IntakeReport()
    weeks: dict = {}  # week -> (card, wrestlers, states): read once per intake
    db = open_league(fed.database)
    seen = {row["message_id"] for row in db["inbox_seen"].rows}
    batch = []

    def record() -> None:
        # the "read" marks go in together, a hundred mails at a time: a crash can at worst
        # re-read the last hundred, and filing the same strategy again changes nothing
        with db.atomic():
            db["inbox_seen"].insert_all(batch, pk="message_id")
        batch.clear()

    for raw in messages(source):
        message = BytesParser(policy=policy.default).parsebytes(raw[: MAX_BYTES + 1])
        message_id = str(message.get("Message-ID") or "<" + hashlib.sha256(raw).hexdigest()[:32] + "@no-id>")
        sender = parseaddr(str(message.get("From", "")))[1]
        if message_id in seen:
            report.outcomes.append(Outcome(message_id, sender, "duplicate", "read before"))
            continue
        seen.add(message_id)
        silent = _silent(message, fed)
        if silent:
            outcome = Outcome(message_id, sender, "ignored", silent)
        else:
            outcome, reply_text, subject = _judge(fed, message, raw, sender, now, weeks)
            reply = _reply(fed, message, sender, subject, reply_text)
            folder = fed.outbox / (week_name(outcome.week) if outcome.week is not None else "inbox") / "replies" / "mail"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / (hashlib.sha256(message_id.encode()).hexdigest()[:16] + ".eml")
            path.write_bytes(bytes(reply))
            report.replies.append(path)
        batch.append({"message_id": message_id, "sender": sender, "verdict": outcome.verdict, "why": outcome.why,
                      "read_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")})
        if len(batch) >= 100:
            record()
        report.outcomes.append(outcome)
    if batch:
        record()
    return report


def _judge(fed: Fed, message: EmailMessage, raw: bytes, sender: str, now: datetime.datetime | None, weeks: dict):
    """Decide one order mail: (outcome, the answer's text, its subject)."""
    subject = str(message.get("Subject", ""))
    answer_subject = f"Re: {subject}"[:200]

    def refuse(why: str, week: int | None = None):
        outcome = Outcome(str(message.get("Message-ID")), sender, "refused", why, week=week)
        return outcome, f"Your mail was not accepted.\n\n{why}\n\nNothing was filed; any strategy you sent before still stands.\n", answer_subject

    if len(raw) > MAX_BYTES:
        return refuse(f"The mail is {len(raw):,} bytes; the limit is {MAX_BYTES:,}.")
    parts = sum(1 for _ in message.walk())
    if parts > MAX_PARTS or _depth(message) > MAX_DEPTH:
        return refuse(f"The mail has {parts} parts nested {_depth(message)} deep; send the strategy as the body or one attachment.")
    found = WEEK.search(subject)
    if not found:
        return refuse("The subject must name the week and the wrestler, for example: Week 2 brother-bob.")
    week = int(found.group(1))
    folder = fed.week_dir(week)
    if not (folder / "card.yaml").exists():
        return refuse(f"There is no card for week {week}.")
    if week not in weeks:
        card = load_card(folder, fed.shown(folder), fed.settings.ruleset, week)
        wrestlers = load_wrestlers(fed, card, Collector())
        states = states_before(open_league(fed.database, create=False), week)
        for w in wrestlers.values():
            states.setdefault(w.id, get_ruleset(w.ruleset).initial_state(w))
        weeks[week] = (card, wrestlers, states)
    card, wrestlers, states = weeks[week]
    sides = {w: m for m in card.matches for w in m.sides}
    lowered = subject.lower()
    wrestler_id = next((w for w in sorted(sides, key=len, reverse=True) if w in lowered), None)
    if wrestler_id is None:
        wrestler_id = next((w.id for w in wrestlers.values() if w.name.lower() in lowered), None)
    if wrestler_id is None or wrestler_id not in wrestlers:
        return refuse(f"The subject names no wrestler on the week {week} card ({', '.join(sorted(sides))}).", week)
    wrestler = wrestlers[wrestler_id]
    owners = {wrestler.owner_email.lower()}
    if sender.lower() not in owners:
        # a From: header can be forged: only the registered owner's address is accepted
        return refuse(f"{sender} is not the registered owner of {wrestler.name}; strategies are accepted only from the owner's address.", week)
    deadline = card.deadline
    if deadline is not None:
        sent = _date(message) or now or datetime.datetime.now(datetime.timezone.utc)
        if sent > deadline:
            return refuse(f"The deadline for week {week} was {deadline.isoformat()}; this mail is dated {sent.isoformat()}.", week)
    content = _strategy_text(message)
    if content is None:
        return refuse("No strategy found: send it as the body of the mail or as a .yaml or .txt attachment.", week)
    suffix, text = content
    candidate = folder / f"~incoming~{wrestler_id}{suffix}"
    candidate.write_text(text, encoding="utf-8")
    try:
        check = check_strategy_file(fed, candidate, wrestler_id, (card, wrestlers, states))
    except FedError as exc:
        check = None
        errors = exc.problems
    else:
        errors = check.problems
    if errors:
        candidate.unlink(missing_ok=True)
        listed = "\n".join(f"- {str(p).replace(fed.shown(candidate), 'your strategy')}" for p in errors)
        return refuse(f"The strategy for {wrestler.name} has problems:\n{listed}", week)
    final = folder / f"{wrestler_id}{suffix}"
    os.replace(candidate, final)
    for other in (".yaml", ".txt"):
        if other != suffix:
            (folder / f"{wrestler_id}{other}").unlink(missing_ok=True)  # the newest good strategy is the one
    echo = "\n".join(f"  line {r.line:>3}: {r.reading}" for r in check.readings) if check.readings else text
    outcome = Outcome(str(message.get("Message-ID")), sender, "accepted", f"{wrestler.name}, week {week}", fed.shown(final), week)
    body = f"Accepted: the strategy for {wrestler.name}, week {week} ({check.match}).\n\nAs the resolver will read it:\n\n{echo}\n\nA later good strategy before the deadline replaces this one; a bad one never does.\n"
    return outcome, body, answer_subject


def _date(message: EmailMessage) -> datetime.datetime | None:
    try:
        return parsedate_to_datetime(str(message["Date"])) if message.get("Date") else None
    except (TypeError, ValueError):
        return None


__all__ = ["intake", "IntakeReport"]
