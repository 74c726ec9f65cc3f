"""The `fedtool` command: a thin shell over the library. Each command parses its
arguments, calls one library function and turns domain errors into clear messages."""

from __future__ import annotations

import gc

# A command is a short process that makes many objects and few cycles. Python's collector
# runs every 700 new objects by default and walks everything the imports made, again and
# again: about 10 ms of `fedtool run 1`'s 0.28 s (issue 18), for some 650 objects freed.
# Here it runs after every 100,000 instead (mypy's command line does the same, for the same
# reason): cycles are still collected, later, and a long command's memory stays bounded.
# `fedtool site` also keeps it off what was there before the build (site.build's `gc.freeze`).
GC_THRESHOLD = (100_000, 10, 10)
gc.set_threshold(*GC_THRESHOLD)

import functools
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import __version__
from fedtool.kernel.errors import FedError, Problem, disk_error

if TYPE_CHECKING:  # a command imports what it needs when it runs: `fedtool --help` imports click alone (issue 18)
    from fedtool.fed.settings import Fed

# The three kinds of path the commands take, each one type shared by every option and argument
# of its kind (a click type holds no state of its option's): click names a path type when it is
# made, through gettext, which looks for a message catalogue on disk each time; a type for each
# of some seventy options was a third of this module's import (issue 18).
FOLDER = click.Path(file_okay=False, path_type=Path)
FOLDER_THAT_EXISTS = click.Path(file_okay=False, exists=True, path_type=Path)
FILE_THAT_EXISTS = click.Path(dir_okay=False, exists=True, path_type=Path)

FED_HELP = "The federation's folder (holding rosters/, strategies/, templates/, outbox/); default: FEDTOOL_FED, else the current folder."


LOCK_WAIT = 10.0  # seconds a writing command waits for another to finish


def fed_option(command=None, *, writes: bool = False, wait: float | None = None, atomic: str | None = None):
    """--fed DIR, shared by every command that works on a federation. It may also come
    before the command (`fedtool --fed DIR titles`); after it, it wins. A command that
    `writes` holds the fed's lock while it runs (fedtool.fed.lock), waiting `wait`
    seconds for another to finish (default LOCK_WAIT), and first settles what a killed
    command left in the outbox (fedtool.week.run.settle_outbox).

    What SQLite or the disk refuses while the command runs (a read-only or damaged league,
    a full disk, a folder that cannot be written) ends in one message naming the file and
    what to do (fedtool.league.db.league_error, fedtool.kernel.errors.disk_error), never a
    traceback. `atomic` is a sentence a command whose league work is one transaction adds to
    SQLite's refusals (a refused commit changed nothing: the run's outbox is swapped in only
    after its commit); a file the disk refused says only what is sure."""
    if command is None:
        return functools.partial(fed_option, writes=writes, wait=wait, atomic=atomic)

    @click.option("--fed", "fed_dir", type=FOLDER, default=None, help=FED_HELP)
    @functools.wraps(command)
    def wrapper(*args, fed_dir: Path | None, **kwargs):
        from fedtool.league.sheets import load_fed

        context = click.get_current_context().parent
        while fed_dir is None and context is not None:  # `--fed` given to a group: `fedtool season --fed DIR list`, `fedtool --fed DIR ...`
            fed_dir, context = context.params.get("fed_dir"), context.parent
        fed = load_fed(fed_dir or Path("."))
        try:
            if not writes:
                return command(*args, fed=fed, **kwargs)
            from fedtool.fed.lock import fed_lock  # filelock: only a command that writes holds the lock

            with fed_lock(fed, LOCK_WAIT if wait is None else wait):
                from fedtool.week.run import settle_outbox

                settle_outbox(fed)  # what a killed command left: the outbox follows the league
                from fedtool.roster.settle import settle_roster

                settle_roster(fed)  # and the roster's sheets too (a killed retire, return, respec or import)
                return command(*args, fed=fed, **kwargs)
        except OSError as exc:
            error = disk_error(exc)
            if error is None:
                raise
            raise error from None
        except Exception as exc:
            if not _sqlite_error(exc):
                raise
            from fedtool.league.db import league_error

            raise _with_note(league_error(fed.database, exc), atomic) from None

    return wrapper


def _sqlite_error(exc: BaseException) -> bool:
    """Whether `exc` is SQLite's (sqlite3.Error), without importing sqlite3: a process that
    never imported it cannot have raised one (`fedtool --help` imports click alone)."""
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and isinstance(exc, sqlite3.Error)


def _with_note(error: FedError, note: str | None) -> FedError:
    if not note:
        return error
    last = error.problems[-1]
    return FedError([*error.problems[:-1], Problem(last.file, last.place, f"{last.message}. {note}", last.rule)])


RUN_IS_ATOMIC = "The run is one transaction: the league and the outbox are as they were before it"


def dice_option(command):
    return click.option(
        "--dice",
        "dice_file",
        type=FILE_THAT_EXISTS,
        help="Use scripted dice from FILE (whole numbers separated by white space; # starts a comment) instead of the fed's seeded dice.",
    )(command)


