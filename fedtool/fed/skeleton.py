"""`fedtool init`: a new, empty fed with the standard layout."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import dump_yaml, read_text

README = """# {name}

A fedtool federation. Layout:

- `rosters/fed.yaml`: the fed's settings (keep `secret` private: it seeds every roll)
- `rosters/<wrestler-id>.yaml`: one sheet per wrestler
- `rosters/datasette.json`: what `fedtool browse` shows of the league (titles, descriptions)
- `strategies/week-NN/card.yaml`: a week's card; strategies beside it as `<wrestler-id>.yaml`
- `templates/`: your own writeup templates, overriding fedtool's (same names)
- `outbox/`: what runs produce
"""


# The Datasette metadata `fedtool browse` serves the league with (fedtool.roster.browse): each
# table's description, the private tables hidden and refused. A new fed gets its own copy,
# titled with its name, in rosters/ (not a .yaml: never read as a sheet), to edit as it likes.
METADATA = Path(__file__).parent / "datasette.json"
METADATA_FILE = "datasette.json"


def datasette_metadata(name: str | None = None) -> dict:
    """fedtool's Datasette metadata; with `name`, titled as the fed's league."""
    data = json.loads(read_text(METADATA, "fedtool/fed/datasette.json"))
    if name is not None:
        data["title"] = f"{name}: the league"
    return data


GITIGNORE = ("/outbox/*", "!/outbox/.gitkeep", "/*.db", "/*.db-wal", "/*.db-shm", "/*.db-journal", "/.fedtool.lock")
FOLDERS = ("rosters", "strategies", "templates", "outbox")
RULE = "fedtool init"


def create_fed(directory: Path, name: str) -> None:
    """Create the folders and a settings file with a fresh secret. Never overwrites a file:
    an existing fed is refused, an existing README.md is kept, and an existing .gitignore
    gets only the lines fedtool needs that it lacks, appended. Everything that could stop
    it is checked before anything is written."""
    settings = directory / "rosters" / "fed.yaml"
    if not 1 <= len(name.strip()) <= 120 or not name.isprintable():
        raise FedError(Problem(None, "--name", f"{name[:40]!r}: a fed's name is one line of 1 to 120 printable characters", RULE))
    if directory.exists() and not directory.is_dir():
        raise FedError(Problem(str(directory), None, "is a file: give a new folder, or one to add a fed to", RULE))
    if settings.exists():
        raise FedError(Problem(str(settings), None, "a fed already exists here; fedtool init never overwrites one", RULE))
    for sub in FOLDERS:
        if (directory / sub).exists() and not (directory / sub).is_dir():
            raise FedError(Problem(str(directory / sub), None, "is a file where the fed's folder goes: move it away first", RULE))
    gitignore = directory / ".gitignore"
    kept = read_text(gitignore, str(gitignore)) if gitignore.exists() or gitignore.is_symlink() else None  # a folder or device is refused
    for sub in FOLDERS:
        (directory / sub).mkdir(parents=True, exist_ok=True)
    text = "# The fed's settings. Keep `secret` private: with it anyone can predict the dice.\n"
    text += dump_yaml(
        {
            "name": name.strip(),
            "secret": secrets.token_hex(16),
            "ruleset": "matchmatch",
            "mail": {"from_address": "fedhead@fed.example"},
            "rulesets": {"matchmatch": {"rounds": 20, "push_levels": 5, "dq_threshold": 10}},
        }
    )
    with settings.open("x", encoding="utf-8") as handle:  # "x": never over a file that appeared meanwhile
        handle.write(text)
    (directory / "outbox" / ".gitkeep").touch()
    if kept is None:
        gitignore.write_text("".join(f"{line}\n" for line in GITIGNORE), encoding="utf-8")
    else:
        present = {line.strip() for line in kept.splitlines()}
        missing = [line for line in GITIGNORE if line not in present]
        if missing:
            lead = "" if kept.endswith("\n") or not kept else "\n"
            with gitignore.open("a", encoding="utf-8") as handle:
                handle.write(lead + "# fedtool\n" + "".join(f"{line}\n" for line in missing))
    metadata = directory / "rosters" / METADATA_FILE
    if not metadata.exists():  # a rosters/ folder that had one keeps it
        metadata.write_text(json.dumps(datasette_metadata(name.strip()), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    readme = directory / "README.md"
    if not readme.exists():
        readme.write_text(README.format(name=name.strip()), encoding="utf-8")
