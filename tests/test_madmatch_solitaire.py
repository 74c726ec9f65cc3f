"""Mad Match solitaire (docs/rulings/mad-match-solitaire.md): the deal, the three sections, the
deck in fives and threes, the score and the round, on stacked deals (scripted dice: the one
shuffle of the 45 Monster cards is a roll of d45, d44, ... d2)."""

from __future__ import annotations

from test_madmatch_rules import faces_for as _rules_faces_for

from fedtool.kernel.dice import ScriptedDice, SeededDice
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.solitaire import (
    SolitaireRules,
    Table,
    deal,
    play_round,
    play_solitaire,
)

DECK = load_deck()


def faces_for(wanted: list[int], n: int = 45) -> list[int]:
    """The shuffle faces of the 45 Monster cards that deal `wanted` first (test_madmatch_rules')."""
    return _rules_faces_for(wanted, n)


def stacked(first: list[int]) -> list[int]:
    return deal(ScriptedDice(faces_for(first)))


def test_the_action_cards_are_removed_and_one_shuffle_deals_for_everyone():
    """S1: "you must remove the nine Action Cards": 45 cards; one logged shuffle for the round."""
    dice = SeededDice(4)
    order = deal(dice)
    assert sorted(order) == list(range(45))
    assert [purpose for _, purpose, _ in dice.log] == ["solitaire: shuffle the deck (the same deal for every player)"]
    game = play_round(DECK, ["A", "B"], [0, 0], SeededDice(4), SolitaireRules())
    assert game.games[0].moves == game.games[1].moves  # the same deal, the same choices: the same game


def test_the_deal_five_left_then_the_center_piles_one_to_five_face_down():
    """S2: "Deal five cards down the left side, face up. Next deal five cards across the middle,
    face down. Now deal one card face up on top of the leftmost ... Finally, deal a face up card on
    the rightmost set of face-down cards." """
    table = Table(list(range(45)), DECK)
    assert [s for s in table.left] == [[0], [1], [2], [3], [4]]
    assert [len(d) for d in table.down] == [1, 2, 3, 4, 5]
    assert [u for u in table.up] == [[10], [15], [19], [22], [24]]
    assert table.down[1] == [6, 11] and table.down[4] == [9, 14, 18, 21, 23]
    assert table.right == [[]] * 5 and len(table.stock) == 20


def test_matching_left_cards_dealt_in_setup_are_paired_leaving_a_blank():
    """S3: "If matching cards are dealt during setup, they can be paired, leaving a blank space." """
    table = Table(stacked([0, 3, 1, 6, 9]), DECK)  # Scorchtooth at left 1 and left 3
    table.setup_pairs()
    assert table.left[0] == [0, 1] and table.left[2] is None


def test_only_a_triplet_fills_a_blank_left_space():
    """S3: "Only completed triplets can be moved into a blank space on the left." """
    table = Table(list(range(45)), DECK)
    table.left[4] = None
    assert table._to_left([30]) is None and table._to_left([30, 31]) is None
    assert table._to_left([30, 31, 32]) == 4


def test_deck_cards_never_go_to_the_center():
    """S4: "Cards from the deck or in the right and left sections cannot be moved to match in the
    center section." A deck card matching only a center card is not playable."""
    table = Table(list(range(45)), DECK)
    table.right = [[33], [36], [39], [42], [27]]  # no empty right space
    table.waste = [11]  # a Flarewing (monster 3), like center 1's face-up card 10; no left or right stack is one
    assert table.mon[11] == table.mon[10] and all(table.mon[s[0]] != table.mon[11] for s in table.left)
    assert table.play_waste() is False and table.waste == [11]


def test_a_deck_card_opens_a_triplet_on_the_right():
    """S5: "you can move a new, unmatched card into any open slot." """
    table = Table(list(range(45)), DECK)
    table.waste = [40]
    assert table.play_waste() and table.right[0] == [40]


def test_a_strategy_keeps_right_spaces_free():
    """S5: `keep_free: 5` never opens a right space with a deck card."""
    table = Table(list(range(45)), DECK, keep_free=5)
    table.waste = [40]
    assert table.play_waste() is False


def test_center_groups_match_and_turn_up_what_is_under_them():
    """S4: "Only cards already in the center section can be matched and stacked." Center 1's
    face-up card joins center 2's of the same monster; the card under it is turned up."""
    order = list(range(45))
    order[10], order[15] = 21, 22  # center 1 and center 2 show Ampzilla (monster 7)
    order[21], order[22] = 10, 15
    table = Table(order, DECK)
    assert table.mon[table.up[0][0]] == table.mon[table.up[1][0]] == 7
    under = table.down[0][-1]
    assert table.tableau_move()
    assert table.up[1] == [22, 21]
    assert table.up[0] == [under]


def test_the_deck_is_played_five_then_three():
    """S6: "count five cards and show them face up ... Once you have an unplayable card, deal
    another three cards in the same manner." """
    table = Table(list(range(45)), DECK)
    assert table.deal_cards(5) == 5 and table.deal_cards(3) == 3 and len(table.waste) == 8 and len(table.stock) == 12


def test_the_score_is_a_fed_rule():
    """S8: `triplets` counts completed triplets; `cards` counts cards in groups of two or three."""
    order = deal(SeededDice(8))
    by_triplets = play_solitaire(order, DECK, "A", SolitaireRules("triplets"))
    by_cards = play_solitaire(order, DECK, "A", SolitaireRules("cards"))
    assert by_triplets.score == by_triplets.triplets and by_cards.score == by_cards.grouped
    assert by_cards.grouped >= 3 * by_cards.triplets


def test_a_round_is_won_by_the_highest_score_and_a_lone_player_must_group_everything():
    """S8: the highest score wins a round; one player alone wins only by grouping every monster."""
    for seed in range(60):
        played = play_round(DECK, ["A", "B"], [0, 3], SeededDice(seed), SolitaireRules())
        if played.totals[0] != played.totals[1]:
            break
    assert played.winner == max(range(2), key=lambda p: played.totals[p])
    alone = [play_round(DECK, ["A"], [0], SeededDice(seed), SolitaireRules()) for seed in range(40)]
    assert any(r.winner == 0 for r in alone) and any(r.winner is None for r in alone)
    assert all((r.winner == 0) == r.games[0].won and (not r.games[0].won or r.games[0].triplets == 15) for r in alone)


def test_every_card_stays_on_the_table():
    """Every one of the 45 cards is somewhere at the end: a space, a pile, the deck."""
    for seed in range(30):
        order = deal(SeededDice(seed))
        table = Table(order, DECK)
        table.setup_pairs()
        game = play_solitaire(order, DECK, "A", SolitaireRules())
        layout = game.layout
        assert layout["deck"] >= 0
        count = 0
        for text in layout["left"] + layout["right"] + [c["up"] for c in layout["center"]]:
            if text and text != "(blank)":
                count += int(text.split()[0]) if text[0].isdigit() else 1
        count += sum(c["down"] for c in layout["center"]) + layout["deck"]
        assert count == 45
