"""Mat Clash writeups told as bouts (issue 16, items 1 and 2): the phrase table
(fedtool/rulesets/matclash/data/commentary.yaml) and a fed's own templates/commentary/matclash.yaml
over it, end to end through `fedtool run`; the same week told the same way twice; the players'
plan lines quoted where they chose the card (and escaped like any player text); the kinds the
random matches of tests/test_story_truth.py never reach, told on hand-built scraps.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_matclash_cards import Script, scrap_of

from fedtool.cli import cli
from fedtool.rulesets.base import Booking
from fedtool.rulesets.matclash import MatClash, Played, engine
from fedtool.rulesets.matclash.engine import BOTTOM, TOP

from golden import FIXED_EPOCH, GOLDEN, demo_copy

MC = MatClash()
WRITEUPS = ("m1.md", "m1.html", "m2.md", "m2.html")


def run_weeks(fed: Path, last: int = 3) -> None:
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": FIXED_EPOCH})
    for week in range(1, last + 1):
        result = runner.invoke(cli, ["run", str(week), "--fed", str(fed)])
        assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def week_three(tmp_path_factory) -> Path:
    """The demo fed (a copy) run to week 3, Mat Clash's week: m1 a Quick Scrap, m2 a Dual Match."""
    fed = demo_copy(tmp_path_factory.mktemp("plain") / "fed")
    run_weeks(fed)
    return fed / "outbox" / "week-03"


def story(md: str) -> str:
    """The writeup above its details blocks (the card-by-card log and the dice log)."""
    return md.split("<details>", 1)[0]


def test_the_same_week_is_told_the_same_way_twice(week_three, tmp_path):
    """Phrases are chosen by the match's key, never by dice or the clock: a second fed run from
    the same files writes byte-identical writeups, and its dice log is the golden one."""
    again = demo_copy(tmp_path / "fed")
    run_weeks(again)
    for name in WRITEUPS:
        assert (again / "outbox/week-03" / name).read_bytes() == (week_three / name).read_bytes(), name
    assert (week_three / "dice.txt").read_bytes() == (GOLDEN / "demo-week-03" / "dice.txt").read_bytes()


def test_a_bout_reads_as_a_bout_with_the_exact_log_kept(week_three):
    """The story tells moves and the score as it changes, not the card log ("plays Momentum +0:
    Momentum: another turn"); the exact log stays in a details block, the dice log after it."""
    md = (week_three / "m1.md").read_text(encoding="utf-8")
    told = story(md)
    assert "plays " not in told and "Transition 1" not in told
    assert "a blast double-leg" in told  # Tommy Reyes's own move for the Takedown (his sheet's `moves:`)
    assert re.search(r"\b11-3\b", told)  # the score as told reaches the recorded one
    assert "**Tommy \"The Tumbler\" Reyes wins by major decision, 11-3.**" in md
    details = md.split("<details><summary>Card by card", 1)[1]
    assert "*Transition 1* (both neutral; Reyes 0, Halvorsen 0)." in details
    assert details.index("</details>") < details.index("<details><summary>Dice log")


def test_a_plan_line_is_quoted_where_it_chose_the_card(week_three):
    """Ada Okafor's plan line "on top, prefer spladle, near_fall" chose the Spladle that pinned
    Wes Kimura in scrap 1: the story quotes it right after that fall, once in the match."""
    md = (week_three / "m2.md").read_text(encoding="utf-8")
    scrap_one = story(md).split("### Scrap 2", 1)[0]
    quote = "\u201con top, prefer spladle, near_fall\u201d"
    assert quote in scrap_one
    fall = scrap_one[: scrap_one.index(quote)].rsplit("\n\n", 1)[1]
    assert "Spladle" in fall and "fall" in fall
    assert story(md).count(quote) == 1
    page = (week_three / "m2.html").read_text(encoding="utf-8")
    assert "\u201con top, prefer spladle, near_fall\u201d" in page


def test_a_feds_own_phrases_change_the_writeup_and_not_the_dice(week_three, tmp_path):
    """templates/commentary/matclash.yaml replaces the Takedown's phrases and adds a score phrase:
    the week's writeups use them; its dice log is the same byte for byte."""
    fed = demo_copy(tmp_path / "fed")
    own = fed / "templates" / "commentary"
    own.mkdir(parents=True, exist_ok=True)
    (own / "matclash.yaml").write_text(
        "takedown:\n"
        "  replace:\n"
        "    - \"{attacker} PLANTS {defender} ON THE MAT, +3.\"\n"
        "tied:\n"
        "  replace:\n"
        "    - \"DEADLOCK AT {points}.\"\n", encoding="utf-8")
    run_weeks(fed)
    ours = fed / "outbox" / "week-03"
    m1 = story((ours / "m1.md").read_text(encoding="utf-8"))
    assert "Reyes PLANTS Halvorsen ON THE MAT, +3." in m1
    assert "PLANTS" not in story((week_three / "m1.md").read_text(encoding="utf-8"))
    assert "DEADLOCK AT 3." in story((ours / "m2.md").read_text(encoding="utf-8"))
    assert (ours / "dice.txt").read_bytes() == (week_three / "dice.txt").read_bytes()


