"""The two parts of a mail fedtool writes, made to read well in any client (issue 16).

- The plain-text part is written from the HTML part (`mail_text`): text a reader reads as
  it is, with no Markdown source (`**`, `#`, `[text](url)`, backslash escapes or character
  references) left in it. Headings are underlined, lists bulleted, tables laid out in
  columns, a link's address shown after its words when it is absolute and left out when it
  is not (a relative address leads nowhere from a mail), the dice log kept as written.
- The HTML part carries its styles inline (`mail_html`): many clients (Gmail's apps, Outlook)
  drop a `<style>` block, so the page's stylesheet is written into each element's `style`.

Player text: the HTML part is rendered with autoescape, so every value in it is text; this
module reads it with the standard library's HTML parser, which gives back the player's text
as written, never as markup. In the plain-text part that text is then only text: runs of
blanks and line breaks are folded to one space (a player cannot start a line of his own
that looks like fedtool's), but in a block the page shows with its line breaks (the
dice log, a player's explanation), whose lines are indented under the block's first line.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import css_inline

from .render import plain_text

# block elements: each starts on a line of its own
_BLOCKS = {"p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "details", "summary",
           "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "tr", "pre", "blockquote", "hr", "dl", "dt", "dd", "figure", "figcaption"}
_SKIP = {"head", "style", "script", "title", "template"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source", "track", "embed", "param"}
_BLANKS = re.compile(r"\s+")
# A paragraph is one line, never wrapped at a width: every client wraps it to its window,
# and text wrapped at 72 columns reads ragged on a phone. The mail's encoding
# (quoted-printable) keeps its lines under 78 in transit (RFC 5322 2.1.1).
UNDERLINE = 72
ABSOLUTE = re.compile(r"^(https?|mailto):", re.IGNORECASE)


class _Block:
    def __init__(self, tag: str, attrs: dict, indent: str):
        self.tag = tag
        self.attrs = attrs
        self.indent = indent
        self.words: list[str] = []  # inline text, blanks folded
        self.keep = tag == "pre" or "explanation" in (attrs.get("class") or "").split()  # shown with its line breaks


class _Reader(HTMLParser):
    """HTML to lines of text (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.stack: list[_Block] = [_Block("body", {}, "")]
        self.skipping = 0
        self.lists: list[list] = []  # [tag, next number]
        self.links: list[str | None] = []
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None

    # ---- blocks

    def _flush(self, block: _Block) -> None:
        text = "".join(block.words)
        block.words = []
        if block.keep:
            body = text.strip("\n")
            if not body.strip():
                return
            indent = block.indent + ("    " if block.tag != "pre" else "")
            self._blank()
            self.lines.extend((indent + line).rstrip() for line in body.split("\n"))
            self._blank()
            return
        text = _BLANKS.sub(" ", text).strip()
        if not text:
            return
        if block.tag == "li":
            marker = block.attrs.get("_marker", "- ")
            block.attrs["_marker"] = " " * len(marker)  # a second paragraph of the item
            self.lines.append(block.indent + marker + text)
            return
        if block.tag in ("h1", "h2"):
            self._blank()
            self.lines.append(block.indent + text)
            self.lines.append(block.indent + ("=" if block.tag == "h1" else "-") * min(len(text), UNDERLINE))
            self._blank()
            return
        if block.tag in ("h3", "h4", "h5", "h6"):
            self._blank()
            self.lines.append(block.indent + text)
            return
        if block.tag in ("p", "div", "section", "article", "details", "summary", "blockquote", "footer", "body"):
            self._blank()
        self.lines.append(block.indent + text)
        if block.tag in ("p", "summary", "div", "blockquote"):
            self._blank()

    def _blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        if tag in _SKIP:
            self.skipping += tag not in _VOID
            return
        if self.skipping:
            return
        if tag == "br":
            self._text("\n" if self.stack[-1].keep else " ")
            return
        if self.table is not None and tag in ("td", "th"):
            self.cell = []
            return
        if self.table is not None and tag == "tr":
            self.table.append([])
            return
        if tag == "table":
            self._flush(self.stack[-1])
            self.table = []
            return
        if tag == "a":
            href = attributes.get("href", "")
            self.links.append(href if ABSOLUTE.match(href) else None)
            return
        if tag in _BLOCKS:
            parent = self.stack[-1]
            self._flush(parent)
            indent = parent.indent
            if tag in ("ul", "ol"):
                self.lists.append([tag, 1])
                if len(self.lists) > 1:
                    indent += "  "
                else:
                    self._blank()
            if tag == "blockquote":
                indent += "    "
            block = _Block(tag, attributes, indent)
            if tag == "li" and self.lists:
                kind = self.lists[-1]
                block.attrs["_marker"] = f"{kind[1]}. " if kind[0] == "ol" else "- "
                kind[1] += 1
            if tag == "hr":
                self._blank()
                self.lines.append(indent + "-" * 20)
                self._blank()
                return
            self.stack.append(block)

    def handle_endtag(self, tag):
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        if self.skipping:
            return
        if self.table is not None and tag in ("td", "th"):
            if self.cell is not None and self.table:
                self.table[-1].append(_BLANKS.sub(" ", "".join(self.cell)).strip())
            elif self.cell is not None:
                self.table.append([_BLANKS.sub(" ", "".join(self.cell)).strip()])
            self.cell = None
            return
        if self.table is not None and tag == "tr":
            return
        if tag == "table":
            self._table(self.table or [])
            self.table = None
            return
        if tag == "a":
            href = self.links.pop() if self.links else None
            if href:
                self._text(f" <{href.removeprefix('mailto:')}>")
            return
        if tag in _BLOCKS and self._open(tag):
            while True:
                block = self.stack.pop()
                self._flush(block)
                if block.tag in ("ul", "ol") and self.lists:
                    self.lists.pop()
                    if not self.lists:
                        self._blank()
                if block.tag == tag:
                    break

    def _open(self, tag: str) -> bool:
        """Whether a block `tag` is open (the body's own block aside)."""
        stack = self.stack
        for i in range(len(stack) - 1, 0, -1):
            if stack[i].tag == tag:
                return True
        return False

    def _table(self, rows: list[list[str]]) -> None:
        rows = [r for r in rows if r]
        if not rows:
            return
        columns = max(len(r) for r in rows)
        widths = [max((len(r[i]) if i < len(r) else 0) for r in rows) for i in range(columns)]
        indent = self.stack[-1].indent
        self._blank()
        for row in rows:
            cells = [(row[i] if i < len(row) else "").ljust(widths[i]) for i in range(columns)]
            self.lines.append((indent + "  ".join(cells)).rstrip())
        self._blank()

    def handle_data(self, data):
        if self.skipping:
            return
        if self.cell is not None:  # `_text`, written out: a page's most frequent event
            self.cell.append(data)
        elif self.table is None:
            self.stack[-1].words.append(data)

    def _text(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        elif self.table is None:
            self.stack[-1].words.append(data)

    def close(self):
        super().close()
        while len(self.stack) > 1:
            self._flush(self.stack.pop())
        self._flush(self.stack[0])


# The HTML fedtool writes (its templates, autoescaped values, Python-Markdown's output) is
# a plain run of text, tags with double-quoted attributes, end tags, a doctype and <style>
# blocks. Such a page is split by one regular expression and handed to the reader's
# handlers exactly as the standard library's parser hands them (issue 18: its parser was
# most of the cost of a run's mails); any page with anything else in it (a comment, a
# stray "<", an unquoted or single-quoted attribute, a processing instruction) is read by
# the standard library's parser. tests/test_week_mailtext_fast.py holds the two together.
_SPACE = "[ \t\n\r\f]"  # the blanks html.parser ends a tag's name at
_NAME = "[a-zA-Z_:][-a-zA-Z0-9_:.]*"
_TOKEN = re.compile(
    rf'([^<]+)|<([a-zA-Z][a-zA-Z0-9]*)((?:{_SPACE}+{_NAME}(?:="[^"<>]*")?)*){_SPACE}*(/?)>|</([a-zA-Z][a-zA-Z0-9]*)>|<!(?i:doctype){_SPACE}+[a-zA-Z]+>')
_ATTR = re.compile(rf'{_SPACE}+({_NAME})(?:(=)"([^"<>]*)")?')
_CDATA = {"script", "style"}  # html.parser reads their content as it is, to their end tag
_CDATA_END = {name: re.compile(rf"</\s*{name}\s*>", re.IGNORECASE) for name in _CDATA}


def _events(html: str) -> list[tuple] | None:
    """What html.parser (convert_charrefs on) would tell a reader of `html`, in order:
    ("start", tag, attrs), ("end", tag), ("data", text), a start-end tag as a start and an
    end (its default); None when `html` is not of the plain kind above."""
    from html import unescape

    events: list[tuple] = []
    add = events.append
    position, size = 0, len(html)
    while position < size:
        found = _TOKEN.match(html, position)
        if found is None:
            return None
        text, tag, attributes, closed, end = found.groups()
        position = found.end()
        if text is not None:
            add(("data", unescape(text)))
        elif tag is not None:
            tag = tag.lower()
            # an attribute's value unescaped; None for one with no value, as html.parser gives
            attrs = [(name.lower(), (unescape(value) if value else value) if equals else None)
                     for name, equals, value in _ATTR.findall(attributes)] if attributes else []
            add(("start", tag, attrs))
            if closed:
                add(("end", tag))
            elif tag in _CDATA:
                stop = _CDATA_END[tag].search(html, position)
                if stop is None or stop.group() != f"</{tag}>":
                    return None
                if stop.start() > position:
                    add(("data", html[position:stop.start()]))
                add(("end", tag))
                position = stop.end()
        elif end is not None:
            add(("end", end.lower()))
    return events


# Where a page is cut into pieces read apart (`_page_events`): around each writeup. The
# same writeup comes in several mails of a run (its players', the card's), so its events
# are found once and kept for the process's next page that holds it.
_PIECE = re.compile(r"<article[ >]|</article>")
_PIECES: dict[str, list[tuple] | None] = {}


def _page_events(html: str) -> list[tuple] | None:
    """`_events(html)`, each piece of the page (cut before every `<article` and after every
    `</article>`) read once per process. The same events: every `<` outside a `<style>` or
    `<script>` block starts a token (no token of the plain kind holds one, `_TOKEN`), and
    `</article>` is one token, so each cut is a cut between tokens; a piece holding the
    start of such a block without its end reads as not plain (None), and the page is then
    read whole. tests/test_run_work_fast.py compares
    the two."""
    cuts = [found.start() if found.group()[1] == "a" else found.end() for found in _PIECE.finditer(html)]
    if not cuts:
        return _events(html)
    pieces = [html[start:stop] for start, stop in zip([0, *cuts], [*cuts, len(html)])]
    events: list[tuple] = []
    for piece in pieces:
        found = _PIECES.get(piece, False)
        if found is False:
            found = _events(piece)
            if len(_PIECES) >= 64:
                _PIECES.clear()
            _PIECES[piece] = found
        if found is None:
            return _events(html)
        events += found
    return events


def mail_text(html: str) -> str:
    """The plain-text part of a mail from its HTML part: readable text, no markup of any kind
    (see the module's docstring); cleaned by `plain_text`."""
    reader = _Reader()
    html = plain_text(html)
    events = _page_events(html)
    if events is None:
        reader.feed(html)
    else:
        start, end, data = reader.handle_starttag, reader.handle_endtag, reader.handle_data
        for event in events:
            kind = event[0]
            if kind == "data":
                data(event[1])
            elif kind == "start":
                start(event[1], event[2])
            else:
                end(event[1])
    reader.close()
    lines = reader.lines
    while lines and lines[0] == "":
        lines.pop(0)
    while lines and lines[-1] == "":
        lines.pop()
    text = "\n".join(lines) + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


# The HTML part's styles written into each element (css-inline, a maintained Rust library
# with Python wheels): Gmail's apps, Outlook and many webmails drop or ignore a <style>
# block, so a mail styled only there reads unstyled. The <style> block itself is removed.
_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def mail_html(page: str) -> str:
    """A whole HTML page as a mail's HTML part: its stylesheet inlined as `style` attributes."""
    return _INLINER.inline(page)


# an href or src in a tag (never in text: the serializer writes a text's "<" as "&lt;")
_LINK = re.compile(r'(<[A-Za-z][^<>]*?\s)(href|src)="([^"]*)"')


def absolute_links(html: str, site_url: str | None, pages: dict[str, str] | None = None) -> str:
    """Every link of a mail's HTML made absolute (issue 16: a relative link in a mail leads
    nowhere). An address in `pages` (a writeup's file name, "m1.html") becomes the site's
    page for it; any other relative one is read against `site_url`. Without `site_url` a
    relative link is removed (its words stay, as text), never left dead."""
    from urllib.parse import urljoin

    def fix(found: re.Match) -> str:
        head, name, value = found.groups()
        target = value.replace("&amp;", "&")
        if ABSOLUTE.match(target) or target.startswith("cid:"):
            return found.group()
        if pages and target in pages:
            return f'{head}{name}="{pages[target]}"'
        if site_url and not target.startswith("#"):
            return f'{head}{name}="{urljoin(site_url, target).replace("&", "&amp;").replace(chr(34), "%22")}"'
        return head.rstrip()

    return _LINK.sub(fix, html)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def unmarked(text: str) -> str:
    """fedtool's own words for a plain-text mail (an answer to a strategy mail or a mail
    command): a Markdown code span (`fedtool open WEEK`, `prefer:`) in quotes, since a mail
    client shows backticks as they are (issue 16). Never for a player's own text, which is
    quoted as it came."""
    return _CODE_SPAN.sub(r'"\1"', text)

