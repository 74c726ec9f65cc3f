"""`fedtool status` and a week's run read the card, the sheets and the league's states once
and book each match once, not once per strategy file (issue 18, item 1): the same verdicts
and the same messages for bad strategies, cards and sheets as each file checked on its own."""

from __future__ import annotations

import datetime
from collections import Counter
from pathlib import Path

import pytest

import fedtool.league.sheets as sheets
import fedtool.week.status as status
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.week.run import run_week
from fedtool.week.status import check_strategy_file, week_status

NOW = datetime.datetime(2026, 11, 20, 12, 0, tzinfo=datetime.timezone.utc)


def _spoil(fed: Path) -> None:
    """Week 1 with a broken strategy (m1), a card field its ruleset refuses (m2: blocks
    both sides), a strategy for the wrong attribute (m3) and a missing one (m4)."""
    week = fed / "strategies" / "week-01"
    bob = week / "brother-bob.yaml"
    bob.write_text(bob.read_text().replace("grid: C", "grid: Q"))
    card = week / "card.yaml"
    card.write_text(card.read_text().replace("    sides: [rocky-ridge, big-earl]\n", "    sides: [rocky-ridge, big-earl]\n    bogus: 3\n"))
    crane = week / "silent-crane.yaml"
    crane.write_text(crane.read_text().replace("plus:", "plus: [Nonsense]\nold_plus:", 1))
    (week / "victor-vane.yaml").unlink()


def _each_file_alone(fed: Fed, week: int) -> dict[tuple[str, str], tuple[str, list]]:
    """Each side's verdict and messages as each file checked on its own (its own card, sheets
    and states read, its match booked for it alone): the path before issue 18."""
    out = {}
    for row in week_status(fed, week, NOW):
        if row.file is None:
            out[(row.match, row.wrestler_id)] = (row.verdict, [])
            continue
        check = check_strategy_file(fed, fed.root / row.file, strict=True)
        out[(row.match, row.wrestler_id)] = ("refused" if check.problems else "stands", [str(p) for p in check.problems + check.blocked])
    return out


def test_shared_status_gives_each_file_alone_verdicts_and_messages(demo_fed: Path) -> None:
    _spoil(demo_fed)
    fed = Fed.load(demo_fed)
    rows = week_status(fed, 1, NOW)
    shared = {(r.match, r.wrestler_id): (r.verdict, [str(p) for p in r.problems]) for r in rows}
    assert shared == _each_file_alone(fed, 1)
    # the spoiled files say so: the check is not vacuous
    assert shared[("m1", "brother-bob")][0] == "refused" and shared[("m1", "friendly-sam")][0] == "stands"
    assert shared[("m2", "rocky-ridge")][0] == "stands" and any("bogus" in m for m in shared[("m2", "rocky-ridge")][1])
    assert any("bogus" in m for m in shared[("m2", "big-earl")][1])
    assert shared[("m3", "silent-crane")][0] == "refused"
    assert shared[("m4", "victor-vane")][0] in ("missing", "default")


def test_status_books_each_match_once_and_reads_each_sheet_once(demo_fed: Path, monkeypatch) -> None:
    fed = Fed.load(demo_fed)
    booked: Counter = Counter()
    read: Counter = Counter()
    book_all, read_sheet = status.book_all, sheets.read_roster_sheet

    def counting_book_all(fed, card, *args, **kwargs):
        booked.update(m.id for m in card.matches)
        return book_all(fed, card, *args, **kwargs)

    def counting_read(fed, wrestler_id, as_member_of=None):
        read[wrestler_id] += as_member_of is None
        return read_sheet(fed, wrestler_id, as_member_of)

    monkeypatch.setattr(status, "book_all", counting_book_all)
    monkeypatch.setattr(sheets, "read_roster_sheet", counting_read)
    rows = week_status(fed, 1, NOW)
    assert [r.verdict for r in rows] == ["stands"] * 10
    assert booked == Counter({m: 1 for m in ("m1", "m2", "m3", "m4", "m5")})  # was 2 each: once per side's file
    assert read and set(read.values()) == {1}  # was 6 each: once for the names, once per file of the card


def test_run_reads_each_sheet_once(demo_fed: Path, monkeypatch) -> None:
    fed = Fed.load(demo_fed)
    read: Counter = Counter()
    read_sheet = sheets.read_roster_sheet

    def counting_read(fed, wrestler_id, as_member_of=None):
        read[(wrestler_id, as_member_of)] += 1
        return read_sheet(fed, wrestler_id, as_member_of)

    monkeypatch.setattr(sheets, "read_roster_sheet", counting_read)
    run_week(fed, 1, now=NOW)
    card_sides = {("brother-bob", None), ("friendly-sam", None), ("relampago", None), ("mad-dog-maddox", None)}
    assert card_sides <= set(read)
    assert max(read[side] for side in card_sides) == 1  # was 3: the run's, the status' and each of the side's files


def test_broken_sheet_refuses_status_with_the_same_message(demo_fed: Path) -> None:
    sheet = demo_fed / "rosters" / "brother-bob.yaml"
    sheet.write_text(sheet.read_text() + "\nbogus_attribute: 3\n")
    fed = Fed.load(demo_fed)
    with pytest.raises(FedError) as caught:
        week_status(fed, 1, NOW)
    assert any("brother-bob.yaml" in (p.file or "") for p in caught.value.problems)
    with pytest.raises(FedError) as alone:
        check_strategy_file(fed, demo_fed / "strategies" / "week-01" / "brother-bob.yaml", strict=True)
    assert [str(p) for p in caught.value.problems] == [str(p) for p in alone.value.problems]


