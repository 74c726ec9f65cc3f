"""Face to the Mat input and league: strategy files, the fed's own data files, match types on
the card, the HOT BOX from the league, allies, foes and challenges (issue 5)."""

from __future__ import annotations

import re

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fedtool.kernel.errors import FedError
from fedtool.fed.settings import Fed
from fedtool.rulesets.base import Booking, WrestlerRecord
from fedtool.rulesets.facemat import FaceToTheMat, engine, read_plan
from fedtool.rulesets.facemat.sheet import Wrestler
from fedtool.week.booking import book_match
from fedtool.kernel.yamlio import parse_yaml

from conftest import snapshot

ROSTER = {"the-warden": None, "vince-valor": None}


def vince() -> Wrestler:
    return Wrestler("vince-valor", "Vince Valor", "A", 2, "face", {"AGILE": "star"}, "the Valor Driver", (11, 33), {})


def test_a_strategy_file_is_read_with_its_choices():
    """docs/rulings "Strategy files": move names per skill, the finisher's name, a promo, a
    challenge and the two choices (objects, help)."""
    text = ("signature_moves: {agile: a corkscrew plancha}\nfinisher: the Driver\npromo: \"Bring it.\"\n"
            "challenge: the-warden\nuse_object: never\ncall_for_help: when_trailing\n")
    plan = read_plan(parse_yaml(text, "s.yaml"), "s.yaml", vince(), ROSTER)
    assert plan == engine.Plan((("AGILE", "a corkscrew plancha"),), "the Driver", "never", "when_trailing", "Bring it.", "the-warden")


@pytest.mark.parametrize("text, message", [
    ("signature_moves: {JUMPING: a leap}\n", "line 1, field signature_moves.JUMPING: unknown skill 'JUMPING'"),
    ("challenge: nobody-at-all\n", "line 1, field challenge: challenge 'nobody-at-all': no Face to the Mat wrestler"),
    ("challenge: vince-valor\n", "a wrestler cannot challenge himself"),
    ("call_for_help: sometimes\n", "call_for_help"),
    ("promo: hi\nfavourite_food: pie\n", "favourite_food"),
])
def test_bad_strategy_files_name_the_line_and_rule(text, message):
    with pytest.raises(FedError) as caught:
        read_plan(parse_yaml(text, "s.yaml"), "s.yaml", vince(), ROSTER)
    assert message in str(caught.value) and "s.yaml" in str(caught.value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=15), inner, max_size=5), max_leaves=15))
def test_hostile_strategy_data_gives_a_plan_or_a_clear_error(data):
    """Anything a mail could carry: a Plan, or a FedError naming the file; never a traceback."""
    try:
        plan = read_plan(data, "s.yaml", vince(), ROSTER)
    except FedError as exc:
        assert all(p.file == "s.yaml" for p in exc.problems)
    else:
        assert isinstance(plan, engine.Plan)


def run_weeks(fedtool, fed: Path, *weeks: int) -> None:
    for week in weeks:
        result = fedtool("run", str(week), "--fed", fed)
        assert result.exit_code == 0, result.output


