"""The league's records: titles and their lineage, standings, each wrestler's history.

Everything here reads the league (fed.db) and the fed's settings and returns plain,
JSON-able dicts and lists: `fedtool titles/standings/history --json` print exactly
these, and `fedtool site` renders them.

What a ruleset shows (its finishes, divisions, contenders, standings columns) comes from
its hooks (fedtool.rulesets.base). Titles are defined in rosters/fed.yaml (`titles:`) and
checked against their rulesets where they are used (`check_title_settings`). A card match
names the title it is for (`for_title:`); the run decides it by the title's rule (by default every finish but
a DQ or a count-out changes hands) and records it in `title_matches`, a week table that
`--rerun` undoes. The fedhead's vacate and award rulings (`fedtool title vacate/award`)
sit in `title_rulings`, effective after the latest run week; a rerun of that week keeps
them and plays them after the week's matches again (docs/rulings/matchmatch.md, Titles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fedtool.fed.settings import Fed
from fedtool.kernel import checked
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place
from fedtool.rulesets import REGISTRY, all_rulesets, check_ruleset, get_ruleset, ruleset_order
from fedtool.rulesets.base import Ruleset

from .away import RECORDS, player_records, wrestler_records
from .db import read_summary, states_before
from .sheets import read_roster_sheet
from fedtool.kernel.yamlio import read_text

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database

    from fedtool.fed.card import Card
    from fedtool.fed.models import TitleSettings

RULE = "fed settings: titles"
NEVER_BY_DEFAULT = ("dq", "countout")  # "as in wrestling": the title does not change on these


# ---------------------------------------------------------------- the contract


def standings(fed: Fed, db: Database, ruleset: str | None = None, weeks: tuple[int, int] | None = None,
              states: dict[str, dict] | None = None) -> list[dict[str, Any]]:
    """The standings, one table per ruleset and division, in a stable order.

    Each entry: {"ruleset": str, "division": str | None,
    "rows": [{"wrestler_id", "name", "wins", "losses", "draws", "streak" ("W3", "L1",
    "D1" or ""), "push_level", "push_points" (str), "tv_grade", "injury",
    "left_town" (bool), ...ruleset extras (Mat Clash: "match_points", "falls")}], best first,
    "contenders": [wrestler_id, ...]}: the number-one contenders, by push level and points
    (MatchMatch), TV grade (Face to the Mat) or wins (Mat Clash); title holders and
    wrestlers who left town are not contenders; ties are all listed.

    Order: rulesets as registered (MatchMatch, Mat Clash, Face to the Mat), MatchMatch
    divisions light-heavyweight, heavyweight, superheavyweight, then tag teams. Rows: the
    contender key first (as above), then wins, fewer losses, name; wrestlers who left
    town come last. With `ruleset`, only that ruleset's tables. With `weeks` (first, last),
    the record and streak count only the matches of those weeks (a season, fedtool.league.seasons).
    `states`: the league's states now (`states_before(db, 1 << 30)`) when the caller has read
    them already (the site), else read here; only read, never changed.

    Strategies (issue 12, fedtool.league.away): each row's "strategies" is {"on_time",
    "late", "missing", "away"}, counted over the wrestler's own sides in run weeks; each
    table's "players" lists the owners of its wrestlers who have a record, by name, each
    {"name", "on_time", "late", "missing", "away"} over all his sides.
    """
    if ruleset is not None:
        check_ruleset(ruleset, (None, "--ruleset"))
    key = _roster_key(fed)
    known = _known_roster(key, fed)
    league = _League.read(fed, db, weeks, states, known)
    holders: dict[str, set[str]] = {}  # ruleset -> who holds one of its titles
    for title in (_checked_lineages(fed, db) if known is None else _lineages(fed, db)).values():
        if title.holder:
            holders.setdefault(title.settings_ruleset, set()).add(title.holder)
    if known is None:  # every sheet and the titles checked good: the next standings of these files need not check them again
        _remember_roster(key, fed, league.facts)
    tables: dict[tuple[str, str | None], list[dict]] = {}
    sent = wrestler_records(db)  # issue 12: each wrestler's strategies, on time, late, missing, away
    for wid, member in league.members.items():
        if wid not in fed.roster_files:
            continue  # retired (rosters/retired/), or his sheet removed: out of the standings and the contenders, his history kept (issue 19)
        row = _standing_row(league, wid, member)
        row["strategies"] = sent.get(wid, {key: 0 for key in RECORDS})
        tables.setdefault((member.ruleset, member.division), []).append(row)
    return _standing_tables(db, tables, holders, ruleset)


def _standing_tables(db: Database, tables: dict[tuple[str, str | None], list[dict]], holders: dict[str, set[str]],
                     ruleset: str | None) -> list[dict[str, Any]]:
    """`standings`' tables from each (ruleset, division)'s rows: sorted, with the number-one
    contenders (champions and wrestlers who left town aside) and the players' records."""
    players = player_records(db)
    owner_of = {row["wrestler_id"]: (row["owner_email"] or "").strip().lower() for row in db["owners"].rows}
    out = []
    for (table_ruleset, division) in sorted(tables, key=_table_order):
        if ruleset is not None and table_ruleset != ruleset:
            continue
        rows = sorted(tables[(table_ruleset, division)], key=lambda r: _row_order(table_ruleset, r))
        eligible = [r for r in rows if not r["left_town"] and r["wrestler_id"] not in holders.get(table_ruleset, set())]
        contenders = []
        if eligible:
            best = _contender_key(table_ruleset, eligible[0])
            contenders = [r["wrestler_id"] for r in eligible if _contender_key(table_ruleset, r) == best]
        owners = {owner_of.get(r["wrestler_id"]) for r in rows} & set(players)
        table_players = sorted(({"name": players[a]["name"], **{k: players[a][k] for k in RECORDS}} for a in owners), key=lambda p: (p["name"].lower(), p["name"]))
        out.append({"ruleset": table_ruleset, "division": division, "rows": rows, "contenders": contenders, "players": table_players})
    return out


