"""A killed `fedtool run` and `fedtool run --rerun` (issue 13): SIGKILL at 50 random moments of
a week of 60 matches. The league's commit decides: after each kill the league passes SQLite's
integrity check and holds the week's old run or its new one; once the next command has
started (it settles what the kill left) the outbox holds, byte for byte, the results of the
run the league holds (none when it holds none), `send` offers exactly those, and no staging
is left; and the next run gives what an uninterrupted one gives, outbox and league rows."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from golden import FIXED_EPOCH, ROOT

KILLS = 50  # in turn: a first run, a rerun
MATCHES = 60
SHEETS = ["big-earl", "brother-bob", "friendly-sam", "kate-galloway", "mad-dog-maddox", "relampago", "rocky-ridge", "silent-crane",
          "skyline-sabrina", "victor-vane"]  # the demo's MatchMatch singles
OWNERS = 40
FED_YAML = """name: Crash Test Wrestling
secret: crash-test-secret
ruleset: matchmatch
database: fed.db
mail:
  from_address: fedhead@ctw.example
  list_address: card-list@ctw.example
  reply_to: strategies@ctw.example
rulesets:
  matchmatch:
    missing_strategy: default
    rounds: 5
"""


def fedtool_process(folder: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "fedtool", *args, "--fed", str(folder)], env={**os.environ, "SOURCE_DATE_EPOCH": FIXED_EPOCH},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def fedtool_run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    process = fedtool_process(folder, *args)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def build_fed(folder: Path, matches: int = MATCHES) -> Path:
    """A MatchMatch fed of 2 x `matches` wrestlers (copies of the demo's singles sheets, 40
    owners) with week 1 booked one on one and opened; every side plays the fed's default
    strategy, in 10-round matches (a week of 60 that runs in about a second)."""
    (folder / "rosters").mkdir(parents=True)
    (folder / "rosters/fed.yaml").write_text(FED_YAML)
    ids = []
    for n in range(2 * matches):
        stem = SHEETS[n % len(SHEETS)]
        lines, in_owner = [], False
        for line in (ROOT / "rosters" / f"{stem}.yaml").read_text().splitlines():
            if in_owner and line.startswith(" "):
                continue  # the rest of a block-style owner
            in_owner = line.startswith("owner:")
            if line.startswith("name: "):
                line = f"{line} {n}"
            elif in_owner:
                line = f"owner: {{name: Player {n % OWNERS}, email: player-{n % OWNERS}@players.example}}"
            lines.append(line)
        ids.append(f"{stem}-{n}")
        (folder / "rosters" / f"{ids[-1]}.yaml").write_text("\n".join(lines) + "\n")
    card = f"title: {matches} Matches\nweek: 1\nmatches:\n"
    card += "".join(f"  - {{id: m{i + 1}, sides: [{ids[2 * i]}, {ids[2 * i + 1]}]}}\n" for i in range(matches))
    (folder / "strategies/week-01").mkdir(parents=True)
    (folder / "strategies/week-01/card.yaml").write_text(card)
    fedtool_run(folder, "open", "1")
    return folder


def copy_fed(source: Path, target: Path) -> None:
    """A copy of a fed, quick: hard links for what fedtool only reads or replaces whole (sheets,
    cards, the outbox's files), real copies of the league and the lock, which are written in place."""
    def link_or_copy(src: str, dst: str) -> None:
        if Path(src).name.startswith(("fed.db", ".fedtool.lock")):
            shutil.copy2(src, dst)
        else:
            os.link(src, dst)

    shutil.copytree(source, target, copy_function=link_or_copy)


def files(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, hidden ones too, and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} if folder.is_dir() else {}


def league(folder: Path) -> tuple[int, dict[str, list[str]]]:
    """The run of week 1 the league holds (0: none) and every row of every table that has
    any (but the migrations' own, which say when they were applied); checks its integrity."""
    path = folder / "fed.db"
    if not path.exists():
        return 0, {}
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                                "AND name != '_sqlite_migrations' ORDER BY name")]
        rows = {table: sorted(map(repr, db.execute(f"SELECT * FROM [{table}]"))) for table in tables}
        held = db.execute("SELECT MAX(run) FROM week_runs WHERE week = 1 AND EXISTS (SELECT 1 FROM weeks WHERE week = 1)").fetchone()[0] if {"weeks", "week_runs"} <= set(tables) else None
    return held or 0, {table: values for table, values in rows.items() if values}


def staging_left(folder: Path) -> list[str]:
    """Hidden folders and files in the outbox: a swap's staging (.week-01.new-*), an old
    outbox moved aside (.week-01.old-*), the announcements' staging."""
    return sorted(str(p.relative_to(folder)) for p in (folder / "outbox").rglob(".*"))


