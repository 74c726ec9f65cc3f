"""Mat Clash: a folkstyle wrestling card game, played by mail through strategy policies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import FileModel, Name, OwnerModel, validate
from fedtool.kernel.yamlio import load_yaml
from fedtool.rulesets.base import Booking, CardOnFile, Column, MatchOnCard, Ruleset, Trial, WrestlerRecord
from . import engine, rating
from .cards import SETS, build_deck, card_id, catalogue
from .policy import Policy, read_policy

METHOD_TITLES = {"fall": "by fall", "tech_fall": "by technical fall", "major": "by major decision", "decision": "by decision"}
FINISH_WORDS = {"pin": "Pin", "mat_beast": "MAT BEAST", "feet_to_back": "Feet to Back", "spladle": "Spladle"}


class SheetModel(FileModel):
    """A Mat Clash wrestler: a name, an owner and optional flavour."""

    name: Name
    ruleset: Literal["matclash"]
    owner: OwnerModel
    moves: dict[str, str] = {}  # card -> the wrestler's signature move name
    bio: str = Field(default="", max_length=4000)


@dataclass(frozen=True)
class Sheet:
    id: str
    name: str
    moves: dict
    bio: str = ""
    members: tuple = ()


class CardFields(FileModel):
    """A Mat Clash match's own field on the card."""

    format: str | None = Field(default=None, max_length=40)  # quick_scrap (the default) or dual_match


class MatClashSettings(FileModel):
    """`rulesets: matclash:` in rosters/fed.yaml."""

    sets: list[Literal["wave1", "wave2", "wave3", "short_print"]] = []
    deck: str | None = None  # a fed's own deck file, relative to rosters/
    # a side that sent no strategy: play the built-in default policy (and say so), or refuse the week
    missing_strategy: Literal["default", "refuse"] = "default"
    # readings fedheads differ on (docs/rulings/mat-clash.md, the settings table); each default is the rulebook's
    stalling_ban: Literal["next_play", "turn"] = "next_play"  # 4.10
    wizardry_erases: Literal["his_cards", "stack", "scoring"] = "his_cards"  # 4.14
    resilience_stops_spladle: bool = True  # 4.16
    early_falls: Literal["fall", "no_fall"] = "fall"  # 4.17
    tie_when_ahead: Literal["tie", "no_points", "not_playable"] = "tie"  # 4.18

    def rules(self) -> engine.Rules:
        return engine.Rules(self.stalling_ban, self.wizardry_erases, self.resilience_stops_spladle, self.early_falls, self.tie_when_ahead)


@dataclass
class Played:
    """A resolved Mat Clash match: one Quick Scrap or a Dual Match."""

    format: str
    scraps: list
    winner: int | None
    method: str
    team: tuple | None
    tiebreaker: bool
    log: list


