"""Star ratings: a match's from what happened in it, a card's from its matches (docs/ratings.md).

A ruleset says what happened (`Ruleset.rating_inputs`: closeness, lead changes, near
falls, high spots, the finish, a grudge), read from the result and the rolls already made;
the core adds the title at stake and turns it into stars, 0 to 5 in quarter stars, with
exact fractions. Nothing here rolls: a rating never changes a match or its dice log.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

BASE = Fraction(1, 2)  # every match starts here
CLOSENESS = Fraction(3, 2)  # times the ruleset's closeness (0 a rout, 1 dead even)
EACH = {"lead_changes": Fraction(1, 4), "near_falls": Fraction(1, 4), "high_spots": Fraction(1, 8)}  # per one counted
CAP = {"lead_changes": 4, "near_falls": 4, "high_spots": 4}  # counted at most this many
FINISH = {"clean": Fraction(1, 2), "countout": Fraction(0), "dq": Fraction(-1, 4), "draw": Fraction(-1, 2)}
TITLE = Fraction(1, 2)  # a title at stake (`for_title:` on the card)
GRUDGE = Fraction(1, 4)  # a match that settles a grudge
TOP = Fraction(5)
MAIN_EVENT_WEIGHT = 2  # the card's last match counts twice in the card's rating


def quarter(value: Fraction) -> Fraction:
    """To the nearest quarter star, a half-quarter up; then within 0 to 5."""
    steps = (Fraction(value) * 4 + Fraction(1, 2)).__floor__()
    return min(TOP, max(Fraction(0), Fraction(steps, 4)))


def _count(inputs: dict, key: str) -> int:
    value = inputs.get(key, 0)
    return max(0, min(CAP[key], int(value))) if isinstance(value, int) and not isinstance(value, bool) else 0


def _closeness(inputs: dict) -> Fraction:
    return min(Fraction(1), max(Fraction(0), Fraction(inputs.get("closeness", 0))))


def raw_stars(inputs: dict, title: bool) -> Fraction:
    """The formula before rounding (docs/ratings.md)."""
    total = BASE + CLOSENESS * _closeness(inputs)
    for key, each in EACH.items():
        total += each * _count(inputs, key)
    total += FINISH.get(inputs.get("finish"), Fraction(0))
    if title:
        total += TITLE
    if inputs.get("grudge"):
        total += GRUDGE
    return total


def match_rating(inputs: dict | None, title: bool) -> dict | None:
    """A match's rating as the league keeps it (in the match's summary): its stars (a
    number, a multiple of 0.25) and what they were made of; None for no inputs."""
    if inputs is None:
        return None
    stars = quarter(raw_stars(inputs, title))
    parts: dict[str, Any] = {"stars": float(stars)}
    parts["closeness"] = str(_closeness(inputs))
    for key in EACH:
        parts[key] = _count(inputs, key)
    parts["finish"] = inputs.get("finish") if inputs.get("finish") in FINISH else None
    parts["title"] = bool(title)
    parts["grudge"] = bool(inputs.get("grudge"))
    return parts


def card_rating(stars: Iterable[float | None]) -> float | None:
    """A card's rating: the mean of its rated matches with the last (the main event)
    counted twice, to the nearest quarter star; None when no match is rated."""
    rated = [Fraction(s).limit_denominator(4) for s in stars if s is not None]
    if not rated:
        return None
    total = sum(rated) + (MAIN_EVENT_WEIGHT - 1) * rated[-1]
    return float(quarter(total / (len(rated) + MAIN_EVENT_WEIGHT - 1)))


def match_of_the_night(stars: list[float | None]) -> int | None:
    """The index of the best-rated match (the first of equals, in card order); None when
    none is rated or the card has a single match."""
    rated = [(s, -i) for i, s in enumerate(stars) if s is not None]
    if len(stars) < 2 or not rated:
        return None
    return -max(rated)[1]
