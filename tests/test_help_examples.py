"""Every example in every command's --help runs on the demo fed (issue 25's leftover: the
roster commands' examples were tested, `records --season 1`, `site`'s chained command and
`export --out ~/dcw-data` could not run as written).

The examples are read from the help text itself, as a reader would copy them: a line (its
`\\` continuations joined) is cut at `&&` into commands, each run in order; `VAR=value`
before a command is its environment, `~` is a home folder made for the test, `>> FILE`
appends the command's output to FILE, a crontab's five time fields and its `cd` are the
cron line's own. Each command's examples run in order on a fresh copy of the demo fed
(the repository's rosters/, strategies/ and templates/), in the fed's folder, with week 1
run first where an example needs a run week (`NEEDS`). They run in-process (click's
CliRunner), against a real SMTP server on loopback (aiosmtpd) where an example sends.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import socket

import click
import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from fedtool.cli import cli
from golden import demo_copy
from test_send import Inbox, with_smtp

ROOT = Path(__file__).resolve().parent.parent

# the time a snapshot is named by: `fedtool restore NAME`'s example names the snapshot taken
# before week 1's second run at this time (2026-11-23T19:28:34Z)
EPOCH = "1795462114"

# Examples that reach a server on the Internet (IMAP), never reached from a test: each must
# still stand in its help (so this list cannot go stale) and is only parsed.
SERVERS = {
    "FEDTOOL_IMAP_PASSWORD=... fedtool inbox imaps://fedhead@mail.dcw.example/Strategies",
    "FEDTOOL_IMAP_CAFILE=/etc/ssl/mail.pem FEDTOOL_IMAP_PASSWORD=... fedtool inbox imaps://fed@mail.home:993/INBOX",
}


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()):
    yield path
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name)


COMMANDS = list(_commands())


def help_text(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def examples(path: tuple[str, ...]) -> list[str]:
    """The example lines of a command's help (after its `Example...:` line, indented), each
    with its `\\` continuations joined; fedtool's own help shows its examples after a label
    (`A week:  fedtool open 1   (roll grids, announce)`)."""
    text = help_text(path)
    found = re.search(r"^ *Example[^\n]*:\n((?:[ \t]+\S[^\n]*\n?)+)", text, re.MULTILINE)
    if not path:
        return [m.group(1) for m in re.finditer(r"^ .*?(fedtool \S.*?)(?: {2,}\(.*\))?$", text, re.MULTILINE)]
    assert found, f"`fedtool {' '.join(path)} --help` shows no example"
    lines: list[str] = []
    for line in found.group(1).splitlines():
        line = line.strip()
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1].rstrip() + " " + line
        else:
            lines.append(line)
    return [line for line in lines if "fedtool " in line]


def steps(line: str, home: Path) -> list[tuple[dict, list[str], str | None]]:
    """A line's commands: (environment, fedtool's arguments, a file its output is appended to)."""
    words = shlex.split(line)
    if len(words) > 5 and all(re.fullmatch(r"[0-9*/,-]+", w) for w in words[:5]):  # a crontab line
        words = words[5:]
    parts: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            parts.append([])
        else:
            parts[-1].append(word)
    out = []
    for words in parts:
        env = {}
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
        if words[:1] == ["cd"]:  # the crontab line's own folder: the test is in the fed's already
            continue
        assert words[:1] == ["fedtool"], f"not a fedtool command: {shlex.join(words)!r} in {line!r}"
        words = [str(home / w[2:]) if w.startswith("~/") else w for w in words[1:]]
        target = None
        if ">>" in words:
            at = words.index(">>")
            words, target = words[:at], words[at + 1]
        out.append((env, words, target))
    return out


@pytest.fixture(scope="module")
def smtp_port():
    """An SMTP server on loopback for the examples that send (tests/test_send.py's)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Inbox(), hostname="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The demo fed with week 1 run (a copy for each command that needs a run week)."""
    fed = demo_copy(tmp_path_factory.mktemp("played") / "fed")
    run(fed, ["run", "1", "--fed", str(fed)])
    return fed


def run(fed: Path, args: list[str], env: dict | None = None, input: str | None = None) -> str:
    result = CliRunner(env={"SOURCE_DATE_EPOCH": EPOCH, **(env or {})}).invoke(cli, args, input=input)
    assert result.exit_code == 0, f"fedtool {shlex.join(args)} (exit {result.exit_code}):\n{result.output}"
    assert "Traceback" not in result.output
    return result.output


def fedtool(*args: str):
    """A step a fedhead would have taken before the example: a fedtool command."""
    return lambda fed, home: run(fed, [*args])


def place(fed: Path, home: Path, name: str) -> Path:
    """A file an example names: in the home folder for `~/...`, else in the fed's."""
    return home / name[2:] if name.startswith("~/") else fed / name


def write(name: str, text: str):
    return lambda fed, home: place(fed, home, name).write_text(text, encoding="utf-8")


def copy(source: str, target: str):
    def step(fed: Path, home: Path) -> None:
        to = place(fed, home, target)
        to.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if (fed / source).is_dir() else shutil.copy)(fed / source, to)
    return step


