"""Plain-text strategies in a fed: read, checked and played like YAML ones."""

from __future__ import annotations

import shutil
from pathlib import Path

DATA = Path(__file__).parent / "data" / "strategies"


def use_plain_text(fed: Path) -> Path:
    """Replace the Part VI example's YAML strategies with the rulebook text pasted as is."""
    folder = fed / "strategies/example-part-vi"
    for who, pasted in (("brother-bob", "part-vi-bob.txt"), ("friendly-sam", "part-vi-sam.txt")):
        (folder / f"{who}.yaml").unlink()
        shutil.copy(DATA / pasted, folder / f"{who}.txt")
    return folder


def test_read_shows_every_line_and_the_verdict(demo_fed, fedtool):
    folder = use_plain_text(demo_fed)
    result = fedtool("read", folder / "brother-bob.txt", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "strategies/example-part-vi/brother-bob.txt: plain text"
    assert "  line   7: round 3: target HF, type Illegal, notes begin" in lines
    assert lines[-1] == "stands for match part-vi: brother-bob vs. friendly-sam"


def test_the_part_vi_match_plays_the_same_from_the_pasted_text(demo_fed, fedtool):
    """Part VI pasted as text and Part VI in YAML: the same match, roll for roll."""
    dice = demo_fed / "strategies/example-part-vi/dice.txt"
    assert fedtool("play", demo_fed / "strategies/example-part-vi", "--dice", dice, "--fed", demo_fed).exit_code == 0
    from_yaml = (demo_fed / "outbox/exhibitions/example-part-vi/dice.txt").read_text()
    use_plain_text(demo_fed)
    result = fedtool("play", demo_fed / "strategies/example-part-vi", "--dice", dice, "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Friendly Sam def. Brother Bob (by pinfall, round 7)")
    assert (demo_fed / "outbox/exhibitions/example-part-vi/dice.txt").read_text() == from_yaml


def test_a_bad_plain_text_line_is_named(demo_fed, fedtool):
    folder = use_plain_text(demo_fed)
    text = (folder / "friendly-sam.txt").read_text()
    (folder / "friendly-sam.txt").write_text(text + "And so on.\n")
    result = fedtool("read", folder / "friendly-sam.txt", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "strategies/example-part-vi/friendly-sam.txt, line" in result.stderr and "And so on." in result.stderr


def test_two_strategies_for_one_side_are_refused(demo_fed, fedtool):
    folder = demo_fed / "strategies/example-part-vi"
    shutil.copy(DATA / "part-vi-bob.txt", folder / "brother-bob.txt")
    result = fedtool("play", folder, "--fed", demo_fed)
    assert result.exit_code == 1
    assert "both brother-bob.yaml and brother-bob.txt are there: keep one strategy per side" in result.stderr
