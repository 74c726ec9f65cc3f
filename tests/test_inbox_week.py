"""The play-by-email loop end to end (issue 6, "Done when"): book a fresh week, open it, ten
mails arrive, status, reminders, run, send to a real SMTP server on loopback; then send
again. Driven through the command line."""

from __future__ import annotations

import datetime
import mailbox
import os
from collections import Counter
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, parsedate_to_datetime

from test_send import smtp_server, with_smtp  # noqa: F401  (the aiosmtpd fixture)

CARD = """title: "Week 6: Mail Call"
week: 6
deadline: 2026-11-27T18:00:00Z
matches:
  - {id: m1, sides: [brother-bob, friendly-sam]}
  - {id: m2, sides: [rocky-ridge, big-earl]}
  - {id: m3, ruleset: matclash, sides: [tommy-reyes, gus-halvorsen]}
"""


def order_mail(sender, subject, body, message_id, day=25, hour=12, **headers):
    """A strategy mail as the fed's mail server delivers it: Date, and the server's Received line."""
    m = EmailMessage()
    when = datetime.datetime(2026, 11, day, hour, tzinfo=datetime.timezone.utc)
    m["Received"] = f"from mail.players.example by mx.dcw.example with ESMTPS; {format_datetime(when)}"
    m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "strategies@dcw.example", subject, message_id
    m["Date"] = format_datetime(when - datetime.timedelta(minutes=2))
    for key, value in headers.items():
        m[key.replace("_", "-")] = value
    m.set_content(body)
    return m


def deliver(folder, mails):
    """Each mail into the Maildir, delivered when its Received line says: the Maildir's own
    time counts too, and a real clock past the test's dates made every mail arrive "now"
    (review 26; tests/test_calendar.py runs these tests with the clock moved)."""
    box = mailbox.Maildir(folder, create=True)
    for m in mails:
        key = box.add(m)
        when = parsedate_to_datetime(m["Received"].rsplit(";", 1)[1]).timestamp()
        os.utime(next(p for p in (folder / "new").iterdir() if p.name.startswith(key)), (when, when))


def book_week_six(fed):
    (fed / "strategies/week-06").mkdir()
    (fed / "strategies/week-06/card.yaml").write_text(CARD)
    settings = fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  matchmatch:\n", "  matchmatch:\n    missing_strategy: default\n"))


