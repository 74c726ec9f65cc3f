"""`fedtool odds` speed: one process against the worker policy's choice, side by side.

    python benchmarks/bench_odds.py [--matches N] [--repeats N] [--skip-command]

For each booking (MatchMatch's demo week-1 m1 and the rulebook's Part VI setup, a Mat Clash
Quick Scrap, a Face to the Mat singles match), `simulate` is run in this process on one
worker and on what `plan_workers` chooses (printed, with the cores it counted), interleaved,
best and median of `--repeats`, with the ratio: the policy must never be slower than one
worker. Then the whole command (start-up, booking, workers and all) as a player runs it.
Other work on the machine slows both alike; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # figures.py

from fedtool.fed.settings import Fed  # noqa: E402
from fedtool.week import odds  # noqa: E402
from fedtool.week.booking import book_match  # noqa: E402

PART_VI = ["--sheet", "rosters/brother-bob.yaml", "--sheet", "rosters/friendly-sam.yaml",
           "--strategy", "strategies/example-part-vi/brother-bob.yaml", "--strategy", "strategies/example-part-vi/friendly-sam.yaml",
           "--rounds", "7", "--grid", "Po Te Br/We MA HF/Br MA Ch"]


def part_vi_booking(fed: Fed):
    options = {"grid": "Po Te Br/We MA HF/Br MA Ch", "rounds": 7}
    return odds.exhibition(fed, [ROOT / PART_VI[1], ROOT / PART_VI[3]], [ROOT / PART_VI[5], ROOT / PART_VI[7]], options)


def cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def timed_simulate(booking, matches: int, workers: int | None) -> tuple[float, float]:
    """Wall and CPU seconds (workers' included) of one `simulate`."""
    start, used = time.perf_counter(), cpu()
    odds.simulate(booking, matches, seed=1, workers=workers)
    return time.perf_counter() - start, cpu() - used


def command(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "fedtool", *args, "--fed", str(ROOT), "--json"], check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


# issue 18's odds targets: (what, the demo's match, the target in seconds, matches per trial of
# the target's kind: a Dual Match is five or six scraps, so a fifth as many Dual Matches)
TARGETS = [("MatchMatch singles (1/m1)", "1/m1", 2.0, 1), ("Mat Clash Quick Scrap (3/m1)", "3/m1", 5.0, 1),
           ("Mat Clash Dual Match (3/m2), n / 5", "3/m2", 5.0, 5), ("Face to the Mat singles (3/m3)", "3/m3", 5.0, 1)]


def figures(matches: int = 100_000, repeats: int = 3) -> list[dict]:
    """`fedtool odds -n 100,000` for each ruleset as a player runs it (wall time, workers as the
    policy chooses), beside the same command for 1 match (start-up and booking), interleaved."""
    from figures import figure

    times = {label: [] for label, *_ in TARGETS}
    references = {label: [] for label, *_ in TARGETS}
    for _ in range(repeats):
        for label, match, _, per in TARGETS:
            args = ["odds", "--match", match, "--seed", "1"]
            references[label].append(command([*args, "-n", "1"]))
            times[label].append(command([*args, "-n", str(matches // per)]))
    return [figure(f"fedtool odds -n {matches:,}: {label}", "s", times[label], references[label], "the same for 1 match",
                   f"< {target:g} s", lambda seconds, target=target: seconds < target) for label, _, target, _ in TARGETS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-command", action="store_true")
    options = parser.parse_args()
    fed = Fed.load(ROOT)
    cases = [("MatchMatch demo 1/m1 (20 rounds)", book_match(fed, 1, "m1"), 1),
             ("MatchMatch Part VI (7 rounds)", part_vi_booking(fed), 1),
             ("Mat Clash Quick Scrap 3/m1, n / 5", book_match(fed, 3, "m1"), 5),
             ("Face to the Mat singles 3/m3, n / 5", book_match(fed, 3, "m3"), 5)]
    chosen: list[int] = []
    real = odds.plan_workers

    def recording(left: int, each: float, free: int) -> int:
        chosen.append(real(left, each, free))
        return chosen[-1]

    odds.plan_workers = recording  # type: ignore[assignment]
    print(f"odds in one process: 1 worker against the policy's choice, {options.repeats} interleaved passes, "
          f"{odds.cores()} cores counted (os.cpu_count {os.cpu_count()}), load average {os.getloadavg()[0]:.1f} at the start")
    for label, booking, per in cases:
        n = options.matches // per
        ones, policies = [], []
        chosen.clear()
        for _ in range(options.repeats):
            ones.append(timed_simulate(booking, n, 1))
            policies.append(timed_simulate(booking, n, None))
        picks = ", ".join(map(str, sorted(set(chosen))))
        one_wall, policy_wall = [w for w, _ in ones], [w for w, _ in policies]
        print(f"{label:<38} n={n:>7,}  1 worker best {min(one_wall):6.3f} s median {statistics.median(one_wall):6.3f} s   "
              f"policy ({picks} worker{'s' if picks != '1' else ''}) best {min(policy_wall):6.3f} s median {statistics.median(policy_wall):6.3f} s   "
              f"policy/one {min(policy_wall) / min(one_wall):4.2f}x best {statistics.median(policy_wall) / statistics.median(one_wall):4.2f}x median; "
              f"CPU {statistics.median(c for _, c in policies) / statistics.median(c for _, c in ones):4.2f}x one worker's")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if options.skip_command:
        return
    n = str(options.matches)
    for label, args in (("demo card week 1 m1 (20 rounds)", ["odds", "--match", "1/m1"]), ("Part VI setup (7 rounds)", ["odds", *PART_VI])):
        policy, one = [], []
        for _ in range(options.repeats):
            policy.append(command([*args, "-n", n, "--seed", "1"]))
            one.append(command([*args, "-n", n, "--seed", "1", "--workers", "1"]))
        print(f"fedtool odds -n {int(n):,}, {label}: policy best {min(policy):.2f} s median {statistics.median(policy):.2f} s; "
              f"--workers 1 best {min(one):.2f} s median {statistics.median(one):.2f} s")


if __name__ == "__main__":
    main()
