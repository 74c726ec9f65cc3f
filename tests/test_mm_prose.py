"""MatchMatch told as a bout (issue 16 items 1 and 2): its phrase table, the story's shape,
a fed's own commentary, and a week told the same way every time.

tests/test_story_truth.py holds the story to the result over 2,000 random matches (the finish
told is the finish recorded, no line repeated more than MAX_REPEAT times in a row); this file
checks the rest of what the story promises.
"""

from __future__ import annotations

import re
from pathlib import Path

from fedtool.fed.render import environment, render
from fedtool.kernel.dice import format_log
from fedtool.rulesets.base import Booking
from fedtool.rulesets.matchmatch import MatchMatch, engine
from fedtool.rulesets.matchmatch.narrate import KINDS, MOVE, is_heel
from fedtool.rulesets.matchmatch.officials import stipulations
from mm_builders import make_setup, make_sheet, make_strategy, run, uniform_grid
from test_story_truth import ESCAPE_WORDS, prose_of

MM = MatchMatch()
TABLE = MM.commentary()
ENV = environment(None, {"matchmatch": MM.templates})


def rendered(described: dict, log: list, template: str = "md") -> str:
    context = {"match": described, "match_id": "m", "booking_title": None, "title_outcome": None, "rating": None, "notes": [],
               "dice_log": {"count": len(log), "text": format_log(log)}}
    return render(ENV, f"matchmatch/match.{template}.j2", **context)


# ---------------------------------------------------------------- the table


def test_every_kind_the_engine_tells_is_in_the_table_and_every_kind_there_is_told():
    assert KINDS == set(TABLE.phrases)


def test_every_phrase_of_a_kind_with_the_players_words_names_them_once():
    for kind, fields in TABLE.fields.items():
        if "move" in fields:
            for phrase in TABLE.phrases[kind]:
                assert phrase.text.count("{move}") == 1, (kind, phrase.text)


def test_a_specialty_matchs_win_is_told_by_its_own_words():
    """VII: a cage is won by escape, a strap by four corners, a scaffold by a ten count: every
    packaged phrase of `escape` chosen for one of them says so (test_story_truth reads these words)."""
    for phrase in TABLE.phrases["escape"]:
        for stip in dict(phrase.when).get("stipulation", ()):
            assert ESCAPE_WORDS[stip] in phrase.text, phrase.text


def test_the_table_has_the_rulesets_facts():
    assert TABLE.facts == {"alignment", "match_type", "stipulation", "title", "round_type", "style"}


# ---------------------------------------------------------------- the story


def _setup(plan_a, plan_b, *, rounds, stamina=(10, 10), explain=("", ""), minus=("teamwork", "teamwork"), styles_a=None, styles_b=None, stipulation=None):
    a = make_sheet("alpha", name="Alpha", stamina=stamina[0], styles=styles_a or {"technical": 5, "brawling": 7})
    b = make_sheet("bravo", name="Bravo", stamina=stamina[1], styles=styles_b or {"technical": 3, "brawling": 2})
    sa = make_strategy(("technical", "brawling"), minus[0], "A", plan_a)
    sb = make_strategy(("technical", "brawling"), minus[1], "1", plan_b)
    if any(explain):
        sa = _explained(sa, explain[0])
        sb = _explained(sb, explain[1])
    return make_setup(a, sa, b, sb, uniform_grid("technical"), rounds=rounds, stipulation=stipulation)


def _explained(strategy, words):
    import dataclasses
    return dataclasses.replace(strategy, rounds=tuple(dataclasses.replace(a, explanation=words.format(n=a.round)) for a in strategy.rounds))


def describe(setup, result) -> dict:
    return MM.describe(Booking(None, setup, []), result)


def _paragraphs(md: str) -> list[str]:
    return [p for p in prose_of(md).split("\n\n") if p.strip()]


