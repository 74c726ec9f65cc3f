"""Hand-computed checks of MatchMatch Part II (Push Levels).

Quotes are from /work/shared/rules/001_cc6d7bfeac840419.txt, Part II. Points are exact
Fractions throughout: 1/3 + 1/3 + 1/3 must be exactly 1.

Rulings followed where the book is silent: a win over a higher level rises one level
keeping points; the loser to a lower level drops one level keeping points; levels never
go below 1 (points floor at 0 at level 1) and cap at `top` (points capped at 2 there).
"""

from __future__ import annotations

from fractions import Fraction as F

from fedtool.rulesets.matchmatch.push import Push, after_match, points_for_win

TOP = 5


def test_book_example_level_three_with_0_3_losing_half_becomes_level_two_with_1_8():
    """II: "If you were at Level 3, with 0.3 points, and lost .5 points, then you would
    become Level 2 with 1.8 points."  0.3 - 0.5 = -0.2; 2 - 0.2 = 1.8 = 9/5."""
    after = Push(3, F(3, 10)).lose(F(1, 2))
    assert after == Push(2, F(9, 5))
    assert after.points == F(9, 5)


def test_reverse_of_book_example_carries_past_two_points():
    """II: "The process is reversed when moving up Push Levels."  Level 2 with 1.8
    gaining 0.5: 2.3 - 2 = 0.3 at Level 3."""
    assert Push(2, F(9, 5)).gain(F(1, 2), TOP) == Push(3, F(3, 10))


def test_reaching_exactly_zero_does_not_drop():
    """II: "If you drop below 0 points, instead you drop a level" -- 0 is not below 0."""
    assert Push(3, F(1, 2)).lose(F(1, 2)) == Push(3, F(0))


def test_two_push_points_rise_a_level():
    """II: "When you have two push points you rise a level." 1.5 + 0.5 = 2 -> Level 3, 0."""
    assert Push(2, F(3, 2)).gain(F(1, 2), TOP) == Push(3, F(0))


def test_points_for_win_by_level_difference():
    """II: "If you defeat someone at your own push level you gain a push point. If you
    defeat someone at one level lower you gain 1/2 a point, 2 levels lower is 1/3 point
    and so on." """
    assert points_for_win(Push(3), Push(3)) == F(1)
    assert points_for_win(Push(3), Push(2)) == F(1, 2)
    assert points_for_win(Push(3), Push(1)) == F(1, 3)
    assert points_for_win(Push(4), Push(1)) == F(1, 4)


def test_one_third_three_times_is_exactly_one():
    """II: "2 levels lower is 1/3 point"; three such wins give exactly 1 point, and the
    loser (Level 1 with 1 point) loses the same 1/3 each time, ending at exactly 0
    (not below 0, so no drop -- and no float residue)."""
    winner, loser = Push(3, F(0)), Push(1, F(1))
    for _ in range(3):
        winner, loser = after_match(winner, loser, TOP)
    assert winner == Push(3, F(1))
    assert loser == Push(1, F(0))
    assert isinstance(winner.points, F) and winner.points == 1


def test_equal_level_win_gains_one_and_loser_loses_one():
    """II: "If you defeat someone at your own push level you gain a push point." / "If you
    lose to someone of equal rank you lose a full push point."
    Winner 1/2 + 1 = 3/2; loser 1/2 - 1 = -1/2 -> Level 2 with 2 - 1/2 = 3/2."""
    assert after_match(Push(3, F(1, 2)), Push(3, F(1, 2)), TOP) == (Push(3, F(3, 2)), Push(2, F(3, 2)))


def test_equal_level_win_to_two_points_rises():
    """II: "When you have two push points you rise a level." 1 + 1 = 2 -> Level 3 with 0;
    the loser 1 - 1 = 0 stays at Level 2."""
    assert after_match(Push(2, F(1)), Push(2, F(1)), TOP) == (Push(3, F(0)), Push(2, F(0)))


def test_win_over_higher_level_rises_one_level_and_loser_drops_one():
    """II: "If you defeat someone at a higher push level, you immediately rise a push
    level." / "If you lose a match to someone of lower rank you automatically drop a push
    level." (both keep their points -- ruling)."""
    assert after_match(Push(2, F(1, 2)), Push(4, F(3, 2)), TOP) == (Push(3, F(1, 2)), Push(3, F(3, 2)))


def test_win_one_level_down_half_point_each_way():
    """II: "one level lower you gain 1/2 a point" / "If you lose a match to someone of
    higher rank you lose push points equal to the amount they gain."
    Winner 1 + 1/2 = 3/2; loser 1 - 1/2 = 1/2."""
    assert after_match(Push(3, F(1)), Push(2, F(1)), TOP) == (Push(3, F(3, 2)), Push(2, F(1, 2)))


def test_win_two_levels_down_third_each_way_with_loser_dropping():
    """II: "2 levels lower is 1/3 point"; the loser loses the same 1/3.
    Winner (L4) 1/2 + 1/3 = 5/6; loser (L2) 1/4 - 1/3 = -1/12 -> Level 1 with
    2 - 1/12 = 23/12."""
    assert after_match(Push(4, F(1, 2)), Push(2, F(1, 4)), TOP) == (Push(4, F(5, 6)), Push(1, F(23, 12)))


def test_level_one_points_floor_at_zero():
    """Ruling: levels never go below 1; points floor at 0 at Level 1.
    Level 1 with 1/4 losing 1/2 (to a Level 2) -> Level 1 with 0; winner 0 + 1/2."""
    assert Push(1, F(1, 4)).lose(F(1)) == Push(1, F(0))
    assert after_match(Push(2, F(0)), Push(1, F(1, 4)), TOP) == (Push(2, F(1, 2)), Push(1, F(0)))


def test_top_level_points_cap_at_two():
    """Ruling: levels cap at `top`, points capped at 2 there.
    Level 5 (top) with 3/2 beating a Level 5 with 0: 3/2 + 1 -> capped 2; the loser
    0 - 1 -> Level 4 with 2 - 1 = 1."""
    assert Push(TOP, F(3, 2)).gain(F(1), TOP) == Push(TOP, F(2))
    assert after_match(Push(TOP, F(3, 2)), Push(TOP, F(0)), TOP) == (Push(TOP, F(2)), Push(TOP - 1, F(1)))


def test_win_over_higher_level_can_reach_top():
    """II: "If you defeat someone at a higher push level, you immediately rise a push
    level." Level 4 beating Level 5 (top): 5 and 4, points kept."""
    assert after_match(Push(4, F(1)), Push(TOP, F(1)), TOP) == (Push(TOP, F(1)), Push(4, F(1)))
