# cython: language_level=3, annotation_typing=False
"""How a Mat Clash wrestler plays by mail: a strategy file read as a policy, and the
built-in default that plays sensibly wherever a strategy is silent.

A strategy sits on top of the default (docs/mat-clash-strategy.md): `prefer:` lists and
`plan:` lines put cards first, in order, and whatever they leave out still plays by the
default; `only:` makes a list an allow-list, `never:` forbids. A `plan:` line is one
sentence, conditions then an action: "after transition 3, when leading by 4 or more,
prefer stalling".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictInt, ValidationError

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import FileModel, Name, place
from .cards import DRAW, WILD_AS, catalogue
from .names import GROUPS, key_of, members, shown_name

RULE = "Mat Clash strategy"
SITUATIONS = ("neutral", "top", "bottom")
THREATS = ("takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle")
ENDING = ("pin", "mat_beast", "feet_to_back", "spladle")  # answered with anything: the scrap is at stake
BEASTIN = ("beastin", "beastin_sp")

DEFAULT_PREFER = {  # ruling 4.3: Pin and MAT BEAST from any position
    "neutral": ["mat_beast", "pin", "feet_to_back", "takedown"],
    "top": ["mat_beast", "pin", "spladle", "near_fall"],
    "bottom": ["mat_beast", "pin", "reversal", "escape"],
}
DEFAULT_ANSWER = {
    "takedown": ["scramble", "clone", "defense"],
    "reversal": ["defense"],
    "pin": ["defense", "beastin"],
    "mat_beast": ["beastin"],
    "feet_to_back": ["clone", "defense", "beastin"],
    "spladle": ["beastin"],
}
DEFAULT_HOLD = {"defense": 1}
# what may answer each threat (rulings 2.5): Defense (or Beastin' as Defense) against a Takedown,
# Reversal, Pin or Feet to Back; Beastin' against MAT BEAST and Spladle; Scramble or Clone after a
# Takedown; Clone after Feet to Back
CAN_ANSWER = {
    "takedown": {"defense", "beastin", "beastin_sp", "scramble", "clone"},
    "reversal": {"defense", "beastin", "beastin_sp"},
    "pin": {"defense", "beastin", "beastin_sp"},
    "feet_to_back": {"defense", "beastin", "beastin_sp", "clone"},
    "mat_beast": {"beastin", "beastin_sp"},
    "spladle": {"beastin", "beastin_sp"},
}
HOLDABLE = {"defense", "beastin", "beastin_sp", "scramble", "clone"}  # hold keeps back answers (and Beastin' from turn plays)
ANYWHERE = {"pin", "mat_beast", "stalling", "comeback", "mindset", "wizardry", "resilience", "beastin", "beastin_sp"}
TURN_CARDS = {
    "neutral": ANYWHERE | {"takedown", "feet_to_back"},
    "top": ANYWHERE | {"near_fall_2", "near_fall_3", "near_fall_4", "near_fall_5", "spladle"},
    "bottom": ANYWHERE | {"escape", "escape_2", "reversal"},
}
WILD_TURN = {"neutral": ("takedown", "stalling"), "top": ("stalling",), "bottom": ("reversal", "escape", "stalling")}
ANSWER_ONLY = {"defense", "scramble", "clone"}
EXTRA_PLAYS = {"momentum", "cut_em"}  # played right after your own card: `momentum:`, `never: [cut_em]`
GATED = {"comeback": "tie", "mindset": "tie", "wizardry": "wizardry", "resilience": "resilience", "stalling": "stall"}
FIELDS = ("wrestler", "moves", "prefer", "only", "never", "answer", "hold", "plan", "draw", "stall_when_leading_by",
          "tie_when_trailing_by", "wizardry_when_erasing", "momentum", "resilience_when_leading")

Count = Annotated[StrictInt, Field(ge=0, le=50)]
Cards = Annotated[list[Any], Field(min_length=1, max_length=40)]


class StrategyModel(FileModel):
    """A Mat Clash strategy file (docs/mat-clash-strategy.md)."""

    wrestler: str | None = Field(default=None, max_length=80)  # optional: the wrestler's id or name (checked: his own)
    moves: dict[str, Name] = {}  # card -> the wrestler's own move name, for the writeup (one line of 1 to 80 characters)
    prefer: dict[Literal["neutral", "top", "bottom"], Cards] = {}
    only: dict[Literal["neutral", "top", "bottom", "takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle"], Cards] = {}
    never: Cards | None = None
    answer: dict[Literal["takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle"], Cards] = {}
    hold: dict[str, Count] | None = None  # how many of each answer card are kept back from ordinary answers; {} holds nothing
    # a line with a colon ("after transition 3: prefer pin") is read by YAML as a one-key mapping: it reads the same
    plan: Annotated[list[str | Annotated[dict[str, str], Field(min_length=1, max_length=1)]], Field(min_length=1, max_length=100)] | None = None
    draw: Literal["when_stuck", "always", "never"] = "when_stuck"
    stall_when_leading_by: Count | None = None
    tie_when_trailing_by: Annotated[StrictInt, Field(ge=1, le=50)] = 4  # Comeback, Mindset
    wizardry_when_erasing: Count = 5
    momentum: Literal["after_takedown", "always", "never"] = "after_takedown"
    resilience_when_leading: StrictBool = True


# ---------------------------------------------------------------------------- plan lines

@dataclass
class Rule:
    """One plan line (or one list of the YAML keys): when it applies, and what it does."""

    line: int
    text: str
    positions: frozenset | None = None  # None: every position
    conds: list = field(default_factory=list)  # functions of (scrap, i, his points, the opponent's): `test`, `check`
    words: list = field(default_factory=list)  # the conditions as read, for `fedtool read`
    prefer: list = field(default_factory=list)  # card keys, in order
    only: list | None = None
    never: list = field(default_factory=list)
    threat: str | None = None  # answer rules: the threat
    answer: list = field(default_factory=list)
    answer_only: bool = False
    never_answer: bool = False
    hold: dict = field(default_factory=dict)
    draw: str | None = None
    momentum: str | None = None

    @property
    def lazy(self) -> bool:
        """Whether the line only puts cards first (so it matters only when one is on offer)."""
        return bool(self.prefer) and self.only is None and not (self.never or self.hold or self.draw or self.momentum or self.threat)

    def bears_on(self, decision: str) -> bool:
        if decision == "answer":
            return bool(self.threat or self.never or self.hold)
        if decision == "draw":
            return bool(self.draw)
        return bool(self.momentum or self.never)  # momentum (and Cut Em's `never`)

    def test(self, state: State) -> bool:
        """Whether the rule's conditions hold (its position is judged apart)."""
        scrap, i, mine, theirs = state.scrap, state.i, state.mine, state.theirs
        for cond in self.conds:
            if not cond(scrap, i, mine, theirs):
                return False
        return True

    @property
    def check(self):
        """`test` as one function of (scrap, i, his points, the opponent's), with no State made:
        the turn's hot path (`Policy._turn_plan`). The same conditions, in the same order."""
        conds = self.conds
        if len(conds) == 1:
            return conds[0]

        def check(scrap, i, mine, theirs):
            for cond in conds:
                if not cond(scrap, i, mine, theirs):
                    return False
            return True
        return check


