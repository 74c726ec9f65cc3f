"""`fedtool inbox imap://...`: imaplib's real client code against a small IMAP4rev1 server on
loopback (the standard library has no IMAP server). The server speaks only what imaplib and
fedtool send: CAPABILITY, LOGIN, SELECT, UID SEARCH, UID FETCH, UID STORE, LOGOUT."""

from __future__ import annotations

import re
import socketserver
import threading
from email.message import EmailMessage

import pytest
from hypothesis import given, strategies as st

from fedtool.kernel.errors import FedError
from fedtool.fed.settings import Fed
from fedtool.mail.imap import parse_source
from fedtool.mail.intake import intake

USER, PASSWORD = "fedhead@dcw.example", "s3cret pass"
_TOKEN = re.compile(rb'"((?:[^"\\]|\\.)*)"|(\S+)')


class Mailstore:
    """The server's one mailbox: uid -> [raw bytes, flags, INTERNALDATE]; and a log of commands."""

    def __init__(self):
        self.mails: dict[int, list] = {}
        self.commands: list[str] = []

    def add(self, raw: bytes, internaldate: str = "21-Nov-2026 09:00:00 +0000", seen: bool = False) -> int:
        uid = len(self.mails) + 1
        self.mails[uid] = [raw, {"\\Seen"} if seen else set(), internaldate]
        return uid


class ImapHandler(socketserver.StreamRequestHandler):
    store: Mailstore

    def send(self, line: bytes) -> None:
        self.wfile.write(line + b"\r\n")

    def handle(self):
        self.send(b"* OK [CAPABILITY IMAP4rev1] fedtool test IMAP ready")
        selected = False
        while True:
            line = self.rfile.readline()
            if not line:
                return
            tag, _, rest = line.rstrip(b"\r\n").partition(b" ")
            command, _, args = rest.partition(b" ")
            command = command.upper()
            self.store.commands.append(command.decode() + (" " + args.split(b" ")[0].decode().upper() if command == b"UID" else ""))
            words = [m.group(1).replace(b'\\"', b'"').replace(b"\\\\", b"\\") if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(args)]
            if command == b"CAPABILITY":
                self.send(b"* CAPABILITY IMAP4rev1")
                self.send(tag + b" OK CAPABILITY completed")
            elif command == b"LOGIN":
                if words == [USER.encode(), PASSWORD.encode()]:
                    self.send(tag + b" OK LOGIN completed")
                else:
                    self.send(tag + b" NO [AUTHENTICATIONFAILED] Invalid credentials")
            elif command == b"SELECT":
                if words[0] not in (b"INBOX", b"Strategies 2026"):
                    self.send(tag + b" NO [NONEXISTENT] no such mailbox")
                    continue
                selected = True
                self.send(b"* %d EXISTS" % len(self.store.mails))
                self.send(b"* FLAGS (\\Seen)")
                self.send(tag + b" OK [READ-WRITE] SELECT completed")
            elif command == b"UID" and selected:
                sub = words[0].upper()
                if sub == b"SEARCH" and words[1:] == [b"UNSEEN"]:
                    unseen = [str(u).encode() for u, (_, flags, _) in sorted(self.store.mails.items()) if "\\Seen" not in flags]
                    self.send(b"* SEARCH" + b"".join(b" " + u for u in unseen))
                elif sub == b"FETCH":
                    uid = int(words[1])
                    limit = int(re.search(rb"<0\.(\d+)>", args).group(1))
                    raw, flags, date = self.store.mails[uid]
                    body = raw[:limit]
                    self.wfile.write(b'* %d FETCH (UID %d INTERNALDATE "%s" RFC822.SIZE %d BODY[]<0> {%d}\r\n' % (uid, uid, date.encode(), len(raw), len(body)))
                    self.wfile.write(body + b")\r\n")
                elif sub == b"STORE" and words[2:4] == [b"+FLAGS", b"(\\Seen)"]:
                    for uid in words[1].split(b","):
                        self.store.mails[int(uid)][1].add("\\Seen")
                        self.send(b"* %d FETCH (UID %d FLAGS (\\Seen))" % (int(uid), int(uid)))
                else:
                    self.send(tag + b" BAD unknown UID command")
                    continue
                self.send(tag + b" OK UID completed")
            elif command == b"LOGOUT":
                self.send(b"* BYE logging out")
                self.send(tag + b" OK LOGOUT completed")
                return
            else:
                self.send(tag + b" BAD command unknown or not allowed now")


@pytest.fixture
def imap_server():
    store = Mailstore()
    handler = type("Handler", (ImapHandler,), {"store": store})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield store, server.server_address[1]
    server.shutdown()
    server.server_close()


def strategy_mail(sender, subject, body, message_id) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "strategies@dcw.example", subject, message_id
    m["Date"] = "Fri, 20 Nov 2026 12:00:00 +0000"
    m.set_content(body)
    return bytes(m)


def body_of(path) -> str:
    from email import message_from_bytes, policy

    return message_from_bytes(path.read_bytes(), policy=policy.default).get_content()


def source(port: int, mailbox: str = "INBOX") -> str:
    return f"imap://fedhead%40dcw.example@127.0.0.1:{port}/{mailbox}"


