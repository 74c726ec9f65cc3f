"""MatchMatch (Match Squared) 1.2 by Jeff Berry: the ruleset behind fedtool's first engine."""

from __future__ import annotations

import copy
import dataclasses
import json
from functools import lru_cache
import re
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import Collector, FedError, Problem
from .push import Push, after_match, format_points, tell_change
from fedtool.kernel.validation import validate
from fedtool.kernel.yamlio import MAX_YAML_BYTES, parse_yaml, read_text
from fedtool.rulesets.base import Booking, CardOnFile, Column, MatchOnCard, Ruleset, Submodule, Trial, WrestlerRecord, kept_reading
from .grid import cell_style, format_grid, grid_style, read_grid, roll_grid
from .rules import vocabulary
from .sheet import read_sheet
from .team import is_team, read_team, team_setting_problems

if TYPE_CHECKING:
    from .models import MatchMatchSettings
    from .officials import Referee
    from .plaintext import Reading
    from .strategy import Strategy

# imported when first used (issue 18): reading a sheet or the standings needs none of them
_engine = Submodule(__name__, "engine", "_engine")
_rating = Submodule(__name__, "rating", "_rating")
_narrate = Submodule(__name__, "narrate", "_narrate")
_plaintext = Submodule(__name__, "plaintext", "_plaintext")
_officials = Submodule(__name__, "officials", "_officials")
_models = Submodule(__name__, "models", "_models")  # pydantic's: imported when a file is first checked

_MODELS = frozenset(("MatchMatchSettings", "CardFields", "PushModel", "SheetModel"))


