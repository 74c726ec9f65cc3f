"""Writeups from jinja2 templates: the fed's templates/ first, then the packaged defaults.

A fed template can extend the stock one it replaces with `{% extends "default:NAME" %}`
(the datasette pattern). Every template runs in jinja's sandbox and sees only the data
fedtool hands it.

Player text (wrestler names, nicknames, explanations, promos, move names) is untrusted, and
each output format has one escaper, applied to every value a template prints, so a template
cannot forget it:

- HTML (`*.html.j2`): jinja's autoescape (markupsafe).
- Markdown (`*.md.j2`): `md_escape`, through the environment's `finalize`. Markdown made on
  purpose passes with a filter: `fedhead_markdown` (the fedhead's card notes, trusted),
  `md_code` (a code span), `md_fence` (a fenced block).
- Plain text: `plain_text` (no control characters, no bidirectional overrides), for every
  value any template prints and for every mail's parts and headers.
- YAML and JSON: only ever written by `yaml` (`fedtool.kernel.yamlio.dump_yaml`, a
  SafeDumper) and `json.dumps`, which quote what they write.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import tempfile
import types
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import formataddr, format_datetime
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path
from jinja2 import BaseLoader, ChoiceLoader, FileSystemBytecodeCache, TemplateNotFound, FileSystemLoader, PackageLoader, PrefixLoader, StrictUndefined, pass_context, select_autoescape
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from markupsafe import Markup

from fedtool.kernel import clock
from fedtool.kernel.checked import cache_folder  # the user's own cache folder, shared with the checked files' verdicts
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.yamlio import read_text

MARKDOWN_TEMPLATES = (".md.j2", ".md", ".markdown.j2", ".markdown")  # printed values go through md_escape, others through plain_text


def environment(fed_templates: Path | None, rulesets: dict[str, Path] | None = None) -> ImmutableSandboxedEnvironment:
    """The templates a fed renders with: its own templates/ first, then fedtool's.

    `rulesets` maps a ruleset id to its packaged templates folder, found as `<id>/NAME`
    (the fed's own templates/<id>/NAME still comes first).

    jinja's `ImmutableSandboxedEnvironment`: a template (a fed's own, perhaps copied from
    someone else) cannot reach Python's internals (`__class__`, `__globals__`, ...) nor
    change the data it is handed; trying ends in a `SecurityError`, which `render` turns
    into a FedError naming the template. The site builds with this environment too."""
    packaged: BaseLoader = PackageLoader("fedtool", "templates")
    if rulesets:
        packaged = ChoiceLoader([packaged, PrefixLoader({rid: FileSystemLoader(str(folder)) for rid, folder in rulesets.items()}, delimiter="/")])
    loaders = [FedTemplates(str(fed_templates))] if fed_templates and fed_templates.is_dir() else []
    env = FedSandbox(
        loader=ChoiceLoader([*loaders, PrefixLoader({"default": packaged}, delimiter=":"), packaged]),
        bytecode_cache=bytecode_cache(),
        autoescape=select_autoescape(enabled_extensions=("html", "htm", "xml", "html.j2", "htm.j2", "xml.j2"), default_for_string=False),
        finalize=_finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # what a template renders is escaped already: a macro's output, a parent block's
    # (`super()`), a `{% set %}` block's are marked so, and not escaped a second time
    env.concat = _rendered  # type: ignore[method-assign]
    env.filters["fedhead_markdown"] = _fedhead_markdown_filter
    env.filters["md_escape"] = md_escape
    env.filters["md_code"] = md_code
    env.filters["md_fence"] = md_fence
    env.filters["plain_text"] = plain_text
    env.filters["stars"] = stars
    return env


class FedSandbox(ImmutableSandboxedEnvironment):
    """jinja's immutable sandbox, with one shortcut that changes nothing it answers: `x.name`
    on a plain dict that has no attribute `name` (no dict method is so named) is `x["name"]`
    at once. jinja asks for the attribute first, and for a dict that always fails, so every
    key a template read cost a raised AttributeError (issue 18: most of a writeup's lookups).
    A dict's methods (`items`, `get`, ...) and every other object still go through the
    sandbox's own `getattr` and its checks."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))  # every name getattr finds on a plain dict (its type's and object's)


# Raised whenever `environment` changes how templates compile (its options, filters that
# the compiler sees): compiled templates of another revision are then never loaded.
ENVIRONMENT_REVISION = 1


def bytecode_cache() -> FileSystemBytecodeCache | None:
    """Where compiled templates are kept between runs, so no template is compiled twice
    (issue 18: compiling them was a quarter of a week's run).

    A folder of the user's own cache (FEDTOOL_CACHE_DIR, else $XDG_CACHE_HOME/fedtool, else
    ~/.cache/fedtool), never the fed's folder: compiled code is loaded as code, so the folder
    must be the user's alone, made 0700, and one that is not (another owner, writable by
    others) is not used. Each template is kept under its name and file and checked against
    its source's SHA-1 when loaded (jinja2's FileSystemBytecodeCache), so an edited template
    is compiled again; the folder's name carries jinja2's version and ENVIRONMENT_REVISION.
    FEDTOOL_CACHE_DIR set empty turns the cache off; so does a folder that cannot be made.
    Templates are kept by name and source, not by file (`TemplateCache`): a fed moved or
    copied elsewhere finds its templates compiled."""
    folder = cache_folder(f"jinja-{jinja2.__version__}-{ENVIRONMENT_REVISION}")
    return TemplateCache(folder) if folder else None


class TemplateCache(FileSystemBytecodeCache):
    """jinja2's FileSystemBytecodeCache with each template kept under its name and its
    source's SHA-1 rather than its name and its file: the same template in another folder
    (a fed copied or moved, the demo in a new clone) is not compiled again (issue 18: "no
    template is compiled twice across runs"; a fed's own two templates compiled at a new
    path were about 5% of the demo week's run). What a template compiles to depends only
    on its name (which decides its escaping) and its source, and on the environment,
    whose options the folder's name carries (ENVIRONMENT_REVISION).

    Compiled code names the file it was compiled from (its `co_filename`), which is where
    an error in a template is reported (`_place`); code found in the cache is pointed at
    the file it is loaded for (`_pointed_at`), as Python points a moved module's cached
    bytecode at its new file."""

    def get_bucket(self, environment, name, filename, source):
        checksum = self.get_source_checksum(source)
        bucket = Bucket(environment, hashlib.sha1(f"{name}\0{checksum}".encode()).hexdigest(), checksum)
        self.load_bytecode(bucket)
        if bucket.code is not None and filename and bucket.code.co_filename != filename:
            bucket.code = _pointed_at(bucket.code, filename)
        return bucket


def _pointed_at(code: types.CodeType, filename: str) -> types.CodeType:
    """`code` and every function's code in it naming `filename` as their file."""
    consts = tuple(_pointed_at(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def stars(value) -> str:
    """A star rating (0 to 5 in quarter stars, docs/ratings.md) in words and signs:
    3.25 -> "★★★¼ (3.25 stars)"; zero -> "DUD (0 stars)"; anything but a quarter from 0
    to 5 -> "" (a hand-edited league's)."""
    if isinstance(value, dict):
        value = value.get("stars")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 5 or value * 4 != int(value * 4):
        return ""
    quarters = int(value * 4)
    whole, part = divmod(quarters, 4)
    signs = "★" * whole + ("", "¼", "½", "¾")[part]
    figure = f"{quarters / 4:g}"
    return f"{signs or 'DUD'} ({figure} star{'' if figure == '1' else 's'})"


def _rendered(parts) -> MarkdownText:
    return MarkdownText("".join(parts))


@pass_context
def _finalize(context, value):
    """Every value a template prints: Markdown-escaped in a Markdown template, cleaned by
    `plain_text` in any other (an HTML template then escapes it: autoescape)."""
    name = context.name
    markdown = _IS_MARKDOWN.get(name)
    if markdown is None:
        markdown = _IS_MARKDOWN[name] = bool(name and name.endswith(MARKDOWN_TEMPLATES))
    if markdown:
        return md_escape(value)
    if hasattr(value, "__html__"):  # HTML made on purpose (Markup: the fedhead's Markdown, a writeup)
        return value
    return plain_text(value)  # then autoescaped in an HTML template


_IS_MARKDOWN: dict[str | None, bool] = {}  # a template's name -> whether it is a Markdown template


@pass_context
def _fedhead_markdown_filter(context, text: str | None):
    """`fedhead_markdown` in a template: the fedhead's Markdown as written in a Markdown
    template, rendered to HTML in any other."""
    if context.name and context.name.endswith(MARKDOWN_TEMPLATES):
        return MarkdownText(text or "")
    return fedhead_markdown(text)


def fedhead_markdown(text: str | None) -> Markup:
    """Markdown written by the fedhead (card notes): trusted, rendered to HTML.

    Never use this on player text: Markdown passes raw HTML through.

    The HTML is kept in the user's cache (`cache_folder`, beside the compiled templates) by
    the text and the Markdown library's file, so a card's notes are turned into HTML once,
    not by every command that shows them, and Python-Markdown is not imported for them
    again (issue 18: its import was about a tenth of a week's run).
    """
    text = text or ""
    path = _markdown_cache(text)
    if path is not None:
        try:
            with open(path, encoding="utf-8") as handle:
                return Markup(handle.read())
        except OSError:
            pass
    import markdown as markdown_lib  # only where Markdown is made (issue 18)

    html = markdown_lib.markdown(text)
    if path is not None:
        try:
            fd, name = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".new-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(html)
            os.replace(name, path)
        except OSError:
            pass
    return Markup(html)


def _markdown_cache(text: str) -> str | None:
    """Where the HTML of `text` as the fedhead's Markdown is kept: a file named by the text and
    the installed Markdown library (its path and its file's time: an upgrade is another
    library); None without a cache, or without the library (its import then says so)."""
    import importlib.util

    folder = cache_folder(f"markdown-{MARKDOWN_REVISION}")
    if folder is None:
        return None
    try:
        spec = importlib.util.find_spec("markdown")
        origin = spec.origin if spec is not None else None
        if origin is None:
            return None
        library = f"{origin}\0{os.stat(origin).st_mtime_ns}"
    except (OSError, ImportError, ValueError):
        return None
    key = hashlib.sha256(f"{library}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(folder, f"{key}.html")


MARKDOWN_REVISION = 1  # raised whenever fedhead_markdown's options change: no older HTML is read


def markdown_page(text: str) -> Markup:
    """A Markdown file fedtool wrote (an announcement: player text in it passed `md_escape`)
    as HTML, for a mail's parts (fedtool.fed.mailtext). Tables as GitHub writes them."""
    import markdown as markdown_lib

    return Markup(markdown_lib.markdown(str(text), extensions=["tables"]))


class MarkdownText(str):
    """Markdown that is safe to print as it is: player text escaped by `md_escape`, a code
    span or block, the fedhead's own Markdown. Like markupsafe's `Markup` for HTML: the
    Markdown templates' `finalize` leaves it alone, and escaping it again changes nothing."""

    __slots__ = ()

    def splitlines(self, keepends: bool = False) -> list[MarkdownText]:  # type: ignore[override]
        # escaped text splits into escaped lines (md_escape escapes each line on its own)
        return [MarkdownText(line) for line in super().splitlines(keepends)]


# ---------------------------------------------------------------- plain text

# line breaks as the Markdown renderers and mail readers see them, and the characters no
# reader should get from a player: C0 and C1 controls (but tab and line feed) and the
# Unicode bidirectional controls that reorder what is shown ("Trojan Source", CVE-2021-42574)
_LINE_BREAKS = re.compile("\r\n?|[\x85\u2028\u2029]")
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


# either of the two above (a carriage return is a control character): text with none of them
# is plain text already, found in one pass (issue 18: nearly every value a template prints)
_UNPLAIN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def plain_text(text) -> str:
    """Text as a plain-text mail or file may show it: line breaks made line feeds; control
    characters (but tab and line feed) and bidirectional overrides removed."""
    text = str(text)
    if _UNPLAIN.search(text) is None:
        return text
    return _INVISIBLE.sub("", _LINE_BREAKS.sub("\n", text))


def one_line(text) -> str:
    """`plain_text` for a header or a single line: its line breaks and tabs are spaces."""
    return " ".join(plain_text(text).replace("\t", " ").split("\n")).strip()


# ---------------------------------------------------------------- Markdown

# Anywhere in a line. Backslash escapes (CommonMark 2.4) for the characters that start
# inline Markdown (code, emphasis, links, images, attribute lists, headings) and that
# Python-Markdown also honours escaped (its ESCAPED_CHARS); a character reference for the
# rest, because Python-Markdown prints a backslash before any other character, and passes
# `\<tag>` through as raw HTML: `<` (raw HTML, autolinks), `|` (tables), `~` (strikethrough,
# ~~~ fences), an `&` that could start a character reference, and the colon of a URI
# scheme (`javascript:x`: no linkifier sees a scheme). An `_` between two letters or digits
# (no_show_limit) emphasises nothing in any of them, and other punctuation (. , ; ' " ( ) -
# ! ? / ...) never starts Markdown in the middle of a line: they stay as they are, readable.
_MD_INLINE = re.compile(r"[\\`*\[\]{}#]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|[<|~]|&(?=[A-Za-z0-9#]|$)|(?<=[A-Za-z]):(?=\S)")
_MD_REFERENCE = {"<": "&lt;", "|": "&#124;", "~": "&#126;", "&": "&amp;", ":": "&#58;", "=": "&#61;"}
# At a line's start, what would begin a block there: a list item (`- `, `+ `, `1. `, `1) `),
# a thematic break or setext underline (`---`, `===`), a block quote (`>`), a
# Python-Markdown admonition (`!!!`) or definition (`: `). A character that begins none
# (`-7`, `1.5`) stays as it is.
_MD_LINE_START = re.compile(r"([-+](?=[\s-]|$)|>|!(?=!))|([=:](?=[\s=]|$))|(\d+)([.)](?=\s|$))")


def _md_char(found: re.Match) -> str:
    char = found.group()
    return _MD_REFERENCE.get(char) or "\\" + char


def _md_line(line: str) -> str:
    line = line.strip(" \t")  # leading blanks would make a code block, two trailing a line break
    start = ""
    found = _MD_LINE_START.match(line)
    if found:
        if found.group(1):
            start = "\\" + found.group(1)
        elif found.group(2):
            start = _MD_REFERENCE[found.group(2)]
        else:
            start = found.group(3) + "\\" + found.group(4)
        line = line[found.end():]
    return start + _MD_INLINE.sub(_md_char, line)


def md_escape(text) -> MarkdownText:
    """Player text as literal text in any Markdown renderer (CommonMark, GitHub's, Python-Markdown).

    No raw HTML, no links, autolinks or images, no headings, lists, quotes, tables, code or
    emphasis can come from it: see `_MD_INLINE` and `_MD_LINE_START` for what is escaped and
    how. Each line is escaped as if it started a line (a value may be printed at a line's
    start), its leading and trailing blanks dropped, and `plain_text` cleans it first.
    Escaping `MarkdownText` again returns it unchanged."""
    kind = type(text)
    if kind is str:
        if _MD_QUIET.fullmatch(text):  # nearly every value: a name, a word, a phrase
            return MarkdownText(text)
    elif kind is int:  # digits, a minus: nothing to escape
        return MarkdownText(text)
    elif isinstance(text, MarkdownText):
        return text
    return _md_escape(text)


def _md_escape(text) -> MarkdownText:
    """`md_escape` the long way: every line cleaned and escaped."""
    return MarkdownText("\n".join(_md_line(line) for line in plain_text(text).split("\n")))


# Text that `_md_escape` gives back as it is, told in one match: no character `_MD_INLINE`
# could escape (a colon or an `_` anywhere, to keep it short), none that `plain_text`
# changes (every control character), no blank or tab at either end, and no first character
# that could start a block (`_MD_LINE_START`; a digit at all). tests/test_run_work_fast.py
# compares the two over random text.
_MD_QUIET = re.compile("(?![-+>!=:0-9 ])[^\\\\`*\\[\\]{}#_<|~&:\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*(?<! )")


def md_code(text) -> MarkdownText:
    """Text as one Markdown code span, shown exactly (a seed text, a calculation): fenced by
    more backticks than any run in it (CommonMark 6.1), on one line."""
    content = one_line(text)
    if not content:
        return MarkdownText("")
    fence = "`" * (max((len(run) for run in re.findall("`+", content)), default=0) + 1)
    if content.strip(" ") and (content[0] in " `" or content[-1] in " `"):
        content = f" {content} "  # a renderer strips one space from each end, and only then
    return MarkdownText(f"{fence}{content}{fence}")


def md_fence(text, in_html: bool = False) -> MarkdownText:
    """Text as a fenced Markdown code block (the dice log), shown exactly: its fence longer
    than any run of backticks in it, so no line of it can close the block (CommonMark 4.5).

    `in_html`: the block sits inside raw HTML, as the writeups fold the dice log in
    `<details>`. Python-Markdown (without its fenced_code extension) passes a whole
    `<details>` element through as raw HTML, this block too, so a `<` in it (and an `&`
    that could start a character reference) is written as a character reference: shown as
    `<` where the block is read as raw HTML, as written where it is read as code
    (CommonMark, GitHub's, Python-Markdown's fenced_code). Only player text holds either."""
    content = plain_text(text)
    if in_html:
        content = re.sub(r"<|&(?=[A-Za-z0-9#])", lambda found: _MD_REFERENCE[found.group()], content)
    fence = "`" * max(3, max((len(run) for run in re.findall("`+", content)), default=0) + 1)
    if content and not content.endswith("\n"):
        content += "\n"
    return MarkdownText(f"{fence}\n{content}{fence}")


# ---------------------------------------------------------------- rendering


class FedTemplates(FileSystemLoader):
    """The fed's own templates/, read through the guard every file fedtool reads goes
    through (`fedtool.kernel.yamlio.read_text`): a folder, a pipe or a device named like a
    template, a huge file, bytes that are not UTF-8 or a NUL are refused by name, never
    waited on or loaded whole."""

    def get_source(self, environment, template):
        for folder in self.searchpath:
            path = Path(folder, *split_template_path(template))
            if os.path.lexists(path):
                text = read_text(path, f"templates/{template}", limit=TEMPLATE_BYTES)
                mtime = path.stat().st_mtime
                return text, str(path), lambda: path.exists() and path.stat().st_mtime == mtime
        raise TemplateNotFound(template)


TEMPLATE_BYTES = 1_000_000


def render(env: ImmutableSandboxedEnvironment, name: str, **context) -> str:
    """Render a template; any error in it is a FedError naming the template and its line."""
    try:
        return str(env.get_template(name).render(**context))
    except TemplateNotFound as exc:
        raise FedError(Problem(name, None, f"template {exc.name!r} not found in the fed's templates/ or fedtool's", "writeup templates")) from None
    except FedError:  # a fed template file refused by the guard every file read goes through
        raise
    except SecurityError as exc:
        template, line = _place(exc, name)
        raise FedError(Problem(template, f"line {line}" if line else None,
                               f"the template tried something templates may not do ({str(exc).rstrip('.')}): a template sees only the data fedtool hands it",
                               "writeup templates: sandbox")) from None
    except Exception as exc:  # a fed's own template can be wrong in many ways
        template, line = _place(exc, name)
        raise FedError(Problem(template, f"line {line}" if line else None, f"template error: {exc}", "writeup templates")) from None


def _place(exc: Exception, name: str) -> tuple[str, int | None]:
    """The template file and line an error happened in: from a syntax error itself, else
    from the traceback jinja rewrites to point into the template."""
    template, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if template:
        return template, line
    tb = exc.__traceback__
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:  # a frame jinja made for a template line
            template, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    return template or name, line


class MailPolicy(EmailPolicy):
    """The standard policy, but a Subject is never folded right after its colon.

    When a subject is too long for the header's first line but fits on the next, Python
    moves all of it there ("Subject:" CRLF " Corrected: ..."), which parsers, Python's
    own among them, read back with a leading space. Such a subject stays on one line (RFC
    5322 allows 998 characters; 78 is a recommendation)."""

    # The standard policy parses a header again on every read (a mail's Content-Type a
    # dozen times while its parts are walked) and every write, and folds it again each time
    # the mail is written out; that dominated the cost of mail intake and sending. A parsed
    # header is immutable and its folding depends only on its text, its name and the
    # policy, so each is done once per text and kept (at most _CACHED_MAX of each).

    def header_fetch_parse(self, name, value):
        if hasattr(value, "name"):
            return value
        return _cached(_FETCHED, (name, value), lambda: super(MailPolicy, self).header_fetch_parse(name, value))

    def header_store_parse(self, name, value):
        if not isinstance(value, str) or hasattr(value, "name"):
            return super().header_store_parse(name, value)
        # a value with a line break is still refused by the standard policy, never cached
        return name, _cached(_STORED, (name, value), lambda: super(MailPolicy, self).header_store_parse(name, value)[1])

    def fold(self, name, value):
        return _cached(_FOLDED, (self, name, value, type(value), False), lambda: self._fold_subject(name, value))

    def fold_binary(self, name, value):
        return _cached(_FOLDED, (self, name, value, type(value), True), lambda: self._fold_binary(name, value))

    def _fold_subject(self, name, value):
        folded = super().fold(name, value)
        text = str(value)
        if name.lower() == "subject" and folded.startswith(f"{name}:{self.linesep}") and text.isascii() and len(text) < 990:
            return f"{name}: {text.strip()}{self.linesep}"
        return folded

    def _fold_binary(self, name, value):
        return self._fold_subject(name, value).encode("ascii") if name.lower() == "subject" and str(value).isascii() else super().fold_binary(name, value)


def _cached(cache: dict, key, make):
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHED_MAX:
            cache.clear()
        found = cache[key] = make()
    return found


_FETCHED: dict = {}  # (name, text) -> the header parsed, as read from a mail
_STORED: dict = {}  # (name, text) -> the header parsed, as set on a mail
_FOLDED: dict = {}  # (policy, name, header, its type, binary) -> the header line(s) as written
_CACHED_MAX = 256  # the headers that repeat (Content-Type, From, Date) are few; the rest churn
MAIL_POLICY = MailPolicy()  # every mail fedtool writes or reads back from the outbox


def _headers(sender: str, to_name: str, to_address: str, subject: str, message_id: str, reply_to: str | None,
             date: datetime.datetime | None, references: str | None) -> list[tuple[str, str]]:
    """A mail's headers before its content's, in order, as `email` sets them and `email_text` writes them."""
    headers = [("From", sender), ("To", formataddr((one_line(to_name), to_address))), ("Subject", one_line(subject)),
               ("Date", format_datetime(date or clock.now())), ("Message-ID", message_id)]
    if references:
        headers += [("In-Reply-To", references), ("References", references)]
    if reply_to:
        headers.append(("Reply-To", reply_to))
    headers.append(("Auto-Submitted", "auto-generated"))  # RFC 3834: no autoreplies to us
    return headers


def _boundary(message_id: str, text: str, html: str) -> str:
    """A boundary from the Message-ID, not a random one, so a rerun writes the same bytes;
    never one that a line of either part holds (RFC 2046 5.1.1)."""
    boundary = "=_fedtool_" + hashlib.sha256(message_id.encode()).hexdigest()[:24]
    while f"--{boundary}" in text or f"--{boundary}" in html:
        boundary = "=_fedtool_" + hashlib.sha256(boundary.encode()).hexdigest()[:24]
    return boundary


def email(sender: str, to_name: str, to_address: str, subject: str, text: str, html: str | None, message_id: str, reply_to: str | None = None,
          date: datetime.datetime | None = None, references: str | None = None) -> EmailMessage:
    """One mail: Markdown as the text part, HTML as the alternative.

    Every part and header passes `plain_text` (`one_line` for the subject and the name):
    no control character or bidirectional override from a player reaches a mail.
    `date` is its Date header (RFC 5322 requires one): a run's mails carry the run's own
    time, so the mails of one run agree; default: the clock (`fedtool.kernel.clock`).
    `references` is the Message-ID of the mail this one corrects or repeats."""
    message = EmailMessage(policy=MAIL_POLICY)
    for name, value in _headers(sender, to_name, to_address, subject, message_id, reply_to, date, references):
        message[name] = value
    text = plain_text(text)
    message.set_content(text)
    if html is not None:
        html = plain_text(html)
        message.add_alternative(html, subtype="html")
        message.set_boundary(_boundary(message_id, text, html))
    return message


def email_text(sender: str, to_name: str, to_address: str, subject: str, text: str, html: str, message_id: str, reply_to: str | None = None,
               date: datetime.datetime | None = None, references: str | None = None) -> str:
    """`email(...).as_string()` of a mail with both parts, the same text, written without
    building each message (issue 18: the email package building a week's mails was a
    fifth of a run): each header line folded by the mails' policy, as the generator
    writes it; the two parts encoded and written by the email package once per pair of
    texts (`_alternative_parts`: the players of one match get the same writeups), between
    the mail's own boundary lines as the generator writes them.
    tests/test_startup.py compares the two over thousands of mails."""
    text, html = plain_text(text), plain_text(html)
    boundary = _boundary(message_id, text, html)
    headers = _headers(sender, to_name, to_address, subject, message_id, reply_to, date, references)
    headers += [("MIME-Version", "1.0"), ("Content-Type", f'multipart/alternative; boundary="{boundary}"')]
    plain, rich = _alternative_parts(text, html)
    lines = [MAIL_POLICY.fold(name, MAIL_POLICY.header_store_parse(name, value)[1]) for name, value in headers]
    return "".join(lines) + f"\n--{boundary}\n{plain}\n--{boundary}\n{rich}\n--{boundary}--\n"


_PARTS: dict[tuple[str, str], tuple[str, str]] = {}


def _alternative_parts(text: str, html: str) -> tuple[str, str]:
    """The text and HTML parts of a mail of these texts as the generator writes them (each
    with its headers), made by the email package and kept for the process's next mail of
    the same texts: a mail's written form is its headers, a blank line, then its parts
    between lines of its boundary, which neither part holds (`_boundary`)."""
    found = _PARTS.get((text, html))
    if found is None:
        message = EmailMessage(policy=MAIL_POLICY)
        message.set_content(text, content_manager=_FAST_TEXT)
        message.add_alternative(html, subtype="html", content_manager=_FAST_TEXT)
        boundary = _boundary("", text, html)
        message.set_boundary(boundary)
        body = message.as_string().split("\n\n", 1)[1]
        head, tail = f"--{boundary}\n", f"\n--{boundary}--\n"
        assert body.startswith(head) and body.endswith(tail), "the email package wrote a multipart of another shape"
        plain, rich = body[len(head):-len(tail)].split(f"\n--{boundary}\n")
        if len(_PARTS) >= 64:
            _PARTS.clear()
        found = _PARTS[(text, html)] = (plain, rich)
    return found


# ---------------------------------------------------------------- quoted-printable, made faster

# A mail's text part is one line a paragraph, so its parts are mostly quoted-printable, and
# the email package's encoder (`quoprimime.body_encode`) maps every character through a
# 256-entry list (str.translate on a list: most of a week's mail encoding, issue 18). The
# content manager below sets a text part as the email package's own `set_text_content`
# does, through its own `_encode_text` but for a body it would quote-print whole, which is
# encoded by `_quoted_printable`: `body_encode` with the characters that need it found by
# one regular expression. tests/test_startup.py compares the two encoders and the mails.

def _set_text_content(msg, string, subtype="plain", charset="utf-8", cte=None, disposition=None, filename=None, cid=None, params=None, headers=None):
    """email.contentmanager.set_text_content, its body encoded by `_encode_text`."""
    import email.charset
    from email import contentmanager

    contentmanager._prepare_set(msg, "text", subtype, headers)
    cte, payload = _encode_text(string, charset, cte, msg.policy)
    msg.set_payload(payload)
    msg.set_param("charset", email.charset.ALIASES.get(charset, charset), replace=True)
    msg["Content-Transfer-Encoding"] = cte
    contentmanager._finalize_set(msg, disposition, filename, cid, params)


def _encode_text(string: str, charset: str, cte: str | None, policy) -> tuple[str, str]:
    """email.contentmanager._encode_text: the transfer encoding its heuristics choose and the
    body so encoded; a body of more than ten lines, some longer than the policy's lines, that
    its first ten lines say to quote-print is encoded by `_quoted_printable`."""
    import binascii
    from email import quoprimime
    from email.contentmanager import _encode_text as encode_text

    lines = string.encode(charset).splitlines()
    if cte is not None or len(lines) <= 10 or max(len(x) for x in lines) <= policy.max_line_length:
        return encode_text(string, charset, cte, policy)
    sniff = policy.linesep.encode("ascii").join(lines[:10]) + policy.linesep.encode("ascii")
    if len(quoprimime.body_encode(sniff.decode("latin-1"), policy.max_line_length)) > len(binascii.b2a_base64(sniff)):
        return encode_text(string, charset, "base64", policy)
    return "quoted-printable", _quoted_printable((b"\n".join(lines) + b"\n").decode("latin-1"), policy.max_line_length)


_QP_QUOTED = re.compile("[^\t\n\r -<>-~]")  # what quoprimime's body map writes as =XX (a body is latin-1 here: every character below 256)
_QP_CODES = ["=%02X" % c for c in range(256)]


def _quoted_printable(body: str, maxlinelen: int = 76, eol: str = "\n") -> str:
    """email.quoprimime.body_encode, the same text: the characters it quotes found by one
    regular expression rather than a translation of every character."""
    if maxlinelen < 4:
        raise ValueError("maxlinelen must be at least 4")
    if not body:
        return body
    body = _QP_QUOTED.sub(lambda found: _QP_CODES[ord(found.group())], body)
    soft_break = "=" + eol
    maxlinelen1 = maxlinelen - 1
    encoded_body: list[str] = []
    append = encoded_body.append
    for line in body.splitlines():
        start = 0
        laststart = len(line) - 1 - maxlinelen
        while start <= laststart:
            stop = start + maxlinelen1
            if line[stop - 2] == "=":  # never break an escape
                append(line[start:stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                append(line[start:stop])
                start = stop - 1
            else:
                append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":  # a blank at the end of a line is quoted
            room = start - laststart
            if room >= 3:
                q = _QP_CODES[ord(line[-1])]
            elif room == 2:
                q = line[-1] + soft_break
            else:
                q = soft_break + _QP_CODES[ord(line[-1])]
            append(line[start:-1] + q)
        else:
            append(line[start:])
    if body[-1] in "\r\n":
        append("")
    return eol.join(encoded_body)


def _text_manager():
    """The email package's content manager for raw data, its text parts set by `_set_text_content`."""
    from email.contentmanager import ContentManager, raw_data_manager

    manager = ContentManager()
    manager.get_handlers = dict(raw_data_manager.get_handlers)
    manager.set_handlers = dict(raw_data_manager.set_handlers)
    manager.add_set_handler(str, _set_text_content)
    return manager


_FAST_TEXT = _text_manager()
