"""Issue 19: seasons (`fedtool season close/reopen/list/show`), the record book and hall of
fame (`fedtool records`), the site's seasons, records and news pages, its Atom feed and its
calendar of deadlines, and the site fixes (modes, title changes in League changes, dates).

The league is the demo fed after its five weeks (run once per module, copied per test)."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import stat
from itertools import groupby
from pathlib import Path

import pytest
import sqlite_utils
from hypothesis import given, settings, strategies as st

from fedtool.fed.settings import Fed
from fedtool.league.db import open_league, states_before
from fedtool.league.recordbook import _win_streaks
from fedtool.league.sheets import read_roster_sheet
from fedtool.rulesets import get_ruleset
from golden import demo_copy

feedparser = pytest.importorskip("feedparser")
icalendar = pytest.importorskip("icalendar")


@pytest.fixture(scope="module")
def five_weeks(tmp_path_factory) -> Path:
    """The demo fed with weeks 1-5 run and no season closed."""
    from click.testing import CliRunner

    from fedtool.cli import cli

    fed = demo_copy(tmp_path_factory.mktemp("seasons") / "fed")
    for week in range(1, 6):
        result = CliRunner().invoke(cli, ["run", str(week), "--fed", str(fed)])
        assert result.exit_code == 0, result.output
    return fed


@pytest.fixture
def fed(five_weeks, tmp_path) -> Path:
    copy = tmp_path / "fed"
    shutil.copytree(five_weeks, copy)
    return copy


def _settings(fed: Path, text: str) -> None:
    path = fed / "rosters/fed.yaml"
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _states(fed: Path, week: int) -> dict:
    db = open_league(Fed.load(fed).database)
    try:
        return states_before(db, week)
    finally:
        db.close()


def _start(fed: Path, wid: str) -> dict:
    loaded = Fed.load(fed)
    sheet = read_roster_sheet(loaded, wid)
    return get_ruleset(sheet.ruleset).initial_state(sheet)


def _week_six(fed: Path) -> None:
    """Week 6: week 1's card and strategies again (written for the sheets' push levels)."""
    shutil.copytree(fed / "strategies/week-01", fed / "strategies/week-06")
    for name in ("card.yaml", "opening.yaml"):
        path = fed / "strategies/week-06" / name
        path.write_text(re.sub(r"(?m)^week: 1$", "week: 6", path.read_text(encoding="utf-8")), encoding="utf-8")


# ---------------------------------------------------------------- seasons


def test_a_season_closed_with_resets_and_reopened(fed, fedtool):
    """Push levels and TV grades reset to the sheets, injuries and grudge grades kept; the
    archive holds the champions, standings and awards; reopening gives every state back."""
    _settings(fed, "seasons:\n  carry_over:\n    push_levels: reset\n    tv_grades: reset\n")
    before, week_five = _states(fed, 6), _states(fed, 5)
    moved = [wid for wid, s in before.items() if "push_level" in s and (s["push_level"], s["push_points"]) != (_start(fed, wid)["push_level"], _start(fed, wid)["push_points"])]
    graded = [wid for wid, s in before.items() if "tv_grade" in s and s["tv_grade"] != _start(fed, wid)["tv_grade"]]
    injured = [wid for wid, s in before.items() if s.get("injury")]
    assert moved and graded  # the demo's five weeks moved push levels and TV grades

    result = fedtool("season", "close", "--name", "The <First> Season", "--fed", fed)
    assert result.exit_code == 0, result.output
    assert "The <First> Season closed: weeks 1-5; season 2 begins with week 6" in result.output
    after = _states(fed, 6)
    for wid in moved:
        start = _start(fed, wid)
        assert (after[wid]["push_level"], after[wid]["push_points"]) == (start["push_level"], start["push_points"])
        assert after[wid].get("injury") == before[wid].get("injury")  # injuries: kept (IV.2.e "retain injury")
    for wid in graded:
        assert after[wid]["tv_grade"] == _start(fed, wid)["tv_grade"]
        assert after[wid].get("grudge") == before[wid].get("grudge")  # grudge grades: kept
    for wid in injured:
        assert after[wid]["injury"] == before[wid]["injury"]
    assert _states(fed, 5) == week_five  # the season's own weeks read as before
    standings = json.loads(fedtool("standings", "--json", "--fed", fed).output)
    rows = {r["wrestler_id"]: r for t in standings for r in t["rows"]}
    assert all(rows[wid]["push_level"] == _start(fed, wid)["push_level"] for wid in moved)

    archive = json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)
    titles = json.loads(fedtool("titles", "--json", "--fed", fed).output)
    assert archive["name"] == "The <First> Season" and (archive["first_week"], archive["last_week"]) == (1, 5)
    assert [(c["title_id"], c["holder"]) for c in archive["champions"]] == [(t["id"], t["holder"]) for t in titles]
    archived = {r["wrestler_id"]: (r["wins"], r["losses"], r["draws"], r["push_level"]) for t in archive["standings"] for r in t["rows"]}
    assert {wid: (r["wins"], r["losses"], r["draws"]) for wid, r in rows.items()} == {wid: a[:3] for wid, a in archived.items()}
    assert all(archived[wid][3] == before[wid]["push_level"] for wid in moved)  # the archive keeps the levels at the close
    assert {a["award"] for a in archive["awards"]} >= {"Wrestler of the season", "Match of the season"}
    assert sorted(c["wrestler_id"] for c in archive["carry_over"]["changes"]) == sorted(set(moved) | set(graded))

    assert fedtool("site", "--fed", fed).exit_code == 0
    page = (fed / f"outbox/site/wrestlers/{moved[0]}.html").read_text(encoding="utf-8")
    assert f"<dt>Push</dt><dd>level {_start(fed, moved[0])['push_level']}," in page  # where he stands now
    assert "The &lt;First&gt; Season closed: push level and points (Part II) reset to the sheet" in page.split("<h2>League changes</h2>", 1)[1]
    assert fedtool("run", "5", "--rerun", "--fed", fed).exit_code == 1  # a closed season's week stands
    result = fedtool("season", "reopen", "--fed", fed)
    assert result.exit_code == 0 and "reopened" in result.output
    assert _states(fed, 6) == before
    assert json.loads(fedtool("season", "list", "--json", "--fed", fed).output)["closed"] == []
    assert fedtool("run", "5", "--rerun", "--fed", fed).exit_code == 0


def test_the_default_carries_everything_over(fed, fedtool):
    """No `seasons:` setting: every state kept, the rulebooks' reading (no rulebook knows a
    season break; MatchMatch IV.2.e: "wrestlers retain injury from week to week")."""
    before = _states(fed, 6)
    result = fedtool("season", "close", "--fed", fed)
    assert result.exit_code == 0, result.output
    assert "carry-over: grudge_grades keep, injuries keep, push_levels keep, tv_grades keep" in result.output
    # the awards name each ruleset as `season show` does, not by its id
    awards = [line for line in result.output.splitlines() if "of the season (" in line]
    assert awards and all("(matchmatch)" not in line for line in awards)
    assert any("(MatchMatch)" in line for line in awards)
    assert _states(fed, 6) == before
    assert json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)["carry_over"]["changes"] == []


def test_the_next_season_counts_its_own_weeks(fed, fedtool):
    """After a close with push levels reset, week 1's strategies are good again in week 6; the
    season in play counts week 6 only, all time counts all six; the closed season cannot be
    reopened once the next is under way."""
    _settings(fed, "seasons:\n  carry_over:\n    push_levels: reset\n")
    _week_six(fed)
    assert fedtool("run", "6", "--fed", fed).exit_code == 1  # the push levels of week 5 refuse week 1's Special rounds
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    result = fedtool("run", "6", "--fed", fed)
    assert result.exit_code == 0, result.output
    listed = json.loads(fedtool("season", "list", "--json", "--fed", fed).output)
    assert listed["current"]["weeks"] == [6] and listed["current"]["season"] == 2
    result = fedtool("season", "reopen", "--fed", fed)
    assert result.exit_code == 1 and "week 6 has been run since Season 1 closed" in result.output
    assert fedtool("run", "6", "--rerun", "--fed", fed).exit_code == 0  # the season in play's weeks rerun as ever
    assert fedtool("site", "--fed", fed).exit_code == 0
    season_two = (fed / "outbox/site/seasons/season-02.html").read_text(encoding="utf-8")
    assert "<h1>Season 2</h1>" in season_two and "In play: weeks" in season_two
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    archive = json.loads(fedtool("season", "show", "2", "--json", "--fed", fed).output)
    assert (archive["first_week"], archive["last_week"]) == (6, 6)
    standing = [r for r in archive["records"]["sections"][0]["records"]["longest_reigns"] if r["won_week"] < 6 and r["current"]]
    assert standing and {r["weeks"] for r in standing} == {1}  # a reign from season 1 counts season 2's one week
    db = sqlite_utils.Database(fed / "fed.db")
    count = lambda where: {wid: n for wid, n in db.execute(f"SELECT wrestler_id, COUNT(*) FROM match_sides WHERE {where} GROUP BY wrestler_id").fetchall()}  # noqa: E731
    in_six, in_all = count("week = 6"), count("1")
    season_rows = {r["wrestler_id"]: r for t in archive["standings"] for r in t["rows"]}
    all_rows = {r["wrestler_id"]: r for t in json.loads(fedtool("standings", "--json", "--fed", fed).output) for r in t["rows"]}
    assert {wid: r["wins"] + r["losses"] + r["draws"] for wid, r in season_rows.items() if wid in in_six} == in_six
    assert {wid: r["wins"] + r["losses"] + r["draws"] for wid, r in all_rows.items() if wid in in_all} == in_all != in_six



def test_export_carries_the_seasons_their_awards_and_each_matchs_season(fed, fedtool, tmp_path):
    """`fedtool export` after a close: seasons.csv/json list the closed season and the one in
    play, awards the close's awards as `season show` keeps them, and every match its season."""
    _settings(fed, "seasons:\n  carry_over:\n    push_levels: reset\n")
    assert fedtool("season", "close", "--name", "Season One", "--fed", fed).exit_code == 0
    _week_six(fed)
    assert fedtool("run", "6", "--fed", fed).exit_code == 0
    out = tmp_path / "export"
    result = fedtool("export", "--out", out, "--fed", fed)
    assert result.exit_code == 0, result.output
    seasons = json.loads((out / "seasons.json").read_text())
    assert [(s["season"], s["name"], s["first_week"], s["last_week"], s["closed_at"] is None) for s in seasons] == [
        (1, "Season One", 1, 5, False), (2, "Season 2", 6, 6, True)]
    archive = json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)
    awards = json.loads((out / "awards.json").read_text())
    assert [(a["award"], a["ruleset"], a["why"]) for a in awards] == [(a["award"], a["ruleset"], a["why"]) for a in archive["awards"]]
    assert awards and all(a["season"] == 1 for a in awards)
    assert {(m["week"], m["season"]) for m in json.loads((out / "matches.json").read_text())} == {(w, 1) for w in range(1, 6)} | {(6, 2)}
    assert (out / "seasons.csv").read_text().splitlines()[0] == "season,name,first_week,last_week,closed_at"


