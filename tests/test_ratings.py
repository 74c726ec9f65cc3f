"""Star ratings (issue 16, "Ratings"; docs/ratings.md): the formula gives the exact ratings
worked by hand for constructed results of each ruleset, the card's rating and match of the
night, the `ratings: false` setting, and a rating that never rolls a die."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.cli import cli
from fedtool.fed.render import stars
from fedtool.rulesets.facemat import rating as fm_rating
from fedtool.rulesets.facemat.engine import Line, Result
from fedtool.rulesets.matchmatch import rating as mm_rating
from fedtool.rulesets.matchmatch.match import MatchResult
from fedtool.rulesets.matchmatch.rules import vocabulary
from fedtool.rulesets.matchmatch.strategy import Action
from fedtool.rulesets.matclash import rating as mc_rating
from fedtool.rulesets.matclash.engine import Event, ScrapResult
from fedtool.week.ratings import card_rating, match_of_the_night, match_rating, quarter, raw_stars


def invoke(*args) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


# ---------------------------------------------------------------- the formula


def test_formula_by_hand_rounds_a_half_quarter_up():
    """docs/ratings.md: 1/2 + 3/2 x closeness + 1/4 per lead change + 1/4 per near fall +
    1/8 per high spot + the finish + the stakes. Closeness 1/2, 2 lead changes, 1 near fall,
    3 high spots, a clean finish, a title: 1/2 + 3/4 + 1/2 + 1/4 + 3/8 + 1/2 + 1/2 = 27/8,
    3.375, half way between 3.25 and 3.5: rounded up to 3.5."""
    inputs = {"closeness": Fraction(1, 2), "lead_changes": 2, "near_falls": 1, "high_spots": 3, "finish": "clean", "grudge": False}
    assert raw_stars(inputs, title=True) == Fraction(27, 8)
    assert match_rating(inputs, title=True)["stars"] == 3.5
    assert match_rating(inputs, title=False)["stars"] == 3.0  # 23/8 = 2.875: up to 3


def test_formula_caps_and_bounds():
    """Counts count at most 4 each; a rating stays within 0 and 5. Everything at its best
    (1/2 + 3/2 + 1 + 1 + 1/2 + 1/2 + 1/2 + 1/4 = 23/4) is 5; a one-sided draw with nothing
    in it (1/2 - 1/2) is 0."""
    best = {"closeness": 1, "lead_changes": 9, "near_falls": 9, "high_spots": 9, "finish": "clean", "grudge": True}
    assert raw_stars(best, title=True) == Fraction(23, 4)
    assert match_rating(best, title=True)["stars"] == 5.0
    dud = {"closeness": 0, "lead_changes": 0, "near_falls": 0, "high_spots": 0, "finish": "draw", "grudge": False}
    assert match_rating(dud, title=False)["stars"] == 0.0
    assert stars(0.0) == "DUD (0 stars)"


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=-1, max_value=2), st.integers(-3, 20), st.integers(-3, 20), st.integers(-3, 20),
       st.sampled_from(["clean", "countout", "dq", "draw", "odd"]), st.booleans(), st.booleans())
def test_any_inputs_give_a_quarter_star_from_0_to_5(closeness, leads, falls, spots, finish, grudge, title):
    inputs = {"closeness": closeness, "lead_changes": leads, "near_falls": falls, "high_spots": spots, "finish": finish, "grudge": grudge}
    value = match_rating(inputs, title)["stars"]
    assert 0 <= value <= 5 and value * 4 == int(value * 4)
    assert abs(Fraction(value) - min(Fraction(5), max(Fraction(0), raw_stars(inputs, title)))) <= Fraction(1, 8)


def test_quarter_rounding():
    assert [quarter(Fraction(n, 8)) for n in (0, 1, 2, 3, 5, 41, -3)] == [0, Fraction(1, 4), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 5, 0]


def test_card_rating_and_match_of_the_night_by_hand():
    """The card: the mean of its rated matches, the last (the main event) counted twice:
    (2 + 3.25 + 2.5 + 2.5) / 4 = 2.5625, to 2.5. The match of the night: the best rated,
    the first of equals; none on a one-match card."""
    assert card_rating([2.0, 3.25, None, 2.5]) == 2.5
    assert card_rating([None, None]) is None
    assert match_of_the_night([2.0, 3.25, None, 2.5]) == 1
    assert match_of_the_night([3.0, 3.0]) == 0
    assert match_of_the_night([4.0]) is None
    assert stars(3.25) == "★★★¼ (3.25 stars)" and stars(1.0) == "★ (1 star)" and stars(None) == ""


# ---------------------------------------------------------------- each ruleset's inputs, by hand


def _side(type_id: str) -> tuple:
    """A SideRound's fields: the action played (only its round type counts here)."""
    action = Action(0, vocabulary().round_types[type_id], "stamina", "")
    return (action, bytes((3, 3, 3)), (), 9, 3, 0, 12, None, "")


