"""The story never contradicts the result (issue 16, "Never contradict the result").

For each ruleset, random matches are played on seeded dice, described and rendered with the
packaged templates (to a string: nothing is written), and the writeup is read as a player
would: the finish told is the finish recorded (the words of a pin, a submission, a count-out,
a DQ, a draw; a cage's escape), the winner is named, eliminations are announced, and no line
of play repeats more than `MAX_REPEAT` times in a row. A few hand-built matches pin the
contradictions the issue names. Each ruleset plays `MATCHES` (the issue's 2,000): rendered to
strings, they take a few seconds, so no slow marker. Mad Match plays 2,000 games (each
player's game of a solitaire round counted), each rendered to Markdown and HTML: its board
drawn after most turns makes it the slowest, about 8 s of CPU.
"""

from __future__ import annotations

import random
import re

from fedtool.fed.render import environment, md_escape, render
from fedtool.kernel.commentary import Commentary, Teller
from fedtool.kernel.dice import SeededDice, format_log
from fedtool.rulesets.base import Booking, WrestlerRecord
from fedtool.rulesets.facemat import FaceToTheMat
from fedtool.rulesets.facemat import engine as fttm
from fedtool.rulesets.facemat.sheet import Wrestler
from fedtool.rulesets.facemat.terms import GRADES, SKILLS, SYMBOLS
from fedtool.rulesets.matclash import FINISH_WORDS, METHOD_TITLES, MatClash, Played
from fedtool.rulesets.matclash import engine as mc
from fedtool.rulesets.matchmatch import MatchMatch, engine
from fedtool.rulesets.matchmatch.narrate import FINISH_TITLES
from fedtool.rulesets.matchmatch.officials import stipulations
from fedtool.rulesets.madmatch import MadMatch
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.engine import Rules as MadRules, Side as MadSide
from fedtool.rulesets.madmatch.solitaire import SolitaireRules
from fedtool.rulesets.madmatch.strategy import ActionRule, Strategy as MadStrategy
from markupsafe import escape
from mm_builders import STYLE_IDS, make_setup, make_sheet, make_strategy, run, uniform_grid
from test_matclash_properties import deck_of, policies  # random legal policies

MATCHES = 2000  # per ruleset (issue 16); the three take about 8 s together, so they run by default
MAX_REPEAT = 3  # the same event line, word for word, at most this many times in a row

MM = MatchMatch()
STIPS = stipulations(None)


_ENVS: dict = {}


