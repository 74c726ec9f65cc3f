"""MatchMatch defects and rulings of issue 14, computed by hand from the rulebook
(/work/shared/rules/001_cc6d7bfeac840419.txt) and docs/rulings/matchmatch.md.

Dice order and the standard pair (Alpha, Bravo) are those of test_rulebook_matchmatch.py:
the table is [Technical, Power, Martial Arts, Brawling, High Flying]; Alpha Technical 5,
Weight 5, Stamina 10; Bravo Technical 3, Weight 3, Stamina 10.
"""

from __future__ import annotations

from fractions import Fraction as F

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import ScriptedDice, SeededDice
from fedtool.rulesets.matchmatch import engine
from fedtool.rulesets.matchmatch.multiway import resolve_many
from fedtool.rulesets.matchmatch.push import Push, after_match
from mm_builders import STYLE_IDS, make_setup, make_sheet, make_strategy, run, uniform_grid, with_changes
from test_multiway import triangle
from test_rulebook_matchmatch import ALPHA, BRAVO, HF, STAM, TECH, duel

# ---------------------------------------------------------------------------------------
# 1. A stipulation's negative damage never heals (VII "Damage Caused -- raised or lowered")
# ---------------------------------------------------------------------------------------

WEAK = engine.Stipulation(name="Pillow Fight", damage=-3, id="pillow")


def test_negative_stipulation_damage_stops_at_zero_in_singles():
    """VII: "Damage Caused -- raised or lowered"; IV.2.d: "Stamina may never be reduced to less
    than 0" -- and lowered damage never heals (ruling). Alpha 1,1,2 +5 = 9 vs Bravo 1,1,1 +3 = 6:
    by 3, damage 1 + 0 - 3 = -2, which stops at 0: Bravo's Stamina stays 10 (it was 12).
    Alpha's check 1,1,1: 3 +1 (Weight) -10 -5 = -11."""
    result = duel("normal", "normal", [1, 1, 1, 2, 1, 1, 1, 1, 1, 1], stipulation=WEAK)
    (hit,) = result.rounds[0].hits
    assert (hit.rolled, hit.dealt, hit.taken) == (0, 0, 0)
    assert result.final_stamina == [10, 10]
    assert result.rounds[0].checks[0].total == -11


def test_negative_stipulation_damage_agrees_in_both_engines():
    """The same round played by the multi-way engine (two sides): the same 0, the same log."""
    setup = make_setup(ALPHA, make_strategy((TECH, "power"), "teamwork", "A", [("normal", STAM)]),
                       BRAVO, make_strategy(("martial_arts", "brawling"), "teamwork", "1", [("normal", STAM)]),
                       uniform_grid(HF), stipulation=WEAK)
    faces = [1, 1, 1, 2, 1, 1, 1, 1, 1, 1]
    singles, many = engine.resolve(setup, ScriptedDice(faces)), resolve_many(setup, ScriptedDice(faces))
    assert singles.final_stamina == many.final_stamina == [10, 10]
    assert [h.dealt for h in singles.rounds[0].hits] == [h.dealt for h in many.rounds[0].hits] == [0]


PLUS = [s for s in STYLE_IDS if s != "teamwork"]
TYPES = ["normal", "defensive", "high_impact", "illegal", "cripple", "high_risk", "finisher"]


@st.composite
def stipulated_matches(draw):
    sheets = [make_sheet(n, stamina=draw(st.integers(0, 15)), styles={s: draw(st.integers(0, 8)) for s in STYLE_IDS},
                         defenses={s: draw(st.integers(0, 2)) for s in STYLE_IDS}) for n in ("a", "b")]
    rounds = draw(st.integers(1, 12))
    strategies = [make_strategy(tuple(draw(st.lists(st.sampled_from(PLUS), min_size=2, max_size=2, unique=True))),
                                draw(st.sampled_from(STYLE_IDS)), grid,
                                [(draw(st.sampled_from(TYPES)), draw(st.sampled_from([*STYLE_IDS, STAM]))) for _ in range(rounds)])
                  for grid in ("A", "1")]
    stip = engine.Stipulation(name="x", damage=draw(st.integers(-5, 5)), id="x")
    setup = make_setup(sheets[0], strategies[0], sheets[1], strategies[1], uniform_grid(draw(st.sampled_from(PLUS))),
                       rounds=rounds, stipulation=stip)
    return setup, draw(st.integers(0, 2**63))


