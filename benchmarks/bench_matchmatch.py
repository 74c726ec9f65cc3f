"""MatchMatch speed, side by side in one process: the odds path against the dice floor and
the full path, then the wall time of the whole demo week run.

    python benchmarks/bench_matchmatch.py [--matches N] [--trials N] [--skip-week]

For the demo card's week-1 m1 (20 rounds), each figure is matches a second of this
process's CPU time (not wall time: other work on a shared machine would swamp it), best and
median of `--trials` runs, interleaved:

- the floor: what drawing a match's dice costs in CPython, the mean number of d6 the match
  rolls taken three at a time from a closure over a SHAKE-256 buffer made for the match, as
  `SeededDice` makes it;
- the full path: `engine.resolve`, every round recorded and every roll logged (the weekly run);
- the odds path: `MatchMatch.trial` on the setup `trial_setup` built once, as `fedtool odds`
  plays it (`week.odds._play`: a fresh `SeededDice` per trial). Target (issue 18): at least
  45,000 a second on one core, within 3x of the floor.

Then the older figure: every week-1 match in turn on the full path.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fedtool.fed.card import load_card
from fedtool.fed.settings import Fed
from fedtool.kernel.dice import SeededDice, _translation
from fedtool.kernel.errors import Collector
from fedtool.league.sheets import load_wrestlers
from fedtool.rulesets.matchmatch import engine
from fedtool.week.booking import book_all, book_match
from fedtool.week.odds import _play

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # figures.py


def week_one_setups() -> list[engine.MatchSetup]:
    """The demo fed's week-1 matches: real sheets, real 20-round strategies."""
    fed = Fed.load(ROOT)
    card = load_card(fed, fed.week_dir(1), 1)
    problems = Collector()
    wrestlers = load_wrestlers(fed, card, problems)
    problems.raise_if_any()
    states = {w.id: {"push_level": w.sheet.push_level, "push_points": 0, "injury": 0} for w in wrestlers.values()}
    return [b.setup for b in book_all(fed, card, wrestlers, states)]


