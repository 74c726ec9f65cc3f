"""The strategy check's cache within one intake (issue 18, item 4: each strategy read once per
intake): what checking a mail keeps of the other side's strategy is kept by the file's text,
so a strategy an earlier mail of the same intake replaced is read anew, in the mailbox's
order, whether the mails are judged one by one or side by side in workers."""

from __future__ import annotations

import datetime
import shutil
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import Collector
from fedtool.mail import intake as intake_module
from fedtool.mail import workers as workers_module
from fedtool.mail.intake import intake
from fedtool.week.booking import card_context, week_card
from fedtool.week.status import check_strategy_file

from test_inbox import mail, maildir, replies

NOW = datetime.datetime(2026, 11, 20, 18, tzinfo=datetime.timezone.utc)
BOB, SAM, EARL, HANK = "bob@players.example", "sam@players.example", "earl@players.example", "hank@players.example"

# Brother Bob (side 1 of m1, grid pick C) plays rounds 1-5 as written and plans the rest by
# style for Brawling, Cheating, High-Flying, Technical and Weight only: MatchMatch IV.1.a's
# style table is both sides' "+" styles and the grid style, and Part V ("make sure that the
# rounds in each style repeat") wants a plan for every style of that table. Against Sam's
# demo strategy (+ High-Flying, Technical; grid 3: column C row 3 is Weight) it stands;
# against a Sam with "+ Martial Arts" it does not.
BOB_PLANS = """plus: [Brawling, Cheating]
minus: Martial Arts
grid: C
rounds:
- {target: Stamina, type: Normal, explanation: Fists.}
- {target: Stamina, type: Normal, explanation: Boots.}
- {target: Stamina, type: Normal, explanation: Chops.}
- {target: Stamina, type: Normal, explanation: Rakes.}
- {target: Stamina, type: Normal, explanation: Knees.}
styles:
""" + "".join(f"  {style}:\n  - {{rounds: All, target: Stamina, type: Normal, explanation: {style} all night.}}\n"
              for style in ("Brawling", "Cheating", "High-Flying", "Technical", "Weight"))


def sam_with(demo_fed, plus: str) -> str:
    return (demo_fed / "strategies/week-01/friendly-sam.yaml").read_text().replace("plus: [High-Flying, Technical]", f"plus: [{plus}]")


def verdicts(report):
    return [(o.message_id, o.verdict) for o in report.outcomes]


def test_a_strategy_replaced_by_an_earlier_mail_is_what_the_next_mail_is_checked_against(demo_fed, tmp_path):
    """Bob's plans stand against Sam's strategy on file; Sam then mails one with Martial Arts
    (filed); Bob's same plans, mailed again, are checked against the new Sam and refused
    (a reading of Sam's first file kept past his second would accept them)."""
    mails = [
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-1@x>"),
        mail(SAM, "Week 1 friendly-sam", sam_with(demo_fed, "Martial Arts, Technical"), message_id="<sam-1@x>"),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# second\n", message_id="<bob-2@x>"),
        mail(SAM, "Week 1 friendly-sam", sam_with(demo_fed, "High-Flying, Technical"), message_id="<sam-2@x>"),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-3@x>"),  # the first text again: stands again
    ]
    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails), NOW, workers=1)
    assert verdicts(report) == [("<bob-1@x>", "accepted"), ("<sam-1@x>", "accepted"), ("<bob-2@x>", "refused"),
                                ("<sam-2@x>", "accepted"), ("<bob-3@x>", "accepted")]
    refusal = next(text for text in replies(report).values() if "was not accepted" in text)
    assert "no action for the 1st Martial Arts round" in refusal
    assert (demo_fed / "strategies/week-01/brother-bob.yaml").read_text().endswith("# first\n")


