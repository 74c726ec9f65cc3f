"""The compiled path (issue 18: "a compiled path ... built at install with a pure-Python
fallback when no compiler is present, both tested, but only with the same results roll for
roll"; setup.py's COMPILED, docs/architecture.md "The compiled path").

- Every ruleset plays the same compiled and pure: tests/compiled_play.py plays thousands of
  random matches of each (the full path with its records and the odds' record-free path) in two
  interpreters, one with FEDTOOL_PURE_PYTHON=1, and the digests of every dice log and result
  must be equal. The modules compared are setup.py's list, read from setup.py: a module added
  to it is covered with no change here.
- The build falls back to pure Python when the C compiler fails or Cython is missing.

When the listed modules are not built (an install without a compiler) the comparison skips,
unless FEDTOOL_COMPILED_REQUIRED=1 (CI, .ci/run) makes that a failure.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MATCHES = 1500  # random matches per ruleset, each played on both paths, in each interpreter


def listed() -> list[str]:
    """setup.py's COMPILED, as module names."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return [path.removesuffix(".py").replace("/", ".") for path in ast.literal_eval(node.value)]
    raise AssertionError("setup.py has no COMPILED list")


def built(module: str) -> bool:
    stem = ROOT / module.replace(".", "/")
    return any(stem.with_name(stem.name + suffix).exists() for suffix in EXTENSION_SUFFIXES)


def require_built() -> None:
    missing = [m for m in listed() if not built(m)]
    if missing:
        if os.environ.get("FEDTOOL_COMPILED_REQUIRED"):
            pytest.fail(f"FEDTOOL_COMPILED_REQUIRED is set but these are not compiled: {missing} (pip install -e . builds them; see its warnings)")
        pytest.skip(f"not compiled here: {missing}")


def environment(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "FEDTOOL_PURE_PYTHON"}
    env["PYTHONHASHSEED"] = "0"  # the same set order in both interpreters (a result's repr may show a set)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    if pure:
        env["FEDTOOL_PURE_PYTHON"] = "1"
    return env


def test_setup_lists_modules_that_exist():
    names = listed()
    assert names and len(set(names)) == len(names)
    for name in names:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.slow
def test_every_ruleset_plays_the_same_compiled_and_pure():
    """Roll for roll: the same dice logs and results (records included) over thousands of
    random matches of every ruleset, compiled and pure, each run in its own interpreter."""
    require_built()
    command = [sys.executable, str(ROOT / "tests" / "compiled_play.py"), "--matches", str(MATCHES)]
    runs = {pure: subprocess.Popen(command, cwd=ROOT, env=environment(pure), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for pure in (False, True)}
    found = {}
    for pure, run in runs.items():
        out, err = run.communicate(timeout=900)
        assert run.returncode == 0, err
        found[pure] = json.loads(out)
    compiled, pure = found[False], found[True]
    names = listed()
    # each interpreter ran what it was meant to: every listed module compiled in one, none in the other
    assert pure["loaded_compiled"] == [] and pure["compiled"] == []
    unplayed = sorted(set(names) - set(compiled["imported"]))
    assert not unplayed, f"tests/compiled_play.py never imports {unplayed}: make it play what they run"
    assert set(names) <= set(compiled["loaded_compiled"]), compiled["loaded_compiled"]
    assert set(compiled["compiled"]) >= set(names)
    assert set(compiled["rulesets"]) == set(pure["rulesets"]) == {"matchmatch", "facemat", "matclash", "madmatch"}
    for ruleset, figures in pure["rulesets"].items():
        assert figures["plays"] >= MATCHES
        assert compiled["rulesets"][ruleset]["digest"] == figures["digest"], f"{ruleset} plays differently compiled"


def test_the_pure_switch_imports_no_compiled_module():
    """FEDTOOL_PURE_PYTHON=1: every fedtool module from its .py, and compiled_modules() says so."""
    script = ("import sys, fedtool, fedtool.kernel.dice, fedtool.rulesets.madmatch.engine\n"
              "files = [m.__file__ for n, m in sys.modules.items() if n.startswith('fedtool') and getattr(m, '__file__', None)]\n"
              "print(fedtool.compiled_modules(), all(f.endswith('.py') for f in files))")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment(True), capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "True"]


def test_compiled_modules_names_what_is_built():
    require_built()
    script = "import fedtool, fedtool.kernel.dice\nprint(' '.join(fedtool.compiled_modules()))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment(False), capture_output=True, text=True, check=True).stdout
    assert set(out.split()) >= set(listed())


