"""League growth (issue 18 item 6): the bytes `fed.db` gains a week for a 24-match card,
and what `fedtool results`, `history` and the site's read of the league cost, before and
after a change, side by side.

    python benchmarks/bench_league.py [--weeks 10] [--repeats 5] [--before PATH]

The synthetic card: 24 matches a week, run for real (`fedtool run`, the engines, the
writeups, the dice log; each week opened first, its grids rolled): 16 MatchMatch singles (20 rounds, default strategies), 2 Mat
Clash Quick Scraps, 2 Mat Clash Dual Matches and 4 Face to the Mat singles, among 64
wrestlers copied from the demo's sheets (32 MatchMatch, 16 Mat Clash, 16 Face to the Mat),
paired afresh each week. Each week's growth is `fed.db`'s size after the week less its
size before (the write-ahead log folded in first: what a backup or a copy of the file
holds); the table below it is SQLite's own count of each table's pages (dbstat).

`--before PATH`: another checkout's fedtool (e.g. /work/main) generates its own league on
the same card in a process of its own, and the two are read side by side: each timing
pass runs one process per checkout, alternately, and each process times its own reads
(`week_results` of every week, `history` of eight wrestlers, the site's `read_league`,
the whole `build_site`),
so a busy machine slows both alike. Prints best and median of each, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # figures.py
TARGET_KB = 150

MM = ["big-earl", "brother-bob", "friendly-sam", "kate-galloway", "mad-dog-maddox", "relampago", "rocky-ridge", "silent-crane",
      "skyline-sabrina", "victor-vane"]
MC = ["tommy-reyes", "gus-halvorsen", "ada-okafor", "wes-kimura"]
FM = ["vince-valor", "the-warden", "marcus-bright", "dutch-kessler"]


def make_fed(code: Path, where: Path) -> Path:
    """The synthetic fed: the demo's settings (MatchMatch sides without a strategy play the
    default) and templates, 64 wrestlers, and a card for each week."""
    fed = where
    (fed / "rosters").mkdir(parents=True)
    (fed / "strategies").mkdir()
    shutil.copytree(code / "templates", fed / "templates")
    settings = (code / "rosters/fed.yaml").read_text(encoding="utf-8")
    settings = settings.replace("    dq_threshold: 10    # IV.2.c", "    missing_strategy: default\n    dq_threshold: 10    # IV.2.c", 1)
    settings = settings[:settings.index("# The fed's titles")]  # no titles: the copies' ids are not the demo's
    (fed / "rosters/fed.yaml").write_text(settings, encoding="utf-8")
    ids = {"mm": [], "mc": [], "fm": []}
    for kind, sources, count in (("mm", MM, 32), ("mc", MC, 16), ("fm", FM, 16)):
        for i in range(count):
            text = (code / "rosters" / f"{sources[i % len(sources)]}.yaml").read_text(encoding="utf-8")
            text = re.sub(r"(?m)^name: (.*)$", lambda m: f"name: {m.group(1)} {i + 1}", text, count=1)
            text = re.sub(r"(?m)^(allies|foes): .*\n", "", text)
            wid = f"{kind}-{i + 1:02d}"
            (fed / "rosters" / f"{wid}.yaml").write_text(text, encoding="utf-8")
            ids[kind].append(wid)
    return fed


def card(week: int) -> str:
    """Week `week`'s card: each ruleset's wrestlers paired by a rotation of the week."""
    def pairs(group: list[str], n: int) -> list[tuple[str, str]]:
        k = len(group)
        order = [group[(i * (2 * week + 1)) % k] for i in range(k)] if k % 2 else group[week % k:] + group[:week % k]
        half = k // 2
        return [(order[i], order[i + half]) for i in range(n)]
    lines = [f"title: \"Week {week}: the synthetic card\"", f"week: {week}", "matches:"]
    n = 0
    for a, b in pairs([f"mm-{i:02d}" for i in range(1, 33)], 16):
        n += 1
        lines.append(f"  - {{id: m{n}, sides: [{a}, {b}]}}")
    for k, (a, b) in enumerate(pairs([f"mc-{i:02d}" for i in range(1, 17)], 4)):
        n += 1
        lines.append(f"  - {{id: m{n}, ruleset: matclash, format: {'quick_scrap' if k < 2 else 'dual_match'}, sides: [{a}, {b}]}}")
    for a, b in pairs([f"fm-{i:02d}" for i in range(1, 17)], 4):
        n += 1
        lines.append(f"  - {{id: m{n}, ruleset: facemat, sides: [{a}, {b}]}}")
    return "\n".join(lines) + "\n"


def db_bytes(path: Path) -> int:
    """The league's size with its write-ahead log folded in."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    return path.stat().st_size


