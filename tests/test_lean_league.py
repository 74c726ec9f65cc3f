"""A lean league (issue 18 item 6, migration m017): each week's writeups, rounds (with their
per-round detail) and dice log packed in one row a week, each match's summary packed in its
row; views of the old tables' names and columns for SQL and Datasette.

The demo weeks 1-5 are run once for the module. An old league (the schema before m017,
`migrations.apply(stop_before=...)`) is made holding the same rows as the old tables held
them, read with the league's read functions as it stands, then migrated and read again:
every value must be the same."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from sqlite_utils import Database

from fedtool.cli import cli
from fedtool.fed.settings import Fed
from fedtool.league import records
from fedtool.league.db import (LEAN_PLUGINS, dice_log, migrations, open_league, pack, read_summary, record_writeups, register_functions,
                               unpack, week_results, week_rounds, week_writeups)
from fedtool.site.build import read_league
from golden import demo_copy

WEEKS = (1, 2, 3, 4, 5)
OLD_TABLES = {  # the tables m017 replaced by views, as m001 and m008 made them
    "match_writeups": ("match_id", "week", "headline", "markdown", "html"),
    "rounds": ("match_id", "round", "week", "style", "winner", "margin", "detail"),
    "dice_rolls": ("week", "match_id", "seq", "round", "purpose", "faces"),
}
WRESTLERS = ("brother-bob", "friendly-sam", "relampago", "rulebook-rivals", "tommy-reyes", "vince-valor", "the-warden", "zelda-voss")


def invoke(*args) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def demo_league(tmp_path_factory) -> Path:
    fed = demo_copy(tmp_path_factory.mktemp("lean") / "fed")
    for week in WEEKS:
        invoke("run", week, "--fed", fed)
    return fed


def old_league(lean: Path, where: Path) -> Path:
    """A copy of the fed whose league has the schema and storage of before m017 and the
    lean league's rows: the old tables filled from the views, in their order, each summary
    as JSON text."""
    fed = Path(shutil.copytree(lean, where, ignore=shutil.ignore_patterns("fed.db*", "backups")))
    source = Database(lean / "fed.db")
    register_functions(source.conn)
    old = Database(fed / "fed.db")
    migrations.apply(old, stop_before="m017_lean_weeks")
    assert set(OLD_TABLES) <= set(old.table_names()) and "lean_dice" not in old.table_names()
    old.execute("PRAGMA foreign_keys = OFF")
    with old.atomic():
        for table in old.table_names():
            if table == migrations.migrations_table:
                continue
            columns = [c.name for c in old[table].columns]
            if table == "matches":
                select = ", ".join("fedtool_inflate(summary)" if c == "summary" else f"[{c}]" for c in columns)
            else:
                select = ", ".join(f"[{c}]" for c in columns)
            rows = source.execute(f"SELECT {select} FROM [{table}]").fetchall()
            old.execute(f"DELETE FROM [{table}]")
            old.conn.executemany(f"INSERT INTO [{table}] VALUES ({', '.join('?' * len(columns))})", rows)
    old.close()
    source.close()
    return fed


def reads(fed: Path, db: Database) -> dict:
    """What the league's read functions give, through `db` as it is (no migration)."""
    the_fed = Fed.load(fed)
    titles = {t.id: t.name for t in the_fed.settings.titles}
    league = read_league(db)
    return {
        "results": {week: week_results(db, week, titles) for week in WEEKS},
        "history": {wid: records.history(the_fed, db, wid) for wid in WRESTLERS},
        "site": [(m["id"], read_summary(m["summary"])) for m in league.matches],  # writeups: the match_writeups rows, compared below
        "standings": json.dumps(records.standings(the_fed, db), default=str) if hasattr(records, "standings") else None,
    }


def table_rows(db: Database, name: str) -> list[tuple]:
    return db.execute(f"SELECT {', '.join(OLD_TABLES[name])} FROM [{name}]").fetchall()


