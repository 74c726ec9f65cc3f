"""Intake is a transaction per mail (issue 13, item 3 of "What to build"): a mail that makes
anything fail is answered with an apology, kept raw in strategies/quarantine/ under its hash,
recorded as quarantined (never judged again), listed by `fedtool status`; the mails around it
are read as usual and nothing of it is left half-filed. A mail that kills the intake itself
(a power cut, a signal) is judged once more, and quarantined if it kills that one too."""

from __future__ import annotations

import hashlib
import mailbox
import sqlite3
from email import message_from_bytes, policy
from pathlib import Path

import pytest

import fedtool.mail.intake as intake_module
from fedtool.fed.settings import Fed
from fedtool.mail.intake import APOLOGY, intake

from test_inbox_identity import raw_mail

APOLOGY_TEXT = ("Your mail could not be judged: fedtool ran into a fault of its own while reading it. We are sorry.\n\n"
                "Nothing was filed; any strategy you sent before still stands. The mail is kept for the fedhead, who will look at it; "
                "you may also send it again in another form (the strategy as plain text in the body, or as one attachment).\n")


@pytest.fixture
def week_of_mail(demo_fed, tmp_path):
    """Three strategy mails, each changing its wrestler's filed strategy: Bob's, Sam's, Earl's."""
    folder = demo_fed / "strategies/week-01"
    texts = {w: (folder / f"{w}.yaml").read_text() for w in ("brother-bob", "friendly-sam", "big-earl")}
    changed = {"brother-bob": texts["brother-bob"].replace("Closed fists", "New fists"),
               "friendly-sam": texts["friendly-sam"] + "# Sam's new plan\n",
               "big-earl": texts["big-earl"] + "# Earl's new plan\n"}
    owners = {"brother-bob": "bob", "friendly-sam": "sam", "big-earl": "earl"}
    mails = [raw_mail(f"{owners[w]}@players.example", f"Week 1 {w}", changed[w], f"<{w}@x>") for w in changed]
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for m in mails:
        box.add(m)
    return tmp_path / "Maildir", folder, texts, changed, mails


def rows(fed_dir: Path) -> list[tuple]:
    return sqlite3.connect(fed_dir / "fed.db").execute("SELECT message_id, verdict, week, wrestler_id FROM inbox_seen ORDER BY rowid").fetchall()


def test_a_mail_that_crashes_the_checker_is_quarantined_and_the_rest_is_read(demo_fed, week_of_mail, monkeypatch, fedtool):
    source, folder, texts, changed, mails = week_of_mail
    real = intake_module.check_strategy_file

    def check(fed, path, wrestler_id=None, *args, **kwargs):
        if wrestler_id == "friendly-sam":
            raise KeyError("the checker fell over")
        return real(fed, path, wrestler_id, *args, **kwargs)

    monkeypatch.setattr(intake_module, "check_strategy_file", check)
    report = intake(Fed.load(demo_fed), source)
    kept = f"strategies/quarantine/{hashlib.sha256(mails[1]).hexdigest()[:32]}.eml"
    why = f"fedtool failed while judging this mail (KeyError: 'the checker fell over'); kept for the fedhead as {kept}"
    assert [(o.message_id, o.verdict, o.why) for o in report.outcomes] == [
        ("<brother-bob@x>", "accepted", "Brother Bob, week 1"), ("<friendly-sam@x>", "quarantined", why), ("<big-earl@x>", "accepted", "Big Earl Hollis, week 1")]
    assert (demo_fed / kept).read_bytes() == mails[1]  # the mail as it came, for the fedhead
    assert (folder / "friendly-sam.yaml").read_text() == texts["friendly-sam"]  # nothing filed for it
    assert (folder / "brother-bob.yaml").read_text() == changed["brother-bob"] and (folder / "big-earl.yaml").read_text() == changed["big-earl"]
    assert not list(folder.glob("~incoming~*"))  # nothing half-filed
    apology = message_from_bytes(report.replies[1].read_bytes(), policy=policy.default)
    assert (apology["To"], apology["Subject"], apology.get_content()) == ("sam@players.example", "Re: Week 1 friendly-sam", APOLOGY_TEXT)
    assert APOLOGY == APOLOGY_TEXT
    assert rows(demo_fed) == [("<brother-bob@x>", "accepted", 1, "brother-bob"), ("<friendly-sam@x>", "quarantined", 1, "friendly-sam"),
                              ("<big-earl@x>", "accepted", 1, "big-earl")]
    monkeypatch.undo()  # the checker mended: the quarantined mail is still never judged again
    again = intake(Fed.load(demo_fed), source)
    assert [o.verdict for o in again.outcomes] == ["duplicate"] * 3 and again.replies == []
    status = fedtool("status", "1", "--fed", demo_fed)
    assert status.exit_code == 0, status.output
    assert (f"1 mail quarantined (they made fedtool fail; each was answered with an apology and is listed here until you delete its file):\n"
            f"  {kept}: {report.outcomes[1].arrived} from sam@players.example: fedtool failed while judging this mail (KeyError: 'the checker fell over')\n") in status.output
    assert f"mail {report.outcomes[1].arrived} quarantined: fedtool failed while judging this mail" in status.output  # under Sam's side too
    (demo_fed / kept).unlink()  # the fedhead has dealt with it
    assert "quarantined (they made" not in fedtool("status", "1", "--fed", demo_fed).output


