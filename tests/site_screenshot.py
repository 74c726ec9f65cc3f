"""The demo fed's website, built for the site tests, and the README's screenshot.

    python tests/site_screenshot.py

runs the demo weeks in a temporary copy of the demo fed, builds its site and saves a
screenshot of the home page at phone width (390 px) as docs/site-home.png, taken with
Debian's chromium (/usr/bin/chromium) through Playwright.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fedtool.cli import cli  # noqa: E402
from golden import ROOT, demo_copy  # noqa: E402

DEMO_WEEKS = (1, 2, 3, 4, 5)
CHROMIUM = Path("/usr/bin/chromium")
# the probe's flags: headless as root, and no background traffic on a closed network
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
# player text that must only ever show as text: a name and a strategy explanation
HOSTILE_NAME = "Mad Dog <script>alert(1)</script>"
HOSTILE_EXPLANATION = "<script>window.fedtoolInjected = true; alert(2)</script><img src=x onerror=alert(3)>"


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    if result.exit_code != 0:
        raise RuntimeError(f"fedtool {' '.join(map(str, args))} failed:\n{result.output}")
    return result.output


def make_hostile(fed: Path) -> None:
    """Mad Dog Maddox's name and Brother Bob's week-1 round-1 explanation hold markup."""
    sheet = fed / "rosters/mad-dog-maddox.yaml"
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(re.sub(r"(?m)^name: .*$", f"name: '{HOSTILE_NAME}'", text, count=1), encoding="utf-8")
    strategy = fed / "strategies/week-01/brother-bob.yaml"
    text = strategy.read_text(encoding="utf-8")
    old = "explanation: Closed fists in the corner while the ref counts to four.}"
    assert old in text, "the demo strategy changed: update tests/site_screenshot.py"
    strategy.write_text(text.replace(old, f"explanation: '{HOSTILE_EXPLANATION}'}}", 1), encoding="utf-8")


def build_demo_site(target: Path, hostile: bool = False) -> Path:
    """A copy of the demo fed in `target` with the demo weeks run, its first season closed
    after week 5 and its site built; returns the fed."""
    fed = demo_copy(target)
    if hostile:
        make_hostile(fed)
    for week in DEMO_WEEKS:
        _invoke("run", week, "--fed", fed)
    _invoke("season", "close", "--fed", fed)  # the demo's first season ends after week 5 (README, "Seasons")
    _invoke("site", "--fed", fed)
    return fed


def launch(playwright):
    """Debian's chromium, headless, through Playwright (never `playwright install`)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def screenshot_home(site: Path, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport=PHONE, device_scale_factor=2)
        page.goto((site / "index.html").resolve().as_uri())
        page.screenshot(path=str(out))
        browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fed = build_demo_site(Path(tmp) / "fed")
        out = ROOT / "docs" / "site-home.png"
        screenshot_home(fed / "outbox" / "site", out)
        print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
