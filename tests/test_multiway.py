"""Matches of three or more sides: the rulings of docs/rulings/matchmatch.md, by hand."""

from __future__ import annotations

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.matchmatch import engine
from mm_builders import make_sheet, make_strategy, run, uniform_grid


def triangle(types=("normal", "normal", "normal"), rounds=1):
    """A: Technical 5; B: Technical 2; C: Technical 1. Weight 1 each; Stamina 10 each."""
    a = make_sheet("a", styles={"technical": 5, "power": 2, "weight": 1})
    b = make_sheet("b", styles={"technical": 2, "martial_arts": 2, "brawling": 2, "weight": 1})
    c = make_sheet("c", styles={"technical": 1, "weight": 1, "cheating": 1})
    picks = (("technical", "power"), ("martial_arts", "brawling"), ("weight", "cheating"))
    strategies = [make_strategy(plus, "teamwork", grid, [(t, "stamina")] * rounds) for plus, grid, t in zip(picks, ("A", "1", "B2"), types)]
    sides = tuple(engine.Side(s.id, s.name, s, st) for s, st in zip((a, b, c), strategies))
    return engine.MatchSetup("tri", sides, uniform_grid("technical"), rounds)


def test_the_style_table_adds_the_third_sides_cell_and_needs_a_d8():
    """Six "+" styles, the grid style (A1) and the third side's cell (B2): eight entries, a d8."""
    setup = triangle()
    assert setup.style_table() == ["technical", "power", "martial_arts", "brawling", "weight", "cheating", "technical", "technical"]
    assert engine.style_die(8) == 8


def test_the_highest_total_hits_the_lowest():
    """Technical (d8 1). A 4+4+4 = 12 + 5 = 17; B 3+3+3 = 9 + 2 = 11; C 1+1+1 = 3 + 1 = 4.
    A wins; C, the lowest, takes it: by 13, 1 + 2 = 3 damage, Stamina 10 -> 7. Injury check
    on C: 2+2+2 = 6 - 7 - 1 Technical - 0 = -2. A checks against C: 5+5+5 = 15 + 0 (equal
    Weight) + 3 (C's Power, Martial Arts, Brawling at 0) - 7 - 8 styles = 3: a two count."""
    result = run(triangle(), [1, 4, 4, 4, 3, 3, 3, 1, 1, 1, 2, 2, 2, 5, 5, 5])
    (rnd,) = result.rounds
    assert [s.total for s in rnd.sides] == [17, 11, 4]
    assert (rnd.winner, rnd.victim, rnd.margin) == (0, 2, 13)
    assert [(h.side, h.dealt, h.after) for h in rnd.hits] == [(2, 3, 7)]
    assert [(c.side, c.total) for c in rnd.injuries] == [(2, -2)]
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, 3, 2)]
    assert result.final_stamina == [10, 10, 7] and result.method == "time_limit"


def test_a_tie_at_the_top_hurts_the_tied_and_both_check_against_the_lowest():
    """A 4+4+1 = 9 + 5 = 14 and B 4+4+4 = 12 + 2 = 14 tie; C 1+1+1 + 1 = 4. A and B each take
    1 (no reduction) on the Stamina the other named; C takes nothing. Each tied side checks
    against C: A 6+6+5 = 17 + 3 - 10 - 8 = 2 (a two count); B 6+6+6: a natural 18, B pins C."""
    result = run(triangle(), [1, 4, 4, 1, 4, 4, 4, 1, 1, 1, 6, 6, 5, 6, 6, 6])
    (rnd,) = result.rounds
    assert (rnd.winner, rnd.victim) == (None, 2)
    assert [(h.side, h.dealt) for h in rnd.hits] == [(0, 1), (1, 1)]
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, 2, 2), (1, 3, 3)]
    assert (result.winner, result.method, result.loser) == (1, "pin", 2)


def test_a_disqualified_side_is_eliminated_and_the_match_goes_on():
    """Round 1: A's Illegal DQ check 5+5 = 10 reaches 10: A is out, and the round stops there
    (ruling, issue 14): B and C roll nothing, no damage that round.
    Round 2, B and C only: Technical; B 6+6+6 = 18 + 2 = 20, C 1+1+1 + 1 = 4; by 16: 4 damage,
    C 10 -> 6; injury check 1+1+1 = 3 - 6 - 1 = -4; B checks: 6+6+6, a natural 18: the pin."""
    setup = triangle(types=("illegal", "normal", "normal"), rounds=2)
    result = run(setup, [1, 2, 2, 2, 5, 5,   1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    first, second = result.rounds
    assert first.sides[0].disqualified and first.hits == [] and first.checks == []
    assert first.sides[1] is None and first.sides[2] is None  # stopped before they attacked
    assert second.sides[0] is None  # out of the match
    assert [s.total for s in second.sides[1:]] == [20, 4]
    assert (result.winner, result.method, result.loser) == (1, "pin", 2)
    assert all("A " not in purpose for round_no, purpose, _ in result.log if round_no == 2)


def test_the_last_side_standing_wins_by_dq():
    """A DQ stops the round, so one side goes out per round: A in round 1 (5+5 = 10), B in
    round 2 (6+4 = 10); C, who never rolled, wins by DQ over B, the last one out."""
    setup = triangle(types=("illegal", "illegal", "normal"), rounds=2)
    dice = ScriptedDice([1, 2, 2, 2, 5, 5,   1, 2, 2, 2, 6, 4])
    result = engine.resolve(setup, dice)
    assert dice.remaining == 0
    assert (result.winner, result.method, result.loser, result.end_round) == (2, "dq", 1, 2)
