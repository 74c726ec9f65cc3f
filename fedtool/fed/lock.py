"""One writer at a time: every command that writes to a fed holds its lock.

The lock is a file beside the fed's settings (`.fedtool.lock` in the fed's folder), taken
with the operating system's own advisory lock (`flock` on Unix, as filelock takes it, so
the two exclude each other), released by the kernel when the holder dies, so a killed
command never leaves a fed locked. A second writer waits up to `wait` seconds, then stops
with a message saying who to wait for. On Unix the lock is taken with fcntl directly
(issue 18: filelock and the logging it imports were a twentieth of a week's run); where
there is no fcntl (Windows), with filelock.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Iterator

from fedtool.kernel.errors import FedError, Problem

from .settings import Fed

LOCK_FILE = ".fedtool.lock"
POLL = 0.05  # seconds between tries while another command holds the lock (filelock's own interval)


@contextmanager
def fed_lock(fed: Fed, wait: float = 10.0) -> Iterator[None]:
    """Hold the fed's lock for the block; a FedError if another command holds it for `wait` seconds."""
    path = fed.root / LOCK_FILE
    try:
        import fcntl
    except ImportError:  # no flock: filelock's lock for the platform
        with _filelock(fed, path, wait):
            yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _busy(fed, path, wait) from None
                time.sleep(min(POLL, max(0.0, deadline - time.monotonic())))
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def _filelock(fed: Fed, path, wait: float) -> Iterator[None]:
    from filelock import FileLock, Timeout

    lock = FileLock(path, timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise _busy(fed, path, wait) from None
    try:
        yield
    finally:
        lock.release()


def _busy(fed: Fed, path, wait: float) -> FedError:
    return FedError(Problem(fed.shown(path), None, f"another fedtool command is writing to this fed (waited {wait:g} s); run this again when it has finished",
                            "one writer at a time"))
