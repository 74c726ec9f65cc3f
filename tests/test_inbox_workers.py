"""Mail judged side by side (issue 18 item 4, issue 12's tick benchmark): a mailbox big enough
for worker processes gives byte for byte the filed strategies, the answers and the records
that judging its mails one by one gives, with each wrestler's mails taken in arrival order."""

from __future__ import annotations

import datetime
import hashlib
import mailbox
import shutil
import sqlite3
from pathlib import Path

from fedtool.fed.settings import Fed
from fedtool.mail import intake as intake_module
from fedtool.mail import workers as workers_module
from fedtool.mail.intake import intake

from test_inbox import mail

NOW = datetime.datetime(2026, 11, 20, 18, tzinfo=datetime.timezone.utc)
OWNERS = {"brother-bob": "bob@players.example", "friendly-sam": "sam@players.example", "big-earl": "earl@players.example",
          "rocky-ridge": "hank@players.example", "relampago": "luis@players.example"}


def mailbox_of(folder, week):
    """130 mails for week 1: good strategies (each its own text), broken ones, forged ones, mail
    naming no wrestler or no week, a mail command in the middle, a mail read twice."""
    texts = {w: (week / f"{w}.yaml").read_text() for w in OWNERS}
    box = mailbox.Maildir(folder, create=True)
    ids = list(OWNERS)
    for i in range(130):
        wid = ids[i % len(ids)]
        text = texts[wid] + f"# mail {i}\n"
        if i % 7 == 3:  # a broken strategy never replaces a good one
            text = text.replace("plus: [", "plus: [Teamwork, ", 1)
        sender = OWNERS[wid] if i % 11 != 5 else "spoofer@attacker.example"
        subject = f"Week 1 {wid}"
        if i == 40:
            subject = "Week 1 nobody-here"
        elif i == 41:
            subject = "hello there"
        elif i == 60:
            subject, text = "status week 1", ""
        elif i == 61:
            subject = "Week 1 brother-bob and big-earl"  # names wrestlers of two matches
        box.add(mail(sender, subject, text, message_id=f"<side-{i}@players.example>"))
    box.add(mail(OWNERS["relampago"], "Week 1 relampago", texts["relampago"], message_id="<side-3@players.example>"))  # read before
    return folder


def files_of(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".yaml", ".txt", ".eml")}


def records(root):
    with sqlite3.connect(root / "fed.db") as db:
        return db.execute("SELECT message_id, sender, verdict, why, week, wrestler_id, arrived FROM inbox_seen ORDER BY message_id").fetchall()


def test_side_by_side_is_one_by_one(demo_fed, tmp_path, monkeypatch):
    box = mailbox_of(tmp_path / "Maildir", demo_fed / "strategies/week-01")
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    shutil.copytree(demo_fed, serial)
    shutil.copytree(demo_fed, parallel)
    forked = []
    real = workers_module.judge_side_by_side

    def counted(segment, places, workers, judge, ready=None):
        forked.append((len(segment), workers))
        return real(segment, places, workers, judge, ready)

    monkeypatch.setattr(workers_module, "judge_side_by_side", counted)
    monkeypatch.setattr(intake_module, "workers_pay", lambda asked: 1 if asked == 1 else 3)  # side by side even on one core
    handed = {serial: [], parallel: []}

    def answered(root):
        def hand_on(answers):  # what `fedtool tick`'s courier is given: answers whose mails' verdicts are committed
            with sqlite3.connect(f"file:{root / 'fed.db'}?mode=ro", uri=True) as db:  # another connection sees only what is committed
                verdicts = dict(db.execute("SELECT message_id, verdict FROM inbox_seen").fetchall())
            handed[root].extend((str(path.relative_to(root)), message_id, to, verdicts) for path, message_id, to in answers)
        return hand_on

    one = intake(Fed.load(serial), box, NOW, workers=1, answered=answered(serial))
    assert forked == []
    many = intake(Fed.load(parallel), box, NOW, answered=answered(parallel))
    assert forked and all(size >= intake_module.PARALLEL_MIN and workers == 3 for size, workers in forked)  # the workers judged
    assert [(o.message_id, o.verdict, o.why, o.filed, o.week, o.wrestler_id, o.arrived) for o in one.outcomes] == \
           [(o.message_id, o.verdict, o.why, o.filed, o.week, o.wrestler_id, o.arrived) for o in many.outcomes]
    verdicts = [o.verdict for o in one.outcomes]
    assert verdicts.count("accepted") > 50 and verdicts.count("refused") > 20 and verdicts.count("command") == 1 and verdicts.count("duplicate") == 1
    assert files_of(serial / "strategies") == files_of(parallel / "strategies")
    assert files_of(serial / "outbox") == files_of(parallel / "outbox")  # every answer, byte for byte
    assert len(files_of(parallel / "outbox")) == 130
    assert records(serial) == records(parallel)
    # the answers handed on to be sent: the same, in the mailbox's order, each once its mail's verdict was committed
    assert [h[:3] for h in handed[serial]] == [h[:3] for h in handed[parallel]]
    by_hash = {hashlib.sha256(o.message_id.encode()).hexdigest()[:16]: o for o in many.outcomes if o.verdict != "duplicate"}
    answered_mails = [by_hash[Path(file).stem] for file, _, _, _ in handed[parallel]]
    assert [o.message_id for o in answered_mails] == [o.message_id for o in many.outcomes if o.verdict != "duplicate" and o.verdict != "ignored"]
    for (file, message_id, to, verdicts), outcome in zip(handed[parallel], answered_mails):
        assert verdicts[outcome.message_id] == outcome.verdict, file
        assert many.answers[parallel / file] == (message_id, to)
    assert len(handed[parallel]) == len(many.answers) == 130
    # each wrestler's last good strategy is the one filed (arrival order kept within a worker)
    last_good = {o.wrestler_id: o.message_id for o in many.outcomes if o.verdict == "accepted"}
    for wid, message_id in last_good.items():
        number = int(message_id.split("-")[1].split("@")[0])
        assert (parallel / f"strategies/week-01/{wid}.yaml").read_text().endswith(f"# mail {number}\n")


def test_a_mail_judged_again_is_answered_under_the_same_id(demo_fed, tmp_path):
    """A mail whose intake died after its answer was queued (its mark left as "reading") is
    judged again: its answer keeps its Message-ID, so a `send` between the two intakes and
    the one after deliver it once (issue 12: every mail answered exactly once)."""
    from email import message_from_bytes, policy

    week = demo_fed / "strategies/week-01"
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(mail(OWNERS["brother-bob"], "Week 1 brother-bob", (week / "brother-bob.yaml").read_text(), message_id="<again@players.example>"))
    first = intake(Fed.load(demo_fed), tmp_path / "Maildir", NOW)
    answer = first.replies[0]
    before = message_from_bytes(answer.read_bytes(), policy=policy.default)["Message-ID"]
    with sqlite3.connect(demo_fed / "fed.db") as db:  # as an intake killed after queueing the answer leaves it
        db.execute("UPDATE inbox_seen SET verdict = ? WHERE message_id = ?", [intake_module.READING, "<again@players.example>"])
    again = intake(Fed.load(demo_fed), tmp_path / "Maildir", NOW)
    assert [o.verdict for o in again.outcomes] == ["accepted"] and again.replies == [answer]
    assert message_from_bytes(answer.read_bytes(), policy=policy.default)["Message-ID"] == before
    assert again.answers == {answer: (before, "bob@players.example")}  # what `send` is told, without parsing the file back
