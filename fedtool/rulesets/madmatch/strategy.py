"""Mad Match strategies: what a player who cannot turn cards over by mail tells fedtool
(docs/mad-match-strategy.md). Every field is optional; what is left out, and a strategy that
never arrives, plays by the built-in default."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictInt, ValidationError

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import FileModel, place
from fedtool.kernel.yamlio import line_of

RULE = "Mad Match strategy (docs/mad-match-strategy.md)"
WHENS = ("default", "always", "never", "leading", "trailing", "endgame")
TARGETS = ("best", "leader", "next", "strike")
TURN_WHEN = re.compile(r"^turn (\d{1,3}) or later$")
_TURN_WHENS: dict[str, int | None] = {}


def _turn_when(when: str) -> int | None:
    """N of a `when: turn N or later`, else None (each wording read once)."""
    if when not in _TURN_WHENS:
        found = TURN_WHEN.match(when)
        _TURN_WHENS[when] = int(found.group(1)) if found else None
    return _TURN_WHENS[when]
FIELDS = ("player", "unknown", "spares", "deny_spares", "use_at", "endgame", "actions", "solitaire")


class ActionModel(FileModel):
    when: str = "default"
    target: Literal["best", "leader", "next", "strike"] = "best"


class SolitaireModel(FileModel):
    keep_free: Annotated[StrictInt, Field(ge=0, le=5)] = 0  # right slots kept open for cards to come


class StrategyModel(FileModel):
    """A Mad Match strategy file."""

    player: str | None = Field(default=None, max_length=80)  # optional: whose strategy (checked: the file's own side)
    unknown: Literal["unseen_first", "half_remembered_first"] = "half_remembered_first"
    spares: Literal["always", "when_better", "never"] = "when_better"
    deny_spares: StrictBool = True
    use_at: Annotated[StrictInt, Field(ge=1, le=200)] = 6  # an Action card is used for a swing of this many points or more
    endgame: Annotated[StrictInt, Field(ge=0, le=45)] = 9  # with this many Monster cards or fewer in the grid, for any gain
    actions: Annotated[dict[str, ActionModel], Field(max_length=20)] = {}
    solitaire: SolitaireModel = SolitaireModel()


@dataclass
class ActionRule:
    when: str = "default"  # one of WHENS, or "turn N or later"
    target: str = "best"
    line: int = 0

    def allows(self, play, p: int, swing: int, strategy: "Strategy") -> bool:
        if swing <= 0 or self.when == "never":
            return False
        endgame = sum(play.grid_count) <= strategy.endgame
        if self.when == "always":
            return True
        if self.when == "endgame":
            return endgame
        if self.when in ("leading", "trailing"):
            mine = play.score(p)
            best = max(play.score(q) for q in range(len(play.sides)) if q != p)
            return mine > best if self.when == "leading" else mine < best
        found = TURN_WHEN.match(self.when)
        if found:
            return play.turn >= int(found.group(1))
        return swing >= strategy.use_at or endgame


@dataclass
class Strategy:
    unknown: str = "half_remembered_first"
    spares: str = "when_better"
    deny_spares: bool = True
    use_at: int = 6
    endgame: int = 9
    actions: dict = field(default_factory=dict)  # action id or effect -> ActionRule
    lines: dict = field(default_factory=dict)
    keep_free: int = 0  # solitaire: right slots kept open

    def takes_spare(self, monster) -> bool:
        """Whether the third card of a pair it holds is collected as a spare: `when_better`
        when three spares score more than the pair (3 x spare > 2 x pair)."""
        if self.spares == "always":
            return True
        if self.spares == "never":
            return False
        return 3 * monster.spare > 2 * monster.pair

    def rule_for(self, action) -> ActionRule:
        return self.actions.get(action.id) or self.actions.get(action.effect) or ActionRule()

    def action_to_use(self, play, p: int) -> tuple | None:
        """The Action card used instead of this turn and on whom: (card, player, monster), or
        None to turn cards. The largest swing (points gained plus points the target loses)
        among the cards whose `when` allows it, on the targets their `target` allows.

        Every `when` allows a swing from some least value on (`ActionRule.allows`), worked
        out once a turn (`_least`); the swings come from the deck's tables (`Play.swing`).
        The work is `_action_to_use`'s (typed for the compiled path by strategy.pxd)."""
        return _action_to_use(self, play, p)

    def _least(self, when: str, play, p: int, facts: dict) -> int | None:
        """The least swing `ActionRule.allows` for `when` this turn (None: no swing at all)."""
        if when == "always":
            return 1
        if "endgame" not in facts:
            facts["endgame"] = play.grid_monsters <= self.endgame
        endgame = facts["endgame"]
        if when == "endgame":
            return 1 if endgame else None
        if when in ("leading", "trailing"):
            n = len(play.sides)
            scores = facts.get("scores") or facts.setdefault("scores", [play.score(q) for q in range(n)])
            mine, best = scores[p], _top_other(scores, p)
            return 1 if (mine > best if when == "leading" else mine < best) else None
        found = _turn_when(when)
        if found is not None:
            return 1 if play.turn >= found else None
        return 1 if endgame else max(1, self.use_at)

    def readings(self, deck) -> list:
        """`fedtool read`: how each part of the file reads."""
        lines = self.lines
        out = [
            Reading(lines.get("unknown", 0), "when memory fails it turns " + ("a card never seen first, then one it has forgotten"
                    if self.unknown == "unseen_first" else "a half-remembered card: one around where it last saw the match it wants, "
                    "else any card it does not remember")),
            Reading(lines.get("spares", 0), {"always": "takes every spare", "never": "never takes a spare (the third card is turned back)",
                                             "when_better": "takes a spare when three spares score more than the pair: "
                                             + ", ".join(f"{m.name} {'yes' if self.takes_spare(m) else 'no'}" for m in deck.monsters)}[self.spares]),
            Reading(lines.get("deny_spares", 0), "turns the remembered third card of an opponent's pair with its last card, to remove it"
                    if self.deny_spares else "never turns a card only to remove the third of an opponent's pair"),
            Reading(lines.get("use_at", 0), f"uses an Action card for a swing of {self.use_at} points or more, or for any gain once "
                    f"{self.endgame} or fewer Monster cards are left in the grid"),
        ]
        out.append(Reading(lines.get("solitaire", 0), f"solitaire: keeps {self.keep_free} right slot{'s' if self.keep_free != 1 else ''} "
                           "open (a center card opens a right slot only while more are free)"))
        for action in deck.actions:
            if action.effect == "freeze":
                continue
            rule = self.rule_for(action)
            if rule.when == "never":
                text = "holds it, never used"
            else:
                when = {"default": "by the swing above", "always": "as soon as it gains anything", "leading": "when ahead",
                        "trailing": "when behind", "endgame": "in the endgame"}.get(rule.when, rule.when)
                who = {"best": "whoever it swings the most", "leader": "the leader", "next": "the next player", "strike": "a strike (all three in one turn)"}[rule.target]
                text = f"used {when}, on {who}"
            out.append(Reading(rule.line, f"{action.name} ({action.effect} {'the set' if action.cards == 'set' else 'one card'}): {text}"))
        return out


