"""Review 25: what an attacker and a new user found left open in the roster, records and
site commands (issue 19's roster commands, issue 16's cards): each test is a defect,
failing before its fix. The demo fed's weeks 1 to 5 are opened (announced) and not run."""

from __future__ import annotations

import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import snapshot
from fedtool.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args, code: int = 0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def where_is(fed: Path, wrestler_id: str) -> tuple[str, ...]:
    """Where the wrestler's sheet is: ("rosters",), ("retired",), both or neither."""
    return tuple(name for name, path in (("rosters", fed / "rosters" / f"{wrestler_id}.yaml"),
                                         ("retired", fed / "rosters/retired" / f"{wrestler_id}.yaml")) if path.exists())


def league_says(fed: Path, wrestler_id: str) -> tuple[object, list[str]]:
    """The league's word on a wrestler: his `retired_after` and his roster changes."""
    db = sqlite3.connect(fed / "fed.db")
    try:
        row = db.execute("SELECT retired_after FROM wrestlers WHERE id = ?", [wrestler_id]).fetchone()
        changes = [r[0] for r in db.execute("SELECT action FROM roster_changes WHERE wrestler_id = ? ORDER BY id", [wrestler_id])]
    finally:
        db.close()
    return (row[0] if row else None), changes


def leftovers(fed: Path) -> list[str]:
    return sorted(p.name for folder in (fed / "rosters", fed / "rosters/retired") if folder.is_dir() for p in folder.iterdir() if p.name.startswith("."))


# ---------------------------------------------------------------- 1. a wrestler on an opened week's card


def test_retire_refuses_a_wrestler_booked_on_an_opened_week_naming_the_week_and_match(demo_fed):
    """The demo's weeks 1 and 2 are announced and book The Silent Crane (week 1 m3, week 2
    m2): retiring him took no notice, and the week could then not be run."""
    before = snapshot(demo_fed)
    out = invoke("roster", "retire", "silent-crane", "--reason", "to teach", "--fed", demo_fed, code=1)
    assert "strategies/week-01/card.yaml, line 16, match m3: The Silent Crane is booked in week 1, opened and not yet run" in out
    assert "strategies/week-02/card.yaml" in out and "match m2" in out
    assert "[fedtool roster retire]" in out
    after = snapshot(demo_fed)
    after.pop("fed.db")  # the league, made by the first command that opens it
    assert after == before
    assert where_is(demo_fed, "silent-crane") == ("rosters",)
    for week, match in ((1, "m3"), (2, "m2")):  # his matches taken off the opened cards, as the message says: then he retires, and the weeks run
        card = demo_fed / f"strategies/week-0{week}/card.yaml"
        text = card.read_text()
        start = text.index(f"  - id: {match}\n")
        end = text.find("  - id: ", start + 1)
        card.write_text(text[:start] + (text[end:] if end > 0 else ""))
    invoke("roster", "retire", "silent-crane", "--fed", demo_fed)
    assert where_is(demo_fed, "silent-crane") == ("retired",)
    invoke("run", "1", "--fed", demo_fed)


def test_retire_warns_of_a_card_not_yet_opened_and_the_card_then_says_so(demo_fed):
    week = demo_fed / "strategies/week-06"
    week.mkdir()
    (week / "card.yaml").write_text("title: Week 6\nmatches:\n  - id: m1\n    sides: [kid-comet, hank-morrow]\n    ruleset: facemat\n")
    result = CliRunner().invoke(cli, ["roster", "retire", "hank-morrow", "--fed", str(demo_fed)])
    assert result.exit_code == 0, result.output
    assert "warning: strategies/week-06/card.yaml, line 4, match m1: Hank Morrow is booked in week 6 (not opened yet): " \
           "change the card before `fedtool open 6`" in result.stderr
    assert where_is(demo_fed, "hank-morrow") == ("retired",)
    assert "'hank-morrow' is retired" in invoke("open", "6", "--fed", demo_fed, code=1)


def test_a_retired_wrestler_after_his_week_has_run_is_retired_without_a_word(demo_fed):
    invoke("run", "1", "--fed", demo_fed)
    week = demo_fed / "strategies"
    for folder in ("week-02", "week-03", "week-04", "week-05"):  # his later cards gone: only the run week books him
        text = (week / folder / "card.yaml").read_text()
        if "silent-crane" in text:
            (week / folder / "opening.yaml").unlink()
            (week / folder / "card.yaml").write_text(text.replace("silent-crane", "kid-comet"))
    result = CliRunner().invoke(cli, ["roster", "retire", "silent-crane", "--fed", str(demo_fed)])
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert where_is(demo_fed, "silent-crane") == ("retired",)


