"""A MatchMatch match as data (rulebook Part IV): the setup, each round's rolls and totals,
the result, and the constants of Part IV that the engines share.

`engine` plays two sides, `multiway` three or four; both build these and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .grid import cell_style, grid_style
from .rules import vocabulary
from .sheet import Sheet
from .strategy import Action, Strategy

DEFAULT_DQ_THRESHOLD = 10  # IV.2.c: "defaults to 10"
INJURY_DAMAGE = 3  # IV.2.e: "may be injured if he takes 3 or more points of damage"
INJURY_TARGET = 10  # IV.2.e: "if the total is 10 or more, the target has been injured"
WIN_AT = 4  # IV.2.f: "If the number is 4 or more, then the match is over"
NO_DICE: tuple = ()
NO_REASONS = ("", "")
NORMAL = vocabulary().round_types["normal"]
NATURAL_18 = bytes((6, 6, 6))  # IV.2.f: "A natural roll of 18 always wins."

# Finishes (results' `method`)
PIN, SUBMISSION, COUNTOUT, DQ = "pin", "submission", "countout", "dq"
DOUBLE_COUNTOUT, DOUBLE_DQ, TIME_LIMIT = "double_countout", "double_dq", "time_limit"


@dataclass(frozen=True)
class Stipulation:
    """Match-wide modifiers (VII, Specialty Matches). The plain match changes nothing.

    `dq_threshold` and `forbidden` are applied when the match is booked (they change the
    sides' thresholds and which strategies are legal); the rest here, in the engine.
    """

    name: str = "Standard"
    added_styles: tuple[str, ...] = ()
    pin: int = 0
    injury_chance: int = 0
    injury_damage: int = INJURY_DAMAGE
    damage: int = 0
    halved_styles: tuple[str, ...] = ()
    dq_threshold: int = 0
    forbidden: tuple[str, ...] = ()
    description: str = ""
    id: str = ""
    # how the writeup tells a won victory check (VII: "Victory is by escape"), the headline's
    # words for it, and a check that falls short; empty: told as the finish recorded
    victory: str = ""
    victory_title: str = ""
    near_victory: str = ""


@dataclass(frozen=True)
class Rules:
    """The fed's readings of passages fedheads read differently (`rulesets: matchmatch:` in
    rosters/fed.yaml; docs/rulings/matchmatch.md). The defaults are the rulebook's reading."""

    # IV.2.e "takes 3" (and a Cripple's "any damage"): the damage inflicted, after style
    # defense and the Defensive reduction ("inflicted"), or only what the style and Stamina
    # lost, after the floors at 0 ("lost")
    injury_counts: str = "inflicted"
    # IV.2.e: whether a tied round's point from a Cripple attacker calls for a check (no +2)
    cripple_tie: str = "no_check"
    # VII: a stipulation's halved style is halved in value ("value") or in its weight in the
    # style table ("table")
    halved_styles: str = "value"


STYLE_DICE = (6, 8, 10, 12, 20)


def style_die(table_size: int) -> int:
    """The die that picks the round style: a d6 for up to six entries (IV.1.a), else the
    smallest standard die that covers the table (docs/rulings/matchmatch.md)."""
    return next(d for d in STYLE_DICE if d >= table_size)


@dataclass(frozen=True)
class Side:
    """One side of a match as the engine needs it."""

    id: str
    name: str
    sheet: Sheet
    strategy: Strategy
    injury: int = 0  # injury points carried in from earlier weeks (IV.2.e)
    dq_threshold: int = DEFAULT_DQ_THRESHOLD
    specials: int | None = None  # Special rounds allowed (the push level, II); None: as written


@dataclass(frozen=True)
class MatchSetup:
    """Everything a match is played from: its sides, grid, rounds, stipulation and rules."""

    match_id: str
    sides: tuple[Side, ...]  # two, or more for triangle and four-way matches
    grid: list[list[str]]
    rounds: int = 20
    stipulation: Stipulation = Stipulation()
    tag: bool = False
    rules: Rules = Rules()

    @cached_property
    def table(self) -> tuple[str, ...]:
        """The style table, built once (the same setup is played many times by odds)."""
        return tuple(self.style_table())

    def style_table(self) -> list[str]:
        """IV.1.a: side 1's two "+" styles as written, side 2's (and so on), the grid style;
        then each later side's grid cell, the stipulation's styles, Teamwork in a tag match."""
        one, two, *later = self.sides
        table = [style for side in self.sides for style in side.strategy.plus]
        table.append(grid_style(self.grid, one.strategy.grid, two.strategy.grid))
        table.extend(cell_style(self.grid, side.strategy.grid) for side in later)
        table.extend(self.stipulation.added_styles)
        if self.tag:
            table.append("teamwork")
        return table


