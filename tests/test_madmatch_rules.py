"""Mad Match: one test per rule of the instructions (../shared/rules/002_663990dd0732f6fe.txt),
each citing its sentence, played on a stacked deck through scripted dice (docs/rulings/mad-match.md).

How a deck is stacked: every shuffle is one logged roll of d(n), d(n-1), ... d2 (a Fisher-Yates
shuffle), so `faces_for` works out the faces that deal a wanted order. Every other die is a 1:
a pick among unknown cards takes the lowest position, so players turn unseen cards in order
A1, A2, A3, ...; with memory 20 on a d20 every recall is certain and nothing is rolled for it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from fedtool.kernel.dice import ScriptedDice, SeededDice, format_log
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import parse_yaml
from fedtool.rulesets.madmatch.deck import load_deck, read_deck
from fedtool.rulesets.madmatch.engine import Play, Rules, Side, icon_battle, play_match, shuffle
from fedtool.rulesets.madmatch.strategy import Strategy, read_strategy

DECK = load_deck()
CARDS = DECK.cards()
# card indices in deck order: monster m is 3m, 3m+1, 3m+2; then the Action cards
SCORCH, SOLAR, CINDER, FLARE, BLAZE, ZAP, SPARK = (3 * m for m in range(7))
DRIZZLE = 3 * 10  # water
COLD_SNAP, COLD_SNAP_2, DEEP_FREEZE, MASH, MASH_2, EXPLOSION, NET, NET_2, KIDNAP = range(45, 54)


def faces_for(wanted: list[int], n: int) -> list[int]:
    """The shuffle faces (d n, d n-1, ... d2) that put `wanted` first, the rest after in order."""
    rest = [c for c in range(n) if c not in wanted]
    target = list(wanted) + rest
    order = list(range(n))
    faces = []
    for i in range(n - 1):
        j = order.index(target[i])
        faces.append(j - i + 1)
        order[i], order[j] = order[j], order[i]
    return faces


def stacked(grid: list[int], battle: list[int] | None = None, n: int = 54, tail: list[int] | None = None) -> ScriptedDice:
    """Dice that win the icon battle for player one (a Sun against a Water) and deal `grid` first."""
    battle = battle if battle is not None else [SCORCH, DRIZZLE]
    return ScriptedDice(faces_for(battle, n) + faces_for(grid, n) + (tail or []) + [1] * 2000)


def play(grid, players=2, strategies=None, memory=20, rules=Rules(), battle=None, variation="mad_match", tail=None):
    strategies = strategies or [Strategy()] * players
    sides = [Side(f"P{p}", memory, strategies[p]) for p in range(players)]
    n = 30 if variation == "classic" else 54
    game = Play(DECK, sides, stacked(grid, battle, n, tail), rules, variation, record=True)
    return game, game.run()


# ---------------------------------------------------------------- the deck


def test_the_deck_has_54_cards_45_monsters_and_9_actions():
    """ "Mad Match is a 54 card deck with 45 Monster cards and 9 Strategic Action cards." """
    monsters = [c for c in CARDS if hasattr(c, "icon")]
    assert len(CARDS) == 54 and len(monsters) == 45 and len(CARDS) - len(monsters) == 9
    assert all(sum(1 for c in monsters if c is m) == 3 for m in DECK.monsters)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("  - {id: squidzilla", "  # - {id: squidzilla"), "line 15: 14 monsters: Mad Match has 15"),
    (lambda t: t.replace("icon: water, strike: 9", "icon: moon, strike: 9"), "line 29: unknown icon 'moon'"),
    (lambda t: t.replace("strike: 5, spare: 4, pair: 2, single: 1}\n  - {id: solar", "strike: 5, spare: -4, pair: 2, single: 1}\n  - {id: solar"),
     "line 15: spare -4 is not a whole number from 0 to 1000"),
    (lambda t: t.replace("copies: 1, effect: steal,   cards: set", "copies: 1, cards: set"), "line 36: Action card 'kidnap' has no effect"),
    (lambda t: t.replace("effect: steal,   cards: set", "effect: teleport, cards: set"), "line 36: Action card 'kidnap' has the effect 'teleport', which fedtool does not define"),
    (lambda t: t.replace("copies: 2, effect: steal", "copies: 3, effect: steal"), "line 31: 10 Action cards: Mad Match has 9"),
])
def test_a_deck_file_is_checked_with_its_line(edit, message):
    """Bad input: "A deck file with the wrong count, an unknown icon, a negative value or an
    Action Card with no defined effect": the file, the line and the rule."""
    from fedtool.rulesets.madmatch.deck import DATA
    text = edit((DATA / "deck.yaml").read_text())
    with pytest.raises(FedError) as err:
        read_deck(parse_yaml(text, "rosters/my-deck.yaml"), "rosters/my-deck.yaml")
    shown = str(err.value)
    assert "rosters/my-deck.yaml, " + message in shown, shown
    assert "[Mad Match deck: 54 cards" in shown


