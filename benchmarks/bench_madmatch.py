"""Mad Match speed: two-player games played per second on one core (no rendering, every roll
logged), best and median of several trials, side by side with a floor: the two shuffles every
game makes (the icon battle's and the grid's) on the same dice, with nothing played. Also the
classic matching game, and three and four players.

    python benchmarks/bench_madmatch.py [--games N] [--trials T]
"""

from __future__ import annotations

import argparse
import time

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.engine import Play, Rules, Side, shuffle
from fedtool.rulesets.madmatch.strategy import Strategy


def rate(one, games: int, trial: int) -> float:
    start = time.process_time()  # this process's CPU time: other work on the machine does not count
    for seed in range(trial * games, (trial + 1) * games):
        one(SeededDice(seed))
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    deck = load_deck()
    rules = Rules()
    cards = list(range(len(deck.cards())))

    def sides(n: int) -> list[Side]:
        return [Side(f"P{p}", 14, Strategy()) for p in range(n)]

    runs = {
        "floor: two shuffles of the deck, nothing played": lambda dice: (shuffle(cards, dice, "battle"), shuffle(cards, dice, "grid")),
        "Mad Match, two players (default strategies, memory 14)": lambda dice: Play(deck, sides(2), dice, rules).run(),
        "Mad Match, three players": lambda dice: Play(deck, sides(3), dice, rules).run(),
        "Mad Match, four players": lambda dice: Play(deck, sides(4), dice, rules).run(),
        "the classic matching game, two players": lambda dice: Play(deck, sides(2), dice, rules, "classic").run(),
    }
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for trial in range(args.trials):
        for name, one in runs.items():  # interleaved: each trial measures every run once
            rates[name].append(rate(one, args.games, trial))
    for name in runs:
        found = sorted(rates[name])
        print(f"{name}: {found[-1]:,.0f} games/s on one core, best of {args.trials} (median {found[len(found) // 2]:,.0f}, worst {found[0]:,.0f})")


if __name__ == "__main__":
    main()
