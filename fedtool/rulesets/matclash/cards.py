# cython: language_level=3, annotation_typing=False
"""Mat Clash cards and decks, read from the ruleset's data files (a fed may replace the deck)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from functools import cache
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


_CARD_FIELDS = frozenset({"id", "name", "action", "points", "kind", "set", "timing", "effect", "defence", "_plays", "own", "stands"})
_PLAY_FIELDS = frozenset({"card", "action", "key", "text"})


def _set_once(obj, name: str, value, fields: frozenset) -> None:
    """A card's or a play's `__setattr__`: each field is set once, by `__init__`, and is read-only
    after (FrozenInstanceError, as the frozen dataclasses they were raised). Compiled (cards.pxd),
    `__init__` sets the C fields directly and this is only ever reached from outside, where every
    field is already set."""
    if name not in fields or hasattr(obj, name):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(obj, name, value)


class Card:
    """A card of the catalogue. A card is its catalogue entry: every copy in a deck is the one
    object (`build_deck`), so cards compare by identity, which keeps a hand's `remove` and `in`
    at C speed (the engine's hot path). Read-only once made (as a frozen dataclass: setting a
    field raises FrozenInstanceError). A plain class rather than a dataclass so that the compiled
    path (cards.pxd) can make it an extension type whose fields are C struct fields."""

    def __init__(self, id: str, name: str, action: str, points: int, kind: str, set: str, timing: str, effect: str, defence: str):  # noqa: A002
        self.id = id
        self.name = name
        self.action = action
        self.points = points
        self.kind = kind  # base, wild, pin, mat_beast, specialty
        self.set = set
        self.timing = timing
        self.effect = effect
        self.defence = defence
        self._plays = {}
        # this card played as itself (`as_(its action)`): the hot path's
        self.own = self.as_(action)
        # Beastin' as each card it may stand for, and as itself (against MAT BEAST and Spladle):
        # (the hand index's key, "wild as ACTION", and the Play), made once: what the engine's hand
        # index keeps for a wild card
        self.stands = tuple([("wild as " + to, self.as_(to)) for to in (*WILD_AS, "beastin")])

    def __setattr__(self, name, value):
        _set_once(self, name, value, _CARD_FIELDS)

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"<{self.id}>"

    def as_(self, action: str) -> Play:
        """This card played as `action` (its own, or what Beastin' stands for): one Play made
        once per card and action, so the engine's turn options are built without making any."""
        plays = self._plays
        play = plays.get(action)
        if play is None:
            play = plays[action] = Play(self, action)
        return play


class Play:
    """A card played, and what it is played as (Beastin' stands for a base card). `key` is how
    a policy ranks it (the card's id; `id:action` for Beastin'), `text` how the log names it.
    Read-only, compared and hashed by (card, action), as the frozen dataclass it was; a plain
    class so that the compiled path (cards.pxd) can make it an extension type."""

    def __init__(self, card: Card, action: str):
        self.card = card
        self.action = action  # the action applied: the card's own, or the base card Beastin' stands for
        self.key = f"{card.id}:{action}" if card.action == "wild" else card.id
        self.text = card.name if card.action == action else f"{card.name} as {action.replace('_', ' ').title()}"

    def __setattr__(self, name, value):
        _set_once(self, name, value, _PLAY_FIELDS)

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other):
        # (the dataclass's `(card, action) == (other.card, other.action)`: a card is equal only to itself)
        if type(other) is type(self):
            return self.card is other.card and self.action == other.action
        return NotImplemented

    def __ne__(self, other):
        if type(other) is type(self):
            return self.card is not other.card or self.action != other.action
        return NotImplemented

    def __hash__(self):
        return hash((self.card, self.action))

    def __repr__(self) -> str:
        return f"Play(card={self.card!r}, action={self.action!r})"

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
