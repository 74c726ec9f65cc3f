"""MatchMatch strategies (rulebook Part III and Part V): reading and checking them.

A strategy gives its styles (two "+", one "-", the grid pick) and its round actions in
any of the forms Part V describes, alone or combined:
  rounds:      a per-round list (entry N is round N, or entries carry `round: N`);
  styles:      per-style plans ("Brawling: 1 ..., 2 ..., 3+ ..., All ..."), counted by the
               occurrences of that round style (the 3rd Brawling round is Brawling's "3");
  conditions:  "clear conditionals" on the wrestler's own state and the round.
Each round the first condition that holds decides; else the per-round entry; else the
per-style plan for the round's style (docs/rulings/matchmatch.md, "Strategies").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from fedtool.kernel.errors import Collector, Problem
from fedtool.kernel.validation import place, validate
from fedtool.kernel.yamlio import line_of
from .rules import RoundType, Vocabulary, vocabulary
from .sheet import Sheet

GRID_LETTERS = ("A", "B", "C")  # III.1: "First name chooses A-C"
GRID_NUMBERS = ("1", "2", "3")  # III.1: "Second name chooses 1-3"
MAX_EXPLANATION = 4000
RANGE = re.compile(r"^\s*(?:(all|any)|(\d{1,3})\s*(\+|-\s*(\d{1,3}))?)\s*$", re.IGNORECASE)

# Conditions on the wrestler's own state and the round (Part V: "Clear conditionals")
OWN_CONDITIONS = {
    "round_at_least": "from round {n} on",
    "specials_unused_by_round": "from round {n} on, while a Special is left",
    "high_spots_unused_by_round": "from round {n} on, while a High Spot is left",
    "own_stamina_below": "while his Stamina is below {n}",
}
# Part V: "Conditionals based on the enemy's states may not be allowed": a fed setting
OPPONENT_CONDITIONS = {"opponent_stamina_below": "while the opponent's Stamina is below {n}"}


@dataclass(frozen=True)
class Action:
    """One round action (III.2): type, target, explanation."""

    round: int  # the round it was written for (0 for per-style and conditional actions)
    type: RoundType
    target: str  # a style id or "stamina"
    explanation: str
    line: int | None = None
    source: str = ""  # "round 3", "Brawling 3+", "condition 1": where the strategy says it


@dataclass(frozen=True)
class StylePlan:
    """What to do in a style's rounds, from its `first` occurrence to its `last`."""

    first: int  # the first occurrence of the style it covers (1-based)
    last: int | None  # the last, or None for "and after" ("3+", "All")
    action: Action

    def covers(self, occurrence: int) -> bool:
        return self.first <= occurrence and (self.last is None or occurrence <= self.last)


@dataclass(frozen=True)
class Condition:
    """A conditional order: the action to take in a round where `when` holds."""

    when: dict  # condition key -> number
    action: Action
    text: str

    def holds(self, round_no: int, state: dict) -> bool:
        for key, n in self.when.items():
            if key == "round_at_least" and round_no < n:
                return False
            if key == "specials_unused_by_round" and (round_no < n or state["specials_left"] <= 0):
                return False
            if key == "high_spots_unused_by_round" and (round_no < n or state["high_spots_left"] <= 0):
                return False
            if key == "own_stamina_below" and state["stamina"] >= n:
                return False
            if key == "opponent_stamina_below" and state["opponent_stamina"] >= n:
                return False
        return True


