"""Every reader fedtool has, fed hostile files (issue 13).

The contract: whatever bytes sit in a file fedtool reads, the reader gives a valid reading
or a FedError whose problems name the file (fed-relative, as messages show it), never any
other exception, never a signal, and nothing is written to the fed folder. The demo fed
(with a Face to the Mat data folder and a Mat Clash deck of its own, so those readers are
reached) is the base; one file is mutated at a time:

- bytes: a NUL inserted, the file truncated, CR LF or lone CR for every line break, a
  UTF-8 or UTF-16 byte-order mark in front, invalid UTF-8 and control characters spliced
  in, the whole file replaced by binary, padded to just under, at and just over its size
  cap, nested up to 1,500 levels deep (flow brackets, block dashes, explicit keys `? `,
  indentation), the whole file twice;
- structure: the file's own YAML data with values swapped for junk from a recursive
  strategy of YAML-able data, dumped in block or flow style;
- deep: nested 50,000 to 200,000 levels in a child interpreter (a crash there is a signal
  and must not happen; `returncode >= 0`);
- mail: a folder of .eml files, a hostile mail and then a good one; every mail is answered
  or ignored, the good one is filed, and a second intake answers nothing again.

The readers (SLOTS, 20): the settings (then every week of each ruleset booked under them),
roster sheets of each ruleset and a MatchMatch team, strategies (MatchMatch YAML and plain
text, a team's plain text, Mat Clash, Face to the Mat) as `fedtool read` and mail intake
check them, two cards and an opening, scripted dice (read, then the card played on them),
`fedtool odds`' sheet and strategy files, and the data files a fed replaces (Face to the
Mat's track, FAC deck and reels, a Mat Clash deck; read, then the week played on them).
Cases per run (FEDTOOL_HOSTILE_EXAMPLES, default 20, scales the generated ones): hostile
bytes 20 x 20; hostile YAML data 17 x 20; Windows/old-Mac forms 20 x 4; a SQLite file 20;
size caps 20 x 2; a folder 20; deep in a child 6 kinds x 19 files x 2 placings (+2 through
`fedtool read`); `fedtool read` 3 x 15; mail 10 generated (1-3 hostile mails each) + 2.
"""

from __future__ import annotations

import copy
import email.policy
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import snapshot
from golden import demo_copy
from fedtool.cli import cli
from fedtool.fed.card import load_card
from fedtool.kernel.dice import ScriptedDice, SeededDice
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import MAX_YAML_BYTES
from fedtool.league.sheets import load_fed, read_roster_sheet
from fedtool.mail.intake import MAX_BYTES as MAIL_MAX_BYTES
from fedtool.mail.intake import UNCLEAR as UNCLEAR_SENDER_TEXT
from fedtool.mail.intake import intake
from fedtool.rulesets import get_ruleset
from fedtool.week.booking import book_all, card_context, week_card
from fedtool.week.odds import exhibition
from fedtool.week.run import _resolve_card
from fedtool.week.status import check_strategy_file

ROOT = Path(__file__).resolve().parent.parent
PLAINTEXT_LIMIT = 200_000  # fedtool.rulesets.matchmatch.load_strategy_data
DICE_LIMIT = 10_000_000  # fedtool.kernel.dice.ScriptedDice.from_file

