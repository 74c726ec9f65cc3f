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


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(folder))
    checked._FOLDERS.clear()
    yield folder
    checked._FOLDERS.clear()


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
    """The entry holds places and lines only: no letter, digit or sign of the file's values
    (the address, the password, the plan, the numbers) but the form's own markers."""
    parse_yaml(SHEET, "f.yaml", keep=True)
    [entry] = entries(cache)
    saved = json.loads(entry.read_text())
    form = json.dumps(saved["form"])
    for secret in ("secret", "hunter2", "example.com", "Brawling", "quarters", "O'Hara", "1.5", "yes", "off"):
        assert secret not in entry.read_text()
    words = {w for w in "".join(c if c.isalpha() else " " for c in form).split()}
    assert words <= {"yaml", "m", "s", "t", "i", "f", "b", "null"}


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
    entry.write_text(json.dumps({"sum": checked._sum(damage), "form": damage}))
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)
    entry.write_text(json.dumps({"sum": "0" * 64, "form": {"yaml": [0, 1]}}))  # "a" for the whole file, if it were believed
    assert_same(parse_yaml(text, "f.yaml", keep=True), plain)


def test_the_cache_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    checked._FOLDERS.clear()
    try:
        plain, first, second = kept_and_rebuilt(SHEET)
        assert_same(plain, second)
    finally:
        checked._FOLDERS.clear()


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
    assert len(entries(cache)) == before + 1 or (before and checked.recall(checked.digest("yaml", text), plain=True))
    assert_same(plain, second)
