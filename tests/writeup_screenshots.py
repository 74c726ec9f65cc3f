"""One writeup per ruleset as a phone sees it, for the README (issue 16).

    python tests/writeup_screenshots.py

plays the demo weeks in a temporary copy of the demo fed (the repository is never
written but for the PNGs) and screenshots the top of one writeup per ruleset, as its
outbox page (`outbox/week-NN/mN.html`) shows it at phone width (390 CSS px, at 2x: a PNG
780 px wide), with Debian's chromium through Playwright (tests/site_screenshot.py's
browser). The PNGs are docs/writeups/<ruleset>.png; tests/test_writeup_screenshots.py
checks they are there, phone width, and shown in the README. Rerun it whenever the
writeups' prose changes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden import ROOT, demo_copy  # noqa: E402
from site_screenshot import DEMO_WEEKS, PHONE, _invoke, launch  # noqa: E402

OUT = ROOT / "docs" / "writeups"
SCALE = 2  # device pixels per CSS pixel: a PNG 2 x 390 px wide, sharp on any screen
TALL = 2400  # CSS px of the writeup shown from its top: its heading, the set-up and the opening exchanges
# ruleset -> (week, match): the demo's writeup shown for it, and what it shows
WRITEUPS = {
    "matchmatch": (2, "m3", "MatchMatch: the demo's cage match for the vacant Heavyweight title"),
    "matclash": (3, "m1", "Mat Clash: the demo's quick scrap"),
    "facemat": (4, "m1", "Face to the Mat: the demo's grudge match"),
}


def play_demo(target: Path) -> Path:
    """A copy of the demo fed in `target` with the demo weeks run; returns the fed."""
    fed = demo_copy(target)
    for week in DEMO_WEEKS:
        _invoke("run", week, "--fed", fed)
    return fed


def screenshot(page_file: Path, out: Path, browser) -> None:
    """The top `TALL` CSS px of a page (all of it when shorter) at phone width."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=SCALE)
    page.goto(page_file.resolve().as_uri())
    height = min(TALL, page.evaluate("document.documentElement.scrollHeight"))
    page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": 0, "width": PHONE["width"], "height": height})
    page.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fed = play_demo(Path(tmp) / "fed")
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for ruleset, (week, match, _) in WRITEUPS.items():
                out = OUT / f"{ruleset}.png"
                screenshot(fed / "outbox" / f"week-{week:02d}" / f"{match}.html", out, browser)
                print(f"wrote {out.relative_to(ROOT)}")
            browser.close()


if __name__ == "__main__":
    main()
