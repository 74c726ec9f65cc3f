"""Hand-computed checks of MatchMatch Part IV (IV.1 pre-match bookkeeping, IV.2 rounds).

Every expected figure below was worked out by hand from the rulebook
(/work/shared/rules/001_cc6d7bfeac840419.txt), never from the engine; each test quotes
the passage it checks.

Dice order (each round), as the scripted faces are listed:
  style d6 (again while it shows more than the number of table styles)
  | side 1: 3d6, High Risk extra d6s, DQ 2d6, Vile Cheat 2d6
  | side 2: the same
  | injury checks 3d6 (side 1 first, only when required)
  | victory check 3d6 (round winner; on a tie side 1 then side 2).
`run` fails if any scripted face is left over, so each test also pins the roll count.

The two standard wrestlers (all defenses 0 unless a test says otherwise):

              Tech Pow  MA  Brawl HF  Wt  Cheat Team  Stamina
    Alpha       5    4   3    2    6   5    7    1      10     (side 1, index 0)
    Bravo       3    6   5    4    2   3    1    0      10     (side 2, index 1)

Standard strategies: Alpha +Technical +Power -Teamwork, grid letter A; Bravo
+Martial Arts +Brawling -Teamwork, grid number 1; the grid holds High Flying everywhere.
So the style table is [Technical, Power, Martial Arts, Brawling, High Flying] and a style
die of 1 picks Technical (Alpha 5, Bravo 3). "-" Teamwork changes nothing that matters
(Alpha 1 -> ceil(1/2) = 1, Bravo 0 -> 0, and Teamwork is not in the table).

Victory-check shorthand used in the comments: Alpha checking against Bravo gets +1 for
Weight (5 > 3); Bravo checking against Alpha gets no Weight bonus (3 < 5). None of the
standard table styles is 0 for either wrestler.
"""

from __future__ import annotations

import pytest

from fedtool.rulesets.matchmatch import engine
from mm_builders import make_setup, make_sheet, make_strategy, run, uniform_grid, with_changes

TECH, POW, MA, BRAWL, HF, WT, CHEAT, TEAM = (
    "technical", "power", "martial_arts", "brawling", "high_flying", "weight", "cheating", "teamwork",
)
STAM = "stamina"
STANDARD_TABLE = [TECH, POW, MA, BRAWL, HF]

ALPHA = make_sheet(
    "alpha",
    stamina=10,
    styles={TECH: 5, POW: 4, MA: 3, BRAWL: 2, HF: 6, WT: 5, CHEAT: 7, TEAM: 1},
)
BRAVO = make_sheet(
    "bravo",
    stamina=10,
    styles={TECH: 3, POW: 6, MA: 5, BRAWL: 4, HF: 2, WT: 3, CHEAT: 1, TEAM: 0},
)


def _actions(spec):
    """'normal' -> one Normal round at Stamina; a list of (type, target) is kept."""
    if isinstance(spec, str):
        return [(spec, STAM)]
    return list(spec)


def duel(
    a,
    b,
    faces,
    *,
    alpha=ALPHA,
    bravo=BRAVO,
    a_plus=(TECH, POW),
    a_minus=TEAM,
    b_plus=(MA, BRAWL),
    b_minus=TEAM,
    grid=None,
    rounds=None,
    **setup_kwargs,
):
    """Alpha (side 1, letter A) against Bravo (side 2, number 1), resolved on `faces`."""
    a_actions, b_actions = _actions(a), _actions(b)
    setup = make_setup(
        alpha,
        make_strategy(a_plus, a_minus, "A", a_actions),
        bravo,
        make_strategy(b_plus, b_minus, "1", b_actions),
        grid or uniform_grid(HF),
        rounds=rounds or len(a_actions),
        **setup_kwargs,
    )
    return run(setup, faces)


# ---------------------------------------------------------------------------
# IV.1.a  The list of styles
# ---------------------------------------------------------------------------

PART_VI_GRID = [
    # A     B    C
    [POW, TECH, BRAWL],  # 1
    [WT, MA, HF],  # 2
    [BRAWL, MA, CHEAT],  # 3
]


def test_style_table_is_both_sides_plus_styles_then_the_grid_style():
    """III.1: "The intersection of the chosen letter and number is a style that will be
    added to the "+" styles chosen by each side." / "any given match will have 5 "+"
    styles, 2 from each side and one from the grid."

    Part VI: Bob (first name) +Cheat +Brawl grid C, Sam +High Flying +Technical grid 2:
    "1. Cheat 2. Brawl 3. High Flying 4. Technical 5. High Flying (from the grid - C-2)".
    """
    bob = make_strategy((CHEAT, BRAWL), MA, "C", [("normal", STAM)])
    sam = make_strategy((HF, TECH), BRAWL, "2", [("normal", STAM)])
    setup = make_setup(ALPHA, bob, BRAVO, sam, PART_VI_GRID)
    assert setup.style_table() == [CHEAT, BRAWL, HF, TECH, HF]


def test_style_table_reports_standard_five_styles_in_result():
    """IV.1.a: "There should be 5 styles for a standard match."  Style die 1 -> Technical.

    Alpha 1+1+2=4 +5 = 9; Bravo 1+1+1=3 +3 = 6; Alpha wins by 3 -> 1 damage to Stamina.
    Check 1+1+1 = 3 +1 (Weight) -9 (Stamina) -5 (styles) = -10: no count; time limit.
    """
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1])
    assert result.style_table == STANDARD_TABLE
    assert result.rounds[0].style == TECH
    assert result.rounds[0].style_faces == [1]


