"""Commands import only what they need (issue 18): `fedtool --help` and a MatchMatch-only
week, each in a fresh interpreter, and what sys.modules holds after; compiled templates
kept between runs so none is compiled twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from golden import ROOT, demo_copy

LIST_MODULES = """
import sys
from fedtool.cli import cli
try:
    cli(sys.argv[1:], prog_name="fedtool")
except SystemExit as exc:
    code = exc.code
modules = sorted(sys.modules)  # before json, which prints them
import json
print(json.dumps({"exit": code, "modules": modules}))
"""


def modules_after(*args: str, cwd: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", LIST_MODULES, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["exit"] == 0, done.stdout
    return report["modules"]


def top(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in names]


# what no command needs to start: each is imported by the commands that use it
LIBRARIES = ("pydantic", "pydantic_core", "email_validator", "jinja2", "markdown", "sqlite_utils", "yaml", "css_inline", "filelock",
             "mailparser_reply", "imapclient", "dateutil")


def test_help_imports_click_and_no_command(tmp_path):
    modules = modules_after("--help", cwd=tmp_path)
    assert "click" in modules
    assert top(modules, LIBRARIES) == []
    assert [m for m in modules if m.startswith("fedtool")] == ["fedtool", "fedtool.cli", "fedtool.kernel", "fedtool.kernel.errors"]
    assert "importlib.metadata" not in modules  # pydantic's plugin search, email_validator's version
    # printing JSON and reading the league are a command's: the help needs neither
    assert {"json", "sqlite3"}.isdisjoint(modules)


def test_a_matchmatch_week_imports_only_what_it_runs(demo_fed, tmp_path, monkeypatch):
    """A week's run as a fed runs it from week to week: its caches warm (the first run ever
    renders the fedhead's Markdown and checks every file, importing what that needs), here a
    cache of its own, warmed by a run of another copy of the fed (not whatever other tests left
    in the user's cache)."""
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    modules_after("--fed", str(demo_copy(tmp_path / "first")), "run", "1", cwd=tmp_path)
    modules = modules_after("--fed", str(demo_fed), "run", "1", cwd=demo_fed)
    assert (demo_fed / "outbox/week-01/card.md").is_file()
    assert "fedtool.rulesets.matchmatch.engine" in modules and "jinja2" in modules  # played and written up
    fedtool = [m for m in modules if m.startswith("fedtool")]
    assert [m for m in fedtool if m.startswith(("fedtool.rulesets.matclash", "fedtool.rulesets.facemat", "fedtool.mail", "fedtool.site"))] == []
    assert {"fedtool.week.odds", "fedtool.week.verify", "fedtool.fed.skeleton"}.isdisjoint(fedtool)
    assert top(modules, ("mailparser_reply", "imapclient", "concurrent", "multiprocessing")) == []
    # mails written as text, no plugin search (the lock is filelock's, tables are tabulate's: libraries kept)
    assert top(modules, ("markdown",)) == [] and "importlib.metadata" not in modules
    # every strategy on week 1's card is YAML: the reader of the rulebook's plain-text layout is not needed
    assert "fedtool.rulesets.matchmatch.plaintext" not in fedtool
    assert top(modules, ("email_validator", "idna")) == []  # the sheets' and settings' addresses are all of the plain kind (below)
    # the league written over sqlite3 (fedtool.league.db.League: no migration pending), sqlite-utils only to migrate;
    # the season checked, not closed (its record book)
    assert top(modules, ("sqlite_utils", "dateutil", "pluggy", "sqlite_fts4")) == [] and "fedtool.league.recordbook" not in modules
    assert top(modules, ("zoneinfo",)) == []  # the demo fed's zone is UTC: the standard library's, no time zone database read
    assert top(modules, ("yaml", "_yaml")) == []  # every file's parse rebuilt from what the first run kept (fedtool.kernel.yamlio)


def test_the_commands_are_built_without_a_search_for_message_catalogues_per_option():
    """click names a path type when it is made through gettext, which looks on disk for a
    message catalogue each time: fedtool's commands share three path types (fedtool.cli), so
    building every command searches three times, not once for each of some seventy options."""
    code = ("import gettext\nfound = []\nsearch = gettext.find\n"
            "gettext.find = lambda *args, **options: found.append(args) or search(*args, **options)\n"
            "import fedtool.cli\nprint(len(found))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == 3


# what a ruleset plays or tells a match with: the standings read sheets and states, never these
PLAYING = ("engine", "match", "multiway", "narrate", "rating", "officials", "plaintext", "strategy", "policy", "names", "royale",
           "solitaire", "deck")


def test_the_standings_import_no_ruleset_engine_and_take_no_lock(demo_fed):
    """`fedtool standings` reads every ruleset's sheets (the demo fed has all four) and the
    league: each ruleset's package and sheet reader, none of its engine, narration, strategy
    reader or deck (issue 18: importing them all was a third of the command); and, writing
    nothing, it takes no lock (filelock and the logging it brings)."""
    modules = modules_after("--fed", str(demo_fed), "standings", cwd=demo_fed)
    rulesets = [m for m in modules if m.startswith("fedtool.rulesets.")]
    assert {"fedtool.rulesets.matchmatch", "fedtool.rulesets.matclash", "fedtool.rulesets.facemat", "fedtool.rulesets.madmatch"} <= set(rulesets)
    assert {"fedtool.rulesets.matchmatch.sheet", "fedtool.rulesets.facemat.sheet"} <= set(rulesets)  # the sheets were read
    assert [m for m in rulesets if m.rsplit(".", 1)[-1] in PLAYING] == []
    assert top(modules, ("filelock", "jinja2", "markdown", "css_inline", "logging")) == []
    assert top(modules, ("email_validator", "idna")) == []  # every address on the demo's sheets is of the plain kind (below)
    assert [m for m in modules if m.startswith(("fedtool.week", "fedtool.fed.lock", "fedtool.fed.render", "fedtool.mail", "fedtool.site"))] == []


def test_a_command_skips_pydantics_plugin_search(demo_fed):
    """pydantic looks through every installed package's entry points for plugins when it
    builds its first validator; the command sets PYDANTIC_DISABLE_PLUGINS (unless the user
    has) and no search is made. A user's own setting, empty (every plugin), is kept."""
    code = """
import json, os, sys
from fedtool.cli import cli
try:
    cli(sys.argv[1:], prog_name="fedtool")
except SystemExit:
    pass
loader = sys.modules.get("pydantic.plugin._loader")
from fedtool.fed.settings import Settings
print(json.dumps([os.environ.get("PYDANTIC_DISABLE_PLUGINS"), Settings.__pydantic_complete__, loader is not None and loader._plugins is None,
                  "importlib.metadata" in sys.modules]))
"""
    # the checked cache off: every file is checked with pydantic (with it on, files checked before are not: test_a_run_on_files_checked_before_imports_no_pydantic)
    env = {**{k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}, "FEDTOOL_CACHE_DIR": ""}
    run = [sys.executable, "-c", code, "--fed", str(demo_fed), "status"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=60, cwd=demo_fed, env={**env, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    # validators were built; no plugin was looked for, and the loader's importlib.metadata never imported (fedtool.cli._skip_plugin_loader)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["__all__", True, True, False]
    done = subprocess.run(run, capture_output=True, text=True, timeout=60, cwd=demo_fed, env={**env, "PYTHONPATH": str(ROOT), "PYDANTIC_DISABLE_PLUGINS": ""})
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["", True, False, True]


def test_the_plugin_loader_standing_in_answers_as_pydantics_own():
    """While every plugin is disabled, the module standing in for pydantic's plugin loader
    answers as pydantic's own does (no plugins, none loaded), and it is all pydantic asks of
    that module (its one import from it, `get_plugins`)."""
    import inspect

    import pydantic.plugin._schema_validator as schema_validator

    code = """
import json, os, sys
os.environ["PYDANTIC_DISABLE_PLUGINS"] = sys.argv[1]
if sys.argv[2] == "stand-in":
    from fedtool.cli import _skip_plugin_loader
    _skip_plugin_loader()
from pydantic.plugin import _loader
print(json.dumps([list(_loader.get_plugins()), _loader._plugins, _loader._loading_plugins]))
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for setting in ("__all__", "1", "true"):
        answers = [subprocess.run([sys.executable, "-c", code, setting, kind], capture_output=True, text=True, timeout=60, env=env, check=True).stdout
                   for kind in ("pydantic's", "stand-in")]
        assert answers[0] == answers[1] == "[[], null, false]\n"
    source = inspect.getsource(schema_validator)
    assert source.count("_loader") == 1 and "from ._loader import get_plugins\n" in source


def test_a_ruleset_imports_its_engine_when_first_used():
    """A ruleset's package names its engine and the rest as `Submodule`s: reading a sheet
    imports none of them; the first use imports the module and puts it in the Submodule's
    place; `from package import engine` gives the module itself, whenever it is asked; the
    constants the package states without its engine agree with the engine's."""
    code = """
import json, sys
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.base import Submodule
mm = get_ruleset("matchmatch")
before = sorted(m for m in sys.modules if m.startswith("fedtool.rulesets.matchmatch."))
package = sys.modules["fedtool.rulesets.matchmatch"]
proxied = isinstance(package._engine, Submodule)
from fedtool.rulesets.facemat import engine as named  # named before any use: the module itself, as a test patching it needs
module = named is sys.modules["fedtool.rulesets.facemat.engine"] and not isinstance(named, Submodule)
default = mm.settings({}).dq_threshold  # the engine's default, asked for (the settings' model imports the engine itself)
first_use = package._engine.DEFAULT_DQ_THRESHOLD  # the package's first use of its Submodule
from fedtool.rulesets.matchmatch import engine
print(json.dumps({"before": before, "proxied": proxied, "module": module, "now": package._engine is engine,
                  "default": default == engine.DEFAULT_DQ_THRESHOLD,
                  "finishes": list(mm.finishes) == [engine.PIN, engine.SUBMISSION, engine.COUNTOUT, engine.DQ]}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [m for m in report["before"] if m.rsplit(".", 1)[-1] in PLAYING] == []
    assert report == {**report, "proxied": True, "module": True, "now": True, "default": True, "finishes": True}


def test_models_are_built_when_first_used():
    """No pydantic model is built at import (issue 18: building them all was a tenth of a
    second at every start): a model's validator exists once it has validated."""
    code = ("import json, sys\nfrom fedtool.fed import settings\n"
            "before = [m.__name__ for m in (settings.Settings, settings.MailSettings, settings.TitleSettings) if m.__pydantic_complete__]\n"
            "settings.Fed.load(sys.argv[1])\n"
            "print(json.dumps([before, settings.Settings.__pydantic_complete__]))")
    # the checked cache off (FEDTOOL_CACHE_DIR empty): the file is checked, as a fed.yaml never checked before is
    done = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "FEDTOOL_CACHE_DIR": ""})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[], True]


# ---------------------------------------------------------------- compiled templates


def test_a_template_is_compiled_once_across_runs(cache, tmp_path, monkeypatch):
    from jinja2 import Environment

    from fedtool.fed.render import environment, render

    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "hello.md.j2").write_text("Hello {{ who }}!\n", encoding="utf-8")
    assert render(environment(templates), "hello.md.j2", who="*Bob*") == "Hello \\*Bob\\*!\n"
    kept = list(cache.rglob("*.cache"))
    assert len(kept) == 1 and os.stat(kept[0].parent).st_mode & 0o777 == 0o700

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(Environment, "compile", no_compiling)
    assert render(environment(templates), "hello.md.j2", who="Sam") == "Hello Sam!\n"  # a new environment, as a new process has
    monkeypatch.undo()
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(cache))
    (templates / "hello.md.j2").write_text("Goodbye {{ who }}.\n", encoding="utf-8")  # an edited template is compiled again
    assert render(environment(templates), "hello.md.j2", who="Sam") == "Goodbye Sam.\n"


