"""Face to the Mat's record-free path (issue 18: odds "with a record-free path (no writeup
records, no narration) that gives the same results as the full path for the same seed").

Thousands of random matches of every type (singles on each chart, grudge, tag, both
three-for-alls, the three battle royale methods), with random cards, tiers, champions,
plans and every advanced option of section 10, are played twice on the same seed: once as
the run plays them (`FaceToTheMat.resolve`, every line and record kept) and once as the odds
do (`FaceToTheMat.trial`, the engine with `record=False`). Both must roll the very same dice,
roll for roll (the whole dice log: round, purpose and faces), and end the same way. The
record-free path must make no text at all: no placeholder filled, no line told.
"""

from __future__ import annotations

import random

import pytest

from fedtool.kernel.commentary import Teller
from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.base import Booking
from fedtool.rulesets.facemat import FaceToTheMat, royale
from fedtool.rulesets.facemat import engine
from fedtool.rulesets.facemat.engine import Options, Plan, Setup, teams_of
from fedtool.rulesets.facemat.sheet import Wrestler
from fedtool.rulesets.facemat.terms import GRADES, SKILLS, SYMBOLS

# (stipulation, format, chart, wrestlers): every Face to the Mat match type (9.a-9.f)
TYPES = [("normal", None, "normal", 2), ("cage", None, "cage", 2), ("hardcore", None, "hardcore", 2),
         ("grudge", None, "normal", 2), ("tag", None, "normal", 4), ("hardcore tag", None, "hardcore", 4),
         ("three_for_all", "every_man", "normal", 3), ("three_for_all", "two_on_one", "cage", 3),
         ("battle_royale", "match_up", "normal", 5), ("battle_royale", "quick_play", "normal", 6),
         ("battle_royale", "four_play", "hardcore", 6)]
RANGES = [(11, 16), (11, 26), (11, 33), (11, 43), (21, 36), (11, 66)]
PER_TYPE = 300  # 11 types: 3,300 random matches, each played both ways


def random_match(rng: random.Random, stipulation: str, fmt: str | None, chart: str, n: int) -> Booking:
    """A random legal match of the type, as a booking the ruleset resolves and the odds play."""
    kind = stipulation.split()[-1]
    men = []
    for k in range(n):
        skills = {s: rng.choice(SYMBOLS) for s in rng.sample(SKILLS, rng.randint(2, 9))}
        if chart == "hardcore":
            skills.setdefault("MEAN", "star")
        tiers = rng.choice(["average", "average", (rng.randint(0, 5), rng.randint(0, 3), rng.randint(0, 2))])
        moves = {rng.choice(SKILLS): "a running knee"} if rng.random() < 0.5 else {}
        men.append(Wrestler(f"w{k}", f"W{k}", rng.choice(GRADES), rng.randint(-2, 6),
                            rng.choice(("face", "heel")), skills, "the Drop", rng.choice(RANGES), moves, tiers=tiers))
    men = tuple(men)
    options = Options(objects=rng.random() < 0.4, object_spaces=tuple(sorted(rng.sample(range(1, 15), 3))), object_bonus=rng.randint(1, 3),
                      advanced_tag=rng.random() < 0.5, refreshment=rng.random() < 0.5, ref_bump=rng.choice(("fac", "downed", "off")),
                      out_of_ring=rng.random() < 0.4, increased_kickouts=rng.random() < 0.4, weapons=rng.random() < 0.5,
                      cage_helped=rng.choice(("half_down", "half_up")))
    plans = tuple(Plan(signature_moves=(("TV_MOVE", "a lariat"),) if rng.random() < 0.3 else (), finisher_name=rng.choice([None, "the Hammer"]),
                       use_object=rng.choice(("always", "never", "when_trailing")), call_for_help=rng.choice(("never", "when_trailing", "at_once")),
                       promo=rng.choice(["", "I am here."]))
                  for _ in range(n))
    sides, partners = (men[:1] + men[2:3], men[1:2] + men[3:]) if kind == "tag" else (men, ())
    hotbox = {"allies": [f"Ally {k}" for k in range(len(sides))], "foes": [f"Foe {k}" for k in range(len(sides))], "grudge": ["G1", "G2"]}
    mode = {"every_man": "every_man", "two_on_one": "two_on_one"}.get(fmt, "singles")
    champions = {men[k].id: ["TV title"] for k in range(n) if rng.random() < 0.3}
    setup = Setup("m", sides, hotbox, chart, rng.choice(("standard", "steep", "flat")), rng.choice([(3, 2, 1), (4, 2, 1)]), rng.random() < 0.5,
                  partners, mode=mode, plans=plans, options=options, ref_bump_at=rng.choice([None, rng.randint(1, 30)]), champions=champions)
    teams = list(teams_of(setup))
    layout = [[0, 2], [1, 3]] if kind == "tag" else [[k] for k in range(len(sides))]
    extra = {"stipulation": stipulation, "match_type": kind, "format": fmt, "mini_match_to": rng.choice((8, 12, 15)),
             "interviews": rng.random() < 0.5, "sides": layout, "teams": teams}
    if kind == "grudge" and rng.random() < 0.3:
        extra["special_prize"] = rng.choice(("tv_grade", "extra_grade"))
    return Booking(None, setup, [], [], extra)


