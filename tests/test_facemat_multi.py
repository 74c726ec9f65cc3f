"""Face to the Mat with more than two, and the advanced options, computed by hand from the
rulebook (../shared/rules/004_a5c62bc98893c12f.txt, sections 7-10) and the rulings
(docs/rulings/face-to-the-mat.md).

Conventions every computation below relies on (not rules, the project's mechanics):
- a deck of one card needs no die; with N cards left a d{N} picks the card at that place in
  what is left, and the last card left takes its place (drawing lazily);
- with `storylines=False` there are no reel rolls; otherwise 1d6 + 2d6 before and after;
- a kickout roll is 2d6 read as d66; 22 kicks out for AAA (11-43) and fails for F (11).
"""

from __future__ import annotations

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.facemat import engine, royale
from fedtool.rulesets.facemat.engine import Options, Plan, Setup, teams_of
from fedtool.rulesets.facemat.sheet import Wrestler

HOTBOX = {"allies": [f"Ally {k}" for k in range(6)], "foes": [f"Foe {k}" for k in range(6)], "grudge": []}  # one per side
FAIL_F = [2, 2, 2, 2, 2, 2]  # three kickout rolls of 22: outside F's 11, so an F defender is pinned


def wrestler(wid, grade="B", skills=None, finisher=(11, 33), alignment="face", grudge=0):
    return Wrestler(wid, wid.title(), grade, grudge, alignment, skills or {}, "the Finisher", finisher, {})


def card(kind, points, cid=None):
    return {"id": cid or f"{kind.lower()}-{points}", "type": kind, "points": points, "square": False, "control": False,
            "text": "{performer} goes after {opponent}."}


def quiet_tables(cards):
    """The real track and tables (with `advanced`), `cards` as the whole FAC deck, and reels
    whose every event does nothing."""
    from fedtool.rulesets.facemat.rules import data

    still = {n: {"text": "Quiet.", "post_text": "Quiet.", "effect": "none"} for n in range(2, 13)}
    reels = {"pick": {n: "A" for n in range(1, 7)}, "reels": {"A": {"title": "Quiet", "events": still}, "K": {"title": "K", "events": still}}}
    return {**data(), "facs": cards, "reels": reels}


@pytest.fixture
def deck(monkeypatch):
    """deck(cards, guard=None): play with `cards` as the FAC deck (engine and royale)."""

    def use(cards, guard=None):
        monkeypatch.setattr(engine, "data", lambda: quiet_tables(cards))
        monkeypatch.setattr(royale, "data", lambda: quiet_tables(cards))
        if guard is not None:
            monkeypatch.setattr(engine, "FAC_GUARD", guard)

    return use


def moves(result):
    return [(ln.who, ln.positions) for ln in result.lines if ln.kind == "move"]


def purposes(result, word):
    return [purpose for _, purpose, _ in result.log if word in purpose.lower()]


def defenders(result):
    """Who rolled each kickout, from the dice log ("C kickout 1 (2d6 as d66)")."""
    return [purpose.split(" kickout")[0] for _, purpose, _ in result.log if " kickout " in purpose]


# 1. Two-on-one (9.d.i) ---------------------------------------------------------------

@pytest.mark.parametrize("scorer, target", [(1, 2), (2, 1)])
def test_two_on_one_featured_wins_by_pinning_either_underdog(deck, scorer, target):
    """9.d.i: "Place 'featured' wrestler in 'favored' area, others in the 'underdog' area";
    rulings: "the featured wrestler wins by pinning either underdog", against "the opponent
    furthest behind". Deck [AGILE 3, MEAN 12]; d2=1 draws AGILE (only underdog `scorer` has
    it): he goes to 3. MEAN 12 (last card, no die): only A: 0 -> 12, a pin on the other
    underdog (0 < 3). The target is F, the other AAA: 22, 22, 22 pin him. A wins, FAC 2."""
    deck([card("AGILE", 3), card("MEAN", 12)], guard=4)
    grades = {scorer: "AAA", target: "F"}
    field = (wrestler("a", "A", {"MEAN": "star"}),) + tuple(
        wrestler(n, grades[k], {"AGILE": "star"} if k == scorer else {}) for k, n in ((1, "b"), (2, "c")))
    setup = Setup("m", field, HOTBOX, mode="two_on_one", storylines=False)
    dice = ScriptedDice([1] + FAIL_F)
    result = engine.resolve(setup, dice)
    expected = [0, 0, 0]
    expected[scorer] = 3
    assert moves(result) == [(scorer, tuple(expected)), (0, tuple(12 if k == 0 else p for k, p in enumerate(expected)))]
    assert (result.winner, result.method, result.facs) == (0, "pin", 2)
    assert result.positions == [12] + expected[1:]
    assert defenders(result) == ["B C".split()[target - 1]] * 3 and dice.remaining == 0


