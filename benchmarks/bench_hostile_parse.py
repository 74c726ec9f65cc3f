"""How fast a plain-text MatchMatch strategy with one huge hostile line is refused, beside a
floor: splitting the same text into words, the least any reader of it must do. A line of
100,000+ characters must cost a reader time linear in its length (no regular expression
that backtracks), so the ratio stays small and flat as the line grows.

    python benchmarks/bench_hostile_parse.py [--trials T]

Prints best and median of each line's refusal and of the floor, and the ratio. (Replaces a
timed test: speed is measured here, never asserted in the suite.)
"""

from __future__ import annotations

import argparse
import statistics
import time

from fedtool.kernel.errors import FedError
from fedtool.rulesets.matchmatch.plaintext import parse_plaintext

LINES = {
    "round of MA": "1 " + "MA " * 60_000,
    "pluses": "+" * 150_000,
    "grid words": "grid " * 35_000,
    "condition of ands": "If " + "and " * 45_000,
    "minus signs": "- " * 90_000,
    "plus styles": "Strategy: " + "+a " * 60_000,
    "one long word": "1 " + "x" * 190_000,
}


def timed(function, text: str) -> float:
    start = time.perf_counter()
    function(text)
    return time.perf_counter() - start


def refuse(text: str) -> None:
    try:
        parse_plaintext(text, "hostile.txt")
    except FedError:
        return
    raise SystemExit("a hostile line was accepted")


def floor(text: str) -> None:
    for line in text.splitlines():
        line.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=7)
    args = parser.parse_args()
    print(f"{'line':<20} {'chars':>8} {'refused best/median':>22} {'floor best/median':>22} {'ratio':>12}")
    for name, line in LINES.items():
        text = "1 MA Normal x\n" + line
        ours, base = [], []
        for _ in range(args.trials):  # interleaved, so both see the same machine
            ours.append(timed(refuse, text))
            base.append(timed(floor, text))
        b, m = min(ours), statistics.median(ours)
        fb, fm = min(base), statistics.median(base)
        print(f"{name:<20} {len(line):>8} {b * 1000:>9.1f} / {m * 1000:>6.1f} ms {fb * 1000:>9.2f} / {fm * 1000:>6.2f} ms {b / fb:>5.0f}x/{m / fm:>4.0f}x")


if __name__ == "__main__":
    main()
