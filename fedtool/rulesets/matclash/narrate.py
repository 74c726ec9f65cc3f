"""A Mat Clash scrap told as a bout (issue 16): the engine's events grouped into beats (a card
and its answer), each told by a phrase of the ruleset's commentary table (data/commentary.yaml,
with a fed's templates/commentary/matclash.yaml over it), the score explained as it changes,
the turning point marked, padding (passes, skipped turns, draws) collapsed, and the players'
own plan lines quoted where they chose the card. The exact card-by-card log is kept beside
the story (`_details`), and nothing here rolls a die: phrases are chosen by the match's key
(`Booking.teller`), and a plan line is found by replaying the scrap on a copy of its logged
rolls (`plan_lines`), never on the game's dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fedtool.kernel.commentary import Teller
from fedtool.kernel.dice import ScriptedDice
from . import engine

SKIPPERS = {"momentum": "Momentum", "stalling": "Stalling", "cut_em": "Cut Em", "resilience": "Resilience"}
ANSWERED = ("takedown", "reversal", "feet_to_back", "spladle", "pin", "mat_beast")  # plays another card may answer
STUCK = ("takedown_stopped", "reversal_stopped", "pass")  # beats that change nothing: a run of them is padding
PIN_AFTER = {"quick_scrap": 1, "dual_match": 2}


def short(name: str) -> str:
    """The surname a commentator uses: the last word of the name."""
    return name.split()[-1] if name.split() else name


def played_action(card_text: str, cards: dict) -> str:
    """What a logged play was played as: "Beastin' (Wild) as Momentum" -> momentum."""
    if " as " in card_text:
        return card_text.rsplit(" as ", 1)[1].lower().replace(" ", "_")
    card = next((c for c in cards.values() if c.name == card_text), None)
    return card.action if card else ""


def card_of(card_text: str, cards: dict):
    return next((c for c in cards.values() if c.name == card_text.split(" as ")[0]), None)


@dataclass
class Beat:
    """One thing told: a card and its answer (or a collapsed run of nothing)."""

    kind: str
    text: str
    transition: int
    score: tuple  # the score after it
    actor: int | None = None
    extra: list = field(default_factory=list)  # the sentences told after it (the score, the plan, the turning point)
    plan: tuple | None = None  # (who, the plan line that chose its card), quoted after it

    def told(self) -> str:
        return " ".join([self.text, *self.extra])


class Story:
    """Tells one scrap with a teller shared by the whole match (so phrases do not repeat
    from one scrap to the next)."""

    def __init__(self, teller: Teller, names: list[str], moves: list[dict], cards: dict, fmt: str, plans: dict | None = None,
                 quoted: set | None = None):
        self.say = teller.say
        self.names = [short(n) for n in names]
        self.moves = moves
        self.cards = cards
        self.fmt = fmt
        self.pin_after = PIN_AFTER.get(fmt, 1)
        self.plans = plans or {}  # (event index) -> plan line text, for this scrap
        self.quoted = set() if quoted is None else quoted  # plan lines quoted already (once a match)

    # ------------------------------------------------------------ helpers

    def move(self, who: int, card_text: str, action: str) -> str:
        card = card_of(card_text, self.cards)
        own = self.moves[who] if who < len(self.moves) else {}
        return (own.get(card.id) if card else None) or own.get(action) or ""

    def facts(self, transition: int, actor: int | None, score: tuple, **more) -> dict:
        facts = {"format": self.fmt, "stage": "early" if transition <= self.pin_after else "late"}
        if actor is not None:
            facts["leader"] = "level" if score[0] == score[1] else "actor" if score[actor] > score[1 - actor] else "other"
        facts.update({k: v for k, v in more.items() if v})
        return facts

    def tell(self, kind: str, at: int, actor: int | None, score: tuple, facts: dict | None = None, **values) -> Beat:
        """A beat of `kind` in transition `at` by `actor`, the score after it `score`."""
        told = self.say(kind, self.facts(at, actor, score, **(facts or {})), **values)
        return Beat(kind, told, at, score, actor)

    def pair(self, actor: int, move: str) -> dict:
        return {"attacker": self.names[actor], "defender": self.names[1 - actor], "move": move}

    # ------------------------------------------------------------ the scrap

    def opening(self, scrap: engine.ScrapResult) -> list[str]:
        """1.3: the 10th-card draw in a sentence (and how many tries it took)."""
        draws = [e for e in scrap.events if e.kind == "tenth" and e.wrestler is None]
        setbacks = [e for e in scrap.events if e.kind == "tenth" and e.wrestler is not None and e.card]
        lines = []
        if len(draws) + len(setbacks) > 1:
            lines.append(self.say("tenth_redraw", {"format": self.fmt}, count=len(draws) + len(setbacks)))
        first = scrap.first
        final = draws[-1] if draws else None
        drawn = final.card.split(" v ") if final else []
        if len(drawn) == 2:
            name = lambda cid: self.cards[cid].name if cid in self.cards else cid.replace("_", " ")  # noqa: E731
            lines.append(self.say("tenth", {"format": self.fmt}, first=self.names[first], other=self.names[1 - first],
                                  first_card=name(drawn[first]), other_card=name(drawn[1 - first])))
        return lines

    def beats(self, scrap: engine.ScrapResult) -> list[Beat]:
        events = scrap.events
        beats: list[Beat] = []
        score: tuple = (0, 0)
        passes: list = []  # a run of passes not yet told
        momentum_run = [None, 0]  # (who, how many in a row)
        pins_told = False
        k = 0
        n = len(events)

        def flush_passes(final: bool = False) -> None:
            if not passes:
                return
            if final and scrap.finish in ("score", "overtime"):
                beats.append(self.tell("to_the_score", passes[-1][1], None, score))
            elif len(passes) == 1:
                who, transition, where = passes[0]
                if where == "on bottom":  # a wrestler who cannot get out; a pass elsewhere is padding
                    beats.append(self.tell("pass", transition, who, score, who=self.names[who], position=where))
            else:
                beats.append(self.tell("quiet", passes[0][1], None, score, count=len(passes)))
            passes.clear()

        while k < n:
            e = events[k]
            k += 1
            if e.kind in ("tenth", "overtime", "draw", "skip", "score"):
                continue
            transition = e.turn // 2 + 1
            if not pins_told and transition > self.pin_after and scrap.transitions >= self.pin_after:
                flush_passes()
                pins_told = True
                if "\0pins_live" not in self.quoted:  # told once a match (the first scrap that gets there)
                    self.quoted.add("\0pins_live")
                    beats.append(self.tell("pins_live", transition, None, score, transition=transition))
            if e.kind == "pass":
                where = {"top": "on top", "bottom": "on bottom"}.get(e.positions[e.wrestler], "from neutral")
                passes.append((e.wrestler, transition, where))
                continue
            flush_passes()
            if e.kind not in ("play", "answer", "no_fall", "fall"):
                continue
            who = e.wrestler
            # the card's answer (or its fall) follows it in the log
            follow = events[k] if k < n and events[k].kind in ("answer", "no_fall", "fall") else None
            action = played_action(e.card, self.cards) if e.kind in ("play", "answer") else ""
            if e.kind == "play" and action in ANSWERED and follow is not None:
                k += 1
            else:
                follow = None
            beat = self.beat(e, who, action, follow, transition, score)
            if beat is None:
                continue
            if beat.actor is not None and beat.actor != momentum_run[0]:
                momentum_run[:] = [beat.actor, 0]  # the other wrestler got a card in: a run ends
            if beat.kind == "momentum":
                momentum_run[1] += 1
                if momentum_run[1] >= 2:
                    beat = self.tell("momentum_run", transition, who, beat.score, attacker=self.names[who],
                                     defender=self.names[1 - who], count=momentum_run[1])
            quote = self.plans.get(k - 1 if follow is None else k - 2)
            if quote and quote not in self.quoted:
                self.quoted.add(quote)
                beat.plan = (who, quote)
            score = beat.score
            beats.append(beat)
        flush_passes(final=True)
        beats = self.collapse(beats)
        before: tuple = (0, 0)
        for beat in beats:  # the score as it changes, then the player's own plan line
            if beat.score != before and beat.kind != "fall":
                beat.extra.append(self.score_line(before, beat.score, beat.transition))
            if beat.plan:
                beat.extra.append(self.say("plan", {"format": self.fmt}, who=self.names[beat.plan[0]], line=beat.plan[1]))
            before = beat.score
        self.turning_point(beats, scrap)
        return beats

    def collapse(self, beats: list[Beat]) -> list[Beat]:
        """Padding told once: three or more stopped shots and passes in a row are one `quiet`
        beat; two or more Stalling calls in a row are one `stalling_run` (one wrestler) or
        `stalling_both`, the score told once after them."""
        out: list[Beat] = []
        i = 0
        while i < len(beats):
            beat = beats[i]
            j = i
            if beat.kind in STUCK:
                while j < len(beats) and beats[j].kind in STUCK:
                    j += 1
                if j - i >= 3:
                    merged = self.tell("quiet", beat.transition, None, beats[j - 1].score, count=j - i)
            elif beat.kind == "stalling":
                while j < len(beats) and beats[j].kind == "stalling":
                    j += 1
                if j - i >= 2:
                    stallers = {b.actor for b in beats[i:j]}
                    if len(stallers) == 1:
                        merged = self.tell("stalling_run", beat.transition, beat.actor, beats[j - 1].score, staller=self.names[beat.actor],
                                           other=self.names[1 - beat.actor], count=j - i)
                    else:
                        merged = self.tell("stalling_both", beat.transition, None, beats[j - 1].score, count=j - i)
            if j - i >= (3 if beat.kind in STUCK else 2):
                merged.plan = next((b.plan for b in beats[i:j] if b.plan), None)
                out.append(merged)
                i = j
                continue
            out.append(beat)
            i += 1
        return out

    def beat(self, e, who: int, action: str, follow, transition: int, score: tuple) -> Beat | None:
        """One card and whatever answered it, told."""
        names = self.names
        move = self.move(who, e.card, action) if who is not None else ""
        sig = "yes" if move else "no"
        after = tuple((follow or e).score)
        pair = self.pair(who, move)
        if e.kind == "fall":  # a fall told on its own (the engine logs it after its play)
            return self.fall_beat(who, e.card, transition, after)
        if follow is not None and follow.kind == "fall":
            return self.fall_beat(who, e.card, transition, after, action)
        if follow is not None and follow.kind == "no_fall":
            reason = "resilience" if "Resilience" in follow.text else "early"
            return self.tell("no_fall", transition, who, after, {"reason": reason, "signature": sig}, **pair, points=e.points)
        answer = ""
        if follow is not None:
            answer = self.move(follow.wrestler, follow.card, played_action(follow.card, self.cards)) or follow.card.split(" (")[0].split(" +")[0]
        if action == "takedown":
            if follow is None:
                return self.tell("takedown", transition, who, after, {"signature": sig}, **pair)
            how = played_action(follow.card, self.cards)
            if how == "scramble":
                return self.tell("scramble", transition, follow.wrestler, after, attacker=names[follow.wrestler], defender=names[who])
            if how == "clone":
                return self.tell("clone", transition, follow.wrestler, after, attacker=names[follow.wrestler], defender=names[who])
            return self.tell("takedown_stopped", transition, who, after, {"signature": sig}, **pair, answer=answer)
        if action == "feet_to_back":
            if follow is not None and played_action(follow.card, self.cards) == "clone":
                return self.tell("feet_to_back_clone", transition, follow.wrestler, after, attacker=names[follow.wrestler], defender=names[who])
            return self.tell("feet_to_back", transition, who, after, {"signature": sig}, **pair)
        if action == "reversal":
            if follow is None:
                return self.tell("reversal", transition, who, after, {"signature": sig}, **pair)
            return self.tell("reversal_stopped", transition, who, after, {"signature": sig}, **pair, answer=answer)
        if action == "spladle":
            return self.tell("spladle_saved", transition, who, after, {"signature": sig}, **pair)
        if action in ("pin", "mat_beast"):
            kind = "pin_saved" if action == "pin" else "mat_beast_saved"
            return self.tell(kind, transition, who, after, {"signature": sig}, **pair, answer=answer)
        if action == "escape":
            return self.tell("escape", transition, who, after, {"signature": sig}, **pair, points=e.points)
        if action == "near_fall":
            return self.tell("near_fall", transition, who, after, {"signature": sig}, **pair, points=e.points)
        if action == "momentum":
            return self.tell("momentum", transition, who, after, attacker=names[who], defender=names[1 - who])
        if action == "stalling":
            return self.tell("stalling", transition, who, after, staller=names[who], other=names[1 - who])
        if action == "cut_em":
            return self.tell("cut_em", transition, who, after, attacker=names[who], defender=names[1 - who])
        if action == "tie":
            card = card_of(e.card, self.cards)
            title = card.name.split(" (")[0].rstrip("!") if card else "a tie card"
            return self.tell("comeback", transition, who, after, attacker=names[who], defender=names[1 - who], card=title)
        if action == "wizardry":
            erased = e.text.removeprefix("erases ")
            if erased == "nothing":
                return self.tell("wizardry_nothing", transition, who, after, attacker=names[who], defender=names[1 - who])
            return self.tell("wizardry", transition, who, after, attacker=names[who], defender=names[1 - who], points=-e.points, cards=erased)
        if action == "resilience":
            return self.tell("resilience", transition, who, after, attacker=names[who], defender=names[1 - who])
        return None  # an answer told with its play, or a card the story need not tell

    def fall_beat(self, who: int, card_text: str, transition: int, after: tuple, action: str = "") -> Beat:
        finish = action or {"pin": "pin", "mat_beast": "mat_beast", "feet_to_back": "feet_to_back", "spladle": "spladle"}.get(card_text, "pin")
        if finish not in ("pin", "mat_beast", "feet_to_back", "spladle"):
            finish = "pin"
        move = self.move(who, card_text, finish) if action else (self.moves[who].get(card_text, "") if who < len(self.moves) else "")
        beat = self.tell("fall", transition, who, after, {"finish": finish, "signature": "yes" if move else "no"},
                         winner=self.names[who], loser=self.names[1 - who], move=move)
        return beat

    def score_line(self, before: tuple, after: tuple, transition: int) -> str:
        """The score as it changes: who leads, and whether the lead changed, grew or shrank."""
        if after[0] == after[1]:
            return self.say("tied", {"format": self.fmt}, points=after[0])
        leader = 0 if after[0] > after[1] else 1
        if before == (0, 0):
            swing = "first"
        elif before[0] == before[1] or (before[0] > before[1]) != (leader == 0):
            swing = "lead_change"  # from level, or from behind
        elif abs(after[0] - after[1]) > abs(before[0] - before[1]):
            swing = "extend"
        else:
            swing = "cut"
        return self.say("score", {"format": self.fmt, "swing": swing}, leader=self.names[leader], trailer=self.names[1 - leader],
                        high=after[leader], low=after[1 - leader])

    def turning_point(self, beats: list[Beat], scrap: engine.ScrapResult) -> None:
        """The beat from which the winner led for good, when before it the loser had led or it
        had been level with points on the board: told once, after that beat (not when it is
        the fall or the last points of the scrap: the finish says so)."""
        winner = scrap.winner
        if winner is None or not beats:
            return
        at = len(beats)
        while at > 0 and beats[at - 1].score[winner] > beats[at - 1].score[1 - winner]:
            at -= 1
        if at == 0 or at == len(beats) or not any(b.score != (0, 0) for b in beats[:at]):
            return
        if beats[at].kind == "fall" or all(b.score == beats[at].score for b in beats[at + 1:]):
            return
        beats[at].extra.append(self.say("turning_point", {"format": self.fmt}, winner=self.names[winner], loser=self.names[1 - winner]))

    def finish(self, scrap: engine.ScrapResult) -> list[str]:
        """How it ended beyond the fall (which is a beat): the points, or overtime."""
        names = self.names
        w = scrap.winner
        won, lost = scrap.score[w], scrap.score[1 - w]
        if scrap.finish == "overtime":
            lines = [self.say("overtime_start", {"format": self.fmt}, points=won)]
            draws = [e for e in scrap.events if e.kind == "overtime"]
            for e in draws:
                if e.wrestler is not None:
                    lines.append(self.say("overtime_deck_out", {"format": self.fmt}, winner=names[e.wrestler]))
                    continue
                drawn = e.card.split(" v ")
                if len(drawn) != 2:
                    continue
                name = lambda cid: self.cards[cid].name if cid in self.cards else cid.replace("_", " ")  # noqa: E731
                if e is draws[-1]:
                    lines.append(self.say("overtime", {"format": self.fmt}, winner=names[w], loser=names[1 - w],
                                          winner_card=name(drawn[w]), loser_card=name(drawn[1 - w])))
                else:
                    order = (1 - scrap.first, scrap.first)
                    lines.append(self.say("overtime_tie", {"format": self.fmt}, first_card=name(drawn[order[0]]), second_card=name(drawn[order[1]])))
            return lines
        if scrap.method == "fall":
            return []
        return [self.say(scrap.method, {"format": self.fmt}, winner=names[w], loser=names[1 - w], high=won, low=lost, margin=won - lost)]


def paragraphs(beats: list[Beat]) -> list[str]:
    """Beats joined into paragraphs: a new one when the falls go live, and when a paragraph has
    four beats and a new transition starts."""
    out: list[list[str]] = []
    last_transition = None
    for beat in beats:
        new = not out or beat.kind == "pins_live" or (len(out[-1]) >= 4 and beat.transition != last_transition)
        if new:
            out.append([])
        out[-1].append(beat.told())
        last_transition = beat.transition
    return [" ".join(p) for p in out]


# ---------------------------------------------------------------- the plan lines that chose a card


class _Watch:
    """A policy as the replay sees it: the real one's choices, with the plan line (a `plan:`
    line with conditions) that put the chosen card first noted against the event it makes."""

    def __init__(self, policy, notes: dict):
        self.policy, self.notes = policy, notes

    def __getattr__(self, name):
        return getattr(self.policy, name)

    def choose(self, scrap, i, options, state=None):
        best = self.policy.choose(scrap, i, options, state)
        if best is not None and state is None:
            line = _line_for(self.policy, scrap, i, best)
            if line:  # keyed by the scrap's own event list (its result keeps the same list)
                self.notes.setdefault(id(scrap.events), (scrap.events, {}))[1][len(scrap.events)] = line
        return best


SYNTHETIC = re.compile(r"(?:prefer|only) in (?:neutral|top|bottom)|answer \w+(?: only)?|never")  # the rules a file's lists make


def own_lines(policy) -> list:
    """The player's own `plan:` lines that put cards first (not the rules made of `prefer:` lists)."""
    return [r for r in getattr(policy, "rules", []) if (r.prefer or r.only) and not SYNTHETIC.fullmatch(r.text)]