@settings(max_examples=150, deadline=None)
@given(stipulated_matches())
def test_no_stipulation_damage_ever_heals_and_both_engines_agree(case):
    """Over random sheets, strategies and stipulation damage from -5 to +5: no hit raises a
    value, Stamina never ends above the sheet's, and the two engines play the same match."""
    setup, seed = case
    singles = engine.resolve(setup, SeededDice(seed))
    many = resolve_many(setup, SeededDice(seed))
    for result in (singles, many):
        assert all(h.after <= h.before and h.dealt >= 0 for r in result.rounds for h in r.hits)
        assert all(result.final_stamina[i] <= side.sheet.stamina for i, side in enumerate(setup.sides))
    assert (singles.final_stamina, singles.final_styles, singles.winner, singles.method) == (
        many.final_stamina, many.final_styles, many.winner, many.method)


# ---------------------------------------------------------------------------------------
# 2. Multi-way: a tie for the lowest total is broken by a logged die, not card order
# ---------------------------------------------------------------------------------------


def _tie_for_lowest(pick: int):
    """Technical (d8 1). A 4,4,4 = 12 + 5 = 17; B 1,1,1 = 3 + 2 = 5; C 2,1,1 = 4 + 1 = 5: B and
    C tie for the lowest. The d2 (read in card order: 1 B, 2 C) picks who takes A's damage: by
    12, 1 + 2 = 3 to Stamina, 10 -> 7. Injury check (3 taken) 1,1,1 = 3 - 7 - Technical - 0;
    A's check 1,1,1 = 3 + 0 (equal Weight) + that side's table styles at 0 - 7 - 8."""
    return run(triangle(), [1, 4, 4, 4, 1, 1, 1, 2, 1, 1, pick, 1, 1, 1, 1, 1, 1])


def test_a_tie_for_the_lowest_total_is_broken_by_a_logged_die():
    """Ruling (issue 14; docs/rulings/matchmatch.md "Matches of three or more sides"): the
    d2 shows 2, so C -- the later side in card order -- takes the damage. C's injury check
    3 - 7 - 1 = -5; A's check 3 + 3 (C's Power, Martial Arts, Brawling at 0) - 7 - 8 = -9."""
    result = _tie_for_lowest(2)
    (rnd,) = result.rounds
    assert [s.total for s in rnd.sides] == [17, 5, 5]
    assert (rnd.winner, rnd.victim, rnd.margin) == (0, 2, 12)
    assert [(h.side, h.dealt, h.after) for h in rnd.hits] == [(2, 3, 7)]
    assert [(c.side, c.total) for c in rnd.injuries] == [(2, -5)]
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, -9, 0)]
    assert (1, "tie for the lowest total d2: B, C", b"\x02") in [(r, p, bytes(f)) for r, p, f in result.log]
    assert result.final_stamina == [10, 10, 7]


def test_the_tie_die_showing_1_picks_the_first_tied_side():
    """The same round with the d2 showing 1: B takes it. B's injury check 3 - 7 - 2 = -6; A's
    check 3 + 2 (B's table styles at 0: Power, Cheating) - 7 - 8 = -10."""
    result = _tie_for_lowest(1)
    (rnd,) = result.rounds
    assert rnd.victim == 1
    assert [(h.side, h.after) for h in rnd.hits] == [(1, 7)]
    assert [(c.side, c.total) for c in rnd.injuries] == [(1, -6)]
    assert [(c.total, c.count) for c in rnd.checks] == [(-10, 0)]


