"""Mad Match in a fed: a week's card with `ruleset: madmatch`, the league's standings (games
won, points), the results JSON against its schema, `fedtool read`, odds, and bad input (a
card with one side or five, a strategy naming an unknown card or target, a fed's deck file):
a clear message with the file, the line and the rule, and nothing written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from conftest import snapshot

ROOT = Path(__file__).resolve().parent.parent
CARD = """title: "Week 6: Monsters"
week: 6
matches:
  - id: m1
    ruleset: madmatch
    title: Mad Match
    sides: [zelda-voss, zeke-rennick, zora-stroud]
    strategies: {zelda-voss: zelda-voss.yaml, zeke-rennick: zeke-rennick.yaml, zora-stroud: zora-m1.yaml}
  - id: m2
    ruleset: madmatch
    variation: classic
    format: target
    target: 12
    sides: [zelda-voss, zora-stroud]
    strategies: {zelda-voss: zelda-classic.yaml, zora-stroud: zora-m2.yaml}
"""


@pytest.fixture
def week_six(demo_fed):
    folder = demo_fed / "strategies/week-06"
    folder.mkdir()
    (folder / "card.yaml").write_text(CARD)
    for name in ("zelda-voss.yaml", "zeke-rennick.yaml"):
        shutil.copy(ROOT / "strategies/example-madmatch" / name, folder / name)
    return demo_fed


def test_a_week_of_mad_match_is_run_and_kept_in_the_league(week_six, fedtool):
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code == 0, result.output
    assert "Mad Match: " in result.output and "Matching game: " in result.output
    html = (week_six / "outbox/week-06/m1.html").read_text()
    assert 'class="madmatch-board"' in html and "Who is Player One?" in html and "scored as" in html
    results = json.loads(fedtool("results", "6", "--json", "--fed", week_six).output)
    schema = json.loads((ROOT / "docs/results.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(results)
    m1 = results[0]
    assert m1["ruleset"] == "madmatch" and m1["match_type"] == "mad_match" and m1["details"]["format"] == "best_of_three"
    points = m1["details"]["points"]
    assert points == {side: sum(g["scores"][side] for g in m1["details"]["games"]) for side in points}
    winner = m1["winner"]
    assert m1["details"]["games_won"][winner] == 2 and m1["outcomes"][winner] == "win"
    standings = json.loads(fedtool("standings", "--json", "--fed", week_six).output)
    rows = {row["wrestler_id"]: row for table in standings if table["ruleset"] == "madmatch" for row in table["rows"]}
    text = fedtool("standings", "--fed", week_six).output
    assert "Mad Match" in text and "games" in text and "points" in text
    zelda = rows["zelda-voss"]  # both matches: the game's points and the classic game's pairs
    assert zelda["match_points"] == points["zelda-voss"] + results[1]["details"]["points"]["zelda-voss"]
    assert zelda["games_won"] == m1["details"]["games_won"]["zelda-voss"] + results[1]["details"]["games_won"]["zelda-voss"]
    assert (zelda["wins"], zelda["losses"]) == ([m["outcomes"]["zelda-voss"] for m in results].count("win"), [m["outcomes"]["zelda-voss"] for m in results].count("loss"))


@pytest.mark.parametrize("sides, message", [
    ("[zelda-voss]", "strategies/week-06/card.yaml, line 4, match m1: a Mad Match game has 2, 3 or 4 players, not 1 (one player: variation: solitaire)"),
    ("[zelda-voss, zeke-rennick, zora-stroud, igor, knutberger]", "strategies/week-06/card.yaml, line 4, match m1: a Mad Match game has 2, 3 or 4 players, not 5 [Mad Match: 2 to 4 players]"),
])
def test_a_card_with_one_side_or_five_is_refused(sides, message, week_six, fedtool):
    for who in ("igor", "knutberger"):
        (week_six / f"rosters/{who}.yaml").write_text(f"name: {who.title()}\nruleset: madmatch\nowner: {{name: {who}, email: {who}@players.example}}\n")
    card = week_six / "strategies/week-06/card.yaml"
    names = sides.strip("[]").split(", ")
    files = ", ".join(f"{who}: {who}-m1.yaml" for who in names if who in ("zelda-voss", "zora-stroud"))
    card.write_text(CARD.replace("    sides: [zelda-voss, zeke-rennick, zora-stroud]\n    strategies: {zelda-voss: zelda-voss.yaml, zeke-rennick: zeke-rennick.yaml, zora-stroud: zora-m1.yaml}\n",
                                 f"    sides: {sides}\n    strategies: {{{files}}}\n", 1).replace("sides: [zelda-voss, zora-stroud]", "sides: [zelda-voss, zora-stroud]"))
    if "zora-stroud" not in names:
        card.write_text(card.read_text().replace("sides: [zelda-voss, zora-stroud]\n    strategies: {zelda-voss: zelda-classic.yaml, zora-stroud: zora-m2.yaml}",
                                                 "sides: [zelda-voss, zeke-rennick]\n    strategies: {zelda-voss: zelda-classic.yaml, zeke-rennick: zeke-m2.yaml}"))
    before = snapshot(week_six)
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert message in result.stderr, result.stderr
    assert snapshot(week_six) == before


@pytest.mark.parametrize("text, pieces", [
    ("actions:\n  death_ray: {when: always}\n", ["strategies/week-06/zelda-voss.yaml, line 2, field actions.death_ray: unknown Action card 'death_ray'"]),
    ("actions:\n  kidnap: {target: the_referee}\n", ["line 2, field actions.kidnap.target", "'the_referee'"]),
    ("actions:\n  cold_snap: {when: always}\n", ["line 2", "Cold Snap is a Freeze card"]),
    ("spares: sometimes\n", ["line 1, field spares: 'sometimes' is not one of always, when_better or never"]),
    ("memory: 20\n", ["line 1, field memory: unknown field 'memory'"]),
])
def test_a_bad_strategy_is_refused_with_its_line(text, pieces, week_six, fedtool):
    (week_six / "strategies/week-06/zelda-voss.yaml").write_text(text)
    before = snapshot(week_six)
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code == 1 and "Traceback" not in result.output
    for piece in pieces:
        assert piece in result.stderr, result.stderr
    assert "[Mad Match strategy" in result.stderr
    assert snapshot(week_six) == before


def test_a_feds_deck_file_is_checked_before_anything_is_written(week_six, fedtool):
    deck = (ROOT / "fedtool/rulesets/madmatch/data/deck.yaml").read_text().replace("icon: bolt,  strike: 9", "icon: moon,  strike: 9")
    (week_six / "rosters/monsters.yaml").write_text(deck)
    settings = week_six / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("rulesets:\n", "rulesets:\n  madmatch:\n    deck: monsters.yaml\n", 1))
    before = snapshot(week_six)
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code == 1
    assert "rosters/monsters.yaml, line 24: unknown icon 'moon': the icons are sun, bolt and water [Mad Match deck" in result.stderr, result.stderr
    assert snapshot(week_six) == before


def test_read_shows_how_a_strategy_reads(week_six, fedtool):
    result = fedtool("read", week_six / "strategies/week-06/zeke-rennick.yaml", "--fed", week_six)
    assert result.exit_code == 0, result.output
    assert "  line   7: Monster Mash (destroy one card): used as soon as it gains anything, on a strike (all three in one turn)" in result.output
    assert result.output.rstrip().endswith("stands for match m1: zelda-voss vs. zeke-rennick vs. zora-stroud")


def test_odds_name_every_side_of_a_three_player_game(week_six, fedtool):
    """The odds of a match of three sides: each side's wins, then draws (a defect: the third
    side's wins were counted as draws, as the odds knew only two sides)."""
    result = fedtool("odds", "--match", "6/m1", "-n", "200", "--seed", "1", "--json", "--fed", week_six)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    labels = [o["result"] for o in report["outcomes"]]
    assert labels == ["Professor Zelda Voss wins", "Doc Zeke Rennick wins", "Zora Stroud wins", "draw"]
    assert sum(o["count"] for o in report["outcomes"]) == 200
    finishes = {f["result"]: f["count"] for f in report["finishes"]}
    assert report["outcomes"][2]["count"] == finishes.get("Zora Stroud by best of three", 0)


