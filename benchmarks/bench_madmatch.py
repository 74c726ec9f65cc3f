"""Mad Match speed: games played per second on one core, best and median of several trials,
side by side with a floor: the two shuffles every game makes (the icon battle's and the
grid's) on the same dice, with nothing played. Every run is interleaved with the floor in the
same process (each trial measures every run once) and printed with its ratio to the floor.

The runs: the record-free path (odds: no turn records, the dice's purposes short; every roll
still logged) for two, three and four players and the classic matching game; the full path
(the weekly run: turn records for the writeup, purposes in full) for two players; a whole
match through the ruleset's `trial` hook (best two out of three); a solitaire round of three.
Issue 17 aims for 5,000 two-player games per second.

    python benchmarks/bench_madmatch.py [--games N] [--trials T]
"""

from __future__ import annotations

import argparse
import os
import time

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.base import Booking
from fedtool.rulesets.madmatch import MadMatch
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.engine import Play, Rules, Side, shuffle
from fedtool.rulesets.madmatch.solitaire import SolitaireRules, play_round
from fedtool.rulesets.madmatch.strategy import Strategy

AIM = 5000  # two-player games a second (issue 17)


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

    two, three, four = sides(2), sides(3), sides(4)
    ruleset = MadMatch()
    setup = {"variation": "mad_match", "format": "best_of_three", "target": 250, "deck": deck, "sides": two, "ids": ["a", "b"],
             "names": ["A", "B"], "rules": rules, "max_games": 9, "solitaire": SolitaireRules()}
    setup = ruleset.trial_setup(Booking(None, setup, []))
    floor = "floor: two shuffles of the deck, nothing played"
    runs = {
        floor: lambda dice: (shuffle(cards, dice, "battle"), shuffle(cards, dice, "grid")),
        "Mad Match, two players, record-free (default strategies, memory 14)": lambda dice: Play(deck, two, dice, rules).run(),
        "Mad Match, two players, full path (turn records, purposes in full)": lambda dice: Play(deck, two, dice, rules, record=True).run(),
        "Mad Match, three players, record-free": lambda dice: Play(deck, three, dice, rules).run(),
        "Mad Match, four players, record-free": lambda dice: Play(deck, four, dice, rules).run(),
        "the classic matching game, two players, record-free": lambda dice: Play(deck, two, dice, rules, "classic").run(),
        "a best-of-three match through MadMatch.trial (matches/s)": lambda dice: ruleset.trial(setup, dice),
        "a solitaire round of three, record-free (rounds/s)": lambda dice: play_round(deck, ["A", "B", "C"], [0, 1, 2], dice, SolitaireRules(),
                                                                                     record=False),
        "a solitaire round of three, full path (rounds/s)": lambda dice: play_round(deck, ["A", "B", "C"], [0, 1, 2], dice, SolitaireRules()),
    }
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for trial in range(args.trials):
        for name, one in runs.items():  # interleaved: each trial measures every run once
            rates[name].append(rate(one, args.games, trial))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"one core, {args.games:,} games x {args.trials} trials, CPU time of this process; load average {load}")
    best_floor = max(rates[floor])
    median_floor = sorted(rates[floor])[len(rates[floor]) // 2]
    for name in runs:
        found = sorted(rates[name])
        best, median = found[-1], found[len(found) // 2]
        ratio = "" if name == floor else f"; {best_floor / best:.1f}x the floor's time (median {median_floor / median:.1f}x)"
        print(f"{name}: {best:,.0f}/s best of {args.trials} (median {median:,.0f}, worst {found[0]:,.0f}){ratio}")
    print(f"aim: {AIM:,} two-player games/s ({best_floor / AIM:.1f}x the floor's time)")


if __name__ == "__main__":
    main()
