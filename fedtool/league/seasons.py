"""Seasons: `fedtool season close` archives the season and starts the next.

A season is the run weeks since the last close (season 1 from the first). Closing it,
after its last run week:
- archives it in the league (`seasons`, migration m016): its champions at the close, its
  standings (records and streaks over its weeks only, states as at the close), its record
  book (fedtool.league.recordbook over its weeks) and its awards;
- carries each wrestler's league state into the next season by the fed's `seasons:
  carry_over:` setting: each ruleset names what a fed may reset (`Ruleset.season_carry`:
  push levels, injuries, TV grades, grudge grades), and each is kept unless the setting
  says `reset` (back to the sheet). Keeping is the rulebooks' reading: none knows a season
  break (docs/rulings/seasons.md). The carried states (`season_states`) stand for every
  week after the season (`fedtool.league.db.states_before`).

A closed season's weeks cannot be run or rerun (its archive would no longer be true):
`fedtool season reopen` takes the close back, while no week after it has been run. Titles
and their lineages run on across seasons.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from fedtool.fed.settings import Fed
from fedtool.kernel import clock
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place
from fedtool.rulesets import REGISTRY, get_ruleset, ruleset_order

from .backup import take_snapshot
from .db import STATE_KEYS, state_row, states_before
from .records import _names, _sheet, standings, titles as league_titles

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database

RULE = "fedtool season"
SETTING = "fed settings: seasons: carry_over"


def closed_seasons(db: Database) -> list[dict]:
    """The closed seasons, oldest first: season, name, first_week, last_week, closed_at (no archive)."""
    if not db["seasons"].exists():
        return []
    return [{k: row[k] for k in ("season", "name", "first_week", "last_week", "closed_at")}
            for row in db["seasons"].rows_where(order_by="season")]


def current_season(db: Database) -> dict:
    """The season in play: {"season", "name", "first_week", "last_week" (the latest run week
    since, or None), "weeks": the run weeks in it}."""
    closed = closed_seasons(db)
    number = closed[-1]["season"] + 1 if closed else 1
    after = closed[-1]["last_week"] if closed else -(1 << 30)
    weeks = [row[0] for row in db.execute("SELECT week FROM weeks WHERE week > ? ORDER BY week", [after]).fetchall()]
    return {"season": number, "name": f"Season {number}", "first_week": weeks[0] if weeks else (after + 1 if closed else None),
            "last_week": weeks[-1] if weeks else None, "weeks": weeks}


def season_of_week(db: Database, week: int) -> dict | None:
    """The closed season a week belongs to, or None (the season in play)."""
    for season in closed_seasons(db):
        if week <= season["last_week"]:
            return season
    return None


def check_week_runnable(db: Database, week: int) -> None:
    """Refuse to run or rerun a week of a closed season (its archive and carry-over would lie)."""
    season = season_of_week(db, week)
    if season is not None:
        raise FedError(Problem(None, None, f"week {week} belongs to {season['name']} (weeks up to {season['last_week']}), closed on "
                               f"{season['closed_at'][:10]}; its archive and carry-over stand on its results: reopen it first "
                               "(fedtool season reopen) if no week since has been run", RULE))


def carry_settings(fed: Fed, db: Database | None = None) -> dict[str, str]:
    """Each carry-over name of the fed's rulesets (its settings', its titles', its league's)
    -> keep or reset (the setting, default keep). A name none of them knows is refused, with its line."""
    known: dict[str, str] = {}
    for rid in _fed_rulesets(fed, db):
        for name in get_ruleset(rid).season_carry():
            known.setdefault(name, rid)
    problems = Collector()
    for name in fed.settings.seasons.carry_over:
        if name not in known:
            problems.add(fed.shown(fed.settings_file), place(fed.data, ("seasons", "carry_over", name)),
                         f"{name!r} is not something a season carries over: give one of {', '.join(sorted(known)) or '(none: no ruleset of this fed keeps state)'}", SETTING)
    problems.raise_if_any()
    return {name: fed.settings.seasons.carry_over.get(name, "keep") for name in sorted(known)}


def _fed_rulesets(fed: Fed, db: Database | None) -> list[str]:
    used = {fed.settings.ruleset, *fed.settings.rulesets, *(t.ruleset for t in fed.settings.titles if t.ruleset)}
    if db is not None:
        used |= {row[0] for row in db.execute("SELECT DISTINCT ruleset FROM wrestlers").fetchall()}
    return sorted((r for r in used if r in REGISTRY), key=ruleset_order)


def close_season(fed: Fed, db: Database, name: str | None = None) -> dict[str, Any]:
    """Close the season in play after its latest run week: archive it and carry the league's
    states into the next, the league snapshotted first (fedtool.league.backup). Returns the
    archive (as `season_archive` gives it)."""
    season = current_season(db)
    if not season["weeks"]:
        what = "no week has been run yet" if season["season"] == 1 else f"no week has been run since {closed_seasons(db)[-1]['name']} closed"
        raise FedError(Problem(None, None, f"{season['name']} has no weeks to close: {what}", RULE))
    rules = carry_settings(fed, db)
    first, last = season["weeks"][0], season["weeks"][-1]
    name = (name or season["name"]).strip()
    if not name or len(name) > 120 or not name.isprintable():  # it heads pages, the feed and the calendar: no line break or control character
        raise FedError(Problem(None, None, "a season's name is one line of 1 to 120 printable characters", f"{RULE} close --name"))
    names = _names(fed, db)
    archive = {
        "season": season["season"],
        "name": name,
        "first_week": first,
        "last_week": last,
        "champions": [{"title_id": t["id"], "name": t["name"], "ruleset": t["ruleset"], "holder": t["holder"], "holder_name": t["holder_name"],
                       "since_week": t["since_week"]} for t in league_titles(fed, db)],
        "standings": standings(fed, db, weeks=(first, last)),
        "records": _record_book(fed, db, (first, last)),
    }
    archive["awards"] = awards(archive)
    carried, changes = carry_over(fed, db, last, rules, names)
    archive["carry_over"] = {"rules": rules, "changes": changes}
    closed_at = clock.now().isoformat()
    take_snapshot(fed, "season-close")  # checked and archived: the league as it was is kept first (`fedtool restore`)
    with db.atomic():
        db["seasons"].insert({"season": season["season"], "name": name, "first_week": first, "last_week": last, "closed_at": closed_at,
                              "archive": json.dumps(archive, ensure_ascii=False)})
        db["season_states"].insert_all(
            {"season": season["season"], "wrestler_id": wid, **state_row(state), "reason": reason} for wid, (state, reason) in sorted(carried.items())
        )
    return dict(archive, closed_at=closed_at)


def carry_over(fed: Fed, db: Database, last_week: int, rules: dict[str, str], names: dict[str, str]) -> tuple[dict[str, tuple[dict, str]], list[dict]]:
    """Each league member's state going into the next season, by the carry-over rules:
    (wrestler id -> (state, reason)) for everyone whose state is reset (the rest keep their
    latest state as it stands), and the changes in words. A reset takes the sheet's value (`initial_state`)."""
    before = states_before(db, last_week + 1)
    carried: dict[str, tuple[dict, str]] = {}
    changes = []
    members = {row["id"]: row["ruleset"] for row in db["wrestlers"].rows}
    for wid in fed.roster_files:
        if wid not in members:
            try:
                members[wid] = _sheet(fed, wid).ruleset
            except FedError:
                continue
    for wid, ruleset_id in sorted(members.items()):
        if ruleset_id not in REGISTRY:
            continue
        ruleset = get_ruleset(ruleset_id)
        start: dict = {}
        if wid in fed.roster_files:
            try:
                start = ruleset.initial_state(_sheet(fed, wid))
            except FedError:
                start = {}
        state = {**start, **before.get(wid, {})}
        reset = []
        for carry, (keys, words) in ruleset.season_carry().items():
            if rules.get(carry) != "reset" or wid not in fed.roster_files:
                continue
            if any(state.get(k) != start.get(k) for k in keys):
                for key in keys:
                    if key in start:
                        state[key] = start[key]
                    else:
                        state.pop(key, None)
                reset.append(words)
        if reset:
            reason = "new season: " + ", ".join(reset) + " reset to the sheet"
            changes.append({"wrestler_id": wid, "name": names.get(wid, wid), "reason": reason})
            carried[wid] = (state, reason)
    return carried, changes


