"""The settings in rosters/fed.yaml as pydantic models: what `Fed.load` checks the file with
(fedtool.fed.settings). Imported when a file is checked, never by a command whose
settings are known checked already (fedtool.kernel.checked, issue 18)."""

from __future__ import annotations

import datetime
from pathlib import Path
from urllib.parse import urlsplit
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BeforeValidator, Field, TypeAdapter, ValidationError, field_validator

from fedtool.kernel.validation import Duration, FileModel, MailAddress, PositiveDuration, Whole


class SmtpSettings(FileModel):
    """How `fedtool send` reaches the mail server; the password is FEDTOOL_SMTP_PASSWORD."""

    host: str = Field(min_length=1, max_length=255)
    port: Whole = Field(default=587, ge=1, le=65535)
    security: Literal["starttls", "ssl", "none"] = "starttls"
    user: str | None = None


_ADDRESS: TypeAdapter | None = None  # built when a do_not_answer entry is first read, never at import


def _address(text: str) -> str:
    global _ADDRESS
    if _ADDRESS is None:
        _ADDRESS = TypeAdapter(MailAddress)
    return _ADDRESS.validate_python(text)


def _address_or_domain(value: Any) -> str:
    """A `do_not_answer` entry: an address (`abuse@isp.example`) or a whole domain written
    `@lists.example`, checked as an address is (a domain as the part after an address's @);
    lowercase, as mail intake compares addresses (fedtool.mail.intake.address_key)."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        checked = _address("postmaster" + text if text.startswith("@") else text)
    except ValidationError as exc:
        why = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise ValueError(f"{str(value)[:80]!r}: give an address (abuse@isp.example) or a domain written @lists.example ({why})") from None
    return ("@" + checked.rpartition("@")[2] if text.startswith("@") else checked).lower()


class MailSettings(FileModel):
    from_address: MailAddress = "fedhead@fed.example"
    smtp: SmtpSettings | None = None
    list_address: MailAddress | None = None
    reply_to: MailAddress | None = None
    late_mail: Literal["refuse", "hold"] = "refuse"  # after the card's deadline: refuse, or hold for the fedhead
    passwords: bool = False  # strategy mails must carry the player's `Password:` line (fedtool password)
    inbox: str | None = Field(default=None, min_length=1, max_length=500)  # `fedtool tick` reads it: a Maildir, mbox, .eml folder or imaps:// address
    remind: list[Duration] = Field(default=[], max_length=10)  # `fedtool tick` reminds at these spans before a deadline: [48h, 6h]
    # a player whose strategies have not stood for this many weeks running (away weeks not
    # counted) is reported to the fedhead, and his sides play the default until one stands; 0: off
    no_show_limit: Whole = Field(default=0, ge=0, le=520)
    # the languages of the quote headers players' mail clients write above a quoted mail
    # ("On ... wrote:" en, "Am ... schrieb:" de, ...), so a reply's quote is cut before the
    # strategy is read; each language costs intake about 0.2 ms a mail (mail-parser-reply's codes)
    reply_languages: list[str] = Field(default=["en"], min_length=1, max_length=14)
    # mail from these addresses (or `@domain`: any address there) is read and never answered,
    # like mail from the fed's own addresses: a list server, a forwarding service, an abuser
    do_not_answer: list[Annotated[str, BeforeValidator(_address_or_domain)]] = Field(default=[], max_length=1000)

    @field_validator("reply_languages")
    @classmethod
    def _known_languages(cls, value: list[str]) -> list[str]:
        from mailparser_reply.constants import MAIL_LANGUAGES  # only when a fed sets them

        unknown = [code for code in value if code not in MAIL_LANGUAGES]
        if unknown:
            raise ValueError(f"unknown reply language {unknown[0]!r}: give codes from {', '.join(sorted(MAIL_LANGUAGES))}")
        return list(dict.fromkeys(value))


class ScheduleSettings(FileModel):
    """`schedule:` in rosters/fed.yaml: the fed's clock. A card without its own `deadline:`
    gets the first `weekday` at `time` after the week is opened, in the fed's `zone`."""

    zone: str = Field(default="UTC", max_length=64)  # an IANA time zone: Europe/London, America/New_York
    weekday: Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"] | None = None
    time: str = Field(default="18:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    run_early: bool = False  # `fedtool tick` runs a week as soon as every side's strategy stands
    tick_every: PositiveDuration = datetime.timedelta(minutes=15)  # how often cron runs `fedtool tick` (the clock guard's yardstick)

    @field_validator("zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}: give an IANA name such as Europe/London or UTC") from None
        return value


class TitleSettings(FileModel):
    """One of the fed's titles (`titles:` in rosters/fed.yaml); see fedtool.league.records."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$", description="Named by `for_title:` on the card")
    name: str = Field(min_length=1, max_length=120)
    ruleset: str | None = None  # default: the fed's ruleset
    division: str | None = Field(default=None, max_length=63)  # one of its ruleset's title divisions (MatchMatch: weight classes)
    teams: bool = False  # a tag title: held by team sheets
    first_holder: str | None = None  # the champion the fed starts with, before week 1
    changes_on: list[str] | None = None  # the finishes that change hands; default: all but dq and countout


def _site_url(value: str) -> str:
    """`site_url:`: an absolute http(s) address with no query or fragment, kept ending in "/"."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment or any(c.isspace() or c in "<>\"'" for c in value.strip()):
        raise ValueError(f"{value[:80]!r}: give the site's address, absolute, as https://fed.example/league/ (no query, fragment, blank or quote)")
    return value.strip().rstrip("/") + "/"


