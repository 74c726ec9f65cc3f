"""Issue 12, item 5: dice players can verify. Each match's seed is committed to (SHA-256 of
its seed text) when the week opens, revealed with the results, and `fedtool verify`
replays the match from it against the commitment, the dice logs and the results."""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fedtool.kernel.dice import derive_seed
from fedtool.league.db import pack, read_summary, unpack

SECRET = "demo-fed-secret-not-for-real-feds"
M1_SEED = "762dc374212bb150"  # week 1, match m1: derive_seed(SECRET, 1, "m1")
M1_TEXT = f"week 1 match m1 seed {M1_SEED}"
M1_COMMITMENT = "8d17dbd17f61bea0aa51e70799a307cb4518276471401f79e2918d8619ae0f7e"
MATCHES = {1: 5, 2: 4, 3: 3, 4: 1, 5: 3}  # matches on each demo week's card


@pytest.fixture
def ran(demo_fed, fedtool) -> Path:
    """The demo fed with weeks 1-5 run."""
    for week in MATCHES:
        assert fedtool("run", week, "--fed", demo_fed).exit_code == 0
    return demo_fed


def _sql(fed: Path, statement: str, *params) -> None:
    with sqlite3.connect(fed / "fed.db") as db:
        assert db.execute(statement, params).rowcount == 1


def test_verify_passes_on_every_demo_week(ran, fedtool):
    for week, count in MATCHES.items():
        result = fedtool("verify", week, "--fed", ran)
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == f"week {week}: checked against fed.db and outbox/week-0{week}/dice.txt"
        assert result.output.count(": verified (") == count
        assert result.output.splitlines()[-1] == f"week {week}: {count} of {count} matches verified"
    lines = fedtool("verify", 1, "--match", "m1", "--fed", ran).output.splitlines()
    assert lines[1:] == [
        "m1: verified (13 rolls; friendly-sam wins by dq in round 3)",
        f"  seed text `{M1_TEXT}`, SHA-256 {M1_COMMITMENT}",
        "week 1: 1 of 1 matches verified",
    ]


def test_the_commitment_is_the_sha256_of_the_documented_seed_text(ran, fedtool):
    assert f"{derive_seed(SECRET, 1, 'm1'):016x}" == M1_SEED  # the seed the run played m1 on
    assert hashlib.sha256(M1_TEXT.encode("ascii")).hexdigest() == M1_COMMITMENT
    assert f"  m1: {M1_COMMITMENT}\n" in (ran / "strategies/week-01/opening.yaml").read_text()
    m1 = json.loads(fedtool("results", 1, "--json", "--fed", ran).output)[0]
    assert (m1["id"], m1["seed"], m1["seed_text"]) == ("m1", M1_SEED, M1_TEXT)
    assert f"- m1: seed text `{M1_TEXT}`, commitment `{M1_COMMITMENT}`" in (ran / "outbox/week-01/card.md").read_text()


def test_open_writes_the_commitments_in_opening_yaml_and_the_announcements(demo_fed, fedtool):
    before = (demo_fed / "strategies/week-04/opening.yaml").read_text()
    assert fedtool("open", 4, "--reroll", "--fed", demo_fed).exit_code == 0  # Face to the Mat rolls nothing before strategies
    commitment = hashlib.sha256(f"week 4 match m1 seed {derive_seed(SECRET, 4, 'm1'):016x}".encode()).hexdigest()
    assert (demo_fed / "strategies/week-04/opening.yaml").read_text() == before
    assert before.endswith(f"week: 4\nmatches: {{}}\ncommitments:\n  m1: {commitment}\n")
    for side in ("vince-valor", "the-warden"):
        announcement = (demo_fed / f"outbox/week-04/announcements/m1-{side}.md").read_text()
        assert f"Dice commitment: `{commitment}` (the SHA-256 of this match's seed text, revealed with the results)." in announcement