def both_ways(booking: Booking, seed: int):
    """The run's path and the odds' path on the same seed: what each ended with, each dice log."""
    ruleset = FaceToTheMat()
    full_dice = SeededDice(seed)
    full = ruleset.resolve(Booking(None, booking.setup, [], [], dict(booking.extra)), full_dice)
    fast_dice = SeededDice(seed)
    trial = ruleset.trial(ruleset.trial_setup(booking), fast_dice)
    teams = booking.extra["teams"]
    ended = (None if full.winner is None else teams[full.winner], full.method, full.facs)
    return ended, full.log + full_dice.log, (trial.winner, trial.method, trial.length), fast_dice.log


@pytest.mark.parametrize("stipulation, fmt, chart, n", TYPES, ids=[f"{t[0]}-{t[1] or t[2]}" for t in TYPES])
def test_the_record_free_path_rolls_what_the_full_path_rolls(stipulation, fmt, chart, n):
    """Roll for roll (the whole dice log) and the same winner, finish and length, over
    hundreds of random matches of this type; the matches reach more than one finish."""
    rng = random.Random(f"{stipulation}/{fmt}/{chart}")
    finishes = set()
    boos = 0
    for case in range(PER_TYPE):
        booking = random_match(rng, stipulation, fmt, chart, n)
        seed = rng.getrandbits(63)
        ended, full_log, trial, fast_log = both_ways(booking, seed)
        assert fast_log == full_log, f"case {case}, seed {seed}: the record-free path rolled other dice"
        assert trial == ended, f"case {case}, seed {seed}"
        finishes.add(ended[1])
        boos += any(purpose == "Boo rule 1d6" for _, purpose, _ in fast_log)
    assert len(finishes) >= 2, finishes
    # the record-free path counts FACs that move nothing only with the Boo rule on (10.a): the
    # matches compared include some where the crowd boos, so that count is held to the full path's
    assert boos >= 5, boos


