"""Mad Match played by mail: the card-matching game of the instructions, with each side's
memory rolled through the logged dice and its strategy choosing what to turn and when to
use its Action cards (docs/rulings/mad-match.md rules every gap; docs/mad-match-strategy.md
is the strategy language).

Pure: every chance is a roll of the `Dice` handed in, logged with its purpose; the engine
never imports `random`, so a game replays from its seed or its log. Where a card is: the
grid, a player's hand (Action cards held), a player's collection, or out of play.
"""

from __future__ import annotations

from bisect import bisect_left, insort
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


# ------------------------------------------------------------------------- per-deck constants

_SIZES: dict[int, list[int]] = {}  # a shuffle's dice by deck size: d(n), d(n-1), ... d2


def shuffle(cards: list, dice: Dice, purpose: str) -> list:
    """A Fisher-Yates shuffle on one logged roll of d(n), d(n-1), ... d2."""
    n = len(cards)
    order = list(cards)
    if n < 2:
        return order
    sizes = _SIZES.get(n)
    if sizes is None:
        sizes = _SIZES[n] = list(range(n, 1, -1))
    faces = dice.roll_each(sizes, purpose)
    i = 0
    for face in faces:
        j = i + face - 1
        order[i], order[j] = order[j], order[i]
        i += 1
    return order


def icon_of(card) -> str | None:
    return card.icon if isinstance(card, Monster) else None


