"""Mad Match played by mail: the card-matching game of the instructions, with each side's
memory rolled through the logged dice and its strategy choosing what to turn and when to
use its Action cards (docs/rulings/mad-match.md rules every gap; docs/mad-match-strategy.md
is the strategy language).

Pure: every chance is a roll of the `Dice` handed in, logged with its purpose; the engine
never imports `random`, so a game replays from its seed or its log. Where a card is: the
grid, a player's hand (Action cards held), a player's collection, or out of play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fedtool.kernel.dice import Dice

from .deck import BEATS, Action, Deck, Monster
from .strategy import Strategy

ROWS = "ABCDEF"


@dataclass(frozen=True)
class Rules:
    """The fed's settings an engine plays by (docs/rulings/mad-match.md, the settings table)."""

    memory_die: int = 20  # a recall is a roll of this die, at or under the side's memory less the fading
    memory_fade: int = 4  # every this many turns since a card was seen, one less to roll under
    frozen_cards: str = "stay"  # "stay": face up until collected; "turn_back": face down when the freeze ends
    turn_limit: int = 400  # a game is called after this many turns (the orphans removed)
    classic_extra_turn: bool = False  # classic: a player who finds a pair goes again


@dataclass
class Side:
    name: str
    memory: int  # on the memory die: recalls a card just seen on this or less
    strategy: Strategy


@dataclass
class Turn:
    """A turn told for the writeup (kept only when recording)."""

    number: int
    player: int
    kind: str  # "turn", "action"
    reveals: list = field(default_factory=list)  # (position, card index, how chosen)
    recalls: list = field(default_factory=list)  # (position, recalled?)
    collected: list = field(default_factory=list)  # (monster index, card count, "strike"/"spare"/"pair"/...)
    removed: list = field(default_factory=list)  # (position, card index, why)
    frozen: list = field(default_factory=list)  # positions frozen this turn
    actions: list = field(default_factory=list)  # Action cards collected (card index)
    freeze: list = field(default_factory=list)  # Freeze cards used (card index)
    used: tuple | None = None  # (action card index, effect, target player, monster, cards moved)
    board: str = ""  # one code per position (see `board_codes`)
    faces: dict = field(default_factory=dict)  # position -> card index, for the cards shown face up on the board
    scores: tuple = ()


@dataclass
class Game:
    """One game's result: scores by the matrix over each collection, who won, how it went."""

    number: int
    variation: str
    first: int  # Player One
    battle: list  # the icon battle: (card index per contender or None, ...), per comparison
    scores: list
    winner: int | None
    turns: int
    collections: list  # per player: {monster index: (count, strike)}
    hands: list  # per player: Action cards held at the end (card indices)
    out: list  # cards out of play
    grid_left: list  # cards left in the grid (Action cards no one turned)
    orphans: list  # Monster cards removed at the end as orphans
    used: list  # (turn, player, action card index, swing): each Action card used, once
    called: bool  # the turn limit ended it
    log: list = field(default_factory=list)  # Turn records when recording
    deciding: int | None = None  # the card index of the Action card that decided the game (see `deciding_action`)
    pairs: list = field(default_factory=list)  # classic: pairs per player
    cards: list = field(default_factory=list)  # per player: the card indices collected


# ------------------------------------------------------------------------- shuffles and the battle


def shuffle(cards: list, dice: Dice, purpose: str) -> list:
    """A Fisher-Yates shuffle on one logged roll of d(n), d(n-1), ... d2."""
    n = len(cards)
    order = list(cards)
    if n < 2:
        return order
    faces = dice.roll_each(list(range(n, 1, -1)), purpose)
    for i, face in enumerate(faces):
        j = i + face - 1
        order[i], order[j] = order[j], order[i]
    return order


def icon_of(card) -> str | None:
    return card.icon if isinstance(card, Monster) else None


def icon_battle(cards: list, players: int, dice: Dice, label: str) -> tuple[int, list]:
    """Who is Player One: the deck shuffled, five cards dealt to each player, revealed one at a
    time and compared like Rock Paper Scissors (ruling R3 for an Action card's missing icon,
    three or four players, and five ties running)."""
    deck = shuffle(list(range(len(cards))), dice, f"{label}: shuffle for the icon battle (Who is Player One?)")
    alive = list(range(players))
    per = len(deck) // players
    rows = []
    for k in range(per):
        shown = {p: deck[k * players + p] for p in alive}
        rows.append(tuple(shown.get(p) for p in range(players)))
        icons = {p: icon_of(cards[c]) for p, c in shown.items()}
        present = {i for i in icons.values() if i}
        if len(present) == 2:
            a, b = sorted(present)
            best = a if BEATS[a] == b else b
        elif len(present) == 1 and any(i is None for i in icons.values()):
            best = next(iter(present))  # an icon beats no icon
        else:
            continue  # a tie: the next cards are compared
        alive = [p for p in alive if icons[p] == best]
        if len(alive) == 1:
            return alive[0], rows
    return alive[0], rows  # ruling R3: still tied when the deck runs out: the first in card order


