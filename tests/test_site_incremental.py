"""`fedtool site` rebuilds only what changed (issue 18 item 5), and says the same as a full build.

The demo fed is played week by week, with every kind of change the site shows in between
(weeks run two at once, title rulings, a roster added and renamed, a season closed and
reopened, a rerun whose writeups alone change, a fed template and a setting changed and
put back). After each, the site in outbox/site/ is built incrementally and compared, file
for file and byte for byte (its manifest included), with a clean full build of the same
league in a folder of its own. The incremental builds must also have left alone what did
not change: an old week's page, a wrestler who did not wrestle.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlite_utils
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from fedtool.fed.settings import Fed
from fedtool.league import records
from fedtool.league.backup import list_snapshots
from fedtool.league.db import register_functions
from fedtool.site import build as site_build
from fedtool.site.build import SITE_MARKER, build_site, read_manifest
from golden import demo_copy

FACEMAT_WRITEUP = Path(site_build.__file__).resolve().parent.parent / "rulesets/facemat/templates/match.html.j2"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


class Season:
    """The demo fed, its site built incrementally after each step and checked against a full build."""

    def __init__(self, fed: Path, tmp: Path, fedtool):
        self.fed, self.tmp, self.fedtool, self.builds = fed, tmp, fedtool, 0

    def do(self, *args) -> None:
        result = self.fedtool(*args, "--fed", self.fed)
        assert result.exit_code == 0, (args, result.output, result.stderr)

    def site(self):
        """Build incrementally; check it against a full build; return the incremental build's report."""
        report = build_site(Fed.load(self.fed))
        self.builds += 1
        clean = self.tmp / f"full-{self.builds}"
        full = build_site(Fed.load(self.fed), clean, full=True)
        assert full.full and set(full.written) == set(tree(clean)) - {SITE_MARKER}
        incremental, expected = tree(self.fed / "outbox/site"), tree(clean)
        assert sorted(incremental) == sorted(expected)
        different = [name for name in expected if incremental[name] != expected[name]]
        assert different == [], different
        return report


@pytest.fixture
def season(tmp_path, fedtool) -> Season:
    return Season(demo_copy(tmp_path / "fed"), tmp_path, fedtool)