def test_the_opponents_minus_pick_is_explained_before_the_bell():
    """IV.1.b: "If the other side chose a style as a "-" style, immediately reduce the style to
    1/2 it's original value, rounded up": Bravo's "-" Brawling takes Alpha's 7 to 4, and the
    story says so, with both names and both figures; Alpha's "-" Martial Arts, which is not in
    the match (styles: Technical, Brawling, the grid's Technical), is told as wasted."""
    setup = _setup([("normal", "stamina")], [("normal", "stamina")], rounds=1, minus=("martial_arts", "brawling"))
    result = run(setup, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # Technical; 3 + 5 against 3 + 3: Alpha by 2; check 1,1,1
    paragraphs = _paragraphs(rendered(describe(setup, result), result.log))
    opening = paragraphs[next(i for i, p in enumerate(paragraphs) if p.startswith("Style table")) + 1]
    assert "Alpha" in opening and "Brawling" in opening and re.search(r"\b7\b.*\b4\b", opening), opening
    assert re.search(r"Martial Arts.*(never enters|not one of tonight)", opening), opening


def test_a_style_damaged_to_nothing_is_told():
    """IV.2.d: "Styles may never be reduced to less than 0, but excess damage to a Style will
    reduce Stamina." Style 1 (Technical); Alpha 6,6,6 + 5 = 23, Bravo 1,1,1 + 3 = 6: by 17,
    1 + 3 = 4 damage to Bravo's Brawling 2: to 0, 2 spilling into Stamina; 4 damage, 3 or
    more: an injury check 1,1,1 (no injury); Alpha's victory check 1,1,1 (no count)."""
    setup = _setup([("normal", "brawling")], [("normal", "stamina")], rounds=1)
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert [(h.before, h.after, h.to_stamina) for h in result.rounds[0].hits] == [(2, 0, 2)]
    prose = prose_of(rendered(describe(setup, result), result.log))
    zero = [s.text for s in TABLE.phrases["style_zeroed"]]
    spill = [s.text for s in TABLE.phrases["spill"]]
    assert any(t.format(name="Bravo", style="Brawling") in prose for t in zero), prose
    assert any(t.format(name="Bravo", style="Brawling", amount="2 points") in prose for t in spill), prose


def test_the_players_words_are_woven_into_the_round_and_escaped():
    """The winner's explanation sits inside the sentence that tells his round, set apart in
    italics; Markdown and HTML in it are shown as text (render.md_escape, autoescape)."""
    setup = _setup([("normal", "stamina")], [("normal", "stamina")], rounds=1, explain=("<b>Chops</b> *and* a [link](x)", "Bravo {n}"))
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # Alpha by 17: 4 damage; injury check; no count
    d = describe(setup, result)
    md = rendered(d, result.log)
    line = next(p for p in _paragraphs(md) if p.startswith("**Round 1.**"))
    assert re.search(r"\S.*“\*&lt;b>Chops&lt;/b> \\\*and\\\* a \\\[link\\\]\(x\)\*”", line), line
    html = rendered(d, result.log, "html")
    assert '“<em class="said">&lt;b&gt;Chops&lt;/b&gt; *and* a [link](x)</em>”' in html
    assert MOVE not in md and MOVE not in html


def test_a_long_explanation_is_set_apart_as_a_quote():
    words = "Line one of a long plan.\nLine two: he goes up top."
    setup = _setup([("normal", "stamina")], [("normal", "stamina")], rounds=1, explain=(words, ""))
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    md = rendered(describe(setup, result), result.log)
    assert "\n> Line one of a long plan.\n> Line two: he goes up top.\n" in prose_of(md)


def test_quiet_rounds_collapse_and_each_explanation_is_told_once():
    """Twenty rounds of Normal on Stamina with the same words every round (Part VI's "Beat
    him."): the words are quoted once, and a run of rounds that changes nothing is one line."""
    plan = [("normal", "stamina")] * 20
    setup = _setup(plan, plan, rounds=20, stamina=(15, 15), explain=("Beat him.", "Hold on."),
                   styles_a={"technical": 4, "brawling": 4}, styles_b={"technical": 4, "brawling": 4})
    counted = 0
    for seed in range(40):
        from fedtool.kernel.dice import SeededDice
        result = engine.resolve(setup, SeededDice(seed))
        md = rendered(describe(setup, result), result.log)
        prose = prose_of(md)
        assert prose.count("“*Beat him.*”") <= 1 and prose.count("“*Hold on.*”") <= 1
        paragraphs = [p for p in _paragraphs(md) if p.startswith("**Round")]
        counted += sum(p.startswith("**Rounds ") for p in paragraphs)
        assert len(paragraphs) <= result.end_round
    assert counted > 0  # some stretch was collapsed


def test_heels_are_the_cheats():
    """A sheet carries no alignment: a side whose strategy plays an Illegal round is a heel,
    one with only Normal rounds and no "+" Cheating a face (docs/commentary.md)."""
    setup = _setup([("illegal", "stamina")], [("normal", "stamina")], rounds=1)
    assert [is_heel(s.strategy) for s in setup.sides] == [True, False]


def test_a_triangle_tells_who_fights_on_and_the_cage_its_escape():
    from test_multiway import triangle

    setup = triangle(types=("illegal", "normal", "normal"), rounds=2)
    result = run(setup, [1, 2, 2, 2, 5, 5,   1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    prose = prose_of(rendered(describe(setup, result), result.log))
    assert "A is disqualified and eliminated; B and C fight on." in prose
    cage = stipulations(None)["cage"]
    setup = _setup([("normal", "stamina")], [("normal", "stamina")], rounds=1, stipulation=cage, stamina=(0, 0))
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    prose = prose_of(rendered(describe(setup, result), result.log))
    assert "escaped!" in prose and "THREE" not in prose and " pins " not in prose


# ---------------------------------------------------------------- through `fedtool run`


def _week_one(fed: Path, fedtool) -> dict[str, str]:
    result = fedtool("run", "1", "--fed", fed)
    assert result.exit_code == 0, result.output
    out = fed / "outbox" / "week-01"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out.iterdir()) if p.is_file()}


def test_a_feds_own_commentary_changes_the_writeup_and_not_the_dice(demo_fed, fedtool, tmp_path):
    import shutil

    plain = shutil.copytree(demo_fed, tmp_path / "plain")
    before = _week_one(plain, fedtool)
    own = demo_fed / "templates" / "commentary" / "matchmatch.yaml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('opening:\n  replace:\n    - "Live from the Armory: {first} against {second}!"\n'
                   'near_fall:\n  - "{attacker} hooks the leg... {defender} escapes at two!"\n', encoding="utf-8")
    after = _week_one(demo_fed, fedtool)
    assert "Live from the Armory: Brother Bob against Friendly Sam!" in after["m1.md"]
    assert "Live from the Armory" not in before["m1.md"]
    assert "Live from the Armory: Brother Bob against Friendly Sam!" in after["m1.html"]
    assert after["dice.txt"] == before["dice.txt"]  # commentary rolls no dice


