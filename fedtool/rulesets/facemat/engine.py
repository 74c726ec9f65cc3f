# cython: annotation_typing=False, binding=True
# (Cython, when setup.py compiles this module: hints such as `entry: dict` are no type checks, a YAML
# mapping is a dict subclass; the .py stays the pure-Python fallback, roll for roll the same)
"""Face to the Mat: a match, FAC by FAC (rulebook 4-10; docs/rulings/face-to-the-mat.md).

One engine plays every match type with one token per side: singles and tag (two sides),
three-for-alls (9.d: two-on-one, where the underdogs are one team, and every man for
himself, where a fall eliminates) and the battle royale's Four-Play method (9.e.iii: every
man for himself, four in the ring, the eliminated replaced from the pool). The other two
battle royale methods are built from it in `royale.py`.

Chance is the logged dice: the FAC shuffle, square bonuses, charts and reels, kickouts and
finishers. The engine returns data: the writeup and the league are elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from fedtool.kernel.commentary import Commentary, Teller, load_commentary
from fedtool.kernel.dice import Dice, streams_of
from .rules import KICKOUT, data
from .terms import GRADES
from .sheet import Wrestler

FAC_GUARD = 400  # no real match is this long: a time-limit draw
BOO_AFTER = 3  # 10.a: "If three consecutive FACs result in no scoring"
DRAW = [f"draw a FAC: d{left}" for left in range(256)]  # the draw's purpose, by cards left
LEAGUE_EFFECTS = frozenset(("grudge", "tv", "ally", "foe"))  # what an event changes in the league, not the match
CAST_REROLLS = 20  # an event whose heel or face is not in the ring is rolled again at most this often
NOTHING = {"text": "Nothing comes of it.", "post_text": "Nothing comes of it.", "mid_text": "Nothing comes of it.", "effect": "none"}
MID_MATCH = "mid-match"  # a HIGHLIGHT_REEL FAC's storyline (7.d): the dice log's word for it too
SPECIAL_FACS = frozenset(("WILD_CARD", "REF_BUMP", "HIGHLIGHT_REEL", "TEST_OF_STRENGTH", "TITLE_HOLDER"))


@dataclass(frozen=True)
class Plan:
    """What a Face to the Mat player decides (the strategy file); the cards decide the rest."""

    signature_moves: tuple = ()  # (SKILL, move name) pairs, over the card's own
    finisher_name: str | None = None
    use_object: str = "always"  # 10.b: always | never | when_trailing
    call_for_help: str = "never"  # never | when_trailing | at_once: the HOT BOX ally, once a match
    promo: str = ""  # read in an interview segment (10.d)
    challenge: str | None = None  # a grudge match challenge (9.a), to this wrestler id


@dataclass(frozen=True)
class Options:
    """The advanced options of section 10 that change play (fed settings; all off by default)."""

    objects: bool = False  # 10.b chairs, tables and ladders
    object_spaces: tuple = ()  # 10.b.i: the spaces holding a chip
    object_bonus: int = 2  # 10.b.iv: "additional effects (determined by GM)": points on the next move
    advanced_tag: bool = False  # 10.c.i: the 1d6 tag table when a team scores
    refreshment: bool = False  # 10.c.ii: a tag moves the other team's token back one space
    ref_bump: str = "fac"  # 10.e: fac (reel K on the REF BUMP FAC), downed (and the ref is down a FAC), off
    out_of_ring: bool = False  # 10.f: the Out of the Ring board
    increased_kickouts: bool = False  # 10.g: chips on the first two PIN spaces
    weapons: bool = False  # 9.f.iv: in a hardcore match a chart's object is a weapon in hand, option 10.b or not
    cage_helped: str = "half_down"  # 9.b: HELPED points and help inside a cage: half, rounded down (or half_up)


@dataclass(frozen=True)
class Setup:
    match_id: str
    wrestlers: tuple[Wrestler, ...]  # one per side, billing order: favored first, underdog last (4.a)
    hotbox: dict  # 4.b: {"allies": [per side], "foes": [per side], "grudge": [two names]}
    chart: str = "normal"  # the Wild Card chart: normal, cage, hardcore
    tv_table: str = "standard"
    tiers: tuple = (3, 2, 1)  # 7.c gold, silver, bronze (10.h varies them)
    boo_rule: bool = False
    partners: tuple = ()  # a tag match (9.c): each side's partner, who comes in when he scores
    mode: str = "singles"  # singles (and tag), two_on_one, every_man, four_play
    ring: int = 0  # four_play: how many start in the ring (the rest wait, in order); 0 = all
    plans: tuple = ()  # a Plan per side (and per partner, after the sides), or none
    options: Options = Options()
    storylines: bool = True  # pre- and post-match reels (a battle royale's mini-match has none)
    first_to: int | None = None  # a mini-match ends when a token reaches this space
    ref_bump_at: int | None = None  # 10.e.ii: a scripted ref bump at this FAC
    tables: dict | None = field(default=None, repr=False, compare=False)  # a fed's own data files (else the packaged ones)
    champions: dict = field(default_factory=dict)  # wrestler id -> the titles he holds (the league's, handed in by the core)


@dataclass(slots=True)
class Line:
    """One thing that happened, for the writeup."""

    fac: int
    kind: str  # storyline, fac, quiet (a FAC nobody can use), move, pin, finisher, boo, tag, object, help, elimination, bell (a time-limit draw), post_match, end
    text: str
    who: int | None = None
    points: int = 0
    positions: tuple = (0, 0)
    # what the line tells, as data: (phrase kind, fields, facts of the moment, wrap), told by a
    # teller of the match's commentary (data/commentary.yaml); `text` is its packaged telling
    told: tuple | None = None


# ---------------------------------------------------------------- commentary (issue 16)

COMMENTARY = Path(__file__).parent / "data" / "commentary.yaml"


@cache
def packaged() -> Commentary:
    """The packaged phrase table (data/commentary.yaml): the words of a Result's lines until a
    booking's own table (the fed's file over it) tells them again (`FaceToTheMat.describe`)."""
    return load_commentary(COMMENTARY, "fedtool/rulesets/facemat/data/commentary.yaml")


def TOLD(kind: str, values: dict, facts: dict, wrap: tuple | None = None) -> tuple:  # noqa: N802
    """A line's text as data: `(TOLD, payload)` in the engine's raw lines."""
    return (TOLD, (kind, values, facts, wrap))


_ALIGNED = {a: {"alignment": a} for a in ("face", "heel")}  # a line's own facts, shared (never changed) so a simulation pays no dict a line
_NO_FACTS: dict = {}


def tell(teller: Teller, told: tuple, facts: dict) -> str:
    """One told line in the teller's words: the phrase of its kind, chosen by the match's facts
    with the moment's over them, its fields filled; a wrap (function, args) sets it in a
    sentence (a signature move's clause in a card's text)."""
    kind, values, own, wrap = told
    if type(values) is tuple:  # fields made when told: (function, args)
        values = values[0](*values[1])
    text = teller.say(kind, {**facts, **own}, **values)
    return wrap[0](text, *wrap[1]) if wrap else text


def told_line(fac: int, kind: str, phrase: str, positions: tuple, who: int | None = None, points: int = 0,
              facts: dict | None = None, wrap: tuple | None = None, **values) -> Line:
    """A Line told from the table outside the engine's loop (a promo, a royale's cut), in the
    packaged words until the writeup tells it again."""
    told = (phrase, values, facts or {}, wrap)
    return Line(fac, kind, tell(packaged().teller(phrase), told, {}), who, points, positions, told)


def match_facts(setup: Setup) -> dict:
    """The facts the engine knows of a match: its type by how it is played, and its chart (the
    booking knows a grudge match and a title: `FaceToTheMat.story_facts`)."""
    kind = ("tag" if setup.partners else "three_for_all" if setup.mode in ("every_man", "two_on_one")
            else "battle_royale" if setup.mode == "four_play" else "singles")
    return {"match_type": kind, "chart": setup.chart}


class Result:
    """A played match. The engine hands its lines over as tuples of Line's fields; they become
    Line records when first read, so a simulation of thousands of matches never pays for them."""

    def __init__(self, winner: int | None, method: str, facs: int, positions: list, lines: list | None = None,
                 league: list | None = None, log: list | None = None, eliminations: list | None = None, raw: bool = False,
                 cards: list | None = None, key: str = "", facts: dict | None = None):
        self.winner = winner  # the side that won (two-on-one: the side that scored the winning fall)
        self.method = method  # pin, finisher, time_limit (a mini-match: reached)
        self.facs = facs
        self.positions = positions
        self._lines = lines if lines is not None else []
        self._raw = raw
        self.league = league if league is not None else []  # (side, "grudge"|"tv"|"ally"|"foe", change, why)
        self.log = log if log is not None else []
        self.eliminations = eliminations if eliminations is not None else []  # (side, by side, method, FAC)
        self.cards = cards if cards is not None else []  # each FAC drawn: (stage or None, FAC number, card id, type)
        self.key = key  # the match's id: the packaged telling's key
        self.facts = facts if facts is not None else {}  # the match's facts for the commentary (`match_facts`)

    @property
    def lines(self) -> list[Line]:
        if self._raw:
            teller = packaged().teller(self.key)
            made = []
            for f, k, t, *rest in self._lines:
                if type(t) is str:
                    made.append(Line(f, k, t, *rest))
                elif t[0] is TOLD:
                    made.append(Line(f, k, tell(teller, t[1], self.facts), *rest, t[1]))
                else:
                    made.append(Line(f, k, t[0](*t[1]), *rest))
            self._lines = made
            self._raw = False
        return self._lines

    def told(self, teller: Teller, facts: dict) -> list[str]:
        """Each line's text as `teller` tells it (a fresh teller each time: the same words each
        time); a line not told from the table keeps its text."""
        return [tell(teller, ln.told, facts) if ln.told is not None else ln.text for ln in self.lines]

    @lines.setter
    def lines(self, value: list[Line]) -> None:
        self._lines, self._raw = value, False

    def __eq__(self, other: object) -> bool:
        fields = ("winner", "method", "facs", "positions", "lines", "league", "log", "eliminations")
        return isinstance(other, Result) and all(getattr(self, f) == getattr(other, f) for f in fields)

    def __repr__(self) -> str:
        return f"Result(winner={self.winner!r}, method={self.method!r}, facs={self.facs!r}, positions={self.positions!r})"


def teams_of(setup: Setup) -> tuple[int, ...]:
    """The team of each side: two-on-one's underdogs are one team; otherwise each side is one."""
    n = len(setup.wrestlers)
    return (0,) + (1,) * (n - 1) if setup.mode == "two_on_one" else tuple(range(n))


