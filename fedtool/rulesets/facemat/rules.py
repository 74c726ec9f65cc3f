"""Face to the Mat's numbers: TV grades, the d66 reading, kickout and finisher ranges, and
the ruleset's data files (track, FAC deck, TV tables, charts, reels)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ...yamlio import load_yaml

DATA = Path(__file__).parent / "data"
GRADES = ("AAA", "AA", "A", "B", "C", "D", "E", "F")  # 3.a: "Range: AAA (best) to F (worst)"
SKILLS = ("AGILE", "CHEAT", "FAVORITE", "HEAVY", "HELPED", "MEAN", "OBJECT", "POWERFUL", "QUICK", "SMART", "SPECIALTY", "STRONG")
SYMBOLS = ("star", "square", "circle")  # 3.d
# 8.a: "Success if any roll falls within TV Grade range"
KICKOUT = {"AAA": 43, "AA": 36, "A": 33, "B": 26, "C": 23, "D": 16, "E": 13, "F": 11}
D66 = re.compile(r"^\s*([1-6][1-6])\s*(?:-\s*([1-6][1-6]))?\s*$")


def d66(tens: int, ones: int) -> int:
    """3.e: "2d6 roll where one die is the 10s column, and one die is the 1s column"."""
    return tens * 10 + ones


def parse_range(text: str) -> tuple[int, int] | None:
    """A d66 range such as 11-33 (or a single 11); None if it holds a 0, a 7 or worse."""
    m = D66.match(str(text))
    if not m:
        return None
    low, high = int(m.group(1)), int(m.group(2) or m.group(1))
    return (low, high) if low <= high else None


def kicks_out(grade: str, roll: int) -> bool:
    """8.a: a kickout roll succeeds within 11 up to the grade's top (AAA 11-43 ... F 11)."""
    return 11 <= roll <= KICKOUT[grade]


@cache
def data() -> dict:
    """Every data file, read once."""
    return {
        "track": load_yaml(DATA / "track.yaml"),
        "facs": load_yaml(DATA / "facs.yaml")["cards"],
        "tv": load_yaml(DATA / "tv_moves.yaml"),
        "wild": load_yaml(DATA / "wild_cards.yaml"),
        "reels": load_yaml(DATA / "highlight_reels.yaml"),
        "advanced": load_yaml(DATA / "advanced.yaml"),
    }
