"""The site's Atom feed (feed.xml: results and news) and its calendar of deadlines
(calendar.ics), written with maintained libraries: feedgen for Atom (RFC 4287), icalendar
for iCalendar (RFC 5545).

Feed entries: each run week (its results, league and title changes; updated when it was
last run) and each closed season (its champions and awards). Ids are the pages' absolute
addresses when the fed has a `site_url:`, else stable `urn:uuid:`s made from the fed's
name and the page; links are then relative to the feed, which sits at the site's top.

Calendar events: every week's card with a deadline (its own `deadline:` or the schedule's,
set when the week was opened), one event at the deadline, with the card's matches.
Player text (names, card titles) is plain text in both: the libraries escape it, and
control characters (which XML cannot hold at all) are taken out first.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass

from feedgen.feed import FeedGenerator
from icalendar import Calendar, Event

from fedtool.fed.render import one_line, plain_text
from fedtool.fed.settings import Fed

FEED = "feed.xml"
CALENDAR = "calendar.ics"


@dataclass
class FeedEntry:
    path: str  # the page it points to, relative to the site's top
    title: str
    updated: datetime.datetime
    published: datetime.datetime
    html: str  # the entry's content, escaped HTML


@dataclass
class Deadline:
    week: int
    title: str
    at: datetime.datetime
    matches: list[str]


def _address(fed: Fed, path: str) -> str:
    return (fed.settings.site_url or "") + path


def _id(fed: Fed, path: str) -> str:
    if fed.settings.site_url:
        return fed.settings.site_url + path
    return uuid.uuid5(uuid.NAMESPACE_URL, f"fedtool:{fed.settings.name}:{path}").urn


def newest_last(entries: list[FeedEntry]) -> list[FeedEntry]:
    """By when each was updated; at the same second, in the order given (a season closed in
    the second its last week ran comes after it)."""
    return [e for _, _, e in sorted((e.updated, i, e) for i, e in enumerate(entries))]


def atom_feed(fed: Fed, entries: list[FeedEntry], updated: datetime.datetime) -> bytes:
    """The Atom feed: newest entry first."""
    feed = FeedGenerator()
    feed.id(_id(fed, ""))
    feed.title(one_line(f"{fed.settings.name}: results and news"))
    feed.author({"name": one_line(fed.settings.name)})
    feed.link(href=_address(fed, "index.html"), rel="alternate", type="text/html")
    feed.link(href=_address(fed, FEED), rel="self", type="application/atom+xml")
    feed.generator("fedtool")
    feed.language("en")
    feed.updated(updated)
    # feedgen writes entries in the reverse of the order they are added: oldest added first
    for entry in newest_last(entries):
        item = feed.add_entry()
        item.id(_id(fed, entry.path))
        item.title(one_line(entry.title))
        item.link(href=_address(fed, entry.path), rel="alternate", type="text/html")
        item.updated(entry.updated)
        item.published(entry.published)
        item.content(plain_text(entry.html), type="html")
    return feed.atom_str(pretty=True)


def deadline_calendar(fed: Fed, deadlines: list[Deadline], stamp: datetime.datetime) -> bytes:
    """The calendar of deadlines, one event per week's card, oldest first."""
    calendar = Calendar()
    calendar.add("prodid", "-//fedtool//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", one_line(f"{fed.settings.name}: deadlines"))
    domain = str(fed.settings.mail.from_address).rpartition("@")[2] or "fedtool.invalid"
    for deadline in sorted(deadlines, key=lambda d: d.week):
        event = Event()
        event.add("uid", f"week-{deadline.week:02d}-deadline-{uuid.uuid5(uuid.NAMESPACE_URL, fed.settings.name).hex[:12]}@{domain}")
        event.add("dtstamp", stamp.astimezone(datetime.timezone.utc))
        event.add("dtstart", deadline.at.astimezone(datetime.timezone.utc))
        event.add("dtend", deadline.at.astimezone(datetime.timezone.utc))
        event.add("summary", one_line(f"{fed.settings.name}: week {deadline.week} strategies due"))
        event.add("description", plain_text(f"{deadline.title}\n" + "\n".join(deadline.matches)))
        if fed.settings.site_url:
            event.add("url", fed.settings.site_url + "index.html")
        calendar.add_component(event)
    return calendar.to_ical()
