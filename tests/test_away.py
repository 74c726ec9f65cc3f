"""Players who are away or absent (issue 12, item 7): `fedtool away`, each player's record of
on-time, late, missing and away strategies (status, standings, the site), and the fed's
`mail: no_show_limit`. The demo fed's weeks 1 and 2, on the fixed clock of the golden
playthroughs (2026-01-04 12:00 UTC)."""

from __future__ import annotations

import datetime
import json
import mailbox
import sqlite3
from email.message import EmailMessage
from email.utils import format_datetime

import pytest

from golden import FIXED_EPOCH

BOB_AWAY_NOTE = "Brother Bob is away: the fed's default strategy played."
BOB_MISSING_NOTE = "Brother Bob sent no strategy: the fed's default strategy played."


@pytest.fixture
def fed(demo_fed, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)  # the run's day: 2026-01-04
    return demo_fed


def settings(fed, old, new):
    path = fed / "rosters/fed.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def default_strategy(fed):
    settings(fed, "  matchmatch:\n", "  matchmatch:\n    missing_strategy: default\n")


def notes(fedtool, fed, week, match):
    result = fedtool("results", str(week), "--json", "--fed", fed)
    assert result.exit_code == 0, result.output
    return next(m["notes"] for m in json.loads(result.output) if m["id"] == match)


def player_lines(output):
    return [line for line in output.splitlines() if line.startswith("player ")]


def test_away_players_get_no_reminder(fed, fedtool):
    for name in ("brother-bob", "friendly-sam"):
        (fed / f"strategies/week-01/{name}.yaml").unlink()
    marked = fedtool("away", "Bob@Players.example", "2026-01-01", "2026-01-04", "--fed", fed)
    assert marked.exit_code == 0 and marked.output == "bob@players.example (Bob's Player): away 2026-01-01 to 2026-01-04\n"
    assert fedtool("away", "--fed", fed).output == "bob@players.example (Bob's Player): away 2026-01-01 to 2026-01-04\n1 player marked away\n"
    result = fedtool("remind", "1", "--fed", fed)
    assert [line for line in result.output.splitlines() if line.startswith("reminder")] == ["reminder for sam@players.example: Friendly Sam"]
    status = fedtool("status", "1", "--fed", fed).output
    assert [line.split()[-1] for line in status.splitlines() if line.startswith("m1")] == ["away", "missing"]
    assert "player Bob's Player <bob@players.example>: 0 on time, 0 late, 0 missing, 0 away; away 2026-01-01 to 2026-01-04" in status
    assert status.splitlines()[-1] == "9 of 10 sides ready; waiting on Friendly Sam"
    # back: the reminder goes to him too
    cleared = fedtool("away", "bob@players.example", "--clear", "--fed", fed)
    assert cleared.output == "bob@players.example: back, no longer away\n"
    again = fedtool("remind", "1", "--fed", fed)
    assert [line for line in again.output.splitlines() if line.startswith("reminder")] == [
        "reminder for bob@players.example: Brother Bob", "reminder for sam@players.example: Friendly Sam"]


def test_a_span_that_has_ended_does_not_excuse(fed, fedtool):
    (fed / "strategies/week-01/brother-bob.yaml").unlink()
    assert fedtool("away", "bob@players.example", "2025-12-20", "2026-01-03", "--fed", fed).exit_code == 0
    result = fedtool("run", "1", "--fed", fed)
    assert result.exit_code == 1
    assert "strategies/week-01/brother-bob.yaml: no strategy from Brother Bob for match m1 [MatchMatch III: every side submits a strategy]" in result.stderr


def test_the_default_plays_quietly_for_an_away_player(fed, fedtool):
    """MatchMatch refuses a week without a strategy by default; an away player's side plays the default, and the note says he is away."""
    (fed / "strategies/week-01/brother-bob.yaml").unlink()
    refused = fedtool("run", "1", "--fed", fed)
    assert refused.exit_code == 1 and "no strategy from Brother Bob for match m1" in refused.stderr
    assert fedtool("away", "bob@players.example", "2026-01-04", "2026-01-10", "--fed", fed).exit_code == 0
    result = fedtool("run", "1", "--fed", fed)
    assert result.exit_code == 0, result.output
    assert notes(fedtool, fed, 1, "m1") == [BOB_AWAY_NOTE]
    writeup = (fed / "outbox/week-01/m1.md").read_text()
    assert f"> {BOB_AWAY_NOTE}" in writeup and "sent no strategy" not in writeup


