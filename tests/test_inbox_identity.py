"""Mail identity and closed weeks (issue 13, items 2 and 4 of "What to build"): each case the
issue's "Why" lists for mail gets its exact refusal. A From: with two addresses, the comment
trick, an obsolete route or a group is "not one clear sender", recorded and never answered;
mail from the fed's own list, reply-to and from addresses, or from the do-not-answer list,
is never answered; a subject that decodes to a line break and a Bcc: is refused and never
reaches a header fedtool writes; a strategy for a week already run is refused and the
strategy the run used stays as it was."""

from __future__ import annotations

import datetime
import mailbox
import sqlite3
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fedtool.fed.settings import Fed, MailSettings
from fedtool.kernel.errors import FedError
from fedtool.kernel.validation import validate
from fedtool.mail.intake import UNCLEAR, address_key, intake, mail_sender


def raw_mail(sender: str, subject: str, body: str, message_id: str, extra: str = "") -> bytes:
    """A mail as a mail server would hand it over, headers written exactly as given."""
    return (f"From: {sender}\r\nTo: strategies@dcw.example\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
            f"Date: Fri, 20 Nov 2026 12:00:00 +0000\r\n{extra}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def read(fed_dir: Path, tmp_path: Path, mails: list[bytes]):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for m in mails:
        box.add(m)
    return intake(Fed.load(fed_dir), tmp_path / "Maildir")


def seen(fed_dir: Path) -> list[tuple]:
    return sqlite3.connect(fed_dir / "fed.db").execute("SELECT message_id, sender, verdict, why, week, wrestler_id FROM inbox_seen ORDER BY rowid").fetchall()


def answer(path: Path):
    return message_from_bytes(path.read_bytes(), policy=policy.default)


@pytest.fixture
def bob(demo_fed):
    """Bob's week 1 strategy as filed, and a changed one an attacker would like filed instead."""
    path = demo_fed / "strategies/week-01/brother-bob.yaml"
    return path, path.read_bytes(), path.read_text().replace("Closed fists", "Forged fists")


# Why: "a From: with two addresses (the owner's first, an attacker's second) is accepted; an
# address with a comment trick (<owner@players.example>@evil.example) is read as the owner"
FORGED = [
    ("bob@players.example, evil@evil.example", "the From: header holds 2 addresses"),
    ("Bob <bob@players.example>, Evil <evil@evil.example>", "the From: header holds 2 addresses"),
    ("<bob@players.example>@evil.example", "the From: header is malformed: invalid address in address-list"),
    ("bob@players.example <evil@evil.example>", "the From: header is malformed: invalid address in address-list"),
    ("<@evil.example:bob@players.example>", "the From: header is malformed: obsolete route specification in angle-addr"),
    ("players: bob@players.example;", "the From: header is a group"),
    ("undisclosed-recipients:;", "the From: header is a group"),
    ("=?utf-8?q?bob=40players.example?=", "the From: header is malformed: addr-spec local part with no domain"),
    ("bob@[192.0.2.1]", "the From: header holds no complete address"),
]


@pytest.mark.parametrize("written, detail", FORGED)
def test_a_from_that_is_not_one_clear_sender_is_refused_unanswered(demo_fed, tmp_path, bob, written, detail):
    path, before, forged = bob
    report = read(demo_fed, tmp_path, [raw_mail(written, "Week 1 brother-bob", forged, "<forged@x>")])
    why = f"Not one clear sender ({detail}); not answered: an answer could reach someone who did not write it."
    assert [(o.verdict, o.why) for o in report.outcomes] == [("refused", why)]
    assert report.replies == [] and not (demo_fed / "outbox/replies").exists()  # no backscatter
    assert path.read_bytes() == before  # nothing filed
    # recorded against the wrestler the subject names, so `fedtool status 1` shows the attempt
    assert seen(demo_fed) == [("<forged@x>", written, "refused", why, 1, "brother-bob")]


def test_two_from_headers_are_not_one_clear_sender(demo_fed, tmp_path, bob):
    path, before, forged = bob
    mail = raw_mail("bob@players.example", "Week 1 brother-bob", forged, "<two@x>", extra="From: evil@evil.example\r\n")
    report = read(demo_fed, tmp_path, [mail])
    assert [(o.verdict, o.why) for o in report.outcomes] == [("refused", UNCLEAR.format("2 From: headers"))]
    assert report.replies == [] and path.read_bytes() == before


def test_the_forged_mail_shows_in_status_under_its_wrestler(demo_fed, tmp_path, fedtool, bob):
    read(demo_fed, tmp_path, [raw_mail("bob@players.example, evil@evil.example", "Week 1 brother-bob", bob[2], "<forged@x>")])
    result = fedtool("status", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "refused: Not one clear sender (the From: header holds 2 addresses); not answered" in result.output


@pytest.mark.parametrize("written", [
    "bob@players.example",
    "Bob's Player <bob@players.example>",
    "\"Player, Bob\" <bob@players.example>",
    "bob@players.example (Bob's Player)",
    "=?utf-8?q?B=C3=B6b?= <bob@players.example>",
    "Böb <bob@players.example>",  # raw UTF-8 (RFC 6532)
    "Bob <Bob@Players.EXAMPLE>",  # case: the providers players use do not tell them apart
])
def test_the_owners_address_however_written_is_the_owner(demo_fed, tmp_path, bob, written):
    path, _, forged = bob
    report = read(demo_fed, tmp_path, [raw_mail(written, "Week 1 brother-bob", forged, "<own@x>")])
    assert [(o.verdict, o.why) for o in report.outcomes] == [("accepted", "Brother Bob, week 1")]
    assert path.read_text() == forged
    expected = "Bob@Players.EXAMPLE" if "EXAMPLE" in written else "bob@players.example"  # the address as written; never its display name
    assert answer(report.replies[0])["To"] == expected


# Why: "mail from the fed's own list or reply-to address is answered (a loop to the whole list, or to ourselves)"
@pytest.mark.parametrize("written, why", [
    ("DCW card list <card-list@dcw.example>", "the fed's own address (list_address)"),
    ("strategies@dcw.example", "the fed's own address (reply_to)"),
    ("Strategies@DCW.example", "the fed's own address (reply_to)"),
    ("fedhead@dcw.example", "fedtool's own mail"),
])
def test_mail_from_the_feds_own_addresses_is_never_answered(demo_fed, tmp_path, written, why):
    report = read(demo_fed, tmp_path, [raw_mail(written, "Week 1 brother-bob", "hello", "<loop@x>")])
    assert [(o.verdict, o.why) for o in report.outcomes] == [("ignored", why)]
    assert report.replies == []


def test_the_do_not_answer_list_takes_addresses_and_whole_domains(demo_fed, tmp_path):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  reply_to: strategies@dcw.example\n",
                                                     "  reply_to: strategies@dcw.example\n  do_not_answer: [Abuse@ISP.example, '@lists.example']\n"))
    report = read(demo_fed, tmp_path, [
        raw_mail("abuse@isp.example", "help", "", "<a@x>"),
        raw_mail("Someone <anyone@Lists.Example>", "help", "", "<b@x>"),
        raw_mail("someone@sub.lists.example", "help", "", "<c@x>"),  # a domain entry is that domain only
    ])
    assert [(o.verdict, o.why) for o in report.outcomes] == [
        ("ignored", "on the fed's do-not-answer list (abuse@isp.example)"),
        ("ignored", "on the fed's do-not-answer list (@lists.example)"),
        ("command", "help"),
    ]
    assert [answer(p)["To"] for p in report.replies] == ["someone@sub.lists.example"]