def _action_to_use(strategy: Strategy, play, p: int) -> tuple | None:
    """`Strategy.action_to_use`: each kind of Action card in p's hand once, in the hand's order,
    by its rule (`Strategy.rule_for`, with no default rule built), on each target its `target`
    allows, in the players' order."""
    best = None
    done: list = []
    n = len(play.sides)
    t = play.tables
    values, strike_values = t.values, t.strike_values
    colls, strikes = play.colls, play.strikes
    mine_coll, mine_strikes = colls[p], strikes[p]
    actions, cards = strategy.actions, play.cards
    facts: dict = {}
    scores = None
    for c in play.hands[p]:
        action = cards[c]
        key = action.id
        if key in done:
            continue
        done.append(key)
        rule = (actions.get(key) or actions.get(action.effect)) if actions else None
        when = "default" if rule is None else rule.when
        if when == "never":
            continue
        least = strategy._least(when, play, p, facts)
        if least is None:
            continue  # its `when` allows no swing this turn
        target = "best" if rule is None else rule.target
        leader, only_next = target == "leader", target == "next"
        top = 0
        if leader:
            scores = facts.get("scores") or facts.setdefault("scores", [play.score(q) for q in range(n)])
            top = _top_other(scores, p)
        after = (p + 1) % n
        strike_only = target == "strike"
        kind, steal = action.cards, action.effect == "steal"
        taking = 3 if kind == "set" else 2 if kind == "two" else 1  # (a set: every card, at most three)
        for q in range(n):
            if q == p:
                continue
            if only_next and q != after:
                continue
            if leader and scores[q] != top:
                continue
            best = _best_swing(best, least, taking, steal, strike_only, c, q, colls[q], strikes[q], mine_coll, mine_strikes, values,
                               strike_values)
    return None if best is None else best[1:]


def _top_other(scores: list, p: int) -> int:
    """The highest of the scores but p's (`max` over the others, with no generator)."""
    top = None
    for q in range(len(scores)):
        if q != p and (top is None or scores[q] > top):
            top = scores[q]
    return top


