"""`fedtool standings`, `titles` and `history` as terminal tables (tabulate's "simple"
layout: a maintained library that gets wide and combining characters' widths right), from the plain data fedtool.league.records returns; each ruleset's own columns come
from its hooks."""

from __future__ import annotations

from fractions import Fraction

from fedtool.rulesets import REGISTRY, get_ruleset

from .recordbook import CATEGORIES, HEADINGS


def ruleset_name(ruleset_id: str) -> str:
    """A ruleset's name as people write it ("Face to the Mat"); an unknown id as it is."""
    return get_ruleset(ruleset_id).name if ruleset_id in REGISTRY else ruleset_id


def _table(rows: list[list], headers: list[str]) -> str:
    """tabulate's "simple" table of `rows` under `headers` (numbers not parsed: "007" stays)."""
    return tabulate_function()(rows, headers=headers, tablefmt="simple", disable_numparse=True)


def tabulate_function():
    """tabulate's `tabulate`, the library imported now if not before.

    tabulate's import asks importlib.metadata for its own version (`__version__`), and
    importing importlib.metadata imports the email package's parser, zipfile and more: two
    thirds of tabulate's import and a tenth of `fedtool standings` (issue 18). So, while
    importlib.metadata is not imported yet, a module that answers what it would answer
    (tabulate's version, read from the name of its one installed `tabulate-VERSION.dist-info`
    folder) stands in its place for tabulate's import alone, and is gone after it; with no
    such folder, or more than one, tabulate is imported as it is.
    tests/test_startup.py checks the version and the tables are importlib.metadata's."""
    import sys

    module = sys.modules.get("tabulate")
    if module is None and "importlib.metadata" not in sys.modules:
        version = _installed_version("tabulate")
        if version is not None:
            import types

            class PackageNotFoundError(ModuleNotFoundError):
                pass

            def answer(name: str) -> str:
                if name != "tabulate":
                    raise PackageNotFoundError(name)
                return version

            stand_in = types.ModuleType("importlib.metadata", "importlib.metadata while tabulate is imported (fedtool.league.tables)")
            stand_in.version, stand_in.PackageNotFoundError = answer, PackageNotFoundError  # type: ignore[attr-defined]
            sys.modules["importlib.metadata"] = stand_in
            try:
                import tabulate as module
            finally:
                if sys.modules.get("importlib.metadata") is stand_in:
                    del sys.modules["importlib.metadata"]
    if module is None:
        import tabulate as module
    return module.tabulate


def _installed_version(distribution: str) -> str | None:
    """The version in the name of the one `<distribution>-VERSION.dist-info` folder beside
    the package's own folder (where pip installs both), or None."""
    import importlib.util
    import os

    spec = importlib.util.find_spec(distribution)  # found, not imported
    if spec is None or not spec.origin:
        return None
    folder = os.path.dirname(os.path.dirname(spec.origin))
    try:
        found = [name for name in os.listdir(folder) if name.startswith(distribution + "-") and name.endswith(".dist-info")]
    except OSError:
        return None
    if len(found) != 1:
        return None
    version = found[0][len(distribution) + 1:-len(".dist-info")]
    return version if version and "-" not in version else None


def _heading(text: str) -> str:
    return f"{text}\n{'=' * len(text)}"


def format_standings(tables: list[dict]) -> str:
    """`fedtool standings` as terminal tables: one per ruleset and division."""
    if not tables:
        return "no wrestlers in the standings yet"
    blocks = []
    for table in tables:
        ruleset = table["ruleset"]
        division = (table["division"] or "").replace("-", " ")
        heading = ruleset_name(ruleset) + (f": {division}" if division else "")
        columns = get_ruleset(ruleset).standing_columns() if ruleset in REGISTRY else ()
        headers = ["", "wrestler", "W-L-D", "streak"] + [c.header for c in columns]
        rows = []
        for n, r in enumerate(table["rows"], 1):
            row = [n, r["name"] + (" (left town)" if r["left_town"] else ""), f"{r['wins']}-{r['losses']}-{r['draws']}", r["streak"]]
            rows.append(row + [c.cell(r) for c in columns])
        names = {r["wrestler_id"]: r["name"] for r in table["rows"]}
        contenders = ", ".join(names[c] for c in table["contenders"]) or "none"
        block = f"{_heading(heading)}\n{_table(rows, headers)}\nnumber-one contender{'s' if len(table['contenders']) > 1 else ''}: {contenders}"
        if table.get("players"):
            block += "\n" + strategies_line(table["players"])
        blocks.append(block)
    return "\n\n".join(blocks)


