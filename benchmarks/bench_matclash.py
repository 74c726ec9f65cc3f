"""Mat Clash speed: Quick Scraps played per second on one core (no rendering, the shuffle
logged), best and median of several trials, for the default policies and for the demo's
plan-language strategies (week 3: Tommy Reyes against Gus Halvorsen).

With --before REV the engine and policy of that git revision are measured too, side by
side in the same run (trials interleaved), so the figures compare like with like:

    python benchmarks/bench_matclash.py [--scraps N] [--trials T] [--before REV]
"""

from __future__ import annotations

import argparse
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


def modules_at(rev: str) -> tuple[types.ModuleType, types.ModuleType]:
    """The engine and policy modules as they were at `rev` (the cards module is today's)."""
    loaded = []
    for name in ("engine", "policy"):
        source = subprocess.run(["git", "show", f"{rev}:fedtool/rulesets/matclash/{name}.py"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        module = types.ModuleType(f"{PACKAGE}._before_{name}")
        module.__package__ = PACKAGE
        sys.modules[module.__name__] = module
        exec(compile(source, f"{rev}:{name}.py", "exec"), module.__dict__)
        loaded.append(module)
    return loaded[0], loaded[1]


def rate(play, policies, deck, scraps: int, trial: int) -> float:
    start = time.process_time()  # this process's CPU time: other work on the machine does not count
    for seed in range(trial * scraps, (trial + 1) * scraps):
        play(["A", "B"], policies, deck, SeededDice(seed))
    return scraps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scraps", type=int, default=5000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--before", help="a git revision to measure side by side (e.g. main)")
    args = parser.parse_args()
    week3 = ROOT / "strategies" / "week-03"
    rich = [policy.read_policy(load_yaml(week3 / f"{name}.yaml", name), name) for name in ("tommy-reyes", "gus-halvorsen")]
    runs = []
    if args.before:
        old_engine, old_policy = modules_at(args.before)
        runs.append((f"{args.before}: default policies", old_engine.quick_scrap, lambda: [old_policy.Policy(), old_policy.Policy()]))
    runs.append(("now: default policies", engine.quick_scrap, lambda: [policy.Policy(), policy.Policy()]))
    runs.append(("now: week-3 plan strategies", engine.quick_scrap, lambda: rich))
    for label, sets in (("base deck", ()), ("all specialty sets", ("wave1", "wave2", "wave3", "short_print"))):
        deck = build_deck(sets)
        rates: dict[str, list[float]] = {name: [] for name, _, _ in runs}
        for trial in range(args.trials):
            for name, play, make in runs:  # interleaved: each trial measures every run once
                rates[name].append(rate(play, make(), deck, args.scraps, trial))
        for name, _, _ in runs:
            found = sorted(rates[name])
            print(f"Mat Clash, {label} ({len(deck)} cards), {name}: {found[-1]:,.0f} Quick Scraps/s on one core, best of {args.trials} "
                  f"(median {found[len(found) // 2]:,.0f}, worst {found[0]:,.0f})")


if __name__ == "__main__":
    main()
