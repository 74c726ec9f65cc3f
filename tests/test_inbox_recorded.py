"""Intake from recorded mails (tests/data/mails/*.eml, as mail clients and servers write them):
for each, which answer was chosen, its key wording, and exactly what was filed."""

from __future__ import annotations

import os
import shutil
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from conftest import snapshot
from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake

MAILS = Path(__file__).resolve().parent / "data" / "mails"


def read_one(fed_dir: Path, tmp_path: Path, name: str):
    """Intake of one recorded mail from a folder of .eml files: (outcome, answer text or None)."""
    folder = tmp_path / "eml"
    folder.mkdir()
    shutil.copy(MAILS / name, folder / name)
    delivered(folder / name)
    report = intake(Fed.load(fed_dir), folder)
    assert len(report.outcomes) == 1
    answer = None
    if report.replies:
        reply = message_from_bytes(report.replies[0].read_bytes(), policy=policy.default)
        answer = reply.get_content()
    return report.outcomes[0], answer


def delivered(path: Path) -> None:
    """Give a recorded mail's file the time it was written, as the mail says (its Date:): a
    folder's file time is when the mail arrived (fedtool.mail.intake.messages)."""
    date = message_from_bytes(path.read_bytes(), policy=policy.default)["Date"]
    if date is not None and date.datetime is not None:
        stamp = date.datetime.timestamp()
        os.utime(path, (stamp, stamp))


def changed(before: dict, after: dict) -> dict:
    """Files added, changed or removed under strategies/: name -> new bytes (None if removed)."""
    names = set(before) | set(after)
    return {n: after.get(n) for n in sorted(names) if before.get(n) != after.get(n)}


