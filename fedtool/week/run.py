"""A fedhead's week: open it (roll grids, announce), run it (resolve, record, write up), or
play any card as an exhibition.

A run is atomic, and the league's commit decides it. Everything is read and checked
first; the matches are resolved in memory; the writeups are rendered into a staging folder
named for the run and flushed to disk; then the week's rows are written in one database
transaction, and once it has committed the staging folder is swapped into the outbox. Any
failure before the commit leaves the database and the outbox as they were; a kill after it
leaves a swap the next writing command finishes (`settle_outbox`), so the outbox always
ends up holding the run the league holds.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from fedtool.fed.card import OPENING_FILE, Card, load_card, strategy_path
from fedtool.fed.files import StagedDir, atomic_write, half_written, settle
from fedtool.fed.mailtext import absolute_links, mail_html, mail_text
from fedtool.fed.render import MarkdownText, email_text, environment, markdown_page, md_escape, render
from fedtool.fed.schedule import next_deadline, shown_time
from fedtool.fed.settings import Fed, week_name
from fedtool.kernel import clock
from fedtool.kernel.dice import Dice, ScriptedDice, SeededDice, commitment, derive_seed, format_log, seed_text
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.yamlio import dump_yaml, parse_yaml
from fedtool.league.away import no_show_streaks, record_punctuality, week_verdict
from fedtool.league.backup import discard, take_snapshot
from fedtool.league.db import open_league, ran_weeks, record_week, record_writeups, result_phrase, runs_of, undo_week, week_results, week_sides
from fedtool.league.catalog import sync_titles_if_they_stand
from fedtool.league.records import NEVER_BY_DEFAULT, check_card_titles, decide_title_matches, record_title_matches
from fedtool.league.seasons import check_week_runnable
from fedtool.rulesets import get_ruleset
from fedtool.rulesets.base import Booking, WrestlerRecord

from .ratings import match_rating
from .show import ShowMatch, card_show, title_words
from .booking import book_all, card_context, card_field_problems, side_problems, week_card
from .status import SideStatus, strict_bookings, week_status

CLOSE = "close"  # the dice-log key for end-of-week rolls (healing)


@dataclass
class Played:
    """One resolved match with everything needed to record and tell it."""

    booking: Booking
    ruleset: Any
    result: Any
    seed: str
    log: list
    summary: dict = field(default_factory=dict)
    outcomes: list = field(default_factory=list)
    seed_text: str | None = None  # what the week's commitment hashes (a seeded league run only)
    league_changes: list = field(default_factory=list)  # what the match changed in the league (`league_change_rows`)
    rating: dict | None = None  # its star rating and what made it (`ratings.match_rating`); None: ratings are off

    @cached_property
    def described(self) -> dict:
        """The ruleset's description of the match, for the writeup (built once)."""
        return self.ruleset.describe(self.booking, self.result)


@dataclass
class WeekReport:
    """What a week's run tells the fedhead: the outbox, the headlines, warnings and changes."""

    label: str
    outbox: Path
    headlines: list[str]
    files: list[Path]
    warnings: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    run: int = 1  # which run of the week this was (a rerun: 2 or more)
    corrections: list[str] = field(default_factory=list)  # a rerun: what changed against the previous run, per match
    snapshot: Path | None = None  # the league as it was before the run (fedtool.league.backup)


# ---------------------------------------------------------------- opening


