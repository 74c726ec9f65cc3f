"""`fedtool verify`: replay a run week's matches from their revealed seeds and check them
against the commitments published when the week opened, the dice logs and the results.

A match's commitment is the SHA-256 of its seed text (`fedtool.kernel.dice.seed_text`),
written by `fedtool open` into strategies/week-NN/opening.yaml and the announcements. After
the run the seed text is revealed (the card, `fedtool results --json`, the site). Verifying
a match: the seed text hashes to the commitment; the match, booked exactly as the run
booked it (the card, the strategies, the sheets and the league's states going into the
week) and resolved on `SeededDice(seed)`, rolls exactly the stored log (the league's and
outbox/week-NN/dice.txt) and ends as the stored result. The fed's secret is never needed.

Two sources of what was revealed:

- the fed's own folder: the league (seeds, logs, results) and outbox/week-NN/dice.txt;
- `published`: a folder of the week's published results (card.md with the seed texts,
  dice.txt), for a player with a copy of the fed's rosters and strategies and no league.

Nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fedtool.fed.card import OPENING_FILE
from fedtool.fed.render import md_escape
from fedtool.fed.settings import Fed, week_name
from fedtool.kernel.dice import COMMITMENT, SEED_TEXT, ScriptedDice, SeededDice, commitment, format_log, seed_text
from fedtool.kernel.errors import FedError, Problem
from fedtool.kernel.validation import place
from fedtool.kernel.yamlio import load_yaml, read_text
from fedtool.league.db import dice_log, open_league, stored_revision, week_row
from fedtool.rulesets import get_ruleset

from .booking import book_all, card_context, week_card

RULE = "fedtool verify"

VERIFIED = "verified"
FAILED = "failed"
UNCOMMITTED = "uncommitted"  # replayed, but no commitment was published to check the seed against
SCRIPTED = "scripted"  # run on scripted dice: replayed from its own log, nothing was committed
UNREVEALED = "unrevealed"  # the published results give no seed text for it
OTHER_RULES = "other rules"  # run under another revision of its ruleset's rules: not replayed


@dataclass
class MatchCheck:
    """One match verified: its status, what was checked and every difference found."""

    match: str
    status: str
    seed_text: str | None = None
    commitment: str | None = None
    rolls: int = 0
    result: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class VerifyReport:
    week: int
    source: str  # where the revealed seeds, logs and results were read
    checks: list[MatchCheck]

    @property
    def ok(self) -> bool:
        return all(c.status == VERIFIED for c in self.checks)


@dataclass
class _Revealed:
    """What the run revealed for one match: its seed, its dice logs, its result."""

    seed: str | None  # "0123456789abcdef", "scripted: FILE", or None (not revealed)
    where: str  # where the seed was read
    log: list[tuple[int, str, str]] | None = None  # the league's: (round, purpose, faces "4 5 6")
    file_lines: list[tuple[int, str]] | None = None  # dice.txt's section for the match: (line number, text)
    file_shown: str = ""
    result: dict | None = None  # the league's winner, method, round
    card_text: str | None = None  # the published card.md, to find the replay's headline in
    revision: int | None = None  # the ruleset's rules revision it was run under (the league's; 1 before revisions were kept)


LEAGUE_LOG = "the league's dice log"


def verify_week(fed: Fed, week: int, match_id: str | None = None, published: Path | None = None) -> VerifyReport:
    """Verify every match of a run week (or `match_id`), from the league or from `published`."""
    card = week_card(fed, week)
    ids = [m.id for m in card.matches]
    if match_id is not None and match_id not in ids:
        raise FedError(Problem(card.shown, None, f"no match {match_id!r} on the card; it has {', '.join(ids)}", RULE))
    commitments, opening_shown = _commitments(fed, card.folder)
    if published is None:
        revealed, source = _from_league(fed, week, ids)
    else:
        revealed, source = _from_published(fed, week, Path(published), ids)
    context = card_context(fed, card, week)
    bookings = book_all(fed, card, context.wrestlers, context.states)  # the whole card, as the run booked it
    checks = [_check(week, b, revealed[b.match.id], commitments, opening_shown) for b in bookings if match_id in (None, b.match.id)]
    return VerifyReport(week, source, checks)


def _check(week: int, booking, revealed: _Revealed, commitments: dict[str, str], opening_shown: str) -> MatchCheck:
    match = booking.match
    check = MatchCheck(match.id, VERIFIED)
    ruleset = get_ruleset(match.ruleset)
    if revealed.seed is None:
        check.status = UNREVEALED
        check.problems.append(f"{revealed.where} reveals no seed text `week {week} match {match.id} seed ...` for this match")
        return check
    if revealed.seed.startswith("scripted:"):
        check.status = SCRIPTED
        check.problems.append(f"run on scripted dice ({revealed.seed.removeprefix('scripted:').strip()}), not on a committed seed: "
                              "only the replay from its own log can be checked")
        dice = ScriptedDice([int(f) for _, _, faces in revealed.log or [] for f in faces.split()], LEAGUE_LOG)
    else:
        check.seed_text = seed_text(week, match.id, int(revealed.seed, 16))
        check.commitment = commitment(check.seed_text)
        published = commitments.get(match.id)
        if published is None:
            check.status = UNCOMMITTED
            check.problems.append(f"{opening_shown} {commitments.get(NONE_WHY, f'has no commitment for match {match.id}')}: "
                                  "the seed cannot be shown to be the one fixed before the strategies")
        elif published != check.commitment:
            check.status = FAILED
            check.problems.append(f"{opening_shown}: commitments: {match.id}: the published commitment is {published}, "
                                  f"but the revealed seed text `{check.seed_text}` hashes to {check.commitment}")
        dice = SeededDice(int(revealed.seed, 16))
    if revealed.revision is not None and revealed.revision != ruleset.rules_revision:
        # the seed and its commitment stand as checked; the replay would be another engine's
        if check.status == VERIFIED:  # a seed that fails its commitment stays failed
            check.status = OTHER_RULES
        check.problems.append(f"run under {ruleset.name} rules revision {revealed.revision}; this fedtool plays revision {ruleset.rules_revision}, "
                              "so its replay would not be the run's: verify it with the fedtool that ran it")
        return check
    dice.round = 0
    differences = []
    try:
        result = ruleset.resolve(booking, dice)
    except FedError as exc:  # scripted dice from a tampered log can run out or show an impossible face
        differences.append(f"the replay stops: {exc}")
    else:
        replayed = [(r, purpose, " ".join(map(str, faces))) for r, purpose, faces in result.log]
        check.rolls = len(replayed)
        summary = ruleset.summary(booking, result)
        check.result = _result_words(summary)
        if revealed.log is not None:
            differences += _log_difference(revealed.log, replayed)
        if revealed.file_lines is not None:
            differences += _file_difference(revealed.file_lines, result.log, revealed.file_shown)
        elif revealed.file_shown:
            missing = f"{revealed.file_shown} has no section `# match {match.id}`"
            if revealed.log is None:
                differences.append(f"{missing}: there is no dice log to compare")
            else:
                check.notes.append(f"{missing}: only the league's log compared")
        if revealed.result is not None:
            for key in ("winner", "method", "round"):
                if revealed.result.get(key) != summary.get(key):
                    differences.append(f"the league's result has {key} {revealed.result.get(key)!r}, the replay {summary.get(key)!r}")
        if revealed.card_text is not None:
            headline = ruleset.describe(booking, result)["headline"]
            if md_escape(headline) not in revealed.card_text:  # card.md shows it as Markdown, escaped
                differences.append(f"the published card does not give the replay's result: {headline}")
        if isinstance(dice, ScriptedDice) and dice.remaining:
            differences.append(f"{LEAGUE_LOG} has {dice.remaining} dice the replay does not roll")
    if differences:
        check.problems += differences
        if check.status == VERIFIED:
            check.status = FAILED
    return check


def _result_words(summary: dict) -> str:
    if summary.get("winner"):
        return f"{summary['winner']} wins by {summary.get('method')} in round {summary.get('round')}"
    return f"{str(summary.get('method') or 'no result').replace('_', ' ')} in round {summary.get('round')}"


def _where(round_no: int, purpose: str) -> str:
    return f"round {round_no}, {purpose}" if round_no else purpose


def _log_difference(stored: list[tuple[int, str, str]], replayed: list[tuple[int, str, str]]) -> list[str]:
    """The first roll where the league's log and the replay differ, in words; [] when equal."""
    for index, (have, want) in enumerate(zip(stored, replayed), start=1):
        if have != want:
            if (have[0], have[1]) != (want[0], want[1]):
                return [f"{LEAGUE_LOG}, roll {index}: the log has {have[2]} for {_where(have[0], have[1])}, the replay rolls {want[2]} for {_where(want[0], want[1])}"]
            return [f"{LEAGUE_LOG}, roll {index} ({_where(want[0], want[1])}): the log has {have[2]}, the replay rolls {want[2]}"]
    if len(stored) != len(replayed):
        return [f"{LEAGUE_LOG} has {len(stored)} rolls, the replay {len(replayed)}"]
    return []


