"""Mat Clash's fast paths (issue 18): the record-free odds path plays exactly what the full path
plays, roll for roll, over thousands of random Quick Scraps and Dual Matches (random strategies
in the plan language, random legal play, either deck, every fed setting); and the hand's index
by action offers exactly the plays, in exactly the order, that a scan of the hand offers.

The paths compared: `quick_scrap`/`dual_match` with `record=False` (what `MatClash.trial`
plays for `fedtool odds`: no events) against `record=True` (the run's, every event kept for the
writeup); the same seed must give the same winner, method, finish, score, turns, transitions,
10th-card winner and the same dice log. The index is checked against the rulebook's reading
written as a plain scan of the hand (section 3's plays; 2.5's answers), at every decision.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import SeededDice
from fedtool.kernel.yamlio import parse_yaml
from fedtool.rulesets.matclash import MatClash, cards, engine
from fedtool.rulesets.base import Booking
from fedtool.rulesets.matclash.engine import BOTTOM, NEUTRAL, TOP, Play
from fedtool.rulesets.matclash.policy import Policy, read_policy
from test_matclash_properties import RandomPolicy
from test_matclash_strategy_properties import strategies_

BASE = cards.build_deck()
FULL = cards.build_deck(("wave1", "wave2", "wave3", "short_print"))
RULES = st.builds(engine.Rules, stalling_ban=st.sampled_from(["next_play", "turn"]),
                  wizardry_erases=st.sampled_from(["his_cards", "stack", "scoring"]), resilience_stops_spladle=st.booleans(),
                  early_falls=st.sampled_from(["fall", "no_fall"]), tie_when_ahead=st.sampled_from(["tie", "no_points", "not_playable"]))
SIDES = st.one_of(st.just(None), strategies_(), st.tuples(st.integers(0, 2**32), st.sampled_from([0.02, 0.1, 0.3]),
                                                          st.sampled_from([0.0, 0.3, 0.9]), st.sampled_from([0.0, 0.3, 0.9]),
                                                          st.sampled_from([0.0, 0.3, 0.9])))
SCRAPS, DUALS = 40, 6  # per example: with 30 examples, 1,200 Quick Scraps and about 1,000 more in 180 Dual Matches, each played both ways


def make_policies(sides) -> list:
    """Fresh policies for one play: the default (None), a strategy file's text, or random legal play
    (seed and tempers: made afresh, so both paths see the same choices)."""
    made = []
    for k, side in enumerate(sides):
        if side is None:
            made.append(Policy())
        elif isinstance(side, str):
            made.append(read_policy(parse_yaml(side, f"s{k}.yaml"), f"s{k}.yaml"))
        else:
            made.append(RandomPolicy(*side))
    return made


def scrap_print(result) -> tuple:
    return (result.winner, result.method, result.finish, tuple(result.score), result.turns, result.transitions, result.first)


def play_both(play, sides, deck, rules, seed: int, **kwargs):
    """One match played on the full path and on the odds path: (full, bare, full dice, bare dice)."""
    full_dice, bare_dice = SeededDice(seed), SeededDice(seed)
    full = play(["A", "B"], make_policies(sides), deck, full_dice, rules=rules, record=True, **kwargs)
    bare = play(["A", "B"], make_policies(sides), deck, bare_dice, rules=rules, record=False, **kwargs)
    return full, bare, full_dice, bare_dice


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(SIDES, SIDES), st.sampled_from(["base", "full"]), RULES, st.integers(0, 2**40))
def test_the_odds_path_plays_what_the_full_path_plays(sides, deck_name, rules, seed):
    """Roll for roll: the same results and the same dice log, the odds path keeping no events."""
    deck = FULL if deck_name == "full" else BASE
    for k in range(SCRAPS):
        full, bare, full_dice, bare_dice = play_both(engine.quick_scrap, sides, deck, rules, seed + k)
        assert scrap_print(bare) == scrap_print(full), f"seed {seed + k}"
        assert bare_dice.log == full_dice.log, f"seed {seed + k}: other dice"
        assert bare.events == [] and full.events
    for k in range(DUALS):
        full, bare, full_dice, bare_dice = play_both(engine.dual_match, sides, deck, rules, seed + SCRAPS + k)
        assert (bare.winner, bare.team, bare.tiebreaker) == (full.winner, full.team, full.tiebreaker), f"dual seed {seed + SCRAPS + k}"
        assert [scrap_print(s) for s in bare.scraps] == [scrap_print(s) for s in full.scraps], f"dual seed {seed + SCRAPS + k}"
        assert bare_dice.log == full_dice.log and len(full_dice.log) == len(full.scraps)  # one shuffle a scrap
        assert all(s.events == [] for s in bare.scraps) and all(s.events for s in full.scraps)


def test_the_trial_hook_plays_what_resolve_plays():
    """`MatClash.trial` on `trial_setup`'s setup (the odds) against `resolve` (the run), Quick
    Scrap and Dual Match, the week-3 plan strategies: the same winner, method and length."""
    from golden import ROOT

    ruleset = MatClash()
    week3 = ROOT / "strategies" / "week-03"
    policies = [read_policy(parse_yaml((week3 / f"{n}.yaml").read_text(), n), n) for n in ("tommy-reyes", "gus-halvorsen")]
    for fmt, seeds in (("quick_scrap", range(300)), ("dual_match", range(60))):
        setup = {"format": fmt, "names": ["A", "B"], "ids": ["a", "b"], "policies": policies, "deck": FULL, "moves": [{}, {}],
                 "rules": engine.Rules()}
        booking = Booking(None, setup, [], extra={"format": fmt})
        prepared = ruleset.trial_setup(booking)
        for seed in seeds:
            played = ruleset.resolve(booking, SeededDice(seed))
            trial = ruleset.trial(prepared, SeededDice(seed))
            length = len(played.scraps) if fmt == "dual_match" else played.scraps[0].turns
            assert (trial.winner, trial.method, trial.length) == (played.winner, played.method, length), f"{fmt} seed {seed}"


# ---------------------------------------------------------------------------- the index against a scan


def scan_turn(scrap, i) -> list:
    """Section 3 read as a scan of the hand, kind of play by kind of play, each in hand order:
    Takedown and Feet to Back from neutral (Beastin' as a Takedown after the Takedowns); 4.1 Escape
    and Reversal from bottom; 4.2 Near Fall (and Spladle after Momentum or a lost turn) on top with
    his back exposed; Pin and MAT BEAST once the Pin timing has come, not straight after Stalling
    (4.10) nor against Resilience (4.6); Stalling anywhere; Wizardry, Resilience and a tie card
    anywhere (not a tie card while ahead under `tie_when_ahead: not_playable`, 4.18)."""
    o, hand, pos = 1 - i, list(scrap.hands[i]), scrap.positions[i]

    def holding(action):
        return [Play(c, action) for c in hand if c.action == action] + [Play(c, action) for c in hand if c.action == "wild"]

    options = []
    if pos == NEUTRAL and scrap.positions[o] == NEUTRAL:
        options += holding("takedown") + [Play(c, "feet_to_back") for c in hand if c.action == "feet_to_back"]
    if pos == BOTTOM:
        options += holding("escape") + holding("reversal")
    if pos == TOP and scrap.exposed[i]:
        spladle = scrap.exposed[i] in ("momentum", "lost_turn")
        options += [Play(c, c.action) for c in hand if c.action == "near_fall" or spladle and c.action == "spladle"]
    if scrap.turn // 2 >= scrap.pin_after and not scrap.stalled[i] and not scrap.resilient[o]:
        options += [Play(c, c.action) for c in hand if c.action in ("pin", "mat_beast")]
    options += holding("stalling")
    ahead = scrap.points[i] > scrap.points[o] and scrap.rules.tie_when_ahead == "not_playable"
    options += [Play(c, c.action) for c in hand if c.action in ("wizardry", "resilience") or c.action == "tie" and not ahead]
    return options


def scan_answers(scrap, i, threat) -> list:
    """2.5 as a scan: Defense (or Beastin' as Defense) against a Takedown, Reversal, Pin or Feet to
    Back; Beastin' against MAT BEAST and Spladle; Scramble or Clone after a Takedown; Clone after
    Feet to Back."""
    hand = list(scrap.hands[i])
    if threat in ("takedown", "reversal", "pin", "feet_to_back"):
        options = [Play(c, "defense") for c in hand if c.action == "defense"] + [Play(c, "defense") for c in hand if c.action == "wild"]
    else:
        options = [Play(c, "beastin") for c in hand if c.action == "wild"]
    if threat == "takedown":
        options += [Play(c, c.action) for c in hand if c.action in ("scramble", "clone")]
    if threat == "feet_to_back":
        options += [Play(c, "clone") for c in hand if c.action == "clone"]
    return options


def index_of(hand) -> dict:
    by: dict = {}
    for card in hand:
        by.setdefault(card.action, []).append(card.own)
        if card.action == "wild":  # and as each card Beastin' may stand for
            for action in (*cards.WILD_AS, "beastin"):
                by.setdefault(f"wild as {action}", []).append(card.as_(action))
    return by


class Scanned:
    """A policy whose every decision first checks the options and both hands' index against the scans."""

    checked = 0

    def __init__(self, policy):
        self.policy = policy

    @staticmethod
    def _index_holds(scrap):
        for hand in scrap.hands:
            assert {a: p for a, p in hand.by.items() if p} == index_of(hand)

    def choose(self, scrap, i, options, state=None):
        self._index_holds(scrap)
        takedowns = [p for p in scan_turn(scrap, i) if p.action == "takedown"] if scrap.positions[i] == NEUTRAL else None
        assert options == scan_turn(scrap, i) or options == takedowns  # a turn, or the Takedown after Cut Em
        Scanned.checked += 1
        return self.policy.choose(scrap, i, options)

    def answer(self, scrap, i, threat, options):
        self._index_holds(scrap)
        assert options == scan_answers(scrap, i, threat)
        Scanned.checked += 1
        return self.policy.answer(scrap, i, threat, options)

    def wants_draw(self, scrap, i, options):
        assert options == scan_turn(scrap, i)
        return self.policy.wants_draw(scrap, i, options)

    def use_cut_em(self, scrap, i):
        return self.policy.use_cut_em(scrap, i)

    def use_momentum(self, scrap, i, scored_takedown):
        return self.policy.use_momentum(scrap, i, scored_takedown)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(SIDES, SIDES), RULES, st.integers(0, 2**40))
def test_the_hands_index_offers_what_a_scan_of_the_hand_offers(sides, rules, seed):
    """At every decision of random scraps (the full deck, every setting), the plays and answers
    offered off the index are the scan's, in the scan's order, and the index is the hand's."""
    before = Scanned.checked
    for k in range(12):
        made = make_policies(sides)
        result = engine.quick_scrap(["A", "B"], [Scanned(p) for p in made], FULL, SeededDice(seed + k), rules=rules, record=False)
        bare = engine.quick_scrap(["A", "B"], make_policies(sides), FULL, SeededDice(seed + k), rules=rules, record=False)
        assert scrap_print(result) == scrap_print(bare)  # watching changes nothing
    assert Scanned.checked > before


def test_a_hand_edited_by_hand_keeps_its_index():
    """A hand set or edited with the list's own methods (as tests and tools do) is indexed anew."""
    C = cards.catalogue()
    scrap = engine.Scrap(["A", "B"], [Policy(), Policy()], [], SeededDice(1))
    scrap.hands = [[C["takedown"], C["beastin"], C["takedown"]], []]
    assert index_of(scrap.hands[0]) == {a: p for a, p in scrap.hands[0].by.items() if p}
    scrap.hands[0].remove(C["takedown"])
    scrap.hands[0].append(C["pin"])
    assert [p.card.id for p in scrap.hands[0].by["takedown"]] == ["takedown"] and [p.card.id for p in scrap.hands[0].by["pin"]] == ["pin"]
    assert [(p.card.id, p.action) for p in scrap._holding(0, "takedown")] == [("takedown", "takedown"), ("beastin", "takedown")]


class Offered:
    """A policy that answers with the options it is offered (to read them off `_answer`)."""

    def answer(self, scrap, i, threat, options):
        return options


SITUATIONS = st.fixed_dictionaries({
    "hands": st.tuples(st.lists(st.sampled_from(sorted(cards.catalogue())), max_size=12),
                       st.lists(st.sampled_from(sorted(cards.catalogue())), max_size=12)),
    "positions": st.sampled_from([(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)]),
    "exposed": st.sampled_from(["", "momentum", "lost_turn", "feet_to_back"]),
    "turn": st.integers(0, 8), "pin_after": st.sampled_from([1, 2]), "stalled": st.booleans(), "resilient": st.booleans(),
    "points": st.tuples(st.integers(0, 12), st.integers(0, 12)), "tie_when_ahead": st.sampled_from(["tie", "no_points", "not_playable"]),
})


@settings(max_examples=400, deadline=None, database=None)
@given(SITUATIONS)
def test_every_situation_offers_what_a_scan_offers(s):
    """Any hand in any situation (hands drawn from every card, so every rare mix comes up: a
    Spladle beside Near Falls after a lost turn, Pin beside MAT BEAST, a tie card with Wizardry
    while ahead): the turn's plays and each threat's answers off the index are the scan's."""
    C = cards.catalogue()
    scrap = engine.Scrap(["A", "B"], [Offered(), Offered()], [], SeededDice(1), 2, s["pin_after"], engine.Rules(tie_when_ahead=s["tie_when_ahead"]))
    scrap.hands = [[C[x] for x in s["hands"][0]], [C[x] for x in s["hands"][1]]]
    scrap.positions, scrap.turn, scrap.points = list(s["positions"]), s["turn"], list(s["points"])
    scrap.exposed[0], scrap.stalled[0], scrap.resilient[1] = s["exposed"], s["stalled"], s["resilient"]
    assert scrap.turn_options(0) == scan_turn(scrap, 0)
    for threat in ("takedown", "reversal", "pin", "mat_beast", "feet_to_back", "spladle"):
        assert (scrap._answer(0, threat, None) or []) == scan_answers(scrap, 0, threat)


# ---------------------------------------------------------------------------- one call a turn (Policy.turn)


class TwoCalls:
    """A policy asked as before `Policy.turn`: `wants_draw`, then `choose` (its class has no `turn`,
    so the engine builds the options and asks the two questions)."""

    def __init__(self, policy):
        self.policy = policy

    def choose(self, scrap, i, options, state=None):
        return self.policy.choose(scrap, i, options, state)

    def wants_draw(self, scrap, i, options):
        return self.policy.wants_draw(scrap, i, options)

    def answer(self, scrap, i, threat, options):
        return self.policy.answer(scrap, i, threat, options)

    def use_cut_em(self, scrap, i):
        return self.policy.use_cut_em(scrap, i)

    def use_momentum(self, scrap, i, scored_takedown):
        return self.policy.use_momentum(scrap, i, scored_takedown)


PLANS = st.one_of(st.just(None), strategies_())


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(PLANS, PLANS), st.sampled_from(["base", "full"]), RULES, st.integers(0, 2**40))
def test_a_turn_decided_in_one_call_plays_what_two_calls_play(sides, deck_name, rules, seed):
    """Roll for roll: the engine asking a `Policy` for its turn in one call (`Policy.turn`, the
    options read only when needed) plays what it plays asking `wants_draw` and then `choose` of the
    same policy, over random plan strategies (draw always, never, when stuck; lines that bear on
    the draw), either deck, every fed setting: 40 Quick Scraps and 6 Dual Matches an example."""
    deck = FULL if deck_name == "full" else BASE
    for k in range(SCRAPS + DUALS):
        play = engine.quick_scrap if k < SCRAPS else engine.dual_match
        one_dice, two_dice = SeededDice(seed + k), SeededDice(seed + k)
        one = play(["A", "B"], make_policies(sides), deck, one_dice, rules=rules, record=True)
        two = play(["A", "B"], [TwoCalls(p) for p in make_policies(sides)], deck, two_dice, rules=rules, record=True)
        for a, b in zip(getattr(one, "scraps", [one]), getattr(two, "scraps", [two])):
            assert scrap_print(a) == scrap_print(b) and a.events == b.events, f"seed {seed + k}"
        assert one_dice.log == two_dice.log, f"seed {seed + k}: other dice"


