"""Face to the Mat's changes to the league in plain words, for the card (issue 16: "the
league changes in plain words"): read from the reasons `FaceToTheMat.league_effects`
writes (TV grades 3.a, grudge grades, the HOT BOX's allies and foes 4.b, grudge match
challenges and stakes 9.a), told with the `change_*` phrases of the commentary table
(data/commentary.yaml, with the fed's templates/commentary/facemat.yaml over it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .terms import GRADES

if TYPE_CHECKING:
    from fedtool.kernel.commentary import Commentary, Teller

_GRADE = re.compile(r"^(.+): TV grade (\S+) -> (\S+)$")
_GRUDGE = re.compile(r"^(storyline|interview): grudge (-?\d+) -> (-?\d+)$")
_TURNS = re.compile(r"^storyline: (.+) turns on him \(ally -> foe\)$")
_ALLY = re.compile(r"^storyline: (.+) becomes an ally$")
_CHALLENGE = re.compile(r"^issued a grudge match challenge to (.+) \(9\.a\)$")
_STAKES = re.compile(r"^grudge match \((.+)\)$")
LEAVES_TOWN = "lost a loser-leaves-town grudge match: leaves town"
TITLE_SHOT = "won a title shot in a grudge match"


def _why(why: str, rose: bool, say) -> str | None:
    """Why a TV grade moved, as the end of a sentence."""
    if why == "upset (won as the underdog)":
        return say("change_why_upset_win")
    if why == "upset (lost as the favorite)":
        return say("change_why_upset_loss")
    if why in ("storyline", "interview"):
        return say(f"change_why_{why}")
    if found := _STAKES.match(why):
        return say("change_why_grudge_won" if rose else "change_why_grudge_lost", stakes=found.group(1))
    return None


def _moved(before: str, after: str) -> str:
    if after == before:
        return "stays"
    return "rises" if GRADES.index(after) < GRADES.index(before) else "falls"


def tell_change(name: str, reason: str, words: Commentary) -> list[str] | None:
    """A wrestler's changes as sentences: his TV grade's moves as one ("Vince Valor's TV
    grade rises from B to AA after winning the grudge match (TV grades on the line), then to
    AAA after an interview."), then each other change. None: a reason this does not know.
    `words`: the phrase table (its `change_*` kinds), chosen by the name and the reason."""
    teller: Teller = words.teller(f"league change\x00{name}\x00{reason}")

    def say(kind: str, **values: str) -> str:
        return teller.say(kind, None, **values)

    grade: list[str] = []
    sentences: list[str] = []
    for part in reason.split("; "):
        if (found := _GRADE.match(part)) and found.group(2) in GRADES and found.group(3) in GRADES:
            why, before, after = found.groups()
            moved = _moved(before, after)
            told = _why(why, moved == "rises" or (moved == "stays" and why.startswith("upset (won")), say)
            if told is None:
                return None
            if not grade:
                grade.append(say(f"change_grade_{moved}", name=name, before=before, after=after, why=told))
            else:
                grade.append(say(f"change_grade_then_{moved}", after=after, why=told))
        elif found := _GRUDGE.match(part):
            source, before, after = found.groups()
            way = "rises" if int(after) > int(before) else "falls"
            sentences.append(say(f"change_grudge_{way}", name=name, before=before, after=after, why=say(f"change_why_{source}")))
        elif found := _TURNS.match(part):
            sentences.append(say("change_turns", name=name, other=found.group(1)))
        elif found := _ALLY.match(part):
            sentences.append(say("change_ally", name=name, other=found.group(1)))
        elif found := _CHALLENGE.match(part):
            sentences.append(say("change_challenge", name=name, other=found.group(1)))
        elif part == LEAVES_TOWN:
            sentences.append(say("change_leaves_town", name=name))
        elif part == TITLE_SHOT:
            sentences.append(say("change_title_shot", name=name))
        else:
            return None
    return ([", ".join(grade) + "."] if grade else []) + sentences or None
