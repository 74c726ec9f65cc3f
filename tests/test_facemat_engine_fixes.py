"""Face to the Mat engine defects of issue 14, computed by hand from the rulebook
(../shared/rules/004_a5c62bc98893c12f.txt) and docs/rulings/face-to-the-mat.md.

Conventions the computations rely on (the project's mechanics, as in test_facemat_multi.py):
- with N cards left a d{N} picks the card at that place (it swaps with the last card, which
  is then drawn); one card left needs no die;
- with `storylines=False` no reel is rolled; otherwise 1d6 (reel) + 2d6 (event) before the
  bell and again after it;
- kickouts are 2d6 read as d66 (8.a): 22 kicks out for AAA (11-43), 55 does not; 22 fails
  for F (11).
"""

from __future__ import annotations

import re

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.rulesets.facemat import engine, royale
from fedtool.rulesets.facemat.engine import Options, Plan, Setup
from fedtool.rulesets.facemat.rules import DATA, data
from fedtool.rulesets.facemat.sheet import Wrestler

HOTBOX = {"allies": [f"Ally {k}" for k in range(6)], "foes": [f"Foe {k}" for k in range(6)], "grudge": []}
QUIET = {"text": "Quiet.", "effect": "none"}


def wrestler(wid, grade="B", skills=None, alignment="face"):
    return Wrestler(wid, wid.title(), grade, 0, alignment, skills or {}, "the Finisher", (11, 33), {})


def card(kind, points=0, cid=None):
    return {"id": cid or f"{kind.lower()}-{points}", "type": kind, "points": points, "square": False, "control": False,
            "text": "{performer} goes after {opponent}."}


def tables(cards, wild=None, reel=None):
    """The real track and tables, `cards` as the deck; every Wild Card chart is `wild` (a 2d6
    total -> event; unlisted totals quiet) and reel A (picked on every 1d6) is `reel`."""
    chart = {n: (wild or {}).get(n, QUIET) for n in range(2, 13)}
    events = {n: {"post_text": e["text"], **e} for n, e in ((n, (reel or {}).get(n, QUIET)) for n in range(2, 13))}  # told alike after the bell
    reels = {"pick": {n: "A" for n in range(1, 7)},
             "reels": {"A": {"title": "A", "events": events}, "K": {"title": "K", "events": {n: QUIET for n in range(2, 13)}}}}
    return {**data(), "facs": cards, "wild": {"normal": chart, "cage": chart, "hardcore": chart}, "reels": reels}


def pins(result):
    return [(ln.fac, ln.who, ln.text) for ln in result.lines if ln.kind == "pin"]


# 1. Only the attacker who reaches a PIN space pins (8.a) -----------------------------------

@pytest.mark.parametrize("effect", [
    {"move": {"who": "favored", "spaces": -1}},                   # a chart's step back (normal 2, cage 5)
    {"move": {"who": "both", "spaces": -1}},                      # hardcore 11: "both -1"
    {"hotbox": {"side": "foe", "of": "favored", "spaces": 1}},    # a foe's run-in
])
def test_a_token_knocked_back_onto_a_pin_space_makes_no_pin_attempt(monkeypatch, effect):
    """8.a "Attacker reaches PIN space", 12.3.a "Attacker reaches PIN space; Defender rolls
    2d6 (up to 3 times)". MEAN 14, only A (favored); B is AAA. FAC 1 (d2 = 1 draws the MEAN
    card): A 0 -> 14, a PIN space: B rolls 2, 2 = 22, inside AAA's 11-43: kickout. FAC 2 (the
    last card, no die): the Wild Card, 2d6 1, 1 = 2: the chart knocks A back to 13, another PIN
    space. He did not reach it: no pin attempt (before the fix, B rolled 55 three times and lost).
    The time limit (2 FACs) ends it a draw, A on 13."""
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 14), card("WILD_CARD")], wild={2: {"text": "Back.", "effect": effect}}))
    monkeypatch.setattr(engine, "FAC_GUARD", 2)
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "AAA"))
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False), ScriptedDice([1, 2, 2, 1, 1] + [5, 5] * 3))
    assert [fac for fac, _, _ in pins(result)] == [1]
    assert (result.winner, result.method, result.positions[0]) == (None, "time_limit", 13)


