"""A fedhead's week: open it (roll grids, announce), run it (resolve, record, write up).

A run is atomic. Everything is read and checked first; the matches are resolved in
memory; the writeups are rendered into a staging folder; then, inside one database
transaction, the week's rows are written and the staging folder is swapped into the
outbox. Any failure before the commit leaves the database and the outbox as they were.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from markupsafe import Markup

from .card import Card, load_card, strategy_path
from .dice import Dice, ScriptedDice, SeededDice, derive_seed, format_log
from .errors import Collector, FedError, Problem
from .fed import Fed, check_wrestler_id, week_name
from .records import check_card_titles, decide_title_matches, record_title_matches
from .league import open_league, ran_weeks, record_week, record_writeups, states_before, undo_week
from .render import email, environment, render
from .rulesets import get_ruleset
from .rulesets.base import Booking, WrestlerRecord
from .yamlio import dump_yaml, load_yaml

CLOSE = "close"  # the dice-log key for end-of-week rolls (healing)


@dataclass
class Played:
    """One resolved match with everything needed to record and tell it."""

    booking: Booking
    ruleset: Any
    result: Any
    seed: str
    log: list
    summary: dict = field(default_factory=dict)
    outcomes: list = field(default_factory=list)

    @cached_property
    def described(self) -> dict:
        """The ruleset's description of the match, for the writeup (built once)."""
        return self.ruleset.describe(self.booking, self.result)


@dataclass
class WeekReport:
    label: str
    outbox: Path
    headlines: list[str]
    files: list[Path]
    warnings: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- reading


def load_wrestlers(fed: Fed, card: Card, problems: Collector) -> dict[str, WrestlerRecord]:
    """Every wrestler (or team) on the card, read and checked by its ruleset."""
    wrestlers: dict[str, WrestlerRecord] = {}
    for match in card.matches:
        for wrestler_id in match.sides:
            if wrestler_id in wrestlers:
                continue
            where = f"line {match.sides_line}, match {match.id}"
            try:
                check_wrestler_id(wrestler_id, card.shown, where)
            except FedError as exc:
                problems.extend(exc)
                continue
            if wrestler_id not in fed.roster_files:
                problems.add(card.shown, where, f"unknown wrestler {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml", "card file: sides are roster sheets")
                continue
            try:
                wrestlers[wrestler_id] = read_roster_sheet(fed, wrestler_id)
            except FedError as exc:
                problems.extend(exc)
    return wrestlers


def read_roster_sheet(fed: Fed, wrestler_id: str, as_member_of: str | None = None) -> WrestlerRecord:
    """One sheet from rosters/, checked by its ruleset; a team's members are read first."""
    path = fed.roster_files.get(wrestler_id)
    if path is None:
        raise FedError(Problem(fed.shown(fed.rosters / f"{as_member_of}.yaml"), "field members", f"unknown member {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml", "MatchMatch I.2"))
    shown = fed.shown(path)
    data = load_yaml(path, shown)
    ruleset_id = data.get("ruleset", fed.settings.ruleset) if isinstance(data, dict) else fed.settings.ruleset
    ruleset = get_ruleset(str(ruleset_id), (shown, "field ruleset"))
    members = {}
    for member_id in ruleset.members_of(data):
        if as_member_of is None and member_id in fed.roster_files and member_id != wrestler_id:
            members[member_id] = read_roster_sheet(fed, member_id, as_member_of=wrestler_id)
    return ruleset.read_sheet(data, shown, wrestler_id, members)


def _week_card(fed: Fed, week: int) -> Card:
    folder = fed.week_dir(week)
    return load_card(folder, fed.shown(folder), fed.settings.ruleset, week)


def _book_all(fed: Fed, card: Card, wrestlers: dict[str, WrestlerRecord], states: dict[str, dict]) -> list[Booking]:
    problems = Collector()
    problems.problems.extend(check_card_titles(fed, card, wrestlers))  # for_title: (issue 7)
    bookings = []
    for match in card.matches:
        ruleset = get_ruleset(match.ruleset, (card.shown, f"line {match.line}, match {match.id}"))
        sides = [wrestlers[w] for w in match.sides]
        for w in sides:
            if w.ruleset != match.ruleset:
                problems.add(card.shown, f"line {match.line}, match {match.id}", f"{w.name} is a {w.ruleset} wrestler; this is a {match.ruleset} match", "card file")
        if problems:
            continue
        try:
            bookings.append(ruleset.book(card, match, sides, states, fed.ruleset_settings(match.ruleset)))
        except FedError as exc:
            problems.extend(exc)
    problems.raise_if_any()
    return bookings


