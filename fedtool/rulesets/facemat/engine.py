"""Face to the Mat: a singles match, FAC by FAC (rulebook 4-8; docs/rulings/face-to-the-mat.md).

Chance is the logged dice: the FAC shuffle, square bonuses, charts and reels, kickouts and
finishers. The engine returns data: the writeup and the league are elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...dice import Dice
from .rules import d66, data, kicks_out
from .sheet import Wrestler

FAC_GUARD = 400  # no real match is this long: a time-limit draw
BOO_AFTER = 3  # 10.a: "If three consecutive FACs result in no scoring"


@dataclass(frozen=True)
class Setup:
    match_id: str
    wrestlers: tuple[Wrestler, Wrestler]  # favored first (4.a)
    hotbox: dict  # 4.b: place -> wrestler name (favored_ally, favored_foe, underdog_ally, underdog_foe, grudge_1, grudge_2)
    chart: str = "normal"  # the Wild Card chart: normal, cage, hardcore
    tv_table: str = "standard"
    tiers: tuple = (3, 2, 1)  # 7.c gold, silver, bronze (10.h varies them)
    boo_rule: bool = False
    partners: tuple = ()  # a tag match (9.c): each side's partner, who comes in when he scores


@dataclass
class Line:
    """One thing that happened, for the writeup."""

    fac: int
    kind: str  # storyline, fac, move, pin, finisher, boo, end
    text: str
    who: int | None = None
    points: int = 0
    positions: tuple = (0, 0)


@dataclass
class Result:
    winner: int | None
    method: str  # pin, finisher, time_limit
    facs: int
    positions: list
    lines: list = field(default_factory=list)
    league: list = field(default_factory=list)  # (who, "grudge"|"tv", change, why)
    log: list = field(default_factory=list)


def resolve(setup: Setup, dice: Dice) -> Result:
    tables = data()
    track = tables["track"]
    shapes = {s["space"]: s["shape"] for s in track["spaces"]}
    pins, finish, corner = set(track["pin_spaces"]), track["finisher_space"], track["corner"]
    teams = [(setup.wrestlers[i], setup.partners[i]) for i in (0, 1)] if setup.partners else None
    if teams:  # 9.c: "All wrestlers automatically gain the HELPED quality" (a star: docs/rulings)
        teams = [tuple(replace(m, skills={**m.skills, "HELPED": "star"}) for m in team) for team in teams]
    w = [teams[0][0], teams[1][0]] if teams else list(setup.wrestlers)
    names = [x.name for x in w]
    pos = [track["start"], track["start"]]
    lines: list[Line] = []
    league: list = []
    skip = [False, False]
    last_scorer: int | None = None
    state = {"winner": None, "method": "time_limit"}

    def say(kind: str, text: str, who: int | None = None, points: int = 0) -> None:
        lines.append(Line(drawn, kind, text, who, points, tuple(pos)))

    def leader() -> int:
        return 0 if pos[0] > pos[1] else 1 if pos[1] > pos[0] else 0  # 7: tied -> favored

    def trailing(card_trailing: bool = False) -> int:
        if pos[0] == pos[1]:
            return 1 if card_trailing else 0  # 7: "the UNDERDOG is considered trailing if tied" on TRAILING cards
        return 0 if pos[0] < pos[1] else 1

    def whom(who: str) -> list[int]:
        if who == "favored":
            return [0]
        if who == "underdog":
            return [1]
        if who == "leader":
            return [leader()]
        if who == "trailing":
            return [trailing()]
        if who == "both":
            return [0, 1]
        if who in ("heel", "face"):  # ruling: of two alike, the favored; of none, nobody
            found = [i for i in (0, 1) if w[i].alignment == who]
            return found[:1]
        return []

    def can_use(i: int, skill: str) -> bool:
        """3.d: star anywhere; square or circle only on such spaces."""
        symbol = w[i].skills.get(skill)
        return symbol == "star" or symbol is not None and shapes.get(pos[i]) == symbol

    def score(i: int, points: int, why: str) -> None:
        nonlocal last_scorer
        if skip[i]:
            skip[i] = False
            say("move", f"{names[i]}'s move comes to nothing.", i)
            return
        if points <= 0:
            return
        pos[i] = min(finish, pos[i] + points)
        last_scorer = i
        say("move", f"{names[i]} moves to space {pos[i]} (+{points}, {why}).", i, points)
        attempt(i)
        if teams and state["winner"] is None:  # 9.c: "When a wrestler scores, they tag out to their partner"
            partner = teams[i][1] if w[i] is teams[i][0] else teams[i][0]
            say("tag", f"{names[i]} tags out to {partner.name}.", i)
            w[i], names[i] = partner, partner.name
            base.update(favored=names[0], underdog=names[1])
            as_performer[:] = [_Fill(base, performer=names[k], opponent=names[1 - k]) for k in (0, 1)]

    def attempt(i: int) -> None:
        o = 1 - i
        if state["winner"] is not None:
            return
        if pos[i] in pins:  # 8.a: three kickout rolls for the defender
            rolls = []
            for n in range(3):
                faces = dice.roll(2, 6, f"{names[o]} kickout {n + 1} (2d6 as d66)")
                roll = d66(faces[0], faces[1])
                rolls.append(roll)
                if kicks_out(w[o].tv_grade, roll):
                    say("pin", f"{names[i]} covers: ONE... {names[o]} kicks out ({', '.join(map(str, rolls))}, TV grade {w[o].tv_grade}).", i)
                    return
            state.update(winner=i, method="pin")
            say("pin", f"{names[i]} covers: ONE... TWO... THREE! ({', '.join(map(str, rolls))}: no kickout for a grade {w[o].tv_grade}).", i)
        elif pos[i] == finish:  # 8.b
            faces = dice.roll(2, 6, f"{names[i]} finisher (2d6 as d66)")
            roll = d66(faces[0], faces[1])
            low, high = w[i].finisher_range
            if low <= roll <= high:
                state.update(winner=i, method="finisher")
                say("finisher", f"{names[i]} hits {w[i].finisher_name} ({roll}, in {low}-{high})! That's it!", i)
            else:
                pos[i] = corner
                say("finisher", f"{names[i]} goes for {w[i].finisher_name} ({roll}, not in {low}-{high}): countered, back to the corner (space {corner}).", i)

    def effect(eff, text: str) -> None:
        say("storyline", text)
        if eff == "none" or not isinstance(eff, dict):
            return
        (kind, args), = eff.items()
        if kind == "move":
            for i in whom(args["who"]):
                pos[i] = max(track["start"], min(finish, pos[i] + args["spaces"]))
                attempt(i)
        elif kind == "score":
            for i in whom(args["who"]):
                points = args["points"] if args["points"] != "d6" else dice.die(6, f"{names[i]} chart d6")
                score(i, points, "the chart")
        elif kind == "hotbox":
            for i in whom(args["of"]):
                step = args["spaces"] if args["side"] == "ally" else -args["spaces"]
                pos[i] = max(track["start"], min(finish, pos[i] + step))
                attempt(i)
        elif kind in ("grudge", "tv"):
            for i in whom(args["who"]):
                league.append((i, kind, args["change"], text))
        elif kind == "skip":
            for i in whom(args["who"]):
                skip[i] = True
        elif kind == "pin_attempt":
            for i in whom(args["who"]):
                attempt(i)
        # object: gained for the chairs/tables/ladders option; no effect without it

    def storyline(when: str) -> None:
        reels = tables["reels"]
        reel = reels["pick"][dice.die(6, f"{when} storyline: reel 1d6")]
        faces = dice.roll(2, 6, f"{when} storyline: event 2d6")
        event = reels["reels"][reel]["events"][faces[0] + faces[1]]
        effect(event["effect"], fill(event["text"]))

    hot = setup.hotbox
    base = {"favored": names[0], "underdog": names[1], "ally": hot.get("favored_ally", "an ally"), "foe": hot.get("favored_foe", "a rival")}
    as_performer = [_Fill(base, performer=names[i], opponent=names[1 - i]) for i in (0, 1)]

    def fill(text: str, performer: int | None = None) -> str:
        if "{" not in text:
            return text
        if state["winner"] is not None:
            values = _Fill(base, performer=names[0], opponent=names[1], winner=names[state["winner"]], loser=names[1 - state["winner"]])
        else:
            values = as_performer[performer if performer is not None else 0]
        return text.format_map(values)

    def performer_of(card: dict) -> int | None:
        kind = card["type"]
        if kind == "TRAILING":
            return trailing(card_trailing=True)
        if kind in ("TV_MOVE", "SIGNATURE"):
            candidates = [0, 1]
        elif kind == "GRUDGE":
            if w[0].grudge != w[1].grudge:
                return 0 if w[0].grudge > w[1].grudge else 1
            candidates = [0, 1]
        else:
            candidates = [i for i in (0, 1) if can_use(i, kind)]
        if card.get("control") and last_scorer in candidates:
            return last_scorer  # ruling: the wrestler in control performs, if he qualifies
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        return trailing()  # 7: "TRAILING wrestler performs move; if tied, FAVORED"

    drawn = 0
    storyline("pre-match")
    deck = list(tables["facs"])
    quiet = 0
    while state["winner"] is None and drawn < FAC_GUARD:
        if not deck:
            deck = list(tables["facs"])  # all drawn: the deck is gathered up again
        if len(deck) > 1:  # drawing at random from what is left is shuffling lazily
            j = dice.die(len(deck), f"draw a FAC: d{len(deck)}") - 1
            deck[j], deck[-1] = deck[-1], deck[j]
        card = deck.pop()
        drawn += 1
        dice.round = drawn
        kind = card["type"]
        before = tuple(pos)
        if kind == "WILD_CARD":
            faces = dice.roll(2, 6, f"Wild Card chart ({setup.chart}) 2d6")
            event = tables["wild"][setup.chart][faces[0] + faces[1]]
            say("fac", f"FAC {drawn}: Wild Card!")
            effect(event["effect"], fill(event["text"]))
        elif kind in ("HIGHLIGHT_REEL", "REF_BUMP"):
            say("fac", f"FAC {drawn}: {'Highlight Reel' if kind == 'HIGHLIGHT_REEL' else 'Ref bump'}!")
            if kind == "REF_BUMP":
                faces = dice.roll(2, 6, "ref bump reel K 2d6")
                event = tables["reels"]["reels"]["K"]["events"][faces[0] + faces[1]]
                effect(event["effect"], fill(event["text"]))
            else:
                storyline("mid-match")
        elif kind == "TEST_OF_STRENGTH":
            a, b = dice.roll(2, 6, "test of strength: 1d6 each, favored first")
            say("fac", f"FAC {drawn}: a test of strength ({names[0]} {a}, {names[1]} {b}).")
            if a != b:
                winner = 0 if a > b else 1
                score(winner, max(a, b), "test of strength")
        elif kind == "TITLE_HOLDER":
            say("fac", f"FAC {drawn}: the champion's card; no champion in this match.")
        else:
            i = performer_of(card)
            if i is None:
                say("fac", f"FAC {drawn}: {kind.replace('_', ' ').title()}: neither man can use it here.")
            else:
                points = _points(card, w[i], setup, tables, dice, names[i])
                move_name = w[i].signature_moves.get(kind)
                text = fill(card["text"], i) + (f" ({move_name})" if move_name else "")
                say("fac", f"FAC {drawn}: {text}", i, points)
                score(i, points, kind.replace("_", " ").title())
        if tuple(pos) == before and state["winner"] is None:
            quiet += 1
            if setup.boo_rule and quiet >= BOO_AFTER:  # 10.a
                n = dice.die(6, "Boo rule 1d6")
                pos[0] = min(finish, pos[0] + n)
                say("boo", f"The crowd boos three quiet exchanges: {names[0]} is pushed {n} forward.")
                quiet = 0
                attempt(0)
        else:
            quiet = 0
    dice.round = 0
    storyline("post-match")
    say("end", "")
    return Result(state["winner"], state["method"], drawn, list(pos), lines, league, dice.take_log())


class _Fill(dict):
    """Placeholders for chart and card texts; an unknown one stays as written."""

    def __init__(self, base: dict, **more: str):
        super().__init__(base, **more)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _points(card: dict, wrestler: Wrestler, setup: Setup, tables: dict, dice: Dice, name: str) -> int:
    """7: skill cards base + 1d6 with the square icon; TV Move by grade; Grudge by tier."""
    kind, points = card["type"], card.get("points")
    if kind == "TV_MOVE":
        return tables["tv"]["tables"][setup.tv_table][wrestler.tv_grade]
    if kind == "GRUDGE":
        return dict(zip(("gold", "silver", "bronze"), setup.tiers))[card["grudge"]]
    base = dice.die(6, f"{name} d6 points") if points == "d6" else int(points or 0)
    if card.get("square"):
        base += dice.die(6, f"{name} square icon 1d6")
    if kind == "HELPED" and setup.chart == "cage":
        base //= 2  # 9.b: a cage "Reduces effectiveness of outside interference (HELPED quality)"
    return base
