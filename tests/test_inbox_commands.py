"""Intake for every case (issue 12, item 4): mail that reaches no wrestler is answered with
the help text and listed by `fedtool status`; mail commands (help, status, resend) are
answered only to the owner's address, with that owner's records only; quoted replies and
signatures are not read as the strategy."""

from __future__ import annotations

import datetime
import os
import sqlite3
from email import message_from_bytes, policy
from pathlib import Path

from conftest import snapshot
from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake
from test_inbox import mail
from test_inbox_week import book_week_six

HELP_WEEK_1 = """How to send a strategy to Delta Championship Wrestling:

Mail strategies@dcw.example from your registered address, with the subject "Week <week> <wrestler-id>"
(for example "Week 1 brother-bob"); a wrestler booked in more than one match adds the match
("Week 1 brother-bob m2"). The strategy is the body of the mail, above any quoted text, or a .yaml
or .txt attachment.
Only mail from a wrestler's registered owner is filed; every strategy mail is answered.

Week 1 is open. Its card:
- m1: Brother Bob (brother-bob) vs. Friendly Sam (friendly-sam)
- m2: Rocky Ridge (rocky-ridge) vs. Big Earl Hollis (big-earl)
- m3: The Silent Crane (silent-crane) vs. Skyline Sabrina (skyline-sabrina)
- m4: Kate "The Gate" Galloway (kate-galloway) vs. Dr. Victor Vane (victor-vane)
- m5: Mad Dog Maddox (mad-dog-maddox) vs. Relámpago (relampago)

Mail commands (the command is the whole subject; the answer goes to your registered address only):
- help: this text
- status week N: what fedtool holds for your wrestlers in week N (each strategy, when it came, whether it stands)
- resend week N: your results mail for week N again
"""

REFUSED = "Your mail was not accepted.\n\n{}\n\nNothing was filed; any strategy you sent before still stands.\n\n"


def eml_folder(tmp_path: Path, mails) -> Path:
    """The mails as a folder of .eml files, each file's time its Date: (when it arrived)."""
    folder = tmp_path / "eml"
    folder.mkdir(exist_ok=True)
    for index, m in enumerate(mails):
        path = folder / f"{index:03}.eml"
        path.write_bytes(bytes(m))
        stamp = m["Date"].datetime.timestamp()
        os.utime(path, (stamp, stamp))
    return folder


def at(day: int, hour: int = 12) -> datetime.datetime:
    return datetime.datetime(2026, 11, day, hour, tzinfo=datetime.timezone.utc)


def answers(report) -> list[tuple[str, str, str]]:
    """Each answer queued: (To, Subject, body)."""
    out = []
    for path in report.replies:
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        out.append((str(message["To"]), str(message["Subject"]), message.get_content()))
    return out


def seen(fed: Path) -> list[tuple]:
    return sqlite3.connect(fed / "fed.db").execute("SELECT message_id, sender, verdict, why, week, wrestler_id FROM inbox_seen ORDER BY rowid").fetchall()


def test_help_is_answered_to_anyone_and_files_nothing(demo_fed, tmp_path):
    before = snapshot(demo_fed / "strategies")
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [
        mail("Bob's Player <bob@players.example>", "help", message_id="<help@x>"),
        mail("stranger@elsewhere.example", "HELP", message_id="<stranger-help@x>"),
    ]))
    assert [(o.verdict, o.why, o.week, o.filed) for o in report.outcomes] == [("command", "help", None, None), ("command", "help", None, None)]
    assert answers(report) == [("bob@players.example", "Re: help", HELP_WEEK_1), ("stranger@elsewhere.example", "Re: HELP", HELP_WEEK_1)]
    assert snapshot(demo_fed / "strategies") == before
    assert [row[:5] for row in seen(demo_fed)] == [("<help@x>", "bob@players.example", "command", "help", None),
                                                   ("<stranger-help@x>", "stranger@elsewhere.example", "command", "help", None)]
    again = intake(Fed.load(demo_fed), tmp_path / "eml")  # never answered twice
    assert [o.verdict for o in again.outcomes] == ["duplicate", "duplicate"] and again.replies == []


