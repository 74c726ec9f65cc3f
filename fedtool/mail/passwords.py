"""Players' strategy-mail passwords: a From: header can be forged, a password line cannot be guessed.

A fed that sets `mail: passwords: true` accepts a strategy mail only when it carries the
player's line `Password: ...`. Only a salted scrypt hash is kept, in the league
(`player_passwords`, one row per owner address); the line never reaches a filed strategy and
is blanked in every answer.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import os
import re

from sqlite_utils import Database

from fedtool.kernel.errors import FedError, Problem
from fedtool.fed.settings import Fed
from fedtool.league.away import owners
from fedtool.league.db import open_league

# scrypt's cost: about 20 ms and 16 MiB a check; enough to make a stolen fed.db slow to attack
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MIN_LENGTH = 6
MAX_LENGTH = 200
# `Password: ...` on a line of its own; a quoting `>` or indentation is allowed before it
PASSWORD_LINE = re.compile(r"^[ \t>]*password[ \t]*[:=][ \t]*(?P<password>[^\r\n]*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
BLANKED = "Password: ********"
BLANK_WORD = "xxxxxxxx"  # the password written inside a strategy: a word YAML and the plain-text layout read as text


def hash_password(password: str, salt: bytes | None = None) -> str:
    """`scrypt$n$r$p$salt$hash`, hex; a fresh random salt unless one is given."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` was made from (in constant time)."""
    try:
        method, n, r, p, salt, digest = stored.split("$")
        if method != "scrypt":
            return False
        candidate = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(digest) // 2)
    except ValueError:
        return False
    return hmac.compare_digest(candidate.hex(), digest)


def take_password(text: str) -> tuple[str | None, str]:
    """The password a mail's text carries (the first `Password:` line) and the text with every
    such line emptied. Lines are emptied, not removed, so line numbers in error messages
    still point at the player's own lines."""
    found = PASSWORD_LINE.search(text)
    password = found.group("password") if found else None
    return password, PASSWORD_LINE.sub("", text)


def owner_addresses(fed: Fed) -> set[str]:
    """Every registered owner address in rosters/ (lowercase)."""
    return set(owners(fed))


def set_password(fed: Fed, email: str, password: str) -> None:
    """Set (or replace) the strategy-mail password of the player at `email`, a registered owner."""
    email = email.strip().lower()
    if email not in owner_addresses(fed):
        raise FedError(Problem("rosters/", None, f"{email} is not the registered owner of any wrestler", "fedtool password"))
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH or password != password.strip() or "\n" in password:
        raise FedError(Problem(None, None, f"a password is {MIN_LENGTH} to {MAX_LENGTH} characters on one line, without leading or trailing spaces", "fedtool password"))
    db = open_league(fed.database)
    with db.atomic():
        db["player_passwords"].upsert(
            {"email": email, "hash": hash_password(password), "set_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")},
            pk="email",
        )


def stored_passwords(db: Database) -> dict[str, str]:
    """Owner address -> stored hash."""
    return {row["email"]: row["hash"] for row in db["player_passwords"].rows}


__all__ = ["set_password", "take_password", "password_matches", "hash_password", "BLANKED"]
