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

Issue 18: the site grows cheaply. The folder's manifest (SITE_MARKER, JSON) keeps a
fingerprint of each page's context; a week's, a wrestler's and a closed season's page
(a "subject" page) is rendered only when its fingerprint changed, and gets its own
`known`, `run_weeks` (what it links) and `updated` (when what it shows last changed), so it
changes only when its subject does; a wrestler's chart runs to the last week he wrestled
or changed in. The league-wide pages are rendered each time and rewritten when their bytes
changed. Writeups are read a week at a time (`league.db.week_writeups`) and only for the
week pages rendered, so a build's memory does not hold every week's writeups. The output
is the same, byte for byte, as a full build (tests/test_site_incremental.py).

What a build holds does not grow with the weeks (but for a few bytes a week: each week's entry
in the manifest, its headlines kept as one JSON text, its row in the list of weeks): the
matches are read as one stream of rows, a week at a time
(`_Matches.stream`), or a wrestler's alone (`_Matches.of`); a week's or a wrestler's page
whose key (what it is made from, short of its every value: its run weeks and their runs,
the rows of those it shows, its titles) is the manifest's is kept without reading more; the
standings and the record book count as the rows go by (`records.standings_streamed`,
`recordbook.RecordBook`, fed the week pages' own matches), the record book's upsets kept in
the manifest through the last week built; the title changes are read a week's for its page,
a wrestler's for his, or as one stream (`league.pagereads.title_changes`), and each title's
reigns replayed when its page lists them (`league.pagereads.titles_streamed`): each wrestler's
titles stand in his page's key as one digest. The league's connection keeps a small page
cache (`SQLITE_CACHE_KIB`): a build reads each row about once.

A full build (the first, `--full`, or a folder with no manifest) is made in a staging
folder beside the target and swapped in whole; an incremental one writes the changed
pages beside it and renames each over the old, the manifest last. Its files and folders
are readable by others (0644 and 0755 under the usual umask, fedtool.fed.files).
"""

from __future__ import annotations

import datetime
import functools
import gc
import hashlib
import json
import math
import os
import re
import shutil
import tempfile
from collections import ChainMap, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from jinja2 import pass_context
from markupsafe import Markup, escape

from fedtool.fed.card import load_card
from fedtool import __version__
from fedtool.fed.files import NEW, StagedDir, atomic_write, overlapping, settle, umask
from fedtool.fed.render import _UNPLAIN, MARKDOWN_TEMPLATES, _finalize, environment, plain_text, render
from fedtool.fed.settings import WRESTLER_ID, Fed, week_name
from fedtool.kernel import clock
from fedtool.kernel.errors import FedError, Problem
from fedtool.league import records
from fedtool.kernel.dice import commitment
from fedtool.league.recordbook import CATEGORIES, HEADINGS, RecordBook, hall_of_fame, record_book_streamed
from fedtool.league.seasons import closed_seasons, current_season, season_archive
from fedtool.league.pagereads import title_changes as league_title_changes, titles_streamed
from fedtool.league.db import open_league, read_summary, revealed_seed_text, states_now, stored_stars, week_writeups
from fedtool.league.sheets import read_roster_sheet
from fedtool.rulesets import REGISTRY, get_ruleset, ruleset_order
from fedtool.week.ratings import card_rating, match_of_the_night
from fedtool.week.verify import published_commitments

from .feed import CALENDAR, FEED, Deadline, FeedEntry, atom_feed, deadline_calendar, newest_last

SITE_MARKER = ".fedtool-site"  # marks a folder fedtool built, so --out never replaces anything else
# the Atom feed's entries: the latest this many (by when each was last updated), as feeds do; a
# reader polls the feed and keeps what it saw, and every week stays on the news page and its own.
# The feed is then as long at week 500 as at week 50 (feedgen builds a feed whole, in memory)
FEED_ENTRIES = 20

SQLITE_CACHE_KIB = 64  # the league connection's page cache in a build (`_build_site`): it reads each row about once

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
    written: list[str] = field(default_factory=list)  # files rewritten (an incremental build: those whose page changed)
    removed: list[str] = field(default_factory=list)  # pages whose subject is gone
    full: bool = True  # built whole (no manifest, or --full)


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
    matches: list[dict]  # every match, week and card order, with "sides" and "stored_headline" (its writeup's, or None)
    states: dict[str, list[dict]]  # wrestler id -> state rows, week order
    changes: dict[int, list[dict]]  # week -> state rows of that week


def read_league(db, headlines: dict[str, str] | None = None) -> League:
    """The league's weeks, wrestlers, matches (with their writeups' `headlines`, by match id:
    `week_headlines`; the writeups themselves are read a week at a time) and states. Each
    match's rating is read from its summary by `read_summary` (the league may keep it packed)."""
    weeks = list(db["weeks"].rows_where(order_by="week"))
    wrestlers = {}
    for row in db["wrestlers"].rows_where(order_by="name"):
        row = dict(row)
        row["members"] = json.loads(row["members"]) if row.get("members") else []
        wrestlers[row["id"]] = row
    sides: dict[str, list[dict]] = defaultdict(list)
    for row in db["match_sides"].rows_where(order_by="match_id, side"):
        sides[row["match_id"]].append(row)
    headlines = headlines or {}
    matches = []
    for row in db["matches"].rows_where(order_by="week, position"):
        row = dict(row)
        row["sides"] = sides.get(row["id"], [])
        row["stored_headline"] = headlines.get(row["id"])
        row["rating"] = stored_stars(read_summary(row.get("summary")).get("rating"))  # docs/ratings.md
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


