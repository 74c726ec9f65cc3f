"""Face to the Mat writeups people want to read (issue 16, the Face to the Mat slice): FACs
nobody can use told as one line, signature moves woven into the sentence, a key to the track
markers, an empty HOT BOX said once, and post-match storylines worded for after the bell.
Each test plays a constructed match on scripted dice, renders it with the packaged templates
(to a string) and reads the writeup; narration consumes no dice (the logs are asserted).
The words are the commentary table's (data/commentary.yaml): these tests tell with the first
phrase of each kind (`first_phrases`), so they read the structure, not the variety."""

from __future__ import annotations

import pytest

from fedtool.kernel.commentary import Commentary

from fedtool.fed.render import environment, render
from fedtool.kernel.dice import ScriptedDice, format_log
from fedtool.rulesets.base import Booking, WrestlerRecord
from fedtool.rulesets.facemat import FaceToTheMat, engine
from fedtool.rulesets.facemat.rules import data
from fedtool.rulesets.facemat.sheet import Wrestler

FTTM = FaceToTheMat()
HOTBOX = {"allies": ["Al", "Bea"], "foes": ["Fi", "Gus"], "grudge": ["G1", "G2"]}
QUIET_REEL = {"text": "Quiet.", "post_text": "Quiet.", "effect": "none"}


def wrestler(wid: str, skills: dict | None = None, alignment: str = "face") -> Wrestler:
    return Wrestler(wid, wid.title(), "B", 0, alignment, skills or {}, "the Finisher", (11, 33), {})


def card(kind: str, points: int, text: str) -> dict:
    return {"id": kind.lower(), "type": kind, "points": points, "square": False, "control": False, "text": text}


def quiet_reels() -> dict:
    still = {n: QUIET_REEL for n in range(2, 13)}
    return {"pick": {n: "A" for n in range(1, 7)}, "reels": {"A": {"title": "Quiet", "events": still}, "K": {"title": "K", "events": still}}}


def play(monkeypatch, cards: list, guard: int, dice: list, men=None, plans=(), hotbox=HOTBOX, ids=None, reels=None):
    """A match on the real track and charts with `cards` as the deck, then described and
    rendered (Markdown and HTML) as the week's writeup would be."""
    monkeypatch.setattr(engine, "data", lambda: {**data(), "facs": cards, "reels": reels or quiet_reels()})
    monkeypatch.setattr(engine, "FAC_GUARD", guard)
    men = men or (wrestler("a", {"MEAN": "circle"}), wrestler("b"))
    setup = engine.Setup("m", men, hotbox, plans=plans)
    extra = {"match_type": "normal", "sides": [[0], [1]], "teams": [0, 1], **({"hotbox_ids": ids} if ids else {})}
    booking = Booking(None, setup, [WrestlerRecord(w.id, w.name, "facemat", "o", "o@x.example", w) for w in men], [], extra)
    scripted = ScriptedDice(dice)
    result = FTTM.resolve(booking, scripted)
    assert scripted.remaining == 0
    described = FTTM.describe(booking, result)
    env = environment(None, {FTTM.id: FTTM.templates})
    context = {"match": described, "match_id": "m", "booking_title": None, "title_outcome": None, "rating": None, "notes": [],
               "dice_log": {"count": len(result.log), "text": format_log(result.log)}}
    return result, render(env, f"{FTTM.template}.md.j2", **context), render(env, f"{FTTM.template}.html.j2", **context)


@pytest.fixture(autouse=True)
def first_phrases(monkeypatch):
    """The packaged table cut to each kind's first phrase: the canonical wording."""
    table = engine.packaged()
    first = Commentary({kind: phrases[:1] for kind, phrases in table.phrases.items()}, table.fields, table.facts)
    monkeypatch.setattr(engine, "packaged", lambda: first)


MEAN = card("MEAN", 3, "{performer} is mean to {opponent}.")


def test_facs_nobody_can_use_are_told_as_one_line(monkeypatch):
    """3.d "Circle: Can only be used on circle spaces": A's MEAN is a circle; B has none. A
    scores 3 on FACs 1-3 (0 -> 3 -> 6 -> 9, circles) and stands on 9, a square: FACs 4-6
    nobody can use. Told as one line with their numbers and types, not three alike. Dice:
    the two quiet reels (1d6 + 2d6 each); the one-card deck draws no die."""
    result, md, html = play(monkeypatch, [MEAN], 6, [1, 1, 1, 1, 1, 1])
    assert result.positions == [9, 0] and [ln.fac for ln in result.lines if ln.kind == "quiet"] == [4]
    line = "FACs 4-6: the next few exchanges go nowhere (Mean three times: neither man can use them here). `[9-0]`"
    assert line in md
    assert "FAC 4:" not in md and "FAC 5:" not in md and "can use it here" not in md
    assert "FACs 4-6: the next few exchanges go nowhere" in html
    assert "<details><summary>Dice log (4 rolls)" in md and "1 1      # post-match storyline: event 2d6" in md  # the appendix stays