@pytest.mark.parametrize("scorer", [1, 2])
def test_two_on_one_an_underdog_pins_the_featured_never_his_partner(deck, scorer):
    """9.d.i: "Underdog wrestlers only score against favored wrestler, not each other";
    rulings: "they never pin each other ... both underdogs win if either pins him" (the
    winner side is the one who scored the fall; teams_of is (0, 1, 1)). Deck [MEAN 3,
    AGILE 12]: d2=1 draws MEAN: only A (featured) has it, 0 -> 3. AGILE 12 (no die): only
    underdog `scorer`: 0 -> 12. His partner at 0 is further behind than A (3) but is no
    opponent: the pin is on A, grade F: 22, 22, 22, pinned. The partner is AAA, so pinning
    him would have been a kickout on the first 22."""
    deck([card("MEAN", 3), card("AGILE", 12)], guard=4)
    field = (wrestler("a", "F", {"MEAN": "star"}),) + tuple(
        wrestler(n, "AAA", {"AGILE": "star"} if k == scorer else {}) for k, n in ((1, "b"), (2, "c")))
    setup = Setup("m", field, HOTBOX, mode="two_on_one", storylines=False)
    assert teams_of(setup) == (0, 1, 1)
    dice = ScriptedDice([1] + FAIL_F)
    result = engine.resolve(setup, dice)
    expected = [3, 0, 0]
    expected[scorer] = 12
    assert (result.winner, result.method, result.facs) == (scorer, "pin", 2)
    assert result.positions == expected
    assert defenders(result) == ["A"] * 3 and dice.remaining == 0


# 2. Every man for himself (9.d.ii) -----------------------------------------------------

def test_every_man_first_fall_eliminates_and_the_last_fall_wins(deck):
    """9.d.ii: "First to pin or finish an opponent eliminates them; Match continues as
    one-on-one"; rulings: "tokens stay where they are, and the last fall wins". One SIGNATURE
    card worth 6 (everyone can perform it). FAC 1 tie: A (first billed) 6; FAC 2 B and C
    trail tied: B 6; FAC 3 C 6; FAC 4 tied: A 12, pin on the furthest behind, B and C tied at
    6 -> the last billed, C (F): 22 x3, C eliminated (C, by A, pin, FAC 4). FAC 5: B (6)
    trails A (12): 12, pin on A, his only opponent (F): 22 x3. B wins; C's token stays on 6."""
    deck([card("SIGNATURE", 6)])
    field = (wrestler("a", "F"), wrestler("b", "F"), wrestler("c", "F"))
    dice = ScriptedDice(FAIL_F + FAIL_F)
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert moves(result) == [(0, (6, 0, 0)), (1, (6, 6, 0)), (2, (6, 6, 6)), (0, (12, 6, 6)), (1, (12, 12, 6))]
    assert result.eliminations == [(2, 0, "pin", 4), (0, 1, "pin", 5)]
    assert (result.winner, result.method, result.facs) == (1, "pin", 5)
    assert result.positions == [12, 12, 6]
    assert defenders(result) == ["C"] * 3 + ["A"] * 3 and dice.remaining == 0


# 3. Who performs among three (7, rulings) ------------------------------------------------

