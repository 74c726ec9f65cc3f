"""A week's card (strategies/week-NN/card.yaml), what `fedtool open` rolled for it, and
where each side's strategy file is (and a late one held for the fedhead)."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place, validate
from fedtool.kernel.yamlio import line_of, load_yaml

if TYPE_CHECKING:
    from .settings import Fed

CARD_FILE = "card.yaml"
OPENING_FILE = "opening.yaml"
HELD_FOLDER = "held"  # strategies/week-NN/held/: late strategies waiting for the fedhead
MATCH_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


# the fields every match on a card has (`cardmodel.MatchModel`'s; tests/test_startup.py checks): a
# ruleset's own are the rest
COMMON_FIELDS = frozenset(("id", "ruleset", "title", "sides", "rounds", "for_title", "strategies"))


@dataclass
class CardMatch:
    """One booked match: its id, ruleset, sides and ruleset options as written on the card."""

    id: str
    position: int
    ruleset: str
    sides: list[str]
    title: str
    rounds: int | None
    raw: dict  # the card's mapping for this match (ruleset-specific fields live here)
    line: int | None
    sides_line: int | None
    strategy_files: dict[str, str] = field(default_factory=dict)
    opening: dict = field(default_factory=dict)  # what `fedtool open` rolled for it
    for_title: str | None = None  # the title this match is for (checked by fedtool.league.records.check_card_titles)
    champions: dict = field(default_factory=dict)  # side -> titles he holds going into the week (fedtool.week.booking.card_context)

    @property
    def ruleset_fields(self) -> dict:
        """The match's fields beyond the common ones: its ruleset's own (grid, favored, ...)."""
        return {key: value for key, value in self.raw.items() if key not in COMMON_FIELDS}


@dataclass
class Card:
    """A week's card as read from its card.yaml: its matches in card order, its title and notes."""

    folder: Path
    shown: str  # the card file as messages name it
    title: str
    notes: str
    rounds: int | None
    matches: list[CardMatch]
    opened: bool
    deadline: datetime.datetime | None = None
    fed: "Fed | None" = None  # the fed the card belongs to

    def strategy_path(self, match: CardMatch, wrestler_id: str) -> Path:
        """Where a side's strategy is (see `strategy_path`)."""
        return strategy_path(self, match, wrestler_id)