def awards(archive: dict) -> list[dict]:
    """A season's awards, per ruleset, from its standings and record book: Wrestler of the
    season (the best record: most wins, then fewest losses, then the standings' own measure,
    `Ruleset.contender_key`; ties share it), Match of the season (the best-rated match, the
    earlier of equals) and the longest win streak (two wins or more; ties share it). Each {"award", "ruleset",
    "winners": [{"wrestler_id", "name"}], "why", "match": the match's record-book entry or None}."""
    out = []
    by_ruleset: dict[str, list[dict]] = {}
    for table in archive["standings"]:
        by_ruleset.setdefault(table["ruleset"], []).extend(table["rows"])
    for rid, rows in by_ruleset.items():
        played = [r for r in rows if r["wins"] + r["losses"] + r["draws"]]
        if not played:
            continue
        known = get_ruleset(rid) if rid in REGISTRY else None

        def rank(r: dict) -> tuple:  # the best record, then the standings' own measure (push level, TV grade)
            return ((r["wins"], -r["losses"]), known.contender_key(r) if known else ())

        best_rank = max(rank(r) for r in played)
        best = best_rank[0]
        winners = sorted((r for r in played if rank(r) == best_rank), key=lambda r: r["name"].casefold())
        out.append({"award": "Wrestler of the season", "ruleset": rid, "winners": [{"wrestler_id": r["wrestler_id"], "name": r["name"]} for r in winners],
                    "why": f"{_count(best[0], 'win')}, {_count(-best[1], 'loss')}", "match": None})
    for section in archive["records"]["sections"]:
        rid = section["ruleset"]
        if rid is None:
            continue
        best_matches = section["records"]["best_matches"]
        if best_matches:
            top = best_matches[0]
            out.append({"award": "Match of the season", "ruleset": rid, "winners": [],
                        "why": f"week {top['week']} {top['match']}: {' vs. '.join(top['sides'])}, {top['stars']:g} stars", "match": top})
        streaks = section["records"]["win_streaks"]
        if streaks:
            top = streaks[0]["wins"]
            holders = [s for s in streaks if s["wins"] == top]
            out.append({"award": "Longest win streak", "ruleset": rid, "winners": [{"wrestler_id": s["wrestler_id"], "name": s["name"]} for s in holders],
                        "why": f"{top} wins in a row", "match": None})
    order = {"Wrestler of the season": 0, "Match of the season": 1, "Longest win streak": 2}
    return sorted(out, key=lambda a: (ruleset_order(a["ruleset"]), a["ruleset"], order[a["award"]]))