def open_week(fed: Fed, week: int, dice_file: Path | None = None, reroll: bool = False, now: datetime.datetime | None = None) -> WeekReport:
    """Roll what each match needs before strategies (MatchMatch: the grid) and announce it.

    A card without its own deadline gets the fed's schedule's next one (kept in opening.yaml)."""
    now = now or clock.now()
    card = week_card(fed, week)
    if card.opened and not reroll:
        raise FedError(Problem(f"{fed.shown(card.folder)}/opening.yaml", None, f"week {week} is already open; its grids may already be in players' hands (use --reroll to roll again)", "fedtool open"))
    problems = Collector()
    wrestlers = card_context(fed, card, None, problems).wrestlers
    problems.problems.extend(check_card_titles(fed, card, wrestlers))  # for_title: (issue 7)
    for match in card.matches:
        problems.problems.extend(card_field_problems(card, match, get_ruleset(match.ruleset, (card.shown, f"match {match.id}"))))
        if all(w in wrestlers for w in match.sides):
            problems.problems.extend(side_problems(card, match, [wrestlers[w] for w in match.sides]))
    problems.raise_if_any()
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    opening: dict[str, dict] = {}
    logs = []
    for match in card.matches:
        ruleset = get_ruleset(match.ruleset, (card.shown, f"match {match.id}"))
        dice = scripted or SeededDice(derive_seed(fed.settings.secret, week, "open", match.id))
        rolled = ruleset.open_match(card, match, dice, fed.ruleset_settings(match.ruleset))
        logs.append(format_log(dice.take_log(), f"match {match.id}: opening"))
        if rolled:
            opening[match.id] = rolled
            match.opening = rolled
    commitments = match_commitments(fed, week, card)
    text = "# Written by `fedtool open`: what was rolled before strategies were written.\n"
    text += "# To set a grid by hand, give `grid:` on the match in card.yaml instead.\n"
    scheduled = next_deadline(fed.settings.schedule, now) if card.deadline is None else None
    if scheduled is not None:
        card.deadline = scheduled
    text += "# commitments: each match's dice, the SHA-256 of its seed text `week W match M seed S`\n"
    text += "# (S revealed with the results; README, \"Checking the dice\").\n"
    text += dump_yaml({"week": week, **({"deadline": scheduled.isoformat()} if scheduled else {}), "matches": opening}) + commitments_yaml(commitments)
    env = _environment(fed, card)
    outbox = fed.outbox_week(week) / "announcements"
    files: dict[str, str] = {}
    for match in card.matches:
        sides = [wrestlers[w] for w in match.sides]
        ruleset = get_ruleset(match.ruleset)
        context = ruleset.announce(card, match, sides, fed.ruleset_settings(match.ruleset))
        for wrestler in sides:
            body = render(
                env,
                f"{ruleset.id}/announce.md.j2",
                fed_name=fed.settings.name,
                week_label=f"week {week}",
                title=match.title,
                strategy_file=strategy_path(card, match, wrestler.id).name,
                commitment=commitments[match.id],
                **context,
            )
            if commitments[match.id] not in body:  # a fed's own template left it out: it is always published
                body += f"\n{COMMITMENT_LINE.format(commitment=commitments[match.id])}\n"
            body += render(
                env,
                "submit.md.j2",
                address=str(fed.settings.mail.reply_to or fed.settings.mail.from_address),
                subject=f"Week {week} {wrestler.id} {match.id}",
                strategy_file=strategy_path(card, match, wrestler.id).name,
                deadline=shown_time(fed, card.deadline) if card.deadline else None,
                # issue 19: the site's calendar of deadlines, an autolink (site_url: is checked to hold no <, >, quote or blank)
                calendar=MarkdownText(f"<{fed.settings.site_url}calendar.ics>") if fed.settings.site_url else None,
                for_title=next((t.name for t in fed.settings.titles if t.id == match.for_title), None),
                passwords=fed.settings.mail.passwords,
            )
            files[f"{match.id}-{wrestler.id}.md"] = body
            # one mail per side, its subject the one to submit with, so a reply files correctly
            # the announcement's Markdown as a page, then as readable text (fedtool.fed.mailtext)
            page = absolute_links(_page(env, f"{fed.settings.name}: week {week}", markdown_page(body)), fed.settings.site_url)
            files[f"mail/{match.id}-{wrestler.id}.eml"] = email_text(
                fed.settings.mail.from_address, wrestler.owner_name, wrestler.owner_email,
                f"{fed.settings.name}: Week {week} {wrestler.id} {match.id} is open", mail_text(page), mail_html(page),
                _message_id(fed, week, f"open-{match.id}", wrestler.id), fed.settings.mail.reply_to, date=now,
            )
    files["dice.txt"] = "".join(logs)
    with StagedDir(outbox) as stage:
        for name, content in files.items():
            stage.write(name, content)
        for leftover in half_written(card.folder, "opening.yaml"):  # an open killed while writing it (the caller holds the lock)
            leftover.unlink(missing_ok=True)
        atomic_write(card.folder / "opening.yaml", text)
        stage.swap()
    # only a match whose opening rolls something (a grid, a referee) can change under a player's strategy
    filed = sorted(fed.shown(path) for m in card.matches if m.id in opening
                   for w in m.sides if (path := strategy_path(card, m, w)).exists()) if reroll else []
    warnings = [f"rerolled with strategies already filed ({', '.join(filed)}): their players wrote them for the old grids; "
                "the new announcements say what changed"] if filed else []
    return WeekReport(f"week {week}", outbox, [f"{m.id}: {' vs. '.join(wrestlers[w].name for w in m.sides)}" for m in card.matches], [outbox / n for n in files], warnings)


COMMITMENT_LINE = "Dice commitment: `{commitment}` (the SHA-256 of this match's seed text, revealed with the results)."


def match_commitments(fed: Fed, week: int, card: Card) -> dict[str, str]:
    """Each match's commitment: the SHA-256 of the seed text of the seed its run will use."""
    return {m.id: commitment(seed_text(week, m.id, derive_seed(fed.settings.secret, week, m.id))) for m in card.matches}


def commitments_yaml(commitments: dict[str, str]) -> str:
    """opening.yaml's `commitments:` block, one match a line."""
    lines = []
    for match_id, value in commitments.items():
        plain = f"{match_id}: {value}"
        lines.append(f"  {plain if parse_yaml(plain, OPENING_FILE) == {match_id: value} else json.dumps(match_id) + ': ' + json.dumps(value)}\n")  # "1", "no": quoted
    return "commitments:\n" + "".join(lines)


# ---------------------------------------------------------------- running


def _resolve_card(fed: Fed, card: Card, bookings: list[Booking], week: int | None, scripted: ScriptedDice | None) -> list[Played]:
    played = []
    for booking in bookings:
        ruleset = get_ruleset(booking.match.ruleset)
        revealed = None
        if scripted is not None:
            dice: Dice = scripted
            seed = f"scripted: {scripted.source}"
        else:
            seed_value = derive_seed(fed.settings.secret, week if week is not None else card.folder.name, booking.match.id)
            dice = SeededDice(seed_value)
            seed = f"{seed_value:016x}"
            if week is not None:
                revealed = seed_text(week, booking.match.id, seed_value)
        dice.round = 0
        dice.take_log()
        result = ruleset.resolve(booking, dice)
        played.append(Played(booking, ruleset, result, seed, result.log, ruleset.summary(booking, result), ruleset.outcomes(booking, result), revealed))
        if fed.settings.ratings:  # from the result: after the match, never with its dice
            played[-1].rating = match_rating(ruleset.rating_inputs(booking, result), booking.match.for_title is not None)
    return played