def test_a_signature_move_is_woven_into_the_sentence(monkeypatch):
    """The player's signature move for MEAN (Plan.signature_moves) joins the card's sentence
    as its last clause; no parenthesis is tacked on after the full stop (the table's
    `follow_up`: a clause for a sentence that opens with the performer)."""
    plan = engine.Plan(signature_moves=(("MEAN", "a running knee"),))
    result, md, _ = play(monkeypatch, [MEAN], 1, [1, 1, 1, 1, 1, 1], plans=(plan, engine.Plan()))
    assert "FAC 1: A is mean to B, then follows up with a running knee. `[0-0]`" in md
    assert "(a running knee)" not in md


def test_a_signature_move_names_the_performer_when_the_sentence_does_not_open_with_him(monkeypatch):
    """A card whose sentence opens with someone else: the clause names the performer
    (`follow_up_named`)."""
    crowd = card("MEAN", 3, "The crowd roars as {performer} goes after {opponent}.")
    plan = engine.Plan(signature_moves=(("MEAN", "a running knee"),))
    _, md, _ = play(monkeypatch, [crowd], 1, [1, 1, 1, 1, 1, 1], plans=(plan, engine.Plan()))
    assert "FAC 1: The crowd roars as A goes after B, and A follows up with a running knee." in md


def test_the_track_markers_have_a_key(monkeypatch):
    """4.c tokens start on Start; 8.a PIN spaces, 8.b the finisher space (track.yaml: start 0,
    pin_spaces 12-14, finisher_space 15): the writeup says what `[0-2]` means."""
    _, md, html = play(monkeypatch, [MEAN], 1, [1, 1, 1, 1, 1, 1])
    key = ("after a line: the track space of A and B, in that order, after it "
           "(tokens start on 0; spaces 12-14 call for a pin, 15 for the finisher).")
    assert f"*Key:* `[0-0]` {key}" in md
    assert f'<em>Key:</em> <span class="calc">[0-0]</span> {key}' in html


def test_an_empty_hot_box_is_said_once(monkeypatch):
    """4.b the HOT BOX: with nobody on the roster as either side's ally or foe the booking
    fills the places with stand-ins (ids None); the writeup says so once, plainly, instead
    of listing the four stand-ins."""
    hotbox = {"allies": ["a friend from the locker room"] * 2, "foes": ["an old rival"] * 2, "grudge": ["G1", "G2"]}
    ids = {"allies": [None, None], "foes": [None, None], "grudge": ["g1", "g2"]}
    _, md, _ = play(monkeypatch, [MEAN], 1, [1, 1, 1, 1, 1, 1], hotbox=hotbox, ids=ids)
    assert ("In the HOT BOX: no allies or foes for either side (the storylines call them a friend from the locker room "
            "and an old rival); the highest grudge grades outside the match: G1 and G2.") in md
    assert md.count("a friend from the locker room") == 1 and md.count("an old rival") == 1


def test_a_hot_box_names_each_ally_and_foe_with_his_wrestler(monkeypatch):
    _, md, _ = play(monkeypatch, [MEAN], 1, [1, 1, 1, 1, 1, 1], ids={"allies": ["al", None], "foes": ["fi", "gus"], "grudge": []})
    assert "In the HOT BOX: A's ally Al, A's foe Fi, B's foe Gus; no ally for B; the highest grudge grades outside the match: G1 and G2." in md


