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

from fedtool.fed.card import load_card
from fedtool.kernel.dice import SeededDice
from fedtool.kernel.errors import Collector
from fedtool.fed.settings import Fed
from fedtool.rulesets.matchmatch import engine
from fedtool.league.sheets import load_wrestlers
from fedtool.week.booking import book_all

ROOT = Path(__file__).resolve().parent.parent


def week_one_setups() -> list[engine.MatchSetup]:
    """The demo fed's week-1 matches: real sheets, real 20-round strategies."""
    fed = Fed.load(ROOT)
    card = load_card(fed, fed.week_dir(1), 1)
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = {w.id: {"push_level": w.sheet.push_level, "push_points": 0, "injury": 0} for w in wrestlers.values()}
    return [b.setup for b in book_all(fed, card, wrestlers, states)]


def matches_per_second(count: int, trials: int) -> tuple[list[float], float, int]:
    """Rates of `trials` runs of `count` matches each (as timeit does: the machine is shared,
    so the best run is the engine's speed and the median what to expect)."""
    setups = week_one_setups()
    rates = []
    rounds = rolls = 0
    for trial in range(trials):
        start = time.perf_counter()
        for i in range(count):
            result = engine.resolve(setups[i % len(setups)], SeededDice(trial * count + i))
            rounds += result.end_round
            rolls += len(result.log)
        rates.append(count / (time.perf_counter() - start))
    return sorted(rates), rounds / (count * trials), rolls // (count * trials)


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
    parser.add_argument("--matches", type=int, default=10000, help="matches per trial")
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    rates, mean_rounds, mean_rolls = matches_per_second(args.matches, args.trials)
    print(f"MatchMatch: {rates[-1]:,.0f} matches/s on one core, best of {args.trials} trials "
          f"(median {rates[len(rates) // 2]:,.0f}, worst {rates[0]:,.0f}); {args.matches:,} demo week-1 matches "
          f"per trial, 20-round limit, {mean_rounds:.1f} rounds and {mean_rolls} logged rolls per match on average")
    walls = sorted(demo_week_wall_time() for _ in range(args.trials))
    wall, startup = walls[len(walls) // 2]
    print(f"demo week run (fedtool run 1, fresh fed): {wall:.2f} s wall time, median of {args.trials} "
          f"(best {walls[0][0]:.2f} s); ~{startup:.2f} s of it is Python and import start-up")


if __name__ == "__main__":
    main()
