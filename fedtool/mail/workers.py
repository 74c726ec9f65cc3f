"""Mail judged side by side: a big local mailbox's strategy mails checked in worker processes.

Judging a strategy mail touches the files of one match only (the wrestler's candidate, his
strategy, the other sides' strategies it is booked against, his held file), so mails for
different matches never meet: `plan` gives each mail the set of matches its subject can
reach (the card's wrestlers it names, and every match they are booked in), and
`judge_side_by_side` hands each such group, in arrival order, to one worker process. Mails
for one wrestler, or for one match, are judged by one worker in the order they came, so a
later strategy replaces an earlier one exactly as when judged one by one.

What is not one match's business is judged one by one, in its place in the mailbox (`plan`
ends a segment there): a mail command (`status` reads every side's files and the league's
records; `resend` queues mail), a mail a killed intake was reading (judged again alone, so
a mail that kills fedtool twice is the only one quarantined), a subject naming wrestlers of
two unconnected matches, a week whose card cannot be read (its error stops the intake at
that mail, as one by one).

Workers are forked from the intake (they share what it has read: the cards, the wrestlers,
the league's states, the passwords) and die with it (PR_SET_PDEATHSIG on Linux, and a look
at their parent before each mail): a killed `tick` leaves no worker filing behind it. The
intake records every verdict, writes every answer and quarantines in the mailbox's order
once the workers are done; a worker that ends without an answer (killed) leaves its mails
to be judged again in the intake itself. Only where it pays: `intake.PARALLEL_MIN` mails in
a segment, two groups at least, and more than one core.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from typing import TYPE_CHECKING

from fedtool.fed.settings import Fed
from fedtool.kernel.errors import FedError

from .commands import parse_command

if TYPE_CHECKING:  # pragma: no cover
    from .intake import Waiting, _Context

ALONE = "alone"


def plan(fed: Fed, mails: list, weeks: dict) -> list[tuple[list, bool]]:
    """The mails in segments, in order: (mails, alone). A segment `alone` is one mail judged
    by the intake itself; the others may be judged side by side (each mail's `group` set;
    a mail read before stays in its place as its Outcome)."""
    from .intake import READING, READING_AGAIN, WEEK, Outcome, _one, _week_context, _plain_name

    segments: list[tuple[list, bool]] = []
    run: list[Waiting] = []
    for mail in mails:
        if isinstance(mail, Outcome):  # read before: reported in its place, judged nowhere
            run.append(mail)
            continue
        else:
            subject = _one(mail.head, "subject")
            group = ALONE if mail.before in (READING, READING_AGAIN) or parse_command(subject) is not None else \
                _group(fed, subject, weeks, WEEK, _week_context, _plain_name)
        if group == ALONE:
            if run:
                segments.append((run, False))
                run = []
            segments.append(([mail], True))
            continue
        mail.group = group
        run.append(mail)
    if run:
        segments.append((run, False))
    return segments


def _group(fed: Fed, subject: str, weeks: dict, week_pattern, week_context, plain_name):
    """The matches a mail with this subject can touch: (week, the sides of every match
    joined to those of the wrestlers it names), None when it names no wrestler of a card
    (it touches no strategy file), ALONE when it cannot be told."""
    found = week_pattern.search(subject)
    if not found:
        return None
    week = int(found.group(1))
    if not (fed.week_dir(week) / "card.yaml").exists():
        return None
    try:
        context = week_context(fed, week, weeks)
    except FedError:
        return ALONE  # judged in its place: its error stops the intake there
    lowered = subject.lower()
    named = {w for m in context.card.matches for w in m.sides if w in lowered}
    named |= {w.id for w in context.wrestlers.values() if w.name.lower() in lowered or plain_name(w.name) in lowered}
    if not named:
        return None
    joined = set(named)
    grown = True
    while grown:  # every match of a named wrestler, and every match of theirs (a wrestler booked twice joins two)
        grown = False
        for match in context.card.matches:
            if joined.intersection(match.sides) and not joined.issuperset(match.sides):
                joined.update(match.sides)
                grown = True
    return (week, tuple(sorted(joined)))


def judge_side_by_side(fed: Fed, segment: list[Waiting], weeks: dict, workers: int, context: _Context) -> list[tuple]:
    """Each mail of `segment` judged by a worker: ("judged", outcome, the answer's file or None),
    ("fault", why) for a mail that made judging fail, ("fed-error", problems) for the fed's
    own files (its worker stopped there), or ("lost",) for a mail its worker never answered."""
    # groups that share a wrestler are one group (a mail naming wrestlers of two matches joins them)
    parent_of: dict = {}

    def root(node):
        while parent_of.setdefault(node, node) != node:
            node = parent_of[node]
        return node

    for mail in segment:
        if getattr(mail, "group", None) is not None:
            week, sides = mail.group
            first = root((week, sides[0]))
            for side in sides[1:]:
                parent_of[root((week, side))] = first
    lots: dict = {}
    for index, mail in enumerate(segment):
        if not hasattr(mail, "group"):  # read before (an Outcome): nothing to judge
            continue
        key = root((mail.group[0], mail.group[1][0])) if mail.group is not None else None
        lots.setdefault(key, []).append(index)
    free = lots.pop(None, [])
    bins: list[list[int]] = [[] for _ in range(min(workers, max(1, len(lots))))]
    for indexes in sorted(lots.values(), key=len, reverse=True):  # the biggest group to the emptiest worker
        min(bins, key=len).extend(indexes)
    for index in free:  # mails that touch no strategy file: anywhere
        min(bins, key=len).append(index)
    bins = [sorted(b) for b in bins if b]
    results: list[tuple] = [("lost",)] * len(segment)
    if len(bins) < 2:
        for index, answer in zip(bins[0] if bins else [], _judge_here(fed, [segment[i] for i in (bins[0] if bins else [])], weeks, context)):
            results[index] = answer
        return results
    forked = multiprocessing.get_context("fork")
    running = []
    me = os.getpid()
    for indexes in bins:
        reader, writer = forked.Pipe(duplex=False)
        process = forked.Process(target=_worker, args=(writer, me, fed, [segment[i] for i in indexes], weeks, context), daemon=True)
        process.start()
        writer.close()
        running.append((process, reader, indexes))
    for process, reader, indexes in running:
        try:
            answers = reader.recv()
        except (EOFError, OSError):
            answers = []
        reader.close()
        process.join()
        for index, answer in zip(indexes, answers):
            results[index] = answer
    return results


def _judge_here(fed: Fed, segment: list[Waiting], weeks: dict, context: _Context) -> list[tuple]:
    """One worker's share: its mails judged in order, each its verdict (see `judge_side_by_side`)."""
    from .intake import judge_one, write_answer

    answers: list[tuple] = []
    for mail in segment:
        try:
            outcome, reply = judge_one(fed, mail, weeks, context)
        except FedError as exc:
            answers.append(("fed-error", exc.problems))
            break
        except Exception as exc:  # this mail made judging fail: the intake quarantines it
            _clear_candidates(fed, mail)
            answers.append(("fault", f"{type(exc).__name__}: {exc}"))
            continue
        outcome.filing = None  # filed already
        answers.append(("judged", outcome, write_answer(fed, outcome, mail.message_id, reply) if reply is not None else None))
    return answers


def _clear_candidates(fed: Fed, mail: Waiting) -> None:
    """The strategies this mail's judging may have left half-filed (its group's wrestlers')."""
    if mail.group is None:
        return
    week, sides = mail.group
    folder = fed.week_dir(week)
    for side in sides:
        for leftover in folder.glob(f"~incoming~{side}.*"):
            leftover.unlink(missing_ok=True)


def _worker(writer, parent: int, fed: Fed, mails: list[Waiting], weeks: dict, context: _Context) -> None:
    _die_with_parent()
    if os.getppid() != parent:  # the intake died before this worker could ask to die with it
        os._exit(1)
    try:
        answers = []
        for mail in mails:
            if os.getppid() != parent:
                os._exit(1)
            answers.extend(_judge_here(fed, [mail], weeks, context))
            if answers[-1][0] == "fed-error":
                break
        writer.send(answers)
    finally:
        writer.close()


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