TURN_SITUATIONS = st.fixed_dictionaries({
    "hand": st.lists(st.sampled_from(sorted(cards.catalogue())), max_size=12),
    "deck": st.lists(st.sampled_from(sorted(cards.catalogue())), max_size=6),
    "shown": st.lists(st.sampled_from(sorted(cards.catalogue())), max_size=6),
    "positions": st.sampled_from([(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)]),
    "exposed": st.sampled_from(["", "momentum", "lost_turn", "feet_to_back"]),
    "turn": st.integers(0, 10), "draws_used": st.integers(0, 2), "stalled": st.booleans(),
    "points": st.tuples(st.integers(0, 14), st.integers(0, 14)),
})


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(PLANS, TURN_SITUATIONS)
def test_policy_turn_is_wants_draw_then_choose_in_any_situation(text, s):
    """Any hand in any situation, any plan strategy: `Policy.turn` answers DRAW exactly when
    `wants_draw` says draw (and a draw is left), else the play `choose` makes among the turn's
    options (None when it passes). Fresh policies for each, so no kept answer is shared."""
    C = cards.catalogue()
    scrap = engine.Scrap(["A", "B"], [Policy(), Policy()], [C[x] for x in s["deck"]], SeededDice(1))
    scrap.hands = [[C[x] for x in s["hand"]], [C["defense"], C["beastin"]]]
    scrap.positions, scrap.turn, scrap.points = list(s["positions"]), s["turn"], list(s["points"])
    scrap.exposed[0], scrap.stalled[0], scrap.draws_used[0] = s["exposed"], s["stalled"], s["draws_used"]
    scrap.shown[1] = [C[x] for x in s["shown"]]

    def fresh():
        return Policy() if text is None else read_policy(parse_yaml(text, "s.yaml"), "s.yaml")

    can_draw = scrap.draws_used[0] < scrap.draw_limit and bool(scrap.deck)
    options = scrap.turn_options(0)
    two = fresh()
    expected = engine.DRAW if can_draw and two.wants_draw(scrap, 0, options) else two.choose(scrap, 0, options) if options else None
    assert fresh().turn(scrap, 0, can_draw) is expected