def test_a_tampered_dice_log_fails(ran, fedtool):
    # one face changed, in the league and in dice.txt alike: roll 3 of m1, Brother Bob's attack 6 3 5
    # the league keeps a week's dice log packed in one row (m017): unpacked, the roll changed, packed again
    with sqlite3.connect(ran / "fed.db") as db:
        rolls = unpack(db.execute("SELECT data FROM lean_dice WHERE week = 1").fetchone()[0], [])
        (roll,) = [r for r in rolls if r[0] == "week-01/m1" and r[1] == 2 and r[4] == "6 3 5"]
        roll[4] = "6 3 4"
        db.execute("UPDATE lean_dice SET data = ? WHERE week = 1", [pack(rolls)])
    dice = ran / "outbox/week-01/dice.txt"
    text = dice.read_text()
    assert text.count("6 3 5    # round 1: Brother Bob attack 3d6\n") == 1
    dice.write_text(text.replace("6 3 5    # round 1: Brother Bob attack 3d6\n", "6 3 4    # round 1: Brother Bob attack 3d6\n"))
    result = fedtool("verify", 1, "--fed", ran)
    assert result.exit_code == 1
    assert "m1: failed (13 rolls; friendly-sam wins by dq in round 3)\n" in result.output
    assert "  the league's dice log, roll 3 (round 1, Brother Bob attack 3d6): the log has 6 3 4, the replay rolls 6 3 5\n" in result.output
    assert "  outbox/week-01/dice.txt, line 4 (roll 3, round 1, Brother Bob attack 3d6): the log has 6 3 4, the replay rolls 6 3 5\n" in result.output
    assert result.output.count(": verified (") == 4
    assert "error: week 1: 1 of 5 matches not verified (m1)" in result.stderr
    assert "Traceback" not in result.output


def test_a_dice_txt_tampered_alone_fails_and_names_its_line(ran, fedtool):
    dice = ran / "outbox/week-01/dice.txt"
    dice.write_text(dice.read_text().replace("5 3 3    # round 1: Friendly Sam attack 3d6\n", "5 3 6    # round 1: Friendly Sam attack 3d6\n", 1))
    result = fedtool("verify", 1, "--match", "m1", "--fed", ran)
    assert result.exit_code == 1
    assert result.output.splitlines()[1:4] == [
        "m1: failed (13 rolls; friendly-sam wins by dq in round 3)",
        f"  seed text `{M1_TEXT}`, SHA-256 {M1_COMMITMENT}",
        "  outbox/week-01/dice.txt, line 5 (roll 4, round 1, Friendly Sam attack 3d6): the log has 5 3 6, the replay rolls 5 3 3",
    ]


def test_a_strategy_tampered_after_the_run_fails(ran, fedtool):
    strategy = ran / "strategies/week-01/brother-bob.yaml"
    text = strategy.read_text()
    old = "- {target: Martial Arts, type: Normal, explanation: Closed fists"
    assert text.count(old) == 1
    strategy.write_text(text.replace(old, "- {target: Martial Arts, type: High Risk, explanation: Closed fists"))
    result = fedtool("verify", 1, "--match", "m1", "--fed", ran)
    assert result.exit_code == 1
    assert result.output.splitlines()[1:8] == [
        "m1: failed (38 rolls; brother-bob wins by pin in round 8)",
        f"  seed text `{M1_TEXT}`, SHA-256 {M1_COMMITMENT}",
        "  the league's dice log, roll 4: the log has 5 3 3 for round 1, Friendly Sam attack 3d6, "
        "the replay rolls 5 for round 1, Brother Bob High Risk extra d6 for a 3",
        "  outbox/week-01/dice.txt, line 5 (roll 4, round 1, Brother Bob High Risk extra d6 for a 3): the log has 5 3 3, the replay rolls 5",
        "  the league's result has winner 'friendly-sam', the replay 'brother-bob'",
        "  the league's result has method 'dq', the replay 'pin'",
        "  the league's result has round 3, the replay 8",
    ], result.output
    assert "error: week 1: 1 of 1 matches not verified (m1)" in result.stderr


def test_a_tampered_commitment_fails(ran, fedtool):
    opening = ran / "strategies/week-01/opening.yaml"
    opening.write_text(opening.read_text().replace(f"  m1: {M1_COMMITMENT}\n", f"  m1: {'f' * 64}\n"))
    result = fedtool("verify", 1, "--fed", ran)
    assert result.exit_code == 1
    assert result.output.splitlines()[1:4] == [
        "m1: failed (13 rolls; friendly-sam wins by dq in round 3)",
        f"  seed text `{M1_TEXT}`, SHA-256 {M1_COMMITMENT}",
        f"  strategies/week-01/opening.yaml: commitments: m1: the published commitment is {'f' * 64}, "
        f"but the revealed seed text `{M1_TEXT}` hashes to {M1_COMMITMENT}",
    ]
    assert "error: week 1: 1 of 5 matches not verified (m1)" in result.stderr


