"""Mat Clash, card by card: each card's effect and timing as the rulebook words it
(../shared/rules/000_1b6430037459c9a9.txt, quoted in each docstring) and, where the rulebook is
silent, as docs/rulings/mat-clash.md settles it (rule numbers).

States are built by hand (`engine.Scrap`, then `hands`, `positions`, `turn`, ...) and driven
through `take_turn` / `turn_options`; scripted policies make every decision, so each test knows
exactly what was offered, what was played, and where every card ended up. Whole scraps
(`quick_scrap`, `dual_match`) are played from decks arranged card by card, the shuffle dice chosen
to leave (or put) each card where the test wants it.
"""

from __future__ import annotations

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.matclash import cards, engine
from fedtool.rulesets.matclash.engine import BOTTOM, NEUTRAL, TOP

C = cards.catalogue()
WILDS = ("beastin", "beastin_sp")


def cs(*ids: str) -> list:
    return [C[x] for x in ids]


def ids(cards_) -> list[str]:
    return [c.id for c in cards_]


def stack(scrap, i) -> list[tuple[str, int]]:
    return [(c.id, points) for c, points in scrap.stacks[i]]


def offered(options) -> set[tuple[str, str]]:
    return {(p.card.id, p.action) for p in options}


def actions(options) -> set[str]:
    return {p.action for p in options}


def pick(options, want):
    if want is None:
        return None
    card_id, action = want if isinstance(want, tuple) else (want, None)
    found = [p for p in options if p.card.id == card_id and (action is None or p.action == action)]
    assert found, f"{want} was not offered: {sorted(offered(options))}"
    return found[0]


class Script:
    """A scripted policy: each decision is taken from its list in order (a pass, no answer, no
    draw and no extra once a list is used up); every question it is asked is recorded."""

    def __init__(self, plays=(), answers=(), draws=(), cut_em=(), momentum=()):
        self.plays, self.answers, self.draws = list(plays), list(answers), list(draws)
        self.cut_em, self.momentum = list(cut_em), list(momentum)
        self.offered: list[list] = []  # the options of each choose
        self.asked: list[tuple] = []  # (threat, options) of each answer
        self.momentum_asked: list[bool] = []  # scored_takedown, each time Momentum is offered
        self.cut_em_asked = 0
        self.scrap = None
        self.first_hands = None  # both hands (card ids) at his first decision

    def see(self, scrap):
        self.scrap = scrap
        if self.first_hands is None:
            self.first_hands = [ids(hand) for hand in scrap.hands]

    def choose(self, scrap, i, options):
        self.see(scrap)
        self.offered.append(list(options))
        return pick(options, self.plays.pop(0) if self.plays else None)

    def answer(self, scrap, i, threat, options):
        self.see(scrap)
        self.asked.append((threat, list(options)))
        return pick(options, self.answers.pop(0) if self.answers else None)

    def wants_draw(self, scrap, i, options):
        self.see(scrap)
        return self.draws.pop(0) if self.draws else False

    def use_cut_em(self, scrap, i):
        self.see(scrap)
        self.cut_em_asked += 1
        return self.cut_em.pop(0) if self.cut_em else False

    def use_momentum(self, scrap, i, scored_takedown):
        self.see(scrap)
        self.momentum_asked.append(scored_takedown)
        return self.momentum.pop(0) if self.momentum else False


class Prefer(Script):
    """Plays the first offered card whose action comes first in `order`; never answers, draws or
    takes an extra. For whole scraps."""

    def __init__(self, order=("pin", "mat_beast", "takedown", "near_fall")):
        super().__init__()
        self.order = order

    def choose(self, scrap, i, options):
        self.see(scrap)
        self.offered.append(list(options))
        for action in self.order:
            for play in options:
                if play.action == action:
                    return play
        return None


def scrap_of(hands, positions=(NEUTRAL, NEUTRAL), turn=2, deck=(), scripts=None, pin_after=1, draws=2):
    """A scrap in the middle of play: hands, positions and the turn (completed turns) set by hand."""
    scripts = scripts or (Script(), Script())
    scrap = engine.Scrap(["Red", "Blue"], list(scripts), cs(*deck), ScriptedDice([]), draws, pin_after)
    scrap.hands = [cs(*hands[0]), cs(*hands[1])]
    scrap.positions = list(positions)
    scrap.turn = turn
    return scrap


def give(scrap, i, *entries) -> None:
    """Put scored cards in i's stack (the score follows: 4.4)."""
    for card_id, points in entries:
        scrap.stacks[i].append((C[card_id], points))
        scrap.points[i] += points


def score(scrap) -> tuple[int, int]:
    return (scrap.score(0), scrap.score(1))


# ============================================================================ base cards
# ---------------------------------------------------------------------------- Takedown +3


def test_takedown_scores_three_and_the_taker_goes_on_top():
    """Takedown: "This card can be played when both wrestlers are in the neutral position. The wrestler
    that plays the Takedown card obtains 3 points and is now in the top position." """
    red, blue = Script(plays=["takedown"]), Script()
    scrap = scrap_of([["takedown"], ["escape"]], turn=0, scripts=(red, blue))
    assert scrap.take_turn(0) is True
    assert score(scrap) == (3, 0)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 0) == [("takedown", 3)]
    assert scrap.hands == [[], [C["escape"]]] and scrap.negate == []
    assert blue.asked == []  # Escape is no answer to a Takedown


@pytest.mark.parametrize("positions", [(TOP, BOTTOM), (BOTTOM, TOP)])
def test_takedown_only_when_both_are_neutral(positions):
    """Takedown: "This card can be played when both wrestlers are in the neutral position." """
    assert ("takedown", "takedown") in offered(scrap_of([["takedown"], []]).turn_options(0))
    assert offered(scrap_of([["takedown"], []], positions=positions).turn_options(0)) == set()