class State:
    """What a condition may look at: the scrap as the wrestler sees it (his own hand, the
    cards shown, the deck's size and the public deck list, never the order of the deck or
    the opponent's hand)."""

    __slots__ = ("scrap", "i", "position", "mine", "theirs")

    def __init__(self, scrap, i: int, position: str | None = None, theirs_extra: int = 0):
        self.scrap, self.i = scrap, i
        self.position = position or scrap.positions[i]
        self.mine = scrap.points[i]
        self.theirs = scrap.points[1 - i] + theirs_extra

    @property
    def transitions(self) -> int:
        return self.scrap.turn // 2

    def shown(self, who: int, ids) -> int:
        return _shown(self.scrap, who, ids)

    def unseen(self, ids) -> int:  # noqa: D401
        """Copies not in my hand and not yet played (`_unseen`)."""
        return _unseen(self.scrap, self.i, ids)

    def holding(self, ids) -> int:
        return _holding(self.scrap, self.i, ids)


def _shown(scrap, who: int, ids) -> int:
    """How many of these cards `who` has played."""
    shown = getattr(scrap, "shown", None)
    return sum(1 for c in shown[who] if c.id in ids) if shown else 0


def _unseen(scrap, i: int, ids) -> int:
    """Copies not in i's hand and not yet played: the deck list's count less his hand and the
    cards shown, which is what lies in the deck and the opponent's hand (every card is in
    exactly one place: ruling 4.4), so it is counted there."""
    return len([c for c in scrap.deck if c.id in ids]) + len([c for c in scrap.hands[1 - i] if c.id in ids])


def _holding(scrap, i: int, ids) -> int:
    """How many of these cards i holds."""
    return len([c for c in scrap.hands[i] if c.id in ids])


def _compare(value: int, n: int, how: str | None, exact: bool = False) -> bool:
    if how == "more" or (how is None and not exact):
        return value >= n
    if how in ("less", "fewer"):
        return value <= n
    return value == n


def _comparer(n: int, how: str | None, exact: bool = False):
    """`_compare(value, n, how, exact)` as one function of the value, made once when the line is
    read (an int's own comparison: `n.__le__(value)` is `value >= n`)."""
    if how == "more" or (how is None and not exact):
        return n.__le__
    if how in ("less", "fewer"):
        return n.__ge__
    return n.__eq__


