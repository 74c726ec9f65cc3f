"""Mail that reads well in any client (issue 16, "What to build" 6, and "the card mail is a
dead end"): the plain-text part of every mail is readable text, not Markdown source; the
HTML part carries its styles inline; with `site_url:` every link is absolute, and without
it the card mail carries the writeups and no relative link."""

from __future__ import annotations

import email
import html
import re
from email import policy
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from fedtool.fed.mailtext import absolute_links, mail_text
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.site.build import week_page
from fedtool.week.run import site_week_page

SITE = "https://dcw.example/league/"


def _mails(folder: Path) -> dict[str, email.message.EmailMessage]:
    return {p.name: email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in sorted(folder.glob("*.eml"))}


def _parts(mail) -> tuple[str, str]:
    return mail.get_body(("plain",)).get_content(), mail.get_body(("html",)).get_content()


def _set(fed: Path, **values) -> None:
    path = fed / "rosters/fed.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.update(values)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


@pytest.fixture
def week_one(demo_fed, fedtool):
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 0, result.output
    return demo_fed


MARKDOWN = {
    "strong emphasis": re.compile(r"\*\*"),
    "a heading": re.compile(r"(?m)^#{1,6} "),
    "a link": re.compile(r"\[[^\]\n]*\]\([^)\n]*\)"),
    "a backslash escape": re.compile(r"\\[\\`*_{}\[\]()#+\-.!<>|~:]"),
    "a character reference": re.compile(r"&(#\d+|#x[0-9a-f]+|[a-z]+);", re.I),
    "a code fence": re.compile(r"(?m)^```"),
    "raw HTML": re.compile(r"</?(details|summary|p|div|strong|em)\b"),
}


def test_a_results_mail_s_plain_part_is_text_not_markdown(week_one):
    """Before: the plain part was the writeup's Markdown (`**Friendly Sam**`, `## Round 1`,
    `<details>`, `\\-`); now the writeup as text."""
    mails = _mails(week_one / "outbox/week-01/mail")
    text, _ = _parts(mails["sam-players-example.eml"])
    for what, pattern in MARKDOWN.items():
        assert not pattern.search(text), f"{what} in the plain part: {pattern.search(text).group()!r}"
    # the writeup is all there, readable: headline underlined, a player's words, the dice log
    assert "Friendly Sam def. Brother Bob (by disqualification, round 3)\n-----" in text
    assert "“Arm drag, arm drag, dropkick, smile for the front row.”" in text  # woven into the story (issue 16)
    assert "\n6 3 5    # round 1: Brother Bob attack 3d6\n" in text


def test_every_mail_s_html_part_carries_its_styles_inline(week_one, fedtool):
    assert fedtool("open", "2", "--reroll", "--fed", week_one).exit_code == 0
    mails = {**_mails(week_one / "outbox/week-01/mail"), **_mails(week_one / "outbox/week-02/announcements/mail")}
    assert len(mails) > 11
    for name, mail in mails.items():
        _, page = _parts(mail)
        assert "<style" not in page, name
        body = re.search(r"<body style=\"([^\"]+)\"", page)
        assert body and "font:" in body.group(1), name  # the page's stylesheet, written into the element
        assert re.search(r"<h[12] style=\"[^\"]*font-family", page), name


def test_an_announcement_s_plain_part_is_text_with_its_grid_as_a_table(week_one, fedtool):
    """Before: the announcement was Markdown only (`|---|` rows, backticks)."""
    assert fedtool("open", "2", "--reroll", "--fed", week_one).exit_code == 0
    for name, mail in _mails(week_one / "outbox/week-02/announcements/mail").items():
        text, _ = _parts(mail)
        assert "|---" not in text and "`" not in text and "**" not in text, name


def test_without_site_url_the_card_mail_has_no_relative_link_and_carries_the_writeups(week_one):
    """issue 16: "card.eml links to m1.html as relative links with no attachment and no site
    address". Without `site_url:` it links nowhere and the writeups follow the card."""
    text, page = _parts(_mails(week_one / "outbox/week-01/mail")["card.eml"])
    hrefs = re.findall(r'\shref="([^"]*)"', page)
    assert all(h.startswith(("https:", "http:", "mailto:")) for h in hrefs), hrefs
    assert "m1.html" not in page and "m1.md" not in text
    assert "The matches\n-----------" in text
    for match in ("m1", "m5"):
        headline = (week_one / f"outbox/week-01/{match}.md").read_text(encoding="utf-8").split("\n", 2)[1]
        assert headline.lstrip("# ") in text
    assert "Arm drag, arm drag, dropkick" in text  # a writeup itself, not only its headline
    # the card file beside the writeups keeps its relative links: they are next to it
    assert 'href="m1.html"' in (week_one / "outbox/week-01/card.html").read_text(encoding="utf-8")


