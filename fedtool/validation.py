"""Structural validation with pydantic, reported in the user's terms: file, line, field."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import FedError, Problem
from .yamlio import line_of

M = TypeVar("M", bound=BaseModel)


class FileModel(BaseModel):
    """Base for every model read from a user's file: unknown fields are refused (typos)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def place(data: Any, loc: tuple | list, extra: str | None = None) -> str:
    """'line 12, field styles.power' for a location inside a parsed YAML file."""
    parts = []
    line = line_of(data, loc)
    if line:
        parts.append(f"line {line}")
    if loc:
        parts.append("field " + ".".join(str(p) for p in loc))
    if extra:
        parts.append(extra)
    return ", ".join(parts)


def validate(model: type[M], data: Any, file: str, rule: str) -> M:
    """Build `model` from `data`, or raise a FedError listing every problem with its line."""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise FedError(Problem(file, None, f"expected a mapping of fields, found {kind}", rule))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            message = err["msg"]
            if err["type"] == "extra_forbidden":
                message = f"unknown field {loc[-1]!r}"
            elif err["type"] == "missing":
                message = f"missing field {loc[-1]!r}"
            problems.append(Problem(file, place(data, loc), message, rule))
        raise FedError(problems) from None


def fraction(value: Any) -> Fraction:
    """Read push points exactly: 1, 0.5, '1/3', '1.8' all work; floats are read by their text."""
    if isinstance(value, bool):
        raise ValueError("points must be a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        value = repr(value)
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{value!r} is not a number or fraction such as 1/3") from None
