"""Odds for a player: play one MatchMatch match many times with fresh seeds, with the very
engine the weekly run uses, and report the shares of each result with their uncertainty."""

from __future__ import annotations

import math
import os
import secrets
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable

from .dice import SeededDice, derive_seed
from .rulesets.matchmatch import engine
from .rulesets.matchmatch.grid import roll_grid

CHUNK = 2000
Z95 = 1.959963984540054  # the normal quantile for a 95% interval


@dataclass(frozen=True)
class Share:
    label: str
    count: int
    share: float
    low: float  # 95% Wilson interval
    high: float


@dataclass
class OddsReport:
    matches: int
    names: list[str]
    seed: int
    grid: str  # "fixed" or "rolled per match"
    outcomes: list[Share]  # side 1 wins, side 2 wins, draw
    finishes: list[Share]  # by (winner, method)
    mean_rounds: float

    def as_json(self) -> dict:
        def shares(items: list[Share]) -> list[dict]:
            return [{"result": s.label, "count": s.count, "share": round(s.share, 6), "low95": round(s.low, 6), "high95": round(s.high, 6)} for s in items]

        return {"matches": self.matches, "sides": self.names, "seed": self.seed, "grid": self.grid, "mean_rounds": round(self.mean_rounds, 3),
                "outcomes": shares(self.outcomes), "finishes": shares(self.finishes)}


def wilson(count: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: honest near 0 and 1, unlike p ± z·se."""
    if total == 0:
        return 0.0, 1.0
    p = count / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _play(args: tuple) -> tuple[Counter, int]:
    """Play matches seeded `start` to `start + count` (in a worker process)."""
    setup, start, count, roll_grids = args
    tally: Counter = Counter()
    rounds = 0
    for seed in range(start, start + count):
        if roll_grids:
            setup = replace(setup, grid=roll_grid(SeededDice(derive_seed("odds-grid", seed))))
        result = engine.resolve(setup, SeededDice(seed))
        tally[(result.winner, result.method)] += 1
        rounds += result.end_round
    return tally, rounds


def simulate(
    setup: engine.MatchSetup,
    matches: int,
    seed: int | None = None,
    workers: int | None = None,
    roll_grids: bool = False,
    progress: Callable[[int], None] | None = None,
) -> OddsReport:
    """Play `setup` `matches` times, seeds `seed`..`seed + matches - 1`, over `workers` processes."""
    seed = secrets.randbits(48) if seed is None else seed
    workers = workers or os.cpu_count() or 1
    chunks = [(setup, start, min(CHUNK, seed + matches - start), roll_grids) for start in range(seed, seed + matches, CHUNK)]
    tally: Counter = Counter()
    rounds = 0
    if workers == 1 or len(chunks) == 1:
        results = map(_play, chunks)
        for (part, part_rounds), chunk in zip(results, chunks):
            tally.update(part)
            rounds += part_rounds
            if progress:
                progress(chunk[2])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for (part, part_rounds), chunk in zip(pool.map(_play, chunks), chunks):
                tally.update(part)
                rounds += part_rounds
                if progress:
                    progress(chunk[2])
    names = [side.name for side in setup.sides]

    def share(label: str, count: int) -> Share:
        low, high = wilson(count, matches)
        return Share(label, count, count / matches, low, high)

    wins = [sum(n for (w, _), n in tally.items() if w == i) for i in (0, 1)]
    draws = matches - sum(wins)
    outcomes = [share(f"{names[0]} wins", wins[0]), share(f"{names[1]} wins", wins[1]), share("draw", draws)]
    finishes = []
    for (winner, method), count in sorted(tally.items(), key=lambda item: -item[1]):
        label = method.replace("_", " ") if winner is None else f"{names[winner]} by {method}"
        finishes.append(share(label, count))
    return OddsReport(matches, names, seed, "rolled per match" if roll_grids else "fixed", outcomes, finishes, rounds / matches)