def test_each_players_record_after_two_weeks_in_status_standings_and_site(fed, fedtool, tmp_path):
    default_strategy(fed)
    settings(fed, "  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  late_mail: hold\n")
    # week 1: Bob is away and sent nothing
    (fed / "strategies/week-01/brother-bob.yaml").unlink()
    assert fedtool("away", "bob@players.example", "2026-01-04", "2026-01-04", "--fed", fed).exit_code == 0
    assert fedtool("run", "1", "--fed", fed).exit_code == 0
    assert notes(fedtool, fed, 1, "m1") == [BOB_AWAY_NOTE]
    # week 2 (deadline 2026-01-03, before Bob left): Bob sends nothing for Brother Bob; Kate's strategy comes late, held, accepted
    week2 = fed / "strategies/week-02"
    card = week2 / "card.yaml"
    card.write_text(card.read_text().replace("week: 2\n", "week: 2\ndeadline: 2026-01-03T18:00:00Z\n"))
    (week2 / "brother-bob.yaml").unlink()
    kate = (week2 / "kate-galloway.yaml").read_text()
    (week2 / "kate-galloway.yaml").unlink()
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"], mail["Message-ID"] = "kate@players.example", "strategies@dcw.example", "Week 2 kate-galloway", "<kate-late@x>"
    mail["Date"] = format_datetime(datetime.datetime(2026, 1, 4, 9, tzinfo=datetime.timezone.utc))
    mail.set_content(kate)
    mailbox.Maildir(tmp_path / "Maildir", create=True).add(mail)
    read = fedtool("inbox", tmp_path / "Maildir", "--fed", fed)
    assert "0 accepted, 0 refused, 1 held" in read.output, read.output
    assert fedtool("accept", "2", "kate-galloway", "--fed", fed).exit_code == 0
    ran = fedtool("run", "2", "--fed", fed)
    assert ran.exit_code == 0, ran.output
    assert notes(fedtool, fed, 2, "m4") == [BOB_MISSING_NOTE, "Referee: Zero Tolerance (No Fooling, DQ threshold 5)."]

    status = fedtool("status", "2", "--fed", fed)
    assert player_lines(status.output) == [
        "player Bob's Player <bob@players.example>: 1 on time, 0 late, 1 missing, 1 away",  # week 1 away; week 2 Rulebook Rivals on time, Brother Bob missing
        "player Dana Maddox <dana@players.example>: 2 on time, 0 late, 0 missing, 0 away",
        "player Hank Porter <hank@players.example>: 2 on time, 0 late, 0 missing, 0 away",
        "player Kate Galloway <kate@players.example>: 1 on time, 1 late, 0 missing, 0 away",
        "player Luis Herrera <luis@players.example>: 2 on time, 0 late, 0 missing, 0 away",
        "player Mei Tanaka <mei@players.example>: 2 on time, 0 late, 0 missing, 0 away",
        "player Sabrina Ortiz <sabrina@players.example>: 2 on time, 0 late, 0 missing, 0 away",
        "player Vic Carraway <vic@players.example>: 2 on time, 0 late, 0 missing, 0 away",
    ]
    week1 = player_lines(fedtool("status", "1", "--fed", fed).output)  # through week 1 only
    assert week1[0] == "player Bob's Player <bob@players.example>: 0 on time, 0 late, 0 missing, 1 away; away 2026-01-04 to 2026-01-04"  # week 1 has no deadline: the clock's day

    tables = json.loads(fedtool("standings", "--json", "--fed", fed).output)
    rows = {r["wrestler_id"]: r for t in tables for r in t["rows"]}
    assert rows["brother-bob"]["strategies"] == {"on_time": 0, "late": 0, "missing": 1, "away": 1}
    assert rows["rulebook-rivals"]["strategies"] == {"on_time": 1, "late": 0, "missing": 0, "away": 0}
    assert rows["kate-galloway"]["strategies"] == {"on_time": 1, "late": 1, "missing": 0, "away": 0}
    heavy = next(t for t in tables if t["ruleset"] == "matchmatch" and t["division"] == "heavyweight")
    assert {r["wrestler_id"] for r in heavy["rows"]} >= {"brother-bob", "kate-galloway"}
    assert heavy["players"] == [
        {"name": "Bob's Player", "on_time": 1, "late": 0, "missing": 1, "away": 1},
        {"name": "Dana Maddox", "on_time": 2, "late": 0, "missing": 0, "away": 0},
        {"name": "Hank Porter", "on_time": 2, "late": 0, "missing": 0, "away": 0},
        {"name": "Kate Galloway", "on_time": 1, "late": 1, "missing": 0, "away": 0},
    ]
    terminal = fedtool("standings", "--fed", fed).output
    assert "Bob's Player 1/0/1/1" in terminal and "Kate Galloway 1/1/0/0" in terminal

    assert fedtool("site", "--fed", fed).exit_code == 0
    page = (fed / "outbox/site/standings.html").read_text()
    assert "Bob&#39;s Player 1/0/1/1" in page and "Kate Galloway 1/1/0/0" in page


