"""Per-player password lines (`mail: passwords: true`): a forged From: is not enough."""

from __future__ import annotations

import sqlite3
from email import message_from_bytes, policy

from hypothesis import given, settings, strategies as st

from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake
from fedtool.mail.passwords import hash_password, password_matches, take_password
from test_inbox import mail, maildir


def with_passwords(fed):
    path = fed / "rosters/fed.yaml"
    path.write_text(path.read_text().replace("  reply_to: strategies@dcw.example\n", "  reply_to: strategies@dcw.example\n  passwords: true\n"))


def answers(report):
    return [message_from_bytes(p.read_bytes(), policy=policy.default).get_content() for p in report.replies]


def test_only_a_mail_with_the_players_password_is_filed_and_the_password_never_is(demo_fed, fedtool, tmp_path):
    with_passwords(demo_fed)
    set_it = fedtool("password", "bob@players.example", "--password", "Kn33-Dr0p!", "--fed", demo_fed)
    assert set_it.exit_code == 0 and "password set for bob@players.example" in set_it.output
    stored = sqlite3.connect(demo_fed / "fed.db").execute("SELECT email, hash FROM player_passwords").fetchall()
    assert len(stored) == 1 and stored[0][0] == "bob@players.example" and "Kn33" not in stored[0][1] and stored[0][1].startswith("scrypt$16384$8$1$")
    week = demo_fed / "strategies/week-01"
    before = (week / "brother-bob.yaml").read_text()
    good = before.replace("Closed fists", "Passworded fists")
    mails = [
        mail("bob@players.example", "Week 1 brother-bob", "Password: Kn33-Dr0p!\n" + good, message_id="<pw-good@x>"),
        mail("bob@players.example", "Week 1 brother-bob", "Password: guess\n" + good.replace("Passworded", "Forged"), message_id="<pw-wrong@x>"),
        mail("bob@players.example", "Week 1 brother-bob", good.replace("Passworded", "Bare"), message_id="<pw-none@x>"),
        mail("sam@players.example", "Week 1 friendly-sam", "Password: anything\n" + (week / "friendly-sam.yaml").read_text(), message_id="<pw-unset@x>"),
    ]
    report = intake(Fed.load(demo_fed), maildir(tmp_path, mails))
    assert [o.verdict for o in report.outcomes] == ["accepted", "refused", "refused", "refused"]
    accepted, wrong, missing, unset = answers(report)
    filed = (week / "brother-bob.yaml").read_text()
    assert "Passworded fists" in filed and "Kn33" not in filed and "Password:" not in filed
    assert filed == "\n" + good  # the line is emptied, so error lines still point at the player's lines
    assert "Kn33" not in accepted and "(Password: ********)" in accepted
    assert "The password line does not match the password set for bob@players.example." in wrong
    assert "> Password: ********" in wrong and "guess" not in wrong  # the mail quoted back, the password blanked
    assert "put a line \"Password: your-password\" in the mail" in missing
    assert "none is set for sam@players.example: ask the fedhead to set one (fedtool password)" in unset


def test_a_password_for_someone_who_owns_no_wrestler_is_refused(demo_fed, fedtool):
    result = fedtool("password", "mallory@evil.example", "--password", "whatever1", "--fed", demo_fed)
    assert result.exit_code == 1 and "mallory@evil.example is not the registered owner of any wrestler [fedtool password]" in result.stderr
    short = fedtool("password", "bob@players.example", "--password", "abc", "--fed", demo_fed)
    assert short.exit_code == 1 and "a password is 6 to 200 characters on one line" in short.stderr


def test_a_hash_is_salted_and_checks_only_its_password():
    one, two = hash_password("Kn33-Dr0p!"), hash_password("Kn33-Dr0p!")
    assert one != two  # a fresh salt each time
    assert password_matches("Kn33-Dr0p!", one) and password_matches("Kn33-Dr0p!", two)
    assert not password_matches("kn33-dr0p!", one) and not password_matches("Kn33-Dr0p!", "scrypt$broken")


@settings(max_examples=200)
@given(st.text(max_size=300), st.text(alphabet=st.characters(blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"), min_size=1, max_size=30).map(str.strip).filter(bool))
def test_no_password_survives_in_the_text_that_is_filed(text, secret):
    lines = text.splitlines()
    at = len(lines) // 2
    with_line = "\n".join(lines[:at] + [f"Password: {secret}"] + lines[at:])
    found, cleaned = take_password(with_line)
    assert f"Password: {secret}" not in cleaned
    assert len(cleaned.split("\n")) == len(with_line.split("\n"))  # lines emptied, never removed
    assert found is not None


def test_the_password_written_inside_the_strategy_is_never_filed_or_echoed(demo_fed, fedtool, tmp_path):
    """Found by a review: a player who also writes his password inside an explanation must not
    see it filed (and published with the week's strategies) or echoed back."""
    with_passwords(demo_fed)
    assert fedtool("password", "bob@players.example", "--password", "Kn33-Dr0p!", "--fed", demo_fed).exit_code == 0
    week = demo_fed / "strategies/week-01"
    good = (week / "brother-bob.yaml").read_text().replace("Closed fists", "Kn33-Dr0p! fists")
    assert "Kn33-Dr0p! fists" in good
    report = intake(Fed.load(demo_fed), maildir(tmp_path, [mail("bob@players.example", "Week 1 brother-bob", "Password: Kn33-Dr0p!\n" + good, message_id="<pw-inside@x>")]))
    assert [o.verdict for o in report.outcomes] == ["accepted"]
    filed = (week / "brother-bob.yaml").read_text()
    assert "Kn33" not in filed and "xxxxxxxx fists" in filed
    (answer,) = answers(report)
    assert "Kn33" not in answer
