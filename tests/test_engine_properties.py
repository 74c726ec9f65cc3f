"""Invariants of the MatchMatch engine over random sheets, strategies and seeds (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import ScriptedDice, SeededDice, format_log
from fedtool.rulesets.matchmatch import engine
from mm_builders import STYLE_IDS, make_setup, make_sheet, make_strategy, uniform_grid

PLUS_STYLES = [s for s in STYLE_IDS if s != "teamwork"]
# weighted toward what players strat, so matches run long enough to reach the corners
TYPES = ["normal"] * 8 + ["defensive"] * 2 + ["high_risk"] * 2 + ["high_spot", "illegal", "finisher", "cripple", "high_impact", "vile_cheat", "submission"]
TARGETS = [*STYLE_IDS, *["stamina"] * 6]


@st.composite
def sides(draw):
    sheet = make_sheet(
        draw(st.sampled_from(["a", "b", "c"])),
        stamina=draw(st.integers(0, 15) | st.integers(8, 15)),
        styles={s: draw(st.integers(0, 12)) for s in STYLE_IDS},
        defenses={s: draw(st.integers(0, 3)) for s in STYLE_IDS},
    )
    plus = draw(st.lists(st.sampled_from(PLUS_STYLES), min_size=2, max_size=2, unique=True))
    return sheet, plus, draw(st.sampled_from(STYLE_IDS))


@st.composite
def matches(draw):
    rounds = draw(st.integers(1, 25) | st.just(20))
    (sheet1, plus1, minus1), (sheet2, plus2, minus2) = draw(sides()), draw(sides())
    plan = lambda: [(draw(st.sampled_from(TYPES)), draw(st.sampled_from(TARGETS))) for _ in range(rounds)]  # noqa: E731
    s1 = make_strategy(tuple(plus1), minus1, "A", plan())
    s2 = make_strategy(tuple(plus2), minus2, "1", plan())
    grid = uniform_grid(draw(st.sampled_from(PLUS_STYLES)))
    setup = make_setup(sheet1, s1, sheet2, s2, grid, rounds=rounds, injury=(draw(st.integers(0, 4)), draw(st.integers(0, 4))))
    return setup, draw(st.integers(0, 2**63))


@settings(max_examples=300, deadline=None)
@given(matches())
def test_match_invariants(case):
    setup, seed = case
    result = engine.resolve(setup, SeededDice(seed))
    assert 1 <= result.end_round <= setup.rounds
    assert len(result.rounds) == result.end_round
    assert all(v >= 0 for styles in result.final_styles for v in styles.values())
    assert all(v >= 0 for v in result.final_stamina)
    # every hit: nothing below 0, nothing taken beyond what was dealt, and the books balance
    stamina = [side.sheet.stamina for side in setup.sides]
    styles = [dict(s) for s in result.start_styles]
    for rnd in result.rounds:
        for h in rnd.hits:
            assert h.after >= 0 and 0 <= h.taken <= h.dealt
            assert h.dealt <= h.rolled  # defenses and Defensive only ever lower the damage
            stamina[h.side] -= h.to_stamina
            if h.target != "stamina":
                styles[h.side][h.target] -= h.to_style
            assert stamina[h.side] >= 0 and all(v >= 0 for v in styles[h.side].values())
    assert stamina == result.final_stamina and styles == result.final_styles
    # injuries only ever grow during a match, one point per failed check
    gained = [sum(1 for r in result.rounds for c in r.injuries if c.side == i and c.injured) for i in (0, 1)]
    assert result.injuries == [setup.sides[i].injury + gained[i] for i in (0, 1)]
    decisive = {engine.PIN, engine.SUBMISSION, engine.COUNTOUT, engine.DQ}
    assert (result.winner is not None) == (result.method in decisive)
    last = result.rounds[-1]
    if result.method == engine.TIME_LIMIT:
        assert result.end_round == setup.rounds and not any(c.count == 3 for c in last.checks)
    elif result.method == engine.DQ:  # the round stops at the DQ: one side out, the rest never rolled
        assert [s.disqualified if s else None for s in last.sides] in ([True, None], [False, True])
        assert last.checks == [] and last.injuries == []
    else:
        assert [c.side for c in last.checks if c.count == 3] == ([0, 1] if result.method == engine.DOUBLE_COUNTOUT else [result.winner])
    # every roll is in the log with its purpose, and faces are legal d6 faces
    assert all(purpose and all(1 <= f <= 6 for f in faces) for _, purpose, faces in result.log)


@settings(max_examples=150, deadline=None)
@given(matches())
def test_a_match_replays_from_its_seed_and_from_its_log(case):
    setup, seed = case
    first = engine.resolve(setup, SeededDice(seed))
    again = engine.resolve(setup, SeededDice(seed))
    from_log = engine.resolve(setup, ScriptedDice.parse(format_log(first.log), "log"))
    for other in (again, from_log):
        assert (other.winner, other.method, other.end_round) == (first.winner, first.method, first.end_round)
        assert other.final_styles == first.final_styles and other.final_stamina == first.final_stamina
        assert [(r, p, bytes(f)) for r, p, f in other.log] == [(r, p, bytes(f)) for r, p, f in first.log]


@settings(max_examples=200, deadline=None)
@given(matches())
def test_the_many_sided_engine_is_the_singles_engine_for_two_sides(case):
    """docs/rulings/matchmatch.md: with two sides every multi-way rule is the singles rule."""
    from fedtool.rulesets.matchmatch.multiway import resolve_many

    setup, seed = case
    singles = engine.resolve(setup, SeededDice(seed))
    many = resolve_many(setup, SeededDice(seed))
    assert (many.winner, many.method, many.end_round) == (singles.winner, singles.method, singles.end_round)
    assert many.loser == singles.loser
    assert (many.final_stamina, many.final_styles, many.injuries, many.dq_thresholds) == (
        singles.final_stamina, singles.final_styles, singles.injuries, singles.dq_thresholds)
    assert [(r, p, bytes(f)) for r, p, f in many.log] == [(r, p, bytes(f)) for r, p, f in singles.log]
    for a, b in zip(many.rounds, singles.rounds):
        assert (a.style, a.winner, a.margin, [s and s.total for s in a.sides]) == (b.style, b.winner, b.margin, [s and s.total for s in b.sides])
        assert [(c.side, c.total, c.count) for c in a.checks] == [(c.side, c.total, c.count) for c in b.checks]
