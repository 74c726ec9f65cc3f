"""The ruleset interface. Each ruleset is one package implementing these hooks.

A ruleset package imports only the kernel (`fedtool.kernel`) and this module: never the
fed, the league, the week, mail or the site, and never another ruleset (the import
contracts in pyproject.toml hold this). The core hands it everything it needs: the card
and its match as plain objects (the protocols below), the wrestlers' checked sheets, their
league states, the ruleset's own settings and a `Dice`. The weekly run (fedtool.week)
knows nothing of any ruleset's rules: it asks the ruleset to read sheets, check
strategies, roll what opening a week needs, resolve matches with the dice it is handed,
say how the league changes, and describe a match for the writeup.

Every hook is documented once, here; a ruleset overrides the hooks it needs (python-chess
documents its variant hooks the same way). Hooks that raise NotImplementedError must be
overridden; the others have a default that suits a ruleset without the feature.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from fedtool.kernel.commentary import Commentary, Teller, load_commentary
from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import FedError, Problem

# ---------------------------------------------------------------- what the core hands a ruleset


class FedFiles(Protocol):
    """The fed's folder as a ruleset may read it (fedtool.fed.settings.Fed provides this)."""

    root: Path  # the fed's folder

    @property
    def rosters(self) -> Path:
        """rosters/: the sheets, and data files a fed names in its settings."""

    @property
    def roster_files(self) -> Mapping[str, Path]:
        """Wrestler id -> sheet file, for every sheet of the fed."""

    def shown(self, path: Path) -> str:
        """A path as messages name it: relative to the fed."""


class MatchOnCard(Protocol):
    """One match as the card books it (fedtool.fed.card.CardMatch)."""

    id: str  # "m1"
    position: int  # 1 for the card's first match
    ruleset: str
    sides: list[str]  # wrestler ids, in the card's order
    title: str
    rounds: int | None
    raw: dict  # the card's mapping for this match: ruleset fields (grid, stipulation, format, ...) live here
    line: int | None  # where the match starts in card.yaml
    sides_line: int | None
    opening: dict  # what `fedtool open` rolled for it (opening.yaml)
    for_title: str | None
    champions: dict[str, list[str]]  # side's wrestler id -> the names of the titles he holds going into the week (none held: absent)


class CardOnFile(Protocol):
    """The card a match is booked on (fedtool.fed.card.Card)."""

    shown: str  # the card file as messages name it: strategies/week-02/card.yaml
    folder: Path
    fed: FedFiles

    def strategy_path(self, match: MatchOnCard, wrestler_id: str) -> Path:
        """Where a side's strategy file is (it may not exist)."""


@dataclass
class WrestlerRecord:
    """What the league keeps of any wrestler whatever the ruleset."""

    id: str
    name: str
    ruleset: str
    owner_name: str
    owner_email: str
    sheet: Any  # the ruleset's checked sheet
    members: tuple[str, ...] = ()  # a team's members


@dataclass
class Booking:
    """A match ready to resolve: the ruleset's setup plus what the run needs to know.

    `match` is None for an exhibition built from sheets and strategy files (`exhibition`)."""

    match: MatchOnCard | None
    setup: Any
    wrestlers: list[WrestlerRecord]
    notes: list[str] = field(default_factory=list)  # e.g. "played the fed's default strategy"
    extra: dict = field(default_factory=dict)  # ruleset facts for the results (referee, stipulation)
    # the phrase table the writeup tells with (`Ruleset.commentary`, with the fed's own file over
    # it) and the key its choices are made by (the week and the match): set by the core
    commentary: Commentary | None = None
    story_key: str = ""

    def teller(self) -> Teller | None:
        """A fresh teller of this match's story (the same words every time it is told), or
        None when the ruleset has no phrase table."""
        return self.commentary.teller(self.story_key) if self.commentary is not None else None


@dataclass(frozen=True)
class Trial:
    """One play of a booking for odds: the winning side (None for no winner), the finish and
    the match's length in the ruleset's own unit (rounds, scraps, FACs)."""

    winner: int | None
    method: str
    length: int


