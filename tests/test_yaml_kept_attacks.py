"""A review of the kept YAML parse (fedtool.kernel.yamlio, "a parse kept as its shape";
fedtool.kernel.checked): the cache as an accident or attack surface, the cost of keeping a
player's text, odd YAML of every kind read kept and not kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fedtool.kernel import checked, yamlio
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import parse_yaml
from test_yaml_kept import assert_same, entries, lines_of

ROOT = Path(__file__).resolve().parent.parent


def test_an_entry_nested_deeper_than_python_reads_is_no_entry(cache):
    """A damaged entry is no entry (the lead's test_a_damaged_entry_is_no_entry), however deep
    its JSON nests: json.loads raises RecursionError on it, which the command met as a crash."""
    text = "a: [b, c]\n"
    plain = parse_yaml(text, "f.yaml")
    parse_yaml(text, "f.yaml", keep=True)
    [entry] = entries(cache)
    entry.write_text("[" * 100_000 + "]" * 100_000)
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)


def test_an_entry_that_is_a_link_to_another_entry_is_not_believed(cache):
    """`remember` writes entries as files, never links: a link where an entry should be (to
    another text's entry, good checksum and all) is no entry, not that text's shape laid on
    this one (which read "a: xyz" as {"a:": "y"})."""
    parse_yaml("bb: q\n", "f.yaml", keep=True)
    [other] = entries(cache)
    text = "a: xyz\n"
    link = other.parent / (checked.digest("yaml", text) + ".json")
    link.symlink_to(other.name)
    assert_same(parse_yaml(text, "f.yaml", keep=True), parse_yaml(text, "f.yaml"))


def test_an_entry_that_is_a_pipe_is_passed_over_not_waited_on(tmp_path):
    """A pipe where an entry should be: opening it waited for a writer for ever (the command
    hung). Run in a process of its own, so that a hang fails the test rather than the suite."""
    cache = tmp_path / "cache"
    script = f"""
import os, sys
from fedtool.kernel import checked
from fedtool.kernel.yamlio import parse_yaml
text = "a: [b, c]\\n"
parse_yaml(text, "f.yaml", keep=True)
[entry] = [os.path.join(d, n) for d, _, names in os.walk({str(cache)!r}) for n in names if n.endswith(".json")]
os.unlink(entry)
os.mkfifo(entry)
print(parse_yaml(text, "f.yaml", keep=True) == parse_yaml(text, "f.yaml"))
"""
    env = {**os.environ, "FEDTOOL_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("a pipe where an entry should be: the read waited for a writer")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


class _Searched(str):
    """A text that counts how many characters `find` looked at (to the one found, or to the end)."""

    searched = 0

    def find(self, sub, start=None, end=None):  # type: ignore[override]
        found = str.find(self, sub, start, end)
        _Searched.searched += (found + len(sub) if found >= 0 else len(self) if end is None else end) - (start or 0)
        return found


def test_keeping_a_scalar_folded_over_many_lines_does_not_search_the_rest_of_it_for_each_fold():
    """A plain scalar folded over lines that hold no blank ("x\\nx\\n...": the value
    "x x x ...", a strategy a player may mail): each fold's blank was looked for to the
    scalar's end, so keeping it cost the square of its length (an 800 KB text: 8 s to keep,
    0.13 s to parse). It is looked for near where the text is: the work is linear."""
    lines = 20_000
    text = _Searched("x\n" * lines)
    value = " ".join(["x"] * lines)
    _Searched.searched = 0
    pieces = yamlio._pieces(value, 0, len(text) - 1, text)
    assert "".join(text[p[0]:p[1]] if isinstance(p, list) else p for p in pieces) == value
    assert _Searched.searched <= 300 * len(value)  # a blank looked for 256 characters ahead at most (it was about lines * len(text): 400 million)


def test_a_scalar_folded_over_lines_is_kept_and_rebuilt(cache):
    for text in ("x\n" * 3000, "k: >\n" + "  word\n" * 3000, "k: a\n" + " b\n" * 3000, "- \"a\n\n  b   \n   c\"\n"):
        plain = parse_yaml(text, "f.yaml")
        first = parse_yaml(text, "f.yaml", keep=True)
        second = parse_yaml(text, "f.yaml", keep=True)
        assert_same(plain, first)
        assert_same(plain, second)


@pytest.fixture(params=["LibYAML", "PyYAML's own"])
def either_loader(request, monkeypatch):
    """fedtool's loader on LibYAML's parser, and on PyYAML's own (where LibYAML is missing)."""
    if request.param != "LibYAML":
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    yamlio.loader.cache_clear()
    yield request.param
    yamlio.loader.cache_clear()


def test_a_text_opening_with_a_byte_order_mark_is_kept(cache, monkeypatch, either_loader):
    """A sheet saved by an editor that writes a byte-order mark first: LibYAML skips the mark
    and counts the places after it, so every place was one off and the file was never kept
    (parsed, PyYAML imported, on every command). PyYAML's own reader counts the mark."""
    text = "\ufeffname: Señor Bob\nplan: [Brawling, 'a knee']\npush: 3\n"
    plain = parse_yaml(text, "f.yaml")
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)
    assert len(entries(cache)) == 1
    monkeypatch.setattr(yamlio, "_parsed", lambda *args: pytest.fail("parsed again"))
    second = parse_yaml(text, "f.yaml", keep=True)
    assert_same(second, plain)
    assert lines_of(second) == lines_of(plain)


