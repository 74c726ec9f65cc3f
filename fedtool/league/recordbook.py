"""The league's record book: longest and most reigns, most defences, win streaks,
head-to-head, biggest upsets and the best-rated matches, all time or over some weeks (a
season), for every ruleset together and for each (`fedtool records`, the site's records
page, a season's archive).

Everything is read from the league and the fed's settings and returned as plain,
JSON-able dicts (`fedtool records --json` prints exactly this). Each list holds at most
`TOP` entries, best first; ties keep the earlier (week, then card order, then name).

How each record is counted (README, "Seasons, records and the hall of fame"):
- a reign's weeks and defences as `fedtool titles` counts them; over a season, a reign
  counts if it stood in one of its weeks, its weeks cut to the season's and its defences
  those made in the season;
- a win streak: two wins or more in a row in a wrestler's own matches, in week and card
  order (a draw or a loss ends it);
- head-to-head: every pair of opponents (as their ruleset counts them: a tag partner is
  no opponent) who met at least twice, with each one's wins;
- an upset: a win over a side with the higher standing going into the week, by the
  ruleset's own measure of a number-one contender (`Ruleset.contender_key`: push level
  and points in MatchMatch, TV grade in Face to the Mat, wins in Mat Clash); the gap is
  the difference in its first figure (push levels, TV grades, wins);
- the best-rated matches: the stars each match was given when it was run (docs/ratings.md).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.rulesets import REGISTRY, check_ruleset, get_ruleset, ruleset_order

from .db import read_summary, states_streamed, states_through, stored_stars
from .records import _names, _sheet, titles as league_titles

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database

TOP = 10
CATEGORIES = ("longest_reigns", "most_reigns", "most_defences", "win_streaks", "head_to_head", "upsets", "best_matches")
HEADINGS = {
    "longest_reigns": "Longest reigns",
    "most_reigns": "Most reigns",
    "most_defences": "Most defences in a reign",
    "win_streaks": "Longest win streaks",
    "head_to_head": "Head to head",
    "upsets": "Biggest upsets",
    "best_matches": "Best-rated matches",
}


def record_book(fed: Fed, db: Database, weeks: tuple[int, int] | None = None, ruleset: str | None = None) -> dict[str, Any]:
    """The record book: {"weeks": [first, last] | None (all time), "sections": [{"ruleset":
    None (every ruleset) or an id, "records": {category: [entries]}}]}: the first section
    covers every ruleset, then one per ruleset the league has played, in the registry's
    order. With `ruleset`, that ruleset's section only."""
    if ruleset is not None:
        check_ruleset(ruleset, (None, "--ruleset"))
    low, high = weeks or (-(1 << 30), 1 << 30)
    names = _names(fed, db)
    matches = _matches(db, low, high)
    reigns = _reigns(fed, db, low, high, names)
    upsets = _upsets(fed, db, matches, names)
    used = sorted({m["ruleset"] for m in matches} | {r["ruleset"] for r in reigns}, key=lambda r: (ruleset_order(r), r))
    scopes = [ruleset] if ruleset is not None else [None, *used]
    sections = []
    for scope in scopes:
        mine = [m for m in matches if scope is None or m["ruleset"] == scope]
        held = [r for r in reigns if scope is None or r["ruleset"] == scope]
        sections.append({
            "ruleset": scope,
            "records": {
                **_reign_records(held),
                "win_streaks": _win_streaks(mine, names),
                "head_to_head": _head_to_head(mine, names),
                "upsets": [u for u in upsets if scope is None or u["ruleset"] == scope][:TOP],
                "best_matches": _best_matches(mine, names),
            },
        })
    return {"weeks": list(weeks) if weeks else None, "sections": sections}


