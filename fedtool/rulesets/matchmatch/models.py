"""MatchMatch's pydantic models: the fed's settings and a match's card fields (the roster
sheet's: .sheetmodel). Imported when a file is first checked (`_models` in the package), never by a command
that checks none (issue 18: `fedtool standings` on sheets known checked imports no pydantic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from fedtool.kernel.validation import FileModel, Whole

if TYPE_CHECKING:
    from .engine import Rules

def _dq_threshold() -> int:
    from .engine import DEFAULT_DQ_THRESHOLD  # the engine imported when first asked (issue 18)

    return DEFAULT_DQ_THRESHOLD


class MatchMatchSettings(FileModel):
    """`rulesets: matchmatch:` in rosters/fed.yaml."""

    rounds: Whole = Field(default=20, ge=1, le=200)  # III.2: "Standard matches are 20 rounds"
    push_levels: Whole = Field(default=5, ge=1, le=20)  # II: "4 or 5 Push Levels is about right"
    dq_threshold: Whole = Field(default_factory=lambda: _dq_threshold(), ge=2, le=13)  # IV.2.c; the engine imported when first asked
    # Which finishes move push levels (Part II speaks only of "defeat"); see docs/rulings
    push_finishes: list[Literal["pin", "submission", "countout", "dq"]] = ["pin", "submission", "countout", "dq"]
    referees: list[dict] = []  # VII.1: name, type, dq_threshold, roll (2d6)
    opponent_conditions: bool = False  # Part V: "Conditionals based on the enemy's states may not be allowed"
    missing_strategy: Literal["refuse", "default"] = "refuse"  # a side with no valid strategy: refuse the week, or play the default
    stipulations: dict[str, dict] = {}  # VII: the fed's own specialty matches (data/stipulations.yaml)
    # readings fedheads differ on (docs/rulings/matchmatch.md); each default is the rulebook's
    team_teamwork: Literal["lowest", "at_most_lowest"] = "lowest"  # I.2: "must be the lowest"
    team_ref_slack: Literal["exempt", "members_range"] = "exempt"  # I.2's range and VII.1's Ref Slack
    injury_counts: Literal["inflicted", "lost"] = "inflicted"  # IV.2.e "takes 3": damage inflicted
    cripple_tie: Literal["no_check", "check"] = "no_check"  # IV.2.e: a tied Cripple round
    halved_styles: Literal["value", "table"] = "value"  # VII: "High-Flying is halved"

    def engine_rules(self) -> Rules:
        from .engine import Rules  # the engine imported when first asked (issue 18)

        return Rules(injury_counts=self.injury_counts, cripple_tie=self.cripple_tie, halved_styles=self.halved_styles)


class CardFields(FileModel):
    """A MatchMatch match's own fields on the card."""

    grid: list | None = None  # III.1: the grid given by hand (else `fedtool open` rolls it)
    referee: str | None = Field(default=None, max_length=80)  # VII.1: one of the fed's referees
    stipulation: str | None = Field(default=None, max_length=40)  # VII: one of the fed's specialty matches


