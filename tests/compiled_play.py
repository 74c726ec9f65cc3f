"""Play thousands of random matches of every ruleset and print a digest of everything they did
(tests/test_compiled.py runs this twice, compiled and with FEDTOOL_PURE_PYTHON=1, and compares).

Per ruleset, each random match is played on the full path (the weekly run's: records,
writeup events, purposes in full) and on the odds' record-free path (`trial` or the engine with
`record=False`), with random sides, strategies and fed settings drawn as the fast-path tests draw
them (their generators are imported from those tests). What goes into the digest: every dice
log (round, purpose, faces) and the repr of every result, records included, with object
addresses removed. The same interpreter, hash seed and matches give the same digest unless a
compiled module plays differently from its .py.

    PYTHONHASHSEED=0 python tests/compiled_play.py [--matches N] [--only RULESET]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random  # the test's own generator of random matches; the engines roll only the dice handed in
import re
import sys
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the fast-path tests' generators

import fedtool  # noqa: E402
from fedtool.kernel.dice import SeededDice  # noqa: E402
from fedtool.rulesets.base import Booking  # noqa: E402

ADDRESS = re.compile(r" at 0x[0-9a-f]+")


class Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.count = 0

    def add(self, *things) -> None:
        for thing in things:
            self.hash.update(ADDRESS.sub("", repr(thing)).encode("utf-8", "backslashreplace"))
            self.hash.update(b"\x1e")
        self.count += 1


def matchmatch(rng: random.Random, matches: int, digest: Digest) -> None:
    from fedtool.rulesets.matchmatch import engine
    from test_mm_odds_path import random_setup

    for _ in range(matches):
        setup, seed = random_setup(rng), rng.getrandbits(63)
        full_dice, fast_dice = SeededDice(seed), SeededDice(seed)
        full = engine.resolve(setup, full_dice)
        fast = engine.play(engine.prepare(setup), fast_dice)
        digest.add(full, full_dice.log, fast, fast_dice.log, fast_dice.roll(8, 6, "after"), fast_dice.roll(4, 20, "after"))


def facemat(rng: random.Random, matches: int, digest: Digest) -> None:
    from fedtool.rulesets.facemat import FaceToTheMat
    from test_facemat_fast import TYPES, random_match

    ruleset = FaceToTheMat()
    for k in range(matches):
        booking, seed = random_match(rng, *TYPES[k % len(TYPES)]), rng.getrandbits(63)
        full_dice, fast_dice = SeededDice(seed), SeededDice(seed)
        full = ruleset.resolve(Booking(None, booking.setup, [], [], dict(booking.extra)), full_dice)
        fast = ruleset.trial(ruleset.trial_setup(booking), fast_dice)
        digest.add(full, full_dice.log, fast, fast_dice.log)


def matclash(rng: random.Random, matches: int, digest: Digest) -> None:
    from fedtool.rulesets.matclash import cards, engine
    from test_matclash_fast_path import make_policies

    decks = [cards.build_deck(), cards.build_deck(("wave1", "wave2", "wave3", "short_print"))]
    for k in range(matches):
        sides = [None if rng.random() < 0.4 else (rng.getrandbits(32), rng.choice([0.02, 0.1, 0.3]), rng.choice([0.0, 0.3, 0.9]),
                                                  rng.choice([0.0, 0.3, 0.9]), rng.choice([0.0, 0.3, 0.9])) for _ in range(2)]
        rules = engine.Rules(stalling_ban=rng.choice(["next_play", "turn"]), wizardry_erases=rng.choice(["his_cards", "stack", "scoring"]),
                             resilience_stops_spladle=rng.random() < 0.5, early_falls=rng.choice(["fall", "no_fall"]),
                             tie_when_ahead=rng.choice(["tie", "no_points", "not_playable"]))
        play = engine.dual_match if k % 8 == 0 else engine.quick_scrap
        deck, seed = rng.choice(decks), rng.getrandbits(63)
        for record in (True, False):
            dice = SeededDice(seed)
            result = play(["A", "B"], make_policies(sides), deck, dice, rules=rules, record=record)
            digest.add(result, dice.log)


def madmatch(rng: random.Random, matches: int, digest: Digest) -> None:
    from fedtool.rulesets.madmatch import MadMatch
    from fedtool.rulesets.madmatch.deck import load_deck
    from fedtool.rulesets.madmatch.engine import Rules, Side, play_match
    from fedtool.rulesets.madmatch.solitaire import SolitaireRules, play_round
    from fedtool.rulesets.madmatch.strategy import ActionRule, Strategy

    deck = load_deck()
    held = [a.id for a in deck.actions if a.effect != "freeze"] + ["steal", "destroy"]
    whens = ["default", "always", "never", "leading", "trailing", "endgame", "turn 5 or later"]
    ruleset = MadMatch()

    def strategy() -> Strategy:
        actions = {key: ActionRule(rng.choice(whens), rng.choice(["best", "leader", "next", "strike"])) for key in rng.sample(held, rng.randint(0, 4))}
        return Strategy(rng.choice(["unseen_first", "half_remembered_first"]), rng.choice(["always", "when_better", "never"]), rng.random() < 0.5,
                        rng.randint(1, 30), rng.randint(0, 45), actions, keep_free=rng.randint(0, 5))

    for k in range(matches):
        n = rng.choice([2, 2, 2, 3, 4])
        sides = [Side("ABCD"[p], rng.randint(0, 22), strategy()) for p in range(n)]
        rules = Rules(rng.choice([6, 10, 20]), rng.randint(1, 8), rng.choice(["stay", "turn_back"]), 400, rng.random() < 0.5)
        variation = rng.choice(["mad_match"] * 4 + ["classic"])
        fmt = rng.choice(["best_of_three", "target", "single"])
        seed = rng.getrandbits(63)
        for record in (True, False):
            dice = SeededDice(seed)
            digest.add(play_match(deck, sides, dice, rules, variation, fmt, 12 if variation == "classic" else 150, 9, record=record), dice.log)
        setup = {"variation": variation, "format": fmt, "target": 12 if variation == "classic" else 150, "deck": deck, "sides": sides,
                 "ids": [f"p{p}" for p in range(n)], "names": [s.name for s in sides], "rules": rules, "max_games": 9,
                 "solitaire": SolitaireRules()}
        booking = Booking(None, setup, [])
        if k % 4 == 0:  # the ruleset's hooks: the run's resolve (records) and the odds' trial
            run_dice, odds_dice = SeededDice(seed), SeededDice(seed)
            digest.add(ruleset.resolve(booking, run_dice), run_dice.log, ruleset.trial(ruleset.trial_setup(booking), odds_dice), odds_dice.log)
        if k % 5 == 0:
            solitaire = SolitaireRules(rng.choice(["triplets", "cards"]), rng.choice([0, 1, 3]))
            keep = [rng.randint(0, 5) for _ in range(rng.randint(1, 4))]
            for record in (True, False):
                dice = SeededDice(seed)
                digest.add(play_round(deck, [f"P{p}" for p in range(len(keep))], keep, dice, solitaire, record=record), dice.log)


RULESETS = {"matchmatch": matchmatch, "facemat": facemat, "matclash": matclash, "madmatch": madmatch}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1000, help="random matches per ruleset")
    parser.add_argument("--only", choices=sorted(RULESETS))
    args = parser.parse_args()
    out = {}
    for name, play in RULESETS.items():
        if args.only and name != args.only:
            continue
        digest, start = Digest(), time.process_time()
        play(random.Random(f"compiled vs pure: {name}"), args.matches, digest)
        out[name] = {"digest": digest.hash.hexdigest(), "plays": digest.count, "seconds": round(time.process_time() - start, 2)}
    ours = {name: getattr(module, "__file__", None) or "" for name, module in sys.modules.items() if name.split(".")[0] == "fedtool"}
    print(json.dumps({"rulesets": out, "imported": sorted(ours),
                      "loaded_compiled": sorted(name for name, file in ours.items() if file.endswith(tuple(EXTENSION_SUFFIXES))),
                      "compiled": getattr(fedtool, "compiled_modules", list)()}))  # (a tree from before the compiled path has none)


if __name__ == "__main__":
    main()