def record_book_streamed(fed: Fed, db: Database, weeks: tuple[int, int] | None = None, ruleset: str | None = None,
                         upsets: dict | None = None, salt: str = "") -> dict[str, Any]:
    """`record_book`, the same book, with the league's matches and states read as a stream
    (issue 18, the site): each record is kept as the matches go by, week by week, so what it
    holds grows with the wrestlers (and the title reigns), not with the weeks. Head-to-head
    counts only the pairs SQL finds together in two matches or more (`_pairs_met_twice`);
    the upsets, win streaks and best matches keep their leaders only.

    `upsets`, when given, is what an earlier call kept of the upsets (`_UpsetBook`), and is
    refilled with this call's: a later call whose weeks up to the ones it kept are the same
    (every run week's number, time and run, the closed seasons, and `salt`: what else the
    upsets are made from, the caller's digest of the roster sheets and fedtool's code)
    starts from it."""
    book = RecordBook(fed, db, weeks, upsets, salt)
    for week_matches in _week_matches(db, *book.span):
        book.add(week_matches)
    return book.book(ruleset)


class RecordBook:
    """`record_book_streamed`, fed a week's matches at a time by the caller (the site, which reads
    them for its pages anyway): `add` each week's, in week order, each match as `_matches`
    makes it; then `book`."""

    def __init__(self, fed: Fed, db: Database, weeks: tuple[int, int] | None = None, upsets: dict | None = None, salt: str = ""):
        self.fed, self.db, self.weeks, self.salt = fed, db, weeks, salt
        self.span = weeks or (-(1 << 30), 1 << 30)
        self.names = _names(fed, db)
        self.candidates = _pairs_met_twice(db, *self.span)
        self.books: dict[str | None, _Book] = {}
        self.upsets = _UpsetBook(fed, db, self.names, upsets, salt)

    def add(self, week_matches: list[dict]) -> None:
        if not week_matches:
            return
        self.upsets.week(week_matches)
        for m in week_matches:
            for scope in (None, m["ruleset"]):
                book = self.books.get(scope)
                if book is None:
                    book = self.books[scope] = _Book(self.names, self.candidates)
                book.add(m)

    def book(self, ruleset: str | None = None) -> dict[str, Any]:
        if ruleset is not None:
            check_ruleset(ruleset, (None, "--ruleset"))
        reigns = _reigns(self.fed, self.db, *self.span, self.names)
        used = sorted({r for r in self.books if r is not None} | {r["ruleset"] for r in reigns}, key=lambda r: (ruleset_order(r), r))
        scopes = [ruleset] if ruleset is not None else [None, *used]
        found = self.upsets.result()
        sections = []
        for scope in scopes:
            book = self.books.get(scope) or _Book(self.names, self.candidates)
            held = [r for r in reigns if scope is None or r["ruleset"] == scope]
            sections.append({
                "ruleset": scope,
                "records": {
                    **_reign_records(held),
                    "win_streaks": book.win_streaks(),
                    "head_to_head": book.head_to_head(),
                    "upsets": [u for u in found if scope is None or u["ruleset"] == scope][:TOP],
                    "best_matches": book.best_matches(),
                },
            })
        return {"weeks": list(self.weeks) if self.weeks else None, "sections": sections}


def _week_matches(db: Database, low: int, high: int):
    """Each week's matches (as `_matches` makes them), week by week, from one stream of rows."""
    rows = db.execute(
        "SELECT m.id, m.week, m.match, m.ruleset, m.title, m.winner, m.method, m.summary, s.wrestler_id, s.outcome "
        "FROM matches m LEFT JOIN match_sides s ON s.match_id = m.id WHERE m.week BETWEEN ? AND ? ORDER BY m.week, m.position, m.id, s.side",
        [low, high])
    week_matches: list[dict] = []
    match = None
    for mid, week, short, ruleset, title, winner, method, summary, wid, outcome in rows:
        if match is None or mid != match["id"]:
            if week_matches and week != week_matches[0]["week"]:
                yield week_matches
                week_matches = []
            match = {"id": mid, "week": week, "match": short, "ruleset": ruleset, "card_title": title or None, "winner": winner, "method": method,
                     "sides": [], "rating": stored_stars(read_summary(summary).get("rating"))}
            week_matches.append(match)
        if wid is not None:
            match["sides"].append((wid, outcome))
    if week_matches:
        yield week_matches


