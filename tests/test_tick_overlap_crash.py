"""A killed `fedtool tick` while it judges a big mailbox side by side and sends the answers
as it goes (issue 12's benchmark path: workers, verdicts recorded a chunk at a time, a
courier thread sending each chunk once its commit is done). SIGKILL lands anywhere in the
tick, mid-chunk included; each time a second tick finishes the work: no answer goes out
twice, none is lost (but the one a kill caught in flight, said and never repeated), the
strategies filed and the answers queued are byte for byte those of a tick never killed,
and the league passes SQLite's integrity check."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from email import message_from_bytes, policy

import pytest

from golden import ROOT
from test_send import smtp_server  # noqa: F401  (the aiosmtpd fixture)
from test_tick import Post, at

KILLS = 10
MAILS = 100  # more than intake.PARALLEL_MIN: judged side by side
SECRET = "overlap-crash-secret"
NOW = str(int(at(25, 12).timestamp()))  # before week 6's deadline: the tick reads, answers and sends, and runs nothing
CARD = """week: 6
deadline: 2026-11-27T18:00:00Z
matches:
  - {id: m1, sides: [brother-bob, friendly-sam], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]]}
  - {id: m2, sides: [rocky-ridge, big-earl], grid: [[Br, HF, Br], [Te, Po, Ch], [Po, HF, Br]]}
"""
OWNERS = {"brother-bob": "bob@players.example", "friendly-sam": "sam@players.example", "rocky-ridge": "hank@players.example", "big-earl": "earl@players.example"}
# the tick as `fedtool tick`, with two workers however many cores the machine running the test has
TICK = "import fedtool.mail.intake as i; i.workers_pay = lambda asked: 2; from fedtool.cli import cli; cli(prog_name='fedtool')"


def make_fed(folder, port):
    """A fed with week 6 open and MAILS strategy mails waiting (good, broken, forged), each its own text."""
    for sub in ("rosters", "templates"):
        shutil.copytree(ROOT / sub, folder / sub)
    (folder / "strategies/week-06").mkdir(parents=True)
    (folder / "strategies/week-06/card.yaml").write_text(CARD)
    settings = folder / "rosters/fed.yaml"
    text = settings.read_text().replace("secret: demo-fed-secret-not-for-real-feds", f"secret: {SECRET}")
    settings.write_text(text.replace("  reply_to: strategies@dcw.example\n", f"  reply_to: strategies@dcw.example\n  inbox: {folder / 'Maildir'}\n"
                                     f"  smtp: {{host: 127.0.0.1, port: {port}, security: none}}\n"))
    week1 = ROOT / "strategies/week-01"
    post = Post(folder / "Maildir")
    ids = list(OWNERS)
    for i in range(MAILS):
        wid = ids[i % len(ids)]
        body = (week1 / f"{wid}.yaml").read_text() + f"# mail {i}\n"
        if i % 9 == 4:  # a broken strategy never replaces a good one
            body = body.replace("plus: [", "plus: [Teamwork, ", 1)
        sender = OWNERS[wid] if i % 13 != 6 else "spoofer@attacker.example"
        post.deliver(at(24, 12, i % 60), sender, f"Week 6 {wid}", body, f"<overlap-{i}@players.example>")


def tick(folder):
    return subprocess.Popen([sys.executable, "-c", TICK, "tick", "--fed", str(folder)], env={**os.environ, "SOURCE_DATE_EPOCH": NOW},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def files_of(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def answer_ids(folder):
    return {message_from_bytes(p.read_bytes(), policy=policy.default)["Message-ID"] for p in (folder / "outbox/replies").rglob("mail/*.eml")}


@pytest.mark.slow
def test_a_tick_killed_while_it_judges_and_sends_side_by_side(tmp_path, smtp_server):  # noqa: F811
    inbox, port = smtp_server
    rng = random.Random(20261124)
    whole = tmp_path / "whole"  # the tick never killed: what every killed one must come to
    make_fed(whole, port)
    start = time.monotonic()
    done = tick(whole)
    out, err = done.communicate(timeout=300)
    span = time.monotonic() - start
    assert done.returncode == 0, err
    assert "read 100 mails" in out and "sent 100 mails" in out, out
    expected = answer_ids(whole)
    assert len(expected) == MAILS  # every mail answered: accepted, or refused with why (a forged one to its From:)
    assert sorted(m["Message-ID"] for _, m in inbox.mails) == sorted(expected)
    strategies, replies = files_of(whole / "strategies"), files_of(whole / "outbox/replies")
    inbox.mails.clear()

    for n in range(KILLS):
        fed = tmp_path / f"fed-{n:02d}"
        make_fed(fed, port)
        first = len(inbox.mails)
        killed = tick(fed)
        time.sleep(rng.uniform(0.25, 0.9) * span)  # anywhere in the tick, mostly while it judges and sends
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        again = tick(fed)
        out, err = again.communicate(timeout=300)
        assert again.returncode == 0, f"kill {n}: {err}"
        with sqlite3.connect(fed / "fed.db") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",), f"kill {n}"
            unsettled = db.execute("SELECT count(*) FROM inbox_seen WHERE verdict LIKE 'reading%'").fetchone()[0]
            uncertain = {row[0] for row in db.execute("SELECT message_id FROM sent_mail WHERE sent_at LIKE 'uncertain%'")}
            recorded = db.execute("SELECT count(*) FROM inbox_seen").fetchone()[0]
        assert unsettled == 0 and recorded == MAILS, f"kill {n}: every mail judged and recorded once"
        assert not list(fed.rglob("~incoming~*")), f"kill {n}: leftovers"
        received = [m["Message-ID"] for _, m in inbox.mails[first:]]
        assert len(received) == len(set(received)), f"kill {n}: an answer went out twice"
        assert set(received) <= expected, f"kill {n}: an answer no tick should send"
        assert expected - set(received) <= uncertain and len(uncertain) <= 1, f"kill {n}: an answer lost"
        assert files_of(fed / "strategies") == strategies, f"kill {n}: the strategies filed differ"
        assert files_of(fed / "outbox/replies") == replies, f"kill {n}: the answers differ"
