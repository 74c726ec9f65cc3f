"""Titles (issue 7): the fed's rule for changing hands, vacate and award, `--rerun`, and
bad title references in the settings and on the card. Each test runs the demo's
MatchMatch weeks in its own copy of the fed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from fedtool.fed.card import Card, CardMatch
from fedtool.fed.settings import Fed
from fedtool.league.db import open_league
from fedtool.league.records import changes_hands, decide_title_matches, titles

CARD_1 = "strategies/week-01/card.yaml"
CARD_2 = "strategies/week-02/card.yaml"


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def set_titles(fed: Path, titles_yaml: str) -> None:
    """Replace the demo's `titles:` section of rosters/fed.yaml."""
    path = fed / "rosters/fed.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("\ntitles:\n")] + "\ntitles:\n" + titles_yaml, encoding="utf-8")


def lineage(fedtool, fed: Path, title_id: str) -> list[tuple]:
    result = fedtool("titles", "--json", "--fed", fed)
    assert result.exit_code == 0, result.output
    title = next(t for t in json.loads(result.output) if t["id"] == title_id)
    return [(r["wrestler_id"], r["won_week"], r["won_match"], r["how"], r["lost_week"], r["lost_how"], r["defences"], r["weeks"]) for r in title["reigns"]]


OPEN_TITLE = "  - {id: open, name: Open Title, first_holder: brother-bob%s}\n"


def test_a_dq_win_does_not_change_hands_by_default(demo_fed, fedtool):
    # week 1, m1: Friendly Sam beats Brother Bob by DQ in round 3
    set_titles(demo_fed, OPEN_TITLE % "")
    replace_in(demo_fed / CARD_1, "sides: [brother-bob, friendly-sam]\n", "sides: [brother-bob, friendly-sam]\n    for_title: open\n")
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "Brother Bob retains Open Title after a loss by dq (changes hands on any finish but dq or countout)" in result.output
    assert lineage(fedtool, demo_fed, "open") == [("brother-bob", 0, None, "awarded", None, None, 1, 1)]


def test_a_fed_that_lists_dq_lets_a_dq_win_take_the_title(demo_fed, fedtool):
    set_titles(demo_fed, OPEN_TITLE % ", changes_on: [pin, submission, countout, dq]")
    replace_in(demo_fed / CARD_1, "sides: [brother-bob, friendly-sam]\n", "sides: [brother-bob, friendly-sam]\n    for_title: open\n")
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert "Friendly Sam wins Open Title by dq from Brother Bob" in result.output
    assert lineage(fedtool, demo_fed, "open") == [
        ("brother-bob", 0, None, "awarded", 1, "lost", 0, 1),
        ("friendly-sam", 1, "1/m1", "won", None, None, 0, 0),
    ]


def _decide(fed: Fed, winner: str | None, method: str, holder_in: bool = True) -> dict:
    match = CardMatch(id="m1", position=1, ruleset="matchmatch", sides=["brother-bob", "friendly-sam"], title="", rounds=None,
                      raw={}, line=None, sides_line=None, for_title="open")
    card = Card(Path("."), "strategies/week-06/card.yaml", "", "", None, [match], True)
    played = [SimpleNamespace(booking=SimpleNamespace(match=match), summary={"winner": winner, "method": method})]
    rows, lines = decide_title_matches(fed, open_league(fed.database), 6, card, played, {"brother-bob": "Brother Bob", "friendly-sam": "Friendly Sam"})
    return rows[0]