def test_a_scripted_week_by_mail(demo_fed, fedtool, smtp_server, tmp_path):  # noqa: F811
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    book_week_six(demo_fed)
    week1, week3, week6 = (demo_fed / f"strategies/week-0{n}" for n in (1, 3, 6))
    opened = fedtool("open", "6", "--fed", demo_fed)
    assert opened.exit_code == 0, opened.output

    bob = (week1 / "brother-bob.yaml").read_text()
    sam = (week1 / "friendly-sam.yaml").read_text()
    mails = [
        order_mail("Bob's Player <bob@players.example>", "Week 6 brother-bob", bob, "<w6-bob@x>", day=24),
        order_mail("sam@players.example", "Week 6 friendly-sam", sam.replace("plus: [High-Flying, Technical]", "plus: [High-Flying, Teamwork]"), "<w6-sam-bad@x>", day=24),
        order_mail("sam@players.example", "Week 6 friendly-sam", sam, "<w6-sam-good@x>", day=25),
        order_mail("Big Earl <mallory@evil.example>", "Week 6 big-earl", (week1 / "big-earl.yaml").read_text(), "<w6-spoof@x>", day=25),
        order_mail("Bob's Player <bob@players.example>", "Week 6 brother-bob", bob, "<w6-bob@x>", day=24),  # the same mail again
        order_mail("hank@players.example", "Week 6 rocky-ridge", (week1 / "rocky-ridge.yaml").read_text(), "<w6-rocky@x>", day=26),
        order_mail("tomas@players.example", "Week 6 Tommy Reyes", (week3 / "tommy-reyes.yaml").read_text(), "<w6-tommy@x>", day=26),
        order_mail("gus@players.example", "Week 6 gus-halvorsen", (week3 / "gus-halvorsen.yaml").read_text(), "<w6-gus-late@x>", day=28, hour=9),
        order_mail("earl@players.example", "Week 6 big-earl", "plus: [Power, Power]\nminus: Weight\ngrid: '1'\n", "<w6-earl-bad@x>", day=26),
        order_mail("sam@players.example", "Out of office: Week 6 friendly-sam", "Back on Monday.", "<w6-ooo@x>", day=26, Auto_Submitted="auto-replied"),
    ]
    deliver(tmp_path / "Maildir", mails)

    intake = fedtool("inbox", tmp_path / "Maildir", "--fed", demo_fed)
    assert intake.exit_code == 0, intake.output
    assert "4 accepted, 4 refused, 1 ignored, 1 read before; 8 answers queued" in intake.output
    assert sorted(p.name for p in week6.iterdir()) == ["brother-bob.yaml", "card.yaml", "friendly-sam.yaml", "opening.yaml", "rocky-ridge.yaml", "tommy-reyes.yaml"]
    assert (week6 / "friendly-sam.yaml").read_text() == sam  # the good one, after the bad one

    status = fedtool("status", "6", "--fed", demo_fed)
    assert status.exit_code == 0, status.output
    lines = [line.rstrip() for line in status.output.splitlines()]
    assert lines.pop(0) == "week 6: the deadline is Friday 27 November 2026, 18:00 UTC"  # issue 12: in the fed's zone (UTC here)
    assert lines[0].split()[:3] == ["m1", "Brother", "Bob"] and "stands" in lines[0] and "(2026-11-24T12:00:00+00:00)" in lines[0]
    assert ('mail 2026-11-24T12:00:00+00:00 refused: The strategy for Friendly Sam has problems: your strategy, line 2, field plus.1: '
            'Teamwork cannot be a "+" style [MatchMatch III.1]') in status.output
    assert "mail 2026-11-25T12:00:00+00:00 accepted: Friendly Sam, week 6" in status.output
    earl = next(line for line in lines if "Big Earl Hollis" in line)
    assert earl.split()[-1] == "default"  # the fed plays its default strategy for him
    assert "mail 2026-11-25T12:00:00+00:00 refused: mallory@evil.example is not the registered owner of Big Earl Hollis;" in status.output
    assert "mail 2026-11-28T09:00:00+00:00 refused: The deadline for week 6 was 2026-11-27T18:00:00+00:00; this mail arrived 2026-11-28T09:00:00+00:00." in status.output
    assert lines[-1] == "6 of 6 sides ready"

    remind = fedtool("remind", "6", "--fed", demo_fed)
    assert remind.exit_code == 0, remind.output
    assert "reminder for earl@players.example: Big Earl Hollis" in remind.output
    assert "reminder for gus@players.example: Gus Halvorsen" in remind.output
    assert "2 reminders queued in outbox/reminders/week-06/mail" in remind.output
    # the reminders go before the run: once the week has run, a queued reminder is stale and
    # is dropped unsent (issue 12)
    before_run = fedtool("send", "6", "--fed", demo_fed)
    assert before_run.exit_code == 0, before_run.output
    first = int(before_run.output.splitlines()[-1].split()[0])
    assert "sent outbox/reminders/week-06/mail/earl-players-example.eml" in before_run.output

    run = fedtool("run", "6", "--fed", demo_fed)
    assert run.exit_code == 0, run.output
    m2 = (demo_fed / "outbox/week-06/m2.md").read_text()
    assert "Big Earl Hollis sent no strategy: the fed's default strategy played." in m2
    assert "(the fed's default strategy: no valid strategy arrived)" in m2
    assert "> Gus Halvorsen sent no strategy and plays the built-in default policy." in (demo_fed / "outbox/week-06/m3.md").read_text()

    send = fedtool("send", "6", "--fed", demo_fed)
    assert send.exit_code == 0, send.output
    assert f"{23 - first} sent, {first} sent before, 0 kept for next time" in send.output
    received = Counter(tuple(rcpt) for rcpt, _ in inbox.mails)
    assert received == {
        ("bob@players.example",): 3,  # announcement, accepted, results (the duplicate got nothing)
        ("sam@players.example",): 4,  # announcement, refused, accepted, results (nothing to the auto-reply)
        ("hank@players.example",): 3,
        ("earl@players.example",): 4,  # announcement, refused, reminder, results
        ("tomas@players.example",): 3,
        ("gus@players.example",): 4,  # announcement, refused (late), reminder, results
        ("mallory@evil.example",): 1,  # refused: not the owner
        ("card-list@dcw.example",): 1,
    }
    by_subject = {(rcpt[0], m["Subject"]): m for rcpt, m in inbox.mails}
    spoof = by_subject[("mallory@evil.example", "Re: Week 6 big-earl")].get_content().replace("\r\n", "\n")
    assert spoof.startswith("Your mail was not accepted.\n\nmallory@evil.example is not the registered owner of Big Earl Hollis; "
                            "strategies are accepted only from the owner's address.\n\nNothing was filed")
    late = by_subject[("gus@players.example", "Re: Week 6 gus-halvorsen")].get_content().replace("\r\n", "\n")
    assert late.startswith("Your mail was not accepted.\n\nThe deadline for week 6 was 2026-11-27T18:00:00+00:00; "
                           "this mail arrived 2026-11-28T09:00:00+00:00.\n\nNothing was filed")
    reminder = by_subject[("earl@players.example", "Delta Championship Wrestling: week 6 reminder")].get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert "- match m2 (rocky-ridge vs. big-earl): Big Earl Hollis, only refused mail so far" in reminder
    assert "The deadline is Friday 27 November 2026, 18:00 UTC." in reminder
    assert 'mail strategies@dcw.example with the subject "Week 6 <wrestler-id>" (for example "Week 6 big-earl")' in reminder
    assert "`" not in reminder  # plain text, not Markdown (issue 16)
    results = by_subject[("gus@players.example", "Delta Championship Wrestling: Week 6: Mail Call results")]
    assert "Gus Halvorsen sent no strategy and plays the built-in default policy." in results.get_body(("plain",)).get_content()

    again = fedtool("send", "--fed", demo_fed)
    assert again.exit_code == 0 and "0 sent, 23 sent before, 0 kept for next time" in again.output
    assert len(inbox.mails) == 23
    assert fedtool("remind", "6", "--fed", demo_fed).output.endswith("0 reminders queued\n")  # each player is reminded once a week


