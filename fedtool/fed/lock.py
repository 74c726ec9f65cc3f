"""One writer at a time: every command that writes to a fed holds its lock.

The lock is a file beside the fed's settings (`.fedtool.lock` in the fed's folder), taken
with filelock: the operating system's own advisory lock (fcntl on Unix), released by the
kernel when the holder dies, so a killed command never leaves a fed locked. A second
writer waits up to `wait` seconds, then stops with a message saying who to wait for.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from filelock import FileLock, Timeout

from fedtool.kernel.errors import FedError, Problem

from .settings import Fed

LOCK_FILE = ".fedtool.lock"


@contextmanager
def fed_lock(fed: Fed, wait: float = 10.0) -> Iterator[None]:
    """Hold the fed's lock for the block; a FedError if another command holds it for `wait` seconds."""
    lock = FileLock(fed.root / LOCK_FILE, timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise FedError(Problem(fed.shown(fed.root / LOCK_FILE), None,
                               f"another fedtool command is writing to this fed (waited {wait:g} s); run this again when it has finished",
                               "one writer at a time")) from None
    try:
        yield
    finally:
        lock.release()
