"""Turn a MatchMatch result into plain data for the writeup templates: the match told as a
bout (issue 16), and the arithmetic of every round beside it.

The story is told with the ruleset's phrase table (`data/commentary.yaml`, with the fed's
`templates/commentary/matchmatch.yaml` over it) through a teller of the match's own
(`Booking.teller()`): the same match is told in the same words every time, and the game's
dice are never touched. Rounds that change nothing are collapsed into one line; the rounds
that matter (a near fall, a swing of momentum, a warning, a style damaged to nothing, the
finish) are told in full, with the players' explanations woven in where they belong.

Everything here is fedtool's own words and figures but the names and the players'
explanations: those travel as separate parts ("quote") so templates set them apart and
escape them (HTML autoescapes; Markdown templates escape every value printed).
"""

from __future__ import annotations

import re

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

# IV.2.f: a check after a Submission round is a submission, after an Illegal or Vile Cheat
# round a count-out (docs/rulings/matchmatch.md, "Victory checks"): the calls follow the
# finish the check would give, so a count-out is never counted to three and a submission
# never pinned (issue 16: the story never contradicts the result). Kind by count (0-3).
CALL_KINDS = {
    PIN: ("cover_none", "one_count", "near_fall", "pinfall"),
    SUBMISSION: ("hold_none", "hold_one", "hold_near", "tap_out"),
    COUNTOUT: ("count_none", "count_one", "count_near", "count_out"),
}

# every kind this module tells: the packaged table must have each (tests/test_mm_prose.py)
KINDS = frozenset({
    "opening", "title_stakes", "styles_in_play", "style_halved", "minus_unused", "stipulation_halved", "injured_coming_in",
    "move", "move_plain", "answer", "high_spot_stuffed", "high_risk_botch", "edge", "clear", "rout", "tie",
    "style_zeroed", "spill", "injury", "dq_warning", "dq", "finisher_kickout", "natural_18",
    *(kind for kinds in CALL_KINDS.values() for kind in kinds), "double_countout", "double_first", "double_last",
    "escape_none", "escape_attempt", "escape", "comeback", "swing", "turning_point", "control", "stalemate", "upset",
    "tag", "time_limit", "title_finish",
})
# the facts a phrase may be chosen by, and the values this module gives them (docs/commentary.md)
FACTS = {
    "alignment": "face or heel (a heel's strategy plays Illegal or Vile Cheat rounds or takes Cheating as a \"+\" style)",
    "match_type": "singles, tag, triangle, four_way",
    "stipulation": "cage, strap, scaffold, a fed's own stipulation id, or none",
    "title": "yes (a title is on the line) or no",
    "round_type": "normal, high_risk, high_spot, defensive, illegal, finisher, cripple, high_impact, vile_cheat, submission",
    "style": "the round's style: technical, power, martial_arts, brawling, high_flying, weight, cheating, teamwork",
}

FINISH_TITLES = {
    PIN: "by pinfall",
    SUBMISSION: "by submission",
    COUNTOUT: "by count-out",
    DQ: "by disqualification",
    DOUBLE_COUNTOUT: "double count-out",
    DOUBLE_DQ: "double disqualification",
    TIME_LIMIT: "time-limit draw",
}

MOVE = "\ue000"  # where a phrase's {move} goes: replaced by the player's words, set apart
INLINE_QUOTE = 240  # a longer explanation, or one of several lines, is set apart as a block
ROUT, CLEAR = 10, 5  # a round's margin: 10 or more a rout, 5 or more clear, else an edge
NOTABLE = frozenset({"high_risk", "high_spot", "illegal", "vile_cheat", "finisher", "cripple", "high_impact", "submission"})


def _dice(faces) -> str:
    return " + ".join(str(f) for f in faces)


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def _points(k: int, unit: str) -> str:
    return f"{k} {unit}{'' if k == 1 else 's'}"