HOSTILE = settings(
    max_examples=int(os.environ.get("FEDTOOL_HOSTILE_EXAMPLES", "20")),
    deadline=None,  # file-system work
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


# --------------------------------------------------------------------------- the base fed


def hostile_base(target: Path) -> Path:
    """The demo fed, with the rulesets' data files a fed may replace in place: a Face to the
    Mat data folder (`rulesets: facemat: data:`) and a Mat Clash deck (`rulesets: matclash: deck:`)."""
    root = demo_copy(target)
    shutil.copytree(ROOT / "fedtool/rulesets/facemat/data", root / "facemat-data")
    shutil.copy(ROOT / "fedtool/rulesets/matclash/data/deck.yaml", root / "rosters/house-deck.yaml")
    settings_file = root / "rosters/fed.yaml"
    text = settings_file.read_text(encoding="utf-8")
    text = text.replace("    sets: [wave1, wave2, wave3, short_print]", "    sets: [wave1, wave2, wave3, short_print]\n    deck: house-deck.yaml")
    text = text.replace("    interviews: true", "    interviews: true\n    data: facemat-data")
    assert "deck: house-deck.yaml" in text and "data: facemat-data" in text
    settings_file.write_text(text, encoding="utf-8")
    return root


# --------------------------------------------------------------------------- the readers


def strategy_reader(relative: str) -> Callable[[Path], list[Problem]]:
    """`fedtool read FILE`'s reading: the strategy parsed in its layout and checked for its match."""

    def read(root: Path) -> list[Problem]:
        return check_strategy_file(load_fed(root), root / relative).problems

    return read


def filed_strategy_reader(relative: str, wrestler_id: str) -> Callable[[Path], list[Problem]]:
    """Mail intake's reading: the file checked as the wrestler's, under the strict settings."""

    def read(root: Path) -> list[Problem]:
        return check_strategy_file(load_fed(root), root / relative, wrestler_id, strict=True).problems

    return read


def sheet_reader(wrestler_id: str) -> Callable[[Path], list[Problem]]:
    def read(root: Path) -> list[Problem]:
        read_roster_sheet(load_fed(root), wrestler_id)
        return []

    return read


def card_reader(week: int) -> Callable[[Path], list[Problem]]:
    """The week's card as every command reads it (card.yaml, and opening.yaml if opened)."""

    def read(root: Path) -> list[Problem]:
        week_card(load_fed(root), week)
        return []

    return read


def booking_reader(*weeks: int, play: bool = False) -> Callable[[Path], list[Problem]]:
    """What a run reads before it rolls: the card, its sheets and states, every match booked
    by its ruleset under the fed's settings for it; with `play`, every match then resolved on
    the fed's dice (a data file that was read must play)."""

    def read(root: Path) -> list[Problem]:
        fed = load_fed(root)
        for week in weeks:
            card = week_card(fed, week)
            context = card_context(fed, card, week)
            bookings = book_all(fed, card, context.wrestlers, context.states)
            if play:
                _resolve_card(fed, card, bookings, week, None)
        return []

    return read


def read_settings(root: Path) -> list[Problem]:
    """How every command opens a fed: the settings read and checked."""
    load_fed(root)
    return []


def read_dice(root: Path) -> list[Problem]:
    """`fedtool play strategies/example-part-vi --dice FILE`, up to the writing: the dice read,
    then every match of the card resolved on them."""
    fed = load_fed(root)
    scripted = ScriptedDice.from_file(root / DICE_FILE)
    card = load_card(fed, root / "strategies/example-part-vi")
    context = card_context(fed, card, None)
    _resolve_card(fed, card, book_all(fed, card, context.wrestlers, context.states), None, scripted)
    return []


DICE_FILE = "strategies/example-part-vi/dice.txt"


def read_odds_files(root: Path) -> list[Problem]:
    """`fedtool odds --sheet A --sheet B --strategy A --strategy B`: the files as given, booked
    for an exhibition, one match played on the fed's dice."""
    part_vi = root / "strategies/example-part-vi"
    booking = exhibition(load_fed(root), [root / "rosters/brother-bob.yaml", root / "rosters/friendly-sam.yaml"],
                         [part_vi / "brother-bob.yaml", part_vi / "friendly-sam.yaml"], {"grid": "Po Te Br/We MA HF/Br MA Ch", "rounds": 7})
    ruleset = get_ruleset(booking.wrestlers[0].ruleset)
    ruleset.trial(booking.setup, SeededDice(7))
    return []


@dataclass(frozen=True)
class Slot:
    """One file of the fed and the reader that reads it."""

    file: str  # relative to the fed
    read: Callable[[Path], list[Problem]]  # problems of a reading that does not stand; FedError else
    limit: int = MAX_YAML_BYTES
    is_yaml: bool = True
    shown_absolute: bool = False  # the reader names the file as given (--dice FILE), not fed-relative
    # what reads the file next when it stands: a refusal there need not name it (a card
    # naming another ruleset is refused at its matches, in card.yaml), but names some file
    then: Callable[[Path], list[Problem]] | None = None

    def shown(self, root: Path) -> str:
        return str(root / self.file) if self.shown_absolute else self.file


SLOTS = {
    "settings": Slot("rosters/fed.yaml", read_settings, then=booking_reader(1, 3, 4)),
    "sheet-matchmatch": Slot("rosters/brother-bob.yaml", sheet_reader("brother-bob")),
    "sheet-matchmatch-team": Slot("rosters/rulebook-rivals.yaml", sheet_reader("rulebook-rivals")),
    "sheet-facemat": Slot("rosters/vince-valor.yaml", sheet_reader("vince-valor")),
    "sheet-matclash": Slot("rosters/tommy-reyes.yaml", sheet_reader("tommy-reyes")),
    "strategy-matchmatch-yaml": Slot("strategies/week-01/brother-bob.yaml", strategy_reader("strategies/week-01/brother-bob.yaml")),
    "strategy-matchmatch-plaintext": Slot("strategies/week-02/silent-crane.txt", strategy_reader("strategies/week-02/silent-crane.txt"),
                                          limit=PLAINTEXT_LIMIT, is_yaml=False),
    "strategy-matchmatch-team-plaintext": Slot("strategies/week-02/rulebook-rivals.txt",
                                               filed_strategy_reader("strategies/week-02/rulebook-rivals.txt", "rulebook-rivals"),
                                               limit=PLAINTEXT_LIMIT, is_yaml=False),
    "strategy-matclash": Slot("strategies/week-03/tommy-reyes.yaml", filed_strategy_reader("strategies/week-03/tommy-reyes.yaml", "tommy-reyes")),
    "strategy-facemat": Slot("strategies/week-04/vince-valor.yaml", strategy_reader("strategies/week-04/vince-valor.yaml")),
    "card-matchmatch": Slot("strategies/week-01/card.yaml", card_reader(1), then=booking_reader(1)),
    "card-mixed": Slot("strategies/week-03/card.yaml", card_reader(3), then=booking_reader(3)),
    "opening": Slot("strategies/week-01/opening.yaml", card_reader(1), then=booking_reader(1)),
    "dice": Slot(DICE_FILE, read_dice, limit=DICE_LIMIT, is_yaml=False, shown_absolute=True),
    "odds-sheet": Slot("rosters/friendly-sam.yaml", read_odds_files, shown_absolute=True),
    "odds-strategy": Slot("strategies/example-part-vi/brother-bob.yaml", read_odds_files, shown_absolute=True),
    "data-facemat-track": Slot("facemat-data/track.yaml", booking_reader(4, play=True)),
    "data-facemat-facs": Slot("facemat-data/facs.yaml", booking_reader(4, play=True)),
    "data-facemat-reels": Slot("facemat-data/highlight_reels.yaml", booking_reader(4, play=True)),
    "data-matclash-deck": Slot("rosters/house-deck.yaml", booking_reader(3, play=True)),
}
YAML_SLOTS = [name for name, slot in SLOTS.items() if slot.is_yaml]


# --------------------------------------------------------------------------- the contract


def check_named(problems: list[Problem], file: str, context: str) -> None:
    """A refusal honours the contract: Problems, each naming a file and saying what is wrong,
    and one of them naming the file that was broken."""
    assert problems, context
    for problem in problems:
        assert isinstance(problem, Problem), f"{context}: {problem!r}"
        assert problem.file, f"{context}: a problem names no file: {problem}"
        assert isinstance(problem.message, str) and problem.message.strip(), f"{context}: {problem}"
    assert file in {p.file for p in problems}, f"{context}: no problem names {file}: {[str(p) for p in problems]}"


def fed_snapshot(root: Path) -> dict[str, bytes]:
    """conftest's `snapshot`, or every file's bytes when a file that starts like a SQLite
    database is none (a hostile file the property wrote: `SQLite format 3\\0` as fed.yaml)."""
    try:
        return snapshot(root)
    except sqlite3.DatabaseError:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


_stamp = [1_700_000_000 * 10**9]


def write(path: Path, data: bytes) -> None:
    """Write and give the file a time of its own: a rewrite is always seen as one."""
    path.write_bytes(data)
    _stamp[0] += 10**9
    os.utime(path, ns=(_stamp[0], _stamp[0]))


def problems_of(outcome: list[Problem] | FedError) -> list[Problem]:
    return outcome.problems if isinstance(outcome, FedError) else outcome


def check_named_somewhere(problems: list[Problem], context: str) -> None:
    assert problems, context
    for problem in problems:
        assert isinstance(problem, Problem) and problem.file and problem.message.strip(), f"{context}: {problem!r}"


def _outcome(read: Callable[[Path], list[Problem]], root: Path) -> list[Problem] | FedError:
    try:
        return read(root)
    except FedError as err:
        return err


def read_hostile(slot: Slot, root: Path, data: bytes) -> list[Problem] | FedError:
    """Put `data` in the slot's file, read it, put the file back; check the contract. Returns
    the reading's problems (empty: it stands) or the FedError."""
    path = root / slot.file
    original = path.read_bytes()
    write(path, data)
    later: list[Problem] | FedError = []
    try:
        before = fed_snapshot(root)
        outcome = _outcome(slot.read, root)
        if outcome == [] and slot.then is not None:
            later = _outcome(slot.then, root)
        assert fed_snapshot(root) == before, f"{slot.file}: reading it wrote to the fed"
    finally:
        write(path, original)
    context = f"{slot.file} ({len(data)} bytes)"
    if outcome:
        check_named(outcome.problems if isinstance(outcome, FedError) else outcome, slot.shown(root), context)
        return outcome
    if later:
        check_named_somewhere(later.problems if isinstance(later, FedError) else later, context)
    return later


@pytest.fixture(scope="module")
def fed_root(tmp_path_factory) -> Path:
    root = hostile_base(tmp_path_factory.mktemp("hostile") / "fed")
    for name, slot in SLOTS.items():  # the base stands: every reader reads its file cleanly
        assert slot.read(root) == [] and (slot.then is None or slot.then(root) == []), name
    return root


# --------------------------------------------------------------------------- hostile bytes

INVALID_UTF8 = [b"\xff", b"\xfe", b"\x80", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"]
CONTROLS = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\ufeff", "\u202e", "\ufffe"]
BOMS = [b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]


def deep_text(kind: str, depth: int) -> str:
    """A YAML value nested `depth` levels deep, in one of the ways YAML nests."""
    if kind == "flow-list":
        return "[" * depth + "]" * depth
    if kind == "flow-map":
        return "{a: " * depth + "}" * depth
    if kind == "block-dashes":
        return "- " * depth + "x"
    if kind == "explicit-keys":
        return "? " * depth + "x"
    if kind == "dash-keys":
        return "- ? " * depth + "x"
    if kind == "mixed-flow":
        return "[{a: " * depth + "}]" * depth
    if kind == "indented":
        return "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "x"
    raise AssertionError(kind)


DEEP_KINDS = ["flow-list", "flow-map", "block-dashes", "explicit-keys", "dash-keys", "mixed-flow", "indented"]


@st.composite
def mutated(draw, original: bytes, limit: int) -> bytes:
    """The file's bytes after one to three hostile mutations."""
    data = original
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["nul", "truncate", "crlf", "cr", "bom", "invalid-utf8", "control", "binary",
                                     "splice", "size", "deep", "twice"]))
        at = draw(st.integers(0, len(data)))
        if kind == "nul":
            data = data[:at] + b"\x00" * draw(st.integers(1, 3)) + data[at:]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "crlf":
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        elif kind == "cr":
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
        elif kind == "bom":
            bom = draw(st.sampled_from(BOMS))
            data = bom + (data.decode("utf-8", "replace").encode("utf-16-le" if bom == b"\xff\xfe" else "utf-16-be") if bom in (b"\xff\xfe", b"\xfe\xff") and draw(st.booleans()) else data)
        elif kind == "invalid-utf8":
            data = data[:at] + draw(st.sampled_from(INVALID_UTF8)) + data[at:]
        elif kind == "control":
            data = data[:at] + draw(st.sampled_from(CONTROLS)).encode("utf-8") + data[at:]
        elif kind == "binary":
            data = draw(st.binary(max_size=600))
        elif kind == "splice":
            data = data[:at] + draw(st.binary(min_size=1, max_size=40)) + data[at:]
        elif kind == "size":  # just under, at and just over the cap
            target = limit + draw(st.sampled_from([-1, 0, 1, -200, 200]))
            filler = max(0, target - len(data) - 3)
            data = data + b"\n#" + b"x" * filler + b"\n"
        elif kind == "deep":
            deep = deep_text(draw(st.sampled_from(DEEP_KINDS)), draw(st.sampled_from([2, 50, 999, 1000, 1001, 1500]))).encode()
            data = deep if draw(st.booleans()) else data.rstrip(b"\n") + b"\nzz_deep: " + deep + b"\n"
        elif kind == "twice":
            data = data + b"\n" + data
    return data