def standings_streamed(fed: Fed, db: Database, ruleset: str | None = None, weeks: tuple[int, int] | None = None,
                       states: dict[str, dict] | None = None) -> list[dict[str, Any]]:
    """`standings`, the same tables, with the league's matches read as a stream (issue 18, the
    site): each wrestler's record and streak are counted as the rows go by, so what it holds
    grows with the wrestlers, not the weeks. Only a wrestler whose ruleset has standing
    extras (`Ruleset.standing_extras`: Mat Clash) has his own matches read, by himself."""
    if ruleset is not None:
        check_ruleset(ruleset, (None, "--ruleset"))
    members = _read_members(fed, db, states)
    low, high = weeks or (-(1 << 30), 1 << 30)
    counts: dict[str, list] = {}  # wrestler -> [wins, losses, draws, last outcome, how many in a row]
    for wid, outcome in db.execute("SELECT s.wrestler_id, s.outcome FROM match_sides s JOIN matches m ON m.id = s.match_id "
                                   "WHERE m.week BETWEEN ? AND ? ORDER BY m.week, m.position, s.side", [low, high]):
        count = counts.get(wid)
        if count is None:
            count = counts[wid] = [0, 0, 0, outcome, 0]
        count[0 if outcome == "win" else 1 if outcome == "loss" else 2] += 1
        if outcome == count[3]:
            count[4] += 1
        else:
            count[3], count[4] = outcome, 1
    holders: dict[str, set[str]] = {}
    for title in _checked_lineages(fed, db).values():
        if title.holder:
            holders.setdefault(title.settings_ruleset, set()).add(title.holder)
    tables: dict[tuple[str, str | None], list[dict]] = {}
    sent = wrestler_records(db)
    for wid, member in members.items():
        if wid not in fed.roster_files:
            continue
        count = counts.get(wid)
        record = {"wins": 0, "losses": 0, "draws": 0, "streak": ""}
        if count is not None:
            record = {"wins": count[0], "losses": count[1], "draws": count[2], "streak": f"{ {'win': 'W', 'loss': 'L'}.get(count[3], 'D')}{count[4]}"}
        state = member.state
        points = state.get("push_points")
        row = {"wrestler_id": wid, "name": member.name, **record, "push_level": state.get("push_level"),
               "push_points": str(points) if points is not None else None, "tv_grade": state.get("tv_grade"),
               "injury": state.get("injury"), "left_town": bool(state.get("left_town"))}
        known = _ruleset(member.ruleset)
        if known is not None and type(known).standing_extras is not Ruleset.standing_extras:
            row.update(known.standing_extras(wid, [{**m, "summary": read_summary(m.get("summary"))} for m in _matches_of_one(db, wid, low, high)]))
        row["strategies"] = sent.get(wid, {key: 0 for key in RECORDS})
        tables.setdefault((member.ruleset, member.division), []).append(row)
    return _standing_tables(db, tables, holders, ruleset)


