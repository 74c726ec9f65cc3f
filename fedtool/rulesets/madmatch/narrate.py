"""A Mad Match told turn by turn, as a game: the icon battle, each turn's story in the
phrases of data/commentary.yaml (with the fed's templates/commentary/madmatch.yaml over it),
chosen by the match's key through a fresh `Booking.teller()` and never by the game's dice;
beside it the exact record of every turn (each card turned, where and why), the board after
each beat (face down, face up, frozen, collected) and the scoring table at the end. A run of
turns in which nothing happens is told once ("turns 5 to 9 go by without a match"), its
turns still listed. Plain data for the templates, which escape every name."""

from __future__ import annotations

from .deck import COPIES, Action, Monster
from .engine import ROWS, Match

KINDS = {"strike": "all three in one turn", "spare": "a spare", "pair": "a pair", "single": "a single"}
PLAYERS = {1: "one", 2: "two", 3: "three", 4: "four"}
COUNTS = {1: "one", 2: "two", 3: "three"}
HOW = {"remembered": "remembered", "denied": "remembered, to deny a spare", "an unseen card": "unseen",
       "an unknown card": "unknown", "a card it has forgotten": "forgotten", "a card it remembers but cannot use": "known"}
CELL = {".": "down", "r": "turned", "f": "frozen", "c": "collected", " ": "empty"}


def _plural(name: str, count: int = 2) -> str:
    return name if count == 1 else name + "s"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _where(pos: int, columns: int) -> str:
    return f"{ROWS[pos // columns]}{pos % columns + 1}"


def _standing(scores: tuple, p: int) -> str:
    top = max(scores)
    if scores[p] < top:
        return "behind"
    return "ahead" if list(scores).count(top) == 1 else "level"


def _leader(scores: tuple) -> int | None:
    top = max(scores)
    return scores.index(top) if top > 0 and list(scores).count(top) == 1 else None


def _quiet(t) -> bool:
    """A turn in which nothing happens: nothing collected, removed, kept, frozen or used."""
    return not (t.collected or t.removed or t.actions or t.freeze or t.used is not None or t.frozen)


class Teller:
    """The match's teller with the facts every phrase of it is chosen by."""

    def __init__(self, teller, facts: dict):
        self.teller, self.facts = teller, facts

    def say(self, kind: str, facts: dict | None = None, **values) -> str:
        return self.teller.say(kind, {**self.facts, **(facts or {})}, **values)


