"""Domain errors. Every problem a user can cause names the file, the place and the rule."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where it is, what is wrong, which rule says so."""

    file: str | None
    place: str | None  # "line 12", "line 12, round 4, field type", ...
    message: str
    rule: str | None = None  # "MatchMatch I.1", "fedtool: strategy files", ...

    def __str__(self) -> str:
        where = ", ".join(p for p in (self.file, self.place) if p)
        text = f"{where}: {self.message}" if where else self.message
        return f"{text} [{self.rule}]" if self.rule else text


class FedError(Exception):
    """A problem the user can fix: bad input, a refused operation. Never a bug."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem(None, None, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class Collector:
    """Gathers problems across many files so a fedhead sees them all at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, file: str | Path | None, place: str | None, message: str, rule: str | None = None) -> None:
        self.problems.append(Problem(str(file) if file is not None else None, place, message, rule))

    def extend(self, error: FedError) -> None:
        self.problems.extend(error.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise FedError(self.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)


# What the operating system may refuse whatever fedtool does right: each with what to do.
DISK_FULL = "the disk is full ({}); free some space, then run the command again"
NOT_WRITABLE = "cannot be written ({}); make it, and its folder, writable for the user running fedtool"
CANNOT_CREATE = "nothing can be created in this folder ({}; fedtool was writing {}): make the folder writable for the user running fedtool"
DISK_REFUSALS = {errno.ENOSPC: DISK_FULL, errno.EDQUOT: DISK_FULL, errno.EROFS: NOT_WRITABLE, errno.EACCES: NOT_WRITABLE, errno.EPERM: NOT_WRITABLE}


def disk_error(exc: OSError) -> FedError | None:
    """A full disk, a read-only file system or a refused permission, as a FedError naming the
    file (or the folder a new file was refused in) and what to do; None for any other
    OSError (a bug, not the user's to fix)."""
    text = DISK_REFUSALS.get(exc.errno or 0)
    if text is None:
        return None
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return FedError(Problem(None, None, text.format(reason), "the disk"))
    path = Path(exc.filename)
    if text is NOT_WRITABLE and not path.exists() and path.parent.is_dir():
        return FedError(Problem(str(path.parent), None, CANNOT_CREATE.format(reason, path.name), "the disk"))
    return FedError(Problem(str(path), None, text.format(reason), "the disk"))
