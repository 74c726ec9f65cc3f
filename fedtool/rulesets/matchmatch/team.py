"""MatchMatch tag teams (rulebook I.2): a team's sheet, checked against its members'."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place
from fedtool.kernel.yamlio import LineDict
from .rules import vocabulary
from .sheet import Sheet, read_sheet

RULE = "MatchMatch I.2"
TEAM_KEYS = ("members", "use_member")


def is_team(data: Any) -> bool:
    return isinstance(data, dict) and "members" in data


def read_team(data: Any, file: str, team_id: str, members: dict[str, Sheet]) -> Sheet:
    """A team sheet: its own 42 points with every value within the members' range (Teamwork
    no higher than the lowest member's; High Spots exempt), or `use_member:` one member's
    scores with Teamwork lowered to the lowest member's."""
    vocab = vocabulary()
    ids = list(data["members"]) if isinstance(data.get("members"), list) else []
    if not 2 <= len(ids) <= 4 or not all(isinstance(m, str) for m in ids) or len(set(ids)) != len(ids):
        raise FedError(Problem(file, place(data, ("members",)), "a team lists two to four different members (their wrestler ids)", RULE))
    missing = [m for m in ids if m not in members]
    if missing:
        raise FedError(Problem(file, place(data, ("members",)), f"unknown member{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}: no such sheet in rosters/", RULE))
    team = [members[m] for m in ids]
    if any(m.members for m in team):
        raise FedError(Problem(file, place(data, ("members",)), "a team's members are wrestlers, not teams", RULE))
    lowest_teamwork = min(m.styles["teamwork"] for m in team)
    use = data.get("use_member")
    own = LineDict((k, v) for k, v in data.items() if k not in TEAM_KEYS)
    own.line, own.lines = getattr(data, "line", 0), {k: v for k, v in getattr(data, "lines", {}).items() if k not in TEAM_KEYS}

    if use is not None:
        if use not in ids:
            raise FedError(Problem(file, place(data, ("use_member",)), f"use_member {use!r} is not one of the members ({', '.join(ids)})", RULE))
        given = [k for k in ("stamina", "styles", "defenses", "high_spots") if k in data]
        if given:
            raise FedError(Problem(file, place(data, (given[0],)), "give either use_member or the team's own scores, not both", RULE))
        member = members[use]
        # read the rest of the sheet (name, owner, push) against the member's numbers
        own.update(stamina=member.stamina, styles=dict(member.styles), defenses=dict(member.defenses), high_spots=member.high_spots)
        try:
            base = read_sheet(own, file, team_id)
        except FedError as exc:  # a member's scores may cost less than 42 once Teamwork is lowered
            raise FedError([p for p in exc.problems if "costs" not in p.message] or exc.problems) from None
        styles = dict(member.styles, teamwork=min(member.styles["teamwork"], lowest_teamwork))
        return replace(base, styles=styles, members=tuple(ids), **_member_values(team))

    sheet = read_sheet(own, file, team_id)
    problems = Collector()

    def check(section: str, value: int, style: str | None, low: int, high: int, values: list[int]) -> None:
        if not low <= value <= high:
            label = "Stamina" if style is None else vocab.style_name(style) + (" defense" if section == "defenses" else "")
            shown = ", ".join(f"{m.name} {v}" for m, v in zip(team, values))
            problems.add(file, place(data, (section,)), f"{label} {value} is outside the members' range {low}-{high} ({shown})", RULE)

    values = [m.stamina for m in team]
    check("stamina", sheet.stamina, None, min(values), max(values), values)
    for style in vocab.style_ids:
        values = [m.styles[style] for m in team]
        if style == "teamwork":
            if sheet.styles[style] > lowest_teamwork:
                problems.add(file, place(data, ("styles",)), f"Teamwork {sheet.styles[style]} is higher than the lowest member's ({lowest_teamwork})", f"{RULE}: the team's Teamwork is no higher than the lowest member's")
        else:
            check("styles", sheet.styles[style], style, min(values), max(values), values)
        values = [m.defenses[style] for m in team]
        check("defenses", sheet.defenses[style], style, min(values), max(values), values)
    problems.raise_if_any()
    return replace(sheet, members=tuple(ids), **_member_values(team))


def _member_values(team: list[Sheet]) -> dict:
    return {"member_teamwork": tuple(m.styles["teamwork"] for m in team), "member_ref_slack": tuple(m.ref_slack for m in team)}


def team_setting_problems(sheet: Sheet, file: str, team_teamwork: str, team_ref_slack: str) -> list[Problem]:
    """What the fed's readings of I.2 refuse in a team sheet that I.2's range rule accepts
    (docs/rulings/matchmatch.md, "Tag teams"): `team_teamwork: lowest` (the default) wants
    the team's Teamwork equal to the lowest member's, not only no higher; `team_ref_slack:
    members_range` keeps Ref Slack within the members' (the default exempts it, as High Spots)."""
    if not sheet.members:
        return []
    problems = []
    lowest = min(sheet.member_teamwork)
    if team_teamwork == "lowest" and sheet.styles["teamwork"] != lowest:
        problems.append(Problem(file, "field styles.Teamwork", f"Teamwork {sheet.styles['teamwork']} is not the lowest member's ({lowest})",
                                f'{RULE}: "The combined TeamWork attribute must be the lowest of the individual TeamWork attributes" '
                                "(fed setting team_teamwork: lowest)"))
    low, high = min(sheet.member_ref_slack), max(sheet.member_ref_slack)
    if team_ref_slack == "members_range" and not low <= sheet.ref_slack <= high:
        problems.append(Problem(file, "field ref_slack", f"Ref Slack {sheet.ref_slack} is outside the members' range {low}-{high}",
                                f"{RULE}: each value within the members' range (fed setting team_ref_slack: members_range)"))
    return problems
