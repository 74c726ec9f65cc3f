"""Commentary as data: phrase tables a ruleset ships and a fed may extend or replace.

A ruleset's packaged table declares each kind of event it tells (a near fall, a comeback, a
takedown...), the fields a phrase of that kind may name and the facts a phrase may be chosen
by (`when`: alignment, match type...). A fed's own file, `templates/commentary/<ruleset>.yaml`,
adds phrases to a kind or replaces a kind's phrases; it may not invent kinds, fields or facts,
so a typo is refused when the file is read, with its file, line and rule, never mid-run.

    kinds:                       # the packaged table (the fed's file has no `kinds:` level)
      near_fall:
        fields: [attacker, defender]
        phrases:
          - "{attacker} hooks the leg... {defender} kicks out at two!"
          - text: "{attacker} grabs a handful of tights... TWO... NO!"
            when: {alignment: heel}
    facts: [alignment, match_type]

    # templates/commentary/matchmatch.yaml, the fed's file
    near_fall:                   # a list adds to the packaged phrases
      - "{defender} will not stay down!"
    count_out:
      replace:                   # `replace:` drops the packaged phrases of the kind
        - "..."

A phrase is chosen deterministically from the match's own key (its seed's commitment, its id)
and how many phrases of that kind the match has told, never from the game's dice: a writeup
told twice is the same writeup and the dice log never changes. A phrase whose `when` matches
the facts given is weighted by how much it matches (a cage phrase is likelier in a cage), a
phrase whose `when` names a fact with another value is never chosen, and the same kind never
repeats its last phrase while another would do.

Only plain field names are allowed (`{attacker}`, never `{attacker.__class__}` or a format
spec): a fed's phrases are data, not code. The text a phrase makes is plain text; each output
format escapes it like any other text (templates autoescape HTML; Markdown writeups escape).
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import checked
from .errors import Collector
from .yamlio import LineDict, LineList, load_yaml, parse_yaml, read_text

RULE = "fedtool: commentary tables"
_FORMATTER = string.Formatter()


@dataclass(frozen=True)
class Phrase:
    """One phrase of a kind, and the facts (`when`) it may be chosen by."""

    text: str
    when: tuple[tuple[str, frozenset[str]], ...] = ()  # (fact, allowed values)

    def weight(self, facts: Mapping[str, str]) -> int:
        """0 if a `when` names a fact with another value (or one not given); else 1 + matches."""
        for fact, allowed in self.when:
            if facts.get(fact) not in allowed:
                return 0
        return 1 + len(self.when)


@dataclass(frozen=True)
class Commentary:
    """A checked phrase table: kind -> phrases, with the fields and facts each may use."""

    phrases: Mapping[str, tuple[Phrase, ...]]
    fields: Mapping[str, frozenset[str]]
    facts: frozenset[str] = frozenset()

    def teller(self, key: str) -> Teller:
        """The teller of one match (or one card): `key` makes its choices its own."""
        return Teller(self, key)


@dataclass
class Teller:
    """Tells one match: each `say` picks a phrase of a kind by the match's key and a count."""

    table: Commentary
    key: str
    _counts: dict[str, int] = field(default_factory=dict)
    _last: dict[str, str] = field(default_factory=dict)

    def say(self, kind: str, facts: Mapping[str, str] | None = None, **values: Any) -> str:
        phrases = self.table.phrases.get(kind)
        if phrases is None:
            raise KeyError(f"no commentary kind {kind!r}")  # a ruleset's bug, not a fed's
        facts = facts or {}
        pool = [p for p in phrases for _ in range(p.weight(facts))]
        if not pool:
            pool = [p for p in phrases if not p.when] or list(phrases)
        n = self._counts.get(kind, 0)
        self._counts[kind] = n + 1
        digest = hashlib.blake2b(f"{self.key}\x00{kind}\x00{n}".encode(), digest_size=8).digest()
        index = int.from_bytes(digest, "big") % len(pool)
        chosen = pool[index]
        if chosen.text == self._last.get(kind):
            others = [p for p in pool if p.text != chosen.text]
            if others:
                chosen = others[index % len(others)]
        self._last[kind] = chosen.text
        return chosen.text.format_map({name: str(values.get(name, "")) for name in self.table.fields[kind]})