def strategies_line(players: list[dict]) -> str:
    """A table's players and their strategies: "strategies (on time/late/missing/away): Bob's Player 1/0/1/0, ..."."""
    return "strategies (on time/late/missing/away): " + ", ".join(f"{p['name']} {p['on_time']}/{p['late']}/{p['missing']}/{p['away']}" for p in players)


def _points(points: str | None) -> str:
    """Push points as the writeups show them: 1 1/2, 1/3, 0."""
    value = Fraction(points or 0)
    whole, rest = divmod(value, 1)
    if not rest:
        return str(whole)
    return f"{whole} {rest}" if whole else str(rest)


def _reign_rows(reigns: list[dict], with_title: bool = False) -> list[list]:
    rows = []
    for r in reigns:
        won = f"week {r['won_week']}" + (f" ({r['won_match']})" if r["won_match"] else "") + ("" if r["how"] == "won" else f", {r['how']}")
        if r["won_week"] == 0 and r["how"] == "awarded":
            won = "first champion"
        ended = "holds it" if r["lost_week"] is None else f"week {r['lost_week']}, {r['lost_how']}"
        row = [r["name"], won, ended, r["defences"], r["weeks"]]
        rows.append(([r["title_id"]] if with_title else []) + row)
    return rows


def format_titles(rows: list[dict]) -> str:
    """`fedtool titles` as terminal tables: each title's holder and lineage."""
    if not rows:
        return "the fed has no titles: define them under `titles:` in rosters/fed.yaml"
    blocks = []
    for t in rows:
        kind = ruleset_name(t["ruleset"]) + (f", {t['division'].replace('-', ' ')}" if t["division"] else "") + (", tag teams" if t.get("teams") else "")
        since = "the start" if t["since_week"] == 0 else f"week {t['since_week']}"
        holder = f"champion: {t['holder_name']} since {since}" if t["holder"] else "vacant"
        text = f"{_heading(t['name'] + ' (' + t['id'] + ')')}\n{kind}; {holder}"
        if t["reigns"]:
            text += "\n" + _table(_reign_rows(t["reigns"]), ["champion", "won", "ended", "defences", "weeks"])
        blocks.append(text)
    return "\n\n".join(blocks)


def format_history(record: dict) -> str:
    """`fedtool history WRESTLER` as terminal text and tables."""
    r = record["record"]
    blocks = [f"{_heading(record['name'] + ' (' + record['id'] + ')')}\n{ruleset_name(record['ruleset'])}; record {r['wins']}-{r['losses']}-{r['draws']}"]
    if record["matches"]:
        rows = [[m["week"], m["match"], m["title"], ", ".join(m["opponents"]), m["outcome"], (m["method"] or "").replace("_", " "), m["round"], m["for_title"] or ""] for m in record["matches"]]
        blocks.append(_table(rows, ["week", "match", "title", "against", "result", "how", "round", "for title"]))
    else:
        blocks.append("no matches yet")
    if record["states"]:
        rows = []
        for s in record["states"]:
            standing = f"push {s['push_level']} ({_points(s['push_points'])} pts)" if s["push_level"] is not None else f"TV {s['tv_grade']}" if s["tv_grade"] else ""
            rows.append([f"after {s['week']}" if s.get("season_close") else s["week"], standing, s["injury"] or "", s["reason"]])
        blocks.append(_table(rows, ["week", "standing", "injury", "why"]))
    if record["reigns"]:
        blocks.append(_table(_reign_rows(record["reigns"], with_title=True), ["title", "champion", "won", "ended", "defences", "weeks"]))
    if record.get("sheet_changes"):
        rows = [[f"after week {c['after_week']}", c["action"], c["reason"] or ""] for c in record["sheet_changes"]]
        blocks.append(_table(rows, ["sheet", "change", "why"]))
    if record.get("retired"):
        blocks[0] += "; retired"
    return "\n\n".join(blocks)


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _unit(gap: float, measure: str) -> str:
    """"1 push level", "2 push levels": the record book's measures are plural words."""
    return measure.removesuffix("s") if gap == 1 else measure


