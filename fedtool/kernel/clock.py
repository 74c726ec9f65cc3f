"""The one clock: what time fedtool says it is when it records a run or dates a mail.

`SOURCE_DATE_EPOCH` (the reproducible-builds convention: whole seconds since 1970, UTC)
fixes it, so a playthrough written twice is the same bytes (tests/golden.py sets it).
"""

from __future__ import annotations

import datetime
import os

from .errors import FedError, Problem

EPOCH_ENV = "SOURCE_DATE_EPOCH"


def now() -> datetime.datetime:
    """The current time in UTC, to the second; `SOURCE_DATE_EPOCH` when it is set."""
    fixed = os.environ.get(EPOCH_ENV, "").strip()
    if fixed:
        if not fixed.isdigit():
            raise FedError(Problem(None, None, f"{EPOCH_ENV}={fixed!r} is not a whole number of seconds since 1970", "fedtool: the clock"))
        return datetime.datetime.fromtimestamp(int(fixed), datetime.timezone.utc)
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