class FedGroup(click.Group):
    """Turns FedError into a message on stderr and exit status 1, never a traceback; so too,
    as a last resort, what the disk or SQLite refuses (a full disk, a read-only file) in a
    command that reached neither through `fed_option`."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except FedError as exc:
            self.fail(ctx, exc)
        except OSError as exc:
            error = disk_error(exc)
            if error is None:
                raise
            self.fail(ctx, error)
        except Exception as exc:
            if not _sqlite_error(exc):
                raise
            self.fail(ctx, FedError(Problem(None, None, f"SQLite refused a change ({exc}); nothing half-written is left in a database", "the league database")))

    @staticmethod
    def fail(ctx, exc: FedError):
        lines = list(dict.fromkeys(str(p) for p in exc.problems))  # one problem found twice (a sheet read for a team too) is said once
        click.echo(click.style("error: ", fg="red", bold=True) + "\nerror: ".join(lines), err=True)
        ctx.exit(1)


def group_fed_option(group):
    """`--fed DIR` on a group of commands too, so it may stand anywhere before the command's
    own options (the commands read it from their group, `fed_option`)."""
    return click.option("--fed", "fed_dir", type=FOLDER, default=None, help=FED_HELP)(group)


def _show_version(ctx: click.Context, _param, value: bool) -> None:
    """`fedtool --version`: the version, and which modules run compiled (setup.py's COMPILED)."""
    if not value or ctx.resilient_parsing:
        return
    from . import compiled_modules

    names = compiled_modules()
    click.echo(f"fedtool, version {__version__}")
    click.echo(f"compiled: {', '.join(names)}" if names else "compiled: nothing (pure Python)")
    ctx.exit()


@click.group(cls=FedGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version, help="Show the version and the compiled modules, and exit.")
@click.option("--fed", "fed_dir", type=FOLDER, envvar="FEDTOOL_FED", help=FED_HELP)
def cli(fed_dir: Path | None):
    """fedtool: the fedhead's processor for play-by-mail pro-wrestling leagues.

    Reads rosters and strategies, rolls every match with auditable dice, keeps the
    league in SQLite and writes round-by-round writeups and mails to outbox/.

    \b
    A week:  fedtool open 1   (roll grids, announce)
             fedtool run 1    (resolve, record, write up)
    Another fed:  fedtool --fed ~/feds/dcw standings
    """
    # pydantic looks for plugins among every installed package's entry points when it builds
    # its first validator (a scan of site-packages in every command, issue 18); fedtool uses
    # none. PYDANTIC_DISABLE_PLUGINS set (empty: every plugin) is left as it is.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _skip_plugin_loader()


def _skip_plugin_loader() -> None:
    """With every pydantic plugin disabled, pydantic's plugin loader (`get_plugins`) answers
    none without looking; but importing it imports importlib.metadata (and the email
    package's parser with it: a tenth of `fedtool standings`, issue 18). So, while plugins
    are disabled and the loader not yet imported, a module that answers as it answers then
    (no plugins, none loaded) stands in its place. tests/test_startup.py checks the two agree."""
    name = "pydantic.plugin._loader"
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in ("__all__", "1", "true") and name not in sys.modules:
        import types

        loader = types.ModuleType(name, "pydantic's plugin loader while every plugin is disabled (fedtool.cli)")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        loader._plugins = None  # type: ignore[attr-defined]
        loader._loading_plugins = False  # type: ignore[attr-defined]
        sys.modules[name] = loader


@cli.command()
@click.argument("directory", type=FOLDER)
@click.option("--name", default="My Federation", show_default=True, help="The fed's name.")
def init(directory: Path, name: str):
    """Create a new, empty fed in DIRECTORY with the standard layout.

    \b
    Example:
      fedtool init my-fed --name "Delta Championship Wrestling"
    """
    from fedtool.fed.skeleton import create_fed

    create_fed(directory, name)
    click.echo(f"Created {name} in {directory}: add wrestlers to {directory}/rosters/ and a card to {directory}/strategies/week-01/card.yaml")


@cli.command(name="open")
@click.argument("week", type=click.IntRange(0, 9999))
@dice_option
@click.option("--reroll", is_flag=True, help="Roll again for a week already opened.")
@fed_option(writes=True)
def open_(fed: Fed, week: int, dice_file: Path | None, reroll: bool):
    """Open WEEK: roll each match's grid and write the announcements.

    Grids go to strategies/week-NN/opening.yaml (the run reads them there) and an
    announcement per match and side goes to outbox/week-NN/announcements/.

    \b
    Example:
      fedtool open 2
    """
    from fedtool.week.run import open_week

    report = open_week(fed, week, dice_file, reroll)
    for line in report.headlines:
        click.echo(f"opened {line}")
    for line in report.warnings:
        click.echo(click.style("warning: ", fg="yellow") + line, err=True)
    click.echo(f"announcements in {fed.shown(report.outbox)}")


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@dice_option
@click.option("--rerun", is_flag=True, help="Undo the week's recorded results and run it again (same seeds, same results).")
@fed_option(writes=True, atomic=RUN_IS_ATOMIC)
def run(fed: Fed, week: int, dice_file: Path | None, rerun: bool):
    """Run WEEK's card: resolve every match, update the league, write the outbox.

    All of it lands or none of it does. Writeups (Markdown and HTML), the card,
    one .eml per player and the week's dice log go to outbox/week-NN/. The league is
    snapshotted first (`fedtool restore` lists the snapshots). A rerun's mails are
    corrections: new Message-IDs, subjects starting "Corrected:", and a card saying
    what changed; `fedtool send` delivers them.

    \b
    Example:
      fedtool run 1
      fedtool run 1 --rerun
      fedtool run 1 --rerun --dice outbox/week-01/dice.txt
    """
    from fedtool.week.run import run_week

    report = run_week(fed, week, dice_file, rerun)
    _print_report(fed, report)


@cli.command()
@click.argument("folder", type=FOLDER_THAT_EXISTS)
@dice_option
@fed_option(writes=True)
def play(fed: Fed, folder: Path, dice_file: Path | None):
    """Play the card in FOLDER as an exhibition: writeups only, the league untouched.

    Everything goes to outbox/exhibitions/<folder>/ (never a week's results), which
    `fedtool send` never sends.

    \b
    Example (the rulebook's Part VI match):
      fedtool play strategies/example-part-vi --dice strategies/example-part-vi/dice.txt
    """
    from fedtool.week.run import play_card

    report = play_card(fed, folder, dice_file)
    _print_report(fed, report)


@cli.command(name="read")
@click.argument("file", type=FILE_THAT_EXISTS)
@click.option("--week", type=click.IntRange(0, 9999), help="Check FILE against this week's card (for a file outside strategies/week-NN/): "
              "as the strategy of the wrestler it is named after (brother-bob.yaml).")
@fed_option
def read_(fed: Fed, file: Path, week: int | None):
    """Show how a strategy file is read, line by line, and whether it stands for its match.

    For a plain-text strategy (the rulebook's Round/Target/Type/Notes layout) every line
    is shown with what fedtool made of it; then the strategy is checked against the
    wrestler's sheet and the match on the card, as the run will check it.

    \b
    Example:
      fedtool read strategies/week-02/silent-crane.txt
      fedtool read strategies/week-01/relampago.yaml --week 2
    """
    from fedtool.week.status import read_check

    check = read_check(fed, file, week)
    click.echo(f"{check.file}: {check.layout}")
    for reading in check.readings:
        click.echo(f"  line {reading.line:>3}: {reading.reading}" if reading.line else f"  {'':8}  {reading.reading}")  # 0: the file as a whole
    for problem in check.problems:
        click.echo(click.style("error: ", fg="red", bold=True) + str(problem), err=True)
    # the strategy is not at fault (it stands, exit 0), but the match cannot be played as the fed's files stand
    for problem in check.blocked:
        click.echo(click.style("warning: ", fg="yellow") + f"the match cannot be played until the fedhead mends this: {problem}", err=True)
    if check.problems:
        raise SystemExit(1)
    if check.match:
        note = "" if check.complete else " (as far as it can be checked before the other side's strategy is in)"
        click.echo(f"stands for match {check.match}{note}")


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/results.schema.json): each match's id, ruleset, sides, winner, method, round, "
              "match type, stipulation, format, referee, the title at stake and whether it changed hands, the league changes it caused, "
              "and the ruleset's details (MatchMatch: grid, style table, picks; Face to the Mat: FACs, HOT BOX; Mat Clash: each scrap's score).")
@fed_option
def results(fed: Fed, week: int, as_json: bool):
    """Show the results of a week that has been run.

    \b
    Example:
      fedtool results 1 --json
    """
    from fedtool.league.db import read_league, result_phrase, week_results

    rows = week_results(read_league(fed.database), week, {t.id: t.name for t in fed.settings.titles})
    if as_json:
        click.echo(_json_dumps(rows, indent=2, ensure_ascii=False))
        return
    for row in rows:
        names = {s.get("id"): s.get("name", s.get("id")) for s in row["sides"]}
        vs = " vs. ".join(map(str, names.values())) or "(no sides recorded)"
        click.echo(f"{row['id']}: {vs}: {result_phrase(row)}")


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@click.option("--match", "match_id", metavar="MATCH", help="Only this match of the card (its id, e.g. m2).")
@click.option("--published", type=FOLDER_THAT_EXISTS,
              help="Read the revealed seeds and dice logs from a folder of the week's published results (its card.md and dice.txt) instead of the league: for a player with a copy of the fed's rosters and strategies.")
