# cython: annotation_typing=False, binding=True
# (Cython, when setup.py compiles this module: hints such as `entry: dict` are no type checks, a YAML
# mapping is a dict subclass; the .py stays the pure-Python fallback, roll for roll the same)
"""Face to the Mat battle royales (rulebook 9.e) and interview segments (10.d).

The Four-Play method is the engine's own `four_play` mode. The Match-Up and Quick-Play
methods cut the field down to two, who then wrestle a full match; both are built here from
the engine, so every roll is still one logged die.
"""

from __future__ import annotations

from dataclasses import replace

from fedtool.kernel.dice import Dice
from .engine import CAST_REROLLS, NOTHING, Line, Result, Setup, _cast, match_facts, resolve, told_line
from .engine import ending as _ending
from .rules import data
from .terms import GRADES

METHODS = ("match_up", "quick_play", "four_play")
QUICK_PLAY_GUARD = 50  # rounds of Quick-Play draws before the field is cut by billing


def battle_royale(setup: Setup, method: str, dice: Dice, mini_match_to: int, record: bool = True) -> Result:
    """9.e: cut the field to two by Match-Up or Quick-Play, then a full match; or Four-Play.
    With `record` false (the odds' trial) no line or log is kept: the same rolls, the same result."""
    if method == "four_play":
        return resolve(four_play(setup), dice, record)
    lines: list[Line] = []
    log: list = []
    out: list = []  # (side, by side, method, FAC)
    cards: list = []  # each FAC drawn on the way to the final two (Result.cards)
    if method == "match_up":
        field = match_up(setup, dice, mini_match_to, lines, log, out, cards, record)
    else:
        field = quick_play(setup, dice, lines, out, cards, record)
        if record:
            log.extend(dice.take_log())
    final = _subset(setup, field, storylines=True)
    result = resolve(final, dice, record)
    winner = None if result.winner is None else field[result.winner]
    if winner is not None:
        out.append((field[1 - result.winner], winner, result.method, result.facs))
    positions = [0] * len(setup.wrestlers)
    for k, side in enumerate(field):
        positions[side] = result.positions[k]
    league = [(field[i], kind, change, why) for i, kind, change, why in result.league]
    if not record:
        return Result(winner, result.method, result.facs, positions, None, league, None, out)
    lines.append(told_line(0, "storyline", "final_two", _zeros(setup), first=setup.wrestlers[field[0]].name, second=setup.wrestlers[field[1]].name))
    lines.extend(_widen(ln, field, len(setup.wrestlers)) for ln in result.lines)
    cards += [("final", fac, card, kind) for _, fac, card, kind in result.cards]
    return Result(winner, result.method, result.facs, positions, lines, league, log + result.log, out, cards=cards,
                  key=setup.match_id, facts={**match_facts(setup), "match_type": "battle_royale"})


def ending(setup: Setup, method: str, dice: Dice, mini_match_to: int) -> tuple:
    """How `battle_royale(setup, method, dice, mini_match_to, record=False)` ends, and nothing
    else (the odds' trial; Match-Up or Quick-Play): (winning side or None, finish, FACs), with
    no Result made for the final two's match or the royale (`engine.ending`)."""
    out: list = []
    if method == "match_up":
        field = match_up(setup, dice, mini_match_to, [], [], out, None, False)
    else:
        field = quick_play(setup, dice, [], out, None, False)
    won, how, facs = _ending(_subset(setup, field, storylines=True), dice)
    return (None if won is None else field[won], how, facs)


def four_play(setup: Setup) -> Setup:
    """9.e.iii: the setup a Four-Play battle royale is played on (every man for himself, four in
    the ring), looked up by the setup alone (the odds play it thousands of times)."""
    hit = _FOUR_PLAY.get(id(setup))
    if hit is None or hit[0] is not setup:
        if len(_FOUR_PLAY) >= 256:
            _FOUR_PLAY.clear()
        hit = _FOUR_PLAY[id(setup)] = (setup, _variant(setup, mode="four_play", ring=4))
    return hit[1]


