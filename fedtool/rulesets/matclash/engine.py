# cython: language_level=3, annotation_typing=False
"""Mat Clash: a Quick Scrap played card by card by two policies, exactly as
docs/rulings/mat-clash.md sets out (rule numbers in comments), and the Dual Match.

All chance is the shuffle, made with the dice handed in ("shuffle dN", logged).
The engine returns data; the writeup and the league are elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fedtool.kernel.dice import Dice
from .cards import DRAW, WILD_AS, Card, Play

__all__ = ["Card", "Play"]  # Play lives with the cards (one made per card and action); the engine's name for it stays

NEUTRAL, TOP, BOTTOM = "neutral", "top", "bottom"
FALL_POINTS, TECH_FALL, MAJOR, DECISION = 6, 5, 4, 3  # Dual Match team points
TURN_GUARD = 60  # 2.7: no real scrap is this long


@dataclass(frozen=True)
class Rules:
    """The readings a fed may choose (`rulesets: matclash:` in rosters/fed.yaml; the settings
    table of docs/rulings/mat-clash.md). Each default is the rulebook's reading."""

    stalling_ban: str = "next_play"  # 4.10: or "turn" (only to the end of the staller's own turn)
    wizardry_erases: str = "his_cards"  # 4.14: or "stack" (his stack as it lies), "scoring" (his cards that scored)
    resilience_stops_spladle: bool = True  # 4.16: "Unpinnable": an undefended Spladle is no fall against him
    early_falls: str = "fall"  # 4.17: or "no_fall" (no Feet to Back or Spladle fall before the Pin timing)
    tie_when_ahead: str = "tie"  # 4.18: or "no_points" (0, the score stays), "not_playable"


DEFAULT_RULES = Rules()
# the hand's index keeps each Beastin' as every card it may stand for too, under these keys
WILD_KEYS = {action: f"wild as {action}" for action in (*WILD_AS, "beastin")}
DEFENDED = frozenset({"takedown", "reversal", "pin", "feet_to_back"})  # 2.5: the threats Defense answers


@cache
def _shuffle_plan(n: int) -> tuple[list[int], tuple[int, ...], str]:
    """A deck of n cards' shuffle, made once per size: the dice (dn down to d2), the places
    they fill, counted from 1 (n down to 2: `Scrap.shuffle` puts a blank before the deck, so a
    face is the place it picks) and the purpose the roll is logged with."""
    return list(range(n, 1, -1)), tuple(range(n, 1, -1)), f"shuffle: one die each, d{n} down to d2"


class Given(tuple):
    """A score-stack entry (card, points) put there by the other wrestler's card: his Stalling
    or Cut Em gives its point to this stack (4.4). It unpacks and compares as the pair."""


@dataclass
class Event:
    """One thing that happened, for the writeup: who, what, points, the score after."""

    turn: int
    wrestler: int | None
    kind: str  # draw, play, answer, no_fall, skip, pass, fall, score, tenth, overtime
    card: str = ""
    points: int = 0
    text: str = ""
    score: tuple = (0, 0)
    positions: tuple = (NEUTRAL, NEUTRAL)


_UNRECORDED = Event(0, None, "unrecorded")  # what `log` hands back when a scrap keeps no events


@dataclass
class ScrapResult:
    winner: int | None
    method: str  # fall, tech_fall, major, decision
    finish: str  # pin, mat_beast, feet_to_back, spladle, score, overtime
    score: tuple
    turns: int
    transitions: int
    first: int  # the 10th-card winner
    events: list = field(default_factory=list)

    @property
    def team_points(self) -> int:
        """4.8: fall 6, technical fall 5, major decision 4, decision 3."""
        return {"fall": FALL_POINTS, "tech_fall": TECH_FALL, "major": MAJOR, "decision": DECISION}[self.method]


class Hand(list):
    """A wrestler's hand, in the order the cards came to it, indexed by action: `by[action]`
    holds the cards of that action in hand order, each as the Play of itself (`card.own`), so a
    turn's options are read off the index instead of scanning the hand for each kind of play. The engine adds and takes cards with
    `list`'s own methods and the index together (`Scrap.draw`, `Scrap._spend`); the list's
    methods below keep the index too, for anyone else who edits a hand (tests set hands up)."""

    __slots__ = ("by",)

    @classmethod
    def of(cls, cards=()) -> Hand:
        """A hand of these cards, indexed."""
        hand = cls(cards)
        hand._index()
        return hand

    def _index(self) -> None:
        by: dict = {}
        for card in self:
            _file(by, card)
        self.by = by

    def _edited(name):  # noqa: N805 - makes the methods below
        method = getattr(list, name)

        def edit(self, *args, **kwargs):
            out = method(self, *args, **kwargs)
            self._index()
            return out
        edit.__name__ = name
        return edit

    append = _edited("append")
    remove = _edited("remove")
    pop = _edited("pop")
    insert = _edited("insert")
    extend = _edited("extend")
    clear = _edited("clear")
    sort = _edited("sort")
    reverse = _edited("reverse")
    __setitem__ = _edited("__setitem__")
    __delitem__ = _edited("__delitem__")
    __iadd__ = _edited("__iadd__")
    del _edited


