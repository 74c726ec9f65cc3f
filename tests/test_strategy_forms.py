"""Strategies as players write them (MatchMatch III.2 and Part V): per-style plans,
combinations, conditionals, and what each does in a match."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fedtool.kernel.errors import FedError
from fedtool.rulesets.matchmatch.strategy import check_coverage, read_strategy
from fedtool.kernel.yamlio import parse_yaml
from mm_builders import make_setup, make_sheet, run, uniform_grid

SHEET = make_sheet("a", stamina=10, styles={"brawling": 4, "martial_arts": 2, "cheating": 3, "technical": 2}, high_spots=1, push_level=1)
OTHER = make_sheet("b", stamina=10, styles={"technical": 3, "power": 3, "brawling": 1, "martial_arts": 3, "cheating": 1})

PART_V_BY_STYLE = """
plus: [Cheating, Brawling]
minus: MA
grid: C
styles:
  Brawling:
    - {rounds: "1", target: MA, type: Normal, explanation: Drive Sam into the corner.}
    - {rounds: "2", target: MA, type: High Risk, explanation: Snap mare and a fist drop.}
    - {rounds: 3+, target: HF, type: Normal, explanation: More beating.}
  Martial Arts:
    - {rounds: All, target: MA, type: Defense, explanation: Out of my element.}
"""


def strategy(text: str, side: int = 0, rounds: int = 3, push_level: int = 1, **options):
    return read_strategy(parse_yaml(text, "s.yaml"), "s.yaml", SHEET, side, rounds, push_level, **options)


def test_per_style_plans_count_occurrences_of_the_round_style():
    """Part V: "break the actions up by round style ... make sure that the rounds in each
    style repeat": Brawling's "1" is the first Brawling round, "3+" the third and after."""
    s = strategy(PART_V_BY_STYLE, rounds=5)
    assert not s.fixed
    assert s.choose(4, "brawling", 1, {})[0].type.id == "normal"
    assert s.choose(5, "brawling", 2, {})[0].type.id == "high_risk"
    third = s.choose(1, "brawling", 3, {})[0]
    assert (third.type.id, third.target, third.source) == ("normal", "high_flying", "Brawling 3+")
    assert s.choose(2, "martial_arts", 7, {})[0].type.id == "defensive"


def test_a_style_without_a_plan_is_refused_for_that_match():
    """The plan must cover every style in the match's table (Part V's warning)."""
    s = strategy(PART_V_BY_STYLE, rounds=3)
    problems = check_coverage(s, ["cheating", "brawling", "technical", "martial_arts", "brawling"], 3)
    assert [p.place for p in problems] == ["style Cheating", "style Technical"]
    assert problems[0].message == ("no action for the 1st Cheating round: the per-round list leaves rounds 1-3 open, "
                                   "and there is no plan for Cheating, which is in this match's style table")


def test_a_range_that_stops_short_is_named():
    text = PART_V_BY_STYLE.replace("rounds: 3+, target: HF", "rounds: 3-4, target: HF")
    problems = check_coverage(strategy(text, rounds=6), ["brawling", "martial_arts"], 6)
    assert [p.message.split(":")[0] for p in problems] == ["no action for the 5th Brawling round"]


def test_per_round_entries_win_over_style_plans():
    """A combination (Part V: "you could do a combination of the two"): round 2 is written
    out; the other rounds follow the style plan."""
    text = PART_V_BY_STYLE + "rounds:\n  - {round: 2, target: Stamina, type: Illegal, explanation: Quarters.}\n"
    s = strategy(text, rounds=3)
    assert s.choose(2, "brawling", 1, {})[0].type.id == "illegal"
    assert s.choose(3, "brawling", 1, {})[0].type.id == "normal"