def _hit(side: int, taken: int) -> tuple:
    return (side, "stamina", taken, taken, 0, taken, 20, 20 - taken)


def _check(side: int, count: int) -> tuple:
    return (side, bytes((3, 3, 3)), count, count, (0, 0, 0, 0, 0, 0, 0))


def test_matchmatch_inputs_by_hand():
    """Three rounds: side 2 takes 3 (side 1 ahead), side 1 takes 5 (side 2 ahead: a lead
    change; side 2's victory check a 2 count, IV.2.f "2-3 a 2 count": a near fall), side 2
    takes 4 (side 1 ahead again: a second change) and is pinned. A High Spot and a High Risk
    round: two high spots. Closeness: 2 x 5 / (5 + 7) = 5/6. Stars: 1/2 + 5/4 + 1/2 + 1/4 +
    1/4 + 1/2 (a pin, clean) = 13/4, 3.25."""
    rounds = [
        (1, "brawling", [1], [_side("high_spot"), _side("normal")], 0, 3, [_hit(1, 3)], [], [_check(0, 1)]),
        (2, "brawling", [1], [_side("normal"), _side("high_risk")], 1, 5, [_hit(0, 5)], [], [_check(1, 2)]),
        (3, "brawling", [1], [_side("finisher"), _side("normal")], 0, 4, [_hit(1, 4)], [], [_check(0, 3)]),
    ]
    result = MatchResult("m1", 0, "pin", 3, rounds, ["brawling"], [{}, {}], [{}, {}], [15, 13], [0, 0], [10, 10])
    inputs = mm_rating.rating_inputs(SimpleNamespace(sides=(None, None)), result)
    assert inputs == {"closeness": Fraction(5, 6), "lead_changes": 2, "near_falls": 1, "high_spots": 2, "finish": "clean", "grudge": False}
    assert match_rating(inputs, title=False)["stars"] == 3.25
    assert match_rating(inputs, title=True)["stars"] == 3.75
    dq = MatchResult("m1", 1, "dq", 3, rounds, ["brawling"], [{}, {}], [{}, {}], [15, 13], [0, 0], [10, 10])
    assert mm_rating.rating_inputs(SimpleNamespace(sides=(None, None)), dq)["finish"] == "dq"


def test_facemat_inputs_by_hand():
    """Five lines: A to space 2, B to 5 (+5: a high spot, and B leads: a change), B covers
    (kicked out: a near fall), A to 12 (+10: a high spot, A leads: a second change), A covers
    and pins (a fall, 8.a). Closeness: B's 5 over A's 12 (Start is 0). A grudge match (9.a).
    Stars: 1/2 + 3/2 x 5/12 + 1/2 + 1/4 + 1/4 + 1/2 + 1/4 = 23/8, 2.875: up to 3."""
    lines = [Line(1, "move", "", 0, 2, (2, 0)), Line(2, "move", "", 1, 5, (2, 5)), Line(3, "pin", "", 1, 0, (2, 5)),
             Line(4, "move", "", 0, 10, (12, 5)), Line(5, "pin", "", 0, 0, (12, 5))]
    result = Result(0, "pin", 5, [12, 5], lines)
    inputs = fm_rating.rating_inputs(SimpleNamespace(tables=None), result, grudge=True)
    assert inputs == {"closeness": Fraction(5, 12), "lead_changes": 2, "near_falls": 1, "high_spots": 2, "finish": "clean", "grudge": True}
    assert match_rating(inputs, title=False)["stars"] == 3.0


def _event(wrestler: int, kind: str, points: int, score: tuple) -> Event:
    return Event(0, wrestler, kind, "", points, "", score)


def test_matclash_quick_scrap_inputs_by_hand():
    """A Quick Scrap: A scores 2, B a 5-point card (a high spot; B leads), A's fall defended
    (a near fall), A a 4-point card (a high spot; A leads), a decision 6-5 (4.8: by fewer than
    8). Closeness 1 - 1/15 = 14/15. Stars: 1/2 + 7/5 + 1/2 + 1/4 + 1/4 + 1/2 = 17/5, 3.4: 3.5."""
    events = [_event(0, "play", 2, (2, 0)), _event(1, "play", 5, (2, 5)), _event(0, "no_fall", 0, (2, 5)), _event(0, "play", 4, (6, 5))]
    scrap = ScrapResult(0, "decision", "score", (6, 5), 4, 2, 0, events)
    inputs = mc_rating.rating_inputs([scrap], None)
    assert inputs == {"closeness": Fraction(14, 15), "lead_changes": 2, "near_falls": 1, "high_spots": 2, "finish": "clean", "grudge": False}
    assert match_rating(inputs, title=False)["stars"] == 3.5


