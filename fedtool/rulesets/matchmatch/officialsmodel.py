"""MatchMatch's referees and stipulations (rulebook VII) as pydantic models: what
`officials.read_referees` and `officials.read_stipulation` check them with. Imported when
one is first checked, never by a run whose were checked good before (fedtool.kernel.checked,
issue 18)."""

from __future__ import annotations

from pydantic import Field, field_validator

from fedtool.kernel.validation import FileModel, Name, TextOrWhole, Whole

from .engine import INJURY_DAMAGE


class RefereeModel(FileModel):
    name: Name
    type: str = Field(default="", max_length=80)
    dq_threshold: Whole = Field(ge=2, le=30)
    roll: TextOrWhole | None = None  # the 2d6 result(s) that select this referee: "4-10"


class StipulationModel(FileModel):
    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=500)
    added_styles: list[str] = []
    halved_styles: list[str] = []
    dq_threshold: Whole = Field(default=0, ge=-20, le=20)
    injury_damage: Whole = Field(default=INJURY_DAMAGE, ge=1, le=20)
    injury_chance: Whole = Field(default=0, ge=-20, le=20)
    pin: Whole = Field(default=0, ge=-20, le=20)
    damage: Whole = Field(default=0, ge=-5, le=5)
    forbidden: list[str] = []
    victory: str = Field(default="", max_length=300)
    victory_title: str = Field(default="", max_length=60)
    near_victory: str = Field(default="", max_length=300)

    @field_validator("added_styles", "halved_styles", "forbidden")
    @classmethod
    def _short(cls, value: list[str]) -> list[str]:
        if len(value) > 8:
            raise ValueError("at most 8 entries")
        return value