def test_a_failure_after_the_check_files_nothing(demo_fed, week_of_mail, monkeypatch):
    """The strategy is filed only once its answer is built: an answer that cannot be built
    leaves the filed strategy as it was, and the apology goes instead."""
    source, folder, texts, changed, mails = week_of_mail
    real = intake_module.answer_bytes

    def reply(fed, original_id, to, subject, text, *rest):
        if text.startswith("Accepted: the strategy for Friendly Sam"):
            raise UnicodeEncodeError("utf-8", "x", 0, 1, "the answer could not be written")
        return real(fed, original_id, to, subject, text, *rest)

    monkeypatch.setattr(intake_module, "answer_bytes", reply)
    report = intake(Fed.load(demo_fed), source)
    assert [o.verdict for o in report.outcomes] == ["accepted", "quarantined", "accepted"]
    kept = f"strategies/quarantine/{hashlib.sha256(mails[1]).hexdigest()[:32]}.eml"
    assert report.outcomes[1].why == ("fedtool failed while judging this mail (UnicodeEncodeError: 'utf-8' codec can't encode character '\\x78' in position 0: "
                                      f"the answer could not be written); kept for the fedhead as {kept}")
    assert (folder / "friendly-sam.yaml").read_text() == texts["friendly-sam"]
    assert not list(folder.glob("~incoming~*"))
    assert message_from_bytes(report.replies[1].read_bytes(), policy=policy.default).get_content() == APOLOGY_TEXT


def test_a_quarantined_mail_from_a_garbled_sender_is_kept_but_not_answered(demo_fed, tmp_path, monkeypatch):
    def named(*args):  # the one step a garbled From: goes through
        raise RuntimeError("boom")

    monkeypatch.setattr(intake_module, "_named", named)
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(raw_mail("a@players.example, b@players.example", "Week 1 brother-bob", "x", "<garbled@x>"))
    report = intake(Fed.load(demo_fed), tmp_path / "Maildir")
    assert [o.verdict for o in report.outcomes] == ["quarantined"] and report.replies == []
    assert rows(demo_fed) == [("<garbled@x>", "quarantined", None, None)]


class Killed(BaseException):
    """The process dying while it reads a mail (a segfault, SIGKILL): nothing after it runs."""