def _line(category: str, e: dict) -> str:
    """One record-book entry in words."""
    if category in ("longest_reigns", "most_defences"):
        began = not e["won_week"]  # week 0: champion when the fed began
        if e["lost_week"] is None:
            span = "since the start, still champion" if began else f"since week {e['won_week']}, still champion"
        else:
            span = f"from the start to week {e['lost_week']}" if began else f"weeks {e['won_week']}-{e['lost_week']}"
        return f"{e['name']}: {e['title']}, {_n(e['weeks'], 'week')}, {_n(e['defences'], 'defence')} ({span})"
    if category == "most_reigns":
        return f"{e['name']}: {e['reigns']} reign{'s' if e['reigns'] != 1 else ''} ({', '.join(e['titles'])}), {_n(e['weeks'], 'week')}, {_n(e['defences'], 'defence')}"
    if category == "win_streaks":
        return f"{e['name']}: {e['wins']} wins in a row (weeks {e['from_week']}-{e['to_week']}{', running' if e['current'] else ''})"
    if category == "head_to_head":
        other = f", {e['other']} neither won" if e["other"] else ""  # draws, or lost to a third side
        return f"{e['a_name']} {e['a_wins']}, {e['b_name']} {e['b_wins']}{other} ({e['meetings']} meetings)"
    if category == "upsets":
        return f"week {e['week']} {e['match']}: {e['winner_name']} beat {e['beaten_name']} by {e['method']} ({e['gap']:g} {_unit(e['gap'], e['measure'])} below)"
    if category == "best_matches":
        return f"{e['stars']:g} stars: week {e['week']} {e['match']}, {' vs. '.join(e['sides'])}"
    return str(e)


def format_record_book(book: dict) -> str:
    """`fedtool records` in words: each section's records, then the hall of fame."""
    scope = f"weeks {book['weeks'][0]}-{book['weeks'][1]}" if book["weeks"] else "all time"
    blocks = []
    for section in book["sections"]:
        heading = ("Every ruleset" if section["ruleset"] is None else ruleset_name(section["ruleset"])) + f", {scope}"
        lines = [_heading(heading)]
        for category in CATEGORIES:
            entries = section["records"][category]
            lines.append(f"{HEADINGS[category]}:" + ("" if entries else " none yet"))
            lines += [f"  {_line(category, e)}" for e in entries]
        blocks.append("\n".join(lines))
    if "hall_of_fame" in book:
        lines = [_heading("Hall of fame")]
        if not book["hall_of_fame"]:
            lines.append("nobody yet: champions at a season's close and its award winners are inducted (fedtool season close)")
        for entry in book["hall_of_fame"]:
            lines.append(f"{entry['name']}: " + "; ".join(f"{h['season_name']}, {h['honour']}" for h in entry["honours"]))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def award_lines(awards: list[dict]) -> list[str]:
    """A season's awards, one indented line each, the ruleset by its name."""
    return [f"  {a['award']} ({ruleset_name(a['ruleset'])}): " + ", ".join(w["name"] for w in a["winners"]) + (", " if a["winners"] else "") + a["why"]
            for a in awards]


def format_season(archive: dict) -> str:
    """`fedtool season show`: a closed season's champions, awards, carry-over, standings and records."""
    lines = [_heading(f"{archive['name']}: weeks {archive['first_week']}-{archive['last_week']}, closed {archive['closed_at'][:10]}"), "Champions at the close:"]
    lines += [f"  {c['name']}: {c['holder_name'] or 'vacant'}" for c in archive["champions"]] or ["  none"]
    lines.append("Awards:")
    lines += award_lines(archive["awards"]) or ["  none"]
    rules = archive["carry_over"]["rules"]
    lines.append("Carried into the next season: " + (", ".join(f"{k} {v}" for k, v in rules.items()) or "nothing"))
    lines += [f"  {c['name']}: {c['reason']}" for c in archive["carry_over"]["changes"]]
    return "\n".join(lines) + "\n\n" + format_standings(archive["standings"]) + "\n\n" + format_record_book(archive["records"])
