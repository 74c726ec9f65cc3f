"""Face to the Mat data files checked as they are read: a fed may replace any of them
(`rulesets: facemat: data: DIR`), so each is held to the schema its header describes, and a
mistake is reported with the file, the line and the rule, before a match is played."""

from __future__ import annotations

import string
from typing import Any

from fedtool.kernel.errors import Collector
from fedtool.kernel.validation import place
from .terms import GRADES, SKILLS

FAC_TYPES = frozenset(SKILLS) | {"TV_MOVE", "GRUDGE", "WILD_CARD", "HIGHLIGHT_REEL", "REF_BUMP", "TEST_OF_STRENGTH",
                                 "TITLE_HOLDER", "TRAILING", "SIGNATURE"}
WHO = {"favored", "underdog", "leader", "trailing", "heel", "face", "both", "winner", "loser"}
EFFECTS = {"move", "score", "grudge", "tv", "hotbox", "object", "pin_attempt", "skip", "ally", "foe"}
TOTALS = range(2, 13)
RULE = "Face to the Mat data (its file's header)"


def check_tables(tables: dict[str, Any], shown: dict[str, str]) -> None:
    """Raise FedError naming each problem in the tables (`shown`: table -> file as named)."""
    problems = Collector()
    for table, name in (("facs_file", "facs"), ("wild", "wild"), ("reels", "reels"), ("track", "track"), ("tv", "tv"), ("advanced", "advanced")):
        if not isinstance(tables[table], dict):  # empty, a list, a word: nothing below can be looked up
            problems.add(shown[name], place(tables[table], ()) or None, "the file is a mapping of the tables its header describes", RULE)
    problems.raise_if_any()
    _facs(tables["facs_file"], shown["facs"], problems)
    for chart in ("normal", "cage", "hardcore"):
        _events(tables["wild"], (chart,), shown["wild"], problems)
    reels = tables["reels"]
    for letter in ("A", "B", "C", "D", "E", "F", "I", "J", "K"):
        _events(reels, ("reels", letter, "events"), shown["reels"], problems)
    known = reels.get("reels") if isinstance(reels.get("reels"), dict) else {}
    for roll in range(1, 7):
        letter = _get(reels, ("pick", roll))
        if not isinstance(letter, str) or letter not in known:
            problems.add(shown["reels"], place(reels, ("pick",)), f"pick {roll}: {letter!r} is not a reel in this file", RULE)
    picked = [letter for letter in (_get(reels, ("pick", roll)) for roll in range(1, 7)) if isinstance(letter, str)]
    for letter in sorted({letter for letter in picked if letter in known}):  # rolled after the match too (5.d)
        _post_texts(reels, ("reels", letter, "events"), shown["reels"], problems)
    track = tables["track"]
    board = track.get("spaces") if isinstance(track.get("spaces"), list) else []
    spaces = [s.get("space") if isinstance(s, dict) else None for s in board]
    if spaces != list(range(len(spaces))) or len(spaces) < 4:
        problems.add(shown["track"], place(track, ("spaces",)), "spaces must be numbered 0, 1, 2, ... in order", RULE)
    for k, s in enumerate(board):
        if not isinstance(s, dict) or s.get("shape") not in ("circle", "square", "none"):
            problems.add(shown["track"], place(track, ("spaces", k)), "a space's shape is circle, square or none", "Face to the Mat 3.d")
    for key in ("finisher_space", "corner", "start"):
        if track.get(key) not in spaces:
            problems.add(shown["track"], place(track, (key,)), f"{key} must be one of the track's spaces", RULE)
    pins = track.get("pin_spaces")
    if not pins or not isinstance(pins, list) or any(p not in spaces for p in pins):
        problems.add(shown["track"], place(track, ("pin_spaces",)), "pin_spaces must be spaces of the track", "Face to the Mat 8.a")
    tv_tables = tables["tv"].get("tables")
    for name, table in (tv_tables.items() if isinstance(tv_tables, dict) else []):
        for grade in GRADES:
            if not isinstance(table, dict) or not isinstance(table.get(grade), int):
                problems.add(shown["tv"], place(tables["tv"], ("tables", name)), f"TV table {name!r} needs whole points for grade {grade}", "Face to the Mat 7.b")
    advanced = tables["advanced"]
    for table in ("tag_table", "help"):
        for roll in range(1, 7):
            if not isinstance(_get(advanced, (table, roll)), dict):
                problems.add(shown["advanced"], place(advanced, (table,)), f"{table} needs an entry for each 1d6 roll; {roll} is missing", RULE)
    for roll in range(1, 7):
        entry = _get(advanced, ("out_of_ring", "spaces", roll))
        if not isinstance(entry, dict) or "label" not in entry:
            problems.add(shown["advanced"], place(advanced, ("out_of_ring", "spaces")), f"the Out of the Ring board needs a space with a label for each 1d6 roll; {roll} is missing", "Face to the Mat 10.f")
        else:
            _effect(entry, advanced, ("out_of_ring", "spaces", roll), shown["advanced"], problems)
    problems.raise_if_any()


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _facs(data: Any, file: str, problems: Collector) -> None:
    cards = _get(data, ("cards",))
    if not isinstance(cards, list) or not cards:
        problems.add(file, place(data, ("cards",)), "the deck is a list `cards:` of one card or more", RULE)
        return
    for k, card in enumerate(cards):
        where = place(data, ("cards", k))
        if not isinstance(card, dict):
            problems.add(file, where, "a card is a mapping with type and text", RULE)
            continue
        kind = card.get("type")
        if not isinstance(kind, str) or kind not in FAC_TYPES:
            problems.add(file, where, f"unknown card type {kind!r}; a FAC is one of {', '.join(sorted(FAC_TYPES))}", "Face to the Mat 6")
            continue
        if not isinstance(card.get("text"), str):
            problems.add(file, where, "a card needs its text", RULE)
        else:
            _placeholders(card["text"], file, where, problems)
        if kind == "GRUDGE" and card.get("grudge") not in ("gold", "silver", "bronze"):
            problems.add(file, where, "a Grudge card is gold, silver or bronze", "Face to the Mat 7.c")
        points = card.get("points")
        if kind in FAC_TYPES - {"TV_MOVE", "GRUDGE", "WILD_CARD", "HIGHLIGHT_REEL", "REF_BUMP", "TEST_OF_STRENGTH"} and not (
                points == "d6" or isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= 15):
            problems.add(file, where, f"points {points!r}: a {kind} card scores a whole number 0-15 or d6", "Face to the Mat 7.a")


