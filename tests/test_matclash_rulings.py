"""Mat Clash: the rulings of issue 15 (docs/rulings/mat-clash.md 4.10, 4.14, 4.16-4.18 and the
settings of section 5) and the writeup's telling of a scrap.

Each ruling is checked on hands stacked card by card (the helpers of test_matclash_cards), under
its default (the rulebook's reading) and under each fed setting (`engine.Rules`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_matclash_cards import (
    Prefer,
    Script,
    actions,
    give,
    ids,
    kept_in_place,
    score,
    scrap_of,
    stack,
    winning,
)
from test_matclash_properties import (
    NAMES,
    assert_clean,
    deck_of,
    games,
    policies,
    watching,
)

from fedtool.kernel.dice import SeededDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.base import Booking
from fedtool.rulesets.matclash import MatClash, MatClashSettings, Played, engine
from fedtool.rulesets.matclash.engine import BOTTOM, TOP

ROOT = Path(__file__).resolve().parent.parent


def rules(**kw):
    return engine.Rules(**kw)


def with_rules(scrap, **kw):
    """The scrap under the fed settings `kw` (none: the defaults, untouched)."""
    if kw:
        scrap.rules = rules(**kw)
    return scrap


# ---------------------------------------------------------------------------- 4.10 Stalling's ban


@pytest.mark.parametrize("finisher", ["pin", "mat_beast"])
def test_stalling_ban_covers_momentums_extra_play_and_the_next_turn(finisher):
    """Stalling: "You cannot play a Pin card or MAT BEAST card directly after a Stalling card."
    Rulings 4.10: the ban holds for the staller's next play: Momentum's extra play, and (if that
    plays nothing) his next turn, which comes directly after, the opponent's being skipped."""
    red = Script(plays=["stalling", None], momentum=[True])
    scrap = scrap_of([["stalling", "momentum", finisher, "wizardry"], ["defense"]], turn=2, deck=["escape"], scripts=(red, Script()))
    scrap.take_turn(0)  # Stalling, then Momentum: the extra play offers no finisher; he plays nothing
    assert finisher not in actions(red.offered[1])
    assert actions(red.offered[1]) == {"wizardry"}  # offered, declined
    assert ids(scrap.hands[0]) == [finisher, "wizardry", "escape"]
    scrap.turn = 3
    scrap.take_turn(1)  # skipped by the Stalling
    scrap.turn = 4
    assert finisher not in actions(scrap.turn_options(0))  # his next turn: still directly after the Stalling


@pytest.mark.parametrize("finisher", ["pin", "mat_beast"])
def test_stalling_ban_setting_turn_ends_with_the_stallers_turn(finisher):
    """4.10, setting `stalling_ban: turn`: the ban lasts to the end of the staller's turn, Momentum's
    extra play included; in his next turn he may Pin."""
    red = Script(plays=["stalling", None], momentum=[True])
    scrap = with_rules(scrap_of([["stalling", "momentum", finisher, "wizardry"], ["defense"]], turn=2, deck=["escape"], scripts=(red, Script())),
                       stalling_ban="turn")
    scrap.take_turn(0)
    assert finisher not in actions(red.offered[1])  # Momentum's extra play is part of the turn
    scrap.turn = 3
    scrap.take_turn(1)
    scrap.turn = 4
    assert finisher in actions(scrap.turn_options(0))


# ---------------------------------------------------------------------------- 4.14 Wizardry


def wizardry_scrap(**kw):
    """Blue's stack: Takedown 3, Escape +2 2, then Red's own Stalling (its point credited to Blue: 4.4),
    then Blue's Momentum 0 and Near Fall +2 2. Red then plays Wizardry."""
    red = Script(plays=["stalling", "wizardry"])
    scrap = with_rules(scrap_of([["stalling", "wizardry"], []], deck=["defense"], scripts=(red, Script())), **kw)
    give(scrap, 1, ("takedown", 3), ("escape_2", 2))
    scrap.take_turn(0)  # Stalling: Blue +1, in Blue's stack
    give(scrap, 1, ("momentum", 0), ("near_fall_2", 2))
    assert score(scrap) == (0, 8)
    scrap.turn = 4
    scrap.take_turn(0)  # Wizardry
    return scrap