def run_week(fed: Fed, week: int, dice_file: Path | None = None, rerun: bool = False, now: datetime.datetime | None = None) -> WeekReport:
    """Resolve a week's card and record it: all of it lands, or none of it.

    `now` is the run's time (default: the clock): recorded in the league and the Date of
    every mail the run writes. The league is snapshotted first (fedtool.league.backup). A
    rerun is the week's run 2 (3, ...): its mails get new Message-IDs, say "Corrected:" and
    refer to the first run's, and the card says what changed against the previous run."""
    card = week_card(fed, week)
    settle_outbox(fed)  # a killed run's outbox follows the league first (the caller holds the fed's lock)
    db = open_league(fed.database, create=False)
    weeks = ran_weeks(db)
    if week in weeks and not rerun:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} has already been run; `fedtool run {week} --rerun` undoes it and runs it again", "a week runs once"))
    if rerun and week not in weeks:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} has not been run, so there is nothing to rerun", "fedtool run --rerun"))
    later = [w for w in weeks if w > week]
    if later:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} is before weeks already run ({', '.join(map(str, later))}); only the latest week can be run or rerun", "weeks run in order"))
    check_week_runnable(db, week)  # issue 19: a closed season's weeks stand as archived
    context = card_context(fed, card, week, fought=week_sides(db, week) if rerun else frozenset(), db=db)  # a rerun: who fought it, retired since or not
    wrestlers, states = context.wrestlers, context.states
    moment = now or clock.now()
    booked: dict = {}  # each match booked once: the strategies' check books it, the run takes that booking where it stands
    absent = absences(fed, db, week, card, week_status(fed, week, moment, context, booked, db))  # issue 12: away, punctuality, no-shows
    bookings = book_all(fed, card, wrestlers, states, excused=absent.excused, stood=strict_bookings(booked))
    for booking in bookings:
        booking.notes = quiet_notes(booking.notes, [w.name for w in booking.wrestlers if absent.excused.get((booking.match.id, w.id)) == "away"
                                                    and not strategy_path(card, booking.match, w.id).exists()])
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    played = _resolve_card(fed, card, bookings, week, scripted)
    run = runs_of(db, week) + 1
    previous = week_results(db, week) if rerun else None  # read before the rerun's undo

    # league effects, match by match in card order, then the week's close
    changes: dict[str, tuple[dict, str]] = {}
    current = {wid: dict(state) for wid, state in states.items()}
    for p in played:
        effects = p.ruleset.league_effects(p.booking, p.result, current, fed.ruleset_settings(p.booking.match.ruleset))
        p.league_changes = league_change_rows(effects, current)
        for wid, (state, reason) in effects.items():
            current[wid] = state
            changes[wid] = (state, _join(changes.get(wid, (None, ""))[1], reason))
    names = {row["id"]: row["name"] for row in db["wrestlers"].rows}
    names.update({wid: w.name for wid, w in wrestlers.items()})  # the sheets are current
    wrestled = {w for p in played for w in p.booking.match.sides}
    wrestled |= {m for p in played for w in p.booking.wrestlers for m in w.members}  # tag partners wrestled too
    # the card's league changes in plain words, match by match in card order, then the week's close
    told = [line for p in played for row in p.league_changes
            for line in p.ruleset.tell_league_change(names.get(row["wrestler"], row["wrestler"]), row["reason"], row["changes"], p.booking.commentary)]
    close_dice = scripted or SeededDice(derive_seed(fed.settings.secret, week, CLOSE))
    close_dice.round = 0
    close_dice.take_log()
    kinds = _rulesets_of(db, wrestlers, current, fed)  # each wrestler's ruleset, looked up once (was once per ruleset, a query each)
    for ruleset_id in sorted({w.ruleset for w in wrestlers.values()} | {fed.settings.ruleset}):
        ruleset = get_ruleset(ruleset_id)
        group = {wid: s for wid, s in current.items() if kinds[wid] == ruleset_id}
        closed = ruleset.close_week(group, wrestled, close_dice, names)
        told += [line for row in league_change_rows(closed, current) for line in ruleset.tell_league_change(names.get(row["wrestler"], row["wrestler"]), row["reason"], row["changes"])]
        for wid, (state, reason) in closed.items():
            current[wid] = state
            changes[wid] = (state, _join(changes.get(wid, (None, ""))[1], reason))
    close_log = close_dice.take_log()
    warnings = []
    if scripted is not None and scripted.remaining:
        warnings.append(f"{scripted.source}: {scripted.remaining} scripted dice were not needed")

    label = f"week {week}"
    title = card.title or label.capitalize()
    change_lines = [f"{names.get(wid, wid)}: {reason}" for wid, (_, reason) in sorted(changes.items())]
    title_rows, title_lines = decide_title_matches(fed, db, week, card, played, names)  # issue 7
    change_lines += title_lines + absent.lines
    # a title won is told under the show's "Title changes"; the others here
    told += [title_words(row, _title_name(fed, row), _title_rule(fed, row), names) for row in title_rows if row["result"] != "won"] + absent.lines
    dice_rows = _dice_rows(week, played, close_log)
    week_log = "".join(format_log(p.log, f"match {p.booking.match.id}") for p in played)
    if close_log:
        week_log += format_log(close_log, "end of the week")
    writeups: dict[str, dict] = {}  # kept in the league for `fedtool site` (m008)
    corrections = correction_lines(previous, played) if run > 1 else []
    files = render_card(fed, card, title, played, told, week_log, label, writeups, date=moment, run=run,
                        corrections=corrections if previous is not None else None,
                        title_changes=[title_words(row, _title_name(fed, row), _title_rule(fed, row), names) for row in title_rows if row["result"] == "won"],
                        titles=title_outcomes(fed, title_rows, names), week=week, show=show_matches(fed, played, title_rows, names))
    outbox = fed.outbox_week(week)
    ran_at = moment.isoformat(timespec="seconds")
    snapshot = take_snapshot(fed, f"before-{week_name(week)}-run-{run}", moment)
    committed = False
    try:
        # the league's commit decides: the outbox is staged whole and on disk first, the
        # league commits, then the outbox is swapped in. A kill anywhere leaves either the
        # league without the run and a staging folder the next command drops, or the league
        # with it and a staging folder (or a swap half done) the next command finishes.
        with StagedDir(outbox, keep=("announcements",), tag=_run_tag(run)) as stage:
            for name, content in files.items():
                stage.write(name, content)
            stage.flush()  # the disk writes the staged outbox while the league's rows are made
            if db.memory:
                db = open_league(fed.database)
            with db.atomic():
                if rerun:
                    undo_week(db, week)
                record_week(
                    db, week, title, ran_at, scripted.source if scripted else "seeded",
                    list(wrestlers.values()), [_match_row(week, p) for p in played], changes, dice_rows,
                )
                record_title_matches(db, title_rows)
                sync_titles_if_they_stand(fed, db, check=False)  # the lineage as rows (issue 19); no other ruleset imported
                record_punctuality(db, week, absent.records)
                record_writeups(db, week, {f"{week_name(week)}/{match_id}": w for match_id, w in writeups.items()})
                stage.seal()  # the staged outbox whole and on disk before the league commits (a failure rolls the rows back)
            committed = True
            stage.swap()
    except BaseException:
        if not committed and _settle_after_failure(fed, week, run) is False:
            discard(snapshot)  # nothing changed, so nothing to go back to
        raise
    return WeekReport(label, outbox, [p.described["headline"] for p in played], [outbox / n for n in files], warnings, change_lines,
                      run, [f"{c['match']}: {c['text']}" for c in corrections], snapshot)


