"""Face to the Mat's commentary as data (issue 16 item 1): the words around the cards (pins,
kickouts, finishers, eliminations, calls for help, the HOT BOX, quiet runs, after the bell,
title stakes) come from fedtool/rulesets/facemat/data/commentary.yaml, a fed may replace
them in templates/commentary/facemat.yaml, and telling never rolls the game's dice.

Every kind the narration tells is in the table (a kind not there is a KeyError, so playing
is the check) and every kind in the table is told by random matches, but for the few only
a hand-built match reaches (HAND_BUILT, each with the test that builds it)."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from fedtool.cli import cli
from fedtool.kernel import commentary
from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.facemat import engine
from fedtool.rulesets.facemat.terms import SKILLS
from golden import FIXED_EPOCH, GOLDEN, demo_copy
from test_story_truth import FTTM, random_fttm

# kinds no random match of the packaged data reaches, and the test that tells each
HAND_BUILT = {
    "footage": "test_facemat_prose.py::test_a_reel_without_mid_text_is_told_as_footage_from_before_the_bell (a fed's reel without mid_text)",
    "time_limit": "test_story_truth.py::test_a_face_to_the_mat_time_limit_draw_is_told (the FAC guard)",
    "quick_play_clock": "test_the_hand_built_kinds_are_told (50 Quick-Play rounds without a cut)",
    "follow_up_after": "test_the_hand_built_kinds_are_told (a fed's card whose text ends in a quotation)",
    "champion_clause": "test_the_hand_built_kinds_are_told (a fed's Title Holder text not opening with the champion)",
    "champion_after": "test_the_hand_built_kinds_are_told (a fed's Title Holder text ending in a quotation)",
    # told when a match is booked (`FaceToTheMat.book`), by a draw, by a HOT BOX nobody fills: test_facemat_words.py
    "billing": "the golden playthroughs' singles (FaceToTheMat.book)",
    "billing_tag": "the golden playthroughs' tag match (week 5 m1)",
    "billing_two_on_one": "test_facemat_words.py::test_the_packaged_words_are_the_writeups_words",
    "billing_many": "test_facemat_words.py::test_the_packaged_words_are_the_writeups_words",
    "headline_draw": "test_story_truth.py::test_a_face_to_the_mat_time_limit_draw_is_told (the FAC guard)",
    "hotbox_everyone": "test_facemat_words.py::test_the_packaged_words_are_the_writeups_words",
    "hotbox_nobody": "test_facemat_words.py::test_the_packaged_words_are_the_writeups_words",
    # the card's league changes (`changes.tell_change`), told after the match, not by describe
    **{f"change_{kind}": "test_card_show.py::test_face_to_the_mat_changes_in_plain_words; test_review27.py (every change kind)"
       for kind in ("grade_rises", "grade_falls", "grade_stays", "grade_then_rises", "grade_then_falls", "grade_then_stays", "why_upset_win",
                    "why_upset_loss", "why_storyline", "why_interview", "why_grudge_won", "why_grudge_lost", "grudge_rises", "grudge_falls",
                    "turns", "ally", "challenge", "leaves_town", "title_shot")},
    # joiners: read as words (`facemat._word`), never chosen
    "join_sides": "test_review27.py::test_a_feds_commentary_file_changes_the_facemat_joiners_and_league_change_words",
    "join_partners": "test_review27.py::test_a_feds_commentary_file_changes_the_facemat_joiners_and_league_change_words",
}
MOVES = (("MEAN", "a running knee"), ("SMART", "a crucifix roll-up"), ("QUICK", "a springboard dropkick"), ("STRONG", "a bear hug"))


def _told_kinds(monkeypatch) -> set[str]:
    told: set[str] = set()
    say = commentary.Teller.say

    def recording(self, kind, facts=None, **values):
        told.add(kind)
        return say(self, kind, facts, **values)

    monkeypatch.setattr(commentary.Teller, "say", recording)
    return told


def _dressed(booking, rng: random.Random):
    """A random booking with what the players and the league add: signature moves and promos,
    a champion, a title on the line, interview segments, HOT BOX places nobody fills, a
    grudge match's type chosen by the card."""
    setup = booking.setup
    moves = tuple((skill, f"a {skill.lower()} special") for skill in rng.sample(SKILLS, rng.randint(0, len(SKILLS))))
    plans = tuple(replace(p, signature_moves=moves, promo=rng.choice(("", "I am the best."))) for p in setup.plans)
    champions = {setup.wrestlers[0].id: ("DCW Heavyweight Championship",)} if rng.random() < 0.5 else {}
    booking.setup = replace(setup, plans=plans, champions=champions)
    n = len(setup.wrestlers)
    booking.extra["hotbox_ids"] = {"allies": [rng.choice((None, "al")) for _ in range(n)], "foes": [rng.choice((None, "fo")) for _ in range(n)],
                                   "grudge": ["g1", "g2"]}
    booking.extra["interviews"] = rng.random() < 0.3
    if booking.extra["match_type"] == "grudge" and rng.random() < 0.5:
        booking.extra["stipulation"] = "cage grudge"
    if rng.random() < 0.3:
        booking.match = SimpleNamespace(for_title="DCW Heavyweight Championship")
    return booking


