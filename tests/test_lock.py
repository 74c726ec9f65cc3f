"""One writer at a time: a command that writes waits for the fed's lock, and stops with a
message when another holds it; a killed holder never leaves the fed locked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from conftest import snapshot

HOLD = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def holder(demo_fed):
    """Another process holding the demo fed's lock, as a running command would."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(demo_fed / ".fedtool.lock")], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "held"
    yield process
    process.kill()
    process.wait()


def test_a_writing_command_stops_while_another_holds_the_lock(demo_fed, fedtool, holder, monkeypatch):
    monkeypatch.setattr("fedtool.cli.LOCK_WAIT", 0.2)
    before = snapshot(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert ".fedtool.lock: another fedtool command is writing to this fed (waited 0.2 s); run this again when it has finished [one writer at a time]" in result.stderr
    assert snapshot(demo_fed) == before and not (demo_fed / "fed.db").exists()


def test_reading_commands_do_not_wait_for_the_lock(demo_fed, fedtool, holder, monkeypatch):
    monkeypatch.setattr("fedtool.cli.LOCK_WAIT", 0.2)
    assert fedtool("standings", "--fed", demo_fed).exit_code == 0
    assert fedtool("read", demo_fed / "strategies/week-01/brother-bob.yaml", "--fed", demo_fed).exit_code == 0


def test_a_killed_holder_leaves_the_fed_unlocked(demo_fed, fedtool, holder):
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert (demo_fed / "outbox/week-01/card.md").is_file()