@fed_option
def verify(fed: Fed, week: int, match_id: str | None, published: Path | None):
    """Check a run week's dice: replay each match from its revealed seed and compare.

    Each match's seed text must hash (SHA-256) to the commitment published when the
    week opened (strategies/week-NN/opening.yaml); the match, booked from the same card,
    strategies and league states and played on that seed, must roll exactly the stored
    dice log (the league's and outbox/week-NN/dice.txt) and end as recorded. Exits 1
    when any match is not verified. Nothing is written; the fed's secret is not used.

    \b
    Example:
      fedtool verify 1
      fedtool verify 1 --match m3
      fedtool verify 1 --published ~/dcw-results/week-01
    """
    from fedtool.week.verify import verify_week

    report = verify_week(fed, week, match_id, published)
    click.echo(f"week {week}: checked against {report.source}")
    for check in report.checks:
        click.echo(f"{check.match}: {check.status}" + (f" ({check.rolls} roll{'' if check.rolls == 1 else 's'}; {check.result})" if check.rolls else ""))
        if check.seed_text:
            click.echo(f"  seed text `{check.seed_text}`, SHA-256 {check.commitment}")
        for line in check.problems:
            click.echo(f"  {line}")
        for line in check.notes:
            click.echo(f"  note: {line}")
    bad = [c.match for c in report.checks if c.status != "verified"]
    if bad:
        click.echo(click.style("error: ", fg="red", bold=True) + f"week {week}: {len(bad)} of {len(report.checks)} matches not verified ({', '.join(bad)})", err=True)
        raise SystemExit(1)
    click.echo(f"week {week}: {len(report.checks)} of {len(report.checks)} matches verified")


