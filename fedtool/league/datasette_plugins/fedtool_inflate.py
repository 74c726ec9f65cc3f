"""fedtool's Datasette plugin (`fedtool browse` runs Datasette with `--plugins-dir` here):
`fedtool_inflate`, the SQL function the league's views `match_writeups`, `rounds` and
`dice_rolls` read their packed rows with (migration m017, fedtool.league.db.pack). Loaded
by Datasette from this folder, so it imports nothing of fedtool's."""

import zlib

from datasette import hookimpl


def fedtool_inflate(data):
    if data is None or isinstance(data, str):
        return data
    try:
        return zlib.decompress(data).decode("utf-8")
    except (zlib.error, TypeError, UnicodeDecodeError):
        return None


@hookimpl
def prepare_connection(conn):
    conn.create_function("fedtool_inflate", 1, fedtool_inflate, deterministic=True)
