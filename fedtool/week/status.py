"""How a strategy file reads and whether it stands (`fedtool read`, mail intake), and what
each side of a week's card has sent (`fedtool status`)."""

from __future__ import annotations

import dataclasses
import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path

from fedtool.fed.card import held_strategies, load_card, strategy_path
from fedtool.fed.schedule import shown_time
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel import clock
from fedtool.league.away import away_on, fed_day, player_records
from fedtool.league.db import open_league
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.base import Booking

from .booking import CardContext, book_all, card_context, week_card


@dataclass
class StrategyCheck:
    """The verdict on one strategy file: how it was read and what is wrong with it."""

    file: str
    layout: str  # "YAML" or "plain text"
    readings: list  # how each line was read (plain text)
    match: str | None  # the match it is for
    problems: list  # this file's problems (empty: it stands)
    complete: bool  # False while the other side's strategy is missing (the table is unknown)
    blocked: list = field(default_factory=list)  # problems of the fed's own files (sheets, card, data) that stop the match, not the strategy's


def check_strategy_file(fed: Fed, path: Path, wrestler_id: str | None = None, context: CardContext | None = None, strict: bool = False,
                        match_id: str | None = None, booked: dict | None = None, cache: dict | None = None) -> StrategyCheck:
    """How a strategy file reads, and whether it stands for its match on the week's card.

    With `wrestler_id`, the file is checked as that wrestler's strategy for his match on the
    card in its folder, whatever its name (mail intake checks before it files). `context`
    spares reading the card, its wrestlers and the league again for each mail. `strict`
    checks it under each ruleset's strict settings (`Ruleset.strict_settings`), as a
    strategy is checked before it is filed: a default never stands in for a broken one.
    `match_id` picks the match of a wrestler booked more than once. `booked` (match id and
    strictness -> the booking's problems) keeps each match's booking for the next file of
    the same match (`week_status`: each match booked once, not once per side); a file
    checked as a wrestler's (`wrestler_id`) is always booked anew. `cache` (`Ruleset.book`):
    what checking many files of one card keeps between calls (mail intake: the other side's
    reading, kept by its text, so a strategy an earlier mail replaced is read anew)."""
    shown = fed.shown(path)
    layout = "plain text" if path.suffix.lower() == ".txt" else "YAML"
    card = context.card if context is not None else load_card(fed, path.parent)
    target = None  # the file, resolved when first needed
    for original in card.matches:
        if match_id is not None and original.id != match_id:
            continue
        for side in original.sides:
            if wrestler_id is not None and side != wrestler_id:  # checked as his: no other side's path is looked up or resolved
                continue
            match = original
            if wrestler_id is not None and side == wrestler_id:
                match = dataclasses.replace(original, strategy_files={**original.strategy_files, side: path.name if path.parent == card.folder else path})
            candidate = strategy_path(card, match, side)
            if candidate != path and candidate.resolve() != (target := target or path.resolve()):
                continue
            label = f"{match.id}: {' vs. '.join(match.sides)}"
            try:
                readings = get_ruleset(match.ruleset, (card.shown, f"match {match.id}")).strategy_readings(path, shown) or []
            except FedError as exc:
                return StrategyCheck(shown, layout, [], label, exc.problems, False)
            card = dataclasses.replace(card, matches=[match])
            if context is None:
                week = re.fullmatch(r"week-(\d+)", path.parent.name)
                context = card_context(fed, card, int(week.group(1)) if week else None)
            key = (match.id, strict) if booked is not None and wrestler_id is None else None
            if key is not None and key in booked:
                problems = booked[key]
            else:
                try:
                    made = book_all(fed, card, context.wrestlers, context.states, strict, cache=cache)
                    problems = []
                except FedError as exc:
                    made, problems = [], exc.problems
                if key is not None:
                    booked[key] = problems
                    if made:  # the booking itself, for the run (`strict_bookings`)
                        booked[BOOKING, match.id, strict] = made[0]
            if not problems:
                return StrategyCheck(shown, layout, readings, label, [], True)
            mine = [p for p in problems if p.file == shown]
            strategies = {fed.shown(strategy_path(card, match, s)) for s in match.sides}
            blocked = [p for p in problems if p.file != shown and p.file not in strategies]
            others = len(mine) < len(problems)
            return StrategyCheck(shown, layout, readings, label, mine, not others, blocked)
    raise FedError(Problem(shown, None, "no match on the card in this folder uses this file", "fedtool read"))