def _pairs_met_twice(db: Database, low: int, high: int) -> set[tuple[str, str]]:
    """The pairs of wrestlers (in id order) who were in two matches or more together in the weeks: SQL counts them."""
    return {(a, b) for a, b in db.execute(
        "SELECT a.wrestler_id, b.wrestler_id FROM match_sides a JOIN match_sides b ON b.match_id = a.match_id AND a.wrestler_id < b.wrestler_id "
        "JOIN matches m ON m.id = a.match_id WHERE m.week BETWEEN ? AND ? GROUP BY a.wrestler_id, b.wrestler_id HAVING COUNT(DISTINCT a.match_id) >= 2",
        [low, high])}


class _Book:
    """One section's win streaks, head-to-head and best matches, kept as the matches go by
    (what `_win_streaks`, `_head_to_head` and `_best_matches` make of the whole list)."""

    def __init__(self, names: dict[str, str], candidates: set[tuple[str, str]]):
        self.names, self.candidates = names, candidates
        self.running: dict[str, dict] = {}
        self.best: dict[str, dict] = {}
        self.pairs: dict[tuple[str, str], dict] = {}
        self.rated: list[tuple[float, int, dict]] = []  # the best TOP so far: (-stars, order, match)
        self.seen = 0

    def add(self, m: dict) -> None:
        names = self.names
        for wid, outcome in m["sides"]:
            if outcome == "win":
                run = self.running.setdefault(wid, {"wrestler_id": wid, "name": names.get(wid, wid), "ruleset": m["ruleset"], "wins": 0, "from_week": m["week"]})
                run["wins"] += 1
                run["to_week"] = m["week"]
                if run["wins"] > self.best.get(wid, {}).get("wins", 0):
                    self.best[wid] = dict(run)
            else:
                self.running.pop(wid, None)
        ids = [wid for wid, _ in m["sides"]]
        outcome = dict(m["sides"])
        for wid in ids:
            for other in _opponents(m["ruleset"], ids, wid):
                if wid < other and (wid, other) in self.candidates:
                    _meeting(self.pairs, m, wid, other, outcome, names)
        if m["rating"] is not None:
            self.seen += 1
            self.rated.append((-m["rating"], self.seen, m))
            if len(self.rated) > TOP:
                self.rated.sort(key=lambda r: r[:2])
                del self.rated[TOP:]

    def win_streaks(self) -> list[dict]:
        for wid, run in self.running.items():
            if self.best.get(wid) == run:
                self.best[wid]["current"] = True
        rows = [dict(run, current=bool(run.get("current"))) for run in self.best.values() if run["wins"] >= 2]
        return sorted(rows, key=lambda r: (-r["wins"], r["from_week"], r["name"].casefold()))[:TOP]

    def head_to_head(self) -> list[dict]:
        rows = [p for p in self.pairs.values() if p["meetings"] >= 2]
        return sorted(rows, key=lambda p: (-p["meetings"], -abs(p["a_wins"] - p["b_wins"]), p["a_name"].casefold(), p["b_name"].casefold()))[:TOP]

    def best_matches(self) -> list[dict]:
        return _best_matches([m for _, _, m in sorted(self.rated, key=lambda r: r[:2])], self.names)


