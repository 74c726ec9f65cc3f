"""Shared fixtures: a fresh copy of the demo fed for each test that changes files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from fedtool.cli import cli
from golden import demo_copy


@pytest.fixture
def demo_fed(tmp_path: Path) -> Path:
    """The demo fed's rosters, strategies and templates in a temporary folder."""
    return demo_copy(tmp_path / "fed")


@pytest.fixture
def fedtool():
    """Run the fedtool command line; returns click's Result."""

    def run(*args: str):
        return CliRunner().invoke(cli, [str(a) for a in args])

    return run


LOCK_FILE = ".fedtool.lock"  # the fed's lock (fedtool.fed.lock): empty, left by any command that writes


SQLITE_SIDE_FILES = ("-wal", "-shm")  # the league's write-ahead log and its index (fedtool.league.db.open_league)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder and its bytes (but the fed's empty lock file). A SQLite
    file counts as what it holds (its SQL dump, the write-ahead log included), so a league
    left open or read in between compares equal when nothing in it changed."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.endswith(SQLITE_SIDE_FILES) and path.with_name(path.name[:-4]).is_file():
            continue
        data = path.read_bytes()
        if data.startswith(b"SQLite format 3\x00"):
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                data = "\n".join(connection.iterdump()).encode()
            finally:
                connection.close()
        files[str(path.relative_to(folder))] = data
    assert files.pop(LOCK_FILE, b"") == b""
    return files