def read_check(fed: Fed, path: Path, week: int | None = None) -> StrategyCheck:
    """`fedtool read FILE [--week N]`: a file in a week's folder is checked against that
    folder's card; a file elsewhere against week N's card, as the strategy of the wrestler
    it is named after (brother-bob.yaml). Without a week to check against, say what is needed."""
    shown = fed.shown(path)
    folder = fed.week_dir(week) if week is not None else path.parent
    if path.parent.resolve() == folder.resolve():
        if week is None and not (folder / "card.yaml").exists() and not re.fullmatch(r"week-\d+", folder.name):
            raise FedError(Problem(shown, None, "this file is in no week's folder: `fedtool read` checks a strategy against its week's card; "
                                   "give a strategy file under strategies/week-NN/, or name the week: `fedtool read FILE --week N`", "fedtool read"))
        return check_strategy_file(fed, path)
    card = week_card(fed, week)
    wrestler = path.stem
    if not any(wrestler in match.sides for match in card.matches):
        sides = sorted({side for match in card.matches for side in match.sides})
        raise FedError(Problem(shown, None, f"a file outside the week's folder is read as the strategy of the wrestler it is named after, and "
                               f"{wrestler!r} has no match on week {week}'s card (its sides: {', '.join(sides)}); name the file after the "
                               "wrestler (brother-bob.yaml)", "fedtool read"))
    check = check_strategy_file(fed, path, wrestler, card_context(fed, card, week))
    alias = f"{card.shown.rsplit('/', 1)[0]}/{path.name}"  # a ruleset names a side's file as in the card's folder: here it is this one
    mine = [dataclasses.replace(p, file=shown) for p in check.blocked if p.file == alias]
    return dataclasses.replace(check, problems=check.problems + mine, blocked=[p for p in check.blocked if p.file != alias])


BOOKING = "booking"  # in `check_strategy_file`'s `booked`: (BOOKING, match id, strict) -> the booking that stood


def strict_bookings(booked: dict) -> dict[str, Booking]:
    """Of a `booked` dict filled by `week_status`: each match's booking made under its
    ruleset's strict settings that stood, by match id (`book_all`'s `stood`)."""
    return {key[1]: value for key, value in booked.items() if len(key) == 3 and key[0] == BOOKING and key[2]}


@dataclass
class SideStatus:
    """Where one side of a match stands this week: its strategy's arrival and verdict."""

    match: str
    wrestler: str
    file: str | None  # the strategy file, if one arrived
    arrived: str | None  # when (the accepted mail's arrival, else the file's time; UTC)
    verdict: str  # "stands", "refused", "missing", "default" (the ruleset plays its default), "away" (none stands; the player is away)
    problems: list = field(default_factory=list)
    wrestler_id: str = ""
    owner: str = ""  # the owner's address (reminders go there)
    owner_name: str = ""
    held: str | None = None  # a late strategy held for the fedhead (`fedtool accept`)
    mails: list = field(default_factory=list)  # each strategy mail for this side: "when verdict: why"


SUBJECT_MARK = "Subject: "  # in inbox_seen.why: the last line of a refused mail that reached no wrestler (mail intake writes it)


@dataclass
class StrayMail:
    """A mail read that reached no side of a card: it named no week, a week with no card, or
    no wrestler of the week's card (refused, answered with the help text), or it was a mail
    command (answered)."""

    arrived: str
    sender: str
    verdict: str  # "refused" or "command"
    why: str  # the reason in one line
    subject: str  # as shown: one line, trimmed (mail intake)


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+")
SHOWN = 80  # characters of a player's subject or address shown


