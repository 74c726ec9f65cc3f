"""MatchMatch's strategy file (Part III) as pydantic models: what `strategy.read_strategy`
checks a strategy with. Imported when a strategy is first checked, never by a run whose
strategies were checked good before (fedtool.kernel.checked, issue 18)."""

from __future__ import annotations

from pydantic import Field

from fedtool.kernel.validation import FileModel, TextOrWhole, Whole

from .strategy import MAX_EXPLANATION


class _Action(FileModel):
    target: str
    type: str
    explanation: str = Field(default="", max_length=MAX_EXPLANATION)
    notes: str = Field(default="", max_length=MAX_EXPLANATION)


class ActionModel(_Action):
    round: Whole | None = None


class StyleActionModel(_Action):
    rounds: TextOrWhole


class ConditionModel(_Action):
    when: dict[str, Whole] = Field(min_length=1)


class StrategyModel(FileModel):
    wrestler: str | None = Field(default=None, max_length=80)  # optional: the side's wrestler id or name
    plus: list[str]
    minus: str
    grid: TextOrWhole
    rounds: list[ActionModel] = Field(default=[], max_length=200)
    styles: dict[str, list[StyleActionModel]] = {}
    conditions: list[ConditionModel] = Field(default=[], max_length=20)
