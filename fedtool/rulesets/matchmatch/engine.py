"""MatchMatch match resolution (rulebook Part IV), as a pure function of a setup and dice.

Dice are consumed in this order each round (the order a scripted replay must follow):
  1. the style die (1d6, or a bigger die for a table of more than six; a face past the
     end of the style table means roll again);
     where the fed halves a stipulation's style in the table (`halved_styles: table`), a
     d6 after that style is rolled: 4-6 rolls the style again;
  2. side 1: its 3d6; in a High Risk round one extra d6 for each original 3, in order;
     its 2d6 DQ check for Illegal or Vile Cheat; Vile Cheat's further 2d6 if not DQ'ed;
     a DQ ends the round and the match there: nothing more is rolled (side 2 does not attack);
  3. the same for side 2;
  4. injury checks (3d6 each, side 1 first);
  5. the victory check (3d6; on a tied round side 1 checks first, then side 2).

The engine returns data (MatchResult); rendering and the league are someone else's job.
"""

from __future__ import annotations

import math
from dataclasses import replace

from fedtool.kernel.dice import Dice
from .match import (  # the match's data, named here too: engine.Side, engine.MatchSetup, ...
    COUNTOUT,
    DEFAULT_DQ_THRESHOLD,
    DOUBLE_COUNTOUT,
    DOUBLE_DQ,
    DQ,
    Hit,
    INJURY_DAMAGE,
    INJURY_TARGET,
    InjuryCheck,
    MatchResult,
    MatchSetup,
    NATURAL_18,
    NORMAL,
    NO_DICE,
    NO_REASONS,
    PIN,
    Round,
    Rules,
    STYLE_DICE,
    SUBMISSION,
    Side,
    SideRound,
    Stipulation,
    TIME_LIMIT,
    VictoryCheck,
    WIN_AT,
    _join,
    count_for,
    style_die,
)
from .multiway import resolve_many
from .rules import STAMINA


def resolve(setup: MatchSetup, dice: Dice, record: bool = True) -> MatchResult:
    """Play the match round by round until a finish or the time limit (IV.2). `record`
    False (odds) keeps no rounds for a writeup: the same dice, the same result."""
    if len(setup.sides) != 2:
        return resolve_many(setup, dice, record)
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
    rules = setup.rules
    # VII: "High-Flying is halved": its value (the default), or its weight in the table
    halved_in_table = frozenset(stip.halved_styles) if rules.halved_styles == "table" else frozenset()
    halved_in_value = () if halved_in_table else stip.halved_styles
    purpose_halved = "halved style d6 (4-6 roll again)"
    inflicted = rules.injury_counts == "inflicted"  # IV.2.e "takes 3": the damage inflicted
    cripple_tie = rules.cripple_tie == "check"
    styles = []
    for i, side in enumerate(sides):
        values = dict(side.sheet.styles)
        for halved in halved_in_value:
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
        while True:
            while face > table_size:  # "6 Roll again" when the table has fewer than six entries
                face = roll(1, die, purpose_style)[0]
                style_faces.append(face)
            style = table[face - 1]
            if not halved_in_table or style not in halved_in_table or roll(1, 6, purpose_halved)[0] <= 3:
                break
            face = roll(1, die, purpose_style)[0]  # a halved style's weight: half the time, roll again
            style_faces.append(face)

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

        # IV.2.b/c: attack values and DQ checks, side 1 then side 2; a DQ stops the round
        played = []
        disqualified = None
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
                    disqualified = i
                else:
                    total += dq_total
                    if rtype.extra_dice_after_dq:
                        vile = roll(rtype.extra_dice_after_dq, 6, purpose_vile[i])
                        total += sum(vile)
                    dq = (dq_faces, threshold[i], False, vile)
                    threshold[i] -= 1
            played.append((acts[i], faces, extra, counted, value, rtype.attack, total, dq, why[i]))  # a SideRound
            if disqualified is not None:
                break  # the match is over: the other side rolls nothing (docs/rulings/matchmatch.md)

        if disqualified is not None:
            if len(played) == 1:
                played.append(None)  # side 2 never attacked
            winner, method = 1 - disqualified, DQ
            if record:
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
            # a stipulation's lowered damage stops at 0: damage never heals (docs/rulings)
            rolled = 1 + margin // 5 + wtype.damage + stip.damage
            if rolled < 0:
                rolled = 0
            dealt = max(1, rolled - defenses[loser].get(style, 0)) if rolled >= 1 else rolled
            if wtype.damage_after_defense:
                dealt = max(0, dealt + wtype.damage_after_defense)
            hits = [hit(loser, acts[round_winner].target, rolled, dealt)]

        # IV.2.e: injury checks, side 1 first
        injuries = []
        for h in hits:  # in side order
            taken = h[3] if inflicted else h[4] + h[5]  # inflicted, or what the style and Stamina lost
            if round_winner is not None:
                cripple = taken > 0 and types[round_winner].injury_on_any_damage
                succeeded = cripple
            else:  # a tie: the point came from the other side's attack
                cripple = cripple_tie and taken > 0 and types[1 - h[0]].injury_on_any_damage
                succeeded = False
            if taken >= injury_damage or cripple:
                t = h[0]
                faces = roll(3, 6, purpose_injury[t])
                bonus = (types[round_winner].injury if succeeded else 0) + stip.injury_chance
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

        if record:
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


