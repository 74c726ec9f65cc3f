"""Strategies by mail (issue 6): recorded mails in a real Maildir, each checked for the answer
chosen and what was filed."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.utils import format_datetime
import datetime

from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake


def mail(sender, subject, body="", attachment=None, message_id=None, date=None, **headers):
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "strategies@dcw.example", subject
    m["Message-ID"] = message_id or f"<{abs(hash((sender, subject, body)))}@players.example>"
    m["Date"] = format_datetime(date or datetime.datetime(2026, 11, 20, 12, tzinfo=datetime.timezone.utc))
    for key, value in headers.items():
        m[key.replace("_", "-")] = value
    m.set_content(body or "Strategy attached.")
    if attachment:
        name, text = attachment
        m.add_attachment(text.encode(), maintype="text", subtype="plain", filename=name)
    return m


def maildir(tmp_path, mails):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for m in mails:
        box.add(m)
    return tmp_path / "Maildir"


def replies(report):
    """Each queued answer's body text, by file."""
    from email import message_from_bytes, policy

    return {p.name: message_from_bytes(p.read_bytes(), policy=policy.default).get_content() for p in report.replies}


def test_a_week_of_mail(demo_fed, tmp_path):
    week = demo_fed / "strategies/week-01"
    bob_good = (week / "brother-bob.yaml").read_text()
    sam_before = (week / "friendly-sam.yaml").read_text()
    sam_bad = sam_before.replace("plus: [High-Flying, Technical]", "plus: [High-Flying, Teamwork]")
    earl = (week / "big-earl.yaml").read_text()
    mails = [
        mail("Bob's Player <bob@players.example>", "Week 1 brother-bob", bob_good, message_id="<good@x>"),
        mail("Impostor <evil@attacker.example>", "week 1 brother-bob", bob_good, message_id="<spoof@x>"),
        mail("sam@players.example", "Week 1: Friendly Sam", sam_bad, message_id="<bad@x>"),
        mail("earl@players.example", "week 1 big-earl", attachment=("my strat.yaml", earl), message_id="<attached@x>"),
        mail("bob@players.example", "Auto: out of office (week 1 brother-bob)", "I am away", message_id="<auto@x>", Auto_Submitted="auto-replied"),
        mail("MAILER-DAEMON@mx.example", "Undelivered Mail (week 1)", "bounce", message_id="<bounce@x>"),
        mail("Bob's Player <bob@players.example>", "Week 1 brother-bob", bob_good, message_id="<good@x>"),
        mail("hank@players.example", "week 1 rocky-ridge", "x" * 1_100_000, message_id="<big@x>"),
    ]
    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails))
    verdicts = [(o.message_id, o.verdict) for o in report.outcomes]
    assert verdicts == [("<good@x>", "accepted"), ("<spoof@x>", "refused"), ("<bad@x>", "refused"), ("<attached@x>", "accepted"),
                        ("<auto@x>", "ignored"), ("<bounce@x>", "ignored"), ("<good@x>", "duplicate"), ("<big@x>", "refused")]
    assert len(report.replies) == 5  # every order mail answered; nothing to auto-replies, bounces or duplicates
    texts = list(replies(report).values())
    assert any(t.startswith("Accepted: the strategy for Brother Bob, week 1 (m1: brother-bob vs. friendly-sam)") for t in texts)
    assert any("evil@attacker.example is not the registered owner of Brother Bob" in t for t in texts)
    assert any('your strategy, line 2, field plus.1: Teamwork cannot be a "+" style [MatchMatch III.1]' in t for t in texts)
    assert any("the limit is 1,000,000" in t for t in texts)
    assert (week / "friendly-sam.yaml").read_text() == sam_before  # a bad strategy never replaces a good one
    assert not list(week.glob("~incoming~*"))
    answer = next(p for p in report.replies if "Accepted" in p.read_text())
    assert "Auto-Submitted: auto-replied" in answer.read_text() and "In-Reply-To: <good@x>" in answer.read_text()