def describe_match(setup: dict, result: Match, teller) -> dict:
    deck, names = setup["deck"], setup["names"]
    classic = setup["variation"] == "classic"
    cards = [m for m in deck.monsters for _ in range(2)] if classic else deck.cards()
    columns = 6 if classic else 9
    n = len(names)
    story = Teller(teller, {"variation": setup["variation"], "players": PLAYERS.get(n, str(n))})
    games = []
    for game in result.games:
        battle = []
        for row in game.battle:
            shown = [f"{names[p]} {cards[c].name} ({cards[c].icon if isinstance(cards[c], Monster) else 'no icon'})" for p, c in enumerate(row) if c is not None]
            battle.append(", ".join(shown))
        opening = story.say("game_start", game=game.number, first=names[game.first], players=_and(names))
        beats = []
        quiet: list = []
        leader = None
        shown = tuple([0] * n)

        def flush_quiet() -> None:
            if not quiet:
                return
            if len(quiet) == 1:
                t = quiet[0]
                who = names[t.player]
                facts = {"standing": _standing(t.scores, t.player)}
                text = [story.say("miss", facts, name=who)]
                text += [story.say("forgotten", facts, name=who, where=_where(pos, columns)) for pos, ok in t.recalls if not ok]
                beats.append({"label": f"Turn {t.number}, {who}", "text": " ".join(text), "turns": [record(t)], "scores": "",
                              "board": None})
            else:
                first, last = quiet[0].number, quiet[-1].number
                text = story.say("quiet", first=first, last=last, count=len(quiet), names=_and(sorted({names[t.player] for t in quiet}, key=names.index)))
                beats.append({"label": f"Turns {first}-{last}", "text": text, "turns": [record(t) for t in quiet], "scores": "",
                              "board": None})
            quiet.clear()

        def record(t) -> dict:
            who = names[t.player]
            if t.used is not None:
                c, effect, q, m, moved = t.used
                what = f"{COUNTS.get(moved, moved)} {_plural(deck.monsters[m].name, moved)}"
                done = f"uses {cards[c].name}: {what} {'stolen from' if effect == 'steal' else 'destroyed from'} {names[q]}"
            else:
                shown = []
                for pos, c, how in t.reveals:
                    label = HOW.get(how, "a gamble" if how.startswith("a gamble") else how)
                    shown.append(f"{_where(pos, columns)} {cards[c].name}" + (", an Action card" if isinstance(cards[c], Action) else "") + f" ({label})")
                done = "turns " + ", ".join(shown) if shown else "turns nothing (the grid is empty)"
                missed = [_where(pos, columns) for pos, ok in t.recalls if not ok]
                if missed:
                    done += f"; could not recall {', '.join(missed)}"
                if t.frozen:
                    done += "; frozen face up: " + ", ".join(_where(pos, columns) for pos in t.frozen)
            return {"number": t.number, "player": who, "done": done, "line": f"Turn {t.number}: {who} {done}."}

        def board_of(t) -> list:
            """The board after turn t: per row, its letter and each cell's state and the card
            shown face up there (none for a card face down or a place emptied)."""
            rows = []
            faces = t.faces
            for r in range(len(t.board) // columns):
                row = []
                for pos in range(r * columns, (r + 1) * columns):
                    code = t.board[pos]
                    row.append((CELL[code], cards[faces[pos]].name if code != "." and pos in faces else ""))
                rows.append((ROWS[r], row))
            return rows

        for t in game.log:
            who = names[t.player]
            if _quiet(t):
                quiet.append(t)
                continue
            flush_quiet()
            facts = {"standing": _standing(t.scores, t.player)}
            text = []
            if t.used is not None:
                c, effect, q, m, moved = t.used
                monster = deck.monsters[m]
                text.append(story.say(effect, facts, name=who, card=cards[c].name, victim=names[q], monster=monster.name,
                                      monsters=_plural(monster.name), cards=f"{COUNTS.get(moved, moved)} {_plural(monster.name, moved)}"))
            else:
                for c in t.freeze:
                    text.append(story.say("freeze", facts, name=who, card=cards[c].name))
                    if cards[c].extends and t.number < game.log[-1].number:  # told only when the next turn is played
                        text.append(story.say("freeze_extends", facts, name=who, card=cards[c].name, next=names[(t.player + 1) % n]))
                for c in t.actions:
                    text.append(story.say("action_collected", facts, name=who, card=cards[c].name))
                recalled = {pos for pos, ok in t.recalls if ok}
                for pos, c, how in t.reveals:  # the first card turned from memory (the record gives the rest)
                    if how in ("remembered", "denied") and pos in recalled and isinstance(cards[c], Monster):
                        text.append(story.say("remembered", facts, name=who, monster=cards[c].name, where=_where(pos, columns)))
                        break
                text += [story.say("forgotten", facts, name=who, where=_where(pos, columns)) for pos, ok in t.recalls if not ok]
                for m, count, how in t.collected:
                    monster = deck.monsters[m]
                    kind = {"strike": "triplet", "spare": "spare"}.get(how, "pair")
                    points = monster.value(COPIES if kind != "pair" else 2, kind == "triplet") if not classic else 1
                    text.append(story.say(kind, facts, name=who, monster=monster.name, monsters=_plural(monster.name), points=points))
                for pos, c, why in t.removed:
                    owner = why.removeprefix("the third card of ").removesuffix("'s pair")
                    text.append(story.say("removed", facts, name=who, monster=cards[c].name, owner=owner))
                if not t.collected and not t.removed and not text:
                    text.append(story.say("miss", facts, name=who))
            now = _leader(t.scores)
            if now is not None and leader is not None and now != leader:
                text.append(story.say("lead", {"standing": "ahead"}, name=names[now], other=names[leader]))
            if now is not None:
                leader = now
            changed = t.scores != shown  # the scores are told when they change (a quiet turn changes none)
            shown = t.scores
            beats.append({"label": f"Turn {t.number}, {who}", "text": " ".join(text), "turns": [record(t)], "scores": _scores(names, t.scores) if changed else "",
                          "board": board_of(t) if t.used is None else None})
        flush_quiet()
        ending = []
        if game.orphans:
            ending.append(story.say("orphans", cards=_and([cards[c].name for c in game.orphans])))
        if game.called:
            ending.append(story.say("called", game=game.number))
        unit = " pairs" if classic else ""
        if game.winner is not None:
            others = _and([f"{names[p]} {s}{unit}" for p, s in enumerate(game.scores) if p != game.winner])
            ending.append(story.say("game_won", winner=names[game.winner], game=game.number, score=f"{game.scores[game.winner]}{unit}", others=others))
        else:
            ending.append(story.say("game_tied", game=game.number, score=f"{max(game.scores)}{unit}"))
        table = []
        for p, coll in enumerate(game.collections):
            rows = []
            for m, (count, strike) in sorted(coll.items()):
                monster = deck.monsters[m]
                if classic:
                    rows.append({"monster": monster.name, "cards": count, "kind": "pair", "per_card": "", "points": 1})
                    continue
                kind = ("strike" if strike else "spare") if count >= COPIES else "pair" if count == 2 else "single"
                per = getattr(monster, kind)
                rows.append({"monster": monster.name, "cards": count, "kind": KINDS[kind], "per_card": per, "points": monster.value(count, strike)})
            table.append({"name": names[p], "rows": rows, "total": game.scores[p], "held": [cards[c].name for c in game.hands[p]]})
        winner = names[game.winner] if game.winner is not None else None
        games.append({
            "number": game.number, "first": names[game.first], "battle": battle, "opening": opening, "beats": beats, "ending": " ".join(ending),
            "table": table, "orphans": [cards[c].name for c in game.orphans], "called": game.called,
            "result": (f"{winner} wins game {game.number}" if winner else f"Game {game.number} is tied") + ": "
                      + ", ".join(f"{names[p]} {s}" for p, s in enumerate(game.scores)) + (" pairs" if classic else ""),
        })
    title = "Mad Match" if not classic else "Matching game"
    if result.winner is not None:
        how = {"best_of_three": f"{result.wins[result.winner]} games to {max(w for p, w in enumerate(result.wins) if p != result.winner)}",
               "target": f"{result.totals[result.winner]} points to {max(t for p, t in enumerate(result.totals) if p != result.winner)}",
               "single": f"{result.totals[result.winner]}-{max(t for p, t in enumerate(result.totals) if p != result.winner)}"}[result.format]
        headline = f"{title}: {names[result.winner]} wins, {how}"
        end = story.say("match_won", winner=names[result.winner], how=how)
    else:
        headline = f"{title}: {', '.join(names)} draw"
        end = story.say("match_drawn", names=_and(names))
    return {"headline": headline, "names": names, "variation": "the classic matching game" if classic else "Mad Match", "solitaire": False,
            "format": {"best_of_three": "best two out of three", "target": f"to {setup['target']} points", "single": "one game"}[result.format],
            "games": games, "totals": list(result.totals), "wins": list(result.wins), "columns": columns, "end": end,
            "totals_line": ", ".join(f"{names[p]} {t} points, {result.wins[p]} game{'s' if result.wins[p] != 1 else ''}" for p, t in enumerate(result.totals))}


def _scores(names: list[str], scores: tuple) -> str:
    return ", ".join(f"{names[p]} {s}" for p, s in enumerate(scores))


def describe_round(setup: dict, result) -> dict:
    """A solitaire round: the deal every player played, then each player's game, move by move,
    the table at the end and the score."""
    deck, names = setup["deck"], setup["names"]
    rules = setup["solitaire"]
    cards = deck.cards()
    players = []
    for p, game in enumerate(result.games):
        players.append({"name": names[p], "moves": game.moves, "layout": game.layout, "triplets": game.triplets, "grouped": game.grouped,
                        "score": game.score, "won": game.won, "passes": game.passes})
    measure = "completed triplets" if rules.score == "triplets" else "cards grouped in twos and threes"
    if len(names) == 1:
        game = result.games[0]
        headline = f"Mad Match solitaire: {names[0]} " + ("groups every monster" if game.won else f"scores {game.score} ({measure})")
    elif result.winner is not None:
        others = max(t for q, t in enumerate(result.totals) if q != result.winner)
        headline = f"Mad Match solitaire: {names[result.winner]} wins, {result.totals[result.winner]} to {others} {measure}"
    else:
        headline = f"Mad Match solitaire: a tie at {max(result.totals)} {measure}"
    return {"headline": headline, "names": names, "variation": "Mad Match solitaire", "format": "the same deal for every player",
            "solitaire": True, "players": players, "measure": measure,
            "deal_left": [cards[c].name for c in result.order[:5]],
            "deal_up": [cards[result.order[k]].name for k in (10, 15, 19, 22, 24)],  # the dealing order of the instructions (solitaire.Table)
            "totals_line": ", ".join(f"{names[p]} {t}" for p, t in enumerate(result.totals))}
