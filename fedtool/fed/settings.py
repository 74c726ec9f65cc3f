"""A federation on disk: its settings, roster, cards and outbox, laid out as users lay theirs.

`Fed.load` checks rosters/fed.yaml for shape only; what needs a ruleset (is the ruleset
known, do the titles fit their rulesets) is checked above this layer
(fedtool.league.sheets.load_fed and fedtool.league.records)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fedtool.kernel import checked
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import keep_checked, validate
from fedtool.kernel.yamlio import LineDict, parse_yaml, read_text

if TYPE_CHECKING:
    from .models import Settings

# The settings' models (fedtool.fed.models) are imported when asked for: a command whose
# fed.yaml is known checked (the same bytes, the same fedtool) reads its plain settings from
# what that check kept and never imports pydantic (issue 18: `fedtool standings`).
_MODELS = frozenset(("SmtpSettings", "MailSettings", "ScheduleSettings", "TitleSettings", "BackupSettings", "SeasonSettings", "Settings"))


def __getattr__(name: str) -> Any:
    if name in _MODELS:
        from . import models

        return getattr(models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

SETTINGS_FILE = "fed.yaml"
WRESTLER_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


@dataclass
class Fed:
    """Paths and settings of one federation. Loading a fed reads only its settings."""

    root: Path
    settings: Settings
    _data: Any = field(default=None, repr=False, compare=False)  # rosters/fed.yaml as read, with its lines (read when first asked)
    _text: str | None = field(default=None, repr=False, compare=False)  # rosters/fed.yaml's text, when known checked

    @classmethod
    def load(cls, root: Path | str) -> "Fed":
        """The fed in `root`, its settings checked: by pydantic, or, when these very bytes were
        checked good by this fedtool before (fedtool.kernel.checked), from what that check
        kept (`KnownSettings`: the plain settings, the rest checked when first asked for)."""
        root = Path(root)
        path = root / "rosters" / SETTINGS_FILE
        if not path.exists():
            raise FedError(
                Problem(str(path), None, "no fed settings here; run `fedtool init DIR` to create a fed, or pass --fed DIR")
            )
        shown = fed_relative(root, path)
        text = read_text(path, shown)
        key = checked.digest("settings", text)
        kept = checked.recall(key)
        if _plain_shape(kept):  # an entry damaged since (by hand, a disk) is as none: the file is checked
            return cls(root, KnownSettings(kept, text, shown), None, text)  # type: ignore[arg-type]
        from .models import Settings

        data = parse_yaml(text, shown, keep=True)
        settings = validate(Settings, data, shown, "fed settings")
        checked.remember(key, plain_settings(settings))
        keep_checked("fedtool.fed.models:Settings", data, settings)  # the rest (`KnownSettings.checked`), read back without pydantic
        return cls(root, settings, data, text)

    @property
    def data(self) -> Any:
        """rosters/fed.yaml as read, each value knowing its line (for messages)."""
        if self._data is None:
            shown = self.shown(self.settings_file)
            self._data = parse_yaml(self._text if self._text is not None else read_text(self.settings_file, shown), shown, keep=True)
        return self._data

    @property
    def rosters(self) -> Path:
        return self.root / "rosters"

    @property
    def strategies(self) -> Path:
        return self.root / "strategies"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def settings_file(self) -> Path:
        return self.rosters / SETTINGS_FILE

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    @property
    def database(self) -> Path:
        return self.root / self.settings.database

    @property
    def backups(self) -> Path:
        return self.root / self.settings.backups.folder

    def week_dir(self, week: int) -> Path:
        return self.strategies / week_name(week)

    def outbox_week(self, week: int) -> Path:
        return self.outbox / week_name(week)

    def shown(self, path: Path) -> str:
        """A path as the user should read it in messages: relative to the fed."""
        return fed_relative(self.root, path)

    def ruleset_settings(self, ruleset_id: str) -> dict[str, Any]:
        """`rulesets: ID:` of the settings (a copy), as read from rosters/fed.yaml with its
        lines, so that a ruleset's check of its settings names the line of one that does not
        stand (the settings' own copy has lost them; a fed whose file is known checked has
        not read it, and reads it now: a third of a millisecond)."""
        section = self.settings.rulesets.get(ruleset_id, {})
        try:
            read = self.data.get("rulesets") if isinstance(self.data, dict) else None
        except FedError:
            read = None
        read = read.get(ruleset_id) if isinstance(read, dict) else None
        if isinstance(read, LineDict) and read == section:
            copy = LineDict(read)
            copy.line, copy.lines, copy.key_lines = read.line, read.lines, read.key_lines
            return copy
        return dict(section)

    @cached_property
    def roster_files(self) -> dict[str, Path]:
        """Wrestler id -> sheet file. The id is the file name: the fedhead's choice, never a player's."""
        files = {}
        for path in sorted(self.rosters.glob("*.yaml")):
            if path.name == SETTINGS_FILE:
                continue
            files[path.stem] = path
        return files

    @property
    def retired(self) -> Path:
        """rosters/retired/: retired wrestlers' sheets, kept (`fedtool roster retire`); no card books them."""
        return self.rosters / RETIRED_FOLDER

    @cached_property
    def retired_files(self) -> dict[str, Path]:
        """Wrestler id -> the sheet of a retired wrestler (rosters/retired/ID.yaml)."""
        return {path.stem: path for path in sorted(self.retired.glob("*.yaml"))}


