"""What fedtool checked before, kept between commands (issue 18: "no models built or YAML
read at import"; `fedtool standings` under 0.15 s).

Checking rosters/fed.yaml and every roster sheet with pydantic is most of what a command
that only reads the league costs: importing pydantic, building each model's validator,
validating. A check's verdict depends only on the bytes checked and the code that checked
them, so a command that checked some files and found them good keeps what it needs of them
here, keyed by the SHA-256 of those bytes and of a mark of the code (`code_mark`); the
next command given the very same bytes reads that instead of checking again. Only a good
verdict is kept: a broken file is checked every time, so its message is always the
checker's own, naming file, line and rule.

The entries sit in the user's own cache folder (`cache_folder`: FEDTOOL_CACHE_DIR, else
$XDG_CACHE_HOME/fedtool, else ~/.cache/fedtool; FEDTOOL_CACHE_DIR set empty turns it off),
one small JSON file each, never the fed's folder, and never a secret or an address (what is
kept is what a reader shows: names, rulesets, divisions, starting states, plain settings;
a file's YAML parse is kept as its shape and the places of its values in the text,
`fedtool.kernel.yamlio`).

Pruning: an entry is used when a command recalls it; its file's time of change is then
moved to now, at most once a day (`FRESHEN`), so a recall seldom writes. An entry not used
for `KEEP_DAYS` days (a sheet since edited, a fed given up, code since upgraded: its mark
makes every old entry a stranger) is deleted by a sweep that `remember` starts at most once
a day (the time of the folder's `.swept` file says when the last one was), which looks at
no more than `SWEEP_LIMIT` files and takes no lock: two commands sweeping at once each
delete what they find, and a file gone already is skipped. Temporary files a killed write
left (`.*.tmp`) older than a day go the same way.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import stat
import sys
from fractions import Fraction
from typing import Any

REVISION = 1  # raised whenever what an entry holds changes shape
KEEP_DAYS = 30  # an entry not recalled for this many days is deleted by the next sweep
DAY = 86400.0
FRESHEN = DAY  # a recalled entry's time is moved to now when it is older than this
SWEEP_LIMIT = 5000  # files one sweep looks at, at most
SWEPT = ".swept"


def cache_folder(name: str) -> str | None:
    """A folder of the user's own cache, made 0700; None when the cache is off or the folder
    is not the user's alone (another owner, writable by others: compiled templates are loaded
    from there as code, fedtool.fed.render.bytecode_cache)."""
    base = os.environ.get("FEDTOOL_CACHE_DIR")
    if base == "":
        return None
    if base is None:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "fedtool")
    folder = os.path.join(base, name)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(found.st_mode) or found.st_mode & 0o022 or (hasattr(os, "getuid") and found.st_uid != os.getuid()):
        return None
    return folder


_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the fedtool package
# the code a settings or sheet check runs: the kernel, the settings, the sheets' reader, every ruleset with its data
_CHECKERS = ("kernel", "rulesets", os.path.join("fed", "settings.py"), os.path.join("fed", "models.py"), os.path.join("fed", "cardmodel.py"),
             os.path.join("league", "sheets.py"))
_SOURCE = (".py", ".pxd", ".yaml", ".yml", ".json", ".csv", ".txt")
_mark: bytes | None = None


def code_mark() -> bytes:
    """What the checking code is: Python's version, each of the checkers' source and data
    files (its name, size and time of change), and the folder of the installed libraries
    (pydantic, email-validator, ...: installing or upgrading one changes the folder). Any
    change makes every kept verdict a stranger: files are checked again."""
    global _mark
    if _mark is None:
        parts = [sys.version, str(REVISION)]
        for name in _CHECKERS:
            _stamps(os.path.join(_HERE, name), parts)
        try:
            import importlib.util

            spec = importlib.util.find_spec("pydantic")  # found, not imported
            libraries = os.path.dirname(os.path.dirname(spec.origin)) if spec and spec.origin else ""
            found = os.stat(libraries)
            parts.append(f"{libraries} {found.st_mtime_ns}")
        except (ImportError, OSError, ValueError):
            parts.append("no libraries")
        _mark = hashlib.sha256("\n".join(parts).encode()).digest()
    return _mark


def _stamps(path: str, parts: list[str]) -> None:
    """Each source or data file at or under `path`: its place, size and time of change."""
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except NotADirectoryError:
        found = os.stat(path)
        parts.append(f"{path[len(_HERE):]} {found.st_size} {found.st_mtime_ns}")
        return
    except OSError:
        parts.append(f"{path[len(_HERE):]} unreadable")
        return
    for entry in entries:
        if entry.is_dir():
            if entry.name not in ("__pycache__", "templates"):
                _stamps(entry.path, parts)
        elif entry.name.endswith(_SOURCE):
            found = entry.stat()
            parts.append(f"{entry.path[len(_HERE):]} {found.st_size} {found.st_mtime_ns}")


def digest(*parts: bytes | str) -> str:
    """The SHA-256 of the parts (each length-prefixed) and the code's mark: an entry's name."""
    h = hashlib.sha256(code_mark())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


_FOLDERS: dict[tuple, str | None] = {}


def _folder() -> str | None:
    """The checked files' folder (`cache_folder`), found once a process for the same
    environment (a run asks for it some ninety times)."""
    where = (os.environ.get("FEDTOOL_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    if where not in _FOLDERS:
        _FOLDERS[where] = cache_folder(f"checked-{REVISION}")
    return _FOLDERS[where]


def recall(key: str, plain: bool = False) -> Any:
    """What `remember` kept under `key`, or None (nothing kept, the cache off, an entry
    unreadable). `plain`: kept as JSON as it is (`remember(..., plain=True)`); under a
    `Sealed` key, sealed by what it carries (below: an entry of any other kind is none)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        path = os.path.join(folder, key + ".json")
        text, changed = _read_entry(path)
        if text is None:
            return None
        _freshen(path, changed)
        import json

        if not plain:
            return decode(json.loads(text))
        seal = getattr(key, "seal", None)
        if seal is not None:
            return json.loads(_unsealed(text, seal))
        entry = json.loads(text)
        form = entry["form"]
        if entry["sum"] != _sum(form):  # damaged since it was written (by hand, a disk): as no entry
            return None
        return form
    except (OSError, ValueError, TypeError, KeyError, RecursionError):  # RecursionError: JSON nested deeper than Python reads
        return None


