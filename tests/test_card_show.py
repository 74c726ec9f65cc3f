"""The card as a show (issue 16, item 5): a headline that is not the match of the night's
own headline over again, and the league's changes in plain words (each ruleset tells its
own, `Ruleset.tell_league_change`), never ledger rows."""

from __future__ import annotations

import re

import pytest

from fedtool.rulesets.base import Ruleset
from fedtool.rulesets.facemat import FaceToTheMat
from fedtool.rulesets.matchmatch import MatchMatch
from fedtool.week.show import ShowMatch, card_show, headline, title_words


def _match(file, winners, losers, rating, method="pin", title=None):
    return ShowMatch({"file": file, "headline": f"{' & '.join(winners)} def. {' & '.join(losers)} ({file})", "rating": rating},
                     winners, losers, winners + losers, method, title)


def test_the_headline_is_never_the_match_of_the_nights():
    """The main event is the match of the night: the headline tells it as the night's story."""
    matches = [_match("m1", ["A"], ["B"], 2.0), _match("m2", ["C"], ["D"], 4.5)]
    entries = [m.entry for m in matches]
    show = card_show(entries, [], matches)
    assert show["match_of_the_night"] is entries[1]
    assert show["headline"] == "C beats D in a main event that steals the show"
    assert show["headline"] != entries[1]["headline"]


def test_the_headline_names_the_main_event_and_the_match_of_the_night():
    matches = [_match("m1", ["A"], ["B"], 4.0), _match("m2", ["C", "E"], ["D", "F"], 2.0, "dq")]
    assert headline(matches, 0) == "C & E beat D & F by disqualification in the main event, while A and B steal the show"


def test_the_main_event_is_the_match_the_card_bills_so():
    """A card that bills a match "Main event" (its `title:`) is believed, wherever it stands;
    without one the last match is the main event (the demo's week 1 bills its fourth)."""
    matches = [_match("m1", ["A"], ["B"], 4.0), _match("m2", ["C"], ["D"], 2.0, "submission"), _match("m3", ["E"], ["F"], 1.0)]
    matches[1].entry["billing"] = "Main event"
    assert headline(matches, 0) == "C beats D in the main event, while A and B steal the show"
    matches[1].entry["billing"] = "Heavy metal"
    assert headline(matches, 0) == "E beats F in the main event, while A and B steal the show"


def test_the_headline_leads_with_a_title_won():
    """A title that changed hands leads, before the main event; a second one follows it."""
    won = {"result": "won", "name": "World Title", "holder_name": "B", "holder_before": "b", "winner": "a"}
    vacant = {"result": "won", "name": "TV Title", "holder_name": None, "holder_before": None, "winner": "e"}
    matches = [_match("m1", ["A"], ["B"], 3.0, title=won), _match("m2", ["E"], ["F"], 2.0, title=vacant), _match("m3", ["C"], ["D"], 2.5)]
    assert headline(matches, 0) == "A takes the World Title from B in the match of the night, and E wins the vacant TV Title"
    assert headline(matches[:1] + matches[2:], 1) == "A takes the World Title from B, while C and D steal the show"


def test_the_headline_of_a_draw_and_of_a_title_kept():
    kept = {"result": "defended", "name": "The Belt", "holder_name": "C", "holder_before": "c", "winner": None}
    draw = ShowMatch({"file": "m1", "headline": "x", "rating": None}, [], [], ["C", "D", "E"], "time_limit", kept)
    assert headline([draw], None) == "C keeps The Belt after a time-limit draw"
    draw.title = None
    assert headline([draw], None) == "C, D and E fight to a time-limit draw"


def test_a_title_told_without_its_finish():
    """The finish has been told by then: the title's line says only what became of it."""
    names = {"a": "A", "b": "B"}
    row = {"result": "defended", "holder_before": "b", "winner": "a"}
    assert title_words(row, "Open Title", "does not change hands on a disqualification", names) == \
        "The Open Title does not change hands on a disqualification: B retains it."
    assert title_words({**row, "result": "won"}, "Open Title", "", names) == "A wins the Open Title from B."
    assert title_words({**row, "result": "won", "holder_before": None}, "Open Title", "", names) == "A wins the vacant Open Title."


# ---------------------------------------------------------------- the league's changes told


