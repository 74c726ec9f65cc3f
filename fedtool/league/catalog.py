"""The league as rows any tool can read (issue 19): the fed's titles and their reigns, and
every roster sheet's wrestler, kept in `fed.db` beside what the runs write.

The settings stay the fed's declaration of its titles (rosters/fed.yaml `titles:`); the
lineage is replayed from them, the title matches and the fedhead's rulings
(fedtool.league.records.titles). `sync_titles` writes that replay as rows (`titles`,
`title_reigns`, migration 15) after every run, vacate and award, so Datasette, a
spreadsheet or SQL reads the same lineage `fedtool titles` prints. `sync_wrestlers` gives
every sheet (on the roster or retired) its `wrestlers` row, its owner's address in the
private `owners` table and a team's members, so a wrestler who has not wrestled yet is
in the league too. Both only write `fed.db`; the caller holds the transaction.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import load_yaml

from .db import upsert_wrestlers
from .records import _lineages, check_title_settings
from .sheets import read_roster_sheet

if TYPE_CHECKING:  # sqlite-utils where the league is written (fedtool.league.db.read_league reads without it)
    from sqlite_utils import Database


def sync_titles(fed: Fed, db: Database, check: bool = True) -> int:
    """Rebuild `titles` and `title_reigns` from the settings and the league; returns how many
    reigns were written. With `check`, the title settings are checked against their rulesets
    first (`fedtool titles` does the same); a run passes False, so a week imports only the
    rulesets its card plays. A reign's holder the league has no row for (a first champion
    who has not wrestled yet) gets one from his sheet as written (its name, ruleset and
    owner, no ruleset read), for the foreign key."""
    if check:
        check_title_settings(fed)
    lineages = _lineages(fed, db)
    known = {row["id"] for row in db["wrestlers"].rows}
    for wrestler_id in sorted({r["wrestler_id"] for t in lineages.values() for r in t.reigns} - known):
        _insert_as_written(fed, db, wrestler_id)
    db.execute("DELETE FROM title_reigns")
    db.execute("DELETE FROM titles")
    db["titles"].insert_all(
        ({"id": t.settings.id, "position": i, "name": t.settings.name, "ruleset": t.settings_ruleset, "division": t.settings.division,
          "teams": int(t.settings.teams), "first_holder": t.settings.first_holder,
          "changes_on": json.dumps(t.settings.changes_on) if t.settings.changes_on is not None else None, "holder": t.holder}
         for i, t in enumerate(lineages.values())),
        pk="id",
    )
    reigns = [{"title_id": t.settings.id, "reign": n, **{k: r[k] for k in ("wrestler_id", "won_week", "won_match", "how", "lost_week", "lost_how", "defences", "weeks")}}
              for t in lineages.values() for n, r in enumerate(t.reigns, start=1)]
    db["title_reigns"].insert_all(reigns, pk=("title_id", "reign"))
    return len(reigns)


def _insert_as_written(fed: Fed, db: Database, wrestler_id: str) -> None:
    """A wrestler's row from his sheet as written (no ruleset read), or his id alone."""
    path = fed.roster_files.get(wrestler_id) or fed.retired_files.get(wrestler_id)
    data: dict = {}
    if path is not None:
        try:
            loaded = load_yaml(path, fed.shown(path))
            data = loaded if isinstance(loaded, dict) else {}
        except FedError:
            pass
    owner = data.get("owner") if isinstance(data.get("owner"), dict) else {}
    name = data.get("name")
    members = data.get("members")
    db["wrestlers"].insert({"id": wrestler_id, "name": name if isinstance(name, str) else wrestler_id,
                            "ruleset": str(data.get("ruleset", fed.settings.ruleset)), "owner_name": str(owner.get("name") or ""),
                            "members": json.dumps([str(m) for m in members]) if isinstance(members, list) else None}, pk="id")
    if owner.get("email"):
        db["owners"].insert({"wrestler_id": wrestler_id, "owner_email": str(owner["email"])}, pk="wrestler_id")


def sync_wrestlers(fed: Fed, db: Database) -> list[str]:
    """Every sheet that reads (on the roster and retired) as its `wrestlers` row; returns the
    ids of the sheets that do not read (`fedtool roster check` says why)."""
    bad = []
    records = []
    for wrestler_id in sorted({**fed.roster_files, **fed.retired_files}):
        try:
            records.append(read_roster_sheet(fed, wrestler_id))
        except FedError:
            bad.append(wrestler_id)
    upsert_wrestlers(db, records)
    return bad


def sync_titles_if_they_stand(fed: Fed, db: Database, check: bool = True) -> None:
    """`sync_titles`, unless the settings' titles do not stand (`fedtool titles` says why): a
    run of a card for no such title is not stopped for it, and the rows stay as the last
    sync left them. The caller holds the transaction."""
    try:
        sync_titles(fed, db, check)
    except FedError:
        pass


def sync_league(fed: Fed, db: Database) -> None:
    """The wrestlers, then the titles (when the fed's title settings stand), in one transaction."""
    with db.atomic():
        sync_wrestlers(fed, db)
        sync_titles_if_they_stand(fed, db)
