"""Odds for a player: play one booking many times with fresh seeds, through its ruleset's
`trial` hook (the very engine the weekly run uses), and report the shares of each result
with their uncertainty."""

from __future__ import annotations

import math
import os
import secrets
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from fedtool.fed.settings import Fed
from fedtool.kernel.dice import SeededDice, derive_seed
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import load_yaml
from fedtool.rulesets import REGISTRY, get_ruleset
from fedtool.rulesets.base import Booking

from .booking import book_match, tell

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
    ruleset_id, booking, start, count = args
    ruleset = get_ruleset(ruleset_id)
    setup = booking.setup
    varies = ruleset.rolls_per_trial(booking)
    tally: Counter = Counter()
    rounds = 0
    for seed in range(start, start + count):
        if varies:  # what the booking left open, rolled for this trial on dice of its own
            setup = ruleset.odds_setup(booking, SeededDice(derive_seed("odds-grid", seed)))
        trial = ruleset.trial(setup, SeededDice(seed))
        tally[(trial.winner, trial.method)] += 1
        rounds += trial.length
    return tally, rounds


def check_odds(ruleset_id: str, what: str) -> None:
    """Refuse a match of a ruleset with no `trial` hook, naming those that have one."""
    if not get_ruleset(ruleset_id).plays_odds:
        able = ", ".join(get_ruleset(r).name for r in REGISTRY if get_ruleset(r).plays_odds)
        raise FedError(Problem(None, None, f"{what} is a {ruleset_id} match; fedtool odds plays {able} matches", "fedtool odds"))


def match_booking(fed: Fed, week: int, match_id: str) -> Booking:
    """A match of a week's card booked as the run books it, for odds."""
    booking = book_match(fed, week, match_id)
    check_odds(booking.match.ruleset, f"match {week}/{match_id}")
    return booking


def exhibition(fed: Fed, sheets: list[Path], strategies: list[Path], options: dict) -> Booking:
    """A booking from sheet and strategy files, by the first sheet's ruleset (`Ruleset.exhibition`)."""
    sheet_data = [(load_yaml(p, str(p)), str(p), p.stem) for p in sheets]
    first = sheet_data[0][0]
    ruleset_id = str(first.get("ruleset", fed.settings.ruleset)) if isinstance(first, dict) else fed.settings.ruleset
    ruleset = get_ruleset(ruleset_id, (str(sheets[0]), "field ruleset"))
    strategy_data = [(load_yaml(p, str(p)), str(p)) for p in strategies]
    booking = ruleset.exhibition(sheet_data, strategy_data, fed.ruleset_settings(ruleset_id), options)
    return tell(fed, ruleset, booking, "exhibition " + " ".join(stem for _, _, stem in sheet_data))


MAX_SEED = 2**64 - 1  # the dice take a seed of up to 128 bits; a printed seed and the ones after it stay in 64
MAX_MATCHES = 10_000_000
MAX_WORKERS = 256


def simulate(
    booking: Booking,
    matches: int,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> OddsReport:
    """Play `booking` `matches` times, seeds `seed`..`seed + matches - 1`, over `workers` processes."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise FedError(Problem(None, "--seed", f"{str(seed)[:30]}{'...' if len(str(seed)) > 30 else ''} is not a seed: "
                               f"give a whole number from 0 to {MAX_SEED} (2^64 - 1)", "fedtool odds"))
    if not 1 <= matches <= MAX_MATCHES:
        raise FedError(Problem(None, "-n", f"{matches} matches: give 1 to {MAX_MATCHES:,}", "fedtool odds"))
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise FedError(Problem(None, "--workers", f"{workers} processes: give 1 to {MAX_WORKERS}", "fedtool odds"))
    ruleset_id = booking.wrestlers[0].ruleset
    seed = secrets.randbits(48) if seed is None else seed
    workers = workers or os.cpu_count() or 1
    chunks = [(ruleset_id, booking, start, min(CHUNK, seed + matches - start)) for start in range(seed, seed + matches, CHUNK)]
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
    names = [wrestler.name for wrestler in booking.wrestlers]

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
    varies = get_ruleset(ruleset_id).rolls_per_trial(booking)
    return OddsReport(matches, names, seed, "rolled per match" if varies else "fixed", outcomes, finishes, rounds / matches)