def is_heel(strategy) -> bool:
    """A MatchMatch sheet carries no alignment: a heel is a side whose strategy plays Illegal
    or Vile Cheat rounds or takes Cheating as a "+" style (III.1, III.2), a face any other."""
    return "cheating" in strategy.plus or any(action.type.dq_check for action in strategy.actions())


class Story:
    """The paragraphs of a told match: each a list of blocks, a block either a run of text
    parts (fedtool's words, or a player's short explanation set apart inline) or a player's
    long explanation set apart on its own."""

    def __init__(self, teller, facts: dict[str, str], names: list[str] = ()):
        self.teller = teller
        self.facts = facts
        self.paragraphs: list[dict] = []
        # "The Rulebook Rivals's" reads "The Rulebook Rivals'": the possessive of a name ending in s
        self.plural = [name for name in names if name.endswith(("s", "S"))]

    def paragraph(self, label: str | None = None) -> None:
        self.paragraphs.append({"label": label, "blocks": []})

    def say(self, kind: str, facts: dict | None = None, move: str = "", **values) -> str:
        """Tell one phrase of `kind` (the player's `move` woven in where the phrase names it)."""
        text = self.teller.say(kind, {**self.facts, **(facts or {})}, move=MOVE if move else "", **values)
        self.add(text, move)
        return text

    def add(self, text: str, move: str = "") -> None:
        for name in self.plural:
            text = re.sub(re.escape(name) + r"'s\b", lambda _, name=name: f"{name}'", text)
        if move and ("\n" in move.strip() or len(move) > INLINE_QUOTE):
            # a long explanation is set apart after the sentence, which is told without it
            sentence = " ".join(text.replace(f" ({MOVE})", "").replace(f"({MOVE})", "").replace(MOVE, "").split())
            blocks = self.paragraphs[-1]["blocks"]
            self._text(blocks, sentence, new_sentence=True)
            blocks.append({"quote": move.strip(), "parts": []})
            return
        pieces = text.split(MOVE)
        if move and len(pieces) == 1:  # a fed's phrase without {move}: the player's words follow it
            pieces = [text + " ", ""]
        blocks = self.paragraphs[-1]["blocks"]
        for k, piece in enumerate(pieces):
            self._text(blocks, piece, new_sentence=k == 0)
            if k == 0 and len(pieces) > 1:
                self._quote(blocks, move, lead=piece[-1:].isspace() or not piece)
                if len(pieces) == 2 and not pieces[1].strip() and move[-1:] not in ".!?\"')":
                    pieces[1] = "."

    def _parts(self, blocks: list) -> list:
        if not blocks or blocks[-1]["quote"]:
            blocks.append({"quote": "", "parts": []})
        return blocks[-1]["parts"]

    def _text(self, blocks: list, piece: str, new_sentence: bool) -> None:
        if not piece.strip():
            return
        parts = self._parts(blocks)
        lead = bool(parts) and (new_sentence or piece[0].isspace())
        parts.append({"text": piece.strip(), "quote": False, "lead": lead})

    def _quote(self, blocks: list, move: str, lead: bool) -> None:
        parts = self._parts(blocks)
        parts.append({"text": " ".join(move.split()), "quote": True, "lead": bool(parts) and lead})