@pytest.mark.slow
def test_killed_runs_and_reruns_leave_the_outbox_following_the_league(tmp_path, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    rng = random.Random(20261124)
    opened = build_fed(tmp_path / "opened")

    # the uninterrupted week: run 1, then run 2 (the rerun); how long each takes here
    reference = tmp_path / "reference"
    shutil.copytree(opened, reference)
    states = {0: (files(reference / "outbox/week-01"), league(reference))}
    spans = {}
    for run, args in ((1, ("run", "1")), (2, ("run", "1", "--rerun"))):
        start = time.monotonic()
        fedtool_run(reference, *args)
        spans[run] = time.monotonic() - start
        if run == 1:
            shutil.copytree(reference, tmp_path / "ran")
        states[run] = (files(reference / "outbox/week-01"), league(reference))
        assert states[run][1][0] == run
    ran = tmp_path / "ran"
    results = {run: {name for name in states[run][0] if not name.startswith("announcements/")} for run in (1, 2)}
    assert len(results[1]) == 2 * MATCHES + 3 + OWNERS + 1  # m1.md, m1.html, ...; card.md, card.html, dice.txt; a mail per owner and the list's
    announcements = len([name for name in states[0][0] if name.startswith("announcements/mail/")])
    assert announcements == 2 * MATCHES

    # two feds killed in turn: one running week 1 for the first time, one rerunning it
    feds = {1: tmp_path / "first", 2: tmp_path / "again"}
    copy_fed(opened, feds[1])
    copy_fed(ran, feds[2])
    seen = {"before": 0, "staged": 0, "after": 0, "ended": 0}
    for n in range(KILLS):
        run = 1 + n % 2
        fed = feds[run]
        killed = fedtool_process(fed, *(("run", "1") if run == 1 else ("run", "1", "--rerun")))
        moment = time.monotonic() + rng.uniform(0, spans[run])  # anywhere in the run: start-up, reading, resolving, writing, committing, swapping
        while time.monotonic() < moment and killed.poll() is None:
            time.sleep(0.005)  # (a run that ended first is not waited for)
        ended = killed.poll() is not None
        killed.send_signal(signal.SIGKILL)
        assert killed.wait() in (0, -signal.SIGKILL), f"kill {n}: {killed.stderr.read()}"
        held, rows = league(fed)  # and its integrity_check
        assert held in (run - 1, run), f"kill {n}"
        seen["ended" if ended else "after" if held == run else "staged" if staging_left(fed) else "before"] += 1

        # the next command settles what the kill left: the outbox follows the league
        offered = fedtool("send", "--dry-run", "--fed", fed)
        assert offered.exit_code == 0, f"kill {n}: {offered.output}"
        assert staging_left(fed) == [], f"kill {n}"
        expected_files, (_, expected_rows) = states[held]
        assert files(fed / "outbox/week-01") == expected_files, f"kill {n}: the league holds run {held}"
        assert rows == expected_rows, f"kill {n}"
        # send offers the announcements, and the results of the run the league holds, no other
        offered_results = sorted(line.split(" ", 2)[2].split(": ")[0] for line in offered.output.splitlines() if line.startswith("would send outbox/week-01/mail/"))
        assert offered_results == sorted(f"outbox/week-01/{name}" for name in results.get(held, ()) if name.startswith("mail/")), f"kill {n}"
        assert f"{announcements + len(offered_results)} to send, 0 sent before" in offered.output
        if held == run:  # the killed run stands (its outbox is the uninterrupted one's): start again from before it
            shutil.rmtree(fed)
            copy_fed(opened if run == 1 else ran, fed)

    # and the next run gives what an uninterrupted one gives
    for run, fed in feds.items():
        fedtool_run(fed, *(("run", "1") if run == 1 else ("run", "1", "--rerun")))
        assert staging_left(fed) == []
        assert files(fed / "outbox/week-01") == states[run][0]
        assert league(fed) == states[run][1]
    print(f"kills: {seen['before']} before the commit, nothing staged; {seen['staged']} with a staging left; "
          f"{seen['after']} after the commit; {seen['ended']} after the run had ended (spans {spans[1]:.2f} s, {spans[2]:.2f} s)")


# ---------------------------------------------------------------- a kill at each step of the swap

STOPPED = """
import os, signal, sys
from pathlib import Path
from fedtool.fed import files

def killed():
    os.kill(os.getpid(), signal.SIGKILL)

step = sys.argv[1]
if step == "sealed":  # the staged outbox complete and on disk, the league not yet committed
    seal = files.StagedDir.seal
    files.StagedDir.seal = lambda self: (seal(self), killed())
elif step == "committed":  # the league committed, nothing renamed
    files.StagedDir.swap = lambda self: killed()
else:  # the swap's renames: the old outbox moved aside; the new one in its place, the old one not yet removed
    renames = {"moved-aside": 1, "swapped-in": 2}[step]
    rename = Path.rename
    def counted(self, target):
        global renames
        moved = rename(self, target)
        renames -= 1
        if renames == 0:
            killed()
        return moved
    Path.rename = counted
from fedtool.cli import cli
cli(sys.argv[2:])
"""


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory):
    """The demo fed opened (announcements in the outbox), run once, and run again: each
    state's fed folder, outbox and league."""
    from click.testing import CliRunner

    from fedtool.cli import cli
    from golden import demo_copy

    base = tmp_path_factory.mktemp("demo-runs")
    fed = demo_copy(base / "fed")
    states = {}
    env = {"SOURCE_DATE_EPOCH": FIXED_EPOCH}
    for run, args in ((0, ["open", "1", "--reroll"]), (1, ["run", "1"]), (2, ["run", "1", "--rerun"])):
        result = CliRunner(env=env).invoke(cli, [*args, "--fed", str(fed)])
        assert result.exit_code == 0, result.output
        copy_fed(fed, base / f"after-{run}")
        states[run] = (base / f"after-{run}", files(fed / "outbox/week-01"), league(fed))
    return states


