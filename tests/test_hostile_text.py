"""Hostile player text renders as text: in every writeup, card, announcement, mail part and
site page of the demo weeks, and in any Markdown renderer; fed templates run sandboxed.

The demo fed is played twice, weeks 1-5 run, two more weeks opened (announcements of all
three rulesets) and the site built: once with every wrestler name, owner name, bio, move
name, finisher, explanation and promo carrying the hostile payloads below, once with the
same text made harmless (every punctuation mark an "x": the same lines, the same lengths).
Player text may change the words of an output, never its structure: each Markdown file
and text part, rendered by Python-Markdown and by markdown-it (CommonMark, plus GFM's
tables and strikethrough), and each HTML file and part, holds exactly the elements of the
harmless run; and none holds a script, an image, an SVG, an event handler, a link out or
a heading from player text.
"""

from __future__ import annotations

import email
import html
import re
import string
import unicodedata
from collections import Counter
from email import policy
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from fedtool.cli import cli
from fedtool.fed.render import email as make_email, environment, md_code, md_escape, md_fence, one_line, plain_text, render
from fedtool.kernel.errors import FedError
from golden import FIXED_EPOCH, demo_copy

# one line each: every one fits in a wrestler's name (80 printable characters with the name)
PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "[click](javascript:alert(1))",
    "<javascript:alert(1)>",
    "# Heading",
    "**bold**",
    "| a | b |",
    "```",
    "---",
    "![img](http://x/y.png)",
]
BIDI = "\u202egnp.exe\u202c"  # a right-to-left override: shown reversed unless removed
# a multi-line text (explanations, promos, bios): every payload on a line of its own, a
# Markdown table, a list, a quote, an indented code block, a setext heading, a bidi override
BLOCK = "\n".join([*PAYLOADS, "| a | b |", "|---|---|", "1. one", "- item", "> quote", "    code", "Setext", "===", f"file {BIDI}"])
RAW_HTML = ("<script", "<img", "<svg", "<iframe")  # never in a Markdown file (outside code) as HTML
RAW_IN_HTML = ("<script", "<img", "<iframe")  # never in an HTML file (the site draws its charts in SVG)
BIDI_CONTROLS = ("\u202e", "\u202c")


def _harmless(text: str) -> str:
    """The same text with every punctuation mark and control an "x": the baseline's words."""
    return "".join("x" if ch in string.punctuation or unicodedata.category(ch).startswith("C") and ch != "\n" else ch for ch in text)


def _name(text: str, k: int) -> str:
    payload = PAYLOADS[k % len(PAYLOADS)]
    return f"{payload} {text}" if k % 2 == 0 else f"{text} {payload}"  # at a line's start and inside it


def _poison(fed: Path, change) -> None:
    """Put `change`d hostile text into every sheet and strategy of the fed."""
    for k, sheet in enumerate(sorted((fed / "rosters").glob("*.yaml"))):
        if sheet.name == "fed.yaml":
            continue
        data = yaml.safe_load(sheet.read_text(encoding="utf-8"))
        data["name"] = change(_name(data["name"], k))
        data["owner"]["name"] = change(_name(data["owner"]["name"], k + 1))
        data["bio"] = change(BLOCK)
        for key in ("moves", "signature_moves"):
            if key in data:
                data[key] = {move: change(_name(value, k + 1 + i)) for i, (move, value) in enumerate(data[key].items())}
        if isinstance(data.get("finisher"), dict):
            data["finisher"]["name"] = change(_name(data["finisher"]["name"], k))
        sheet.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    for k, strategy in enumerate(sorted((fed / "strategies").glob("week-0*/*.yaml"))):
        if strategy.name in ("card.yaml", "opening.yaml"):
            continue
        data = yaml.safe_load(strategy.read_text(encoding="utf-8")) or {}
        data.pop("player", None)  # a Mad Match strategy's optional `player:` names the sheet, whose name is poisoned above
        for action in data.get("rounds", []):
            action["explanation"] = change(BLOCK)
        for key in ("moves", "signature_moves"):
            if key in data:
                data[key] = {move: change(_name(value, k + i)) for i, (move, value) in enumerate(data[key].items())}
        if isinstance(data.get("finisher"), str):
            data["finisher"] = change(_name(data["finisher"], k))
        if "promo" in data or "signature_moves" in data:
            data["promo"] = change(BLOCK)
        strategy.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _fedtool(*args) -> None:
    result = CliRunner(env={"SOURCE_DATE_EPOCH": FIXED_EPOCH}).invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output