def titles(fed: Fed, db: Database) -> list[dict[str, Any]]:
    """Every title of the fed's settings with its lineage, in the settings' order.

    Each entry: {"id", "name", "ruleset", "division", "teams", "holder": wrestler_id | None,
    "holder_name", "since_week", "reigns": [{"wrestler_id", "name", "won_week",
    "won_match" ("1/m2" or None), "how" ("won" | "awarded"), "lost_week" | None,
    "lost_how" ("lost" | "vacated" | None), "defences": int, "weeks": int}]}, reigns
    oldest first. A reign's weeks: from the week it began to the week it ended, or to the
    latest run week while it lasts (a first holder from the settings begins at week 0).
    """
    names = _names(fed, db)
    out = []
    for title in _checked_lineages(fed, db).values():
        s = title.settings
        out.append(
            {
                "id": s.id,
                "name": s.name,
                "ruleset": title.settings_ruleset,
                "division": s.division,
                "teams": s.teams,
                "holder": title.holder,
                "holder_name": names.get(title.holder) if title.holder else None,
                "since_week": title.reigns[-1]["won_week"] if title.holder else None,
                "reigns": [{"wrestler_id": r["wrestler_id"], "name": names.get(r["wrestler_id"], r["wrestler_id"]), **r} for r in title.reigns],
            }
        )
    return out


def history(fed: Fed, db: Database, wrestler_id: str) -> dict[str, Any]:
    """One wrestler's (or team's) history in the league.

    {"id", "name", "ruleset", "record": {"wins", "losses", "draws"},
    "matches": [{"week", "match", "title", "opponents": [names], "outcome", "method",
    "round", "for_title": title id | None}],
    "states": [{"week", "push_level", "push_points", "tv_grade", "injury", "grudge", "reason"}]
    (a season's close that reset the state is a row with "season_close": true, its "week" the season's last),
    "reigns": [reign dicts as in `titles`, each plus "title_id"],
    "retired": bool, "sheet_changes": [{"after_week", "action" (added, imported, respec,
    retired, returned), "reason", "made_at"}] (fedtool.roster.manage)}
    Raises FedError for a wrestler the fed does not know.
    """
    league = _League.read(fed, db)
    member = league.members.get(wrestler_id)
    if member is None:
        raise FedError(Problem(None, None, f"unknown wrestler {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml and the league has never seen one", "fedtool history"))
    names = _names(fed, db)
    title_of = {row["match_id"]: row["title_id"] for row in db["title_matches"].rows} if db["title_matches"].exists() else {}
    matches = []
    for m in league.matches_of.get(wrestler_id, []):
        matches.append(
            {
                "week": m["week"],
                "match": m["match"],
                "title": m["title"] or "",
                "opponents": [names.get(o, o) for o in _opponents(m, wrestler_id)],
                "outcome": m["outcome"],
                "method": m["method"],
                "round": m["round"],
                "for_title": title_of.get(m["id"]),
            }
        )
    states = [
        {
            "week": row["week"],
            "push_level": row["push_level"],
            "push_points": row["push_points"],
            "tv_grade": row["tv_grade"],
            "injury": row["injury"],
            "grudge": row["grudge"],
            "reason": row["reason"],
        }
        for row in db["wrestler_states"].rows_where("wrestler_id = ?", [wrestler_id], order_by="week")
    ]
    if db["season_states"].exists():  # a season's close that reset his state stands from the week after its last
        resets = db.execute("SELECT s.last_week, c.push_level, c.push_points, c.tv_grade, c.injury, c.grudge, c.reason FROM season_states c "
                            "JOIN seasons s ON s.season = c.season WHERE c.wrestler_id = ?", [wrestler_id]).fetchall()
        for last_week, *values in resets:
            states.append(dict(zip(("week", "push_level", "push_points", "tv_grade", "injury", "grudge", "reason"), (last_week, *values)), season_close=True))
        states.sort(key=lambda s: (s["week"], bool(s.get("season_close"))))
    reigns = []
    for title in _checked_lineages(fed, db).values():
        for reign in title.reigns:
            if reign["wrestler_id"] == wrestler_id:
                reigns.append({"title_id": title.settings.id, "wrestler_id": wrestler_id, "name": names.get(wrestler_id, wrestler_id), **reign})
    reigns.sort(key=lambda r: (r["won_week"], r["title_id"]))
    sheet_changes = [{k: row[k] for k in ("after_week", "action", "reason", "made_at")}
                     for row in db["roster_changes"].rows_where("wrestler_id = ?", [wrestler_id], order_by="id")]  # issue 19: fedtool roster
    record = _record(league.matches_of.get(wrestler_id, []))
    return {
        "id": wrestler_id,
        "name": member.name,
        "ruleset": member.ruleset,
        "record": {k: record[k] for k in ("wins", "losses", "draws")},
        "matches": matches,
        "states": states,
        "reigns": reigns,
        "retired": wrestler_id in fed.retired_files,
        "sheet_changes": sheet_changes,
    }


# ---------------------------------------------------------------- settings and cards


def title_rule(title: TitleSettings) -> str:
    """The title's rule for changing hands, in words."""
    if title.changes_on is None:
        return "changes hands on any finish but " + " or ".join(NEVER_BY_DEFAULT)
    return "changes hands only on " + (", ".join(title.changes_on) or "no finish at all")


