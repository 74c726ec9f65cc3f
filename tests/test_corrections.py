"""Corrections reach the players (issue 12, item 6): a rerun's mails are new mails that say
they correct the first, the card says what changed, the league is snapshotted before every
run and can be restored, a week's mail can be sent again on purpose, and every mail has a
Date header. Mail goes to a real SMTP server (aiosmtpd) on loopback, as in test_send.py."""

from __future__ import annotations

import mailbox
import sqlite3
import subprocess
import sys
from collections import Counter
from email import message_from_bytes, policy
from email.utils import parsedate_to_datetime
from pathlib import Path

from test_inbox import mail
from test_send import smtp_server, with_smtp  # noqa: F401 (a fixture)

EPOCH = "1767528000"  # 2026-01-04T12:00:00Z
STAMP = "20260104T120000Z"
TITLE = "Delta Championship Wrestling: Week 1: Opening Night"
M1_CHANGE = "m1 (Brother Bob vs. Friendly Sam): was Friendly Sam wins by dq in round 3; now Brother Bob wins by pin in round 10"
PLAYERS = ["bob", "dana", "earl", "hank", "kate", "luis", "mei", "sabrina", "sam", "vic"]
EVERYONE = sorted([f"{p}@players.example" for p in PLAYERS] + ["card-list@dcw.example"])


def bob_plays_clean(fed: Path) -> None:
    """The fedhead's mistake: Brother Bob's strategy had been filed with the wrong round types."""
    path = fed / "strategies/week-01/brother-bob.yaml"
    path.write_text(path.read_text().replace("type: Illegal", "type: Normal"))


def by_recipient(mails) -> dict[str, list]:
    out: dict[str, list] = {}
    for rcpt, message in mails:
        out.setdefault(rcpt[0], []).append(message)
    return out


def outbox_mail(fed: Path, rel: str):
    return message_from_bytes((fed / "outbox" / rel).read_bytes(), policy=policy.default)


def test_a_rerun_sends_corrected_mails_that_refer_to_the_first_and_nothing_else(demo_fed, fedtool, smtp_server):  # noqa: F811
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert "11 sent, 0 sent before, 0 kept for next time" in fedtool("send", "--fed", demo_fed).output
    first = by_recipient(inbox.mails)
    assert sorted(first) == EVERYONE and all(len(m) == 1 for m in first.values())

    bob_plays_clean(demo_fed)
    rerun = fedtool("run", "1", "--rerun", "--fed", demo_fed)
    assert rerun.exit_code == 0, rerun.output
    assert "run 2 of week 1: the mails are corrections" in rerun.output
    assert "  m1: was Friendly Sam wins by dq in round 3; now Brother Bob wins by pin in round 10\n" in rerun.output
    sent = fedtool("send", "--fed", demo_fed)
    assert "11 sent, 0 sent before, 0 kept for next time" in sent.output
    both = by_recipient(inbox.mails)
    assert len(inbox.mails) == 22 and sorted(both) == EVERYONE and all(len(m) == 2 for m in both.values())
    for address, (old, new) in both.items():
        assert not old["Subject"].startswith("Corrected:")
        assert new["Subject"] == "Corrected: " + old["Subject"]
        assert new["Message-ID"] != old["Message-ID"]
        assert new["References"] == old["Message-ID"] and new["In-Reply-To"] == old["Message-ID"]
    old, new = both["bob@players.example"]
    assert new["Subject"] == f"Corrected: {TITLE} results"
    text = new.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert text.startswith("Corrected results. Week 1 was run again (run 2); this replaces the report sent before.\n\n- " + M1_CHANGE + "\n")
    assert "Brother Bob def. Friendly Sam" in text and "Rocky Ridge" not in text  # only his own match
    hank = both["hank@players.example"][1].get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert "- m2 (Rocky Ridge vs. Big Earl Hollis): no change (Rocky Ridge wins by pin in round 17)\n" in hank and "m1 (" not in hank
    assert both["card-list@dcw.example"][1]["Subject"] == f"Corrected: {TITLE}"
    # nothing goes twice
    assert "0 sent, 11 sent before, 0 kept for next time" in fedtool("send", "--fed", demo_fed).output
    assert len(inbox.mails) == 22


