"""Face to the Mat: TV grades, grudges, Fast Action Cards and the match track."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from ...card import Card as CardFile
from ...card import CardMatch
from ...dice import Dice
from ...errors import FedError, Problem
from ...validation import FileModel, validate
from ..base import Booking, Ruleset, WrestlerRecord
from . import engine
from .rules import GRADES
from .sheet import read_card

CHARTS = {None: "normal", "normal": "normal", "cage": "cage", "hardcore": "hardcore", "grudge": "normal", "tag": "normal"}
# 9.a: "Roll 1d6 for match type: 1-2 Normal, 3-4 Cage, 5 Hardcore, 6 Special (roll again or choose)"
GRUDGE_TYPES = {1: "normal", 2: "normal", 3: "cage", 4: "cage", 5: "hardcore", 6: None}
# 9.a: "Roll 1d6 for stakes: 1-2 TV Grade change, 3-4 Loser leaves town, 5 Title shot, 6 Special prize"
GRUDGE_STAKES = {1: "tv_grade", 2: "tv_grade", 3: "loser_leaves_town", 4: "loser_leaves_town", 5: "title_shot", 6: "special_prize"}


class Tiers(FileModel):
    gold: int = Field(default=3, ge=0, le=10)
    silver: int = Field(default=2, ge=0, le=10)
    bronze: int = Field(default=1, ge=0, le=10)


class FaceToTheMatSettings(FileModel):
    """`rulesets: facemat:` in rosters/fed.yaml (the advanced options of section 10)."""

    boo_rule: bool = False  # 10.a
    tv_table: Literal["standard", "steep", "flat"] = "standard"  # the three published TV Move tables
    tiers: Tiers = Tiers()  # 10.h: varied gold, silver and bronze moves
    tv_changes: Literal["upsets", "none"] = "upsets"  # TV grades outside grudge matches (docs/rulings)


def roll_grudge(setup: engine.Setup, dice: Dice) -> dict:
    """9.a: the match-type and stakes rolls (a 6 rolls again: docs/rulings). A hardcore roll
    for a pair that is not both MEAN makes it a normal match (9.f: MEAN wrestlers only)."""
    kind = None
    while kind is None:
        kind = GRUDGE_TYPES[dice.die(6, "grudge match type 1d6")]
    if kind == "hardcore" and not all("MEAN" in w.skills for w in setup.wrestlers):
        kind = "normal"
    stakes = GRUDGE_STAKES[dice.die(6, "grudge stakes 1d6")]
    stakes_text = {"tv_grade": "TV grades", "loser_leaves_town": "loser leaves town", "title_shot": "a title shot", "special_prize": "a special prize"}[stakes]
    return {"type": kind, "chart": kind, "stakes": stakes, "type_text": f"a {kind} match", "stakes_text": stakes_text}


def shift_grade(grade: str, change: int) -> str:
    """A TV grade moved `change` steps (+1 = one grade better), kept within AAA-F."""
    index = min(len(GRADES) - 1, max(0, GRADES.index(grade) - change))
    return GRADES[index]


def _title(wrestler_id: str) -> str:
    return wrestler_id.replace("-", " ").title()


class FaceToTheMat(Ruleset):
    id = "facemat"
    name = "Face to the Mat"
    template = "facemat/match"

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict) -> WrestlerRecord:
        card = read_card(data, file, wrestler_id)
        return WrestlerRecord(wrestler_id, card.name, self.id, card.owner_name, card.owner_email, card)

    def settings(self, raw: dict) -> FaceToTheMatSettings:
        return validate(FaceToTheMatSettings, raw, "rosters/fed.yaml", "fed settings: rulesets.facemat")

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        return {"tv_grade": wrestler.sheet.tv_grade, "grudge": wrestler.sheet.grudge}

    def book(self, card: CardFile, match: CardMatch, wrestlers: list[WrestlerRecord], states: dict, settings: dict) -> Booking:
        options = self.settings(settings)
        where = f"line {match.line}, match {match.id}"
        # the league's current grades, not the sheet's starting ones
        wrestlers = [replace(w, sheet=replace(w.sheet, tv_grade=states[w.id]["tv_grade"], grudge=states[w.id]["grudge"])) for w in wrestlers]
        stip = match.raw.get("stipulation")
        sides_needed = 4 if stip == "tag" else 2
        if len(wrestlers) != sides_needed:
            kind = "a tag match is four wrestlers, the first two a team (9.c)" if stip == "tag" else "a singles match is two wrestlers"
            raise FedError(Problem(card.shown, where, f"{kind}, not {len(wrestlers)}", "Face to the Mat 9"))
        if stip not in CHARTS:
            raise FedError(Problem(card.shown, where, f"stipulation {stip!r}: Face to the Mat matches here are normal, cage, hardcore or grudge", "Face to the Mat 9"))
        if stip == "hardcore":
            soft = [w.name for w in wrestlers if "MEAN" not in w.sheet.skills]
            if soft:
                raise FedError(Problem(card.shown, where, f"{', '.join(soft)} is not MEAN: a hardcore match is only for wrestlers with MEAN", "Face to the Mat 9.f"))
        gone = [w.name for w in wrestlers if states[w.id].get("left_town")]
        if gone:
            raise FedError(Problem(card.shown, where, f"{', '.join(gone)} left town after losing a loser-leaves-town grudge match", "Face to the Mat 9.a"))
        favored = match.raw.get("favored")
        if favored is not None and favored not in match.sides:
            raise FedError(Problem(card.shown, where, f"favored {favored!r} is not in this match", "Face to the Mat 4.a"))
        teams = [wrestlers[0:2], wrestlers[2:4]] if stip == "tag" else [wrestlers[0:1], wrestlers[1:2]]
        if favored is None:  # 4.a; ruling: the better TV grade (a team's best) is favored, the first listed on a tie
            best = [min(GRADES.index(w.sheet.tv_grade) for w in team) for team in teams]
            first = 0 if best[0] <= best[1] else 1
        else:
            first = 0 if any(w.id == favored for w in teams[0]) else 1
        teams = [teams[first], teams[1 - first]]
        pair = [teams[0][0], teams[1][0]]
        hotbox = {}
        for role, w in zip(("favored", "underdog"), pair):
            hotbox[f"{role}_ally"] = _title(w.sheet.allies[0]) if w.sheet.allies else "a friend from the locker room"
            hotbox[f"{role}_foe"] = _title(w.sheet.foes[0]) if w.sheet.foes else "an old rival"
        tiers = (options.tiers.gold, options.tiers.silver, options.tiers.bronze)
        partners = (teams[0][1].sheet, teams[1][1].sheet) if stip == "tag" else ()
        setup = engine.Setup(match.id, (pair[0].sheet, pair[1].sheet), hotbox, CHARTS[stip], options.tv_table, tiers, options.boo_rule, partners)
        ordered = pair + ([teams[0][1], teams[1][1]] if stip == "tag" else [])  # side i's men: ordered[i], ordered[i + 2]
        label = [" & ".join(w.name for w in team) for team in teams]
        verb = "are" if stip == "tag" else "is"
        note = f"{label[0]} {verb} favored; {label[1]} {verb} the underdog{'s' if stip == 'tag' else ''}."
        return Booking(match, setup, ordered, [note], {"stipulation": stip})

    def resolve(self, booking: Booking, dice: Dice) -> engine.Result:
        setup = booking.setup
        grudge = None
        if booking.extra.get("stipulation") == "grudge":
            grudge = roll_grudge(setup, dice)
            booking.extra["grudge"] = grudge
            setup = replace(setup, chart=grudge["chart"])
        result = engine.resolve(setup, dice)
        if grudge:
            names = [w.name for w in setup.wrestlers]
            result.lines.insert(0, engine.Line(0, "storyline", f"A grudge match! The dice make it {grudge['type_text']}, with {grudge['stakes_text']} on the line ({names[0]} vs. {names[1]}).", None, 0, (0, 0)))
        return result

    def outcomes(self, booking: Booking, result: engine.Result) -> list[str]:
        side_of = {w.id: n % 2 for n, w in enumerate(booking.wrestlers)}
        if result.winner is None:
            return ["draw"] * len(booking.match.sides)
        return ["win" if side_of[wid] == result.winner else "loss" for wid in booking.match.sides]

    def league_effects(self, booking: Booking, result: engine.Result, states: dict, settings: dict) -> dict:
        """TV grades and grudges after the match: the fed's TV rule (by default an upset lifts
        the underdog a grade and drops the favored one) and the storylines' own effects."""
        ws = booking.wrestlers
        new = {w.id: dict(states[w.id]) for w in ws}
        reasons: dict[str, list[str]] = {w.id: [] for w in ws}
        if len(ws) == 4:  # a tag match: both partners share the team's fortunes
            team_of = {0: [ws[0], ws[2]], 1: [ws[1], ws[3]]}
        else:
            team_of = {0: [ws[0]], 1: [ws[1]]}
        grudge = booking.extra.get("grudge")
        if grudge and result.winner is not None:
            # 9.a: "Always causes TV Grade changes for participants": winner up one, loser down one
            w_id, l_id = ws[result.winner].id, ws[1 - result.winner].id
            steps = 2 if grudge["stakes"] in ("tv_grade", "special_prize") else 1  # the stakes add a grade
            for wid, change in ((w_id, steps), (l_id, -1 if grudge["stakes"] != "tv_grade" else -2)):
                before = new[wid]["tv_grade"]
                new[wid]["tv_grade"] = shift_grade(before, change)
                reasons[wid].append(f"grudge match ({grudge['stakes_text']}): TV grade {before} -> {new[wid]['tv_grade']}")
            if grudge["stakes"] == "loser_leaves_town":
                new[l_id]["left_town"] = 1
                reasons[l_id].append("lost a loser-leaves-town grudge match: leaves town")
            if grudge["stakes"] == "title_shot":
                new[w_id]["title_shot"] = 1
                reasons[w_id].append("won a title shot in a grudge match")
        elif self.settings(settings).tv_changes == "upsets" and result.winner == 1:
            for i, change in ((1, 1), (0, -1)):
                for w in team_of[i]:
                    before = new[w.id]["tv_grade"]
                    new[w.id]["tv_grade"] = shift_grade(before, change)
                    reasons[w.id].append(f"upset ({'won' if i == 1 else 'lost'} as the {'underdog' if i == 1 else 'favorite'}): TV grade {before} -> {new[w.id]['tv_grade']}")
        for i, kind, change, _ in result.league:
            for w in team_of[i]:
                state = new[w.id]
                if kind == "tv":
                    before = state["tv_grade"]
                    state["tv_grade"] = shift_grade(before, change)
                    reasons[w.id].append(f"storyline: TV grade {before} -> {state['tv_grade']}")
                else:
                    state["grudge"] += change
                    reasons[w.id].append(f"storyline: grudge {state['grudge'] - change} -> {state['grudge']}")
        return {wid: (state, "; ".join(reasons[wid])) for wid, state in new.items() if state != states[wid]}

    def summary(self, booking: Booking, result: engine.Result) -> dict:
        ws = booking.wrestlers
        return {
            **booking.extra,
            "winner": None if result.winner is None else ws[result.winner].id,  # the team's first man in a tag match
            "method": result.method,
            "round": result.facs,
            "favored": ws[0].id,
            "sides": [{"id": w.id, "name": w.name, "track": result.positions[i % 2], "tv_grade": w.sheet.tv_grade} for i, w in enumerate(ws)],
            "storyline": [{"wrestler": ws[i].id, "kind": kind, "change": change} for i, kind, change, _ in result.league],
        }

    def describe(self, booking: Booking, result: engine.Result) -> dict:
        ws = booking.wrestlers
        names = [" & ".join(w.name for w in ws[i::2]) for i in (0, 1)]
        if result.winner is None:
            headline = f"{names[0]} vs. {names[1]}: a time-limit draw"
        else:
            finisher = ws[result.winner].sheet.finisher_name if len(ws) == 2 else "a finisher"
            how = {"pin": "by pinfall", "finisher": f"with {finisher}"}[result.method]
            headline = f"{names[result.winner]} def. {names[1 - result.winner]} {how} ({result.facs} FACs)"
        lines = [{"kind": ln.kind, "text": ln.text, "positions": ln.positions} for ln in result.lines if ln.text]
        return {"headline": headline, "names": names, "lines": lines, "facs": result.facs, "hotbox": booking.setup.hotbox}

    def announce(self, card: CardFile, match: CardMatch, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        stip = match.raw.get("stipulation") or "normal"
        teams = [wrestlers[0:2], wrestlers[2:4]] if stip == "tag" else [[w] for w in wrestlers]
        return {"sides": [" & ".join(w.name for w in team) for team in teams], "stipulation": stip}


__all__ = ["FaceToTheMat"]
