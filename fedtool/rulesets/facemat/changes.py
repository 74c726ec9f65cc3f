"""Face to the Mat's changes to the league in plain words, for the card (issue 16: "the
league changes in plain words"): read from the reasons `FaceToTheMat.league_effects`
writes (TV grades 3.a, grudge grades, the HOT BOX's allies and foes 4.b, grudge match
challenges and stakes 9.a)."""

from __future__ import annotations

import re

from .terms import GRADES

_GRADE = re.compile(r"^(.+): TV grade (\S+) -> (\S+)$")
_GRUDGE = re.compile(r"^(storyline|interview): grudge (-?\d+) -> (-?\d+)$")
_TURNS = re.compile(r"^storyline: (.+) turns on him \(ally -> foe\)$")
_ALLY = re.compile(r"^storyline: (.+) becomes an ally$")
_CHALLENGE = re.compile(r"^issued a grudge match challenge to (.+) \(9\.a\)$")
_STAKES = re.compile(r"^grudge match \((.+)\)$")
LEAVES_TOWN = "lost a loser-leaves-town grudge match: leaves town"
TITLE_SHOT = "won a title shot in a grudge match"


def _why(why: str, rose: bool) -> str | None:
    """Why a TV grade moved, as the end of a sentence."""
    if why == "upset (won as the underdog)":
        return "with an upset win as the underdog"
    if why == "upset (lost as the favorite)":
        return "with an upset loss as the favorite"
    if why in ("storyline", "interview"):
        return "in a storyline" if why == "storyline" else "after an interview"
    if found := _STAKES.match(why):
        return f"after {'winning' if rose else 'losing'} the grudge match ({found.group(1)} on the line)"
    return None


def _moved(before: str, after: str) -> str:
    if after == before:
        return "stays"
    return "rises" if GRADES.index(after) < GRADES.index(before) else "falls"


def tell_change(name: str, reason: str) -> list[str] | None:
    """A wrestler's changes as sentences: his TV grade's moves as one ("Vince Valor's TV
    grade rises from B to AA after winning the grudge match (TV grades on the line), then to
    AAA after an interview."), then each other change. None: a reason this does not know."""
    grade: list[str] = []
    sentences: list[str] = []
    for part in reason.split("; "):
        if (found := _GRADE.match(part)) and found.group(2) in GRADES and found.group(3) in GRADES:
            why, before, after = found.groups()
            moved = _moved(before, after)
            told = _why(why, moved == "rises" or (moved == "stays" and why.startswith("upset (won")))
            if told is None:
                return None
            if not grade:
                grade.append(f"{name}'s TV grade {moved} {'at' if moved == 'stays' else 'from'} {before}{'' if moved == 'stays' else f' to {after}'} {told}")
            else:
                grade.append(f"then {moved} {'at' if moved == 'stays' else 'to'} {after} {told}")
        elif found := _GRUDGE.match(part):
            source, before, after = found.groups()
            way = "rises" if int(after) > int(before) else "falls"
            sentences.append(f"{name}'s grudge grade {way} from {before} to {after} {'in a storyline' if source == 'storyline' else 'after an interview'}.")
        elif found := _TURNS.match(part):
            sentences.append(f"{found.group(1)} turns on {name}: an ally no more, now a foe.")
        elif found := _ALLY.match(part):
            sentences.append(f"{found.group(1)} becomes {name}'s ally.")
        elif found := _CHALLENGE.match(part):
            sentences.append(f"{name} challenges {found.group(1)} to a grudge match.")
        elif part == LEAVES_TOWN:
            sentences.append(f"{name} lost a loser-leaves-town grudge match and leaves town.")
        elif part == TITLE_SHOT:
            sentences.append(f"{name} wins a title shot in the grudge match.")
        else:
            return None
    return ([", ".join(grade) + "."] if grade else []) + sentences or None