class MatClash(Ruleset):
    id = "matclash"
    name = "Mat Clash"
    # 2 (issue 15): Wizardry erases the opponent's own last three cards, Resilience stops a Spladle's
    # fall, a tie card ties the score when ahead too (docs/rulings/mat-clash.md 4.14, 4.16, 4.18)
    rules_revision = 2
    template = "matclash/match"
    card_fields = CardFields
    finishes = ("fall", "tech_fall", "major", "decision", "dual")

    def settings(self, raw: dict) -> MatClashSettings:
        return validate(MatClashSettings, raw, "rosters/fed.yaml", "fed settings: rulesets.matclash")

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict) -> WrestlerRecord:
        model = validate(SheetModel, data, file, "Mat Clash wrestler sheet")
        moves = {card_id(k, file, f"field moves.{k}"): v for k, v in model.moves.items()}
        sheet = Sheet(wrestler_id, model.name, moves, model.bio)
        return WrestlerRecord(wrestler_id, model.name, self.id, model.owner.name, str(model.owner.email), sheet)

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        return {}  # Mat Clash keeps records only: standings come from the results

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict, settings: dict) -> Booking:
        options = self.settings(settings)
        fmt = match.raw.get("format", "quick_scrap")
        where = f"line {match.line}, match {match.id}"
        if fmt not in ("quick_scrap", "dual_match"):
            raise FedError(Problem(card.shown, where, f"format {fmt!r}: Mat Clash is a quick_scrap or a dual_match", "Mat Clash"))
        if len(wrestlers) != 2:
            raise FedError(Problem(card.shown, where, f"a Mat Clash match has two wrestlers, not {len(wrestlers)}", "Mat Clash"))
        problems = Collector()
        policies, notes = [], []
        for wrestler in wrestlers:
            path = card.strategy_path(match, wrestler.id)
            shown = f"{card.shown.rsplit('/', 1)[0]}/{path.name}"
            if not path.exists():
                if options.missing_strategy == "refuse":
                    problems.add(shown, None, f"no strategy from {wrestler.name} for match {match.id}", "fed settings: rulesets.matclash.missing_strategy is refuse")
                    continue
                policies.append(Policy())
                notes.append(f"{wrestler.name} sent no strategy and plays the built-in default policy.")
                continue
            try:
                policies.append(read_policy(load_yaml(path, shown), shown, wrestler.id, wrestler.name))
            except FedError as exc:
                problems.extend(exc)
        deck = None
        try:
            if options.deck:
                deck_path = card.fed.rosters / Path(options.deck).name  # a file in rosters/ only
                deck = build_deck(tuple(options.sets), deck_path, f"rosters/{deck_path.name}")
            else:
                deck = build_deck(tuple(options.sets))
        except FedError as exc:
            problems.extend(exc)
        problems.raise_if_any()
        moves = [dict(w.sheet.moves, **p.moves) for w, p in zip(wrestlers, policies)]
        setup = {"format": fmt, "names": [w.name for w in wrestlers], "ids": [w.id for w in wrestlers], "policies": policies, "deck": deck, "moves": moves,
                 "rules": options.rules()}
        return Booking(match, setup, wrestlers, notes, {"format": fmt})

    def announce(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        fmt = match.raw.get("format", "quick_scrap")
        rules = ("Five Quick Scraps, up to 3 draws each per scrap, Pin and MAT BEAST after the second transition; "
                 "team points 6 for a fall, 5 technical fall, 4 major, 3 decision.") if fmt == "dual_match" else (
                 "Up to 2 draws each; Pin and MAT BEAST after the first transition.")
        return {"names": [w.name for w in wrestlers], "format": "Dual Match" if fmt == "dual_match" else "Quick Scrap", "format_rules": rules}

    def resolve(self, booking: Booking, dice: Dice) -> Played:
        s = booking.setup
        if s["format"] == "dual_match":
            dual = engine.dual_match(s["names"], s["policies"], s["deck"], dice, s.get("rules"))
            return Played("dual_match", dual.scraps, dual.winner, "dual", dual.team, dual.tiebreaker, dice.take_log())
        scrap = engine.quick_scrap(s["names"], s["policies"], s["deck"], dice, rules=s.get("rules"))
        return Played("quick_scrap", [scrap], scrap.winner, scrap.method, None, False, dice.take_log())

    def outcomes(self, booking: Booking, result: Played) -> list[str]:
        return ["win" if i == result.winner else "loss" for i in (0, 1)]

    # ---------------------------------------------------------------- odds

    plays_odds = True

    def odds_unit(self, booking: Booking) -> str:
        return "scraps" if booking.setup["format"] == "dual_match" else "turns"

    def exhibition(self, sheets: list[tuple[Any, str, str]], strategies: list[tuple[Any, str]], settings: dict, options: dict) -> Booking:
        """A Quick Scrap from two sheets and two strategies, on the fed's rules and the
        packaged deck with the fed's sets (`--grid` and `--rounds` are MatchMatch's)."""
        given = [f"--{name}" for name in ("grid", "rounds") if options.get(name) is not None]
        if given:
            raise FedError(Problem(None, given[0], f"a Mat Clash match has no {given[0][2:]}: leave out {' and '.join(given)}", "fedtool odds"))
        options_ = self.settings(settings)
        if options_.deck:
            raise FedError(Problem("rosters/fed.yaml", "field rulesets.matclash.deck", "this fed plays its own deck: give a match on a card "
                                   "(--match WEEK/MATCH) for its odds", "fedtool odds"))
        problems = Collector()
        wrestlers, policies = [], []
        for (sheet_data, sheet_file, wrestler_id), (strategy_data, strategy_file) in zip(sheets, strategies):
            try:
                wrestler = self.read_sheet(sheet_data, sheet_file, wrestler_id, {})
                wrestlers.append(wrestler)
                policies.append(read_policy(strategy_data, strategy_file, wrestler_id, wrestler.name))
            except FedError as exc:
                problems.extend(exc)
        problems.raise_if_any()
        if any(w.ruleset != self.id for w in wrestlers):
            raise FedError(Problem(sheets[1][1], "field ruleset", "both sheets must be Mat Clash wrestlers", "fedtool odds"))
        setup = {"format": "quick_scrap", "names": [w.name for w in wrestlers], "ids": [w.id for w in wrestlers], "policies": policies,
                 "deck": build_deck(tuple(options_.sets)), "moves": [dict(w.sheet.moves, **p.moves) for w, p in zip(wrestlers, policies)],
                 "rules": options_.rules()}
        return Booking(None, setup, wrestlers, extra={"format": "quick_scrap"})

    def trial(self, setup: dict, dice: Dice) -> Trial:
        """A Quick Scrap or a Dual Match played as `resolve` plays it, keeping no events: the
        winner, the method ("dual" for a Dual Match, as its summary says) and its length in
        turns (a Quick Scrap) or scraps (a Dual Match)."""
        if setup["format"] == "dual_match":
            dual = engine.dual_match(setup["names"], setup["policies"], setup["deck"], dice, setup.get("rules"), record=False)
            return Trial(dual.winner, "dual", len(dual.scraps))
        scrap = engine.quick_scrap(setup["names"], setup["policies"], setup["deck"], dice, rules=setup.get("rules"), record=False)
        return Trial(scrap.winner, scrap.method, scrap.turns)

    def missing_strategy(self, settings: dict) -> str:
        return settings.get("missing_strategy", "default")

    def strategy_readings(self, path: Path, shown: str) -> list | None:
        """How the strategy reads (`fedtool read`): each situation's cards in the order they
        are played, the answers, what is held back, the draws, each plan line and a warning
        for whatever can never apply (docs/mat-clash-strategy.md)."""
        return read_policy(load_yaml(path, shown), shown).readings()

    def standing_extras(self, wrestler_id: str, matches: list[dict]) -> dict:
        """Team points (4.8: fall 6, technical fall 5, major 4, decision 3) over Quick Scraps
        won and Dual Matches' team totals, and falls won."""
        points = falls = 0
        for m in matches:
            summary = m["summary"]  # read by the core; what a hand edit left odd counts nothing
            scraps = [s for s in summary.get("scraps") or [] if isinstance(s, dict)] if isinstance(summary.get("scraps"), list) else []
            for scrap in scraps:
                if scrap.get("winner") == wrestler_id and scrap.get("method") == "fall":
                    falls += 1
            team = summary.get("team_points")
            if team:
                side = team[m["side"]] if isinstance(team, list) and isinstance(m["side"], int) and 0 <= m["side"] < len(team) else 0
                points += side if isinstance(side, int) and not isinstance(side, bool) else 0
            else:
                points += sum(s["team_points"] for s in scraps if s.get("winner") == wrestler_id and isinstance(s.get("team_points"), int))
        return {"match_points": points, "falls": falls}

    def standing_columns(self) -> tuple[Column, ...]:
        return (Column("points", lambda r: r.get("match_points", 0)), Column("falls", lambda r: r.get("falls", 0)))

    def summary(self, booking: Booking, result: Played) -> dict:
        ids = booking.setup["ids"]
        return {
            **booking.extra,
            "winner": None if result.winner is None else ids[result.winner],
            "method": result.method,
            "round": len(result.scraps),
            "team_points": list(result.team) if result.team else None,
            "scraps": [
                {"winner": ids[r.winner], "method": r.method, "finish": r.finish, "score": list(r.score), "team_points": r.team_points, "transitions": r.transitions}
                for r in result.scraps
            ],
            "sides": [{"id": ids[i], "name": booking.setup["names"][i]} for i in (0, 1)],
            "tiebreaker": bool(result.tiebreaker),
        }

    def result_details(self, summary: dict) -> dict:
        """Mat Clash in `fedtool results --json`: the format (quick_scrap, dual_match), the
        Dual Match's team points, and each scrap: winner, method, finish, its score by
        wrestler and the team points it earned (4.8). `tiebreaker` (a Dual Match's sixth
        scrap) is null for a summary kept before it was recorded."""
        ids = [side.get("id") for side in summary.get("sides") or []]
        team = summary.get("team_points")
        tiebreaker = summary.get("tiebreaker")
        scraps = [s for s in summary.get("scraps") or [] if isinstance(s, dict)]
        return {
            "match_type": summary.get("format") or "quick_scrap",
            "team_points": dict(zip(ids, team)) if isinstance(team, list) and len(team) == len(ids) else None,
            "tiebreaker": tiebreaker,
            "scraps": [{"number": n, "winner": s.get("winner"), "method": s.get("method"), "finish": s.get("finish"),
                        "score": dict(zip(ids, s["score"])) if isinstance(s.get("score"), list) and len(s["score"]) == len(ids) else None,
                        "team_points": s.get("team_points"), "transitions": s.get("transitions"),
                        "tiebreaker": None if tiebreaker is None else bool(tiebreaker and n == 6)}
                       for n, s in enumerate(scraps, 1)],
        }

    def rating_inputs(self, booking: Booking, result: Played) -> dict:
        """The star rating's inputs from the scraps' events (`rating.rating_inputs`)."""
        return rating.rating_inputs(result.scraps, result.team)

    def describe(self, booking: Booking, result: Played) -> dict:
        s = booking.setup
        names, moves = s["names"], s["moves"]
        cards = catalogue()
        scraps = []
        for n, scrap in enumerate(result.scraps, 1):
            opening, transitions, overtime = _tell(scrap, names, moves, cards)
            winner = names[scrap.winner]
            how = f"by fall ({FINISH_WORDS[scrap.finish]})" if scrap.method == "fall" else METHOD_TITLES[scrap.method] + (" in overtime" if scrap.finish == "overtime" else "")
            won, lost = scrap.score[scrap.winner], scrap.score[1 - scrap.winner]  # the winner's score first
            scraps.append({
                "number": n,
                "tiebreaker": result.tiebreaker and n == 6,
                "first": names[scrap.first],
                "opening": opening,
                "transitions": transitions,
                "overtime": overtime,
                "result": f"{winner} wins {how}, {won}-{lost}",
                "score": scrap.score,
                "team_points": scrap.team_points,
                "winner": winner,
            })
        fmt = "Dual Match" if result.format == "dual_match" else "Quick Scrap"
        winner, loser = names[result.winner], names[1 - result.winner]
        if result.format == "dual_match":
            headline = f"{fmt}: {winner} def. {loser}, {max(result.team)}-{min(result.team)} in team points" + (" after a tiebreaker" if result.tiebreaker else "")
        else:
            headline = f"{fmt}: {winner} def. {loser} ({scraps[0]['result'].split(' wins ')[1]})"
        running = [0, 0]
        table = []
        for scrap in result.scraps:
            running[scrap.winner] += scrap.team_points
            table.append({"winner": names[scrap.winner], "points": scrap.team_points, "totals": list(running)})
        return {"headline": headline, "format": fmt, "names": names, "scraps": scraps, "team": list(result.team) if result.team else None, "team_table": table}


SKIPPERS = {"momentum": "Momentum", "stalling": "Stalling", "cut_em": "Cut Em", "resilience": "Resilience"}


def _played_action(card_text: str, cards: dict) -> str:
    """What a logged play was played as: "Beastin' (Wild) as Momentum" -> momentum."""
    if " as " in card_text:
        return card_text.rsplit(" as ", 1)[1].lower().replace(" ", "_")
    card = next((c for c in cards.values() if c.name == card_text), None)
    return card.action if card else ""


def _where(positions: tuple, names: list[str]) -> str:
    """The positions in a commentator's words."""
    if positions[0] == positions[1] == engine.NEUTRAL:
        return "both neutral"
    top = 0 if positions[0] == engine.TOP else 1
    return f"{_short(names[top])} on top, {_short(names[1 - top])} on bottom"


def _tell(scrap: engine.ScrapResult, names: list[str], moves: list[dict], cards: dict) -> tuple[list, list, list]:
    """A scrap told so a player can follow it: the 10th-card draw; each transition with the
    positions and score it starts from, every play with its points, the score after and any
    change of position, every skipped turn with the card that skipped it, every pass; overtime."""
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
        who = names[e.wrestler] if e.wrestler is not None else ""
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
            action = _played_action(e.card, cards)
            if e.kind == "play" and action in SKIPPERS:
                skipped_by[1 - e.wrestler] = f"{_short(who)}'s {SKIPPERS[action]}"
            line = _event_text(e, names, moves, cards)
        elif e.kind == "no_fall":
            line = f"{who} is not pinned: {e.text}."
        elif e.kind == "fall":
            line = f"**{who} wins by fall: {e.text}!**"
        else:
            continue
        if tuple(e.positions) != positions and e.kind != "fall":
            line = f"{line[:-1]}; now {_where(e.positions, names)}."
        lines.append(line)
        positions, score = tuple(e.positions), tuple(e.score)
    return opening, transitions, overtime


def _score_text(score: tuple, names: list[str]) -> str:
    return f"{_short(names[0])} {score[0]}, {_short(names[1])} {score[1]}"


def _card_name(card_id: str, cards: dict) -> str:
    return cards[card_id].name if card_id in cards else card_id.replace("_", " ")


def _tenth_text(e: engine.Event, names: list[str], cards: dict) -> str:
    """1.3 told: who drew what, specials back into the deck, ties redrawn, who starts."""
    if e.wrestler is None:
        drawn = e.card.split(" v ")
        values = e.text.split(" v ")
        if len(drawn) != 2 or len(values) != 2:
            return f"10th-card draw: {e.text}."
        told = " v ".join(f"{_short(names[i])} {_card_name(drawn[i], cards)} ({values[i]})" for i in (0, 1))
        return f"10th-card draw: {told}" + (": a tie, both go back into the deck." if values[0] == values[1] else ".")
    who = names[e.wrestler]
    if e.text.startswith("wins"):
        return f"{who} wins the 10th-card draw and starts."
    if e.card:
        return f"{who} draws {_card_name(e.card, cards)} for the 10th card: {e.text}."
    return ""


def _overtime_text(e: engine.Event, names: list[str], cards: dict) -> str:
    if e.card and " v " in e.card:
        drawn = e.card.split(" v ")
        return "Draw: " + " v ".join(f"{_short(names[i])} {_card_name(drawn[i], cards)}" for i in (0, 1)) + "."
    return f"{names[e.wrestler]}: {e.text}." if e.wrestler is not None else f"Overtime: {e.text}."


def _event_text(e: engine.Event, names: list[str], moves: list[dict], cards: dict) -> str:
    """A play or an answer: the card (the wrestler's own move name for it), its points, what
    it did and the score after."""
    who = names[e.wrestler] if e.wrestler is not None else ""
    card_name = e.card
    card = next((c for c in cards.values() if c.name == card_name.split(" as ")[0]), None)
    move = moves[e.wrestler].get(card.id) if card else None
    shown = f"{move} ({card_name})" if move else card_name
    verb = "answers with" if e.kind == "answer" else "plays"
    points = f", {'+' if e.points > 0 else ''}{e.points}" if e.points else ""
    return f"{who} {verb} {shown}{points}: {e.text} ({_score_text(e.score, names)})."


def _short(name: str) -> str:
    """The surname a commentator uses: the last word of the name."""
    return name.split()[-1]


__all__ = ["MatClash", "SETS"]