@pytest.mark.parametrize("entry, message", [
    ("@", "There must be something after the @-sign."),
    ("lists.example", "There must be something before the @-sign."),
    ("@bad_domain.example", "'bad_domain.example' is not a domain name"),
])
def test_a_bad_do_not_answer_entry_is_named(entry, message):
    with pytest.raises(FedError) as caught:
        validate(MailSettings, {"do_not_answer": ["@ok.example", entry]}, "rosters/fed.yaml", "fed settings")
    assert str(caught.value) == (f"rosters/fed.yaml, field do_not_answer.1: {entry!r}: give an address (abuse@isp.example) or a domain "
                                 f"written @lists.example (not an e-mail address: {message}) [fed settings]")


def test_do_not_answer_entries_are_kept_lowercase():
    assert validate(MailSettings, {"do_not_answer": ["@Lists.Example", "Abuse@ISP.example"]}, "f", "r").do_not_answer == ["@lists.example", "abuse@isp.example"]


# Why: "A header with CR LF (an encoded Subject that decodes to a line break and a Bcc:) breaks intake"
def test_a_subject_that_decodes_to_a_line_break_is_refused_and_never_reaches_a_header(demo_fed, tmp_path, bob):
    path, before, forged = bob
    subject = "=?utf-8?q?Week_1_brother-bob=0D=0ABcc:_victim@elsewhere.example?="
    report = read(demo_fed, tmp_path, [raw_mail("bob@players.example", subject, forged, "<crlf@x>"),
                                       raw_mail("bob@players.example", "Week 1 brother-bob", forged, "<after@x>")])
    why = "The subject holds a line break once decoded; write it on one line, for example: Week 2 brother-bob."
    assert [(o.verdict, o.why) for o in report.outcomes] == [("refused", why), ("accepted", "Brother Bob, week 1")]
    reply = answer(report.replies[0])
    assert reply["Subject"] == "Re: Week 1 brother-bob Bcc: victim@elsewhere.example"  # one line
    assert reply["Bcc"] is None and reply["To"] == "bob@players.example"
    assert b"\r\nBcc:" not in report.replies[0].read_bytes() and b"\nBcc:" not in report.replies[0].read_bytes()
    assert reply.get_content().startswith(f"Your mail was not accepted.\n\n{why}\n")
    assert path.read_text() == forged  # the good mail after it was read as usual


