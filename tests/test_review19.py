"""Review of issue 19's commands as a new user and as an attacker would use them (roster,
import/export, seasons, records, the site's feed and calendar): each test is a defect found
in that review, failing before its fix."""

from __future__ import annotations

import datetime
import os
import json
import xml.dom.minidom
from pathlib import Path

import pytest

from fedtool.fed.settings import Fed
from fedtool.site.feed import Deadline, FeedEntry, atom_feed, deadline_calendar
from golden import demo_copy

HEADER = "id,name,owner_name,owner_email,stamina,styles\n"


@pytest.fixture(scope="module")
def week_one(tmp_path_factory) -> Path:
    """The demo fed with week 1 run."""
    from click.testing import CliRunner

    from fedtool.cli import cli

    fed = demo_copy(tmp_path_factory.mktemp("review19") / "fed")
    result = CliRunner().invoke(cli, ["run", "1", "--fed", str(fed)])
    assert result.exit_code == 0, result.output
    return fed


@pytest.mark.parametrize("cell, field", [
    ("[" * 5000 + "]" * 5000, "styles"),  # nested past Python's recursion limit: was a RecursionError traceback
    ("2026-02-30", "stamina"),            # a date that does not exist: was "day is out of range for month", no field
    ("9" * 5000, "stamina"),              # past Python's digit limit: was "use sys.set_int_max_str_digits()"
])
def test_an_unreadable_import_cell_is_a_problem_of_its_field(tmp_path, fedtool, cell, field):
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    stamina, styles = (cell, "") if field == "stamina" else ("15", cell)
    sheet.write_text(HEADER + f'cell-one,Cell One,Bob,bob@players.example,{stamina},"{styles}"\n', encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"roster.csv, line 2, field {field}: " in result.output
    assert "sys.set_int_max_str_digits" not in result.output and "out of range for month" not in result.output
    assert not (fed / "rosters/cell-one.yaml").exists()


@pytest.mark.parametrize("name", ["Season 1\r\nX-Header: 1", "Season\x01One", "Season\u202eOne"])
def test_a_season_name_is_one_line_of_printable_text(week_one, tmp_path, fedtool, name):
    """It heads the season's page, the feed's entry and the records; a control character in
    it made every later `fedtool site` stop with lxml's traceback."""
    import shutil

    fed = tmp_path / "fed"
    shutil.copytree(week_one, fed)
    result = fedtool("season", "close", "--name", name, "--fed", fed)
    assert result.exit_code == 1 and "one line of 1 to 120 printable characters" in result.output
    assert "Season 1 (in play)" in fedtool("season", "list", "--fed", fed).output


def test_the_feed_and_calendar_take_control_characters_out(tmp_path):
    """A card's title (the fedhead's, read from YAML's "\\x01" escape) or any text reaching the
    feed with a control character: XML cannot hold one, so feedgen raised ValueError and
    `fedtool site` printed a traceback."""
    fed = Fed.load(demo_copy(tmp_path / "fed"))
    moment = datetime.datetime(2026, 11, 20, 18, 0, tzinfo=datetime.timezone.utc)
    entry = FeedEntry("weeks/week-01.html", "Results: Week\x01 1\x0b", moment, moment, "<p>Bad\x02 &amp; \x1b[31mred</p>")
    feed = atom_feed(fed, [entry], moment).decode("utf-8")
    document = xml.dom.minidom.parseString(feed)
    titles = [t.firstChild.data for t in document.getElementsByTagName("title")]
    assert "Results: Week 1" in titles
    assert "\x02" not in feed and "\x1b" not in feed and "Bad &amp;amp; [31mred" in feed
    calendar = deadline_calendar(fed, [Deadline(1, "Week\x01 1", moment, ["m1: A\x07 vs. B"])], moment).decode("utf-8")
    assert "\x01" not in calendar and "\x07" not in calendar and "Week 1" in calendar


@pytest.mark.parametrize("command", ["export", "site"])
@pytest.mark.parametrize("inside", ["rosters/retired", "strategies/week-09", "templates/site", "backups"])
def test_out_never_takes_the_feds_own_folders(tmp_path, fedtool, command, inside):
    """An empty (or missing) rosters/retired/ passed `--out`'s "new or empty folder" test; the
    fedhead then retired a wrestler into it and the next export (or build) with the same
    --out replaced the folder whole, his retired sheet with it."""
    fed = demo_copy(tmp_path / "fed")
    out = fed / inside
    result = fedtool(command, "--out", out, "--fed", fed)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{inside}: is in or holds the fed's {inside.split('/')[0]}/" in result.output
    assert not out.exists() or not any(p.name.startswith(".fedtool-") for p in out.iterdir())


MM_COLUMNS = "id,name,owner_name,owner_email,stamina,styles.Technical,styles.Power,styles.Martial Arts,styles.Brawling,styles.Weight,styles.High-Flying,styles.Cheating,styles.Teamwork,high_spots\n"


def _mm_row(n: int) -> str:
    return f"w-{n},Wrestler {n},Owner {n},o{n}@players.example,15,3,3,3,3,3,3,2,1,2\n"


def test_an_import_killed_before_the_league_recorded_it_is_finished_by_importing_again(tmp_path, fedtool):
    """The sheets are written, then the league commits: `kill -9` in between left sheets in
    rosters/ that the league never recorded (seen: 2,974 of 4,000), and importing the CSV
    again refused every one of them as "in the fed already"."""
    import shutil

    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    sheet.write_text(MM_COLUMNS + "".join(_mm_row(n) for n in range(3)), encoding="utf-8")
    done = tmp_path / "done"
    shutil.copytree(fed, done)
    assert fedtool("import", sheet, "--fed", done).exit_code == 0
    for n in (0, 1):  # what the killed import had written, byte for byte
        shutil.copy(done / f"rosters/w-{n}.yaml", fed / f"rosters/w-{n}.yaml")
    result = fedtool("import", sheet, "--json", "--fed", fed)
    assert result.exit_code == 0, result.output
    assert (fed / "rosters/w-2.yaml").read_bytes() == (done / "rosters/w-2.yaml").read_bytes()
    history = fedtool("history", "w-0", "--json", "--fed", fed)
    assert [c["action"] for c in json.loads(history.output)["sheet_changes"]] == ["imported"]
    again = fedtool("import", sheet, "--fed", fed)  # once recorded, a sheet is the fed's: refused as before
    assert again.exit_code == 1 and "'w-0' is in the fed already" in again.output


def test_a_sheet_the_import_did_not_write_is_still_refused(tmp_path, fedtool):
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    sheet.write_text(MM_COLUMNS + _mm_row(0), encoding="utf-8")
    (fed / "rosters/w-0.yaml").write_text("name: Someone Else\n", encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 1 and "'w-0' is in the fed already (rosters/w-0.yaml)" in result.output
    assert (fed / "rosters/w-0.yaml").read_text(encoding="utf-8") == "name: Someone Else\n"


def test_a_quote_never_closed_is_refused_not_a_cell_that_swallows_the_rows_after_it(tmp_path, fedtool):
    """A stray quote mark opening a bio cell read the rest of the file into that bio: two of
    four wrestlers were imported, the others became text in the second one's bio, no word said."""
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    rows = [_mm_row(n).rstrip("\n") + (',"He said ""hi""' if n == 1 else ",plain") + "\n" for n in range(4)]
    sheet.write_text(MM_COLUMNS.rstrip("\n") + ",bio\n" + "".join(rows), encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 1
    assert "roster.csv, line 3: not CSV: a quoted cell is never closed" in result.output
    assert not list((fed / "rosters").glob("w-*.yaml"))


def test_problems_are_in_fedtools_words_not_pydantics(tmp_path, fedtool):
    """pydantic's "Value error, " stood before every message of fedtool's own validators, and
    "Input should be a valid integer, unable to parse string as an integer" for a number."""
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    sheet.write_text(HEADER + 'w-one,"Two\nLines",Bob,bob@players.example,lots,\n', encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 1
    assert "line 2, field name: a name is one line of printable text (no line breaks, tabs or control characters)" in result.output
    assert "line 2, field stamina: expected a whole number, found the text 'lots'" in result.output
    assert "Value error" not in result.output and "Input should be" not in result.output


def test_browse_serves_no_table_that_holds_an_owners_address(tmp_path, fedtool):
    """roster_changes keeps every added, imported or respecced sheet whole, the owner's
    address in it, and `fedtool browse` served it (GET /fed/roster_changes.json: 200, every
    importer's address): the demo's test fed had no roster change, so nothing showed it."""
    import sqlite3

    from fedtool.league.sheets import load_fed
    from fedtool.roster.browse import prepare, serve_metadata

    fed = demo_copy(tmp_path / "fed")
    assert fedtool("run", "1", "--fed", fed).exit_code == 0
    assert fedtool("roster", "add", "jo-blaze", "--name", "Jo Blaze", "--owner-name", "Jo", "--owner-email", "jo@secret.example", "--fed", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    sheet.write_text(MM_COLUMNS + _mm_row(7), encoding="utf-8")
    assert fedtool("import", sheet, "--fed", fed).exit_code == 0
    the_fed = load_fed(fed)
    prepare(the_fed)
    tables = serve_metadata(the_fed)["databases"]["fed"]["tables"]
    league = sqlite3.connect(fed / "fed.db")
    addresses = {row[0] for row in league.execute("SELECT owner_email FROM owners")}
    assert {"jo@secret.example", "o7@players.example"} <= addresses
    holding = set()
    for (name,) in league.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        text = "\n".join(str(row) for row in league.execute(f'SELECT * FROM "{name}"'))
        if any(address in text for address in addresses):
            holding.add(name)
    assert "roster_changes" in holding
    served = {name for name in holding if tables.get(name, {}).get("allow") is not False}
    assert served == set()


def test_record_book_lines_count_in_singular_and_plural():
    """`fedtool records` said "(1 push levels below)" and "Zelda 0, Zeke 0, 2 other (2 meetings)"."""
    from fedtool.league.tables import _line

    upset = {"week": 1, "match": "m4", "winner_name": "Dr. Victor Vane", "beaten_name": "Kate", "method": "submission", "gap": 1, "measure": "push levels"}
    assert _line("upsets", upset).endswith("by submission (1 push level below)")
    assert _line("upsets", {**upset, "gap": 5, "measure": "TV grades"}).endswith("(5 TV grades below)")
    assert _line("upsets", {**upset, "gap": 1, "measure": "wins"}).endswith("(1 win below)")
    pair = {"a_name": "Zelda", "a_wins": 0, "b_name": "Zeke", "b_wins": 0, "other": 2, "meetings": 2}
    assert _line("head_to_head", pair) == "Zelda 0, Zeke 0, 2 neither won (2 meetings)"


def test_a_team_row_may_come_before_its_members_rows(tmp_path, fedtool):
    """A team's row before the rows of its members was refused: "unknown members 'w-1',
    'w-2': no such sheet in rosters/", though both were in the CSV (a spreadsheet sorted by
    name puts a team anywhere)."""
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    columns = MM_COLUMNS.rstrip("\n") + ",members,use_member\n"
    team = 'a-team,The A Team,Hannibal,h@players.example,,,,,,,,,,,"[w-1, w-2]",w-1\n'
    sheet.write_text(columns + team + "".join(_mm_row(n).rstrip("\n") + ",,\n" for n in (1, 2)), encoding="utf-8")
    result = fedtool("import", sheet, "--json", "--fed", fed)
    assert result.exit_code == 0, result.output
    assert sorted(json.loads(result.output)) == ["a-team", "w-1", "w-2"]
    assert "a-team" in fedtool("roster", "list", "--fed", fed).output
    assert fedtool("roster", "check", "--fed", fed).exit_code == 0


def test_fed_is_no_wrestlers_id(tmp_path, fedtool):
    """`fedtool roster add fed` said "rosters/fed.yaml: appeared while fedtool was writing it"
    (it is the fed's settings); `fedtool import` refused the row only for that same reason,
    after checking it as a sheet."""
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    settings = (fed / "rosters/fed.yaml").read_bytes()
    result = fedtool("roster", "add", "fed", "--name", "Zed", "--owner-name", "Z", "--owner-email", "z@players.example", "--fed", fed)
    assert result.exit_code == 1 and "'fed' cannot be a wrestler: fed.yaml is the fed's settings" in result.output
    sheet = tmp_path / "roster.csv"
    sheet.write_text(MM_COLUMNS + _mm_row(1).replace("w-1,", "fed,", 1), encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 1 and "roster.csv, line 2: id 'fed' cannot be a wrestler's: rosters/fed.yaml is the fed's settings" in result.output
    assert "appeared while fedtool was writing it" not in result.output
    assert (fed / "rosters/fed.yaml").read_bytes() == settings


def test_a_private_export_is_readable_by_the_fedhead_only(tmp_path, fedtool):
    """`fedtool export --private` (owners' addresses, password hashes) wrote its folder 0755,
    as a site is written for a web server: anyone on the machine could read it."""
    import stat

    fed = demo_copy(tmp_path / "fed")
    out = tmp_path / "private"
    assert fedtool("export", "--private", "--out", out, "--fed", fed).exit_code == 0
    assert "owner_email" in (out / "wrestlers.csv").read_text(encoding="utf-8")
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert fedtool("export", "--out", out, "--fed", fed).exit_code == 0  # a public one replaces it, readable as any folder
    assert "owner_email" not in (out / "wrestlers.csv").read_text(encoding="utf-8")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~mask


def test_a_big_import_says_so_in_one_short_line(tmp_path, fedtool):
    """Importing 4,000 wrestlers printed one line of all 4,000 ids (some 30,000 characters)."""
    fed = tmp_path / "fed"
    assert fedtool("init", fed).exit_code == 0
    sheet = tmp_path / "roster.csv"
    sheet.write_text(MM_COLUMNS + "".join(_mm_row(n) for n in range(40)), encoding="utf-8")
    result = fedtool("import", sheet, "--fed", fed)
    assert result.exit_code == 0
    assert result.output == "imported 40 wrestlers: " + ", ".join(f"w-{n}" for n in range(10)) + " and 30 more (fedtool roster list)\n"
    assert len(list((fed / "rosters").glob("w-*.yaml"))) == 40


@pytest.mark.parametrize("where", ["after", "group", "root"])
def test_fed_may_stand_before_or_after_a_group_command(week_one, tmp_path, fedtool, where, monkeypatch):
    """README: "Every command takes `--fed DIR` ..., before or after the command".
    `fedtool season --fed DIR list` said "No such option '--fed'"."""
    monkeypatch.chdir(tmp_path)  # not the fed: only --fed finds it
    args = {"after": ["season", "list", "--fed", week_one], "group": ["season", "--fed", week_one, "list"],
            "root": ["--fed", week_one, "season", "list"]}[where]
    result = fedtool(*args)
    assert result.exit_code == 0, result.output
    assert "Season 1 (in play): weeks 1-1" in result.output
    result = fedtool(*(["roster", "--fed", week_one, "list"] if where == "group" else ["roster", "list", "--fed", week_one]))
    assert result.exit_code == 0 and "big-earl" in result.output