def test_m017_migrates_an_old_league_and_every_read_gives_the_same(demo_league, tmp_path):
    fed = old_league(demo_league, tmp_path / "old")
    old = Database(fed / "fed.db")
    assert "m017_lean_weeks" not in {m.name for m in migrations.applied(old)}
    before = reads(fed, old)
    tables = {name: table_rows(old, name) for name in OLD_TABLES}
    summaries = dict(old.execute("SELECT id, summary FROM matches").fetchall())
    old.close()
    assert all(tables.values()) and all(isinstance(s, str) for s in summaries.values())

    db = open_league(fed / "fed.db")  # migrates
    assert "m017_lean_weeks" in {m.name for m in migrations.applied(db)}
    assert set(OLD_TABLES) <= set(db.view_names()) and not set(OLD_TABLES) & set(db.table_names())
    assert reads(fed, db) == before
    for name, rows in tables.items():
        assert table_rows(db, name) == rows, name  # the views: the same rows, the same order
        assert [c.name for c in db[name].columns] == list(OLD_TABLES[name])
    stored = dict(db.execute("SELECT id, summary FROM matches").fetchall())
    assert all(isinstance(s, bytes) for s in stored.values())
    assert {k: read_summary(v) for k, v in stored.items()} == {k: json.loads(v) for k, v in summaries.items()}
    assert dict(db.execute("SELECT match_id, summary FROM match_summaries").fetchall()) == summaries
    for week in WEEKS:
        assert [tuple(r.values()) for r in dice_log(db, week)] == [r for r in tables["dice_rolls"] if r[0] == week]
        assert [tuple(r[c] for c in OLD_TABLES["rounds"]) for r in week_rounds(db, week)] == [r for r in tables["rounds"] if r[2] == week]
        assert [tuple(w.values()) for w in week_writeups(db, week).values()] == [r for r in tables["match_writeups"] if r[1] == week]
    assert dice_log(db, 1, "week-01/m1") == [dict(zip(OLD_TABLES["dice_rolls"], r)) for r in tables["dice_rolls"] if r[1] == "week-01/m1"]
    db.close()
    # the migrated league is the league a run with m017 keeps, row for row
    lean = Database(demo_league / "fed.db")
    migrated = Database(fed / "fed.db")
    for table in ("lean_writeups", "lean_rounds", "lean_dice"):
        assert migrated.execute(f"SELECT * FROM {table} ORDER BY week").fetchall() == lean.execute(f"SELECT * FROM {table} ORDER BY week").fetchall()
    for week in WEEKS:
        assert invoke("verify", week, "--fed", fed).count(": verified (") >= 1


def test_a_run_league_reads_as_before_and_verifies(demo_league):
    """The lean league written by the runs: the read functions give what the views give, and
    `fedtool verify` replays every week against the packed dice log."""
    db = open_league(demo_league / "fed.db", create=False)
    writeups = week_writeups(db)
    assert list(writeups) == [r[0] for r in table_rows(db, "match_writeups")]
    assert [tuple(w.values()) for w in writeups.values()] == table_rows(db, "match_writeups")
    assert len(writeups) == db["matches"].count == 16
    assert all(w["html"] and w["markdown"] and w["headline"] for w in writeups.values())
    for week in WEEKS:
        log = dice_log(db, week)
        assert log and [tuple(r.values()) for r in log] == db.execute("SELECT * FROM dice_rolls WHERE week = ?", [week]).fetchall()
        assert invoke("verify", week, "--fed", demo_league).count(": verified (") == len({r["match_id"] for r in log} - {"close"})  # and the week's close (healing) rolls
    # the packed rows hold what the views show in a fraction of its size
    packed = sum(len(r[0]) for t in ("lean_writeups", "lean_rounds", "lean_dice") for r in db.execute(f"SELECT data FROM {t}").fetchall())
    shown = sum(len(json.dumps(unpack(r[0], None)).encode()) for t in ("lean_writeups", "lean_rounds", "lean_dice")
                for r in db.execute(f"SELECT data FROM {t}").fetchall())
    assert packed * 5 < shown


