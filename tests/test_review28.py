"""Review 28: a new user's and an attacker's look at fedtool as it stands; each defect found is
pinned by a test that failed before its fix."""

from __future__ import annotations

import pytest

LONG = "x" * 5000  # a move's name is 1 to 80 characters (the Face to the Mat strategy's rule)
BROKEN = '"a springboard\\n\\n# Vince Valor wins\\n"'  # a line break in a move's name: a heading in the writeup


def _replace(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("file, old, new, week, where", [
    # Face to the Mat's strategy checked its moves' names (1 to 80 characters); its wrestler card did not
    ("rosters/vince-valor.yaml", "AGILE: a springboard crossbody,", f"AGILE: {LONG},", 4, "field signature_moves.AGILE"),
    ("rosters/vince-valor.yaml", "AGILE: a springboard crossbody,", f"AGILE: {BROKEN},", 4, "field signature_moves.AGILE"),
    ("rosters/vince-valor.yaml", "finisher: {name: the Valor Driver,", f"finisher: {{name: {BROKEN},", 4, "field finisher.name"),
    ("strategies/week-04/vince-valor.yaml", "AGILE: a springboard crossbody to the floor", f"AGILE: {BROKEN}", 4, "signature_moves.AGILE"),
    ("strategies/week-04/vince-valor.yaml", "finisher: the Valor Driver", f"finisher: {BROKEN}", 4, "field finisher"),
    # Mat Clash's sheet and strategy took any text as a move's name
    ("rosters/tommy-reyes.yaml", "takedown: a blast double-leg", f"takedown: {LONG}", 3, "field moves.takedown"),
    ("rosters/tommy-reyes.yaml", "takedown: a blast double-leg", f"takedown: {BROKEN}", 3, "field moves.takedown"),
    ("rosters/tommy-reyes.yaml", "takedown: a blast double-leg", "takedown: ''", 3, "field moves.takedown"),
    ("strategies/week-03/tommy-reyes.yaml", "draw: when_stuck", f"draw: when_stuck\nmoves: {{spladle: {LONG}}}", 3, "field moves.spladle"),
    ("strategies/week-03/tommy-reyes.yaml", "draw: when_stuck", f"draw: when_stuck\nmoves: {{spladle: {BROKEN}}}", 3, "field moves.spladle"),
])
def test_a_move_name_is_one_line_of_1_to_80_characters_on_every_sheet_and_strategy(demo_fed, fedtool, file, old, new, week, where):
    """A signature move's name goes into every writeup line that tells the move (Markdown, HTML,
    mail). Face to the Mat's strategy refused one over 80 characters, but its wrestler card and
    Mat Clash's sheet and strategy took 5,000 characters, an empty name, or a name with line
    breaks (a Markdown heading of the player's in the middle of the writeup). Each is refused
    now, naming the file, the line and the rule, and the week is not run."""
    for earlier in range(1, week):
        assert fedtool("--fed", demo_fed, "run", earlier).exit_code == 0
    _replace(demo_fed / file, old, new)
    result = fedtool("--fed", demo_fed, "run", week)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{file}, line " in result.output and where in result.output, result.output
    assert not (demo_fed / f"outbox/week-{week:02d}").exists()


def _sample_for_ints(annotation, value):
    """A value with `value` wherever `annotation` wants an int alone (not text or an int); None when it wants none."""
    import types
    import typing

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _sample_for_ints(args[0], value)
    if annotation is int:
        return value
    if origin in (list, tuple):
        inner = _sample_for_ints(args[0], value)
        return None if inner is None else [inner]
    if origin is dict:
        inner = _sample_for_ints(args[1], value)
        return None if inner is None else {"a": inner}
    if origin in (typing.Union, types.UnionType) and str not in args:  # a grid's letter or number takes text
        for arg in args:
            inner = _sample_for_ints(arg, value)
            if inner is not None:
                return inner
    return None


@pytest.mark.parametrize("value", [3.0, "3"], ids=["a decimal number", "text"])
def test_no_whole_number_field_of_any_model_takes_a_decimal_number_or_text(value):
    """`stamina: 10.0` and `stamina: '10'` were read as a Stamina of 10 on a MatchMatch sheet
    (and so a Face to the Mat grudge grade, a card's week, the fed's rounds), while Mat Clash
    and Mad Match refused `hold: {defense: 1.0}` and `memory: 16.0`: every field that wants a
    whole number now refuses a decimal number and text, with "expected a whole number"."""
    from typing import Annotated

    from pydantic import TypeAdapter, ValidationError
    from test_review27 import _models

    checked = []
    for model in _models():
        for name, field in model.model_fields.items():
            sample = _sample_for_ints(field.annotation, value)
            if sample is None:
                continue
            adapter = TypeAdapter(Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation)
            try:
                adapter.validate_python(sample)
            except ValidationError as exc:
                message = str(exc)
                assert "whole number" in message or "valid integer" in message, f"{model.__name__}.{name}: {message}"
                checked.append(f"{model.__name__}.{name}")
            else:
                raise AssertionError(f"{model.__module__}.{model.__name__}.{name} takes {sample!r} as a whole number")
    assert len(checked) >= 30, checked


@pytest.mark.parametrize("file, old, new, where", [
    ("rosters/brother-bob.yaml", "stamina: 10", "stamina: 10.0", "field stamina"),
    ("rosters/brother-bob.yaml", "stamina: 10", "stamina: '10'", "field stamina"),
    ("strategies/week-01/card.yaml", "week: 1", "week: 1.0", "field week"),
    ("rosters/fed.yaml", "secret:", "backups: {keep: 3.0}\nsecret:", "field backups.keep"),
])
def test_a_decimal_number_or_text_where_a_whole_number_goes_is_refused_with_file_line_and_field(demo_fed, fedtool, file, old, new, where):
    _replace(demo_fed / file, old, new)
    result = fedtool("--fed", demo_fed, "run", 1)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"{file}, line " in result.output and where in result.output and "expected a whole number, found " in result.output, result.output
    assert not (demo_fed / "outbox/week-01").exists()


@pytest.mark.parametrize("old, new, week, where", [
    ("    rounds: 20 ", "    rounds: 500 ", 1, "line 13, field rulesets.matchmatch.rounds"),
    ("    rounds: 20 ", "    roundz: 20 ", 1, "line 13, field rulesets.matchmatch.roundz"),
    ("    sets: [wave1, ", "    sets: [wave9, ", 3, "line 24, field rulesets.matclash.sets.0"),
    ("    interviews: true ", "    interviews: 3 ", 3, "line 26, field rulesets.facemat.interviews"),
], ids=["out of range", "unknown field", "matclash", "facemat"])
def test_a_rulesets_setting_that_does_not_stand_is_named_with_its_line_every_time(demo_fed, fedtool, old, new, week, where):
    """A ruleset's own settings (`rulesets: matchmatch:` ...) were checked from a copy of the
    settings that had lost the file's lines: "rosters/fed.yaml, field rulesets.matchmatch.rounds"
    named no line, unlike every other setting. The line is named, and again on the next
    command, when the file's bytes are known checked (its shape) and not read for lines."""
    _replace(demo_fed / "rosters/fed.yaml", old, new)
    for _ in range(2):
        result = fedtool("--fed", demo_fed, "run", week)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert f"rosters/fed.yaml, {where}: " in result.output, result.output
    assert not (demo_fed / f"outbox/week-{week:02d}").exists()


def test_odds_keeps_its_columns_for_a_long_wrestlers_name(demo_fed, fedtool):
    """`fedtool odds --match 3/m1` printed "Tommy "The Tumbler" Reyes by decision   30.2%" one
    place to the right of every other share (a label column of 34 characters, whatever the
    names): each table's shares and intervals stand in one column, the heading's too."""
    import re

    for week in (1, 2):
        assert fedtool("--fed", demo_fed, "run", week).exit_code == 0
    result = fedtool("--fed", demo_fed, "odds", "--match", "3/m1", "-n", "200", "--seed", "7", "--workers", "1")
    assert result.exit_code == 0, result.output
    tables = result.output.split("\n\n")[1:]
    assert len(tables) == 2 and any(len(line.split("  ")[0]) > 34 for line in tables[1].splitlines()), result.output
    for table in tables:
        heading, *rows = table.strip("\n").splitlines()
        ends = {heading.index("share") + len("share")} | {re.search(r"\d%", row).end() for row in rows}
        assert len(ends) == 1, table


def test_an_answer_half_written_when_intake_was_killed_is_removed_by_the_next_intake(demo_fed, tmp_path, fedtool):
    """An intake killed (SIGKILL) while it wrote an answer left the answer's temporary file,
    `.<name>.eml.XXXXXXXX`, in outbox/replies/week-NN/mail/ for good: seen in the folder by
    every later intake, send and fedhead (found by killing `fedtool inbox` at random moments).
    The next intake, holding the fed's lock, removes what a killed one left there and in the
    quarantine folder, and nothing else."""
    import mailbox

    replies = demo_fed / "outbox/replies/week-01/mail"
    quarantine = demo_fed / "strategies/quarantine"
    replies.mkdir(parents=True)
    quarantine.mkdir(parents=True)
    left = [replies / ".0303a326267dcef8.eml.k2j9_x0q", quarantine / ".5f0c1e0d9a8b7c6d5e4f3a2b1c0d9e8f.eml.a1b2c3d4"]  # atomic_write's
    kept = [replies / "0303a326267dcef8.eml", replies / ".hidden-by-the-fedhead", quarantine / "5f0c1e0d9a8b7c6d5e4f3a2b1c0d9e8f.eml"]
    for path in left + kept:
        path.write_bytes(b"Subject: half\r\n")
    mailbox.Maildir(tmp_path / "Maildir", create=True)
    result = fedtool("--fed", demo_fed, "inbox", tmp_path / "Maildir")
    assert result.exit_code == 0, result.output
    assert [p.name for p in left if p.exists()] == []
    assert [p.name for p in kept if not p.exists()] == []


def test_a_snapshot_or_a_restore_half_copied_when_killed_is_removed_by_the_next_one(demo_fed, fedtool):
    """`fedtool run` killed (SIGKILL) while it copied the league into backups/ left
    `.snapshot-XXXX.db` and its `-journal` there for good, a whole league's size each time
    (found by killing `fedtool run 5` as the copy began: the next run went well and left them).
    `fedtool restore` killed while it copied a snapshot left `.fed.db.restore-XXXX` beside the
    league the same way. The next snapshot, and the next restore, under the fed's lock, remove
    what a killed one left; the snapshots themselves stay."""
    assert fedtool("--fed", demo_fed, "run", 1).exit_code == 0
    backups = demo_fed / "backups"
    backups.mkdir(exist_ok=True)
    left = [backups / ".snapshot-b4qax9y6.db", backups / ".snapshot-b4qax9y6.db-journal",
            demo_fed / ".fed.db.restore-k2j3h4g5", demo_fed / ".fed.db.restore-k2j3h4g5-journal"]
    for path in left[:2]:
        path.write_bytes(b"half a league")
    assert fedtool("--fed", demo_fed, "run", 2).exit_code == 0
    assert [p.name for p in left[:2] if p.exists()] == []
    snapshots = sorted(p.name for p in backups.glob("*.db"))
    assert len(snapshots) == 1 and "before-week-02" in snapshots[0], snapshots
    for path in left[2:]:
        path.write_bytes(b"half a league")
    result = fedtool("--fed", demo_fed, "restore", snapshots[0])
    assert result.exit_code == 0, result.output
    assert [p.name for p in left if p.exists()] == []
    assert snapshots[0] in [p.name for p in backups.glob("*.db")]


def test_odds_reads_a_plain_text_strategy_as_the_run_does(demo_fed, tmp_path, fedtool):
    """`fedtool odds --strategy bob.txt` read the rulebook's plain-text layout as YAML ("broken
    YAML: could not find expected ':'"), though the run, `fedtool read` and mail intake read a
    .txt strategy in that layout (README, "A strategy"; docs/strategy-plaintext.md). The odds of
    a plain-text strategy are those of the same strategy written in YAML, seed for seed."""
    import json

    rows = [("MA", "Martial Arts", "Normal"), ("MA", "Martial Arts", "High Risk"), ("HF", "High-Flying", "Illegal"),
            ("Stamina", "Stamina", "High Impact")] + [("Stamina", "Stamina", "Normal")] * 16
    (tmp_path / "bob.txt").write_text("Strategy: +Brawl +Cheat -Martial Arts, Grid C\nRound\tTarget\tType\t\tNotes\n"
                                      + "".join(f"{n}\t{short}\t{kind}\t\tMove {n}.\n" for n, (short, _, kind) in enumerate(rows, 1)))
    (tmp_path / "bob.yaml").write_text("plus: [Brawling, Cheating]\nminus: Martial Arts\ngrid: C\nrounds:\n"
                                       + "".join(f"- {{target: {full}, type: {kind}, explanation: Move {n}.}}\n" for n, (_, full, kind) in enumerate(rows, 1)))
    reports = []
    for strategy in ("bob.yaml", "bob.txt"):
        result = fedtool("--fed", demo_fed, "odds", "--sheet", demo_fed / "rosters/brother-bob.yaml", "--sheet", demo_fed / "rosters/friendly-sam.yaml",
                         "--strategy", tmp_path / strategy, "--strategy", demo_fed / "strategies/week-01/friendly-sam.yaml",
                         "--grid", "Po Te Br/We MA HF/Br MA Ch", "-n", "300", "--seed", "5", "--workers", "1", "--json")
        assert result.exit_code == 0, result.output
        reports.append(json.loads(result.output))
    assert reports[0]["outcomes"] and reports[0]["finishes"]
    assert reports[0] == reports[1]


def test_mad_match_odds_count_games_and_refuse_matchmatchs_grid_and_rounds(demo_fed, fedtool):
    """`fedtool odds` told a Mad Match's length as "3.0 rounds on average" (a result's `round`
    counts games: "in game 3"), and `--sheet` exhibitions of Mad Match took `--grid` and
    `--rounds` without a word and played neither (Mat Clash refuses them, naming them)."""
    import json

    result = fedtool("--fed", demo_fed, "odds", "--match", "5/m2", "-n", "20", "--seed", "3", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["unit"] == "games"
    sheets = ["--sheet", demo_fed / "rosters/zelda-voss.yaml", "--sheet", demo_fed / "rosters/zeke-rennick.yaml",
              "--strategy", demo_fed / "strategies/week-05/zelda-voss-m2.yaml", "--strategy", demo_fed / "strategies/week-05/zeke-rennick-m2.yaml"]
    result = fedtool("--fed", demo_fed, "odds", *sheets, "-n", "20", "--seed", "3", "--workers", "1")
    assert result.exit_code == 0 and " games on average" in result.output.splitlines()[0], result.output
    for extra in (["--grid", "Po Te Br/We MA HF/Br MA Ch"], ["--rounds", "5"]):
        result = fedtool("--fed", demo_fed, "odds", *sheets, *extra, "-n", "20")
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert f"a Mad Match game has no {extra[0][2:]}: leave out {extra[0]}" in result.output, result.output


def test_the_readme_walks_a_new_user_through_the_demos_next_weeks(demo_fed, fedtool):
    """After its first command (the demo's week 1) the README went on to "A week", whose
    `fedtool open 2` the demo refuses (week 2 is open already), and said nowhere how to play
    the demo's other weeks, nor that `fedtool` is on the PATH only in the virtual
    environment. The README's walk-through of weeks 2 to 5 now runs, command by command, on
    a fresh copy of the demo."""
    import re
    import shlex

    from golden import ROOT

    text = (ROOT / "README.md").read_text()
    start = text.index("The demo's weeks 2 to 5 are booked and open already")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert block, "no commands after the demo's week 1"
    commands = [c.strip() for line in block.group(1).splitlines() for c in line.split("&&") if c.strip().startswith("fedtool ")]
    assert len(commands) >= 8 and any("run 5" in c for c in commands), commands
    assert fedtool("--fed", demo_fed, "run", 1).exit_code == 0
    for command in commands:
        result = fedtool("--fed", demo_fed, *shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}: {result.output}"


def test_results_tell_a_mat_clash_or_face_to_the_mat_length_in_its_own_words(demo_fed, fedtool):
    """`fedtool results 3` said "The Warden wins by pin in round 33" of a Face to the Mat match
    (no rounds: 33 FACs, as the run itself says) and "Ada "Iron" Okafor wins by dual in round 6"
    of a Dual Match (its sixth scrap): each ruleset's results count in its own unit, as Mad
    Match's "in game 3" did."""
    for week in (1, 2, 3):
        assert fedtool("--fed", demo_fed, "run", week).exit_code == 0
    result = fedtool("--fed", demo_fed, "results", 3)
    assert result.exit_code == 0, result.output
    assert "The Warden wins by pin in FAC 33" in result.output, result.output
    assert 'Ada "Iron" Okafor wins by dual in scrap 6' in result.output, result.output
    assert " round " not in result.output, result.output


@pytest.mark.parametrize("name", ["Friendly Sam", "friendly  SAM", "Friendly \u0405am", "Fri\u0435ndly Sam", "Ｆｒｉｅｎｄｌｙ Ｓａｍ", "Friéndly Sam"],
                         ids=["the same", "case and blanks", "Cyrillic Dze", "Cyrillic ie", "full-width", "an accent"])
def test_roster_check_refuses_a_name_that_looks_like_another_wrestlers(demo_fed, fedtool, name):
    """Two sheets could carry the same name, or one that only looks the same (a Cyrillic
    letter for a Latin one): `roster check` said "27 of 27 sheets stand", and results,
    standings and mail subjects then told "Friendly Sam def. Friendly Sam". The later
    sheet (by id) is refused, naming its file, line and field, and the wrestler it looks like."""
    _replace(demo_fed / "rosters/skyline-sabrina.yaml", "name: Skyline Sabrina", f'name: "{name}"')
    result = fedtool("--fed", demo_fed, "roster", "check")
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "rosters/skyline-sabrina.yaml, line 2, field name: " in result.output, result.output
    assert "looks like Friendly Sam (friendly-sam, rosters/friendly-sam.yaml)" in result.output, result.output
    assert "not: skyline-sabrina\n" in result.output, result.output


def test_roster_check_tells_apart_names_that_only_share_letters(demo_fed, fedtool):
    """Names that differ to the eye stand: the demo's roster, and Kid Comet beside "Kid Cornet"."""
    _replace(demo_fed / "rosters/skyline-sabrina.yaml", "name: Skyline Sabrina", "name: Kid Cornet")
    result = fedtool("--fed", demo_fed, "roster", "check")
    assert result.exit_code == 0, result.output


def test_an_opening_half_written_when_open_was_killed_is_removed_by_the_next_open(demo_fed, fedtool):
    """`fedtool open` killed while it wrote a week's opening.yaml leaves atomic_write's
    temporary file, `.opening.yaml.XXXXXXXX`, in the card folder; the next open (holding the
    fed's lock) removes it, and nothing else of the folder's."""
    folder = demo_fed / "strategies" / "week-02"
    left = folder / ".opening.yaml.k2j9_x0q"
    kept = [folder / ".opening.yaml.notes", folder / ".opening.yaml.k2j9_x0q1"]  # not of atomic_write's form
    for path in [left, *kept]:
        path.write_text("week: 2\n", encoding="utf-8")
    result = fedtool("--fed", demo_fed, "open", "2", "--reroll")
    assert result.exit_code == 0, result.output
    assert not left.exists()
    assert all(path.exists() for path in kept)