# ---------------------------------------------------------------- opening the league


def _shape(connection) -> tuple:
    return (connection.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(),
            connection.execute("SELECT migration_set, name FROM _sqlite_migrations ORDER BY rowid").fetchall(),
            connection.execute("PRAGMA user_version").fetchall())


def test_a_new_league_file_is_every_migration_copied_not_run_again(tmp_path: Path, monkeypatch) -> None:
    """A fed's first league file holds the schema every migration makes, in WAL mode, with
    each migration recorded, and no migration runs on disk (issue 18: a new fed's run
    migrated in memory, then again on disk, a transaction and a flush each)."""
    import sqlite3

    from sqlite_utils import Database

    from fedtool.league import db as league

    fresh = Database(memory=True)
    league.register_functions(fresh.conn)
    league.migrations.apply(fresh)
    league._empty_league()  # the process's template made before counting
    ran = []
    for migration in league.migrations._migrations:
        monkeypatch.setattr(migration, "fn", lambda db, fn=migration.fn, name=migration.name: (ran.append(name), fn(db))[1])
    opened = league.open_league(tmp_path / "fed.db")
    assert not opened.memory and ran == []  # was every migration's name: they ran again on disk
    assert _shape(opened.conn) == _shape(fresh.conn) and len(_shape(fresh.conn)[1]) > 10
    opened["weeks"].insert({"week": 1, "title": "Week 1"})
    opened.close()
    connection = sqlite3.connect(tmp_path / "fed.db")
    assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert connection.execute("SELECT week, title FROM weeks").fetchall() == [(1, "Week 1")]
    assert not list(tmp_path.glob(".fed.db.new-*"))


def test_a_league_missing_a_migration_still_gets_it(tmp_path: Path) -> None:
    """The shortcut for a league already up to date never skips a pending migration, nor an
    older migrations table's layout (without its `id` key) that sqlite-utils updates."""
    import sqlite3

    from fedtool.league import db as league

    league.open_league(tmp_path / "fed.db").close()
    connection = sqlite3.connect(tmp_path / "fed.db")
    last = connection.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid DESC LIMIT 1").fetchone()[0]
    connection.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [last])
    for view in ("match_writeups", "rounds", "dice_rolls", "match_summaries"):
        connection.execute(f"DROP VIEW IF EXISTS [{view}]")
    for table in ("lean_writeups", "lean_rounds", "lean_dice"):
        connection.execute(f"DROP TABLE [{table}]")
    connection.commit()
    connection.close()
    assert not league._up_to_date(league.Database(tmp_path / "fed.db"))
    reopened = league.open_league(tmp_path / "fed.db")
    assert reopened.execute("SELECT count(*) FROM _sqlite_migrations WHERE name = ?", [last]).fetchone() == (1,)
    assert league._up_to_date(reopened)


def _master(connection) -> tuple:
    return (connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall(),
            connection.execute("SELECT migration_set, name FROM _sqlite_migrations ORDER BY rowid").fetchall(),
            connection.execute("PRAGMA user_version").fetchall(), connection.execute("PRAGMA foreign_keys").fetchall())


def test_the_empty_league_script_is_every_migration_applied() -> None:
    """fedtool/league/empty_league.sql is what the migrations make of an empty league
    (regenerate it with `schema_script` after adding a migration), and the empty league
    made from it is the migrated one, object for object in SQLite's own order."""
    from sqlite_utils import Database

    from fedtool.league import db as league

    migrated = Database(memory=True)
    league.register_functions(migrated.conn)
    migrated.execute("PRAGMA foreign_keys = ON")
    league.migrations.apply(migrated)
    assert league.SCHEMA.read_text(encoding="utf-8") == league.schema_script(migrated), \
        "stale: python -c 'from fedtool.league.db import *; ...' (write schema_script of a migrated empty league to empty_league.sql)"
    made = Database(memory=True)
    league.register_functions(made.conn)
    made.execute("PRAGMA foreign_keys = ON")
    assert league._from_schema(made)
    assert _master(made.conn) == _master(migrated.conn) and len(_master(made.conn)[0]) > 20
    assert league._up_to_date(made)
    made["weeks"].insert({"week": 1, "title": "x"})  # the views read through the functions
    assert made.execute("SELECT count(*) FROM match_summaries").fetchone() == (0,)


def test_a_schema_missing_a_migration_is_not_used(tmp_path: Path, monkeypatch) -> None:
    """A script that lacks a registered migration (or no script) is passed over: the
    migrations run."""
    from sqlite_utils import Database

    from fedtool.league import db as league

    stale = tmp_path / "empty_league.sql"
    text = league.SCHEMA.read_text(encoding="utf-8")
    stale.write_text(text.replace(" m017_lean_weeks", "", 1), encoding="utf-8")
    monkeypatch.setattr(league, "SCHEMA", stale)
    assert not league._from_schema(Database(memory=True))
    monkeypatch.setattr(league, "SCHEMA", tmp_path / "missing.sql")
    assert not league._from_schema(Database(memory=True))
    monkeypatch.setattr(league, "_EMPTY", None)
    assert league._up_to_date(Database(league._empty_league()))