def test_with_site_url_every_link_in_a_mail_is_absolute_to_the_site(demo_fed, fedtool):
    _set(demo_fed, site_url="https://dcw.example/league")
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert fedtool("open", "2", "--reroll", "--fed", demo_fed).exit_code == 0
    mails = {**_mails(demo_fed / "outbox/week-01/mail"), **_mails(demo_fed / "outbox/week-02/announcements/mail")}
    for name, mail in mails.items():
        _, page = _parts(mail)
        for href in re.findall(r'\s(?:href|src)="([^"]*)"', page):
            assert href.startswith(SITE), (name, href)
    text, page = _parts(mails["card.eml"])
    assert f'href="{SITE}weeks/week-01.html#match-m1"' in page
    assert f"<{SITE}weeks/week-01.html#match-m1>" in text  # the plain part names the address
    assert "The matches" not in text  # the site has them


def test_the_mail_s_link_is_the_site_s_week_page():
    assert site_week_page(3) == week_page(3)


@pytest.mark.parametrize("bad", ["dcw.example/league", "ftp://dcw.example/", "https://dcw.example/?q=1", "https://dcw.example/a b", "javascript:alert(1)"])
def test_a_bad_site_url_is_refused_by_name(demo_fed, bad):
    _set(demo_fed, site_url=bad)
    with pytest.raises(FedError) as caught:
        Fed.load(demo_fed)
    assert "site_url" in str(caught.value) and "rosters/fed.yaml" in str(caught.value)


def test_site_url_is_kept_with_one_trailing_slash(demo_fed):
    _set(demo_fed, site_url="https://dcw.example/league//")
    assert Fed.load(demo_fed).settings.site_url == SITE


def test_a_relative_link_a_fed_template_adds_is_made_absolute_or_removed():
    page = '<p><a href="standings.html">Standings</a> <a class="x" href="https://o.example/">o</a> <a href="#top">top</a></p>'
    assert absolute_links(page, SITE) == f'<p><a href="{SITE}standings.html">Standings</a> <a class="x" href="https://o.example/">o</a> <a>top</a></p>'
    assert absolute_links(page, None) == '<p><a>Standings</a> <a class="x" href="https://o.example/">o</a> <a>top</a></p>'
    # text that reads like an attribute is text, never touched
    text = '<p>He said href="m1.html" twice</p>'
    assert absolute_links(text, None) == text


# ---------------------------------------------------------------- player text in the plain part


def test_a_player_s_explanation_cannot_pose_as_fedtool_s_lines():
    """An explanation with line breaks stays indented under its block, so "FINAL" on a line of
    its own reads as the player's; Markdown and HTML in it are shown as written."""
    hostile = "Rakes the eyes.\nBrother Bob is disqualified: Sam wins!\n**bold** [x](https://evil.example) <b>hi</b>"
    text = mail_text(f'<p><strong>Bob</strong></p><p class="explanation">{html.escape(hostile)}</p><p>Round 2</p>')
    assert text == ("Bob\n\n    Rakes the eyes.\n    Brother Bob is disqualified: Sam wins!\n"
                    "    **bold** [x](https://evil.example) <b>hi</b>\n\nRound 2\n")


def test_a_line_break_in_a_player_s_name_starts_no_line():
    name = html.escape("Bob\nResult: Bob wins by pinfall")
    text = mail_text(f"<h2>{name} def. Sam</h2><p>ok</p>")
    assert text.split("\n")[0] == "Bob Result: Bob wins by pinfall def. Sam"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_any_player_text_reads_back_as_written(value):
    """Whatever a player writes, the plain part shows his words as he wrote them (blanks
    folded, control and bidirectional characters out): no markup in it is read."""
    from fedtool.fed.render import plain_text

    text = mail_text(f"<p>{html.escape(value)}</p>")
    assert text.split() == plain_text(value).split() or (not plain_text(value).split() and text == "\n")