# ------------------------------------------------------------------------- the game


def _newest_first(places: dict) -> list:
    """Remembered positions, the most recently seen first (one alone needs no sorting)."""
    return list(places) if len(places) == 1 else sorted(places, key=places.get, reverse=True)


class Play:
    """One game of Mad Match (or of the classic matching game) in progress."""

    def __init__(self, deck: Deck, sides: list[Side], dice: Dice, rules: Rules, variation: str = "mad_match", number: int = 1,
                 record: bool = False, label: str = "") -> None:
        self.deck, self.sides, self.dice, self.rules, self.variation = deck, sides, dice, rules, variation
        self.number, self.record = number, record
        self.label = label or f"game {number}"
        classic = variation == "classic"
        self.classic = classic
        if classic:  # "remove all nine Action Cards and one copy of each of the 15 monsters"
            cards = [m for m in deck.monsters for _ in range(2)]
            self.columns, self.per_turn = 6, 2
        else:
            cards = deck.cards()
            self.columns, self.per_turn = 9, 3
        self.cards = cards
        n = len(sides)
        self.mon = [c.index if isinstance(c, Monster) else -1 for c in cards]
        self.first, self.battle = icon_battle(cards, n, dice, self.label)
        order = shuffle(list(range(len(cards))), dice, f"{self.label}: shuffle the deck and deal the grid")
        self.grid = order  # position -> card index, -1 once empty
        self.frozen: set[int] = set()
        self.grid_count = [0] * len(deck.monsters)
        for c in order:
            if self.mon[c] >= 0:
                self.grid_count[self.mon[c]] += 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.colls: list[list[list[int]]] = [[[] for _ in deck.monsters] for _ in range(n)]
        self.strikes: list[set[int]] = [set() for _ in range(n)]
        self.out: list[int] = []
        self.orphans: list[int] = []
        self.used: list = []
        # memory: per player, per monster, the face-down positions seen and the turn each was last seen
        self.mem: list[list[dict[int, int]]] = [[{} for _ in deck.monsters] for _ in range(n)]
        seen: set[int] = set()  # every player sees every card turned: one set, shared
        self.seen: list[set[int]] = [seen] * n
        self.known: list[dict[int, int]] = [{} for _ in range(n)]  # per player: remembered position -> monster
        self.pair_value = [m.pair for m in deck.monsters]
        self.pairs_held: list[set[int]] = [set() for _ in range(n)]  # per player: the monsters it holds exactly two of
        self.spare_ok = [[side.strategy.takes_spare(m) for m in deck.monsters] for side in sides]
        self.down: set[int] = set(range(len(order)))  # face down in the grid
        self.turn = 0
        self.freeze_turn = 0  # the last Freeze turn
        self.log: list[Turn] = []
        self.pairs = [0] * n

    # ---------------------------------------------------------------- scores

    def score(self, p: int) -> int:
        if self.classic:
            return self.pairs[p]
        total = 0
        coll, strikes = self.colls[p], self.strikes[p]
        for m, cards in enumerate(coll):
            if cards:
                total += self.deck.monsters[m].value(len(cards), m in strikes)
        return total

    def where(self, pos: int) -> str:
        return f"{ROWS[pos // self.columns]}{pos % self.columns + 1}"

    # ---------------------------------------------------------------- memory

    def _recall(self, p: int, pos: int, m: int, recalled: dict) -> bool:
        """Whether player p remembers that the card at `pos` is monster m: a roll of the memory
        die at or under the side's memory, one less for every `memory_fade` turns since the card
        was seen (ruling R13). Certain either way: no roll. A failed recall forgets the card."""
        if pos in recalled:
            return recalled[pos]
        seen = self.mem[p][m][pos]
        ago = self.turn - seen
        need = self.sides[p].memory - ago // self.rules.memory_fade
        die = self.rules.memory_die
        if need >= die:
            ok = True
        elif need < 1:
            ok = False
        else:
            ok = self.dice.roll(1, die, f"{self.label} turn {self.turn}: {self.sides[p].name} recalls {self.where(pos)} "
                                        f"(seen {ago} turn{'s' if ago != 1 else ''} ago; {need} or less)")[0] <= need
        recalled[pos] = ok
        if not ok:
            del self.mem[p][m][pos]
            del self.known[p][pos]
        if self.record:
            self.current.recalls.append((pos, ok))
        return ok

    def _see(self, pos: int) -> None:
        """Every player sees a card turned back (or frozen) at pos."""
        m = self.mon[self.grid[pos]]
        if pos not in self.frozen:
            self.down.add(pos)
        self.seen[0].add(pos)  # shared by every player
        turn = self.turn
        for p in range(len(self.sides)):
            self.mem[p][m][pos] = turn
            self.known[p][pos] = m

    def _gone(self, pos: int) -> None:
        """The card at pos leaves the grid: out of every memory."""
        c = self.grid[pos]
        m = self.mon[c]
        if m >= 0:
            self.grid_count[m] -= 1
            for p in range(len(self.sides)):
                self.mem[p][m].pop(pos, None)
                self.known[p].pop(pos, None)
        self.grid[pos] = -1
        self.frozen.discard(pos)
        self.down.discard(pos)

    # ---------------------------------------------------------------- choosing what to turn

    def _choose(self, p: int, up: list[int], left: int, recalled: dict) -> tuple[int, str]:
        """The next card player p turns: mates for the face-up cards, then a remembered pair,
        a spare, a denial, then an unknown card (docs/mad-match-strategy.md, "What it turns")."""
        mon, grid, mem, down = self.mon, self.grid, self.mem[p], self.down
        # a. mates for the monsters face up now (this turn's first, then frozen)
        face: dict[int, int] = {}
        for pos in up:
            m = mon[grid[pos]]
            face[m] = face.get(m, 0) + 1
        if self.frozen:
            for pos in sorted(self.frozen):
                m = mon[grid[pos]]
                face[m] = face.get(m, 0) + 1
        gamble = self.sides[p].strategy.unknown == "half_remembered_first"
        hazy = None
        for m, count in face.items():
            places = mem[m]
            if not places:
                continue
            if count == 1 and not self.classic and (len(self.colls[p][m]) == 2 or self._opponent_pair(p, m) is not None):
                continue  # a spare already, or the third of an opponent's pair (removed whatever is turned)
            for pos in _newest_first(places):
                if pos in down:
                    if self._recall(p, pos, m, recalled):
                        return pos, "remembered"
                    if hazy is None:
                        hazy = (pos, m)
        if hazy is not None and gamble:
            return self._gamble(p, *hazy)
        # b. a remembered pair (two cards of one monster), the most valuable first
        if left >= 2:
            best = None
            for m, places in enumerate(mem):
                if len(places) >= 2 and (best is None or self.pair_value[m] > self.pair_value[best]):
                    best = m
            if best is not None:
                places = mem[best]
                got = []
                for pos in _newest_first(places):
                    if pos in down and self._recall(p, pos, best, recalled):
                        got.append(pos)
                        if len(got) == 2:
                            return got[0], "remembered"
        if not self.classic:
            # c. a spare for a pair it holds
            spare_ok = self.spare_ok[p]
            for m in sorted(self.pairs_held[p]):
                places = mem[m]
                if places and spare_ok[m]:
                    for pos in _newest_first(places):
                        if pos in down and self._recall(p, pos, m, recalled):
                            return pos, "remembered"
            # d. deny an opponent's spare: the third card of its pair is removed from play
            if left == 1 and self.sides[p].strategy.deny_spares:
                theirs = set()
                for q, held in enumerate(self.pairs_held):
                    if q != p:
                        theirs |= held
                for m in sorted(theirs):
                    places = mem[m]
                    if places:
                        for pos in _newest_first(places):
                            if pos in down and self._recall(p, pos, m, recalled):
                                return pos, "denied"
        # e. an unknown card: never seen first, or a half-remembered one (seen, forgotten) first
        unknown = down.difference(self.known[p])
        if not unknown:
            pool, how = down, "a card it remembers but cannot use"
        elif gamble:
            pool, how = unknown, "an unknown card"
        else:
            fresh = unknown.difference(self.seen[p])
            pool, how = (fresh, "an unseen card") if fresh else (unknown, "a card it has forgotten")
        if len(pool) == 1:
            return next(iter(pool)), how
        pool = sorted(pool)
        face_ = self.dice.roll(1, len(pool), f"{self.label} turn {self.turn}: {self.sides[p].name} turns {how} ({len(pool)} to choose from)")[0]
        return pool[face_ - 1], how

    def _gamble(self, p: int, pos: int, m: int) -> tuple[int, str]:
        """A half-remembered card: the side could not recall where the monster it wants was, only
        about where: it turns one of the face-down cards it does not remember around that place
        (the card and its neighbours), picked with a logged die (ruling R14)."""
        columns = self.columns
        row, col = divmod(pos, columns)
        known, down = self.known[p], self.down
        around = [r * columns + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                  if 0 <= r < len(self.grid) // columns and 0 <= c < columns]
        pool = [q for q in around if q in down and q not in known]
        how = f"a gamble on a half-remembered {self.deck.monsters[m].name} near {self.where(pos)}"
        if len(pool) == 1:
            return pool[0], how
        face = self.dice.roll(1, len(pool), f"{self.label} turn {self.turn}: {self.sides[p].name} gambles on a half-remembered "
                                            f"{self.deck.monsters[m].name} near {self.where(pos)} ({len(pool)} to choose from)")[0]
        return pool[face - 1], how

    def _opponent_pair(self, p: int, m: int) -> int | None:
        for q, held in enumerate(self.pairs_held):
            if q != p and m in held:
                return q
        return None

    def _held(self, p: int, m: int) -> None:
        """Player p's cards of monster m changed: whether it holds exactly a pair of it."""
        if len(self.colls[p][m]) == 2:
            self.pairs_held[p].add(m)
        else:
            self.pairs_held[p].discard(m)

    # ---------------------------------------------------------------- a turn

    def play_turn(self, p: int, forced_freeze: bool) -> bool:
        """Player p's turn: an Action card instead, or three cards turned. Returns whether a
        Freeze that extends to the next player's turn was used."""
        self.turn += 1
        if self.record:
            self.current = Turn(self.turn, p, "turn")
        if not forced_freeze and not self.classic and self.hands[p]:
            choice = self.sides[p].strategy.action_to_use(self, p)
            if choice is not None:
                self._use_action(p, *choice)
                self._finish_turn(p)
                return False
        freeze = forced_freeze
        extends = False
        up: list[int] = []
        recalled: dict = {}
        left = self.per_turn
        deck_cards = self.cards
        while left > 0:
            if not self.down:
                break
            pos, how = self._choose(p, up, left, recalled)
            self.down.discard(pos)
            c = self.grid[pos]
            if self.record:
                self.current.reveals.append((pos, c, how))
            card = deck_cards[c]
            if isinstance(card, Action):
                self._gone(pos)
                if card.effect == "freeze":  # "used immediately and an extra card should be revealed"
                    self.out.append(c)
                    freeze = True
                    extends = extends or card.extends
                    self.used.append((self.turn, p, c, 0))
                    if self.record:
                        self.current.freeze.append(c)
                    continue
                self.hands[p].append(c)  # "Any non-Freeze Action Cards should be collected"
                if self.record:
                    self.current.actions.append(c)
                left -= 1
                continue
            up.append(pos)
            left -= 1
        if freeze:
            self.freeze_turn = self.turn
        self._collect(p, up, freeze)
        self._finish_turn(p)
        return extends

    def _collect(self, p: int, up: list[int], freeze: bool) -> None:
        """Pairs and triplets among the face-up cards (this turn's and frozen ones) collected; a
        spare taken; the third card of an opponent's pair removed; the rest turned back, or
        frozen in a Freeze turn."""
        mon, grid = self.mon, self.grid
        face = up + [pos for pos in sorted(self.frozen) if pos not in up]
        groups: dict[int, list[int]] = {}
        for pos in face:
            groups.setdefault(mon[grid[pos]], []).append(pos)
        keep = []
        for m, places in groups.items():
            coll = self.colls[p][m]
            if len(places) >= 2:  # a pair or a triplet
                before = len(coll)
                for pos in places:
                    coll.append(grid[pos])
                    self._gone(pos)
                self._held(p, m)
                if self.classic:
                    self.pairs[p] += 1
                if len(coll) == 3 and before == 0:
                    self.strikes[p].add(m)
                    how = "strike"
                else:
                    self.strikes[p].discard(m)
                    how = "spare" if len(coll) == 3 else "pair"
                if self.record:
                    self.current.collected.append((m, len(places), how))
                continue
            pos = places[0]
            if self.classic:
                keep.append(pos)
                continue
            if len(coll) == 2 and self.spare_ok[p][m]:
                coll.append(grid[pos])  # "he or she can collect the third card as a Spare"
                self._held(p, m)
                self._gone(pos)
                self.strikes[p].discard(m)
                if self.record:
                    self.current.collected.append((m, 1, "spare"))
                continue
            q = self._opponent_pair(p, m)
            if q is not None:  # "the third card from an opponent's pair ... is removed from play"
                c = grid[pos]
                self._gone(pos)
                self.out.append(c)
                if self.record:
                    self.current.removed.append((pos, c, f"the third card of {self.sides[q].name}'s pair"))
                continue
            keep.append(pos)
        for pos in keep:
            if pos in self.frozen:
                continue
            if freeze:  # "frozen in place, meaning they are not turned back over at the end of the turn"
                self.frozen.add(pos)
                self.down.discard(pos)
                if self.record:
                    self.current.frozen.append(pos)
            self._see(pos)

    def _finish_turn(self, p: int) -> None:
        if self.record:
            self.current.board = self.board_codes(self.current)
            self.current.faces = {pos: self.grid[pos] for pos in self.frozen}
            self.current.faces.update((pos, c) for pos, c, _ in self.current.reveals)
            self.current.scores = tuple(self.score(q) for q in range(len(self.sides)))
            self.log.append(self.current)

    def thaw(self) -> None:
        """With `frozen_cards: turn_back`, frozen cards are turned face down at the end of the
        turn after the last Freeze turn (ruling R8); with `stay` they stay up until collected."""
        if self.rules.frozen_cards == "turn_back" and self.frozen and self.turn > self.freeze_turn:
            for pos in sorted(self.frozen):
                self.frozen.discard(pos)
                self._see(pos)

    # ---------------------------------------------------------------- Action cards

    def swing(self, p: int, q: int, m: int, action: Action) -> int:
        """What using `action` on player q's cards of monster m gains p, plus what q loses."""
        monster = self.deck.monsters[m]
        theirs = self.colls[q][m]
        n = len(theirs)
        if not n:
            return 0
        taken = n if action.cards == "set" else min(2, n) if action.cards == "two" else 1
        lose = monster.value(n, m in self.strikes[q]) - monster.value(n - taken, False)
        gain = 0
        if action.effect == "steal":
            mine = len(self.colls[p][m])
            gain = monster.value(mine + taken, False) - monster.value(mine, m in self.strikes[p])
        return gain + lose

    def _use_action(self, p: int, c: int, q: int, m: int) -> None:
        """An Action card used instead of the turn: steal or destroy; then out of play."""
        action = self.cards[c]
        swing = self.swing(p, q, m, action)
        self.hands[p].remove(c)
        self.out.append(c)
        theirs = self.colls[q][m]
        taken = len(theirs) if action.cards == "set" else min(2, len(theirs)) if action.cards == "two" else 1
        moved = theirs[-taken:]
        del theirs[-taken:]
        self.strikes[q].discard(m)
        self._held(q, m)
        if action.effect == "steal":  # a stolen triplet is a spare ("or stolen with an Action Card")
            self.colls[p][m].extend(moved)
            self.strikes[p].discard(m)
            self._held(p, m)
        else:
            self.out.extend(moved)
        self.used.append((self.turn, p, c, swing))
        if self.record:
            self.current.kind = "action"
            self.current.used = (c, action.effect, q, m, len(moved))

    # ---------------------------------------------------------------- the end

    def collectable(self) -> bool:
        """Whether a Monster card in the grid can still be collected: two of a monster, or one
        that completes a pair a player would take it as a spare for (ruling R10)."""
        for m, count in enumerate(self.grid_count):
            if count >= 2:
                return True
            if count == 1 and not self.classic:
                for p, held in enumerate(self.pairs_held):
                    if m in held and self.spare_ok[p][m]:
                        return True
        return False

    def board_codes(self, turn: Turn | None = None) -> str:
        """The board after a turn, one character a position: "." face down, "f" frozen face up,
        "r" turned this turn and turned back, "c" collected or removed this turn, " " empty."""
        codes = []
        touched = {pos for pos, _, _ in turn.reveals} if turn else set()
        for pos, c in enumerate(self.grid):
            if c < 0:
                codes.append("c" if pos in touched else " ")
            elif pos in self.frozen:
                codes.append("f")
            elif pos in touched:
                codes.append("r")
            else:
                codes.append(".")
        return "".join(codes)

    def run(self) -> Game:
        n = len(self.sides)
        p = self.first
        forced = False
        called = False
        while True:
            if self.turn >= self.rules.turn_limit:
                called = True
                break
            pairs = self.pairs[p]
            extends = self.play_turn(p, forced)
            self.thaw()
            forced = extends
            if not self.collectable():
                break
            if not (self.classic and self.rules.classic_extra_turn and self.pairs[p] > pairs):
                p = (p + 1) % n
        for pos, c in enumerate(self.grid):  # "an orphan single who cannot be paired or collected ... removed from play"
            if c >= 0 and self.mon[c] >= 0:
                self.orphans.append(c)
                self.out.append(c)
                self._gone(pos)
        scores = [self.score(q) for q in range(n)]
        winner = game_winner(scores, [sum(len(x) for x in coll) for coll in self.colls])
        game = Game(self.number, self.variation, self.first, self.battle, scores, winner, self.turn,
                    [{m: (len(cards), m in self.strikes[q]) for m, cards in enumerate(coll) if cards} for q, coll in enumerate(self.colls)],
                    [list(h) for h in self.hands], list(self.out), [c for c in self.grid if c >= 0], list(self.orphans), list(self.used),
                    called, self.log, pairs=list(self.pairs), cards=[[c for cards in coll for c in cards] for coll in self.colls])
        game.deciding = deciding_action(self, game)
        return game


def game_winner(scores: list[int], cards: list[int]) -> int | None:
    """The highest score wins; a tie goes to the one with more cards collected, else no one (ruling R11)."""
    top = max(scores)
    tied = [p for p, s in enumerate(scores) if s == top]
    if len(tied) == 1:
        return tied[0]
    most = max(cards[p] for p in tied)
    tied = [p for p in tied if cards[p] == most]
    return tied[0] if len(tied) == 1 else None


def deciding_action(play: Play, game: Game) -> int | None:
    """The Action card that decided the game (docs/mad-match-deck.md): the steal or destroy
    the winner used with the largest swing, when that swing is more than the winner's margin
    over the runner-up (without it the winner would not have won)."""
    if game.winner is None or play.classic or len(game.scores) < 2:
        return None
    margin = game.scores[game.winner] - max(s for q, s in enumerate(game.scores) if q != game.winner)
    best = None
    for _, p, c, swing in game.used:
        if p == game.winner and swing > margin and (best is None or swing > best[0]):
            best = (swing, c)
    return best[1] if best else None


# ------------------------------------------------------------------------- a match


@dataclass
class Match:
    variation: str
    format: str  # best_of_three, target, single
    games: list
    totals: list
    wins: list
    winner: int | None
    log: list = field(default_factory=list)


def play_match(deck: Deck, sides: list[Side], dice: Dice, rules: Rules, variation: str = "mad_match", fmt: str = "best_of_three",
               target: int = 250, max_games: int = 9, record: bool = False) -> Match:
    """A match: best two out of three games (first to two wins), to a target score (the first
    game after which a player's total reaches it; the highest total wins), or one game
    ("Before you start playing you may decide to play best two out of three ... or to a set
    total score"; ruling R12 for ties and for three or four players)."""
    n = len(sides)
    totals, wins, games = [0] * n, [0] * n, []
    winner = None
    for number in range(1, max_games + 1):
        dice.round = number
        game = Play(deck, sides, dice, rules, variation, number, record).run()
        games.append(game)
        for p in range(n):
            totals[p] += game.scores[p]
        if game.winner is not None:
            wins[game.winner] += 1
        if fmt == "single":
            winner = game.winner
            break
        if fmt == "best_of_three":
            if game.winner is not None and wins[game.winner] >= 2:
                winner = game.winner
                break
            continue
        if max(totals) >= target:
            top = max(totals)
            tied = [p for p in range(n) if totals[p] == top]
            if len(tied) == 1:
                winner = tied[0]
                break
    else:
        # out of games: the most games won, then the most points; else a draw
        best = max(wins)
        tied = [p for p in range(n) if wins[p] == best]
        if fmt == "target" or len(tied) > 1:
            top = max(totals[p] for p in tied)
            tied = [p for p in tied if totals[p] == top]
        winner = tied[0] if len(tied) == 1 else None
    return Match(variation, fmt, games, totals, wins, winner)
