"""Face to the Mat speed on the odds path (issue 18): matches a second on one core through the
ruleset's record-free `trial` hook, for every match type the demo fed books (singles with
the interview segment, grudge, tag, both three-for-alls and the three battle royale
methods), side by side with two floors measured in the same run, trials interleaved:

- the dice floor: a fresh `SeededDice` making the very calls the match made (the same
  count, sides and purpose, every roll logged), recorded before the timing: what drawing
  the match's dice costs through the kernel's dice, with nothing played;
- the raw floor: the match's d6 count drawn from a closure over a pre-made SHAKE buffer
  (issue 18's floor: what the dice alone cost in CPython).

Times are this process's CPU time (`time.process_time`), so other work on a loaded machine
slows the figures less; each line prints the best and the median and the ratios to the
floors (median over median), and a second line the time a roll (played, and the kernel
dice's alone) and the share of the target's 33 us a match that the kernel dice alone take: a
battle royale's Match-Up rolls about three times what a singles match does, so its dice alone
take a large share of the target's time (where compiled the engine calls the dice as C and the
floor calls them from Python, so the floor overstates what the engine's own rolls cost). Target (issue 18): 30,000 matches/s a core. A line says which
of the modules a trial runs are compiled (`dice`, `engine`, `royale`: C extensions beside
the .py, built by setup.py where Cython is at hand); with none, the figures are pure Python's.
`figures()` returns the same figures as dicts (what, best, median, unit, floor_best,
floor_median, ratio, target, met).

    python benchmarks/bench_facemat.py [--matches N] [--trials T] [--only KEY]

Run it with another checkout first on PYTHONPATH to measure that code (the script reads
only hooks every version has: `trial_setup`, `trial`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from pathlib import Path

from fedtool.fed.card import load_card
from fedtool.fed.settings import Fed
from fedtool.kernel.dice import SeededDice
from fedtool.rulesets import get_ruleset
from fedtool.week.booking import book_all, book_match, card_context

ROOT = Path(__file__).resolve().parent.parent
CASES = {"singles (3/m3, interview)": "3/m3", "grudge (4/m1)": "4/m1", "tag (5/m1)": "5/m1",
         "two-on-one (t1)": "t1", "every man (t2)": "t2", "royale match-up (r1)": "r1",
         "royale quick-play (r2)": "r2", "royale four-play (r3)": "r3"}


def bookings(fed: Fed) -> dict:
    found = {}
    for label, key in CASES.items():
        if "/" in key:
            week, match = key.split("/")
            found[label] = book_match(fed, int(week), match)
    card = load_card(fed, ROOT / "strategies" / "example-fttm-multi")
    context = card_context(fed, card, None)
    by_id = {b.match.id: b for b in book_all(fed, card, context.wrestlers, context.states)}
    for label, key in CASES.items():
        if "/" not in key:
            found[label] = by_id[key]
    return found


class Recorder(SeededDice):
    """Seeded dice that keep each call's (count, sides, purpose), to replay as the floor."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        inner, self.calls = self.roll, []

        def roll(count: int, sides: int, purpose: str) -> bytes:
            self.calls.append((count, sides, purpose))
            return inner(count, sides, purpose)

        self.roll = roll  # type: ignore[method-assign]


def raw_d6(count: int):
    """A closure over a pre-made SHAKE buffer mapped onto d6 faces: the cheapest draw."""
    usable = 252
    table = bytes((b % 6) + 1 if b < usable else 0 for b in range(256))
    buffer = hashlib.shake_256(b"floor").digest(count * 2 + 64).translate(table, bytes(range(usable, 256)))
    at = 0

    def roll(n: int) -> bytes:
        nonlocal at
        faces = buffer[at:at + n]
        at += n
        return faces

    return roll


TARGET = 30_000  # issue 18: Face to the Mat at least 30,000 matches a second a core
COMPILED = ("fedtool.kernel.dice", "fedtool.rulesets.facemat.engine", "fedtool.rulesets.facemat.royale")


def compiled() -> list[str]:
    """Which of the modules a trial runs are compiled (a C extension beside the .py), by name."""
    import importlib

    return [name.rsplit(".", 1)[1] for name in COMPILED if not importlib.import_module(name).__file__.endswith(".py")]