def copy_tree(to: Path) -> Path:
    """What a build needs: setup.py, pyproject.toml, the package (no built extensions), and
    Cython's C already made here, if any (so the copy's build does not translate again)."""
    to.mkdir(parents=True, exist_ok=True)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, to / name)
    shutil.copytree(ROOT / "fedtool", to / "fedtool", ignore=shutil.ignore_patterns("__pycache__", *[f"*{s}" for s in EXTENSION_SUFFIXES]))
    if (ROOT / "build" / "cython").is_dir():
        shutil.copytree(ROOT / "build" / "cython", to / "build" / "cython")
    return to


def build(tree: Path, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("FEDTOOL_PURE_PYTHON", "PYTHONPATH")} | env
    return subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, env=environ, capture_output=True, text=True,
                          timeout=600)


def pure_import_works(tree: Path) -> None:
    script = ("import fedtool, fedtool.kernel.dice as d, fedtool.rulesets.madmatch.engine as e\n"
              "print(fedtool.compiled_modules(), d.__file__.endswith('.py'), e.__file__.endswith('.py'), d.SeededDice(7).roll(3, 6, 'x').hex())")
    out = subprocess.run([sys.executable, "-c", script], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:3] == ["[]", "True", "True"]


@pytest.mark.slow
def test_a_failing_c_compiler_installs_pure_python(tmp_path):
    """No working C compiler (CC=/bin/false): the build warns, succeeds, and leaves pure Python."""
    pytest.importorskip("Cython")  # (the test extra has it: this skips only outside `pip install -e ".[test]"`)
    tree = copy_tree(tmp_path)
    done = build(tree, CC="/bin/false", LDSHARED="/bin/false")
    assert done.returncode == 0, done.stderr
    assert "WARNING: fedtool:" in done.stderr and "could not be compiled" in done.stderr
    assert not [p for s in EXTENSION_SUFFIXES for p in (tree / "fedtool").rglob(f"*{s}")]
    pure_import_works(tree)


def test_no_cython_installs_pure_python(tmp_path):
    """No Cython (an install without build isolation): the build warns, succeeds, and leaves pure Python."""
    tree = copy_tree(tmp_path / "tree")
    blocker = tmp_path / "no-cython" / "Cython"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('Cython is hidden for this test')\n")
    done = build(tree, PYTHONPATH=str(blocker.parent))
    assert done.returncode == 0, done.stderr
    assert "Cython is not installed" in done.stderr
    assert not [p for s in EXTENSION_SUFFIXES for p in (tree / "fedtool").rglob(f"*{s}")]
    pure_import_works(tree)


def test_version_says_what_is_compiled(monkeypatch):
    """`fedtool --version` names the compiled modules, or says pure Python."""
    import fedtool
    from click.testing import CliRunner

    from fedtool.cli import cli

    for names, line in ((["fedtool.kernel.dice"], "compiled: fedtool.kernel.dice"), ([], "compiled: nothing (pure Python)")):
        monkeypatch.setattr(fedtool, "compiled_modules", lambda names=names: names)
        result = CliRunner().invoke(cli, ["--version"])
        assert result.exit_code == 0 and result.output.splitlines() == ["fedtool, version 0.1.0", line]


def test_an_edited_module_runs_its_source_not_its_stale_build(tmp_path):
    """setup.py marks each build with its source's SHA-256: once a module's .py changes (a
    developer's edit, a mutation test), fedtool imports the .py, not the stale build, while the
    other compiled modules stay compiled."""
    require_built()
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "fedtool", tree / "fedtool", ignore=shutil.ignore_patterns("__pycache__"))
    script = ("import fedtool, fedtool.kernel.dice as d, fedtool.rulesets.madmatch.engine as e\n"
              "print(' '.join(fedtool.compiled_modules()), d.__file__.endswith('.py'), e.__file__.endswith('.py'), sep='|')")
    env = {**environment(False), "PYTHONPATH": str(tree)}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().split("|")

    compiled, dice_pure, engine_pure = run()
    assert "fedtool.kernel.dice" in compiled.split() and (dice_pure, engine_pure) == ("False", "False")
    source = tree / "fedtool/kernel/dice.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    compiled, dice_pure, engine_pure = run()
    assert "fedtool.kernel.dice" not in compiled.split() and "fedtool.rulesets.madmatch.engine" in compiled.split()
    assert (dice_pure, engine_pure) == ("True", "False")
    for mark in (tree / "fedtool/rulesets/madmatch").glob("engine.compiled-from.sha256"):
        mark.unlink()  # a build with no mark (made by hand, or by an older setup.py): not trusted either
    compiled, dice_pure, engine_pure = run()
    assert "fedtool.rulesets.madmatch.engine" not in compiled.split() and engine_pure == "True"


