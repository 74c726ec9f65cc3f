"""`fedtool inbox imaps://...` against a real IMAP server: Debian's Dovecot on loopback, TLS on
a self-signed certificate (tests/dovecot.py), filled by IMAP APPEND through IMAPClient.

Without /usr/sbin/dovecot the server tests skip, unless FEDTOOL_IMAP_REQUIRED=1 (set by
.ci/run), when they fail. The address tests need no server."""

from __future__ import annotations

import datetime
import os
import socket
from email.message import EmailMessage

import pytest
from hypothesis import given, strategies as st
from imapclient import SEEN

import dovecot as dc
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.mail.imap import imap_mails, parse_source
from fedtool.mail.intake import intake

PASSWORD = dc.PASSWORD
MAILBOX = "Strategies 2026"


@pytest.fixture(scope="session")
def dovecot_server():
    why = dc.missing()
    if why:
        if os.environ.get("FEDTOOL_IMAP_REQUIRED") == "1":
            pytest.fail(f"FEDTOOL_IMAP_REQUIRED=1 but {why}")
        pytest.skip(why)
    server = dc.Dovecot()
    print(f"\ndovecot up on 127.0.0.1:{server.imaps_port} (imaps) and :{server.imap_port} (imap) in {server.start_seconds:.2f} s")
    with server.client() as client:
        client.create_folder(MAILBOX)
    yield server
    server.stop()


@pytest.fixture
def server(dovecot_server, monkeypatch):
    """The Dovecot with both mailboxes emptied, its certificate trusted, the password set."""
    with dovecot_server.client() as client:
        for box in ("INBOX", MAILBOX):
            client.select_folder(box)
            client.delete_messages(client.search(["ALL"]))
            client.expunge()
    monkeypatch.setenv("FEDTOOL_IMAP_CAFILE", str(dovecot_server.cafile))
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    return dovecot_server


def put(server, raw: bytes, mailbox: str = "INBOX", arrived: datetime.datetime | None = None, seen: bool = False) -> None:
    """APPEND one mail; `arrived` becomes its INTERNALDATE."""
    with server.client() as client:
        client.append(mailbox, raw, flags=[SEEN] if seen else [], msg_time=arrived)


