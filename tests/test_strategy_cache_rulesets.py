"""The strategy cache of an intake (`Ruleset.book`'s `cache`) in Mat Clash, Face to the Mat
and Mad Match, as in MatchMatch (tests/test_intake_cache.py): checking each mail books its
whole match, and the other side's strategy file is read once per intake, not once per
mail; a file an earlier mail replaced is read anew, and what a kept reading says is what a
fresh one says, word for word.

Each check is made as the intake makes it (`fedtool.mail.intake`): the mail's strategy
written beside the card as `~incoming~<wrestler>.yaml` and checked as that wrestler's, strict,
with the intake's one cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import Collector
from fedtool.week.booking import card_context, week_card
from fedtool.week.status import check_strategy_file

FACEMAT_PLAN = """signature_moves: {BRAWL: a lariat}
finisher: the Lockdown
promo: "Nobody leaves."
"""

# ruleset -> (week, match, the side mailing, the other side, where his file's reading is made)
CASES = {
    "matclash": (3, "m1", "tommy-reyes", "gus-halvorsen", "fedtool.rulesets.matclash.policy.read_policy"),
    "facemat": (3, "m3", "vince-valor", "the-warden", "fedtool.rulesets.facemat.read_plan"),
    "madmatch": (5, "m2", "zelda-voss", "zeke-rennick", "fedtool.rulesets.madmatch.read_strategy"),
}
BROKEN = "nonsense: 1\n"  # a field no strategy has: his file is refused (the mail's own stands)


def outcome(check):
    return (check.file, check.layout, [(r.line, r.reading) for r in check.readings], check.match, [str(p) for p in check.problems],
            check.complete, [str(p) for p in check.blocked])


@pytest.mark.parametrize("ruleset", CASES)
def test_the_other_sides_strategy_is_read_once_per_intake(ruleset, demo_fed, monkeypatch):
    week, match_id, mailing, other, reader = CASES[ruleset]
    folder = demo_fed / f"strategies/week-{week:02d}"
    card = week_card(Fed.load(demo_fed), week)
    files = next(m for m in card.matches if m.id == match_id).strategy_files
    theirs = folder / files.get(other, f"{other}.yaml")
    ours = folder / files.get(mailing, f"{mailing}.yaml")
    if ruleset == "facemat":  # the demo's week 3 has no Face to the Mat strategies: the cards decide
        theirs.write_text(FACEMAT_PLAN)
        ours.write_text(FACEMAT_PLAN.replace("BRAWL", "AGILE"))
    fed = Fed.load(demo_fed)
    context = card_context(fed, week_card(fed, week), week, Collector())
    module, _, name = reader.rpartition(".")
    real = getattr(__import__(module, fromlist=[name]), name)
    read: list[str] = []

    def counted(data, shown, *args, **kwargs):
        read.append(Path(shown).name)
        return real(data, shown, *args, **kwargs)

    monkeypatch.setattr(reader, counted)
    cache: dict = {}

    def mail(text: str) -> tuple:
        """One mail's check, with the intake's cache and with none: the same words."""
        candidate = folder / f"~incoming~{mailing}.yaml"
        candidate.write_text(text)
        try:
            args = (fed, candidate, mailing, context)
            kept = outcome(check_strategy_file(*args, strict=True, match_id=match_id, cache=cache))
            fresh = outcome(check_strategy_file(*args, strict=True, match_id=match_id))
        finally:
            candidate.unlink()
        assert kept == fresh
        return kept

    mine = ours.read_text()
    for n in range(3):
        checked = mail(mine + f"# mail {n}\n")
        assert not checked[4] and not checked[6], checked  # it stands
    assert read.count(theirs.name) == 1 + 3  # once for the intake's three mails (the fresh checks: once each)

    theirs.write_text(theirs.read_text() + BROKEN)  # his own mail replaced his strategy: read anew
    mail(mine)
    assert read.count(theirs.name) == 4 + 2
    mail(mine + "# again\n")  # his refused reading is kept too
    assert read.count(theirs.name) == 6 + 1
    assert any(isinstance(kept[-1] if isinstance(kept, tuple) else kept, list) for kept in cache.values())  # a refusal, kept


def test_kept_reading_reads_once_keeps_refusals_minds_its_holder_and_stays_bounded():
    """`kept_reading` (rulesets/base.py), the one cache every ruleset's `book` keeps its
    strategies' readings in: read once per key, a refusal raised again without reading,
    a different holder under the same key read anew, and never more than KEPT_READINGS kept."""
    from fedtool.kernel.errors import FedError, Problem
    from fedtool.rulesets.base import KEPT_READINGS, kept_reading

    cache: dict = {}
    reads: list[str] = []

    def read(what):
        def reader():
            reads.append(what)
            if what == "bad":
                raise FedError(Problem("s.yaml", "line 1", "no such move", "strategy"))
            return what.upper()
        return reader

    sheet, other = object(), object()
    assert kept_reading(cache, ("k", "good"), sheet, read("good")) == "GOOD"
    assert kept_reading(cache, ("k", "good"), sheet, read("good")) == "GOOD"
    assert reads == ["good"]
    for _ in range(2):
        with pytest.raises(FedError) as refused:
            kept_reading(cache, ("k", "bad"), sheet, read("bad"))
        assert refused.value.problems[0].message == "no such move"
    assert reads == ["good", "bad"]
    assert kept_reading(cache, ("k", "good"), other, read("good")) == "GOOD"  # another holder: read anew
    assert reads == ["good", "bad", "good"]
    for n in range(KEPT_READINGS + 10):
        kept_reading(cache, ("n", n), None, lambda n=n: n)
    assert len(cache) == KEPT_READINGS
    assert ("n", KEPT_READINGS + 9) in cache and ("n", 0) not in cache  # the oldest went first
