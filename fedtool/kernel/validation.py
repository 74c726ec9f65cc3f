"""Structural validation with pydantic, reported in the user's terms: file, line, field."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import FedError, Problem
from .values import (  # noqa: F401 (the checks of single values, named here as before)
    DURATION_UNITS, RESERVED_DOMAINS, ROLE_NAMES, SPECIAL_USE, _checked_address, _mail_address, _one_line_name, _plain_address,
    _plain_local, duration, positive_duration, reserved_domain, sensible_number, whole_number,
)
from .yamlio import line_of

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M")

# The pydantic types (FileModel, OwnerModel, Name, Points, MailAddress, Duration,
# PositiveDuration) live in fedtool.kernel.models and are imported from there the first time
# a module asks this one for them (`from fedtool.kernel.validation import FileModel`): a
# command that checks no file with pydantic (`fedtool standings`, its sheets and settings
# known checked: fedtool.kernel.checked) never imports pydantic (issue 18).
_MODELS = frozenset(("FileModel", "OwnerModel", "Name", "Points", "MailAddress", "Whole", "TextOrWhole", "Duration", "PositiveDuration"))


def __getattr__(name: str) -> Any:
    if name in _MODELS:
        from . import models

        return getattr(models, name)
    if name == "DURATION":
        from . import values

        return values.DURATION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def place(data: Any, loc: tuple | list, extra: str | None = None, prefix: tuple = ()) -> str:
    """'line 12, field styles.power' for a location inside a parsed YAML file; `prefix` names
    where `data` itself sits in the file ("matches", 2) when it is a part of it."""
    parts = []
    line = line_of(data, loc)
    if line:
        parts.append(f"line {line}")
    if loc:
        parts.append("field " + ".".join(str(p) for p in (*prefix, *loc)))
    if extra:
        parts.append(extra)
    return ", ".join(parts)


def validate(model: type[M] | str, data: Any, file: str, rule: str, prefix: tuple = ()) -> M:
    """Build `model` from `data`, or raise a FedError listing every problem with its line
    (`prefix`: where `data` sits in the file, when it is a part of it).

    A model given by name ("package.module:Class") is imported only when the data has to be
    checked: when a good check of equal data was kept (fedtool.kernel.checked: the data and
    the code's mark), what it gave is read back as `checked.Kept` objects, read as the model's
    attributes, and pydantic is not imported (issue 18: a week's run on files checked
    before). Only good verdicts are kept: broken data is checked, and named, every time."""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise FedError(Problem(file, None, f"expected a mapping of fields, found {kind}", rule))
    if isinstance(model, str):
        return _kept_or_checked(model, data, file, rule, prefix)
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            message = err["msg"]
            if err["type"] == "extra_forbidden":  # the key itself, even one named like a validator ("function-...")
                message = f"unknown field {err['loc'][-1]!r}"
            elif err["type"] == "missing":
                message = f"missing field {err['loc'][-1]!r}"
            elif err["type"] == "value_error":  # our own validators' words, without pydantic's "Value error, " before them
                message = str(err.get("ctx", {}).get("error", message.removeprefix("Value error, ")))
            elif err["type"] in ("int_parsing", "int_type", "int_from_float"):  # pydantic's "Input should be a valid integer, ..."
                message = f"expected a whole number, found {_found(err.get('input'))}"
            elif err["type"] in ("model_type", "dict_type"):  # pydantic names its own class here
                fields = _fields_of(model, err.get("ctx", {}).get("class_name"))
                message = f"expected a group of fields{fields}, found {_found(err.get('input'))}"
            problems.append(Problem(file, place(data, loc, prefix=prefix), message, rule))
        raise FedError(problems) from None


def _kept_or_checked(name: str, data: Any, file: str, rule: str, prefix: tuple) -> Any:
    from . import checked

    key = checked.data_key(name, data) if checked._folder() is not None else None
    if key is not None:
        form = checked.recall(key, plain=True)
        if form is not None:
            try:
                return checked.from_kept(form, data)
            except (ValueError, TypeError, KeyError, AttributeError, IndexError):
                pass  # an entry damaged since (by hand, a disk): checked now
    import importlib

    module, _, attribute = name.partition(":")
    result = validate(getattr(importlib.import_module(module), attribute), data, file, rule, prefix)
    if key is not None:
        keep_checked(name, data, result, key)
    return result


def keep_checked(name: str, data: Any, result: Any, key: str | None = None) -> None:
    """Keep `result`, a good check of `data` by the model named `name`, for the next
    `validate(name, equal data)` (nothing when the cache is off or it cannot be kept)."""
    from . import checked

    key = key or checked.data_key(name, data)
    if key is not None:
        try:
            checked.remember(key, checked.kept_form(result, data), plain=True)
        except checked.NotKept:
            pass


def _fields_of(model: type[BaseModel], class_name: str | None) -> str:
    """' (name, email)' for the model class pydantic named, found among `model`'s own field
    types; '' when it is not one of them."""
    from pydantic import BaseModel
    seen, todo = set(), [model]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if current.__name__ == class_name:
            return " (" + ", ".join(current.model_fields) + ")"
        for field in current.model_fields.values():
            for arg in _types_in(field.annotation):
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    todo.append(arg)
    return ""


def _types_in(annotation: Any) -> list[Any]:
    out, todo = [], [annotation]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(getattr(current, "__args__", ()) or ())
    return out


def _found(value: Any) -> str:
    """What a file gave where a group was wanted, in a few words."""
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{value!r}"[:40]


FRACTION_TEXT = re.compile(r"^-?\d{1,9}(\.\d{1,9})?$|^-?\d{1,9}/\d{1,9}$")


def fraction(value: Any) -> Fraction:
    """Read push points exactly: 1, 0.5, '1/3', '1.8' all work; floats are read by their text.

    Only plain decimals and fractions of a few digits are accepted: no exponents (a
    "1e99999999" would take forever to build exactly), no infinities.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise ValueError("points must be a number or a fraction such as 1/3")
    if isinstance(value, Fraction):
        return value
    text = repr(value) if isinstance(value, float) else str(value).strip()
    if not FRACTION_TEXT.match(text):
        raise ValueError(f"{text[:40]!r} is not a number or fraction such as 1/3")
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise ValueError(f"{text!r} divides by zero") from None