def test_a_wild_card_stands_for_what_the_hands_index_keeps():
    """`Card.stands`, made once per card, is Beastin' as each card it may stand for and as itself,
    under the index's keys in the index's order (engine.WILD_KEYS), each the card's one Play."""
    for card in cards.catalogue().values():
        assert [key for key, _ in card.stands] == list(engine.WILD_KEYS.values())
        assert [play for _, play in card.stands] == [card.as_(action) for action in engine.WILD_KEYS]
        assert all(play is card.as_(action) for (_, play), action in zip(card.stands, engine.WILD_KEYS))


def test_cards_and_plays_are_read_only_and_compare_as_the_dataclasses_did():
    """Card and Play are plain classes (extension types where compiled: cards.pxd), and behave as
    the frozen dataclasses they were: a field cannot be set or deleted (FrozenInstanceError), a card
    is equal only to itself, a play equals a play of the same card as the same action (and hashes
    alike), and both show as before."""
    from dataclasses import FrozenInstanceError

    import pytest

    C = cards.catalogue()
    card, wild = C["takedown"], C["beastin"]
    for thing, field in ((card, "points"), (card, "own"), (card.own, "action"), (wild.as_("escape"), "key")):
        with pytest.raises(FrozenInstanceError):
            setattr(thing, field, None)
        with pytest.raises(FrozenInstanceError):
            delattr(thing, field)
    assert card.points == 3 and card.own.action == "takedown" and wild.as_("escape").key == "beastin:escape"
    made = Play(card, "takedown")
    assert made is not card.own and made == card.own and not made != card.own and hash(made) == hash(card.own)
    assert {card.own: 1}[made] == 1
    assert Play(wild, "takedown") != Play(wild, "escape") and Play(wild, "escape") != Play(C["beastin_sp"], "escape")
    assert (card.own == "takedown") is False and card.own != C["defense"].own
    assert card == card and card != C["defense"] and card != cards.Card(*(getattr(card, f) for f in (
        "id", "name", "action", "points", "kind", "set", "timing", "effect", "defence")))
    assert repr(card) == "<takedown>" and repr(card.own) == "Play(card=<takedown>, action='takedown')"
    assert str(wild.as_("takedown")) == "Beastin' (Wild) as Takedown" and str(card.own) == "Takedown +3"


