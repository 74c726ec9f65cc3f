"""How a Mat Clash wrestler plays by mail: a strategy file read as a policy, and the
built-in default that plays sensibly wherever a strategy is silent."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from fedtool.kernel.errors import Collector
from fedtool.kernel.validation import FileModel, place, validate
from .cards import card_id

SITUATIONS = ("neutral", "top", "bottom")
THREATS = ("takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle")

DEFAULT_PREFER = {
    "neutral": ["feet_to_back", "takedown"],
    "top": ["mat_beast", "pin", "spladle", "near_fall_5", "near_fall_4", "near_fall_3", "near_fall_2"],
    "bottom": ["reversal", "escape_2", "escape"],
}
DEFAULT_ANSWER = {
    "takedown": ["scramble", "clone", "defense"],
    "reversal": ["defense"],
    "pin": ["defense", "beastin"],
    "mat_beast": ["beastin", "beastin_sp"],
    "feet_to_back": ["clone", "defense", "beastin"],
    "spladle": ["beastin", "beastin_sp"],
}


class StrategyModel(FileModel):
    """A Mat Clash strategy file (docs/rulings/mat-clash.md; README)."""

    wrestler: str | None = Field(default=None, max_length=80)  # optional: the wrestler's id or name (checked: his own)
    moves: dict[str, str] = {}  # card id -> the wrestler's own move name, for the writeup
    prefer: dict[Literal["neutral", "top", "bottom"], list[str]] = {}
    answer: dict[Literal["takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle"], list[str]] = {}
    hold: dict[str, Annotated[int, Field(ge=0, le=50)]] = {}  # how many of each card are kept back from ordinary answers, e.g. {defense: 1}
    draw: Literal["when_stuck", "always", "never"] = "when_stuck"
    stall_when_leading_by: int | None = Field(default=None, ge=0, le=50)
    tie_when_trailing_by: int = Field(default=4, ge=1, le=50)  # Comeback, Mindset
    wizardry_when_erasing: int = Field(default=5, ge=0, le=50)
    momentum: Literal["after_takedown", "always", "never"] = "after_takedown"
    resilience_when_leading: bool = True


class Policy:
    """Decisions for one wrestler; every method sees the scrap and answers from the strategy."""

    def __init__(self, model: StrategyModel | None = None, ids: dict | None = None):
        model = model or StrategyModel()
        ids = ids or {}
        self.moves = {ids.get(("moves", k), k): v for k, v in model.moves.items()}
        self.prefer = {s: ids.get(("prefer", s), DEFAULT_PREFER[s]) for s in SITUATIONS}
        self.answers = {t: ids.get(("answer", t), DEFAULT_ANSWER[t]) for t in THREATS}
        self.hold = {ids.get(("hold", k), k): v for k, v in model.hold.items()} or {"defense": 1}
        self.model = model

    def _held(self, scrap, i, card) -> bool:
        keep = self.hold.get(card.id, 0)
        return keep and sum(1 for c in scrap.hands[i] if c.id == card.id) <= keep

    @staticmethod
    def _rank(play, order: list[str]) -> int:
        for n, name in enumerate(order):
            if play.card.id == name or (play.card.action != "wild" and play.action == name):
                return n
        return len(order) + (1 if play.card.action == "wild" else 0)

    def answer(self, scrap, i, threat, options):
        order = self.answers[threat]
        ending = threat in ("pin", "mat_beast", "feet_to_back", "spladle")
        usable = [o for o in options if ending or not self._held(scrap, i, o.card)]
        usable = [o for o in usable if self._rank(o, order) < len(order) or ending]
        return min(usable, key=lambda o: self._rank(o, order)) if usable else None

    def choose(self, scrap, i, options):
        o = 1 - i
        behind = scrap.score(o) - scrap.score(i)
        ties = [p for p in options if p.action == "tie"]
        if ties and behind >= self.model.tie_when_trailing_by:
            return ties[0]
        wizardry = [p for p in options if p.action == "wizardry"]
        if wizardry and sum(points for _, points in scrap.stacks[o][-3:]) >= self.model.wizardry_when_erasing:
            return wizardry[0]
        resilience = [p for p in options if p.action == "resilience"]
        if resilience and self.model.resilience_when_leading and behind < 0 and scrap.transitions >= scrap.pin_after:
            return resilience[0]
        order = self.prefer[scrap.positions[i]]
        ranked = [p for p in options if p.action not in ("tie", "wizardry", "resilience", "stalling")
                  and (self._rank(p, order) < len(order) or p.card.action == "wild")
                  and not (p.card.action == "wild" and self._held(scrap, i, p.card))]
        if ranked:
            return min(ranked, key=lambda p: self._rank(p, order))
        stalling = [p for p in options if p.action == "stalling" and p.card.action != "wild"]
        lead = self.model.stall_when_leading_by
        if stalling and lead is not None and -behind >= lead:
            return stalling[0]
        return None

    def wants_draw(self, scrap, i, options) -> bool:
        if self.model.draw == "never":
            return False
        if self.model.draw == "always":
            return True
        return self.choose(scrap, i, options) is None  # stuck: nothing worth playing

    def use_cut_em(self, scrap, i) -> bool:
        return True  # +3 for the new Takedown against 1 given away

    def use_momentum(self, scrap, i, scored_takedown: bool) -> bool:
        if self.model.momentum == "never":
            return False
        if self.model.momentum == "always":
            return True
        finishers = ("near_fall", "spladle")
        return scored_takedown and any(c.action in finishers for c in scrap.hands[i])


def read_policy(data: Any, file: str, wrestler_id: str | None = None, wrestler_name: str | None = None) -> Policy:
    """A strategy file, checked: known situations, known cards, numbers where numbers go; a
    `wrestler:` that names someone other than the wrestler it is for (`wrestler_id`) is refused."""
    if data is None:
        return Policy()
    model = validate(StrategyModel, data, file, "Mat Clash strategy")
    problems = Collector()
    if model.wrestler is not None and wrestler_id is not None and model.wrestler != wrestler_id \
            and model.wrestler.casefold() != (wrestler_name or "").casefold():
        problems.add(file, place(data, ("wrestler",)), f"this strategy names {model.wrestler!r}, but it is {wrestler_name}'s ({wrestler_id}): "
                     "a strategy is for the wrestler whose file it is", "Mat Clash strategy")
    ids: dict = {}
    for section in ("prefer", "answer"):
        for situation, names in getattr(model, section).items():
            resolved = []
            for n, name in enumerate(names):
                try:
                    resolved.append(card_id(name, file, place(data, (section, situation, n)), "Mat Clash strategy: cards"))
                except Exception as exc:  # FedError
                    problems.extend(exc)
            ids[(section, situation)] = resolved
    for section in ("moves", "hold"):
        for name in getattr(model, section):
            try:
                ids[(section, name)] = card_id(name, file, place(data, (section, name)), "Mat Clash strategy: cards")
            except Exception as exc:
                problems.extend(exc)
    problems.raise_if_any()
    return Policy(model, ids)