def load_card(fed: "Fed", folder: Path, week: int | None = None) -> Card:
    """Read card.yaml (and opening.yaml if the week was opened) from a card folder of `fed`."""
    shown_folder, default_ruleset = fed.shown(folder), fed.settings.ruleset
    path = folder / CARD_FILE
    shown = f"{shown_folder}/{CARD_FILE}"
    if not path.exists():
        raise FedError(Problem(shown, None, "no card here: write the week's card.yaml first", "fed layout"))
    data = load_yaml(path, shown)
    model = validate("fedtool.fed.cardmodel:CardModel", data, shown, "card file")  # pydantic only for a card not checked before
    problems = Collector()
    if week is not None and model.week is not None and model.week != week:
        problems.add(shown, place(data, ("week",)), f"this card says week {model.week} but sits in the folder for week {week}", "card file")
    matches: list[CardMatch] = []
    seen: set[str] = set()
    for index, m in enumerate(model.matches):
        match_id = m.id or f"m{index + 1}"
        where = place(data, ("matches", index))
        if not MATCH_ID.match(match_id):
            problems.add(shown, where, f"match id {match_id!r} must be lowercase letters, digits and dashes", "card file")
        elif match_id in seen:
            problems.add(shown, where, f"match id {match_id!r} is used twice", "card file")
        seen.add(match_id)
        if len(set(m.sides)) != len(m.sides):
            problems.add(shown, where, "a wrestler cannot be on two sides of one match", "card file")
        for side in m.strategies:
            if side not in m.sides:
                problems.add(shown, place(data, ("matches", index, "strategies", side)), f"{side!r} is not a side of this match", "card file")
        matches.append(
            CardMatch(
                id=match_id,
                position=index + 1,
                ruleset=m.ruleset or default_ruleset,
                sides=list(m.sides),
                title=m.title,
                rounds=m.rounds or model.rounds,
                raw=data["matches"][index],
                line=data["matches"].lines[index],
                sides_line=line_of(data, ("matches", index, "sides")),
                strategy_files=dict(m.strategies),
                for_title=m.for_title,
            )
        )
    booked: dict[str, list[str]] = {}
    for match in matches:
        for side in match.sides:
            booked.setdefault(side, []).append(match.id)
    for match in matches:
        for side in match.sides:
            if len(booked[side]) > 1 and side not in match.strategy_files:
                problems.add(
                    shown,
                    f"line {match.line}, match {match.id}",
                    f"{side} is booked in matches {', '.join(booked[side])}: name the strategy file for each (strategies: {{{side}: FILE}})",
                    "card file",
                )
    problems.raise_if_any()
    opened = (folder / OPENING_FILE).exists()
    if opened:
        opening_shown = f"{shown_folder}/{OPENING_FILE}"
        opening = load_yaml(folder / OPENING_FILE, opening_shown) or {}
        if not isinstance(opening, dict) or not isinstance(opening.get("matches", {}), dict):
            raise FedError(Problem(opening_shown, None, "expected `matches:` mapping match ids to what was rolled", "opening file"))
        for match in matches:
            rolled = opening.get("matches", {}).get(match.id) or {}
            if not isinstance(rolled, dict):
                raise FedError(Problem(opening_shown, place(opening, ("matches", match.id)), f"match {match.id}: expected a mapping of what was rolled (grid, referee, ...)", "opening file"))
            match.opening = dict(rolled)
    deadline = model.deadline
    if deadline is None and opened and opening.get("deadline") is not None:  # the schedule's, set when the week opened
        deadline = _opening_deadline(opening["deadline"], f"{shown_folder}/{OPENING_FILE}")
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=datetime.timezone.utc)  # a deadline without a zone is UTC
    return Card(folder, shown, model.title, model.notes, model.rounds, matches, opened, deadline, fed)


def _opening_deadline(value: object, shown: str) -> datetime.datetime:
    if isinstance(value, datetime.datetime):
        return value
    try:
        return datetime.datetime.fromisoformat(str(value))
    except ValueError:
        raise FedError(Problem(shown, "field deadline", f"{str(value)[:40]!r} is not a date and time such as 2026-11-27T18:00:00+00:00", "opening file")) from None


STRATEGY_SUFFIXES = (".yaml", ".txt")  # YAML, or the rulebook's plain-text layout


def strategy_path(card: Card, match: CardMatch, wrestler_id: str) -> Path:
    """Where a side's strategy is: named on the card, or <wrestler-id>.yaml (or .txt, the
    rulebook's plain-text layout) in the card folder.

    Names on the card are file names inside the card folder only; nothing climbs out of it.
    """
    name = match.strategy_files.get(wrestler_id)
    if isinstance(name, Path):  # a file checked where it lies (`fedtool read FILE --week N`), never a name from a card
        return name
    if name is not None:
        if Path(name).name != name or name.startswith("."):
            raise FedError(Problem(card.shown, f"match {match.id}", f"strategy file {name!r} must be a plain file name in the card folder", "card file"))
        return card.folder / name
    found = [path for path in (card.folder / f"{wrestler_id}{suffix}" for suffix in STRATEGY_SUFFIXES) if path.exists()]
    if len(found) > 1:
        raise FedError(Problem(card.shown, f"match {match.id}", f"both {found[0].name} and {found[1].name} are there: keep one strategy per side", "card file"))
    return found[0] if found else card.folder / f"{wrestler_id}.yaml"


def held_strategies(card_folder: Path) -> dict[str, Path]:
    """Wrestler id -> the late strategy held for the fedhead in a card folder's held/."""
    folder = card_folder / HELD_FOLDER
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix in STRATEGY_SUFFIXES and p.is_file()}