@cli.command()
@click.option("--match", "match_ref", metavar="WEEK/MATCH", help="A match on a week's card, e.g. 1/m1 (sheets, strategies, grid and league as the run reads them).")
@click.option("--sheet", "sheets", multiple=True, type=FILE_THAT_EXISTS, help="A roster sheet (give two, side 1 first).")
@click.option("--strategy", "strategies", multiple=True, type=FILE_THAT_EXISTS, help="A strategy (give two, in side order).")
@click.option("--grid", help='With --sheet: the grid, rows 1-3 separated by "/", e.g. "Po Te Br/We MA HF/Br MA Ch". Without it every match rolls its own grid.')
@click.option("--rounds", type=click.IntRange(1, 200), help="With --sheet: the match's rounds (default: the fed's).")
@click.option("-n", "--matches", default=10000, show_default=True, type=click.IntRange(1, 10_000_000), help="How many matches to play.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="The first seed, 0 to 2^64 - 1 (default: fresh ones), to repeat a run exactly.")  # fedtool.week.odds.MAX_SEED
@click.option("--workers", type=click.IntRange(1, 256), help="Processes to use (default: as many as pay, up to one per idle core).")
@click.option("--json", "as_json", is_flag=True, help="Print the shares as JSON.")
@fed_option
def odds(fed: Fed, match_ref, sheets, strategies, grid, rounds, matches, seed, workers, as_json):
    """Play one match many times and print the odds of each result (any ruleset, any match type).

    Each side's wins (a team as one side), draws and each finish, with 95% intervals,
    from the very engine the weekly run uses. Without --workers, other processes are
    started only when they pay (many matches, idle cores).

    \b
    Example:
      fedtool odds --match 1/m1 -n 100000
      fedtool odds --sheet rosters/brother-bob.yaml --sheet rosters/friendly-sam.yaml \\
          --strategy strategies/example-part-vi/brother-bob.yaml \\
          --strategy strategies/example-part-vi/friendly-sam.yaml --rounds 7 \\
          --grid "Po Te Br/We MA HF/Br MA Ch"
    """
    from fedtool.week.odds import exhibition, match_booking, simulate

    if match_ref:
        week, _, match_id = match_ref.partition("/")
        if not re.fullmatch(r"[0-9]{1,4}", week) or not match_id:  # ASCII digits only: "²".isdigit() holds, int("²") fails
            raise click.BadParameter("write WEEK/MATCH, e.g. 1/m1", param_hint="--match")
        booking = match_booking(fed, int(week), match_id)
    elif len(sheets) == 2 and len(strategies) == 2:
        booking = exhibition(fed, sheets, strategies, {"grid": grid, "rounds": rounds})
    else:
        raise click.UsageError("give --match WEEK/MATCH, or two --sheet and two --strategy")
    if as_json or matches < 20000:
        report = simulate(booking, matches, seed, workers)
    else:
        with click.progressbar(length=matches, label="playing", file=sys.stderr) as bar:
            report = simulate(booking, matches, seed, workers, progress=bar.update)
    if as_json:
        click.echo(_json_dumps(report.as_json(), indent=2, ensure_ascii=False))
        return
    grid = f"; grid {report.grid}" if report.grid else ""
    click.echo(f"{report.matches:,} matches, {' vs. '.join(report.names)}{grid}; seeds from {report.seed}; {report.mean_rounds:.1f} {report.unit} on average")
    width = max([34, *(len(s.label) for s in (*report.outcomes, *report.finishes))])  # a long name widens the column, never shifts a row
    for title, shares in (("result", report.outcomes), ("finish", report.finishes)):
        click.echo(f"\n{title:<{width}} {'share':>7}  95% interval")
        for s in shares:
            click.echo(f"{s.label:<{width}} {s.share:>7.1%}  {s.low:.1%} - {s.high:.1%}")


@cli.command()
@click.argument("source")
@fed_option(writes=True, wait=0)
def inbox(fed: Fed, source: str):
    """Read strategies from a mailbox: a Maildir, an mbox file, a folder of .eml files, or an
    IMAP mailbox written imaps://USER@HOST[:PORT]/MAILBOX (password in FEDTOOL_IMAP_PASSWORD;
    unseen mails are read and flagged seen). The server's TLS certificate is always checked:
    for a server with its own (self-signed) certificate, set FEDTOOL_IMAP_CAFILE to that
    certificate or its CA's, as a PEM file.

    Each mail from a wrestler's registered owner, with the week and the wrestler in its
    subject, is checked in full; a strategy that stands is filed under strategies/week-NN/
    (late mail is refused, or held with `mail: late_mail: hold`); every order mail gets an
    answer queued in outbox/replies/ (fedtool send delivers it). Quoted text below a reply
    is not read. A mail that reaches no wrestler is answered with the help text; a subject
    `help`, `status week N` or `resend week N` is a mail command, answered at once. A mail
    that makes fedtool fail is answered with an apology and kept in strategies/quarantine/
    (`fedtool status` lists it). If another fedtool command holds the fed's lock (a tick
    reading the same mailbox), this does nothing and says so.

    \b
    Example:
      fedtool inbox ~/Maildir/fed
      FEDTOOL_IMAP_PASSWORD=... fedtool inbox imaps://fedhead@mail.dcw.example/Strategies
      FEDTOOL_IMAP_CAFILE=/etc/ssl/mail.pem FEDTOOL_IMAP_PASSWORD=... fedtool inbox imaps://fed@mail.home:993/INBOX
    """
    from fedtool.kernel.words import counted
    from fedtool.mail.intake import intake
    from fedtool.week.status import one_line

    report = intake(fed, source)
    for o in report.outcomes:
        click.echo(f"{o.verdict:<9} {one_line(o.sender):<32} {one_line(o.why, 200) if o.why else ''}")
    held = f", {report.count('held')} held" if report.count("held") else ""
    held += f", {counted(report.count('command'), 'mail command')}" if report.count("command") else ""
    held += f", {report.count('quarantined')} quarantined" if report.count("quarantined") else ""
    click.echo(f"{report.count('accepted')} accepted, {report.count('refused')} refused{held}, {report.count('ignored')} ignored, "
               f"{report.count('duplicate')} read before; {counted(len(report.replies), 'answer')} queued")


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@click.argument("wrestler")
@fed_option(writes=True)
def accept(fed: Fed, week: int, wrestler: str):
    """File a late strategy held for you (`mail: late_mail: hold`) as WRESTLER's strategy for WEEK.

    It is checked again first; `fedtool status WEEK` lists what is held.

    \b
    Example:
      fedtool accept 2 brother-bob
    """
    from fedtool.mail.intake import accept_held

    click.echo(f"filed {fed.shown(accept_held(fed, week, wrestler))}")


@cli.command()
@click.argument("email", required=False)
@click.argument("start", metavar="[FROM]", required=False)
@click.argument("end", metavar="[TO]", required=False)
@click.option("--clear", is_flag=True, help="Forget EMAIL's span: he is back.")
@fed_option(writes=True)
def away(fed: Fed, email: str | None, start: str | None, end: str | None, clear: bool):
    """Mark the player at EMAIL away from FROM to TO (days, YYYY-MM-DD, both included, in the fed's zone).

    While a week's deadline (or its run, for a card with none) falls inside the span,
    reminders skip him and his sides with no standing strategy play the ruleset's default,
    quietly (the writeup says he is away), even where `missing_strategy` is refuse. A new
    span replaces the old; `--clear` forgets it; with no EMAIL, lists who is away.

    \b
    Example:
      fedtool away bob@players.example 2026-12-20 2027-01-03
      fedtool away bob@players.example --clear
      fedtool away
    """
    from fedtool.league.away import away_list, clear_away, set_away
    from fedtool.league.db import read_league

    if email is None:
        if start is not None or clear:
            raise click.UsageError("give EMAIL")
        rows = away_list(read_league(fed.database))
        for row in rows:
            click.echo(f"{row['email']} ({row['name']}): away {row['from_day']} to {row['to_day']}")
        click.echo(f"{len(rows)} player{'' if len(rows) == 1 else 's'} marked away")
        return
    if clear:
        if start is not None:
            raise click.UsageError("--clear takes EMAIL only")
        found = clear_away(fed, email)
        click.echo(f"{email.strip().lower()}: " + ("back, no longer away" if found else "was not marked away"))
        return
    if start is None or end is None:
        raise click.UsageError("give EMAIL FROM TO (days, YYYY-MM-DD), or EMAIL --clear")
    row = set_away(fed, email, start, end)
    click.echo(f"{row['email']} ({row['name']}): away {row['from_day']} to {row['to_day']}")


@cli.command()
@click.argument("email")
@click.password_option(help="The player's password (asked for, twice, when not given).")
@fed_option(writes=True)
def password(fed: Fed, email: str, password: str):
    """Set the strategy-mail password of the player at EMAIL (for `mail: passwords: true`).

    Only a salted hash is kept, in the league database; strategy mails must then carry
    a line `Password: ...`, which is never filed and is blanked in every answer.

    \b
    Example:
      fedtool password bob@players.example
    """
    from fedtool.mail.passwords import set_password

    set_password(fed, email, password)
    click.echo(f"password set for {email.strip().lower()}")


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@fed_option(writes=True)
def remind(fed: Fed, week: int):
    """Queue a reminder for each player with a side on WEEK's card that has no valid strategy yet.

    Each names the match, the deadline and how to submit; `fedtool send` delivers it,
    once per player and week.

    \b
    Example:
      fedtool remind 3 && fedtool send 3
    """
    from fedtool.kernel.words import counted
    from fedtool.mail.outgoing import queue_reminders

    report = queue_reminders(fed, week)
    for line in report.queued:
        click.echo(f"reminder for {line}")
    for address in report.reminded_before:
        click.echo(f"reminded before: {address}")
    click.echo(f"{counted(len(report.queued), 'reminder')} queued" + (f" in {fed.shown(report.folder)}" if report.queued else ""))


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON: match, wrestler, file, arrived, verdict, problems.")
@fed_option
def status(fed: Fed, week: int | None, as_json: bool):
    """Show, per match and side, which strategies arrived, when, and whether they stand.

    Below the sides: the mails for WEEK that reached none of them (a subject naming no
    wrestler of the card, mail commands), then a line counting the mails that named no
    week, with their senders and subjects. Without WEEK: the week in play (the first with
    a card after the last week run).

    \b
    Example:
      fedtool status 2
      fedtool status
    """
    from fedtool.kernel.words import counted
    from fedtool.week.booking import week_in_play
    from fedtool.week.status import deadline_line, player_status, quarantined_mails, stray_mails, week_status

    if week is None:
        week = week_in_play(fed)
    rows = week_status(fed, week) if week is not None else []
    stray = stray_mails(fed, week) if week is not None else []
    no_week = stray_mails(fed, None)
    quarantined = quarantined_mails(fed)
    if as_json:
        if week is None:
            click.echo(_json_dumps({"week": None, "no_week": [m.__dict__ for m in no_week], "quarantined": [m.__dict__ for m in quarantined]},
                                  indent=2, ensure_ascii=False))
        else:
            click.echo(_json_dumps([{**r.__dict__, "problems": [str(p) for p in r.problems]} for r in rows], indent=2, ensure_ascii=False))
        return
    heading = deadline_line(fed, week) if week is not None else None
    if heading:
        click.echo(heading)
    for r in rows:
        when = f" ({r.arrived})" if r.arrived else ""
        click.echo(f"{r.match:<6} {r.wrestler:<32} {r.verdict:<10} {r.file or ''}{when}")
        for problem in r.problems:
            click.echo(f"{'':<6} {'':<32} {str(problem)}")
        for line in r.mails:
            click.echo(f"{'':<6} {'':<32} mail {line}")
        if r.held:
            click.echo(f"{'':<6} {'':<32} held (late): {r.held}; `fedtool accept {week} {r.wrestler_id}` files it")
    for m in stray:
        click.echo(f"{'-':<6} {'(no side)':<32} mail {m.arrived} {m.verdict} from {m.sender}: {m.why}" + (f" [subject: {m.subject}]" if m.subject else ""))
    if week is None:
        click.echo("no week is in play: no week after the last one run has a card")
    else:
        for p in player_status(fed, week, rows):  # each player's record of strategies through WEEK
            click.echo(f"player {p.name} <{p.email}>: {p.on_time} on time, {p.late} late, {p.missing} missing, {p.away_weeks} away"
                       + (f"; away {p.away}" if p.away else ""))
        missing = [r for r in rows if r.verdict in ("missing", "refused")]
        click.echo(f"{len(rows) - len(missing)} of {len(rows)} sides ready" + (f"; waiting on {', '.join(r.wrestler for r in missing)}" if missing else ""))
    if quarantined:
        click.echo(f"{counted(len(quarantined), 'mail')} quarantined (they made fedtool fail; each was answered with an apology and is listed here until you delete its file):")
        for m in quarantined:
            click.echo(f"  {m.file}: {m.arrived} from {m.sender}: {m.why}" + (f" [subject: {m.subject}]" if m.subject else ""))
    if no_week or week is None:
        shown = "; ".join(f"{m.sender}: {m.subject!r}" for m in no_week[-5:])
        more = f"{len(no_week) - 5} more, then " if len(no_week) > 5 else ""
        click.echo(f"{counted(len(no_week), 'mail')} named no week" + (f" ({more}{shown})" if no_week else ""))


@cli.command()
@click.option("--dry-run", is_flag=True, help="Say what is due; do nothing.")
@click.option("--force", is_flag=True, help="Act even though the clock went back or the last tick is long ago (after you have checked).")
@fed_option(writes=True, wait=0)
def tick(fed: Fed, dry_run: bool, force: bool):
    """Do what is due, and nothing twice: the one command to put in cron.

    Reads the fed's mailbox (`mail: inbox:`), files and answers strategies; queues
    reminders before the open week's deadline (`mail: remind: [48h, 6h]`); runs the week
    at its deadline (or, with `schedule: run_early: true`, once every strategy stands);
    sends everything queued (`mail: smtp:`). If another fedtool command holds the fed's
    lock, this tick does nothing and says so.

    \b
    Example (crontab: every 15 minutes):
      */15 * * * *  cd /srv/feds/dcw && fedtool tick
      fedtool tick --dry-run
    """
    from fedtool.mail.cycle import tick as do_tick

    report = do_tick(fed, dry_run=dry_run, force=force)
    for line in report.done or (["nothing due"] if dry_run else []):  # quiet when nothing happened: cron mails what it prints
        click.echo(line)
    for line in report.problems:
        click.echo(click.style("error: ", fg="red", bold=True) + line, err=True)
    if report.problems:
        raise SystemExit(1)


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999), required=False)
@click.option("--dry-run", is_flag=True, help="List what would be sent; send nothing.")
@fed_option(writes=True)
def send(fed: Fed, week: int | None, dry_run: bool):
    """Deliver the outbox's mails over SMTP: each once, failures kept for next time.

    The server is `mail: smtp:` in rosters/fed.yaml (host, port, security, user); the
    password is read from FEDTOOL_SMTP_PASSWORD. Without WEEK, every week's mail.

    \b
    Example:
      fedtool send 1 --dry-run
      FEDTOOL_SMTP_PASSWORD=... fedtool send 1
    """
    from fedtool.mail.outgoing import send_outbox

    report = send_outbox(fed, week, dry_run)
    if report.nothing:
        click.echo(report.nothing)
        return
    for line in report.sent:
        click.echo(("would send " if dry_run else "sent ") + line)
    for line in report.failed:
        click.echo(click.style("not sent: ", fg="yellow") + line, err=True)
    for line in report.stale:
        click.echo(f"dropped a stale reminder (the strategies stand now, or the week has run): {line}")
    for line in report.uncertain:
        click.echo(click.style("warning: ", fg="yellow") + f"fedtool was stopped while sending this mail; it is not sent again (`fedtool resend` if it never arrived): {line}", err=True)
    for line in report.other_run:
        click.echo(click.style("not sent: ", fg="yellow") + f"results of a run the league no longer holds (a restore): run the week again to write its outbox: {line}", err=True)
    for line in report.unjudged:
        click.echo(click.style("not sent: ", fg="yellow") + f"an answer to a mail whose verdict was never recorded (an intake was stopped): the next `fedtool inbox` or `tick` judges the mail again: {line}", err=True)
    if report.reserved:
        addresses = ", ".join(sorted({line.split(": ", 1)[1] for line in report.reserved}))
        click.echo(click.style("warning: ", fg="yellow") + f"{len(report.reserved)} sent to reserved domains (.test, .example, .invalid, .local, localhost), "
                   f"which no public mail server delivers to: {addresses}", err=True)
    click.echo(f"{len(report.sent)} {'to send' if dry_run else 'sent'}, {report.already} sent before, {len(report.failed)} kept for next time")
    if report.failed:
        raise SystemExit(1)