def test_no_cache_where_others_could_write_code(cache, monkeypatch):
    from fedtool.fed.render import bytecode_cache

    assert bytecode_cache() is not None
    folder = next(cache.iterdir())
    folder.chmod(0o777)  # compiled templates are loaded as code: a folder others can write is not used
    assert bytecode_cache() is None
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    assert bytecode_cache() is None
    (cache.parent / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(cache.parent / "file"))  # cannot be made: no cache, no error
    assert bytecode_cache() is None


def test_an_empty_league_in_memory_is_the_migrated_schema_and_a_copy_each_time(tmp_path):
    """A fed with no league reads an empty one in memory: the schema every migration makes,
    copied from one made once per process (issue 18), so no reader sees another's rows."""
    from sqlite_utils import Database

    from fedtool.league.db import migrations, open_league

    def shape(db) -> tuple:
        return (db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(),
                db.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid").fetchall())

    fresh = Database(memory=True)
    migrations.apply(fresh)
    first = open_league(tmp_path / "fed.db", create=False)
    assert first.memory and not (tmp_path / "fed.db").exists()
    assert shape(first) == shape(fresh) and len(shape(fresh)[1]) == len(migrations.applied(fresh)) > 10
    first["weeks"].insert({"week": 1}, alter=True)
    second = open_league(tmp_path / "fed.db", create=False)
    assert first["weeks"].count == 1 and second["weeks"].count == 0 and shape(second) == shape(fresh)
    assert second.execute("PRAGMA foreign_keys").fetchone() == (1,)


# ---------------------------------------------------------------- addresses without email_validator

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from fedtool.kernel import validation  # noqa: E402

_LABELS = st.one_of(st.text("abz09-", min_size=1, max_size=8), st.sampled_from(["xn--bcher-kva", "ab--cd", "A", "Mail", "-a", "a-", "1", "é", "x" * 63, "y" * 64]))
_TOPS = st.sampled_from(["com", "org", "example", "test", "invalid", "local", "localhost", "onion", "arpa", "Com", "c0m", "1", "9z", "z", "", "co-uk", "a" * 64])
_LOCALS = st.one_of(st.text("aZ09._+-", max_size=12), st.sampled_from(["Postmaster", "www", "info", "bob", "Bob.Smith", ".bob", "bob.", "a..b", "o'neil",
                                                                       "bo b", '"bob"', "bób", "b" * 64, "b" * 65, "x@y", "<bob>", "a!#$%&*/=?^`{|}~"]))


@st.composite
def addresses(draw) -> str:
    local = draw(_LOCALS)
    labels = draw(st.lists(_LABELS, max_size=3)) + [draw(_TOPS)]
    domain = ".".join(labels) + draw(st.sampled_from(["", "", ".", ".."]))
    if draw(st.booleans()) and len(domain) < 120:
        domain = ".".join(["a" * 60] * draw(st.integers(1, 5))) + "." + domain  # near and over the length limits
    return draw(st.sampled_from(["", " ", "\t"])) + local + draw(st.sampled_from(["@", "@", "@", "", "@@"])) + domain + draw(st.sampled_from(["", " "]))


def _answer(check, value: str):
    try:
        return check(value)
    except ValueError as exc:
        return ("refused", str(exc))


@st.composite
def usual_addresses(draw) -> str:
    """Addresses near the plain kind: the fast path's edges."""
    local = draw(st.text("abZ09_+-.", min_size=1, max_size=10))
    labels = draw(st.lists(st.text("ab09-", min_size=1, max_size=6), min_size=1, max_size=3))
    return f"{local}@{'.'.join(labels)}.{draw(st.sampled_from(['com', 'io', 'example', 'test', 'arpa', 'onion', 'z', 'b2', 'x-y']))}"


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(addresses(), usual_addresses()))
def test_an_address_read_without_email_validator_reads_as_email_validator_reads_it(value):
    """Issue 18: an address of the plain kind every sheet holds is checked without importing
    email_validator; any address is read as email_validator reads it (the same address back,
    or the same refusal)."""
    assert _answer(validation._mail_address, value) == _answer(validation._checked_address, value)


