"""A file's YAML parsed once (issue 18: a week's run imports no YAML parser): what a parse of a
file built is kept in the user's cache as its shape and the places of its values in the text
(fedtool.kernel.yamlio, "a parse kept as its shape"), and the next read of the very same text
rebuilds it. The rebuild is the parse, value for value, type for type and line for line; the
cache holds nothing of the file's but places; a damaged entry is no entry."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fedtool.kernel import checked, yamlio
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import LineDict, LineList, load_yaml, parse_yaml


def entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


def kept_and_rebuilt(text: str):
    """The parse with nothing kept, the first keeping read and the second (rebuilt when kept)."""
    plain = parse_yaml(text, "f.yaml")
    first = parse_yaml(text, "f.yaml", keep=True)
    second = parse_yaml(text, "f.yaml", keep=True)
    return plain, first, second


def assert_same(one, other) -> None:
    assert yamlio._same(one, other), (one, other)
    assert repr(one) == repr(other)


def lines_of(data):
    if isinstance(data, LineDict):
        return [data.line, list(data.lines.items()), list(data.key_lines.items()), [lines_of(v) for v in data.values()]]
    if isinstance(data, LineList):
        return [data.line, data.lines, [lines_of(v) for v in data]]
    return type(data).__name__


SHEET = """# a sheet: its owner's address and a secret strategy
name: Brother Bob
owner: {name: 'Bob O''Hara', email: bob.secret@example.com}
password: "hunter2 \\"quoted\\""
notes: |
  Closed fists in the corner
  while the ref counts to four.
folded: >
  a running knee,
  then the steps
plan: [Brawling, 'Rakes the eyes, then a running knee.', "Sam's hair", a roll of quarters to
    the knee]
