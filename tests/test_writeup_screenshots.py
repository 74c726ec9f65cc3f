"""Issue 16, done when: "One writeup per ruleset rendered to PNG in docs/ (headless chromium)
and shown in the README, at phone width". tests/writeup_screenshots.py takes them; this
checks what it left: a PNG per ruleset fedtool knows, phone width, each shown in the README."""

from __future__ import annotations

import re
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from site_screenshot import PHONE  # noqa: E402
from writeup_screenshots import OUT, ROOT, SCALE, WRITEUPS  # noqa: E402

from fedtool.rulesets import REGISTRY  # noqa: E402


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (the first, by the PNG standard)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_every_ruleset_has_a_writeup_screenshot():
    assert set(WRITEUPS) == set(REGISTRY)
    for ruleset in REGISTRY:
        assert (OUT / f"{ruleset}.png").is_file(), f"docs/writeups/{ruleset}.png: run python tests/writeup_screenshots.py"


def test_the_screenshots_are_phone_width():
    for ruleset in WRITEUPS:
        width, height = png_size(OUT / f"{ruleset}.png")
        assert width == PHONE["width"] * SCALE == 780, ruleset
        assert height > width, f"{ruleset}: a writeup's top, taller than wide"


def test_the_readme_shows_each_screenshot():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r'<img src="docs/writeups/([a-z]+)\.png" alt="[^"]+"', readme))
    assert shown == set(WRITEUPS)
    assert "python tests/writeup_screenshots.py" in readme