def test_a_feds_phrase_file_with_a_typo_is_refused_with_its_line(tmp_path):
    """A kind the table does not have is refused when the week is booked, naming the file, the
    line and the kinds there are (fedtool.kernel.commentary), never a traceback mid-run."""
    fed = demo_copy(tmp_path / "fed")
    run_weeks(fed, 2)
    own = fed / "templates" / "commentary"
    own.mkdir(parents=True, exist_ok=True)
    (own / "matclash.yaml").write_text("# ours\ntakedwon:\n  - \"{attacker} shoots.\"\n", encoding="utf-8")
    result = CliRunner(env={"SOURCE_DATE_EPOCH": FIXED_EPOCH}).invoke(cli, ["run", "3", "--fed", str(fed)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "templates/commentary/matclash.yaml, line " in result.output and "no kind 'takedwon'" in result.output


def test_moves_are_escaped_in_the_story(tmp_path):
    """A move name is player text: Markdown escapes it and HTML autoescapes it."""
    fed = demo_copy(tmp_path / "fed")
    sheet = fed / "rosters" / "tommy-reyes.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("takedown: a blast double-leg", "takedown: \"<b>a *blast*</b>\""), encoding="utf-8")
    run_weeks(fed)
    md = story((fed / "outbox/week-03/m1.md").read_text(encoding="utf-8"))
    page = (fed / "outbox/week-03/m1.html").read_text(encoding="utf-8")
    assert "*blast*" not in md and "\\*blast\\*" in md
    assert "<b>a" not in page and html.escape("<b>a *blast*</b>", quote=False) in page


# ---------------------------------------------------------------- kinds only hand-built scraps reach


def told(result: engine.ScrapResult, key: str = "hand") -> dict:
    booking = Booking(None, {"names": ["Red", "Blue"], "moves": [{}, {}]}, [])
    booking.commentary, booking.story_key = MC.commentary(), key
    return MC.describe(booking, Played("quick_scrap", [result], result.winner, result.method, None, False, []))["scraps"][0]


def test_a_spladle_answered_by_beastin_is_told_as_no_fall():
    """Spladle +4: "SPLADLE automatically awards a +4 Near-Fall. Your opponent must play a Beastin'
    (Wild) card to avoid being pinned." Red on top with the back exposed by Momentum plays it,
    Blue answers with Beastin': 4-0 and no fall, and the story says so with the score."""
    red, blue = Script(plays=["spladle"]), Script(answers=[("beastin", "beastin")])
    scrap = scrap_of([["spladle"], ["beastin"]], positions=(TOP, BOTTOM), turn=2, scripts=(red, blue))
    scrap.exposed[0] = "momentum"
    scrap.take_turn(0)
    assert (scrap.score(0), scrap.score(1)) == (4, 0) and scrap.fall is None
    result = engine.ScrapResult(0, "decision", "score", (4, 0), 3, 1, 0, scrap.events)
    beats = told(result)["beats"]
    assert [b["kind"] for b in beats][-1:] == ["spladle_saved"] and "fall" not in [b["kind"] for b in beats]
    assert "Red" in beats[-1]["text"] and "Blue" in beats[-1]["text"] and "4-0" in beats[-1]["text"]


def test_overtime_with_the_deck_out_is_told():
    """Overtime (Quick Scrap): cards are drawn "from the remaining deck"; with none left the engine
    gives the scrap to the 10th-card winner (docs/rulings/mat-clash.md): the story says the deck
    ran out and who takes it, and the result line says overtime."""
    scrap = scrap_of([[], []], turn=4)
    scrap.deck = []
    result = engine._overtime(scrap, 1, (0, 0))
    assert (result.winner, result.finish) == (1, "overtime")
    d = told(result)
    assert any("deck runs out" in line and "Blue" in line for line in d["ending"])
    assert d["result"] == "Blue wins by decision in overtime, 0-0"


def test_describing_consumes_no_dice():
    """The plan lines are found by replaying the match on a copy of its logged rolls: describing
    leaves the result's log as it was and tells the same story twice."""
    from fedtool.kernel.dice import SeededDice
    from fedtool.rulesets.matclash.cards import build_deck
    from fedtool.rulesets.matclash.policy import read_policy

    plan = read_policy({"plan": ["in neutral, prefer takedown", "when leading by 3 or more, prefer stalling"]}, "s.yaml")
    setup = {"format": "quick_scrap", "names": ["Red Rourke", "Blue Bellamy"], "ids": ["r", "b"], "policies": [plan, plan],
             "deck": build_deck(()), "moves": [{}, {}], "rules": engine.Rules()}
    booking = Booking(None, setup, [])
    booking.commentary, booking.story_key = MC.commentary(), "week-09 m1"
    dice = SeededDice(99)
    played = MC.resolve(booking, dice)
    log = list(played.log)
    first = MC.describe(booking, played)
    assert played.log == log and dice.take_log() == []
    assert MC.describe(booking, played) == first
    quotes = [b["text"] for s in first["scraps"] for b in s["beats"] if "\u201c" in b["text"]]
    assert quotes and all("\u201cin neutral, prefer takedown\u201d" in q or "\u201cwhen leading by 3 or more, prefer stalling\u201d" in q for q in quotes)



def test_the_documented_phrase_file_reads(tmp_path):
    """docs/mat-clash-strategy.md's example of templates/commentary/matclash.yaml is a file the
    checks accept, and its phrases are told."""
    docs = (Path(__file__).resolve().parent.parent / "docs/mat-clash-strategy.md").read_text(encoding="utf-8")
    example = docs.split("# templates/commentary/matclash.yaml\n", 1)[1].split("```", 1)[0]
    own = tmp_path / "matclash.yaml"
    own.write_text(example, encoding="utf-8")
    table = MC.commentary(own, "templates/commentary/matclash.yaml")
    assert [p.text for p in table.phrases["tied"]] == ["Deadlocked at {points}."]
    assert "{attacker} takes {defender} down like a sack of feed, +3." in [p.text for p in table.phrases["takedown"]]