class _UpsetBook:
    """`_upsets`, week by week: the states going into each week (`states_streamed`) and each
    side's record so far; keeps the biggest TOP upsets of every ruleset (and so of them all).

    With a `cache` (`record_book_streamed`'s `upsets`): what it kept, and through which week,
    is put in it at the end; a later call whose weeks up to that one are the same (their key:
    `_chain`) starts from it and looks for upsets only in the weeks after."""

    def __init__(self, fed: Fed, db: Database, names: dict[str, str], cache: dict | None = None, salt: str = ""):
        self.fed, self.db, self.names = fed, db, names
        self.starts: dict[str, dict] = {}
        self.record: dict[str, dict] = defaultdict(lambda: {"wins": 0, "losses": 0})
        self.states = None
        self.kept: dict[str, list[list]] = defaultdict(list)  # ruleset -> its biggest: [-gap, order, upset (no names)]
        self.seen = 0
        self.weeks = _Feed()
        self.last = None
        self.cache, self.salt, self.through = cache, salt, None
        if cache is not None:
            # each run week, its time and its latest run: a week rerun, undone or restored away changes its key
            self.runs = db.execute("SELECT w.week, w.ran_at, (SELECT MAX(run) FROM week_runs r WHERE r.week = w.week) FROM weeks w ORDER BY w.week").fetchall()
            self.seasons = db.execute("SELECT season, last_week, closed_at FROM seasons ORDER BY season").fetchall() if db["seasons"].exists() else []
            through, kept = cache.get("through"), cache.get("kept")
            if type(through) is int and cache.get("key") == self._chain(through) and type(cache.get("seen")) is int and _kept_ok(kept):
                self.through, self.seen = through, cache["seen"]
                self.kept.update({ruleset: [list(u) for u in upsets] for ruleset, upsets in kept.items()})

    def _chain(self, through: int) -> str:
        """The key of the weeks up to `through`: every run week's number, time and run, the closed seasons, the salt."""
        return hashlib.sha256(json.dumps([self.salt, self.seasons, [list(r) for r in self.runs if r[0] <= through]]).encode()).hexdigest()

    def week(self, matches: list[dict]) -> None:
        week = matches[0]["week"]
        self.last = week
        if self.states is None:  # the record going into the first week counted: every match before it
            for wid, outcome in self.db.execute("SELECT s.wrestler_id, s.outcome FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE m.week < ?", [week]):
                if outcome in ("win", "loss"):
                    self.record[wid][outcome + ("es" if outcome == "loss" else "s")] += 1
            self.states = states_streamed(self.db, self.weeks)
        self.weeks.put(week)
        _, states = next(self.states)
        record = self.record
        if self.through is None or week > self.through:  # a week the cache holds nothing of
            found: list[dict] = []
            for m in matches:
                self._upset(m, states, found)
            for upset in found:
                self.seen += 1
                kept = self.kept[upset["ruleset"]]
                kept.append([-upset["gap"], self.seen, upset])
                if len(kept) > TOP:
                    kept.sort(key=lambda u: u[:2])
                    del kept[TOP:]
        for m in matches:
            for wid, outcome in m["sides"]:
                if outcome in ("win", "loss"):
                    record[wid]["wins" if outcome == "win" else "losses"] += 1

    def _upset(self, m: dict, states, found: list) -> None:
        """The match's upset, if it is one, added to `found` (its names added by `result`)."""
        upset = _upset_of(self.fed, m, states, self.record, self.starts)
        if upset is not None:
            found.append(upset)

    def result(self) -> list[dict]:
        """Every ruleset's biggest upsets, biggest gap first (equal gaps in week order): the first TOP of any ruleset, or of them all, are in it."""
        if self.cache is not None:
            self.cache.clear()
            if self.last is not None:
                through = max(self.last, self.through or self.last)
                self.cache.update({"through": through, "key": self._chain(through), "seen": self.seen, "kept": dict(self.kept)})
        names = self.names
        return [_named(u, names) for _, _, u in sorted((u for kept in self.kept.values() for u in kept), key=lambda u: u[:2])]


def _kept_ok(kept) -> bool:
    """Whether a cached `_UpsetBook.kept` reads as one."""
    return isinstance(kept, dict) and all(
        isinstance(upsets, list) and all(isinstance(u, list) and len(u) == 3 and isinstance(u[0], (int, float)) and type(u[1]) is int and isinstance(u[2], dict)
                                         and {"week", "match", "ruleset", "winner", "beaten", "method", "gap", "measure"} <= u[2].keys() for u in upsets)
        for upsets in kept.values())


class _Feed:
    """The weeks `_UpsetBook` hands `states_streamed` one at a time, as it comes to them."""

    def __init__(self):
        self.next: int | None = None

    def put(self, week: int) -> None:
        self.next = week

    def __iter__(self):
        return self

    def __next__(self) -> int:
        week, self.next = self.next, None
        if week is None:
            raise StopIteration
        return week


# ---------------------------------------------------------------- reading