@dataclass(slots=True)
class SideRound:
    """What one side did in a round."""

    action: "Action"  # the round action played
    faces: bytes
    extra: list | tuple  # High Risk extra d6 faces, in order
    counted: int  # the 3d6 as counted (after High Risk's 6->0 and 3->3+d6)
    style_value: int
    bonus: int  # the round type's attack bonus
    total: int
    dq: tuple | None = None  # (DQ check faces, threshold, disqualified, Vile Cheat faces)
    why: str = ""  # how a per-style plan or conditional chose the action, for the writeup

    @property
    def dq_faces(self) -> bytes | None:
        return self.dq[0] if self.dq else None

    @property
    def dq_threshold(self) -> int | None:
        return self.dq[1] if self.dq else None

    @property
    def disqualified(self) -> bool:
        return bool(self.dq and self.dq[2])

    @property
    def vile_faces(self) -> bytes | None:
        return self.dq[3] if self.dq else None


@dataclass(slots=True)
class Hit:
    """Damage dealt to one side in a round."""

    side: int
    target: str
    rolled: int  # before style defense and Defensive reduction
    dealt: int  # after reductions
    to_style: int
    to_stamina: int
    before: int  # target value before (style or stamina)
    after: int

    @property
    def taken(self) -> int:
        """Damage actually taken: what the target style and Stamina lost (IV.2.e)."""
        return self.to_style + self.to_stamina


@dataclass(slots=True)
class InjuryCheck:
    """An injury check of a round: the roll against the target's values."""

    side: int
    faces: bytes
    total: int
    cripple: bool
    injured: bool
    stamina: int = 0  # the target's current Stamina, subtracted
    style_value: int = 0  # its current level in the round style, subtracted
    defense: int = 0  # its style defense for the round style, subtracted
    bonus: int = 0  # Cripple's +2 and the stipulation's injury chance, added


@dataclass(slots=True)
class VictoryCheck:
    """A victory check of a round: the roll, its parts and the count it reached."""

    side: int  # who checks
    faces: bytes
    total: int
    count: int  # 0 none, 1, 2, 3 = win
    # (heavier +1, styles at 0, round bonus, injury points, Stamina, styles, stipulation)
    parts: tuple

    @property
    def natural_18(self) -> bool:
        return self.faces[0] + self.faces[1] + self.faces[2] == 18

    weight = property(lambda self: self.parts[0], doc="+1 if the checker's original Weight is higher")
    zero_styles = property(lambda self: self.parts[1], doc="+1 per style-table entry at 0 for the other side")
    round_bonus = property(lambda self: self.parts[2], doc="Finisher/High Impact +2, Submission +4")
    injury = property(lambda self: self.parts[3], doc="the other side's injury points, added")
    stamina = property(lambda self: self.parts[4], doc="the other side's Stamina, subtracted")
    styles = property(lambda self: self.parts[5], doc="the number of styles in the table, subtracted")
    stipulation = property(lambda self: self.parts[6], doc="the stipulation's pin chance")


@dataclass(slots=True)
class Round:
    """One round as played: the style, each side's roll, the winner and what followed."""

    number: int
    style: str
    style_faces: list
    sides: list  # a SideRound per side (None for a side already eliminated)
    winner: int | None  # None on a tie (or when a DQ ended it)
    margin: int
    hits: list
    injuries: list
    checks: list
    victim: int | None = None  # the side that took the winner's damage (matches of 3+ sides)


@dataclass
class MatchResult:
    """What happened: who won, how, when, and every round, for the writeup and the league.

    The engine records each round as plain tuples (`raw_rounds`, cheap in the hot loop);
    `rounds` is the typed view of the same record, built the first time it is read.
    """

    match_id: str
    winner: int | None  # side index, or None for a draw
    method: str
    end_round: int
    raw_rounds: list[tuple]
    style_table: list[str]
    start_styles: list[dict]  # after "-" halving (IV.1.b)
    final_styles: list[dict]
    final_stamina: list[int]
    injuries: list[int]  # injury points after the match
    dq_thresholds: list[int]
    log: list = field(default_factory=list)
    beaten: int | None = None  # in a match of 3+ sides, the side the winner beat

    @property
    def loser(self) -> int | None:
        """The side the winner beat (pinned, made to submit, counted out or outlasted)."""
        if self.winner is None:
            return None
        return self.beaten if self.beaten is not None else 1 - self.winner

    @cached_property
    def rounds(self) -> list[Round]:
        return [
            Round(
                number, style, style_faces, [SideRound(*p) if p is not None else None for p in played], winner, margin,
                [Hit(*h) for h in hits], [InjuryCheck(*i) for i in injuries], [VictoryCheck(*c) for c in checks], *rest,
            )
            for number, style, style_faces, played, winner, margin, hits, injuries, checks, *rest in self.raw_rounds
        ]


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b


def count_for(total: int) -> int:
    """IV.2.f: 0-1 a 1 count, 2-3 a 2 count, 4 or more the win; below 0 nothing."""
    if total >= WIN_AT:
        return 3
    if total >= 2:
        return 2
    if total >= 0:
        return 1
    return 0