def test_an_incremental_site_is_the_full_build_after_every_kind_of_change(season, monkeypatch):
    fed = season.fed
    with monkeypatch.context() as fixed:
        fixed.setenv("SOURCE_DATE_EPOCH", "1795000000")  # no league yet: every page says when it was built
        first = season.site()
    assert first.full and "index.html" in first.written

    season.do("run", "1")
    report = season.site()
    assert not report.full and "weeks/week-01.html" in report.written

    season.do("run", "2")
    season.do("run", "3")  # two weeks at once
    report = season.site()
    assert {"weeks/week-02.html", "weeks/week-03.html"} <= set(report.written)
    assert "weeks/week-01.html" in report.written  # its page now links week 2 as the next
    week1 = (fed / "outbox/site/weeks/week-01.html").stat()

    season.do("title", "vacate", "hardcore", "--reason", "stripped for <no-shows>")
    report = season.site()
    assert "weeks/week-03.html" in report.written and "wrestlers/victor-vane.html" in report.written  # the ruling is told after week 3
    assert "weeks/week-02.html" not in report.written
    season.do("title", "award", "hardcore", "rocky-ridge", "--reason", "a tournament")
    season.site()

    season.do("run", "4")
    report = season.site()
    # week 4's page is new and week 3's gets its "next" link; weeks 1 and 2 stay as they are
    assert {"weeks/week-03.html", "weeks/week-04.html"} <= set(report.written)
    assert not {"weeks/week-01.html", "weeks/week-02.html"} & set(report.written)
    week1_after = (fed / "outbox/site/weeks/week-01.html").stat()
    assert (week1_after.st_ino, week1_after.st_mtime_ns) == (week1.st_ino, week1.st_mtime_ns)
    db = sqlite_utils.Database(fed / "fed.db")
    idle = [wid for wid in Fed.load(fed).roster_files
            if not db.execute("SELECT 1 FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE s.wrestler_id = ? AND m.week >= 3", [wid]).fetchall()
            and not db.execute("SELECT 1 FROM wrestler_states WHERE wrestler_id = ? AND week >= 3", [wid]).fetchall()
            and not db.execute("SELECT 1 FROM title_rulings WHERE wrestler_id = ?", [wid]).fetchall()]
    # a champion's page changes every week (his reign's length); everyone else's only when he wrestles or changes
    champions = {r["wrestler_id"] for t in records.titles(Fed.load(fed), db) for r in t["reigns"] if r["lost_week"] is None}
    assert {f"wrestlers/{w}.html" for w in champions} <= set(report.written)
    idle = [wid for wid in idle if wid not in champions]
    assert "brother-bob" in idle and len(idle) >= 8
    fought = {s["wrestler_id"] for s in db.query("SELECT s.wrestler_id FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE m.week = 4")}
    assert {f"wrestlers/{w}.html" for w in fought} <= set(report.written)
    assert {f"wrestlers/{w}.html" for w in idle} & set(report.written) == set()

    season.do("run", "5")
    season.site()
    season.do("roster", "add", "new-kid", "--ruleset", "matchmatch", "--name", "The <New> Kid",
              "--owner-name", "Kid's Player", "--owner-email", "kid@players.example")
    report = season.site()
    assert "wrestlers/new-kid.html" in report.written
    sheet = fed / "rosters/brother-bob.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("name: Brother Bob", "name: Brother Robert", 1), encoding="utf-8")
    report = season.site()  # the standings read the sheet's name; his page keeps the league's (as a full build does)
    assert "standings.html" in report.written

    season.do("season", "close")
    season.site()
    season.do("season", "reopen")
    # a rerun whose writeups alone change: the fed's own writeup template for Face to the Mat
    (fed / "templates/facemat").mkdir(parents=True, exist_ok=True)
    (fed / "templates/facemat/match.html.j2").write_text('<p class="told-again">Told again.</p>\n' + FACEMAT_WRITEUP.read_text(encoding="utf-8"), encoding="utf-8")
    season.do("run", "5", "--rerun")
    report = season.site()
    assert "weeks/week-05.html" in report.written and "weeks/week-02.html" not in report.written
    assert "Told again." in (fed / "outbox/site/weeks/week-05.html").read_text(encoding="utf-8")

    # the fed's own site template, then a setting, each changed and put back
    (fed / "templates/site").mkdir(parents=True, exist_ok=True)
    (fed / "templates/site/wrestler.html.j2").write_text(
        '{% extends "default:site/wrestler.html.j2" %}{% block main %}<p class="ours">Our own</p>{{ super() }}{% endblock %}', encoding="utf-8")
    report = season.site()
    assert "wrestlers/brother-bob.html" in report.written
    assert '<p class="ours">Our own</p>' in (fed / "outbox/site/wrestlers/brother-bob.html").read_text(encoding="utf-8")
    (fed / "templates/site/wrestler.html.j2").unlink()
    season.site()
    settings = fed / "rosters/fed.yaml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace("name: Delta Championship Wrestling", "name: Delta & Co. Wrestling", 1), encoding="utf-8")
    report = season.site()
    assert "weeks/week-01.html" in report.written  # every page names the fed
    settings.write_text(text, encoding="utf-8")
    season.site()

    # and nothing changed: nothing written
    report = season.site()
    assert report.written == [] and report.removed == []


def test_a_page_whose_subject_is_gone_is_removed(season):
    season.do("run", "1")
    season.do("run", "2")
    season.site()
    stray = read_manifest(season.fed / "outbox/site")
    assert "weeks/week-02.html" in stray["pages"]
    before_week_2 = next(s.name for s in list_snapshots(Fed.load(season.fed)) if "before-week-02" in s.name)
    season.do("restore", before_week_2)  # the league as it was before week 2's run
    report = season.site()
    assert report.removed == ["weeks/week-02.html"]
    assert not (season.fed / "outbox/site/weeks/week-02.html").exists()