def changes_hands(title: TitleSettings, method: str | None) -> bool:
    """Whether a win by `method` takes the title (the fed's rule, default: not on dq or countout)."""
    if method is None:
        return False
    if title.changes_on is None:
        return method not in NEVER_BY_DEFAULT
    return method in title.changes_on


def check_title_settings(fed: Fed, only: set[str] | None = None) -> None:
    """Check `titles:` in rosters/fed.yaml beyond its shape: unique ids, and for each title
    (or those in `only`) what its ruleset allows: divisions, tag titles, finishes, and a
    first holder who may hold it. Each title's ruleset is imported for this, so it runs
    where titles are used, not when the fed is loaded."""
    data = fed.data
    shown = fed.shown(fed.settings_file)
    problems = Collector()
    seen: set[str] = set()
    for index, title in enumerate(fed.settings.titles):
        if title.id in seen:
            problems.add(shown, place(data, ("titles", index)), f"title id {title.id!r} is used twice", RULE)
        seen.add(title.id)
    for index, title in enumerate(fed.settings.titles):
        if only is not None and title.id not in only:
            continue
        ruleset_id = title.ruleset or fed.settings.ruleset
        if ruleset_id not in REGISTRY:
            continue  # refused when the fed was loaded (fedtool.league.sheets.load_fed)
        ruleset = get_ruleset(ruleset_id)
        if title.division is not None and title.division not in ruleset.title_divisions:
            if ruleset.title_divisions:
                why = "Input should be " + _either(ruleset.title_divisions)
            else:
                why = f"divisions are {' or '.join(f'{r.name} {r.divisions_are}' for r in all_rulesets() if r.title_divisions)}; {title.name} is a {ruleset_id} title"
            problems.add(shown, place(data, ("titles", index, "division")), why, RULE)
        if title.teams and not ruleset.team_titles:
            owners = " or ".join(f"{r.name} team sheets" for r in all_rulesets() if r.team_titles)
            problems.add(shown, place(data, ("titles", index, "teams")), f"tag titles are held by {owners}; {title.name} is a {ruleset_id} title", RULE)
        for finish in title.changes_on or []:
            if finish not in ruleset.finishes:
                problems.add(shown, place(data, ("titles", index, "changes_on")), f"{finish!r} is not a {ruleset_id} finish ({', '.join(ruleset.finishes)})", RULE)
        if title.first_holder is not None and not problems:
            try:
                problem = _may_hold(fed, title, title.first_holder)
            except FedError as exc:
                problems.extend(exc)
                continue
            if problem:
                problems.add(shown, place(data, ("titles", index, "first_holder")), problem, RULE)
    problems.raise_if_any()


def _either(values: tuple[str, ...]) -> str:
    """'a', 'b' or 'c'."""
    quoted = [repr(v) for v in values]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _may_hold(fed: Fed, title: TitleSettings, wrestler_id: str, wrestler=None) -> str | None:
    """Why a wrestler may not hold (or wrestle for) a title, or None."""
    if wrestler is None:
        if wrestler_id not in fed.roster_files and wrestler_id not in fed.retired_files:  # a retired first champion stays in the lineage
            return f"unknown wrestler {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml"
        wrestler = _sheet(fed, wrestler_id)
    ruleset = title.ruleset or fed.settings.ruleset
    if wrestler.ruleset != ruleset:
        return f"{wrestler.name} is a {wrestler.ruleset} wrestler; {title.name} is a {ruleset} title"
    if title.teams and not wrestler.members:
        return f"{title.name} is a tag title: {wrestler.name} is not a team sheet"
    if not title.teams and wrestler.members:
        return f"{wrestler.name} is a team; {title.name} is not a tag title (give it `teams: true`)"
    if title.division is not None:
        return get_ruleset(ruleset).title_refusal(wrestler, title.name, title.division)
    return None


def check_card_titles(fed: Fed, card: Card, wrestlers: dict) -> list[Problem]:
    """Problems with the card's `for_title:` fields: an unknown title, a title of another
    ruleset, a side who may not hold it (division, team or not)."""
    problems = Collector()
    by_id = {t.id: t for t in fed.settings.titles}
    named = {m.for_title for m in card.matches if m.for_title in by_id}
    if named:
        try:
            check_title_settings(fed, named)  # the settings of the titles this card is for
        except FedError as exc:
            return exc.problems
    for match in card.matches:
        if match.for_title is None:
            continue
        where = place(match.raw, ("for_title",)) + f", match {match.id}"
        title = by_id.get(match.for_title)
        if title is None:
            known = ", ".join(by_id) or "none: define them under `titles:` in rosters/fed.yaml"
            problems.add(card.shown, where, f"unknown title {match.for_title!r}; the fed's titles are {known}", "card file: for_title")
            continue
        ruleset = title.ruleset or fed.settings.ruleset
        if match.ruleset != ruleset:
            problems.add(card.shown, where, f"{title.name} is a {ruleset} title; this is a {match.ruleset} match", "card file: for_title")
            continue
        for side in match.sides:
            if side in wrestlers:
                why = _may_hold(fed, title, side, wrestlers[side])
                if why:
                    problems.add(card.shown, where, why, "card file: for_title")
    return problems.problems