def test_history_shows_a_reset_at_the_close(fed, fedtool):
    """A wrestler whose push level the close reset: `history` lists the reset after the
    season's last week with its reason, and the state it set (the sheet's)."""
    _settings(fed, "seasons:\n  carry_over:\n    push_levels: reset\n")
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    changes = json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)["carry_over"]["changes"]
    assert changes
    wid = changes[0]["wrestler_id"]
    record = json.loads(fedtool("history", wid, "--json", "--fed", fed).output)
    closes = [s for s in record["states"] if s.get("season_close")]
    assert [(s["week"], s["reason"]) for s in closes] == [(5, changes[0]["reason"])]
    assert record["states"][-1] == closes[0]  # after every week of the season
    assert closes[0]["push_level"] == _start(fed, wid)["push_level"]
    text = fedtool("history", wid, "--fed", fed).output
    assert "after 5" in text and changes[0]["reason"] in text


def test_a_reset_stands_through_a_later_season_he_sat_out(fed, fedtool):
    """Push levels reset at both closes. A wrestler reset at season 1's close who never wrestles
    in season 2 (week 6 is week 1's card again) is at his sheet's level going into week 7:
    season 2's close recorded no reset for him (nothing to reset), and the first reset still
    stands (it read his last week-5 row again)."""
    _settings(fed, "seasons:\n  carry_over:\n    push_levels: reset\n")
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    reset = {c["wrestler_id"] for c in json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)["carry_over"]["changes"]}
    _week_six(fed)
    assert fedtool("run", "6", "--fed", fed).exit_code == 0
    db = sqlite_utils.Database(fed / "fed.db")
    in_six = {r[0] for r in db.execute("SELECT wrestler_id FROM match_sides WHERE week = 6").fetchall()}
    sat_out = sorted(wid for wid in reset - in_six if wid in Fed.load(fed).roster_files)
    assert sat_out
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    states = _states(fed, 7)
    for wid in sat_out:
        assert states[wid]["push_level"] == _start(fed, wid)["push_level"], wid

