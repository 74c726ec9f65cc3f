"""MatchMatch's record-free odds path (`engine.prepare` + `engine.play`, `MatchMatch.trial`)
against the full path (`engine.resolve`, every round recorded and every roll logged), roll
for roll: over thousands of random matches (singles and tag, three and four sides, every
round type, stipulations, the fed's readings of IV.2.e and VII, per-round lists, per-style
plans and conditionals, allowances that run out) the same seed gives the same winner,
finish and last round, and leaves the dice at the same place on both streams."""

from __future__ import annotations

import random  # the test's own generator of random matches; the engines roll only the dice handed in

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import ScriptedDice, SeededDice, format_log
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.matchmatch import engine
from fedtool.rulesets.matchmatch.rules import vocabulary
from fedtool.rulesets.matchmatch.strategy import Action, Condition, Strategy, StylePlan
from mm_builders import STYLE_IDS, make_sheet

VOCAB = vocabulary()
PLUS_STYLES = [s for s in STYLE_IDS if s != "teamwork"]
TYPES = list(VOCAB.round_types)
# weighted toward what players strat, so matches run long enough to reach the corners
WEIGHTED = ["normal"] * 6 + ["defensive"] * 2 + ["high_risk"] * 3 + ["illegal", "vile_cheat"] * 2 + TYPES
TARGETS = [*STYLE_IDS, *["stamina"] * 6]
CONDITION_KEYS = ["round_at_least", "specials_unused_by_round", "high_spots_unused_by_round", "own_stamina_below", "opponent_stamina_below"]


def random_action(rng: random.Random, round_no: int = 0) -> Action:
    return Action(round_no, VOCAB.round_types[rng.choice(WEIGHTED)], rng.choice(TARGETS), "")


def random_strategy(rng: random.Random, rounds: int, grid: str) -> Strategy:
    plus = tuple(rng.sample(PLUS_STYLES, 2))
    minus = rng.choice(STYLE_IDS)
    form = rng.random()
    if form < 0.55:  # a per-round list
        return Strategy(plus, minus, grid, tuple(random_action(rng, n) for n in range(1, rounds + 1)))
    # gaps in the list filled by per-style plans ("All" last, so every round is covered), conditionals first
    written = tuple(random_action(rng, n) if rng.random() < 0.4 else None for n in range(1, rounds + 1))
    by_style = {}
    for style in STYLE_IDS:
        plans = []
        if rng.random() < 0.5:
            plans.append(StylePlan(1, rng.randint(1, 3), random_action(rng)))
        plans.append(StylePlan(1, None, random_action(rng)))
        by_style[style] = tuple(plans)
    conditions = tuple(Condition({key: rng.randint(0, 12)}, random_action(rng), key) for key in rng.sample(CONDITION_KEYS, rng.randint(0, 2)))
    return Strategy(plus, minus, grid, written, by_style=by_style, conditions=conditions)


def random_stipulation(rng: random.Random) -> engine.Stipulation:
    if rng.random() < 0.5:
        return engine.Stipulation()
    return engine.Stipulation(
        name="random", id="random", added_styles=tuple(rng.sample(PLUS_STYLES, rng.randint(0, 3))), pin=rng.randint(-4, 2),
        injury_chance=rng.randint(0, 4), injury_damage=rng.randint(1, 4), damage=rng.randint(-2, 2),
        halved_styles=tuple(rng.sample(PLUS_STYLES, rng.randint(0, 2))),
    )


def random_setup(rng: random.Random, sides: int | None = None) -> engine.MatchSetup:
    count = sides or rng.choice([2] * 6 + [3, 4])
    rounds = rng.choice([20, 20, rng.randint(1, 30)])
    grid = [[rng.choice(PLUS_STYLES) for _ in range(3)] for _ in range(3)]
    picks = [rng.choice("ABC"), rng.choice("123")] + [rng.choice("ABC") + rng.choice("123") for _ in range(count - 2)]
    made = []
    for i in range(count):
        sheet = make_sheet(f"s{i}", stamina=rng.choice([rng.randint(0, 15), rng.randint(6, 12)]),
                           styles={s: rng.randint(0, 12) for s in STYLE_IDS}, defenses={s: rng.randint(0, 3) for s in STYLE_IDS},
                           high_spots=rng.randint(0, 3))
        made.append(engine.Side(sheet.id, sheet.name, sheet, random_strategy(rng, rounds, picks[i]), injury=rng.randint(0, 4),
                                dq_threshold=rng.randint(5, 12), specials=rng.choice([None, rng.randint(0, 5)])))
    rules = engine.Rules(injury_counts=rng.choice(["inflicted", "lost"]), cripple_tie=rng.choice(["no_check", "check"]),
                         halved_styles=rng.choice(["value", "table"]))
    return engine.MatchSetup("random", tuple(made), grid, rounds, random_stipulation(rng), tag=count == 2 and rng.random() < 0.25, rules=rules)


def next_rolls(dice) -> tuple:
    """What the dice roll next on both streams: equal only when both paths took the same dice."""
    return tuple(dice.roll(8, 6, "after")) + tuple(dice.roll(4, 20, "after"))