_OPEN_ENTRY = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_entry(path: str) -> tuple[bytes | None, float]:
    """An entry's bytes and time of change; None for what `remember` never writes there (a
    symlink, a folder, a pipe: opening a pipe with no writer would wait forever, reading a
    device never end) -- judged by what was opened, as `yamlio.read_text` judges a file."""
    fd = os.open(path, _OPEN_ENTRY)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            return None, 0.0
        chunks = []
        while chunk := os.read(fd, max(found.st_size + 1, 1 << 16)):
            chunks.append(chunk)
        return b"".join(chunks), found.st_mtime
    finally:
        os.close(fd)


def _freshen(path: str, changed: float) -> None:
    """Mark an entry used now (its time of change), when it was last marked over a day ago."""
    import time

    if time.time() - changed > FRESHEN:
        try:
            os.utime(path)
        except OSError:
            pass


def sweep(folder: str, now: float | None = None, force: bool = False) -> int:
    """Delete the entries of `folder` not used for KEEP_DAYS days and temporary files over a
    day old, looking at SWEEP_LIMIT files at most; once a day unless `force`. Returns how many
    files it deleted. Never raises: a file another sweep took is skipped, an error stops it."""
    import time

    now = time.time() if now is None else now
    marker = os.path.join(folder, SWEPT)
    try:
        if not force and now - os.stat(marker).st_mtime < DAY:
            return 0
    except FileNotFoundError:
        pass
    except OSError:
        return 0
    deleted = 0
    try:
        with open(marker, "ab"):
            pass
        os.utime(marker, (now, now))  # the next sweep a day after this one
        with os.scandir(folder) as entries:
            for seen, entry in enumerate(entries):
                if seen >= SWEEP_LIMIT:
                    break
                name = entry.name
                old = KEEP_DAYS * DAY if name.endswith(".json") else DAY if name.startswith(".") and name.endswith(".tmp") else None
                try:
                    if old is not None and now - entry.stat(follow_symlinks=False).st_mtime > old:
                        os.unlink(entry.path)
                        deleted += 1
                except FileNotFoundError:  # another sweep took it
                    continue
    except OSError:
        pass
    return deleted


