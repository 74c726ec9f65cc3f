"""Review of issue 14's rulings, computed by hand from docs/rulings/matchmatch.md ("Matches
of three or more sides") and the rulebook (/work/shared/rules/001_cc6d7bfeac840419.txt),
before reading the engine. Dice order as in test_rulebook_matchmatch.py; in a match of three
or more sides the tie die for the lowest total comes after every side's attack and before
the injury checks (README, "Scripted dice").
"""

from __future__ import annotations

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.matchmatch import engine
from mm_builders import make_sheet, make_strategy, uniform_grid


def four_way(rounds: int = 1) -> engine.MatchSetup:
    """A: Technical 5; B, C, D: Technical 1. Weight 1 each, Stamina 10, every other style and
    defense 0. Picks: A +Technical +Power (grid A), B +Martial Arts +Brawling (grid 1),
    C +Weight +Cheating (cell B2), D +High Flying +Power (cell C3), all -Teamwork. Table (11
    entries, a d12): Technical, Power, Martial Arts, Brawling, Weight, Cheating, High Flying,
    Power, then the grid's Technical and the two cells' Technical."""
    sheets = [make_sheet("a", styles={"technical": 5, "weight": 1})] + [
        make_sheet(x, styles={"technical": 1, "weight": 1}) for x in "bcd"]
    picks = (("technical", "power"), ("martial_arts", "brawling"), ("weight", "cheating"), ("high_flying", "power"))
    strategies = [make_strategy(plus, "teamwork", grid, [("normal", "stamina")] * rounds) for plus, grid in zip(picks, ("A", "1", "B2", "C3"))]
    sides = tuple(engine.Side(s.id, s.name, s, st) for s, st in zip(sheets, strategies))
    return engine.MatchSetup("four", sides, uniform_grid("technical"), rounds)


def test_a_four_way_tie_of_three_for_the_lowest_total_is_broken_by_a_d3():
    """Ruling: "a die decides who takes the damage, a d2 for two tied sides, a d3 for three,
    read in card order (1 is the first tied side)". Technical (d12 1). A 4,4,4 = 12 + 5 = 17;
    B, C, D 1,1,1 = 3 + 1 = 4 each: three tie for the lowest. The d3 shows 3: D takes A's
    damage, by 13: 1 + 2 (IV.2.d, one per five full points) = 3 to Stamina, 10 -> 7.
    Injury check (IV.2.e, 3 taken) 1,1,1 = 3 - 7 - 1 Technical - 0 = -5. A checks against D
    (IV.2.f): 1,1,1 = 3 + 0 (equal Weight) + 6 (D's Power twice, Martial Arts, Brawling,
    Cheating, High Flying at 0) - 7 - 11 styles = -9."""
    dice = ScriptedDice([1, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1])
    result = engine.resolve(four_way(), dice)
    assert dice.remaining == 0
    (rnd,) = result.rounds
    assert [s.total for s in rnd.sides] == [17, 4, 4, 4]
    assert (rnd.winner, rnd.victim, rnd.margin) == (0, 3, 13)
    assert [(h.side, h.dealt, h.after) for h in rnd.hits] == [(3, 3, 7)]
    assert [(c.side, c.total) for c in rnd.injuries] == [(3, -5)]
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, -9, 0)]
    assert (1, "tie for the lowest total d3: B, C, D", b"\x03") in [(r, p, bytes(f)) for r, p, f in result.log]
    assert result.final_stamina == [10, 10, 10, 7]


def test_with_a_tie_for_the_highest_the_tie_for_the_lowest_is_still_broken_by_the_die():
    """Rulings "Ties for the highest total": each tied side takes 1 (no reduction) on the
    target the next tied side names and "each checks against the lowest side"; when two
    sides tie for the lowest, the tie die picks that side (as below a single winner). A, B
    Technical 5, C, D Technical 1 (table as above). Technical (d12 1): A, B 4,4,4 = 17; C, D
    1,1,1 = 4. A and B take 1 each (Stamina 10 -> 9). The d2 shows 2: D. A and B each check
    against D: 2,2,2 = 6 + 0 + 6 (D's styles at 0) - 10 - 11 = -9, no count: time limit."""
    sheets = [make_sheet(x, styles={"technical": 5, "weight": 1}) for x in "ab"] + [
        make_sheet(x, styles={"technical": 1, "weight": 1}) for x in "cd"]
    setup = four_way()
    setup = engine.MatchSetup("four", tuple(engine.Side(s.id, s.name, s, side.strategy) for s, side in zip(sheets, setup.sides)), setup.grid, 1)
    dice = ScriptedDice([1, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2])
    result = engine.resolve(setup, dice)
    assert dice.remaining == 0
    (rnd,) = result.rounds
    assert [(h.side, h.dealt, h.after) for h in rnd.hits] == [(0, 1, 9), (1, 1, 9)]
    assert rnd.victim == 3
    assert [(c.side, c.total, c.count) for c in rnd.checks] == [(0, -9, 0), (1, -9, 0)]
    assert (1, "tie for the lowest total d2: C, D", b"\x02") in [(r, p, bytes(f)) for r, p, f in result.log]
    assert result.final_stamina == [9, 9, 10, 10] and result.method == "time_limit"
