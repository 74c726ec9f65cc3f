"""The league out and a roster in (issue 19): `fedtool export` and `fedtool import`.

Export writes CSV (Python's csv module) and JSON of the wrestlers, matches (with the
season each was played in), results (each side of each match), titles, reigns, standings,
seasons (the closed ones and the one in play) and their awards into one folder, swapped in whole
(fedtool.fed.files.StagedDir). Owners' e-mail addresses and password hashes are never in
it unless asked (`--private`).

Import reads a roster from a spreadsheet's CSV: one row per wrestler, the columns `id`,
`name`, `ruleset` (empty: the fed's), `owner_name`, `owner_email`, and any other column a
field of the sheet, nested by dots (`styles.Power`, `skills.MEAN`, `finisher.range`); a
cell is read as YAML (`15`, `star`, `[rocky-ridge, big-earl]`), an empty cell is left out.
Every row is checked by its ruleset as its sheet would be, each problem named by the
CSV's line; nothing is written if any row is bad.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from fedtool.fed.files import StagedDir, overlapping
from fedtool.fed.settings import SETTINGS_FILE, WRESTLER_ID, Fed
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.yamlio import dump_yaml, parse_yaml, read_text
from fedtool.league.catalog import sync_league
from fedtool.league.records import standings, titles
from fedtool.league.seasons import closed_seasons, current_season, season_archive
from fedtool.league.sheets import read_roster_sheet
from fedtool.rulesets import REGISTRY, get_ruleset

from .manage import _forget_files, atomic_write_new, record_change

RULE = "fedtool import: a roster CSV"
COMMON = ("id", "name", "ruleset", "owner_name", "owner_email")
MAX_ROWS = 5000


# ---------------------------------------------------------------- import


@dataclass
class _Row:
    line: int
    wrestler_id: str
    data: dict
    text: str = ""
    leftover: bool = False  # its sheet is in rosters/ already, as this import wrote it before it was killed


def _cell(text: str) -> Any:
    """A cell as YAML reads it (a number, a word, a flow list or mapping); text that is no
    YAML stays text."""
    try:  # fedtool's own loader: a cell nested thousands deep, a date that does not exist or a
        value = parse_yaml(text, "a cell")  # 5,000-digit number is text, never a crash
    except FedError:
        return text
    return text if value is None else value


def _nest(data: dict, path: list[str], value: Any) -> None:
    for key in path[:-1]:
        data = data.setdefault(key, {})
        if not isinstance(data, dict):
            raise ValueError(f"{'.'.join(path)}: {key} is given both as a value and as a group")
    data[path[-1]] = value


def _same_text(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def _names_rows(fed: Fed, row: _Row, ids: set[str]) -> bool:
    """Whether a row's sheet is made of (a team of) wrestlers that are rows of the CSV too."""
    ruleset_id = str(row.data.get("ruleset", fed.settings.ruleset))
    if ruleset_id not in REGISTRY:
        return False
    try:
        return bool(set(get_ruleset(ruleset_id).members_of(row.data)) & ids)
    except (TypeError, ValueError, AttributeError):  # a members cell that is no list: its check says so
        return False


def unrecorded_sheets(fed: Fed, db: Database) -> set[str]:
    """The roster's sheets the league has recorded no change of (no add, import, respec...)."""
    recorded = {row[0] for row in db.execute("SELECT DISTINCT wrestler_id FROM roster_changes").fetchall()} if db["roster_changes"].exists() else set()
    return set(fed.roster_files) - recorded