def test_wizardry_erases_his_last_three_cards_not_my_stalling():
    """Wizardry: "Removes the points from your opponent's last three cards. Those cards go to the Negate
    pile." Its example counts a "+0 Momentum" among the three. Rulings 4.14: the last three cards HE played
    into his stack, 0-point ones included; Red's own Stalling (its point in Blue's stack) is Red's card and
    stays. Erased: Escape +2, Momentum, Near Fall +2 (4 points); left: Takedown 3 + Stalling 1."""
    scrap = wizardry_scrap()
    assert ids(scrap.negate) == ["escape_2", "momentum", "near_fall_2"]
    assert stack(scrap, 1) == [("takedown", 3), ("stalling", 1)]
    assert score(scrap) == (0, 4)
    assert scrap.positions == [TOP, BOTTOM]


def test_wizardry_setting_stack_erases_the_stack_as_it_lies():
    """4.14, setting `wizardry_erases: stack`: the last three entries of his stack, Red's Stalling included."""
    scrap = wizardry_scrap(wizardry_erases="stack")
    assert ids(scrap.negate) == ["stalling", "momentum", "near_fall_2"]
    assert stack(scrap, 1) == [("takedown", 3), ("escape_2", 2)]
    assert score(scrap) == (0, 5)


def test_wizardry_setting_scoring_erases_his_last_three_scoring_cards():
    """4.14, setting `wizardry_erases: scoring`: his last three cards that scored; the 0-point Momentum and
    Red's Stalling are passed over."""
    scrap = wizardry_scrap(wizardry_erases="scoring")
    assert ids(scrap.negate) == ["takedown", "escape_2", "near_fall_2"]
    assert stack(scrap, 1) == [("stalling", 1), ("momentum", 0)]
    assert score(scrap) == (0, 1)


def test_wizardry_skips_the_cut_em_point_too():
    """4.14: Cut Em "gives them 1 point": Red's Cut Em lies in Blue's stack but is Red's card; Blue's last
    three cards are his Escape, Defense and Escape before it."""
    red = Script(plays=["takedown", "takedown", "wizardry"], cut_em=[True])
    scrap = scrap_of([["takedown", "cut_em", "takedown", "wizardry"], []], turn=0, scripts=(red, Script()))
    give(scrap, 1, ("escape", 1), ("defense", 0), ("escape", 1))
    scrap.take_turn(0)  # Takedown, Cut Em (Blue +1), Takedown
    assert stack(scrap, 1) == [("escape", 1), ("defense", 0), ("escape", 1), ("cut_em", 1)]
    scrap.turn = 2
    scrap.take_turn(0)
    assert ids(scrap.negate) == ["escape", "defense", "escape"]
    assert stack(scrap, 1) == [("cut_em", 1)] and score(scrap) == (6, 1)


# ---------------------------------------------------------------------------- 4.16 Spladle v Resilience


def spladle_on_resilient(wild_answer=None, **kw):
    red = Script(plays=["takedown", "spladle"], momentum=[True])
    blue = Script(answers=[None, wild_answer])
    scrap = with_rules(scrap_of([["takedown", "momentum", "spladle"], ["defense", "beastin"]], turn=4, scripts=(red, blue)), **kw)
    scrap.resilient = [False, True]  # Blue played Resilience earlier this scrap (4.6)
    scrap.take_turn(0)
    return scrap, blue


def test_spladle_scores_but_does_not_pin_an_unpinnable_wrestler():
    """Resilience (Unpinnable) "Prevents your opponent from converting a Feet-To-Back card into a Pin";
    Spladle: "Your opponent must play a Beastin' (Wild) card to avoid being pinned." Rulings 4.16: against
    Resilience the Spladle scores its +4 and is no fall; Blue is not asked for a Beastin' (keeps it)."""
    scrap, blue = spladle_on_resilient()
    assert scrap.fall is None
    assert score(scrap) == (7, 0)
    assert stack(scrap, 0) == [("takedown", 3), ("momentum", 0), ("spladle", 4)]
    assert [t for t, _ in blue.asked] == ["takedown"]  # nothing asked about the Spladle
    assert ids(scrap.hands[1]) == ["defense", "beastin"]
    assert scrap.events[-1].kind == "no_fall"


def test_spladle_setting_resilience_does_not_stop_it():
    """4.16, setting `resilience_stops_spladle: false`: Resilience's list is complete; the undefended
    Spladle pins him."""
    scrap, blue = spladle_on_resilient(resilience_stops_spladle=False)
    assert scrap.fall == (0, "spladle")
    assert [t for t, _ in blue.asked] == ["takedown", "spladle"]


# ---------------------------------------------------------------------------- 4.17 falls before the Pin timing