class _Prepared:
    """What a setup's matches share, built once a setup (issue 18: per-setup constants): the
    track, the deck with each card's figures read out, each wrestler's qualifying spaces by
    skill, TV and Grudge points, kickout top and the purposes of his rolls."""

    __slots__ = ("tables", "track", "deck", "men", "partners", "everyone", "plan_of", "moves_of", "info", "sides", "team",
                 "every_man", "wild_purpose", "order_purpose", "reach", "helping", "can_help",
                 # `_Bout`'s tables (issue 18): each card by its index as small numbers read straight from bytes
                 "identity", "kinds", "flags", "bases", "tier_of", "width", "able_of", "help_of", "side_able", "side_help", "pin_at",
                 "reach_at", "bout", "wild_events", "pick", "reel_events", "unchanged")


def _prepare(setup: Setup) -> _Prepared:
    key = id(setup)
    hit = _PREPARED.get(key)
    if hit is not None and hit[0] is setup and hit[1].tables is (setup.tables or data()):
        return hit[1]
    tables = setup.tables or data()
    prep = _Prepared()
    prep.tables = tables
    prep.track = shapes, pins, finish, corner, start = _track(tables["track"])
    prep.deck = _deck(tables["facs"])
    n = len(setup.wrestlers)
    men = list(setup.wrestlers)
    partners: list = []
    if setup.partners:  # 9.c: "All wrestlers automatically gain the HELPED quality" (a star: docs/rulings)
        men = [replace(m, skills={**m.skills, "HELPED": "star"}) for m in men]
        partners = [replace(m, skills={**m.skills, "HELPED": "star"}) for m in setup.partners]
    prep.men, prep.partners = men, partners
    everyone = men + partners
    prep.everyone = everyone
    plans = list(setup.plans) or [Plan()] * (n + len(setup.partners))
    prep.plan_of = {id(m): plans[k] for k, m in enumerate(everyone)}
    prep.helping = any(p.call_for_help != "never" for p in plans)
    # each side that may call for help: his plan's, or in a tag match either partner's
    prep.can_help = [any(prep.plan_of[id(m)].call_for_help != "never" for m in ([men[k], partners[k]] if partners else [men[k]])) for k in range(n)]
    prep.moves_of = {id(m): {**m.signature_moves, **dict(plans[k].signature_moves)} for k, m in enumerate(everyone)}
    every_space = frozenset(shapes)
    by_shape: dict = {}
    for space, shape in shapes.items():
        by_shape.setdefault(shape, set()).add(space)
    tv = tables["tv"]["tables"].get(setup.tv_table) or {}
    info = {}
    for m in everyone:
        # 3.d: star anywhere; square or circle only on such spaces
        able = {kind: every_space if symbol == "star" else frozenset(by_shape.get(symbol, ())) for kind, symbol in m.skills.items()}
        tiers = m.tiers if isinstance(m.tiers, tuple) else setup.tiers
        info[id(m)] = (able, tv.get(m.tv_grade), tiers, KICKOUT.get(m.tv_grade), f"{m.name} d6 points", f"{m.name} square icon 1d6",
                       tuple(f"{m.name} kickout {k + 1} (2d6 as d66)" for k in range(3)), f"{m.name} finisher (2d6 as d66)")
    prep.info = info
    prep.sides = (tuple(m.name for m in men), tuple(info[id(m)] for m in men), tuple(prep.plan_of.get(id(m), NO_PLAN) for m in men))
    prep.team = teams_of(setup)
    prep.every_man = setup.mode in ("every_man", "four_play")
    prep.wild_purpose = f"Wild Card chart ({setup.chart}) 2d6"
    prep.wild_events = tables["wild"].get(setup.chart)  # (a chart the tables lack fails when drawn, as `resolve` fails)
    reels = tables["reels"]
    prep.pick = reels["pick"]
    prep.reel_events = {reel: entry["events"] for reel, entry in reels["reels"].items()}
    prep.order_purpose = "test of strength: 1d6 each, " + ("favored first" if (setup.ring or n) == 2 else "in billing order")
    prep.reach = frozenset(pins) | {finish}  # where a token that moves forward makes an attempt (8.a, 8.b)
    # `_Bout`'s tables: a card is its index in the deck (bytes hold at most 256: a bigger deck
    # cannot be drawn from anyway, the dice roll at most a d255); its type as a code (KINDS
    # first, the deck's other types after), its flags, base points and Grudge tier; a side's
    # skills as one byte a (code, space): 1 where he may perform that type on that space (3.d)
    codes = {kind: code for code, kind in enumerate(KINDS)}
    for _, kind, *_ in prep.deck:
        codes.setdefault(kind, len(codes))
    width = max(max(shapes, default=0), finish, start) + 1
    prep.width = width
    prep.identity = bytes(range(len(prep.deck))) if len(prep.deck) <= 256 else b""
    prep.kinds = bytes(codes[kind] for _, kind, *_ in prep.deck) if prep.identity else b""
    prep.flags = bytes(square * F_SQUARE | control * F_CONTROL | special * F_SPECIAL | skill * F_SKILL
                       for _, _, _, square, control, special, skill in prep.deck) if prep.identity else b""
    prep.bases = [NO_BASE if base is None else base for _, _, base, *_ in prep.deck]
    prep.tier_of = [TIER_INDEX.get(card.get("grudge"), 0) if kind == "GRUDGE" else 0 for card, kind, *_ in prep.deck]
    able_of = {}
    for m in everyone:
        table = bytearray(len(codes) * width)
        for kind, spaces in info[id(m)][0].items():
            if kind in codes:
                for space in spaces:
                    if 0 <= space < width:
                        table[codes[kind] * width + space] = 1
        able_of[id(m)] = bytes(table)
    prep.able_of = able_of
    prep.help_of = {id(m): HELP_CODES[prep.plan_of[id(m)].call_for_help] for m in everyone}
    prep.side_able = tuple(able_of[id(m)] for m in men)
    prep.side_help = tuple(prep.help_of[id(m)] for m in men)
    prep.pin_at = bytes(1 if space in pins else 0 for space in range(width))
    prep.reach_at = bytes(1 if space in prep.reach else 0 for space in range(width))
    options = setup.options
    # what each `_Bout` of the setup starts from, in one tuple
    prep.bout = (finish, corner, start, n, setup.ring or n, bool(setup.partners), setup.first_to is not None,
                 setup.first_to if setup.first_to is not None else -1, setup.chart == "cage", options.objects, options.increased_kickouts,
                 tuple(options.object_spaces) if options.objects else (), tuple(sorted(pins)[:2]) if options.increased_kickouts else (),
                 prep.pin_at, prep.reach_at, width)
    # what a bout of this setup may share with every other, as no step of it changes it (a
    # bout makes its own where it may: `_Bout.begin`): who is in the ring, his name, figures,
    # plan, skills and call for help unless a tag can change them (9.c); the objects held and
    # kept out of sight unless objects or weapons are played (10.b, 9.f.iv); the calls for
    # help made unless one may be; the chips on cards unless 10.g is played; the wrestlers
    # waiting unless Four-Play (9.e.iii); the chips on the track (10.b, 10.g) if there are none
    falses, nobody = [False] * n, []
    arms = options.objects or options.weapons and setup.chart == "hardcore"
    prep.unchanged = ((list(men), list(prep.sides[0]), list(prep.sides[1]), list(prep.sides[2]), list(prep.side_able), list(prep.side_help)),
                      (None if arms else falses, None if arms else falses, None if prep.helping else falses,
                       None if options.increased_kickouts else [0] * n, None if (setup.ring or n) < n else nobody,
                       None if prep.bout[11] else set(), None if prep.bout[12] else set()))
    if len(_PREPARED) >= 256:
        _PREPARED.clear()
    _PREPARED[key] = (setup, prep)
    return prep


_PREPARED: dict = {}
_DECKS: dict = {}
# FAC types as the codes `_Bout` compares (a card's code: `_Prepared.kinds`); the deck's other types follow
KINDS = ("TV_MOVE", "SIGNATURE", "TRAILING", "GRUDGE", "WILD_CARD", "REF_BUMP", "HIGHLIGHT_REEL", "TEST_OF_STRENGTH",
         "TITLE_HOLDER", "CHEAT", "HELPED")
K_TV, K_SIGNATURE, K_TRAILING, K_GRUDGE, K_WILD, K_REF_BUMP, K_REEL, K_STRENGTH, K_TITLE, K_CHEAT, K_HELPED = range(len(KINDS))
F_SQUARE, F_CONTROL, F_SPECIAL, F_SKILL = 1, 2, 4, 8  # a card's flags
NO_BASE = -2  # a card's base points read by `_points` (TV Move, Grudge, a figure that is not a number)
HELP_NEVER, HELP_WHEN_TRAILING, HELP_AT_ONCE = 0, 1, 2
HELP_CODES = {"never": HELP_NEVER, "when_trailing": HELP_WHEN_TRAILING, "at_once": HELP_AT_ONCE}  # a plan's `call_for_help`
_CASTS: dict = {}
D6 = -1  # a card's points are 1d6
NO_PLAN = Plan()
NOWHERE: frozenset = frozenset()


def _deck(cards: list) -> list:
    """Each FAC as (card, type, base points or D6 (None: read by `_points`), square icon,
    in control, a special card, a skill card), read once a deck."""
    key = id(cards)
    hit = _DECKS.get(key)
    if hit is not None and hit[0] is cards:
        return hit[1]
    made = []
    for card in cards:
        kind, points = card["type"], card.get("points")
        if kind in ("TV_MOVE", "GRUDGE"):
            base = None
        elif points == "d6":
            base = D6
        else:
            try:
                base = int(points or 0)
            except (TypeError, ValueError):
                base = None
        special = kind in SPECIAL_FACS
        skill = not special and kind not in ("TRAILING", "TV_MOVE", "SIGNATURE", "GRUDGE") and base is not None
        made.append((card, kind, base, bool(card.get("square")), bool(card.get("control")), special, skill))
    if len(_DECKS) >= 64:
        _DECKS.clear()
    _DECKS[key] = (cards, made)
    return made