def test_three_way_tie_goes_to_the_first_billed_then_the_trailing_perform(deck):
    """7: "TRAILING wrestler performs move; If tied, FAVORED wrestler performs move"; rulings:
    "of several, the trailing one; tied, the first billed". SIGNATURE 2: FAC 1 all at 0: A;
    FAC 2 B and C trail tied at 0: B (billed before C); FAC 3 C alone trails: C."""
    deck([card("SIGNATURE", 2)], guard=3)
    field = (wrestler("a"), wrestler("b"), wrestler("c"))
    dice = ScriptedDice([])
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert moves(result) == [(0, (2, 0, 0)), (1, (2, 2, 0)), (2, (2, 2, 2))]
    assert result.method == "time_limit" and dice.remaining == 0


def test_a_tie_on_a_trailing_card_goes_to_the_last_billed(deck):
    """7: "Exception: For TRAILING cards, UNDERDOG is considered trailing if tied"; rulings:
    "On TRAILING cards a tie goes to the last billed". TRAILING 1: FAC 1 all tied: C; FAC 2 A
    and B tied at 0: B (the later billed); FAC 3 A alone trails: A."""
    deck([card("TRAILING", 1)], guard=3)
    field = (wrestler("a"), wrestler("b"), wrestler("c"))
    dice = ScriptedDice([])
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert moves(result) == [(2, (0, 0, 1)), (1, (0, 1, 1)), (0, (1, 1, 1))]
    assert dice.remaining == 0


# 4. Whom a pin is against (rulings) --------------------------------------------------------

def test_the_pin_is_on_the_furthest_behind_with_his_grade(deck):
    """Rulings: "Whom a pin or finisher is against: the opponent furthest behind ... He rolls
    the kickouts with his grade." Deck [AGILE 3, MEAN 12]: d2=1 AGILE, only B: 3. MEAN 12,
    only A: 12, pin on C (0 < 3), grade F: 22 x3 fail, C eliminated at FAC 2. (B is AAA: a pin
    on him would end at the first 22.) The guard of 2 FACs then ends it."""
    deck([card("AGILE", 3), card("MEAN", 12)], guard=2)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b", "AAA", {"AGILE": "star"}), wrestler("c", "F"))
    dice = ScriptedDice([1] + FAIL_F)
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert result.eliminations == [(2, 0, "pin", 2)]
    assert result.positions == [12, 3, 0] and result.method == "time_limit"
    assert defenders(result) == ["C"] * 3 and dice.remaining == 0


def test_a_tie_for_furthest_behind_is_pinned_as_the_last_billed(deck):
    """Rulings: "of those tied the last billed. He rolls the kickouts with his grade."
    SIGNATURE 12: FAC 1 all tied, A goes to 12 and pins C (B and C tied at 0, C last billed).
    C is AAA: 22 is inside 11-43, a kickout on the first roll (2 dice). B is F: had the pin
    been on him, 22 x3 would have eliminated him."""
    deck([card("SIGNATURE", 12)], guard=1)
    field = (wrestler("a"), wrestler("b", "F"), wrestler("c", "AAA"))
    dice = ScriptedDice([2, 2])
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert result.eliminations == [] and result.positions == [12, 0, 0]
    assert defenders(result) == ["C"] and dice.remaining == 0


# 5. Four-Play (9.e.iii) ----------------------------------------------------------------------

@pytest.mark.parametrize("entrants", [6, 5])
def test_four_play_replaces_the_eliminated_with_the_next_billed(deck, entrants):
    """9.e.iii: "Use Three-For-All rules with four wrestlers; Replace eliminated wrestlers to
    extend the match"; rulings: "four in the ring (the first four billed) ... the next billed
    enters at Start". SIGNATURE 12. FAC 1: A 12, pin on the last billed in the ring, D (F):
    22 x3, D out (D, by A, pin, FAC 1); E enters. FAC 2: B, C, E tied at 0 -> B: 12, pin on
    the last billed of C and E: E (AAA) kicks out with 22. Had the sixth man F (grade F) come
    in instead, or nobody (the pin then on C, grade F), 22 x3 would have pinned him. Six
    entrants through the engine's four_play mode, five through battle_royale("four_play")."""
    deck([card("SIGNATURE", 12)], guard=2)
    grades = ("B", "B", "F", "F", "AAA", "F")
    field = tuple(wrestler(n, g) for n, g in zip("abcdef", grades))[:entrants]
    dice = ScriptedDice(FAIL_F + [2, 2])
    if entrants == 6:
        result = engine.resolve(Setup("m", field, HOTBOX, mode="four_play", ring=4, storylines=False), dice)
    else:
        result = royale.battle_royale(Setup("m", field, HOTBOX, storylines=False), "four_play", dice, 12)
    assert result.eliminations == [(3, 0, "pin", 1)]
    zeros = (0,) * (entrants - 2)
    assert moves(result) == [(0, (12, 0) + zeros), (1, (12, 12) + zeros)]
    assert defenders(result) == ["D"] * 3 + ["E"] and dice.remaining == 0


