"""Strategies by mail: read a mailbox, check each strategy, file the good ones, answer all.

As the best play-by-mail judges do: every order mail gets an answer (accepted, with the
strategy echoed as the resolver reads it; held; or refused, with each error and its line);
a bad strategy never replaces a good one; no answer goes to mailer daemons, auto-replies,
bulk mail or fedtool's own mail; the same mail read twice counts once (by Message-ID);
sizes and nesting are capped; a name from a mail is never used as a path. Only the player's
own text of a reply is read (the quoted mail and a signature cut, `_own_text`). A mail that
reaches no wrestler is answered with the help text; a subject that is a mail command (help,
status, resend) is answered at once (`commands`).

Answers queue in outbox/replies/week-NN/mail/ (outside the week's results folder, which a
run replaces); `fedtool send` delivers them. Mail after the card's deadline is refused, or
with `mail: late_mail: hold` checked and kept in strategies/week-NN/held/ until the fedhead
accepts it (`fedtool accept WEEK WRESTLER`). A strategy for a week the league has already
run is refused: the strategy its run used is never replaced by mail (the fedhead can still
replace a file by hand and rerun).

Rulings on who sent a mail and who is answered (issue 13; see `mail_sender`):

- A mail is the work of the one address in its From: header, parsed strictly (RFC 5322, by
  `email.headerregistry`). Two addresses, a group, an obsolete route, the comment trick
  `<owner@players.example>@evil.example`, two From: headers, a domain literal or any defect
  the parser reports make it "not one clear sender": it is recorded as refused (`fedtool
  status` shows it, under the wrestler its subject names) and never answered. An answer to
  a garbled or forged From: would go to someone who did not write (backscatter), and like
  the judges fedtool does not answer what it cannot attribute.
- Every answer goes to that From: address, never to Reply-To: (so a forged From: sends the
  answer to the real owner, never to the forger). Sender: is ignored: a list or a
  secretary sets it, and it proves nothing about the owner.
- Addresses compare as addresses (`address_key`): the domain case-insensitive and in its
  ASCII form, and the local part case-insensitive too. RFC 5321 lets a server tell Bob@ from
  bob@, but the providers players use do not, and owners' addresses have always compared so.
- Never answered: mailer daemons and the like, auto-replies and bulk mail, the fed's own
  addresses (from_address, reply_to, list_address: no loop to ourselves or to the whole
  list), and `mail: do_not_answer` (addresses, or `@domain` for every address of exactly
  that domain).
- A Subject that decodes (RFC 2047) to a line break is refused with an answer; the answer's
  subject is the player's made one line, and no header fedtool writes carries player text
  with a line break (In-Reply-To echoes only a clean Message-ID).

Each mail is a transaction (`intake`): a mail that makes anything fail is answered with an
apology, kept as it came in strategies/quarantine/ (named by its hash), recorded as
quarantined and never judged again; the mails after it are read as usual.
"""

from __future__ import annotations

import bisect
import datetime
import hashlib
import html as htmlmod
import mailbox
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from email.contentmanager import _encode_text  # set_content's own text encoder: answer_bytes writes what it writes
from email.message import EmailMessage
from email.parser import BytesParser
from email.header import decode_header, make_header
from email.utils import format_datetime, make_msgid, parsedate_to_datetime
from pathlib import Path
from typing import Callable, Iterator

from mailparser_reply import EmailMessage as ReplyMessage  # where a reply's quote and signature start

from fedtool.fed.card import HELD_FOLDER, STRATEGY_SUFFIXES
from fedtool.fed.files import atomic_write, half_written
from fedtool.fed.mailtext import unmarked
from fedtool.fed.render import MAIL_POLICY, MailPolicy, plain_text
from fedtool.fed.schedule import shown_time
from fedtool.fed.settings import Fed, week_name
from fedtool.kernel import clock
from fedtool.kernel.dice import derive_seed
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.yamlio import read_once
from fedtool.league.db import open_league
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.base import Ruleset
from fedtool.week.booking import CardContext, card_context, week_card
from fedtool.week.status import SUBJECT_MARK, check_strategy_file, one_line, quarantine_folder

from .commands import answer_command, help_text, parse_command
from .imap import imap_mails, is_imap
from .outgoing import READING, READING_AGAIN, answer_name
from .passwords import BLANK_WORD, BLANKED, PASSWORD_LINE, owner_addresses, password_matches, stored_passwords, take_password

MAX_BYTES = 1_000_000
MAX_PARTS = 20
MAX_DEPTH = 5
MAX_QUOTED_LINES = 200  # of the player's own mail, quoted back in an answer
SILENT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+@-]|$)", re.IGNORECASE)
WEEK = re.compile(r"\bweek\s*(\d{1,4})\b", re.IGNORECASE)
FAR_WEEK = re.compile(r"\bweek\s*(\d{5,})\b", re.IGNORECASE)  # a week no fed can have: over 9999 (`fedtool run` takes 0 to 9999)
_PARSER = BytesParser(policy=MAIL_POLICY)  # parses each header once (MailPolicy.header_fetch_parse)
_FOLD = re.compile(r"\r?\n(?=[ \t])")


@dataclass
class Outcome:
    message_id: str
    sender: str
    verdict: str  # accepted, held, refused, ignored, duplicate, command (a mail command, answered)
    why: str = ""
    filed: str | None = None
    week: int | None = None
    wrestler_id: str | None = None
    arrived: str | None = None  # when the mail arrived (ISO, UTC)
    subject: str | None = None  # a refused mail that reached no wrestler: its subject, for `fedtool status`
    filing: Filing | None = field(default=None, repr=False, compare=False)  # the strategy to file once the answer is built


@dataclass
class Filing:
    """A checked strategy waiting in its `~incoming~` file, and where it goes: filed only once
    the mail's answer is built, so a mail that fails is never half-filed."""

    candidate: Path
    final: Path
    drop_others: str | None = None  # the wrestler id whose strategy in other formats (.yaml, .txt) the new one replaces

    def commit(self) -> None:
        os.replace(self.candidate, self.final)
        if self.drop_others is not None:
            _drop_other_suffixes(self.final.parent, self.drop_others, self.final.suffix)


@dataclass
class IntakeReport:
    outcomes: list[Outcome] = field(default_factory=list)
    replies: list[Path] = field(default_factory=list)
    answers: dict[Path, tuple[str, str]] = field(default_factory=dict)  # each answer queued -> (its Message-ID, its recipient), for `send`

    def count(self, verdict: str) -> int:
        return sum(1 for o in self.outcomes if o.verdict == verdict)


@dataclass
class Incoming:
    """One mail as a source gives it: its bytes (at most MAX_BYTES + 1), its whole size and,
    when the source knows it, when the mail server received it."""

    raw: bytes
    size: int
    received: datetime.datetime | None = None


def messages(source: Path | str) -> Iterator[Incoming]:
    """The mails in an IMAP mailbox (imaps://USER@HOST/MAILBOX), a Maildir, an mbox file or a
    folder of .eml files."""
    if is_imap(str(source)):
        for mail in imap_mails(str(source), MAX_BYTES + 1):
            yield Incoming(mail.raw, mail.size, mail.arrived)
        return
    # Each mail's arrival by the mailbox's own clock (the Maildir delivery time, the mbox
    # "From " line, the file's time), so a mail with no Received: header is never dated by
    # its Date: alone (arrived_at takes the latest).
    source = Path(source)
    if source.is_dir() and (source / "cur").is_dir() and (source / "new").is_dir():
        box = mailbox.Maildir(source, factory=None, create=False)
        delivered = _maildir_delivered(source)
        for key in sorted(box.keys(), key=_maildir_order):
            with box.get_file(key) as handle:  # never more than the cap into memory
                raw = handle.read(MAX_BYTES + 1)
            when, size = delivered.get(key, (None, len(raw)))
            yield Incoming(raw, max(size, len(raw)), when)
    elif source.is_file():
        box = mailbox.mbox(source, factory=None, create=False)  # its table of "From " lines only: no mail parsed
        for key in box.iterkeys():
            with box.get_file(key, from_=True) as handle:  # never more than the cap into memory, as for a Maildir's
                from_line = handle.readline().decode("ascii", "replace")
                raw = handle.read(MAX_BYTES + 1)
                size = len(raw)
                while len(raw) > MAX_BYTES and (chunk := handle.read(1 << 16)):  # an oversized mail's size, counted, not kept
                    size += len(chunk)
            yield Incoming(raw, size, _mbox_date(from_line.removeprefix("From ")))
    elif source.is_dir():
        for path in sorted(source.glob("*.eml")):
            if not path.is_file():  # a folder, a pipe or a device named like a mail is no mail
                continue
            with path.open("rb") as handle:  # never more than the cap into memory; the size from the file
                raw = handle.read(MAX_BYTES + 1)
                stat = os.fstat(handle.fileno())
            yield Incoming(raw, max(stat.st_size, len(raw)), _from_timestamp(stat.st_mtime))
    else:
        raise FedError(Problem(str(source), None, "not a Maildir, an mbox file, a folder of .eml files or an imaps:// address", "fedtool inbox"))


