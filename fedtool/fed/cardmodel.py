"""A week's card (strategies/week-NN/card.yaml) as pydantic models: what `load_card`
checks the file with (fedtool.fed.card). Imported when a card is first checked, never by a
run whose card was checked good before (fedtool.kernel.checked, issue 18)."""

from __future__ import annotations

import datetime
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

from fedtool.kernel.validation import FileModel, Whole


def _one_line(text: str) -> str:
    """A card's or a match's title heads card.md, the writeups and the mails' subjects: one
    line, as a fed's and a wrestler's name are (review 26)."""
    if any(ch.isspace() and ch != " " or not ch.isprintable() for ch in text):
        raise ValueError("a title is one line of printable text (no line breaks, tabs or control characters)")
    return text


Title = Annotated[str, Field(max_length=200), AfterValidator(_one_line)]


class MatchModel(FileModel):
    """A match on the card: the fields every ruleset's matches have. A ruleset's own fields
    (MatchMatch's grid, Face to the Mat's favored, ...) are checked by the ruleset's
    `card_fields` model when the match is opened or booked (fedtool.week.booking)."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    id: str | None = None
    ruleset: str | None = None
    title: Title = ""
    sides: list[str] = Field(min_length=1)  # at least the ruleset's `min_sides` (2 but for a solitaire round), checked when booked
    rounds: Whole | None = Field(default=None, ge=1, le=200)
    for_title: str | None = Field(default=None, max_length=63)  # a title of the fed's settings (fedtool.league.records)
    strategies: dict[str, str] = {}


def _deadline(value: object) -> object:
    """A deadline as the fedhead writes it (2026-11-27 18:00, with or without a zone); a date
    that does not exist (30 February) is refused with what was written."""
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value.strip())
        except ValueError as exc:
            raise ValueError(f"{value[:40]!r} is not a date and time that exists ({exc}); write it as 2026-11-27 18:00") from None
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        value = datetime.datetime.combine(value, datetime.time())
    if isinstance(value, datetime.datetime) and not 2000 <= value.year <= 2999:
        raise ValueError(f"a deadline in the year {value.year}: give one between 2000 and 2999")
    return value


class CardModel(FileModel):
    title: Title = ""
    deadline: Annotated[datetime.datetime | None, BeforeValidator(_deadline)] = None  # strategies by mail after this are refused
    week: Whole | None = Field(default=None, ge=0, le=9999)  # the folder's week (`fedtool run` takes 0 to 9999)
    rounds: Whole | None = Field(default=None, ge=1, le=200)
    notes: str = Field(default="", max_length=20000)
    matches: list[MatchModel] = Field(min_length=1)
