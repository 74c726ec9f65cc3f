"""MatchMatch strategies (rulebook Part III): reading and checking them against the sheet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from ...errors import Collector
from ...validation import FileModel, place, validate
from ...yamlio import line_of
from .rules import RoundType, Vocabulary, vocabulary
from .sheet import Sheet

GRID_LETTERS = ("A", "B", "C")  # III.1: "First name chooses A-C"
GRID_NUMBERS = ("1", "2", "3")  # III.1: "Second name chooses 1-3"
MAX_EXPLANATION = 4000


class ActionModel(FileModel):
    round: int | None = None
    target: str
    type: str
    explanation: str = Field(default="", max_length=MAX_EXPLANATION)
    notes: str = Field(default="", max_length=MAX_EXPLANATION)


class StrategyModel(FileModel):
    wrestler: str | None = None
    plus: list[str]
    minus: str
    grid: str | int
    rounds: list[ActionModel]


@dataclass(frozen=True)
class Action:
    """One round action (III.2): type, target, explanation."""

    round: int
    type: RoundType
    target: str  # a style id or "stamina"
    explanation: str
    line: int | None = None


@dataclass(frozen=True)
class Strategy:
    plus: tuple[str, str]
    minus: str
    grid: str  # "A".."C" or "1".."3"
    rounds: tuple[Action, ...]
    file: str = ""
    default: bool = False  # True when the fed's default strategy stood in


def read_strategy(
    data: Any,
    file: str,
    sheet: Sheet,
    side: int,
    rounds: int,
    push_level: int,
    vocab: Vocabulary | None = None,
) -> Strategy:
    """Check a parsed strategy against Part III and the wrestler's sheet.

    `side` is 0 for the first name on the card (grid letter), 1 for the second (grid number);
    `push_level` is the wrestler's level when the match is run (it caps Special rounds, II).
    """
    vocab = vocab or vocabulary()
    model = validate(StrategyModel, data, file, "MatchMatch strategy (III)")
    problems = Collector()
    rule_styles = "MatchMatch III.1"

    plus: list[str] = []
    for index, word in enumerate(model.plus):
        style = vocab.style(word)
        if style is None:
            problems.add(file, place(data, ("plus", index)), f"{word!r} is not a style; the styles are {vocab.style_names()}", rule_styles)
        elif style == "teamwork":
            problems.add(file, place(data, ("plus", index)), "Teamwork cannot be a \"+\" style", rule_styles)
        else:
            plus.append(style)
    if len(model.plus) != 2:
        problems.add(file, place(data, ("plus",)), f"give exactly two \"+\" styles, not {len(model.plus)}", rule_styles)
    elif len(plus) == 2 and plus[0] == plus[1]:
        problems.add(file, place(data, ("plus",)), f"the two \"+\" styles must be different (both are {vocab.style_name(plus[0])})", rule_styles)
    minus = vocab.style(model.minus)
    if minus is None:
        problems.add(file, place(data, ("minus",)), f"{model.minus!r} is not a style; the styles are {vocab.style_names()}", rule_styles)

    grid = str(model.grid).strip().upper()
    axis, label = (GRID_LETTERS, "a letter A-C") if side == 0 else (GRID_NUMBERS, "a number 1-3")
    if grid not in axis:
        who = "the first name on the card" if side == 0 else "the second name on the card"
        problems.add(file, place(data, ("grid",)), f"grid pick {model.grid!r}: {who} chooses {label}", rule_styles)

    actions: list[Action] = []
    for index, raw in enumerate(model.rounds):
        number = index + 1
        where = lambda field: place(data, ("rounds", index, field), f"round {number}")  # noqa: E731
        if raw.round is not None and raw.round != number:
            problems.add(file, where("round"), f"round actions must be in order: entry {number} says round {raw.round}", "MatchMatch III.2")
        round_type = vocab.round_type(raw.type)
        if round_type is None:
            hint = " (name the kind of Special: Finisher, Cripple, High Impact, Vile Cheat or Submission)" if raw.type.strip().lower() == "special" else ""
            problems.add(file, where("type"), f"{raw.type!r} is not a round type{hint}; the types are {vocab.type_names()}", "MatchMatch III.2")
        target = vocab.target(raw.target)
        if target is None:
            problems.add(file, where("target"), f"target {raw.target!r} is neither a style nor Stamina", "MatchMatch III.2: a round must have as a target one of the styles or Stamina")
        if round_type and target:
            text = "\n".join(t for t in (raw.explanation, raw.notes) if t)
            actions.append(Action(number, round_type, target, text, line_of(data, ('rounds', index))))

    if len(model.rounds) != rounds:
        problems.add(file, place(data, ("rounds",)), f"the match is {rounds} rounds; the strategy gives {len(model.rounds)} round actions", "MatchMatch III.2: a round action must be submitted for each round")
    specials = [a for a in actions if a.type.special]
    if len(specials) > push_level:
        problems.add(
            file,
            place(data, ("rounds",)),
            f"{len(specials)} Special rounds (rounds {', '.join(str(a.round) for a in specials)}) but push level {push_level} allows {push_level}",
            "MatchMatch II/III.2: Special rounds no more than the push level",
        )
    high_spots = [a for a in actions if a.type.high_spot]
    if len(high_spots) > sheet.high_spots:
        problems.add(
            file,
            place(data, ("rounds",)),
            f"{len(high_spots)} High Spot rounds (rounds {', '.join(str(a.round) for a in high_spots)}) but the sheet bought {sheet.high_spots}",
            "MatchMatch III.2: one High Spot round for each High Spot purchased",
        )
    problems.raise_if_any()
    return Strategy((plus[0], plus[1]), minus, grid, tuple(actions), file)

