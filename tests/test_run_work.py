"""A week's run does its work once (issue 18, item 1: `fedtool run 1` under 0.25 s), with
the same outbox and the same league as the long way: each match booked once (the strategies'
check's booking taken by the run), MatchMatch's round rows built without asdict, plain YAML
scalars built directly, and the staged outbox flushed file by file side by side."""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

import fedtool.week.run as run_module
from fedtool.fed import files
from fedtool.fed.settings import Fed
from fedtool.kernel import yamlio
from fedtool.kernel.dice import SeededDice
from fedtool.kernel.errors import FedError
from fedtool.rulesets.matchmatch import MatchMatch, _plain
from fedtool.week.booking import book_all, card_context, week_card
from fedtool.week.run import run_week

NOW = datetime.datetime(2026, 1, 4, 12, 0, tzinfo=datetime.timezone.utc)


def _outbox(fed: Path) -> dict[str, bytes]:
    root = fed / "outbox"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _league(fed: Path) -> list[str]:
    """Every row of the league but the migrations' times (when the file was made)."""
    connection = sqlite3.connect(fed / "fed.db")
    try:
        return [line for line in connection.iterdump() if "_sqlite_migrations" not in line]
    finally:
        connection.close()


def _spoil_for_defaults(fed: Path) -> None:
    """The fed plays MatchMatch's default for a side without a strategy (`missing_strategy:
    default`), and Victor Vane (m4) sent none: m4 is booked the long way, the rest are not."""
    path = fed / "rosters" / "fed.yaml"
    path.write_text(path.read_text().replace("  matchmatch:\n", "  matchmatch:\n    missing_strategy: default\n", 1))
    (fed / "strategies" / "week-01" / "victor-vane.yaml").unlink()


@pytest.mark.parametrize("spoil", [False, True], ids=["demo", "a-default-plays"])
def test_a_run_taking_the_checks_bookings_writes_what_booking_anew_writes(tmp_path: Path, demo_fed: Path, monkeypatch, spoil: bool) -> None:
    """The outbox (every byte) and the league (every row) of a run that takes each match's
    booking from the strategies' check are those of a run that books every match again."""
    import shutil

    if spoil:
        _spoil_for_defaults(demo_fed)
    long_way = tmp_path / "long"
    shutil.copytree(demo_fed, long_way)
    run_week(Fed.load(demo_fed), 1, now=NOW)
    with monkeypatch.context() as patch:
        patch.setattr(run_module, "strict_bookings", lambda booked: {})  # every match booked anew, as before issue 18
        run_week(Fed.load(long_way), 1, now=NOW)
    assert _outbox(demo_fed) == _outbox(long_way) and len(_outbox(demo_fed)) > 20
    assert _league(demo_fed) == _league(long_way)
    if spoil:  # the default did play for m4: the check is not vacuous
        assert any("Victor Vane sent no strategy" in line for line in _league(demo_fed))


def _count_bookings(monkeypatch) -> Counter:
    """A count of MatchMatch bookings by match id, kept as the run books."""
    booked: Counter = Counter()
    book = MatchMatch.book

    def counting(self, card, match, *args, **kwargs):
        booked[match.id] += 1
        return book(self, card, match, *args, **kwargs)

    monkeypatch.setattr(MatchMatch, "book", counting)
    return booked


def test_a_run_books_each_match_once(demo_fed: Path, monkeypatch) -> None:
    """Each match's strategies read and checked once in a run: the strategies' check books
    it (strict) and the run takes that booking. Was twice each (the check's, then the run's)."""
    booked = _count_bookings(monkeypatch)
    run_week(Fed.load(demo_fed), 1, now=NOW)
    assert booked == Counter({m: 1 for m in ("m1", "m2", "m3", "m4", "m5")})


def test_a_match_whose_strict_booking_failed_is_booked_under_the_feds_settings(demo_fed: Path, monkeypatch) -> None:
    """Victor Vane sent no strategy and the fed plays the default: the check's strict booking
    of m4 is refused, so the run books m4 itself (twice in all) and the others once."""
    _spoil_for_defaults(demo_fed)
    booked = _count_bookings(monkeypatch)
    run_week(Fed.load(demo_fed), 1, now=NOW)
    assert booked == Counter({"m1": 1, "m2": 1, "m3": 1, "m4": 2, "m5": 1})