def test_a_malformed_commitment_is_an_error_naming_its_line(ran, fedtool):
    opening = ran / "strategies/week-01/opening.yaml"
    opening.write_text(opening.read_text().replace("  m2: ", "  m2: xyz"))
    result = fedtool("verify", 1, "--fed", ran)
    assert result.exit_code == 1
    assert "error: strategies/week-01/opening.yaml, line 34, field commitments.m2: 'xyz" in result.stderr
    assert "is not a commitment (64 lowercase hex digits: a SHA-256) [opening file]" in result.stderr
    assert "Traceback" not in result.output


def test_a_tampered_revealed_seed_fails(ran, fedtool):
    _sql(ran, "UPDATE matches SET seed = '762dc374212bb151' WHERE id = 'week-01/m1'")
    result = fedtool("verify", 1, "--match", "m1", "--fed", ran)
    assert result.exit_code == 1
    tampered = "week 1 match m1 seed 762dc374212bb151"
    hashed = hashlib.sha256(tampered.encode()).hexdigest()
    lines = result.output.splitlines()
    assert lines[1].startswith("m1: failed (")
    assert lines[2:4] == [
        f"  seed text `{tampered}`, SHA-256 {hashed}",
        f"  strategies/week-01/opening.yaml: commitments: m1: the published commitment is {M1_COMMITMENT}, but the revealed seed text `{tampered}` hashes to {hashed}",
    ]
    assert lines[4].startswith("  the league's dice log, roll 1 (round 1, round style d6): the log has 6, the replay rolls ")


def test_the_secret_is_in_no_published_file(ran, fedtool):
    for week in MATCHES:
        assert fedtool("open", week, "--reroll", "--fed", ran).exit_code == 0  # announcements for every week
    assert fedtool("site", "--fed", ran).exit_code == 0
    files = [p for p in (ran / "outbox").rglob("*") if p.is_file()]
    assert len([p for p in files if "/announcements/" in str(p) and p.suffix == ".md"]) == 10 + 9 + 6 + 2 + 4 + 3 + 3  # a file per match and side (week 2 has a triangle, week 5 a tag match and two three-sided Mad Match games)
    assert any(p.name == "card.md" for p in files) and any(p.suffix == ".html" and "site" in p.parts for p in files)
    for path in files:
        assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path
    for week in MATCHES:
        assert SECRET not in fedtool("results", week, "--json", "--fed", ran).output
        assert SECRET not in fedtool("verify", week, "--fed", ran).output


def test_the_site_shows_the_revealed_seeds_and_an_open_weeks_commitments(ran, fedtool):
    week6 = ran / "strategies/week-06"
    week6.mkdir()
    (week6 / "card.yaml").write_text("matches:\n  - sides: [big-earl, rocky-ridge]\n    rounds: 3\n")
    assert fedtool("open", 6, "--fed", ran).exit_code == 0
    six = hashlib.sha256(f"week 6 match m1 seed {derive_seed(SECRET, 6, 'm1'):016x}".encode()).hexdigest()
    assert fedtool("site", "--fed", ran).exit_code == 0
    week_page = (ran / "outbox/site/weeks/week-01.html").read_text()
    assert f'<li>m1: seed text <code>{M1_TEXT}</code>, commitment <code class="commitment">{M1_COMMITMENT}</code></li>' in week_page
    home = (ran / "outbox/site/index.html").read_text()
    assert "<h2>Week 6 is open</h2>" in home
    assert f'<li>m1: <code class="commitment">{six}</code></li>' in home


def test_a_scripted_week_is_replayed_but_not_verified(ran, fedtool):
    shutil.copy(ran / "outbox/week-05/dice.txt", ran / "week-05-dice.txt")
    assert fedtool("run", 5, "--rerun", "--dice", ran / "week-05-dice.txt", "--fed", ran).exit_code == 0
    result = fedtool("verify", 5, "--fed", ran)
    assert result.exit_code == 1
    assert result.output.splitlines()[1:3] == [
        "m1: scripted (28 rolls; the-warden wins by pin in round 16)",
        f"  run on scripted dice ({ran / 'week-05-dice.txt'}), not on a committed seed: only the replay from its own log can be checked",
    ]
    assert "error: week 5: 3 of 3 matches not verified (m1, m2, m3)" in result.stderr