def reopen_season(db: Database) -> str:
    """Take back the latest close, while no week after it has been run: its archive and
    carry-over are dropped and its weeks may be run again."""
    closed = closed_seasons(db)
    if not closed:
        raise FedError(Problem(None, None, "no season has been closed", f"{RULE} reopen"))
    season = closed[-1]
    later = db.execute("SELECT MIN(week) FROM weeks WHERE week > ?", [season["last_week"]]).fetchone()[0]
    if later is not None:
        raise FedError(Problem(None, None, f"week {later} has been run since {season['name']} closed: the next season is under way "
                               "(restore a snapshot from before it to go back: fedtool restore)", f"{RULE} reopen"))
    with db.atomic():
        db.execute("DELETE FROM season_states WHERE season = ?", [season["season"]])
        db.execute("DELETE FROM seasons WHERE season = ?", [season["season"]])
    return f"{season['name']} (weeks {season['first_week']}-{season['last_week']}) reopened: its archive and carry-over are gone"


def season_archive(db: Database, number: int) -> dict:
    """A closed season's archive as stored at its close, with when it closed."""
    rows = list(db["seasons"].rows_where("season = ?", [number])) if db["seasons"].exists() else []
    if not rows:
        known = ", ".join(str(s["season"]) for s in closed_seasons(db)) or "none has been closed"
        raise FedError(Problem(None, None, f"season {number} has not been closed (closed seasons: {known})", f"{RULE} show"))
    return dict(json.loads(rows[0]["archive"]), closed_at=rows[0]["closed_at"])


__all__ = ["close_season", "reopen_season", "season_archive", "closed_seasons", "current_season", "check_week_runnable", "STATE_KEYS"]


def _count(n: int, word: str) -> str:
    """'1 win', '2 wins', '1 loss', '0 losses'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('s') else 's'}"


def _record_book(fed: Fed, db: Any, weeks: tuple[int, int]) -> Any:
    """The season's record book (fedtool.league.recordbook, imported here: a week's run checks
    the season but never closes it, issue 18)."""
    from .recordbook import record_book

    return record_book(fed, db, weeks=weeks)
