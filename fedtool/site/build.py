"""The fed's website: a static site built from the league, for readers on any screen.

`build_site` reads the league (fed.db) and the fed's settings and writes plain HTML
pages and one stylesheet: a home page with the latest card, a page per run week with
every writeup (as the run rendered it, kept in the league by migration m008), a page
per wrestler (record, matches, push level or TV grade over the weeks as an inline SVG
chart), a page per title (its lineage), the standings and the roster. It uses no
JavaScript and only relative links, so it works from file:// and from any sub-path.
Pages come from jinja2 templates under templates/site/ (a fed may override them) with
autoescape on: every name, explanation and promo a player wrote is escaped.

Issue 19: the seasons (a page per closed season, its archive; the season in play, live),
the record book and hall of fame (records.html), an Atom feed of results and news
(feed.xml) and a calendar of deadlines (calendar.ics), both listed on news.html
(fedtool.site.feed). Title changes are in every "League changes" list, and every page
says when the league last changed.

The site is built in a staging folder beside the target and swapped in whole; its files
and folders are readable by others (0644 and 0755 under the usual umask, fedtool.fed.files).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from fedtool.fed.card import load_card
from fedtool.fed.files import StagedDir, overlapping
from fedtool.fed.render import environment, render
from fedtool.fed.settings import WRESTLER_ID, Fed, week_name
from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem
from fedtool.league import records
from fedtool.kernel.dice import commitment
from fedtool.league.recordbook import CATEGORIES, HEADINGS, hall_of_fame, record_book
from fedtool.league.seasons import closed_seasons, current_season, season_archive
from fedtool.league.db import open_league, read_summary, revealed_seed_text, states_before, stored_stars
from fedtool.league.sheets import read_roster_sheet
from fedtool.rulesets import REGISTRY, get_ruleset, ruleset_order
from fedtool.week.ratings import card_rating, match_of_the_night
from fedtool.week.verify import published_commitments

from .feed import CALENDAR, FEED, Deadline, FeedEntry, atom_feed, deadline_calendar, newest_last

SITE_MARKER = ".fedtool-site"  # marks a folder fedtool built, so --out never replaces anything else

# chart geometry (SVG user units); the SVG scales to the page's width
CHART_WIDTH, CHART_HEIGHT = 600, 300
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 80, 20, 20, 70


@dataclass
class SiteReport:
    """What `build_site` wrote."""

    out: Path
    pages: list[str] = field(default_factory=list)  # relative paths, HTML pages only
    weeks: int = 0
    wrestlers: int = 0
    titles: int = 0


def page_name(identifier: str) -> str:
    """A file name for a wrestler or title id: the id itself when it is a safe one, else a digest.

    Ids come from the fedhead's file names and settings, but a page name must never be
    able to climb out of its folder, whatever the league holds."""
    if WRESTLER_ID.match(identifier):
        return identifier
    return "id-" + hashlib.sha256(identifier.encode()).hexdigest()[:16]


def week_page(week: int) -> str:
    return f"weeks/{week_name(week)}.html"


def season_page(season: int) -> str:
    return f"seasons/season-{season:02d}.html"


# ---------------------------------------------------------------- reading the league


@dataclass
class League:
    """Everything the site shows, read from the league in a few queries."""

    weeks: list[dict]
    wrestlers: dict[str, dict]  # id -> row (members decoded)
    matches: list[dict]  # every match, week and card order, with "sides" and "writeup"
    states: dict[str, list[dict]]  # wrestler id -> state rows, week order
    changes: dict[int, list[dict]]  # week -> state rows of that week


def read_league(db) -> League:
    """The league's weeks, wrestlers, matches (with their stored writeups) and states."""
    weeks = list(db["weeks"].rows_where(order_by="week"))
    wrestlers = {}
    for row in db["wrestlers"].rows_where(order_by="name"):
        row = dict(row)
        row["members"] = json.loads(row["members"]) if row.get("members") else []
        wrestlers[row["id"]] = row
    sides: dict[str, list[dict]] = defaultdict(list)
    for row in db["match_sides"].rows_where(order_by="match_id, side"):
        sides[row["match_id"]].append(row)
    writeups = {row["match_id"]: row for row in db["match_writeups"].rows_where(select="match_id, headline, html")}
    matches = []
    for row in db["matches"].rows_where(order_by="week, position"):
        row = dict(row)
        row["sides"] = sides.get(row["id"], [])
        row["writeup"] = writeups.get(row["id"])
        matches.append(row)
    if db["title_matches"].exists():  # m007: which title each title match was for
        for_title = {row["match_id"]: row["title_id"] for row in db["title_matches"].rows_where(select="match_id, title_id")}
        for match in matches:
            match["for_title"] = for_title.get(match["id"])
    states: dict[str, list[dict]] = defaultdict(list)
    changes: dict[int, list[dict]] = defaultdict(list)
    for row in db["wrestler_states"].rows_where(order_by="week, wrestler_id"):
        states[row["wrestler_id"]].append(row)
        changes[row["week"]].append(row)
    return League(weeks, wrestlers, matches, dict(states), dict(changes))


