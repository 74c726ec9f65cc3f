"""`fedtool standings` without pydantic (issue 18: "`fedtool standings` under 0.15 s"; "no
models built or YAML read at import"): the settings and the sheets a good check found good
are read from what that check kept (fedtool.kernel.checked), keyed by their bytes and the
code; a file that is not the same is checked again, and a broken one is named as it always
was; tabulate imported without importlib.metadata."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fedtool.kernel import checked
from golden import ROOT
from test_startup import modules_after, top

BOB = "rosters/brother-bob.yaml"


def run(fed: Path, *args: str, cache_dir: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FEDTOOL_CACHE_DIR": cache_dir}
    return subprocess.run([sys.executable, "-m", "fedtool", "--fed", str(fed), *args], capture_output=True, text=True, timeout=120, cwd=fed, env=env)


@pytest.fixture
def week_one(demo_fed, cache) -> Path:
    done = run(demo_fed, "run", "1", cache_dir=str(cache))
    assert done.returncode == 0, done.stderr
    return demo_fed


def test_the_standings_of_files_checked_before_import_no_pydantic_and_print_what_checking_prints(week_one, cache, monkeypatch):
    """The first standings check every file (pydantic); the next, the files unchanged, import
    neither pydantic nor importlib.metadata (tabulate's version) nor the email package, and
    print the same tables, text and JSON, as a fedtool with the cache off."""
    unchecked = run(week_one, "standings", cache_dir="")
    first = run(week_one, "standings", cache_dir=str(cache))
    assert first.returncode == unchecked.returncode == 0 and first.stdout == unchecked.stdout
    assert "Brother Bob" in first.stdout and "number-one contender" in first.stdout
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(cache))
    modules = modules_after("--fed", str(week_one), "standings", cwd=week_one)
    imported = top(modules, ("pydantic", "pydantic_core", "annotated_types", "email_validator", "jinja2", "sqlite_utils", "email", "filelock"))
    assert imported == ["pydantic.plugin._loader"]  # fedtool.cli's stand-in for pydantic's plugin loader, made without importing pydantic
    assert "importlib.metadata" not in modules and "tabulate" in modules
    assert [m for m in modules if m.endswith((".models", ".sheetmodel"))] == []  # no ruleset's, the settings' or the kernel's models
    assert run(week_one, "standings", cache_dir=str(cache)).stdout == unchecked.stdout
    assert run(week_one, "standings", "--json", cache_dir=str(cache)).stdout == run(week_one, "standings", "--json", cache_dir="").stdout


def _replace(fed: Path, file: str, old: str, new: str) -> None:
    path = fed / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("file, old, new", [
    (BOB, "name: Brother Bob", "name: \"\""),  # a sheet's field
    (BOB, "stamina:", "stamina: 99\nstamina_again:"),  # an unknown field
    ("rosters/fed.yaml", "first_holder: rulebook-rivals", "first_holder: brother-bob"),  # a tag title's first holder, not a team
    ("rosters/fed.yaml", "database: fed.db", "database: fed.db\nrating: true"),  # the settings' shape
])
def test_a_file_broken_after_a_good_check_is_named_as_without_the_cache(week_one, cache, file, old, new):
    """What was kept is kept for the bytes checked: a sheet or the settings changed since is
    checked again, and a broken one gives the message it gives with the cache off."""
    assert run(week_one, "standings", cache_dir=str(cache)).returncode == 0  # kept
    _replace(week_one, file, old, new)
    broken = run(week_one, "standings", cache_dir=str(cache))
    assert broken.returncode == 1 and "Traceback" not in broken.stderr
    assert broken.stderr == run(week_one, "standings", cache_dir="").stderr and broken.stderr.startswith("error: ")


def test_a_sheet_changed_after_a_good_check_shows_its_change(week_one, cache):
    assert "Brother Bob" in run(week_one, "standings", cache_dir=str(cache)).stdout
    _replace(week_one, BOB, "name: Brother Bob", "name: Brother Robert")
    shown = run(week_one, "standings", cache_dir=str(cache)).stdout
    assert "Brother Robert" in shown and "Brother Bob" not in shown and shown == run(week_one, "standings", cache_dir="").stdout


def test_a_code_change_is_a_stranger_to_what_was_kept(cache, monkeypatch, tmp_path):
    """An entry's key carries the mark of the checking code: the same bytes under another
    fedtool (a checker's file changed) find nothing kept."""
    key = checked.digest("sheet", "name: Bob\n")
    checked.remember(key, {"name": "Bob"})
    assert checked.recall(key) == {"name": "Bob"}
    checker = tmp_path / "checker.py"  # a checker's source file, as the mark sees one
    checker.write_text("pass\n", encoding="utf-8")
    monkeypatch.setattr(checked, "_CHECKERS", (*checked._CHECKERS, str(checker)))
    monkeypatch.setattr(checked, "_mark", None)
    key = checked.digest("sheet", "name: Bob\n")
    checked.remember(key, {"name": "Bob"})
    checker.write_text("pass  # changed\n", encoding="utf-8")
    monkeypatch.setattr(checked, "_mark", None)  # a new process
    assert checked.digest("sheet", "name: Bob\n") != key and checked.recall(checked.digest("sheet", "name: Bob\n")) is None
    checker.write_text("pass\n", encoding="utf-8")
    os.utime(checker, ns=(0, 0))  # the same text, written again: a change all the same
    monkeypatch.setattr(checked, "_mark", None)
    assert checked.digest("sheet", "name: Bob\n") != key
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")  # off: nothing kept, nothing recalled
    checked.remember(key, {"name": "Robert"})
    assert checked.recall(key) is None


_PLAIN = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                                st.floats(allow_nan=False, allow_infinity=False), st.fractions()),
                      lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=20)


