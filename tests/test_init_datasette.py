"""`fedtool init` gives a new fed its Datasette metadata (rosters/datasette.json: what
`fedtool browse` shows of the league), and `browse` describes every table of the league,
the private ones hidden and refused, even where a fed's file was written before a table
was added (the demo's has no `seasons`)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from fedtool.cli import cli
from fedtool.league.db import PRIVATE_TABLES
from fedtool.league.sheets import load_fed

ROOT = Path(__file__).resolve().parent.parent
EMPTY_LEAGUE = ROOT / "fedtool/league/empty_league.sql"


def league_tables() -> set[str]:
    """Every table and view of a new league (fedtool/league/empty_league.sql), but the
    migrations' own record (`_sqlite_migrations`)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(EMPTY_LEAGUE.read_text(encoding="utf-8"))
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'") if not name.startswith("_")}
    finally:
        db.close()


def test_init_writes_the_metadata_browse_reads_titled_with_the_fed(tmp_path):
    from fedtool.roster.browse import NOT_SERVED, prepare

    fed = tmp_path / "dcw"
    result = CliRunner().invoke(cli, ["init", str(fed), "--name", "Delta Championship Wrestling"])
    assert result.exit_code == 0, result.output
    written = (fed / "rosters/datasette.json").read_text(encoding="utf-8")
    metadata = json.loads(written)
    assert metadata["title"] == "Delta Championship Wrestling: the league"
    tables = metadata["databases"]["fed"]["tables"]
    for name in PRIVATE_TABLES:
        assert tables[name]["hidden"] is True and tables[name]["allow"] is False, name
    assert set(NOT_SERVED) - set(PRIVATE_TABLES) <= set(tables)  # described; refused when served (`serve_metadata`)
    # the fed's first browse (after a week is run) keeps the file init wrote
    from fedtool.league.db import open_league

    open_league(fed / "fed.db").close()
    prepare(load_fed(fed))
    assert (fed / "rosters/datasette.json").read_text(encoding="utf-8") == written


def test_every_table_of_the_league_is_described_and_served_with_a_description(demo_fed):
    """fedtool's own metadata describes every table and view of a new league; a fed's file
    that leaves one out (as the demo's, written before seasons could be closed) is served with
    fedtool's description of it, and its own descriptions kept."""
    from fedtool.roster.browse import default_metadata, serve_metadata

    ours = default_metadata()["databases"]["fed"]["tables"]
    assert league_tables() - set(ours) == set()
    path = demo_fed / "rosters/datasette.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    demo = metadata["databases"]["fed"]["tables"]
    demo.pop("seasons", None)  # as the demo's was written, before seasons could be closed
    demo["wrestlers"]["description"] = "The fed's own words."
    path.write_text(json.dumps(metadata), encoding="utf-8")
    served = serve_metadata(load_fed(demo_fed))["databases"]["fed"]["tables"]
    assert served["seasons"]["description"] == ours["seasons"]["description"]
    assert served["wrestlers"]["description"] == "The fed's own words."
    assert all(served[name].get("description") for name in league_tables())