# ---------------------------------------------------------------- 2. the league's commit decides a move

STOPPED = """
import os, signal, sys
from pathlib import Path

step, sheet = sys.argv[1], sys.argv[2]
replace = os.replace

def killed():
    os.kill(os.getpid(), signal.SIGKILL)

def stopping(source, target, *args, **kwargs):
    moving = Path(source).name == sheet and Path(target).name == sheet  # the sheet itself, not a file written whole
    if moving and step == "before-move":
        killed()
    replace(source, target, *args, **kwargs)
    if moving and step == "after-move":
        killed()

os.replace = stopping
if step == "journaled":  # the move written down, the league not yet committed
    from fedtool.roster import settle
    write = settle.write_pending
    settle.write_pending = lambda *args: (write(*args), killed())
from fedtool.cli import cli
cli(sys.argv[3:])
"""


@pytest.mark.parametrize("step", ["journaled", "before-move", "after-move"])
@pytest.mark.parametrize("action", ["retire", "return"])
def test_a_retire_or_return_killed_at_each_step_is_settled_by_the_next_command(demo_fed, action, step):
    """SIGKILL right after the move is written down, after the league's commit and before the
    sheet moves, and after it moved: the league and the files agree once the next writing
    command has run (the league's commit decides). Before the fix the sheet moved inside the
    transaction: killed after the move, the sheet was in rosters/retired/ and the league
    said he was on the roster."""
    wrestler = "hank-morrow"
    if action == "return":
        invoke("roster", "retire", wrestler, "--fed", demo_fed)
    before = league_says(demo_fed, wrestler) if (demo_fed / "fed.db").exists() else (None, [])
    stopped = subprocess.run([sys.executable, "-c", STOPPED, step, f"{wrestler}.yaml", "roster", action, wrestler, "--fed", str(demo_fed)],
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == -signal.SIGKILL, stopped.stderr
    done = step != "journaled"  # the league committed
    invoke("send", "--dry-run", "--fed", demo_fed)  # any writing command settles it
    retired_after, changes = league_says(demo_fed, wrestler)
    retired = (action == "retire") == done
    assert where_is(demo_fed, wrestler) == (("retired",) if retired else ("rosters",))
    assert (retired_after is not None) == retired
    assert changes == before[1] + ([{"retire": "retired", "return": "returned"}[action]] if done else [])
    assert leftovers(demo_fed) == []
    listed = {r.split()[0]: r.split()[-1] for r in invoke("roster", "list", "--fed", demo_fed).splitlines()[:-1]}
    assert listed[wrestler] == ("retired" if retired else "active")


def test_a_respec_killed_after_the_commit_writes_the_recorded_sheet(demo_fed, tmp_path):
    """The same for a respec: the league's commit decides, the sheet follows."""
    new = tmp_path / "new-earl.yaml"
    new.write_text((demo_fed / "rosters/big-earl.yaml").read_text().replace("name: Big Earl", "name: Big Earl Jr."))
    script = STOPPED.replace('Path(source).name == sheet and Path(target).name == sheet', 'Path(target).name == sheet')
    stopped = subprocess.run([sys.executable, "-c", script, "before-move", "big-earl.yaml", "roster", "respec", "big-earl", str(new),
                              "--reason", "more Power", "--fed", str(demo_fed)],
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == -signal.SIGKILL, stopped.stderr
    assert "Big Earl Jr." not in (demo_fed / "rosters/big-earl.yaml").read_text()
    invoke("send", "--dry-run", "--fed", demo_fed)
    assert (demo_fed / "rosters/big-earl.yaml").read_text() == new.read_text()
    assert league_says(demo_fed, "big-earl")[1] == ["respec"] and leftovers(demo_fed) == []


# ---------------------------------------------------------------- 3. a killed import's temp file

KILLED_IMPORT = """
import os, signal, sys
link = os.link
def stopping(source, target, *args, **kwargs):
    if os.path.basename(target) == "w-2.yaml":  # the second sheet's temp file written, not yet linked
        os.kill(os.getpid(), signal.SIGKILL)
    return link(source, target, *args, **kwargs)
os.link = stopping
from fedtool.cli import cli
cli(sys.argv[1:])
"""


def test_a_killed_import_leaves_no_temp_file_after_the_next_command(demo_fed, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,ruleset,owner_name,owner_email,tv_grade,grudge,alignment,skills,finisher.name,finisher.range\n" + "".join(
        f'w-{n},Wrestler {n},facemat,P{n},p{n}@players.example,C,0,face,"{{AGILE: star, QUICK: circle, POWERFUL: square, MEAN: circle, '
        f'CHEAT: square}}",the Drop,11-26\n' for n in (1, 2, 3)))
    stopped = subprocess.run([sys.executable, "-c", KILLED_IMPORT, "import", str(roster), "--fed", str(demo_fed)],
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == -signal.SIGKILL, stopped.stderr
    assert [name for name in leftovers(demo_fed) if name.startswith(".w-2.yaml.")] != []
    invoke("send", "--dry-run", "--fed", demo_fed)
    assert leftovers(demo_fed) == []
    assert "imported 3 wrestlers: w-1, w-2, w-3" in invoke("import", roster, "--fed", demo_fed)  # and the import is finished by running it again


def test_the_next_command_leaves_files_that_are_not_fedtools_temp_files(demo_fed):
    mine = ["notes.txt", ".hidden.yaml", ".big-earl.yaml.bak", ".big-earl.yaml.original", ".big-earl.yaml.20261124", ".keep",
            ".big-earl.yaml.fedtool-short", ".big-earl.yaml.fedtool-k2j_x9q0.bak"]
    for name in mine:
        (demo_fed / "rosters" / name).write_text("the fedhead's\n")
    (demo_fed / "rosters/.big-earl.yaml.fedtool-k2j_x9q0").write_text("a temp file\n")
    (demo_fed / "rosters/retired").mkdir()
    (demo_fed / "rosters/retired/.zeke.yaml.fedtool-00000000").write_text("a temp file\n")
    (demo_fed / "rosters/.roster-pending.json.fedtool-abcdefgh").write_text("a temp file\n")
    invoke("send", "--dry-run", "--fed", demo_fed)
    assert sorted(p.name for p in (demo_fed / "rosters").iterdir() if p.name.startswith(".") or p.name in mine) == sorted(mine)
    assert list((demo_fed / "rosters/retired").iterdir()) == []


# ---------------------------------------------------------------- 4. a respec to another wrestler's sheet


def test_respec_refuses_another_wrestlers_sheet(demo_fed):
    before = snapshot(demo_fed)
    out = invoke("roster", "respec", "big-earl", demo_fed / "rosters/rocky-ridge.yaml", "--reason", "oops", "--fed", demo_fed, code=1)
    assert "rosters/rocky-ridge.yaml: is Rocky Ridge's sheet (rocky-ridge): a respec would make big-earl a second Rocky Ridge" in out
    assert "[fedtool roster respec]" in out
    invoke("roster", "retire", "hank-morrow", "--fed", demo_fed)
    out = invoke("roster", "respec", "big-earl", demo_fed / "rosters/retired/hank-morrow.yaml", "--reason", "oops", "--fed", demo_fed, code=1)
    assert "rosters/retired/hank-morrow.yaml: is Hank Morrow's sheet (hank-morrow)" in out
    assert (demo_fed / "rosters/big-earl.yaml").read_text() == before["rosters/big-earl.yaml"].decode()


# ---------------------------------------------------------------- 5. messages that name the right thing


def test_records_of_an_unknown_season_names_records_season(demo_fed):
    out = invoke("records", "--season", "7", "--fed", demo_fed, code=1)
    assert "--season: season 7 has not been closed (closed seasons: none has been closed) [fedtool records --season]" in out
    assert "season show" not in out


def test_site_without_out_names_its_default_folder_not_the_option(demo_fed):
    (demo_fed / "outbox/site").mkdir()
    (demo_fed / "outbox/site/mine.txt").write_text("not fedtool's\n")
    out = invoke("site", "--fed", demo_fed, code=1)
    assert "outbox/site: this folder holds files fedtool did not build (no .fedtool-site): move them away, or build elsewhere with --out DIR [fedtool site]" in out
    assert "--out]" not in out
    out = invoke("site", "--out", demo_fed / "outbox/site", "--fed", demo_fed, code=1)
    assert "give a new or empty folder [fedtool site --out]" in out


def test_retire_and_return_say_the_sheet_not_his(demo_fed):
    out = invoke("roster", "retire", "sister-sorrow", "--fed", demo_fed)
    assert out == "Sister Sorrow retired after week 0; the sheet is kept in rosters/retired/sister-sorrow.yaml\n"
    assert "his" not in invoke("roster", "return", "sister-sorrow", "--fed", demo_fed).split()
    out = invoke("roster", "return", "sister-sorrow", "--fed", demo_fed, code=1)
    assert "'sister-sorrow' is not retired: the sheet is on the roster" in out


def test_import_lists_its_problems_once_in_line_order(demo_fed, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,owner_name,owner_email,stamina\n"
                      "ok-one,One,P,p@players.example,99\n"      # line 2: the ruleset's check
                      "Bad Id,Two,P,p@players.example,15\n"      # line 3: the row's own
                      "ok-three,Three,P,p@players.example,99\n"  # line 4: the ruleset's check
                      "ok-one,Four,P,p@players.example,15\n")    # line 5: the row's own
    out = invoke("import", roster, "--fed", demo_fed, code=1)
    lines = [int(n) for n in re.findall(r"roster\.csv, line (\d+)", out)]
    assert lines == sorted(lines) and set(lines) == {2, 3, 4, 5}, out


@pytest.mark.parametrize("folder", ["outbox/site", "outbox/week-01", "outbox", "outbox/new-thing"])
def test_export_refuses_the_outbox_and_its_folders_but_its_own(demo_fed, folder):
    """`export --out outbox/site` before any site was built made outbox/site an export, which
    `fedtool site` then refused as "files fedtool did not build"."""
    out = invoke("export", "--out", demo_fed / folder, "--fed", demo_fed, code=1)
    assert "fedtool export --out" in out and "outside the outbox" in out
    assert not (demo_fed / folder / ".fedtool-export").exists()
    invoke("export", "--out", demo_fed / "outbox/export", "--fed", demo_fed)


# ---------------------------------------------------------------- 6. every roster help example works on the demo


def _examples(*command: str) -> list[list[str]]:
    text = invoke(*command, "--help")
    block = text.split("Example:", 1)[1]
    return [shlex.split(line.strip())[1:] for line in block.splitlines() if line.strip().startswith("fedtool ")]


@pytest.mark.parametrize("command", [(), ("list",), ("check",), ("add",), ("retire",), ("return",), ("respec",)], ids=lambda c: " ".join(c) or "roster")
def test_every_roster_help_example_runs_on_the_demo(demo_fed, command):
    """`fedtool roster retire --help` showed `roster retire big-earl`, refused on the demo
    (a member of Heavy Industry). Each command's examples run, in order, on a fresh copy of
    the demo, from its folder: a `return` after the wrestler is retired, a respec's new
    sheet written first (a copy of his sheet, edited)."""
    examples = _examples("roster", *command)
    assert examples
    cwd = os.getcwd()
    os.chdir(demo_fed)  # an example's files are named from the fed's folder
    try:
        for example in examples:
            if example[:2] == ["roster", "return"]:
                invoke("roster", "retire", example[2])
            if example[:2] == ["roster", "respec"]:
                Path(example[3]).write_text(Path("rosters", f"{example[2]}.yaml").read_text() + "# respecced\n")
            invoke(*example)
    finally:
        os.chdir(cwd)


# ---------------------------------------------------------------- 7. the README says what retire does


def test_the_readme_says_retire_refuses_a_champion_rather_than_vacating_him(demo_fed):
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| `fedtool roster retire"))
    assert "a champion is vacated first" not in row
    assert "refused for a champion (vacate the title first: `fedtool title vacate TITLE`)" in row
    assert "refused while the wrestler is booked in a week opened and not yet run" in row
    out = invoke("roster", "retire", "relampago", "--fed", demo_fed, code=1)  # what the row says: refused, not vacated
    assert "vacate it first (fedtool title vacate world)" in out


# ---------------------------------------------------------------- 8. the fed's name


@pytest.mark.parametrize("name", ['"DCW\\r\\nBcc: all@x.example"', '"Delta\\x01 Wrestling"', '"Delta\\u202e Wrestling"', '"   "'])
def test_the_feds_name_refuses_control_characters(demo_fed, name):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("name: Delta Championship Wrestling", f"name: {name}"))
    out = invoke("titles", "--fed", demo_fed, code=1)
    assert "rosters/fed.yaml, line 3, field name: " in out and "one line of 1 to 120 printable characters" in out
    assert "[fed settings]" in out


@pytest.mark.parametrize("note", ['{"change": 1, "wrestler": "hank-morrow", "action": "retired", "from": "rosters/retired/hank-morrow.yaml", "to": "outside.yaml"}',
                                  "not a note", '{"change": 99, "wrestler": "big-earl", "action": "retired", "from": "rosters/big-earl.yaml", '
                                  '"to": "rosters/retired/big-earl.yaml"}'])
def test_a_note_the_league_does_not_hold_or_that_leaves_rosters_moves_nothing(demo_fed, note):
    invoke("roster", "retire", "hank-morrow", "--fed", demo_fed)  # the league's roster change 1
    (demo_fed / "rosters/.roster-pending.json").write_text(note)
    before = snapshot(demo_fed)
    invoke("send", "--dry-run", "--fed", demo_fed)
    after = snapshot(demo_fed)
    assert before.pop("rosters/.roster-pending.json") and after == before
