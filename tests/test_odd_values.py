"""Odd values (issue 13, "Odd values pass or crash", "`fedtool init` ... replaces it"): each
refused with its exact message, exit 1 (2 for click's own usage errors), no traceback,
nothing written; and the one guard every file fedtool reads goes through
(fedtool.kernel.yamlio.read_text): a folder, a device, a pipe, a NUL byte."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import snapshot
from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import parse_yaml, read_text


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused(result, stderr: str, code: int = 1) -> None:
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # a clean exit, not a crash
    assert "Traceback" not in result.output
    assert result.stderr == stderr


# --- the guard every reader goes through ----------------------------------------------------


def test_read_text_refuses_a_folder(tmp_path):
    (tmp_path / "sheet.yaml").mkdir()
    with pytest.raises(FedError) as caught:
        read_text(tmp_path / "sheet.yaml", "rosters/sheet.yaml")
    assert str(caught.value) == "rosters/sheet.yaml: is a folder, not a file"


def test_read_text_refuses_a_device_that_never_ends():
    """/dev/zero says it is 0 bytes and never stops: refused by its kind, before a byte is read."""
    with pytest.raises(FedError) as caught:
        read_text(Path("/dev/zero"), limit=10_000_000)
    assert str(caught.value) == "/dev/zero: is not a regular file (a device, a pipe or a socket): fedtool reads only files"


def test_read_text_refuses_a_pipe_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "dice.txt")  # opened for reading, a pipe with no writer would block forever
    with pytest.raises(FedError) as caught:
        read_text(tmp_path / "dice.txt", "dice.txt")
    assert str(caught.value) == "dice.txt: is not a regular file (a device, a pipe or a socket): fedtool reads only files"


def test_read_text_refuses_a_nul_byte_naming_its_line(tmp_path):
    path = tmp_path / "note.txt"
    path.write_bytes(b"Strategy: +Power +Brawling -Technical, Grid A\n\nRound\tTarget\tType\tNotes\n1\tStamina\tNormal\tA slap\x00 to the chest\n")
    with pytest.raises(FedError) as caught:
        read_text(path, "note.txt")
    assert str(caught.value) == "note.txt, line 4: a NUL byte (\\0): not text"


def test_read_text_names_the_line_of_a_byte_that_is_not_utf8(tmp_path):
    path = tmp_path / "sheet.yaml"
    path.write_bytes(b"name: Bob\nbio: caf\xe9\n")  # Latin-1, not UTF-8
    with pytest.raises(FedError) as caught:
        read_text(path, "sheet.yaml")
    assert str(caught.value) == "sheet.yaml, line 2, byte 18: not valid UTF-8 text"


def test_read_text_reads_line_breaks_as_a_text_file_does(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"one\r\ntwo\rthree\n")
    assert read_text(path) == "one\ntwo\nthree\n"


def test_read_text_counts_what_it_reads_against_the_limit(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FedError) as caught:
        read_text(path, "big.yaml", limit=100)
    assert str(caught.value) == "big.yaml: file is 101 bytes; the limit is 100"
    assert read_text(path, "big.yaml", limit=101) == "x" * 101


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_read_text_gives_text_or_a_clear_refusal_for_any_bytes(tmp_path_factory, data):
    """200 byte strings: the text they decode to (no NUL in it), or a FedError; nothing else."""
    path = tmp_path_factory.mktemp("bytes") / "f.txt"
    path.write_bytes(data)
    try:
        text = read_text(path, "f.txt")
    except FedError as exc:
        assert str(exc).startswith("f.txt, line ")
        assert str(exc).endswith(("not valid UTF-8 text", "a NUL byte (\\0): not text"))
    else:
        assert text == data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n") and "\x00" not in text


# --- a folder where a file should be -----------------------------------------------------------


@pytest.mark.parametrize("where, stderr", [
    ("rosters/brother-bob.yaml", "error: rosters/brother-bob.yaml: is a folder, not a file\n"),
    ("strategies/week-01/brother-bob.yaml", "error: strategies/week-01/brother-bob.yaml: is a folder, not a file\n"),
    ("strategies/week-01/card.yaml", "error: strategies/week-01/card.yaml: is a folder, not a file\n"),
    ("strategies/week-01/opening.yaml", "error: strategies/week-01/opening.yaml: is a folder, not a file\n"),
])
def test_a_folder_where_a_sheet_strategy_or_card_should_be(demo_fed, fedtool, where, stderr):
    (demo_fed / where).unlink()
    (demo_fed / where).mkdir()
    before = snapshot(demo_fed)
    refused(fedtool("run", "1", "--fed", demo_fed), stderr)
    assert snapshot(demo_fed) == before


def test_a_folder_where_the_settings_should_be(demo_fed, fedtool):
    (demo_fed / "rosters/fed.yaml").unlink()
    (demo_fed / "rosters/fed.yaml").mkdir()
    refused(fedtool("standings", "--fed", demo_fed), "error: rosters/fed.yaml: is a folder, not a file\n")


# --- dice and seeds ------------------------------------------------------------------------------


def test_dice_from_dev_zero_are_refused(demo_fed, fedtool):
    """Was a MemoryError: /dev/zero read whole."""
    before = snapshot(demo_fed)
    refused(fedtool("run", "1", "--dice", "/dev/zero", "--fed", demo_fed),
            "error: /dev/zero: is not a regular file (a device, a pipe or a socket): fedtool reads only files\n")
    assert snapshot(demo_fed) == before


def test_odds_seed_of_hundreds_of_digits_is_refused(demo_fed, fedtool):
    """Was an OverflowError from the dice (a seed is 16 bytes)."""
    huge = "9" * 300
    result = fedtool("odds", "--match", "2/m1", "-n", "10", "--seed", huge, "--fed", demo_fed)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)  # click's usage error
    assert result.stderr.splitlines()[-1] == f"Error: Invalid value for '--seed': {huge} is not in the range 0<=x<=18446744073709551615."


def test_odds_refuses_a_seed_out_of_range_in_the_library_too(demo_fed):
    from fedtool.league.sheets import load_fed
    from fedtool.week.odds import MAX_SEED, match_booking, simulate

    booking = match_booking(load_fed(demo_fed), 2, "m1")
    assert simulate(booking, 3, MAX_SEED, 1).seed == MAX_SEED  # the top seed plays
    with pytest.raises(FedError) as caught:
        simulate(booking, 3, 10**300, 1)
    assert str(caught.value) == ("--seed: 100000000000000000000000000000... is not a seed: give a whole number from 0 to "
                                 "18446744073709551615 (2^64 - 1) [fedtool odds]")
    with pytest.raises(FedError) as caught:
        simulate(booking, 3, -1, 1)
    assert str(caught.value) == "--seed: -1 is not a seed: give a whole number from 0 to 18446744073709551615 (2^64 - 1) [fedtool odds]"


def test_odds_match_week_in_other_digits_is_a_usage_error(demo_fed, fedtool):
    """'²'.isdigit() is true and int('²') fails: only ASCII digits are a week."""
    result = fedtool("odds", "--match", "²/m1", "--fed", demo_fed)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.stderr.splitlines()[-1] == "Error: Invalid value for --match: write WEEK/MATCH, e.g. 1/m1"


# --- dates --------------------------------------------------------------------------------------


@pytest.mark.parametrize("written, message", [
    ("2026-02-30 18:00", "error: strategies/week-01/card.yaml, line {line}, field deadline: '2026-02-30 18:00' is not a date and time "
                         "that exists (day is out of range for month); write it as 2026-11-27 18:00 [card file]\n"),
    # a full timestamp is read by YAML itself: refused where it is written
    ("2026-02-30T18:00:00Z", "error: strategies/week-01/card.yaml, line {line}, column 11: broken YAML: '2026-02-30T18:00:00Z' is not a date "
                             "that exists (day is out of range for month) [YAML syntax]\n"),
    ("2026-02-28 25:00", "error: strategies/week-01/card.yaml, line {line}, field deadline: '2026-02-28 25:00' is not a date and time "
                         "that exists (hour must be in 0..23); write it as 2026-11-27 18:00 [card file]\n"),
    ("'9999-12-31 23:59'", "error: strategies/week-01/card.yaml, line {line}, field deadline: a deadline in the year 9999: "
                           "give one between 2000 and 2999 [card file]\n"),
])
def test_a_deadline_that_does_not_exist_is_refused(demo_fed, fedtool, written, message):
    card = demo_fed / "strategies/week-01/card.yaml"
    lines = card.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("week:"))
    lines.insert(at, f"deadline: {written}\n")
    card.write_text("".join(lines), encoding="utf-8")
    before = snapshot(demo_fed)
    refused(fedtool("run", "1", "--fed", demo_fed), message.format(line=at + 1))
    assert snapshot(demo_fed) == before


def test_a_real_deadline_still_reads(demo_fed):
    from fedtool.fed.card import load_card
    from fedtool.league.sheets import load_fed

    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text("deadline: 2028-02-29 18:00\n" + card.read_text(encoding="utf-8"), encoding="utf-8")
    fed = load_fed(demo_fed)
    assert load_card(fed, fed.week_dir(1), 1).deadline == datetime.datetime(2028, 2, 29, 18, 0, tzinfo=datetime.timezone.utc)


def test_yaml_dates_that_do_not_exist_name_their_line():
    with pytest.raises(FedError) as caught:
        parse_yaml("name: x\nborn: 2025-02-29\n", "sheet.yaml")
    assert str(caught.value) == "sheet.yaml, line 2, column 7: broken YAML: '2025-02-29' is not a date that exists (day is out of range for month) [YAML syntax]"


# --- wrestlers naming wrestlers --------------------------------------------------------------------


def test_a_wrestler_who_is_his_own_ally_is_refused(demo_fed, fedtool):
    replace_in(demo_fed / "rosters/the-warden.yaml", "allies: [victor-vane]", "allies: [the-warden]")
    refused(fedtool("run", "4", "--fed", demo_fed),
            "error: rosters/the-warden.yaml, line 10, field allies.0: 'the-warden' is this wrestler himself: allies are other wrestlers [Face to the Mat 4.b]\n")


def test_a_wrestler_who_is_his_own_foe_or_both_ally_and_foe_is_refused(demo_fed, fedtool):
    replace_in(demo_fed / "rosters/the-warden.yaml", "foes: [kate-galloway]", "foes: [the-warden, victor-vane]")
    refused(fedtool("run", "4", "--fed", demo_fed),
            "error: rosters/the-warden.yaml, line 11, field foes.0: 'the-warden' is this wrestler himself: foes are other wrestlers [Face to the Mat 4.b]\n"
            "error: rosters/the-warden.yaml, line 11, field foes.1: 'victor-vane' is both an ally and a foe [Face to the Mat 4.b]\n")


def test_an_ally_with_no_sheet_is_refused(demo_fed, fedtool):
    replace_in(demo_fed / "rosters/the-warden.yaml", "allies: [victor-vane]", "allies: [nobody-here]")
    before = snapshot(demo_fed)
    refused(fedtool("run", "4", "--fed", demo_fed),
            "error: rosters/the-warden.yaml, field allies: 'nobody-here' has no sheet: there is no rosters/nobody-here.yaml [Face to the Mat 4.b]\n")
    assert snapshot(demo_fed) == before


def test_a_matchmatch_strategy_naming_another_wrestler_is_refused(demo_fed, fedtool):
    strategy = demo_fed / "strategies/week-01/brother-bob.yaml"
    lines = strategy.read_text(encoding="utf-8").count("\n")
    strategy.write_text(strategy.read_text(encoding="utf-8") + "wrestler: Friendly Sam\n", encoding="utf-8")
    refused(fedtool("run", "1", "--fed", demo_fed),
            f"error: strategies/week-01/brother-bob.yaml, line {lines + 1}, field wrestler: this strategy names 'Friendly Sam', but it is "
            "Brother Bob's (brother-bob): a strategy is for the wrestler whose file it is [MatchMatch III]\n")


@pytest.mark.parametrize("named", ["brother-bob", "Brother Bob", "BROTHER BOB"])
def test_a_matchmatch_strategy_naming_its_own_wrestler_stands(demo_fed, fedtool, named):
    strategy = demo_fed / "strategies/week-01/brother-bob.yaml"
    strategy.write_text(strategy.read_text(encoding="utf-8") + f"wrestler: {named}\n", encoding="utf-8")
    result = fedtool("read", strategy, "--fed", demo_fed)
    assert result.exit_code == 0 and result.stdout.endswith("stands for match m1: brother-bob vs. friendly-sam\n"), result.output


def test_a_mat_clash_strategy_naming_another_wrestler_is_refused(demo_fed, fedtool):
    strategy = demo_fed / "strategies/week-03/gus-halvorsen.yaml"
    lines = strategy.read_text(encoding="utf-8").count("\n")
    strategy.write_text(strategy.read_text(encoding="utf-8") + "wrestler: tommy-reyes\n", encoding="utf-8")
    refused(fedtool("run", "3", "--fed", demo_fed),
            f"error: strategies/week-03/gus-halvorsen.yaml, line {lines + 1}, field wrestler: this strategy names 'tommy-reyes', but it is "
            "Gus Halvorsen's (gus-halvorsen): a strategy is for the wrestler whose file it is [Mat Clash strategy]\n")


def test_a_face_to_the_mat_strategy_challenging_its_own_wrestler_is_refused(demo_fed, fedtool):
    """In Face to the Mat a strategy names another wrestler in one place, `challenge:` (9.a)."""
    replace_in(demo_fed / "strategies/week-04/the-warden.yaml", "challenge: lucha-rosa", "challenge: the-warden")
    refused(fedtool("run", "4", "--fed", demo_fed),
            "error: strategies/week-04/the-warden.yaml, line 3, field challenge: a wrestler cannot challenge himself [Face to the Mat 9.a]\n")


# --- numbers -----------------------------------------------------------------------------------


def test_a_push_level_above_the_feds_top_level_is_refused(demo_fed, fedtool):
    replace_in(demo_fed / "rosters/brother-bob.yaml", "push: {level: 2, points: 0}", "push: {level: 6, points: 0}")
    before = snapshot(demo_fed)
    refused(fedtool("run", "1", "--fed", demo_fed),
            "error: rosters/brother-bob.yaml, field push.level: push level 6 is above the fed's top level, 5 (rulesets: matchmatch: push_levels) [MatchMatch II]\n")
    assert snapshot(demo_fed) == before


def test_a_negative_hold_is_refused(demo_fed, fedtool):
    strategy = demo_fed / "strategies/week-03/ada-okafor.yaml"
    lines = strategy.read_text(encoding="utf-8").count("\n")
    strategy.write_text(strategy.read_text(encoding="utf-8") + "hold: {defense: -3}\n", encoding="utf-8")
    refused(fedtool("run", "3", "--fed", demo_fed),
            f"error: strategies/week-03/ada-okafor.yaml, line {lines + 1}, field hold.defense: -3 is too small: give 0 or more [Mat Clash strategy]\n")


def test_a_nul_byte_in_a_plain_text_strategys_note_is_refused(demo_fed, fedtool):
    strategy = demo_fed / "strategies/week-02/silent-crane.txt"
    text = strategy.read_text(encoding="utf-8")
    line = text[: text.index("Low kicks")].count("\n") + 1
    strategy.write_text(text.replace("Low kicks", "Low\x00kicks", 1), encoding="utf-8")
    refused(fedtool("read", strategy, "--fed", demo_fed), f"error: strategies/week-02/silent-crane.txt, line {line}: a NUL byte (\\0): not text\n")


def test_a_card_week_out_of_range_is_refused(demo_fed, fedtool):
    replace_in(demo_fed / "strategies/week-01/card.yaml", "week: 1", "week: 100000")
    text = (demo_fed / "strategies/week-01/card.yaml").read_text(encoding="utf-8")
    line = text[: text.index("week: 100000")].count("\n") + 1
    refused(fedtool("run", "1", "--fed", demo_fed),
            f"error: strategies/week-01/card.yaml, line {line}, field week: Input should be less than or equal to 9999 [card file]\n")


def test_every_numeric_option_of_the_command_line_is_bounded():
    """Each option or argument that takes a number takes it through click.IntRange."""
    import click

    from fedtool.cli import cli

    def commands(group):
        for command in group.commands.values():
            yield from commands(command) if isinstance(command, click.Group) else [command]

    unbounded = [f"{c.name} {p.name}" for c in commands(cli) for p in c.params
                 if isinstance(p.type, (click.types.IntParamType, click.types.FloatParamType)) and not isinstance(p.type, (click.IntRange, click.FloatRange))]
    assert unbounded == []


# --- fedtool init --------------------------------------------------------------------------------


def test_init_merges_an_existing_gitignore_and_overwrites_nothing(tmp_path, fedtool):
    folder = tmp_path / "dcw"
    folder.mkdir()
    (folder / ".gitignore").write_text("*.pyc\n/outbox/*\nnotes/", encoding="utf-8")  # no newline at the end
    (folder / "README.md").write_text("# Our fed\n", encoding="utf-8")
    (folder / "templates").mkdir()
    (folder / "templates/card.md.j2").write_text("our card\n", encoding="utf-8")
    result = fedtool("init", folder, "--name", "Delta Championship Wrestling")
    assert result.exit_code == 0, result.output
    assert (folder / ".gitignore").read_text(encoding="utf-8") == (
        "*.pyc\n/outbox/*\nnotes/\n# fedtool\n!/outbox/.gitkeep\n/*.db\n/*.db-wal\n/*.db-shm\n/*.db-journal\n/.fedtool.lock\n")
    assert (folder / "README.md").read_text(encoding="utf-8") == "# Our fed\n"
    assert (folder / "templates/card.md.j2").read_text(encoding="utf-8") == "our card\n"
    assert (folder / "rosters/fed.yaml").read_text(encoding="utf-8").count("name: Delta Championship Wrestling\n") == 1
    # a second init changes nothing and says why
    before = snapshot(folder)
    refused(fedtool("init", folder), f"error: {folder}/rosters/fed.yaml: a fed already exists here; fedtool init never overwrites one [fedtool init]\n")
    assert snapshot(folder) == before


def test_init_leaves_a_gitignore_that_has_every_line_as_it_is(tmp_path, fedtool):
    folder = tmp_path / "dcw"
    folder.mkdir()
    mine = "# mine\n/outbox/*\n!/outbox/.gitkeep\n/*.db\n/*.db-wal\n/*.db-shm\n/*.db-journal\n/.fedtool.lock\n"
    (folder / ".gitignore").write_text(mine, encoding="utf-8")
    assert fedtool("init", folder).exit_code == 0
    assert (folder / ".gitignore").read_text(encoding="utf-8") == mine


def test_init_writes_its_gitignore_into_a_new_folder(tmp_path, fedtool):
    assert fedtool("init", tmp_path / "new").exit_code == 0
    assert (tmp_path / "new/.gitignore").read_text(encoding="utf-8") == (
        "/outbox/*\n!/outbox/.gitkeep\n/*.db\n/*.db-wal\n/*.db-shm\n/*.db-journal\n/.fedtool.lock\n")


@pytest.mark.parametrize("make, stderr", [
    (lambda f: (f / "rosters").write_text("x"), "error: {f}/rosters: is a file where the fed's folder goes: move it away first [fedtool init]\n"),
    (lambda f: (f / ".gitignore").mkdir(), "error: {f}/.gitignore: is a folder, not a file\n"),
])
def test_init_refuses_before_writing_anything(tmp_path, fedtool, make, stderr):
    folder = tmp_path / "dcw"
    folder.mkdir()
    make(folder)
    before = snapshot(folder)
    refused(fedtool("init", folder), stderr.format(f=folder))
    assert snapshot(folder) == before


def test_init_refuses_a_name_of_two_lines(tmp_path, fedtool):
    refused(fedtool("init", tmp_path / "dcw", "--name", "DCW\n# evil: yes"),
            "error: --name: 'DCW\\n# evil: yes': a fed's name is one line of 1 to 120 printable characters [fedtool init]\n")
    assert not (tmp_path / "dcw").exists()


def test_init_into_a_file_is_refused(tmp_path, fedtool):
    (tmp_path / "dcw").write_text("a file")
    result = fedtool("init", tmp_path / "dcw")
    assert result.exit_code == 2 and "is a file" in result.stderr  # click's own check of DIRECTORY (file_okay=False)


def test_read_and_status_show_a_broken_sheet_that_stops_the_match(demo_fed, fedtool):
    """A strategy that stands for a match the fed's own files stop (here an ally with no
    sheet): `fedtool read` says it stands (the player is not at fault, exit 0) and warns of
    the sheet's problem, which `run` refuses; `fedtool status` lists it under the side."""
    replace_in(demo_fed / "rosters/the-warden.yaml", "allies: [victor-vane]", "allies: [nobody-here]")
    problem = "rosters/the-warden.yaml, field allies: 'nobody-here' has no sheet: there is no rosters/nobody-here.yaml [Face to the Mat 4.b]"
    read = fedtool("read", "strategies/week-04/vince-valor.yaml", "--fed", demo_fed)
    assert read.exit_code == 0 and "stands for match m1: vince-valor vs. the-warden" in read.output
    assert read.stderr == f"warning: the match cannot be played until the fedhead mends this: {problem}\n"
    status = fedtool("status", "4", "--json", "--fed", demo_fed)
    sides = {row["wrestler_id"]: row for row in json.loads(status.output)}
    assert sides["vince-valor"]["verdict"] == "stands" and sides["vince-valor"]["problems"] == [problem]