def _file_difference(lines: list[tuple[int, str]], replayed: list, shown: str) -> list[str]:
    """The first line of dice.txt's section where it and the replay's log differ; [] when equal."""
    wanted = format_log(replayed).splitlines()
    for index, ((number, have), want) in enumerate(zip(lines, wanted), start=1):
        if have != want:
            round_no, purpose, faces = replayed[index - 1]
            logged, rolled = have.split("#", 1)[0].strip(), " ".join(map(str, faces))
            if logged == rolled:  # the same faces for another roll
                return [f"{shown}, line {number}, roll {index}: the log has `{have.strip()}`, the replay `{want.strip()}`"]
            return [f"{shown}, line {number} (roll {index}, {_where(round_no, purpose)}): the log has {logged or '(nothing)'}, the replay rolls {rolled}"]
    if len(lines) != len(wanted):
        return [f"{shown}: the log has {len(lines)} rolls for this match, the replay {len(wanted)}"]
    return []


# ---------------------------------------------------------------- what was published


def published_commitments(fed: Fed, folder: Path) -> dict[str, str] | None:
    """The commitments in a card folder's opening.yaml by match id; None when there are
    none (never opened, or opened before commitments existed). A malformed one is an
    error naming its line."""
    shown = f"{fed.shown(folder)}/{OPENING_FILE}"
    path = folder / OPENING_FILE
    data = load_yaml(path, shown) if path.exists() else None
    found = data.get("commitments") if isinstance(data, dict) else None
    if found is None:
        return None
    if not isinstance(found, dict):
        raise FedError(Problem(shown, place(data, ("commitments",)), "expected a mapping of match ids to commitments", "opening file"))
    out = {}
    for key, value in found.items():
        if not isinstance(value, str) or not COMMITMENT.fullmatch(value):
            raise FedError(Problem(shown, place(data, ("commitments", key)), f"{value!r} is not a commitment (64 lowercase hex digits: a SHA-256)", "opening file"))
        out[str(key)] = value
    return out


