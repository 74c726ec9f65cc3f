"""`fedtool run` without pydantic (issue 18: "`fedtool run 1` (the demo week) under 0.25 s";
"no models built ... at import"): the card, the sheets, the strategies and the settings a
good check found good are read back from what that check kept (fedtool.kernel.checked,
`validate` given its model by name), keyed by the data and the code; the run writes the
same outbox and league as a run that checks every file, and a broken file is named as it
always was."""

from __future__ import annotations

import datetime
import os
import sqlite3
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fedtool.kernel import checked
from fedtool.kernel.validation import validate
from fedtool.kernel.yamlio import load_yaml, parse_yaml
from golden import ROOT, demo_copy
from test_startup import modules_after, top

CLOCK = "1790000000"  # SOURCE_DATE_EPOCH: both runs at the same moment
MODELS = ("pydantic", "pydantic_core", "annotated_types", "typing_inspection", "email_validator")


def run(fed: Path, *args: str, cache_dir: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FEDTOOL_CACHE_DIR": cache_dir, "SOURCE_DATE_EPOCH": CLOCK}
    return subprocess.run([sys.executable, "-m", "fedtool", "--fed", str(fed), *args], capture_output=True, text=True, timeout=120, cwd=fed, env=env)


def league_dump(fed: Path) -> list[str]:
    """fed.db as SQL, less the time each migration was applied (the clock of the league's making)."""
    connection = sqlite3.connect(fed / "fed.db")
    try:
        return [line for line in connection.iterdump() if "_sqlite_migrations\" VALUES" not in line and "_sqlite_migrations VALUES" not in line]
    finally:
        connection.close()


def outbox(fed: Path) -> dict[str, bytes]:
    return {str(p.relative_to(fed)): p.read_bytes() for p in sorted((fed / "outbox").rglob("*")) if p.is_file()}


def test_a_run_on_files_checked_before_imports_no_pydantic_and_writes_what_checking_writes(tmp_path, monkeypatch):
    """A first run checks every file (pydantic) and keeps the verdicts and the files' parses;
    a run of another copy of the same fed then imports no pydantic, none of the models'
    modules and no YAML parser, and writes the outbox and the league byte for byte as a run
    with the cache off; weeks 2 and 3 too (every ruleset's files rebuilt from their kept
    parses)."""
    cache = tmp_path / "cache"
    first, warm, unchecked = (demo_copy(tmp_path / name) for name in ("first", "warm", "unchecked"))
    for week in ("1", "2", "3"):
        done = run(first, "run", week, cache_dir=str(cache))
        assert done.returncode == 0, done.stderr
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(cache))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", CLOCK)
    modules = modules_after("--fed", str(warm), "run", "1", cwd=warm)
    assert top(modules, MODELS) in ([], ["pydantic.plugin._loader"])  # at most fedtool.cli's stand-in for pydantic's plugin loader
    assert [m for m in modules if m.startswith("fedtool") and m.endswith(("models", "model"))] == []  # no card, sheet, strategy, settings model
    assert top(modules, ("yaml", "_yaml")) == []  # every file's parse rebuilt from what the first run kept (fedtool.kernel.yamlio)
    assert run(unchecked, "run", "1", cache_dir="").returncode == 0
    assert outbox(warm) == outbox(unchecked) and league_dump(warm) == league_dump(unchecked)
    for week in ("2", "3"):  # Mat Clash, Face to the Mat, Mad Match: their models by class, as before
        assert run(warm, "run", week, cache_dir=str(cache)).returncode == 0 and run(unchecked, "run", week, cache_dir="").returncode == 0
    assert outbox(warm) == outbox(unchecked) and league_dump(warm) == league_dump(unchecked)


