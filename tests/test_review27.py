"""Review 27: last sessions' leftovers (small defects a user meets) and what an attacker found on
the mail path, each pinned by a test that failed before its fix."""

from __future__ import annotations

import pytest


def _set(fed, ruleset: str, line: str) -> None:
    """Add `line` to `rulesets: RULESET:` in the fed's settings."""
    settings = fed / "rosters/fed.yaml"
    text = settings.read_text()
    head = f"  {ruleset}:\n"
    if head not in text:
        text = text.replace("rulesets:\n", f"rulesets:\n{head}", 1)
    settings.write_text(text.replace(head, f"{head}    {line}\n", 1))


@pytest.mark.parametrize("ruleset, week, value, field", [
    ("madmatch", 5, "../../../../etc/passwd", "deck"),
    ("madmatch", 5, "/etc/passwd", "deck"),
    ("madmatch", 5, "decks/monsters.yaml", "deck"),
    ("matclash", 3, "../../x.yaml", "deck"),
    ("matclash", 3, "'~/deck.yaml'", "deck"),
])
def test_a_deck_path_leaving_the_fed_is_refused_naming_the_file_the_field_and_the_rule(demo_fed, fedtool, ruleset, week, value, field):
    """A `deck:` that left the fed's folder (or named another folder) was cut to its last part
    and read as rosters/passwd ("rosters/passwd: no such deck file"): the path was dropped
    without a word. It is refused as written, naming rosters/fed.yaml, the field and the rule."""
    _set(demo_fed, ruleset, f"{field}: {value}")
    result = fedtool("--fed", demo_fed, "status", str(week))
    assert "Traceback" not in result.output
    assert "rosters/fed.yaml, line " in result.output, result.output  # its line too (review 28)
    assert f", field rulesets.{ruleset}.{field}: {value.strip(chr(39))!r}: a deck is a file inside the fed's folder" in result.output, result.output
    assert "rosters/passwd" not in result.output and "no such deck file" not in result.output


def test_a_deck_named_with_its_rosters_folder_is_still_read(demo_fed, fedtool):
    """`deck: rosters/monsters.yaml` (the folder written out) names the same file as `deck: monsters.yaml`."""
    _set(demo_fed, "madmatch", "deck: rosters/monsters.yaml")
    result = fedtool("--fed", demo_fed, "status", "5")
    assert "rosters/monsters.yaml: no such deck file" in result.output, result.output


@pytest.mark.parametrize("value", ["/etc", "'~/data'", "rosters/../../elsewhere"])
def test_a_facemat_data_folder_leaving_the_fed_is_refused_with_its_field_and_rule(demo_fed, fedtool, value):
    _set(demo_fed, "facemat", f"data: {value}")
    result = fedtool("--fed", demo_fed, "status", "4")
    assert "Traceback" not in result.output
    assert "rosters/fed.yaml, line " in result.output, result.output  # its line too (review 28)
    assert f", field rulesets.facemat.data: {value.strip(chr(39))!r}: a data folder is a folder inside the fed's folder" in result.output, result.output


def test_stamina_true_on_a_matchmatch_sheet_is_refused_with_file_line_and_rule(demo_fed, fedtool):
    """`stamina: true` was read as a Stamina of 1 (pydantic's int takes YAML's true): a yes/no
    value is never a whole number, on a sheet, in the settings, on a card or in a strategy."""
    sheet = demo_fed / "rosters/brother-bob.yaml"
    sheet.write_text(sheet.read_text().replace("stamina: 10", "stamina: true", 1))
    result = fedtool("--fed", demo_fed, "roster", "check")
    assert "Traceback" not in result.output
    assert "rosters/brother-bob.yaml, line 4, field stamina: expected a whole number, found true (a yes/no value) [MatchMatch" in result.output, result.output


