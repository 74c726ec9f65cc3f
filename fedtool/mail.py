"""Delivering the outbox by SMTP: every .eml fedtool wrote, once.

Each mail sent is recorded in the league (`sent_mail`, by its Message-ID), so running
`fedtool send` again sends nothing twice; a mail the server refuses stays queued and is
reported. The password comes from the environment (FEDTOOL_SMTP_PASSWORD), never a file.
"""

from __future__ import annotations

import datetime
import os
import smtplib
import ssl
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

from .errors import FedError, Problem
from .fed import Fed, week_name
from .league import open_league

PASSWORD_ENV = "FEDTOOL_SMTP_PASSWORD"


@dataclass
class SendReport:
    sent: list[str] = field(default_factory=list)  # "file: to"
    already: int = 0
    failed: list[str] = field(default_factory=list)  # "file: why"
    dry_run: bool = False


def queued(fed: Fed, week: int | None) -> list[Path]:
    """Every mail in the outbox (results and announcements), for one week or all."""
    folders = [fed.outbox_week(week)] if week is not None else sorted(p for p in fed.outbox.glob("week-*") if p.is_dir())
    return sorted(p for folder in folders for p in folder.rglob("mail/*.eml"))


def send_outbox(fed: Fed, week: int | None = None, dry_run: bool = False, smtp_factory=None) -> SendReport:
    """Send every mail not yet sent; a refused mail stays queued. `smtp_factory(host, port)`
    makes the connection (tests pass their own)."""
    settings = fed.settings.mail
    if settings.smtp is None:
        raise FedError(Problem("rosters/fed.yaml", "field mail.smtp", "no SMTP server set: give host, port, security (starttls, ssl or none) and user", "fedtool send"))
    if week is not None and not fed.outbox_week(week).exists():
        raise FedError(Problem(fed.shown(fed.outbox_week(week)), None, f"nothing to send: {week_name(week)} has no outbox", "fedtool send"))
    db = open_league(fed.database, create=not dry_run)
    done = {row["message_id"] for row in db["sent_mail"].rows} if db["sent_mail"].exists() else set()
    report = SendReport(dry_run=dry_run)
    mails = []
    for path in queued(fed, week):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        if message["Message-ID"] in done:
            report.already += 1
            continue
        mails.append((path, message))
    if dry_run or not mails:
        report.sent = [f"{fed.shown(p)}: {m['To']}" for p, m in mails] if dry_run else []
        return report
    smtp = settings.smtp
    factory = smtp_factory or (smtplib.SMTP_SSL if smtp.security == "ssl" else smtplib.SMTP)
    try:
        if smtp.security == "ssl" and smtp_factory is None:
            server = factory(smtp.host, smtp.port, context=ssl.create_default_context(), timeout=30)
        else:
            server = factory(smtp.host, smtp.port, timeout=30)
    except OSError as exc:
        raise FedError(Problem("rosters/fed.yaml", "field mail.smtp", f"cannot reach {smtp.host}:{smtp.port}: {exc}", "fedtool send")) from None
    with server:
        if smtp.security == "starttls":
            server.starttls(context=ssl.create_default_context())
        if smtp.user:
            password = os.environ.get(PASSWORD_ENV)
            if not password:
                raise FedError(Problem(None, None, f"set {PASSWORD_ENV} to the SMTP password for {smtp.user}", "fedtool send"))
            server.login(smtp.user, password)
        for path, message in mails:
            try:
                refused = server.send_message(message)
            except smtplib.SMTPException as exc:
                report.failed.append(f"{fed.shown(path)}: {exc}")
                continue
            if refused:
                report.failed.append(f"{fed.shown(path)}: refused for {', '.join(refused)}")
                continue
            db["sent_mail"].insert(
                {"message_id": message["Message-ID"], "file": fed.shown(path), "to": message["To"],
                 "sent_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")},
                pk="message_id",
            )
            report.sent.append(f"{fed.shown(path)}: {message['To']}")
    return report
