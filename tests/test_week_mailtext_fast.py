"""A run's mails made with less work (issue 18, item 1), the same text: the plain-text part
read from a page by one regular expression gives what the standard library's HTML parser
gives, and `plain_text`'s one-pass check gives what its two substitutions give."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from fedtool.fed import mailtext
from fedtool.fed.render import _INVISIBLE, _LINE_BREAKS, plain_text


def _by_html_parser(html: str) -> str:
    """mail_text as it was: the page read by html.parser."""
    events = mailtext._events
    mailtext._events = lambda html: None
    try:
        return mailtext.mail_text(html)
    finally:
        mailtext._events = events


def _reference_plain(text) -> str:
    return _INVISIBLE.sub("", _LINE_BREAKS.sub("\n", str(text)))


_ODD = st.sampled_from(["\r", "\r\n", "\x85", "\u2028", "\u2029", "\x00", "\x07", "\x0b", "\x1b", "\x7f", "\x9f", "\u061c", "\u200e", "\u202e",
                        "\u2066", "\u2069", "\t", "\n", "é", "★", "\u200b", "\u00a0"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=6), _ODD), max_size=12).map("".join))
def test_plain_text_is_the_two_substitutions(text: str) -> None:
    assert plain_text(text) == _reference_plain(text)
    assert type(plain_text(text)) is str


_TAGS = ["p", "div", "h1", "h2", "h3", "ul", "ol", "li", "table", "tr", "td", "th", "pre", "blockquote", "a", "br", "hr", "em", "strong",
         "span", "head", "title", "body", "html", "section", "summary", "details", "img", "P", "Li", "H2", "B"]
_ATTR_NAMES = ["class", "href", "id", "style", "src", "alt", "CLASS", "data-x", "title"]
_VALUES = st.sampled_from(["", "explanation", "explanation other", "https://example.com/a?b=1&amp;c=2", "mailto:bob@example.com", "m1.html",
                           "#x", "a &amp; b", "&lt;x&gt;", "&#233;", "&eacute;", "&quot;q&quot;", "javascript:x", "cid:1"])
_WORDS = st.sampled_from(["Bob", " ", "  ", "\n", "\n\n", "\t", "a &amp; b", "&lt;tag&gt;", "&#9733;", "&nbsp;", "&amp", "&bogus;", "x&y", "1 > 0",
                          "Relámpago", "**bold**", "- item", "=", ">", "'", '"', "&#x27;", "&#128512;", "&"])


@st.composite
def _attributes(draw) -> str:
    out = ""
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(_ATTR_NAMES))
        out += f" {name}" + ("" if draw(st.integers(0, 4)) == 0 else f'="{draw(_VALUES)}"')
    return out + draw(st.sampled_from(["", "", " ", "\n"]))


@st.composite
def _html(draw, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.integers(0, 9))
        if kind <= 3:
            parts.append(draw(_WORDS))
        elif kind == 4:
            tag = draw(st.sampled_from(["br", "hr", "img", "p", "br"]))
            parts.append(f"<{tag}{draw(_attributes())}{draw(st.sampled_from(['/', ' /', '']))}>")
        elif kind == 5:
            parts.append(draw(st.sampled_from(["<style>p { color: red } a > b {}</style>", "<style type=\"text/css\">x</style>", "<!DOCTYPE html>",
                                               "<script>if (a < b) {}</script>", "</p>", "</li>", "</ul>", "</td>"])))
        elif kind == 6:  # outside the plain kind: html.parser reads the page
            parts.append(draw(st.sampled_from(["<!-- note -->", "a < b", "<p class=x>", "<p class='x'>", "<?pi?>", "</p >", "<STYLE>x</Style>",
                                               "<br/ >", "<a href = \"x\">", "<", "<!doctype html>"])))
        elif depth < 3:
            tag = draw(st.sampled_from(_TAGS))
            parts.append(f"<{tag}{draw(_attributes())}>{draw(_html(depth + 1))}</{tag.lower() if draw(st.booleans()) else tag}>")
    return "".join(parts)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_html())
@example('<p>See <a href="https://example.com/?a=1&amp;b=2" class="x">the page</a> &amp; <a href="mailto:bob@example.com">Bob</a></p>')
@example('<div CLASS="explanation">line one\n  line &lt;two&gt;</div><P>after<br>it</P><ul><li>a<li>b</ul>')
@example('<html><head><title>T</title><style>p > a {}</style></head><body><h1>Head &amp; more</h1><table><tr><th>a</th><td>b</td></tr></table></body></html>')
def test_the_plain_kind_of_page_reads_as_html_parser_reads_it(html: str) -> None:
    assert mailtext.mail_text(html) == _by_html_parser(html)


def test_the_run_s_pages_are_of_the_plain_kind_and_read_the_same(demo_fed: Path, monkeypatch) -> None:
    """Every page a demo week's run mails is read by the fast path (not the fallback), to the
    same text."""
    import fedtool.week.run as run
    from fedtool.fed.settings import Fed

    pages = []
    monkeypatch.setattr(run, "mail_text", lambda page: pages.append(page) or mailtext.mail_text(page))
    run.run_week(Fed.load(demo_fed), 1)
    assert len(pages) >= 6 and len(set(pages)) == len(pages)  # each page read once: the players of one match get the same page (issue 18)
    for page in pages:
        assert mailtext._events(plain_text(page)) is not None
        assert mailtext.mail_text(page) == _by_html_parser(page)


def test_the_fedheads_markdown_is_made_once_across_commands(tmp_path: Path, monkeypatch) -> None:
    """Card notes are turned into HTML once and kept in the user's cache: the same HTML as
    Python-Markdown makes, read back without it; another text, or no cache, is made anew."""
    import markdown

    from fedtool.fed import render

    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    notes = "Welcome to **Delta**! <em>raw</em>\n\n- one\n- two & [a link](https://example.com)\n"
    first = render.fedhead_markdown(notes)
    assert first == markdown.markdown(notes) and isinstance(first, render.Markup)
    kept = list((tmp_path / "cache").glob("markdown-*/*.html"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == first
    made = markdown.markdown

    def refuse(text, *args, **kwargs):
        raise AssertionError("made again")

    monkeypatch.setattr(markdown, "markdown", refuse)  # the cache answers
    assert render.fedhead_markdown(notes) == first
    monkeypatch.setattr(markdown, "markdown", made)
    assert render.fedhead_markdown(notes + "more") == markdown.markdown(notes + "more")
    assert render.fedhead_markdown(None) == markdown.markdown("")
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    assert render.fedhead_markdown("*x*") == markdown.markdown("*x*")


def test_a_second_run_of_the_demo_week_imports_no_markdown(demo_fed: Path, tmp_path: Path) -> None:
    """A week's run whose card notes were rendered before (a run of another copy) imports no
    Python-Markdown, and writes the same card."""
    import os
    import shutil
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "FEDTOOL_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(root)}
    other = tmp_path / "other"
    shutil.copytree(demo_fed, other)
    script = ("import sys; from fedtool.cli import cli\ntry:\n    cli(['--fed', sys.argv[1], 'run', '1'])\nexcept SystemExit:\n    pass\n"
              "print('markdown' in sys.modules, file=sys.stderr)")
    runs = [subprocess.run([sys.executable, "-c", script, str(fed)], capture_output=True, text=True, env=env, cwd=tmp_path) for fed in (other, demo_fed)]
    assert [r.stderr.strip().splitlines()[-1] for r in runs] == ["True", "False"]
    assert (other / "outbox" / "week-01" / "card.html").read_bytes() == (demo_fed / "outbox" / "week-01" / "card.html").read_bytes()
