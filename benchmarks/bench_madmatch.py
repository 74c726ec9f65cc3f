"""Mad Match speed: games played per second on one core, best and median of several trials,
side by side with a floor: the two shuffles every game makes (the icon battle's and the
grid's) on the same dice, with nothing played. Every run is interleaved with the floor in the
same process (each trial measures every run once) and printed with its ratio to the floor.

The runs: the record-free path (odds: no turn records, the dice's purposes short; every roll
still logged) for two, three and four players and the classic matching game; the full path
(the weekly run: turn records for the writeup, purposes in full) for two players; a whole
match through the ruleset's `trial` hook (best two out of three); a solitaire round of three.
Issue 17 aims for 5,000 two-player games per second. The first lines say which modules run
compiled (setup.py's COMPILED); FEDTOOL_PURE_PYTHON=1 measures the pure Python.

    python benchmarks/bench_madmatch.py [--games N] [--trials T]
"""

from __future__ import annotations

import argparse
import os
import time

from fedtool import compiled_modules
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


RECORD_FREE = "Mad Match, two players, record-free (default strategies, memory 14)"
FLOOR = "floor: two shuffles of the deck, nothing played"


def measure(games: int, trials: int) -> dict[str, list[float]]:
    """Every run's rates, one a trial, interleaved with the floor's."""
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
    runs = {
        FLOOR: lambda dice: (shuffle(cards, dice, "battle"), shuffle(cards, dice, "grid")),
        RECORD_FREE: lambda dice: Play(deck, two, dice, rules).run(),
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
    for trial in range(trials):
        for name, one in runs.items():  # interleaved: each trial measures every run once
            rates[name].append(rate(one, games, trial))
    return rates


def figures(games: int = 2000, trials: int = 5, rates: dict[str, list[float]] | None = None) -> list[dict]:
    """Each run's best and median (per second, CPU time of one core) beside the floor's, the
    ratio of times (floor / run, best), and the aim where there is one."""
    rates = rates or measure(games, trials)
    floor = sorted(rates[FLOOR])
    floor_best, floor_median = floor[-1], floor[len(floor) // 2]
    out = []
    for name, found in rates.items():
        if name == FLOOR:
            continue
        found = sorted(found)
        best, median = found[-1], found[len(found) // 2]
        target = AIM if name == RECORD_FREE else None
        out.append({"what": f"Mad Match: {name}", "best": best, "median": median, "unit": "games/s", "floor_best": floor_best,
                    "floor_median": floor_median, "ratio": floor_best / best, "target": target,
                    "met": None if target is None else best >= target})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    rates = measure(args.games, args.trials)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"one core, {args.games:,} games x {args.trials} trials, CPU time of this process; load average {load}")
    print(f"compiled: {', '.join(compiled_modules()) or 'nothing (pure Python)'} (FEDTOOL_PURE_PYTHON=1 runs pure Python)")
    best_floor = max(rates[FLOOR])
    median_floor = sorted(rates[FLOOR])[len(rates[FLOOR]) // 2]
    for name in rates:
        found = sorted(rates[name])
        best, median = found[-1], found[len(found) // 2]
        ratio = "" if name == FLOOR else f"; {best_floor / best:.1f}x the floor's time (median {median_floor / median:.1f}x)"
        print(f"{name}: {best:,.0f}/s best of {args.trials} (median {median:,.0f}, worst {found[0]:,.0f}){ratio}")
    print(f"aim: {AIM:,} two-player games/s ({best_floor / AIM:.1f}x the floor's time)")
    for figure in figures(rates=rates):
        if figure["target"]:
            print(f"aim {'met' if figure['met'] else 'not met'}: {figure['best']:,.0f}/s best, {figure['median']:,.0f} median, "
                  f"aim {figure['target']:,}")

if __name__ == "__main__":
    main()