def test_a_display_name_that_decodes_to_a_line_break_is_not_one_clear_sender(demo_fed, tmp_path, bob):
    """The email package refuses to build an address whose parts hold CR or LF: such a From:
    cannot be read, so it is not one clear sender either, and nothing is answered."""
    path, before, forged = bob
    report = read(demo_fed, tmp_path, [raw_mail("=?utf-8?q?Bob=0D=0ABcc:_victim@elsewhere.example?= <bob@players.example>", "Week 1 brother-bob",
                                                forged, "<name@x>")])
    assert [(o.verdict, o.why) for o in report.outcomes] == [("refused", UNCLEAR.format("the From: header cannot be read"))]
    assert report.replies == [] and path.read_bytes() == before


def test_the_answer_goes_to_from_never_to_reply_to_and_sender_is_ignored(demo_fed, tmp_path, bob):
    path, _, forged = bob
    report = read(demo_fed, tmp_path, [
        raw_mail("evil@evil.example", "Week 1 brother-bob", forged, "<r1@x>", extra="Reply-To: bob@players.example\r\nSender: bob@players.example\r\n"),
        raw_mail("bob@players.example", "Week 1 brother-bob", forged, "<r2@x>", extra="Reply-To: evil@evil.example\r\nSender: list@lists.example\r\n"),
    ])
    assert [o.verdict for o in report.outcomes] == ["refused", "accepted"]
    assert report.outcomes[0].why.startswith("evil@evil.example is not the registered owner of Brother Bob")
    assert [answer(p)["To"] for p in report.replies] == ["evil@evil.example", "bob@players.example"]