def test_every_kind_told_is_in_the_table_and_every_table_kind_is_told(monkeypatch):
    told = _told_kinds(monkeypatch)
    rng = random.Random(1616)
    for k in range(400):
        booking = _dressed(random_fttm(rng, k), rng)
        result = FTTM.resolve(booking, SeededDice(rng.getrandbits(63)))
        FTTM.describe(booking, result)  # a kind not in the table is a KeyError here
    kinds = set(engine.packaged().phrases)
    assert told <= kinds
    assert kinds - told == set(HAND_BUILT), "a kind neither told by random matches nor listed in HAND_BUILT"


def test_the_hand_built_kinds_are_told(monkeypatch):
    """The kinds only a fed's own data (or a long Quick-Play) reaches, each told once."""
    told = _told_kinds(monkeypatch)
    quoted = {"id": "q", "type": "MEAN", "points": 3, "square": False, "control": False, "text": '{performer} yells "Never!"'}
    crowd = {"id": "t", "type": "TITLE_HOLDER", "points": 1, "square": False, "control": False, "text": "The crowd rises for {performer}."}
    quote = {**crowd, "id": "u", "text": 'The crowd chants "Champ!"'}
    a, b = (engine.Wrestler(wid, wid.title(), "B", 0, "face", {"MEAN": "star"}, "the Drop", (11, 33), {}) for wid in ("a", "b"))
    for deck in ([quoted], [crowd], [quote]):
        monkeypatch.setattr(engine, "FAC_GUARD", 1)
        tables = {**engine.data(), "facs": deck}
        setup = engine.Setup("m", (a, b), {"allies": ["Al", "Bo"], "foes": ["Fi", "Gu"], "grudge": []}, plans=(engine.Plan(signature_moves=MOVES[:1]), engine.Plan()),
                             tables=tables, champions={"a": ("Belt",)})
        [line.text for line in engine.resolve(setup, SeededDice(7)).lines]
    royale = engine.Setup("r", tuple(replace(a, id=f"w{k}", name=f"W{k}", skills={}) for k in range(4)), {"allies": [], "foes": [], "grudge": []},
                          tables={**engine.data(), "facs": [{"id": "x", "type": "MEAN", "points": 1, "square": False, "control": False, "text": "x"}]})
    from fedtool.rulesets.facemat import royale as royales

    monkeypatch.setattr(engine, "FAC_GUARD", 3)
    [line.text for line in royales.battle_royale(royale, "quick_play", SeededDice(3), 8).lines]
    assert {"follow_up_after", "champion_clause", "champion_after", "quick_play_clock"} <= told


def test_a_describe_told_twice_is_the_same_words_and_rolls_no_dice():
    """A fresh teller per describe: the same match described twice reads the same; describing
    rolls nothing (the dice log is what the match rolled)."""
    rng = random.Random(7)
    for k in range(40):
        booking = _dressed(random_fttm(rng, k), rng)
        dice = SeededDice(rng.getrandbits(63))
        result = FTTM.resolve(booking, dice)
        log = list(result.log)
        assert FTTM.describe(booking, result) == FTTM.describe(booking, result)
        assert result.log == log and dice.take_log() == []


# ---------------------------------------------------------------- a fed's own file, end to end

def _run(fed: Path, week: int):
    return CliRunner(env={"SOURCE_DATE_EPOCH": FIXED_EPOCH}).invoke(cli, ["run", str(week), "--fed", str(fed)])


@pytest.fixture(scope="module")
def before_week_three(tmp_path_factory) -> Path:
    """The demo fed with weeks 1 and 2 run (week 3's m3 is Face to the Mat)."""
    fed = demo_copy(tmp_path_factory.mktemp("fttm") / "fed")
    for week in (1, 2):
        assert _run(fed, week).exit_code == 0
    return fed


def _copy(fed: Path, target: Path) -> Path:
    return Path(shutil.copytree(fed, target))


OWN = ("kickout:\n"
       "  replace:\n"
       "    - \"{defender} WILL NOT STAY DOWN under {attacker} ({rolls}).\"\n"
       "moved:\n"
       "  replace:\n"
       "    - \"{name} to {space}.\"\n"
       "unused:\n"
       "  - text: \"FAC {fac}: {label} goes begging.\"\n"
       "    when: {chart: normal}\n")