def test_style_die_six_rolls_again_with_five_styles():
    """IV.1.a: table "1 Power 2 Power 3 Cheat 4 High-Fly 5 Tech 6 Roll again".

    Style dice 6, 6, 3: two re-rolls, then entry 3 = Martial Arts (Alpha 3, Bravo 5).
    Alpha 1+1+1 +3 = 6; Bravo 1+1+1 +5 = 8; Bravo wins by 2 -> 1 damage, Alpha Stamina 9.
    Bravo's check 1+1+1 = 3 +0 -9 -5 = -11.
    """
    result = duel("normal", "normal", [6, 6, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.style_faces == [6, 6, 3]
    assert rnd.style == MA
    assert [s.total for s in rnd.sides] == [6, 8]
    assert rnd.winner == 1
    assert result.final_stamina == [9, 10]
    assert rnd.checks[0].total == -11


def test_duplicated_style_fills_two_table_slots():
    """IV.1.a: "If a style was selected multiple times, it should have a greater chance of
    beings selected: EG. If the Styles are Power, Power, Cheat, High-Fly and Tech" the
    table is "1 Power 2 Power 3 Cheat ...".

    Alpha +Power +Cheating, Bravo +Power +Technical, grid High Flying:
    table [Power, Cheating, Power, Technical, High Flying]; style die 3 -> Power.
    Alpha 1+1+1 +4 = 7; Bravo 1+1+1 +6 = 9; Bravo by 2 -> 1 damage, Alpha Stamina 9.
    Bravo's check 3 +0 -9 -5 = -11.
    """
    result = duel(
        "normal", "normal", [3, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        a_plus=(POW, CHEAT), b_plus=(POW, TECH),
    )
    assert result.style_table == [POW, CHEAT, POW, TECH, HF]
    assert result.rounds[0].style == POW
    assert [s.total for s in result.rounds[0].sides] == [7, 9]


def test_tag_match_adds_teamwork_as_sixth_style_and_six_is_not_a_reroll():
    """IV.1.a: "If the match is a tag match, then Teamwork is automatically added." and the
    tag table ends "6 Teamwork".  IV.2.f: "Subtract the number of selected Styles
    (usually 5, or 6 for tag matches)."

    Style die 6 -> Teamwork (Alpha 1, after Bravo's "-" ceil(1/2) = 1; Bravo 0).
    Alpha 1+1+1 +1 = 4; Bravo 1+1+1 +0 = 3; Alpha by 1 -> 1 damage, Bravo Stamina 9.
    Alpha's check 3 +1 (Weight) +1 (Bravo's Teamwork, a table style, is 0) -9 -6 = -10.
    """
    result = duel("normal", "normal", [6, 1, 1, 1, 1, 1, 1, 1, 1, 1], tag=True)
    assert result.style_table == STANDARD_TABLE + [TEAM]
    rnd = result.rounds[0]
    assert rnd.style_faces == [6]
    assert rnd.style == TEAM
    assert [s.total for s in rnd.sides] == [4, 3]
    assert result.final_stamina == [10, 9]
    assert rnd.checks[0].total == -10


# ---------------------------------------------------------------------------
# IV.1.b  "-" halving
# ---------------------------------------------------------------------------


def test_minus_style_halves_the_opponent_rounded_up_and_not_the_chooser():
    """IV.1.b: "If the other side chose a style as a "-" style, immediately reduce the
    style to 1/2 it's original value, rounded up."  III.1: "the "-" only affects your
    opponent."

    Alpha Power 6, Brawling 5; Bravo Power 7, Brawling 2. Alpha "-" Power, Bravo "-" Brawling.
    Bravo's Power 7 -> 4; Alpha's Brawling 5 -> 3; Alpha's own Power stays 6 and
    Bravo's own Brawling stays 2.
    Style die 1 -> Power: Alpha 1+1+1 +6 = 9; Bravo 1+1+1 +4 = 7; Alpha by 2 -> 1 damage.
    Alpha's check 3 +1 (Weight 5 > 3) -9 -5 = -10.
    """
    alpha = with_changes(ALPHA, styles={POW: 6, BRAWL: 5})
    bravo = with_changes(BRAVO, styles={POW: 7, BRAWL: 2})
    result = duel(
        "normal", "normal", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        alpha=alpha, bravo=bravo,
        a_plus=(POW, BRAWL), a_minus=POW, b_plus=(POW, BRAWL), b_minus=BRAWL,
    )
    assert result.start_styles[1][POW] == 4
    assert result.start_styles[0][BRAWL] == 3
    assert result.start_styles[0][POW] == 6
    assert result.start_styles[1][BRAWL] == 2
    rnd = result.rounds[0]
    assert rnd.style == POW
    assert [s.style_value for s in rnd.sides] == [6, 4]
    assert [s.total for s in rnd.sides] == [9, 7]
    assert rnd.checks[0].total == -10


# ---------------------------------------------------------------------------
# IV.2.b  Attack values
# ---------------------------------------------------------------------------

# Alpha rolls 1,1,2 = 4 on Technical 5 -> 9 before the type's bonus; Bravo 1,1,1 +3 = 6.
# (type, Alpha total, damage dealt, victory-check total)
#   normal      9 +0 =  9, by 3 -> 1;          check 3 +1 -9 -5        = -10
#   defensive   9 +3 = 12, by 6 -> 2, -1 = 1;  check 3 +1 -9 -5        = -10
#   finisher    9 +4 = 13, by 7 -> 2;          check 3 +1 +2 -8 -5     =  -7
#   high_impact 9 +1 = 10, by 4 -> 1 +1 = 2;   check 3 +1 +2 -8 -5     =  -7
#   high_spot   9 +2 = 11, by 5 -> 2;          check 3 +1 -8 -5        =  -9
#   submission  9 +0 =  9, by 3 -> 1;          check 3 +1 +4 -9 -5     =  -6
#   cripple     9 +0 =  9, by 3 -> 1;          (injury check, see below) check 3 +1 -9 -5 = -10
BONUS_CASES = [
    ("normal", 9, 1, -10),
    ("defensive", 12, 1, -10),
    ("finisher", 13, 2, -7),
    ("high_impact", 10, 2, -7),
    ("high_spot", 11, 2, -9),
    ("submission", 9, 1, -6),
    ("cripple", 9, 1, -10),
]


def _bonus_faces(type_id):
    faces = [1, 1, 1, 2, 1, 1, 1]
    if type_id == "cripple":
        faces += [1, 1, 1]  # Cripple: injury check on any damage
    return faces + [1, 1, 1]  # Alpha's victory check


@pytest.mark.parametrize("type_id, total, dealt, check", BONUS_CASES, ids=[c[0] for c in BONUS_CASES])
def test_round_type_attack_bonus(type_id, total, dealt, check):
    """IV.2.b: "The basic attack value for a side is 3d6 ... plus the side's value for the
    round style."  "If the round is defensive, add +3" / "finisher, add +4" / "High Impact
    move, add +1" / "high spot, add +2"; IV.3 table: Normal 0, Cripple 0, Submission 0."""
    result = duel(type_id, "normal", _bonus_faces(type_id))
    rnd = result.rounds[0]
    assert rnd.sides[0].total == total
    assert rnd.sides[1].total == 6
    assert rnd.winner == 0
    assert rnd.margin == total - 6
    assert rnd.hits[0].dealt == dealt
    assert result.final_stamina == [10, 10 - dealt]


@pytest.mark.parametrize("type_id, total, dealt, check", BONUS_CASES, ids=[c[0] for c in BONUS_CASES])
def test_round_type_pin_bonus(type_id, total, dealt, check):
    """IV.2.f: "If the winner's round was a Finisher, add +2." / "High Impact, add +2." /
    "Submission, add +4." (no bonus for the others)."""
    result = duel(type_id, "normal", _bonus_faces(type_id))
    assert len(result.rounds[0].checks) == 1
    assert result.rounds[0].checks[0].side == 0
    assert result.rounds[0].checks[0].total == check
    assert result.rounds[0].checks[0].count == 0


def test_high_risk_six_counts_zero():
    """IV.2.b: "In a high risk round ... An original 6 counts for 0."

    Alpha High Risk 6,6,1 -> 0+0+1 = 1, +5 = 6. Bravo 2,2,2 +3 = 9; Bravo by 3 -> 1
    damage, Alpha Stamina 9. Bravo's check 3 +0 -9 -5 = -11.
    """
    result = duel("high_risk", "normal", [1, 6, 6, 1, 2, 2, 2, 1, 1, 1])
    side = result.rounds[0].sides[0]
    assert side.extra == []
    assert side.counted == 1
    assert side.total == 6
    assert result.rounds[0].winner == 1
    assert result.final_stamina == [9, 10]


def test_high_risk_three_rolls_again_and_adds():
    """IV.2.b: "An original roll of "3" means roll again and add 3."

    Alpha High Risk 3,1,2 + extra d6 4 -> (3+4)+1+2 = 10, +5 = 15.
    Bravo 1,1,1 +3 = 6; Alpha by 9 -> 2 damage, Bravo Stamina 8.
    Alpha's check 3 +1 -8 -5 = -9.
    """
    result = duel("high_risk", "normal", [1, 3, 1, 2, 4, 1, 1, 1, 1, 1, 1])
    side = result.rounds[0].sides[0]
    assert list(side.extra) == [4]
    assert side.counted == 10
    assert side.total == 15
    assert result.final_stamina == [10, 8]
    assert result.rounds[0].checks[0].total == -9


def test_high_risk_extra_die_is_normal_six_counts_six_three_no_reroll():
    """IV.2.b: "This extra roll is a normal one -- a 6 counts 6, and a 3 counts 3."

    Alpha High Risk 3,3,5; extra d6 for the first 3 is 6, for the second 3 is 3 (no
    further roll): (3+6)+(3+3)+5 = 20, +5 = 25. Bravo 6,6,5 = 17 +3 = 20.
    Alpha by 5 -> 2 damage, Bravo Stamina 8. Alpha's check 3 +1 -8 -5 = -9.
    Exactly 2 extra dice are rolled (the scripted faces run out otherwise / are left).
    """
    result = duel("high_risk", "normal", [1, 3, 3, 5, 6, 3, 6, 6, 5, 1, 1, 1])
    side = result.rounds[0].sides[0]
    assert list(side.extra) == [6, 3]
    assert side.counted == 20
    assert side.total == 25
    assert result.rounds[0].sides[1].total == 20
    assert result.final_stamina == [10, 8]
    assert result.rounds[0].checks[0].total == -9


def test_high_risk_for_side_two_rolls_its_extra_die_after_its_own_three_dice():
    """IV.2.b High Risk, for the second side: 3,6,1 + extra 2 -> (3+2)+0+1 = 6, +3 = 9.

    Alpha Normal 1,1,1 +5 = 8. Bravo by 1 -> 1 damage, Alpha Stamina 9.
    Bravo's check 3 +0 -9 -5 = -11.
    """
    result = duel("normal", "high_risk", [1, 1, 1, 1, 3, 6, 1, 2, 1, 1, 1])
    side = result.rounds[0].sides[1]
    assert list(side.extra) == [2]
    assert side.counted == 6
    assert side.total == 9
    assert result.rounds[0].winner == 1
    assert result.final_stamina == [9, 10]


def test_illegal_adds_two_d6_when_under_threshold():
    """IV.2.b: "In an illegal round, two extra d6 are rolled and added to the total."
    IV.2.c: "If it is less than that value, the wrestler is not DQ'ed, the total rolled is
    added to his attack for the round, and his threshold is reduced by 1."

    Alpha Illegal 1,1,1 +5 = 8, DQ dice 2,3 = 5 < 10 -> +5 = 13; threshold 10 -> 9.
    Bravo 1,1,1 +3 = 6; Alpha by 7 -> 2 damage, Bravo Stamina 8.
    Alpha's check 3 +1 -8 -5 = -9.
    """
    result = duel("illegal", "normal", [1, 1, 1, 1, 2, 3, 1, 1, 1, 1, 1, 1])
    side = result.rounds[0].sides[0]
    assert bytes(side.dq_faces) == bytes([2, 3])
    assert not side.disqualified
    assert side.total == 13
    assert result.dq_thresholds == [9, 10]
    assert result.final_stamina == [10, 8]
    assert result.method == "time_limit"


def test_vile_cheat_adds_dq_dice_and_another_two_d6():
    """IV.2.b: "Vile Cheat: An extra 2d6 are rolled just like in an illegal round, and DQ
    is checked. If the wrestler is not DQ'ed, then another 2d6 are rolled and added".

    Alpha Vile Cheat 1,1,1 +5 = 8; DQ dice 2,2 = 4 < 10 -> +4; further 3,4 = 7 -> 19.
    Threshold 10 -> 9. Bravo 6,6,6 +3 = 21; Bravo by 2 -> 1 damage, Alpha Stamina 9.
    Bravo's check 3 +0 -9 -5 = -11.
    """
    result = duel("vile_cheat", "normal", [1, 1, 1, 1, 2, 2, 3, 4, 6, 6, 6, 1, 1, 1])
    side = result.rounds[0].sides[0]
    assert bytes(side.dq_faces) == bytes([2, 2])
    assert bytes(side.vile_faces) == bytes([3, 4])
    assert side.total == 19
    assert result.dq_thresholds == [9, 10]
    assert result.final_stamina == [9, 10]


# ---------------------------------------------------------------------------
# IV.2.c  DQ checks and thresholds
# ---------------------------------------------------------------------------


def test_illegal_dq_when_dice_equal_default_threshold_ten():
    """IV.2.c: "each side has a DQ threshold set, which defaults to 10." / "If that total
    is greater than or equal to the threshold threshold value for that wrestler, the
    wrestler is DQ'ed."

    Alpha Illegal, DQ dice 5,5 = 10 >= 10 -> DQ. The round stops there (ruling, issue 14:
    the DQ ends the match, so Bravo's attack dice are not rolled); no damage, no injury or
    victory dice. Bravo wins by DQ in round 1.
    """
    result = duel("illegal", "normal", [1, 1, 1, 1, 5, 5])
    assert result.rounds[0].sides[0].disqualified
    assert result.rounds[0].sides[1] is None  # never attacked
    assert [purpose for _, purpose, _ in result.log] == ["round style d6", "Alpha attack 3d6", "Alpha DQ check 2d6"]
    assert result.winner == 1
    assert result.method == "dq"
    assert result.end_round == 1
    assert result.rounds[0].checks == []


def test_nine_on_dq_dice_survives_default_threshold():
    """IV.2.c: "If it is less than that value, the wrestler is not DQ'ed" (9 < 10).

    Bravo Illegal 1,1,1 +3 = 6, DQ dice 4,5 = 9 -> 15; threshold 9.
    Alpha 1,1,1 +5 = 8; Bravo by 7 -> 2 damage, Alpha Stamina 8.
    Bravo's check 3 +0 -8 -5 = -10.
    """
    result = duel("normal", "illegal", [1, 1, 1, 1, 1, 1, 1, 4, 5, 1, 1, 1])
    assert not result.rounds[0].sides[1].disqualified
    assert result.rounds[0].sides[1].total == 15
    assert result.dq_thresholds == [10, 9]
    assert result.final_stamina == [8, 10]
    assert result.rounds[0].checks[0].total == -10


def test_threshold_drops_by_one_on_each_survived_check():
    """IV.2.c: "his threshold is reduced by 1. This means that his next Illegal or Vile
    Cheat action will be more likely to result in a DQ."

    R1 Technical: Alpha Illegal 1,1,1 +5, DQ 4,5 = 9 < 10 -> 17; threshold 9.
       Bravo 6,6,6 +3 = 21, by 4 -> 1 damage (Alpha 9). Check 3 -9 -5 = -11.
    R2 Technical: Alpha Illegal 1,1,1 +5, DQ 4,4 = 8 < 9 -> 16; threshold 8.
       Bravo 21, by 5 -> 2 damage (Alpha 7). Check 3 -7 -5 = -9.
    R3: Alpha Vile Cheat, DQ 4,4 = 8 >= 8 -> DQ (no further 2d6); Bravo rolls nothing
    (the round stops at the DQ: ruling, issue 14).
    """
    faces = (
        [1, 1, 1, 1, 4, 5, 6, 6, 6, 1, 1, 1]
        + [1, 1, 1, 1, 4, 4, 6, 6, 6, 1, 1, 1]
        + [1, 1, 1, 1, 4, 4]
    )
    result = duel(
        [("illegal", STAM), ("illegal", STAM), ("vile_cheat", STAM)],
        [("normal", STAM)] * 3,
        faces,
    )
    assert [r.sides[0].total for r in result.rounds[:2]] == [17, 16]
    assert result.rounds[2].sides[0].disqualified
    assert result.rounds[2].sides[0].vile_faces is None
    assert result.winner == 1
    assert result.method == "dq"
    assert result.end_round == 3
    assert result.dq_thresholds[0] == 8
    assert result.final_stamina == [7, 10]


def test_vile_cheat_dq_on_side_two_rolls_no_further_dice():
    """IV.2.b: "If the wrestler is not DQ'ed, then another 2d6 are rolled" -- so a DQ'ed
    Vile Cheat rolls no further 2d6. Bravo's DQ dice 5,6 = 11 >= 10: Alpha wins by DQ."""
    result = duel("normal", "vile_cheat", [1, 1, 1, 1, 1, 1, 1, 5, 6])
    assert result.rounds[0].sides[1].disqualified
    assert result.rounds[0].sides[1].vile_faces is None
    assert result.winner == 0
    assert result.method == "dq"


def test_a_dq_stops_the_round_so_both_sides_cannot_be_dqed():
    """Ruling (issue 14, docs/rulings/matchmatch.md "DQ"): IV.2.c's DQ ends the match, so the
    round stops at it. Both strat Illegal; Alpha's DQ dice 5,5 = 10 reach 10: Alpha is out
    and Bravo never rolls his 3d6 or his DQ check. Bravo wins by DQ (no double DQ)."""
    result = duel("illegal", "illegal", [1, 1, 1, 1, 5, 5])
    assert (result.winner, result.method, result.end_round) == (1, "dq", 1)
    assert result.rounds[0].sides[1] is None
    assert result.dq_thresholds == [10, 10]


def test_clean_match_keeps_default_thresholds():
    """IV.2.c: the threshold "defaults to 10" and only an Illegal / Vile Cheat check moves it."""
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1])
    assert result.dq_thresholds == [10, 10]


# ---------------------------------------------------------------------------
# IV.2.d  Round winner and damage
# ---------------------------------------------------------------------------

# Alpha (Technical 5) rolls s on 3d6; Bravo rolls 1,1,1 + 3 = 6. Margin = s + 5 - 6.
#  s=5  -> by 4  -> 1        s=6  -> by 5  -> 2        s=10 -> by 9 -> 2
#  s=11 -> by 10 -> 3 (3 taken: injury check 1,1,1 = 3 -7 -3 = -7), check 3 +1 -7 -5 = -8
#  s=16 -> by 15 -> 4 (injury check 3 -6 -3 = -6), check 3 +1 -6 -5 = -7
DAMAGE_CASES = [
    ([1, 2, 2], 4, 1, False),
    ([2, 2, 2], 5, 2, False),
    ([3, 3, 4], 9, 2, False),
    ([3, 4, 4], 10, 3, True),
    ([5, 5, 6], 15, 4, True),
]


@pytest.mark.parametrize("a_faces, margin, damage, injury_check", DAMAGE_CASES, ids=[f"by{c[1]}" for c in DAMAGE_CASES])
def test_damage_is_one_plus_one_per_five_full_points(a_faces, margin, damage, injury_check):
    """IV.2.d: "The damage inflicted is 1 point, and 1 extra point for each five full
    points by which the side won the round." """
    faces = [1, *a_faces, 1, 1, 1] + ([1, 1, 1] if injury_check else []) + [1, 1, 1]
    result = duel("normal", "normal", faces)
    rnd = result.rounds[0]
    assert rnd.margin == margin
    assert rnd.hits[0].rolled == damage
    assert rnd.hits[0].dealt == damage
    assert result.final_stamina == [10, 10 - damage]
    assert len(rnd.injuries) == (1 if injury_check else 0)


def test_high_impact_adds_one_damage():
    """IV.2.d: "If the winner's round action was High Impact, he does an extra point of
    damage."

    Alpha High Impact 2,2,2 +5 +1 = 12; Bravo 6; by 6 -> 1 +1 +1 (High Impact) = 3.
    Bravo Stamina 7; 3 taken -> injury check 1,1,1: 3 -7 -3 -0 = -7 (not injured).
    Alpha's check 3 +1 (Weight) +2 (High Impact) -7 -5 = -6.
    """
    result = duel("high_impact", "normal", [1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.sides[0].total == 12
    assert rnd.hits[0].rolled == 3
    assert rnd.hits[0].dealt == 3
    assert result.final_stamina == [10, 7]
    assert rnd.injuries[0].total == -7
    assert not rnd.injuries[0].injured
    assert rnd.checks[0].total == -6


def test_style_defense_reduces_damage_but_never_below_one():
    """IV.2.d: "The damage is first reduced by 1 point for each point of style defense the
    losing side has in the round defense. The damage will never be reduced to less than 1."

    Bravo Technical-Defense 5. Alpha 3,4,4 +5 = 16 vs 6: by 10 -> 3, -5 -> floor 1.
    Reduced below 3, so no injury check. Alpha's check 3 +1 -9 -5 = -10.
    """
    bravo = with_changes(BRAVO, defenses={TECH: 5})
    result = duel("normal", "normal", [1, 3, 4, 4, 1, 1, 1, 1, 1, 1], bravo=bravo)
    rnd = result.rounds[0]
    assert rnd.hits[0].rolled == 3
    assert rnd.hits[0].dealt == 1
    assert rnd.injuries == []
    assert result.final_stamina == [10, 9]
    assert rnd.checks[0].total == -10


def test_defense_used_is_the_round_styles_not_the_targets():
    """IV.2.d: "style defense the losing side has in the round defense" (Part VI round 1:
    High Flying round, Stamina target, "Bob has 1 point of HF defense, so the damage is
    reduced to 2").

    Bravo Power-Defense 2, Technical-Defense 0; Technical round; Alpha targets Power.
    Alpha 2,2,2 +5 = 11 vs 6: by 5 -> 2, no Technical defense -> 2. Bravo Power 6 -> 4.
    Alpha's check 3 +1 -10 -5 = -11.
    """
    bravo = with_changes(BRAVO, defenses={POW: 2})
    result = duel([("normal", POW)], "normal", [1, 2, 2, 2, 1, 1, 1, 1, 1, 1], bravo=bravo)
    hit = result.rounds[0].hits[0]
    assert hit.target == POW
    assert hit.dealt == 2
    assert hit.to_style == 2
    assert hit.to_stamina == 0
    assert result.final_styles[1][POW] == 4
    assert result.final_stamina == [10, 10]


def test_defensive_winner_reduces_damage_to_zero():
    """IV.2.d: "If the winner's round action was defensive, reduce the damage by 1 point.
    This MAY reduce the damage to 0."

    Alpha Defensive 1,1,1 +5 +3 = 11; Bravo 2,2,2 +3 = 9; by 2 -> 1, -1 = 0.
    Alpha's check 3 +1 -10 -5 = -11.
    """
    result = duel("defensive", "normal", [1, 1, 1, 1, 2, 2, 2, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.winner == 0
    assert rnd.hits[0].dealt == 0
    assert result.final_stamina == [10, 10]
    assert rnd.checks[0].total == -11


def test_defensive_reduction_comes_after_the_defense_floor():
    """IV.2.d: defense first ("The damage will never be reduced to less than 1"), then
    "If the winner's round action was defensive, reduce the damage by 1 point. This MAY
    reduce the damage to 0."

    Bravo Technical-Defense 3. Alpha Defensive 1,1,3 +5 +3 = 13 vs 6: by 7 -> 2;
    defense 3 -> floor 1; Defensive -1 -> 0.
    """
    bravo = with_changes(BRAVO, defenses={TECH: 3})
    result = duel("defensive", "normal", [1, 1, 1, 3, 1, 1, 1, 1, 1, 1], bravo=bravo)
    assert result.rounds[0].hits[0].dealt == 0
    assert result.final_stamina == [10, 10]


def test_defensive_loser_gets_no_damage_reduction():
    """IV.2.d: only "If the winner's round action was defensive".

    Bravo Defensive 1,1,1 +3 +3 = 9; Alpha 2,2,2 +5 = 11; by 2 -> 1 damage to Bravo.
    """
    result = duel("normal", "defensive", [1, 2, 2, 2, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert [s.total for s in rnd.sides] == [11, 9]
    assert rnd.hits[0].dealt == 1
    assert result.final_stamina == [10, 9]


def test_tie_deals_one_each_with_no_reduction_to_the_other_sides_target():
    """IV.2.d: "If the round was a tie, then both sides take 1 point of damage with no
    reduction."  IV.2.f: "If the round was a tie, both sides check for a win".

    Bravo Technical-Defense 3 (ignored on a tie). Alpha 1,1,2 +5 = 9; Bravo 2,2,2 +3 = 9.
    Alpha targets Stamina -> Bravo Stamina 9; Bravo targets High Flying -> Alpha HF 6 -> 5.
    Alpha checks first: 3 +1 -9 -5 = -10; then Bravo: 3 +0 -10 -5 = -12.
    """
    bravo = with_changes(BRAVO, defenses={TECH: 3})
    result = duel("normal", [("normal", HF)], [1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1], bravo=bravo)
    rnd = result.rounds[0]
    assert rnd.winner is None
    assert sorted((h.side, h.target, h.dealt) for h in rnd.hits) == [(0, HF, 1), (1, STAM, 1)]
    assert result.final_stamina == [10, 9]
    assert result.final_styles[0][HF] == 5
    assert [(c.side, c.total) for c in rnd.checks] == [(0, -10), (1, -12)]


def test_tie_is_one_damage_even_for_high_impact():
    """IV.2.d: "If the round was a tie, then both sides take 1 point of damage" -- the
    High Impact extra point and Defensive reduction do not apply.

    Alpha High Impact 1,1,1 +5 +1 = 9; Bravo Defensive 1,1,1 +3 +3 = 9.
    """
    result = duel("high_impact", "defensive", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.winner is None
    assert sorted(h.dealt for h in rnd.hits) == [1, 1]
    assert result.final_stamina == [9, 9]


def test_style_damage_spills_into_stamina_and_floors_at_zero():
    """IV.2.d: "Styles may never be reduced to less than 0, but excess damage to a Style
    will reduce Stamina."

    Alpha 6,6,6 +5 = 23 vs 6: by 17 -> 4, at Bravo's High Flying 2: HF 0, Stamina 10 -> 8.
    4 taken -> injury check 1,1,1: 3 -8 -3 (Technical) -0 = -8.
    Alpha's check 3 +1 (Weight) +1 (Bravo's HF, a table style, is 0) -8 -5 = -8.
    """
    result = duel([("normal", HF)], "normal", [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    hit = rnd.hits[0]
    assert (hit.dealt, hit.to_style, hit.to_stamina) == (4, 2, 2)
    assert result.final_styles[1][HF] == 0
    assert result.final_stamina == [10, 8]
    assert rnd.injuries[0].total == -8
    assert rnd.checks[0].total == -8


def test_stamina_floors_at_zero_and_the_damage_inflicted_calls_the_injury_check():
    """IV.2.d: "Stamina may never be reduced to less than 0, either." IV.2.e: "A wrestler may
    be injured if he takes 3 or more points of damage"; VII (Cage): "any attack which causes
    2 points of damage may cause an injury" -- the damage inflicted counts (ruling, issue 14;
    setting `injury_counts: inflicted`, the default), not only the 2 Stamina had left.

    Bravo Stamina 2. Alpha 6,6,6 +5 = 23 vs 6: 4 damage at Stamina -> 0. 4 inflicted: injury
    check 1,1,1 = 3 - 0 Stamina - 3 Technical - 0 = 0, not injured. Alpha's check 1,1,1:
    3 +1 -0 -5 = -1, no count.
    """
    bravo = with_changes(BRAVO, stamina=2)
    result = duel("normal", "normal", [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1], bravo=bravo)
    rnd = result.rounds[0]
    assert rnd.hits[0].rolled == 4 and rnd.hits[0].taken == 2
    assert result.final_stamina == [10, 0]
    assert [(c.side, c.total, c.injured) for c in rnd.injuries] == [(1, 0, False)]
    assert rnd.checks[0].total == -1
    assert rnd.checks[0].count == 0


def test_injury_counts_lost_reads_takes_as_what_stamina_lost():
    """The fed setting `injury_counts: lost` (the other reading of IV.2.e's "takes 3"): the
    same round as above, only 2 actually lost at the floor, so no injury check."""
    bravo = with_changes(BRAVO, stamina=2)
    result = duel("normal", "normal", [1, 6, 6, 6, 1, 1, 1, 1, 1, 1], bravo=bravo, rules=engine.Rules(injury_counts="lost"))
    assert result.final_stamina == [10, 0]
    assert result.rounds[0].injuries == []


# ---------------------------------------------------------------------------
# IV.2.e  Injury
# ---------------------------------------------------------------------------

# Fragile Bravo: Technical 1, Stamina 8. Alpha 3,3,3 +5 = 14 vs Bravo 1,1,1 +1 = 4:
# by 10 -> 3 damage at Stamina -> Bravo Stamina 5; 3 taken -> injury check.
FRAGILE = with_changes(BRAVO, stamina=8, styles={TECH: 1})


def test_three_damage_injury_check_of_ten_injures_and_feeds_victory_check():
    """IV.2.e: "roll 3d6. Subtract the target's current Stamina, current level in the
    Round style, and Style defense for the current Round style. ... if the total is 10 or
    more, the target has been injured; add 1 injury point".
    IV.2.f: "Add the number of injury points the loser has."

    Injury check 6,5,5 = 16 -5 (Stamina) -1 (Technical) -0 = 10 -> injured.
    Alpha's check 1,1,1: 3 +1 (Weight) +1 (injury) -5 -5 = -5.
    """
    result = duel("normal", "normal", [1, 3, 3, 3, 1, 1, 1, 6, 5, 5, 1, 1, 1], bravo=FRAGILE)
    rnd = result.rounds[0]
    assert rnd.hits[0].dealt == 3
    assert result.final_stamina == [10, 5]
    assert len(rnd.injuries) == 1
    inj = rnd.injuries[0]
    assert (inj.side, inj.total, inj.injured, inj.cripple) == (1, 10, True, False)
    assert result.injuries == [0, 1]
    assert rnd.checks[0].total == -5


def test_injury_check_of_nine_does_not_injure():
    """IV.2.e: "if the total is 10 or more, the target has been injured".

    Injury check 6,5,4 = 15 -5 -1 = 9: not injured. Alpha's check 3 +1 -5 -5 = -6.
    """
    result = duel("normal", "normal", [1, 3, 3, 3, 1, 1, 1, 6, 5, 4, 1, 1, 1], bravo=FRAGILE)
    rnd = result.rounds[0]
    assert rnd.injuries[0].total == 9
    assert not rnd.injuries[0].injured
    assert result.injuries == [0, 0]
    assert rnd.checks[0].total == -6


def test_injury_point_adds_to_existing_injury():
    """IV.2.e: "add 1 injury point to any other injury points the wrestler may have."

    Bravo starts with 2 injury points; injured again (as above) -> 3.
    Alpha's check 3 +1 +3 -5 -5 = -3.
    """
    result = duel(
        "normal", "normal", [1, 3, 3, 3, 1, 1, 1, 6, 5, 5, 1, 1, 1], bravo=FRAGILE, injury=(0, 2),
    )
    assert result.injuries == [0, 3]
    assert result.rounds[0].checks[0].total == -3


def test_damage_reduced_below_three_means_no_injury_check():
    """IV.2.e: "If the attack did 3 points of damage but was reduced for a Defensive
    action or Style Defense, no injury check is required."

    Bravo Technical-Defense 1: Alpha 3,4,4 +5 = 16 vs 6: by 10 -> 3, -1 -> 2. No check.
    Alpha's check 3 +1 -8 -5 = -9.
    """
    bravo = with_changes(BRAVO, defenses={TECH: 1})
    result = duel("normal", "normal", [1, 3, 4, 4, 1, 1, 1, 1, 1, 1], bravo=bravo)
    rnd = result.rounds[0]
    assert (rnd.hits[0].rolled, rnd.hits[0].dealt) == (3, 2)
    assert rnd.injuries == []
    assert rnd.checks[0].total == -9


def test_defensive_reduced_three_to_two_means_no_injury_check():
    """IV.2.e (as above, Defensive): Alpha Defensive 4,4,4 +5 +3 = 20 vs 6: by 14 -> 3,
    -1 -> 2; no check. Alpha's check 3 +1 -8 -5 = -9."""
    result = duel("defensive", "normal", [1, 4, 4, 4, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.hits[0].dealt == 2
    assert rnd.injuries == []
    assert result.final_stamina == [10, 8]


def test_injury_check_uses_round_style_level_after_this_rounds_damage():
    """IV.2.e: "Subtract the target's current Stamina, current level in the Round style".

    Alpha targets Technical (the round style): 3,4,4 +5 = 16 vs 6, by 10 -> 3: Bravo
    Technical 3 -> 0. Injury check 6,6,6 = 18 -10 (Stamina) -0 (Technical now) -0 = 8.
    Alpha's check 3 +1 +1 (Bravo's Technical is 0) -10 -5 = -10.
    """
    result = duel([("normal", TECH)], "normal", [1, 3, 4, 4, 1, 1, 1, 6, 6, 6, 1, 1, 1])
    rnd = result.rounds[0]
    assert result.final_styles[1][TECH] == 0
    assert rnd.injuries[0].total == 8
    assert not rnd.injuries[0].injured
    assert rnd.checks[0].total == -10


def test_cripple_any_damage_checks_with_plus_two_and_subtracts_defense():
    """IV.2.e: "He may also be injured if he takes any damage from an attacker's Cripple
    attack." / "If the check was caused by an attacker succeeding with a Cripple attack,
    add 2."

    Bravo Stamina 6, Technical 2, Technical-Defense 1. Alpha Cripple 1,1,2 +5 = 9; Bravo
    1,1,1 +2 = 5; by 4 -> 1, defense floor 1 -> Bravo Stamina 5.
    Injury check 6,5,5 = 16 -5 -2 -1 +2 = 10 -> injured.
    Alpha's check 3 +1 (Weight) +1 (injury) -5 -5 = -5.
    """
    bravo = with_changes(BRAVO, stamina=6, styles={TECH: 2}, defenses={TECH: 1})
    result = duel("cripple", "normal", [1, 1, 1, 2, 1, 1, 1, 6, 5, 5, 1, 1, 1], bravo=bravo)
    rnd = result.rounds[0]
    assert rnd.hits[0].dealt == 1
    inj = rnd.injuries[0]
    assert (inj.side, inj.total, inj.cripple, inj.injured) == (1, 10, True, True)
    assert result.injuries == [0, 1]
    assert rnd.checks[0].total == -5


def test_cripple_injury_check_in_bonus_case_totals():
    """IV.2.e arithmetic with the standard pair: Cripple 1,1,2 +5 = 9 vs 6 -> 1 damage,
    Bravo Stamina 9; check 1,1,1 = 3 -9 -3 (Technical) -0 +2 = -7, not injured."""
    result = duel("cripple", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    inj = result.rounds[0].injuries[0]
    assert (inj.total, inj.cripple, inj.injured) == (-7, True, False)


def test_cripple_on_a_tie_causes_no_injury_check():
    """Ruling: a Cripple on a tie is not "an attacker succeeding with a Cripple attack".

    Alpha Cripple 1,1,2 +5 = 9; Bravo 2,2,2 +3 = 9: tie, 1 damage each, then both checks.
    """
    result = duel("cripple", "normal", [1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[0]
    assert rnd.winner is None
    assert rnd.injuries == []
    assert result.final_stamina == [9, 9]


# ---------------------------------------------------------------------------
# IV.2.f  Victory check
# ---------------------------------------------------------------------------

# Alpha 1,1,2 +5 = 9 beats Bravo 6 by 3 -> 1 damage, Bravo Stamina 9.
# Check total = dice +1 (Weight) -9 -5 = dice - 13.
COUNT_CASES = [
    ([4, 4, 4], -1, 0),
    ([4, 4, 5], 0, 1),
    ([4, 5, 5], 1, 1),
    ([5, 5, 5], 2, 2),
    ([5, 5, 6], 3, 2),
    ([5, 6, 6], 4, 3),
]


@pytest.mark.parametrize("check_faces, total, count", COUNT_CASES, ids=[f"total{c[1]}" for c in COUNT_CASES])
def test_victory_check_counts(check_faces, total, count):
    """IV.2.f: "If the number is 0-1, then a 1 count ... If the number is 2-3, then a 2
    count. If the number is 4 or more, then the match is over and we have a winner." """
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, *check_faces])
    check = result.rounds[0].checks[0]
    assert check.total == total
    assert check.count == count
    assert not check.natural_18
    if count == 3:
        assert (result.winner, result.method, result.end_round) == (0, "pin", 1)
    else:
        assert (result.winner, result.method) == (None, "time_limit")


def test_weight_bonus_uses_original_weight_not_halved_weight():
    """IV.2.f: "If the winner's Weight is higher than the loser's (that's original Weight,
    not Weight as reduced by damage), add +1."

    Alpha Weight 5, Bravo Weight 4; Bravo "-" Weight halves Alpha's to ceil(5/2) = 3.
    Alpha 1,1,2 +5 = 9 beats 6 -> Bravo Stamina 9; check 3 +1 -9 -5 = -10.
    """
    bravo = with_changes(BRAVO, styles={WT: 4})
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1], bravo=bravo, b_minus=WT)
    assert result.start_styles[0][WT] == 3
    assert result.rounds[0].checks[0].total == -10


def test_equal_weight_gives_no_bonus():
    """IV.2.f: +1 only "If the winner's Weight is higher than the loser's".

    Bravo Weight 5 = Alpha's. Check 3 +0 -9 -5 = -11.
    """
    bravo = with_changes(BRAVO, styles={WT: 5})
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1], bravo=bravo)
    assert result.rounds[0].checks[0].total == -11


def test_each_zero_style_in_the_table_adds_one_duplicates_twice():
    """IV.2.f: "For each of the loser's selected styles which is at 0, add +1." (ruling:
    each table entry counts, a style listed twice counts twice).

    Alpha +Technical +Martial Arts, Bravo +Martial Arts +Brawling; Bravo MA 0, Brawling 0.
    Table [Technical, MA, MA, Brawling, High Flying]: zeros 1 + 1 + 1 = 3.
    Alpha 1,1,2 +5 = 9 beats 6 -> Bravo Stamina 9; check 3 +1 +3 -9 -5 = -7.
    """
    bravo = with_changes(BRAVO, styles={MA: 0, BRAWL: 0})
    result = duel(
        "normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1], bravo=bravo, a_plus=(TECH, MA),
    )
    assert result.style_table == [TECH, MA, MA, BRAWL, HF]
    assert result.rounds[0].checks[0].total == -7


def test_submission_win_is_a_submission():
    """IV.2.f Submission +4: Alpha Submission 1,1,2 +5 = 9 beats 6 -> Bravo Stamina 9;
    check 5,5,6 = 16 +1 +4 -9 -5 = 7 >= 4: the match is over."""
    result = duel("submission", "normal", [1, 1, 1, 2, 1, 1, 1, 5, 5, 6])
    assert result.rounds[0].checks[0].total == 7
    assert (result.winner, result.method, result.end_round) == (0, "submission", 1)


def test_illegal_win_is_a_countout():
    """IV.2.f: "check to see if he has won the match via pinfall, submission or CO (ie.
    any finish or other DQ which occurs as a result of Illegal actions.)"

    Alpha Illegal 1,1,1 +5 +(1,1) = 10 vs 6 -> by 4, 1 damage, Bravo Stamina 9.
    Check 5,6,6 = 17 +1 -9 -5 = 4: win.
    """
    result = duel("illegal", "normal", [1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 6, 6])
    assert result.rounds[0].checks[0].total == 4
    assert (result.winner, result.method) == (0, "countout")


def test_natural_18_wins_despite_negative_total():
    """IV.2.f: "A natural roll of 18 always wins."

    Bravo Stamina 15; Alpha targets Bravo's Weight (not a table style), so Stamina stays 15.
    Alpha 1,1,2 +5 = 9 beats 6. Check 6,6,6 = 18 +1 -15 -5 = -1, yet it wins.
    """
    bravo = with_changes(BRAVO, stamina=15)
    result = duel([("normal", WT)], "normal", [1, 1, 1, 2, 1, 1, 1, 6, 6, 6], bravo=bravo)
    check = result.rounds[0].checks[0]
    assert check.total == -1
    assert check.natural_18
    assert (result.winner, result.method, result.end_round) == (0, "pin", 1)


def test_natural_18_wins_against_a_hugely_negative_pin_modifier():
    """IV.2.f: "A natural roll of 18 always wins." -- even with a -20 pin stipulation."""
    bravo = with_changes(BRAVO, stamina=15)
    result = duel(
        [("normal", WT)], "normal", [1, 1, 1, 2, 1, 1, 1, 6, 6, 6], bravo=bravo,
        stipulation=engine.Stipulation(name="Huge", pin=-20),
    )
    check = result.rounds[0].checks[0]
    assert check.total < 0
    assert check.natural_18
    assert result.winner == 0


# Tie with both Stamina 1: Alpha 1,1,2 +5 = 9, Bravo 2,2,2 +3 = 9; each takes 1 at
# Stamina -> 0 and 0. Alpha's check = dice +1 -0 -5; Bravo's = dice +0 -0 -5.
LOW_ALPHA = with_changes(ALPHA, stamina=1)
LOW_BRAVO = with_changes(BRAVO, stamina=1)


def test_tie_where_both_win_is_a_double_countout():
    """IV.2.f: "If the round was a tie, both sides check for a win, resulting in a
    double-CO if both "win"."  Alpha 3,3,3: 9 +1 -5 = 5; Bravo 3,3,3: 9 -5 = 4."""
    result = duel(
        "normal", "normal", [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3], alpha=LOW_ALPHA, bravo=LOW_BRAVO,
    )
    rnd = result.rounds[0]
    assert result.final_stamina == [0, 0]
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, 5, 3), (1, 4, 3)]
    assert (result.winner, result.method, result.end_round) == (None, "double_countout", 1)


def test_tie_where_only_side_one_wins():
    """IV.2.f tie, both check: Alpha 3,3,3 -> 5 (win); Bravo 1,1,1 -> 3 -5 = -2."""
    result = duel(
        "normal", "normal", [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 1, 1, 1], alpha=LOW_ALPHA, bravo=LOW_BRAVO,
    )
    assert [(c.side, c.total) for c in result.rounds[0].checks] == [(0, 5), (1, -2)]
    assert (result.winner, result.method) == (0, "pin")


def test_tie_where_only_side_two_wins():
    """IV.2.f tie, both check: Alpha 1,1,1 -> 3 +1 -5 = -1; Bravo 3,3,3 -> 4 (win)."""
    result = duel(
        "normal", "normal", [1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 3, 3, 3], alpha=LOW_ALPHA, bravo=LOW_BRAVO,
    )
    assert [(c.side, c.total) for c in result.rounds[0].checks] == [(0, -1), (1, 4)]
    assert (result.winner, result.method) == (1, "pin")


def test_time_limit_draw_after_the_cards_round_count():
    """IV.2: "Rounds continue cycling ... until either a victor is determined or the time
    limit expires (ie. a set number or rounds passes)."

    Two rounds, no win: R1 Alpha 9 beats 6 (Bravo 9), check 3 +1 -9 -5 = -10;
    R2 the same (Bravo 8), check 3 +1 -8 -5 = -9.
    """
    one_round = [1, 1, 1, 2, 1, 1, 1, 1, 1, 1]
    result = duel([("normal", STAM)] * 2, [("normal", STAM)] * 2, one_round * 2)
    assert (result.winner, result.method, result.end_round) == (None, "time_limit", 2)
    assert len(result.rounds) == 2
    assert [r.checks[0].total for r in result.rounds] == [-10, -9]
    assert result.final_stamina == [10, 8]