@pytest.mark.parametrize("name", list(SLOTS))
@HOSTILE
@given(data=st.data())
def test_every_reader_refuses_hostile_bytes_or_reads_them(fed_root, name, data):
    slot = SLOTS[name]
    original = (fed_root / slot.file).read_bytes()
    read_hostile(slot, fed_root, data.draw(mutated(original, slot.limit), label="bytes"))


# --------------------------------------------------------------------------- hostile structure

SHARP_SCALARS = ["", " ", "\x00", "\t", "~", "null", "yes", "no", "0x1F", "1e999", "-.inf", ".nan", "2026-02-30", "99:99",
                 "x" * 5000, "<script>", "{a: 1}", "*alias", "&anchor", "!!python/object:os.system", "brother-bob",
                 "week-01", "../../etc/passwd", "/dev/zero", "\u202e", "é\u2028\x85"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
                    st.floats(allow_nan=True), st.text(max_size=30), st.sampled_from(SHARP_SCALARS),
                    st.integers(-3, 300), st.dates())
yaml_data = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10) | st.integers(-2, 5), inner, max_size=5),
                         max_leaves=25)


def _paths(doc, prefix=()):
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield prefix + (key,)
            yield from _paths(value, prefix + (key,))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield prefix + (index,)
            yield from _paths(value, prefix + (index,))