def test_unseen_mails_are_read_filed_answered_and_flagged_seen(demo_fed, imap_server, monkeypatch, fedtool):
    store, port = imap_server
    week = demo_fed / "strategies/week-01"
    good = (week / "brother-bob.yaml").read_text().replace("Closed fists", "IMAP fists")
    store.add(strategy_mail("Old <bob@players.example>", "Week 1 brother-bob", "old", "<old@x>"), seen=True)
    store.add(strategy_mail("Bob's Player <bob@players.example>", "Week 1 brother-bob", good, "<imap-good@x>"))
    store.add(strategy_mail("evil@attacker.example", "Week 1 friendly-sam", good, "<imap-spoof@x>"))
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    result = fedtool("inbox", source(port, "Strategies%202026"), "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "1 accepted, 1 refused, 0 ignored, 0 read before; 2 answers queued" in result.output
    assert "IMAP fists" in (week / "brother-bob.yaml").read_text()
    assert [sorted(flags) for _, flags, _ in store.mails.values()] == [["\\Seen"], ["\\Seen"], ["\\Seen"]]
    assert store.commands == ["CAPABILITY", "LOGIN", "SELECT", "UID SEARCH", "UID FETCH", "UID FETCH", "UID STORE", "LOGOUT"]
    # a mail flagged unseen again (say, by another client) is read once only: the Message-ID counts
    store.mails[2][1].clear()
    again = fedtool("inbox", source(port), "--fed", demo_fed)
    assert "0 accepted, 0 refused, 0 ignored, 1 read before; 0 answers queued" in again.output
    assert store.mails[2][1] == {"\\Seen"}


def test_the_servers_arrival_time_decides_lateness(demo_fed, imap_server, monkeypatch):
    store, port = imap_server
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-20T18:00:00Z\n"))
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    # the Date header says noon on the 20th; the server received it the next morning
    store.add(strategy_mail("bob@players.example", "Week 1 brother-bob", good, "<backdated@x>"), internaldate="21-Nov-2026 08:30:00 +0000")
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    report = intake(Fed.load(demo_fed), source(port))
    assert [(o.verdict, o.arrived) for o in report.outcomes] == [("refused", "2026-11-21T08:30:00+00:00")]
    assert "this mail arrived 2026-11-21T08:30:00+00:00" in body_of(report.replies[0])


def test_an_oversize_mail_is_fetched_only_up_to_the_limit_and_refused_with_its_size(demo_fed, imap_server, monkeypatch):
    store, port = imap_server
    raw = strategy_mail("bob@players.example", "Week 1 brother-bob", "x" * 1_500_000, "<huge@x>")
    store.add(raw)
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    report = intake(Fed.load(demo_fed), source(port))
    assert report.outcomes[0].verdict == "refused"
    assert f"The mail is {len(raw):,} bytes; the limit is 1,000,000." in body_of(report.replies[0])
    assert len(raw) == 1_539_206


def test_a_missing_password_or_a_failed_login_says_what_to_do(demo_fed, imap_server, monkeypatch, fedtool):
    store, port = imap_server
    monkeypatch.delenv("FEDTOOL_IMAP_PASSWORD", raising=False)
    result = fedtool("inbox", source(port), "--fed", demo_fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "set FEDTOOL_IMAP_PASSWORD to the IMAP password for fedhead@dcw.example at 127.0.0.1" in result.stderr
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", "wrong")
    result = fedtool("inbox", source(port), "--fed", demo_fed)
    assert result.exit_code == 1
    assert "login failed for fedhead@dcw.example" in result.stderr and "check FEDTOOL_IMAP_PASSWORD" in result.stderr
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    result = fedtool("inbox", source(port, "Nowhere"), "--fed", demo_fed)
    assert result.exit_code == 1 and "the server refused to open mailbox 'Nowhere': [NONEXISTENT] no such mailbox" in result.stderr


def test_an_unreachable_server_is_a_clear_error(demo_fed, fedtool, monkeypatch):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    result = fedtool("inbox", source(port), "--fed", demo_fed)
    assert result.exit_code == 1 and f"cannot reach 127.0.0.1:{port}" in result.stderr


@pytest.mark.parametrize("written, message", [
    ("imaps://mail.example/INBOX", "no user"),
    ("imaps://user:pw@mail.example/INBOX", "no password in the address: set FEDTOOL_IMAP_PASSWORD"),
    ("imaps://user@mail.example:99999/INBOX", "Port out of range"),
    ("imaps://user@/INBOX", "no host"),
])
def test_a_bad_imap_address_is_explained(written, message):
    with pytest.raises(FedError) as caught:
        parse_source(written)
    assert message in str(caught.value) and "write imaps://USER@HOST[:PORT]/MAILBOX" in str(caught.value)


def test_an_imap_address_reads_as_written():
    where = parse_source("imaps://fed%40dcw.example@mail.dcw.example/Strategies%20Week")
    assert (where.secure, where.user, where.host, where.port, where.mailbox) == (True, "fed@dcw.example", "mail.dcw.example", 993, "Strategies Week")
    assert parse_source("imap://u@h:1143").mailbox == "INBOX" and parse_source("imap://u@h:1143").port == 1143


@given(st.text(max_size=80))
def test_any_imap_address_is_read_or_refused_cleanly(tail):
    try:
        where = parse_source("imaps://" + tail)
    except FedError as exc:
        assert "write imaps://USER@HOST[:PORT]/MAILBOX" in str(exc)
    else:
        assert where.host and where.user and 1 <= where.port <= 65535
        assert not any(c in where.mailbox for c in "\r\n\0")
