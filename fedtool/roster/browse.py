"""`fedtool browse`: the league in Datasette, on this machine (issue 19).

The fed keeps a Datasette metadata file, rosters/datasette.json (`fedtool init` writes it
from fedtool's own, fedtool/fed/datasette.json, titled with the fed's name; `browse`
writes it so for a fed that has none): table descriptions, and the private tables (owners'
e-mail addresses, password hashes, mail records: fedtool.league.db.PRIVATE_TABLES) hidden
and refused. A table the fed's file does not describe (one a later fedtool added) gets
fedtool's own description. Whatever the fed's file says, `serve_metadata` refuses those
tables again, and Datasette is run with arbitrary SQL and the database download turned
off, so no address or hash is ever served. The league is
brought up to date first (titles and reigns as rows, every sheet's wrestler), under the
fed's lock; Datasette then reads fed.db without it.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from fedtool.fed.files import atomic_write
from fedtool.fed.lock import fed_lock
from fedtool.fed.settings import Fed
from fedtool.fed.skeleton import METADATA_FILE, datasette_metadata
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import read_text
from fedtool.league.catalog import sync_league
from fedtool.league.db import PRIVATE_TABLES, open_league

RULE = "fedtool browse"
SETTINGS = ("allow_download", "off", "default_allow_sql", "off", "allow_csv_stream", "on")


# Besides the private tables: roster_changes keeps each sheet whole, before and after, its
# owner's e-mail address with it; ticks names the addresses a send was refused for and the
# fed's mailbox. `fedtool history` shows the roster changes' weeks and reasons.
NOT_SERVED = (*PRIVATE_TABLES, "roster_changes", "ticks")


def default_metadata(name: str | None = None) -> dict:
    """fedtool's own metadata (fedtool/fed/datasette.json); with `name`, titled as the fed's."""
    return datasette_metadata(name)


def fed_metadata(fed: Fed) -> dict:
    """The fed's rosters/datasette.json, or fedtool's own when it has none."""
    path = fed.rosters / METADATA_FILE
    if not path.exists():
        return default_metadata()
    try:
        data = json.loads(read_text(path, fed.shown(path)))
    except ValueError as exc:
        raise FedError(Problem(fed.shown(path), None, f"is not JSON ({exc})", "Datasette metadata")) from None
    if not isinstance(data, dict):
        raise FedError(Problem(fed.shown(path), None, "is not a JSON object", "Datasette metadata"))
    return data


def serve_metadata(fed: Fed) -> dict:
    """The metadata Datasette is given: the fed's, under the league file's own name, with
    every private table refused and hidden and SQL refused, whatever the file says."""
    data = copy.deepcopy(fed_metadata(fed))
    databases = data.get("databases") if isinstance(data.get("databases"), dict) else {}
    ours = databases.get("fed") or databases.get(fed.database.stem) or {}
    ours = dict(ours) if isinstance(ours, dict) else {}
    tables = dict(ours.get("tables") or {}) if isinstance(ours.get("tables"), dict) else {}
    for name, entry in default_metadata()["databases"]["fed"]["tables"].items():  # a table the fed's file does not describe
        if name not in tables:
            tables[name] = dict(entry)
    for name in NOT_SERVED:
        entry = dict(tables.get(name) or {})
        entry.update(hidden=True, allow=False)
        tables[name] = entry
    ours["tables"] = tables
    ours["allow_sql"] = False
    data["databases"] = {fed.database.stem: ours}
    data["allow_sql"] = False
    return data


def datasette_installed() -> bool:
    return importlib.util.find_spec("datasette") is not None


def serve_command(fed: Fed, metadata_file: Path, host: str = "127.0.0.1", port: int = 8001, open_browser: bool = True) -> list[str]:
    """How Datasette is run on the league."""
    command = [sys.executable, "-m", "datasette", "serve", str(fed.database), "--metadata", str(metadata_file), "--host", host, "--port", str(port)]
    from fedtool.league.db import LEAN_PLUGINS

    command += ["--plugins-dir", str(LEAN_PLUGINS)]  # fedtool_inflate, which the league's views of packed weeks read with (m017)
    for name, value in zip(SETTINGS[::2], SETTINGS[1::2]):
        command += ["--setting", name, value]
    if open_browser:
        command.append("--open")
    return command


def prepare(fed: Fed) -> None:
    """Bring the league's rows up to date and give the fed its metadata file, under the lock."""
    if not fed.database.exists():
        raise FedError(Problem(fed.shown(fed.database), None, "there is no league yet: run a week first", RULE))
    with fed_lock(fed):
        db = open_league(fed.database)
        try:
            sync_league(fed, db)
        finally:
            db.close()
        path = fed.rosters / METADATA_FILE
        if not path.exists():
            atomic_write(path, json.dumps(default_metadata(fed.settings.name), indent=2, ensure_ascii=False) + "\n")


def browse(fed: Fed, host: str = "127.0.0.1", port: int = 8001, open_browser: bool = True) -> int:
    """Serve the league with Datasette until stopped (Ctrl-C); returns Datasette's exit status."""
    if not datasette_installed():
        raise FedError(Problem(None, None, "Datasette is not installed: `pip install datasette` (in fedtool's environment), then run this again", RULE))
    prepare(fed)
    with tempfile.TemporaryDirectory(prefix="fedtool-browse-") as folder:
        metadata = Path(folder) / "metadata.json"
        metadata.write_text(json.dumps(serve_metadata(fed)), encoding="utf-8")
        try:
            return subprocess.call(serve_command(fed, metadata, host, port, open_browser))
        except KeyboardInterrupt:
            return 0