def test_a_foe_answering_a_call_for_help_makes_no_pin_attempt(monkeypatch):
    """Rulings (calling for help): help table 6 "{foe} answers the call instead and levels
    {wrestler}" (-2). MEAN 14, only A, who calls at once. FAC 1: A 0 -> 14, B (AAA) kicks out
    with 22; A calls, 1d6 = 6: his foe knocks him back to 12, a PIN space he did not reach: no
    second pin attempt (before the fix, 55 three times and A won). The time limit (1 FAC)."""
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 14)]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "AAA"))
    setup = Setup("m", field, HOTBOX, storylines=False, plans=(Plan(call_for_help="at_once"), Plan()))
    result = engine.resolve(setup, ScriptedDice([2, 2, 6] + [5, 5] * 3))
    assert len(pins(result)) == 1 and (result.winner, result.positions) == (None, [12, 0])


def test_a_chart_pin_attempt_needs_a_wrestler_who_reached_the_space(monkeypatch):
    """8.a; chart effect `pin_attempt` ("WHO makes a pin attempt now, if on a PIN space"): the
    cover is his only if he reached the space. MEAN 14 only A; deck [MEAN, WILD, WILD].
    FAC 1 (d3 = 1): A 14, B kicks out (22). FAC 2 (d2 = 1 draws a Wild Card): 2d6 1, 1: A is
    knocked back to 13. FAC 3: the Wild Card, 2d6 6, 6: "the leader dives for a cover": A
    is on 13 because he was knocked there, so no cover. A draw at the time limit."""
    wild = {2: {"text": "Back.", "effect": {"move": {"who": "favored", "spaces": -1}}},
            12: {"text": "Cover!", "effect": {"pin_attempt": {"who": "leader"}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 14), card("WILD_CARD", cid="w1"), card("WILD_CARD", cid="w2")], wild=wild))
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "AAA"))
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False), ScriptedDice([1, 2, 2, 1, 1, 1, 6, 6] + [5, 5] * 3))
    assert len(pins(result)) == 1 and (result.winner, result.positions) == (None, [13, 0])


def test_a_forward_move_onto_a_pin_space_still_pins(monkeypatch):
    """8.a, the other half of the ruling: a token that moves forward onto a PIN space, here by
    a chart's +2 (normal 8: "{ally} ... shouts instructions", +2), reaches it. MEAN 11 only A.
    FAC 1 (d2 = 1): A 11. FAC 2: Wild Card 1, 1: A +2 -> 13: B (F) rolls 22 x3: pinned."""
    wild = {2: {"text": "On.", "effect": {"hotbox": {"side": "ally", "of": "favored", "spaces": 2}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 11), card("WILD_CARD")], wild=wild))
    monkeypatch.setattr(engine, "FAC_GUARD", 2)
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "F"))
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False), ScriptedDice([1, 1, 1] + [2, 2] * 3))
    assert (result.winner, result.method, result.positions) == (0, "pin", [13, 0])


# 5. The result is final at the bell (5.c, 5.d, 12.1.h) -------------------------------------

def test_a_post_match_event_does_not_move_the_winner(monkeypatch):
    """5.c "Match end conditions: Successful pin"; 5.d the post-match storyline comes after
    (12.1 "e. Move tokens; f. Check for pin/finisher; ... h. Resolve post-match storyline").
    MEAN 13 only A: pre-match reel 1, 1, 1 (total 2, quiet); FAC 1 A 0 -> 13, B (F) fails
    22 x3: A wins by pin on 13. Post-match reel 1, 6, 6 (total 12: "A scores 2"): told after
    the bell, it moves nothing; the recorded position stays 13 (it became 15 before the fix)."""
    reel = {12: {"text": "{favored} keeps swinging.", "effect": {"score": {"who": "favored", "points": 2}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 13)], reel=reel))
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "F"))
    result = engine.resolve(Setup("m", field, HOTBOX), ScriptedDice([1, 1, 1] + [2, 2] * 3 + [1, 6, 6]))
    assert (result.winner, result.method, result.positions) == (0, "pin", [13, 0])
    after = [ln for ln in result.lines if ln.kind == "post_match"]
    assert [ln.told[:2] for ln in after] == [("after_bell_stands", {"event": "A keeps swinging."})]  # the table's words (data/commentary.yaml)
    assert after[0].text.startswith("After the bell: A keeps swinging.") and after[0].text.endswith("the result stands.")
    assert after[0].positions == (13, 0)