def _events(data: Any, path: tuple, file: str, problems: Collector) -> None:
    events = _get(data, path)
    if not isinstance(events, dict):
        problems.add(file, place(data, path[:-1] if len(path) > 1 else ()), f"{'.'.join(map(str, path))} is missing: an event for each 2d6 total, 2 to 12", RULE)
        return
    for total in TOTALS:
        event = events.get(total)
        if not isinstance(event, dict) or not isinstance(event.get("text"), str) or "effect" not in event:
            problems.add(file, place(data, path), f"2d6 total {total} needs an event with text and effect (none, or one of the effects)", RULE)
        else:
            _placeholders(event["text"], file, place(data, path + (total,)), problems)
            _effect(event, data, path + (total,), file, problems)


def _post_texts(data: Any, path: tuple, file: str, problems: Collector) -> None:
    """5.d: a reel the `pick` table names is also rolled after the match, so each of its events
    has `post_text:`, its wording after the bell (docs/rulings/face-to-the-mat.md: never the
    pre-match `text` in its place). It names the heel or the face only if the event does (the
    reroll that finds them in the ring reads `text` and the effect)."""
    events = _get(data, path)
    for total in TOTALS:
        event = events.get(total) if isinstance(events, dict) else None
        if not isinstance(event, dict) or not isinstance(event.get("text"), str):
            continue  # told by _events
        where = place(data, path + (total,))
        post = event.get("post_text")
        if not isinstance(post, str) or not post.strip():
            problems.add(file, where, f"reel {path[1]} event {total} needs post_text: its wording when the reel is rolled after the match (5.d)", RULE)
        # mid_text, its wording when a HIGHLIGHT_REEL FAC draws it mid-match (7.d), is optional:
        # without it the event is told as footage from before the bell (rulings)
        mid = event.get("mid_text", "")
        if not isinstance(mid, str):
            problems.add(file, where, f"reel {path[1]} event {total}: mid_text is text, its wording when the reel is drawn mid-match (7.d)", RULE)
        for key, text in (("post_text", post), ("mid_text", mid)):
            if not isinstance(text, str) or not text.strip():
                continue
            _placeholders(text, file, where, problems)
            cast = {role for role in ("heel", "face") if "{" + role + "}" in text}
            effect = event.get("effect")
            args = next(iter(effect.values()), None) if isinstance(effect, dict) and effect else None
            acts = [args.get("of") or args.get("who")] if isinstance(args, dict) else []
            named = {role for role in ("heel", "face") if "{" + role + "}" in event["text"] or role in acts}
            if cast - named:
                problems.add(file, where, f"reel {path[1]} event {total}: {key} names {{{sorted(cast - named)[0]}}} but the event does not", RULE)


