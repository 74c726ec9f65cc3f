"""Mad Match's record-free path (odds, benchmarks) against the full path (the weekly run, the
writeups), roll for roll, over thousands of random games: two, three and four players, the
classic matching game, matches of several games, and solitaire rounds. The record-free path
keeps no turn records and words the dice's purposes briefly; it must roll the same dice in
the same order (each face, on the same die) and end every game the same way."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.base import Booking
from fedtool.rulesets.madmatch import MadMatch
from fedtool.rulesets.madmatch.engine import Play, Side, _merged_at, _newest_first, play_match, tables
from fedtool.rulesets.madmatch.solitaire import SolitaireRules, play_round
from fedtool.rulesets.madmatch.strategy import Strategy, _top_other
from test_madmatch_properties import DECK, rules, sides

GAME = ("first", "battle", "scores", "winner", "turns", "collections", "hands", "out", "grid_left", "orphans", "used", "called",
        "deciding", "pairs", "cards")


def faces(dice: SeededDice) -> list:
    """The dice log without its purposes: (game, faces) for every roll, in order."""
    return [(number, rolled) for number, _, rolled in dice.log]


def same_game(full, fast) -> None:
    for name in GAME:
        assert getattr(full, name) == getattr(fast, name), name


@settings(max_examples=300, deadline=None)
@given(sides=sides, rules=rules, seed=st.integers(0, 2**40), classic=st.booleans())
def test_a_game_without_records_rolls_and_ends_as_the_full_game(sides, rules, seed, classic):
    variation = "classic" if classic else "mad_match"
    for k in range(4):  # four games of each example: 1,200 games each way
        full_dice, fast_dice = SeededDice(seed + k), SeededDice(seed + k)
        full = Play(DECK, sides, full_dice, rules, variation, record=True).run()
        fast = Play(DECK, sides, fast_dice, rules, variation, record=False).run()
        assert faces(full_dice) == faces(fast_dice)
        same_game(full, fast)
        assert full.log and not fast.log  # turn records only when recording


@settings(max_examples=60, deadline=None)
@given(sides=sides, rules=rules, seed=st.integers(0, 2**40), fmt=st.sampled_from(["best_of_three", "target", "single"]),
       classic=st.booleans())
def test_a_match_without_records_is_the_same_match(sides, rules, seed, fmt, classic):
    variation = "classic" if classic else "mad_match"
    full_dice, fast_dice = SeededDice(seed), SeededDice(seed)
    full = play_match(DECK, sides, full_dice, rules, variation, fmt, 12 if classic else 150, 9, record=True)
    fast = play_match(DECK, sides, fast_dice, rules, variation, fmt, 12 if classic else 150, 9, record=False)
    assert faces(full_dice) == faces(fast_dice)
    assert (full.winner, full.totals, full.wins, len(full.games)) == (fast.winner, fast.totals, fast.wins, len(fast.games))
    for one, two in zip(full.games, fast.games):
        same_game(one, two)


@settings(max_examples=150, deadline=None)
@given(keep_free=st.lists(st.integers(0, 5), min_size=1, max_size=8), seed=st.integers(0, 2**40),
       score=st.sampled_from(["triplets", "cards"]), passes=st.sampled_from([0, 1, 3]))
def test_a_solitaire_round_without_records_is_the_same_round(keep_free, seed, score, passes):
    names = [f"P{p}" for p in range(len(keep_free))]
    solitaire = SolitaireRules(score, passes)
    full_dice, fast_dice = SeededDice(seed), SeededDice(seed)
    full = play_round(DECK, names, keep_free, full_dice, solitaire)
    fast = play_round(DECK, names, keep_free, fast_dice, solitaire, record=False)
    assert faces(full_dice) == faces(fast_dice)
    assert (full.order, full.totals, full.wins, full.winner) == (fast.order, fast.totals, fast.wins, fast.winner)
    for one, two in zip(full.games, fast.games):
        assert (one.score, one.triplets, one.grouped, one.won, one.passes) == (two.score, two.triplets, two.grouped, two.won, two.passes)
        assert one.moves and not two.moves  # the moves are told only when recording


def test_odds_trials_play_what_the_run_plays():
    """The ruleset's `trial` (odds) against `resolve` (the run) on the same seeds: the same
    winner, finish and length, and the same dice faces."""
    ruleset = MadMatch()
    cases = [("mad_match", "best_of_three", 2), ("mad_match", "target", 3), ("mad_match", "single", 4), ("classic", "best_of_three", 2),
             ("solitaire", "solitaire", 3)]
    for variation, fmt, players in cases:
        side_list = [Side(f"P{p}", 10 + 2 * p, Strategy(unknown="unseen_first" if p % 2 else "half_remembered_first")) for p in range(players)]
        setup = {"variation": variation, "format": fmt, "target": 150 if variation != "classic" else 12, "deck": DECK, "sides": side_list,
                 "ids": [f"p{p}" for p in range(players)], "names": [s.name for s in side_list], "rules": ruleset.settings({}).rules(),
                 "max_games": 9, "solitaire": SolitaireRules()}
        booking = Booking(None, setup, [])
        assert ruleset.trial_setup(booking) is setup
        for seed in range(40):
            run_dice, odds_dice = SeededDice(seed), SeededDice(seed)
            result = ruleset.resolve(booking, run_dice)
            trial = ruleset.trial(setup, odds_dice)
            assert [(n, f) for n, _, f in result.log] == faces(odds_dice), (variation, seed)
            length = 1 if variation == "solitaire" else len(result.games)  # a solitaire round is one deal, whoever plays it
            assert trial.winner == result.winner and trial.length == length, (variation, seed)
            assert trial.method == (result.format if result.winner is not None else "draw")


def test_a_decks_tables_are_built_once_and_follow_the_deck():
    """Per-deck constants are built on first use and kept; another deck object gets its own."""
    import dataclasses
    from fedtool.rulesets.madmatch.deck import Deck
    assert tables(DECK) is tables(DECK) and tables(DECK, True) is not tables(DECK)
    richer = Deck(tuple(dataclasses.replace(m, pair=m.pair + 1) for m in DECK.monsters), DECK.actions, "richer.yaml")
    assert tables(richer).values[0][2] == 2 * (DECK.monsters[0].pair + 1) and tables(DECK).values[0][2] == 2 * DECK.monsters[0].pair
    assert len(tables(DECK).cards) == 54 and len(tables(DECK, True).cards) == 30


# ------------------------------------------------------------------ the memory's bookkeeping
# The engine keeps what a side remembers in short sorted lists and by-position tables rather
# than building sets, dicts and tuples each turn (the compiled path's speed). These check each
# helper against the plain reading it stands for, and every list against the game after every turn.


@settings(max_examples=300, deadline=None)
@given(both=st.sets(st.integers(0, 80), min_size=1, max_size=40), data=st.data())
def test_merged_at_says_where_the_kth_of_two_sorted_lists_is(both, data):
    second = sorted(data.draw(st.sets(st.sampled_from(sorted(both)), max_size=len(both))))
    first = sorted(both - set(second))
    k = data.draw(st.integers(0, len(both) - 1))
    at = _merged_at(first, second, k)
    found = first[at] if at >= 0 else second[-1 - at]
    assert found == sorted(both)[k]


@settings(max_examples=300, deadline=None)
@given(places=st.dictionaries(st.integers(0, 53), st.integers(0, 6), max_size=3), lost=st.sets(st.integers(0, 53), max_size=6))
def test_newest_first_is_the_remembered_places_most_recent_first(places, lost):
    """Most recently seen first; equal turns in the order remembered (a stable sort)."""
    assert _newest_first(places, sorted(lost)) == sorted([q for q in places if q not in lost], key=places.get, reverse=True)


@given(scores=st.lists(st.integers(0, 300), min_size=2, max_size=4), data=st.data())
def test_top_other_is_the_best_score_but_ones_own(scores, data):
    p = data.draw(st.integers(0, len(scores) - 1))
    assert _top_other(scores, p) == max(s for q, s in enumerate(scores) if q != p)


class Bookkept(Play):
    """A game that checks the memory's bookkeeping after every turn, and each pick from the
    unseen pool's place in it."""

    def _choose(self, p, up, left, recalled):
        pos = super()._choose(p, up, left, recalled)
        assert self._at < 0 or self.unseen[self._at] == pos
        return pos

    def _finish_turn(self, p):
        n = len(self.sides)
        held = [[m for m in range(len(self.places)) if len(self.colls[q][m]) == 2] for q in range(n)]
        assert self.pairs_held == held
        assert self.paired == sorted(m for q in range(n) for m in held[q])
        assert self.pair_owner == [next((q for q in range(n) if m in held[q]), -1) for m in range(len(self.places))]
        assert self.unseen == [pos for pos in range(len(self.grid)) if pos in self.down and pos not in self.seen]
        for lost in self.lost:
            assert lost == sorted(set(lost)) and all(pos in self.known for pos in lost)
        super()._finish_turn(p)


@settings(max_examples=150, deadline=None)
@given(sides=sides, rules=rules, seed=st.integers(0, 2**40), classic=st.booleans())
def test_the_memorys_lists_match_the_game_after_every_turn(sides, rules, seed, classic):
    variation = "classic" if classic else "mad_match"
    checked_dice, plain_dice = SeededDice(seed), SeededDice(seed)
    checked = Bookkept(DECK, sides, checked_dice, rules, variation).run()
    plain = Play(DECK, sides, plain_dice, rules, variation).run()
    assert faces(checked_dice) == faces(plain_dice)  # the checks change nothing
    same_game(checked, plain)
