"""The ruleset interface. Each ruleset is one package implementing these hooks.

The weekly run (fedtool.week) knows nothing of any ruleset's rules: it asks the ruleset
to read sheets, check strategies, roll what opening a week needs, resolve matches with
the dice it is handed, say how the league changes, and describe a match for the writeup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..card import Card, CardMatch
from ..dice import Dice


@dataclass
class WrestlerRecord:
    """What the league keeps of any wrestler whatever the ruleset."""

    id: str
    name: str
    ruleset: str
    owner_name: str
    owner_email: str
    sheet: Any  # the ruleset's checked sheet
    members: tuple[str, ...] = ()  # a team's members


@dataclass
class Booking:
    """A match ready to resolve: the ruleset's setup plus what the run needs to know."""

    match: CardMatch
    setup: Any
    wrestlers: list[WrestlerRecord]
    notes: list[str] = field(default_factory=list)  # e.g. "played the fed's default strategy"
    extra: dict = field(default_factory=dict)  # ruleset facts for the results (referee, stipulation)


class Ruleset:
    """Base class: a ruleset overrides every hook. `id` is the name used in files."""

    id: str = ""
    name: str = ""
    template: str = ""  # the match writeup template stem, e.g. "matchmatch/match"

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict[str, "WrestlerRecord"]) -> WrestlerRecord:
        """Check a parsed roster sheet; raise FedError naming the line and rule.

        `members` holds the checked sheets of the ids `members_of(data)` named (for teams).
        """
        raise NotImplementedError

    def members_of(self, data: Any) -> list[str]:
        """The wrestler ids a sheet is made of (a tag team's members), or none."""
        return []

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        """League state for a wrestler new to the database (from its sheet)."""
        raise NotImplementedError

    def open_match(self, card: Card, match: CardMatch, dice: Dice, settings: dict) -> dict:
        """What must exist before players write strategies (a grid, say); stored in opening.yaml."""
        return {}

    def book(self, card: Card, match: CardMatch, wrestlers: list[WrestlerRecord], states: dict[str, dict], settings: dict) -> Booking:
        """Read and check the strategies for a match and build its setup; raise FedError."""
        raise NotImplementedError

    def resolve(self, booking: Booking, dice: Dice) -> Any:
        """Play the match with the dice handed in. Pure: returns the result, writes nothing.

        The result carries `log`: the match's rolls, taken from the dice (`dice.take_log()`)."""
        raise NotImplementedError

    def outcomes(self, booking: Booking, result: Any) -> list[str]:
        """'win', 'loss' or 'draw' per side."""
        raise NotImplementedError

    def league_effects(self, booking: Booking, result: Any, states: dict[str, dict], settings: dict) -> dict[str, tuple[dict, str]]:
        """New state and the reason, per wrestler whose state the match changes."""
        raise NotImplementedError

    def close_week(self, states: dict[str, dict], wrestled: set[str], dice: Dice, names: dict[str, str]) -> dict[str, tuple[dict, str]]:
        """End-of-week changes (healing, say), per wrestler changed."""
        return {}

    def summary(self, booking: Booking, result: Any) -> dict:
        """Machine-readable result for `fedtool results --json` and the database."""
        raise NotImplementedError

    def describe(self, booking: Booking, result: Any) -> dict:
        """Everything the writeup template needs, as plain data."""
        raise NotImplementedError

    def announce(self, card: Card, match: CardMatch, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        """What the announcement for an opened match shows."""
        return {}
