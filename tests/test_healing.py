"""Weekly healing, MatchMatch IV.2.e: "Each week, they heal 1d6 worth of injury points.
If they wrestle that week, that roll is modified by -4 (meaning they will heal 2 points
maximum, and have a 2/3 chance of not healing at all)."
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.matchmatch import MatchMatch


def state(injury: int) -> dict:
    return {"push_level": 2, "push_points": Fraction(0), "injury": injury}


@pytest.mark.parametrize(
    "injury, wrestled, roll, after",
    [
        (3, False, 2, 1),  # heals the full 1d6
        (2, False, 6, 0),  # never below 0
        (3, True, 5, 2),  # 5 - 4 = 1 healed
        (3, True, 6, 1),  # "they will heal 2 points maximum"
        (1, True, 4, 1),  # 4 - 4 = 0: no healing
        (1, True, 1, 1),  # a negative heal does not add injury
    ],
)
def test_weekly_healing(injury, wrestled, roll, after):
    dice = ScriptedDice([roll])
    changes = MatchMatch().close_week({"sam": state(injury)}, {"sam"} if wrestled else set(), dice, {"sam": "Friendly Sam"})
    healed_to = changes["sam"][0]["injury"] if "sam" in changes else injury
    assert healed_to == after
    assert dice.remaining == 0
    assert dice.log == [(0, "Friendly Sam healing 1d6", bytes([roll]))]


def test_only_the_injured_roll_and_in_a_fixed_order():
    dice = ScriptedDice([3, 6])
    states = {"zed": state(2), "bob": state(0), "amy": state(1)}
    changes = MatchMatch().close_week(states, set(), dice, {})
    assert [purpose for _, purpose, _ in dice.log] == ["amy healing 1d6", "zed healing 1d6"]
    assert changes["amy"][0]["injury"] == 0 and changes["zed"][0]["injury"] == 0
    assert "bob" not in changes


def test_healing_two_thirds_of_wrestlers_heal_nothing():
    """The rulebook's own figure: with -4, faces 1-4 heal nothing (4/6 = 2/3)."""
    healed = 0
    for face in range(1, 7):
        dice = ScriptedDice([face])
        if MatchMatch().close_week({"w": state(5)}, {"w"}, dice, {}):
            healed += 1
    assert Fraction(6 - healed, 6) == Fraction(2, 3)