def _typed(value):
    """A value with every type spelled out: 1 and 1.0 and True and Fraction(1) differ."""
    if isinstance(value, list):
        return ["list", [_typed(v) for v in value]]
    if isinstance(value, dict):
        return ["dict", {k: _typed(v) for k, v in value.items()}]
    return [type(value).__name__, value]


@settings(max_examples=400, deadline=None)
@given(_PLAIN)
def test_what_is_kept_reads_back_equal_and_of_the_same_types(value):
    assert _typed(checked.decode(json.loads(json.dumps(checked.encode(value))))) == _typed(value)


@pytest.mark.parametrize("value", [(1, 2), {1: "a"}, float("nan"), __import__("datetime").date(2026, 1, 1), {"a": {3}}])
def test_what_cannot_be_read_back_the_same_is_not_kept(value, cache):
    with pytest.raises(TypeError):
        checked.encode(value)
    checked.remember("x" * 64, value)
    assert checked.recall("x" * 64) is None


def test_known_settings_answer_as_the_checked_settings(demo_fed, cache):
    """The settings served from a good check are the model's: the plain ones as kept, the
    others (the secret, mail, schedule) from checking the text when first asked for."""
    from fedtool.fed.settings import PLAIN_SETTINGS, Fed, KnownSettings

    first = Fed.load(demo_fed)
    second = Fed.load(demo_fed)
    assert not isinstance(first.settings, KnownSettings) and isinstance(second.settings, KnownSettings)
    for name in PLAIN_SETTINGS:
        mine, theirs = getattr(second.settings, name), getattr(first.settings, name)
        if name == "titles":
            assert [vars(t) for t in mine] == [t.model_dump() for t in theirs]
        elif name in ("backups", "seasons"):
            assert vars(mine) == theirs.model_dump()
        else:
            assert mine == theirs and type(mine) is type(theirs)
    assert second.settings.secret == first.settings.secret and second.settings.mail == first.settings.mail
    assert second.settings.schedule == first.settings.schedule and second.data == first.data
    assert second.database == first.database and second.backups == first.backups
    assert not any(first.settings.secret in path.read_text(encoding="utf-8") for path in cache.rglob("*.json"))  # never kept


def test_tabulate_imported_without_importlib_metadata_is_tabulate():
    """tabulate imported with the stand-in has the version importlib.metadata gives, draws the
    same table, and leaves importlib.metadata unimported, the real one imported later."""
    code = """
import json, sys
from fedtool.league.tables import _table
table = _table([[1, "Relámpago", "007"], [2, "中文名", ""]], ["", "wrestler", "x"])
stood_in = "importlib.metadata" not in sys.modules
import tabulate, importlib.metadata
print(json.dumps([stood_in, tabulate.__version__, importlib.metadata.version("tabulate"), table,
                  tabulate.tabulate([[1, "Relámpago", "007"], [2, "中文名", ""]], headers=["", "wrestler", "x"], tablefmt="simple", disable_numparse=True),
                  importlib.metadata.__file__ is not None]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    stood_in, version, metadata_version, table, theirs, real = json.loads(done.stdout)
    assert stood_in and version == metadata_version != "unknown" and table == theirs and real


def test_a_fraction_kept_is_a_fraction():
    assert checked.decode(json.loads(json.dumps(checked.encode({"p": Fraction(1, 3)})))) == {"p": Fraction(1, 3)}


@pytest.mark.parametrize("damage", ['{"mapping": {}}', '{"mapping": {"name": 1}}', "[]", '{"fraction": [1]}', "not json"])
def test_a_damaged_entry_is_no_entry(week_one, cache, damage):
    """What the cache gives back is used only when it has the shape a good check wrote; an
    entry damaged (by hand, a disk) is as no entry: the files are checked, the tables right."""
    expected = run(week_one, "standings", cache_dir="").stdout
    assert run(week_one, "standings", cache_dir=str(cache)).stdout == expected
    entries = list(cache.rglob("*.json"))
    assert len(entries) >= 2  # the settings' and the roster's
    for entry in entries:
        entry.write_text(damage, encoding="utf-8")
    again = run(week_one, "standings", cache_dir=str(cache))
    assert again.returncode == 0 and again.stdout == expected and again.stderr == ""
