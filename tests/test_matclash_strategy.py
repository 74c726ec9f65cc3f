"""Mat Clash strategy files as players write them (issue 15, "Why"): one test per finding,
each asserting the behaviour after the change (docs/mat-clash-strategy.md).

Situations are built by hand (`engine.Scrap`, then hands, positions, turn, score) and the
policy read from YAML text is asked what it plays, as the engine asks it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import parse_yaml
from fedtool.rulesets.matclash import cards, engine
from fedtool.rulesets.matclash.engine import BOTTOM, NEUTRAL, TOP
from fedtool.rulesets.matclash.policy import Policy, read_policy

C = cards.catalogue()
FILE = "strategies/week-03/tommy-reyes.yaml"


def policy(text: str) -> Policy:
    return read_policy(parse_yaml(text, FILE), FILE)


def refusal(text: str) -> list[str]:
    with pytest.raises(FedError) as caught:
        policy(text)
    return [str(p) for p in caught.value.problems]


class Nobody:
    """The other side: never answers, never plays."""

    def choose(self, scrap, i, options):
        return None

    def answer(self, scrap, i, threat, options):
        return None

    def wants_draw(self, scrap, i, options):
        return False

    def use_cut_em(self, scrap, i):
        return False

    def use_momentum(self, scrap, i, scored_takedown):
        return False


def scrap_of(mine, theirs=(), positions=(NEUTRAL, NEUTRAL), turn=2, score=(0, 0), deck=(), exposed="", me=None):
    scrap = engine.Scrap(["Red", "Blue"], [me or Policy(), Nobody()], [C[x] for x in deck], ScriptedDice([]), 2, 1)
    scrap.hands = [[C[x] for x in mine], [C[x] for x in theirs]]
    scrap.positions = list(positions)
    scrap.turn = turn
    scrap.points = list(score)
    scrap.exposed[0] = exposed
    return scrap


def plays(p: Policy, scrap, i=0):
    choice = p.choose(scrap, i, scrap.turn_options(i))
    return None if choice is None else (choice.card.id, choice.action)


# ---------------------------------------------------------------------------- near_fall is generic

@pytest.mark.parametrize("written", ["near_fall", "Near Fall", "Near-Fall", "near fall"])
def test_near_fall_means_the_best_near_fall_the_situation_allows(written):
    """`top: [pin, near_fall]` plays the best Near Fall held (rulebook: "Near Fall +2, +3, +4"),
    not Near Fall +2 alone."""
    p = policy(f"prefer:\n  top: [pin, {written}]\n")
    scrap = scrap_of(["near_fall_2", "near_fall_4", "near_fall_3"], positions=(TOP, BOTTOM), exposed="momentum")
    assert plays(p, scrap) == ("near_fall_4", "near_fall")
    specific = policy("prefer:\n  top: [near_fall_2]\n")
    assert plays(specific, scrap) == ("near_fall_2", "near_fall")


# ---------------------------------------------------------------------------- prefer sits on the default

def test_a_prefer_list_sits_on_top_of_the_default():
    """The demo's Ada lists no Near Fall +2: she still plays it (the default), and `only:` is the
    allow-list."""
    ada = policy("prefer:\n  top: [spladle, near_fall_5, near_fall_4, near_fall_3, pin, mat_beast]\n")
    scrap = scrap_of(["near_fall_2"], positions=(TOP, BOTTOM), exposed="momentum", turn=0)
    assert plays(ada, scrap) == ("near_fall_2", "near_fall")
    strict = policy("only:\n  top: [spladle, near_fall_5]\n")
    assert plays(strict, scrap) is None


@pytest.mark.parametrize("card", ["stalling", "comeback", "mindset", "wizardry", "resilience"])
def test_a_listed_stalling_tie_wizardry_or_resilience_card_is_played(card):
    """Cards outside the default's turn lists, put first in `prefer`, are played first."""
    p = policy(f"prefer:\n  neutral: [{card}, takedown]\n")
    scrap = scrap_of([card, "takedown"])
    assert plays(p, scrap) == (card, C[card].action)