def test_late_mail_is_refused_after_the_deadline(demo_fed, tmp_path):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-20T18:00:00Z\n"))
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    late = mail("bob@players.example", "Week 1 brother-bob", good.replace("Closed fists", "Late fists"), message_id="<late@x>",
                date=datetime.datetime(2026, 11, 21, 9, tzinfo=datetime.timezone.utc))
    report = intake(Fed.load(demo_fed), maildir(tmp_path, [late]))
    assert report.outcomes[0].verdict == "refused"
    assert "The deadline for week 1 was 2026-11-20T18:00:00+00:00" in next(iter(replies(report).values()))
    assert "Late fists" not in (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()


def test_inbox_command_and_reading_twice(demo_fed, fedtool, tmp_path):
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    box = maildir(tmp_path, [mail("bob@players.example", "week 1 brother-bob", good, message_id="<once@x>")])
    first = fedtool("inbox", box, "--fed", demo_fed)
    assert first.exit_code == 0 and "1 accepted, 0 refused, 0 ignored, 0 read before; 1 answer queued" in first.output
    again = fedtool("inbox", box, "--fed", demo_fed)
    assert "0 accepted, 0 refused, 0 ignored, 1 read before; 0 answers queued" in again.output


def test_each_ruleset_reads_a_strategy_written_in_the_body(demo_fed, tmp_path):
    """The body's layout is the wrestler's ruleset's to recognise (Ruleset.mail_strategy_suffix):
    a Face to the Mat strategy in YAML is filed as YAML, not read as MatchMatch plain text."""
    warden = (demo_fed / "strategies/week-04/the-warden.yaml").read_text()
    (demo_fed / "strategies/week-04/the-warden.yaml").unlink()
    assert "email: warden@players.example" in (demo_fed / "rosters/the-warden.yaml").read_text()
    report = intake(Fed.load(demo_fed), maildir(tmp_path, [mail("warden@players.example", "Week 4 the-warden", warden, message_id="<warden@x>")]))
    assert [o.verdict for o in report.outcomes] == ["accepted"], report.outcomes[0].why
    assert (demo_fed / "strategies/week-04/the-warden.yaml").read_text() == warden
    assert not (demo_fed / "strategies/week-04/the-warden.txt").exists()


def test_a_backdated_mail_without_received_is_dated_by_its_delivery(demo_fed, tmp_path):
    """Issue 12: a Date: before the deadline does not make a mail delivered after it early. With
    no Received: header, the Maildir's delivery time (the file's time) dates it."""
    import os

    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("week: 1\n", "week: 1\ndeadline: 2026-11-20T18:00:00Z\n"))
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    backdated = mail("bob@players.example", "Week 1 brother-bob", good.replace("Closed fists", "Backdated fists"), message_id="<backdated@x>",
                     date=datetime.datetime(2026, 11, 19, 9, tzinfo=datetime.timezone.utc))
    assert "Received" not in backdated
    box = maildir(tmp_path, [backdated])
    (path,) = (box / "new").iterdir()
    delivered = datetime.datetime(2026, 11, 21, 7, 30, tzinfo=datetime.timezone.utc).timestamp()
    os.utime(path, (delivered, delivered))
    report = intake(Fed.load(demo_fed), box)
    assert [(o.verdict, o.arrived) for o in report.outcomes] == [("refused", "2026-11-21T07:30:00+00:00")]
    assert "this mail arrived 2026-11-21T07:30:00+00:00" in next(iter(replies(report).values()))
    assert "Backdated fists" not in (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()


BOOKED_TWICE = """week: 6
matches:
  - {id: m1, sides: [brother-bob, friendly-sam], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]], strategies: {brother-bob: bob-m1.yaml}}
  - {id: m2, sides: [brother-bob, rocky-ridge], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]], strategies: {brother-bob: bob-m2.yaml}}
"""


def test_a_wrestler_booked_twice_names_the_match_and_each_is_filed_as_the_card_says(demo_fed, tmp_path, fedtool):
    """Issue 12: the subject names the match (as the announcement's own subject does, so a
    reply to it files correctly), and the strategy is filed under the card's file name."""
    week6 = demo_fed / "strategies/week-06"
    week6.mkdir()
    (week6 / "card.yaml").write_text(BOOKED_TWICE)
    assert fedtool("open", "6", "--fed", demo_fed).exit_code == 0
    announced = sorted(p.name for p in (demo_fed / "outbox/week-06/announcements/mail").iterdir())
    assert announced == ["m1-brother-bob.eml", "m1-friendly-sam.eml", "m2-brother-bob.eml", "m2-rocky-ridge.eml"]
    from email import message_from_bytes, policy

    announcement = message_from_bytes((demo_fed / "outbox/week-06/announcements/mail/m2-brother-bob.eml").read_bytes(), policy=policy.default)
    assert announcement["Subject"] == "Delta Championship Wrestling: Week 6 brother-bob m2 is open"
    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    mails = [
        mail("bob@players.example", "Week 6 brother-bob", bob, message_id="<no-match@x>"),
        mail("bob@players.example", f"Re: {announcement['Subject']}", bob.replace("Closed fists", "Second match fists"), message_id="<reply@x>"),
        mail("bob@players.example", "week 6 brother-bob m1", bob, message_id="<m1@x>"),
    ]
    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails))
    assert [(o.verdict, o.filed) for o in report.outcomes] == [
        ("refused", None), ("accepted", "strategies/week-06/bob-m2.yaml"), ("accepted", "strategies/week-06/bob-m1.yaml")]
    assert report.outcomes[0].why == ("Brother Bob is booked in more than one match this week: m1 (brother-bob vs. friendly-sam), "
                                      "m2 (brother-bob vs. rocky-ridge). Name the match in the subject, for example \"Week 6 brother-bob m1\".")
    assert "Second match fists" in (week6 / "bob-m2.yaml").read_text() and "Second match fists" not in (week6 / "bob-m1.yaml").read_text()
    assert not (week6 / "brother-bob.yaml").exists()