# ---------------------------------------------------------------- setup and Player One


def test_the_grid_is_six_rows_of_nine_face_down():
    """ "deal the cards out in a grid of six rows of nine cards, all face down" (R2). """
    dice = stacked([KIDNAP, SCORCH])
    game = Play(DECK, [Side("A", 20, Strategy()), Side("B", 20, Strategy())], dice, Rules())
    assert len(game.grid) == 54 and game.columns == 9 and game.grid[:2] == [KIDNAP, SCORCH]
    assert game.down == set(range(54)) and not game.frozen
    assert game.where(0) == "A1" and game.where(53) == "F9"


@pytest.mark.parametrize("first, second, winner", [
    (SCORCH, DRIZZLE, 0),  # "the Sun evaporates the Water"
    (DRIZZLE, ZAP, 0),  # "the Water short circuits the Electrical Bolt"
    (ZAP, SCORCH, 0),  # "the Electrical Bolt gives us light so we don't need the Sun"
    (DRIZZLE, SCORCH, 1),
    (KIDNAP, SCORCH, 1),  # R3: an Action card has no icon, any icon beats it
])
def test_the_icon_battle_is_rock_paper_scissors(first, second, winner):
    """ "Using the icons is like playing Rock Paper Scissors" (R3). """
    dice = ScriptedDice(faces_for([first, second], 54))
    assert icon_battle(CARDS, 2, dice, "game 1")[0] == winner


def test_a_tied_icon_compares_the_next_cards():
    """ "If the first cards use the same icon, it is a tie and the second cards should be compared." """
    # both Sun, both Bolt, then Water (player two) beats Bolt (player one)
    dice = ScriptedDice(faces_for([SCORCH, SOLAR, ZAP, SPARK, ZAP + 1, DRIZZLE], 54))
    first, rows = icon_battle(CARDS, 2, dice, "game 1")
    assert first == 1 and len(rows) == 3


def test_three_players_battle_until_one_is_left():
    """R3, three players: the winning icon stays in (Sun, Sun, Water: the Water is out), then Sun beats... """
    # round 1: P0 Sun, P1 Sun, P2 Water -> P2 out; round 2: P0 Bolt, P1 Sun -> Bolt beats Sun
    dice = ScriptedDice(faces_for([SCORCH, SOLAR, DRIZZLE, ZAP, CINDER], 54))
    first, _ = icon_battle(CARDS, 3, dice, "game 1")
    assert first == 0


# ---------------------------------------------------------------- a turn


def test_player_one_turns_over_three_cards():
    """ "Player One turns over three cards." """
    _, game = play([SCORCH, SOLAR, CINDER, FLARE])
    first = game.log[0]
    assert first.player == 0 and [c for _, c, _ in first.reveals] == [SCORCH, SOLAR, CINDER]
    assert game.log[1].player == 1  # then the next player