@dataclass(frozen=True)
class Column:
    """A column the standings show for a ruleset: its header and its cell for a row of
    `fedtool standings --json`."""

    header: str
    cell: Callable[[dict], Any]


# ---------------------------------------------------------------- the interface



KEPT_READINGS = 512  # strategies' readings a `Ruleset.book` cache keeps (each mail needs its own and its opponent's)


def kept_reading(cache: dict, key: tuple, holder: object, read: Callable[[], Any]) -> Any:
    """A strategy's reading kept in a `Ruleset.book` cache: `read()` the first time `key` is
    asked for, what was kept after. `key` holds the file's whole text and all else the
    reading depends on (never the file's name or time alone: a strategy an earlier mail
    replaced is a new text, read anew); `holder` is the object the reading was checked
    against (a sheet, a deck, a roster), or None: kept beside the reading, so a key holding
    its `id()` can never meet another object that took its place. A refusal (FedError) is
    kept too and raised again. The oldest readings go first: memory stays bounded over a
    big mailbox."""
    kept = cache.get(key)
    if kept is None or kept[0] is not holder:
        try:
            kept = (holder, read(), None)
        except FedError as exc:
            kept = (holder, None, exc.problems)
        while len(cache) >= KEPT_READINGS:
            del cache[next(iter(cache))]
        cache[key] = kept
    if kept[2] is not None:
        raise FedError(kept[2])
    return kept[1]

