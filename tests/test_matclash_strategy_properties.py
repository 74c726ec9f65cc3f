"""Mat Clash strategies in the plan language, at random (hypothesis): over thousands of
situations from real scraps, the engine never plays a card the policy forbids, never
declines a card the policy asks for when it is legal, and plays in the order `fedtool read`
describes (docs/mat-clash-strategy.md).

The policies are YAML files made of random plan lines (conditions and actions from the
language), random `prefer:`/`only:`/`never:` lists and random thresholds. Each decision the
engine asks for is checked against the policy's own description (`describe_order`, the text
`fedtool read` prints) with the default's thresholds judged here, independently.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import SeededDice
from fedtool.kernel.yamlio import parse_yaml
from fedtool.rulesets.matclash import cards, engine
from fedtool.rulesets.matclash.names import members
from fedtool.rulesets.matclash.policy import Policy, State, _key_text, read_policy

FULL = cards.build_deck(("wave1", "wave2", "wave3", "short_print"))
TURN = ["takedown", "feet_to_back", "escape", "escape_2", "reversal", "near_fall", "near_fall_3", "spladle", "pin", "mat_beast",
        "stalling", "comeback", "mindset", "wizardry", "resilience", "beastin", "tie", "Takedown +3", "Near Fall +4"]
CONDITIONS = ["after transition {n}", "before transition {n}", "in transition {n} or later", "when leading by {n} or more",
              "when trailing", "when tied", "when leading by {n} or less", "with {n} or fewer cards in the deck", "with no draws left",
              "when they have shown {card}", "when they cannot hold beastin", "holding 2 or more defense", "on top", "on bottom",
              "in neutral", "when my score is {n} or more"]
ACTIONS = ["prefer {cards}", "only {cards}", "never {cards}", "hold {n} defense", "hold 1 beastin", "answer takedown with defense, scramble",
           "answer pin only with defense", "never answer reversal", "draw always", "draw never", "momentum always", "never momentum", "never cut_em"]


@st.composite
def plan_lines(draw):
    n = lambda: draw(st.integers(0, 6))  # noqa: E731
    conds = [c.format(n=n(), card=draw(st.sampled_from(["defense", "beastin", "takedown"])))
             for c in draw(st.lists(st.sampled_from(CONDITIONS), max_size=2))]
    action = draw(st.sampled_from(ACTIONS)).format(n=n(), cards=", ".join(draw(st.lists(st.sampled_from(TURN), min_size=1, max_size=3))))
    return ", ".join(conds + [action])


@st.composite
def strategies_(draw):
    lines = draw(st.lists(plan_lines(), max_size=5))
    text = ""
    if lines:
        text += "plan:\n" + "".join(f"  - {line}\n" for line in lines)
    for key in ("prefer", "only"):
        chosen = draw(st.dictionaries(st.sampled_from(["neutral", "top", "bottom"]), st.lists(st.sampled_from(TURN), min_size=1, max_size=4), max_size=2 if key == "prefer" else 1))
        if chosen:
            text += f"{key}:\n" + "".join(f"  {k}: [{', '.join(repr(c) for c in v)}]\n" for k, v in chosen.items())
    if draw(st.booleans()):
        text += f"never: [{draw(st.sampled_from(TURN))!r}]\n"
    text += f"stall_when_leading_by: {draw(st.integers(0, 6))}\n" if draw(st.booleans()) else ""
    text += f"tie_when_trailing_by: {draw(st.integers(1, 6))}\nwizardry_when_erasing: {draw(st.integers(0, 8))}\n"
    text += f"draw: {draw(st.sampled_from(['when_stuck', 'always', 'never']))}\nhold: {{defense: {draw(st.integers(0, 2))}}}\n"
    return text


def gate_holds(text: str, p: Policy, scrap, i: int) -> bool:
    """The default's thresholds, judged here from the fields (docs/mat-clash-strategy.md, "The default")."""
    m = p.model
    behind = scrap.points[1 - i] - scrap.points[i]
    if text.endswith("(never)"):
        return False
    if "behind)" in text:
        return behind >= m.tie_when_trailing_by
    if "erases" in text:
        return sum(scrap.stacks[1 - i][n][1] for n in scrap.erasable(i)) >= m.wizardry_when_erasing
    if "once Pins are legal" in text:
        return m.resilience_when_leading and behind < 0 and scrap.transitions >= scrap.pin_after
    if "when ahead by" in text:
        return m.stall_when_leading_by is not None and -behind >= m.stall_when_leading_by
    return not text.endswith("(never)")


def play_text(play) -> str:
    return _key_text(Policy.key(play))


