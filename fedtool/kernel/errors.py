"""Domain errors. Every problem a user can cause names the file, the place and the rule."""

from __future__ import annotations

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