def test_status_shows_only_the_senders_own_sides(demo_fed, tmp_path):
    week = demo_fed / "strategies/week-01"
    bob = (week / "brother-bob.yaml").read_text()
    sam = (week / "friendly-sam.yaml").read_text()
    before = None
    mails = [
        mail("bob@players.example", "Week 1 brother-bob", bob, message_id="<bob-good@x>", date=at(20)),
        mail("bob@players.example", "Week 1 brother-bob", bob.replace("plus: [Brawling, Cheating]", "plus: [Brawling, Teamwork]"), message_id="<bob-bad@x>", date=at(21)),
        mail("sam@players.example", "Week 1 friendly-sam", sam, message_id="<sam-good@x>", date=at(21, 9)),
        mail("mallory@evil.example", "Week 1 friendly-sam", sam, message_id="<sam-spoof@x>", date=at(21, 10)),
        mail("bob@players.example", "status week 1", message_id="<bob-status@x>", date=at(22)),
        mail("sam@players.example", "Status 1", message_id="<sam-status@x>", date=at(22)),
        mail("tomas@players.example", "status week 1", message_id="<tomas-status@x>", date=at(22)),
        mail("bob@players.example", "status week 9", message_id="<bob-status-9@x>", date=at(22)),
    ]
    before = snapshot(demo_fed / "strategies")
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, mails))
    assert [o.verdict for o in report.outcomes] == ["accepted", "refused", "accepted", "refused", "command", "command", "command", "command"]
    assert [(o.why, o.week, o.filed) for o in report.outcomes[4:]] == [("status week 1", 1, None), ("status week 1", 1, None),
                                                                        ("status week 1", 1, None), ("status week 9", 9, None)]
    assert snapshot(demo_fed / "strategies") == before  # the demo's own strategies came back word for word; the bad one was not filed
    replies = answers(report)[4:]
    assert replies[0] == ("bob@players.example", "Re: status week 1", """What Delta Championship Wrestling holds for your wrestlers in week 1:

m1: Brother Bob
  strategy: strategies/week-01/brother-bob.yaml (arrived 2026-11-20T12:00:00+00:00): stands
  mail 2026-11-20T12:00:00+00:00 accepted: Brother Bob, week 1
  mail 2026-11-21T12:00:00+00:00 refused: The strategy for Brother Bob has problems: your strategy, line 2, field plus.1: Teamwork cannot be a "+" style [MatchMatch III.1]
""")
    assert replies[1] == ("sam@players.example", "Re: Status 1", """What Delta Championship Wrestling holds for your wrestlers in week 1:

m1: Friendly Sam
  strategy: strategies/week-01/friendly-sam.yaml (arrived 2026-11-21T09:00:00+00:00): stands
  mail 2026-11-21T09:00:00+00:00 accepted: Friendly Sam, week 1
  mail 2026-11-21T10:00:00+00:00 refused: mallory@evil.example is not the registered owner of Friendly Sam; strategies are accepted only from the owner's address.
""")
    assert replies[2] == ("tomas@players.example", "Re: status week 1", "You have no wrestler on the week 1 card.\n")
    assert replies[3] == ("bob@players.example", "Re: status week 9", "There is no card for week 9.\n")
    for to, _, text in replies:  # never another player's strategy, file or mail
        if to != "bob@players.example":
            assert "Brother Bob" not in text and "brother-bob" not in text and "Closed fists" not in text