__all__ = ["resolve", "COUNTOUT", "DEFAULT_DQ_THRESHOLD", "DOUBLE_COUNTOUT", "DOUBLE_DQ", "DQ", "Hit", "INJURY_DAMAGE", "INJURY_TARGET", "InjuryCheck", "MatchResult", "MatchSetup", "NATURAL_18", "NORMAL", "NO_DICE", "NO_REASONS", "PIN", "Round", "Rules", "STYLE_DICE", "SUBMISSION", "Side", "SideRound", "Stipulation", "TIME_LIMIT", "VictoryCheck", "WIN_AT", "count_for", "style_die"]


# ---------------------------------------------------------------- the odds' record-free path
#
# `prepare` builds a setup's constants once (`MatchMatch.trial_setup`); `play` plays the
# match on them as `resolve` plays it, roll for roll, keeping nothing but the winner, the
# finish and the last round, and taking its d6 from the dice's buffer a round at a time
# (`SeededDice.d6_buffer`) instead of one logged roll at a time. Every rule below is
# `resolve`'s, in `resolve`'s dice order: a change to one is a change to both, and
# tests/test_mm_odds_path.py holds them to the same results over thousands of random
# matches (every round type, stipulations, the fed's readings, plans and conditionals).

ROUND_D6 = 32  # the most d6 a round rolls after its style: per side 3 + 3 High Risk + 2 DQ + 2 Vile Cheat; 2 x 3 injury; 2 x 3 victory


class Prepared:
    """A two-side setup's constants for `play`, built once for many trials."""

    __slots__ = ("setup", "constants")

    def __init__(self, setup: MatchSetup) -> None:
        self.setup = setup
        sides = setup.sides
        stip = setup.stipulation
        rules = setup.rules
        table = setup.table
        halved_in_table = frozenset(stip.halved_styles) if rules.halved_styles == "table" else frozenset()
        halved_in_value = () if halved_in_table else stip.halved_styles
        styles = []
        for i, side in enumerate(sides):  # VII's halved styles, then IV.1.b's "-" style, as `resolve`
            values = dict(side.sheet.styles)
            for halved in halved_in_value:
                values[halved] = math.ceil(values[halved] / 2)
            minus = sides[1 - i].strategy.minus
            values[minus] = math.ceil(values[minus] / 2)
            styles.append(values)
        entries = {s: table.count(s) for s in table}
        zeros = [sum(n for s, n in entries.items() if values[s] == 0) for values in styles]
        weight = [s.sheet.styles["weight"] for s in sides]
        heavier = (1 if weight[0] > weight[1] else 0, 1 if weight[1] > weight[0] else 0)
        strategies = [s.strategy for s in sides]
        fixed = strategies[0].fixed and strategies[1].fixed
        specials = [s.specials if s.specials is not None else 10**6 for s in sides]
        high_spots = [s.sheet.high_spots for s in sides]
        watch = not fixed or any(strategies[i].spends[0] > specials[i] or strategies[i].spends[1] > high_spots[i] for i in (0, 1))
        # a fixed list read straight: each round's two actions (type, target), a side's
        # list as long as the match or the round past its end fails as `resolve` fails
        plan = tuple(zip(strategies[0].rounds, strategies[1].rounds)) if fixed else ()
        self.constants = (
            setup.rounds, table, len(table), style_die(len(table)), halved_in_table, styles, entries, zeros,
            [s.sheet.defenses for s in sides], [s.sheet.stamina for s in sides], heavier, [s.injury for s in sides],
            [s.dq_threshold for s in sides], strategies, fixed, plan, specials, high_spots, watch,
            rules.injury_counts == "inflicted", rules.cripple_tie == "check", stip.damage, stip.injury_damage,
            stip.injury_chance, stip.pin,
        )