def _cast(entry: dict) -> tuple:
    """`cast_of`, read once an event."""
    casts = _CASTS
    hit = casts.get(id(entry))
    if hit is not None and hit[0] is entry:
        return hit[1]
    cast = cast_of(entry)
    if len(_CASTS) >= 4096:
        _CASTS.clear()
    _CASTS[id(entry)] = (entry, cast)
    return cast


# an event's effect as `_Bout.effect` reads it (`_effect_of`): what it does, to whom (a `WHO` code)
E_NONE, E_MOVE, E_SCORE, E_SCORE_D6, E_LEAGUE, E_SKIP, E_PIN, E_OBJECT = range(8)
_EFFECT_CODES = {"move": E_MOVE, "hotbox": E_MOVE, "score": E_SCORE, "skip": E_SKIP, "pin_attempt": E_PIN, "object": E_OBJECT}
W_FAVORED, W_UNDERDOG, W_LEADER, W_TRAILING, W_BOTH, W_HEEL, W_FACE, W_NOBODY = range(8)
WHO = {"favored": W_FAVORED, "underdog": W_UNDERDOG, "leader": W_LEADER, "trailing": W_TRAILING, "both": W_BOTH, "heel": W_HEEL,
       "face": W_FACE}
_EFFECTS: dict = {}


def _effect_of(eff) -> tuple:
    """An event's effect read once (the data's checks make it "none" or one effect): (code, whom
    as a `WHO` code, the spaces moved (a hotbox foe's backwards) or points scored, the league
    effect's kind and change). The same as `resolve.effect` reads it each time."""
    effects = _EFFECTS
    hit = effects.get(id(eff))
    if hit is not None and hit[0] is eff:
        return hit[1]
    made = (E_NONE, W_NOBODY, 0, None, None)
    if isinstance(eff, dict):
        for kind, args in eff.items():  # its one effect
            break
        else:
            kind = None
        if kind in LEAGUE_EFFECTS:
            made = (E_LEAGUE, WHO.get(args["who"], W_NOBODY), 0, kind, args.get("change", 1))
        elif kind == "hotbox":
            made = (E_MOVE, WHO.get(args["of"], W_NOBODY), args["spaces"] if args["side"] == "ally" else -args["spaces"], None, None)
        elif kind == "move":
            made = (E_MOVE, WHO.get(args["who"], W_NOBODY), args["spaces"], None, None)
        elif kind == "score":
            made = (E_SCORE_D6, WHO.get(args["who"], W_NOBODY), 0, None, None) if args["points"] == "d6" else \
                (E_SCORE, WHO.get(args["who"], W_NOBODY), args["points"], None, None)
        elif kind in _EFFECT_CODES:
            made = (_EFFECT_CODES[kind], WHO.get(args["who"], W_NOBODY), 0, None, None)
    if len(effects) >= 4096:
        effects.clear()
    effects[id(eff)] = (eff, made)
    return made


STORY_PURPOSES = {when: (f"{when} storyline: reel 1d6", f"{when} storyline: event 2d6") for when in ("pre-match", MID_MATCH, "post-match")}


def _trailing(pos: list, sides: list, card_trailing: bool) -> int:
    """7: the trailing wrestler among `sides`, by their spaces `pos`; tied, the first billed,
    but on TRAILING cards the underdog ("the UNDERDOG is considered trailing if tied"), the
    last billed. Both paths ask it: `resolve` and `_Bout`."""
    best = sides[0]
    low = pos[best]
    if card_trailing:
        for k in sides:
            if pos[k] <= low:
                best, low = k, pos[k]
    else:
        for k in sides:
            if pos[k] < low:
                best, low = k, pos[k]
    return best


def _bout(setup: Setup, dice: Dice) -> _Bout:
    """`_Bout(setup, dice)`, made without the call to `__init__` (a C call where compiled)."""
    bout = _Bout.__new__(_Bout)
    bout.begin(setup, dice)
    return bout


def ending(setup: Setup, dice: Dice) -> tuple:
    """How the match `resolve(setup, dice, record=False)` plays ends, and nothing else (the
    odds' trial): (winning side or None, finish, FACs)."""
    bout = _bout(setup, dice)
    bout.run()
    return (bout.winner if bout.winner >= 0 else None, bout.method, bout.drawn)