def test_the_plain_kind_is_the_usual_kind_and_its_lists_are_email_validators():
    import email_validator

    assert validation.ROLE_NAMES == set(email_validator.rfc_constants.CASE_INSENSITIVE_MAILBOX_NAMES)
    assert validation.SPECIAL_USE == tuple(email_validator.SPECIAL_USE_DOMAIN_NAMES)
    plain = ["bob@players.example", "dana.smith+fed@mail.example.com", "x_y-z@a1.b-c.org", "bob@dcw.test", "b" * 64 + "@x.io"]
    assert all(validation._plain_address(*a.rpartition("@")[::2]) or validation.reserved_domain(a) for a in plain)
    assert [validation._mail_address(a) for a in plain] == [validation._checked_address(a) for a in plain] == plain
    assert not validation._plain_address("bob", "Players.Example") and not validation._plain_address("postmaster", "dcw.com")


# ---------------------------------------------------------------- a week's mails written without the email package building each

_COLLIDING_ID = "<0.results@dcw.test>"  # a Message-ID whose boundary a text below holds: the next boundary is taken
_PIECES = [*"ab <>&=-_.\n\r\t é€😀\u202e\x00", "=20", "From ", "\n.\n", "x" * 80, "y" * 1000, "--=_fedtool_",
           "--=_fedtool_" + __import__("hashlib").sha256(_COLLIDING_ID.encode()).hexdigest()[:24]]
