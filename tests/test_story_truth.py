"""The story never contradicts the result (issue 16, "Never contradict the result").

For each ruleset, random matches are played on seeded dice, described and rendered with the
packaged templates (to a string: nothing is written), and the writeup is read as a player
would: the finish told is the finish recorded (the words of a pin, a submission, a count-out,
a DQ, a draw; a cage's escape), the winner is named, eliminations are announced, and no line
of play repeats more than `MAX_REPEAT` times in a row. A few hand-built matches pin the
contradictions the issue names. The default run plays `QUICK` matches per ruleset; the slow
marker plays `FULL` (the issue's 2,000).
"""

from __future__ import annotations

import random
import re

import pytest

from fedtool.fed.render import environment, render
from fedtool.kernel.dice import SeededDice, format_log
from fedtool.rulesets.base import Booking
from fedtool.rulesets.matchmatch import MatchMatch, engine
from fedtool.rulesets.matchmatch.narrate import FINISH_TITLES
from fedtool.rulesets.matchmatch.officials import stipulations
from mm_builders import STYLE_IDS, make_setup, make_sheet, make_strategy, run, uniform_grid

QUICK, FULL = 200, 2000
MAX_REPEAT = 3  # the same event line, word for word, at most this many times in a row

MM = MatchMatch()
STIPS = stipulations(None)


_ENVS: dict = {}


def rendered(ruleset, described: dict, log: list) -> str:
    env = _ENVS.get(ruleset.id) or _ENVS.setdefault(ruleset.id, environment(None, {ruleset.id: ruleset.templates}))
    context = {"match": described, "match_id": "m", "booking_title": None, "title_outcome": None, "notes": [],
               "dice_log": {"count": len(log), "text": format_log(log)}}
    return render(env, f"{ruleset.template}.md.j2", **context)


def story_of(md: str) -> str:
    """The writeup without its dice appendix (the appendix is a record, not the story)."""
    return md.split("<details><summary>Dice log", 1)[0]


def longest_run(lines: list[str]) -> int:
    best = run_ = 0
    last = None
    for line in lines:
        run_ = run_ + 1 if line == last else 1
        last = line
        best = max(best, run_)
    return best


# ---------------------------------------------------------------- MatchMatch

PLUS_STYLES = [s for s in STYLE_IDS if s != "teamwork"]
TYPES = ["normal"] * 8 + ["defensive"] * 2 + ["high_risk"] * 2 + ["high_spot", "illegal", "finisher", "cripple", "high_impact", "vile_cheat", "submission"]
TARGETS = [*STYLE_IDS, *["stamina"] * 6]
PIN_WORDS = ("THREE!",)
ESCAPE_WORDS = {"cage": "escaped", "strap": "All four corners", "scaffold": "TEN!"}


def random_mm(rng: random.Random, k: int):
    n = rng.choice((2, 2, 2, 2, 3, 4))
    stip = rng.choice([None, None, "cage", "strap", "scaffold"])
    rounds = rng.randint(1, 20)
    sides = []
    for i in range(n):
        sheet = make_sheet(f"w{i}", name=f"Wrestler {'ABCD'[i]}", stamina=rng.randint(0, 12),
                           styles={s: rng.randint(0, 10) for s in STYLE_IDS}, defenses={s: rng.randint(0, 2) for s in STYLE_IDS})
        types = [t for t in TYPES if not (stip == "cage" and t == "submission")]
        plan = [(rng.choice(types), rng.choice(TARGETS)) for _ in range(rounds)]
        grid = "A" if i == 0 else "1" if i == 1 else f"{'ABC'[i - 2]}{i}"
        strategy = make_strategy(tuple(rng.sample(PLUS_STYLES, 2)), rng.choice(STYLE_IDS), grid, plan)
        sides.append(engine.Side(sheet.id, sheet.name, sheet, strategy, injury=rng.randint(0, 3), dq_threshold=rng.choice((5, 8, 10, 12))))
    kwargs = {"stipulation": STIPS[stip]} if stip else {}
    return engine.MatchSetup(f"m{k}", tuple(sides), uniform_grid(rng.choice(PLUS_STYLES)), rounds, **kwargs)