def _replace(fed: Path, file: str, old: str, new: str) -> None:
    path = fed / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("file, old, new", [
    ("strategies/week-01/card.yaml", "title:", "surprise: 1\ntitle:"),  # the card's unknown field
    ("strategies/week-01/card.yaml", "sides:", "rounds: 0\n    sides:"),  # a match's rounds out of range
    ("strategies/week-01/brother-bob.yaml", "plus:", "wrestler: brother-bob\nwrestler_again: x\nplus:"),  # a strategy's unknown field
    ("rosters/brother-bob.yaml", "name: Brother Bob", "name: \"\""),  # a sheet's field
])
def test_a_file_broken_after_a_good_check_is_named_as_without_the_cache(tmp_path, file, old, new):
    """What was kept is kept for the data checked: a file changed since is checked again,
    and a broken one gives the checker's own message (file, line, rule), every time."""
    cache = tmp_path / "cache"
    kept, broken = demo_copy(tmp_path / "kept"), demo_copy(tmp_path / "broken")
    assert run(kept, "run", "1", cache_dir=str(cache)).returncode == 0
    _replace(broken, file, old, new)
    unchecked = run(broken, "run", "1", cache_dir="")
    assert unchecked.returncode == 1 and "error:" in unchecked.stderr and "line" in unchecked.stderr
    for _ in range(2):
        again = run(broken, "run", "1", cache_dir=str(cache))
        assert (again.returncode, again.stderr) == (1, unchecked.stderr)


@pytest.mark.parametrize("damage", ['{"model": [["name", {"same": true}]]}', '{"fraction": [1]}', "[]", "not json",
                                    '{"sum": "0", "form": {"model": []}}'])
def test_a_damaged_entry_is_no_entry(tmp_path, damage):
    """An entry damaged since a good check wrote it (by hand, a disk), whatever its shape, is
    as none: the files are checked, and the run writes what a run with the cache off writes."""
    cache = tmp_path / "cache"
    kept, damaged, unchecked = (demo_copy(tmp_path / name) for name in ("kept", "damaged", "unchecked"))
    assert run(kept, "run", "1", cache_dir=str(cache)).returncode == 0
    entries = list(cache.rglob("*.json"))
    assert len(entries) > 20  # the settings', the card's, each sheet's and strategy's
    for entry in entries:
        entry.write_text(damage, encoding="utf-8")
    done = run(damaged, "run", "1", cache_dir=str(cache))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert run(unchecked, "run", "1", cache_dir="").returncode == 0
    assert outbox(damaged) == outbox(unchecked) and league_dump(damaged) == league_dump(unchecked)


# ---------------------------------------------------------------- what is kept reads back as the model read


def plain(value):
    """A checked result's values with their types: a model (pydantic's, or `Kept`) as its fields."""
    if hasattr(type(value), "__pydantic_fields__") or isinstance(value, checked.Kept):
        return ("model", [(name, plain(item)) for name, item in value])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(plain(k), plain(v)) for k, v in value.items()])
    return (type(value).__name__, value)


def kept_and_read(name: str, data):
    """`validate` by name with the cache off (pydantic's result), and what the cache would
    give back for it: kept, written as JSON, read back against the same data."""
    import json

    result = validate(name, data, "file.yaml", "a rule")
    form = checked.decode(json.loads(json.dumps(checked.encode(checked.kept_form(result, data)))))
    return result, checked.from_kept(form, data)


DEMO_FILES = [("fedtool.fed.cardmodel:CardModel", "strategies/week-01/card.yaml"), ("fedtool.fed.models:Settings", "rosters/fed.yaml")]
DEMO_FILES += [("fedtool.rulesets.matchmatch.strategymodel:StrategyModel", f"strategies/week-01/{p.name}")
               for p in sorted((ROOT / "strategies/week-01").glob("*.yaml")) if p.name not in ("card.yaml", "opening.yaml")]
DEMO_FILES += [("fedtool.rulesets.matchmatch.sheetmodel:SheetModel", f"rosters/{p.name}") for p in sorted((ROOT / "rosters").glob("*.yaml"))
               if p.name != "fed.yaml" and (load_yaml(p) or {}).get("ruleset", "matchmatch") == "matchmatch" and "members" not in load_yaml(p)]


@pytest.mark.parametrize("name, file", DEMO_FILES)
def test_what_is_kept_of_a_demo_file_reads_back_as_the_model_read_it(name, file, monkeypatch):
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    data = load_yaml(ROOT / file)
    result, read = kept_and_read(name, data)
    assert plain(read) == plain(result)


def test_what_is_kept_holds_no_text_of_the_file(monkeypatch):
    """The secret, the addresses, the names: every text read from the file is kept as its
    place, never as itself (fedtool.kernel.checked's promise)."""
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    data = parse_yaml("name: Sekrit Fed\nsecret: '  hush-hush-hush '\nmail:\n  from_address: boss@fed.example\n"
                      "  reply_to: Replies@fed.example\ntitles:\n- {id: belt, name: The Belt}\n", "fed.yaml")
    result = validate("fedtool.fed.models:Settings", data, "fed.yaml", "fed settings")
    form = repr(checked.kept_form(result, data))
    assert not any(text in form for text in ("Sekrit", "hush", "boss@", "Replies", "The Belt", "belt"))
    assert checked.from_kept(checked.kept_form(result, data), data).secret == "hush-hush-hush"