def _matches(db: Database, low: int, high: int) -> list[dict]:
    """Every match of the weeks, in week and card order: its sides and outcomes, winner, rating."""
    sides: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for match_id, wid, outcome in db.execute(
            "SELECT s.match_id, s.wrestler_id, s.outcome FROM match_sides s JOIN matches m ON m.id = s.match_id "
            "WHERE m.week BETWEEN ? AND ? ORDER BY s.match_id, s.side", [low, high]).fetchall():
        sides[match_id].append((wid, outcome))
    out = []
    for mid, week, match, ruleset, title, winner, method, summary in db.execute(
            "SELECT id, week, match, ruleset, title, winner, method, summary FROM matches WHERE week BETWEEN ? AND ? ORDER BY week, position",
            [low, high]).fetchall():
        out.append({"id": mid, "week": week, "match": match, "ruleset": ruleset, "card_title": title or None, "winner": winner, "method": method,
                    "sides": sides.get(mid, []), "rating": stored_stars(read_summary(summary).get("rating"))})
    return out


def _reigns(fed: Fed, db: Database, low: int, high: int, names: dict[str, str]) -> list[dict]:
    """Every title reign that stood in the weeks, its weeks and defences cut to them."""
    defended: dict[tuple[str, str], list[int]] = defaultdict(list)
    for title_id, holder, week in db.execute("SELECT title_id, holder_before, week FROM title_matches WHERE result = 'defended'").fetchall():
        defended[(title_id, holder)].append(week)
    latest = db.execute("SELECT MAX(week) FROM weeks").fetchone()[0] or 0
    out = []
    for title in league_titles(fed, db):
        for reign in title["reigns"]:
            start = reign["won_week"]
            end = reign["lost_week"] if reign["lost_week"] is not None else max(latest, start)
            # a season's weeks low..high span, in a reign's terms, from the end of week low - 1
            # (a first holder's reign begins at week 0, before week 1) to the end of week high
            first, last = max(start, low - 1), min(end, high)
            if end < low or start > high:
                continue  # the reign stood in none of the weeks
            whole = low - 1 <= start and end <= high
            defences = [w for w in defended.get((title["id"], reign["wrestler_id"]), []) if max(start, low) <= w <= last]
            out.append({
                "title_id": title["id"], "title": title["name"], "ruleset": title["ruleset"],
                "wrestler_id": reign["wrestler_id"], "name": names.get(reign["wrestler_id"], reign["wrestler_id"]),
                "won_week": start, "lost_week": reign["lost_week"], "current": reign["lost_week"] is None,
                "weeks": reign["weeks"] if whole else last - first, "defences": reign["defences"] if whole else len(defences),
            })
    return out


def _reign_records(held: list[dict]) -> dict[str, list]:
    """A section's title records from its reigns: the longest, the most reigns, the most defences."""
    return {"longest_reigns": sorted(held, key=lambda r: (-r["weeks"], r["won_week"], r["name"].casefold()))[:TOP],
            "most_reigns": _most_reigns(held),
            "most_defences": [r for r in sorted(held, key=lambda r: (-r["defences"], r["won_week"], r["name"].casefold())) if r["defences"]][:TOP]}


def _most_reigns(reigns: list[dict]) -> list[dict]:
    count: dict[str, list[dict]] = defaultdict(list)
    for reign in reigns:
        count[reign["wrestler_id"]].append(reign)
    rows = [{"wrestler_id": wid, "name": rs[0]["name"], "reigns": len(rs), "titles": sorted({r["title"] for r in rs}),
             "weeks": sum(r["weeks"] for r in rs), "defences": sum(r["defences"] for r in rs)} for wid, rs in count.items()]
    return sorted(rows, key=lambda r: (-r["reigns"], -r["weeks"], r["name"].casefold()))[:TOP]


def _opponents(ruleset_id: str, sides: list[str], wid: str) -> list[str]:
    if ruleset_id in REGISTRY:
        return get_ruleset(ruleset_id).opponents(sides, wid)
    return [s for s in sides if s != wid]