GENERATE = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_league import card, db_bytes
from click.testing import CliRunner
from fedtool.cli import cli
fed = Path(sys.argv[2])
sizes = []
for week in range(1, int(sys.argv[3]) + 1):
    folder = fed / "strategies" / f"week-{week:02d}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "card.yaml").write_text(card(week), encoding="utf-8")
    before = db_bytes(fed / "fed.db") if (fed / "fed.db").exists() else 0
    for command in ("open", "run"):
        result = CliRunner().invoke(cli, ["--fed", str(fed), command, str(week)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    sizes.append(db_bytes(fed / "fed.db") - before)
    shutil = __import__("shutil"); shutil.rmtree(fed / "backups", ignore_errors=True)
import sqlite3
c = sqlite3.connect(fed / "fed.db")
tables = {name: size for name, size in c.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")}
import zlib
plain = {}  # each week's packed rows (writeups, rounds, dice log) as the text they unpack to
for table in ("lean_writeups", "lean_rounds", "lean_dice"):
    for week, data in c.execute(f"SELECT week, data FROM {table}"):
        plain[week] = plain.get(week, 0) + len(zlib.decompress(data))
print(json.dumps({"sizes": sizes, "tables": tables, "plain": [plain.get(w, 0) for w in range(1, int(sys.argv[3]) + 1)]}))
"""

TIME = """
import json, sys, time
from pathlib import Path
from fedtool.fed.settings import Fed
from fedtool.league.db import open_league, week_results, ran_weeks
from fedtool.league.records import history
from fedtool.site.build import build_site, read_league
fed = Fed.load(Path(sys.argv[1]))
titles = {t.id: t.name for t in fed.settings.titles}
out = {"results": [], "history": [], "site": [], "build": []}
for attempt in range(int(sys.argv[2])):
    db = open_league(fed.database, create=False)
    start = time.perf_counter()
    for week in ran_weeks(db):
        week_results(db, week, titles)
    out["results"].append(time.perf_counter() - start)
    start = time.perf_counter()
    for wid in ("mm-01", "mm-07", "mm-20", "mc-03", "mc-11", "fm-02", "fm-09", "fm-16"):
        history(fed, db, wid)
    out["history"].append(time.perf_counter() - start)
    start = time.perf_counter()
    league = read_league(db)
    if league.matches and "writeup" not in league.matches[0]:  # the incremental site reads writeups a week at a time: read them all here
        from fedtool.league.db import week_writeups
        written = week_writeups(db)
        assert all(written[m["id"]]["html"] for m in league.matches)
    else:
        assert all(m["writeup"] and m["writeup"]["html"] for m in league.matches)
    out["site"].append(time.perf_counter() - start)
    db.close()
    start = time.perf_counter()
    build_site(fed)
    out["build"].append(time.perf_counter() - start)
print(json.dumps(out))
"""


def child(code: Path, script: str, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"{code}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def figures(weeks: int = 10) -> list[dict]:
    """Issue 18's league target: the growth a week of the 24-match card, against the same
    weeks' writeups, rounds and dice log as the uncompressed text they pack (the reference)."""
    from figures import figure

    with tempfile.TemporaryDirectory() as tmp:
        fed = make_fed(ROOT, Path(tmp) / "fed")
        grown = child(ROOT, GENERATE, str(ROOT), str(fed), str(weeks))
    steady, plain = grown["sizes"][1:] or grown["sizes"], grown["plain"][1:] or grown["plain"]
    return [figure(f"league growth a week (24-match card, weeks 2-{weeks})", "KB", [size / 1024 for size in steady],
                   [size / 1024 for size in plain], "its writeups, rounds and dice as text", f"< {TARGET_KB} KB",
                   lambda kb: kb < TARGET_KB)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weeks", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5, help="timing passes (each one process per checkout)")
    parser.add_argument("--keep", type=Path, help="a folder to keep the generated feds in (left for inspection)")
    parser.add_argument("--before", type=Path, help="another checkout's fedtool, measured side by side (e.g. /work/main)")
    options = parser.parse_args()
    codes = {"after": ROOT}
    if options.before:
        codes = {"before": options.before.resolve(), "after": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if options.keep:
            tmp = options.keep
        feds, grown = {}, {}
        for label, code in codes.items():
            fed = make_fed(code, Path(tmp) / label)
            started = time.perf_counter()
            grown[label] = child(code, GENERATE, str(ROOT), str(fed), str(options.weeks))
            feds[label] = fed
            sizes = grown[label]["sizes"]
            print(f"{label:>6} ({code}): {options.weeks} weeks of the 24-match card generated in {time.perf_counter() - started:.0f} s; "
                  f"load average {os.getloadavg()[0]:.1f}")
            steady = sizes[1:] or sizes  # week 1 also writes the roster and the schema
            print(f"        growth a week: median {statistics.median(steady) / 1024:7.1f} KB, best {min(steady) / 1024:7.1f} KB, "
                  f"worst {max(steady) / 1024:7.1f} KB (week 1: {sizes[0] / 1024:.1f} KB); "
                  f"target < {TARGET_KB} KB: {'met' if statistics.median(steady) < TARGET_KB * 1024 else 'NOT met'}")
            total = sum(grown[label]["tables"].values())
            print("        " + ", ".join(f"{name} {size / 1024:,.0f} KB ({100 * size / total:.0f}%)"
                                         for name, size in list(grown[label]["tables"].items())[:8]))
        if "before" in grown:
            ratio = statistics.median(grown["after"]["sizes"][1:]) / statistics.median(grown["before"]["sizes"][1:])
            print(f"        after / before, median growth a week: {ratio:.3f}x")
        timings = {label: {"results": [], "history": [], "site": [], "build": []} for label in codes}
        for _ in range(options.repeats):
            for label, code in codes.items():
                for key, values in child(code, TIME, str(feds[label]), "3").items():
                    timings[label][key].append(min(values))  # the best of a process's three reads
        print(f"\nreads, {options.repeats} interleaved passes (each the best of 3 in its process); load average {os.getloadavg()[0]:.1f}")
        for key, what in (("results", f"week_results of all {options.weeks} weeks"), ("history", "history of 8 wrestlers"),
                          ("site", "the site's read_league and every writeup"), ("build", "fedtool site (build_site, whole)")):
            line = f"{what:<42}"
            for label in codes:
                values = timings[label][key]
                line += f"  {label}: best {min(values) * 1000:7.1f} ms median {statistics.median(values) * 1000:7.1f} ms"
            if "before" in codes:
                b, a = timings["before"][key], timings["after"][key]
                line += f"  after/before {min(a) / min(b):.2f}x best, {statistics.median(a) / statistics.median(b):.2f}x median"
            print(line)


if __name__ == "__main__":
    main()