@cli.command()
@click.argument("week", type=click.IntRange(0, 9999))
@click.option("--to", "to", metavar="EMAIL", help="Only the mail to this address (a player's, or the list's for the card).")
@fed_option(writes=True)
def resend(fed: Fed, week: int, to: str | None):
    """Send WEEK's results mails again on purpose: every player's and the card, or one.

    Queues a fresh copy of each (new Message-ID, References to the original, subject
    starting "Resent:") in outbox/resent/week-NN/mail/; `fedtool send` delivers it.

    \b
    Example:
      fedtool resend 1 --to bob@players.example && fedtool send 1
    """
    from fedtool.kernel.words import counted
    from fedtool.mail.outgoing import resend_week

    report = resend_week(fed, week, to)
    for line in report.queued:
        click.echo(f"queued {line}")
    click.echo(f"{counted(len(report.queued), 'copy', 'copies')} queued; `fedtool send {week}` delivers them")


@cli.command()
@click.argument("name", required=False)
@fed_option(writes=True)
def restore(fed: Fed, name: str | None):
    """List the league's snapshots, or restore the one named NAME.

    A snapshot is taken before every run and rerun, in the fed's backups folder
    (`backups: {folder: backups, keep: 10}` in rosters/fed.yaml). Restoring replaces
    fed.db whole; the league as it was is snapshotted first. The mails already sent or
    read and the count of each week's runs are kept, and the outbox is left as it is.

    \b
    Example:
      fedtool restore
      fedtool restore 20261123T192834Z-before-week-01-run-2.db
    """
    from fedtool.league.backup import list_snapshots, restore as restore_snapshot

    if name is None:
        snapshots = list_snapshots(fed)
        for s in snapshots:
            click.echo(f"{s.name}  {s.league}")
        click.echo(f"{len(snapshots)} snapshots in {fed.shown(fed.backups)}" + ("; `fedtool restore NAME` restores one" if snapshots else ""))
        return
    done = restore_snapshot(fed, name)
    click.echo(f"restored {done.snapshot.name}: the league is back to {done.snapshot.league}")
    if done.kept_as is not None:
        click.echo(f"the league as it was is kept as {done.kept_as.name}")
    click.echo("the outbox is unchanged: rerun the week to write it again from the restored league")


