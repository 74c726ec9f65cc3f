"""Mad Match: a monster card-matching game of memory and spite for 2 to 4 players, played by
mail through each side's memory (on its sheet) and strategy. Not a wrestling game: it shares
nothing with the other rulesets but the interface (fedtool/rulesets/base.py)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import validate
from fedtool.kernel.yamlio import load_yaml, parse_yaml, read_text
from fedtool.rulesets.base import Booking, CardOnFile, Column, MatchOnCard, Ruleset, Submodule, Trial, WrestlerRecord, kept_reading

if TYPE_CHECKING:
    from .deck import Deck
    from .engine import Side
    from .models import MadMatchSettings
    from .solitaire import Round
    from .strategy import Strategy

# imported when first used (issue 18): reading a sheet or the standings needs none of them
_engine = Submodule(__name__, "engine", "_engine")
_solitaire = Submodule(__name__, "solitaire", "_solitaire")
_models = Submodule(__name__, "models", "_models")  # pydantic's: imported when a file is first checked

_MODELS = frozenset(("SheetModel", "CardFields", "MadMatchSettings"))


def load_deck(*args):
    """The deck (`deck.load_deck`), its module imported when first asked for."""
    from .deck import load_deck

    return load_deck(*args)


def read_strategy(*args):
    """A player's strategy (`strategy.read_strategy`), its module imported when first asked for."""
    from .strategy import read_strategy

    return read_strategy(*args)


def default_strategy() -> Strategy:
    """The built-in default strategy (`strategy.Strategy()`)."""
    from .strategy import Strategy

    return Strategy()