def _win_streaks(matches: list[dict], names: dict[str, str]) -> list[dict]:
    """Each wrestler's longest run of wins (the earliest of equal runs), longest first."""
    running: dict[str, dict] = {}
    best: dict[str, dict] = {}
    for m in matches:
        for wid, outcome in m["sides"]:
            if outcome == "win":
                run = running.setdefault(wid, {"wrestler_id": wid, "name": names.get(wid, wid), "ruleset": m["ruleset"], "wins": 0, "from_week": m["week"]})
                run["wins"] += 1
                run["to_week"] = m["week"]
                if run["wins"] > best.get(wid, {}).get("wins", 0):
                    best[wid] = dict(run)
            else:
                running.pop(wid, None)
    for wid, run in running.items():
        if best.get(wid) == run:
            best[wid]["current"] = True
    rows = [dict(run, current=bool(run.get("current"))) for run in best.values() if run["wins"] >= 2]
    return sorted(rows, key=lambda r: (-r["wins"], r["from_week"], r["name"].casefold()))[:TOP]


def _head_to_head(matches: list[dict], names: dict[str, str]) -> list[dict]:
    """Pairs of opponents who met at least twice: meetings and each one's wins, most meetings first."""
    pairs: dict[tuple[str, str], dict] = {}
    for m in matches:
        ids = [wid for wid, _ in m["sides"]]
        outcome = dict(m["sides"])
        for wid in ids:
            for other in _opponents(m["ruleset"], ids, wid):
                if wid < other:
                    _meeting(pairs, m, wid, other, outcome, names)
    rows = [p for p in pairs.values() if p["meetings"] >= 2]
    return sorted(rows, key=lambda p: (-p["meetings"], -abs(p["a_wins"] - p["b_wins"]), p["a_name"].casefold(), p["b_name"].casefold()))[:TOP]


def _best_matches(matches: list[dict], names: dict[str, str]) -> list[dict]:
    rated = [m for m in matches if m["rating"] is not None]
    rows = [{"week": m["week"], "match": m["match"], "ruleset": m["ruleset"], "stars": m["rating"], "card_title": m["card_title"],
             "sides": [names.get(wid, wid) for wid, _ in m["sides"]], "winner": names.get(m["winner"]) if m["winner"] else None, "method": m["method"]}
            for m in rated]
    return sorted(rows, key=lambda r: -r["stars"])[:TOP]  # a stable sort: equal stars keep week and card order


def _upsets(fed: Fed, db: Database, matches: list[dict], names: dict[str, str]) -> list[dict]:
    """Wins over a side standing higher going into the week (`Ruleset.contender_key`), biggest gap first."""
    starts: dict[str, dict] = {}
    record: dict[str, dict] = defaultdict(lambda: {"wins": 0, "losses": 0})
    # the record going into the first week counted: every match before it
    first = matches[0]["week"] if matches else 0
    for wid, outcome in db.execute("SELECT s.wrestler_id, s.outcome FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE m.week < ?", [first]).fetchall():
        if outcome in ("win", "loss"):
            record[wid][outcome + ("es" if outcome == "loss" else "s")] += 1
    out = []
    by_week: dict[int, list[dict]] = defaultdict(list)
    for m in matches:
        by_week[m["week"]].append(m)
    for week, states in states_through(db, sorted(by_week)):  # the league's states read once, not once a week
        for m in by_week[week]:
            upset = _upset_of(fed, m, states, record, starts)
            if upset is not None:
                out.append(_named(upset, names))
        for m in by_week[week]:
            for wid, outcome in m["sides"]:
                if outcome in ("win", "loss"):
                    record[wid]["wins" if outcome == "win" else "losses"] += 1
    return sorted(out, key=lambda u: -u["gap"])  # stable: equal gaps keep week order


def _upset_of(fed: Fed, m: dict, states: dict, record: dict, starts: dict) -> dict | None:
    """The match `m` as an upset (its winner beat a side standing higher going into the week,
    by `Ruleset.contender_key`), or None."""
    known = get_ruleset(m["ruleset"]) if m["ruleset"] in REGISTRY else None
    ids = [wid for wid, _ in m["sides"]]
    if known is None or m["winner"] not in ids:
        return None
    key = {wid: _key(fed, known, wid, states, record[wid], starts) for wid in ids}
    beaten = [o for o in _opponents(m["ruleset"], ids, m["winner"]) if key[o] is not None]
    if key[m["winner"]] is None or not beaten:
        return None
    favourite = max(beaten, key=lambda o: key[o])
    gap = key[favourite][0] - key[m["winner"]][0]
    if key[favourite] > key[m["winner"]] and gap > 0:
        return {"week": m["week"], "match": m["match"], "ruleset": m["ruleset"], "winner": m["winner"], "beaten": favourite,
                "method": m["method"], "gap": _number(gap), "measure": _measure(known)}
    return None