# ---------------------------------------------------------------------------- nonsense refused

@pytest.mark.parametrize("text, message", [
    ("answer: {takedown: [pin]}\n", "line 1, field answer.takedown: Pin cannot answer a takedown: a takedown is answered only with beastin, clone, defense, scramble"),
    ("hold: {pin: 2}\n", "line 1, field hold.pin: Pin is never held: hold keeps back cards that answer (defense, beastin, scramble, clone)"),
    ("hold: {beastin: -1}\n", "line 1, field hold.beastin: -1 is too small: give 0 or more"),
    ("wizardry_when_erasing: true\n", "line 1, field wizardry_when_erasing: give a whole number here, not True"),
    ("prefer:\n  bottom: []\n", "line 2, field prefer.bottom: an empty list: name at least one card, or leave the line out"),
])
def test_nonsense_is_refused(text, message):
    assert f"{FILE}, {message} [Mat Clash strategy]" in refusal(text)


def test_an_empty_hold_holds_nothing():
    """`hold: {}` keeps nothing back: the last Defense answers a Takedown (no hold at all keeps one)."""
    scrap = scrap_of(["defense"])
    takedown = engine.Play(C["takedown"], "takedown")
    options = [engine.Play(C["defense"], "defense")]
    assert policy("hold: {}\n").answer(scrap, 0, "takedown", options) is not None
    assert policy("draw: when_stuck\n").answer(scrap, 0, "takedown", options) is None
    assert takedown.action == "takedown"


# ---------------------------------------------------------------------------- Cut Em

def _after_takedown(me: Policy):
    """Red on top after his scoring Takedown, holding Cut Em and another Takedown."""
    scrap = scrap_of(["cut_em", "takedown"], ["escape"], positions=(TOP, BOTTOM), score=(3, 0), me=me)
    scrap._extras(0, True)
    return scrap


def test_cut_em_is_not_spent_when_the_policy_will_not_shoot():
    """Cut Em "lets you immediately play another 3-point Takedown": a policy that will not shoot
    keeps it (the opponent is not given a point and let up for nothing)."""
    scrap = _after_takedown(policy("only:\n  neutral: [feet_to_back]\n"))
    assert [c.id for c in scrap.hands[0]] == ["cut_em", "takedown"]
    assert (scrap.points, scrap.positions) == ([3, 0], [TOP, BOTTOM])


def test_cut_em_is_played_when_the_takedown_follows():
    scrap = _after_takedown(Policy())
    assert scrap.hands[0] == []
    assert scrap.points == [6, 1]  # 3 + the new Takedown's 3; Cut Em "gives them 1 point"
    assert scrap.positions == [TOP, BOTTOM]


# ---------------------------------------------------------------------------- conditions on the scrap

STALL_LATE = "plan:\n  - after transition 3, when leading by 4 or more, prefer stalling\n"


@pytest.mark.parametrize("turn, score, expected", [
    (6, (7, 3), ("stalling", "stalling")),  # 3 transitions complete, 4 ahead
    (5, (7, 3), ("takedown", "takedown")),  # the third transition is not complete
    (6, (6, 3), ("takedown", "takedown")),  # 3 ahead
])
def test_a_plan_line_reads_the_transition_and_the_margin(turn, score, expected):
    assert plays(policy(STALL_LATE), scrap_of(["takedown", "stalling"], turn=turn, score=score)) == expected


def test_mat_beast_once_both_beastins_are_gone():
    """"MAT BEAST once both Beastin's are gone": the base deck's two, one in Red's hand and one
    shown by the opponent."""
    p = policy("plan:\n  - when they cannot hold beastin, prefer mat_beast\nprefer:\n  neutral: [feet_to_back]\n")
    scrap = scrap_of(["feet_to_back", "mat_beast", "beastin"], ["takedown", "beastin"], deck=["escape"] * 5)
    assert plays(p, scrap) == ("feet_to_back", "feet_to_back")  # the other Beastin' is unseen: it may be in his hand
    scrap.hands[1].remove(C["beastin"])
    scrap.shown[1].append(C["beastin"])  # he has played it
    assert plays(p, scrap) == ("mat_beast", "mat_beast")


