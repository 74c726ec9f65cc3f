"""fedtool's Datasette plugin (`fedtool browse` runs Datasette with `--plugins-dir` here):
the SQL functions the league's views `match_writeups`, `rounds`, `dice_rolls` and
`match_summaries` read its packed rows with (migration m017). They repeat
fedtool.league.db's `inflate`, `keys` and `cell`: Datasette loads this file by its path,
so it imports nothing of fedtool's."""

import json
import zlib

from datasette import hookimpl

_UNPACKED = [None, None]


def fedtool_inflate(data):
    if data is None or isinstance(data, str):
        return data
    try:
        return zlib.decompress(data).decode("utf-8")
    except (zlib.error, TypeError, UnicodeDecodeError):
        return None


def _unpacked(data):
    if data is None or not isinstance(data, bytes):
        return None
    if _UNPACKED[0] != data:
        text = fedtool_inflate(data)
        try:
            value = json.loads(text) if text is not None else None
        except ValueError:
            value = None
        _UNPACKED[:] = [data, value]
    return _UNPACKED[1]


def fedtool_keys(data):
    value = _unpacked(data)
    return json.dumps(list(value) if isinstance(value, dict) else list(range(len(value))) if isinstance(value, list) else [])


def fedtool_cell(data, key, column):
    value = _unpacked(data)
    try:
        found = value[key][column]
    except (TypeError, KeyError, IndexError):
        return None
    return found if isinstance(found, (str, int, float)) or found is None else json.dumps(found)


@hookimpl
def prepare_connection(conn):
    conn.create_function("fedtool_inflate", 1, fedtool_inflate, deterministic=True)
    conn.create_function("fedtool_keys", 1, fedtool_keys, deterministic=True)
    conn.create_function("fedtool_cell", 3, fedtool_cell, deterministic=True)
