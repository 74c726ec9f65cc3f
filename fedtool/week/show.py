"""The card told as a show (issue 16, item 5): its headline, the match of the night, the
titles that changed hands and the league's changes in plain words.

Everything here is read from what the week already decided (the results, the title
matches, the league's changes with their reasons): nothing is rolled, and no game dice are
touched. Each ruleset tells its own league changes (`Ruleset.tell_league_change`); the
titles are the league's and told here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ratings import card_rating, match_of_the_night

# finishes the headline names: a win by them is not a clean win (any other reads "beats")
UNCLEAN = {"dq": "by disqualification", "countout": "by count-out"}
COUNTS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
DRAWS = {"time_limit": "a time-limit draw", "double_countout": "a double count-out", "double_dq": "a double disqualification"}


@dataclass
class ShowMatch:
    """What the show's headline needs of one match: its entry on the card (`file`,
    `headline`, `rating`), the names of its sides by outcome (partners are two names, a tag
    team's sheet one) and its finish."""

    entry: dict
    winners: list[str]
    losers: list[str]
    everyone: list[str]
    method: str | None
    title: dict | None = None  # the title match's row (league.records.decide_title_matches), with "name"


def the(title: str) -> str:
    """A title's name with its article: "the DCW World Championship"."""
    return title if title.lower().startswith("the ") else f"the {title}"


def listed(names: list[str], last: str = "and") -> str:
    """Names as a sentence lists them: "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def _s(plural: bool, verb: str) -> str:
    """A verb agreeing with its subject: "beats" for one, "beat" for a team or a pair."""
    return verb if plural else verb + "s"


def title_words(row: dict, title_name: str, rule: str, names: dict[str, str]) -> str:
    """A title match's outcome in plain words, without its finish (the writeup and the card
    tell the finish already: issue 16, never named twice). `rule`: when the title changes
    hands, in words ("does not change hands on a disqualification or a count-out")."""
    holder, winner = row["holder_before"], row["winner"]
    holder_name, winner_name = names.get(holder, holder), names.get(winner, winner)
    title = the(title_name)
    if row["result"] == "won":
        return f"{winner_name} wins {title} from {holder_name}." if holder else f"{winner_name} wins the vacant {title_name}."
    if row["result"] == "defended":
        if winner == holder:
            return f"{holder_name} retains {title}."
        if winner is None:
            return f"No winner, so {holder_name} retains {title}."
        return f"{title[0].upper()}{title[1:]} {rule}: {holder_name} retains it."
    if winner is not None:
        return f"{title[0].upper()}{title[1:]} {rule}: it stays vacant."
    return f"No winner, so {title} stays vacant."


def headline(matches: list[ShowMatch], best: int | None) -> str:
    """The show's headline: what the night will be remembered for, in one sentence, never the
    match of the night's own headline over again. It leads with the titles that changed
    hands (else the main event: the match the card bills so, or the last, and its title at
    stake) and ends with the
    match of the night when another match is it."""
    if not matches:
        return ""
    changed = [m for m in matches if m.title and m.title["result"] == "won"]
    # the main event: the match the card bills as one (`title: Main event`), else the last
    billed = [m for m in matches if "main event" in str(m.entry.get("billing") or "").lower()]
    main_event = billed[0] if billed else matches[-1]
    lead = changed[0] if changed else main_event
    text = _told(lead)
    motn = matches[best] if best is not None else None
    main = lead is main_event and len(matches) > 1 and not changed
    if main:
        text += " in a main event that steals the show" if motn is lead else " in the main event"
    elif motn is lead:
        text += " in the match of the night"
    if len(changed) > 1:
        text += f", and {_title_won(changed[1])}"
    if motn is not None and motn is not lead and motn not in changed[:2]:
        text += f", while {listed(motn.everyone)} steal the show"
    return text[0].upper() + text[1:]


def _title_won(m: ShowMatch) -> str:
    plural = len(m.winners) > 1
    holder = m.title.get("holder_name")
    return (f"{listed(m.winners, '&')} {_s(plural, 'take')} {the(m.title['name'])} from {holder}" if holder
            else f"{listed(m.winners, '&')} {_s(plural, 'win')} the vacant {m.title['name']}")


def _told(m: ShowMatch) -> str:
    """One match as the headline's clause: a title won or kept, else who beat whom."""
    plural = len(m.winners) > 1
    winners = " & ".join(m.winners)  # partners
    # partners beaten by partners; else the beaten: one, a few named, or a crowd (a battle royale)
    losers = " & ".join(m.losers) if plural else listed(m.losers)
    if m.title and m.title["result"] == "won":
        return _title_won(m)
    if m.title and m.title["result"] == "defended":
        holder = m.title["holder_name"]
        if m.winners and holder in m.winners:
            how = UNCLEAN.get(m.method or "")
            return f"{holder} {_s(plural, 'retain')} {the(m.title['name'])} against {losers}" + (f" {how}" if how else "")
        if m.winners:
            return f"{holder} {_s(False, 'keep')} {the(m.title['name'])} despite losing to {winners} {UNCLEAN.get(m.method or '', '')}".rstrip()
        return f"{holder} {_s(False, 'keep')} {the(m.title['name'])} after {DRAWS.get(m.method or '', 'a draw')}"
    if not m.winners:
        return f"{listed(m.everyone)} fight to {DRAWS.get(m.method or '', 'a draw')}"
    how = UNCLEAN.get(m.method or "")
    if not plural and len(m.losers) > 3:
        return f"{winners} {_s(plural, 'outlast')} {COUNTS.get(len(m.losers), str(len(m.losers)))} others"
    return f"{winners} {_s(plural, 'beat')} {losers}" + (f" {how}" if how else "")


def card_show(entries: list[dict], title_changes: list[str], matches: list[ShowMatch] | None = None) -> dict:
    """The card told as a show: its headline (`headline`; without the matches' facts, the
    first title change, else the main event's headline), its rating and match of the night
    (docs/ratings.md; None when not rated or a one-match card), and the titles that changed
    hands."""
    ratings = [e["rating"] for e in entries]
    best = match_of_the_night(ratings)
    if matches:
        top = headline(matches, best)
    else:
        top = title_changes[0] if title_changes else (entries[-1]["headline"] if entries else "")
    return {"headline": top, "rating": card_rating(ratings),
            "match_of_the_night": entries[best] if best is not None else None, "title_changes": title_changes}