def maildir(name: str):
    return lambda fed, home: [(place(fed, home, name) / sub).mkdir(parents=True) for sub in ("cur", "new", "tmp")]


def unopened(week: int):
    return lambda fed, home: (fed / f"strategies/week-{week:02d}/opening.yaml").unlink()


ROSTER_CSV = "id,name,ruleset,owner_name,owner_email\njo-blaze,Jo Blaze,matclash,Jo,jo@players.example\n"

# What an example needs before it runs, beyond the demo fed with week 1 run: `fresh`, the
# demo as it ships (no week run); `before`, steps a fedhead would have taken (from the
# fed's folder); `input`, what is typed at a prompt.
NEEDS: dict[tuple[str, ...], dict] = {
    (): {"fresh": True, "before": [unopened(1)]},  # `fedtool open 1`, then `run 1`
    ("run",): {"fresh": True},
    ("open",): {"before": [unopened(2)]},  # the demo ships its weeks opened
    ("accept",): {"before": [copy("strategies/week-02/brother-bob.yaml", "strategies/week-02/held/brother-bob.yaml")]},
    ("inbox",): {"before": [maildir("~/Maildir/fed")]},
    ("import",): {"before": [write("roster.csv", ROSTER_CSV)]},
    ("password",): {"input": "a secret\na secret\n"},
    ("restore",): {"before": [fedtool("run", "1", "--rerun")]},  # at EPOCH: the snapshot the example names
    ("verify",): {"before": [copy("outbox/week-01", "~/dcw-results/week-01")]},
    ("records",): {"before": [fedtool("season", "close")]},
    ("season", "show"): {"before": [fedtool("season", "close")]},
    ("season", "reopen"): {"before": [fedtool("season", "close")]},
    ("roster", "return"): {"before": [fedtool("roster", "retire", "hank-morrow")]},
    ("roster", "respec"): {"before": [write("new-earl.yaml", (ROOT / "rosters/big-earl.yaml").read_text(encoding="utf-8") + "# more Power\n")]},
}


def test_the_commands_are_found():
    assert ("records",) in COMMANDS and ("season", "close") in COMMANDS and () in COMMANDS


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "fedtool")
def test_every_help_example_runs_on_the_demo(path, played, tmp_path, monkeypatch, smtp_port):
    lines = examples(path)
    assert lines
    home = tmp_path / "home"
    fed = home / "feds" / "dcw"  # `fedtool --fed ~/feds/dcw standings` names the fed itself
    fed.parent.mkdir(parents=True)
    needs = NEEDS.get(path, {})
    if needs.get("fresh"):
        demo_copy(fed)
    else:
        shutil.copytree(played, fed)
    with_smtp(fed, smtp_port)
    monkeypatch.chdir(fed)
    monkeypatch.setenv("HOME", str(home))
    served = []  # `fedtool browse` runs as far as starting Datasette, which would serve until stopped
    monkeypatch.setattr("fedtool.roster.browse.subprocess.call", lambda command: served.append(command) or 0)
    for prepare in needs.get("before", ()):
        prepare(fed, home)
    for line in lines:
        if line in SERVERS:
            assert steps(line, home)
            continue
        for env, args, target in steps(line, home):
            output = run(fed, args, env, input=needs.get("input"))
            if target is not None:
                with open(target, "a", encoding="utf-8") as handle:
                    handle.write(output)
    assert bool(served) == (path == ("browse",))  # Datasette was started on the league, with its metadata
    assert all("datasette" in command and "--metadata" in command for command in served)
    for line in SERVERS:
        assert any(line in examples(p) for p in COMMANDS), f"{line!r} is in no help: drop it from SERVERS"
