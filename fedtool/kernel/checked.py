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
kept is what a reader shows: names, rulesets, divisions, starting states, plain settings).

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
_CHECKERS = ("kernel", "rulesets", os.path.join("fed", "settings.py"), os.path.join("fed", "models.py"), os.path.join("league", "sheets.py"))
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


def _folder() -> str | None:
    return cache_folder(f"checked-{REVISION}")


def recall(key: str) -> Any:
    """What `remember` kept under `key`, or None (nothing kept, the cache off, an entry unreadable)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        path = os.path.join(folder, key + ".json")
        with open(path, "rb") as file:
            text = file.read()
            changed = os.fstat(file.fileno()).st_mtime
        _freshen(path, changed)
        import json

        return decode(json.loads(text))
    except (OSError, ValueError, TypeError, KeyError):
        return None


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


def remember(key: str, value: Any) -> None:
    """Keep `value` under `key` (written whole, then moved in place: a reader never sees half of
    it); silently nothing when the cache is off, the value is not plain or the disk refuses."""
    folder = _folder()
    if folder is None:
        return
    try:
        encoded = encode(value)
    except TypeError:
        return
    import json
    import tempfile

    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(encoded, file, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            os.replace(temporary, os.path.join(folder, key + ".json"))
        except BaseException:
            os.unlink(temporary)
            raise
        # the sweep's "now" is the file system's, read off the entry just written: the same
        # clock as the times it compares (a test's moved clock moves no file's time)
        sweep(folder, os.stat(os.path.join(folder, key + ".json")).st_mtime)
    except (OSError, ValueError):
        pass


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
