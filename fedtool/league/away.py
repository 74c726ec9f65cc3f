"""Players who are away, and each player's record of strategies (issue 12, item 7).

`fedtool away EMAIL FROM TO` keeps one span of days per player (owner address) in the
league (`away`, migration m014): while a week's deadline (or its run, for a card with
none) falls on a day inside it, in the fed's time zone, reminders skip the player and his
sides with no standing strategy play the ruleset's default, quietly. The span is the
fedhead's ruling, so `--rerun` keeps it.

Each run records, per side of the card, whether its player's strategy was on time, late
(held after the deadline and accepted), missing (none stood: the default played or the
cards decided) or the player was away (`punctuality`, a week table: `--rerun` undoes it).
A side of a ruleset whose strategy is optional that sent none is not recorded.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from fedtool.fed.schedule import fed_zone
from fedtool.fed.settings import Fed
from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import load_yaml

from .db import open_league

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database

RULE = "fedtool away"
RECORDS = ("on_time", "late", "missing", "away")  # a side's record, as stored and as the JSON keys name it
WORDS = {"on_time": "on time", "late": "late", "missing": "missing", "away": "away"}


def owners(fed: Fed) -> dict[str, str]:
    """Every registered owner address in rosters/ (lowercase) -> the owner's name."""
    found: dict[str, str] = {}
    for path in fed.roster_files.values():
        data = load_yaml(path, fed.shown(path))
        owner = data.get("owner") if isinstance(data, dict) else None
        if isinstance(owner, dict) and owner.get("email"):
            found.setdefault(str(owner["email"]).strip().lower(), str(owner.get("name") or owner["email"]))
    return found


def parse_day(text: str, what: str) -> datetime.date:
    """A day written YYYY-MM-DD, or a FedError naming the argument."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise FedError(Problem(None, what, f"{text!r} is not a day: write it YYYY-MM-DD, e.g. 2026-12-24", RULE)) from None


def set_away(fed: Fed, email: str, start: str, end: str) -> dict[str, Any]:
    """Record that the player at `email` (a registered owner) is away from `start` to `end`
    (days, both included, in the fed's zone), replacing any span given before."""
    address = email.strip().lower()
    known = owners(fed)
    if address not in known:
        raise FedError(Problem("rosters/", None, f"{email} is not the registered owner of any wrestler", f"{RULE}: EMAIL is an owner's address in a roster sheet"))
    first, last = parse_day(start, "FROM"), parse_day(end, "TO")
    if first > last:
        raise FedError(Problem(None, "FROM, TO", f"away from {first} to {last}: FROM is after TO", f"{RULE}: FROM is on or before TO"))
    row = {"email": address, "name": known[address], "from_day": first.isoformat(), "to_day": last.isoformat(),
           "set_at": clock.now().isoformat(timespec="seconds")}
    db = open_league(fed.database)
    with db.atomic():
        db["away"].upsert(row, pk="email")
    return row


def clear_away(fed: Fed, email: str) -> bool:
    """Forget the player's span; False when none was set."""
    address = email.strip().lower()
    db = open_league(fed.database)
    with db.atomic():
        found = db.execute("SELECT COUNT(*) FROM away WHERE email = ?", [address]).fetchone()[0]
        db.execute("DELETE FROM away WHERE email = ?", [address])
    return bool(found)


def away_list(db: Database) -> list[dict[str, Any]]:
    """Every span set, by address: {email, name, from_day, to_day, set_at}."""
    return list(db["away"].rows_where(order_by="email"))


def fed_day(fed: Fed, moment: datetime.datetime) -> datetime.date:
    """The day a moment falls on in the fed's zone (`schedule: zone`)."""
    return moment.astimezone(fed_zone(fed.settings.schedule.zone)).date()


def away_on(db: Database, day: datetime.date) -> dict[str, dict]:
    """Owner address -> his span, for each player away on `day`."""
    text = day.isoformat()
    return {row["email"]: row for row in db["away"].rows_where("from_day <= ? AND ? <= to_day", [text, text])}


def record_punctuality(db: Database, week: int, rows: list[dict]) -> None:
    """Store a week's records ({match, wrestler_id, owner_email, owner_name, record}). The caller holds the transaction."""
    db["punctuality"].insert_all({**row, "week": week} for row in rows)


def _rows(db: Database, through: int | None) -> list[dict]:
    where, params = ("week <= ?", [through]) if through is not None else (None, None)
    return list(db["punctuality"].rows_where(where, params, order_by="week, rowid"))


def _counts() -> dict[str, int]:
    return {key: 0 for key in RECORDS}


def player_records(db: Database, through: int | None = None) -> dict[str, dict[str, Any]]:
    """Owner address -> {"name", "on_time", "late", "missing", "away"}: his sides' strategies
    in every run week (up to `through`)."""
    out: dict[str, dict[str, Any]] = {}
    for row in _rows(db, through):
        entry = out.setdefault(row["owner_email"], {"name": row["owner_name"], **_counts()})
        entry["name"] = row["owner_name"]
        entry[row["record"]] += 1
    return out


def wrestler_records(db: Database) -> dict[str, dict[str, int]]:
    """Wrestler id -> {"on_time", "late", "missing", "away"}: the strategies for his own sides."""
    out: dict[str, dict[str, int]] = {}
    for row in _rows(db, None):
        out.setdefault(row["wrestler_id"], _counts())[row["record"]] += 1
    return out


def week_verdict(records: list[str]) -> str:
    """A player's week from his sides' records: "stood" (a strategy of his stood), "missed"
    (none did, and he was not away) or "away"."""
    if any(r in ("on_time", "late") for r in records):
        return "stood"
    return "missed" if "missing" in records else "away"


def no_show_streaks(db: Database, before: int) -> dict[str, int]:
    """Owner address -> the weeks running, before week `before`, in which none of his
    strategies stood (weeks he was away or not on the card are skipped, not counted)."""
    weeks: dict[str, dict[int, list[str]]] = {}
    for row in _rows(db, before - 1):
        weeks.setdefault(row["owner_email"], {}).setdefault(row["week"], []).append(row["record"])
    streaks = {}
    for address, by_week in weeks.items():
        count = 0
        for week in sorted(by_week, reverse=True):
            verdict = week_verdict(by_week[week])
            if verdict == "stood":
                break
            count += verdict == "missed"
        streaks[address] = count
    return streaks


__all__ = ["set_away", "clear_away", "away_list", "away_on", "fed_day", "owners", "player_records", "wrestler_records",
           "no_show_streaks", "record_punctuality", "week_verdict", "RECORDS", "WORDS"]