def test_a_feds_own_commentary_changes_the_writeup_and_not_the_dice(before_week_three, tmp_path):
    """templates/commentary/facemat.yaml replaces the kickout and the move lines: week 3's Face
    to the Mat writeup (m3) tells them in the fed's words; the week's dice log is the golden's,
    byte for byte."""
    fed = _copy(before_week_three, tmp_path / "fed")
    own = fed / "templates" / "commentary"
    own.mkdir(parents=True, exist_ok=True)
    (own / "facemat.yaml").write_text(OWN, encoding="utf-8")
    assert _run(fed, 3).exit_code == 0
    week, golden = fed / "outbox" / "week-03", GOLDEN / "demo-week-03"
    md = (week / "m3.md").read_text(encoding="utf-8")
    assert "The Warden WILL NOT STAY DOWN under Vince Valor (53, 46, 11)." in md
    assert "The Warden to 3. `[0-3]`" in md and "moves to space" not in md and "kicks out" not in md
    assert "WILL NOT STAY DOWN" in (week / "m3.html").read_text(encoding="utf-8")
    assert "WILL NOT STAY DOWN" not in (golden / "m3.md").read_text(encoding="utf-8")
    assert (week / "dice.txt").read_bytes() == (golden / "dice.txt").read_bytes()


@pytest.mark.parametrize("text, line, words", [
    ('kickout:\n  - "fine {defender}"\nkickouts: ["{attacker} typo"]\n', 3, "no kind 'kickouts'"),
    ('pinfall:\n  - "ok"\n  - "{attacker.__class__} covers"\n', 3, "not a plain field name"),
])
def test_a_bad_feds_commentary_refuses_the_week_with_file_and_line(before_week_three, tmp_path, text, line, words):
    fed = _copy(before_week_three, tmp_path / "fed")
    own = fed / "templates" / "commentary"
    own.mkdir(parents=True, exist_ok=True)
    (own / "facemat.yaml").write_text(text, encoding="utf-8")
    result = _run(fed, 3)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"templates/commentary/facemat.yaml, line {line}:" in result.output and words in result.output
    assert not (fed / "outbox" / "week-03").exists() or not (fed / "outbox" / "week-03" / "m3.md").exists()


def test_the_same_week_run_twice_gives_byte_identical_writeups(before_week_three, tmp_path):
    first, second = _copy(before_week_three, tmp_path / "one"), _copy(before_week_three, tmp_path / "two")
    for fed in (first, second):
        assert _run(fed, 3).exit_code == 0
    for name in ("m3.md", "m3.html"):
        one = (first / "outbox" / "week-03" / name).read_bytes()
        assert one == (second / "outbox" / "week-03" / name).read_bytes()
        assert one == (GOLDEN / "demo-week-03" / name).read_bytes()


def test_the_docs_example_of_a_feds_file_is_read(tmp_path):
    """docs/commentary.md's templates/commentary/facemat.yaml is a file the table accepts, and
    its phrases are told."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "commentary.md").read_text(encoding="utf-8")
    example = doc.split("A checked example, `templates/commentary/facemat.yaml`:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    own = tmp_path / "facemat.yaml"
    own.write_text(example, encoding="utf-8")
    table = commentary.load_commentary(engine.COMMENTARY, "packaged", own, "templates/commentary/facemat.yaml")
    assert table.teller("k").say("kickout", defender="B", attacker="A", rolls="11") == "B WILL NOT STAY DOWN under A (11)."
    assert len(table.phrases["pinfall"]) == len(engine.packaged().phrases["pinfall"]) + 1


def test_a_title_match_tells_its_stakes_first_and_only_then():
    """A card's `for_title:` puts a title on the line: the writeup tells it before anything
    else (the table's `title_stakes`), and a match without one never does."""
    rng = random.Random(3)
    booking = random_fttm(rng, 0)
    while booking.extra["match_type"] != "normal":
        booking = random_fttm(rng, 0)
    result = FTTM.resolve(booking, SeededDice(5))
    stakes = {p.text.split("{")[0] for p in engine.packaged().phrases["title_stakes"]}
    plain = FTTM.describe(booking, result)["lines"]
    booking.match = SimpleNamespace(for_title="DCW Heavyweight Championship")
    titled = FTTM.describe(booking, result)["lines"]
    assert [ln["kind"] for ln in titled[1:]] == [ln["kind"] for ln in plain]  # the same story, the stakes told first
    assert any(titled[0]["text"].startswith(s) for s in stakes) and titled[0]["kind"] == "storyline"
    assert not any(ln["text"].startswith(s) for ln in plain for s in stakes)