push: 3
ratio: 1.5
ready: yes
quiet: off
empty:
1: one
"""


def test_a_file_read_again_is_rebuilt_without_the_parser(cache, monkeypatch):
    plain, first, second = kept_and_rebuilt(SHEET)
    assert len(entries(cache)) == 1
    assert_same(plain, first)
    assert_same(plain, second)
    assert lines_of(second) == lines_of(plain)
    assert second["notes"] == "Closed fists in the corner\nwhile the ref counts to four.\n"
    assert second["folded"] == "a running knee, then the steps\n"
    assert second["plan"][2] == "Sam's hair" and second["plan"][3] == "a roll of quarters to the knee"
    assert (second["push"], second["ratio"], second["ready"], second["quiet"], second["empty"], second[1]) == (3, 1.5, True, False, None, "one")
    assert second.key_lines["notes"] == 5 and second.lines["notes"] == 5 and second["plan"].line == 11

    def no_parser(*args):
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlio, "_parsed", no_parser)
    assert_same(parse_yaml(SHEET, "f.yaml", keep=True), plain)
    with pytest.raises(AssertionError, match="parsed again"):
        parse_yaml(SHEET + "more: 1\n", "f.yaml", keep=True)  # another text: parsed


def test_what_is_kept_holds_no_value_of_the_file(cache):
    """The entry holds places and lines only, sealed by the file's own text: read without the
    file it says nothing (no value, no length: a text of the same shape and lengths but other
    values is kept as other bytes); read with it, it is the form the parse was kept as."""
    parse_yaml(SHEET, "f.yaml", keep=True)
    [entry] = entries(cache)
    written = entry.read_text()
    for secret in ("secret", "hunter2", "example.com", "Brawling", "quarters", "O'Hara", "1.5", "yes", "off", '"m"', '"t"'):
        assert secret not in written
    assert list(json.loads(written)) == ["sealed"]
    form = json.loads(checked._unsealed(written.encode(), yamlio.kept_key(SHEET).seal))
    assert yamlio._same(yamlio._rebuilt(form["yaml"], SHEET), parse_yaml(SHEET, "f.yaml"))
    words = {w for w in "".join(c if c.isalpha() else " " for c in json.dumps(form)).split()}
    assert words <= {"yaml", "m", "s", "t", "i", "f", "b", "null"}  # places and lines: no value of the file's
    other = SHEET.replace("hunter2", "swordf1").replace("Brother Bob", "Sister Sue!")  # the same shape and lengths
    assert len(other) == len(SHEET) and other != SHEET
    parse_yaml(other, "f.yaml", keep=True)
    [written_other] = [e.read_text() for e in entries(cache) if e != entry]
    assert json.loads(checked._unsealed(written_other.encode(), yamlio.kept_key(other).seal)) == form  # the same form...
    assert written_other != written  # ...written as other bytes
    with pytest.raises((ValueError, UnicodeDecodeError)):  # and not read with another text's seal
        json.loads(checked._unsealed(written.encode(), yamlio.kept_key(other).seal))


@pytest.mark.parametrize("text", [
    "a: 2020-01-01\n",  # a date: not kept
    "a: \"caf\\u00e9\"\n",  # a character the text does not hold
    "a: \"tab\\there\"\n",
    "a: .inf\n", "a: 0x1F\n", "a: 012\n", "a: 1:30\n",  # numbers YAML reads otherwise than Python
    "a: !!binary aGVsbG8=\n", "a: !!set {x, y}\n", "a: !!omap [x: 1]\n",
])
def test_a_parse_the_rebuild_would_not_give_back_is_not_kept(cache, text):
    plain, first, second = kept_and_rebuilt(text)
    assert entries(cache) == []
    assert_same(plain, second)


@pytest.mark.parametrize("text", [
    "", "# nothing\n", "just text", "- 1\n- - 2\n  - [3, {a: b}]\n", "? complex\n: key\n", "a: |+\n  kept\n\n\nb: 1\n",
    "a: |-\n  stripped\nb: >2\n   indented\n  more\n", "a: !!str 12\nb: !!int '5'\nc: !!float '2'\n", "'a b': \"c\\nd\"\n",
    "x: [a,\n  b,\n      c]\n", "k: plain scalar\n  over lines\n", "~: null\nTrue: y\n", "- -0.0\n- +5\n- 1_000\n- 1e3\n- 1.0e+3\n",
    "a: 'x''y''z'\n", "a: \"\\\\\"\n", "- é\n- 🎉\n- \"🎉\"\n", "a:\n- b\n-\n- ''\n",
])
def test_odd_yaml_is_the_parse_when_rebuilt(cache, text):
    plain, first, second = kept_and_rebuilt(text)
    assert_same(plain, first)
    assert_same(plain, second)
    assert lines_of(second) == lines_of(plain)


def test_a_broken_file_is_never_kept_and_named_every_time(cache):
    for _ in range(2):
        with pytest.raises(FedError, match=r"f\.yaml, line 3, column 1: broken YAML"):
            parse_yaml("a: 1\nb: [\n", "f.yaml", keep=True)
        with pytest.raises(FedError, match="appears twice"):
            parse_yaml("a: 1\na: 2\n", "f.yaml", keep=True)
    assert entries(cache) == []


@pytest.mark.parametrize("damage", [
    {"yaml": {"m": 5}}, {"yaml": {"s": [1, [[0, 1]]]}}, {"yaml": ["x", 0, 1]}, {"yaml": {"t": 5}}, {"other": 1}, [],
])
def test_a_damaged_entry_is_no_entry(cache, damage):
    """An entry of another shape (with a good checksum: written so) is passed over and the text
    parsed; an entry whose checksum fails is none."""
    text = "a: [b, c]\nd: 1\n"
    plain = parse_yaml(text, "f.yaml")
    parse_yaml(text, "f.yaml", keep=True)
    [entry] = entries(cache)
    seal = yamlio.kept_key(text).seal
    entry.write_text(checked._sealed(json.dumps(damage).encode(), seal))
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)
    good = checked._sealed(json.dumps({"yaml": [0, 1]}).encode(), seal)  # "a" for the whole file, if it were believed
    blob = json.loads(good)["sealed"]
    entry.write_text(json.dumps({"sealed": blob[:-8] + ("A" * 8 if blob[-8:] != "A" * 8 else "B" * 8)}))  # damaged: its sum fails
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)
    entry.write_text(json.dumps({"sum": checked._sum({"yaml": [0, 1]}), "form": {"yaml": [0, 1]}}))  # not sealed: not believed
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)
    entry.write_text(good)
    assert parse_yaml(text, "f.yaml", keep=True) == "a"  # the check above is not vacuous: a good seal is believed


def test_the_cache_off_keeps_nothing(tmp_path, monkeypatch):
    """FEDTOOL_CACHE_DIR set empty: every read parses, and nothing is written anywhere (the
    user's usual cache folders pointed into the test's folder, where an entry would land)."""
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    parses = []
    parse = yamlio._parsed
    monkeypatch.setattr(yamlio, "_parsed", lambda *args: parses.append(args) or parse(*args))
    checked._FOLDERS.clear()
    try:
        plain, first, second = kept_and_rebuilt(SHEET)
        assert_same(plain, second)
    finally:
        checked._FOLDERS.clear()
    assert len(parses) == 3
    assert list(tmp_path.rglob("*")) == []


def test_load_yaml_keeps(cache, tmp_path):
    path = tmp_path / "sheet.yaml"
    path.write_text(SHEET, encoding="utf-8")
    assert_same(load_yaml(path), parse_yaml(SHEET, "x"))
    assert len(entries(cache)) == 1
    assert_same(load_yaml(path), parse_yaml(SHEET, "x"))


# ---------------------------------------------------------------- any data, written every way PyYAML writes it

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
WORDS = st.text(string.ascii_letters + " ,.'-:#", max_size=40)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False), TEXT, WORDS)
KEYS = st.one_of(st.integers(-100, 100), TEXT, WORDS, st.booleans())
DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DATA, st.sampled_from([None, True, False]), st.sampled_from([None, "'", '"', "|", ">"]), st.integers(8, 120), st.booleans())
def test_any_data_written_any_way_is_rebuilt_as_parsed(cache, data, flow, style, width, unicode):
    text = yaml.safe_dump(data, default_flow_style=flow, default_style=style, width=width, allow_unicode=unicode, sort_keys=False)
    try:
        plain = parse_yaml(text, "f.yaml")
    except FedError:  # a key PyYAML writes that fedtool refuses to read back (1 and True both): nothing kept
        with pytest.raises(FedError):
            parse_yaml(text, "f.yaml", keep=True)
        return
    first = parse_yaml(text, "f.yaml", keep=True)
    second = parse_yaml(text, "f.yaml", keep=True)
    assert_same(plain, first)
    assert_same(plain, second)
    assert lines_of(second) == lines_of(plain)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.text(string.ascii_lowercase, min_size=1, max_size=8),
                       st.one_of(st.integers(-1000, 1000), WORDS.map(str.strip).filter(lambda w: w and not w[0] in "'-:#,."),
                                 st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=8), max_size=4)), max_size=8),
       st.sampled_from([None, True, False]))
def test_a_sheet_of_plain_words_and_numbers_is_kept(cache, data, flow):
    """What sheets, strategies and cards hold (names, words, numbers, lists of them) is kept,
    whatever the layout: the next read parses nothing."""
    text = yaml.safe_dump(data, default_flow_style=flow, sort_keys=False, width=60)
    before = len(entries(cache))
    plain, first, second = kept_and_rebuilt(text)
    assert len(entries(cache)) == before + 1 or (before and checked.recall(yamlio.kept_key(text), plain=True))
    assert_same(plain, second)


def test_nothing_is_kept_while_reading_once_and_keeping_resumes_after(cache):
    """`read_once()`: a text parsed within is not kept (`keep` or not), even when the block
    ends by an error; outside it, keeping is as before."""
    with yamlio.read_once():
        assert_same(parse_yaml(SHEET, "f.yaml", keep=True), parse_yaml(SHEET, "f.yaml"))
        with yamlio.read_once():
            parse_yaml("a: 1\n", "f.yaml", keep=True)
        parse_yaml("b: 1\n", "f.yaml", keep=True)
    assert entries(cache) == []
    with pytest.raises(FedError), yamlio.read_once():
        parse_yaml("a: [\n", "f.yaml", keep=True)
    parse_yaml(SHEET, "f.yaml", keep=True)
    assert len(entries(cache)) == 1


def test_mail_intake_keeps_no_parse_of_a_mailed_strategy_and_the_run_keeps_the_filed_file(cache, demo_fed, tmp_path):
    """A strategy mailed in is a text read once by intake: no entry is made for it (a 1,000-mail
    intake would make a thousand). The run, reading the filed file, keeps it."""
    from fedtool.fed.settings import Fed
    from fedtool.mail.intake import intake
    from fedtool.week.status import week_status
    from test_inbox import mail, maildir

    week = demo_fed / "strategies/week-01"
    text = (week / "brother-bob.yaml").read_text().replace("Closed fists in the corner", "Closed fists in the far corner")
    report = intake(Fed.load(demo_fed), maildir(tmp_path, [mail("bob@players.example", "Week 1 brother-bob", text, message_id="<new@x>")]))
    assert [o.verdict for o in report.outcomes] == ["accepted"], [p.read_text() for p in report.replies]
    filed = (week / "brother-bob.yaml").read_text()
    assert "Closed fists in the far corner" in filed
    assert checked.recall(yamlio.kept_key(filed), plain=True) is None
    from fedtool.rulesets.matchmatch import _parsed_yaml

    _parsed_yaml.cache_clear()  # the run in another process: nothing of intake's parses in memory
    week_status(Fed.load(demo_fed), 1)
    assert checked.recall(yamlio.kept_key(filed), plain=True) is not None
