"""MatchMatch speed: 20-round matches resolved per second on one core (no rendering, no
database, every roll logged), and the wall time of the whole demo week run.

    python benchmarks/bench_matchmatch.py [--matches N]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fedtool.card import load_card
from fedtool.dice import SeededDice
from fedtool.errors import Collector
from fedtool.fed import Fed
from fedtool.rulesets.matchmatch import engine
from fedtool.week import _book_all, load_wrestlers

ROOT = Path(__file__).resolve().parent.parent


def week_one_setups() -> list[engine.MatchSetup]:
    """The demo fed's week-1 matches: real sheets, real 20-round strategies."""
    fed = Fed.load(ROOT)
    card = load_card(fed.week_dir(1), "strategies/week-01", "matchmatch", 1)
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = {w.id: {"push_level": w.sheet.push_level, "push_points": 0, "injury": 0} for w in wrestlers.values()}
    return [b.setup for b in _book_all(fed, card, wrestlers, states)]


def matches_per_second(count: int) -> tuple[float, float, int]:
    setups = week_one_setups()
    rounds = rolls = 0
    start = time.perf_counter()
    for i in range(count):
        dice = SeededDice(i)
        result = engine.resolve(setups[i % len(setups)], dice)
        rounds += len(result.rounds)
        rolls += len(result.log)
    elapsed = time.perf_counter() - start
    return count / elapsed, rounds / count, rolls // count


def demo_week_wall_time() -> float:
    """`fedtool run 1` on a fresh copy of the demo fed, timed from the shell's view."""
    with tempfile.TemporaryDirectory() as tmp:
        fed = Path(tmp) / "fed"
        shutil.copytree(ROOT / "rosters", fed / "rosters")
        shutil.copytree(ROOT / "strategies", fed / "strategies")
        shutil.copytree(ROOT / "templates", fed / "templates")
        fedtool = shutil.which("fedtool") or sys.exit("fedtool is not installed (pip install -e .)")
        start = time.perf_counter()
        subprocess.run([fedtool, "--help"], check=True, capture_output=True)
        startup = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([fedtool, "run", "1", "--fed", str(fed)], check=True, capture_output=True)
        return time.perf_counter() - start, startup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20000)
    args = parser.parse_args()
    rate, mean_rounds, mean_rolls = matches_per_second(args.matches)
    print(f"MatchMatch: {rate:,.0f} matches/s on one core ({args.matches:,} demo week-1 matches, 20-round limit, "
          f"{mean_rounds:.1f} rounds and {mean_rolls} logged rolls per match on average)")
    wall, startup = demo_week_wall_time()
    print(f"demo week run (fedtool run 1, fresh fed): {wall:.2f} s wall time (of which ~{startup:.2f} s is Python and import start-up)")


if __name__ == "__main__":
    main()