def test_draws_and_deck_conditions():
    p = policy("plan:\n  - with 2 or fewer cards in the deck, prefer stalling\n  - with no draws left, draw never\n"
               "draw: always\n")
    scrap = scrap_of(["takedown", "stalling"], deck=["escape"] * 3)
    assert plays(p, scrap)[0] == "takedown" and p.wants_draw(scrap, 0, scrap.turn_options(0))
    scrap.deck.pop()
    scrap.draws_used[0] = 2
    assert plays(p, scrap)[0] == "stalling" and not p.wants_draw(scrap, 0, scrap.turn_options(0))


@pytest.mark.parametrize("position", [NEUTRAL, BOTTOM])
def test_the_default_pins_from_any_position(position):
    """Ruling 4.3: Pin and MAT BEAST may be played from any position; the default plays them."""
    other = {NEUTRAL: NEUTRAL, BOTTOM: TOP}[position]
    scrap = scrap_of(["takedown", "escape", "pin"], positions=(position, other), turn=2)
    assert plays(Policy(), scrap) == ("pin", "pin")


# ---------------------------------------------------------------------------- errors

def test_a_top_level_list_is_refused_in_the_players_words():
    message = refusal("- takedown\n- pin\n")
    assert message == [f"{FILE}, line 1: a strategy is a set of fields such as `prefer:` and `plan:` (one per line), "
                       "but this file is a list: see docs/mat-clash-strategy.md [Mat Clash strategy]"]


def test_every_error_is_given_in_one_pass():
    """A bad number and an unknown card in one file: both, each with its line."""
    found = refusal("tie_when_trailing_by: lots\nprefer:\n  top: [flying_armbar]\nplan:\n  - when winning big, prefer pin\n")
    assert [p.split(": ", 1)[0] for p in found] == [
        f"{FILE}, line 1, field tie_when_trailing_by", f"{FILE}, line 5, field plan.0", f"{FILE}, line 3, field prefer.top.0"]
    assert "'when winning big'" in found[1] and "unknown card 'flying_armbar'" in found[2]
    assert not any("LineList" in p or "Input should" in p for p in found)


def test_the_printed_card_names_are_accepted():
    p = policy("prefer:\n  neutral: [Takedown +3]\n  top: [Near Fall +3]\n"
               "answer:\n  mat_beast: [\"Beastin' (Wild)\"]\n")
    assert plays(p, scrap_of(["near_fall_4", "near_fall_3"], positions=(TOP, BOTTOM), exposed="momentum", turn=0)) == ("near_fall_3", "near_fall")
    scrap = scrap_of(["beastin"])
    assert p.answer(scrap, 0, "mat_beast", [engine.Play(C["beastin"], "beastin")]) is not None


