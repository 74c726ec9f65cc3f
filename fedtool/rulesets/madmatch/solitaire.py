"""Mad Match solitaire: the deal, the play from the deck in fives and threes, and the score
(docs/rulings/mad-match-solitaire.md). One shuffle, rolled on the logged dice, deals the same
game to every player of a round; each plays it by its strategy's `solitaire:` choices.
Nothing else is rolled: a round replays from its seed or its log."""

from __future__ import annotations

from dataclasses import dataclass, field

from fedtool.kernel.dice import Dice

from .deck import Deck
from .engine import shuffle

SPACES = 5
PASS_GUARD = 60  # passes through the deck at most (a game stops long before: ruling S7)


@dataclass(frozen=True)
class SolitaireRules:
    score: str = "triplets"  # "triplets": completed triplets (0-15); "cards": cards in groups of two or three (0-45)
    passes: int = 0  # passes through the deck; 0: until a pass plays nothing


@dataclass
class SolitaireGame:
    """One player's game of the deal: its score, whether all 15 spaces hold a triplet, the moves."""

    name: str
    score: int
    triplets: int
    grouped: int  # cards in groups of two or three
    won: bool
    passes: int
    moves: list = field(default_factory=list)  # lines, for the writeup
    layout: dict = field(default_factory=dict)  # the table at the end


def deal(dice: Dice, label: str = "solitaire") -> list[int]:
    """The 45 Monster cards shuffled once ("you must remove the nine Action Cards"): the deal
    every player of the round plays."""
    return shuffle(list(range(45)), dice, f"{label}: shuffle the deck (the same deal for every player)")


