"""The README's two set-up commands: the second is exactly what CI runs (.ci/run)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", section, re.DOTALL)
    assert len(commands) == 2
    assert "fedtool run 1" in commands[0]
    ci = [line for line in (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines() if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == [commands[1]]


def test_no_file_holds_a_merge_conflict():
    """Work merged from several branches: no text file keeps a conflict marker."""
    marked = []
    for folder in ("fedtool", "docs", "tests", "benchmarks", "strategies", "rosters", "templates", ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".j2", ".yaml", ".toml", ".txt", "") and "golden" not in path.parts:
                text = path.read_text(encoding="utf-8", errors="replace")
                if re.search(r"^(<{7} |>{7} |={7}$)", text, re.MULTILINE):
                    marked.append(str(path.relative_to(ROOT)))
    for name in ("README.md", "pyproject.toml"):
        if re.search(r"^(<{7} |>{7} |={7}$)", (ROOT / name).read_text(encoding="utf-8"), re.MULTILINE):
            marked.append(name)
    assert marked == []