@pytest.mark.parametrize(
    "first_holder, winner, method, result",
    [
        ("brother-bob", "friendly-sam", "countout", "defended"),  # count-out: no change, a defence
        ("brother-bob", "friendly-sam", "dq", "defended"),
        ("brother-bob", "friendly-sam", "pin", "won"),
        ("brother-bob", "friendly-sam", "submission", "won"),
        ("brother-bob", None, "double_countout", "defended"),  # a draw never changes it
        ("brother-bob", "brother-bob", "pin", "defended"),
        (None, "friendly-sam", "countout", "vacant"),  # a vacant title is not won on a count-out
        (None, "friendly-sam", "pin", "won"),
    ],
)
def test_which_finishes_change_hands(demo_fed, first_holder, winner, method, result):
    set_titles(demo_fed, "  - {id: open, name: Open Title%s}\n" % (f", first_holder: {first_holder}" if first_holder else ""))
    row = _decide(Fed.load(demo_fed), winner, method)
    assert (row["title_id"], row["holder_before"], row["winner"], row["method"], row["result"]) == ("open", first_holder, winner, method, result)


def test_changes_on_lists_the_finishes_that_change_hands(demo_fed):
    set_titles(demo_fed, "  - {id: open, name: Open Title, changes_on: [pin]}\n")
    title = Fed.load(demo_fed).settings.titles[0]
    assert [changes_hands(title, m) for m in ("pin", "submission", "dq", "countout", None)] == [True, False, False, False, False]


def test_vacate_and_award_take_effect_after_the_latest_week_and_survive_a_rerun(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    result = fedtool("title", "vacate", "world", "--reason", "Relámpago is injured", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output == "DCW World Championship vacated after week 1: Relámpago no longer holds it\n"
    assert lineage(fedtool, demo_fed, "world") == [("relampago", 0, None, "awarded", 1, "vacated", 1, 1)]
    result = fedtool("title", "award", "world", "brother-bob", "--reason", "won the battle royal", "--fed", demo_fed)
    assert result.output == "DCW World Championship awarded to Brother Bob after week 1\n"
    after = [("relampago", 0, None, "awarded", 1, "vacated", 1, 1), ("brother-bob", 1, None, "awarded", None, None, 0, 0)]
    assert lineage(fedtool, demo_fed, "world") == after
    with sqlite3.connect(demo_fed / "fed.db") as db:
        assert db.execute("SELECT title_id, action, wrestler_id, after_week, reason FROM title_rulings ORDER BY id").fetchall() == [
            ("world", "vacated", "relampago", 1, "Relámpago is injured"), ("world", "awarded", "brother-bob", 1, "won the battle royal")]
    # a rerun of week 1 replays its title match, then the rulings made after it
    assert fedtool("run", "1", "--rerun", "--fed", demo_fed).exit_code == 0
    assert lineage(fedtool, demo_fed, "world") == after
    # week 2's world title match leaves out the new champion: refused, nothing written
    result = fedtool("run", "2", "--fed", demo_fed)
    assert result.exit_code == 1
    assert ("strategies/week-02/card.yaml, line 15, field for_title, match m2: Brother Bob holds DCW World Championship and is not in this match; "
            "vacate the title first (fedtool title vacate world) [titles: a champion defends his own title]") in result.stderr
    assert fedtool("results", "2", "--fed", demo_fed).exit_code == 1
    assert not (demo_fed / "outbox/week-02/card.md").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["vacate", "heavyweight"], "DCW Heavyweight Championship is already vacant [fedtool title vacate]"),
        (["vacate", "belt"], "unknown title 'belt'; the fed's titles are world, heavyweight, hardcore, tag-team, tv [fedtool title]"),
        (["award", "world", "heavy-industry"], "Heavy Industry is a team; DCW World Championship is not a tag title (give it `teams: true`)"),
        (["award", "tag-team", "brother-bob"], "DCW Tag Team Championship is a tag title: Brother Bob is not a team sheet"),
        (["award", "heavyweight", "relampago"], "Relámpago is light-heavyweight (Weight 2); DCW Heavyweight Championship is for heavyweight (MatchMatch I.1)"),
        (["award", "tv", "brother-bob"], "Brother Bob is a matchmatch wrestler; DCW Television Championship is a facemat title"),
        (["award", "world", "relampago"], "Relámpago already holds DCW World Championship"),
        (["award", "world", "el-fantasma"], "unknown wrestler 'el-fantasma': there is no rosters/el-fantasma.yaml"),
    ],
)
def test_refused_rulings_say_why_and_record_nothing(demo_fed, fedtool, args, message):
    result = fedtool("title", *args, "--fed", demo_fed)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output
    with sqlite3.connect(demo_fed / "fed.db") as db:
        assert db.execute("SELECT COUNT(*) FROM title_rulings").fetchone() == (0,)


