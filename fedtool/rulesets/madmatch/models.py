"""Mad Match's pydantic models: the fed's settings, a match's card fields and what a
sheet or strategy is checked with. Imported when a file is first checked (`_models` in the
package), never by a command that checks none (issue 18: `fedtool standings` on sheets known
checked imports no pydantic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictInt

from fedtool.kernel.validation import FileModel, Name, OwnerModel
from fedtool.kernel.values import roster_file

if TYPE_CHECKING:
    from .engine import Rules
    from .solitaire import SolitaireRules


class SheetModel(FileModel):
    """A Mad Match player: a name, an owner, a memory and optional flavour."""

    name: Name
    ruleset: Literal["madmatch"]
    owner: OwnerModel
    memory: Annotated[StrictInt, Field(ge=0, le=100)] | None = None  # on the fed's memory die; none: the fed's default_memory
    bio: str = Field(default="", max_length=4000)


class CardFields(FileModel):
    """A Mad Match card match's own fields."""

    variation: Literal["mad_match", "classic", "solitaire"] = "mad_match"
    format: Literal["best_of_three", "target", "single"] | None = None  # none: the fed's `match:` setting
    target: Annotated[StrictInt, Field(ge=1, le=10000)] | None = None  # a target score for this match


class MadMatchSettings(FileModel):
    """`rulesets: madmatch:` in rosters/fed.yaml (docs/rulings/mad-match.md, the settings table)."""

    deck: Annotated[str, AfterValidator(roster_file)] | None = None  # a fed's own deck file, in rosters/ (its name there)
    missing_strategy: Literal["default", "refuse"] = "default"
    match: Literal["best_of_three", "target", "single"] = "best_of_three"
    target_two: Annotated[StrictInt, Field(ge=1, le=10000)] = 250  # "250 points is a good target score for two player games"
    target_more: Annotated[StrictInt, Field(ge=1, le=10000)] = 150  # "150 points is better for 3 or 4 player games"
    max_games: Annotated[StrictInt, Field(ge=1, le=50)] = 9
    memory_die: Annotated[StrictInt, Field(ge=2, le=100)] = 20
    memory_fade: Annotated[StrictInt, Field(ge=1, le=100)] = 4
    default_memory: Annotated[StrictInt, Field(ge=0, le=100)] = 14
    frozen_cards: Literal["stay", "turn_back"] = "stay"
    turn_limit: Annotated[StrictInt, Field(ge=10, le=5000)] = 400
    classic_extra_turn: StrictBool = False
    solitaire_score: Literal["triplets", "cards"] = "triplets"
    solitaire_passes: Annotated[StrictInt, Field(ge=0, le=50)] = 0

    def rules(self) -> Rules:
        from .engine import Rules  # the engine imported when first asked (issue 18)

        return Rules(self.memory_die, self.memory_fade, self.frozen_cards, self.turn_limit, self.classic_extra_turn)

    def solitaire_rules(self) -> SolitaireRules:
        from .solitaire import SolitaireRules

        return SolitaireRules(self.solitaire_score, self.solitaire_passes)