def describe_match(setup: MatchSetup, result: MatchResult, teller, *, for_title: str | None = None) -> dict:
    """The writeup's data: the story (`story`: paragraphs told with `teller`, a fresh
    `fedtool.kernel.commentary.Teller` of this match), the finish as recorded (`finish`,
    `headline`) and each round's arithmetic (`rounds`)."""
    vocab = vocabulary()
    names = [s.name for s in setup.sides]
    name_of = vocab.style_name
    table = result.style_table
    stip = setup.stipulation
    n = len(names)
    match_type = "tag" if setup.tag else {2: "singles", 3: "triangle"}.get(n, "four_way")
    story = Story(teller, {"match_type": match_type, "stipulation": stip.id or "none", "title": "yes" if for_title else "no"}, names)
    heel = [is_heel(side.strategy) for side in setup.sides]

    def side_facts(i: int, rtype=None, style: str | None = None) -> dict:
        facts = {"alignment": "heel" if heel[i] else "face"}
        if rtype is not None:
            facts["round_type"] = rtype.id
        if style is not None:
            facts["style"] = style
        return facts

    # VII: a cage's "Victory is by escape" (a strap's four corners, a scaffold's ten count):
    # a victory check is told as the stipulation's win, the method recorded stays the
    # engine's (docs/rulings/matchmatch.md, "Specialty matches")
    told = bool(stip.victory)
    near_told = told and (bool(stip.near_victory) or _has_phrase(teller, "escape_attempt", "stipulation", stip.id))
    _opening(story, setup, result, names, for_title, side_facts)

    arithmetic = [_arithmetic(setup, result, rnd, names) for rnd in result.rounds]
    last = result.rounds[-1].number if result.rounds else None
    standing = list(range(n))
    quoted: list[set] = [set() for _ in names]  # each side's explanations told already
    taken = [0] * n  # damage each side has taken, for the lead
    leader = None
    streak_side, streak = None, 0
    turning = _turning_point(result, n)
    quiet: list[tuple] = []  # quiet rounds waiting to be told (collapsed when they say nothing new)
    rounds = []

    def fresh(i: int, action) -> str:
        words = (action.explanation or "").strip()
        return words if words and words not in quoted[i] else ""

    def tell_move(i: int, other: int, played, style: str, kind_move: str = "move", kind_plain: str = "move_plain") -> None:
        action = played.action
        words = fresh(i, action)
        values = {"attacker": names[i], "defender": names[other], "style": name_of(style), "target": name_of(action.target)}
        facts = side_facts(i, action.type, style)
        if action.type.id in NOTABLE:  # told as what it is (a finisher, a cheat...), not by the round's style
            facts = {k: v for k, v in facts.items() if k == "round_type" or (k == "alignment" and action.type.dq_check)}
        if words:
            quoted[i].add(words)
            story.say(kind_move, facts, move=words, **values)
        else:
            story.say(kind_plain, facts, **values)

    def tell_answer(i: int, winner: int, played) -> None:
        """The round's loser's own words, when they are new: what he tried."""
        words = fresh(i, played.action)
        if words:
            quoted[i].add(words)
            story.say("answer", side_facts(i, played.action.type, None), move=words, attacker=names[i], defender=names[winner])

    def flush_quiet() -> None:
        """Quiet rounds: a run of two or more that give no new words collapses to one line."""
        group: list[tuple] = []
        for item in [*quiet, None]:
            if item is not None and not item[1]:
                group.append(item)
                continue
            if len(group) >= 2:
                first, end = group[0][0].number, group[-1][0].number
                winners = {r.winner for r, _ in group}
                story.paragraph(f"Rounds {first}-{end}")
                if len(winners) == 1 and None not in winners:
                    w = winners.pop()
                    others = {r.victim if r.victim is not None else 1 - w for r, _ in group}
                    story.say("control", side_facts(w), name=names[w], other=_and([names[o] for o in sorted(others)]),
                              first=first, last=end, rounds=len(group))
                else:
                    story.say("stalemate", first=first, last=end, rounds=len(group))
            elif group:
                _brief(group[0][0])
            group = []
            if item is not None:
                _brief(item[0])
        quiet.clear()

    def _brief(rnd) -> None:
        story.paragraph(f"Round {rnd.number}")
        w = rnd.winner
        if w is None:
            in_ring = [i for i, p in enumerate(rnd.sides) if p is not None]
            for i in in_ring[:2]:
                tell_move(i, in_ring[1] if i == in_ring[0] else in_ring[0], rnd.sides[i], rnd.style)
            _tie(rnd)
        else:
            other = rnd.victim if rnd.victim is not None else 1 - w
            tell_move(w, other, rnd.sides[w], rnd.style)
            tell_answer(other, w, rnd.sides[other])
            _outcome(rnd, w, other)
        for k, check in enumerate(rnd.checks):
            if check.count:
                story.add(calls[rnd.number][k])

    def _tie(rnd) -> None:
        in_ring = [(i, p) for i, p in enumerate(rnd.sides) if p is not None]
        best = max(p.total for _, p in in_ring)
        tied = [i for i, p in in_ring if p.total == best]
        story.say("tie", first=names[tied[0]], second=_and([names[i] for i in tied[1:]]), score=best)

    def _outcome(rnd, w: int, other: int) -> None:
        kind = "rout" if rnd.margin >= ROUT else "clear" if rnd.margin >= CLEAR else "edge"
        story.say(kind, side_facts(w, rnd.sides[w].action.type, rnd.style), winner=names[w], loser=names[other],
                  style=name_of(rnd.style), target=name_of(rnd.sides[w].action.target),
                  score=f"{rnd.sides[w].total} to {rnd.sides[other].total}", margin=rnd.margin)

    # every victory check's call, told once (the story and the arithmetic say the same)
    calls: dict[int, list[str]] = {}
    for rnd in result.rounds:
        style = rnd.style
        # the round's calls, the outcome record and the damage
        final_round = rnd.number == last and result.method != TIME_LIMIT
        said = []
        for k, check in enumerate(rnd.checks):
            finish = rnd.sides[check.side].action.type.finish_after
            victim = _victim(rnd, check.side, n)
            who = {"attacker": names[check.side], "defender": names[victim]}
            facts = side_facts(check.side, rnd.sides[check.side].action.type, style)
            if final_round and result.method == DOUBLE_COUNTOUT and check.count == 3:
                if k < len(rnd.checks) - 1:
                    call = teller.say("double_first", {**story.facts, **facts}, attacker=names[check.side])
                elif told:
                    call = teller.say("double_last", {**story.facts, **facts}, attacker=names[check.side])
                else:
                    call = teller.say("double_countout", {**story.facts, **facts}, sides=_and(names))
            elif told and check.count == 3:
                call = teller.say("escape", {**story.facts, **facts}, victory=stip.victory, **who)
            elif told and check.count and near_told:
                call = teller.say("escape_attempt", {**story.facts, **facts}, near_victory=stip.near_victory, **who)
            elif told and not check.count:
                call = teller.say("escape_none", {**story.facts, **facts}, **who)
            else:
                call = teller.say(CALL_KINDS[finish][check.count], {**story.facts, **facts}, **who)
            if check.natural_18:
                call = f"{teller.say('natural_18', {**story.facts, **facts}, attacker=names[check.side])} {call}"
            said.append(call)
            arithmetic[rnd.number - 1]["pins"][k]["call"] = call
        calls[rnd.number] = said

        # the lead: the side that has taken the least damage (one side alone)
        before = leader
        for hit in rnd.hits:
            taken[hit.side] += hit.dealt
        active = [i for i in standing if not (rnd.sides[i] is not None and rnd.sides[i].disqualified)]
        low = min(taken[i] for i in active) if active else 0
        ahead = [i for i in active if taken[i] == low]
        leader = ahead[0] if len(ahead) == 1 else None

        w = rnd.winner
        previous_streak = streak if streak_side is not None and streak_side != w else 0
        if w is not None and w == streak_side:
            streak += 1
        else:
            streak_side, streak = w, 1 if w is not None else 0
        dq_sides = [i for i, p in enumerate(rnd.sides) if p is not None and p.disqualified]
        warned = [i for i, p in enumerate(rnd.sides) if p is not None and p.dq_faces is not None and not p.disqualified]
        zeroed = [h for h in rnd.hits if h.target != STAMINA and h.after == 0 and h.before > 0]
        spilled = [h for h in rnd.hits if h.target != STAMINA and h.to_stamina]
        hurt = [c for c in rnd.injuries if c.injured]
        swing = w is not None and leader == w and before is not None and before != w
        comeback = w is not None and previous_streak >= 2
        is_turning = w is not None and rnd.number == turning
        loser_type = None
        if w is not None:
            other = rnd.victim if rnd.victim is not None else 1 - w
            loser_type = rnd.sides[other].action.type.id
        eventful = (rnd.number in (1, last) or dq_sides or warned or zeroed or hurt or swing or comeback or is_turning
                    or any(c.count >= 2 for c in rnd.checks) or rnd.margin >= ROUT
                    or (w is not None and (rnd.sides[w].action.type.id in NOTABLE or loser_type in NOTABLE)))

        record = arithmetic[rnd.number - 1]
        if dq_sides:
            standing = [i for i in standing if i not in dq_sides]
            gone = " and ".join(names[i] for i in dq_sides)
            if n == 2:
                record["outcome"] = f"{gone} is disqualified."
            elif len(standing) <= 1:
                record["outcome"] = f"{gone} is disqualified and eliminated: {names[standing[0]]} is the last one standing."
            else:
                record["outcome"] = f"{gone} is disqualified and eliminated; {_and([names[i] for i in standing])} fight on."
        rounds.append(record)

        if not eventful:
            quiet.append((rnd, any(fresh(i, p.action) for i, p in enumerate(rnd.sides) if p is not None)))
            continue
        flush_quiet()
        story.paragraph(f"Round {rnd.number}")
        if w is not None and (is_turning or comeback or swing):
            other = rnd.victim if rnd.victim is not None else 1 - w
            if setup.tag and (comeback or swing):
                story.say("tag", side_facts(w), team=names[w], other=names[other])
            if is_turning:
                story.say("turning_point", side_facts(w), name=names[w], other=names[other])
            elif comeback:
                story.say("comeback", side_facts(w), name=names[w], other=names[other], streak=previous_streak)
            else:
                story.say("swing", side_facts(w), name=names[w], other=names[other])
        if dq_sides:
            for i in dq_sides:
                target = next((j for j in standing if j != i), None)
                tell_move(i, target if target is not None else i, rnd.sides[i], style)
                story.say("dq", side_facts(i, rnd.sides[i].action.type, style), cheater=names[i])
            if n > 2:  # an elimination; a singles DQ ends the match, and the finish line tells it next
                story.add(record["outcome"])
            continue
        if w is None:
            in_ring = [i for i, p in enumerate(rnd.sides) if p is not None]
            for i in in_ring[:2]:
                tell_move(i, in_ring[1] if i == in_ring[0] else in_ring[0], rnd.sides[i], style)
            _tie(rnd)
        else:
            other = rnd.victim if rnd.victim is not None else 1 - w
            tell_move(w, other, rnd.sides[w], style)
            lost = rnd.sides[other]
            tell_answer(other, w, lost)
            if lost.action.type.id in NOTABLE:
                if lost.action.type.high_spot:
                    story.say("high_spot_stuffed", side_facts(other, lost.action.type, style), attacker=names[other], defender=names[w])
                elif lost.action.type.high_risk_dice and 6 in lost.faces:
                    story.say("high_risk_botch", side_facts(other, lost.action.type, style), attacker=names[other], defender=names[w])
            _outcome(rnd, w, other)
        for i in warned:
            story.say("dq_warning", side_facts(i, rnd.sides[i].action.type, style), cheater=names[i], threshold=rnd.sides[i].dq_threshold - 1)
        for h in zeroed:
            story.say("style_zeroed", side_facts(h.side), name=names[h.side], style=name_of(h.target))
        for h in spilled:
            story.say("spill", side_facts(h.side), name=names[h.side], style=name_of(h.target), amount=_points(h.to_stamina, "point"))
        for c in hurt:
            facts = side_facts(c.side, rnd.sides[w].action.type if w is not None else None, style)
            story.say("injury", facts, name=names[c.side])
        for k, check in enumerate(rnd.checks):
            if check.count or rnd.number == last or (w is not None and rnd.sides[w].action.type.pin):
                story.add(calls[rnd.number][k])
            rtype = rnd.sides[check.side].action.type
            if 0 < check.count < 3 and rtype.id in ("finisher", "high_impact") and rnd.winner == check.side:
                story.say("finisher_kickout", side_facts(check.side, rtype, style), attacker=names[check.side],
                          defender=names[_victim(rnd, check.side, n)])
    flush_quiet()

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
            DOUBLE_COUNTOUT: f"{'Neither man' if n == 2 else 'No one'} beats the count in round {result.end_round}: a double count-out.",
            DOUBLE_DQ: f"Both men are disqualified in round {result.end_round}.",
            TIME_LIMIT: f"The bell rings after {result.end_round} rounds: a time-limit draw.",
        }[result.method]
        if result.method == DOUBLE_COUNTOUT and told:
            finish_text = f"No one wins in round {result.end_round}: the referee cannot split them (recorded as a double count-out)."
        headline = f"{' vs. '.join(names)}: {title} (round {result.end_round})"
    _closing(story, setup, result, names, for_title, side_facts)

    if stip.id:
        headline = f"{stip.name}: {headline}"
    return {
        "headline": headline,
        "stipulation": {"name": stip.name, "description": stip.description} if stip.id else None,
        "story": story.paragraphs,
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
            for i in range(n)
        ],
        "rounds": rounds,
    }


