"""A damaged or misplaced league (issue 13, "Damaged league files crash", "Faults"): every
command that opens `fed.db` ends in one clear message naming the file and what to do
(fedtool.league.db.open_league, league_error), exit 1, no traceback, nothing written; what
SQLite or the disk refuses later (a read-only league or folder, a full disk) too
(fedtool.cli.fed_option, FedGroup; fedtool.kernel.errors.disk_error)."""

from __future__ import annotations

import errno
import gc
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import LOCK_FILE, SQLITE_SIDE_FILES, snapshot
from fedtool.cli import RUN_IS_ATOMIC, cli
from fedtool.kernel.errors import FedError
from fedtool.league.db import open_league
from golden import demo_copy

SNAPSHOT = "SNAPSHOT"  # stands for the league's one snapshot's name in COMMANDS

# Every command that opens the league, with arguments that reach the open, and whether it
# writes to the league (a read-only fed.db stops only those). Not here: `init` (no fed yet),
# `open` and `play` (they never read the league), `resend` (it reads the outbox), `restore`
# without NAME (it lists the backups folder), `accept` (it opens the league through
# `status`'s week_status, only once a held strategy is found).
COMMANDS = {
    "run": (["run", "2"], True),
    "rerun": (["run", "1", "--rerun"], True),
    "read": (["read", "strategies/week-02/brother-bob.yaml"], False),
    "results": (["results", "1"], False),
    "verify": (["verify", "1"], False),
    "odds": (["odds", "--match", "2/m1", "-n", "10", "--seed", "1", "--workers", "1"], False),
    "inbox": (["inbox", "mailbox"], False),  # an empty mailbox: nothing to record
    "away": (["away"], False),
    "away set": (["away", "bob@players.example", "2027-01-01", "2027-01-02"], True),
    "password": (["password", "bob@players.example", "--password", "secret-word"], True),
    "remind": (["remind", "2"], False),  # every strategy of week 2 stands: nothing to queue
    "status": (["status", "2"], False),
    "tick": (["tick"], True),  # records the tick
    "send": (["send", "--dry-run"], False),
    "restore NAME": (["restore", SNAPSHOT], True),
    "standings": (["standings"], False),
    "titles": (["titles"], False),
    "history": (["history", "brother-bob"], False),
    "title vacate": (["title", "vacate", "world"], True),
    "title award": (["title", "award", "world", "brother-bob"], True),
    "site": (["site"], False),
}
WHAT_TO_DO = "restore a snapshot (`fedtool restore` lists them) or check the `database:` setting in rosters/fed.yaml"


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    """The demo fed with week 1 run twice (so the league has a snapshot), closed cleanly."""
    fed = demo_copy(tmp_path_factory.mktemp("league") / "fed")
    for args in (["run", "1"], ["run", "1", "--rerun"]):
        result = CliRunner().invoke(cli, ["--fed", str(fed), *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    gc.collect()  # the library leaves its connections to the garbage collector: close them, folding the log into fed.db
    assert not (fed / "fed.db-wal").exists()
    (fed / "mailbox").mkdir()
    return fed


@pytest.fixture
def fed(league, tmp_path) -> Path:
    return Path(shutil.copytree(league, tmp_path / "fed"))


def set_database(fed: Path, value: str) -> None:
    settings = fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("database: fed.db", f"database: {value}"), encoding="utf-8")


def a_folder(fed: Path) -> str:
    (fed / "fed.db").unlink()
    (fed / "fed.db").mkdir()
    return f"{fed}/fed.db: is a folder, not the league's database file; check the `database:` setting in rosters/fed.yaml [the league database]"


def garbage(fed: Path) -> str:
    (fed / "fed.db").write_bytes(bytes(range(256)) * 40)  # 10 KB that are not SQLite's
    return f"{fed}/fed.db: is damaged or not a league database (SQLite: file is not a database); {WHAT_TO_DO} [the league database]"


def truncated(fed: Path) -> str:
    data = (fed / "fed.db").read_bytes()
    (fed / "fed.db").write_bytes(data[: len(data) // 2])  # a copy cut short
    return f"{fed}/fed.db: is damaged or not a league database (SQLite: database disk image is malformed); {WHAT_TO_DO} [the league database]"


def a_yaml_file(fed: Path) -> str:
    set_database(fed, "rosters/brother-bob.yaml")
    return f"{fed}/rosters/brother-bob.yaml: is a text file, not a league database; check the `database:` setting in rosters/fed.yaml [the league database]"


def a_missing_folder(fed: Path) -> str:
    set_database(fed, "leagues/fed.db")
    return (f"{fed}/leagues/fed.db: the folder {fed}/leagues does not exist (fedtool creates a new league's file, never its folder); "
            "check the `database:` setting in rosters/fed.yaml [the league database]")


def emptied(fed: Path) -> str:
    (fed / "fed.db").write_bytes(b"")
    return (f"{fed}/fed.db: is empty (0 bytes), not a league: fedtool never leaves one empty, so something else emptied it; "
            "restore a snapshot (`fedtool restore` lists them), or delete the file to start a new league [the league database]")


DAMAGE = {"a folder": a_folder, "garbage": garbage, "truncated": truncated, "a YAML file": a_yaml_file,
          "a missing folder": a_missing_folder, "emptied": emptied}


CURED_BY_RESTORE = ("garbage", "truncated", "emptied")


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, byte for byte (a damaged league cannot be dumped)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name != LOCK_FILE}


def invoke(fed: Path, args: list[str]):
    if SNAPSHOT in args:
        name = sorted(p.name for p in (fed / "backups").glob("*.db"))[0]
        args = [name if a == SNAPSHOT else a for a in args]
    cwd = os.getcwd()
    os.chdir(fed)  # `read` and `inbox` take paths as the fedhead types them, in the fed's folder
    try:
        return CliRunner().invoke(cli, ["--fed", str(fed), *args])
    finally:
        os.chdir(cwd)


def assert_refused(result, message: str) -> None:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # a clean exit, not a crash
    assert "Traceback" not in result.output
    assert result.stderr == f"error: {message}\n"


@pytest.fixture(scope="module")
def damaged(league, tmp_path_factory):
    """One damaged copy of the league per kind of damage, shared by the commands (each
    test asserts its command wrote nothing, so the next finds the fed as the damage left it)."""
    made: dict[str, tuple[Path, str]] = {}

    def get(damage: str) -> tuple[Path, str]:
        if damage not in made:
            fed = Path(shutil.copytree(league, tmp_path_factory.mktemp("damaged") / "fed"))
            made[damage] = (fed, DAMAGE[damage](fed))
        return made[damage]

    return get


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_league_is_one_clear_message_for_every_command(damaged, damage, command):
    """6 kinds of damage x 21 commands: 126 cases, each the exact message, nothing written
    (but `restore NAME`, the cure, for a league SQLite cannot read: tested below)."""
    if command == "restore NAME" and damage in CURED_BY_RESTORE:
        return
    fed, message = damaged(damage)
    before = files_of(fed)
    assert_refused(invoke(fed, COMMANDS[command][0]), message)
    assert files_of(fed) == before


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_works_on_the_league_undamaged(fed, command):
    """The matrix above is meaningful: each command, as written there, does open the league
    and succeeds on a sound one (21 cases)."""
    result = invoke(fed, COMMANDS[command][0])
    assert result.exit_code == 0, result.output


def test_a_sqlite_database_of_another_program_is_not_taken_for_a_league(tmp_path):
    other = tmp_path / "photos.db"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)")
    connection.commit()
    connection.close()
    with pytest.raises(FedError) as caught:
        open_league(other)
    assert str(caught.value) == (f"{other}: is a SQLite database, but not a fedtool league (it holds albums); "
                                 "check the `database:` setting in rosters/fed.yaml [the league database]")
    connection = sqlite3.connect(other)
    assert [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["albums"]  # nothing added
    connection.close()


def test_a_pipe_named_as_the_league_is_refused_without_waiting_on_it(tmp_path):
    pipe = tmp_path / "fed.db"
    os.mkfifo(pipe)  # opening a FIFO to read blocks until a writer comes: never open it
    with pytest.raises(FedError) as caught:
        open_league(pipe, create=False)
    assert str(caught.value) == (f"{pipe}: is not a regular file (a device or a pipe); check the `database:` setting in rosters/fed.yaml "
                                 "[the league database]")


def test_a_missing_league_in_an_existing_folder_is_a_new_league(tmp_path):
    """The one case that is no damage: a fed that has not run a week has no fed.db yet."""
    assert open_league(tmp_path / "fed.db", create=False).memory
    assert not (tmp_path / "fed.db").exists()  # reading leaves no file behind
    assert open_league(tmp_path / "fed.db")["weeks"].exists()


@pytest.mark.parametrize("damage", CURED_BY_RESTORE)
def test_restore_cures_a_damaged_league_and_keeps_the_damaged_file(fed, damage):
    """What the message says to do works: `fedtool restore NAME` replaces a league SQLite
    cannot read, and keeps the damaged file in the backups folder (listed, never restored)."""
    DAMAGE[damage](fed)
    damaged = (fed / "fed.db").read_bytes()
    name = sorted(p.name for p in (fed / "backups").glob("*.db"))[0]
    result = invoke(fed, ["restore", name])
    assert result.exit_code == 0, result.output
    kept = sorted((fed / "backups").glob("*-damaged-before-restore.db"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    assert result.stdout.splitlines()[:2] == [f"restored {name}: the league is back to after week 1 (run 1)",
                                              f"the league as it was is kept as {kept[0].name}"]
    assert invoke(fed, ["results", "1"]).exit_code == 0  # the league reads again
    listing = {line.split("  ")[0]: line.split("  ")[1] for line in invoke(fed, ["restore"]).stdout.splitlines()[:-1]}
    assert listing[kept[0].name].startswith("not a fedtool league (")  # listed as such; `restore` refuses it
    assert_refused(invoke(fed, ["restore", kept[0].name]), f"backups/{kept[0].name}: {listing[kept[0].name]}: it cannot be restored [fedtool restore]")


def test_restore_never_moves_a_text_file_named_by_database(fed):
    message = a_yaml_file(fed)
    sheet = (fed / "rosters/brother-bob.yaml").read_bytes()
    assert_refused(invoke(fed, ["restore", SNAPSHOT]), message)
    assert (fed / "rosters/brother-bob.yaml").read_bytes() == sheet


# --- refused later than the open: read-only files and folders, a full disk ---------------------


@pytest.fixture
def protect():
    """Make a file or folder read-only for real: permission bits for a user, the immutable
    attribute for root (whom permission bits do not stop); undone at the end."""
    protected: list[tuple[Path, int]] = []

    def make_read_only(path: Path) -> None:
        mode = path.stat().st_mode
        if os.geteuid() == 0:
            if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
                pytest.skip("running as root where the immutable attribute cannot be set")
        else:
            path.chmod(mode & ~0o222)
        protected.append((path, mode))

    yield make_read_only
    for path, mode in protected:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(mode)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_read_only_league_stops_the_commands_that_write_and_only_those(fed, protect, command):
    """21 cases: a command that writes to the league says so, exactly; one that only reads works."""
    args, writes = COMMANDS[command]
    protect(fed / "fed.db")
    before = files_of(fed)
    result = invoke(fed, args)
    if not writes:
        assert result.exit_code == 0, result.output
        return
    note = f". {RUN_IS_ATOMIC}" if command in ("run", "rerun") else ""
    assert_refused(result, f"{fed}/fed.db: cannot be written (SQLite: attempt to write a readonly database); SQLite rolled back the unfinished "
                           "change, so nothing in the league is half-written: make the file writable for the user running fedtool, "
                           f"then run the command again{note} [the league database]")
    # the league byte for byte; and nothing else but SQLite's log beside it (reading in WAL
    # mode makes fed.db-wal and fed.db-shm), and the snapshot `restore` takes before it copies
    after = {k: v for k, v in files_of(fed).items() if not k.endswith(SQLITE_SIDE_FILES) and not k.startswith("backups/")}
    assert after == {k: v for k, v in before.items() if not k.startswith("backups/")}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_read_only_fed_folder_is_one_clear_message(fed, protect, command):
    """21 cases: in WAL mode even reading makes fed.db-wal and fed.db-shm beside the league."""
    protect(fed)
    before = files_of(fed)
    result = invoke(fed, COMMANDS[command][0])
    reason = "Operation not permitted" if os.geteuid() == 0 else "Permission denied"
    if command == "restore NAME":  # its first step is a temporary copy of the snapshot beside the league
        assert result.stderr.startswith(f"error: {fed}: nothing can be created in this folder ({reason}; fedtool was writing .fed.db.restore-")
        assert result.stderr.endswith("): make the folder writable for the user running fedtool [the disk]\n")
        assert result.exit_code == 1 and "Traceback" not in result.output
    else:
        assert_refused(result, f"{fed}/fed.db: its folder {fed} cannot be written ({reason}); SQLite keeps the league's log (fed.db-wal, "
                               "fed.db-shm) beside it, even to read it: make the folder writable for the user running fedtool [the league database]")
    assert files_of(fed) == before


def test_a_full_disk_at_the_runs_commit_is_one_clear_message_and_changes_nothing(fed, monkeypatch):
    """SQLite's own 'database or disk is full' (the league may not grow by a page: max_page_count),
    met while the run records week 2, after its writeups are staged."""
    from fedtool.league import db as league_db

    register = league_db.register_functions

    def no_room(connection):  # every open of the league (an up-to-date one runs no migration)
        register(connection)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(league_db, "register_functions", no_room)
    before = snapshot(fed)
    result = invoke(fed, ["run", "2"])
    assert_refused(result, f"{fed}/fed.db: the disk is full (SQLite: database or disk is full); SQLite rolled back the unfinished change, "
                           f"so nothing in the league is half-written: free some space, then run the command again. {RUN_IS_ATOMIC} "
                           "[the league database]")
    gc.collect()
    assert snapshot(fed) == before  # the league as it was, no outbox/week-02, no snapshot kept, no staging left


def test_a_full_disk_while_writing_the_outbox_is_one_clear_message_and_changes_nothing(fed, monkeypatch):
    """The operating system's ENOSPC while the run writes its writeups (simulated: no test
    may fill the machine's disk)."""
    from fedtool.fed import files

    def disk_full(self, name, content):
        target = self.path / name
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr(files.StagedDir, "write", disk_full)
    before = snapshot(fed)
    result = invoke(fed, ["run", "2"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {fed}/outbox/.week-02.new-")
    assert result.stderr.endswith(": the disk is full (No space left on device); free some space, then run the command again [the disk]\n")
    gc.collect()
    assert snapshot(fed) == before


def test_a_read_only_fed_folder_without_its_lock_file_is_one_clear_message(fed, protect):
    """A writing command takes the fed's lock first: a file it cannot create in a read-only folder."""
    (fed / LOCK_FILE).unlink()
    protect(fed)
    reason = "Operation not permitted" if os.geteuid() == 0 else "Permission denied"
    assert_refused(invoke(fed, ["run", "2"]), f"{fed}: nothing can be created in this folder ({reason}; fedtool was writing {LOCK_FILE}): "
                                              "make the folder writable for the user running fedtool [the disk]")


def test_a_new_league_is_made_whole_before_it_has_its_name(tmp_path, monkeypatch):
    """SQLite makes a file at open and writes its header only at the first write: a process
    killed in between would leave a 0-byte fed.db, which fedtool refuses. A new league is
    made beside it and linked into place whole; what a killed creation left is removed."""
    import os

    import fedtool.league.db as league_db
    from fedtool.league.db import open_league

    path = tmp_path / "fed.db"
    (tmp_path / ".fed.db.new-killed").write_bytes(b"")  # a creation killed before its link
    seen = []

    class Killed(BaseException):
        pass

    def die_before_linking(made, name):
        seen.append((Path(made).stat().st_size, Path(name).exists()))
        raise Killed

    real_link = os.link
    monkeypatch.setattr(league_db.os, "link", die_before_linking)
    with pytest.raises(Killed):
        open_league(path)
    assert len(seen) == 1 and seen[0][0] >= 512 and seen[0][1] is False  # a header already, and no fed.db yet
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # neither fed.db nor a leftover
    monkeypatch.setattr(league_db.os, "link", real_link)
    db = open_league(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",) and "weeks" in db.table_names()
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fed.db"]