@pytest.mark.parametrize("turn, pin_after", [(0, 1), (1, 1), (0, 2), (2, 2), (2, 1)])
def test_feet_to_back_falls_before_the_pin_timing_by_default(turn, pin_after):
    """Ways the Match Ends: "A wrestler plays FEET TO BACK and the opponent does not have a Defense card
    (automatic pin)" -- without the "after the first transition" said of Pin and MAT BEAST. Rulings 4.17:
    a fall at any time."""
    scrap = scrap_of([["feet_to_back"], ["escape"]], turn=turn, pin_after=pin_after, scripts=(Script(plays=["feet_to_back"]), Script()))
    scrap.take_turn(0)
    assert scrap.fall == (0, "feet_to_back")


@pytest.mark.parametrize("turn, pin_after, falls", [(0, 1, False), (1, 1, False), (2, 1, True), (2, 2, False), (3, 2, False), (4, 2, True)])
def test_early_falls_setting_no_fall_before_the_pin_timing(turn, pin_after, falls):
    """4.17, setting `early_falls: no_fall`: before the Pin timing ("until the first transition is
    complete", Dual "until completion of the second transition") an undefended Feet to Back scores 7 and
    puts him on bottom, back exposed, as a defended one does (4.2): a Near Fall may follow."""
    red = Script(plays=["feet_to_back"])
    scrap = with_rules(scrap_of([["feet_to_back", "near_fall_3"], ["escape"]], turn=turn, pin_after=pin_after, scripts=(red, Script())),
                       early_falls="no_fall")
    scrap.take_turn(0)
    if falls:
        assert scrap.fall == (0, "feet_to_back")
        return
    assert scrap.fall is None
    assert score(scrap) == (7, 0) and stack(scrap, 0) == [("feet_to_back", 7)]
    assert scrap.positions == [TOP, BOTTOM]
    assert scrap.exposed[0] == "feet_to_back"
    assert "near_fall" in actions(scrap.turn_options(0))


@pytest.mark.parametrize("early_falls, falls", [("fall", True), ("no_fall", False)])
def test_spladle_before_the_pin_timing(early_falls, falls):
    """4.17: a Spladle (after Momentum directly after a Takedown) in the first transition: a fall by default;
    with `early_falls: no_fall` its +4 stands, no fall, and no Beastin' is asked for."""
    red = Script(plays=["takedown", "spladle"], momentum=[True])
    blue = Script()
    scrap = with_rules(scrap_of([["takedown", "momentum", "spladle"], ["beastin"]], turn=0, scripts=(red, blue)), early_falls=early_falls)
    scrap.take_turn(0)
    assert score(scrap) == (7, 0)
    assert scrap.fall == ((0, "spladle") if falls else None)
    assert [t for t, _ in blue.asked] == (["takedown", "spladle"] if falls else ["takedown"])


def test_early_falls_setting_in_a_whole_quick_scrap():
    """4.17 over a whole Quick Scrap: Red wins the 10th card and opens with an undefended Feet to Back.
    Default: a fall in turn 1. `no_fall`: 7 points, Blue on bottom; Red's Near Fall +3 follows in his next
    turn; both then pass: a decision, 10-0."""
    deck = winning(0, ["feet_to_back", "near_fall_3"], ["defense"] * 4)
    red = Prefer(order=("feet_to_back", "near_fall"))
    result = engine.quick_scrap(["Red", "Blue"], [red, Prefer(order=())], deck, kept_in_place(len(deck)))
    assert (result.winner, result.method, result.finish, result.turns) == (0, "fall", "feet_to_back", 1)
    red = Prefer(order=("feet_to_back", "near_fall"))
    result = engine.quick_scrap(["Red", "Blue"], [red, Prefer(order=())], deck, kept_in_place(len(deck)), rules=rules(early_falls="no_fall"))
    assert (result.winner, result.method, result.finish, result.score) == (0, "major", "score", (10, 0))


# ---------------------------------------------------------------------------- 4.18 a tie card while ahead


@pytest.mark.parametrize("tie", ["comeback", "mindset"])
def test_tie_card_while_ahead_ties_the_score(tie):
    """Comeback: "Immediately ties the score at that moment"; Mindset: "immediately brings the match to a
    tied score at that point"; both "at any point during the match". Rulings 4.18 (and 4.4): played 5-2
    ahead it is credited -3: 2-2, and he is on top."""
    scrap = scrap_of([[tie], []], positions=(BOTTOM, TOP), scripts=(Script(plays=[tie]), Script()))
    give(scrap, 0, ("takedown", 3), ("reversal", 2))
    give(scrap, 1, ("reversal", 2))
    scrap.take_turn(0)
    assert score(scrap) == (2, 2)
    assert stack(scrap, 0) == [("takedown", 3), ("reversal", 2), (tie, -3)]
    assert scrap.positions == [TOP, BOTTOM]


