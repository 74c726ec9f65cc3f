"""One figure of a benchmark, as every `bench_*.py` script's `figures()` returns it, and the
table `bench_all.py` prints.

A figure is a plain dict (so a script can build one without importing this module):

    what          what was measured ("MatchMatch odds path, matches/s on one core")
    unit          "/s" (a rate: higher is better) or "s", "KB", "MiB" (lower is better)
    best, median  of the trials, taken side by side with the floor in the same process
    floor_what    the floor or reference it is measured against ("the match's dice alone")
    floor_best, floor_median
    ratio         how many times the floor's time the figure's time is, best against best
                  (for a rate: floor rate / rate; for a time: time / floor time); None
                  without a floor
    target        the issue's target, as text ("< 0.25 s", ">= 45,000/s")
    met           whether best AND median meet it (None: no target)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable


def figure(what: str, unit: str, values: Iterable[float], floor: Iterable[float] | None = None, floor_what: str = "",
           target: str = "", meets: Callable[[float], bool] | None = None) -> dict:
    """A figure from its trials: best and median, the floor's, the ratio, and the target met
    when both the best and the median meet it (`meets`)."""
    values = list(values)
    rate = unit.endswith("/s")
    best = max(values) if rate else min(values)
    median = statistics.median(values)
    result = {"what": what, "unit": unit, "best": best, "median": median, "floor_what": floor_what,
              "floor_best": None, "floor_median": None, "ratio": None, "target": target, "met": None}
    if floor is not None:
        floor = list(floor)
        floor_best = max(floor) if rate else min(floor)
        floor_median = statistics.median(floor)
        result.update(floor_best=floor_best, floor_median=floor_median,
                      ratio=floor_best / best if rate else best / floor_best)
    if meets is not None:
        result["met"] = bool(meets(best) and meets(median))
    return result


def amount(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    if unit.endswith("/s"):
        return f"{value:,.0f}{unit}" if unit.startswith("/") else f"{value:,.0f} {unit}"
    return f"{value:,.1f} {unit}"


def table(figures: list[dict]) -> str:
    """The figures as one aligned text table: best / median, floor best / median, ratio, target."""
    rows = [("figure", "best / median", "floor or reference (best / median)", "ratio", "target", "")]
    for f in figures:
        what = f.get("floor_what") or "floor"
        floor = f"{what}: {amount(f['floor_best'], f['unit'])} / {amount(f.get('floor_median'), f['unit'])}" if f.get("floor_best") is not None else (f.get("floor_what") or "-")
        ratio = f"{f['ratio']:.2f}x" if f.get("ratio") is not None else "-"
        met = {True: "met", False: "NOT met", None: ""}[f.get("met")]
        target = f.get("target")
        if isinstance(target, (int, float)):  # a bare number: the figure's own unit, reached from below for a rate
            target = f"{'>=' if f['unit'].endswith('/s') else '<'} {amount(target, f['unit'])}"
        rows.append((str(f["what"]), f"{amount(f['best'], f['unit'])} / {amount(f['median'], f['unit'])}", floor, ratio, target or "-", met))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