def book_match(fed: Fed, week: int, match_id: str) -> Booking:
    """One match of a week's card, read and checked exactly as the run reads it."""
    card = _week_card(fed, week)
    matches = [m for m in card.matches if m.id == match_id]
    if not matches:
        raise FedError(Problem(card.shown, None, f"no match {match_id!r} on the card; it has {', '.join(m.id for m in card.matches)}", "fedtool odds"))
    card.matches = matches
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = states_before(open_league(fed.database, create=False), week)
    for wrestler in wrestlers.values():
        states.setdefault(wrestler.id, get_ruleset(wrestler.ruleset).initial_state(wrestler))
    return _book_all(fed, card, wrestlers, states)[0]


@dataclass
class StrategyCheck:
    file: str
    layout: str  # "YAML" or "plain text"
    readings: list  # how each line was read (plain text)
    match: str | None  # the match it is for
    problems: list  # this file's problems (empty: it stands)
    complete: bool  # False while the other side's strategy is missing (the table is unknown)


def check_strategy_file(fed: Fed, path: Path, wrestler_id: str | None = None, context: tuple | None = None) -> StrategyCheck:
    """How a strategy file reads, and whether it stands for its match on the week's card.

    With `wrestler_id`, the file is checked as that wrestler's strategy for his match on the
    card in its folder, whatever its name (mail intake checks before it files). `context`,
    (card, wrestlers, states), spares reading them and the league again for each mail."""
    from .rulesets.matchmatch import load_strategy_data

    shown = fed.shown(path)
    readings = []
    if path.suffix.lower() == ".txt":
        try:
            readings = load_strategy_data(path, shown)[1]
        except FedError as exc:
            return StrategyCheck(shown, "plain text", [], None, exc.problems, False)
    card = context[0] if context is not None else load_card(path.parent, fed.shown(path.parent), fed.settings.ruleset)
    for original in card.matches:
        for side in original.sides:
            match = original
            if wrestler_id is not None and side == wrestler_id:
                match = dataclasses.replace(original, strategy_files={**original.strategy_files, side: path.name})
            if strategy_path(card, match, side).resolve() == path.resolve():
                label = f"{match.id}: {' vs. '.join(match.sides)}"
                card = dataclasses.replace(card, matches=[match])
                if context is not None:
                    _, wrestlers, states = context
                else:
                    problems = Collector()
                    wrestlers = load_wrestlers(fed, card, problems)
                    problems.raise_if_any()
                    week = re.fullmatch(r"week-(\d+)", path.parent.name)
                    states = states_before(open_league(fed.database, create=False), int(week.group(1))) if week else {}
                    for wrestler in wrestlers.values():
                        states.setdefault(wrestler.id, get_ruleset(wrestler.ruleset).initial_state(wrestler))
                try:
                    _book_all(fed, card, wrestlers, states)
                    return StrategyCheck(shown, "plain text" if readings else "YAML", readings, label, [], True)
                except FedError as exc:
                    mine = [p for p in exc.problems if p.file == shown]
                    others = len(mine) < len(exc.problems)
                    return StrategyCheck(shown, "plain text" if readings else "YAML", readings, label, mine, not others)
    raise FedError(Problem(shown, None, "no match on the card in this folder uses this file", "fedtool read"))


@dataclass
class SideStatus:
    match: str
    wrestler: str
    file: str | None  # the strategy file, if one arrived
    arrived: str | None  # when (the accepted mail's arrival, else the file's time; UTC)
    verdict: str  # "stands", "refused", "missing", "default" (the ruleset plays its default)
    problems: list = field(default_factory=list)
    wrestler_id: str = ""
    owner: str = ""  # the owner's address (reminders go there)
    owner_name: str = ""
    held: str | None = None  # a late strategy held for the fedhead (`fedtool accept`)
    mails: list = field(default_factory=list)  # each strategy mail for this side: "when verdict: why"