def floor_rate(count: int, d6_per_match: int) -> float:
    """The dice alone: per match one SHAKE-256 block mapped onto d6 faces, then the match's
    d6 sliced off three at a time by a closure (the dice's hot path, with nothing logged)."""
    table, delete = _translation(6)
    calls = range(d6_per_match // 3)
    start = time.process_time()
    for seed in range(count):
        key = seed.to_bytes(16, "big", signed=True)
        buffer = hashlib.shake_256(b"%b/d6/%d" % (key, 0)).digest(512).translate(table, delete)
        at = 0

        def take(n: int) -> bytes:
            nonlocal at
            faces = buffer[at:at + n]
            at += n
            return faces

        for _ in calls:
            take(3)
    return count / (time.process_time() - start)


def full_rate(setup: engine.MatchSetup, count: int, first: int) -> float:
    start = time.process_time()
    for seed in range(first, first + count):
        engine.resolve(setup, SeededDice(seed))
    return count / (time.process_time() - start)


def odds_rate(booking, count: int, first: int) -> float:
    start = time.process_time()
    _play("matchmatch", booking, first, count)
    return count / (time.process_time() - start)


def d6_rolled(setup: engine.MatchSetup, count: int) -> int:
    """The mean number of d6 a match of `setup` rolls (from the full path's logs)."""
    total = 0
    for seed in range(count):
        total += sum(len(faces) for _, _, faces in engine.resolve(setup, SeededDice(seed)).log)
    return round(total / count)


def week_rates(count: int, trials: int) -> tuple[list[float], float, int]:
    """Every week-1 match in turn on the full path."""
    setups = week_one_setups()
    rates = []
    rounds = rolls = 0
    for trial in range(trials):
        start = time.process_time()
        for i in range(count):
            result = engine.resolve(setups[i % len(setups)], SeededDice(trial * count + i))
            rounds += result.end_round
            rolls += len(result.log)
        rates.append(count / (time.process_time() - start))
    return sorted(rates), rounds / (count * trials), rolls // (count * trials)


def demo_week_wall_time() -> tuple[float, float]:
    """`fedtool run 1` on a fresh copy of the demo fed, timed from the shell's view (wall time)."""
    with tempfile.TemporaryDirectory() as tmp:
        fed = Path(tmp) / "fed"
        for folder in ("rosters", "strategies", "templates"):
            shutil.copytree(ROOT / folder, fed / folder)
        command = [sys.executable, "-m", "fedtool"]
        start = time.perf_counter()
        subprocess.run([*command, "--help"], check=True, capture_output=True, cwd=ROOT)
        startup = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([*command, "run", "1", "--fed", str(fed)], check=True, capture_output=True, cwd=ROOT)
        return time.perf_counter() - start, startup


def show(label: str, rates: list[float], floor: list[float] | None, extra: str = "") -> None:
    best, median = max(rates), statistics.median(rates)
    against = f"   floor/this {max(floor) / best:5.2f}x best, {statistics.median(floor) / median:5.2f}x median" if floor else ""
    print(f"{label:<40} best {best:10,.0f}/s  median {median:10,.0f}/s{against}{extra}")


def measure(matches: int, trials: int) -> dict:
    """The floor, the full path and the odds path on week 1's m1, `trials` interleaved runs."""
    booking = book_match(Fed.load(ROOT), 1, "m1")
    setup = booking.setup
    d6 = d6_rolled(setup, 2000)
    floors, fulls, odds = [], [], []
    _play("matchmatch", booking, 0, 500)  # warm
    for trial in range(trials):
        first = trial * matches
        floors.append(floor_rate(matches, d6))
        fulls.append(full_rate(setup, matches, first))
        odds.append(odds_rate(booking, matches, first))
    return {"setup": setup, "d6": d6, "floors": floors, "fulls": fulls, "odds": odds}


def figures(matches: int = 10000, trials: int = 5, measured: dict | None = None) -> list[dict]:
    """Issue 18's MatchMatch engine target: the odds path's matches a second on one core, with the dice floor."""
    from figures import figure

    m = measured or measure(matches, trials)
    return [figure("MatchMatch odds path (1/m1), matches/s on one core", "/s", m["odds"], m["floors"], "the match's dice alone",
                   ">= 45,000/s, within 3x the floor", lambda rate: rate >= 45_000 and max(m["floors"]) / rate <= 3),
            figure("MatchMatch full path (1/m1: records, log), matches/s", "/s", m["fulls"], m["floors"], "the match's dice alone")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10000, help="matches per trial")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--skip-week", action="store_true", help="leave out the demo week's wall time")
    args = parser.parse_args()
    m = measure(args.matches, args.trials)
    setup, d6, floors, fulls, trials = m["setup"], m["d6"], m["floors"], m["fulls"], m["odds"]
    print(f"MatchMatch, demo week 1 m1 ({setup.rounds} rounds, {d6} d6 a match on average), {args.matches:,} matches x {args.trials} "
          f"interleaved trials on one core (python {sys.version.split()[0]})")
    show("floor: the match's dice alone", floors, None)
    show("full path: resolve, records and log", fulls, floors)
    target = max(trials) >= 45_000 and max(floors) / max(trials) <= 3
    show("odds path: trial, setup built once", trials, floors,
         f"   {max(trials) / max(fulls):4.2f}x the full path; target >= 45,000/s and within 3x of the floor: {'met' if target else 'NOT met'}")
    rates, mean_rounds, mean_rolls = week_rates(args.matches, args.trials)
    print(f"\nevery week-1 match in turn, full path: {rates[-1]:,.0f} matches/s on one core, best of {args.trials} trials "
          f"(median {rates[len(rates) // 2]:,.0f}, worst {rates[0]:,.0f}); {mean_rounds:.1f} rounds and {mean_rolls} logged rolls per match on average")
    if args.skip_week:
        return
    walls = sorted(demo_week_wall_time() for _ in range(args.trials))
    wall, startup = walls[len(walls) // 2]
    print(f"demo week run (fedtool run 1, fresh fed): {wall:.2f} s wall time, median of {args.trials} "
          f"(best {walls[0][0]:.2f} s); ~{startup:.2f} s of it is Python and import start-up")


if __name__ == "__main__":
    main()