_MAIL_TEXT = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(_MAIL_TEXT, _MAIL_TEXT), st.sampled_from([_COLLIDING_ID, "<1.results@dcw.test>", "<x@y>"]),
       st.sampled_from(["Bob", "Zoë Ångström", "a" * 90, "Smith, Bob", 'Q "x"']),
       st.sampled_from(["Fed: Week 1 results", "Corrected: " + "Long Fed Name " * 8 + "results", "Ünïcode fed: week 2"]),
       st.sampled_from([None, "<abc.results@dcw.test>"]), st.sampled_from([None, "replies@dcw.test"]), st.booleans())
def test_a_mail_written_as_text_is_the_email_packages_mail(texts, message_id, name, subject, references, reply_to, repeat):
    """Issue 18: `email_text` writes a run's mails without building each as an
    EmailMessage (a part is encoded once per text); it writes what `email(...).as_string()`
    writes, byte for byte, whatever the texts (a boundary in them, long lines, any
    character), names and headers; the second mail of the same texts (its parts kept) too."""
    import datetime

    from fedtool.fed.render import email, email_text

    text, html = texts
    args = ("fed@dcw.test", name, "bob@players.test", subject, text, html, message_id, reply_to)
    when = datetime.datetime(2026, 11, 27, 18, 0, tzinfo=datetime.timezone.utc)
    expected = email(*args, date=when, references=references).as_string()
    assert email_text(*args, date=when, references=references) == expected
    if repeat:
        assert email_text(*args, date=when, references=references) == expected