# ---------------------------------------------------------------------------- the turn loop's shortcuts


class WatchedTurns(engine.Scrap):
    """The engine's Scrap with `take_turn` overridden (calling the class's own), so `quick_scrap`
    asks it for each turn instead of taking the turn inline."""

    def take_turn(self, i):
        return super().take_turn(i)


class AsksMomentum:
    """A policy as it is, but without `momentum_after_takedown_only`: the engine offers it Momentum
    (`_extras`) after every play while it holds a Momentum or a Beastin', as before the shortcut."""

    def __init__(self, policy):
        self.policy = policy

    def turn(self, scrap, i, can_draw):
        return self.policy.turn(scrap, i, can_draw)

    def choose(self, scrap, i, options, state=None):
        return self.policy.choose(scrap, i, options, state)

    def answer(self, scrap, i, threat, options):
        return self.policy.answer(scrap, i, threat, options)

    def use_cut_em(self, scrap, i):
        return self.policy.use_cut_em(scrap, i)

    def use_momentum(self, scrap, i, scored_takedown):
        return self.policy.use_momentum(scrap, i, scored_takedown)


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(PLANS, PLANS), st.sampled_from(["base", "full"]), RULES, st.integers(0, 2**40))
def test_the_turn_loops_shortcuts_play_what_the_long_way_plays(sides, deck_name, rules, seed):
    """Roll for roll, events and all: `quick_scrap` taking each turn inline (the class's own
    `take_turn`) and skipping `_extras` after a play that was no scoring Takedown for a policy that
    plays Momentum only after one (`Policy.momentum_after_takedown_only`: no `momentum always` in
    its file) plays what it plays asking a subclass's `take_turn` for every turn and offering
    Momentum after every play (random plan strategies, `momentum always` and `never momentum`
    among their lines; either deck; every fed setting, `stalling_ban: turn` among them)."""
    deck = FULL if deck_name == "full" else BASE
    for k in range(SCRAPS + DUALS):
        dual = k >= SCRAPS
        one_dice, two_dice = SeededDice(seed + k), SeededDice(seed + k)
        one = (engine.dual_match if dual else engine.quick_scrap)(["A", "B"], make_policies(sides), deck, one_dice, rules=rules)
        long_way = [AsksMomentum(p) for p in make_policies(sides)]
        real = engine.Scrap
        engine.Scrap = WatchedTurns
        try:
            two = (engine.dual_match if dual else engine.quick_scrap)(["A", "B"], long_way, deck, two_dice, rules=rules)
        finally:
            engine.Scrap = real
        for a, b in zip(getattr(one, "scraps", [one]), getattr(two, "scraps", [two])):
            assert scrap_print(a) == scrap_print(b) and a.events == b.events, f"seed {seed + k}"
        assert one_dice.log == two_dice.log, f"seed {seed + k}: other dice"