@pytest.mark.parametrize("file, old, new, where", [
    ("strategies/week-01/card.yaml", "\nmatches:", "\nrounds: true\nmatches:", "field rounds"),
    ("strategies/week-01/brother-bob.yaml", "grid: C", "grid: true", "line 4, field grid"),
    ("rosters/fed.yaml", "    rounds: 20 ", "    rounds: false ", "field rulesets.matchmatch.rounds"),
])
def test_a_yes_no_value_is_no_whole_number_on_a_card_a_strategy_or_the_settings(demo_fed, fedtool, file, old, new, where):
    path = demo_fed / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    result = fedtool("--fed", demo_fed, "status", "1")
    assert "Traceback" not in result.output
    assert f"{file}, " in result.output and where in result.output and "expected a whole number, found " in result.output, result.output


def _models():
    """Every model a user's file is checked with (the fed's, the card's, the four rulesets')."""
    import importlib

    from fedtool.kernel.validation import FileModel

    for name in ("fedtool.fed.models", "fedtool.fed.card", "fedtool.rulesets.matchmatch.models", "fedtool.rulesets.matchmatch.sheetmodel",
                 "fedtool.rulesets.matchmatch.strategy", "fedtool.rulesets.matchmatch.officials", "fedtool.rulesets.matclash.models",
                 "fedtool.rulesets.matclash.policy", "fedtool.rulesets.facemat.models", "fedtool.rulesets.madmatch.models",
                 "fedtool.rulesets.madmatch.strategy"):
        importlib.import_module(name)
    todo, seen = [FileModel], []
    while todo:
        model = todo.pop()
        seen.append(model)
        todo.extend(model.__subclasses__())
    return [m for m in seen if m.__module__.startswith("fedtool.") and m is not FileModel]


def _true_for_ints(annotation):
    """A value with `True` wherever `annotation` wants an int; None when it wants none."""
    import typing

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _true_for_ints(args[0])
    if annotation is int:
        return True
    if origin in (list, tuple):
        inner = _true_for_ints(args[0])
        return None if inner is None else [inner]
    if origin is dict:
        inner = _true_for_ints(args[1])
        return None if inner is None else {"a": inner}
    for arg in args if origin in (typing.Union, getattr(__import__("types"), "UnionType")) else ():
        inner = _true_for_ints(arg)
        if inner is not None:
            return inner
    return None


def test_no_whole_number_field_of_any_model_takes_a_yes_no_value():
    """Every field of every file model that wants a whole number (alone, in a list or a
    mapping, or beside text) refuses YAML's true."""
    from typing import Annotated

    from pydantic import TypeAdapter, ValidationError

    checked = []
    for model in _models():
        for name, field in model.model_fields.items():
            sample = _true_for_ints(field.annotation)
            if sample is None:
                continue
            adapter = TypeAdapter(Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation)
            try:
                adapter.validate_python(sample)
            except ValidationError:
                checked.append(f"{model.__name__}.{name}")
            else:
                raise AssertionError(f"{model.__module__}.{model.__name__}.{name} takes {sample!r} as a whole number")
    assert len(checked) >= 30, checked


def test_roster_check_tells_a_team_members_broken_sheet_once(demo_fed, fedtool):
    """A team's sheet reads its members': `fedtool roster check` printed Brother Bob's problem
    on his row and again on the Rulebook Rivals' row. Once, and the team's row names the member."""
    sheet = demo_fed / "rosters/brother-bob.yaml"
    sheet.write_text(sheet.read_text().replace("stamina: 10", "stamina: x", 1))
    result = fedtool("--fed", demo_fed, "roster", "check")
    assert result.exit_code == 1
    assert result.output.count("field stamina: expected a whole number, found the text 'x'") == 1, result.output
    assert "rosters/rulebook-rivals.yaml: a member's sheet does not stand (rosters/brother-bob.yaml, told on its own)" in result.output
    assert "not: brother-bob, rulebook-rivals" in result.output


def test_fedtool_read_outside_a_week_folder_says_what_it_needs(demo_fed, tmp_path, fedtool):
    """`fedtool read FILE` on a file outside a week's folder said "no card here: write the
    week's card.yaml first" about a card.yaml beside the file: it now says what it needs."""
    draft = tmp_path / "drafts/friendly-sam.yaml"
    draft.parent.mkdir()
    draft.write_text((demo_fed / "strategies/week-01/friendly-sam.yaml").read_text())
    result = fedtool("--fed", demo_fed, "read", draft)
    assert result.exit_code == 1
    assert "no card here" not in result.output
    assert "give a strategy file under strategies/week-NN/, or name the week: `fedtool read FILE --week N`" in result.output, result.output