def read_roster_csv(fed: Fed, path: Path, unrecorded: set[str] = frozenset()) -> list[_Row]:
    """The CSV's rows as sheets, each checked by its ruleset; a FedError naming every bad row
    by its line (and the field) when any is bad. A row whose sheet is in rosters/ already is
    refused, but for one in `unrecorded` holding exactly what this row writes: the leftover
    of this same import killed before the league recorded it (the sheets are written first,
    then the league commits), which the import now finishes."""
    shown = fed.shown(path)
    text = read_text(path, shown)
    problems = Collector()
    # strict: a quote never closed is an error, not a cell that swallows the rest of the file
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except (StopIteration, csv.Error):
        header = []
    if not any(header):
        raise FedError(Problem(shown, "line 1", "no header row: the first line names the columns (id, name, ruleset, owner_name, owner_email, ...)", RULE))
    for need in ("id", "name"):
        if need not in header:
            problems.add(shown, "line 1", f"no {need!r} column", RULE)
    duplicate = sorted({h for h in header if header.count(h) > 1})
    if duplicate:
        problems.add(shown, "line 1", f"column {duplicate[0]!r} is given twice", RULE)
    problems.raise_if_any()
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    start = reader.line_num + 1
    while True:
        line = start
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            why = "a quoted cell is never closed (its quote mark runs to the end of the file)" if "end of data" in str(exc) else str(exc)
            problems.add(shown, f"line {line}", f"not CSV: {why}", RULE)
            break
        start = reader.line_num + 1  # a quoted cell may span lines: the next row starts where this one ended
        if len(rows) >= MAX_ROWS:
            problems.add(shown, f"line {line}", f"more than {MAX_ROWS} rows", RULE)
            break
        where = f"line {line}"
        if len(record) > len(header):
            problems.add(shown, where, f"{len(record)} cells for {len(header)} columns", RULE)
            continue
        record = dict(zip(header, record))
        cells = {k: (v or "").strip() for k, v in record.items()}
        if not any(cells.values()):
            continue  # a blank line
        wrestler_id = cells.get("id", "")
        if not WRESTLER_ID.match(wrestler_id):
            problems.add(shown, where, f"id {wrestler_id!r} is not a wrestler id (lowercase letters, digits and dashes, as the sheet's file name)", RULE)
            continue
        if f"{wrestler_id}.yaml" == SETTINGS_FILE:
            problems.add(shown, where, f"id {wrestler_id!r} cannot be a wrestler's: rosters/{SETTINGS_FILE} is the fed's settings", RULE)
            continue
        if wrestler_id in seen:
            problems.add(shown, where, f"id {wrestler_id!r} is on line {seen[wrestler_id]} already", RULE)
            continue
        seen[wrestler_id] = line
        data: dict[str, Any] = {"name": cells.get("name", "")}
        if cells.get("ruleset"):
            data["ruleset"] = cells["ruleset"]
        if cells.get("owner_name") or cells.get("owner_email"):
            data["owner"] = {"name": cells.get("owner_name", ""), "email": cells.get("owner_email", "")}
        try:
            for column, value in cells.items():
                if column in COMMON or value == "":
                    continue
                _nest(data, column.split("."), _cell(value))
        except ValueError as exc:
            problems.add(shown, where, str(exc), RULE)
            continue
        text = f"# Imported from {path.name}, line {line}.\n" + dump_yaml(data)
        existing = fed.roster_files.get(wrestler_id) or fed.retired_files.get(wrestler_id)
        if existing is not None and not (wrestler_id in unrecorded and existing == fed.roster_files.get(wrestler_id) and _same_text(existing, text)):
            problems.add(shown, where, f"{wrestler_id!r} is in the fed already ({fed.shown(existing)})", RULE)
            continue
        rows.append(_Row(line, wrestler_id, data, text, leftover=existing is not None))
    checked: dict[str, Any] = {}
    ids = {row.wrestler_id for row in rows}
    for row in sorted(rows, key=lambda r: _names_rows(fed, r, ids)):  # a team after the members the CSV gives it, wherever they are
        where = f"line {row.line}"
        ruleset_id = str(row.data.get("ruleset", fed.settings.ruleset))
        if ruleset_id not in REGISTRY:
            problems.add(shown, where, f"unknown ruleset {ruleset_id!r}: give {', '.join(REGISTRY)}", RULE)
            continue
        ruleset = get_ruleset(ruleset_id)
        members = {}
        try:
            for member in ruleset.members_of(row.data):
                if member in checked:
                    members[member] = checked[member]
                elif member in fed.roster_files:
                    members[member] = read_roster_sheet(fed, member)
            checked[row.wrestler_id] = ruleset.read_sheet(row.data, f"{shown} {where}", row.wrestler_id, members)
        except FedError as exc:
            for p in exc.problems:  # the ruleset names the field; the line is the CSV's
                problems.add(shown, where + (f", {p.place}" if p.place else ""), p.message, p.rule or RULE)
            continue
    problems.problems.sort(key=_line_of)  # one list in line order: a row's own problems and its ruleset's were found in two passes
    problems.raise_if_any()
    if not rows:
        raise FedError(Problem(shown, None, "holds no wrestler", RULE))
    for row in rows:
        row.data = checked[row.wrestler_id]
    return rows