def _gist(why: str) -> str:
    """A mail's verdict in one line: its first line, and the first problem if a list follows."""
    lines = [line.strip() for line in why.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return f"{lines[0]} {lines[1].lstrip('- ')}" + (f" (and {len(lines) - 2} more)" if len(lines) > 2 else "")
    return lines[0] if lines else ""


DEFAULT_WHEN_MISSING = {"matchmatch": "refuse", "matclash": "default", "facemat": "default"}  # each ruleset's `missing_strategy` (Face to the Mat: the cards decide)


def week_status(fed: Fed, week: int) -> list[SideStatus]:
    """What each side of a week's card has sent, and whether it stands (issue 6, item 4): the
    filed strategy, every strategy mail read for it (accepted, refused, held) and a late
    strategy held for the fedhead."""
    from .inbox import held_strategies, strict

    card = _week_card(fed, week)
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    db = open_league(fed.database, create=False)
    mails: dict[str, list] = {}
    for row in db.execute("SELECT wrestler_id, arrived, verdict, why FROM inbox_seen WHERE week = ? ORDER BY arrived, rowid", [week]).fetchall():
        mails.setdefault(row[0], []).append(row[1:])
    held = held_strategies(fed, week)
    out = []
    for match in card.matches:
        for wrestler_id in match.sides:
            wrestler = wrestlers[wrestler_id]
            side = SideStatus(match.id, wrestler.name, None, None, "missing", [], wrestler_id, wrestler.owner_email, wrestler.owner_name,
                              fed.shown(held[wrestler_id]) if wrestler_id in held else None,
                              [f"{when} {verdict}" + (f": {_gist(why)}" if why else "") for when, verdict, why in mails.get(wrestler_id, [])])
            out.append(side)
            path = strategy_path(card, match, wrestler_id)
            if not path.exists():
                rule = fed.ruleset_settings(match.ruleset).get("missing_strategy", DEFAULT_WHEN_MISSING.get(match.ruleset, "refuse"))
                side.verdict = "default" if rule == "default" else "missing"
                continue
            accepted = [when for when, verdict, _ in mails.get(wrestler_id, []) if verdict == "accepted"]
            side.file = fed.shown(path)
            side.arrived = accepted[-1] if accepted else datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc).isoformat(timespec="minutes")
            check = check_strategy_file(strict(fed), path)  # a broken file does not stand, even where a default would play
            side.verdict, side.problems = ("refused" if check.problems else "stands"), check.problems
    return out


# ---------------------------------------------------------------- opening


def open_week(fed: Fed, week: int, dice_file: Path | None = None, reroll: bool = False) -> WeekReport:
    """Roll what each match needs before strategies (MatchMatch: the grid) and announce it."""
    card = _week_card(fed, week)
    if card.opened and not reroll:
        raise FedError(Problem(f"{fed.shown(card.folder)}/opening.yaml", None, f"week {week} is already open; its grids may already be in players' hands (use --reroll to roll again)", "fedtool open"))
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.problems.extend(check_card_titles(fed, card, wrestlers))  # for_title: (issue 7)
    problems.raise_if_any()
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    opening: dict[str, dict] = {}
    logs = []
    for match in card.matches:
        ruleset = get_ruleset(match.ruleset, (card.shown, f"match {match.id}"))
        dice = scripted or SeededDice(derive_seed(fed.settings.secret, week, "open", match.id))
        rolled = ruleset.open_match(card, match, dice, fed.ruleset_settings(match.ruleset))
        logs.append(format_log(dice.take_log(), f"match {match.id}: opening"))
        if rolled:
            opening[match.id] = rolled
            match.opening = rolled
    text = "# Written by `fedtool open`: what was rolled before strategies were written.\n"
    text += "# To set a grid by hand, give `grid:` on the match in card.yaml instead.\n"
    text += dump_yaml({"week": week, "matches": opening})
    env = environment(fed.templates)
    outbox = fed.outbox_week(week) / "announcements"
    files: dict[str, str] = {}
    mails: dict[str, list] = {}
    for match in card.matches:
        sides = [wrestlers[w] for w in match.sides]
        ruleset = get_ruleset(match.ruleset)
        context = ruleset.announce(card, match, sides, fed.ruleset_settings(match.ruleset))
        for wrestler in sides:
            body = render(
                env,
                f"{ruleset.id}/announce.md.j2",
                fed_name=fed.settings.name,
                week_label=f"week {week}",
                title=match.title,
                strategy_file=strategy_path(card, match, wrestler.id).name,
                **context,
            )
            files[f"{match.id}-{wrestler.id}.md"] = body
            mails.setdefault(wrestler.owner_email, []).append((wrestler, body))
    for address, items in mails.items():
        owner = items[0][0]
        message = email(
            fed.settings.mail.from_address, owner.owner_name, address,
            f"{fed.settings.name}: week {week} is open", "\n\n---\n\n".join(b for _, b in items), None,
            _message_id(fed, week, "open", address), fed.settings.mail.reply_to,
        )
        files[f"mail/{_mail_name(address)}.eml"] = message.as_string()
    files["dice.txt"] = "".join(logs)
    with StagedDir(outbox) as stage:
        for name, content in files.items():
            stage.write(name, content)
        _atomic_write(card.folder / "opening.yaml", text)
        stage.swap()
    return WeekReport(f"week {week}", outbox, [f"{m.id}: {' vs. '.join(wrestlers[w].name for w in m.sides)}" for m in card.matches], [outbox / n for n in files])


