"""Face to the Mat and the league (issue 14: defects 2, 3, 4, 10, 11 and 12), each computed by
hand from the rulebook (../shared/rules/004_a5c62bc98893c12f.txt)."""

from __future__ import annotations

import re

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from fedtool.fed.settings import Fed
from fedtool.kernel.dice import ScriptedDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.base import Booking, WrestlerRecord
from fedtool.rulesets.facemat import FaceToTheMat, engine
from fedtool.rulesets.facemat.sheet import read_card
from fedtool.rulesets.facemat.rules import data
from fedtool.week.booking import book_match
from test_facemat_input import run_weeks
from test_facemat_rules import card_data, quiet_tables, wrestler


def the_card(kind: str) -> dict:
    """The packaged deck's one card of a type."""
    return next(card for card in data()["facs"] if card["type"] == kind)


def set_card(fed: Path, week: int, text: str) -> None:
    (fed / f"strategies/week-{week:02d}/card.yaml").write_text(text)


# ---------------------------------------------------------------- 2: the Title Holder card


def test_the_title_holder_card_is_performed_by_the_league_s_champion(demo_fed, fedtool, monkeypatch):
    """Issue 14, defect 2. The Title Holder FAC's rule (facs.yaml, fac-119): "If one wrestler
    holds a title, that champion performs and scores 1d6". After `fedtool title award tv
    vince-valor` the core hands the champion to the ruleset (`MatchOnCard.champions`), and
    the card is his: FAC 1 is the Title Holder card, his 1d6 is a 4, so he moves to space 4.
    The deck is that one card; the reels do nothing (pre-match 1d6 + 2d6, post-match the same)."""
    result = fedtool("--fed", demo_fed, "title", "award", "tv", "vince-valor")
    assert result.exit_code == 0, result.output
    set_card(demo_fed, 4, "week: 4\nmatches:\n  - id: m1\n    ruleset: facemat\n    for_title: tv\n    sides: [vince-valor, the-warden]\n")
    booking = book_match(Fed.load(demo_fed), 4, "m1")
    assert booking.setup.champions == {"vince-valor": ("DCW Television Championship",)}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([the_card("TITLE_HOLDER")]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    dice = ScriptedDice([1, 1, 1, 4, 1, 1, 1])
    played = engine.resolve(booking.setup, dice)
    facs = [ln.text for ln in played.lines if ln.kind == "fac"]
    assert facs == ["FAC 1: Vince Valor, holder of the DCW Television Championship, taps the gold around the waist, then takes it to The Warden the way a champion should."]
    assert played.positions == [4, 0] and dice.remaining == 0
    assert not any("no champion" in ln.text for ln in played.lines)


def test_the_title_holder_card_does_nothing_without_a_champion(monkeypatch):
    """The same card with no champion in the match: "if neither does, nobody scores"."""
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([the_card("TITLE_HOLDER")]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    played = engine.resolve(engine.Setup("m", (wrestler("a"), wrestler("b")), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert played.positions == [0, 0] and any(ln.told and ln.told[0] == "no_champion" for ln in played.lines)


# ---------------------------------------------------------------- 3: offsetting league changes


def grudge_booking(stakes: str) -> Booking:
    ws = [WrestlerRecord("fav", "Fav", "facemat", "o", "o@x.example", wrestler("fav", "B")),
          WrestlerRecord("dog", "Dog", "facemat", "o", "o@x.example", wrestler("dog", "C"))]
    return Booking(None, None, ws, extra={"grudge": {"stakes": stakes, "stakes_text": stakes.replace("_", " ")}})


def test_changes_that_cancel_are_recorded_with_both_reasons():
    """Issue 14, defect 3. 9.a: a grudge match "Always causes TV Grade changes for
    participants": with a title shot at stake the loser drops one grade (B -> C); an
    interview segment's +1 (10.d) lifts him back (C -> B). His grade ends where it began, and
    the change is still his league row, with both reasons."""
    states = {"fav": {"tv_grade": "B", "grudge": 0}, "dog": {"tv_grade": "C", "grudge": 0}}
    result = engine.Result(1, "pin", 20, [3, 12], league=[(0, "tv", 1, "interview: The crowd is behind him.")])
    changes = FaceToTheMat().league_effects(grudge_booking("title_shot"), result, states, {})
    state, reason = changes["fav"]
    assert state["tv_grade"] == "B"
    assert reason == "grudge match (title shot): TV grade B -> C; interview: TV grade C -> B"


def test_a_cancelled_change_is_in_the_league_and_on_the_card(demo_fed, fedtool, monkeypatch):
    """The same through a week's run: week 4's grudge match with a title shot at stake, and an
    interview whose event lifts both men a grade (10.d; the demo fed plays interviews). The
    loser's -1 and +1 cancel: he still has a row in `wrestler_states` for week 4 with both
    reasons, and the card's "League changes" lists him."""
    import fedtool.rulesets.facemat as facemat

    def title_shot(setup, dice, *chosen):
        return {"type": "normal", "chart": "normal", "stakes": "title_shot", "type_text": "a normal match", "stakes_text": "a title shot", "chosen": False}

    def both_up(wrestlers, promos, hotbox, dice, tables=None):
        return [engine.Line(0, "interview", "Both men win the crowd over.")], [(0, "tv", 1, "Both men win the crowd over."), (1, "tv", 1, "Both men win the crowd over.")]

    monkeypatch.setattr(facemat, "roll_grudge", title_shot)
    monkeypatch.setattr(facemat.royale, "interview", both_up)
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    db = sqlite3.connect(demo_fed / "fed.db")
    loser = db.execute("SELECT s.wrestler_id FROM match_sides s WHERE s.week = 4 AND s.outcome = 'loss'").fetchone()[0]
    grade_before = db.execute("SELECT tv_grade FROM wrestler_states WHERE wrestler_id = ? AND week < 4 ORDER BY week DESC", [loser]).fetchone()
    row = db.execute("SELECT tv_grade, reason FROM wrestler_states WHERE wrestler_id = ? AND week = 4", [loser]).fetchone()
    assert row is not None, "the loser's offsetting changes left no row"
    assert grade_before is None or row[0] == grade_before[0]
    assert "grudge match (a title shot): TV grade" in row[1] and "; interview: TV grade" in row[1]
    name = {"vince-valor": "Vince Valor", "the-warden": "The Warden"}[loser]
    card = (demo_fed / "outbox/week-04/card.md").read_text()
    changes = card.split("## League changes", 1)[1].split("##", 1)[0]
    # both changes told in plain words on the card (issue 16), though they cancel
    assert re.search(rf"^- {re.escape(name)}'s TV grade falls from (\S+) to \S+ after losing the grudge match \(a title shot on the line\), then rises to \1 after an interview\.$", changes, re.M), changes


# ---------------------------------------------------------------- 4: the HOT BOX


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new))


def test_the_hot_box_skips_who_left_town_and_lists_nobody_twice(demo_fed, fedtool):
    """Issue 14, defect 4. 4.b: "Fill the six HOT BOX positions: Favored wrestler's ally and
    foe; Underdog wrestler's ally and foe; Two wrestlers with highest Grudge Grades not in the
    match". Six positions, one token each: filled in that order, each takes the first of its
    list who is not in the match, has not left town (9.a) and holds no other position.

    Week 3's m3, Vince Valor (favored) vs. The Warden. Vince's allies: La Rosa Negra (left
    town in week 1), Sister Sorrow, Marcus Bright -> Sister Sorrow; his foe Mad Dog Maddox.
    The Warden's ally Victor Vane; his foes: Sister Sorrow (placed) -> Kate Galloway. Highest
    grudge grades: Sorrow 6 (placed), La Rosa Negra 4 (left town), The Warden 4 (in the
    match), Dutch Kessler 3, then Vince 2 (in the match), Hank Morrow 1 and Marcus Bright 1
    (by name): Dutch Kessler and Hank Morrow."""
    edit(demo_fed / "rosters/vince-valor.yaml", "allies: [skyline-sabrina]", "allies: [lucha-rosa, sister-sorrow, marcus-bright]")
    edit(demo_fed / "rosters/the-warden.yaml", "foes: [kate-galloway]", "foes: [sister-sorrow, kate-galloway]")
    run_weeks(fedtool, demo_fed, 1)
    db = sqlite3.connect(demo_fed / "fed.db")
    with db:
        db.execute("INSERT INTO wrestler_states (week, wrestler_id, tv_grade, grudge, left_town, reason) VALUES (1, 'lucha-rosa', 'B', 4, 1, 'lost a loser-leaves-town grudge match: leaves town')")
    booking = book_match(Fed.load(demo_fed), 3, "m3")
    hot = booking.setup.hotbox
    assert hot == {"allies": ["Sister Sorrow", "Victor Vane"], "foes": ["Mad Dog Maddox", "Kate Galloway"], "grudge": ["Dutch Kessler", "Hank Morrow"]}
    everyone = [*hot["allies"], *hot["foes"], *hot["grudge"]]
    assert len(set(everyone)) == len(everyone) == 6


POOL = [f"w{k}" for k in range(8)]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_hot_box_never_holds_a_man_twice_one_in_the_match_or_one_who_left_town(draw):
    """4.b over random lists: whatever the allies, foes, grudge grades and departures, the
    HOT BOX's places hold different wrestlers, none in the match, none who left town."""
    ids = st.sampled_from(POOL)
    front = draw.draw(st.lists(ids, min_size=2, max_size=4, unique=True))
    lists = {wid: {"allies": draw.draw(st.lists(ids, max_size=5)), "foes": draw.draw(st.lists(ids, max_size=5))} for wid in front}
    gone = set(draw.draw(st.lists(ids, max_size=4)))
    roster = {wid: WrestlerRecord(wid, wid.upper(), "facemat", "o", "o@x.example", wrestler(wid, grudge=draw.draw(st.integers(-3, 6)))) for wid in POOL}
    states = {wid: {"left_town": 1} for wid in gone}
    allies, foes, grudges = FaceToTheMat().hot_box(front, set(front), lists, roster, states)
    placed = [wid for wid in allies + foes + grudges if wid is not None]
    assert len(placed) == len(set(placed))
    assert not set(placed) & (set(front) | gone)
    assert len(grudges) == min(2, len(set(POOL) - set(front) - gone - set(allies + foes)))


# ---------------------------------------------------------------- 10: varied gold, silver and bronze


@pytest.mark.parametrize("value, tiers", [("superior", "superior"), ("Average", "average"), ("inferior", "inferior"),
                                          ("{gold: 4, silver: 2, bronze: 0}", (4, 2, 0))])
def test_a_wrestler_card_names_its_tiers(value, tiers):
    """10.h: "Customize point values for GOLD, SILVER, and BRONZE moves based on wrestler
    skill": a card says superior, average or inferior, or gives its own points."""
    assert read_card(card_data(tiers=value), "card.yaml", "test").tiers == tiers
    assert read_card(card_data(), "card.yaml", "test").tiers == "average"


@pytest.mark.parametrize("value, message", [
    ("legendary", "tiers 'legendary': superior, average or inferior"),
    ("{gold: 11, silver: 2, bronze: 1}", "tiers: gold needs a whole number of points, 0 (no GOLD move) to 10; got 11"),
    ("{gold: 5, silver: 2}", "tiers: bronze needs a whole number of points"),
    ("{gold: 5, silver: 2, bronze: 1, platinum: 9}", "unknown tier 'platinum'"),
    ("5", "tiers 5: superior, average or inferior"),  # neither a class nor points: one problem, not pydantic's two
    ("null", "tiers None: superior, average or inferior"),
    ("[5, 2, 1]", "tiers [5, 2, 1]: superior, average or inferior"),
])
def test_bad_tiers_on_a_card_are_refused_with_file_line_and_rule(value, message):
    with pytest.raises(FedError) as caught:
        read_card(card_data(tiers=value), "card.yaml", "test")
    text = str(caught.value)
    assert message in text and "card.yaml, line" in text and "Face to the Mat 10.h" in text
    assert len(caught.value.problems) == 1, text


GOLD = {"id": "g", "type": "GRUDGE", "points": "none", "grudge": "gold", "square": False, "control": False, "text": "{performer} lets it all out."}


def test_a_superior_wrestler_s_gold_move_is_worth_5(monkeypatch):
    """10.h.i: "Superior wrestlers: Increase GOLD to 5 points". One gold Grudge card (7.c:
    GOLD 3 for the average); A has the higher grudge grade, so he performs ("Grudge cards:
    the higher grudge grade"), and as a superior wrestler he moves 5."""
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([GOLD]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    from fedtool.rulesets.facemat import tier_points

    options = FaceToTheMat().settings({})
    a = replace(wrestler("a", grudge=3), tiers=tier_points("superior", options))
    played = engine.resolve(engine.Setup("m", (a, wrestler("b")), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert played.positions == [5, 0]


@pytest.mark.parametrize("setting, who, points", [("no_gold", 1, 3), ("reduced", 0, 2)])
def test_an_inferior_wrestler_has_no_gold_move_or_reduced_values(monkeypatch, setting, who, points):
    """10.h.iii: "Inferior wrestlers: May not have a GOLD move, or reduced values". A is
    inferior with the higher grudge grade. By default he has no GOLD move, so B (average)
    performs the gold card for 3; with `inferior_tiers: reduced` A performs it for 3 - 1 = 2."""
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([GOLD]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    from fedtool.rulesets.facemat import tier_points

    options = FaceToTheMat().settings({"inferior_tiers": setting})
    a = replace(wrestler("a", grudge=3), tiers=tier_points("inferior", options))
    played = engine.resolve(engine.Setup("m", (a, wrestler("b")), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    expected = [0, 0]
    expected[who] = points
    assert played.positions == expected


def test_the_card_s_tiers_reach_the_match(demo_fed):
    """The wrestler card's `tiers:` is read with the roster and used when the match is booked:
    Vince Valor superior (GOLD 5, SILVER 2, BRONZE 1), The Warden's own points."""
    edit(demo_fed / "rosters/vince-valor.yaml", "grudge: 2\n", "grudge: 2\ntiers: superior\n")
    edit(demo_fed / "rosters/the-warden.yaml", "grudge: 4\n", "grudge: 4\ntiers: {gold: 4, silver: 1, bronze: 1}\n")
    booking = book_match(Fed.load(demo_fed), 3, "m3")
    assert [w.tiers for w in booking.setup.wrestlers] == [(5, 2, 1), (4, 1, 1)]


def test_a_bad_tier_on_a_roster_sheet_stops_the_week_naming_the_file(demo_fed, fedtool):
    edit(demo_fed / "rosters/the-warden.yaml", "grudge: 4\n", "grudge: 4\ntiers: {gold: twelve}\n")
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1 and "rosters/the-warden.yaml, line 6, field tiers.gold" in result.output and "10.h" in result.output


# ---------------------------------------------------------------- 11: contested rulings


@pytest.mark.parametrize("prize, faces, stakes, text", [
    (None, (1, 6, 6, 5), "title_shot", "a title shot"),  # no choice on the card: each 6 rolls again
    ("loser_leaves_town", (1, 6), "loser_leaves_town", "a special prize: loser leaves town"),
    ("extra_grade", (1, 6), "special_prize", "a special prize (a second TV grade for the winner)"),
    ("title_shot", (1, 2), "tv_grade", "TV grades"),  # the choice is for a 6 only
])
def test_a_stakes_roll_of_6_rolls_again_or_gives_the_fedhead_s_choice(prize, faces, stakes, text):
    """9.a: "Roll 1d6 for stakes: ... 6: Special prize (roll again or choose)", as a match
    type's 6, "Special stipulation (roll again or choose)", is rolled again: the card's
    `special_prize` is the fedhead's choice, else the die is rolled again."""
    from fedtool.rulesets.facemat import roll_grudge

    dice = ScriptedDice(list(faces))
    grudge = roll_grudge(engine.Setup("m", (wrestler("a"), wrestler("b")), {}), dice, prize=prize)
    assert (grudge["type"], grudge["stakes"], grudge["stakes_text"]) == ("normal", stakes, text)
    assert dice.remaining == 0


def test_special_prize_is_for_grudge_matches_only(demo_fed):
    edit(demo_fed / "strategies/week-03/card.yaml", "    sides: [vince-valor, the-warden]", "    special_prize: title_shot\n    sides: [vince-valor, the-warden]")
    with pytest.raises(FedError) as caught:
        book_match(Fed.load(demo_fed), 3, "m3")
    assert "special_prize 'title_shot': a grudge match's stakes (9.a); this is a normal match" in str(caught.value)


WILD = {"id": "w", "type": "WILD_CARD", "points": "none", "square": False, "control": False, "text": "Wild!"}
MEAN2 = {"id": "m", "type": "MEAN", "points": 2, "square": False, "control": False, "text": "{performer} is mean."}


@pytest.mark.parametrize("weapons, expected", [(True, [4, 0]), (False, [2, 0])])
def test_a_hardcore_weapon_is_used_without_the_objects_option(monkeypatch, weapons, expected):
    """9.f.iv: hardcore brings "Increased likelihood of using weapons and extreme moves"; its
    chart hands out weapons (the hardcore Wild Card chart, 3: "{favored} reaches under the
    ring and comes up holding a kendo stick", object to the favored). With `hardcore_weapons`
    (the default) the weapon is an object in hand although the fed's 10.b `objects` option is
    off: the favored's next scoring move, MEAN 2, gets the object bonus (2): 4. Off: 2.
    Deck: Wild Card then MEAN (star, only A); dice: pre-match reel 1 + 2d6, the draw of 2
    (d2 = 2 takes the last card, the Wild Card), the chart 2d6 = 1 + 2, post-match 1 + 2d6."""
    monkeypatch.setattr(engine, "data", lambda: {**quiet_tables([MEAN2, WILD]), "wild": data()["wild"]})
    monkeypatch.setattr(engine, "FAC_GUARD", 2)
    options = engine.Options(weapons=weapons)
    a, b = wrestler("a", skills={"MEAN": "star"}), wrestler("b", skills={"MEAN": "star"})
    dice = ScriptedDice([1, 1, 1, 2, 1, 2, 1, 1, 1])
    played = engine.resolve(engine.Setup("m", (a, b), {}, chart="hardcore", options=options), dice)
    assert "kendo stick" in " ".join(ln.text for ln in played.lines)
    assert played.positions == expected and dice.remaining == 0


@pytest.mark.parametrize("setting, points, expected", [("half_down", 1, 0), ("half_up", 1, 1), ("half_down", 3, 1), ("half_up", 3, 2)])
def test_a_cage_s_helped_rounding_is_the_fed_s(monkeypatch, setting, points, expected):
    """9.b: a cage "Reduces effectiveness of outside interference (HELPED quality)": half the
    points, rounded down by default (a 1-point HELPED card is stopped by the steel) or up with
    `cage_helped: half_up` (a 1 still counts)."""
    card = {"id": "h", "type": "HELPED", "points": points, "square": False, "control": False, "text": "{performer} gets help."}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([card]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    helped = wrestler("a", skills={"HELPED": "star"})
    setup = engine.Setup("m", (helped, wrestler("b")), {}, chart="cage", options=engine.Options(cage_helped=setting))
    assert engine.resolve(setup, ScriptedDice([1, 1, 1, 1, 1, 1])).positions == [expected, 0]


def test_the_fed_settings_reach_the_engine(demo_fed):
    edit(demo_fed / "rosters/fed.yaml", "    interviews: true", "    interviews: true\n    hardcore_weapons: false\n    cage_helped: half_up")
    options = book_match(Fed.load(demo_fed), 3, "m3").setup.options
    assert (options.weapons, options.cage_helped) == (False, "half_up")


def test_book_grudge_proposes_the_challenge_from_the_league(demo_fed, fedtool):
    """9.a: "Generated when a Grudge Match Challenge is issued; Use HOT BOX to determine
    participants". Week 4's demo strategy has The Warden challenge La Rosa Negra (kept in the
    league): going into week 5 the proposal is that match, for him or for nobody named."""
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    for args in (("the-warden",), ()):
        result = fedtool("--fed", demo_fed, "book", "grudge", *args)
        assert result.exit_code == 0, result.output
        assert result.output.endswith("- ruleset: facemat\n  title: 'Grudge match: The Warden vs. La Rosa Negra'\n  stipulation: grudge\n  sides: [the-warden, lucha-rosa]\n")
        assert "going into week 5: The Warden challenged La Rosa Negra (9.a" in result.output


def test_book_grudge_takes_the_hot_box_foe_then_the_highest_grudges(demo_fed, fedtool):
    """Before any week: Kid Comet's HOT BOX foe is Sister Sorrow (his card's `foes`); with
    nobody named and no challenge open, the roster's two highest grudge grades (4.b.iii:
    Sister Sorrow 6, La Rosa Negra 4). The proposal is a card entry the week books as is."""
    comet = fedtool("--fed", demo_fed, "book", "grudge", "kid-comet")
    assert comet.exit_code == 0 and "sides: [kid-comet, sister-sorrow]" in comet.output and "HOT BOX foe" in comet.output
    top = fedtool("--fed", demo_fed, "book", "grudge")
    assert "sides: [sister-sorrow, lucha-rosa]" in top.output and "Sister Sorrow has grudge grade 6, La Rosa Negra has grudge grade 4" in top.output
    (demo_fed / "strategies/week-09").mkdir()
    (demo_fed / "strategies/week-09/card.yaml").write_text("week: 9\nmatches:\n" + top.output)
    booking = book_match(Fed.load(demo_fed), 9, "m1")
    assert booking.extra["match_type"] == "grudge" and booking.match.sides == ["sister-sorrow", "lucha-rosa"]


@pytest.mark.parametrize("args, message", [
    (("nobody",), "no wrestler 'nobody' is on the fed's roster (there is no rosters/nobody.yaml)"),
    (("silent-crane",), "rosters/silent-crane.yaml is not a Face to the Mat wrestler's card: grudge matches are Face to the Mat's (9.a)"),
    (("--week", "99"), "the league cannot say how week 99 begins: it has run 0 weeks, so the weeks to book for are 1 to 1"),
    (("--week", "0"), "the weeks to book for are 1 to 1"),
])
def test_book_grudge_refuses_clearly(demo_fed, fedtool, args, message):
    result = fedtool("--fed", demo_fed, "book", "grudge", *args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("value", ["yes", "null", "123", "the-warden", "Grudge match: A vs. B", "Relámpago", ["no", "off"], "~", "'quoted'"])
def test_a_proposed_entry_reads_back_as_written(value):
    """`fedtool book` prints YAML to paste into a card: a value YAML would read as something
    else (an id `yes` or `123`, a title with a colon) is quoted, on one line."""
    from fedtool.week.booking import dump_value

    shown = dump_value(value)
    assert "\n" not in shown and yaml.safe_load(f"key: {shown}") == {"key": value}


# ---------------------------------------------------------------- 12: strategies that matter


def test_the_announcement_says_what_each_strategy_field_changes(demo_fed, fedtool):
    """Issue 14, defect 12: a Face to the Mat player must learn what each field of his file
    changes, with the fed's own figures (the help table 1d6: +3, +2, +2, 0, -1, -2; the
    object bonus 2; the demo fed plays interviews)."""
    result = fedtool("--fed", demo_fed, "open", "4", "--reroll")
    assert result.exit_code == 0, result.output
    text = " ".join((demo_fed / "outbox/week-04/announcements/m1-vince-valor.md").read_text().split())
    assert "no strategy is needed" not in text
    assert "`call_for_help` (never, when_trailing, at_once): whether and when your HOT BOX ally" in text
    assert "1d6, spaces: 1: +3, 2: +2, 3: +2, 4: +0, 5: -1, 6: -2 (a minus: your foe answers instead)" in text
    assert "`use_object` (always, never, when_trailing)" in text and "adds 2 to your next scoring move" in text
    assert "`promo`: read out before the bell in the writeup, and in the interview segment" in text
    assert "`challenge`: a grudge match challenge (9.a)" in text and "`fedtool book grudge`" in text
    assert "`signature_moves` (per skill) and `finisher`: the names the writeup gives your moves; they change no dice" in text


def test_a_promo_is_read_before_the_bell_without_interview_segments(demo_fed, fedtool):
    """10.d interview segments are off: the promos sent for week 4 are still in the writeup."""
    edit(demo_fed / "rosters/fed.yaml", "    interviews: true", "    interviews: false")
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    writeup = (demo_fed / "outbox/week-04/m1.md").read_text()
    told = [ln for ln in writeup.split("\n\n") if "before the bell" in ln]  # the table's `promo` phrases
    assert any(ln.startswith("*Vince Valor") and "\u201cWarden, you took my grade. Tonight I take it back, and your job with it.\u201d*" in ln for ln in told)
    assert any(ln.startswith("*The Warden") and "\u201cValor talks about justice. Justice is a locked door, and I hold the key.\u201d*" in ln for ln in told)


def test_with_interview_segments_a_promo_is_read_once(demo_fed, fedtool):
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    writeup = (demo_fed / "outbox/week-04/m1.md").read_text()
    assert writeup.count("Tonight I take it back") == 1 and "before the bell" not in writeup


HELP_DECK = {"id": "q", "type": "QUICK", "points": 1, "square": False, "control": False, "text": "{performer} is quick."}


@pytest.mark.parametrize("choice, trailing_by, says", [("at_once", 0, ("help_at_once", {"name": "A"})),
                                                       ("when_trailing", 3, ("help_trailing", {"name": "B", "behind": 3}))])
def test_a_call_for_help_is_told_as_the_player_s_choice(monkeypatch, choice, trailing_by, says):
    """The strategy's call_for_help (docs/rulings, "Calling for help"): the story says who
    called and why. at_once: A calls after FAC 1; when_trailing: B calls when he trails by 3.
    The deck: QUICK 1 (only A has it). The help die is 4 (the ally is dragged out: 0)."""
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([{**HELP_DECK, "points": 3 if trailing_by else 1}]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    plans = (engine.Plan(call_for_help=choice), engine.Plan()) if choice == "at_once" else (engine.Plan(), engine.Plan(call_for_help=choice))
    a, b = wrestler("a", skills={"QUICK": "star"}), wrestler("b")
    hot = {"allies": ["Pal A", "Pal B"], "foes": ["Foe A", "Foe B"], "grudge": []}
    dice = ScriptedDice([1, 1, 1, 4, 1, 1, 1])
    played = engine.resolve(engine.Setup("m", (a, b), hot, plans=plans), dice)
    helps = [ln.told for ln in played.lines if ln.kind == "help"]  # told from data/commentary.yaml: the kind says why
    kind, fields = says
    assert len(helps) == 1 and helps[0][0] == kind and fields.items() <= helps[0][1].items() and dice.remaining == 0


def test_an_object_held_back_is_told(monkeypatch):
    """10.b.iv with use_object: never: the object a chart gave him stays out of sight, and
    the story says so once. The hardcore chart's 3 gives the favored a kendo stick (as in
    the hardcore weapons test); his MEAN 2 then scores 2, no bonus, twice."""
    monkeypatch.setattr(engine, "data", lambda: {**quiet_tables([MEAN2, WILD]), "wild": data()["wild"]})
    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    a, b = wrestler("a", skills={"MEAN": "star"}), wrestler("b")
    dice = ScriptedDice([1, 1, 1, 2, 1, 2, 1, 1, 1, 1])  # FAC 3 gathers the deck again: its draw d2 = 1 takes MEAN
    setup = engine.Setup("m", (a, b), {}, chart="hardcore", options=engine.Options(weapons=True), plans=(engine.Plan(use_object="never"), engine.Plan()))
    played = engine.resolve(setup, dice)
    objects = [ln.text for ln in played.lines if ln.kind == "object"]
    assert objects == ["A keeps the object out of sight: the plan is never to use it."]
    assert played.positions == [4, 0] and dice.remaining == 0


def test_a_tag_partner_s_promo_is_read_before_the_bell_beside_the_interview(demo_fed, fedtool):
    """Week 5's tag match with interview segments on: the men in the segment (each team's
    first, Vince Valor and The Warden) read theirs there; their partners' promos are read
    before the bell, and nobody's is lost or read twice."""
    week5 = demo_fed / "strategies/week-05"
    (week5 / "vince-valor.yaml").write_text('promo: "Valor speaks in the segment."\n')
    (week5 / "marcus-bright.yaml").write_text('promo: "Bright speaks before the bell."\n')
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4, 5)
    writeup = (demo_fed / "outbox/week-05/m1.md").read_text()
    assert "*Marcus Bright, before the bell: \u201cBright speaks before the bell.\u201d*" in writeup
    assert writeup.count("Valor speaks in the segment.") == 1 and "Vince Valor, before the bell" not in writeup