# 6. Quick-Play (9.e.ii) ----------------------------------------------------------------------

def test_quick_play_rounds_redraws_and_the_final_two(deck):
    """9.e.ii: "Draw FACs for each wrestler; Eliminate those who fail to score until two
    remain"; rulings: scores "if he could perform it alone at the Start space (TV Move,
    Signature, Grudge and TRAILING always; a skill card if his symbol is a star or the Start
    space's shape)"; Wild Cards are drawn again; "unless that would leave fewer than two: then
    the round does not count"; "The last two wrestle a full match."
    Deck [AGILE, TRAILING 15, WILD]. A has no skills, B AGILE on a square, C none.
    Round 1: A d3=2 TRAILING: scores (left [AGILE, WILD]); B d2=1 AGILE: square, Start is a
    circle: fails (left [WILD]); C: WILD (no die), drawn again: deck gathered, d3=1 AGILE:
    fails (left [WILD, TRAILING]). B and C failing would leave one: the round does not count.
    Round 2: A d2=1 WILD, again: TRAILING (no die): scores; B gathered d3=2 TRAILING: scores;
    C d2=1 AGILE: fails: C is out. Final A vs B: reel 1, 1, 1; d3=2 TRAILING, tied: the
    underdog B, 0 -> 15, finisher 1, 1 = 11 in 11-33; post reel 1, 1, 1. B (side 1) wins."""
    deck([card("AGILE", 1), card("TRAILING", 15), {**card("WILD_CARD", "none"), "points": "none"}])
    field = (wrestler("a", "A"), wrestler("b", "B", {"AGILE": "square"}), wrestler("c", "C"))
    dice = ScriptedDice([2, 1, 1, 1, 2, 1] + [1, 1, 1, 2, 1, 1, 1, 1, 1])
    result = royale.battle_royale(Setup("m", field, HOTBOX), "quick_play", dice, 12)
    assert [side for side, *_ in result.eliminations] == [2, 0]
    assert (result.winner, result.method, result.facs) == (1, "finisher", 1)
    assert result.positions == [0, 15, 0]
    assert len(purposes(result, "quick-play")) == 6 and dice.remaining == 0


def test_quick_play_a_circle_skill_scores_at_start(deck):
    """9.e.ii, rulings: "a skill card if his symbol is a star or the Start space's shape"
    (Start is a circle, track.yaml). One AGILE card worth 15: round 1 A (circle) and B (star)
    score, C (no AGILE) fails and is out (no dice: a deck of one). Final A vs B: reel 1, 1, 1;
    tied, A (favored) performs on the circle Start: 15, finisher 1, 1 = 11; reel 1, 1, 1."""
    deck([card("AGILE", 15)])
    field = (wrestler("a", "A", {"AGILE": "circle"}), wrestler("b", "B", {"AGILE": "star"}), wrestler("c", "C"))
    dice = ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1])
    result = royale.battle_royale(Setup("m", field, HOTBOX), "quick_play", dice, 12)
    assert [side for side, *_ in result.eliminations] == [2, 1]
    assert (result.winner, result.method, result.facs) == (0, "finisher", 1)
    assert result.positions == [15, 0, 0] and dice.remaining == 0


# 7. Match-Up (9.e.i) -------------------------------------------------------------------------