# ---------------------------------------------------------------- the run


def decide_title_matches(fed: Fed, db: Database, week: int, card: Card, played: list, names: dict[str, str]) -> tuple[list[dict], list[str]]:
    """The week's title matches as the fed's rules decide them, in card order: the rows
    for `title_matches` and the lines for the card's league changes.

    Raises FedError (before anything is written) when a held title's match leaves out
    its holder: the fedhead vacates the title first.
    """
    lineages = _lineages(fed, db, before_week=week)
    holders = {tid: t.holder for tid, t in lineages.items()}
    rows, lines = [], []
    problems = Collector()
    for p in played:
        match = p.booking.match
        if match.for_title is None:
            continue
        title = lineages[match.for_title].settings
        holder = holders[title.id]
        if holder is not None and holder not in match.sides:
            problems.add(card.shown, place(match.raw, ("for_title",)) + f", match {match.id}",
                         f"{names.get(holder, holder)} holds {title.name} and is not in this match; vacate the title first (fedtool title vacate {title.id})",
                         "titles: a champion defends his own title")
            continue
        winner, method = p.summary.get("winner"), p.summary.get("method")
        if winner is not None and winner != holder and changes_hands(title, method):
            result = "won"
            reason = f"{names.get(winner, winner)} wins {title.name} by {method}" + (f" from {names.get(holder, holder)}" if holder else "")
            holders[title.id] = winner
        elif holder is not None:
            result = "defended"
            if winner is None:
                how = f"a {method.replace('_', ' ')}" if method else "no result"
            elif winner == holder:
                how = f"a win by {method}"
            else:
                how = f"a loss by {method} ({title_rule(title)})"
            reason = f"{names.get(holder, holder)} retains {title.name} after {how}"
        else:
            result = "vacant"
            reason = f"{title.name} stays vacant" + (f": {names.get(winner, winner)} won by {method} and the title {title_rule(title)}" if winner else "")
        rows.append({"match_id": f"week-{week:02d}/{match.id}", "week": week, "title_id": title.id, "holder_before": holder,
                     "winner": winner, "method": method, "result": result, "reason": reason})
        lines.append(reason)
    problems.raise_if_any()
    return rows, lines


def champions(fed: Fed, db: Database, week: int) -> dict[str, list[str]]:
    """Who holds a title going into `week` (the title matches of earlier weeks and the
    fedhead's rulings made after them): wrestler id -> the names of the titles he holds, in
    the settings' order (a tag title: the team sheet's id). What the core hands a
    ruleset on the card's matches (`MatchOnCard.champions`: Face to the Mat's Title Holder card)."""
    held: dict[str, list[str]] = {}
    if not fed.settings.titles:
        return held
    for title in _lineages(fed, db, before_week=week).values():
        if title.holder is None:
            continue
        held.setdefault(title.holder, []).append(title.settings.name)
    return held


def record_title_matches(db: Database, rows: list[dict]) -> None:
    """Write the week's title matches. The caller holds the run's transaction."""
    if rows:
        db["title_matches"].insert_all(rows)


# ---------------------------------------------------------------- vacate and award


def vacate_title(fed: Fed, db: Database, title_id: str, reason: str = "") -> str:
    """Vacate a title, effective after the latest run week; returns what was done, in words."""
    lineage = _title_lineage(fed, db, title_id)
    if lineage.holder is None:
        raise FedError(Problem(None, None, f"{lineage.settings.name} is already vacant", "fedtool title vacate"))
    week = _latest_week(db)
    _rule(db, title_id, "vacated", lineage.holder, week, reason)
    return f"{lineage.settings.name} vacated after week {week}: {_names(fed, db).get(lineage.holder, lineage.holder)} no longer holds it"


def award_title(fed: Fed, db: Database, title_id: str, wrestler_id: str, reason: str = "") -> str:
    """Award a title to a wrestler, effective after the latest run week; returns what was done."""
    lineage = _title_lineage(fed, db, title_id)
    why = _may_hold(fed, lineage.settings, wrestler_id)
    if why:
        raise FedError(Problem(None, None, why, "fedtool title award"))
    if lineage.holder == wrestler_id:
        raise FedError(Problem(None, None, f"{_names(fed, db).get(wrestler_id, wrestler_id)} already holds {lineage.settings.name}", "fedtool title award"))
    week = _latest_week(db)
    _rule(db, title_id, "awarded", wrestler_id, week, reason)
    return f"{lineage.settings.name} awarded to {_sheet(fed, wrestler_id).name} after week {week}"