def _run_tag(run: int) -> str:
    """The tag of a run's staged outbox (.week-NN.new-run2-*): which run it holds."""
    return f"run{run}"


def held_run(db, week: int) -> int:
    """The run of `week` the league holds: 0 if it holds no results for the week."""
    return runs_of(db, week) if week in ran_weeks(db) else 0


def settle_outbox(fed: Fed) -> None:
    """Make the outbox follow the league after a killed command, and drop leftover staging.

    For each week with a staging or moved-aside folder beside `outbox/week-NN`: if the
    league holds the week at run R, the staged outbox of run R (if any) is swapped in; every
    other staging is dropped, and an old outbox moved aside is dropped once the new one is
    in place. Staging left by the announcements, exhibitions and other folders of the
    outbox is dropped too. The league is opened only when there is something to settle.
    Call it holding the fed's lock (every writing command does, fedtool.cli.fed_option)."""
    outbox = fed.outbox
    if not outbox.is_dir():
        return
    weeks: dict[Path, int] = {}  # outbox/week-NN -> NN
    others: set[Path] = set()
    for folder in [outbox, outbox / EXHIBITIONS, *sorted(outbox.glob("week-*"))]:
        if not folder.is_dir() or folder.is_symlink():
            continue
        for path in folder.iterdir():
            found = _LEFTOVER.fullmatch(path.name)
            if not found or not path.is_dir():
                continue
            week = _WEEK_FOLDER.fullmatch(found["name"]) if folder == outbox else None
            if week:
                weeks[folder / found["name"]] = int(week[1])
            else:
                others.add(folder / found["name"])
    for final in sorted(others):
        settle(final)
    if weeks:
        db = open_league(fed.database, create=False)
        for final, week in sorted(weeks.items()):
            run = held_run(db, week)
            settle(final, _run_tag(run) if run else None)


_LEFTOVER = re.compile(r"\.(?P<name>.+?)\.(?:new|old)-.*", re.S)
_WEEK_FOLDER = re.compile(r"week-(\d+)")


def _settle_after_failure(fed: Fed, week: int, run: int) -> bool | None:
    """After a run failed before it knew its commit had returned: did the league commit it?
    The outbox is settled by the answer (swapped in or dropped); if the league cannot be
    read now, the next command settles it. Returns whether the league holds the run (None:
    it cannot tell, so its snapshot is kept)."""
    try:
        held = held_run(open_league(fed.database, create=False), week) == run
    except Exception:  # the failure being raised says what went wrong; the next command settles
        return None
    settle(fed.outbox_week(week), _run_tag(run) if held else None)
    return held


@dataclass
class Absences:
    """What the run makes of the players' strategies (issue 12, item 7)."""

    excused: dict[tuple[str, str], str]  # (match id, wrestler id) -> "away" or "no-show": the default plays for them
    records: list[dict]  # each counted side's record for the league (fedtool.league.away)
    lines: list[str]  # what the fedhead is told: players past the fed's no_show_limit


