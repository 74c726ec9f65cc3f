"""Strategy mails from an IMAP mailbox, through IMAPClient.

A source is written `imaps://USER@HOST[:PORT]/MAILBOX` (TLS; port 993 by default) or
`imap://USER@HOST[:PORT]/MAILBOX` (plain, port 143: for a server on the same machine only).
The password is read from FEDTOOL_IMAP_PASSWORD, never from a file or the command line.
The server's certificate is always verified: against the system's certificate authorities,
or, when FEDTOOL_IMAP_CAFILE names a PEM file, against that file's certificates only (a
self-hosted server's own CA or self-signed certificate). Verification is never turned off.
Unseen mails are fetched (BODY.PEEK: without marking them), and each one the intake has
handled is flagged \\Seen; the intake's Message-ID check still makes a mail read twice count once.
"""

from __future__ import annotations

import datetime
import os
import ssl
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import unquote, urlsplit

from imapclient import IMAPClient, SEEN
from imapclient.exceptions import IMAPClientError, LoginError

from fedtool.kernel.errors import FedError, Problem

PASSWORD_ENV = "FEDTOOL_IMAP_PASSWORD"
CAFILE_ENV = "FEDTOOL_IMAP_CAFILE"
RULE = "fedtool inbox: IMAP"
SCHEMES = {"imap": 143, "imaps": 993}
TIMEOUT = 30  # seconds for connecting and for each answer


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
        raise bad(f"no ? or # parts (a certificate to trust goes in {CAFILE_ENV})")
    mailbox = unquote(parts.path.lstrip("/")) or "INBOX"
    if any(c in mailbox for c in "\r\n\0") or len(mailbox) > 200:
        raise bad("a mailbox name is one line of at most 200 characters")
    return ImapSource(scheme == "imaps", unquote(parts.username), parts.hostname, port or SCHEMES[scheme], mailbox)


@dataclass
class ImapMail:
    """One mail as the server keeps it: its first `limit` bytes, its whole size and when the
    server received it (INTERNALDATE)."""

    uid: int
    raw: bytes
    size: int
    arrived: datetime.datetime | None


def tls_context(where: ImapSource) -> ssl.SSLContext:
    """The TLS settings for `where`: the system's CAs, or only those in FEDTOOL_IMAP_CAFILE.
    The certificate and the host name are always checked."""
    cafile = os.environ.get(CAFILE_ENV)
    if not cafile:
        return ssl.create_default_context()
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as exc:
        why = exc.strerror or exc.reason or str(exc)
        raise FedError(Problem(cafile, None, f"{CAFILE_ENV} names no readable PEM certificate file ({why}); "
                               f"set it to the certificate {where.host} presents (self-signed) or to its CA's", RULE)) from None


def _connect(where: ImapSource) -> IMAPClient:
    try:
        if where.secure:
            context = tls_context(where)
            return IMAPClient(where.host, where.port, ssl=True, ssl_context=context, timeout=TIMEOUT)
        return IMAPClient(where.host, where.port, ssl=False, timeout=TIMEOUT)
    except ssl.SSLCertVerificationError as exc:
        trusted = f"the certificates in {os.environ[CAFILE_ENV]}" if os.environ.get(CAFILE_ENV) else "the system's certificate authorities"
        raise FedError(Problem(None, None, f"{where}: the server's certificate is not trusted ({exc.verify_message}) by {trusted}; "
                               f"for a server with its own certificate, set {CAFILE_ENV} to that certificate (PEM)", RULE)) from None
    except ssl.SSLError as exc:
        raise FedError(Problem(None, None, f"{where}: TLS failed ({exc.reason or exc}); is {where.port} the server's imaps port?", RULE)) from None
    except (OSError, IMAPClientError) as exc:
        raise FedError(Problem(None, None, f"{where}: cannot reach {where.host}:{where.port}: {exc}", RULE)) from None


def _said(exc: Exception) -> str:
    return str(exc).strip().removeprefix("b'").removeprefix('b"').rstrip("'\"")


def imap_mails(source: str, limit: int) -> Iterator[ImapMail]:
    """Every unseen mail in the mailbox, oldest first, each cut to its first `limit` bytes. A
    mail is flagged \\Seen when the caller asks for the next one (or ends the loop), that is
    once the caller has handled and recorded it: a crash mid-way leaves the mail it was
    handling, and those after it, unseen, to be read again next time."""
    where = parse_source(source)
    password = os.environ.get(PASSWORD_ENV)
    if not password:
        raise FedError(Problem(None, None, f"set {PASSWORD_ENV} to the IMAP password for {where.user} at {where.host}", RULE))
    server = _connect(where)
    server.normalise_times = False  # INTERNALDATE with the server's zone, not naive local time
    try:
        try:
            server.login(where.user, password)
        except LoginError as exc:
            raise FedError(Problem(None, None, f"{where}: login failed for {where.user} ({_said(exc)}); check {PASSWORD_ENV}", RULE)) from None
        try:
            server.select_folder(where.mailbox)
        except IMAPClientError as exc:
            raise FedError(Problem(None, None, f"{where}: the server refused to open mailbox {where.mailbox!r}: {_said(exc)}", RULE)) from None
        for uid in sorted(server.search(["UNSEEN"])):
            found = server.fetch([uid], ["INTERNALDATE", "RFC822.SIZE", f"BODY.PEEK[]<0.{limit}>"]).get(uid)
            if found is None:
                continue  # expunged meanwhile by another client
            raw = next((v for k, v in found.items() if k.startswith(b"BODY[")), None) or b""
            size = found.get(b"RFC822.SIZE")
            arrived = found.get(b"INTERNALDATE")
            yield ImapMail(uid, raw, size if isinstance(size, int) else len(raw), arrived if isinstance(arrived, datetime.datetime) else None)
            server.add_flags([uid], [SEEN], silent=True)
    except (OSError, IMAPClientError) as exc:
        raise FedError(Problem(None, None, f"{where}: the connection failed: {_said(exc)}", RULE)) from None
    finally:
        try:
            server.logout()
        except (OSError, IMAPClientError):
            pass


__all__ = ["imap_mails", "is_imap", "parse_source", "tls_context", "PASSWORD_ENV", "CAFILE_ENV"]
