"""The fed's clock (issue 12, item 2): deadlines from its schedule, in its time zone, shown
in that zone and in UTC."""

from __future__ import annotations

import datetime

from zoneinfo import ZoneInfo

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from fedtool.fed.schedule import WEEKDAYS, fed_zone, next_deadline, shown_time
from fedtool.fed.settings import ScheduleSettings
from fedtool.league.sheets import load_fed

UTC = datetime.timezone.utc


def moment(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


@pytest.mark.parametrize("after, deadline", [
    ("2026-11-23T19:00:00+00:00", "2026-11-27T18:00:00+00:00"),  # a Monday: that Friday, GMT
    ("2026-11-27T17:59:00+00:00", "2026-11-27T18:00:00+00:00"),
    ("2026-11-27T18:00:00+00:00", "2026-12-04T18:00:00+00:00"),  # strictly after
    ("2026-03-23T12:00:00+00:00", "2026-03-27T18:00:00+00:00"),  # before the clocks go forward (29 March)
    ("2026-03-30T12:00:00+00:00", "2026-04-03T17:00:00+00:00"),  # British Summer Time: 18:00 BST is 17:00 UTC
])
def test_the_deadline_is_the_weekday_at_the_time_in_the_feds_zone(after, deadline):
    schedule = ScheduleSettings(zone="Europe/London", weekday="fri", time="18:00")
    assert next_deadline(schedule, moment(after)) == moment(deadline)


def test_no_weekday_no_deadline():
    assert next_deadline(ScheduleSettings(), moment("2026-11-23T19:00:00+00:00")) is None


def fed_in(demo_fed, schedule: str):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text() + schedule)
    return load_fed(demo_fed)


@pytest.mark.parametrize("zone, shown", [
    ("UTC", "Friday 27 November 2026, 18:00 UTC"),
    ("America/New_York", "Friday 27 November 2026, 13:00 EST (18:00 UTC)"),
    ("Asia/Tokyo", "Saturday 28 November 2026, 03:00 JST (18:00 UTC, Friday 27 November)"),
])
def test_a_moment_is_shown_in_the_feds_zone_and_in_utc(demo_fed, zone, shown):
    fed = fed_in(demo_fed, f"schedule: {{zone: {zone}}}\n")
    assert shown_time(fed, moment("2026-11-27T18:00:00+00:00")) == shown


def test_open_sets_the_schedules_deadline_and_the_announcement_and_status_show_it(demo_fed, fedtool, monkeypatch):
    fed_in(demo_fed, "schedule: {zone: America/New_York, weekday: fri, time: '18:00'}\n")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(moment("2026-11-23T12:00:00+00:00").timestamp())))
    assert fedtool("open", "1", "--reroll", "--fed", demo_fed).exit_code == 0
    opening = yaml.safe_load((demo_fed / "strategies/week-01/opening.yaml").read_text())
    assert opening["deadline"] == "2026-11-27T23:00:00+00:00"  # 18:00 in New York
    announcement = (demo_fed / "outbox/week-01/announcements/m1-brother-bob.md").read_text()
    assert "The deadline is Friday 27 November 2026, 18:00 EST (23:00 UTC)." in announcement
    assert fedtool("status", "1", "--fed", demo_fed).output.splitlines()[0] == "week 1: the deadline is Friday 27 November 2026, 18:00 EST (23:00 UTC)"


def test_a_bad_zone_or_span_names_the_line(demo_fed, fedtool):
    settings = demo_fed / "rosters/fed.yaml"
    settings.write_text(settings.read_text() + "schedule: {zone: Mars/Olympus}\n")
    result = fedtool("standings", "--fed", demo_fed)
    assert result.exit_code == 1
    line = settings.read_text().count("\n")
    assert f"rosters/fed.yaml, line {line}, field schedule.zone: unknown time zone 'Mars/Olympus'" in result.stderr
    settings.write_text(settings.read_text().replace("schedule: {zone: Mars/Olympus}\n", "schedule: {tick_every: soon}\n"))
    result = fedtool("standings", "--fed", demo_fed)
    assert result.exit_code == 1 and "field schedule.tick_every: 'soon' is not a span of time such as 30m, 6h or 2d" in result.stderr


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=datetime.datetime(1971, 1, 1), max_value=datetime.datetime(2200, 1, 1), timezones=st.sampled_from([UTC, datetime.timezone(datetime.timedelta(hours=-5))])),
       st.sampled_from(WEEKDAYS), st.times().map(lambda t: f"{t.hour:02}:{t.minute:02}"))
def test_a_utc_fed_reads_no_time_zone_database_and_tells_time_as_zoneinfos_utc(after, weekday, time):
    """`fed_zone("UTC")` is the standard library's UTC, not zoneinfo's (a UTC fed's commands
    import no zoneinfo and read no database): the same deadlines, days and shown times."""
    assert fed_zone("UTC") is UTC and fed_zone("Europe/London") == ZoneInfo("Europe/London")
    schedule = ScheduleSettings(zone="UTC", weekday=weekday, time=time)
    mine = next_deadline(schedule, after)
    theirs = datetime.datetime.combine(after.astimezone(ZoneInfo("UTC")).date(), datetime.time.fromisoformat(time), ZoneInfo("UTC"))
    while theirs.weekday() != WEEKDAYS.index(weekday) or theirs <= after:
        theirs += datetime.timedelta(days=1)
    assert mine == theirs and mine.utcoffset() == datetime.timedelta(0)
    assert after.astimezone(fed_zone("UTC")).date() == after.astimezone(ZoneInfo("UTC")).date()
    local, zoned = after.astimezone(fed_zone("UTC")), after.astimezone(ZoneInfo("UTC"))
    assert f"{local:%A} {local.day} {local:%B %Y, %H:%M} {local.tzname()}" == f"{zoned:%A} {zoned.day} {zoned:%B %Y, %H:%M} {zoned.tzname()}"
