"""Site build speed: `fedtool site` for a fed with 200 wrestlers and 52 weeks of results.

    python benchmarks/bench_site.py [--wrestlers 200] [--weeks 52] [--trials 3]

The fed is generated straight into a league database through the library (rolling 52
real weeks would time the engines, not the site): 150 MatchMatch and 50 Face to the
Mat roster sheets made from the demo's, ten matches a week (eight MatchMatch, two Face
to the Mat), a world title defended or won on every card, a state change for everyone
who wrestled, the dice rows a real week writes, and each match's stored writeup taken
from the demo's own weeks (3 to 27 KB of HTML each). Then `build_site` is timed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from fedtool.cli import cli
from fedtool.fed.settings import Fed, week_name
from fedtool.league.db import open_league, record_week, record_writeups
from fedtool.site.build import build_site

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from golden import demo_copy  # noqa: E402

GRADES = ("AAA", "AA", "A", "B", "C", "D", "E", "F")
SETTINGS = """name: Benchmark Wrestling Federation
secret: benchmark-secret-not-for-real-feds
ruleset: matchmatch
database: fed.db
titles:
  - {id: world, name: BWF World Championship, ruleset: matchmatch}
  - {id: tv, name: BWF Television Championship, ruleset: facemat}
"""


def demo_writeups(tmp: Path) -> list[dict]:
    """Real writeups: the demo's weeks run once, their stored Markdown and HTML kept."""
    fed = demo_copy(tmp / "demo")
    for week in (1, 2, 3, 4, 5):
        result = CliRunner().invoke(cli, ["run", str(week), "--fed", str(fed)])
        assert result.exit_code == 0, result.output
    db = open_league(fed / "fed.db")
    return [dict(r) for r in db["match_writeups"].rows]