def test_weight_0_is_light_heavyweight(demo_fed, fedtool):
    replace_in(demo_fed / "rosters/friendly-sam.yaml", "  Technical: 5\n", "  Technical: 6\n")
    replace_in(demo_fed / "rosters/friendly-sam.yaml", "  Weight: 1\n", "  Weight: 0\n")
    result = fedtool("title", "award", "heavyweight", "friendly-sam", "--fed", demo_fed)
    assert "Friendly Sam is light-heavyweight (Weight 0); DCW Heavyweight Championship is for heavyweight" in result.stderr


def test_rerun_undoes_and_redecides_the_weeks_title_matches(demo_fed, fedtool):
    for week in ("1", "2"):
        assert fedtool("run", week, "--fed", demo_fed).exit_code == 0
    before = fedtool("titles", "--json", "--fed", demo_fed).output
    # Relámpago defends in week 1 (a DQ win) and in the week-2 triangle (a time-limit draw)
    assert lineage(fedtool, demo_fed, "world") == [("relampago", 0, None, "awarded", None, None, 2, 2)]
    assert fedtool("run", "2", "--rerun", "--fed", demo_fed).exit_code == 0
    assert fedtool("titles", "--json", "--fed", demo_fed).output == before  # same seeds, same lineage, nothing doubled
    # the fedhead takes the title off the triangle and reruns: its defence is gone
    replace_in(demo_fed / CARD_2, "sides: [skyline-sabrina, relampago, silent-crane]\n    for_title: world\n", "sides: [skyline-sabrina, relampago, silent-crane]\n")
    assert fedtool("run", "2", "--rerun", "--fed", demo_fed).exit_code == 0
    assert lineage(fedtool, demo_fed, "world") == [("relampago", 0, None, "awarded", None, None, 1, 2)]
    with sqlite3.connect(demo_fed / "fed.db") as db:
        assert db.execute("SELECT match_id, result FROM title_matches ORDER BY match_id").fetchall() == [
            ("week-01/m5", "defended"), ("week-02/m1", "won"), ("week-02/m3", "won"), ("week-02/m4", "defended")]


FOR_TITLE_LINE = "strategies/week-01/card.yaml, line 22, field for_title, match m5: "


@pytest.mark.parametrize(
    "title_id, message",
    [
        ("belt", "unknown title 'belt'; the fed's titles are world, heavyweight, hardcore, tag-team, tv [card file: for_title]"),
        ("tv", "DCW Television Championship is a facemat title; this is a matchmatch match [card file: for_title]"),
        ("heavyweight", "Relámpago is light-heavyweight (Weight 2); DCW Heavyweight Championship is for heavyweight (MatchMatch I.1) [card file: for_title]"),
        ("tag-team", "DCW Tag Team Championship is a tag title: Mad Dog Maddox is not a team sheet [card file: for_title]"),
    ],
)
def test_a_bad_title_on_the_card_is_refused_naming_file_and_line(demo_fed, fedtool, title_id, message):
    replace_in(demo_fed / CARD_1, "    for_title: world\n", f"    for_title: {title_id}\n")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert FOR_TITLE_LINE + message in result.stderr
    assert "Traceback" not in result.output
    assert not (demo_fed / "outbox/week-01").exists()


