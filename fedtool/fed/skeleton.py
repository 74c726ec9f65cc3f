"""`fedtool init`: a new, empty fed with the standard layout."""

from __future__ import annotations

import secrets
from pathlib import Path

from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import dump_yaml

README = """# {name}

A fedtool federation. Layout:

- `rosters/fed.yaml`: the fed's settings (keep `secret` private: it seeds every roll)
- `rosters/<wrestler-id>.yaml`: one sheet per wrestler
- `strategies/week-NN/card.yaml`: a week's card; strategies beside it as `<wrestler-id>.yaml`
- `templates/`: your own writeup templates, overriding fedtool's (same names)
- `outbox/`: what runs produce
"""


def create_fed(directory: Path, name: str) -> None:
    """Create the folders and a settings file with a fresh secret; refuse to overwrite a fed."""
    settings = directory / "rosters" / "fed.yaml"
    if settings.exists():
        raise FedError(Problem(str(settings), None, "a fed already exists here; fedtool init never overwrites one", "fedtool init"))
    for sub in ("rosters", "strategies", "templates", "outbox"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    text = "# The fed's settings. Keep `secret` private: with it anyone can predict the dice.\n"
    text += dump_yaml(
        {
            "name": name,
            "secret": secrets.token_hex(16),
            "ruleset": "matchmatch",
            "mail": {"from_address": "fedhead@fed.example"},
            "rulesets": {"matchmatch": {"rounds": 20, "push_levels": 5, "dq_threshold": 10}},
        }
    )
    settings.write_text(text, encoding="utf-8")
    (directory / "outbox" / ".gitkeep").touch()
    (directory / ".gitignore").write_text("/outbox/*\n!/outbox/.gitkeep\n/*.db\n/*.db-wal\n/*.db-shm\n/*.db-journal\n/.fedtool.lock\n", encoding="utf-8")
    readme = directory / "README.md"
    if not readme.exists():
        readme.write_text(README.format(name=name), encoding="utf-8")
