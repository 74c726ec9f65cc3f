"""Turn a MatchMatch result into plain data for the writeup templates.

Everything here is fedtool's own words and figures; the players' explanations travel
as separate fields so templates can set them apart (and HTML escapes them).
"""

from __future__ import annotations

from .engine import (
    COUNTOUT,
    DOUBLE_COUNTOUT,
    DOUBLE_DQ,
    DQ,
    PIN,
    SUBMISSION,
    TIME_LIMIT,
    MatchResult,
    MatchSetup,
    style_die,
)
from .grid import LETTERS
from .rules import STAMINA, vocabulary

COUNT_CALLS = {
    0: ("The cover is kicked off before the referee's hand comes down.", "No count: shoulders up at once.", "A lazy cover, shrugged off."),
    1: ("ONE... and a kickout!", "ONE... shoulder up!", "The ref slaps the mat once, no more."),
    2: ("ONE... TWO... kickout! So close!", "ONE... TWO... he gets the shoulder up at two!", "ONE, TWO... NO! A two count!"),
    3: ("ONE... TWO... THREE!", "ONE! TWO! THREE! It's over!", "The referee counts to three!"),
}
# IV.2.f: a check after a Submission round is a submission, after an Illegal or Vile Cheat
# round a count-out (docs/rulings/matchmatch.md, "Victory checks"): the calls follow the
# finish the check would give, so a count-out is never counted to three and a submission
# never pinned (issue 16: the story never contradicts the result)
SUBMISSION_CALLS = {
    0: ("The hold is broken at once.", "He slips the hold before it is locked in.", "No grip: the hold comes apart."),
    1: ("The hold is on... he reaches the ropes!", "He grimaces but will not give it up.", "The hold is broken in the ropes."),
    2: ("The hold is locked in... he nearly taps! No, he holds on!", "His hand is up to tap... and he reaches the ropes!", "So close to a submission!"),
    3: ("He taps out!", "He has no choice: he taps!", "The hold is locked in and he taps!"),
}
COUNTOUT_CALLS = {
    0: ("He is back in the ring before the referee starts to count.", "The fight spills outside, and back in at once.", "No count: both are back inside."),
    1: ("Left outside, he beats the count at four.", "The referee counts... he is back in at five.", "Outside... and back in at six."),
    2: ("The referee counts... EIGHT... NINE... he dives back in!", "Outside and hurt... he beats the count at nine!", "He rolls in at the last second!"),
    3: ("The referee counts... EIGHT... NINE... TEN! He cannot get back in!", "He is still outside at TEN!", "He never makes it back: the count reaches ten!"),
}
DOUBLE_COUNTOUT_CALL = "Both men are down outside... the referee counts to TEN and neither beats it!"
DQ_CALL = "The referee has seen enough."


def _calls_for(method: str) -> dict:
    return SUBMISSION_CALLS if method == SUBMISSION else COUNTOUT_CALLS if method == COUNTOUT else COUNT_CALLS


FINISH_TITLES = {
    PIN: "by pinfall",
    SUBMISSION: "by submission",
    COUNTOUT: "by count-out",
    DQ: "by disqualification",
    DOUBLE_COUNTOUT: "double count-out",
    DOUBLE_DQ: "double disqualification",
    TIME_LIMIT: "time-limit draw",
}