def test_a_mail_that_kills_intake_twice_is_quarantined_the_third_time(demo_fed, week_of_mail, monkeypatch):
    source, folder, texts, changed, mails = week_of_mail
    judged, real = [], intake_module._judge

    def judge(fed, message, *args):
        judged.append(message["Message-ID"])
        if message["Message-ID"] == "<friendly-sam@x>":
            raise Killed()
        return real(fed, message, *args)

    monkeypatch.setattr(intake_module, "_judge", judge)
    for mark in ("reading", "reading again"):
        with pytest.raises(Killed):
            intake(Fed.load(demo_fed), source)
        assert ("<friendly-sam@x>", mark, None, None) in rows(demo_fed)
    assert judged == ["<brother-bob@x>", "<friendly-sam@x>", "<friendly-sam@x>"]  # a mail killed once is judged once more
    report = intake(Fed.load(demo_fed), source)
    assert judged == ["<brother-bob@x>", "<friendly-sam@x>", "<friendly-sam@x>", "<big-earl@x>"]  # the third time: not judged at all
    assert [(o.message_id, o.verdict) for o in report.outcomes] == [
        ("<brother-bob@x>", "duplicate"), ("<friendly-sam@x>", "quarantined"), ("<big-earl@x>", "accepted")]
    assert report.outcomes[1].why.startswith("fedtool failed while judging this mail (intake stopped twice while reading it); kept for the fedhead as strategies/quarantine/")
    assert rows(demo_fed)[1:] == [("<friendly-sam@x>", "quarantined", 1, "friendly-sam"), ("<big-earl@x>", "accepted", 1, "big-earl")]
    assert (folder / "friendly-sam.yaml").read_text() == texts["friendly-sam"] and not list(folder.glob("~incoming~*"))


def test_a_mail_killed_once_is_judged_again_and_filed(demo_fed, week_of_mail, monkeypatch):
    source, folder, texts, changed, mails = week_of_mail
    real, calls = intake_module._judge, []

    def judge(fed, message, *args):
        calls.append(message["Message-ID"])
        if calls == ["<brother-bob@x>"]:
            raise Killed()
        return real(fed, message, *args)

    monkeypatch.setattr(intake_module, "_judge", judge)
    with pytest.raises(Killed):
        intake(Fed.load(demo_fed), source)
    report = intake(Fed.load(demo_fed), source)
    assert [o.verdict for o in report.outcomes] == ["accepted"] * 3
    assert (folder / "brother-bob.yaml").read_text() == changed["brother-bob"]
    assert [r[1] for r in rows(demo_fed)] == ["accepted"] * 3


def test_a_broken_card_stops_intake_and_leaves_the_mail_unread(demo_fed, week_of_mail, fedtool):
    """A FedError is the fed's own files, not the mail: intake stops with its message, and the
    mail is read again once the fedhead has mended the file."""
    source, folder, *_ = week_of_mail
    card = folder / "card.yaml"
    good = card.read_text()
    card.write_text(good.replace("matches:", "matches: [", 1))
    result = fedtool("inbox", source, "--fed", demo_fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert rows(demo_fed) == []
    card.write_text(good)
    assert [o.verdict for o in intake(Fed.load(demo_fed), source).outcomes] == ["accepted"] * 3


def test_send_keeps_an_answer_whose_verdict_was_never_recorded(demo_fed, week_of_mail, monkeypatch):
    """An intake stopped after writing a mail's answer and before recording its verdict: a
    `fedtool send` run then does not send the answer (the mail is still marked as being
    read; the next intake judges it again and writes the answer again, under the same
    Message-ID); once the verdict is recorded, the answer goes."""
    from fedtool.mail.outgoing import send_outbox

    source, folder, texts, changed, mails = week_of_mail
    real = intake_module.write_answer
    written = []

    def write_then_die(fed, outcome, message_id, reply):
        written.append(real(fed, outcome, message_id, reply))
        raise Killed()

    monkeypatch.setattr(intake_module, "write_answer", write_then_die)
    with pytest.raises(Killed):
        intake(Fed.load(demo_fed), source)
    (answer,) = written
    assert answer.exists() and rows(demo_fed) == [("<brother-bob@x>", "reading", None, None)]
    report = send_outbox(Fed.load(demo_fed), dry_run=True)
    assert str(answer.relative_to(demo_fed)) in report.unjudged
    assert not any(line.startswith(str(answer.relative_to(demo_fed))) for line in report.sent)
    monkeypatch.setattr(intake_module, "write_answer", real)
    intake(Fed.load(demo_fed), source)
    report = send_outbox(Fed.load(demo_fed), dry_run=True)
    assert report.unjudged == [] and any(line.startswith(str(answer.relative_to(demo_fed))) for line in report.sent)
