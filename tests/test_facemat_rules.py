"""Face to the Mat, computed by hand from the rulebook (../shared/rules/004_...txt)."""

from __future__ import annotations

import pytest

from fedtool.kernel.dice import ScriptedDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.facemat import engine
from fedtool.rulesets.facemat.rules import d66, kicks_out, parse_range
from fedtool.rulesets.facemat.sheet import Wrestler, read_card
from fedtool.kernel.yamlio import parse_yaml


def test_d66_reads_tens_then_ones():
    """3.e: "2d6 roll where one die is the 10s column, and one die is the 1s column"."""
    assert d66(3, 5) == 35 and d66(1, 1) == 11 and d66(6, 6) == 66
    assert parse_range("11-33") == (11, 33) and parse_range("11") == (11, 11)
    for bad in ("11-37", "10-33", "07", "41-23", "eleven"):
        assert parse_range(bad) is None


@pytest.mark.parametrize("grade, top", [("AAA", 43), ("AA", 36), ("A", 33), ("B", 26), ("C", 23), ("D", 16), ("E", 13), ("F", 11)])
def test_kickout_range_for_every_grade(grade, top):
    """8.a: "AAA: 11-43 AA: 11-36 A: 11-33 B: 11-26 C: 11-23 D: 11-16 E: 11-13 F: 11"."""
    assert kicks_out(grade, 11) and kicks_out(grade, top)
    assert not kicks_out(grade, d66(top // 10, top % 10 + 1) if top % 10 < 6 else d66(top // 10 + 1, 1))


def wrestler(wid, grade="B", skills=None, finisher=(11, 33), alignment="face", grudge=0):
    return Wrestler(wid, wid.title(), grade, grudge, alignment, skills or {}, "the Finisher", finisher, {})


def quiet_tables(cards):
    """The real track and TV tables, `cards` as the whole FAC deck, and reels whose every
    event does nothing, so a test's dice are only the ones it is about."""
    from fedtool.rulesets.facemat.rules import data

    still = {n: {"text": "Quiet.", "post_text": "Quiet.", "effect": "none"} for n in range(2, 13)}
    reels = {"pick": {n: "A" for n in range(1, 7)}, "reels": {"A": {"title": "Quiet", "events": still}, "K": {"title": "K", "events": still}}}
    return {**data(), "facs": cards, "reels": reels}


def test_a_failed_finisher_goes_back_to_the_corner_and_a_hit_wins(monkeypatch):
    """8.b: "Success if roll falls within wrestler's FINISHER range. If failed, move token back
    to corner square" (space 9, the README's gold corner). One Signature card worth 15.
    FAC 1: tied at Start, so the favored (A) performs (7: "If tied, FAVORED"): A reaches 15
    and rolls 4, 4 = 44, outside 11-33: back to 9. FAC 2: B trails (0 < 9) and performs: 15,
    rolls 1, 1 = 11, inside 11-26: B wins with his finisher."""
    card = {"id": "s", "type": "SIGNATURE", "points": 15, "square": False, "control": False, "text": "{performer} hits it."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    a, b = wrestler("a", finisher=(11, 33)), wrestler("b", finisher=(11, 26))
    dice = ScriptedDice([1, 1, 1, 4, 4, 1, 1, 1, 1, 1])  # pre-match reel; A's finisher; B's; post-match reel
    result = engine.resolve(engine.Setup("m", (a, b), {}), dice)
    finishers = [ln for ln in result.lines if ln.kind == "finisher"]
    assert "44, not in 11-33" in finishers[0].text and finishers[0].positions == (9, 0)
    assert (result.winner, result.method, result.facs) == (1, "finisher", 2)
    assert dice.remaining == 0


def test_symbols_decide_who_can_use_a_skill(monkeypatch):
    """3.d: "Square: Can only be used on square spaces; Circle: Can only be used on circle
    spaces". A has MEAN on a circle; B has none. Space 0 is a circle: A scores 3 to space 3
    (circle), again to 6 (circle), again to 9, a square: now neither can use the card."""
    card = {"id": "m", "type": "MEAN", "points": 3, "square": False, "control": False, "text": "{performer} is mean."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 5)
    a, b = wrestler("a", skills={"MEAN": "circle"}), wrestler("b")
    result = engine.resolve(engine.Setup("m", (a, b), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert [ln.positions for ln in result.lines if ln.kind == "move"] == [(3, 0), (6, 0), (9, 0)]
    assert [ln.text for ln in result.lines if ln.kind == "quiet"] == [  # told as one line (issue 16)
        "FACs 4 and 5: the next two exchanges go nowhere (Mean twice: neither man can use them here)."]
    assert result.method == "time_limit"


def test_the_trailing_wrestler_performs_a_move_both_can_make(monkeypatch):
    """7: "TRAILING wrestler performs move; If tied, FAVORED wrestler performs move". Both
    have AGILE (star): FAC 1 tied, the favored A scores 2; FAC 2 B trails and scores 2; FAC 3
    tied again: A."""
    card = {"id": "g", "type": "AGILE", "points": 2, "square": False, "control": False, "text": "{performer} flies."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    a, b = wrestler("a", skills={"AGILE": "star"}), wrestler("b", skills={"AGILE": "star"})
    result = engine.resolve(engine.Setup("m", (a, b), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert [ln.who for ln in result.lines if ln.kind == "move"] == [0, 1, 0]


def card_data(**changes):
    base = ("name: Test\nruleset: facemat\nowner: {name: T, email: t@players.example}\ntv_grade: B\nalignment: face\n"
            "skills: {AGILE: star}\nfinisher: {name: Drop, range: 11-33}\n")
    for key, value in changes.items():
        base = base.replace(f"{key}: ", f"{key}: {value} #", 1) if key in base else base + f"{key}: {value}\n"
    return parse_yaml(base, "card.yaml")


@pytest.mark.parametrize("changes, message", [
    ({"tv_grade": "G"}, "TV grade 'G' is outside AAA-F"),
    ({"skills": "{SNEAKY: star}"}, "unknown skill 'SNEAKY'"),
    ({"skills": "{AGILE: triangle}"}, "unknown symbol 'triangle': a skill's symbol is star, square or circle"),
    ({"finisher": "{name: Drop, range: 11-37}"}, "finisher range '11-37' is not a d66 range"),
    ({"finisher": "{name: Drop, range: 10-33}"}, "finisher range '10-33' is not a d66 range"),
])
def test_bad_wrestler_cards(changes, message):
    with pytest.raises(FedError) as caught:
        read_card(card_data(**changes), "card.yaml", "test")
    assert message in str(caught.value) and "card.yaml, line" in str(caught.value)


def test_hardcore_is_for_mean_wrestlers_only(demo_fed, fedtool):
    card = demo_fed / "strategies/week-03/card.yaml"
    card.write_text(card.read_text().replace("    title: Face to the Mat debut\n", "    title: Face to the Mat debut\n    stipulation: hardcore\n"))
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "Vince Valor is not MEAN: a hardcore match is only for wrestlers with MEAN [Face to the Mat 9.f]" in result.stderr


def test_the_boo_rule_pushes_the_favored_after_three_quiet_facs(monkeypatch):
    """10.a: "If three consecutive FACs result in no scoring: Roll 1d6; Move favored wrestler's
    token that many spaces forward." Nobody can use the MEAN card (neither has MEAN): after the
    third quiet FAC the Boo roll of 4 moves A (favored) from 0 to 4; the guard then ends it."""
    card = {"id": "m", "type": "MEAN", "points": 3, "square": False, "control": False, "text": "{performer} is mean."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    a, b = wrestler("a"), wrestler("b")
    dice = ScriptedDice([1, 1, 1, 4, 1, 1, 1])  # pre-match reel, the Boo 1d6, post-match reel
    result = engine.resolve(engine.Setup("m", (a, b), {}, boo_rule=True), dice)
    boo = [ln for ln in result.lines if ln.kind == "boo"]
    assert len(boo) == 1 and boo[0].positions == (4, 0) and result.positions == [4, 0]
    assert dice.remaining == 0


def test_an_upset_moves_both_tv_grades():
    """docs/rulings/face-to-the-mat.md (tv_changes: upsets): the underdog who wins goes up a
    grade (C -> B), the favored who loses goes down one (A -> B); a favored win changes nothing."""
    from fedtool.rulesets.base import Booking, WrestlerRecord
    from fedtool.rulesets.facemat import FaceToTheMat, shift_grade

    assert shift_grade("AAA", 1) == "AAA" and shift_grade("F", -1) == "F" and shift_grade("C", 1) == "B"
    ws = [WrestlerRecord("fav", "Fav", "facemat", "o", "o@x.example", wrestler("fav", "A")),
          WrestlerRecord("dog", "Dog", "facemat", "o", "o@x.example", wrestler("dog", "C"))]
    booking = Booking(None, None, ws)
    states = {"fav": {"tv_grade": "A", "grudge": 0}, "dog": {"tv_grade": "C", "grudge": 0}}
    upset = engine.Result(1, "pin", 20, [0, 12])
    changes = FaceToTheMat().league_effects(booking, upset, states, {})
    assert {wid: state["tv_grade"] for wid, (state, _) in changes.items()} == {"fav": "B", "dog": "B"}
    assert FaceToTheMat().league_effects(booking, engine.Result(0, "pin", 20, [12, 0]), states, {}) == {}
    assert FaceToTheMat().league_effects(booking, upset, states, {"tv_changes": "none"}) == {}


def test_rerun_undoes_tv_grade_changes_before_applying_them_again(demo_fed, fedtool):
    import sqlite3

    for week in ("1", "2", "3"):
        assert fedtool("run", week, "--fed", demo_fed).exit_code == 0
    query = "SELECT wrestler_id, tv_grade, grudge FROM wrestler_states WHERE week = 3 AND tv_grade IS NOT NULL ORDER BY wrestler_id"
    first = sqlite3.connect(demo_fed / "fed.db").execute(query).fetchall()
    assert fedtool("run", "3", "--rerun", "--fed", demo_fed).exit_code == 0
    assert sqlite3.connect(demo_fed / "fed.db").execute(query).fetchall() == first


@pytest.mark.parametrize("faces, kind, stakes", [
    ((1, 1), "normal", "tv_grade"), ((3, 3), "cage", "loser_leaves_town"), ((6, 4, 5), "cage", "title_shot"),
    ((5, 6, 3), "normal", "loser_leaves_town"),  # a hardcore roll for wrestlers who are not MEAN is a normal match (9.f); a 6 rolls again
])
def test_grudge_match_type_and_stakes_rolls(faces, kind, stakes):
    """9.a: "Roll 1d6 for match type: 1-2 Normal, 3-4 Cage, 5 Hardcore, 6 Special (roll again or
    choose)"; "Roll 1d6 for stakes: 1-2 TV Grade change, 3-4 Loser leaves town, 5 Title shot,
    6 Special prize (roll again or choose)"."""
    from fedtool.rulesets.facemat import roll_grudge

    grudge = roll_grudge(engine.Setup("m", (wrestler("a"), wrestler("b")), {}), ScriptedDice(list(faces)))
    assert (grudge["type"], grudge["stakes"]) == (kind, stakes)


@pytest.mark.parametrize("stakes, fav, dog, flags", [
    ("tv_grade", "D", "A", {}),  # 9.a always +-1, and TV grades at stake: +-2
    ("loser_leaves_town", "C", "B", {"fav": {"left_town": 1}}),
    ("title_shot", "C", "B", {"dog": {"title_shot": 1}}),
])
def test_grudge_stakes_are_carried_into_the_league(stakes, fav, dog, flags):
    """9.a: "Always causes TV Grade changes for participants", and the stakes are carried out.
    The underdog (C) beats the favored (B)."""
    from fedtool.rulesets.base import Booking, WrestlerRecord
    from fedtool.rulesets.facemat import FaceToTheMat

    ws = [WrestlerRecord("fav", "Fav", "facemat", "o", "o@x.example", wrestler("fav", "B")),
          WrestlerRecord("dog", "Dog", "facemat", "o", "o@x.example", wrestler("dog", "C"))]
    booking = Booking(None, None, ws, extra={"grudge": {"stakes": stakes, "stakes_text": stakes}})
    states = {"fav": {"tv_grade": "B", "grudge": 0}, "dog": {"tv_grade": "C", "grudge": 0}}
    changes = FaceToTheMat().league_effects(booking, engine.Result(1, "pin", 20, [3, 12]), states, {})
    assert changes["fav"][0]["tv_grade"] == fav and changes["dog"][0]["tv_grade"] == dog
    for wid, flag in flags.items():
        assert flag.items() <= changes[wid][0].items()


def test_a_wrestler_who_left_town_cannot_be_booked(demo_fed, fedtool):
    import sqlite3

    for week in ("1", "2", "3"):
        assert fedtool("run", week, "--fed", demo_fed).exit_code == 0
    db = sqlite3.connect(demo_fed / "fed.db")
    db.execute("UPDATE wrestler_states SET left_town = 1 WHERE wrestler_id = 'the-warden'")
    db.commit()
    (demo_fed / "strategies/week-06").mkdir()
    (demo_fed / "strategies/week-06/card.yaml").write_text("matches:\n  - {ruleset: facemat, sides: [vince-valor, the-warden]}\n")
    result = fedtool("run", "6", "--fed", demo_fed)
    assert result.exit_code == 1 and "The Warden left town after losing a loser-leaves-town grudge match" in result.stderr


def test_a_tag_team_tags_out_when_it_scores(monkeypatch):
    """9.c: "When a wrestler scores, they tag out to their partner". One AGILE card worth 5;
    only A and his partner A Two have AGILE. FAC 1: A scores (0 -> 5) and tags A Two in; FAC 2:
    A Two scores (5 -> 10) and tags A back in. The team moves one token."""
    card = {"id": "g", "type": "AGILE", "points": 5, "square": False, "control": False, "text": "{performer} flies."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 2)
    a, a2 = wrestler("a", skills={"AGILE": "star"}), wrestler("a two", skills={"AGILE": "star"})
    b, b2 = wrestler("b"), wrestler("b two")
    result = engine.resolve(engine.Setup("m", (a, b), {}, partners=(a2, b2)), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert [(ln.kind, ln.told[0], ln.told[1]) for ln in result.lines if ln.kind in ("move", "tag")] == [  # told from data/commentary.yaml
        ("move", "moved", {"name": "A", "space": 5, "points": 5, "why": "Agile"}), ("tag", "tag_out", {"name": "A", "partner": "A Two"}),
        ("move", "moved", {"name": "A Two", "space": 10, "points": 5, "why": "Agile"}), ("tag", "tag_out", {"name": "A Two", "partner": "A"}),
    ]
    assert [ln.text for ln in result.lines if ln.kind == "move"] == ["A moves to space 5 (+5, Agile).", "A Two moves to space 10 (+5, Agile)."]
    assert result.positions == [10, 0]


def test_everyone_in_a_tag_match_is_helped(monkeypatch):
    """9.c: "All wrestlers automatically gain the HELPED quality" (a star: docs/rulings). Nobody
    has HELPED on his card; the HELPED card is used by the favored team on a tied track."""
    card = {"id": "h", "type": "HELPED", "points": 2, "square": False, "control": False, "text": "{performer} gets help."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    result = engine.resolve(engine.Setup("m", (wrestler("a"), wrestler("b")), {}, partners=(wrestler("c"), wrestler("d"))),
                            ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert result.positions == [2, 0]


def test_a_tag_match_is_announced_team_against_team(demo_fed, fedtool):
    assert fedtool("open", "5", "--reroll", "--fed", demo_fed).exit_code == 0  # the demo week is open (its commitments)
    text = (demo_fed / "outbox/week-05/announcements/m1-vince-valor.md").read_text()
    assert text.startswith("# Delta Championship Wrestling, week 5: Vince Valor & Marcus Bright vs. The Warden & Dutch Kessler")
    # issue 12: the announcement says what a strategy changes (it is optional) and how to send one
    assert "a strategy is optional" in text and "`promo`" in text
    assert "with the subject `Week 5 vince-valor m1`" in text


def test_a_cage_halves_helped_cards(monkeypatch):
    """9.b: a cage "Reduces effectiveness of outside interference (HELPED quality)": a HELPED
    card worth 3 scores 1 (3 // 2) in a cage, 3 outside it."""
    card = {"id": "h", "type": "HELPED", "points": 3, "square": False, "control": False, "text": "{performer} gets help."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    helped = wrestler("a", skills={"HELPED": "star"})
    for chart, expected in (("cage", 1), ("normal", 3)):
        result = engine.resolve(engine.Setup("m", (helped, wrestler("b")), {}, chart=chart), ScriptedDice([1, 1, 1, 1, 1, 1]))
        assert result.positions == [expected, 0], chart
