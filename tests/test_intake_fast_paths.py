"""Intake's fast paths read a mail exactly as the slow ones (issue 18 item 4, issue 12's tick
benchmark): a headers-only parse of the header block alone gives every header the whole
mail's parse gives, whatever the line ends, folding, stray lines or body."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fedtool.mail.intake import _PARSER, MAX_BYTES, header_block, headers

ENDS = st.sampled_from([b"\n", b"\r\n", b"\r"])
NAME = st.sampled_from([b"From", b"To", b"Subject", b"Message-ID", b"Date", b"Received", b"X-Odd", b"subject", b"Content-Type"])
TEXT = st.binary(max_size=30).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" "))
VALUE = st.one_of(TEXT, st.sampled_from([b"Week 6 brother-bob", b"=?utf-8?q?Week_6_caf=C3=A9?=", b"<x@y>", b"bob@players.example", b"", b" "]))


@st.composite
def raw_mails(draw):
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["header", "header", "header", "folded", "stray", "empty-value"]))
        if kind == "header":
            lines.append(draw(NAME) + b": " + draw(VALUE))
        elif kind == "folded":
            lines.append(draw(NAME) + b": " + draw(VALUE))
            lines.append(draw(st.sampled_from([b" ", b"\t"])) + draw(TEXT))
        elif kind == "stray":  # a line that is no header: where the parser says the body starts
            lines.append(draw(TEXT))
        else:
            lines.append(draw(NAME) + b":")
    raw = b"".join(line + draw(ENDS) for line in lines)
    if draw(st.booleans()):
        raw += draw(ENDS)  # the blank line
    raw += b"".join(draw(TEXT) + draw(ENDS) for _ in range(draw(st.integers(0, 5))))
    return raw


def read(raw: bytes) -> dict:
    return headers(_PARSER.parsebytes(raw, headersonly=True))


@settings(max_examples=600, deadline=None)
@given(raw_mails())
def test_the_header_block_reads_as_the_whole_mail(raw):
    assert read(header_block(raw[: MAX_BYTES + 1])) == read(raw[: MAX_BYTES + 1])


def test_the_header_block_is_shorter_where_it_can_be():
    raw = b"From: bob@players.example\r\nSubject: Week 6 brother-bob\r\n\r\nplus: [Power]\r\n" + b"x\r\n" * 1000
    assert header_block(raw) == b"From: bob@players.example\r\nSubject: Week 6 brother-bob\r\n\r\n"
    assert header_block(b"From: a@b\rSubject: x\r\rbody\n\nmore") == b"From: a@b\rSubject: x\r\rbody\n\n"  # lone CRs: cut later, read the same


# ---------------------------------------------------------------- answers written directly

import datetime  # noqa: E402

from fedtool.fed.settings import Fed  # noqa: E402
from fedtool.mail.intake import _answer_subject, _reply, answer_bytes  # noqa: E402

LINE = st.one_of(
    st.text(max_size=120),
    st.text(alphabet=st.characters(codec="ascii"), max_size=200),  # long ASCII lines: quoted-printable or base64
    st.text(alphabet="abcdefgh ,.:'=-\u00e9", min_size=60, max_size=180),  # long, mostly ASCII: quoted-printable
    st.sampled_from(["  line  12: style Brawling (Br), target Stamina", "Café Señor Ñandú — “quoted” ✓", "\t tab", "From the top", ".", "", "=?utf-8?q?x?=", "=" * 90]),
)
TEXTS = st.lists(LINE, max_size=14).map("\n".join) | st.text(max_size=400)
ADDRESSES = st.sampled_from(["bob@players.example", "Hank.Hill@Players.Example", "luis@jugadores.example", "a@b.test", "x+tag@sub.players.example"])
IDS = st.one_of(st.none(), st.sampled_from(["<tick-1@players.example>", "<a.b.c@d>", "<" + "x" * 120 + "@players.example>", "no id", "<two words@x>", "<=?x?=@y>"]),
                # ids written without the policy where they are plain (intake._PLAIN_ID), around the 78-character line
                st.builds("<{}@{}>".format, st.text("aZ09._+=-!#$%&'*/?^`{|}~", min_size=1, max_size=70), st.text("ab9.-", min_size=1, max_size=30)))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXTS, subject=st.text(max_size=240), to=ADDRESSES, original=IDS, minute=st.integers(0, 10_000), own_id=st.booleans())
def test_an_answer_written_directly_is_the_email_packages_answer(demo_fed_once, text, subject, to, original, minute, own_id):
    now = datetime.datetime(2026, 11, 25, 12, tzinfo=datetime.timezone.utc) + datetime.timedelta(minutes=minute)
    message_id = original or "<no-id@x>" if own_id else (original or "<fallback@x>")
    answer = _answer_subject(subject)
    parsed: dict = {}
    direct = answer_bytes(demo_fed_once, original, to, answer, text, now, message_id, parsed)
    again = answer_bytes(demo_fed_once, original, to, answer, text, now, message_id, parsed)  # from the intake's kept lines
    assert direct == again == bytes(_reply(demo_fed_once, original, to, answer, text, now, message_id, {}))


@pytest.fixture(scope="module")
def demo_fed_once():
    from golden import ROOT

    return Fed.load(ROOT)


# ---------------------------------------------------------------- quotes and signatures looked for only where they can be

from fedtool.mail.intake import _HELD, _own_text, _reply_marks, _search  # noqa: E402

PIECES = st.sampled_from(["On Tue, 24 Nov 2026 Bob wrote:", "wrote:", "From: Bob", "Sent: today", "To: sam", "Subject: x", "Date: now", "CC: me",
                          "Organization: DCW", "-----Original Message-----", "----- original message -----", "--", "__", "-_", "_" * 33, "-- ",
                          "Sent from my phone", "sent FROM my iPad", "Get Outlook for iOS", "Best regards", "KIND regards", "Thanks,", "thank you,",
                          "Best,", "All the best", "Regards,", "> quoted", ">", "plus: [Brawling, Cheating]", "- {target: Stamina, type: Normal}",
                          "Kind", "\u212aind regards", "Be\u017ft,", "\u0130", "\u0131", "caf\u00e9", "", " ", "\t"])
MAIL_TEXTS = st.lists(st.one_of(PIECES, st.text(alphabet="abcSTWfrom:-_>,. \n", max_size=12)), max_size=14).flatmap(
    lambda parts: st.lists(st.sampled_from(["\n", "\n\n", " ", ""]), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))))


@settings(max_examples=3000, deadline=None)
@given(text=MAIL_TEXTS)
def test_a_quote_and_a_signature_are_found_as_the_library_finds_them(text):
    """`_search` (the words a match needs, looked for first) finds what mail-parser-reply's
    patterns find, at the same place, in the text as `_own_text` reads it and in its own
    part (Kelvin K, long s, dotted and dotless i: a text that is not ASCII is searched whole)."""
    reader = _reply_marks(("en",))
    assert (reader.HEADER_REGEX.pattern, reader.HEADER_REGEX.flags) in _HELD  # the library's patterns are the ones the words were read from
    assert (reader.SIGNATURE_REGEX.pattern, reader.SIGNATURE_REGEX.flags) in _HELD
    flat = "\n".join(line.strip() for line in text.replace("\r\n", "\n").split("\n"))
    for pattern in (reader.HEADER_REGEX, reader.SIGNATURE_REGEX):
        for where in (text, flat):
            fast, slow = _search(pattern, where), pattern.search(where)
            assert (fast.span() if fast else None) == (slow.span() if slow else None)
    _own_text(text)