def _title_lineage(fed: Fed, db: Database, title_id: str) -> "_Lineage":
    lineages = _checked_lineages(fed, db)
    if title_id not in lineages:
        known = ", ".join(lineages) or "none: define them under `titles:` in rosters/fed.yaml"
        raise FedError(Problem(None, None, f"unknown title {title_id!r}; the fed's titles are {known}", "fedtool title"))
    return lineages[title_id]


def _latest_week(db: Database) -> int:
    row = db.execute("SELECT MAX(week) FROM weeks").fetchone()
    return row[0] or 0


def _rule(db: Database, title_id: str, action: str, wrestler_id: str, week: int, reason: str) -> None:
    from fedtool.kernel.clock import now  # the one clock: SOURCE_DATE_EPOCH fixes it (the site's "updated", the exports)

    made_at = now().isoformat(timespec="seconds")
    with db.atomic():
        db["title_rulings"].insert({"title_id": title_id, "action": action, "wrestler_id": wrestler_id, "after_week": week, "reason": reason, "made_at": made_at})


# ---------------------------------------------------------------- lineage


@dataclass
class _Lineage:
    """One title's reigns, built week by week as its matches are read."""

    settings: TitleSettings
    settings_ruleset: str
    reigns: list[dict] = field(default_factory=list)
    holder: str | None = None

    def begin(self, wrestler_id: str, week: int, how: str, match: str | None) -> None:
        self.end(week, "vacated" if how == "awarded" else "lost")
        self.reigns.append({"wrestler_id": wrestler_id, "won_week": week, "won_match": match, "how": how,
                            "lost_week": None, "lost_how": None, "defences": 0, "weeks": 0})
        self.holder = wrestler_id

    def end(self, week: int, how: str) -> None:
        if self.holder is not None:
            self.reigns[-1].update(lost_week=week, lost_how=how)
        self.holder = None


def _checked_lineages(fed: Fed, db: Database) -> dict[str, _Lineage]:
    """Every title's lineage, its settings checked first."""
    check_title_settings(fed)
    return _lineages(fed, db)


def _lineages(fed: Fed, db: Database, before_week: int | None = None) -> dict[str, _Lineage]:
    """Each title's reigns, replayed from the settings' first holders, the title matches
    and the rulings: week by week, a week's matches in card order, then the rulings made
    after it. With `before_week`, only what stood going into that week."""
    lineages = {t.id: _Lineage(t, t.ruleset or fed.settings.ruleset) for t in fed.settings.titles}
    for lineage in lineages.values():
        if lineage.settings.first_holder:
            lineage.begin(lineage.settings.first_holder, 0, "awarded", None)
    if not db["title_matches"].exists():
        return lineages
    limit = before_week if before_week is not None else 1 << 30
    events = []
    for row in db.execute(
        "SELECT t.week, m.position, t.title_id, t.winner, t.result, m.match FROM title_matches t JOIN matches m ON m.id = t.match_id WHERE t.week < ?",
        [limit],
    ).fetchall():
        week, position, title_id, winner, result, match = row
        events.append(((week, 0, position), title_id, result, winner, f"{week}/{match}"))
    for row in db.execute("SELECT after_week, id, title_id, action, wrestler_id FROM title_rulings WHERE after_week < ?", [limit]).fetchall():
        week, seq, title_id, action, wrestler_id = row
        events.append(((week, 1, seq), title_id, action, wrestler_id, None))
    for (week, _, _), title_id, kind, wrestler_id, match in sorted(events, key=lambda e: e[0]):
        lineage = lineages.get(title_id)
        if lineage is None:
            continue  # a title since removed from the settings
        if kind == "won":
            lineage.begin(wrestler_id, week, "won", match)
        elif kind == "defended" and lineage.holder is not None:
            lineage.reigns[-1]["defences"] += 1
        elif kind == "awarded" and lineage.holder != wrestler_id:
            lineage.begin(wrestler_id, week, "awarded", None)
        elif kind == "vacated":
            lineage.end(week, "vacated")  # a no-op if a rerun left the title vacant already
    latest = _latest_week(db) if before_week is None else before_week - 1
    for lineage in lineages.values():
        for reign in lineage.reigns:
            end = reign["lost_week"] if reign["lost_week"] is not None else max(latest, reign["won_week"])
            reign["weeks"] = end - reign["won_week"]
    return lineages


# ---------------------------------------------------------------- standings


@dataclass
class _Member:
    """A league member as the standings see it: sheet facts and current state."""

    id: str
    name: str
    ruleset: str
    division: str | None
    state: dict