def _has_phrase(teller, kind: str, fact: str, value: str) -> bool:
    """Whether the table has a phrase of `kind` chosen for this value of a fact."""
    return any(dict(p.when).get(fact) and value in dict(p.when)[fact] for p in teller.table.phrases.get(kind, ()))


def _victim(rnd, side: int, n: int) -> int:
    """Whom a victory check by `side` is against: the round's victim, or the other side."""
    if rnd.victim is not None and rnd.victim != side:
        return rnd.victim
    if n == 2:
        return 1 - side
    others = [i for i, p in enumerate(rnd.sides) if p is not None and i != side]
    return others[0] if others else side


def _turning_point(result: MatchResult, n: int) -> int | None:
    """The round after which the winner never trailed again, when he had trailed before it:
    the lead is the side that has taken the least damage."""
    if result.winner is None:
        return None
    w = result.winner
    taken = [0] * n
    behind_at = None  # the last round after which the winner was behind
    for rnd in result.rounds:
        for hit in rnd.hits:
            taken[hit.side] += hit.dealt
        if any(taken[i] < taken[w] for i in range(n) if i != w and rnd.sides[i] is not None):
            behind_at = rnd.number
    if behind_at is None or behind_at >= result.end_round:
        return None
    # the first round after it that the winner won
    return next((r.number for r in result.rounds if r.number > behind_at and r.winner == w), None)