def test_fedtool_read_with_a_week_checks_a_file_from_elsewhere_against_that_weeks_card(demo_fed, tmp_path, fedtool):
    draft = tmp_path / "drafts/friendly-sam.yaml"
    draft.parent.mkdir()
    text = (demo_fed / "strategies/week-01/friendly-sam.yaml").read_text()
    draft.write_text(text)
    result = fedtool("--fed", demo_fed, "read", draft, "--week", "1")
    assert result.exit_code == 0, result.output
    assert "stands for match m1: brother-bob vs. friendly-sam" in result.output
    draft.write_text(text.replace("grid: ", "grid: Q #", 1))  # a broken pick: told as this file's problem, not the week's file's
    result = fedtool("--fed", demo_fed, "read", draft, "--week", "1")
    assert result.exit_code == 1
    assert f"{draft}, line 4, field grid: grid pick 'Q'" in result.output, result.output
    assert "strategies/week-01/friendly-sam.yaml" not in result.output


def test_made_at_stamps_honour_source_date_epoch(demo_fed, fedtool, monkeypatch):
    """A title ruling's and a roster change's `made_at` (the site's "updated" stamp, a
    wrestler's history, the league's export) read the wall clock, not the one clock:
    SOURCE_DATE_EPOCH (reproducible builds) did not fix them."""
    import json
    import sqlite3

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    assert fedtool("--fed", demo_fed, "title", "vacate", "world", "--reason", "injured").exit_code == 0
    assert fedtool("--fed", demo_fed, "roster", "retire", "hank-morrow", "--reason", "home").exit_code == 0
    with sqlite3.connect(demo_fed / "fed.db") as db:
        assert db.execute("SELECT made_at FROM title_rulings").fetchall() == [("2023-11-14T22:13:20+00:00",)]
    history = json.loads(fedtool("--fed", demo_fed, "history", "hank-morrow", "--json").output)
    assert [change["made_at"] for change in history["sheet_changes"]] == ["2023-11-14T22:13:20+00:00"], history


def test_an_mbox_mail_is_capped_before_it_is_read_whole(demo_fed, tmp_path, fedtool):
    """A Maildir's, an .eml's and an IMAP mail's bytes are read up to the cap (1 MB + 1) and
    the rest only counted; an mbox's were parsed whole (`message.as_bytes()`), so a 5 MB mail
    sat in memory whole before it was refused. Now capped first too; the next mail still read."""
    import mailbox
    from email.message import EmailMessage

    from fedtool.mail.intake import MAX_BYTES, messages

    box = mailbox.mbox(tmp_path / "inbox.mbox")
    big = EmailMessage()
    big["From"], big["To"], big["Subject"] = "Bob <bob@players.example>", "strategies@dcw.example", "Week 1 brother-bob"
    big.set_content("x" * 100 + "\n" + ("y" * 70 + "\n") * 75_000)  # about 5 MB
    box.add(big)
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "Bob <bob@players.example>", "strategies@dcw.example", "Week 1 brother-bob"
    m["Message-ID"], m["Date"] = "<r27-mbox@players.example>", "Tue, 24 Nov 2026 10:00:00 +0000"
    m.set_content((demo_fed / "strategies/week-01/brother-bob.yaml").read_text())
    box.add(m)
    box.flush()
    mails = list(messages(tmp_path / "inbox.mbox"))
    assert len(mails) == 2
    assert len(mails[0].raw) == MAX_BYTES + 1 and mails[0].size > 5_000_000, (len(mails[0].raw), mails[0].size)
    assert b"r27-mbox@players.example" in mails[1].raw and mails[1].size == len(mails[1].raw)
    result = fedtool("--fed", demo_fed, "inbox", tmp_path / "inbox.mbox")
    assert "Traceback" not in result.output
    assert "1 accepted, 1 refused" in result.output and "The mail is 5,3" in result.output, result.output