def test_a_solitaire_round_of_one_and_of_three(week_six, fedtool):
    """A one-sided card is a solitaire round (docs/rulings/mad-match-solitaire.md S1, S8): one
    deal for all, rolled from the match's seed."""
    card = week_six / "strategies/week-06/card.yaml"
    card.write_text(CARD + """  - id: s1
    ruleset: madmatch
    variation: solitaire
    sides: [zeke-rennick]
    strategies: {zeke-rennick: zeke-s1.yaml}
  - id: s2
    ruleset: madmatch
    variation: solitaire
    sides: [zelda-voss, zeke-rennick, zora-stroud]
    strategies: {zelda-voss: zelda-s2.yaml, zeke-rennick: zeke-s2.yaml, zora-stroud: zora-s2.yaml}
""")
    (week_six / "strategies/week-06/zelda-s2.yaml").write_text("solitaire: {keep_free: 2}\n")
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code == 0, result.output
    results = {m["id"]: m for m in json.loads(fedtool("results", "6", "--json", "--fed", week_six).output)}
    schema = json.loads((ROOT / "docs/results.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(list(results.values()))
    s1, s2 = results["s1"], results["s2"]
    assert s1["match_type"] == "solitaire" and s1["rating"] is None
    assert s1["outcomes"]["zeke-rennick"] == ("win" if s1["details"]["triplets"]["zeke-rennick"] == 15 else "loss")
    triplets = s2["details"]["triplets"]
    top = max(triplets.values())
    assert all(s2["outcomes"][who] == ("loss" if t < top else "win" if list(triplets.values()).count(top) == 1 else "draw") for who, t in triplets.items())
    text = (week_six / "outbox/week-06/s2.md").read_text()
    assert "The deal every player plays: left " in text and "completed triplets" in text


def test_a_match_of_another_ruleset_still_needs_two_sides(demo_fed, fedtool):
    """The card takes one side now (a solitaire round); every other ruleset refuses it with the line."""
    card = demo_fed / "strategies/week-01/card.yaml"
    text = card.read_text()
    import re
    first = re.search(r"sides: \[([a-z-]+), ([a-z-]+)\]", text)
    card.write_text(text.replace(first.group(0), f"sides: [{first.group(1)}]", 1))
    before = snapshot(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "has at least 2 sides, not 1 [card file]" in result.stderr, result.stderr
    assert snapshot(demo_fed) == before


def _week_six_outbox(fed: Path, fedtool) -> dict[str, str]:
    result = fedtool("run", "6", "--fed", fed)
    assert result.exit_code == 0, result.output
    out = fed / "outbox" / "week-06"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out.iterdir()) if p.is_file()}


def test_a_feds_own_commentary_changes_the_writeup_and_not_the_dice(week_six, fedtool, tmp_path):
    """templates/commentary/madmatch.yaml (docs/commentary.md) replaces the pair's phrases and
    adds one to the match's end: the week's writeups, Markdown and HTML, tell the game in the
    fed's words; the dice log is the same byte for byte (commentary rolls no dice)."""
    plain = shutil.copytree(week_six, tmp_path / "plain")
    before = _week_six_outbox(plain, fedtool)
    own = week_six / "templates" / "commentary" / "madmatch.yaml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('pair:\n  replace:\n    - "MONSTERS CAUGHT: {name} bags two {monsters} for {points}!"\n'
                   'match_won:\n  replace:\n    - "The convention hall goes wild for {winner} ({how})."\n', encoding="utf-8")
    after = _week_six_outbox(week_six, fedtool)
    for name in ("m1.md", "m1.html", "m2.md", "m2.html"):
        assert "MONSTERS CAUGHT: " in after[name] and "MONSTERS CAUGHT" not in before[name]
        assert "The convention hall goes wild for " in after[name]
    assert "bags two " in after["m2.md"] and "for 1!" in after["m2.md"]  # the classic game: a pair is one point
    assert after["dice.txt"] == before["dice.txt"]


def test_a_feds_commentary_with_an_unknown_kind_is_refused_with_file_and_line(week_six, fedtool):
    own = week_six / "templates" / "commentary" / "madmatch.yaml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('pair:\n  - "fine, {name}"\nsteals: ["{name} typo"]\n', encoding="utf-8")
    result = fedtool("run", "6", "--fed", week_six)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "templates/commentary/madmatch.yaml, line 3: no kind 'steals'" in result.output
    assert not (week_six / "outbox" / "week-06").exists()
