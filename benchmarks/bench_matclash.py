"""Mat Clash speed: Quick Scraps played per second on one core (default policies, no
rendering, the shuffle logged), best and median of several trials.

    python benchmarks/bench_matclash.py [--scraps N] [--trials T]
"""

from __future__ import annotations

import argparse
import time

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.matclash.cards import build_deck
from fedtool.rulesets.matclash.engine import quick_scrap
from fedtool.rulesets.matclash.policy import Policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scraps", type=int, default=5000)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    for label, sets in (("base deck", ()), ("all specialty sets", ("wave1", "wave2", "wave3", "short_print"))):
        deck = build_deck(sets)
        policies = [Policy(), Policy()]
        rates = []
        for trial in range(args.trials):
            start = time.perf_counter()
            for seed in range(trial * args.scraps, (trial + 1) * args.scraps):
                quick_scrap(["A", "B"], policies, deck, SeededDice(seed))
            rates.append(args.scraps / (time.perf_counter() - start))
        rates.sort()
        print(f"Mat Clash, {label} ({len(deck)} cards): {rates[-1]:,.0f} Quick Scraps/s on one core, best of {args.trials} "
              f"(median {rates[len(rates) // 2]:,.0f}, worst {rates[0]:,.0f})")


if __name__ == "__main__":
    main()
