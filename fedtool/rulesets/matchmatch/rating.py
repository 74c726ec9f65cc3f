"""What a MatchMatch match's star rating is made of (docs/ratings.md), read from its result:
never a roll (`Ruleset.rating_inputs`)."""

from __future__ import annotations

from fractions import Fraction

from .match import COUNTOUT, DQ, PIN, SUBMISSION, MatchResult, MatchSetup

FINISHES = {PIN: "clean", SUBMISSION: "clean", COUNTOUT: "countout", DQ: "dq"}  # the rest (time limit, doubles): a draw
HIGH_SPOTS = frozenset(("high_spot", "high_risk"))  # the round types that count as high spots (III.2)


def leader(taken: list[int]) -> int | None:
    """The side ahead: the one that has taken the least damage (None when tied for it)."""
    least = min(taken)
    ahead = [i for i, t in enumerate(taken) if t == least]
    return ahead[0] if len(ahead) == 1 else None


def rating_inputs(setup: MatchSetup, result: MatchResult) -> dict:
    """Closeness: the damage taken by the two sides that took least, the smaller over their
    mean (1 when even; 0 when one took none and the other some; 1/2 for no damage at all).
    A lead change: the side that has taken the least damage changes (a tie between is no
    leader). Near falls: victory checks that reached a 2 count (IV.2.f). High spots: each
    High Spot or High Risk round a side played. Finish: pin or submission is clean."""
    n = len(setup.sides)
    taken = [0] * n
    lead_changes, near_falls, high_spots = 0, 0, 0
    ahead = None
    for rnd in result.rounds:
        for hit in rnd.hits:
            taken[hit.side] += hit.taken
        now = leader(taken)
        if now is not None:
            if ahead is not None and now != ahead:
                lead_changes += 1
            ahead = now
        near_falls += sum(1 for check in rnd.checks if check.count == 2)
        high_spots += sum(1 for side in rnd.sides if side is not None and side.action.type.id in HIGH_SPOTS)
    low, high = sorted(taken)[:2]
    closeness = Fraction(1, 2) if high == 0 else Fraction(2 * low, low + high)
    return {"closeness": closeness, "lead_changes": lead_changes, "near_falls": near_falls, "high_spots": high_spots,
            "finish": FINISHES.get(result.method, "draw") if result.winner is not None else "draw", "grudge": False}