@cli.command()
@click.option("--ruleset", help="Only this ruleset's tables (matchmatch, matclash, facemat).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: per ruleset and division, the rows and the number-one contenders.")
@fed_option
def standings(fed: Fed, ruleset: str | None, as_json: bool):
    """Show the standings per ruleset and division: record, streak, push level and
    points, TV grade, Mat Clash points, injuries, and the number-one contenders.

    \b
    Example:
      fedtool standings
      fedtool standings --ruleset matchmatch --json
    """
    from fedtool.league.db import read_league
    from fedtool.league.records import standings as league_standings
    from fedtool.league.tables import format_standings

    tables = league_standings(fed, read_league(fed.database), ruleset)
    click.echo(_json_dumps(tables, indent=2, ensure_ascii=False) if as_json else format_standings(tables))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON: each title, its holder and its reigns.")
@fed_option
def titles(fed: Fed, as_json: bool):
    """Show the fed's titles: who holds each, since when, and the lineage of reigns
    with their defences and length in weeks.

    \b
    Example:
      fedtool titles
      fedtool titles --json
    """
    from fedtool.league.db import read_league
    from fedtool.league.records import titles as league_titles
    from fedtool.league.tables import format_titles

    rows = league_titles(fed, read_league(fed.database))
    click.echo(_json_dumps(rows, indent=2, ensure_ascii=False) if as_json else format_titles(rows))


@cli.command()
@click.argument("wrestler")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: record, matches, league states and title reigns.")
@fed_option
def history(fed: Fed, wrestler: str, as_json: bool):
    """Show a wrestler's (or team's) history: record, every match, how the push level or
    TV grade moved, and title reigns. WRESTLER is the id (the roster file's name).

    \b
    Example:
      fedtool history silent-crane
      fedtool history silent-crane --json
    """
    from fedtool.league.db import read_league
    from fedtool.league.records import history as league_history
    from fedtool.league.tables import format_history

    record = league_history(fed, read_league(fed.database), wrestler)
    click.echo(_json_dumps(record, indent=2, ensure_ascii=False) if as_json else format_history(record))


@cli.group(cls=FedGroup)
@group_fed_option
def title(fed_dir: Path | None):
    """Vacate or award a title by the fedhead's ruling, effective after the latest run week.

    \b
    Example:
      fedtool title vacate world --reason "Vane is injured for a month"
      fedtool title award world brother-bob --reason "Vane no-showed"
    """


@title.command()
@click.argument("title_id", metavar="TITLE")
@click.option("--reason", default="", help="Why: kept in the lineage.")
@fed_option(writes=True)
def vacate(fed: Fed, title_id: str, reason: str):
    """Vacate TITLE (its id in rosters/fed.yaml) after the latest run week.

    \b
    Example:
      fedtool title vacate world --reason "Vane is injured for a month"
    """
    from fedtool.league.db import open_league
    from fedtool.league.catalog import sync_titles_if_they_stand
    from fedtool.league.records import vacate_title

    db = open_league(fed.database)
    click.echo(vacate_title(fed, db, title_id, reason))
    with db.atomic():
        sync_titles_if_they_stand(fed, db)  # the lineage as rows (issue 19)


@title.command()
@click.argument("title_id", metavar="TITLE")
@click.argument("wrestler")
@click.option("--reason", default="", help="Why: kept in the lineage.")
@fed_option(writes=True)
def award(fed: Fed, title_id: str, wrestler: str, reason: str):
    """Award TITLE to WRESTLER (a roster id) after the latest run week.

    \b
    Example:
      fedtool title award world brother-bob --reason "Vane no-showed"
    """
    from fedtool.league.db import open_league
    from fedtool.league.catalog import sync_titles_if_they_stand
    from fedtool.league.records import award_title

    db = open_league(fed.database)
    click.echo(award_title(fed, db, title_id, wrestler, reason))
    with db.atomic():
        sync_titles_if_they_stand(fed, db)  # the lineage as rows (issue 19)


@cli.command()
@click.option("--season", "season", metavar="N", type=click.IntRange(1, 9999), help="Only the weeks of closed season N (default: all time).")
@click.option("--ruleset", help="Only this ruleset's records (matchmatch, matclash, facemat).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the record book's sections (every ruleset, then each) and the hall of fame.")
@fed_option
def records(fed: Fed, season: int | None, ruleset: str | None, as_json: bool):
    """Show the record book: longest and most reigns, most defences, win streaks,
    head-to-head, biggest upsets and the best-rated matches, for every ruleset and each,
    all time or over a closed season; and the hall of fame (champions at a season's close
    and its award winners).

    \b
    Example:
      fedtool records
      fedtool records --season 1 --ruleset matchmatch --json
    """
    from fedtool.league.db import read_league
    from fedtool.league.recordbook import hall_of_fame, record_book
    from fedtool.league.seasons import season_archive
    from fedtool.league.tables import format_record_book

    db = read_league(fed.database)
    weeks = None
    if season is not None:
        from fedtool.league.seasons import closed_seasons

        closed = [s["season"] for s in closed_seasons(db)]
        if season not in closed:  # season_archive's own words name `season show`
            known = ", ".join(map(str, closed)) or "none has been closed"
            raise FedError(Problem(None, "--season", f"season {season} has not been closed (closed seasons: {known})", "fedtool records --season"))
        archive = season_archive(db, season)
        weeks = (archive["first_week"], archive["last_week"])
    book = record_book(fed, db, weeks, ruleset)
    book["hall_of_fame"] = hall_of_fame(db)
    click.echo(_json_dumps(book, indent=2, ensure_ascii=False) if as_json else format_record_book(book))


@cli.group(cls=FedGroup)
@group_fed_option
def season(fed_dir: Path | None):
    """Close the season (archive it, carry the league into the next), reopen it, or show seasons.

    \b
    Example:
      fedtool season close --name "Season 1: The Beginning"
      fedtool season show 1
      fedtool season list
    """


@season.command(name="close")
@click.option("--name", help='The season\'s name (default "Season N").')
@fed_option(writes=True)
def season_close(fed: Fed, name: str | None):
    """Close the season in play after its latest run week: archive its champions,
    standings, records and awards, and carry each wrestler's state into the next season
    by `seasons: carry_over:` in rosters/fed.yaml (kept unless it says reset). The league
    is snapshotted first.

    \b
    Example:
      fedtool run 5 && fedtool season close && fedtool site
    """
    from fedtool.league.db import open_league
    from fedtool.league.seasons import close_season
    from fedtool.league.tables import award_lines

    archive = close_season(fed, open_league(fed.database), name)
    click.echo(f"{archive['name']} closed: weeks {archive['first_week']}-{archive['last_week']}; season {archive['season'] + 1} begins with week {archive['last_week'] + 1}")
    for champ in archive["champions"]:
        click.echo(f"  {champ['name']}: {champ['holder_name'] or 'vacant'}")
    for line in award_lines(archive["awards"]):
        click.echo(line)
    rules = archive["carry_over"]["rules"]
    click.echo("carry-over: " + (", ".join(f"{k} {v}" for k, v in rules.items()) or "nothing to carry (no ruleset keeps state)"))
    for change in archive["carry_over"]["changes"]:
        click.echo(f"  {change['name']}: {change['reason']}")