def test_send_for_a_week_with_no_mail_is_no_failure(demo_fed, fedtool):
    """`fedtool send 3` for a week with no outbox (no run, no reminder due) exited 1 with
    "nothing to send", so `fedtool remind 3 && fedtool send 3` failed whenever no reminder was
    due. Nothing to send is success, said plainly; a real failure keeps its exit."""
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text().replace("  reply_to: strategies@dcw.example\n",
                                                     "  reply_to: strategies@dcw.example\n  smtp: {host: smtp.dcw.example}\n", 1))
    result = fedtool("--fed", demo_fed, "send", "3")
    assert result.exit_code == 0, result.output
    assert result.output == "nothing to send for week-03: it has no mail in outbox/ (no run, no reminder due)\n"
    settings.write_text(settings.read_text().replace("  smtp: {host: smtp.dcw.example}\n", "", 1))
    result = fedtool("--fed", demo_fed, "send", "3")  # no server set: a failure still
    assert result.exit_code == 1 and "no SMTP server set" in result.output


@pytest.mark.parametrize("zone, moment, shown", [
    ("America/New_York", "2026-12-31T20:00:00-05:00", "Thursday 31 December 2026, 20:00 EST (01:00 UTC, Friday 1 January 2027)"),
    ("Pacific/Auckland", "2027-01-01T10:00:00+13:00", "Friday 1 January 2027, 10:00 NZDT (21:00 UTC, Thursday 31 December 2026)"),
    ("America/New_York", "2026-11-27T20:00:00-05:00", "Friday 27 November 2026, 20:00 EST (01:00 UTC, Saturday 28 November)"),
])
def test_a_deadline_on_another_day_in_utc_shows_the_year_when_it_is_another_year(demo_fed, zone, moment, shown):
    """`shown_time` gave the UTC date of a deadline falling on the next (or previous) day
    without its year: "(01:00 UTC, Friday 1 January)" under "31 December 2026". A date in
    another year than the one shown before it now carries its year."""
    import datetime

    from fedtool.fed.schedule import shown_time
    from fedtool.fed.settings import Fed

    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text() + f"schedule:\n  zone: {zone}\n")
    assert shown_time(Fed.load(demo_fed), datetime.datetime.fromisoformat(moment)) == shown


def test_the_checked_files_cache_is_pruned_of_entries_not_used_for_keep_days(tmp_path, monkeypatch):
    """fedtool.kernel.checked kept an entry for every version of every file ever checked, for
    ever. An entry not recalled for KEEP_DAYS days goes at the next sweep (at most once a day,
    started by `remember`); an entry recalled is marked used; a killed write's temporary file
    goes after a day."""
    import os

    from fedtool.kernel import checked

    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    checked.remember("old", {"a": 1})
    checked.remember("used", {"b": 2})
    folder = tmp_path / "cache" / f"checked-{checked.REVISION}"
    (folder / ".x.tmp").write_text("half")
    now = os.stat(folder / "old.json").st_mtime
    long_ago = now - (checked.KEEP_DAYS + 1) * checked.DAY
    for name in ("old.json", "used.json", ".x.tmp", checked.SWEPT):
        os.utime(folder / name, (long_ago, long_ago))
    assert checked.recall("used") == {"b": 2}  # used: its time moved to now
    assert os.stat(folder / "used.json").st_mtime > long_ago
    checked.remember("new", {"c": 3})  # the sweep: a day since the last
    assert sorted(p.name for p in folder.iterdir()) == [checked.SWEPT, "new.json", "used.json"]
    assert checked.recall("old") is None and checked.recall("new") == {"c": 3}
    (folder / "new.json").touch()
    os.utime(folder / "used.json", (long_ago, long_ago))
    checked.remember("newer", {"d": 4})  # no second sweep the same day
    assert (folder / "used.json").exists()
    assert checked.sweep(str(folder), force=True) == 1 and not (folder / "used.json").exists()


