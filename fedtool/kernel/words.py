"""Counts in words a person reads: "1 mail", "2 mails", "1 copy", "3 copies"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one: counted(1, "mail") is "1 mail",
    counted(2, "copy", "copies") is "2 copies" (the plural given where "s" is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