# ---------------------------------------------------------------- odd YAML, hand-made pieces in any order

FRAGMENTS = [
    "a: 1\n", "b: [x, 'y', \"z\"]\n", "c: {d: e, f: [g]}\n", "? [complex]\n: key\n", "<<: {m: 1}\n", "h: !!str 12\n",
    "i: !!int '5'\n", "j: &anchor 3\n", "k: *anchor\n", "l: |\n  block\n   more\n\n", "m: >-\n  fold\n  ed\n", "n: \"esc \\\" \\\\ \\n\"\n",
    "o: 'it''s'\n", "p: plain\n  over lines\n", "q: 2020-02-30\n", "r: 0x1F\n", "s: 1_000\n", "t: .inf\n", "u: -0.0\n",
    "v: yes\n", "w: ON\n", "x: ~\n", "y:\n", "1: int key\n", "2.5: float key\n", "true: bool key\n", "null: null key\n",
    "z: 🎉 astral\n", "é: e\u0301 combining\n", "rtl: \u05e9\u05dc\u05d5\u05dd\n", "tab:\tvalue\n", "cr: x\r\n", "lone: x\ry: 1\n",
    "# a comment\n", "---\n", "...\n", "- item\n", "  - nested\n", "dup: 1\n", "dup: 2\n", "\ufeff", "long: " + "w" * 3000 + "\n",
    "bad: [\n", "key: value: more\n", "\t- tab indent\n", "quoted: \"a\n  b\"\n", "\"\\u00e9\": k\n", "!!set {a, b}\n", "%YAML 1.1\n---\n",
    "e: !!binary aGk=\n", "f: !!float 3\n", "g: !custom tag\n", "nan: .NaN\n", "octal: 017\n", "sexa: 1:30\n", "big: 123456789012345678901234567890\n",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8))
def test_odd_yaml_reads_the_same_kept_or_not(cache, parts):
    """Whatever the text (tags, anchors, merge keys, dates, CR, a byte-order mark, tabs,
    astral and combining characters, duplicate keys, several documents, broken ones): the
    read with nothing kept, the first keeping read and the next one give the same data, types,
    order and lines, or the same message."""
    text = "".join(parts)
    outcomes = []
    for keep in (False, True, True):
        try:
            data = parse_yaml(text, "f.yaml", keep=keep)
            outcomes.append(("data", data))
        except FedError as exc:
            outcomes.append(("error", str(exc)))
    kinds = {kind for kind, _ in outcomes}
    assert len(kinds) == 1, outcomes
    if kinds == {"error"}:
        assert outcomes[0] == outcomes[1] == outcomes[2]
    else:
        for _, data in outcomes[1:]:
            assert_same(outcomes[0][1], data)
            assert lines_of(data) == lines_of(outcomes[0][1])


# ---------------------------------------------------------------- whole commands on files edited between them