# ---------------------------------------------------------------------------------------
# 3. Push at the top (Part II)
# ---------------------------------------------------------------------------------------


def test_a_top_level_wrestler_at_two_points_beaten_by_a_lower_level_ends_at_the_top_with_zero():
    """II: "If you lose a match to someone of lower rank you automatically drop a push level"
    and "When you have two push points you rise a level". The top level (5) holds at most 2
    points; dropping a level from level 5 with 2 is level 4 with 2, which the rules read as
    level 5 with 0 (as "Level 2 with 1.8" gaining 0.5 is level 3 with 0.3). So the loser ends
    at level 5 with 0 points -- a fall of one level's worth, 2 points -- never at level 4 holding
    2. The level-3 winner "immediately rise[s] a push level": level 4, keeping his 1/2."""
    assert after_match(Push(3, F(1, 2)), Push(5, F(2)), 5) == (Push(4, F(1, 2)), Push(5, F(0)))


def test_a_top_level_wrestler_below_two_points_still_drops_a_level():
    """II, the same loss at 3/2 points: level 4 with 3/2 (points kept, as before)."""
    assert after_match(Push(2, F(0)), Push(5, F(3, 2)), 5) == (Push(3, F(0)), Push(4, F(3, 2)))


# ---------------------------------------------------------------------------------------
# 6. The gaps ruled
# ---------------------------------------------------------------------------------------

STRAP_LIKE = engine.Stipulation(name="Strap Match", halved_styles=(HF,), id="strap")


def test_a_halved_style_is_halved_in_value_by_default():
    """VII Strap Match: "High-Flying is halved" -- by default its value, rounded up, like IV.1.b's
    "-" halving: Alpha's High Flying 6 -> 3, Bravo's 2 -> 1. Style die 5 (High Flying): Alpha
    1,1,1 + 3 = 6; Bravo 1,1,2 + 1 = 5; by 1: 1 damage, Bravo 10 -> 9. Alpha's check 1,1,1:
    3 + 1 (Weight) - 9 - 5 = -10."""
    result = duel("normal", "normal", [5, 1, 1, 1, 1, 1, 2, 1, 1, 1], stipulation=STRAP_LIKE)
    assert [s[HF] for s in result.start_styles] == [3, 1]
    assert [s.total for s in result.rounds[0].sides] == [6, 5]
    assert result.final_stamina == [10, 9]


def test_halved_styles_table_halves_the_styles_weight_in_the_table():
    """The fed setting `halved_styles: table` reads VII's "The Style List -- styles may be added
    or halved" as the style's weight in the table: when the die picks it, a d6 of 4-6 rolls the
    style again (so it comes up half as often), and its value is whole. Die 5 (High Flying),
    d6 4: again; die 1 (Technical): Alpha 1,1,1 + 5 = 8, Bravo 1,1,1 + 3 = 6, by 2: 1 damage.
    Alpha's check 1,1,1: 3 + 1 - 9 - 5 = -10 (the table still has 5 styles)."""
    result = duel("normal", "normal", [5, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], stipulation=STRAP_LIKE,
                  rules=engine.Rules(halved_styles="table"))
    (rnd,) = result.rounds
    assert [s[HF] for s in result.start_styles] == [6, 2]
    assert (rnd.style, rnd.style_faces) == (TECH, [5, 1])
    assert [s.total for s in rnd.sides] == [8, 6]
    assert rnd.checks[0].total == -10
    assert [p for _, p, _ in result.log][:3] == ["round style d6", "halved style d6 (4-6 roll again)", "round style d6"]


