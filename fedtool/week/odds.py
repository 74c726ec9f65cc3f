"""Odds for a player: play one booking many times with fresh seeds, through its ruleset's
`trial` hook (the very engine the weekly run uses, keeping nothing for a writeup), and
report the shares of each result with their uncertainty. Any ruleset with `plays_odds`,
any match type it books: each side's wins (a team as one side, `Ruleset.odds_sides`), the
draws, and each finish.

Processes: others are started only when they pay. The first trials are played here and
timed (`CALIBRATE`); others share the rest when it would take `PAYS` seconds or more on one
process, one per core this process may run on (`cores`), no more than have `PER_WORKER`
seconds of trials each, nor than there are pieces to share (`plan_workers`); this process
plays its share too, and the pieces shrink toward the end, so a busy core costs little
more than the pool's start-up. The seeds decide every trial, so the counts are the same on
one process or many."""

from __future__ import annotations

import math
import os
import secrets
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
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
    grid: str | None  # "fixed" or "rolled per match"; None for a ruleset whose matches have no grid
    outcomes: list[Share]  # each side wins, in the order of `names`, then a draw
    finishes: list[Share]  # by (winner, method)
    mean_rounds: float  # the mean length of a match, in `unit`
    unit: str = "rounds"  # what a match's length counts: rounds, turns, scraps, FACs

    def as_json(self) -> dict:
        def shares(items: list[Share]) -> list[dict]:
            return [{"result": s.label, "count": s.count, "share": round(s.share, 6), "low95": round(s.low, 6), "high95": round(s.high, 6)} for s in items]

        return {"matches": self.matches, "sides": self.names, "seed": self.seed, "grid": self.grid, "mean_rounds": round(self.mean_rounds, 3), "unit": self.unit,
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


_BOOKED: tuple | None = None  # (ruleset id, booking) in a worker process, set once by `_worker_start`


def _worker_start(ruleset_id: str, booking: Booking) -> None:
    global _BOOKED
    _BOOKED = (ruleset_id, booking)


def _worker_play(span: tuple[int, int]) -> tuple[Counter, int]:
    assert _BOOKED is not None
    return _play(*_BOOKED, *span)


def _play(ruleset_id: str, booking: Booking, start: int, count: int) -> tuple[Counter, int]:
    """Play the trials seeded `start` to `start + count`: the tally of (winner, method) and
    the sum of their lengths. Each trial's dice are its own seed's, so how the seeds are
    split among processes changes nothing."""
    ruleset = get_ruleset(ruleset_id)
    varies = ruleset.rolls_per_trial(booking)
    setup = None if varies else ruleset.trial_setup(booking)
    trial = ruleset.trial
    tally: Counter = Counter()
    rounds = 0
    for seed in range(start, start + count):
        if varies:  # what the booking left open, rolled for this trial on dice of its own
            setup = ruleset.odds_setup(booking, SeededDice(derive_seed("odds-grid", seed)))
        played = trial(setup, SeededDice(seed))
        tally[(played.winner, played.method)] += 1
        rounds += played.length
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
    strategy_data = [(ruleset.strategy_data(p, str(p)), str(p)) for p in strategies]  # a .txt in the rulebook's layout as the run reads it
    booking = ruleset.exhibition(sheet_data, strategy_data, fed.ruleset_settings(ruleset_id), options)
    return tell(fed, ruleset, booking, "exhibition " + " ".join(stem for _, _, stem in sheet_data))


MAX_SEED = 2**64 - 1  # the dice take a seed of up to 128 bits; a printed seed and the ones after it stay in 64
MAX_MATCHES = 10_000_000
MAX_WORKERS = 256
CALIBRATE = 0.05  # seconds of trials played here first, to time one trial
PAYS = 0.4  # a pool of processes is started only for this many seconds of trials left on one process
PER_WORKER = 0.2  # ... and only as many workers as have this much to do each
PIECE = 250  # the fewest trials handed out at once (a piece's round trip costs well under a millisecond)


def cores() -> int:
    """The cores this process may run on, at least one. Not less the load average: it
    counts this very command's start-up and every short-lived process of the last minute,
    and a pool on a busy machine costs only its start-up (this process plays too, and
    plays whatever the workers have not taken)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def plan_workers(left: int, seconds_each: float, free: int) -> int:
    """How many processes (this one among them) to play `left` trials on, from the time one
    trial took here and the cores `free`: one unless the trials left would take PAYS
    seconds or more on one; then one per core, but no more than keeps each busy PER_WORKER
    seconds (starting a process costs more than a short share saves) and no more than there
    are pieces of PIECE trials to share."""
    alone = left * seconds_each
    if free <= 1 or alone < PAYS:
        return 1
    return max(1, min(free, int(alone / PER_WORKER), left // PIECE, MAX_WORKERS))


def _share_out(ruleset_id: str, booking: Booking, at: int, end: int, workers: int, add: Callable[[Counter, int, int], None]) -> None:
    """Seeds `at` to `end` played by `workers` processes: this one and `workers - 1` others.
    The others are handed pieces from the front, two each ahead, while this one plays
    pieces from the back; a piece is a share of what is left (guided self-scheduling), so
    the pieces shrink toward the end and whoever is faster plays more, and no one waits
    long for the last piece."""
    low, high = at, end  # the seeds no one has been handed yet

    def piece() -> int:
        return min(high - low, max(PIECE, min(CHUNK * 4, (high - low) // (2 * workers))))

    running: dict = {}
    with ProcessPoolExecutor(max_workers=workers - 1, initializer=_worker_start, initargs=(ruleset_id, booking)) as pool:
        while low < high or running:
            while low < high and len(running) < 2 * (workers - 1):
                count = piece()
                running[pool.submit(_worker_play, (low, count))] = count
                low += count
            if low < high:
                count = piece()
                high -= count
                add(*_play(ruleset_id, booking, high, count), count)
                finished = [future for future in running if future.done()]
            else:
                finished = list(wait(running, return_when=FIRST_COMPLETED).done)
            for future in finished:
                add(*future.result(), running.pop(future))


def simulate(
    booking: Booking,
    matches: int,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> OddsReport:
    """Play `booking` `matches` times, seeds `seed`..`seed + matches - 1`, on `workers`
    processes (None: as many as pay, `plan_workers`). The counts are the same however many
    processes play them."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise FedError(Problem(None, "--seed", f"{str(seed)[:30]}{'...' if len(str(seed)) > 30 else ''} is not a seed: "
                               f"give a whole number from 0 to {MAX_SEED} (2^64 - 1)", "fedtool odds"))
    if not 1 <= matches <= MAX_MATCHES:
        raise FedError(Problem(None, "-n", f"{matches} matches: give 1 to {MAX_MATCHES:,}", "fedtool odds"))
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise FedError(Problem(None, "--workers", f"{workers} processes: give 1 to {MAX_WORKERS}", "fedtool odds"))
    ruleset_id = booking.wrestlers[0].ruleset
    ruleset = get_ruleset(ruleset_id)
    seed = secrets.randbits(48) if seed is None else seed
    end = seed + matches
    tally: Counter = Counter()
    rounds = 0
    at = seed

    def add(part: Counter, part_rounds: int, count: int) -> None:
        nonlocal rounds
        tally.update(part)
        rounds += part_rounds
        if progress:
            progress(count)

    if workers is None:  # time a few trials here, then decide
        started = time.perf_counter()
        count = 16
        while at < end:
            count = min(count, end - at)
            add(*_play(ruleset_id, booking, at, count), count)
            at += count
            spent = time.perf_counter() - started
            if spent >= CALIBRATE:
                break
            count *= 2
        workers = plan_workers(end - at, spent / (at - seed), cores())
    workers = min(workers, max(1, (end - at) // PIECE))  # never more processes than pieces to share
    if workers == 1:
        while at < end:
            count = min(CHUNK, end - at)
            add(*_play(ruleset_id, booking, at, count), count)
            at += count
    else:
        _share_out(ruleset_id, booking, at, end, workers, add)
    names = ruleset.odds_sides(booking)

    def share(label: str, count: int) -> Share:
        low, high = wilson(count, matches)
        return Share(label, count, count / matches, low, high)

    wins = [sum(n for (w, _), n in tally.items() if w == i) for i in range(len(names))]
    draws = matches - sum(wins)
    outcomes = [*(share(f"{name} wins", won) for name, won in zip(names, wins)), share("draw", draws)]
    finishes = []
    for (winner, method), count in sorted(tally.items(), key=lambda item: -item[1]):
        label = method.replace("_", " ") if winner is None else f"{names[winner]} by {method.replace('_', ' ')}"
        finishes.append(share(label, count))
    varies = ruleset.rolls_per_trial(booking)
    grid = ("rolled per match" if varies else "fixed") if ruleset.has_grid else None
    return OddsReport(matches, names, seed, grid, outcomes, finishes, rounds / matches, ruleset.odds_unit(booking))