@pytest.mark.parametrize("stipulation, fmt, chart, n", TYPES, ids=[f"{t[0]}-{t[1] or t[2]}" for t in TYPES])
def test_the_engine_without_records_ends_as_with_them(stipulation, fmt, chart, n):
    """The engine itself (`resolve`, `battle_royale`) with and without records: the same
    winner, finish, FACs, final track, eliminations and league effects (less their text)."""
    rng = random.Random(f"engine {stipulation}/{fmt}/{chart}")
    for case in range(PER_TYPE // 4):
        booking = random_match(rng, stipulation, fmt, chart, n)
        setup, extra = booking.setup, booking.extra
        seed = rng.getrandbits(63)
        played = []
        for record in (True, False):
            dice = SeededDice(seed)
            if extra["match_type"] == "battle_royale":
                result = royale.battle_royale(setup, extra["format"], dice, extra["mini_match_to"], record=record)
            else:
                result = engine.resolve(setup, dice, record=record)
            played.append((result.winner, result.method, result.facs, list(result.positions), result.eliminations,
                           [effect[:3] for effect in result.league], (result.log if record else []) + dice.log))
        assert played[0] == played[1], f"case {case}, seed {seed}"


def test_the_record_free_path_makes_no_text(monkeypatch):
    """Issue 18: "narration text is formatted inside the match loop"; on the odds path no
    placeholder is filled, no line is made and no phrase is looked up."""
    def refuse(*args, **kwargs):
        raise AssertionError("text made on the record-free path")

    monkeypatch.setattr(engine, "_Fill", refuse)  # every filled placeholder (a card's, a chart's, a reel's)
    monkeypatch.setattr(engine, "_weave", refuse)  # a signature move woven into a card's sentence
    monkeypatch.setattr(engine, "told_line", refuse)
    monkeypatch.setattr(royale, "told_line", refuse)
    monkeypatch.setattr(Teller, "say", refuse)
    rng = random.Random("no text")
    ruleset = FaceToTheMat()
    for stipulation, fmt, chart, n in TYPES:
        for _ in range(40):
            booking = random_match(rng, stipulation, fmt, chart, n)
            ruleset.trial(ruleset.trial_setup(booking), SeededDice(rng.getrandbits(63)))


def fed_tables(rng: random.Random) -> dict:
    """A fed's own data (rule 2: the board and cards are the fed's to choose): a longer track
    with its shapes, PIN spaces, corner and finisher elsewhere, and a small deck drawn from the
    packaged one, so that it runs out and is gathered up again many times a match."""
    from fedtool.rulesets.facemat.rules import data

    tables = dict(data())
    finish = rng.randint(16, 22)
    pins = sorted(rng.sample(range(finish - 5, finish), 3))
    tables["track"] = {"spaces": [{"space": k, "shape": rng.choice(("circle", "square", "none")), "label": f"S{k}"} for k in range(finish + 1)],
                       "pin_spaces": pins, "finisher_space": finish, "corner": rng.randint(finish - 8, pins[0] - 1), "start": 0}
    tables["facs"] = rng.sample(list(data()["facs"]), rng.randint(12, 40))
    return tables


@pytest.mark.parametrize("stipulation, fmt, chart, n", TYPES, ids=[f"{t[0]}-{t[1] or t[2]}" for t in TYPES])
def test_the_record_free_path_rolls_what_the_full_path_rolls_on_a_feds_own_board_and_deck(stipulation, fmt, chart, n):
    """The record-free path reads the track and the deck from tables it makes once a setup
    (each card by its index, each side's skills by type and space): on a fed's own track and a
    small deck (gathered up again many times a match) it still rolls, roll for roll, what the
    full path rolls and ends the same way."""
    from dataclasses import replace

    rng = random.Random(f"fed tables {stipulation}/{fmt}/{chart}")
    for case in range(PER_TYPE // 5):
        booking = random_match(rng, stipulation, fmt, chart, n)
        booking = Booking(None, replace(booking.setup, tables=fed_tables(rng)), [], [], booking.extra)
        seed = rng.getrandbits(63)
        ended, full_log, trial, fast_log = both_ways(booking, seed)
        assert fast_log == full_log, f"case {case}, seed {seed}: the record-free path rolled other dice"
        assert trial == ended, f"case {case}, seed {seed}"


@pytest.mark.parametrize("stipulation, fmt, chart, n", TYPES, ids=[f"{t[0]}-{t[1] or t[2]}" for t in TYPES])
def test_what_the_bouts_of_a_setup_share_no_bout_changes(stipulation, fmt, chart, n):
    """Issue 18: a record-free bout shares with every other bout of its setup what no step of
    it can change (`_Prepared.unchanged`: who is in the ring unless a tag, objects held unless
    objects or weapons are played, calls for help unless one may be made, chips on cards,
    the waiting wrestlers, empty chip sets). After many matches of every option each of those
    is still as it was made; a step that changed one would change every later match."""
    rng = random.Random(f"shared {stipulation}/{fmt}/{chart}")
    ruleset = FaceToTheMat()
    for _ in range(30):
        booking = random_match(rng, stipulation, fmt, chart, n)
        setup = ruleset.trial_setup(booking)
        for _ in range(20):
            ruleset.trial(setup, SeededDice(rng.getrandbits(63)))
        played = [setup.setup, *(setup.charts or {}).values()]
        if fmt == "four_play":
            played.append(royale.four_play(setup.setup))
        if fmt == "match_up":
            played += [s for (owner, _, minis) in royale._MINIS.values() if owner is setup.setup for s in minis.values()]
        for made in played:
            prep = engine._prepare(made)
            seen, flags = prep.unchanged
            assert [list(x) for x in seen] == [list(prep.men), *map(list, prep.sides), list(prep.side_able), list(prep.side_help)]
            for flag in flags:
                assert flag is None or not any(flag), flag