def test_matchmatch_push_in_plain_words():
    """MatchMatch Part II: "If you defeat someone at a higher push level, you immediately rise
    a push level"; a win at your own level is worth 1 point, one level lower 1/2 ("Own push
    level: 1 point ... one level lower: 1/2"); "If you lose to someone of equal rank you lose a
    full push point", and below 0 "you drop a push level" with 2 minus the leftover."""
    tell = MatchMatch().tell_league_change
    assert tell("Dr. Victor Vane", "beat Kate Galloway (Part II): level 3 (0 pts) -> level 4 (0 pts)", {}) == \
        ["Dr. Victor Vane rises to push level 4 by beating Kate Galloway."]
    assert tell("Relámpago", "beat Mad Dog Maddox (Part II): level 2 (0 pts) -> level 2 (1/2 pts)", {}) == \
        ["Relámpago gains 1/2 push point by beating Mad Dog Maddox (push level 2, 1/2 of the 2 points to rise)."]
    assert tell("Brother Bob", "lost to Friendly Sam (Part II): level 2 (0 pts) -> level 1 (1 pts); 2 injury points (IV.2.e)", {}) == \
        ["Brother Bob drops to push level 1 after losing to Friendly Sam (1 push point to build on), and picks up 2 injury points."]
    assert tell("Sam", "lost to Bob (Part II): level 2 (1 1/2 pts) -> level 2 (1 pts)", {}) == \
        ["Sam gives up 1/2 push point in defeat to Bob (push level 2, 1 left)."]
    # IV.2.e: "Each week, they heal 1d6 worth of injury points ... modified by -4" for those who wrestled
    assert tell("Kate", "healed 1 (1d6 = 5 - 4 for wrestling)", {}) == ["Kate heals 1 injury point (1d6 rolled 5 less 4 for wrestling this week)."]


def test_face_to_the_mat_changes_in_plain_words():
    """3.a TV grades AAA (best) to F; 9.a a grudge match "Always causes TV Grade changes"."""
    tell = FaceToTheMat().tell_league_change
    assert tell("Vince Valor", "grudge match (TV grades): TV grade B -> AA; interview: TV grade AA -> AAA", {}) == \
        ["Vince Valor's TV grade rises from B to AA after winning the grudge match (TV grades on the line), then rises to AAA after an interview."]
    assert tell("The Warden", "upset (won as the underdog): TV grade C -> B; storyline: grudge 4 -> 5; "
                "issued a grudge match challenge to La Rosa Negra (9.a)", {}) == \
        ["The Warden's TV grade rises from C to B with an upset win as the underdog.", "The Warden's grudge grade rises from 4 to 5 in a storyline.",
         "The Warden challenges La Rosa Negra to a grudge match."]
    assert tell("Hank", "storyline: Kid Comet turns on him (ally -> foe); storyline: Sister Sorrow becomes an ally", {}) == \
        ["Kid Comet turns on Hank: an ally no more, now a foe.", "Sister Sorrow becomes Hank's ally."]


@pytest.mark.parametrize("ruleset", [Ruleset(), MatchMatch(), FaceToTheMat()], ids=["default", "matchmatch", "facemat"])
def test_a_reason_no_ruleset_knows_is_told_as_it_stands(ruleset):
    assert ruleset.tell_league_change("A", "struck by lightning", {}) == ["A: struck by lightning."]


def test_the_demo_cards_tell_the_show(demo_fed, fedtool):
    """Every demo card: its headline is not the match of the night's, and its league changes are
    sentences, not "reason: level 2 (0 pts) -> level 1 (1 pts)" rows."""
    for week in (1, 2, 3, 4, 5):
        assert fedtool("run", str(week), "--fed", demo_fed).exit_code == 0
        card = (demo_fed / f"outbox/week-{week:02d}/card.md").read_text(encoding="utf-8")
        top = re.search(r"## Tonight\n\n\*\*(.+)\*\*\n", card).group(1)
        best = re.search(r"Match of the night: \[(.+)\]\(", card)
        assert best is None or best.group(1) != top, week
        changes = card.split("## League changes\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert changes and all(line.startswith("- ") and line.endswith(".") for line in changes), changes
        assert not any("->" in line or "(Part II)" in line or "(IV.2.e)" in line or "(9.a)" in line for line in changes), changes
    week1 = (demo_fed / "outbox/week-01/card.md").read_text(encoding="utf-8")
    assert "- Dr. Victor Vane rises to push level 4 by beating Kate \"The Gate\" Galloway.\n" in week1
    week3 = (demo_fed / "outbox/week-03/card.md").read_text(encoding="utf-8")
    assert "**The Warden beats Vince Valor in a main event that steals the show**" in week3


def test_the_headline_of_many_sides():
    """Partners beat partners ("&"); one man beats two or three named; a crowd is counted."""
    assert headline([_match("m1", ["A"], ["B", "C"], None)], None) == "A beats B and C"
    assert headline([_match("m1", ["A"], ["B", "C", "D", "E", "F"], None)], None) == "A outlasts five others"
    assert headline([_match("m1", ["A", "B"], ["C", "D"], None)], None) == "A & B beat C & D"
