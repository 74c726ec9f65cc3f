"""`fedtool results WEEK --json` says what happened (issue 14, "Results that say what
happened"): every demo week validates against docs/results.schema.json, and the demo's
cage, tag, grudge, triangle, Dual Match and title matches can be told from the JSON alone.
A league run by an older fedtool, whose stored summaries lack what is recorded now, still
prints its results (the new fields null), never a traceback."""

from __future__ import annotations

import json
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from fedtool.cli import cli
from fedtool.league.db import read_summary
from golden import demo_copy

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs/results.schema.json").read_text(encoding="utf-8"))
WEEKS = (1, 2, 3, 4, 5)
DECK = {card["id"]: card["type"] for card in yaml.safe_load((ROOT / "fedtool/rulesets/facemat/data/facs.yaml").read_text(encoding="utf-8"))["cards"]}
# matches.summary of the demo's five weeks as the fedtool before this change stored them (commit 586136c)
OLD_SUMMARIES = json.loads((Path(__file__).parent / "data/summaries-before-results-json.json").read_text(encoding="utf-8"))["summaries"]


def invoke(*args) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def validator() -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture(scope="module")
def demo_league(tmp_path_factory) -> Path:
    """The demo fed with weeks 1-5 run."""
    fed = demo_copy(tmp_path_factory.mktemp("results") / "fed")
    for week in WEEKS:
        invoke("run", week, "--fed", fed)
    return fed


@pytest.fixture(scope="module")
def results(demo_league) -> dict[int, list[dict]]:
    return {week: json.loads(invoke("results", week, "--json", "--fed", demo_league)) for week in WEEKS}


def every_match(results) -> dict[tuple[int, str], dict]:
    return {(week, m["id"]): m for week, matches in results.items() for m in matches}


def cards() -> dict[tuple[int, str], dict]:
    """Each demo match as its week's card books it."""
    out = {}
    for week in WEEKS:
        card = yaml.safe_load((ROOT / f"strategies/week-{week:02d}/card.yaml").read_text(encoding="utf-8"))
        out.update({(week, m["id"]): m for m in card["matches"]})
    return out