NUM = r"(\d{1,3}|no|one|two|three|four|five)"
WORDS = {"no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
POSITIONS = {"on top": "top", "in the top position": "top", "on bottom": "bottom", "in the bottom position": "bottom",
             "in neutral": "neutral", "from neutral": "neutral", "in the neutral position": "neutral", "neutral": "neutral",
             "on the bottom": "bottom", "on the top": "top", "from the top": "top", "from the bottom": "bottom", "from top": "top", "from bottom": "bottom"}
ACTION = re.compile(r"(?:^|,\s*|\band\s+|\s)(prefer|only|never|answer|hold|keep|draw|momentum)\b")
HELP = ("a plan line is conditions, then one action: 'after transition 3, when leading by 4 or more, prefer stalling' "
        "(see docs/mat-clash-strategy.md)")


def _number(text: str) -> int:
    return WORDS[text] if text in WORDS else int(text)


class LineError(ValueError):
    pass


def _card(word: str, what: str = "card") -> str:
    word = word.strip().strip(".").strip()
    for attempt in (word, re.sub(r"^(?:a|an|any|the|their|his|both|all)\s+", "", word)):
        for form in (attempt, attempt[:-1] if attempt.endswith("s") else None, attempt[:-2] if attempt.endswith("es") else None):
            if form and (key := key_of(form)):
                return key
    raise LineError(f"{word!r} is not a Mat Clash card ({_card_list()})")


def _card_list() -> str:
    return "the cards are " + ", ".join(catalogue()) + "; near_fall, escape and beastin name any of theirs"


def _cards(text: str) -> list[str]:
    parts = [p for p in re.split(r",|\bthen\b|\band\b|\bor\b", text) if p.strip()]
    if not parts:
        raise LineError("name at least one card")
    return [_card(p) for p in parts]


def _condition(clause: str, rule: Rule) -> None:
    c = re.sub(r"^(?:when|if|once|while|with|and|but|only)\s+", "", clause.strip()).strip()
    c = re.sub(r"^(?:when|if|once|while|with)\s+", "", c)
    if c in POSITIONS:
        pos = POSITIONS[c]
        rule.positions = frozenset({pos}) if rule.positions is None else rule.positions & {pos}
        rule.words.append({"top": "on top", "bottom": "on bottom", "neutral": "in neutral"}[pos])
        return
    if m := re.fullmatch(r"after (?:the )?transition " + NUM, c):
        n = _number(m.group(1))
        rule.conds.append(lambda s, i, mine, theirs, n=n: s.turn // 2 >= n)
    elif m := re.fullmatch(r"before (?:the )?transition " + NUM, c):
        n = _number(m.group(1))
        rule.conds.append(lambda s, i, mine, theirs, n=n: s.turn // 2 + 1 < n)
    elif m := re.fullmatch(r"in (?:the )?transition " + NUM + r"(?: or (later|earlier))?", c):
        n, how = _number(m.group(1)), m.group(2)
        ok = _comparer(n, {"later": "more", "earlier": "less"}.get(how), exact=True)
        rule.conds.append(lambda s, i, mine, theirs, ok=ok: ok(s.turn // 2 + 1))
    elif m := re.fullmatch(r"(?:i am |i'm |we are )?(leading|ahead|trailing|behind)(?: by " + NUM + r"(?: points?)?(?: or (more|less|fewer))?)?", c):
        sign = 1 if m.group(1) in ("leading", "ahead") else -1
        n = _number(m.group(2)) if m.group(2) else 1
        how = m.group(3) or "more"
        if how != "more" and n >= 1:
            rule.conds.append(lambda s, i, mine, theirs, n=n, sign=sign: 1 <= sign * (mine - theirs) <= n)
        else:
            rule.conds.append(lambda s, i, mine, theirs, n=max(n, 1), sign=sign: sign * (mine - theirs) >= n)
    elif re.fullmatch(r"(?:the score is )?(?:tied|level|all square)", c):
        rule.conds.append(lambda s, i, mine, theirs: mine == theirs)
    elif m := re.fullmatch(r"(my|his|their|the opponent's) score is " + NUM + r" or (more|less|fewer)", c):
        mine, n, how = m.group(1) == "my", _number(m.group(2)), m.group(3)
        ok = _comparer(n, how)
        rule.conds.append((lambda s, i, mine, theirs, ok=ok: ok(mine)) if mine else (lambda s, i, mine, theirs, ok=ok: ok(theirs)))
    elif m := re.fullmatch(NUM + r"(?: or (more|less|fewer))? draws? left", c):
        n, how = _number(m.group(1)), m.group(2)
        ok = _comparer(n, how, exact=True)
        rule.conds.append(lambda s, i, mine, theirs, ok=ok: ok(s.draw_limit - s.draws_used[i]))
    elif m := re.fullmatch(NUM + r"(?: or (more|less|fewer))? cards? (?:left )?in the deck", c):
        n, how = _number(m.group(1)), m.group(2)
        ok = _comparer(n, how, exact=True)
        rule.conds.append(lambda s, i, mine, theirs, ok=ok: ok(len(s.deck)))
    elif c in ("the deck is empty", "the deck is out"):
        rule.conds.append(lambda s, i, mine, theirs: not s.deck)
    elif m := re.fullmatch(r"(?:they have|they've|the opponent has|he has) (?:shown|played) (?:" + NUM + r"(?: or more)? )?(.+)", c):
        n, ids = _number(m.group(1)) if m.group(1) else 1, set(members(_card(m.group(2))))
        rule.conds.append(lambda s, i, mine, theirs, n=n, ids=ids: _shown(s, 1 - i, ids) >= n)
    elif m := re.fullmatch(r"(?:they|the opponent|he) (?:cannot|can't|can not|does not|doesn't|do not|don't) (?:hold|have) (.+)", c):
        ids = set(members(_card(m.group(1))))
        rule.conds.append(lambda s, i, mine, theirs, ids=ids: _unseen(s, i, ids) == 0)
    elif m := re.fullmatch(r"(?:both |all |every )?(.+?) (?:is|are) (?:gone|played|out)", c):
        ids = set(members(_card(m.group(1))))
        rule.conds.append(lambda s, i, mine, theirs, ids=ids: _unseen(s, i, ids) + _holding(s, i, ids) == 0)
    elif m := re.fullmatch(r"(?:i am |i'm )?(holding|i hold|i have|not holding|i do not hold|i don't hold) (?:" + NUM + r"(?: or (more|less|fewer))? )?(.+)", c):
        negate = m.group(1) in ("not holding", "i do not hold", "i don't hold")
        n, how, ids = _number(m.group(2)) if m.group(2) else 1, m.group(3), set(members(_card(m.group(4))))
        ok = _comparer(n, how)
        rule.conds.append(lambda s, i, mine, theirs, ok=ok, ids=ids, negate=negate: ok(_holding(s, i, ids)) != negate)
    else:
        raise LineError(f"cannot read the condition {clause.strip()!r}: the conditions are after/before/in transition N, "
                        "leading/trailing [by N [or more/or less]], tied, my/their score is N or more/less, N or more/fewer draws left, "
                        "N or more/fewer cards in the deck, they have shown [N] CARD, they cannot hold CARD, CARD are gone, "
                        "holding [N or more] CARD, on top/on bottom/in neutral")
    rule.words.append(c)


def _action(text: str, rule: Rule) -> None:
    a = text.strip().rstrip(".").strip()
    if m := re.fullmatch(r"never answer (?:a |an |the )?(.+)", a):
        rule.threat, rule.never_answer = _threat(m.group(1)), True
    elif m := re.fullmatch(r"answer (?:a |an |the )?(.+?) (only )?with (.+)", a):
        rule.threat, rule.answer_only, rule.answer = _threat(m.group(1)), bool(m.group(2)), _cards(m.group(3))
        for key in rule.answer:
            if not set(members(key)) & CAN_ANSWER[rule.threat]:
                raise LineError(f"{shown_name(key)} cannot answer a {rule.threat.replace('_', ' ')}: " + _answers_text(rule.threat))
    elif m := re.fullmatch(r"prefer (.+)", a):
        rule.prefer = _cards(m.group(1))
    elif m := re.fullmatch(r"only (?:play )?(.+)", a):
        rule.only = _cards(m.group(1))
    elif m := re.fullmatch(r"never (?:play )?(.+)", a):
        rule.never = _cards(m.group(1))
    elif m := re.fullmatch(r"(?:hold|keep) (?:back )?(?:" + NUM + r" )?(.+?)(?: back)?", a):
        key = _card(m.group(2))
        _check_hold(key)
        rule.hold = {key: _number(m.group(1)) if m.group(1) else 1}
    elif m := re.fullmatch(r"draw (always|never|when stuck)", a):
        rule.draw = m.group(1).replace(" ", "_")
    elif m := re.fullmatch(r"(?:use |play )?momentum (always|never|after (?:a )?takedown)", a):
        rule.momentum = "after_takedown" if m.group(1).startswith("after") else m.group(1)
    else:
        raise LineError(f"cannot read the action {a!r}: the actions are prefer CARDS, only CARDS, never CARDS, answer THREAT [only] with CARDS, "
                        "never answer THREAT, hold N CARD, draw always/never/when stuck, momentum always/never/after takedown")


def _threat(word: str) -> str:
    key = _card(word)
    if key not in THREATS:
        raise LineError(f"{word.strip()!r} is not a threat to answer: the threats are {', '.join(THREATS)}")
    return key


def _answers_text(threat: str) -> str:
    return f"a {threat.replace('_', ' ')} is answered only with " + ", ".join(sorted(CAN_ANSWER[threat] - {"beastin_sp"}))


def _check_hold(key: str) -> None:
    if not set(members(key)) & HOLDABLE:
        raise LineError(f"{shown_name(key)} is never held: hold keeps back cards that answer (defense, beastin, scramble, clone)")


def read_line(text: str, line: int) -> Rule:
    """One plan line as a Rule; LineError in the player's words."""
    low = " ".join(text.lower().replace("’", "'").split())
    found = list(ACTION.finditer(low))
    if not found:
        raise LineError(f"no action in {text.strip()!r}: {HELP}")
    first_problems = None
    for m in found:  # the action starts where the conditions before it read ("they cannot hold beastin, prefer mat_beast")
        rule = Rule(line, text)
        head, action = low[: m.start()], low[m.start(1):]
        problems = []
        for clause in re.split(r",|\band\b", head):
            if clause.strip():
                try:
                    _condition(clause, rule)
                except LineError as exc:
                    problems.append(str(exc))
        if problems and m is not found[-1]:
            first_problems = first_problems or problems
            continue
        try:
            _action(action, rule)
        except LineError as exc:
            problems.append(str(exc))
        if problems:
            raise LineError("; ".join(first_problems or problems))
        return rule
    raise AssertionError("unreachable")  # pragma: no cover


# ---------------------------------------------------------------------------- compiled plans

def _wild_keys(card_ids, actions) -> list[str]:
    return [f"{c}:{a}" for a in actions for c in card_ids]


_COMPILED_FIELDS = ("order", "rank", "allowed", "forbidden", "hold", "draw", "momentum", "answers", "ranked")


class Compiled:
    """The plan for one situation with the rules that apply: the order turn plays are chosen
    in (each key with the gate the default puts on it, or None), the allow-list, the
    forbidden keys, what is held, how to draw and when to play Momentum. (A plain class, as
    the dataclass it was, compared field by field: the compiled path, policy.pxd, makes it
    an extension type whose fields a decision reads as C struct fields.)"""

    def __init__(self, order: list, rank: dict, allowed: set | None, forbidden: set, hold: dict, draw: str, momentum: str,
                 answers: dict, ranked: dict | None = None):
        self.order = order
        self.rank = rank
        self.allowed = allowed
        self.forbidden = forbidden
        self.hold = hold  # card id -> (ids counted, how many kept, whether they are every card of their action)
        self.draw = draw
        self.momentum = momentum
        self.answers = answers  # threat -> (rank dict, allowed set or None, ordered keys)
        self.ranked = {} if ranked is None else ranked  # threat -> {key: place} of the answers that may be given (`answer`'s lookup)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return all(getattr(self, name) == getattr(other, name) for name in _COMPILED_FIELDS)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return "Compiled(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in _COMPILED_FIELDS) + ")"


class Policy:
    """Decisions for one wrestler; every method sees the scrap and answers from the strategy."""

    def __init__(self, model: StrategyModel | None = None, rules: list[Rule] | None = None, moves: dict | None = None):
        self.model = model or StrategyModel()
        self.rules = rules or []
        self.moves = moves or {}
        self.conditional = [r for r in self.rules if r.conds]
        base_hold = DEFAULT_HOLD if self.model.hold is None else {}
        self.base_hold = dict(base_hold)
        self._cache: dict = {}
        self._asked: tuple = (None,) * 6  # (options, scrap, turn, deck size, wrestler, choice): the last choice
        self._slots: dict = {}
        self._judges: dict = {}  # position -> what `_turn_plan` judges there (`_judge`)
        self._bearing = {d: any(r.bears_on(d) for r in self.conditional) for d in ("answer", "draw", "momentum")}
        # no line or setting says `momentum: always`: `use_momentum` is False after any play but a
        # scoring Takedown, so the engine need not ask then (`Scrap._turn`)
        self.momentum_after_takedown_only = self.model.momentum != "always" and all(r.momentum != "always" for r in self.rules)
        self.warnings: list = []
        self.notes: list = []  # how a file written before the plan language reads now (docs/mat-clash-strategy.md)
        self.lines: dict = {}

    # ------------------------------------------------------------ compiling

    def applying(self, state: State) -> list[Rule]:
        return [r for r in self.rules if (r.positions is None or state.position in r.positions) and r.test(state)]

    def plan(self, state: State, offered: set | None = None, only_for: str | None = None) -> Compiled:
        """The compiled plan for the state: the rules whose position and conditions hold.
        With `offered` (the keys of the plays on offer), a line that only puts cards first and
        names none of them is not judged: it cannot change the choice among those plays (the
        others keep their order), and conditions are the costly part of a decision. With
        `only_for` ("answer", "draw", "momentum") only the lines that bear on that decision are
        judged, and only that part of the plan may be read."""
        if not self.conditional:
            return self._plain(state.position)
        pos = state.position
        slot = self._slot(pos, only_for)
        if offered is None:
            bits = tuple([r.test(state) for r, _ in slot])
        else:
            # (as an if-else: Cython 3.3 miscompiles `(a or not b) and c` to a pointer cast)
            bits = tuple([False if keys is not None and keys.isdisjoint(offered) else r.test(state) for r, keys in slot])
        return self._cache.get((pos, only_for, bits)) or self._compiled(pos, only_for, slot, bits)

    def _slot(self, pos: str, only_for: str | None) -> list:
        """The conditional lines that bear on this decision here, each with the cards of a line
        that only puts cards first (None for the others), made once per position and decision."""
        slot = self._slots.get((pos, only_for))
        if slot is None:
            slot = self._slots[(pos, only_for)] = [
                (r, frozenset(self._expand(r.prefer, pos)) if r.lazy and only_for is None else None) for r in self.conditional
                if (r.positions is None or pos in r.positions) and (only_for is None or r.bears_on(only_for))]
        return slot

    def _compiled(self, pos: str, only_for: str | None, slot: list, bits: tuple) -> Compiled:
        """The plan with the lines of `slot` whose bit is set, compiled once and kept."""
        on = [r for (r, _), bit in zip(slot, bits) if bit]
        rules = [r for r in self.rules if (r.positions is None or pos in r.positions) and (not r.conds or any(r is x for x in on))]
        plan = self._cache[(pos, only_for, bits)] = self.compile(pos, rules)
        return plan

    def _turn_plan(self, scrap, i: int, options) -> Compiled:
        """`plan(State(scrap, i), offered)` for a turn's choice, judging as little as it may: a line
        that only puts cards first and names none on offer is off without a look at the scrap
        (its conditions are not judged), and no State is made: each line's conditions are one
        function of the scrap, the wrestler and the two scores (`Rule.check`). The plans are
        kept per position by the lines that hold."""
        pos = scrap.positions[i]
        judge = self._judges.get(pos)
        if judge is None:
            judge = self._judge(pos)
        named, checks, plans, lazy = judge
        offered = [k for p in options if (k := p.key) in named]  # the named cards on offer
        if not offered and lazy:  # every line only puts cards first, and none is on offer: all are off
            bits = lazy
        else:
            points = scrap.points
            mine, theirs = points[i], points[1 - i]
            if offered:
                bits = tuple([False if keys is not None and keys.isdisjoint(offered) else check(scrap, i, mine, theirs) for keys, check in checks])
            else:
                bits = tuple([keys is None and check(scrap, i, mine, theirs) for keys, check in checks])
        plan = plans.get(bits)
        if plan is None:
            plan = plans[bits] = self._cache.get((pos, None, bits)) or self._compiled(pos, None, self._slot(pos, None), bits)
        return plan

    def _judge(self, pos: str) -> tuple:
        """What `_turn_plan` judges in this position, made once: every card the prefer-only lines
        name, each line's cards (None: not a prefer-only line) with its conditions as one function,
        and the plans found so far by the lines that hold; when every line only puts cards first,
        the bits of none holding (what a turn with none of their cards on offer judges), else None."""
        slot = self._slot(pos, None)
        named = frozenset().union(*(keys for _, keys in slot if keys is not None))
        lazy = (False,) * len(slot) if all(keys is not None for _, keys in slot) else None
        judge = self._judges[pos] = (named, [(keys, r.check) for r, keys in slot], {}, lazy)
        return judge

    def _plain(self, position: str) -> Compiled:
        """The plan of the lines without conditions (all a policy without plan conditions has)."""
        plan = self._cache.get(position)
        if plan is None:
            plan = self._cache[position] = self.compile(position, [r for r in self.rules if not r.conds and (r.positions is None or position in r.positions)])
        return plan

    def _plan_for(self, scrap, i: int, decision: str) -> Compiled:
        """The plan for an answer, a draw or Momentum: conditions judged only if a line bears on it."""
        if not self._bearing[decision]:
            position = scrap.positions[i]
            return self._cache.get(position) or self._plain(position)
        return self.plan(State(scrap, i), only_for=decision)

    def compile(self, position: str, rules: list[Rule]) -> Compiled:
        explicit: list[str] = []
        allowed: set | None = None
        forbidden: set = set()
        hold: dict = dict(self.base_hold)
        draw = momentum = None
        answer_rules: dict = {}
        held_by_rule: set = set()
        for r in rules:
            explicit += r.prefer
            if r.only is not None:
                explicit += r.only
                keys = set(self._expand(r.only, position))
                allowed = keys if allowed is None else allowed & keys
            for k in r.never:
                forbidden.update(self._expand([k], position, every_action=True))
            for k, n in r.hold.items():
                if k not in held_by_rule:
                    held_by_rule.add(k)
                    hold[k] = n
            draw = draw or r.draw
            momentum = momentum or r.momentum
            if r.threat:
                answer_rules.setdefault(r.threat, []).append(r)
        order: list = []
        seen: set = set()
        wild_actions: list = []
        for name in explicit:
            self._place(name, None, order, seen, wild_actions, position, explicit=True)
        for name in ("comeback", "mindset", "wizardry", "resilience"):
            self._place(name, GATED[name], order, seen, wild_actions, position)
        for name in DEFAULT_PREFER[position]:
            self._place(name, None, order, seen, wild_actions, position)
        self._place("stalling", "stall", order, seen, [], position)
        for key in wild_actions:
            if key not in seen:
                seen.add(key)
                order.append((key, None))
        rank = {k: (n, gate) for n, (k, gate) in enumerate(order) if k not in forbidden and (allowed is None or k in allowed)}  # what may be played
        holds = {}
        cards = catalogue()
        for k, n in hold.items():
            ids = frozenset(members(k))
            actions = {cards[cid].action for cid in ids}
            # the ids are every card of their one action: the count is how many of that action he holds
            whole = len(actions) == 1 and {c.id for c in cards.values() if c.action in actions} <= ids
            for cid in ids:
                holds[cid] = (ids, n, whole)
        answers = {t: self._answers(t, answer_rules.get(t, []), forbidden) for t in THREATS}
        ranked = {t: {k: n for k, n in rank_.items() if (allowed_ is None or k in allowed_) and k not in forbidden}
                  for t, (rank_, allowed_, _) in answers.items()}
        return Compiled(order, rank, allowed, forbidden, holds, draw or self.model.draw, momentum or self.model.momentum, answers, ranked)

    @staticmethod
    def _expand(names, position: str, every_action: bool = False) -> list[str]:
        """The play keys a list names: card ids, and Beastin' standing for a named base card."""
        keys = []
        for name in names:
            ids = members(name)
            keys += ids
            actions = WILD_AS if every_action else WILD_TURN[position]
            if name in GROUPS["beastin"] or name == "beastin":
                keys += _wild_keys(ids, actions + ("beastin",))
            for cid in ids:
                action = catalogue()[cid].action
                if action in WILD_AS:
                    keys += _wild_keys(BEASTIN, (action,))
        return keys

    @staticmethod
    def _place(name, gate, order, seen, wild_actions, position, explicit=False) -> None:
        ids = members(name)
        for cid in ids:
            card = catalogue()[cid]
            if card.action == "wild":  # Beastin' named for a turn: as whatever it may stand for here
                for key in _wild_keys((cid,), WILD_TURN[position]):
                    if key not in seen:
                        seen.add(key)
                        order.append((key, gate))
                continue
            if cid not in seen:
                seen.add(cid)
                order.append((cid, gate))
            if card.action in WILD_AS and (explicit or card.action != "stalling"):
                wild_actions += _wild_keys(BEASTIN, (card.action,))

    def _answers(self, threat: str, rules: list[Rule], forbidden: set):
        names: list = []
        allowed: set | None = None
        for r in rules:
            if r.never_answer:
                allowed = set()
            names += r.answer
            if r.answer_only:
                keys = set(self._answer_keys(r.answer))
                allowed = keys if allowed is None else allowed & keys
        names += DEFAULT_ANSWER[threat]
        order: list = []
        for k in self._answer_keys(names):
            if k not in order and k not in forbidden:
                order.append(k)
        return {k: n for n, k in enumerate(order)}, allowed, order

    @staticmethod
    def _answer_keys(names) -> list[str]:
        keys = []
        for name in names:
            for cid in members(name):
                keys += _wild_keys((cid,), ("defense", "beastin")) if cid in BEASTIN else [cid]
        return keys

    # ------------------------------------------------------------ decisions

    @staticmethod
    def key(play) -> str:
        """How a play is ranked: its card's id (`id:action` for Beastin'), made once with the Play."""
        return play.key

    @staticmethod
    def _held(scrap, i, card, plan: Compiled) -> bool:
        rule = plan.hold.get(card.id)
        if not rule:
            return False
        ids, keep, whole = rule
        if keep <= 0:
            return False
        hand = scrap.hands[i]
        if whole:  # every card of his of that action counts: the hand's index has them
            return len(hand.by[card.action]) <= keep
        return len([c for c in hand if c.id in ids]) <= keep

    def _gate(self, gate: str, scrap, i: int, state: State | None) -> bool:
        behind = state.theirs - state.mine if state is not None else scrap.points[1 - i] - scrap.points[i]
        if gate == "tie":
            return behind >= self.model.tie_when_trailing_by
        if gate == "wizardry":
            stack = scrap.stacks[1 - i]  # what Wizardry would erase there (4.14, by the fed's setting)
            return sum([stack[n][1] for n in scrap.erasable(i)]) >= self.model.wizardry_when_erasing
        if gate == "resilience":
            return self.model.resilience_when_leading and behind < 0 and scrap.transitions >= scrap.pin_after
        if gate == "stall":
            lead = self.model.stall_when_leading_by
            return lead is not None and -behind >= lead
        return True  # pragma: no cover

    def choose(self, scrap, i, options, state: State | None = None):
        """The play this policy makes among `options` (None: it passes)."""
        asked = self._asked
        if state is None and options is asked[0] and asked[1] is scrap and asked[2] == scrap.turn and asked[3] == len(scrap.deck) and asked[4] == i:
            return asked[5]  # asked again at the same moment (whether to draw, then what to play)
        if state is not None:
            plan = self.plan(state, {p.key for p in options} if self.conditional else None)
        elif self.conditional:
            plan = self._turn_plan(scrap, i, options)
        else:
            plan = self._cache.get(scrap.positions[i]) or self._plain(scrap.positions[i])
        best = self._best(scrap, i, options, state, plan)
        if state is None:
            self._asked = (options, scrap, scrap.turn, len(scrap.deck), i, best)
        return best

    def turn(self, scrap, i, can_draw):
        """A turn's decision in one call (the engine's `_turn` asks it of a `Policy`): DRAW when
        the policy draws a card now (it may: `can_draw`), else its play among the turn's options
        (`scrap.turn_options(i)`, read only when the decision needs them; None: it passes). The
        same decision as `wants_draw` and then `choose`, made once: with `draw: when_stuck` the
        play it would make decides whether it draws, and is the play."""
        position = scrap.positions[i]
        plain = self._cache.get(position) or self._plain(position)
        if can_draw:
            draw = self.plan(State(scrap, i), only_for="draw").draw if self._bearing["draw"] else plain.draw
            if draw == "always":
                return DRAW
        else:
            draw = "never"
        options = scrap.turn_options(i)
        if not options:  # when stuck (nothing to play) he draws if he may
            return None if draw == "never" else DRAW
        best = self._best(scrap, i, options, None, self._turn_plan(scrap, i, options) if self.conditional else plain)
        return DRAW if best is None and draw == "when_stuck" else best  # nothing worth playing: stuck too

    def _best(self, scrap, i, options, state: State | None, plan: Compiled):
        """The first-ranked of `options` under `plan` that its gate and the hold allow (None: none)."""
        best = None
        best_n = -1  # none yet (ranks count from 0)
        rank = plan.rank
        for p in options:
            found = rank.get(p.key)
            if found is None:
                continue
            n, gate = found
            if best_n >= 0 and n >= best_n:
                continue
            if gate and not self._gate(gate, scrap, i, state):
                continue
            if p.card.action == "wild" and self._held(scrap, i, p.card, plan):
                continue
            best, best_n = p, n
        return best

    def answer(self, scrap, i, threat, options):
        if self._bearing["answer"]:
            plan = self.plan(State(scrap, i), only_for="answer")
        else:  # `_plan_for`, inlined
            position = scrap.positions[i]
            plan = self._cache.get(position) or self._plain(position)
        ranked = plan.ranked[threat]  # the ranked answers it may give: allowed, not forbidden
        ending = threat in ENDING
        best = None
        best_n = -1  # none yet (places count from 0)
        for o in options:
            k = o.key
            n = ranked.get(k)
            if n is None:  # unranked: against a threat that ends the scrap, anything allowed, after the ranked
                if not ending:
                    continue
                rank, allowed, _ = plan.answers[threat]
                if k in rank or k in plan.forbidden or (allowed is not None and k not in allowed):
                    continue
                n = len(rank)
            if best_n >= 0 and n >= best_n:
                continue  # the first of the best stands (the hold below cannot change that)
            if not ending and self._held(scrap, i, o.card, plan):
                continue
            best, best_n = o, n
        return best

    def wants_draw(self, scrap, i, options) -> bool:
        if self._bearing["draw"]:
            draw = self.plan(State(scrap, i), only_for="draw").draw
        else:  # `_plan_for`, inlined
            position = scrap.positions[i]
            draw = (self._cache.get(position) or self._plain(position)).draw
        if draw == "never":
            return False
        if draw == "always":
            return True
        return self.choose(scrap, i, options) is None  # stuck: nothing worth playing

    def use_cut_em(self, scrap, i) -> bool:
        """Cut Em only when the policy will shoot the Takedown it opens: the plan for neutral
        with the opponent's point already given (+3 for the new Takedown against 1 given away)."""
        state = State(scrap, i, "neutral", theirs_extra=1)
        plan = self.plan(state)
        if "cut_em" in plan.forbidden:
            return False
        cut = next((c for c in scrap.hands[i] if c.action == "cut_em"), None)
        takedowns = [p for p in scrap._holding(i, "takedown") if p.card is not cut]
        return self.choose(scrap, i, takedowns, state) is not None

    def use_momentum(self, scrap, i, scored_takedown: bool) -> bool:
        plan = self._plan_for(scrap, i, "momentum")
        if "momentum" in plan.forbidden:
            return False
        if plan.momentum == "never":
            return False
        if plan.momentum == "always":
            return True
        if not scored_takedown:
            return False
        by = scrap.hands[i].by
        return bool(by.get("near_fall") or by.get("spladle"))

    # ------------------------------------------------------------ how it reads

    def describe_order(self, position: str, rules: list[Rule] | None = None) -> list[str]:
        """The turn plays of a situation in the order the policy plays them, as `fedtool read`
        shows them ("Takedown +3", "Beastin' as Takedown", "Stalling -1 (when ahead by 3 or more)")."""
        if rules is None:
            rules = [r for r in self.rules if not r.conds and (r.positions is None or position in r.positions)]
        plan = self.compile(position, rules)
        out = []
        for key, gate in plan.order:
            if key in plan.forbidden or (plan.allowed is not None and key not in plan.allowed) or not _playable(key, position):
                continue
            text = _key_text(key) + (f" ({self._gate_text(gate)})" if gate else "")
            if text not in out:
                out.append(text)
        return out

    def _gate_text(self, gate: str) -> str:
        m = self.model
        return {"tie": f"when {m.tie_when_trailing_by} or more behind",
                "wizardry": f"when it erases {m.wizardry_when_erasing} or more",
                "resilience": "when ahead once Pins are legal" if m.resilience_when_leading else "never",
                "stall": "never" if m.stall_when_leading_by is None else f"when ahead by {m.stall_when_leading_by} or more"}[gate]

    def readings(self) -> list:
        """`fedtool read`'s account: each situation's order, answers, holds, draws, then each
        plan line and what it changes, then the warnings."""
        lines = self.lines
        out = []
        for pos in SITUATIONS:
            rules = [r for r in self.rules if not r.conds and (r.positions is None or pos in r.positions)]
            order = [t for t in self.describe_order(pos, rules) if not t.endswith("(never)")]
            out.append(Reading(lines.get(("prefer", pos), 0), f"in {pos}: plays " + (", ".join(order) if order else "nothing") + ", else passes"))
        plan = self.compile("neutral", [r for r in self.rules if not r.conds])
        for threat in THREATS:
            _, allowed, order = plan.answers[threat]
            shown = []
            for k in order:
                if (allowed is None or k in allowed) and _answer_shown(k, threat) and _key_text(k) not in shown:
                    shown.append(_key_text(k))
            how = ", ".join(shown) if shown else "nothing (never answers)"
            if threat in ENDING and allowed is None:
                how += ", else any answer it holds"
            out.append(Reading(lines.get(("answer", threat), 0), f"answers a {threat.replace('_', ' ')} with {how}"))
        held = ", ".join(f"{n} {shown_name(k)}" for k, n in (self.base_hold | {r_k: r_n for r in self.rules if not r.conds for r_k, r_n in r.hold.items()}).items() if n)
        out.append(Reading(lines.get(("hold",), 0), f"holds back {held or 'nothing'} (against a Pin, MAT BEAST, Feet to Back or Spladle it answers with anything)"))
        draw = {"when_stuck": "draws when it has no card worth playing", "always": "draws every turn while draws are left", "never": "never draws"}[plan.draw]
        out.append(Reading(lines.get(("draw",), 0), draw + "; Momentum " + plan.momentum.replace("_", " ")
                           + "; Cut Em only when it will shoot the Takedown"))
        for r in self.conditional:
            where = sorted(r.positions) if r.positions else list(SITUATIONS)
            changes = []
            for pos in where:
                base = [x for x in self.rules if not x.conds and (x.positions is None or pos in x.positions)]
                with_rule = sorted(base + [r], key=self.rules.index)
                order = [t for t in self.describe_order(pos, with_rule) if not t.endswith("(never)")]
                if r.prefer or r.only is not None or r.never:
                    changes.append(f"in {pos} plays " + (", ".join(order) or "nothing"))
            if r.threat:
                changes.append(f"answers a {r.threat.replace('_', ' ')} " + ("never" if r.never_answer else ("only " if r.answer_only else "first ") + "with " + ", ".join(shown_name(k) for k in r.answer)))
            if r.hold:
                changes.append("holds back " + ", ".join(f"{n} {shown_name(k)}" for k, n in r.hold.items()))
            if r.draw:
                changes.append("draws " + r.draw.replace("_", " "))
            if r.momentum:
                changes.append("Momentum " + r.momentum.replace("_", " "))
            out.append(Reading(r.line, f"{' '.join(r.text.split())} -> " + "; ".join(changes)))
        out += [Reading(line, f"warning: {text}") for line, text in self.warnings]
        out += [Reading(line, f"note, what changed: {text}") for line, text in self.notes]
        return out


def _key_text(key: str) -> str:
    """A play key as `fedtool read` shows it: the printed name; either Beastin' is "Beastin'"."""
    if ":" in key:
        action = key.split(":")[1]
        return "Beastin'" if action == "beastin" else f"Beastin' as {catalogue()[action if action != 'escape' else 'escape'].name.split(' +')[0].split(' -')[0]}"
    return re.sub(r"\s*\(.*\)", "", catalogue()[key].name)  # "Comeback!", not "Comeback! (Tie the Match)"


def _playable(key: str, position: str) -> bool:
    """Whether a turn play of this key can ever be offered in this position."""
    if ":" in key:
        return key.split(":")[1] in WILD_TURN[position]
    return key in TURN_CARDS[position]


def _answer_shown(key: str, threat: str) -> bool:
    """Whether an answer key is ever offered against this threat (Beastin' answers MAT BEAST and
    Spladle as itself, anything else as Defense)."""
    if ":" in key:
        return key.endswith(":beastin") == (threat in ("mat_beast", "spladle"))
    return key in CAN_ANSWER[threat]


@dataclass
class Reading:
    """How a line of a strategy file reads (`fedtool read`)."""

    line: int
    reading: str
    text: str = ""


# ---------------------------------------------------------------------------- reading a file

PLAYER_WORDS = {
    "int_type": "give a whole number", "int_parsing": "give a whole number", "int_from_float": "give a whole number",
    "bool_type": "give true or false", "bool_parsing": "give true or false", "string_type": "give text",
    "list_type": "give a list, such as [takedown, pin]", "dict_type": "give a mapping, such as {neutral: [takedown]}",
}


def _words(err: dict, data: Any) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    name = str(err["loc"][-1]) if err["loc"] else ""
    if kind == "extra_forbidden":
        return f"unknown field {name!r}: the fields are {', '.join(FIELDS)}"
    if kind == "literal_error":
        return f"{err['input']!r} is not one of {ctx.get('expected', '').replace(chr(39), '')}"
    if kind == "too_short":
        return "an empty list: name at least one card, or leave the line out"
    if kind == "too_long":
        return f"a list of more than {ctx.get('max_length')} items"
    if kind == "greater_than_equal":
        return f"{err['input']!r} is too small: give {ctx.get('ge')} or more"
    if kind == "less_than_equal":
        return f"{err['input']!r} is too big: give {ctx.get('le')} or less"
    if kind in PLAYER_WORDS:
        found = err.get("input")
        return f"{PLAYER_WORDS[kind]} here, not {found!r}" if not isinstance(found, (dict, list)) else PLAYER_WORDS[kind]
    return err["msg"]


def _check_card(name: Any, file: str, where: str, problems: Collector) -> str | None:
    key = key_of(name) if isinstance(name, str) else None
    if key is None:
        problems.add(file, where, f"unknown card {name!r}; {_card_list()}", "Mat Clash strategy: cards")
    return key


def read_policy(data: Any, file: str, wrestler_id: str | None = None, wrestler_name: str | None = None) -> Policy:
    """A strategy file, checked: every problem at once, each with its line, in the player's
    words. A `wrestler:` that names someone other than the wrestler it is for is refused."""
    if data is None:
        return Policy()
    problems = Collector()
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        raise FedError(Problem(file, place(data, ()) or None, f"a strategy is a set of fields such as `prefer:` and `plan:` (one per line), "
                               f"but this file is {kind}: see docs/mat-clash-strategy.md", RULE))
    model = None
    try:
        model = StrategyModel.model_validate(data)
    except ValidationError as exc:
        seen = set()
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            loc = tuple(p for p in loc if p != "[key]")
            words = _words(err, data)
            if loc[:1] == ("plan",) and len(loc) > 2:  # one of the forms a line may take: say what a line is
                loc, words = loc[:2], "a plan line is one sentence, such as 'after transition 3, when leading by 4 or more, prefer stalling'"
            elif loc == ("plan",) and err["type"] == "too_short":
                words = "an empty list: write at least one line, or leave `plan:` out"
            if (loc, words) not in seen:
                seen.add((loc, words))
                problems.add(file, place(data, loc), words, RULE)
    if model is not None and model.wrestler is not None and wrestler_id is not None and model.wrestler != wrestler_id \
            and model.wrestler.casefold() != (wrestler_name or "").casefold():
        problems.add(file, place(data, ("wrestler",)), f"this strategy names {model.wrestler!r}, but it is {wrestler_name}'s ({wrestler_id}): "
                     "a strategy is for the wrestler whose file it is", RULE)
    rules: list[Rule] = []
    warnings: list = []
    lines: dict = {}

    def section(name):
        value = data.get(name)
        return value if isinstance(value, dict) else {}

    plan = data.get("plan")
    if isinstance(plan, list):
        for n, text in enumerate(plan):
            where = place(data, ("plan", n))
            if isinstance(text, dict) and len(text) == 1 and all(isinstance(x, str) for x in (*text, *text.values())):
                text = ", ".join(*text.items())
            if not isinstance(text, str):
                continue  # the model has said so
            try:
                rule = read_line(text, line_of_place(data, ("plan", n)))
            except LineError as exc:
                problems.add(file, where, str(exc), RULE)
                continue
            rules.append(rule)
            for key in rule.prefer + (rule.only or []):
                for pos in sorted(rule.positions or ()) or [None]:
                    _warn_turn(key, pos, rule.line, warnings)
    for situation, names in section("prefer").items():
        if situation in SITUATIONS and isinstance(names, list):
            keys = [k for n, name in enumerate(names) if (k := _check_card(name, file, place(data, ("prefer", situation, n)), problems))]
            rules.append(Rule(line_of_place(data, ("prefer", situation)), f"prefer in {situation}", frozenset({situation}), prefer=keys))
            lines[("prefer", situation)] = line_of_place(data, ("prefer", situation))
            for n, key in enumerate(keys):
                _warn_turn(key, situation, line_of_place(data, ("prefer", situation)), warnings)
    for target, names in section("only").items():
        if not isinstance(names, list):
            continue
        keys = [k for n, name in enumerate(names) if (k := _check_card(name, file, place(data, ("only", target, n)), problems))]
        line = line_of_place(data, ("only", target))
        if target in SITUATIONS:
            rules.append(Rule(line, f"only in {target}", frozenset({target}), only=keys))
            lines[("prefer", target)] = line
            for key in keys:
                _warn_turn(key, target, line, warnings)
        elif target in THREATS:
            _check_answers(keys, target, file, place(data, ("only", target)), problems)
            rules.append(Rule(line, f"answer {target} only", threat=target, answer=keys, answer_only=True))
            lines[("answer", target)] = line
    for threat, names in section("answer").items():
        if threat in THREATS and isinstance(names, list):
            keys = [k for n, name in enumerate(names) if (k := _check_card(name, file, place(data, ("answer", threat, n)), problems))]
            _check_answers(keys, threat, file, place(data, ("answer", threat)), problems)
            rules.append(Rule(line_of_place(data, ("answer", threat)), f"answer {threat}", threat=threat, answer=keys))
            lines[("answer", threat)] = line_of_place(data, ("answer", threat))
    if isinstance(data.get("never"), list):
        keys = [k for n, name in enumerate(data["never"]) if (k := _check_card(name, file, place(data, ("never", n)), problems))]
        rules.append(Rule(line_of_place(data, ("never",)), "never", never=keys))
    hold: dict = {}
    for name, count in section("hold").items():
        key = _check_card(name, file, place(data, ("hold", name)), problems)
        if key is not None:
            try:
                _check_hold(key)
                hold[key] = count
            except LineError as exc:
                problems.add(file, place(data, ("hold", name)), str(exc), RULE)
    if "hold" in data:
        lines[("hold",)] = line_of_place(data, ("hold",))
    if "draw" in data:
        lines[("draw",)] = line_of_place(data, ("draw",))
    moves: dict = {}
    for name, move in section("moves").items():
        key = _check_card(name, file, place(data, ("moves", name)), problems)
        if key is not None:
            for cid in members(key):
                moves[cid] = move
    problems.raise_if_any()
    notes = _what_changed(data)
    policy = Policy(model, rules, moves)
    policy.notes = notes
    policy.base_hold = hold if model.hold is not None else dict(DEFAULT_HOLD)
    policy.warnings = warnings
    policy.lines = lines
    return policy


CHANGED_NAMES = {
    "near_fall": "near_fall now means any Near Fall, best first (it meant Near Fall +2 alone); write near_fall_2 for that card",
    "escape": "escape now means Escape +2, then Escape +1; write escape_1 for Escape +1 alone",
}


def _what_changed(data: dict) -> list:
    """Notes for a file that reads differently since the plan language (docs/mat-clash-strategy.md,
    "What changed"): the file stands; the player is told what it now does."""
    notes = []
    if isinstance(data.get("prefer"), dict) and data["prefer"] and not any(k in data for k in ("only", "plan", "never")):
        notes.append((line_of_place(data, ("prefer",)), "`prefer:` lists sit on top of the default: cards they leave out are still "
                      "played after them; write `only:` to play nothing else"))
    named = set()
    for section in ("prefer", "answer", "only"):
        for lst in (data.get(section) or {}).values() if isinstance(data.get(section), dict) else ():
            for name in lst if isinstance(lst, list) else ():
                if isinstance(name, str) and key_of(name) in CHANGED_NAMES and key_of(name) not in named:
                    named.add(key_of(name))
                    notes.append((line_of_place(data, (section,)), CHANGED_NAMES[key_of(name)]))
    if data.get("hold") == {}:
        notes.append((line_of_place(data, ("hold",)), "`hold: {}` keeps nothing back (it used to keep one Defense)"))
    return notes


def line_of_place(data: Any, loc: tuple) -> int:
    from fedtool.kernel.yamlio import line_of
    return line_of(data, loc) or 1


def _check_answers(keys, threat, file, where, problems) -> None:
    for key in keys:
        if not set(members(key)) & CAN_ANSWER[threat]:
            problems.add(file, where, f"{shown_name(key)} cannot answer a {threat.replace('_', ' ')}: " + _answers_text(threat), RULE)


def _warn_turn(key: str, situation: str, line: int, warnings: list) -> None:
    ids = set(members(key))
    if ids & ANSWER_ONLY and not ids - ANSWER_ONLY:
        warnings.append((line, f"{shown_name(key)} is only ever an answer, never a turn play: list it under `answer:`"))
    elif ids & EXTRA_PLAYS:
        warnings.append((line, f"{shown_name(key)} is played right after your own card, not as a turn: "
                               + ("use `momentum:`" if "momentum" in ids else "it is played when you will shoot the Takedown it opens")))
    elif situation is not None and not ids & TURN_CARDS[situation]:
        warnings.append((line, f"{shown_name(key)} can never be played in {situation}"))
