"""Face to the Mat data files: the shapes the engine will read, checked against the published
facts in ../shared/rules/README.md (track layout, FAC proportions, TV Move tables)."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import fedtool
from fedtool.kernel.yamlio import load_yaml

DATA = Path(fedtool.__file__).parent / "rulesets" / "facemat" / "data"

TOTALS = list(range(2, 13))
GRADES = ["AAA", "AA", "A", "B", "C", "D", "E", "F"]
SKILLS = {"MEAN", "FAVORITE", "AGILE", "CHEAT", "HELPED", "POWERFUL", "QUICK", "STRONG",
          "SMART", "HEAVY", "SPECIALTY", "OBJECT"}
# The README's published proportions, by type.
DECK_COUNTS = {
    "MEAN": 9, "TV_MOVE": 9, "FAVORITE": 9,
    "AGILE": 8, "CHEAT": 8, "GRUDGE": 8, "HELPED": 8,
    "POWERFUL": 7, "QUICK": 7, "STRONG": 7, "SMART": 7, "HEAVY": 7,
    "WILD_CARD": 6, "SPECIALTY": 5, "TRAILING": 5, "OBJECT": 4,
    "SIGNATURE": 2, "HIGHLIGHT_REEL": 2,
    "TITLE_HOLDER": 1, "REF_BUMP": 1, "TEST_OF_STRENGTH": 1,
}
RULE_TYPES = {"SIGNATURE", "TITLE_HOLDER", "REF_BUMP", "TEST_OF_STRENGTH"}
MATCH_WHO = {"favored", "underdog", "leader", "trailing", "heel", "face", "both"}
REEL_WHO = MATCH_WHO | {"winner", "loser"}
EFFECT_KEYS = {"move", "score", "grudge", "tv", "hotbox", "object", "pin_attempt", "skip", "ally", "foe"}
FAC_PLACEHOLDERS = {"performer", "opponent"}
EVENT_PLACEHOLDERS = {"favored", "underdog", "heel", "face", "winner", "loser", "ally", "foe"}
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@cache
def load(name: str):
    return load_yaml(DATA / name)


def placeholders(text: str) -> set[str]:
    assert text.count("{") == text.count("}"), text
    return set(PLACEHOLDER.findall(text))


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def effect_of(effect, who_allowed: set[str]) -> tuple[str, dict]:
    """Check one EFFECT against the vocabulary; return its key and its fields."""
    if effect == "none":
        return "none", {}
    assert isinstance(effect, dict) and len(effect) == 1, effect
    (key, body), = effect.items()
    assert key in EFFECT_KEYS, key
    assert isinstance(body, dict), effect
    if key == "hotbox":
        assert set(body) == {"side", "of", "spaces"}, effect
        assert body["side"] in {"ally", "foe"}
        assert body["of"] in who_allowed and body["of"] != "both", effect
        assert is_int(body["spaces"]) and body["spaces"] > 0, effect
        return key, body
    fields = {"move": {"who", "spaces"}, "score": {"who", "points"}, "grudge": {"who", "change"},
              "tv": {"who", "change"}, "object": {"who"}, "pin_attempt": {"who"}, "skip": {"who"}, "ally": {"who"}, "foe": {"who"}}[key]
    assert set(body) == fields, effect
    assert body["who"] in who_allowed, effect
    if key == "move":
        assert is_int(body["spaces"]) and body["spaces"] != 0, effect
    if key == "score":
        assert body["points"] == "d6" or (is_int(body["points"]) and body["points"] > 0), effect
    if key in ("grudge", "tv"):
        assert is_int(body["change"]) and body["change"] != 0, effect
    return key, body


def check_events(events, who_allowed: set[str]) -> list[tuple[str, dict]]:
    """Every 2d6 total, non-empty text with allowed placeholders, an effect from the vocabulary."""
    assert isinstance(events, dict) and sorted(events) == TOTALS, sorted(events)
    found = []
    for total in TOTALS:
        event = events[total]
        assert isinstance(event, dict) and {"text", "effect"} <= set(event) <= {"text", "effect", "post_text", "mid_text"}, (total, event)
        text = event["text"]
        assert isinstance(text, str) and text.strip(), (total, event)
        names = placeholders(text)
        assert names <= EVENT_PLACEHOLDERS, (total, text)
        key, body = effect_of(event["effect"], who_allowed)
        for name in names & {"winner", "loser"}:
            assert "winner" in who_allowed, f"{{{name}}} outside a post-match reel: {text}"
        # {ally}/{foe} are the Hot Box ally/foe of the wrestler the effect names.
        if names & {"ally", "foe"}:
            assert key != "none" and body.get("of", body.get("who")) != "both", (total, text)
        if key == "hotbox":
            assert "{" + body["side"] + "}" in text, (total, text)
        found.append((key, body))
    return found


def all_texts() -> list[str]:
    texts = [card["text"] for card in load("facs.yaml")["cards"]]
    for chart in load("wild_cards.yaml").values():
        texts += [event["text"] for event in chart.values()]
    for reel in load("highlight_reels.yaml")["reels"].values():
        texts += [event["text"] for event in reel["events"].values()]
    return texts


def test_track_is_the_published_layout():
    track = load("track.yaml")
    assert set(track) == {"spaces", "pin_spaces", "finisher_space", "corner", "start"}
    spaces = track["spaces"]
    assert [s["space"] for s in spaces] == list(range(16))
    shapes = {s["space"]: s["shape"] for s in spaces}
    assert sorted(n for n, shape in shapes.items() if shape == "circle") == [0, 1, 2, 3, 4, 6, 8, 10]
    assert sorted(n for n, shape in shapes.items() if shape == "square") == [5, 7, 9, 11, 12, 13, 14]
    assert [n for n, shape in shapes.items() if shape == "none"] == [15]
    for space in spaces:
        assert set(space) == {"space", "shape", "label"}
        assert isinstance(space["label"], str) and space["label"].strip()
    assert track["pin_spaces"] == [12, 13, 14]
    assert track["finisher_space"] == 15
    assert track["corner"] == 9 and shapes[9] == "square"
    assert track["start"] == 0


def test_deck_has_the_published_count_of_each_type():
    cards = load("facs.yaml")["cards"]
    assert Counter(card["type"] for card in cards) == Counter(DECK_COUNTS)
    # The published per-type counts add to 121: "about 120".
    assert len(cards) == sum(DECK_COUNTS.values()) == 121
    ids = [card["id"] for card in cards]
    assert ids == [f"fac-{n:03d}" for n in range(1, len(cards) + 1)]


def test_about_a_quarter_of_the_deck_are_in_control_cards():
    cards = load("facs.yaml")["cards"]
    assert all(card["control"] in (True, False) for card in cards)
    assert 25 <= sum(card["control"] for card in cards) <= 35


def test_every_card_has_the_fields_and_points_its_type_calls_for():
    for card in load("facs.yaml")["cards"]:
        kind = card["type"]
        expected = {"id", "type", "points", "square", "control", "text"}
        expected |= {"grudge"} if kind == "GRUDGE" else set()
        expected |= {"rule"} if kind in RULE_TYPES else set()
        assert set(card) == expected, card
        assert card["square"] in (True, False), card
        if card["square"]:
            assert kind in SKILLS and card["points"] in (1, 2, 3), card
        if kind in SKILLS or kind == "TRAILING":
            assert card["points"] in (1, 2, 3, "d6"), card
        elif kind == "TV_MOVE":
            assert card["points"] == "tv", card
        elif kind == "GRUDGE":
            assert card["points"] == "none" and card["grudge"] in ("gold", "silver", "bronze"), card
        elif kind in ("WILD_CARD", "HIGHLIGHT_REEL"):
            assert card["points"] == "none", card
        else:
            assert card["points"] in (1, 2, 3, "d6", "none"), card
            assert isinstance(card["rule"], str) and card["rule"].strip(), card
        if kind == "TRAILING":
            assert not card["control"], card  # it scores for the trailing wrestler, never the one in control
        assert isinstance(card["text"], str) and card["text"].strip(), card
        assert placeholders(card["text"]) <= FAC_PLACEHOLDERS, card


def test_grudge_cards_cover_all_three_tiers():
    tiers = Counter(card["grudge"] for card in load("facs.yaml")["cards"] if card["type"] == "GRUDGE")
    assert set(tiers) == {"gold", "silver", "bronze"}


def test_tv_tables_are_the_published_ones():
    tv = load("tv_moves.yaml")
    assert set(tv) == {"tables", "default"}
    tables = tv["tables"]
    for table in tables.values():
        assert list(table) == GRADES
    assert [tables["standard"][g] for g in GRADES] == [5, 4, 3, 2, 1, 1, 0, 0]
    assert [tables["steep"][g] for g in GRADES] == [5, 4, 3, 2, 1, 0, 0, 0]
    assert [tables["flat"][g] for g in GRADES] == [4, 3, 2, 2, 0, 0, 0, 0]
    assert tv["default"] in tables


def test_wild_card_charts():
    charts = load("wild_cards.yaml")
    assert set(charts) == {"normal", "cage", "hardcore"}
    found = {name: check_events(chart, MATCH_WHO) for name, chart in charts.items()}
    # Cage: outside interference is weaker (rulebook 9.b).
    run_ins = {name: [b["spaces"] for k, b in events if k == "hotbox"] for name, events in found.items()}
    assert len(run_ins["cage"]) < len(run_ins["normal"])
    assert max(run_ins["cage"], default=0) < max(run_ins["normal"])
    assert all(spaces == 1 for spaces in run_ins["cage"])
    # Hardcore: weapons and extreme spots (9.f).
    assert sum(k == "object" for k, _ in found["hardcore"]) >= 2
    assert sum(k == "object" for k, _ in found["hardcore"]) > sum(k == "object" for k, _ in found["normal"])


def test_highlight_reels():
    data = load("highlight_reels.yaml")
    assert set(data) == {"reels", "pick"}
    reels = data["reels"]
    assert sorted(reels) == list("ABCDEFIJK")
    assert data["pick"] == {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F"}
    for letter, reel in reels.items():
        assert set(reel) == {"title", "events"}, letter
        assert isinstance(reel["title"], str) and reel["title"].strip(), letter
        found = check_events(reel["events"], REEL_WHO)
        if letter in "IJ":  # interviews between matches: league effects only
            assert {k for k, _ in found} <= {"none", "grudge", "tv"}, letter
        if letter == "K":  # a ref bump happens mid-match
            assert all(b.get("who", b.get("of")) in MATCH_WHO for k, b in found if k != "none"), letter
        if letter in "ABCDEF":  # also rolled before the bell, with both tokens on Start
            for key, body in found:
                assert body.get("who", body.get("of", "both")) in {"favored", "underdog", "heel", "face", "both"}
                assert key != "pin_attempt"
                assert not (key == "move" and body["spaces"] < 0)
                assert not (key == "hotbox" and body["side"] == "foe")
    for letter in "IJK":
        texts = " ".join(e["text"] for e in reels[letter]["events"].values())
        assert "{winner}" not in texts and "{loser}" not in texts


def test_no_two_texts_are_the_same():
    texts = [" ".join(t.lower().split()) for t in all_texts()]
    repeated = [t for t, n in Counter(texts).items() if n > 1]
    assert not repeated


@pytest.mark.parametrize("name", ["track.yaml", "facs.yaml", "tv_moves.yaml", "wild_cards.yaml", "highlight_reels.yaml"])
def test_each_file_explains_its_schema_in_a_header(name):
    first = (DATA / name).read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# Face to the Mat")


# Words that set an event before or during the match (issue 16: "taping ribs at the opening
# bell", "the match goes on as booked"): a post-match wording uses none of them.
BEFORE_THE_BELL = ("opening bell", "before the bell", "at the bell", "to the ring", "as booked", "entrance", "goes on",
                   "comes out", "arrives", "get loose", "running start", "gets the jump", "out of the gate", "keep their focus")


def test_every_reel_rolled_after_the_match_has_a_post_match_wording():
    """5.d the post-match storyline rolls a reel of the `pick` table (A-F): each of its events
    has `post_text`, worded for after the bell, with no placeholder its `text` lacks (the heel
    and face only where the event names them: the reroll reads `text`). Reels I, J (interviews)
    and K (a ref bump) are never rolled after a match and need none (docs/rulings)."""
    data = load("highlight_reels.yaml")
    picked = set(data["pick"].values())
    assert picked == set("ABCDEF")
    for letter in sorted(picked):
        for total, event in data["reels"][letter]["events"].items():
            post = event.get("post_text")
            assert isinstance(post, str) and post.strip(), (letter, total)
            assert placeholders(post) <= placeholders(event["text"]) | {"favored", "underdog", "ally", "foe"}, (letter, total)
            assert not [w for w in BEFORE_THE_BELL if w in post.lower()], (letter, total, post)
    for letter in "IJK":
        assert all("post_text" not in e for e in data["reels"][letter]["events"].values())


def test_every_reel_drawn_mid_match_has_a_mid_match_wording():
    """7.d a HIGHLIGHT_REEL FAC rolls a reel of the `pick` table (A-F) mid-match: each of its
    events has `mid_text`, worded for a match under way (none of the pre-match words), with
    no placeholder its `text` lacks but the four every event may name (issue 16)."""
    data = load("highlight_reels.yaml")
    for letter in "ABCDEF":
        for total, event in data["reels"][letter]["events"].items():
            mid = event.get("mid_text")
            assert isinstance(mid, str) and mid.strip(), (letter, total)
            assert placeholders(mid) <= placeholders(event["text"]) | {"favored", "underdog", "ally", "foe"}, (letter, total)
            assert not [w for w in BEFORE_THE_BELL if w in mid.lower()], (letter, total, mid)


def test_the_pre_match_wordings_are_the_ones_the_issue_names():
    """The check above can fail: the pre-match texts it replaces do use those words."""
    data = load("highlight_reels.yaml")
    texts = [e["text"].lower() for letter in "ABCDEF" for e in data["reels"][letter]["events"].values()]
    assert sum(any(w in t for w in BEFORE_THE_BELL) for t in texts) >= 15