def test_halved_styles_table_keeps_the_style_on_1_to_3():
    """`halved_styles: table`: die 5 (High Flying), d6 3: kept. Alpha 1,1,1 + 6 = 9 (whole
    value), Bravo 1,1,1 + 2 = 5; by 4: 1 damage. Alpha's check 3 + 1 - 9 - 5 = -10."""
    result = duel("normal", "normal", [5, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1], stipulation=STRAP_LIKE,
                  rules=engine.Rules(halved_styles="table"))
    assert [s.total for s in result.rounds[0].sides] == [9, 5]


def test_stamina_zero_is_not_a_loss_the_match_goes_on():
    """IV.2.d: "Stamina may never be reduced to less than 0"; the match ends only by IV.2.f's
    check (or a DQ, or time): Stamina 0 is no finish (ruling). Bravo Stamina 2: round 1 Alpha
    6,6,6 + 5 = 23 vs 6: 4 damage, Stamina 0; injury check (4 inflicted) 1,1,1 = 3 - 0 - 3 = 0;
    Alpha's check 1,1,1: 3 + 1 - 0 - 5 = -1, no count. Round 2 is played: Alpha 1,1,1 + 5 = 8,
    Bravo 1,1,1 + 3 = 6: 1 damage, Stamina stays 0 (1 inflicted, no check); 3 + 1 - 0 - 5 = -1:
    the time limit."""
    bravo = with_changes(BRAVO, stamina=2)
    result = duel([("normal", STAM)] * 2, [("normal", STAM)] * 2,
                  [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1] + [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], bravo=bravo)
    assert (result.winner, result.method, result.end_round) == (None, "time_limit", 2)
    assert result.final_stamina == [10, 0]
    assert result.rounds[1].checks[0].total == -1


def test_cripple_tie_check_setting_calls_a_check_without_the_plus_two():
    """IV.2.e: "He may also be injured if he takes any damage from an attacker's Cripple attack"
    and "If the check was caused by an attacker succeeding with a Cripple attack, add 2". With
    `cripple_tie: check`, a tied round's point from a Cripple attacker is damage from the
    Cripple (a check) but no success (no +2). Alpha Cripple 1,1,2 + 5 = 9; Bravo 2,2,2 + 3 = 9:
    a tie, 1 each. Bravo (hit by Alpha's Cripple) checks: 1,1,1 = 3 - 9 Stamina - 3 Technical
    - 0 = -9. Alpha (hit by Bravo's Normal, 1 < 3) does not. Both check for the win: Alpha
    1,1,1 + 1 - 9 - 5 = -10; Bravo 1,1,1 - 9 - 5 = -11."""
    result = duel("cripple", "normal", [1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1], rules=engine.Rules(cripple_tie="check"))
    rnd = result.rounds[0]
    assert rnd.winner is None
    assert [(c.side, c.total, c.cripple, c.bonus) for c in rnd.injuries] == [(1, -9, True, 0)]
    assert [c.total for c in rnd.checks] == [-10, -11]


