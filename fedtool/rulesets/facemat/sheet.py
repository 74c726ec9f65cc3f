"""Face to the Mat wrestler cards (rulebook 3), read and checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fedtool.kernel.errors import Collector
from fedtool.kernel.validation import place, validate
from .rules import parse_range
from .terms import GRADES, SKILLS, SYMBOLS


@dataclass(frozen=True)
class Wrestler:
    id: str
    name: str
    tv_grade: str
    grudge: int
    alignment: str
    skills: dict  # skill -> symbol
    finisher_name: str
    finisher_range: tuple[int, int]
    signature_moves: dict
    allies: tuple[str, ...] = ()
    foes: tuple[str, ...] = ()
    members: tuple = field(default=())
    owner_name: str = ""
    owner_email: str = ""
    tiers: str | tuple = "average"  # 10.h: superior | average | inferior, or (gold, silver, bronze) points


def read_card(data: Any, file: str, wrestler_id: str) -> Wrestler:
    from .models import CardModel  # pydantic's, imported when a card is first checked (issue 18)

    model = validate(CardModel, data, file, "Face to the Mat wrestler card (3)")
    problems = Collector()
    grade = model.tv_grade.strip().upper()
    if grade not in GRADES:
        problems.add(file, place(data, ("tv_grade",)), f"TV grade {model.tv_grade!r} is outside AAA-F ({', '.join(GRADES)})", "Face to the Mat 3.a")
    skills = {}
    for skill, symbol in model.skills.items():
        key = skill.strip().upper()
        if key not in SKILLS:
            problems.add(file, place(data, ("skills", skill)), f"unknown skill {skill!r}; the twelve skills are {', '.join(SKILLS)}", "Face to the Mat 3.c")
        elif symbol.strip().lower() not in SYMBOLS:
            problems.add(file, place(data, ("skills", skill)), f"unknown symbol {symbol!r}: a skill's symbol is star, square or circle", "Face to the Mat 3.d")
        else:
            skills[key] = symbol.strip().lower()
    finisher = parse_range(model.finisher.range)
    if finisher is None:
        problems.add(file, place(data, ("finisher", "range")), f"finisher range {model.finisher.range!r} is not a d66 range such as 11-33 (each digit 1 to 6)", "Face to the Mat 3.e")
    for section in ("signature_moves",):
        for skill in getattr(model, section):
            if skill.strip().upper() not in SKILLS:
                problems.add(file, place(data, (section, skill)), f"unknown skill {skill!r}", "Face to the Mat 3.c")
    for section in ("allies", "foes"):
        for index, other in enumerate(getattr(model, section)):
            if other == wrestler_id:
                problems.add(file, place(data, (section, index)), f"{other!r} is this wrestler himself: {section} are other wrestlers", "Face to the Mat 4.b")
            elif section == "foes" and other in model.allies:
                problems.add(file, place(data, (section, index)), f"{other!r} is both an ally and a foe", "Face to the Mat 4.b")
    tiers = _tiers(model.tiers, data, file, problems)
    problems.raise_if_any()
    return Wrestler(wrestler_id, model.name, grade, model.grudge, model.alignment, skills, model.finisher.name, finisher,
                    {k.strip().upper(): v for k, v in model.signature_moves.items()}, tuple(model.allies), tuple(model.foes),
                    owner_name=model.owner.name, owner_email=str(model.owner.email), tiers=tiers)


TIER_CLASSES = ("superior", "average", "inferior")  # 10.h "based on wrestler skill"
TIER_NAMES = ("gold", "silver", "bronze")


def _tiers(value: Any, data: Any, file: str, problems: Collector) -> str | tuple:
    """10.h "Varied Gold-Silver-Bronze Moves": a class (superior, average, inferior; what each
    is worth is the fed's: docs/rulings) or the card's own points, 0 to 10 each (0: the
    wrestler has no such move). Anything else (a number, null, a list) is one problem."""
    rule = "Face to the Mat 10.h"
    if not isinstance(value, dict):
        if not isinstance(value, str) or value.strip().lower() not in TIER_CLASSES:
            problems.add(file, place(data, ("tiers",)), f"tiers {str(value)[:40] if not isinstance(value, str) else repr(value[:40])}: superior, average or inferior, or {{gold: N, silver: N, bronze: N}}", rule)
            return "average"
        return value.strip().lower()
    unknown = [str(key) for key in value if key not in TIER_NAMES]
    if unknown:
        problems.add(file, place(data, ("tiers", unknown[0])), f"unknown tier {unknown[0][:40]!r}: the tiers are gold, silver and bronze", rule)
        return "average"
    points = []
    for name in TIER_NAMES:
        got = value.get(name)
        if not isinstance(got, int) or isinstance(got, bool) or not 0 <= got <= 10:
            problems.add(file, place(data, ("tiers", name)) if name in value else place(data, ("tiers",)),
                         f"tiers: {name} needs a whole number of points, 0 (no {name.upper()} move) to 10; got {got!r}", rule)
            return "average"
        points.append(got)
    return tuple(points)