def test_a_result_rewritten_by_its_check_is_not_kept(monkeypatch):
    """A value a validator rewrote (a `do_not_answer` address lowercased) is not the file's
    text at its place: such a result is not kept, and the file is checked every time."""
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    data = parse_yaml("name: Fed\nsecret: hush-hush-hush\nmail:\n  do_not_answer: [Abuse@ISP.example]\n", "fed.yaml")
    result = validate("fedtool.fed.models:Settings", data, "fed.yaml", "fed settings")
    assert result.mail.do_not_answer == ["abuse@isp.example"]
    with pytest.raises(checked.NotKept):
        checked.kept_form(result, data)


_TEXT = st.sampled_from(["", " ", "a", " Big Bout ", "m1", "bob", "\tx", "x\t", "é", "a b"])
_MATCH = st.fixed_dictionaries(
    {"sides": st.lists(st.sampled_from(["bob", "sam", " ann ", "joe"]), min_size=1, max_size=3, unique=True)},
    optional={"id": st.sampled_from(["m1", " m2", "x"]), "title": _TEXT, "rounds": st.one_of(st.integers(0, 3), st.just(20), st.just("7")),
              "ruleset": st.sampled_from(["matchmatch", " facemat "]), "for_title": st.sampled_from(["belt", " tag "]),
              "strategies": st.dictionaries(st.sampled_from(["bob", " sam "]), st.sampled_from(["a.yaml", " b.txt "]), max_size=2),
              "grid": st.one_of(st.just("A1"), st.lists(st.integers(1, 3), max_size=2), st.fixed_dictionaries({"x": _TEXT})),
              "notes": st.just(None)})
_CARD = st.fixed_dictionaries(
    {"matches": st.lists(_MATCH, min_size=0, max_size=3)},
    optional={"title": _TEXT, "week": st.one_of(st.integers(-1, 3), st.just(True)), "rounds": st.integers(0, 3), "notes": _TEXT,
              "deadline": st.one_of(st.just("2026-11-27 18:00"), st.just("2026-11-27T18:00:00+02:00"), st.just(datetime.date(2026, 2, 3)),
                                    st.just(datetime.datetime(2026, 1, 1, 9, 30)), st.just("2026-02-30 10:00"), st.just(" 2027-01-01 "))})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CARD)
def test_a_card_kept_reads_back_as_the_model_read_it(card):
    """Any card the model finds good, kept and read back: the same values of the same types
    (texts stripped, defaults, extra fields, nested models, dates); and the key is the data's."""
    import yaml

    from fedtool.kernel.errors import FedError

    data = parse_yaml(yaml.safe_dump(card), "card.yaml")
    os.environ["FEDTOOL_CACHE_DIR"] = ""
    try:
        try:
            result, read = kept_and_read("fedtool.fed.cardmodel:CardModel", data)
        except FedError:
            return  # a card the model refuses: nothing is kept of it
        except checked.NotKept:
            return
        assert plain(read) == plain(result)
        assert checked.data_key("x", data) == checked.data_key("x", parse_yaml(yaml.safe_dump(card), "card.yaml"))
    finally:
        del os.environ["FEDTOOL_CACHE_DIR"]


@pytest.mark.parametrize("one, other", [(1, True), (1, 1.0), ("1", 1), ([], {}), ({"a": 1}, {"a": "1"}), (None, "null"),
                                        (datetime.date(2026, 1, 1), "2026-01-01"), ({"a": [1]}, {"a": [[1]]})])
def test_data_that_differs_only_in_type_has_another_key(one, other):
    assert checked.data_key("m", {"x": one}) != checked.data_key("m", {"x": other})
    assert checked.data_key("m", {"x": Fraction(1, 2)}) is None  # a value the key cannot spell: checked every time


# ---------------------------------------------------------------- the league written without sqlite-utils