def mm_problems(setup, result, described: dict, md: str) -> list[str]:
    """What the rendered MatchMatch writeup says against the recorded result."""
    story = story_of(md)
    names = described["names"]
    problems = []
    calls = re.findall(r"\*([^*\n]+)\*\n", story)  # each victory check's call
    finish = described["finish"]
    stip = setup.stipulation
    told = bool(getattr(stip, "victory", "")) and result.method != engine.DQ
    last_calls = [p["call"] for p in described["rounds"][-1]["pins"]] if described["rounds"] else []
    said = " ".join(last_calls).lower()
    if result.method == engine.PIN and not told and "three" not in said:
        problems.append("a pin without a three count")
    if result.method != engine.PIN or told:
        if any("three" in c.lower() for c in calls if not (told and c.endswith(stip.victory))):
            problems.append(f"a three count in a match won by {result.method}")
        if told and " pins " in finish:
            problems.append("a cage/strap/scaffold win told as a pin")
    if result.method == engine.SUBMISSION and not told and "tap" not in said + finish:
        problems.append("a submission nobody tapped to")
    if result.method == engine.COUNTOUT and not told and "ten" not in said:
        problems.append("a count-out the referee never counted to ten")
    if told and result.winner is not None and stip.victory not in " ".join(last_calls):
        problems.append(f"a {stip.name} won without its victory ({stip.victory})")
    if result.winner is not None:
        if names[result.winner] not in finish or names[result.loser] not in finish:
            problems.append("the finish does not name the winner and the loser")
        if not described["headline"].split(": ", 1)[-1].startswith(f"{names[result.winner]} def."):
            problems.append("the headline does not name the winner first")
    words = {engine.PIN: "pins", engine.SUBMISSION: "submission", engine.COUNTOUT: "count-out", engine.DQ: "DQ",
             engine.DOUBLE_COUNTOUT: "double count-out", engine.TIME_LIMIT: "time-limit draw"}
    if result.method in words and not told and words[result.method] not in finish:
        problems.append(f"the finish line does not say {words[result.method]}: {finish}")
    if told and result.winner is not None and FINISH_TITLES[result.method] not in finish:
        problems.append("a stipulation's win does not say what is recorded")
    # every DQ is announced; in a match of three or four, as an elimination
    for rnd, told_round in zip(result.rounds, described["rounds"]):
        for i, played in enumerate(rnd.sides):
            if played is not None and played.disqualified:
                if f"{names[i]} is disqualified" not in told_round["outcome"]:
                    problems.append(f"round {rnd.number}: {names[i]}'s DQ is not announced")
                if len(names) > 2 and "eliminated" not in told_round["outcome"]:
                    problems.append(f"round {rnd.number}: {names[i]}'s elimination is not announced")
    lines = [ln for ln in story.splitlines() if ln.strip() and not ln.startswith(("#", ">", "`", "-"))]
    if longest_run(lines) > MAX_REPEAT:
        problems.append("a line repeats more than MAX_REPEAT times in a row")
    return problems


def _mm_cases(count: int):
    rng = random.Random(16)
    for k in range(count):
        setup = random_mm(rng, k)
        yield setup, engine.resolve(setup, SeededDice(rng.getrandbits(63)))


def check_mm(count: int) -> None:
    failures = []
    methods = set()
    for setup, result in _mm_cases(count):
        methods.add(result.method)
        described = MM.describe(Booking(None, setup, []), result)
        problems = mm_problems(setup, result, described, rendered(MM, described, result.log))
        if problems:
            failures.append((setup.match_id, result.method, problems))
    assert failures == []
    assert {engine.PIN, engine.SUBMISSION, engine.COUNTOUT, engine.DQ, engine.TIME_LIMIT} <= methods  # the finishes were reached


def test_matchmatch_story_agrees_with_the_result():
    check_mm(QUICK)


@pytest.mark.slow
def test_matchmatch_story_agrees_with_the_result_2000():
    check_mm(FULL)


def _two(stip=None, types=("illegal", "normal"), rounds=1):
    a = make_sheet("alpha", name="Alpha", stamina=0, styles={"technical": 5})
    b = make_sheet("bravo", name="Bravo", stamina=0, styles={"technical": 3})
    sa = make_strategy(("technical", "power"), "teamwork", "A", [(types[0], "stamina")] * rounds)
    sb = make_strategy(("martial_arts", "brawling"), "teamwork", "1", [(types[1], "stamina")] * rounds)
    return make_setup(a, sa, b, sb, uniform_grid("technical"), rounds=rounds, stipulation=stip)


def test_a_count_out_is_never_counted_to_three():
    """IV.2.f: a win checked after an Illegal round is a count-out ("CO (ie. any finish or
    other DQ which occurs as a result of Illegal actions)"): the call before "wins by
    count-out" is a count to ten, not "ONE! TWO! THREE!"."""
    setup = _two()
    # style 1 (Technical); Alpha 3d6 = 6,6,6 and DQ check 1,1 (under 10); Bravo 1,1,1;
    # Alpha wins the round; damage 1 + margin//5 to Stamina 0: no injury check (under 3)
    # unless 3 or more: margin = 18+5+2 - (3+0) = 22 -> 1 + 4 = 5 damage: injury check 3d6;
    # victory check 6,6,6 = natural 18
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    assert (result.winner, result.method) == (0, engine.COUNTOUT)
    d = MM.describe(Booking(None, setup, []), result)
    call = d["rounds"][0]["pins"][0]["call"]
    assert "THREE" not in call and "TEN" in call
    assert "wins by count-out" in d["finish"]


# ---------------------------------------------------------------- title outcomes in the writeup

def _title_week_one(demo_fed, fedtool, changes_on: str = "") -> str:
    """Week 1's m1 (Friendly Sam beats Brother Bob by DQ in round 3) for an Open Title Bob holds."""
    from test_titles import CARD_1, OPEN_TITLE, replace_in, set_titles
    set_titles(demo_fed, OPEN_TITLE % changes_on)
    replace_in(demo_fed / CARD_1, "sides: [brother-bob, friendly-sam]\n", "sides: [brother-bob, friendly-sam]\n    for_title: open\n")
    replace_in(demo_fed / CARD_1, "    for_title: world\n", "")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    return (demo_fed / "outbox/week-01/m1.md").read_text(encoding="utf-8")


def test_a_title_kept_on_a_dq_says_so_and_why_in_the_writeup(demo_fed, fedtool):
    md = _title_week_one(demo_fed, fedtool)
    assert "**Friendly Sam wins by disqualification, but Open Title does not change hands on a disqualification or a count-out: Brother Bob retains it.**" in md


def test_a_title_won_is_told_in_the_writeup(demo_fed, fedtool):
    md = _title_week_one(demo_fed, fedtool, ", changes_on: [pin, submission, countout, dq]")
    assert "**New champion! Friendly Sam wins Open Title from Brother Bob by disqualification.**" in md