@pytest.mark.parametrize("tie", ["comeback", "mindset"])
def test_tie_card_while_ahead_setting_no_points(tie):
    """4.18, setting `tie_when_ahead: no_points`: it scores 0, the score stays 5-2, he goes on top."""
    scrap = with_rules(scrap_of([[tie], []], positions=(BOTTOM, TOP), scripts=(Script(plays=[tie]), Script())), tie_when_ahead="no_points")
    give(scrap, 0, ("takedown", 3), ("reversal", 2))
    give(scrap, 1, ("reversal", 2))
    scrap.take_turn(0)
    assert score(scrap) == (5, 2)
    assert stack(scrap, 0)[-1] == (tie, 0)
    assert scrap.positions == [TOP, BOTTOM]


@pytest.mark.parametrize("tie", ["comeback", "mindset"])
@pytest.mark.parametrize("mine, his, offered", [(5, 2, False), (2, 2, True), (2, 5, True)])
def test_tie_card_while_ahead_setting_not_playable(tie, mine, his, offered):
    """4.18, setting `tie_when_ahead: not_playable`: no tie card while ahead; level or behind, as ever."""
    scrap = with_rules(scrap_of([[tie], []]), tie_when_ahead="not_playable")
    give(scrap, 0, ("takedown", mine))
    give(scrap, 1, ("takedown", his))
    assert ("tie" in actions(scrap.turn_options(0))) is offered


@pytest.mark.parametrize("tie", ["comeback", "mindset"])
def test_tie_card_level_scores_nothing(tie):
    """4.18: played level, the score is already tied: 0 points, on top (every setting)."""
    for setting in ("tie", "no_points", "not_playable"):
        scrap = with_rules(scrap_of([[tie], []], positions=(BOTTOM, TOP), scripts=(Script(plays=[tie]), Script())), tie_when_ahead=setting)
        give(scrap, 0, ("takedown", 3))
        give(scrap, 1, ("takedown", 3))
        scrap.take_turn(0)
        assert score(scrap) == (3, 3) and stack(scrap, 0)[-1] == (tie, 0) and scrap.positions == [TOP, BOTTOM]


# ---------------------------------------------------------------------------- the settings


def test_settings_reach_the_engine_and_bad_values_are_named():
    """Section 5: each reading is a setting under `rulesets: matclash:`; the defaults are the rulebook's;
    a bad value is a FedError naming rosters/fed.yaml and the field, never a traceback."""
    assert MatClash().settings({}).rules() == engine.Rules()
    assert engine.Rules() == engine.Rules("next_play", "his_cards", True, "fall", "tie")
    chosen = {"stalling_ban": "turn", "wizardry_erases": "scoring", "resilience_stops_spladle": False, "early_falls": "no_fall", "tie_when_ahead": "not_playable"}
    assert MatClash().settings(chosen).rules() == engine.Rules(**chosen)
    with pytest.raises(FedError) as err:
        MatClash().settings({"wizardry_erases": "everything"})
    text = str(err.value)
    assert "rosters/fed.yaml" in text and "wizardry_erases" in text and "his_cards" in text