@season.command(name="reopen")
@fed_option(writes=True)
def season_reopen(fed: Fed):
    """Take back the latest close while no week after it has been run (its archive and
    carry-over are dropped; its weeks may be rerun).

    \b
    Example:
      fedtool season reopen
    """
    from fedtool.league.db import open_league
    from fedtool.league.seasons import reopen_season

    click.echo(reopen_season(open_league(fed.database)))


@season.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: each closed season and the season in play.")
@fed_option
def season_list(fed: Fed, as_json: bool):
    """List the closed seasons (weeks, when closed) and the season in play.

    \b
    Example:
      fedtool season list --json
    """
    from fedtool.league.db import read_league
    from fedtool.league.seasons import closed_seasons, current_season

    db = read_league(fed.database)
    closed, current = closed_seasons(db), current_season(db)
    if as_json:
        click.echo(_json_dumps({"closed": closed, "current": current}, indent=2, ensure_ascii=False))
        return
    for s in closed:
        click.echo(f"{s['name']}: weeks {s['first_week']}-{s['last_week']}, closed {s['closed_at'][:10]}")
    weeks = f"weeks {current['weeks'][0]}-{current['weeks'][-1]}" if current["weeks"] else "no week run yet"
    click.echo(f"{current['name']} (in play): {weeks}")


@season.command(name="show")
@click.argument("number", type=click.IntRange(1, 9999))
@click.option("--json", "as_json", is_flag=True, help="Print the season's archive as JSON: champions, standings, records, awards, carry-over.")
@fed_option
def season_show(fed: Fed, number: int, as_json: bool):
    """Show closed season NUMBER's archive: champions at its close, awards, standings and records.

    \b
    Example:
      fedtool season show 1
    """
    from fedtool.league.db import read_league
    from fedtool.league.seasons import season_archive
    from fedtool.league.tables import format_season

    archive = season_archive(read_league(fed.database), number)
    click.echo(_json_dumps(archive, indent=2, ensure_ascii=False) if as_json else format_season(archive))


@cli.group(cls=FedGroup)
@group_fed_option
def book(fed_dir: Path | None):
    """Propose a match from the league, as a card entry to paste into a week's card.yaml.

    \b
    Example:
      fedtool book grudge the-warden
    """


@book.command()
@click.argument("wrestler", required=False)
@click.option("--week", type=click.IntRange(0, 9999), help="The league going into this week (default: the week after the latest run).")
@fed_option
def grudge(fed: Fed, wrestler: str | None, week: int | None):
    """Propose a Face to the Mat grudge match (9.a) from the HOT BOX: WRESTLER against the
    man he challenged, else his HOT BOX foe, else the highest grudge grade of the rest;
    without WRESTLER, the open challenge of the highest grudge grade, else the roster's two
    highest grudge grades. Prints the card entry (stipulation: grudge) and why.

    \b
    Example:
      fedtool book grudge
      fedtool book grudge the-warden --week 2
    """
    from fedtool.week.booking import propose_match

    click.echo(propose_match(fed, "facemat", "grudge", wrestler, week), nl=False)


@cli.group(cls=FedGroup)
@group_fed_option
def roster(fed_dir: Path | None):
    """Manage the roster: list and check the sheets, add a wrestler from a template,
    retire one (the sheet kept in rosters/retired/, the history kept, out of the standings
    and the contenders), bring one back, respec a sheet. Every change is kept in the
    league with its week and reason, and shown by `fedtool history`.

    \b
    Example:
      fedtool roster add jo-blaze --ruleset matchmatch --name "Jo Blaze" --owner-name Jo --owner-email jo@players.example
      fedtool roster retire hank-morrow --reason "retired after week 5"
    """


def _json_dumps(value, **options) -> str:
    import json  # a command that prints JSON imports it (issue 18: `fedtool --help` imports click alone)

    return json.dumps(value, **options)


def _echo_json(value) -> None:
    click.echo(_json_dumps(value, indent=2, ensure_ascii=False))


@roster.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, name, ruleset, owner, members, status (active or retired), file, stands.")
@fed_option
def roster_list(fed: Fed, as_json: bool):
    """List every sheet: on the roster, then retired.

    \b
    Example:
      fedtool roster list --json
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import roster_list as listing

    rows = listing(fed, open_league(fed.database, create=False))
    if as_json:
        return _echo_json(rows)
    for r in rows:
        click.echo(f"{r['id']:<24} {r['name']:<28} {r['ruleset'] or '?':<11} {r['status']:<8}" + ("" if r["stands"] else " (does not stand: fedtool roster check)"))
    click.echo(f"{sum(r['status'] == 'active' for r in rows)} on the roster, {sum(r['status'] == 'retired' for r in rows)} retired")


@roster.command(name="check")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, file, status, problems, warnings.")
@fed_option
def roster_check(fed: Fed, as_json: bool):
    """Check every sheet against its ruleset; exit 1 if any does not stand. Warns of a sheet
    edited by hand since the league recorded it.

    \b
    Example:
      fedtool roster check
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import check_roster

    rows = check_roster(fed, open_league(fed.database, create=False))
    if as_json:
        _echo_json(rows)
    else:
        for r in rows:
            for problem in r["problems"]:
                click.echo(click.style("error: ", fg="red", bold=True) + problem, err=True)
            for warning in r["warnings"]:
                click.echo(click.style("warning: ", fg="yellow") + warning, err=True)
        bad = [r["id"] for r in rows if r["problems"]]
        click.echo(f"{len(rows) - len(bad)} of {len(rows)} sheets stand" + (f"; not: {', '.join(bad)}" if bad else ""))
    if any(r["problems"] for r in rows):
        raise SystemExit(1)


@roster.command(name="add")
@click.argument("wrestler")
@click.option("--ruleset", help="matchmatch, facemat or matclash (default: the fed's).")
@click.option("--name", required=True, help="The wrestler's name.")
@click.option("--owner-name", required=True, help="The player's name.")
@click.option("--owner-email", required=True, help="The player's address (strategies come from it).")
@click.option("--reason", default="", help="Why: kept in the wrestler's history.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, name, ruleset, file, after_week.")
@fed_option(writes=True)
def roster_add(fed: Fed, wrestler: str, ruleset: str | None, name: str, owner_name: str, owner_email: str, reason: str, as_json: bool):
    """Add WRESTLER (the new sheet's id: rosters/WRESTLER.yaml) from his ruleset's template,
    a sheet that stands: edit it, then `fedtool roster respec` records the edit.

    \b
    Example:
      fedtool roster add jo-blaze --ruleset facemat --name "Jo Blaze" --owner-name Jo --owner-email jo@players.example
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import add_wrestler

    done = add_wrestler(fed, open_league(fed.database), wrestler, ruleset, name, owner_name, owner_email, reason)
    _echo_json(done) if as_json else click.echo(f"added {done['name']} ({done['ruleset']}) in {done['file']}")


@roster.command(name="retire")
@click.argument("wrestler")
@click.option("--reason", default="", help="Why: kept in the wrestler's history.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, name, after_week, file, warnings.")
@fed_option(writes=True)
def roster_retire(fed: Fed, wrestler: str, reason: str, as_json: bool):
    """Retire WRESTLER after the latest run week: the sheet moves to rosters/retired/, the
    history stays, the wrestler leaves the standings and the contenders and no card books
    them. Refused for a champion (vacate the title first), a member of a team on the roster
    (retire the team first) and a wrestler booked in a week opened and not yet run (run it
    first, or take the match off the card); a card not yet opened that books the wrestler
    is a warning.

    \b
    Example:
      fedtool roster retire hank-morrow --reason "back to Tennessee"
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import retire

    done = retire(fed, open_league(fed.database), wrestler, reason)
    for warning in done["warnings"]:
        click.echo(click.style("warning: ", fg="yellow") + warning, err=True)
    _echo_json(done) if as_json else click.echo(f"{done['name']} retired after week {done['after_week']}; the sheet is kept in {done['file']}")