def _dice(faces) -> str:
    return " + ".join(str(f) for f in faces)


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def describe_match(setup: MatchSetup, result: MatchResult) -> dict:
    vocab = vocabulary()
    names = [s.name for s in setup.sides]
    name_of = vocab.style_name
    table = result.style_table

    def side_line(index: int, played, style: str) -> dict:
        action = played.action
        rtype = action.type
        if rtype.high_risk_dice:
            parts = []
            extra = iter(played.extra)
            for f in played.faces:
                if f == 6:
                    parts.append("6 (counts 0)")
                elif f == 3:
                    parts.append(f"3 (+{next(extra)} again)")
                else:
                    parts.append(str(f))
            dice_text = " + ".join(parts)
        else:
            dice_text = _dice(played.faces)
        calc = [f"{dice_text} = {played.counted}", f"{_signed(played.style_value)} {name_of(style)}"]
        if played.bonus:
            calc.append(f"{_signed(played.bonus)} {rtype.name}")
        dq = None
        if played.dq_faces is not None:
            dq_total = sum(played.dq_faces)
            if played.disqualified:
                dq = f"DQ check {_dice(played.dq_faces)} = {dq_total} reaches the threshold of {played.dq_threshold}: DISQUALIFIED!"
            else:
                calc.append(f"+ {dq_total} illegal ({_dice(played.dq_faces)}, under the DQ threshold of {played.dq_threshold})")
                if played.vile_faces is not None:
                    calc.append(f"+ {sum(played.vile_faces)} vile ({_dice(played.vile_faces)})")
        return {
            "name": names[index],
            "type": rtype.name,
            "special": rtype.special,
            "target": name_of(action.target),
            "explanation": action.explanation,
            "calc": " ".join(calc),
            "total": played.total,
            "dq": dq,
            "why": played.why,
        }

    stip = setup.stipulation
    # VII: a cage's "Victory is by escape" (a strap's four corners, a scaffold's ten count):
    # a victory check is told as the stipulation's win, the method recorded stays the
    # engine's (docs/rulings/matchmatch.md, "Specialty matches")
    told = bool(stip.victory)
    last = result.rounds[-1].number if result.rounds else None
    standing = list(range(len(names)))
    rounds = []
    for rnd in result.rounds:
        style = name_of(rnd.style)
        if len(rnd.style_faces) > 1:
            style_roll = ", ".join(str(f) for f in rnd.style_faces[:-1]) + f" (roll again), then {rnd.style_faces[-1]}"
        else:
            style_roll = str(rnd.style_faces[0])
        in_ring = [(i, played) for i, played in enumerate(rnd.sides) if played is not None]
        sides = [side_line(i, played, rnd.style) for i, played in in_ring]
        out = [i for i, p in in_ring if p.disqualified]
        if out:
            standing = [i for i in standing if i not in out]
            gone = " and ".join(names[i] for i in out)
            if len(names) == 2:
                outcome = f"{DQ_CALL} {gone} is disqualified."
            elif len(standing) <= 1:
                outcome = f"{DQ_CALL} {gone} is disqualified and eliminated: {names[standing[0]]} is the last one standing."
            else:
                outcome = f"{DQ_CALL} {gone} is disqualified and eliminated; {' and '.join(names[i] for i in standing)} fight on."
        elif rnd.winner is None:
            best = max(p.total for _, p in in_ring)
            tied = [names[i] for i, p in in_ring if p.total == best]
            outcome = f"Dead even at {best}: {' and '.join(tied)} each take 1 point of damage."
        else:
            w = rnd.winner
            other = rnd.victim if rnd.victim is not None else 1 - w
            beaten = "" if len(setup.sides) == 2 else f" over {names[other]}"
            outcome = f"{names[w]} takes the round{beaten}, {rnd.sides[w].total} to {rnd.sides[other].total} (by {rnd.margin})."
        damage = []
        for hit in rnd.hits:
            who = names[hit.side]
            target = name_of(hit.target)
            reductions = ""
            if hit.rolled != hit.dealt:
                reductions = f" ({hit.rolled} before defense)"
            if hit.target == STAMINA:
                damage.append(f"{hit.dealt} damage{reductions} to {who}'s Stamina ({hit.before} → {hit.after}).")
            else:
                text = f"{hit.dealt} damage{reductions} to {who}'s {target} ({hit.before} → {hit.after})"
                if hit.to_stamina:
                    text += f", {hit.to_stamina} spilling into Stamina"
                damage.append(text + ".")
        injuries = []
        for check in rnd.injuries:
            why = "any damage from a Cripple" if check.cripple else f"{setup.stipulation.injury_damage} or more damage taken"
            verdict = "INJURED! (+1 injury point)" if check.injured else "no injury"
            sum_text = f"{_dice(check.faces)} - {check.stamina} Stamina - {check.style_value} {style} - {check.defense} defense"
            if check.bonus:
                sum_text += f" {_signed(check.bonus)} bonus"
            injuries.append(f"Injury check on {names[check.side]} ({why}): {sum_text} = {check.total}: {verdict}.")
        pins = []
        final_round = rnd.number == last and result.method != TIME_LIMIT
        for k, check in enumerate(rnd.checks):
            finish = rnd.sides[check.side].action.type.finish_after
            if final_round and result.method == DOUBLE_COUNTOUT and check.count == 3:
                call = ("He has done enough to win... but so has his opponent." if k < len(rnd.checks) - 1
                        else "Both reach the win at the same moment, and the referee cannot split them." if told else DOUBLE_COUNTOUT_CALL)
            elif told and check.count == 3:
                call = stip.victory
            elif told and check.count:
                call = stip.near_victory or _calls_for(finish)[check.count][rnd.number % 3]
            else:
                calls = _calls_for(finish)[check.count]
                call = calls[rnd.number % len(calls)]
            if check.natural_18:
                call = f"A natural 18! {call}"
            parts = [_dice(check.faces)]
            for value, label in (
                (check.weight, "heavier"),
                (check.zero_styles, "styles at 0"),
                (check.round_bonus, rnd.sides[check.side].action.type.name),
                (check.injury, "injury points"),
                (check.stipulation, "stipulation"),
            ):
                if value:
                    parts.append(f"{_signed(value)} {label}")
            parts.append(f"- {check.stamina} Stamina - {check.styles} styles")
            pins.append({"name": names[check.side], "roll": " ".join(parts), "total": check.total, "count": check.count, "call": call})
        rounds.append({"number": rnd.number, "style": style, "style_roll": style_roll, "sides": sides, "outcome": outcome, "damage": damage, "injuries": injuries, "pins": pins})

    title = FINISH_TITLES[result.method]
    if result.winner is not None:
        winner, loser = names[result.winner], names[result.loser]
        if told and result.method != DQ:
            finish_text = f"{winner} wins {stip.victory_title or 'the ' + stip.name} over {loser} in round {result.end_round} (recorded as a win {title})."
            title = stip.victory_title or title
        else:
            finish_text = {
                PIN: f"{winner} pins {loser} in round {result.end_round}.",
                SUBMISSION: f"{loser} taps out! {winner} wins by submission in round {result.end_round}.",
                COUNTOUT: f"{loser} cannot answer the count: {winner} wins by count-out in round {result.end_round}.",
                DQ: f"{loser} is disqualified in round {result.end_round}: {winner} wins by DQ.",
            }[result.method]
        headline = f"{winner} def. {loser} ({title}, round {result.end_round})"
    else:
        finish_text = {
            DOUBLE_COUNTOUT: f"{'Neither man' if len(names) == 2 else 'No one'} beats the count in round {result.end_round}: a double count-out.",
            DOUBLE_DQ: f"Both men are disqualified in round {result.end_round}.",
            TIME_LIMIT: f"The bell rings after {result.end_round} rounds: a time-limit draw.",
        }[result.method]
        if result.method == DOUBLE_COUNTOUT and told:
            finish_text = f"No one wins in round {result.end_round}: the referee cannot split them (recorded as a double count-out)."
        headline = f"{' vs. '.join(names)}: {title} (round {result.end_round})"

    if stip.id:
        headline = f"{stip.name}: {headline}"
    return {
        "headline": headline,
        "stipulation": {"name": stip.name, "description": stip.description} if stip.id else None,
        "finish": finish_text,
        "method": result.method,
        "method_title": FINISH_TITLES[result.method],
        "winner": None if result.winner is None else names[result.winner],
        "end_round": result.end_round,
        "rounds_scheduled": setup.rounds,
        "names": names,
        "grid": [[vocab.style_by_id[s].abbr for s in row] for row in setup.grid],
        "grid_letters": LETTERS,
        "grid_picks": [side.strategy.grid for side in setup.sides],
        "style_table": [name_of(s) for s in table],
        "style_die": style_die(len(table)),
        "strategies": [
            {
                "name": side.name,
                "plus": [name_of(s) for s in side.strategy.plus],
                "minus": name_of(side.strategy.minus),
                "grid": side.strategy.grid,
                "default": side.strategy.default,
            }
            for side in setup.sides
        ],
        "start_styles": [{name_of(s): v for s, v in styles.items() if s in table} for styles in result.start_styles],
        "final": [
            {"name": names[i], "stamina": result.final_stamina[i], "injury": result.injuries[i]}
            for i in range(len(setup.sides))
        ],
        "rounds": rounds,
    }