def test_momentum_after_takedown_only_is_what_use_momentum_answers():
    """The flag the engine trusts: a policy whose file says `momentum always` (or a plan line that
    does) has it off; then Momentum may be wanted after any play. Without one, `use_momentum` is
    False after a play that was no scoring Takedown, in any position, with any cards."""
    C = cards.catalogue()
    always = [read_policy(parse_yaml(text, "s.yaml"), "s.yaml") for text in ("momentum: always\n", "plan:\n  - when leading, momentum always\n")]
    assert [p.momentum_after_takedown_only for p in always] == [False, False]
    others = [Policy(), read_policy(parse_yaml("momentum: never\n", "s.yaml"), "s.yaml"),
              read_policy(parse_yaml("plan:\n  - when trailing, momentum never\n  - on top, prefer near_fall\n", "s.yaml"), "s.yaml")]
    assert all(p.momentum_after_takedown_only for p in others)
    scrap = engine.Scrap(["A", "B"], [Policy(), Policy()], [], SeededDice(1))
    scrap.hands = [[C["momentum"], C["beastin"], C["near_fall_3"], C["spladle"]], []]
    for positions in ((NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)):
        for points in ((0, 0), (5, 0), (0, 5)):
            scrap.positions, scrap.points = list(positions), list(points)
            assert not any(p.use_momentum(scrap, 0, False) for p in others)
            assert always[0].use_momentum(scrap, 0, False)