def test_the_same_in_workers_side_by_side(demo_fed, tmp_path, monkeypatch):
    """The same five mails among 80 for another match (m2), so the mailbox is judged side by
    side in worker processes (each with its own cache): m1's mails, in one worker, in the
    mailbox's order, give the verdicts, files, answers and records of judging one by one."""
    earl = (demo_fed / "strategies/week-01/big-earl.yaml").read_text()
    hank = (demo_fed / "strategies/week-01/rocky-ridge.yaml").read_text()
    ours = [
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-1@x>"),
        mail(SAM, "Week 1 friendly-sam", sam_with(demo_fed, "Martial Arts, Technical"), message_id="<sam-1@x>"),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# second\n", message_id="<bob-2@x>"),
        mail(SAM, "Week 1 friendly-sam", sam_with(demo_fed, "High-Flying, Technical"), message_id="<sam-2@x>"),
        mail(BOB, "Week 1 brother-bob", BOB_PLANS + "# first\n", message_id="<bob-3@x>"),
    ]
    others = [mail(EARL, "Week 1 big-earl", earl + f"# {i}\n", message_id=f"<earl-{i}@x>") if i % 2 else
              mail(HANK, "Week 1 rocky-ridge", hank + f"# {i}\n", message_id=f"<hank-{i}@x>") for i in range(80)]
    box = maildir(tmp_path, others[:20] + ours[:2] + others[20:50] + ours[2:] + others[50:])
    serial = tmp_path / "serial"
    shutil.copytree(demo_fed, serial)
    forked = []
    real = workers_module.judge_side_by_side

    def counted(segment, places, workers, judge, ready=None):
        forked.append(len(segment))
        return real(segment, places, workers, judge, ready)

    monkeypatch.setattr(workers_module, "judge_side_by_side", counted)
    monkeypatch.setattr(intake_module, "workers_pay", lambda asked: 1 if asked == 1 else 2)  # side by side even on one core
    one = intake(Fed.load(serial), box, NOW, workers=1)
    many = intake(Fed.load(demo_fed), box, NOW)
    assert forked and forked[0] == 85  # the workers judged the whole mailbox
    ours_seen = [v for v in verdicts(many) if v[0].startswith(("<bob", "<sam"))]
    assert ours_seen == [("<bob-1@x>", "accepted"), ("<sam-1@x>", "accepted"), ("<bob-2@x>", "refused"),
                         ("<sam-2@x>", "accepted"), ("<bob-3@x>", "accepted")]
    assert verdicts(one) == verdicts(many)
    files = lambda root: {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".yaml", ".eml")}
    assert files(serial / "strategies") == files(demo_fed / "strategies")
    assert files(serial / "outbox") == files(demo_fed / "outbox")
    with sqlite3.connect(serial / "fed.db") as a, sqlite3.connect(demo_fed / "fed.db") as b:
        query = "SELECT message_id, verdict, why, week, wrestler_id FROM inbox_seen ORDER BY message_id"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


# Lines a player's strategy may lose or gain: a cached check must say exactly what a fresh
# one says, whatever the text (broken YAML, a broken strategy, one that stands).
EDITS = st.lists(st.tuples(st.integers(0, 30), st.sampled_from(["", "plus: [Teamwork, Power]", "grid: 7", "- {target: Nowhere, type: Normal}",
                                                                  "minus: Stamina", "  - {rounds: 3+, target: Power, type: Normal}", "wrestler: someone-else",
                                                                  "{", "round: 4", "# a comment"])), max_size=4)


def edited(text: str, edits) -> str:
    lines = text.splitlines()
    for at, line in edits:
        at %= len(lines) + 1
        if line == "" and at < len(lines):
            del lines[at]
        else:
            lines.insert(at, line)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def checked_fed(tmp_path_factory):
    from pathlib import Path

    root = tmp_path_factory.mktemp("cachefed")
    demo = Path(__file__).resolve().parent.parent
    for name in ("rosters", "strategies", "templates"):
        shutil.copytree(demo / name, root / name)
    fed = Fed.load(root)
    return fed, card_context(fed, week_card(fed, 1), 1, Collector())


def outcome(check):
    return (check.file, check.layout, [(r.line, r.reading) for r in check.readings], check.match, [str(p) for p in check.problems],
            check.complete, [str(p) for p in check.blocked])


@settings(max_examples=40, deadline=None)
@given(bob=EDITS, sam=EDITS, order=st.permutations(range(4)))
def test_a_kept_reading_is_the_fresh_reading(checked_fed, bob, sam, order):
    """Each side's file checked, as a candidate and as filed, with one cache throughout and
    with none: the same readings and problems, word for word, each naming its own file."""
    fed, context = checked_fed
    folder = fed.week_dir(1)
    texts = {"brother-bob": edited(BOB_PLANS, bob), "friendly-sam": edited(sam_with(fed.root, "High-Flying, Technical"), sam)}
    (folder / "brother-bob.yaml").write_text(texts["brother-bob"])
    (folder / "friendly-sam.yaml").write_text(texts["friendly-sam"])
    cache: dict = {}
    steps = [("brother-bob", True), ("friendly-sam", True), ("brother-bob", False), ("friendly-sam", False)]
    for index in order:
        wrestler, as_candidate = steps[index]
        path = folder / (f"~incoming~{wrestler}.yaml" if as_candidate else f"{wrestler}.yaml")
        if as_candidate:
            path.write_text(texts[wrestler])
        try:
            args = (fed, path, wrestler if as_candidate else None, context)
            fresh = outcome(check_strategy_file(*args, strict=True, match_id="m1"))
            kept = outcome(check_strategy_file(*args, strict=True, match_id="m1", cache=cache))
            again = outcome(check_strategy_file(*args, strict=True, match_id="m1", cache=cache))
        finally:
            if as_candidate:
                path.unlink()
        assert kept == fresh == again
