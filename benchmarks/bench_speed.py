"""Issue 18's command targets, side by side in one run: start-up and `fedtool odds`.

    python benchmarks/bench_speed.py [--repeats N] [--odds-repeats N] [--matches N] [--startup-only]

Every figure is wall time of a fresh process, as a user waits for it, run interleaved
(one of each per pass, so a busy machine slows them all alike). Each line gives the best
and the median, the floor or reference it is measured against, the ratios and the target:

Python's compiled modules (`__pycache__/*.pyc`) are written and used, as an installed
fedtool's are (pip compiles them at install): `PYTHONDONTWRITEBYTECODE`, if set, is dropped
for the commands timed. In a checkout never run without it, every process would compile
fedtool's own source anew (about 0.01 s of CPU for `--help`'s four modules, 0.08 s for the
standings' 36, 0.09 s for a week's run's 47, measured by compiling them).

- the floor: `python -c pass` (the interpreter's own start-up, site-packages and all); and
  the readers' floor, `python -c "import sqlite3, yaml"` (what reading a league and a sheet
  cannot do without), beside the run and the standings;
- `fedtool --help`: target under 3x the floor;
- `fedtool run 1`, the demo week, on a fresh copy of the repository root's fed (the copy
  made outside the timing): target under 0.25 s;
- `fedtool standings` on that fed after the run: target under 0.15 s;
- with `--against CHECKOUT` (the code before a change), that checkout's `run 1` and
  `standings` on the same demo fed in the same passes, and this one's time over its time;
- `fedtool odds` for 100,000 matches: MatchMatch (week 1's m1) under 2 s, a Mat Clash
  Quick Scrap (week 3's m1), a Mat Clash Dual Match (week 3's m2) and a Face to the Mat
  match (week 3's m3) under 5 s; the reference is the same command for 1 match (what
  start-up and booking cost before the first trial).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
FEDTOOL = [PYTHON, "-m", "fedtool"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def demo_copy(where: Path) -> Path:
    fed = where / "fed"
    for folder in ("rosters", "strategies", "templates"):
        shutil.copytree(ROOT / folder, fed / folder)
    return fed


def wall(args: list[str], cpu: list[float] | None = None, env: dict | None = None) -> float:
    """The command's wall time; its CPU time (user + system) appended to `cpu` if given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run outside any checkout: `python -m` puts the current folder first on the path
    done = subprocess.run(args, capture_output=True, cwd=tempfile.gettempdir(), env=env or ENV)
    took = time.perf_counter() - start
    if done.returncode:
        raise Refused(done.stderr.decode(errors="replace").strip().splitlines()[-1])
    if cpu is not None:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return took


class Refused(Exception):
    """The command failed (an older fedtool refusing a ruleset's odds, say)."""