def test_defense_stops_the_takedown_both_stay_neutral():
    """Takedown: "If a Defense card is played, both wrestlers stay in the neutral position and the score
    stays the same." Defense: "the wrestler that played the Takedown loses the 3 points and both remain in
    the neutral position." Negate stack: "holds any Takedown, Reversal, Pin, or MAT BEAST cards that were
    successfully defended." (4.4: the Defense is credited 0 in its player's stack.)"""
    red, blue = Script(plays=["takedown"]), Script(answers=["defense"])
    scrap = scrap_of([["takedown"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [("takedown", {("defense", "defense")})]
    assert score(scrap) == (0, 0)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert ids(scrap.negate) == ["takedown"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("defense", 0)]
    assert scrap.hands == [[], []]


# ---------------------------------------------------------------------------- Escape +1


def test_escape_after_a_takedown_scores_one_and_both_are_neutral():
    """Escape +1: "This card can be played when the other wrestler has played a Takedown card. The wrestler
    that plays the Escape card obtains 1 point and moves to the neutral position." """
    red, blue = Script(plays=["takedown"]), Script(plays=["escape"])
    scrap = scrap_of([["takedown"], ["escape"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    assert offered(blue.offered[0]) == {("escape", "escape")}
    assert score(scrap) == (3, 1)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert stack(scrap, 1) == [("escape", 1)] and scrap.hands == [[], []]


@pytest.mark.parametrize("position", [NEUTRAL, TOP])
def test_escape_and_reversal_only_from_bottom(position):
    """Escape and Reversal are worded for the moment after a Takedown; rulings 4.1: "Escape and Reversal
    are legal in your turn whenever you are on bottom." So never from neutral or top."""
    other = {NEUTRAL: NEUTRAL, TOP: BOTTOM}[position]
    scrap = scrap_of([["escape", "reversal", "escape_2"], []], positions=(position, other))
    assert offered(scrap.turn_options(0)) == set()
    scrap = scrap_of([["escape", "reversal", "escape_2"], []], positions=(BOTTOM, TOP))
    assert offered(scrap.turn_options(0)) == {("escape", "escape"), ("reversal", "reversal"), ("escape_2", "escape")}


# ---------------------------------------------------------------------------- Reversal +2


def test_reversal_scores_two_and_goes_on_top():
    """Reversal +2: "This card can be played after the other wrestler plays a Takedown card ... The wrestler
    that plays the Reversal card obtains 2 points and moves to the top position." """
    red, blue = Script(plays=["takedown"]), Script(plays=["reversal"])
    scrap = scrap_of([["takedown"], ["reversal"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    assert score(scrap) == (3, 2)
    assert scrap.positions == [BOTTOM, TOP]
    assert stack(scrap, 1) == [("reversal", 2)]


def test_reversal_after_a_reversal_from_bottom():
    """Reversal +2: "or if the other wrestler plays a Reversal card from bottom." """
    red, blue = Script(plays=["reversal"]), Script(plays=["reversal"])
    scrap = scrap_of([["reversal"], ["reversal"]], positions=(BOTTOM, TOP), turn=2, scripts=(red, blue))
    scrap.take_turn(0)
    assert scrap.positions == [TOP, BOTTOM]
    scrap.turn = 3
    scrap.take_turn(1)
    assert score(scrap) == (2, 2)
    assert scrap.positions == [BOTTOM, TOP]
    assert stack(scrap, 0) == [("reversal", 2)] and stack(scrap, 1) == [("reversal", 2)]


def test_defense_stops_the_reversal_he_stays_on_bottom():
    """Reversal: "If a Defense card is played to prevent the Reversal, the wrestlers stay in the same
    positions as before the Reversal card was played, and the score stays the same." Defense: "the
    wrestler that played the Reversal loses the 2 points and remains on bottom." """
    red, blue = Script(plays=["reversal"]), Script(answers=["defense"])
    scrap = scrap_of([["reversal"], ["defense"]], positions=(BOTTOM, TOP), scripts=(red, blue))
    give(scrap, 1, ("takedown", 3))
    scrap.take_turn(0)
    assert [t for t, _ in blue.asked] == ["reversal"]
    assert score(scrap) == (0, 3)
    assert scrap.positions == [BOTTOM, TOP]
    assert ids(scrap.negate) == ["reversal"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("takedown", 3), ("defense", 0)]


# ---------------------------------------------------------------------------- Defense +0


@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_defense_is_only_an_answer_never_a_turn_play(positions):
    """Defense: "This card can be played after the other wrestler plays a Takedown, Reversal, or Pin card"
    (rulings section 3: "a response only")."""
    scrap = scrap_of([["defense", "momentum"], []], positions=positions, turn=6)
    assert scrap.turn_options(0) == []


@pytest.mark.parametrize("positions", [(TOP, BOTTOM), (BOTTOM, TOP), (NEUTRAL, NEUTRAL)])
def test_defense_stops_the_pin_positions_stay(positions):
    """Defense: "If a Pin card is played prior to the Defense card, the wrestler that played the Pin card
    does not win the match; positions stay the same." Pin: "If a Defense card is played, both wrestlers
    stay in the same positions they were in prior to the Pin card." """
    red, blue = Script(plays=["pin"]), Script(answers=["defense"])
    scrap = scrap_of([["pin"], ["defense"]], positions=positions, scripts=(red, blue))
    scrap.take_turn(0)
    assert [t for t, _ in blue.asked] == ["pin"]
    assert scrap.fall is None
    assert tuple(scrap.positions) == positions
    assert ids(scrap.negate) == ["pin"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("defense", 0)]
    assert score(scrap) == (0, 0)


# ---------------------------------------------------------------------------- Near Fall +2/+3/+4


@pytest.mark.parametrize("near_fall, points", [("near_fall_2", 2), ("near_fall_3", 3), ("near_fall_4", 4)])
def test_near_fall_after_momentum_directly_after_a_takedown(near_fall, points):
    """Near Fall: "Near-Fall can be earned: After a Momentum card is played directly after a Takedown to
    skip the opponent's transition turn." Momentum: "to immediately take another transition turn and skip
    your opponent's next turn." """
    red = Script(plays=["takedown", near_fall], momentum=[True])
    blue = Script()
    scrap = scrap_of([["takedown", "momentum", near_fall], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert red.momentum_asked == [True]
    assert (near_fall, "near_fall") in offered(red.offered[1])
    assert score(scrap) == (3 + points, 0)
    assert stack(scrap, 0) == [("takedown", 3), ("momentum", 0), (near_fall, points)]
    assert scrap.positions == [TOP, BOTTOM]
    assert [t for t, _ in blue.asked] == ["takedown"]  # "There is no Defense against Near-Fall cards."
    scrap.turn = 1
    assert scrap.take_turn(1) is True and blue.offered == []  # his turn is skipped
    assert scrap.hands == [[], [C["defense"]]]


@pytest.mark.parametrize("near_fall, points", [("near_fall_2", 2), ("near_fall_3", 3), ("near_fall_4", 4)])
def test_near_fall_when_the_opponent_has_no_escape_after_a_takedown(near_fall, points):
    """Near Fall: "When your opponent has no Escape or Reversal to play after a Takedown and loses their
    transition turn." (4.2) "There is no Defense against Near-Fall cards." """
    red, blue = Script(plays=["takedown", near_fall]), Script()
    scrap = scrap_of([["takedown", near_fall], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert (near_fall, "near_fall") not in offered(scrap.turn_options(0))  # not before he loses his turn
    scrap.turn = 1
    assert scrap.take_turn(1) is False  # nothing to play: he loses his turn
    scrap.turn = 2
    scrap.take_turn(0)
    assert offered(red.offered[1]) == {(near_fall, "near_fall")}
    assert score(scrap) == (3 + points, 0)
    assert stack(scrap, 0) == [("takedown", 3), (near_fall, points)]
    assert scrap.positions == [TOP, BOTTOM]
    assert [t for t, _ in blue.asked] == ["takedown"]


@pytest.mark.parametrize("near_fall, points", [("near_fall_2", 2), ("near_fall_3", 3), ("near_fall_4", 4)])
def test_near_fall_after_a_defended_feet_to_back(near_fall, points):
    """Near Fall: "After a FEET TO BACK card is played and the opponent defends the pin." """
    red, blue = Script(plays=["feet_to_back", near_fall]), Script(answers=["defense"])
    scrap = scrap_of([["feet_to_back", near_fall], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)  # on bottom with nothing to play
    scrap.turn = 2
    scrap.take_turn(0)
    assert score(scrap) == (7 + points, 0)
    assert stack(scrap, 0) == [("feet_to_back", 7), (near_fall, points)]
    assert scrap.positions == [TOP, BOTTOM]


def test_near_fall_needs_the_back_exposed():
    """Near Fall: "Near-Fall cards are played when a wrestler on top has their opponent's back exposed close
    to the mat long enough to earn points." On top without one of the three cases (4.2): no Near Fall; and
    never from neutral or bottom."""
    for positions in [(TOP, BOTTOM), (NEUTRAL, NEUTRAL), (BOTTOM, TOP)]:
        scrap = scrap_of([["near_fall_2", "near_fall_3", "near_fall_4", "near_fall_5", "spladle"], []], positions=positions)
        assert scrap.turn_options(0) == []
    # a Takedown without Momentum: the opponent still has his transition turn
    red = Script(plays=["takedown"])
    scrap = scrap_of([["takedown", "near_fall_4", "momentum"], []], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    assert red.momentum_asked == [True]  # offered, declined
    assert scrap.turn_options(0) == []


def test_near_fall_not_after_a_lost_turn_on_bottom_by_a_reversal():
    """Near Fall: "When your opponent has no Escape or Reversal to play after a Takedown and loses their
    transition turn." Rulings 4.2: the back is exposed when "the opponent, on bottom after a Takedown,
    passed his turn". Here he is on bottom after a Reversal, not a Takedown: no Near Fall."""
    red, blue = Script(plays=["reversal"]), Script()
    scrap = scrap_of([["reversal", "near_fall_2"], ["defense"]], positions=(BOTTOM, TOP), turn=2, scripts=(red, blue))
    scrap.take_turn(0)  # Reversal, not defended
    assert scrap.positions == [TOP, BOTTOM]
    scrap.turn = 3
    assert scrap.take_turn(1) is False  # he passes on bottom
    scrap.turn = 4
    assert ("near_fall_2", "near_fall") not in offered(scrap.turn_options(0))


# ---------------------------------------------------------------------------- Momentum +0


def test_momentum_takes_another_turn_and_skips_the_opponents():
    """Momentum: "Momentum is played after you have played a card in transition to immediately take another
    transition turn and skip your opponent's next turn." """
    red = Script(plays=["escape", "takedown"], momentum=[True])
    blue = Script()
    scrap = scrap_of([["escape", "momentum", "takedown"], []], positions=(BOTTOM, TOP), turn=2, scripts=(red, blue))
    give(scrap, 1, ("takedown", 3))
    assert "momentum" not in actions(scrap.turn_options(0))  # never a turn play of its own
    scrap.take_turn(0)
    assert red.momentum_asked == [False]  # after the Escape: not a Takedown
    assert score(scrap) == (4, 3)
    assert stack(scrap, 0) == [("escape", 1), ("momentum", 0), ("takedown", 3)]
    assert scrap.positions == [TOP, BOTTOM]
    assert scrap.skip_next == [False, True]
    scrap.turn = 3
    assert scrap.take_turn(1) is True and blue.offered == []
    assert scrap.skip_next == [False, False]


@pytest.mark.parametrize("positions, first", [((NEUTRAL, NEUTRAL), "stalling"), ((TOP, BOTTOM), "stalling"), ((BOTTOM, TOP), "escape")])
def test_momentum_from_any_position(positions, first):
    """Momentum: "This card can be played from any position (Neutral, Top, Bottom) to skip your opponent's
    next turn in transition." """
    red = Script(plays=[first], momentum=[True])
    scrap = scrap_of([[first, "momentum"], []], positions=positions, deck=["defense"], scripts=(red, Script()))
    scrap.take_turn(0)
    assert red.momentum_asked == [False]
    assert ("momentum", 0) in stack(scrap, 0)
    assert scrap.skip_next[1] is True


def test_momentum_is_not_offered_after_a_pass():
    """Momentum: "Momentum is played after you have played a card in transition" -- no card, no Momentum."""
    red = Script()
    scrap = scrap_of([["momentum", "takedown"], []], scripts=(red, Script()))
    assert scrap.take_turn(0) is False
    assert red.momentum_asked == []
    assert ids(scrap.hands[0]) == ["momentum", "takedown"]


# ---------------------------------------------------------------------------- Stalling -1


@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_stalling_gives_a_point_skips_and_draws_an_extra_card(positions):
    """Stalling: "This card can be played at any time in transition (Neutral, Top, Bottom) to skip your
    opponent's turn in transition and draw one additional card from the remaining deck." "Playing Stalling
    gives your opponent 1 point." Rulings 2.3: Stalling's draw "does not count against" the 2 draws; 4.4:
    the Stalling card goes to the opponent's stack with the 1 point."""
    red, blue = Script(plays=["stalling"]), Script()
    scrap = scrap_of([["stalling"], []], positions=positions, deck=["reversal", "escape"], scripts=(red, blue))
    scrap.draws_used = [2, 0]  # his two draws are used up
    scrap.take_turn(0)
    assert score(scrap) == (0, 1)
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("stalling", 1)]
    assert ids(scrap.hands[0]) == ["reversal"] and ids(scrap.deck) == ["escape"]
    assert scrap.draws_used == [2, 0]
    assert tuple(scrap.positions) == positions
    scrap.turn = 3
    assert scrap.take_turn(1) is True and blue.offered == []


@pytest.mark.parametrize("finisher", ["pin", "mat_beast"])
def test_no_pin_or_mat_beast_directly_after_stalling(finisher):
    """Stalling: "You cannot play a Pin card or MAT BEAST card directly after a Stalling card." (Quick Scrap:
    "no Pin can be played directly after Stalling".) Once he has played something else, he may."""
    red, blue = Script(plays=["stalling", "takedown"]), Script()
    scrap = scrap_of([["stalling", finisher, "takedown"], ["defense"]], turn=2, deck=["escape"], scripts=(red, blue))
    assert finisher in actions(scrap.turn_options(0))
    scrap.take_turn(0)  # Stalling
    scrap.turn = 3
    scrap.take_turn(1)  # skipped
    scrap.turn = 4
    assert finisher not in actions(scrap.turn_options(0))
    scrap.take_turn(0)  # Takedown
    assert finisher not in actions(red.offered[1])
    scrap.turn = 5
    scrap.take_turn(1)
    scrap.turn = 6
    assert finisher in actions(scrap.turn_options(0))


# ---------------------------------------------------------------------------- Pin and MAT BEAST


@pytest.mark.parametrize("finisher", ["pin", "mat_beast"])
@pytest.mark.parametrize("turn, allowed", [(0, False), (1, False), (2, True), (3, True)])
def test_pin_and_mat_beast_after_the_first_transition_in_a_quick_scrap(finisher, turn, allowed):
    """Pin / MAT BEAST: "This card can be played after: The completion of the first transition in a Quick
    Scrap match". Quick Scrap: "Pin and MAT BEAST cards cannot be played until the first transition is
    complete." Rulings 2.2: the first transition is complete at the end of turn 2 (turn counter 2)."""
    scrap = scrap_of([[finisher], []], turn=turn, pin_after=1)
    assert (finisher in actions(scrap.turn_options(0))) is allowed


@pytest.mark.parametrize("finisher", ["pin", "mat_beast"])
@pytest.mark.parametrize("turn, allowed", [(2, False), (3, False), (4, True), (5, True)])
def test_pin_and_mat_beast_after_the_second_transition_in_a_dual(finisher, turn, allowed):
    """Pin / MAT BEAST: "The completion of the second transition in a Dual Match." Dual Match: "Pin and MAT
    BEAST cards cannot be played until completion of the second transition." (2.2: end of turn 4.)"""
    scrap = scrap_of([[finisher], []], turn=turn, pin_after=2, draws=3)
    assert (finisher in actions(scrap.turn_options(0))) is allowed


@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_undefended_pin_ends_the_scrap_from_any_position(positions):
    """Pin: "The Defense card is the only way to prevent a wrestler from being pinned and ending the match."
    Ways the Match Ends: "A wrestler plays a Pin after the first transition and the opponent does not have a
    Defense card." Rulings 4.3: "both may be played from any position." """
    red, blue = Script(plays=["pin"]), Script()
    scrap = scrap_of([["pin"], ["escape", "reversal"]], positions=positions, scripts=(red, blue))
    scrap.take_turn(0)
    assert blue.asked == []
    assert scrap.fall == (0, "pin")
    assert stack(scrap, 0) == [("pin", 0)] and scrap.negate == []


def test_mat_beast_is_not_stopped_by_defense():
    """MAT BEAST: "The Beastin' (Wild) card is the only card that can defend MAT BEAST." Ways the Match Ends:
    "A wrestler plays MAT BEAST after the first transition and the opponent does not have a Beastin' (Wild)
    card." """
    red, blue = Script(plays=["mat_beast"]), Script(answers=["defense"])
    scrap = scrap_of([["mat_beast"], ["defense", "defense"]], positions=(TOP, BOTTOM), scripts=(red, blue))
    scrap.take_turn(0)
    assert blue.asked == []  # Defense is no answer: he is not even asked
    assert scrap.fall == (0, "mat_beast")
    assert stack(scrap, 0) == [("mat_beast", 0)]
    assert ids(scrap.hands[1]) == ["defense", "defense"]


@pytest.mark.parametrize("wild", WILDS)
@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_beastin_is_the_only_answer_to_mat_beast(wild, positions):
    """MAT BEAST: "If Beastin' is played in response, both wrestlers stay in the same positions they were in
    prior to the MAT BEAST card." Beastin' (Wild): "It is also the only defense for the MAT BEAST card."
    Short print: "is the only defense for the MAT BEAST card." Negate: defended MAT BEAST cards."""
    red, blue = Script(plays=["mat_beast"]), Script(answers=[wild])
    scrap = scrap_of([["mat_beast"], ["defense", wild]], positions=positions, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [("mat_beast", {(wild, "beastin")})]
    assert scrap.fall is None
    assert tuple(scrap.positions) == positions
    assert ids(scrap.negate) == ["mat_beast"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [(wild, 0)]
    assert ids(scrap.hands[1]) == ["defense"]


# ---------------------------------------------------------------------------- Beastin' (Wild)


@pytest.mark.parametrize("wild", WILDS)
def test_beastin_as_takedown(wild):
    """Beastin' (Wild): "This wild card can be played as any of the following Base Cards: Takedown, ..."
    -- and scores as a Takedown: 3 points, on top."""
    red = Script(plays=[(wild, "takedown")])
    scrap = scrap_of([[wild], []], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    assert score(scrap) == (3, 0)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 0) == [(wild, 3)]


@pytest.mark.parametrize("wild", WILDS)
def test_beastin_as_escape_scores_one(wild):
    """Beastin' (Wild) as Escape: "The wrestler that plays the Escape card obtains 1 point and moves to the
    neutral position." (1 point, not the 3 it counts in the 10th-card draw.)"""
    red = Script(plays=[(wild, "escape")])
    scrap = scrap_of([[wild], []], positions=(BOTTOM, TOP), scripts=(red, Script()))
    scrap.take_turn(0)
    assert score(scrap) == (1, 0)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert stack(scrap, 0) == [(wild, 1)]


@pytest.mark.parametrize("wild", WILDS)
def test_beastin_as_reversal_scores_two(wild):
    """Beastin' (Wild) as Reversal: "obtains 2 points and moves to the top position." """
    red = Script(plays=[(wild, "reversal")])
    scrap = scrap_of([[wild], []], positions=(BOTTOM, TOP), scripts=(red, Script()))
    scrap.take_turn(0)
    assert score(scrap) == (2, 0)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 0) == [(wild, 2)]


@pytest.mark.parametrize("wild", WILDS)
@pytest.mark.parametrize("threat, start, hand", [
    ("takedown", (NEUTRAL, NEUTRAL), ["takedown"]),
    ("reversal", (BOTTOM, TOP), ["reversal"]),
    ("pin", (TOP, BOTTOM), ["pin"]),
    ("feet_to_back", (NEUTRAL, NEUTRAL), ["feet_to_back"]),
])
def test_beastin_as_defense(wild, threat, start, hand):
    """Beastin' (Wild) as Defense: Defense "can be played after the other wrestler plays a Takedown, Reversal,
    or Pin card and will nullify the points or pin" (and Feet to Back: "the Defense card prevents the pin";
    rulings 2.5: "Defense (or Beastin' as Defense)")."""
    red, blue = Script(plays=[hand[0]]), Script(answers=[(wild, "defense")])
    scrap = scrap_of([hand, [wild]], positions=start, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [(threat, {(wild, "defense")})]
    assert scrap.fall is None
    assert stack(scrap, 1) == [(wild, 0)]
    if threat == "feet_to_back":
        assert score(scrap) == (7, 0) and scrap.positions == [TOP, BOTTOM]
    else:
        assert score(scrap) == (0, 0) and tuple(scrap.positions) == start and ids(scrap.negate) == [threat]


@pytest.mark.parametrize("wild", WILDS)
def test_beastin_as_momentum(wild):
    """Beastin' (Wild) as Momentum: "to immediately take another transition turn and skip your opponent's
    next turn." (After a Takedown: the back is exposed for a Near Fall.)"""
    red = Script(plays=["takedown", "near_fall_3"], momentum=[True])
    scrap = scrap_of([["takedown", wild, "near_fall_3"], []], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    assert stack(scrap, 0) == [("takedown", 3), (wild, 0), ("near_fall_3", 3)]
    assert score(scrap) == (6, 0)
    assert scrap.skip_next == [False, True]


@pytest.mark.parametrize("wild", WILDS)
def test_beastin_as_stalling(wild):
    """Beastin' (Wild) as Stalling: "skip your opponent's turn in transition and draw one additional card";
    "Playing Stalling gives your opponent 1 point." """
    red = Script(plays=[(wild, "stalling")])
    scrap = scrap_of([[wild], []], deck=["escape"], scripts=(red, Script()))
    scrap.take_turn(0)
    assert score(scrap) == (0, 1)
    assert stack(scrap, 1) == [(wild, 1)]
    assert ids(scrap.hands[0]) == ["escape"] and scrap.deck == []
    assert scrap.skip_next == [False, True]


@pytest.mark.parametrize("wild", WILDS)
@pytest.mark.parametrize("positions, exposed, allowed", [
    ((NEUTRAL, NEUTRAL), False, {"takedown", "stalling"}),
    ((BOTTOM, TOP), False, {"escape", "reversal", "stalling"}),
    ((TOP, BOTTOM), True, {"stalling"}),
])
def test_beastin_never_as_pin_mat_beast_near_fall_or_specialty(wild, positions, exposed, allowed):
    """Beastin' (Wild): "It cannot be played as: Pin, MAT BEAST, Near-Fall, or any Specialty card." Short
    print: "This wild card can be played as: Takedown, Escape, Reversal, Defense, Momentum, or Stalling."
    (Defense and Momentum are answers and extras, never turn plays: rulings 2.5, 2.6.)"""
    scrap = scrap_of([[wild], []], positions=positions, turn=6)
    scrap.exposed = [exposed, False]
    assert {p.card.id for p in scrap.turn_options(0)} <= {wild}
    assert actions(scrap.turn_options(0)) == allowed


# ============================================================================ Wave 1
# ---------------------------------------------------------------------------- Feet to Back +7


def test_feet_to_back_without_defense_is_a_fall():
    """Feet to Back: "Play when both wrestlers are in the neutral position. The wrestler who plays this card
    scores 7 points." "If no Defense card is played, it results in an automatic pin." """
    red, blue = Script(plays=["feet_to_back"]), Script()
    scrap = scrap_of([["feet_to_back"], ["escape", "scramble"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert blue.asked == []  # neither Escape nor Scramble answers it
    assert scrap.fall == (0, "feet_to_back")
    assert score(scrap) == (7, 0)
    assert stack(scrap, 0) == [("feet_to_back", 7)]


def test_feet_to_back_defended_still_scores_seven_and_he_is_on_bottom():
    """Feet to Back: "The opponent must play a Defense card to be placed on bottom for the next transition."
    Defense: "If a FEET TO BACK card is played, the Defense card prevents the pin and keeps the defending
    wrestler on bottom, but the wrestler that played FEET TO BACK still receives 7 points." """
    red, blue = Script(plays=["feet_to_back"]), Script(answers=["defense"])
    scrap = scrap_of([["feet_to_back"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [("feet_to_back", {("defense", "defense")})]
    assert scrap.fall is None
    assert score(scrap) == (7, 0)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 0) == [("feet_to_back", 7)] and stack(scrap, 1) == [("defense", 0)]
    assert scrap.negate == []


@pytest.mark.parametrize("positions", [(TOP, BOTTOM), (BOTTOM, TOP)])
def test_feet_to_back_only_from_neutral(positions):
    """Feet to Back: "Play when both wrestlers are in the neutral position." """
    assert ("feet_to_back", "feet_to_back") in offered(scrap_of([["feet_to_back"], []]).turn_options(0))
    assert scrap_of([["feet_to_back"], []], positions=positions).turn_options(0) == []


# ---------------------------------------------------------------------------- Comeback


@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_comeback_ties_the_score_and_puts_him_on_top(positions):
    """Comeback: "Can be played at any point during the match. This card: Immediately ties the score at that
    moment. Places the wrestler who played it in the top position. Has no defense." (4.4: the tie card is
    credited the points that tie the score.)"""
    red, blue = Script(plays=["comeback"]), Script()
    scrap = scrap_of([["comeback"], ["defense", "beastin"]], positions=positions, scripts=(red, blue))
    give(scrap, 0, ("escape", 1))
    give(scrap, 1, ("takedown", 3), ("near_fall_4", 4))
    scrap.take_turn(0)
    assert blue.asked == []
    assert score(scrap) == (7, 7)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 0) == [("escape", 1), ("comeback", 6)]


def test_comeback_when_ahead_ties_the_score():
    """Comeback "Immediately ties the score at that moment"; rulings 4.4: "a tie card is credited the points
    that tie the score (negative when its player is ahead: 4.18)". He goes on top. (The settings of 4.18:
    tests/test_matclash_rulings.py.)"""
    red = Script(plays=["comeback"])
    scrap = scrap_of([["comeback"], []], positions=(BOTTOM, TOP), scripts=(red, Script()))
    give(scrap, 0, ("takedown", 3))
    scrap.take_turn(0)
    assert score(scrap) == (0, 0)
    assert stack(scrap, 0) == [("takedown", 3), ("comeback", -3)]
    assert scrap.positions == [TOP, BOTTOM]


# ============================================================================ Wave 2
# ---------------------------------------------------------------------------- Cut Em -1


def test_cut_em_after_a_scoring_takedown():
    """Cut Em: "Play directly after you score with a +3 Takedown. Skips your opponent's turn in transition
    and gives them 1 point. Lets you immediately play another 3-point Takedown card. There is no defense for
    this card." (Rulings: "both back to neutral, and you play another Takedown at once"; 4.4: the Cut Em
    card goes to the opponent's stack with his 1 point.)"""
    red, blue = Script(plays=["takedown", "takedown"], cut_em=[True]), Script()
    scrap = scrap_of([["takedown", "cut_em", "takedown"], ["escape"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert red.cut_em_asked == 1
    assert offered(red.offered[1]) == {("takedown", "takedown")}
    assert score(scrap) == (6, 1)
    assert stack(scrap, 0) == [("takedown", 3), ("takedown", 3)]
    assert stack(scrap, 1) == [("cut_em", 1)]
    assert scrap.positions == [TOP, BOTTOM]
    assert scrap.hands == [[], [C["escape"]]]
    scrap.turn = 1
    assert scrap.take_turn(1) is True and blue.offered == []  # his turn is skipped


def test_cut_em_only_after_a_takedown_that_scored_and_with_another_takedown():
    """Cut Em: "Play directly after you score with a +3 Takedown." "Lets you immediately play another
    3-point Takedown card." Not after a defended Takedown; not without a second Takedown; not as a turn play."""
    red, blue = Script(plays=["takedown"], cut_em=[True]), Script(answers=["defense"])
    scrap = scrap_of([["takedown", "cut_em", "takedown"], ["defense"]], turn=0, scripts=(red, blue))
    assert "cut_em" not in actions(scrap.turn_options(0))
    scrap.take_turn(0)
    assert red.cut_em_asked == 0 and score(scrap) == (0, 0)
    red = Script(plays=["takedown"], cut_em=[True])
    scrap = scrap_of([["takedown", "cut_em"], []], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    assert red.cut_em_asked == 0 and ids(scrap.hands[0]) == ["cut_em"]


def test_cut_em_then_declining_the_takedown_does_not_crash():
    """Cut Em: "Lets you immediately play another 3-point Takedown card." -- lets, not makes; a policy's
    choose may always answer None (a pass). The engine must not crash on it: Cut Em's own effects stand
    (opponent +1, his turn skipped, both neutral) and the second Takedown stays in hand."""
    red = Script(plays=["takedown", None], cut_em=[True])
    scrap = scrap_of([["takedown", "cut_em", "takedown"], []], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    assert score(scrap) == (3, 1)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert scrap.skip_next == [False, True]
    assert ids(scrap.hands[0]) == ["takedown"]


# ---------------------------------------------------------------------------- Scramble +5


def test_scramble_takes_the_takedown_for_five_and_goes_on_top():
    """Scramble: "Play directly after your opponent plays a +3 Takedown card. Nullifies your opponent's
    3-point Takedown. Awards you 3 points for the Takedown and 2 points for Near-Fall (total +5). Places you
    in the top position. There is no defense for this card." """
    red, blue = Script(plays=["takedown"]), Script(answers=["scramble"])
    scrap = scrap_of([["takedown", "defense"], ["scramble", "defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [("takedown", {("scramble", "scramble"), ("defense", "defense")})]
    assert red.asked == []
    assert score(scrap) == (0, 5)
    assert scrap.positions == [BOTTOM, TOP]
    assert ids(scrap.negate) == ["takedown"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("scramble", 5)]


@pytest.mark.parametrize("card", ["scramble", "clone"])
@pytest.mark.parametrize("hand, positions", [(["reversal"], (BOTTOM, TOP)), (["pin"], (TOP, BOTTOM))])
def test_scramble_and_clone_answer_nothing_but_what_they_name(card, hand, positions):
    """Scramble: "Play directly after your opponent plays a +3 Takedown card." Clone: "Play directly after a
    +3 Takedown or +7 FEET TO BACK card from neutral." Not after a Reversal or a Pin; never a turn play."""
    red, blue = Script(plays=[hand[0]]), Script()
    scrap = scrap_of([hand, [card]], positions=positions, scripts=(red, blue))
    assert scrap_of([[card], []], positions=positions, turn=6).turn_options(0) == []
    scrap.take_turn(0)
    assert blue.asked == []


def test_scramble_does_not_answer_feet_to_back():
    """Scramble: "Play directly after your opponent plays a +3 Takedown card." -- not a Feet to Back."""
    red, blue = Script(plays=["feet_to_back"]), Script()
    scrap = scrap_of([["feet_to_back"], ["scramble"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert blue.asked == [] and scrap.fall == (0, "feet_to_back")


# ---------------------------------------------------------------------------- Clone


def test_clone_after_a_takedown():
    """Clone: "Play directly after a +3 Takedown ... You receive the same points and position as the card your
    opponent just played. Example: Opponent plays a +3 Takedown; you play CLONE and now you get +3 and move to
    top." Rulings 4.5: "The Takedown stands (its player keeps 3); the cloner scores 3 as well and goes on top." """
    red, blue = Script(plays=["takedown"]), Script(answers=["clone"])
    scrap = scrap_of([["takedown"], ["clone"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert score(scrap) == (3, 3)
    assert scrap.positions == [BOTTOM, TOP]
    assert stack(scrap, 0) == [("takedown", 3)] and stack(scrap, 1) == [("clone", 3)]
    assert scrap.negate == []


def test_clone_after_feet_to_back():
    """Clone: "Play directly after a ... +7 FEET TO BACK card from neutral." Rulings 4.5: "After Feet to Back,
    Clone answers the pin: the cloner scores 7 and goes on top." """
    red, blue = Script(plays=["feet_to_back"]), Script(answers=["clone"])
    scrap = scrap_of([["feet_to_back"], ["clone", "defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked] == [("feet_to_back", {("clone", "clone"), ("defense", "defense")})]
    assert scrap.fall is None
    assert score(scrap) == (7, 7)
    assert scrap.positions == [BOTTOM, TOP]
    assert stack(scrap, 0) == [("feet_to_back", 7)] and stack(scrap, 1) == [("clone", 7)]
    assert ids(scrap.hands[1]) == ["defense"]


# ============================================================================ Wave 3
# ---------------------------------------------------------------------------- Spladle +4


def test_spladle_after_momentum_after_a_takedown_undefended_is_a_fall():
    """Spladle: "Can be played when: A Momentum card has been played directly after a Takedown to skip your
    opponent's transition turn ... The wrestler playing SPLADLE must be on top and it must be their turn in
    transition. SPLADLE automatically awards a +4 Near-Fall. Your opponent must play a Beastin' (Wild) card
    to avoid being pinned." Rulings 4.9: "Spladle undefended is a fall"."""
    red, blue = Script(plays=["takedown", "spladle"], momentum=[True]), Script()
    scrap = scrap_of([["takedown", "momentum", "spladle"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [t for t, _ in blue.asked] == ["takedown"]  # Defense is offered against the Takedown, not the Spladle
    assert scrap.fall == (0, "spladle")
    assert score(scrap) == (7, 0)
    assert stack(scrap, 0) == [("takedown", 3), ("momentum", 0), ("spladle", 4)]


@pytest.mark.parametrize("wild", WILDS)
def test_spladle_answered_by_beastin(wild):
    """Spladle: "Your opponent must play a Beastin' (Wild) card to avoid being pinned." -- the +4 stands."""
    red, blue = Script(plays=["takedown", "spladle"], momentum=[True]), Script(answers=[None, wild])
    scrap = scrap_of([["takedown", "momentum", "spladle"], ["defense", wild]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert [(t, offered(o)) for t, o in blue.asked][1] == ("spladle", {(wild, "beastin")})
    assert scrap.fall is None
    assert score(scrap) == (7, 0)
    assert scrap.positions == [TOP, BOTTOM]
    assert stack(scrap, 1) == [(wild, 0)] and ids(scrap.hands[1]) == ["defense"]


def test_spladle_when_the_opponent_loses_his_turn_after_a_takedown():
    """Spladle: "Your opponent has no Escape or Reversal after a Takedown and loses their transition turn." """
    red, blue = Script(plays=["takedown", "spladle"]), Script()
    scrap = scrap_of([["takedown", "spladle"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert "spladle" not in actions(scrap.turn_options(0))
    scrap.turn = 1
    assert scrap.take_turn(1) is False
    scrap.turn = 2
    scrap.take_turn(0)
    assert scrap.fall == (0, "spladle")
    assert score(scrap) == (7, 0)


def test_spladle_not_after_a_defended_feet_to_back():
    """Spladle's two cases are "A Momentum card has been played directly after a Takedown" and "Your opponent
    has no Escape or Reversal after a Takedown and loses their transition turn" -- Feet to Back is Near
    Fall's case only (rulings, section 3: Spladle "as Near Fall's first and third cases")."""
    red = Script(plays=["feet_to_back"], momentum=[True])
    scrap = scrap_of([["feet_to_back", "momentum", "spladle", "near_fall_2"], ["defense"]], turn=0,
                     scripts=(red, Script(answers=["defense"])))
    scrap.take_turn(0)
    assert scrap.positions == [TOP, BOTTOM] and red.momentum_asked == [False]
    assert "spladle" not in actions(red.offered[1])


# ---------------------------------------------------------------------------- Wizardry


def test_wizardry_the_rulebook_example():
    """Wizardry: "Removes the points from your opponent's last three cards. Those cards go to the Negate pile.
    You are placed in the top position for the next transition." "Example: Your opponent's last three cards
    were a +3 Takedown, +0 Momentum, and +4 Near-Fall (7 total points). You play WIZARDRY -- those points are
    erased, the cards are negated, and you go to top." "Can be played from any position at any time." """
    red = Script(plays=["takedown", "near_fall_4"], momentum=[True])
    blue = Script(plays=["wizardry"])
    scrap = scrap_of([["takedown", "momentum", "near_fall_4"], ["wizardry"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert score(scrap) == (7, 0)
    scrap.turn = 1
    scrap.take_turn(1)  # skipped by the Momentum
    scrap.turn = 2
    scrap.take_turn(0)  # nothing left: a pass
    scrap.turn = 3
    assert scrap.positions == [TOP, BOTTOM]
    scrap.take_turn(1)  # Wizardry from bottom
    assert score(scrap) == (0, 0)
    assert ids(scrap.negate) == ["takedown", "momentum", "near_fall_4"]
    assert stack(scrap, 0) == [] and stack(scrap, 1) == [("wizardry", 0)]
    assert scrap.positions == [BOTTOM, TOP]


def test_wizardry_erases_only_the_last_three():
    """Wizardry: "Removes the points from your opponent's last three cards." -- the fourth from last stays."""
    red = Script(plays=["wizardry"])
    scrap = scrap_of([["wizardry"], []], positions=(NEUTRAL, NEUTRAL), scripts=(red, Script()))
    give(scrap, 1, ("takedown", 3), ("escape", 1), ("takedown", 3), ("near_fall_2", 2))
    scrap.take_turn(0)
    assert score(scrap) == (0, 3)
    assert stack(scrap, 1) == [("takedown", 3)]
    assert ids(scrap.negate) == ["escape", "takedown", "near_fall_2"]
    assert scrap.positions == [TOP, BOTTOM]


# ============================================================================ Short Print
# ---------------------------------------------------------------------------- Escape +2


def test_escape_plus_two():
    """Escape +2: "This card can be played when the other wrestler has played a Takedown card from the neutral
    position. The wrestler that plays the +2 Escape card obtains 2 points and moves to the neutral position." """
    red, blue = Script(plays=["takedown"]), Script(plays=["escape_2"])
    scrap = scrap_of([["takedown"], ["escape_2"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    assert offered(blue.offered[0]) == {("escape_2", "escape")}
    assert score(scrap) == (3, 2)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert stack(scrap, 1) == [("escape_2", 2)]


# ---------------------------------------------------------------------------- Near Fall +5


def test_near_fall_plus_five_after_momentum_after_a_takedown():
    """Near Fall +5: "This card can be played when: A Momentum card is played directly after a Takedown to
    skip the other wrestler's turn in transition" "The wrestler playing a Near-Fall (+5) card must be in the
    top position and it must be their turn in transition. There is no defense for this card." """
    red, blue = Script(plays=["takedown", "near_fall_5"], momentum=[True]), Script()
    scrap = scrap_of([["takedown", "momentum", "near_fall_5"], ["defense", "beastin"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    assert score(scrap) == (8, 0)
    assert stack(scrap, 0) == [("takedown", 3), ("momentum", 0), ("near_fall_5", 5)]
    assert [t for t, _ in blue.asked] == ["takedown"]


def test_near_fall_plus_five_after_a_defended_feet_to_back():
    """Near Fall +5: "A Feet-To-Back card is played and the other wrestler defends the pin" """
    red, blue = Script(plays=["feet_to_back", "near_fall_5"]), Script(answers=["defense"])
    scrap = scrap_of([["feet_to_back", "near_fall_5"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    scrap.turn = 2
    scrap.take_turn(0)
    assert score(scrap) == (12, 0)
    assert stack(scrap, 0) == [("feet_to_back", 7), ("near_fall_5", 5)]


def test_near_fall_plus_five_after_a_lost_turn_and_only_on_top():
    """Near Fall +5: "The other wrestler does not have an Escape or Reversal card to play after a Takedown
    card and loses their turn in transition." "must be in the top position" """
    red, blue = Script(plays=["takedown", "near_fall_5"]), Script()
    scrap = scrap_of([["takedown", "near_fall_5"], ["defense"]], turn=0, scripts=(red, blue))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    scrap.turn = 2
    scrap.take_turn(0)
    assert score(scrap) == (8, 0)
    for positions in [(NEUTRAL, NEUTRAL), (BOTTOM, TOP)]:
        bottom = scrap_of([["near_fall_5"], []], positions=positions)
        bottom.exposed = [True, True]
        assert bottom.turn_options(0) == []


# ---------------------------------------------------------------------------- Mindset


def test_mindset_the_rulebook_example():
    """Mindset: "This card immediately brings the match to a tied score at that point, and the wrestler that
    played the MINDSET card will be in the top position. There is no defense for this card." "Example:
    Wrestler A scored 9 points during the first three transitions, and Wrestler B only scored 3. If Wrestler
    B plays the MINDSET card in the third transition, the score becomes 9-9 with Wrestler B in the top
    position." """
    a, b = Script(), Script(plays=["mindset"])
    scrap = scrap_of([["defense", "beastin"], ["mindset"]], positions=(TOP, BOTTOM), turn=5, scripts=(a, b))
    give(scrap, 0, ("takedown", 3), ("near_fall_4", 4), ("near_fall_2", 2))
    give(scrap, 1, ("takedown", 3))
    assert scrap.transitions == 2  # B's turn of the third transition
    scrap.take_turn(1)
    assert a.asked == []
    assert score(scrap) == (9, 9)
    assert scrap.positions == [BOTTOM, TOP]
    assert stack(scrap, 1) == [("takedown", 3), ("mindset", 6)]


# ---------------------------------------------------------------------------- Beastin' short print
# (every Beastin' test above runs for both "beastin" and "beastin_sp": "It follows the same rules as the
# Base Card version listed above and is the only defense for the MAT BEAST card.")


def test_beastin_short_print_counts_three_in_the_tenth_card_draw():
    """Beastin' (Wild) -- Short Print: "It follows the same rules as the Base Card version" -- including
    "Beastin' (Wild) counts as 3 points for this draw" (4 beats it, 2 does not)."""
    scrap = scrap_of([[], []], deck=["beastin_sp", "reversal", "defense", "defense"])
    assert scrap.tenth_card() == 0
    scrap = scrap_of([[], []], deck=["beastin_sp", "near_fall_4", "defense", "defense"])
    assert scrap.tenth_card() == 1


# ---------------------------------------------------------------------------- Resilience


def test_resilience_the_rulebook_example():
    """Resilience: "Skips your opponent wrestler's next turn in transition. Allows you to immediately play an
    additional card." "Example: You play Resilience from the bottom position. Your opponent's transition turn
    is skipped, and you may then play an Escape or Reversal card right away." And: "Prevents your opponent
    from playing a MAT BEAST card. Prevents your opponent from playing a Pin card." (4.6: for the rest of the
    scrap.)"""
    red, blue = Script(), Script(plays=["resilience", "escape"])
    scrap = scrap_of([["pin", "mat_beast", "takedown"], ["resilience", "escape"]], positions=(TOP, BOTTOM), turn=3,
                     scripts=(red, blue))
    scrap.take_turn(1)
    assert offered(blue.offered[1]) == {("escape", "escape")}
    assert score(scrap) == (0, 1)
    assert scrap.positions == [NEUTRAL, NEUTRAL]
    assert stack(scrap, 1) == [("resilience", 0), ("escape", 1)]
    scrap.turn = 4
    assert scrap.take_turn(0) is True and red.offered == []  # skipped
    for turn in (6, 20):
        scrap.turn = turn
        assert offered(scrap.turn_options(0)) == {("takedown", "takedown")}


def test_resilience_stops_feet_to_back_becoming_a_pin():
    """Resilience: "Prevents your opponent from converting a Feet-To-Back card into a Pin." The 7 points
    stand (Feet to Back: "The wrestler who plays this card scores 7 points")."""
    red, blue = Script(plays=["feet_to_back"]), Script()
    scrap = scrap_of([["feet_to_back"], []], turn=4, scripts=(red, blue))
    scrap.resilient = [False, True]
    scrap.take_turn(0)
    assert scrap.fall is None
    assert score(scrap) == (7, 0)
    assert scrap.positions == [TOP, BOTTOM]


@pytest.mark.parametrize("positions", [(NEUTRAL, NEUTRAL), (TOP, BOTTOM), (BOTTOM, TOP)])
def test_resilience_from_any_position(positions):
    """Resilience: "This card may be played from any position -- top, bottom, or neutral." """
    scrap = scrap_of([["resilience"], []], positions=positions, turn=0)
    assert offered(scrap.turn_options(0)) == {("resilience", "resilience")}


def test_resilience_after_momentum_still_gives_its_additional_card():
    """Resilience: "Allows you to immediately play an additional card." Rulings 2.6: Momentum and Resilience
    "let the same wrestler play again at once". Played as Momentum's extra play, Resilience still gives its
    own additional card: Escape, Momentum, Resilience, then the Takedown."""
    red = Script(plays=["escape", "resilience", "takedown"], momentum=[True])
    scrap = scrap_of([["escape", "momentum", "resilience", "takedown"], []], positions=(BOTTOM, TOP), scripts=(red, Script()))
    scrap.take_turn(0)
    assert scrap.resilient == [True, False]
    assert stack(scrap, 0) == [("escape", 1), ("momentum", 0), ("resilience", 0), ("takedown", 3)]
    assert score(scrap) == (4, 0)
    assert scrap.positions == [TOP, BOTTOM]


# ============================================================================ the 10th-card draw


def test_tenth_card_higher_value_starts_both_keep_their_card():
    """Quick Scrap: "From the remaining deck, each wrestler draws 1 card. The higher-value card wins the 10th
    card draw and starts the match." "Both wrestlers keep the card they drew, so each starts with 10
    cards." """
    scrap = scrap_of([["defense"] * 9, ["momentum"] * 9], deck=["escape", "reversal", "takedown", "defense"])
    assert scrap.tenth_card() == 1
    assert ids(scrap.hands[0]) == ["defense"] * 9 + ["escape"]
    assert ids(scrap.hands[1]) == ["momentum"] * 9 + ["reversal"]
    assert ids(scrap.deck) == ["takedown", "defense"]


@pytest.mark.parametrize("wild", WILDS)
@pytest.mark.parametrize("other, first", [("reversal", 0), ("near_fall_4", 1), ("stalling", 0)])
def test_tenth_card_beastin_counts_three(wild, other, first):
    """Quick Scrap: "Beastin' (Wild) counts as 3 points for this draw." """
    scrap = scrap_of([[], []], deck=[wild, other, "defense"])
    assert scrap.tenth_card() == first
    assert ids(scrap.hands[0]) == [wild] and ids(scrap.hands[1]) == [other]


@pytest.mark.parametrize("special", ["pin", "mat_beast", "feet_to_back", "comeback", "scramble", "escape_2", "near_fall_5", "resilience"])
def test_tenth_card_specialty_pin_and_mat_beast_go_back_to_the_middle(special):
    """Quick Scrap: "If either wrestler draws a Specialty card, Pin card, or MAT BEAST card, those go into the
    middle of the deck and the 10th card draw is redone." Rulings 1.3: "(position len/2 of what remains) and
    that wrestler draws again"."""
    scrap = scrap_of([[], []], deck=[special, "takedown", "escape", "defense", "momentum", "near_fall_2", "stalling"])
    # after Red's first draw 6 cards remain: the special goes in at 3, and he draws again
    assert scrap.tenth_card() == 0
    assert ids(scrap.hands[0]) == ["takedown"] and ids(scrap.hands[1]) == ["escape"]
    assert ids(scrap.deck) == ["defense", special, "momentum", "near_fall_2", "stalling"]


def test_tenth_card_the_second_wrestler_redraws_too():
    """Quick Scrap: "If either wrestler draws a Specialty card, Pin card, or MAT BEAST card ... the 10th card
    draw is redone." The second wrestler's MAT BEAST goes to the middle and he draws again (1.3)."""
    scrap = scrap_of([[], []], deck=["escape", "mat_beast", "takedown", "defense", "momentum", "stalling"])
    assert scrap.tenth_card() == 1
    assert ids(scrap.hands[0]) == ["escape"] and ids(scrap.hands[1]) == ["takedown"]
    # after Blue's first draw 4 cards remain: MAT BEAST goes in at 2, then he draws the Takedown
    assert ids(scrap.deck) == ["defense", "mat_beast", "momentum", "stalling"]


def test_tenth_card_ties_are_redrawn():
    """Quick Scrap: "If both draw the same value, those cards are returned to the deck and re-drawn."
    (1.3: "equal values are both returned to the middle and redrawn"; Beastin' ties a Takedown at 3.)"""
    scrap = scrap_of([[], []], deck=["takedown", "beastin", "escape", "reversal", "defense", "momentum"])
    assert scrap.tenth_card() == 1
    assert ids(scrap.hands[0]) == ["escape"] and ids(scrap.hands[1]) == ["reversal"]
    # 4 left after the tie: the Takedown goes in at 2, then Beastin' at 5 // 2 = 2
    assert ids(scrap.deck) == ["beastin", "takedown", "defense", "momentum"]


def test_tenth_card_in_a_whole_scrap_each_starts_with_ten():
    """Quick Scrap: "Each wrestler is dealt 9 cards." (1.2: alternately, the first-listed first) ... "Both
    wrestlers keep the card they drew, so each starts with 10 cards." The winner takes the first turn."""
    red, blue = Script(), Script()
    deck = deal(["defense"] * 9, ["momentum"] * 9, ("pin", "escape", "reversal"), ["stalling"] * 6)
    result = engine.quick_scrap(["Red", "Blue"], [red, blue], deck, kept_in_place(len(deck)))
    assert result.first == 1
    # Red drew the Pin (back to the middle), then the Escape; Blue the Reversal: Blue starts
    assert blue.first_hands == [["defense"] * 9 + ["escape"], ["momentum"] * 9 + ["reversal"]]
    assert red.first_hands is not None and blue.scrap is red.scrap


# ============================================================================ whole scraps


def deal(hand0, hand1, tenth, rest=()):
    """The deck order that deals hand0 and hand1 (9 each, alternately, wrestler 0 first: 1.2), then gives
    the 10th-card draw `tenth` (wrestler 0's card(s) first), then `rest`."""
    assert len(hand0) == len(hand1) == 9
    order = [card for pair in zip(hand0, hand1) for card in pair] + list(tenth) + list(rest)
    return cs(*order)


def kept_in_place(n: int) -> ScriptedDice:
    """Shuffle dice that leave an n-card deck as it is: Fisher-Yates swaps position i with face-1, so the
    face i+1 keeps each card (the dice are d_n down to d_2)."""
    return ScriptedDice(list(range(n, 1, -1)))


def faces_for(start: list, target: list) -> list[int]:
    """Shuffle dice that turn `start` into `target` (Scrap.shuffle: position i swaps with face-1)."""
    deck = list(start)
    faces = []
    for i in range(len(deck) - 1, 0, -1):
        j = next(k for k in range(i + 1) if deck[k] == target[i])
        faces.append(j + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == target
    return faces


def winning(winner: int, specials: list[str], rest=()):
    """A deck with which `winner` takes down (his 10th card) and then plays `specials`; the loser holds only
    Momentum and Defense, which he never gets to play (no card played, no Momentum; no threat he answers)."""
    w_hand = list(specials) + ["defense"] * (9 - len(specials))
    l_hand = ["momentum"] * 9
    hands = (w_hand, l_hand) if winner == 0 else (l_hand, w_hand)
    tenth = ("takedown", "defense") if winner == 0 else ("defense", "takedown")
    return deal(*hands, tenth, rest)


def test_quick_scrap_pin_right_after_the_first_transition():
    """Quick Scrap: "Pin and MAT BEAST cards cannot be played until the first transition is complete." "A
    wrestler plays a Pin after the first transition and the opponent does not have a Defense card." Turn 1:
    Takedown; turn 2: nothing to play; turn 3: the Pin, a fall."""
    deck = winning(0, ["pin"], ["defense"] * 4)
    result = engine.quick_scrap(["Red", "Blue"], [Prefer(), Prefer()], deck, kept_in_place(len(deck)))
    assert (result.winner, result.method, result.finish) == (0, "fall", "pin")
    assert result.score == (3, 0) and result.turns == 3 and result.first == 0
    assert result.team_points == 6


def test_dual_rules_no_pin_until_the_second_transition():
    """Dual Match: "Pin and MAT BEAST cards cannot be played until completion of the second transition."
    The same hands as above under Dual rules: at turn 3 the Pin is not offered, he has nothing else, both have
    passed: the scrap goes to score, 3-0, a decision."""
    deck = winning(0, ["pin"], ["defense"] * 4)
    red = Prefer()
    result = engine.quick_scrap(["Red", "Blue"], [red, Prefer()], deck, kept_in_place(len(deck)), draws=3, pin_after=2)
    assert (result.winner, result.method, result.finish, result.score) == (0, "decision", "score", (3, 0))
    assert result.turns == 3
    assert ids(red.scrap.hands[0]) == ["pin"] + ["defense"] * 8


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("specials, margin, method", [
    (["near_fall_4", "near_fall_4", "near_fall_4"], 15, "tech_fall"),
    (["near_fall_4", "near_fall_4", "near_fall_3"], 14, "major"),
    (["near_fall_3", "near_fall_2"], 8, "major"),
    (["near_fall_4"], 7, "decision"),
    ([], 3, "decision"),
])
def test_result_by_score(winner, specials, margin, method):
    """Winning by Score: "Win by 15+ points: Technical fall. Win by 8+ points: Major decision. Win by 7 points
    or less: Decision." Each scrap: a Takedown, then a Near Fall each time the opponent loses his turn on
    bottom, until both pass (2.7)."""
    deck = winning(winner, specials, ["defense"] * 4)
    result = engine.quick_scrap(["Red", "Blue"], [Prefer(), Prefer()], deck, kept_in_place(len(deck)))
    expected = (margin, 0) if winner == 0 else (0, margin)
    assert (result.winner, result.method, result.finish, result.score) == (winner, method, "score", expected)
    assert result.first == winner
    assert result.team_points == {"tech_fall": 5, "major": 4, "decision": 3}[method]


# ---------------------------------------------------------------------------- overtime


def overtime(rest, tenth=("escape", "defense")):
    """A scrap both wrestlers pass through (0-0), then overtime from `rest`. Red wins the 10th-card draw
    (Escape 1 v Defense 0), so Blue draws first in overtime."""
    red, blue = Script(), Script()
    deck = deal(["defense"] * 9, ["momentum"] * 9, tenth, rest)
    result = engine.quick_scrap(["Red", "Blue"], [red, blue], deck, kept_in_place(len(deck)))
    assert result.score == (0, 0) and result.turns == 2
    return result, red.scrap


@pytest.mark.parametrize("blue, red, winner", [
    ("mat_beast", "pin", 1),  # "If both draw one of these, the MAT BEAST card wins."
    ("pin", "mat_beast", 0),
    ("mat_beast", "feet_to_back", 1),  # "MAT BEAST card = automatic win."
    ("pin", "feet_to_back", 1),  # "Pin card = automatic win."
    ("comeback", "pin", 0),
    ("takedown", "cut_em", 0),  # "Specialty cards beat all Base cards, except MAT BEAST or Pin."
    ("clone", "near_fall_4", 1),
    ("near_fall_4", "beastin", 1),  # base cards by value; "Beastin' (Wild) is worth 3 points"
    ("beastin", "reversal", 1),
    ("escape", "beastin_sp", 0),
    ("stalling", "defense", 0),
])
def test_overtime_precedence(blue, red, winner):
    """Overtime: "If scores are tied, both wrestlers draw one card from the remaining deck. The wrestler who
    lost the original 10th card draw goes first. Higher-value card wins." "MAT BEAST card = automatic win. Pin
    card = automatic win. If both draw one of these, the MAT BEAST card wins. Specialty cards beat all Base
    cards, except MAT BEAST or Pin." "Beastin' (Wild) is worth 3 points in the overtime draw." """
    result, scrap = overtime([blue, red, "defense"])
    assert (result.winner, result.method, result.finish, result.first) == (winner, "decision", "overtime", 0)
    assert result.team_points == 3  # 4.8: "An overtime win is a decision."
    # the 10th-card loser (Blue) drew first: the first card is his
    assert ids(scrap.hands[1])[-1] == blue and ids(scrap.hands[0])[-1] == red
    assert ids(scrap.deck) == ["defense"]


@pytest.mark.parametrize("tie", [("beastin", "takedown"), ("pin", "pin"), ("mat_beast", "mat_beast"), ("near_fall_3", "takedown")])
def test_overtime_ties_are_drawn_again(tie):
    """Overtime: "If tied, those cards are returned and another overtime draw happens." Rulings 4.7: "Equal
    cards (two MAT BEASTs, two Pins, equal values) are both set aside and drawn again." The tied cards leave
    play; the next pair decides: Blue's Reversal (2) beats Red's Escape (1)."""
    result, scrap = overtime([*tie, "reversal", "escape", "defense"])
    assert result.winner == 1 and result.finish == "overtime"
    assert ids(scrap.hands[1])[-1] == "reversal" and ids(scrap.hands[0])[-1] == "escape"
    assert ids(scrap.deck) == ["defense"]
    assert sorted(ids(scrap.negate)) == sorted(tie)  # set aside, still counted in one place (4.4)


def test_overtime_deck_runs_out_the_tenth_card_winner_takes_it():
    """Rulings 4.7: "If the deck runs out, the 10th-card winner wins the scrap (a referee's decision)." """
    result, _ = overtime(["takedown"], tenth=("defense", "escape"))
    assert (result.winner, result.first, result.method, result.finish) == (1, 1, "decision", "overtime")


# ---------------------------------------------------------------------------- Dual Match

# One deck for every scrap of a Dual Match, put in order for each scrap by its shuffle dice
DUAL_DECK = cs(*(["takedown"] + ["near_fall_4"] * 3 + ["near_fall_2", "pin"] + ["defense"] * 12 + ["momentum"] * 12))
BOUTS = {  # winner's cards after his Takedown: the method and the score each gives under Dual rules
    "fall": (["near_fall_2", "pin"], (5, 0)),  # turn 1 Takedown, turn 3 Near Fall (no Pin yet), turn 5 Pin
    "tech_fall": (["near_fall_4"] * 3, (15, 0)),
    "major": (["near_fall_4", "near_fall_2"], (9, 0)),
    "decision": ([], (3, 0)),
}


def bout(winner: int, method: str) -> list:
    """DUAL_DECK in the order that makes `winner` win by `method`."""
    specials = BOUTS[method][0]
    used = ["takedown", "defense", *specials, *["defense"] * (9 - len(specials)), *["momentum"] * 9]
    rest = list(ids(DUAL_DECK))
    for card in used:
        rest.remove(card)
    return winning(winner, specials, rest)


def dual(plan):
    faces = [f for winner, method in plan for f in faces_for(DUAL_DECK, bout(winner, method))]
    dice = ScriptedDice(faces)
    result = engine.dual_match(["Red", "Blue"], [Prefer(), Prefer()], DUAL_DECK, dice)
    assert dice.remaining == 0
    return result


def test_dual_match_team_points():
    """Dual Match, Team Scoring: "Successful Pin, MAT BEAST, or FEET TO BACK with no Defense = 6 team points.
    Win by 15+ points = Technical fall, 5 team points. Win by 8+ points = Major decision, 4 team points. Win by
    7 points or less = Decision, 3 team points." "The wrestler with the higher team score wins the Dual
    Match." Red: fall 6 + technical fall 5 + decision 3 = 14; Blue: major 4 + decision 3 = 7."""
    plan = [(0, "fall"), (0, "tech_fall"), (1, "major"), (1, "decision"), (0, "decision")]
    result = dual(plan)
    assert [(s.winner, s.method) for s in result.scraps] == plan
    for (winner, method), s in zip(plan, result.scraps):
        expected = BOUTS[method][1]
        assert s.score == (expected if winner == 0 else expected[::-1])
        assert s.first == winner
    assert result.scraps[0].finish == "pin" and result.scraps[0].turns == 5
    assert result.team == (14, 7)
    assert (result.winner, result.tiebreaker) == (0, False)


def test_dual_match_tied_team_scores_go_to_a_tiebreaker():
    """Dual Match: "If team scores are tied, a tiebreaker Quick Scrap match is wrestled; the winner takes the
    Dual Match." Red: two falls, 12; Blue: three major decisions, 12; the tiebreaker: Blue by decision."""
    plan = [(0, "fall"), (0, "fall"), (1, "major"), (1, "major"), (1, "major"), (1, "decision")]
    result = dual(plan)
    assert [(s.winner, s.method) for s in result.scraps] == plan
    assert result.team == (12, 12)
    assert (result.winner, result.tiebreaker) == (1, True)
    assert len(result.scraps) == 6


def test_dual_match_draws_up_to_three_per_scrap():
    """Dual Match: "Each wrestler can draw up to 3 cards from the remaining deck during each Quick Scrap
    match." Quick Scrap: "Each wrestler may draw up to 2 cards from the remaining deck throughout the match."
    (2.3: the draws come at the start of his turn, across the scrap.)"""
    for draws in (2, 3):
        red = Script(draws=[True] * 10)
        scrap = scrap_of([[], []], deck=["defense"] * 10, turn=0, scripts=(red, Script()), draws=draws)
        scrap.take_turn(0)
        scrap.turn = 2
        scrap.take_turn(0)
        assert len(scrap.hands[0]) == draws and scrap.draws_used == [draws, 0]
        assert len(scrap.deck) == 10 - draws