def roster_sheets(fed: Fed) -> dict[str, dict]:
    """Each roster sheet's id, name, ruleset, members and starting state (before the league saw it change).

    A sheet that no longer reads is left out: its wrestler's page then shows what the
    league holds, and the chart starts at the first state the league stored."""
    out = {}
    for wrestler_id in fed.roster_files:
        try:
            sheet = read_roster_sheet(fed, wrestler_id)
        except FedError:
            continue
        out[wrestler_id] = {
            "id": wrestler_id,
            "name": sheet.name,
            "ruleset": sheet.ruleset,
            "members": list(sheet.members),
            "start": get_ruleset(sheet.ruleset).initial_state(sheet),
        }
    return out


# ---------------------------------------------------------------- the chart


def state_chart(name: str, charted: tuple[str, str, list] | None, start: dict | None, states: list[dict], weeks: list[int]) -> dict | None:
    """What the wrestler's ruleset charts (`Ruleset.chart`: push level in MatchMatch, TV
    grade in Face to the Mat) at the end of each run week.

    Week 0 is the start (the sheet's value). A week with no stored change carries the
    last value on. Returns the chart's geometry and labels for the template, or None
    for a wrestler whose ruleset charts nothing (Mat Clash) or who has no value at all.
    """
    if charted is None:
        return None
    key, label, scale = charted
    by_week = {row["week"]: row[key] for row in states if row.get(key) is not None}
    value = (start or {}).get(key)
    points = []
    for week in [0, *weeks]:
        value = by_week.get(week, value)
        if value is not None and value in scale:
            points.append((week, value))
    if not points:
        return None
    first, last = 0, max(weeks) if weeks else 0
    plot_w = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    plot_h = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM

    def x(week: int) -> float:
        return round(CHART_LEFT + (week - first) * plot_w / max(1, last - first), 1)

    def y(v) -> float:
        return round(CHART_TOP + plot_h - scale.index(v) * plot_h / max(1, len(scale) - 1), 1)

    step = max(1, math.ceil((last - first + 1) / 13))
    x_ticks = [{"x": x(w), "label": "start" if w == 0 else str(w)} for w in range(first, last + 1, step)]
    y_ticks = [{"y": y(v), "label": str(v)} for v in scale]
    shown = [{"week": w, "value": v, "x": x(w), "y": y(v), "label": f"{'start' if w == 0 else f'week {w}'}: {label.lower()} {v}"} for w, v in points]
    return {
        "label": label,
        "name": name,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_LEFT,
        "right": CHART_WIDTH - CHART_RIGHT,
        "top": CHART_TOP,
        "bottom": CHART_TOP + plot_h,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "points": shown,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in shown),
        "description": f"{name}'s {label.lower()} by week: " + "; ".join(p["label"] for p in shown) + ".",
    }


# ---------------------------------------------------------------- building


def default_out(fed: Fed) -> Path:
    return fed.outbox / "site"


