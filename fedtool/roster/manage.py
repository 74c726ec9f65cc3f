"""`fedtool roster`: the fedhead manages the roster (issue 19).

A wrestler is his sheet, `rosters/ID.yaml`, read by its ruleset. `add` writes a new sheet
from the ruleset's template (fedtool/roster/templates/); `retire` moves the sheet to
`rosters/retired/ID.yaml` (kept, so his history, his reigns and the site still read it;
no card books him, and he leaves the standings and the number-one contenders) and `return`
moves it back; `respec` replaces a sheet with a new one the ruleset accepts. Every change
is a row of `roster_changes` in the league (the week after which it took effect, the
reason, the sheet before and after), shown by `fedtool history`; `wrestlers.retired_after`
says who is retired. `add` writes the new sheet inside the league's transaction (a file that
cannot be written rolls the league back); `retire`, `return` and `respec` write down the file
change, commit, then move or write the sheet: the league's commit decides, and the next
writing command finishes a change a killed command left (fedtool.roster.settle). Every
sheet is written whole (fedtool.roster.settle.write_whole). The command line holds the fed's
lock around each of these.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from sqlite_utils import Database

from fedtool.fed.settings import SETTINGS_FILE, Fed, check_wrestler_id
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.validation import place
from fedtool.kernel.yamlio import load_yaml, parse_yaml, read_text
from fedtool.league.catalog import sync_titles_if_they_stand
from fedtool.league.db import upsert_wrestlers
from fedtool.league.records import titles
from fedtool.league.sheets import read_roster_sheet
from fedtool.rulesets import REGISTRY, check_ruleset, get_ruleset
from fedtool.rulesets.base import WrestlerRecord

from .settle import drop_pending, inside, write_pending, write_whole

RULE = "fedtool roster"
TEMPLATES = ("matchmatch", "facemat", "matclash")  # a template per ruleset (fedtool/roster/templates/ID.yaml)


def latest_week(db: Database) -> int:
    """The latest run week (0 before any): a roster change takes effect after it."""
    return db.execute("SELECT MAX(week) FROM weeks").fetchone()[0] or 0


def _now() -> str:
    from fedtool.kernel.clock import now  # the one clock: SOURCE_DATE_EPOCH fixes it (the exports, the site)

    return now().isoformat(timespec="seconds")


def record_change(db: Database, wrestler: WrestlerRecord, action: str, reason: str, sheet: str | None, previous: str | None) -> dict:
    """One roster change, with the week after which it takes effect; the wrestler's row first
    (the foreign key). The caller holds the transaction."""
    upsert_wrestlers(db, [wrestler])
    row = {"wrestler_id": wrestler.id, "action": action, "after_week": latest_week(db), "reason": reason, "sheet": sheet,
           "previous": previous, "made_at": _now()}
    row["id"] = db["roster_changes"].insert(row).last_pk
    return row


# ---------------------------------------------------------------- list and check


def roster_list(fed: Fed, db: Database) -> list[dict[str, Any]]:
    """Every sheet, on the roster then retired, by id: {"id", "name", "ruleset", "owner",
    "members", "status" ("active" | "retired"), "file", "stands" (bool)}. A sheet that does
    not read shows its id for a name (`fedtool roster check` says why)."""
    out = []
    for status, files in (("active", fed.roster_files), ("retired", fed.retired_files)):
        for wrestler_id, path in files.items():
            entry = {"id": wrestler_id, "name": wrestler_id, "ruleset": None, "owner": None, "members": [], "status": status,
                     "file": fed.shown(path), "stands": True}
            try:
                w = read_roster_sheet(fed, wrestler_id)
                entry.update(name=w.name, ruleset=w.ruleset, owner=w.owner_name, members=list(w.members))
            except FedError:
                entry["stands"] = False
            out.append(entry)
    return out


def check_roster(fed: Fed, db: Database) -> list[dict[str, Any]]:
    """Every sheet checked against its ruleset: {"id", "file", "status", "problems": [str],
    "warnings": [str]}. A warning: the sheet was edited by hand since the league recorded it
    (`fedtool roster respec ID rosters/ID.yaml --reason ...` records the change)."""
    recorded = {}
    for row in db.execute("SELECT wrestler_id, sheet FROM roster_changes WHERE sheet IS NOT NULL ORDER BY id").fetchall():
        recorded[row[0]] = row[1]
    out = []
    looks: dict[str, tuple[str, str, str]] = {}  # a name as it looks -> the first sheet carrying it (id, name, file)
    for status, files in (("active", fed.roster_files), ("retired", fed.retired_files)):
        for wrestler_id, path in files.items():
            problems, warnings = [], []
            try:
                check_wrestler_id(wrestler_id, fed.shown(path), "file name")
                name = read_roster_sheet(fed, wrestler_id).name
                seen = looks.get(name_skeleton(name))
                if seen is not None:  # a name another sheet (first by id) carries, to the eye
                    line = place(load_yaml(path, fed.shown(path)), ("name",))
                    raise FedError(Problem(fed.shown(path), line, f"{name!r} looks like {seen[1]} ({seen[0]}, {seen[2]}): results, standings "
                                           "and mail subjects tell wrestlers by name, so no two may look alike", "roster: one name, one wrestler"))
                looks[name_skeleton(name)] = (wrestler_id, name, fed.shown(path))
            except FedError as exc:
                problems = list(dict.fromkeys((p.file, str(p)) for p in exc.problems))
            if wrestler_id in recorded and not problems and _digest(read_text(path, fed.shown(path))) != _digest(recorded[wrestler_id]):
                warnings.append(f"{fed.shown(path)}: edited since the league recorded it; `fedtool roster respec {wrestler_id} {fed.shown(path)} "
                                "--reason ...` records the change")
            out.append({"id": wrestler_id, "file": fed.shown(path), "status": status, "problems": problems, "warnings": warnings})
    # a team's sheet reads its members': a member's problem is told once, on the member's
    # row; the team's row says which member's sheet keeps it from standing
    own = {row["file"]: {text for _, text in row["problems"]} for row in out}
    for row in out:
        problems, members = [], []
        for file, text in row["problems"]:
            if file != row["file"] and text in own.get(file, ()):
                if file not in members:
                    members.append(file)
            else:
                problems.append(text)
        row["problems"] = problems + [f"{row['file']}: a member's sheet does not stand ({file}, told on its own)" for file in members]
    return out


def name_skeleton(name: str) -> str:
    """A name as it looks, for telling whether two look alike: compatibility forms and
    accents dropped (Unicode NFKD), a letter of another script that looks like a Latin letter
    or digit read as that letter (the Unicode confusables, by the `confusables` package: a
    Cyrillic "Ѕ" is an "s"), case and runs of blanks ignored. ASCII stays as written."""
    import unicodedata

    from confusables import CONFUSABLE_MAP

    out = []
    for char in unicodedata.normalize("NFKD", name.casefold()):  # a small letter's look-alikes are the fewer (Ѕ: F, S; ѕ: S)
        if unicodedata.combining(char):
            continue
        if not char.isascii():
            latin = sorted({o.lower() for o in CONFUSABLE_MAP.get(char, ()) if len(o) == 1 and o.isascii() and o.isalnum()},
                           key=lambda o: (not o.isalpha(), o))
            char = latin[0] if latin else char
        out.append(char.casefold())
    return " ".join("".join(out).split())


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------- add, retire, return, respec


def template_text(ruleset_id: str, name: str, owner_name: str, owner_email: str) -> str:
    """A new sheet of the ruleset, from its template, with the name and owner filled in
    (quoted as JSON strings, which YAML reads as they are)."""
    text = resources.files("fedtool.roster").joinpath("templates", f"{ruleset_id}.yaml").read_text(encoding="utf-8")
    return Template(text).substitute(name=json.dumps(name), owner_name=json.dumps(owner_name), owner_email=json.dumps(owner_email))


def _free_id(fed: Fed, wrestler_id: str) -> None:
    check_wrestler_id(wrestler_id, "the command line", "WRESTLER")
    if f"{wrestler_id}.yaml" == SETTINGS_FILE:
        raise FedError(Problem(fed.shown(fed.settings_file), None, f"{wrestler_id!r} cannot be a wrestler: {SETTINGS_FILE} is the fed's settings", RULE))
    if wrestler_id in fed.roster_files:
        raise FedError(Problem(fed.shown(fed.roster_files[wrestler_id]), None, f"{wrestler_id!r} is on the roster already", RULE))
    if wrestler_id in fed.retired_files:
        raise FedError(Problem(fed.shown(fed.retired_files[wrestler_id]), None, f"{wrestler_id!r} is retired: `fedtool roster return {wrestler_id}` brings the sheet back", RULE))


def _forget_files(fed: Fed) -> None:
    for name in ("roster_files", "retired_files", "_records_sheets"):
        fed.__dict__.pop(name, None)


def add_wrestler(fed: Fed, db: Database, wrestler_id: str, ruleset_id: str | None, name: str, owner_name: str, owner_email: str, reason: str = "") -> dict:
    """Write rosters/ID.yaml from the ruleset's template (default: the fed's ruleset),
    checked by the ruleset before it is written, and record the change."""
    _free_id(fed, wrestler_id)
    ruleset_id = ruleset_id or fed.settings.ruleset
    check_ruleset(ruleset_id, (None, "--ruleset"))
    if ruleset_id not in TEMPLATES:
        raise FedError(Problem(None, "--ruleset", f"there is no sheet template for {ruleset_id}; the templates are {', '.join(TEMPLATES)}", RULE))
    for value, option in ((name, "--name"), (owner_name, "--owner-name")):
        if not value.strip() or not value.isprintable() or len(value) > 120:
            raise FedError(Problem(None, option, f"{value[:40]!r}: one line of 1 to 120 printable characters", RULE))
    text = template_text(ruleset_id, name.strip(), owner_name.strip(), owner_email.strip())
    path = fed.rosters / f"{wrestler_id}.yaml"
    wrestler = _read_text_as(fed, wrestler_id, text, fed.shown(path))
    with db.atomic():
        record_change(db, wrestler, "added", reason or f"added from the {ruleset_id} template", text, None)
        _write_new(path, text)
    _forget_files(fed)
    return {"id": wrestler_id, "name": wrestler.name, "ruleset": ruleset_id, "file": fed.shown(path), "after_week": latest_week(db)}


def _read_text_as(fed: Fed, wrestler_id: str, text: str, shown: str, members: dict | None = None) -> WrestlerRecord:
    """A sheet's text read and checked by its ruleset as rosters/ID.yaml would be."""
    data = parse_yaml(text, shown)
    ruleset_id = data.get("ruleset", fed.settings.ruleset) if isinstance(data, dict) else fed.settings.ruleset
    ruleset = get_ruleset(str(ruleset_id), (shown, "field ruleset"))
    if members is None:
        members = {m: read_roster_sheet(fed, m, as_member_of=wrestler_id) for m in ruleset.members_of(data) if m in fed.roster_files and m != wrestler_id}
    return ruleset.read_sheet(data, shown, wrestler_id, members)


