"""MatchMatch's vocabulary, read from the ruleset's data files: styles and round types."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fedtool.kernel.yamlio import load_yaml

STAMINA_MAX = 15  # I.1: "Stamina has a maximum of 15"

DATA = Path(__file__).parent / "data"
STAMINA = "stamina"


_SEPARATORS = re.compile(r"[\s_\-]+")


@lru_cache(maxsize=4096)  # a strategy names the same few styles and types in every round
def _normalised(word: str) -> str:
    return _SEPARATORS.sub("", word).lower()


def normalise(word: object) -> str:
    """How names are compared: case, spaces, dashes and underscores ignored."""
    return _normalised(str(word))


@dataclass(frozen=True)
class Style:
    """A wrestling style (Power, Technical, ...): its name, abbreviation and aliases."""

    id: str
    name: str
    abbr: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class RoundType:
    """One row of IV.3's table, with the mechanics flags the engine reads."""

    id: str
    name: str
    attack: int = 0
    damage: int = 0
    damage_after_defense: int = 0
    pin: int = 0
    injury: int = 0
    injury_on_any_damage: bool = False
    special: bool = False
    high_spot: bool = False
    high_risk_dice: bool = False
    dq_check: bool = False
    extra_dice_after_dq: int = 0
    finish_after: str = "pin"
    aliases: tuple[str, ...] = ()


class Vocabulary:
    """Styles and round types, with lookup by any accepted spelling."""

    def __init__(self, styles: list[Style], round_types: list[RoundType]):
        self.styles = styles
        self.style_ids = tuple(s.id for s in styles)
        self.style_by_id = {s.id: s for s in styles}
        self.round_types = {r.id: r for r in round_types}
        self._style_lookup: dict[str, str] = {}
        for s in styles:
            for word in (s.id, s.name, s.abbr, *s.aliases):
                self._style_lookup[normalise(word)] = s.id
        self._type_lookup: dict[str, str] = {}
        for r in round_types:
            for word in (r.id, r.name, *r.aliases):
                self._type_lookup[normalise(word)] = r.id

    def style(self, word: object) -> str | None:
        """The style id a player's word means, or None."""
        return self._style_lookup.get(normalise(word))

    def target(self, word: object) -> str | None:
        """A round target: a style id or 'stamina'."""
        if normalise(word) in ("stamina", "stam", "st"):
            return STAMINA
        return self.style(word)

    def round_type(self, word: object) -> RoundType | None:
        found = self._type_lookup.get(normalise(word))
        return self.round_types[found] if found else None

    def style_name(self, style_id: str) -> str:
        return "Stamina" if style_id == STAMINA else self.style_by_id[style_id].name

    def style_names(self) -> str:
        return ", ".join(s.name for s in self.styles)

    def type_names(self) -> str:
        return ", ".join(r.name for r in self.round_types.values())


@cache
def vocabulary(data_dir: Path = DATA) -> Vocabulary:
    """The packaged vocabulary (or one from another data folder)."""
    styles = [
        Style(d["id"], d["name"], d["abbr"], tuple(d.get("aliases", ()))) for d in load_yaml(data_dir / "styles.yaml")
    ]
    types = []
    for type_id, d in load_yaml(data_dir / "round_types.yaml").items():
        fields = dict(d)
        fields["aliases"] = tuple(fields.get("aliases", ()))
        types.append(RoundType(id=type_id, **fields))
    return Vocabulary(styles, types)