class Ruleset:
    """Base class: a ruleset overrides the hooks it needs. `id` is the name used in files."""

    id: str = ""
    name: str = ""
    template: str = ""  # the match writeup template stem, e.g. "matchmatch/match"
    # The revision of the ruleset's rules as its engine plays them: raised whenever a change
    # makes the same booking and seed roll or end differently. A run stores it with every
    # match, and `fedtool verify` replays only a match of the revision it plays (an older
    # one is named as such, never as dice that do not match).
    rules_revision: int = 1
    # The fields a match of this ruleset may carry on the card beyond the common ones (id,
    # ruleset, title, sides, rounds, for_title, strategies): a model that refuses unknown
    # fields (fedtool.kernel.validation.FileModel), checked before the match is opened or
    # booked; None: the ruleset has no fields of its own. `match.raw` holds them as written.
    # The model may be given by name ("package.module:Class"): it is then imported only when
    # fields not checked good before are checked (fedtool.kernel.validation.validate).
    card_fields: type | str | None = None
    # The fewest sides a match of the ruleset has on the card (checked before it is opened or
    # booked): 2, or 1 for a ruleset with a game played alone (Mad Match solitaire).
    min_sides: int = 2

    # ------------------------------------------------------------ sheets and the league

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict[str, WrestlerRecord]) -> WrestlerRecord:
        """Check a parsed roster sheet; raise FedError naming the line and rule.

        `members` holds the checked sheets of the ids `members_of(data)` named (for teams).
        """
        raise NotImplementedError

    def members_of(self, data: Any) -> list[str]:
        """The wrestler ids a sheet is made of (a tag team's members), or none."""
        return []

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        """League state for a wrestler new to the database (from its sheet)."""
        raise NotImplementedError

    # ------------------------------------------------------------ a week: open, book, resolve

    def open_match(self, card: CardOnFile, match: MatchOnCard, dice: Dice, settings: dict) -> dict:
        """What must exist before players write strategies (a grid, say); stored in opening.yaml."""
        return {}

    def announce(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        """What the announcement for an opened match shows (its template: `<id>/announce.md.j2`)."""
        return {}

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict[str, dict], settings: dict,
             cache: dict | None = None) -> Booking:
        """Read and check the strategies for a match and build its setup; raise FedError.

        `cache`: a dict the core keeps while it checks many strategies of one card (a mail
        intake, in each of its workers; `fedtool status`), or None. A ruleset may keep there
        what it read of a strategy file, under a key holding the file's whole text (never
        its name or time alone: a strategy filed by an earlier mail is read anew), so the
        other side's file is read once, not once per mail; what it gives back is exactly
        what reading it again would give (the file named as `card` names it)."""
        raise NotImplementedError

    def propose(self, kind: str, fed: FedFiles, states: dict[str, dict], settings: dict, wrestler_id: str | None) -> tuple[dict, list[str]]:
        """A match of `kind` the ruleset proposes from the league (`fedtool book KIND`): the
        card entry (ruleset, title, sides, its own fields) and why, in lines; `states` are
        the league's going into the week. Raise FedError when it proposes none."""
        raise FedError(Problem(None, None, f"{self.name} proposes no {kind} matches", f"fedtool book {kind}"))

    def resolve(self, booking: Booking, dice: Dice) -> Any:
        """Play the match with the dice handed in. Pure: returns the result, writes nothing.

        The result carries `log`: the match's rolls, taken from the dice (`dice.take_log()`)."""
        raise NotImplementedError

    def outcomes(self, booking: Booking, result: Any) -> list[str]:
        """'win', 'loss' or 'draw' per side."""
        raise NotImplementedError

    def league_effects(self, booking: Booking, result: Any, states: dict[str, dict], settings: dict) -> dict[str, tuple[dict, str]]:
        """New state and the reason, per wrestler whose state the match changes."""
        return {}

    def close_week(self, states: dict[str, dict], wrestled: set[str], dice: Dice, names: dict[str, str]) -> dict[str, tuple[dict, str]]:
        """End-of-week changes (healing, say), per wrestler changed."""
        return {}

    def tell_league_change(self, name: str, reason: str, changes: dict[str, dict], words: Commentary | None = None) -> list[str]:
        """One wrestler's change to the league as the card tells it: sentences in plain words
        ("Friendly Sam rises to push level 3 by beating Brother Bob."), never a ledger row.
        `reason` is what `league_effects` or `close_week` gave for him; `changes` each state
        key that changed, {"before", "after"} as `fedtool results --json` shows them; `words`
        the match's phrase table (`Booking.commentary`: the fed's file over the ruleset's),
        None for the ruleset's own. The default, for a reason the ruleset cannot tell better:
        his name and the reason."""
        return [f"{name}: {reason}."]

    # ------------------------------------------------------------ results and writeups

    def summary(self, booking: Booking, result: Any) -> dict:
        """Machine-readable result, kept in the league (`matches.summary`, JSON) and read back
        by `result_details`: at least "winner" (a wrestler id or None), "method" (one of
        `finishes`, or a draw's name), "round" and "sides" ([{"id", "name", ...}]). The core
        also reads "stipulation", "format" and "referee" (a name) when given, else takes
        them from the card; it adds "league_changes" and "rating" itself (keys no ruleset writes)."""
        raise NotImplementedError

    def result_details(self, summary: dict) -> dict:
        """What `fedtool results --json` shows of a match beyond the common fields
        (docs/results.schema.json), as plain JSON data read from the match's stored
        `summary`. Its "match_type" (a name of the ruleset's own: "singles", "tag",
        "dual_match", ...) is shown as the match's `match_type`; the rest as its `details`.
        A summary stored by an older fedtool may lack what a newer one records: give null
        or leave the key out, never raise."""
        return {}

    def rating_inputs(self, booking: Booking, result: Any) -> dict | None:
        """What the match's star rating is made of (docs/ratings.md), read from the result and
        the rolls already made: never rolling, never touching the dice. Plain data:
        "closeness" (a Fraction from 0, a rout, to 1, dead even at the end), "lead_changes",
        "near_falls" and "high_spots" (counts), "finish" ("clean", "countout", "dq" or
        "draw") and "grudge" (True when the match settles a grudge). The core adds the title
        at stake and turns these into stars. None: the ruleset's matches are not rated."""
        return None

    def round_rows(self, result: Any) -> list[dict]:
        """The result's rounds for the league's `rounds` table: {"round", "style", "winner",
        "margin", "detail" (JSON)} each. A ruleset without rounds keeps none."""
        return []

    def describe(self, booking: Booking, result: Any) -> dict:
        """Everything the writeup template needs, as plain data (at least "headline")."""
        raise NotImplementedError

    def commentary(self, fed_file: Path | None = None, shown: str | None = None) -> Commentary | None:
        """The ruleset's phrase table, `data/commentary.yaml` beside its templates, with the fed's
        own file (templates/commentary/<id>.yaml) over it when there is one, both checked
        (`fedtool.kernel.commentary`); None for a ruleset without one. Read again only when a
        file changes."""
        packaged = self.templates.parent / "data" / "commentary.yaml"
        if not packaged.is_file():
            return None
        own = fed_file if fed_file is not None and fed_file.is_file() else None
        stamp = own.stat().st_mtime_ns if own is not None else 0
        return _commentary(packaged, f"fedtool/rulesets/{self.id}/data/commentary.yaml", own, shown, stamp)

    @property
    def templates(self) -> Path:
        """The ruleset's packaged templates (`match.md.j2`, `match.html.j2`, `announce.md.j2`),
        found as `<id>/NAME` after the fed's own templates/<id>/NAME."""
        return Path(inspect.getfile(type(self))).parent / "templates"

    # ------------------------------------------------------------ strategies

    strategy_optional: bool = False  # a side without a strategy loses nothing a reminder could save

    def missing_strategy(self, settings: dict) -> str:
        """What a side with no strategy file gets: "refuse" (the week cannot run) or
        "default" (the ruleset plays a default and says so), by the fed's settings."""
        return "refuse"

    def strict_settings(self, settings: dict) -> dict:
        """The settings a strategy is checked under before it is filed: a default never
        stands in for a strategy that does not stand."""
        return settings

    def lenient_settings(self, settings: dict) -> dict:
        """The settings under which a side with no strategy that stands plays the ruleset's
        default, whatever the fed's `missing_strategy`: the week layer books a match so for
        a side the league excuses (fedtool.week.booking.book_all)."""
        return {**settings, "missing_strategy": "default"}

    def mail_strategy_suffix(self, text: str) -> str:
        """The file suffix a strategy written in a mail's body is filed under: ".yaml", or
        ".txt" for a ruleset with a plain-text layout of its own that `text` is written in."""
        return ".yaml"

    def strategy_readings(self, path: Path, shown: str) -> list | None:
        """How each line of a strategy file was read (objects with `line` and `reading`), for
        `fedtool read` and the answer to a strategy mail; None for a layout read as a whole.
        Raise FedError for a file that cannot be read at all."""
        return None

    def strategy_data(self, path: Path, shown: str) -> Any:
        """A strategy file's data as the run reads it: YAML here; a ruleset with a plain-text
        layout of its own reads a .txt file in it (`fedtool odds --strategy`)."""
        from fedtool.kernel.yamlio import load_yaml

        return load_yaml(path, shown)

    # ------------------------------------------------------------ odds and exhibitions

    length_word: str = "round"  # what a result's `round` counts, as results say it ("in round 16"; Mad Match: "in game 3")
    plays_odds: bool = False  # whether `trial` is implemented (fedtool.week.odds)
    has_grid: bool = False  # whether a match has a grid (MatchMatch's), which odds say is fixed or rolled per match

    def exhibition(self, sheets: list[tuple[Any, str, str]], strategies: list[tuple[Any, str]], settings: dict, options: dict) -> Booking:
        """A booking from parsed sheets ((data, file, wrestler id) each) and strategies ((data,
        file) each), for `fedtool odds --sheet`. `options` holds what the command line gave
        ("grid", "rounds"; None when not given). The booking's `match` is None."""
        raise FedError(Problem(None, None, f"fedtool odds has no exhibitions for {self.name} matches", "fedtool odds"))

    def rolls_per_trial(self, booking: Booking) -> bool:
        """Whether each trial rolls what the booking left open (an exhibition's grid not
        given), through `odds_setup`."""
        return False

    def odds_setup(self, booking: Booking, dice: Dice) -> Any:
        """The setup for one trial, with what the booking left open rolled on `dice`."""
        return self.trial_setup(booking)

    def trial_setup(self, booking: Booking) -> Any:
        """What `trial` plays for a booking that leaves nothing open: the booking's setup, or
        whatever else of the booking the match rolls before the bell (a grudge match's type)."""
        return booking.setup

    def odds_sides(self, booking: Booking) -> list[str]:
        """The sides the odds count wins for, as they are named (a team as one side);
        `Trial.winner` indexes this list."""
        return [wrestler.name for wrestler in booking.wrestlers]

    def odds_unit(self, booking: Booking) -> str:
        """What `Trial.length` counts, in words: "rounds", "turns", "FACs"."""
        return "rounds"

    def trial(self, setup: Any, dice: Dice) -> Trial:
        """Play a setup once for odds, keeping nothing for a writeup (no records, no
        narration), yet rolling exactly as `resolve` rolls: the same seed, the same result."""
        raise NotImplementedError

    # ------------------------------------------------------------ titles and standings

    finishes: tuple[str, ...] = ()  # every finish `summary()["method"]` names for a winner
    title_divisions: tuple[str, ...] = ()  # the divisions a title may be limited to
    divisions_are: str = ""  # what they are, in words ("weight classes")
    team_titles: bool = False  # whether team sheets hold titles (tag titles)
    standings_divisions: tuple[str, ...] = ()  # the standings' divisions, in order

    def title_division(self, wrestler: WrestlerRecord) -> str | None:
        """The division a wrestler may hold titles in (one of `title_divisions`)."""
        return None

    def title_refusal(self, wrestler: WrestlerRecord, title_name: str, division: str) -> str | None:
        """Why a wrestler may not hold a title limited to `division`, or None."""
        return None

    def standings_division(self, wrestler: WrestlerRecord | None, is_team: bool) -> str | None:
        """The standings table a league member is listed in; `wrestler` is None for a member
        whose sheet is gone."""
        return None

    def standing_extras(self, wrestler_id: str, matches: list[dict]) -> dict:
        """Ruleset columns for a standings row, from the wrestler's matches (each with its
        "summary", as stored and read: a dict, empty when the league holds none, and "side")."""
        return {}

    def standing_columns(self) -> tuple[Column, ...]:
        """The standings' columns after record and streak."""
        return ()

    def contender_key(self, row: dict) -> tuple:
        """Higher is closer to a title shot: the number-one contenders have the highest key."""
        return (row["wins"], row.get("match_points", 0))

    def opponents(self, sides: list[str], wrestler_id: str) -> list[str]:
        """The sides a wrestler faced in a match (less any tag partner)."""
        return [side for side in sides if side != wrestler_id]

    def season_carry(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """What of a wrestler's league state a fed may reset when it closes a season
        (`fedtool season close`, the `seasons: carry_over:` setting): each carry-over name
        -> (the state keys it covers, what it is in words). A reset sets those keys back to
        the sheet's (`initial_state`); by default everything is kept (no rulebook knows a
        season break). A ruleset that keeps no state has none."""
        return {}

    def chart(self, settings: dict) -> tuple[str, str, list] | None:
        """What a wrestler's page charts by week: (state key, label, scale lowest first), or
        None for a ruleset that keeps no such grade."""
        return None


@cache
def _commentary(packaged: Path, packaged_shown: str, own: Path | None, shown: str | None, stamp: int) -> Commentary:
    """A phrase table read once per file version (`stamp`: the fed file's mtime)."""
    return load_commentary(packaged, packaged_shown, own, shown)


class Submodule:
    """One of a ruleset package's modules, imported the first time something of it is used.

    A ruleset's `__init__` names its heavy modules this way (`_engine = Submodule(__name__,
    "engine", "_engine")`, then `_engine.resolve(...)`), so that importing the ruleset to read
    a sheet or show the standings does not import its engine, narration or strategy reader
    (issue 18). The first use imports the module and puts it in the package under `alias`,
    in this one's place: from then on the name is the module itself. The alias is not the
    module's own name, so `from package import engine` still imports and gives the module."""

    __slots__ = ("_package", "_name", "_alias")

    def __init__(self, package: str, name: str, alias: str):
        self._package, self._name, self._alias = package, name, alias

    def __getattr__(self, attribute: str) -> Any:
        import importlib
        import sys

        module = importlib.import_module(f"{self._package}.{self._name}")
        setattr(sys.modules[self._package], self._alias, module)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<{self._package}.{self._name}, imported when first used>"