def generate(root: Path, wrestlers: int, weeks: int, writeups: list[dict]) -> Fed:
    """A fed on disk (settings and sheets) and a league holding `weeks` weeks of results."""
    (root / "rosters").mkdir(parents=True)
    (root / "outbox").mkdir()
    (root / "rosters/fed.yaml").write_text(SETTINGS, encoding="utf-8")
    mm_sheet = (ROOT / "rosters/friendly-sam.yaml").read_text(encoding="utf-8")
    fm_sheet = re.sub(r"(?m)^(allies|foes): .*\n", "", (ROOT / "rosters/vince-valor.yaml").read_text(encoding="utf-8"))
    roster = []
    for i in range(wrestlers):
        facemat = i >= wrestlers * 3 // 4
        wid = f"{'fm' if facemat else 'mm'}-wrestler-{i:03d}"
        name = f"{'Grappler' if facemat else 'Brawler'} Number {i}"
        text = re.sub(r"(?m)^name: .*$", f"name: {name}", fm_sheet if facemat else mm_sheet, count=1)
        (root / "rosters" / f"{wid}.yaml").write_text(text, encoding="utf-8")
        roster.append(SimpleNamespace(id=wid, name=name, ruleset="facemat" if facemat else "matchmatch",
                                      owner_name=f"Player {i}", owner_email=f"player{i}@players.example", members=()))
    fed = Fed.load(root)
    rng = random.Random(52)
    db = open_league(fed.database)
    push = {w.id: 2 for w in roster if w.ruleset == "matchmatch"}
    grade = {w.id: "A" for w in roster if w.ruleset == "facemat"}
    holder = {"world": None, "tv": None}
    for week in range(1, weeks + 1):
        matches, states, dice, stored, title_rows = [], {}, [], {}, []
        booked = []
        for ruleset, count in (("matchmatch", 8), ("facemat", 2)):
            pool = [w for w in roster if w.ruleset == ruleset]
            rng.shuffle(pool)
            booked += [(ruleset, pool[2 * k], pool[2 * k + 1]) for k in range(count)]
        for position, (ruleset, a, b) in enumerate(booked, start=1):
            match_id = f"{week_name(week)}/m{position}"
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            method = rng.choice(("pin", "submission", "dq") if ruleset == "matchmatch" else ("pin", "finisher"))
            end_round = rng.randint(3, 20)
            writeup = writeups[(week * 10 + position) % len(writeups)]
            matches.append({
                "id": match_id, "match": f"m{position}", "position": position, "ruleset": ruleset,
                "title": f"Bout {position}" if position % 3 else None, "seed": f"{rng.getrandbits(64):016x}",
                "summary": {"winner": winner.id, "method": method, "round": end_round, "sides": [{"id": a.id}, {"id": b.id}]},
                "notes": [], "sides": [a.id, b.id], "outcomes": ["win" if a is winner else "loss", "win" if b is winner else "loss"],
                "rounds": [{"round": r, "style": "Brawling", "winner": rng.randint(0, 1), "margin": rng.randint(0, 9), "detail": "{}"} for r in range(1, end_round + 1)],
            })
            dice += [{"week": week, "match_id": match_id, "seq": s, "round": s // 4, "purpose": "damage", "faces": "3 4 5"} for s in range(end_round * 4)]
            stored[match_id] = {"headline": f"{winner.name} def. {loser.name} by {method}", "markdown": writeup["markdown"], "html": writeup["html"]}
            title_id = "world" if position == 1 else "tv" if position == 9 else None
            if title_id:
                result = "defended" if winner.id == holder[title_id] else "won"
                title_rows.append({"match_id": match_id, "week": week, "title_id": title_id, "holder_before": holder[title_id],
                                   "winner": winner.id, "method": method, "result": result, "reason": ""})
                holder[title_id] = winner.id
            for w in (winner, loser):
                up = w is winner
                if ruleset == "matchmatch":
                    before = push[w.id]
                    push[w.id] = max(1, min(5, before + (1 if up else -1)))
                    states[w.id] = ({"push_level": push[w.id], "push_points": "1/2", "injury": 0},
                                    f"{'beat' if up else 'lost to'} someone (Part II): level {before} -> level {push[w.id]}")
                else:
                    before = grade[w.id]
                    grade[w.id] = GRADES[max(0, min(7, GRADES.index(before) + (-1 if up else 1)))]
                    states[w.id] = ({"tv_grade": grade[w.id], "grudge": 2}, f"TV grade {before} -> {grade[w.id]}")
        with db.atomic():
            record_week(db, week, f"Week {week}: Card {week}", "2026-01-01T00:00:00+00:00", "seeded", roster, matches, states, dice)
            record_writeups(db, week, stored)
            if title_rows:
                db["title_matches"].insert_all(title_rows)
    return fed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wrestlers", type=int, default=200)
    parser.add_argument("--weeks", type=int, default=52)
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        writeups = demo_writeups(tmp)
        started = time.perf_counter()
        fed = generate(tmp / "fed", args.wrestlers, args.weeks, writeups)
        generated = time.perf_counter() - started
        db = open_league(fed.database)
        sizes = {t: db[t].count for t in ("matches", "match_sides", "wrestler_states", "dice_rolls", "match_writeups", "title_matches")}
        html_kb = sum(len(r["html"]) for r in db["match_writeups"].rows) / 1024
        print(f"generated {args.wrestlers} wrestlers, {args.weeks} weeks in {generated:.1f} s: "
              + ", ".join(f"{n} {t}" for t, n in sizes.items()) + f"; {html_kb:,.0f} KB of writeup HTML")
        times = []
        for _ in range(args.trials):
            started = time.perf_counter()
            report = build_site(fed)
            times.append(time.perf_counter() - started)
        size_mb = sum(p.stat().st_size for p in report.out.rglob("*") if p.is_file()) / 1e6
        print(f"fedtool site: {len(report.pages)} pages, {size_mb:.1f} MB; "
              f"best {min(times):.2f} s, worst {max(times):.2f} s over {args.trials} builds (target: under 10 s)")
        print(json.dumps({"pages": len(report.pages), "best_seconds": round(min(times), 3), "worst_seconds": round(max(times), 3)}))
        shutil.rmtree(tmp / "fed")


if __name__ == "__main__":
    main()