def _line_for(policy, scrap, i: int, play) -> str | None:
    """The first of the player's plan lines that holds now and names the card played."""
    rules = own_lines(policy)
    if not rules:
        return None
    from .policy import State
    state = State(scrap, i)
    key = policy.key(play)
    for rule in rules:
        if (rule.positions is None or state.position in rule.positions) and rule.test(state):
            if key in policy._expand(rule.prefer + (rule.only or []), state.position):
                return " ".join(rule.text.split())
    return None


def plan_lines(setup: dict, fmt: str, log: list, scraps: list) -> list[dict]:
    """For each scrap, event index -> the plan line that chose the card played there, found by
    playing the match again on a copy of its logged rolls (ScriptedDice: the game's dice are
    not touched). {} for every scrap when the setup cannot be replayed or plays differently."""
    empty: list[dict] = [{} for _ in scraps]
    policies, deck = setup.get("policies"), setup.get("deck")
    if not policies or deck is None or not any(own_lines(p) for p in policies):
        return empty
    notes: dict = {}
    watched = [_Watch(p, notes) for p in policies]
    dice = ScriptedDice([face for _, _, rolled in log for face in rolled], "the writeup's replay")
    try:
        if fmt == "dual_match":
            again = engine.dual_match(setup["names"], watched, deck, dice, setup.get("rules")).scraps
        else:
            again = [engine.quick_scrap(setup["names"], watched, deck, dice, rules=setup.get("rules"))]
    except Exception:  # noqa: BLE001 - a replay that cannot be made quotes no plan lines
        return empty
    if len(again) != len(scraps) or any(_fingerprint(a) != _fingerprint(b) for a, b in zip(again, scraps)):
        return empty
    return [notes.get(id(a.events), (None, {}))[1] for a in again]