def _file(by: dict, card: Card) -> None:
    """A card into a hand's index (`Hand`): under its action as itself and, for Beastin', under
    each card it may stand for (WILD_KEYS). A key once made stays (its list may empty): a plain
    dict, so the compiled path reads it as one."""
    action = card.action
    plays = by.get(action)
    if plays is None:
        by[action] = [card.own]
    else:
        plays.append(card.own)
    if action == "wild":
        for key, play_as in card.stands:  # Beastin' as each card it may stand for (WILD_KEYS)
            plays = by.get(key)
            if plays is None:
                by[key] = [play_as]
            else:
                plays.append(play_as)


def _unfile(by: dict, card: Card) -> None:
    """A card out of a hand's index (`_file` undone)."""
    _drop(by[card.action], card.own)
    if card.action == "wild":
        for key, play_as in card.stands:
            _drop(by[key], play_as)


def _drop(items: list, item) -> None:
    """`items.remove(item)` for the object itself: the first element that IS it (a card's plays
    are each one object, `Card.as_`), found by identity, so no element before it is asked to
    compare (compiled, a C loop of pointer tests). For the index's plain lists, not a Hand."""
    for k in range(len(items)):
        if items[k] is item:
            del items[k]
            return
    raise ValueError("list.remove(x): x not in list")


def _in_hand_order(hand: list, actions: tuple) -> list:
    """The plays of the cards of these actions, each as its own action, in hand order."""
    return [c.own for c in hand if c.action in actions]