def test_closing_refuses_what_it_cannot_do(fed, fedtool, tmp_path):
    _settings(fed, "seasons:\n  carry_over:\n    push_level: reset\n")
    result = fedtool("season", "close", "--fed", fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "rosters/fed.yaml" in result.output and "'push_level' is not something a season carries over" in result.output
    assert "push_levels" in result.output and "line " in result.output
    path = fed / "rosters/fed.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("push_level: reset", "push_levels: wipe"), encoding="utf-8")
    result = fedtool("season", "close", "--fed", fed)
    assert result.exit_code == 1 and "rosters/fed.yaml" in result.output and "Traceback" not in result.output
    assert not list((fed / "backups").glob("*season-close*"))  # refused before anything was kept or changed
    path.write_text(path.read_text(encoding="utf-8").replace("push_levels: wipe", "push_levels: keep"), encoding="utf-8")
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    assert len(list((fed / "backups").glob("*season-close*"))) == 1  # the league before the close, for `fedtool restore`
    result = fedtool("season", "close", "--fed", fed)
    assert result.exit_code == 1 and "no week has been run since Season 1 closed" in result.output
    assert fedtool("season", "show", "2", "--fed", fed).exit_code == 1
    new = tmp_path / "new"
    assert fedtool("init", new).exit_code == 0
    result = fedtool("season", "close", "--fed", new)
    assert result.exit_code == 1 and "no week has been run yet" in result.output
    result = fedtool("season", "reopen", "--fed", new)
    assert result.exit_code == 1 and "no season has been closed" in result.output


# ---------------------------------------------------------------- records


def test_records_agree_with_titles_history_and_states(fed, fedtool):
    """Each record is checked against another command's account of the same league."""
    book = json.loads(fedtool("records", "--json", "--fed", fed).output)
    assert book["weeks"] is None and book["sections"][0]["ruleset"] is None
    assert [s["ruleset"] for s in book["sections"][1:]] == ["matchmatch", "matclash", "facemat", "madmatch"]
    every = book["sections"][0]["records"]
    titles = json.loads(fedtool("titles", "--json", "--fed", fed).output)
    reigns = [r for t in titles for r in t["reigns"]]
    assert every["longest_reigns"][0]["weeks"] == max(r["weeks"] for r in reigns)
    assert max((r["defences"] for r in reigns), default=0) == (every["most_defences"][0]["defences"] if every["most_defences"] else 0)
    for pair in every["head_to_head"]:
        history = json.loads(fedtool("history", pair["a"], "--json", "--fed", fed).output)
        met = [m for m in history["matches"] if pair["b_name"] in m["opponents"]]
        assert pair["meetings"] == len(met) >= 2
        assert pair["a_wins"] == sum(1 for m in met if m["outcome"] == "win")
    assert any(p["meetings"] >= 2 for p in every["head_to_head"])
    db = open_league(Fed.load(fed).database)
    for upset in every["upsets"]:
        states = states_before(db, upset["week"])
        if upset["ruleset"] == "matchmatch":  # Part II: the push level going into the week
            level = lambda wid: states.get(wid, _start(fed, wid))["push_level"]  # noqa: E731
            assert level(upset["beaten"]) - level(upset["winner"]) == upset["gap"] > 0
    stars = [m["stars"] for m in every["best_matches"]]
    assert stars == sorted(stars, reverse=True) and len(stars) == 10
    assert all(r["ruleset"] == "facemat" for r in book["sections"][3]["records"]["upsets"])
    text = fedtool("records", "--fed", fed).output
    assert "Every ruleset, all time" in text and "Hall of fame" in text and "nobody yet" in text


def test_records_of_a_season_and_the_hall_of_fame(fed, fedtool):
    assert fedtool("records", "--season", "1", "--fed", fed).exit_code == 1  # not closed yet
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    book = json.loads(fedtool("records", "--season", "1", "--ruleset", "matchmatch", "--json", "--fed", fed).output)
    assert book["weeks"] == [1, 5] and [s["ruleset"] for s in book["sections"]] == ["matchmatch"]
    # season 1 is every week run: its reigns are the whole reigns (a first holder's from week 0, before week 1)
    every = json.loads(fedtool("records", "--ruleset", "matchmatch", "--json", "--fed", fed).output)
    assert book["sections"][0]["records"]["longest_reigns"] == every["sections"][0]["records"]["longest_reigns"]
    assert book["sections"][0]["records"]["longest_reigns"][0]["weeks"] == 5
    archive = json.loads(fedtool("season", "show", "1", "--json", "--fed", fed).output)
    famous = {e["wrestler_id"] for e in book["hall_of_fame"]}
    assert {c["holder"] for c in archive["champions"] if c["holder"]} <= famous
    assert {w["wrestler_id"] for a in archive["awards"] for w in a["winners"]} <= famous
    result = fedtool("records", "--ruleset", "chess", "--fed", fed)
    assert result.exit_code == 1 and "Traceback" not in result.output


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from(["win", "loss", "draw"])), max_size=30))
def test_a_win_streak_is_the_longest_run_of_wins(outcomes):
    matches = [{"week": i + 1, "ruleset": "matchmatch", "sides": [(wid, outcome)]} for i, (wid, outcome) in enumerate(outcomes)]
    found = {s["wrestler_id"]: s["wins"] for s in _win_streaks(matches, {})}
    for wid in "abc":
        runs = [len(list(g)) for won, g in groupby(o for w, o in outcomes if w == wid) if won == "win"]
        longest = max(runs, default=0)
        assert found.get(wid, 0) == (longest if longest >= 2 else 0)


