"""Plain-text strategies in the rulebook's own layout (MatchMatch Part V and Part VI).

Players paste strategies the way the rulebook prints them::

    Strategy:+Brawl +Cheat -Martial Arts, Grid C
    Round   Target  Type            Notes:
    1       MA      Normal          Drive Sam into the corner and smack him around
                            with closed fists and other borderline moves.

`parse_plaintext` turns such text into exactly the structure a YAML strategy file parses
to (LineDict / LineList carrying the plain-text line numbers, so later validation errors
point at the player's lines), plus one `Reading` per non-blank line saying how the line
was read. Only the STRUCTURE is checked here; style and round-type names are carried
through as written and checked by the strategy validator downstream. The vocabulary is
used only to find where multi-word columns ("High Risk", "Martial Arts") end.

The layout, every accepted spelling and every error are described for players in
docs/strategy-plaintext.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.yamlio import LineDict, LineList
from .rules import Vocabulary, vocabulary

MAX_BYTES = 200_000
MAX_LINES = 2_000
MAX_DIGITS = 3  # round numbers, grid numbers and condition numbers: 0-999
SHOWN = 60  # characters of a line quoted in an error message

RULE_HEADER = "MatchMatch III.1 / Part VI layout"
RULE_ROW = "MatchMatch III.2 / Part V layout"
RULE_STYLE = "MatchMatch Part V: actions by round style"
RULE_CONDITION = "MatchMatch Part V: clear conditionals"
RULE_LAYOUT = "fedtool: plain-text strategy layout"

EXPECTED = (
    "expected one of: a strategy line ('Strategy: +Brawl +Cheat -Martial Arts, Grid C', or "
    "'+Cheating, +Brawling' / '-MA' / 'Grid: C' on their own lines), a table heading "
    "('Round Target Type Notes'), 'Rounds:', a style section line like 'Brawling:', a row "
    "'<round> <target> <type> <notes>', a condition 'If ...:', a comment starting with '#', "
    "or notes continuing the row above on a line that starts with a tab or spaces"
)

CONDITION_FORMS = (
    "'If I haven't used my Specials by round N', 'If I haven't used my High Spots by round N', "
    "'If my Stamina is below N', 'If his Stamina is below N' (the opponent's), "
    "'From round N on' (or 'If it is round N or later'); join several with 'and', end the line "
    "with ':' and put the action on the next row with '-' or 'Now' in the Round column"
)


@dataclass(frozen=True)
class Reading:
    """How one non-blank line of a plain-text strategy was read."""

    line: int
    text: str
    reading: str


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"\S+")
_SPACES = re.compile(r"\s+")
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-"})
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_BULLET = re.compile(r"[\u2022\u00b7*]\s*")
_STRATEGY = re.compile(r"strategy\s*:\s*", re.IGNORECASE)
_STRATEGY_LINE = re.compile(r"strategy\s*:\s*(?:[\u2022\u00b7*]\s*)?(?:[+\-]|grid\b)", re.IGNORECASE)
_GRID = re.compile(
    r"grid(?:\s+(?:letter|number|pick|choice|cell))?\s*[:=]?\s*(?P<value>[A-Ca-c][1-3]|[A-Za-z]|[0-9]+)?\s*[.!]?\s*",
    re.IGNORECASE,
)
_NAME = re.compile(r"[^\W\d_]+(?:[ '.\-][^\W\d_]+)*\.?")
_ROUND = re.compile(r"(?P<first>[0-9]+)(?:(?P<plus>\+)|-(?P<last>[0-9]+))?")
_HEADING_WORDS = {"round", "rounds", "rnd", "target", "type", "notes", "note", "explanation", "explanations"}
_HEADING_ORDER = ("round", "target", "type", "notes")
_HEADING_CANON = {"rounds": "round", "rnd": "round", "note": "notes", "explanation": "notes", "explanations": "notes"}
_SECTION_ROUNDS = re.compile(r"rounds?\s*:", re.IGNORECASE)
_CONDITION_START = re.compile(r"(?:if|from\s+round)\b", re.IGNORECASE)
_CLAUSE_SPLIT = re.compile(r" ?, ?and |,? and | ?, ?")

_N = r"(?P<n>[0-9]+)"
_UNUSED = r"(?:if )?i (?:haven't|have not|havent) (?:yet )?used (?:any of |all of |all |any )?(?:my )?{what}(?: yet)? by round " + _N
_UNUSED_2 = r"(?:if )?my {what} (?:is|are) (?:still )?unused by round " + _N
_BELOW = r"(?:is )?(?:below|under|less than|lower than) " + _N
_CONDITIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (_UNUSED.format(what=r"specials?"), "specials_unused_by_round"),
        (_UNUSED_2.format(what=r"specials?"), "specials_unused_by_round"),
        (_UNUSED.format(what=r"high ?-?spots?"), "high_spots_unused_by_round"),
        (_UNUSED_2.format(what=r"high ?-?spots?"), "high_spots_unused_by_round"),
        (r"(?:if )?my stamina " + _BELOW, "own_stamina_below"),
        (
            r"(?:if )?(?:his|her|their|the opponent's|my opponent's|the opponents'?|my opponents'?|opponent's|the other guy's) stamina "
            + _BELOW,
            "opponent_stamina_below",
        ),
        (r"from round " + _N + r"(?: on| onwards?)?", "round_at_least"),
        (r"(?:if )?(?:it is|it's) round " + _N + r" or later", "round_at_least"),
        (r"(?:if )?(?:the )?round is " + _N + r" or later", "round_at_least"),
    )
)
_CONDITION_WORDS = {
    "specials_unused_by_round": "if Specials unused by round {n}",
    "high_spots_unused_by_round": "if High Spots unused by round {n}",
    "own_stamina_below": "if my Stamina is below {n}",
    "opponent_stamina_below": "if the opponent's Stamina is below {n}",
    "round_at_least": "from round {n} on",
}


def parse_plaintext(text: str, file: str) -> tuple[LineDict, list[Reading]]:
    """Read a plain-text strategy; returns (YAML-shaped data, one Reading per non-blank line).

    Raises FedError listing every line that cannot be read, and nothing else.
    """
    file = str(file)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FedError(Problem(file, f"byte {exc.start}", "not valid UTF-8 text", RULE_LAYOUT)) from None
    if not isinstance(text, str):
        raise FedError(Problem(file, None, "a plain-text strategy must be text", RULE_LAYOUT))
    size = len(text.encode("utf-8", "surrogatepass")) if len(text) <= MAX_BYTES else len(text)
    if size > MAX_BYTES:
        raise FedError(Problem(file, None, f"the text is {size:,} bytes or more; a plain-text strategy may be at most {MAX_BYTES:,} bytes", RULE_LAYOUT))
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_LINES:
        raise FedError(Problem(file, f"line {MAX_LINES + 1}", f"the text has {len(lines):,} lines; a plain-text strategy may have at most {MAX_LINES:,}", RULE_LAYOUT))
    parser = _Parser(file, vocabulary())
    for number, line in enumerate(lines, start=1):
        parser.feed(number, line)
    parser.finish()
    parser.problems.raise_if_any()
    return parser.data, parser.readings


# --------------------------------------------------------------------------- helpers


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= SHOWN else text[: SHOWN - 3] + "...")


def _listed(names: list[str], most: int = 5) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


def _collapse(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _max_words(vocab: Vocabulary) -> int:
    names: list[str] = []
    for s in vocab.styles:
        names += [s.id, s.name, s.abbr, *s.aliases]
    for r in vocab.round_types.values():
        names += [r.id, r.name, *r.aliases]
    return max([2] + [len(n.split()) for n in names])


def _number(text: str) -> int | None:
    """A small non-negative number as written, or None when it has too many digits."""
    return int(text) if len(text) <= MAX_DIGITS else None


@dataclass
class _Round:
    """The Round column of a row: its kind and what the data keeps."""

    kind: str  # "number", "range", "now"
    value: Any  # int for "number"; the text as written for "range"
    text: str


def _round_token(word: str) -> _Round | None:
    token = word.translate(_DASHES)
    if token == "-" or token.lower() == "now":
        return _Round("now", None, token)
    if token.lower() == "all":
        return _Round("range", token, token)
    match = _ROUND.fullmatch(token)
    if match is None:
        return None
    if match["plus"] is None and match["last"] is None:
        return _Round("number", int(match["first"]) if len(match["first"]) <= MAX_DIGITS else None, token)
    return _Round("range", token, token)


class _Row:
    """A row split into its columns; `error` says why it could not be split."""

    def __init__(self, rnd: _Round, target: str = "", type_: str = "", notes: str = "", error: str | None = None):
        self.round, self.target, self.type, self.notes, self.error = rnd, target, type_, notes, error


# --------------------------------------------------------------------------- the parser


class _Parser:
    def __init__(self, file: str, vocab: Vocabulary):
        self.file = file
        self.vocab = vocab
        self.max_words = _max_words(vocab)
        self.problems = Collector()
        self.readings: list[Reading] = []
        self.data = LineDict()
        self.data.line = 0
        self.data.lines = {}
        self.section: str | None = None  # None: the per-round table; otherwise a style's words
        self.section_line: int | None = None  # line of an explicit section heading
        self.section_rows = 0
        self.section_ids: dict[str, int] = {}  # style id -> line of its section
        self.open: tuple[LineDict, str] | None = None  # the row whose notes may continue, its label
        self.pending: tuple[int, LineDict, str] | None = None  # condition line, its `when`, its text

    # ---- bookkeeping

    def error(self, number: int, message: str, rule: str) -> None:
        self.problems.add(self.file, f"line {number}", message, rule)

    def read(self, number: int, text: str, reading: str) -> None:
        self.readings.append(Reading(number, text, reading))

    def key(self, key: str, value: Any, number: int) -> None:
        if not self.data:
            self.data.line = number  # like YAML: the mapping starts at its first key
        self.data[key] = value
        self.data.lines[key] = number

    def list_for(self, key: str, number: int) -> LineList:
        if key not in self.data:
            items = LineList()
            items.line, items.lines = number, []
            self.key(key, items, number)
        return self.data[key]

    # ---- one line

    def feed(self, number: int, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            self.open = None  # a blank line ends a row's notes
            return
        if stripped.startswith("#"):
            self.read(number, raw, "comment, skipped")
            return
        indented = raw[:1].isspace()
        if _STRATEGY_LINE.match(stripped):
            self.close_row()
            self.interrupt(number)
            self.header(number, raw, stripped, strategy=True)
            return
        if indented and self.open is not None:
            words, gaps = self.split(stripped)
            rnd = _round_token(words[0])
            row = self.split_row(rnd, words, gaps, strict=True) if rnd is not None else None
            if row is None:
                entry, label = self.open
                entry["explanation"] = _collapse(f"{entry['explanation']} {stripped}")
                self.read(number, raw, f"notes for {label} continue")
                return
            self.place_row(number, raw, row)
            return
        self.close_row()
        if self.heading(number, raw, stripped):
            return
        if _CONDITION_START.match(stripped):
            self.condition(number, raw, stripped)
            return
        words, gaps = self.split(stripped)
        rnd = _round_token(words[0])
        if rnd is not None and (rnd.kind != "now" or self.pending is not None or words[0] != "-"):
            self.place_row(number, raw, self.split_row(rnd, words, gaps, strict=False))
            return
        self.interrupt(number)
        if _SECTION_ROUNDS.fullmatch(stripped):
            self.start_section(number, raw, None)
            return
        body = _BULLET.sub("", stripped, count=1) if _BULLET.match(stripped) else stripped
        strategy = _STRATEGY.match(stripped) is not None
        if strategy or body.startswith(("+", "-")) or stripped.lower().startswith("grid"):
            self.header(number, raw, stripped if strategy else body, strategy)
            return
        if stripped.endswith(":") and _NAME.fullmatch(stripped[:-1].strip()):
            self.style_section(number, raw, stripped[:-1].strip())
            return
        if indented:
            self.error(number, f"cannot read {_short(stripped)}: it starts with a tab or spaces, so it would continue a row's notes, but there is no row right above it (a blank line ends a row's notes); {EXPECTED}", RULE_LAYOUT)
        else:
            self.error(number, f"cannot read {_short(stripped)}; {EXPECTED}", RULE_LAYOUT)

    def interrupt(self, number: int) -> None:
        """A line other than a heading or comment between a condition and its action row."""
        if self.pending is not None:
            self.no_action(number)

    def close_row(self) -> None:
        self.open = None

    def finish(self) -> None:
        self.end_section()
        if self.pending is not None:
            self.no_action()

    # ---- strategy line (III.1)

    def header(self, number: int, raw: str, body: str, strategy: bool) -> None:
        rule = RULE_HEADER
        problems_before = len(self.problems.problems)
        if strategy:
            body = body[_STRATEGY.match(body).end():]
            if _BULLET.match(body):
                body = _BULLET.sub("", body, count=1)
        body = body.strip()
        # a grid pick at the end: "..., Grid C", "Grid letter: C", "Grid: 2"
        grid: str | int | None = None
        lower = body.lower()
        at = lower.rfind("grid")
        if at >= 0 and (at == 0 or body[at - 1].isspace() or body[at - 1] in ",;"):
            match = _GRID.fullmatch(body, at)
            if match is None or match["value"] is None:
                self.error(number, f"cannot read the grid pick in {_short(body[at:])}: write 'Grid C' (a letter), 'Grid 2' (a number) or 'Grid B3' (a cell, for a third or fourth side)", rule)
            else:
                value = match["value"]
                if len(value) == 2:  # a whole cell: the pick of a third or later side
                    grid = value.upper()
                elif value.isdigit():
                    grid = _number(value)
                    if grid is None:
                        self.error(number, f"grid pick {value!r} is too long: a grid pick is one letter or a number", rule)
                else:
                    grid = value
            body = body[:at].rstrip().rstrip(",;").rstrip()
        plus: list[str] = []
        minus: list[str] = []
        if body:
            signs = [i for i, ch in enumerate(body) if ch in "+-" and (i == 0 or body[i - 1].isspace() or body[i - 1] in ",;")]
            if not signs or signs[0] != 0:
                lead = body[: signs[0]] if signs else body
                self.error(number, f"cannot read {_short(lead)}: each style is written with its sign, like '+Brawl +Cheat -Martial Arts, Grid C'", rule)
            for k, at_sign in enumerate(signs):
                end = signs[k + 1] if k + 1 < len(signs) else len(body)
                item = self.style_item(number, body[at_sign], body[at_sign + 1 : end])
                if item is None:
                    break  # one problem per line is enough
                (plus if body[at_sign] == "+" else minus).append(item)
        elif grid is None and len(self.problems.problems) == problems_before:
            self.error(number, "the strategy line gives no styles and no grid pick: write it like 'Strategy: +Brawl +Cheat -Martial Arts, Grid C'", rule)
        # how many: two "+", one "-", one grid pick (III.1)
        have_plus = len(self.data.get("plus", ()))
        if have_plus + len(plus) > 2:
            self.error(number, f"more than two '+' styles ({_listed(list(self.data.get('plus', [])) + plus)}): a strategy has exactly two '+' styles", "MatchMatch III.1")
            plus = []
        if ("minus" in self.data and minus) or len(minus) > 1:
            given = ([self.data["minus"]] if "minus" in self.data else []) + minus
            self.error(number, f"more than one '-' style ({_listed(given)}): a strategy has a single '-' style", "MatchMatch III.1")
            minus = []
        if grid is not None and "grid" in self.data:
            self.error(number, f"a second grid pick ({grid}); the grid pick was already given on line {self.data.lines['grid']}", "MatchMatch III.1")
            grid = None
        if len(self.problems.problems) > problems_before:
            return
        if plus:
            items = self.list_for("plus", number)
            for item in plus:
                items.append(item)
                items.lines.append(number)
        if minus:
            self.key("minus", minus[0], number)
        if grid is not None:
            self.key("grid", grid, number)
        parts = []
        if plus:
            parts.append(f"+ {'styles' if len(plus) > 1 else 'style'}: {', '.join(plus)}")
        if minus:
            parts.append(f"- style: {minus[0]}")
        if grid is not None:
            parts.append(f"grid pick: {grid}")
        self.read(number, raw, "; ".join(parts))

    def style_item(self, number: int, sign: str, text: str) -> str | None:
        item = text.strip().rstrip(",;").strip()
        if item.lower().endswith(" and"):
            item = item[:-4].rstrip().rstrip(",").rstrip()
        item = _collapse(item)
        if not item:
            self.error(number, f"a '{sign}' with no style name after it", RULE_HEADER)
            return None
        if "," in item or ";" in item:
            self.error(number, f"cannot read '{sign}{item}': each style needs its own sign, like '+Cheating, +Brawling'", RULE_HEADER)
            return None
        words = item.split(" ")
        if not _NAME.fullmatch(item) or len(words) > self.max_words:
            self.error(number, f"cannot read {_short(sign + item)} as a style name: after each '+' or '-' comes one style (the styles are {self.vocab.style_names()})", RULE_HEADER)
            return None
        if len(words) > 1 and self.vocab.style(item) is None and all(self.vocab.style(w) for w in words):
            self.error(number, f"'{sign}{item}' names {len(words)} styles: each style needs its own sign, like '+Brawl +Cheat'", RULE_HEADER)
            return None
        return item

    # ---- headings and sections

    def heading(self, number: int, raw: str, stripped: str) -> bool:
        words = [w.rstrip(":").lower() for w in stripped.split()]
        words = [w for w in words if w]
        if len(words) < 3 or words[0] not in ("round", "rounds", "rnd") or not set(words) <= _HEADING_WORDS:
            return False
        canon = [_HEADING_CANON.get(w, w) for w in words]
        if canon not in (list(_HEADING_ORDER[:3]), list(_HEADING_ORDER)):
            self.error(number, f"the table heading {_short(stripped)} has its columns out of order: rows are read in the order Round, Target, Type, Notes", RULE_ROW)
            return True
        self.read(number, raw, "table heading, skipped")
        return True

    def start_section(self, number: int, raw: str, style: str | None) -> None:
        self.end_section()
        self.section, self.section_line, self.section_rows = style, number, 0
        if style is None:
            self.read(number, raw, "per-round table begins")

    def end_section(self) -> None:
        if self.section_line is not None and self.section_rows == 0:
            what = "'Rounds:'" if self.section is None else f"the style section {self.section!r}"
            self.error(self.section_line, f"{what} has no rows under it: each section needs rows like '1 MA Normal notes'", RULE_STYLE if self.section else RULE_ROW)
        self.section_line = None

    def style_section(self, number: int, raw: str, name: str) -> None:
        name = _collapse(name)
        style = self.vocab.style(name)
        if style is None or len(name.split(" ")) > self.max_words:
            self.error(number, f"{name!r} is not a style, so this line cannot start a style section (a line like 'Brawling:'); the styles are {self.vocab.style_names()}", RULE_STYLE)
            return
        if style in self.section_ids:
            self.error(number, f"a second section for the round style {name!r}; that style's section began on line {self.section_ids[style]}", RULE_STYLE)
            return
        self.section_ids[style] = number
        self.start_section(number, raw, name)
        styles = self.data.get("styles")
        if styles is None:
            styles = LineDict()
            styles.line, styles.lines = number, {}
            self.key("styles", styles, number)
        entries = LineList()
        entries.line, entries.lines = number, []
        styles[name] = entries
        styles.lines[name] = number
        self.read(number, raw, f"plan for round style {name} begins")

    # ---- rows (III.2)

    def split(self, stripped: str) -> tuple[list[str], list[str]]:
        """Words and the white space after each (the last is '')."""
        matches = list(_WORD.finditer(stripped))
        words = [m.group() for m in matches]
        gaps = [stripped[m.end() : n.start()] for m, n in zip(matches, matches[1:])] + [""]
        return words, gaps

    def split_row(self, rnd: _Round, words: list[str], gaps: list[str], strict: bool) -> _Row | None:
        """Split a row into Round, Target, Type and Notes. `strict`: only known names, else None."""
        tab = ["\t" in g for g in gaps]
        brk = ["\t" in g or len(g) >= 2 or g == "" for g in gaps]  # a column break (or the end)

        def known(start: int, lookup: Callable[[str], Any]) -> int:
            for n in range(min(self.max_words, len(words) - start), 0, -1):
                if lookup(" ".join(words[start : start + n])):  # a known name may even span a tab
                    return n
            return 0

        def up_to_break(start: int) -> int:
            for n in range(1, min(self.max_words, len(words) - start) + 1):
                if any(tab[start : start + n - 1]):
                    return 0
                if brk[start + n - 1]:
                    return n
            return 0

        if len(words) < 3:
            if strict:
                return None
            return _Row(rnd, error=f"the row {_short(' '.join(words))} needs a Target and a Type after the Round: '<round> <target> <type> <notes>'")
        # Target: a known style or Stamina (longest first); else the words before a known
        # type; else the words up to a column break (tab or two spaces)
        t = known(1, self.vocab.target)
        if not t and not strict:
            for n in range(1, self.max_words + 1):
                if 1 + n < len(words) and not any(tab[1 : n]) and known(1 + n, self.vocab.round_type):
                    t = n
                    break
            else:
                t = up_to_break(1)
        if not t:
            if strict:
                return None
            return _Row(rnd, error=f"cannot tell where the Target ends in {_short(' '.join(words[1:]))}: it does not start with a style or Stamina, and no tab follows the target (the targets are {self.vocab.style_names()}, Stamina)")
        j = 1 + t
        if j >= len(words):
            if strict:
                return None
            return _Row(rnd, error=f"the row has no Type after the Target {' '.join(words[1:j])!r}: '<round> <target> <type> <notes>'")
        n = known(j, self.vocab.round_type)
        if not n and not strict:
            n = up_to_break(j)
        if not n:
            if strict:
                return None
            return _Row(rnd, error=f"cannot tell where the Type ends in {_short(' '.join(words[j:]))}: it does not start with a round type, and no tab follows the type (the types are {self.vocab.type_names()})")
        return _Row(rnd, " ".join(words[1:j]), " ".join(words[j : j + n]), " ".join(words[j + n :]))

    def place_row(self, number: int, raw: str, row: _Row) -> None:
        self.close_row()
        rnd = row.round
        if self.pending is not None and rnd.kind != "now":
            self.no_action(number)
        if row.error:
            self.error(number, row.error, RULE_ROW)
            return
        entry = LineDict()
        entry.line, entry.lines = number, {}
        if rnd.kind == "now":
            if self.pending is None:
                self.error(number, f"a row with {rnd.text!r} in the Round column is the action of a condition, so it belongs right after an 'If ...:' line", RULE_CONDITION)
                return
            line, when, said = self.pending
            self.pending = None
            if when is None:
                return  # the action of a condition that could not be read (already reported)
            entry.line = line
            entry["when"] = when
            entry.lines["when"] = line
            label = f"the action of the condition on line {line}"
            where = "conditions"
        elif self.section is None:
            if rnd.kind != "number":
                self.error(number, f"{rnd.text!r} in the Round column of the per-round table: give one round number here; ranges like '3+' or 'All' belong in a style section (a line like 'Brawling:' starts one)", RULE_ROW)
                return
            if rnd.value is None:
                self.error(number, f"round number {rnd.text!r} is too large", RULE_ROW)
                return
            entry["round"] = rnd.value
            entry.lines["round"] = number
            label = f"round {rnd.value}"
            where = "rounds"
        else:
            if any(len(d) > MAX_DIGITS for d in re.findall(r"[0-9]+", rnd.text)):
                self.error(number, f"round number {rnd.text!r} is too large", RULE_STYLE)
                return
            entry["rounds"] = rnd.text
            entry.lines["rounds"] = number
            phrase = "all rounds" if rnd.text.lower() == "all" else f"round {rnd.text}" if rnd.kind == "number" else f"rounds {rnd.text}"
            label = f"style {self.section}, {phrase}"
            where = "styles"
        for key, value in (("target", row.target), ("type", row.type), ("explanation", row.notes)):
            entry[key] = value
            entry.lines[key] = number
        if where == "styles":
            items = self.data["styles"][self.section]
            self.section_rows += 1
        else:
            items = self.list_for(where, entry.line)
            if where == "rounds":
                self.section_rows += 1 if self.section_line is not None else 0
        items.append(entry)
        items.lines.append(entry.line)
        self.open = (entry, label)
        notes = "notes begin" if row.notes else "no notes"
        self.read(number, raw, f"{label}: target {row.target}, type {row.type}, {notes}")

    # ---- conditions (Part V: "clear conditionals")

    def condition(self, number: int, raw: str, stripped: str) -> None:
        if self.pending is not None:
            self.no_action(number)
        body = _collapse(stripped.translate(_QUOTES)).lower()
        body = body.rstrip(":.!,; ")
        if body.endswith(" then"):
            body = body[:-5].rstrip(", ")
        when = LineDict()
        when.line, when.lines = number, {}
        said: list[str] = []
        for clause in _CLAUSE_SPLIT.split(body):
            for pattern, key in _CONDITIONS:
                match = pattern.fullmatch(clause)
                if match:
                    break
            else:
                self.bad_condition(number, f"cannot read the condition {clause!r}: the conditions understood are {CONDITION_FORMS}")
                return
            value = _number(match["n"])
            if value is None:
                self.bad_condition(number, f"the number in {clause!r} is too large")
                return
            if key in when:
                self.bad_condition(number, f"the condition says {_CONDITION_WORDS[key].format(n='N')!r} twice")
                return
            when[key] = value
            when.lines[key] = number
            said.append(_CONDITION_WORDS[key].format(n=value))
        self.pending = (number, when, " and ".join(said))
        self.read(number, raw, "condition: " + " and ".join(said))

    def bad_condition(self, number: int, message: str) -> None:
        """Report a condition that cannot be read; its action row, if one follows, is skipped."""
        self.error(number, message, RULE_CONDITION)
        self.pending = (number, None, "")

    def no_action(self, at: int | None = None) -> None:
        line, when, said = self.pending
        self.pending = None
        if when is None:
            return  # the condition itself was already reported
        after = f" (line {at} comes first)" if at is not None else " (the text ends first)"
        self.error(line, f"the condition {_short(said)} has no action after it{after}: the next row must have '-' or 'Now' in its Round column, like 'Now Stamina Finisher notes'", RULE_CONDITION)