def remember(key: str, value: Any, plain: bool = False) -> None:
    """Keep `value` under `key` (written whole, then moved in place: a reader never sees half of
    it); silently nothing when the cache is off, the value is not plain or the disk refuses.
    `plain`: the value is JSON as it is (a model's kept form), written without `encode`."""
    folder = _folder()
    if folder is None:
        return
    import tempfile

    try:
        if plain and getattr(key, "seal", None) is not None:
            written = _sealed(_json(value).encode(), key.seal)  # type: ignore[attr-defined]
        elif plain:
            form = _json(value)  # one encoding, its checksum's and the file's
            written = '{"sum":"' + hashlib.sha256(form.encode()).hexdigest() + '","form":' + form + "}"  # = _json({"sum": _sum(value), "form": value})
        else:
            written = _json(encode(value))
    except (TypeError, ValueError, RecursionError):
        return

    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(written)  # json.dumps, not json.dump: dump to a file encodes in pure Python, several times slower
            os.replace(temporary, os.path.join(folder, key + ".json"))
        except BaseException:
            os.unlink(temporary)
            raise
        # the sweep's "now" is the file system's, read off the entry just written: the same
        # clock as the times it compares (a test's moved clock moves no file's time)
        sweep(folder, os.stat(os.path.join(folder, key + ".json")).st_mtime)
    except (OSError, ValueError):
        pass


# ---------------------------------------------------------------- sealed entries
#
# An entry kept for a file a player or the fedhead wrote (a YAML parse's places, a strategy's
# or a sheet's verdict) is sealed by the file itself: its key is a `Sealed` name, which
# carries what the file says (its text, or its data spelled out), and the entry is written
# XORed with a SHAKE-256 stream of that, behind the SHA-256 of what was written (a damaged
# entry is no entry), as JSON: {"sealed": base64}. Read without the file, an entry says
# nothing, not even the lengths of the file's values (a twelve-letter style of three, a
# password's length); the reader holding the very same file, who finds the entry by it,
# reads it in a few microseconds.


class Sealed(str):
    """An entry's name (`digest`) that also carries what seals the entry (`seal`)."""

    seal: bytes


def sealed(key: str, material: bytes) -> Sealed:
    """`key` as a `Sealed` name: its entry sealed by `material` (what only a holder of the file has)."""
    name = Sealed(key)
    name.seal = hashlib.sha256(b"fedtool entry seal\0" + material).digest()
    return name


def _stream(seal: bytes, size: int) -> int:
    return int.from_bytes(hashlib.shake_256(seal).digest(size), "little")


def _sealed(data: bytes, seal: bytes) -> str:
    """The entry written for `data` (an entry's JSON) sealed by `seal`."""
    import binascii

    hidden = (int.from_bytes(data, "little") ^ _stream(seal, len(data))).to_bytes(len(data), "little")
    return '{"sealed":"' + binascii.b2a_base64(hashlib.sha256(hidden).digest() + hidden, newline=False).decode("ascii") + '"}'


def _unsealed(text: bytes, seal: bytes) -> bytes:
    """A sealed entry's JSON; ValueError (or KeyError, TypeError) for anything else: an entry
    of another kind, damaged."""
    import binascii
    import json

    blob = binascii.a2b_base64(json.loads(text)["sealed"].encode("ascii"), strict_mode=True)
    summed, hidden = blob[:32], blob[32:]
    if len(summed) != 32 or hashlib.sha256(hidden).digest() != summed:
        raise ValueError("a damaged entry")
    return (int.from_bytes(hidden, "little") ^ _stream(seal, len(hidden))).to_bytes(len(hidden), "little")


def _json(value: Any) -> str:
    """`value` as an entry's JSON (compact, UTF-8 as it is, no NaN)."""
    import json

    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _sum(form: Any) -> str:
    """A plain entry's checksum: the SHA-256 of its JSON (as `remember` writes it)."""
    return hashlib.sha256(_json(form).encode()).hexdigest()