# ---------------------------------------------------------------- running


def _resolve_card(fed: Fed, card: Card, bookings: list[Booking], week: int | None, scripted: ScriptedDice | None) -> list[Played]:
    played = []
    for booking in bookings:
        ruleset = get_ruleset(booking.match.ruleset)
        if scripted is not None:
            dice: Dice = scripted
            seed = f"scripted: {scripted.source}"
        else:
            seed_value = derive_seed(fed.settings.secret, week if week is not None else card.folder.name, booking.match.id)
            dice = SeededDice(seed_value)
            seed = f"{seed_value:016x}"
        dice.round = 0
        dice.take_log()
        result = ruleset.resolve(booking, dice)
        played.append(Played(booking, ruleset, result, seed, result.log, ruleset.summary(booking, result), ruleset.outcomes(booking, result)))
    return played


def run_week(fed: Fed, week: int, dice_file: Path | None = None, rerun: bool = False) -> WeekReport:
    """Resolve a week's card and record it: all of it lands, or none of it."""
    card = _week_card(fed, week)
    db = open_league(fed.database, create=False)
    weeks = ran_weeks(db)
    if week in weeks and not rerun:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} has already been run; `fedtool run {week} --rerun` undoes it and runs it again", "a week runs once"))
    if rerun and week not in weeks:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} has not been run, so there is nothing to rerun", "fedtool run --rerun"))
    later = [w for w in weeks if w > week]
    if later:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} is before weeks already run ({', '.join(map(str, later))}); only the latest week can be run or rerun", "weeks run in order"))
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = states_before(db, week)
    for wrestler in wrestlers.values():
        states.setdefault(wrestler.id, get_ruleset(wrestler.ruleset).initial_state(wrestler))
    bookings = _book_all(fed, card, wrestlers, states)
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    played = _resolve_card(fed, card, bookings, week, scripted)

    # league effects, match by match in card order, then the week's close
    changes: dict[str, tuple[dict, str]] = {}
    current = {wid: dict(state) for wid, state in states.items()}
    for p in played:
        for wid, (state, reason) in p.ruleset.league_effects(p.booking, p.result, current, fed.ruleset_settings(p.booking.match.ruleset)).items():
            current[wid] = state
            changes[wid] = (state, _join(changes.get(wid, (None, ""))[1], reason))
    names = {row["id"]: row["name"] for row in db["wrestlers"].rows}
    names.update({wid: w.name for wid, w in wrestlers.items()})  # the sheets are current
    wrestled = {w for p in played for w in p.booking.match.sides}
    wrestled |= {m for p in played for w in p.booking.wrestlers for m in w.members}  # tag partners wrestled too
    close_dice = scripted or SeededDice(derive_seed(fed.settings.secret, week, CLOSE))
    close_dice.round = 0
    close_dice.take_log()
    for ruleset_id in sorted({w.ruleset for w in wrestlers.values()} | {fed.settings.ruleset}):
        ruleset = get_ruleset(ruleset_id)
        group = {wid: s for wid, s in current.items() if _ruleset_of(db, wrestlers, wid, fed) == ruleset_id}
        for wid, (state, reason) in ruleset.close_week(group, wrestled, close_dice, names).items():
            current[wid] = state
            changes[wid] = (state, _join(changes.get(wid, (None, ""))[1], reason))
    close_log = close_dice.take_log()
    warnings = []
    if scripted is not None and scripted.remaining:
        warnings.append(f"{scripted.source}: {scripted.remaining} scripted dice were not needed")

    label = f"week {week}"
    title = card.title or label.capitalize()
    change_lines = [f"{names.get(wid, wid)}: {reason}" for wid, (_, reason) in sorted(changes.items())]
    title_rows, title_lines = decide_title_matches(fed, db, week, card, played, names)  # issue 7
    change_lines += title_lines
    dice_rows = _dice_rows(week, played, close_log)
    week_log = "".join(format_log(p.log, f"match {p.booking.match.id}") for p in played)
    if close_log:
        week_log += format_log(close_log, "end of the week")
    writeups: dict[str, dict] = {}  # kept in the league for `fedtool site` (m008)
    files = render_card(fed, card, title, played, change_lines, week_log, label, writeups)
    outbox = fed.outbox_week(week)
    ran_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    with StagedDir(outbox, keep=("announcements",)) as stage:
        for name, content in files.items():
            stage.write(name, content)
        if db.memory:
            db = open_league(fed.database)
        with db.atomic():
            if rerun:
                undo_week(db, week)
            record_week(
                db, week, title, ran_at, scripted.source if scripted else "seeded",
                list(wrestlers.values()), [_match_row(week, p) for p in played], changes, dice_rows,
            )
            record_title_matches(db, title_rows)
            record_writeups(db, week, {f"{week_name(week)}/{match_id}": w for match_id, w in writeups.items()})
            stage.swap()
    return WeekReport(label, outbox, [p.described["headline"] for p in played], [outbox / n for n in files], warnings, change_lines)