def build_site(fed: Fed, out: Path | None = None) -> SiteReport:
    """Build the fed's website into `out` (default outbox/site/), replacing the last build whole.

    `out` must be a new or empty folder or one fedtool built before: fedtool never
    replaces a folder it did not make. Standings and title lineages come from
    `records`; the rest is read from the league in a few queries."""
    out = Path(out) if out is not None else default_out(fed)
    _check_out(fed, out)
    db = open_league(fed.database, create=False)
    league = read_league(db)
    sheets = roster_sheets(fed)
    env = environment(fed.templates)
    env.filters["day"] = day
    week_numbers = [w["week"] for w in league.weeks]
    # every league member and every roster sheet has a page; the league's name first, as records does
    wrestlers = {wid: dict(w) for wid, w in league.wrestlers.items()}
    for wid, sheet in sheets.items():
        wrestlers.setdefault(wid, {"id": wid, "name": sheet["name"], "ruleset": sheet["ruleset"], "members": sheet["members"]})
    wrestlers = dict(sorted(wrestlers.items(), key=lambda item: (item[1]["name"].casefold(), item[0])))
    names = {wid: w["name"] for wid, w in wrestlers.items()}
    standings = records.standings(fed, db)
    titles = records.titles(fed, db)
    archives = [season_archive(db, s["season"]) for s in closed_seasons(db)]
    in_play = dict(current_season(db), standings=None, records=None)
    if in_play["weeks"]:
        in_play["standings"] = records.standings(fed, db, weeks=(in_play["weeks"][0], in_play["weeks"][-1]))
        in_play["records"] = record_book(fed, db, weeks=(in_play["weeks"][0], in_play["weeks"][-1]))
    used = sorted({w["ruleset"] for w in wrestlers.values()} | {t["ruleset"] for t in standings + titles}, key=lambda r: (ruleset_order(r), r))
    rulesets = {rid: get_ruleset(rid) for rid in used if rid in REGISTRY}
    charts = {rid: ruleset.chart(fed.ruleset_settings(rid)) for rid, ruleset in rulesets.items()}
    for table in [*standings, *(in_play["standings"] or []), *(t for a in archives for t in a["standings"])]:
        # the ruleset's own columns (`Ruleset.standing_columns`)
        columns = rulesets[table["ruleset"]].standing_columns() if table["ruleset"] in rulesets else ()
        table["columns"] = [c.header for c in columns]
        for row in table["rows"]:
            row["cells"] = [c.cell(row) for c in columns]
    title_names = {t["id"]: t["name"] for t in titles}
    updated = league_updated(db)
    shown_updated = updated or clock.now()

    pages: dict[str, str] = {}
    common = {
        "fed_name": fed.settings.name,
        "ruleset_names": {rid: ruleset.name for rid, ruleset in rulesets.items()},
        "week_page": week_page,
        "page_name": page_name,
        "run_weeks": set(week_numbers),
        "known": wrestlers,
        "title_names": title_names,
        "season_page": season_page,
        "updated": {"iso": shown_updated.isoformat(), "text": f"{shown_updated.day} {shown_updated:%B %Y}", "built": updated is None},
        "feed": FEED,
        "calendar": CALENDAR,
    }

    def page(path: str, template: str, **context) -> None:
        root = "../" * path.count("/")
        pages[path] = render(env, f"site/{template}", root=root, **common, **context)

    matches_by_week: dict[int, list[dict]] = defaultdict(list)
    matches_of: dict[str, list[dict]] = defaultdict(list)
    for match in league.matches:
        match["sides_named"] = [{"id": s["wrestler_id"], "name": names.get(s["wrestler_id"], s["wrestler_id"]), "outcome": s["outcome"]} for s in match["sides"]]
        match["headline"] = match["writeup"]["headline"] if match["writeup"] else _plain_headline(match)
        match.setdefault("for_title", None)
        match["rating"] = stored_stars(read_summary(match.get("summary")).get("rating"))  # docs/ratings.md
        matches_by_week[match["week"]].append(match)
        for side in match["sides"]:
            matches_of[side["wrestler_id"]].append(match)

    title_changes = title_change_rows(db, names, title_names)
    latest_states = states_before(db, 1 << 30)  # what each wrestler stands at now (a season's carry-over included)
    deadlines = {d.week: d for d in card_deadlines(fed, names)}
    latest = league.weeks[-1] if league.weeks else None
    page(
        "index.html", "home.html.j2",
        latest=latest,
        latest_matches=matches_by_week.get(latest["week"], []) if latest else [],
        latest_changes=_changes(league, latest["week"], names) + title_changes.get(latest["week"], []) if latest else [],
        titles=titles,
        weeks=league.weeks,
        opened=[dict(w, deadline=_shown_deadline(deadlines.get(w["week"]))) for w in opened_weeks(fed, set(week_numbers))],
    )
    page("weeks/index.html", "weeks.html.j2", weeks=league.weeks, matches_by_week=matches_by_week)
    for week in league.weeks:
        number = week["week"]
        page(
            week_page(number), "week.html.j2",
            week=week,
            # the fragment was rendered, escaped, by the run's own autoescaping templates
            matches=[dict(m, html=Markup(m["writeup"]["html"]) if m["writeup"] else None) for m in matches_by_week.get(number, [])],
            changes=_changes(league, number, names) + title_changes.get(number, []),
            show=_show(matches_by_week.get(number, [])),
            dice=_revealed(number, matches_by_week.get(number, [])),
            previous=_neighbour(week_numbers, number, -1),
            next=_neighbour(week_numbers, number, +1),
        )
    reigns_of: dict[str, list[dict]] = defaultdict(list)
    for title in titles:
        for reign in title["reigns"]:
            reigns_of[reign["wrestler_id"]].append(dict(reign, title_id=title["id"], title_name=title["name"]))
    teams_of: dict[str, list[str]] = defaultdict(list)
    for wid, wrestler in wrestlers.items():
        for member in wrestler["members"]:
            teams_of[member].append(wid)
    for wid, wrestler in wrestlers.items():
        history = []
        for match in matches_of.get(wid, []):
            side = next(s for s in match["sides_named"] if s["id"] == wid)
            history.append({"match": match, "outcome": side["outcome"], "opponents": [s for s in match["sides_named"] if s["id"] != wid]})
        states = league.states.get(wid, [])
        start = sheets[wid]["start"] if wid in sheets else None
        # the league changes: his states, and every title he won, lost or was given or stripped of
        held = [{"week": week, "push_level": None, "push_points": None, "tv_grade": None, "grudge": None, "injury": None,
                 "reason": c["reason"] if c["id"] == wid else c["lost_reason"]} for week, rows in title_changes.items() for c in rows if wid in (c["id"], c["lost"])]
        # and what a season's close reset (its carry-over), after the season's last week
        held += [{"week": a["last_week"], "push_level": None, "push_points": None, "tv_grade": None, "grudge": None, "injury": None,
                  "reason": f"{a['name']} closed: {c['reason'].removeprefix('new season: ')}"} for a in archives for c in a["carry_over"]["changes"] if c["wrestler_id"] == wid]
        state_changes = sorted([*states, *held], key=lambda r: r["week"])
        page(
            f"wrestlers/{page_name(wid)}.html", "wrestler.html.j2",
            wrestler=wrestler,
            record=wrestler_record(history),
            history=history,
            states=state_changes,
            current={**(start or {}), **latest_states[wid]} if wid in latest_states else states[-1] if states else start or {},
            chart=state_chart(wrestler["name"], charts.get(wrestler["ruleset"]), start, states, week_numbers),
            reigns=sorted(reigns_of.get(wid, []), key=lambda r: (r["won_week"], r["title_id"])),
            members=[{"id": m, "name": names.get(m, m)} for m in wrestler["members"]],
            teams=[{"id": t, "name": names[t]} for t in teams_of.get(wid, [])],
        )
    by_ruleset: dict[str, list[dict]] = defaultdict(list)
    for wrestler in wrestlers.values():
        by_ruleset[wrestler["ruleset"]].append(wrestler)
    page("wrestlers/index.html", "wrestlers.html.j2", by_ruleset=dict(sorted(by_ruleset.items(), key=lambda i: (ruleset_order(i[0]), i[0]))))
    page("standings.html", "standings.html.j2", standings=standings, seasons_closed=bool(archives))
    page("titles/index.html", "titles.html.j2", titles=titles)
    for title in titles:
        page(f"titles/{page_name(title['id'])}.html", "title.html.j2", title=title)
    page("records.html", "records.html.j2", book=record_book(fed, db), hall_of_fame=hall_of_fame(db), categories=CATEGORIES, headings=HEADINGS)
    page("seasons/index.html", "seasons.html.j2", archives=archives, in_play=in_play)
    for archive in archives:
        page(season_page(archive["season"]), "season.html.j2", season=archive, closed=True, categories=CATEGORIES, headings=HEADINGS)
    if archives:  # the season in play, live; before any close it is all the league has (standings.html, records.html)
        page(season_page(in_play["season"]), "season.html.j2", season=in_play, closed=False, categories=CATEGORIES, headings=HEADINGS)
    first_runs = {week: ran for week, ran in db.execute("SELECT week, MIN(ran_at) FROM week_runs GROUP BY week").fetchall()} if db["week_runs"].exists() else {}
    entries = feed_entries(league, matches_by_week, names, title_changes, archives, league.changes, first_runs)
    page("news.html", "news.html.j2", entries=newest_last(entries)[::-1],
         deadlines=[d for week, d in sorted(deadlines.items()) if week not in set(week_numbers)])

    stylesheet = render(env, "site/style.css.j2")
    feed = atom_feed(fed, entries, shown_updated).decode("utf-8")
    calendar = deadline_calendar(fed, list(deadlines.values()), shown_updated).decode("utf-8")
    with StagedDir(out) as stage:
        for path, html in pages.items():
            stage.write(path, html)
        stage.write(FEED, feed)
        stage.write(CALENDAR, calendar)
        stage.write("style.css", stylesheet)
        stage.write(SITE_MARKER, "Built by `fedtool site`; the whole folder is replaced at each build.\n")
        stage.swap()
    return SiteReport(out, sorted(pages), len(league.weeks), len(wrestlers), len(titles))


