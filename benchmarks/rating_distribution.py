"""Star ratings over many matches: how the formula of docs/ratings.md spreads, per ruleset,
with seeded dice and the engines played directly (no rendering, no league). No title is at
stake and no grudge settled: the table is the formula on the matches themselves.

    python benchmarks/rating_distribution.py [--matches N]

MatchMatch plays the demo fed's week-1 bookings (real sheets and strategies) in turn; Face
to the Mat singles matches of every pairing of four TV grades; Mat Clash Quick Scraps and
Dual Matches with the default policies and the base deck; Mad Match best two out of three
(the fed's default format) between the demo fed's players (memories 16, 12 and the default
14) with the built-in default strategy, two and three players, and the classic matching game
between two (a solitaire round is not rated). Seeds are 0 to N-1.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from fractions import Fraction
from pathlib import Path

from fedtool.kernel.dice import SeededDice
from fedtool.week.ratings import match_rating

ROOT = Path(__file__).resolve().parent.parent
STEPS = [Fraction(q, 4) for q in range(21)]


def matchmatch(n: int) -> list[float]:
    from bench_matchmatch import week_one_setups  # the demo's week-1 matches, booked as its benchmark books them

    from fedtool.rulesets.matchmatch import engine, rating

    setups = week_one_setups()
    out = []
    for seed in range(n):
        setup = setups[seed % len(setups)]
        out.append(match_rating(rating.rating_inputs(setup, engine.resolve(setup, SeededDice(seed))), False)["stars"])
    return out


def facemat(n: int) -> list[float]:
    from fedtool.rulesets.facemat import rating
    from fedtool.rulesets.facemat.engine import Setup, resolve
    from fedtool.rulesets.facemat.sheet import Wrestler

    skills_a = {"AGILE": "star", "QUICK": "circle", "FAVORITE": "square", "SMART": "star", "STRONG": "circle"}
    skills_b = {"MEAN": "star", "CHEAT": "circle", "HEAVY": "square", "POWERFUL": "star", "OBJECT": "circle"}
    grades = ("AAA", "A", "C", "F")
    setups = [Setup("b", (Wrestler("a", "a", g1, 1, "face", skills_a, "the Finisher", (11, 33), {}),
                          Wrestler("b", "b", g2, 1, "heel", skills_b, "the Finisher", (11, 33), {})), {})
              for g1 in grades for g2 in grades]
    out = []
    for seed in range(n):
        setup = setups[seed % len(setups)]
        out.append(match_rating(rating.rating_inputs(setup, resolve(setup, SeededDice(seed)), False), False)["stars"])
    return out


def matclash(n: int, dual: bool) -> list[float]:
    from fedtool.rulesets.matclash import rating
    from fedtool.rulesets.matclash.cards import build_deck
    from fedtool.rulesets.matclash.engine import dual_match, quick_scrap
    from fedtool.rulesets.matclash.policy import Policy

    deck, policies = build_deck(()), [Policy(), Policy()]
    out = []
    for seed in range(n):
        if dual:
            result = dual_match(["A", "B"], policies, deck, SeededDice(seed))
            inputs = rating.rating_inputs(result.scraps, result.team)
        else:
            inputs = rating.rating_inputs([quick_scrap(["A", "B"], policies, deck, SeededDice(seed))], None)
        out.append(match_rating(inputs, False)["stars"])
    return out


def madmatch(n: int, players: int, variation: str = "mad_match") -> list[float]:
    from fedtool.rulesets.base import Booking
    from fedtool.rulesets.madmatch import MadMatch
    from fedtool.rulesets.madmatch.deck import load_deck
    from fedtool.rulesets.madmatch.engine import Rules, Side, play_match
    from fedtool.rulesets.madmatch.strategy import Strategy

    ruleset, deck = MadMatch(), load_deck()
    sides = [Side(name, memory, Strategy()) for name, memory in (("Zelda", 16), ("Zeke", 12), ("Zora", 14))][:players]
    booking = Booking(None, {"deck": deck}, [])
    out = []
    for seed in range(n):
        result = play_match(deck, sides, SeededDice(seed), Rules(), variation, "best_of_three")
        out.append(match_rating(ruleset.rating_inputs(booking, result), False)["stars"])
    return out


def table(columns: dict[str, list[float]]) -> str:
    """A Markdown table: each rating's share of each ruleset's matches, then mean and median."""
    counts = {name: Counter(Fraction(s).limit_denominator(4) for s in stars) for name, stars in columns.items()}
    used = [s for s in STEPS if any(c[s] for c in counts.values())]
    lines = ["| stars | " + " | ".join(columns) + " |", "|---:" + "|---:" * len(columns) + "|"]
    for step in used:
        cells = [f"{counts[name][step] / len(stars):.1%}" if counts[name][step] else "" for name, stars in columns.items()]
        lines.append(f"| {float(step):g} | " + " | ".join(cells) + " |")
    lines.append("| mean | " + " | ".join(f"{statistics.mean(s):.2f}" for s in columns.values()) + " |")
    lines.append("| median | " + " | ".join(f"{statistics.median(s):g}" for s in columns.values()) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=10000, help="matches per ruleset")
    n = parser.parse_args().matches
    columns = {
        f"MatchMatch ({n:,})": matchmatch(n),
        f"Face to the Mat ({n:,})": facemat(n),
        f"Mat Clash Quick Scrap ({n:,})": matclash(n, dual=False),
        f"Mat Clash Dual Match ({n:,})": matclash(n, dual=True),
        f"Mad Match, two players ({n:,})": madmatch(n, 2),
        f"Mad Match, three players ({n:,})": madmatch(n, 3),
        f"classic matching game ({n:,})": madmatch(n, 2, "classic"),
    }
    print(table(columns))


if __name__ == "__main__":
    main()
