"""Mat Clash: invariants over thousands of random scraps and Dual Matches (hypothesis).

Random LEGAL policies (uniform among the options the engine offers, answering, drawing and
taking extras at random, from a seeded random.Random) play Quick Scraps and Dual Matches,
with and without every specialty set. A watcher checks, at EVERY decision point (each
policy callback) and at the end of each scrap, against its own reading of the rulebook
(../shared/rules/000_1b6430037459c9a9.txt) and docs/rulings/mat-clash.md:

- every card is in exactly one place (deck, a hand, a score stack, the Negate stack) (4.4);
- each score is the sum of its stack (4.4);
- turn draws never exceed the limit, 2 in a Quick Scrap, 3 per scrap in a Dual (2.3);
- nothing is offered or played outside its timing (section 3, 4.1-4.3, 2.5);
- the 10th-card draw, the result by score and overtime follow the rulebook (1.3, 4.7);
- Dual Match team points follow the table, and the winner is right (4.8);
- a scrap replays exactly from its dice log.

The watcher keeps its own history (it wraps `Scrap.take_turn`, `Scrap.play`, `Scrap.draw`
and the policy callbacks); it does not read the engine's event texts, so it judges the
engine by the rules, not by what the engine says it did.
"""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager
from unittest import mock

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import ScriptedDice, SeededDice, format_log
from fedtool.rulesets.matclash import cards, engine

BASE = cards.build_deck()
FULL = cards.build_deck(("wave1", "wave2", "wave3", "short_print"))
NAMES = ["Red", "Blue"]

# What the rulebook lets each card be played as, in a turn (not as a response or an extra)
WILD_TURN = {"takedown", "escape", "reversal", "stalling"}  # Beastin' as Defense/Momentum: never a turn play
ANY_TIME = {"stalling", "tie", "wizardry", "resilience"}
NEVER_IN_TURN = {"defense", "momentum", "cut_em", "scramble", "clone"}
# 2.5: the responses the rulebook names, by threat (Beastin' as Defense where Defense answers)
ANSWERS = {
    "takedown": {"defense", "scramble", "clone"},
    "reversal": {"defense"},
    "pin": {"defense"},
    "feet_to_back": {"defense", "clone"},
    "mat_beast": set(),  # only Beastin'
    "spladle": set(),  # only Beastin'
}
FALLS = ("pin", "mat_beast", "feet_to_back", "spladle")
TEAM = {"fall": 6, "tech_fall": 5, "major": 4, "decision": 3}


def everything(scrap) -> Counter:
    """Every card the scrap holds, wherever it is."""
    found = Counter(c.id for c in scrap.deck)
    for i in (0, 1):
        found.update(c.id for c in scrap.hands[i])
        found.update(c.id for c, _ in scrap.stacks[i])
    found.update(c.id for c in scrap.negate)
    return found


def tenth_value(card) -> int:
    """Rulebook: "Beastin' (Wild) counts as 3 points for this draw"; otherwise printed value."""
    return 3 if card.kind == "wild" else card.points


def overtime_rank(card):
    """Rulebook overtime: MAT BEAST > Pin > "Specialty cards beat all Base cards" > base by value
    (Beastin' 3). Two specialties: the rulebook does not say; None marks that case."""
    if card.kind == "mat_beast":
        return (3, 0)
    if card.kind == "pin":
        return (2, 0)
    if card.kind == "specialty":
        return (1, None)
    return (0, tenth_value(card))