def day(value) -> str:
    """A moment (a datetime, or ISO text as the league keeps it) as a day: 4 January 2026; text that is no date, as it is."""
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value)
        except ValueError:
            return value
    if isinstance(value, datetime.datetime):
        value = value.astimezone(datetime.timezone.utc)
    return f"{value.day} {value:%B %Y}" if isinstance(value, (datetime.date, datetime.datetime)) else str(value or "")


def _shown_deadline(deadline: Deadline | None) -> dict | None:
    if deadline is None:
        return None
    at = deadline.at.astimezone(datetime.timezone.utc)
    return {"iso": at.isoformat(), "text": f"{day(at)}, {at:%H:%M} UTC"}


def league_updated(db) -> datetime.datetime | None:
    """When the league last changed: a week run, a season closed, a title ruling; None for an empty league."""
    moments = []
    for table, column in (("week_runs", "ran_at"), ("seasons", "closed_at"), ("title_rulings", "made_at")):
        if db[table].exists():
            found = db.execute(f"SELECT MAX({column}) FROM [{table}]").fetchone()[0]
            if found:
                try:
                    moments.append(datetime.datetime.fromisoformat(found).astimezone(datetime.timezone.utc))
                except ValueError:
                    continue  # a hand edit: not a date
    return max(moments) if moments else None


