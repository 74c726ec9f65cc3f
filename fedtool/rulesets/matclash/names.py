"""Card names as players write them in a Mat Clash strategy: the ids (`near_fall_3`), the names
printed on the cards ("Near Fall +3", "Beastin' (Wild)", "Feet to Back! +7") and the generic
names that stand for a family of cards, best first (`near_fall`: the best Near Fall the
situation allows; `escape`: Escape +2, then Escape +1; `beastin`: either Beastin')."""

from __future__ import annotations

import re
from functools import cache

from .cards import catalogue

# generic names: the cards each stands for, best first
GROUPS = {
    "near_fall": ("near_fall_5", "near_fall_4", "near_fall_3", "near_fall_2"),
    "escape": ("escape_2", "escape"),
    "beastin": ("beastin", "beastin_sp"),
    "tie": ("comeback", "mindset"),
}
# other ways of writing an id or a group
ALIASES = {
    "escape_1": "escape_1", "escape_+1": "escape_1", "takedown_3": "takedown", "reversal_2": "reversal", "defense_0": "defense",
    "defence": "defense", "momentum_0": "momentum", "stalling_1": "stalling", "matbeast": "mat_beast", "beastin_wild": "beastin",
    "nearfall": "near_fall", "feet_to_back_7": "feet_to_back", "cut_em_1": "cut_em", "scramble_5": "scramble", "spladle_4": "spladle",
    "beastin_short_print": "beastin_sp", "beastin_wild_short_print": "beastin_sp", "tie_the_match": "tie",
}


def normal(word: str) -> str:
    text = str(word).strip().lower().replace("’", "'").replace("'", "").replace("!", "").replace("+", " ").replace("-", " ")
    text = re.sub(r"[\s_]+", "_", text.replace("(", " ").replace(")", " ").replace("—", " "))
    return text.strip("_")


@cache
def table() -> dict[str, str]:
    """Every accepted spelling (normalised) -> a card id, a group name, or "escape_1"."""
    out: dict[str, str] = {}
    for cid, card in catalogue().items():
        out[cid] = cid
        out[normal(card.name)] = cid
        out[normal(re.sub(r"\(.*?\)", "", card.name))] = cid
    out.update(ALIASES)
    for group in GROUPS:
        out[group] = group
    return out


def key_of(word) -> str | None:
    """The name a player wrote, as a card id or a group name; None if it names no card."""
    if not isinstance(word, str):
        return None
    return table().get(normal(word))


def members(key: str) -> tuple[str, ...]:
    """The card ids a key stands for, best first (a specific Escape +1 is `escape_1`)."""
    if key == "escape_1":
        return ("escape",)
    return GROUPS.get(key, (key,))


def shown_name(key: str) -> str:
    """A key as `fedtool read` shows it: the printed name, or the generic name in words."""
    if key in GROUPS:
        return {"near_fall": "any Near Fall (best first)", "escape": "any Escape (+2 first)", "beastin": "Beastin'", "tie": "Comeback or Mindset"}[key]
    if key == "escape_1":
        return "Escape +1"
    return catalogue()[key].name