def test_the_bookings_a_run_takes_are_the_bookings_it_would_make(demo_fed: Path) -> None:
    """Booking by booking: the check's (strict) booking the run takes has the setup, notes and
    phrase key of the match booked under the fed's settings."""
    from fedtool.week.status import strict_bookings, week_status

    _spoil_for_defaults(demo_fed)
    fed = Fed.load(demo_fed)
    card = week_card(fed, 1)
    context = card_context(fed, card, 1)
    booked: dict = {}
    week_status(fed, 1, NOW, context, booked)
    taken = strict_bookings(booked)
    assert sorted(taken) == ["m1", "m2", "m3", "m5"]  # m4's strict booking is refused (no strategy)
    fresh = {b.match.id: b for b in book_all(fed, card, context.wrestlers, context.states)}
    for match_id, booking in taken.items():
        again = fresh[match_id]
        assert (booking.setup, booking.notes, booking.extra, booking.story_key) == (again.setup, again.notes, again.extra, again.story_key)
        assert booking.commentary is again.commentary and booking.wrestlers == again.wrestlers


# ---------------------------------------------------------------- MatchMatch's round rows


def test_round_rows_are_asdicts_rows_over_many_matches(demo_fed: Path) -> None:
    """`round_rows` without dataclasses.asdict: the same rows, byte for byte in their JSON,
    for the demo week's five matches each played on 80 seeds (400 matches)."""
    fed = Fed.load(demo_fed)
    card = week_card(fed, 1)
    context = card_context(fed, card, 1)
    ruleset = MatchMatch()
    compared = 0
    for booking in book_all(fed, card, context.wrestlers, context.states):
        for seed in range(80):
            dice = SeededDice(seed * 7919 + 17)
            dice.round = 0
            result = ruleset.resolve(booking, dice)
            expected = [{"round": r.number, "style": r.style, "winner": r.winner, "margin": r.margin,
                         "detail": json.dumps(_plain(dataclasses.asdict(r)))} for r in result.rounds]
            assert ruleset.round_rows(result) == expected
            compared += len(expected)
    assert compared > 400


# ---------------------------------------------------------------- YAML


class _Slow(yamlio.loader()):
    fast_scalars = False  # PyYAML's own construct_object for every node


def _both(text: str):
    """The loader's data (with its lines) or its error, fast and slow."""
    out = []
    for loader in (yamlio.loader(), _Slow):
        try:
            data = yaml.load(text, Loader=loader)  # noqa: S506 - fedtool's safe loader
            out.append(("data", repr(data), _lines(data)))
        except yaml.YAMLError as exc:
            out.append(("error", str(exc)))
        except Exception as exc:  # what parse_yaml turns into a FedError
            out.append(("raised", type(exc).__name__, str(exc)))
    return out


def _lines(data) -> list:
    if isinstance(data, yamlio.LineDict):
        return [data.line, data.lines, data.key_lines, [_lines(v) for v in data.values()]]
    if isinstance(data, yamlio.LineList):
        return [data.line, data.lines, [_lines(v) for v in data]]
    return [type(data).__name__]


def test_fast_scalars_read_every_yaml_file_of_the_repository_as_before() -> None:
    root = Path(__file__).resolve().parent.parent
    paths = [p for folder in ("rosters", "strategies", "templates", "fedtool", "tests") for p in (root / folder).rglob("*.yaml")]
    assert len(paths) > 50
    for path in paths:
        fast, slow = _both(path.read_text(encoding="utf-8"))
        assert fast == slow, path


_SCALARS = st.sampled_from(["1", "-3", "0x1F", "0o17", "1_000", "3.5", ".inf", "-.nan", "1e3", "yes", "No", "true", "off", "~", "null", "",
                            "'quoted'", '"dq \\u00e9"', "plain text", "2026-02-30", "2026-01-04", "2026-01-04 12:00:00", "!!str 5", "!!int '7'",
                            "!!float 2", "!!bool yes", "!!null ''", "!!binary aGk=", "!!int x", "!!python/int 3", "&a 1", "*a", "<<: {a: 1}", "! x"])


@st.composite
def _documents(draw, depth: int = 0) -> str:
    kind = draw(st.sampled_from(["scalar", "map", "seq", "flow"]) if depth < 3 else st.just("scalar"))
    pad = "  " * depth
    if kind == "scalar":
        return draw(_SCALARS)
    if kind == "flow":
        return "[" + ", ".join(draw(st.lists(_SCALARS.filter(lambda s: not s.startswith(("<<", "&", "*"))), max_size=4))) + "]"
    items = draw(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "1", "yes", "~", "2026-01-04"]), _documents(depth + 1)), min_size=1, max_size=4))
    if kind == "map":
        return "\n" + "".join(f"{pad}{key}: {value if not value.startswith(chr(10)) else value}\n" for key, value in items).rstrip("\n")
    return "\n" + "".join(f"{pad}- {value}\n" for _, value in items).rstrip("\n")


@settings(max_examples=200, deadline=None)
@given(_documents())
def test_fast_scalars_read_any_document_as_pyyamls_construct_object(text: str) -> None:
    """Data, types, lines and errors (aliases refused, unknown tags, bad dates) alike."""
    text = text.lstrip("\n")
    assert _both(text)[0] == _both(text)[1]


