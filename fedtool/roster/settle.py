"""What a killed roster command left, settled by the next writing command (review 25).

`fedtool roster retire`, `return` and `respec` change the league and then a sheet file. The
league's commit decides, as for a week's run: the command writes down the file change it is
about to make (`rosters/.roster-pending.json`: the roster change's row and the move or
write) inside the league's transaction, commits, makes the change, and drops the note. The
next writing command (fedtool.cli.fed_option, holding the fed's lock) reads a note left
behind: if the league holds its row, the move or write is made (the sheet written is the
one the league recorded); if not, the league rolled back and the files were never touched,
so the note is dropped. Every sheet and the note are written whole through a temporary file
beside them (`.NAME.yaml.XXXXXXXX`, tempfile's names); one a killed command left (an
import, a respec) is removed here too.

Only the standard library at import: every writing command calls `settle_roster`, which
opens the league only when a note is there.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fedtool.fed.settings import Fed

PENDING = ".roster-pending.json"
# what tempfile.mkstemp(prefix=".NAME.") names (8 of "a-z0-9_") for a sheet or the note
# (fedtool.fed.files.atomic_write, fedtool.roster.manage.atomic_write_new)
TEMP = re.compile(r"\.[a-z0-9][a-z0-9-]*\.yaml\.[a-z0-9_]{8}|\.roster-pending\.json\.[a-z0-9_]{8}")


def write_pending(fed: "Fed", note: dict) -> None:
    """Write down the file change a roster command is about to make (call it inside the
    league's transaction, after the roster change's row is inserted)."""
    from fedtool.fed.files import atomic_write

    atomic_write(fed.rosters / PENDING, json.dumps(note))


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
            if TEMP.fullmatch(name) and (folder / name).is_file() and not (folder / name).is_symlink():
                (folder / name).unlink(missing_ok=True)
    note_file = fed.rosters / PENDING
    if not note_file.is_file():
        return
    try:
        note = json.loads(note_file.read_text(encoding="utf-8"))
        change, wrestler, action = int(note["change"]), str(note["wrestler"]), str(note["action"])
        source = fed.root / note["from"] if note.get("from") else None
        target = fed.root / note["to"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        note_file.unlink()  # not ours, or not whole: atomic_write never leaves half a note
        return
    from fedtool.league.db import open_league

    db = open_league(fed.database, create=False)
    row = db.execute("SELECT sheet FROM roster_changes WHERE id = ? AND wrestler_id = ? AND action = ?", [change, wrestler, action]).fetchone()
    if row is not None:  # the league committed: the files follow
        if source is None:  # a respec: the sheet the league recorded
            from fedtool.fed.files import atomic_write

            if not target.is_file() or target.read_text(encoding="utf-8") != row[0]:
                atomic_write(target, row[0])
        elif source.is_file() and not target.exists():
            target.parent.mkdir(exist_ok=True)
            os.replace(source, target)
    note_file.unlink()
    for name in ("roster_files", "retired_files", "_records_sheets"):  # the fed's lists of sheets are read again
        fed.__dict__.pop(name, None)


def inside(fed: "Fed", path: Path) -> str:
    """A path inside the fed as the note keeps it: relative to the fed's folder."""
    return str(path.relative_to(fed.root))