# ---------------------------------------------------------------- reading and checking


def load_commentary(packaged: Path, shown: str, fed_file: Path | None = None, fed_shown: str | None = None) -> Commentary:
    """The packaged table, with the fed's own file over it when there is one; both checked."""
    problems = Collector()
    phrases, fields, facts = _packaged(packaged, shown, problems)
    problems.raise_if_any()
    if fed_file is not None and fed_file.is_file():
        shown_as = fed_shown or str(fed_file)
        _read_fed(load_yaml(fed_file, shown_as), shown_as, phrases, fields, facts, problems)
        problems.raise_if_any()
    return Commentary({k: tuple(v) for k, v in phrases.items()}, {k: frozenset(v) for k, v in fields.items()}, frozenset(facts))


def _packaged(packaged: Path, shown: str, problems: Collector) -> tuple[dict, dict, set]:
    """The packaged table read and checked (`_read_packaged`), or, when these very bytes were
    read and found good before, what that reading gave, kept in the checked files' cache
    (fedtool.kernel.checked: keyed by the bytes' SHA-256 and the code's mark): parsing a
    ruleset's table is 4 ms of a week's run (issue 18). A table with a fault is read every
    time, so its message is always the reader's own."""
    text = read_text(packaged, shown)
    key = checked.digest("commentary", text)
    kept = checked.recall(key, plain=True)
    if kept is not None:
        try:
            return _from_form(kept)
        except (TypeError, ValueError, KeyError, AttributeError):  # not a form this code wrote: read the table
            pass
    phrases, fields, facts = _read_packaged(parse_yaml(text, shown), shown, problems)
    if not problems:
        checked.remember(key, _form(phrases, fields, facts), plain=True)
    return phrases, fields, facts


def _form(phrases: dict, fields: dict, facts: set) -> dict:
    """A checked table as JSON (each phrase's `when` in order, its values sorted)."""
    return {"phrases": {kind: [[p.text, [[fact, sorted(allowed)] for fact, allowed in p.when]] for p in told] for kind, told in phrases.items()},
            "fields": {kind: sorted(names) for kind, names in fields.items()}, "facts": sorted(facts)}


def _from_form(form: dict) -> tuple[dict, dict, set]:
    phrases = {kind: [Phrase(str(text), tuple((str(fact), frozenset(map(str, allowed))) for fact, allowed in when)) for text, when in told]
               for kind, told in form["phrases"].items()}
    fields = {kind: set(map(str, names)) for kind, names in form["fields"].items()}
    if set(phrases) != set(fields):
        raise ValueError("kinds differ")
    return phrases, fields, set(map(str, form["facts"]))


def _line(node: Any, key: Any) -> str | None:
    """The line of `key` in a mapping (the key's own, even when its value is a block below
    it), of item `key` in a list, else of `node` itself."""
    lines = getattr(node, "key_lines", None) or getattr(node, "lines", None)
    if isinstance(node, LineDict) and lines and key in lines:
        return f"line {lines[key]}"
    lines = getattr(node, "lines", None)
    if isinstance(node, LineList) and lines and isinstance(key, int) and key < len(lines):
        return f"line {lines[key]}"
    line = getattr(node, "line", None)
    return f"line {line}" if line else None


def _read_packaged(data: Any, shown: str, problems: Collector):
    phrases: dict[str, list[Phrase]] = {}
    fields: dict[str, set[str]] = {}
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        problems.add(shown, _line(data, "kinds"), "a commentary table is a mapping with `kinds:` (kind: {fields, phrases})", RULE)
        return phrases, fields, set()
    facts = data.get("facts", [])
    if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
        problems.add(shown, _line(data, "facts"), "`facts:` is a list of names", RULE)
        facts = []
    facts = set(facts)
    for kind, body in data["kinds"].items():
        where = _line(data["kinds"], kind)
        if not isinstance(body, dict) or set(body) - {"fields", "phrases"}:
            problems.add(shown, where, f"kind {kind!r}: give `fields:` and `phrases:` only", RULE)
            continue
        names = body.get("fields", [])
        if not isinstance(names, list) or not all(isinstance(n, str) and n.isidentifier() for n in names):
            problems.add(shown, _line(body, "fields"), f"kind {kind!r}: `fields:` is a list of names", RULE)
            continue
        fields[kind] = set(names)
        phrases[kind] = _read_phrases(body.get("phrases"), body, "phrases", shown, kind, fields[kind], facts, problems)
        if body.get("phrases") in (None, []):
            problems.add(shown, where, f"kind {kind!r} has no phrases", RULE)
    return phrases, fields, facts