def match_up(setup: Setup, dice: Dice, mini_match_to: int, lines: list, log: list, out: list, cards: list | None = None,
             record: bool = True) -> list[int]:
    """9.e.i: "Pair wrestlers for mini-matches; winners advance until two remain". Pairs go in
    billing order; an odd man out gets a bye. A mini-match has no storylines and ends when a
    token reaches `mini_match_to` (a pin, a finisher or that space: over the top rope)."""
    field = list(range(len(setup.wrestlers)))
    stage = 0
    hit = _MINIS.get(id(setup))  # each pairing's mini-match setup, by pair, made once a setup and `mini_match_to`
    if hit is None or hit[0] is not setup or hit[1] != mini_match_to:
        if len(_MINIS) >= 256:
            _MINIS.clear()
        hit = _MINIS[id(setup)] = (setup, mini_match_to, {})
    minis = hit[2]
    while len(field) > 2:
        stage += 1
        advancing = []
        pairs = [field[k:k + 2] for k in range(0, len(field) - 1, 2)]
        bye = field[-1] if len(field) % 2 else None
        for a, b in pairs:
            mini = minis.get((a, b))
            if mini is None:
                mini = minis[(a, b)] = _subset(setup, [a, b], storylines=False, first_to=mini_match_to)
            if record:
                result = resolve(mini, dice, record)
                won, how, facs = result.winner, result.method, result.facs
            else:  # (the odds: how it ended, no Result made)
                won, how, facs = _ending(mini, dice)
            if won is None:  # no fall within the guard: the first billed advances (ruling)
                winner, loser = a, b
            else:
                winner, loser = (a, b)[won], (a, b)[1 - won]
            out.append((loser, winner, how, facs))
            advancing.append(winner)
            if not record:
                continue
            log.extend(result.log)
            if cards is not None:
                cards += [(f"mini-match {stage}: {setup.wrestlers[a].id} vs. {setup.wrestlers[b].id}", fac, card, kind) for _, fac, card, kind in result.cards]
            lines.append(told_line(0, "storyline", "mini_match", _zeros(setup), stage=stage, first=setup.wrestlers[a].name, second=setup.wrestlers[b].name))
            lines.extend(_widen(ln, [a, b], len(setup.wrestlers)) for ln in result.lines if ln.kind not in ("end", "bell"))  # a draw: "outlasted", below
            how = {"pin": "pinned", "finisher": "finished", "reached": "thrown over the top rope"}.get(result.method, "outlasted")
            lines.append(told_line(result.facs, "elimination", "mini_elimination", _zeros(setup), loser=setup.wrestlers[loser].name,
                                   winner=setup.wrestlers[winner].name, how=how))
        if bye is not None:
            if record:
                lines.append(told_line(0, "storyline", "bye", _zeros(setup), name=setup.wrestlers[bye].name))
            advancing.append(bye)
        field = sorted(advancing)
    return field


def quick_play(setup: Setup, dice: Dice, lines: list, out: list, cards: list | None = None, record: bool = True) -> list[int]:
    """9.e.ii: "Draw FACs for each wrestler; eliminate those who fail to score until two
    remain". Each round every wrestler left draws one FAC (in billing order, from one deck)
    and scores if he could perform it alone at the Start space; cards no one performs (Wild
    Card, Highlight Reel, Ref Bump, Test of Strength, Title Holder) are drawn again. Those
    who fail are eliminated, unless that would leave fewer than two: then the round is void."""
    tables = setup.tables or data()
    facs = tables["facs"]
    identity, verdicts, purposes = _quick_tables(setup, tables)
    cards_in_deck = len(facs)
    field = list(range(len(setup.wrestlers)))
    order = bytearray(identity)  # the deck as card indices: the first `left` are the cards not yet drawn
    left = 0
    roll = dice.roll
    for round_no in range(1, QUICK_PLAY_GUARD + 1):
        failed = []
        for side in field:
            verdict = verdicts[side]
            purpose = purposes[side]
            while True:
                if not left:
                    order[:] = identity
                    left = cards_in_deck
                if left > 1:
                    j = roll(1, left, purpose[left] if left < len(purpose) else f"{purpose[0]}{left}")[0] - 1
                    c = order[j]
                    order[j] = order[left - 1]
                else:
                    c = order[0]
                left -= 1
                if cards is not None and record:
                    card = facs[c]
                    cards.append((f"quick-play round {round_no}: {setup.wrestlers[side].id}", round_no, card.get("id"), card["type"]))
                if verdict[c] != PASSIVE:
                    break
            scores = verdict[c] == SCORES
            if not scores:
                failed.append(side)
            if not record:
                continue
            man = setup.wrestlers[side]
            kind = facs[c]["type"]
            lines.append(told_line(round_no, "fac", "quick_play_scores" if scores else "quick_play_fails", _zeros(setup), side,
                                   facts={"alignment": man.alignment}, round=round_no, name=man.name, card=kind.replace("_", " ").title()))
        if failed and len(field) - len(failed) >= 2:
            for side in failed:
                if record:
                    lines.append(told_line(round_no, "elimination", "quick_play_out", _zeros(setup), name=setup.wrestlers[side].name))
                out.append((side, None, "quick_play", round_no))
            field = [k for k in field if k not in failed]
        elif failed and record:
            lines.append(told_line(round_no, "storyline", "quick_play_void", _zeros(setup)))
        if len(field) == 2:
            return field
    if record:
        lines.append(told_line(QUICK_PLAY_GUARD, "storyline", "quick_play_clock", _zeros(setup)))
    for side in field[2:]:
        out.append((side, None, "quick_play", QUICK_PLAY_GUARD))
    return field[:2]