def test_rulings_doc_and_readme_list_every_reading_with_its_default():
    """The rulings doc's settings table and README's settings YAML name each reading setting with the
    model's default (the doc and the engine never disagree)."""
    readings = [f for f in MatClashSettings.model_fields if f not in ("sets", "deck", "missing_strategy")]
    assert readings == ["stalling_ban", "wizardry_erases", "resilience_stops_spladle", "early_falls", "tie_when_ahead"]
    doc = (ROOT / "docs/rulings/mat-clash.md").read_text(encoding="utf-8")
    table = doc.split("## 5. Settings", 1)[1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for field in readings:
        default = MatClashSettings.model_fields[field].default
        shown = str(default).lower() if isinstance(default, bool) else default
        assert re.search(rf"^\| `{field}` \| `{shown}`", table, re.M), field
        assert re.search(rf"\b{field}: {shown}\b", readme), field


# ---------------------------------------------------------------------------- the writeup


def described(result) -> dict:
    setup = {"names": ["Red", "Blue"], "moves": [{}, {}]}
    played = Played("quick_scrap", [result], result.winner, result.method, None, False, [])
    return MatClash().describe(Booking(None, setup, []), played)


def test_writeup_gives_the_winners_score_first():
    """Issue 15: "Gus Halvorsen def. Tommy Reyes (by decision, 7-2)", not 2-7: Blue, listed second, wins
    7-0 (a Takedown and a Near Fall +4 after Red loses his turn on bottom)."""
    deck = winning(1, ["near_fall_4"], ["defense"] * 4)
    result = engine.quick_scrap(["Red", "Blue"], [Prefer(), Prefer()], deck, kept_in_place(len(deck)))
    assert result.score == (0, 7) and result.winner == 1
    d = described(result)
    assert d["headline"] == "Quick Scrap: Blue def. Red (by decision, 7-0)"
    assert d["scraps"][0]["result"] == "Blue wins by decision, 7-0"


def test_writeup_tells_each_transition_from_where_it_starts():
    """Each transition opens with the positions and the score it starts from; a play that moves the
    wrestlers says where they are now; a skipped turn names the card that skipped it; a pass says where
    the wrestler passed from; the 10th-card draw names the cards."""
    deck = winning(1, ["near_fall_4"], ["defense"] * 4)
    result = engine.quick_scrap(["Red", "Blue"], [Prefer(), Prefer()], deck, kept_in_place(len(deck)))
    d = described(result)["scraps"][0]
    assert d["opening"] == ["10th-card draw: Red Defense +0 (0) v Blue Takedown +3 (3).", "Blue wins the 10th-card draw and starts."]
    t = d["transitions"]
    assert [x["state"] for x in t] == ["both neutral; Red 0, Blue 0", "Blue on top, Red on bottom; Red 0, Blue 3",
                                      "Blue on top, Red on bottom; Red 0, Blue 7"]
    assert t[0]["lines"] == ["Blue plays Takedown +3, +3: Takedown (Red 0, Blue 3); now Blue on top, Red on bottom.",
                             "Red passes, on bottom."]
    assert t[1]["lines"] == ["Blue plays Near Fall +4, +4: Near Fall (Red 0, Blue 7).", "Red passes, on bottom."]


def test_writeup_names_what_skipped_a_turn():
    """Momentum "skip[s] your opponent's next turn": the writeup says whose Momentum."""
    red = Script(plays=["takedown"], momentum=[True])
    scrap = scrap_of([["takedown", "momentum"], ["escape"]], turn=0, scripts=(red, Script()))
    scrap.take_turn(0)
    scrap.turn = 1
    scrap.take_turn(1)
    result = engine.ScrapResult(0, "decision", "score", score(scrap), 2, 1, 0, scrap.events)
    lines = described(result)["scraps"][0]["transitions"][0]["lines"]
    assert lines[-1] == "Blue's turn is skipped (Red's Momentum)."


# ---------------------------------------------------------------------------- every setting, random play

RULES = st.builds(engine.Rules, stalling_ban=st.just("next_play"), wizardry_erases=st.sampled_from(["his_cards", "stack", "scoring"]),
                  resilience_stops_spladle=st.booleans(), early_falls=st.sampled_from(["fall", "no_fall"]),
                  tie_when_ahead=st.sampled_from(["tie", "no_points", "not_playable"]))


@settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), RULES, st.sampled_from([(2, 1), (3, 2)]))
def test_every_setting_keeps_every_invariant(game, chosen, limits):
    """Under any choice of the settings (stalling_ban aside: the watcher reads it as next_play), random legal
    play keeps the books, the scores as the sums of their stacks, the timing and the results
    (test_matclash_properties' watcher); with `early_falls: no_fall` no Feet to Back or Spladle falls before
    the Pin timing, and with `resilience_stops_spladle` no Spladle pins a Resilient wrestler."""
    seed, deck_name, tempers = game
    draws, pin_after = limits
    for k in range(4):
        with watching() as made:
            result = engine.quick_scrap(NAMES, policies(seed + k, tempers), deck_of(deck_name), SeededDice(seed + k), draws, pin_after, chosen)
        made[0].watch.finish(result)
        assert_clean(made)
        scrap = made[0]
        if result.finish in ("feet_to_back", "spladle") and chosen.early_falls == "no_fall":
            assert (result.turns - 1) // 2 >= pin_after
        if result.finish == "spladle" and chosen.resilience_stops_spladle:
            assert not scrap.resilient[1 - result.winner]