def absences(fed: Fed, db, week: int, card: Card, rows: list[SideStatus]) -> Absences:
    """Each side's record from the week's status: on time (a strategy that stands, filed by
    the deadline), late (one held after the deadline and accepted), away (none stands and
    the player is away) or missing (none stands: the default plays or the cards decide); a
    side of a ruleset whose strategy is optional that sent none is not counted.

    Away sides are excused: they play the default, quietly. With `mail: no_show_limit: N`,
    a player none of whose strategies stood this week nor the weeks before it, N weeks
    running (away weeks skipped), is named to the fedhead and his missing sides excused too."""
    last: dict[str, str] = {}
    for wrestler_id, verdict in db.execute("SELECT wrestler_id, verdict FROM inbox_seen WHERE week = ? AND verdict IN ('accepted', 'held') "
                                           "ORDER BY arrived, rowid", [week]).fetchall():
        last[wrestler_id] = verdict
    optional = {m.id: get_ruleset(m.ruleset).strategy_optional for m in card.matches}
    records, excused = [], {}
    for row in rows:
        if row.verdict == "stands":
            late = card.deadline is not None and last.get(row.wrestler_id) == "held" and row.held is None  # accepted by the fedhead
            record = "late" if late else "on_time"
        elif optional[row.match] and row.file is None:
            continue
        else:
            record = "away" if row.verdict == "away" else "missing"
        if record == "away":
            excused[(row.match, row.wrestler_id)] = "away"
        records.append({"match": row.match, "wrestler_id": row.wrestler_id, "owner_email": row.owner.strip().lower(),
                        "owner_name": row.owner_name, "record": record})
    lines = []
    limit = fed.settings.mail.no_show_limit
    if limit:
        streaks = no_show_streaks(db, week)
        by_owner: dict[str, list[dict]] = {}
        for record in records:
            by_owner.setdefault(record["owner_email"], []).append(record)
        for address, mine in sorted(by_owner.items(), key=lambda item: item[1][0]["owner_name"].lower()):
            if week_verdict([r["record"] for r in mine]) != "missed":
                continue
            running = streaks.get(address, 0) + 1
            if running < limit:
                continue
            lines.append(f"{mine[0]['owner_name']} has sent no strategy for {running} weeks running (no_show_limit: {limit}): "
                         "the default strategy plays for his sides until one of his stands.")
            for r in mine:
                if r["record"] == "missing":
                    excused[(r["match"], r["wrestler_id"])] = "no-show"
    return Absences(excused, records, lines)


def quiet_notes(notes: list[str], away: list[str]) -> list[str]:
    """A booking's notes with each away wrestler's "sent no strategy" told as away."""
    out = []
    for note in notes:
        for name in away:
            said = f"{name} sent no strategy"
            if note.startswith(said):
                note = f"{name} is away" + note[len(said):]
        if note.startswith(NO_STRATEGY_FROM) and ": " in note:  # Face to the Mat: "No strategy from A, B: the cards decide, ..."
            names, rest = note[len(NO_STRATEGY_FROM):].split(": ", 1)
            listed = names.split(", ")
            gone = [n for n in listed if n in away]
            kept = [n for n in listed if n not in away]
            if gone:
                out.extend(f"{n} is away: {rest}" for n in gone)
                note = f"{NO_STRATEGY_FROM}{', '.join(kept)}: {rest}" if kept else ""
        if note:
            out.append(note)
    return out


NO_STRATEGY_FROM = "No strategy from "


EXHIBITIONS = "exhibitions"  # outbox/exhibitions/<card folder>/: what `fedtool play` writes; `send` never sends it


def exhibition_label(folder: Path) -> str:
    """An exhibition's folder name under outbox/exhibitions/: the card folder's name, made safe."""
    return re.sub(r"[^a-z0-9-]+", "-", folder.resolve().name.lower()).strip("-")[:80] or "card"


def play_card(fed: Fed, folder: Path, dice_file: Path | None = None) -> WeekReport:
    """Resolve any card folder as an exhibition: writeups only, the league untouched.

    Used to replay a rulebook example or a disputed match, or to try a card before a week.
    Written to outbox/exhibitions/<folder>/ (never a week's results: even the card of
    strategies/week-01 played this way goes to outbox/exhibitions/week-01/), which `fedtool
    send` never sends.
    """
    card = load_card(fed, folder)
    context = card_context(fed, card, None)
    bookings = book_all(fed, card, context.wrestlers, context.states)
    scripted = ScriptedDice.from_file(dice_file) if dice_file else None
    played = _resolve_card(fed, card, bookings, None, scripted)
    warnings = []
    if scripted is not None and scripted.remaining:
        warnings.append(f"{scripted.source}: {scripted.remaining} scripted dice were not needed")
    week_log = "".join(format_log(p.log, f"match {p.booking.match.id}") for p in played)
    label = exhibition_label(folder)
    names = {w.id: w.name for p in played for w in p.booking.wrestlers}
    files = render_card(fed, card, card.title or label, played, [], week_log, label, date=clock.now(), show=show_matches(fed, played, [], names))
    outbox = fed.outbox / EXHIBITIONS / label
    with StagedDir(outbox) as stage:
        for name, content in files.items():
            stage.write(name, content)
        stage.swap()
    return WeekReport(label, outbox, [p.described["headline"] for p in played], [outbox / n for n in files], warnings)


