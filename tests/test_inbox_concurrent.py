"""Two `fedtool inbox` on one mailbox at once (issue 13, item 8's lock and "Done when"): one
works, the other says the fed is busy at once (`inbox`, like `tick`, does not wait: the one
reading reads every mail); no mail is answered twice. Real processes, a real Maildir of 50
mails, the fed's real lock."""

from __future__ import annotations

import mailbox
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from test_inbox_identity import raw_mail

MAILS = 50
BUSY = ".fedtool.lock: another fedtool command is writing to this fed (waited 0 s); run this again when it has finished [one writer at a time]"

# `fedtool inbox` as cron or a fedhead runs it, but it stops before judging its 25th mail
# until told to go on (a line on its stdin): the test knows the first holds the lock then.
PAUSING = """
import sys
import fedtool.mail.intake as intake
from fedtool.cli import cli

real, judged = intake._judge, []

def judge(*args):
    judged.append(1)
    if len(judged) == 25:
        print("paused", flush=True)
        sys.stdin.readline()
    return real(*args)

intake._judge = judge
cli.main(["inbox", *sys.argv[1:]], prog_name="fedtool")
"""


@pytest.fixture
def fifty(demo_fed, tmp_path) -> Path:
    """50 mails: strategies from Bob (each stands and replaces the last), help commands, and
    mails for wrestlers of other owners from the wrong address."""
    good = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for n in range(MAILS):
        if n % 3 == 0:
            box.add(raw_mail("bob@players.example", "Week 1 brother-bob", good.replace("Closed fists", f"Fists {n}"), f"<m{n}@x>"))
        elif n % 3 == 1:
            box.add(raw_mail(f"fan{n}@fans.example", "help", "", f"<m{n}@x>"))
        else:
            box.add(raw_mail(f"fan{n}@fans.example", "Week 1 friendly-sam", good, f"<m{n}@x>"))
    return tmp_path / "Maildir"


def inbox(fed: Path, source: Path, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "fedtool", "inbox", str(source), "--fed", str(fed)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def answered_once(fed: Path, outputs: list[str]) -> None:
    """Every mail judged and answered by exactly one of the processes, and recorded once."""
    judged = [line.split()[0] for out in outputs for line in out.splitlines() if line.split() and line.split()[0] in ("accepted", "refused", "command")]
    assert len(judged) == MAILS
    assert sorted(judged) == sorted(["accepted"] * 17 + ["command"] * 17 + ["refused"] * 16)
    answers = list((fed / "outbox/replies").rglob("*.eml"))
    assert len(answers) == MAILS
    rows = sqlite3.connect(fed / "fed.db").execute("SELECT message_id, verdict FROM inbox_seen").fetchall()
    assert sorted(m for m, _ in rows) == sorted(f"<m{n}@x>" for n in range(MAILS))
    assert {v for _, v in rows} == {"accepted", "command", "refused"}
    filed = (fed / "strategies/week-01/brother-bob.yaml").read_text()
    assert "Fists 48" in filed and "Fists 45" not in filed  # the last of Bob's mails stands


def test_a_second_inbox_while_the_first_reads_says_the_fed_is_busy(demo_fed, fifty):
    first = subprocess.Popen([sys.executable, "-c", PAUSING, str(fifty), "--fed", str(demo_fed)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout.readline() == "paused\n"  # the first holds the lock, 24 mails read
        second = inbox(demo_fed, fifty)
        out, err = second.communicate(timeout=120)
        assert (second.returncode, out) == (1, "")
        assert err == f"error: {BUSY}\n"
        first.stdin.write("go\n")
        first.stdin.flush()
        rest, err = first.communicate(timeout=120)
    finally:
        first.kill()
    assert first.returncode == 0, err
    assert rest.splitlines()[-1] == f"17 accepted, 16 refused, 17 mail commands, 0 ignored, 0 read before; {MAILS} answers queued"
    answered_once(demo_fed, [rest])
    third = inbox(demo_fed, fifty)  # afterwards: every mail read before, nothing answered again
    out, _ = third.communicate(timeout=120)
    assert out.splitlines()[-1] == f"0 accepted, 0 refused, 0 ignored, {MAILS} read before; 0 answers queued"


def test_two_inboxes_started_together_answer_each_mail_once(demo_fed, fifty):
    both = [inbox(demo_fed, fifty), inbox(demo_fed, fifty)]
    results = [(p.communicate(timeout=180), p.returncode) for p in both]
    for (out, err), code in results:
        assert (code, err) in ((0, ""), (1, f"error: {BUSY}\n")), err  # it worked, or said the fed is busy: nothing else
    assert 0 in [code for _, code in results]
    answered_once(demo_fed, [out for (out, _), _ in results])