def title_change_rows(db, names: dict[str, str], title_names: dict[str, str]) -> dict[int, list[dict]]:
    """Each week's title changes, for its "League changes": titles won (by the run's title
    matches) and the fedhead's awards and vacates made after it. Each {"id": the wrestler,
    "name", "reason", "lost": who lost it or None, "lost_reason"}."""
    out: dict[int, list[dict]] = defaultdict(list)
    if not db["title_matches"].exists():
        return out
    for week, title_id, winner, method, before in db.execute(
            "SELECT t.week, t.title_id, t.winner, t.method, t.holder_before FROM title_matches t JOIN matches m ON m.id = t.match_id "
            "WHERE t.result = 'won' ORDER BY t.week, m.position").fetchall():
        title = title_names.get(title_id, title_id)
        out[week].append({"id": winner, "name": names.get(winner, winner), "lost": before,
                          "reason": f"wins the {title} by {method}" + (f" from {names.get(before, before)}" if before else ""),
                          "lost_reason": f"loses the {title} to {names.get(winner, winner)} by {method}"})
    for week, title_id, action, wid, why in db.execute("SELECT after_week, title_id, action, wrestler_id, reason FROM title_rulings ORDER BY id").fetchall():
        title = title_names.get(title_id, title_id)
        said = f" ({why})" if why else ""
        if action == "awarded":
            out[week].append({"id": wid, "name": names.get(wid, wid), "lost": None, "reason": f"awarded the {title} by the fedhead{said}", "lost_reason": ""})
        else:
            out[week].append({"id": wid, "name": names.get(wid, wid), "lost": None, "reason": f"the {title} is vacated by the fedhead{said}", "lost_reason": ""})
    return out