def _write_new(path: Path, text: str) -> None:
    """A new sheet written whole, never over a file that appeared meanwhile."""
    atomic_write_new(path, text)


def atomic_write_new(path: Path, text: str) -> None:
    """A file written whole, refusing to replace an existing one (a link never replaces one);
    its temporary file is one `settle_roster` knows (fedtool.roster.settle.write_whole)."""
    try:
        write_whole(path, text, new=True)
    except FileExistsError:
        raise FedError(Problem(str(path), None, "appeared while fedtool was writing it; nothing was changed", RULE)) from None


def retire(fed: Fed, db: Database, wrestler_id: str, reason: str = "") -> dict:
    """Move rosters/ID.yaml to rosters/retired/ID.yaml and record it. Refused for a title
    holder (vacate first), for a member of a team on the roster (retire the team first) and
    for a wrestler booked in a week opened and not yet run (its card would no longer run);
    a card not yet opened that books him is a warning (`warnings` in the result). The
    league commits first, then the sheet moves (fedtool.roster.settle finishes a move a
    killed command left)."""
    if wrestler_id not in fed.roster_files:
        if wrestler_id in fed.retired_files:
            raise FedError(Problem(None, None, f"{wrestler_id!r} is retired already", RULE))
        raise FedError(Problem(None, None, f"unknown wrestler {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml", RULE))
    source = fed.roster_files[wrestler_id]
    wrestler = read_roster_sheet(fed, wrestler_id)
    for title in titles(fed, db):
        if title["holder"] == wrestler_id:
            raise FedError(Problem(None, None, f"{wrestler.name} holds {title['name']}: vacate it first (fedtool title vacate {title['id']})", RULE))
    for other_id in fed.roster_files:
        if other_id == wrestler_id:
            continue
        data = load_yaml(fed.roster_files[other_id], fed.shown(fed.roster_files[other_id]))
        ruleset_id = str(data.get("ruleset", fed.settings.ruleset)) if isinstance(data, dict) else fed.settings.ruleset
        if ruleset_id in REGISTRY and wrestler_id in get_ruleset(ruleset_id).members_of(data):
            raise FedError(Problem(fed.shown(fed.roster_files[other_id]), "field members", f"{wrestler.name} is a member of this team: retire the team first", RULE))
    refusals, warnings = booked_in(fed, db, wrestler_id, wrestler.name)
    if refusals:
        raise FedError(refusals)
    text = read_text(source, fed.shown(source))
    target = fed.retired / f"{wrestler_id}.yaml"
    if target.exists():
        raise FedError(Problem(fed.shown(target), None, "a retired sheet of this id is there already: move it away first", RULE))
    fed.retired.mkdir(exist_ok=True)
    row = _move(fed, db, wrestler, "retired", reason, text, source, target, retired=True)
    return {"id": wrestler_id, "name": wrestler.name, "after_week": row["after_week"], "file": fed.shown(target), "warnings": [str(w) for w in warnings]}


