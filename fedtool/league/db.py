"""The league's records in SQLite, through sqlite-utils; the schema is its migrations.

Every row a week writes carries that week's number, so undoing a week (for `--rerun`)
is deleting its rows. A wrestler's state (push level, points, injury) is stored as of
the end of each week it changed; the current state is the latest such row, or what the
sheet says for a wrestler the league has not seen change.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import re
import sqlite3
from fractions import Fraction
from pathlib import Path
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from fedtool.kernel.dice import seed_text
from fedtool.kernel.errors import FedError, Problem
from fedtool.rulesets import REGISTRY, get_ruleset

if TYPE_CHECKING:  # sqlite-utils is imported where the league is written or migrated (issue 18: a read imports sqlite3 alone)
    from sqlite_utils import Database


def __getattr__(name: str):
    """`Database` (sqlite-utils'), imported when asked for: as it was before reads went without it."""
    if name == "Database":
        from sqlite_utils import Database

        return Database
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MIGRATIONS_TABLE = "_sqlite_migrations"  # where sqlite-utils records the migrations applied (a test checks it is its name)


class _Migrations:
    """sqlite-utils' `Migrations("fedtool")`, made when first used: the migrations below are
    registered in order as the module is read, and the first use of anything else (`apply`,
    `applied`, ...) makes sqlite-utils' own object with them, so reading the league imports
    no sqlite-utils (issue 18). `names` are the migrations' names, in order."""

    def __init__(self, name: str):
        self.set_name = self._set = name
        self._registered: list[tuple[Any, dict]] = []
        self._real = None

    def __call__(self, **options):
        def register(function):
            self._registered.append((function, options))
            if self._real is not None:
                self._real(**options)(function)
            return function

        return register

    @property
    def names(self) -> list[str]:
        return [options.get("name") or function.__name__ for function, options in self._registered]

    def __getattr__(self, attribute: str):
        if attribute.startswith("__") or attribute in ("_set", "_registered", "_real", "set_name"):
            raise AttributeError(attribute)
        if self._real is None:
            from sqlite_utils.migrations import Migrations

            real = Migrations(self._set)
            for function, options in self._registered:
                real(**options)(function)
            self._real = real
        return getattr(self._real, attribute)


migrations = _Migrations("fedtool")


@migrations()
def m001_initial(db: Database) -> None:
    db["wrestlers"].create(
        {"id": str, "name": str, "ruleset": str, "owner_name": str, "owner_email": str},
        pk="id",
    )
    db["weeks"].create(
        {"week": int, "title": str, "ran_at": str, "dice_source": str, "matches": int},
        pk="week",
    )
    db["matches"].create(
        {
            "id": str,
            "week": int,
            "match": str,
            "position": int,
            "ruleset": str,
            "title": str,
            "winner": str,
            "method": str,
            "end_round": int,
            "seed": str,
            "summary": str,
            "notes": str,
        },
        pk="id",
        foreign_keys=[("week", "weeks", "week")],
    )
    db["match_sides"].create(
        {"match_id": str, "side": int, "wrestler_id": str, "outcome": str, "week": int},
        pk=("match_id", "side"),
        foreign_keys=[("match_id", "matches", "id"), ("wrestler_id", "wrestlers", "id")],
    )
    db["rounds"].create(
        {"match_id": str, "round": int, "week": int, "style": str, "winner": int, "margin": int, "detail": str},
        pk=("match_id", "round"),
        foreign_keys=[("match_id", "matches", "id")],
    )
    db["dice_rolls"].create(
        {"week": int, "match_id": str, "seq": int, "round": int, "purpose": str, "faces": str},
        pk=("week", "match_id", "seq"),
    )
    db["wrestler_states"].create(
        {"week": int, "wrestler_id": str, "push_level": int, "push_points": str, "injury": int, "reason": str},
        pk=("week", "wrestler_id"),
        foreign_keys=[("wrestler_id", "wrestlers", "id")],
    )
    for table, columns in (("matches", ["week"]), ("match_sides", ["wrestler_id"]), ("rounds", ["week"]), ("wrestler_states", ["wrestler_id"])):
        db[table].create_index(columns)


@migrations()
def m002_team_members(db: Database) -> None:
    """Tag teams (MatchMatch I.2) are league members with members of their own."""
    db["wrestlers"].add_column("members", str)


@migrations()
def m003_tv_grades_and_grudges(db: Database) -> None:
    """Face to the Mat keeps TV grades and grudge grades in the league (issue 5)."""
    db["wrestler_states"].add_column("tv_grade", str)
    db["wrestler_states"].add_column("grudge", int)


@migrations()
def m004_stakes(db: Database) -> None:
    """Face to the Mat grudge stakes carried into the league: who left town, title shots."""
    db["wrestler_states"].add_column("left_town", int)
    db["wrestler_states"].add_column("title_shot", int)


@migrations()
def m005_sent_mail(db: Database) -> None:
    """`fedtool send`: each mail delivered, by Message-ID, so nothing goes twice."""
    db["sent_mail"].create({"message_id": str, "file": str, "to": str, "sent_at": str}, pk="message_id")


@migrations()
def m006_inbox_seen(db: Database) -> None:
    """`fedtool inbox`: each mail read, by Message-ID, so the same mail read twice counts once."""
    db["inbox_seen"].create({"message_id": str, "sender": str, "verdict": str, "why": str, "read_at": str}, pk="message_id")


@migrations()
def m007_titles(db: Database) -> None:
    """Titles (issue 7): each title match as the run decided it (undone by --rerun), and the
    fedhead's vacate and award rulings, effective after a week (kept by --rerun)."""
    db["title_matches"].create(
        {"match_id": str, "week": int, "title_id": str, "holder_before": str, "winner": str, "method": str, "result": str, "reason": str},
        pk="match_id",
        foreign_keys=[("match_id", "matches", "id")],
    )
    db["title_matches"].create_index(["title_id"])
    db["title_rulings"].create(
        {"id": int, "title_id": str, "action": str, "wrestler_id": str, "after_week": int, "reason": str, "made_at": str},
        pk="id",
    )


@migrations()
def m008_match_writeups(db: Database) -> None:
    """Each match's writeup as the run rendered it (Markdown and the HTML fragment), so
    `fedtool site` never depends on outbox folders surviving (issue 7)."""
    db["match_writeups"].create(
        {"match_id": str, "week": int, "headline": str, "markdown": str, "html": str},
        pk="match_id",
        foreign_keys=[("match_id", "matches", "id")],
    )
    db["match_writeups"].create_index(["week"])


@migrations()
def m009_mail_loop(db: Database) -> None:
    """Issue 6: which week and wrestler each mail was for and when it arrived (for `fedtool
    status`), and players' strategy-mail passwords, salted and hashed (`fedtool password`)."""
    for column in ("week", "wrestler_id", "arrived"):
        db["inbox_seen"].add_column(column, int if column == "week" else str)
    db["player_passwords"].create({"email": str, "hash": str, "set_at": str}, pk="email")


@migrations()
def m010_allies_foes_challenges(db: Database) -> None:
    """Face to the Mat storylines in the league: allies and foes (JSON lists of wrestler ids)
    as they change, and a pending grudge match challenge (issue 5)."""
    for column in ("allies", "foes", "challenge"):
        db["wrestler_states"].add_column(column, str)


@migrations()
def m011_ruleset_state(db: Database) -> None:
    """Issue 11: a ruleset's state keys beyond the columns above (a JSON object), so a new
    ruleset keeps its own state with no change to the league."""
    db["wrestler_states"].add_column("other", str)


@migrations()
def m012_week_runs(db: Database) -> None:
    """Issue 12: every run of every week (run 1, then each rerun), never undone, so a
    rerun's mails get new Message-IDs and say they are corrections. Weeks already run count
    as run once."""
    db["week_runs"].create({"week": int, "run": int, "ran_at": str, "dice_source": str}, pk=("week", "run"))
    db.execute("INSERT INTO week_runs (week, run, ran_at, dice_source) SELECT week, 1, ran_at, dice_source FROM weeks")


@migrations()
def m013_ticks(db: Database) -> None:
    """Issue 12: each `fedtool tick` that acted, when and what it did (the clock guard reads the last)."""
    db["ticks"].create({"at": str, "did": str})


@migrations()
def m014_away(db: Database) -> None:
    """Issue 12: players away (`fedtool away`, one span of days per owner address, kept by
    --rerun) and each run week's record of every side's strategy: on time, late, missing or
    away (a week table, undone by --rerun). See fedtool.league.away."""
    db["away"].create({"email": str, "name": str, "from_day": str, "to_day": str, "set_at": str}, pk="email")
    db["punctuality"].create({"week": int, "match": str, "wrestler_id": str, "owner_email": str, "owner_name": str, "record": str},
                             pk=("week", "match", "wrestler_id"))
    db["punctuality"].create_index(["owner_email"])


@migrations()
def m015_roster_and_titles(db: Database) -> None:
    """Issue 19 (a league any tool can read): owners' e-mail addresses out of `wrestlers`
    into `owners`, a private table (`fedtool browse` and `fedtool export` never show it);
    each wrestler's retirement as a real column and every sheet change with its week and
    reason (`roster_changes`, fedtool.roster.manage); a team's members as rows; a match's
    star rating as a column; the fed's titles and their reigns as rows (rebuilt from the
    settings and the title matches by fedtool.league.catalog.sync_titles)."""
    db["owners"].create({"wrestler_id": str, "owner_email": str}, pk="wrestler_id", foreign_keys=[("wrestler_id", "wrestlers", "id")])
    db.execute("INSERT INTO owners (wrestler_id, owner_email) SELECT id, owner_email FROM wrestlers")
    db.execute("ALTER TABLE wrestlers DROP COLUMN owner_email")
    db["wrestlers"].add_column("retired_after", int)
    db["roster_changes"].create(
        {"id": int, "wrestler_id": str, "action": str, "after_week": int, "reason": str, "sheet": str, "previous": str, "made_at": str},
        pk="id", foreign_keys=[("wrestler_id", "wrestlers", "id")],
    )
    db["roster_changes"].create_index(["wrestler_id"])
    db["team_members"].create({"team_id": str, "member_id": str, "position": int}, pk=("team_id", "member_id"),
                              foreign_keys=[("team_id", "wrestlers", "id")])
    for row in db.execute("SELECT id, members FROM wrestlers WHERE members IS NOT NULL").fetchall():
        members = _stored_json(row[1], [])
        db["team_members"].insert_all({"team_id": row[0], "member_id": str(m), "position": i} for i, m in enumerate(members))
    db["matches"].add_column("stars", float)
    db.execute("UPDATE matches SET stars = json_extract(summary, '$.rating.stars') WHERE json_valid(summary) "
               "AND json_type(summary, '$.rating.stars') IN ('integer', 'real')")
    db["titles"].create({"id": str, "position": int, "name": str, "ruleset": str, "division": str, "teams": int, "first_holder": str,
                         "changes_on": str, "holder": str}, pk="id")
    db["title_reigns"].create(
        {"title_id": str, "reign": int, "wrestler_id": str, "won_week": int, "won_match": str, "how": str, "lost_week": int,
         "lost_how": str, "defences": int, "weeks": int},
        pk=("title_id", "reign"), foreign_keys=[("title_id", "titles", "id"), ("wrestler_id", "wrestlers", "id")],
    )
    db["title_reigns"].create_index(["wrestler_id"])


PRIVATE_TABLES = ("owners", "player_passwords", "away", "punctuality", "inbox_seen", "sent_mail")  # e-mail addresses, password hashes


STATE_KEYS = ("push_level", "push_points", "injury", "tv_grade", "grudge", "left_town", "title_shot", "allies", "foes", "challenge")
LIST_KEYS = ("allies", "foes")  # stored as JSON


WEEK_TABLES = ("punctuality", "title_matches", "lean_writeups", "lean_dice", "lean_rounds", "match_sides", "wrestler_states", "matches", "weeks")


RULE = "the league database"
WHAT_TO_DO = "restore a snapshot (`fedtool restore` lists them) or check the `database:` setting in rosters/fed.yaml"


def open_league(path: Path, create: bool = True) -> Database:
    """Open the league database and bring its schema up to date; every open of `fed.db` goes
    through here, and whatever SQLite or the disk says is wrong becomes one FedError naming
    the file and what to do (`league_error`).

    With `create=False` a fed that has no database yet gets an empty one in memory, so
    reading and checking never leaves a file behind. A missing file is a new league; a
    missing folder is not (the `database:` setting is wrong: fedtool never makes the folder).
    An empty file (0 bytes) is refused, although SQLite would read it as an empty database:
    fedtool never leaves one (a new league's file is made whole beside it and linked into
    place, `_create`), so it was emptied by something else, and taking it for a new league
    would quietly forget every week run; the message says to restore a snapshot or delete
    the file.
    """
    check_league_path(path)
    if path.is_file() and path.stat().st_size == 0:
        raise FedError(Problem(str(path), None, "is empty (0 bytes), not a league: fedtool never leaves one empty, so something else emptied it; "
                               "restore a snapshot (`fedtool restore` lists them), or delete the file to start a new league", RULE))
    # the league over the standard library's sqlite3 (`League`, issue 18: importing sqlite-utils
    # was a tenth of a week's run); sqlite-utils' Database over the same connection
    # (`League.full`) for what `League` does not do itself: the migrations, when one is pending
    if not create and not path.exists():
        league = League(sqlite3.connect(":memory:"))
        league.execute("PRAGMA recursive_triggers=on;")  # as sqlite-utils' Database makes a connection
        _empty_league().backup(league.conn)  # the schema made once a process, copied (issue 18: a run opens it a dozen times)
        league.memory = True
    else:
        league = None
        try:
            if not path.exists():
                _create(path)
            league = League(sqlite3.connect(str(path)))
            league.execute("PRAGMA recursive_triggers=on;")
            # write-ahead logging: a commit is one append and one fsync (0.2 ms here, against
            # 0.7 ms for a rollback journal's create, write, fsync and delete), which is what
            # lets `send` record every mail before and after it goes (at most once) and stay
            # fast. Still durable and atomic under a crash or a power cut (synchronous FULL).
            # The setting lives in the file; the log (fed.db-wal) is folded back into fed.db
            # when the last connection closes, and replayed by the next open after a crash.
            league.enable_wal()
            _check_is_league(league, path)
        except BaseException as exc:
            if league is not None:
                league.close()
            if isinstance(exc, sqlite3.Error):
                raise league_error(path, exc) from None
            raise
    try:
        register_functions(league.conn)
        league.execute("PRAGMA foreign_keys = ON")
        if not _up_to_date(league):
            migrations.apply(league.full())
    except sqlite3.Error as exc:
        raise league_error(path, exc) from None
    return league  # type: ignore[return-value]


def read_league(path: Path) -> "Database | League":
    """The league to read (never to write): `fed.db` opened with the standard library's
    sqlite3 alone (issue 18: sqlite-utils' import was a fifth of `fedtool standings`), as a
    `League`, which reads as sqlite-utils' Database reads (`execute`, `db[table].rows`,
    `rows_where`, `exists`, `count`). Anything else goes through `open_league(create=False)`
    as before: no league yet (an empty one in memory), a migration pending (applied), a file
    that is empty, not a league or not a database (the error it gives)."""
    if not path.exists() and not path.is_symlink():
        check_league_path(path)  # a folder that is not there: the `database:` setting is wrong
        league = League(sqlite3.connect(":memory:"))  # no league yet: an empty one in memory, its schema copied
        _empty_league().backup(league.conn)
        register_functions(league.conn)
        league.memory = True
        return league
    try:
        if path.is_file() and path.stat().st_size > 0:
            connection = sqlite3.connect(path)
            try:
                register_functions(connection)
                if _migrated(connection):
                    return League(connection)
            except sqlite3.Error:
                pass
            connection.close()
    except OSError:
        pass
    return open_league(path, create=False)


def _migrated(connection: sqlite3.Connection) -> bool:
    """Whether every migration is recorded as applied, as `_up_to_date` asks it."""
    keys = [row[1] for row in connection.execute(f"PRAGMA table_info([{MIGRATIONS_TABLE}])").fetchall() if row[5]]
    if keys != ["id"]:
        return False
    applied = {row[0] for row in connection.execute(f"SELECT name FROM [{MIGRATIONS_TABLE}] WHERE migration_set = ?", [migrations.set_name]).fetchall()}
    return set(migrations.names) <= applied


class League:
    """The league over a sqlite3 connection, as sqlite-utils' Database reads and writes it:
    `read_league`'s (to read) and `open_league`'s when no migration is pending (issue 18:
    importing sqlite-utils was a tenth of a week's run). `execute`, `atomic`, `db[table]`'s
    `rows`, `rows_where`, `exists`, `count`, `insert`, `insert_all`, `upsert`, `upsert_all`
    are written here as sqlite-utils 4 writes them (the same statements, the same values,
    the same transactions: tests/test_startup_run.py compares them); anything else
    (`db.tables`, `db[table].create_index(...)`, an insert that alters or creates a table)
    is sqlite-utils' own, on the same connection (`full`)."""

    memory = False

    def __init__(self, connection: sqlite3.Connection):
        self.conn = connection
        self._full = None

    def full(self) -> "Database":
        """sqlite-utils' Database over this connection (imported and made when first asked)."""
        if self._full is None:
            from sqlite_utils import Database

            self._full = Database(self.conn, execute_plugins=False)
        return self._full

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("conn", "_full"):
            raise AttributeError(name)
        return getattr(self.full(), name)

    def execute(self, sql: str, parameters: Iterable | dict | None = None) -> sqlite3.Cursor:
        """As sqlite-utils 4's `Database.execute`: a write outside a transaction is committed."""
        connection = self.conn
        was_in_transaction = connection.in_transaction
        try:
            cursor = connection.execute(sql, parameters) if parameters is not None else connection.execute(sql)
        except Exception:
            if not was_in_transaction and connection.in_transaction:
                connection.execute("ROLLBACK")  # the failed statement's implicit transaction
            raise
        if not was_in_transaction and connection.in_transaction and cursor.description is None and _first_keyword(sql) not in _TRANSACTION_WORDS:
            connection.execute("COMMIT")
        return cursor

    @contextlib.contextmanager
    def atomic(self) -> Iterator["League"]:
        """As sqlite-utils 4's `Database.atomic`: one transaction; a nested block a savepoint."""
        connection = self.conn
        if connection.in_transaction:
            import secrets

            savepoint = f"sqlite_utils_{secrets.token_hex(16)}"
            connection.execute(f"SAVEPOINT {savepoint};")
            try:
                yield self
            except BaseException:
                if connection.in_transaction:
                    connection.execute(f"ROLLBACK TO SAVEPOINT {savepoint};")
                    connection.execute(f"RELEASE SAVEPOINT {savepoint};")
                raise
            else:
                connection.execute(f"RELEASE SAVEPOINT {savepoint};")
        else:
            connection.execute("BEGIN")
            try:
                yield self
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
            else:
                try:
                    connection.execute("COMMIT")
                except BaseException:
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                    raise

    def enable_wal(self) -> None:
        """As sqlite-utils' `enable_wal`: the journal set to write-ahead logging, outside a transaction."""
        if self.conn.execute("PRAGMA journal_mode;").fetchone()[0] != "wal":
            if self.conn.in_transaction:
                return self.full().enable_wal()  # sqlite-utils' refusal
            level = self.conn.isolation_level
            self.conn.isolation_level = None
            try:
                self.execute("PRAGMA journal_mode=wal;")
            finally:
                self.conn.isolation_level = level

    def __getitem__(self, name: str) -> "_Table":
        return _Table(self, name)

    def table_names(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]

    def close(self) -> None:
        self.conn.close()


_TRANSACTION_WORDS = frozenset(("BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"))
_FIRST_WORD = re.compile(r"(?:\s|;|\ufeff|--[^\n]*(?:\n|$)|/\*.*?(?:\*/|$))*([A-Za-z]*)", re.DOTALL)


def _first_keyword(sql: str) -> str:
    """A statement's first keyword, uppercased, after blanks, empty statements and comments
    (sqlite-utils' `_first_keyword`)."""
    return _FIRST_WORD.match(sql).group(1).upper()


class _Table:
    """A table or view of a `League`, read and written as sqlite-utils reads and writes one."""

    def __init__(self, db: League, name: str):
        self.db = db
        self.name = name
        self.last_rowid: int | None = None
        self.last_pk: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("db", "name"):
            raise AttributeError(name)
        return getattr(self.db.full()[self.name], name)

    def exists(self) -> bool:
        return self.db.conn.execute("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", [self.name]).fetchone() is not None

    @property
    def count(self) -> int:
        return self.db.conn.execute(f"SELECT count(*) FROM [{self.name}]").fetchone()[0]

    @property
    def rows(self) -> Iterator[dict]:
        return self.rows_where()

    def rows_where(self, where: str | None = None, where_args: Iterable | dict | None = None, order_by: str | None = None,
                   select: str = "*", limit: int | None = None, offset: int | None = None) -> Iterator[dict]:
        if not self.exists():
            return
        sql = f"select {select} from [{self.name}]" + (f" where {where}" if where is not None else "") + (f" order by {order_by}" if order_by is not None else "")
        if limit is not None:
            sql += f" limit {limit}"
        if offset is not None:
            sql += f" offset {offset}"
        cursor = self.db.conn.execute(sql, where_args or [])
        columns = [c[0] for c in cursor.description]
        for row in cursor:
            yield dict(zip(columns, row))

    # ------------------------------------------------------------ writes, as sqlite-utils 4 writes

    def insert(self, record: dict, **options: Any) -> "_Table":
        return self.insert_all([record], **options)

    def upsert(self, record: dict, **options: Any) -> "_Table":
        return self.upsert_all([record], **options)

    def upsert_all(self, records: Iterable[dict], **options: Any) -> "_Table":
        return self.insert_all(records, upsert=True, **options)

    def insert_all(self, records: Iterable[dict], pk: Any = None, ignore: bool = False, replace: bool = False, upsert: bool = False, **options: Any) -> "_Table":
        """sqlite-utils' `insert_all` (`upsert_all`) of dicts into a table that exists, with
        `pk`, `ignore`, `replace`: each batch's columns (the first's sorted, each later one's
        added in order), every value as sqlite-utils stores it (`_stored`), each batch one
        statement in its own transaction (a savepoint inside one). Anything else (a table to
        create, columns to add, another option, upsert without `pk`) is sqlite-utils' own."""
        records = iter(records)
        first = next(records, None)
        if first is None:
            return self
        if options or not isinstance(first, dict) or (upsert and not pk) or (ignore and replace) or not self.exists():
            table = self.db.full()[self.name]
            rest = itertools.chain([first], records)
            if upsert:
                table.upsert_all(rest, pk=pk, **options) if pk else table.upsert_all(rest, **options)
            else:
                table.insert_all(rest, **({"pk": pk} if pk else {}), ignore=ignore, replace=replace, **options)
            self.last_rowid, self.last_pk = table.last_rowid, table.last_pk
            return self
        width = len(first)
        batch = 1 if width == 0 else max(1, min(100, 999 // width))
        columns: list[str] = []
        done = 0
        result = None
        self.last_rowid = self.last_pk = None
        for chunk in _chunks(itertools.chain([first], records), batch):
            done += len(chunk)
            if not columns:
                columns = sorted({key for record in chunk for key in record})
            else:
                for record in chunk:
                    columns += [key for key in record if key not in columns]
            result = self._write(chunk, columns, pk, ignore, replace, upsert)
        if done == 1:
            if upsert:
                self.last_pk = first[pk] if isinstance(pk, str) else tuple(first[p] for p in pk)
            elif ignore and result is not None and result.rowcount == 0:  # an existing row: sqlite-utils' own account of it
                table = self.db.full()[self.name]
                table.insert_all([first], pk=pk, ignore=True) if pk else table.insert_all([first], ignore=True)
                self.last_rowid, self.last_pk = table.last_rowid, table.last_pk
            elif result is not None:
                self.last_rowid = result.lastrowid
                if pk and not (isinstance(pk, str) and pk.lower() in ("rowid", "_rowid_", "oid")) and self.last_rowid:
                    row = next(iter(self.rows_where("rowid = ?", [self.last_rowid])))
                    self.last_pk = row[pk] if isinstance(pk, str) else tuple(row[p] for p in pk)
                else:
                    self.last_pk = self.last_rowid
        return self

    def _write(self, chunk: list[dict], columns: list[str], pk: Any, ignore: bool, replace: bool, upsert: bool) -> sqlite3.Cursor | None:
        if not columns:
            if upsert:
                return self.db.full()[self.name].upsert_all(chunk, pk=pk) and None
            verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE" if ignore else "INSERT"
            statements = [(f"{verb} INTO {_quoted(self.name)} DEFAULT VALUES", []) for _ in chunk]
        else:
            values = [_stored(record.get(key)) for record in chunk for key in columns]
            rows = ", ".join(["(" + ", ".join("?" * len(columns)) + ")"] * len(chunk))
            names = ", ".join(_quoted(c) for c in columns)
            if replace:
                sql = f"INSERT OR REPLACE INTO {_quoted(self.name)} ({names}) VALUES {rows}"
            elif not upsert:
                sql = f"INSERT{' OR IGNORE' if ignore else ''} INTO {_quoted(self.name)} ({names}) VALUES {rows}"
            else:
                keys = [pk] if isinstance(pk, str) else list(pk)
                if any(k not in columns for k in keys) or any(record.get(k) is None for record in chunk for k in keys):
                    return self.db.full()[self.name].upsert_all(chunk, pk=pk) and None  # sqlite-utils' refusal
                rest = [c for c in columns if c not in keys]
                clause = "DO UPDATE SET " + ", ".join(f"{_quoted(c)} = excluded.{_quoted(c)}" for c in rest) if rest else "DO NOTHING"
                sql = f"INSERT INTO {_quoted(self.name)} ({names}) VALUES {rows} ON CONFLICT({', '.join(_quoted(k) for k in keys)}) {clause}"
            statements = [(sql, values)]
        result = None
        with self.db.atomic():
            for sql, values in statements:
                result = self.db.execute(sql, values)
        return result


def _quoted(identifier: str) -> str:
    return '"{}"'.format(identifier.replace('"', '""'))


def _chunks(items: Iterator[dict], size: int) -> Iterator[list[dict]]:
    chunk: list[dict] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _stored(value: Any) -> Any:
    """A value as sqlite-utils 4 stores it (`jsonify_if_needed`): a mapping or list as JSON,
    a date or time in ISO form, a span or UUID as text, a Decimal as a float."""
    kind = type(value)
    if value is None or kind in (str, int, float, bytes, bool):
        return value
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, default=repr, ensure_ascii=False)
    import datetime
    import decimal
    import uuid

    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (datetime.time, datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, (datetime.timedelta, uuid.UUID)):
        return str(value)
    return value


_EMPTY: sqlite3.Connection | None = None


def _up_to_date(db: Database) -> bool:
    """Whether every migration is recorded as applied, in a migrations table of the layout
    sqlite-utils keeps (`id` its key): then `migrations.apply` would change nothing, and its
    dozen queries a migration are spared (issue 18: a run opens the league several times).
    Anything else (a migration pending, an older table's layout, no table) goes through
    `migrations.apply` as before."""
    return _migrated(db.conn)


def _empty_league() -> sqlite3.Connection:
    """An empty league in memory with every migration applied, made once per process:
    `open_league(create=False)` and `read_league` of a fed with no league copy it rather
    than run each migration again. Made from `empty_league.sql` with sqlite3 alone (a
    command that reads imports no sqlite-utils); by the migrations if the script is stale."""
    global _EMPTY
    if _EMPTY is None:
        template = sqlite3.connect(":memory:")
        register_functions(template)
        template.execute("PRAGMA foreign_keys = ON")
        if not _from_schema(template):
            template.close()
            from sqlite_utils import Database

            migrated = Database(memory=True, execute_plugins=False)
            register_functions(migrated.conn)
            migrated.execute("PRAGMA foreign_keys = ON")
            migrations.apply(migrated)
            template = migrated.conn
        _EMPTY = template
    return _EMPTY


SCHEMA = Path(__file__).with_name("empty_league.sql")  # what every migration makes of an empty league, kept beside the code
_SCHEMA_HEAD = "-- fedtool's empty league, every migration applied: "


def schema_script(db: Database) -> str:
    """A migrated league's schema as the SQL that makes it again, object by object in the
    order SQLite lists them, headed by the migrations it holds (`empty_league.sql` is this
    of an empty league: tests/test_week_status_shared.py checks it is current)."""
    names = [row[0] for row in db.execute(f"SELECT name FROM [{migrations.migrations_table}] WHERE migration_set = ? ORDER BY rowid", [migrations.name])]
    statements = [row[0] for row in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'sqlite_sequence' ORDER BY rowid")]
    return _SCHEMA_HEAD + " ".join(names) + "\n" + "".join(f"{sql};\n" for sql in statements)


def _from_schema(db: Database | sqlite3.Connection) -> bool:
    """The empty league made from `empty_league.sql` when it holds every migration registered
    (issue 18: a run of a new fed migrated an empty league in memory first, about a tenth of
    the run's work): its statements, then each migration recorded as `migrations.apply`
    records it. Without the file, or with a migration it lacks, False: apply them."""
    connection = getattr(db, "conn", db)
    names = migrations.names
    try:
        text = SCHEMA.read_text(encoding="utf-8")
    except OSError:
        return False
    head, _, script = text.partition("\n")
    if not head.startswith(_SCHEMA_HEAD) or head[len(_SCHEMA_HEAD):].split() != names:
        return False
    import datetime

    with connection:
        connection.executescript("BEGIN;\n" + script + "COMMIT;")
    now = str(datetime.datetime.now(datetime.timezone.utc))
    with connection:
        connection.executemany(f"INSERT INTO [{MIGRATIONS_TABLE}] (migration_set, name, applied_at) VALUES (?, ?, ?)",
                               [(migrations.set_name, name, now) for name in names])
    return True


def _create(path: Path) -> None:
    """A new league's file, never seen empty: SQLite makes a file at open and writes its
    header only at the first write, so a process killed in between would leave 0 bytes. The
    file is made beside the league under a name of its own, given its header (and the WAL
    mode) and every migration (copied from `_empty_league`), flushed, then linked to the
    league's name (a link never replaces a file another process made meanwhile). Leftovers
    of a creation killed before its link are removed."""
    import glob
    import tempfile  # here, not at the top: a command that reads the league makes none (issue 18)

    for leftover in path.parent.glob(f".{glob.escape(path.name)}.new-*"):
        leftover.unlink(missing_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.new-", dir=path.parent)
    os.close(fd)
    made = Path(name)
    try:
        connection = sqlite3.connect(made)
        try:
            # every migration, applied once a process in memory, copied in (issue 18: not run
            # again on disk, a transaction and a flush each); the file is no one's until linked,
            # so it is written with no journal and flushed once, below
            connection.execute("PRAGMA journal_mode = OFF")
            connection.execute("PRAGMA synchronous = OFF")
            _empty_league().backup(connection)
            connection.execute("PRAGMA journal_mode = WAL")  # in the header
        finally:
            connection.close()
        with open(made, "rb") as handle:
            os.fsync(handle.fileno())
        try:
            os.link(made, path)
        except FileExistsError:
            pass
    finally:
        made.unlink(missing_ok=True)


def check_league_path(path: Path) -> None:
    """What can be told of the league's file before SQLite opens it: a folder, a device, or a
    folder that is not there is never a league (the `database:` setting is wrong)."""
    if path.is_dir():
        raise FedError(Problem(str(path), None, "is a folder, not the league's database file; check the `database:` setting in rosters/fed.yaml", RULE))
    if not path.parent.is_dir():
        raise FedError(Problem(str(path), None, f"the folder {path.parent} does not exist (fedtool creates a new league's file, never its folder); "
                               "check the `database:` setting in rosters/fed.yaml", RULE))
    if path.exists() and not path.is_file():
        raise FedError(Problem(str(path), None, "is not a regular file (a device or a pipe); check the `database:` setting in rosters/fed.yaml", RULE))


def _check_is_league(db: Database, path: Path) -> None:
    """A SQLite file with tables but none of fedtool's migrations is someone else's: refuse it
    rather than write the league's tables into it."""
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
    if names and MIGRATIONS_TABLE not in names:
        raise FedError(Problem(str(path), None, f"is a SQLite database, but not a fedtool league (it holds {', '.join(sorted(names)[:3])}"
                               f"{', ...' if len(names) > 3 else ''}); check the `database:` setting in rosters/fed.yaml", RULE))


def league_error(path: Path, exc: BaseException, shown: str | None = None) -> FedError:
    """What SQLite (or the disk) said about the league at `path`, as one clear FedError: what
    is wrong and what to do. Used by `open_league`, and by the command line for errors that
    surface later (at a commit): a read-only file, a full disk. SQLite rolls back a
    transaction it cannot finish, so a change that failed is never half in the league."""
    shown = shown or str(path)
    said = str(exc) or type(exc).__name__
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if path.is_dir() or not path.parent.is_dir():
        try:
            check_league_path(path)
        except FedError as error:
            return error
    if primary == sqlite3.SQLITE_NOTADB and is_text_file(path):
        return FedError(Problem(shown, None, "is a text file, not a league database; check the `database:` setting in rosters/fed.yaml", RULE))
    if primary in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        return FedError(Problem(shown, None, f"is damaged or not a league database (SQLite: {said}); {WHAT_TO_DO}", RULE))
    if primary == sqlite3.SQLITE_FULL or isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return FedError(Problem(shown, None, f"the disk is full (SQLite: {said}); SQLite rolled back the unfinished change, "
                               "so nothing in the league is half-written: free some space, then run the command again", RULE))
    if primary == sqlite3.SQLITE_READONLY or primary == sqlite3.SQLITE_CANTOPEN:
        folder = _unwritable(path.parent)
        if folder:
            return FedError(Problem(shown, None, f"its folder {path.parent} cannot be written ({folder}); SQLite keeps the league's log "
                                   f"({path.name}-wal, {path.name}-shm) beside it, even to read it: make the folder writable "
                                   "for the user running fedtool", RULE))
        if primary == sqlite3.SQLITE_READONLY:
            return FedError(Problem(shown, None, f"cannot be written (SQLite: {said}); SQLite rolled back the unfinished change, "
                                   "so nothing in the league is half-written: make the file writable for the user running fedtool, "
                                   "then run the command again", RULE))
        return FedError(Problem(shown, None, f"cannot be opened (SQLite: {said}); check that it can be read and written by the user "
                               "running fedtool, and the `database:` setting in rosters/fed.yaml", RULE))
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return FedError(Problem(shown, None, f"is in use by another program (SQLite: {said}); nothing was changed: run the command again "
                               "when it has finished", RULE))
    return FedError(Problem(shown, None, f"SQLite refused a change (SQLite: {said}); SQLite rolled back the unfinished change, "
                           f"so nothing in the league is half-written; if this persists, {WHAT_TO_DO}", RULE))


SQLITE_HEADER = b"SQLite format 3\x00"


def is_text_file(path: Path) -> bool:
    """Whether a file SQLite cannot read is text (a YAML file named by `database:`), not a
    damaged league: it does not begin as SQLite's files do and its start is UTF-8 with no NUL."""
    try:
        with path.open("rb") as handle:
            start = handle.read(4096)
    except OSError:
        return False
    if start.startswith(SQLITE_HEADER) or b"\x00" in start:
        return False
    try:
        start.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start > len(start) - 4  # only a character cut at the end
    return True


def _unwritable(folder: Path) -> str | None:
    """Why nothing can be created in `folder` (\"Permission denied\"), or None when it can:
    found by trying, since permission bits do not tell (root, read-only mounts, immutable files)."""
    try:
        import tempfile

        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as exc:
        return exc.strerror or str(exc)


def ran_weeks(db: Database) -> list[int]:
    return [row["week"] for row in db["weeks"].rows_where(order_by="week")]


def week_row(db: Database, week: int) -> dict | None:
    rows = list(db["weeks"].rows_where("week = ?", [week]))
    return rows[0] if rows else None


def runs_of(db: Database, week: int) -> int:
    """How many times the week has been run (0: never); kept by `undo_week` (m012)."""
    row = db.execute("SELECT MAX(run) FROM week_runs WHERE week = ?", [week]).fetchone()
    return row[0] or 0


def undo_week(db: Database, week: int) -> None:
    """Remove everything a week wrote but its count of runs (`week_runs`). The caller holds the transaction."""
    for table in WEEK_TABLES:
        db.execute(f"DELETE FROM [{table}] WHERE week = ?", [week])


def states_before(db: Database, week: int) -> dict[str, dict]:
    """Each wrestler's stored state going into `week` (`states_through` for one week)."""
    return next(states_through(db, [week]))[1]


def states_through(db: Database, weeks: Iterable[int]) -> Iterator[tuple[int, dict[str, dict]]]:
    """Each of `weeks` (ascending) with each wrestler's stored state going into it, the
    league's states read once: his latest row from an earlier week, or a closed season's
    carry-over (issue 19) when the season closed after that row and before the week; a
    row of a later week stands over the carry-over again. The state dicts are shared
    between the weeks yielded: read them, never change them."""
    state_columns = ", ".join(STATE_KEYS)
    events = [(w, 0, wid, other, values) for w, wid, other, *values in db.execute(
        f"SELECT week, wrestler_id, other, {state_columns} FROM wrestler_states ORDER BY week, rowid").fetchall()]
    if db["season_states"].exists():  # a carry-over stands from the week after its season's last
        events += [(last, 1, wid, other, values) for last, wid, other, *values in db.execute(
            f"SELECT s.last_week, c.wrestler_id, c.other, {', '.join('c.' + k for k in STATE_KEYS)} FROM season_states c "
            "JOIN seasons s ON s.season = c.season ORDER BY s.last_week, c.rowid").fetchall()]
        events.sort(key=lambda e: (e[0], e[1]))  # stable: a season's carry-over after the rows of its last week
    latest: dict[str, int] = {}  # wrestler -> his latest event so far (read into a state only when yielded)
    made: dict[int, dict] = {}
    at = 0
    for week in weeks:
        while at < len(events) and events[at][0] < week:
            latest[events[at][2]] = at
            at += 1
        for index in latest.values():
            if index not in made:
                made[index] = _state(events[index][3], events[index][4])
        yield week, {wid: made[index] for wid, index in latest.items()}


def states_streamed(db: Database, weeks: Iterable[int]) -> Iterator[tuple[int, Mapping[str, dict]]]:
    """`states_through`, with the league's state rows read as a stream (a cursor, never all at
    once): what it holds is each wrestler's latest row, whatever the number of weeks (issue 18,
    the site). The same order of rows (a season's carry-over after the rows of its last week),
    the same states, each made from its row only when asked for (`_LatestStates`). The mapping
    yielded is one and the same, brought up to each week in turn: read it, never keep it."""
    state_columns = ", ".join(STATE_KEYS)
    sql = f"SELECT week, 0, rowid, wrestler_id, other, {state_columns} FROM wrestler_states"
    if db["season_states"].exists():
        sql += (f" UNION ALL SELECT s.last_week, 1, c.rowid, c.wrestler_id, c.other, {', '.join('c.' + k for k in STATE_KEYS)} "
                "FROM season_states c JOIN seasons s ON s.season = c.season")
    rows = iter(db.execute(sql + " ORDER BY 1, 2, 3"))
    current = _LatestStates()
    latest = current.rows
    pending = next(rows, None)
    for week in weeks:
        while pending is not None and pending[0] < week:
            latest[pending[3]] = pending
            pending = next(rows, None)
        yield week, current


class _LatestStates(Mapping):
    """Each wrestler's state from his latest row (`states_streamed`), made when first asked for."""

    def __init__(self):
        self.rows: dict[str, tuple] = {}
        self.made: dict[str, tuple[tuple, dict]] = {}

    def __getitem__(self, wrestler_id: str) -> dict:
        row = self.rows[wrestler_id]
        made = self.made.get(wrestler_id)
        if made is None or made[0] is not row:
            made = self.made[wrestler_id] = (row, _state(row[4], row[5:]))
        return made[1]

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def states_now(db: Database) -> dict[str, dict]:
    """Each wrestler's stored state now (`states_before(db, 1 << 30)`), the rows read as a stream (`states_streamed`)."""
    states = next(states_streamed(db, [1 << 30]))[1]
    return {wid: states[wid] for wid in states}


def _state(other: str | None, values: list) -> dict:
    state = {**json.loads(other or "{}"), **{k: v for k, v in zip(STATE_KEYS, values) if v is not None}}
    if "push_points" in state:
        state["push_points"] = Fraction(state["push_points"])
    for key in LIST_KEYS:
        if key in state:
            state[key] = json.loads(state[key])
    return state


def state_row(state: dict) -> dict:
    """A league state as `wrestler_states` (and `season_states`) store it: the league's
    columns, lists as JSON, other keys as one JSON object."""
    return {
        "push_level": state.get("push_level"),
        "push_points": str(state["push_points"]) if state.get("push_points") is not None else None,
        "injury": state.get("injury"),
        "tv_grade": state.get("tv_grade"),
        "grudge": state.get("grudge"),
        "left_town": state.get("left_town"),
        "title_shot": state.get("title_shot"),
        **{key: json.dumps(state[key]) if state.get(key) is not None else None for key in LIST_KEYS},
        "challenge": state.get("challenge"),
        "other": json.dumps({k: v for k, v in sorted(state.items()) if k not in STATE_KEYS}) if set(state) - set(STATE_KEYS) else None,
    }


def record_week(db: Database, week: int, title: str, ran_at: str, dice_source: str, wrestlers: list, matches: list[dict], states: dict[str, tuple[dict, str]], dice: list[dict]) -> None:
    """Write one week's results. The caller holds the transaction."""
    upsert_wrestlers(db, wrestlers)
    db["weeks"].insert({"week": week, "title": title, "ran_at": ran_at, "dice_source": dice_source, "matches": len(matches)})
    db["week_runs"].insert({"week": week, "run": runs_of(db, week) + 1, "ran_at": ran_at, "dice_source": dice_source})
    for match in matches:
        db["matches"].insert(
            {
                "id": match["id"],
                "week": week,
                "match": match["match"],
                "position": match["position"],
                "ruleset": match["ruleset"],
                "title": match["title"],
                "winner": match["summary"].get("winner"),
                "method": match["summary"].get("method"),
                "end_round": match["summary"].get("round"),
                "seed": match["seed"],
                "summary": pack_text(json.dumps(match["summary"])),  # m017: packed (`read_summary`)
                "notes": json.dumps(match["notes"]),
                "stars": stored_stars(match["summary"].get("rating")),
            }
        )
        db["match_sides"].insert_all(
            {"match_id": match["id"], "side": i, "wrestler_id": wid, "outcome": outcome, "week": week}
            for i, (wid, outcome) in enumerate(zip(match["sides"], match["outcomes"]))
        )
    rounds = [[match["id"], *(r.get(k) for k in ROUND_COLUMNS[1:])] for match in matches for r in match["rounds"]]
    if rounds:  # m017: the week's rounds, packed in one row (read by the `rounds` view)
        db["lean_rounds"].insert({"week": week, "data": pack(rounds)})
    if dice:  # m017: the week's dice log, packed in one row (`dice_log`, the `dice_rolls` view)
        db["lean_dice"].insert({"week": week, "data": pack([[d[k] for k in DICE_COLUMNS] for d in dice])})
    db["wrestler_states"].insert_all(
        {"week": week, "wrestler_id": wid, **state_row(state), "reason": reason}
        for wid, (state, reason) in sorted(states.items())
    )


def upsert_wrestlers(db: Database, wrestlers: list) -> None:
    """Each wrestler (a WrestlerRecord) in the league: his row, his owner's address (the
    private `owners` table), a team's members. The caller holds the transaction."""
    db["wrestlers"].upsert_all(
        [{"id": w.id, "name": w.name, "ruleset": w.ruleset, "owner_name": w.owner_name,
          "members": json.dumps(list(w.members)) if w.members else None} for w in wrestlers],
        pk="id",
    )
    db["owners"].upsert_all([{"wrestler_id": w.id, "owner_email": w.owner_email} for w in wrestlers], pk="wrestler_id")
    for w in wrestlers:
        db.execute("DELETE FROM team_members WHERE team_id = ?", [w.id])
        db["team_members"].insert_all({"team_id": w.id, "member_id": m, "position": i} for i, m in enumerate(w.members))


def result_phrase(result: dict) -> str:
    """A match's result in words, from its summary or `week_results` row: winner, method, round."""
    names = {s.get("id"): s.get("name", s.get("id")) for s in result.get("sides", [])}
    method = str(result.get("method") or "no result").replace("_", " ")
    ruleset = result.get("ruleset")
    word = get_ruleset(ruleset).length_word if ruleset in REGISTRY else "round"
    where = f" in {word} {result['round']}" if result.get("round") is not None else ""
    if result.get("winner"):
        return f"{names.get(result['winner'], result['winner'])} wins by {method}{where}"
    return f"{method}{where}"


def week_sides(db: Database, week: int) -> frozenset[str]:
    """Every side (wrestler or team) of a week's matches as the league recorded them."""
    return frozenset(row[0] for row in db.execute("SELECT DISTINCT wrestler_id FROM match_sides WHERE week = ?", [week]).fetchall())


def week_results(db: Database, week: int, titles: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Each match of a run week, as `fedtool results --json` prints it: the shape is
    docs/results.schema.json. The common fields come from the league (the match's row, its
    sides, its title match, the summary's stipulation, format, referee and league changes);
    `match_type` and `details` from the ruleset (`Ruleset.result_details`). A match stored by
    an older fedtool, whose summary lacks what is recorded now, gives null there. `titles`:
    each title's name by id (the fed's settings)."""
    if week_row(db, week) is None:
        raise FedError(Problem(None, None, f"week {week} has not been run", "fedtool results"))
    names = {row["id"]: row["name"] for row in db["wrestlers"].rows}
    title_rows = {row["match_id"]: row for row in db["title_matches"].rows_where("week = ?", [week])}
    outcomes: dict[str, dict[str, str]] = {}
    for row in db["match_sides"].rows_where("week = ?", [week], order_by="match_id, side"):
        outcomes.setdefault(row["match_id"], {})[row["wrestler_id"]] = row["outcome"]
    # a summary without its sides (damaged, hand-edited): each side from the league's match_sides rows
    recorded_sides = {mid: [{"id": wid, "name": names.get(wid) or wid} for wid in sides] for mid, sides in outcomes.items()}
    out = []
    for row in db["matches"].rows_where("week = ?", [week], order_by="position"):
        summary = _stored_json(row["summary"], {})
        try:
            if not (isinstance(summary.get("sides", []), list) and all(isinstance(s, dict) for s in summary.get("sides", []))):
                raise TypeError("sides")
            details = _result_details(row["ruleset"], summary)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError):
            # a summary not of the shape fedtool stores (hand-edited, damaged) reads as empty, like a null one
            summary = {}
            details = _result_details(row["ruleset"], summary)
        changes = summary.get("league_changes")
        out.append(
            {
                "id": row["match"],
                "ruleset": row["ruleset"],
                "sides": summary.get("sides") or recorded_sides.get(row["id"], []),
                "winner": row["winner"],
                "method": row["method"],
                "round": row["end_round"],
                "notes": _stored_json(row["notes"], []),
                "seed": row["seed"],
                "seed_text": revealed_seed_text(week, row["match"], row["seed"]),
                "rules_revision": stored_revision(summary),
                "position": row["position"],
                "card_title": row["title"] or None,
                "match_type": _text(details.pop("match_type", None)),
                "stipulation": _text(summary.get("stipulation")),
                "format": _text(summary.get("format")),
                "referee": _text(summary.get("referee")),
                "title": _title_at_stake(title_rows.get(row["id"]), titles or {}),
                "outcomes": outcomes.get(row["id"], {}),
                "league_changes": [_league_change(c, names) for c in changes if isinstance(c, dict)] if isinstance(changes, list) else None,
                "rating": stored_stars(summary.get("rating")),
                "details": details,
            }
        )
    return out


def stored_stars(rating: Any) -> float | None:
    """A stored rating's stars (docs/ratings.md): a quarter from 0 to 5, else None (none
    kept, or a hand edit)."""
    stars = rating.get("stars") if isinstance(rating, dict) else None
    if isinstance(stars, bool) or not isinstance(stars, (int, float)) or not 0 <= stars <= 5 or stars * 4 != int(stars * 4):
        return None
    return float(stars)


def _stored_json(text: str | bytes | None, empty: dict | list) -> Any:
    """A JSON column as stored (text, or packed by `pack_text`), or `empty` when it holds
    nothing of that kind or is no JSON."""
    if isinstance(text, bytes):
        text = inflate(text)
    try:
        value = json.loads(text) if text else empty
    except (ValueError, RecursionError):  # not JSON (a hand edit), or nested past the reader's limit
        return empty
    return value if isinstance(value, type(empty)) else empty


def read_summary(text: str | bytes | None) -> dict:
    """A match's stored summary read: empty when it holds no JSON object (a hand edit, damage)."""
    return _stored_json(text, {})


def stored_revision(summary: dict | str | None) -> int:
    """The ruleset's rules revision a stored match was run under (`Ruleset.rules_revision`),
    from its summary (as stored, or read): 1 for a match stored before runs kept it."""
    if not isinstance(summary, dict):
        summary = _stored_json(summary, {})
    found = summary.get("rules_revision", 1)
    return found if isinstance(found, int) and not isinstance(found, bool) and found >= 1 else 1


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _result_details(ruleset_id: str, summary: dict) -> dict:
    """The ruleset's part of a match's results (`Ruleset.result_details`); none for a
    ruleset this fedtool no longer knows."""
    if ruleset_id not in REGISTRY:
        return {}
    return dict(get_ruleset(ruleset_id).result_details(summary))


def _title_at_stake(row: dict | None, titles: dict[str, str]) -> dict | None:
    """A title match as the run decided it (`title_matches`), or None for a match for no title."""
    if row is None:
        return None
    after = row["winner"] if row["result"] == "won" else row["holder_before"]
    return {"id": row["title_id"], "name": titles.get(row["title_id"]), "holder_before": row["holder_before"], "holder_after": after,
            "result": row["result"], "changed_hands": after != row["holder_before"], "reason": row["reason"]}


def _league_change(change: dict, names: dict[str, str]) -> dict:
    wid = change.get("wrestler")
    return {"wrestler": wid, "name": names.get(wid), "reason": change.get("reason") or "", "changes": change.get("changes") or {}}


def revealed_seed_text(week: int, match_id: str, seed: str | None) -> str | None:
    """A run match's seed text (what its commitment hashes), from the stored seed; None
    for a match run on scripted dice."""
    if not seed or not re.fullmatch(r"[0-9a-f]{16}", seed):
        return None
    return seed_text(week, match_id, int(seed, 16))


def dice_log(db: Database, week: int, match_id: str | None = None) -> list[dict]:
    """A run week's dice log (or one match's), in the order rolled: {"week", "match_id",
    "seq", "round", "purpose", "faces"} each, as the `dice_rolls` view gives them."""
    row = db.execute("SELECT data FROM lean_dice WHERE week = ?", [week]).fetchone()
    rolls = unpack(row[0] if row else None, [])
    return [{"week": week, **dict(zip(DICE_COLUMNS, r))} for r in rolls if match_id is None or r[0] == match_id]


def week_writeups(db: Database, week: int | None = None) -> dict[str, dict]:
    """Each match's writeup as the run rendered it (m008, packed by m017), by match id, in
    the order recorded: {"match_id", "week", "headline", "markdown", "html"}, as the
    `match_writeups` view gives them; every run week's, or one week's."""
    where, params = ("WHERE week = ?", [week]) if week is not None else ("", [])
    out: dict[str, dict] = {}
    for number, data in db.execute(f"SELECT week, data FROM lean_writeups {where} ORDER BY week", params).fetchall():
        for match_id, values in unpack(data, {}).items():
            out[match_id] = {"match_id": match_id, "week": number, **dict(zip(WRITEUP_COLUMNS, values))}
    return out


def week_rounds(db: Database, week: int) -> list[dict]:
    """A run week's rows of the `rounds` view (each round with its detail), in the order recorded."""
    row = db.execute("SELECT data FROM lean_rounds WHERE week = ?", [week]).fetchone()
    return [{"match_id": r[0], "round": r[1], "week": week, **dict(zip(ROUND_COLUMNS[2:], r[2:]))} for r in unpack(row[0] if row else None, [])]


def record_writeups(db: Database, week: int, writeups: dict[str, dict]) -> None:
    """Store each match's rendered writeup (m008), keyed like `matches.id`. The caller holds the transaction."""
    if writeups:  # m017: the week's writeups packed in one row (`week_writeups`, the `match_writeups` view)
        db["lean_writeups"].insert({"week": week, "data": pack({match_id: [w[k] for k in WRITEUP_COLUMNS] for match_id, w in writeups.items()})})


@migrations()
def m016_seasons(db: Database) -> None:
    """Issue 19: seasons (`fedtool season close`). Each closed season: its weeks, when it
    closed and its archive (champions, standings, records, awards: one JSON document, as
    the site and `fedtool season show --json` give it), and each wrestler's state carried
    into the next season (the columns of `wrestler_states`), which `states_before` reads for
    every week after the season. Closing and reopening a season touch only these tables."""
    db["seasons"].create(
        {"season": int, "name": str, "first_week": int, "last_week": int, "closed_at": str, "archive": str},
        pk="season",
    )
    db["season_states"].create(
        {"season": int, "wrestler_id": str, "push_level": int, "push_points": str, "injury": int, "tv_grade": str, "grudge": int,
         "left_town": int, "title_shot": int, "allies": str, "foes": str, "challenge": str, "other": str, "reason": str},
        pk=("season", "wrestler_id"),
        foreign_keys=[("season", "seasons", "season"), ("wrestler_id", "wrestlers", "id")],
    )


# Issue 18 item 6, a lean league (migration m017). What a week renders or rolls in bulk is
# kept compressed, its values unchanged: a week's writeups, its rounds with their per-round
# detail and its dice log as one row a week each (`pack`: compact JSON, zlib at `PACK_LEVEL`) in
# `lean_writeups`, `lean_rounds` and `lean_dice`; each match's summary in `matches.summary`
# (`pack_text`, read by `read_summary`). `match_writeups`, `rounds` and `dice_rolls` are
# views with the columns and values the tables of those names had, and `match_summaries`
# shows each summary as text, for SQL and Datasette: they call `fedtool_inflate`,
# `fedtool_keys` and `fedtool_cell`, SQL functions `open_league` registers on every
# connection (`register_functions`), as does
# fedtool's Datasette plugin for `fedtool browse` (LEAN_PLUGINS). fedtool reads them
# through `week_writeups`, `week_rounds`, `dice_log` and `read_summary`, which unpack a
# week once. (One row a week, not a match: a week's writeups share their templates, so
# together they pack to half what each packed alone does, and small rows waste no page.)

WRITEUP_COLUMNS = ("headline", "markdown", "html")
ROUND_COLUMNS = ("match_id", "round", "style", "winner", "margin", "detail")
DICE_COLUMNS = ("match_id", "seq", "round", "purpose", "faces")
LEAN_PLUGINS = Path(__file__).with_name("datasette_plugins")  # `datasette --plugins-dir`: fedtool_inflate for the views

_VIEWS = {
    "match_writeups": "SELECT j.value AS match_id, w.week AS week, fedtool_cell(w.data, j.value, 0) AS headline, "
                      "fedtool_cell(w.data, j.value, 1) AS markdown, fedtool_cell(w.data, j.value, 2) AS html "
                      "FROM lean_writeups w, json_each(fedtool_keys(w.data)) j",
    "rounds": "SELECT fedtool_cell(w.data, j.value, 0) AS match_id, fedtool_cell(w.data, j.value, 1) AS round, w.week AS week, "
              "fedtool_cell(w.data, j.value, 2) AS style, fedtool_cell(w.data, j.value, 3) AS winner, fedtool_cell(w.data, j.value, 4) AS margin, "
              "fedtool_cell(w.data, j.value, 5) AS detail FROM lean_rounds w, json_each(fedtool_keys(w.data)) j",
    "match_summaries": "SELECT id AS match_id, week, match, fedtool_inflate(summary) AS summary FROM matches",
    "dice_rolls": "SELECT w.week AS week, fedtool_cell(w.data, j.value, 0) AS match_id, fedtool_cell(w.data, j.value, 1) AS seq, "
                  "fedtool_cell(w.data, j.value, 2) AS round, fedtool_cell(w.data, j.value, 3) AS purpose, fedtool_cell(w.data, j.value, 4) AS faces "
                  "FROM lean_dice w, json_each(fedtool_keys(w.data)) j",
}


# zlib's own default. Level 9 packed the demo week's rounds 9% and its writeups 1.5% smaller
# but took 3.3x and 1.4x as long (5 ms of `run 1`'s 0.28 s, issue 18); a week still adds
# well under issue 18's 150 KB (benchmarks/bench_league.py). Rows packed at any level read back.
PACK_LEVEL = 6


def pack(value: Any) -> bytes:
    """A value as the lean tables keep it: compact JSON, zlib at `PACK_LEVEL`."""
    import zlib

    return zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), PACK_LEVEL)


def pack_text(text: str) -> bytes:
    """A JSON text as `matches.summary` keeps it (m017): zlib at `PACK_LEVEL` of its UTF-8,
    read back by `read_summary` (or `fedtool_inflate` in SQL) as the same text."""
    import zlib

    return zlib.compress(text.encode("utf-8"), PACK_LEVEL)


def unpack(data: bytes | None, empty: Any) -> Any:
    """What `pack` kept, or `empty` for no row."""
    import zlib

    return json.loads(zlib.decompress(data)) if data is not None else empty


def inflate(data: bytes | None) -> str | None:
    """`fedtool_inflate(data)`, the SQL function the lean views call: the packed JSON's text."""
    import zlib

    if data is None or isinstance(data, str):  # a text column (stored before m017, or a hand edit) is itself
        return data
    try:
        return zlib.decompress(data).decode("utf-8")
    except (zlib.error, TypeError, UnicodeDecodeError):  # not packed by fedtool (a hand edit): reads as nothing
        return None


_UNPACKED: list = [None, None]  # the packed row `fedtool_keys` or `fedtool_cell` unpacked last, and what it holds


def _unpacked(data: bytes | None) -> Any:
    if data is None or not isinstance(data, bytes):
        return None
    if _UNPACKED[0] != data:  # a view reads a row's cells one by one: the row is unpacked once
        text = inflate(data)
        try:
            value = json.loads(text) if text is not None else None
        except ValueError:
            value = None
        _UNPACKED[:] = [data, value]
    return _UNPACKED[1]


def keys(data: bytes | None) -> str:
    """`fedtool_keys(data)`: a packed row's keys (a week's match ids) or indexes (its rounds
    or rolls), as a JSON list the views walk with json_each."""
    value = _unpacked(data)
    return json.dumps(list(value) if isinstance(value, dict) else list(range(len(value))) if isinstance(value, list) else [])


def cell(data: bytes | None, key: str | int, column: int) -> Any:
    """`fedtool_cell(data, key, column)`: one value of a packed row's entry, as stored (the
    views take every value from Python, so a text reads back exactly as it was written)."""
    value = _unpacked(data)
    try:
        found = value[key][column]
    except (TypeError, KeyError, IndexError):
        return None
    return found if isinstance(found, (str, int, float)) or found is None else json.dumps(found)


def register_functions(connection: sqlite3.Connection) -> None:
    """The SQL functions the lean views read with, on a connection: every one `open_league` makes."""
    connection.create_function("fedtool_inflate", 1, inflate, deterministic=True)
    connection.create_function("fedtool_keys", 1, keys, deterministic=True)
    connection.create_function("fedtool_cell", 3, cell, deterministic=True)


@migrations()
def m017_lean_weeks(db: Database) -> None:
    """Issue 18 item 6: each week's writeups, rounds (with their per-round detail) and dice log
    as one packed row a week (`pack`), the tables they were in replaced by views of the same
    name and columns. A league's rows are moved over as they are, in their order."""
    register_functions(db.conn)
    for name in ("lean_writeups", "lean_rounds", "lean_dice"):
        db[name].create({"week": int, "data": bytes}, pk="week")
    old = set(_VIEWS) & set(db.table_names())  # match_summaries is new
    if "match_writeups" in old:
        weeks: dict[int, dict] = {}
        for row in db.execute("SELECT match_id, week, headline, markdown, html FROM match_writeups ORDER BY rowid").fetchall():
            weeks.setdefault(row[1], {})[row[0]] = list(row[2:])
        db["lean_writeups"].insert_all({"week": week, "data": pack(value)} for week, value in weeks.items())
    if "rounds" in old:
        weeks = {}
        for row in db.execute("SELECT week, match_id, round, style, winner, margin, detail FROM rounds ORDER BY rowid").fetchall():
            weeks.setdefault(row[0], []).append(list(row[1:]))
        db["lean_rounds"].insert_all({"week": week, "data": pack(value)} for week, value in weeks.items())
    if "dice_rolls" in old:
        weeks = {}
        for row in db.execute("SELECT week, match_id, seq, round, purpose, faces FROM dice_rolls ORDER BY rowid").fetchall():
            weeks.setdefault(row[0], []).append(list(row[1:]))
        db["lean_dice"].insert_all({"week": week, "data": pack(value)} for week, value in weeks.items())
    for name in old:
        db.execute(f"DROP TABLE [{name}]")
    for match_id, summary in db.execute("SELECT id, summary FROM matches WHERE typeof(summary) = 'text'").fetchall():
        db.execute("UPDATE matches SET summary = ? WHERE id = ?", [pack_text(summary), match_id])
    for name, sql in _VIEWS.items():
        db.execute(f"CREATE VIEW [{name}] AS {sql}")