def _effect(event: dict, data: Any, path: tuple, file: str, problems: Collector) -> None:
    effect = event.get("effect", "none")
    if effect == "none":
        return
    if not isinstance(effect, dict) or len(effect) != 1:
        problems.add(file, place(data, path), "an effect is none or one of: " + ", ".join(sorted(EFFECTS)), RULE)
        return
    (kind, args), = effect.items()
    if kind not in EFFECTS or not isinstance(args, dict):
        problems.add(file, place(data, path), f"unknown effect {kind!r}; an effect is none or one of: {', '.join(sorted(EFFECTS))}", RULE)
        return
    who = args.get("of") if kind == "hotbox" else args.get("who")
    if not isinstance(who, str) or who not in WHO:
        problems.add(file, place(data, path), f"effect {kind}: {who!r} is not one of {', '.join(sorted(WHO))}", RULE)
    for field, allowed in ARGUMENTS.get(kind, {}).items():
        value = args.get(field, OPTIONAL.get((kind, field)))
        whole = isinstance(value, int) and not isinstance(value, bool) and -20 <= value <= 20
        if not (whole and "int" in allowed or value in allowed):
            problems.add(file, place(data, path), f"effect {kind}: {field} {value!r} is not {' or '.join(allowed)}", RULE)


# Each effect's own fields, as the data files' headers give them ("int": a whole number, -20 to 20)
ARGUMENTS = {"move": {"spaces": ("int",)}, "score": {"points": ("int", "d6")}, "hotbox": {"side": ("ally", "foe"), "spaces": ("int",)},
             "grudge": {"change": ("int",)}, "tv": {"change": ("int",)}, "ally": {"change": ("int",)}, "foe": {"change": ("int",)}}
OPTIONAL = {("grudge", "change"): 1, ("tv", "change"): 1, ("ally", "change"): 1, ("foe", "change"): 1}  # the engine's default


def _placeholders(text: str, file: str, where: str | None, problems: Collector) -> None:
    """A text's placeholders are plain names ({favored}, {performer}, ...): no positions,
    attributes, conversions or formats, and every brace closed (`{{` for a brace)."""
    try:
        fields = [name for _, name, spec, conversion in string.Formatter().parse(text) if name is not None
                  and not (name.isidentifier() and not spec and conversion is None)]
    except ValueError as exc:
        fields = [str(exc)]
    if fields:
        problems.add(file, where, f"text {text[:60]!r}: a placeholder is a plain name in braces such as {{favored}} ({fields[0]!r} is not)", RULE)