def test_a_forged_from_never_gets_another_players_data(demo_fed, tmp_path):
    """The answer goes to the From: address only: forged, it goes to the real owner; a
    stranger's own address gets the help text and nothing of anyone's."""
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [
        mail("Bob <bob@players.example>", "status week 1", message_id="<forged@x>", Reply_To="mallory@evil.example", Sender="mallory@evil.example"),
        mail("mallory@evil.example", "status week 1", message_id="<mallory@x>"),
        mail("mallory@evil.example", "resend week 1", message_id="<mallory-resend@x>"),
    ]))
    assert [(o.verdict, o.why) for o in report.outcomes] == [
        ("command", "status week 1"),
        ("command", "status week 1: help only (the address owns no wrestler)"),
        ("command", "resend week 1: help only (the address owns no wrestler)")]
    (forged, _, forged_text), (to_mallory, _, mallory_text), (_, _, resend_text) = answers(report)
    assert forged == "bob@players.example" and forged_text.startswith("What Delta Championship Wrestling holds for your wrestlers in week 1:\n\nm1: Brother Bob\n")
    assert to_mallory == "mallory@evil.example"
    assert mallory_text == ("mallory@evil.example is not the registered address of any wrestler, so there is nothing to show for \"status week 1\".\n\n"
                            + HELP_WEEK_1)
    assert resend_text == ("mallory@evil.example is not the registered address of any wrestler, so there is nothing to show for \"resend week 1\".\n\n"
                           + HELP_WEEK_1)
    for path in (demo_fed / "outbox").rglob("*.eml"):  # no mail with a player's records goes to the forger
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        if "mallory" in str(message["To"]):
            assert "strategies/week-01" not in message.get_content()
    assert not (demo_fed / "outbox/resent").exists()


def test_resend_queues_the_players_own_results_again(demo_fed, fedtool, tmp_path):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [
        mail("bob@players.example", "resend week 1", message_id="<resend@x>"),
        mail("bob@players.example", "resend week 2", message_id="<resend-2@x>"),
        mail("tomas@players.example", "Resend 1", message_id="<resend-tomas@x>"),
    ]))
    assert [(o.verdict, o.why, o.week) for o in report.outcomes] == [
        ("command", "resend week 1: 1 queued", 1), ("command", "resend week 2: not run", 2), ("command", "resend week 1: no mail to tomas@players.example", 1)]
    assert [text for _, _, text in answers(report)] == [
        "Your results mail for week 1 is sent again, in a separate mail.\n",
        "Week 2 has not been run: there is no results mail to send again.\n",
        "There is no results mail to you in week 1.\n"]  # never the list of who the week's mail went to
    copies = sorted((demo_fed / "outbox/resent/week-01/mail").iterdir())
    assert len(copies) == 1
    copy = message_from_bytes(copies[0].read_bytes(), policy=policy.default)
    assert str(copy["To"]).endswith("<bob@players.example>") and copy["Subject"].startswith("Resent: ")
    assert not (demo_fed / "outbox/resent/week-02").exists()


def test_a_command_over_the_caps_is_refused(demo_fed, tmp_path, monkeypatch):
    monkeypatch.setattr("fedtool.mail.intake.MAX_BYTES", 5_000)
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [mail("bob@players.example", "help", "x" * 6_000, message_id="<big-help@x>")]))
    (outcome,) = report.outcomes
    assert outcome.verdict == "refused" and outcome.why.startswith("The mail is ") and outcome.why.endswith(" bytes; the limit is 5,000.")
    assert answers(report)[0][2].startswith("Your mail was not accepted.\n\nThe mail is ")
    assert "How to send a strategy" not in answers(report)[0][2]