def test_match_up_pairs_in_billing_order_with_a_bye(deck):
    """9.e.i: "Pair wrestlers for mini-matches; Winners advance until two remain for a full
    match"; rulings: "pairs in billing order (an odd man out has a bye)", a mini-match "has no
    storylines and ends at the first pin, finisher, or token reaching mini_match_to".
    Five wrestlers, SIGNATURE 3, mini_match_to 6. Each mini-match: the first billed 3, the
    other 3, the first billed 6: over the top rope at its FAC 3 ("reached"). Round 1: A beats
    B, C beats D, E has the bye; round 2: A beats C, E has the bye. Final A vs E with
    storylines (1, 1, 1 and 1, 1, 1): A 3, E 3, A 6, E 6, A 9, E 9, A 12 at FAC 7, pin on E
    (F): 22 x3. A wins."""
    deck([card("SIGNATURE", 3)])
    field = tuple(wrestler(n, "F") for n in "abcde")
    dice = ScriptedDice([1, 1, 1] + FAIL_F + [1, 1, 1])
    result = royale.battle_royale(Setup("m", field, HOTBOX), "match_up", dice, 6)
    assert result.eliminations == [(1, 0, "reached", 3), (3, 2, "reached", 3), (2, 0, "reached", 3), (4, 0, "pin", 7)]
    assert (result.winner, result.method, result.facs) == (0, "pin", 7)
    assert result.positions == [12, 0, 0, 0, 9]
    assert dice.remaining == 0


# 8. Increased kickouts (10.g) ----------------------------------------------------------------

@pytest.mark.parametrize("first, second", [(12, 2), (13, 1)])
def test_increased_kickouts_chips_then_a_grade_lower(deck, first, second):
    """10.g: "Place chips on the first two PIN spaces. Use AAA kickout range (11-43) for these
    spaces; For unchipped spaces, reduce defender's kickout range by one TV Grade per chip on
    their card"; rulings: the chip moves to the defender's card when he kicks out on it.
    Deck [MEAN first, MEAN second], only A has MEAN; B is grade B (11-26). d2=1: A 0 ->
    `first` (chipped): 4, 3 = 43 is inside AAA's 11-43: kickout. MEAN second (no die): A
    -> 14, unchipped: B reads C (11-23): 2, 5 = 25 three times, no kickout (B's own 26 would
    have kicked out). A wins by pin at FAC 2."""
    deck([card("MEAN", first), card("MEAN", second)], guard=4)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b", "B"))
    dice = ScriptedDice([1, 4, 3, 2, 5, 2, 5, 2, 5])
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False, options=Options(increased_kickouts=True)), dice)
    assert moves(result) == [(0, (first, 0)), (0, (14, 0))]
    assert (result.winner, result.method, result.facs) == (0, "pin", 2)
    assert defenders(result) == ["B"] * 4 and dice.remaining == 0


def test_increased_kickouts_two_chips_two_grades(deck):
    """10.g.ii: "reduce defender's kickout range by one TV Grade per chip on their card". Deck
    [MEAN 12, MEAN 1, MEAN 1], only A has MEAN; B is grade A (11-33). d3=1: A 12 (chipped):
    43 in AAA, kickout, chip 1 to B; d2=1: A 13 (chipped): 43 again, chip 2; last card: A 14,
    unchipped: A two grades lower is C (11-23): 25 x3 fails (with one chip, B's 26, it would
    not). A wins by pin at FAC 3."""
    deck([card("MEAN", 12), card("MEAN", 1, "m1"), card("MEAN", 1, "m2")], guard=5)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b", "A"))
    dice = ScriptedDice([1, 4, 3, 1, 4, 3, 2, 5, 2, 5, 2, 5])
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False, options=Options(increased_kickouts=True)), dice)
    assert moves(result) == [(0, (12, 0)), (0, (13, 0)), (0, (14, 0))]
    assert (result.winner, result.method, result.facs) == (0, "pin", 3)
    assert defenders(result) == ["B"] * 5 and dice.remaining == 0


def test_increased_kickouts_never_read_below_f(deck):
    """Rulings (10.g): later pins read his grade one lower per chip "(never below F)". B is F.
    Deck [MEAN 12, MEAN 2], only A: d2=1, A 12 (chipped): 43 in AAA, kickout, chip to B. A 14:
    F stays F: 1, 1 = 11 kicks out. The guard of 2 FACs ends it."""
    deck([card("MEAN", 12), card("MEAN", 2)], guard=2)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b", "F"))
    dice = ScriptedDice([1, 4, 3, 1, 1])
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False, options=Options(increased_kickouts=True)), dice)
    assert (result.method, result.positions) == ("time_limit", [14, 0])
    assert defenders(result) == ["B", "B"] and dice.remaining == 0