def _opening(story: Story, setup: MatchSetup, result: MatchResult, names: list[str], for_title, side_facts) -> None:
    """Before the bell: who, for what, in which styles, and what the "-" picks took away (IV.1.b)."""
    vocab = vocabulary()
    table = result.style_table
    story.paragraph()
    story.say("opening", sides=_and(names), first=", ".join(names[:-1]), second=names[-1])
    if for_title:
        story.say("title_stakes", sides=_and(names))
    counts: dict[str, int] = {}
    for style in table:
        counts[style] = counts.get(style, 0) + 1
    words = [vocab.style_name(s) + ("" if k == 1 else " twice" if k == 2 else f" {k} times") for s, k in counts.items()]
    story.say("styles_in_play", styles=_and(words))
    stip = setup.stipulation
    halved_value = () if setup.rules.halved_styles == "table" else stip.halved_styles
    for style in halved_value:
        story.say("stipulation_halved", style=vocab.style_name(style), stipulation=stip.name)
    unused_told = set()
    for i, side in enumerate(setup.sides):
        pickers = [j for j, other in enumerate(setup.sides) if j != i]
        by_style: dict[str, list[int]] = {}
        for j in pickers:
            by_style.setdefault(setup.sides[j].strategy.minus, []).append(j)
        for style, who in by_style.items():
            if style not in table:
                for j in who:
                    if j not in unused_told:
                        unused_told.add(j)
                        story.say("minus_unused", side_facts(j), name=names[j], style=vocab.style_name(style))
                continue
            base = side.sheet.styles[style]
            if style in halved_value:
                base = -(-base // 2)
            after = result.start_styles[i][style]
            if after != base:
                story.say("style_halved", side_facts(i), name=names[i], style=vocab.style_name(style), before=base, after=after,
                          by=_and([names[j] for j in who]))
    for i, side in enumerate(setup.sides):
        if side.injury:
            story.say("injured_coming_in", side_facts(i), name=names[i], injury=_points(side.injury, "injury point"))


def _closing(story: Story, setup: MatchSetup, result: MatchResult, names: list[str], for_title, side_facts) -> None:
    """After the bell: a time limit, an upset (push levels, Part II), the title match's end."""
    w = result.winner
    lines = []
    if result.method == TIME_LIMIT:
        lines.append(("time_limit", {}, {"sides": _and(names)}))
    if w is not None:
        loser = result.loser
        levels = setup.sides[w].specials, setup.sides[loser].specials  # the push levels (II)
        if None not in levels and levels[0] < levels[1]:
            lines.append(("upset", side_facts(w), {"winner": names[w], "loser": names[loser], "winner_level": levels[0], "loser_level": levels[1]}))
    if for_title:
        lines.append(("title_finish", side_facts(w) if w is not None else {},
                      {"winner": names[w] if w is not None else "", "loser": names[result.loser] if w is not None else ""}))
    if lines:
        story.paragraph()
        for kind, facts, values in lines:
            story.say(kind, facts, **values)


def _arithmetic(setup: MatchSetup, result: MatchResult, rnd, names: list[str]) -> dict:
    """One round's figures: the style roll, each side's total, the record, the checks."""
    vocab = vocabulary()
    name_of = vocab.style_name
    n = len(names)

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

    style = name_of(rnd.style)
    if len(rnd.style_faces) > 1:
        style_roll = ", ".join(str(f) for f in rnd.style_faces[:-1]) + f" (roll again), then {rnd.style_faces[-1]}"
    else:
        style_roll = str(rnd.style_faces[0])
    in_ring = [(i, played) for i, played in enumerate(rnd.sides) if played is not None]
    sides = [side_line(i, played, rnd.style) for i, played in in_ring]
    if any(p.disqualified for _, p in in_ring):
        outcome = ""  # told by the caller, who knows who is still standing
    elif rnd.winner is None:
        best = max(p.total for _, p in in_ring)
        tied = [names[i] for i, p in in_ring if p.total == best]
        outcome = f"Dead even at {best}: {' and '.join(tied)} each take 1 point of damage."
    else:
        w = rnd.winner
        other = rnd.victim if rnd.victim is not None else 1 - w
        beaten = "" if n == 2 else f" over {names[other]}"
        outcome = f"{names[w]} takes the round{beaten}, {rnd.sides[w].total} to {rnd.sides[other].total} (by {rnd.margin})."
    damage = []
    for hit in rnd.hits:
        who = names[hit.side]
        target = name_of(hit.target)
        reductions = f" ({hit.rolled} before defense)" if hit.rolled != hit.dealt else ""
        if hit.target == STAMINA:
            damage.append(f"{hit.dealt} damage{reductions} to {_possessive(who)} Stamina ({hit.before} → {hit.after}).")
        else:
            text = f"{hit.dealt} damage{reductions} to {_possessive(who)} {target} ({hit.before} → {hit.after})"
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
    for check in rnd.checks:
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
        pins.append({"name": names[check.side], "roll": " ".join(parts), "total": check.total, "count": check.count, "call": ""})
    return {"number": rnd.number, "style": style, "style_roll": style_roll, "sides": sides, "outcome": outcome, "damage": damage,
            "injuries": injuries, "pins": pins}
