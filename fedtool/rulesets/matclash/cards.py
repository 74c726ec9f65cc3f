# cython: language_level=3, annotation_typing=False
"""Mat Clash cards and decks, read from the ruleset's data files (a fed may replace the deck)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.validation import place
from fedtool.kernel.yamlio import load_yaml

DATA = Path(__file__).parent / "data"
BASE_DECK_SIZE = 55  # the published size of the base deck
SETS = ("wave1", "wave2", "wave3", "short_print")
# What Beastin' (Wild) may stand for: "Takedown, Escape, Reversal, Defense, Momentum, Stalling"
WILD_AS = ("takedown", "escape", "reversal", "defense", "momentum", "stalling")


class _Draw:
    """What a policy's `turn` answers when it draws a card now (`DRAW`, the one instance)."""

    def __repr__(self) -> str:
        return "DRAW"


DRAW = _Draw()


@dataclass(frozen=True, eq=False)
class Card:
    """A card of the catalogue. A card is its catalogue entry: every copy in a deck is the one
    object (`build_deck`), so cards compare by identity, which keeps a hand's `remove` and `in`
    at C speed (the engine's hot path)."""

    id: str
    name: str
    action: str
    points: int
    kind: str  # base, wild, pin, mat_beast, specialty
    set: str
    timing: str
    effect: str
    defence: str

    def __repr__(self) -> str:
        return f"<{self.id}>"

    @cached_property
    def own(self) -> Play:
        """This card played as itself (`as_(its action)`), kept as an attribute: the hot path's."""
        return self.as_(self.action)

    @cached_property
    def stands(self) -> tuple:
        """Beastin' as each card it may stand for, and as itself (against MAT BEAST and Spladle):
        (the hand index's key, "wild as ACTION", and the Play), made once: what the engine's hand
        index keeps for a wild card."""
        return tuple((f"wild as {action}", self.as_(action)) for action in (*WILD_AS, "beastin"))

    def as_(self, action: str) -> Play:
        """This card played as `action` (its own, or what Beastin' stands for): one Play made
        once per card and action, so the engine's turn options are built without making any."""
        plays = self.__dict__.get("_plays")
        if plays is None:
            plays = self.__dict__["_plays"] = {}  # a frozen dataclass keeps its cache beside its fields
        play = plays.get(action)
        if play is None:
            play = plays[action] = Play(self, action)
        return play


@dataclass(frozen=True)
class Play:
    """A card played, and what it is played as (Beastin' stands for a base card). `key` is how
    a policy ranks it (the card's id; `id:action` for Beastin'), `text` how the log names it."""

    card: Card
    action: str  # the action applied: the card's own, or the base card Beastin' stands for
    key: str = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        card, action = self.card, self.action
        object.__setattr__(self, "key", f"{card.id}:{action}" if card.action == "wild" else card.id)
        object.__setattr__(self, "text", card.name if card.action == action else f"{card.name} as {action.replace('_', ' ').title()}")

    def __str__(self) -> str:
        return self.text


@cache
def catalogue(path: Path = DATA / "cards.yaml") -> dict[str, Card]:
    return {card_id: Card(card_id, **fields) for card_id, fields in load_yaml(path).items()}


def card_id(word: Any, file: str, where: str, rule: str = "Mat Clash cards") -> str:
    """A card named in a file, as its id; a clear error for an unknown name."""
    cards = catalogue()
    key = str(word).strip().lower().replace("'", "").replace("!", "").replace(" ", "_").replace("-", "_")
    aliases = {"beastin": "beastin", "beastin_wild": "beastin", "matbeast": "mat_beast", "feet_to_back": "feet_to_back",
               "near_fall": "near_fall_2", "escape_1": "escape", "takedown_3": "takedown", "reversal_2": "reversal"}
    key = aliases.get(key, key)
    if key not in cards:
        raise FedError(Problem(file, where, f"unknown card {word!r}; the cards are {', '.join(cards)}", rule))
    return key


def build_deck(sets: tuple[str, ...] = (), path: Path = DATA / "deck.yaml", shown: str = "deck.yaml") -> list[Card]:
    """The deck: the base 55 plus the specialty sets in play."""
    data = load_yaml(path, shown)
    cards = catalogue()
    if not isinstance(data, dict) or not isinstance(data.get("base"), dict):
        raise FedError(Problem(shown, None, "a deck file has `base:` (card: count) and optional `sets:`", "Mat Clash deck"))
    extra = data.get("sets", {})
    if not isinstance(extra, dict) or any(not isinstance(extra.get(s, {}), dict) for s in sets):
        raise FedError(Problem(shown, place(data, ("sets",)) or "sets", "`sets:` maps each set to its cards and counts (card: count)", "Mat Clash deck"))
    deck: list[Card] = []
    for section, counts in [("base", data["base"])] + [(f"sets.{s}", extra.get(s, {})) for s in sets]:
        for name, count in counts.items():
            cid = card_id(name, shown, section, "Mat Clash deck")
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 55:
                raise FedError(Problem(shown, f"{section}.{name}", f"count {count!r} is not a whole number from 0 to 55", "Mat Clash deck"))
            deck.extend([cards[cid]] * count)
    base = sum(data["base"].values())
    if base != BASE_DECK_SIZE:
        raise FedError(Problem(shown, "base", f"the base deck has {base} cards; Mat Clash's base deck has {BASE_DECK_SIZE}", "Mat Clash: the 55-card deck"))
    return deck
