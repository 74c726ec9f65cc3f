"""The simulation tables of docs/mad-match-deck.md: fedtool's Mad Match deck played many
times by the built-in default strategy (memory 14 on a d20), from seeds 0, 1, 2, ...

    python benchmarks/madmatch_deck_report.py [--games N]

Prints Markdown: scores and turns by number of players, how often each Action card is used
and decides a game, Player One's edge, what memory is worth, and the gamble's worth.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from fedtool.kernel.dice import SeededDice
from fedtool.rulesets.madmatch.deck import load_deck
from fedtool.rulesets.madmatch.engine import Play, Rules, Side, play_match
from fedtool.rulesets.madmatch.strategy import Strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4000)
    args = parser.parse_args()
    deck = load_deck()
    cards = deck.cards()
    rules = Rules()
    print(f"Each row: {args.games:,} games, seeds 0 to {args.games - 1}, default strategies, memory 14 on a d20.\n")
    print("| players | mean score | winner's mean | runner-up's mean | mean margin | mean turns | longest | strikes a game | spares a game | orphans | Player One wins | no winner |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    used: dict[int, Counter] = {}
    decided: dict[int, Counter] = {}
    for n in (2, 3, 4):
        sides = [Side(f"P{p}", 14, Strategy()) for p in range(n)]
        scores, winners, runners, margins, turns, strikes, spares, orphans = [], [], [], [], [], [], [], []
        first_wins = ties = 0
        used[n], decided[n] = Counter(), Counter()
        for seed in range(args.games):
            game = Play(deck, sides, SeededDice(seed), rules).run()
            ranked = sorted(game.scores, reverse=True)
            scores += game.scores
            winners.append(ranked[0])
            runners.append(ranked[1])
            margins.append(ranked[0] - ranked[1])
            turns.append(game.turns)
            strikes.append(sum(1 for coll in game.collections for count, strike in coll.values() if strike))
            spares.append(sum(1 for coll in game.collections for count, strike in coll.values() if count == 3 and not strike))
            orphans.append(len(game.orphans))
            first_wins += game.winner == game.first
            ties += game.winner is None
            for _, _, c, _ in game.used:
                used[n][cards[c].id] += 1
            if game.deciding is not None:
                decided[n][cards[game.deciding].id] += 1
        g = args.games
        print(f"| {n} | {statistics.mean(scores):.1f} | {statistics.mean(winners):.1f} | {statistics.mean(runners):.1f} | {statistics.mean(margins):.1f} | "
              f"{statistics.mean(turns):.1f} | {max(turns)} | {statistics.mean(strikes):.2f} | {statistics.mean(spares):.2f} | {statistics.mean(orphans):.2f} | "
              f"{first_wins / g:.1%} (fair: {1 / n:.1%}) | {ties / g:.1%} |")
    print("\nAction cards: per game, how often each is used (a Freeze when turned, the others instead of a turn) and how often "
          "it **decides** the game (the winner used it, and its swing was more than the winning margin).\n")
    print("| card | copies | effect | used, 2 players | decides, 2 players | used, 3 | decides, 3 | used, 4 | decides, 4 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for action in deck.actions:
        row = [f"{used[n][action.id] / args.games:.2f} | {decided[n][action.id] / args.games:.1%}" for n in (2, 3, 4)]
        what = action.effect + (" (extends)" if action.extends else "") + ("" if action.effect == "freeze" else f" {action.cards}")
        print(f"| {action.name} | {action.copies} | {what} | " + " | ".join(row) + " |")
    print("\nMemory: two players, one with the memory shown against one with memory 14 and the default strategy; the first "
          f"turns unseen cards first (`unknown: unseen_first`) or gambles (`half_remembered_first`, the default); {args.games // 4:,} games each.\n")
    print("| memory | wins, unseen first | wins, gambling |")
    print("|---|---|---|")
    for memory in (0, 6, 10, 14, 18, 20):
        row = []
        for unknown in ("unseen_first", "half_remembered_first"):
            sides = [Side("A", memory, Strategy(unknown=unknown)), Side("B", 14, Strategy())]
            wins = sum(Play(deck, sides, SeededDice(seed), rules).run().winner == 0 for seed in range(args.games // 4))
            row.append(f"{wins / (args.games // 4):.1%}")
        print(f"| {memory} | " + " | ".join(row) + " |")
    print(f"\nMatches ({args.games // 10:,} each): games a match takes.\n")
    print("| match | players | mean games | most games |")
    print("|---|---|---|---|")
    for fmt, n, target in (("best_of_three", 2, 0), ("best_of_three", 3, 0), ("target", 2, 250), ("target", 3, 150), ("target", 4, 150)):
        sides = [Side(f"P{p}", 14, Strategy()) for p in range(n)]
        counts = [len(play_match(deck, sides, SeededDice(seed), rules, fmt=fmt, target=target).games) for seed in range(args.games // 10)]
        label = "best two out of three" if fmt == "best_of_three" else f"to {target} points"
        print(f"| {label} | {n} | {statistics.mean(counts):.2f} | {max(counts)} |")


if __name__ == "__main__":
    main()
