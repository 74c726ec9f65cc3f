"""Face to the Mat and the league (issue 14: defects 2, 3, 4, 10, 11 and 12), each computed by
hand from the rulebook (../shared/rules/004_a5c62bc98893c12f.txt)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from fedtool.fed.settings import Fed
from fedtool.kernel.dice import ScriptedDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.base import Booking, WrestlerRecord
from fedtool.rulesets.facemat import FaceToTheMat, engine
from fedtool.rulesets.facemat.rules import data
from fedtool.week.booking import book_match
from test_facemat_input import run_weeks
from test_facemat_rules import quiet_tables, wrestler


def the_card(kind: str) -> dict:
    """The packaged deck's one card of a type."""
    return next(card for card in data()["facs"] if card["type"] == kind)


def set_card(fed: Path, week: int, text: str) -> None:
    (fed / f"strategies/week-{week:02d}/card.yaml").write_text(text)


# ---------------------------------------------------------------- 2: the Title Holder card


def test_the_title_holder_card_is_performed_by_the_league_s_champion(demo_fed, fedtool, monkeypatch):
    """Issue 14, defect 2. The Title Holder FAC's rule (facs.yaml, fac-119): "If one wrestler
    holds a title, that champion performs and scores 1d6". After `fedtool title award tv
    vince-valor` the core hands the champion to the ruleset (`MatchOnCard.champions`), and
    the card is his: FAC 1 is the Title Holder card, his 1d6 is a 4, so he moves to space 4.
    The deck is that one card; the reels do nothing (pre-match 1d6 + 2d6, post-match the same)."""
    result = fedtool("--fed", demo_fed, "title", "award", "tv", "vince-valor")
    assert result.exit_code == 0, result.output
    set_card(demo_fed, 4, "week: 4\nmatches:\n  - id: m1\n    ruleset: facemat\n    for_title: tv\n    sides: [vince-valor, the-warden]\n")
    booking = book_match(Fed.load(demo_fed), 4, "m1")
    assert booking.setup.champions == {"vince-valor": ("DCW Television Championship",)}
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([the_card("TITLE_HOLDER")]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    dice = ScriptedDice([1, 1, 1, 4, 1, 1, 1])
    played = engine.resolve(booking.setup, dice)
    facs = [ln.text for ln in played.lines if ln.kind == "fac"]
    assert facs == ["FAC 1: Vince Valor taps the gold around the waist, then takes it to The Warden the way a champion should. (DCW Television Championship)"]
    assert played.positions == [4, 0] and dice.remaining == 0
    assert not any("no champion" in ln.text for ln in played.lines)


def test_the_title_holder_card_does_nothing_without_a_champion(monkeypatch):
    """The same card with no champion in the match: "if neither does, nobody scores"."""
    monkeypatch.setattr(engine, "data", lambda: quiet_tables([the_card("TITLE_HOLDER")]))
    monkeypatch.setattr(engine, "FAC_GUARD", 1)
    played = engine.resolve(engine.Setup("m", (wrestler("a"), wrestler("b")), {}), ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert played.positions == [0, 0] and any("no champion in this match" in ln.text for ln in played.lines)
