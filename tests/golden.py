"""Golden playthroughs: a fixed fed, strategies and seed, whose dice log, results and
writeups are checked in under tests/golden/ and compared by tests/test_golden.py.

Regenerate them (after a deliberate change to the rules or the writeups) with:

    python tests/golden.py

and read the diff before committing it.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from fedtool.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


def demo_copy(target: Path) -> Path:
    """A copy of the demo fed's inputs (no database, no outbox) in `target`."""
    for name in ("rosters", "strategies", "templates"):
        shutil.copytree(ROOT / name, target / name)
    (target / "outbox").mkdir()
    return target


def _collect(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file()}


# the clock a playthrough runs at (fedtool.kernel.clock): every mail's Date header is this
FIXED_EPOCH = "1767528000"  # 2026-01-04T12:00:00Z


def _invoke(args: list[str]) -> str:
    result = CliRunner(env={"SOURCE_DATE_EPOCH": FIXED_EPOCH}).invoke(cli, args, catch_exceptions=False)
    if result.exit_code != 0:
        raise RuntimeError(f"fedtool {' '.join(args)} failed:\n{result.output}")
    return result.output


def playthroughs() -> dict[str, dict[str, str]]:
    """Every golden playthrough: name -> {relative file: content}."""
    out: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        fed = demo_copy(Path(tmp) / "fed")
        _invoke(["run", "1", "--fed", str(fed)])
        files = _collect(fed / "outbox" / "week-01")
        files = {k: v for k, v in files.items() if not k.startswith("announcements/")}
        files["results.json"] = _invoke(["results", "1", "--json", "--fed", str(fed)])
        out["demo-week-01"] = files

        for week in (2, 3, 4, 5):  # 2: teams, triangle, cage; 3: Mat Clash, Face to the Mat; 4: grudge; 5: tag
            _invoke(["run", str(week), "--fed", str(fed)])
            files = _collect(fed / "outbox" / f"week-0{week}")
            files = {k: v for k, v in files.items() if not k.startswith("announcements/")}
            files["results.json"] = _invoke(["results", str(week), "--json", "--fed", str(fed)])
            out[f"demo-week-0{week}"] = files

        example = fed / "strategies" / "example-part-vi"
        _invoke(["play", str(example), "--dice", str(example / "dice.txt"), "--fed", str(fed)])
        out["example-part-vi"] = _collect(fed / "outbox" / "exhibitions" / "example-part-vi")

        multi = fed / "strategies" / "example-fttm-multi"  # Face to the Mat three-for-alls and battle royales
        _invoke(["play", str(multi), "--fed", str(fed)])
        out["example-fttm-multi"] = _collect(fed / "outbox" / "exhibitions" / "example-fttm-multi")

        madmatch = fed / "strategies" / "example-madmatch"  # Mad Match: a three-player game, the classic matching game
        _invoke(["play", str(madmatch), "--fed", str(fed)])
        out["example-madmatch"] = _collect(fed / "outbox" / "exhibitions" / "example-madmatch")
    return out


def regenerate() -> None:
    for name, files in playthroughs().items():
        target = GOLDEN / name
        if target.exists():
            shutil.rmtree(target)
        for rel, text in files.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        print(f"wrote {len(files)} files to {target.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(regenerate())
