"""Snapshots of the league: taken before every run and rerun, listed and restored.

A snapshot is a copy of `fed.db` made with SQLite's backup API (consistent even while the
league is open) into the fed's backups folder (`backups: {folder, keep}` in
rosters/fed.yaml), named for when it was taken and what it was taken before:
`20261123T192834Z-before-week-01-run-2.db`. Only the last `keep` are kept.

Restoring copies a snapshot into a temporary file beside `fed.db`, brings it up to date
there, then copies it into `fed.db` with the backup API in one transaction, so the league
is the old one or the new one, never half (a snapshot is a plain file; the league keeps
its write-ahead log, which a rename over it would have orphaned). What records the world
outside the league is carried over from the league being replaced, because it stays
true: the mails already sent (`sent_mail`, so nothing goes twice), the mails already read
(`inbox_seen`), players' passwords, and how often each week has been run (`week_runs`, so
a week run again after a restore still gets new Message-IDs). The current league is
itself snapshotted first (`...-before-restore.db`), so a restore can be undone. The
outbox is left as it is.
"""

from __future__ import annotations

import datetime
import glob
import os
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fedtool.fed.settings import Fed
from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem

from .db import RULE as DB_RULE, check_league_path, is_text_file, migrations

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database

SNAPSHOT_NAME = re.compile(r"^(\d{8}T\d{6}Z)-([a-z0-9-]+)\.db$")
KEPT_ON_RESTORE = ("sent_mail", "inbox_seen", "player_passwords", "week_runs")
RULE = "fedtool restore"
UNREADABLE = "not a fedtool league"


@dataclass
class Snapshot:
    """A copy of the league in the backups folder, and what it was taken before."""

    name: str
    path: Path
    taken: str  # when, as in the name: 20261123T192834Z
    reason: str  # what it was taken before: before-week-01-run-2
    league: str  # what the league held then: "after week 1 (run 1)"


@dataclass
class Restored:
    """What `restore` put back, and where the league it replaced was kept."""

    snapshot: Snapshot
    kept_as: Path | None  # the league as it was before the restore, snapshotted


def take_snapshot(fed: Fed, reason: str, when: datetime.datetime | None = None) -> Path | None:
    """Copy the league into the backups folder and keep only the last N; None when the fed
    has no league yet. `reason` says what the snapshot was taken before (a-z, 0-9, -)."""
    if not fed.database.exists():
        return None
    folder = fed.backups
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (when or clock.now()).astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    name = f"{stamp}-{reason}.db"
    count = 2
    while (folder / name).exists():
        name = f"{stamp}-{reason}-{count}.db"
        count += 1
    _clear_half_copied(folder, ".snapshot-*.db")  # a snapshot a killed command was copying
    fd, tmp = tempfile.mkstemp(prefix=".snapshot-", suffix=".db", dir=folder)
    os.close(fd)
    try:
        _copy(fed.database, Path(tmp))
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    prune(fed)
    return folder / name


def _clear_half_copied(folder: Path, pattern: str) -> None:
    """Remove the copies (and their SQLite journals) that a command killed while it copied a
    league left in `folder`: the caller holds the fed's lock, so each is a dead process's."""
    for leftover in [*folder.glob(pattern), *folder.glob(pattern + "-journal")]:
        leftover.unlink(missing_ok=True)


def discard(path: Path | None) -> None:
    """Remove a snapshot just taken (its run failed before changing anything)."""
    if path is not None:
        path.unlink(missing_ok=True)


def _paths(fed: Fed) -> list[Path]:
    """The snapshot files, oldest first: by the time in the name, then by when written."""
    if not fed.backups.is_dir():
        return []
    found = [p for p in fed.backups.iterdir() if p.is_file() and SNAPSHOT_NAME.match(p.name)]
    return sorted(found, key=lambda p: (p.name[:16], p.stat().st_mtime_ns, p.name))


