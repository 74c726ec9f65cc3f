"""MatchMatch with more than two sides: triangle and four-way matches.

The rulebook says strategies allow them (III.1) but not how a round works among three or
four; docs/rulings/matchmatch.md ("Matches of three or more sides") settles it:
- every side still in the match attacks, in card order (the same dice order as singles);
  a DQ stops the round there: the sides after it roll nothing that round;
- the highest total wins the round and the lowest total takes the damage; the margin is
  between those two, and the winner checks for victory against that side (the "victim");
  sides tied for the lowest total are split by a logged d(number tied), read in card order,
  rolled after the attacks and before any injury check;
- sides tied for the highest each take 1 point (no reduction) on the target the next tied
  side named, and each checks for victory against the victim (or, when every side tied,
  against the next tied side); two or more winning checks are a double count-out;
- a DQ'ed side is eliminated; the last side standing wins by DQ;
- the first fall wins the match.
With two sides every rule above is the singles rule, and a test holds this engine to the
singles engine roll for roll.
"""

from __future__ import annotations

import math
from dataclasses import replace

from fedtool.kernel.dice import Dice
from .match import (
    DOUBLE_COUNTOUT,
    DQ,
    INJURY_TARGET,
    NATURAL_18,
    NORMAL,
    TIME_LIMIT,
    WIN_AT,
    MatchResult,
    MatchSetup,
    _join,
    count_for,
    style_die,
)
from .rules import STAMINA