_SCHEMA = """CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT UNIQUE, a TEXT DEFAULT 'dflt', b INTEGER DEFAULT 7, c, d REAL);
CREATE TABLE pair (x TEXT, y INTEGER, v TEXT DEFAULT 'v0', PRIMARY KEY (x, y));"""
_VALUES = st.one_of(st.none(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False, width=32), st.sampled_from(["", "é", "a'b", '"q"']),
                    st.binary(max_size=3), st.booleans(), st.dictionaries(st.sampled_from(["p", "q"]), st.integers(0, 2), max_size=2),
                    st.lists(st.integers(0, 2), max_size=2), st.tuples(st.integers(0, 1)), st.just(datetime.date(2026, 1, 2)),
                    st.just(datetime.datetime(2026, 1, 2, 3, 4, 5)), st.just(datetime.timedelta(hours=3)), st.just(__import__("decimal").Decimal("1.5")),
                    st.just(__import__("uuid").UUID("12345678-1234-5678-1234-567812345678")))
_RECORD = st.fixed_dictionaries({}, optional={"id": st.integers(1, 6), "k": st.sampled_from(["k1", "k2", "k3"]), "a": _VALUES, "b": _VALUES, "c": _VALUES,
                                              "d": st.one_of(st.none(), st.floats(-2, 2))})
_PAIR = st.fixed_dictionaries({"x": st.sampled_from(["m", "n"]), "y": st.integers(0, 2)}, optional={"v": _VALUES})
_OPS = st.lists(st.one_of(
    st.tuples(st.just("insert_all"), st.just("t"), st.lists(_RECORD, max_size=4).map(lambda r: r * 60), st.sampled_from(
        [{}, {"ignore": True}, {"replace": True}, {"pk": "id"}])),
    st.tuples(st.just("insert_all"), st.just("t"), st.tuples(_RECORD, _RECORD).map(lambda p: [p[0]] * 150 + [p[1]]), st.just({})),  # a later batch's new column
    st.tuples(st.just("insert"), st.just("t"), _RECORD.map(lambda r: [r]), st.sampled_from([{}, {"ignore": True}, {"pk": "id"}, {"pk": "k"}])),
    st.tuples(st.just("upsert_all"), st.just("pair"), st.lists(_PAIR, max_size=3), st.just({"pk": ("x", "y")})),
    st.tuples(st.just("upsert"), st.just("t"), _RECORD.map(lambda r: [{**r, "id": r.get("id", 1)}]), st.just({"pk": "id"})),
    st.tuples(st.just("execute"), st.just("t"), st.sampled_from([["DELETE FROM t WHERE id = 2"], ["UPDATE t SET a = 'x' WHERE id > 3"], ["SELECT count(*) FROM t"],
                                                                ["  -- a note\n/* another */ INSERT INTO t (k) VALUES ('z')"]]), st.just({}))), max_size=6)


def _apply(db, ops, atomic: bool) -> list:
    seen = []
    for op, table, records, options in ops:
        try:
            if op == "execute":
                db.execute(records[0])
                seen.append(("execute", db.conn.in_transaction))
                continue
            with db.atomic() if atomic else __import__("contextlib").nullcontext():
                if op in ("insert", "upsert"):
                    written = getattr(db[table], op)(records[0], **options)
                else:
                    written = getattr(db[table], op)(records, **options)
            seen.append((op, written.last_rowid, written.last_pk, db.conn.in_transaction))
        except (sqlite3.Error, ValueError) as exc:  # the same refusal from each
            seen.append((op, type(exc).__name__))
    return seen


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_OPS, st.booleans())
def test_a_league_writes_rows_as_sqlite_utils_writes_them(ops, atomic):
    """`League`'s writes (issue 18: a run imports no sqlite-utils) are sqlite-utils 4's: the
    same rows (values stored as it stores them: JSON, ISO dates, Decimal as float; a batch's
    missing column NULL, not the default; more than a batch of rows), the same last_rowid and
    last_pk, the same refusals, the same transactions (a write outside one committed)."""
    from sqlite_utils import Database

    from fedtool.league.db import League

    ours, theirs = League(sqlite3.connect(":memory:")), Database(sqlite3.connect(":memory:"), execute_plugins=False)
    for db in (ours, theirs):
        db.conn.executescript(_SCHEMA)
    assert _apply(ours, ops, atomic) == _apply(theirs, ops, atomic)
    assert list(ours.conn.iterdump()) == list(theirs.conn.iterdump())
