"""The architecture as docs/architecture.md draws it: layers, plug-in rulesets, no cycles,
rulesets imported only when named, and a map whose every file and function exists."""

from __future__ import annotations

import ast
import graphlib
import json
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from fedtool.rulesets import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def test_the_import_contracts_hold(monkeypatch):
    """pyproject.toml's contracts: layers, rulesets as plug-ins, independent rulesets, no
    cycles among siblings (lint-imports exits 0 only when every contract is kept)."""
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_no_module_of_fedtool_is_in_an_import_cycle():
    """Every import in fedtool, as grimp reads it (inside functions too), sorts topologically."""
    graph = grimp.build_graph("fedtool", cache_dir=None)
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    try:
        order = list(graphlib.TopologicalSorter(imports).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")
    assert "fedtool.kernel.errors" in order and "fedtool.cli" in order
    assert order.index("fedtool.kernel.errors") < order.index("fedtool.cli")


def test_every_ruleset_in_the_registry_imports_only_the_kernel_and_its_interface():
    graph = grimp.build_graph("fedtool", cache_dir=None)
    for ruleset_id, where in REGISTRY.items():
        package = where.partition(":")[0]
        reached = set()
        for module in graph.find_descendants(package) | {package}:
            reached |= graph.find_upstream_modules(module)
        outside = {m for m in reached if not m.startswith((package, "fedtool.kernel")) and m != "fedtool.rulesets.base"}
        assert not outside, f"{ruleset_id} reaches {sorted(outside)}"


# a MatchMatch-only week, run from the command line in a fresh interpreter
RUN_AND_LIST_MODULES = """
import json, sys
from fedtool.cli import cli
try:
    cli(["run", "1", "--fed", sys.argv[1]], prog_name="fedtool")
except SystemExit as exc:
    code = exc.code
print(json.dumps({"exit": code, "modules": sorted(m for m in sys.modules if m.startswith("fedtool"))}))
"""


def test_a_matchmatch_week_imports_no_other_ruleset(demo_fed):
    card = (demo_fed / "strategies/week-01/card.yaml").read_text(encoding="utf-8")
    assert "ruleset: matclash" not in card and "ruleset: facemat" not in card  # week 1 is MatchMatch only
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, str(demo_fed)], capture_output=True, text=True, timeout=120, cwd=demo_fed)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["exit"] == 0  # click ends a command it ran with SystemExit(0)
    assert (demo_fed / "outbox/week-01/card.md").is_file()
    modules = report["modules"]
    assert "fedtool.rulesets.matchmatch.engine" in modules  # the week was played
    assert [m for m in modules if m.startswith(("fedtool.rulesets.matclash", "fedtool.rulesets.facemat"))] == []


def test_python_dash_m_fedtool_is_the_command():
    done = subprocess.run([sys.executable, "-m", "fedtool", "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: fedtool [OPTIONS] COMMAND [ARGS]...")
    assert "standings" in done.stdout and "--fed DIRECTORY" in done.stdout


def test_fed_may_come_before_the_command(demo_fed, fedtool, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no fed here: the option must be what finds it
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    before = fedtool("--fed", demo_fed, "standings")
    after = fedtool("standings", "--fed", demo_fed)
    assert before.exit_code == 0, before.output
    assert before.output == after.output and "Brother Bob" in before.output
    # after the command it wins over before it, and FEDTOOL_FED is the default for both
    assert fedtool("--fed", tmp_path / "nowhere", "standings", "--fed", demo_fed).output == after.output
    monkeypatch.setenv("FEDTOOL_FED", str(demo_fed))
    assert fedtool("standings").output == after.output
    wrong = fedtool("--fed", tmp_path / "nowhere", "titles")
    assert wrong.exit_code == 1 and "no fed settings here" in wrong.output


def _table_rows() -> list[tuple[str, str, str]]:
    """(what, file, function) for each row of the "To change this, go there" table."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## To change this, go there", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith("`"):
            rows.append((cells[0], cells[1].strip("`"), cells[2].strip("`")))
    return rows


def _defines(path: Path, dotted: str) -> bool:
    """Whether the file defines `dotted`: a function or class, `Outer.inner` for one inside another."""
    scope: list[ast.stmt] = ast.parse(path.read_text(encoding="utf-8")).body
    for name in dotted.split("."):
        found = next((node for node in scope if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name), None)
        if found is None:
            return False
        scope = found.body
    return True


def test_the_map_names_files_and_functions_that_exist():
    rows = _table_rows()
    assert len(rows) >= 40
    covered = {re.match(r"(MatchMatch|Face to the Mat|Mat Clash)", what).group(1) for what, _, _ in rows if re.match(r"(MatchMatch|Face to the Mat|Mat Clash)", what)}
    assert covered == {"MatchMatch", "Face to the Mat", "Mat Clash"}
    missing = [f"{file}: {function}" for _, file, function in rows if not (ROOT / file).is_file() or not _defines(ROOT / file, function)]
    assert missing == []


def test_the_map_check_catches_a_wrong_name(tmp_path):
    """The check above would see a renamed function (it is not a check that cannot fail)."""
    source = tmp_path / "m.py"
    source.write_text("def outer():\n    def inner():\n        pass\n\nclass Scrap:\n    def play(self):\n        pass\n", encoding="utf-8")
    assert _defines(source, "outer.inner") and _defines(source, "Scrap.play")
    assert not _defines(source, "outer.other") and not _defines(source, "Scrap.draw") and not _defines(source, "inner")


def test_every_hook_the_architecture_lists_is_on_the_base_class():
    from fedtool.rulesets.base import Ruleset

    text = ARCHITECTURE.read_text(encoding="utf-8").split("## The ruleset hooks", 1)[1].split("## To change this", 1)[0]
    hooks = {name for cell in re.findall(r"^\| ([^|]+) \|", text, re.MULTILINE) for name in re.findall(r"`(\w+)`", cell)}
    assert {"book", "resolve", "trial", "standing_columns", "mail_strategy_suffix"} <= hooks
    assert sorted(h for h in hooks if not hasattr(Ruleset, h)) == []


def test_a_rulesets_own_state_keys_are_kept_by_the_league(tmp_path):
    """A ruleset's state beyond the league's columns (a new ruleset's, say) is stored and read
    back as it was written, beside the known columns, and a rerun's undo removes it."""
    from fedtool.league.db import open_league, record_week, states_before, undo_week
    from fedtool.rulesets.base import WrestlerRecord

    db = open_league(tmp_path / "fed.db")
    ada = WrestlerRecord("ada", "Ada", "matchmatch", "Ada's Player", "ada@players.example", None)
    with db.atomic():
        record_week(db, 1, "Week 1", "2026-11-23T00:00:00+00:00", "seeded", [ada], [],
                    {"ada": ({"injury": 2, "pairs_matched": 7, "frozen": ["sun", "bolt"]}, "a test")}, [])
    assert states_before(db, 2) == {"ada": {"injury": 2, "pairs_matched": 7, "frozen": ["sun", "bolt"]}}
    assert states_before(db, 1) == {}
    with db.atomic():
        undo_week(db, 1)
    assert states_before(db, 2) == {}