class Scrap:
    """One Quick Scrap. `policies[i]` decides for wrestler i (see policy.Policy)."""

    def __init__(self, names: list[str], policies: list[Any], deck: list[Card], dice: Dice, draws: int = 2, pin_after: int = 1,
                 rules: Rules | None = None, record: bool = True):
        self.rules = rules or DEFAULT_RULES
        self.record = record  # False (odds): no events kept, the same play
        self.names = names
        self.policies = policies
        # a policy whose class decides a turn in one call (`policy.Policy.turn`: `wants_draw`, then
        # `choose`, made once); looked up on the class, so a wrapper that watches `choose` is asked as before
        self._turns = [getattr(p, "turn") if callable(getattr(type(p), "turn", None)) else None for p in policies]
        # whether `_extras` may offer i Momentum after a play that was no scoring Takedown: not for a
        # policy that says it plays Momentum only after one (`Policy.momentum_after_takedown_only`)
        self._eager = [not getattr(p, "momentum_after_takedown_only", False) for p in policies]
        self.dice = dice
        self.draw_limit = draws
        self.pin_after = pin_after
        self.deck = list(deck)
        self._hands = hands = [Hand(), Hand()]
        hands[0].by, hands[1].by = {}, {}
        self.stacks: list[list[tuple[Card, int]]] = [[], []]
        self.negate: list[Card] = []
        self.points = [0, 0]
        self.positions = [NEUTRAL, NEUTRAL]
        self.draws_used = [0, 0]
        self.skip_next = [False, False]
        self.exposed = ["", ""]  # 4.2: how the opponent's back is exposed to i: momentum, lost_turn, feet_to_back
        self.taken_down = [False, False]  # i is on bottom from the opponent's Takedown (for 4.2's lost turn)
        self.stalled = [False, False]  # 4.10: no Pin or MAT BEAST in i's next play (or to the end of his turn)
        self.resilient = [False, False]  # 4.6: i cannot be pinned this scrap
        self.shown: list[list[Card]] = [[], []]  # the cards each has played, in order (what a policy's conditions see)
        self.turn = 0
        self.events: list[Event] = []
        self.fall: tuple[int, str] | None = None

    @property
    def hands(self) -> list[Hand]:
        """Each wrestler's hand (a list in the order the cards came, indexed by action)."""
        return self._hands

    @hands.setter
    def hands(self, hands) -> None:
        self._hands = [h if isinstance(h, Hand) else Hand.of(h) for h in hands]

    # ------------------------------------------------------------ views for policies

    def score(self, i: int) -> int:
        """The score: always the sum of the wrestler's stack (4.4), kept as it changes."""
        return self.points[i]

    @property
    def transitions(self) -> int:
        """2.2: completed transitions: pairs of turns taken, skipped or passed."""
        return self.turn // 2

    def log(self, wrestler: int | None, kind: str, card: str = "", points: int = 0, text: str = "") -> Event:
        if not self.record:
            return _UNRECORDED
        event = Event(self.turn, wrestler, kind, card, points, text, (self.points[0], self.points[1]), tuple(self.positions))
        self.events.append(event)
        return event

    def settle(self, event: Event, points: int) -> None:
        """A play's outcome once answered (or not): its points, and the score and positions after."""
        if event is _UNRECORDED:
            return
        event.points = points
        event.score = (self.points[0], self.points[1])
        event.positions = tuple(self.positions)

    # ------------------------------------------------------------ the deck

    def shuffle(self) -> None:
        """1.1: Fisher-Yates with the logged dice."""
        deck = self.deck
        n = len(deck)
        sizes, places, purpose = _shuffle_plan(n)
        faces = self.dice.roll_each(sizes, purpose)
        deck.insert(0, None)  # a blank at 0: the places and the faces count from 1 (`_shuffle_plan`)
        for k in range(len(faces)):  # the k-th die fills place n - k (`places`), with the card at its face
            i = n - k
            j = faces[k]
            deck[i], deck[j] = deck[j], deck[i]
        del deck[0]

    def draw(self, i: int, why: str = "draw") -> Card | None:
        deck = self.deck
        if not deck:
            return None
        card = deck.pop(0)
        hand = self._hands[i]
        list.append(hand, card)
        _file(hand.by, card)
        if self.record:
            self.log(i, "draw", card.id, text=why)
        return card

    def deal(self) -> None:
        """1.2: "Each wrestler is dealt 9 cards", one at a time from the top, first-listed first.
        Taken in two slices (the draws' events logged in the same order when recording); one
        `draw` at a time where a subclass watches the draws."""
        deck = self.deck
        if type(self).draw is not _PLAIN_DRAW or len(deck) < 18:
            for _ in range(9):
                for i in (0, 1):
                    self.draw(i, "dealt")
            return
        for i in (0, 1):
            hand = self._hands[i]
            cards = deck[i:18:2]
            list.extend(hand, cards)
            by = hand.by
            for card in cards:
                _file(by, card)
        if self.record:
            for n in range(18):
                self.log(n % 2, "draw", deck[n].id, text="dealt")
        del deck[:18]

    def to_middle(self, card: Card) -> None:
        self.deck.insert(len(self.deck) // 2, card)

    @staticmethod
    def draw_value(card: Card) -> int:
        """1.3: a card's value in the 10th-card draw (Beastin' counts 3)."""
        return card.points

    def tenth_card(self) -> int:
        """1.3: the 10th-card draw; returns who starts."""
        while True:
            drawn = []
            for i in (0, 1):
                while True:
                    if not self.deck:
                        return 0  # no cards left to decide: the first-listed starts
                    card = self.deck.pop(0)
                    if card.kind in ("specialty", "pin", "mat_beast"):
                        self.to_middle(card)  # "go into the middle of the deck and the 10th card draw is redone"
                        if self.record:
                            self.log(i, "tenth", card.id, text="back into the middle of the deck")
                        continue
                    drawn.append(card)
                    break
            values = [drawn[0].points, drawn[1].points]  # `draw_value`: the printed points (Beastin' counts 3)
            if self.record:
                self.log(None, "tenth", f"{drawn[0].id} v {drawn[1].id}", text=f"{values[0]} v {values[1]}")
            if values[0] != values[1]:
                for i in (0, 1):
                    self._take_in(i, drawn[i])  # "Both wrestlers keep the card they drew"
                return 0 if values[0] > values[1] else 1
            for card in drawn:  # "those cards are returned to the deck and re-drawn"
                self.to_middle(card)

    def _take_in(self, i: int, card: Card) -> None:
        """A card into i's hand (not a draw: the 10th card, an overtime card)."""
        hand = self._hands[i]
        list.append(hand, card)
        _file(hand.by, card)

    # ------------------------------------------------------------ legal plays

    def _holding(self, i: int, action: str) -> list[Play]:
        """Plays of a base action from i's hand: the card itself, or Beastin' standing for it."""
        by = self._hands[i].by
        own = by.get(action)
        plays = own[:] if own else []
        if action in WILD_AS:  # the card itself before the wild, each in hand order
            wild = by.get(WILD_KEYS[action])
            if wild:
                plays += wild
        return plays

    def turn_options(self, i: int) -> list[Play]:
        """What i may play in his turn (section 3). Read off the hand's index, in the order a
        scan of the hand gives them: each kind of play in turn, and where one kind holds cards
        of two actions (Near Fall and Spladle; Pin and MAT BEAST; the tie, Wizardry and
        Resilience cards), those in hand order."""
        o = 1 - i
        hand = self._hands[i]
        by = hand.by
        wild = by.get("wild")
        pos = self.positions[i]
        options: list[Play] = []
        if pos == NEUTRAL:
            if self.positions[o] == NEUTRAL:
                own = by.get("takedown")
                if own:
                    options += own
                if wild:
                    options += by["wild as takedown"]
                own = by.get("feet_to_back")
                if own:
                    options += own
        elif pos == BOTTOM:  # 4.1
            own = by.get("escape")
            if own:
                options += own
            if wild:
                options += by["wild as escape"]
            own = by.get("reversal")
            if own:
                options += own
            if wild:
                options += by["wild as reversal"]
        else:
            exposed = self.exposed[i]
            if exposed:  # 4.2; Spladle names only Momentum and the lost turn
                if (exposed == "momentum" or exposed == "lost_turn") and by.get("spladle"):
                    options += _in_hand_order(hand, ("near_fall", "spladle"))
                else:
                    own = by.get("near_fall")
                    if own:
                        options += own
        pins, beasts = by.get("pin"), by.get("mat_beast")
        if (pins or beasts) and self.turn // 2 >= self.pin_after and not self.stalled[i] and not self.resilient[o]:
            if pins and beasts:
                options += _in_hand_order(hand, ("pin", "mat_beast"))
            elif pins:
                options += pins
            elif beasts:
                options += beasts
        own = by.get("stalling")
        if own:
            options += own
        if wild:
            options += by["wild as stalling"]
        ties = by.get("tie")
        if ties and self.points[i] > self.points[o] and self.rules.tie_when_ahead == "not_playable":  # 4.18: not when ahead, by the fed's setting
            ties = None
        wizardries, resiliences = by.get("wizardry"), by.get("resilience")
        if wizardries or resiliences:
            options += _in_hand_order(hand, ("wizardry", "resilience", "tie") if ties else ("wizardry", "resilience"))
        elif ties:
            options += ties
        return options

    def _answer(self, i: int, threat: str, against: Play) -> Play | None:
        """2.5: the responses the rulebook names, and the policy's choice among them."""
        by = self._hands[i].by
        wild = by.get("wild")
        if threat in DEFENDED:  # `_holding(i, "defense")`, inlined
            own = by.get("defense")
            options = own[:] if own else []
            if wild:
                options += by["wild as defense"]
        else:  # mat_beast, spladle: only Beastin'
            options = by["wild as beastin"][:] if wild else []
        if threat == "takedown":  # "directly after your opponent plays a +3 Takedown card"
            scrambles, clones = by.get("scramble"), by.get("clone")
            if scrambles and clones:
                options += _in_hand_order(self._hands[i], ("scramble", "clone"))
            elif scrambles or clones:
                options += scrambles or clones
        elif threat == "feet_to_back":
            clones = by.get("clone")
            if clones:
                options += clones
        if not options:
            return None
        return self.policies[i].answer(self, i, threat, options)

    # ------------------------------------------------------------ playing

    def _spend(self, i: int, play: Play) -> None:
        card = play.card
        hand = self._hands[i]
        list.remove(hand, card)
        _unfile(hand.by, card)
        self.shown[i].append(card)

    def _credit(self, i: int, card: Card, points: int, given: bool = False) -> None:
        self.stacks[i].append(Given((card, points)) if given else (card, points))
        self.points[i] += points

    def _no_fall(self, o: int, action: str) -> str:
        """Why an undefended Feet to Back or Spladle against o is no fall: Resilience (4.16) or
        the Pin timing (4.17); "" when it is a fall."""
        if self.resilient[o] and (action == "feet_to_back" or self.rules.resilience_stops_spladle):
            return "Resilience: unpinnable"
        if self.rules.early_falls == "no_fall" and self.transitions < self.pin_after:
            return "too early for a fall: no pin before the Pin timing"
        return ""

    def erasable(self, i: int) -> list[int]:
        """4.14: the places in the opponent's score stack that i's Wizardry would erase, oldest first."""
        stack = self.stacks[1 - i]
        mode = self.rules.wizardry_erases
        if mode == "stack":
            return list(range(max(0, len(stack) - 3), len(stack)))
        places = [n for n in range(len(stack) - 1, -1, -1)
                  if not isinstance(stack[n], Given) and (mode != "scoring" or stack[n][1] != 0)]
        return sorted(places[:3])

    def _move(self, top: int | None) -> None:
        if top is None:
            self.positions = [NEUTRAL, NEUTRAL]
        else:
            self.positions[top], self.positions[1 - top] = TOP, BOTTOM
        self.exposed = ["", ""]
        self.taken_down = [False, False]

    def _table(self, i: int, card: Card) -> None:
        """A card on the table while the opponent may answer it: in i's stack at 0 for now (4.4)."""
        self.stacks[i].append((card, 0))

    def _settle_card(self, i: int, points: int | None) -> None:
        """The tabled card scores `points`, or (None) was answered and goes to the Negate stack."""
        card, _ = self.stacks[i].pop()
        if points is None:
            self.negate.append(card)
        else:
            self._credit(i, card, points)

    def play(self, i: int, play: Play) -> bool:
        """Apply a play; returns True if it scored (for Cut Em and Momentum's exposure). The
        events are made only when the scrap keeps them (`record`)."""
        o = 1 - i
        rec = self.record
        action, card = play.action, play.card
        hand = self._hands[i]  # spent: out of his hand, shown (`_spend`, inlined on the hot path)
        list.remove(hand, card)
        _unfile(hand.by, card)
        self.shown[i].append(card)
        self.stalled[i] = False
        if action != "near_fall" and action != "spladle":
            self.exposed[i] = ""
        if action == "takedown":
            shot = self.log(i, "play", play.text, 0, "Takedown") if rec else None
            stack = self.stacks[i]
            stack.append((card, 0))  # on the table while he may answer (`_table`)
            answer = self._answer(o, "takedown", play)
            if answer is not None:
                self._spend(o, answer)
                if answer.action == "defense":
                    self._settle_card(i, None)  # "both remain in the neutral position"
                    self._credit(o, answer.card, 0)
                    if rec:
                        self.log(o, "answer", answer.text, 0, "stops the Takedown")
                    return False
                if answer.action == "scramble":
                    self._settle_card(i, None)
                    self._credit(o, answer.card, 5)
                    self._move(o)
                    if rec:
                        self.log(o, "answer", answer.text, 5, "Scramble: the Takedown is his")
                    return False
            stack[-1] = (card, 3)  # it scores (`_settle_card(i, 3)`)
            self.points[i] += 3
            self.positions[i], self.positions[o] = TOP, BOTTOM  # `_move(i)`
            self.exposed = ["", ""]
            self.taken_down = [i == 1, i == 0]  # o is on bottom from i's Takedown
            if rec:
                self.settle(shot, 3)
            if answer is not None:  # clone (4.5)
                self._credit(o, answer.card, 3)
                self._move(o)
                if rec:
                    self.log(o, "answer", answer.text, 3, "Clone: the same Takedown back")
                return False
            return True
        if action == "feet_to_back":
            self._credit(i, card, 7)
            if rec:
                self.log(i, "play", play.text, 7, "Feet to Back: his back is on the mat")
            answer = self._answer(o, "feet_to_back", play)
            if answer is not None:
                self._spend(o, answer)
                if answer.action == "clone":
                    self._credit(o, answer.card, 7)
                    self._move(o)
                    if rec:
                        self.log(o, "answer", answer.text, 7, "Clone: Feet to Back of his own")
                    return True
                self._credit(o, answer.card, 0)
                self._move(i)
                self.exposed[i] = "feet_to_back"  # 4.2: "after a FEET TO BACK card is played and the opponent defends the pin"
                if rec:
                    self.log(o, "answer", answer.text, 0, "defends the pin, on bottom")
                return True
            why = self._no_fall(o, "feet_to_back")  # Resilience: no converting Feet to Back into a Pin; 4.17
            if why:
                self._move(i)
                self.exposed[i] = "feet_to_back"
                if rec:
                    self.log(o, "no_fall", "feet_to_back", 0, why)
                return True
            self.fall = (i, "feet_to_back")
            if rec:
                self.log(i, "fall", card.id, 0, "Feet to Back with no Defense: a fall")
            return True
        if action == "escape":
            points = 2 if card.id == "escape_2" else 1
            self.stacks[i].append((card, points))
            self.points[i] += points
            self.positions = [NEUTRAL, NEUTRAL]  # `_move(None)`
            self.exposed = ["", ""]
            self.taken_down = [False, False]
            if rec:
                self.log(i, "play", play.text, self.stacks[i][-1][1], "Escape")
            return True
        if action == "reversal":
            shot = self.log(i, "play", play.text, 0, "Reversal") if rec else None
            self._table(i, card)
            answer = self._answer(o, "reversal", play)
            if answer is not None:
                self._spend(o, answer)
                self._settle_card(i, None)
                self._credit(o, answer.card, 0)
                if rec:
                    self.log(o, "answer", answer.text, 0, "stops the Reversal")
                return False
            self._settle_card(i, 2)
            self._move(i)
            if rec:
                self.settle(shot, 2)
            return True
        if action == "near_fall" or action == "spladle":
            self._credit(i, card, card.points)
            if rec:
                self.log(i, "play", play.text, card.points, "Near Fall" if action == "near_fall" else "Spladle")
            self.exposed[i] = ""
            why = self._no_fall(o, "spladle") if action == "spladle" else ""
            if why:  # 4.16, 4.17: the +4 stands; no fall, so Beastin' is not asked for
                if rec:
                    self.log(o, "no_fall", "spladle", 0, why)
            elif action == "spladle":
                answer = self._answer(o, "spladle", play)
                if answer is None:
                    self.fall = (i, "spladle")
                    if rec:
                        self.log(i, "fall", card.id, 0, "Spladle with no Beastin': a fall")
                else:
                    self._spend(o, answer)
                    self._credit(o, answer.card, 0)
                    if rec:
                        self.log(o, "answer", answer.text, 0, "Beastin' out of the Spladle")
            return True
        if action == "pin" or action == "mat_beast":
            if rec:
                self.log(i, "play", play.text, 0, "Pin" if action == "pin" else "MAT BEAST")
            self._table(i, card)
            answer = self._answer(o, action, play)
            if answer is None:
                self._settle_card(i, 0)
                self.fall = (i, action)
                if rec:
                    self.log(i, "fall", card.id, 0, "a fall")
                return True
            self._spend(o, answer)
            self._settle_card(i, None)
            self._credit(o, answer.card, 0)
            if rec:
                self.log(o, "answer", answer.text, 0, "kicks out")
            return False
        if action == "stalling":
            self._credit(o, card, 1, given=True)  # "Playing Stalling gives your opponent 1 point"
            self.skip_next[o] = True
            self.stalled[i] = True
            if rec:
                self.log(i, "play", play.text, -1, "Stalling")
            self.draw(i, "Stalling's extra card")
            return False
        if action == "tie":  # 4.18: "immediately ties the score", ahead or behind
            gap = self.points[o] - self.points[i]
            if gap < 0 and self.rules.tie_when_ahead == "no_points":
                gap = 0
            self._credit(i, card, gap)
            self._move(i)
            if rec:
                self.log(i, "play", play.text, gap, "ties the score, on top" if self.points[i] == self.points[o] else "on top (the score stays)")
            return gap > 0
        if action == "wizardry":  # 4.14
            self._wizardry(i, play)
            return False
        if action == "resilience":
            self._credit(i, card, 0)
            self.resilient[i] = True
            self.skip_next[o] = True
            if rec:
                self.log(i, "play", play.text, 0, "Resilience: unpinnable")
            return False
        raise ValueError(f"{card.id} cannot be played as {action} here")  # pragma: no cover

    def _wizardry(self, i: int, play: Play) -> None:
        """4.14: Wizardry played (`play`'s branch, apart: its generators are closures, which the
        compiled `play` cannot hold)."""
        o = 1 - i
        places = self.erasable(i)
        erased = [self.stacks[o][n] for n in places]
        for n in reversed(places):
            del self.stacks[o][n]
        self.points[o] -= sum(p for _, p in erased)
        self.negate.extend(c for c, _ in erased)
        self._credit(i, play.card, 0)
        self._move(i)
        if self.record:
            self.log(i, "play", play.text, -sum(p for _, p in erased), f"erases {', '.join(c.name for c, _ in erased) or 'nothing'}")

    def _extras(self, i: int, scored_takedown: bool) -> None:
        """2.6: Cut Em after a scoring Takedown; Momentum after any play; Resilience's extra play."""
        o = 1 - i
        policy = self.policies[i]
        by = self._hands[i].by
        while self.fall is None:
            cut = by.get("cut_em") if scored_takedown else None
            # the Takedown Cut Em opens (Cut Em itself is never one)
            if cut and self._holding(i, "takedown") and policy.use_cut_em(self, i):
                play = cut[0]
                self._spend(i, play)
                self._credit(o, play.card, 1, given=True)  # "gives them 1 point"
                self.skip_next[o] = True
                self._move(None)
                if self.record:
                    self.log(i, "play", play.text, -1, "Cut Em: lets him up to take him down again")
                takedown = policy.choose(self, i, self._holding(i, "takedown"))
                if takedown is None:
                    return  # he let him up and did not shoot: the turn ends
                scored_takedown = self.play(i, takedown)
                continue
            if not by.get("momentum") and not by.get("wild"):
                return  # no Momentum to play, and the policy is not asked
            if policy.use_momentum(self, i, scored_takedown):
                play = self._holding(i, "momentum")[0]  # the policy reads the scrap, never changes the hand
                self._spend(i, play)
                self._credit(i, play.card, 0)
                self.skip_next[o] = True
                if scored_takedown:
                    self.exposed[i] = "momentum"  # 4.2: Momentum directly after a Takedown
                if self.record:
                    self.log(i, "play", play.text, 0, "Momentum: another turn")
                options = self.turn_options(i)
                choice = policy.choose(self, i, options) if options else None
                if choice is None:
                    return
                scored_takedown = self.play(i, choice) and choice.action == "takedown"
                while choice.action == "resilience" and self.fall is None:  # "immediately play an additional card"
                    options = self.turn_options(i)
                    choice = policy.choose(self, i, options) if options else None
                    if choice is None:
                        return
                    scored_takedown = self.play(i, choice) and choice.action == "takedown"
                continue
            return

    def take_turn(self, i: int) -> bool:
        """One transition turn; returns False when i passed."""
        if self.skip_next[i]:
            self.skip_next[i] = False
            if self.record:
                self.log(i, "skip", text="turn skipped")
            moved = True
        else:
            moved = self._turn(i)
        if self.rules.stalling_ban == "turn":
            self.stalled[i] = False  # 4.10 as a fed may read it: the ban ends with his turn
        return moved

    def _turn(self, i: int) -> bool:
        o = 1 - i
        policy = self.policies[i]
        turn = self._turns[i]
        if turn is not None:  # the policy decides the turn in one call, reading the options only if it needs them
            draws_used = self.draws_used
            while True:
                choice = turn(self, i, draws_used[i] < self.draw_limit and self.deck)
                if choice is not DRAW:
                    break
                draws_used[i] += 1
                self.draw(i)
        else:
            options = self.turn_options(i)
            while self.draws_used[i] < self.draw_limit and self.deck and policy.wants_draw(self, i, options):
                self.draws_used[i] += 1
                self.draw(i)
                options = self.turn_options(i)
            choice = policy.choose(self, i, options) if options else None
        if choice is None:
            # on bottom his options hold an Escape or a Reversal exactly when his hand does, or a
            # Beastin' (which stands for either there): read off the hand's index
            by = self._hands[i].by
            if self.positions[i] == BOTTOM and self.taken_down[i] and not (by.get("escape") or by.get("reversal") or by.get("wild")):
                self.exposed[o] = "lost_turn"  # 4.2: no Escape or Reversal after a Takedown: he loses his turn
            self.exposed[i] = ""
            self.stalled[i] = False
            if self.record:
                self.log(i, "pass", text="no card to play")
            return False
        scored = self.play(i, choice)
        while choice.action == "resilience" and self.fall is None:  # "immediately play an additional card"
            options = self.turn_options(i)
            choice = policy.choose(self, i, options) if options else None
            if choice is None:
                return True
            scored = self.play(i, choice)
        if self.fall is None:
            by = self._hands[i].by
            if scored and choice.action == "takedown":
                if by.get("momentum") or by.get("wild") or by.get("cut_em"):  # else `_extras` has nothing to offer
                    self._extras(i, True)
            elif self._eager[i] and (by.get("momentum") or by.get("wild")):  # else no Momentum is offered or wanted
                self._extras(i, False)
        return True


# the class's own (a test may put a subclass in `Scrap`'s place); looked up by name, as Python
# sees them (compiled, `Scrap.draw` written out would be the C method)
_PLAIN_DRAW = getattr(Scrap, "draw")  # noqa: B009
_PLAIN_TAKE_TURN = getattr(Scrap, "take_turn")  # noqa: B009


def quick_scrap(names: list[str], policies: list[Any], deck: list[Card], dice: Dice, draws: int = 2, pin_after: int = 1,
                rules: Rules | None = None, record: bool = True) -> ScrapResult:
    """Play one Quick Scrap (rulebook: Quick Scrap; docs/rulings/mat-clash.md). `record`
    False keeps no events (odds): the same dice, the same result."""
    # the class looked up when called (where the module is compiled too), so a test may put a subclass in its place
    scrap = globals()["Scrap"](names, policies, deck, dice, draws, pin_after, rules, record)
    scrap.shuffle()
    scrap.deal()
    first = scrap.tenth_card()
    record = scrap.record
    if record:
        scrap.log(first, "tenth", text="wins the 10th-card draw and starts")
    passes = 0
    player = first
    plain = type(scrap).take_turn is _PLAIN_TAKE_TURN  # `take_turn` inlined, unless a subclass watches it
    skip_next, stalled = scrap.skip_next, scrap.stalled
    ban_ends = scrap.rules.stalling_ban == "turn"
    while scrap.turn < TURN_GUARD:
        if not plain:
            moved = scrap.take_turn(player)
        elif skip_next[player]:
            skip_next[player] = False
            if record:
                scrap.log(player, "skip", text="turn skipped")
            moved = True
            if ban_ends:
                stalled[player] = False
        else:
            moved = scrap._turn(player)
            if ban_ends:
                stalled[player] = False
        scrap.turn += 1
        if scrap.fall is not None:
            winner, how = scrap.fall
            return ScrapResult(winner, "fall", how, (scrap.score(0), scrap.score(1)), scrap.turn, scrap.transitions, first, scrap.events)
        passes = 0 if moved else passes + 1
        if passes >= 2:  # 2.7: neither can complete another transition
            break
        player = 1 - player
    return _by_score(scrap, first)


def _by_score(scrap: Scrap, first: int) -> ScrapResult:
    score = (scrap.score(0), scrap.score(1))
    margin = abs(score[0] - score[1])
    if margin:
        winner = 0 if score[0] > score[1] else 1
        method = "tech_fall" if margin >= 15 else "major" if margin >= 8 else "decision"
        return ScrapResult(winner, method, "score", score, scrap.turn, scrap.transitions, first, scrap.events)
    return _overtime(scrap, first, score)


def _rank(card: Card) -> tuple[int, int]:
    """4.7: MAT BEAST over Pin over any Specialty over base cards by value."""
    return {"mat_beast": (3, 0), "pin": (2, 0), "specialty": (1, card.points)}.get(card.kind, (0, card.points))


def _overtime(scrap: Scrap, first: int, score: tuple) -> ScrapResult:
    order = (1 - first, first)  # "The wrestler who lost the original 10th card draw goes first"
    while len(scrap.deck) >= 2:
        drawn = {i: scrap.deck.pop(0) for i in order}
        ranks = {i: _rank(c) for i, c in drawn.items()}
        scrap.log(None, "overtime", f"{drawn[0].id} v {drawn[1].id}")
        if ranks[0] != ranks[1]:
            winner = 0 if ranks[0] > ranks[1] else 1
            for i, card in drawn.items():
                scrap._take_in(i, card)
            return ScrapResult(winner, "decision", "overtime", score, scrap.turn, scrap.transitions, first, scrap.events)
        scrap.negate.extend(drawn.values())  # set aside (4.7); kept in one place for the count
    scrap.log(first, "overtime", text="the deck is out: the 10th-card winner takes it")
    return ScrapResult(first, "decision", "overtime", score, scrap.turn, scrap.transitions, first, scrap.events)


@dataclass
class DualResult:
    scraps: list[ScrapResult]
    team: tuple
    winner: int
    tiebreaker: bool


def dual_match(names: list[str], policies: list[Any], deck: list[Card], dice: Dice, rules: Rules | None = None, record: bool = True) -> DualResult:
    """4.8: five Quick Scraps (3 draws each, Pin after the second transition), team points."""
    scraps = []
    team = [0, 0]
    for _ in range(5):
        result = quick_scrap(names, policies, deck, dice, draws=3, pin_after=2, rules=rules, record=record)
        scraps.append(result)
        team[result.winner] += result.team_points
    tiebreaker = team[0] == team[1]
    if tiebreaker:
        result = quick_scrap(names, policies, deck, dice, draws=3, pin_after=2, rules=rules, record=record)
        scraps.append(result)
        winner = result.winner
    else:
        winner = 0 if team[0] > team[1] else 1
    return DualResult(scraps, tuple(team), winner, tiebreaker)