def one_line(text: str, limit: int = SHOWN) -> str:
    """Player text (a subject, an address) as fedtool shows it: on one line, control and
    text-direction characters out, trimmed to `limit` characters."""
    text = " ".join(_UNPRINTABLE.sub(" ", text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def stray_mails(fed: Fed, week: int | None) -> list[StrayMail]:
    """The mails read for `week` that reached none of its sides, oldest first; with None,
    the refused mails that named no week."""
    db = open_league(fed.database, create=False)
    if week is None:
        rows = db.execute("SELECT arrived, sender, verdict, why FROM inbox_seen WHERE week IS NULL AND verdict = 'refused' ORDER BY arrived, rowid").fetchall()
    else:
        rows = db.execute("SELECT arrived, sender, verdict, why FROM inbox_seen WHERE week = ? AND wrestler_id IS NULL AND verdict IN ('refused', 'command') "
                          "ORDER BY arrived, rowid", [week]).fetchall()
    out = []
    for arrived, sender, verdict, why in rows:
        why = why or ""
        subject = ""
        head, mark, tail = why.rpartition("\n" + SUBJECT_MARK)
        if mark:
            why, subject = head, tail
        out.append(StrayMail(arrived or "", one_line(sender or ""), verdict, one_line(_gist(why), 200), subject))
    return out


QUARANTINE = "quarantine"  # strategies/quarantine/: the mails that made intake fail, kept as they came (mail intake writes them)
_KEPT = re.compile(rf"\b{QUARANTINE}/([0-9a-f]{{32}}\.eml)\b")
_KEPT_AS = re.compile(r";? kept for the fedhead as \S+")  # the file is shown on its own


def quarantine_folder(fed: Fed) -> Path:
    """Where mail intake keeps the mails that made it fail, each named by its hash."""
    return fed.strategies / QUARANTINE


@dataclass
class QuarantinedMail:
    """A mail that made intake fail: answered with an apology, never judged again, kept for
    the fedhead in `file` (listed until the fedhead deletes it)."""

    arrived: str
    sender: str
    why: str  # what failed, in one line
    file: str  # the mail as it came, shown relative to the fed
    subject: str


def quarantined_mails(fed: Fed) -> list[QuarantinedMail]:
    """The quarantined mails whose file is still kept, oldest first."""
    db = open_league(fed.database, create=False)
    rows = db.execute("SELECT arrived, sender, why FROM inbox_seen WHERE verdict = 'quarantined' ORDER BY arrived, rowid").fetchall()
    out = []
    for arrived, sender, why in rows:
        why = why or ""
        head, mark, subject = why.rpartition("\n" + SUBJECT_MARK)
        why = head if mark else why
        found = _KEPT.search(why)
        path = quarantine_folder(fed) / found.group(1) if found else None
        if path is not None and path.is_file():
            out.append(QuarantinedMail(arrived or "", one_line(sender or ""), one_line(_gist(_KEPT_AS.sub("", why)), 300), fed.shown(path), subject if mark else ""))
    return out


def deadline_line(fed: Fed, week: int) -> str | None:
    """The week's deadline as `fedtool status` heads it: in the fed's zone and in UTC."""
    card = week_card(fed, week)
    return f"week {week}: the deadline is {shown_time(fed, card.deadline)}" if card.deadline else None


def _gist(why: str) -> str:
    """A mail's verdict in one line: its first line, and the first problem if a list follows."""
    lines = [line.strip() for line in why.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return f"{lines[0]} {lines[1].lstrip('- ')}" + (f" (and {len(lines) - 2} more)" if len(lines) > 2 else "")
    return lines[0] if lines else ""


def week_status(fed: Fed, week: int, now: datetime.datetime | None = None, context: CardContext | None = None,
                booked: dict | None = None, db=None) -> list[SideStatus]:
    """What each side of a week's card has sent, and whether it stands (issue 6, item 4): the
    filed strategy, every strategy mail read for it (accepted, refused, held) and a late
    strategy held for the fedhead. A side with no strategy that stands whose player is away
    (`fedtool away`) on the week's deadline (or on `now`, the clock's by default, for a card
    with none) is "away": no reminder goes to him, and the run plays the default quietly.

    The card, its sheets and the league's states are read once (`context`: the run's own,
    or read here, the states only once a strategy file is found), and each match is booked
    once for both its sides' files (issue 18: the run read them again for every file).
    `booked`, if given, is filled with each match's booking (`strict_bookings`: the run
    books no match twice); `db`: the league, already open (the run's)."""
    card = context.card if context is not None else week_card(fed, week)
    wrestlers = context.wrestlers if context is not None else card_context(fed, card, None).wrestlers
    checked = context  # the card with the states going into the week, for checking the files
    booked = {} if booked is None else booked
    db = open_league(fed.database, create=False) if db is None else db
    away = away_on(db, fed_day(fed, card.deadline or now or clock.now()))
    mails: dict[str, list] = {}
    for row in db.execute("SELECT wrestler_id, arrived, verdict, why FROM inbox_seen WHERE week = ? ORDER BY arrived, rowid", [week]).fetchall():
        mails.setdefault(row[0], []).append(row[1:])
    held = held_strategies(fed.week_dir(week))
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
                rule = get_ruleset(match.ruleset).missing_strategy(fed.ruleset_settings(match.ruleset))
                side.verdict = "default" if rule == "default" else "missing"
                continue
            accepted = [when for when, verdict, _ in mails.get(wrestler_id, []) if verdict == "accepted"]
            side.file = fed.shown(path)
            side.arrived = accepted[-1] if accepted else datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc).isoformat(timespec="minutes")
            if checked is None:
                checked = card_context(fed, card, week, wrestlers=wrestlers)
            # a broken file does not stand, even where a default would play; looked for among
            # its own match's sides only (it is one of them), not every side of the card
            check = check_strategy_file(fed, path, context=checked, strict=True, match_id=match.id, booked=booked)
            # the fed's own files that stop the match are shown with it; the strategy still stands
            side.verdict, side.problems = ("refused" if check.problems else "stands"), check.problems + check.blocked
    for side in out:
        if side.verdict != "stands" and side.owner.strip().lower() in away:
            side.verdict = "away"
    return out


@dataclass
class PlayerRecord:
    """A player's strategies in the run weeks up to a week: how many stood on time or late,
    were missing, or came while he was away; `away` his span when he is away that week."""

    email: str
    name: str
    on_time: int = 0
    late: int = 0
    missing: int = 0
    away_weeks: int = 0
    away: str | None = None  # "2026-12-20 to 2027-01-03" when he is away for the week


def player_status(fed: Fed, week: int, rows: list[SideStatus], now: datetime.datetime | None = None) -> list[PlayerRecord]:
    """Each player with a side on the week's card (by name): his record through `week` and
    whether he is away for it (`fedtool status WEEK`)."""
    card = week_card(fed, week)
    db = open_league(fed.database, create=False)
    away = away_on(db, fed_day(fed, card.deadline or now or clock.now()))
    records = player_records(db, week)
    out: dict[str, PlayerRecord] = {}
    for row in rows:
        address = row.owner.strip().lower()
        if address in out:
            continue
        counts = records.get(address, {})
        span = away.get(address)
        out[address] = PlayerRecord(address, row.owner_name, counts.get("on_time", 0), counts.get("late", 0), counts.get("missing", 0),
                                    counts.get("away", 0), f"{span['from_day']} to {span['to_day']}" if span else None)
    return sorted(out.values(), key=lambda p: (p.name.lower(), p.email))
