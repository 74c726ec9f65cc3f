"""A Mad Match told turn by turn: the icon battle, what each player turned and remembered,
every collection, steal and destruction, the board after each turn (face down, face up,
frozen, collected) and the scoring table at the end. Plain data for the templates, which
escape every name."""

from __future__ import annotations

from .deck import COPIES, Action, Monster
from .engine import ROWS, Match

KINDS = {"strike": "all three in one turn", "spare": "a spare", "pair": "a pair", "single": "a single"}


def _card_name(card) -> str:
    return card.name


def describe_match(setup: dict, result: Match) -> dict:
    deck, names = setup["deck"], setup["names"]
    classic = setup["variation"] == "classic"
    cards = [m for m in deck.monsters for _ in range(2)] if classic else deck.cards()
    columns = 6 if classic else 9
    games = []
    for game in result.games:
        battle = []
        for row in game.battle:
            shown = [f"{names[p]} {cards[c].name} ({cards[c].icon if isinstance(cards[c], Monster) else 'no icon'})" for p, c in enumerate(row) if c is not None]
            battle.append(", ".join(shown))
        turns = []
        for t in game.log:
            who = names[t.player]
            lines = []
            if t.used is not None:
                c, effect, q, m, moved = t.used
                monster = deck.monsters[m]
                what = f"{moved} {monster.name}" + ("" if moved == 1 else "s")
                verb = "steals" if effect == "steal" else "destroys"
                lines.append(f"{who} uses {cards[c].name} instead of turning cards: {verb} {what} from {names[q]}.")
            else:
                for pos, c, how in t.reveals:
                    card = cards[c]
                    kind = "Action card" if isinstance(card, Action) else ""
                    lines.append(f"{who} turns {_where(pos, columns)} ({how}): {card.name}{' (' + kind + ')' if kind else ''}.")
                for c in t.freeze:
                    extra = " It extends to the next player's turn." if cards[c].extends else ""
                    lines.append(f"{cards[c].name} is used at once: an extra card is turned and what is not collected stays frozen face up.{extra}")
                for c in t.actions:
                    lines.append(f"{who} collects {cards[c].name} to use later.")
                missed = [pos for pos, ok in t.recalls if not ok]
                if missed:
                    lines.append(f"{who} could not recall {', '.join(_where(pos, columns) for pos in missed)}.")
                for m, count, how in t.collected:
                    lines.append(f"{who} collects {count} {deck.monsters[m].name}" + ("" if count == 1 else "s") + f": {KINDS.get(how, how)}.")
                for pos, c, why in t.removed:
                    lines.append(f"{cards[c].name} at {_where(pos, columns)} is removed from play: {why}.")
                if t.frozen:
                    lines.append("Frozen face up: " + ", ".join(_where(pos, columns) for pos in t.frozen) + ".")
            board = []
            for r in range(len(t.board) // columns):
                row = []
                for k in range(columns):
                    pos = r * columns + k
                    code = t.board[pos]
                    label = cards[t.faces[pos]].name if pos in t.faces else ""
                    row.append({"code": code, "label": label, "where": _where(pos, columns)})
                board.append(row)
            turns.append({"number": t.number, "player": who, "lines": lines, "board": board,
                          "scores": ", ".join(f"{names[p]} {s}" for p, s in enumerate(t.scores))})
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
            "number": game.number, "first": names[game.first], "battle": battle, "turns": turns, "table": table,
            "orphans": [cards[c].name for c in game.orphans], "called": game.called,
            "result": (f"{winner} wins game {game.number}" if winner else f"Game {game.number} is tied") + ": "
                      + ", ".join(f"{names[p]} {s}" for p, s in enumerate(game.scores)) + (" pairs" if classic else ""),
        })
    if result.winner is not None:
        how = {"best_of_three": f"{result.wins[result.winner]} games to {max(w for p, w in enumerate(result.wins) if p != result.winner)}",
               "target": f"{result.totals[result.winner]} points to {max(t for p, t in enumerate(result.totals) if p != result.winner)}",
               "single": f"{result.totals[result.winner]}-{max(t for p, t in enumerate(result.totals) if p != result.winner)}"}[result.format]
        headline = f"{'Mad Match' if not classic else 'Matching game'}: {names[result.winner]} wins, {how}"
    else:
        headline = f"{'Mad Match' if not classic else 'Matching game'}: {', '.join(names)} draw"
    return {"headline": headline, "names": names, "variation": "the classic matching game" if classic else "Mad Match", "solitaire": False,
            "format": {"best_of_three": "best two out of three", "target": f"to {setup['target']} points", "single": "one game"}[result.format],
            "games": games, "totals": list(result.totals), "wins": list(result.wins), "columns": columns,
            "totals_line": ", ".join(f"{names[p]} {t} points, {result.wins[p]} game{'s' if result.wins[p] != 1 else ''}" for p, t in enumerate(result.totals))}


def _where(pos: int, columns: int) -> str:
    return f"{ROWS[pos // columns]}{pos % columns + 1}"


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