# 9. Chairs, tables and ladders (10.b) --------------------------------------------------------

@pytest.mark.parametrize("use, expected", [("always", 10), ("never", 8), ("when_trailing", 8)])
def test_an_object_on_a_chipped_space_moves_and_adds_the_bonus(deck, use, expected):
    """10.b: "If a wrestler lands exactly on the space, they gain the object; Roll 1d6 and move
    forward that many spaces; Wrestler can use object for additional effects"; rulings: the
    bonus (2) is added to his next scoring FAC when his plan's use_object says so. Chip on 3,
    MEAN 3 (only A): FAC 1 A 0 -> 3 exactly: object, 1d6 = 2: 5. FAC 2: 5 + 3 (+2 always) =
    10; with never, 8; when_trailing, 8 (A leads 5-0, he keeps it)."""
    deck([card("MEAN", 3)], guard=2)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b"))
    options = Options(objects=True, object_spaces=(3,), object_bonus=2)
    dice = ScriptedDice([2])
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False, options=options, plans=(Plan(use_object=use), Plan())), dice)
    assert [ln.positions for ln in result.lines if ln.kind == "object"][-1] == (5, 0)
    assert result.positions == [expected, 0] and dice.remaining == 0


# 10. Advanced tag table and refreshment (10.c) -----------------------------------------------

@pytest.mark.parametrize("first, second, expected, tagged", [
    (2, 1, [3, 1], "A Two"),  # hot tag: A's team +1 and tags; refreshment: B's team back one
    (3, 2, [2, 2], None),
    (2, 3, [2, 2], None),
    (3, 4, [1, 2], "B Two"),  # B tags; A's team back one
    (2, 5, [1, 2], "B Two"),
    (3, 6, [1, 3], "B Two"),  # double-team: B +1 and tags; A's team back one
])
def test_the_advanced_tag_table_with_refreshment(deck, first, second, expected, tagged):
    """10.c.i: "When points are scored in a tag match, roll 1d6: 1: Hot Tag: Non-scoring team
    scores 1 point; 2-3: No tag; 4-5: Offensive team tags; 6: Double-team maneuver: Score 1
    additional point and switch wrestlers"; 10.c.ii: "When a tag occurs, move the other team's
    token back one space". SIGNATURE 2: FAC 1 tied: A's team 2, roll `first` (2 or 3: no
    tag, B's team at 0 anyway); FAC 2 B's team trails: 2, roll `second`."""
    deck([card("SIGNATURE", 2)], guard=2)
    a, b, a2, b2 = wrestler("a"), wrestler("b"), wrestler("a two"), wrestler("b two")
    options = Options(advanced_tag=True, refreshment=True)
    dice = ScriptedDice([first, second])
    result = engine.resolve(Setup("m", (a, b), HOTBOX, partners=(a2, b2), options=options, storylines=False), dice)
    assert result.positions == expected
    switches = [ln.text for ln in result.lines if ln.kind == "tag" and "tags out to" in ln.text]
    assert switches == ([f"{tagged[0]} tags out to {tagged}."] if tagged else [])
    assert len(purposes(result, "tag")) == 2 and dice.remaining == 0


def test_refreshment_with_the_plain_tag_rule(deck):
    """10.c.ii: "Refreshment Effect: When a tag occurs, move the other team's token back one
    space" with 9.c's "When a wrestler scores, they tag out to their partner" (no tag table).
    SIGNATURE 2: FAC 1 tied: A's team 2, tags; B's team at Start stays 0. FAC 2 B's team 2,
    tags; A's back to 1. FAC 3 A's team trails (1 < 2): 3, tags; B's back to 1."""
    deck([card("SIGNATURE", 2)], guard=3)
    a, b, a2, b2 = wrestler("a"), wrestler("b"), wrestler("a two"), wrestler("b two")
    dice = ScriptedDice([])
    result = engine.resolve(Setup("m", (a, b), HOTBOX, partners=(a2, b2), options=Options(refreshment=True), storylines=False), dice)
    assert moves(result) == [(0, (2, 0)), (1, (2, 2)), (0, (3, 2))]  # each move before its tag
    assert result.positions == [3, 1] and dice.remaining == 0