def test_a_message_id_that_is_not_one_clean_id_is_not_echoed(demo_fed, tmp_path):
    report = read(demo_fed, tmp_path, [raw_mail("bob@players.example", "help", "", "<a b>@x <c@d>")])
    reply = answer(report.replies[0])
    assert reply["In-Reply-To"] is None and reply["References"] is None and report.outcomes[0].verdict == "command"


# Why: "a strategy mailed for a week already run is accepted and filed over the strategy the run used"
def test_a_strategy_for_a_week_already_run_is_refused_and_nothing_is_filed(demo_fed, tmp_path, fedtool, bob, monkeypatch):
    path, before, forged = bob
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime.datetime(2026, 11, 27, 18, tzinfo=datetime.timezone.utc).timestamp())))
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    report = read(demo_fed, tmp_path, [raw_mail("bob@players.example", "Week 1 brother-bob", forged, "<late@x>"),
                                       raw_mail("bob@players.example", "Week 1 nobody-at-all", forged, "<nobody@x>")])
    why = ("Week 1 has already been run (its results are dated Friday 27 November 2026, 18:00 UTC): a strategy for it can no longer be filed, "
           "and the strategy the run used stands. The fedhead can replace a file by hand and run the week again (fedtool run 1 --rerun).")
    assert [(o.verdict, o.why, o.wrestler_id) for o in report.outcomes] == [("refused", why, "brother-bob"), ("refused", why, None)]
    assert path.read_bytes() == before and not list(path.parent.glob("~incoming~*"))
    assert answer(report.replies[0]).get_content().startswith(f"Your mail was not accepted.\n\n{why}\n")


def test_a_late_strategy_for_a_run_week_is_not_held_either(demo_fed, tmp_path, fedtool, bob):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  late_mail: hold\n"))
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-01T18:00:00Z\n"))
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    report = read(demo_fed, tmp_path, [raw_mail("bob@players.example", "Week 1 brother-bob", bob[2], "<late@x>")])
    assert report.outcomes[0].verdict == "refused" and report.outcomes[0].why.startswith("Week 1 has already been run")
    assert not (demo_fed / "strategies/week-01/held").exists()


@pytest.mark.parametrize("written, key", [
    ("Bob@Players.EXAMPLE", "bob@players.example"),
    ("bob@players.example.", "bob@players.example"),
    ("jörg@bücher.example", "jörg@xn--bcher-kva.example"),
    ("jörg@xn--bcher-kva.example", "jörg@xn--bcher-kva.example"),
])
def test_addresses_compare_as_addresses(written, key):
    assert address_key(written) == key


def _head(value: str) -> dict:
    return {"from": [value]}


SYNTAX = st.text(alphabet=st.sampled_from(list("bo@<>,;:()\"\\[]. \t\r\n=?qQ-_x\x00é")), max_size=60)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(SYNTAX, st.emails(), st.builds(lambda name, address, tail: f"{name} <{address}>{tail}", SYNTAX, st.emails(), SYNTAX)))
def test_any_from_header_is_one_clean_address_or_not_one_clear_sender(value):
    """300 From: values: text made of the characters that matter to address syntax, valid
    addresses, and valid addresses with such text around them. The reading never raises,
    and an address it returns is one clean addr-spec (no control character, no angle
    bracket) that reads back as itself."""
    address, why = mail_sender(_head(value))
    assert (address is None) != (why is None)
    if address is None:
        assert why.startswith("Not one clear sender (")
    else:
        assert not any(c in address for c in "\r\n\t\x00<>")
        assert mail_sender(_head(address)) == (address, None)  # read again, it is itself: one address


@settings(max_examples=100, deadline=None)
@given(st.emails(), st.emails())
def test_two_addresses_are_never_one_sender(first, second):
    """Any two valid addresses (hypothesis's RFC 5322 generator), in either form, are refused."""
    for value in (f"{first}, {second}", f"A <{first}>, B <{second}>"):
        assert mail_sender(_head(value)) == (None, UNCLEAR.format("the From: header holds 2 addresses"))