def _line_of(problem: Problem) -> int:
    found = re.match(r"line (\d+)", problem.place or "")
    return int(found[1]) if found else 0


def import_roster(fed: Fed, db: Database, path: Path, reason: str = "") -> list[str]:
    """Check every row of the CSV, then write each sheet to rosters/ and record it; nothing is
    written when any row is bad. Returns the ids written."""
    rows = read_roster_csv(fed, path, unrecorded_sheets(fed, db))
    written: list[Path] = []
    try:
        with db.atomic():
            for row in rows:
                record_change(db, row.data, "imported", reason or f"imported from {path.name}, line {row.line}", row.text, None)
            for row in rows:
                if row.leftover:
                    continue
                target = fed.rosters / f"{row.wrestler_id}.yaml"
                atomic_write_new(target, row.text)
                written.append(target)
    except BaseException:
        for target in written:  # the league rolled back: so do the files
            target.unlink(missing_ok=True)
        raise
    _forget_files(fed)
    return [row.wrestler_id for row in rows]


# ---------------------------------------------------------------- export


@dataclass
class ExportReport:
    out: Path
    files: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)


def league_tables(fed: Fed, db: Database, private: bool = False) -> dict[str, list[dict]]:
    """The league as flat tables of plain values: wrestlers, matches, results, titles,
    reigns, standings, seasons, awards (and, with `private`, the owners' addresses and password hashes)."""
    sync_league(fed, db)
    email = {row["wrestler_id"]: row["owner_email"] for row in db["owners"].rows}
    wrestlers = []
    for row in db.execute("SELECT id, name, ruleset, owner_name, members, retired_after FROM wrestlers ORDER BY id").fetchall():
        entry = {"id": row[0], "name": row[1], "ruleset": row[2], "owner_name": row[3], "members": " ".join(json.loads(row[4])) if row[4] else "",
                 "retired_after": row[5]}
        if private:
            entry["owner_email"] = email.get(row[0])
        wrestlers.append(entry)
    matches = [dict(zip(("week", "match", "position", "ruleset", "title", "winner", "method", "round", "stars", "seed"), r)) for r in db.execute(
        "SELECT week, match, position, ruleset, title, winner, method, end_round, stars, seed FROM matches ORDER BY week, position").fetchall()]
    results = [dict(zip(("week", "match", "side", "wrestler_id", "outcome"), r)) for r in db.execute(
        "SELECT m.week, m.match, s.side, s.wrestler_id, s.outcome FROM match_sides s JOIN matches m ON m.id = s.match_id "
        "ORDER BY m.week, m.position, s.side").fetchall()]
    title_rows, reigns = [], []
    try:
        fed_titles = titles(fed, db)
    except FedError:
        fed_titles = []
    for t in fed_titles:
        title_rows.append({"id": t["id"], "name": t["name"], "ruleset": t["ruleset"], "division": t["division"], "teams": t["teams"],
                           "holder": t["holder"], "since_week": t["since_week"]})
        for n, r in enumerate(t["reigns"], start=1):
            reigns.append({"title_id": t["id"], "reign": n, **{k: r[k] for k in ("wrestler_id", "name", "won_week", "won_match", "how", "lost_week", "lost_how", "defences", "weeks")}})
    table_rows = []
    for table in standings(fed, db):
        for rank, r in enumerate(table["rows"], start=1):
            table_rows.append({"ruleset": table["ruleset"], "division": table["division"], "rank": rank, "wrestler_id": r["wrestler_id"], "name": r["name"],
                               "wins": r["wins"], "losses": r["losses"], "draws": r["draws"], "streak": r["streak"], "push_level": r["push_level"],
                               "push_points": r["push_points"], "tv_grade": r["tv_grade"], "injury": r["injury"],
                               "contender": r["wrestler_id"] in table["contenders"]})
    closed = closed_seasons(db)
    for match in matches:  # the season each match was played in: the first closed one that reaches its week, else the one in play
        match["season"] = next((s["season"] for s in closed if match["week"] <= s["last_week"]), len(closed) + 1)
    playing = current_season(db)
    season_rows = [dict(s) for s in closed] + [{k: playing[k] for k in ("season", "name", "first_week", "last_week")} | {"closed_at": None}]
    award_rows = [{"season": s["season"], "award": a["award"], "ruleset": a["ruleset"], "winners": " ".join(w["wrestler_id"] for w in a["winners"]),
                   "names": ", ".join(w["name"] for w in a["winners"]), "why": a["why"]}
                  for s in closed for a in season_archive(db, s["season"])["awards"]]
    out = {"wrestlers": wrestlers, "matches": matches, "results": results, "titles": title_rows, "reigns": reigns, "standings": table_rows,
           "seasons": season_rows, "awards": award_rows}
    if private:
        out["passwords"] = [{"email": r["email"], "hash": r["hash"], "set_at": r["set_at"]} for r in db["player_passwords"].rows]
    return out