@st.composite
def restructured(draw, original: bytes) -> bytes:
    """The file's own data with one to four values replaced, removed or added, dumped as YAML."""
    doc = copy.deepcopy(yaml.safe_load(original.decode("utf-8")))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        if not paths or draw(st.integers(0, 15)) == 0:
            doc = draw(yaml_data)
            continue
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "remove", "add", "nest"]))
        if action == "replace":
            parent[path[-1]] = draw(yaml_data)
        elif action == "remove":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = draw(yaml_data)
        elif action == "add":
            parent.append(draw(yaml_data))
        elif action == "nest":
            value = parent[path[-1]]
            for _ in range(draw(st.integers(1, 40))):
                value = [value] if draw(st.booleans()) else {"x": value}
            parent[path[-1]] = value
    text = yaml.safe_dump(doc, default_flow_style=draw(st.sampled_from([False, True, None])), allow_unicode=draw(st.booleans()),
                          width=draw(st.sampled_from([80, 10**6])))
    return text.encode("utf-8")


@pytest.mark.parametrize("name", YAML_SLOTS)
@HOSTILE
@given(data=st.data())
def test_every_yaml_reader_refuses_hostile_data_or_reads_it(fed_root, name, data):
    slot = SLOTS[name]
    original = (fed_root / slot.file).read_bytes()
    read_hostile(slot, fed_root, data.draw(restructured(original), label="yaml"))


# --------------------------------------------------------------------------- line ends and marks


@pytest.mark.parametrize("name", list(SLOTS))
@pytest.mark.parametrize("form", ["crlf", "cr", "bom", "bom+crlf"])
def test_a_windows_or_old_mac_file_reads_as_the_original(fed_root, name, form):
    """A file saved by Notepad (a byte-order mark, CR LF) or an old Mac (CR) is the same file:
    it stands exactly when the original does, whatever the reader."""
    slot = SLOTS[name]
    original = (fed_root / slot.file).read_bytes()
    data = original.replace(b"\n", b"\r" if form == "cr" else b"\r\n") if "cr" in form else original
    data = b"\xef\xbb\xbf" + data if "bom" in form else data
    assert read_hostile(slot, fed_root, data) == []


