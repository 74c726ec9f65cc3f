"""Referees, ref slack (rulebook VII.1) and specialty-match stipulations (VII), from data."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.validation import validate
from fedtool.kernel.yamlio import load_yaml
from .engine import Stipulation
from .rules import DATA, Vocabulary, vocabulary

SLACK_CAP = 12  # VII.1: "If the DQ threshold is less than 12, it may never be raised above 12."
SLACK_MAX_ABOVE_CAP = 2  # "If it is 12 or higher, then it can be raised by two points maximum."
ROLL = re.compile(r"^\s*(\d{1,2})\s*(?:-\s*(\d{1,2}))?\s*$")


def slack_threshold(base: int, slack: int) -> int:
    """A wrestler's DQ threshold under a referee: the referee's, raised by his ref slack (VII.1)."""
    if base >= SLACK_CAP:
        return base + min(slack, SLACK_MAX_ABOVE_CAP)
    return min(base + slack, SLACK_CAP)


@dataclass(frozen=True)
class Referee:
    """A referee of the fed's: how strict (`dq_threshold`) and which 2d6 rolls draw him."""

    name: str
    type: str
    dq_threshold: int
    rolls: tuple[int, ...]


def read_referees(raw: list, file: str) -> list[Referee]:
    """The fed's referees; if any has a `roll`, together they must cover 2-12 exactly once."""
    referees = []
    for index, entry in enumerate(raw):
        model = validate("fedtool.rulesets.matchmatch.officialsmodel:RefereeModel", entry, file, "fed settings: referees (MatchMatch VII.1)")
        rolls: tuple[int, ...] = ()
        if model.roll is not None:
            m = ROLL.match(str(model.roll))
            if not m:
                raise FedError(Problem(file, f"referee {model.name}", f"roll {model.roll!r} must be a 2d6 result or range such as 4-10", "MatchMatch VII.1"))
            low, high = int(m.group(1)), int(m.group(2) or m.group(1))
            rolls = tuple(range(low, high + 1))
        referees.append(Referee(model.name, model.type, model.dq_threshold, rolls))
    if any(r.rolls for r in referees):
        covered = sorted(n for r in referees for n in r.rolls)
        if covered != list(range(2, 13)):
            raise FedError(Problem(file, "referees", f"the referees' rolls cover {covered}; a 2d6 table must cover 2 to 12, each once", "MatchMatch VII.1"))
    return referees


def sample_referees() -> list[Referee]:
    """The rulebook's five sample referees (data/referees.yaml)."""
    return read_referees(load_yaml(DATA / "referees.yaml"), "referees.yaml")


def roll_referee(referees: list[Referee], dice: Dice) -> Referee:
    """Roll 2d6 on the fed's referee table (VII.1)."""
    faces = dice.roll(2, 6, "referee 2d6")
    total = faces[0] + faces[1]
    return next(r for r in referees if total in r.rolls)


def find_referee(referees: list[Referee], name: str, file: str, where: str) -> Referee:
    for referee in referees:
        if referee.name.lower() == str(name).strip().lower():
            return referee
    known = ", ".join(r.name for r in referees) or "none"
    raise FedError(Problem(file, where, f"referee {name!r} is not one of the fed's referees ({known})", "MatchMatch VII.1: referees are listed in the fed settings"))


def read_stipulation(stip_id: str, raw: Any, file: str, vocab: Vocabulary | None = None) -> Stipulation:
    vocab = vocab or vocabulary()
    model = validate("fedtool.rulesets.matchmatch.officialsmodel:StipulationModel", raw, file, f"stipulation {stip_id} (MatchMatch VII)")

    def styles(words: list[str], field: str) -> tuple[str, ...]:
        out = []
        for word in words:
            style = vocab.style(word)
            if style is None:
                raise FedError(Problem(file, f"stipulation {stip_id}, field {field}", f"{word!r} is not a style; the styles are {vocab.style_names()}", "MatchMatch VII"))
            out.append(style)
        return tuple(out)

    forbidden = []
    for word in model.forbidden:
        round_type = vocab.round_type(word)
        if round_type is None:
            raise FedError(Problem(file, f"stipulation {stip_id}, field forbidden", f"{word!r} is not a round type; the types are {vocab.type_names()}", "MatchMatch VII"))
        forbidden.append(round_type.id)
    return Stipulation(
        name=model.name,
        added_styles=styles(model.added_styles, "added_styles"),
        pin=model.pin,
        injury_chance=model.injury_chance,
        injury_damage=model.injury_damage,
        damage=model.damage,
        halved_styles=styles(model.halved_styles, "halved_styles"),
        dq_threshold=model.dq_threshold,
        forbidden=tuple(forbidden),
        description=model.description,
        id=stip_id,
        victory=model.victory,
        victory_title=model.victory_title,
        near_victory=model.near_victory,
    )


def stipulations(fed_defined: dict | None, file: str = "rosters/fed.yaml", data_dir: Path = DATA) -> dict[str, Stipulation]:
    """The packaged specialty matches, with the fed's own added or replacing them by id."""
    table = dict(load_yaml(data_dir / "stipulations.yaml"))
    table.update(fed_defined or {})
    return {stip_id: read_stipulation(str(stip_id), raw, file if stip_id in (fed_defined or {}) else "stipulations.yaml") for stip_id, raw in table.items()}