def feed_entries(league: League, matches_by_week: dict, names: dict[str, str], title_changes: dict, archives: list[dict], changes: dict,
                 first_runs: dict[int, str]) -> list[FeedEntry]:
    """The feed's entries: each run week's results and changes (published at its first run,
    updated at its latest: a rerun's corrections), each closed season."""
    entries = []
    for week in league.weeks:
        number = week["week"]
        lines = [f"<li>{escape(m['headline'])}</li>" for m in matches_by_week.get(number, [])]
        moved = [f"<li>{escape(names.get(r['wrestler_id'], r['wrestler_id']))}: {escape(r['reason'])}</li>" for r in changes.get(number, []) if r["reason"]]
        moved += [f"<li>{escape(c['name'])}: {escape(c['reason'])}</li>" for c in title_changes.get(number, [])]
        html = "<ul>" + "".join(lines) + "</ul>" + (f"<p>League changes:</p><ul>{''.join(moved)}</ul>" if moved else "")
        ran = _moment(week["ran_at"])
        entries.append(FeedEntry(week_page(number), f"Results: {week['title']}", ran, min(ran, _moment(first_runs.get(number) or week["ran_at"])), html))
    for archive in archives:
        closed = _moment(archive["closed_at"])
        champions = [f"<li>{escape(c['name'])}: {escape(c['holder_name'] or 'vacant')}</li>" for c in archive["champions"]]
        awards = [f"<li>{escape(a['award'])}: {escape(', '.join(w['name'] for w in a['winners']) or a['why'])}</li>" for a in archive["awards"]]
        html = f"<p>{escape(archive['name'])} closed after week {archive['last_week']}.</p><ul>{''.join(champions)}</ul><ul>{''.join(awards)}</ul>"
        entries.append(FeedEntry(season_page(archive["season"]), f"{archive['name']} closed", closed, closed, html))
    return entries


def _moment(text: str | None) -> datetime.datetime:
    try:
        return datetime.datetime.fromisoformat(text or "").astimezone(datetime.timezone.utc)
    except ValueError:
        return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)  # a hand edit: no date


def card_deadlines(fed: Fed, names: dict[str, str]) -> list[Deadline]:
    """Every week's card with a deadline; a card that does not read is left out (`fedtool status` says why)."""
    out = []
    if not fed.strategies.is_dir():
        return out
    for folder in sorted(fed.strategies.iterdir()):
        found = re.fullmatch(r"week-(\d+)", folder.name)
        if not found or not (folder / "card.yaml").is_file():
            continue
        try:
            card = load_card(fed, folder, int(found.group(1)))
        except FedError:
            continue
        if card.deadline is not None:
            out.append(Deadline(int(found.group(1)), card.title, card.deadline, [f"{m.id}: {' vs. '.join(names.get(w, w) for w in m.sides)}" for m in card.matches]))
    return out


