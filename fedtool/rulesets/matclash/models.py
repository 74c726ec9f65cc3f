"""Mat Clash's pydantic models: the fed's settings, a match's card fields and what a
sheet or strategy is checked with. Imported when a file is first checked (`_models` in the
package), never by a command that checks none (issue 18: `fedtool standings` on sheets known
checked imports no pydantic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, Field

from fedtool.kernel.validation import FileModel, Name, OwnerModel
from fedtool.kernel.values import roster_file

if TYPE_CHECKING:
    from .engine import Rules


class SheetModel(FileModel):
    """A Mat Clash wrestler: a name, an owner and optional flavour."""

    name: Name
    ruleset: Literal["matclash"]
    owner: OwnerModel
    moves: dict[str, Name] = {}  # card -> the wrestler's signature move name (one line of 1 to 80 characters)
    bio: str = Field(default="", max_length=4000)


class CardFields(FileModel):
    """A Mat Clash match's own field on the card."""

    format: str | None = Field(default=None, max_length=40)  # quick_scrap (the default) or dual_match


class MatClashSettings(FileModel):
    """`rulesets: matclash:` in rosters/fed.yaml."""

    sets: list[Literal["wave1", "wave2", "wave3", "short_print"]] = []
    deck: Annotated[str, AfterValidator(roster_file)] | None = None  # a fed's own deck file, in rosters/ (its name there)
    # a side that sent no strategy: play the built-in default policy (and say so), or refuse the week
    missing_strategy: Literal["default", "refuse"] = "default"
    # readings fedheads differ on (docs/rulings/mat-clash.md, the settings table); each default is the rulebook's
    stalling_ban: Literal["next_play", "turn"] = "next_play"  # 4.10
    wizardry_erases: Literal["his_cards", "stack", "scoring"] = "his_cards"  # 4.14
    resilience_stops_spladle: bool = True  # 4.16
    early_falls: Literal["fall", "no_fall"] = "fall"  # 4.17
    tie_when_ahead: Literal["tie", "no_points", "not_playable"] = "tie"  # 4.18

    def rules(self) -> Rules:
        from .engine import Rules  # the engine imported when first asked (issue 18)

        return Rules(self.stalling_ban, self.wizardry_erases, self.resilience_stops_spladle, self.early_falls, self.tie_when_ahead)