def resolve_many(setup: MatchSetup, dice: Dice, record: bool = True) -> MatchResult:
    """Play a match of three or four sides; `record` False (odds) keeps no rounds for a
    writeup: the same dice, the same result."""
    sides = setup.sides
    n = len(sides)
    stip = setup.stipulation
    table = setup.style_table()
    die = style_die(len(table))
    names = [s.name for s in sides]

    rules = setup.rules
    halved_in_table = frozenset(stip.halved_styles) if rules.halved_styles == "table" else frozenset()
    inflicted = rules.injury_counts == "inflicted"
    cripple_tie = rules.cripple_tie == "check"
    styles = []
    for i, side in enumerate(sides):
        values = dict(side.sheet.styles)
        for halved in () if halved_in_table else stip.halved_styles:
            values[halved] = math.ceil(values[halved] / 2)
        for minus in {other.strategy.minus for j, other in enumerate(sides) if j != i}:
            values[minus] = math.ceil(values[minus] / 2)
        styles.append(values)
    start_styles = [dict(v) for v in styles]
    stamina = [s.sheet.stamina for s in sides]
    weight = [s.sheet.styles["weight"] for s in sides]
    injury = [s.injury for s in sides]
    threshold = [s.dq_threshold for s in sides]
    specials_left = [s.specials if s.specials is not None else 10**6 for s in sides]
    high_spots_left = [s.sheet.high_spots for s in sides]
    occurrences = dict.fromkeys(table, 0)
    active = list(range(n))
    eliminated: list[int] = []
    rounds: list[tuple] = []
    winner = beaten = None
    method, end_round = TIME_LIMIT, setup.rounds

    def hit(t: int, target: str, rolled: int, dealt: int) -> tuple:
        if target == STAMINA:
            before = stamina[t]
            taken = min(dealt, before)
            stamina[t] -= taken
            return (t, target, rolled, dealt, 0, taken, before, stamina[t])
        before = styles[t][target]
        to_style = min(dealt, before)
        styles[t][target] = before - to_style
        to_stamina = min(dealt - to_style, stamina[t])
        stamina[t] -= to_stamina
        return (t, target, rolled, dealt, to_style, to_stamina, before, styles[t][target])

    for number in range(1, setup.rounds + 1):
        dice.round = number
        face = dice.roll(1, die, f"round style d{die}")[0]
        style_faces = [face]
        while True:
            while face > len(table):
                face = dice.roll(1, die, f"round style d{die}")[0]
                style_faces.append(face)
            style = table[face - 1]
            if style not in halved_in_table or dice.roll(1, 6, "halved style d6 (4-6 roll again)")[0] <= 3:
                break
            face = dice.roll(1, die, f"round style d{die}")[0]
            style_faces.append(face)
        occurrences[style] += 1

        acts, why = {}, {}
        for i in active:
            state = {"specials_left": specials_left[i], "high_spots_left": high_spots_left[i], "stamina": stamina[i],
                     "opponent_stamina": min(stamina[j] for j in active if j != i)}
            act, reason = sides[i].strategy.choose(number, style, occurrences[style], state)
            if act.type.special and specials_left[i] <= 0 or act.type.high_spot and high_spots_left[i] <= 0:
                reason = _join(reason, f"no {'Special' if act.type.special else 'High Spot'} left: played as a Normal round")
                act = replace(act, type=NORMAL)
            specials_left[i] -= act.type.special
            high_spots_left[i] -= act.type.high_spot
            acts[i], why[i] = act, reason

        played: list = [None] * n  # aligned with the sides; None for a side eliminated earlier
        totals, out = {}, []
        for i in active:
            rtype = acts[i].type
            faces = dice.roll(3, 6, f"{names[i]} attack 3d6")
            extra: list | tuple = ()
            if rtype.high_risk_dice:
                extra, counted = [], 0
                for f in faces:
                    if f != 6:
                        counted += f
                    if f == 3:
                        extra.append(dice.roll(1, 6, f"{names[i]} High Risk extra d6 for a 3")[0])
                        counted += extra[-1]
            else:
                counted = sum(faces)
            value = styles[i][style]
            total = counted + value + rtype.attack
            dq = None
            if rtype.dq_check:
                dq_faces = dice.roll(2, 6, f"{names[i]} DQ check 2d6")
                if sum(dq_faces) >= threshold[i]:
                    dq = (dq_faces, threshold[i], True, None)
                    out.append(i)
                    played[i] = (acts[i], faces, extra, counted, value, rtype.attack, total, dq, why[i])
                    break  # the round stops at the DQ: the sides after it roll nothing
                else:
                    total += sum(dq_faces)
                    vile = dice.roll(rtype.extra_dice_after_dq, 6, f"{names[i]} Vile Cheat 2d6") if rtype.extra_dice_after_dq else None
                    total += sum(vile or ())
                    dq = (dq_faces, threshold[i], False, vile)
                    threshold[i] -= 1
            totals[i] = total
            played[i] = (acts[i], faces, extra, counted, value, rtype.attack, total, dq, why[i])

        if out:
            for j in active[active.index(out[0]) + 1:]:  # never attacked: their Special or High Spot is not spent
                specials_left[j] += acts[j].type.special
                high_spots_left[j] += acts[j].type.high_spot
            eliminated.extend(out)
            active = [i for i in active if i not in out]
            if record:
                rounds.append((number, style, style_faces, played, None, 0, [], [], [], None))
            if len(active) <= 1:
                end_round = number
                winner, beaten, method = active[0], out[-1], DQ
                break
            continue

        best = max(totals.values())
        top = [i for i in active if totals[i] == best]
        below = [i for i in active if totals[i] < best]
        victim = None
        if below:
            lowest = min(totals[i] for i in below)
            tied = [i for i in below if totals[i] == lowest]
            if len(tied) == 1:
                victim = tied[0]
            else:  # a tie for the lowest total: a logged die, not card order (docs/rulings)
                pick = dice.roll(1, len(tied), f"tie for the lowest total d{len(tied)}: {', '.join(names[i] for i in tied)}")[0]
                victim = tied[pick - 1]
        hits = []
        attacker = {}  # whose attack each hit came from
        if len(top) == 1:
            round_winner = top[0]
            wtype = acts[round_winner].type
            margin = best - totals[victim]
            rolled = max(0, 1 + margin // 5 + wtype.damage + stip.damage)  # damage never heals
            dealt = max(1, rolled - sides[victim].sheet.defenses.get(style, 0)) if rolled >= 1 else rolled
            dealt = max(0, dealt + wtype.damage_after_defense)
            hits.append(hit(victim, acts[round_winner].target, rolled, dealt))
            checkers = [(round_winner, victim)]
        else:
            round_winner, margin = None, 0
            for k, i in enumerate(top):  # each takes 1 on the target the next tied side named
                attacker[i] = top[(k + 1) % len(top)]
                hits.append(hit(i, acts[attacker[i]].target, 1, 1))
            checkers = [(i, victim if victim is not None else top[(k + 1) % len(top)]) for k, i in enumerate(top)]

        injuries = []
        for h in sorted(hits, key=lambda h: active.index(h[0])):
            t = h[0]
            taken = h[3] if inflicted else h[4] + h[5]  # IV.2.e "takes": inflicted, or lost
            if round_winner is not None:
                cripple = succeeded = taken > 0 and acts[round_winner].type.injury_on_any_damage
            else:
                cripple, succeeded = cripple_tie and taken > 0 and acts[attacker[t]].type.injury_on_any_damage, False
            if taken >= stip.injury_damage or cripple:
                faces = dice.roll(3, 6, f"{names[t]} injury check 3d6")
                bonus = (acts[round_winner].type.injury if succeeded else 0) + stip.injury_chance
                style_value, defense = styles[t][style], sides[t].sheet.defenses.get(style, 0)
                total = sum(faces) - stamina[t] - style_value - defense + bonus
                if total >= INJURY_TARGET:
                    injury[t] += 1
                injuries.append((t, faces, total, cripple, total >= INJURY_TARGET, stamina[t], style_value, defense, bonus))

        checks, won = [], []
        for c, o in checkers:
            faces = dice.roll(3, 6, f"{names[c]} victory check 3d6")
            heavier = 1 if weight[c] > weight[o] else 0
            zeros = [styles[o][s] for s in table].count(0)
            pin = acts[c].type.pin
            total = sum(faces) + heavier + zeros + pin + injury[o] - stamina[o] - len(table) + stip.pin
            count = 3 if total >= WIN_AT or faces == NATURAL_18 else count_for(total)
            checks.append((c, faces, total, count, (heavier, zeros, pin, injury[o], stamina[o], len(table), stip.pin)))
            if count == 3:
                won.append((c, o))

        if record:
            rounds.append((number, style, style_faces, played, round_winner, margin, hits, injuries, checks, victim))
        if won:
            end_round = number
            if len(won) > 1:
                method = DOUBLE_COUNTOUT
            else:
                winner, beaten = won[0]
                method = acts[winner].type.finish_after
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
        beaten=beaten,
    )
