"""The run's rendering made with less work (issue 18, item 1: `fedtool run 1` under 0.25 s),
the same bytes: a template's read of a plain dict's key taken at once, `md_escape`'s quiet
text given back in one match, each writeup's HTML read into events once per process for
every mail that carries it, an open block found without a generator, and a staged
folder's subfolders made once. Each shortcut is compared with the long way it replaces,
and a demo run with every shortcut undone writes the same outbox and league."""

from __future__ import annotations

import shutil
import sqlite3
import string
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st
from jinja2 import StrictUndefined, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from fedtool.fed import files, mailtext, render
from fedtool.fed.render import MarkdownText, _md_escape, md_escape
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
import fedtool.week.run as run_module
from fedtool.week.run import run_week

def _old_md_escape(text) -> MarkdownText:
    """md_escape as it was: Markdown left alone, anything else escaped line by line."""
    if isinstance(text, MarkdownText):
        return text
    return _md_escape(text)


_SPECIAL = list("\\`*[]{}#_<|~&:=+->!.)( \t\n\r0123456789") + ["\x00", "\x1b", "\x85", "\u2028", "\u202e", "\u200e", "é", "★", "\u00a0", "a", "Z"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_SPECIAL), st.text(string.ascii_letters + " ", max_size=4)), max_size=10).map("".join))
@example("Kate \"The Gate\" Galloway")
@example("")
@example(" lead")
@example("trail ")
@example("1. first")
@example("-x")
@example("a:b")
@example("snake_case")
@example("!!! note")
def test_md_escape_gives_what_the_long_way_gives(text: str) -> None:
    fast = md_escape(text)
    assert fast == _old_md_escape(text) and type(fast) is MarkdownText
    assert md_escape(MarkdownText(text)) == text  # Markdown made on purpose is left alone


@given(st.integers())
def test_md_escape_of_a_number_is_its_digits(number: int) -> None:
    assert md_escape(number) == _old_md_escape(number) == str(number)
    assert md_escape(True) == _old_md_escape(True) == "True"


def test_a_quiet_name_takes_no_line_by_line_escape(monkeypatch) -> None:
    """The shortcut is taken (the long way is never asked) for a plain name and a number."""
    def refuse(line):
        raise AssertionError("escaped line by line")

    monkeypatch.setattr(render, "_md_line", refuse)
    assert md_escape("Dr. Victor Vane") == "Dr. Victor Vane"
    assert md_escape('Kate "The Gate" Galloway') == 'Kate "The Gate" Galloway'
    assert md_escape(17) == "17"
    with pytest.raises(AssertionError):
        md_escape("snake_case")


_KEYS = sorted(dir(dict)) + ["headline", "name", "x", "_private", "__secret", "mro", "__globals__", "format", "1"]


def _answer(value):
    """What a getattr answered, comparable: an undefined by its kind, name and hint."""
    if isinstance(value, Undefined):
        return ("undefined", type(value), value._undefined_name, value._undefined_hint)
    if callable(value):
        return ("callable", getattr(value, "__name__", None), getattr(value, "__self__", None) is not None)
    return ("value", value)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYS), st.one_of(st.integers(), st.text(max_size=3)), max_size=6), st.sampled_from(_KEYS))
def test_the_fed_sandbox_reads_a_dict_as_jinjas_sandbox_does(data: dict, attribute: str) -> None:
    fed = render.FedSandbox(undefined=StrictUndefined)
    theirs = ImmutableSandboxedEnvironment(undefined=StrictUndefined)
    assert _answer(fed.getattr(data, attribute)) == _answer(theirs.getattr(data, attribute))
    holder = type("Holder", (), {"headline": "h"})()  # not a plain dict: the sandbox's own way
    assert _answer(fed.getattr(holder, attribute)) == _answer(theirs.getattr(holder, attribute))


@pytest.mark.parametrize("source", ["{{ d.headline }}", "{{ d.items() | list | length }}", "{{ d.get('headline') }}", "{{ d.missing }}",
                                    "{{ d.__class__ }}", "{{ d.__class__.__mro__ }}", "{{ d.update({'a': 1}) }}", "{{ d.pop('headline') }}"])
def test_a_template_reading_a_dict_renders_or_fails_as_in_jinjas_sandbox(tmp_path: Path, source: str) -> None:
    """The fed's sandbox is jinja's: a dict's methods that change it, and Python's insides,
    are refused as before."""
    (tmp_path / "t.html.j2").write_text(source)
    env = render.environment(tmp_path)

    def rendered(environment):
        try:
            return render.render(environment, "t.html.j2", d={"headline": "H"})
        except FedError as exc:
            return ("refused", exc.problems[0].message)

    ours = rendered(env)
    render.FedSandbox.getattr = ImmutableSandboxedEnvironment.getattr  # type: ignore[method-assign]
    try:
        theirs = rendered(render.environment(tmp_path))
    finally:
        del render.FedSandbox.getattr
    assert ours == theirs
    if "__" in source or "update" in source or "pop" in source or "missing" in source:
        assert isinstance(ours, tuple)  # refused, as ever


