"""`fedtool send` against a real SMTP server (aiosmtpd) on loopback."""

from __future__ import annotations

import email
import socket
from email import policy

import pytest
from aiosmtpd.controller import Controller


class Inbox:
    """An SMTP server's handler that keeps every mail and can refuse chosen recipients."""

    def __init__(self):
        self.mails = []
        self.raw = []  # (envelope sender, recipients, the bytes as they came over the wire)
        self.refuse = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        self.mails.append((list(envelope.rcpt_tos), message))
        self.raw.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


@pytest.fixture
def smtp_server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


def with_smtp(fed, port):
    settings = fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(
        "  reply_to: strategies@dcw.example\n",
        f"  reply_to: strategies@dcw.example\n  smtp: {{host: 127.0.0.1, port: {port}, security: none}}\n"))


def test_every_player_gets_their_mail_once(demo_fed, fedtool, smtp_server):
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    dry = fedtool("send", "1", "--dry-run", "--fed", demo_fed)
    assert dry.exit_code == 0 and "11 to send" in dry.output and inbox.mails == []
    result = fedtool("send", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "11 sent, 0 sent before, 0 kept for next time" in result.output
    received = {tuple(rcpt): message for rcpt, message in inbox.mails}
    assert len(inbox.mails) == 11 and len(received) == 11  # ten players and the list, once each
    bob = received[("bob@players.example",)]
    assert bob["Subject"] == "Delta Championship Wrestling: Week 1: Opening Night results"
    assert "Friendly Sam def. Brother Bob" in bob.get_body(("plain",)).get_content()
    assert "Rocky Ridge" not in bob.get_body(("plain",)).get_content()  # only his own match
    again = fedtool("send", "1", "--fed", demo_fed)
    assert "0 sent, 11 sent before" in again.output and len(inbox.mails) == 11


def test_a_refused_mail_stays_queued_and_goes_next_time(demo_fed, fedtool, smtp_server):
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    inbox.refuse.add("sam@players.example")
    result = fedtool("send", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "10 sent, 0 sent before, 1 kept for next time" in result.output
    assert "outbox/week-01/mail/sam-players-example.eml" in result.stderr
    inbox.refuse.clear()
    retry = fedtool("send", "1", "--fed", demo_fed)
    assert retry.exit_code == 0 and "1 sent, 10 sent before" in retry.output
    assert [rcpt for rcpt, _ in inbox.mails].count(["sam@players.example"]) == 1


def test_send_without_a_server_says_what_to_set(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    result = fedtool("send", "1", "--fed", demo_fed)
    assert result.exit_code == 1 and "rosters/fed.yaml, field mail.smtp: no SMTP server set" in result.stderr


def test_each_mail_goes_as_written_with_smtp_line_ends(demo_fed, fedtool, smtp_server):
    """The outbox's bytes are what the server gets (no second rendering), every line ended
    CR LF as SMTP requires (RFC 5321 2.3.8: a bare LF is refused by servers that guard
    against smuggling), and the envelope is the mail's own From and To."""
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("send", "1", "--fed", demo_fed).exit_code == 0
    written = {p.name: p.read_bytes() for p in (demo_fed / "outbox/week-01/mail").glob("*.eml")}
    assert len(inbox.raw) == len(written) == 11
    for sender, recipients, raw in inbox.raw:
        assert sender == "fedhead@dcw.example"
        assert raw.count(b"\n") == raw.count(b"\r\n") > 20  # no bare LF anywhere
        file = "-".join(recipients[0].replace("@", "-").split(".")) + ".eml"
        original = written[file] if file in written else next(v for v in written.values() if recipients[0].encode() in v.split(b"\n\n")[0])
        assert raw.replace(b"\r\n", b"\n").rstrip(b"\n") == original.rstrip(b"\n")
