"""Addresses (issue 12, item 8): reserved domains (.test, .example, .invalid, .local,
localhost) are addresses a fed may use; only an address mail cannot go to is an error."""

from __future__ import annotations

import pytest

from fedtool.kernel.validation import OwnerModel, reserved_domain
from test_send import smtp_server, with_smtp  # noqa: F401 (the fixture)

BOB = "rosters/brother-bob.yaml"


@pytest.mark.parametrize("address, kept", [
    ("bob@players.test", "bob@players.test"),
    ("bob@Players.Local", "bob@players.local"),
    ("bob@localhost", "bob@localhost"),
    ("bob@fed.invalid", "bob@fed.invalid"),
    ("Bob@Players.Example", "Bob@players.example"),
    ("bob@gmail.com", "bob@gmail.com"),
])
def test_reserved_and_ordinary_addresses_are_addresses(address, kept):
    assert OwnerModel(name="Bob", email=address).email == kept


@pytest.mark.parametrize("address", ["bad@@x.test", "bob@-x.test", "nobody", "bob@", "bob smith@players.test"])
def test_an_address_mail_cannot_go_to_is_refused(address):
    with pytest.raises(ValueError, match="not an e-mail address"):
        OwnerModel(name="Bob", email=address)


def test_reserved_domain_names_the_top_level_name():
    assert [reserved_domain(a) for a in ("a@b.test", "a@localhost", "a@x.example.", "a@example.com", "a@test.org")] == ["test", "localhost", "example", None, None]


def replace_owner(fed, address):
    path = fed / BOB
    text = path.read_text(encoding="utf-8")
    assert "bob@players.example" in text
    path.write_text(text.replace("bob@players.example", address), encoding="utf-8")


def test_a_fed_with_test_addresses_runs_its_commands(demo_fed, fedtool):
    replace_owner(demo_fed, "bob@players.test")
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    result = fedtool("standings", "--fed", demo_fed)
    assert result.exit_code == 0 and "Brother Bob" in result.output


def test_a_bad_address_names_the_file_and_line(demo_fed, fedtool):
    replace_owner(demo_fed, "bob@@players.test")
    line = (demo_fed / BOB).read_text(encoding="utf-8").split("bob@@players.test")[0].count("\n") + 1
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert f"{BOB}, line {line}, field owner.email: not an e-mail address" in result.stderr
    assert "Traceback" not in result.output


def test_send_warns_about_a_reserved_address(demo_fed, fedtool, smtp_server):  # noqa: F811 (the fixture)
    inbox, port = smtp_server
    with_smtp(demo_fed, port)
    replace_owner(demo_fed, "bob@players.test")
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    result = fedtool("send", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1  # the demo's players are all at players.example: one warning for all 11
    assert warnings[0].startswith("warning: 11 sent to reserved domains") and "bob@players.test" in warnings[0]
    assert any(rcpt == ["bob@players.test"] for rcpt, _ in inbox.mails)
