"""Shared fixtures: a fresh copy of the demo fed for each test that changes files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fedtool.cli import cli
from golden import demo_copy


@pytest.fixture
def demo_fed(tmp_path: Path) -> Path:
    """The demo fed's rosters, strategies and templates in a temporary folder."""
    return demo_copy(tmp_path / "fed")


@pytest.fixture
def fedtool():
    """Run the fedtool command line; returns click's Result."""

    def run(*args: str):
        return CliRunner().invoke(cli, [str(a) for a in args])

    return run


LOCK_FILE = ".fedtool.lock"  # the fed's lock (fedtool.fed.lock): empty, left by any command that writes


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder and its bytes (but the fed's empty lock file)."""
    files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    assert files.pop(LOCK_FILE, b"") == b""
    return files