class Watch:
    """The watcher's own account of one scrap, and its checks."""

    def __init__(self, scrap):
        self.scrap = scrap
        self.start = Counter(c.id for c in scrap.deck)
        self.pin_after = scrap.pin_after
        self.limit = scrap.draw_limit
        self.problems: list[tuple[str, str]] = []  # (kind, message)
        self.inflight: list[str] = []  # cards neither in hand nor anywhere while a response is asked
        self.completed = 0  # turns completed (taken, skipped or passed)
        self.in_turn: int | None = None
        self.in_play: tuple | None = None  # (i, Play) while a play resolves
        self.turn_draws = [0, 0]
        self.dealt = [0, 0]
        self.last_act: list = [None, None]  # each wrestler's last act: ("play", action, scored) / ("pass",) / ("momentum",) ...
        self.last: tuple | None = None  # the last act of either: (i, act)
        self.exposed = [set(), set()]  # 4.2: the cases by which the opponent's back is exposed to i
        self.down_by_takedown = [False, False]  # i is on bottom because of a scoring Takedown (positions unchanged since)
        self.resilient = [False, False]
        self.seen_positions = tuple(scrap.positions)
        self.last_mover = self.how_down = "start"  # the play that last changed the positions (for the messages)
        self.passes = 0
        self.predicted: dict | None = None
        self.end_deck: list = []
        self.first_turn_checked = False

    def fail(self, what: str, kind: str = "rules") -> None:
        self.problems.append((kind, f"turn {self.completed}: {what}"))

    # ------------------------------------------------------------ shared state checks

    def positions_now(self) -> None:
        """4.2: "Exposure ends with any change of position"."""
        now = tuple(self.scrap.positions)
        if now != self.seen_positions:
            self.how_down = self.last_mover
            self.exposed = [set(), set()]
            self.down_by_takedown = [False, False]
            self.seen_positions = now

    def books(self, allow_inflight: bool = False) -> None:
        scrap = self.scrap
        missing = self.start - everything(scrap)
        extra = everything(scrap) - self.start
        if extra:
            self.fail(f"cards from nowhere: {dict(extra)}", "books")
        if missing:
            flying = Counter([self.in_play[1].card.id]) if allow_inflight and self.in_play else Counter()
            if missing != flying:
                self.fail(f"cards in no place: {dict(missing)}", "books")
            else:
                self.inflight.append(f"turn {self.completed}: {self.in_play[1]} is in no place while the answer is asked")
        for i in (0, 1):
            stacked = sum(points for _, points in scrap.stacks[i])
            if scrap.score(i) != stacked:
                self.fail(f"wrestler {i} scores {scrap.score(i)} but his stack sums to {stacked}", "score")
            if scrap.draws_used[i] > self.limit or self.turn_draws[i] > self.limit:
                self.fail(f"wrestler {i} drew {self.turn_draws[i]} (draws_used {scrap.draws_used[i]}); the limit is {self.limit}", "draws")
        if self.in_turn is not None and self.completed != scrap.turn:
            self.fail(f"{self.completed} turns completed but the engine counts {scrap.turn}", "turns")

    # ------------------------------------------------------------ my reading of the timing

    def turn_play_problem(self, i: int, play) -> str | None:
        """Why `play` is not a legal turn play for i now (None when it is)."""
        scrap, o = self.scrap, 1 - i
        card, action = play.card, play.action
        if not any(c is card for c in scrap.hands[i]):
            return "not in his hand"
        if card.action == "wild":
            if action not in WILD_TURN:
                return f"Beastin' cannot be played as {action} in a turn"
        elif action != card.action:
            return f"played as {action}"
        if action in NEVER_IN_TURN:
            return "not a turn play (a response or an extra play only)"
        pos, opp = scrap.positions[i], scrap.positions[o]
        if action in ("takedown", "feet_to_back"):
            return None if pos == opp == engine.NEUTRAL else f"needs both neutral ({pos}/{opp})"
        if action in ("escape", "reversal"):
            return None if pos == engine.BOTTOM else f"needs bottom (4.1), he is {pos}"
        why = f"{pos}; positions last set by {self.how_down}; exposed by {sorted(self.exposed[i]) or 'nothing'}"
        if action == "near_fall":
            return None if pos == engine.TOP and self.exposed[i] else f"Near Fall needs top with the back exposed (4.2) ({why})"
        if action == "spladle":  # only the Momentum and the no-Escape cases: not after Feet to Back
            ok = pos == engine.TOP and self.exposed[i] & {"momentum", "no_escape"}
            return None if ok else f"Spladle needs top after Momentum-after-Takedown or a lost turn after a Takedown ({why})"
        if action in ("pin", "mat_beast"):
            if self.completed < 2 * self.pin_after:
                return f"{action} before transition {self.pin_after} is complete ({self.completed} turns done)"
            if self.last_act[i] is not None and self.last_act[i][0] == "play" and self.last_act[i][1] == "stalling":
                return f"{action} directly after his own Stalling"
            if self.resilient[o]:
                return f"{action} against a Resilient opponent"
            return None
        if action in ANY_TIME:
            return None
        return f"unknown action {action}"

    def timing_kind(self, i: int, play) -> str:
        """Which rule an illegal offer breaks, so that each engine fault is reported on its own."""
        o = 1 - i
        if play.action == "spladle" and "feet_to_back" in self.exposed[i]:
            return "spladle_after_feet_to_back"
        if play.action in ("near_fall", "spladle") and self.scrap.positions[i] == engine.TOP and self.last_act[o] == ("pass",):
            return "exposed_by_a_pass_not_after_a_takedown"
        return "timing"

    def answer_problem(self, i: int, threat: str, option) -> str | None:
        card, action = option.card, option.action
        if not any(c is card for c in self.scrap.hands[i]):
            return "not in his hand"
        if self.in_play is None or self.in_play[0] != 1 - i or self.in_play[1].action != threat:
            return f"asked to answer {threat} but the play in hand is {self.in_play}"
        if card.action == "wild":
            if threat in ("mat_beast", "spladle"):
                return None
            return None if action == "defense" and "defense" in ANSWERS[threat] else f"Beastin' as {action} against {threat}"
        if action != card.action or action not in ANSWERS[threat]:
            return f"{card.id} is no answer to {threat}"
        return None

    # ------------------------------------------------------------ hooks from the scrap

    def after_shuffle(self) -> None:
        """Predict the deal and the 10th-card draw (1.2, 1.3) from the shuffled deck."""
        deck = list(self.scrap.deck)
        hands: list[list] = [[], []]
        for _ in range(9):
            for i in (0, 1):
                hands[i].append(deck.pop(0))
        while True:
            drawn = []
            for i in (0, 1):
                while True:
                    card = deck.pop(0)
                    if card.kind in ("specialty", "pin", "mat_beast"):
                        deck.insert(len(deck) // 2, card)  # "go into the middle of the deck"
                        continue
                    drawn.append(card)
                    break
            if tenth_value(drawn[0]) != tenth_value(drawn[1]):
                hands[0].append(drawn[0])
                hands[1].append(drawn[1])
                first = 0 if tenth_value(drawn[0]) > tenth_value(drawn[1]) else 1
                break
            for card in drawn:
                deck.insert(len(deck) // 2, card)
        self.predicted = {"hands": hands, "deck": deck, "first": first}

    def on_draw(self, i: int) -> None:
        if self.in_turn is None:
            self.dealt[i] += 1
        elif self.in_play is not None and self.in_play[1].action == "stalling":
            pass  # 2.3: Stalling's "one additional card" does not count
        elif self.in_play is None:
            self.turn_draws[i] += 1
        else:
            self.fail(f"wrestler {i} drew during {self.in_play[1]}", "draws")

    def turn_start(self, i: int) -> None:
        scrap = self.scrap
        if not self.first_turn_checked:
            self.first_turn_checked = True
            p = self.predicted
            if self.dealt != [9, 9]:
                self.fail(f"dealt {self.dealt}, not 9 each", "tenth")
            for w in (0, 1):
                if Counter(c.id for c in scrap.hands[w]) != Counter(c.id for c in p["hands"][w]):
                    self.fail(f"wrestler {w} starts with {sorted(c.id for c in scrap.hands[w])}, expected {sorted(c.id for c in p['hands'][w])}", "tenth")
            if [c.id for c in scrap.deck] != [c.id for c in p["deck"]]:
                self.fail("the deck after the 10th-card draw is not as 1.3 leaves it", "tenth")
            if i != p["first"]:
                self.fail(f"wrestler {i} starts; the 10th-card draw says {p['first']}", "tenth")
            self.first = i
        elif i != (self.first if self.completed % 2 == 0 else 1 - self.first):
            self.fail(f"wrestler {i} takes turn {self.completed} out of order", "turns")
        self.in_turn = i
        self.positions_now()
        self.skipping = scrap.skip_next[i]

    def turn_end(self, i: int, moved: bool) -> None:
        self.positions_now()
        o = 1 - i
        if not moved:
            if self.skipping:
                self.fail("a skipped turn counted as a pass", "turns")
            self.passes += 1
            if self.scrap.positions[i] == engine.BOTTOM and self.down_by_takedown[i]:
                self.exposed[o].add("no_escape")  # "has no Escape or Reversal to play after a Takedown and loses their transition turn"
            self.exposed[i] = set()
            self.last_act[i] = ("pass",)
            self.last = (i, ("pass",))
        else:
            self.passes = 0
        self.completed += 1
        self.in_turn = None
        self.end_deck = list(self.scrap.deck)

    def play_start(self, i: int, play) -> None:
        self.positions_now()
        if self.in_play is not None:
            self.fail(f"{play} starts while {self.in_play[1]} resolves", "extras")
        problem = self.turn_play_problem(i, play)
        if problem:
            self.fail(f"wrestler {i} plays {play}: {problem}", self.timing_kind(i, play))
        self.in_play = (i, play)
        self.last_mover = f"wrestler {i}'s {play}"
        self.answered = None
        self.before = tuple(self.scrap.positions)
        self.exposed[i] = set()  # 4.2: "for his next play"
        if play.action == "resilience":
            self.resilient[i] = True

    def play_end(self, i: int, play) -> None:
        scrap, o = self.scrap, 1 - i
        self.positions_now()
        action = play.action
        scored_td = action == "takedown" and self.before == (engine.NEUTRAL, engine.NEUTRAL) and scrap.positions[i] == engine.TOP
        if scored_td:
            self.down_by_takedown[o] = True
        if action == "feet_to_back" and scrap.fall is None and scrap.positions[i] == engine.TOP:
            # "After a FEET TO BACK card is played and the opponent defends the pin" (Defense, or Resilience's
            # "prevents ... converting a Feet-To-Back card into a Pin": read as the same case)
            self.exposed[i].add("feet_to_back")
        if scrap.fall is not None:
            self.fall_play = (i, action, self.answered)
        self.in_play = None
        self.last_act[i] = ("play", action, scored_td)
        self.last = (i, ("play", action, scored_td))

    # ------------------------------------------------------------ hooks from the policies

    def on_choose(self, i: int, options) -> None:
        self.positions_now()
        self.books()
        for play in options:
            problem = self.turn_play_problem(i, play)
            if problem:
                self.fail(f"wrestler {i} is offered {play}: {problem}", self.timing_kind(i, play))

    def on_answer(self, i: int, threat: str, options) -> None:
        self.positions_now()
        self.books(allow_inflight=True)
        for option in options:
            problem = self.answer_problem(i, threat, option)
            if problem:
                self.fail(f"wrestler {i} is offered {option} against {threat}: {problem}", "answers")

    def on_answered(self, choice) -> None:
        self.answered = choice
        if choice is not None:
            self.last_mover = f"{choice} answering {self.last_mover}"

    def on_wants_draw(self, i: int) -> None:
        self.books()
        if self.in_turn != i or self.in_play is not None:
            self.fail(f"wrestler {i} offered a draw outside his own turn", "draws")
        if self.turn_draws[i] >= self.limit:
            self.fail(f"wrestler {i} offered draw {self.turn_draws[i] + 1}; the limit is {self.limit}", "draws")

    def on_cut_em(self, i: int) -> None:
        self.positions_now()
        self.books()
        hand = self.scrap.hands[i]
        if not (self.last == (i, ("play", "takedown", True))):
            self.fail(f"Cut Em offered not directly after his own scoring Takedown (last: {self.last})", "extras")
        if not any(c.action == "cut_em" for c in hand):
            self.fail("Cut Em offered without the card", "extras")
        if not any(c.action in ("takedown", "wild") for c in hand):
            self.fail("Cut Em offered with no Takedown to follow it", "extras")

    def cut_em_played(self, i: int) -> None:
        self.positions_now()
        self.last_mover = f"wrestler {i}'s Cut Em"
        self.last_act[i] = ("cut_em",)
        self.last = (i, ("cut_em",))

    def on_momentum(self, i: int, scored_takedown: bool) -> None:
        self.positions_now()
        self.books()
        if self.last is None or self.last[0] != i or self.last[1][0] != "play":
            self.fail(f"Momentum offered not right after a card he played (last: {self.last})", "extras")
        if not any(c.action in ("momentum", "wild") for c in self.scrap.hands[i]):
            self.fail("Momentum offered without the card", "extras")
        mine = self.last is not None and self.last == (i, ("play", "takedown", True))
        if scored_takedown != mine:
            self.fail(f"Momentum told scored_takedown={scored_takedown}; the last play says {mine}", "extras")

    def momentum_played(self, i: int) -> None:
        if self.last == (i, ("play", "takedown", True)):
            self.exposed[i].add("momentum")  # "a Momentum card is played directly after a Takedown"
        self.last_act[i] = ("momentum",)
        self.last = (i, ("momentum",))

    # ------------------------------------------------------------ the end

    def finish(self, result) -> None:
        scrap = self.scrap
        self.in_turn = None
        self.books()
        score = (scrap.score(0), scrap.score(1))
        if tuple(result.score) != score:
            self.fail(f"result score {result.score}, stacks {score}", "result")
        if result.first != self.predicted["first"]:
            self.fail(f"result.first {result.first}, the 10th-card draw says {self.predicted['first']}", "result")
        if scrap.fall is not None:
            i, action, answered = self.fall_play
            if (result.winner, result.method, result.finish) != (i, "fall", action) or action not in FALLS:
                self.fail(f"fall by {i} with {action}; result {result.winner} {result.method} {result.finish}", "result")
            if action in ("pin", "mat_beast", "spladle") and answered is not None:
                self.fail(f"{action} answered by {answered} and still a fall", "result")
            if action == "feet_to_back" and (answered is not None or self.resilient[1 - i]):
                self.fail(f"Feet to Back was a fall though answered ({answered}) or Resilient", "result")
            return
        if self.passes < 2 and self.completed < engine.TURN_GUARD:
            self.fail(f"went to score after {self.completed} turns with {self.passes} passes in a row", "result")
        margin = abs(score[0] - score[1])
        if margin:
            method = "tech_fall" if margin >= 15 else "major" if margin >= 8 else "decision"
            winner = 0 if score[0] > score[1] else 1
            if (result.winner, result.method, result.finish) != (winner, method, "score"):
                self.fail(f"{score}: result {result.winner} {result.method} {result.finish}", "result")
            return
        # overtime, as the rulebook says: the 10th-card loser draws first
        if (result.method, result.finish) != ("decision", "overtime"):
            self.fail(f"a tie not settled in overtime: {result.method} {result.finish}", "result")
        deck, first = list(self.end_deck), self.predicted["first"]
        expected = first
        while len(deck) >= 2:
            drawn = {1 - first: deck.pop(0)}
            drawn[first] = deck.pop(0)
            ranks = {i: overtime_rank(c) for i, c in drawn.items()}
            if ranks[0] == ranks[1] == (1, None):
                return  # two specialties: the rulebook is silent
            if ranks[0] != ranks[1]:
                if ranks[0][0] != ranks[1][0]:
                    expected = 0 if ranks[0][0] > ranks[1][0] else 1
                else:
                    expected = 0 if ranks[0] > ranks[1] else 1
                break
        if result.winner != expected:
            self.fail(f"overtime from deck {[c.id for c in self.end_deck[:6]]}...: winner {result.winner}, expected {expected}", "result")


class Watched(engine.Scrap):
    """The engine's Scrap, watched: every take_turn, play and draw is seen by a Watch."""

    made: list = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.watch = Watch(self)
        Watched.made.append(self)

    def shuffle(self):
        super().shuffle()
        self.watch.after_shuffle()

    def draw(self, i, why="draw"):
        card = super().draw(i, why)
        if card is not None:
            self.watch.on_draw(i)
        return card

    def take_turn(self, i):
        self.watch.turn_start(i)
        moved = super().take_turn(i)
        self.watch.turn_end(i, moved)
        return moved

    def play(self, i, play):
        self.watch.play_start(i, play)
        scored = super().play(i, play)
        self.watch.play_end(i, play)
        return scored


@contextmanager
def watching():
    Watched.made = []
    with mock.patch.object(engine, "Scrap", Watched):
        yield Watched.made


class RandomPolicy:
    """A random legal policy: uniform among the options offered; everything else at random."""

    def __init__(self, seed: int, pass_p: float, answer_p: float, draw_p: float, extra_p: float):
        self.rng = random.Random(seed)
        self.pass_p, self.answer_p, self.draw_p, self.extra_p = pass_p, answer_p, draw_p, extra_p
        self.cut_em = False

    def choose(self, scrap, i, options):
        # After Cut Em the engine needs the Takedown: a None there crashes it (see
        # test_matclash_cards.test_cut_em_then_declining_the_takedown_does_not_crash)
        after_cut_em, self.cut_em = self.cut_em, False
        if not after_cut_em and self.rng.random() < self.pass_p:
            return None
        return self.rng.choice(options)

    def answer(self, scrap, i, threat, options):
        return self.rng.choice(options) if self.rng.random() < self.answer_p else None

    def wants_draw(self, scrap, i, options):
        return self.rng.random() < self.draw_p

    def use_cut_em(self, scrap, i):
        self.cut_em = self.rng.random() < self.extra_p
        return self.cut_em

    def use_momentum(self, scrap, i, scored_takedown):
        return self.rng.random() < self.extra_p


class Checked:
    """A policy whose every callback first has the watcher check the scrap it is handed."""

    def __init__(self, policy):
        self.policy = policy

    @staticmethod
    def _watch(scrap):
        return getattr(scrap, "watch", None)

    def choose(self, scrap, i, options):
        if w := self._watch(scrap):
            w.on_choose(i, options)
        choice = self.policy.choose(scrap, i, options)
        if choice is not None and not any(choice is o for o in options):
            raise AssertionError("the test policy chose outside the options")
        return choice

    def answer(self, scrap, i, threat, options):
        w = self._watch(scrap)
        if w:
            w.on_answer(i, threat, options)
        choice = self.policy.answer(scrap, i, threat, options)
        if w:
            w.on_answered(choice)
        return choice

    def wants_draw(self, scrap, i, options):
        if w := self._watch(scrap):
            w.on_wants_draw(i)
            w.on_choose(i, options)
        return self.policy.wants_draw(scrap, i, options)

    def use_cut_em(self, scrap, i):
        w = self._watch(scrap)
        if w:
            w.on_cut_em(i)
        yes = self.policy.use_cut_em(scrap, i)
        if w and yes:
            w.cut_em_played(i)
        return yes

    def use_momentum(self, scrap, i, scored_takedown):
        w = self._watch(scrap)
        if w:
            w.on_momentum(i, scored_takedown)
        yes = self.policy.use_momentum(scrap, i, scored_takedown)
        if w and yes:
            w.momentum_played(i)
        return yes


# --------------------------------------------------------------------------- strategies

PROBS = st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.9])