@dataclass(frozen=True)
class Strategy:
    """A side's strategy as read: its plus and minus styles, grid column and orders."""

    plus: tuple[str, str]
    minus: str
    grid: str  # "A".."C" or "1".."3"
    rounds: tuple[Action | None, ...]  # per round; None where the per-round list is silent
    file: str = ""
    default: bool = False  # True when the fed's default strategy stood in
    by_style: dict[str, tuple[StylePlan, ...]] = field(default_factory=dict)
    conditions: tuple[Condition, ...] = ()

    def actions(self) -> list[Action]:
        """Every action the strategy can play, in every form."""
        out = [a for a in self.rounds if a is not None]
        out += [plan.action for plans in self.by_style.values() for plan in plans]
        return out + [c.action for c in self.conditions]

    @cached_property
    def fixed(self) -> bool:
        """A plain per-round list: the engine reads it straight, with no choices to make."""
        return not self.by_style and not self.conditions and all(a is not None for a in self.rounds)

    @cached_property
    def types(self) -> list:
        """The round type of each round of a fixed list (the engine's fast path)."""
        return [a.type for a in self.rounds] if self.fixed else []

    @cached_property
    def spends(self) -> tuple[int, int]:
        """Special and High Spot rounds in the per-round list."""
        written = [a for a in self.rounds if a is not None]
        return sum(a.type.special for a in written), sum(a.type.high_spot for a in written)

    def choose(self, round_no: int, style: str, occurrence: int, state: dict) -> tuple[Action, str]:
        """The action for a round, and why (for the writeup): condition, round, or style plan."""
        for condition in self.conditions:
            if condition.holds(round_no, state):
                return condition.action, f"conditional: {condition.text}"
        planned = self.rounds[round_no - 1] if round_no <= len(self.rounds) else None
        if planned is not None:
            return planned, ""
        for plan in self.by_style.get(style, ()):
            if plan.covers(occurrence):
                return plan.action, f"plan for {plan.action.source}"
        raise LookupError(f"no action for round {round_no} ({style} #{occurrence})")  # coverage was checked


