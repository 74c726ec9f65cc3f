"""Face to the Mat's numbers: TV grades, the d66 reading, kickout and finisher ranges, and
the ruleset's data files (track, FAC deck, TV tables, charts, reels)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from fedtool.kernel.yamlio import load_yaml
from .checks import check_tables

DATA = Path(__file__).parent / "data"
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


FILES = {"track": "track.yaml", "facs": "facs.yaml", "tv": "tv_moves.yaml", "wild": "wild_cards.yaml",
         "reels": "highlight_reels.yaml", "advanced": "advanced.yaml"}


@cache
def data() -> dict:
    """The packaged data files, read once."""
    return _read({name: (DATA / file, f"fedtool/rulesets/facemat/data/{file}") for name, file in FILES.items()})


def fed_data(folder: Path, shown: str) -> dict:
    """The tables with a fed's own files from `folder` in place of the packaged ones; each file
    is checked (docs/rulings/face-to-the-mat.md) and read again only when it changes."""
    chosen = {}
    for name, file in FILES.items():
        path = folder / file
        chosen[name] = (path, f"{shown}/{file}") if path.is_file() else (DATA / file, f"fedtool/rulesets/facemat/data/{file}")
    stamp = tuple((str(path), path.stat().st_mtime_ns) for path, _ in chosen.values())
    return _read_cached(stamp, tuple((name, shown_as) for name, (_, shown_as) in chosen.items()))


@cache
def _read_cached(stamp: tuple, shown: tuple) -> dict:
    return _read({name: (Path(path), shown_as) for (path, _), (name, shown_as) in zip(stamp, shown)})


def _read(files: dict) -> dict:
    tables = {name: load_yaml(path, shown) for name, (path, shown) in files.items()}
    tables["facs_file"] = tables["facs"]
    check_tables(tables, {name: shown for name, (_, shown) in files.items()})
    tables["facs"] = tables["facs"]["cards"]
    return tables
