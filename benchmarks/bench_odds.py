"""`fedtool odds` speed: 100,000 Bob-vs-Sam matches on all cores, as a player runs it.

    python benchmarks/bench_odds.py [--matches N]

Times the whole command (start-up, worker processes and all), for the demo card's
20-round Bob-vs-Sam match (week 1, m1) and for the rulebook's Part VI match.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str]) -> float:
    fedtool = shutil.which("fedtool") or sys.exit("fedtool is not installed (pip install -e .)")
    start = time.perf_counter()
    subprocess.run([fedtool, *args, "--fed", str(ROOT), "--json"], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100_000)
    n = str(parser.parse_args().matches)
    part_vi = ["--sheet", "rosters/brother-bob.yaml", "--sheet", "rosters/friendly-sam.yaml",
               "--strategy", "strategies/example-part-vi/brother-bob.yaml", "--strategy", "strategies/example-part-vi/friendly-sam.yaml",
               "--rounds", "7", "--grid", "Po Te Br/We MA HF/Br MA Ch"]
    os.chdir(ROOT)
    for label, args in (("demo card week 1 m1 (20 rounds)", ["odds", "--match", "1/m1"]), ("Part VI setup (7 rounds)", ["odds", *part_vi])):
        both = timed([*args, "-n", n, "--seed", "1"])
        one = timed([*args, "-n", n, "--seed", "1", "--workers", "1"])
        print(f"fedtool odds, {int(n):,} Bob-vs-Sam matches, {label}: {both:.2f} s on {os.cpu_count()} cores ({one:.2f} s on one)")


if __name__ == "__main__":
    main()
