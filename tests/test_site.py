"""`fedtool site`: the fed's static website, built from the league after the demo weeks.

Every internal link resolves, pages parse with balanced tags, the push level and TV
grade charts plot the league's values at exact coordinates, and player text holding
markup shows as text.
"""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import sqlite_utils

from fedtool.league import records
from fedtool.fed.settings import Fed
from fedtool.league.db import register_functions
from fedtool.site.build import SITE_MARKER, build_site
from site_screenshot import HOSTILE_EXPLANATION, HOSTILE_NAME, build_demo_site

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_SELF_CLOSING = {"line", "polyline", "circle", "rect", "path"}


class Page(HTMLParser):
    """One page's links, ids, text and tag balance (every element closed, in order)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []
        self.elements: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs))
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append(attrs[name])
        if "id" in attrs:
            if attrs["id"] in self.ids:
                self.errors.append(f"duplicate id {attrs['id']!r}")
            self.ids.add(attrs["id"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID and tag not in SVG_SELF_CLOSING:
            self.errors.append(f"<{tag}/> is not a void element")
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo fed after its five weeks and its first season's close, with a hostile name and explanation, and its site."""
    return build_demo_site(tmp_path_factory.mktemp("site") / "fed", hostile=True)


@pytest.fixture(scope="module")
def site(demo) -> Path:
    return demo / "outbox" / "site"


@pytest.fixture(scope="module")
def pages(site) -> dict[str, Page]:
    return {str(p.relative_to(site)): parse(p) for p in sorted(site.rglob("*.html"))}


def test_the_site_has_a_page_for_every_week_wrestler_and_title(demo, site):
    fed = Fed.load(demo)
    league = {row["id"] for row in sqlite_utils.Database(demo / "fed.db")["wrestlers"].rows}
    wrestlers = sorted(set(fed.roster_files) | league)
    assert len(wrestlers) >= 20
    titles = [t.id for t in fed.settings.titles]
    expected = {"index.html", "standings.html", "weeks/index.html", "wrestlers/index.html", "titles/index.html", "records.html", "news.html"}
    expected |= {"seasons/index.html", "seasons/season-01.html", "seasons/season-02.html", "feed.xml", "calendar.ics"}  # issue 19
    expected |= {f"weeks/week-0{w}.html" for w in (1, 2, 3, 4, 5)}
    expected |= {f"wrestlers/{w}.html" for w in wrestlers}
    expected |= {f"titles/{t}.html" for t in titles}
    built = {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()}
    assert built == expected | {"style.css", SITE_MARKER}
    # no staging or backup folders left beside it
    assert sorted(p.name for p in site.parent.iterdir() if p.name.startswith(".site")) == []


def test_every_internal_link_resolves_to_a_file_and_its_fragment(site, pages):
    checked = 0
    for name, page in pages.items():
        assert page.links, f"{name} links nowhere"
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme == "data":
                continue
            assert not parts.scheme and not parts.netloc, f"{name}: {link} is not a relative link"
            assert not parts.path.startswith("/"), f"{name}: {link} is absolute: the site must work from any sub-path"
            target = (site / name).parent / unquote(parts.path) if parts.path else site / name
            target = target.resolve()
            assert target.is_relative_to(site.resolve()), f"{name}: {link} leaves the site"
            assert target.is_file(), f"{name}: {link} does not resolve"
            if parts.fragment:
                ids = pages[str(target.relative_to(site.resolve()))].ids
                assert unquote(parts.fragment) in ids, f"{name}: {link}: no id {parts.fragment!r} there"
            checked += 1
    assert checked > 500


def test_every_page_parses_with_every_element_closed(pages):
    for name, page in pages.items():
        assert page.errors == [], f"{name}: {page.errors[:5]}"
        assert page.stack == [], f"{name}: unclosed {page.stack}"
        tags = [tag for tag, _ in page.elements]
        assert tags[:1] == ["html"] and tags.count("title") >= 1 and tags.count("h1") == 1, name
        assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in page.elements, name
        assert ("link", {"rel": "stylesheet", "href": "../" * name.count("/") + "style.css"}) in page.elements, name
        assert "script" not in tags, f"{name} has a script element"