def test_a_post_match_event_cannot_win_a_drawn_match(monkeypatch):
    """5.d and 12.1.h: the post-match storyline follows the end of the match; a time-limit
    draw is an end. MEAN 11 only A, the time limit at 1 FAC: A 0 -> 11, a draw. Post-match
    reel 1, 6, 6: "A scores 2" would take him to 13 and a pin (before the fix B rolled 22
    x3 and A won); told after the bell, the draw stands, A on 11."""
    reel = {12: {"text": "{favored} keeps swinging.", "effect": {"score": {"who": "favored", "points": 2}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 11)], reel=reel))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "F"))
    result = engine.resolve(Setup("m", field, HOTBOX), ScriptedDice([1, 1, 1, 1, 6, 6] + [2, 2] * 3))
    assert (result.winner, result.method, result.positions) == (None, "time_limit", [11, 0])
    assert not pins(result)


def test_post_match_league_effects_still_apply(monkeypatch):
    """5.d: the post-match storyline changes the league: a grudge +1 for both is recorded
    (rulings: "Grudge and TV grade effects are recorded with the result for the league")."""
    reel = {12: {"text": "They brawl on.", "effect": {"grudge": {"who": "both", "change": 1}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 13)], reel=reel))
    field = (wrestler("a", "B", {"MEAN": "star"}), wrestler("b", "F"))
    result = engine.resolve(Setup("m", field, HOTBOX), ScriptedDice([1, 1, 1] + [2, 2] * 3 + [1, 6, 6]))
    assert [(side, kind, change) for side, kind, change, _ in result.league] == [(0, "grudge", 1), (1, "grudge", 1)]


def test_the_reels_promise_no_carry_over():
    """Ruling (5.d): nothing carries into a wrestler's next match; the data file no longer
    says skip and object effects do."""
    text = (DATA / "highlight_reels.yaml").read_text(encoding="utf-8")
    assert "carry into" not in text


# 6. Multi-man: text and effect name the same wrestlers; heel and face texts follow alignment

def test_an_eliminated_favored_wrestler_is_not_named(monkeypatch):
    """9.d.ii "First to pin or finish an opponent eliminates them"; rulings: "favored" names the
    first billed still in the ring. Every man for himself, A (favored, F), B, C. Deck [AGILE 1
    (only C), MEAN 12 (only B), WILD]. FAC 1 (d3 = 1): C 1. FAC 2 (d2 = 2): B 12 and pins the
    one furthest behind, A (F): 22 x3: A is eliminated. FAC 3: Wild Card 1, 1: "{favored}
    trips over {underdog}" with C scoring 1: it names B and C, never the eliminated A."""
    wild = {2: {"text": "{favored} trips over {underdog}.", "effect": {"score": {"who": "underdog", "points": 1}}}}
    monkeypatch.setattr(engine, "data", lambda: tables([card("AGILE", 1), card("MEAN", 12), card("WILD_CARD")], wild=wild))
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    field = (wrestler("a", "F"), wrestler("b", "B", {"MEAN": "star"}), wrestler("c", "B", {"AGILE": "star"}))
    result = engine.resolve(Setup("m", field, HOTBOX, mode="every_man", storylines=False), ScriptedDice([1, 2] + [2, 2] * 3 + [1, 1]))
    assert [e[:2] for e in result.eliminations] == [(0, 1)]
    assert [ln.text for ln in result.lines if ln.kind == "storyline"] == ["B trips over C."]
    assert result.positions == [0, 12, 2]


@pytest.mark.parametrize("alignments, expected, left", [
    (("face", "face"), "A and B spill to the floor and brawl around the ring until the count reaches eight.", 0),  # 2d6 again: 3, 4 = 7
    (("face", "heel"), "The rule-breaker in this match, B, stops to argue with a heckler, and the momentum dies on the spot.", 2),
])
def test_a_heel_event_needs_a_heel(monkeypatch, alignments, expected, left):
    """11.g "HEEL: 'Bad guy' wrestler"; rulings: an event whose text or effect names the heel
    (or the face) is rolled again (2d6, logged) when nobody in the ring is one. The real normal
    Wild Card chart: 2d6 1, 3 = 4, "The rule-breaker in this match stops to argue" (skip heel).
    Two faces: no rule-breaker, so 2d6 again: 3, 4 = 7, the count-of-eight brawl, which needs
    no alignment. With B a heel: the event stands and its text names him."""
    real = data()
    monkeypatch.setattr(engine, "data", lambda: {**real, "facs": [card("WILD_CARD")]})
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    field = (wrestler("a", alignment=alignments[0]), wrestler("b", alignment=alignments[1]))
    dice = ScriptedDice([1, 3, 3, 4])
    result = engine.resolve(Setup("m", field, HOTBOX, storylines=False), dice)
    assert [ln.text for ln in result.lines if ln.kind == "storyline"] == [expected]
    assert dice.remaining == left


