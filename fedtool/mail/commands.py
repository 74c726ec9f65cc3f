"""Mail commands and the help answer (issue 12, item 4).

A player mails a command as the whole subject, as a judge's players do:

- `help`: how to send a strategy (the subject, the address), the open week's card (its
  matches and wrestlers) and these commands;
- `status week N` (or `status N`, or `status` for the open week): what fedtool holds for
  the sender's own wrestlers in week N: per side the file, when it came, whether it stands
  and why not, and each mail read for it; never another player's strategy;
- `resend week N` (or `resend N`): the sender's own results mail for week N again
  (`outgoing.resend_week` queues it; `fedtool send` delivers it).

The answer goes only to the address in From:, and status and resend answer only a
registered owner's address with that owner's own wrestlers: a forged From: sends the
answer to the real owner, never to the forger. Any other address gets the help text.
A mail that names no week, no wrestler of the week's card, or comes from an address that
is not the owner's gets the help text below its refusal (`fedtool.mail.intake`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fedtool.fed.schedule import shown_time
from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError
from fedtool.league.db import open_league, ran_weeks
from fedtool.week.booking import card_context, week_card, week_in_play
from fedtool.week.status import week_status

from .outgoing import resend_week

COMMAND = re.compile(r"^\s*(help|status|resend)(?:\s+week)?(?:\s*(\d{1,4}))?\s*[.!?]?\s*$", re.IGNORECASE)


@dataclass
class Command:
    name: str  # help, status, resend
    week: int | None


@dataclass
class CommandAnswer:
    why: str  # what was asked and done, one line (recorded in inbox_seen, shown by `fedtool inbox`)
    text: str  # the answer's body
    week: int | None  # the week it was about (where the answer queues)


def parse_command(subject: str) -> Command | None:
    """The mail command a subject is, or None (`help`, `status week 6`, `resend 6`)."""
    found = COMMAND.match(subject)
    if not found:
        return None
    return Command(found.group(1).lower(), int(found.group(2)) if found.group(2) else None)


def help_text(fed: Fed) -> str:
    """How to write to the fed: the subject, the address, the open week's card and the mail
    commands. Everything in it is public (the card is announced to the list). Plain text,
    read as it is: quotes, never Markdown's backticks (issue 16)."""
    mail = fed.settings.mail
    to_address = str(mail.reply_to or mail.from_address)
    week = week_in_play(fed)
    card = _card(fed, week) if week is not None else None
    example = f"Week {week if week is not None else 1} {card[0].matches[0].sides[0] if card else '<wrestler-id>'}"
    lines = [f"How to send a strategy to {fed.settings.name}:", "",
             f'Mail {to_address} from your registered address, with the subject "Week <week> <wrestler-id>"',
             f'(for example "{example}"); a wrestler booked in more than one match adds the match',
             f'("{example} m2"). The strategy is the body of the mail, above any quoted text, or a .yaml',
             "or .txt attachment."]
    if mail.passwords:
        lines.append('Put your password on a line of its own: "Password: your-password".')
    lines += ["Only mail from a wrestler's registered owner is filed; every strategy mail is answered.", ""]
    if week is None:
        lines.append("No week is open now.")
    elif card is None:
        lines.append(f"Week {week} is open; its card cannot be read now.")
    else:
        deadline = f"; the deadline is {shown_time(fed, card[0].deadline)}" if card[0].deadline else ""
        lines.append(f"Week {week} is open{deadline}. Its card:")
        for match in card[0].matches:
            lines.append(f"- {match.id}: " + " vs. ".join(f"{card[1][s].name} ({s})" if s in card[1] else s for s in match.sides))
    lines += ["", "Mail commands (the command is the whole subject; the answer goes to your registered address only):",
              "- help: this text",
              "- status week N: what fedtool holds for your wrestlers in week N (each strategy, when it came, whether it stands)",
              "- resend week N: your results mail for week N again"]
    return "\n".join(lines) + "\n"


def _card(fed: Fed, week: int):
    """(the week's card, its wrestlers by id), or None for a card that cannot be read."""
    try:
        card = week_card(fed, week)
        return card, card_context(fed, card, None).wrestlers
    except FedError:
        return None


def answer_command(fed: Fed, command: Command, sender: str, owner: bool) -> CommandAnswer:
    """The answer to a mail command from `sender`; `owner`: whether the address owns a
    wrestler. Only `sender`'s own wrestlers' records are ever in the answer."""
    asked = command.name + (f" week {command.week}" if command.week is not None else "")
    if command.name == "help" or not owner:
        why = "help" if command.name == "help" else f"{asked}: help only (the address owns no wrestler)"
        text = help_text(fed)
        if command.name != "help":
            text = f"{sender} is not the registered address of any wrestler, so there is nothing to show for \"{asked}\".\n\n" + text
        return CommandAnswer(why, text, None)
    week = command.week if command.week is not None else (week_in_play(fed) if command.name == "status" else _last_run(fed))
    if week is None:
        what = "No week is open now." if command.name == "status" else "No week has been run yet."
        return CommandAnswer(f"{asked}: no week", f"{what}\n\n" + help_text(fed), None)
    if command.name == "status":
        return CommandAnswer(f"status week {week}", _status(fed, week, sender), week)
    return _resend(fed, week, sender)


def _last_run(fed: Fed) -> int | None:
    db = open_league(fed.database, create=False)
    return max(ran_weeks(db), default=None)


def _status(fed: Fed, week: int, sender: str) -> str:
    if not (fed.week_dir(week) / "card.yaml").exists():
        return f"There is no card for week {week}.\n"
    try:
        rows = week_status(fed, week)
    except FedError:
        return f"The week {week} card cannot be read now; the fedhead sees why with \"fedtool status {week}\".\n"
    mine = [r for r in rows if r.owner.strip().lower() == sender.strip().lower()]
    if not mine:
        return f"You have no wrestler on the week {week} card.\n"
    lines = [f"What {fed.settings.name} holds for your wrestlers in week {week}:", ""]
    for row in mine:
        lines.append(f"{row.match}: {row.wrestler}")
        if row.file:
            state = "stands" if row.verdict == "stands" else "does not stand"
            lines.append(f"  strategy: {row.file} (arrived {row.arrived}): {state}")
            lines += [f"    - {problem.message}" + (f" ({problem.place})" if problem.place else "") for problem in row.problems]
        elif row.verdict == "default":
            lines.append("  strategy: none that stands; without one the fed's default strategy plays")
        else:
            lines.append("  strategy: none that stands yet")
        if row.held:
            lines.append(f"  held (late, for the fedhead to accept): {row.held}")
        lines += [f"  mail {line}" for line in row.mails]
        lines.append("")
    return "\n".join(lines)


def _resend(fed: Fed, week: int, sender: str) -> CommandAnswer:
    if not (fed.outbox_week(week) / "mail").is_dir():
        return CommandAnswer(f"resend week {week}: not run", f"Week {week} has not been run: there is no results mail to send again.\n", week)
    try:
        report = resend_week(fed, week, to=sender)
    except FedError:  # its message names every address the week's mail went to: not for a player
        return CommandAnswer(f"resend week {week}: no mail to {sender}", f"There is no results mail to you in week {week}.\n", week)
    count = len(report.queued)
    return CommandAnswer(f"resend week {week}: {count} queued",
                         f"Your results mail for week {week} is sent again, in a separate mail"
                         + (f" ({count} mails)" if count > 1 else "") + ".\n", week)


__all__ = ["Command", "CommandAnswer", "parse_command", "answer_command", "help_text"]