def test_no_javascript_and_one_shared_stylesheet(site, pages):
    for path in site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert "<script" not in html.lower(), path
        assert "<style" not in html.lower(), path
    for name, page in pages.items():
        handlers = [(tag, attr) for tag, attrs in page.elements for attr in attrs if attr.startswith("on")]
        assert handlers == [], name
        assert not [a for _, attrs in page.elements for a in attrs.values() if a and a.strip().lower().startswith("javascript:")], name
    css = (site / "style.css").read_text(encoding="utf-8")
    assert "overflow-x: auto" in css and "@media" in css


def _chart_points(page: Page) -> list[tuple[int, str, str, str]]:
    return [(int(a["data-week"]), a["data-value"], a["cx"], a["cy"]) for tag, a in page.elements if tag == "circle"]


def test_push_level_chart_plots_the_league_values(demo, pages):
    """Brother Bob: level 2 on his sheet, lost in week 1 (level 1), won in week 2 (level 2),
    and wrestled no more in the demo's five weeks: his chart runs to week 2, the last week he
    wrestled or changed in (issue 18: his page stays the same until he does again)."""
    db = sqlite_utils.Database(demo / "fed.db")
    stored = {r["week"]: r["push_level"] for r in db["wrestler_states"].rows_where("wrestler_id = 'brother-bob'")}
    assert stored == {1: 1, 2: 2}
    page = pages["wrestlers/brother-bob.html"]
    # 600 x 300 units, plot from x 80 to 580 over weeks 0-2 (250 a week) and y 230 (level 1) to 20 (level 5)
    assert _chart_points(page) == [
        (0, "2", "80.0", "177.5"),
        (1, "1", "330.0", "230.0"),
        (2, "2", "580.0", "177.5"),
    ]
    polyline = next(a for tag, a in page.elements if tag == "polyline")
    assert polyline["points"] == "80.0,177.5 330.0,230.0 580.0,177.5"
    svg = next(a for tag, a in page.elements if tag == "svg")
    assert svg["role"] == "img" and svg["aria-labelledby"] == "chart-title chart-desc"
    text = "".join(page.text)
    assert "Brother Bob: push level over the weeks" in text
    assert "Brother Bob's push level by week: start: push level 2; week 1: push level 1; week 2: push level 2." in text
    assert {"Week", "Push level"} <= {t.strip() for t in page.text}


def test_tv_grade_chart_plots_grades_with_aaa_at_the_top(demo, pages):
    """The Warden: TV grade C on his card, B after week 3's upset, D after week 4's grudge match
    (lost, with TV grades at stake: two grades), C after week 5's upset."""
    page = pages["wrestlers/the-warden.html"]
    # eight grades, F at y 230 and AAA at y 20: 30 units apart
    assert _chart_points(page) == [
        (0, "C", "80.0", "140.0"),
        (1, "C", "180.0", "140.0"),
        (2, "C", "280.0", "140.0"),
        (3, "B", "380.0", "110.0"),
        (4, "D", "480.0", "170.0"),
        (5, "C", "580.0", "140.0"),
    ]
    assert "TV grade" in {t.strip() for t in page.text}


def test_a_mat_clash_wrestler_has_no_chart(pages):
    assert _chart_points(pages["wrestlers/tommy-reyes.html"]) == []
    assert "svg" not in [tag for tag, _ in pages["wrestlers/tommy-reyes.html"].elements]