# 11. Ref bump (10.e) -------------------------------------------------------------------------

@pytest.mark.parametrize("mode, faces, method, facs", [
    ("downed", [1, 1, 1, 1], "finisher", 3),  # FAC 2's pin is not counted; FAC 3 finisher 11
    ("fac", [1, 1] + FAIL_F, "pin", 2),       # the ref is up again at FAC 2: B is pinned
])
def test_a_downed_referee_counts_no_pin_during_the_next_fac(deck, mode, faces, method, facs):
    """10.e: "Can be scripted", "May allow for temporary rule-breaking without consequence";
    rulings: `ref_bump_at: N` puts the ref bump at FAC N (reel K, 2d6: 1, 1, quiet); `downed`
    keeps the referee down for the next FAC: "no pin is counted". MEAN 12, only A: FAC 2 A
    0 -> 12: no count (downed), so FAC 3 A -> 15 and the finisher 1, 1 = 11 wins. With `fac`
    the pin at FAC 2 counts: B (F) 22 x3."""
    deck([card("MEAN", 12)], guard=4)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b", "F"))
    dice = ScriptedDice(faces)
    setup = Setup("m", field, HOTBOX, storylines=False, ref_bump_at=1, options=Options(ref_bump=mode))
    result = engine.resolve(setup, dice)
    assert (result.winner, result.method, result.facs) == (0, method, facs)
    assert defenders(result) == ([] if mode == "downed" else ["B"] * 3) and dice.remaining == 0


def test_a_downed_referee_lets_cheat_cards_score_double(deck):
    """10.e.iv "temporary rule-breaking without consequence"; rulings: while the referee is
    down (the FAC after the bump) "CHEAT cards score double". Bump at FAC 1 (reel K 1, 1,
    quiet); CHEAT 2, only A: FAC 2 2 x 2 = 4; FAC 3 the referee is up: +2 = 6."""
    deck([card("CHEAT", 2)], guard=3)
    field = (wrestler("a", "A", {"CHEAT": "star"}), wrestler("b"))
    dice = ScriptedDice([1, 1])
    setup = Setup("m", field, HOTBOX, storylines=False, ref_bump_at=1, options=Options(ref_bump="downed"))
    result = engine.resolve(setup, dice)
    assert moves(result) == [(0, (4, 0)), (0, (6, 0))] and dice.remaining == 0


# 12. Calling for help (rulings) --------------------------------------------------------------

@pytest.mark.parametrize("chart, roll, expected", [
    ("normal", 1, 9), ("normal", 2, 8), ("normal", 4, 6), ("normal", 6, 4),
    ("cage", 1, 7), ("cage", 3, 7), ("cage", 5, 5),
])
def test_call_for_help_once_and_halved_in_a_cage(deck, chart, roll, expected):
    """Rulings: "Once a match, at the end of a FAC, a wrestler whose plan says at_once ...
    calls: 1d6 on the help table (his ally runs in for +2 or +3, or nothing, or his foe cuts
    the help off for -1 or -2). Inside a cage the good results are halved (9.b)" (help table:
    1 +3, 2 +2, 3 +2, 4 0, 5 -1, 6 -2). MEAN 3, only A: FAC 1 A 3, then the call; FAC 2 A
    +3, no second call. Normal: 3+3+3 = 9, 3+2+3 = 8, 3+0+3 = 6, 3-2+3 = 4; cage: +3 -> 1 and
    +2 -> 1 (halved, down): 7; -1 is not halved: 5."""
    deck([card("MEAN", 3)], guard=2)
    field = (wrestler("a", "A", {"MEAN": "star"}), wrestler("b"))
    dice = ScriptedDice([roll])
    setup = Setup("m", field, HOTBOX, chart=chart, storylines=False, plans=(Plan(call_for_help="at_once"), Plan()))
    result = engine.resolve(setup, dice)
    assert result.positions == [expected, 0]
    assert len([ln for ln in result.lines if ln.kind == "help"]) == 1 and dice.remaining == 0


