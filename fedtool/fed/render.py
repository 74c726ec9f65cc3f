"""Writeups from jinja2 templates: the fed's templates/ first, then the packaged defaults.

A fed template can extend the stock one it replaces with `{% extends "default:NAME" %}`
(the datasette pattern). HTML templates autoescape, so player text is always escaped.
"""

from __future__ import annotations

import datetime
import hashlib
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import formataddr, format_datetime
from pathlib import Path

import markdown as markdown_lib
from jinja2 import BaseLoader, ChoiceLoader, TemplateNotFound, Environment, FileSystemLoader, PackageLoader, PrefixLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem


def environment(fed_templates: Path | None, rulesets: dict[str, Path] | None = None) -> Environment:
    """The templates a fed renders with: its own templates/ first, then fedtool's.

    `rulesets` maps a ruleset id to its packaged templates folder, found as `<id>/NAME`
    (the fed's own templates/<id>/NAME still comes first)."""
    packaged: BaseLoader = PackageLoader("fedtool", "templates")
    if rulesets:
        packaged = ChoiceLoader([packaged, PrefixLoader({rid: FileSystemLoader(str(folder)) for rid, folder in rulesets.items()}, delimiter="/")])
    loaders = [FileSystemLoader(str(fed_templates))] if fed_templates and fed_templates.is_dir() else []
    env = Environment(
        loader=ChoiceLoader([*loaders, PrefixLoader({"default": packaged}, delimiter=":"), packaged]),
        autoescape=select_autoescape(enabled_extensions=("html", "htm", "xml", "html.j2", "htm.j2", "xml.j2"), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["fedhead_markdown"] = fedhead_markdown
    env.filters["md_escape"] = md_escape
    return env


def fedhead_markdown(text: str) -> Markup:
    """Markdown written by the fedhead (card notes): trusted, rendered to HTML.

    Never use this on player text: Markdown passes raw HTML through.
    """
    return Markup(markdown_lib.markdown(text or ""))


def md_escape(text: str) -> str:
    """Keep player text from starting Markdown structures (headings, lists, HTML) in .md writeups."""
    out = []
    for line in str(text).splitlines():
        stripped = line.lstrip()
        if stripped[:1] in ("#", ">", "-", "+", "*", "|", "=") or stripped[:1].isdigit() and ". " in stripped[:5]:
            line = "\\" + stripped
        out.append(line.replace("<", "&lt;").replace(">", "&gt;"))
    return "\n".join(out)


def render(env: Environment, name: str, **context) -> str:
    try:
        return env.get_template(name).render(**context)
    except TemplateNotFound as exc:
        raise FedError(Problem(name, None, f"template {exc.name!r} not found in the fed's templates/ or fedtool's", "writeup templates")) from None
    except Exception as exc:  # a fed's own template can be wrong in many ways
        template = getattr(exc, "filename", None) or name
        line = getattr(exc, "lineno", None)
        raise FedError(Problem(str(template), f"line {line}" if line else None, f"template error: {exc}", "writeup templates")) from None


class MailPolicy(EmailPolicy):
    """The standard policy, but a Subject is never folded right after its colon.

    When a subject is too long for the header's first line but fits on the next, Python
    moves all of it there ("Subject:" CRLF " Corrected: ..."), which parsers, Python's
    own among them, read back with a leading space. Such a subject stays on one line (RFC
    5322 allows 998 characters; 78 is a recommendation)."""

    # The standard policy parses a header again on every read (a mail's Content-Type a
    # dozen times while its parts are walked) and every write, and folds it again each time
    # the mail is written out; that dominated the cost of mail intake and sending. A parsed
    # header is immutable and its folding depends only on its text, its name and the
    # policy, so each is done once per text and kept (at most _CACHED_MAX of each).

    def header_fetch_parse(self, name, value):
        if hasattr(value, "name"):
            return value
        return _cached(_FETCHED, (name, value), lambda: super(MailPolicy, self).header_fetch_parse(name, value))

    def header_store_parse(self, name, value):
        if not isinstance(value, str) or hasattr(value, "name"):
            return super().header_store_parse(name, value)
        # a value with a line break is still refused by the standard policy, never cached
        return name, _cached(_STORED, (name, value), lambda: super(MailPolicy, self).header_store_parse(name, value)[1])

    def fold(self, name, value):
        return _cached(_FOLDED, (self, name, value, type(value), False), lambda: self._fold_subject(name, value))

    def fold_binary(self, name, value):
        return _cached(_FOLDED, (self, name, value, type(value), True), lambda: self._fold_binary(name, value))

    def _fold_subject(self, name, value):
        folded = super().fold(name, value)
        text = str(value)
        if name.lower() == "subject" and folded.startswith(f"{name}:{self.linesep}") and text.isascii() and len(text) < 990:
            return f"{name}: {text.strip()}{self.linesep}"
        return folded

    def _fold_binary(self, name, value):
        return self._fold_subject(name, value).encode("ascii") if name.lower() == "subject" and str(value).isascii() else super().fold_binary(name, value)


def _cached(cache: dict, key, make):
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHED_MAX:
            cache.clear()
        found = cache[key] = make()
    return found


_FETCHED: dict = {}  # (name, text) -> the header parsed, as read from a mail
_STORED: dict = {}  # (name, text) -> the header parsed, as set on a mail
_FOLDED: dict = {}  # (policy, name, header, its type, binary) -> the header line(s) as written
_CACHED_MAX = 256  # the headers that repeat (Content-Type, From, Date) are few; the rest churn
MAIL_POLICY = MailPolicy()  # every mail fedtool writes or reads back from the outbox


def email(sender: str, to_name: str, to_address: str, subject: str, text: str, html: str | None, message_id: str, reply_to: str | None = None,
          date: datetime.datetime | None = None, references: str | None = None) -> EmailMessage:
    """One mail: Markdown as the text part, HTML as the alternative.

    `date` is its Date header (RFC 5322 requires one): a run's mails carry the run's own
    time, so the mails of one run agree; default: the clock (`fedtool.kernel.clock`).
    `references` is the Message-ID of the mail this one corrects or repeats."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = sender
    message["To"] = formataddr((to_name, to_address))
    message["Subject"] = subject
    message["Date"] = format_datetime(date or clock.now())
    message["Message-ID"] = message_id
    if references:
        message["In-Reply-To"] = references
        message["References"] = references
    if reply_to:
        message["Reply-To"] = reply_to
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no autoreplies to us
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
        # a boundary from the Message-ID, not a random one, so a rerun writes the same bytes
        message.set_boundary("=_fedtool_" + hashlib.sha256(message_id.encode()).hexdigest()[:24])
    return message