def strategy_body(name: str) -> str:
    """The strategy text inside a recorded mail, as the client encoded it: for the filed-bytes check."""
    message = message_from_bytes((MAILS / name).read_bytes(), policy=policy.default)
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_multipart_alternative_files_the_plain_part(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    outcome, answer = read_one(demo_fed, tmp_path, "multipart-alternative.eml")
    assert (outcome.verdict, outcome.filed, outcome.arrived) == ("accepted", "strategies/week-01/friendly-sam.yaml", "2026-11-20T12:00:05+00:00")
    assert answer.startswith("Accepted: the strategy for Friendly Sam, week 1 (m1: brother-bob vs. friendly-sam).")
    assert changed(before, snapshot(demo_fed / "strategies")) == {"week-01/friendly-sam.yaml": strategy_body("multipart-alternative.eml").encode()}
    assert b"MIME drag" in (demo_fed / "strategies/week-01/friendly-sam.yaml").read_bytes()


def test_a_plain_text_attachment_is_filed_as_txt_and_its_name_is_never_a_path(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    settings_before = (demo_fed / "rosters/fed.yaml").read_bytes()
    outcome, answer = read_one(demo_fed, tmp_path, "attachment-txt.eml")
    assert (outcome.verdict, outcome.filed) == ("accepted", "strategies/week-01/skyline-sabrina.txt")
    assert answer.startswith("Accepted: the strategy for Skyline Sabrina, week 1 (m3: silent-crane vs. skyline-sabrina).")
    assert "  line   1: + styles: High-Flying, Technical; - style: Martial Arts; grid pick: 3\n  line   2: table heading, skipped\n" in answer  # echoed as the resolver reads it
    message = message_from_bytes((MAILS / "attachment-txt.eml").read_bytes(), policy=policy.default)
    attached = next(message.iter_attachments()).get_content()
    assert changed(before, snapshot(demo_fed / "strategies")) == {
        "week-01/skyline-sabrina.txt": attached.replace("\r\n", "\n").encode(),
        "week-01/skyline-sabrina.yaml": None,  # the newest good strategy is the one
    }
    assert (demo_fed / "rosters/fed.yaml").read_bytes() == settings_before


def test_quoted_printable_is_decoded_before_filing(demo_fed, tmp_path):
    outcome, answer = read_one(demo_fed, tmp_path, "quoted-printable.eml")
    assert (outcome.verdict, outcome.filed) == ("accepted", "strategies/week-01/relampago.yaml")
    filed = (demo_fed / "strategies/week-01/relampago.yaml").read_text(encoding="utf-8")
    assert filed == strategy_body("quoted-printable.eml")
    assert filed.startswith("# Semana 1: ¡Relámpago vuela! Week 1 strategy for relampago (MatchMatch III).\n")
    assert "explanation: 'Relámpago dives" in answer


def test_a_strategy_forwarded_as_an_attached_mail_is_read_from_the_forwarded_mail(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    outcome, answer = read_one(demo_fed, tmp_path, "forwarded-attached.eml")
    assert (outcome.verdict, outcome.filed) == ("accepted", "strategies/week-01/rocky-ridge.yaml")
    assert answer.startswith("Accepted: the strategy for Rocky Ridge, week 1 (m2: rocky-ridge vs. big-earl).")
    # the demo's own strategy came back word for word: nothing changed on disk, and the covering note was not filed
    assert changed(before, snapshot(demo_fed / "strategies")) == {}
    assert "forwarding it" not in (demo_fed / "strategies/week-01/rocky-ridge.yaml").read_text()


def test_a_strategy_forwarded_inline_is_read_below_the_forwarding_headers(demo_fed, tmp_path):
    original = (demo_fed / "strategies/week-01/big-earl.yaml").read_text()
    outcome, answer = read_one(demo_fed, tmp_path, "forwarded-inline.eml")
    assert (outcome.verdict, outcome.filed) == ("accepted", "strategies/week-01/big-earl.yaml")
    assert answer.startswith("Accepted: the strategy for Big Earl Hollis, week 1 (m2: rocky-ridge vs. big-earl).")
    assert (demo_fed / "strategies/week-01/big-earl.yaml").read_text() == original


def test_an_html_only_mail_is_read_without_tags_and_with_entities_decoded(demo_fed, tmp_path):
    original = (demo_fed / "strategies/week-01/kate-galloway.yaml").read_text()
    outcome, answer = read_one(demo_fed, tmp_path, "html-only.eml")
    assert (outcome.verdict, outcome.filed) == ("accepted", "strategies/week-01/kate-galloway.yaml")  # the subject gave her name
    assert answer.startswith("Accepted: the strategy for Kate \"The Gate\" Galloway, week 1 (m4: kate-galloway vs. victor-vane).")
    filed = (demo_fed / "strategies/week-01/kate-galloway.yaml").read_text()
    assert filed.strip() == original.strip()  # &#x27; and &quot; came back as quotes; <style> was dropped
    assert "<" not in filed and "p{margin" not in filed


def test_a_spoofed_sender_is_refused_and_nothing_is_filed(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    outcome, answer = read_one(demo_fed, tmp_path, "spoofed-sender.eml")
    assert (outcome.verdict, outcome.sender, outcome.wrestler_id) == ("refused", "mallory@evil.example", "brother-bob")
    assert answer.startswith("Your mail was not accepted.\n\nmallory@evil.example is not the registered owner of Brother Bob; "
                             "strategies are accepted only from the owner's address.")
    assert snapshot(demo_fed / "strategies") == before
    reply = next((demo_fed / "outbox/replies/week-01/mail").glob("*.eml")).read_bytes()
    assert b"To: mallory@evil.example" in reply  # the answer goes to the sender, not to the Reply-To it gave


def test_an_oversize_mail_is_refused_with_its_size(demo_fed, tmp_path, monkeypatch):
    monkeypatch.setattr("fedtool.mail.intake.MAX_BYTES", 20_000)
    before = snapshot(demo_fed / "strategies")
    outcome, answer = read_one(demo_fed, tmp_path, "oversize.eml")
    size = (MAILS / "oversize.eml").stat().st_size
    assert size == 45_004
    assert outcome.verdict == "refused"
    assert answer.startswith(f"Your mail was not accepted.\n\nThe mail is {size:,} bytes; the limit is 20,000.")
    assert snapshot(demo_fed / "strategies") == before


def test_an_auto_reply_gets_no_answer_and_files_nothing(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    outcome, answer = read_one(demo_fed, tmp_path, "auto-reply.eml")
    assert (outcome.verdict, outcome.why, answer) == ("ignored", "auto-submitted (auto-replied)", None)
    assert snapshot(demo_fed / "strategies") == before
    assert not (demo_fed / "outbox/replies").exists()


@pytest.mark.parametrize("name", sorted(p.name for p in MAILS.glob("*.eml")))
def test_every_recorded_mail_read_twice_counts_once(name, demo_fed, tmp_path, monkeypatch):
    monkeypatch.setattr("fedtool.mail.intake.MAX_BYTES", 20_000)
    folder = tmp_path / "eml"
    folder.mkdir()
    shutil.copy(MAILS / name, folder / name)
    fed = Fed.load(demo_fed)
    first = intake(fed, folder)
    after_first = snapshot(demo_fed)
    again = intake(fed, folder)
    assert [o.verdict for o in again.outcomes] == ["duplicate"] and again.replies == []
    assert first.outcomes[0].verdict != "duplicate"
    assert snapshot(demo_fed) == after_first
