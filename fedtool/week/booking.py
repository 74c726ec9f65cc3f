"""A week's card booked: the card, its wrestlers and their league states read once, and each
match handed to its ruleset to check the strategies and build the setup.

Everything the run, `fedtool read`, `fedtool status`, mail intake and odds check is booked
here the same way, so a strategy that stands for one stands for all.
"""

from __future__ import annotations

from dataclasses import dataclass


from fedtool.fed.card import Card, CardMatch, load_card, strategy_path
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place, validate
from fedtool.kernel.yamlio import subset
from fedtool.league.db import open_league, ran_weeks, states_before
from fedtool.league.records import champions, check_card_titles
from fedtool.league.sheets import load_wrestlers, with_initial_states
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.base import Booking, Ruleset, WrestlerRecord


@dataclass
class CardContext:
    """A card with its wrestlers (read and checked) and their states going into the week."""

    card: Card
    wrestlers: dict[str, WrestlerRecord]
    states: dict[str, dict]


def week_in_play(fed: Fed) -> int | None:
    """The week in play: the first week after the last one run that has a card (what
    `fedtool tick` works on, and what `status` and the mail commands show by default)."""
    last = max(ran_weeks(open_league(fed.database, create=False)), default=0)
    numbers = sorted(int(p.name[5:]) for p in fed.strategies.glob("week-*") if p.name[5:].isdigit() and (p / "card.yaml").is_file())
    return next((n for n in numbers if n > last), None)


def week_card(fed: Fed, week: int) -> Card:
    """strategies/week-NN/card.yaml, read and checked."""
    return load_card(fed, fed.week_dir(week), week)


def card_context(fed: Fed, card: Card, week: int | None, problems: Collector | None = None,
                 wrestlers: dict[str, WrestlerRecord] | None = None, fought: frozenset[str] = frozenset(), db=None) -> CardContext:
    """The card's wrestlers and their states before `week` (the sheets' own for no week).
    Each match learns which of its sides hold a title going into the week (`champions`;
    none for no week).

    Problems reading the sheets go to `problems` if given (the caller decides), else raise.
    `wrestlers`: the card's sheets already read (by an earlier call for the same card).
    `fought`: retired wrestlers the card may still name (`load_wrestlers`: a rerun's week).
    `db`: the league, already open (the run's), else opened here when a week is given."""
    if wrestlers is None:
        collector = problems if problems is not None else Collector()
        wrestlers = load_wrestlers(fed, card, collector, fought)
        if problems is None:
            collector.raise_if_any()
    states = {}
    if week is not None:
        db = open_league(fed.database, create=False) if db is None else db
        states = states_before(db, week)
        held = champions(fed, db, week)
        for match in card.matches:
            match.champions = {side: held[side] for side in match.sides if side in held}
    return CardContext(card, wrestlers, with_initial_states(states, wrestlers))


def card_field_problems(card: Card, match: CardMatch, ruleset: Ruleset) -> list[Problem]:
    """The match's own fields (beyond the common ones) checked by its ruleset's `card_fields`
    model, and its number of sides against the ruleset's `min_sides`, each problem with its
    line; none when they stand."""
    fields = match.ruleset_fields
    prefix = ("matches", match.position - 1)
    if len(match.sides) < ruleset.min_sides:  # a solitaire round may have one side; a match has two or more
        return [Problem(card.shown, place(match.raw, ("sides",), prefix=prefix),
                        f"a {ruleset.name} match has at least {ruleset.min_sides} sides, not {len(match.sides)}", "card file")]
    if ruleset.card_fields is None:
        return [Problem(card.shown, place(match.raw, (key,), prefix=prefix), f"unknown field {key!r} ({ruleset.name} matches have none of their own)", "card file")
                for key in fields]
    try:
        validate(ruleset.card_fields, subset(match.raw, fields), card.shown, "card file", prefix)
    except FedError as exc:
        return exc.problems
    return []


def side_problems(card: Card, match: CardMatch, sides: list[WrestlerRecord]) -> list[Problem]:
    """Each side that is not a wrestler of the match's ruleset."""
    return [Problem(card.shown, f"line {match.line}, match {match.id}", f"{w.name} is a {w.ruleset} wrestler; this is a {match.ruleset} match", "card file")
            for w in sides if w.ruleset != match.ruleset]


def book_all(fed: Fed, card: Card, wrestlers: dict[str, WrestlerRecord], states: dict[str, dict], strict: bool = False,
             excused: dict[tuple[str, str], str] | None = None, cache: dict | None = None, stood: dict[str, Booking] | None = None) -> list[Booking]:
    """Every match of the card booked by its ruleset, or a FedError with every problem.

    `strict`: under each ruleset's strict settings (a strategy checked before it is filed).
    `excused`: (match id, wrestler id) -> why (the run's: the player is away, or past the
    fed's `no_show_limit`): those sides, with no strategy that stands, play the ruleset's
    default even where its `missing_strategy` refuses (see `book_excused`). `cache`: what
    checking many strategies of the card keeps between calls (`Ruleset.book`; mail intake).
    `stood`: match id -> the match's booking made under its ruleset's strict settings, of
    this card, wrestlers and states, that stood (`week.status.strict_bookings`: the run's
    check of the strategies); taken as the match's booking where booking it again would
    give the same (`strict_booking_stands`), so a run books each match once (issue 18)."""
    problems = Collector()
    problems.problems.extend(check_card_titles(fed, card, wrestlers))  # for_title: (issue 7)
    bookings = []
    for match in card.matches:
        ruleset = get_ruleset(match.ruleset, (card.shown, f"line {match.line}, match {match.id}"))
        sides = [wrestlers[w] for w in match.sides]
        own = card_field_problems(card, match, ruleset) + side_problems(card, match, sides)
        problems.problems.extend(own)
        if own:  # this match cannot be booked; the others still are, so every problem is reported at once
            continue
        settings = fed.ruleset_settings(match.ruleset)
        made = (stood or {}).get(match.id)
        if made is not None and made.match is match and not strict and strict_booking_stands(ruleset, settings):
            bookings.append(tell(fed, ruleset, made, f"{card.folder.name} {match.id}", cache))
            continue
        try:
            mine = {w: why for (m, w), why in (excused or {}).items() if m == match.id}
            if mine and not strict:
                bookings.append(book_excused(card, match, ruleset, sides, states, settings, mine))
            else:
                bookings.append(ruleset.book(card, match, sides, states, ruleset.strict_settings(settings) if strict else settings, cache=cache))
            tell(fed, ruleset, bookings[-1], f"{card.folder.name} {match.id}", cache)
        except FedError as exc:
            problems.extend(exc)
    problems.raise_if_any()
    return bookings