def _csv(rows: list[dict]) -> str:
    buffer = io.StringIO(newline="")
    columns = list(dict.fromkeys(k for row in rows for k in row))
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _plain(v) for k, v in row.items()})
    return buffer.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula (OWASP: CSV injection)


def _plain(value: Any) -> Any:
    """A CSV cell: a flag as true/false, nothing as empty, and text a spreadsheet would run
    as a formula (a player's `=HYPERLINK(...)` for a name) behind a quote mark, as OWASP
    advises; numbers stay numbers. JSON keeps the text as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return "" if value is None else value


MARKER = ".fedtool-export"


def export_league(fed: Fed, db: Database, out: Path | None = None, formats: tuple[str, ...] = ("csv", "json"), private: bool = False) -> ExportReport:
    """Write the league's tables into `out` (default outbox/export/), replaced whole: a new or
    empty folder, or one fedtool exported into before (it holds .fedtool-export)."""
    out = out or fed.outbox / "export"
    inputs = overlapping(out, [fed.rosters, fed.strategies, fed.templates, fed.backups])
    if inputs is not None:  # an empty rosters/retired/ passed the test below, and the next export swapped a retired sheet away
        raise FedError(Problem(str(out), None, f"is in or holds the fed's {fed.shown(inputs)}/, which an export would replace whole: give a folder outside "
                               "rosters/, strategies/, templates/ and the backups", "fedtool export --out"))
    if overlapping(out, [fed.outbox]) is not None and out.resolve() != (fed.outbox / "export").resolve():
        target, outbox = out.resolve(), fed.outbox.resolve()
        what = "is the fed's outbox" if target == outbox else "is in the fed's outbox" if outbox in target.parents else "holds the fed's outbox"
        if target == (fed.outbox / "site").resolve():
            what += " (outbox/site/ is where `fedtool site` builds the fed's website)"
        raise FedError(Problem(str(out), None, f"{what}: fedtool writes the outbox's folders and replaces them whole; give a folder outside "
                               "the outbox, or no --out for outbox/export/", "fedtool export --out"))
    if out.exists() and (not out.is_dir() or any(out.iterdir()) and not (out / MARKER).exists()):
        raise FedError(Problem(str(out), None, "is not empty and not an earlier export: give a new or empty folder (an export replaces the folder whole)", "fedtool export"))
    tables = league_tables(fed, db, private)
    report = ExportReport(out)
    with StagedDir(out) as stage:
        if private:  # owners' addresses and password hashes: for the fedhead's eyes only, not the 0755 a site gets
            os.chmod(stage.path, 0o700)
        stage.write(MARKER, "A folder fedtool export writes and replaces whole.\n")
        for name, rows in tables.items():
            report.rows[name] = len(rows)
            if "csv" in formats:
                stage.write(f"{name}.csv", _csv(rows))
                report.files.append(f"{name}.csv")
            if "json" in formats:
                stage.write(f"{name}.json", json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
                report.files.append(f"{name}.json")
        stage.swap()
    return report