def test_a_dq_d_sides_styles_stay_in_the_multi_way_table():
    """Ruling: the style table is pre-match bookkeeping (IV.1.a), so a side put out by a DQ
    leaves its styles in it: round 2 still rolls a d8 and the victory check subtracts 8 styles
    (B 6,6,6 + 2 = 20 vs C 1,1,1 + 1 = 4 -- as in test_multiway's DQ test)."""
    setup = triangle(types=("illegal", "normal", "normal"), rounds=2)
    result = run(setup, [1, 2, 2, 2, 5, 5,   1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    assert [p for r, p, _ in result.log if r == 2][0] == "round style d8"
    assert result.rounds[1].checks[0].styles == 8


def test_a_side_that_never_attacked_in_a_round_stopped_by_a_dq_keeps_its_special():
    """Ruling: the round stops at a DQ, so the sides after it never play their actions: a
    Special stratted there is not spent (II: Specials limit what is played). A (Illegal) is
    DQ'ed in round 1 (5 + 5 = 10); C, with one Special (push level 1), stratted Finishers in
    both rounds and plays the Finisher in round 2: 1,1,1 + 1 + 4 = 8 vs B 1,1,1 + 2 = 5, by 3:
    1 damage, B 10 -> 9; C's check 1,1,1 + 2 (Finisher) + 2 (B's Power, Cheating at 0) - 9
    - 8 = -10."""
    base = triangle(types=("illegal", "normal", "finisher"), rounds=2)
    sides = tuple(s if i < 2 else engine.Side(s.id, s.name, s.sheet, s.strategy, specials=1) for i, s in enumerate(base.sides))
    setup = engine.MatchSetup("tri", sides, base.grid, 2)
    result = run(setup, [1, 2, 2, 2, 5, 5,   1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    rnd = result.rounds[1]
    assert rnd.sides[2].action.type.id == "finisher" and "no Special left" not in rnd.sides[2].why
    assert [s and s.total for s in rnd.sides] == [None, 5, 8]
    assert [(c.side, c.total) for c in rnd.checks] == [(2, -10)]


# ---------------------------------------------------------------------------------------
# 5. and 6. Team settings (I.2)
# ---------------------------------------------------------------------------------------


def _edit(path, **changes):
    data = yaml.safe_load(path.read_text())
    for dotted, value in changes.items():
        node = data
        *parents, last = dotted.split("__")
        for key in parents:
            node = node[key]
        node[last] = value
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def _set(fed_dir, **settings):
    path = fed_dir / "rosters/fed.yaml"
    data = yaml.safe_load(path.read_text())
    data["rulesets"]["matchmatch"].update(settings)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def test_team_teamwork_must_be_the_lowest_members_by_default(demo_fed, fedtool):
    """I.2: "The combined TeamWork attribute must be the lowest of the individual TeamWork
    attributes." Brother Bob given Teamwork 1 (Brawling 7 -> 6, still 42 points): both members
    have 1, and the Rulebook Rivals' Teamwork 0 is below it. By default (`team_teamwork:
    lowest`) the week-2 tag match is refused, naming the team's file and the rule; with
    `team_teamwork: at_most_lowest` (the sample's "no higher than") it is booked."""
    _edit(demo_fed / "rosters/brother-bob.yaml", styles__Brawling=6, styles__Teamwork=1)
    refused = fedtool("run", "2", "--fed", demo_fed)
    assert refused.exit_code == 1
    assert ("rosters/rulebook-rivals.yaml, field styles.Teamwork: Teamwork 0 is not the lowest member's (1) "
            "[MatchMatch I.2: \"The combined TeamWork attribute must be the lowest of the individual TeamWork attributes\" "
            "(fed setting team_teamwork: lowest)]") in refused.stderr
    _set(demo_fed, team_teamwork="at_most_lowest")
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0


def test_team_ref_slack_is_exempt_by_default_and_bounded_by_the_setting(demo_fed, fedtool):
    """VII.1: "Wrestlers may purchase Ref Slack Points for 3 points each"; I.2 bounds each
    attribute by the members' range and exempts what is bought (High Spots). By default Ref
    Slack is exempt too: the Rivals buy 1 point (Cheating 4 -> 1 pays the 3) though neither
    member has any. `team_ref_slack: members_range` refuses it: the members' range is 0-0."""
    _edit(demo_fed / "rosters/rulebook-rivals.yaml", styles__Cheating=1, ref_slack=1)
    _set(demo_fed, team_ref_slack="members_range")
    refused = fedtool("run", "2", "--fed", demo_fed)
    assert refused.exit_code == 1
    assert "rosters/rulebook-rivals.yaml, field ref_slack: Ref Slack 1 is outside the members' range 0-0" in refused.stderr
    _set(demo_fed, team_ref_slack="exempt")
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0


def test_a_bad_setting_is_refused_with_its_place(demo_fed, fedtool):
    _set(demo_fed, injury_counts="taken")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "injury_counts" in result.stderr and "Traceback" not in result.stderr
