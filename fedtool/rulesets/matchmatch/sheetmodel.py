"""MatchMatch's roster sheet as a pydantic model: what `sheet.read_sheet` checks a sheet with,
imported when a sheet is first checked, never by a command that checks none (issue 18:
`fedtool standings` on sheets known checked imports no pydantic)."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import AfterValidator, Field, field_validator

from fedtool.kernel.validation import FileModel, Name, OwnerModel, Points, Whole, fraction, sensible_number
from .rules import STAMINA_MAX


def _stamina(value: int) -> int:
    if value > STAMINA_MAX:
        shown = value if value < 10**9 else "of ten digits or more"
        raise ValueError(f"stamina {shown} is over the maximum of {STAMINA_MAX} (MatchMatch I.1)")
    return sensible_number(value)


class PushModel(FileModel):
    level: Whole = Field(ge=1, le=20)
    points: Any = 0

    @field_validator("points")
    @classmethod
    def _points(cls, value: Any) -> Fraction:
        return fraction(value)


class SheetModel(FileModel):
    name: Name
    ruleset: str = "matchmatch"
    owner: OwnerModel
    stamina: Annotated[Whole, AfterValidator(_stamina)]
    styles: dict[str, Points]
    defenses: dict[str, Points] = {}
    high_spots: Points = 0
    ref_slack: Points = 0
    push: PushModel = PushModel(level=1, points=0)
    weight_class: str | None = None
    bio: str = Field(default="", max_length=4000)