def test_a_week_opened_before_commitments_is_replayed_but_not_verified(ran, fedtool):
    opening = ran / "strategies/week-02/opening.yaml"
    opening.write_text(opening.read_text().split("commitments:\n")[0])
    (ran / "strategies/week-03/opening.yaml").unlink()
    for week, why in ((2, "has no commitments (the week was opened before fedtool published them)"),
                      (3, "is not there (the week was not opened with `fedtool open`)")):
        result = fedtool("verify", week, "--fed", ran)
        assert result.exit_code == 1
        assert result.output.count(": uncommitted (") == MATCHES[week]
        assert result.output.count(f"  strategies/week-0{week}/opening.yaml {why}: the seed cannot be shown to be the one fixed before the strategies\n") == MATCHES[week]
        assert f"error: week {week}: {MATCHES[week]} of {MATCHES[week]} matches not verified" in result.stderr


def test_verify_refuses_an_unknown_match_and_a_week_not_run(demo_fed, fedtool):
    result = fedtool("verify", 1, "--fed", demo_fed)
    assert result.exit_code == 1
    assert "error: fed.db: week 1 has not been run, so there is nothing to verify [fedtool verify]" in result.stderr
    assert not (demo_fed / "fed.db").exists()
    assert fedtool("run", 1, "--fed", demo_fed).exit_code == 0
    result = fedtool("verify", 1, "--match", "m9", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "error: strategies/week-01/card.yaml: no match 'm9' on the card; it has m1, m2, m3, m4, m5 [fedtool verify]" in result.stderr


def _player_copy(fed: Path, tmp: Path, week: int) -> tuple[Path, Path]:
    """What a player has: the fed's rosters (not its secret) and week's card folder, and the
    published results folder."""
    player = tmp / "player"
    shutil.copytree(fed / "rosters", player / "rosters")
    shutil.copytree(fed / f"strategies/week-0{week}", player / f"strategies/week-0{week}")
    settings = player / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(SECRET, "a-player-does-not-know-it"))
    published = tmp / "published" / f"week-0{week}"
    shutil.copytree(fed / f"outbox/week-0{week}", published)
    return player, published


@pytest.mark.parametrize("week", [1, 2, 3])
def test_a_player_verifies_from_the_published_files(ran, fedtool, tmp_path, week):
    player, published = _player_copy(ran, tmp_path, week)
    result = fedtool("verify", week, "--published", published, "--fed", player)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"week {week}: checked against {published}/card.md and {published}/dice.txt"
    assert result.output.splitlines()[-1] == f"week {week}: {MATCHES[week]} of {MATCHES[week]} matches verified"
    assert not (player / "fed.db").exists()


def test_a_player_finds_a_tampered_published_log(ran, fedtool, tmp_path):
    player, published = _player_copy(ran, tmp_path, 1)
    dice = published / "dice.txt"
    dice.write_text(dice.read_text().replace("5 3 3    # round 1: Friendly Sam attack 3d6\n", "5 3 6    # round 1: Friendly Sam attack 3d6\n", 1))
    result = fedtool("verify", 1, "--published", published, "--fed", player)
    assert result.exit_code == 1
    assert f"  {published}/dice.txt, line 5 (roll 4, round 1, Friendly Sam attack 3d6): the log has 5 3 6, the replay rolls 5 3 3\n" in result.output
    assert "error: week 1: 1 of 5 matches not verified (m1)" in result.stderr


def test_a_player_replays_the_published_log_with_play(ran, fedtool, tmp_path):
    player, published = _player_copy(ran, tmp_path, 1)
    result = fedtool("--fed", player, "play", player / "strategies/week-01", "--dice", published / "dice.txt")
    assert result.exit_code == 0, result.output
    # the writeup of week 1's title match (m5) ends with the title's outcome, a league fact an
    # exhibition does not know (issue 16): the replay tells every other line the same
    title_line = "**Relámpago retains the DCW World Championship.**\n\n"
    for match in ("m1", "m2", "m3", "m4", "m5"):
        told = (published / f"{match}.md").read_text()
        if match == "m5":
            assert told.count(title_line) == 1
            told = told.replace(title_line, "")
        assert (player / f"outbox/exhibitions/week-01/{match}.md").read_text() == told


def test_a_published_log_without_the_match_fails_and_missing_files_are_named(ran, fedtool, tmp_path):
    player, published = _player_copy(ran, tmp_path, 4)
    dice = published / "dice.txt"
    dice.write_text(dice.read_text().replace("# match m1\n", "# match m9\n"))
    result = fedtool("verify", 4, "--published", published, "--fed", player)
    assert result.exit_code == 1
    assert f"  {published}/dice.txt has no section `# match m1`: there is no dice log to compare\n" in result.output
    (published / "card.md").unlink()
    result = fedtool("verify", 4, "--published", published, "--fed", player)
    assert result.exit_code == 1
    assert f"error: {published}/card.md: not there: verifying from published results needs the week's card.md and dice.txt [fedtool verify]" in result.stderr