def play_card(fed: Fed, folder: Path, dice_file: Path | None = None) -> WeekReport:
    """Resolve any card folder as an exhibition: writeups only, the league untouched.

    Used to replay a rulebook example or a disputed match, or to try a card before a week.
    """
    card = load_card(folder, fed.shown(folder), fed.settings.ruleset)
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = {w.id: get_ruleset(w.ruleset).initial_state(w) for w in wrestlers.values()}
    bookings = _book_all(fed, card, wrestlers, states)
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    played = _resolve_card(fed, card, bookings, None, scripted)
    warnings = []
    if scripted is not None and scripted.remaining:
        warnings.append(f"{scripted.source}: {scripted.remaining} scripted dice were not needed")
    week_log = "".join(format_log(p.log, f"match {p.booking.match.id}") for p in played)
    label = re.sub(r"[^a-z0-9-]+", "-", folder.name.lower()).strip("-") or "card"
    files = render_card(fed, card, card.title or label, played, [], week_log, label)
    outbox = fed.outbox / label
    with StagedDir(outbox) as stage:
        for name, content in files.items():
            stage.write(name, content)
        stage.swap()
    return WeekReport(label, outbox, [p.described["headline"] for p in played], [outbox / n for n in files], warnings)


def _ruleset_of(db, wrestlers: dict[str, WrestlerRecord], wrestler_id: str, fed: Fed) -> str:
    if wrestler_id in wrestlers:
        return wrestlers[wrestler_id].ruleset
    rows = list(db["wrestlers"].rows_where("id = ?", [wrestler_id]))
    return rows[0]["ruleset"] if rows else fed.settings.ruleset


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def _match_row(week: int, p: Played) -> dict:
    match = p.booking.match
    rounds = []
    for rnd in getattr(p.result, "rounds", []):
        rounds.append({"round": rnd.number, "style": rnd.style, "winner": rnd.winner, "margin": rnd.margin, "detail": json.dumps(_plain(dataclasses.asdict(rnd)))})
    return {
        "id": f"{week_name(week)}/{match.id}",
        "match": match.id,
        "position": match.position,
        "ruleset": match.ruleset,
        "title": match.title,
        "seed": p.seed,
        "summary": p.summary,
        "notes": p.booking.notes,
        "sides": match.sides,
        "outcomes": p.outcomes,
        "rounds": rounds,
    }