def encode(value: Any) -> Any:
    """`value` as JSON that `decode` gives back equal and of the same types: text, whole
    numbers, booleans, None, finite floats, lists, mappings with text keys, and Fractions
    (push points); a TypeError for anything else (a date, a tuple, a set), which is then
    not kept."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if type(value) is int:
        return value
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("not a finite number")
        return value
    if type(value) is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if type(value) is list:
        return [encode(v) for v in value]
    if type(value) is dict:
        if not all(type(k) is str for k in value):
            raise TypeError("a mapping's keys must be text")
        return {"mapping": {k: encode(v) for k, v in value.items()}}
    raise TypeError(f"{type(value).__name__} is not kept")


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "fraction" in value:
            numerator, denominator = value["fraction"]
            return Fraction(numerator, denominator)
        return {k: decode(v) for k, v in value["mapping"].items()}
    return value


# ---------------------------------------------------------------- a model's verdict on parsed data (issue 18: `run` without pydantic)
#
# `fedtool.kernel.validation.validate(model, data, ...)`, given its model by name
# ("package.module:Class"), keeps what a good check of `data` gave, keyed by the data
# (`data_key`: every value with its type, so the key changes whenever the file's bytes
# change what they say) and the code's mark; the next check of equal data reads that back as
# `Kept` objects without importing pydantic. What is kept holds none of the file's text: each
# string the check took from the data (as written, or with its blanks stripped, as the
# models strip them) is kept as a reference to its place in the data and read from the data
# given (so a secret or an address never reaches the cache); numbers, flags, dates, spans and
# fractions are kept as values. A check whose result took text from elsewhere than its own
# place (a value rewritten by a validator) is not kept: that file is checked every time.


class NotKept(Exception):
    """A value the kept form cannot say exactly (see above)."""


_MISSING = object()


def data_key(name: str, data: Any) -> str | None:
    """The cache's key for `data` checked by the model named `name`; None for data holding a
    value the key cannot say (the check is then made)."""
    parts: list[str] = []
    try:
        _spell(data, parts)
    except NotKept:
        return None
    spelled = "".join(parts)
    return sealed(digest("model", name, spelled), spelled.encode("utf-8", "surrogatepass"))


def _spell(value: Any, out: list[str]) -> None:
    kind = type(value)
    if kind is str or isinstance(value, str):
        out.append(f"s{len(value)}:")
        out.append(str(value))
    elif value is None or kind is bool:
        out.append(f"{value!r};")
    elif kind is int:
        out.append(f"i{value};")
    elif kind is float:
        out.append(f"f{value!r};")
    elif isinstance(value, dict):
        out.append(f"m{len(value)}{{")
        for key, item in value.items():
            _spell(key, out)
            _spell(item, out)
        out.append("}")
    elif isinstance(value, list):
        out.append(f"l{len(value)}[")
        for item in value:
            _spell(item, out)
        out.append("]")
    elif kind is datetime.datetime or kind is datetime.date:
        out.append(f"{kind.__name__}{value.isoformat()};")
    else:
        raise NotKept(kind.__name__)


def kept_form(result: Any, data: Any) -> Any:
    """`result` (a checked model) as the cache keeps it against `data`, the data it was
    checked from; NotKept when it cannot be said exactly."""
    return _form(result, data)


def _form(value: Any, datum: Any) -> Any:
    if datum is not _MISSING and value is datum and not isinstance(value, (int, float)):  # the data's own object, unchanged
        return {"same": True}
    kind = type(value)
    if kind is str:
        if datum is _MISSING:
            return value  # the model's own default, not the file's
        if isinstance(datum, str):
            if value == datum:
                return {"text": 0}
            if value == datum.strip():
                return {"text": 1}
        raise NotKept("a text not read from its place")
    if value is None or kind in (bool, int, float, Fraction, datetime.timedelta, datetime.datetime, datetime.date):
        return _plain_value(value)
    if hasattr(kind, "__pydantic_fields__"):  # a model: its fields and any extra ones, as iterating it gives them
        fields = []
        for name, item in value:
            fields.append([name, _form(item, datum.get(name, _MISSING) if isinstance(datum, dict) else _MISSING)])
        return {"model": fields}
    if kind in (list, tuple):
        if datum is _MISSING:
            items = [_form(item, _MISSING) for item in value]
        elif isinstance(datum, (list, tuple)) and len(datum) == len(value):
            items = [_form(item, d) for item, d in zip(value, datum)]
        else:
            raise NotKept("a list not read item for item")
        return {"list" if kind is list else "tuple": items}
    if kind is dict:
        if datum is _MISSING:
            if not all(type(k) is str for k in value):
                raise NotKept("a key that is not text")
            return {"dict": [[k, _form(v, _MISSING)] for k, v in value.items()]}
        if not isinstance(datum, dict) or len(datum) != len(value):
            raise NotKept("a mapping not read key for key")
        pairs = []
        for (key, item), (dkey, ditem) in zip(value.items(), datum.items()):
            pairs.append([_form(key, dkey), _form(item, ditem)])
        return {"pairs": pairs}
    raise NotKept(kind.__name__)


def _plain_value(value: Any) -> Any:
    if value is None or type(value) in (bool, int):
        return value
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise NotKept("not a finite number")
        return {"float": value}
    if type(value) is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if type(value) is datetime.timedelta:
        return {"span": [value.days, value.seconds, value.microseconds]}
    if type(value) is datetime.datetime:
        return {"datetime": value.isoformat()}
    return {"date": value.isoformat()}


def from_kept(form: Any, data: Any) -> Any:
    """What `kept_form` kept, read back against equal data: models as `Kept` objects. A
    ValueError (TypeError, KeyError, ...) for a form not of the shape `kept_form` writes (an
    entry damaged by hand or by a disk): the data is then checked."""
    if not isinstance(form, dict) or list(form) != ["model"]:
        raise ValueError("not a kept model")
    return _unform(form, data)


def _unform(form: Any, datum: Any) -> Any:
    if form is None or type(form) in (bool, int, str):
        return form
    if type(form) is not dict or len(form) != 1:
        raise ValueError("not a kept form")
    (tag, body), = form.items()
    if tag in ("model", "list", "tuple", "dict", "pairs") and type(body) is not list:
        raise ValueError(f"a kept {tag} is a list")
    if tag in ("same", "text", "pairs") and datum is _MISSING:
        raise ValueError(f"a kept {tag} without its place in the data")
    if tag == "same":
        return datum
    if tag == "text":
        if not isinstance(datum, str):
            raise ValueError("a kept text's place holds no text")
        return datum.strip() if body else datum
    if tag == "model":
        return Kept({name: _unform(item, datum.get(name, _MISSING) if isinstance(datum, dict) else _MISSING) for name, item in body})
    if tag in ("list", "tuple"):
        if datum is not _MISSING and (not isinstance(datum, (list, tuple)) or len(datum) != len(body)):
            raise ValueError("a kept list not the data's length")
        items = [_unform(item, _MISSING if datum is _MISSING else d) for item, d in zip(body, datum if datum is not _MISSING else body)]
        return items if tag == "list" else tuple(items)
    if tag == "dict":
        return {k: _unform(v, _MISSING) for k, v in body}
    if tag == "pairs":
        if not isinstance(datum, dict) or len(datum) != len(body):
            raise ValueError("a kept mapping not the data's size")
        return {_unform(k, dk): _unform(v, dv) for (k, v), (dk, dv) in zip(body, datum.items())}
    if tag == "float":
        return float(body)
    if tag == "fraction":
        return Fraction(*body)
    if tag == "span":
        return datetime.timedelta(days=body[0], seconds=body[1], microseconds=body[2])
    if tag == "datetime":
        return datetime.datetime.fromisoformat(body)
    if tag == "date":
        return datetime.date.fromisoformat(body)
    raise ValueError(f"unknown kept form {tag!r}")


class Kept:
    """A checked model's values read back from the cache (`from_kept`), read as the model's
    attributes are; equal to another with the same values, and to the model it stands for
    (a pydantic model with the same fields and values)."""

    def __init__(self, values: dict[str, Any]):
        self.__dict__.update(values)

    def __iter__(self):
        return iter(self.__dict__.items())

    def __repr__(self) -> str:
        return f"Kept({self.__dict__!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Kept):
            return other.__dict__ == self.__dict__
        if hasattr(type(other), "__pydantic_fields__"):
            return dict(other) == self.__dict__  # type: ignore[call-overload]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