def _maildir_delivered(folder: Path) -> dict[str, tuple[datetime.datetime, int]]:
    """Each Maildir mail's delivery time and size, by key: its file's time in new/KEY or
    cur/KEY:2,FLAGS (the Maildir layout), both folders listed once, no mail parsed."""
    found = {}
    for sub in ("new", "cur"):
        try:
            entries = list(os.scandir(folder / sub))
        except FileNotFoundError:
            continue
        for entry in entries:
            try:
                stat = entry.stat()
                found.setdefault(entry.name.split(mailbox.Maildir.colon)[0], (_from_timestamp(stat.st_mtime), stat.st_size))
            except FileNotFoundError:  # taken by another reader meanwhile
                continue
    return found


_MAILDIR_KEY = re.compile(r"^(\d+)\.M(\d+)P(\d+)Q(\d+)\.")


def _maildir_order(key: str) -> tuple:
    """A Maildir file's delivery order: its name's seconds, microseconds and counter as
    numbers ("1764000000.M99999P1Q9" before "1764000000.M100000P1Q10"); other names after, by name."""
    found = _MAILDIR_KEY.match(key)
    return (0, int(found.group(1)), int(found.group(2)), int(found.group(4)), key) if found else (1, 0, 0, 0, key)


def _from_timestamp(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def _mbox_date(from_line: str) -> datetime.datetime | None:
    """The delivery time on an mbox "From " line ("sender Fri Nov 20 12:00:00 2026"), as UTC."""
    parts = from_line.split()
    try:
        return datetime.datetime.strptime(" ".join(parts[-5:]), "%a %b %d %H:%M:%S %Y").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return None


def _shape(message) -> tuple[int, int]:
    """(parts, depth) of a mail's MIME tree, walked without recursion and stopped past the
    caps, so a mail nested thousands deep is measured, not a crash."""
    parts = depth = 0
    stack = [(message, 0)]
    while stack and parts <= MAX_PARTS and depth <= MAX_DEPTH:
        part, level = stack.pop()
        parts += 1
        depth = max(depth, level)
        if part.is_multipart():
            stack.extend((child, level + 1) for child in (part.get_payload() or []) if hasattr(child, "is_multipart"))
    return parts, depth


def headers(message: EmailMessage) -> dict[str, list[str]]:
    """The mail's headers as written (unfolded), by lowercase name; the Subject decoded.
    Read once: the email package parses a header again on every access, which dominated
    the cost of intake."""
    found: dict[str, list[str]] = {}
    for name, value in message.raw_items():
        value = _FOLD.sub(" ", _decoded(str(value))).strip()
        if name.lower() == "subject" and "=?" in value:
            try:
                value = str(make_header(decode_header(value)))
            except (LookupError, ValueError, UnicodeError):
                pass
        found.setdefault(name.lower(), []).append(value)
    return found


def _decoded(value: str) -> str:
    """A header as text: the email package keeps a header's raw bytes that are not ASCII as
    surrogates; raw UTF-8 (RFC 6532) is read as such, any other byte becomes U+FFFD, so no
    header text can fail later where it is written (the league, an answer, a terminal)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return value


def _one(head: dict, name: str, default: str = "") -> str:
    return head.get(name, [default])[0]


def _silent(head: dict) -> str | None:
    """Why a mail gets no answer at all by its headers (no mail loops), or None."""
    auto = _one(head, "auto-submitted", "no").strip().lower()
    if auto and auto != "no":
        return f"auto-submitted ({one_line(auto)})"
    if "x-autoreply" in head or "x-autorespond" in head:
        return "an auto-reply"
    if _one(head, "precedence").strip().lower() in ("bulk", "junk", "list"):
        return "bulk mail"
    return None


# Mail identity. A mail is attributed to the one address in its From: header, read as RFC
# 5322 says (email.headerregistry, through the fed's MAIL_POLICY), never as text: a From:
# with two addresses, a group, an obsolete route, the comment trick
# `<owner@players.example>@evil.example` or any other defect the parser reports is "not one
# clear sender", recorded (and shown by `fedtool status`) but never answered: an answer to
# a garbled or forged From: goes to someone who did not write (backscatter), and a judge does
# not answer what it cannot attribute. Sender: is ignored (a list or a secretary's
# delegation, never an owner's identity); Reply-To: is never used: every answer goes to the
# From: address, so a forged From: sends it to the real owner. Addresses compare with the
# domain and the local part both case-insensitive (`address_key`): RFC 5321 lets a mail
# server tell Bob@ from bob@, but the providers players use do not, and the owners'
# addresses have always been compared so.
UNCLEAR = "Not one clear sender ({}); not answered: an answer could reach someone who did not write it."
LINE_BREAK = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")  # what str.splitlines breaks at
_MESSAGE_ID = re.compile(r"^<[!-;=?-~]{1,250}>$")  # a Message-ID safe to echo in In-Reply-To (no space, no control, no <>)


def mail_sender(head: dict) -> tuple[str | None, str | None]:
    """(the sender's address, None), or (None, why the mail has not one clear sender)."""
    written = head.get("from", [])
    if len(written) != 1:
        return None, UNCLEAR.format("no From: header" if not written else f"{len(written)} From: headers")
    value = written[0]
    try:  # raw UTF-8 in a header (RFC 6532) is text, not undecodable bytes
        value = value.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        pass
    try:
        parsed = MAIL_POLICY.header_factory("from", value)
        defects, groups, addresses = parsed.defects, parsed.groups, parsed.addresses
    except Exception:  # the header parser's own failure on some odd text: not a clear sender either
        return None, UNCLEAR.format("the From: header cannot be read")
    if defects:
        return None, UNCLEAR.format(f"the From: header is malformed: {defects[0]}")
    if any(group.display_name is not None for group in groups):
        return None, UNCLEAR.format("the From: header is a group")
    if len(addresses) != 1:
        return None, UNCLEAR.format(f"the From: header holds {len(addresses) or 'no'} address{'es' if len(addresses) != 1 else ''}")
    address = addresses[0]
    if not address.username or not address.domain or address.domain.startswith("[") or _UNPRINTABLE.search(address.addr_spec):
        return None, UNCLEAR.format("the From: header holds no complete address")
    return address.addr_spec, None


_UNPRINTABLE = re.compile(r"[\x00-\x20\x7f-\x9f\u2028\u2029]")


def address_key(address: str) -> str:
    """An address as fedtool compares it: local part and domain lowercase, the domain in its
    ASCII (IDNA) form and without a final dot. `Bob@Players.Example` is `bob@players.example`."""
    local, _, domain = address.strip().rpartition("@")
    domain = domain.lower().rstrip(".")
    try:
        domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    return f"{local.lower()}@{domain}"


def _unanswered(fed: Fed, address: str) -> str | None:
    """Why mail from this address is never answered (a mail system, the fed's own addresses,
    `mail: do_not_answer`), or None."""
    if SILENT_SENDERS.match(address.rpartition("@")[0]):
        return "from a mail system"
    key = address_key(address)
    mail = fed.settings.mail
    for setting in ("from_address", "reply_to", "list_address"):
        own = getattr(mail, setting)
        if own and address_key(str(own)) == key:
            return "fedtool's own mail" if setting == "from_address" else f"the fed's own address ({setting})"
    domain = "@" + key.rpartition("@")[2]
    for entry in mail.do_not_answer:
        if entry == domain or not entry.startswith("@") and address_key(entry) == key:
            return f"on the fed's do-not-answer list ({entry})"
    return None


def _text_of(part) -> str:
    if part.get_content_maintype() == "text":
        try:
            return part.get_content()
        except (LookupError, ValueError):  # an unknown charset
            pass
    return (part.get_payload(decode=True) or b"").decode("utf-8", "replace")


def _body_text(message: EmailMessage) -> str | None:
    """The mail's own text: the plain body, else the HTML body with its tags taken out."""
    body = message.get_body(("plain",))
    if body is not None:
        return _text_of(body)
    html = message.get_body(("html",))
    if html is None:
        return None
    # tags out, entities decoded; <style> and <script> contents are not text
    text = re.sub(r"<(style|script)\b.*?</\1\s*>", "", _text_of(html), flags=re.IGNORECASE | re.DOTALL)
    return htmlmod.unescape(re.sub(r"<[^>]+>", "\n", text))


def _strategy_text(message: EmailMessage, ruleset: Ruleset, languages: list[str] | tuple[str, ...] = ("en",)) -> tuple[str, str] | None:
    """The strategy: the first .yaml/.yml/.txt attachment, else the plain body (a forwarded
    mail's own body when the strategy came forwarded). Returns (suffix, text); the
    attachment's name decides only the suffix, never a path; a body's suffix is the
    ruleset's reading of its text (`Ruleset.mail_strategy_suffix`). `languages`: the
    fed's `mail: reply_languages`, for `_own_text`."""
    attached = [part for part in message.iter_attachments() if (part.get_filename() or "").lower().endswith((".yaml", ".yml", ".txt"))]
    if len({_text_of(part) for part in attached}) > 1:  # two strategies in one mail: never one of them filed and the other dropped unsaid
        raise _TwoStrategies(len(attached))
    for part in message.iter_attachments():
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload()[0] if part.is_multipart() else None
            found = _strategy_text(inner, ruleset, languages) if inner is not None else None
            if found is not None:
                return found
            continue
        name = (part.get_filename() or "").lower()
        for suffix in (".yaml", ".yml", ".txt"):
            if name.endswith(suffix):
                return (".txt" if suffix == ".txt" else ".yaml"), _text_of(part)
    text = _body_text(message)
    if text is None:
        return None
    text = text.split("\n-- \n")[0]  # a signature is not part of the strategy
    text = _own_text(text, languages)
    if not text.strip():
        return None
    return ruleset.mail_strategy_suffix(text), text


class _TwoStrategies(Exception):
    """A mail with more than one strategy attached, each different: which one the player meant is his to say."""

    def __init__(self, count: int):
        super().__init__(count)
        self.count = count


# Quoted replies: mail-parser-reply knows how mail clients mark the start of the mail
# replied to ("On ... wrote:", an Outlook From:/Sent: block, "-----Original Message-----",
# in the languages of the fed's `mail: reply_languages`) and the usual signatures ("Sent
# from my ...", "Best regards").
_QUOTE_LINE = re.compile(r"^>")  # mail clients quote at the line's start; an indented ">" is the player's (YAML's folded text)


def _own_text(text: str, languages: list[str] | tuple[str, ...] = ("en",)) -> str:
    """The player's own text of a mail that replies to another (an announcement, an answer):
    what is written above the quoted mail and above a signature. A strategy forwarded inline
    (a "Forwarded message" mark, or a quote with nothing above it) is read below the quote's
    headers (`_forwarded`).

    The library strips every line's indentation, which YAML cannot lose: it is used only to
    find the line where the player's own text ends, and the original text is cut there."""
    lines = text.replace("\r\n", "\n").split("\n")
    flat, where = _searchable(lines)  # as the library reads it, line for line (`where`: each one's line in `lines`)
    reader = _reply_marks(tuple(languages))
    quote = _search(reader.HEADER_REGEX, flat)
    end = where[_line_of(flat, quote)] if quote else len(lines)
    mark = _FORWARD_MARK.search("\n".join(lines[:end + 1]))
    if mark and "forward" in mark.group(0).lower():
        return _forwarded(text)  # a covering note above a forwarded strategy is not the strategy
    if quote and not any(line.strip() and not _QUOTE_LINE.match(line) for line in lines[:end]):
        # nothing of the player's own above the quote: a forward (as before), or a reply written below it
        below = [line for line in lines[end + 1:] if not _QUOTE_LINE.match(line)]
        if not mark and not any(line.strip() for line in below):
            return ""  # the quoted mail and nothing of the player's: no strategy (never the quote read as one)
        return _forwarded(text) if mark else _end("\n".join(below))
    own_flat = "\n".join(flat.split("\n")[:bisect.bisect_left(where, end)])
    signature = _search(reader.SIGNATURE_REGEX, own_flat)
    own = lines[:where[_line_of(own_flat, signature)]] if signature else lines[:end]
    while own and (not own[-1].strip() or _QUOTE_LINE.match(own[-1])):  # a quote with no header line above it
        own.pop()
    return _end("\n".join(own))


SEARCHED_LINE = 250  # characters of a line the quote and signature patterns see (an "On ... wrote:" line is far shorter)


def _searchable(lines: list[str]) -> tuple[str, list[int]]:
    """The text the library's patterns search: each line stripped, as the library reads it,
    its runs of white space as one space, its first SEARCHED_LINE characters, and no more
    than two blank lines in a row; and for each of its lines, the line of `lines` it is.
    The signature pattern starts `\\s*^`, which tries every start and length in a run of
    white space, and the quote's `On\\s(.+?\\s?.+?)\\swrote:` every split of a line: n*n
    steps, so a mail of many blank lines or one long "On ..." line held the intake for hours
    (review 26). Quotes and signatures are found by their words, which this keeps."""
    kept: list[str] = []
    where: list[int] = []
    blank = 0
    for number, line in enumerate(lines):
        line = " ".join(line.split())[:SEARCHED_LINE]
        blank = 0 if line else blank + 1
        if blank <= 2:
            kept.append(line)
            where.append(number)
    return "\n".join(kept), where


def _search(pattern: re.Pattern, text: str) -> re.Match | None:
    """`pattern.search(text)`, where most texts (a strategy with no quote and no signature)
    are told at once: for mail-parser-reply's English patterns, an ASCII text is first
    looked through for the words every match of them holds (`_HELD`), and with none there
    is no match. Any other text or pattern (another language, another version of the
    library) is searched as it is."""
    held = _HELD.get((pattern.pattern, pattern.flags))
    if held is not None and text.isascii():  # ASCII: the pattern's case-blind letters are lower() exactly
        lowered = text.lower()
        if not any(word in lowered for word in held):
            return None
    return pattern.search(text)


# mail-parser-reply's patterns for ("en",) (its version at the time of writing), and what
# no match of them is without (a test compares the two searches over thousands of texts):
# a quote's header is an "On ... wrote:" line, a block of From:/Sent:/To:/Subject:/Date:/
# Cc:/Organization: lines, or an "Original Message" line; a signature starts at two of
# "-" and "_" ending a line, or 32 of them, "Sent from my", "Get Outlook for", or one of
# the closing words.
_HELD = {
    (r"^(?!On[.\s]*On\s(.+?\s?.+?)\swrote:)((?:> ?)*On\s(?:.+?\s?.+?)\s?wrote:)$|((?:(?:^|\n|\n(?:> ?)*)[* ]*(?:From|Sent|To|Subject|Date|Cc|Organization):"
     r"[ *]*(?:\s{,2}).*){2,}(?:\n.*){,1})|(^-{5,} ?Original Message ?-{5,}$)", re.IGNORECASE | re.MULTILINE | re.UNICODE):
        ("wrote:", "from:", "sent:", "to:", "subject:", "date:", "cc:", "organization:", "original message"),
    (r"((\s*^(?:> ?)*(?:[-_]{2}\n).*|(\n{2,} ?[_-]{32,})|\s*^(?:> ?)*(?:Sent from my|Get Outlook for) ?(?:(?:[\w.<>:// ]+)|(?:\w+ )(1, 3))$|(?<!\A)^(?:> ?)*"
     r"(?:Best regards|Kind Regards|Thanks,|Thank you,|Best,|All the best|regards,))(.|\s)*)", re.IGNORECASE | re.MULTILINE | re.UNICODE):
        ("--", "__", "-_", "_-", "sent from my", "get outlook for", "best regards", "kind regards", "thanks,", "thank you,", "best,", "all the best", "regards,"),
}


@lru_cache(maxsize=8)
def _reply_marks(languages: tuple[str, ...]) -> ReplyMessage:
    """mail-parser-reply's reader for the fed's languages, made once: its patterns (where a
    quote and a signature start) depend on the languages alone, never on the text."""
    return ReplyMessage(text="", languages=list(languages), keep_hyphen_lists=True)  # "- item" lists are not signatures


def _line_of(flat: str, found: re.Match) -> int:
    """The line a match's first visible character is on."""
    start = found.start() + len(found.group(0)) - len(found.group(0).lstrip())
    return flat.count("\n", 0, start)


def _end(text: str) -> str:
    return text.rstrip("\n") + "\n" if text.strip() else ""


_FORWARD_MARK = re.compile(r"^-{2,}\s*(Forwarded message|Original Message)\s*-{2,}\s*$", re.IGNORECASE | re.MULTILINE)
_HEADER_LINE = re.compile(r"^(From|To|Cc|Date|Sent|Subject):", re.IGNORECASE)


def _forwarded(text: str) -> str:
    """A strategy forwarded inline: the text after the forwarding mark and its header block."""
    mark = _FORWARD_MARK.search(text)
    if not mark:
        return text
    lines = text[mark.end():].lstrip("\r\n").splitlines()
    while lines and (_HEADER_LINE.match(lines[0]) or lines[0].startswith((" ", "\t"))):
        lines.pop(0)
    return "\n".join(lines).strip("\n") + "\n"


def _password_in(message: EmailMessage, strategy: str) -> str | None:
    """The password line's value: in the strategy text, else anywhere in the mail's own text."""
    password, _ = take_password(strategy)
    if password is None:
        password, _ = take_password(_body_text(message) or "")
    return password


def _quoted(text: str) -> str:
    """The player's text quoted back, the password blanked."""
    lines = PASSWORD_LINE.sub(BLANKED, text).splitlines()
    shown = lines[:MAX_QUOTED_LINES]
    more = f"\n> ... ({len(lines) - MAX_QUOTED_LINES} more lines)" if len(lines) > MAX_QUOTED_LINES else ""
    return "\n".join(f"> {line}".rstrip() for line in shown) + more


class _AnswerPolicy(MailPolicy):
    """MAIL_POLICY for the answers intake writes, the same bytes: only the count of a header
    a mail may hold is looked up once per name (the standard policy makes a new header class
    for every header set, a tenth of an answer's cost)."""

    def header_max_count(self, name):
        key = name.lower()
        if key not in _MAX_COUNTS:
            _MAX_COUNTS[key] = super().header_max_count(name)
        return _MAX_COUNTS[key]


_MAX_COUNTS: dict = {}
_ANSWER_POLICY = _AnswerPolicy()


def answer_id(fed: Fed, message_id: str) -> str:
    """The Message-ID of the answer to the mail `message_id`: stable (from the fed's secret and
    the mail's own id), so a mail judged again after a crash is answered under the same id,
    which `send` delivers once, and the answer's bytes do not depend on when or where it was made."""
    domain = str(fed.settings.mail.from_address).rsplit("@", 1)[-1]
    return f"<{derive_seed(fed.settings.secret, 'message-id', 'answer', message_id):016x}.answer@{domain}>"


def _reply(fed: Fed, original_id: str | None, to: str, subject: str, text: str, now: datetime.datetime | None = None,
           message_id: str | None = None, parsed: dict | None = None) -> EmailMessage:
    """An answer: to `to` (the From: address), `subject`, `text`. `message_id`: the answered
    mail's id in the league (its Message-ID, or a hash of a mail with none), from which the
    answer's own id is made (`answer_id`). `parsed`: the intake's headers parsed so far, by
    (name, value), each header parsed once per intake (From, Reply-To, Date and the players'
    addresses repeat on every answer)."""
    reply = EmailMessage(policy=_ANSWER_POLICY)
    parsed = {} if parsed is None else parsed

    def put(name: str, value: str) -> None:
        header = parsed.get((name, value))
        if header is None:  # the standard parse, which refuses a line break in any value
            header = parsed[(name, value)] = _ANSWER_POLICY.header_store_parse(name, value)[1]
        reply.set_raw(name, header)

    for name, value in _answer_headers(fed, original_id, to, subject, now, message_id):
        put(name, value)
    reply.set_content(plain_text(text))  # the quoted strategy is player text: control and bidi characters out
    return reply


def _answer_headers(fed: Fed, original_id: str | None, to: str, subject: str, now: datetime.datetime | None, message_id: str | None) -> list[tuple[str, str]]:
    """An answer's headers, in order, as `_reply` and `answer_bytes` write them."""
    headers = [("From", str(fed.settings.mail.from_address)), ("To", to), ("Subject", subject),
               ("Date", format_datetime(_utc(now) if now else clock.now())),  # RFC 5322
               ("Auto-Submitted", "auto-replied")]  # RFC 3834
    if fed.settings.mail.reply_to:
        headers.append(("Reply-To", str(fed.settings.mail.reply_to)))
    headers.append(("Message-ID", answer_id(fed, message_id) if message_id else make_msgid(domain=str(fed.settings.mail.from_address).rsplit("@", 1)[-1])))
    if original_id and _MESSAGE_ID.match(original_id):  # echoed only when it is one clean Message-ID
        headers += [("In-Reply-To", original_id), ("References", original_id)]
    return headers


def answer_bytes(fed: Fed, original_id: str | None, to: str, subject: str, text: str, now: datetime.datetime | None = None,
                 message_id: str | None = None, parsed: dict | None = None) -> bytes:
    """`bytes(_reply(...))`, the same bytes, written without building the message: each header
    line folded by the answers' policy from its parsed header, as the generator writes it,
    and kept for the intake (`parsed`: From, Date, Reply-To and each player's address and
    subject repeat); the body encoded by the email package's own text encoder, as
    `set_content` encodes it, its line ends written as the generator writes them; the
    Content-Type, Content-Transfer-Encoding and MIME-Version lines as `set_content` sets
    them (`_content_lines`). A test compares the bytes with `_reply`'s over thousands of texts."""
    parsed = {} if parsed is None else parsed
    lines: list[bytes] = []

    def put(name: str, value: str) -> None:
        if name in _ID_HEADERS and len(name) + len(value) <= 76 and _PLAIN_ID.match(value):  # one plain id on a line of 78: as the policy writes it
            lines.append(f"{name}: {value}{_ANSWER_POLICY.linesep}".encode("ascii"))
            return
        key = ("line", name, value)
        line = parsed.get(key)
        if line is None:
            header = parsed.get((name, value))
            if header is None:  # the standard parse, which refuses a line break in any value
                header = parsed[(name, value)] = _ANSWER_POLICY.header_store_parse(name, value)[1]
            line = parsed[key] = _ANSWER_POLICY.fold_binary(name, header)
        lines.append(line)

    for name, value in _answer_headers(fed, original_id, to, subject, now, message_id):
        put(name, value)
    cte, payload = _encode_text(plain_text(text), "utf-8", None, _ANSWER_POLICY)  # the quoted strategy is player text: control and bidi characters out
    lines.append(_content_lines(cte))
    lines.append(_ANSWER_POLICY.linesep.encode("ascii"))
    lines.append(_LINE_ENDS.sub(_ANSWER_POLICY.linesep, payload).encode("ascii", "surrogateescape"))  # as the generator's _write_lines
    return b"".join(lines)


_LINE_ENDS = re.compile(r"\r\n|\r|\n")
# A header holding one Message-ID of letters, digits and ._+=- (a test compares with the
# policy over thousands of ids): the line is the name, the id and the line end, with no
# parse and no fold (each mail's ids are its own, so kept lines never serve another mail).
_ID_HEADERS = frozenset(("Message-ID", "In-Reply-To", "References"))
_PLAIN_ID = re.compile(r"<[A-Za-z0-9._+=-]+@[A-Za-z0-9.-]+>\Z")


@lru_cache(maxsize=8)
def _content_lines(cte: str) -> bytes:
    """The Content-Type, Content-Transfer-Encoding and MIME-Version lines `set_content` gives
    a plain text in UTF-8 sent with `cte`, as the generator writes them."""
    sample = EmailMessage(policy=_ANSWER_POLICY)
    sample.set_content("x\n", cte=cte)
    return b"".join(_ANSWER_POLICY.fold_binary(name, value) for name, value in sample.raw_items())


def replies_folder(fed: Fed, week: int | None) -> Path:
    """Where answers to strategy mails queue: outbox/replies/week-NN/mail/ (no-week/ for a
    mail that named no week). Outside the week's results folder, so a run keeps them."""
    return fed.outbox / "replies" / (week_name(week) if week is not None else "no-week") / "mail"


def _utc(moment: datetime.datetime) -> datetime.datetime:
    return moment.replace(tzinfo=datetime.timezone.utc) if moment.tzinfo is None else moment


def _header_date(value: str) -> datetime.datetime | None:
    try:
        return _utc(parsedate_to_datetime(value.strip()))
    except (TypeError, ValueError, IndexError):
        return None


def arrived_at(head: dict, received: datetime.datetime | None, now: datetime.datetime | None) -> datetime.datetime:
    """When a mail counts as sent, for the deadline: the latest of its Date header, the time
    on its topmost Received header (written by the fed's own mail server) and the time the
    mailbox says it arrived. A backdated Date header does not make a late mail early."""
    times = [_header_date(_one(head, "date")) if "date" in head else None, _utc(received) if received else None]
    trace = head.get("received", [])
    if trace and ";" in trace[0]:
        times.append(_header_date(trace[0].rsplit(";", 1)[1]))
    known = [t for t in times if t is not None]
    return max(known) if known else _utc(now or datetime.datetime.now(datetime.timezone.utc))


QUARANTINED = "quarantined"
APOLOGY = ("Your mail could not be judged: fedtool ran into a fault of its own while reading it. We are sorry.\n\n"
           "Nothing was filed; any strategy you sent before still stands. The mail is kept for the fedhead, who will look at it; "
           "you may also send it again in another form (the strategy as plain text in the body, or as one attachment).\n")


def _clear_incoming(fed: Fed) -> None:
    """Remove every strategy left half-filed (`~incoming~`, written to be checked)."""
    for leftover in fed.strategies.glob("week-*/~incoming~*"):
        leftover.unlink(missing_ok=True)


def _clear_half_written(fed: Fed) -> None:
    """Remove the answers and quarantined mails a killed intake left half-written
    (`fedtool.fed.files.atomic_write`'s temporary files): called under the fed's lock,
    before this intake writes any, so each is a dead process's."""
    for folder in (*(fed.outbox / "replies").glob("*/mail"), quarantine_folder(fed)):
        for leftover in half_written(folder, "*.eml"):
            leftover.unlink(missing_ok=True)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write a mail whole or not at all (`atomic_write`: a dot name `send` never reads, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)


def _keep_in_quarantine(fed: Fed, raw: bytes) -> Path:
    """The mail's bytes kept for the fedhead, named by their SHA-256 (never by anything the mail says)."""
    path = quarantine_folder(fed) / (hashlib.sha256(raw).hexdigest()[:32] + ".eml")
    if not path.exists():
        _write_atomically(path, raw)
    return path


@dataclass
class Waiting:
    """A mail read from the source and not read before, waiting to be judged: its headers
    read once, its ids, its sender, its arrival and its row in `inbox_seen`."""

    incoming: Incoming
    message: EmailMessage | None  # parsed whole (None: headers only so far; a worker parses the rest)
    head: dict
    message_id: str
    original_id: str | None
    sender: str | None
    unclear: str | None
    shown: str
    before: str | None  # its mark left by an intake that died while reading it
    row: dict
    bomb: str | None = None  # why the whole mail is refused as a MIME bomb (known once parsed whole)
    group: tuple | None = None  # the matches' files its judging may touch (`workers.plan`)


def intake(fed: Fed, source: Path | str, now: datetime.datetime | None = None, workers: int | None = None,
           answered: Callable[[list[tuple[Path, str, str]]], None] | None = None) -> IntakeReport:
    """Read every mail in `source`, file the strategies that stand, queue an answer for each
    (`_intake`). A mail's strategy is a text read once here: its YAML parse is not kept in the
    user's cache (`fedtool.kernel.yamlio.read_once`); the run that reads the filed file keeps it."""
    with read_once():
        return _intake(fed, source, now, workers, answered)


def _intake(fed: Fed, source: Path | str, now: datetime.datetime | None, workers: int | None,
            answered: Callable[[list[tuple[Path, str, str]]], None] | None) -> IntakeReport:
    """Read every mail in `source`, file the strategies that stand, queue an answer for each.

    Each mail is a transaction of its own: it is marked in the league as being read, judged,
    its strategy filed and its answer queued, then its verdict recorded. A mail whose judging
    raises any exception is answered with an apology, kept in strategies/quarantine/ and
    recorded as quarantined (`fedtool status` lists it): it is never judged again and never
    stops the mails after it; nothing of it is left half-filed. A mail that was being read
    when intake died (a crash, a kill) is judged once more; if that dies too, it is
    quarantined. A FedError (the fed's own files cannot be read) stops the intake with its
    message, the mail left unread for the next one. The caller holds the fed's lock.

    `workers`: how many processes may judge (None: as many as pay, `fedtool.mail.workers`;
    1: this one only). Mails of a local mailbox that touch different matches' files are
    judged side by side, each match's in arrival order; the answers, the files filed and
    the records are those of judging them one by one (a test compares).

    `answered`: told of the answers queued, [(file, its Message-ID, its recipient)], in the
    mailbox's order, each as soon as the commit that records its mail's verdict is done
    (never before: `fedtool tick` sends them while the next mails are judged,
    `outgoing.Courier`)."""
    report = IntakeReport()
    _clear_incoming(fed)  # a strategy being checked when an intake was killed
    _clear_half_written(fed)  # an answer being written then
    weeks: dict = {}  # week -> (card, wrestlers, states): read once per intake
    db = open_league(fed.database)
    # Each mail is committed twice (its mark, its verdict): with the league's write-ahead log
    # and synchronous NORMAL a commit survives the process dying (a crash, a kill), which is
    # what the marks are for, without an fsync each (2 ms here, doubling intake's time). A
    # power cut can lose the last marks and verdicts, with the answers and the files written
    # since (not synced either): those mails are judged again, the same way. The log is
    # synced at the end of the intake (the checkpoint), and by the next FULL commit (`send`).
    db.execute("PRAGMA synchronous = NORMAL")
    seen = dict(db.execute("SELECT message_id, verdict FROM inbox_seen").fetchall())
    passwords = stored_passwords(db) if fed.settings.mail.passwords else {}
    shared: dict = {}  # the help text, the owners' addresses and the weeks run, made once per intake
    senders: dict = {}  # a From: header as written -> (its one clear sender, or why not)

    def record(row: dict) -> None:
        # one mail, one commit (a write-ahead log append: a fraction of a millisecond); an
        # IMAP mail is flagged \Seen only when the next is asked for, so a mail flagged read
        # is always one the league has recorded
        with db.atomic():
            db.execute(_RECORD, row)

    def prepare(incoming: Incoming, whole: bool) -> Waiting | Outcome:
        """The mail's headers read once; for a mail read before, its outcome (a duplicate)."""
        raw = incoming.raw
        message, bomb = _parse_whole(raw) if whole else (None, None)
        head = headers(message if message is not None else _PARSER.parsebytes(header_block(raw[: MAX_BYTES + 1]), headersonly=True))
        original_id = _one(head, "message-id").strip() or None
        message_id = original_id or "<" + hashlib.sha256(raw).hexdigest()[:32] + "@no-id>"
        written = tuple(head.get("from", []))
        if written not in senders:  # the same From: on many mails is read once per intake
            senders[written] = mail_sender(head)
        sender, unclear = senders[written]
        shown = sender or one_line(_one(head, "from"), 200)
        before = seen.get(message_id)
        if before is not None and before not in (READING, READING_AGAIN):
            return Outcome(message_id, shown, "duplicate", "read before")
        seen[message_id] = "read"
        arrived = arrived_at(head, incoming.received, now).isoformat(timespec="seconds")
        row = {"message_id": message_id, "sender": shown, "verdict": READING if before is None else READING_AGAIN, "why": "",
               "read_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "week": None, "wrestler_id": None, "arrived": arrived}
        return Waiting(incoming, message, head, message_id, original_id, sender, unclear, shown, before, row, bomb)

    def parsed(mail: Waiting) -> tuple[EmailMessage, str | None]:
        """The whole mail, and why it is refused as a MIME bomb (or None)."""
        return _parse_whole(mail.incoming.raw) if mail.message is None else (mail.message, mail.bomb)

    def judge(mail: Waiting) -> tuple[Outcome, bytes | None]:
        """One mail judged here and now (its mark recorded first)."""
        if mail.before == READING_AGAIN:  # fedtool died twice while reading this mail: never again
            return _quarantined(fed, mail.incoming.raw, mail.head, mail.message_id, mail.original_id, mail.sender, now, weeks, "intake stopped twice while reading it")
        record(mail.row)  # the mark: a crash from here leaves it, and the next intake knows
        message, bomb = parsed(mail)
        try:
            return _answered(fed, message, mail.head, mail.incoming, mail.message_id, mail.original_id, mail.sender, mail.unclear, bomb, now, weeks, passwords, shared)
        except FedError:
            _clear_incoming(fed)
            forget([mail])
            raise
        except Exception as exc:  # anything else: this mail made fedtool fail
            _clear_incoming(fed)
            return _quarantined(fed, mail.incoming.raw, mail.head, mail.message_id, mail.original_id, mail.sender, now, weeks, f"{type(exc).__name__}: {exc}")

    def forget(mails: list[Waiting]) -> None:
        with db.atomic():  # the fed's own files, not these mails: read them again next time
            for mail in mails:
                db.execute("DELETE FROM inbox_seen WHERE message_id = ? AND verdict IN (?, ?)", [mail.message_id, READING, READING_AGAIN])

    def finish(mail: Waiting, outcome: Outcome, reply: bytes | Path | None, commit: bool = True) -> tuple[Path, str, str] | None:
        """The mail's answer queued (`reply`: its bytes, or the file a worker wrote) and its
        verdict recorded (committed unless `commit` is False: the caller commits). Returns
        the answer for `answered` (file, Message-ID, recipient), or None."""
        outcome.message_id, outcome.arrived, outcome.sender = mail.message_id, mail.row["arrived"], mail.shown
        if isinstance(reply, bytes):
            reply = write_answer(fed, outcome, mail.message_id, reply)
        answer = None
        if reply is not None:
            report.replies.append(reply)
            report.answers[reply] = (answer_id(fed, mail.message_id), mail.sender)
            answer = (reply, *report.answers[reply])
        # a mail that reached no wrestler keeps its subject with its reason (`fedtool status` lists it)
        why = outcome.why + (f"\n{SUBJECT_MARK}{outcome.subject}" if outcome.subject is not None else "")
        row = {**mail.row, "verdict": outcome.verdict, "why": why, "week": outcome.week, "wrestler_id": outcome.wrestler_id}
        report.outcomes.append(outcome)
        if not commit:
            db.execute(_RECORD, row)
            return answer
        record(row)
        if answer is not None and answered is not None:
            answered([answer])
        return answer

    side_by_side = workers != 1 and not is_imap(str(source)) and workers_pay(workers) > 1
    if not side_by_side:  # one by one, as the source gives them (an IMAP mail is flagged read only once recorded)
        for incoming in messages(source):
            mail = prepare(incoming, whole=True)
            if isinstance(mail, Outcome):
                report.outcomes.append(mail)
            else:
                finish(mail, *judge(mail))
    else:
        from .workers import ALONE, PASSED, judge_side_by_side, plan  # only where it pays: multiprocessing is not imported otherwise

        context = _Context(now, passwords, shared)
        places_of: dict = {}  # a subject -> the files its mail's judging may touch (`_place`)

        def place(mail):
            if isinstance(mail, Outcome):
                return PASSED
            subject = _one(mail.head, "subject")
            if mail.before in (READING, READING_AGAIN) or parse_command(subject) is not None:
                return ALONE
            if subject not in places_of:  # a subject repeats (each player's mails): its place is found once
                places_of[subject] = _place(fed, subject, weeks)
            mail.group = places_of[subject]
            return mail.group

        def judged_in_worker(mail: Waiting) -> tuple:
            return _judged_apart(fed, mail, weeks, context)

        for chunk in _chunks(messages(source)):
            for segment, places, alone in plan([prepare(incoming, whole=False) for incoming in chunk], place):
                if alone or sum(1 for mail in segment if isinstance(mail, Waiting)) < PARALLEL_MIN:
                    for mail in segment:
                        if isinstance(mail, Outcome):  # read before
                            report.outcomes.append(mail)
                        else:
                            finish(mail, *judge(mail))
                    continue
                with db.atomic():  # every mail of the segment marked before any is judged
                    for mail in (m for m in segment if isinstance(m, Waiting)):
                        db.execute(_RECORD, mail.row)
                settled = _Settled()

                def settle(upto: int, results: list, segment=segment, settled=settled) -> None:
                    """The verdicts of the mails before `upto` (all judged) recorded in one commit,
                    in the mailbox's order, then their answers handed on (`answered`). A crash
                    before the commit leaves those mails marked, judged again the same way."""
                    if settled.error is not None or upto - settled.done < SETTLE_MAILS and upto < len(segment):
                        return
                    answers = []
                    with db.atomic():
                        for index in range(settled.done, upto):
                            mail, result = segment[index], results[index]
                            kind = result[0]
                            if isinstance(mail, Outcome):  # read before
                                report.outcomes.append(mail)
                            elif kind == "judged":
                                answers.append(finish(mail, result[1], result[2], commit=False))
                            elif kind == "fault":
                                quarantined = _quarantined(fed, mail.incoming.raw, mail.head, mail.message_id, mail.original_id, mail.sender, now, weeks, result[1])
                                answers.append(finish(mail, *quarantined, commit=False))
                            elif kind == "fed-error":
                                settled.error = (index, FedError(result[1]))
                                break
                            else:  # its worker ended without a word (killed): judged here, in order, after the segment (filing again is the same filing)
                                settled.lost.append(mail)
                        settled.done = upto if settled.error is None else settled.error[0]
                    answers = [a for a in answers if a is not None]
                    if answers and answered is not None:
                        answered(answers)

                _shared(fed, shared, "ran")  # read here, once: a worker never opens the league
                results = judge_side_by_side(segment, places, workers_pay(workers), judged_in_worker, settle)
                _clear_incoming(fed)  # every worker has ended
                settle(len(segment), results)
                if settled.error is not None:
                    index, error = settled.error
                    unread = [m for m in segment[index:] if isinstance(m, Waiting)]
                    for result in results[index:]:  # answers judged past the error: not recorded, so never queued
                        if result[0] == "judged" and result[2] is not None:
                            result[2].unlink(missing_ok=True)
                    forget(unread)
                    raise error
                for mail in settled.lost:
                    mail.before = None
                    finish(mail, *judge(mail))
    if not db.memory:
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # the log synced and folded into fed.db
    return report


_RECORD = ("INSERT OR REPLACE INTO inbox_seen (message_id, sender, verdict, why, read_at, week, wrestler_id, arrived) "
           "VALUES (:message_id, :sender, :verdict, :why, :read_at, :week, :wrestler_id, :arrived)")


def write_answer(fed: Fed, outcome: Outcome, message_id: str, reply: bytes) -> Path:
    """An answer queued: outbox/replies/week-NN/mail/<hash of the mail's id>.eml, whole or not at all."""
    path = replies_folder(fed, outcome.week) / answer_name(message_id)
    _write_atomically(path, reply)
    return path


@dataclass
class _Context:
    """What judging a mail reads besides the fed and the weeks: the clock, the passwords and
    what one intake makes once (help text, owners, weeks run, headers parsed)."""

    now: datetime.datetime | None
    passwords: dict
    shared: dict


@dataclass
class _Settled:
    """How far a segment judged side by side is recorded: the mails before `done`; the mails
    its dead workers left (`lost`); the fed's own error that stopped it, at its index."""

    done: int = 0
    lost: list = field(default_factory=list)
    error: tuple | None = None


SETTLE_MAILS = 25  # verdicts judged side by side are recorded (and their answers sent) this many at a time
PARALLEL_MIN = 64  # fewer mails than this in a run between barriers are judged one by one: a worker costs more than it saves
CHUNK_MAILS, CHUNK_BYTES = 2000, 64_000_000  # a local mailbox is read this much at a time (memory stays bounded)


def workers_pay(asked: int | None) -> int:
    """How many processes judge side by side: the cores this process may use (at most
    `asked`); 1 where there is only one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, asked or cores, 8))


def _chunks(source: Iterator[Incoming]) -> Iterator[list[Incoming]]:
    chunk: list[Incoming] = []
    size = 0
    for incoming in source:
        chunk.append(incoming)
        size += len(incoming.raw)
        if len(chunk) >= CHUNK_MAILS or size >= CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


_BLANK_LINE = re.compile(rb"\n\r?\n")


def header_block(raw: bytes) -> bytes:
    """A mail's bytes up to the first blank line (LF or CR LF line ends): what a headers-only
    parse reads (the parser would split every line of the body only to skip it). The parser
    stops its headers at the first blank line it sees, never after this one, so the headers
    read are the same (a test compares)."""
    found = _BLANK_LINE.search(raw)
    return raw if found is None else raw[: found.end()]


def _parse_whole(raw: bytes) -> tuple[EmailMessage, str | None]:
    """A mail parsed whole, and why it is refused as a MIME bomb (or None)."""
    try:
        return _PARSER.parsebytes(raw[: MAX_BYTES + 1]), None
    except RecursionError:  # MIME nested thousands deep: the stdlib parser recurses per level
        return (_PARSER.parsebytes(raw[: MAX_BYTES + 1], headersonly=True),
                f"The mail is nested more than {MAX_DEPTH} MIME parts deep; send the strategy as the body or one attachment.")


def _judged_apart(fed: Fed, mail: Waiting, weeks: dict, context: _Context) -> tuple:
    """One mail judged in a worker (`workers.judge_side_by_side`): its strategy filed and its
    answer written: ("judged", outcome, the answer's file or None); ("fault", why) for a mail
    that made judging fail (the intake quarantines it; its half-filed strategy is removed);
    ("fed-error", problems) for the fed's own files."""
    message, bomb = _parse_whole(mail.incoming.raw)
    try:
        outcome, reply = _answered(fed, message, mail.head, mail.incoming, mail.message_id, mail.original_id, mail.sender, mail.unclear, bomb,
                                   context.now, weeks, context.passwords, context.shared)
    except FedError as exc:
        return ("fed-error", exc.problems)
    except Exception as exc:  # this mail made judging fail
        if mail.group is not None:  # only its own group's candidates: other workers are checking theirs
            week, sides = mail.group
            for side in sides:
                for leftover in fed.week_dir(week).glob(f"~incoming~{side}.*"):
                    leftover.unlink(missing_ok=True)
        return ("fault", f"{type(exc).__name__}: {exc}")
    outcome.filing = None  # filed already
    return ("judged", outcome, write_answer(fed, outcome, mail.message_id, reply) if reply is not None else None)


def _place(fed: Fed, subject: str, weeks: dict):
    """The strategy files a mail with this subject can touch (`workers.plan`): (week, the
    sides of every match joined to the wrestlers it names), None when it names no wrestler
    of a card (it touches no strategy file), ALONE when it cannot be told."""
    from .workers import ALONE

    found = WEEK.search(subject)
    if not found:
        return None
    week = int(found.group(1))
    if not (fed.week_dir(week) / "card.yaml").exists():
        return None
    try:
        context = _week_context(fed, week, weeks)
    except FedError:
        return ALONE  # judged in its place: its error stops the intake there
    lowered = subject.lower()
    named = {w for m in context.card.matches for w in m.sides if w in lowered}
    named |= {w.id for w in context.wrestlers.values() if w.name.lower() in lowered or _plain_name(w.name) in lowered}
    if not named:
        return None
    joined = set(named)
    grown = True
    while grown:  # every match of a named wrestler, and every match of theirs (a wrestler booked twice joins two)
        grown = False
        for match in context.card.matches:
            if joined.intersection(match.sides) and not joined.issuperset(match.sides):
                joined.update(match.sides)
                grown = True
    return (week, tuple(sorted(joined)))


def _answered(fed: Fed, message: EmailMessage, head: dict, incoming: Incoming, message_id: str, original_id: str | None, sender: str | None, unclear: str | None,
              bomb: str | None, now: datetime.datetime | None, weeks: dict, passwords: dict, shared: dict) -> tuple[Outcome, bytes | None]:
    """One mail judged, its strategy filed: (its outcome, its answer's bytes or None)."""
    silent = _silent(head)
    if silent:
        return Outcome("", "", "ignored", silent), None
    subject = _one(head, "subject")
    if unclear:  # recorded against the week and wrestler it names, so `fedtool status` shows the attempt
        week, wrestler_id = _named(fed, subject, weeks)
        return Outcome("", "", "refused", unclear, week=week, wrestler_id=wrestler_id, subject=one_line(subject) if wrestler_id is None else None), None
    silent = _unanswered(fed, sender)
    if silent:
        return Outcome("", "", "ignored", silent), None
    refused = bomb or (BROKEN_SUBJECT if LINE_BREAK.search(subject) else None)
    if refused is not None:  # answered, and recorded against the week and wrestler the subject names
        week, wrestler_id = _named(fed, subject, weeks)
        outcome = Outcome("", "", "refused", refused, week=week, wrestler_id=wrestler_id, subject=one_line(subject) if wrestler_id is None else None)
        text, answer_subject = _refused_text(refused), _answer_subject(subject)
    else:
        outcome, text, answer_subject = _judge(fed, message, head, incoming, sender, now, weeks, passwords, shared)
    data = answer_bytes(fed, original_id, sender, answer_subject, text, now, message_id, shared.setdefault("parsed", {}))  # built before anything is filed
    if outcome.filing is not None:
        outcome.filing.commit()
    return outcome, data


def _quarantined(fed: Fed, raw: bytes, head: dict, message_id: str, original_id: str | None, sender: str | None, now: datetime.datetime | None,
                 weeks: dict, fault: str) -> tuple[Outcome, bytes | None]:
    """A mail that made intake fail: kept, recorded, and answered with an apology when it has
    one clear sender fedtool may answer."""
    kept = fed.shown(_keep_in_quarantine(fed, raw))
    subject = _one(head, "subject")
    try:
        week, wrestler_id = _named(fed, subject, weeks)
    except Exception:
        week, wrestler_id = None, None
    why = f"fedtool failed while judging this mail ({one_line(fault, 200)}); kept for the fedhead as {kept}"
    outcome = Outcome("", "", QUARANTINED, why, week=week, wrestler_id=wrestler_id, subject=one_line(subject) if wrestler_id is None else None)
    reply = None
    if sender is not None and _silent(head) is None and _unanswered(fed, sender) is None:
        try:
            reply = answer_bytes(fed, original_id, sender, _answer_subject(subject), APOLOGY, now, message_id)
        except Exception:  # not even an apology can be written to this address: the fedhead has the mail
            outcome.why += "; not answered"
    return outcome, reply


def _week_context(fed: Fed, week: int, weeks: dict) -> CardContext:
    """The card, its wrestlers and their league states going into `week`, read once."""
    if week not in weeks:
        weeks[week] = card_context(fed, week_card(fed, week), week, Collector())
    return weeks[week]


def _shared(fed: Fed, shared: dict, key: str):
    """Made on first use in an intake: the help text ("help"), the owners' addresses as
    compared ("owners"), the weeks the league has run and when ("ran")."""
    if key not in shared:
        if key == "help":
            shared[key] = help_text(fed)
        elif key == "owners":
            shared[key] = {address_key(owner) for owner in owner_addresses(fed)}
        else:
            shared[key] = dict(open_league(fed.database, create=False).execute("SELECT week, ran_at FROM weeks").fetchall())
    return shared[key]


BROKEN_SUBJECT = "The subject holds a line break once decoded; write it on one line, for example: Week 2 brother-bob."


def _refused_text(why: str) -> str:
    """A refusal's words: fedtool's, so its code spans (a problem's `prefer:`) read as quotes."""
    return f"Your mail was not accepted.\n\n{unmarked(why)}\n\nNothing was filed; any strategy you sent before still stands.\n"


def _answer_subject(subject: str) -> str:
    """The answer's subject: the player's, on one line (never a line break into a header we write)."""
    return f"Re: {one_line(subject, 196)}"


def _closed(fed: Fed, week: int, ran_at: str) -> str:
    """Why a strategy for a week already run is refused."""
    try:
        when = shown_time(fed, datetime.datetime.fromisoformat(ran_at))
    except (TypeError, ValueError):
        when = str(ran_at)
    return (f"Week {week} has already been run (its results are dated {when}): a strategy for it can no longer be filed, "
            f"and the strategy the run used stands. The fedhead can replace a file by hand and run the week again (fedtool run {week} --rerun).")


def _judge(fed: Fed, message: EmailMessage, head: dict, incoming: Incoming, sender: str, now: datetime.datetime | None, weeks: dict, passwords: dict,
           shared: dict | None = None):
    """Decide one order mail or mail command: (outcome, the answer's text, its subject)."""
    shared = {} if shared is None else shared
    subject = _one(head, "subject")
    answer_subject = _answer_subject(subject)
    mail = fed.settings.mail
    quoted = ""

    def refuse(why: str, week: int | None = None, wrestler_id: str | None = None, helps: bool = False):
        """`helps`: the mail reached no wrestler (or not from the owner): the help text follows."""
        outcome = Outcome("", sender, "refused", why, week=week, wrestler_id=wrestler_id)
        text = _refused_text(why)
        if helps:
            text += "\n" + _shared(fed, shared, "help")
            if wrestler_id is None:
                outcome.subject = one_line(subject)
        if quoted:
            text += f"\nYour mail, as it reached us:\n\n{quoted}\n"
        return outcome, text, answer_subject

    if incoming.size > MAX_BYTES:
        return refuse(f"The mail is {incoming.size:,} bytes; the limit is {MAX_BYTES:,}.", *_named(fed, subject, weeks))
    parts, depth = _shape(message)
    if parts > MAX_PARTS or depth > MAX_DEPTH:
        return refuse(f"The mail has {parts} parts nested {depth} deep; send the strategy as the body or one attachment.", *_named(fed, subject, weeks))
    command = parse_command(subject)
    if command is not None:  # answered only to From:, and with a player's own records only if From: owns a wrestler
        owner = address_key(sender) in _shared(fed, shared, "owners")
        answer = answer_command(fed, command, sender, owner)
        return Outcome("", sender, "command", answer.why, week=answer.week), answer.text, answer_subject
    found = WEEK.search(subject)
    if not found:
        far = FAR_WEEK.search(subject)
        if far:  # a week named, but none a fed can have: said so (never read as a number: it may be thousands of digits)
            digits = far.group(1)
            shown = digits if len(digits) <= 12 else digits[:12] + "..."
            return refuse(f"There is no card for week {shown}: weeks are numbered 0 to 9999.", helps=True)
        return refuse("The subject must name the week and the wrestler, for example: Week 2 brother-bob.", helps=True)
    week = int(found.group(1))
    folder = fed.week_dir(week)
    if not (folder / "card.yaml").exists():
        return refuse(f"There is no card for week {week}.", helps=True)
    context = _week_context(fed, week, weeks)
    card, wrestlers = context.card, context.wrestlers
    sides = {w: m for m in card.matches for w in m.sides}
    lowered = subject.lower()
    wrestler_id = next((w for w in sorted(sides, key=len, reverse=True) if w in lowered), None)
    named_ids = [w for w in sorted(sides) if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", lowered)]
    if len(named_ids) > 1:  # never one of them guessed (the longest id) and the strategy filed as his
        return refuse(f"The subject names more than one wrestler ({', '.join(named_ids)}); nothing was filed. Send one mail for each wrestler, "
                      f"its subject naming him alone, for example: Week {week} {named_ids[0]}.", week, None)
    if wrestler_id is None:  # by name, with or without a nickname in quotes: Kate "The Gate" Galloway
        wrestler_id = next((w.id for w in wrestlers.values() if w.name.lower() in lowered or _plain_name(w.name) in lowered), None)
    ran = _shared(fed, shared, "ran")
    if week in ran:  # a run week is closed: the strategy its run used stays as it was
        return refuse(_closed(fed, week, ran[week]), week, wrestler_id if wrestler_id in wrestlers else None)
    if wrestler_id is None or wrestler_id not in wrestlers:
        return refuse(f"The subject names no wrestler on the week {week} card ({', '.join(sorted(sides))}).", week, helps=True)
    wrestler = wrestlers[wrestler_id]
    owner = wrestler.owner_email.lower()
    if address_key(sender) != address_key(owner):
        # a From: header can be forged: only the registered owner's address is accepted
        return refuse(f"{sender} is not the registered owner of {wrestler.name}; strategies are accepted only from the owner's address.", week, wrestler_id,
                      helps=True)
    booked = [m for m in card.matches if wrestler_id in m.sides]
    named = [m for m in booked if re.search(rf"(?<![\w-]){re.escape(m.id)}(?![\w-])", lowered)]
    if len(booked) > 1 and len(named) != 1:  # booked twice: the subject names the match
        listed = ", ".join(f"{m.id} ({' vs. '.join(m.sides)})" for m in booked)
        return refuse(f"{wrestler.name} is booked in more than one match this week: {listed}. Name the match in the subject, "
                      f'for example "Week {week} {wrestler_id} {booked[0].id}".', week, wrestler_id)
    match = named[0] if len(booked) > 1 else booked[0]
    try:
        content = _strategy_text(message, get_ruleset(match.ruleset), mail.reply_languages)
    except _TwoStrategies as two:
        return refuse(f"The mail holds {two.count} different strategy attachments; nothing of it was filed. Send one strategy per mail: "
                      "one mail for each wrestler, the strategy as its body or its one .yaml or .txt attachment.", week, wrestler_id)
    if content is not None:
        quoted = _quoted(content[1])
    if mail.passwords:
        given = _password_in(message, content[1] if content else "")
        stored = passwords.get(owner)
        if stored is None:
            return refuse(f"This fed asks for a password with every strategy, and none is set for {owner}: ask the fedhead to set one (fedtool password).", week, wrestler_id)
        if not given:
            return refuse('This fed asks for your password with every strategy: put a line "Password: your-password" in the mail.', week, wrestler_id)
        if not password_matches(given, stored):
            return refuse(f"The password line does not match the password set for {owner}.", week, wrestler_id)
        if content is not None:  # the password written anywhere else in the text is never kept or echoed either
            content = (content[0], content[1].replace(given, BLANK_WORD))
            quoted = _quoted(content[1])
    late = None
    if card.deadline is not None:
        sent = arrived_at(head, incoming.received, now)
        if sent > card.deadline:
            late = f"The deadline for week {week} was {card.deadline.isoformat()}; this mail arrived {sent.isoformat()}."
            if mail.late_mail == "refuse":
                return refuse(late, week, wrestler_id)
    if content is None:
        return refuse("No strategy found: send it as the body of the mail (above any mail you quote in a reply) or as a .yaml or .txt attachment.",
                      week, wrestler_id)
    suffix, text = content
    card_named = match.strategy_files.get(wrestler_id)  # the card names this match's file (a wrestler booked twice)
    if card_named is not None:
        suffix = Path(card_named).suffix
    _, text = take_password(text.replace("\r\n", "\n"))  # the password line never reaches a filed strategy
    candidate = folder / f"~incoming~{wrestler_id}{suffix}"
    candidate.write_text(text, encoding="utf-8")
    try:
        # the other side's reading kept for the intake by its text (`Ruleset.book`): a strategy an earlier mail filed is read anew
        check = check_strategy_file(fed, candidate, wrestler_id, context, strict=True, match_id=match.id, cache=shared.setdefault("checks", {}))
    except FedError as exc:
        check = None
        errors = exc.problems
    else:
        errors = check.problems
    if errors:
        candidate.unlink(missing_ok=True)
        listed = "\n".join(f"- {str(p).replace(fed.shown(candidate), 'your strategy')}" for p in errors)
        return refuse(f"The strategy for {wrestler.name} has problems:\n{listed}", week, wrestler_id)
    # how fedtool read each line is fedtool's words (plain, no backticks); without readings, the player's own text as sent
    echo = "\n".join(f"  line {r.line:>3}: {unmarked(r.reading)}" if r.line else f"  {'':8}  {unmarked(r.reading)}" for r in check.readings) if check.readings else PASSWORD_LINE.sub("", text).strip("\n")
    if late is not None:  # held: checked and kept, but not filed until the fedhead says so
        held = folder / HELD_FOLDER
        held.mkdir(exist_ok=True)
        final = held / (card_named or f"{wrestler_id}{suffix}")
        outcome = Outcome("", sender, "held", f"{wrestler.name}, week {week}: late, held for the fedhead", fed.shown(final), week, wrestler_id,
                          filing=Filing(candidate, final, wrestler_id if card_named is None else None))
        body = (f"Held: your strategy for {wrestler.name}, week {week} ({check.match}) came after the deadline.\n\n{late}\n\n"
                f"It stands as a strategy and is kept for the fedhead, who decides whether it is played; until then it is not filed, "
                f"and any strategy you sent before still stands.\n\nAs the resolver would read it:\n\n{echo}\n")
        return outcome, body, answer_subject
    final = folder / (card_named or f"{wrestler_id}{suffix}")  # the newest good strategy is the one: its other formats go
    outcome = Outcome("", sender, "accepted", f"{wrestler.name}, week {week}", fed.shown(final), week, wrestler_id,
                      filing=Filing(candidate, final, wrestler_id if card_named is None else None))
    body = f"Accepted: the strategy for {wrestler.name}, week {week} ({check.match}).\n\nAs the resolver will read it:\n\n{echo}\n\nA later good strategy before the deadline replaces this one; a bad one never does.\n"
    if mail.passwords:
        body += f"\nYour password line was checked and is not kept with the strategy ({BLANKED}).\n"
    return outcome, body, answer_subject


def _named(fed: Fed, subject: str, weeks: dict) -> tuple[int | None, str | None]:
    """The week and wrestler a refused mail's subject names, as far as they can be read (for
    `fedtool status`); never a refusal of its own."""
    found = WEEK.search(subject)
    if not found or not (fed.week_dir(int(found.group(1))) / "card.yaml").exists():
        return None, None
    week = int(found.group(1))
    try:
        context = _week_context(fed, week, weeks)
    except FedError:
        return None, None
    lowered = subject.lower()
    sides = sorted({w for m in context.card.matches for w in m.sides}, key=len, reverse=True)
    wrestler_id = next((w for w in sides if w in lowered), None) or next(
        (w.id for w in context.wrestlers.values() if w.name.lower() in lowered or _plain_name(w.name) in lowered), None)
    return week, wrestler_id


def _plain_name(name: str) -> str:
    return " ".join(re.sub(r'["\u201c][^"\u201d]*["\u201d]', " ", name).lower().split())


def _drop_other_suffixes(folder: Path, wrestler_id: str, suffix: str) -> None:
    for other in STRATEGY_SUFFIXES:
        if other != suffix:
            (folder / f"{wrestler_id}{other}").unlink(missing_ok=True)


def accept_held(fed: Fed, week: int, wrestler_id: str) -> Path:
    """File a late strategy held for the fedhead (`mail: late_mail: hold`) as the wrestler's
    strategy for `week`, after checking it again. Returns where it was filed."""
    folder = fed.week_dir(week)
    held = [folder / HELD_FOLDER / f"{wrestler_id}{s}" for s in STRATEGY_SUFFIXES if (folder / HELD_FOLDER / f"{wrestler_id}{s}").is_file()]
    if not held:
        waiting = sorted(p.stem for p in (folder / HELD_FOLDER).glob("*") if p.suffix in STRATEGY_SUFFIXES) if (folder / HELD_FOLDER).is_dir() else []
        raise FedError(Problem(fed.shown(folder / HELD_FOLDER), None, f"no strategy held for {wrestler_id!r}" + (f"; held: {', '.join(waiting)}" if waiting else "; none is held"), "fedtool accept"))
    source = held[0]
    candidate = folder / f"~incoming~{wrestler_id}{source.suffix}"
    candidate.write_bytes(source.read_bytes())
    try:
        check = check_strategy_file(fed, candidate, wrestler_id, strict=True)
    except FedError:
        candidate.unlink(missing_ok=True)
        raise
    if check.problems:
        candidate.unlink(missing_ok=True)
        raise FedError([Problem(fed.shown(source), p.place, p.message, p.rule) for p in check.problems])
    final = folder / f"{wrestler_id}{source.suffix}"
    os.replace(candidate, final)
    _drop_other_suffixes(folder, wrestler_id, source.suffix)
    source.unlink()
    return final


__all__ = ["intake", "IntakeReport", "accept_held", "replies_folder", "arrived_at"]
