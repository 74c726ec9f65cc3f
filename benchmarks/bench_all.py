"""Every speed and size target of issue 18 (and issue 17's Mad Match aim, issue 12's tick), in one
run: each figure measured side by side with its floor or reference by its own script's
`figures()`, in this one process (a script that times commands starts them from here), then
one table of them all: best and median, the floor's best and median, the ratio, the target and
whether both the best and the median meet it.

    python benchmarks/bench_all.py [--only NAME ...] [--json FILE]

NAME is a script's name without `bench_` (speed, matchmatch, matclash, facemat, madmatch, odds,
inbox, tick, site, league). The figures are those of an idle machine only when the machine is
idle: the load average is printed at the start and the end. A full run takes several minutes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from figures import table  # noqa: E402

# In the order a reader meets them in issue 18: commands, engines, odds, intake and tick, site, league.
SCRIPTS = ["speed", "matchmatch", "matclash", "facemat", "madmatch", "odds", "inbox", "tick", "site", "league"]


def gather(names: list[str]) -> list[dict]:
    everything: list[dict] = []
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        started = time.perf_counter()
        figures = module.figures()
        print(f"bench_{name}: {len(figures)} figure(s) in {time.perf_counter() - started:.0f} s; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        everything.extend(dict(figure, script=f"bench_{name}.py") for figure in figures)
    return everything


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=SCRIPTS, help="these scripts' figures alone")
    parser.add_argument("--json", type=Path, help="also write the figures to this file as JSON")
    parser.add_argument("--table", type=Path, help="print the table of figures an earlier run wrote with --json, measuring nothing")
    options = parser.parse_args()
    if options.table:
        print(table(json.loads(options.table.read_text(encoding="utf-8"))))
        return
    import fedtool

    compiled = fedtool.compiled_modules()
    print(f"{os.cpu_count()} cores, python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} at the start; "
          f"compiled: {', '.join(compiled) if compiled else 'nothing (pure Python)'}", flush=True)
    figures = gather(options.only or SCRIPTS)
    if options.json:
        options.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print()
    print(table(figures))
    missed = [f["what"] for f in figures if f.get("met") is False]
    print(f"\n{sum(f.get('met') is True for f in figures)} targets met, {len(missed)} not; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