def resolve(setup: Setup, dice: Dice, record: bool = True) -> Result:
    """Play a match on `dice`. With `record` false (the odds' trial) no line, card list or
    log is kept and no text is made: the same rolls in the same order, the same result."""
    if not record:  # the odds' path: `_Bout`, the same match as a class the compiled path types
        return _bout(setup, dice).play()
    prep = _prepare(setup)
    tables = prep.tables
    shapes, pins, finish, corner, start = prep.track
    reach = prep.reach
    options = setup.options
    n = len(setup.wrestlers)
    team = prep.team
    every_man = prep.every_man
    men = prep.men
    partners = prep.partners
    w = list(men)
    names, info, side_plan = prep.sides  # each side's name, figures and plan (a tag changes them: copied)
    names, info, side_plan = list(names), list(info), list(side_plan)
    infos = prep.info
    plan_of = prep.plan_of
    moves_of = prep.moves_of
    size = setup.ring or n
    ring = list(range(size))  # the sides in the ring, in billing order
    pool = list(range(size, n))
    pos = [start] * n
    lines: list[tuple] = []  # Line fields, made Line records when read (Result.lines); a text may be (function, args)
    league: list = []
    out: list = []
    skip = [False] * n
    knocked = [False] * n  # 8.a: his token's last move was backwards (he did not reach where he stands)
    held = [False] * n  # 10.b: an object in hand
    hidden = [False] * n  # the writeup has said he keeps his object back (use_object)
    helped = [False] * n  # a call for help is answered once a match
    card_chips = [0] * n  # 10.g: kickout chips a wrestler has taken onto his card
    chips = set(options.object_spaces) if options.objects else set()
    kickout_chips = set(sorted(pins)[:2]) if options.increased_kickouts else set()
    last_scorer: int | None = None
    tagging, first_to = bool(setup.partners), setup.first_to
    winner: int | None = None
    loser: int | None = None
    method = "time_limit"
    ref_down = over = False
    hot = setup.hotbox
    allies, foes = hot.get("allies") or [], hot.get("foes") or []
    roll = dice.roll
    cage = setup.chart == "cage"

    note = lines.append

    def put(i: int, space: int) -> None:
        """Side i's token to `space` (within Start and the finisher space). A token moved
        backwards did not reach where it stands (8.a): it makes no pin attempt there."""
        space = start if space < start else finish if space > finish else space
        if space != pos[i]:
            knocked[i] = space < pos[i]
            pos[i] = space

    def say(kind: str, text: str, who: int | None = None, points: int = 0) -> None:
        note((drawn, kind, text, who, points, tuple(pos)))

    def says(kind: str, phrase: str, who: int | None = None, points: int = 0, wrap: tuple | None = None, /, **values) -> None:
        """A line in the commentary's words (data/commentary.yaml): the phrase kind and its
        fields; the wrestler it is about gives its alignment."""
        facts = _ALIGNED.get(w[who].alignment) or {"alignment": w[who].alignment} if who is not None else _NO_FACTS
        note((drawn, kind, (TOLD, (phrase, values, facts, wrap)), who, points, tuple(pos)))

    def leader() -> int:
        best = ring[0]
        for k in ring:
            if pos[k] > pos[best]:
                best = k
        return best  # 7: tied -> the favored (the first billed)

    def trailing(card_trailing: bool = False, among: list | None = None) -> int:
        return _trailing(pos, among or ring, card_trailing)

    def target(i: int) -> int:
        """Whom side i pins or finishes: the opponent furthest behind; tied, the last billed."""
        mine = team[i]
        best = low = None
        for k in ring:
            if team[k] != mine and (low is None or pos[k] <= low):
                best, low = k, pos[k]
        return best

    def whom(who: str) -> list[int]:
        if who == "favored":  # ruling: the first billed still in the ring (9.d.ii eliminates)
            return [ring[0]]
        if who == "underdog":
            return [ring[-1]]
        if who == "leader":
            return [leader()]
        if who == "trailing":
            return [trailing()]
        if who == "both":
            return list(ring)
        if who in ("heel", "face"):  # ruling: of several alike, the first billed; of none, nobody
            return [k for k in ring if w[k].alignment == who][:1]
        return []

    def score(i: int, points: int, why: str, from_card: bool = False) -> None:
        nonlocal last_scorer
        if winner is not None:  # the match is over: nothing moves after the fall
            return
        if skip[i]:
            skip[i] = False
            says("move", "move_wasted", i, name=names[i])
            return
        if points <= 0:
            return
        if from_card and held[i]:  # 10.b.iv: the player's use_object decides, and the story says so
            choice = side_plan[i].use_object
            if wants_object(i):
                held[i] = hidden[i] = False
                points += options.object_bonus
                says("object", "object_used_trailing" if choice == "when_trailing" else "object_used", i, options.object_bonus,
                     name=names[i], bonus=options.object_bonus)
            elif not hidden[i]:
                hidden[i] = True
                says("object", "object_kept_never" if choice == "never" else "object_kept_trailing", i, name=names[i])
        space = pos[i] + points
        pos[i] = space = space if space < finish else finish
        knocked[i] = False
        last_scorer = i
        note((drawn, "move", (TOLD, ("moved", {"name": names[i], "space": space, "points": points, "why": why}, _ALIGNED.get(w[i].alignment, _NO_FACTS), None)),
              i, points, tuple(pos)))  # `says`, inlined: the commonest line
        if chips:
            landed(i)
        if first_to is not None or pos[i] in reach:  # else `attempt` has nothing to do
            attempt(i)
        if tagging and winner is None:
            tag(i)

    # the closures a match may not need are made only where they can be called: each costs
    # time every match (issue 18: the odds play a match in tens of microseconds)
    if options.objects or options.weapons:
        def wants_object(i: int) -> bool:
            choice = side_plan[i].use_object
            return choice == "always" or choice == "when_trailing" and trailing() == i

        if options.objects:
            def landed(i: int) -> None:
                """10.b: "If a wrestler lands exactly on the space, they gain the object. Roll 1d6 and
                move forward that many spaces"."""
                if pos[i] in chips:
                    chips.discard(pos[i])
                    held[i] = True
                    spaces = dice.die(6, f"{names[i]} gains an object: 1d6 forward")
                    put(i, pos[i] + spaces)
                    says("object", "object_found", i, spaces, name=names[i], spaces=spaces, space=pos[i])

    def tag(i: int) -> None:
        """9.c: "When a wrestler scores, they tag out to their partner"; 10.c the advanced table."""
        if options.advanced_tag:
            roll = dice.die(6, f"advanced tag table 1d6 ({names[i]} scored)")
            entry = tables["advanced"]["tag_table"][roll]
            say("tag", entry["text"].format(team=names[i]), i)
            if entry.get("other_scores"):
                others = [k for k in ring if team[k] != team[i]]
                for k in others:
                    put(k, pos[k] + entry["other_scores"])
                retell()
                for k in others:
                    attempt(k)
                    if winner is not None:
                        return
                    switch(k)
                return
            if entry.get("points"):
                put(i, pos[i] + entry["points"])
                retell()
                attempt(i)
                if winner is not None:
                    return
            if not entry.get("switch"):
                return
        switch(i)

    if tagging:
        def switch(i: int) -> None:
            partner = partners[i] if w[i] is men[i] else men[i]
            says("tag", "tag_out", i, name=names[i], partner=partner.name)
            performers.clear()
            performing[:] = [None] * n
            w[i], names[i], info[i], side_plan[i] = partner, partner.name, infos[id(partner)], plan_of[id(partner)]
            if options.refreshment:  # 10.c.ii
                for k in ring:
                    if team[k] != team[i] and pos[k] > start:
                        put(k, pos[k] - 1)
                        says("tag", "fresh_man", k, name=names[k], space=pos[k])

    if options.increased_kickouts:
        def kickout_grade(d: int, space: int) -> str:
            """10.g: AAA on a chipped PIN space; elsewhere a grade worse per chip on his card."""
            if space in kickout_chips:
                return "AAA"
            return GRADES[min(len(GRADES) - 1, GRADES.index(w[d].tv_grade) + card_chips[d])]

    def attempt(i: int) -> None:
        """8.a, 12.3.a "Attacker reaches PIN space": a token that moved forward onto a PIN space
        pins; one knocked back onto it (a foe's run-in, a chart's step back) does not."""
        if winner is not None or over or knocked[i] or every_man and i not in ring:
            return
        if first_to is not None and pos[i] >= first_to:
            fall(i, target(i), "reached")
            return
        if pos[i] in pins:  # 8.a: three kickout rolls for the defender
            o = target(i)
            if ref_down:
                says("pin", "pin_ref_down", i, attacker=names[i], defender=names[o])
                return
            if options.increased_kickouts:
                grade = kickout_grade(o, pos[i])
                top = KICKOUT[grade]
            else:
                grade, top = w[o].tv_grade, info[o][3]
            purposes = info[o][6]
            rolls = []  # for the writeup only
            for k in range(3):
                faces = roll(2, 6, purposes[k])
                got = faces[0] * 10 + faces[1]  # d66 (3.e)
                if 11 <= got <= top:  # `kicks_out` (8.a)
                    rolls.append(got)
                    says("pin", "kickout", i, attacker=names[i], defender=names[o], rolls=", ".join(map(str, rolls)), grade=grade)
                    if pos[i] in kickout_chips:
                        kickout_chips.discard(pos[i])
                        card_chips[o] += 1
                    return
                rolls.append(got)
            says("pin", "pinfall", i, attacker=names[i], defender=names[o], rolls=", ".join(map(str, rolls)), grade=grade)
            fall(i, o, "pin")
        elif pos[i] == finish:  # 8.b
            faces = roll(2, 6, info[i][7])
            got = faces[0] * 10 + faces[1]
            low, high = w[i].finisher_range
            if low <= got <= high:
                move = side_plan[i].finisher_name or w[i].finisher_name
                says("finisher", "finisher_hit", i, attacker=names[i], defender=names[target(i)], move=move, roll=got, low=low, high=high)
                fall(i, target(i), "finisher")
            else:
                put(i, corner)
                move = side_plan[i].finisher_name or w[i].finisher_name
                says("finisher", "finisher_countered", i, attacker=names[i], defender=names[target(i)], move=move, roll=got, low=low, high=high,
                     corner=corner)

    def fall(i: int, o: int, how: str) -> None:
        """A pin or finisher ends a match, or in every man for himself eliminates (9.d.ii)."""
        nonlocal winner, method, loser
        if not every_man or len(ring) == 2:
            winner, method, loser = i, how, o
            if every_man:
                out.append((o, i, how, drawn))
            return
        ring.remove(o)
        out.append((o, i, how, drawn))
        says("elimination", "elimination", i, loser=names[o], winner=names[i])
        performers.clear()
        if pool:  # 9.e.iii: "Replace eliminated wrestlers to extend the match"
            k = pool.pop(0)
            ring.append(k)
            ring.sort()
            says("elimination", "replacement", k, name=names[k], replaced=names[o])

    def retell() -> None:
        """The last line shows the track after what it tells (its moves made since)."""
        lines[-1] = lines[-1][:5] + (tuple(pos),)

    def effect(eff, text: str | None, footage: bool = False) -> None:
        if over:  # 5.d after the bell: the league's effects only; the result stands
            league_only = not isinstance(eff, dict) or next(iter(eff)) in LEAGUE_EFFECTS
            says("post_match", "after_bell" if league_only else "after_bell_stands", event=text)
            if league_only:
                effect_league(eff, text)
            return
        if footage:
            says("storyline", "footage", event=text)
        else:
            note((drawn, "storyline", text, None, 0, tuple(pos)))
        if eff == "none" or not isinstance(eff, dict):
            return
        (kind, args), = eff.items()
        if kind in ("move", "hotbox"):
            if kind == "move":
                sides, step = whom(args["who"]), args["spaces"]
            else:
                sides, step = whom(args["of"]), args["spaces"] if args["side"] == "ally" else -args["spaces"]
            for i in sides:
                put(i, pos[i] + step)
            retell()
            for i in sides:
                attempt(i)
        elif kind == "score":
            for i in whom(args["who"]):
                points = args["points"] if args["points"] != "d6" else dice.die(6, f"{names[i]} chart d6")
                score(i, points, "the chart")
        elif kind in LEAGUE_EFFECTS:
            effect_league(eff, text)
        elif kind == "skip":
            for i in whom(args["who"]):
                skip[i] = True
        elif kind == "pin_attempt":
            for i in whom(args["who"]):
                attempt(i)
        elif kind == "object" and (options.objects or options.weapons and setup.chart == "hardcore"):  # 10.b; 9.f.iv weapons
            for i in whom(args["who"]):
                held[i] = True

    def effect_league(eff, text: str | None) -> None:
        if isinstance(eff, dict):
            (kind, args), = eff.items()
            for i in whom(args["who"]):
                league.append((i, kind, args.get("change", 1), text))

    def cast_here(entry: dict) -> bool:
        """Whether the ring holds the heel and the face an event's text or effect names."""
        for role in _cast(entry):
            if not whom(role):
                return False
        return True

    def event(entry: dict, when: str = "") -> None:
        """A chart or reel event: its text names the HOT BOX ally and foe of the wrestler the
        effect names (its `of`, else its `who`). After the bell (5.d) a reel tells its
        `post_text`, worded for after the match (checked present when the data loads); drawn
        mid-match (7.d) its `mid_text`, else its pre-match `text` told as footage from before
        the bell (never as if the bell had not rung: issue 16)."""
        eff = entry["effect"]
        named = None
        if isinstance(eff, dict):
            (args,) = eff.values()
            found = whom(args.get("of") or args.get("who") or "favored")
            named = found[0] if found else None
        if over:
            text = fill(entry["post_text"], named=named)
        elif when == MID_MATCH:
            if not entry.get("mid_text"):  # a reel without mid_text: told as footage from before the bell
                effect(eff, fill(entry["text"], named=named), footage=True)
                return
            text = fill(entry["mid_text"], named=named)
        else:
            text = fill(entry["text"], named=named)
        effect(eff, text)

    def chart_event(events: dict, purpose: str) -> dict:
        """2d6 on a chart or reel; an event naming a heel or a face the ring does not hold is
        rolled again (rulings), at most CAST_REROLLS times, then nothing happens."""
        faces = roll(2, 6, purpose)
        entry = events[faces[0] + faces[1]]
        if not _cast(entry):  # it names no heel or face: `cast_here`, inlined
            return entry
        tries = 0
        while not cast_here(entry):
            tries += 1
            if tries > CAST_REROLLS:
                return NOTHING
            faces = roll(2, 6, f"{purpose} again: {' and '.join(cast_of(entry))} not in the ring")
            entry = events[faces[0] + faces[1]]
        return entry

    def storyline(when: str) -> None:
        reels = tables["reels"]
        first, second = STORY_PURPOSES[when]
        reel = reels["pick"][roll(1, 6, first)[0]]
        event(chart_event(reels["reels"][reel]["events"], second), when)

    performers: dict = {}
    performing = [None] * n  # a singles match's placeholders by performer (cleared when names change)

    def fill(text: str, performer: int | None = None, named: int | None = None) -> str:
        if "{" not in text:
            return text
        return text.format_map(values_for(performer, named))

    def values_for(performer: int | None = None, named: int | None = None) -> dict:
        """The placeholders' values for a text performed by, or naming, a side."""
        key = (performer, named, winner)
        values = performers.get(key)
        if values is None:
            side = named if named is not None else performer if performer is not None else (0 if 0 in ring else ring[0])
            values = _Fill(underdog=names[ring[-1]],
                           ally=allies[side] if side < len(allies) else "an ally",
                           foe=foes[side] if side < len(foes) else "a rival",
                           grudge=" and ".join(hot.get("grudge") or ()) or "the locker room")
            heel, face = whom("heel"), whom("face")
            values.update(favored=names[ring[0]], heel=names[heel[0]] if heel else "the villain", face=names[face[0]] if face else "the hero")
            if winner is not None:
                values.update(performer=names[ring[0]], opponent=names[ring[-1]], winner=names[winner], loser=names[loser])
            else:
                values.update(performer=names[side], opponent=names[target(side)])
            if n == 2:  # with more in the ring, who faces whom moves with the tokens
                performers[key] = values
        return values

    def performer_of(card: dict, kind: str, control: bool) -> int | None:
        if kind == "TRAILING":
            return trailing(card_trailing=True)
        if kind in ("TV_MOVE", "SIGNATURE"):
            candidates = list(ring)
        elif kind == "GRUDGE":  # 10.h: a wrestler whose tier is worth 0 has no such move
            tier = TIER_INDEX[card["grudge"]]
            able = [k for k in ring if info[k][2][tier] > 0]
            if not able:
                return None
            top = max(w[k].grudge for k in able)
            candidates = [k for k in able if w[k].grudge == top]
            if len(candidates) == 1:
                return candidates[0]
        else:  # 3.d: star anywhere; square or circle only on such spaces
            best = low = None
            count = 0
            scorer = False
            for k in ring:  # in one pass: who qualifies, whether the man in control does, the first of the lowest
                if pos[k] in info[k][0].get(kind, NOWHERE):
                    count += 1
                    if k == last_scorer:
                        scorer = True
                    if best is None or pos[k] < low:
                        best, low = k, pos[k]
            if not count:
                return None
            # in control: the last scorer if he qualifies (ruling); else one alone, or the trailing one (7)
            return last_scorer if control and scorer else best
        if control and last_scorer in candidates:
            return last_scorer  # ruling: the wrestler in control performs, if he qualifies
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        return trailing(among=candidates)  # 7: "TRAILING wrestler performs move; if tied, FAVORED"

    def points_of(card: dict, kind: str, base: int | None, square: bool, i: int) -> int:
        """`_points` with the card's and the wrestler's figures read once (7)."""
        if kind == "TV_MOVE":
            return info[i][1] if info[i][1] is not None else _points(card, w[i], setup, tables, dice, names[i])
        if kind == "GRUDGE":
            return info[i][2][TIER_INDEX[card["grudge"]]]
        if base is None:
            return _points(card, w[i], setup, tables, dice, names[i])
        if base == D6:
            base = roll(1, 6, info[i][4])[0]
        if square:
            base += roll(1, 6, info[i][5])[0]
        if cage and kind == "HELPED":
            base = _caged(base, options)  # 9.b: a cage "Reduces effectiveness of outside interference (HELPED quality)"
        return base

    if prep.helping:
        def call_for_help() -> None:
            """A player's choice (docs/rulings): once a match, the HOT BOX ally may be called."""
            nonlocal helping
            for i in list(ring):
                if helped[i]:
                    continue
                choice = side_plan[i].call_for_help
                if choice == "never" or choice == "when_trailing" and (trailing() != i or pos[leader()] - pos[i] < 3):
                    continue
                helped[i] = True
                helping = any(can_help[k] and not helped[k] for k in range(n))  # none left to call: no more looking
                roll = dice.die(6, f"{names[i]} calls for help 1d6")
                entry = tables["advanced"]["help"][roll]
                spaces = _caged(entry["spaces"], options) if setup.chart == "cage" and entry["spaces"] > 0 else entry["spaces"]  # 9.b
                who = allies[i] if i < len(allies) else "an ally"
                if entry["spaces"] < 0:
                    who = foes[i] if i < len(foes) else "a rival"
                behind = pos[leader()] - pos[i]
                put(i, pos[i] + spaces)
                told = entry["text"].format(wrestler=names[i], ally=who, foe=who)
                if choice == "at_once":
                    says("help", "help_at_once", i, spaces, name=names[i], event=told, change=f"{spaces:+d}", space=pos[i])
                else:
                    says("help", "help_trailing", i, spaces, name=names[i], behind=behind, event=told, change=f"{spaces:+d}", space=pos[i])
                attempt(i)
                if winner is not None:
                    return

    def title_holder(card: dict) -> None:
        """The Title Holder FAC (its `rule` in facs.yaml): the champion in the ring performs
        and scores the card's points; two champions, the tiebreaker (7); none, nobody."""
        holders = [k for k in ring if w[k].id in setup.champions]
        if not holders:
            says("fac", "no_champion", fac=drawn)
            return
        i = holders[0] if len(holders) == 1 else trailing(among=holders)
        points = _points(card, w[i], setup, tables, dice, names[i])
        belts = " and ".join(setup.champions[w[i].id])
        text = card["text"].format_map(values_for(i)) if "{" in card["text"] else card["text"]
        phrase, wrap = _held(drawn, text, names[i])
        says("fac", phrase, i, points, wrap, name=names[i], belts=belts, rest=text[len(names[i]) + 1:])
        score(i, points, "Title Holder", True)

    def ref_bump() -> None:
        nonlocal ref_down
        event(chart_event(tables["reels"]["reels"]["K"]["events"], "ref bump reel K 2d6"))
        if options.ref_bump == "downed":
            ref_down = True  # 10.e.iv: "temporary rule-breaking without consequence"

    if options.out_of_ring:
        def out_of_ring() -> bool:
            """10.f: a Wild Card may spill outside onto the Out of the Ring board."""
            board = tables["advanced"]["out_of_ring"]
            if dice.die(6, "Wild Card: does the fight spill outside? 1d6") not in board["spill"]:
                return False
            space = board["spaces"][dice.die(6, "Out of the Ring board 1d6")]
            tries = 0
            while not cast_here(space) and tries < CAST_REROLLS:  # rulings: as on a chart, roll again
                tries += 1
                space = board["spaces"][dice.die(6, f"Out of the Ring board 1d6 again: {' and '.join(cast_of(space))} not in the ring")]
            says("fac", "spill_outside", fac=drawn, place=space["label"])
            event(space if cast_here(space) else NOTHING)
            return True

    drawn = 0
    played: list = []  # each FAC drawn, for the results (Result.cards)
    helping = prep.helping
    can_help = prep.can_help
    if setup.storylines:
        storyline("pre-match")
    full = prep.deck
    deck = list(full)
    quiet = 0
    ref_down_until = 0
    scripted_bump = setup.ref_bump_at
    guard = FAC_GUARD
    boo_rule = setup.boo_rule
    two = size == 2 and not pool  # the ring is always these two sides
    while winner is None and drawn < guard:
        if not deck:
            deck = list(full)  # all drawn: the deck is gathered up again
        drawn += 1
        dice.round = drawn  # 6.a "Draw FAC" is part of the FAC: its die is logged in its round
        left = len(deck)
        if left > 1:  # drawing at random from what is left is shuffling lazily
            j = roll(1, left, DRAW[left] if left < 256 else f"draw a FAC: d{left}")[0] - 1
            deck[j], deck[-1] = deck[-1], deck[j]
        card, kind, base, square, control, special, skill = deck.pop()
        played.append((None, drawn, card.get("id"), kind))
        if ref_down_until and drawn > ref_down_until:
            ref_down_until = 0
            if ref_down:  # only a referee who went down gets up (10.e, `downed`)
                ref_down = False
                says("fac", "ref_up")
        if boo_rule:
            before = pos[:]
        if not special and scripted_bump != drawn:
            if two and skill:  # a skill card between two: `performer_of`, inlined
                a = pos[0] in info[0][0].get(kind, NOWHERE)
                b = pos[1] in info[1][0].get(kind, NOWHERE)
                if a and b:
                    i = last_scorer if control and last_scorer is not None else 0 if pos[0] <= pos[1] else 1
                else:
                    i = 0 if a else 1 if b else None
            elif two and (kind == "TV_MOVE" or kind == "SIGNATURE"):  # `performer_of` between two, inlined:
                i = last_scorer if control and last_scorer is not None else 0 if pos[0] <= pos[1] else 1  # in control, else the trailing (tied, the favored)
            elif two and kind == "TRAILING":
                i = 1 if pos[1] <= pos[0] else 0  # 7: "For TRAILING cards, UNDERDOG is considered trailing if tied"
            else:
                i = performer_of(card, kind, control)
            if i is None:
                note((drawn, "quiet", (TOLD, ("unused", (_unused_values, (drawn, kind, len(ring))), _NO_FACTS, None)), None, 0, tuple(pos)))
            else:
                if base is None:  # TV Move, Grudge (7.b, 7.c) or a card `_points` reads
                    points = points_of(card, kind, base, square, i)
                else:  # 7.a: base points, or 1d6, and 1d6 more with the square icon (`points_of`, inlined)
                    points = base if base != D6 else roll(1, 6, info[i][4])[0]
                    if square:
                        points += roll(1, 6, info[i][5])[0]
                    if cage and kind == "HELPED":
                        points = _caged(points, options)  # 9.b
                if kind == "CHEAT" and ref_down:
                    points *= 2  # 10.e.iv: cheating behind the referee's back
                template = card["text"]
                values = None
                if "{" in template:
                    values = performing[i] if n == 2 else None
                    if values is None:
                        values = values_for(i)
                        if n == 2:
                            performing[i] = values
                move_name = moves_of[id(w[i])].get(kind)
                if move_name:  # the signature move woven into the card's sentence (issue 16), in the table's words
                    phrase, wrap = _weave(drawn, template.format_map(values) if values is not None else template, names[i])
                    says("fac", phrase, i, points, wrap, name=names[i], move=move_name)
                else:  # the card's own words, filled when read
                    note((drawn, "fac", (_fac_text, (drawn, template, values)), i, points, tuple(pos)))
                if points > 0 and not skip[i] and not held[i]:  # `score`, inlined: the commonest move
                    space = pos[i] + points
                    pos[i] = space = space if space < finish else finish
                    knocked[i] = False
                    last_scorer = i
                    note((drawn, "move", (TOLD, ("moved", {"name": names[i], "space": space, "points": points, "why": _label(kind)},
                                                 _ALIGNED.get(w[i].alignment, _NO_FACTS), None)), i, points, tuple(pos)))
                    if chips:
                        landed(i)
                    if first_to is not None or pos[i] in reach:
                        attempt(i)
                    if tagging and winner is None:
                        tag(i)
                else:
                    score(i, points, _label(kind), True)
        elif scripted_bump == drawn:
            says("fac", "ref_bump_booked", fac=drawn)
            ref_bump()
            ref_down_until = drawn + 1
        elif kind == "WILD_CARD":
            if not (options.out_of_ring and out_of_ring()):
                entry = chart_event(tables["wild"][setup.chart], prep.wild_purpose)
                says("fac", "wild_card", fac=drawn)
                event(entry)
        elif kind == "REF_BUMP":
            says("fac", "ref_bump", fac=drawn)
            if options.ref_bump != "off":
                ref_bump()
                ref_down_until = drawn + 1
            else:
                says("fac", "ref_shakes_off")
        elif kind == "HIGHLIGHT_REEL":
            says("fac", "highlight_reel", fac=drawn)
            storyline(MID_MATCH)
        elif kind == "TEST_OF_STRENGTH":
            rolls = roll(len(ring), 6, prep.order_purpose if len(ring) == size else
                         f"test of strength: 1d6 each, {'favored first' if len(ring) == 2 else 'in billing order'}")
            says("fac", "test_of_strength", fac=drawn, rolls=", ".join(f"{names[k]} {r}" for k, r in zip(ring, rolls)))
            top = max(rolls)
            if rolls.count(top) == 1:
                score(ring[rolls.index(top)], top, "test of strength")
        elif kind == "TITLE_HOLDER":
            title_holder(card)
        if helping and winner is None:
            call_for_help()
        if boo_rule:  # 10.a counts the FACs that moved nothing (without the rule, nothing needs counting)
            if pos == before and winner is None:
                quiet += 1
                if quiet >= BOO_AFTER and 0 in ring:
                    k = dice.die(6, "Boo rule 1d6")
                    put(0, pos[0] + k)
                    says("boo", "boo", 0, name=names[0], spaces=k)
                    quiet = 0
                    attempt(0)
            else:
                quiet = 0
    dice.round = 0
    if winner is None:  # the guard: told at the bell, not only in the headline (issue 16)
        says("bell", "time_limit", fac=drawn)
    over = True  # the bell: the result is final (5.c); what follows is the league's (5.d)
    if setup.storylines:
        storyline("post-match")
    say("end", "")
    lines = _collapse_quiet(lines)
    return Result(winner, method, drawn, list(pos), lines, league, dice.take_log(), out, raw=True, cards=played,
                  key=setup.match_id, facts=match_facts(setup))


