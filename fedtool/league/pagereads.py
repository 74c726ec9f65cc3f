"""Reads of the league for one page at a time: a week's or a wrestler's title changes, one
title's reigns as a stream (issue 18 item 5).

`records.titles` replays every title's lineage and holds every reign; the site's pages ask
for what each shows and no more: a week's page its week's title changes, a wrestler's page
his own, a title's page its reigns as they are replayed (one at a time, each handed on
when the next begins), the list of titles each title's holder and count of reigns. What a
site build holds for them then does not grow with the weeks. Each gives what `records`
gives for the same league (tests/test_league_pagereads.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from fedtool.fed.settings import Fed

from .records import _names, check_title_settings

if TYPE_CHECKING:
    from sqlite_utils import Database


def title_changes(db: "Database", weeks: tuple[int, int] | None = None, wrestler: str | None = None) -> Iterator[tuple]:
    """The title changes of the league, oldest first, as a stream of rows: each week's titles
    won by its run's title matches (card order), then the fedhead's awards and vacates made
    after it (in the order made). Each row: (week, title_id, wrestler_id, lost: who lost it
    or None, method: the match's finish or None, action: "won" (a match), "awarded" or "vacated"
    (a ruling), reason: the ruling's or None, at: when the ruling was made, None for a match's). `weeks` (low, high)
    keeps those weeks'; `wrestler` those he won, lost, or was awarded or stripped of."""
    if not db["title_matches"].exists():
        return iter(())
    match_where, ruling_where, match_params, ruling_params = ["t.result = 'won'"], [], [], []
    if weeks is not None:
        match_where.append("t.week BETWEEN ? AND ?")
        ruling_where.append("r.after_week BETWEEN ? AND ?")
        match_params += list(weeks)
        ruling_params += list(weeks)
    if wrestler is not None:
        match_where.append("(t.winner = ? OR t.holder_before = ?)")
        ruling_where.append("r.wrestler_id = ?")
        match_params += [wrestler, wrestler]
        ruling_params.append(wrestler)
    sql = ("SELECT t.week, 0, m.position, t.rowid, t.title_id, t.winner, t.holder_before, t.method, 'won', NULL, NULL "
           f"FROM title_matches t JOIN matches m ON m.id = t.match_id WHERE {' AND '.join(match_where)} "
           "UNION ALL SELECT r.after_week, 1, r.id, r.id, r.title_id, r.wrestler_id, NULL, NULL, r.action, r.reason, r.made_at "
           f"FROM title_rulings r {'WHERE ' + ' AND '.join(ruling_where) if ruling_where else ''} ORDER BY 1, 2, 3, 4")
    return (row[:1] + row[4:] for row in db.execute(sql, match_params + ruling_params))


def title_reigns(fed: Fed, db: "Database", title_id: str, names: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
    """One title's reigns, oldest first, as `records.titles` gives them in its "reigns", replayed
    from the settings' first holder, the title matches and the rulings (as `records._lineages`
    does) and handed on one at a time: each when the next begins or the title is vacated,
    the last (the champion's) at the end. A title not in the settings has none."""
    title = next((t for t in fed.settings.titles if t.id == title_id), None)
    if title is None:
        return
    names = _names(fed, db) if names is None else names
    latest = db.execute("SELECT MAX(week) FROM weeks").fetchone()[0] or 0
    reign: dict | None = None

    def ended(week: int, how: str) -> dict | None:
        nonlocal reign
        done, reign = reign, None
        if done is not None:
            done.update(lost_week=week, lost_how=how, weeks=week - done["won_week"])
        return done

    def begun(wrestler_id: str, week: int, how: str, match: str | None) -> dict:
        return {"wrestler_id": wrestler_id, "name": names.get(wrestler_id, wrestler_id), "won_week": week, "won_match": match, "how": how,
                "lost_week": None, "lost_how": None, "defences": 0, "weeks": 0}

    if title.first_holder:
        reign = begun(title.first_holder, 0, "awarded", None)
    if db["title_matches"].exists():
        events = db.execute(
            "SELECT t.week, 0, m.position, t.rowid, t.result, t.winner, m.match FROM title_matches t JOIN matches m ON m.id = t.match_id WHERE t.title_id = ? "
            "UNION ALL SELECT after_week, 1, id, id, action, wrestler_id, NULL FROM title_rulings WHERE title_id = ? ORDER BY 1, 2, 3, 4", [title_id, title_id])
        for week, _, _, _, kind, wrestler_id, match in events:
            if kind == "won" or (kind == "awarded" and (reign is None or reign["wrestler_id"] != wrestler_id)):
                done = ended(week, "vacated" if kind == "awarded" else "lost")
                if done is not None:
                    yield done
                reign = begun(wrestler_id, week, kind, f"{week}/{match}" if kind == "won" else None)
            elif kind == "defended" and reign is not None:
                reign["defences"] += 1
            elif kind == "vacated":
                done = ended(week, "vacated")  # nothing, if a rerun left the title vacant already
                if done is not None:
                    yield done
    if reign is not None:
        reign["weeks"] = max(latest, reign["won_week"]) - reign["won_week"]
        yield reign


class Reigns:
    """A title's reigns for a page: its count (`len`, truthy when held at all) known, the reigns
    themselves replayed (`title_reigns`) each time it is iterated, never held."""

    def __init__(self, fed: Fed, db: "Database", title_id: str, names: dict[str, str], count: int):
        self.fed, self.db, self.title_id, self.names, self.count = fed, db, title_id, names, count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return title_reigns(self.fed, self.db, self.title_id, self.names)

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __repr__(self) -> str:
        return f"<{self.count} reigns of {self.title_id}>"


def titles_streamed(fed: Fed, db: "Database", names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """`records.titles`, each title's "reigns" a `Reigns` (its count known, the reigns replayed
    when a page lists them), so that what it holds does not grow with the weeks."""
    check_title_settings(fed)
    names = _names(fed, db) if names is None else names
    out = []
    for title in fed.settings.titles:
        count, last = 0, None
        for last in title_reigns(fed, db, title.id, names):
            count += 1
        holder = last["wrestler_id"] if last is not None and last["lost_week"] is None else None
        out.append({"id": title.id, "name": title.name, "ruleset": title.ruleset or fed.settings.ruleset, "division": title.division, "teams": title.teams,
                    "holder": holder, "holder_name": names.get(holder) if holder else None, "since_week": last["won_week"] if holder else None,
                    "reigns": Reigns(fed, db, title.id, names, count)})
    return out
