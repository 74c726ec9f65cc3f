"""Mad Match properties over thousands of random games with random legal strategies
(hypothesis): every card always in exactly one place (the grid, a hand, a collection, out of
play), scores equal to the matrix applied to each collection, every game ends, no Action card
used twice and at most one used instead of a turn."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.engine import Play, Rules, Side
from fedtool.rulesets.madmatch.strategy import ActionRule, Strategy

DECK = load_deck()
HELD = [a.id for a in DECK.actions if a.effect != "freeze"]

action_rules = st.dictionaries(st.sampled_from(HELD + ["steal", "destroy"]), st.builds(
    ActionRule, when=st.sampled_from(["default", "always", "never", "leading", "trailing", "endgame", "turn 5 or later"]),
    target=st.sampled_from(["best", "leader", "next", "strike"])), max_size=4)
strategies = st.builds(Strategy, unknown=st.sampled_from(["unseen_first", "half_remembered_first"]),
                       spares=st.sampled_from(["always", "when_better", "never"]), deny_spares=st.booleans(),
                       use_at=st.integers(1, 30), endgame=st.integers(0, 45), actions=action_rules)
sides = st.lists(st.builds(Side, name=st.sampled_from(["A", "B", "C", "D"]), memory=st.integers(0, 22), strategy=strategies), min_size=2, max_size=4)
rules = st.builds(Rules, memory_die=st.sampled_from([6, 10, 20]), memory_fade=st.integers(1, 8), frozen_cards=st.sampled_from(["stay", "turn_back"]),
                  classic_extra_turn=st.booleans())


def check_places(play: Play) -> None:
    """Every card in exactly one place."""
    places = [c for c in play.grid if c >= 0] + [c for h in play.hands for c in h] + [c for coll in play.colls for cards in coll for c in cards] + play.out
    assert sorted(places) == list(range(len(play.cards))), Counter(places).most_common(3)


class Checked(Play):
    """A game that checks where every card is after every turn."""

    def _finish_turn(self, p: int) -> None:
        check_places(self)
        super()._finish_turn(p)


def matrix_score(game, p: int) -> int:
    counts = Counter(DECK.cards()[c].index for c in game.cards[p])
    return sum(DECK.monsters[m].value(n, game.collections[p][m][1]) for m, n in counts.items())


@settings(max_examples=400, deadline=None)
@given(sides=sides, rules=rules, seed=st.integers(0, 2**40), classic=st.booleans())
def test_random_games_keep_every_rule(sides, rules, seed, classic):
    for k in range(5):  # five games of each example: 2,000 games in all
        check_game(sides, rules, seed + k, classic)


def check_game(sides, rules, seed, classic):
    play = Play(DECK, sides, SeededDice(seed), rules, "classic" if classic else "mad_match")
    game = play.run()
    check_places(play)
    assert not game.called  # the game always ends, well inside the turn limit
    if classic:
        assert game.scores == game.pairs and sum(game.pairs) == 15
    else:
        assert game.scores == [matrix_score(game, p) for p in range(len(sides))]
    used = [c for _, _, c, _ in game.used]
    assert len(used) == len(set(used))  # no Action card used twice
    instead = Counter(turn for turn, _, c, _ in game.used if DECK.cards()[c].effect != "freeze")
    assert all(n == 1 for n in instead.values())  # one Action card a turn, instead of the turn
    # the end: no Monster card left in the grid, the orphans out of play
    assert all(c >= 45 for c in game.grid_left) and all(c in game.out for c in game.orphans)


@settings(max_examples=100, deadline=None)
@given(sides=sides, rules=rules, seed=st.integers(0, 2**40))
def test_every_card_in_one_place_after_every_turn(sides, rules, seed):
    game = Checked(DECK, sides, SeededDice(seed), rules, record=True).run()
    for turn in game.log:  # an Action card used takes the whole turn: nothing is turned
        assert turn.kind == "turn" or (turn.reveals == [] and turn.used is not None)
