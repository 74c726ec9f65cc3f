"""Intake's fast paths read a mail exactly as the slow ones (issue 18 item 4, issue 12's tick
benchmark): a headers-only parse of the header block alone gives every header the whole
mail's parse gives, whatever the line ends, folding, stray lines or body."""

from __future__ import annotations

from hypothesis import given, settings
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
