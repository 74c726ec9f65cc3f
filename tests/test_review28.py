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