@st.composite
def games(draw):
    """A seed, a deck (base, or base plus every specialty set) and each wrestler's temper."""
    seed = draw(st.integers(0, 2**63 - 1))
    deck = draw(st.sampled_from(["base", "full", "full"]))
    tempers = [
        (draw(st.sampled_from([0.02, 0.1, 0.3])), draw(PROBS), draw(PROBS), draw(PROBS))
        for _ in (0, 1)
    ]
    return seed, deck, tempers


def policies(seed: int, tempers, checked: bool = True):
    made = [RandomPolicy(seed * 2 + k, *tempers[k]) for k in (0, 1)]
    return [Checked(p) for p in made] if checked else made


def deck_of(name: str):
    return FULL if name == "full" else BASE


def scrap_fingerprint(result):
    return (result.winner, result.method, result.finish, tuple(result.score), result.turns, result.transitions, result.first,
            [(e.turn, e.wrestler, e.kind, e.card, e.points, e.text, tuple(e.score), tuple(e.positions)) for e in result.events])


def assert_clean(scraps) -> None:
    """Each kind of fault on its own line, so hypothesis reports each engine fault separately."""
    found: dict[str, list[str]] = {}
    for scrap in scraps:
        for kind, message in scrap.watch.problems:
            found.setdefault(kind, []).append(message)
    show = lambda kind: "\n".join(found[kind][:8])  # noqa: E731
    unknown = set(found) - KINDS
    assert not unknown, unknown
    assert "books" not in found, show("books")
    assert "score" not in found, show("score")
    assert "draws" not in found, show("draws")
    assert "tenth" not in found, show("tenth")
    assert "turns" not in found, show("turns")
    assert "result" not in found, show("result")
    assert "answers" not in found, show("answers")
    assert "extras" not in found, show("extras")
    assert "timing" not in found, show("timing")
    # Spladle: "Can be played when: A Momentum card has been played directly after a Takedown ..., or Your
    # opponent has no Escape or Reversal after a Takedown and loses their transition turn." (not after a
    # defended Feet to Back; the rulings' table: "as Near Fall's first and third cases")
    assert "spladle_after_feet_to_back" not in found, show("spladle_after_feet_to_back")
    # Near Fall: "When your opponent has no Escape or Reversal to play after a Takedown and loses their
    # transition turn." 4.2: "the opponent, on bottom after a Takedown, passed his turn"
    assert "exposed_by_a_pass_not_after_a_takedown" not in found, show("exposed_by_a_pass_not_after_a_takedown")