PASSIVE, SCORES, FAILS = 0, 1, 2  # a Quick-Play draw for one wrestler: drawn again, scores, fails


def _quick_tables(setup: Setup, tables: dict) -> tuple:
    """Quick-Play's draws, worked out once a setup: the deck's card indices in order, each
    wrestler's verdict on each card (PASSIVE: cards no one performs alone, drawn again; SCORES:
    he could perform it alone at the Start space; FAILS) and his draws' purposes by cards left
    (the first, for a deck of more than 255, is the purpose less the die's size)."""
    hit = _QUICK.get(id(setup))
    if hit is not None and hit[0] is setup and hit[1] is tables:
        return hit[2]
    shapes = {s["space"]: s["shape"] for s in tables["track"]["spaces"]}
    start_shape = shapes[tables["track"]["start"]]
    passive = {"WILD_CARD", "HIGHLIGHT_REEL", "REF_BUMP", "TEST_OF_STRENGTH", "TITLE_HOLDER"}
    facs = tables["facs"]
    verdicts = []
    purposes = []
    for man in setup.wrestlers:
        verdict = bytearray()
        for card in facs:
            kind = card["type"]
            symbol = man.skills.get(kind)
            verdict.append(PASSIVE if kind in passive else SCORES if kind in ("TV_MOVE", "SIGNATURE", "GRUDGE", "TRAILING")
                           or symbol == "star" or symbol == start_shape else FAILS)
        verdicts.append(bytes(verdict))
        draw = f"Quick-Play: {man.name} draws a FAC: d"  # the purpose, less the die's size
        purposes.append([draw] + [f"{draw}{left}" for left in range(1, min(len(facs), 255) + 1)])
    made = (bytes(range(len(facs))) if len(facs) <= 256 else b"", verdicts, purposes)
    if len(_QUICK) >= 256:
        _QUICK.clear()
    _QUICK[id(setup)] = (setup, tables, made)
    return made


_QUICK: dict = {}


def interview(wrestlers: tuple, promos: tuple, hotbox: dict, dice: Dice, tables: dict | None = None,
              record: bool = True) -> tuple[list[Line], list]:
    """10.d: an interview segment before a match, on reel I (1d6 1-3) or J (4-6): 2d6 for the
    event. Its effects are the league's (grudge, tv); the players' promos are read out. With
    `record` false (the odds' trial) only the dice are rolled: nothing is told or returned."""
    tables = tables or data()
    order, wrestlers, aligned = _segment(wrestlers)
    reel = "I" if dice.roll(1, 6, "interview segment: reel I (1-3) or J (4-6) 1d6")[0] <= 3 else "J"
    events = tables["reels"]["reels"][reel]["events"]
    faces = dice.roll(2, 6, _INTERVIEW_EVENT[reel])
    entry = events[faces[0] + faces[1]]
    if _cast(entry):  # (an event naming no heel or face needs no look: the loop below, shortened)
        for _ in range(CAST_REROLLS):  # rulings: an event naming a heel or a face the pair lacks is rolled again
            missing = [role for role in _cast(entry) if not aligned[role]]  # `cast_of`, read once an event
            if not missing:
                break
            faces = dice.roll(2, 6, f"interview segment: reel {reel} event 2d6 again: {' and '.join(missing)} not in the segment")
            entry = events[faces[0] + faces[1]]
        else:
            if any(not aligned[role] for role in _cast(entry)):
                entry = NOTHING
    if not record:
        return [], []
    promos = tuple(promos[k] if k < len(promos) else "" for k in order)
    hotbox = {key: [values[k] for k in order] if key in ("allies", "foes") and values else values for key, values in hotbox.items()}
    lines = [told_line(0, "interview", "interview_promo", (0, 0), facts={"alignment": wrestlers[k].alignment}, name=wrestlers[k].name, promo=promo)
             for k, promo in enumerate(promos) if promo]
    effect = entry["effect"]
    sides = [0]
    if isinstance(effect, dict):
        (kind, args), = effect.items()
        who = args.get("who")
        sides = {"favored": [0], "underdog": [len(wrestlers) - 1], "both": list(range(len(wrestlers)))}.get(who)
        if sides is None:  # heel or face: the first billed of that alignment
            sides = aligned.get(who, [])
    named = sides[0] if sides else 0
    allies, foes = hotbox.get("allies") or [], hotbox.get("foes") or []
    heel, face = aligned["heel"], aligned["face"]
    text = entry["text"].format_map({"favored": wrestlers[0].name, "underdog": wrestlers[-1].name,
                                     "heel": wrestlers[heel[0]].name if heel else "the villain",
                                     "face": wrestlers[face[0]].name if face else "the hero",
                                     "ally": allies[named] if named < len(allies) else "an ally",
                                     "foe": foes[named] if named < len(foes) else "a rival"})
    lines.append(Line(0, "interview", text))
    league = []
    if isinstance(effect, dict) and kind in ("grudge", "tv"):
        league = [(order[k], kind, args["change"], text) for k in sides]
    return lines, league