# ---------------------------------------------------------------- the site


@pytest.fixture
def site(fed, fedtool) -> Path:
    """The demo's site after its first season closed, week 6 opened with a deadline."""
    _week_six(fed)
    card = fed / "strategies/week-06/card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("week: 6\n", "week: 6\ndeadline: 2026-12-04 18:00\n"), encoding="utf-8")
    week5 = fed / "strategies/week-05/card.yaml"
    week5.write_text(week5.read_text(encoding="utf-8").replace("week: 5\n", "week: 5\ndeadline: 2026-11-27 18:00\n"), encoding="utf-8")
    assert fedtool("season", "close", "--fed", fed).exit_code == 0
    result = fedtool("site", "--fed", fed)
    assert result.exit_code == 0, result.output
    return fed / "outbox/site"


def test_the_atom_feed_validates(site):
    parsed = feedparser.parse((site / "feed.xml").read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    titles = [e.title for e in parsed.entries]
    assert titles[:2] == ["Season 1 closed", "Results: Week 5: Partners"]  # the newest first
    assert len(parsed.entries) == 6 and len({e.id for e in parsed.entries}) == 6
    for entry in parsed.entries:
        assert (site / entry.link).is_file(), entry.link
        assert entry.updated_parsed and entry.content[0].value
    week2 = next(e for e in parsed.entries if "Week 2" in e.title)
    assert "wins the DCW Tag Team Championship" in week2.content[0].value


def test_the_calendar_parses_back(site):
    calendar = icalendar.Calendar.from_ical((site / "calendar.ics").read_bytes())
    events = list(calendar.walk("VEVENT"))
    assert [str(e["summary"]) for e in events] == ["Delta Championship Wrestling: week 5 strategies due", "Delta Championship Wrestling: week 6 strategies due"]
    assert events[1].decoded("dtstart") == datetime.datetime(2026, 12, 4, 18, 0, tzinfo=datetime.timezone.utc)
    assert "Brother Bob vs. Friendly Sam" in str(events[1]["description"])
    assert len({str(e["uid"]) for e in events}) == 2
    news = (site / "news.html").read_text(encoding="utf-8")
    assert 'href="calendar.ics"' in news and 'href="feed.xml"' in news
    assert "Week 6" in news and "4 December 2026, 18:00 UTC" in news and "Week 5 (" not in news  # deadlines to come only
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Week 6 is open" in home and 'Strategies are due by <time datetime="2026-12-04T18:00:00+00:00">4 December 2026, 18:00 UTC</time>' in home
    assert '<a href="calendar.ics">Add the deadlines to your calendar</a>' in home


def test_every_page_is_dated_and_links_the_feed(site):
    """Every page is dated: the league-wide ones by the league's last change; a week's, a
    wrestler's and a closed season's by the last change of what they show (issue 18: such a
    page is rewritten only when that changes)."""
    subject = ("weeks/week-", "wrestlers/", "seasons/season-01")
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(site).as_posix()
        said = "What this page shows last changed on" if name.startswith(subject) and name != "wrestlers/index.html" else "The league last changed on"
        assert re.search(f'<p class="updated">{said} <time datetime="[^"]+">\\d+ \\w+ 20\\d\\d</time>', html), page
        assert 'type="application/atom+xml"' in html, page
    assert "Run on <time" in (site / "weeks/week-03.html").read_text(encoding="utf-8")


def test_title_changes_are_in_every_league_changes_list(site):
    week2 = (site / "weeks/week-02.html").read_text(encoding="utf-8")
    changes = week2.split("<h2>League changes</h2>", 1)[1].split("</ul>", 1)[0]
    assert "wins the DCW Tag Team Championship" in changes and "from The Rulebook Rivals" in changes
    rivals = (site / "wrestlers/rulebook-rivals.html").read_text(encoding="utf-8")
    assert "loses the DCW Tag Team Championship to Heavy Industry" in rivals.split("<h2>League changes</h2>", 1)[1]


def test_the_seasons_and_records_pages(site):
    index = (site / "seasons/index.html").read_text(encoding="utf-8")
    assert 'href="../seasons/season-01.html">Season 1</a>: weeks 1 to 5' in index
    one = (site / "seasons/season-01.html").read_text(encoding="utf-8")
    for part in ("Champions at the close", "Relámpago", "Awards", "Wrestler of the season", "Standings", "Records", "Into the next season"):
        assert part in one, part
    records = (site / "records.html").read_text(encoding="utf-8")
    assert "Hall of fame" in records and "Season 1</a>, DCW World Championship champion at the close" in records
    assert records.count('<ol class="records">') >= 10


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_the_site_is_readable_by_others_as_the_umask_allows(fed, fedtool, mask):
    """Every folder of the site was 0700 (mkdtemp's staging folder swapped in whole)."""
    old = os.umask(mask)
    try:
        assert fedtool("site", "--fed", fed).exit_code == 0
        _week_six(fed)
        (fed / "strategies/week-06/opening.yaml").unlink()
        assert fedtool("open", "6", "--fed", fed).exit_code == 0
    finally:
        os.umask(old)
    site = fed / "outbox/site"
    folders = [site, *(p for p in site.rglob("*") if p.is_dir()), fed / "outbox/week-06/announcements"]
    files = [p for p in site.rglob("*") if p.is_file()] + [fed / "strategies/week-06/opening.yaml"]
    assert {stat.S_IMODE(p.stat().st_mode) for p in folders} == {0o777 & ~mask}
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o666 & ~mask}