def test_a_dice_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Regression: `--dice` refused a file Notepad saved (`'\\ufeff' is not a die face`)."""
    path = tmp_path / "dice.txt"
    path.write_bytes(b"\xef\xbb\xbf# the example\r\n3 4 5\r\n6\r\n")
    assert ScriptedDice.from_file(path).faces == [3, 4, 5, 6]
    path.write_bytes(b"\xef\xbb\xbf3 4\n")
    assert ScriptedDice.from_file(path).faces == [3, 4]
    path.write_bytes(b"3 \xef\xbb\xbf4\n")  # a mark inside the file is no die face
    with pytest.raises(FedError, match="is not a die face"):
        ScriptedDice.from_file(path)


@pytest.mark.parametrize("name", list(SLOTS))
def test_a_sqlite_database_where_a_text_file_should_be_is_refused(fed_root, name):
    """The league copied over a sheet, a strategy, the settings...: not text (its header holds a NUL)."""
    slot = SLOTS[name]
    outcome = read_hostile(slot, fed_root, b"SQLite format 3\x00" + bytes(range(256)) * 4)
    assert problems_of(outcome)


# --------------------------------------------------------------------------- size caps


@pytest.mark.parametrize("name", list(SLOTS))
def test_a_file_over_its_cap_is_refused_and_one_at_it_is_read(fed_root, name):
    slot = SLOTS[name]
    original = (fed_root / slot.file).read_bytes()
    comment = b"\n#"
    at_cap = original + comment + b"x" * (slot.limit - len(original) - len(comment) - 1) + b"\n"
    assert len(at_cap) == slot.limit
    assert read_hostile(slot, fed_root, at_cap) == []  # a long comment changes nothing
    over = read_hostile(slot, fed_root, at_cap + b"\n")
    assert {p.message for p in problems_of(over)} == {f"file is {slot.limit + 1} bytes; the limit is {slot.limit}"}  # said once per match that reads it


# --------------------------------------------------------------------------- deep, in a child interpreter

DEEP_DEPTHS = {"flow-list": 50_000, "flow-map": 50_000, "block-dashes": 50_000, "explicit-keys": 200_000,
               "dash-keys": 100_000, "mixed-flow": 50_000}


def _deep_child(root: str, kind: str, depth: int) -> None:
    """In a child interpreter: every reader of a YAML file on the file nested `depth` deep
    (the whole file, and under a key of its own), one JSON line per reading."""
    fed = Path(root)
    deep = deep_text(kind, depth).encode()
    for name in YAML_SLOTS + ["strategy-matchmatch-plaintext", "dice"]:
        slot = SLOTS[name]
        original = (fed / slot.file).read_bytes()
        for data in (deep, original.rstrip(b"\n") + b"\nzz_deep: " + deep + b"\n"):
            print(json.dumps({"slot": name, "start": True}), flush=True)
            outcome = read_hostile(slot, fed, data)
            problems = outcome.problems if isinstance(outcome, FedError) else outcome
            print(json.dumps({"slot": name, "problems": [str(p) for p in problems]}), flush=True)


@pytest.mark.parametrize("kind", [
    *DEEP_DEPTHS,
])
def test_a_file_nested_a_hundred_thousand_deep_is_refused_without_a_signal(fed_root, tmp_path, kind):
    own = shutil.copytree(fed_root, tmp_path / "fed")  # a child killed mid-reading cannot put the file back
    code = f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import test_hostile_readers as t; t._deep_child(*sys.argv[1:2], sys.argv[2], int(sys.argv[3]))"
    done = subprocess.run([sys.executable, "-c", code, str(own), kind, str(DEEP_DEPTHS[kind])], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}, timeout=300)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode >= 0, f"killed by signal {-done.returncode} reading {lines[-1] if lines else '?'}"
    assert done.returncode == 0, done.stderr[-3000:]
    readings = [line for line in lines if "problems" in line]
    assert len(readings) == 2 * (len(YAML_SLOTS) + 2)
    for reading in readings:  # nested that deep, nothing stands
        assert reading["problems"], reading["slot"]


@pytest.mark.parametrize("kind", [
    "flow-list",
    "explicit-keys",
])
def test_fedtool_read_of_a_strategy_nested_a_hundred_thousand_deep_says_so(tmp_path, kind):
    root = hostile_base(tmp_path / "fed")
    strategy = root / "strategies/week-01/brother-bob.yaml"
    strategy.write_text(deep_text(kind, DEEP_DEPTHS[kind]), encoding="utf-8")
    before = snapshot(root)
    done = subprocess.run([sys.executable, "-m", "fedtool", "--fed", str(root), "read", str(strategy)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    assert "strategies/week-01/brother-bob.yaml" in done.stderr and "nested" in done.stderr
    assert snapshot(root) == before


# --------------------------------------------------------------------------- fedtool read


@pytest.mark.parametrize("name", ["strategy-matchmatch-yaml", "strategy-matchmatch-plaintext", "strategy-facemat"])
@settings(HOSTILE, max_examples=15)
@given(data=st.data())
def test_fedtool_read_answers_hostile_strategies_with_a_message(fed_root, name, data):
    slot = SLOTS[name]
    path = fed_root / slot.file
    original = path.read_bytes()
    write(path, data.draw(mutated(original, slot.limit), label="bytes"))
    try:
        before = fed_snapshot(fed_root)
        result = CliRunner().invoke(cli, ["--fed", str(fed_root), "read", str(path)])
        assert fed_snapshot(fed_root) == before
    finally:
        write(path, original)
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 1:
        assert f"{slot.file}" in result.output and "error: " in result.output


# --------------------------------------------------------------------------- mail

GOOD_ID = "<the-good-mail@players.example>"
UNCLEAR_SENDER = UNCLEAR_SENDER_TEXT.split("(")[0]  # "Not one clear sender "


def strategy_mail(body: bytes, message_id: str, subject: str = "Week 1 brother-bob") -> bytes:
    mail = EmailMessage(policy=email.policy.SMTP)
    mail["From"] = "Bob's Player <bob@players.example>"
    mail["To"] = "strategies@dcw.example"
    mail["Subject"] = subject
    mail["Message-ID"] = message_id
    mail["Date"] = "Fri, 20 Nov 2026 11:58:00 +0000"
    mail.set_content(body.decode("utf-8", "replace"))
    return bytes(mail)


def nested_mime(levels: int, message_id: str) -> bytes:
    head = f"From: bob@players.example\r\nTo: strategies@dcw.example\r\nSubject: Week 1 brother-bob\r\nMessage-ID: {message_id}\r\nMIME-Version: 1.0\r\n".encode()
    body = b"Content-Type: text/plain\r\n\r\nplus: [Brawl, Cheat]\r\n"
    for i in range(levels):
        body = f"Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n".encode() + body + f"\r\n--b{i}--\r\n".encode()
    return head + body


MAIL_KINDS = ("mutated-file", "mutated-strategy", "nested-mime", "many-parts", "huge", "bad-charset", "binary")
BASE_MAILS = sorted((ROOT / "tests/data/mails").glob("*.eml"))
BOB_STRATEGY = (ROOT / "strategies/week-01/brother-bob.yaml").read_bytes()


@st.composite
def hostile_mail(draw, message_id: str, kinds: tuple[str, ...] = MAIL_KINDS) -> bytes:
    """A mail that is broken, nested, huge, forged in its headers or carrying a broken strategy."""
    kind = draw(st.sampled_from(kinds))
    if kind == "mutated-file":  # the body mutated; the headers keep their bytes (their line ends may change)
        raw = draw(st.sampled_from(BASE_MAILS)).read_bytes()
        raw = raw.replace(b"Message-ID: <", f"Message-ID: <{message_id[1:-1]}-".encode(), 1)
        head, gap, body = raw.partition(b"\n\n") if b"\r\n\r\n" not in raw else raw.partition(b"\r\n\r\n")
        raw = head + gap + draw(mutated(body, MAIL_MAX_BYTES))
        ends = draw(st.sampled_from([None, b"\n", b"\r", b"\r\n"]))
        return raw if ends is None else raw.replace(b"\r\n", b"\n").replace(b"\n", ends)
    if kind == "mutated-strategy":
        return strategy_mail(draw(mutated(BOB_STRATEGY, MAX_YAML_BYTES)), message_id)
    if kind == "nested-mime":
        return nested_mime(draw(st.sampled_from([6, 50, 900])), message_id)  # 5,000: an explicit example
    if kind == "many-parts":
        parts = draw(st.integers(19, 60))
        body = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\npart\r\n" for _ in range(parts)) + b"--b--\r\n"
        return (b"From: bob@players.example\r\nSubject: Week 1 brother-bob\r\nMessage-ID: " + message_id.encode()
                + b"\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" + body)
    if kind == "huge":
        size = MAIL_MAX_BYTES + draw(st.sampled_from([-2000, -1, 0, 1, 5000]))
        raw = strategy_mail(BOB_STRATEGY + b"\n#", message_id)
        return raw + b"x" * max(0, size - len(raw))
    if kind == "header-crlf":
        # an encoded Subject that decodes to a line break and a Bcc:
        return (b"From: bob@players.example\r\nSubject: =?utf-8?q?Week_1_brother-bob=0D=0ABcc:_all@dcw.example?=\r\nMessage-ID: "
                + message_id.encode() + b"\r\n\r\n" + BOB_STRATEGY)
    if kind == "bad-charset":
        charset = draw(st.sampled_from(["x-unknown", "utf-7", "utf-16", "idna", "rot13", "utf-8"]))
        encoding = draw(st.sampled_from(["base64", "quoted-printable", "x-uuencode", "8bit", "nonsense"]))
        return (b"From: bob@players.example\r\nSubject: Week 1 brother-bob\r\nMessage-ID: " + message_id.encode()
                + f"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n".encode()
                + draw(st.binary(max_size=300)))
    return draw(st.binary(max_size=2000))


def check_intake(hostile: tuple[bytes | None, ...]) -> None:
    """A folder of .eml files, the hostile ones (None: a folder named .eml) then a good one:
    every mail is read and judged (never quarantined: no reader failed on it), answered once
    unless it is ignored or has no one clear sender to answer, the good one is filed, nothing
    is left half-filed, and a second intake answers nothing again."""
    work = Path(tempfile.mkdtemp(prefix="hostile-mail-"))
    try:
        root = hostile_base(work / "fed")
        box = work / "mails"
        box.mkdir()
        for index, raw in enumerate(hostile):
            if raw is None:
                (box / f"{index:02d}.eml").mkdir()
            else:
                (box / f"{index:02d}.eml").write_bytes(raw)
        (box / "99.eml").write_bytes(strategy_mail(BOB_STRATEGY, GOOD_ID))
        report = intake(load_fed(root), box)
        mails = [raw for raw in hostile if raw is not None]  # a folder named .eml is no mail
        assert len(report.outcomes) == len(mails) + 1  # every mail read, none stopped the rest
        for outcome in report.outcomes:
            assert outcome.verdict in ("accepted", "refused", "ignored", "duplicate", "held", "command"), (outcome.verdict, outcome.why)
        answered = [o for o in report.outcomes if o.verdict not in ("ignored", "duplicate") and not o.why.startswith(UNCLEAR_SENDER)]
        assert len(report.replies) == len(answered)  # every mail answered once, but to no one unclear
        assert all(path.is_file() for path in report.replies)
        good = [o for o in report.outcomes if o.message_id == GOOD_ID]
        assert [(o.verdict, o.why) for o in good] == [("accepted", "Brother Bob, week 1")]
        assert (root / "strategies/week-01/brother-bob.yaml").read_bytes() == BOB_STRATEGY
        assert not list((root / "strategies").rglob("~incoming~*"))
        again = intake(load_fed(root), box)  # nothing is answered twice
        assert again.replies == [] and {o.verdict for o in again.outcomes} == {"duplicate"}
    finally:
        shutil.rmtree(work)


@settings(HOSTILE, max_examples=int(os.environ.get("FEDTOOL_HOSTILE_EXAMPLES", "20")) // 2)  # a fed and a league each
@given(hostile=st.integers(1, 3).flatmap(lambda n: st.tuples(*[hostile_mail(f"<hostile-{i}@x>") for i in range(n)])))
@example(hostile=(nested_mime(5000, "<mime-bomb@x>"),))
@example(hostile=(b"",))
def test_intake_answers_every_hostile_mail_and_then_the_good_one(hostile):
    check_intake(hostile)


def test_intake_refuses_a_subject_that_decodes_to_a_line_break_and_reads_on():
    check_intake((b"From: bob@players.example\r\nSubject: =?utf-8?q?Week_1_brother-bob=0D=0ABcc:_all@dcw.example?=\r\n"
                  b"Message-ID: <crlf@x>\r\n\r\n" + BOB_STRATEGY,))




@pytest.mark.parametrize("header", [b"From: bob\xff@players.example", b"Message-ID: <s\xff@x>"])
def test_intake_answers_a_header_that_is_not_utf8_and_reads_on(header):
    name = header.split(b":")[0]
    fields = {b"From": b"From: bob@players.example", b"Subject": b"Subject: Week 1 brother-bob", b"Message-ID": b"Message-ID: <s@x>"}
    fields[name] = header
    check_intake((b"\r\n".join(fields.values()) + b"\r\n\r\n" + BOB_STRATEGY,))


def test_intake_passes_over_a_folder_named_eml_and_reads_on():
    check_intake((None,))


# --------------------------------------------------------------------------- regressions the property found


def _replace_in(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _refusal(read: Callable[[Path], list[Problem]], root: Path) -> list[str]:
    with pytest.raises(FedError) as caught:
        read(root)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("text", ["", "[1, 2]\n", "just words\n"])
def test_a_facemat_data_file_that_is_no_mapping_is_refused(tmp_path, text):
    """Regression: an empty track.yaml (or a list, or a word) ended in AttributeError."""
    root = hostile_base(tmp_path / "fed")
    (root / "facemat-data/track.yaml").write_text(text, encoding="utf-8")
    where = ", line 1" if text.startswith("[") else ""  # a list knows its line
    assert set(_refusal(booking_reader(4), root)) == {
        f"facemat-data/track.yaml{where}: the file is a mapping of the tables its header describes [Face to the Mat data (its file's header)]"}


def test_a_fac_type_or_an_effect_target_that_is_a_list_is_refused(tmp_path):
    """Regression: `type: []` on a card and `who: []` in an effect ended in TypeError (unhashable)."""
    root = hostile_base(tmp_path / "fed")
    _replace_in(root, "facemat-data/facs.yaml", "type: MEAN", "type: []")
    _replace_in(root, "facemat-data/highlight_reels.yaml", "who: favored", "who: [favored]")
    problems = _refusal(booking_reader(4), root)
    assert any(p.startswith("facemat-data/facs.yaml, line ") and "unknown card type []" in p for p in problems), problems
    assert any(p.startswith("facemat-data/highlight_reels.yaml, line ") and "['favored'] is not one of" in p for p in problems), problems


@pytest.mark.parametrize("sets, message", [
    ("sets: null", "`sets:` maps each set to its cards and counts (card: count)"),
    ("sets: {wave1: [beastin]}", "`sets:` maps each set to its cards and counts (card: count)"),
])
def test_a_matclash_deck_with_sets_that_are_no_mapping_is_refused(tmp_path, sets, message):
    """Regression: a deck file with `sets: null` ended in AttributeError."""
    root = hostile_base(tmp_path / "fed")
    deck = root / "rosters/house-deck.yaml"
    data = yaml.safe_load(deck.read_text(encoding="utf-8"))
    deck.write_text(yaml.safe_dump({"base": data["base"]}) + sets + "\n", encoding="utf-8")
    assert {p.split(": ", 1)[1] for p in _refusal(booking_reader(3), root)} == {f"{message} [Mat Clash deck]"}


def test_a_matclash_deck_count_of_true_is_refused(tmp_path):
    root = hostile_base(tmp_path / "fed")
    _replace_in(root, "rosters/house-deck.yaml", "mat_beast: 1", "mat_beast: true")
    assert any("count True is not a whole number from 0 to 55" in p for p in _refusal(booking_reader(3), root))


def test_a_team_member_that_is_no_wrestler_id_is_refused(tmp_path):
    """Regression: `members: [[], friendly-sam]` ended in TypeError (unhashable)."""
    root = hostile_base(tmp_path / "fed")
    _replace_in(root, "rosters/rulebook-rivals.yaml", "members: [brother-bob, friendly-sam]", "members: [[], friendly-sam]")
    assert _refusal(sheet_reader("rulebook-rivals"), root) == [
        "rosters/rulebook-rivals.yaml, line 5, field members: a team lists two to four different members (their wrestler ids) [MatchMatch I.2]"]


# --------------------------------------------------------------------------- what the file guard refuses (issue 13, "one guard")

@pytest.mark.parametrize("name", list(SLOTS))
def test_a_folder_where_a_file_should_be_is_refused(fed_root, tmp_path, name):
    slot = SLOTS[name]
    root = shutil.copytree(fed_root, tmp_path / "fed")
    path = root / slot.file
    path.unlink()
    path.mkdir()
    (path / "inside.yaml").write_text("name: x\n", encoding="utf-8")
    before = snapshot(root)
    outcome = _outcome(slot.read, root)
    assert snapshot(root) == before
    if name.startswith("data-facemat"):
        assert outcome == []
    else:
        check_named(problems_of(outcome), slot.shown(root), slot.file)


def test_scripted_dice_from_a_device_are_refused(tmp_path):
    import resource

    root = hostile_base(tmp_path / "fed")
    before = snapshot(root)

    def one_gigabyte() -> None:  # the child's memory: MemoryError well before the machine notices
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "fedtool", "--fed", str(root), "play", str(root / "strategies/example-part-vi"), "--dice", "/dev/zero"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, preexec_fn=one_gigabyte)
    assert snapshot(root) == before
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 1 and "error: /dev/zero" in done.stderr


def test_a_nul_byte_in_a_plaintext_note_is_refused(fed_root):
    slot = SLOTS["strategy-matchmatch-plaintext"]
    original = (fed_root / slot.file).read_bytes()
    assert b"spinning," in original
    outcome = read_hostile(slot, fed_root, original.replace(b"spinning,", b"spin\x00ning,"))
    assert problems_of(outcome) and all(p.file == slot.file for p in problems_of(outcome))


@pytest.mark.parametrize("rolled", ["g", "true", "[1, 2]"])
def test_an_opening_whose_match_is_no_mapping_is_refused(tmp_path, rolled):
    """Regression: `m1: g` (a truncated opening.yaml) ended in ValueError, `m1: true` in TypeError."""
    root = hostile_base(tmp_path / "fed")
    (root / "strategies/week-01/opening.yaml").write_text(f"week: 1\nmatches:\n  m1: {rolled}\n", encoding="utf-8")
    assert _refusal(card_reader(1), root) == [
        "strategies/week-01/opening.yaml, line 3, field matches.m1: match m1: expected a mapping of what was rolled (grid, referee, ...) [opening file]"]


REEL_EVENT = '2: {text: "{foe} blindsides {favored} in the parking garage, and the trainer is still taping ribs at the opening bell.", post_text: "{foe} blindsides {favored} on the way up the ramp, and the trainer is still taping ribs long after the lights go down.", mid_text: "{foe} hits the ring and blindsides {favored} behind the referee\'s back, and the ribs are already taped by the time the official turns around.", effect: {skip: {who: favored}}}'


@pytest.mark.parametrize("event, message", [
    ('2: {text: "Nothing happens.", post_text: "Nothing."}', "2d6 total 2 needs an event with text and effect (none, or one of the effects)"),
    ('2: {text: "A run-in.", post_text: "A run-in.", effect: {hotbox: {of: favored, spaces: 2}}}', "effect hotbox: side None is not ally or foe"),
    ('2: {text: "A push.", post_text: "A push.", effect: {move: {who: favored, spaces: "x"}}}', "effect move: spaces 'x' is not int"),
    ('2: {text: "{favored tumbles", post_text: "Later.", effect: none}', "text '{favored tumbles': a placeholder is a plain name in braces such as {favored} (\"expected '}' before end of string\" is not)"),
    ('2: {text: "{0} tumbles", post_text: "Later.", effect: none}', "text '{0} tumbles': a placeholder is a plain name in braces such as {favored} ('0' is not)"),
    ('2: {text: "{favored.upper} tumbles", post_text: "Later.", effect: none}', "text '{favored.upper} tumbles': a placeholder is a plain name in braces such as {favored} ('favored.upper' is not)"),
])
def test_a_reel_event_the_engine_cannot_play_is_refused_when_read(tmp_path, event, message):
    """Regression: a fed's highlight_reels.yaml passed its check and then crashed the match
    (KeyError 'effect', KeyError 'side', TypeError, ValueError from str.format)."""
    root = hostile_base(tmp_path / "fed")
    _replace_in(root, "facemat-data/highlight_reels.yaml", REEL_EVENT, event)
    problems = _refusal(booking_reader(4, play=True), root)
    assert [p.split(": ", 1)[1] for p in problems] == [f"{message} [Face to the Mat data (its file's header)]"], problems
    packaged = (ROOT / "fedtool/rulesets/facemat/data/highlight_reels.yaml").read_text(encoding="utf-8")
    first_event = next(k for k, text in enumerate(packaged.splitlines(), 1) if text.strip() == REEL_EVENT)  # reel A's events begin here
    assert problems[0].startswith(f"facemat-data/highlight_reels.yaml, line {first_event},")


@pytest.mark.parametrize("event, message", [
    ('2: {text: "A brawl.", effect: none}',
     "reel A event 2 needs post_text: its wording when the reel is rolled after the match (5.d)"),
    ('2: {text: "A brawl.", post_text: "  ", effect: none}',
     "reel A event 2 needs post_text: its wording when the reel is rolled after the match (5.d)"),
    ('2: {text: "{favored} brawls.", post_text: "{heel} brawls on.", effect: none}',
     "reel A event 2: post_text names {heel} but the event does not"),
    ('2: {text: "{favored} brawls.", post_text: "Later.", mid_text: "{face} brawls on.", effect: none}',
     "reel A event 2: mid_text names {face} but the event does not"),
    ('2: {text: "{favored} brawls.", post_text: "Later.", mid_text: [brawls], effect: none}',
     "reel A event 2: mid_text is text, its wording when the reel is drawn mid-match (7.d)"),
])
def test_a_fed_reel_without_a_post_match_wording_is_refused_when_read(tmp_path, event, message):
    """5.d: a reel the `pick` table names is rolled after the match too; a fed's own reel event
    without `post_text` (or naming a heel the event does not, whom the reroll would not look
    for) is refused when the file is read, naming the file and the event's line, never told
    with its pre-match text (docs/rulings/face-to-the-mat.md)."""
    root = hostile_base(tmp_path / "fed")
    _replace_in(root, "facemat-data/highlight_reels.yaml", REEL_EVENT, event)
    problems = _refusal(booking_reader(4, play=True), root)
    packaged = (ROOT / "fedtool/rulesets/facemat/data/highlight_reels.yaml").read_text(encoding="utf-8")
    line = next(k for k, text in enumerate(packaged.splitlines(), 1) if text.strip() == REEL_EVENT)
    assert problems == [f"facemat-data/highlight_reels.yaml, line {line}, field reels.A.events.2: {message} [Face to the Mat data (its file's header)]"]
