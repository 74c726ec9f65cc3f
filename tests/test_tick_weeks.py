"""Two whole weeks driven by `fedtool tick` alone (issue 12), against a real Dovecot over TLS
and aiosmtpd on loopback, with a moving clock: mails in (good, bad, forged, late, an
auto-reply, a reply to the announcement, a wrestler booked twice, a Face to the Mat
strategy in the body), answers out, reminders only to the right players and never stale, the
run at the deadline, results out, a rerun and its correction. Every mail is counted by
recipient and subject."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from collections import Counter
from email.message import EmailMessage
from email.utils import format_datetime

from golden import ROOT
from test_inbox_imap import dovecot_server, put, server  # noqa: F401  (the Dovecot fixtures)
from test_send import smtp_server  # noqa: F401  (the aiosmtpd fixture)

UTC = datetime.timezone.utc
WEEK6 = """week: 6
deadline: 2026-11-27T18:00:00Z
matches:
  - {id: m1, sides: [brother-bob, friendly-sam], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]], strategies: {brother-bob: bob-m1.yaml}}
  - {id: m2, sides: [brother-bob, rocky-ridge], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]], strategies: {brother-bob: bob-m2.yaml}}
  - {id: m3, ruleset: facemat, sides: [vince-valor, the-warden]}
"""
WEEK7 = """week: 7
deadline: 2026-12-04T18:00:00Z
matches:
  - {id: m1, sides: [rocky-ridge, friendly-sam], grid: [[Br, Po, Po], [HF, Br, We], [HF, Te, We]]}
"""


def at(month, day, hour, minute=0):
    return datetime.datetime(2026, month, day, hour, minute, tzinfo=UTC)


def fedtool_at(fed, when, *args):
    """The fedtool command as cron or the fedhead runs it, at `when` by the fed's clock."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(int(when.timestamp()))}
    return subprocess.run([sys.executable, "-m", "fedtool", *args, "--fed", str(fed)], env=env, capture_output=True, text=True, timeout=120)


def mail(imap, when, sender, subject, body, message_id, **headers):
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "strategies@dcw.example", subject, message_id
    m["Date"] = format_datetime(when - datetime.timedelta(minutes=1))
    for key, value in headers.items():
        m[key.replace("_", "-")] = value
    m.set_content(body)
    put(imap, bytes(m), arrived=when)  # its INTERNALDATE: when the fed's server received it