# ---------------------------------------------------------------- the read paths

def test_the_standings_read_the_league_without_sqlite_utils(demo_fed):
    """The standings read the league with the standard library's sqlite3 (sqlite-utils only
    where the league is written or migrated); their tables are tabulate's."""
    modules = modules_after("--fed", str(demo_fed), "standings", cwd=demo_fed)
    assert top(modules, ("sqlite_utils",)) == [] and top(modules, ("tabulate",)) == ["tabulate"]


def test_the_league_read_without_sqlite_utils_reads_as_sqlite_utils_reads_it(tmp_path):
    """`read_league` (issue 18: the commands that only read import sqlite3 alone) gives what
    sqlite-utils' Database gives: rows as dicts, in order, filtered and limited; a missing
    table no rows; counts; views read through the league's functions. A league with a
    migration pending, or none at all, goes through `open_league` (migrated; empty in memory)."""
    import sqlite3

    from sqlite_utils.migrations import Migrations

    from fedtool.league import db as league

    assert league.MIGRATIONS_TABLE == Migrations.migrations_table and league.migrations.names == [m.name for m in league.migrations._migrations]
    written = league.open_league(tmp_path / "fed.db")
    written["weeks"].insert_all([{"week": w, "title": f"Week {w}", "ran_at": "x", "dice_source": "seeded"} for w in (3, 1, 2)])
    written.close()
    read, usual = league.read_league(tmp_path / "fed.db"), league.open_league(tmp_path / "fed.db", create=False)
    assert isinstance(read, league.League) and not read.memory
    for name in ("weeks", "match_summaries", "no_such_table", "wrestlers"):
        assert list(read[name].rows) == list(usual[name].rows) and read[name].exists() == usual[name].exists()
    assert list(read["weeks"].rows_where("week > ?", [1], order_by="week desc", select="week, title", limit=1)) == [{"week": 3, "title": "Week 3"}]
    assert read["weeks"].count == 3 and read.execute("SELECT max(week) FROM weeks").fetchone() == (3,)
    assert league.ran_weeks(read) == league.ran_weeks(usual) == [1, 2, 3] and league.week_results(read, 1) == league.week_results(usual, 1)
    assert sorted(read.table_names()) == sorted(usual.table_names())

    connection = sqlite3.connect(tmp_path / "fed.db")
    connection.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [league.migrations.names[-1]])  # m017 pending, its objects gone
    for view in ("match_writeups", "rounds", "dice_rolls", "match_summaries"):
        connection.execute(f"DROP VIEW IF EXISTS [{view}]")
    for table in ("lean_writeups", "lean_rounds", "lean_dice"):
        connection.execute(f"DROP TABLE [{table}]")
    connection.commit()
    connection.close()
    migrated = league.read_league(tmp_path / "fed.db")  # the pending migration applied by open_league, as before
    assert migrated["lean_writeups"].exists() and league.migrations.names[-1] in {row[0] for row in migrated.execute("SELECT name FROM _sqlite_migrations")}
    migrated.close()
    assert isinstance(league.read_league(tmp_path / "fed.db"), league.League)
    empty = league.read_league(tmp_path / "none.db")
    assert empty.memory and not (tmp_path / "none.db").exists() and list(empty["weeks"].rows) == []