def _play(fed: Path) -> dict[str, str | bytes]:
    """Weeks 1-5 run, weeks 6 (MatchMatch) and 7 (Mat Clash, Face to the Mat) opened, the site
    built: every .md, .html and .eml they wrote, by path."""
    for week in range(1, 6):
        _fedtool("run", week, "--fed", fed)
    for week, like in ((6, 1), (7, 3)):
        card = (fed / f"strategies/week-0{like}/card.yaml").read_text(encoding="utf-8")
        (fed / f"strategies/week-0{week}").mkdir()
        (fed / f"strategies/week-0{week}/card.yaml").write_text(re.sub(r"(?m)^week: \d+", f"week: {week}", card), encoding="utf-8")
        _fedtool("open", week, "--fed", fed)
    _fedtool("site", "--fed", fed)
    return _outputs(fed)


def _outputs(fed: Path) -> dict[str, str | bytes]:
    outbox = fed / "outbox"
    return {str(p.relative_to(outbox)): p.read_bytes() if p.suffix == ".eml" else p.read_text(encoding="utf-8")
            for p in sorted(outbox.rglob("*")) if p.suffix in (".md", ".html", ".eml")}


@pytest.fixture(scope="module")
def hostile_fed(tmp_path_factory) -> Path:
    """The demo fed with hostile player text, played."""
    fed = demo_copy(tmp_path_factory.mktemp("fed") / "fed")
    _poison(fed, lambda text: text)
    _play(fed)
    return fed


@pytest.fixture(scope="module")
def played(hostile_fed, tmp_path_factory) -> tuple[dict, dict]:
    """The outputs of the hostile run and of the harmless one."""
    fed = demo_copy(tmp_path_factory.mktemp("fed") / "fed")
    _poison(fed, _harmless)
    return _outputs(hostile_fed), _play(fed)


# ---------------------------------------------------------------- reading what was written


