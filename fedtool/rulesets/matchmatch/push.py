"""Push levels and push points (MatchMatch Part II), kept as exact fractions.

Within a level a wrestler holds 0 to 2 points. Two points raise the level; going below
0 drops a level with "2 minus the leftover amount". A win over a higher level raises a
level at once; a loss to a lower level drops one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

POINTS_TO_RISE = Fraction(2)


@dataclass(frozen=True, order=True)
class Push:
    """A wrestler's push: its level and the points towards the next."""

    level: int
    points: Fraction = Fraction(0)

    def __str__(self) -> str:
        return f"level {self.level} with {format_points(self.points)} points"

    def gain(self, amount: Fraction, top: int) -> "Push":
        """Add points; every 2 points carry into the next level (capped at `top`)."""
        level, points = self.level, self.points + amount
        while points >= POINTS_TO_RISE and level < top:
            level, points = level + 1, points - POINTS_TO_RISE
        if level == top:
            points = min(points, POINTS_TO_RISE)
        return Push(level, points)

    def lose(self, amount: Fraction) -> "Push":
        """Take points away; below 0 a level is lost and the points become 2 minus the leftover."""
        level, points = self.level, self.points - amount
        while points < 0 and level > 1:
            level, points = level - 1, points + POINTS_TO_RISE
        return Push(level, max(points, Fraction(0)))

    def up(self, top: int) -> "Push":
        return Push(min(self.level + 1, top), self.points)

    def down(self, top: int) -> "Push":
        """A level lost, points kept; but a level with 2 points is the next level with 0 (II:
        "When you have two push points you rise a level"), so a top-level wrestler holding the
        top's 2 points ends at the top with 0 (docs/rulings/matchmatch.md, "Push levels")."""
        return Push(max(self.level - 1, 1), self.points).gain(Fraction(0), top)


def points_for_win(winner: Push, loser: Push) -> Fraction:
    """Part II: own level 1 point; one level lower 1/2, two lower 1/3 "and so on"."""
    below = winner.level - loser.level
    return Fraction(1, below + 1)


def after_match(winner: Push, loser: Push, top: int) -> tuple[Push, Push]:
    """Both wrestlers' push after a decisive result (Part II, "Going up" and "Dropping")."""
    if winner.level < loser.level:
        # "If you defeat someone at a higher push level, you immediately rise a push level."
        # "If you lose a match to someone of lower rank you automatically drop a push level."
        return winner.up(top), loser.down(top)
    amount = points_for_win(winner, loser)
    # "If you lose to someone of equal rank you lose a full push point"; to a higher rank,
    # "push points equal to the amount they gain".
    return winner.gain(amount, top), loser.lose(amount)


def format_points(points: Fraction) -> str:
    """Points as a person writes them: 1, 1/2, 1 1/3."""
    if points.denominator == 1:
        return str(points.numerator)
    whole, rest = divmod(points.numerator, points.denominator)
    frac = f"{rest}/{points.denominator}"
    return f"{whole} {frac}" if whole else frac


# ---------------------------------------------------------------- the league's changes told (issue 16)

_PUSH_REASON = re.compile(r"^(beat|lost to) (.+) \(Part II\): level (\d+) \(([\d /]+) pts\) -> level (\d+) \(([\d /]+) pts\)$")
_INJURY_REASON = re.compile(r"^(\d+) injury points? \(IV\.2\.e\)$")
_HEALED_REASON = re.compile(r"^healed (\d+) \(1d6 = (\d+)( - \d+ for wrestling)?\)$")


def _points(text: str) -> Fraction:
    """Points as `format_points` writes them ("1 1/3") read back."""
    return sum((Fraction(part) for part in text.split()), Fraction(0))


def _push_points(amount: Fraction) -> str:
    return f"{format_points(amount)} push point{'s' if amount > 1 else ''}"


def _push_clause(verb: str, other: str, before: Push, after: Push) -> str:
    """Part II's change after a decisive match, as what the wrestler did: "rises to push
    level 3 by beating Brother Bob"."""
    if verb == "beat":
        if after.level > before.level:
            toward = f" ({_push_points(after.points)} toward the next)" if after.points else ""
            return f"rises to push level {after.level} by beating {other}{toward}"
        if after.points > before.points:
            return (f"gains {_push_points(after.points - before.points)} by beating {other} "
                    f"(push level {after.level}, {format_points(after.points)} of the {format_points(POINTS_TO_RISE)} points to rise)")
        return f"stays at push level {after.level}, the top, after beating {other}"
    if after.level < before.level:
        kept = f" ({_push_points(after.points)} to build on)" if after.points else ""
        return f"drops to push level {after.level} after losing to {other}{kept}"
    if after.points < before.points:
        return (f"gives up {_push_points(before.points - after.points)} in defeat to {other} "
                f"(push level {after.level}, {format_points(after.points)} left)")
    return f"stays at push level {after.level}, the lowest, despite losing to {other}"


def tell_change(name: str, reason: str) -> list[str] | None:
    """A wrestler's change to the league as the card tells it (`MatchMatch.tell_league_change`),
    read from the reasons `league_effects` and `close_week` write (Part II's push, IV.2.e's
    injuries and healing): one sentence, its clauses joined. None: a reason this does not
    know, told as it stands."""
    clauses = []
    for part in reason.split("; "):
        if found := _PUSH_REASON.match(part):
            verb, other, level0, points0, level1, points1 = found.groups()
            clauses.append(_push_clause(verb, other, Push(int(level0), _points(points0)), Push(int(level1), _points(points1))))
        elif found := _INJURY_REASON.match(part):
            count = int(found.group(1))
            clauses.append(f"picks up {count} injury point{'s' if count > 1 else ''}")
        elif found := _HEALED_REASON.match(part):
            count, roll = int(found.group(1)), found.group(2)
            less = " less 4 for wrestling this week" if found.group(3) else ""
            clauses.append(f"heals {count} injury point{'s' if count > 1 else ''} (1d6 rolled {roll}{less})")
        else:
            return None
    if not clauses:
        return None
    return [f"{name} {', and '.join(clauses)}."]
