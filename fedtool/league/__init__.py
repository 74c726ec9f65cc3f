"""The league: who is in it and what has happened to them, kept in SQLite.

- `db`: the schema (its migrations), recording and undoing a week, wrestlers' states.
- `backup`: snapshots of the league before every run, kept N, listed and restored.
- `sheets`: the fed loaded with its ruleset-level checks; roster sheets read by their rulesets.
- `records`: titles and their lineage, standings and contenders, each wrestler's history.
- `tables`: the records as terminal tables.
"""
