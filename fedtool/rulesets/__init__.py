"""The registry of rulesets: one package each, listed here."""

from __future__ import annotations

from ..errors import FedError, Problem
from .base import Ruleset
from .matchmatch import MatchMatch
from .facemat import FaceToTheMat
from .matclash import MatClash

RULESETS: dict[str, Ruleset] = {r.id: r for r in (MatchMatch(), MatClash(), FaceToTheMat())}


def get_ruleset(ruleset_id: str, where: tuple[str | None, str | None] = (None, None)) -> Ruleset:
    """The ruleset called `ruleset_id`, or a FedError naming where it was asked for."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(RULESETS)
        raise FedError(Problem(where[0], where[1], f"unknown ruleset {ruleset_id!r}; fedtool knows {known}", "rulesets")) from None