def cached_roster_sheets(fed: Fed, cached: dict | None) -> tuple[dict[str, dict], dict | None]:
    """`roster_sheets`, kept in the site's manifest between builds: read again only when a
    roster file, the fed's settings or fedtool's code changed (reading and checking 200
    sheets costs more than the rest of a week's incremental build). Returns the sheets and
    the entry to keep (None when a start state is not plain data)."""
    digest = hashlib.sha256(_code_stamp().encode())
    for path in sorted([fed.root / "rosters" / "fed.yaml", *fed.roster_files.values(), *fed.retired_files.values()]):
        digest.update(f"\0{path}\0".encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0unreadable")
    key = digest.hexdigest()
    if cached and cached.get("key") == key:
        try:
            return json.loads(json.dumps(cached["sheets"]), object_hook=_unplain), cached
        except (TypeError, ValueError, KeyError):
            pass
    sheets = roster_sheets(fed)
    try:
        kept = {"key": key, "sheets": json.loads(json.dumps(sheets, default=_plain_sheet))}
        if json.loads(json.dumps(kept["sheets"]), object_hook=_unplain) != sheets:
            kept = None  # a tuple, say: kept only what comes back the same
    except (TypeError, ValueError):
        kept = None
    return sheets, kept


def week_headlines(db, runs: dict[int, list], cached: dict | None) -> tuple[dict[str, str], dict]:
    """Every stored writeup's headline, by match id, and the entry to keep in the manifest:
    a week's headlines are read (`league.db.week_writeups`, one week at a time) only when
    the week was run or rerun since the last build (its runs and time), else taken from it."""
    out: dict[str, str] = {}
    kept: dict[str, dict] = {}
    for (week, ran_at) in db.execute("SELECT week, ran_at FROM weeks ORDER BY week").fetchall() if db["weeks"].exists() else []:
        key = json.dumps([week, ran_at, runs.get(week)])
        found = (cached or {}).get(str(week))
        if isinstance(found, dict) and found.get("key") == key and isinstance(found.get("headlines"), dict):
            headlines = found["headlines"]
        else:
            headlines = {match_id: w["headline"] for match_id, w in week_writeups(db, week).items()}
        kept[str(week)] = {"key": key, "headlines": headlines}
        out.update(headlines)
    return out, kept


def _plain_sheet(value):
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    raise TypeError(type(value).__name__)


def _unplain(value: dict):
    return Fraction(value["fraction"]) if value.keys() == {"fraction"} else value


@functools.cache
def _code_stamp() -> str:
    """fedtool's version and its code's files (size and time): a cache made by other code is not used."""
    package = Path(__file__).resolve().parent.parent
    stamp = [__version__]
    for path in sorted(package.rglob("*.py")):
        info = path.stat()
        stamp.append(f"{path.relative_to(package)}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(stamp)


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
    lower = label.lower()
    made: dict = {}  # each value's height, its text, and its label's text after the week, escaped: made once for all its points

    def of_value(v):
        found = made.get(v)
        if found is None:
            found = made[v] = (y(v), _text(v), _text(f": {lower} {v}"))
        return found

    shown = [{"week": w, "value": v, "x": x(w), "y": of_value(v)[0], "label": f"{'start' if w == 0 else f'week {w}'}: {lower} {v}"} for w, v in points]
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
        # the axes' ticks and each point's circle, as the template printed them one by one
        # (a fed's own chart template may still use `y_ticks`, `x_ticks` and `points`)
        "y_axis": Markup("".join(f'<line class="gridline" x1="{CHART_LEFT}" x2="{CHART_WIDTH - CHART_RIGHT}" y1="{_number_text(t["y"])}" y2="{_number_text(t["y"])}"/>'
                                 f'<text x="{CHART_LEFT - 10}" y="{_number_text(t["y"])}" text-anchor="end" dominant-baseline="middle">{_text(t["label"])}</text>\n'
                                 for t in y_ticks)),
        "x_axis": Markup("".join(f'<text x="{_number_text(t["x"])}" y="{CHART_TOP + plot_h + 26}" text-anchor="middle">{_text(t["label"])}</text>\n' for t in x_ticks)),
        "circles": Markup("".join(_circle(p, made[p["value"]]) for p in shown)),
        "description": f"{name}'s {label.lower()} by week: " + "; ".join(p["label"] for p in shown) + ".",
    }


def _circle(p: dict, value: tuple) -> str:
    """A chart point's circle (as chart.html.j2 prints one), its value's texts made already
    (`state_chart`); its label is "start" or "week N" (nothing to clean or escape), then its value's part."""
    week = p["week"]
    return (f'<circle class="point" cx="{_number_text(p["x"])}" cy="{_number_text(p["y"])}" r="6" data-week="{_number_text(week)}" '
            f'data-value="{value[1]}"><title>{"start" if week == 0 else f"week {week}"}{value[2]}</title></circle>\n')


def _number_text(value) -> str:
    """`_text` of a number (a chart's coordinate or week): its digits need no cleaning or escaping."""
    return str(value) if type(value) in (int, float) else _text(value)


@pass_context
def _site_finalize(context, value):
    """What `fedtool.fed.render`'s `_finalize` prints, a number straight away: its digits
    need no `plain_text` (an HTML template then escapes them, as it does any text)."""
    kind = type(value)
    if kind is str or kind is int or kind is float:
        name = context.name
        markdown = _MARKDOWN_NAMES.get(name)
        if markdown is None:
            markdown = _MARKDOWN_NAMES[name] = bool(name and name.endswith(MARKDOWN_TEMPLATES))
        if not markdown:
            if kind is not str:
                return str(value)
            # text: `plain_text`, its one search first (nearly every value is plain already)
            return value if _UNPLAIN.search(value) is None else plain_text(value)
    return _finalize(context, value)


_MARKDOWN_NAMES: dict = {}  # template name -> whether it is a Markdown one (`_site_finalize`)


_DICT_ATTRIBUTES = frozenset(dir(dict))


def _quick_lookups(env) -> None:
    """The sandbox's `x.y` and `f(x)`, quicker where the answer is known: `x.y` of a dict with no
    attribute `y` is its item "y" (what the sandbox finds after dict's attributes, as an exception
    is raised and caught), and the site's own page-name functions are called as they are. The
    same values; every other lookup and call goes through the sandbox as before."""
    sandboxed_getattr, sandboxed_call = env.getattr, env.call

    def getattr_(obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return sandboxed_getattr(obj, attribute)

    def call(context, obj, *args, **kwargs):
        if obj is week_page or obj is page_name or obj is season_page:
            kwargs.pop("_block_vars", None)  # what jinja hands every call for a context function (`Context.call` drops them too)
            kwargs.pop("_loop_vars", None)
            return obj(*args, **kwargs)
        return sandboxed_call(context, obj, *args, **kwargs)

    env.getattr = getattr_
    env.call = call


def _text(value) -> Markup:
    """A value as a site template prints it: `plain_text`, then escaped (fedtool.fed.render's finalize and autoescape)."""
    return escape(plain_text(value))


# ---------------------------------------------------------------- building


def default_out(fed: Fed) -> Path:
    return fed.outbox / "site"


def build_site(fed: Fed, out: Path | None = None, full: bool = False) -> SiteReport:
    """Build the fed's website into `out` (default outbox/site/).

    Incremental: the folder's manifest (in SITE_MARKER, written last) keeps a fingerprint
    of what each page shows; a page is rendered and rewritten only when its fingerprint
    changed (a week page when its week is run or rerun, a wrestler page when his matches,
    states, titles or names changed), pages whose subject is gone are removed, and the
    league-wide pages (home, lists, standings, records, news, feed, calendar) are rendered
    each time and rewritten when their bytes changed. Each file is replaced whole (written
    beside it, renamed over it), so a crash leaves each page old or new, never half; the
    manifest is written last, with the pages about to change left out first, so the next
    build redoes whatever a crash left undone. `full` (or a folder with no readable
    manifest) builds the whole folder beside the target and swaps it in whole.

    What it holds does not grow with the weeks (issue 18): the league's matches are read a
    week at a time (`_Matches.week`) or a wrestler at a time (`_Matches.of`), never all at
    once; a wrestler's page is read at all only when its key (`_wrestler_key`: his weeks and
    their runs, his states, titles and names) changed; standings and the record book count
    their rows as a stream (`records.standings_streamed`, `recordbook.record_book_streamed`).

    `out` must be a new or empty folder or one fedtool built before: fedtool never
    replaces a folder it did not make. Standings and title lineages come from
    `records`; the writeups are read one week at a time (`league.db.week_writeups`), only
    for the week pages rendered.

    Python's collector is kept off what was there before the build (`gc.freeze`): its full
    passes would otherwise walk every object fedtool and its libraries made, over and over,
    for the cycles of the build's own (each page's rendering makes a few)."""
    gc.freeze()
    try:
        return _build_site(fed, out, full)
    finally:
        gc.unfreeze()


def _build_site(fed: Fed, out: Path | None, full: bool) -> SiteReport:
    given = out is not None
    out = Path(out) if out is not None else default_out(fed)
    _check_out(fed, out, given)
    db = open_league(fed.database, create=False)
    # SQLite's page cache (2 MiB by default) filled as a build reads the league's every row once: kept small,
    # so that what a build holds does not grow with the league's file (the OS caches the file itself)
    db.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}")
    old = None if full else read_manifest(out)
    runs = _week_runs(db)
    headline_cache = week_headline_cache(db, runs, old.get("headlines") if old else None)
    weeks = [dict(w) for w in db["weeks"].rows_where(order_by="week")]
    league_wrestlers = {}
    for row in db["wrestlers"].rows_where(order_by="name"):
        row = dict(row)
        row["members"] = json.loads(row["members"]) if row.get("members") else []
        league_wrestlers[row["id"]] = row
    sheets, sheet_cache = cached_roster_sheets(fed, old.get("sheets") if old else None)
    env = environment(fed.templates)
    env.filters["day"] = day
    env.finalize = _site_finalize  # the same text as render's, numbers without the cleaning they never need
    env.auto_reload = False  # a template does not change during a build: not checked on disk at each page
    _quick_lookups(env)
    week_numbers = [w["week"] for w in weeks]
    run_weeks = set(week_numbers)
    ran_at = {w["week"]: w["ran_at"] for w in weeks}
    # every league member and every roster sheet has a page; the league's name first, as records does
    wrestlers = {wid: dict(w) for wid, w in league_wrestlers.items()}
    for wid, sheet in sheets.items():
        wrestlers.setdefault(wid, {"id": wid, "name": sheet["name"], "ruleset": sheet["ruleset"], "members": sheet["members"]})
    wrestlers = dict(sorted(wrestlers.items(), key=lambda item: (item[1]["name"].casefold(), item[0])))
    names = {wid: w["name"] for wid, w in wrestlers.items()}
    latest_states = states_now(db)  # what each wrestler stands at now (a season's carry-over included)
    standings = records.standings_streamed(fed, db, states=latest_states)
    titles = titles_streamed(fed, db)  # each title's reigns replayed when a page lists them, never all held
    archives = [season_archive(db, s["season"]) for s in closed_seasons(db)]
    in_play = dict(current_season(db), standings=None, records=None)
    if in_play["weeks"] and archives:  # its page; before any close the season is the league (standings.html, records.html)
        in_play["standings"] = records.standings_streamed(fed, db, weeks=(in_play["weeks"][0], in_play["weeks"][-1]), states=latest_states)
        in_play["records"] = record_book_streamed(fed, db, weeks=(in_play["weeks"][0], in_play["weeks"][-1]))
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
    league_dated = _dated(shown_updated, "built" if updated is None else "league")
    first_moment = _first_moment(weeks)

    common = {
        "fed_name": fed.settings.name,
        "ruleset_names": {rid: ruleset.name for rid, ruleset in rulesets.items()},
        "week_page": week_page,
        "page_name": page_name,
        "run_weeks": run_weeks,
        "known": wrestlers,
        "title_names": title_names,
        "season_page": season_page,
        "updated": league_dated,
        "feed": FEED,
        "calendar": CALENDAR,
    }
    shared = _fingerprint(fed_fingerprint(fed), {k: v for k, v in common.items() if k not in _PER_PAGE and not callable(v)})
    upsets = dict((old or {}).get("upsets") or {})  # each week's upsets, kept for the record book (`record_book_streamed`)
    site = _SiteWriter(out, old, shared, {"sheets": sheet_cache, "headlines": headline_cache, "upsets": upsets})
    # each wrestler fingerprinted once: where a page lists one, he stands as his digest (`_shown`)
    wrestler_digests = {id(wrestler): "wrestler:" + _digest(wrestler) for wrestler in wrestlers.values()}
    matches = _Matches(db, names, headline_cache)

    def page(path: str, template: str, subject: bool = False, defer: list | None = None, **context) -> None:
        """One page. A subject page (a week, a wrestler, a closed season) is given its own
        `known`, `run_weeks` and `updated` (what it links and shows, and when that last
        changed) and is rendered only when its fingerprint changed; any other page is
        rendered each time and its bytes are its fingerprint."""
        root = "../" * path.count("/")
        values = {**common, **context}
        if subject:
            values["known"] = {wid: wrestlers[wid] for wid in sorted(values.pop("refs")) if wid in wrestlers}
            values["run_weeks"] = {w for w in values.pop("weeks_shown") if w in run_weeks}
            moments = [m for m in values.pop("moments") if m]
            if updated is None:  # an empty league: every page says when it was built
                values["updated"] = league_dated
            else:
                values["updated"] = _dated(max(map(_moment, moments)) if moments else first_moment or updated, "page")
            extra = values.pop("extra", None)
            shown = values.pop("shown", ())  # the matches it lists, each fingerprinted as its digest
            digests = ChainMap({id(match): "match:" + _digest(match) for match in shown}, wrestler_digests)
            # what the page shows: its own values (the common ones are in `shared`), as they stand
            fingerprint = _page_fingerprint(shared, path, template, {k: _shown(v, digests) for k, v in values.items() if not callable(v) and common.get(k, _NONE) is not v}, extra)
            if not site.wanted(path, fingerprint):
                return
            if defer is not None:  # rendered later, when it is called again without
                defer.append(values["week"])
                return
            late = values.pop("late", None)
            made = late() if late is not None else {}
            values.update(made)
            site.stream(path, _generated(env, f"site/{template}", dict(values, root=root)), fingerprint)
            for value in made.values():  # a week's writeups: let go now, not when a rendering's cycles are collected
                if type(value) is list:
                    value.clear()
        else:
            site.stream(path, _generated(env, f"site/{template}", dict(values, root=root)))

    def week_title_changes(number: int) -> list[dict]:
        """A week's title changes, read for its page alone (`title_change_rows`)."""
        return title_change_rows(db, names, title_names, (number, number)).get(number, [])

    deadlines = {d.week: d for d in card_deadlines(fed, names)}
    latest = weeks[-1] if weeks else None
    first_runs = {week: ran for week, ran in db.execute("SELECT week, MIN(ran_at) FROM week_runs GROUP BY week").fetchall()} if db["week_runs"].exists() else {}
    with site:
        # the record book, fed the matches as the weeks go by (a match of no run week, a hand edit's, is read by it alone)
        book = RecordBook(fed, db, upsets=upsets, salt=_fingerprint(_code_stamp(), sheets))
        astray = db.execute("SELECT 1 FROM matches WHERE week NOT IN (SELECT week FROM weeks) LIMIT 1").fetchone() is not None

        def week_page_of(week: dict, shown: list[dict], state_changes: list, defer: list | None = None, read: list | None = None,
                         its_titles: list[dict] | None = None) -> None:
            number = week["week"]
            its_titles = week_title_changes(number) if its_titles is None else its_titles
            changes = [{"id": wid, "name": names.get(wid, wid), "reason": reason} for wid, reason in state_changes if reason] + its_titles

            def writeups() -> dict:
                # the fragment was rendered, escaped, by the run's own autoescaping templates; writeups read already
                # are taken out of `read`, so that nothing holds them (their Markdown with them) while the page renders
                stored = read.pop() if read else week_writeups(db, number)
                return {"matches": [dict(m, html=Markup(stored[m["id"]]["html"]) if m["id"] in stored else None) for m in shown]}

            page(
                week_page(number), "week.html.j2", subject=True,
                week=week,
                matches=shown,
                changes=changes,
                show=_show(shown),
                dice=_revealed(number, shown),
                previous=_neighbour(week_numbers, number, -1),
                next=_neighbour(week_numbers, number, +1),
                refs={s["id"] for m in shown for s in m["sides_named"]} | {c["id"] for c in changes},
                weeks_shown={number, *(w for w in (_neighbour(week_numbers, number, -1), _neighbour(week_numbers, number, +1)) if w is not None)},
                moments=[week["ran_at"], *(c["at"] for c in its_titles)],
                extra=runs.get(number),  # the writeups are the week's run's: a rerun makes new ones
                late=writeups,
                shown=shown,
                defer=defer,
            )

        by_id = {wid: int(wrestler_digests[id(w)][9:41], 16) for wid, w in wrestlers.items()}  # each wrestler's digest, as a number
        old_keys = (old or {}).get("keys") or {}
        deferred: list[dict] = []  # the week pages to render, once the record book is made (what it holds let go first)
        titles_by_week = _TitleChangesByWeek(db, names, title_names)  # each week's title changes, from one stream as the weeks go by
        for week, (number, shown, state_changes) in zip(weeks, matches.stream(week_numbers)):  # a week at a time
            its_titles = titles_by_week.get(number)
            if not astray:
                book.add([{"id": m["id"], "week": m["week"], "match": m["match"], "ruleset": m["ruleset"], "card_title": m["title"] or None, "winner": m["winner"],
                           "method": m["method"], "sides": [(s["wrestler_id"], s["outcome"]) for s in m["sides"]], "rating": m["rating"]} for m in shown])
            path = week_page(number)
            # what its page is made from, short of its matches' every value: the week, its run, its neighbours, its title
            # changes, and the rows of everyone it shows (a rerun makes a new run; nothing else changes a run week's rows)
            refs = sorted({s["wrestler_id"] for m in shown for s in m["sides"]} | {wid for wid, reason in state_changes if reason} | {c["id"] for c in its_titles})
            site.keys[path] = _fingerprint(shared, path, week, runs.get(number), _neighbour(week_numbers, number, -1), _neighbour(week_numbers, number, +1),
                                           its_titles, [(wid, by_id.get(wid)) for wid in refs])
            if headline_cache[str(number)][1] is None:
                deferred.append(week)  # run since the last build: its page is rendered, its headlines read with its writeups then
            elif not site.unchanged(path, site.keys[path], old_keys):
                week_page_of(week, shown, state_changes, deferred, its_titles=its_titles)
        records_book = record_book_streamed(fed, db, upsets=upsets, salt=book.salt) if astray else book.book()
        del book
        for week in deferred:
            # the last page's cycles (each rendering makes a few) let go before this week's writeups are read: the
            # build's highest point; left to the collector's own passes, they pile up over the week pages of a full build
            gc.collect()
            read = []
            if headline_cache[str(week["week"])][1] is None:
                read.append(week_writeups(db, week["week"]))
                _fill_headlines(headline_cache, week["week"], read[0])
            week_page_of(week, matches.week(week["week"]), matches.changes(week["week"]), read=read)
        latest_matches = matches.week(latest["week"]) if latest else []
        page(
            "index.html", "home.html.j2",
            latest=latest,
            latest_matches=latest_matches,
            latest_changes=[{"id": wid, "name": names.get(wid, wid), "reason": reason} for wid, reason in matches.changes(latest["week"]) if reason]
                           + week_title_changes(latest["week"]) if latest else [],
            titles=titles,
            weeks=weeks,
            opened=[dict(w, deadline=_shown_deadline(deadlines.get(w["week"]))) for w in opened_weeks(fed, run_weeks)],
        )
        del latest_matches
        page("weeks/index.html", "weeks.html.j2", weeks=weeks, matches_by_week=_WeeksMatches(matches, week_numbers))
        # each wrestler's titles, as one figure (his title changes and reigns, and the runs of their weeks), the last week of
        # a title change of his, whether he holds one now and which he ever held: streamed, one entry a wrestler
        held_by: dict[str, list] = {}

        def held(wid: str) -> list:
            found = held_by.get(wid)
            if found is None:
                found = held_by[wid] = [hashlib.sha256(), None, False, set()]
            return found

        for row in league_title_changes(db):
            week, c = row[0], _title_change(row, names, title_names)
            for who in dict.fromkeys((c["id"], c["lost"])):
                if who is not None:
                    found = held(who)
                    found[0].update(_fingerprint(week, c, runs.get(week), ran_at.get(week)).encode())
                    found[1] = week if found[1] is None else max(found[1], week)
        for title in titles:
            for reign in title["reigns"]:
                found = held(reign["wrestler_id"])
                found[0].update(_fingerprint(title["id"], title["name"], reign, *((runs.get(w), ran_at.get(w)) for w in (reign["won_week"], reign["lost_week"]))).encode())
                found[2] = found[2] or reign["lost_week"] is None
                found[3].add(title["id"])

        def reigns_of(wid: str, held_titles) -> list[dict]:
            """His reigns, oldest first: each title he ever held replayed (`league.pagereads.title_reigns`)."""
            his = [dict(reign, title_id=title["id"], title_name=title["name"]) for title in titles if title["id"] in held_titles
                   for reign in title["reigns"] if reign["wrestler_id"] == wid]
            return sorted(his, key=lambda r: (r["won_week"], r["title_id"]))

        teams_of: dict[str, list[str]] = defaultdict(list)
        for wid, wrestler in wrestlers.items():
            for member in wrestler["members"]:
                teams_of[member].append(wid)
        match_weeks, state_weeks = matches.weeks_of()
        met = matches.partners(by_id)  # who each wrestler met, as they stand: one figure each
        for wid, wrestler in wrestlers.items():
            path = f"wrestlers/{page_name(wid)}.html"
            start = sheets[wid]["start"] if wid in sheets else None
            carried = [(a, c) for a in archives for c in a["carry_over"]["changes"] if c["wrestler_id"] == wid]
            titled, last_titled, champion, held_titles = held_by.get(wid) or (None, None, False, ())
            active = _weeks_in(match_weeks.get(wid)) | _weeks_in(state_weeks.get(wid)) | {a["last_week"] for a, _ in carried}
            if last_titled is not None:
                active.add(last_titled)
            champion = latest is not None and champion  # a reign's length grows each week
            chart_weeks = [w for w in week_numbers if w <= max(active, default=0)]
            # what his page is made from, short of reading his matches: his weeks and their runs, his states now, his titles
            # (`titled`: his title changes and reigns, and their weeks' runs), the names and rows of those it shows
            # (himself, whoever he met, his members and teams)
            shows = [by_id.get(w) for w in (*wrestler["members"], *teams_of.get(wid, []))]
            key = _fingerprint(shared, path, wrestler_digests[id(wrestler)], met.get(wid), shows, sorted(active), [(w, runs.get(w), ran_at.get(w)) for w in sorted(active)],
                               latest_states.get(wid), start, charts.get(wrestler["ruleset"]), titled.hexdigest() if titled else None, carried, teams_of.get(wid, []),
                               chart_weeks, latest["ran_at"] if champion else None, league_dated if updated is None else None, first_moment)
            if site.unchanged(path, key, old_keys):
                continue
            mine = [(week, c) for week, found in (title_change_rows(db, names, title_names, None, wid).items() if titled else ()) for c in found]
            reigns = reigns_of(wid, held_titles)
            reign_weeks = {w for r in reigns for w in (r["won_week"], r["lost_week"]) if w is not None}
            history = []
            his = matches.of(wid)
            for match in his:
                side = next(s for s in match["sides_named"] if s["id"] == wid)
                history.append({"match": match, "outcome": side["outcome"], "opponents": [s for s in match["sides_named"] if s["id"] != wid]})
            states = matches.states_of(wid)
            # the league changes: his states, and every title he won, lost or was given or stripped of
            held = [{"week": week, "push_level": None, "push_points": None, "tv_grade": None, "grudge": None, "injury": None,
                     "reason": c["reason"] if c["id"] == wid else c["lost_reason"]} for week, c in mine]
            # and what a season's close reset (its carry-over), after the season's last week
            held += [{"week": a["last_week"], "push_level": None, "push_points": None, "tv_grade": None, "grudge": None, "injury": None,
                      "reason": f"{a['name']} closed: {c['reason'].removeprefix('new season: ')}"} for a, c in carried]
            state_changes = sorted([*states, *held], key=lambda r: r["week"])
            members = [{"id": m, "name": names.get(m, m)} for m in wrestler["members"]]
            teams = [{"id": t, "name": names[t]} for t in teams_of.get(wid, [])]
            # his chart runs to the last week he wrestled or changed in, so his page is the same until he does again
            active = {h["match"]["week"] for h in history} | {s["week"] for s in state_changes}
            chart_weeks = [w for w in week_numbers if w <= max(active, default=0)]
            page(
                path, "wrestler.html.j2", subject=True,
                wrestler=wrestler,
                record=wrestler_record(history),
                history=history,
                states=state_changes,
                current={**(start or {}), **latest_states[wid]} if wid in latest_states else states[-1] if states else start or {},
                extra=[charts.get(wrestler["ruleset"]), start, chart_weeks],  # what the chart is drawn from, with his states
                late=lambda name=wrestler["name"], charted=charts.get(wrestler["ruleset"]), start=start, states=states, weeks=chart_weeks:
                    {"chart": state_chart(name, charted, start, states, weeks)},
                reigns=reigns,
                members=members,
                teams=teams,
                refs={wid, *(o["id"] for h in history for o in h["opponents"]), *(m["id"] for m in members), *(t["id"] for t in teams)},
                weeks_shown=active | reign_weeks,
                moments=[*(ran_at.get(w) for w in active | reign_weeks), *(c["at"] for _, c in mine), *(a["closed_at"] for a, _ in carried),
                         latest["ran_at"] if champion else None],
                shown=his,
            )
            site.keys[path] = key
        by_ruleset: dict[str, list[dict]] = defaultdict(list)
        for wrestler in wrestlers.values():
            by_ruleset[wrestler["ruleset"]].append(wrestler)
        page("wrestlers/index.html", "wrestlers.html.j2", by_ruleset=dict(sorted(by_ruleset.items(), key=lambda i: (ruleset_order(i[0]), i[0]))))
        page("standings.html", "standings.html.j2", standings=standings, seasons_closed=bool(archives))
        page("titles/index.html", "titles.html.j2", titles=titles)
        for title in titles:
            page(f"titles/{page_name(title['id'])}.html", "title.html.j2", title=title)
        page("records.html", "records.html.j2", book=records_book, hall_of_fame=hall_of_fame(db), categories=CATEGORIES, headings=HEADINGS)
        page("seasons/index.html", "seasons.html.j2", archives=archives, in_play=in_play)
        for archive in archives:
            page(season_page(archive["season"]), "season.html.j2", subject=True, season=archive, closed=True, categories=CATEGORIES, headings=HEADINGS,
                 refs=_ids_in(archive, wrestlers), weeks_shown={w for w in run_weeks if w <= archive["last_week"]}, moments=[archive["closed_at"]])
        if archives:  # the season in play, live; before any close it is all the league has (standings.html, records.html)
            page(season_page(in_play["season"]), "season.html.j2", season=in_play, closed=False, categories=CATEGORIES, headings=HEADINGS)
        # every entry for the news page (newest first), only the latest FEED_ENTRIES with their text, for the feed
        entries = newest_last([*(_week_entry(week, None, (), (), names, first_runs) for week in weeks), *(_season_entry(archive) for archive in archives)])
        fed_weeks = {e.path for e in entries[-FEED_ENTRIES:] if e.html is None}
        page("news.html", "news.html.j2", entries=entries[::-1], deadlines=[d for week, d in sorted(deadlines.items()) if week not in run_weeks])
        latest_entries = [*_week_entries(db, matches, [w for w in weeks if week_page(w["week"]) in fed_weeks], week_title_changes, names, first_runs),
                          *(e for e in entries[-FEED_ENTRIES:] if e.html is not None)]
        del entries
        site.stream("style.css", _generated(env, "site/style.css.j2", {}))
        site.write(FEED, atom_feed(fed, latest_entries, shown_updated))
        site.write(CALENDAR, deadline_calendar(fed, list(deadlines.values()), shown_updated))
    return SiteReport(out, sorted(p for p in site.pages if p.endswith(".html")), len(weeks), len(wrestlers), len(titles),
                      written=sorted(site.written), removed=sorted(site.removed), full=site.full)


class _Matches:
    """The league's matches as the pages show them, read a week or a wrestler at a time (never all at
    once: what a build holds does not grow with the weeks). Each match: its `matches` row, its
    "sides" (`match_sides` rows), "stored_headline" (its writeup's, from `week_headline_cache`),
    "rating" (`read_summary`), "for_title", "sides_named", "headline" and "html" (None: read for
    its week's page only)."""

    def __init__(self, db, names: dict[str, str], headlines: dict):
        self.db, self.names, self.headlines = db, names, headlines
        self.decoded: tuple = (None, None, None)  # the last week's headlines decoded: (week, its text, by match id)
        self.titles = db["title_matches"].exists()  # m007: which title each title match was for

    def headlines_of(self, week: int) -> dict[str, str] | None:
        """A week's stored headlines by match id, from `week_headline_cache`'s text (None: not read yet), the last week's kept decoded."""
        found = self.headlines.get(str(week))
        text = found[1] if found is not None else None
        if text is None:
            return None
        if self.decoded[0] != week or self.decoded[1] is not text:
            self.decoded = (week, text, json.loads(text))
        return self.decoded[2]

    def week(self, week: int) -> list[dict]:
        return self._read("week = ?", [week])

    def of(self, wrestler_id: str) -> list[dict]:
        """A wrestler's matches, week and card order (as `week` reads a week's)."""
        db, his = self.db, "IN (SELECT match_id FROM match_sides WHERE wrestler_id = ?)"
        rows = db.execute(f"SELECT * FROM matches WHERE id {his} ORDER BY week, position", [wrestler_id])
        columns = [d[0] for d in rows.description]
        matches = [dict(zip(columns, row)) for row in rows]
        sides: dict[str, list[dict]] = defaultdict(list)
        found = db.execute(f"SELECT * FROM match_sides WHERE match_id {his} ORDER BY match_id, side", [wrestler_id])
        columns = [d[0] for d in found.description]
        for row in found:
            side = dict(zip(columns, row))
            sides[side["match_id"]].append(side)
        for_title = dict(db.execute(f"SELECT match_id, title_id FROM title_matches WHERE match_id {his}", [wrestler_id]).fetchall()) if self.titles else {}
        return self._finish(matches, sides, for_title)

    def _read(self, where: str, params: list) -> list[dict]:
        db = self.db
        rows = [dict(row) for row in db["matches"].rows_where(where, params, order_by="week, position")]
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        marks = ", ".join("?" * len(ids))
        sides: dict[str, list[dict]] = defaultdict(list)
        for row in db["match_sides"].rows_where(f"match_id IN ({marks})", ids, order_by="match_id, side"):
            sides[row["match_id"]].append(row)
        for_title = dict(db.execute(f"SELECT match_id, title_id FROM title_matches WHERE match_id IN ({marks})", ids).fetchall()) if self.titles else {}
        return self._finish(rows, sides, for_title)

    def stream(self, numbers: list[int], descending: bool = False, changes: bool = True):
        """Each of the weeks `numbers` (in the order asked for: ascending, or `descending`) with
        its matches (as `week` reads them) and, with `changes`, its state changes (as `changes`
        reads them), from one stream of rows for each table: a week at a time, never all."""
        db, order = self.db, "DESC" if descending else "ASC"
        rows = db.execute(f"SELECT * FROM matches ORDER BY week {order}, position")
        columns = [d[0] for d in rows.description]
        at = columns.index("week")
        sides = db.execute(f"SELECT m.week, s.* FROM match_sides s JOIN matches m ON m.id = s.match_id ORDER BY m.week {order}, s.match_id, s.side")
        side_columns = [d[0] for d in sides.description][1:]
        of_match = side_columns.index("match_id")
        titles = db.execute(f"SELECT m.week, t.match_id, t.title_id FROM title_matches t JOIN matches m ON m.id = t.match_id ORDER BY m.week {order}") \
            if self.titles else iter(())
        moved = db.execute(f"SELECT week, wrestler_id, reason FROM wrestler_states ORDER BY week {order}, wrestler_id, rowid") if changes else iter(())
        row, side, title, change = next(rows, None), next(sides, None), next(titles, None), next(moved, None)
        for number in numbers:
            matches: list[dict] = []
            while row is not None and (row[at] > number if descending else row[at] < number):
                row = next(rows, None)
            while row is not None and row[at] == number:
                matches.append(dict(zip(columns, row)))
                row = next(rows, None)
            its_sides: dict[str, list[dict]] = defaultdict(list)
            while side is not None and (side[0] > number if descending else side[0] < number):
                side = next(sides, None)
            while side is not None and side[0] == number:
                its_sides[side[1 + of_match]].append(dict(zip(side_columns, side[1:])))
                side = next(sides, None)
            for_title = {}
            while title is not None and (title[0] > number if descending else title[0] < number):
                title = next(titles, None)
            while title is not None and title[0] == number:
                for_title[title[1]] = title[2]
                title = next(titles, None)
            its_changes = []
            while change is not None and (change[0] > number if descending else change[0] < number):
                change = next(moved, None)
            while change is not None and change[0] == number:
                its_changes.append((change[1], change[2]))
                change = next(moved, None)
            yield number, self._finish(matches, its_sides, for_title), its_changes

    def _finish(self, rows: list[dict], sides: dict[str, list[dict]], for_title: dict[str, str]) -> list[dict]:
        names = self.names
        for match in rows:
            match["sides"] = sides.get(match["id"], [])
            kept = self.headlines_of(match["week"])
            match["stored_headline"] = kept.get(match["id"]) if isinstance(kept, dict) else None
            match["rating"] = stored_stars(read_summary(match.get("summary")).get("rating"))  # docs/ratings.md
            match["for_title"] = for_title.get(match["id"])
            match["sides_named"] = [{"id": s["wrestler_id"], "name": names.get(s["wrestler_id"], s["wrestler_id"]), "outcome": s["outcome"]} for s in match["sides"]]
            match["headline"] = match["stored_headline"] if match["stored_headline"] is not None else _plain_headline(match)
            match["html"] = None  # its writeup: read for its week's page only, when that is rendered
        return rows

    def changes(self, week: int) -> list[tuple[str, str | None]]:
        """A week's state changes: (wrestler, reason), by wrestler."""
        return self.db.execute("SELECT wrestler_id, reason FROM wrestler_states WHERE week = ? ORDER BY wrestler_id, rowid", [week]).fetchall()

    def states_of(self, wrestler_id: str) -> list[dict]:
        """A wrestler's state rows, week order."""
        return list(self.db["wrestler_states"].rows_where("wrestler_id = ?", [wrestler_id], order_by="week, rowid"))

    def partners(self, digests: dict[str, int]) -> dict[str, int]:
        """For each wrestler, the XOR of `digests` of everyone he was in a match with (a figure that
        changes with any of them), the pairs read as a stream: one figure a wrestler."""
        out: dict[str, int] = {}
        for wid, other in self.db.execute("SELECT DISTINCT a.wrestler_id, b.wrestler_id FROM match_sides a "
                                          "JOIN match_sides b ON b.match_id = a.match_id AND b.wrestler_id != a.wrestler_id"):
            out[wid] = out.get(wid, 0) ^ digests.get(other, 1)
        return out

    def weeks_of(self) -> tuple[dict[str, str], dict[str, str]]:
        """Each wrestler's weeks: those he wrestled in, those his state changed in (SQL groups them), each as
        its text ("3,7,12": `_weeks_in` reads it, for his page alone; a set of numbers for every wrestler would grow with the weeks)."""
        out = []
        for sql in ("SELECT s.wrestler_id, group_concat(DISTINCT m.week) FROM match_sides s JOIN matches m ON m.id = s.match_id GROUP BY s.wrestler_id",
                    "SELECT wrestler_id, group_concat(DISTINCT week) FROM wrestler_states GROUP BY wrestler_id"):
            out.append({wid: str(found) for wid, found in self.db.execute(sql) if found is not None})
        return out[0], out[1]


def _weeks_in(text: str | None) -> set[int]:
    """The weeks `_Matches.weeks_of` gave as text."""
    return {int(w) for w in text.split(",")} if text else set()


class _WeeksMatches(Mapping):
    """`matches_by_week` for the list of every week: each week's matches read when the page asks
    for them, and not kept; asked for newest first (as fedtool's template does), from one stream
    (`_Matches.stream`), else a week at a time."""

    def __init__(self, matches: _Matches, weeks: list[int]):
        self.matches, self.weeks, self.known = matches, weeks, set(weeks)
        self.stream = None
        self.ahead = None

    def __getitem__(self, week):
        if week not in self.known:
            raise KeyError(week)
        if self.stream is None:
            self.stream = self.matches.stream(self.weeks[::-1], descending=True, changes=False)
            self.ahead = next(self.stream, None)
        while self.ahead is not None and self.ahead[0] > week:
            self.ahead = next(self.stream, None)
        if self.ahead is not None and self.ahead[0] == week:
            found, self.ahead = self.ahead[1], None
            self.ahead = next(self.stream, None)
            return found
        return self.matches.week(week)

    def __iter__(self):
        return iter(self.weeks)

    def __len__(self) -> int:
        return len(self.weeks)


def week_headline_cache(db, runs: dict[int, list], cached: dict | None) -> dict[str, list]:
    """`week_headlines`' entry to keep in the manifest, by week: [its key, its headlines by match id as
    one JSON text] (one text a week, not a dict of texts: what a build holds for the weeks it does not
    show stays small; `_Matches.headlines_of` decodes a week's when asked). A week's headlines are read
    (`league.db.week_writeups`) only when the week was run or rerun since the last build."""
    kept: dict[str, list] = {}
    for (week, ran_at) in db.execute("SELECT week, ran_at FROM weeks ORDER BY week").fetchall() if db["weeks"].exists() else []:
        key = json.dumps([week, ran_at, runs.get(week)])
        found = (cached or {}).get(str(week))
        if type(found) is list and len(found) == 2 and found[0] == key and type(found[1]) is str and _headlines_text(found[1]):
            kept[str(week)] = found
        else:  # read with the week's writeups when its page is rendered (it is: its run is new), filled in then (`_fill_headlines`)
            kept[str(week)] = [key, None]
    return kept


def _headlines_text(text: str) -> bool:
    """Whether a kept week's headlines read as they were written: a JSON object of texts."""
    try:
        found = json.loads(text)
    except ValueError:
        return False
    return type(found) is dict and all(type(v) is str for v in found.values())


def _fill_headlines(cache: dict, week: int, writeups: dict[str, dict]) -> None:
    """A week's headlines kept from its writeups, read for its page."""
    cache[str(week)][1] = json.dumps({match_id: w["headline"] for match_id, w in writeups.items()}, ensure_ascii=False, separators=(",", ":"))


def _week_entries(db, matches: "_Matches", weeks: list[dict], title_changes, names: dict[str, str], first_runs: dict[int, str]) -> list[FeedEntry]:
    """Every run week's feed entry, oldest first: its headlines (as its matches show them: the
    writeups' kept in the manifest, else read with its matches) and changes read as a stream."""
    ids = db.execute("SELECT week, id FROM matches ORDER BY week, position")
    moved = db.execute("SELECT week, wrestler_id, reason FROM wrestler_states ORDER BY week, wrestler_id, rowid")
    row, change = next(ids, None), next(moved, None)
    out = []
    for week in weeks:
        number = week["week"]
        kept = matches.headlines_of(number) or {}
        headlines: list[str | None] = []
        while row is not None and row[0] < number:
            row = next(ids, None)
        while row is not None and row[0] == number:
            headlines.append(kept.get(row[1]))
            row = next(ids, None)
        if None in headlines:  # a match whose writeup the league did not keep: its headline made from its row
            headlines = [m["headline"] for m in matches.week(number)]
        changes = []
        while change is not None and change[0] < number:
            change = next(moved, None)
        while change is not None and change[0] == number:
            changes.append((change[1], change[2]))
            change = next(moved, None)
        out.append(_week_entry(week, headlines, changes, title_changes(number), names, first_runs))
    return out


def _week_entry(week: dict, headlines: list[str] | None, changes, title_changes, names: dict[str, str], first_runs: dict[int, str]) -> FeedEntry:
    """A run week's feed entry (`feed_entries`): its results and changes, published at its first run, updated at its latest.
    With no `headlines`, its text is None: an entry the news page lists, not in the feed (`FEED_ENTRIES`)."""
    number = week["week"]
    ran = _moment(week["ran_at"])
    if headlines is None:
        return FeedEntry(week_page(number), f"Results: {week['title']}", ran, min(ran, _moment(first_runs.get(number) or week["ran_at"])), None)
    lines = [f"<li>{escape(headline)}</li>" for headline in headlines]
    moved = [f"<li>{escape(names.get(wid, wid))}: {escape(reason)}</li>" for wid, reason in changes if reason]
    moved += [f"<li>{escape(c['name'])}: {escape(c['reason'])}</li>" for c in title_changes]
    html = "<ul>" + "".join(lines) + "</ul>" + (f"<p>League changes:</p><ul>{''.join(moved)}</ul>" if moved else "")
    return FeedEntry(week_page(number), f"Results: {week['title']}", ran, min(ran, _moment(first_runs.get(number) or week["ran_at"])), html)


def _season_entry(archive: dict) -> FeedEntry:
    """A closed season's feed entry (`feed_entries`)."""
    closed = _moment(archive["closed_at"])
    champions = [f"<li>{escape(c['name'])}: {escape(c['holder_name'] or 'vacant')}</li>" for c in archive["champions"]]
    awards = [f"<li>{escape(a['award'])}: {escape(', '.join(w['name'] for w in a['winners']) or a['why'])}</li>" for a in archive["awards"]]
    html = f"<p>{escape(archive['name'])} closed after week {archive['last_week']}.</p><ul>{''.join(champions)}</ul><ul>{''.join(awards)}</ul>"
    return FeedEntry(season_page(archive["season"]), f"{archive['name']} closed", closed, closed, html)


# ---------------------------------------------------------------- writing: the manifest, whole files

MANIFEST_FORMAT = 1
_PER_PAGE = ("known", "run_weeks", "updated")  # what a subject page is given of its own


def _fingerprint(*parts) -> str:
    text = json.dumps(parts, sort_keys=True, default=_plain, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_NONE = object()


def _digest(row: dict) -> str:
    """A match's or a wrestler's digest: its `repr`, which says every value it holds (text,
    numbers, None, bytes, lists and dicts of them, keys in the order the league's columns
    and the build make them); quicker than JSON."""
    return hashlib.sha256(repr(row).encode("utf-8", "surrogatepass")).hexdigest()


def _shown(value, digests: dict[int, str]):
    """A page's value for its fingerprint: each match (by identity) in it put as its digest,
    down to a list's items and their own values (a list of matches, a history's entries).
    A match deeper still is fingerprinted whole: the same fingerprint, only slower."""
    if isinstance(value, dict):
        found = digests.get(id(value))
        return found if found is not None else {k: _shown_item(v, digests) for k, v in value.items()}
    if isinstance(value, list):
        return [_shown_item(v, digests) for v in value]
    return value


def _shown_item(value, digests: dict[int, str]):
    if type(value) is dict:
        found = digests.get(id(value))
        if found is not None:
            return found
        return {k: digests.get(id(v), v) if type(v) is dict else v for k, v in value.items()}
    return value


def _page_fingerprint(*parts) -> str:
    """A subject page's fingerprint: `_fingerprint` of its values (`_shown`: the matches and
    wrestlers it lists as their digests), by json's C encoder with no walk in Python first."""
    text = json.dumps(parts, sort_keys=True, default=_plain, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value):
    """A value json does not know, for a fingerprint: sets sorted, everything else as its text."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, FeedEntry):
        return [value.path, value.title, value.updated, value.published, value.html]
    return f"{type(value).__name__}:{value}"


def fed_fingerprint(fed: Fed) -> str:
    """What every page depends on besides the league: fedtool's version and code (`_code_stamp`),
    the site's templates (fedtool's and the fed's own), the fed's settings."""
    digest = hashlib.sha256(_code_stamp().encode())
    here = Path(__file__).resolve().parent
    files = sorted((here.parent / "templates" / "site").rglob("*"))
    if fed.templates.is_dir():
        files += sorted(p for p in fed.templates.rglob("*") if "site" in p.relative_to(fed.templates).parts[:1])
    files.append(fed.root / "rosters" / "fed.yaml")
    for path in files:
        if path.is_file():
            digest.update(f"{path.name}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def read_manifest(out: Path) -> dict | None:
    """The manifest of the site in `out`: {"shared": fingerprint, "pages": {path: fingerprint}}; None when there is none
    (no site, a site built before manifests, a damaged one): the build is then a full one."""
    try:
        manifest = json.loads((out / SITE_MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT or not isinstance(manifest.get("pages"), dict):
        return None
    return manifest


def _manifest_text(shared: str, pages: dict[str, str], caches: dict | None = None) -> str:
    """The manifest: each page's fingerprint, and what the next build may take from this one
    rather than read again (the roster sheets, each run week's headlines)."""
    return json.dumps({"note": "Built by `fedtool site`: what each page shows, fingerprinted; `fedtool site --full` rebuilds the folder whole.",
                       "format": MANIFEST_FORMAT, "shared": shared, "pages": dict(sorted(pages.items())), **(caches or {})},
                      sort_keys=True, separators=(",", ":")) + "\n"  # one line: json's C encoder (an indented one is made in Python)


_BATCH = 1 << 16  # characters of a page's text written at a time (`_SiteWriter.stream`)


def _generated(env, name: str, context: dict):
    """A site template's text in pieces, as jinja makes them (`Template.generate`): the same
    text as `render` gives whole. A template that fails is rendered again by `render`, for its
    error (a FedError naming the template and its line)."""
    try:
        yield from env.get_template(name).generate(**context)
    except Exception:
        render(env, name, **context)
        raise


class _SiteWriter:
    """Where the pages go: a whole new folder swapped in (a full build), or the changed files
    renamed over the old ones (an incremental build). Nothing in `out` changes until every
    page has rendered: a template error leaves the old site as it was."""

    def __init__(self, out: Path, old: dict | None, shared: str, caches: dict):
        self.out = out
        self.shared = shared
        self.caches = caches
        self.old = old
        self.full = old is None
        self.pages: dict[str, str] = {}  # path -> fingerprint, every page of the new site
        self.keys: dict[str, str] = {}  # path -> key, the pages known unchanged without reading what they show (`unchanged`)
        self.caches["keys"] = self.keys
        self.written: list[str] = []
        self.removed: list[str] = []

    def __enter__(self) -> "_SiteWriter":
        if self.full:
            self.stage = StagedDir(self.out).__enter__()
            self.path = self.stage.path
        else:
            settle(self.out)  # a killed full build's leftovers
            self.path = Path(tempfile.mkdtemp(prefix=f".{self.out.name}{NEW}", dir=self.out.parent))
        return self

    def wanted(self, path: str, fingerprint: str) -> bool:
        """Whether a subject page needs rendering; if not, it is kept as it is."""
        if self.full or self.old["pages"].get(path) != fingerprint or not (self.out / path).is_file():
            return True
        self.pages[path] = fingerprint
        return False

    def unchanged(self, path: str, key: str, old_keys: dict) -> bool:
        """Whether a page is the same as the last build's, known from its key alone (what it is
        made from, short of reading it all): then kept as it is, and nothing more is read for it."""
        if self.full or old_keys.get(path) != key or path not in self.old["pages"] or not (self.out / path).is_file():
            return False
        self.pages[path] = self.old["pages"][path]
        self.keys[path] = key
        return True

    def write(self, path: str, text: str | bytes, fingerprint: str | None = None) -> None:
        data = text if type(text) is bytes else text.encode("utf-8")
        fingerprint = fingerprint or hashlib.sha256(data).hexdigest()
        self.pages[path] = fingerprint
        if not self.full and self.old["pages"].get(path) == fingerprint and (self.out / path).is_file():
            return  # a league-wide page that came out the same
        target = self.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        self.written.append(path)

    def stream(self, path: str, chunks, fingerprint: str | None = None) -> None:
        """`write` of a page given as the pieces of its text (`_generated`): each batch of them
        written as it comes, so no page is ever held whole (a page that lists every week grows
        with the weeks); a page with no `fingerprint` is fingerprinted by its bytes as they go."""
        target = self.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256() if fingerprint is None else None
        with open(target, "wb") as file:
            batch: list[str] = []
            size = 0
            for chunk in chunks:
                batch.append(chunk)
                size += len(chunk)
                if size >= _BATCH:
                    data = "".join(batch).encode("utf-8")
                    file.write(data)
                    if digest is not None:
                        digest.update(data)
                    batch.clear()
                    size = 0
            data = "".join(batch).encode("utf-8")
            file.write(data)
            if digest is not None:
                digest.update(data)
        fingerprint = fingerprint or digest.hexdigest()
        self.pages[path] = fingerprint
        if not self.full and self.old["pages"].get(path) == fingerprint and (self.out / path).is_file():
            target.unlink()  # a league-wide page that came out the same
            return
        self.written.append(path)

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.full:
            if exc_type is None:
                self.stage.write(SITE_MARKER, _manifest_text(self.shared, self.pages, self.caches))
                self.stage.swap()
            self.stage.__exit__(exc_type, exc, tb)
            return
        try:
            if exc_type is None:
                self._commit()
        finally:
            shutil.rmtree(self.path, ignore_errors=True)

    def _commit(self) -> None:
        gone = [p for p in self.old["pages"] if p not in self.pages]
        if not self.written and not gone and self.old.get("shared") == self.shared and all(self.old.get(k) == v for k, v in self.caches.items()):
            return
        # first the manifest without the pages about to change: a crash from here on leaves
        # them to be rebuilt; then each page renamed over the old; the manifest last
        kept = {p: f for p, f in self.old["pages"].items() if p in self.pages and p not in self.written}
        atomic_write(self.out / SITE_MARKER, _manifest_text(self.shared, kept))
        mode = 0o666 & ~umask()
        for path in self.written:
            target = self.out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(self.path / path, mode)
            os.replace(self.path / path, target)
        for path in gone:
            (self.out / path).unlink(missing_ok=True)
            self.removed.append(path)
        for folder in sorted({(self.out / p).parent for p in gone}, reverse=True):
            if folder != self.out and folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        atomic_write(self.out / SITE_MARKER, _manifest_text(self.shared, self.pages, self.caches))


def _dated(moment: datetime.datetime, kind: str) -> dict:
    """A page's footer date: `kind` "league" (the league last changed), "page" (what this page shows last changed) or "built" (an empty league)."""
    moment = moment.astimezone(datetime.timezone.utc) if isinstance(moment, datetime.datetime) else moment
    return {"iso": moment.isoformat(), "text": f"{moment.day} {moment:%B %Y}", "built": kind == "built", "page": kind == "page"}


def _first_moment(weeks: list[dict]) -> datetime.datetime | None:
    """When the league began: its earliest run week's run (a page showing nothing yet dates from it)."""
    moments = [_moment(w["ran_at"]) for w in weeks if w.get("ran_at")]
    return min(moments) if moments else None


def _ids_in(value, ids) -> set[str]:
    """The ids (of `ids`) that a season's archive names anywhere."""
    text = json.dumps(value, default=str)
    return {i for i in ids if json.dumps(i) in text}


def _week_runs(db) -> dict[int, list]:
    """Each week's latest run (its number and time): a week page's writeups are that run's."""
    if not db["week_runs"].exists():
        return {}
    return {week: [run, at] for week, run, at in db.execute("SELECT week, MAX(run), MAX(ran_at) FROM week_runs GROUP BY week").fetchall()}


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


def title_change_rows(db, names: dict[str, str], title_names: dict[str, str], weeks: tuple[int, int] | None = None,
                      wrestler: str | None = None) -> dict[int, list[dict]]:
    """The title changes of the weeks `weeks` (or of a `wrestler`, or all), by week, for their "League
    changes": titles won (by the run's title matches) and the fedhead's awards and vacates made after
    it, read by `league.pagereads.title_changes`. Each {"id": the wrestler, "name", "reason", "lost":
    who lost it or None, "lost_reason", "at": when a ruling was made, None for the run's}."""
    out: dict[int, list[dict]] = defaultdict(list)
    for row in league_title_changes(db, weeks, wrestler):
        out[row[0]].append(_title_change(row, names, title_names))
    return out


def _title_change(row: tuple, names: dict[str, str], title_names: dict[str, str]) -> dict:
    """A title change (a row of `league.pagereads.title_changes`) as the pages tell it."""
    _, title_id, wid, before, method, action, why, at = row
    title = title_names.get(title_id, title_id)
    if action == "won":
        return {"id": wid, "name": names.get(wid, wid), "lost": before,
                "reason": f"wins the {title} by {method}" + (f" from {names.get(before, before)}" if before else ""),
                "lost_reason": f"loses the {title} to {names.get(wid, wid)} by {method}", "at": None}
    said = f" ({why})" if why else ""
    if action == "awarded":
        return {"id": wid, "name": names.get(wid, wid), "lost": None, "reason": f"awarded the {title} by the fedhead{said}", "lost_reason": "", "at": at}
    return {"id": wid, "name": names.get(wid, wid), "lost": None, "reason": f"the {title} is vacated by the fedhead{said}", "lost_reason": "", "at": at}


class _TitleChangesByWeek:
    """Each week's title changes for the weeks asked for in ascending order, from one stream
    (`league.pagereads.title_changes`), a week's at a time: `get(week)` as a dict's."""

    def __init__(self, db, names: dict[str, str], title_names: dict[str, str]):
        self.rows = league_title_changes(db)
        self.names, self.title_names = names, title_names
        self.ahead = next(self.rows, None)

    def get(self, week: int, default=None) -> list[dict]:
        found = []
        while self.ahead is not None and self.ahead[0] < week:
            self.ahead = next(self.rows, None)
        while self.ahead is not None and self.ahead[0] == week:
            found.append(_title_change(self.ahead, self.names, self.title_names))
            self.ahead = next(self.rows, None)
        return found if found or default is None else default


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


@functools.lru_cache(maxsize=4096)
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


def _check_out(fed: Fed, out: Path, given: bool = True) -> None:
    """Refuse a target that holds anything but an earlier site: a build replaces the folder
    whole. A refusal names `--out` when it was `given`, else the default folder's command."""
    rule = "fedtool site --out" if given else "fedtool site"
    target = out.resolve()
    root = fed.root.resolve()
    if target == root or target in root.parents or (target.exists() and not target.is_dir()):
        raise FedError(Problem(str(out), None, "the site needs a folder of its own (it replaces the folder whole at each build)", rule))
    inputs = overlapping(out, [fed.rosters, fed.strategies, fed.templates, fed.backups])
    if inputs is not None:  # an empty rosters/retired/ or strategies/week-NN/ would be swapped away with what the fedhead puts in it
        raise FedError(Problem(str(out), None, f"is in or holds the fed's {fed.shown(inputs)}/, which a build would replace whole: give a folder outside "
                               "rosters/, strategies/, templates/ and the backups", rule))
    if target.is_dir() and any(target.iterdir()) and not (target / SITE_MARKER).exists():
        what = "give a new or empty folder" if given else "move them away, or build elsewhere with --out DIR"
        raise FedError(Problem(str(out), None, f"this folder holds files fedtool did not build (no {SITE_MARKER}): {what}", rule))


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