def test_a_rerun_replaces_the_weeks_packed_rows(demo_league, tmp_path):
    fed = Path(shutil.copytree(demo_league, tmp_path / "fed"))
    db = open_league(fed / "fed.db")
    before = {t: db.execute(f"SELECT data FROM {t} WHERE week = 5").fetchone() for t in ("lean_writeups", "lean_dice")}
    db.close()
    invoke("run", "5", "--rerun", "--fed", fed)
    db = open_league(fed / "fed.db")
    for table, row in before.items():
        assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE week = 5").fetchone()[0] == 1
        assert db.execute(f"SELECT data FROM {table} WHERE week = 5").fetchone() == row  # the same seeds: the same writeups and dice
    assert [r["match_id"] for r in db["match_writeups"].rows_where("week = 5")] == ["week-05/m1", "week-05/m2", "week-05/m3"]


def test_a_hand_edited_packed_row_reads_as_nothing_not_a_traceback(demo_league, tmp_path):
    fed = Path(shutil.copytree(demo_league, tmp_path / "fed"))
    with sqlite3.connect(fed / "fed.db") as db:
        db.execute("UPDATE matches SET summary = X'00FF' WHERE id = 'week-01/m1'")
        register_functions(db)
        assert db.execute("SELECT summary FROM match_summaries WHERE match_id = 'week-01/m1'").fetchone() == (None,)
        db.execute("UPDATE matches SET summary = ? WHERE id = 'week-01/m2'", [pack({"not": "a summary"})])
    rows = json.loads(invoke("results", 1, "--json", "--fed", fed))
    assert rows[0]["id"] == "m1" and rows[0]["winner"]  # from the match's row; the summary reads as empty


def test_datasette_shows_the_views_with_fedtools_plugin(demo_league, tmp_path):
    pytest.importorskip("datasette")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    copy = tmp_path / "fed.db"
    with sqlite3.connect(demo_league / "fed.db") as source, sqlite3.connect(copy) as target:
        source.backup(target)  # the league with its write-ahead log folded in
    process = subprocess.Popen([sys.executable, "-m", "datasette", "serve", str(copy), "--plugins-dir", str(LEAN_PLUGINS), "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        body = None
        deadline = time.monotonic() + 90  # Datasette's start-up, on a busy machine
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/fed/match_writeups.json?_shape=array&week=2", timeout=5) as answer:
                    body = json.loads(answer.read())
                break
            except urllib.error.HTTPError:
                raise
            except OSError:
                time.sleep(0.05)
        db = open_league(demo_league / "fed.db", create=False)
        assert body == list(week_writeups(db, 2).values())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/fed/dice_rolls.json?_shape=array&match_id=week-01/m1&_size=max", timeout=5) as answer:
            assert json.loads(answer.read()) == dice_log(db, 1, "week-01/m1")
    finally:
        process.terminate()
        process.wait(timeout=10)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=40), st.text(max_size=200), st.text(max_size=200)), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(-5, 30), st.text(max_size=30), st.text(max_size=20)), max_size=6))
def test_the_views_give_back_any_text_as_it_was_packed(writeups, rolls):
    """Whatever a writeup or a dice purpose holds (quotes, backslashes, control characters,
    any Unicode), the views read it back unchanged, as the read functions do."""
    db = open_league(Path("unused.db"), create=False)  # an empty league in memory
    given_writeups = {f"week-01/m{i}": {"headline": h, "markdown": m, "html": x} for i, (h, m, x) in enumerate(writeups)}
    dice = [{"week": 1, "match_id": "week-01/m0", "seq": n, "round": r, "purpose": p, "faces": f} for n, (r, p, f) in enumerate(rolls)]
    with db.atomic():
        db["weeks"].insert({"week": 1, "title": "t", "ran_at": "now", "dice_source": "seeded", "matches": 0})
        db.execute("PRAGMA foreign_keys = OFF")
        record_writeups(db, 1, given_writeups)
        if dice:
            db["lean_dice"].insert({"week": 1, "data": pack([[d[k] for k in ("match_id", "seq", "round", "purpose", "faces")] for d in dice])})
    expected = [{"match_id": k, "week": 1, **v} for k, v in given_writeups.items()]
    assert list(db["match_writeups"].rows) == expected == list(week_writeups(db).values())
    assert list(db["dice_rolls"].rows) == dice == dice_log(db, 1)