def test_a_bad_strategy_stops_the_run_with_nothing_written(demo_fed, fedtool):
    run_weeks(fedtool, demo_fed, 1, 2, 3)
    (demo_fed / "strategies/week-04/the-warden.yaml").write_text("signature_moves:\n  KICKING: a kick\n")
    before = snapshot(demo_fed)
    result = fedtool("run", "4", "--fed", demo_fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "strategies/week-04/the-warden.yaml, line 2, field signature_moves.KICKING: unknown skill 'KICKING'" in result.stderr
    assert snapshot(demo_fed) == before


def test_a_fed_data_file_with_an_unknown_card_type_is_refused(demo_fed, fedtool):
    """Issue 5, bad input: "a data file with an unknown card type". The fed replaces the deck."""
    import fedtool as package

    data = demo_fed / "rosters" / "facemat-data"
    data.mkdir()
    deck = (Path(package.__file__).parent / "rulesets/facemat/data/facs.yaml").read_text()
    lines = deck.splitlines()
    bad = next(k for k, line in enumerate(lines) if "type: MEAN" in line)
    lines[bad] = lines[bad].replace("type: MEAN", "type: SNEAKY")
    (data / "facs.yaml").write_text("\n".join(lines) + "\n")
    settings_file = demo_fed / "rosters/fed.yaml"
    settings_file.write_text(settings_file.read_text().replace("    interviews: true", "    interviews: true\n    data: rosters/facemat-data"))
    run_weeks(fedtool, demo_fed, 1, 2)
    before = snapshot(demo_fed)
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"rosters/facemat-data/facs.yaml, line {bad + 1}, field cards." in result.stderr
    assert "unknown card type 'SNEAKY'" in result.stderr and "[Face to the Mat 6]" in result.stderr
    assert snapshot(demo_fed) == before


def test_a_fed_data_folder_outside_the_fed_is_refused(demo_fed, fedtool):
    settings_file = demo_fed / "rosters/fed.yaml"
    settings_file.write_text(settings_file.read_text().replace("    interviews: true", "    interviews: true\n    data: rosters/../../elsewhere"))
    run_weeks(fedtool, demo_fed, 1, 2)
    result = fedtool("run", "3", "--fed", demo_fed)
    assert result.exit_code == 1 and "a data folder is a folder inside the fed's folder" in result.stderr


def test_the_fed_data_replaces_the_packaged_tables(demo_fed, fedtool):
    """A fed's own Wild Card chart is the one played: every total of its normal chart says so."""
    import yaml

    import fedtool as package

    data = demo_fed / "rosters" / "facemat-data"
    data.mkdir()
    wild = yaml.safe_load((Path(package.__file__).parent / "rulesets/facemat/data/wild_cards.yaml").read_text())
    wild["normal"] = {total: {"text": f"Our own chart, total {total}.", "effect": "none"} for total in range(2, 13)}
    (data / "wild_cards.yaml").write_text(yaml.safe_dump(wild))
    settings_file = demo_fed / "rosters/fed.yaml"
    settings_file.write_text(settings_file.read_text().replace("    interviews: true", "    interviews: true\n    data: rosters/facemat-data"))
    booking = book_match(Fed.load(demo_fed), 3, "m3")
    assert booking.setup.tables["wild"]["normal"][7]["text"] == "Our own chart, total 7."


@pytest.mark.parametrize("stipulation, fmt, sides, message", [
    ("three_for_all", None, ["vince-valor", "the-warden"], "a three-for-all is three wrestlers (9.d), not 2"),
    ("battle_royale", "four_play", ["vince-valor", "the-warden", "kid-comet"], "a battle royale is four to 40 wrestlers (9.e), not 3"),
    ("three_for_all", "quick_play", ["vince-valor", "the-warden", "kid-comet"], "format 'quick_play' does not apply to a three_for_all match"),
    ("steel_chair", None, ["vince-valor", "the-warden"], "stipulation 'steel_chair'"),
    ("hardcore three_for_all", None, ["vince-valor", "the-warden", "sister-sorrow"], "Vince Valor is not MEAN"),
    ("cage cage", None, ["vince-valor", "the-warden"], "stipulation 'cage cage': a Face to the Mat match is one of"),
    ("cage normal", None, ["vince-valor", "the-warden"], "stipulation 'cage normal': a Face to the Mat match is one of"),
    ("grudge grudge", None, ["vince-valor", "the-warden"], "stipulation 'grudge grudge'"),
])
def test_match_types_are_checked_on_the_card(demo_fed, stipulation, fmt, sides, message):
    card = demo_fed / "strategies/week-03/card.yaml"
    text = card.read_text().replace("    sides: [vince-valor, the-warden]",
                                    f"    stipulation: {stipulation}\n" + (f"    format: {fmt}\n" if fmt else "") + f"    sides: [{', '.join(sides)}]")
    card.write_text(text)
    with pytest.raises(FedError) as caught:
        book_match(Fed.load(demo_fed), 3, "m3")
    assert message in str(caught.value) and "strategies/week-03/card.yaml, line" in str(caught.value)


def test_the_hot_box_holds_each_side_s_ally_and_foe_and_the_league_s_two_highest_grudges(demo_fed):
    """4.b: "Favored wrestler's ally and foe; Underdog wrestler's ally and foe; Two wrestlers
    with highest Grudge Grades not in the match". Vince Valor (A) is favored over The Warden
    (C). Not in the match: Sister Sorrow 6, La Rosa Negra 4, Dutch Kessler 3, ...: the two
    highest are Sorrow and Rosa. Vince's lists: ally skyline-sabrina, foe mad-dog-maddox."""
    booking = book_match(Fed.load(demo_fed), 3, "m3")
    hot = booking.setup.hotbox
    assert hot["grudge"] == ["Sister Sorrow", "La Rosa Negra"]
    assert hot["allies"][0] == "Skyline Sabrina" and hot["foes"][0] == "Mad Dog Maddox"
    assert [w.id for w in booking.wrestlers] == ["vince-valor", "the-warden"]


def record(wid: str, name: str, allies=(), foes=()) -> WrestlerRecord:
    sheet = Wrestler(wid, name, "B", 0, "face", {}, "F", (11, 33), {}, tuple(allies), tuple(foes))
    return WrestlerRecord(wid, name, "facemat", "o", "o@x.example", sheet)


def test_allies_and_foes_change_through_storylines_and_challenges_are_recorded():
    """A storyline `foe` effect: his HOT BOX ally turns on him (ally -> foe); `ally`: his
    opponent becomes an ally. A strategy's challenge is kept in the league (9.a)."""
    ws = [record("a", "A", allies=["pal"], foes=["b"]), record("b", "B")]
    booking = Booking(None, None, ws, extra={"hotbox_ids": {"allies": ["pal", None], "foes": [None, None]},
                                             "challenges": {"b": "a"}})
    states = {"a": {"tv_grade": "B", "grudge": 0, "allies": ["pal"], "foes": ["b"]}, "b": {"tv_grade": "B", "grudge": 0}}
    result = engine.Result(0, "pin", 20, [12, 3], league=[(0, "foe", 1, "turns"), (0, "ally", 1, "respect")])
    changes = FaceToTheMat().league_effects(booking, result, states, {"tv_changes": "none"})
    assert changes["a"][0]["allies"] == ["b"] and changes["a"][0]["foes"] == ["pal"]
    assert "Pal turns on him (ally -> foe)" in changes["a"][1] and "B becomes an ally" in changes["a"][1]
    assert changes["b"][0]["challenge"] == "a" and "grudge match challenge to A" in changes["b"][1]


def test_allies_foes_and_challenges_live_in_the_league_and_rerun_undoes_them(demo_fed, fedtool):
    """Week 4's demo strategy: the Warden challenges La Rosa Negra; stored with the week and
    gone after `--rerun` undoes the week (then stored again)."""
    import sqlite3

    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    db = sqlite3.connect(demo_fed / "fed.db")
    row = db.execute("SELECT week, challenge, reason FROM wrestler_states WHERE wrestler_id = 'the-warden' AND challenge IS NOT NULL").fetchall()
    assert row and row[0][:2] == (4, "lucha-rosa") and "challenge to La Rosa Negra" in row[0][2]
    (demo_fed / "strategies/week-04/the-warden.yaml").write_text("promo: No more talk.\n")
    assert fedtool("run", "4", "--rerun", "--fed", demo_fed).exit_code == 0
    assert db.execute("SELECT COUNT(*) FROM wrestler_states WHERE challenge IS NOT NULL").fetchone() == (0,)


def test_a_promo_with_markup_is_text_in_the_html_writeup(demo_fed, fedtool):
    (demo_fed / "strategies/week-04/vince-valor.yaml").write_text('promo: "<script>alert(1)</script> Warden!"\n')
    run_weeks(fedtool, demo_fed, 1, 2, 3, 4)
    html = (demo_fed / "outbox/week-04/m1.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Warden!" in html and "<script>alert" not in html


def test_the_example_card_plays_every_three_for_all_and_battle_royale(demo_fed, fedtool):
    """Each method leaves its own mark in its writeup: Match-Up's mini-matches and the bye of
    the fifth entrant (9.e.i), Quick-Play's rounds of draws (9.e.ii), Four-Play's replacements
    for the four who start (9.e.iii), and the two-on-one's billing (9.d.i)."""
    folder = demo_fed / "strategies/example-fttm-multi"
    result = fedtool("play", folder, "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    out = demo_fed / "outbox/exhibitions/example-fttm-multi"
    assert "Vince Valor is favored, two on one against La Rosa Negra and Sister Sorrow (9.d.i)." in (out / "t1.md").read_text()
    match_up = (out / "r1.md").read_text()
    assert "Mini-match, stage 1: Vince Valor vs. Marcus Bright." in match_up and "Dutch Kessler has a bye" in match_up
    assert "Quick-Play round 1: Vince Valor draws" in (out / "r2.md").read_text()
    four_play = (out / "r3.md").read_text()
    assert len(re.findall(r"hits the ring to replace|comes in for", four_play)) == 2  # six entrants, four in the ring: two replacements (the table's `replacement`)