_INTERVIEW_EVENT = {reel: f"interview segment: reel {reel} event 2d6" for reel in "IJ"}  # the event roll's purpose, by reel


def _segment(wrestlers: tuple) -> tuple:
    """An interview segment's pair in its order (reels I and J: "{favored} and {underdog} are
    the two wrestlers in the segment (the better TV grade is favored)"), and the first billed
    heel and face; worked out once a pair."""
    hit = _SEGMENTS.get(id(wrestlers))
    if hit is not None and hit[0] is wrestlers:
        return hit[1]
    order = sorted(range(len(wrestlers)), key=lambda k: GRADES.index(wrestlers[k].tv_grade))
    ordered = tuple(wrestlers[k] for k in order)
    aligned = {role: [k for k, w in enumerate(ordered) if w.alignment == role][:1] for role in ("heel", "face")}  # the first billed of each
    if len(_SEGMENTS) >= 256:
        _SEGMENTS.clear()
    _SEGMENTS[id(wrestlers)] = (wrestlers, (order, ordered, aligned))
    return order, ordered, aligned


_SEGMENTS: dict = {}


def _subset(setup: Setup, sides: list[int], storylines: bool, first_to: int | None = None) -> Setup:
    """A two-man match between some of a battle royale's entrants (made once a setup and
    pairing: the odds play the same pairings thousands of times)."""
    key = (id(setup), tuple(sides), storylines, first_to)
    hit = _SUBSETS.get(key)
    if hit is not None and hit[0] is setup:
        return hit[1]
    hot = setup.hotbox
    pick = lambda values: [values[k] for k in sides] if values else []  # noqa: E731
    hotbox = {"allies": pick(hot.get("allies")), "foes": pick(hot.get("foes")), "grudge": hot.get("grudge", [])}
    plans = tuple(setup.plans[k] for k in sides) if setup.plans else ()
    made = replace(setup, wrestlers=tuple(setup.wrestlers[k] for k in sides), hotbox=hotbox, plans=plans, mode="singles", ring=0, storylines=storylines)
    if first_to is not None:
        made = replace(made, first_to=first_to)
    if len(_SUBSETS) >= 512:
        _SUBSETS.clear()
    _SUBSETS[key] = (setup, made)
    return made


def _variant(setup: Setup, **changes) -> Setup:
    """`replace(setup, **changes)`, made once a setup and change."""
    key = (id(setup), tuple(sorted(changes.items())))
    hit = _SUBSETS.get(key)
    if hit is not None and hit[0] is setup:
        return hit[1]
    made = replace(setup, **changes)
    if len(_SUBSETS) >= 512:
        _SUBSETS.clear()
    _SUBSETS[key] = (setup, made)
    return made


_SUBSETS: dict = {}
_FOUR_PLAY: dict = {}
_MINIS: dict = {}


def _zeros(setup: Setup) -> tuple:
    """A royale line outside any match: every token at Start, one per entrant."""
    return (0,) * len(setup.wrestlers)


def _widen(line: Line, sides: list[int], n: int) -> Line:
    """A two-man line's track positions spread over the whole field (others shown as 0)."""
    positions = [0] * n
    for k, side in enumerate(sides):
        positions[side] = line.positions[k]
    return replace(line, positions=tuple(positions), who=None if line.who is None else sides[line.who])