def test_a_feds_commentary_with_an_unknown_kind_refuses_the_week_with_file_and_line(demo_fed, fedtool):
    own = demo_fed / "templates" / "commentary" / "matchmatch.yaml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('near_fall:\n  - "fine"\nnear_falls: ["{attacker} typo"]\n', encoding="utf-8")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code != 0
    assert "templates/commentary/matchmatch.yaml, line 3: no kind 'near_falls'" in result.output
    assert "Traceback" not in result.output
    own.write_text('near_fall:\n  - "{attacker.__class__} covers"\n', encoding="utf-8")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code != 0 and "templates/commentary/matchmatch.yaml, line 2:" in result.output and "not a plain field name" in result.output


def test_the_same_week_run_twice_gives_byte_identical_writeups(demo_fed, fedtool, tmp_path):
    import shutil

    again = shutil.copytree(demo_fed, tmp_path / "again")
    first, second = _week_one(demo_fed, fedtool), _week_one(again, fedtool)
    writeups = [name for name in first if re.fullmatch(r"m\d+\.(md|html)", name)]
    assert writeups and all(first[name] == second[name] for name in writeups)


def test_every_players_words_in_a_singles_match_are_told():
    """Nothing a player wrote for a round that was played is lost from the story of a singles
    match (but the words of a side whose round a DQ stopped): told once, set apart, in the
    round it belongs to, or before it when it repeats words told already."""
    import random

    from fedtool.kernel.dice import SeededDice
    from test_story_truth import random_mm

    rng = random.Random(1616)
    checked = 0
    for k in range(300):
        setup = random_mm(rng, k)
        if len(setup.sides) != 2:
            continue
        setup = _with_words(setup, rng)
        result = engine.resolve(setup, SeededDice(rng.getrandbits(63)))
        prose = prose_of(rendered(describe(setup, result), result.log))
        for rnd in result.rounds:
            if any(p is None or p.disqualified for p in rnd.sides):
                continue
            for played in rnd.sides:
                assert f"“*{played.action.explanation}*”" in prose, (k, rnd.number, played.action.explanation)
                checked += 1
    assert checked > 500


def _with_words(setup, rng):
    import dataclasses

    sides = []
    for i, side in enumerate(setup.sides):
        words = [f"Side {i} plan {rng.randint(1, 4)}" for _ in side.strategy.rounds]  # some repeat
        rounds = tuple(dataclasses.replace(a, explanation=words[n]) for n, a in enumerate(side.strategy.rounds))
        sides.append(dataclasses.replace(side, strategy=dataclasses.replace(side.strategy, rounds=rounds)))
    return dataclasses.replace(setup, sides=tuple(sides))


def test_the_possessive_of_a_name_ending_in_s():
    a = make_sheet("alpha", name="The Rivals", styles={"technical": 5})
    b = make_sheet("bravo", name="Bravo", styles={"technical": 3})
    sa = make_strategy(("technical", "power"), "teamwork", "A", [("normal", "stamina")])
    sb = make_strategy(("technical", "power"), "teamwork", "1", [("normal", "stamina")])
    setup = make_setup(a, sa, b, sb, uniform_grid("technical"), rounds=1)
    # IV.2.d: Technical; The Rivals 1,1,1 + 5 = 8, Bravo 6,6,6 + 3 = 21: by 13, 1 + 2 = 3 damage to
    # The Rivals' Stamina, 3 or more: an injury check 1,1,1; Bravo's victory check 1,1,1
    result = run(setup, [1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1, 1])
    md = rendered(describe(setup, result), result.log)
    assert "Rivals's" not in md and "The Rivals' Stamina (10 → 7)" in md
