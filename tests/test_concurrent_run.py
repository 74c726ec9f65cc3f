"""Two `fedtool run`s on one fed at once (issue 13): one runs the week, the other is refused
with a clear message (the fed is busy, or the week has been run by then); never a
`database is locked` or `UNIQUE constraint failed` traceback, never a week recorded twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

from filelock import FileLock, Timeout

from conftest import LOCK_FILE, snapshot
from golden import FIXED_EPOCH, demo_copy

BUSY = ("error: .fedtool.lock: another fedtool command is writing to this fed (waited {wait} s); "
        "run this again when it has finished [one writer at a time]\n")
ALREADY_RUN = "error: fed.db: week 1 has already been run; `fedtool run 1 --rerun` undoes it and runs it again [a week runs once]\n"
WAITING = "import sys, fedtool.cli; fedtool.cli.LOCK_WAIT = float(sys.argv.pop(1)); fedtool.cli.cli()"  # `fedtool`, waiting so long for the lock


def fedtool(folder, *args, wait: float | None = None) -> subprocess.Popen:
    command = [sys.executable, "-m", "fedtool"] if wait is None else [sys.executable, "-c", WAITING, str(wait)]
    return subprocess.Popen([*command, *args, "--fed", str(folder)], env={**os.environ, "SOURCE_DATE_EPOCH": FIXED_EPOCH},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def weeks_and_runs(folder) -> tuple[list, list]:
    with closing(sqlite3.connect(folder / "fed.db")) as db:
        return db.execute("SELECT week FROM weeks").fetchall(), db.execute("SELECT week, run FROM week_runs").fetchall()


def test_two_runs_at_once_one_runs_the_week_and_the_other_is_refused(tmp_path):
    alone = demo_copy(tmp_path / "alone")  # the same week run by itself
    single = fedtool(alone, "run", "1")
    assert single.wait(timeout=120) == 0, single.stderr.read()
    for wait in (None, 0):  # the default wait (the loser finds the week run), and none (the loser finds the fed busy)
        fed = demo_copy(tmp_path / f"fed-{wait}")
        both = [fedtool(fed, "run", "1", wait=wait), fedtool(fed, "run", "1", wait=wait)]
        ended = [(*process.communicate(timeout=120), process.returncode) for process in both]
        ended = [(code, out, err) for out, err, code in ended]
        assert sorted(code for code, _, _ in ended) == [0, 1], ended
        _, out, err = next(e for e in ended if e[0] == 1)
        assert out == "" and err in (ALREADY_RUN, BUSY.format(wait=0)), err  # which one: who got there when
        assert "Traceback" not in "".join(e[2] for e in ended)
        assert weeks_and_runs(fed) == ([(1,)], [(1, 1)])
        assert snapshot(fed / "outbox") == snapshot(alone / "outbox")


def test_a_run_while_another_holds_the_fed_is_told_it_is_busy(demo_fed):
    """The first run is stopped (SIGSTOP) while it holds the fed's lock: a second one gives up
    after its wait with the message and writes nothing; the first, continued, runs the week."""
    first = fedtool(demo_fed, "run", "1")
    probe = FileLock(demo_fed / LOCK_FILE, timeout=0)
    while True:  # until the first run holds the lock (it waits for this probe's moment)
        assert first.poll() is None, first.stderr.read()
        try:
            probe.acquire()
        except Timeout:
            break
        probe.release()
        time.sleep(0.005)
    first.send_signal(signal.SIGSTOP)
    try:
        before = snapshot(demo_fed)
        second = fedtool(demo_fed, "run", "1", wait=0.5)
        out, err = second.communicate(timeout=120)
        assert (second.returncode, out, err) == (1, "", BUSY.format(wait=0.5))
        assert snapshot(demo_fed) == before
    finally:
        first.send_signal(signal.SIGCONT)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert out.endswith("24 files in outbox/week-01\n")
    assert weeks_and_runs(demo_fed) == ([(1,)], [(1, 1)])