def test_an_original_message_mark_is_a_reply_when_the_player_wrote_above_it(demo_fed, tmp_path):
    """Issue 12: "-----Original Message-----" (Outlook's mark for a reply as well as a forward)
    with the strategy above it files the text above; with nothing above it, the text below its
    headers, as a forwarded strategy always was."""
    week = demo_fed / "strategies/week-01"
    bob = (week / "brother-bob.yaml").read_text()
    earl = (week / "big-earl.yaml").read_text()
    old = "-----Original Message-----\nFrom: fedhead@dcw.example\nSent: Friday, November 20, 2026 9:00 AM\nSubject: Week 1 is open\n\n"
    mails = [
        mail("bob@players.example", "RE: Week 1 brother-bob", bob.replace("Closed fists", "Replied fists") + "\n" + old + "plus: [Technical]\n", message_id="<orig-reply@x>"),
        mail("earl@players.example", "FW: Week 1 big-earl", old + earl.replace("# Week", "# Forwarded: week"), message_id="<orig-forward@x>"),
    ]
    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails))
    assert [o.verdict for o in report.outcomes] == ["accepted", "accepted"], [o.why for o in report.outcomes]
    assert (week / "brother-bob.yaml").read_text() == bob.replace("Closed fists", "Replied fists")
    assert (week / "big-earl.yaml").read_text() == earl.replace("# Week", "# Forwarded: week")


def test_a_maildir_is_read_in_delivery_order():
    """The names' numbers, not their text: a mail delivered at .M99999 comes before one at
    .M100000 (sorted as text, a Maildir read in a busy second came out of order)."""
    from fedtool.mail.intake import _maildir_order

    keys = ["1764000001.M5P7Q3.host", "1764000000.M100000P7Q2.host", "1764000000.M99999P7Q1.host", "odd-name"]
    assert sorted(keys, key=_maildir_order) == ["1764000000.M99999P7Q1.host", "1764000000.M100000P7Q2.host", "1764000001.M5P7Q3.host", "odd-name"]


def test_an_oversized_mail_is_refused_and_shown_under_its_wrestler(demo_fed, tmp_path, fedtool):
    """Found by a review: the refusal of an oversized strategy mail is recorded against the week
    and wrestler its subject names, so `fedtool status` and the reminders know of it."""
    report = intake(Fed.load(demo_fed), maildir(tmp_path, [mail("hank@players.example", "Week 1 rocky-ridge", "x" * 1_100_000, message_id="<big@x>")]))
    (outcome,) = report.outcomes
    assert (outcome.verdict, outcome.week, outcome.wrestler_id) == ("refused", 1, "rocky-ridge")
    assert outcome.why.startswith("The mail is 1,1") and outcome.why.endswith("bytes; the limit is 1,000,000.")
    assert report.replies[0].parent == demo_fed / "outbox/replies/week-01/mail"
    status = fedtool("status", "1", "--fed", demo_fed).output
    assert "refused: The mail is 1,1" in status