def booked_in(fed: Fed, db: Database, wrestler_id: str, name: str) -> tuple[list[Problem], list[Problem]]:
    """Where the cards book a wrestler in a week the league has not run: a week opened
    (announced: its grids and deadline are in players' hands) refuses a retirement, a card
    not yet opened is a warning. A card that does not read is left out (`fedtool status`
    says why)."""
    from fedtool.fed.card import load_card
    from fedtool.league.db import ran_weeks

    refusals: list[Problem] = []
    warnings: list[Problem] = []
    if not fed.strategies.is_dir():
        return refusals, warnings
    ran = set(ran_weeks(db))
    for folder in sorted(fed.strategies.iterdir()):
        found = re.fullmatch(r"week-(\d+)", folder.name)
        if not found or int(found[1]) in ran or not (folder / "card.yaml").is_file():
            continue
        week = int(found[1])
        try:
            card = load_card(fed, folder, week)
        except FedError:
            continue
        for match in card.matches:
            if wrestler_id not in match.sides:
                continue
            where = f"line {match.sides_line or match.line}, match {match.id}"
            if card.opened:
                refusals.append(Problem(card.shown, where, f"{name} is booked in week {week}, opened and not yet run: retire after `fedtool run {week}`, "
                                        "or take the match off the card first", f"{RULE} retire"))
            else:
                warnings.append(Problem(card.shown, where, f"{name} is booked in week {week} (not opened yet): change the card before "
                                        f"`fedtool open {week}`", f"{RULE} retire"))
    return refusals, warnings


