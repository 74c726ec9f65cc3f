"""Review 26: what a new user and an attacker found, each defect pinned by a test that failed
before its fix."""

from __future__ import annotations

from email.message import EmailMessage

import pytest


def _strategy_mail(folder, body: str, message_id: str = "<r26-1@players.example>"):
    folder.mkdir(parents=True, exist_ok=True)
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "Bob <bob@players.example>", "strategies@dcw.example", "Week 1 brother-bob"
    m["Message-ID"], m["Date"] = message_id, "Tue, 24 Nov 2026 10:00:00 +0000"
    m.set_content(body)
    (folder / "1.eml").write_bytes(bytes(m))


def test_a_relative_mail_inbox_is_read_in_the_fed_folder_whatever_the_current_folder(demo_fed, tmp_path, monkeypatch, fedtool):
    """`mail: inbox:` written relative (like `database:` and `backups: folder:`) names a mailbox
    in the fed's folder; `fedtool --fed DIR tick` run from elsewhere read it against the
    current folder and said "mailbox: not a Maildir, an mbox file, a folder of .eml files"."""
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(
        "  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  inbox: mailbox\n", 1))
    _strategy_mail(demo_fed / "mailbox", (demo_fed / "strategies/week-01/brother-bob.yaml").read_text())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = fedtool("--fed", demo_fed, "tick")
    assert "not a Maildir" not in result.output
    assert "read 1 mail: 1 accepted" in result.output, result.output


@pytest.mark.parametrize("old, new, line", [
    ('title: "Week 1: Opening Night"', 'title: "Week 1\\r\\nBcc: list@evil.example"', 3),
    ("title: The rulebook rivals", 'title: "The rulebook\\n# rivals"', None),
])
def test_a_card_or_match_title_with_a_line_break_is_refused_naming_its_file_and_line(demo_fed, fedtool, old, new, line):
    """A card's or a match's title heads card.md, the writeup and the mails' subjects; one with
    a line break ran and split the Markdown heading in two ("# ...: Week 1" then a paragraph
    "Bcc: list@evil.example"). Like a fed's and a wrestler's name, it must be one line."""
    card = demo_fed / "strategies/week-01/card.yaml"
    text = card.read_text()
    assert old in text
    card.write_text(text.replace(old, new, 1))
    line = line or next(n for n, row in enumerate(card.read_text().splitlines(), 1) if "# rivals" in row)
    result = fedtool("--fed", demo_fed, "run", "1")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"strategies/week-01/card.yaml, line {line}" in result.output, result.output
    assert "one line of printable text" in result.output
    assert not (demo_fed / "outbox/week-01").exists()


def test_fedtool_inbox_prints_why_a_strategy_was_refused_not_just_that_it_has_problems(demo_fed, tmp_path, fedtool):
    """`fedtool inbox` printed a refused strategy's first line only: "The strategy for Brother
    Bob has problems:" and nothing after it, so the fedhead had to run `fedtool status` to
    learn what was wrong. The line now carries the problem (on one line, trimmed)."""
    _strategy_mail(tmp_path / "mail", "plus: [Brawling, Cheating]\nplus: [Power]\n")
    result = fedtool("--fed", demo_fed, "inbox", tmp_path / "mail")
    assert result.exit_code == 0, result.output
    refused = next(row for row in result.output.splitlines() if row.startswith("refused"))
    assert "The strategy for Brother Bob has problems:" in refused
    assert "the key 'plus' appears twice" in refused, result.output


def test_matchmatch_tells_a_yaml_strategy_by_a_key_on_one_line_never_across_blank_lines():
    """A mail's body is YAML when a line starts with a strategy key (`plus:` ...). The pattern
    was `^\\s*(plus|...)\\s*:` with MULTILINE: `\\s` crosses line ends, so at every one of a
    body's line starts it ran over every blank line after it and back, and a body of a few
    hundred thousand blank lines (an HTML-only mail of nested tags, each tag a line once taken
    out) held `fedtool inbox` and the tick, with the fed's lock, for hours. The key and its
    colon are on one line, indented by spaces or tabs only."""
    from fedtool.rulesets.matchmatch import YAML_KEYS, MatchMatch

    assert MatchMatch().mail_strategy_suffix("\n\n  plus: [Brawling, Cheating]\n") == ".yaml"
    assert MatchMatch().mail_strategy_suffix("\tminus: Technical\nplus : [Brawling]\n") == ".yaml"
    assert YAML_KEYS.search("\n\n\nplus\n\n: [Brawling]") is None  # before: matched across the line ends
    assert YAML_KEYS.search("\n" * 50 + "\n \n\t\nhold\n:") is None


def test_the_quote_and_signature_search_sees_no_long_runs_of_blank_lines_or_spaces(monkeypatch):
    """mail-parser-reply's signature pattern begins `\\s*^`: in a run of n blank lines (or of n
    spaces inside a line) it tries every start and every length, about n*n steps, so a mail
    of a few thousand blank lines and a "--" took seconds and one of a hundred thousand took
    hours; the quote's `On\\s(.+?\\s?.+?)\\swrote:` does the same over one long "On ..." line.
    The search now sees each line's spaces as one, its first 250 characters and at most two
    blank lines in a row; the line it finds is mapped back, so the cut is where it was."""
    from fedtool.mail import intake

    seen = []
    real = intake._search
    monkeypatch.setattr(intake, "_search", lambda pattern, text: seen.append(text) or real(pattern, text))
    strategy = "plus: [Brawling, Cheating]\nminus: Technical\n"
    text = strategy + "\n" * 5000 + "x" + " " * 5000 + "y\n" + "--\nBob, with a--b\n"
    own = intake._own_text(text + "wrote:\nOn " + "a " * 5000 + "\n")
    assert seen and all("\n\n\n\n" not in s and "  " not in s and max(map(len, s.split("\n"))) <= 250 for s in seen)
    assert own == strategy + "\n" * 5000 + "x" + " " * 5000 + "y\n"  # cut at the signature, as written

    seen.clear()
    reply = strategy + "\n\n\n\nOn Tue, 24 Nov 2026, Fedhead <fedhead@dcw.example> wrote:\n> Week 2\n"
    assert intake._own_text(reply) == strategy  # the quote found, the blank lines above it dropped as before


def test_a_tick_that_read_only_mail_commands_says_so(demo_fed, tmp_path, fedtool):
    """A tick whose mailbox held a `help` mail printed "read 1 mail: " and nothing after the
    colon: its counts named every verdict but the mail commands'."""
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace(
        "  reply_to: strategies@dcw.example\n", f"  reply_to: strategies@dcw.example\n  inbox: {tmp_path / 'mail'}\n", 1))
    (tmp_path / "mail").mkdir()
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "Bob <bob@players.example>", "strategies@dcw.example", "help"
    m["Message-ID"], m["Date"] = "<r26-help@players.example>", "Tue, 24 Nov 2026 10:00:00 +0000"
    m.set_content("How do I send a strategy?")
    (tmp_path / "mail/1.eml").write_bytes(bytes(m))
    result = fedtool("--fed", demo_fed, "tick")
    assert result.exit_code == 0, result.output
    assert "read 1 mail: 1 command\n" in result.output, result.output