def test_announcements_link_the_calendar_when_the_site_has_an_address(fed, fedtool):
    _settings(fed, "site_url: https://dcw.example/league\nschedule:\n  weekday: fri\n")
    _week_six(fed)
    (fed / "strategies/week-06/opening.yaml").unlink()
    result = fedtool("open", "6", "--fed", fed)
    assert result.exit_code == 0, result.output
    body = (fed / "outbox/week-06/announcements/m1-brother-bob.md").read_text(encoding="utf-8")
    assert "Every deadline, for your calendar app: <https://dcw.example/league/calendar.ics>" in body


def test_record_lines_read_as_words():
    """A reign from the fed's start is told as such (never "since week 0"), and awards count
    in singular and plural."""
    from fedtool.league.seasons import _count
    from fedtool.league.tables import _line

    reign = {"name": "Relámpago", "title": "DCW World Championship", "weeks": 5, "defences": 1, "won_week": 0, "lost_week": None}
    assert _line("longest_reigns", reign) == "Relámpago: DCW World Championship, 5 weeks, 1 defence (since the start, still champion)"
    assert _line("longest_reigns", {**reign, "lost_week": 2}).endswith("(from the start to week 2)")
    assert _line("longest_reigns", {**reign, "won_week": 2, "lost_week": 4}).endswith("(weeks 2-4)")
    assert (_count(1, "win"), _count(2, "win"), _count(1, "loss"), _count(0, "loss")) == ("1 win", "2 wins", "1 loss", "0 losses")