def read_strategy(
    data: Any,
    file: str,
    sheet: Sheet,
    side: int,
    rounds: int,
    push_level: int,
    vocab: Vocabulary | None = None,
    opponent_conditions: bool = False,
) -> Strategy:
    """Check a parsed strategy against Part III and the wrestler's sheet.

    `side` is 0 for the first name on the card (grid letter), 1 for the second (grid number);
    `push_level` is the wrestler's level when the match is run (it caps Special rounds, II).
    Whether every round is covered depends on the match's style table: see `check_coverage`.
    """
    vocab = vocab or vocabulary()
    model = validate("fedtool.rulesets.matchmatch.strategymodel:StrategyModel", data, file, "MatchMatch strategy (III)")  # pydantic only when not checked before
    problems = Collector()
    rule_styles = "MatchMatch III.1"
    if model.wrestler is not None and model.wrestler != sheet.id and model.wrestler.casefold() != sheet.name.casefold():
        # `wrestler:` is optional; when given it must be this side's (by id or name): a
        # strategy naming someone else was sent for, or copied from, another wrestler
        problems.add(file, place(data, ("wrestler",)), f"this strategy names {model.wrestler[:80]!r}, but it is {sheet.name}'s ({sheet.id}): "
                     "a strategy is for the wrestler whose file it is", "MatchMatch III")

    plus: list[str] = []
    for index, word in enumerate(model.plus):
        style = vocab.style(word)
        if style is None:
            problems.add(file, place(data, ("plus", index)), f"{word!r} is not a style; the styles are {vocab.style_names()}", rule_styles)
        elif style == "teamwork":
            problems.add(file, place(data, ("plus", index)), "Teamwork cannot be a \"+\" style", rule_styles)
        else:
            plus.append(style)
    if len(model.plus) != 2:
        problems.add(file, place(data, ("plus",)), f"give exactly two \"+\" styles, not {len(model.plus)}", rule_styles)
    elif len(plus) == 2 and plus[0] == plus[1]:
        problems.add(file, place(data, ("plus",)), f"the two \"+\" styles must be different (both are {vocab.style_name(plus[0])})", rule_styles)
    minus = vocab.style(model.minus)
    if minus is None:
        problems.add(file, place(data, ("minus",)), f"{model.minus!r} is not a style; the styles are {vocab.style_names()}", rule_styles)

    grid = str(model.grid).strip().upper()
    if side < 2:
        axis, label = (GRID_LETTERS, "a letter A-C") if side == 0 else (GRID_NUMBERS, "a number 1-3")
        who = "the first name on the card" if side == 0 else "the second name on the card"
    else:  # docs/rulings/matchmatch.md: a third or fourth side picks a whole cell
        axis, label = tuple(letter + number for number in GRID_NUMBERS for letter in GRID_LETTERS), "a cell such as B3"
        who = f"side {side + 1} on the card"
    if grid not in axis:
        problems.add(file, place(data, ("grid",)), f"grid pick {model.grid!r}: {who} chooses {label}", rule_styles)

    def action(raw: Any, loc: tuple, round_no: int, source: str) -> Action | None:  # a strategymodel._Action (or its Kept values)
        round_type = vocab.round_type(raw.type)
        if round_type is None:
            hint = " (name the kind of Special: Finisher, Cripple, High Impact, Vile Cheat or Submission)" if raw.type.strip().lower() == "special" else ""
            problems.add(file, place(data, (*loc, "type"), source), f"{raw.type!r} is not a round type{hint}; the types are {vocab.type_names()}", "MatchMatch III.2")
        target = vocab.target(raw.target)
        if target is None:
            problems.add(file, place(data, (*loc, "target"), source), f"target {raw.target!r} is neither a style nor Stamina", "MatchMatch III.2: a round must have as a target one of the styles or Stamina")
        if round_type is None or target is None:
            return None
        text = "\n".join(t for t in (raw.explanation, raw.notes) if t)
        return Action(round_no, round_type, target, text, line_of(data, loc), source)

    # the per-round list
    by_round: list[Action | None] = [None] * rounds
    numbered = any(raw.round is not None for raw in model.rounds)
    for index, raw in enumerate(model.rounds):
        number = raw.round if numbered else index + 1
        loc = ("rounds", index)
        if numbered and raw.round is None:
            problems.add(file, place(data, loc), "give every entry a round number, or none of them", "MatchMatch III.2")
            continue
        if not 1 <= number <= rounds:
            problems.add(file, place(data, (*loc, "round")), f"round {number}: the match has rounds 1 to {rounds}", "MatchMatch III.2")
            continue
        if by_round[number - 1] is not None:
            problems.add(file, place(data, (*loc, "round")), f"round {number} is given twice", "MatchMatch III.2")
            continue
        by_round[number - 1] = action(raw, loc, number, f"round {number}")
    only_rounds = not model.styles and not model.conditions
    if only_rounds and len(model.rounds) != rounds and not numbered:
        problems.add(file, place(data, ("rounds",)), f"the match is {rounds} rounds; the strategy gives {len(model.rounds)} round actions", "MatchMatch III.2: a round action must be submitted for each round")

    # per-style plans
    by_style: dict[str, tuple[StylePlan, ...]] = {}
    for word, entries in model.styles.items():
        style = vocab.style(word)
        if style is None:
            problems.add(file, place(data, ("styles", word)), f"{word!r} is not a style to plan for; the styles are {vocab.style_names()}", "MatchMatch Part V")
            continue
        if style in by_style:
            problems.add(file, place(data, ("styles", word)), f"{vocab.style_name(style)} has two plans", "MatchMatch Part V")
            continue
        plans = []
        for index, raw in enumerate(entries):
            loc = ("styles", word, index)
            m = RANGE.match(str(raw.rounds))
            if not m or (m.group(2) and int(m.group(2)) < 1):
                problems.add(file, place(data, (*loc, "rounds")), f"{raw.rounds!r} is not a range of {vocab.style_name(style)} rounds: write 1, 3+, 2-4 or All", "MatchMatch Part V")
                continue
            first = 1 if m.group(1) else int(m.group(2))
            last = None if m.group(1) or m.group(3) == "+" else int(m.group(4)) if m.group(4) else first
            if last is not None and last < first:
                problems.add(file, place(data, (*loc, "rounds")), f"{raw.rounds!r} ends before it starts", "MatchMatch Part V")
                continue
            shown = "All" if m.group(1) else str(raw.rounds).strip()
            made = action(raw, loc, 0, f"{vocab.style_name(style)} {shown}")
            if made is not None:
                plans.append(StylePlan(first, last, made))
        by_style[style] = tuple(plans)

    # conditionals
    allowed = dict(OWN_CONDITIONS, **(OPPONENT_CONDITIONS if opponent_conditions else {}))
    conditions = []
    for index, raw in enumerate(model.conditions):
        loc = ("conditions", index)
        bad = False
        for key, n in raw.when.items():
            if key in OPPONENT_CONDITIONS and not opponent_conditions:
                problems.add(file, place(data, (*loc, "when", key)), f"{key}: this fed does not allow conditions on the opponent's state", "MatchMatch Part V: \"Conditionals based on the enemy's states may not be allowed\"")
                bad = True
            elif key not in allowed:
                problems.add(file, place(data, (*loc, "when", key)), f"{key!r} cannot be evaluated; conditions are {', '.join(allowed)}", "MatchMatch Part V: clear conditionals")
                bad = True
            elif not 0 <= n <= 200:
                problems.add(file, place(data, (*loc, "when", key)), f"{key}: {n} is not a round or Stamina", "MatchMatch Part V")
                bad = True
        made = action(raw, loc, 0, f"condition {index + 1}")
        if made is not None and not bad:
            text = " and ".join(allowed[k].format(n=n) for k, n in raw.when.items())
            conditions.append(Condition(dict(raw.when), replace(made, source=f"condition {index + 1} ({text})"), text))

    if only_rounds:
        # Part III.2 and II, checked as written: a plain per-round list is played as it stands
        written = [a for a in by_round if a is not None]
        specials = [a for a in written if a.type.special]
        if len(specials) > push_level:
            problems.add(
                file,
                place(data, ("rounds",)),
                f"{len(specials)} Special rounds (rounds {', '.join(str(a.round) for a in specials)}) but push level {push_level} allows {push_level}",
                "MatchMatch II/III.2: Special rounds no more than the push level",
            )
        high_spots = [a for a in written if a.type.high_spot]
        if len(high_spots) > sheet.high_spots:
            problems.add(
                file,
                place(data, ("rounds",)),
                f"{len(high_spots)} High Spot rounds (rounds {', '.join(str(a.round) for a in high_spots)}) but the sheet bought {sheet.high_spots}",
                "MatchMatch III.2: one High Spot round for each High Spot purchased",
            )
    problems.raise_if_any()
    return Strategy((plus[0], plus[1]), minus, grid, tuple(by_round), file, by_style=by_style, conditions=tuple(conditions))