def test_late_mail_can_be_held_and_accepted_by_the_fedhead(demo_fed, fedtool, tmp_path):
    book_week_six(demo_fed)
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  late_mail: hold\n"))
    assert fedtool("open", "6", "--fed", demo_fed).exit_code == 0
    week6 = demo_fed / "strategies/week-06"
    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    deliver(tmp_path / "Maildir", [order_mail("bob@players.example", "Week 6 brother-bob", bob, "<late-good@x>", day=28),
                                   order_mail("sam@players.example", "Week 6 friendly-sam", "plus: [Teamwork]\n", "<late-bad@x>", day=28)])
    result = fedtool("inbox", tmp_path / "Maildir", "--fed", demo_fed)
    assert "0 accepted, 1 refused, 1 held, 0 ignored, 0 read before; 2 answers queued" in result.output
    assert not (week6 / "brother-bob.yaml").exists()  # held is not filed: the run never plays it
    assert (week6 / "held/brother-bob.yaml").read_text() == bob
    assert not (week6 / "held/friendly-sam.yaml").exists()  # a late strategy that does not stand is refused, not held
    status = fedtool("status", "6", "--fed", demo_fed)
    assert "held (late): strategies/week-06/held/brother-bob.yaml; `fedtool accept 6 brother-bob` files it" in status.output
    assert "mail 2026-11-28T12:00:00+00:00 held: Brother Bob, week 6: late, held for the fedhead" in status.output
    nothing = fedtool("accept", "6", "friendly-sam", "--fed", demo_fed)
    assert nothing.exit_code == 1 and "strategies/week-06/held: no strategy held for 'friendly-sam'; held: brother-bob" in nothing.stderr
    accepted = fedtool("accept", "6", "brother-bob", "--fed", demo_fed)
    assert accepted.exit_code == 0 and "filed strategies/week-06/brother-bob.yaml" in accepted.output
    assert (week6 / "brother-bob.yaml").read_text() == bob and not (week6 / "held/brother-bob.yaml").exists()
    row = next(line for line in fedtool("status", "6", "--fed", demo_fed).output.splitlines() if line.startswith("m1") and "Brother Bob" in line)
    assert "stands" in row


def test_reminders_name_each_match_of_a_player_and_skip_those_who_are_ready(demo_fed, fedtool):
    book_week_six(demo_fed)
    assert fedtool("open", "6", "--fed", demo_fed).exit_code == 0
    (demo_fed / "strategies/week-06/rocky-ridge.yaml").write_text((demo_fed / "strategies/week-01/rocky-ridge.yaml").read_text())
    result = fedtool("remind", "6", "--fed", demo_fed)
    assert result.exit_code == 0
    assert [line for line in result.output.splitlines() if line.startswith("reminder")] == [
        "reminder for bob@players.example: Brother Bob",
        "reminder for earl@players.example: Big Earl Hollis",
        "reminder for gus@players.example: Gus Halvorsen",
        "reminder for sam@players.example: Friendly Sam",
        "reminder for tomas@players.example: Tommy \"The Tumbler\" Reyes",
    ]  # hank sent his: no reminder
    folder = demo_fed / "outbox/reminders/week-06/mail"
    assert sorted(p.name for p in folder.iterdir()) == ["bob-players-example.eml", "earl-players-example.eml", "gus-players-example.eml",
                                                        "sam-players-example.eml", "tomas-players-example.eml"]
    reminder = message_from_bytes((folder / "tomas-players-example.eml").read_bytes(), policy=policy.default)
    assert reminder["Auto-Submitted"] == "auto-generated"
    assert "- match m3 (tommy-reyes vs. gus-halvorsen): Tommy \"The Tumbler\" Reyes, nothing received yet (without one you play the fed's default strategy)" in reminder.get_content()