README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readmes_player_check_computes_the_demo_commitment():
    """The README's own commands, run as a player would: the hash of the seed text is the
    commitment published in the demo's week 1 opening.yaml."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Checking the dice\n", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in section.splitlines() if line.strip().startswith(("python3 -c", "printf '%s'"))]
    assert len(commands) == 2
    python = shlex.split(commands[1])
    assert python[:2] == ["python3", "-c"] and python[3] == M1_TEXT
    out = subprocess.run([sys.executable, *python[1:]], capture_output=True, text=True, check=True).stdout
    assert out == f"{M1_COMMITMENT}\n"
    if shutil.which("sha256sum"):
        out = subprocess.run(["sh", "-c", commands[0]], capture_output=True, text=True, check=True).stdout
        assert out == f"{M1_COMMITMENT}  -\n"
    demo_opening = README.parent / "strategies/week-01/opening.yaml"
    assert f"  m1: {M1_COMMITMENT}\n" in demo_opening.read_text()


def test_a_feds_own_announcement_template_still_carries_the_commitment(demo_fed, fedtool):
    (demo_fed / "templates/facemat").mkdir()
    (demo_fed / "templates/facemat/announce.md.j2").write_text("{{ fed_name }}: {{ sides | join(' vs. ') }}\n")
    assert fedtool("open", 4, "--reroll", "--fed", demo_fed).exit_code == 0
    commitment = hashlib.sha256(f"week 4 match m1 seed {derive_seed(SECRET, 4, 'm1'):016x}".encode()).hexdigest()
    text = (demo_fed / "outbox/week-04/announcements/m1-the-warden.md").read_text()
    assert text.startswith(
        "Delta Championship Wrestling: Vince Valor vs. The Warden\n\n"
        f"Dice commitment: `{commitment}` (the SHA-256 of this match's seed text, revealed with the results).\n\n"
        "How to submit: mail `strategies@dcw.example` with the subject `Week 4 the-warden m1`"
    )


def test_a_match_run_under_another_rules_revision_is_named_as_such_not_as_bad_dice(ran, fedtool):
    """A run keeps its rulesets' rules revision with every match (`Ruleset.rules_revision`):
    after fedtool changes how a ruleset plays (issue 14 raised MatchMatch and Face to the Mat
    to revision 2), a week run before is not replayed under the new rules and called a
    mismatch; verify says which revision ran it. Its seed is still checked against the
    commitment. A match stored before revisions were kept counts as revision 1."""
    from fedtool.rulesets import get_ruleset

    assert get_ruleset("matchmatch").rules_revision == 2
    with sqlite3.connect(ran / "fed.db") as db:
        stored = read_summary(db.execute("SELECT summary FROM matches WHERE week = 1 AND match = 'm1'").fetchone()[0])
    assert stored["rules_revision"] == 2
    del stored["rules_revision"]  # as a league of an older fedtool holds it
    _sql(ran, "UPDATE matches SET summary = ? WHERE week = 1 AND match = 'm1'", json.dumps(stored))
    revisions = {m["id"]: m["rules_revision"] for m in json.loads(fedtool("results", 1, "--json", "--fed", ran).output)}
    assert revisions == {"m1": 1, "m2": 2, "m3": 2, "m4": 2, "m5": 2}
    result = fedtool("verify", 1, "--fed", ran)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    at = lines.index("m1: other rules")
    assert lines[at + 1:at + 3] == [
        f"  seed text `{M1_TEXT}`, SHA-256 {M1_COMMITMENT}",
        "  run under MatchMatch rules revision 1; this fedtool plays revision 2, so its replay would not be the run's: "
        "verify it with the fedtool that ran it",
    ]
    assert result.output.count(": verified (") == 4  # the other four matches still replay
    # a tampered seed of such a match still fails on its commitment
    _sql(ran, "UPDATE matches SET seed = ? WHERE week = 1 AND match = 'm1'", "0" * 16)
    tampered = fedtool("verify", 1, "--match", "m1", "--fed", ran).output
    assert "m1: failed" in tampered.splitlines() and "the published commitment is" in tampered
