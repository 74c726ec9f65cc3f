"""Face to the Mat's pydantic models: the fed's settings, a match's card fields and what a
sheet or strategy is checked with. Imported when a file is first checked (`_models` in the
package), never by a command that checks none (issue 18: `fedtool standings` on sheets known
checked imports no pydantic)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from fedtool.kernel.validation import FileModel, Name, OwnerModel, TextOrWhole, Whole
from fedtool.kernel.values import fed_folder


class Tiers(FileModel):
    gold: Whole = Field(default=3, ge=0, le=10)
    silver: Whole = Field(default=2, ge=0, le=10)
    bronze: Whole = Field(default=1, ge=0, le=10)


class ObjectSettings(FileModel):
    """10.b chairs, tables and ladders: chips on the spaces the fed chooses."""

    spaces: list[Whole] = Field(default=[4, 8, 11], max_length=15)
    bonus: Whole = Field(default=2, ge=0, le=6)  # 10.b.iv "additional effects (determined by GM)"


class FaceToTheMatSettings(FileModel):
    """`rulesets: facemat:` in rosters/fed.yaml (the advanced options of section 10)."""

    boo_rule: bool = False  # 10.a
    tv_table: Literal["standard", "steep", "flat"] = "standard"  # the three published TV Move tables
    tiers: Tiers = Tiers()  # 7.c: the average wrestler's gold, silver and bronze (10.h varies them per card: `tiers:`)
    inferior_tiers: Literal["no_gold", "reduced"] = "no_gold"  # 10.h.iii: "May not have a GOLD move, or reduced values"
    tv_changes: Literal["upsets", "none"] = "upsets"  # TV grades outside grudge matches (docs/rulings)
    hardcore_weapons: bool = True  # 9.f.iv: a hardcore chart's weapons are objects even with `objects` off
    cage_helped: Literal["half_down", "half_up"] = "half_down"  # 9.b: a HELPED card (and a call for help) in a cage: half, rounded down or up
    objects: ObjectSettings | None = None  # 10.b: on when given
    advanced_tag: bool = False  # 10.c.i
    refreshment: bool = False  # 10.c.ii
    interviews: bool = False  # 10.d: an interview segment before each match
    ref_bump: Literal["fac", "downed", "off"] = "fac"  # 10.e
    out_of_ring: bool = False  # 10.f
    increased_kickouts: bool = False  # 10.g
    mini_match_to: Whole = Field(default=12, ge=1, le=15)  # 9.e.i: a Match-Up mini-match ends on this space
    data: Annotated[str, AfterValidator(lambda v: fed_folder(v, "data folder"))] | None = Field(default=None, max_length=200)  # a folder of the fed's own data files


class CardFields(FileModel):
    """A Face to the Mat match's own fields on the card."""

    stipulation: str | None = Field(default=None, max_length=40)  # 9: the match type, e.g. "hardcore tag"
    format: str | None = Field(default=None, max_length=40)  # 9.d-e: a three-for-all's or battle royale's method
    favored: str | None = Field(default=None, max_length=63)  # 4.a: the favored side
    ref_bump_at: Whole | None = Field(default=None, ge=1, le=400)  # 10.e: a scripted ref bump at this FAC
    special_prize: Literal["tv_grade", "loser_leaves_town", "title_shot", "extra_grade"] | None = None  # 9.a: a grudge match's stakes when the die says 6 ("or choose"); none: roll again


class StrategyModel(FileModel):
    """strategies/week-NN/<wrestler>.yaml for Face to the Mat: what the player controls."""

    signature_moves: dict[str, str] = {}  # each name checked by read_plan: one line of 1 to 80 characters
    finisher: Name | None = None
    promo: str = Field(default="", max_length=2000)
    challenge: str | None = Field(default=None, max_length=63)
    use_object: Literal["always", "never", "when_trailing"] = "always"
    call_for_help: Literal["never", "when_trailing", "at_once"] = "never"


class FinisherModel(FileModel):
    name: Name
    range: TextOrWhole


class CardModel(FileModel):
    name: Name
    ruleset: Literal["facemat"]
    owner: OwnerModel
    tv_grade: str
    grudge: Whole = Field(default=0, ge=-20, le=20)  # 3.b: "Numerical value (can be negative)"
    alignment: Literal["face", "heel"]
    skills: dict[str, str] = {}
    finisher: FinisherModel
    signature_moves: dict[str, Name] = {}  # a move's name goes into the writeups: one line of 1 to 80 characters
    tiers: Any = "average"  # 10.h: superior, average, inferior, or {gold: N, silver: N, bronze: N} (checked by _tiers: one problem for any other value)
    allies: list[str] = Field(default=[], max_length=50)  # wrestler ids: each a sheet in rosters/ (checked when booked)
    foes: list[str] = Field(default=[], max_length=50)
    bio: str = Field(default="", max_length=4000)