def test_a_bad_title_is_refused_when_the_week_opens(demo_fed, fedtool):
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "    for_title: heavyweight\n")
    before = (demo_fed / "strategies/week-01/opening.yaml").read_text()
    result = fedtool("open", "1", "--reroll", "--fed", demo_fed)
    assert result.exit_code == 1
    assert FOR_TITLE_LINE + "Relámpago is light-heavyweight (Weight 2)" in result.stderr
    assert (demo_fed / "strategies/week-01/opening.yaml").read_text() == before


def test_fedtool_read_judges_the_strategy_and_leaves_the_cards_title_to_the_run(demo_fed, fedtool):
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "    for_title: heavyweight\n")
    result = fedtool("read", demo_fed / "strategies/week-01/relampago.yaml", "--fed", demo_fed)
    assert result.exit_code == 0  # the strategy itself stands; the card's problem is the fedhead's
    assert "stands for match m5" in result.output


@pytest.mark.parametrize(
    "old, new, marker, message",
    [
        ("  - id: hardcore\n", "  - id: world\n", "  - id: world\n    name: DCW Hardcore",
         "field titles.2: title id 'world' is used twice [fed settings: titles]"),
        ("    changes_on: [pin, finisher]\n", "    changes_on: [pin, finisher]\n    division: heavyweight\n", "    division: heavyweight\n",
         "field titles.4.division: divisions are MatchMatch weight classes; DCW Television Championship is a facemat title"),
        ("    changes_on: [pin, finisher]\n", "    changes_on: [pinfall]\n", "    changes_on: [pinfall]",
         "field titles.4.changes_on: 'pinfall' is not a facemat finish (pin, finisher, countout, dq)"),
        ("first_holder: relampago", "first_holder: el-fantasma", "    first_holder: el-fantasma",
         "field titles.0.first_holder: unknown wrestler 'el-fantasma': there is no rosters/el-fantasma.yaml"),
        ("    division: heavyweight ", "    first_holder: relampago\n    division: heavyweight ", "    first_holder: relampago\n    division",
         "field titles.1.first_holder: Relámpago is light-heavyweight (Weight 2); DCW Heavyweight Championship is for heavyweight"),
        ("division: heavyweight ", "division: cruiserweight ", "    division: cruiserweight",
         "field titles.1.division: Input should be 'light-heavyweight', 'heavyweight' or 'superheavyweight'"),
        ("    teams: true ", "    belts: 2\n    teams: true ", "    belts: 2", "field titles.3.belts"),
        ("    ruleset: facemat\n", "    ruleset: chess\n", "    ruleset: chess", "field titles.4.ruleset: unknown ruleset 'chess'"),
    ],
)
def test_bad_title_settings_are_refused_naming_the_line(demo_fed, fedtool, old, new, marker, message):
    path = demo_fed / "rosters/fed.yaml"
    replace_in(path, old, new)
    text = path.read_text(encoding="utf-8")
    line = text[: text.index(marker)].count("\n") + 1
    result = fedtool("titles", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"rosters/fed.yaml, line {line}, {message}" in result.stderr
    assert "Traceback" not in result.output


def test_titles_of_a_fed_without_titles_or_weeks(demo_fed, fedtool):
    assert titles(Fed.load(demo_fed), open_league(demo_fed / "fed.db", create=False))[0]["reigns"] == [
        {"wrestler_id": "relampago", "name": "Relámpago", "won_week": 0, "won_match": None, "how": "awarded", "lost_week": None, "lost_how": None, "defences": 0, "weeks": 0}]
    path = demo_fed / "rosters/fed.yaml"
    path.write_text(path.read_text()[: path.read_text().index("\ntitles:\n")] + "\n")
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "")
    replace_in(demo_fed / CARD_2, "    for_title: world\n", "")
    result = fedtool("titles", "--fed", demo_fed)
    assert result.output == "the fed has no titles: define them under `titles:` in rosters/fed.yaml\n"
    assert not (demo_fed / "fed.db").exists()  # reading never leaves a database behind