def _rulesets_of(db, wrestlers: dict[str, WrestlerRecord], wrestler_ids, fed: Fed) -> dict[str, str]:
    """Each wrestler's ruleset: his sheet's, else the league's row's, else the fed's default
    (the league is asked once, and only when a wrestler has no sheet read)."""
    out = {wid: wrestlers[wid].ruleset for wid in wrestler_ids if wid in wrestlers}
    rest = [wid for wid in wrestler_ids if wid not in wrestlers]
    if rest:
        known = dict(db.execute("SELECT id, ruleset FROM wrestlers").fetchall())
        out.update({wid: known[wid] if wid in known else fed.settings.ruleset for wid in rest})
    return out


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def league_change_rows(effects: dict[str, tuple[dict, str]], before: dict[str, dict]) -> list[dict]:
    """What one match changed in the league, as `fedtool results --json` shows it: per
    wrestler the ruleset named (`league_effects`, in its order), the reason and each state
    key that changed ({"before", "after"}). A wrestler whose changes cancel out keeps his
    row and reason, with no keys changed."""
    rows = []
    for wid, (state, reason) in effects.items():
        old = before.get(wid, {})
        changed = {key: {"before": _plain(old.get(key)), "after": _plain(state.get(key))}
                   for key in sorted(set(old) | set(state)) if old.get(key) != state.get(key)}
        rows.append({"wrestler": wid, "reason": reason, "changes": changed})
    return rows


def _plain(value: Any) -> Any:
    """A league state's value as JSON: push points (a Fraction) as text, "3/2"."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _stored_summary(p: Played) -> dict:
    """The summary the league keeps for a match: the ruleset's, with what the core knows
    of it (docs/results.schema.json): the card's stipulation, format and referee when the
    ruleset gives none, and the league changes the match caused."""
    match = p.booking.match
    card = {"stipulation": match.raw.get("stipulation"), "format": match.raw.get("format"),
            "referee": match.raw.get("referee") or (match.opening or {}).get("referee")}
    summary = {**{k: v for k, v in card.items() if v is not None and isinstance(v, str)}, **p.summary}
    summary["league_changes"] = p.league_changes
    summary["rating"] = p.rating  # docs/ratings.md; None when the fed's ratings are off
    summary["rules_revision"] = p.ruleset.rules_revision  # what `fedtool verify` replays it under
    return summary


def _match_row(week: int, p: Played) -> dict:
    match = p.booking.match
    return {
        "id": f"{week_name(week)}/{match.id}",
        "match": match.id,
        "position": match.position,
        "ruleset": match.ruleset,
        "title": match.title,
        "seed": p.seed,
        "summary": _stored_summary(p),
        "notes": p.booking.notes,
        "sides": match.sides,
        "outcomes": p.outcomes,
        "rounds": p.ruleset.round_rows(p.result),
    }


def _dice_rows(week: int, played: list[Played], close_log: list) -> list[dict]:
    rows = []
    for key, log in [(f"{week_name(week)}/{p.booking.match.id}", p.log) for p in played] + [(CLOSE, close_log)]:
        for seq, (round_no, purpose, faces) in enumerate(log):
            rows.append({"week": week, "match_id": key, "seq": seq, "round": round_no, "purpose": purpose, "faces": " ".join(map(str, faces))})
    return rows


# ---------------------------------------------------------------- corrections


def correction_lines(previous: list[dict] | None, played: list[Played]) -> list[dict]:
    """What a rerun changed against the previous run, match by match (card order, then
    matches no longer on the card): {match, vs, text}. Compared: winner, method and round."""
    if previous is None:
        return []
    before = {row["id"]: row for row in previous}
    lines = []
    for p in played:
        match_id = p.booking.match.id
        new = {"sides": p.summary.get("sides", []), "winner": p.summary.get("winner"), "method": p.summary.get("method"), "round": p.summary.get("round")}
        old = before.pop(match_id, None)
        vs = " vs. ".join(s.get("name", s.get("id")) for s in new["sides"])
        if old is None:
            text = f"new on the card: {result_phrase(new)}"
        elif (old["winner"], old["method"], old["round"]) == (new["winner"], new["method"], new["round"]):
            text = f"no change ({result_phrase(new)})"
        else:
            text = f"was {result_phrase(old)}; now {result_phrase(new)}"
        lines.append({"match": match_id, "vs": vs, "text": text})
    for match_id, old in before.items():
        vs = " vs. ".join(s.get("name", s.get("id")) for s in old["sides"])
        lines.append({"match": match_id, "vs": vs, "text": f"no longer on the card (was {result_phrase(old)})"})
    return lines


# ---------------------------------------------------------------- writing

CORRECTED = "Corrected: "  # the subject prefix of a rerun's mails


METHOD_WORDS = {"pin": "pinfall", "countout": "count-out", "dq": "disqualification", "double_countout": "double count-out",
                "double_dq": "double disqualification", "time_limit": "time-limit draw", "tech_fall": "technical fall", "major": "major decision"}


def _method_words(method: str | None) -> str:
    return METHOD_WORDS.get(method or "", (method or "no result").replace("_", " "))


def _title_name(fed: Fed, row: dict) -> str:
    return next(t.name for t in fed.settings.titles if t.id == row["title_id"])


def _title_rule(fed: Fed, row: dict) -> str:
    """When a title changes hands, in words: the league's rule (records.changes_hands)."""
    title = next(t for t in fed.settings.titles if t.id == row["title_id"])

    def words(methods) -> str:
        return " or a ".join(_method_words(m) for m in methods)

    if title.changes_on is None:
        return f"does not change hands on a {words(NEVER_BY_DEFAULT)}"
    return f"changes hands only on a {words(title.changes_on)}" if title.changes_on else "changes hands on no finish"