def _named(u: dict, names: dict[str, str]) -> dict:
    """An upset as the record book shows it: the winner's and the beaten side's names beside their ids."""
    return {"week": u["week"], "match": u["match"], "ruleset": u["ruleset"], "winner": u["winner"], "winner_name": names.get(u["winner"], u["winner"]),
            "beaten": u["beaten"], "beaten_name": names.get(u["beaten"], u["beaten"]), "method": u["method"], "gap": u["gap"], "measure": u["measure"]}


def _meeting(pairs: dict, m: dict, wid: str, other: str, outcome: dict[str, str], names: dict[str, str]) -> None:
    """The rivalry of `wid` and `other` (wid < other) counts match `m`."""
    pair = pairs.setdefault((wid, other), {"a": wid, "a_name": names.get(wid, wid), "b": other, "b_name": names.get(other, other),
                                           "ruleset": m["ruleset"], "meetings": 0, "a_wins": 0, "b_wins": 0, "other": 0, "last_week": m["week"]})
    pair["meetings"] += 1
    pair["last_week"] = m["week"]
    if outcome[wid] == "win":
        pair["a_wins"] += 1
    elif outcome[other] == "win":
        pair["b_wins"] += 1
    else:
        pair["other"] += 1  # a draw, or a match the two of them lost to a third


def _key(fed: Fed, ruleset, wid: str, states: dict, record: dict, starts: dict) -> tuple | None:
    """The ruleset's contender key of a side going into the week: its league state (or its sheet's) and record."""
    if wid not in starts:
        try:
            starts[wid] = ruleset.initial_state(_sheet(fed, wid)) if wid in fed.roster_files else {}
        except (FedError, NotImplementedError):
            starts[wid] = {}
    state = {**starts[wid], **states.get(wid, {})}
    row = {"wins": record["wins"], "losses": record["losses"], "push_level": state.get("push_level"), "push_points": str(state.get("push_points") or 0),
           "tv_grade": state.get("tv_grade"), "injury": state.get("injury"), "match_points": 0}
    try:
        return tuple(k if type(k) is Fraction else Fraction(k) if not isinstance(k, tuple) else k for k in ruleset.contender_key(row))
    except (KeyError, TypeError, ValueError):
        return None


def _number(value: Fraction) -> int | float:
    return int(value) if value == int(value) else float(value)


def _measure(ruleset) -> str:
    """What an upset's gap counts, in words."""
    return {"matchmatch": "push levels", "facemat": "TV grades"}.get(ruleset.id, "wins")


def hall_of_fame(db: Database) -> list[dict]:
    """Everyone honoured in a closed season's archive (fedtool.league.seasons): a champion
    at its close or the winner of one of its awards. Most honours first, then by name."""
    inducted: dict[str, dict] = {}
    if not db["seasons"].exists():
        return []
    for row in db["seasons"].rows_where(order_by="season"):
        archive = json.loads(row["archive"] or "{}")
        for champ in archive.get("champions", []):
            if champ.get("holder"):
                entry = inducted.setdefault(champ["holder"], {"wrestler_id": champ["holder"], "name": champ.get("holder_name") or champ["holder"], "honours": []})
                entry["honours"].append({"season": row["season"], "season_name": row["name"], "honour": f"{champ['name']} champion at the close"})
        for award in archive.get("awards", []):
            for winner in award.get("winners", []):
                if winner.get("wrestler_id"):
                    entry = inducted.setdefault(winner["wrestler_id"], {"wrestler_id": winner["wrestler_id"], "name": winner.get("name") or winner["wrestler_id"], "honours": []})
                    entry["honours"].append({"season": row["season"], "season_name": row["name"], "honour": award["award"]})
    return sorted(inducted.values(), key=lambda e: (-len(e["honours"]), e["name"].casefold(), e["wrestler_id"]))