def strict_booking_stands(ruleset: Ruleset, settings: dict) -> bool:
    """Whether a match's booking under the ruleset's strict settings that stood is its
    booking under `settings`: the strict settings are `settings` (the same call), or differ
    from them only in `missing_strategy`, which decides what a side without a strategy that
    stands gets; a booking that stood under the strict settings had none (a default never
    stands in for a strategy there), so it played no part. An excused side's booking
    (`book_excused`) is the fed's settings' first, so it too is the same."""
    strict = ruleset.strict_settings(settings)
    if strict == settings:
        return True
    return {k: v for k, v in strict.items() if k != "missing_strategy"} == {k: v for k, v in settings.items() if k != "missing_strategy"}


def tell(fed: Fed, ruleset: Ruleset, booking: Booking, key: str, cache: dict | None = None) -> Booking:
    """The booking with the phrase table its writeup tells with: the ruleset's own, with the
    fed's templates/commentary/<ruleset>.yaml over it (checked now, before anything is
    played), and the key its phrases are chosen by. `cache` (`book_all`): looked up once."""
    name = f"commentary/{ruleset.id}.yaml"
    if cache is None:
        booking.commentary = ruleset.commentary(fed.templates / name, f"templates/{name}")
    else:
        if ("commentary", ruleset.id) not in cache:
            cache["commentary", ruleset.id] = ruleset.commentary(fed.templates / name, f"templates/{name}")
        booking.commentary = cache["commentary", ruleset.id]
    booking.story_key = key
    return booking


def book_excused(card: Card, match: CardMatch, ruleset: Ruleset, sides: list[WrestlerRecord], states: dict[str, dict], settings: dict,
                 excused: dict[str, str]) -> Booking:
    """A match booked as the fed's settings say; where only the strategies of `excused` sides
    (wrestler id -> why) stop it, booked again under the ruleset's lenient settings
    (`Ruleset.lenient_settings`), so those sides play its default. A problem of any other
    side still refuses the week."""
    try:
        return ruleset.book(card, match, sides, states, settings)
    except FedError as exc:
        folder = card.shown.rsplit("/", 1)[0]
        theirs = {f"{folder}/{strategy_path(card, match, w).name}" for w in excused}
        rest = [p for p in exc.problems if p.file not in theirs]
        if rest or ruleset.missing_strategy(settings) == "default":
            raise FedError(rest or exc.problems) from None
    return ruleset.book(card, match, sides, states, ruleset.lenient_settings(settings))


def book_match(fed: Fed, week: int, match_id: str) -> Booking:
    """One match of a week's card, read and checked exactly as the run reads it."""
    card = week_card(fed, week)
    matches = [m for m in card.matches if m.id == match_id]
    if not matches:
        raise FedError(Problem(card.shown, None, f"no match {match_id!r} on the card; it has {', '.join(m.id for m in card.matches)}", "fedtool odds"))
    card.matches = matches
    context = card_context(fed, card, week)
    return book_all(fed, card, context.wrestlers, context.states)[0]


def propose_match(fed: Fed, ruleset_id: str, kind: str, wrestler_id: str | None = None, week: int | None = None) -> str:
    """A card entry the ruleset proposes from the league going into `week` (default: the
    week after the latest run), as YAML to paste under `matches:` in a week's card.yaml,
    with why as comments (`fedtool book grudge`: Face to the Mat 9.a from the HOT BOX)."""
    db = open_league(fed.database, create=False)
    following = max(ran_weeks(db), default=0) + 1
    if week is not None and not 1 <= week <= following:
        raise FedError(Problem(None, None, f"the league cannot say how week {week} begins: it has run {following - 1} week{'' if following == 2 else 's'}, "
                               f"so the weeks to book for are 1 to {following}", f"fedtool book {kind}"))
    week = week if week is not None else following
    ruleset = get_ruleset(ruleset_id)
    entry, why = ruleset.propose(kind, fed, states_before(db, week), fed.ruleset_settings(ruleset_id), wrestler_id)
    lines = [f"# fedtool book {kind}, going into week {week}: {line}" for line in why]
    lines.extend(f"{'- ' if k == 0 else '  '}{key}: {dump_value(value)}" for k, (key, value) in enumerate(entry.items()))
    return "\n".join(lines) + "\n"


def dump_value(value) -> str:
    """A card field's value as flow YAML on one line, quoted where YAML would read it as
    something else (an id `yes`, `null` or `123`, a title with a colon)."""
    import yaml

    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1_000_000).removesuffix("\n...\n").strip()
