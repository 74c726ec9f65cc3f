"""The Mad Match deck as data (data/deck.yaml, or a fed's own file in rosters/), checked when
read: every problem names the file, the line and the rule ("Mad Match is a 54 card deck with
45 Monster cards and 9 Strategic Action cards")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.yamlio import load_yaml, line_of

DATA = Path(__file__).parent / "data"
ICONS = ("sun", "bolt", "water")
# the icon battle: "the Sun evaporates the Water, the Water short circuits the Electrical Bolt,
# and the Electrical Bolt gives us light so we don't need the Sun"
BEATS = {"sun": "water", "water": "bolt", "bolt": "sun"}
MONSTERS = 15  # "45 Monster cards" (15 monsters, three of each)
COPIES = 3
ACTIONS = 9  # "9 Strategic Action cards"
EFFECTS = ("freeze", "steal", "destroy")
MATRIX = ("strike", "spare", "pair", "single")
RULE = "Mad Match deck: 54 cards, 45 Monster cards (15 monsters, three of each) and 9 Strategic Action cards"


@dataclass(frozen=True)
class Monster:
    index: int  # 0..14, the order of the deck file
    id: str
    name: str
    icon: str
    strike: int
    spare: int
    pair: int
    single: int

    def value(self, count: int, strike: bool) -> int:
        """What `count` cards of this monster in one collection score: each card scores by the
        matrix ("each card is scored, so a pair of monsters with a II of 3 totals six points")."""
        if count >= 3:
            return count * (self.strike if strike else self.spare)
        if count == 2:
            return 2 * self.pair
        return self.single if count == 1 else 0


@dataclass(frozen=True)
class Action:
    id: str
    name: str
    copies: int
    effect: str  # freeze, steal, destroy
    extends: bool = False  # a freeze that extends to the next player's turn
    cards: str = "one"  # steal / destroy: one card of a set, two (or the one there is), or the whole set


@dataclass(frozen=True)
class Deck:
    monsters: tuple[Monster, ...]
    actions: tuple[Action, ...]
    shown: str

    def cards(self) -> list:
        """The 54 cards in deck order: each monster three times, then each Action card's copies."""
        out: list = [m for m in self.monsters for _ in range(COPIES)]
        for action in self.actions:
            out.extend([action] * action.copies)
        return out

    def monster(self, word: str) -> Monster | None:
        key = _key(word)
        return next((m for m in self.monsters if m.id == key or _key(m.name) == key), None)

    def action(self, word: str) -> Action | None:
        key = _key(word)
        return next((a for a in self.actions if a.id == key or _key(a.name) == key), None)