@dataclass
class _League:
    """What the standings read of the league: its members and each one's matches."""

    members: dict[str, _Member]
    matches_of: dict[str, list[dict]]  # wrestler id -> his matches, oldest first
    facts: dict[str, dict] = field(default_factory=dict)  # wrestler id -> what the standings read of his sheet (`_facts`)

    @classmethod
    def read(cls, fed: Fed, db: Database, weeks: tuple[int, int] | None = None, states: dict[str, dict] | None = None,
             known: dict[str, dict] | None = None) -> "_League":
        facts: dict[str, dict] = {}
        members = _read_members(fed, db, states, known, facts)
        matches_of: dict[str, list[dict]] = {}
        rows = db.execute(
            """SELECT m.id, m.week, m.match, m.ruleset, m.title, m.method, m.end_round, m.summary, s.wrestler_id, s.outcome, s.side
               FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE m.week BETWEEN ? AND ? ORDER BY m.week, m.position, s.side""",
            list(weeks or (-(1 << 30), 1 << 30)),
        ).fetchall()
        sides: dict[str, list[str]] = {}
        for mid, *_, wid, _, _ in rows:
            sides.setdefault(mid, []).append(wid)
        for mid, week, match, ruleset, title, method, end_round, summary, wid, outcome, side in rows:
            matches_of.setdefault(wid, []).append(
                {"id": mid, "week": week, "match": match, "ruleset": ruleset, "title": title, "method": method, "round": end_round,
                 "outcome": outcome, "side": side, "sides": sides[mid], "summary": summary}
            )
        return cls(members, matches_of, facts)


def _read_members(fed: Fed, db: Database, states: dict[str, dict] | None = None, known: dict[str, dict] | None = None,
                  facts: dict[str, dict] | None = None) -> dict[str, _Member]:
    """`_League.read`'s members (sheets first, then the league's), no matches: `standings_streamed` counts those as it goes.
    `known`: each sheet's facts (`_facts`) as a good check of these very files kept them
    (`_known_roster`), read instead of the sheets; `facts` is filled with what was read."""
    latest = states_before(db, 1 << 30) if states is None else states
    members: dict[str, _Member] = {}
    facts = {} if facts is None else facts
    for wid in fed.roster_files:
        fact = facts[wid] = known[wid] if known is not None else _facts(fed, wid)
        state = {**fact["state"], **latest.get(wid, {})}
        members[wid] = _Member(wid, fact["name"], fact["ruleset"], fact["division"], state)
    for row in db["wrestlers"].rows:
        if row["id"] not in members:
            known = _ruleset(row["ruleset"])
            division = known.standings_division(None, bool(row.get("members"))) if known else None
            members[row["id"]] = _Member(row["id"], row["name"], row["ruleset"], division, dict(latest.get(row["id"], {})))
    return members


def _facts(fed: Fed, wrestler_id: str) -> dict[str, Any]:
    """What the standings read of a wrestler's sheet, checked by its ruleset: his name, his
    ruleset, his standings division and his starting state."""
    sheet = _sheet(fed, wrestler_id)
    ruleset = get_ruleset(sheet.ruleset)
    return {"name": sheet.name, "ruleset": sheet.ruleset, "division": ruleset.standings_division(sheet, bool(sheet.members)),
            "state": ruleset.initial_state(sheet)}


def _roster_key(fed: Fed) -> str | None:
    """The checked cache's key for the fed's settings and every sheet, active and retired
    (their names and bytes; fedtool.kernel.checked adds the code's mark); None when one
    cannot be read, which checking the sheets then reports."""
    try:
        parts: list[str] = [fed._text if fed._text is not None else read_text(fed.settings_file, fed.shown(fed.settings_file))]
        for kind, files in (("roster", fed.roster_files), ("retired", fed.retired_files)):
            for wid, path in files.items():
                parts += [kind, wid, read_text(path, fed.shown(path))]
    except (FedError, OSError, UnicodeError):
        return None
    return checked.digest("standings", *parts)


def _known_roster(key: str | None, fed: Fed) -> dict[str, dict] | None:
    """Each sheet's facts (`_facts`) as the last good check of these very files (the settings,
    every sheet: the titles' first holders too) kept them, or None: they are checked now
    (issue 18: checking 30 sheets with pydantic was most of `fedtool standings`). A file
    that fails its check is never kept, so it is checked, and named, every time. `key`:
    `_roster_key(fed)`, which `_remember_roster` keeps the facts under once checked."""
    if key is None:
        return None
    kept = checked.recall(key)
    if not isinstance(kept, dict) or set(kept) != set(fed.roster_files) or not all(map(_fact_shape, kept.values())):
        return None  # nothing kept, or an entry damaged since (by hand, a disk): the files are checked
    return kept


def _fact_shape(fact: Any) -> bool:
    """Whether a kept fact has the shape `_facts` gives."""
    return (isinstance(fact, dict) and isinstance(fact.get("name"), str) and isinstance(fact.get("ruleset"), str)
            and isinstance(fact.get("division"), (str, type(None))) and isinstance(fact.get("state"), dict))