def title_outcomes(fed: Fed, rows: list[dict], names: dict[str, str]) -> dict[str, str]:
    """Each title match's outcome in the writeup's words, by match id: won, retained (and
    why, when the challenger won by a finish that does not change hands), or still vacant
    and why (issue 16: the story tells the title's outcome). The finish is not named again:
    the writeup has just told it, in its own words (a cage's escape, recorded as a pin)."""
    out: dict[str, str] = {}
    for row in rows:
        text = title_words(row, _title_name(fed, row), _title_rule(fed, row), names)
        out[row["match_id"].rsplit("/", 1)[-1]] = f"New champion! {text}" if row["result"] == "won" else text
    return out


def show_matches(fed: Fed, played: list[Played], title_rows: list[dict], names: dict[str, str]) -> list[ShowMatch]:
    """What the show's headline needs of each match (fedtool.week.show.headline), in card order."""
    by_match = {row["match_id"].rsplit("/", 1)[-1]: row for row in title_rows}
    out = []
    for p in played:
        named = [names.get(wid, wid) for wid in p.booking.match.sides]  # `outcomes` are in the card's order
        outcomes = list(p.outcomes) if len(p.outcomes) == len(named) else ["draw"] * len(named)
        row = by_match.get(p.booking.match.id)
        title = None
        if row is not None:
            title = {**row, "name": _title_name(fed, row), "holder_name": names.get(row["holder_before"], row["holder_before"]) if row["holder_before"] else None}
        entry = {"file": p.booking.match.id, "headline": p.described["headline"], "rating": p.rating["stars"] if p.rating else None,
                 "billing": p.booking.match.title}
        out.append(ShowMatch(entry, [n for n, o in zip(named, outcomes) if o == "win"], [n for n, o in zip(named, outcomes) if o == "loss"],
                             named, p.summary.get("method"), title))
    return out


def render_card(fed: Fed, card: Card, title: str, played: list[Played], changes: list[str], week_log: str, label: str, writeups: dict | None = None,
                *, date: datetime.datetime | None = None, run: int = 1, corrections: list[dict] | None = None,
                title_changes: list[str] | None = None, titles: dict[str, str] | None = None, week: int | None = None,
                show: list[ShowMatch] | None = None) -> dict[str, str]:
    """Every file the run puts in the outbox, by name: writeups, the card, mails, the dice log.

    `writeups`, if given, is filled with each match's headline, Markdown and HTML fragment, by match id.
    `date` is every mail's Date header. A `run` after the first is a correction: its mails get
    new Message-IDs, subjects starting "Corrected: " and References to the first run's mail;
    `corrections` (from `correction_lines`; None when the previous run is not in the league)
    is what the card and each player's mail say changed. `title_changes`: the lines of the
    titles that changed hands, for the card's show (`card_show`). `titles` is each title
    match's outcome in words, by match id (`title_outcomes`), told at the end of its writeup.
    `week`: the league's week (None for an exhibition), for the site's links (`site_url`).
    `show`: each match's facts for the show's headline (`show_matches`). `changes`: the
    league's changes in plain words, for the card."""
    env = _environment(fed, card)
    files: dict[str, str] = {}
    entries = []
    per_owner: dict[str, list] = {}
    writeup_fragments: dict[str, str] = {}
    for p in played:
        match = p.booking.match
        described = p.described
        log_text = format_log(p.log)
        context = {
            "match": described,
            "match_id": match.id,
            "booking_title": match.title,
            "title_outcome": (titles or {}).get(match.id),
            "notes": p.booking.notes,
            "dice_log": {"count": len(p.log), "text": log_text},
            "rating": p.rating,  # None: not rated (docs/ratings.md)
        }
        md = render(env, f"{p.ruleset.template}.md.j2", **context)
        fragment = render(env, f"{p.ruleset.template}.html.j2", **context)
        files[f"{match.id}.md"] = md
        writeup_fragments[match.id] = fragment
        if writeups is not None:
            writeups[match.id] = {"headline": described["headline"], "markdown": md, "html": fragment}
        files[f"{match.id}.html"] = _page(env, f"{fed.settings.name}: {described['headline']}", fragment)
        entries.append({"file": match.id, "id": match.id, "headline": described["headline"], "title": match.title, "seed": p.seed,
                        "seed_text": p.seed_text, "commitment": commitment(p.seed_text) if p.seed_text else None,
                        "rating": p.rating["stars"] if p.rating else None})
        for wrestler in p.booking.wrestlers:
            per_owner.setdefault(wrestler.owner_email, [wrestler.owner_name, [], []])
            if md not in per_owner[wrestler.owner_email][1]:
                per_owner[wrestler.owner_email][1].append(md)
                per_owner[wrestler.owner_email][2].append(fragment)
    corrected = None
    if run > 1:
        corrected = {"run": run, "week_label": label, "matches": corrections}
    card_context = {"fed_name": fed.settings.name, "card_title": title, "notes": card.notes, "matches": entries, "league_changes": changes,
                    "corrections": corrected, "show": card_show(entries, title_changes or [], show)}
    card_md = render(env, "card.md.j2", **card_context)
    card_body = render(env, "card.html.j2", **card_context)  # the page's body, and the list's mail's (rendered once)
    card_html = _page(env, f"{fed.settings.name}: {title}", card_body)
    files["card.md"] = card_md
    files["card.html"] = card_html
    files["dice.txt"] = week_log
    mail = fed.settings.mail
    prefix = CORRECTED if run > 1 else ""
    owners_matches = {address: [] for address in per_owner}
    for p in played:
        for wrestler in p.booking.wrestlers:
            if p.booking.match.id not in owners_matches[wrestler.owner_email]:
                owners_matches[wrestler.owner_email].append(p.booking.match.id)
    # Each mail's HTML part is the page with its styles inline, its plain-text part that
    # page as readable text (fedtool.fed.mailtext), every link absolute (issue 16). With
    # `site_url:` a writeup's link goes to its match on the site's week page; without it the
    # card mail carries the writeups itself, after the card, and links nowhere.
    site = fed.settings.site_url if week is not None else None
    pages = {}
    if site:
        for p in played:
            where = f"{site}{site_week_page(week)}#match-{p.booking.match.id}"
            pages[f"{p.booking.match.id}.html"] = pages[f"{p.booking.match.id}.md"] = where
    parts: dict[str, tuple[str, str]] = {}  # a page -> its mail's two parts: the players of one match get the same page

    def mail_parts(page: str) -> tuple[str, str]:
        if page not in parts:
            parts[page] = (mail_text(page), mail_html(page))
        return parts[page]

    for address, (owner_name, texts, fragments) in sorted(per_owner.items()):
        _, note_html = _correction_note(run, label, corrections, owners_matches[address])
        page = absolute_links(_page(env, f"{fed.settings.name}: {title}", note_html + Markup("\n").join(Markup(f) for f in fragments)), site, pages)
        files[f"mail/{_mail_name(address)}.eml"] = email_text(
            mail.from_address, owner_name, address, f"{prefix}{fed.settings.name}: {title} results", *mail_parts(page),
            _message_id(fed, label, "results", address, run), mail.reply_to, date=date,
            references=_message_id(fed, label, "results", address) if run > 1 else None)
    if mail.list_address:
        body = Markup(card_body)  # escaped by its template
        if not site and played:  # the writeups themselves, since no link can lead to them
            body += Markup("\n<h2>The matches</h2>\n") + Markup("\n").join(Markup(writeup_fragments[p.booking.match.id]) for p in played)
        page = absolute_links(_page(env, f"{fed.settings.name}: {title}", body), site, pages)
        files["mail/card.eml"] = email_text(mail.from_address, fed.settings.name, mail.list_address, f"{prefix}{fed.settings.name}: {title}", *mail_parts(page),
                                            _message_id(fed, label, "card", mail.list_address, run), mail.reply_to, date=date,
                                            references=_message_id(fed, label, "card", mail.list_address) if run > 1 else None)
    return files