def _read_fed(data: Any, shown: str, phrases: dict, fields: dict, facts: set, problems: Collector) -> None:
    if data is None:
        return
    if not isinstance(data, dict):
        problems.add(shown, _line(data, 0), "a fed's commentary file maps kinds to phrases (a list adds, `replace:` a list replaces)", RULE)
        return
    for kind, body in data.items():
        where = _line(data, kind)
        if kind not in phrases:
            known = ", ".join(sorted(phrases))
            problems.add(shown, where, f"no kind {kind!r} to tell (kinds: {known})", RULE)
            continue
        replace = isinstance(body, dict)
        if replace and set(body) != {"replace"}:
            problems.add(shown, where, f"kind {kind!r}: a list of phrases adds to the packaged ones; `replace:` with a list replaces them", RULE)
            continue
        read = _read_phrases(body["replace"] if replace else body, body if replace else data, "replace" if replace else kind,
                             shown, kind, fields[kind], facts, problems)
        if replace:
            if read:
                phrases[kind] = read
            elif body["replace"] == []:  # (phrases refused are reported as such, not as none given)
                problems.add(shown, _line(body, "replace"), f"kind {kind!r}: `replace:` needs at least one phrase", RULE)
        else:
            phrases[kind] = phrases[kind] + read


def _read_phrases(items: Any, parent: Any, key: Any, shown: str, kind: str, names: set, facts: set, problems: Collector) -> list[Phrase]:
    if not isinstance(items, list):
        problems.add(shown, _line(parent, key), f"kind {kind!r}: the phrases are a list", RULE)
        return []
    read = []
    for i, item in enumerate(items):
        where = _line(items, i)
        when: tuple = ()
        if isinstance(item, dict):
            if set(item) - {"text", "when"} or not isinstance(item.get("text"), str):
                problems.add(shown, where, f"kind {kind!r}: a phrase is text, or `text:` with an optional `when:`", RULE)
                continue
            when_data = item.get("when") or {}
            if not isinstance(when_data, dict):
                problems.add(shown, where, f"kind {kind!r}: `when:` maps facts to a value or a list of values", RULE)
                continue
            pairs = []
            for fact, value in when_data.items():
                values = value if isinstance(value, list) else [value]
                if fact not in facts:
                    problems.add(shown, where, f"kind {kind!r}: no fact {fact!r} to choose by (facts: {', '.join(sorted(facts)) or 'none'})", RULE)
                elif not values or not all(isinstance(v, str | int | bool) for v in values):
                    problems.add(shown, where, f"kind {kind!r}: `when: {fact}` needs a value or a list of values", RULE)
                else:
                    pairs.append((fact, frozenset(str(v).lower() if isinstance(v, bool) else str(v) for v in values)))
            when = tuple(sorted(pairs, key=lambda p: p[0]))
            text = item["text"]
        elif isinstance(item, str):
            text = item
        else:
            problems.add(shown, where, f"kind {kind!r}: a phrase is text", RULE)
            continue
        bad = _bad_fields(text, names)
        if bad:
            problems.add(shown, where, f"kind {kind!r}: {bad}", RULE)
            continue
        read.append(Phrase(text, when))
    return read


def _bad_fields(text: str, names: set) -> str | None:
    """Why a phrase's text cannot be told with these fields, or None."""
    if not text.strip():
        return "a phrase is not empty"
    try:
        parts = list(_FORMATTER.parse(text))
    except ValueError as exc:
        return f"{exc} in {text!r} (write a brace as {{{{ or }}}})"
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():
            return f"{{{name}}} is not a plain field name (fields: {', '.join(sorted(names)) or 'none'})"
        if name not in names:
            return f"no field {{{name}}} here (fields: {', '.join(sorted(names)) or 'none'})"
    return None


__all__ = ["Commentary", "Phrase", "Teller", "load_commentary"]
