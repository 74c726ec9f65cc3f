"""How the packaged Mat Clash deck plays: simulate Quick Scraps with the default policies
and print the Markdown tables kept in docs/mat-clash-deck.md.

    python benchmarks/matclash_deck_report.py [--scraps N]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.matclash.cards import build_deck
from fedtool.rulesets.matclash.engine import quick_scrap
from fedtool.rulesets.matclash.policy import Policy


def report(sets: tuple[str, ...], scraps: int) -> str:
    deck = build_deck(sets)
    policies = [Policy(), Policy()]
    finishes: Counter = Counter()
    transitions, margins, turns = [], [], []
    for seed in range(scraps):
        r = quick_scrap(["A", "B"], policies, deck, SeededDice(seed))
        finishes[r.method if r.method != "fall" else f"fall ({r.finish.replace('_', ' ')})"] += 1
        if r.finish == "overtime":
            finishes["decision"] -= 1
            finishes["decision in overtime"] += 1
        transitions.append(r.transitions)
        turns.append(r.turns)
        if r.method != "fall":
            margins.append(abs(r.score[0] - r.score[1]))
    q = statistics.quantiles(transitions, n=10)
    lines = [f"**{'base deck' if not sets else 'base deck + ' + ', '.join(sets)}** ({len(deck)} cards, {scraps:,} scraps)", "",
             "| measure | value |", "|---|---|",
             f"| transitions per scrap | mean {statistics.mean(transitions):.1f}, median {statistics.median(transitions):.0f}, 10th-90th percentile {q[0]:.0f}-{q[-1]:.0f} |",
             f"| turns per scrap | mean {statistics.mean(turns):.1f} |",
             f"| margin of scraps decided on points | mean {statistics.mean(margins):.1f}, median {statistics.median(margins):.0f} |", "",
             "| finish | share |", "|---|---|"]
    for finish, count in sorted(finishes.items(), key=lambda kv: -kv[1]):
        if count:
            lines.append(f"| {finish.replace('_', ' ')} | {count / scraps:.1%} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scraps", type=int, default=20000)
    n = parser.parse_args().scraps
    print(report((), n))
    print(report(("wave1", "wave2", "wave3", "short_print"), n))


if __name__ == "__main__":
    main()