def test_two_weeks_run_themselves(tmp_path, server, smtp_server):  # noqa: F811
    inbox, port = smtp_server
    fed = tmp_path / "fed"
    (fed / "strategies").mkdir(parents=True)
    for sub in ("rosters", "templates"):
        subprocess.run(["cp", "-r", str(ROOT / sub), str(fed / sub)], check=True)
    (fed / "strategies/week-06").mkdir()
    (fed / "strategies/week-06/card.yaml").write_text(WEEK6)
    settings = fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(
        "  reply_to: strategies@dcw.example\n",
        f"  reply_to: strategies@dcw.example\n  inbox: {server.source()}\n  remind: [48h, 6h]\n"
        f"  smtp: {{host: 127.0.0.1, port: {port}, security: none}}\n").replace("  matchmatch:\n", "  matchmatch:\n    missing_strategy: default\n")
        + "schedule: {tick_every: 1d}\n")
    week1, week4 = ROOT / "strategies/week-01", ROOT / "strategies/week-04"
    bob, sam, rocky = ((week1 / f"{w}.yaml").read_text() for w in ("brother-bob", "friendly-sam", "rocky-ridge"))
    seen = 0

    def tick(when, *expected):
        nonlocal seen
        done = fedtool_at(fed, when, "tick")
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == list(expected), done.stdout + "\n".join(m.get_body(("plain",)).get_content()[:600] for _, m in inbox.mails[seen:])
        new = Counter((rcpt[0], str(m["Subject"])) for rcpt, m in inbox.mails[seen:])
        seen = len(inbox.mails)
        return new

    # the fedhead opens week 6 on Monday: one announcement per side
    assert fedtool_at(fed, at(11, 23, 10), "open", "6").returncode == 0
    assert tick(at(11, 23, 10, 5), "sent 6 mails") == Counter({
        ("bob@players.example", "Delta Championship Wrestling: Week 6 brother-bob m1 is open"): 1,
        ("bob@players.example", "Delta Championship Wrestling: Week 6 brother-bob m2 is open"): 1,
        ("sam@players.example", "Delta Championship Wrestling: Week 6 friendly-sam m1 is open"): 1,
        ("hank@players.example", "Delta Championship Wrestling: Week 6 rocky-ridge m2 is open"): 1,
        ("vince@players.example", "Delta Championship Wrestling: Week 6 vince-valor m3 is open"): 1,
        ("warden@players.example", "Delta Championship Wrestling: Week 6 the-warden m3 is open"): 1})

    # Tuesday: a reply to the announcement, the second match named, a bad one, a forged one, an auto-reply
    mail(server, at(11, 24, 12), "bob@players.example", "Re: Delta Championship Wrestling: Week 6 brother-bob m1 is open", bob, "<w6-bob-m1@x>")
    mail(server, at(11, 24, 12, 10), "bob@players.example", "Week 6 brother-bob m2", bob, "<w6-bob-m2@x>")
    mail(server, at(11, 24, 13), "sam@players.example", "Week 6 friendly-sam", sam.replace("plus: [High-Flying, Technical]", "plus: [High-Flying, Teamwork]"), "<w6-sam-bad@x>")
    mail(server, at(11, 24, 13, 5), "Sam <evil@attacker.example>", "Week 6 friendly-sam", sam, "<w6-forged@x>")
    mail(server, at(11, 24, 14), "hank@players.example", "Out of office: Week 6 rocky-ridge", "Back on Friday.", "<w6-ooo@x>", Auto_Submitted="auto-replied")
    mail(server, at(11, 25, 9), "warden@players.example", "Week 6 the-warden", (week4 / "the-warden.yaml").read_text(), "<w6-warden@x>")
    assert tick(at(11, 25, 9, 5), "read 6 mails: 3 accepted, 2 refused, 1 ignored", "sent 5 mails") == Counter({
        ("bob@players.example", "Re: Re: Delta Championship Wrestling: Week 6 brother-bob m1 is open"): 1,
        ("bob@players.example", "Re: Week 6 brother-bob m2"): 1,
        ("sam@players.example", "Re: Week 6 friendly-sam"): 1,
        ("evil@attacker.example", "Re: Week 6 friendly-sam"): 1,
        ("warden@players.example", "Re: Week 6 the-warden"): 1})
    assert sorted(p.name for p in (fed / "strategies/week-06").iterdir()) == ["bob-m1.yaml", "bob-m2.yaml", "card.yaml", "opening.yaml", "the-warden.yaml"]

    # Wednesday 18:00, 48 hours before: Sam (only a refused mail) and Hank (nothing) are reminded
    assert tick(at(11, 25, 18, 5), "week 6: 2 reminders queued (48 hours before the deadline)", "sent 2 mails") == Counter({
        ("sam@players.example", "Delta Championship Wrestling: week 6 reminder"): 1,
        ("hank@players.example", "Delta Championship Wrestling: week 6 reminder"): 1})
    # Thursday: Sam's good strategy; Friday noon, 6 hours before: only Hank is reminded
    mail(server, at(11, 26, 10), "sam@players.example", "Week 6 friendly-sam", sam, "<w6-sam-good@x>")
    assert tick(at(11, 26, 10, 5), "read 1 mail: 1 accepted", "sent 1 mail") == Counter({("sam@players.example", "Re: Week 6 friendly-sam"): 1})
    assert tick(at(11, 27, 12, 5), "week 6: 1 reminder queued (6 hours before the deadline)", "sent 1 mail") == Counter({
        ("hank@players.example", "Delta Championship Wrestling: week 6 reminder"): 1})

    # Friday 18:20: Hank's strategy comes late; the tick at 18:35 refuses it and runs the week
    mail(server, at(11, 27, 18, 20), "hank@players.example", "Week 6 rocky-ridge", rocky, "<w6-rocky-late@x>")
    results = tick(at(11, 27, 18, 35), "read 1 mail: 1 refused",
                   "week 6 run (the deadline, Friday 27 November 2026, 18:00 UTC, has passed): 3 matches, 15 files in outbox/week-06", "sent 7 mails")
    assert results == Counter({("hank@players.example", "Re: Week 6 rocky-ridge"): 1,
                               **{(who, "Delta Championship Wrestling: Week 6 results"): 1 for who in
                                  ("bob@players.example", "sam@players.example", "hank@players.example", "vince@players.example", "warden@players.example")},
                               ("card-list@dcw.example", "Delta Championship Wrestling: Week 6"): 1})
    assert "Rocky Ridge sent no strategy: the fed's default strategy played." in (fed / "outbox/week-06/m2.md").read_text()

    # the fedhead reruns the week; the next tick sends every player the correction
    assert fedtool_at(fed, at(11, 27, 19), "run", "6", "--rerun").returncode == 0
    corrections = tick(at(11, 27, 19, 5), "sent 6 mails")
    assert sorted(corrections) == sorted([(who, "Corrected: Delta Championship Wrestling: Week 6 results") for who in
                                          ("bob@players.example", "hank@players.example", "sam@players.example", "vince@players.example", "warden@players.example")]
                                         + [("card-list@dcw.example", "Corrected: Delta Championship Wrestling: Week 6")])

    # week 7: opened on Saturday; Sam sends his old strategy at once, but the loss dropped him
    # to push level 1, which allows one Special round, not two: refused; both are reminded
    (fed / "strategies/week-07").mkdir()
    (fed / "strategies/week-07/card.yaml").write_text(WEEK7)
    assert fedtool_at(fed, at(11, 28, 10), "open", "7").returncode == 0
    mail(server, at(12, 1, 12), "sam@players.example", "Week 7 friendly-sam", sam, "<w7-sam@x>")
    assert tick(at(12, 1, 12, 5), "read 1 mail: 1 refused", "sent 3 mails") == Counter({
        ("sam@players.example", "Delta Championship Wrestling: Week 7 friendly-sam m1 is open"): 1,
        ("hank@players.example", "Delta Championship Wrestling: Week 7 rocky-ridge m1 is open"): 1,
        ("sam@players.example", "Re: Week 7 friendly-sam"): 1})
    assert "push level 1 allows 1" in inbox.mails[-1][1].get_body(("plain",)).get_content()
    assert tick(at(12, 2, 18, 5), "week 7: 2 reminders queued (48 hours before the deadline)", "sent 2 mails") == Counter({
        ("sam@players.example", "Delta Championship Wrestling: week 7 reminder"): 1,
        ("hank@players.example", "Delta Championship Wrestling: week 7 reminder"): 1})
    week7 = tick(at(12, 4, 18, 5), "week 7 run (the deadline, Friday 4 December 2026, 18:00 UTC, has passed): 1 matches, 8 files in outbox/week-07", "sent 3 mails")
    assert week7 == Counter({("sam@players.example", "Delta Championship Wrestling: Week 7 results"): 1,
                             ("hank@players.example", "Delta Championship Wrestling: Week 7 results"): 1,
                             ("card-list@dcw.example", "Delta Championship Wrestling: Week 7"): 1})
    assert tick(at(12, 4, 18, 20)) == Counter()  # nothing twice

    # every mail: 36 in all (6 + 5 + 2 + 1 + 1 + 7 + 6 + 3 + 2 + 3), none twice
    ids = [m["Message-ID"] for _, m in inbox.mails]
    assert len(ids) == len(set(ids)) == 36