KINDS = {"books", "score", "draws", "tenth", "turns", "result", "answers", "extras", "timing",
         "spladle_after_feet_to_back", "exposed_by_a_pass_not_after_a_takedown"}


SCRAPS_PER_EXAMPLE = 6
FAST = settings(max_examples=500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- Quick Scraps


@FAST
@given(games())
def test_quick_scraps_keep_every_invariant(game):
    """Six Quick Scraps per example (3,000 in all), half with every specialty set: books, scores, draws
    (2 a scrap), timing, answers, extras at every decision point; the deal, the 10th-card draw, the
    result and overtime at the end."""
    seed, deck_name, tempers = game
    deck = deck_of(deck_name)
    for k in range(SCRAPS_PER_EXAMPLE):
        with watching() as made:
            result = engine.quick_scrap(NAMES, policies(seed + k, tempers), deck, SeededDice(seed + k))
        assert len(made) == 1
        made[0].watch.finish(result)
        assert_clean(made)
        assert result.winner in (0, 1)


@FAST
@given(games())
def test_quick_scrap_replays_from_its_dice_log(game):
    """The log, written out by format_log, is a scripted-dice file that replays the scrap exactly."""
    seed, deck_name, tempers = game
    dice = SeededDice(seed)
    first = engine.quick_scrap(NAMES, policies(seed, tempers, checked=False), deck_of(deck_name), dice)
    script = ScriptedDice.parse(format_log(dice.log), "replay")
    again = engine.quick_scrap(NAMES, policies(seed, tempers, checked=False), deck_of(deck_name), script)
    assert script.remaining == 0
    assert scrap_fingerprint(again) == scrap_fingerprint(first)


# --------------------------------------------------------------------------- Dual Matches

# A failing Dual Match is reported as found, not shrunk: shrinking whole Duals (five or six scraps each)
# costs up to half a minute and only makes the seed smaller; the example shown replays as it is.
DUAL = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow],
                phases=(Phase.explicit, Phase.reuse, Phase.generate))