def both_paths(setup: engine.MatchSetup, seed: int) -> tuple[tuple, tuple]:
    full_dice, dice = SeededDice(seed), SeededDice(seed)
    full = engine.resolve(setup, full_dice)
    fast = engine.play(engine.prepare(setup), dice)
    return ((full.winner, full.method, full.end_round), next_rolls(full_dice)), (fast, next_rolls(dice))


@pytest.mark.parametrize("batch", range(4))
def test_the_odds_path_plays_what_the_full_path_plays(batch):
    """4 x 1,500 random matches, one seed each, mostly two sides: the same result and the
    same dice used on both paths."""
    rng = random.Random(f"odds path {batch}")
    seen: set = set()
    for n in range(1500):
        setup = random_setup(rng)
        seed = rng.getrandbits(64)
        full, fast = both_paths(setup, seed)
        assert fast == full, f"batch {batch} match {n} seed {seed}"
        seen.add((len(setup.sides), full[0][1]))
    # the random matches reached every finish, two sides and more
    assert {m for s, m in seen if s == 2} >= {engine.PIN, engine.SUBMISSION, engine.COUNTOUT, engine.DQ, engine.TIME_LIMIT}
    assert {s for s, _ in seen} == {2, 3, 4}


def test_the_odds_path_plays_every_kind_of_round():
    """The random matches of the test above reach each corner of a round on the odds path:
    checked on the full path's records of the same matches (High Risk extra dice, a survived
    Vile Cheat, a DQ, a tie, a tied round's injury check, a Cripple check, a style die
    past the table's end and a halved style's roll again, a d8 table)."""
    rng = random.Random("odds path 0")
    found: set[str] = set()
    for _ in range(1500):
        setup = random_setup(rng)
        result = engine.resolve(setup, SeededDice(rng.getrandbits(64)))
        for _, purpose, faces in result.log:
            found.add(purpose.split(" ", 1)[1] if purpose.startswith(tuple(s.name for s in setup.sides)) else purpose)
        for rnd in result.rounds:
            if rnd.winner is None and rnd.hits and rnd.injuries:
                found.add("tied round's injury check")
            if any(check.cripple for check in rnd.injuries):
                found.add("cripple check")
            if len(rnd.style_faces) > 1:
                found.add("style rolled again")
    assert {"High Risk extra d6 for a 3", "Vile Cheat 2d6", "DQ check 2d6", "injury check 3d6", "victory check 3d6",
            "round style d6", "round style d8", "halved style d6 (4-6 roll again)", "tied round's injury check",
            "cripple check", "style rolled again"} <= found


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**64 - 1), st.sampled_from([2, 2, 2, 3, 4]))
def test_the_odds_path_on_any_match(match, seed, sides):
    """Hypothesis picks the match and the seed (and shrinks a difference to a small case)."""
    setup = random_setup(random.Random(match), sides)
    full, fast = both_paths(setup, seed)
    assert fast == full


def test_the_odds_path_reads_scripted_dice_through_resolve():
    """Dice with no d6 buffer (a replayed log) are played by `resolve`: the same result."""
    rng = random.Random("scripted")
    for _ in range(50):
        setup = random_setup(rng, 2)
        full = engine.resolve(setup, SeededDice(rng.getrandbits(64)))
        replay = engine.play(engine.prepare(setup), ScriptedDice.parse(format_log(full.log), "log"))
        assert replay == (full.winner, full.method, full.end_round)


def test_a_trial_is_the_odds_path_on_prepared_and_bare_setups():
    """`MatchMatch.trial` plays `trial_setup`'s constants, or a bare setup prepared on the spot."""
    ruleset = get_ruleset("matchmatch")
    rng = random.Random("trial")
    for _ in range(100):
        setup = random_setup(rng)
        seed = rng.getrandbits(64)
        full = engine.resolve(setup, SeededDice(seed))
        for given_setup in (engine.prepare(setup), setup):
            trial = ruleset.trial(given_setup, SeededDice(seed))
            assert (trial.winner, trial.method, trial.length) == (full.winner, full.method, full.end_round)


def test_the_d6_buffer_is_the_d6_stream():
    """`SeededDice.d6_buffer` hands out the faces `roll` would have, in order, and a reader's
    position handed back is where the next `roll` starts; nothing it hands out is logged."""
    rolled, read = SeededDice(99), SeededDice(99)
    expected = b"".join(rolled.roll(3, 6, "x") for _ in range(400))  # 1,200 faces: past two SHAKE blocks
    got = bytearray()
    buffer, at = read.d6_buffer(40)
    while len(got) < len(expected):
        assert len(buffer) - at >= 40
        got += buffer[at:at + 7]
        buffer, at = read.d6_buffer(40, at + 7)
    assert bytes(got[:len(expected)]) == expected
    read.d6_buffer(0, at - (len(got) - len(expected)))  # hand back what was read past the 1,200th face
    assert read.roll(5, 6, "next") == rolled.roll(5, 6, "next")
    assert read.log == [(0, "next", read.log[0][2])]