def _commitments(fed: Fed, folder: Path) -> tuple[dict[str, str], str]:
    """`published_commitments`, and the opening file as messages name it; when there are
    none, only why, under NONE_WHY."""
    shown = f"{fed.shown(folder)}/{OPENING_FILE}"
    found = published_commitments(fed, folder)
    if found is not None:
        return found, shown
    if not (folder / OPENING_FILE).exists():
        return {NONE_WHY: "is not there (the week was not opened with `fedtool open`)"}, shown
    return {NONE_WHY: "has no commitments (the week was opened before fedtool published them)"}, shown


NONE_WHY = ""  # the key under which `_commitments` says why there are none (no match id is empty)


def _dice_sections(text: str) -> dict[str, list[tuple[int, str]]]:
    """dice.txt cut at its headings (`# match m1`, `# end of the week`): each match's roll lines."""
    sections: dict[str, list[tuple[int, str]]] = {}
    current: list[tuple[int, str]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("# "):
            heading = line[2:]
            current = sections.setdefault(heading.removeprefix("match "), []) if heading.startswith("match ") else None
        elif current is not None:
            current.append((number, line))
    return sections


def _read_dice_file(fed: Fed, path: Path) -> dict[str, list[tuple[int, str]]] | None:
    return _dice_sections(read_text(path, fed.shown(path), limit=50_000_000)) if path.exists() else None


def _from_league(fed: Fed, week: int, match_ids: list[str]) -> tuple[dict[str, _Revealed], str]:
    db = open_league(fed.database, create=False)
    if week_row(db, week) is None:
        raise FedError(Problem(fed.shown(fed.database), None, f"week {week} has not been run, so there is nothing to verify", RULE))
    rows = {row["match"]: row for row in db["matches"].rows_where("week = ?", [week])}
    dice_file = fed.outbox_week(week) / "dice.txt"
    sections = _read_dice_file(fed, dice_file)
    revealed = {}
    for match_id in match_ids:
        row = rows.get(match_id)
        if row is None:
            raise FedError(Problem(fed.shown(fed.database), None, f"week {week} was run without match {match_id}: the card has changed since the run", RULE))
        log = [(r["round"], r["purpose"], r["faces"]) for r in dice_log(db, week, f"{week_name(week)}/{match_id}")]
        revealed[match_id] = _Revealed(
            row["seed"], "the league", log, sections.get(match_id) if sections is not None else None, fed.shown(dice_file) if sections is not None else "",
            {"winner": row["winner"], "method": row["method"], "round": row["end_round"]},
            revision=stored_revision(row["summary"]),
        )
    source = fed.shown(fed.database) + (f" and {fed.shown(dice_file)}" if sections is not None else f" ({fed.shown(dice_file)} is not there: only the league's log)")
    return revealed, source


def _from_published(fed: Fed, week: int, folder: Path, match_ids: list[str]) -> tuple[dict[str, _Revealed], str]:
    """The week's published results: the seed texts in card.md, the logs in dice.txt."""
    card_file, dice_file = folder / "card.md", folder / "dice.txt"
    for path in (card_file, dice_file):
        if not path.is_file():
            raise FedError(Problem(fed.shown(path), None, "not there: verifying from published results needs the week's card.md and dice.txt", RULE))
    card_text = read_text(card_file, fed.shown(card_file), limit=50_000_000)
    sections = _read_dice_file(fed, dice_file) or {}
    seeds = {m.group(2): m.group(3) for m in SEED_TEXT.finditer(card_text) if int(m.group(1)) == week}
    revealed = {
        match_id: _Revealed(seeds.get(match_id), fed.shown(card_file), None, sections.get(match_id), fed.shown(dice_file), None, card_text)
        for match_id in match_ids
    }
    return revealed, f"{fed.shown(card_file)} and {fed.shown(dice_file)}"
