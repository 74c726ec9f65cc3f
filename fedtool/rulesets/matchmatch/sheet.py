"""MatchMatch roster sheets (rulebook Part I): reading and checking them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fedtool.kernel.errors import Collector
from fedtool.kernel.validation import place, validate
from .rules import STAMINA_MAX, Vocabulary, vocabulary  # noqa: F401 (STAMINA_MAX: I.1, named here as before)

BUDGET = 42  # I.1: "A new wrestler has 42 points to spend"
COST = {"stamina": 1, "style": 1, "defense": 2, "high_spot": 3}  # I.1


def weight_class(weight: int) -> str:
    """I.1 Weight Classes: 1-3 Light-Heavyweight, 4-7 Heavyweight, 8+ Superheavyweight."""
    if weight >= 8:
        return "Superheavyweight"
    if weight >= 4:
        return "Heavyweight"
    return "Light-Heavyweight"  # I.1 names 1-3; a Weight of 0 is classed with them (docs/rulings)


@dataclass(frozen=True)
class Sheet:
    """A checked MatchMatch wrestler (or team) sheet."""

    id: str
    name: str
    owner_name: str
    owner_email: str
    stamina: int
    styles: dict[str, int]
    defenses: dict[str, int]
    high_spots: int
    push_level: int
    push_points: Fraction
    ref_slack: int = 0
    bio: str = ""
    members: tuple[str, ...] = field(default=())
    # a team's members' Teamwork and Ref Slack, in `members` order: what the fed's team
    # settings (`team_teamwork`, `team_ref_slack`) are checked against when a match is booked
    member_teamwork: tuple[int, ...] = field(default=())
    member_ref_slack: tuple[int, ...] = field(default=())

    @property
    def weight_class(self) -> str:
        return weight_class(self.styles["weight"])

    def cost(self) -> int:
        return (
            self.stamina * COST["stamina"]
            + sum(self.styles.values()) * COST["style"]
            + sum(self.defenses.values()) * COST["defense"]
            + self.high_spots * COST["high_spot"]
            + self.ref_slack * 3  # VII.1: "Ref Slack Points for 3 points each"
        )


def read_sheet(data: Any, file: str, wrestler_id: str, vocab: Vocabulary | None = None) -> Sheet:
    """Check a parsed roster sheet against Part I and return it, or raise every problem found."""
    vocab = vocab or vocabulary()
    # pydantic's, imported when a sheet is first checked (issue 18): not for one checked good before
    model = validate("fedtool.rulesets.matchmatch.sheetmodel:SheetModel", data, file, "MatchMatch roster sheet (I.1)")
    problems = Collector()

    def by_style(section: str, given: dict[str, int], required: bool) -> dict[str, int]:
        values = {s: 0 for s in vocab.style_ids}
        seen = set()
        # the file's own keys: pydantic strips spaces, which could merge "Power" and "Power "
        raw = data.get(section) if isinstance(data.get(section), dict) else given
        for word in raw:
            value = given[str(word).strip()]
            style = vocab.style(word)
            where = place(data, (section, word))
            if style is None:
                problems.add(file, where, f"{word!r} is not a style; the styles are {vocab.style_names()}", "MatchMatch I.1")
                continue
            if style in seen:
                problems.add(file, where, f"{vocab.style_name(style)} is given twice", "MatchMatch I.1")
            seen.add(style)
            if value < 0:
                problems.add(file, where, f"{value} is negative; no attribute may be below 0", "MatchMatch I.1")
            values[style] = value
        if required:
            for style in vocab.style_ids:
                if style not in seen:
                    problems.add(file, place(data, (section,)), f"{vocab.style_name(style)} is missing (write 0 if none)", "MatchMatch I.1")
        return values

    styles = by_style("styles", model.styles, required=True)
    defenses = by_style("defenses", model.defenses, required=False)
    for key, value in (("stamina", model.stamina), ("high_spots", model.high_spots), ("ref_slack", model.ref_slack)):
        if value < 0:
            problems.add(file, place(data, (key,)), f"{key} is {value}; no attribute may be below 0", "MatchMatch I.1")
    if not Fraction(0) <= model.push.points <= 2:
        problems.add(file, place(data, ("push", "points")), f"push points {model.push.points} are outside 0 to 2", "MatchMatch II")
    sheet = Sheet(
        id=wrestler_id,
        name=model.name,
        owner_name=model.owner.name,
        owner_email=str(model.owner.email),
        stamina=model.stamina,
        styles=styles,
        defenses=defenses,
        high_spots=model.high_spots,
        push_level=model.push.level,
        push_points=model.push.points,
        ref_slack=model.ref_slack,
        bio=model.bio,
    )
    if not problems:
        spent = sheet.cost()
        if spent != BUDGET:
            problems.add(
                file,
                place(data, ()),
                f"the sheet costs {spent} points ({_cost_breakdown(sheet)}); it must cost exactly {BUDGET}",
                "MatchMatch I.1: stamina and styles 1 each, defenses 2, high spots 3",
            )
        if model.weight_class is not None and model.weight_class != sheet.weight_class:
            problems.add(
                file,
                place(data, ("weight_class",)),
                f"weight class {model.weight_class!r} does not match Weight {styles['weight']}, which is {sheet.weight_class}",
                "MatchMatch I.1 Weight Classes",
            )
    problems.raise_if_any()
    return sheet


def _cost_breakdown(sheet: Sheet) -> str:
    parts = [
        f"stamina {sheet.stamina}",
        f"styles {sum(sheet.styles.values())}",
        f"defenses {sum(sheet.defenses.values())}x2",
        f"high spots {sheet.high_spots}x3",
    ]
    if sheet.ref_slack:
        parts.append(f"ref slack {sheet.ref_slack}x3")
    return ", ".join(parts)