def test_conditionals_on_own_state():
    """Part V: "Clear conditionals are things like: If I haven't used my Specials by round 15,
    then use one now!\""""
    text = PART_V_BY_STYLE + (
        "conditions:\n"
        "  - {when: {specials_unused_by_round: 3}, target: Stamina, type: Finisher, explanation: Now!}\n"
        "  - {when: {own_stamina_below: 4}, target: Stamina, type: Defensive, explanation: Hang on.}\n"
    )
    s = strategy(text, rounds=5)
    state = {"specials_left": 1, "high_spots_left": 0, "stamina": 10, "opponent_stamina": 10}
    assert s.choose(2, "brawling", 1, state)[0].type.id == "normal"  # before round 3
    chosen, why = s.choose(3, "brawling", 1, state)
    assert chosen.type.id == "finisher" and why == "conditional: from round 3 on, while a Special is left"
    spent = dict(state, specials_left=0, stamina=3)
    assert s.choose(3, "brawling", 1, spent)[0].type.id == "defensive"


def test_conditionals_on_the_opponent_are_refused_unless_the_fed_allows_them():
    """Part V: "Conditionals based on the enemy's states may not be allowed"."""
    text = PART_V_BY_STYLE + "conditions:\n  - {when: {opponent_stamina_below: 3}, target: Stamina, type: Normal, explanation: Cover.}\n"
    with pytest.raises(FedError) as caught:
        strategy(text)
    assert "s.yaml, line 13, field conditions.0.when.opponent_stamina_below: opponent_stamina_below: this fed does not allow conditions on the opponent's state" in str(caught.value)
    assert strategy(text, opponent_conditions=True).conditions[0].text == "while the opponent's Stamina is below 3"


def test_a_condition_that_cannot_be_evaluated():
    text = PART_V_BY_STYLE + "conditions:\n  - {when: {crowd_is_hot: 1}, target: Stamina, type: Normal}\n"
    with pytest.raises(FedError, match="'crowd_is_hot' cannot be evaluated; conditions are round_at_least, specials_unused_by_round"):
        strategy(text)


def test_overspent_specials_are_played_as_normal_rounds():
    """II: "a wrestler may use a number of Special rounds equal to his Push Level": a plan
    that would use a second Special at push level 1 plays a Normal round instead.
    Table (d6): Brawling, Cheating, Technical, Power, Weight (grid); roll 1 twice: Brawling.
    Round 1: A Finisher 1+1+1 = 3 + 4 + 4 = 11; B 1+1+1 = 3 + 1 = 4; A by 7: 2 damage to B's
    Stamina 10 -> 8; check 1+1+1 = 3 + 2 (Finisher) + 1 (B's Weight is 0) - 8 - 5 = -7.
    Round 2: the plan says Finisher again; none left: Normal, 1+1+1 = 3 + 4 = 7; B 4; A by 3:
    1 damage -> 7; check 1+1+1 = 3 + 1 - 7 - 5 = -8 (no Finisher bonus)."""
    text = "plus: [Brawling, Cheating]\nminus: Weight\ngrid: A\nstyles:\n  Brawling:\n    - {rounds: All, target: Stamina, type: Finisher}\n"
    a = strategy(text, rounds=2)
    b = read_strategy(parse_yaml("plus: [Technical, Power]\nminus: Weight\ngrid: 1\nrounds:\n"
                                 "  - {target: Stamina, type: Normal}\n  - {target: Stamina, type: Normal}\n", "b.yaml"),
                      "b.yaml", OTHER, 1, 2, 1)
    setup = make_setup(SHEET, a, OTHER, b, uniform_grid("weight"), rounds=2)
    setup = replace(setup, sides=(replace(setup.sides[0], specials=1), setup.sides[1]))
    result = run(setup, [1] * 20)  # per round: style, A 3d6, B 3d6, A's victory check
    one, two = result.rounds
    assert (one.sides[0].action.type.id, one.sides[0].total, one.checks[0].total) == ("finisher", 11, -7)
    assert (two.sides[0].action.type.id, two.sides[0].total, two.checks[0].total) == ("normal", 7, -8)
    assert two.sides[0].why == "plan for Brawling All; no Special left: played as a Normal round"
    assert result.final_stamina == [10, 7]