def test_a_post_match_storyline_is_worded_for_after_the_bell(monkeypatch):
    """5.d the post-match storyline, "Roll 1d6 to determine Highlight Reel, Roll 2d6 for
    specific event", on the packaged reels: pre-match 1d6 = 1 (reel A), 3 + 4 = 7 (security
    clears the hallway, no effect); FAC 1 A scores 3 (the time limit: a draw); post-match
    1d6 = 1 (reel A), 1 + 1 = 2: the ambush event, told by its post_text, not the text that
    has the trainer "taping ribs at the opening bell". The dice are the same five either way."""
    result, md, _ = play(monkeypatch, [MEAN], 1, [1, 3, 4, 1, 1, 1], reels=data()["reels"])
    after = [ln.text for ln in result.lines if ln.kind == "post_match"]
    assert after == ["After the bell: Fi blindsides A on the way up the ramp, and the trainer is still taping ribs long after "
                     "the lights go down. The match is over: the result stands."]
    assert "opening bell" not in md
    pre = [ln.text for ln in result.lines if ln.kind == "storyline"]
    assert pre == ["Security clears the hallway just in time, and both wrestlers reach the ring in one piece."]
    assert [(purpose, bytes(faces)) for _, purpose, faces in result.log] == [  # the rolls as before post_text
        ("pre-match storyline: reel 1d6", b"\x01"), ("pre-match storyline: event 2d6", b"\x03\x04"),
        ("post-match storyline: reel 1d6", b"\x01"), ("post-match storyline: event 2d6", b"\x01\x01")]


def test_a_quiet_run_names_each_card_type_once():
    """Issue 16 (wording defects): a collapsed run listed a type as often as it was drawn
    ("Specialty, Specialty", "Cheat, Cheat, Smart"); each type is named once, with how often."""
    assert engine.quiet_run([(23, "SPECIALTY"), (24, "SPECIALTY")], 2) == \
        "FACs 23 and 24: the next two exchanges go nowhere (Specialty twice: neither man can use them here)."
    assert engine.quiet_run([(44, "CHEAT"), (45, "CHEAT"), (46, "SMART")], 3) == \
        "FACs 44-46: the next few exchanges go nowhere (Cheat twice and Smart: nobody can use them here)."
    assert engine.quiet_run([(3, "HELPED"), (4, "OBJECT"), (5, "FAVORITE")], 2) == \
        "FACs 3-5: the next few exchanges go nowhere (Helped, Object and Favorite: neither man can use them here)."


REEL = card("HIGHLIGHT_REEL", 0, "")


def test_a_highlight_reel_drawn_mid_match_is_worded_for_mid_match(monkeypatch):
    """7.d a HIGHLIGHT_REEL FAC rolls a reel mid-match (5.a "Roll 1d6 to determine Highlight
    Reel, Roll 2d6 for specific event"). On the packaged reels: pre-match 1d6 = 1 (reel A), 3 + 4
    = 7 (no effect); FAC 1 the reel card: 1d6 = 1 (reel A), 1 + 1 = 2, the ambush, skip the
    favored; the time limit; post-match 1d6 = 1, 3 + 4 = 7. The mid-match event is told by its
    mid_text, not the pre-match text with the trainer taping ribs "at the opening bell"."""
    result, md, _ = play(monkeypatch, [REEL], 1, [1, 3, 4, 1, 1, 1, 1, 3, 4], reels=data()["reels"])
    told = [ln.text for ln in result.lines if ln.kind == "storyline"]
    assert told[1] == "Fi hits the ring and blindsides A behind the referee's back, and the ribs are already taped by the time the official turns around."
    assert "opening bell" not in md
    assert [purpose for _, purpose, _ in result.log] == [
        "pre-match storyline: reel 1d6", "pre-match storyline: event 2d6", "mid-match storyline: reel 1d6", "mid-match storyline: event 2d6",
        "post-match storyline: reel 1d6", "post-match storyline: event 2d6"]


def test_a_reel_without_mid_text_is_told_as_footage_from_before_the_bell(monkeypatch):
    """A fed's own reels may leave out mid_text: drawn mid-match, the pre-match text is told
    as what it is, footage from before the bell (docs/rulings/face-to-the-mat.md)."""
    result, _, _ = play(monkeypatch, [REEL], 1, [1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert [ln.text for ln in result.lines if ln.kind == "storyline"] == ["Quiet.", "The big screen shows footage from before the bell: Quiet."]


def test_a_tag_teams_hot_box_is_never_a_teams_possessive():
    """4.b each side's ally and foe; a tag side is two men ("Vince Valor & Marcus Bright"):
    the HOT BOX line names them "ally Al and foe Fi for A & B", never "A & B's ally Al"."""
    from types import SimpleNamespace

    booking = Booking(None, SimpleNamespace(hotbox=HOTBOX), [], [], {"hotbox_ids": {"allies": ["al", "bea"], "foes": ["fi", None], "grudge": []}})
    text = FTTM._hotbox_text(booking, ["A & B", "C & D"])
    assert text == "ally Al and foe Fi for A & B, ally Bea for C & D; no foe for C & D; the highest grudge grades outside the match: G1 and G2."
    assert "'s " not in text