# How a signature move joins the card's sentence (issue 16: woven in, not appended in
# parentheses): a clause before its last stop (`follow_up`, or `follow_up_named` when the
# sentence does not open with the performer), or a sentence after a quotation
# (`follow_up_after`), in the commentary table's words.


def _fac_text(drawn: int, template: str, values: dict | None) -> str:
    """A FAC's line without a signature move: the card's text with the performer's names."""
    return f"FAC {drawn}: {template.format_map(values) if values is not None else template}"


def _weave(drawn: int, text: str, name: str) -> tuple[str, tuple]:
    """The phrase kind of a signature move in a card's sentence, and how it is set in it."""
    if _ends_plainly(text):
        return ("follow_up" if name and text.startswith(name + " ") else "follow_up_named"), (_clause, (drawn, text))
    return "follow_up_after", (_after, (drawn, text))


def _clause(clause: str, drawn: int, text: str) -> str:
    return f"FAC {drawn}: {text[:-1]}{clause}{text[-1]}"


def _after(sentence: str, drawn: int, text: str) -> str:
    return f"FAC {drawn}: {text} {sentence}"


def _held(drawn: int, text: str, name: str) -> tuple[str, tuple]:
    """The Title Holder FAC: the champion named with his titles where the sentence names him."""
    if name and text.startswith(name + " "):
        return "champion_named", (_after_fac, (drawn,))
    if _ends_plainly(text):
        return "champion_clause", (_clause, (drawn, text))
    return "champion_after", (_after, (drawn, text))