def setup_py() -> dict:
    """setup.py's functions and classes, without its call to setup()."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    tree.body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                                                    and getattr(node.value.func, "id", "") == "setup")]
    found: dict = {"__name__": "fedtool_setup"}
    here = os.getcwd()
    os.chdir(ROOT)  # (it reads the sources by their paths from the repository's root)
    try:
        exec(compile(tree, str(ROOT / "setup.py"), "exec"), found)  # noqa: S102 - the repository's own setup.py
    finally:
        os.chdir(here)
    return found


def test_a_module_that_cimports_another_is_built_only_with_it(monkeypatch):
    """Face to the Mat's engine cimports the dice's `_Streams` (engine.pxd): setup.py leaves it
    unbuilt when the dice were not translated (or not compiled), and its mark names the dice's
    .py and .pxd with their SHA-256, which fedtool checks at import."""
    found = setup_py()
    monkeypatch.chdir(ROOT)
    assert found["cimported"]("fedtool/rulesets/facemat/engine.py") == ["fedtool/kernel/dice.py"]
    assert found["cimported"]("fedtool/kernel/dice.py") == [] and found["cimported"]("fedtool/rulesets/madmatch/engine.py") == []
    extension = found["_extension"]
    everything = [extension(path) for path in found["COMPILED"]]
    keep = found["OptionalBuildExt"]._with_what_they_cimport
    assert [e.name for e in keep(everything, "translated")] == [e.name for e in everything]
    without_dice = [e for e in everything if e.name != "fedtool.kernel.dice"]
    kept = [e.name for e in keep(without_dice, "translated")]
    assert "fedtool.rulesets.facemat.engine" not in kept and "fedtool.rulesets.facemat.royale" in kept and len(kept) == len(everything) - 2
    lines = found["mark_text"]("fedtool/rulesets/facemat/engine.py").splitlines()
    digest = lambda path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest()  # noqa: E731
    assert lines == [digest("fedtool/rulesets/facemat/engine.py"), f"fedtool/kernel/dice.py {digest('fedtool/kernel/dice.py')}",
                     f"fedtool/kernel/dice.pxd {digest('fedtool/kernel/dice.pxd')}"]
    assert found["mark_text"]("fedtool/kernel/dice.py") == digest("fedtool/kernel/dice.py") + "\n"


def test_a_module_that_cimports_the_dice_runs_pure_whenever_they_do(tmp_path):
    """No half-compiled state: the engine, built against the dice's C layout, would not even
    import beside pure dice (Cython: "_Streams size changed"). With dice.py edited since the
    build, with the dice's build gone, or with dice.pxd edited, it runs from its .py too, the
    other compiled modules stay compiled, and every Face to the Mat match plays the same."""
    require_built()
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "fedtool", tree / "fedtool", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**environment(False), "PYTHONPATH": str(tree)}
    script = ("import fedtool, fedtool.kernel.dice as d, fedtool.rulesets.facemat.engine as e, fedtool.rulesets.facemat.royale as r\n"
              "print(' '.join(fedtool.compiled_modules()), d.__file__.endswith('.py'), e.__file__.endswith('.py'), r.__file__.endswith('.py'), sep='|')")

    def run() -> tuple:
        done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        compiled, *pure = done.stdout.strip().split("|")
        play = subprocess.run([sys.executable, str(ROOT / "tests" / "compiled_play.py"), "--only", "facemat", "--matches", "150"],
                              cwd=tmp_path, env=env, capture_output=True, text=True)
        assert play.returncode == 0, play.stderr
        return set(compiled.split()), pure, json.loads(play.stdout)["rulesets"]["facemat"]["digest"]

    compiled, pure, digest = run()
    assert {"fedtool.kernel.dice", "fedtool.rulesets.facemat.engine"} <= compiled and pure == ["False", "False", "False"]
    dice = tree / "fedtool/kernel/dice.py"
    text = dice.read_text(encoding="utf-8")
    others = {"fedtool.rulesets.facemat.royale", "fedtool.rulesets.madmatch.engine"}
    pxd = tree / "fedtool/kernel/dice.pxd"
    for change in ("dice.py edited", "dice.pxd edited", "the dice not built"):
        dice.write_text(text, encoding="utf-8")
        if change == "dice.py edited":
            dice.write_text(text + "\n# edited after the build\n", encoding="utf-8")
        elif change == "dice.pxd edited":  # (built again with it, the dice would be compiled, with another layout maybe)
            assert run()[0] == compiled  # as built
            layout = pxd.read_text(encoding="utf-8")
            pxd.write_text(layout + "\n# edited after the build\n", encoding="utf-8")
        else:
            pxd.write_text(layout, encoding="utf-8")
            for built in [p for s in EXTENSION_SUFFIXES for p in (tree / "fedtool/kernel").glob(f"dice{s}")]:
                built.unlink()
        now, pure_now, digest_now = run()
        assert "fedtool.rulesets.facemat.engine" not in now and others <= now, change
        assert pure_now == [str(change != "dice.pxd edited"), "True", "False"], change
        assert ("fedtool.kernel.dice" in now) == (change == "dice.pxd edited"), change
        assert digest_now == digest, change
