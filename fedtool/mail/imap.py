"""Strategy mails from an IMAP mailbox (standard library imaplib).

A source is written `imaps://USER@HOST[:PORT]/MAILBOX` (TLS; port 993 by default) or
`imap://USER@HOST[:PORT]/MAILBOX` (plain, port 143: for a server on the same machine only).
The password is read from FEDTOOL_IMAP_PASSWORD, never from a file or the command line.
Unseen mails are fetched (without marking them), and each one the intake has handled is
flagged \\Seen; the intake's Message-ID check still makes a mail read twice count once.
"""

from __future__ import annotations

import datetime
import imaplib
import os
import re
import ssl
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import unquote, urlsplit

from fedtool.kernel.errors import FedError, Problem

PASSWORD_ENV = "FEDTOOL_IMAP_PASSWORD"
RULE = "fedtool inbox: IMAP"
SCHEMES = {"imap": 143, "imaps": 993}
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_INTERNALDATE = re.compile(rb'INTERNALDATE "([^"]+)"')
_ATOM = re.compile(r"^[A-Za-z0-9_./-]+$")


@dataclass(frozen=True)
class ImapSource:
    """Where the mails are: `imaps://user@host:port/mailbox`."""

    secure: bool
    user: str
    host: str
    port: int
    mailbox: str

    def __str__(self) -> str:
        return f"{'imaps' if self.secure else 'imap'}://{self.user}@{self.host}:{self.port}/{self.mailbox}"


def is_imap(source: str) -> bool:
    """Whether a source names an IMAP mailbox rather than a path."""
    return str(source).lower().startswith(("imap://", "imaps://"))


def parse_source(source: str) -> ImapSource:
    """Read `imaps://USER@HOST[:PORT]/MAILBOX`; a clear FedError when it cannot be read."""

    def bad(why: str) -> FedError:
        return FedError(Problem(None, None, f"{source!r}: {why}; write imaps://USER@HOST[:PORT]/MAILBOX", RULE))

    try:
        parts = urlsplit(source)
        port = parts.port
    except ValueError as exc:
        raise bad(str(exc)) from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise bad("not an IMAP address")
    if not parts.hostname:
        raise bad("no host")
    if not parts.username:
        raise bad("no user")
    if parts.password is not None:
        raise bad(f"no password in the address: set {PASSWORD_ENV}")
    if parts.query or parts.fragment:
        raise bad("no ? or # parts")
    mailbox = unquote(parts.path.lstrip("/")) or "INBOX"
    if any(c in mailbox for c in "\r\n\0") or len(mailbox) > 200:
        raise bad("a mailbox name is one line of at most 200 characters")
    return ImapSource(scheme == "imaps", unquote(parts.username), parts.hostname, port or SCHEMES[scheme], mailbox)


@dataclass
class ImapMail:
    """One mail as the server keeps it: its first `limit` bytes, its whole size and when the
    server received it (INTERNALDATE)."""

    uid: bytes
    raw: bytes
    size: int
    arrived: datetime.datetime | None


def _quoted(mailbox: str) -> str:
    if _ATOM.match(mailbox):
        return mailbox
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _internaldate(text: bytes) -> datetime.datetime | None:
    found = _INTERNALDATE.search(text)
    if not found:
        return None
    try:
        return datetime.datetime.strptime(found.group(1).decode("ascii").strip(), "%d-%b-%Y %H:%M:%S %z")
    except ValueError:
        return None


def _check(response: tuple, what: str, source: ImapSource) -> list:
    status, data = response
    if status != "OK":
        said = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
        raise FedError(Problem(None, None, f"{source}: the server refused {what}: {said}", RULE))
    return data


def imap_mails(source: str, limit: int, ssl_context: ssl.SSLContext | None = None) -> Iterator[ImapMail]:
    """Every unseen mail in the mailbox, oldest first. A mail is flagged \\Seen once the
    caller asks for the next one (or the loop ends): a crash mid-way leaves the mail it was
    handling unseen, to be read again next time."""
    where = parse_source(source)
    password = os.environ.get(PASSWORD_ENV)
    if not password:
        raise FedError(Problem(None, None, f"set {PASSWORD_ENV} to the IMAP password for {where.user} at {where.host}", RULE))
    try:
        if where.secure:
            server = imaplib.IMAP4_SSL(where.host, where.port, ssl_context=ssl_context or ssl.create_default_context(), timeout=30)
        else:
            server = imaplib.IMAP4(where.host, where.port, timeout=30)
    except (OSError, imaplib.IMAP4.error) as exc:
        raise FedError(Problem(None, None, f"cannot reach {where.host}:{where.port}: {exc}", RULE)) from None
    handled: list[bytes] = []
    try:
        try:
            server.login(where.user, password)
        except imaplib.IMAP4.error as exc:
            raise FedError(Problem(None, None, f"{where}: login failed for {where.user} ({exc}); check {PASSWORD_ENV}", RULE)) from None
        _check(server.select(_quoted(where.mailbox)), f"to open mailbox {where.mailbox!r}", where)
        found = _check(server.uid("SEARCH", None, "UNSEEN"), "the search for unseen mail", where)
        uids = [uid for uid in (found[0] or b"").split() if uid.isdigit()]
        for uid in uids:
            data = _check(server.uid("FETCH", uid, f"(UID INTERNALDATE RFC822.SIZE BODY.PEEK[]<0.{limit}>)"), f"to fetch mail {uid.decode()}", where)
            raw, text = b"", b""
            for item in data:
                if isinstance(item, tuple):
                    text += item[0]
                    raw = item[1]
                elif isinstance(item, bytes):
                    text += item
            size = _SIZE.search(text)
            yield ImapMail(uid, raw, int(size.group(1)) if size else len(raw), _internaldate(text))
            handled.append(uid)
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise FedError(Problem(None, None, f"{where}: the connection failed: {exc}", RULE)) from None
    finally:
        try:
            if handled:
                server.uid("STORE", b",".join(handled).decode(), "+FLAGS", "(\\Seen)")
            server.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


__all__ = ["imap_mails", "is_imap", "parse_source", "PASSWORD_ENV"]