def _after_fac(sentence: str, drawn: int) -> str:
    return f"FAC {drawn}: {sentence}"


def _ends_plainly(text: str) -> bool:
    """A sentence ending in a full stop or ! (not a quotation): a clause can go before it."""
    return text[-1:] in (".", "!") and text[-2:-1] not in ('"', "'", "\u201d", "")


def _unused_values(drawn: int, kind: str, in_ring: int) -> dict:
    """A FAC nobody in the ring can use (3.d): the fields of its `unused` phrase."""
    two = in_ring == 2
    return {"fac": drawn, "label": _label(kind), "nobody": "neither man" if two else "nobody", "either": "either man" if two else "anyone"}


def _collapse_quiet(lines: list[tuple]) -> list[tuple]:
    """Each run of consecutive FACs nobody can use (`quiet` lines, nothing between them) as
    one line naming their numbers and types (`quiet_run`); it shows the track as they left it."""
    if sum(1 for ln in lines if ln[1] == "quiet") < 2:
        return lines
    out: list[tuple] = []
    run: list[tuple] = []
    for ln in lines + [None]:
        if ln is not None and ln[1] == "quiet":
            run.append(ln)
            continue
        if len(run) == 1:
            out.append(run[0])
        elif run:
            facs = [told[1][1][:2] for _, _, (_, told), *_ in run]  # (_unused_values, (FAC, type, in ring))
            kind, values = quiet_values(facs, run[0][2][1][1][1][2])
            out.append((run[0][0], "quiet", TOLD(kind, values, {}), *run[-1][3:]))
        run = []
        if ln is not None:
            out.append(ln)
    return out


def quiet_values(facs: list[tuple[int, str]], in_ring: int) -> tuple[str, dict]:
    """Consecutive FACs nobody can use, `(number, type)` each: the phrase kind (`quiet_pair`,
    `quiet_run`) and its fields (issue 16: "the next few exchanges go nowhere", not one line
    each)."""
    who = "neither man" if in_ring == 2 else "nobody"
    return ("quiet_pair" if len(facs) == 2 else "quiet_run"), {"first": facs[0][0], "last": facs[-1][0], "kinds": _kinds(facs), "nobody": who}


def quiet_run(facs: list[tuple[int, str]], in_ring: int, teller: Teller | None = None) -> str:
    """A run of FACs nobody can use as one line, in the packaged words (or `teller`'s)."""
    if len(facs) == 1:
        return tell(teller or packaged().teller(""), ("unused", _unused_values(facs[0][0], facs[0][1], in_ring), {}, None), {})
    kind, values = quiet_values(facs, in_ring)
    return tell(teller or packaged().teller(""), (kind, values, {}, None), {})


TIMES = {2: "twice", 3: "three times", 4: "four times"}


def _kinds(facs: list[tuple[int, str]]) -> str:
    """A run's FAC types, each named once in the order first drawn, with how often when more
    than once (issue 16: "Cheat twice and Smart", never "Cheat, Cheat, Smart")."""
    counts: dict[str, int] = {}
    for _, kind in facs:
        counts[kind] = counts.get(kind, 0) + 1
    named = [_label(k) + ("" if c == 1 else f" {TIMES.get(c, f'{c} times')}") for k, c in counts.items()]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def cast_of(entry: dict) -> tuple:
    """The alignments an event needs in the ring: those its effect names (heel, face) and
    those its text names ({heel}, {face})."""
    eff, text = entry.get("effect"), entry.get("text", "")
    named = ()
    if isinstance(eff, dict):
        (args,) = eff.values()
        named = (args.get("of") or args.get("who"),) if isinstance(args, dict) else ()
    return tuple(role for role in ("heel", "face") if role in named or "{" + role + "}" in text)


@cache
def _label(kind: str) -> str:
    """A FAC type as the writeup names it: TV_MOVE -> Tv Move."""
    return kind.replace("_", " ").title()


def _track(track: dict) -> tuple:
    """The track's shapes by space, PIN spaces, finisher space, corner and start (read once)."""
    key = id(track)
    if _TRACKS.get(key, (None,))[0] is not track:
        shapes = {s["space"]: s["shape"] for s in track["spaces"]}
        _TRACKS[key] = (track, (shapes, frozenset(track["pin_spaces"]), track["finisher_space"], track["corner"], track["start"]))
    return _TRACKS[key][1]


_TRACKS: dict = {}


class _Fill(dict):
    """Placeholders for chart and card texts; an unknown one stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _tier(card: dict, wrestler: Wrestler, setup: Setup) -> int:
    """7.c a Grudge card's points for this wrestler: his card's tiers (10.h), else the fed's."""
    tiers = wrestler.tiers if isinstance(wrestler.tiers, tuple) else setup.tiers
    return tiers[TIER_INDEX[card["grudge"]]]


TIER_INDEX = {"gold": 0, "silver": 1, "bronze": 2}


def _points(card: dict, wrestler: Wrestler, setup: Setup, tables: dict, dice: Dice, name: str) -> int:
    """7: skill cards base + 1d6 with the square icon; TV Move by grade; Grudge by tier."""
    kind, points = card["type"], card.get("points")
    if kind == "TV_MOVE":
        return tables["tv"]["tables"][setup.tv_table][wrestler.tv_grade]
    if kind == "GRUDGE":
        return _tier(card, wrestler, setup)
    base = dice.roll(1, 6, f"{name} d6 points")[0] if points == "d6" else int(points or 0)
    if card.get("square"):
        base += dice.roll(1, 6, f"{name} square icon 1d6")[0]
    if kind == "HELPED" and setup.chart == "cage":
        base = _caged(base, setup.options)  # 9.b: a cage "Reduces effectiveness of outside interference (HELPED quality)"
    return base


def _caged(points: int, options: Options) -> int:
    """9.b outside interference inside a cage: half, rounded down (a 1 is stopped) or, with
    the fed's `cage_helped: half_up`, rounded up (a 1 still counts)."""
    return (points + 1) // 2 if options.cage_helped == "half_up" else points // 2


# ---------------------------------------------------------------- the record-free match (issue 18)
#
# The odds' path (`resolve` with `record` false) as a class: the match state as attributes and
# each of `resolve`'s closures a method, so that the compiled path (setup.py; engine.pxd makes
# `_Bout` an extension type with C-typed state and C-level methods) plays it without a Python
# call or a cell per step. It rolls the very dice `resolve` rolls, in the same order, with the
# same purposes, and ends the same way (tests/test_facemat_fast.py, over thousands of random
# matches of every type and option; tests/test_compiled.py, compiled against pure). No text is
# made. Sentinels stand for None where the compiled path keeps a C int: -1 for no winner, no
# last scorer, nobody to perform and no `first_to`.