def test_matclash_dual_match_inputs_by_hand():
    """A Dual Match's team points (4.8: fall 6, major decision 4): A 6-0, 6-4, then B's fall
    makes it 6-10, B ahead: one lead change. Closeness 2 x 6 / 16 = 3/4. Stars: 1/2 + 9/8 +
    1/4 + 1/2 = 19/8, 2.375: up to 2.5."""
    scraps = [ScrapResult(0, "fall", "pin", (3, 1), 5, 2, 0), ScrapResult(1, "major", "score", (2, 10), 9, 4, 1),
              ScrapResult(1, "fall", "spladle", (0, 4), 3, 1, 1)]
    inputs = mc_rating.rating_inputs(scraps, (6, 10))
    assert inputs == {"closeness": Fraction(3, 4), "lead_changes": 1, "near_falls": 0, "high_spots": 0, "finish": "clean", "grudge": False}
    assert match_rating(inputs, title=False)["stars"] == 2.5


# ---------------------------------------------------------------- a run: on by default, off by the setting


def test_a_week_rated_and_shown(demo_fed):
    """Week 1 of the demo: each match's rating in its writeup, on the card with the card's
    rating and match of the night, and in the results JSON, as the league keeps it."""
    invoke("run", "1", "--fed", demo_fed)
    results = json.loads(invoke("results", "1", "--json", "--fed", demo_fed))
    ratings = [m["rating"] for m in results]
    assert all(isinstance(r, float) and 0 <= r <= 5 and r * 4 == int(r * 4) for r in ratings)
    card = (demo_fed / "outbox/week-01/card.md").read_text(encoding="utf-8")
    assert f"The card: {stars(card_rating(ratings))}." in card
    best = results[match_of_the_night(ratings)]
    assert "Match of the night: [" in card and f"]({best['id']}.md), {stars(best['rating'])}." in card
    for m in results:
        assert f"**Rating: {stars(m['rating'])}**" in (demo_fed / f"outbox/week-01/{m['id']}.md").read_text(encoding="utf-8")
    invoke("site", "--fed", demo_fed)
    week_page = (demo_fed / "outbox/site/weeks/week-01.html").read_text(encoding="utf-8")
    assert f"The card: {stars(card_rating(ratings))}." in week_page
    assert all(stars(r) in week_page for r in ratings)


def test_ratings_off(demo_fed):
    """`ratings: false` in rosters/fed.yaml: no rating kept, none shown; the match results
    and their dice are those of a rated run."""
    rated = demo_fed.parent / "rated"
    shutil.copytree(demo_fed, rated)
    invoke("run", "1", "--fed", rated)
    settings_file = demo_fed / "rosters/fed.yaml"
    settings_file.write_text(settings_file.read_text(encoding="utf-8") + "ratings: false\n", encoding="utf-8")
    invoke("run", "1", "--fed", demo_fed)
    results = json.loads(invoke("results", "1", "--json", "--fed", demo_fed))
    assert [m["rating"] for m in results] == [None] * len(results)
    week = demo_fed / "outbox/week-01"
    assert "stars)" not in (week / "card.md").read_text(encoding="utf-8")
    assert all("Rating:" not in (week / f"{m['id']}.md").read_text(encoding="utf-8") for m in results)
    assert (week / "dice.txt").read_bytes() == (rated / "outbox/week-01/dice.txt").read_bytes()
    before = json.loads(invoke("results", "1", "--json", "--fed", rated))
    assert [(m["winner"], m["method"], m["round"]) for m in results] == [(m["winner"], m["method"], m["round"]) for m in before]


def test_ratings_setting_checked(demo_fed):
    """A `ratings:` that is no yes or no is refused, naming the file and the line."""
    settings_file = demo_fed / "rosters/fed.yaml"
    settings_file.write_text(settings_file.read_text(encoding="utf-8") + "ratings: perhaps\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", "1", "--fed", str(demo_fed)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "fed.yaml" in result.output and "ratings" in result.output


@pytest.mark.parametrize("value", [True, "3", "x", -0.25, 5.25, 2.1, float("nan")])
def test_stars_of_anything_else_is_empty(value):
    assert stars(value) == ""


def test_card_show_by_hand():
    """The card as a show: its headline is the first title that changed hands (else the
    main event's, the last match's headline), its rating and match of the night as above."""
    from fedtool.week.run import card_show

    entries = [{"file": "m1", "headline": "A def. B", "rating": 2.0}, {"file": "m2", "headline": "C def. D", "rating": 3.25},
               {"file": "m3", "headline": "E def. F", "rating": 2.5}]
    show = card_show(entries, ["C wins the World title by pin from D"])
    assert show == {"headline": "C wins the World title by pin from D", "rating": 2.5, "match_of_the_night": entries[1],
                    "title_changes": ["C wins the World title by pin from D"]}
    assert card_show(entries, [])["headline"] == "E def. F"
    unrated = [dict(e, rating=None) for e in entries]
    assert card_show(unrated, []) == {"headline": "E def. F", "rating": None, "match_of_the_night": None, "title_changes": []}
