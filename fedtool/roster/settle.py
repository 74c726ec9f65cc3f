"""What a killed roster command left, settled by the next writing command (review 25).

`fedtool roster retire`, `return` and `respec` change the league and then a sheet file. The
league's commit decides, as for a week's run: the command writes down the file change it is
about to make (`rosters/.roster-pending.json`: the roster change's row and the move or
write) inside the league's transaction, commits, makes the change, and drops the note. The
next writing command (fedtool.cli.fed_option, holding the fed's lock) reads a note left
behind: if the league holds its row, the move or write is made (the sheet written is the
one the league recorded); if not, the league rolled back and the files were never touched,
so the note is dropped. The roster commands and `fedtool import` write each sheet and the
note whole through a temporary file beside it (`write_whole`: `.NAME.fedtool-XXXXXXXX`, a
name no fedhead's file has); one a killed command left is removed here too, and nothing
else in rosters/ is touched.

Nothing but os and pathlib at import: every writing command calls `settle_roster`, which
reads a note and opens the league only when one is there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fedtool.fed.settings import Fed

PENDING = ".roster-pending.json"
TEMP_MARK = ".fedtool-"
_RANDOM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # tempfile.mkstemp adds 8 of these after the prefix


def is_temp(name: str) -> bool:
    """Whether a file name is one of write_whole's temporary files: `.ID.yaml.fedtool-XXXXXXXX`
    or the note's (no regular expression: every writing command asks, at start-up)."""
    head, mark, tail = name.rpartition(TEMP_MARK)
    return bool(mark) and len(tail) == 8 and set(tail) <= _RANDOM and (head == PENDING or head.startswith(".") and head.endswith(".yaml") and len(head) > 6)


def write_whole(path: Path, text: str, new: bool = False) -> None:
    """Write `path` whole: through a temporary file beside it (`.NAME.fedtool-XXXXXXXX`, which
    `settle_roster` removes if a killed command left it), flushed to disk, then renamed over
    it, or with `new` linked to it (a link never replaces a file: FileExistsError if one
    appeared). A replaced file gets the mode any new file gets (fedtool.fed.files.atomic_write);
    a new one keeps tempfile's private 0600."""
    import tempfile

    from fedtool.fed.files import umask

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}{TEMP_MARK}", dir=path.parent)
    try:
        if not new:
            os.fchmod(fd, 0o666 & ~umask())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if new:
            os.link(tmp, path)
        else:
            os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_pending(fed: "Fed", note: dict) -> None:
    """Write down the file change a roster command is about to make (call it inside the
    league's transaction, after the roster change's row is inserted)."""
    import json

    write_whole(fed.rosters / PENDING, json.dumps(note))


def drop_pending(fed: "Fed") -> None:
    (fed.rosters / PENDING).unlink(missing_ok=True)


def settle_roster(fed: "Fed") -> None:
    """Remove the temporary files a killed command left in rosters/ and rosters/retired/, and
    finish or drop a roster command's file change by the league's word (see the module).
    Call it holding the fed's lock."""
    for folder in (fed.rosters, fed.rosters / "retired"):
        try:
            names = os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            if is_temp(name) and (folder / name).is_file() and not (folder / name).is_symlink():
                (folder / name).unlink(missing_ok=True)
    note_file = fed.rosters / PENDING
    if not note_file.is_file():
        return
    import json  # only when a note is there: every writing command settles, most with nothing to do

    try:
        note = json.loads(note_file.read_text(encoding="utf-8"))
        change, wrestler, action = int(note["change"]), str(note["wrestler"]), str(note["action"])
        source = fed.root / note["from"] if note.get("from") else None
        target = fed.root / note["to"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        note_file.unlink()  # not ours: write_whole never leaves half a note
        return
    rosters = fed.rosters.resolve()
    if any(path is not None and rosters not in path.resolve().parents for path in (source, target)):
        note_file.unlink()  # a sheet is only ever moved or written inside rosters/
        return
    from fedtool.league.db import open_league

    db = open_league(fed.database, create=False)
    row = db.execute("SELECT sheet FROM roster_changes WHERE id = ? AND wrestler_id = ? AND action = ?", [change, wrestler, action]).fetchone()
    if row is not None:  # the league committed: the files follow
        if source is None:  # a respec: the sheet the league recorded
            if not target.is_file() or target.read_text(encoding="utf-8") != row[0]:
                write_whole(target, row[0])
        elif source.is_file() and not target.exists():
            target.parent.mkdir(exist_ok=True)
            os.replace(source, target)
    note_file.unlink()
    for name in ("roster_files", "retired_files", "_records_sheets"):  # the fed's lists of sheets are read again
        fed.__dict__.pop(name, None)


def inside(fed: "Fed", path: Path) -> str:
    """A path inside the fed as the note keeps it: relative to the fed's folder."""
    return str(path.relative_to(fed.root))
