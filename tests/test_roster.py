"""Issue 19: the fedhead's roster (`fedtool roster list/check/add/retire/return/respec`),
a roster imported from CSV, the league exported, titles and reigns as rows, and the
league served by Datasette with nothing private in it.

The demo weeks 1-5 are run once for the module; each test that changes the fed works on
its own copy of that folder."""

from __future__ import annotations

import csv
import io
import json
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import snapshot
from fedtool.cli import cli
from golden import demo_copy

WEEKS = (1, 2, 3, 4, 5)


def invoke(*args, code: int = 0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture(scope="module")
def league_after_five(tmp_path_factory) -> Path:
    fed = demo_copy(tmp_path_factory.mktemp("roster") / "fed")
    for week in WEEKS:
        invoke("run", week, "--fed", fed)
    return fed


@pytest.fixture
def fed(league_after_five, tmp_path) -> Path:
    copy = tmp_path / "fed"
    shutil.copytree(league_after_five, copy)
    return copy


def table(fed: Path, ruleset: str, division: str | None) -> dict:
    tables = json.loads(invoke("standings", "--json", "--fed", fed))
    return next(t for t in tables if (t["ruleset"], t["division"]) == (ruleset, division))


# ---------------------------------------------------------------- list and check


def test_roster_list_shows_every_sheet_with_its_ruleset(league_after_five):
    rows = json.loads(invoke("roster", "list", "--json", "--fed", league_after_five))
    by = {r["id"]: r for r in rows}
    assert len(rows) == 27 and all(r["status"] == "active" and r["stands"] for r in rows)
    assert (by["the-warden"]["name"], by["the-warden"]["ruleset"]) == ("The Warden", "facemat")
    assert by["heavy-industry"]["members"] == ["rocky-ridge", "big-earl"]
    assert "@" not in json.dumps(rows)  # the list shows owners by name only


def test_roster_check_names_a_bad_sheet_and_fails(fed):
    assert json.loads(invoke("roster", "check", "--json", "--fed", fed)) and "27 of 27 sheets stand" in invoke("roster", "check", "--fed", fed)
    sheet = fed / "rosters" / "big-earl.yaml"
    sheet.write_text(sheet.read_text().replace("Power: 6", "Power: 7"))  # 43 points
    result = CliRunner().invoke(cli, ["roster", "check", "--json", "--fed", str(fed)])
    assert result.exit_code == 1
    bad = [r for r in json.loads(result.stdout) if r["problems"]]
    assert [r["id"] for r in bad] == ["big-earl", "heavy-industry"]  # the team reads his sheet too
    assert "rosters/big-earl.yaml" in bad[0]["problems"][0] and "42" in bad[0]["problems"][0]  # MatchMatch I.1: "42 points to spend"


# ---------------------------------------------------------------- add


@pytest.mark.parametrize("ruleset", ["matchmatch", "facemat", "matclash"])
def test_add_writes_a_sheet_from_the_rulesets_template_that_stands(fed, ruleset):
    done = json.loads(invoke("roster", "add", "jo-blaze", "--ruleset", ruleset, "--name", 'Jo "Blaze" Ortiz', "--owner-name", "Jo",
                             "--owner-email", "jo@players.example", "--json", "--fed", fed))
    assert done == {"id": "jo-blaze", "name": 'Jo "Blaze" Ortiz', "ruleset": ruleset, "file": "rosters/jo-blaze.yaml", "after_week": 5}
    data = yaml.safe_load((fed / "rosters" / "jo-blaze.yaml").read_text())
    assert (data["name"], data["ruleset"], data["owner"]) == ('Jo "Blaze" Ortiz', ruleset, {"name": "Jo", "email": "jo@players.example"})
    checks = {r["id"]: r for r in json.loads(invoke("roster", "check", "--json", "--fed", fed))}
    assert checks["jo-blaze"]["problems"] == [] and checks["jo-blaze"]["warnings"] == []
    history = json.loads(invoke("history", "jo-blaze", "--json", "--fed", fed))
    assert [(c["after_week"], c["action"]) for c in history["sheet_changes"]] == [(5, "added")]
    # he is in the standings of his ruleset at once
    assert any(r["wrestler_id"] == "jo-blaze" for t in json.loads(invoke("standings", "--json", "--fed", fed)) for r in t["rows"])


def test_add_refuses_a_taken_id_and_a_bad_id(fed):
    before = snapshot(fed)
    assert "on the roster already" in invoke("roster", "add", "big-earl", "--name", "X", "--owner-name", "Y", "--owner-email", "y@x.example", "--fed", fed, code=1)
    assert "is not a wrestler id" in invoke("roster", "add", "../evil", "--name", "X", "--owner-name", "Y", "--owner-email", "y@x.example", "--fed", fed, code=1)
    # the owner's address is checked by the ruleset's sheet model before anything is written
    assert "field owner.email" in invoke("roster", "add", "new-one", "--name", "X", "--owner-name", "Y", "--owner-email", "nobody", "--fed", fed, code=1)
    assert not (fed / "rosters" / "new-one.yaml").exists()
    assert snapshot(fed) == before


# ---------------------------------------------------------------- retire and return


def test_retire_takes_him_out_of_standings_and_contenders_and_keeps_his_history(fed):
    light = table(fed, "matchmatch", "light-heavyweight")
    assert light["contenders"] == ["friendly-sam", "silent-crane"]
    history_before = json.loads(invoke("history", "silent-crane", "--json", "--fed", fed))
    done = json.loads(invoke("roster", "retire", "silent-crane", "--reason", "retired to teach", "--json", "--fed", fed))
    assert done["after_week"] == 5 and done["file"] == "rosters/retired/silent-crane.yaml"
    assert not (fed / "rosters" / "silent-crane.yaml").exists() and (fed / "rosters" / "retired" / "silent-crane.yaml").exists()
    tables = json.loads(invoke("standings", "--json", "--fed", fed))
    assert all(r["wrestler_id"] != "silent-crane" for t in tables for r in t["rows"])
    assert all("silent-crane" not in t["contenders"] for t in tables)
    assert table(fed, "matchmatch", "light-heavyweight")["contenders"] == ["friendly-sam"]
    assert [(t["ruleset"], t["division"]) for t in tables if t["ruleset"] == "matchmatch"] == [
        ("matchmatch", "light-heavyweight"), ("matchmatch", "heavyweight"), ("matchmatch", "superheavyweight"), ("matchmatch", "tag-teams")]
    history = json.loads(invoke("history", "silent-crane", "--json", "--fed", fed))
    assert history["matches"] == history_before["matches"] and history["retired"] is True
    assert [(c["after_week"], c["action"], c["reason"]) for c in history["sheet_changes"]] == [(5, "retired", "retired to teach")]
    assert "retired to teach" in invoke("history", "silent-crane", "--fed", fed)
    row = sqlite3.connect(fed / "fed.db").execute("SELECT retired_after FROM wrestlers WHERE id = 'silent-crane'").fetchone()
    assert row == (5,)
    listed = {r["id"]: r["status"] for r in json.loads(invoke("roster", "list", "--json", "--fed", fed))}
    assert listed["silent-crane"] == "retired"

    back = json.loads(invoke("roster", "return", "silent-crane", "--reason", "one more run", "--json", "--fed", fed))
    assert back["file"] == "rosters/silent-crane.yaml"
    assert table(fed, "matchmatch", "light-heavyweight")["contenders"] == ["friendly-sam", "silent-crane"]
    history = json.loads(invoke("history", "silent-crane", "--json", "--fed", fed))
    assert [c["action"] for c in history["sheet_changes"]] == ["retired", "returned"] and history["retired"] is False


def test_a_retired_wrestler_cannot_be_booked(fed):
    invoke("roster", "retire", "silent-crane", "--fed", fed)
    week = fed / "strategies" / "week-06"
    week.mkdir()
    (week / "card.yaml").write_text("title: Week 6\nmatches:\n  - id: m1\n    sides: [silent-crane, friendly-sam]\n")
    out = invoke("open", 6, "--fed", fed, code=1)
    assert "'silent-crane' is retired" in out and "fedtool roster return silent-crane" in out


def test_a_deleted_sheet_is_no_contender_in_a_table_with_no_division(fed):
    """The issue's defect: deleting a sheet left him "number-one contender" in a MatchMatch
    table with no division. A wrestler with no sheet on the roster is out of the standings;
    his history stays."""
    (fed / "rosters" / "silent-crane.yaml").unlink()
    tables = json.loads(invoke("standings", "--json", "--fed", fed))
    assert ("matchmatch", None) not in [(t["ruleset"], t["division"]) for t in tables]
    assert all("silent-crane" not in t["contenders"] for t in tables)
    assert json.loads(invoke("history", "silent-crane", "--json", "--fed", fed))["record"]["wins"] >= 1


def test_retire_refuses_a_champion_and_a_team_member(fed):
    before = snapshot(fed)
    assert "vacate it first (fedtool title vacate world)" in invoke("roster", "retire", "relampago", "--fed", fed, code=1)
    assert "retire the team first" in invoke("roster", "retire", "big-earl", "--fed", fed, code=1)
    assert "not retired" in invoke("roster", "return", "big-earl", "--fed", fed, code=1)
    assert snapshot(fed) == before


def test_a_retired_first_champion_keeps_the_lineage_readable(fed):
    invoke("title", "vacate", "hardcore", "--reason", "leaving", "--fed", fed)
    invoke("roster", "retire", "victor-vane", "--fed", fed)
    titles = {t["id"]: t for t in json.loads(invoke("titles", "--json", "--fed", fed))}
    assert titles["hardcore"]["reigns"][0]["wrestler_id"] == "victor-vane" and titles["hardcore"]["holder"] is None


# ---------------------------------------------------------------- respec


def test_respec_is_checked_kept_with_its_week_and_reason_and_shown_in_history(fed, tmp_path):
    new = tmp_path / "earl.yaml"
    sheet = (fed / "rosters" / "big-earl.yaml").read_text()
    # MatchMatch I.1: styles cost 1 each, so a point moved from Brawling to Power keeps 42
    new.write_text(sheet.replace("Power: 6", "Power: 7").replace("Brawling: 5", "Brawling: 4"))
    done = json.loads(invoke("roster", "respec", "big-earl", new, "--reason", "mid-season respec: more Power", "--json", "--fed", fed))
    assert done["after_week"] == 5
    assert (fed / "rosters" / "big-earl.yaml").read_text() == new.read_text()
    history = json.loads(invoke("history", "big-earl", "--json", "--fed", fed))
    assert [(c["after_week"], c["action"], c["reason"]) for c in history["sheet_changes"]] == [(5, "respec", "mid-season respec: more Power")]
    assert "mid-season respec: more Power" in invoke("history", "big-earl", "--fed", fed)
    kept = sqlite3.connect(fed / "fed.db").execute("SELECT previous, sheet FROM roster_changes WHERE wrestler_id = 'big-earl'").fetchone()
    assert kept == (sheet, new.read_text())
    # a hand edit after it is noticed by check, and recorded by a respec of the file itself
    path = fed / "rosters" / "big-earl.yaml"
    path.write_text(path.read_text().replace("Power: 7", "Power: 6").replace("Brawling: 4", "Brawling: 5"))
    warnings = {r["id"]: r["warnings"] for r in json.loads(invoke("roster", "check", "--json", "--fed", fed))}
    assert "edited since the league recorded it" in warnings["big-earl"][0]
    invoke("roster", "respec", "big-earl", path, "--reason", "changed his mind", "--fed", fed)
    assert {r["id"]: r["warnings"] for r in json.loads(invoke("roster", "check", "--json", "--fed", fed))}["big-earl"] == []


def test_a_respec_that_does_not_stand_changes_nothing(fed, tmp_path):
    before = snapshot(fed)
    new = tmp_path / "earl.yaml"
    new.write_text((fed / "rosters" / "big-earl.yaml").read_text().replace("Power: 6", "Power: 9"))
    out = invoke("roster", "respec", "big-earl", new, "--reason", "too strong", "--fed", fed, code=1)
    assert "42" in out  # MatchMatch I.1: "A new wrestler has 42 points to spend"
    other = tmp_path / "facemat.yaml"
    other.write_text((fed / "rosters" / "the-warden.yaml").read_text())
    assert "a respec keeps the ruleset" in invoke("roster", "respec", "big-earl", other, "--reason", "x", "--fed", fed, code=1)
    assert snapshot(fed) == before


# ---------------------------------------------------------------- import


GOOD = """id,name,ruleset,owner_name,owner_email,stamina,styles.Technical,styles.Power,styles.Martial Arts,styles.Brawling,styles.Weight,styles.High-Flying,styles.Cheating,styles.Teamwork,high_spots,push.level,push.points,tv_grade,grudge,alignment,skills,finisher.name,finisher.range
jo-blaze,Jo Blaze,matchmatch,Jo,jo@players.example,15,3,3,3,3,3,3,2,1,2,1,0,,,,,,
mae-stone,"Mae ""the Rock"" Stone",facemat,Mae,mae@players.example,,,,,,,,,,,,,C,0,face,"{AGILE: star, QUICK: circle, POWERFUL: square, MEAN: circle, CHEAT: square}",the Quarry Drop,11-26
"""


def test_import_a_roster_from_csv(fed, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(GOOD)
    assert json.loads(invoke("import", path, "--json", "--fed", fed)) == ["jo-blaze", "mae-stone"]
    checks = {r["id"]: r["problems"] for r in json.loads(invoke("roster", "check", "--json", "--fed", fed))}
    assert checks["jo-blaze"] == [] and checks["mae-stone"] == []
    mae = yaml.safe_load((fed / "rosters" / "mae-stone.yaml").read_text())
    assert mae["name"] == 'Mae "the Rock" Stone' and mae["finisher"] == {"name": "the Quarry Drop", "range": "11-26"}
    history = json.loads(invoke("history", "jo-blaze", "--json", "--fed", fed))
    assert [(c["action"], c["reason"]) for c in history["sheet_changes"]] == [("imported", "imported from roster.csv, line 2")]


def test_import_names_each_bad_row_by_its_line_and_writes_nothing(fed, tmp_path):
    before = snapshot(fed)
    lines = GOOD.splitlines()
    bad = [lines[0], lines[1],
           lines[1].replace("jo-blaze,Jo Blaze", "kit-kane,Kit Kane").replace(",15,3,", ",15,4,"),  # line 3: Technical 4, 43 points
           lines[2].replace("mae-stone", "Mae Stone!"),  # line 4: not an id
           lines[1].replace("jo-blaze", "big-earl"),  # line 5: in the fed already
           lines[1]]  # line 6: jo-blaze twice
    path = tmp_path / "roster.csv"
    path.write_text("\n".join(bad) + "\n")
    out = invoke("import", path, "--fed", fed, code=1)
    assert "line 3" in out and "42" in out  # MatchMatch I.1: "A new wrestler has 42 points to spend"
    assert "line 4: id 'Mae Stone!' is not a wrestler id" in out
    assert "line 5: 'big-earl' is in the fed already" in out
    assert "line 6: id 'jo-blaze' is on line 2 already" in out
    assert "line 2" not in out.replace("on line 2", "")  # the good row is not blamed
    assert snapshot(fed) == before


def test_import_counts_lines_of_a_cell_that_spans_lines(fed, tmp_path):
    lines = GOOD.splitlines()
    header = lines[0] + ",bio"
    row2 = lines[1] + ',"a bio\nover two lines"'
    row3 = lines[1].replace("jo-blaze", "kit-kane").replace(",15,3,", ",15,4,") + ",short"
    path = tmp_path / "roster.csv"
    path.write_text("\n".join([header, row2, row3]) + "\n")
    out = invoke("import", path, "--fed", fed, code=1)
    assert "line 4" in out and "line 3" not in out


def test_import_of_a_group_given_as_text_names_the_fields_it_wants(fed, tmp_path):
    """A column `owner` holding plain text where a sheet's owner is a group (name, email):
    the message says so in the fed's words, not pydantic's ("valid dictionary or instance of
    OwnerModel")."""
    lines = GOOD.splitlines()
    path = tmp_path / "roster.csv"
    path.write_text("\n".join([lines[0] + ",owner", lines[1] + ",bob"]) + "\n")
    before = snapshot(fed)
    out = invoke("import", path, "--fed", fed, code=1)
    assert "line 2" in out and "field owner: expected a group of fields (name, email), found the text 'bob'" in out
    assert "OwnerModel" not in out and "Input should" not in out
    assert snapshot(fed) == before


# ---------------------------------------------------------------- export and the league's tables


def test_titles_and_reigns_are_rows_matching_fedtool_titles(fed):
    titles = json.loads(invoke("titles", "--json", "--fed", fed))
    db = sqlite3.connect(fed / "fed.db")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM title_reigns ORDER BY title_id, reign")]
    expected = sorted(({"title_id": t["id"], "reign": n, **{k: r[k] for k in ("wrestler_id", "won_week", "won_match", "how", "lost_week", "lost_how", "defences", "weeks")}}
                       for t in titles for n, r in enumerate(t["reigns"], start=1)), key=lambda r: (r["title_id"], r["reign"]))
    assert rows == expected and any(r["how"] == "won" for r in rows)
    assert [(r["id"], r["holder"]) for r in db.execute("SELECT id, holder FROM titles ORDER BY position")] == [(t["id"], t["holder"]) for t in titles]
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert "owner_email" not in [r[1] for r in db.execute("PRAGMA table_info(wrestlers)")]
    stars = db.execute("SELECT stars FROM matches WHERE id = 'week-01/m1'").fetchone()[0]
    assert stars == json.loads(invoke("results", 1, "--json", "--fed", fed))[0]["rating"]
    # a ruling changes the rows at once
    invoke("title", "vacate", "world", "--reason", "injured", "--fed", fed)
    assert db.execute("SELECT holder FROM titles WHERE id = 'world'").fetchone()[0] is None
    assert db.execute("SELECT lost_how FROM title_reigns WHERE title_id = 'world' ORDER BY reign DESC").fetchone()[0] == "vacated"


def test_export_csv_and_json_without_addresses_unless_asked(fed, tmp_path):
    out = tmp_path / "export"
    invoke("export", "--out", out, "--fed", fed)
    names = {p.name for p in out.iterdir()}
    for table in ("wrestlers", "matches", "results", "titles", "reigns", "standings"):
        assert f"{table}.csv" in names and f"{table}.json" in names
        rows = list(csv.DictReader(io.StringIO((out / f"{table}.csv").read_text())))
        assert len(rows) == len(json.loads((out / f"{table}.json").read_text())) > 0
    assert not any("@" in (out / n).read_text() for n in names)
    results = list(csv.DictReader(io.StringIO((out / "results.csv").read_text())))
    first = json.loads(invoke("results", 1, "--json", "--fed", fed))[0]
    assert {(r["wrestler_id"], r["outcome"]) for r in results if (r["week"], r["match"]) == ("1", "m1")} == set(first["outcomes"].items())
    invoke("export", "--out", out, "--private", "--format", "json", "--fed", fed)
    wrestlers = json.loads((out / "wrestlers.json").read_text())
    assert {w["id"]: w["owner_email"] for w in wrestlers}["big-earl"] == "earl@players.example"
    assert not (out / "wrestlers.csv").exists()  # the folder is replaced whole
    # never over a folder fedtool did not write
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert "not empty and not an earlier export" in invoke("export", "--out", other, "--fed", fed, code=1)


def test_the_migration_moves_addresses_out_of_the_wrestlers_table(tmp_path):
    from sqlite_utils import Database

    from fedtool.league.db import migrations, open_league

    path = tmp_path / "fed.db"
    db = Database(path)
    migrations.apply(db, stop_before="m015_roster_and_titles")
    db["wrestlers"].insert({"id": "big-earl", "name": "Big Earl", "ruleset": "matchmatch", "owner_name": "E", "owner_email": "earl@x.example",
                            "members": None})
    db["wrestlers"].insert({"id": "team", "name": "Team", "ruleset": "matchmatch", "owner_name": "E", "owner_email": "t@x.example",
                            "members": '["big-earl", "other"]'})
    db.close()
    db = open_league(path)
    assert [dict(r) for r in db["owners"].rows] == [{"wrestler_id": "big-earl", "owner_email": "earl@x.example"},
                                                    {"wrestler_id": "team", "owner_email": "t@x.example"}]
    assert "owner_email" not in db["wrestlers"].columns_dict
    assert [(r["member_id"], r["position"]) for r in db["team_members"].rows_where(order_by="position")] == [("big-earl", 0), ("other", 1)]


# ---------------------------------------------------------------- locks


def test_every_writing_roster_command_holds_the_fed_lock(fed, monkeypatch, tmp_path):
    from filelock import FileLock

    import fedtool.cli

    monkeypatch.setattr(fedtool.cli, "LOCK_WAIT", 0.05)
    csv_file = tmp_path / "r.csv"
    csv_file.write_text(GOOD)
    before = snapshot(fed)
    held = FileLock(fed / ".fedtool.lock")
    with held:
        for args in (["roster", "add", "jo", "--name", "Jo", "--owner-name", "Jo", "--owner-email", "jo@x.example"], ["roster", "retire", "silent-crane"],
                     ["roster", "return", "silent-crane"], ["roster", "respec", "big-earl", fed / "rosters" / "big-earl.yaml", "--reason", "x"],
                     ["import", csv_file], ["export"]):
            assert "another fedtool command is writing" in invoke(*args, "--fed", fed, code=1)
    assert snapshot(fed) == before


# ---------------------------------------------------------------- Datasette


def test_browse_without_datasette_says_how_to_get_it(fed, monkeypatch):
    import fedtool.roster.browse

    monkeypatch.setattr(fedtool.roster.browse, "datasette_installed", lambda: False)
    assert "Datasette is not installed: `pip install datasette`" in invoke("browse", "--no-open", "--fed", fed, code=1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_datasette_serves_the_league_on_loopback_with_nothing_private(fed, tmp_path):
    pytest.importorskip("datasette")
    from fedtool.league.db import open_league
    from fedtool.league.sheets import load_fed
    from fedtool.mail.passwords import set_password
    from fedtool.roster.browse import prepare, serve_command, serve_metadata

    the_fed = load_fed(fed)
    set_password(the_fed, "earl@players.example", "hunter2-hunter2")
    open_league(fed / "fed.db").close()
    hashes = [row[0] for row in sqlite3.connect(fed / "fed.db").execute("SELECT hash FROM player_passwords")]
    addresses = [row[0] for row in sqlite3.connect(fed / "fed.db").execute("SELECT owner_email FROM owners")]
    assert hashes and len(addresses) >= 20
    prepare(the_fed)
    assert (fed / "rosters" / "datasette.json").exists()  # the demo fed ships one; the copy has it
    metadata = tmp_path / "metadata.json"
    metadata.write_text(json.dumps(serve_metadata(the_fed)))
    port = _free_port()
    process = subprocess.Popen(serve_command(the_fed, metadata, "127.0.0.1", port, open_browser=False), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if _get(f"{base}/-/versions.json")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        status, body = _get(f"{base}/fed/title_reigns.json?_shape=array")
        assert status == 200
        reigns = json.loads(body)
        assert {(r["title_id"], r["reign"], r["wrestler_id"]) for r in reigns} >= {("world", 1, "relampago"), ("tag-team", 2, "heavy-industry")}
        status, body = _get(f"{base}/fed/wrestlers.json?_shape=array&_size=max")
        assert status == 200 and {w["id"] for w in json.loads(body)} >= {"big-earl", "the-warden"}
        served = [body]
        tables = [t["name"] for t in json.loads(_get(f"{base}/fed.json")[1])["tables"]]
        for name in tables:
            status, body = _get(f"{base}/fed/{name}.json?_shape=array&_size=max")
            if status == 200:
                served.append(body)
        for private in ("owners", "player_passwords", "away", "punctuality", "inbox_seen", "sent_mail"):
            assert _get(f"{base}/fed/{private}.json")[0] == 403, private
        assert _get(f"{base}/fed.json?sql=select+owner_email+from+owners")[0] == 403
        assert _get(f"{base}/fed.db")[0] == 403
        text = b"\n".join(served).decode()
        assert len(served) > 10
        for secret in addresses + hashes:
            assert secret not in text
    finally:
        process.terminate()
        process.wait(timeout=10)


# ---------------------------------------------------------------- player text through CSV


def test_export_csv_never_hands_a_spreadsheet_a_formula(fed, tmp_path):
    sheet = fed / "rosters" / "big-earl.yaml"
    sheet.write_text(sheet.read_text().replace("name: Big Earl Hollis", "name: '=HYPERLINK(\"http://evil.example\",\"Earl\")'"))
    out = tmp_path / "export"
    invoke("export", "--out", out, "--fed", fed)
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO((out / "wrestlers.csv").read_text()))}
    assert rows["big-earl"]["name"] == "'" + '=HYPERLINK("http://evil.example","Earl")'  # a quote mark first: text, never a formula
    assert {w["id"]: w["name"] for w in json.loads((out / "wrestlers.json").read_text())}["big-earl"].startswith("=HYPERLINK")
    assert all(not cell.startswith(("=", "+", "@")) for r in rows.values() for cell in r.values())


def test_any_name_survives_a_csv_import_as_written(league_after_five):
    """Property: whatever a spreadsheet puts in a name cell (quotes, commas, line breaks,
    YAML's own signs), the sheet made from it carries that name, and the row's line is right."""
    from hypothesis import given, settings, strategies as st

    from fedtool.league.sheets import load_fed
    from fedtool.roster.transfer import read_roster_csv

    fed = load_fed(league_after_five)
    header, row = GOOD.splitlines()[:2]
    names = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\u2028\u2029\x85"), min_size=1, max_size=40)

    @settings(max_examples=40, deadline=None)
    @given(names, st.integers(0, 3))
    def check(name, blank_lines):
        if not name.strip() or name != name.strip():
            return  # a name is trimmed, like any cell
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header.split(","))
        for _ in range(blank_lines):
            buffer.write("\n")
        cells = next(csv.reader([row]))
        cells[1] = name
        writer.writerow(cells)
        path = league_after_five.parent / "prop.csv"
        path.write_text(buffer.getvalue(), encoding="utf-8")
        try:
            rows = read_roster_csv(fed, path)
        except Exception as exc:  # a name the sheet refuses is named by the row's line, never a crash
            from fedtool.kernel.errors import FedError

            assert isinstance(exc, FedError) and all(f"line {2 + blank_lines}" in (p.place or "") for p in exc.problems), exc
            return
        assert [(r.line, r.data.name) for r in rows] == [(2 + blank_lines, name)]
        assert yaml.safe_load(rows[0].text)["name"] == name

    check()
