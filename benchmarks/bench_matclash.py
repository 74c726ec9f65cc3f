"""Mat Clash speed: Quick Scraps and Dual Matches played per second on one core, best and
median of several trials, side by side with the floor, in one process (trials interleaved,
so load on the machine falls on every figure alike):

- the floor: what a Quick Scrap cannot do without, its deck shuffled on the same dice
  (`SeededDice`, one d55 ... d2 roll, the Fisher-Yates swaps), and a bare `random.shuffle`
  of the deck for reference;
- the odds path (`record=False`, what `fedtool odds` plays through `MatClash.trial`) and the
  full path (`record=True`, the events a writeup is told from), for the default policies
  and for the demo's plan-language strategies (week 3: Tommy Reyes against Gus Halvorsen);
- the Dual Match on the odds path (five or six scraps, each shuffled).

With --before REV the engine and policy of that git revision are measured too, and every
scrap both play is checked to be the same, roll for roll (winner, method, finish, score,
turns, the dice log and, on the full path, every event):

    python benchmarks/bench_matclash.py [--scraps N] [--trials T] [--before REV]

Targets (issue 18): 20,000 Quick Scraps/s per core on the odds path; 100,000 in under 5 s. The
week-3 plans on all the specialty sets are `fedtool odds --match 3/m1` (the demo's Quick Scrap:
Tommy Reyes against Gus Halvorsen, the fed's deck): 100,000 of them in 5 s on two cores needs
about 11,000/s per core, printed against that line too.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import types
from pathlib import Path

from fedtool.kernel.dice import SeededDice
from fedtool.kernel.yamlio import load_yaml
from fedtool.rulesets.matclash import engine, policy
from fedtool.rulesets.matclash.cards import build_deck

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "fedtool.rulesets.matclash"
TARGET = 20_000
DEMO_TARGET = 11_000  # `fedtool odds --match 3/m1 -n 100000` in 5 s on two cores


def modules_at(rev: str) -> tuple[types.ModuleType, types.ModuleType]:
    """The engine and policy modules as they were at `rev` (the cards module is today's; at a
    revision where Play lived in the engine, the engine's own Play is used there)."""
    loaded = []
    for name in ("engine", "policy"):
        source = subprocess.run(["git", "show", f"{rev}:fedtool/rulesets/matclash/{name}.py"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        module = types.ModuleType(f"{PACKAGE}._before_{name}")
        module.__package__ = PACKAGE
        sys.modules[module.__name__] = module
        exec(compile(source, f"{rev}:{name}.py", "exec"), module.__dict__)
        loaded.append(module)
    return loaded[0], loaded[1]


def floor(deck, seeds: range) -> None:
    """The shuffle a Quick Scrap makes, on the same dice: the floor."""
    n = len(deck)
    sizes, places, purpose = list(range(n, 1, -1)), range(n - 1, 0, -1), f"shuffle: one die each, d{n} down to d2"
    for seed in seeds:
        cards = list(deck)
        faces = SeededDice(seed).roll_each(sizes, purpose)
        for i, face in zip(places, faces):
            j = face - 1
            cards[i], cards[j] = cards[j], cards[i]


def bare_shuffle(deck, seeds: range) -> None:
    """A bare `random.shuffle` of the deck (the reference the issue names)."""
    rng = random.Random(0)
    for _ in seeds:
        rng.shuffle(list(deck))


def timed(work, seeds: range) -> float:
    start = time.process_time()  # this process's CPU time: other work on the machine does not count
    work(seeds)
    return len(seeds) / (time.process_time() - start)


def fingerprint(result) -> tuple:
    return (result.winner, result.method, result.finish, tuple(result.score), result.turns, result.transitions, result.first,
            [(e.turn, e.wrestler, e.kind, e.card, e.points, e.text, tuple(e.score), tuple(e.positions)) for e in result.events])


def same_play(old_engine, old_policy, deck, rich_texts, seeds: range) -> int:
    """Every seed played by the revision's engine and today's: the same results, roll for roll.
    Returns how many scraps were compared."""
    week3 = ROOT / "strategies" / "week-03"
    compared = 0
    for record in (True, False):
        for strategies in ("default", "rich"):
            if strategies == "rich":
                old = [old_policy.read_policy(load_yaml(week3 / f"{n}.yaml", n), n) for n in rich_texts]
                new = [policy.read_policy(load_yaml(week3 / f"{n}.yaml", n), n) for n in rich_texts]
            else:
                old, new = [old_policy.Policy(), old_policy.Policy()], [policy.Policy(), policy.Policy()]
            for seed in seeds:
                a_dice, b_dice = SeededDice(seed), SeededDice(seed)
                a = old_engine.quick_scrap(["A", "B"], old, deck, a_dice, record=record)
                b = engine.quick_scrap(["A", "B"], new, deck, b_dice, record=record)
                if fingerprint(a) != fingerprint(b) or a_dice.log != b_dice.log:
                    raise SystemExit(f"seed {seed} ({strategies}, record={record}) plays differently from the revision: {fingerprint(a)[:6]} v {fingerprint(b)[:6]}")
                compared += 1
    return compared


def figures(scraps: int = 5000, trials: int = 5) -> list[dict]:
    """Issue 18's Mat Clash engine target on the demo's full deck (every specialty set), the
    odds path with default policies and with the week-3 plans, and Dual Matches, each beside
    the floor (the shuffle on the same dice), interleaved."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from figures import figure

    week3 = ROOT / "strategies" / "week-03"
    rich = [policy.read_policy(load_yaml(week3 / f"{name}.yaml", name), name) for name in ("tommy-reyes", "gus-halvorsen")]
    deck = build_deck(("wave1", "wave2", "wave3", "short_print"))

    def scraps_of(make, play=engine.quick_scrap):
        def work(seeds):
            policies = make()
            for seed in seeds:
                play(["A", "B"], policies, deck, SeededDice(seed), record=False)
        return work

    runs = {"floor": (lambda seeds: floor(deck, seeds), 1), "default": (scraps_of(lambda: [policy.Policy(), policy.Policy()]), 1),
            "plans": (scraps_of(lambda: rich), 1), "dual": (scraps_of(lambda: [policy.Policy(), policy.Policy()], engine.dual_match), 5)}
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for trial in range(trials):
        for name, (work, per) in runs.items():
            count = scraps // per
            rates[name].append(timed(work, range(trial * count, (trial + 1) * count)))
    shuffle = "the shuffle on the same dice"
    return [figure("Mat Clash Quick Scrap, odds path, default policies, scraps/s", "/s", rates["default"], rates["floor"], shuffle,
                   f">= {TARGET:,}/s", lambda rate: rate >= TARGET),
            figure("Mat Clash Quick Scrap, odds path, week-3 plans (3/m1), scraps/s", "/s", rates["plans"], rates["floor"], shuffle,
                   f">= {DEMO_TARGET:,}/s a core (odds of 100,000 in 5 s)", lambda rate: rate >= DEMO_TARGET),
            figure("Mat Clash Dual Match, odds path, default policies, matches/s", "/s", rates["dual"], rates["floor"], shuffle)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scraps", type=int, default=5000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--before", help="a git revision to measure side by side and check against (e.g. main)")
    args = parser.parse_args()
    week3 = ROOT / "strategies" / "week-03"
    names = ("tommy-reyes", "gus-halvorsen")
    rich = [policy.read_policy(load_yaml(week3 / f"{name}.yaml", name), name) for name in names]
    old_engine = old_policy = None
    if args.before:
        old_engine, old_policy = modules_at(args.before)
        old_rich = [old_policy.read_policy(load_yaml(week3 / f"{name}.yaml", name), name) for name in names]
    print(f"Mat Clash speed, one process, {args.trials} interleaved trials of {args.scraps:,} each; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for label, sets in (("base deck", ()), ("all specialty sets", ("wave1", "wave2", "wave3", "short_print"))):
        deck = build_deck(sets)
        if args.before:
            checked = same_play(old_engine, old_policy, deck, names, range(min(args.scraps, 2000)))
            print(f"  {label}: {checked:,} scraps played by {args.before} and now: the same, roll for roll")

        def scraps(play, make, record):
            def work(seeds):
                policies = make()
                for seed in seeds:
                    play(["A", "B"], policies, deck, SeededDice(seed), record=record)
            return work

        def duals(play, make):
            def work(seeds):
                policies = make()
                for seed in seeds:
                    play(["A", "B"], policies, deck, SeededDice(seed), record=False)
            return work

        runs = [("floor: the shuffle on the same dice", lambda seeds: floor(deck, seeds), None),
                ("reference: a bare random.shuffle", lambda seeds: bare_shuffle(deck, seeds), None)]
        if args.before:
            runs += [(f"{args.before}: odds path, default policies", scraps(old_engine.quick_scrap, lambda: [old_policy.Policy(), old_policy.Policy()], False), "scrap"),
                     (f"{args.before}: odds path, week-3 plans", scraps(old_engine.quick_scrap, lambda: old_rich, False), "scrap")]
        runs += [("now: odds path, default policies", scraps(engine.quick_scrap, lambda: [policy.Policy(), policy.Policy()], False), "scrap"),
                 ("now: odds path, week-3 plans", scraps(engine.quick_scrap, lambda: rich, False), "scrap"),
                 ("now: full path (events), default policies", scraps(engine.quick_scrap, lambda: [policy.Policy(), policy.Policy()], True), "scrap")]
        if args.before:
            runs.append((f"{args.before}: Dual Match, odds path, default policies", duals(old_engine.dual_match, lambda: [old_policy.Policy(), old_policy.Policy()]), "dual"))
        runs.append(("now: Dual Match, odds path, default policies", duals(engine.dual_match, lambda: [policy.Policy(), policy.Policy()]), "dual"))
        rates: dict[str, list[float]] = {name: [] for name, _, _ in runs}
        for trial in range(args.trials):
            for name, work, kind in runs:  # interleaved: each trial measures every run once
                count = args.scraps // 5 if kind == "dual" else args.scraps
                rates[name].append(timed(work, range(trial * count, (trial + 1) * count)))
        floor_best = max(rates[runs[0][0]])
        floor_median = sorted(rates[runs[0][0]])[args.trials // 2]
        print(f"Mat Clash, {label} ({len(deck)} cards):")
        for name, _, kind in runs:
            found = sorted(rates[name])
            best, median = found[-1], found[len(found) // 2]
            unit = "Dual Matches/s" if kind == "dual" else "Quick Scraps/s" if kind == "scrap" else "shuffles/s"
            ratio = f"; {floor_best / best:.1f}x the floor's time (median {floor_median / median:.1f}x)" if kind else ""
            target = f"; target {TARGET:,}/s: {'met' if best >= TARGET else 'not met'}" if kind == "scrap" and "odds path" in name else ""
            if kind == "scrap" and "odds path, week-3 plans" in name and len(deck) > 55:
                target += f"; as `fedtool odds --match 3/m1`: {DEMO_TARGET:,}/s a core {'met' if best >= DEMO_TARGET else 'not met'}"
            print(f"  {name}: {best:,.0f} {unit}, best of {args.trials} (median {median:,.0f}, worst {found[0]:,.0f}){ratio}{target}")


if __name__ == "__main__":
    main()