# ---------------------------------------------------------------- a page's events by pieces

_WORDS = st.sampled_from(["Bob", " ", "\n", "a &amp; b", "&lt;x&gt;", "&#9733;", "&amp", "x&y", "1 > 0", "Relámpago", "<br>", "<p>", "</p>",
                          '<p class="explanation">', "</li>", "<ul><li>", "<!-- c -->", "<", "&"])
_ARTICLE = st.sampled_from(['<article class="match" id="m1">', "<article>", '<article id="x">'])


@st.composite
def _page(draw) -> str:
    parts = [draw(st.sampled_from(["", "<!DOCTYPE html>\n<html><head><style>p > a {}</style></head><body>\n",
                                   "<style>a <article> b</style>", "<style>x <article id=\"s\">", "<script>if (a < b) {}</script>"]))]
    for _ in range(draw(st.integers(0, 5))):
        parts.append(draw(_ARTICLE) + "".join(draw(st.lists(_WORDS, max_size=6))) + draw(st.sampled_from(["</article>", "", "</article>\n"])))
        parts.append(draw(st.sampled_from(["", "\n", "<h2>The matches</h2>\n", "text &amp", "</article>", "<style>q</article></style>"])))
    parts.append(draw(st.sampled_from(["", "</body></html>\n", "<footer><p>f</p></footer>"])))
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(_page())
@example('<style>x <article id="s"></style><article>a</article>')
@example('<style>x <article id="s"><article>a</article>')
@example('<article>a</article><article>b</article>tail<style>y</article></style>')
@example('<style>a </article> b</style><article>c</article>')
def test_a_page_read_in_pieces_gives_the_whole_pages_events(page: str) -> None:
    mailtext._PIECES.clear()
    assert mailtext._page_events(page) == mailtext._events(page)
    assert mailtext._page_events(page) == mailtext._events(page)  # again, the pieces kept


def _demo_run(fed: Path) -> tuple[dict[str, bytes], list[str]]:
    import datetime

    run_week(Fed.load(fed), 1, now=datetime.datetime(2026, 1, 4, 12, 0, tzinfo=datetime.timezone.utc))
    root = fed / "outbox"
    outbox = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    connection = sqlite3.connect(fed / "fed.db")
    try:
        league = [line for line in connection.iterdump() if "_sqlite_migrations" not in line]
    finally:
        connection.close()
    return outbox, league


def test_each_writeup_is_read_into_events_once_for_every_mail_that_carries_it(demo_fed: Path, monkeypatch) -> None:
    """The demo's card mail carries all five writeups and each player's mail his own: each
    writeup's HTML is read once, not once per mail."""
    mailtext._PIECES.clear()
    read: Counter = Counter()
    events = mailtext._events
    monkeypatch.setattr(mailtext, "_events", lambda html: read.update([html]) or events(html))
    _demo_run(demo_fed)
    writeups = [html for html in read if html.startswith("<article")]
    assert len(writeups) == 5 and all(read[html] == 1 for html in writeups)


def test_a_run_with_every_shortcut_undone_writes_the_same_outbox_and_league(demo_fed: Path, tmp_path: Path, monkeypatch) -> None:
    other = tmp_path / "long-way"
    shutil.copytree(demo_fed, other)
    mailtext._PIECES.clear()
    fast = _demo_run(demo_fed)
    with monkeypatch.context() as patch:
        patch.setattr(render.FedSandbox, "getattr", ImmutableSandboxedEnvironment.getattr)
        patch.setattr(render, "md_escape", _old_md_escape)
        patch.setattr(mailtext, "_page_events", mailtext._events)
        patch.setattr(mailtext._Reader, "_open", lambda self, tag: any(b.tag == tag for b in self.stack[1:]))
        environment = run_module._environment

        def reloading(fed, card):  # each template looked for on disk at each render, as before
            env = environment(fed, card)
            env.auto_reload = True
            return env

        patch.setattr(run_module, "_environment", reloading)
        long_way = _demo_run(other)
    assert fast[0] == long_way[0] and len(fast[0]) >= 20
    assert fast[1] == long_way[1]


def test_a_run_does_not_look_for_its_templates_on_disk_again(demo_fed: Path, monkeypatch) -> None:
    """A template loaded for a run is not checked on disk at its next render (its source's
    up-to-date check is never asked), as in the site's build."""
    from jinja2 import FileSystemLoader

    asked = Counter()
    source = FileSystemLoader.get_source

    def counted(self, environment, template):
        text, filename, uptodate = source(self, environment, template)
        return text, filename, lambda: asked.update([template]) or uptodate()

    monkeypatch.setattr(FileSystemLoader, "get_source", counted)
    monkeypatch.setattr(render.FedTemplates, "get_source", counted)  # the fed's own (a FileSystemLoader too)
    _demo_run(demo_fed)
    assert not asked