def rendered(ruleset, described: dict, log: list) -> str:
    env = _ENVS.get(ruleset.id) or _ENVS.setdefault(ruleset.id, environment(None, {ruleset.id: ruleset.templates}))
    context = {"match": described, "match_id": "m", "booking_title": None, "title_outcome": None, "rating": None, "notes": [],
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


def prose_of(md: str) -> str:
    """A MatchMatch writeup's story: before the round-by-round arithmetic and the dice."""
    return story_of(md).split("\n### Round by round", 1)[0]


def paragraph_bodies(prose: str) -> list[str]:
    """The story's paragraphs without their "**Round N.**" labels (each label is unique)."""
    lines = [ln for ln in prose.splitlines() if ln.strip() and not ln.startswith(("#", ">", "`", "-"))]
    return [re.sub(r"^\*\*Rounds? [0-9-]+\.\*\* ", "", ln) for ln in lines]


def mm_problems(setup, result, described: dict, md: str) -> list[str]:
    """What the rendered MatchMatch writeup says against the recorded result."""
    prose = prose_of(md)
    names = described["names"]
    problems = []
    calls = [p["call"] for r in described["rounds"] for p in r["pins"]]  # each victory check's call, as told
    finish = described["finish"]
    stip = setup.stipulation
    told = bool(getattr(stip, "victory", "")) and result.method != engine.DQ
    escape = ESCAPE_WORDS.get(stip.id, stip.victory) if told else None
    last_calls = [p["call"] for p in described["rounds"][-1]["pins"]] if described["rounds"] else []
    said = " ".join(last_calls).lower()
    for call in last_calls:
        if call not in prose:
            problems.append(f"the last round's call is not in the story: {call}")
    if result.method == engine.PIN and not told and "three" not in said:
        problems.append("a pin without a three count")
    if result.method != engine.PIN or told:
        if any("three" in c.lower() for c in calls if not (told and escape in c)):
            problems.append(f"a three count in a match won by {result.method}")
        if told and (" pins " in finish or " pins " in prose):
            problems.append("a cage/strap/scaffold win told as a pin")
    if result.method == engine.SUBMISSION and not told and "tap" not in said + finish:
        problems.append("a submission nobody tapped to")
    if result.method == engine.COUNTOUT and not told and "ten" not in said:
        problems.append("a count-out the referee never counted to ten")
    if result.method == engine.DOUBLE_COUNTOUT and not ("ten" in said.split("...")[-1] or "cannot split" in said):
        problems.append("a double count-out not told as one")
    if told and result.winner is not None and escape not in " ".join(last_calls):
        problems.append(f"a {stip.name} won without its victory ({escape})")
    paragraphs = prose.split("\n\n")
    if f"**{md_escape(finish)}**" not in paragraphs:
        return [*problems, "the finish is not told"]
    at = paragraphs.index(f"**{md_escape(finish)}**")
    if result.method == engine.TIME_LIMIT and "time" not in paragraphs[at - 1].lower():
        problems.append("a time-limit draw the story does not end with")
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
    # every DQ is announced, in the record and the story (a singles DQ by the finish line, once);
    # in a match of three or four, as an elimination
    for rnd, told_round in zip(result.rounds, described["rounds"]):
        for i, played in enumerate(rnd.sides):
            if played is not None and played.disqualified:
                if len(names) == 2:
                    announced = f"{names[i]} is disqualified" in finish or "Both men are disqualified" in finish
                    announced = announced and prose.count(" is disqualified") + prose.count(" are disqualified") == 1
                else:
                    announced = told_round["outcome"] in prose
                if f"{names[i]} is disqualified" not in told_round["outcome"] or not announced:
                    problems.append(f"round {rnd.number}: {names[i]}'s DQ is not announced")
                if len(names) > 2 and "eliminated" not in told_round["outcome"]:
                    problems.append(f"round {rnd.number}: {names[i]}'s elimination is not announced")
    # no event line repeats: neither a paragraph nor a sentence, word for word, more than MAX_REPEAT times in a row
    bodies = paragraph_bodies(prose)
    sentences = [s for body in bodies for s in re.split(r"(?<=[.!?])\s+", body)]
    if longest_run(bodies) > MAX_REPEAT or longest_run(sentences) > MAX_REPEAT:
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
    if count >= MATCHES:
        assert engine.DOUBLE_COUNTOUT in methods


def test_matchmatch_story_agrees_with_the_result():
    check_mm(MATCHES)


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


def test_a_cage_match_is_won_by_escape_and_the_pin_is_the_record():
    """VII Cage Match: "Victory is by escape -- climb up and get down to the floor" and "The Pin
    chance is reduced by 4 ... to represent the difficulty in escaping the cage": the won
    victory check is told as the escape, never "pins"; the league records the pin
    (docs/rulings/matchmatch.md, "Specialty matches"). Style 1 (Technical); Alpha 6,6,6 + 5 =
    23, Bravo 1,1,1 + 3 = 6: by 17, 1 + 3 = 4 damage, 2 or more in a cage: an injury check
    1,1,1; Alpha's victory check 6,6,6, a natural 18."""
    setup = _two(stip=STIPS["cage"], types=("normal", "normal"))
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    assert (result.winner, result.method) == (0, engine.PIN)
    d = MM.describe(Booking(None, setup, []), result)
    call = d["rounds"][0]["pins"][0]["call"]
    assert "natural 18!" in call and call.endswith("escaped!")  # data/commentary.yaml's natural_18, then a cage's escape
    assert d["finish"] == "Alpha wins by escape over Bravo in round 1 (recorded as a win by pinfall)."
    assert d["headline"] == "Cage Match: Alpha def. Bravo (by escape, round 1)"
    md = story_of(rendered(MM, d, result.log))
    assert " pins " not in md and "THREE" not in md


def test_a_submission_is_tapped_not_counted():
    """IV.2.f: a win checked after a Submission round is a submission (docs/rulings/matchmatch.md,
    "Victory checks"): "taps", never "the referee counts to three". Style 1 (Technical); Alpha
    6,6,6 + 5 = 23, Bravo 1,1,1 + 3 = 4: by 19, 1 + 3 = 4 damage, 3 or more: an injury check
    1,1,1; Alpha's victory check 6,6,6."""
    setup = _two(types=("submission", "normal"))
    result = run(setup, [1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    assert (result.winner, result.method) == (0, engine.SUBMISSION)
    d = MM.describe(Booking(None, setup, []), result)
    call = d["rounds"][0]["pins"][0]["call"]
    assert "tap" in call and "three" not in call.lower()


def test_a_disqualified_side_in_a_triangle_is_announced_as_eliminated():
    """The triangle of tests/test_multiway.py: A is disqualified in round 1 (DQ check 5 + 5 = 10
    reaches 10) and eliminated (docs/rulings/matchmatch.md, "Matches of three or more sides");
    B pins C in round 2. The writeup says A is out and who fights on."""
    from test_multiway import triangle

    setup = triangle(types=("illegal", "normal", "normal"), rounds=2)
    result = run(setup, [1, 2, 2, 2, 5, 5,   1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6])
    d = MM.describe(Booking(None, setup, []), result)
    assert d["rounds"][0]["outcome"] == "A is disqualified and eliminated; B and C fight on."
    assert d["rounds"][0]["outcome"] in prose_of(rendered(MM, d, result.log))
    assert d["finish"] == "B pins C in round 2."

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
    assert "**The Open Title does not change hands on a disqualification or a count-out: Brother Bob retains it.**" in md


def test_a_title_won_is_told_in_the_writeup(demo_fed, fedtool):
    md = _title_week_one(demo_fed, fedtool, ", changes_on: [pin, submission, countout, dq]")
    assert "**New champion! Friendly Sam wins the Open Title from Brother Bob.**" in md


def test_a_title_line_does_not_name_the_finish_again(demo_fed, fedtool):
    """Issue 16 (wording defects): the finish is told once, by the writeup's finish line; the
    title's line after it says only what became of the title. Before, a DQ was named twice
    ("wins by DQ." then "wins by disqualification and retains"), and a cage's escape ("wins by
    escape ... (recorded as a win by pinfall)") was followed by "wins the vacant ... by pinfall"."""
    for week in (1, 2):
        assert fedtool("run", str(week), "--fed", demo_fed).exit_code == 0
    kept = (demo_fed / "outbox/week-01/m5.md").read_text(encoding="utf-8")
    assert "Relámpago wins by DQ." in kept
    assert "\n**Relámpago retains the DCW World Championship.**\n" in kept
    assert len(re.findall(r"wins by (DQ|disqualification)", kept)) == 1
    cage = (demo_fed / "outbox/week-02/m3.md").read_text(encoding="utf-8")
    assert "Mad Dog Maddox wins by escape over" in cage
    assert "\n**New champion! Mad Dog Maddox wins the vacant DCW Heavyweight Championship.**\n" in cage
    assert "Championship by pinfall" not in cage


# ---------------------------------------------------------------- Face to the Mat


FTTM = FaceToTheMat()
# (match type, format, chart, wrestlers): every legal Face to the Mat match (9.a-9.f), as tests/test_facemat_properties.py
FTTM_TYPES = [("normal", None, "normal", 2), ("cage", None, "cage", 2), ("hardcore", None, "hardcore", 2),
              ("grudge", None, "normal", 2), ("tag", None, "normal", 4), ("hardcore tag", None, "hardcore", 4),
              ("three_for_all", "every_man", "normal", 3), ("three_for_all", "two_on_one", "cage", 3),
              ("battle_royale", "match_up", "normal", 5), ("battle_royale", "quick_play", "normal", 6),
              ("battle_royale", "four_play", "hardcore", 6)]
RANGES = [(11, 16), (11, 26), (11, 33), (11, 43), (21, 36), (11, 66)]
FTTM_NAMES = ["Ace Avery", "Bo Brant", "Cy Cole", "Dee Drake", "Eli East", "Fox Fane"]


def random_fttm(rng: random.Random, k: int):
    stipulation, fmt, chart, n = rng.choice(FTTM_TYPES)
    kind = stipulation.split()[-1]
    men = []
    for i in range(n):
        skills = {s: rng.choice(SYMBOLS) for s in rng.sample(SKILLS, rng.randint(2, 9))}
        if chart == "hardcore":
            skills["MEAN"] = skills.get("MEAN", "star")
        men.append(Wrestler(f"w{i}", FTTM_NAMES[i], rng.choice(GRADES), rng.randint(-2, 6), rng.choice(("face", "heel")),
                            skills, f"the {FTTM_NAMES[i].split()[0]} Drop", rng.choice(RANGES), {}))
    options = fttm.Options(objects=rng.random() < 0.5, object_spaces=(4, 8, 11), advanced_tag=rng.random() < 0.5,
                           refreshment=rng.random() < 0.5, ref_bump=rng.choice(("fac", "downed", "off")),
                           out_of_ring=rng.random() < 0.5, increased_kickouts=rng.random() < 0.5)
    plans = tuple(fttm.Plan(use_object=rng.choice(("always", "never", "when_trailing")),
                            call_for_help=rng.choice(("never", "when_trailing", "at_once"))) for _ in range(n))
    if kind == "tag":
        front, partners = men[:2], men[2:]
    else:
        front, partners = men, []
    mode = {"every_man": "every_man", "two_on_one": "two_on_one"}.get(fmt, "singles")
    hotbox = {"allies": [f"Ally {j}" for j in range(len(front))], "foes": [f"Foe {j}" for j in range(len(front))], "grudge": ["G1", "G2"]}
    setup = fttm.Setup(f"f{k}", tuple(front), hotbox, chart, rng.choice(("standard", "steep", "flat")), (3, 2, 1), rng.random() < 0.5,
                       tuple(partners), mode=mode, plans=plans, options=options, ref_bump_at=rng.choice((None, rng.randint(1, 30))))
    ordered = front + partners
    records = [WrestlerRecord(w.id, w.name, "facemat", "o", "o@x.example", w) for w in ordered]
    sides = [[j, j + len(front)] for j in range(len(front))] if kind == "tag" else [[j] for j in range(len(front))]
    extra = {"stipulation": stipulation, "match_type": kind, "format": fmt, "sides": sides, "teams": list(fttm.teams_of(setup)),
             "mini_match_to": rng.choice((8, 12, 15)), "names": {w.id: w.name for w in ordered}}
    return Booking(None, setup, records, [], extra)


def _fttm_cases(count: int):
    rng = random.Random(1616)
    for k in range(count):
        booking = random_fttm(rng, k)
        yield booking, FTTM.resolve(booking, SeededDice(rng.getrandbits(63)))


def fttm_problems(booking, result, described: dict, md: str) -> list[str]:
    """What the rendered Face to the Mat writeup says against the recorded result."""
    story = story_of(md)
    lines = described["lines"]
    names = [w.name for w in booking.wrestlers]
    problems = []
    bell = next((k for k, ln in enumerate(lines) if ln["kind"] in ("post_match", "end")), len(lines))
    decisive = [ln for ln in lines[:bell] if ln["kind"] in ("pin", "finisher") and ("THREE!" in ln["text"] or "That's it!" in ln["text"])]
    if result.winner is None:
        if "time-limit draw" not in described["headline"] or "time-limit draw" not in story.split("## ", 1)[1].split("\n", 1)[1]:
            problems.append("a time-limit draw the story does not tell")
    else:
        sides, teams = FTTM._layout(booking)
        winners = [names[k] for s, members in enumerate(sides) for k in members if teams[s] == teams[result.winner]]
        if not any(described["headline"].startswith(w) for w in winners):
            problems.append("the headline does not name the winner first")
        if not decisive:
            problems.append(f"a win by {result.method} with no fall told")
        else:
            last = decisive[-1]["text"]
            word = {"pin": "THREE!", "finisher": "That's it!"}[result.method]
            if word not in last:
                problems.append(f"a win by {result.method} whose last fall reads: {last}")
            if not any(last.startswith(w) for w in winners):
                problems.append(f"the last fall is not the winner's: {last}")
    # every man eliminated on the way is announced (the final fall is the finish's own line)
    told = " ".join(ln["text"] for ln in lines)
    way = result.eliminations[:-1] if result.winner is not None else result.eliminations
    for loser, *_ in way:
        if not re.search(re.escape(names[loser]) + r" is (?:\w+ )*(?:by .+ )?(?:and )?eliminated", told):
            problems.append(f"{names[loser]}'s elimination is not announced")
    if any(not ln["text"].startswith("After the bell: ") for ln in lines[bell:] if ln["kind"] == "post_match"):
        problems.append("a post-match line not told after the bell")
    if longest_run([ln["text"] for ln in lines]) > MAX_REPEAT:
        problems.append("a line repeats more than MAX_REPEAT times in a row")
    return problems


def check_fttm(count: int) -> None:
    failures = []
    for booking, result in _fttm_cases(count):
        described = FTTM.describe(booking, result)
        problems = fttm_problems(booking, result, described, rendered(FTTM, described, result.log))
        if problems:
            failures.append((booking.setup.match_id, booking.extra["match_type"], result.method, problems))
    assert failures == []


def test_face_to_the_mat_story_agrees_with_the_result():
    check_fttm(MATCHES)


def test_a_face_to_the_mat_time_limit_draw_is_told(monkeypatch):
    """A match that reaches the FAC guard (engine.FAC_GUARD, "a time-limit draw") says so at
    the bell, before any post-match storyline: not just in the headline."""
    monkeypatch.setattr(fttm, "FAC_GUARD", 2)  # two FACs: nobody gets near a PIN space from 0
    a, b = (Wrestler(f"w{i}", FTTM_NAMES[i], "C", 0, "face", {"SMART": "star"}, "the Drop", (11, 16), {}) for i in range(2))
    setup = fttm.Setup("f", (a, b), {"allies": ["A1", "A2"], "foes": ["F1", "F2"], "grudge": ["G1", "G2"]}, storylines=True)
    booking = Booking(None, setup, [WrestlerRecord(w.id, w.name, "facemat", "o", "o@x.example", w) for w in (a, b)], [],
                      {"match_type": "normal", "sides": [[0], [1]], "teams": [0, 1]})
    result = FTTM.resolve(booking, SeededDice(16))
    assert (result.winner, result.method, result.facs) == (None, "time_limit", 2)
    described = FTTM.describe(booking, result)
    texts = [ln["text"] for ln in described["lines"]]
    bell = next(k for k, ln in enumerate(described["lines"]) if ln["kind"] in ("post_match", "end"))
    assert texts[bell - 1] == "FAC 2 was the last: the time limit runs out with no fall. A time-limit draw."
    assert fttm_problems(booking, result, described, rendered(FTTM, described, result.log)) == []


# ---------------------------------------------------------------- Mat Clash


MC = MatClash()
MC_NAMES = ["Red Rourke", "Blue Bellamy"]


def _mc_cases(count: int):
    rng = random.Random(1617)
    for k in range(count):
        seed = rng.getrandbits(62)
        tempers = [(rng.choice((0.02, 0.1, 0.3)), rng.random(), rng.random(), rng.random()) for _ in (0, 1)]
        deck = deck_of(rng.choice(("base", "full")))
        dice = SeededDice(seed)
        if rng.random() < 0.25:
            dual = mc.dual_match(MC_NAMES, policies(seed, tempers, checked=False), deck, dice)
            played = Played("dual_match", dual.scraps, dual.winner, "team_points", dual.team, dual.tiebreaker, dice.take_log())
        else:
            scrap = mc.quick_scrap(MC_NAMES, policies(seed, tempers, checked=False), deck, dice)
            played = Played("quick_scrap", [scrap], scrap.winner, scrap.method, None, False, dice.take_log())
        yield Booking(None, {"names": MC_NAMES, "moves": [{}, {}]}, []), played


SCORE_PAIR = re.compile(r"\b(\d+)-(\d+)\b")
FINISH_SAID = {"pin": None, "mat_beast": "MAT BEAST", "feet_to_back": "feet to back", "spladle": "Spladle"}
METHOD_SAID = {"decision": "a decision", "major": "major decision", "tech_fall": "technical fall"}


def mc_problems(played, described: dict, md: str) -> list[str]:
    """What the rendered Mat Clash writeup says against the recorded result: each scrap's
    result line is the recorded one; a fall is told once, as the scrap's last beat, with its
    card's words and the winner named, and no scrap won otherwise tells one; a decision, major
    decision or technical fall is told as the one the margin makes (4.8) and overtime exactly
    when it was played; every score the story tells is the score after that beat, and the last
    one told is the recorded score; the Dual Match's team points and tiebreaker are the
    recorded ones; no beat repeats more than MAX_REPEAT times in a row; and the rendered
    Markdown carries every beat and result line."""
    problems = []
    winner = MC_NAMES[played.winner]
    story = story_of(md)
    if not described["headline"].split(": ", 1)[1].startswith(f"{winner} def."):
        problems.append("the headline does not name the winner first")
    for scrap, told in zip(played.scraps, described["scraps"]):
        n = told["number"]
        beats = told["beats"]
        kinds = [b["kind"] for b in beats]
        name = MC_NAMES[scrap.winner].split()[-1]
        won, lost = scrap.score[scrap.winner], scrap.score[1 - scrap.winner]
        if not told["result"].startswith(f"{MC_NAMES[scrap.winner]} wins {METHOD_TITLES[scrap.method]}") or not told["result"].endswith(f", {won}-{lost}"):
            problems.append(f"scrap {n}: the result line is not the recorded result: {told['result']}")
        if scrap.method == "fall":
            if kinds.count("fall") != 1 or kinds[-1] != "fall":
                problems.append(f"scrap {n}: a fall that is not told once, as the scrap's last beat")
            else:
                text = beats[-1]["text"]
                said = FINISH_SAID[scrap.finish]
                if "fall" not in text.lower() or name not in text:
                    problems.append(f"scrap {n}: the fall does not name its winner: {text}")
                if said and said.lower() not in text.lower():
                    problems.append(f"scrap {n}: a {scrap.finish} fall told as: {text}")
                if scrap.finish == "pin" and any(w.lower() in text.lower() for w in ("MAT BEAST", "feet to back", "Spladle")):
                    problems.append(f"scrap {n}: a Pin told as another card: {text}")
            if FINISH_WORDS[scrap.finish] not in told["result"]:
                problems.append(f"scrap {n}: the fall's card is not named")
            if told["ending"]:
                problems.append(f"scrap {n}: a fall with a decision told after it")
        else:
            if "fall" in kinds:
                problems.append(f"scrap {n}: a fall told in a scrap won {scrap.method}")
            margin = won - lost
            expected = "tech_fall" if margin >= 15 else "major" if margin >= 8 else "decision"
            if scrap.finish != "overtime":
                if scrap.method != expected:
                    problems.append(f"scrap {n}: {won}-{lost} is not a {scrap.method}")
                ending = " ".join(told["ending"])
                if METHOD_SAID[scrap.method] not in ending or f"{won}-{lost}" not in ending or name not in ending:
                    problems.append(f"scrap {n}: the ending does not tell the {scrap.method}: {ending}")
                if scrap.method == "decision" and ("major" in ending or "technical" in ending):
                    problems.append(f"scrap {n}: a decision told as more: {ending}")
        overtime_told = any("overtime" in line.lower() for line in told["ending"])
        if (scrap.finish == "overtime") != bool(told["overtime"]) or (scrap.finish == "overtime") != ("in overtime" in told["result"]) \
                or (scrap.finish == "overtime") != overtime_told:
            problems.append(f"scrap {n}: overtime told and played disagree")
        # every score told is the score after its beat; the last one told is the recorded score
        last = (0, 0)
        for beat in beats:
            pairs = SCORE_PAIR.findall(beat["text"])
            apiece = re.findall(r"\b(\d+) apiece", beat["text"])
            if pairs or apiece:
                shown = sorted(map(int, pairs[-1])) if pairs else [int(apiece[-1])] * 2
                if shown != sorted(beat["score"]):
                    problems.append(f"scrap {n}: {beat['text']!r} tells a score that is not {beat['score']}")
            last = tuple(beat["score"])
        if beats and sorted(last) != sorted(scrap.score):
            problems.append(f"scrap {n}: the story ends at {last}, the scrap at {scrap.score}")
        if longest_run([b["text"] for b in beats]) > MAX_REPEAT:
            problems.append(f"scrap {n}: a beat repeats more than MAX_REPEAT times in a row")
        for line in [b["text"] for b in beats] + [told["result"]]:
            if line not in story:
                problems.append(f"scrap {n}: not in the rendered writeup: {line}")
    paragraphs = [p for p in story.split("\n\n") if p.strip()]
    if longest_run(paragraphs) > MAX_REPEAT:
        problems.append("a paragraph repeats more than MAX_REPEAT times in a row")
    if played.format == "dual_match":
        team = played.team
        if f"{max(team)}-{min(team)} in team points" not in described["headline"]:
            problems.append("the team points are not the headline's")
        if played.tiebreaker != ("after a tiebreaker" in described["headline"]):
            problems.append("a tiebreaker told and played disagree")
        fifth = described["scraps"][4]["team_line"]
        if not played.tiebreaker and (f"{max(team)}-{min(team)}" not in fifth or winner.split()[-1] not in fifth):
            problems.append(f"the fifth scrap's team line does not give the dual's result: {fifth}")
        if played.tiebreaker and winner.split()[-1] not in described["scraps"][5]["team_line"]:
            problems.append("the tiebreaker's winner is not told as the dual's")
    return problems


class _Recording(Commentary):
    """The packaged table, with each kind a teller says recorded in `told`."""

    def __init__(self, table: Commentary, told: set):
        super().__init__(table.phrases, table.fields, table.facts)
        object.__setattr__(self, "told", told)

    def teller(self, key: str) -> Teller:
        told = self.told

        class Recorder(Teller):
            def say(self, kind, facts=None, **values):
                told.add(kind)
                return super().say(kind, facts, **values)
        return Recorder(self, key)


# told only by the hand-built scraps of tests/test_matclash_prose.py (random policies have no plan
# lines, rarely answer a Spladle and never empty the deck in overtime)
MC_HAND_BUILT = {"plan", "spladle_saved", "overtime_deck_out"}


def check_mc(count: int) -> set:
    """Plays and checks `count` matches; returns the commentary kinds their writeups told."""
    failures = []
    told: set = set()
    table = _Recording(MC.commentary(), told)
    for k, (booking, played) in enumerate(_mc_cases(count)):
        booking.commentary, booking.story_key = table, f"week-01 m{k}"
        described = MC.describe(booking, played)
        problems = mc_problems(played, described, rendered(MC, described, played.log))
        if problems:
            failures.append((played.format, problems))
    assert failures == []
    return told


def test_mat_clash_story_agrees_with_the_result():
    """...and every kind a writeup tells is in the phrase table (data/commentary.yaml), and every
    kind in the table is told by some match (or by a hand-built scrap: MC_HAND_BUILT)."""
    told = check_mc(MATCHES)
    kinds = set(MC.commentary().phrases)
    assert told <= kinds
    assert kinds - told == MC_HAND_BUILT


# ---------------------------------------------------------------- Mad Match

MADM = MadMatch()
MAD_DECK = load_deck()
MAD_HELD = [a.id for a in MAD_DECK.actions if a.effect != "freeze"]
MAD_NAMES = ["Zelda Voss", "Zeke *Rennick*", "Zora <b>Stroud</b>", "Igor_the_2nd"]  # player text: escaped in both formats


def _mad_strategy(rng: random.Random) -> MadStrategy:
    """A random legal strategy (the choices of tests/test_madmatch_properties.py)."""
    actions = {key: ActionRule(rng.choice(["default", "always", "never", "leading", "trailing", "endgame", "turn 5 or later"]),
                               rng.choice(["best", "leader", "next", "strike"]))
               for key in rng.sample(MAD_HELD + ["steal", "destroy"], rng.randint(0, 4))}
    return MadStrategy(rng.choice(["unseen_first", "half_remembered_first"]), rng.choice(["always", "when_better", "never"]), rng.random() < 0.5,
                       rng.randint(1, 30), rng.randint(0, 45), actions, keep_free=rng.randint(0, 3))


def random_madmatch(rng: random.Random, k: int) -> Booking:
    n = rng.choice((2, 3, 4))
    variation = rng.choice(("mad_match", "mad_match", "classic", "solitaire"))
    fmt = "solitaire" if variation == "solitaire" else rng.choice(["single"] * 8 + ["best_of_three", "target"])
    sides = [MadSide(MAD_NAMES[i], rng.randint(0, 22), _mad_strategy(rng)) for i in range(n)]
    rules = MadRules(rng.choice((6, 10, 20)), rng.randint(1, 8), rng.choice(("stay", "turn_back")), rng.choice([400] * 19 + [12]), rng.random() < 0.3)
    setup = {"variation": variation, "format": fmt, "target": rng.choice((20, 60)) if variation != "classic" else 10, "deck": MAD_DECK, "sides": sides,
             "ids": [f"p{i}" for i in range(n)], "names": [s.name for s in sides], "rules": rules, "max_games": 5,
             "solitaire": SolitaireRules(rng.choice(("triplets", "cards")), rng.choice((0, 1)))}
    return Booking(None, setup, [], [], {"format": fmt, "variation": variation})


class _Told(Commentary):
    """The packaged table, with every phrase a teller says recorded in `said`: (kind, values)."""

    def __init__(self, table: Commentary, said: list):
        super().__init__(table.phrases, table.fields, table.facts)
        object.__setattr__(self, "said", said)

    def teller(self, key: str) -> Teller:
        said = self.said

        class Recorder(Teller):
            def say(self, kind, facts=None, **values):
                text = super().say(kind, facts, **values)
                said.append((kind, values, text))
                return text
        return Recorder(self, key)


def _matrix(monster, count: int, strike: bool) -> int:
    """The rulebook's matrix, per card: "x : All three cards collected in one turn. v : ... a spare.
    2 : Pair of cards ... 1 : Single card" ("each card is scored, so a pair of monsters with a II
    of 3 totals six points while a spare triplet with a / of 5 totals fifteen points")."""
    per = (monster.strike if strike else monster.spare) if count >= 3 else monster.pair if count == 2 else monster.single
    return count * per


def _scores_line(names, scores) -> str:
    return ", ".join(f"{name} {score}" for name, score in zip(names, scores))


def madmatch_problems(booking: Booking, result, described: dict, said: list, md: str, html: str) -> list[str]:
    """What the rendered Mad Match writeup says against the recorded result: the winner named is
    the recorded winner (the match's and each game's); every score told is the recorded score
    (after each turn, each game, the match, and each collection's points by the matrix); the
    scoring table is the matrix applied to each collection and adds up to the game's score;
    every steal and destruction the engine recorded is told, naming the card, both players
    and the monster; every line of the story is in the Markdown and the HTML; and no line or
    sentence repeats more than MAX_REPEAT times in a row."""
    setup = booking.setup
    names = setup["names"]
    story = story_of(md)
    problems = []

    def in_both(text: str, what: str) -> None:
        if str(md_escape(text)) not in story or str(escape(text)) not in html:
            problems.append(f"{what} is not in the rendered writeup: {text}")

    if setup["variation"] == "solitaire":
        games = result.games
        if [g.score for g in games] != list(result.totals):
            problems.append("the round's totals are not the players' scores")
        if result.winner is not None:
            others = max(t for q, t in enumerate(result.totals) if q != result.winner)
            if not described["headline"].startswith(f"Mad Match solitaire: {names[result.winner]} wins, {result.totals[result.winner]} to {others}"):
                problems.append(f"the headline does not name the winner: {described['headline']}")
        elif len(names) > 1 and "a tie at" not in described["headline"]:
            problems.append(f"a tied round not told as one: {described['headline']}")
        if described["totals_line"] != _scores_line(names, result.totals):
            problems.append("the round's scores are not the recorded ones")
        in_both(f"Round: {described['totals_line']}", "the round's result")
        for p, game in enumerate(games):
            in_both(f"{names[p]}: {game.triplets} completed triplets, {game.grouped} cards grouped", "a player's result")
            if longest_run(described["players"][p]["moves"]) > MAX_REPEAT:
                problems.append(f"{names[p]}: a move repeats more than MAX_REPEAT times in a row")
        return problems

    classic = setup["variation"] == "classic"
    cards = [m for m in MAD_DECK.monsters for _ in range(2)] if classic else MAD_DECK.cards()
    kinds = [kind for kind, _, _ in said]
    # the match's winner
    if result.winner is None:
        if not described["headline"].endswith(" draw") or kinds[-1] != "match_drawn":
            problems.append("a drawn match not told as one")
    else:
        if not described["headline"].split(": ", 1)[1].startswith(f"{names[result.winner]} wins"):
            problems.append(f"the headline does not name the winner: {described['headline']}")
        if said[-1][0] != "match_won" or said[-1][1]["winner"] != names[result.winner]:
            problems.append("the match's last line does not name its winner")
        in_both(described["end"], "the match's end")
    if described["totals_line"] != ", ".join(f"{names[p]} {t} points, {w} game{'s' if w != 1 else ''}" for p, (t, w) in enumerate(zip(result.totals, result.wins))):
        problems.append("the match's totals are not the recorded ones")
    # each collection's points, as told, are the matrix's
    for kind, values, _ in said:
        if kind in ("pair", "triplet", "spare"):
            monster = next(m for m in MAD_DECK.monsters if m.name == values["monster"])
            expected = 1 if classic else _matrix(monster, 2 if kind == "pair" else 3, kind == "triplet")
            if values["points"] != expected:
                problems.append(f"a {kind} of {monster.name} told as {values['points']} points, not {expected}")
    # a Freeze that extends to the next player's turn is told so only when that turn is played, by that player
    extended = [(game.log[k + 1].player if k + 1 < len(game.log) else None) for game in result.games for k, t in enumerate(game.log)
                for c in t.freeze if cards[c].extends]
    if [values["next"] for kind, values, _ in said if kind == "freeze_extends"] != [names[p] for p in extended if p is not None]:
        problems.append("a Freeze told as reaching into a turn that is not the next one played")
    for game, told in zip(result.games, described["games"]):
        n = game.number
        # each turn's scores, as told, are the recorded ones; every turn is in the record
        by_number = {t.number: t for t in game.log}
        numbers = [t["number"] for b in told["beats"] for t in b["turns"]]
        if numbers != [t.number for t in game.log]:
            problems.append(f"game {n}: the turns told are not the turns played")
        shown = tuple([0] * len(names))  # the scores are told after each turn that changes them
        for beat in told["beats"]:
            last = by_number[beat["turns"][-1]["number"]]
            if beat["scores"] != (_scores_line(names, last.scores) if tuple(last.scores) != shown else ""):
                problems.append(f"game {n}: {beat['label']} tells {beat['scores']!r} after {last.scores}")
            shown = tuple(last.scores)
            in_both(beat["text"], f"game {n}: {beat['label']}")
            for t in beat["turns"]:
                if t["line"] != f"Turn {t['number']}: {t['player']} {t['done']}." or t["player"] != names[by_number[t["number"]].player]:
                    problems.append(f"game {n}: turn {t['number']}'s record is not its player's")
                if str(md_escape(t["line"])) not in story:  # the record in the Markdown (the story lines are checked in both)
                    problems.append(f"game {n}: turn {t['number']}'s record is not in the writeup")
        if shown != tuple(game.scores):
            problems.append(f"game {n}: the last turn told does not end at the game's scores")
        # the game's winner
        if game.winner is not None:
            if not told["result"].startswith(f"{names[game.winner]} wins game {n}: ") or names[game.winner] not in told["ending"]:
                problems.append(f"game {n}: its winner is not the one told")
        elif not told["result"].startswith(f"Game {n} is tied"):
            problems.append(f"game {n}: a tie not told as one")
        if told["result"].split(": ", 1)[1] != _scores_line(names, game.scores) + (" pairs" if classic else ""):
            problems.append(f"game {n}: the result line's scores are not the recorded ones")
        in_both(told["result"], f"game {n}'s result")
        in_both(told["ending"], f"game {n}'s ending")
        # the scoring table: the matrix applied to each collection, adding up to the game's score
        for p, (coll, rows) in enumerate(zip(game.collections, told["table"])):
            expected = [(MAD_DECK.monsters[m].name, count, 1 if classic else _matrix(MAD_DECK.monsters[m], count, strike)) for m, (count, strike) in sorted(coll.items())]
            shown = [(r["monster"], r["cards"], r["points"]) for r in rows["rows"]]
            if shown != expected:
                problems.append(f"game {n}: {names[p]}'s table {shown} is not the matrix's {expected}")
            if rows["total"] != game.scores[p] or sum(points for _, _, points in expected) != game.scores[p]:
                problems.append(f"game {n}: {names[p]}'s table does not add up to the score {game.scores[p]}")
            for r in rows["rows"]:
                row = f"| {md_escape(names[p])} | {md_escape(r['monster'])} | {r['cards']} | {r['kind']} | {r['per_card']} | {r['points']} |"
                if row not in story:
                    problems.append(f"game {n}: a table row is not in the Markdown: {row}")
        # every steal and destruction in the engine's record is told, in its turn's story
        used = {turn: (p, c) for turn, p, c, _ in game.used if cards[c].effect != "freeze"}
        beats = {t["number"]: b for b in told["beats"] for t in b["turns"]}
        for turn, (p, c) in used.items():
            card, effect, victim, m, moved = by_number[turn].used
            if card != c:
                problems.append(f"game {n}, turn {turn}: the engine's two records of the Action card used disagree")
            text = beats[turn]["text"]
            wanted = [names[p], names[victim], cards[c].name, MAD_DECK.monsters[m].name]
            if not all(w in text for w in wanted):
                problems.append(f"game {n}, turn {turn}: the {effect} with {cards[c].name} is not told: {text}")
        told_used = sum(1 for b in told["beats"] for t in b["turns"] if by_number[t["number"]].used is not None)
        if told_used != len(used):
            problems.append(f"game {n}: {told_used} Action cards used told, {len(used)} recorded")
        # no padding: no line, no sentence repeats more than MAX_REPEAT times in a row
        texts = [b["text"] for b in told["beats"]]
        sentences = [s for text in texts for s in re.split(r"(?<=[.!?])\s+", text)]
        if longest_run(texts) > MAX_REPEAT or longest_run(sentences) > MAX_REPEAT:
            problems.append(f"game {n}: a line repeats more than MAX_REPEAT times in a row")
    return problems


def _madmatch_cases(count: int):
    """Random matches until `count` games (a solitaire round's players each play one) are played."""
    rng = random.Random(1717)
    games = k = 0
    while games < count:
        booking = random_madmatch(rng, k)
        result = MADM.resolve(booking, SeededDice(rng.getrandbits(63)))
        games += len(result.games)
        k += 1
        yield booking, result


def check_madmatch(count: int) -> set:
    """Plays and checks `count` games; returns the commentary kinds their writeups told."""
    failures = []
    told: set = set()
    table = MADM.commentary()
    md_env = html_env = _ENVS.get(MADM.id) or _ENVS.setdefault(MADM.id, environment(None, {MADM.id: MADM.templates}))
    variations, formats = set(), set()
    for k, (booking, result) in enumerate(_madmatch_cases(count)):
        said: list = []
        booking.commentary, booking.story_key = _Told(table, said), f"week-01 g{k}"
        described = MADM.describe(booking, result)
        context = {"match": described, "match_id": "g", "booking_title": None, "title_outcome": None, "rating": None, "notes": [],
                   "dice_log": {"count": len(result.log), "text": format_log(result.log)}}
        md = render(md_env, f"{MADM.template}.md.j2", **context)
        html = render(html_env, f"{MADM.template}.html.j2", **context)
        problems = madmatch_problems(booking, result, described, said, md, html)
        told |= {kind for kind, _, _ in said}
        variations.add(booking.setup["variation"])
        formats.add((booking.setup["format"], result.winner is None))
        if problems:
            failures.append((k, booking.setup["variation"], problems[:3]))
    assert failures == []
    assert variations == {"mad_match", "classic", "solitaire"}
    return told


def test_mad_match_story_agrees_with_the_result():
    """...and every kind a writeup tells is in the phrase table (data/commentary.yaml), and every
    kind in the table is told by some game."""
    told = check_madmatch(MATCHES)
    assert told == set(MADM.commentary().phrases)
