"""Face to the Mat over random legal matches of every type (hypothesis), issue 14's Done-when:
no pin attempt is ever made by a wrestler who did not move onto the PIN space himself
(rulebook 8.a, 12.3.a "Attacker reaches PIN space"), and no post-match event changes the
recorded result (5.c, 5.d; 12.1.h "Resolve post-match storyline" comes after the match).

Each case is a random match (singles, cage, hardcore, grudge, tag, both three-for-alls, the
three battle royale methods), random cards, plans and advanced options, played with the
packaged data on seeded dice. The post-match storyline's own dice are forced: the same match
is played twice with two different post-match events, so any post-match event reaches the
result if it can.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import Dice, SeededDice
from fedtool.rulesets.base import Booking
from fedtool.rulesets.facemat import FaceToTheMat
from fedtool.rulesets.facemat.engine import Options, Plan, Setup
from fedtool.rulesets.facemat.rules import data
from fedtool.rulesets.facemat.sheet import Wrestler
from fedtool.rulesets.facemat.terms import GRADES, SKILLS, SYMBOLS

# (match type, format, chart, wrestlers): every legal Face to the Mat match (9.a-9.f)
TYPES = [("normal", None, "normal", 2), ("cage", None, "cage", 2), ("hardcore", None, "hardcore", 2),
         ("grudge", None, "normal", 2), ("tag", None, "normal", 4), ("hardcore tag", None, "hardcore", 4),
         ("three_for_all", "every_man", "normal", 3), ("three_for_all", "two_on_one", "cage", 3),
         ("battle_royale", "match_up", "normal", 5), ("battle_royale", "quick_play", "normal", 6),
         ("battle_royale", "four_play", "hardcore", 6)]
RANGES = [(11, 16), (11, 26), (11, 33), (11, 43), (21, 36), (11, 66)]
POST = ("post-match storyline: reel 1d6", "post-match storyline: event 2d6")


class PostMatchForced(Dice):
    """Seeded dice, except the post-match storyline's reel and event, which are `forced`."""

    def __init__(self, seed: int, forced: tuple):
        super().__init__()
        self.inner, self.forced = SeededDice(seed), forced

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        if purpose == POST[0]:
            faces = bytes([self.forced[0]])
        elif purpose == POST[1]:
            faces = bytes(self.forced[1:])
        else:
            faces = self.inner.roll(count, sides, purpose)
        self._log.append((self.round, purpose, faces))
        return faces


@st.composite
def wrestlers(draw, k: int, mean: bool):
    skills = draw(st.dictionaries(st.sampled_from(SKILLS), st.sampled_from(SYMBOLS), min_size=2, max_size=9))
    if mean:
        skills["MEAN"] = skills.get("MEAN", "star")
    return Wrestler(f"w{k}", f"W{k}", draw(st.sampled_from(GRADES)), draw(st.integers(-2, 6)), draw(st.sampled_from(("face", "heel"))),
                    skills, "the Drop", draw(st.sampled_from(RANGES)), {})


@st.composite
def matches(draw):
    stipulation, fmt, chart, n = draw(st.sampled_from(TYPES))
    kind = stipulation.split()[-1]
    men = tuple(draw(wrestlers(k, chart == "hardcore")) for k in range(n))
    options = Options(
        objects=draw(st.booleans()), object_spaces=(4, 8, 11), advanced_tag=draw(st.booleans()), refreshment=draw(st.booleans()),
        ref_bump=draw(st.sampled_from(("fac", "downed", "off"))), out_of_ring=draw(st.booleans()), increased_kickouts=draw(st.booleans()))
    plans = tuple(Plan(use_object=draw(st.sampled_from(("always", "never", "when_trailing"))),
                       call_for_help=draw(st.sampled_from(("never", "when_trailing", "at_once")))) for _ in range(n))
    sides, partners = (men[:1] + men[2:3], men[1:2] + men[3:]) if kind == "tag" else (men, ())
    hotbox = {"allies": [f"Ally {k}" for k in range(len(sides))], "foes": [f"Foe {k}" for k in range(len(sides))], "grudge": ["G1", "G2"]}
    mode = {"every_man": "every_man", "two_on_one": "two_on_one"}.get(fmt, "singles")
    setup = Setup("m", sides, hotbox, chart, draw(st.sampled_from(("standard", "steep", "flat"))), (3, 2, 1), draw(st.booleans()), partners,
                  mode=mode, plans=plans, options=options, ref_bump_at=draw(st.none() | st.integers(1, 30)))
    extra = {"stipulation": stipulation, "match_type": kind, "format": fmt, "mini_match_to": draw(st.sampled_from((8, 12, 15)))}
    forced = [(draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 6))) for _ in range(2)]
    return setup, extra, draw(st.integers(0, 2**63)), forced


def play(setup, extra, seed, forced):
    return FaceToTheMat().resolve(Booking(None, setup, [], [], dict(extra)), PostMatchForced(seed, forced))


def pins_by_wrestlers_who_did_not_reach(result, pin_spaces) -> list:
    """Every pin attempt (a `pin` line, its `who` the attacker) whose attacker's token did not
    last move forward: the track is read from the lines' snapshots alone."""
    n = len(result.positions)
    last = None
    forward = [False] * n
    wrong = []
    for ln in result.lines:
        if len(ln.positions) != n:
            continue
        if last is not None:
            for k in range(n):
                if ln.positions[k] != last[k]:
                    forward[k] = ln.positions[k] > last[k]
        last = ln.positions
        if ln.kind == "pin" and ln.who is not None and not (forward[ln.who] and ln.positions[ln.who] in pin_spaces):
            wrong.append((ln.fac, ln.who, ln.positions, ln.text))
    return wrong


@settings(max_examples=250, deadline=None)
@given(matches())
def test_no_pin_without_reaching_and_the_result_is_final_at_the_bell(case):
    setup, extra, seed, forced = case
    pin_spaces = set(data()["track"]["pin_spaces"])
    first, second = play(setup, extra, seed, forced[0]), play(setup, extra, seed, forced[1])
    assert pins_by_wrestlers_who_did_not_reach(first, pin_spaces) == []
    # no post-match event changes the result: two different ones leave it the same
    recorded = lambda r: (r.winner, r.method, r.facs, r.positions, r.eliminations)  # noqa: E731
    assert recorded(first) == recorded(second)
    for result in (first, second):
        kinds = [ln.kind for ln in result.lines]
        bell = kinds.index("post_match") if "post_match" in kinds else kinds.index("end")
        before = result.lines[bell - 1].positions
        after = result.lines[bell:]
        assert all(ln.positions == before for ln in after if len(ln.positions) == len(before))
        assert not [ln for ln in after if ln.kind in ("pin", "finisher", "elimination", "move")]
        assert list(before) == result.positions
        assert all(ln.text.startswith("After the bell: ") for ln in after if ln.kind == "post_match")