def _move(fed: Fed, db: Database, wrestler: WrestlerRecord, action: str, reason: str, text: str, source: Path, target: Path, retired: bool) -> dict:
    """Record a retirement or return, commit, then move the sheet: the league's commit
    decides, and a move a killed command left is made by the next (fedtool.roster.settle)."""
    for folder in (source.parent, target.parent):
        if not os.access(folder, os.W_OK | os.X_OK):  # refused before the commit, not after it
            raise FedError(Problem(fed.shown(folder), None, "cannot be written: make it writable for the user running fedtool; nothing was changed", RULE))
    with db.atomic():
        row = record_change(db, wrestler, action, reason, text, None)
        db.execute("UPDATE wrestlers SET retired_after = ? WHERE id = ?", [row["after_week"] if retired else None, wrestler.id])
        write_pending(fed, {"change": row["id"], "wrestler": wrestler.id, "action": action, "from": inside(fed, source), "to": inside(fed, target)})
    os.replace(source, target)
    drop_pending(fed)
    _forget_files(fed)
    return row


def return_wrestler(fed: Fed, db: Database, wrestler_id: str, reason: str = "") -> dict:
    """Move rosters/retired/ID.yaml back to rosters/ and record it; the sheet must still stand."""
    if wrestler_id not in fed.retired_files:
        where = "the sheet is on the roster" if wrestler_id in fed.roster_files else f"there is no rosters/retired/{wrestler_id}.yaml"
        raise FedError(Problem(None, None, f"{wrestler_id!r} is not retired: {where}", RULE))
    source = fed.retired_files[wrestler_id]
    target = fed.rosters / f"{wrestler_id}.yaml"
    if target.exists():
        raise FedError(Problem(fed.shown(target), None, "a sheet of this id is on the roster already", RULE))
    wrestler = read_roster_sheet(fed, wrestler_id)
    text = read_text(source, fed.shown(source))
    row = _move(fed, db, wrestler, "returned", reason, text, source, target, retired=False)
    return {"id": wrestler_id, "name": wrestler.name, "after_week": row["after_week"], "file": fed.shown(target)}