def test_a_feds_commentary_file_changes_the_facemat_joiners_and_league_change_words(demo_fed, fedtool, monkeypatch):
    """Face to the Mat's words are data (data/commentary.yaml, the fed's
    templates/commentary/facemat.yaml over it), but the card's league-change sentences
    (changes.py) and the " vs. " / " & " joiners were written in the code, so a fed could not
    change them. Now they are kinds of the table: a fed's file replaces them."""
    from fedtool.rulesets.facemat import FaceToTheMat

    own = demo_fed / "templates/commentary/facemat.yaml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('join_partners:\n  replace: [" and "]\njoin_sides:\n  replace: [" against "]\n'
                   'change_challenge:\n  replace: ["{name} calls out {other}: a grudge match it is."]\n')
    ruleset = FaceToTheMat()
    words = ruleset.commentary(own, "templates/commentary/facemat.yaml")
    assert ruleset.tell_league_change("The Warden", "issued a grudge match challenge to La Rosa Negra (9.a)", {}, words) == \
        ["The Warden calls out La Rosa Negra: a grudge match it is."]
    assert ruleset.tell_league_change("The Warden", "issued a grudge match challenge to La Rosa Negra (9.a)", {}) == \
        ["The Warden challenges La Rosa Negra to a grudge match."]  # the packaged words
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    result = fedtool("--fed", demo_fed, "play", demo_fed / "strategies/example-fttm-multi")
    assert result.exit_code == 0, result.output
    writeup = (demo_fed / "outbox/exhibitions/example-fttm-multi/t1.md").read_text()
    assert "La Rosa Negra and Sister Sorrow" in writeup and " & " not in writeup, writeup[:300]


def test_every_facemat_league_change_kind_is_told_from_the_table():
    """Each `change_*` kind, replaced by a marker, shows in what the card tells."""
    from fedtool.kernel.commentary import Commentary, Phrase
    from fedtool.rulesets.facemat import FaceToTheMat

    ruleset = FaceToTheMat()
    table = ruleset.commentary()
    marked = Commentary({kind: (Phrase(f"<{kind}>" + "".join(f"{{{f}}}" for f in sorted(table.fields[kind]))),) if kind.startswith("change_") else phrases
                         for kind, phrases in table.phrases.items()}, table.fields, table.facts)
    reasons = ["upset (won as the underdog): TV grade C -> B; grudge match (TV grades): TV grade B -> A; interview: TV grade A -> A",
               "upset (lost as the favorite): TV grade B -> C; storyline: TV grade C -> C; grudge match (TV grades): TV grade C -> D",
               "interview: TV grade B -> A; storyline: TV grade A -> B; upset (won as the underdog): TV grade B -> B",
               "storyline: grudge 4 -> 5; interview: grudge 5 -> 3; storyline: Kid Comet turns on him (ally -> foe)",
               "storyline: Sister Sorrow becomes an ally; issued a grudge match challenge to La Rosa Negra (9.a)",
               "lost a loser-leaves-town grudge match: leaves town; won a title shot in a grudge match",
               "upset (won as the underdog): TV grade AAA -> AAA"]
    told = " ".join(line for reason in reasons for line in ruleset.tell_league_change("W", reason, {}, marked))
    for kind in table.phrases:
        if kind.startswith("change_"):
            assert f"<{kind}>" in told, kind


# ---------------------------------------------------------------- Part 2: the mail path as a player attacks it


def _intake(demo_fed, tmp_path, mails):
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from test_inbox import maildir, replies

    from fedtool.fed.settings import Fed
    from fedtool.mail.intake import intake

    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails))
    return report, list(replies(report).values())


def test_a_subject_naming_two_wrestlers_is_refused_not_guessed(demo_fed, tmp_path):
    """Bob owns Brother Bob and the Rulebook Rivals, both on week 2's card. A mail "Week 2
    brother-bob rulebook-rivals" with both strategies attached was judged as the longest id's
    (rulebook-rivals) with the first attachment (Brother Bob's): one strategy checked as the
    other wrestler's, the other dropped unsaid. Now refused, naming both, nothing filed."""
    from conftest import snapshot
    from test_inbox import mail

    week = demo_fed / "strategies/week-02"
    before = snapshot(week)
    m = mail("Bob <bob@players.example>", "Week 2 brother-bob rulebook-rivals", "Both attached.", message_id="<two-wrestlers@x>")
    for name in ("brother-bob.yaml", "rulebook-rivals.txt"):
        m.add_attachment((week / name).read_bytes(), maintype="application", subtype="x-yaml", filename=name)
    report, answers = _intake(demo_fed, tmp_path, [m])
    (outcome,) = report.outcomes
    assert outcome.verdict == "refused"
    assert "The subject names more than one wrestler (brother-bob, rulebook-rivals)" in answers[0], answers[0]
    assert snapshot(week) == before


