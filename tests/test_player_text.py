"""Player text is untrusted: escaped in HTML, defused in Markdown, never a path."""

from __future__ import annotations

import email
from email import policy

import yaml

HOSTILE = '<script>alert("pwned")</script> & <img src=x onerror=alert(1)>'


def test_explanations_are_escaped_everywhere(demo_fed, fedtool):
    path = demo_fed / "strategies/week-01/brother-bob.yaml"
    strategy = yaml.safe_load(path.read_text(encoding="utf-8"))
    strategy["rounds"][0]["explanation"] = HOSTILE + "\n# not a heading"
    path.write_text(yaml.safe_dump(strategy), encoding="utf-8")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    html = (demo_fed / "outbox/week-01/m1.html").read_text(encoding="utf-8")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;" in html
    md = (demo_fed / "outbox/week-01/m1.md").read_text(encoding="utf-8")
    assert "<script>" not in md
    assert "> \\# not a heading" in md  # a player's line cannot become a heading
    mail = email.message_from_bytes((demo_fed / "outbox/week-01/mail/bob-players-example.eml").read_bytes(), policy=policy.default)
    html_part = mail.get_body(("html",)).get_content()
    assert "<script>" not in html_part and "&lt;script&gt;" in html_part


def test_mail_files_are_named_by_the_fed_never_by_player_text(demo_fed, fedtool):
    sheet = demo_fed / "rosters/brother-bob.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("bob@players.example", "../../etc/passwd@evil.example"), encoding="utf-8")
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1  # not even a valid address
    assert "rosters/brother-bob.yaml, line 3, field owner.email" in result.stderr