class _Elements(HTMLParser):
    """Every element of an HTML text: (tag, its attribute names), the attributes, the headings' text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: Counter = Counter()
        self.attributes: list[tuple[str, str, str]] = []
        self.headings: list[str] = []
        self.text: list[str] = []
        self._heading: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements[(tag, tuple(sorted(name for name, _ in attrs)))] += 1
        self.attributes += [(tag, name, value or "") for name, value in attrs]
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = []

    def handle_endtag(self, tag):
        if re.fullmatch(r"h[1-6]", tag) and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data):
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)


PYTHON_MARKDOWN = ("extra", "admonition")  # tables, fenced code, attribute lists, footnotes, definitions, abbreviations
COMMONMARK = MarkdownIt("commonmark")
GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])
RENDERERS = {
    "Python-Markdown": lambda text: markdown.markdown(text),
    "Python-Markdown extra": lambda text: markdown.markdown(text, extensions=list(PYTHON_MARKDOWN)),
    "CommonMark": COMMONMARK.render,
    "GFM": GFM.render,
}


def _documents(files: dict) -> dict[str, tuple[str, str]]:
    """Every document to check, by name: (its format, its text); a mail is its parts."""
    out = {}
    for name, content in files.items():
        if name.endswith(".eml"):
            mail = email.message_from_bytes(content, policy=policy.default)
            for k, part in enumerate(p for p in mail.walk() if not p.is_multipart()):
                # a mail's plain part is text, read as it is (fedtool.fed.mailtext), never rendered
                kind = {"text/plain": "plain", "text/html": "html"}[part.get_content_type()]
                out[f"{name} part {k} ({part.get_content_type()})"] = (kind, part.get_content())
            out[f"{name} headers"] = ("headers", "\n".join(f"{k}: {v}" for k, v in mail.items()))
        else:
            out[name] = ("markdown" if name.endswith(".md") else "html", content)
    return out


def _without_code(text: str) -> str:
    """Markdown with its fenced blocks and code spans taken out (shown literally by every renderer)."""
    text = re.sub(r"(?ms)^(`{3,})\n.*?^\1$", "", text)
    return re.sub(r"(`+).*?\1", "", text)


# ---------------------------------------------------------------- the demo weeks, hostile


def test_every_output_of_the_demo_weeks_was_checked(played):
    hostile, harmless = played
    assert hostile.keys() == harmless.keys()
    kinds = Counter(Path(name).suffix for name in hostile)
    # 5 weeks of writeups and cards, 2 weeks of announcements, mails, the site's pages
    assert kinds == {".md": 37, ".eml": 54, ".html": 63}, kinds  # the site: a page for each of the three Mad Match players too; week 5: its Mad Match game and solitaire round, their players' mails
    assert any("announcements/" in name for name in hostile)


def test_no_script_image_or_link_from_player_text_survives_in_any_file(played):
    hostile, _ = played
    for name, (kind, text) in _documents(hostile).items():
        shown = _without_code(text) if kind == "markdown" else text
        for bad in (*RAW_HTML, "javascript:") if kind == "markdown" else RAW_IN_HTML if kind == "html" else ():
            assert bad not in shown.lower(), f"{name}: {bad!r} survives"
        for bad in BIDI_CONTROLS:
            assert bad not in shown.lower(), f"{name}: {bad!r} survives"
        if kind == "markdown":
            # the only raw HTML in a Markdown file is the templates' dice-log folding
            assert set(re.findall(r"<[^ ]*?>|<", shown)) <= {"<details>", "<summary>", "</summary>", "</details>"}, name


def test_player_text_makes_no_element_in_any_renderer(played):
    hostile, harmless = played
    expected = _documents(harmless)
    checked = 0
    for name, (kind, text) in _documents(hostile).items():
        if kind == "headers":
            assert all(ch.isprintable() for ch in text.replace("\n", "")), name
            continue
        if kind == "plain":  # no renderer reads it: only what no reader should get is checked
            assert all(ch.isprintable() or ch in "\n\t" for ch in text), name
            continue
        renderings = {"HTML": text} if kind == "html" else {r: render_(text) for r, render_ in RENDERERS.items()}
        baseline = {"HTML": expected[name][1]} if kind == "html" else {r: render_(expected[name][1]) for r, render_ in RENDERERS.items()}
        for renderer, output in renderings.items():
            found, wanted = _Elements(output), _Elements(baseline[renderer])
            assert found.elements == wanted.elements, f"{name} ({renderer}): {found.elements - wanted.elements} {wanted.elements - found.elements}"
            for tag, attribute, value in found.attributes:
                assert not attribute.startswith("on"), f"{name} ({renderer}): <{tag} {attribute}>"
                assert not re.search(r"(javascript|vbscript):|x/y\.png", value, re.I), f"{name} ({renderer}): <{tag} {attribute}={value!r}>"
            assert not any(h.lstrip().startswith("Heading") for h in found.headings), f"{name} ({renderer}): {found.headings}"
            checked += 1
    assert checked == 265  # 37 Markdown files in 4 renderers, 117 HTML files and mail parts (every mail has one)


def test_the_payloads_read_as_text_in_the_writeups(played):
    hostile, _ = played
    writeup = hostile["week-01/m1.md"]
    for renderer, render_ in RENDERERS.items():
        text = "".join(_Elements(render_(writeup)).text)  # character references read
        for payload in PAYLOADS:
            assert payload in text, f"{renderer}: {payload!r} not shown as written"
        assert "gnp.exe" in text and BIDI not in text


def test_a_player_verifies_the_published_results_with_hostile_names(hostile_fed):
    # fedtool verify --published finds each replay's headline in card.md, where it is escaped
    result = CliRunner().invoke(cli, ["verify", "1", "--published", str(hostile_fed / "outbox/week-01"), "--fed", str(hostile_fed)])
    assert result.exit_code == 0, result.output
    assert "does not give the replay's result" not in result.output


def test_markdown_escapes_are_the_documented_ones(played):
    hostile, _ = played
    card = hostile["week-01/card.md"]
    assert "1. **Friendly Sam \\# Heading def. &lt;svg onload=alert(1)> Brother Bob (by disqualification, round 3)**" in card
    # names at a line's start: a heading, a thematic break, raw HTML if not escaped
    assert " \\# Heading The Rulebook Rivals takes the round, 19 to 18 (by 1). 1 damage to \\`\\`\\` Heavy Industry's Weight" in hostile["week-02/m1.md"]
    assert "\n\\--- The Warden moves to space 3 (+1, Grudge). `[0-3]`\n" in hostile["week-03/m3.md"]
    assert " &lt;script>alert(1)&lt;/script> Dr. Victor Vane takes the round, 17 to 14 (by 3)." in hostile["week-01/m4.md"]
    writeup = hostile["week-01/m1.md"]  # an explanation: each line escaped, in the quote
    assert "\n> &lt;script>alert(1)&lt;/script>\n> &lt;img src=x onerror=alert(1)>\n> &lt;svg onload=alert(1)>\n" in writeup
    assert "\n> \\[click\\](javascript&#58;alert(1))\n> &lt;javascript&#58;alert(1)>\n" in writeup
    assert "\n> \\# Heading\n> \\*\\*bold\\*\\*\n> &#124; a &#124; b &#124;\n> \\`\\`\\`\n> \\---\n> !\\[img\\](http&#58;//x/y.png)\n" in writeup
    assert "\n> &#124;---&#124;---&#124;\n> 1\\. one\n> \\- item\n> \\> quote\n> code\n> Setext\n> &#61;==\n> file gnp.exe\n" in writeup


# ---------------------------------------------------------------- the escapers


def test_markdown_escapes_only_what_could_start_markdown():
    assert md_escape("no_show_limit __init__ _x_ a*b*c") == "no_show_limit \\_\\_init\\_\\_ \\_x\\_ a\\*b\\*c"
    assert md_escape("-7, 1.5 points, 10:30 (so-so) - what?!") == "-7, 1.5 points, 10:30 (so-so) - what?!"
    assert md_escape("- a\n+ b\n1. c\n12) d\n> e\n=\n: f\n!!! g") == "\\- a\n\\+ b\n1\\. c\n12\\) d\n\\> e\n&#61;\n&#58; f\n\\!!! g"
    assert md_escape("Smith & Wesson &amp; &#60; a&") == "Smith & Wesson &amp;amp; &amp;\\#60; a&amp;"
    assert md_escape("  indented\r\nCR LF\u2028line\tsep  ") == "indented\nCR LF\nline\tsep"


def test_a_macro_or_a_parent_block_is_escaped_once(tmp_path):
    (tmp_path / "parent.md.j2").write_text("{% block footer %}[{{ who }}]{% endblock %}\n", encoding="utf-8")
    (tmp_path / "child.md.j2").write_text('{% extends "parent.md.j2" %}{% macro bold(x) %}**{{ x }}**{% endmacro %}'
                                          "{% block footer %}{{ super() }} {{ bold(who) }} {% set kept %}<{{ who }}>{% endset %}{{ kept }}{% endblock %}\n",
                                          encoding="utf-8")
    assert render(environment(tmp_path), "child.md.j2", who="*a* <b>") == "[\\*a\\* &lt;b>] **\\*a\\* &lt;b>** <\\*a\\* &lt;b>>"


def _visible(rendered: str) -> str:
    return " ".join("".join(_Elements(rendered).text).split())  # character references read


def _tags(rendered: str) -> set[str]:
    return {tag for tag, _ in _Elements(rendered).elements}


MARKDOWNISH = st.text(alphabet=st.one_of(st.sampled_from(string.punctuation + " \t\n\r" + "0123456789aZ" + BIDI + "\x00\x1b\u2028"),
                                         st.characters(codec="utf-8")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(MARKDOWNISH)
def test_any_text_markdown_escaped_renders_as_that_text(text):
    escaped = md_escape(text)
    for renderer, render_ in RENDERERS.items():
        rendered = render_(escaped)
        assert _tags(rendered) <= {"p", "br"}, (renderer, escaped, rendered)
        assert _visible(rendered) == " ".join(plain_text(text).split()), (renderer, escaped, rendered)
    assert md_escape(escaped) is escaped  # escaping twice changes nothing


@settings(max_examples=200, deadline=None)
@given(MARKDOWNISH)
def test_any_text_as_a_code_span_or_block_is_shown_exactly(text):
    content = one_line(text)
    span = COMMONMARK.render("x " + md_code(text))
    assert _tags(span) == ({"p", "code"} if content else {"p"}), span
    assert html.unescape(re.sub(r"</?p>\n?|</?code>", "", span)) == ("x " + content if content else "x")
    block = md_fence(text)
    want = plain_text(text) + ("\n" if plain_text(text) and not plain_text(text).endswith("\n") else "")
    rendered = COMMONMARK.render(block)
    assert html.unescape(re.fullmatch(r"<pre><code>(.*)</code></pre>\n", rendered, re.S).group(1)) == want
    rendered = markdown.markdown(block, extensions=["fenced_code"])  # it makes tabs spaces, blank lines empty
    assert " ".join(html.unescape(re.fullmatch(r"<pre><code>(.*)</code></pre>", rendered, re.S).group(1)).split()) == " ".join(want.split())


@settings(max_examples=200, deadline=None)
@given(MARKDOWNISH)
def test_any_text_in_a_folded_dice_log_makes_no_element(text):
    # as the writeup templates fold the dice log: raw HTML around a fenced block
    folded = f"<details><summary>Dice log</summary>\n\n{md_fence(text, in_html=True)}\n\n</details>\n"
    for renderer, render_ in RENDERERS.items():
        rendered = render_(folded)
        assert _tags(rendered) <= {"details", "summary", "pre", "code", "p"}, (renderer, rendered)
        shown = "".join(_Elements(rendered).text)  # what a browser shows (references read)
        if renderer == "Python-Markdown":  # raw HTML there: the references are read, the text is shown
            assert " ".join(plain_text(text).split()) in " ".join(shown.split()), (renderer, rendered)


@given(MARKDOWNISH)
def test_plain_text_keeps_no_control_or_bidi_character(text):
    cleaned = plain_text(text)
    assert all(ch in "\n\t" or unicodedata.category(ch) != "Cc" for ch in cleaned)
    assert not set(cleaned) & {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"}
    assert "\r" not in cleaned and "\u2028" not in one_line(text) and "\n" not in one_line(text)
    assert plain_text(cleaned) == cleaned


def test_a_mail_keeps_its_parts_whatever_their_lines_hold():
    boundary = "=_fedtool_" + __import__("hashlib").sha256(b"<1@x.example>").hexdigest()[:24]
    text = f"line\n--{boundary}\nContent-Type: text/html\n\n<script>x</script>\n--{boundary}--\n\u202eevil\x07"
    message = make_email("fed@x.example", "Bob\r\nBcc: all@x.example \u202e", "bob@x.example", "Week 1\r\nBcc: all@x.example",
                         text, "<p>ok</p>", "<1@x.example>")
    back = email.message_from_bytes(message.as_bytes(), policy=policy.default)
    assert [p.get_content_type() for p in back.walk()] == ["multipart/alternative", "text/plain", "text/html"]
    assert back.get_body(("plain",)).get_content() == f"line\n--{boundary}\nContent-Type: text/html\n\n<script>x</script>\n--{boundary}--\nevil\n"
    assert back.get_body(("html",)).get_content() == "<p>ok</p>\n"
    assert back["Subject"] == "Week 1 Bcc: all@x.example" and back["Bcc"] is None
    assert back["To"].addresses[0].display_name == "Bob Bcc: all@x.example" and back["To"].addresses[0].addr_spec == "bob@x.example"


# ---------------------------------------------------------------- the sandbox

ATTACKS = [
    "{{ cycler.__init__.__globals__.os.popen('cat /etc/passwd').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ lipsum.__globals__['os'].popen('id').read() }}",
    "{{ '{0.__class__.__mro__}'.format(fed_name) }}",
    "{{ fed_name.__class__.__base__.__subclasses__() }}",
    "{% for m in matches %}{{ m.items.__self__ }}{% endfor %}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ matches.append(1) }}",
    "{{ matches.clear() }}",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_template_cannot_reach_python(tmp_path, attack):
    (tmp_path / "card.md.j2").write_text(f"# card\nline two\n{attack}\n", encoding="utf-8")
    with pytest.raises(FedError) as refused:
        render(environment(tmp_path), "card.md.j2", fed_name="DCW", matches=[{"id": "m1"}])
    problem = refused.value.problems[0]
    assert problem.file.endswith("card.md.j2") and problem.place == "line 3"
    assert "may not do" in problem.message and problem.rule == "writeup templates: sandbox"


def test_a_sandboxed_card_template_stops_the_run_and_nothing_is_written(demo_fed):
    from conftest import snapshot

    (demo_fed / "templates/card.md.j2").write_text("{{ cycler.__init__.__globals__.os.popen('cat /etc/passwd').read() }}\n", encoding="utf-8")
    before = snapshot(demo_fed)
    result = CliRunner().invoke(cli, ["run", "1", "--fed", str(demo_fed)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "templates/card.md.j2, line 1: the template tried something templates may not do" in result.stderr
    assert "root:" not in result.output
    assert snapshot(demo_fed) == before


def test_the_site_builds_with_the_sandbox(demo_fed):
    _fedtool("run", "1", "--fed", demo_fed)
    (demo_fed / "templates/site").mkdir()
    (demo_fed / "templates/site/home.html.j2").write_text("<p>{{ ''.__class__.__mro__[1].__subclasses__() }}</p>\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["site", "--fed", str(demo_fed)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "templates/site/home.html.j2, line 1: the template tried something templates may not do" in result.stderr
    assert not (demo_fed / "outbox/site").exists()


def test_a_rerun_s_correction_note_escapes_the_names(demo_fed):
    sheet = demo_fed / "rosters/brother-bob.yaml"
    data = yaml.safe_load(sheet.read_text(encoding="utf-8"))
    data["name"] = "<img src=x onerror=alert(1)> Brother Bob"
    sheet.write_text(yaml.safe_dump(data), encoding="utf-8")
    _fedtool("run", "1", "--fed", demo_fed)
    _fedtool("run", "1", "--rerun", "--fed", demo_fed)
    mail = email.message_from_bytes((demo_fed / "outbox/week-01/mail/bob-players-example.eml").read_bytes(), policy=policy.default)
    text = mail.get_body(("plain",)).get_content()
    # the plain part is text, shown as it is: the name as the player wrote it, never escaped
    assert "- m1 (<img src=x onerror=alert(1)> Brother Bob vs. Friendly Sam): no change" in text
    html = mail.get_body(("html",)).get_content()
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt; Brother Bob vs. Friendly Sam" in html


def test_a_fed_template_that_is_no_text_file_is_refused_by_name(demo_fed):
    """The fed's templates are read through the guard every file read goes through: a pipe
    named like a template is refused at once (never waited on), a NUL byte with its line."""
    import os

    (demo_fed / "templates/card.md.j2").unlink(missing_ok=True)
    os.mkfifo(demo_fed / "templates/card.md.j2")
    result = CliRunner().invoke(cli, ["run", "1", "--fed", str(demo_fed)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error: templates/card.md.j2: is not a regular file (a device, a pipe or a socket): fedtool reads only files\n" == result.stderr
    os.unlink(demo_fed / "templates/card.md.j2")
    (demo_fed / "templates/card.md.j2").write_bytes(b"# card\n\x00\n")
    result = CliRunner().invoke(cli, ["run", "1", "--fed", str(demo_fed)])
    assert result.exit_code == 1 and "templates/card.md.j2, line 2: a NUL byte" in result.stderr, result.stderr
    assert not (demo_fed / "outbox/week-01").exists()