def test_mail_that_reaches_no_wrestler_is_answered_with_help_and_listed_by_status(demo_fed, fedtool, tmp_path):
    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    mails = [
        mail("bob@players.example", "my strategy", bob, message_id="<no-week@x>", date=at(20, 8)),
        mail("bob@players.example", "Week 1 the boss", bob, message_id="<no-wrestler@x>", date=at(20, 9)),
        mail("stranger@elsewhere.example", "Week 1 brother-bob", bob, message_id="<stranger@x>", date=at(20, 10)),
        mail("bob@players.example", "Week 12 brother-bob", bob, message_id="<no-card@x>", date=at(20, 11)),
        mail("bob@players.example", "status week 1", message_id="<cmd@x>", date=at(20, 12)),
        mail("eve@elsewhere.example", "Hi!\x1b[31m there " + "x" * 100, "hello", message_id="<long@x>", date=at(20, 13)),
    ]
    before = snapshot(demo_fed / "strategies")
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, mails))
    assert [o.verdict for o in report.outcomes] == ["refused", "refused", "refused", "refused", "command", "refused"]
    assert snapshot(demo_fed / "strategies") == before
    texts = [text for _, _, text in answers(report)]
    no_week = "The subject must name the week and the wrestler, for example: Week 2 brother-bob."
    assert texts[0] == REFUSED.format(no_week) + HELP_WEEK_1  # no strategy quoted back: none was read
    assert texts[1] == REFUSED.format("The subject names no wrestler on the week 1 card (big-earl, brother-bob, friendly-sam, kate-galloway, "
                                      "mad-dog-maddox, relampago, rocky-ridge, silent-crane, skyline-sabrina, victor-vane).") + HELP_WEEK_1
    assert texts[2] == REFUSED.format("stranger@elsewhere.example is not the registered owner of Brother Bob; "
                                      "strategies are accepted only from the owner's address.") + HELP_WEEK_1
    assert texts[3] == REFUSED.format("There is no card for week 12.") + HELP_WEEK_1
    assert [(row[2], row[4], row[5]) for row in seen(demo_fed)] == [
        ("refused", None, None), ("refused", 1, None), ("refused", 1, "brother-bob"), ("refused", None, None), ("command", 1, None), ("refused", None, None)]
    assert seen(demo_fed)[0][3] == no_week + "\nSubject: my strategy"  # the subject kept with the reason

    week_1 = fedtool("status", "1", "--fed", demo_fed)
    assert week_1.exit_code == 0, week_1.output
    lines = week_1.output.splitlines()
    assert ("-      (no side)                        mail 2026-11-20T09:00:00+00:00 refused from bob@players.example: The subject names no wrestler on the "
            "week 1 card (big-earl, brother-bob, friendly-sam, kate-galloway, mad-dog-maddox, relampago, rocky-ridge, silent-crane, skyline-sabrina, "
            "victor-vane). [subject: Week 1 the boss]") in lines
    assert "-      (no side)                        mail 2026-11-20T12:00:00+00:00 command from bob@players.example: status week 1" in lines
    assert ("                                        mail 2026-11-20T10:00:00+00:00 refused: stranger@elsewhere.example is not the registered owner "
            "of Brother Bob; strategies are accepted only from the owner's address.") in lines  # under Brother Bob's side, as before
    long_subject = "Hi! [31m there " + "x" * 62 + "..."  # the escape character out, trimmed to 80
    assert lines[-1] == ("3 mails named no week (bob@players.example: 'my strategy'; bob@players.example: 'Week 12 brother-bob'; "
                         f"eve@elsewhere.example: '{long_subject}')")  # a week with no card is no week
    assert "\x1b" not in week_1.output
    assert fedtool("status", "12", "--fed", demo_fed).exit_code == 1  # no card: as before

    in_play = fedtool("status", "--fed", demo_fed)  # without WEEK: the week in play (1: none has been run)
    assert in_play.exit_code == 0 and in_play.output == week_1.output