def test_an_alias_of_a_plain_scalar_is_still_refused() -> None:
    with pytest.raises(FedError, match="anchors and aliases"):
        yamlio.parse_yaml("a: &x word\nb: *x\n", "f.yaml")


# ---------------------------------------------------------------- the staged outbox's flush


def test_sealing_flushes_every_file_and_folder_before_it_returns(tmp_path: Path, monkeypatch) -> None:
    """The files are flushed side by side, but every one of them, and every folder of the
    staging and the folder it lands in, before `seal` returns (the league commits next)."""
    flushed: list[str] = []
    fsync = os.fsync

    def recording(fd: int) -> None:
        fsync(fd)
        flushed.append(os.readlink(f"/proc/self/fd/{fd}"))

    monkeypatch.setattr(os, "fsync", recording)
    final = tmp_path / "outbox" / "week-01"
    with files.StagedDir(final, tag="run1") as stage:
        names = [f"m{n}.md" for n in range(30)] + [f"mail/p{n}.eml" for n in range(5)]
        for name in names:
            stage.write(name, name)
        stage.seal()
        done = Counter(flushed)
        assert all(done[str(stage.path / name)] == 1 for name in names)
        assert done[str(stage.path)] == 1 and done[str(stage.path / "mail")] == 1 and done[str(final.parent)] == 1
        stage.swap()
    assert sorted(p.name for p in final.iterdir()) == sorted({n.split("/")[0] for n in names})


def test_a_flush_that_fails_fails_the_seal(tmp_path: Path, monkeypatch) -> None:
    fsync = os.fsync

    def failing(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").endswith("m7.md"):
            raise OSError(5, "Input/output error")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output"):
        with files.StagedDir(tmp_path / "outbox" / "week-01", tag="run1") as stage:
            for n in range(20):
                stage.write(f"m{n}.md", "x")
            stage.seal()


def test_a_run_opens_the_league_once_to_read_it(demo_fed: Path, monkeypatch) -> None:
    """The run reads the card's states, the strategies' mails and its own checks through one
    connection (a new fed's league file is then made once, to write the week). Was three
    opens to read (the run's, the card's states', the status')."""
    import fedtool.week.booking as booking_module
    import fedtool.week.status as status_module
    from fedtool.league import db as league

    opened: list[bool] = []
    real = league.open_league

    def counting(path, create=True):
        opened.append(create)
        return real(path, create)

    for module in (run_module, booking_module, status_module):
        monkeypatch.setattr(module, "open_league", counting)
    run_week(Fed.load(demo_fed), 1, now=NOW)
    assert opened == [False, True]  # read (no file yet: in memory), then the new league's file to write


def test_each_wrestlers_ruleset_is_the_one_the_league_gave_wrestler_by_wrestler(demo_fed: Path) -> None:
    """The week's close groups the league's wrestlers by ruleset: looked up in one query (was
    one per wrestler not on the card, for every ruleset), the same as row by row."""
    from fedtool.league.db import open_league

    fed = Fed.load(demo_fed)
    run_week(fed, 1, now=NOW)
    run_week(fed, 2, now=NOW + datetime.timedelta(days=7))
    db = open_league(fed.database)
    card = week_card(fed, 3)
    wrestlers = card_context(fed, card, 3).wrestlers
    everyone = [row["id"] for row in db["wrestlers"].rows] + [w for w in wrestlers] + ["never-heard-of-him"]
    assert len([w for w in everyone if w not in wrestlers]) > 3

    def one_by_one(wid: str) -> str:
        if wid in wrestlers:
            return wrestlers[wid].ruleset
        rows = list(db["wrestlers"].rows_where("id = ?", [wid]))
        return rows[0]["ruleset"] if rows else fed.settings.ruleset

    assert run_module._rulesets_of(db, wrestlers, everyone, fed) == {wid: one_by_one(wid) for wid in everyone}
    assert len(set(run_module._rulesets_of(db, wrestlers, everyone, fed).values())) > 1


# ---------------------------------------------------------------- a run's mails as the email package writes them


def test_a_run_s_mails_are_the_email_packages_mails(demo_fed: Path) -> None:
    """Every mail of the demo week, as `email_text` writes it, is the email package's own
    (headers folded by the policy, parts as its generator writes them)."""
    from email import message_from_bytes, policy

    from fedtool.fed.render import MAIL_POLICY

    run_week(Fed.load(demo_fed), 1, now=NOW)
    mails = sorted((demo_fed / "outbox" / "week-01" / "mail").glob("*.eml"))
    assert len(mails) > 5
    for path in mails:
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert message["Message-ID"].startswith("<") and "=_fedtool_" in message["Content-Type"]
        again = "".join(MAIL_POLICY.fold(name, MAIL_POLICY.header_store_parse(name, str(value))[1]) for name, value in message.items())
        assert path.read_text().split("\n\n", 1)[0] + "\n" == again
