"""Checks of single values read from a user's file, without pydantic: a name on one line, a
sensible number, an e-mail address (the plain kind told without email_validator), a span of
time. fedtool.kernel.validation names them; fedtool.kernel.models makes pydantic field types
of them."""

from __future__ import annotations

import datetime
import re
from typing import Any


def one_line(text: str) -> bool:
    """Whether `text` is one line of printable text: no line break, tab or control character."""
    return not any(ch.isspace() and ch != " " or not ch.isprintable() for ch in text)


def _one_line_name(text: str) -> str:
    if not one_line(text):
        raise ValueError("a name is one line of printable text (no line breaks, tabs or control characters)")
    return text


def whole_number(value: Any) -> Any:
    """Refuse a yes/no value where a whole number is wanted: YAML's `true` is no 1 (`stamina:
    true` was read as a Stamina of 1). Anything else goes on to the int check."""
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, found {str(value).lower()} (a yes/no value)")
    if isinstance(value, float):  # 10.0 was read as 10 by one ruleset, refused by another
        raise ValueError(f"expected a whole number, found {value!r} (a decimal number)")
    return value


def whole_number_only(value: Any) -> Any:
    """`whole_number`, and no text either: `stamina: '10'` (quoted) is text, not a number."""
    if isinstance(value, str):
        raise ValueError(f"expected a whole number, found the text {value[:40]!r}")
    return whole_number(value)


def sensible_number(value: int) -> int:
    if abs(value) >= 10**9:
        raise ValueError("a number this large cannot be on a sheet")
    return value


# Domains reserved for tests, examples and local use (RFC 2606, RFC 6761, RFC 6762): real
# feds use them for test players and local mail, so they are addresses, only never on the
# public Internet (`fedtool send` warns when it sends to one).
RESERVED_DOMAINS = ("test", "example", "invalid", "localhost", "local")
_LABEL = r"^(?!-)[a-z0-9-]{1,63}(?<!-)$"  # each pattern here compiled when first used, by re's own cache (issue 18)


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
_PLAIN_LOCAL = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*"
_PLAIN_DOMAIN = r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z0-9][a-z0-9-]{0,61})?[a-z]"
ROLE_NAMES = frozenset(("info", "marketing", "sales", "support", "abuse", "noc", "security", "postmaster", "hostmaster", "usenet", "news",
                        "webmaster", "www", "uucp", "ftp"))  # email_validator's CASE_INSENSITIVE_MAILBOX_NAMES (RFC 2142)
SPECIAL_USE = ("arpa", "invalid", "local", "localhost", "onion", "test")  # email_validator's SPECIAL_USE_DOMAIN_NAMES


def _plain_local(local: str) -> bool:
    return len(local) <= 64 and re.fullmatch(_PLAIN_LOCAL, local) is not None and local.lower() not in ROLE_NAMES


def _plain_address(local: str, domain: str) -> bool:
    return (_plain_local(local) and len(domain) <= 253 and len(local) + len(domain) < 254 and "--" not in domain
            and re.fullmatch(_PLAIN_DOMAIN, domain) is not None and not any(domain.endswith("." + name) for name in SPECIAL_USE))


def _mail_address(value: Any) -> str:
    """An address mail can be sent to, normalised (email_validator), reserved domains included."""
    if not isinstance(value, str):
        raise ValueError("an e-mail address is text, such as bob@players.example")
    local, _, domain = value.strip().rpartition("@")
    if reserved_domain(value):
        labels = domain.lower().rstrip(".").split(".")
        if all(re.match(_LABEL, label) for label in labels) and _plain_local(local):
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
            if not all(re.match(_LABEL, label) for label in labels):
                raise EmailNotValidError(f"{domain!r} is not a domain name")
            checked = validate_email(f"{local}@reserved.example", check_deliverability=False)  # the part before the @
            return f"{checked.local_part}@{'.'.join(labels)}"
        return validate_email(value.strip(), check_deliverability=False).normalized
    except EmailNotValidError as exc:
        raise ValueError(f"not an e-mail address: {exc}") from None


DURATION_TEXT = r"^\s*(\d{1,4})\s*(m|h|d)\s*$"  # `DURATION`, compiled when asked for (`__getattr__`)
DURATION_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def duration(value: Any) -> datetime.timedelta:
    """A span written as a fedhead writes it: 30m, 6h, 2d."""
    found = re.match(DURATION_TEXT, str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if not found:
        raise ValueError(f"{str(value)[:40]!r} is not a span of time such as 30m, 6h or 2d")
    return datetime.timedelta(**{DURATION_UNITS[found.group(2)]: int(found.group(1))})


def positive_duration(value: Any) -> datetime.timedelta:
    """A span that is some time at all: 1m or more."""
    span = duration(value)
    if not span:
        raise ValueError(f"{str(value)[:40]!r} is no time at all: give a span such as 15m, 1h or 1d")
    return span


def _leaves_the_fed(value: str) -> bool:
    """Whether a path written in a fed's file leaves the fed's folder as text: absolute (/x,
    C:\\x, \\\\server), from a home (~), or climbing (..)."""
    text = value.replace("\\", "/")
    return text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", text) is not None or ".." in text.split("/")


def roster_file(value: str, what: str = "deck") -> str:
    """A file of the fed's own its settings name (a deck): a file in the fed's rosters/ folder,
    written as its name there (my-deck.yaml) or with the folder (rosters/my-deck.yaml). A path
    leaving the fed (/etc/passwd, ../x, ~/x) or naming another folder is refused, never
    dropped to its last part."""
    text = value.replace("\\", "/")
    parts = [part for part in text.split("/") if part not in ("", ".")]
    if parts[:1] == ["rosters"]:
        parts = parts[1:]
    if _leaves_the_fed(value) or len(parts) != 1:
        raise ValueError(f"{value[:80]!r}: a {what} is a file inside the fed's folder, in its rosters/ folder: write its name there "
                         f"(my-{what}.yaml), with no leading /, ~ or .. and no other folder")
    return parts[0]


def fed_folder(value: str, what: str = "folder") -> str:
    """A folder inside the fed's folder, written relative to it (rosters/facemat-data)."""
    if not value.strip() or _leaves_the_fed(value):
        raise ValueError(f"{value[:80]!r}: a {what} is a folder inside the fed's folder, written relative to it (no leading /, ~ or ..)")
    return value


def __getattr__(name: str) -> Any:
    if name == "DURATION":  # the span pattern, compiled (as it was named before)
        return re.compile(DURATION_TEXT)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