class Table:
    """The table: five fixed spaces on the left, five active piles in the center (face-down
    cards under a face-up group), five flexible spaces on the right, the deck and its waste."""

    def __init__(self, order: list[int], deck: Deck, keep_free: int = 0, record: bool = True) -> None:
        self.record = record  # the moves told in words, for the writeup (not for odds)
        self.mon = [c // 3 for c in range(45)]
        self.names = [m.name for m in deck.monsters]
        cards = list(order)
        cards.reverse()  # dealt from the top: pop() is the next card
        self.left: list[list[int] | None] = [[cards.pop()] for _ in range(SPACES)]  # None: a blank space
        self.down: list[list[int]] = [[cards.pop()] for _ in range(SPACES)]  # "five cards across the middle, face down"
        self.up: list[list[int]] = [[] for _ in range(SPACES)]
        # each row: one face up on the leftmost pile still growing, one face down on each pile to its right
        for k in range(SPACES):
            self.up[k].append(cards.pop())
            for j in range(k + 1, SPACES):
                self.down[j].append(cards.pop())
        self.right: list[list[int]] = [[] for _ in range(SPACES)]
        self.stock = cards  # the rest, face down (pop() is the top)
        self.waste: list[int] = []
        self.keep_free = keep_free
        self.moves: list[str] = []

    def name(self, cards: list[int]) -> str:
        monster = self.names[self.mon[cards[0]]]
        return monster if len(cards) == 1 else f"{len(cards)} {monster}s"

    @staticmethod
    def verb(cards: list[int], word: str) -> str:
        """ "joins" for one card, "join" for a group."""
        return f"{word}s" if len(cards) == 1 else word

    # ---------------------------------------------------------------- moves

    def _fits(self, cards: list[int], onto: list[int] | None) -> bool:
        return bool(onto) and self.mon[onto[0]] == self.mon[cards[0]] and len(onto) + len(cards) <= 3

    def setup_pairs(self) -> None:
        """ "If matching cards are dealt during setup, they can be paired, leaving a blank space." """
        for i in range(SPACES):
            for j in range(i + 1, SPACES):
                a, b = self.left[i], self.left[j]
                if a and b and self._fits(b, a):
                    a.extend(b)
                    self.left[j] = None
                    if self.record:
                        self.moves.append(f"Setup: the {self.name(b)} at left {j + 1} joins left {i + 1}; left {j + 1} is blank.")

    def _to_left(self, cards: list[int]) -> int | None:
        """Where on the left these cards may go: onto a matching stack, or (a triplet) a blank space."""
        m, size = self.mon[cards[0]], len(cards)
        mon = self.mon
        for i, stack in enumerate(self.left):
            if stack and mon[stack[0]] == m and len(stack) + size <= 3:
                return i
        if size == 3 and None in self.left:
            return self.left.index(None)
        return None

    def _flip(self, k: int) -> None:
        if not self.up[k] and self.down[k]:
            self.up[k].append(self.down[k].pop())
            if self.record:
                self.moves.append(f"Center {k + 1} turns up {self.name(self.up[k])}.")

    def tableau_move(self) -> bool:
        """One move among the table's cards, best first; whether one was made."""
        # center: a top group onto a matching center group ("Only cards already in the center
        # section can be matched and stacked"), or onto the left; a triplet made first, then
        # moves that turn up a face-down card
        best = None
        mon, up, down = self.mon, self.up, self.down
        tops = [mon[g[0]] if g else -1 for g in up]  # each center pile's face-up monster (-1: none)
        rights = [mon[g[0]] if g else -1 for g in self.right]
        left = self.left
        lefts = [mon[g[0]] if g else -1 for g in left]
        blank = left.index(None) if None in left else None

        def to_left(m: int, size: int) -> int | None:  # `_to_left`, on the monsters above
            if m in lefts:
                for i, top in enumerate(lefts):
                    if top == m and len(left[i]) + size <= 3:
                        return i
            return blank if size == 3 else None

        for k, group in enumerate(up):
            if not group:
                continue
            m, size = tops[k], len(group)
            if tops.count(m) > 1:  # another center group of the same monster (`_fits`, by monster)
                for j, other in enumerate(up):
                    if j != k and tops[j] == m and len(other) + size <= 3:
                        rank = (size + len(other) == 3, bool(down[k]), 1)
                        if best is None or rank > best[0]:
                            best = (rank, "center", k, j)
            i = to_left(m, size)
            if i is not None:
                rank = (self.left[i] is not None and len(self.left[i]) + size == 3 or size == 3, bool(down[k]), 0)
                if best is None or rank > best[0]:
                    best = (rank, "left", k, i)
            # ruling S4: a center group may go to the right, onto a matching stack, or into an open
            # slot when that turns up a face-down card (and leaves the slots the strategy keeps free)
            r = next((j for j, top in enumerate(rights) if top == m and len(self.right[j]) + size <= 3), None) if m in rights else None
            if r is not None:
                rank = (len(self.right[r]) + len(group) == 3, bool(self.down[k]), 0)
                if best is None or rank > best[0]:
                    best = (rank, "right", k, r)
            elif self.down[k]:
                free = [j for j, stack in enumerate(self.right) if not stack]
                if len(free) > self.keep_free:
                    rank = (False, True, -1)
                    if best is None or rank > best[0]:
                        best = (rank, "right", k, free[0])
        if best is not None and (best[0][0] or best[0][1]):
            _, where, k, j = best
            group = self.up[k]
            self.up[k] = []
            if where == "center":
                self.up[j].extend(group)
                if self.record:
                    self.moves.append(f"The {self.name(group)} at center {k + 1} {self.verb(group, 'join')} center {j + 1}" + (" (a triplet)." if len(self.up[j]) == 3 else "."))
            elif where == "right":
                opened = not self.right[j]
                self.right[j].extend(group)
                if self.record:
                    self.moves.append(f"The {self.name(group)} at center {k + 1} " + (f"{self.verb(group, 'open')} right {j + 1}." if opened else
                                      f"{self.verb(group, 'join')} right {j + 1}" + (" (a triplet)." if len(self.right[j]) == 3 else ".")))
            else:
                self._place_left(j, group, f"center {k + 1}")
            self._flip(k)
            return True
        # the right: a triplet into an open center slot, or stacks onto the left
        for k, stack in enumerate(self.right):
            if not stack:
                continue
            i = to_left(rights[k], len(stack))
            if i is not None:
                self.right[k] = []
                self._place_left(i, stack, f"right {k + 1}")
                return True
            if len(stack) == 3:
                for j in range(SPACES):
                    if not self.up[j] and not self.down[j]:
                        self.right[k] = []
                        self.up[j] = stack
                        if self.record:
                            self.moves.append(f"The triplet of {self.names[self.mon[stack[0]]]}s moves from right {k + 1} to the open center {j + 1}.")
                        return True
        return False

    def _place_left(self, i: int, cards: list[int], source: str) -> None:
        if self.left[i] is None:
            self.left[i] = list(cards)
            if self.record:
                self.moves.append(f"The triplet of {self.names[self.mon[cards[0]]]}s from {source} fills the blank left {i + 1}.")
        else:
            self.left[i].extend(cards)
            if self.record:
                self.moves.append(f"The {self.name(cards)} from {source} {self.verb(cards, 'join')} left {i + 1}" + (" (a triplet)." if len(self.left[i]) == 3 else "."))

    def play_waste(self) -> bool:
        """The visible top card of the deck played, if it can be: onto a matching left or right
        stack, or into an open right slot ("open" a monster triplet)."""
        if not self.waste:
            return False
        card = [self.waste[-1]]
        left = self._to_left(card)
        right = next((k for k, stack in enumerate(self.right) if self._fits(card, stack)), None)
        for where, spot in (("left", left), ("right", right)):
            if spot is None:
                continue
            self.waste.pop()
            if where == "left":
                self._place_left(spot, card, "the deck")
            else:
                self.right[spot].extend(card)
                if self.record:
                    self.moves.append(f"{self.name(card)} from the deck joins right {spot + 1}" + (" (a triplet)." if len(self.right[spot]) == 3 else "."))
            return True
        free = [k for k, stack in enumerate(self.right) if not stack]
        if len(free) > self.keep_free:
            self.waste.pop()
            self.right[free[0]] = card
            if self.record:
                self.moves.append(f"{self.name(card)} from the deck opens right {free[0] + 1}.")
            return True
        return False

    def deal_cards(self, count: int) -> int:
        dealt = 0
        while dealt < count and self.stock:
            self.waste.append(self.stock.pop())
            dealt += 1
        return dealt

    # ---------------------------------------------------------------- scoring

    def groups(self) -> list[list[int]]:
        return [s for s in self.left if s] + [g for g in self.up if g] + [s for s in self.right if s]

    def triplets(self) -> int:
        return sum(1 for g in self.groups() if len(g) == 3)

    def grouped(self) -> int:
        return sum(len(g) for g in self.groups() if len(g) >= 2)

    def won(self) -> bool:
        """ "group all monsters into 15 spaces": every space a triplet, nothing face down."""
        return all(s and len(s) == 3 for s in self.left) and all(len(g) == 3 and not d for g, d in zip(self.up, self.down)) \
            and all(len(s) == 3 for s in self.right)

    def layout(self) -> dict:
        def show(cards):
            return self.name(cards) if cards else ""
        return {"left": [show(s) if s else "(blank)" for s in self.left],
                "center": [{"down": len(d), "up": show(g)} for d, g in zip(self.down, self.up)],
                "right": [show(s) for s in self.right], "deck": len(self.stock) + len(self.waste)}


def play_solitaire(order: list[int], deck: Deck, name: str, rules: SolitaireRules, keep_free: int = 0, record: bool = True) -> SolitaireGame:
    """One player's game of the deal: setup pairs, then "count five cards and show them face up
    ... Continue playing the visible cards as long as you can. Once you have an unplayable card,
    deal another three cards in the same manner"; the waste turned over for another pass until
    a pass plays nothing (or the fed's `solitaire_passes`). Without `record` the moves are not
    told and the layout not drawn: the same game, the same score."""
    table = Table(order, deck, keep_free, record)
    table.setup_pairs()
    passes = 0
    limit = rules.passes or PASS_GUARD
    while passes < limit:
        passes += 1
        if table.record:
            table.moves.append(f"Pass {passes}: the deck is {len(table.stock)} cards.")
        progress = False
        first = True
        while table.stock:
            table.deal_cards(5 if first else 3)
            first = False
            while True:
                if table.tableau_move():
                    progress = True
                elif table.play_waste():
                    progress = True
                else:
                    break
        while table.tableau_move():
            progress = True
        if table.won() or not progress or not table.waste:
            break
        table.stock = table.waste[::-1]  # the waste turned over: the next pass
        table.waste = []
    triplets, grouped = table.triplets(), table.grouped()
    score = triplets if rules.score == "triplets" else grouped
    return SolitaireGame(name, score, triplets, grouped, table.won(), passes, table.moves, table.layout() if record else {})


@dataclass
class Round:
    """A solitaire round: every player on the one deal; the highest score wins (ruling S8)."""

    variation: str
    format: str
    games: list  # SolitaireGame per player
    totals: list
    wins: list
    winner: int | None
    order: list  # the deal
    log: list = field(default_factory=list)


def play_round(deck: Deck, names: list[str], keep_free: list[int], dice: Dice, rules: SolitaireRules, record: bool = True) -> Round:
    """Every player on the one deal (the only roll). Without `record` (odds), players keeping as
    many right slots free play the same game, played once."""
    order = deal(dice)
    if record:
        games = [play_solitaire(order, deck, name, rules, free) for name, free in zip(names, keep_free)]
    else:
        played: dict[int, SolitaireGame] = {}
        games = []
        for name, free in zip(names, keep_free):
            if free not in played:
                played[free] = play_solitaire(order, deck, name, rules, free, record=False)
            games.append(played[free])
    totals = [g.score for g in games]
    top = max(totals)
    leaders = [p for p, t in enumerate(totals) if t == top]
    if len(games) == 1:
        winner = 0 if games[0].won else None
    else:
        winner = leaders[0] if len(leaders) == 1 else None
    wins = [1 if p == winner else 0 for p in range(len(games))]
    return Round("solitaire", "solitaire", games, totals, wins, winner, order)
