"""Mail bombs (issue 12): a mail nested thousands of MIME parts deep, a strategy nested a
hundred thousand levels deep, a huge header. Each is refused with an answer, never a crash or
a signal, and the good mail after it is still read; nothing is answered twice."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import MAX_DEPTH, nesting_depth, parse_yaml
from fedtool.mail.intake import intake

import pytest


def nested_mime(levels: int) -> bytes:
    head = b"From: bob@players.example\r\nTo: strategies@dcw.example\r\nSubject: Week 1 brother-bob\r\nMessage-ID: <mime-bomb@x>\r\nMIME-Version: 1.0\r\n"
    body = b"Content-Type: text/plain\r\n\r\nhello\r\n"
    for i in range(levels):
        body = f"Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n".encode() + body + f"\r\n--b{i}--\r\n".encode()
    return head + body


def text_mail(subject: str, body: str, message_id: str) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = "bob@players.example", "strategies@dcw.example", subject, message_id
    m.set_content(body)
    return m


def test_bombs_are_refused_and_the_rest_is_read(demo_fed, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(nested_mime(5000))
    box.add(text_mail("Week 1 brother-bob", "plus: " + "[" * 200_000 + "]" * 200_000 + "\n", "<yaml-bomb@x>"))
    box.add(text_mail("Week 1 brother-bob " + "x" * 400_000, "hello", "<header-bomb@x>"))
    box.add(text_mail("Week 1 brother-bob", (demo_fed / "strategies/week-01/brother-bob.yaml").read_text(), "<good@x>"))
    report = intake(Fed.load(demo_fed), tmp_path / "Maildir")
    outcomes = {o.message_id: (o.verdict, o.why) for o in report.outcomes}
    assert outcomes["<mime-bomb@x>"] == ("refused", "The mail is nested more than 5 MIME parts deep; send the strategy as the body or one attachment.")
    assert outcomes["<yaml-bomb@x>"][0] == "refused" and f"broken YAML: nested more than {MAX_DEPTH:,} levels deep" in outcomes["<yaml-bomb@x>"][1]
    assert outcomes["<header-bomb@x>"][0] == "refused"  # read like any mail: its subject names week 1 and Bob; "hello" is no strategy
    assert outcomes["<header-bomb@x>"][1].startswith("The strategy for Brother Bob has problems:")
    assert outcomes["<good@x>"] == ("accepted", "Brother Bob, week 1")
    assert len(report.replies) == 4
    again = intake(Fed.load(demo_fed), tmp_path / "Maildir")
    assert [o.verdict for o in again.outcomes] == ["duplicate"] * 4 and again.replies == []
    assert not list((demo_fed / "strategies").rglob("~incoming~*"))


@pytest.mark.parametrize("text, depth", [
    ("a: [1, [2, [3]]]", 3),
    ("a: '[[[[[['\nb: \"{{{{\"", 0),
    ("- - - x\n- y", 3),
    ("? ? ? x", 3),  # explicit keys nest too (LibYAML's composer recursed 100,000 deep on these and died)
    ("- ? - ? x", 4),
    ("a: 1\n? b\n: - - c", 3),
    ("a: " + "{b: " * 1500 + "}" * 1500, 1500),
])
def test_nesting_depth_is_read_without_parsing(text, depth):
    assert nesting_depth(text) == depth


def test_a_yaml_file_nested_too_deep_is_a_clean_error():
    with pytest.raises(FedError, match=f"x.yaml: broken YAML: nested more than {MAX_DEPTH:,} levels deep"):
        parse_yaml("- " * 500_000 + "x", "x.yaml")


def test_a_mailbox_with_no_mail_where_mail_should_be_and_a_huge_mail(demo_fed, tmp_path):
    """A folder of .eml files holding a folder and a pipe named like mails (skipped: no mail,
    never a hang), and a 3 MB mail in a Maildir: read only up to the cap, its whole size
    known from the file, refused by its size."""
    import os

    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "a-folder.eml").mkdir()
    os.mkfifo(folder / "a-pipe.eml")
    (folder / "good.eml").write_bytes(bytes(text_mail("Week 1 brother-bob", (demo_fed / "strategies/week-01/brother-bob.yaml").read_text(), "<good@x>")))
    report = intake(Fed.load(demo_fed), folder)
    assert [(o.message_id, o.verdict) for o in report.outcomes] == [("<good@x>", "accepted")]
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(text_mail("Week 1 brother-bob", "x" * 3_000_000, "<huge@x>"))
    report = intake(Fed.load(demo_fed), tmp_path / "Maildir")
    (outcome,) = report.outcomes
    size = next((tmp_path / "Maildir/new").iterdir()).stat().st_size
    assert size > 3_000_000 and (outcome.verdict, outcome.why) == ("refused", f"The mail is {size:,} bytes; the limit is 1,000,000.")