def figures(matches: int = 2000, trials: int = 7, only: str | None = None, show: bool = False) -> list[dict]:
    """Each case's matches a second (best and median of `trials`) beside its dice floor (the
    kernel's dice making the match's very calls) and its raw floor; printed as it goes with `show`."""
    fed = Fed.load(ROOT)
    ruleset = get_ruleset("facemat")
    found = bookings(fed)
    built = compiled()
    if show:
        print(f"Face to the Mat on the odds path (the `trial` hook), {matches:,} matches a trial, best and median of {trials}, "
              f"one core, CPU time; load average {os.getloadavg()[0]:.1f}")
        print(f"compiled: {', '.join(built) if built else 'nothing (pure Python)'}")
    out = []
    for label, booking in found.items():
        if only and not label.startswith(only):
            continue
        setup = ruleset.trial_setup(booking)
        calls = []
        for seed in range(matches):
            dice = Recorder(seed)
            ruleset.trial(setup, dice)
            calls.append(dice.calls)
        per = [[count for count, _, _ in made] for made in calls]  # the raw floor draws as many d6 a call
        engine: list[float] = []
        floor: list[float] = []
        raw: list[float] = []
        for trial in range(trials):  # interleaved: each trial measures all three once
            start = time.process_time()
            for seed in range(matches):
                ruleset.trial(setup, SeededDice(seed))
            engine.append(matches / (time.process_time() - start))
            start = time.process_time()
            for seed, made in enumerate(calls):
                roll = SeededDice(seed).roll
                for count, sides, purpose in made:
                    roll(count, sides, purpose)
            floor.append(matches / (time.process_time() - start))
            roll6 = raw_d6(sum(map(sum, per)))
            start = time.process_time()
            for counts in per:
                for n in counts:
                    roll6(n)
            raw.append(matches / (time.process_time() - start))
        best, median = max(engine), statistics.median(engine)
        rolls = sum(map(len, calls)) / len(calls)
        # per roll (issue 18: a royale rolls three times what a singles match does): the engine's
        # time a roll, the kernel dice's alone, and the share of the target's time a match
        # (1/30,000 s) that the kernel dice alone take, best over best
        per_roll, floor_roll = 1e6 / best / rolls, 1e6 / max(floor) / rolls
        floor_share = (1e6 / max(floor)) / (1e6 / TARGET)
        if show:
            print(f"{label:<28} best {best:8,.0f}/s  median {median:8,.0f}/s | dice floor {max(floor):8,.0f}/s ({statistics.median(floor) / median:4.1f}x) "
                  f"| raw floor {max(raw):9,.0f}/s ({statistics.median(raw) / median:5.1f}x) | {rolls:5.1f} rolls, "
                  f"{sum(map(sum, per)) / len(per):5.1f} dice a match | target 30,000/s: {'met' if best >= TARGET else 'NOT met'}")
            print(f"{'':<28} a roll: {per_roll:5.3f} us played, {floor_roll:5.3f} us the dice floor; the dice floor alone takes "
                  f"{floor_share:4.0%} of the target's {1e6 / TARGET:.1f} us a match")
        out.append({"what": f"Face to the Mat {label} matches/s ({'compiled: ' + ', '.join(built) if built else 'pure Python'})",
                    "best": best, "median": median, "unit": "matches/s", "floor_best": max(floor), "floor_median": statistics.median(floor),
                    "ratio": statistics.median(floor) / median, "target": TARGET, "met": best >= TARGET,
                    "raw_floor_best": max(raw), "raw_floor_median": statistics.median(raw), "rolls_a_match": rolls,
                    "us_a_roll": per_roll, "floor_us_a_roll": floor_roll, "floor_share_of_target": floor_share})
    if show and len(out) > 1 and out[0]["what"].startswith("Face to the Mat singles"):
        first = out[0]["us_a_roll"]
        print("a roll played, over singles': " + ", ".join(f"{o['what'].split(' (')[0].removeprefix('Face to the Mat ')} {o['us_a_roll'] / first:.2f}x"
                                                          for o in out[1:]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2000, help="matches a trial")
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--only", help="a case label's start (e.g. singles)")
    args = parser.parse_args()
    figures(args.matches, args.trials, args.only, show=True)


if __name__ == "__main__":
    main()
