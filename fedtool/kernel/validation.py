"""Structural validation with pydantic, reported in the user's terms: file, line, field."""

from __future__ import annotations

import datetime
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import FedError, Problem
from .yamlio import line_of

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M")

# The pydantic types (FileModel, OwnerModel, Name, Points, MailAddress, Duration,
# PositiveDuration) live in fedtool.kernel.models and are imported from there the first time
# a module asks this one for them (`from fedtool.kernel.validation import FileModel`): a
# command that checks no file with pydantic (`fedtool standings`, its sheets and settings
# known checked: fedtool.kernel.checked) never imports pydantic (issue 18).
_MODELS = frozenset(("FileModel", "OwnerModel", "Name", "Points", "MailAddress", "Duration", "PositiveDuration"))


def __getattr__(name: str) -> Any:
    if name in _MODELS:
        from . import models

        return getattr(models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _one_line_name(text: str) -> str:
    if any(ch.isspace() and ch != " " or not ch.isprintable() for ch in text):
        raise ValueError("a name is one line of printable text (no line breaks, tabs or control characters)")
    return text


def sensible_number(value: int) -> int:
    if abs(value) >= 10**9:
        raise ValueError("a number this large cannot be on a sheet")
    return value


# Domains reserved for tests, examples and local use (RFC 2606, RFC 6761, RFC 6762): real
# feds use them for test players and local mail, so they are addresses, only never on the
# public Internet (`fedtool send` warns when it sends to one).
RESERVED_DOMAINS = ("test", "example", "invalid", "localhost", "local")
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def reserved_domain(address: str) -> str | None:
    """The reserved top-level name an address's domain ends in ("test"), or None."""
    domain = address.rpartition("@")[2].lower().rstrip(".")
    top = domain.rsplit(".", 1)[-1]
    return top if top in RESERVED_DOMAINS else None


# An address email_validator would accept and give back unchanged, told without importing it
# (issue 18: its import is a twentieth of a command that reads the sheets, and every address
# on a sheet is of this kind): before the @, dot-separated runs of ASCII letters, digits and
# _ + - (RFC 5322's dot-atom, narrowed), 64 at most, not one of the role names it lower-cases;
# after it, lower-case ASCII labels, none with "--" (Punycode and its look-alikes), the last
# ending in a letter, at least two, within DNS's lengths and outside the special-use names it
# refuses. Anything else goes to email_validator (tests/test_startup.py holds the two to the
# same answers, and these lists to the installed email_validator's).
_PLAIN_LOCAL = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*")
_PLAIN_DOMAIN = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z0-9][a-z0-9-]{0,61})?[a-z]")
ROLE_NAMES = frozenset(("info", "marketing", "sales", "support", "abuse", "noc", "security", "postmaster", "hostmaster", "usenet", "news",
                        "webmaster", "www", "uucp", "ftp"))  # email_validator's CASE_INSENSITIVE_MAILBOX_NAMES (RFC 2142)
SPECIAL_USE = ("arpa", "invalid", "local", "localhost", "onion", "test")  # email_validator's SPECIAL_USE_DOMAIN_NAMES


def _plain_local(local: str) -> bool:
    return len(local) <= 64 and _PLAIN_LOCAL.fullmatch(local) is not None and local.lower() not in ROLE_NAMES


def _plain_address(local: str, domain: str) -> bool:
    return (_plain_local(local) and len(domain) <= 253 and len(local) + len(domain) < 254 and "--" not in domain
            and _PLAIN_DOMAIN.fullmatch(domain) is not None and not any(domain.endswith("." + name) for name in SPECIAL_USE))


def _mail_address(value: Any) -> str:
    """An address mail can be sent to, normalised (email_validator), reserved domains included."""
    if not isinstance(value, str):
        raise ValueError("an e-mail address is text, such as bob@players.example")
    local, _, domain = value.strip().rpartition("@")
    if reserved_domain(value):
        labels = domain.lower().rstrip(".").split(".")
        if all(_LABEL.match(label) for label in labels) and _plain_local(local):
            return f"{local}@{'.'.join(labels)}"
    elif _plain_address(local, domain):
        return f"{local}@{domain}"
    return _checked_address(value)


def _checked_address(value: str) -> str:
    """`_mail_address` by email_validator itself."""
    from email_validator import EmailNotValidError, validate_email  # only for an address of another kind (issue 18)

    local, _, domain = value.strip().rpartition("@")
    try:
        if reserved_domain(value):
            labels = domain.lower().rstrip(".").split(".")
            if not all(_LABEL.match(label) for label in labels):
                raise EmailNotValidError(f"{domain!r} is not a domain name")
            checked = validate_email(f"{local}@reserved.example", check_deliverability=False)  # the part before the @
            return f"{checked.local_part}@{'.'.join(labels)}"
        return validate_email(value.strip(), check_deliverability=False).normalized
    except EmailNotValidError as exc:
        raise ValueError(f"not an e-mail address: {exc}") from None


DURATION = re.compile(r"^\s*(\d{1,4})\s*(m|h|d)\s*$")
DURATION_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def duration(value: Any) -> datetime.timedelta:
    """A span written as a fedhead writes it: 30m, 6h, 2d."""
    found = DURATION.match(str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if not found:
        raise ValueError(f"{str(value)[:40]!r} is not a span of time such as 30m, 6h or 2d")
    return datetime.timedelta(**{DURATION_UNITS[found.group(2)]: int(found.group(1))})


def positive_duration(value: Any) -> datetime.timedelta:
    """A span that is some time at all: 1m or more."""
    span = duration(value)
    if not span:
        raise ValueError(f"{str(value)[:40]!r} is no time at all: give a span such as 15m, 1h or 1d")
    return span


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


def validate(model: type[M], data: Any, file: str, rule: str, prefix: tuple = ()) -> M:
    """Build `model` from `data`, or raise a FedError listing every problem with its line
    (`prefix`: where `data` sits in the file, when it is a part of it)."""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise FedError(Problem(file, None, f"expected a mapping of fields, found {kind}", rule))
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