def site_week_page(week: int) -> str:
    """A week's page on the site, relative to its root: `fedtool.site.build.week_page` (the
    site is a layer above the week; tests/test_mail_reads.py holds the two together)."""
    return f"weeks/{week_name(week)}.html"


def _correction_note(run: int, label: str, corrections: list[dict] | None, match_ids: list[str]) -> tuple[str, Markup]:
    """The lines a corrected mail starts with: that it replaces the earlier report, and what
    changed in the player's own matches (Markdown, HTML); nothing for a first run."""
    if run == 1:
        return "", Markup("")
    head = f"**Corrected results.** {label.capitalize()} was run again (run {run}); this replaces the report sent before."
    mine = [c for c in corrections or [] if c["match"] in match_ids]
    # names and results are player text: escaped for Markdown like every writeup's
    md = head + "\n\n" + "".join(f"- {md_escape(c['match'])} ({md_escape(c['vs'])}): {md_escape(c['text'])}\n" for c in mine) + "\n---\n\n"
    items = Markup("").join(Markup("<li>{} ({}): {}</li>").format(c["match"], c["vs"], c["text"]) for c in mine)
    html = Markup("<p><strong>Corrected results.</strong> {}</p>\n").format(head.split("** ", 1)[1])
    if mine:
        html += Markup("<ul>{}</ul>\n").format(items)
    return md, html


def _environment(fed: Fed, card: Card) -> Environment:
    """The fed's templates, with the packaged templates of the card's rulesets."""
    rulesets = {m.ruleset: get_ruleset(m.ruleset, (card.shown, f"match {m.id}")) for m in card.matches}
    env = environment(fed.templates, {rid: ruleset.templates for rid, ruleset in rulesets.items()})
    env.auto_reload = False  # a template does not change during a run: not looked for on disk at each render (as the site's build)
    return env


def _page(env, title: str, body: str) -> str:
    return render(env, "page.html.j2", title=title, body=Markup(body))


def _mail_name(address: str) -> str:
    """A safe file name for a player's mail: never the address itself."""
    return re.sub(r"[^a-z0-9]+", "-", address.lower()).strip("-")[:80] or "player"


def _message_id(fed: Fed, label: object, kind: str, address: str, run: int = 1) -> str:
    """A mail's Message-ID: the same for the same run, new for each rerun (run 2, 3, ...)."""
    parts: tuple = (label, kind, address) if run == 1 else (label, kind, address, f"run {run}")
    digest = derive_seed(fed.settings.secret, "message-id", *parts)
    domain = str(fed.settings.mail.from_address).rsplit("@", 1)[-1]
    return f"<{digest:016x}.{kind}@{domain}>"
