"""Face to the Mat balance and speed: how often each TV grade beats each other grade, FACs
per match, and the share of pins, finishers and other finishes, by simulation with the
packaged data; and singles matches per second (no rendering).

    python benchmarks/facemat_balance.py [--matches N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.facemat.engine import Setup, resolve
from fedtool.rulesets.facemat.sheet import Wrestler

SKILLS_A = {"AGILE": "star", "QUICK": "circle", "FAVORITE": "square", "SMART": "star", "STRONG": "circle"}
SKILLS_B = {"MEAN": "star", "CHEAT": "circle", "HEAVY": "square", "POWERFUL": "star", "OBJECT": "circle"}


def wrestler(wid: str, grade: str, skills: dict) -> Wrestler:
    return Wrestler(wid, wid, grade, 1, "face", skills, "the Finisher", (11, 33), {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=400, help="matches per pairing")
    n = parser.parse_args().matches
    grades = ("AAA", "A", "C", "F")
    facs, finishes = [], Counter()
    print("| favored \\\\ underdog | " + " | ".join(grades) + " |")
    print("|---" * (len(grades) + 1) + "|")
    start = time.perf_counter()
    played = 0
    for g1 in grades:
        row = []
        for g2 in grades:
            setup = Setup("b", (wrestler("a", g1, SKILLS_A), wrestler("b", g2, SKILLS_B)), {})
            wins = 0
            for seed in range(n):
                r = resolve(setup, SeededDice(seed))
                played += 1
                wins += r.winner == 0
                facs.append(r.facs)
                finishes[r.method] += 1
            row.append(f"{wins / n:.0%}")
        print(f"| {g1} | " + " | ".join(row) + " |")
    elapsed = time.perf_counter() - start
    q = statistics.quantiles(facs, n=10)
    print(f"\nFACs per match: mean {statistics.mean(facs):.1f}, median {statistics.median(facs):.0f}, 10th-90th percentile {q[0]:.0f}-{q[-1]:.0f}")
    print("finishes: " + ", ".join(f"{k} {v / played:.1%}" for k, v in finishes.most_common()))
    print(f"balance run: {played / elapsed:,.0f} matches/s, table bookkeeping included")
    speed()


def speed(trials: int = 7, per_trial: int = 3200) -> None:
    """Singles matches per second on one core, no rendering: every pairing of the four grades
    in turn, the data already loaded; best and median of several trials (noise only slows)."""
    grades = ("AAA", "A", "C", "F")
    setups = [Setup("b", (wrestler("a", g1, SKILLS_A), wrestler("b", g2, SKILLS_B)), {}) for g1 in grades for g2 in grades]
    rates = []
    for trial in range(trials):
        start = time.perf_counter()
        for k in range(per_trial):
            resolve(setups[k % len(setups)], SeededDice(trial * per_trial + k))
        rates.append(per_trial / (time.perf_counter() - start))
    print(f"speed: {max(rates):,.0f} singles matches/s on one core, best of {trials} trials of {per_trial:,} "
          f"(median {statistics.median(rates):,.0f}, worst {min(rates):,.0f}); no rendering, every roll logged")


if __name__ == "__main__":
    main()
