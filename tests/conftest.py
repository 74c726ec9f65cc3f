"""Shared fixtures: a fresh copy of the demo fed for each test that changes files."""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from fedtool.cli import cli
from golden import demo_copy


def pytest_addoption(parser):
    parser.addoption("--travel", metavar="WHEN", default=None,
                     help="run the tests with the clock moved to WHEN (ISO, UTC when no zone given; time-machine, ticking): "
                          "a test must hold on any day, not only today (tests/test_calendar.py runs a named set so)")


@pytest.fixture(autouse=True, scope="session")
def _travel(request):
    """With --travel WHEN, every clock the product reads (datetime, time) starts at WHEN and
    ticks on for the whole session (a module's fixture too: a league run in a fixture and a
    season closed in a test are otherwise months apart, the wrong way round), and a mail a
    test puts in a Maildir is delivered at that clock: the kernel dates a new file by the
    real clock, which is how a test that left its mails' delivery times to "now" passed on
    the day it was written and failed once its dates had passed (test_inbox_week, review 26).
    A test that sets a delivery time (os.utime) keeps it."""
    when = request.config.getoption("--travel")
    if not when:
        yield
        return
    import mailbox
    import os
    import time

    import time_machine

    added = mailbox.Maildir.add

    def add(box, message):
        key = added(box, message)
        now = time.time()  # the moved clock
        os.utime(os.path.join(box._path, box._lookup(key)), (now, now))
        return key

    moment = datetime.datetime.fromisoformat(when)
    with time_machine.travel(moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc), tick=True), \
            pytest.MonkeyPatch.context() as patch:
        patch.setattr(mailbox.Maildir, "add", add)
        yield


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A user cache folder of the test's own (FEDTOOL_CACHE_DIR: compiled templates, checked
    files, kept parses), found anew for it: what one test keeps never reaches another."""
    from fedtool.kernel import checked

    folder = tmp_path / "cache"
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(folder))
    checked._FOLDERS.clear()
    yield folder
    checked._FOLDERS.clear()


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