def prune(fed: Fed) -> list[Path]:
    """Remove all but the last `backups.keep` snapshots; the ones removed."""
    paths = _paths(fed)
    gone = paths[: max(0, len(paths) - fed.settings.backups.keep)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def list_snapshots(fed: Fed) -> list[Snapshot]:
    """Every snapshot in the backups folder, oldest first, with what its league held."""
    out = []
    for path in _paths(fed):
        match = SNAPSHOT_NAME.match(path.name)
        assert match is not None
        out.append(Snapshot(path.name, path, match.group(1), match.group(2), _league_label(path)))
    return out


def restore(fed: Fed, name: str) -> Restored:
    """Make the snapshot `name` the fed's league. The caller holds the fed's lock."""
    snapshots = {s.name: s for s in list_snapshots(fed)}
    if name not in snapshots:
        known = f"; the latest is {list(snapshots)[-1]}" if snapshots else "; there are none yet"
        raise FedError(Problem(fed.shown(fed.backups), None, f"no snapshot named {name!r} (`fedtool restore` lists them{known})", RULE))
    snapshot = snapshots[name]
    if snapshot.league.startswith(UNREADABLE):
        raise FedError(Problem(fed.shown(snapshot.path), None, f"{snapshot.league}: it cannot be restored", RULE))
    database = fed.database
    check_league_path(database)  # a folder, or a folder that is not there: the `database:` setting is wrong
    damaged = _damage(database)
    if damaged and damaged != "empty" and is_text_file(database):  # never move a fedhead's text file aside for a league
        raise FedError(Problem(str(database), None, "is a text file, not a league database; check the `database:` setting in rosters/fed.yaml", DB_RULE))
    _clear_half_copied(database.parent, f".{glob.escape(database.name)}.restore-*")  # a restore killed while it copied
    fd, tmp_name = tempfile.mkstemp(prefix=f".{database.name}.restore-", dir=database.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        _copy(snapshot.path, tmp, read_only=True)
        from sqlite_utils import Database

        restored = Database(tmp, execute_plugins=False)  # no search of every installed package for sqlite-utils plugins (fedtool.league.db.open_league)
        try:
            migrations.apply(restored)  # a snapshot of an older fedtool is brought up to date
            if database.exists() and not damaged:
                _carry_over(restored, database)
        finally:
            restored.close()
        if damaged:
            # a damaged league cannot be read or written by SQLite: it is kept aside as it is
            # (listed, never restored), and the restored league takes its place by a rename
            kept_as = _keep_damaged(fed)
            os.replace(tmp, database)
        else:
            kept_as = take_snapshot(fed, "before-restore")
            # into the live league by the backup API, in one transaction: a crash leaves the old
            # league or the new one, and its write-ahead log (or a journal) stays SQLite's to replay
            _copy(tmp, database, read_only=True)
    finally:
        tmp.unlink(missing_ok=True)
    return Restored(snapshot, kept_as)


def _damage(database: Path) -> str | None:
    """What is wrong with the league SQLite cannot read (`restore` is the cure the message
    for a damaged league names), or None when it reads (or is not there yet)."""
    if not database.exists():
        return None
    if database.stat().st_size == 0:
        return "empty"
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            found = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if found == "ok" else found


def _keep_damaged(fed: Fed) -> Path:
    """Move a damaged league (and a write-ahead log beside it, which must not be replayed into
    the restored one) into the backups folder, named like a snapshot taken before the restore."""
    folder = fed.backups
    folder.mkdir(parents=True, exist_ok=True)
    stamp = clock.now().astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    name, count = f"{stamp}-damaged-before-restore.db", 2
    while (folder / name).exists():
        name, count = f"{stamp}-damaged-before-restore-{count}.db", count + 1
    for suffix in ("-wal", "-shm"):
        side = fed.database.with_name(fed.database.name + suffix)
        if side.exists():
            shutil.move(side, folder / (name + suffix))
    shutil.move(fed.database, folder / name)  # the league may live on another disk than its backups
    return folder / name


def _copy(source: Path, target: Path, read_only: bool = False) -> None:
    """SQLite's backup API: a consistent copy of `source` into `target` (a new file, or the
    live league: the copy replaces what it held in one transaction)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True) if read_only else sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        live = dst.execute("PRAGMA journal_mode").fetchone()[0]
        src.backup(dst)
        # a snapshot is one self-contained file (no -wal or -shm beside it); the live league keeps its mode
        dst.execute(f"PRAGMA journal_mode = {'WAL' if live == 'wal' else 'DELETE'}")
    finally:
        dst.close()
        src.close()


def _carry_over(restored: Database, current: Path) -> None:
    """The current league's records of the world outside it, into the restored one."""
    restored.execute("ATTACH DATABASE ? AS current", [str(current)])
    try:
        for table in KEPT_ON_RESTORE:
            here = {row[1] for row in restored.execute(f"PRAGMA main.table_info([{table}])").fetchall()}
            there = [row[1] for row in restored.execute(f"PRAGMA current.table_info([{table}])").fetchall()]
            columns = [c for c in there if c in here]
            if columns:
                listed = ", ".join(f"[{c}]" for c in columns)
                restored.execute(f"INSERT OR REPLACE INTO main.[{table}] ({listed}) SELECT {listed} FROM current.[{table}]")
        restored.conn.commit()
    finally:
        restored.execute("DETACH DATABASE current")


def _league_label(path: Path) -> str:
    """What a snapshot's league holds: 'after week 3 (run 2)', or 'no week run yet'."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = connection.execute("SELECT MAX(week) FROM weeks").fetchone()
            week = row[0] if row else None
            run = None
            if week is not None and connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'week_runs'").fetchone():
                run = connection.execute("SELECT MAX(run) FROM week_runs WHERE week = ?", [week]).fetchone()[0]
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        return f"{UNREADABLE} ({exc})"
    if week is None:
        return "no week run yet"
    return f"after week {week}" + (f" (run {run})" if run else "")