def test_a_week_run_on_files_edited_since_they_were_kept_writes_what_the_cache_off_writes(tmp_path):
    """Files kept by a first run, then edited in place keeping every place (a number for a
    number of the same width), or saved with Windows line ends and a byte-order mark: the run
    on them with the cache warm writes the outbox and the league a run with the cache off
    writes; the files restored, `status` too."""
    from test_startup_run import demo_copy, league_dump, outbox, run

    cache = tmp_path / "cache"
    first, warm, unchecked = (demo_copy(tmp_path / name) for name in ("first", "warm", "unchecked"))
    assert run(first, "run", "1", cache_dir=str(cache)).returncode == 0
    for fed in (warm, unchecked):
        sheet = fed / "rosters/brother-bob.yaml"
        sheet.write_text(sheet.read_text(encoding="utf-8").replace("Brawling: 7", "Brawling: 5").replace("stamina: 10", "stamina: 12"), encoding="utf-8")
        other = fed / "rosters/friendly-sam.yaml"
        other.write_bytes(b"\xef\xbb\xbf" + other.read_bytes().replace(b"\n", b"\r\n"))
    done = run(warm, "run", "1", cache_dir=str(cache))
    assert done.returncode == 0, done.stderr
    assert run(unchecked, "run", "1", cache_dir="").returncode == 0
    assert outbox(warm) == outbox(unchecked) and league_dump(warm) == league_dump(unchecked)
    for fed in (warm, unchecked):
        for name in ("brother-bob", "friendly-sam"):
            (fed / f"rosters/{name}.yaml").write_bytes((first / f"rosters/{name}.yaml").read_bytes())
    statuses = [run(warm, "status", cache_dir=str(cache)), run(unchecked, "status", cache_dir="")]
    assert statuses[0].returncode == 0 and (statuses[0].stdout, statuses[0].stderr) == (statuses[1].stdout, statuses[1].stderr)


def test_mail_intake_with_the_cache_warm_writes_what_the_cache_off_writes(tmp_path):
    """The same mails taken in three times: first with an empty cache (every strategy text
    kept), then with that cache warm, then with the cache off. The answers, the filed
    strategies and the outbox are the same, byte for byte (mail dates as the players' own)."""
    import datetime

    from test_inbox import mail, maildir
    from test_intake_cache import BOB, BOB_PLANS, SAM, sam_with
    from test_startup_run import demo_copy, outbox, run

    feds = {name: demo_copy(tmp_path / name) for name in ("first", "warm", "off")}
    date = datetime.datetime(2026, 9, 20, 12, tzinfo=datetime.timezone.utc)  # a day before the runs' clock (test_startup_run.CLOCK)
    mails = [
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-1@x>", date=date),
        mail(SAM, "Week 1 friendly-sam", sam_with(feds["first"], "Martial Arts, Technical"), message_id="<sam-1@x>", date=date),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# second\n", message_id="<bob-2@x>", date=date),
        mail(SAM, "Week 1 friendly-sam", "plus: [High-Flying\n", message_id="<sam-2@x>", date=date),  # broken: named every time
        mail(SAM, "Week 1 friendly-sam", "\ufeff" + sam_with(feds["first"], "High-Flying, Technical").replace("\n", "\r\n"), message_id="<sam-3@x>", date=date),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-3@x>", date=date),
    ]
    cache = tmp_path / "cache"
    done = {}
    for name, fed in feds.items():
        (tmp_path / f"box-{name}").mkdir()
        box = maildir(tmp_path / f"box-{name}", mails)
        done[name] = run(fed, "inbox", str(box), cache_dir="" if name == "off" else str(cache))
        assert done[name].returncode == 0, done[name].stderr
    assert len(list(cache.rglob("*.json"))) > 5
    assert done["off"].stdout.count("accepted") >= 3 and "refused" in done["off"].stdout, done["off"].stdout
    assert (done["warm"].stdout, done["warm"].stderr) == (done["off"].stdout, done["off"].stderr)
    assert outbox(feds["warm"]) == outbox(feds["off"]) and outbox(feds["warm"])
    filed = {name: {p.name: p.read_bytes() for p in (fed / "strategies/week-01").iterdir() if p.is_file()} for name, fed in feds.items()}
    assert filed["warm"] == filed["off"] == filed["first"]