def __getattr__(name: str) -> Any:
    """`Monster` and `Action` (the deck's) and the models (moved to .models), imported when first asked for."""
    if name in ("Monster", "Action"):
        from . import deck

        return getattr(deck, name)
    if name in _MODELS:
        return getattr(_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


VARIATIONS = ("mad_match", "classic", "solitaire")
VARIATION_NAMES = {"mad_match": "Mad Match", "classic": "the classic matching game", "solitaire": "Mad Match solitaire"}
SOLITAIRE_MOST = 8  # players in a solitaire round, each on the one deal
FORMATS = ("best_of_three", "target", "single", "solitaire")
FORMAT_NAMES = {"best_of_three": "best two out of three games", "target": "to a target score", "single": "one game"}
RULE = "Mad Match"


@dataclass(frozen=True)
class Sheet:
    id: str
    name: str
    memory: int | None
    bio: str = ""
    members: tuple = ()


def _read_kept(cache: dict, path: Path, shown: str, deck, wrestler: WrestlerRecord):
    """`read_strategy` of a strategy file, kept in `cache` (`kept_reading`) under its whole
    text and all else the reading depends on (the file's name as shown, the wrestler's id
    and name, the deck it is checked against). The file is read every time."""
    text = read_text(path, shown)
    key = ("madmatch strategy", text, shown, wrestler.id, wrestler.name, id(deck))
    return kept_reading(cache, key, deck, lambda: read_strategy(parse_yaml(text, shown, keep=True), shown, deck, wrestler.id, wrestler.name))

class MadMatch(Ruleset):
    id = "madmatch"
    name = "Mad Match"
    length_word = "game"  # a result's `round` is the number of games played
    template = "madmatch/match"
    @property
    def card_fields(self) -> type:  # type: ignore[override]
        return _models.CardFields
    finishes = FORMATS
    plays_odds = True
    strategy_optional = True
    min_sides = 1  # a solitaire round may have one player; a game has two to four (`book`)

    def settings(self, raw: dict) -> MadMatchSettings:
        return validate(_models.MadMatchSettings, raw, "rosters/fed.yaml", "fed settings: rulesets.madmatch", prefix=("rulesets", "madmatch"))

    def deck(self, options: MadMatchSettings, rosters: Path | None) -> Deck:
        if options.deck and rosters is not None:
            path = rosters / Path(options.deck).name  # a file in rosters/ only
            return load_deck(path, f"rosters/{path.name}")
        return load_deck()

    # ---------------------------------------------------------------- sheets

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict) -> WrestlerRecord:
        model = validate(_models.SheetModel, data, file, "Mad Match player sheet")
        sheet = Sheet(wrestler_id, model.name, model.memory, model.bio)
        return WrestlerRecord(wrestler_id, model.name, self.id, model.owner.name, str(model.owner.email), sheet)

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        return {}  # Mad Match keeps records only: standings come from the results

    # ---------------------------------------------------------------- a week

    def _sides(self, options: MadMatchSettings, wrestlers: list[WrestlerRecord], strategies: list[Strategy]) -> list[Side]:
        sides = []
        for w, strategy in zip(wrestlers, strategies):
            memory = w.sheet.memory if w.sheet.memory is not None else options.default_memory
            sides.append(_engine.Side(w.name, memory, strategy))
        return sides

    def _match_options(self, raw: dict, options: MadMatchSettings, sides: int) -> tuple[str, str, int]:
        variation = raw.get("variation") or "mad_match"
        fmt = raw.get("format") or options.match
        target = raw.get("target") or (options.target_two if sides == 2 else options.target_more)
        return variation, fmt, target

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict, settings: dict, cache: dict | None = None) -> Booking:
        options = self.settings(settings)
        where = f"line {match.line}, match {match.id}"
        variation, fmt, target = self._match_options(match.raw, options, len(wrestlers))
        if variation == "solitaire":
            if len(wrestlers) > SOLITAIRE_MOST:
                raise FedError(Problem(card.shown, where, f"a solitaire round has 1 to {SOLITAIRE_MOST} players, not {len(wrestlers)}", "Mad Match solitaire"))
        elif not 2 <= len(wrestlers) <= 4:
            alone = " (one player: variation: solitaire)" if len(wrestlers) == 1 else ""
            raise FedError(Problem(card.shown, where, f"a Mad Match game has 2, 3 or 4 players, not {len(wrestlers)}{alone}", "Mad Match: 2 to 4 players"))
        problems = Collector()
        deck = None
        try:
            deck = self.deck(options, card.fed.rosters)
        except FedError as exc:
            problems.extend(exc)
            problems.raise_if_any()
        strategies, notes = [], []
        for wrestler in wrestlers:
            path = card.strategy_path(match, wrestler.id)
            shown = f"{card.shown.rsplit('/', 1)[0]}/{path.name}"
            if not path.exists():
                if options.missing_strategy == "refuse":
                    problems.add(shown, None, f"no strategy from {wrestler.name} for match {match.id}", "fed settings: rulesets.madmatch.missing_strategy is refuse")
                    continue
                strategies.append(default_strategy())
                notes.append(f"{wrestler.name} sent no strategy and plays the built-in default.")
                continue
            try:
                if cache is None:
                    strategies.append(read_strategy(load_yaml(path, shown), shown, deck, wrestler.id, wrestler.name))
                else:
                    strategies.append(_read_kept(cache, path, shown, deck, wrestler))
            except FedError as exc:
                problems.extend(exc)
        problems.raise_if_any()
        if variation == "solitaire":
            fmt = "solitaire"
        setup = {"variation": variation, "format": fmt, "target": target, "deck": deck, "sides": self._sides(options, wrestlers, strategies),
                 "ids": [w.id for w in wrestlers], "names": [w.name for w in wrestlers], "rules": options.rules(), "max_games": options.max_games,
                 "solitaire": options.solitaire_rules()}
        return Booking(match, setup, wrestlers, notes, {"format": fmt, "variation": variation})

    def announce(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        options = self.settings(settings)
        variation, fmt, target = self._match_options(match.raw, options, len(wrestlers))
        unit = "pairs" if variation == "classic" else "points"
        how = "the same deal for every player" if variation == "solitaire" else FORMAT_NAMES[fmt] + (f" ({target} {unit})" if fmt == "target" else "")
        if variation == "solitaire":
            send = ("how many right slots to keep open for the cards to come (`solitaire: {keep_free: N}`); "
                    "everything else is the order of moves docs/rulings/mad-match-_solitaire.md gives")
        else:
            send = ("which cards to turn when memory fails you (a gamble on half-remembered ones, or unseen cards first)"
                    + ("" if variation == "classic" else ", when to take a spare, whether to turn an opponent's third card away, "
                       "and when and on whom to use each Action card you collect"))
        return {"names": [w.name for w in wrestlers], "variation": VARIATION_NAMES[variation], "format": how, "send": send}

    def resolve(self, booking: Booking, dice: Dice) -> _engine.Match | Round:
        s = booking.setup
        if s["variation"] == "solitaire":
            result = _solitaire.play_round(s["deck"], s["names"], [side.strategy.keep_free for side in s["sides"]], dice, s["solitaire"])
            result.log = dice.take_log()
            return result
        result = _engine.play_match(s["deck"], s["sides"], dice, s["rules"], s["variation"], s["format"], s["target"], s["max_games"], record=True)
        result.log = dice.take_log()
        return result

    def outcomes(self, booking: Booking, result: _engine.Match) -> list[str]:
        if result.winner is None:
            if isinstance(result, _solitaire.Round):  # ruling S8: a tie at the top is a draw for those tied; one player alone lost
                top = max(result.totals)
                return ["draw" if t == top and len(result.totals) > 1 else "loss" for t in result.totals]
            return ["draw"] * len(booking.wrestlers)
        return ["win" if i == result.winner else "loss" for i in range(len(booking.wrestlers))]

    def missing_strategy(self, settings: dict) -> str:
        return settings.get("missing_strategy", "default")

    def strategy_readings(self, path: Path, shown: str) -> list | None:
        deck = load_deck()
        return read_strategy(load_yaml(path, shown), shown, deck).readings(deck)

    # ---------------------------------------------------------------- results

    def summary(self, booking: Booking, result: _engine.Match) -> dict:
        ids, names = booking.setup["ids"], booking.setup["names"]
        return {
            **booking.extra,
            "winner": None if result.winner is None else ids[result.winner],
            "method": result.format if result.winner is not None else "draw",
            "triplets": [g.triplets for g in result.games] if isinstance(result, _solitaire.Round) else None,
            "round": len(result.games),
            "sides": [{"id": ids[i], "name": names[i]} for i in range(len(ids))],
            "totals": list(result.totals),
            "games_won": list(result.wins),
            "games": [{"number": g.number, "first": ids[g.first], "scores": list(g.scores), "winner": None if g.winner is None else ids[g.winner],
                       "turns": g.turns, "called": g.called} for g in result.games] if not isinstance(result, _solitaire.Round) else
                     [{"number": 1, "first": None, "scores": list(result.totals), "winner": None if result.winner is None else ids[result.winner],
                       "turns": None, "called": False}],
        }

    def result_details(self, summary: dict) -> dict:
        """Mad Match in `fedtool results --json`: the variation, the match's format, each
        player's points and games won, and each game's scores by player, Player One and turns."""
        ids = [side.get("id") for side in summary.get("sides") or [] if isinstance(side, dict)]

        def by_id(values: Any) -> dict | None:
            return dict(zip(ids, values)) if isinstance(values, list) and len(values) == len(ids) else None

        games = [g for g in summary.get("games") or [] if isinstance(g, dict)]
        return {
            "match_type": summary.get("variation") or "mad_match",
            "format": summary.get("format"),
            "points": by_id(summary.get("totals")),
            "games_won": by_id(summary.get("games_won")),
            "games": [{"number": g.get("number"), "player_one": g.get("first"), "scores": by_id(g.get("scores")), "winner": g.get("winner"),
                       "turns": g.get("turns")} for g in games],
            "triplets": by_id(summary.get("triplets")),
        }

    def rating_inputs(self, booking: Booking, result: _engine.Match) -> dict | None:
        """Closeness: the runner-up's points over the winner's; lead changes: the game winner
        changing from game to game; high spots: strikes collected and steals; never a roll.
        A solitaire round is not rated (no one plays against anyone)."""
        if isinstance(result, _solitaire.Round):
            return None
        totals = sorted(result.totals, reverse=True)
        closeness = Fraction(totals[1], totals[0]) if totals[0] else Fraction(1)
        changes, last = 0, None
        high = 0
        cards = booking.setup["deck"].cards()
        for g in result.games:
            if g.winner is not None:
                if last is not None and g.winner != last:
                    changes += 1
                last = g.winner
            high += sum(1 for coll in g.collections for count, strike in coll.values() if strike)
            if g.variation != "classic":
                high += sum(1 for _, _, c, _ in g.used if cards[c].effect == "steal")
        return {"closeness": min(Fraction(1), closeness), "lead_changes": changes, "near_falls": 0, "high_spots": high,
                "finish": "clean" if result.winner is not None else "draw", "grudge": False}

    def standing_extras(self, wrestler_id: str, matches: list[dict]) -> dict:
        """Games won and points scored over every Mad Match the player played."""
        games = points = 0
        for m in matches:
            summary = m["summary"]
            side = m.get("side")
            if not isinstance(side, int):
                continue
            won, totals = summary.get("games_won"), summary.get("totals")
            if isinstance(won, list) and 0 <= side < len(won) and isinstance(won[side], int):
                games += won[side]
            if isinstance(totals, list) and 0 <= side < len(totals) and isinstance(totals[side], int):
                points += totals[side]
        return {"match_points": points, "games_won": games}

    def standing_columns(self) -> tuple[Column, ...]:
        return (Column("games", lambda r: r.get("games_won", 0)), Column("points", lambda r: r.get("match_points", 0)))

    def contender_key(self, row: dict) -> tuple:
        return (row["wins"], row.get("games_won", 0), row.get("match_points", 0))

    # ---------------------------------------------------------------- odds

    def odds_unit(self, booking: Booking) -> str:
        return "games"  # what `Trial.length` counts, as `length_word` tells a result's round

    def exhibition(self, sheets: list, strategies: list, settings: dict, options: dict) -> Booking:
        """One game from the sheets and strategies (`--grid` and `--rounds` are MatchMatch's)."""
        given = [f"--{name}" for name in ("grid", "rounds") if options.get(name) is not None]
        if given:
            raise FedError(Problem(None, given[0], f"a Mad Match game has no {given[0][2:]}: leave out {' and '.join(given)}", "fedtool odds"))
        opts = self.settings(settings)
        if not 2 <= len(sheets) <= 4:
            raise FedError(Problem(None, None, f"a Mad Match game has 2, 3 or 4 players, not {len(sheets)}", "Mad Match: 2 to 4 players"))
        deck = load_deck()
        wrestlers = [self.read_sheet(data, file, wid, {}) for data, file, wid in sheets]
        read = [read_strategy(data, file, deck) for data, file in strategies] + [default_strategy()] * (len(wrestlers) - len(strategies))
        setup = {"variation": "mad_match", "format": "single", "target": 0, "deck": deck, "sides": self._sides(opts, wrestlers, read),
                 "ids": [w.id for w in wrestlers], "names": [w.name for w in wrestlers], "rules": opts.rules(), "max_games": 1,
                 "solitaire": opts.solitaire_rules()}
        return Booking(None, setup, wrestlers)

    def trial_setup(self, booking: Booking) -> dict:
        """The booking's setup, with the deck's tables (cards, monsters, matrix values, icons,
        positions) built now, once, rather than in the first trial."""
        setup = booking.setup
        if setup["variation"] != "solitaire":
            _engine.tables(setup["deck"], setup["variation"] == "classic")
        return setup

    def trial(self, setup: dict, dice: Dice) -> Trial:
        """One match on the record-free path: the same rolls as `resolve`, no turn records, no
        moves told (tests/test_madmatch_fast.py)."""
        if setup["variation"] == "solitaire":
            played = _solitaire.play_round(setup["deck"], setup["names"], [side.strategy.keep_free for side in setup["sides"]], dice, setup["solitaire"],
                                record=False)
            return Trial(played.winner, "solitaire" if played.winner is not None else "draw", 1)
        result = _engine.play_match(setup["deck"], setup["sides"], dice, setup["rules"], setup["variation"], setup["format"], setup["target"], setup["max_games"])
        return Trial(result.winner, result.format if result.winner is not None else "draw", len(result.games))

    # ---------------------------------------------------------------- the writeup

    def describe(self, booking: Booking, result: _engine.Match) -> dict:
        """The writeup's data: a game told turn by turn by a fresh teller of this match (the
        booking's: data/commentary.yaml with the fed's templates/commentary/madmatch.yaml over
        it, chosen by the match's key, never by its dice), beside the record of every turn."""
        from .narrate import describe_match, describe_round
        if isinstance(result, _solitaire.Round):
            return describe_round(booking.setup, result)
        teller = booking.teller() or self.commentary().teller(booking.story_key)
        return describe_match(booking.setup, result, teller)


__all__ = ["MadMatch", "Monster", "Action"]