def _best_swing(best: tuple | None, least: int, taking: int, steal: bool, strike_only: bool, c: int, q: int, theirs: list, theirs_strikes: set,
                mine_coll: list, mine_strikes: set, values: list, strike_values: list) -> tuple | None:
    """`Strategy.action_to_use` on one target: `best` (swing, card, target, monster) kept or
    beaten by card c used on player q's monsters, in the monsters' order (typed for the
    compiled path by strategy.pxd). `taking` is how many cards the card takes of a monster
    (three for a set: a collection holds three at most)."""
    for m in range(len(theirs)):
        k = len(theirs[m])
        if not k:
            continue
        struck = m in theirs_strikes
        if strike_only and not struck:
            continue
        taken = k if taking > k else taking
        row = values[m]
        swing = (strike_values[m] if struck and k >= 3 else row[k]) - row[k - taken]
        if steal:
            mine = len(mine_coll[m])
            swing += row[mine + taken] - (strike_values[m] if mine >= 3 and m in mine_strikes else row[mine])
        if swing >= least and (best is None or swing > best[0]):
            best = (swing, c, q, m)
    return best


@dataclass
class Reading:
    line: int
    reading: str
    text: str = ""


def _words(err: dict) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    name = str(err["loc"][-1]) if err["loc"] else ""
    if kind == "extra_forbidden":
        if len(err["loc"]) == 1:
            return f"unknown field {name!r}: the fields are {', '.join(FIELDS)}"
        return f"unknown field {name!r}: " + ("solitaire has keep_free" if err["loc"][0] == "solitaire" else "an action has when and target")
    if kind == "literal_error":
        return f"{err['input']!r} is not one of {ctx.get('expected', '').replace(chr(39), '')}"
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"{err['input']!r} is out of range: give {ctx.get('ge', 0)} to {ctx.get('le', '')}" if kind == "greater_than_equal" else f"{err['input']!r} is too big: give {ctx.get('le')} or less"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"give a whole number here, not {err.get('input')!r}"
    if kind in ("bool_type", "bool_parsing"):
        return f"give true or false here, not {err.get('input')!r}"
    return err["msg"]


def read_strategy(data: Any, file: str, deck, side_id: str | None = None, side_name: str | None = None) -> Strategy:
    """A strategy file, checked against the deck in play: every problem at once, each with its line."""
    if data is None:
        return Strategy()
    if not isinstance(data, dict):
        raise FedError(Problem(file, None, "a strategy is a set of fields such as `spares:` and `actions:` (one per line): see docs/mad-match-strategy.md", RULE))
    problems = Collector()
    model = None
    try:
        model = StrategyModel.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            problems.add(file, place(data, loc), _words(err), RULE)
    if model is not None and model.player is not None and side_id is not None and model.player != side_id \
            and model.player.casefold() != (side_name or "").casefold():
        problems.add(file, place(data, ("player",)), f"this strategy names {model.player!r}, but it is {side_name}'s ({side_id}): "
                     "a strategy is for the side whose file it is", RULE)
    actions: dict = {}
    if isinstance(data.get("actions"), dict):
        for name, spec in data["actions"].items():
            where = place(data, ("actions", name))
            action = deck.action(name)
            key = action.id if action else str(name).strip().lower() if str(name).strip().lower() in ("steal", "destroy") else None
            if key is None:
                known = ", ".join(a.id for a in deck.actions if a.effect != "freeze")
                problems.add(file, where, f"unknown Action card {name!r}; the cards are {known} (or steal, destroy for every card of the kind)", RULE)
                continue
            if action is not None and action.effect == "freeze":
                problems.add(file, where, f"{action.name} is a Freeze card: it is used the moment it is turned, never held", RULE)
                continue
            if isinstance(spec, dict):
                when = spec.get("when", "default")
                if not isinstance(when, str) or not (when in WHENS or TURN_WHEN.match(when)):
                    problems.add(file, place(data, ("actions", name, "when")), f"when {when!r}: give one of {', '.join(WHENS)} or 'turn N or later'", RULE)
                    continue
                target = spec.get("target", "best")
                if target not in TARGETS:
                    problems.add(file, place(data, ("actions", name, "target")), f"unknown target {target!r}: give one of {', '.join(TARGETS)}", RULE)
                    continue
                actions[key] = ActionRule(when, target, line_of(data, ("actions", name)) or 0)
    problems.raise_if_any()
    lines = {key: line_of(data, (key,)) or 0 for key in FIELDS if key in data}
    return Strategy(model.unknown, model.spares, model.deny_spares, model.use_at, model.endgame, actions, lines, model.solitaire.keep_free)
