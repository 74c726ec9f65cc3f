"""The league's reads for one page at a time (`fedtool.league.pagereads`, issue 18 item 5):
a week's or a wrestler's title changes, a title's reigns as a stream; and a site build whose
reads for its week pages do not grow with the weeks."""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from fedtool.fed.settings import Fed
from fedtool.league import records
from fedtool.league.db import open_league, register_functions
from fedtool.league.pagereads import Reigns, title_changes, title_reigns, titles_streamed
from fedtool.site import build as site_build
from fedtool.site.build import build_site
from golden import demo_copy

RULED_AT = "2026-01-20T10:00:00+00:00"


def small_league(tmp_path: Path):
    """The demo fed (its titles: world, first held by relampago; heavyweight, never held; ...) and a
    league of three weeks written by hand: week 1 rocky-ridge wins the world title from relampago
    (m1) and brother-bob the vacant heavyweight title (m2); week 2 rocky-ridge defends it; after
    week 2 the fedhead vacates the heavyweight title and awards it to victor-vane; week 3
    victor-vane wins the world title from rocky-ridge by submission."""
    fed = Fed.load(demo_copy(tmp_path / "fed"))
    db = open_league(fed.database)
    with db.conn:
        for week in (1, 2, 3):
            db["weeks"].insert({"week": week, "title": f"Week {week}", "ran_at": f"2026-01-0{week}T20:00:00+00:00", "dice_source": "seeded", "matches": 1})
        for match_id, week, position in (("1/m1", 1, 1), ("1/m2", 1, 2), ("2/m1", 2, 1), ("3/m1", 3, 1)):
            db["matches"].insert({"id": match_id, "week": week, "match": match_id.split("/")[1], "position": position, "ruleset": "matchmatch"})
        db["title_matches"].insert_all([
            {"match_id": "1/m1", "week": 1, "title_id": "world", "holder_before": "relampago", "winner": "rocky-ridge", "method": "pin", "result": "won", "reason": ""},
            {"match_id": "1/m2", "week": 1, "title_id": "heavyweight", "holder_before": None, "winner": "brother-bob", "method": "pin", "result": "won", "reason": ""},
            {"match_id": "2/m1", "week": 2, "title_id": "world", "holder_before": "rocky-ridge", "winner": "rocky-ridge", "method": "pin", "result": "defended",
             "reason": ""},
            {"match_id": "3/m1", "week": 3, "title_id": "world", "holder_before": "rocky-ridge", "winner": "victor-vane", "method": "submission", "result": "won",
             "reason": ""},
        ])
        db["title_rulings"].insert_all([
            {"title_id": "heavyweight", "action": "vacated", "wrestler_id": "brother-bob", "after_week": 2, "reason": "no-shows", "made_at": RULED_AT},
            {"title_id": "heavyweight", "action": "awarded", "wrestler_id": "victor-vane", "after_week": 2, "reason": "", "made_at": RULED_AT},
        ])
    return fed, db


def test_title_changes_are_each_weeks_won_titles_then_its_rulings_for_a_week_or_a_wrestler(tmp_path):
    fed, db = small_league(tmp_path)
    rows = {
        "world 1": (1, "world", "rocky-ridge", "relampago", "pin", "won", None, None),
        "heavy 1": (1, "heavyweight", "brother-bob", None, "pin", "won", None, None),
        "vacated": (2, "heavyweight", "brother-bob", None, None, "vacated", "no-shows", RULED_AT),
        "awarded": (2, "heavyweight", "victor-vane", None, None, "awarded", "", RULED_AT),
        "world 3": (3, "world", "victor-vane", "rocky-ridge", "submission", "won", None, None),
    }
    # a defence changes nothing; a week's matches in card order, then the rulings made after it in the order made
    assert list(title_changes(db)) == [rows[k] for k in ("world 1", "heavy 1", "vacated", "awarded", "world 3")]
    assert list(title_changes(db, weeks=(2, 2))) == [rows["vacated"], rows["awarded"]]
    assert list(title_changes(db, weeks=(2, 3))) == [rows["vacated"], rows["awarded"], rows["world 3"]]
    assert list(title_changes(db, wrestler="rocky-ridge")) == [rows["world 1"], rows["world 3"]]  # won, then lost
    assert list(title_changes(db, wrestler="brother-bob")) == [rows["heavy 1"], rows["vacated"]]
    assert list(title_changes(db, weeks=(3, 3), wrestler="brother-bob")) == []
    assert list(title_changes(db, wrestler="zelda-voss")) == []


def test_title_reigns_are_replayed_one_title_at_a_time_as_records_gives_them(tmp_path):
    fed, db = small_league(tmp_path)
    assert list(title_reigns(fed, db, "world")) == [
        {"wrestler_id": "relampago", "name": "Relámpago", "won_week": 0, "won_match": None, "how": "awarded", "lost_week": 1, "lost_how": "lost",
         "defences": 0, "weeks": 1},
        {"wrestler_id": "rocky-ridge", "name": "Rocky Ridge", "won_week": 1, "won_match": "1/m1", "how": "won", "lost_week": 3, "lost_how": "lost",
         "defences": 1, "weeks": 2},
        {"wrestler_id": "victor-vane", "name": "Dr. Victor Vane", "won_week": 3, "won_match": "3/m1", "how": "won", "lost_week": None, "lost_how": None,
         "defences": 0, "weeks": 0},
    ]
    assert list(title_reigns(fed, db, "heavyweight")) == [
        {"wrestler_id": "brother-bob", "name": "Brother Bob", "won_week": 1, "won_match": "1/m2", "how": "won", "lost_week": 2, "lost_how": "vacated",
         "defences": 0, "weeks": 1},
        {"wrestler_id": "victor-vane", "name": "Dr. Victor Vane", "won_week": 2, "won_match": None, "how": "awarded", "lost_week": None, "lost_how": None,
         "defences": 0, "weeks": 1},
    ]
    assert list(title_reigns(fed, db, "no-such-title")) == []
    # every title as records.titles gives it, its reigns a stream that counts them and replays them when listed
    streamed = titles_streamed(fed, db)
    assert all(isinstance(t["reigns"], Reigns) for t in streamed)
    assert [len(t["reigns"]) for t in streamed[:2]] == [3, 2] and bool(streamed[1]["reigns"]) and list(streamed[0]["reigns"]) == list(streamed[0]["reigns"])
    assert [dict(t, reigns=list(t["reigns"])) for t in streamed] == records.titles(fed, db)
    assert streamed[0]["holder"] == "victor-vane" and streamed[0]["since_week"] == 3