def test_fedtool_read_shows_how_a_yaml_policy_reads(demo_fed, fedtool):
    result = fedtool("read", demo_fed / "strategies/week-03/tommy-reyes.yaml", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  line   9: in top: plays Pin, Spladle +4, Near Fall +5, Near Fall +4, Near Fall +3, Near Fall +2, " in "\n".join(lines) + ", "
    assert any(line.startswith("  line   5: after transition 3, when leading by 4 or more, prefer stalling -> in neutral plays Stalling -1, ")
               for line in lines)
    assert "  line  14: holds back 1 Defense +0" in result.output
    bad = demo_fed / "strategies/week-03/gus-halvorsen.yaml"
    bad.write_text(bad.read_text().replace("  - on bottom, only escape, reversal\n", "  - on bottom, only escape, reversal\n  - in neutral, prefer escape\n"))
    result = fedtool("read", bad, "--fed", demo_fed)
    assert result.exit_code == 0  # a warning: the file stands
    assert "  line   6: warning: any Escape (+2 first) can never be played in neutral" in result.output, result.output


# ---------------------------------------------------------------------------- the documentation

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_strategies_read():
    """Every YAML example of docs/mat-clash-strategy.md and the README's Mat Clash strategy stand."""
    docs = (ROOT / "docs/mat-clash-strategy.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", docs, re.DOTALL)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks.append(readme.split("# strategies/week-03/tommy-reyes.yaml\n", 1)[1].split("```", 1)[0])
    assert len(blocks) == 3
    for block in blocks:
        assert policy(block).rules


def test_the_worked_example_ride_the_lead_late():
    """docs/mat-clash-strategy.md: in transition 5 (four complete: turn 8), 9-4 on top with Stalling
    and a Near Fall +3, the back exposed: Stalling; at 9-6 the Near Fall."""
    p = policy(STALL_LATE)
    hand = ["stalling", "near_fall_3"]
    assert plays(p, scrap_of(hand, positions=(TOP, BOTTOM), turn=8, score=(9, 4), exposed="momentum")) == ("stalling", "stalling")
    assert plays(p, scrap_of(hand, positions=(TOP, BOTTOM), turn=8, score=(9, 6), exposed="momentum")) == ("near_fall_3", "near_fall")


def test_bottom_only_gets_up():
    """`only: {bottom: [reversal, escape]}`: no Stalling, tie card or Pin from bottom."""
    p = policy("only:\n  bottom: [reversal, escape]\n")
    scrap = scrap_of(["stalling", "comeback", "pin", "escape"], positions=(BOTTOM, TOP), turn=4, score=(0, 9))
    assert plays(p, scrap) == ("escape", "escape")
    scrap.hands[0].remove(C["escape"])
    assert plays(p, scrap) is None


OLD_ADA = """# Ada goes for the back: Feet to Back first, Wizardry when the opponent has 5 or more to erase.
prefer:
  neutral: [feet_to_back, takedown]
  top: [spladle, near_fall_5, near_fall_4, near_fall_3, pin, mat_beast]
answer:
  feet_to_back: [clone, defense]
wizardry_when_erasing: 5
momentum: always
"""
OLD_GUS = """prefer:
  neutral: [takedown]
  bottom: [escape, reversal]
answer:
  takedown: [defense, scramble]
  reversal: [defense]
hold: {defense: 1, beastin: 1}
stall_when_leading_by: 3
draw: always
"""


def test_files_written_before_stand_and_say_what_changed():
    """The demo's week-3 strategies as they were before the plan language still stand; `fedtool
    read` names what now reads differently."""
    notes = [r.reading for r in policy(OLD_ADA).readings() if r.reading.startswith("note")]
    assert notes == ["note, what changed: `prefer:` lists sit on top of the default: cards they leave out are still played after them; "
                     "write `only:` to play nothing else"]
    gus = [(r.line, r.reading) for r in policy(OLD_GUS).readings() if r.reading.startswith("note")]
    assert gus[1] == (2, "note, what changed: escape now means Escape +2, then Escape +1; write escape_1 for Escape +1 alone")
    assert [(r.line, r.reading) for r in policy("hold: {}\n").readings() if r.reading.startswith("note")] == [
        (1, "note, what changed: `hold: {}` keeps nothing back (it used to keep one Defense)")]


def test_a_plan_line_with_a_colon_reads_the_same():
    """YAML reads "after transition 3: prefer stalling" as a mapping; it is the same line."""
    p = policy("plan:\n  - after transition 3, when leading by 4 or more: prefer stalling\n")
    assert plays(p, scrap_of(["takedown", "stalling"], turn=6, score=(7, 3))) == ("stalling", "stalling")
    assert refusal("plan:\n  - [prefer, pin]\n") == [f"{FILE}, line 2, field plan.0: a plan line is one sentence, such as "
                                                         "'after transition 3, when leading by 4 or more, prefer stalling' [Mat Clash strategy]"]
