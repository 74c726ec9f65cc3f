"""Small builders for hand-computed MatchMatch tests.

Everything here only *builds* inputs (sheets, strategies, match setups) and runs the
engine on scripted dice; nothing here encodes a rule. The figures a test expects must
be computed by hand in the test itself, from the rulebook.

Typical use::

    a = make_sheet("alpha", stamina=10, styles={"technical": 5})
    b = make_sheet("bravo", styles={"technical": 3})
    sa = make_strategy(("technical", "power"), "teamwork", "A", [("normal", "stamina")])
    sb = make_strategy(("martial_arts", "brawling"), "teamwork", "1", [("normal", "stamina")])
    setup = make_setup(a, sa, b, sb, uniform_grid("high_flying"), rounds=1)
    result = run(setup, [1, 1, 1, 2, 1, 1, 1, 1, 1, 1])   # every face consumed, or it fails

Faces must be listed in the engine's dice order (see the test module's docstring).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Iterable, Sequence

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.matchmatch import engine
from fedtool.rulesets.matchmatch.rules import vocabulary
from fedtool.rulesets.matchmatch.sheet import Sheet
from fedtool.rulesets.matchmatch.strategy import Action, Strategy

VOCAB = vocabulary()
STYLE_IDS: tuple[str, ...] = VOCAB.style_ids  # technical, power, ..., teamwork
STAMINA = "stamina"


def make_sheet(
    id: str,
    *,
    stamina: int = 10,
    styles: dict[str, int] | None = None,
    defenses: dict[str, int] | None = None,
    high_spots: int = 3,
    push_level: int = 5,
    push_points: Fraction = Fraction(0),
    name: str | None = None,
) -> Sheet:
    """A sheet; every style and defense not given is 0.

    The defaults (3 High Spots, Push Level 5) are generous so that a test's round
    actions are never refused for lack of High Spots or Special rounds.
    """
    unknown = set(styles or {}) | set(defenses or {})
    unknown -= set(STYLE_IDS)
    if unknown:
        raise ValueError(f"unknown style ids: {sorted(unknown)}")
    full_styles = {s: 0 for s in STYLE_IDS}
    full_styles.update(styles or {})
    full_defenses = {s: 0 for s in STYLE_IDS}
    full_defenses.update(defenses or {})
    return Sheet(
        id=id,
        name=name or id.title(),
        owner_name=f"{id} owner",
        owner_email=f"{id}@example.org",
        stamina=stamina,
        styles=full_styles,
        defenses=full_defenses,
        high_spots=high_spots,
        push_level=push_level,
        push_points=push_points,
    )


def with_changes(sheet: Sheet, *, stamina: int | None = None, styles: dict[str, int] | None = None,
                 defenses: dict[str, int] | None = None) -> Sheet:
    """A copy of `sheet` with some stamina / style / defense values replaced."""
    return dataclasses.replace(
        sheet,
        stamina=sheet.stamina if stamina is None else stamina,
        styles={**sheet.styles, **(styles or {})},
        defenses={**sheet.defenses, **(defenses or {})},
    )


def act(round_no: int, type_id: str, target: str = STAMINA, explanation: str = "test move") -> Action:
    """One round action; `type_id` is a vocabulary round-type id ("normal", "high_risk", ...)."""
    return Action(round=round_no, type=VOCAB.round_types[type_id], target=target, explanation=explanation)


def make_strategy(
    plus: tuple[str, str],
    minus: str,
    grid: str,
    actions: Sequence[tuple[str, str]],
) -> Strategy:
    """A strategy; `actions` is one (type_id, target) pair per round, round 1 first."""
    rounds = tuple(act(i, type_id, target) for i, (type_id, target) in enumerate(actions, start=1))
    return Strategy(plus=tuple(plus), minus=minus, grid=grid, rounds=rounds)


def uniform_grid(style: str) -> list[list[str]]:
    """A 3x3 grid holding the same style everywhere (the grid pick then never matters)."""
    return [[style] * 3 for _ in range(3)]


def make_setup(
    sheet1: Sheet,
    strategy1: Strategy,
    sheet2: Sheet,
    strategy2: Strategy,
    grid: list[list[str]],
    *,
    rounds: int = 1,
    tag: bool = False,
    injury: tuple[int, int] = (0, 0),
    dq_threshold: tuple[int, int] = (10, 10),
    stipulation: engine.Stipulation | None = None,
    match_id: str = "test-match",
    rules: "engine.Rules | None" = None,
) -> engine.MatchSetup:
    """A two-side match; side 1 (index 0) is `sheet1`, side 2 (index 1) is `sheet2`."""
    sides = (
        engine.Side(sheet1.id, sheet1.name, sheet1, strategy1, injury=injury[0], dq_threshold=dq_threshold[0]),
        engine.Side(sheet2.id, sheet2.name, sheet2, strategy2, injury=injury[1], dq_threshold=dq_threshold[1]),
    )
    kwargs = {} if stipulation is None else {"stipulation": stipulation}
    if rules is not None:  # the fed's readings (fed settings); the rulebook's by default
        kwargs["rules"] = rules
    return engine.MatchSetup(match_id=match_id, sides=sides, grid=grid, rounds=rounds, tag=tag, **kwargs)


def run(setup: engine.MatchSetup, faces: Iterable[int], *, exact: bool = True) -> engine.MatchResult:
    """Resolve `setup` on scripted dice.

    With `exact` (the default) every scripted face must have been used: this pins the
    number and order of rolls, not only the outcome.
    """
    dice = ScriptedDice(list(faces), source="hand-computed test")
    result = engine.resolve(setup, dice)
    if exact:
        assert dice.remaining == 0, f"{dice.remaining} scripted faces were not rolled"
    return result