def test_a_pair_is_collected_and_scores_the_pair_value_per_card():
    """ "If a pair or triplet of monsters is revealed, they should be collected by the player";
    "a pair of monsters with a II of 3 totals six points" (Solar Slug: pair 3). """
    play_, game = play([SOLAR, SOLAR + 1, CINDER])
    assert game.log[0].collected == [(SOLAR // 3, 2, "pair")]
    assert game.log[0].scores[0] == 6


def test_a_triplet_in_one_turn_is_a_strike():
    """ "x : All three cards collected in one turn." Scorchtooth 5/4/2/1: 3 x 5 = 15. """
    _, game = play([SCORCH, SCORCH + 1, SCORCH + 2])
    assert game.log[0].collected == [(0, 3, "strike")] and game.log[0].scores[0] == 15


def test_cards_not_matched_are_turned_back_and_remembered():
    """ "If there are no matches, the cards should be turned back over once all players have had
    a chance to see them." Player two then collects the pair it saw (R13, memory 20: certain). """
    _, game = play([SCORCH, SOLAR, CINDER, SCORCH + 1, FLARE])
    assert game.log[0].collected == [] and game.log[0].board[:3] == "rrr"
    second = game.log[1]
    # A4 (unseen) is a Scorchtooth: the one seen at A1 is remembered and turned next
    assert [(pos, c, how) for pos, c, how in second.reveals][:2] == [(3, SCORCH + 1, "an unknown card"), (0, SCORCH, "remembered")]
    assert second.collected == [(0, 2, "pair")]


def test_a_non_freeze_action_card_is_collected_and_counts_among_the_three():
    """ "If any of the revealed cards is an Action Card ... the player should collect the card,
    unless it is a Freeze card." R4: a non-Freeze Action card is one of the three. """
    play_, game = play([MASH, SCORCH, SOLAR, CINDER])
    first = game.log[0]
    assert [c for _, c, _ in first.reveals] == [MASH, SCORCH, SOLAR]
    assert first.actions == [MASH]


def test_a_freeze_card_is_used_at_once_an_extra_card_and_the_rest_frozen():
    """ "Freeze cards are used immediately and an extra card should be revealed ... Remaining
    Monster Cards should then be frozen in place" (R8). """
    play_, game = play([COLD_SNAP, SCORCH, SOLAR, CINDER, FLARE, ZAP, SPARK])
    first = game.log[0]
    assert [c for _, c, _ in first.reveals] == [COLD_SNAP, SCORCH, SOLAR, CINDER]
    assert first.freeze == [COLD_SNAP] and first.frozen == [1, 2, 3]
    assert first.board[:4] == "cfff"
    assert COLD_SNAP in game.out  # "the Freeze Action Card is removed from play"
    assert (1, 0, COLD_SNAP, 0) in game.used


def test_a_freeze_that_extends_freezes_the_next_players_turn():
    """ "Some Freeze cards extend to the next players turn. In that case, an additional three
    cards should be revealed, and any that are not collected will also remain frozen" (R8). """
    play_, game = play([DEEP_FREEZE, SCORCH, SOLAR, CINDER, FLARE, ZAP, SPARK, BLAZE])
    second = game.log[1]
    assert second.player == 1 and len(second.reveals) == 3 and second.frozen == [p for p, _, _ in second.reveals]
    assert game.log[2].frozen == []  # the freeze is over


def test_frozen_cards_are_turned_back_after_the_freeze_with_turn_back():
    """R8, `frozen_cards: turn_back`: face down at the end of the turn after the last Freeze turn."""
    _, game = play([COLD_SNAP, SCORCH, SOLAR, CINDER, FLARE, ZAP, SPARK], rules=Rules(frozen_cards="turn_back"))
    assert "f" in game.log[0].board and "f" in game.log[1].board and "f" not in game.log[2].board


def test_a_frozen_card_is_collected_by_a_later_match():
    """R8: frozen face up, a card is collected when a later turn turns its match."""
    _, game = play([COLD_SNAP, SCORCH, SOLAR, CINDER, SCORCH + 1, ZAP, SPARK])
    assert game.log[1].collected and game.log[1].collected[0][:2] == (0, 2)


def test_a_spare_is_collected_and_scores_the_spare_value():
    """ "If a player has collected a pair and turns over the third card, he or she can collect the
    third card as a Spare"; "a spare triplet with a / of 5 totals fifteen points" (Solar Slug 6/5/3/1). """
    _, game = play([SOLAR, SOLAR + 1, SCORCH, ZAP, SPARK, BLAZE, SOLAR + 2, CINDER, FLARE])
    third = game.log[2]
    assert third.player == 0 and (1, 1, "spare") in third.collected
    assert third.scores[0] == 15


def test_a_spare_may_be_refused():
    """ "he or she *can* collect the third card as a Spare" (R6): `spares: never` turns it back. """
    never = Strategy(spares="never")
    _, game = play([SOLAR, SOLAR + 1, SCORCH, ZAP, SPARK, BLAZE, SOLAR + 2, CINDER, FLARE], strategies=[never, Strategy()])
    third = game.log[2]
    assert not any(how == "spare" for _, _, how in third.collected) and third.scores[0] == 6


def test_the_third_card_of_an_opponents_pair_is_removed():
    """ "If a player reveals the third card from an opponent's pair, the third card is removed from play." """
    _, game = play([SOLAR, SOLAR + 1, SCORCH, SOLAR + 2, ZAP, SPARK])
    second = game.log[1]
    assert second.removed and second.removed[0][1] == SOLAR + 2 and SOLAR + 2 in game.out


# ---------------------------------------------------------------- Action cards


def test_an_action_card_takes_the_place_of_the_turn():
    """ "A player may choose to use an Action Card at any time during the game. This will take the
    place of his or her turn (no turning over cards that time)." Monster Mash destroys one card. """
    eager = read_strategy({"actions": {"monster_mash": {"when": "always"}}}, "s.yaml", DECK)
    _, game = play([MASH, SCORCH, ZAP, SOLAR, SOLAR + 1, CINDER], strategies=[eager, Strategy()])
    third = game.log[2]
    assert third.player == 0 and third.kind == "action" and third.reveals == []
    assert third.used[:4] == (MASH, "destroy", 1, 1)
    assert third.scores[1] == 1  # Solar Slug: a pair (6) destroyed to a single (1)


def test_a_stolen_set_scores_as_a_spare():
    """ "v : All three cards collected over the course of more than one turn or stolen with an
    Action Card." Kidnap takes a strike: the thief scores it as a spare (3 x 5), the victim 0. """
    eager = read_strategy({"actions": {"kidnap": {"when": "always"}}}, "s.yaml", DECK)
    _, game = play([KIDNAP, SCORCH, ZAP, SOLAR, SOLAR + 1, SOLAR + 2], strategies=[eager, Strategy()])
    assert game.log[1].collected == [(1, 3, "strike")] and game.log[1].scores[1] == 18
    assert game.log[2].used[:4] == (KIDNAP, "steal", 1, 1)
    assert game.log[2].scores[:2] == (15, 0)


def test_only_one_action_card_a_turn():
    """ "Only one Action Card can be used per turn." Holding two, a player uses one a turn. """
    eager = read_strategy({"actions": {"destroy": {"when": "always"}}}, "s.yaml", DECK)
    _, game = play([MASH, MASH_2, SCORCH, SOLAR, SOLAR + 1, CINDER], strategies=[eager, Strategy()])
    assert game.log[0].actions == [MASH, MASH_2]
    assert game.log[2].used[0] == MASH and game.log[3].kind == "turn" and game.log[4].used[0] == MASH_2


# ---------------------------------------------------------------- the end and scoring


def test_the_game_ends_when_the_last_monsters_are_collected_and_actions_left_cannot_be_played():
    """ "When the last Monster Cards are revealed and collected, the game is immediately over ...
    Any remaining Action Cards can no longer be played." (R10) """
    hoard = read_strategy({"actions": {"steal": {"when": "never"}, "destroy": {"when": "never"}}}, "s.yaml", DECK)
    game = Play(DECK, [Side("A", 20, hoard), Side("B", 20, hoard)], SeededDice(3), Rules()).run()
    monsters_left = [c for c in game.grid_left if c < 45]
    assert monsters_left == [] and not game.called
    held = [c for h in game.hands for c in h]
    assert held and all(c not in [u[2] for u in game.used] for c in held)


def test_an_orphan_is_removed_from_play():
    """ "If the last card(s) to be revealed include an orphan single who cannot be paired or
    collected by the player, it is simply removed from play" (R10). """
    for seed in range(40):
        game = Play(DECK, [Side("A", 14, Strategy()), Side("B", 14, Strategy())], SeededDice(seed), Rules()).run()
        if game.orphans:
            break
    assert game.orphans and all(c in game.out for c in game.orphans)
    assert all(c not in game.grid_left for c in game.orphans)


@pytest.mark.parametrize("count, strike, value", [(2, False, 6), (3, False, 15), (3, True, 18), (1, False, 1)])
def test_each_card_is_scored_by_the_matrix(count, strike, value):
    """ "each card is scored, so a pair of monsters with a II of 3 totals six points while a spare
    triplet with a / of 5 totals fifteen points" (Solar Slug: 6/5/3/1). """
    assert DECK.monster("solar_slug").value(count, strike) == value


def test_the_highest_score_wins_the_game():
    """ "The player with the highest score wins the game." """
    game = Play(DECK, [Side("A", 14, Strategy()), Side("B", 14, Strategy())], SeededDice(5), Rules()).run()
    assert game.winner == max(range(2), key=lambda p: game.scores[p]) and game.scores[0] != game.scores[1]


def test_best_two_out_of_three():
    """ "you may decide to play best two out of three" (R12): the first to win two games. """
    sides = [Side("A", 14, Strategy()), Side("B", 14, Strategy())]
    for seed in range(6):
        match = play_match(DECK, sides, SeededDice(seed), Rules(), fmt="best_of_three")
        assert match.wins[match.winner] == 2 and 2 <= len(match.games) <= 3
        assert match.games[-1].winner == match.winner


def test_to_a_target_score():
    """ "or to a set total score. 250 points is a good target score for two player games." """
    sides = [Side("A", 14, Strategy()), Side("B", 14, Strategy())]
    match = play_match(DECK, sides, SeededDice(11), Rules(), fmt="target", target=250)
    assert match.totals[match.winner] >= 250 and match.totals[match.winner] == max(match.totals)
    before = [sum(g.scores[p] for g in match.games[:-1]) for p in range(2)]
    assert max(before) < 250


def test_three_and_four_players():
    """ "150 points is better for 3 or 4 player games": three and four players play in turn. """
    for n in (3, 4):
        sides = [Side(f"P{p}", 14, Strategy()) for p in range(n)]
        match = play_match(DECK, sides, SeededDice(n), Rules(), fmt="target", target=150)
        assert match.winner is not None and match.totals[match.winner] >= 150


# ---------------------------------------------------------------- memory and replay


def test_a_recall_is_rolled_and_a_failed_one_forgets():
    """R13: memory 10 on a d20, a card seen 1 turn ago: 10 - 0 = 10 or less. A 15 fails: the card
    is forgotten (half-remembered) and the roll is logged with its purpose."""
    # P0 turns Scorchtooth, Solar, Cinder; P1 turns Flare (unseen pick), then looks for... P1 turns
    # a Scorchtooth first (unseen, lowest), then recalls A1 for it: the roll is 15, it fails
    sides = [Side("P0", 10, Strategy(unknown="unseen_first")), Side("P1", 10, Strategy(unknown="unseen_first"))]
    dice = ScriptedDice(faces_for([SCORCH, DRIZZLE], 54) + faces_for([SCORCH, SOLAR, CINDER, SCORCH + 1], 54)
                        + [1, 1, 1, 1, 15] + [1] * 2000)
    game = Play(DECK, sides, dice, Rules(), record=True)
    result = game.run()
    second = result.log[1]
    assert (0, False) in second.recalls
    purposes = [purpose for _, purpose, _ in dice.log]
    assert any("P1 recalls A1 (seen 1 turn ago; 10 or less)" in p for p in purposes)


def test_a_match_replays_from_its_seed_and_from_its_log():
    """Every roll logged with its purpose: the log, as a scripted-dice file, plays the same match."""
    sides = [Side("A", 12, Strategy()), Side("B", 15, Strategy(unknown="half_remembered_first")), Side("C", 9, Strategy())]
    first = SeededDice(99)
    one = play_match(DECK, sides, first, Rules())
    log = first.take_log()
    two = play_match(DECK, sides, SeededDice(99), Rules())
    three = play_match(DECK, sides, ScriptedDice.parse(format_log(log), "log"), Rules())
    assert [g.scores for g in one.games] == [g.scores for g in two.games] == [g.scores for g in three.games]
    assert all(purpose for _, purpose, _ in log)


# ---------------------------------------------------------------- the classic matching game


def test_the_classic_game_thirty_cards_two_a_turn_most_pairs_wins():
    """ "remove all nine Action Cards and one copy of each of the 15 monsters. That will leave you
    with 30 cards ... a grid of five rows of six cards. Players should turn over two cards at a
    time ... The player with the most pairs at the end of the game wins!" """
    play_, game = play([0, 1, 2, 4], variation="classic", battle=[0, 20])  # Scorchtooth x2 first
    assert len(play_.grid) == 30 and play_.columns == 6 and play_.where(29) == "E6"
    assert len(game.log[0].reveals) == 2 and game.log[0].collected == [(0, 2, "pair")]
    assert sum(game.pairs) == 15 and game.scores == game.pairs
    assert game.winner == (max(range(2), key=lambda p: game.pairs[p]) if game.pairs[0] != game.pairs[1] else None)


def test_shuffle_is_a_permutation():
    order = shuffle(list(range(54)), SeededDice(1), "shuffle")
    assert sorted(order) == list(range(54))


def test_rating_closeness_is_a_fraction():
    from fedtool.rulesets.madmatch import MadMatch
    from fedtool.rulesets.base import Booking
    sides = [Side("A", 14, Strategy()), Side("B", 14, Strategy())]
    match = play_match(DECK, sides, SeededDice(2), Rules(), fmt="single")
    booking = Booking(None, {"deck": DECK, "variation": "mad_match"}, [])
    inputs = MadMatch().rating_inputs(booking, match)
    assert isinstance(inputs["closeness"], Fraction) and 0 <= inputs["closeness"] <= 1


def test_a_deck_may_give_a_steal_two_cards():
    """R9: `cards: two` takes two cards of a set: Kidnap so made, on a strike (Solar Slug x3, 18),
    leaves a single (1) and gives the thief a pair (6)."""
    import dataclasses
    from fedtool.rulesets.madmatch.deck import Deck
    two = Deck(DECK.monsters, tuple(dataclasses.replace(a, cards="two") if a.id == "kidnap" else a for a in DECK.actions), "two.yaml")
    eager = read_strategy({"actions": {"kidnap": {"when": "always"}}}, "s.yaml", two)
    sides = [Side("P0", 20, eager), Side("P1", 20, Strategy())]
    game = Play(two, sides, stacked([KIDNAP, SCORCH, ZAP, SOLAR, SOLAR + 1, SOLAR + 2]), Rules(), record=True).run()
    assert game.log[2].used[:5] == (KIDNAP, "steal", 1, 1, 2)
    assert game.log[2].scores[:2] == (6, 1)