def test_a_rerun_undoes_the_weeks_record(fed, fedtool):
    strategy = (fed / "strategies/week-01/brother-bob.yaml").read_text()
    (fed / "strategies/week-01/brother-bob.yaml").unlink()
    default_strategy(fed)
    assert fedtool("run", "1", "--fed", fed).exit_code == 0
    bob = "player Bob's Player <bob@players.example>: {} on time, 0 late, {} missing, 0 away"
    assert player_lines(fedtool("status", "1", "--fed", fed).output)[0] == bob.format(0, 1)
    (fed / "strategies/week-01/brother-bob.yaml").write_text(strategy)
    assert fedtool("run", "1", "--rerun", "--fed", fed).exit_code == 0
    assert player_lines(fedtool("status", "1", "--fed", fed).output)[0] == bob.format(1, 0)
    with sqlite3.connect(fed / "fed.db") as db:
        assert db.execute("SELECT record, COUNT(*) FROM punctuality GROUP BY record").fetchall() == [("on_time", 10)]


def test_no_show_limit_tells_the_fedhead_and_lets_the_week_run(fed, fedtool):
    """Bob sends nothing in weeks 1 and 2. Week 1 ran with the default; the fed then refuses
    a week without a strategy, so week 2 would not run; with `no_show_limit: 2` it does."""
    default_strategy(fed)
    (fed / "strategies/week-01/brother-bob.yaml").unlink()
    first = fedtool("run", "1", "--fed", fed)
    assert first.exit_code == 0 and "weeks running" not in first.output
    settings(fed, "    missing_strategy: default\n", "")
    rivals = fed / "rosters/rulebook-rivals.yaml"  # Bob's other sheet, which sends: another player's here
    rivals.write_text(rivals.read_text().replace("owner: {name: Bob's Player, email: bob@players.example}", "owner: {name: Rivals' Player, email: rivals@players.example}"))
    (fed / "strategies/week-02/brother-bob.yaml").unlink()
    refused = fedtool("run", "2", "--fed", fed)
    assert refused.exit_code == 1 and "no strategy from Brother Bob for match m4" in refused.stderr
    settings(fed, "  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  no_show_limit: 2\n")
    line = "Bob's Player has sent no strategy for 2 weeks running (no_show_limit: 2): the default strategy plays for his sides until one of his stands."
    ran = fedtool("run", "2", "--fed", fed)
    assert ran.exit_code == 0, ran.output + ran.stderr
    assert f"  {line}\n" in ran.output
    assert f"- {line}" in (fed / "outbox/week-02/card.md").read_text()
    assert BOB_MISSING_NOTE in notes(fedtool, fed, 2, "m4")
    assert player_lines(fedtool("status", "2", "--fed", fed).output)[0] == "player Bob's Player <bob@players.example>: 0 on time, 0 late, 2 missing, 0 away"


def test_a_player_sending_again_ends_the_run_of_no_shows(fed, fedtool):
    default_strategy(fed)
    settings(fed, "  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  no_show_limit: 1\n")
    ran = fedtool("run", "1", "--fed", fed)  # Bob sent his: nobody to tell
    assert ran.exit_code == 0 and "weeks running" not in ran.output
    settings(fed, "    missing_strategy: default\n", "")
    (fed / "strategies/week-02/brother-bob.yaml").unlink()  # his Rulebook Rivals strategy stands: not a week missed
    refused = fedtool("run", "2", "--fed", fed)
    assert refused.exit_code == 1 and "no strategy from Brother Bob for match m4" in refused.stderr


@pytest.mark.parametrize("args, message", [
    (["nobody@players.example", "2026-01-01", "2026-01-04"],
     "error: rosters/: nobody@players.example is not the registered owner of any wrestler [fedtool away: EMAIL is an owner's address in a roster sheet]\n"),
    (["bob@players.example", "2026-01-09", "2026-01-04"],
     "error: FROM, TO: away from 2026-01-09 to 2026-01-04: FROM is after TO [fedtool away: FROM is on or before TO]\n"),
    (["bob@players.example", "2026-01-01", "next week"],
     "error: TO: 'next week' is not a day: write it YYYY-MM-DD, e.g. 2026-12-24 [fedtool away]\n"),
])
def test_bad_away_is_a_clean_error_and_writes_nothing(fed, fedtool, args, message):
    result = fedtool("away", *args, "--fed", fed)
    assert result.exit_code == 1 and result.stderr == message
    assert not (fed / "fed.db").exists()
    assert fedtool("away", "--fed", fed).output == "0 players marked away\n"