@pytest.mark.parametrize("points, at_fac, expected", [(3, 1, [3, 6]), (2, 2, [3, 4])])
def test_call_for_help_when_trailing_by_three(deck, points, at_fac, expected):
    """Rulings: "when_trailing when he trails the leader by 3 spaces or more", once a match.
    MEAN `points`, only B. With 3: after FAC 1 A trails 0-3: he calls, 1d6 = 1: +3 -> 3; FAC 2
    B 6, A trails by 3 again but has called. With 2: after FAC 1 he trails by 2, no call;
    FAC 2 B 4, trails by 4: calls, +3 -> 3."""
    deck([card("MEAN", points)], guard=2)
    field = (wrestler("a", "A"), wrestler("b", "B", {"MEAN": "star"}))
    dice = ScriptedDice([1])
    setup = Setup("m", field, HOTBOX, storylines=False, plans=(Plan(call_for_help="when_trailing"), Plan()))
    result = engine.resolve(setup, dice)
    assert [ln.fac for ln in result.lines if ln.kind == "help"] == [at_fac]
    assert result.positions == expected and dice.remaining == 0


# 13. Interview segments (10.d) ---------------------------------------------------------------

@pytest.mark.parametrize("faces, league", [
    ([3, 4, 4], (0, "tv", 1)),       # reel I, event 8: {favored}'s catchphrase, tv +1
    ([4, 4, 4], (0, "grudge", 1)),   # reel J, event 8: {foe} barges in behind {favored}, grudge +1
    ([1, 1, 2], (0, "tv", -1)),      # reel I, event 3: {favored}'s rambling promo, tv -1
    ([6, 6, 6], (1, "tv", 1)),       # reel J, event 12: {ally} vouches for {underdog}, tv +1
])
def test_an_interview_segment_reads_reel_i_or_j(faces, league):
    """10.d: "Use Highlight Reels 'I' and 'J' to generate interview segments between
    matches"; rulings: "1d6 picks reel I (1-3) or J (4-6), 2d6 the event; the players' promos
    are read out; the effects are the league's only". Events from the shipped reels."""
    a, b = wrestler("a", "A"), wrestler("b", "C")
    dice = ScriptedDice(faces)
    lines, effects = royale.interview((a, b), ("Two of you? Bring a third.", "I'm ready."), HOTBOX, dice)
    texts = "\n".join(ln.text for ln in lines)
    assert "Two of you? Bring a third." in texts and "I'm ready." in texts
    assert [tuple(e[:3]) for e in effects] == [league]
    assert dice.remaining == 0


@pytest.mark.parametrize("rolls, expected", [([3, 5, 2], [0, 5, 0]), ([5, 5, 2], [0, 0, 0]), ([1, 2, 6], [0, 0, 6])])
def test_test_of_strength_among_three(deck, rolls, expected):
    """Rulings: "Test of Strength with more than two: each in the ring rolls 1d6 in billing
    order; a single highest roll moves that many spaces, a tie at the top moves nobody"."""
    deck([{**card("TEST_OF_STRENGTH", 1), "rule": "Both roll 1d6."}], guard=1)
    field = (wrestler("a"), wrestler("b"), wrestler("c"))
    dice = ScriptedDice(rolls)
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), dice)
    assert result.positions == expected and dice.remaining == 0


def test_an_interview_segment_favors_the_better_tv_grade():
    """highlight_reels.yaml: on reels I and J "{favored} and {underdog} are the two wrestlers in
    the segment (the better TV grade is favored)". C (grade C) passed first, A (grade A)
    second: 3 -> reel I, 4, 4 = 8: "{favored} drops a catchphrase", tv +1 for A, side 1."""
    dice = ScriptedDice([3, 4, 4])
    lines, effects = royale.interview((wrestler("c", "C"), wrestler("a", "A")), ("", ""), HOTBOX, dice)
    assert [tuple(e[:3]) for e in effects] == [(1, "tv", 1)]