class _Bout:
    """One match played without records (what `resolve(setup, dice, record=False)` returns)."""

    def __init__(self, setup: Setup, dice: Dice) -> None:
        self.begin(setup, dice)

    def begin(self, setup: Setup, dice: Dice) -> None:
        """The bout's state before the bell (`_bout` makes a bout with it, without `__init__`'s call)."""
        prep = _prepare(setup)
        self.setup = setup
        self.prep = prep
        self.dice = dice
        self.streams = streams_of(dice)  # (rolled as C where compiled: `streams.roll`, `streams.round`)
        self.tables = prep.tables
        (self.finish, self.corner, self.start, n, size, self.tagging, self.has_first_to, self.first_to, self.cage, self.objects,
         self.increased_kickouts, chips, kickout_chips, self.pin_at, self.reach_at, self.width) = prep.bout
        self.options = setup.options
        self.n = n
        self.size = size
        self.team = prep.team
        self.every_man = prep.every_man
        self.men = prep.men
        self.partners = prep.partners
        # what no step of this setup's bouts can change is the setup's own, shared (`_prepare`:
        # `unchanged`); the rest is made for the bout
        unchanged = prep.unchanged
        if self.tagging:  # 9.c: a tag changes who is in the ring: copied
            names, info, side_plan = prep.sides
            self.w, self.names, self.info, self.side_plan = list(prep.men), list(names), list(info), list(side_plan)
            self.able, self.help = list(prep.side_able), list(prep.side_help)
        else:
            self.w, self.names, self.info, self.side_plan, self.able, self.help = unchanged[0]
        self.held, self.hidden, self.helped, self.card_chips, self.pool, self.chips, self.kickout_chips = unchanged[1]
        if self.held is None:  # objects (10.b) or a hardcore match's weapons (9.f.iv)
            self.held, self.hidden = [False] * n, [False] * n
        if self.helped is None:
            self.helped = [False] * n
        if self.card_chips is None:  # 10.g
            self.card_chips = [0] * n
        if self.pool is None:  # Four-Play's wrestlers waiting (9.e.iii)
            self.pool = list(range(size, n))
        if self.chips is None:
            self.chips = set(chips)
        if self.kickout_chips is None:
            self.kickout_chips = set(kickout_chips)
        self.ring = list(range(size))
        self.pos = [self.start] * n
        self.league = []
        self.out = []
        self.skip = [False] * n
        self.knocked = [False] * n
        self.last_scorer = -1
        self.winner = -1
        self.loser = -1
        self.method = "time_limit"
        self.ref_down = False
        self.over = False
        self.drawn = 0
        self.helping = prep.helping

    def put(self, i: int, space: int) -> None:
        """`resolve.put`: side i's token to `space`, within Start and the finisher space."""
        pos = self.pos
        if space < self.start:
            space = self.start
        elif space > self.finish:
            space = self.finish
        if space != pos[i]:
            self.knocked[i] = space < pos[i]
            pos[i] = space

    def leader(self) -> int:
        pos = self.pos
        ring = self.ring
        best = ring[0]
        for k in ring:
            if pos[k] > pos[best]:
                best = k
        return best

    def trailing(self, card_trailing: bool, among: list | None) -> int:
        """`resolve.trailing` (7)."""
        return _trailing(self.pos, among or self.ring, card_trailing)

    def target(self, i: int) -> int:
        """`resolve.target`: the opponent furthest behind; tied, the last billed."""
        pos = self.pos
        team = self.team
        mine = team[i]
        best = -1
        low = 0
        for k in self.ring:
            if team[k] != mine and (best < 0 or pos[k] <= low):
                best, low = k, pos[k]
        return best

    def whom(self, who: str) -> list:
        return self.whom_at(WHO.get(who, W_NOBODY))

    def whom_at(self, who: int) -> list:
        """`resolve.whom` for `who` as its code (`WHO`)."""
        ring = self.ring
        if who == W_FAVORED:
            return [ring[0]]
        if who == W_UNDERDOG:
            return [ring[-1]]
        if who == W_LEADER:
            return [self.leader()]
        if who == W_TRAILING:
            return [self.trailing(False, None)]
        if who == W_BOTH:
            return list(ring)
        if who == W_HEEL or who == W_FACE:
            alignment = "heel" if who == W_HEEL else "face"
            w = self.w
            for k in ring:
                if w[k].alignment == alignment:
                    return [k]
        return []

    def score(self, i: int, points: int, from_card: bool) -> None:
        """`resolve.score`."""
        if self.winner >= 0:
            return
        if self.skip[i]:
            self.skip[i] = False
            return
        if points <= 0:
            return
        if from_card and self.held[i]:
            if self.wants_object(i):
                self.held[i] = self.hidden[i] = False
                points += self.options.object_bonus
            elif not self.hidden[i]:
                self.hidden[i] = True
        self.moved(i, points)

    def moved(self, i: int, points: int) -> None:
        """Side i scores `points` (more than none): his token forward, then what follows."""
        pos = self.pos
        space = pos[i] + points
        pos[i] = space if space < self.finish else self.finish
        self.knocked[i] = False
        self.last_scorer = i
        if self.chips:
            self.landed(i)
        if self.has_first_to or self.reach_at[pos[i]]:
            self.attempt(i)
        if self.tagging and self.winner < 0:
            self.tag(i)

    def wants_object(self, i: int) -> bool:
        choice = self.side_plan[i].use_object
        return choice == "always" or choice == "when_trailing" and self.trailing(False, None) == i

    def landed(self, i: int) -> None:
        """`resolve.landed` (10.b)."""
        pos = self.pos
        if pos[i] in self.chips:
            self.chips.discard(pos[i])
            self.held[i] = True
            spaces = self.streams.roll(1, 6, f"{self.names[i]} gains an object: 1d6 forward")[0]
            self.put(i, pos[i] + spaces)

    def tag(self, i: int) -> None:
        """`resolve.tag` (9.c, 10.c)."""
        if self.options.advanced_tag:
            pos = self.pos
            team = self.team
            entry = self.tables["advanced"]["tag_table"][self.streams.roll(1, 6, f"advanced tag table 1d6 ({self.names[i]} scored)")[0]]
            if entry.get("other_scores"):
                others = [k for k in self.ring if team[k] != team[i]]
                for k in others:
                    self.put(k, pos[k] + entry["other_scores"])
                for k in others:
                    self.attempt(k)
                    if self.winner >= 0:
                        return
                    self.switch(k)
                return
            if entry.get("points"):
                self.put(i, pos[i] + entry["points"])
                self.attempt(i)
                if self.winner >= 0:
                    return
            if not entry.get("switch"):
                return
        self.switch(i)

    def switch(self, i: int) -> None:
        """`resolve.switch`: the partner comes in (9.c); 10.c.ii refreshment."""
        men = self.men
        partner = self.partners[i] if self.w[i] is men[i] else men[i]
        self.w[i], self.names[i] = partner, partner.name
        self.info[i], self.side_plan[i] = self.prep.info[id(partner)], self.prep.plan_of[id(partner)]
        self.able[i], self.help[i] = self.prep.able_of[id(partner)], self.prep.help_of[id(partner)]
        if self.options.refreshment:
            pos = self.pos
            team = self.team
            for k in self.ring:
                if team[k] != team[i] and pos[k] > self.start:
                    self.put(k, pos[k] - 1)

    def attempt(self, i: int) -> None:
        """`resolve.attempt`: a pin (8.a), a finisher (8.b), a mini-match's mark."""
        if self.winner >= 0 or self.over or self.knocked[i]:
            return
        if self.every_man:
            ring = self.ring
            for x in range(len(ring)):
                if ring[x] == i:
                    break
            else:
                return
        pos = self.pos
        space = pos[i]
        if self.has_first_to and space >= self.first_to:
            self.fall(i, self.target(i), "reached")
            return
        if self.pin_at[space]:  # 8.a: three kickout rolls for the defender
            o = self.target(i)
            if self.ref_down:
                return
            if self.increased_kickouts:
                if space in self.kickout_chips:
                    top = KICKOUT["AAA"]
                else:
                    top = KICKOUT[GRADES[min(len(GRADES) - 1, GRADES.index(self.w[o].tv_grade) + self.card_chips[o])]]
            else:
                top = self.info[o][3]
            purposes = self.info[o][6]
            streams = self.streams
            for k in range(3):
                faces = streams.roll(2, 6, purposes[k])
                got = faces[0] * 10 + faces[1]
                if 11 <= got <= top:
                    if space in self.kickout_chips:
                        self.kickout_chips.discard(space)
                        self.card_chips[o] += 1
                    return
            self.fall(i, o, "pin")
        elif space == self.finish:  # 8.b
            faces = self.streams.roll(2, 6, self.info[i][7])
            got = faces[0] * 10 + faces[1]
            low, high = self.w[i].finisher_range
            if low <= got <= high:
                self.fall(i, self.target(i), "finisher")
            else:
                self.put(i, self.corner)

    def fall(self, i: int, o: int, how: str) -> None:
        """`resolve.fall`: the end of the match, or an elimination (9.d.ii, 9.e.iii)."""
        ring = self.ring
        if not self.every_man or len(ring) == 2:
            self.winner, self.method, self.loser = i, how, o
            if self.every_man:
                self.out.append((o, i, how, self.drawn))
            return
        ring.remove(o)
        self.out.append((o, i, how, self.drawn))
        if self.pool:
            ring.append(self.pool.pop(0))
            ring.sort()

    def effect(self, eff) -> None:
        """`resolve.effect`, told nothing; the effect read once (`_effect_of`)."""
        code, who, amount, kind, change = _effect_of(eff)
        if self.over:  # after the bell only the league's effects apply
            if code == E_LEAGUE:
                self.effect_league(who, kind, change)
            return
        if code == E_NONE:
            return
        if code == E_MOVE:  # move, or a hotbox ally (foe: backwards)
            sides = self.whom_at(who)
            pos = self.pos
            for i in sides:
                self.put(i, pos[i] + amount)
            for i in sides:
                self.attempt(i)
        elif code == E_SCORE:
            for i in self.whom_at(who):
                self.score(i, amount, False)
        elif code == E_SCORE_D6:
            for i in self.whom_at(who):
                self.score(i, self.streams.roll(1, 6, f"{self.names[i]} chart d6")[0], False)
        elif code == E_LEAGUE:
            self.effect_league(who, kind, change)
        elif code == E_SKIP:
            for i in self.whom_at(who):
                self.skip[i] = True
        elif code == E_PIN:
            for i in self.whom_at(who):
                self.attempt(i)
        elif code == E_OBJECT and (self.objects or self.options.weapons and self.setup.chart == "hardcore"):
            for i in self.whom_at(who):
                self.held[i] = True

    def effect_league(self, who: int, kind: str, change) -> None:
        for i in self.whom_at(who):
            self.league.append((i, kind, change, None))

    def cast_here(self, entry: dict) -> bool:
        for role in _cast(entry):
            if not self.whom(role):
                return False
        return True

    def chart_event(self, events: dict, purpose: str) -> dict:
        """`resolve.chart_event`: 2d6; an event naming a heel or a face not in the ring is rolled again."""
        faces = self.streams.roll(2, 6, purpose)
        entry = events[faces[0] + faces[1]]
        if not _cast(entry):
            return entry
        tries = 0
        while not self.cast_here(entry):
            tries += 1
            if tries > CAST_REROLLS:
                return NOTHING
            faces = self.streams.roll(2, 6, f"{purpose} again: {' and '.join(cast_of(entry))} not in the ring")
            entry = events[faces[0] + faces[1]]
        return entry

    def storyline(self, purposes: tuple) -> None:
        """A Highlight Reel (5.a, 7.d, 5.d): 1d6 picks the reel, 2d6 the event; `purposes` as STORY_PURPOSES gives them."""
        prep = self.prep
        reel = prep.pick[self.streams.roll(1, 6, purposes[0])[0]]
        self.effect(self.chart_event(prep.reel_events[reel], purposes[1])["effect"])

    def performer_of(self, c: int, code: int, control: bool) -> int:
        """`resolve.performer_of` (6, 7, 3.d, 10.h) for card `c` of type `code`; -1: nobody."""
        ring = self.ring
        pos = self.pos
        last_scorer = self.last_scorer
        if code == K_TRAILING:
            return self.trailing(True, None)
        if code == K_TV or code == K_SIGNATURE:
            candidates = ring  # (only read below)
        elif code == K_GRUDGE:  # those with the move (10.h), the higher grudge grade of them
            tier = self.prep.tier_of[c]
            info = self.info
            w = self.w
            best = -1
            top = 0
            tied = False
            for x in range(len(ring)):
                k = ring[x]
                if info[k][2][tier] > 0:
                    grudge = w[k].grudge
                    if best < 0 or grudge > top:
                        best, top, tied = k, grudge, False
                    elif grudge == top:
                        tied = True
            if best < 0:
                return -1
            if not tied:
                return best
            candidates = [k for k in ring if info[k][2][tier] > 0 and w[k].grudge == top]
        else:  # a skill: those whose symbol the space allows (3.d), the trailing one of them
            best = -1
            low = 0
            scorer = False
            tables = self.able
            at = code * self.width
            for x in range(len(ring)):
                k = ring[x]
                space = pos[k]
                row = tables[k]
                if row[at + space]:
                    if k == last_scorer:
                        scorer = True
                    if best < 0 or space < low:
                        best, low = k, space
            if best < 0:
                return -1
            return last_scorer if control and scorer else best
        if control and last_scorer >= 0:
            for x in range(len(candidates)):
                if candidates[x] == last_scorer:
                    return last_scorer
        if not candidates:
            return -1
        if len(candidates) == 1:
            return candidates[0]
        return _trailing(pos, candidates, False)

    def points_of(self, c: int, code: int, i: int) -> int:
        """`resolve.points_of` (7) for a card whose points are not a figure: TV Move, Grudge, or read by `_points`."""
        info = self.info
        if code == K_TV and info[i][1] is not None:
            return info[i][1]
        if code == K_GRUDGE:
            return info[i][2][self.prep.tier_of[c]]
        return _points(self.prep.deck[c][0], self.w[i], self.setup, self.tables, self.streams, self.names[i])

    def call_for_help(self) -> None:
        """`resolve.call_for_help`: once a match, the HOT BOX ally."""
        pos = self.pos
        helped = self.helped
        calls = self.help
        ring = self.ring
        for x in range(len(ring)):  # (most FACs nobody calls: the ring is copied only when one does)
            i = ring[x]
            if not helped[i] and calls[i] and (calls[i] == HELP_AT_ONCE or self.trailing(False, None) == i and pos[self.leader()] - pos[i] >= 3):
                break
        else:
            return
        can_help = self.prep.can_help
        for i in list(ring):
            if helped[i]:
                continue
            choice = calls[i]
            if choice == HELP_NEVER or choice == HELP_WHEN_TRAILING and (self.trailing(False, None) != i or pos[self.leader()] - pos[i] < 3):
                continue
            helped[i] = True
            self.helping = any(can_help[k] and not helped[k] for k in range(self.n))
            entry = self.tables["advanced"]["help"][self.streams.roll(1, 6, f"{self.names[i]} calls for help 1d6")[0]]
            spaces = _caged(entry["spaces"], self.options) if self.setup.chart == "cage" and entry["spaces"] > 0 else entry["spaces"]
            self.put(i, pos[i] + spaces)
            self.attempt(i)
            if self.winner >= 0:
                return

    def title_holder(self, card: dict) -> None:
        champions = self.setup.champions
        w = self.w
        holders = [k for k in self.ring if w[k].id in champions]
        if not holders:
            return
        i = holders[0] if len(holders) == 1 else self.trailing(False, holders)
        self.score(i, _points(card, w[i], self.setup, self.tables, self.streams, self.names[i]), True)

    def ref_bump(self) -> None:
        self.effect(self.chart_event(self.tables["reels"]["reels"]["K"]["events"], "ref bump reel K 2d6")["effect"])
        if self.options.ref_bump == "downed":
            self.ref_down = True

    def out_of_ring(self) -> bool:
        """`resolve.out_of_ring` (10.f)."""
        board = self.tables["advanced"]["out_of_ring"]
        if self.streams.roll(1, 6, "Wild Card: does the fight spill outside? 1d6")[0] not in board["spill"]:
            return False
        space = board["spaces"][self.streams.roll(1, 6, "Out of the Ring board 1d6")[0]]
        tries = 0
        while not self.cast_here(space) and tries < CAST_REROLLS:
            tries += 1
            space = board["spaces"][self.streams.roll(1, 6, f"Out of the Ring board 1d6 again: {' and '.join(cast_of(space))} not in the ring")[0]]
        self.effect((space if self.cast_here(space) else NOTHING)["effect"])
        return True

    def play(self) -> Result:
        """The match (`run`) as `resolve` returns it."""
        self.run()
        return Result(self.winner if self.winner >= 0 else None, self.method, self.drawn, self.pos, None, self.league, None, self.out)

    def run(self) -> None:
        """The match, FAC by FAC (`resolve`'s loop, told nothing): how it ended is left in the
        bout (`winner`, -1 for none; `method`; `drawn`, the FACs)."""
        setup = self.setup
        prep = self.prep
        dice = self.dice
        streams = self.streams
        options = self.options
        pos = self.pos
        info = self.info
        skip = self.skip
        held = self.held
        if setup.storylines:
            self.storyline(STORY_PURPOSES["pre-match"])
        # the deck as card indices: the first `left` of `order` are the cards not yet drawn
        identity = prep.identity
        order = bytearray(identity)
        cards = left = len(prep.deck)
        kinds = prep.kinds
        flags = prep.flags
        bases = prep.bases
        able = self.able
        width = self.width
        quiet = 0
        ref_down_until = 0
        scripted_bump = setup.ref_bump_at if setup.ref_bump_at is not None else -1
        boo_rule = setup.boo_rule
        two = self.size == 2 and not self.pool
        before = pos
        drawn = 0
        guard = FAC_GUARD
        while self.winner < 0 and drawn < guard:
            if not left:
                order[:] = identity
                left = cards
            drawn += 1
            self.drawn = drawn
            streams.round = drawn
            if left > 1:
                faces = streams.roll(1, left, DRAW[left] if left < 256 else f"draw a FAC: d{left}")
                j = faces[0] - 1
                c = order[j]
                order[j] = order[left - 1]
            else:
                c = order[0]
            left -= 1
            code = kinds[c]
            flag = flags[c]
            if ref_down_until and drawn > ref_down_until:
                ref_down_until = 0
                self.ref_down = False
            if boo_rule:
                before = pos[:]
            if not flag & F_SPECIAL and scripted_bump != drawn:
                control = flag & F_CONTROL
                if two and flag & F_SKILL:
                    at = code * width
                    p0 = pos[0]
                    p1 = pos[1]
                    row = able[0]
                    a = row[at + p0]
                    row = able[1]
                    b = row[at + p1]
                    if a and b:
                        i = self.last_scorer if control and self.last_scorer >= 0 else 0 if p0 <= p1 else 1
                    else:
                        i = 0 if a else 1 if b else -1
                elif two and (code == K_TV or code == K_SIGNATURE):
                    i = self.last_scorer if control and self.last_scorer >= 0 else 0 if pos[0] <= pos[1] else 1
                elif two and code == K_TRAILING:
                    i = 1 if pos[1] <= pos[0] else 0
                else:
                    i = self.performer_of(c, code, control)
                if i >= 0:
                    base = bases[c]
                    if base == NO_BASE:
                        points = self.points_of(c, code, i)
                    else:
                        points = base if base != D6 else streams.roll(1, 6, info[i][4])[0]
                        if flag & F_SQUARE:
                            points += streams.roll(1, 6, info[i][5])[0]
                        if self.cage and code == K_HELPED:
                            points = _caged(points, options)
                    if code == K_CHEAT and self.ref_down:
                        points *= 2
                    if points > 0 and not skip[i] and not held[i]:
                        self.moved(i, points)
                    else:
                        self.score(i, points, True)
            elif scripted_bump == drawn:
                self.ref_bump()
                ref_down_until = drawn + 1
            elif code == K_WILD:
                if not (options.out_of_ring and self.out_of_ring()):
                    events = prep.wild_events if prep.wild_events is not None else self.tables["wild"][setup.chart]
                    self.effect(self.chart_event(events, prep.wild_purpose)["effect"])
            elif code == K_REF_BUMP:
                if options.ref_bump != "off":
                    self.ref_bump()
                    ref_down_until = drawn + 1
            elif code == K_REEL:
                self.storyline(STORY_PURPOSES[MID_MATCH])
            elif code == K_STRENGTH:
                ring = self.ring
                rolls = streams.roll(len(ring), 6, prep.order_purpose if len(ring) == self.size else
                             f"test of strength: 1d6 each, {'favored first' if len(ring) == 2 else 'in billing order'}")
                top = max(rolls)
                if rolls.count(top) == 1:
                    self.score(ring[rolls.index(top)], top, False)
            elif code == K_TITLE:
                self.title_holder(prep.deck[c][0])
            if self.helping and self.winner < 0:
                self.call_for_help()
            if boo_rule:  # 10.a
                if pos == before and self.winner < 0:
                    quiet += 1
                    if quiet >= BOO_AFTER and 0 in self.ring:
                        self.put(0, pos[0] + streams.roll(1, 6, "Boo rule 1d6")[0])
                        quiet = 0
                        self.attempt(0)
                else:
                    quiet = 0
        streams.round = 0
        dice.round = 0  # (the same for seeded dice; other dice take it from `streams` only when they roll)
        self.over = True
        if setup.storylines:
            self.storyline(STORY_PURPOSES["post-match"])