def prepare(setup: MatchSetup) -> Prepared | MatchSetup:
    """What `play` plays a setup on: its constants for two sides; three or four sides are
    played by `resolve_many` itself."""
    return Prepared(setup) if len(setup.sides) == 2 else setup


def play(prepared: Prepared | MatchSetup, dice: Dice) -> tuple[int | None, str, int]:
    """The match as `resolve` plays it on these dice, keeping no records: (winner, method,
    end round). Dice without a d6 buffer (scripted ones) are rolled through `resolve`."""
    window = getattr(dice, "d6_buffer", None)
    if type(prepared) is not Prepared or window is None:
        setup = prepared.setup if type(prepared) is Prepared else prepared
        result = resolve(setup, dice, record=False)
        return result.winner, result.method, result.end_round
    (rounds, table, table_size, die, halved_in_table, start_styles, entries, start_zeros, defenses, start_stamina, heavier,
     start_injury, start_threshold, strategies, fixed, plan, specials, high_spots, watch, inflicted, cripple_tie,
     stip_damage, injury_damage, injury_chance, stip_pin) = prepared.constants
    styles = [start_styles[0].copy(), start_styles[1].copy()]
    zeros = start_zeros.copy()
    stamina = start_stamina.copy()
    injury = start_injury.copy()
    threshold = start_threshold.copy()
    if watch:
        specials_left, high_spots_left = specials.copy(), high_spots.copy()
    if not fixed:
        occurrences = dict.fromkeys(table, 0)
    other = dice.roll  # the style die when the table needs more than a d6: the dice's other stream
    buffer, at = window(ROUND_D6 + 2)
    limit = len(buffer) - ROUND_D6
    purpose_style = f"round style d{die}"
    styles0, styles1 = styles
    for number in range(1, rounds + 1):
        # IV.2.a: the round's style (rolled again past the table's end, or for a halved style's weight)
        while True:
            if die == 6:
                if at > limit:
                    buffer, at = window(ROUND_D6 + 2, at)
                    limit = len(buffer) - ROUND_D6
                face = buffer[at]
                at += 1
            else:
                face = other(1, die, purpose_style)[0]
            if face > table_size:
                continue
            style = table[face - 1]
            if halved_in_table and style in halved_in_table:
                if at > limit:
                    buffer, at = window(ROUND_D6 + 2, at)
                    limit = len(buffer) - ROUND_D6
                at += 1
                if buffer[at - 1] > 3:
                    continue
            break
        if at > limit:
            buffer, at = window(ROUND_D6 + 2, at)
            limit = len(buffer) - ROUND_D6

        if fixed:
            one, two = plan[number - 1]
        else:
            occurrences[style] += 1
            one = strategies[0].choose(number, style, occurrences[style], {"specials_left": specials_left[0], "high_spots_left": high_spots_left[0], "stamina": stamina[0], "opponent_stamina": stamina[1]})[0]
            two = strategies[1].choose(number, style, occurrences[style], {"specials_left": specials_left[1], "high_spots_left": high_spots_left[1], "stamina": stamina[1], "opponent_stamina": stamina[0]})[0]
        type_one, type_two = one.type, two.type
        if watch:  # II, III.2: a Special or High Spot with none left is a Normal round
            if type_one.special or type_one.high_spot:
                left = specials_left if type_one.special else high_spots_left
                if left[0] > 0:
                    left[0] -= 1
                else:
                    type_one = NORMAL
            if type_two.special or type_two.high_spot:
                left = specials_left if type_two.special else high_spots_left
                if left[1] > 0:
                    left[1] -= 1
                else:
                    type_two = NORMAL

        # IV.2.b/c: side 1's attack and DQ check, then side 2's; a DQ ends the match there
        f1, f2, f3 = buffer[at], buffer[at + 1], buffer[at + 2]
        at += 3
        if type_one.high_risk_dice:
            total_one = 0
            for f in (f1, f2, f3):
                if f != 6:
                    total_one += f
                    if f == 3:
                        total_one += buffer[at]
                        at += 1
        else:
            total_one = f1 + f2 + f3
        total_one += styles0[style] + type_one.attack
        if type_one.dq_check:
            dq_total = buffer[at] + buffer[at + 1]
            at += 2
            if dq_total >= threshold[0]:
                dice.round = number
                window(0, at)
                return 1, DQ, number
            total_one += dq_total
            extra = type_one.extra_dice_after_dq
            if extra:
                total_one += sum(buffer[at:at + extra])
                at += extra
            threshold[0] -= 1
        f1, f2, f3 = buffer[at], buffer[at + 1], buffer[at + 2]
        at += 3
        if type_two.high_risk_dice:
            total_two = 0
            for f in (f1, f2, f3):
                if f != 6:
                    total_two += f
                    if f == 3:
                        total_two += buffer[at]
                        at += 1
        else:
            total_two = f1 + f2 + f3
        total_two += styles1[style] + type_two.attack
        if type_two.dq_check:
            dq_total = buffer[at] + buffer[at + 1]
            at += 2
            if dq_total >= threshold[1]:
                dice.round = number
                window(0, at)
                return 0, DQ, number
            total_two += dq_total
            extra = type_two.extra_dice_after_dq
            if extra:
                total_two += sum(buffer[at:at + extra])
                at += extra
            threshold[1] -= 1

        # IV.2.d: the round's winner hits the loser, a style stopping at 0 and the excess
        # spilling into Stamina; IV.2.e: the injury check; IV.2.f: the winner's victory check
        if total_one != total_two:
            if total_one > total_two:
                winner, loser, margin, wtype, target = 0, 1, total_one - total_two, type_one, one.target
            else:
                winner, loser, margin, wtype, target = 1, 0, total_two - total_one, type_two, two.target
            dealt = 1 + margin // 5 + wtype.damage + stip_damage
            if dealt < 1:
                dealt = 0
            else:
                dealt -= defenses[loser].get(style, 0)
                if dealt < 1:
                    dealt = 1
            if wtype.damage_after_defense:
                dealt += wtype.damage_after_defense
                if dealt < 0:
                    dealt = 0
            left = stamina[loser]
            if target == STAMINA:
                gone = dealt if dealt < left else left
                stamina[loser] = left - gone
            else:
                values = styles[loser]
                before = values[target]
                if dealt < before:
                    values[target] = before - dealt
                    gone = dealt
                else:
                    values[target] = 0
                    if before > 0 and target in entries:
                        zeros[loser] += entries[target]
                    spill = dealt - before
                    if spill > left:
                        spill = left
                    stamina[loser] = left - spill
                    gone = before + spill
            taken = dealt if inflicted else gone
            cripple = taken > 0 and wtype.injury_on_any_damage
            if cripple or taken >= injury_damage:
                total = (buffer[at] + buffer[at + 1] + buffer[at + 2] - stamina[loser] - styles[loser][style] - defenses[loser].get(style, 0)
                         + (wtype.injury if cripple else 0) + injury_chance)
                at += 3
                if total >= INJURY_TARGET:
                    injury[loser] += 1
            f1, f2, f3 = buffer[at], buffer[at + 1], buffer[at + 2]
            at += 3
            if f1 + f2 + f3 + heavier[winner] + zeros[loser] + wtype.pin + injury[loser] - stamina[loser] - table_size + stip_pin >= WIN_AT or f1 == f2 == f3 == 6:
                dice.round = number
                window(0, at)
                return winner, wtype.finish_after, number
            continue

        # a tie: "both sides take 1 point of damage with no reduction", each on the target
        # the other named; each then checks for injury (no Cripple +2) and victory, side 1 first
        lost = []
        for t, target in ((0, two.target), (1, one.target)):
            if target == STAMINA:
                gone = 1 if stamina[t] > 0 else 0
                stamina[t] -= gone
            else:
                values = styles[t]
                before = values[target]
                if before > 0:
                    values[target] = before - 1
                    gone = 1
                    if before == 1 and target in entries:
                        zeros[t] += entries[target]
                else:
                    gone = 1 if stamina[t] > 0 else 0
                    stamina[t] -= gone
            lost.append(gone)
        for t in (0, 1):
            taken = 1 if inflicted else lost[t]
            if taken >= injury_damage or (cripple_tie and taken > 0 and (type_two if t == 0 else type_one).injury_on_any_damage):
                total = buffer[at] + buffer[at + 1] + buffer[at + 2] - stamina[t] - styles[t][style] - defenses[t].get(style, 0) + injury_chance
                at += 3
                if total >= INJURY_TARGET:
                    injury[t] += 1
        won = []
        for c, o, ctype in ((0, 1, type_one), (1, 0, type_two)):
            f1, f2, f3 = buffer[at], buffer[at + 1], buffer[at + 2]
            at += 3
            if f1 + f2 + f3 + heavier[c] + zeros[o] + ctype.pin + injury[o] - stamina[o] - table_size + stip_pin >= WIN_AT or f1 == f2 == f3 == 6:
                won.append(c)
        if won:
            dice.round = number
            window(0, at)
            if len(won) == 2:
                return None, DOUBLE_COUNTOUT, number
            return won[0], (type_one if won[0] == 0 else type_two).finish_after, number
    dice.round = rounds
    window(0, at)
    return None, TIME_LIMIT, rounds