def forbidden(p: Policy, rules, play) -> bool:
    keys = {Policy.key(play)}
    never = set()
    for r in rules:
        for name in r.never:
            never |= set(members(name))
            if play.card.action == "wild" and (name in ("beastin", "beastin_sp") or play.action in [cards.catalogue()[c].action for c in members(name)]):
                never.add(Policy.key(play))
    allowed = None
    for r in rules:
        if r.only is not None:
            ok = set(members_all(r.only)) | {f"{w}:{a}" for w in ("beastin", "beastin_sp") for a in actions_of(r.only)}
            allowed = ok if allowed is None else allowed & ok
    return bool(keys & never) or (allowed is not None and not keys & allowed)


def members_all(names):
    return [m for n in names for m in members(n)]


def actions_of(names):
    out = set()
    for n in names:
        for cid in members(n):
            card = cards.catalogue()[cid]
            out |= {"takedown", "reversal", "escape", "stalling"} if card.action == "wild" else {card.action}
    return out


class Watch:
    """Wraps a policy: every turn decision the engine asks for is checked."""

    checked = 0

    def __init__(self, policy: Policy, readings: dict):
        self.p, self.readings = policy, readings

    def choose(self, scrap, i, options):
        choice = self.p.choose(scrap, i, options)
        state = State(scrap, i)
        rules = self.p.applying(state)
        described = self.p.describe_order(state.position, rules)
        conditional = [r for r in rules if r.conds]
        if not conditional:  # what `fedtool read` prints for the situation is the order used
            assert described == self.readings[state.position], (described, self.readings[state.position])
        plan = self.p.plan(state)
        ranked = []
        for play in options:
            text = play_text(play)
            found = [n for n, entry in enumerate(described) if entry == text or entry.startswith(text + " (")]
            if not found or not gate_holds(described[found[0]], self.p, scrap, i):
                continue
            if play.card.action == "wild" and Policy._held(scrap, i, play.card, plan):
                continue
            ranked.append((found[0], play))
        if choice is not None:
            assert not forbidden(self.p, rules, choice), (choice, [r.text for r in rules])
        asked = [play for play in options if not forbidden(self.p, rules, play)
                 and any(cards.catalogue()[c].id == play.card.id for r in rules for c in members_all(r.prefer + (r.only or [])))
                 and not (play.card.action == "wild" and Policy._held(scrap, i, play.card, plan))]
        if asked:
            assert choice is not None, ("declined", asked, [r.text for r in rules])
        if ranked:
            best = min(n for n, _ in ranked)
            assert choice is not None and play_text(choice) == play_text(next(p for n, p in ranked if n == best)), (choice, ranked, described)
        else:
            assert choice is None, (choice, described)
        Watch.checked += 1
        return choice

    def answer(self, scrap, i, threat, options):
        return self.p.answer(scrap, i, threat, options)

    def wants_draw(self, scrap, i, options):
        return self.p.wants_draw(scrap, i, options)

    def use_cut_em(self, scrap, i):
        return self.p.use_cut_em(scrap, i)

    def use_momentum(self, scrap, i, scored_takedown):
        return self.p.use_momentum(scrap, i, scored_takedown)


def readings_by_position(p: Policy) -> dict:
    out = {}
    for r in p.readings():
        m = re.fullmatch(r"in (neutral|top|bottom): plays (.*), else passes", r.reading)
        if m:
            out[m.group(1)] = [] if m.group(2) == "nothing" else m.group(2).split(", ")
    # the default's "never" thresholds are left out of the reading: put them back for comparison
    for pos in out:
        full = [t for t in p.describe_order(pos, [r for r in p.rules if not r.conds and (r.positions is None or pos in r.positions)])]
        assert [t for t in full if not t.endswith("(never)")] == out[pos]
        out[pos] = full
    return out


def _scrap_keeping(made: list):
    class Kept(engine.Scrap):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            made.append(self)
    return Kept


# derandomized: the examples are the same every run, so the count of decisions checked below
# is a fixed figure, not a draw that now and then falls under it (it fell to 1,924 once in CI)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.lists(strategies_(), min_size=2, max_size=2), st.integers(0, 2**32))
def check_random_plans(texts, seed):
    policies = [read_policy(parse_yaml(t, f"s{k}.yaml"), f"s{k}.yaml") for k, t in enumerate(texts)]
    watched = [Watch(p, readings_by_position(p)) for p in policies]
    never = [{m for r in p.rules if not r.conds and r.positions is None for n in r.never for m in members(n)} for p in policies]
    made: list = []
    original = engine.Scrap
    engine.Scrap = _scrap_keeping(made)
    try:
        for k in range(6):
            assert engine.quick_scrap(["A", "B"], watched, FULL, SeededDice(seed + k)).winner in (0, 1)
    finally:
        engine.Scrap = original
    # no card a file forbids outright (`never:` with no condition) was ever played, as a turn,
    # an answer or an extra play
    for scrap in made:
        for i in (0, 1):
            assert not {c.id for c in scrap.shown[i] if c.action != "wild"} & never[i]


def test_random_plans_play_as_they_read():
    """Over the examples, thousands of real decisions are checked."""
    before = Watch.checked
    check_random_plans()
    assert Watch.checked - before >= 2000
