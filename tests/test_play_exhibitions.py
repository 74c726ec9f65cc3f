"""`fedtool play` never writes into a week's results (issue 13): exhibitions go to
outbox/exhibitions/<folder>/, and `fedtool send` never sends them, nor the results of a week
the league does not hold."""

from __future__ import annotations

import shutil

from conftest import snapshot
from golden import FIXED_EPOCH
from test_send import smtp_server, with_smtp  # noqa: F401  (the aiosmtpd fixture)

WRITEUPS = {f"m{n}.{kind}" for n in range(1, 6) for kind in ("md", "html")}
CARD_FILES = {"card.md", "card.html", "dice.txt"}
DEMO_MAILS = {f"mail/{name}.eml" for name in ("bob-players-example", "card", "dana-players-example", "earl-players-example", "hank-players-example",
                                              "kate-players-example", "luis-players-example", "mei-players-example", "sabrina-players-example",
                                              "sam-players-example", "vic-players-example")}  # week 1's: ten players' and the list's


def test_playing_a_weeks_card_writes_an_exhibition_and_leaves_the_week_alone(demo_fed, fedtool, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    week = snapshot(demo_fed / "outbox/week-01")
    league = snapshot(demo_fed)["fed.db"]
    result = fedtool("play", demo_fed / "strategies/week-01", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("24 files in outbox/exhibitions/week-01\n")
    assert snapshot(demo_fed / "outbox/week-01") == week  # byte for byte
    assert snapshot(demo_fed)["fed.db"] == league
    exhibition = snapshot(demo_fed / "outbox/exhibitions/week-01")
    assert set(exhibition) == WRITEUPS | CARD_FILES | DEMO_MAILS
    assert sorted(p.name for p in (demo_fed / "outbox").iterdir()) == ["exhibitions", "week-01"]


def test_send_after_play_sends_nothing_from_the_exhibitions(demo_fed, fedtool, smtp_server, monkeypatch):  # noqa: F811
    inbox, port = smtp_server
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    with_smtp(demo_fed, port)
    assert fedtool("play", demo_fed / "strategies/week-02", "--fed", demo_fed).exit_code == 0  # a week not run: nothing to send
    result = fedtool("send", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("0 sent, 0 sent before, 0 kept for next time\n") and inbox.mails == []
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert "11 sent, 0 sent before" in fedtool("send", "1", "--fed", demo_fed).output
    week = snapshot(demo_fed / "outbox/week-01")
    assert fedtool("play", demo_fed / "strategies/week-01", "--fed", demo_fed).exit_code == 0
    assert len(list((demo_fed / "outbox/exhibitions/week-01/mail").glob("*.eml"))) == 11
    for args in (["send", "1"], ["send"]):
        result = fedtool(*args, "--fed", demo_fed)
        assert result.exit_code == 0, result.output
        assert result.output.endswith("0 sent, 11 sent before, 0 kept for next time\n")
    assert len(inbox.mails) == 11 and {str(m["Subject"]) for _, m in inbox.mails} == {
        "Delta Championship Wrestling: Week 1: Opening Night results", "Delta Championship Wrestling: Week 1: Opening Night"}
    assert snapshot(demo_fed / "outbox/week-01") == week


def test_an_exhibitions_folder_is_named_safely_after_the_card_folder(demo_fed, fedtool):
    folder = demo_fed / "strategies" / "Part VI (again)!"
    shutil.copytree(demo_fed / "strategies/example-part-vi", folder)
    result = fedtool("play", folder, "--dice", folder / "dice.txt", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    assert result.output == "Friendly Sam def. Brother Bob (by pinfall, round 7)\n8 files in outbox/exhibitions/part-vi-again\n"
    assert sorted(p.name for p in (demo_fed / "outbox/exhibitions/part-vi-again").iterdir()) == [
        "card.html", "card.md", "dice.txt", "mail", "part-vi.html", "part-vi.md"]


def test_send_never_sends_the_results_of_a_week_the_league_does_not_hold(demo_fed, fedtool, monkeypatch):
    """A league restored to before week 2 (the outbox is left as it was): week 2's results stay
    unsent, and so does a copy of them in a folder that is no week's (an older `play`'s)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("run", "2", "--fed", demo_fed).exit_code == 0
    queued = fedtool("send", "--dry-run", "--fed", demo_fed)
    assert queued.output.endswith("20 to send, 0 sent before, 0 kept for next time\n")  # 11 of week 1, 9 of week 2
    shutil.copytree(demo_fed / "outbox/week-02", demo_fed / "outbox/week-02-try")  # what an older fedtool's `play` left
    assert fedtool("restore", "20260104T120000Z-before-week-02-run-1.db", "--fed", demo_fed).exit_code == 0
    assert (demo_fed / "outbox/week-02/card.md").is_file()
    queued = fedtool("send", "--dry-run", "--fed", demo_fed)
    assert queued.exit_code == 0, queued.output
    assert queued.output.endswith("11 to send, 0 sent before, 0 kept for next time\n")
    assert "outbox/week-02" not in queued.output
    week_two = fedtool("send", "2", "--dry-run", "--fed", demo_fed)
    assert week_two.exit_code == 0 and week_two.output == "0 to send, 0 sent before, 0 kept for next time\n"