@roster.command(name="return")
@click.argument("wrestler")
@click.option("--reason", default="", help="Why: kept in the wrestler's history.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, name, after_week, file.")
@fed_option(writes=True)
def roster_return(fed: Fed, wrestler: str, reason: str, as_json: bool):
    """Bring a retired WRESTLER back to the roster after the latest run week.

    \b
    Example:
      fedtool roster return hank-morrow --reason "one more run"
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import return_wrestler

    done = return_wrestler(fed, open_league(fed.database), wrestler, reason)
    _echo_json(done) if as_json else click.echo(f"{done['name']} is back after week {done['after_week']} ({done['file']})")


@roster.command(name="respec")
@click.argument("wrestler")
@click.argument("sheet", type=FILE_THAT_EXISTS)
@click.option("--reason", required=True, help="Why: kept in the wrestler's history.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: id, name, after_week, file.")
@fed_option(writes=True)
def roster_respec(fed: Fed, wrestler: str, sheet: Path, reason: str, as_json: bool):
    """Replace WRESTLER's sheet with SHEET (checked by his ruleset first), after the latest
    run week, keeping the sheet before and after. SHEET may be rosters/WRESTLER.yaml itself,
    edited by hand: the edit is then recorded.

    \b
    Example:
      fedtool roster respec big-earl new-earl.yaml --reason "mid-season respec: more Power"
    """
    from fedtool.league.db import open_league
    from fedtool.roster.manage import respec

    done = respec(fed, open_league(fed.database), wrestler, sheet, reason)
    _echo_json(done) if as_json else click.echo(f"{done['name']} respecced after week {done['after_week']} ({done['file']})")


@cli.command(name="import")
@click.argument("csv_file", metavar="CSV", type=FILE_THAT_EXISTS)
@click.option("--reason", default="", help="Why: kept in each wrestler's history.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the ids written.")
@fed_option(writes=True)
def import_(fed: Fed, csv_file: Path, reason: str, as_json: bool):
    """Import a roster from CSV: one row per wrestler, columns id, name, ruleset, owner_name,
    owner_email and the sheet's fields by dotted name (styles.Power, skills.MEAN). Every row
    is checked by its ruleset; a bad row is named by its line and nothing is written.

    \b
    Example:
      fedtool import roster.csv --reason "moved from the spreadsheet"
    """
    from fedtool.league.db import open_league
    from fedtool.roster.transfer import import_roster

    ids = import_roster(fed, open_league(fed.database), csv_file, reason)
    more = f" and {len(ids) - 10:,} more (fedtool roster list)" if len(ids) > 12 else ""  # never a line of thousands of ids
    _echo_json(ids) if as_json else click.echo(f"imported {len(ids):,} wrestlers: {', '.join(ids[:10] if more else ids)}{more}")


@cli.command()
@click.option("--out", "out_dir", type=FOLDER, help="Write into DIR instead of outbox/export/ (a new or empty folder, or an earlier export).")
@click.option("--format", "formats", type=click.Choice(["csv", "json"]), multiple=True, help="csv, json (default: both).")
@click.option("--private", is_flag=True, help="Include owners' e-mail addresses and the password hashes (never published).")
@fed_option(writes=True)
def export(fed: Fed, out_dir: Path | None, formats: tuple[str, ...], private: bool):
    """Export the league as CSV and JSON: wrestlers, matches, results, titles, reigns,
    standings, seasons and their awards. No e-mail address or password hash unless --private.

    \b
    Example:
      fedtool export --out ~/dcw-data --format csv
    """
    from fedtool.league.db import open_league
    from fedtool.roster.transfer import export_league

    report = export_league(fed, open_league(fed.database), out_dir, formats or ("csv", "json"), private)
    counts = ", ".join(f"{n} {name}" for name, n in report.rows.items())
    click.echo(f"{len(report.files)} files in {fed.shown(report.out)} ({counts})")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to serve on (127.0.0.1: this machine only).")
@click.option("--port", default=8001, show_default=True, type=click.IntRange(0, 65535), help="The port.")
@click.option("--no-open", is_flag=True, help="Do not open a web browser.")
@fed_option
def browse(fed: Fed, host: str, port: int, no_open: bool):
    """Open the league in Datasette (when installed: `pip install datasette`), read-only, with
    rosters/datasette.json's descriptions; owners' e-mail addresses and password hashes are
    never served. Stop it with Ctrl-C.

    \b
    Example:
      fedtool browse
    """
    from fedtool.roster.browse import browse as serve

    raise SystemExit(serve(fed, host, port, not no_open))


@cli.command()
@click.option("--out", "out_dir", type=FOLDER, help="Build into DIR instead of outbox/site/ (a new or empty folder, or an earlier site).")
@click.option("--full", is_flag=True, help="Rebuild every page and swap the folder in whole (by default only the pages whose content changed are rewritten).")
@fed_option(writes=True)
def site(fed: Fed, out_dir: Path | None, full: bool):
    """Build the fed's website: latest card, every week's writeups, wrestlers, titles, standings.

    Static HTML and one stylesheet, no JavaScript, relative links only: open
    index.html from disk or put the folder on any web server. Only the pages whose
    content changed are rewritten (a week's page when it is run or rerun, a wrestler's
    when he wrestles); --full rebuilds the folder whole.

    \b
    Example:
      fedtool run 5 && fedtool site
    """
    from fedtool.site.build import build_site

    report = build_site(fed, out_dir, full=full)
    click.echo(f"{len(report.pages)} pages ({report.weeks} weeks, {report.wrestlers} wrestlers, {report.titles} titles) in {fed.shown(report.out)}")


def _print_report(fed: Fed, report) -> None:
    for line in report.headlines:
        click.echo(line)
    for line in report.changes:
        click.echo(f"  {line}")
    if getattr(report, "run", 1) > 1:
        click.echo(f"run {report.run} of {report.label}: the mails are corrections (`fedtool send` delivers them)")
        for line in report.corrections:
            click.echo(f"  {line}")
    for line in report.warnings:
        click.echo(click.style("warning: ", fg="yellow") + line, err=True)
    click.echo(f"{len(report.files)} files in {fed.shown(report.outbox)}")