def wrestler_record(history: list[dict]) -> dict[str, int]:
    """Won, lost, drawn: as `records` counts them (an outcome neither a win nor a loss is a draw)."""
    wins = sum(1 for h in history if h["outcome"] == "win")
    losses = sum(1 for h in history if h["outcome"] == "loss")
    return {"wins": wins, "losses": losses, "draws": len(history) - wins - losses}


def _check_out(fed: Fed, out: Path) -> None:
    """Refuse a target that holds anything but an earlier site: a build replaces the folder whole."""
    target = out.resolve()
    root = fed.root.resolve()
    if target == root or target in root.parents or (target.exists() and not target.is_dir()):
        raise FedError(Problem(str(out), None, "the site needs a folder of its own (it replaces the folder whole at each build)", "fedtool site --out"))
    inputs = overlapping(out, [fed.rosters, fed.strategies, fed.templates, fed.backups])
    if inputs is not None:  # an empty rosters/retired/ or strategies/week-NN/ would be swapped away with what the fedhead puts in it
        raise FedError(Problem(str(out), None, f"is in or holds the fed's {fed.shown(inputs)}/, which a build would replace whole: give a folder outside "
                               "rosters/, strategies/, templates/ and the backups", "fedtool site --out"))
    if target.is_dir() and any(target.iterdir()) and not (target / SITE_MARKER).exists():
        raise FedError(Problem(str(out), None, f"this folder holds files fedtool did not build (no {SITE_MARKER}); give a new or empty folder", "fedtool site --out"))


def _changes(league: League, week: int, names: dict[str, str]) -> list[dict]:
    return [{"id": row["wrestler_id"], "name": names.get(row["wrestler_id"], row["wrestler_id"]), "reason": row["reason"]} for row in league.changes.get(week, []) if row["reason"]]


def _show(matches: list[dict]) -> dict:
    """A week's card as a show (docs/ratings.md): its rating and match of the night."""
    ratings = [m["rating"] for m in matches]
    best = match_of_the_night(ratings)
    return {"rating": card_rating(ratings), "match_of_the_night": matches[best] if best is not None else None}


def _revealed(week: int, matches: list[dict]) -> list[dict]:
    """Each seeded match's revealed seed text and its SHA-256 (the commitment it answers)."""
    out = []
    for match in matches:
        text = revealed_seed_text(week, match["match"], match["seed"])
        if text:
            out.append({"match": match["match"], "seed_text": text, "commitment": commitment(text)})
    return out


def opened_weeks(fed: Fed, run: set[int]) -> list[dict]:
    """Weeks opened (their card folder has commitments) but not yet run: week and commitments."""
    out = []
    if not fed.strategies.is_dir():
        return out
    for folder in sorted(fed.strategies.iterdir()):
        found = re.fullmatch(r"week-(\d+)", folder.name)
        if not found or not folder.is_dir() or int(found.group(1)) in run:
            continue
        commitments = published_commitments(fed, folder)
        if commitments:
            out.append({"week": int(found.group(1)), "commitments": commitments})
    return sorted(out, key=lambda w: w["week"])


def _neighbour(weeks: list[int], week: int, direction: int) -> int | None:
    index = weeks.index(week) + direction
    return weeks[index] if 0 <= index < len(weeks) else None


def _plain_headline(match: dict) -> str:
    """A headline for a match whose writeup the league did not keep (run before m008)."""
    names = " vs. ".join(s["name"] for s in match["sides_named"])
    winner = next((s["name"] for s in match["sides_named"] if s["id"] == match["winner"]), None)
    if winner:
        return f"{names}: {winner} wins by {match['method']}" + (f" in round {match['end_round']}" if match["end_round"] else "")
    return f"{names}: {match['method'] or 'no result'}"


__all__ = ["build_site", "SiteReport", "state_chart", "page_name", "read_league"]