def check_coverage(strategy: Strategy, table: list[str], rounds: int, vocab: Vocabulary | None = None) -> list[Problem]:
    """Every round must have an action whatever style it rolls (Part V: "make sure that the
    rounds in each style repeat"). The Nth occurrence of a style can come in any round from
    N on, so each style of the table needs plans for occurrences 1 up to the last round the
    per-round list leaves open."""
    vocab = vocab or vocabulary()
    open_rounds = [n for n in range(1, rounds + 1) if strategy.rounds[n - 1] is None]
    if not open_rounds:
        return []
    last_open = max(open_rounds)
    problems = []
    for style in dict.fromkeys(table):
        plans = strategy.by_style.get(style, ())
        missing = [n for n in range(1, last_open + 1) if not any(p.covers(n) for p in plans)]
        if missing:
            problems.append(
                Problem(
                    strategy.file,
                    f"style {vocab.style_name(style)}",
                    f"no action for the {_ordinal(missing[0])} {vocab.style_name(style)} round: the per-round list leaves round{'s' if len(open_rounds) > 1 else ''} {_span(open_rounds)} open"
                    + ("" if plans else f", and there is no plan for {vocab.style_name(style)}, which is in this match's style table"),
                    "MatchMatch III.2/Part V: an action for every round",
                )
            )
    return problems


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _span(numbers: list[int]) -> str:
    return f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 2 and numbers[-1] - numbers[0] == len(numbers) - 1 else ", ".join(map(str, numbers))