def _plain(value: Any) -> Any:
    """Dataclass dicts made JSON-safe: dice faces (bytes) become lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return list(value)
    return value


def _dice_rows(week: int, played: list[Played], close_log: list) -> list[dict]:
    rows = []
    for key, log in [(f"{week_name(week)}/{p.booking.match.id}", p.log) for p in played] + [(CLOSE, close_log)]:
        for seq, (round_no, purpose, faces) in enumerate(log):
            rows.append({"week": week, "match_id": key, "seq": seq, "round": round_no, "purpose": purpose, "faces": " ".join(map(str, faces))})
    return rows


# ---------------------------------------------------------------- writing


def render_card(fed: Fed, card: Card, title: str, played: list[Played], changes: list[str], week_log: str, label: str, writeups: dict | None = None) -> dict[str, str]:
    """Every file the run puts in the outbox, by name: writeups, the card, mails, the dice log.

    `writeups`, if given, is filled with each match's headline, Markdown and HTML fragment, by match id."""
    env = environment(fed.templates)
    files: dict[str, str] = {}
    entries = []
    per_owner: dict[str, list] = {}
    for p in played:
        match = p.booking.match
        described = p.described
        log_text = format_log(p.log)
        context = {
            "match": described,
            "match_id": match.id,
            "booking_title": match.title,
            "notes": p.booking.notes,
            "dice_log": {"count": len(p.log), "text": log_text},
        }
        md = render(env, f"{p.ruleset.template}.md.j2", **context)
        fragment = render(env, f"{p.ruleset.template}.html.j2", **context)
        files[f"{match.id}.md"] = md
        if writeups is not None:
            writeups[match.id] = {"headline": described["headline"], "markdown": md, "html": fragment}
        files[f"{match.id}.html"] = _page(env, f"{fed.settings.name}: {described['headline']}", fragment)
        entries.append({"file": match.id, "headline": described["headline"], "title": match.title})
        for wrestler in p.booking.wrestlers:
            per_owner.setdefault(wrestler.owner_email, [wrestler.owner_name, [], []])
            if md not in per_owner[wrestler.owner_email][1]:
                per_owner[wrestler.owner_email][1].append(md)
                per_owner[wrestler.owner_email][2].append(fragment)
    card_context = {"fed_name": fed.settings.name, "card_title": title, "notes": card.notes, "matches": entries, "league_changes": changes}
    card_md = render(env, "card.md.j2", **card_context)
    card_html = _page(env, f"{fed.settings.name}: {title}", render(env, "card.html.j2", **card_context))
    files["card.md"] = card_md
    files["card.html"] = card_html
    files["dice.txt"] = week_log
    mail = fed.settings.mail
    for address, (owner_name, texts, fragments) in sorted(per_owner.items()):
        html = _page(env, f"{fed.settings.name}: {title}", Markup("\n").join(Markup(f) for f in fragments))
        message = email(mail.from_address, owner_name, address, f"{fed.settings.name}: {title} results", "\n\n---\n\n".join(texts), html, _message_id(fed, label, "results", address), mail.reply_to)
        files[f"mail/{_mail_name(address)}.eml"] = message.as_string()
    if mail.list_address:
        message = email(mail.from_address, fed.settings.name, mail.list_address, f"{fed.settings.name}: {title}", card_md, card_html, _message_id(fed, label, "card", mail.list_address), mail.reply_to)
        files["mail/card.eml"] = message.as_string()
    return files


def _page(env, title: str, body: str) -> str:
    return render(env, "page.html.j2", title=title, body=Markup(body))


def _mail_name(address: str) -> str:
    """A safe file name for a player's mail: never the address itself."""
    return re.sub(r"[^a-z0-9]+", "-", address.lower()).strip("-")[:80] or "player"


def _message_id(fed: Fed, label: object, kind: str, address: str) -> str:
    digest = derive_seed(fed.settings.secret, "message-id", label, kind, address)
    domain = str(fed.settings.mail.from_address).rsplit("@", 1)[-1]
    return f"<{digest:016x}.{kind}@{domain}>"


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class StagedDir:
    """Build a folder's new contents beside it, then swap it in with renames.

    `keep` names subfolders of the old folder carried into the new one (the week's
    announcements survive its run). If anything fails before `__exit__` completes
    cleanly, the old folder is put back and the staging folder removed.
    """

    def __init__(self, final: Path, keep: tuple[str, ...] = ()):
        self.final = final
        self.keep = keep
        self.backup: Path | None = None
        self.swapped = False

    def __enter__(self) -> "StagedDir":
        self.final.parent.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f".{self.final.name}.new-", dir=self.final.parent))
        return self

    def write(self, name: str, content: str) -> None:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")

    def swap(self) -> None:
        if self.final.exists():
            self.backup = Path(tempfile.mkdtemp(prefix=f".{self.final.name}.old-", dir=self.final.parent))
            self.backup.rmdir()
            self.final.rename(self.backup)
        self.path.rename(self.final)
        self.swapped = True
        if self.backup:
            for name in self.keep:
                if (self.backup / name).exists() and not (self.final / name).exists():
                    (self.backup / name).rename(self.final / name)

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            if self.backup:
                shutil.rmtree(self.backup, ignore_errors=True)
            return
        if self.swapped:
            if self.backup:
                for name in self.keep:
                    if (self.final / name).exists() and not (self.backup / name).exists():
                        (self.final / name).rename(self.backup / name)
            self.final.rename(self.path)
            if self.backup:
                self.backup.rename(self.final)
        shutil.rmtree(self.path, ignore_errors=True)