# ---------------------------------------------------------------------------- compiled against pure


def pure_modules():
    """The engine and policy modules run from their .py source (whether or not compiled ones are
    imported), sharing the imported cards module: every card is the one object either way."""
    import sys
    import types
    from pathlib import Path

    loaded = []
    for name in ("engine", "policy"):
        path = Path(engine.__file__).with_name(f"{name}.py")
        module = types.ModuleType(f"fedtool.rulesets.matclash._pure_{name}")
        module.__package__ = "fedtool.rulesets.matclash"
        sys.modules[module.__name__] = module
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
        loaded.append(module)
    return loaded


COMPILED = not engine.__file__.endswith(".py")


def event_print(result) -> list:
    return [(e.turn, e.wrestler, e.kind, e.card, e.points, e.text, tuple(e.score), tuple(e.positions)) for e in result.events]


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(SIDES, SIDES), st.sampled_from(["base", "full"]), RULES, st.integers(0, 2**40), st.booleans())
def test_the_compiled_engine_plays_what_the_pure_engine_plays(sides, deck_name, rules, seed, record):
    """Roll for roll, events and all: the engine and policy as imported (compiled by Cython where
    the package was built so, FEDTOOL's setup.py) against the same modules run from their .py
    source, over random strategies, random legal play, either deck and every fed setting: 40 Quick
    Scraps and 6 Dual Matches an example. Without compiled modules the two are the same code and
    the test says so by skipping (the pure run is what every other test here checks)."""
    import pytest

    if not COMPILED:
        pytest.skip("the Mat Clash engine is not compiled here")
    pure_engine, pure_policy = PURE
    deck = FULL if deck_name == "full" else BASE

    def made(module):
        out = []
        for k, side in enumerate(sides):
            if side is None:
                out.append(module.Policy())
            elif isinstance(side, str):
                out.append(module.read_policy(parse_yaml(side, f"s{k}.yaml"), f"s{k}.yaml"))
            else:
                out.append(RandomPolicy(*side))
        return out

    for k in range(SCRAPS + DUALS):
        dual = k >= SCRAPS
        a_dice, b_dice = SeededDice(seed + k), SeededDice(seed + k)
        a = (engine.dual_match if dual else engine.quick_scrap)(["A", "B"], made(engine_policy()), deck, a_dice, rules=rules, record=record)
        pure_rules = pure_engine.Rules(**vars(rules))
        b = (pure_engine.dual_match if dual else pure_engine.quick_scrap)(["A", "B"], made(pure_policy), deck, b_dice, rules=pure_rules, record=record)
        for x, y in zip(getattr(a, "scraps", [a]), getattr(b, "scraps", [b])):
            assert scrap_print(x) == scrap_print(y) and event_print(x) == event_print(y), f"seed {seed + k}"
        assert a_dice.log == b_dice.log, f"seed {seed + k}: other dice"


def engine_policy():
    from fedtool.rulesets.matclash import policy

    return policy


PURE = pure_modules() if COMPILED else (None, None)
