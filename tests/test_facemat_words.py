"""Face to the Mat's writeup words are data a fed can replace (issue 16: "Decks, charts,
tracks, tables and commentary are data files a fed can replace, each checked when
loaded"): the headline, the billing note, the key to the track after each line and the
HOT BOX sentence are kinds of data/commentary.yaml, which a fed's
templates/commentary/facemat.yaml adds to or replaces, checked when it is read. (The packaged
words are those the writeups always had: the golden playthroughs are unchanged.)"""

from __future__ import annotations

from click.testing import CliRunner

from fedtool.cli import cli

OWN = """\
headline_win: {replace: ["WIN {winners} over {losers}, {how}, {facs} cards"]}
headline_three_for_all: {replace: ["LAST {winners} {how}"]}
headline_battle_royale: {replace: ["ROYALE {winners} {how}"]}
headline_four_play: {replace: ["FOUR {winners} {how}"]}
headline_draw: {replace: ["DRAW {sides}"]}
how_pin: {replace: ["PINNED"]}
how_finisher: {replace: ["FINISHED by {finisher}"]}
billing: {replace: ["BILLED {favored} over {underdog}."]}
billing_two_on_one: {replace: ["BILLED {favored} against {first} and {second}."]}
billing_many: {replace: ["BILLED {order}."]}
track_key: {replace: ["KEY {names}: start {start}, pins {pins}, finisher {finisher}."]}
hotbox_ally: {replace: ["FRIEND {ally} of {name}"]}
hotbox_foe: {replace: ["ENEMY {foe} of {name}"]}
"""


def play(fed, own: str):
    (fed / "templates/commentary").mkdir(parents=True, exist_ok=True)
    (fed / "templates/commentary/facemat.yaml").write_text(own, encoding="utf-8")
    return CliRunner().invoke(cli, ["play", str(fed / "strategies/example-fttm-multi"), "--fed", str(fed)])


def test_a_feds_own_words_tell_the_headline_billing_track_key_and_hot_box(demo_fed):
    result = play(demo_fed, OWN)
    assert result.exit_code == 0, result.output
    writeups = {p.stem: p.read_text(encoding="utf-8") for p in (demo_fed / "outbox/exhibitions/example-fttm-multi").glob("*.md") if p.stem != "card"}
    assert len(writeups) >= 4
    for match, text in writeups.items():
        head = text.splitlines()[0]
        assert any(word in head for word in ("WIN ", "LAST ", "ROYALE ", "FOUR ", "DRAW ")), (match, head)
        assert " def. " not in head and "the last one standing" not in head
        assert "BILLED " in text and " is favored" not in text, match
        assert "KEY " in text and "after a line: the track space of" not in text, match
    assert any("WIN " in t.splitlines()[0] and ("PINNED" in t.splitlines()[0] or "FINISHED by " in t.splitlines()[0]) for t in writeups.values())
    assert any("FRIEND " in text or "ENEMY " in text for text in writeups.values())


def test_a_feds_words_naming_a_field_the_kind_has_not_are_refused_with_file_and_line(demo_fed):
    result = play(demo_fed, "billing: [\"fine\"]\nheadline_win:\n  - \"{winner} won\"\n")
    assert result.exit_code == 1
    assert "templates/commentary/facemat.yaml, line 3" in result.output, result.output
    assert "{winner}" in result.output and "Traceback" not in result.output


def test_the_packaged_words_are_the_writeups_words(demo_fed):
    """The kinds only a booking, a draw or a HOT BOX nobody fills tells (tests/
    test_facemat_commentary.py's HAND_BUILT), in the words the writeups always had."""
    from types import SimpleNamespace

    from fedtool.rulesets.base import Booking
    from fedtool.rulesets.facemat import FaceToTheMat

    result = CliRunner().invoke(cli, ["play", str(demo_fed / "strategies/example-fttm-multi"), "--fed", str(demo_fed)])
    assert result.exit_code == 0, result.output
    texts = "\n".join(p.read_text(encoding="utf-8") for p in (demo_fed / "outbox/exhibitions/example-fttm-multi").glob("*.md"))
    assert "Vince Valor is favored, two on one against La Rosa Negra and Sister Sorrow (9.d.i)." in texts  # billing_two_on_one
    assert "is the underdog; billing: " in texts  # billing_many
    fttm = FaceToTheMat()
    empty = {"allies": ["a friend from the locker room"] * 3, "foes": ["an old rival"] * 3, "grudge": []}
    booking = Booking(None, SimpleNamespace(hotbox=empty), [], [], {"hotbox_ids": {"allies": [None] * 3, "foes": [None] * 3, "grudge": []}})
    assert fttm._hotbox_text(booking, ["A", "B", "C"]) == (
        "no allies or foes for anyone in the match (the storylines call them a friend from the locker room and an old rival).")
    assert fttm._hotbox_text(Booking(None, SimpleNamespace(hotbox={}), [], [], {}), ["A", "B"]) == "nobody."