def flags(server, mailbox: str = "INBOX") -> dict[str, list[bytes]]:
    """Message-ID -> the mail's flags, as the server keeps them (but \\Recent, which is per session)."""
    with server.client() as client:
        client.select_folder(mailbox, readonly=True)
        found = client.fetch(client.search(["ALL"]), ["FLAGS", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
    return {v[b"BODY[HEADER.FIELDS (MESSAGE-ID)]"].decode().split(":", 1)[1].strip(): sorted(set(v[b"FLAGS"]) - {b"\\Recent"}) for v in found.values()}


def strategy_mail(sender, subject, body, message_id) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "strategies@dcw.example", subject, message_id
    m["Date"] = "Fri, 20 Nov 2026 12:00:00 +0000"
    m.set_content(body)
    return bytes(m)


def body_of(path) -> str:
    from email import message_from_bytes, policy

    return message_from_bytes(path.read_bytes(), policy=policy.default).get_content()


def clean_failure(result, *expected: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # fedtool's own exit, not an exception escaping
    for text in expected:
        assert text in result.stderr, result.stderr
    assert "fedtool inbox: IMAP" in result.stderr


def test_unseen_mails_are_read_filed_answered_and_flagged_seen_over_tls(demo_fed, server, fedtool):
    week = demo_fed / "strategies/week-01"
    good = (week / "brother-bob.yaml").read_text().replace("Closed fists", "IMAP fists")
    put(server, strategy_mail("Old <bob@players.example>", "Week 1 brother-bob", "old", "<old@x>"), MAILBOX, seen=True)
    put(server, strategy_mail("Bob's Player <bob@players.example>", "Week 1 brother-bob", good, "<imap-good@x>"), MAILBOX)
    put(server, strategy_mail("evil@attacker.example", "Week 1 friendly-sam", good, "<imap-spoof@x>"), MAILBOX)
    assert flags(server, MAILBOX) == {"<old@x>": [b"\\Seen"], "<imap-good@x>": [], "<imap-spoof@x>": []}
    result = fedtool("inbox", server.source(MAILBOX), "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "1 accepted, 1 refused, 0 ignored, 0 read before; 2 answers queued" in result.output
    assert "IMAP fists" in (week / "brother-bob.yaml").read_text()
    answers = sorted((demo_fed / "outbox/replies/week-01/mail").glob("*.eml"))
    assert len(answers) == 2
    assert sorted(body_of(a).splitlines()[0] for a in answers) == ["Accepted: the strategy for Brother Bob, week 1 (m1: brother-bob vs. friendly-sam).", "Your mail was not accepted."]
    assert flags(server, MAILBOX) == {"<old@x>": [b"\\Seen"], "<imap-good@x>": [b"\\Seen"], "<imap-spoof@x>": [b"\\Seen"]}
    # a second intake finds nothing new
    again = fedtool("inbox", server.source(MAILBOX), "--fed", demo_fed)
    assert again.exit_code == 0 and again.output.splitlines() == ["0 accepted, 0 refused, 0 ignored, 0 read before; 0 answers queued"]
    # a mail flagged unseen again (say, by another client) is read once only: the Message-ID counts
    with server.client() as client:
        client.select_folder(MAILBOX)
        client.remove_flags(client.search(["HEADER", "Message-ID", "<imap-good@x>"]), [SEEN])
    again = fedtool("inbox", server.source(MAILBOX), "--fed", demo_fed)
    assert "0 accepted, 0 refused, 0 ignored, 1 read before; 0 answers queued" in again.output
    assert flags(server, MAILBOX)["<imap-good@x>"] == [b"\\Seen"]


def test_plain_imap_on_loopback_works_too(demo_fed, server, fedtool, monkeypatch):
    monkeypatch.delenv("FEDTOOL_IMAP_CAFILE")  # no TLS: no certificate involved
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text().replace("Closed fists", "Plain fists")
    put(server, strategy_mail("bob@players.example", "Week 1 brother-bob", good, "<plain@x>"))
    result = fedtool("inbox", server.source(secure=False), "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "1 accepted, 0 refused, 0 ignored, 0 read before; 1 answer queued" in result.output
    assert "Plain fists" in (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    assert flags(server) == {"<plain@x>": [b"\\Seen"]}


def test_the_servers_arrival_time_decides_lateness(demo_fed, server):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-20T18:00:00Z\n"))
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    # the Date header says noon on the 20th; the server received it the next morning (09:30 in Paris)
    paris = datetime.timezone(datetime.timedelta(hours=1))
    put(server, strategy_mail("bob@players.example", "Week 1 brother-bob", good, "<backdated@x>"), arrived=datetime.datetime(2026, 11, 21, 9, 30, tzinfo=paris))
    report = intake(Fed.load(demo_fed), server.source())
    assert [(o.verdict, o.arrived) for o in report.outcomes] == [("refused", "2026-11-21T08:30:00+00:00")]
    assert "this mail arrived 2026-11-21T08:30:00+00:00" in body_of(report.replies[0])


def test_an_oversize_mail_is_fetched_only_up_to_the_limit_and_refused_with_its_size(server):
    raw = strategy_mail("bob@players.example", "Week 1 brother-bob", "x" * 1_500_000, "<huge@x>")
    put(server, raw)
    [mail] = list(imap_mails(server.source(), 1_000_001))
    wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")  # as the server keeps it
    assert (mail.size, len(mail.raw)) == (len(wire), 1_000_001) and mail.raw == wire[:1_000_001]
    assert len(raw) == 1_539_206


def test_an_oversize_mail_is_refused_with_its_size(demo_fed, server):
    raw = strategy_mail("bob@players.example", "Week 1 brother-bob", "x" * 1_500_000, "<huge@x>")
    put(server, raw)
    report = intake(Fed.load(demo_fed), server.source())
    assert report.outcomes[0].verdict == "refused"
    size = len(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert f"The mail is {size:,} bytes; the limit is 1,000,000." in body_of(report.replies[0])


def test_mails_are_fetched_without_marking_them_and_flagged_only_once_handled(server):
    for n in (1, 2):
        put(server, strategy_mail("bob@players.example", f"Week 1 mail {n}", "x", f"<m{n}@x>"))
    mails = imap_mails(server.source(), 1000)
    first = next(mails)
    assert b"Message-ID: <m1@x>" in first.raw
    assert flags(server) == {"<m1@x>": [], "<m2@x>": []}  # fetched with BODY.PEEK: still unseen
    mails.close()  # the caller stopped while handling the first mail (a crash): it stays unseen
    assert flags(server) == {"<m1@x>": [], "<m2@x>": []}
    mails = imap_mails(server.source(), 1000)
    assert b"Message-ID: <m1@x>" in next(mails).raw
    assert b"Message-ID: <m2@x>" in next(mails).raw  # asking for the next: the first was handled
    assert flags(server) == {"<m1@x>": [b"\\Seen"], "<m2@x>": []}
    assert list(mails) == []
    assert flags(server) == {"<m1@x>": [b"\\Seen"], "<m2@x>": [b"\\Seen"]}


class PowerCut(BaseException):
    """Not an Exception: what a mail's own failure would be (that is quarantined), but the process dying."""


def test_a_crash_mid_intake_leaves_only_recorded_mails_flagged_seen(demo_fed, server, monkeypatch):
    import fedtool.mail.intake as intake_module
    from fedtool.league.db import open_league

    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    for n in (1, 2, 3):
        put(server, strategy_mail("bob@players.example", "Week 1 brother-bob", good, f"<c{n}@x>"))
    judged, judge = [], intake_module._judge

    def judge_then_crash(fed, message, *args):
        judged.append(message["Message-ID"])
        if len(judged) == 2:
            raise PowerCut("power cut")
        return judge(fed, message, *args)

    monkeypatch.setattr(intake_module, "_judge", judge_then_crash)
    with pytest.raises(PowerCut, match="power cut"):
        intake(Fed.load(demo_fed), server.source())
    recorded = open_league(Fed.load(demo_fed).database).execute("SELECT message_id, verdict FROM inbox_seen").fetchall()
    # the mail being read when the power went is marked so: the next intake judges it once more
    assert (judged, recorded) == (["<c1@x>", "<c2@x>"], [("<c1@x>", "accepted"), ("<c2@x>", "reading")])
    assert flags(server) == {"<c1@x>": [b"\\Seen"], "<c2@x>": [], "<c3@x>": []}
    monkeypatch.setattr(intake_module, "_judge", judge)
    report = intake(Fed.load(demo_fed), server.source())
    assert [(o.message_id, o.verdict) for o in report.outcomes] == [("<c2@x>", "accepted"), ("<c3@x>", "accepted")]
    assert flags(server) == {"<c1@x>": [b"\\Seen"], "<c2@x>": [b"\\Seen"], "<c3@x>": [b"\\Seen"]}


def test_a_missing_password_a_failed_login_or_a_missing_mailbox_says_what_to_do(demo_fed, server, monkeypatch, fedtool):
    monkeypatch.delenv("FEDTOOL_IMAP_PASSWORD")
    result = fedtool("inbox", server.source(), "--fed", demo_fed)
    clean_failure(result, "set FEDTOOL_IMAP_PASSWORD to the IMAP password for fedhead@dcw.example at 127.0.0.1")
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", "wrong")
    result = fedtool("inbox", server.source(), "--fed", demo_fed)
    clean_failure(result, f"{server.source().replace('%40', '@')}: login failed for fedhead@dcw.example ([AUTHENTICATIONFAILED] Authentication failed.); check FEDTOOL_IMAP_PASSWORD")
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    result = fedtool("inbox", server.source("Nowhere"), "--fed", demo_fed)
    clean_failure(result, "the server refused to open mailbox 'Nowhere': select failed: Mailbox doesn't exist: Nowhere")


def test_an_untrusted_certificate_is_refused_never_skipped(demo_fed, server, monkeypatch, fedtool):
    put(server, strategy_mail("bob@players.example", "Week 1 brother-bob", "x", "<untouched@x>"))
    address = server.source().replace("%40", "@")
    monkeypatch.delenv("FEDTOOL_IMAP_CAFILE")  # the system's CAs never signed the test server's certificate
    clean_failure(fedtool("inbox", server.source(), "--fed", demo_fed),
                  f"{address}: the server's certificate is not trusted (self-signed certificate) by the system's certificate authorities; "
                  "for a server with its own certificate, set FEDTOOL_IMAP_CAFILE to that certificate (PEM)")
    monkeypatch.setenv("FEDTOOL_IMAP_CAFILE", str(server.other_cert))  # another self-signed certificate
    clean_failure(fedtool("inbox", server.source(), "--fed", demo_fed),
                  f"{address}: the server's certificate is not trusted (self-signed certificate) by the certificates in {server.other_cert}")
    monkeypatch.setenv("FEDTOOL_IMAP_CAFILE", str(server.folder / "nothing.pem"))
    clean_failure(fedtool("inbox", server.source(), "--fed", demo_fed),
                  f"{server.folder / 'nothing.pem'}: FEDTOOL_IMAP_CAFILE names no readable PEM certificate file (No such file or directory); "
                  "set it to the certificate 127.0.0.1 presents (self-signed) or to its CA's")
    # TLS spoken to the plain port fails cleanly too
    monkeypatch.setenv("FEDTOOL_IMAP_CAFILE", str(server.cafile))
    clean_failure(fedtool("inbox", f"imaps://u@127.0.0.1:{server.imap_port}/INBOX", "--fed", demo_fed),
                  f"imaps://u@127.0.0.1:{server.imap_port}/INBOX: TLS failed")
    assert flags(server) == {"<untouched@x>": []}
    assert not (demo_fed / "outbox/replies").exists()


def test_an_unreachable_server_is_a_clear_error(demo_fed, fedtool, monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.setenv("FEDTOOL_IMAP_PASSWORD", PASSWORD)
    result = fedtool("inbox", f"imaps://u@127.0.0.1:{port}/INBOX", "--fed", demo_fed)
    clean_failure(result, f"imaps://u@127.0.0.1:{port}/INBOX: cannot reach 127.0.0.1:{port}: [Errno 111] Connection refused")


@pytest.mark.parametrize("written, message", [
    ("imaps://mail.example/INBOX", "no user"),
    ("imaps://user:pw@mail.example/INBOX", "no password in the address: set FEDTOOL_IMAP_PASSWORD"),
    ("imaps://user@mail.example:99999/INBOX", "Port out of range"),
    ("imaps://user@/INBOX", "no host"),
    ("imaps://user@mail.example/INBOX?cafile=/etc/ca.pem", "no ? or # parts (a certificate to trust goes in FEDTOOL_IMAP_CAFILE)"),
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