@pytest.mark.parametrize(("step", "run", "held"), [
    ("sealed", 1, 0), ("committed", 1, 1), ("swapped-in", 1, 1),
    ("sealed", 2, 1), ("committed", 2, 2), ("moved-aside", 2, 2), ("swapped-in", 2, 2),
])
def test_a_run_killed_at_each_step_of_its_swap_is_settled_by_the_next_command(demo_runs, step, run, held, tmp_path, fedtool, monkeypatch):
    """Killed (SIGKILL) right after the staged outbox is sealed, after the league's commit,
    and between and after the swap's renames: the league holds the old run or the new one,
    and the next command makes the outbox that run's, byte for byte, leaving no staging."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    fed = tmp_path / "fed"
    copy_fed(demo_runs[run - 1][0], fed)
    args = ["run", "1"] + (["--rerun"] if run == 2 else [])
    stopped = subprocess.run([sys.executable, "-c", STOPPED, step, *args, "--fed", str(fed)], env={**os.environ, "SOURCE_DATE_EPOCH": FIXED_EPOCH},
                             capture_output=True, text=True, timeout=120)
    assert stopped.returncode == -signal.SIGKILL, stopped.stderr
    assert league(fed) == demo_runs[held][2]
    if step == "moved-aside":
        assert not (fed / "outbox/week-01").exists()  # the rerun's outbox is not in place yet, the old one is aside
    assert staging_left(fed) != []  # the staged outbox, or the old one moved aside
    offered = fedtool("send", "--dry-run", "--fed", fed)
    assert offered.exit_code == 0, offered.output
    assert staging_left(fed) == []
    assert files(fed / "outbox/week-01") == demo_runs[held][1]
    assert league(fed) == demo_runs[held][2]
    assert ("would send outbox/week-01/mail/card.eml: " in offered.output) == (held > 0)


def test_the_next_command_drops_every_leftover_staging_and_puts_back_a_folder_left_aside(demo_fed, fedtool):
    """What killed builds leave (the site's, an exhibition's, the announcements', a week's
    the league does not hold) is dropped by the next writing command; a folder moved aside
    whose new one never came is put back; a finished folder is left alone."""
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    week = files(demo_fed / "outbox/week-01")
    outbox = demo_fed / "outbox"
    leftovers = [".site.new-k1ll3d/index.html", "exhibitions/.week-01.new-abc/m1.md", "week-01/.announcements.new-x/m1-brother-bob.md",
                 ".week-02.new-run1-q/card.md", ".week-02.old-q/card.md", ".week-01.new-run2-z/card.md"]
    for name in leftovers + ["exhibitions/.part-vi.old-y/part-vi.md"]:
        (outbox / name).parent.mkdir(parents=True)
        (outbox / name).write_text("left by a killed command\n")
    result = fedtool("send", "--dry-run", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert staging_left(demo_fed) == []
    assert files(outbox / "week-01") == week  # the league holds run 1: a staged run 2 is nobody's
    assert files(outbox / "exhibitions/part-vi") == {"part-vi.md": b"left by a killed command\n"}  # put back: its new one never came
    assert files(outbox / "week-02") == {"card.md": b"left by a killed command\n"}  # the same, though the league does not hold week 2 ...
    assert "outbox/week-02/" not in result.output  # ... so send does not offer it
