"""MatchMatch triangle fairness: three identical sides must win a third each.

Plays N triangle matches (default 30,000) of three copies of the same sheet with the same
strategy, each on its own seeded dice (seed = the match's number, so a run repeats), with a
grid rolled for every match. Card order is the only thing that tells the sides apart, so
each side's share of the decided matches must be within 1 point of 33.33% (issue 14: ties
for the lowest total once went to the first side in card order, 30.0 / 31.8 / 33.6%).
Exits 1 if any share is outside 33.33 +- 1 points.

    python benchmarks/bench_triangle.py [--matches N] [--processes P] [--seed S]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from fedtool.kernel.dice import SeededDice
from fedtool.kernel.yamlio import load_yaml
from fedtool.rulesets.matchmatch import engine
from fedtool.rulesets.matchmatch.grid import roll_grid
from fedtool.rulesets.matchmatch.rules import vocabulary
from fedtool.rulesets.matchmatch.sheet import read_sheet
from fedtool.rulesets.matchmatch.strategy import Action, Strategy

ROOT = Path(__file__).resolve().parent.parent
THIRD = 100 / 3
TOLERANCE = 1.0  # points of percentage
ROUNDS = 20  # III.2: "Standard matches are 20 rounds"


def triangle_setup() -> engine.MatchSetup:
    """Friendly Sam (the rulebook's I.3 sample) three times: +Technical +Martial Arts
    -High-Flying, a Normal round on Stamina every round. The grid picks are A, 1 and B2 (the
    third side picks a cell); the grid is rolled per match, so no pick is favoured."""
    path = ROOT / "rosters" / "friendly-sam.yaml"
    sheet = read_sheet(load_yaml(path, "rosters/friendly-sam.yaml"), "rosters/friendly-sam.yaml", "friendly-sam")
    normal = vocabulary().round_types["normal"]
    rounds = tuple(Action(n, normal, "stamina", "", None, f"round {n}") for n in range(1, ROUNDS + 1))
    sides = []
    for index, pick in enumerate(("A", "1", "B2")):
        strategy = Strategy(("technical", "martial_arts"), "high_flying", pick, rounds, "bench")
        side_sheet = dataclasses.replace(sheet, id=f"sam-{index + 1}", name=f"Sam {index + 1}")
        sides.append(engine.Side(side_sheet.id, side_sheet.name, side_sheet, strategy, specials=side_sheet.push_level))
    return engine.MatchSetup("triangle", tuple(sides), [["technical"] * 3] * 3, ROUNDS)


def play(seeds: range) -> tuple[list[int], int]:
    """Wins per side and draws over the matches with these seeds."""
    setup = triangle_setup()
    wins, draws = [0, 0, 0], 0
    for seed in seeds:
        dice = SeededDice(seed)
        result = engine.resolve(dataclasses.replace(setup, grid=roll_grid(dice)), dice)
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
    return wins, draws


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=30_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    args = parser.parse_args()
    step = -(-args.matches // args.processes)
    chunks = [range(start, min(start + step, args.seed + args.matches)) for start in range(args.seed, args.seed + args.matches, step)]
    began = time.perf_counter()
    with Pool(args.processes) as pool:
        parts = pool.map(play, chunks)
    elapsed = time.perf_counter() - began
    wins = [sum(p[0][i] for p in parts) for i in range(3)]
    draws = sum(p[1] for p in parts)
    decided = sum(wins)
    shares = [100 * w / decided for w in wins]
    print(f"MatchMatch triangle, three identical sides (Friendly Sam x3, {ROUNDS} rounds): {args.matches:,} matches "
          f"(seeds {args.seed}-{args.seed + args.matches - 1}) in {elapsed:.1f} s on {args.processes} processes")
    for index, (won, share) in enumerate(zip(wins, shares), start=1):
        print(f"  side {index} (card order): {won:,} wins, {share:.2f}% of the {decided:,} decided matches "
              f"({100 * won / args.matches:.2f}% of all)")
    print(f"  draws (time limit, double count-out): {draws:,} ({100 * draws / args.matches:.2f}%)")
    off = [i + 1 for i, share in enumerate(shares) if abs(share - THIRD) > TOLERANCE]
    if off:
        print(f"FAIL: side(s) {', '.join(map(str, off))} outside {THIRD:.2f} +- {TOLERANCE:g} points")
        return 1
    print(f"OK: every side within {THIRD:.2f} +- {TOLERANCE:g} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