def __getattr__(name: str) -> Any:
    """The models, moved to .models (imported when first asked for: `from fedtool.rulesets.matchmatch import MatchMatchSettings`)."""
    if name in ("PushModel", "SheetModel"):
        from . import sheetmodel

        return getattr(sheetmodel, name)
    if name in _MODELS:
        return getattr(_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

SETTINGS_FILE = "rosters/fed.yaml"
# a strategy mailed in the body is YAML when a line starts with one of these keys, else the plain-text layout
YAML_KEYS = re.compile(r"^[ \t]*(plus|prefer|answer|hold|draw)[ \t]*:", re.MULTILINE)  # one line: `\s` crossed line ends, n*n steps over blank lines (review 26)
WEIGHT_CLASSES = ("light-heavyweight", "heavyweight", "superheavyweight")  # I.1
TAG_TEAMS = "tag-teams"  # the standings' division for team sheets
HEAL_DIE = 6  # IV.2.e: "Each week, they heal 1d6 worth of injury points."
WRESTLED_PENALTY = 4  # IV.2.e: "If they wrestle that week, that roll is modified by -4"


def default_strategy(sheet, opponent, side: int, grid: list[list[str]], rounds: int, file: str) -> Strategy:
    """The fed's default MatchMatch strategy for a side with none: its two best styles "+",
    the opponent's best style "-", the grid pick giving the best style it can reach, and a
    Normal round on Stamina every round (docs/rulings/matchmatch.md, "Default strategy")."""
    from .strategy import Action, Strategy

    vocab = vocabulary()
    usable = [s for s in vocab.style_ids if s != "teamwork"]
    plus = tuple(sorted(usable, key=lambda s: (-sheet.styles[s], usable.index(s)))[:2])
    minus = sorted(usable, key=lambda s: (-opponent.styles[s], usable.index(s)))[0]
    if side == 0:
        picks = {letter: max(sheet.styles[grid[row][col]] for row in range(3)) for col, letter in enumerate("ABC")}
    elif side == 1:
        picks = {str(row + 1): max(sheet.styles[s] for s in grid[row]) for row in range(3)}
    else:
        picks = {f"{letter}{row + 1}": sheet.styles[grid[row][col]] for row in range(3) for col, letter in enumerate("ABC")}
    pick = max(picks, key=lambda k: (picks[k], -list(picks).index(k)))
    normal = vocab.round_types["normal"]
    actions = tuple(Action(n, normal, "stamina", "", None, f"round {n}") for n in range(1, rounds + 1))
    return Strategy(plus, minus, pick, actions, file, default=True)


def load_strategy_data(path: Path, shown: str) -> tuple[Any, list[Reading] | None]:
    """A strategy file's data: YAML, or the rulebook's plain-text layout (.txt) with a
    reading of every line. Parsed once per text: checking one side's strategy books the
    whole match, so the other side's file is read again for every mail that comes in."""
    plain = path.suffix.lower() == ".txt"
    text = read_text(path, shown, limit=200_000 if plain else MAX_YAML_BYTES)
    try:
        return _parsed(text, shown, plain)
    except FedError as exc:
        if plain or not any(p.file == _NO_FILE for p in exc.problems):
            raise
        raise FedError([dataclasses.replace(p, file=shown) if p.file == _NO_FILE else p for p in exc.problems]) from None


def _read_kept(cache: dict, path: Path, shown: str, sheet, side: int, rounds: int, push_level: int, opponent_conditions: bool) -> Strategy:
    """`read_strategy` of a strategy file, kept in `cache` (`kept_reading`) under its text and
    everything else the reading depends on, and read without a file name: the same text
    checked as a mail's candidate is then the opponent's filed file for the next mail, named
    as `shown` names it. The file itself is read every time."""
    from .strategy import read_strategy

    plain = path.suffix.lower() == ".txt"
    text = read_text(path, shown, limit=200_000 if plain else MAX_YAML_BYTES)
    # read without a name where nothing of the reading can hold it: YAML (the plain-text
    # layout's readings name their file) whose text holds no NUL to be told from the name
    name = shown if plain or _NO_FILE in text else _NO_FILE
    key = ("matchmatch strategy", text, name, side, rounds, push_level, opponent_conditions, id(sheet))
    try:
        reading = kept_reading(cache, key, sheet, lambda: read_strategy(_strategy_data(text, name, plain), name, sheet, side, rounds, push_level,
                                                                        opponent_conditions=opponent_conditions))
    except FedError as exc:
        raise FedError([dataclasses.replace(p, file=shown) if p.file == _NO_FILE else p for p in exc.problems]) from None
    return dataclasses.replace(reading, file=shown)


def _strategy_data(text: str, shown: str, plain: bool) -> Any:
    """The data of a strategy's text, as `load_strategy_data` gives it."""
    try:
        return _parsed(text, shown, plain)[0]
    except FedError as exc:
        if plain or not any(p.file == _NO_FILE for p in exc.problems):
            raise
        raise FedError([dataclasses.replace(p, file=shown) if p.file == _NO_FILE else p for p in exc.problems]) from None


def _parsed(text: str, shown: str, plain: bool) -> tuple[Any, list[Reading] | None]:
    # keyed by the text itself, never by a file's time: a file rewritten within one clock
    # tick must not read as its old self (the parsed data is never changed by its readers)
    if plain:
        return _parsed_plain(text, shown)
    return _parsed_yaml(text), None


@lru_cache(maxsize=256)
def _parsed_plain(text: str, shown: str) -> tuple[Any, list[Reading] | None]:
    return _plaintext.parse_plaintext(text, shown)


@lru_cache(maxsize=256)
def _parsed_yaml(text: str) -> Any:
    # keyed by the text alone: mail intake checks a strategy under its candidate's name and
    # then reads it as the opponent's file under its own; the data holds no file name, and
    # an error (never cached) is raised again below with the file it is in
    return parse_yaml(text, _NO_FILE, keep=True)


_NO_FILE = "\0"


class MatchMatch(Ruleset):
    id = "matchmatch"
    name = "MatchMatch"
    template = "matchmatch/match"
    # 2 (issue 14): a DQ ends the round; a tie for the lowest total is broken by a die;
    # a Stamina floor's damage inflicted calls the injury check (docs/rulings/matchmatch.md)
    rules_revision = 2
    card_fields = "fedtool.rulesets.matchmatch.models:CardFields"  # by name: pydantic only for fields not checked before (issue 18)
    finishes = ("pin", "submission", "countout", "dq")  # the engine's PIN, SUBMISSION, COUNTOUT, DQ (tests/test_startup.py checks)
    title_divisions = WEIGHT_CLASSES
    divisions_are = "weight classes"
    team_titles = True
    standings_divisions = (*WEIGHT_CLASSES, TAG_TEAMS)
    plays_odds = True
    has_grid = True  # odds say whether the grid was fixed or rolled per match

    def settings(self, raw: dict, file: str = "rosters/fed.yaml") -> MatchMatchSettings:
        # by name: pydantic only for settings not checked good before (issue 18)
        return validate("fedtool.rulesets.matchmatch.models:MatchMatchSettings", raw, file, "fed settings: rulesets.matchmatch",
                        prefix=("rulesets", "matchmatch") if file == "rosters/fed.yaml" else ())

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict[str, WrestlerRecord]) -> WrestlerRecord:
        if is_team(data):
            sheet = read_team(data, file, wrestler_id, {m: r.sheet for m, r in members.items()})
        else:
            sheet = read_sheet(data, file, wrestler_id)
        return WrestlerRecord(wrestler_id, sheet.name, self.id, sheet.owner_name, sheet.owner_email, sheet, sheet.members)

    def members_of(self, data: Any) -> list[str]:
        return [str(m) for m in data["members"]] if is_team(data) and isinstance(data["members"], list) else []

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        return {"push_level": wrestler.sheet.push_level, "push_points": wrestler.sheet.push_points, "injury": 0}

    def open_match(self, card: CardOnFile, match: MatchOnCard, dice: Dice, settings: dict) -> dict:
        rolled: dict = {}
        if match.raw.get("grid") is None:  # else the card gives the grid by hand
            rolled["grid"] = format_grid(roll_grid(dice))
        referees = _officials.read_referees(self.settings(settings).referees, SETTINGS_FILE)
        if match.raw.get("referee") is not None:
            _officials.find_referee(referees, match.raw["referee"], card.shown, f"line {match.line}, match {match.id}, field referee")
        elif any(r.rolls for r in referees):
            rolled["referee"] = _officials.roll_referee(referees, dice).name  # VII.1: told to players with the grid
        return rolled

    def _referee(self, card: CardOnFile, match: MatchOnCard, options: MatchMatchSettings) -> Referee | None:
        name = match.raw.get("referee") or match.opening.get("referee")
        if name is None:
            return None
        return _officials.find_referee(_officials.read_referees(options.referees, SETTINGS_FILE), name, card.shown, f"line {match.line}, match {match.id}, field referee")

    def _stipulation(self, card: CardOnFile, match: MatchOnCard, options: MatchMatchSettings) -> _engine.Stipulation:
        stip_id = match.raw.get("stipulation")
        if stip_id is None:
            return _engine.Stipulation()
        table = _officials.stipulations(options.stipulations, SETTINGS_FILE)
        if stip_id not in table:
            raise FedError(Problem(card.shown, f"line {match.line}, match {match.id}, field stipulation", f"unknown stipulation {stip_id!r}; this fed has {', '.join(table)}", "MatchMatch VII: specialty matches"))
        return table[stip_id]

    def _grid(self, card: CardOnFile, match: MatchOnCard) -> list[list[str]]:
        if match.raw.get("grid") is not None:
            return read_grid(match.raw["grid"], card.shown, f"line {match.line}, match {match.id}, field grid")
        if "grid" in match.opening:
            return read_grid(match.opening["grid"], card.shown.replace("card.yaml", "opening.yaml"), f"match {match.id}")
        raise FedError(
            Problem(card.shown, f"line {match.line}, match {match.id}", "no grid yet: open the week (`fedtool open WEEK`) or give `grid:` on the card", "MatchMatch III.1: the grid exists before strategies")
        )

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict[str, dict], settings: dict,
             cache: dict | None = None) -> Booking:
        from .strategy import check_coverage, read_strategy

        options = self.settings(settings)
        if not 2 <= len(wrestlers) <= 4:
            raise FedError(Problem(card.shown, f"line {match.sides_line}, match {match.id}", f"a MatchMatch match has two to four sides, not {len(wrestlers)}", "MatchMatch III.1; docs/rulings/matchmatch.md"))
        rounds = match.rounds or options.rounds
        problems = Collector()
        notes: list[str] = []
        grid = referee = None
        stip = _engine.Stipulation()
        for step in ("grid", "referee", "stipulation"):
            try:
                if step == "grid":
                    grid = self._grid(card, match)
                elif step == "referee":
                    referee = self._referee(card, match, options)
                else:
                    stip = self._stipulation(card, match, options)
            except FedError as exc:
                problems.extend(exc)
        base_threshold = referee.dq_threshold if referee else options.dq_threshold
        sides = []
        for index, wrestler in enumerate(wrestlers):
            path = card.strategy_path(match, wrestler.id)
            shown = f"{card.shown.rsplit('/', 1)[0]}/{path.name}"
            state = states[wrestler.id]
            mine = Collector()
            level = _push_level_problem(card.fed, wrestler, state["push_level"], options.push_levels)
            if level is not None:
                problems.problems.append(level)
                continue
            roster = card.fed.roster_files.get(wrestler.id)
            team = team_setting_problems(wrestler.sheet, card.fed.shown(roster) if roster else f"rosters/{wrestler.id}.yaml", options.team_teamwork, options.team_ref_slack)
            if team:
                problems.problems.extend(team)
                continue
            strategy = None
            if not path.exists():
                mine.add(shown, None, f"no strategy from {wrestler.name} for match {match.id}", "MatchMatch III: every side submits a strategy")
            else:
                try:
                    if cache is None:
                        strategy = read_strategy(load_strategy_data(path, shown)[0], shown, wrestler.sheet, index, rounds, state["push_level"], opponent_conditions=options.opponent_conditions)
                    else:
                        strategy = _read_kept(cache, path, shown, wrestler.sheet, index, rounds, state["push_level"], options.opponent_conditions)
                except FedError as exc:
                    mine.extend(exc)
            if strategy is not None:
                for action in strategy.actions():
                    if action.type.id in stip.forbidden:
                        mine.add(shown, f"line {action.line}, {action.source}", f"{action.type.name} may not be stratted in a {stip.name}", f"MatchMatch VII: {stip.name}")
            if mine and options.missing_strategy == "default" and grid is not None:
                opponent = wrestlers[1 - index] if len(wrestlers) == 2 else wrestlers[(index + 1) % len(wrestlers)]
                strategy = default_strategy(wrestler.sheet, opponent.sheet, index, grid, rounds, shown)
                why = "sent no strategy" if not path.exists() else f"sent a strategy that cannot be played ({mine.problems[0].message})"
                notes.append(f"{wrestler.name} {why}: the fed's default strategy played.")
            elif mine:
                problems.problems.extend(mine.problems)
                continue
            threshold = _officials.slack_threshold(base_threshold, wrestler.sheet.ref_slack) + stip.dq_threshold
            sides.append(_engine.Side(wrestler.id, wrestler.name, wrestler.sheet, strategy, state["injury"], threshold, state["push_level"]))
        teams = [bool(w.members) for w in wrestlers]
        if any(teams) and not all(teams):
            problems.add(card.shown, f"line {match.sides_line}, match {match.id}", "a tag match is teams against teams: every side must be a team sheet", "MatchMatch I.2, IV.1.a")
        problems.raise_if_any()
        setup = _engine.MatchSetup(match.id, tuple(sides), grid, rounds, stip, tag=all(teams), rules=engine_rules(options))
        for side in setup.sides:
            problems.problems.extend(check_coverage(side.strategy, setup.style_table(), rounds))
        problems.raise_if_any()
        if referee:
            notes.append(f"Referee: {referee.name} ({referee.type}, DQ threshold {referee.dq_threshold}).")
        return Booking(match, setup, wrestlers, notes, {"referee": referee.name if referee else None, "stipulation": stip.id or None})

    def resolve(self, booking: Booking, dice: Dice) -> _engine.MatchResult:
        return _engine.resolve(booking.setup, dice)

    def round_rows(self, result: _engine.MatchResult) -> list[dict]:
        # `_record(rnd)` is `_plain(dataclasses.asdict(rnd))` without asdict's deep copies
        # (issue 18: a sixth of a demo week's run); tests/test_round_rows_fast.py compares them
        return [{"round": rnd.number, "style": rnd.style, "winner": rnd.winner, "margin": rnd.margin, "detail": json.dumps(_record(rnd))}
                for rnd in result.rounds]

    def outcomes(self, booking: Booking, result: _engine.MatchResult) -> list[str]:
        count = len(booking.setup.sides)
        if result.winner is None:
            return ["draw"] * count
        return ["win" if i == result.winner else "loss" for i in range(count)]

    def league_effects(self, booking: Booking, result: _engine.MatchResult, states: dict[str, dict], settings: dict) -> dict[str, tuple[dict, str]]:
        options = self.settings(settings)
        top = options.push_levels
        ids = [side.id for side in booking.setup.sides]
        new = {i: dict(states[i]) for i in ids}
        reasons = {i: [] for i in ids}
        if result.winner is not None and result.method in options.push_finishes:
            # Part II between the winner and the side he beat; in a match of three or more,
            # the others keep their push (docs/rulings/matchmatch.md)
            w, l = ids[result.winner], ids[result.loser]
            before_w = Push(new[w]["push_level"], new[w]["push_points"])
            before_l = Push(new[l]["push_level"], new[l]["push_points"])
            after_w, after_l = after_match(before_w, before_l, top)
            for who, before, after, verb in ((w, before_w, after_w, "beat"), (l, before_l, after_l, "lost to")):
                new[who]["push_level"], new[who]["push_points"] = after.level, after.points
                other = booking.setup.sides[ids.index(l if who == w else w)].name
                reasons[who].append(f"{verb} {other} (Part II): {_push_text(before)} -> {_push_text(after)}")
        for index, wrestler_id in enumerate(ids):
            gained = result.injuries[index] - states[wrestler_id]["injury"]
            new[wrestler_id]["injury"] = result.injuries[index]
            if gained:
                reasons[wrestler_id].append(f"{gained} injury point{'s' if gained > 1 else ''} (IV.2.e)")
        return {i: (new[i], "; ".join(reasons[i]) or "no change") for i in ids if new[i] != states[i]}

    def close_week(self, states: dict[str, dict], wrestled: set[str], dice: Dice, names: dict[str, str]) -> dict[str, tuple[dict, str]]:
        """IV.2.e: heal 1d6 injury points a week, the roll -4 for those who wrestled."""
        changes = {}
        for wrestler_id in sorted(states):
            state = states[wrestler_id]
            if state.get("injury", 0) <= 0:
                continue
            roll = dice.die(HEAL_DIE, f"{names.get(wrestler_id, wrestler_id)} healing 1d6")
            heal = max(0, roll - (WRESTLED_PENALTY if wrestler_id in wrestled else 0))
            if heal:
                new = dict(state)
                new["injury"] = max(0, state["injury"] - heal)
                penalty = f" - {WRESTLED_PENALTY} for wrestling" if wrestler_id in wrestled else ""
                changes[wrestler_id] = (new, f"healed {state['injury'] - new['injury']} (1d6 = {roll}{penalty})")
        return changes

    def tell_league_change(self, name: str, reason: str, changes: dict[str, dict], words=None) -> list[str]:
        """Part II's push and IV.2.e's injuries in plain words for the card (`push.tell_change`):
        "Dr. Victor Vane rises to push level 4 by beating Kate Galloway."."""
        return tell_change(name, reason) or super().tell_league_change(name, reason, changes)

    def summary(self, booking: Booking, result: _engine.MatchResult) -> dict:
        vocab = vocabulary()
        setup = booking.setup
        return {
            **booking.extra,
            "winner": None if result.winner is None else setup.sides[result.winner].id,
            "method": result.method,
            "round": result.end_round,
            "rounds": setup.rounds,
            "grid_style": vocab.style_name(grid_style(setup.grid, setup.sides[0].strategy.grid, setup.sides[1].strategy.grid)),
            "styles": [vocab.style_name(s) for s in result.style_table],
            **self._result_facts(setup, result),
            "sides": [
                {
                    "id": side.id,
                    "name": side.name,
                    "stamina": result.final_stamina[i],
                    "styles": {vocab.style_name(s): v for s, v in result.final_styles[i].items()},
                    "injury": result.injuries[i],
                    "dq_threshold": result.dq_thresholds[i],
                    "strategy": side.strategy.file,
                }
                for i, side in enumerate(setup.sides)
            ],
        }

    def rating_inputs(self, booking: Booking, result: _engine.MatchResult) -> dict:
        """The star rating's inputs from the rounds played (`rating.rating_inputs`)."""
        return _rating.rating_inputs(booking.setup, result)

    def describe(self, booking: Booking, result: _engine.MatchResult) -> dict:
        """The writeup's data, the story told by a fresh teller of this match (the booking's, or
        for a booking the core did not make, the packaged table keyed by the match's id)."""
        teller = booking.teller()
        if teller is None:
            teller = self.commentary().teller(booking.story_key or booking.setup.match_id)
        for_title = booking.match.for_title if booking.match is not None else None
        return _narrate.describe_match(booking.setup, result, teller, for_title=for_title)

    # ---------------------------------------------------------------- the results JSON

    @staticmethod
    def _result_facts(setup: _engine.MatchSetup, result: _engine.MatchResult) -> dict:
        """What the summary keeps for `result_details` beyond the result: the grid, each
        side's picks, and where each entry of the style table came from (IV.1.a)."""
        vocab = vocabulary()
        one, two, *later = setup.sides
        sources: list[dict] = [{"style": s, "from": "plus", "side": side.id} for side in setup.sides for s in side.strategy.plus]
        sources.append({"style": grid_style(setup.grid, one.strategy.grid, two.strategy.grid), "from": "grid", "side": None,
                        "cell": f"{one.strategy.grid}{two.strategy.grid}"})
        sources += [{"style": cell_style(setup.grid, side.strategy.grid), "from": "cell", "side": side.id, "cell": side.strategy.grid} for side in later]
        sources += [{"style": s, "from": "stipulation", "side": None} for s in setup.stipulation.added_styles]
        sources += [{"style": "teamwork", "from": "teamwork", "side": None}] if setup.tag else []
        if [row["style"] for row in sources] != list(result.style_table):  # the table is built otherwise: say what it is, not where from
            sources = [{"style": s, "from": None, "side": None} for s in result.style_table]
        return {
            "tag": setup.tag,
            "grid": [[vocab.style_name(s) for s in row] for row in setup.grid],
            "style_table": [{**row, "style": vocab.style_name(row["style"])} for row in sources],
            "picks": [{"id": side.id, "grid": side.strategy.grid, "plus": [vocab.style_name(s) for s in side.strategy.plus],
                       "minus": vocab.style_name(side.strategy.minus), "default_strategy": side.strategy.default} for side in setup.sides],
        }

    def result_details(self, summary: dict) -> dict:
        """MatchMatch in `fedtool results --json`: the match type (singles, tag, triangle,
        four_way), rounds, the grid and the style table (each entry's source: a side's "+"
        style, the grid, a later side's cell, the stipulation, Teamwork) and each side's
        picks (its final figures are in `sides`). A summary kept before these were recorded
        gives the style table without sources, and no grid or picks (null)."""
        sides = summary.get("sides") or []
        styles = summary.get("styles") or []
        tag = summary.get("tag")
        if tag is None:  # kept before "tag" was: IV.1.a puts Teamwork last in a tag match's table
            tag = bool(styles) and styles[-1] == vocabulary().style_name("teamwork") and len(sides) == 2
        kind = "tag" if tag else {2: "singles", 3: "triangle", 4: "four_way"}.get(len(sides))
        table = summary.get("style_table") or [{"style": s, "from": None, "side": None} for s in styles]
        picks = summary.get("picks")
        cell = next((row.get("cell") for row in table if row.get("from") == "grid"), None)
        return {
            "match_type": kind,
            "rounds": summary.get("rounds"),
            "grid": summary.get("grid"),
            "grid_cell": cell,
            "grid_style": summary.get("grid_style") if summary.get("picks") is not None or len(sides) == 2 else None,
            "style_table": [{"style": row.get("style"), "from": row.get("from"), "side": row.get("side"), **({"cell": row["cell"]} if "cell" in row else {})}
                            for row in table],
            "picks": [{"id": p.get("id"), "grid": p.get("grid"), "plus": p.get("plus"), "minus": p.get("minus"),
                       "default_strategy": p.get("default_strategy")} for p in picks] if isinstance(picks, list) else None,
        }

    # ---------------------------------------------------------------- strategies

    def missing_strategy(self, settings: dict) -> str:
        return settings.get("missing_strategy", "refuse")

    def strict_settings(self, settings: dict) -> dict:
        """A strategy that does not stand is refused even where the fed plays a default for a
        side without one (`missing_strategy: default`)."""
        return {**settings, "missing_strategy": "refuse"}

    def mail_strategy_suffix(self, text: str) -> str:
        """YAML when the text has a strategy key (plus:, ...), else the rulebook's plain-text layout."""
        return ".yaml" if YAML_KEYS.search(text) else ".txt"

    def strategy_readings(self, path: Path, shown: str) -> list[Reading] | None:
        return load_strategy_data(path, shown)[1] if path.suffix.lower() == ".txt" else None

    def strategy_data(self, path: Path, shown: str) -> Any:
        return load_strategy_data(path, shown)[0]  # YAML, or the rulebook's plain-text layout (.txt)

    # ---------------------------------------------------------------- odds

    def exhibition(self, sheets: list[tuple[Any, str, str]], strategies: list[tuple[Any, str]], settings: dict, options: dict) -> Booking:
        """Two sheets and two strategies; `options`: "grid" (rows split by "/", e.g. "Po Te
        Br/We MA HF/Br MA Ch", or None: every trial rolls its own) and "rounds"."""
        grid = options.get("grid")
        rows = [row.split() for row in grid.split("/")] if grid else None
        setup = exhibition_setup(sheets, strategies, rows, options.get("rounds") or settings.get("rounds", 20), settings)
        wrestlers = [WrestlerRecord(side.id, side.name, self.id, side.sheet.owner_name, side.sheet.owner_email, side.sheet) for side in setup.sides]
        return Booking(None, setup, wrestlers, extra={"roll_grid": rows is None})

    def rolls_per_trial(self, booking: Booking) -> bool:
        return bool(booking.extra.get("roll_grid"))

    def odds_setup(self, booking: Booking, dice: Dice) -> _engine.Prepared | _engine.MatchSetup:
        """A grid rolled for the trial (III.1) when the exhibition gave none."""
        return _engine.prepare(dataclasses.replace(booking.setup, grid=roll_grid(dice)))

    def trial_setup(self, booking: Booking) -> _engine.Prepared | _engine.MatchSetup:
        """The setup's constants, built once for every trial (`_engine.prepare`)."""
        return _engine.prepare(booking.setup)

    def trial(self, setup: _engine.Prepared | _engine.MatchSetup, dice: Dice) -> Trial:
        """The match as `resolve` plays it, roll for roll, keeping nothing for a writeup
        (`_engine.play`); a bare setup is prepared first."""
        if type(setup) is _engine.MatchSetup and len(setup.sides) == 2:
            setup = _engine.prepare(setup)
        return Trial(*_engine.play(setup, dice))

    # ---------------------------------------------------------------- titles and standings

    def title_division(self, wrestler: WrestlerRecord) -> str | None:
        """The weight class from the sheet's Weight (I.1); Weight 0 counts as light-heavyweight (docs/rulings)."""
        weight_class = getattr(wrestler.sheet, "weight_class", None)
        return weight_class.lower() if weight_class else None

    def title_refusal(self, wrestler: WrestlerRecord, title_name: str, division: str) -> str | None:
        if self.title_division(wrestler) == division:
            return None
        return f"{wrestler.name} is {self.title_division(wrestler)} (Weight {wrestler.sheet.styles['weight']}); {title_name} is for {division} (MatchMatch I.1)"

    def standings_division(self, wrestler: WrestlerRecord | None, is_team: bool) -> str | None:
        if is_team:
            return TAG_TEAMS
        return self.title_division(wrestler) if wrestler is not None else None

    def standing_columns(self) -> tuple[Column, ...]:
        return (Column("push", lambda r: f"{r['push_level']} ({format_points(Fraction(r['push_points'] or 0))} pts)"),
                Column("injury", lambda r: r["injury"] or ""))

    def contender_key(self, row: dict) -> tuple:
        """Push level, then push points (Part II)."""
        return (row["push_level"] or 0, Fraction(row["push_points"] or 0))

    def season_carry(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """Part II push levels and points; IV.2.e injury points ("wrestlers retain injury from week to week")."""
        return {"push_levels": (("push_level", "push_points"), "push level and points (Part II)"),
                "injuries": (("injury",), "injury points (IV.2.e)")}

    def chart(self, settings: dict) -> tuple[str, str, list]:
        return "push_level", "Push level", list(range(1, int(settings.get("push_levels", 5)) + 1))

    def announce(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        vocab = vocabulary()
        options = self.settings(settings)
        grid = self._grid(card, match)
        referee = self._referee(card, match, options)
        stip = self._stipulation(card, match, options)
        picks = ["a letter A-C", "a number 1-3"] + ["a cell such as B3"] * (len(wrestlers) - 2)
        return {
            "pickers": [f"{w.name} chooses {pick}" for w, pick in zip(wrestlers, picks)],
            "referee": referee and {"name": referee.name, "type": referee.type, "dq_threshold": referee.dq_threshold},
            "stipulation": stip.id and {"name": stip.name, "description": stip.description},
            "grid": [[vocab.style_by_id[s].name for s in row] for row in grid],
            "grid_abbr": format_grid(grid),
            "names": [w.name for w in wrestlers],
            "rounds": match.rounds or self.settings(settings).rounds,
        }


def _push_level_problem(fed, wrestler: WrestlerRecord, level: int, top: int) -> Problem | None:
    """II: a push level above the fed's top level (`rulesets: matchmatch: push_levels`) is the
    sheet's mistake, or, when the sheet is within it, the settings' (lowered since)."""
    if wrestler.sheet.push_level > top:
        path = fed.roster_files.get(wrestler.id)
        return Problem(fed.shown(path) if path else f"rosters/{wrestler.id}.yaml", "field push.level",
                       f"push level {wrestler.sheet.push_level} is above the fed's top level, {top} (rulesets: matchmatch: push_levels)", "MatchMatch II")
    if level > top:
        return Problem("rosters/fed.yaml", "field rulesets.matchmatch.push_levels",
                       f"{wrestler.name} is at push level {level} in the league, above the top level {top}: the top level cannot be lowered below a wrestler's", "MatchMatch II")
    return None


def exhibition_setup(sheets: list[tuple[Any, str, str]], strategies: list[tuple[Any, str]], grid: Any, rounds: int, settings: dict) -> _engine.MatchSetup:
    """A match from two sheets and two strategies (parsed data with the names to show), for odds.

    `grid` may be None: the caller then rolls a grid for every match it plays."""
    from .strategy import check_coverage, read_strategy

    options = MatchMatch().settings(settings)
    problems = Collector()
    checked = []
    for index, ((sheet_data, sheet_file, wrestler_id), (strategy_data, strategy_file)) in enumerate(zip(sheets, strategies)):
        try:
            sheet = read_sheet(sheet_data, sheet_file, wrestler_id)
            if sheet.push_level > options.push_levels:
                raise FedError(Problem(sheet_file, "field push.level", f"push level {sheet.push_level} is above the fed's top level, {options.push_levels} "
                                       "(rulesets: matchmatch: push_levels)", "MatchMatch II"))
            strategy = read_strategy(strategy_data, strategy_file, sheet, index, rounds, sheet.push_level, opponent_conditions=options.opponent_conditions)
            checked.append(_engine.Side(wrestler_id, sheet.name, sheet, strategy, 0, _officials.slack_threshold(options.dq_threshold, sheet.ref_slack), sheet.push_level))
        except FedError as exc:
            problems.extend(exc)
    problems.raise_if_any()
    placeholder = [["technical"] * 3] * 3
    setup = _engine.MatchSetup("odds", (checked[0], checked[1]), read_grid(grid, "--grid", "the grid") if grid is not None else placeholder, rounds,
                              rules=engine_rules(options))
    if grid is not None:
        for side in setup.sides:
            problems.problems.extend(check_coverage(side.strategy, setup.style_table(), rounds))
        problems.raise_if_any()
    return setup


def _plain(value: Any) -> Any:
    """Dataclass dicts made JSON-safe: dice faces (bytes) become lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return list(value)
    return value


_LEAVES = (str, int, float, bool, type(None))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _record(value: Any) -> Any:
    """`_plain(dataclasses.asdict(value))`: a dataclass as a dict of its fields (in their
    order), nested dataclasses, lists, tuples and dicts alike, dice faces (bytes) as lists;
    the same data, built without asdict's deep copy of every value."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    names = _FIELD_NAMES.get(kind)
    if names is None and hasattr(kind, "__dataclass_fields__") and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: _record(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return [_record(v) for v in value]
    if isinstance(value, dict):
        return {k: _record(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return list(value)
    return copy.deepcopy(value)  # as asdict copies a value of another kind


def _push_text(push: Push) -> str:
    return f"level {push.level} ({format_points(push.points)} pts)"


__all__ = ["MatchMatch"]


def engine_rules(options: Any) -> Any:
    """The engine's `Rules` from the ruleset's settings (`MatchMatchSettings`, or the same
    settings read back from the checked cache: fedtool.kernel.checked.Kept)."""
    return _engine.Rules(injury_counts=options.injury_counts, cripple_tie=options.cripple_tie, halved_styles=options.halved_styles)