def test_status_without_a_week_in_play_counts_the_mail_that_named_none(demo_fed, fedtool, tmp_path):
    for folder in (demo_fed / "strategies").glob("week-*"):
        (folder / "card.yaml").unlink()
    result = fedtool("status", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output == "no week is in play: no week after the last one run has a card\n0 mails named no week\n"


def test_inbox_counts_mail_commands(demo_fed, fedtool, tmp_path):
    folder = eml_folder(tmp_path, [mail("bob@players.example", "help", message_id="<cli-help@x>")])
    result = fedtool("inbox", folder, "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"command   {'bob@players.example':<32} help",
        "0 accepted, 0 refused, 1 mail command, 0 ignored, 0 read before; 1 answer queued"]


# ---------------------------------------------------------------- quoted replies


def announcement_quoted(fed: Path, fedtool) -> str:
    """Week 6 opened, and Brother Bob's announcement as a mail client quotes it in a reply."""
    book_week_six(fed)
    assert fedtool("open", "6", "--fed", fed).exit_code == 0
    announced = message_from_bytes((fed / "outbox/week-06/announcements/mail/m1-brother-bob.eml").read_bytes(), policy=policy.default)
    text = announced.get_body(("plain",)).get_content().replace("\r\n", "\n")
    quoted = "\n".join(f"> {line}".rstrip() for line in text.splitlines())
    return f"On Mon, 23 Nov 2026 at 09:14, Delta Championship Wrestling <fedhead@dcw.example> wrote:\n{quoted}\n"


def test_a_yaml_strategy_above_a_quoted_announcement_is_filed_as_written(demo_fed, fedtool, tmp_path):
    quote = announcement_quoted(demo_fed, fedtool)
    assert quote.count("\n> ") > 10 and "Week 6" in quote
    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    assert "\n    the knee.'}\n" in bob  # indented continuation lines: the library's reading would lose them
    body = bob + "\nThanks,\nBob\n\nSent from my iPhone\n\n" + quote
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [mail("bob@players.example", "Re: Delta Championship Wrestling: Week 6 brother-bob is open", body, message_id="<re@x>")]))
    assert [(o.verdict, o.filed) for o in report.outcomes] == [("accepted", "strategies/week-06/brother-bob.yaml")], report.outcomes[0].why
    assert (demo_fed / "strategies/week-06/brother-bob.yaml").read_text() == bob


def test_a_plain_text_strategy_above_an_outlook_quote_keeps_its_tabs(demo_fed, fedtool, tmp_path):
    quote = announcement_quoted(demo_fed, fedtool).split("\n", 1)[1]
    outlook = ("________________________________\nFrom: Delta Championship Wrestling <fedhead@dcw.example>\nSent: Monday, November 23, 2026 9:14 AM\n"
               "To: mei@players.example\nSubject: Week 2 silent-crane\n\n" + quote.replace("> ", ""))
    week2 = demo_fed / "strategies/week-02"
    crane = (week2 / "silent-crane.txt").read_text()
    assert "\n\t\t\tfor both flyers at once.\n" in crane
    (week2 / "silent-crane.txt").unlink()
    body = crane + "\n" + outlook  # no signature: the Outlook header block alone ends her text
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [mail("mei@players.example", "RE: Week 2 silent-crane", body, message_id="<crane@x>")]))
    assert [(o.verdict, o.filed) for o in report.outcomes] == [("accepted", "strategies/week-02/silent-crane.txt")], report.outcomes[0].why
    assert (week2 / "silent-crane.txt").read_text() == crane


def test_a_face_to_the_mat_yaml_above_a_quote_and_a_signoff_is_filed_as_written(demo_fed, fedtool, tmp_path):
    quote = announcement_quoted(demo_fed, fedtool)
    warden = (demo_fed / "strategies/week-04/the-warden.yaml").read_text()
    (demo_fed / "strategies/week-04/the-warden.yaml").unlink()
    body = warden + "\nBest regards,\nThe Warden's player\n" + quote
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [mail("warden@players.example", "Re: Week 4 the-warden", body, message_id="<warden-re@x>")]))
    assert [(o.verdict, o.filed) for o in report.outcomes] == [("accepted", "strategies/week-04/the-warden.yaml")], report.outcomes[0].why
    assert (demo_fed / "strategies/week-04/the-warden.yaml").read_text() == warden


def test_a_reply_written_below_the_quote_is_read_below_it(demo_fed, tmp_path):
    week = demo_fed / "strategies/week-01"
    bob = (week / "brother-bob.yaml").read_text().replace("Closed fists", "Bottom-posted fists")
    body = "On Fri, 20 Nov 2026 at 09:00, Delta Championship Wrestling <fedhead@dcw.example> wrote:\n> Week 1 is open.\n> plus: [Technical]\n\n" + bob
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [mail("bob@players.example", "Re: Week 1 brother-bob", body, message_id="<below@x>")]))
    assert [o.verdict for o in report.outcomes] == ["accepted"], report.outcomes[0].why
    assert (week / "brother-bob.yaml").read_text() == "\n" + bob  # the blank line below the quote stays: the lines keep their numbers