def _inside_the_fed(folder: str) -> str:
    path = Path(folder)
    if path.is_absolute() or ".." in path.parts or folder.startswith("~"):
        raise ValueError("a folder inside the fed's folder, written relative to it (no leading /, ~ or ..)")
    return folder


class BackupSettings(FileModel):
    """Snapshots of the league taken before every run and rerun (fedtool.league.backup)."""

    folder: Annotated[str, AfterValidator(_inside_the_fed)] = Field(default="backups", min_length=1, max_length=255, description="Relative to the fed's folder")
    keep: Whole = Field(default=10, ge=1, le=10000, description="How many snapshots to keep; the oldest go first")


class SeasonSettings(FileModel):
    """`seasons:` in rosters/fed.yaml: what `fedtool season close` carries into the next
    season. `carry_over` maps each ruleset's carry-over name (`Ruleset.season_carry`:
    push_levels, injuries, tv_grades, grudge_grades) to keep or reset (back to the sheet);
    a name left out is kept, the rulebooks' reading (they know no season break). The
    names are checked against the rulesets where a season is closed (fedtool.league.seasons)."""

    carry_over: dict[str, Literal["keep", "reset"]] = {}


def _one_line(value: str) -> str:
    """The fed's `name:`: it heads every page and goes into mail headers (From, Subject), so
    one line of printable characters (no control, line-break or bidi-override character)."""
    if not value.strip() or not value.isprintable():
        raise ValueError(f"{value[:40]!r}: one line of 1 to 120 printable characters (no control characters: the name goes into mail headers and pages)")
    return value


class Settings(FileModel):
    """rosters/fed.yaml: the fed's own settings."""

    name: Annotated[str, AfterValidator(_one_line)] = Field(max_length=120)
    secret: str = Field(min_length=8, description="Seeds every roll; keep it private")
    ruleset: str = "matchmatch"
    database: str = "fed.db"
    mail: MailSettings = Field(default_factory=MailSettings)  # made when read: no model is built at import
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)  # made when read: no model is built at import
    rulesets: dict[str, dict[str, Any]] = {}
    titles: list[TitleSettings] = []
    backups: BackupSettings = Field(default_factory=BackupSettings)  # made when read: no model is built at import
    seasons: SeasonSettings = Field(default_factory=SeasonSettings)  # issue 19: `fedtool season close`
    ratings: bool = True  # star ratings for each match and the card (docs/ratings.md); false: none shown or kept
    # where the fed publishes the site `fedtool site` builds (https://fed.example/dcw/): every
    # link in a mail is then absolute, to the site's pages; without it the card mail carries
    # the writeups itself and links nowhere (issue 16)
    site_url: Annotated[str, AfterValidator(_site_url)] | None = Field(default=None, max_length=500)