def _key(word: Any) -> str:
    return "_".join(str(word).strip().lower().replace("'", "").replace("-", " ").split())


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_deck(data: Any, shown: str) -> Deck:
    """A parsed deck file, checked: every problem at once, each with its line and the rule."""
    problems = Collector()
    if not isinstance(data, dict) or not isinstance(data.get("monsters"), list) or not isinstance(data.get("actions"), list):
        raise FedError(Problem(shown, None, "a deck file has `monsters:` (a list of 15) and `actions:` (a list adding up to 9 cards)", RULE))
    for key in data:
        if key not in ("monsters", "actions"):
            problems.add(shown, _at(data, (key,)), f"unknown field {key!r}: a deck file has monsters: and actions:", RULE)
    monsters: list[Monster] = []
    seen: set[str] = set()
    for n, entry in enumerate(data["monsters"]):
        where = _at(data, ("monsters", n))
        if not isinstance(entry, dict):
            problems.add(shown, where, "a monster is a mapping: {id, name, icon, strike, spare, pair, single}", RULE)
            continue
        fields = ("id", "name", "icon", *MATRIX)
        for key in entry:
            if key not in fields:
                problems.add(shown, _at(data, ("monsters", n, key)), f"unknown field {key!r}: a monster has {', '.join(fields)}", RULE)
        missing = [k for k in fields if k not in entry]
        if missing:
            problems.add(shown, where, f"monster {n + 1} lacks {', '.join(missing)}", RULE)
            continue
        mid = _key(entry["id"])
        if mid in seen:
            problems.add(shown, _at(data, ("monsters", n, "id")), f"monster {entry['id']!r} is listed twice", RULE)
        seen.add(mid)
        if entry["icon"] not in ICONS:
            problems.add(shown, _at(data, ("monsters", n, "icon")), f"unknown icon {entry['icon']!r}: the icons are sun, bolt and water", RULE)
        bad = False
        for key in MATRIX:
            value = entry[key]
            if not _whole(value) or not 0 <= value <= 1000:
                problems.add(shown, _at(data, ("monsters", n, key)), f"{key} {value!r} is not a whole number from 0 to 1000 (a scoring matrix holds no negative values)", RULE)
                bad = True
        if not bad and entry["icon"] in ICONS:
            monsters.append(Monster(len(monsters), mid, str(entry["name"]), entry["icon"], *(entry[k] for k in MATRIX)))
    if len(data["monsters"]) != MONSTERS:
        problems.add(shown, _at(data, ("monsters",)), f"{len(data['monsters'])} monsters: Mad Match has {MONSTERS} (45 Monster cards, three of each)", RULE)
    actions: list[Action] = []
    for n, entry in enumerate(data["actions"]):
        where = _at(data, ("actions", n))
        if not isinstance(entry, dict):
            problems.add(shown, where, "an Action card is a mapping: {id, name, copies, effect, ...}", RULE)
            continue
        fields = ("id", "name", "copies", "effect", "extends", "cards")
        for key in entry:
            if key not in fields:
                problems.add(shown, _at(data, ("actions", n, key)), f"unknown field {key!r}: an Action card has {', '.join(fields)}", RULE)
        if "id" not in entry or "name" not in entry:
            problems.add(shown, where, f"Action card {n + 1} lacks its id or name", RULE)
            continue
        effect = entry.get("effect")
        if effect not in EFFECTS:
            what = "has no effect" if effect is None else f"has the effect {effect!r}, which fedtool does not define"
            problems.add(shown, _at(data, ("actions", n, "effect")) or where,
                         f"Action card {entry['id']!r} {what}: an effect is freeze, steal or destroy", RULE)
            continue
        copies = entry.get("copies", 1)
        if not _whole(copies) or not 1 <= copies <= ACTIONS:
            problems.add(shown, _at(data, ("actions", n, "copies")), f"copies {copies!r} is not a whole number from 1 to {ACTIONS}", RULE)
            continue
        extends = entry.get("extends", False)
        cards = entry.get("cards", "one")
        if effect == "freeze":
            if not isinstance(extends, bool):
                problems.add(shown, _at(data, ("actions", n, "extends")), "extends is true or false", RULE)
                continue
            if "cards" in entry:
                problems.add(shown, _at(data, ("actions", n, "cards")), "a freeze takes no cards: `cards:` is for steal and destroy", RULE)
                continue
        else:
            if "extends" in entry:
                problems.add(shown, _at(data, ("actions", n, "extends")), "only a freeze extends to the next player's turn", RULE)
                continue
            if cards not in ("one", "two", "set"):
                problems.add(shown, _at(data, ("actions", n, "cards")), f"cards {cards!r}: a steal or destroy takes one card, two, or the set (one, two, set)", RULE)
                continue
        actions.append(Action(_key(entry["id"]), str(entry["name"]), copies, effect, bool(extends) if effect == "freeze" else False,
                              cards if effect != "freeze" else "one"))
    total = sum(a.copies for a in actions)
    if not problems and total != ACTIONS:
        problems.add(shown, _at(data, ("actions",)), f"{total} Action cards: Mad Match has {ACTIONS} Strategic Action cards", RULE)
    problems.raise_if_any()
    return Deck(tuple(monsters), tuple(actions), shown)


def _at(data: Any, loc: tuple) -> str | None:
    line = line_of(data, loc)
    return f"line {line}" if line else None


@lru_cache(maxsize=8)
def _load(path: Path, shown: str, stamp: float) -> Deck:
    return read_deck(load_yaml(path, shown), shown)


def load_deck(path: Path | None = None, shown: str | None = None) -> Deck:
    """The built-in deck, or a fed's own file (read again whenever it changes)."""
    path = path or DATA / "deck.yaml"
    if not path.is_file():
        raise FedError(Problem(shown or str(path), None, "no such deck file (a fed's own deck is a file in rosters/)", RULE))
    return _load(path, shown or "deck.yaml", path.stat().st_mtime)