def test_two_different_strategies_attached_to_one_mail_are_refused_not_one_dropped(demo_fed, tmp_path):
    """The first .yaml/.txt attachment was read and any other ignored without a word: a
    player who attached two versions learnt only from the echo which one was filed."""
    from conftest import snapshot
    from test_inbox import mail

    week = demo_fed / "strategies/week-01"
    before = snapshot(week)
    bob = (week / "brother-bob.yaml").read_text()
    m = mail("Bob <bob@players.example>", "Week 1 brother-bob", "Two tries attached.", message_id="<two-files@x>")
    for name, text in (("a.yaml", bob.replace("Closed fists", "First try")), ("b.yaml", bob.replace("Closed fists", "Second try"))):
        m.add_attachment(text.encode(), maintype="application", subtype="x-yaml", filename=name)
    same = mail("Bob <bob@players.example>", "Week 1 brother-bob", bob, message_id="<same-twice@x>")  # the body and the same file: one strategy
    same.add_attachment(bob.encode(), maintype="application", subtype="x-yaml", filename="brother-bob.yaml")
    report, answers = _intake(demo_fed, tmp_path, [m, same])
    assert [o.verdict for o in report.outcomes] == ["refused", "accepted"], [o.why for o in report.outcomes]
    assert any("The mail holds 2 different strategy attachments; nothing of it was filed." in a for a in answers), answers
    assert snapshot(week) == before  # the one accepted is the file as it was


def test_a_reply_of_only_the_quoted_mail_is_answered_plainly(demo_fed, tmp_path):
    """A reply with nothing of the player's own, only the quoted mail under "On ... wrote:",
    was read whole as a strategy: the answer listed every quoted line as "cannot read" with
    the whole list of what a line may be (30 lines of it). Now: no strategy found, and where
    to write it."""
    from test_inbox import mail

    bob = (demo_fed / "strategies/week-01/brother-bob.yaml").read_text()
    quoted = "On Mon, 23 Nov 2026 at 10:00, DCW <fedhead@dcw.example> wrote:\n" + "\n".join("> " + line for line in bob.splitlines()) + "\n"
    report, answers = _intake(demo_fed, tmp_path, [mail("Bob <bob@players.example>", "Re: Week 1 brother-bob", quoted, message_id="<only-quote@x>")])
    (outcome,) = report.outcomes
    assert outcome.verdict == "refused"
    assert outcome.why == "No strategy found: send it as the body of the mail (above any mail you quote in a reply) or as a .yaml or .txt attachment."
    assert "cannot read" not in answers[0]


@pytest.mark.parametrize("digits", ["99999999", "1" * 5000])
def test_a_subject_naming_a_week_past_9999_is_told_there_is_no_such_week(demo_fed, tmp_path, digits):
    """"Week 99999999 brother-bob" names a week, one no fed can have (weeks are 0 to 9999),
    and was answered "The subject must name the week": the week pattern took at most four
    digits, so a longer number read as no week at all. Five thousand digits must not reach
    int() (Python refuses to read over 4,300) or a file name (too long for the disk)."""
    from test_inbox import mail

    m = mail("Bob <bob@players.example>", f"Week {digits} brother-bob", "plus: [Closed fists]", message_id=f"<far-week-{len(digits)}@x>")
    report, answers = _intake(demo_fed, tmp_path, [m])
    (outcome,) = report.outcomes
    assert outcome.verdict == "refused"
    assert f"There is no card for week {digits[:12]}" in answers[0] and "weeks are numbered 0 to 9999" in answers[0], answers[0]
    assert "must name the week" not in answers[0]