def respec(fed: Fed, db: Database, wrestler_id: str, source: Path, reason: str) -> dict:
    """Replace rosters/ID.yaml with the sheet in `source` (which may be rosters/ID.yaml
    itself, edited by hand): checked by the ruleset as ID's sheet, of the same ruleset, and
    recorded with the sheet before and after. A reason is required."""
    if not reason.strip():
        raise FedError(Problem(None, "--reason", "a respec needs a reason (it is kept in the wrestler's history)", RULE))
    if wrestler_id not in fed.roster_files:
        why = f"{wrestler_id} is retired: `fedtool roster return {wrestler_id}` first" if wrestler_id in fed.retired_files else f"there is no rosters/{wrestler_id}.yaml"
        raise FedError(Problem(None, None, f"cannot respec {wrestler_id!r}: {why}", RULE))
    path = fed.roster_files[wrestler_id]
    shown = fed.shown(source) if source.is_absolute() or source.exists() else str(source)
    for other_id, other in [*fed.roster_files.items(), *fed.retired_files.items()]:
        if other_id != wrestler_id and source.exists() and other.exists() and os.path.samefile(source, other):
            try:
                other_name = read_roster_sheet(fed, other_id).name
            except FedError:
                other_name = other_id
            raise FedError(Problem(shown, None, f"is {other_name}'s sheet ({other_id}): a respec would make {wrestler_id} a second {other_name}; copy "
                                   "it to a file of its own, edit it, and respec from that", f"{RULE} respec"))
    text = read_text(source, shown)
    recorded = db.execute("SELECT sheet FROM roster_changes WHERE wrestler_id = ? AND sheet IS NOT NULL ORDER BY id DESC LIMIT 1", [wrestler_id]).fetchone()
    same_file = source.resolve() == path.resolve()
    previous = recorded[0] if same_file and recorded else (None if same_file else read_text(path, fed.shown(path)))
    new = _read_text_as(fed, wrestler_id, text, shown)
    ruleset_before = _ruleset_of(fed, previous) if previous is not None else new.ruleset
    if new.ruleset != ruleset_before:
        raise FedError(Problem(shown, "field ruleset", f"{wrestler_id} is a {ruleset_before} wrestler; a respec keeps the ruleset "
                               f"(retire {wrestler_id} and add a new wrestler for another)", RULE))
    if previous is not None and previous == text:
        raise FedError(Problem(shown, None, "is the sheet as the league has it already: nothing to respec", RULE))
    with db.atomic():
        row = record_change(db, new, "respec", reason.strip(), text, previous)
        if not same_file:  # the league's commit decides: the sheet is written after it (fedtool.roster.settle)
            write_pending(fed, {"change": row["id"], "wrestler": wrestler_id, "action": "respec", "to": inside(fed, path)})
    if not same_file:
        write_whole(path, text)
        drop_pending(fed)
    _forget_files(fed)
    with db.atomic():
        sync_titles_if_they_stand(fed, db)
    return {"id": wrestler_id, "name": new.name, "after_week": row["after_week"], "file": fed.shown(path)}


def _ruleset_of(fed: Fed, text: str) -> str:
    try:
        data = parse_yaml(text, "the sheet as recorded")
    except FedError:
        return fed.settings.ruleset
    return str(data.get("ruleset", fed.settings.ruleset)) if isinstance(data, dict) else fed.settings.ruleset