def line(label: str, times: list[float], reference: str, ref_times: list[float] | None, target: str, met: bool) -> str:
    best, median = min(times), statistics.median(times)
    ratio = f"  {best / min(ref_times):5.2f}x / {median / statistics.median(ref_times):5.2f}x {reference}" if ref_times else f"  {reference}"
    return f"{label:<44} best {best:6.3f} s  median {median:6.3f} s{ratio}   target {target}: {'met' if met else 'NOT met'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=9, help="passes over the start-up commands")
    parser.add_argument("--odds-repeats", type=int, default=3, help="passes over the odds commands")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--skip-odds", "--startup-only", dest="skip_odds", action="store_true", help="the start-up figures alone")
    parser.add_argument("--root", type=Path, help="another checkout's code and demo fed (figures before a change)")
    parser.add_argument("--against", type=Path, help="another checkout (before a change): its `run 1` and `standings` timed in the same passes")
    parser.add_argument("--imports", action="store_true", help="also print what `run 1` and `standings` spend importing, by top-level package (-X importtime)")
    options = parser.parse_args()
    if options.root:
        global ROOT
        ROOT = options.root.resolve()
        ENV["PYTHONPATH"] = str(ROOT)
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)

    floor: list[float] = []
    readers: list[float] = []  # python -c "import sqlite3, yaml"
    helps: list[float] = []
    runs: list[float] = []
    standings: list[float] = []
    cpu: dict[str, list[float]] = {"floor": [], "help": [], "run": [], "standings": []}  # the same runs' CPU time
    other = {**ENV, "PYTHONPATH": str(options.against.resolve())} if options.against else None
    before: dict[str, list[float]] = {"run": [], "standings": [], "cpu run": [], "cpu standings": []}  # --against's
    with tempfile.TemporaryDirectory() as tmp:
        base = demo_copy(Path(tmp) / "base")
        warm = Path(tmp) / "warm"
        shutil.copytree(base, warm)
        for env in (ENV, other) if other else (ENV,):
            for args in (["--help"], ["run", "1"], ["standings"]):  # .pyc files and the compiled templates' cache warm
                subprocess.run([*FEDTOOL, "--fed", str(warm), *args], capture_output=True, env=env, cwd=tempfile.gettempdir())
            shutil.rmtree(warm)
            shutil.copytree(base, warm)
        for n in range(options.repeats):
            fed = Path(tmp) / f"run{n}"
            shutil.copytree(base, fed)
            floor.append(wall([PYTHON, "-c", "pass"], cpu["floor"]))
            readers.append(wall([PYTHON, "-c", "import sqlite3, yaml"]))
            helps.append(wall([*FEDTOOL, "--help"], cpu["help"]))
            runs.append(wall([*FEDTOOL, "--fed", str(fed), "run", "1"], cpu["run"]))
            standings.append(wall([*FEDTOOL, "--fed", str(fed), "standings"], cpu["standings"]))
            if other:  # the same demo fed (this checkout's), the other checkout's code
                theirs = Path(tmp) / f"against{n}"
                shutil.copytree(base, theirs)
                before["run"].append(wall([*FEDTOOL, "--fed", str(theirs), "run", "1"], before["cpu run"], other))
                before["standings"].append(wall([*FEDTOOL, "--fed", str(theirs), "standings"], before["cpu standings"], other))
        print(f"start-up, {options.repeats} interleaved passes on {os.cpu_count()} cores (python {sys.version.split()[0]}, compiled modules kept); "
              f"load average {os.getloadavg()[0]:.1f} (other work on the machine slows every figure)")
        print(line("python -c pass (the floor)", floor, "", None, "-", True))
        print(line('python -c "import sqlite3, yaml"', readers, "the floor", floor, "-", True))
        print(line("fedtool --help", helps, "the floor", floor, "< 3x the floor", min(helps) < 3 * min(floor)))
        print(line("fedtool run 1 (the demo week)", runs, "the floor", floor, "< 0.25 s", min(runs) < 0.25))
        print(line("fedtool standings (after week 1)", standings, "the floor", floor, "< 0.15 s", min(standings) < 0.15))
        for label, times in (("fedtool run 1 (the demo week)", runs), ("fedtool standings (after week 1)", standings)):
            print(f"  {label:<42} {min(times) / min(readers):5.2f}x / {statistics.median(times) / statistics.median(readers):5.2f}x "
                  '`python -c "import sqlite3, yaml"` (best / median)')
        FIGURES[:] = [_figure("python -c pass (the floor)", floor, floor, None),
                      _figure('python -c "import sqlite3, yaml"', readers, floor, None),
                      _figure("fedtool --help", helps, floor, "< 3x the floor", min(helps) < 3 * min(floor)),
                      _figure("fedtool run 1 (the demo week)", runs, floor, "< 0.25 s", min(runs) < 0.25),
                      _figure("fedtool standings (after week 1)", standings, floor, "< 0.15 s", min(standings) < 0.15)]
        print("the same runs' CPU time (user + system: what a busy machine inflates least)")
        for label, key in (("python -c pass (the floor)", "floor"), ("fedtool --help", "help"), ("fedtool run 1 (the demo week)", "run"),
                           ("fedtool standings (after week 1)", "standings")):
            times = cpu[key]
            ratio = f"  {min(times) / min(cpu['floor']):5.2f}x / {statistics.median(times) / statistics.median(cpu['floor']):5.2f}x the floor" if key != "floor" else ""
            print(f"  cpu {label:<40} best {min(times):6.3f} s  median {statistics.median(times):6.3f} s{ratio}")
        if other:
            print(f"--against {options.against} (its code, the same fed, in the same passes): this checkout's time / its time")
            for key in ("run", "standings"):
                for kind, ours, theirs in (("wall", runs if key == "run" else standings, before[key]),
                                           ("cpu ", cpu[key], before[f"cpu {key}"])):
                    print(f"  {kind} {key:<10} against: best {min(theirs):6.3f} s  median {statistics.median(theirs):6.3f} s   "
                          f"{min(theirs) / min(floor if kind == 'wall' else cpu['floor']):5.2f}x the floor;  "
                          f"this one {min(ours) / min(theirs):5.2f}x / {statistics.median(ours) / statistics.median(theirs):5.2f}x (best / median)")

        work: list[float] = []
        theirs: list[float] = []
        for _ in range(3):  # interleaved with --against's, a process each, so a busy machine slows both alike
            work += work_only(ROOT, max(options.repeats // 3, 1))
            if other:
                theirs += work_only(options.against.resolve(), max(options.repeats // 3, 1))
        print(line("run 1, work only (modules imported)", work, "", None, "-", True)
              + "  (run_week's own work: `run 1` on fresh demo copies in one process, every run after the first timed)")
        FIGURES.append(_figure("run 1, work only (modules imported), over the whole command", work, runs, None))  # the share of `run 1` that is the run's own work
        if other:
            print(f"  run 1, work only, against: best {min(theirs):6.3f} s  median {statistics.median(theirs):6.3f} s;  "
                  f"this one {min(work) / min(theirs):5.2f}x / {statistics.median(work) / statistics.median(theirs):5.2f}x (best / median)")

        if options.imports:
            print("\nimports (python -X importtime, one run each: ms of its modules' own import time by package; the bare interpreter's left out)")
            for label, args, fed in (("run 1", ["run", "1"], Path(tmp) / "imports"), ("standings", ["standings"], Path(tmp) / "run0")):
                if label == "run 1":
                    shutil.copytree(base, fed)
                profile = import_profile([*FEDTOOL, "--fed", str(fed), *args])
                total = sum(profile.values())
                print(f"  {label:<10} {total:6.1f} ms: " + ", ".join(f"{name} {ms:.1f}" for name, ms in sorted(profile.items(), key=lambda kv: -kv[1])[:14]))
        if options.skip_odds:
            return
        odds_fed = Path(tmp) / "run0"
        # a Dual Match is five or six scraps: a fifth as many of them are the target's scraps
        cases = [("MatchMatch singles (1/m1)", "1/m1", 2.0, 1), ("Mat Clash Quick Scrap (3/m1)", "3/m1", 5.0, 1),
                 ("Mat Clash Dual Match (3/m2), n / 5", "3/m2", 5.0, 5), ("Face to the Mat singles (3/m3)", "3/m3", 5.0, 1)]
        timings: dict[str, list[float]] = {label: [] for label, _, _, _ in cases}
        references: dict[str, list[float]] = {label: [] for label, _, _, _ in cases}
        refused: dict[str, str] = {}
        for _ in range(options.odds_repeats):
            for label, match, _, per in cases:
                if label in refused:
                    continue
                args = [*FEDTOOL, "--fed", str(odds_fed), "odds", "--match", match, "--seed", "1", "--json"]
                try:
                    references[label].append(wall([*args, "-n", "1"]))
                    timings[label].append(wall([*args, "-n", str(options.matches // per)]))
                except Refused as exc:
                    refused[label] = str(exc)
        print(f"\nfedtool odds -n {options.matches:,}, {options.odds_repeats} interleaved passes (reference: the same command for 1 match)")
        for label, _, target, _ in cases:
            if label in refused:
                print(f"odds {label:<39} refused: {refused[label]}")
            else:
                print(line(f"odds {label}", timings[label], "-n 1", references[label], f"< {target:g} s", min(timings[label]) < target))
        print("\ntrials a second on one process (the odds path, in a fresh interpreter: what the targets above need per core)")
        for label, match, target, per in cases:
            if label in refused:
                continue
            try:
                rates = trial_rates(odds_fed, match)
            except subprocess.CalledProcessError:  # a fedtool from before issue 18
                print(f"{label:<44} (this fedtool has no trial rates to time)")
                continue
            left = target - min(references[label])  # the target less the command's start-up and booking
            need = options.matches / per / left / (os.cpu_count() or 1) if left > 0 else None
            print(f"{label:<44} best {max(rates):8,.0f}/s  median {statistics.median(rates):8,.0f}/s   "
                  + (f"needed for {target:g} s on {os.cpu_count()} idle cores: {need:8,.0f}/s ({need / max(rates):.1f}x the best)" if need
                     else f"start-up alone took {target:g} s or more"))


WORK = """
import contextlib, io, json, shutil, sys, tempfile, time
from pathlib import Path
from fedtool.cli import cli
demo, repeats = Path(sys.argv[1]), int(sys.argv[2])
times = []
with tempfile.TemporaryDirectory() as tmp:
    for n in range(repeats + 1):
        fed = Path(tmp) / f"fed{n}"
        for folder in ("rosters", "strategies", "templates"):
            shutil.copytree(demo / folder, fed / folder)
        with contextlib.redirect_stdout(io.StringIO()):
            start = time.perf_counter()
            cli.main(["--fed", str(fed), "run", "1"], standalone_mode=False)
            took = time.perf_counter() - start
        if n:  # the first run imports and compiles what the others find ready
            times.append(took)
print(json.dumps(times))
"""


def work_only(checkout: Path, repeats: int) -> list[float]:
    """`run 1`'s own work, start-up left out: the demo week run on fresh copies of the demo
    fed (this checkout's) in one process with `checkout`'s code, each run after the first
    timed (by then every module it needs is imported and every template compiled)."""
    done = subprocess.run([PYTHON, "-c", WORK, str(ROOT), str(repeats)], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir(), env={**ENV, "PYTHONPATH": str(checkout)})
    return json.loads(done.stdout)


def import_profile(args: list[str]) -> dict[str, float]:
    """Milliseconds a command spends importing, by top-level package (fedtool's by its
    packages): the sum of its modules' own times, from `python -X importtime`; what the bare
    interpreter imports (`python -c pass`) is left out."""
    def levels(command: list[str]) -> dict[str, float]:
        done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True, text=True, cwd=tempfile.gettempdir(), env=ENV)
        out: dict[str, float] = {}
        for row in done.stderr.splitlines():
            if not row.startswith("import time:") or "|" not in row or "cumulative" in row:
                continue
            own, _, name = row.split("|")
            package = name.strip().split(".")[0]
            if package == "fedtool":
                package = ".".join(name.strip().split(".")[:2])  # fedtool's own by package: fedtool.league, fedtool.rulesets, ...
            out[package] = out.get(package, 0.0) + int(own.split(":")[1]) / 1000
        return out

    bare = levels([PYTHON, "-c", "pass"])
    return {name: ms for name, ms in levels(args).items() if name not in bare}


FIGURES: list[dict] = []  # the last run's figures, as `figures()` returns them


def _figure(what: str, times: list[float], floor: list[float], target: str | None, met: bool = True) -> dict:
    return {"what": what, "best": min(times), "median": statistics.median(times), "unit": "s", "floor_best": min(floor),
            "floor_median": statistics.median(floor), "ratio": min(times) / min(floor), "target": target, "met": met}


def figures(repeats: int = 9) -> list[dict]:
    """The start-up figures (the floor, the readers' floor, `--help`, `run 1`, `standings`),
    measured as `main` measures them (`--startup-only`), each a dict: what, best, median,
    unit, floor_best, floor_median, ratio (best over the floor's best), target, met."""
    import contextlib
    import io

    arguments = sys.argv
    sys.argv = [arguments[0], "--startup-only", "--repeats", str(repeats)]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            main()
    finally:
        sys.argv = arguments
    return list(FIGURES)


RATES = """
import json, sys, time
from fedtool.fed.settings import Fed
from fedtool.week.booking import book_match
from fedtool.week.odds import _play
week, match = sys.argv[2].split("/")
booking = book_match(Fed.load(sys.argv[1]), int(week), match)
rates = []
for attempt in range(5):
    start = time.perf_counter()
    _play(booking.wrestlers[0].ruleset, booking, attempt * 2000, 2000)
    rates.append(2000 / (time.perf_counter() - start))
print(json.dumps(rates))
"""


def trial_rates(fed: Path, match: str) -> list[float]:
    done = subprocess.run([PYTHON, "-c", RATES, str(fed), match], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(), env=ENV)
    return json.loads(done.stdout)


if __name__ == "__main__":
    main()
