"""The demo fed's website in a real browser: Debian's chromium, driven by Playwright.

The site is served over http on loopback, under a sub-path (/site/), by the standard
library's http.server in a thread. Every page loads with no console error, no page
error, no failed request and no dialog; player text holding <script> shows as text and
never runs; no page is wider than a phone.

Without /usr/bin/chromium or the playwright package these tests skip, unless
FEDTOOL_BROWSER_REQUIRED=1 (set by .ci/run), when they fail.
"""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from site_screenshot import CHROMIUM, HOSTILE_EXPLANATION, HOSTILE_NAME, PHONE, build_demo_site, launch


def _browser_missing() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("FEDTOOL_BROWSER_REQUIRED") == "1":
            pytest.fail(f"FEDTOOL_BROWSER_REQUIRED=1 but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL of the site, the site folder): the outbox served, so the site lives at /site/."""
    fed = build_demo_site(tmp_path_factory.mktemp("browser") / "fed", hostile=True)
    handler = functools.partial(QuietHandler, directory=str(fed / "outbox"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/site/", fed / "outbox" / "site"
    server.shutdown()
    server.server_close()
    thread.join()


class Tab:
    """One browser tab at phone size that records everything that goes wrong while it loads pages."""

    def __init__(self, browser):
        self.page = browser.new_page(viewport=PHONE)  # a fresh context: nothing carries over
        self.trouble: dict[str, list] = {}
        self.clear()
        page = self.page
        page.on("console", lambda m: self.trouble["console"].append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.trouble["pageerror"].append(str(e)))
        page.on("requestfailed", lambda r: self.trouble["requestfailed"].append(f"{r.url}: {r.failure}"))
        page.on("response", lambda r: self.trouble["http"].append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("dialog", self._dialog)

    def _dialog(self, dialog):
        self.trouble["dialog"].append(dialog.message)
        dialog.dismiss()

    def clear(self) -> None:
        self.trouble = {"console": [], "pageerror": [], "requestfailed": [], "http": [], "dialog": []}

    def visit(self, url: str):
        response = self.page.goto(url, wait_until="load")
        assert response is not None and response.status == 200, url
        return self.page

    def close(self) -> None:
        self.page.context.close()


def _visit(browser, url: str) -> tuple[dict, object]:
    tab = Tab(browser)
    page = tab.visit(url)
    return tab.trouble, page


def test_every_page_loads_cleanly_in_chromium(browser, served):
    base, site = served
    names = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    assert len(names) > 30
    tab = Tab(browser)
    for name in names:
        tab.clear()
        page = tab.visit(base + name)
        assert page.evaluate("document.styleSheets.length") == 1, name  # style.css arrived
        assert page.evaluate("window.fedtoolInjected") is None, name
        # nothing wider than the phone: wide tables scroll inside their box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        assert tab.trouble == {"console": [], "pageerror": [], "requestfailed": [], "http": [], "dialog": []}, name
    tab.close()


def test_player_script_shows_as_text_and_never_runs(browser, served):
    base, _ = served
    trouble, page = _visit(browser, base + "weeks/week-01.html")
    assert page.locator("script").count() == 0 and page.locator("article img").count() == 0
    explanation = page.locator("em.said").filter(has_text="fedtoolInjected").first
    assert explanation.inner_text() == HOSTILE_EXPLANATION
    assert explanation.is_visible()
    assert page.evaluate("window.fedtoolInjected") is None
    page.context.close()
    assert trouble["dialog"] == [] and trouble["pageerror"] == []

    trouble, page = _visit(browser, base + "wrestlers/mad-dog-maddox.html")
    assert page.locator("h1").inner_text() == HOSTILE_NAME
    assert page.title().startswith(HOSTILE_NAME)
    page.context.close()
    assert trouble["dialog"] == []


def test_links_work_under_a_sub_path(browser, served):
    """Follow the home page's first writeup link and the nav back home, all below /site/."""
    base, _ = served
    trouble, page = _visit(browser, base + "index.html")
    page.locator("ol.card a.headline").first.click()
    page.wait_for_load_state("load")
    assert page.url == base + "weeks/week-05.html#match-m1"
    assert page.locator("#match-m1 article.match h2").is_visible()
    page.locator("header.site nav a", has_text="Standings").click()
    page.wait_for_load_state("load")
    assert page.url == base + "standings.html"
    assert page.locator("h1").inner_text() == "Standings"
    page.context.close()
    assert trouble["requestfailed"] == [] and trouble["http"] == []


def test_the_chart_is_drawn_and_labelled(browser, served):
    base, _ = served
    trouble, page = _visit(browser, base + "wrestlers/brother-bob.html")
    chart = page.locator("svg.state-chart")
    box = chart.bounding_box()
    assert box is not None and 300 < box["width"] <= PHONE["width"] and box["height"] > 150
    assert chart.get_attribute("role") == "img"
    assert page.locator("#chart-title").text_content() == "Brother Bob: push level over the weeks"
    assert page.locator("svg.state-chart circle.point").count() == 3  # the start and weeks 1-2, the last he wrestled in
    page.context.close()
    assert trouble["console"] == []


def test_records_seasons_and_news_at_phone_width(browser, served):
    """Issue 19: the record book, the seasons (the demo closes its first after week 5) and the
    news page fit a phone and read; the feed and the calendar they link to are served and
    parse back (feedparser, icalendar)."""
    import feedparser
    import icalendar

    base, _ = served
    tab = Tab(browser)
    for path, heading, must in (("records.html", "Records", "Hall of fame"), ("seasons/index.html", "Seasons", "Season 1"),
                                ("seasons/season-01.html", "Season 1", "Champions at the close"), ("news.html", "News", "Results: Week 5: Partners")):
        tab.clear()
        page = tab.visit(base + path)
        assert page.locator("h1").inner_text() == heading, path
        assert must in page.locator("main").inner_text(), path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
        assert page.locator("footer time").is_visible(), path  # a date on every page
        assert tab.trouble == {"console": [], "pageerror": [], "requestfailed": [], "http": [], "dialog": []}, path
    page = tab.visit(base + "records.html")
    lists = page.locator("ol.records")
    assert lists.count() >= 10 and lists.first.bounding_box()["width"] <= PHONE["width"]
    page = tab.visit(base + "seasons/index.html")
    page.locator("main a", has_text="Season 1").first.click()
    page.wait_for_load_state("load")
    assert page.url == base + "seasons/season-01.html"
    feed = page.request.get(base + "feed.xml")
    assert feed.status == 200
    parsed = feedparser.parse(feed.body())
    assert not parsed.bozo and parsed.entries[0].title == "Season 1 closed"
    calendar = page.request.get(base + "calendar.ics")
    assert calendar.status == 200 and icalendar.Calendar.from_ical(calendar.body()).name == "VCALENDAR"
    tab.close()


def test_wide_tables_show_they_scroll(browser, served):
    """Issue 19: a table wider than the phone scrolls inside its box, with a visible cue (a
    shadow at the edge with more to see), not a silent cut-off."""
    base, _ = served
    tab = Tab(browser)
    page = tab.visit(base + "seasons/season-01.html")
    boxes = page.locator(".table-scroll")
    assert boxes.count() >= 3
    for i in range(boxes.count()):
        box = boxes.nth(i)
        assert "radial-gradient" in box.evaluate("e => getComputedStyle(e).backgroundImage")
        assert box.evaluate("e => e.getBoundingClientRect().right") <= PHONE["width"]
    tab.close()