RETIRED_FOLDER = "retired"

# The settings a reading command uses, kept from a good check of rosters/fed.yaml
# (fedtool.kernel.checked): plain values only, never the secret, the mail settings (addresses)
# or anything holding a span of time. The rest is checked when first asked for.
PLAIN_SETTINGS = ("name", "ruleset", "database", "rulesets", "titles", "ratings", "site_url", "backups", "seasons")


def plain_settings(settings: Settings) -> dict[str, Any]:
    """What `KnownSettings` serves of checked settings."""
    return {name: settings.model_dump(include={name})[name] for name in PLAIN_SETTINGS}


def _plain_shape(kept: Any) -> bool:
    """Whether what the cache gave back has the shape `plain_settings` writes."""
    if not isinstance(kept, dict) or set(kept) != set(PLAIN_SETTINGS):
        return False
    return (all(isinstance(kept[name], str) for name in ("name", "ruleset", "database")) and isinstance(kept["ratings"], bool)
            and isinstance(kept["site_url"], (str, type(None))) and isinstance(kept["rulesets"], dict)
            and all(isinstance(value, dict) for value in kept["rulesets"].values())
            and isinstance(kept["titles"], list) and all(isinstance(title, dict) and isinstance(title.get("id"), str) for title in kept["titles"])
            and isinstance(kept["backups"], dict) and isinstance(kept["seasons"], dict))


class KnownSettings:
    """rosters/fed.yaml's settings when these very bytes were checked good before by this
    fedtool (fedtool.kernel.checked): the plain settings (PLAIN_SETTINGS) as that check
    kept them, without pydantic; any other (the secret, mail, schedule) from checking the
    text now, the first time one is asked for: what `Fed.load` would have given."""

    def __init__(self, kept: dict[str, Any], text: str, shown: str):
        self._text, self._shown, self._checked = text, shown, None
        for name in PLAIN_SETTINGS:
            value = kept[name]
            if name == "titles":
                value = [checked.Kept(title) for title in value]
            elif name in ("backups", "seasons"):
                value = checked.Kept(value)
            self.__dict__[name] = value

    def checked(self) -> Settings:
        """The settings as pydantic reads them (the models built now)."""
        if self._checked is None:
            # by name: these bytes were checked good before, so the check's result is usually
            # kept too, read back without pydantic, the secret and the addresses read from the
            # text itself (fedtool.kernel.checked: the cache holds no text of the file's)
            self._checked = validate("fedtool.fed.models:Settings", parse_yaml(self._text, self._shown, keep=True), self._shown, "fed settings")
        return self._checked

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.checked(), name)


def week_name(week: int) -> str:
    return f"week-{week:02d}"


def fed_relative(root: Path, path: Path) -> str:
    """A path as messages show it: relative to the fed's folder when it is inside it."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        pass
    try:  # only then through symlinks and "..": resolving touches the disk
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def check_wrestler_id(wrestler_id: str, file: str, place: str) -> None:
    if not WRESTLER_ID.match(wrestler_id):
        raise FedError(
            Problem(file, place, f"{wrestler_id!r} is not a wrestler id (lowercase letters, digits and dashes)", "roster file names")
        )


__all__ = ["Fed", "Settings", "Collector", "week_name", "check_wrestler_id"]
