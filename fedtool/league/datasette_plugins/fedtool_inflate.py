"""fedtool's Datasette plugin (`fedtool browse` runs Datasette with `--plugins-dir` here, in
fedtool's own interpreter): the SQL functions the league's views `match_writeups`,
`rounds`, `dice_rolls` and `match_summaries` read its packed rows with (migration m017),
registered on each of Datasette's connections as fedtool registers them on its own."""

from datasette import hookimpl

from fedtool.league.db import register_functions


@hookimpl
def prepare_connection(conn):
    register_functions(conn)