def _remember_roster(key: str | None, fed: Fed, facts: dict[str, dict]) -> None:
    if key is not None and set(facts) == set(fed.roster_files):
        checked.remember(key, facts)


def _matches_of_one(db: Database, wid: str, low: int, high: int) -> list[dict]:
    """One wrestler's matches of the weeks, as `_League.read` gives them in `matches_of`."""
    rows = db.execute(
        """SELECT m.id, m.week, m.match, m.ruleset, m.title, m.method, m.end_round, m.summary, s.wrestler_id, s.outcome, s.side
           FROM match_sides s JOIN matches m ON m.id = s.match_id
           WHERE m.id IN (SELECT match_id FROM match_sides WHERE wrestler_id = ?) AND m.week BETWEEN ? AND ? ORDER BY m.week, m.position, s.side""",
        [wid, low, high]).fetchall()
    sides: dict[str, list[str]] = {}
    for mid, *_, side_wid, _, _ in rows:
        sides.setdefault(mid, []).append(side_wid)
    return [{"id": mid, "week": week, "match": match, "ruleset": ruleset, "title": title, "method": method, "round": end_round,
             "outcome": outcome, "side": side, "sides": sides[mid], "summary": summary}
            for mid, week, match, ruleset, title, method, end_round, summary, side_wid, outcome, side in rows if side_wid == wid]


def _ruleset(ruleset_id: str) -> Ruleset | None:
    """A ruleset the league names, or None for one fedtool no longer knows."""
    return get_ruleset(ruleset_id) if ruleset_id in REGISTRY else None


def _opponents(match: dict, wrestler_id: str) -> list[str]:
    """The sides a wrestler faced in a match, as his ruleset counts them (less a tag partner)."""
    known = _ruleset(match["ruleset"])
    if known is None:
        return [o for o in match["sides"] if o != wrestler_id]
    return known.opponents(match["sides"], wrestler_id)


def _record(matches: list[dict]) -> dict:
    record = {"wins": 0, "losses": 0, "draws": 0}
    for m in matches:
        record[{"win": "wins", "loss": "losses"}.get(m["outcome"], "draws")] += 1
    streak = ""
    if matches:
        last = matches[-1]["outcome"]
        count = 0
        for m in reversed(matches):
            if m["outcome"] != last:
                break
            count += 1
        streak = f"{ {'win': 'W', 'loss': 'L'}.get(last, 'D')}{count}"
    record["streak"] = streak
    return record


def _standing_row(league: _League, wid: str, member: _Member) -> dict:
    matches = league.matches_of.get(wid, [])
    state = member.state
    points = state.get("push_points")
    row = {
        "wrestler_id": wid,
        "name": member.name,
        **_record(matches),
        "push_level": state.get("push_level"),
        "push_points": str(points) if points is not None else None,
        "tv_grade": state.get("tv_grade"),
        "injury": state.get("injury"),
        "left_town": bool(state.get("left_town")),
    }
    known = _ruleset(member.ruleset)
    if known is not None and type(known).standing_extras is not Ruleset.standing_extras:  # the base's adds nothing: no summary read for it
        row.update(known.standing_extras(wid, [{**m, "summary": read_summary(m.get("summary"))} for m in matches]))
    return row


def _contender_key(ruleset: str, row: dict) -> tuple:
    return (_ruleset(ruleset) or Ruleset()).contender_key(row)


def _row_order(ruleset: str, row: dict) -> tuple:
    key = tuple(-k for k in _contender_key(ruleset, row))
    return (row["left_town"], *key, -row["wins"], row["losses"], row["name"].casefold(), row["wrestler_id"])


def _table_order(key: tuple[str, str | None]) -> tuple:
    ruleset, division = key
    divisions = (_ruleset(ruleset) or Ruleset()).standings_divisions
    return (ruleset_order(ruleset), ruleset,
            divisions.index(division) if division in divisions else -1 if division is None else len(divisions), division or "")


def _sheet(fed: Fed, wrestler_id: str):
    """A roster sheet, read and checked once per Fed object (the site asks for every
    wrestler's history with one Fed; each command loads its own)."""
    cache = fed.__dict__.setdefault("_records_sheets", {})
    if wrestler_id not in cache:
        cache[wrestler_id] = read_roster_sheet(fed, wrestler_id)
    return cache[wrestler_id]


def _names(fed: Fed, db: Database) -> dict[str, str]:
    """Wrestler id -> name: the league's, then the sheets' (which are current)."""
    names = {row["id"]: row["name"] for row in db["wrestlers"].rows}
    for wid in fed.roster_files:
        if wid not in names:
            try:
                names[wid] = _sheet(fed, wid).name
            except FedError:
                names[wid] = wid
    return names