def test_a_build_killed_while_it_replaces_pages_leaves_whole_pages_and_the_next_build_mends_it(season, monkeypatch):
    """Each page is written beside the site and renamed over the old one; the manifest goes
    first without the pages about to change, and last with them: killed half way, every
    page is the old one or the new one, and the next build finishes the job."""
    season.do("run", "1")
    season.site()
    before = tree(season.fed / "outbox/site")
    season.do("run", "2")
    replace, done = os.replace, []

    def killed(source, target):
        if len(done) == 5:
            raise KeyboardInterrupt("killed")
        done.append(target)
        replace(source, target)

    monkeypatch.setattr(site_build.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        build_site(Fed.load(season.fed))
    monkeypatch.setattr(site_build.os, "replace", replace)
    halfway = tree(season.fed / "outbox/site")
    full = season.tmp / "after"
    build_site(Fed.load(season.fed), full, full=True)
    after = tree(full)
    changed = {Path(t).relative_to(season.fed / "outbox/site").as_posix() for t in done}
    assert len(changed) == 5
    for name, data in halfway.items():
        if name != SITE_MARKER:
            assert data == (after[name] if name in changed else before[name]), name
    # no staging folder left beside the site, and the manifest names none of the pages replaced
    assert [p.name for p in (season.fed / "outbox").iterdir() if p.name.startswith(".site")] == []
    assert not changed & set(read_manifest(season.fed / "outbox/site")["pages"])
    season.site()


def test_full_rebuilds_the_folder_whole_and_a_site_without_a_manifest_is_rebuilt_whole(season, fedtool):
    season.do("run", "1")
    season.site()
    site = season.fed / "outbox/site"
    (site / "weeks/week-01.html").write_text("edited by hand", encoding="utf-8")
    assert build_site(Fed.load(season.fed)).written == []  # an incremental build trusts the manifest
    result = fedtool("site", "--full", "--fed", season.fed)
    assert result.exit_code == 0, result.output
    assert "edited by hand" not in (site / "weeks/week-01.html").read_text(encoding="utf-8")
    (site / SITE_MARKER).write_text("Built by `fedtool site`; the whole folder is replaced at each build.\n", encoding="utf-8")  # before manifests
    (site / "stray.html").write_text("left by an old build", encoding="utf-8")
    report = season.site()
    assert report.full and not (site / "stray.html").exists()


def test_a_missing_page_is_written_again(season):
    season.do("run", "1")
    season.site()
    (season.fed / "outbox/site/wrestlers/brother-bob.html").unlink()
    report = season.site()
    assert report.written == ["wrestlers/brother-bob.html"]


def test_the_site_reads_a_weeks_writeups_only_when_it_renders_its_page(season, monkeypatch):
    season.do("run", "1")
    season.do("run", "2")
    season.site()
    season.do("run", "3")
    read = []
    original = site_build.week_writeups
    monkeypatch.setattr(site_build, "week_writeups", lambda db, week: read.append(week) or original(db, week))
    build_site(Fed.load(season.fed))
    # week 3's (its headlines, its page) and week 2's (its page gains a "next" link); never week 1's
    assert sorted(set(read)) == [2, 3] and read.count(2) == 1


def test_the_league_reads_writeups_in_one_place():
    """The site reads writeups only through `league.db.week_writeups` (the league may keep
    them packed): one definition of it, whichever branch brought it."""
    import inspect

    from fedtool.league import db as league_db

    assert inspect.getsource(league_db).count("def week_writeups(") == 1
    assert "match_writeups" not in inspect.getsource(site_build)


# ---------------------------------------------------------------- the quick paths print what the slow ones did (issue 18 item 5)


def test_the_charts_made_in_python_print_what_the_chart_template_prints_itself():
    """`state_chart` makes the axes' ticks and the points (`y_axis`, `x_axis`, `circles`) as
    markup, so a wrestler's page does not print them tick by tick; a fed's own chart template
    may still loop over `y_ticks`, `x_ticks` and `points`. Both print the same bytes, for
    text that needs escaping and for numbers."""
    env = site_build.environment(None)
    env.finalize = site_build._site_finalize
    charted = ("tv_grade", "TV <grade>", ["F", "E", "D&C", "B", "A", "AA", "AAA"])
    states = [{"week": 1, "tv_grade": "D&C"}, {"week": 3, "tv_grade": "AAA"}, {"week": 9, "tv_grade": "F"}]
    chart = site_build.state_chart("Vince \"<Valor>\"", charted, {"tv_grade": "B"}, states, [1, 2, 3, 5, 9, 14, 30])
    assert {"y_axis", "x_axis", "circles"} <= set(chart)
    template = env.from_string('{% from "site/chart.html.j2" import state_chart %}{{ state_chart(chart, "c") }}')
    quick = template.render(chart=chart)
    looped = template.render(chart={k: v for k, v in chart.items() if k not in ("y_axis", "x_axis", "circles")})
    assert quick == looped
    assert "D&amp;C" in quick and 'cy="' in quick and ">30</text>" in quick


def test_the_site_prints_numbers_and_text_as_render_does():
    """`_site_finalize` hands a number straight on; everything else, and everything in a
    Markdown template, goes through `fedtool.fed.render`'s `_finalize`: the same text."""
    from fedtool.fed.render import _finalize

    class Context:
        def __init__(self, name):
            self.name = name

    for name in ("site/wrestler.html.j2", "site/note.md.j2", None):
        for value in (0, 7, -3, 2.5, 1e20, float("nan"), True, None, "a\r\nb\x07c", "5", Markup("<b>x</b>")):
            assert site_build._site_finalize(Context(name), value) == _finalize(Context(name), value), (name, value)


def test_standings_given_the_states_are_the_standings(tmp_path, fedtool):
    """The site reads the league's states once and hands them to `records.standings`: the same tables."""
    fed = demo_copy(tmp_path / "fed")
    for week in ("1", "2"):
        assert fedtool("run", week, "--fed", fed).exit_code == 0
    loaded = Fed.load(fed)
    db = sqlite_utils.Database(fed / "fed.db")
    from fedtool.league.db import states_before

    assert records.standings(loaded, db, states=states_before(db, 1 << 30)) == records.standings(loaded, db)
    assert records.standings(loaded, db, weeks=(2, 2), states=states_before(db, 1 << 30)) == records.standings(loaded, db, weeks=(2, 2))


# ---------------------------------------------------------------- a build that holds no more as the weeks go by (issue 18 item 5)


def _bench_site():
    """benchmarks/bench_site.py, whose `generate` makes a synthetic league straight through the library."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_site.py"
    if "bench_site" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench_site", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_site"] = module
        spec.loader.exec_module(module)
    return sys.modules["bench_site"]


WRITEUPS = [{"markdown": "A *match*.", "html": "<p>A <em>match</em> &amp; more.</p>"}]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), wrestlers=st.integers(22, 28), weeks=st.integers(1, 7))
def test_the_streamed_standings_record_book_and_states_are_the_whole_ones(seed, wrestlers, weeks):
    """`records.standings_streamed`, `recordbook.record_book_streamed` (with and without the
    upsets it keeps from one call to the next, week after week) and `db.states_streamed`
    give what `standings`, `record_book` and `states_through` give, for synthetic leagues
    small enough for rematches, streaks and upsets (and star ratings for the best matches)."""
    import tempfile

    from fedtool.league.db import states_streamed, states_through
    from fedtool.league.recordbook import record_book, record_book_streamed

    with tempfile.TemporaryDirectory() as tmp:
        cache: dict = {}
        seen = []

        def after(week):
            fed = Fed.load(Path(tmp) / "fed")
            db = sqlite_utils.Database(fed.database)
            register_functions(db.conn)
            assert record_book_streamed(fed, db, upsets=cache, salt="s") == record_book(fed, db)
            seen.append(week)

        fed = _bench_site().generate(Path(tmp) / "fed", wrestlers, weeks, WRITEUPS, after_week=after, seed=seed, ratings=True)
        assert seen == list(range(1, weeks + 1)) and cache["through"] == weeks
        db = sqlite_utils.Database(fed.database)
        register_functions(db.conn)
        book = record_book(fed, db)
        assert record_book_streamed(fed, db) == book
        for span in ((1, weeks), (min(2, weeks), weeks), (weeks, weeks)):
            assert record_book_streamed(fed, db, weeks=span) == record_book(fed, db, weeks=span)
            assert records.standings_streamed(fed, db, weeks=span) == records.standings(fed, db, weeks=span)
        assert record_book_streamed(fed, db, ruleset="facemat") == record_book(fed, db, ruleset="facemat")
        assert records.standings_streamed(fed, db) == records.standings(fed, db)
        asked = list(range(0, weeks + 3))
        assert [(w, dict(s)) for w, s in states_streamed(db, asked)] == [(w, dict(s)) for w, s in states_through(db, asked)]


def test_the_record_books_kept_upsets_are_used_only_for_the_same_weeks(tmp_path, monkeypatch):
    """The upsets the record book keeps between builds (`_UpsetBook`) spare it looking at the
    weeks they cover again, and only while those weeks are as they were: a week rerun
    (a new run, other results), a name or a closed season change its key."""
    from fedtool.league import recordbook
    from fedtool.league.recordbook import record_book, record_book_streamed

    fed = _bench_site().generate(tmp_path / "fed", 22, 6, WRITEUPS, seed=7, ratings=True)
    db = sqlite_utils.Database(fed.database)
    register_functions(db.conn)
    cache: dict = {}
    assert record_book_streamed(fed, db, upsets=cache) == record_book(fed, db)
    looked = []
    original = recordbook._UpsetBook._upset
    monkeypatch.setattr(recordbook._UpsetBook, "_upset", lambda self, m, states, found: looked.append(m["week"]) or original(self, m, states, found))
    assert record_book_streamed(fed, db, upsets=cache) == record_book(fed, db)
    assert looked == []  # every week from what it kept
    # week 2 rerun with other results: the winners of its matches become the losers
    with db.conn:
        db.execute("UPDATE match_sides SET outcome = CASE outcome WHEN 'win' THEN 'loss' ELSE 'win' END WHERE week = 2")
        db.execute("UPDATE matches SET winner = (SELECT wrestler_id FROM match_sides s WHERE s.match_id = matches.id AND s.outcome = 'win') WHERE week = 2")
        db.execute("INSERT INTO week_runs (week, run, ran_at, dice_source) SELECT week, 2, ran_at, dice_source FROM weeks WHERE week = 2")
    assert record_book_streamed(fed, db, upsets=cache) == record_book(fed, db)
    assert sorted(set(looked)) == [1, 2, 3, 4, 5, 6]
    looked.clear()
    # a wrestler renamed: the upsets are the same, their names the new ones
    with db.conn:
        db.execute("UPDATE wrestlers SET name = 'The <Renamed> One' WHERE id = (SELECT winner FROM matches ORDER BY week DESC LIMIT 1)")
    assert record_book_streamed(fed, db, upsets=cache) == record_book(fed, db)
    assert looked == []
    # a damaged cache is not used
    for damaged in ({"through": 6, "key": cache["key"], "seen": 1, "kept": {"matchmatch": [["x"]]}}, {"through": "6"}, {"kept": None}):
        assert record_book_streamed(fed, db, upsets=dict(damaged)) == record_book(fed, db)


def test_an_incremental_build_reads_the_matches_of_those_it_may_have_changed_only(season, monkeypatch):
    """A wrestler's page whose key (his weeks and their runs, his state now, his titles, every
    name) is the same as at the last build is kept without reading his matches; the weeks'
    matches are read as one stream (`_Matches.stream`), and again only for the week pages rendered."""
    season.do("run", "1")
    season.do("run", "2")
    season.site()
    season.do("run", "3")
    read, weekly = [], []
    of, week = site_build._Matches.of, site_build._Matches.week
    monkeypatch.setattr(site_build._Matches, "of", lambda self, wid: read.append(wid) or of(self, wid))
    monkeypatch.setattr(site_build._Matches, "week", lambda self, number: weekly.append(number) or week(self, number))
    report = build_site(Fed.load(season.fed))
    monkeypatch.undo()
    season.site()  # and it is the full build's site
    db = sqlite_utils.Database(season.fed / "fed.db")
    fought = {r["wrestler_id"] for r in db.query("SELECT s.wrestler_id FROM match_sides s JOIN matches m ON m.id = s.match_id WHERE m.week = 3")}
    changed = {r["wrestler_id"] for r in db.query("SELECT wrestler_id FROM wrestler_states WHERE week = 3")}
    champions = {r["wrestler_id"] for t in records.titles(Fed.load(season.fed), db) for r in t["reigns"] if r["lost_week"] is None}
    assert fought <= set(read) and set(read) <= fought | changed | champions
    assert {f"wrestlers/{w}.html" for w in fought} <= set(report.written)
    # the week pages rendered (week 3, and week 2 for its "next" link) and the home page's latest week; every other week from the stream
    assert sorted(set(weekly)) == [2, 3]


def test_the_list_of_weeks_reads_each_weeks_matches_in_any_order():
    """`_WeeksMatches` (the list of weeks' `matches_by_week`) gives each week's matches whether a
    template asks for them newest first (one stream) or in any other order (a week at a time)."""

    class Matches:
        def __init__(self):
            self.asked = []

        def stream(self, numbers, descending=False, changes=True):
            assert descending and not changes
            for n in numbers:
                self.asked.append(("stream", n))
                yield n, [{"week": n}], []

        def week(self, n):
            self.asked.append(("week", n))
            return [{"week": n}]

    matches = Matches()
    by_week = site_build._WeeksMatches(matches, [1, 2, 4])
    assert [by_week.get(w, []) for w in (4, 2, 1)] == [[{"week": 4}], [{"week": 2}], [{"week": 1}]]
    assert {a for a in matches.asked if a[0] == "week"} == set()
    assert by_week.get(4) == [{"week": 4}] and by_week.get(3, "none") == "none" and 3 not in by_week and list(by_week) == [1, 2, 4]
    assert ("week", 4) in matches.asked


# ---------------------------------------------------------------- pages written as they render; the feed's latest entries (issue 18 item 5)


def test_the_feed_holds_the_latest_entries_and_the_news_page_every_one(season, monkeypatch):
    """The Atom feed carries the latest `FEED_ENTRIES` entries (by when each was last updated),
    as feeds do, so it and what a build holds for it do
    not grow with the weeks; the news page still lists every week. Incremental builds are the
    full build's, week after week, the cap reached and passed (here 2, for the demo's 5 weeks)."""
    import feedparser

    monkeypatch.setattr(site_build, "FEED_ENTRIES", 2, raising=False)
    for week in ("1", "2", "3"):
        season.do("run", week)
        season.site()
    feed = feedparser.parse((season.fed / "outbox/site/feed.xml").read_bytes())
    assert not feed.bozo and [e.title for e in feed.entries] == [f"Results: {t}" for t in ("Week 3: Folkstyle Night", "Week 2: Steel and Straps")]
    assert "<li>" in feed.entries[0].content[0].value
    news = (season.fed / "outbox/site/news.html").read_text(encoding="utf-8")
    assert all(f'href="weeks/week-0{w}.html"' in news for w in (1, 2, 3))
    season.do("run", "4")
    season.site()
    feed = feedparser.parse((season.fed / "outbox/site/feed.xml").read_bytes())
    assert [e.title for e in feed.entries][0].startswith("Results: Week 4") and len(feed.entries) == 2


def test_a_page_that_fails_half_way_leaves_the_site_as_it_was(season):
    """Pages are written as they render (`_SiteWriter.stream`); a fed template that fails after
    printing part of its page is a FedError naming the template and line, and the site is left
    as it was (the part written was beside it, never in it)."""
    from fedtool.kernel.errors import FedError

    season.do("run", "1")
    season.site()
    before = tree(season.fed / "outbox/site")
    season.do("run", "2")
    (season.fed / "templates/site").mkdir(parents=True, exist_ok=True)
    (season.fed / "templates/site/weeks.html.j2").write_text('{% extends "default:site/weeks.html.j2" %}{% block main %}{{ super() }}\n{{ 1 // 0 }}{% endblock %}',
                                                               encoding="utf-8")
    for full in (False, True):
        with pytest.raises(FedError) as failed:
            build_site(Fed.load(season.fed), full=full)
        assert "weeks.html.j2" in str(failed.value) and "line 2" in str(failed.value)
        assert tree(season.fed / "outbox/site") == before
    assert [p.name for p in (season.fed / "outbox").iterdir() if p.name.startswith(".site")] == []  # no staging folder left


def test_weekly_incremental_builds_through_title_changes_rulings_and_a_rerun_are_the_full_build(tmp_path):
    """A league of 24 booked in rotation, a title match on every card (the world title changing hands
    often), the site built incrementally after each week and compared, byte for byte, with a full
    build: through a fedhead's vacate and award after week 3, and week 2 "rerun" after week 6 with its
    title match's winner the other side (a new run of the week): each wrestler's page keyed by his
    title changes and reigns (`league.pagereads`), the weeks' title changes read as a stream."""
    bench = _bench_site()
    site, clean = tmp_path / "site", tmp_path / "clean"
    written = []

    def after(week):
        fed = Fed.load(tmp_path / "fed")
        db = sqlite_utils.Database(fed.database)
        register_functions(db.conn)
        if week == 3:
            records.vacate_title(fed, db, "world", "a <dispute>")
            records.award_title(fed, db, "world", "mm-wrestler-002")
        with db.conn:
            if week == 6:
                db.execute("UPDATE title_matches SET winner = (SELECT s.wrestler_id FROM match_sides s WHERE s.match_id = title_matches.match_id "
                           "AND s.wrestler_id != title_matches.winner) WHERE week = 2")
                db.execute("INSERT INTO week_runs (week, run, ran_at, dice_source) SELECT week, 2, '2026-02-12T20:00:00+00:00', dice_source FROM weeks WHERE week = 2")
        db.conn.close()
        report = build_site(fed, site)
        written.append(set(report.written))
        shutil.rmtree(clean, ignore_errors=True)
        build_site(fed, clean, full=True)
        assert tree(site) == tree(clean), week

    import shutil

    bench.generate(tmp_path / "fed", 24, 8, WRITEUPS, after_week=after, seed=5, ratings=True, rotate=True)
    assert len(written) == 8
    assert "weeks/week-03.html" in written[2] and "weeks/week-02.html" in written[5]  # the rulings told after week 3; week 2 rerun
