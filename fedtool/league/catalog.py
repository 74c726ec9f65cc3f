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

from sqlite_utils import Database

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError

from .db import upsert_wrestlers
from .records import titles
from .sheets import read_roster_sheet


def sync_titles(fed: Fed, db: Database) -> int:
    """Rebuild `titles` and `title_reigns` from the settings and the league; returns how many
    reigns were written. A reign's holder the league has no row for (a first champion who
    has not wrestled yet) gets his row from his sheet first, for the foreign key."""
    rows = titles(fed, db)
    known = {row["id"] for row in db["wrestlers"].rows}
    missing = sorted({r["wrestler_id"] for t in rows for r in t["reigns"]} - known)
    for wrestler_id in missing:
        try:
            upsert_wrestlers(db, [read_roster_sheet(fed, wrestler_id)])
        except FedError:  # no sheet left to read: the id stands for him
            db["wrestlers"].insert({"id": wrestler_id, "name": wrestler_id, "ruleset": None}, pk="id")
    db.execute("DELETE FROM title_reigns")
    db.execute("DELETE FROM titles")
    db["titles"].insert_all(
        ({"id": t["id"], "position": i, "name": t["name"], "ruleset": t["ruleset"], "division": t["division"], "teams": int(bool(t["teams"])),
          "first_holder": settings.first_holder, "changes_on": json.dumps(settings.changes_on) if settings.changes_on is not None else None,
          "holder": t["holder"]}
         for i, (t, settings) in enumerate(zip(rows, fed.settings.titles))),
        pk="id",
    )
    reigns = [{"title_id": t["id"], "reign": n, **{k: r[k] for k in ("wrestler_id", "won_week", "won_match", "how", "lost_week", "lost_how", "defences", "weeks")}}
              for t in rows for n, r in enumerate(t["reigns"], start=1)]
    db["title_reigns"].insert_all(reigns, pk=("title_id", "reign"))
    return len(reigns)


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


def sync_titles_if_they_stand(fed: Fed, db: Database) -> None:
    """`sync_titles`, unless the settings' titles do not stand (`fedtool titles` says why): a
    run of a card for no such title is not stopped for it, and the rows stay as the last
    sync left them. The caller holds the transaction."""
    try:
        sync_titles(fed, db)
    except FedError:
        pass


def sync_league(fed: Fed, db: Database) -> None:
    """The wrestlers, then the titles (when the fed's title settings stand), in one transaction."""
    with db.atomic():
        sync_wrestlers(fed, db)
        sync_titles_if_they_stand(fed, db)
