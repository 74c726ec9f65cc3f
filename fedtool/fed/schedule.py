"""The fed's clock: deadlines from its schedule, shown in its own time zone and in UTC.

Time zones come from the standard library's zoneinfo, with the tzdata package where the
system has no time zone database; UTC, every fed's zone unless it names another, is the
standard library's `datetime.timezone.utc` (`fed_zone`), so such a fed's commands read no
time zone database.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the settings' models are pydantic's: a run on settings checked before imports none (issue 18)
    from .settings import Fed, ScheduleSettings

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
UTC = datetime.timezone.utc


def fed_zone(name: str) -> datetime.tzinfo:
    """The time zone a fed's `schedule: zone` names: UTC itself for "UTC" (the same offsets,
    name and times as zoneinfo's UTC), else zoneinfo's zone (imported only then)."""
    if name == "UTC":
        return UTC
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def next_deadline(schedule: ScheduleSettings, after: datetime.datetime) -> datetime.datetime | None:
    """The schedule's first weekday at its time strictly after `after`, in the fed's zone
    (a wall-clock time, so a deadline stays at 18:00 across a change of summer time); None
    for a fed without a weekday."""
    if schedule.weekday is None:
        return None
    zone = fed_zone(schedule.zone)
    local = after.astimezone(zone)
    hour, minute = map(int, schedule.time.split(":"))
    day = local.date() + datetime.timedelta(days=(WEEKDAYS.index(schedule.weekday) - local.weekday()) % 7)
    for _ in range(3):
        candidate = datetime.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)
        if candidate.astimezone(UTC) > after.astimezone(UTC):
            return candidate.astimezone(UTC)
        day += datetime.timedelta(days=7)
    raise AssertionError("unreachable: a week later is always later")


def shown_time(fed: Fed, moment: datetime.datetime) -> str:
    """A moment as players read it: in the fed's zone, and in UTC when that differs.
    'Friday 27 November 2026, 18:00 GMT (18:00 UTC)'."""
    zone = fed_zone(fed.settings.schedule.zone)
    local = moment.astimezone(zone)
    text = f"{local:%A} {local.day} {local:%B %Y, %H:%M} {local.tzname()}"
    if local.utcoffset() != datetime.timedelta(0) or fed.settings.schedule.zone != "UTC":
        utc = moment.astimezone(UTC)
        # the UTC date when it is another day, with its year when that is another year too
        # (31 December in New York is 1 January in UTC): never a date a player must guess the year of
        text += f" ({utc:%H:%M} UTC" + ("" if utc.date() == local.date() else f", {utc:%A} {utc.day} {utc:%B}" + (f" {utc.year}" if utc.year != local.year else "")) + ")"
    return text
