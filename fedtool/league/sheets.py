"""The league's members as their rulesets read them, and the fed loaded for a command.

`load_fed` is how every command opens a fed: the settings' shape (fedtool.fed), then what
needs the registry: the fed's ruleset and each title's ruleset are ones fedtool knows (no
ruleset is imported for that). What a title needs of its ruleset (its divisions, finishes,
first holder) is checked where titles are used (fedtool.league.records), so a week of one
ruleset's matches imports no other.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fedtool.fed.settings import Fed, check_wrestler_id
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place
from fedtool.kernel.yamlio import load_yaml
from fedtool.rulesets import REGISTRY, check_ruleset, get_ruleset
from fedtool.rulesets.base import WrestlerRecord

if TYPE_CHECKING:  # the card's module and its models are a week's, not the standings' (issue 18)
    from fedtool.fed.card import Card


def load_fed(root: Path | str) -> Fed:
    """The fed in `root`, its settings checked: their shape, and the rulesets they name."""
    fed = Fed.load(root)
    shown = fed.shown(fed.settings_file)
    check_ruleset(fed.settings.ruleset, (shown, "field ruleset"))
    problems = Collector()
    for index, title in enumerate(fed.settings.titles):
        if title.ruleset is not None and title.ruleset not in REGISTRY:  # the place (the file's lines) read only for a message
            try:
                check_ruleset(title.ruleset, (shown, place(fed.data, ("titles", index, "ruleset"))))
            except FedError as exc:
                problems.problems.extend(Problem(p.file, p.place, p.message, "fed settings: titles") for p in exc.problems)
    problems.raise_if_any()
    return fed


def read_roster_sheet(fed: Fed, wrestler_id: str, as_member_of: str | None = None) -> WrestlerRecord:
    """One sheet from rosters/, checked by its ruleset; a team's members are read first."""
    path = fed.roster_files.get(wrestler_id) or fed.retired_files.get(wrestler_id)  # a retired wrestler's kept sheet: his history, his reigns
    if path is None:
        raise FedError(Problem(fed.shown(fed.rosters / f"{as_member_of}.yaml"), "field members", f"unknown member {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml", "MatchMatch I.2"))
    shown = fed.shown(path)
    data = load_yaml(path, shown)
    ruleset_id = data.get("ruleset", fed.settings.ruleset) if isinstance(data, dict) else fed.settings.ruleset
    ruleset = get_ruleset(str(ruleset_id), (shown, "field ruleset"))
    members = {}
    for member_id in ruleset.members_of(data):
        if as_member_of is None and member_id in fed.roster_files and member_id != wrestler_id:
            members[member_id] = read_roster_sheet(fed, member_id, as_member_of=wrestler_id)
    return ruleset.read_sheet(data, shown, wrestler_id, members)


def load_wrestlers(fed: Fed, card: Card, problems: Collector, fought: frozenset[str] = frozenset()) -> dict[str, WrestlerRecord]:
    """Every wrestler (or team) on the card, read and checked by its ruleset. A retired
    wrestler is refused, except one in `fought` (a rerun's week: he fought it before he
    retired, so his kept sheet is read as the first run read his active one)."""
    wrestlers: dict[str, WrestlerRecord] = {}
    for match in card.matches:
        for wrestler_id in match.sides:
            if wrestler_id in wrestlers:
                continue
            where = f"line {match.sides_line}, match {match.id}"
            try:
                check_wrestler_id(wrestler_id, card.shown, where)
            except FedError as exc:
                problems.extend(exc)
                continue
            if wrestler_id in fed.retired_files and wrestler_id not in fed.roster_files and wrestler_id not in fought:
                problems.add(card.shown, where, f"{wrestler_id!r} is retired (rosters/retired/{wrestler_id}.yaml): `fedtool roster return {wrestler_id}` brings him back",
                             "card file: sides are roster sheets")
                continue
            if wrestler_id not in fed.roster_files and wrestler_id not in fed.retired_files:
                problems.add(card.shown, where, f"unknown wrestler {wrestler_id!r}: there is no rosters/{wrestler_id}.yaml", "card file: sides are roster sheets")
                continue
            try:
                wrestlers[wrestler_id] = read_roster_sheet(fed, wrestler_id)
            except FedError as exc:
                problems.extend(exc)
    return wrestlers


def with_initial_states(states: dict[str, dict], wrestlers: dict[str, WrestlerRecord]) -> dict[str, dict]:
    """`states` (from the league) with each wrestler the league has not seen change given
    his ruleset's starting state from his sheet."""
    for wrestler in wrestlers.values():
        states.setdefault(wrestler.id, get_ruleset(wrestler.ruleset).initial_state(wrestler))
    return states