class Tables:
    """What a deck and a variation fix for every game, built once per deck (not per game): the
    cards in deck order and, by card index, each card's monster (-1 for an Action card), icon,
    whether it is an Action card, a Freeze, a Freeze that extends; by position, its name
    ("A1") and its 3 x 3 block (ruling R14's "about where"); by monster, the matrix's values
    per card count, and the order a remembered pair is chosen in (the most valuable first)."""

    def __init__(self, deck: Deck, classic: bool) -> None:
        self.deck = deck
        if classic:  # "remove all nine Action Cards and one copy of each of the 15 monsters"
            cards = [m for m in deck.monsters for _ in range(2)]
            self.columns, self.per_turn = 6, 2
        else:
            cards = deck.cards()
            self.columns, self.per_turn = 9, 3
        self.cards = cards
        self.size = len(cards)
        self.mon = [c.index if isinstance(c, Monster) else -1 for c in cards]
        self.icons = [icon_of(c) for c in cards]
        self.action = [isinstance(c, Action) for c in cards]
        self.freeze = [isinstance(c, Action) and c.effect == "freeze" for c in cards]
        self.extends = [isinstance(c, Action) and c.effect == "freeze" and c.extends for c in cards]
        columns, rows = self.columns, self.size // self.columns
        self.where = [f"{ROWS[pos // columns]}{pos % columns + 1}" for pos in range(self.size)]
        self.around = [tuple(r * columns + c for r in range(pos // columns - 1, pos // columns + 2)
                             for c in range(pos % columns - 1, pos % columns + 2) if 0 <= r < rows and 0 <= c < columns)
                       for pos in range(self.size)]
        monsters = deck.monsters
        self.monsters = len(monsters)
        self.names = [m.name for m in monsters]
        self.pair_value = [m.pair for m in monsters]
        # a remembered pair: the highest pair value first, the deck's order among equals
        order = sorted(range(len(monsters)), key=lambda m: (-monsters[m].pair, m))
        self.rank = [0] * len(monsters)
        for r, m in enumerate(order):
            self.rank[m] = r
        self.by_rank = order  # the monsters in that order
        # Monster.value by count (0 to 3 cards of a monster in one collection), and a strike's
        self.values = [(0, m.value(1, False), m.value(2, False), m.value(3, False)) for m in monsters]
        self.strike_values = [m.value(3, True) for m in monsters]
        self._spares: dict[str, list[bool]] = {}

    def value(self, m: int, count: int, strike: bool) -> int:
        """`Monster.value` from the table (a collection holds 0 to 3 cards of a monster)."""
        return self.strike_values[m] if strike and count >= 3 else self.values[m][count]

    def spares(self, strategy: Strategy) -> list[bool]:
        """Per monster, whether the strategy takes the third card of a pair it holds as a spare
        (it depends on the strategy's `spares:` and the matrix only)."""
        found = self._spares.get(strategy.spares)
        if found is None:
            found = self._spares[strategy.spares] = [strategy.takes_spare(m) for m in self.deck.monsters]
        return found


_TABLES: dict[tuple[int, bool], Tables] = {}


def tables(deck: Deck, classic: bool = False) -> Tables:
    """The deck's `Tables` for a variation, built on first use and kept (a deck is immutable)."""
    found = _TABLES.get((id(deck), classic))
    if found is None or found.deck is not deck:
        if len(_TABLES) >= 32:  # decks read again and again (a fed's file changed): keep the cache small
            _TABLES.clear()
        found = _TABLES[(id(deck), classic)] = Tables(deck, classic)
    return found


# ------------------------------------------------------------------------- the battle


def icon_battle(cards: list, players: int, dice: Dice, label: str, icons: list | None = None) -> tuple[int, list]:
    """Who is Player One: the deck shuffled, five cards dealt to each player, revealed one at a
    time and compared like Rock Paper Scissors (ruling R3 for an Action card's missing icon,
    three or four players, and five ties running)."""
    if icons is None:
        icons = [icon_of(c) for c in cards]
    deck = shuffle(list(range(len(cards))), dice, f"{label}: shuffle for the icon battle (Who is Player One?)")
    alive = list(range(players))
    per = len(deck) // players
    rows = []
    for k in range(per):
        base = k * players
        rows.append(tuple([deck[base + p] if p in alive else None for p in range(players)]))  # (lists, not generators: no closure for Cython)
        shown = [(p, icons[deck[base + p]]) for p in alive]
        present = {i for _, i in shown if i}
        if len(present) == 2:
            a, b = sorted(present)
            best = a if BEATS[a] == b else b
        elif len(present) == 1 and None in [i for _, i in shown]:
            best = next(iter(present))  # an icon beats no icon
        else:
            continue  # a tie: the next cards are compared
        alive = [p for p, i in shown if i == best]
        if len(alive) == 1:
            return alive[0], rows
    return alive[0], rows  # ruling R3: still tied when the deck runs out: the first in card order


# ------------------------------------------------------------------------- the game


def _newest_first(places: dict, lost: list) -> list:
    """The positions of `places` a player remembers (those not in its sorted `lost` list), the
    most recently seen first (a monster has three cards: one or two places need no sorting;
    equal turns keep the order remembered, as a stable sort does). A new list, no tuple or set
    built (typed for the compiled path by engine.pxd)."""
    if lost:
        mine = [q for q in places if q not in lost]
    else:
        mine = [q for q in places]  # (a comprehension: the compiled path walks the dict in C)
    n = len(mine)
    if n == 2:
        if places[mine[0]] < places[mine[1]]:
            mine.reverse()
    elif n > 2:
        mine.sort(key=places.get, reverse=True)
    return mine


def _merged_at(first: list, second: list, k: int) -> int:
    """Where the k-th (from 0) of two sorted lists with nothing in common, merged in order (the
    second short), is: its index in `first` (0 or more), or -1 less its index in `second`.
    What `sorted(set(first) | set(second))[k]` is, with no set built."""
    before = 0  # how many of `second` come before the answer
    for i in range(len(second)):
        at = i + bisect_left(first, second[i])  # its place in the merged order
        if at == k:
            return -1 - i
        if at > k:
            break
        before = i + 1
    return k - before


class Play:
    """One game of Mad Match (or of the classic matching game) in progress.

    Records (`Turn`s for the writeup, and the dice's purposes worded in full) are kept only
    when `record` is set; without it (odds, benchmarks) the game rolls exactly the same dice in
    the same order and ends the same way, each roll logged with a short purpose
    (tests/test_madmatch_fast.py checks it roll for roll).

    Where the memory is: every player sees every card turned, so what is seen is kept once:
    per monster, the positions of its cards seen (still in the grid) and the turn each was last
    seen (`places`), and by position the monster seen there (`known`); what a player forgot (a
    failed recall) is its `lost` list (sorted), until the card is seen again or leaves the grid. Kept
    alongside, so that a choice is a lookup and not a scan: the face-down positions never seen
    (`unseen`, in order), the monsters seen in two places or more (`multi`), who holds exactly
    a pair of each monster (`pair_owner`: three cards a monster, so one player at most), and
    how many monsters still have two or more cards in the grid (`multi_grid`)."""

    def __init__(self, deck: Deck, sides: list[Side], dice: Dice, rules: Rules, variation: str = "mad_match", number: int = 1,
                 record: bool = False, label: str = "") -> None:
        self.deck, self.sides, self.dice, self.rules, self.variation = deck, sides, dice, rules, variation
        self._roll = dice.roll  # (looked up once: every recall and pick rolls)
        self._how = ""  # how the last card `_choose` picked was chosen (the writeup's words)
        self._at = -1  # and where it is in `unseen` when it was picked from it by its place (else -1)
        self.number, self.record = number, record
        self.label = label = label or f"game {number}"
        classic = variation == "classic"
        self.classic = classic
        t = self.tables = tables(deck, classic)
        self.columns, self.per_turn = t.columns, t.per_turn
        self.cards = cards = t.cards
        n = len(sides)
        monsters = t.monsters
        self.mon = mon = t.mon
        self.first, self.battle = icon_battle(cards, n, dice, label, t.icons)
        order = shuffle(range(len(cards)), dice, f"{label}: shuffle the deck and deal the grid")
        self.grid = order  # position -> card index, -1 once empty
        self.frozen: set[int] = set()
        self._frozen_order: list[int] | None = []  # sorted(frozen), None when it must be sorted again
        grid_count = [0] * monsters
        for c in order:
            m = mon[c]
            if m >= 0:
                grid_count[m] += 1
        self.grid_count = grid_count
        self.multi_grid = sum(1 for k in grid_count if k >= 2)
        self.grid_monsters = sum(grid_count)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.colls: list[list[list[int]]] = [[[] for _ in range(monsters)] for _ in range(n)]
        self.strikes: list[set[int]] = [set() for _ in range(n)]
        self.out: list[int] = []
        self.orphans: list[int] = []
        self.used: list = []
        # memory: every card turned is seen by every player (ruling R13); a player forgets by its own rolls
        self.places: list[dict[int, int]] = [{} for _ in range(monsters)]  # per monster: position -> the turn last seen
        self.known: dict[int, int] = {}  # position seen (still in the grid) -> monster
        self.seen: set[int] = set()  # every position ever seen
        self.lost: list[list[int]] = [[] for _ in range(n)]  # per player: positions seen and forgotten since, sorted
        self.unseen: list[int] = list(range(len(order)))  # face down and never seen, in order
        self.multi: set[int] = set()  # monsters seen in two places or more
        self.pair_value = t.pair_value
        self.pairs_held: list[list[int]] = [[] for _ in range(n)]  # per player: the monsters it holds exactly two of, sorted
        self.pair_owner = [-1] * monsters  # per monster: the player holding exactly two of it, or -1
        self.paired: list[int] = []  # the monsters someone holds exactly two of, sorted
        self.spare_ok = [t.spares(side.strategy) for side in sides]
        self.gamble = [side.strategy.unknown == "half_remembered_first" for side in sides]
        self.deny = [side.strategy.deny_spares for side in sides]
        self.memories = [side.memory for side in sides]  # (read once: a recall is rolled in every other turn)
        self.fade, self.die = rules.memory_fade, rules.memory_die
        self.down: set[int] = set(range(len(order)))  # face down in the grid
        self.turn = 0
        self.freeze_turn = 0  # the last Freeze turn
        self.log: list[Turn] = []
        self.pairs = [0] * n
        if not record:  # the dice's purposes, short: nothing will read them
            self._p_recall = f"{label}: a recall"
            self._p_pick = f"{label}: a card picked"
            self._p_gamble = f"{label}: a gamble"

    # ---------------------------------------------------------------- scores

    def score(self, p: int) -> int:
        if self.classic:
            return self.pairs[p]
        total = 0
        values, strike_values, strikes = self.tables.values, self.tables.strike_values, self.strikes[p]
        for m, cards in enumerate(self.colls[p]):
            if cards:
                k = len(cards)
                total += strike_values[m] if k >= 3 and m in strikes else values[m][k]
        return total

    def where(self, pos: int) -> str:
        return self.tables.where[pos]

    def frozen_order(self) -> list[int]:
        """The frozen positions in order (kept sorted until the frozen cards change)."""
        order = self._frozen_order
        if order is None:
            order = self._frozen_order = sorted(self.frozen)
        return order

    # ---------------------------------------------------------------- memory

    def _recall(self, p: int, pos: int, m: int, recalled: dict) -> bool:
        """Whether player p remembers that the card at `pos` is monster m: a roll of the memory
        die at or under the side's memory, one less for every `memory_fade` turns since the card
        was seen (ruling R13). Certain either way: no roll. A failed recall forgets the card."""
        if pos in recalled:
            return recalled[pos]
        ago = self.turn - self.places[m][pos]
        need = self.memories[p] - ago // self.fade
        die = self.die
        if need >= die:
            ok = True
        elif need < 1:
            ok = False
        elif self.record:
            ok = self._roll(1, die, f"{self.label} turn {self.turn}: {self.sides[p].name} recalls {self.tables.where[pos]} "
                                        f"(seen {ago} turn{'s' if ago != 1 else ''} ago; {need} or less)")[0] <= need
        else:
            ok = self._roll(1, die, self._p_recall)[0] <= need
        recalled[pos] = ok
        if not ok:
            lost = self.lost[p]
            if pos not in lost:
                insort(lost, pos)
        if self.record:
            self.current.recalls.append((pos, ok))
        return ok

    def _see(self, pos: int) -> None:
        """Every player sees a card turned back (or frozen) at pos."""
        m = self.mon[self.grid[pos]]
        if pos not in self.frozen:
            self.down.add(pos)
        self.seen.add(pos)
        places = self.places[m]
        places[pos] = self.turn
        if len(places) >= 2:
            self.multi.add(m)
        self.known[pos] = m
        for lost in self.lost:
            if lost and pos in lost:
                lost.remove(pos)

    def _gone(self, pos: int) -> None:
        """The card at pos leaves the grid: out of every memory."""
        c = self.grid[pos]
        m = self.mon[c]
        if m >= 0:
            left = self.grid_count[m] = self.grid_count[m] - 1
            if left == 1:
                self.multi_grid -= 1
            self.grid_monsters -= 1
            places = self.places[m]
            if pos in places:
                del places[pos]
                if len(places) < 2:
                    self.multi.discard(m)
                del self.known[pos]
                for lost in self.lost:
                    if lost and pos in lost:
                        lost.remove(pos)
        self.grid[pos] = -1
        if self.frozen and pos in self.frozen:
            self.frozen.discard(pos)
            self._frozen_order = None
        if pos in self.down:
            self.down.discard(pos)
            if pos not in self.seen:
                del self.unseen[bisect_left(self.unseen, pos)]

    # ---------------------------------------------------------------- choosing what to turn

    def _choose(self, p: int, up: list[int], left: int, recalled: dict) -> int:
        """The next card player p turns: mates for the face-up cards, then a remembered pair,
        a spare, a denial, then an unknown card (docs/mad-match-strategy.md, "What it turns").
        How it was chosen (the writeup's words) is left in `_how`. Loops over short lists, no
        dict, set or tuple built (typed for the compiled path by engine.pxd)."""
        mon, grid, places_of, down, lost = self.mon, self.grid, self.places, self.down, self.lost[p]
        classic = self.classic
        gamble = self.gamble[p]
        frozen = self.frozen
        owner = self.pair_owner
        self._at = -1
        # a. mates for the monsters face up now (this turn's first, then frozen), each monster once,
        # in the order first face up
        if up or frozen:
            face = up + self.frozen_order() if frozen else up
            k = len(face)
            hazy = -1
            hazy_m = -1
            for i in range(k):
                pos = face[i]
                c = grid[pos]
                m = mon[c]
                first = True
                for j in range(i):
                    pos = face[j]
                    c = grid[pos]
                    if mon[c] == m:
                        first = False
                        break
                if not first:
                    continue
                places = places_of[m]
                if not places:
                    continue
                if not classic and owner[m] >= 0:
                    count = 1
                    for j in range(i + 1, k):
                        pos = face[j]
                        c = grid[pos]
                        if mon[c] == m:
                            count += 1
                    if count == 1:
                        continue  # a spare already, or the third of an opponent's pair (removed whatever is turned)
                for pos in _newest_first(places, lost):
                    if pos in down:
                        if self._recall(p, pos, m, recalled):
                            self._how = "remembered"
                            return pos
                        if hazy < 0:
                            hazy, hazy_m = pos, m
            if hazy >= 0 and gamble:
                return self._gamble(p, hazy, hazy_m)
        # b. a remembered pair (two cards of one monster), the most valuable first: the lowest rank
        # among the monsters seen twice whose two places the player still remembers
        if left >= 2 and self.multi:
            rank = self.tables.rank
            best = -1
            best_rank = len(rank)
            for m in self.multi:
                r = rank[m]
                if r >= best_rank:
                    continue
                if lost:
                    count = 0
                    for q in places_of[m]:
                        if q not in lost:
                            count += 1
                    if count < 2:
                        continue
                best, best_rank = m, r
            if best >= 0:
                got = -1
                for pos in _newest_first(places_of[best], lost):
                    if pos in down and self._recall(p, pos, best, recalled):
                        if got >= 0:
                            self._how = "remembered"
                            return got
                        got = pos
        held = self.pairs_held[p]
        if not classic:
            # c. a spare for a pair it holds (the monsters in order)
            if held:
                spare_ok = self.spare_ok[p]
                for m in held:
                    places = places_of[m]
                    if places and spare_ok[m]:
                        for pos in _newest_first(places, lost):
                            if pos in down and self._recall(p, pos, m, recalled):
                                self._how = "remembered"
                                return pos
            # d. deny an opponent's spare: the third card of its pair is removed from play
            if left == 1 and self.paired and self.deny[p]:
                for m in self.paired:
                    if owner[m] == p:
                        continue  # its own pair (in `held`)
                    places = places_of[m]
                    if places:
                        for pos in _newest_first(places, lost):
                            if pos in down and self._recall(p, pos, m, recalled):
                                self._how = "denied"
                                return pos
        # e. an unknown card: never seen first, or a half-remembered one (seen, forgotten) first
        unseen = self.unseen
        extra = None
        if gamble:
            pool, how = unseen, "an unknown card"
            if lost:  # the pool is sorted(forgotten and face down | unseen): a card forgotten was seen, so never in `unseen`, and the
                extra = [q for q in lost if q in down]  # pool is the two sorted lists merged (`_merged_at`), with no set built or sorted
        elif unseen:
            pool, how = unseen, "an unseen card"
        else:
            pool, how = [q for q in lost if q in down], "a card it has forgotten"
        size = len(pool) + len(extra) if extra else len(pool)
        if not size:
            pool, how = sorted(down), "a card it remembers but cannot use"
            size = len(pool)
        self._how = how
        if size == 1:
            if pool:
                if pool is unseen:
                    self._at = 0
                return pool[0]
            return extra[0]
        if self.record:
            face_ = self._roll(1, size, f"{self.label} turn {self.turn}: {self.sides[p].name} turns {how} ({size} to choose from)")[0]
        else:
            face_ = self._roll(1, size, self._p_pick)[0]
        if extra:  # (only with the pool `unseen`)
            at = _merged_at(pool, extra, face_ - 1)
            if at < 0:
                return extra[-1 - at]
            self._at = at
            return pool[at]
        if pool is unseen:
            self._at = face_ - 1
        return pool[face_ - 1]

    def _gamble(self, p: int, pos: int, m: int) -> int:
        """A half-remembered card: the side could not recall where the monster it wants was, only
        about where: it turns one of the face-down cards it does not remember around that place
        (the card and its neighbours), picked with a logged die (ruling R14). How: `_how`."""
        known, lost, down = self.known, self.lost[p], self.down
        pool = [q for q in self.tables.around[pos] if q in down and (q not in known or q in lost)]
        if self.record:
            self._how = f"a gamble on a half-remembered {self.tables.names[m]} near {self.where(pos)}"
        else:
            self._how = "a gamble"
        if len(pool) == 1:
            return pool[0]
        if self.record:
            face = self._roll(1, len(pool), f"{self.label} turn {self.turn}: {self.sides[p].name} gambles on a half-remembered "
                                            f"{self.tables.names[m]} near {self.where(pos)} ({len(pool)} to choose from)")[0]
        else:
            face = self._roll(1, len(pool), self._p_gamble)[0]
        return pool[face - 1]

    def _held(self, p: int, m: int) -> None:
        """Player p's cards of monster m changed: whether it holds exactly a pair of it (kept in
        `pair_owner` and the sorted lists `pairs_held[p]` and `paired`: m is in `paired` when
        someone owns its pair, and in `pairs_held[p]` when p does; three cards a monster, so
        one owner at most)."""
        owner = self.pair_owner
        if len(self.colls[p][m]) == 2:
            if owner[m] != p:
                held, paired = self.pairs_held[p], self.paired
                if m not in held:
                    insort(held, m)
                if m not in paired:
                    insort(paired, m)
                owner[m] = p
        elif owner[m] == p:
            self.pairs_held[p].remove(m)
            self.paired.remove(m)
            owner[m] = -1

    # ---------------------------------------------------------------- a turn

    def play_turn(self, p: int, forced_freeze: bool) -> bool:
        """Player p's turn: an Action card instead, or three cards turned. Returns whether a
        Freeze that extends to the next player's turn was used."""
        self.turn += 1
        record = self.record
        if record:
            self.current = Turn(self.turn, p, "turn")
        if not forced_freeze and not self.classic and self.hands[p]:
            choice = self.sides[p].strategy.action_to_use(self, p)
            if choice is not None:
                c, q, m = choice
                self._use_action(p, c, q, m)
                self._finish_turn(p)
                return False
        freeze = forced_freeze
        extends = False
        up: list[int] = []
        recalled: dict = {}
        left = self.per_turn
        t = self.tables
        is_action, is_freeze = t.action, t.freeze
        down, grid = self.down, self.grid
        seen, unseen = self.seen, self.unseen
        while left > 0:
            if not down:
                break
            pos = self._choose(p, up, left, recalled)  # (methods called on self: the compiled path calls them in C)
            # turned face up: no longer face down, unseen or forgotten
            down.discard(pos)
            if pos not in seen:
                at = self._at  # (its place in `unseen` when `_choose` picked it from there)
                if at < 0:
                    at = bisect_left(unseen, pos)
                del unseen[at]
            c = grid[pos]
            if record:
                self.current.reveals.append((pos, c, self._how))
            if is_action[c]:
                self._gone(pos)
                if is_freeze[c]:  # "used immediately and an extra card should be revealed"
                    self.out.append(c)
                    freeze = True
                    extends = extends or t.extends[c]
                    self.used.append((self.turn, p, c, 0))
                    if record:
                        self.current.freeze.append(c)
                    continue
                self.hands[p].append(c)  # "Any non-Freeze Action Cards should be collected"
                if record:
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
        frozen in a Freeze turn. Each monster face up is dealt with once, in the order first
        face up (no dict or list built per monster: typed for the compiled path by engine.pxd)."""
        mon, grid = self.mon, self.grid
        frozen = self.frozen
        face = up + self.frozen_order() if frozen else up  # (a frozen card is never face down: never turned again)
        k = len(face)
        ms = []  # each one's monster, before any leaves the grid
        for i in range(k):
            pos = face[i]
            c = grid[pos]
            ms.append(mon[c])
        keep = []
        record, classic = self.record, self.classic
        colls = self.colls[p]
        for i in range(k):
            m = ms[i]
            first = True
            for j in range(i):
                if ms[j] == m:
                    first = False
                    break
            if not first:
                continue
            count = 1
            for j in range(i + 1, k):
                if ms[j] == m:
                    count += 1
            coll = colls[m]
            if count >= 2:  # a pair or a triplet
                before = len(coll)
                for j in range(i, k):
                    if ms[j] == m:
                        pos = face[j]
                        coll.append(grid[pos])
                        self._gone(pos)
                self._held(p, m)
                if classic:
                    self.pairs[p] += 1
                if len(coll) == 3 and before == 0:
                    self.strikes[p].add(m)
                    how = "strike"
                else:
                    self.strikes[p].discard(m)
                    how = "spare" if len(coll) == 3 else "pair"
                if record:
                    self.current.collected.append((m, count, how))
                continue
            pos = face[i]
            if classic:
                keep.append(pos)
                continue
            if len(coll) == 2 and self.spare_ok[p][m]:
                coll.append(grid[pos])  # "he or she can collect the third card as a Spare"
                self._held(p, m)
                self._gone(pos)
                self.strikes[p].discard(m)
                if record:
                    self.current.collected.append((m, 1, "spare"))
                continue
            q = self.pair_owner[m]
            if q >= 0 and q != p:  # "the third card from an opponent's pair ... is removed from play"
                c = grid[pos]
                self._gone(pos)
                self.out.append(c)
                if record:
                    self.current.removed.append((pos, c, f"the third card of {self.sides[q].name}'s pair"))
                continue
            keep.append(pos)
        if not keep:
            return
        # every player sees the cards turned back (or frozen): `_see`, inlined
        down, seen, places_of, known, multi, turn = self.down, self.seen, self.places, self.known, self.multi, self.turn
        for pos in keep:
            if pos in frozen:
                continue
            if freeze:  # "frozen in place, meaning they are not turned back over at the end of the turn"
                frozen.add(pos)
                self._frozen_order = None
                if record:
                    self.current.frozen.append(pos)
            else:
                down.add(pos)
            m = mon[grid[pos]]
            seen.add(pos)
            places = places_of[m]
            places[pos] = turn
            if len(places) >= 2:
                multi.add(m)
            known[pos] = m
            for lost in self.lost:
                if lost and pos in lost:
                    lost.remove(pos)

    def _finish_turn(self, p: int) -> None:
        if self.record:
            self.current.board = self.board_codes(self.current)
            self.current.faces = {pos: self.grid[pos] for pos in self.frozen}
            self.current.faces.update([(pos, c) for pos, c, _ in self.current.reveals])  # (lists, not generators: no closure for Cython)
            self.current.scores = tuple([self.score(q) for q in range(len(self.sides))])
            self.log.append(self.current)

    def thaw(self) -> None:
        """With `frozen_cards: turn_back`, frozen cards are turned face down at the end of the
        turn after the last Freeze turn (ruling R8); with `stay` they stay up until collected."""
        if self.rules.frozen_cards == "turn_back" and self.frozen and self.turn > self.freeze_turn:
            for pos in sorted(self.frozen):
                self.frozen.discard(pos)
                self._frozen_order = None
                self._see(pos)

    # ---------------------------------------------------------------- Action cards

    def swing(self, p: int, q: int, m: int, action: Action) -> int:
        """What using `action` on player q's cards of monster m gains p, plus what q loses."""
        n = len(self.colls[q][m])
        if not n:
            return 0
        t = self.tables
        taken = n if action.cards == "set" else min(2, n) if action.cards == "two" else 1
        lose = t.value(m, n, m in self.strikes[q]) - t.values[m][n - taken]
        gain = 0
        if action.effect == "steal":
            mine = len(self.colls[p][m])
            gain = t.values[m][mine + taken] - t.value(m, mine, m in self.strikes[p])
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
        if self.multi_grid:
            return True
        if self.classic or not self.paired:
            return False
        owner, spare_ok, grid_count = self.pair_owner, self.spare_ok, self.grid_count
        for m in self.paired:
            if grid_count[m] == 1 and spare_ok[owner[m]][m]:
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
        limit = self.rules.turn_limit
        extra = self.classic and self.rules.classic_extra_turn
        thaw = self.rules.frozen_cards == "turn_back"
        pairs = self.pairs
        while True:
            if self.turn >= limit:
                called = True
                break
            before = pairs[p]
            forced = self.play_turn(p, forced)
            if thaw:
                self.thaw()
            if not self.collectable():
                break
            if not (extra and pairs[p] > before):
                p = (p + 1) % n
        mon = self.mon
        for pos, c in enumerate(self.grid):  # "an orphan single who cannot be paired or collected ... removed from play"
            if c >= 0 and mon[c] >= 0:
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