def test_markup_in_a_name_and_an_explanation_shows_as_text(site, pages):
    week = (site / "weeks/week-01.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;window.fedtoolInjected = true; alert(2)&lt;/script&gt;&lt;img src=x onerror=alert(3)&gt;" in week
    assert HOSTILE_EXPLANATION in "".join(pages["weeks/week-01.html"].text)
    wrestler = pages["wrestlers/mad-dog-maddox.html"]
    assert HOSTILE_NAME in "".join(wrestler.text)
    assert "Mad Dog &lt;script&gt;alert(1)&lt;/script&gt;" in (site / "wrestlers/mad-dog-maddox.html").read_text(encoding="utf-8")
    for name, page in pages.items():
        assert not any(tag in ("script", "img") for tag, _ in page.elements), name


def test_week_pages_carry_every_writeup_from_the_league(demo, site, pages):
    db = sqlite_utils.Database(demo / "fed.db")
    register_functions(db.conn)  # m017: the writeups are packed; the view reads them with fedtool_inflate
    assert db["match_writeups"].count == db["matches"].count == 16
    page = pages["weeks/week-02.html"]
    assert {"match-m1", "match-m2", "match-m3", "match-m4", "m1", "m2", "m3", "m4"} <= page.ids
    for row in db["match_writeups"].rows_where("week = 2"):
        assert row["html"] in (site / "weeks/week-02.html").read_text(encoding="utf-8")
    # the latest card on the home page links to each writeup
    home = pages["index.html"]
    assert [l for l in home.links if "#match-" in l] == ["weeks/week-05.html#match-m1", "weeks/week-05.html#match-m2", "weeks/week-05.html#match-m3"]


def test_the_site_needs_no_outbox_week_folders(demo, site, tmp_path):
    fed = tmp_path / "fed"
    shutil.copytree(demo, fed)
    before = {p.name: p.read_text(encoding="utf-8") for p in (fed / "outbox/site/weeks").iterdir()}
    for folder in (fed / "outbox").glob("week-*"):
        shutil.rmtree(folder)
    build_site(Fed.load(fed))
    after = {p.name: p.read_text(encoding="utf-8") for p in (fed / "outbox/site/weeks").iterdir()}
    assert after == before


def test_a_rerun_replaces_its_writeups(demo, tmp_path, fedtool):
    fed = tmp_path / "fed"
    shutil.copytree(demo, fed)
    assert fedtool("season", "reopen", "--fed", fed).exit_code == 0  # week 5 closed the demo's first season
    assert fedtool("run", "5", "--rerun", "--fed", fed).exit_code == 0
    db = sqlite_utils.Database(fed / "fed.db")
    register_functions(db.conn)
    assert [r["match_id"] for r in db["match_writeups"].rows_where("week = 5")] == ["week-05/m1", "week-05/m2", "week-05/m3"]
    assert db["match_writeups"].count == 16


def test_wrestler_pages_agree_with_the_records(demo, pages):
    fed = Fed.load(demo)
    db = sqlite_utils.Database(demo / "fed.db")
    for wid in fed.roster_files:
        record = records.history(fed, db, wid)["record"]
        page = pages[f"wrestlers/{wid}.html"]
        i = next(i for i, (tag, a) in enumerate(page.elements) if a.get("class") == "record")
        shown = "".join(page.text)
        expected = f"{record['wins']} won, {record['losses']} lost" + (f", {record['draws']} drawn" if record["draws"] else "")
        assert expected in shown, (wid, expected)
        assert i > 0


def test_standings_and_titles_pages_show_the_records(demo, site):
    fed = Fed.load(demo)
    db = sqlite_utils.Database(demo / "fed.db")
    standings = (site / "standings.html").read_text(encoding="utf-8")
    for table in records.standings(fed, db):
        for row in table["rows"]:
            assert f"wrestlers/{row['wrestler_id']}.html" in standings
            assert f"<td>{row['wins']}</td><td>{row['losses']}</td><td>{row['draws']}</td><td>{row['streak']}</td>" in standings
    for title in records.titles(fed, db):
        page = (site / f"titles/{title['id']}.html").read_text(encoding="utf-8")
        assert page.count("<tr><td>") == len(title["reigns"])


def test_site_command_reports_and_out_refuses_a_folder_it_did_not_build(demo, tmp_path, fedtool):
    out = tmp_path / "public"
    result = fedtool("site", "--out", out, "--fed", demo)
    assert result.exit_code == 0, result.output
    wrestlers = len(list(out.glob("wrestlers/*.html"))) - 1
    assert result.output.startswith(f"{len(list(out.rglob('*.html')))} pages (5 weeks, {wrestlers} wrestlers, ")
    again = fedtool("site", "--out", out, "--fed", demo)  # an earlier site is replaced
    assert again.exit_code == 0
    other = tmp_path / "notes"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    result = fedtool("site", "--out", other, "--fed", demo)
    assert result.exit_code == 1
    assert "this folder holds files fedtool did not build" in result.stderr and "Traceback" not in result.output
    assert [p.name for p in other.iterdir()] == ["keep.txt"]
    result = fedtool("site", "--out", demo, "--fed", demo)
    assert result.exit_code == 1 and "the site needs a folder of its own" in result.stderr


def test_a_fed_template_overrides_a_page_and_a_broken_one_leaves_the_old_site(demo, tmp_path, fedtool):
    fed = tmp_path / "fed"
    shutil.copytree(demo, fed)
    (fed / "templates/site").mkdir(parents=True)
    (fed / "templates/site/home.html.j2").write_text(
        '{% extends "default:site/home.html.j2" %}{% block main %}<p class="ours">Our own home</p>{{ super() }}{% endblock %}'
    )
    assert fedtool("site", "--fed", fed).exit_code == 0
    home = (fed / "outbox/site/index.html").read_text(encoding="utf-8")
    assert '<p class="ours">Our own home</p>' in home and "Week 5: Partners" in home
    before = {str(p): p.read_bytes() for p in (fed / "outbox/site").rglob("*") if p.is_file()}
    (fed / "templates/site/week.html.j2").write_text("{% block main %}{{ no_such_thing }}{% endblock %}")
    result = fedtool("site", "--fed", fed)
    assert result.exit_code == 1
    assert "week.html.j2" in result.stderr and "Traceback" not in result.output
    assert {str(p): p.read_bytes() for p in (fed / "outbox/site").rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in (fed / "outbox").iterdir()) == ["site", "week-01", "week-02", "week-03", "week-04", "week-05"]


def test_a_fed_with_no_week_run_gets_a_home_page_saying_so(tmp_path, fedtool):
    fed = tmp_path / "new-fed"
    assert fedtool("init", fed, "--name", "Brand <New> Fed").exit_code == 0
    result = fedtool("site", "--fed", fed)
    assert result.exit_code == 0, result.output
    home = (fed / "outbox/site/index.html").read_text(encoding="utf-8")
    assert "No week has been run yet" in home and "Brand &lt;New&gt; Fed" in home
    assert not (fed / "fed.db").exists()  # building the site never creates the league


def test_json_dump_of_pages_is_stable(demo, tmp_path):
    """Two builds of the same league write the same bytes."""
    first = tmp_path / "a"
    second = tmp_path / "b"
    build_site(Fed.load(demo), first)
    build_site(Fed.load(demo), second)
    read = lambda root: json.dumps({str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()})
    assert read(first) == read(second)


def test_a_fed_macros_override_reaches_every_page_that_links_a_wrestler(demo, tmp_path, fedtool):
    """README: "a fed overrides one with templates/site/<name>": the shared links
    (macros.html.j2) are one of them, and the wrestler pages use them like the rest (an
    inlined copy in wrestler.html.j2 once left those pages with the stock links)."""
    fed = tmp_path / "fed"
    shutil.copytree(demo, fed)
    (fed / "templates/site").mkdir(parents=True)
    stock = (Path(__file__).resolve().parent.parent / "fedtool/templates/site/macros.html.j2").read_text(encoding="utf-8")
    (fed / "templates/site/macros.html.j2").write_text(
        stock.replace('<a href="{{ root }}wrestlers/{{ page_name(id) }}.html">{{ name }}</a>',
                      '<a class="ours" href="{{ root }}wrestlers/{{ page_name(id) }}.html">{{ name }}</a>', 1), encoding="utf-8")
    assert fedtool("site", "--fed", fed).exit_code == 0
    page = (fed / "outbox/site/wrestlers/silent-crane.html").read_text(encoding="utf-8")
    assert page.count('<a class="ours" href="../wrestlers/') >= 2  # his opponents in his history
    assert '<a class="ours" href="wrestlers/' in (fed / "outbox/site/standings.html").read_text(encoding="utf-8")
