"""What a Mat Clash match's star rating is made of (docs/ratings.md), read from its scraps'
events: never a roll (`Ruleset.rating_inputs`)."""

from __future__ import annotations

from fractions import Fraction

from .engine import ScrapResult

TECH_FALL_MARGIN = 15  # 4.8: a win by 15 points or more is a technical fall (engine._by_score)
BIG_PLAY = 4  # a card played for this many points or more is a high spot


def _leader(score: tuple) -> int | None:
    return None if score[0] == score[1] else 0 if score[0] > score[1] else 1


def scrap_inputs(scrap: ScrapResult) -> dict:
    """One Quick Scrap: a lead change when the wrestler ahead on the score changes (4.4, a
    tie between is no leader); near falls: falls defended ("no_fall", 4.15-4.17); high
    spots: cards played for 4 points or more; closeness: 1 less the final margin over the
    technical fall's 15 (4.8), so a scrap settled in overtime is 1."""
    lead_changes, near_falls, high_spots = 0, 0, 0
    ahead = None
    for event in scrap.events:
        now = _leader(event.score)
        if now is not None:
            if ahead is not None and now != ahead:
                lead_changes += 1
            ahead = now
        if event.kind == "no_fall":
            near_falls += 1
        elif event.kind == "play" and event.points >= BIG_PLAY:
            high_spots += 1
    margin = abs(scrap.score[0] - scrap.score[1])
    closeness = max(Fraction(0), 1 - Fraction(margin, TECH_FALL_MARGIN))
    return {"closeness": closeness, "lead_changes": lead_changes, "near_falls": near_falls, "high_spots": high_spots}


def rating_inputs(scraps: list[ScrapResult], team: tuple | None) -> dict:
    """A Quick Scrap's own; a Dual Match's counts are its scraps' added up, with a lead
    change too whenever the team ahead on team points changes after a scrap (4.8), and its
    closeness the smaller team score over the two's mean (1 level). Every finish of Mat
    Clash is a clean one (it has no count-outs or disqualifications)."""
    parts = [scrap_inputs(s) for s in scraps]
    total = {key: sum(p[key] for p in parts) for key in ("lead_changes", "near_falls", "high_spots")}
    if team is None:
        closeness = parts[0]["closeness"] if parts else Fraction(0)
    else:
        points, ahead = [0, 0], None
        for scrap in scraps:
            points[scrap.winner] += scrap.team_points
            now = _leader(tuple(points))
            if now is not None:
                if ahead is not None and now != ahead:
                    total["lead_changes"] += 1
                ahead = now
        low, high = sorted(team)
        closeness = Fraction(2 * low, low + high) if high else Fraction(1, 2)
    return {"closeness": closeness, **total, "finish": "clean", "grudge": False}
