"""The 3x3 style grid of III.1: rolled when a week opens, or given by hand on the card."""

from __future__ import annotations

from typing import Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import FedError, Problem
from .rules import Vocabulary, vocabulary

LETTERS = ("A", "B", "C")


def roll_grid(dice: Dice, vocab: Vocabulary | None = None) -> list[list[str]]:
    """Roll a grid: rows 1-3, columns A-C, each cell 1d8 on the style list.

    Teamwork is rerolled: the grid style joins the "+" styles (III.1) and Teamwork
    can never be a "+" style (docs/rulings/matchmatch.md, "Rolling the grid").
    """
    vocab = vocab or vocabulary()
    styles = vocab.style_ids
    grid = []
    for number in range(1, 4):
        row = []
        for letter in LETTERS:
            while True:
                style = styles[dice.die(len(styles), f"grid {letter}{number}") - 1]
                if style != "teamwork":
                    break
            row.append(style)
        grid.append(row)
    return grid


def read_grid(value: Any, file: str, where: str, vocab: Vocabulary | None = None) -> list[list[str]]:
    """A grid written by hand: three rows of three style names (row 1 first, columns A-C)."""
    vocab = vocab or vocabulary()
    rule = "MatchMatch III.1: a 3x3 grid, columns A-C, rows 1-3"
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(r, list) and len(r) == 3 for r in value)):
        raise FedError(Problem(file, where, "a grid is three rows of three styles", rule))
    grid = []
    for row_index, row in enumerate(value):
        out = []
        for col, word in enumerate(row):
            style = vocab.style(word)
            if style is None or style == "teamwork":
                raise FedError(
                    Problem(file, where, f"grid cell {LETTERS[col]}{row_index + 1}: {word!r} is not a style that can be a \"+\" style", rule)
                )
            out.append(style)
        grid.append(out)
    return grid


def grid_style(grid: list[list[str]], letter: str, number: str) -> str:
    """The style at the intersection of the first name's letter and the second name's number."""
    return grid[int(number) - 1][LETTERS.index(letter)]


def cell_style(grid: list[list[str]], cell: str) -> str:
    """The style in a whole cell ("B3"): the pick of a third or later side (docs/rulings)."""
    return grid[int(cell[1]) - 1][LETTERS.index(cell[0])]


def format_grid(grid: list[list[str]], vocab: Vocabulary | None = None) -> list[list[str]]:
    """The grid as abbreviations, for files and announcements."""
    vocab = vocab or vocabulary()
    return [[vocab.style_by_id[s].abbr for s in row] for row in grid]