# ---------------------------------------------------------------- the reader's open blocks

_TAGS = ["p", "div", "ul", "ol", "li", "blockquote", "h2", "section", "details", "summary", "pre", "em", "table", "tr", "td"]


@st.composite
def _nested(draw, depth: int = 0) -> str:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 5))
        if kind <= 1:
            out.append(draw(st.sampled_from(["word", " ", "\n", "a &amp; b"])))
        elif kind == 2:
            out.append(f"</{draw(st.sampled_from(_TAGS))}>")  # a stray end tag
        elif depth < 4:
            tag = draw(st.sampled_from(_TAGS))
            out.append(f"<{tag}>{draw(_nested(depth + 1))}" + (f"</{tag}>" if draw(st.booleans()) else ""))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(_nested())
def test_an_open_block_is_found_as_the_generator_found_it(html: str) -> None:
    ours = mailtext.mail_text(html)
    opened = mailtext._Reader._open
    mailtext._Reader._open = lambda self, tag: any(b.tag == tag for b in self.stack[1:])  # type: ignore[method-assign]
    try:
        assert ours == mailtext.mail_text(html)
    finally:
        mailtext._Reader._open = opened  # type: ignore[method-assign]


# ---------------------------------------------------------------- staged folders


def test_the_league_commits_only_once_the_staged_outbox_is_on_disk(demo_fed: Path, monkeypatch) -> None:
    """The outbox is flushed while the league's rows are made, but every file and folder of
    it is on disk before the league holds the week (the league's commit decides the run)."""
    import os
    import threading
    import time

    flushed: list[tuple[str, list]] = []
    lock = threading.Lock()
    league = Fed.load(demo_fed).database
    fsync = os.fsync

    def recording(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if ".week-01.new-" not in path:
            return fsync(fd)
        time.sleep(0.02)  # a slow disk: a flush nobody waits for would end after the commit
        fsync(fd)
        weeks = []  # a demo's league is made by its first run's commit
        if league.exists() and league.stat().st_size:
            connection = sqlite3.connect(f"file:{league}?mode=ro", uri=True, timeout=30)  # another reader, as after a power cut
            try:
                weeks = [row[0] for row in connection.execute("SELECT week FROM weeks")]
            finally:
                connection.close()
        with lock:
            flushed.append((path, weeks))

    monkeypatch.setattr(os, "fsync", recording)
    outbox, _ = _demo_run(demo_fed)
    staged = flushed
    assert len({path for path, _ in staged}) >= len(outbox)  # every file, and its folders
    assert all(weeks == [] for _, weeks in staged)  # none flushed after the league held the run
    assert [row[0] for row in sqlite3.connect(league).execute("SELECT week FROM weeks")] == [1]


def test_a_flush_left_running_is_waited_for_before_the_staging_is_dropped(tmp_path: Path, monkeypatch) -> None:
    """A failure after `flush` started and before `seal`: the flushes end before the staging
    folder is removed, and the old folder stays."""
    final = tmp_path / "outbox" / "week-01"
    final.mkdir(parents=True)
    (final / "old.txt").write_text("old")
    waited = []
    start = files._start_sync

    def watched(paths, own=False):
        wait = start(paths, own)
        return lambda: waited.append(len(paths)) or wait()

    monkeypatch.setattr(files, "_start_sync", watched)
    with pytest.raises(RuntimeError):
        with files.StagedDir(final, tag="run1") as stage:
            for n in range(10):
                stage.write(f"m{n}.md", "x")
            stage.flush()
            raise RuntimeError("the league refused the rows")
    assert waited == [11]  # ten files and the staging folder, waited for
    assert [p.name for p in final.parent.iterdir()] == ["week-01"] and (final / "old.txt").read_text() == "old"



def test_a_staged_folder_makes_each_subfolder_it_writes_into(tmp_path: Path) -> None:
    """Folders are made once each, and a new one under a folder made before is made too."""
    final = tmp_path / "out"
    with files.StagedDir(final) as stage:
        for name, text in [("a.txt", "1"), ("mail/x.eml", "2"), ("mail/y.eml", "3"), ("mail/deep/z.eml", "4"), ("other/w.txt", "5\n")]:
            stage.write(name, text)
        stage.swap()
    got = {str(p.relative_to(final)): p.read_text(encoding="utf-8") for p in final.rglob("*") if p.is_file()}
    assert got == {"a.txt": "1", "mail/x.eml": "2", "mail/y.eml": "3", "mail/deep/z.eml": "4", "other/w.txt": "5\n"}