def test_an_interview_heel_event_needs_a_heel():
    """10.d; rulings as above: reel I 11, "The rule-breaker of the pair shoves the interviewer
    aside" (grudge +1 for the heel) between two faces is rolled again: 1d6 1 (reel I), 2d6
    5, 6 = 11, again 3, 4 = 7 ("two cliches", no effect)."""
    lines, league = royale.interview((wrestler("a"), wrestler("b")), ("", ""), HOTBOX, ScriptedDice([1, 5, 6, 3, 4]))
    assert [ln.text for ln in lines] == ["The interviewer asks both wrestlers the same question and gets two clichés in return."]
    assert league == []


# 7. The dice log labels a FAC's draw with its own number ----------------------------------

def test_a_fac_draw_is_logged_in_its_own_round(monkeypatch):
    """6 "Resolving FACs: a. Draw FAC": drawing is part of the FAC. Three cards nobody can use,
    the time limit at 2: FAC 1 draws with a d3, FAC 2 with a d2; each roll is logged in the
    round of the FAC it draws (1, 2; before the fix 0, 1)."""
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 1, "x"), card("MEAN", 1, "y"), card("MEAN", 1, "z")]))
    monkeypatch.setattr(engine, "FAC_GUARD", 2)
    result = engine.resolve(Setup("m", (wrestler("a"), wrestler("b")), HOTBOX, storylines=False), ScriptedDice([1, 1]))
    assert [(r, purpose) for r, purpose, _ in result.log] == [(1, "draw a FAC: d3"), (2, "draw a FAC: d2")]


# 8. Ref bump, default mode -----------------------------------------------------------------

@pytest.mark.parametrize("mode, back", [("fac", []), ("downed", [3])])
def test_the_referee_gets_up_only_if_he_was_down(monkeypatch, mode, back):
    """10.e: `fac` (the default) tells reel K when the REF BUMP FAC is drawn; only `downed`
    keeps the referee down for the next FAC. A scripted bump at FAC 1 (reel K 1, 1, quiet),
    three FACs nobody can use: with `fac` he was never down, so nobody says he is back on
    his feet (it was printed at FAC 2 before the fix); with `downed` he is up at FAC 3."""
    monkeypatch.setattr(engine, "data", lambda: tables([card("MEAN", 1)]))
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    setup = Setup("m", (wrestler("a"), wrestler("b")), HOTBOX, storylines=False, ref_bump_at=1, options=Options(ref_bump=mode))
    result = engine.resolve(setup, ScriptedDice([1, 1]))
    assert [ln.fac for ln in result.lines if ln.told and ln.told[0] == "ref_up"] == back


# 9. A fed-chosen stipulation survives the grudge roll --------------------------------------

def test_a_cage_grudge_match_stays_in_the_cage(demo_fed, fedtool):
    """9.a "Roll 1d6 for match type ... 6: Special stipulation (roll again or choose)": the
    fed may choose; rulings: `stipulation: cage grudge` is the fed's choice of type, so no
    match-type roll is made (the stakes are still rolled) and the cage chart is used."""
    folder = demo_fed / "strategies/cage-grudge"
    folder.mkdir()
    (folder / "card.yaml").write_text("title: Cage grudge\nmatches:\n- id: g1\n  ruleset: facemat\n  stipulation: cage grudge\n"
                                      "  sides: [vince-valor, the-warden]\n")
    result = fedtool("play", folder, "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    text = (demo_fed / "outbox/exhibitions/cage-grudge/g1.md").read_text()
    assert re.search(r"[Tt]he card makes it a cage match, (?:with|and) ", text)
    assert "grudge match type 1d6" not in text and "grudge stakes 1d6" in text
    assert "Wild Card chart (normal)" not in text and "Wild Card chart (hardcore)" not in text
