"""The registry of rulesets: one package each, listed here, imported only when named.

A card, a sheet or a title names a ruleset by its id; `get_ruleset` imports that ruleset's
package the first time it is asked for, so a week of MatchMatch matches never imports
Mat Clash or Face to the Mat. Adding a ruleset is a package beside these (see base.py)
and one line here.
"""

from __future__ import annotations

import importlib

from fedtool.kernel.errors import FedError, Problem

from .base import Ruleset

# id -> the class that implements it, "module:Class"; the order is the standings' and the site's
REGISTRY = {
    "matchmatch": "fedtool.rulesets.matchmatch:MatchMatch",
    "matclash": "fedtool.rulesets.matclash:MatClash",
    "facemat": "fedtool.rulesets.facemat:FaceToTheMat",
    "madmatch": "fedtool.rulesets.madmatch:MadMatch",
}

_loaded: dict[str, Ruleset] = {}


def check_ruleset(ruleset_id: str, where: tuple[str | None, str | None] = (None, None)) -> str:
    """`ruleset_id` if fedtool knows it (nothing is imported), else a FedError naming where."""
    if ruleset_id not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise FedError(Problem(where[0], where[1], f"unknown ruleset {ruleset_id!r}; fedtool knows {known}", "rulesets"))
    return ruleset_id


def get_ruleset(ruleset_id: str, where: tuple[str | None, str | None] = (None, None)) -> Ruleset:
    """The ruleset called `ruleset_id` (its package imported now if not before), or a FedError naming where it was asked for."""
    if ruleset_id not in _loaded:
        module, _, name = REGISTRY[check_ruleset(ruleset_id, where)].partition(":")
        _loaded[ruleset_id] = getattr(importlib.import_module(module), name)()
    return _loaded[ruleset_id]


def all_rulesets() -> list[Ruleset]:
    """Every ruleset, in the registry's order (each imported): for messages that name them all."""
    return [get_ruleset(ruleset_id) for ruleset_id in REGISTRY]


def ruleset_order(ruleset_id: str) -> int:
    """Where a ruleset sorts (the registry's order; an unknown id last)."""
    return list(REGISTRY).index(ruleset_id) if ruleset_id in REGISTRY else len(REGISTRY)
