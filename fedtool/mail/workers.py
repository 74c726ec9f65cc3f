"""Mail judged side by side: a big local mailbox's strategy mails checked in worker processes.

Judging a strategy mail touches the files of one match only (the wrestler's candidate, his
strategy, the other sides' strategies it is booked against, his held file), so mails for
different matches never meet: `plan` gives each mail the set of matches its subject can
reach (`intake._place`: the card's wrestlers it names, and every match they are booked
in), and `judge_side_by_side` hands each such group, in arrival order, to one worker process. Mails
for one wrestler, or for one match, are judged by one worker in the order they came, so a
later strategy replaces an earlier one exactly as when judged one by one.

What is not one match's business is judged one by one, in its place in the mailbox (`plan`
ends a segment there): a mail command (`status` reads every side's files and the league's
records; `resend` queues mail), a mail a killed intake was reading (judged again alone, so
a mail that kills fedtool twice is the only one quarantined), a week whose card cannot be
read (its error stops the intake at that mail, as one by one). A subject naming wrestlers
of two matches joins their groups; a mail that names none touches no strategy file and
goes to any worker.

Workers are forked from the intake (they share what it has read: the cards, the wrestlers,
the league's states, the passwords) and die with it (PR_SET_PDEATHSIG on Linux, and a look
at their parent before each mail): a killed `tick` leaves no worker filing behind it (and
they hold the fed's lock with it). Every mail of a segment is marked as being read before
any is judged; each worker files its strategies and writes its answers; the intake then
records the verdicts in the mailbox's order, in one commit, and quarantines a mail that
made judging fail; a worker that ends without an answer (killed) leaves its mails to be
judged again in the intake itself. Only where it pays: `intake.PARALLEL_MIN` mails in
a segment, two groups at least, and more than one core. Groups too uneven to share out
among the cores (three matches' mails on two) get a worker each, up to two per core, and
the cores share their time among them.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.connection import wait
from typing import Callable

ALONE = "alone"  # judged by the intake itself, in its place: it ends a segment
PASSED = "passed"  # nothing to judge (a mail read before): kept in its place, judged nowhere


def plan(items: list, place: Callable) -> list[tuple[list, list, bool]]:
    """The items in segments, in order: (items, their places, alone). `place(item)` is ALONE,
    PASSED, None (touches no strategy file: judged anywhere) or a group (week, wrestler ids)
    of the files its judging may touch. A segment `alone` is one item the intake judges itself."""
    segments: list[tuple[list, list, bool]] = []
    run: list = []
    places: list = []
    for item in items:
        where = place(item)
        if where == ALONE:
            if run:
                segments.append((run, places, False))
                run, places = [], []
            segments.append(([item], [ALONE], True))
            continue
        run.append(item)
        places.append(where)
    if run:
        segments.append((run, places, False))
    return segments


def judge_side_by_side(segment: list, places: list, workers: int, judge: Callable, ready: Callable | None = None) -> list[tuple]:
    """Each item of `segment` judged by `judge(item)` in a worker, the items of one group (and
    of groups sharing a wrestler) by one worker in order. `judge` returns ("judged", ...),
    ("fault", ...) or ("fed-error", ...) (its worker stops there); an item its worker never
    answered (killed) is ("lost",), one PASSED is ("passed",).

    Workers hand their answers on as they go (`BATCH` at a time); `ready(n, results)` is
    called each time more of the segment's first items are all answered (`results[:n]`
    final), so the caller can record them while the rest are judged."""
    parent_of: dict = {}

    def root(node):
        while parent_of.setdefault(node, node) != node:
            node = parent_of[node]
        return node

    for where in places:  # groups that share a wrestler are one (a mail naming wrestlers of two matches joins them)
        if where not in (None, PASSED):
            week, sides = where
            first = root((week, sides[0]))
            for side in sides[1:]:
                parent_of[root((week, side))] = first
    lots: dict = {}
    for index, where in enumerate(places):
        if where != PASSED:
            lots.setdefault(None if where is None else root((where[0], where[1][0])), []).append(index)
    free = lots.pop(None, [])
    groups = sorted(lots.values(), key=len, reverse=True)
    bins = _shared_out(groups, free, min(workers, max(1, len(lots))))
    if len(groups) > len(bins) > 1 and max(map(len, bins)) > UNEVEN * (len(free) + sum(map(len, groups))) / len(bins):
        # groups too uneven to share out among the cores (three matches' mails on two cores,
        # 400, 400 and 200, make 600 and 400): a worker for each group, up to SHARED per core,
        # and the cores share their time out among them (the three end together, at 500)
        bins = _shared_out(groups, free, min(len(groups), workers * SHARED))
    bins = [sorted(b) for b in bins if b]
    results: list[tuple | None] = [("passed",) if where == PASSED else None for where in places]
    frontier = 0

    def advance() -> None:
        nonlocal frontier
        start = frontier
        while frontier < len(results) and results[frontier] is not None:
            frontier += 1
        if ready is not None and frontier > start:
            ready(frontier, results)

    if len(bins) < 2:  # one group: no worker pays
        indexes = bins[0] if bins else []
        answers = _judge_all([segment[i] for i in indexes], judge)
        for index, answer in zip(indexes, answers):
            results[index] = answer
        results = [("lost",) if r is None else r for r in results]  # after a fed-error: never judged
        advance()
        return results
    forked = multiprocessing.get_context("fork")
    running: dict = {}
    me = os.getpid()
    for indexes in bins:
        reader, writer = forked.Pipe(duplex=False)
        process = forked.Process(target=_worker, args=(writer, me, [segment[i] for i in indexes], judge), daemon=True)
        process.start()
        writer.close()
        running[reader] = [process, indexes, 0]
    while running:
        for reader in wait(list(running)):
            process, indexes, got = running[reader]
            try:
                batch = reader.recv()
            except (EOFError, OSError):  # the worker has ended (done, stopped by a fed-error, or killed): what it never answered is "lost"
                reader.close()
                process.join()
                del running[reader]
                for index in indexes[got:]:
                    results[index] = ("lost",)
                continue
            for index, answer in zip(indexes[got:], batch):
                results[index] = answer
            running[reader][2] = got + len(batch)
        advance()
    return results  # every item answered or lost


BATCH = 8  # a worker hands on its answers this many at a time
UNEVEN = 1.1  # a busiest worker with this much more than an even share of the mails is worth more workers
SHARED = 2  # workers per core at most, when the groups are uneven


def _shared_out(groups: list[list[int]], free: list[int], count: int) -> list[list[int]]:
    """The groups (biggest first) in `count` workers, each to the emptiest; then the items
    that touch no strategy file, anywhere."""
    bins: list[list[int]] = [[] for _ in range(count)]
    for indexes in groups:
        min(bins, key=len).extend(indexes)
    for index in free:
        min(bins, key=len).append(index)
    return bins


def _judge_all(items: list, judge: Callable, parent: int | None = None, writer=None) -> list[tuple]:
    answers: list[tuple] = []
    batch: list[tuple] = []
    for item in items:
        if parent is not None and os.getppid() != parent:  # the intake is gone: nothing more is filed
            os._exit(1)
        answers.append(judge(item))
        if writer is not None:
            batch.append(answers[-1])
            if len(batch) >= BATCH or answers[-1][0] == "fed-error":
                writer.send(batch)
                batch = []
        if answers[-1][0] == "fed-error":
            break
    if writer is not None and batch:
        writer.send(batch)
    return answers


def _worker(writer, parent: int, items: list, judge: Callable) -> None:
    _die_with_parent()
    try:
        _judge_all(items, judge, parent, writer)
    finally:
        writer.close()


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