def my_method(watch, result) -> str:
    """The method by the rulebook, from the scrap itself (not from the result)."""
    scrap = watch.scrap
    if scrap.fall is not None:
        return "fall"
    margin = abs(scrap.score(0) - scrap.score(1))
    return "tech_fall" if margin >= 15 else "major" if margin >= 8 else "decision"


@DUAL
@given(games())
def test_dual_matches_keep_every_invariant_and_the_team_table(game):
    """Rulebook, Dual Match: "Each wrestler can draw up to 3 cards from the remaining deck during each
    Quick Scrap match"; "Pin and MAT BEAST cards cannot be played until completion of the second
    transition"; "Successful Pin, MAT BEAST, or FEET TO BACK with no Defense = 6 team points. Win by 15+
    points = Technical fall, 5 team points. Win by 8+ points = Major decision, 4 team points. Win by 7
    points or less = Decision, 3 team points."; "The wrestler with the higher team score wins the Dual
    Match. If team scores are tied, a tiebreaker Quick Scrap match is wrestled; the winner takes the Dual
    Match." (4.8: an overtime win is a decision; Spladle undefended is a fall, 4.9.) Then a replay."""
    seed, deck_name, tempers = game
    deck = deck_of(deck_name)
    dice = SeededDice(seed)
    with watching() as made:
        result = engine.dual_match(NAMES, policies(seed, tempers), deck, dice)
    assert len(made) == len(result.scraps)
    for n, (scrap, res) in enumerate(zip(made, result.scraps)):
        if n < 5:  # the tiebreaker is "a tiebreaker Quick Scrap match": either set of limits is a reading
            assert scrap.pin_after == 2 and scrap.draw_limit == 3
        scrap.watch.finish(res)
    assert_clean(made)
    team = [0, 0]
    for scrap, res in zip(made[:5], result.scraps[:5]):
        team[res.winner] += TEAM[my_method(scrap.watch, res)]
    assert tuple(result.team) == tuple(team)
    if team[0] != team[1]:
        assert not result.tiebreaker and len(result.scraps) == 5
        assert result.winner == (0 if team[0] > team[1] else 1)
    else:
        assert result.tiebreaker and len(result.scraps) == 6
        assert result.winner == result.scraps[5].winner
    # replay from the log
    script = ScriptedDice.parse(format_log(dice.log), "replay")
    again = engine.dual_match(NAMES, policies(seed, tempers, checked=False), deck, script)
    assert script.remaining == 0
    assert [scrap_fingerprint(s) for s in again.scraps] == [scrap_fingerprint(s) for s in result.scraps]
    assert (again.team, again.winner, again.tiebreaker) == (result.team, result.winner, result.tiebreaker)


# --------------------------------------------------------------------------- in flight


def test_no_card_is_in_flight_while_an_answer_is_asked():
    """4.4: "every card is always in exactly one place: the deck, a hand, a score stack or the Negate
    stack" -- at every decision point, including the moment a response is asked for. It fails on nearly
    every scrap, so plain seeds will do: 200 Quick Scraps with the full deck."""
    seen = []
    for seed in range(200):
        tempers = [(0.1, 0.5, 0.3, 0.5), (0.1, 0.5, 0.3, 0.5)]
        with watching() as made:
            result = engine.quick_scrap(NAMES, policies(seed, tempers), FULL, SeededDice(seed))
        made[0].watch.finish(result)
        seen += [f"seed {seed}, {m}" for m in made[0].watch.inflight]
    assert not seen, f"{len(seen)} times, e.g.\n" + "\n".join(seen[:5])
