"""What a Face to the Mat match's star rating is made of (docs/ratings.md), read from its
result's lines and track: never a roll (`Ruleset.rating_inputs`)."""

from __future__ import annotations

from fractions import Fraction

from .engine import Result, Setup
from .rules import data

FINISHES = {"pin": "clean", "finisher": "clean", "reached": "clean", "countout": "countout", "dq": "dq"}  # else a draw
BIG_MOVE = 4  # a move of this many points or more is a high spot (7: the scoring system)


def leader(positions: tuple) -> int | None:
    """The side furthest along the track (None when tied for it)."""
    best = max(positions)
    ahead = [i for i, p in enumerate(positions) if p == best]
    return ahead[0] if len(ahead) == 1 else None


def rating_inputs(setup: Setup, result: Result, grudge: bool) -> dict:
    """Closeness: how far along the track the runner-up stood at the end, over the leader's
    distance from Start (1 level, 0 still at Start). A lead change: the side furthest along
    changes (8: the track). Near falls: pin attempts and finishers that did not end a fall
    (8.a kickouts, 8.b a finisher countered). High spots: moves of 4 or more points and
    objects brought into play (10.b). Finish: a pin or finisher is clean."""
    start = (setup.tables or data())["track"]["start"]
    lead_changes, high_spots, attempts = 0, 0, 0
    ahead = None
    for line in result.lines:
        if len(line.positions) >= 2:
            now = leader(line.positions)
            if now is not None:
                if ahead is not None and now != ahead:
                    lead_changes += 1
                ahead = now
        if line.kind in ("pin", "finisher"):
            attempts += 1
        elif line.kind == "move" and line.points >= BIG_MOVE or line.kind == "object" and line.points > 0:
            high_spots += 1
    falls = sum(1 for _, _, how, _ in result.eliminations if how in ("pin", "finisher"))
    if result.winner is not None and result.method in ("pin", "finisher") and not any(
            by == result.winner and fac == result.facs and how == result.method for _, by, how, fac in result.eliminations):
        falls += 1  # the deciding fall, when the eliminations do not list it
    first, second = sorted(result.positions, reverse=True)[:2] if len(result.positions) >= 2 else (0, 0)
    closeness = Fraction(1, 2) if first <= start else Fraction(max(0, second - start), first - start)
    return {"closeness": closeness, "lead_changes": lead_changes, "near_falls": max(0, attempts - falls), "high_spots": high_spots,
            "finish": FINISHES.get(result.method, "draw") if result.winner is not None else "draw", "grudge": grudge}