def test_titles_streamed_is_records_titles_on_a_played_league(tmp_path, fedtool):
    """The demo's weeks run, with rulings: the same titles and reigns as `records.titles`."""
    fed = demo_copy(tmp_path / "fed")
    for args in (("run", "1"), ("run", "2"), ("title", "vacate", "hardcore"), ("title", "award", "hardcore", "rocky-ridge"), ("run", "3"),
                 ("title", "vacate", "world")):
        assert fedtool(*args, "--fed", fed).exit_code == 0, args
    loaded = Fed.load(fed)
    db = sqlite_utils.Database(loaded.database)
    register_functions(db.conn)
    assert [dict(t, reigns=list(t["reigns"])) for t in titles_streamed(loaded, db)] == records.titles(loaded, db)


# ---------------------------------------------------------------- a build's reads for its week pages do not grow with the weeks


def _bench_site():
    from test_site_incremental import _bench_site as bench

    return bench()


def _week_page_reads(tmp: Path, weeks: int, monkeypatch) -> dict:
    """The rows an incremental build (week `weeks` added to the site of the week before) reads with the
    per-week reads its week pages and home page make, for a league whose bookings rotate through a
    roster of 24 (everyone has wrestled by week 3)."""
    from test_site_incremental import WRITEUPS

    bench = _bench_site()
    before, latest = tmp / "before.db", tmp / "latest.db"

    def keep(week):
        if week == weeks - 1:
            bench._put(tmp / "fed" / "fed.db", before)

    fed = bench.generate(tmp / "fed", 24, weeks, WRITEUPS, after_week=keep, seed=11, rotate=True)
    bench._put(fed.database, latest)
    site = tmp / "site"
    bench._put(before, fed.database)
    build_site(fed, site, full=True)
    bench._put(latest, fed.database)
    reads: dict[str, list] = {"title changes of a week": [], "writeups of a week": [], "matches of a week": [], "changes of a week": [],
                              "every title change, held": []}
    changes_of, writeups_of = site_build.title_change_rows, site_build.week_writeups
    week_of, moved_of = site_build._Matches.week, site_build._Matches.changes

    def counted(kind, found, week):
        rows = [r for rows in found.values() for r in rows] if isinstance(found, dict) and kind == "title changes of a week" else found
        reads[kind].append((week, len(rows)))
        return found

    with monkeypatch.context() as patched:
        patched.setattr(site_build, "FEED_ENTRIES", 2)  # the feed's latest two weeks, at 4 weeks as at 12
        patched.setattr(site_build, "title_change_rows", lambda db, names, titles, *part: counted(
            "title changes of a week" if part and part[0] else "every title change, held", changes_of(db, names, titles, *part), part[0] if part else None)
            if not part or part[0] else changes_of(db, names, titles, *part))
        patched.setattr(site_build, "week_writeups", lambda db, week: counted("writeups of a week", writeups_of(db, week), week))
        patched.setattr(site_build._Matches, "week", lambda self, week: counted("matches of a week", week_of(self, week), week))
        patched.setattr(site_build._Matches, "changes", lambda self, week: counted("changes of a week", moved_of(self, week), week))
        report = build_site(fed, site)
        counted_reads = {kind: list(found) for kind, found in reads.items()}
        clean = tmp / "clean"
        build_site(fed, clean, full=True)  # and the site is the full build's
    assert not report.full and f"weeks/week-{weeks:02d}.html" in report.written
    assert {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()} == \
        {p.relative_to(clean).as_posix(): p.read_bytes() for p in clean.rglob("*") if p.is_file()}
    return counted_reads


def test_a_builds_week_page_reads_do_not_grow_with_the_weeks(tmp_path, monkeypatch):
    """At 4 weeks and at 12 (the roster the same, ten matches a week), the incremental build adding the
    last week reads, for its week pages (the new week's, the week before's for its "next" link), the
    home page and the feed's latest entries (here 2), the same number of weeks and the same rows a
    week: each read is one week's, whatever the league holds."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    early, late = _week_page_reads(tmp_path / "a", 4, monkeypatch), _week_page_reads(tmp_path / "b", 12, monkeypatch)
    assert early.pop("every title change, held") == [] and late.pop("every title change, held") == []  # only streamed, never held whole
    for kind in early:
        assert len(late[kind]) == len(early[kind]), (kind, early[kind], late[kind])
        # the weeks asked for are the latest ones, each read its own week's rows alone
        assert [week for week, _ in late[kind]] == [week + 8 if type(week) is int else (week[0] + 8, week[1] + 8) for week, _ in early[kind]], kind
    assert [n for _, n in late["matches of a week"]] == [n for _, n in early["matches of a week"]] and {n for _, n in late["matches of a week"]} == {10}
    assert [n for _, n in late["writeups of a week"]] == [n for _, n in early["writeups of a week"]]
    assert all(n <= 3 for _, n in late["title changes of a week"])  # a week's two title matches and no rulings
