"""Mat Clash: a folkstyle wrestling card game, played by mail through strategy policies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import validate
from fedtool.kernel.yamlio import load_yaml, parse_yaml, read_text
from fedtool.rulesets.base import Booking, CardOnFile, Column, MatchOnCard, Ruleset, Submodule, Trial, WrestlerRecord, kept_reading
from .cards import SETS, build_deck, card_id, catalogue

if TYPE_CHECKING:
    from .models import MatClashSettings

# imported when first used (issue 18): reading a sheet or the standings needs none of them
_engine = Submodule(__name__, "engine", "_engine")
_narrate = Submodule(__name__, "narrate", "_narrate")
_rating = Submodule(__name__, "rating", "_rating")
_policy = Submodule(__name__, "policy", "_policy")
_models = Submodule(__name__, "models", "_models")  # pydantic's: imported when a file is first checked

_MODELS = frozenset(("SheetModel", "CardFields", "MatClashSettings"))


def __getattr__(name: str) -> Any:
    """The models, moved to .models (imported when first asked for: `from fedtool.rulesets.matclash import SheetModel`)."""
    if name in _MODELS:
        return getattr(_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

METHOD_TITLES = {"fall": "by fall", "tech_fall": "by technical fall", "major": "by major decision", "decision": "by decision"}
FINISH_WORDS = {"pin": "Pin", "mat_beast": "MAT BEAST", "feet_to_back": "Feet to Back", "spladle": "Spladle"}


@dataclass(frozen=True)
class Sheet:
    id: str
    name: str
    moves: dict
    bio: str = ""
    members: tuple = ()


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


def _read_kept(cache: dict, path: Path, shown: str, wrestler: WrestlerRecord):
    """`read_policy` of a strategy file, kept in `cache` (`kept_reading`) under its whole text
    and all else the reading depends on (the file's name as shown, the wrestler's id and
    name). The file is read every time. (A policy keeps only memos of its answers: sharing
    it gives the answers a fresh one gives.)"""
    text = read_text(path, shown)
    key = ("matclash strategy", text, shown, wrestler.id, wrestler.name)
    return kept_reading(cache, key, None, lambda: _policy.read_policy(parse_yaml(text, shown, keep=True), shown, wrestler.id, wrestler.name))

class MatClash(Ruleset):
    id = "matclash"
    name = "Mat Clash"
    # 2 (issue 15): Wizardry erases the opponent's own last three cards, Resilience stops a Spladle's
    # fall, a tie card ties the score when ahead too (docs/rulings/mat-clash.md 4.14, 4.16, 4.18)
    rules_revision = 2
    template = "matclash/match"
    length_word = "scrap"  # a result's `round` is the scraps wrestled (a Dual Match's sixth: "in scrap 6")
    @property
    def card_fields(self) -> type:  # type: ignore[override]
        return _models.CardFields
    finishes = ("fall", "tech_fall", "major", "decision", "dual")

    def settings(self, raw: dict) -> MatClashSettings:
        return validate(_models.MatClashSettings, raw, "rosters/fed.yaml", "fed settings: rulesets.matclash", prefix=("rulesets", "matclash"))

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict) -> WrestlerRecord:
        model = validate(_models.SheetModel, data, file, "Mat Clash wrestler sheet")
        moves = {card_id(k, file, f"field moves.{k}"): v for k, v in model.moves.items()}
        sheet = Sheet(wrestler_id, model.name, moves, model.bio)
        return WrestlerRecord(wrestler_id, model.name, self.id, model.owner.name, str(model.owner.email), sheet)

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        return {}  # Mat Clash keeps records only: standings come from the results

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict, settings: dict, cache: dict | None = None) -> Booking:
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
                policies.append(_policy.Policy())
                notes.append(f"{wrestler.name} sent no strategy and plays the built-in default policy.")
                continue
            try:
                if cache is None:
                    policies.append(_policy.read_policy(load_yaml(path, shown), shown, wrestler.id, wrestler.name))
                else:
                    policies.append(_read_kept(cache, path, shown, wrestler))
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
            dual = _engine.dual_match(s["names"], s["policies"], s["deck"], dice, s.get("rules"))
            return Played("dual_match", dual.scraps, dual.winner, "dual", dual.team, dual.tiebreaker, dice.take_log())
        scrap = _engine.quick_scrap(s["names"], s["policies"], s["deck"], dice, rules=s.get("rules"))
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
                policies.append(_policy.read_policy(strategy_data, strategy_file, wrestler_id, wrestler.name))
            except FedError as exc:
                problems.extend(exc)
        problems.raise_if_any()
        if any(w.ruleset != self.id for w in wrestlers):
            raise FedError(Problem(sheets[1][1], "field ruleset", "both sheets must be Mat Clash wrestlers", "fedtool odds"))
        setup = {"format": "quick_scrap", "names": [w.name for w in wrestlers], "ids": [w.id for w in wrestlers], "policies": policies,
                 "deck": build_deck(tuple(options_.sets)), "moves": [dict(w.sheet.moves, **p.moves) for w, p in zip(wrestlers, policies)],
                 "rules": options_.rules()}
        return Booking(None, setup, wrestlers, extra={"format": "quick_scrap"})

    def trial_setup(self, booking: Booking) -> tuple:
        """What every trial of a booking plays, read once: whether it is a Dual Match, the names,
        the policies (their compiled plans are kept between trials), the deck and the rules."""
        s = booking.setup
        return (s["format"] == "dual_match", s["names"], s["policies"], s["deck"], s.get("rules") or _engine.DEFAULT_RULES)

    def trial(self, setup: tuple | dict, dice: Dice) -> Trial:
        """A Quick Scrap or a Dual Match played as `resolve` plays it, keeping no events: the
        winner, the method ("dual" for a Dual Match, as its summary says) and its length in
        turns (a Quick Scrap) or scraps (a Dual Match). `setup` is `trial_setup`'s (a booking's
        setup is read the same way)."""
        if isinstance(setup, dict):
            setup = self.trial_setup(Booking(None, setup, []))
        dual, names, policies, deck, rules = setup
        if dual:
            played = _engine.dual_match(names, policies, deck, dice, rules, record=False)
            return Trial(played.winner, "dual", len(played.scraps))
        scrap = _engine.quick_scrap(names, policies, deck, dice, rules=rules, record=False)
        return Trial(scrap.winner, scrap.method, scrap.turns)

    def missing_strategy(self, settings: dict) -> str:
        return settings.get("missing_strategy", "default")

    def strategy_readings(self, path: Path, shown: str) -> list | None:
        """How the strategy reads (`fedtool read`): each situation's cards in the order they
        are played, the answers, what is held back, the draws, each plan line and a warning
        for whatever can never apply (docs/mat-clash-strategy.md)."""
        return _policy.read_policy(load_yaml(path, shown), shown).readings()

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
        return _rating.rating_inputs(result.scraps, result.team)

    def describe(self, booking: Booking, result: Played) -> dict:
        """The writeup's data: each scrap told as a bout (`narrate.Story`: the phrases of
        data/commentary.yaml, with the fed's templates/commentary/matclash.yaml over it, chosen
        by the match's key), its exact result line, and the card-by-card log beside it."""
        s = booking.setup
        names, moves = s["names"], s["moves"]
        cards = catalogue()
        teller = booking.teller() or self.commentary().teller(booking.story_key)
        plans = _narrate.plan_lines(s, result.format, result.log, result.scraps)
        scraps = []
        running = [0, 0]
        quoted: set = set()
        for n, scrap in enumerate(result.scraps, 1):
            story = _narrate.Story(teller, names, moves, cards, result.format, plans[n - 1] if n - 1 < len(plans) else {}, quoted)
            beats = story.beats(scrap)
            opening, transitions, overtime = _narrate.details(scrap, names, moves, cards)
            winner = names[scrap.winner]
            how = f"by fall ({FINISH_WORDS[scrap.finish]})" if scrap.method == "fall" else METHOD_TITLES[scrap.method] + (" in overtime" if scrap.finish == "overtime" else "")
            won, lost = scrap.score[scrap.winner], scrap.score[1 - scrap.winner]  # the winner's score first
            ending = story.finish(scrap)
            team_line = ""
            if result.format == "dual_match":
                before = tuple(running)
                running[scrap.winner] += scrap.team_points
                team_line = _team_line(story, before, tuple(running), scrap, n, result)
            scraps.append({
                "number": n,
                "tiebreaker": result.tiebreaker and n == 6,
                "first": names[scrap.first],
                "story": [" ".join(story.opening(scrap))] + _narrate.paragraphs(beats),
                "beats": [{"kind": b.kind, "text": b.told(), "score": list(b.score)} for b in beats],
                "ending": ending,
                "team_line": team_line,
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


def _team_line(story: _narrate.Story, before: tuple, after: tuple, scrap, n: int, result: Played) -> str:
    """A Dual Match's team score after a scrap (4.8), told; after the fifth, who won the dual
    or that a tiebreaker decides it; after the tiebreaker, that it decided the dual."""
    names, fmt = story.names, {"format": "dual_match"}
    w = scrap.winner
    if n == 6:  # the tiebreaker: it decides the dual
        return story.say("dual_result_tiebreaker", fmt, winner=names[w], loser=names[1 - w], points=before[0])
    if after[0] == after[1]:
        line = story.say("team_tied", fmt, points=after[0], winner=names[w], team_points=scrap.team_points)
    else:
        leader = 0 if after[0] > after[1] else 1
        if before == (0, 0):
            swing = "first"
        elif before[0] == before[1] or (before[0] > before[1]) != (leader == 0):
            swing = "lead_change"
        else:
            swing = "extend" if leader == w else "cut"
        line = story.say("team_score", {**fmt, "swing": swing}, leader=names[leader], trailer=names[1 - leader], high=after[leader],
                         low=after[1 - leader], points=scrap.team_points, winner=names[w])
    if n == 5:
        if result.tiebreaker:
            line += " " + story.say("tiebreaker", fmt, points=after[0])
        else:
            top = 0 if after[0] > after[1] else 1
            line += " " + story.say("dual_result", fmt, winner=names[top], loser=names[1 - top], high=after[top], low=after[1 - top])
    return line


__all__ = ["MatClash", "SETS"]