def test_the_corrected_card_says_what_changed_match_by_match(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    first_card = (demo_fed / "outbox/week-01/card.md").read_text()
    assert "Corrected" not in first_card and "no change" not in first_card
    bob_plays_clean(demo_fed)
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    card = (demo_fed / "outbox/week-01/card.md").read_text()
    section = card.split("## Corrected\n\n", 1)[1].split("\n## Results", 1)[0]
    assert section == (
        "Week 1 was run again (run 2): this card replaces the one sent before.\n\n"
        "What changed against the previous run:\n\n"
        f"- {M1_CHANGE}\n"
        "- m2 (Rocky Ridge vs. Big Earl Hollis): no change (Rocky Ridge wins by pin in round 17)\n"
        "- m3 (The Silent Crane vs. Skyline Sabrina): no change (The Silent Crane wins by pin in round 18)\n"
        '- m4 (Kate "The Gate" Galloway vs. Dr. Victor Vane): no change (Dr. Victor Vane wins by submission in round 11)\n'
        "- m5 (Mad Dog Maddox vs. Relámpago): no change (Relámpago wins by dq in round 6)\n"
    )
    html = (demo_fed / "outbox/week-01/card.html").read_text()
    assert f"<li>{M1_CHANGE}</li>" in html and html.count(": no change (") == 4
    assert "Kate &#34;The Gate&#34; Galloway vs. Dr. Victor Vane" in html  # escaped, as all player text is


def test_message_ids_are_new_for_each_run_and_the_same_for_the_same_run(tmp_path, fedtool):
    from golden import demo_copy

    ids = []
    for copy in ("a", "b"):
        fed = demo_copy(tmp_path / copy)
        runs = []
        for args in (["run", "1"], ["run", "1", "--rerun"], ["run", "1", "--rerun"]):
            assert fedtool(*args, "--fed", fed).exit_code == 0
            message = outbox_mail(fed, "week-01/mail/sam-players-example.eml")
            runs.append((message["Message-ID"], message["References"]))
        ids.append(runs)
    assert ids[0] == ids[1]  # the same fed and secret: the same Message-IDs, run by run
    (one, none), (two, ref2), (three, ref3) = ids[0]
    assert len({one, two, three}) == 3 and none is None and ref2 == one and ref3 == one


def test_a_snapshot_is_taken_before_every_run_and_only_the_last_n_are_kept(demo_fed, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text() + "backups: {keep: 2}\n")
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert not (demo_fed / "backups").exists()  # no league before week 1: nothing to keep
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0
    assert sorted(p.name for p in (demo_fed / "backups").iterdir()) == [
        f"{STAMP}-before-week-01-run-2.db", f"{STAMP}-before-week-02-run-1.db"]
    assert fedtool("run", "3", "--fed", demo_fed).exit_code == 0
    listing = fedtool("restore", "--fed", demo_fed)
    assert listing.exit_code == 0
    assert listing.output == (
        f"{STAMP}-before-week-02-run-1.db  after week 1 (run 2)\n"
        f"{STAMP}-before-week-03-run-1.db  after week 2 (run 1)\n"
        "2 snapshots in backups; `fedtool restore NAME` restores one\n")
    snapshot = sqlite3.connect(demo_fed / "backups" / f"{STAMP}-before-week-03-run-1.db")
    assert snapshot.execute("SELECT week FROM weeks ORDER BY week").fetchall() == [(1,), (2,)]


def test_restore_brings_back_the_league_of_before_the_rerun(demo_fed, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    before = fedtool("results", "1", "--json", "--fed", demo_fed).output
    bob_plays_clean(demo_fed)
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    corrected = fedtool("results", "1", "--json", "--fed", demo_fed).output
    assert corrected != before and '"winner": "brother-bob"' in corrected and '"winner": "brother-bob"' not in before
    name = f"{STAMP}-before-week-01-run-2.db"
    restored = fedtool("restore", name, "--fed", demo_fed)
    assert restored.exit_code == 0, restored.output
    assert restored.output == (
        f"restored {name}: the league is back to after week 1 (run 1)\n"
        f"the league as it was is kept as {STAMP}-before-restore.db\n"
        "the outbox is unchanged: rerun the week to write it again from the restored league\n")
    assert fedtool("results", "1", "--json", "--fed", demo_fed).output == before
    # the count of runs is kept: the next rerun is run 3, with Message-IDs of its own
    run2_id = outbox_mail(demo_fed, "week-01/mail/bob-players-example.eml")["Message-ID"]
    rerun = fedtool("run", "1", "--rerun", "--fed", demo_fed)
    assert "run 3 of week 1" in rerun.output
    assert M1_CHANGE.split(" (", 1)[0] + ": was Friendly Sam wins by dq in round 3" in rerun.output  # against the restored run 1
    run3 = outbox_mail(demo_fed, "week-01/mail/bob-players-example.eml")
    assert run3["Message-ID"] != run2_id and run3["Subject"] == f"Corrected: {TITLE} results"
    # and the restore itself can be undone
    assert fedtool("restore", f"{STAMP}-before-restore.db", "--fed", demo_fed).exit_code == 0
    assert fedtool("results", "1", "--json", "--fed", demo_fed).output == corrected


def test_restore_keeps_the_record_of_mails_already_sent(demo_fed, fedtool, smtp_server, monkeypatch):  # noqa: F811
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    bob_plays_clean(demo_fed)
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    assert "11 sent, 0 sent before" in fedtool("send", "--fed", demo_fed).output
    assert fedtool("restore", f"{STAMP}-before-week-01-run-2.db", "--fed", demo_fed).exit_code == 0
    # the snapshot predates those 11 mails, but they went out: they are not sent again
    assert "0 sent, 11 sent before" in fedtool("send", "--fed", demo_fed).output and len(inbox.mails) == 11


def test_restoring_an_unknown_snapshot_is_a_clean_error_that_changes_nothing(demo_fed, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    empty = fedtool("restore", "--fed", demo_fed)
    assert empty.exit_code == 0 and empty.output == "0 snapshots in backups\n"
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    league = (demo_fed / "fed.db").read_bytes()
    for name in ("nope.db", "../fed.db"):
        result = fedtool("restore", name, "--fed", demo_fed)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.stderr == (f"error: backups: no snapshot named {name!r} (`fedtool restore` lists them; "
                                 f"the latest is {STAMP}-before-week-01-run-2.db) [fedtool restore]\n")
    broken = demo_fed / "backups" / f"{STAMP}-before-week-09-run-1.db"
    broken.write_text("not a database, whatever its name says")
    result = fedtool("restore", broken.name, "--fed", demo_fed)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: backups/{broken.name}: not a fedtool league (file is not a database): it cannot be restored")
    assert (demo_fed / "fed.db").read_bytes() == league
    assert sorted(p.name for p in (demo_fed / "backups").iterdir()) == [f"{STAMP}-before-week-01-run-2.db", broken.name]


def test_every_mail_in_the_outbox_has_a_date(demo_fed, fedtool, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert fedtool("open", "1", "--reroll", "--fed", demo_fed).exit_code == 0  # announcements
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0  # results and the card
    assert fedtool("resend", "1", "--to", "bob@players.example", "--fed", demo_fed).exit_code == 0  # a copy sent again
    (demo_fed / "strategies/week-02/victor-vane.yaml").unlink()
    assert "1 reminder queued" in fedtool("remind", "2", "--fed", demo_fed).output  # a reminder
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(mail("bob@players.example", "Week 2 brother-bob", (demo_fed / "strategies/week-02/brother-bob.yaml").read_text()))
    assert fedtool("inbox", tmp_path / "Maildir", "--fed", demo_fed).exit_code == 0  # an answer
    mails = sorted((demo_fed / "outbox").rglob("*.eml"))
    folders = Counter(str(p.parent.relative_to(demo_fed / "outbox")) for p in mails)
    assert folders == {"week-01/announcements/mail": 10, "week-01/mail": 11, "resent/week-01/mail": 1,
                       "reminders/week-02/mail": 1, "replies/week-02/mail": 1}
    for path in mails:
        date = outbox_mail(demo_fed, str(path.relative_to(demo_fed / "outbox")))["Date"]
        assert date == "Sun, 04 Jan 2026 12:00:00 +0000", path
        assert parsedate_to_datetime(date).timestamp() == int(EPOCH)


def test_resend_queues_fresh_copies_that_send_delivers(demo_fed, fedtool, smtp_server):  # noqa: F811
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert "11 sent" in fedtool("send", "1", "--fed", demo_fed).output
    original = by_recipient(inbox.mails)["bob@players.example"][0]
    one = fedtool("resend", "1", "--to", "Bob@Players.example", "--fed", demo_fed)
    assert one.exit_code == 0, one.output
    assert one.output == ("queued outbox/resent/week-01/mail/bob-players-example-1.eml: Bob's Player <bob@players.example>\n"
                          "1 copy queued; `fedtool send 1` delivers them\n")
    assert "1 sent, 11 sent before, 0 kept for next time" in fedtool("send", "1", "--fed", demo_fed).output
    rcpt, copy = inbox.mails[-1]
    assert rcpt == ["bob@players.example"] and len(inbox.mails) == 12
    assert copy["Subject"] == f"Resent: {TITLE} results"
    assert copy["Message-ID"] != original["Message-ID"]
    assert copy["References"] == original["Message-ID"] and copy["In-Reply-To"] == original["Message-ID"]
    assert copy.get_body(("plain",)).get_content() == original.get_body(("plain",)).get_content()
    everyone = fedtool("resend", "1", "--fed", demo_fed)
    assert everyone.exit_code == 0 and everyone.output.endswith("11 copies queued; `fedtool send 1` delivers them\n")
    assert "outbox/resent/week-01/mail/bob-players-example-2.eml" in everyone.output  # a second copy, not the first again
    assert "11 sent, 12 sent before, 0 kept for next time" in fedtool("send", "1", "--fed", demo_fed).output
    assert sorted(r[0] for r, _ in inbox.mails[12:]) == EVERYONE


def test_resend_refuses_what_it_cannot_send(demo_fed, fedtool):
    nothing = fedtool("resend", "1", "--fed", demo_fed)
    assert nothing.exit_code == 1
    assert nothing.stderr == "error: outbox/week-01: week-01 has no results mail to send again; run the week first (`fedtool run 1`) [fedtool resend]\n"
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    stranger = fedtool("resend", "1", "--to", "nobody@players.example", "--fed", demo_fed)
    assert stranger.exit_code == 1 and "Traceback" not in stranger.output
    assert stranger.stderr == ("error: outbox/week-01/mail: no mail to nobody@players.example in week-01's results; they went to "
                               + ", ".join(sorted(EVERYONE)) + " [fedtool resend]\n")
    assert not (demo_fed / "outbox/resent").exists()


def test_a_week_run_again_after_a_restore_says_its_previous_run_is_not_in_the_league(demo_fed, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0
    assert fedtool("restore", f"{STAMP}-before-week-02-run-1.db", "--fed", demo_fed).exit_code == 0
    again = fedtool("run", "2", "--fed", demo_fed)  # not a rerun: week 2 is not in the restored league
    assert again.exit_code == 0 and "run 2 of week 2: the mails are corrections" in again.output
    card = (demo_fed / "outbox/week-02/card.md").read_text()
    assert ("Week 2 was run again (run 2): this card replaces the one sent before.\n"
            "The previous run's results are not in the league (it was restored from a snapshot since), "
            "so what changed cannot be shown.\n") in card
    assert outbox_mail(demo_fed, "week-02/mail/bob-players-example.eml")["Subject"].startswith("Corrected: ")


def test_migration_12_counts_each_week_already_run_as_run_once(tmp_path):
    from sqlite_utils import Database

    from fedtool.league.db import migrations, open_league, runs_of

    db = Database(tmp_path / "fed.db")
    migrations.apply(db, stop_before="m012_week_runs")  # a league written before issue 12
    db["weeks"].insert_all([{"week": w, "title": f"Week {w}", "ran_at": "2026-01-04T12:00:00+00:00", "dice_source": "seeded", "matches": 0} for w in (1, 2)])
    db.close()
    league = open_league(tmp_path / "fed.db")
    assert [runs_of(league, w) for w in (1, 2, 3)] == [1, 1, 0]
    assert list(league["week_runs"].rows) == [
        {"week": 1, "run": 1, "ran_at": "2026-01-04T12:00:00+00:00", "dice_source": "seeded"},
        {"week": 2, "run": 1, "ran_at": "2026-01-04T12:00:00+00:00", "dice_source": "seeded"}]


def test_bad_backup_settings_and_a_bad_fixed_clock_are_clean_errors(demo_fed, fedtool, monkeypatch):
    settings = demo_fed / "rosters/fed.yaml"
    plain = settings.read_text()
    lines = plain.count("\n")
    settings.write_text(plain + "backups: {folder: ../elsewhere, keep: 0}\n")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr == (
        f"error: rosters/fed.yaml, line {lines + 1}, field backups.folder: a folder inside the fed's folder, "
        "written relative to it (no leading /, ~ or ..) [fed settings]\n"
        f"error: rosters/fed.yaml, line {lines + 1}, field backups.keep: Input should be greater than or equal to 1 [fed settings]\n")
    settings.write_text(plain)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert result.stderr == "error: SOURCE_DATE_EPOCH='yesterday' is not a whole number of seconds since 1970 [fedtool: the clock]\n"
    assert not (demo_fed / "fed.db").exists() and not (demo_fed / "outbox/week-01").exists()


def test_a_match_taken_off_the_card_or_new_on_it_is_listed_as_such(demo_fed, fedtool):
    from types import SimpleNamespace

    from fedtool.week.run import correction_lines

    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    card = demo_fed / "strategies/week-01/card.yaml"
    m5 = "  - id: m5\n    sides: [mad-dog-maddox, relampago]\n    for_title: world\n"
    assert card.read_text().endswith(m5)
    card.write_text(card.read_text().replace(m5, ""))
    rerun = fedtool("run", "1", "--rerun", "--fed", demo_fed)
    assert rerun.exit_code == 0, rerun.output
    assert rerun.output.split("the mails are corrections (`fedtool send` delivers them)\n", 1)[1].splitlines()[:6] == [
        "  m1: no change (Friendly Sam wins by dq in round 3)",
        "  m2: no change (Rocky Ridge wins by pin in round 17)",
        "  m3: no change (The Silent Crane wins by pin in round 18)",
        "  m4: no change (Dr. Victor Vane wins by submission in round 11)",
        "  m5: no longer on the card (was Relámpago wins by dq in round 6)",
        "20 files in outbox/week-01",  # 4 writeups twice, the card twice, the dice log, 8 players' mails and the list's
    ]
    # a match the previous run did not have, and a draw
    sides = [{"id": "a", "name": "Ada"}, {"id": "b", "name": "Bea"}]
    played = [SimpleNamespace(booking=SimpleNamespace(match=SimpleNamespace(id="m9")), summary={"sides": sides, "winner": None, "method": "draw", "round": 20})]
    assert correction_lines([], played) == [{"match": "m9", "vs": "Ada vs. Bea", "text": "new on the card: draw in round 20"}]


def test_restore_lands_in_a_league_another_connection_holds_open(demo_fed, fedtool, monkeypatch):
    """The league keeps a write-ahead log (fed.db-wal) while it is open. Restoring copies
    the snapshot into the live league in one transaction, so a reader holding it open sees
    the restored league, and nothing beside fed.db is orphaned or left stale."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    bob_plays_clean(demo_fed)
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    reader = sqlite3.connect(demo_fed / "fed.db")
    winners = "SELECT winner FROM matches WHERE week = 1 AND match = 'm1'"
    assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert reader.execute(winners).fetchall() == [("brother-bob",)]
    assert (demo_fed / "fed.db-wal").exists()  # the reader holds the league open
    assert fedtool("restore", f"{STAMP}-before-week-01-run-2.db", "--fed", demo_fed).exit_code == 0
    assert reader.execute(winners).fetchall() == [("friendly-sam",)]
    assert reader.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    reader.close()
    snapshots = sorted((demo_fed / "backups").glob("*.db"))
    assert snapshots and not any(p.with_name(p.name + suffix).exists() for p in snapshots for suffix in ("-wal", "-shm", "-journal"))


def test_a_command_leaves_the_league_one_file(demo_fed):
    """When a fedtool process ends, its write-ahead log is folded back into fed.db and
    removed: a fedhead who copies fed.db between commands copies the whole league."""
    for args in (["run", "1"], ["standings"]):
        done = subprocess.run([sys.executable, "-m", "fedtool", *args, "--fed", str(demo_fed)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert [p.name for p in demo_fed.glob("fed.db*")] == ["fed.db"]
    league = sqlite3.connect(demo_fed / "fed.db")
    assert league.execute("SELECT COUNT(*) FROM matches WHERE week = 1").fetchone()[0] > 0


def test_after_a_restore_send_holds_back_results_of_a_run_the_league_no_longer_holds(demo_fed, fedtool, monkeypatch):
    """Restoring to before a rerun leaves the rerun's results in the outbox (a restore never
    touches it); `send` offers none of them, says why, and offers the week's results again
    once the week is run from the restored league."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    bob_plays_clean(demo_fed)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(EPOCH) + 3600))  # the rerun an hour after run 1: its mails are dated so
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    results = sorted(p.name for p in (demo_fed / "outbox/week-01/mail").glob("*.eml"))
    assert len(results) == 11
    assert fedtool("restore", "20260104T130000Z-before-week-01-run-2.db", "--fed", demo_fed).exit_code == 0  # back to run 1
    offered = fedtool("send", "1", "--dry-run", "--fed", demo_fed)
    assert offered.exit_code == 0 and "would send outbox/week-01/mail/" not in offered.output
    held = [line for line in offered.stderr.splitlines() if "results of a run the league no longer holds" in line]
    assert len(held) == 11 and "0 to send, 0 sent before" in offered.output
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0  # run 3, dated now
    offered = fedtool("send", "1", "--dry-run", "--fed", demo_fed)
    assert offered.output.count("would send outbox/week-01/mail/") == 11 and "no longer holds" not in offered.stderr
