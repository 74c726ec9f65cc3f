"""MatchMatch match resolution (rulebook Part IV), as a pure function of a setup and dice.

Dice are consumed in this order each round (the order a scripted replay must follow):
  1. the style die (1d6, or a bigger die for a table of more than six; a face past the
     end of the style table means roll again);
  2. side 1: its 3d6; in a High Risk round one extra d6 for each original 3, in order;
     its 2d6 DQ check for Illegal or Vile Cheat; Vile Cheat's further 2d6 if not DQ'ed;
  3. the same for side 2;
  4. injury checks (3d6 each, side 1 first);
  5. the victory check (3d6; on a tied round side 1 checks first, then side 2).

The engine returns data (MatchResult); rendering and the league are someone else's job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property

from ...dice import Dice
from .grid import cell_style, grid_style
from .rules import STAMINA, vocabulary
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
    match_id: str
    sides: tuple[Side, ...]  # two, or more for triangle and four-way matches
    grid: list[list[str]]
    rounds: int = 20
    stipulation: Stipulation = Stipulation()
    tag: bool = False

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


def resolve(setup: MatchSetup, dice: Dice) -> MatchResult:
    """Play the match round by round until a finish or the time limit (IV.2)."""
    if len(setup.sides) != 2:
        from .multiway import resolve_many

        return resolve_many(setup, dice)
    sides = setup.sides
    stip = setup.stipulation
    table = list(setup.table)
    table_size = len(table)
    die = style_die(table_size)
    purpose_style = f"round style d{die}"
    names = [s.name for s in sides]
    purpose_attack = [f"{n} attack 3d6" for n in names]
    purpose_risk = [f"{n} High Risk extra d6 for a 3" for n in names]
    purpose_dq = [f"{n} DQ check 2d6" for n in names]
    purpose_vile = [f"{n} Vile Cheat 2d6" for n in names]
    purpose_injury = [f"{n} injury check 3d6" for n in names]
    purpose_victory = [f"{n} victory check 3d6" for n in names]

    # VII: a stipulation's halved styles, then IV.1.b: halve (rounding up) each style the
    # other side chose as its "-" style
    styles = []
    for i, side in enumerate(sides):
        values = dict(side.sheet.styles)
        for halved in stip.halved_styles:
            values[halved] = math.ceil(values[halved] / 2)
        minus = sides[1 - i].strategy.minus
        values[minus] = math.ceil(values[minus] / 2)
        styles.append(values)
    start_styles = [dict(v) for v in styles]
    # IV.2.f "each of the loser's selected styles which is at 0": kept as a running count
    entries = {s: table.count(s) for s in table}
    zeros = [sum(n for s, n in entries.items() if values[s] == 0) for values in styles]
    defenses = [s.sheet.defenses for s in sides]
    stamina = [s.sheet.stamina for s in sides]
    weight = [s.sheet.styles["weight"] for s in sides]  # IV.2.f: original Weight
    heavier = [1 if weight[0] > weight[1] else 0, 1 if weight[1] > weight[0] else 0]
    injury = [s.injury for s in sides]
    threshold = [s.dq_threshold for s in sides]
    strategies = [s.strategy for s in sides]
    fixed = strategies[0].fixed and strategies[1].fixed
    fixed_actions = [s.rounds for s in strategies]
    fixed_types = [strategies[0].types, strategies[1].types]
    # what is left to use, for conditionals and for plans that would overspend (II, III.2)
    specials_left = [s.specials if s.specials is not None else 10**6 for s in sides]
    high_spots_left = [s.sheet.high_spots for s in sides]
    occurrences = dict.fromkeys(table, 0)
    # a checked per-round list never outspends (III.2), so only plans and unchecked lists are watched
    watch_allowances = not fixed or any(
        strategies[i].spends[0] > specials_left[i] or strategies[i].spends[1] > high_spots_left[i] for i in (0, 1)
    )
    injury_damage = stip.injury_damage

    roll = dice.roll
    rounds: list[tuple] = []
    winner: int | None = None
    method = TIME_LIMIT
    end_round = setup.rounds

    def hit(t: int, target: str, rolled: int, dealt: int) -> tuple:
        """Damage to side t: a style stops at 0 and the excess spills into Stamina (IV.2.d).

        Returns the fields of a Hit as a tuple.
        """
        if target == STAMINA:
            before = stamina[t]
            to_stamina = dealt if dealt < before else before
            stamina[t] = before - to_stamina
            return (t, target, rolled, dealt, 0, to_stamina, before, stamina[t])
        values = styles[t]
        before = values[target]
        to_style = dealt if dealt < before else before
        values[target] = after = before - to_style
        if after == 0 and before > 0 and target in entries:
            zeros[t] += entries[target]
        to_stamina = min(dealt - to_style, stamina[t])
        stamina[t] -= to_stamina
        return (t, target, rolled, dealt, to_style, to_stamina, before, after)

    for number in range(1, setup.rounds + 1):
        dice.round = number
        index = number - 1
        # IV.2.a: the round's style
        face = roll(1, die, purpose_style)[0]
        style_faces = [face]
        while face > table_size:  # "6 Roll again" when the table has fewer than six entries
            face = roll(1, die, purpose_style)[0]
            style_faces.append(face)
        style = table[face - 1]

        # the round actions: straight from the lists, or chosen by plans and conditionals
        if fixed:
            acts = [fixed_actions[0][index], fixed_actions[1][index]]
            types = [fixed_types[0][index], fixed_types[1][index]]
            why = NO_REASONS
        else:
            occurrences[style] += 1
            acts, why = [], []
            for i in (0, 1):
                state = {"specials_left": specials_left[i], "high_spots_left": high_spots_left[i], "stamina": stamina[i], "opponent_stamina": stamina[1 - i]}
                act, reason = strategies[i].choose(number, style, occurrences[style], state)
                acts.append(act)
                why.append(reason)
        # the allowances (II, III.2): a Special or High Spot with none left is a Normal round
        for i in (0, 1) if watch_allowances else ():
            rtype = acts[i].type
            if rtype.special or rtype.high_spot:
                left = specials_left if rtype.special else high_spots_left
                if left[i] > 0:
                    left[i] -= 1
                else:
                    why = list(why)
                    why[i] = _join(why[i], f"no {'Special' if rtype.special else 'High Spot'} left: played as a Normal round")
                    acts[i] = replace(acts[i], type=NORMAL)
        if not fixed or watch_allowances:
            types = [acts[0].type, acts[1].type]

        # IV.2.b/c: attack values and DQ checks, side 1 then side 2
        played = []
        disqualified = False
        for i in (0, 1):
            rtype = types[i]
            faces = roll(3, 6, purpose_attack[i])
            value = styles[i][style]
            if rtype.high_risk_dice:
                extra = []
                counted = 0
                for f in faces:
                    if f == 6:
                        continue  # "An original 6 counts for 0"
                    counted += f
                    if f == 3:  # "An original roll of 3 means roll again and add 3"
                        e = roll(1, 6, purpose_risk[i])[0]
                        extra.append(e)
                        counted += e
            else:
                extra = NO_DICE
                counted = faces[0] + faces[1] + faces[2]
            total = counted + value + rtype.attack
            dq = None
            if rtype.dq_check:
                dq_faces = roll(2, 6, purpose_dq[i])
                dq_total = dq_faces[0] + dq_faces[1]
                vile = None
                if dq_total >= threshold[i]:
                    dq = (dq_faces, threshold[i], True, None)
                    disqualified = True
                else:
                    total += dq_total
                    if rtype.extra_dice_after_dq:
                        vile = roll(rtype.extra_dice_after_dq, 6, purpose_vile[i])
                        total += sum(vile)
                    dq = (dq_faces, threshold[i], False, vile)
                    threshold[i] -= 1
            played.append((acts[i], faces, extra, counted, value, rtype.attack, total, dq, why[i]))  # a SideRound

        if disqualified:
            out = [bool(p[7] and p[7][2]) for p in played]
            if out[0] and out[1]:
                winner, method = None, DOUBLE_DQ
            else:
                winner, method = (1 if out[0] else 0), DQ
            rounds.append((number, style, style_faces, played, None, 0, [], [], []))
            end_round = number
            break

        # IV.2.d: round winner and damage
        total_one, total_two = played[0][6], played[1][6]
        if total_one == total_two:
            round_winner = None
            margin = 0
            # "both sides take 1 point of damage with no reduction", each on the other's target
            hits = [hit(0, acts[1].target, 1, 1), hit(1, acts[0].target, 1, 1)]
        else:
            round_winner = 0 if total_one > total_two else 1
            loser = 1 - round_winner
            margin = total_one - total_two if round_winner == 0 else total_two - total_one
            wtype = types[round_winner]
            rolled = 1 + margin // 5 + wtype.damage + stip.damage
            dealt = max(1, rolled - defenses[loser].get(style, 0)) if rolled >= 1 else rolled
            if wtype.damage_after_defense:
                dealt = max(0, dealt + wtype.damage_after_defense)
            hits = [hit(loser, acts[round_winner].target, rolled, dealt)]

        # IV.2.e: injury checks, side 1 first
        injuries = []
        for h in hits:  # in side order
            taken = h[4] + h[5]  # what the style and Stamina lost
            cripple = round_winner is not None and taken > 0 and types[round_winner].injury_on_any_damage
            if taken >= injury_damage or cripple:
                t = h[0]
                faces = roll(3, 6, purpose_injury[t])
                bonus = (types[round_winner].injury if cripple else 0) + stip.injury_chance
                style_value = styles[t][style]
                defense = defenses[t].get(style, 0)
                total = faces[0] + faces[1] + faces[2] - stamina[t] - style_value - defense + bonus
                injured = total >= INJURY_TARGET
                if injured:
                    injury[t] += 1
                injuries.append((t, faces, total, cripple, injured, stamina[t], style_value, defense, bonus))  # an InjuryCheck

        # IV.2.f: victory checks, the round winner (both on a tie, side 1 first)
        checks = []
        won = []
        for c in ((0, 1) if round_winner is None else (round_winner,)):
            o = 1 - c
            faces = roll(3, 6, purpose_victory[c])
            pin = types[c].pin
            total = faces[0] + faces[1] + faces[2] + heavier[c] + zeros[o] + pin + injury[o] - stamina[o] - table_size + stip.pin
            if total >= WIN_AT or faces == NATURAL_18:
                count = 3
            else:  # count_for(), inlined: this is the hot loop
                count = 2 if total >= 2 else 1 if total >= 0 else 0
            checks.append((c, faces, total, count, (heavier[c], zeros[o], pin, injury[o], stamina[o], table_size, stip.pin)))  # a VictoryCheck
            if count == 3:
                won.append(c)

        rounds.append((number, style, style_faces, played, round_winner, margin, hits, injuries, checks))  # a Round
        if won:
            end_round = number
            if len(won) == 2:
                winner, method = None, DOUBLE_COUNTOUT  # IV.2.f: "a double-CO if both win"
            else:
                winner = won[0]
                method = types[winner].finish_after
            break

    return MatchResult(
        match_id=setup.match_id,
        winner=winner,
        method=method,
        end_round=end_round,
        raw_rounds=rounds,
        style_table=table,
        start_styles=start_styles,
        final_styles=styles,
        final_stamina=stamina,
        injuries=injury,
        dq_thresholds=threshold,
        log=dice.take_log(),
    )