def test_which_subjects_are_commands():
    from fedtool.mail.commands import Command, parse_command

    assert [parse_command(s) for s in ("help", " Help. ", "status week 6", "STATUS 6", "status week", "status", "resend week 12", "resend 3!")] == [
        Command("help", None), Command("help", None), Command("status", 6), Command("status", 6), Command("status", None),
        Command("status", None), Command("resend", 12), Command("resend", 3)]
    assert [parse_command(s) for s in ("Week 6 brother-bob", "Re: help", "status week 6 brother-bob", "help me", "resend week 12345", "helpful")] == [None] * 6


def test_a_german_mail_clients_quote_is_cut_when_the_fed_reads_german(demo_fed, fedtool, tmp_path):
    """`mail: reply_languages`: the quote headers of the languages a fed sets are known
    ("Am ... schrieb ...:" for de); the default, English only, leaves that line in the
    strategy, which then fails as YAML and is refused with its line (nothing filed)."""
    quote = announcement_quoted(demo_fed, fedtool).split("\n", 1)[1]
    german = "Am Mo., 23. Nov. 2026 um 09:14 Uhr schrieb Delta Championship Wrestling <fedhead@dcw.example>:\n" + quote
    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    sent = [mail("bob@players.example", "Re: Week 6 brother-bob", bob + "\n" + german, message_id="<de-1@x>")]
    report = intake(Fed.load(demo_fed), eml_folder((tmp_path / "en").mkdir() or tmp_path / "en", sent))
    assert report.outcomes[0].verdict == "refused" and "has problems" in report.outcomes[0].why
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  reply_languages: [en, de]\n"))
    sent = [mail("bob@players.example", "Re: Week 6 brother-bob", bob + "\n" + german, message_id="<de-2@x>")]
    report = intake(Fed.load(demo_fed), eml_folder((tmp_path / "de").mkdir() or tmp_path / "de", sent))
    assert [(o.verdict, o.filed) for o in report.outcomes] == [("accepted", "strategies/week-06/brother-bob.yaml")], report.outcomes[0].why
    assert (demo_fed / "strategies/week-06/brother-bob.yaml").read_text() == bob
    settings.write_text(settings.read_text().replace("reply_languages: [en, de]", "reply_languages: [en, xx]"))
    result = fedtool("status", "--fed", demo_fed)
    assert result.exit_code == 1 and "rosters/fed.yaml" in result.output and "mail.reply_languages" in result.output
    assert "unknown reply language 'xx'" in result.output and "Traceback" not in result.output


def test_answers_are_plain_text_without_markdown_backticks(demo_fed, tmp_path):
    """Issue 16 (mail that reads well): an answer is a plain-text mail, and a mail client shows
    Markdown's backticks as they are. The help text, a refusal whose problem fedtool words with
    a code span (Mat Clash: "a strategy is a set of fields such as `prefer:` ...") and a mail
    command's answer say it with quotes; the player's own mail, quoted back, is as sent."""
    report = intake(Fed.load(demo_fed), eml_folder(tmp_path, [
        mail("Bob's Player <bob@players.example>", "help", message_id="<help@x>"),
        mail("Tomas Reyes <tomas@players.example>", "Week 3 tommy-reyes", "- takedown\n- escape  # my `best` card\n", message_id="<list@x>"),
        mail("stranger@elsewhere.example", "status week 1", message_id="<status@x>"),
    ]))
    texts = [body for _, _, body in answers(report)]
    assert len(texts) == 3
    assert 'with the subject "Week <week> <wrestler-id>"' in texts[0]
    refused, quoted = texts[1].split("Your mail, as it reached us:", 1)
    assert '"prefer:"' in refused and "`" not in refused
    assert "my `best` card" in quoted  # the player's text, never rewritten
    assert 'nothing to show for "status week 1"' in texts[2]
    assert not any("`" in text for text in (texts[0], texts[2]))