def _fingerprint(scrap) -> tuple:
    return (scrap.winner, scrap.method, tuple(scrap.score), [(e.turn, e.wrestler, e.kind, e.card, e.points) for e in scrap.events])


# ---------------------------------------------------------------- the card-by-card log


def _where(positions: tuple, names: list[str]) -> str:
    if positions[0] == positions[1] == engine.NEUTRAL:
        return "both neutral"
    top = 0 if positions[0] == engine.TOP else 1
    return f"{short(names[top])} on top, {short(names[1 - top])} on bottom"


def _score_text(score: tuple, names: list[str]) -> str:
    return f"{short(names[0])} {score[0]}, {short(names[1])} {score[1]}"


def _card_name(card_id: str, cards: dict) -> str:
    return cards[card_id].name if card_id in cards else card_id.replace("_", " ")


def details(scrap: engine.ScrapResult, names: list[str], moves: list[dict], cards: dict) -> tuple[list, list, list]:
    """The exact card-by-card log a player may check the story against: the 10th-card draw;
    each transition with the positions and score it starts from, every play with its points,
    the score after and any change of position, every skipped turn with the card that
    skipped it, every pass; overtime."""
    opening: list[str] = []
    transitions: list[dict] = []
    overtime: list[str] = []
    positions: tuple = (engine.NEUTRAL, engine.NEUTRAL)
    score: tuple = (0, 0)
    skipped_by: dict = {}
    for e in scrap.events:
        if e.kind == "tenth":
            line = _tenth_text(e, names, cards)
            if line:
                opening.append(line)
            continue
        if e.kind == "overtime":
            overtime.append(_overtime_text(e, names, cards))
            continue
        number = e.turn // 2 + 1
        if not transitions or transitions[-1]["number"] != number:
            transitions.append({"number": number, "state": f"{_where(positions, names)}; {_score_text(score, names)}", "lines": []})
        lines = transitions[-1]["lines"]
        who = short(names[e.wrestler]) if e.wrestler is not None else ""
        if e.kind == "draw":
            if e.text != "draw":
                continue  # dealt, or Stalling's extra card (the Stalling line says so)
            if lines and lines[-1].startswith(f"{who} draws "):
                count = 2 if lines[-1] == f"{who} draws a card." else int(lines[-1].split()[-2]) + 1
                lines[-1] = f"{who} draws {count} cards."
            else:
                lines.append(f"{who} draws a card.")
            continue
        if e.kind == "skip":
            by = skipped_by.pop(e.wrestler, "")
            lines.append(f"{who}'s turn is skipped" + (f" ({by})." if by else "."))
            continue
        if e.kind == "pass":
            lines.append(f"{who} passes, {'on ' + positions[e.wrestler] if positions[e.wrestler] != engine.NEUTRAL else 'from neutral'}.")
            continue
        if e.kind in ("play", "answer"):
            action = played_action(e.card, cards)
            if e.kind == "play" and action in SKIPPERS:
                skipped_by[1 - e.wrestler] = f"{who}'s {SKIPPERS[action]}"
            line = _event_text(e, names, moves, cards)
        elif e.kind == "no_fall":
            line = f"{who} is not pinned: {e.text}."
        elif e.kind == "fall":
            line = f"{who} wins by fall: {e.text}."
        else:
            continue
        if tuple(e.positions) != positions and e.kind != "fall":
            line = f"{line[:-1]}; now {_where(e.positions, names)}."
        lines.append(line)
        positions, score = tuple(e.positions), tuple(e.score)
    return opening, transitions, overtime