_LATIN = st.lists(st.sampled_from([*"ab =.\t\r\n\x00\x7f\xa0\xe9\xff", "=3D", " \n", "\t\n", "x" * 70, "y" * 200]), max_size=60).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LATIN, st.integers(4, 100))
def test_quoted_printable_is_the_email_packages(body, width):
    """Issue 18: a mail's long text is quote-printed by `_quoted_printable`, the email
    package's `quoprimime.body_encode` with the characters to quote found by one regular
    expression; the two write the same text for any body and line width (escapes at the
    line's end, blanks before a break, every character below 256)."""
    from email import quoprimime

    from fedtool.fed.render import _quoted_printable

    assert _quoted_printable(body, width) == quoprimime.body_encode(body, width)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([*"ab =.\t\n é€😀", "x" * 90, "=" * 40, " \n"]), max_size=80).map("".join), st.sampled_from([None, None, "7bit", "quoted-printable", "base64"]))
def test_a_text_part_is_encoded_as_the_email_package_encodes_it(text, cte):
    """The transfer encoding `_encode_text` chooses, and the body it writes, are the email
    package's (`email.contentmanager._encode_text`), whatever the text and however many lines."""
    from email.contentmanager import _encode_text as package

    from fedtool.fed.render import MAIL_POLICY, _encode_text

    try:
        expected = package(text, "utf-8", cte, MAIL_POLICY)
    except (UnicodeError, ValueError) as exc:  # 7bit asked of non-ASCII text
        with pytest.raises(type(exc)):
            _encode_text(text, "utf-8", cte, MAIL_POLICY)
        return
    assert _encode_text(text, "utf-8", cte, MAIL_POLICY) == expected


def test_a_template_moved_elsewhere_is_not_compiled_again_and_names_its_own_file(cache, tmp_path, monkeypatch):
    """The compiled templates are kept by name and source, not by file: the same fed in
    another folder (copied, moved, the demo in a new clone) finds them compiled, and an
    error in one is reported at the file it was loaded from, not where it was compiled."""
    from jinja2 import Environment

    from fedtool.fed.render import environment, render
    from fedtool.kernel.errors import FedError

    source = "Hello {{ who }}!\n{% if who == 'Zed' %}{{ 1 // 0 }}{% endif %}\n"
    first, second = tmp_path / "one" / "templates", tmp_path / "two" / "templates"
    for folder in (first, second):
        folder.mkdir(parents=True)
        (folder / "hello.md.j2").write_text(source, encoding="utf-8")
    assert render(environment(first), "hello.md.j2", who="Bob") == "Hello Bob!\n"

    compiled = []
    real = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, *a, **k: compiled.append(a) or real(self, *a, **k))
    assert render(environment(second), "hello.md.j2", who="Sam") == "Hello Sam!\n"
    assert compiled == []  # found in the cache, though it was compiled for the other folder
    with pytest.raises(FedError) as refused:
        render(environment(second), "hello.md.j2", who="Zed")
    assert str(second / "hello.md.j2") in str(refused.value) and str(first) not in str(refused.value)
    assert "line 2" in str(refused.value)
    (second / "hello.md.j2").write_text(source.replace("Hello", "Howdy"), encoding="utf-8")  # another source: compiled
    assert render(environment(second), "hello.md.j2", who="Sam") == "Howdy Sam!\n"
    assert len(compiled) == 1
