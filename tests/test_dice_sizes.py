"""The seeded dice refuse a die they cannot roll fairly from a byte (fewer than 1 or more than
255 sides), whatever else is in the same roll, and roll every other die in range."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import SeededDice


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 255), max_size=6), st.integers(-3, 600).filter(lambda n: not 1 <= n <= 255), st.integers(0, 6))
def test_a_die_out_of_range_is_refused_wherever_it_stands(good, bad, at):
    sizes = good[:at] + [bad] + good[at:]
    dice = SeededDice(7)
    with pytest.raises(ValueError, match="sides cannot be rolled"):
        dice.roll_each(sizes, "test")
    assert dice.log == []  # nothing rolled, nothing logged


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 255), max_size=8))
def test_dice_in_range_roll_in_range(sizes):
    faces = SeededDice(11).roll_each(sizes, "test")
    assert len(faces) == len(sizes) and all(1 <= face <= sides for face, sides in zip(faces, sizes))