def test_every_demo_week_validates_against_the_documented_schema(results):
    check = validator()
    for week, matches in results.items():
        errors = [f"week {week}: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in check.iter_errors(matches)]
        assert errors == []
    assert sum(len(m) for m in results.values()) == len(cards())


def test_the_schema_refuses_what_it_does_not_describe(results):
    """The schema is a check, not a formality: a match missing a common field, with an unknown
    match type, or a Mat Clash scrap without its score, does not validate."""
    check = validator()
    match = every_match(results)[(3, "m2")]
    assert check.is_valid([match])
    assert not check.is_valid([{k: v for k, v in match.items() if k != "title"}])
    assert not check.is_valid([{**match, "match_type": "cage"}])
    assert not check.is_valid([{**match, "details": {**match["details"], "scraps": [{k: v for k, v in match["details"]["scraps"][0].items() if k != "score"}]}}])


def test_the_demos_special_matches_are_identifiable_from_the_json_alone(results):
    """Which demo match is which, by the cards (strategies/week-NN/card.yaml): week 2 m1 a
    MatchMatch tag match of team sheets, m2 a triangle, m3 a cage match, m4 a named referee;
    week 3 m1 a Quick Scrap, m2 a Dual Match, m3 a Face to the Mat singles match; week 4 a
    grudge match; week 5 a Face to the Mat tag match. Told here from the JSON only."""
    matches = every_match(results)

    def where(test) -> set:
        return {key for key, m in matches.items() if test(m)}

    assert where(lambda m: "cage" in (m["stipulation"] or "").split()) == {(2, "m3")}
    assert where(lambda m: m["match_type"] == "tag") == {(2, "m1"), (5, "m1")}
    assert where(lambda m: m["match_type"] == "grudge") == {(4, "m1")}
    assert where(lambda m: m["match_type"] == "triangle") == {(2, "m2")}
    assert where(lambda m: m["match_type"] == "dual_match") == {(3, "m2")}
    assert where(lambda m: m["match_type"] == "quick_scrap") == {(3, "m1")}
    assert where(lambda m: m["ruleset"] == "facemat" and m["match_type"] == "normal") == {(3, "m3")}
    assert where(lambda m: m["title"] is not None) == {(1, "m5"), (2, "m1"), (2, "m2"), (2, "m3"), (2, "m4")}
    # the grudge roll (9.a) made week 4 a cage match: its chart says so, apart from the card's stipulation
    assert where(lambda m: m["ruleset"] == "facemat" and m["details"]["chart"] == "cage") == {(4, "m1")}
    assert matches[(4, "m1")]["details"]["grudge"]["type"] == "cage"
    # the referee is a field: named on the card (2/m4), rolled when the week opened (2/m1-m3), none in week 1
    assert {key: m["referee"] for key, m in matches.items() if m["ruleset"] == "matchmatch"} == {
        (1, "m1"): None, (1, "m2"): None, (1, "m3"): None, (1, "m4"): None, (1, "m5"): None,
        (2, "m1"): "Stan Model", (2, "m2"): "Stan Model", (2, "m3"): "Stan Model", (2, "m4"): "Zero Tolerance"}


def test_the_titles_at_stake_and_whether_they_changed_hands(results):
    """The demo's title lineage (tests/test_records.py): Relámpago keeps the World title on a
    DQ win (1/m5) and keeps it when the triangle goes the distance (2/m2, a time-limit draw); Heavy Industry win the tag titles
    (2/m1); the vacant Heavyweight title is won in the cage (2/m3); Dr. Vane keeps the
    Hardcore title on a DQ loss (2/m4: a title changes hands on any finish but a DQ)."""
    titles = {key: m["title"] for key, m in every_match(results).items() if m["title"]}
    summary = {key: (t["id"], t["holder_before"], t["holder_after"], t["result"], t["changed_hands"]) for key, t in titles.items()}
    assert summary == {
        (1, "m5"): ("world", "relampago", "relampago", "defended", False),
        (2, "m1"): ("tag-team", "rulebook-rivals", "heavy-industry", "won", True),
        (2, "m2"): ("world", "relampago", "relampago", "defended", False),
        (2, "m3"): ("heavyweight", None, "mad-dog-maddox", "won", True),
        (2, "m4"): ("hardcore", "victor-vane", "victor-vane", "defended", False),
    }
    assert titles[(2, "m3")]["name"] == "DCW Heavyweight Championship"


def test_the_common_fields_follow_the_cards(results):
    """Each match's stipulation, title and card title are the card's; its outcomes name every
    wrestler on the card."""
    matches = every_match(results)
    for key, card in cards().items():
        m = matches[key]
        assert m["card_title"] == card.get("title"), key
        assert (m["title"] or {}).get("id") == card.get("for_title"), key
        assert m["stipulation"] == card.get("stipulation"), key
        if card.get("ruleset") == "matclash":
            assert m["format"] == card["format"] == m["match_type"], key
        assert sorted(m["outcomes"]) == sorted(card["sides"]), key
        assert list(m["outcomes"].values()).count("win") == (0 if m["winner"] is None else 2 if m["match_type"] == "tag" and m["ruleset"] == "facemat" else 1), key


def test_matchmatch_gives_the_style_table_with_its_sources_and_each_sides_grid_pick(results, demo_league):
    """III.1: "The intersection of the chosen letter and number is a style that will be added
    to the "+" styles chosen by each side"; IV.1.a the table is those styles. The week-2
    triangle (opening.yaml m2: row 2 is We, Te, HF): Sabrina (first) picks C, Relámpago
    (second) 2, so the grid style is C2, High-Flying; the Crane (third) picks the cell B2,
    Technical (docs/rulings/matchmatch.md)."""
    m = every_match(results)[(2, "m2")]["details"]
    assert [(p["id"], p["grid"]) for p in m["picks"]] == [("skyline-sabrina", "C"), ("relampago", "2"), ("silent-crane", "B2")]
    assert (m["grid_cell"], m["grid_style"]) == ("C2", "High-Flying")
    assert m["grid"][1] == ["Weight", "Technical", "High-Flying"]
    assert [(row["from"], row["side"], row.get("cell")) for row in m["style_table"]] == [
        ("plus", "skyline-sabrina", None), ("plus", "skyline-sabrina", None), ("plus", "relampago", None), ("plus", "relampago", None),
        ("plus", "silent-crane", None), ("plus", "silent-crane", None), ("grid", None, "C2"), ("cell", "silent-crane", "B2")]
    assert [row["style"] for row in m["style_table"]] == [
        "High-Flying", "Technical", "High-Flying", "Technical", "Martial Arts", "Technical", "High-Flying", "Technical"]
    for key, match in every_match(results).items():
        if match["ruleset"] != "matchmatch":
            continue
        d = match["details"]
        plus = {p["id"]: p["plus"] for p in d["picks"]}
        for row in d["style_table"]:
            if row["from"] == "plus":
                assert row["style"] in plus[row["side"]], key
            if row["from"] in ("grid", "cell"):
                assert row["style"] == d["grid"][int(row["cell"][1]) - 1]["ABC".index(row["cell"][0])], key
        assert d["grid_cell"] == d["picks"][0]["grid"] + d["picks"][1]["grid"], key
        assert ("teamwork" in [row["from"] for row in d["style_table"]]) == (match["match_type"] == "tag"), key


def test_the_triangles_stored_grid_style_is_the_grids_not_the_third_sides_plus(demo_league):
    """Defect: the summary's `grid_style` was the style table's fifth entry, which is the grid
    style only with two sides; in the week-2 triangle it named the Crane's first "+" style
    (Martial Arts). III.1 (quoted above): the grid style is the letter-number intersection,
    C2: High-Flying."""
    db = sqlite3.connect(demo_league / "fed.db")
    try:
        stored = read_summary(db.execute("SELECT summary FROM matches WHERE id = 'week-02/m2'").fetchone()[0])
    finally:
        db.close()
    assert OLD_SUMMARIES["week-02/m2"]["grid_style"] == "Martial Arts"  # as the fedtool before stored it
    assert stored["grid_style"] == "High-Flying"


def test_face_to_the_mat_gives_the_facs_played_and_the_hotbox(results):
    """4.b the HOT BOX: each side's ally and foe and the two highest grudge grades, none of
    them in the match; the FACs played is where the match ended."""
    for key in ((3, "m3"), (4, "m1"), (5, "m1")):
        m = every_match(results)[key]
        d = m["details"]
        assert d["facs"] == m["round"] > 0
        # 6.a each card drawn, in order: one a FAC, numbered 1 to the last, from the deck
        assert [c["fac"] for c in d["cards"]] == list(range(1, d["facs"] + 1))
        assert {c["stage"] for c in d["cards"]} == {None}
        assert all(DECK[c["id"]] == c["type"] for c in d["cards"])
        fronts = [s["id"] for s in m["sides"]][: 2 if m["match_type"] == "tag" else len(m["sides"])]
        assert [seat["for"] for seat in d["hotbox"]["allies"]] == [seat["for"] for seat in d["hotbox"]["foes"]] == fronts
        assert len(d["hotbox"]["grudge"]) == 2
        seated = {seat["id"] for seats in d["hotbox"].values() for seat in seats}
        assert seated.isdisjoint(m["outcomes"]), key
        assert set(d["tracks"]) == set(m["outcomes"])
        assert d["favored"] == m["sides"][0]["id"]


def test_mat_clash_gives_the_score_of_every_scrap(results):
    """Mat Clash 4.8: a Dual Match's team points are the sum of the points each of its five scraps
    earned its winner; tied, "a tiebreaker Quick Scrap match is wrestled; the winner takes the Dual Match"."""
    m = every_match(results)[(3, "m2")]
    d = m["details"]
    assert len(d["scraps"]) == 5 + bool(d["tiebreaker"])
    sides = set(m["outcomes"])
    for scrap in d["scraps"]:
        assert set(scrap["score"]) == sides
    assert d["team_points"] == {wid: sum(s["team_points"] for s in d["scraps"][:5] if s["winner"] == wid) for wid in sides}
    if d["tiebreaker"]:  # the demo's dual is tied 12-12 (the week-3 golden playthrough)
        assert len(set(d["team_points"].values())) == 1 and d["scraps"][5]["winner"] == m["winner"]
    else:
        assert max(d["team_points"], key=d["team_points"].get) == m["winner"]


def test_the_league_changes_of_each_match_agree_with_the_league(results, demo_league):
    """Each match's league changes, with reasons: the last value a week's matches give a
    wrestler's TV grade, grudge or push is the state the league keeps for him that week."""
    db = sqlite3.connect(demo_league / "fed.db")
    db.row_factory = sqlite3.Row
    try:
        checked = 0
        for week, matches in results.items():
            last: dict[tuple[str, str], object] = {}
            for m in matches:
                assert m["league_changes"] is not None
                for change in m["league_changes"]:
                    assert change["reason"] and change["name"]
                    for key, values in change["changes"].items():
                        last[(change["wrestler"], key)] = values["after"]
            for (wid, key), after in last.items():
                if key in ("tv_grade", "grudge", "push_level", "push_points"):
                    row = db.execute(f"SELECT {key} FROM wrestler_states WHERE week = ? AND wrestler_id = ?", [week, wid]).fetchone()
                    assert row[0] == after, (week, wid, key)
                    checked += 1
        assert checked >= 10
    finally:
        db.close()
    upset = {c["wrestler"]: c["changes"]["tv_grade"] for c in every_match(results)[(3, "m3")]["league_changes"]}
    assert upset == {"vince-valor": {"before": "A", "after": "B"}, "the-warden": {"before": "C", "after": "B"}}


def test_league_change_rows_keep_a_reason_whose_changes_cancel():
    """Every change is recorded with its reason, even when the changes cancel (issue 14, Face
    to the Mat defect 3): a wrestler the ruleset names with his state unchanged keeps his row."""
    from fedtool.week.run import league_change_rows

    before = {"a": {"tv_grade": "B", "grudge": 1}, "b": {"push_level": 2, "push_points": Fraction(1)}}
    effects = {"a": ({"tv_grade": "B", "grudge": 1}, "grudge match: TV grade B -> C; interview: TV grade C -> B"),
               "b": ({"push_level": 2, "push_points": Fraction(3, 2)}, "beat X (Part II)")}
    assert league_change_rows(effects, before) == [
        {"wrestler": "a", "reason": "grudge match: TV grade B -> C; interview: TV grade C -> B", "changes": {}},
        {"wrestler": "b", "reason": "beat X (Part II)", "changes": {"push_points": {"before": "1", "after": "3/2"}}},
    ]


@pytest.fixture
def old_league(demo_league, tmp_path) -> Path:
    """The demo league as an older fedtool left it: each match's summary as it stored them."""
    fed = Path(shutil.copytree(demo_league, tmp_path / "fed"))
    db = sqlite3.connect(fed / "fed.db")
    try:
        with db:
            for match_id, summary in OLD_SUMMARIES.items():
                assert db.execute("UPDATE matches SET summary = ? WHERE id = ?", [json.dumps(summary), match_id]).rowcount == 1
    finally:
        db.close()
    return fed


def test_an_older_leagues_results_still_print_and_validate(old_league):
    check = validator()
    for week in WEEKS:
        text = invoke("results", week, "--fed", old_league)
        assert "wins by" in text
        matches = json.loads(invoke("results", week, "--json", "--fed", old_league))
        assert [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in check.iter_errors(matches)] == []
        for m in matches:
            if f"week-{week:02d}/{m['id']}" not in OLD_SUMMARIES:
                continue  # a Mad Match game: no older fedtool played one
            assert m["league_changes"] is None
            if m["ruleset"] == "matchmatch":
                assert m["details"]["picks"] is None and {row["from"] for row in m["details"]["style_table"]} == {None}
            if m["ruleset"] == "facemat":
                assert m["details"]["hotbox"] is None
    old = {(w, m["id"]): m for w in WEEKS for m in json.loads(invoke("results", w, "--json", "--fed", old_league))}
    # what the old summaries hold still tells the matches apart (a tag match: Teamwork ends its table, IV.1.a)
    assert {k for k, m in old.items() if m["match_type"] in ("tag", "triangle", "grudge", "dual_match")} == {(2, "m1"), (2, "m2"), (4, "m1"), (3, "m2"), (5, "m1")}
    assert old[(2, "m3")]["stipulation"] == "cage" and old[(2, "m4")]["referee"] == "Zero Tolerance"
    assert old[(2, "m2")]["details"]["grid_style"] is None  # stored wrong for a triangle: not shown
    assert old[(2, "m3")]["title"]["changed_hands"] is True


def test_a_summary_with_nothing_in_it_prints_without_a_traceback(old_league):
    db = sqlite3.connect(old_league / "fed.db")
    try:
        with db:
            db.execute("UPDATE matches SET summary = '{}' WHERE week = 2")
            db.execute("UPDATE matches SET summary = 'null', notes = NULL WHERE id = 'week-02/m1'")
    finally:
        db.close()
    result = CliRunner().invoke(cli, ["results", "2", "--json", "--fed", str(old_league)])
    assert result.exit_code == 0, result.output
    assert [m["details"]["style_table"] for m in json.loads(result.output)] == [[], [], [], []]
    text = CliRunner().invoke(cli, ["results", "2", "--fed", str(old_league)])
    assert text.exit_code == 0 and text.exception is None, text.output
    # the sides the summary lost are the league's match_sides rows (the schema wants them)
    assert "Mad Dog Maddox wins by pin in round 16" in text.output and "(no sides recorded)" not in text.output


def test_a_battle_royale_gives_every_card_drawn_by_stage(tmp_path):
    """9.e: a Match-Up or Quick-Play battle royale cuts the field before the final two
    wrestle; its cards say which part drew them, and the final's are numbered as its FACs."""
    from fedtool.kernel.dice import SeededDice
    from fedtool.rulesets.facemat import royale
    from fedtool.rulesets.facemat.engine import Setup
    from fedtool.rulesets.facemat.sheet import Wrestler

    men = tuple(Wrestler(f"w{k}", f"Man {k}", "C", 0, "heel" if k % 2 else "face", {"MEAN": "star", "QUICK": "square"}, "a move", (11, 33), {})
                for k in range(5))
    hotbox = {"allies": [None] * 5, "foes": [None] * 5, "grudge": []}
    for method in ("match_up", "quick_play"):
        result = royale.battle_royale(Setup("m1", men, hotbox, storylines=False), method, SeededDice(7), 12)
        stages = [stage for stage, *_ in result.cards]
        final = [fac for stage, fac, _, _ in result.cards if stage == "final"]
        assert final == list(range(1, result.facs + 1))
        assert stages[0].startswith("mini-match 1: " if method == "match_up" else "quick-play round 1: ")
        assert stages.index("final") == len(stages) - len(final)  # the cut first, then the final
        assert all(DECK[card] == kind for _, _, card, kind in result.cards)


ODD_SUMMARIES = {  # (match, what replaces its stored summary): each read as an empty summary, no traceback
    "week-03/m3": "{not json",  # not JSON at all (a hand edit)
    "week-01/m1": json.dumps({"sides": ["brother-bob", 1], "styles": 5, "style_table": [1, 2], "picks": [1]}),
    "week-01/m2": json.dumps({"sides": {"a": 1}, "style_table": {"a": 1}}),
    "week-04/m1": json.dumps({"sides": [{"id": "x"}], "stipulation": 5, "grudge": [1]}),
    "week-05/m1": "[" * 5000 + "]" * 5000,  # nested past the JSON reader's recursion limit
}


def test_an_odd_stored_summary_reads_as_empty_with_no_traceback(demo_league, tmp_path):
    """A summary of the wrong shape (hand-edited, damaged) reads as an empty one, like a
    null summary (test above): results --json still prints and validates, results prints
    the match from its row, and verify still checks the week instead of a traceback."""
    fed = Path(shutil.copytree(demo_league, tmp_path / "fed"))
    db = sqlite3.connect(fed / "fed.db")
    try:
        with db:
            for match_id, text in ODD_SUMMARIES.items():
                assert db.execute("UPDATE matches SET summary = ? WHERE id = ?", [text, match_id]).rowcount == 1
    finally:
        db.close()
    check = validator()
    for week in (1, 3, 4, 5):
        result = CliRunner().invoke(cli, ["results", str(week), "--json", "--fed", str(fed)])
        assert result.exit_code == 0 and result.exception is None, result.output
        matches = json.loads(result.output)
        assert [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in check.iter_errors(matches)] == []
        for m in matches:
            if f"week-{week:02d}/{m['id']}" in ODD_SUMMARIES:
                assert [s["id"] for s in m["sides"]] == list(m["outcomes"]) and m["stipulation"] is None, m
        text = CliRunner().invoke(cli, ["results", str(week), "--fed", str(fed)])
        assert text.exit_code == 0 and text.exception is None, text.output
    verify = CliRunner().invoke(cli, ["verify", "5", "--fed", str(fed)])
    assert verify.exception is None or isinstance(verify.exception, SystemExit), verify.exception


@pytest.mark.parametrize("odd", ["{not json", "[1, 2]", json.dumps({"scraps": 5, "team_points": "x"}),
                                 json.dumps({"scraps": [1, {"winner": "gus-halvorsen", "method": "fall", "team_points": "6"}], "team_points": [None, True]})])
def test_standings_read_an_odd_mat_clash_summary_as_counting_nothing(demo_league, tmp_path, odd):
    """The standings' Mat Clash columns (team points, falls) come from each match's stored
    summary: one a hand edit left odd counts nothing for that match, never a traceback."""
    fed = Path(shutil.copytree(demo_league, tmp_path / "fed"))
    before = json.loads(CliRunner().invoke(cli, ["standings", "--ruleset", "matclash", "--json", "--fed", str(fed)]).output)
    db = sqlite3.connect(fed / "fed.db")
    try:
        with db:
            assert db.execute("UPDATE matches SET summary = ? WHERE id = 'week-03/m2'", [odd]).rowcount == 1
    finally:
        db.close()
    result = CliRunner().invoke(cli, ["standings", "--ruleset", "matclash", "--json", "--fed", str(fed)])
    assert result.exit_code == 0 and result.exception is None, result.output
    points = {r["wrestler_id"]: (r["match_points"], r["falls"]) for t in json.loads(result.output) for r in t["rows"]}
    was = {r["wrestler_id"]: (r["match_points"], r["falls"]) for t in before for r in t["rows"]}
    assert points.keys() == was.keys() and all(isinstance(p, int) and isinstance(f, int) for p, f in points.values())
    assert sum(p for p, _ in points.values()) < sum(p for p, _ in was.values())  # the Dual Match's team points no longer count