def _tenth_text(e: engine.Event, names: list[str], cards: dict) -> str:
    """1.3 told: who drew what, specials back into the deck, ties redrawn, who starts."""
    if e.wrestler is None:
        drawn = e.card.split(" v ")
        values = e.text.split(" v ")
        if len(drawn) != 2 or len(values) != 2:
            return f"10th-card draw: {e.text}."
        told = " v ".join(f"{short(names[i])} {_card_name(drawn[i], cards)} ({values[i]})" for i in (0, 1))
        return f"10th-card draw: {told}" + (": a tie, both go back into the deck." if values[0] == values[1] else ".")
    who = short(names[e.wrestler])
    if e.text.startswith("wins"):
        return f"{who} wins the 10th-card draw and starts."
    if e.card:
        return f"{who} draws {_card_name(e.card, cards)} for the 10th card: back into the middle of the deck."
    return ""


def _overtime_text(e: engine.Event, names: list[str], cards: dict) -> str:
    if e.card and " v " in e.card:
        drawn = e.card.split(" v ")
        return "Draw: " + " v ".join(f"{short(names[i])} {_card_name(drawn[i], cards)}" for i in (0, 1)) + "."
    return f"{short(names[e.wrestler])}: {e.text}." if e.wrestler is not None else f"Overtime: {e.text}."


def _event_text(e: engine.Event, names: list[str], moves: list[dict], cards: dict) -> str:
    """A play or an answer: the card (the wrestler's own move name for it), its points, what
    it did and the score after."""
    who = short(names[e.wrestler]) if e.wrestler is not None else ""
    card_name = e.card
    card = card_of(card_name, cards)
    move = moves[e.wrestler].get(card.id) if card and e.wrestler is not None and e.wrestler < len(moves) else None
    shown = f"{move} ({card_name})" if move else card_name
    verb = "answers with" if e.kind == "answer" else "plays"
    points = f", {'+' if e.points > 0 else ''}{e.points}" if e.points else ""
    return f"{who} {verb} {shown}{points}: {e.text} ({_score_text(e.score, names)})."
