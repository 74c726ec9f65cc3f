"""Face to the Mat: TV grades, grudges, Fast Action Cards and the match track."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fedtool.kernel.dice import Dice
from fedtool.kernel.errors import Collector, FedError, Problem
from fedtool.kernel.validation import place, validate
from fedtool.kernel.values import one_line
from fedtool.kernel.yamlio import load_yaml, parse_yaml, read_text
from fedtool.rulesets.base import Booking, CardOnFile, Column, FedFiles, MatchOnCard, Ruleset, Submodule, Trial, WrestlerRecord, kept_reading
from .changes import tell_change
from .rules import data, fed_data
from .terms import GRADES, SKILLS
from .sheet import Wrestler, read_card

if TYPE_CHECKING:
    from fedtool.kernel.commentary import Commentary

    from .models import FaceToTheMatSettings

def _word(teller, kind: str) -> str:
    """A joiner of the phrase table (`join_sides`: " vs. ", `join_partners`: " & "): its first
    phrase, never a choice, so a match joins its names the same way everywhere."""
    return teller.table.phrases[kind][0].text


# imported when first used (issue 18): reading a sheet or the standings needs none of them
_engine = Submodule(__name__, "engine", "_engine")
_rating = Submodule(__name__, "rating", "_rating")
_royale = Submodule(__name__, "royale", "_royale")
_models = Submodule(__name__, "models", "_models")  # pydantic's: imported when a file is first checked

_MODELS = frozenset(("Tiers", "ObjectSettings", "FaceToTheMatSettings", "CardFields", "StrategyModel", "FinisherModel", "CardModel"))


def __getattr__(name: str) -> Any:
    """The models, moved to .models (imported when first asked for: `from fedtool.rulesets.facemat import Tiers`)."""
    if name in _MODELS:
        return getattr(_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# 9.a: "Roll 1d6 for match type: 1-2 Normal, 3-4 Cage, 5 Hardcore, 6 Special (roll again or choose)"
GRUDGE_TYPES = {1: "normal", 2: "normal", 3: "cage", 4: "cage", 5: "hardcore", 6: None}
# 9.a: "Roll 1d6 for stakes: 1-2 TV Grade change, 3-4 Loser leaves town, 5 Title shot, 6 Special prize"
GRUDGE_STAKES = {1: "tv_grade", 2: "tv_grade", 3: "loser_leaves_town", 4: "loser_leaves_town", 5: "title_shot", 6: None}
# a 6, "Special prize (roll again or choose)": the card's `special_prize` is the fedhead's choice; without one, roll again
PRIZES = ("tv_grade", "loser_leaves_town", "title_shot", "extra_grade")
STAKES_TEXT = {"tv_grade": "TV grades", "loser_leaves_town": "loser leaves town", "title_shot": "a title shot",
               "special_prize": "a special prize (a second TV grade for the winner)"}


INTERVIEW = "interview: "  # how an interview segment's league effect is marked in a result's league list (10.d)


def roll_grudge(setup: _engine.Setup, dice: Dice, chosen: str | None = None, prize: str | None = None) -> dict:
    """9.a: the match-type and stakes rolls (a 6 rolls again: docs/rulings). A hardcore roll
    for a pair that is not both MEAN makes it a normal match (9.f: MEAN wrestlers only). A
    type the card chose (`cage grudge`: 9.a "roll again or choose") is kept: no type roll.
    A stakes 6 gives the fedhead's `prize` when the card chose one (`special_prize`), else
    rolls again."""
    kind = chosen
    while kind is None:
        kind = GRUDGE_TYPES[dice.die(6, "grudge match type 1d6")]
    if kind == "hardcore" and not all("MEAN" in w.skills for w in setup.wrestlers + setup.partners):
        kind = "normal"
    stakes = special = None
    while stakes is None:
        stakes = GRUDGE_STAKES[dice.die(6, "grudge stakes 1d6")]
        if stakes is None and prize is not None:  # "Special prize (roll again or choose)": the fedhead chose
            stakes = special = "special_prize" if prize == "extra_grade" else prize
    stakes_text = STAKES_TEXT[stakes] if special is None or stakes == "special_prize" else f"a special prize: {STAKES_TEXT[stakes]}"
    return {"type": kind, "chart": kind, "stakes": stakes, "type_text": f"a {kind} match", "stakes_text": stakes_text, "chosen": chosen is not None}


def tier_points(card_tiers: str | tuple, options: FaceToTheMatSettings) -> tuple[int, int, int]:
    """10.h a wrestler card's `tiers:` as gold, silver and bronze points (docs/rulings):
    average, the fed's (7.c: 3, 2, 1); superior, GOLD 5 ("Increase GOLD to 5 points");
    inferior, no GOLD move (0: he cannot perform a gold Grudge card), or with the fed's
    `inferior_tiers: reduced` each one point less, never below 1; or the card's own points."""
    gold, silver, bronze = options.tiers.gold, options.tiers.silver, options.tiers.bronze
    if isinstance(card_tiers, tuple):
        return card_tiers
    if card_tiers == "superior":
        return (max(5, gold), silver, bronze)
    if card_tiers == "inferior":
        return (0, silver, bronze) if options.inferior_tiers == "no_gold" else (max(1, gold - 1), max(1, silver - 1), max(1, bronze - 1))
    return (gold, silver, bronze)


def shift_grade(grade: str, change: int) -> str:
    """A TV grade moved `change` steps (+1 = one grade better), kept within AAA-F."""
    index = min(len(GRADES) - 1, max(0, GRADES.index(grade) - change))
    return GRADES[index]


def _title(wrestler_id: str) -> str:
    return wrestler_id.replace("-", " ").title()


MATCH_TYPES = ("normal", "cage", "hardcore", "grudge", "tag", "three_for_all", "battle_royale")


def formats() -> dict[str, tuple[str, ...]]:
    """Each match type's formats, its default first (9.d-e)."""
    return {"three_for_all": ("every_man", "two_on_one"), "battle_royale": _royale.METHODS}


def chosen_grudge_type(stipulation: str | None) -> str | None:
    """The match type a card chose for a grudge match (`cage grudge`, `hardcore grudge`,
    `normal grudge`), or None when the grudge roll decides."""
    words = (stipulation or "").replace("+", " ").split()
    if "grudge" not in words:
        return None
    return "hardcore" if "hardcore" in words else "cage" if "cage" in words else "normal" if "normal" in words else None


def match_type(stipulation: str | None) -> tuple[str, str]:
    """A card's stipulation read as (match type, Wild Card chart). Hardcore "can be combined
    with other match types" (9.f.iii), and so can the cage: `hardcore tag`, `cage grudge`."""
    words = (stipulation or "normal").replace("+", " ").split()
    chart = "hardcore" if "hardcore" in words else "cage" if "cage" in words else "normal"
    kinds = [w for w in words if w not in ("hardcore", "cage", "normal")]
    kind = kinds[0] if len(kinds) == 1 else "normal" if not kinds else "?"
    if len(set(words)) < len(words) or "normal" in words and chart != "normal":  # `cage cage`, `cage normal`: no match type
        kind = "?"
    return kind, chart


def _roster(fed: FedFiles) -> dict[str, WrestlerRecord]:
    """Every Face to the Mat wrestler on the fed's roster (for the HOT BOX and challenges),
    read again only when a roster file changes."""
    return _roster_cached(tuple(sorted((wid, str(path), fed.shown(path), path.stat().st_mtime_ns) for wid, path in fed.roster_files.items())))


@lru_cache(maxsize=8)
def _roster_cached(files: tuple) -> dict[str, WrestlerRecord]:
    out = {}
    for wid, path, shown, _ in files:
        data = load_yaml(Path(path), shown)
        if isinstance(data, dict) and data.get("ruleset") == "facemat":
            out[wid] = FaceToTheMat().read_sheet(data, shown, wid, {})
    return out


def read_plan(data: Any, file: str, wrestler: Wrestler, roster: dict) -> _engine.Plan:
    """A Face to the Mat strategy file, checked against the wrestler's card and the roster."""
    model = validate(_models.StrategyModel, data, file, "Face to the Mat strategy")
    problems = Collector()
    moves = []
    for skill, name in model.signature_moves.items():
        key = skill.strip().upper()
        if key not in SKILLS and key not in ("TV_MOVE", "SIGNATURE", "GRUDGE", "TRAILING"):
            problems.add(file, place(data, ("signature_moves", skill)), f"unknown skill {skill!r}; name a move for one of {', '.join(SKILLS)}, TV_MOVE, SIGNATURE, GRUDGE or TRAILING", "Face to the Mat 3.c")
        elif not name.strip() or len(name) > 80 or not one_line(name):
            problems.add(file, place(data, ("signature_moves", skill)), "a move's name is one line of 1 to 80 characters", "Face to the Mat strategy")
        else:
            moves.append((key, name.strip()))
    if model.challenge is not None:
        if model.challenge == wrestler.id:
            problems.add(file, place(data, ("challenge",)), "a wrestler cannot challenge himself", "Face to the Mat 9.a")
        elif model.challenge not in roster:
            problems.add(file, place(data, ("challenge",)), f"challenge {model.challenge!r}: no Face to the Mat wrestler by that id on the roster", "Face to the Mat 9.a")
    problems.raise_if_any()
    return _engine.Plan(tuple(moves), model.finisher, model.use_object, model.call_for_help, model.promo.strip(), model.challenge)


def _read_kept(cache: dict, path: Path, shown: str, wrestler: Wrestler, roster: dict) -> _engine.Plan:
    """`read_plan` of a strategy file, kept in `cache` (`kept_reading`) under its whole text,
    the file's name as shown and the wrestler's id (all of his card a plan is checked
    against), with the roster it was checked against (a challenge names a wrestler on it;
    the roster is read anew when a sheet changes). The file is read every time."""
    text = read_text(path, shown)
    key = ("facemat strategy", text, shown, wrestler.id, id(roster))
    return kept_reading(cache, key, roster, lambda: read_plan(parse_yaml(text, shown, keep=True), shown, wrestler, roster))

@dataclass(frozen=True)
class OddsSetup:
    """What a Face to the Mat trial plays (`FaceToTheMat.trial_setup`)."""

    setup: _engine.Setup
    interviews: bool
    kind: str | None  # the match type: singles, tag, grudge, three_for_all, battle_royale
    stipulation: str | None
    prize: str | None
    format: str | None
    mini_match_to: int | None
    teams: tuple  # each side's team: Trial.winner is a team
    charts: dict | None = None  # a grudge match: the setup on each Wild Card chart its 9.a roll may pick, made once


_TRIALS: dict = {}  # (winning team, finish, FACs) -> its Trial, shared: a Trial is frozen


class FaceToTheMat(Ruleset):
    id = "facemat"
    name = "Face to the Mat"
    # 2 (issue 14): only who reached a PIN space pins; the result is final at the bell; an
    # event naming a heel or a face not in the ring is rolled again (docs/rulings/face-to-the-mat.md)
    rules_revision = 2
    template = "facemat/match"
    length_word = "FAC"  # a result's `round` is the FAC the match ended on ("in FAC 33")
    @property
    def card_fields(self) -> type:  # type: ignore[override]
        return _models.CardFields
    finishes = ("pin", "finisher", "countout", "dq")
    strategy_optional = True  # the cards decide; a strategy adds names, a promo and choices

    def missing_strategy(self, settings: dict) -> str:
        """No strategy: the cards decide, with the card's own move names (the fed's default)."""
        return settings.get("missing_strategy", "default")

    def contender_key(self, row: dict) -> tuple:
        """The better TV grade (3.a)."""
        return (-GRADES.index(row["tv_grade"]) if row["tv_grade"] in GRADES else -len(GRADES),)

    def standing_columns(self) -> tuple[Column, ...]:
        return (Column("TV grade", lambda r: r["tv_grade"] or ""),)

    def opponents(self, sides: list[str], wrestler_id: str) -> list[str]:
        """Less a tag partner: on the card the first two sides are a team, the last two the other (9.c)."""
        mine = sides.index(wrestler_id)
        tag = len(sides) == 4
        return [o for i, o in enumerate(sides) if i != mine and not (tag and i // 2 == mine // 2)]

    def season_carry(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """3.a TV grades, 3.b grudge grades (with the allies, foes and challenges of the HOT BOX, 4.b)."""
        return {"tv_grades": (("tv_grade",), "TV grade (3.a)"),
                "grudge_grades": (("grudge", "allies", "foes", "challenge"), "grudge grade, allies, foes and challenges (3.b, 4.b)")}

    def chart(self, settings: dict) -> tuple[str, str, list]:
        return "tv_grade", "TV grade", list(reversed(GRADES))  # F at the bottom

    def read_sheet(self, data: Any, file: str, wrestler_id: str, members: dict) -> WrestlerRecord:
        card = read_card(data, file, wrestler_id)
        return WrestlerRecord(wrestler_id, card.name, self.id, card.owner_name, card.owner_email, card)

    def settings(self, raw: dict) -> FaceToTheMatSettings:
        return validate(_models.FaceToTheMatSettings, raw, "rosters/fed.yaml", "fed settings: rulesets.facemat", prefix=("rulesets", "facemat"))

    def tables(self, options: FaceToTheMatSettings, root: Path) -> dict | None:
        """The fed's own data files (`data: DIR` inside the fed), checked; None for the packaged ones."""
        if options.data is None:
            return None
        folder = (root / options.data).resolve()
        if ".." in Path(options.data).parts or not folder.is_relative_to(root.resolve()) or not folder.is_dir():
            raise FedError(Problem("rosters/fed.yaml", "field rulesets.facemat.data", f"{options.data!r}: a data folder is a folder inside the fed's folder, "
                                   "written relative to it (no leading /, ~ or ..)" + ("" if ".." in Path(options.data).parts or not folder.is_relative_to(root.resolve()) else "; there is no such folder"),
                                   "fed settings: rulesets.facemat"))
        return fed_data(folder, options.data)

    def initial_state(self, wrestler: WrestlerRecord) -> dict:
        sheet = wrestler.sheet
        return {"tv_grade": sheet.tv_grade, "grudge": sheet.grudge, "allies": list(sheet.allies), "foes": list(sheet.foes)}

    def hot_box(self, front: list[str], in_match: set[str], lists: dict, roster: dict[str, WrestlerRecord], states: dict) -> tuple[list, list, list]:
        """4.b the HOT BOX's six places, filled in the rulebook's order: each side's ally and
        foe (billing order: the favored's first), then "two wrestlers with highest Grudge
        Grades not in the match". Each place takes the first wrestler of its list who is not
        in the match, has not left town (9.a) and holds no other place: a wrestler has one
        token, so nobody is listed twice (docs/rulings). `lists`: wrestler id -> his state
        (allies and foes); `states`: the league's, for who left town and the grudge grades."""
        placed: set[str] = set()

        def state_of(wid: str) -> dict:
            record = roster.get(wid)
            start = self.initial_state(record) if record is not None else {}
            return {**start, **{k: v for k, v in states.get(wid, {}).items() if v is not None}}

        def first(candidates) -> str | None:
            for wid in candidates:
                if wid not in in_match and wid not in placed and not state_of(wid).get("left_town"):
                    placed.add(wid)
                    return wid
            return None

        allies, foes = [], []
        for wid in front:
            allies.append(first(lists[wid].get("allies") or ()))
            foes.append(first(lists[wid].get("foes") or ()))
        ranked = sorted((-state_of(wid)["grudge"], record.name, wid) for wid, record in roster.items())
        grudges = []
        for _, _, wid in ranked:
            if len(grudges) == 2:
                break
            if first((wid,)):
                grudges.append(wid)
        return allies, foes, grudges

    def propose(self, kind: str, fed: FedFiles, states: dict, settings: dict, wrestler_id: str | None) -> tuple[dict, list[str]]:
        """9.a a grudge match, "Generated when a Grudge Match Challenge is issued; Use HOT BOX
        to determine participants" (docs/rulings): for WRESTLER, the man he challenged, else
        his HOT BOX foe, else the highest grudge grade of the rest; with nobody named, the
        oldest challenge still open, else the roster's two highest grudge grades (4.b.iii).
        Nobody who left town; only Face to the Mat wrestlers."""
        rule = f"fedtool book {kind}"
        if kind != "grudge":
            raise FedError(Problem(None, None, f"Face to the Mat proposes grudge matches only (9.a), not {kind!r}", rule))
        roster = _roster(fed)

        def now(wid: str) -> dict:
            return {**self.initial_state(roster[wid]), **{k: v for k, v in states.get(wid, {}).items() if v is not None}}

        free = {wid for wid in roster if not now(wid).get("left_town")}
        ranked = [wid for _, _, wid in sorted((-now(wid)["grudge"], roster[wid].name, wid) for wid in free)]

        def name(wid: str) -> str:
            return roster[wid].name

        def why_grudge(wid: str) -> str:
            return f"{name(wid)} has grudge grade {now(wid)['grudge']}"

        if wrestler_id is not None:
            if wrestler_id not in roster:
                sheet = fed.roster_files.get(wrestler_id)
                why = (f"{fed.shown(sheet)} is not a Face to the Mat wrestler's card: grudge matches are Face to the Mat's (9.a)" if sheet is not None
                       else f"no wrestler {wrestler_id!r} is on the fed's roster (there is no rosters/{wrestler_id}.yaml)")
                raise FedError(Problem(None, None, why, rule))
            if wrestler_id not in free:
                raise FedError(Problem(None, None, f"{name(wrestler_id)} left town after losing a loser-leaves-town grudge match", "Face to the Mat 9.a"))
            state = now(wrestler_id)
            target = state.get("challenge")
            if target in free and target != wrestler_id:
                return self._grudge_entry(wrestler_id, target, roster), [f"{name(wrestler_id)} challenged {name(target)} (9.a: a Grudge Match Challenge)"]
            foe = next((f for f in state.get("foes") or () if f in free and f != wrestler_id), None)
            if foe is not None:
                return self._grudge_entry(wrestler_id, foe, roster), [f"{name(foe)} is {name(wrestler_id)}'s HOT BOX foe (4.b)"]
            other = next((w for w in ranked if w != wrestler_id), None)
            if other is None:
                raise FedError(Problem(None, None, f"nobody on the roster is left for {name(wrestler_id)} to face", rule))
            return self._grudge_entry(wrestler_id, other, roster), [
                f"{name(wrestler_id)} has no open challenge and no Face to the Mat wrestler in town among his HOT BOX foes: the highest grudge grade of the rest (4.b.iii): {why_grudge(other)}"]
        challengers = sorted(((-now(w)["grudge"], name(w), w) for w in free if now(w).get("challenge") in free and now(w)["challenge"] != w))
        if challengers:
            challenger = challengers[0][2]
            target = now(challenger)["challenge"]
            return self._grudge_entry(challenger, target, roster), [f"{name(challenger)} challenged {name(target)} (9.a: a Grudge Match Challenge; of the open challenges, the challenger with the highest grudge grade)"]
        if len(ranked) < 2:
            raise FedError(Problem(None, None, "fewer than two Face to the Mat wrestlers are on the roster and in town", rule))
        a, b = ranked[:2]
        return self._grudge_entry(a, b, roster), [f"no open challenge: the two highest grudge grades (4.b.iii): {why_grudge(a)}, {why_grudge(b)}"]

    @staticmethod
    def _grudge_entry(a: str, b: str, roster: dict) -> dict:
        return {"ruleset": "facemat", "title": f"Grudge match: {roster[a].name} vs. {roster[b].name}", "stipulation": "grudge", "sides": [a, b]}

    def book(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], states: dict, settings: dict, cache: dict | None = None) -> Booking:
        options = self.settings(settings)
        where = f"line {match.line}, match {match.id}"
        root = card.fed.root
        roster = _roster(card.fed)

        def current(w: WrestlerRecord) -> dict:
            return {**self.initial_state(w), **{k: v for k, v in states.get(w.id, {}).items() if v is not None}}

        # 4.b: the allies and foes a sheet names are wrestlers of the fed (any ruleset's sheet)
        unknown = Collector()
        for w in wrestlers:
            sheet_file = card.fed.roster_files.get(w.id)
            for section in ("allies", "foes"):
                for other in getattr(w.sheet, section):
                    if other not in card.fed.roster_files:
                        unknown.add(card.fed.shown(sheet_file) if sheet_file else f"rosters/{w.id}.yaml", f"field {section}",
                                    f"{other!r} has no sheet: there is no rosters/{other}.yaml", "Face to the Mat 4.b")
        unknown.raise_if_any()

        # the league's current grades, not the sheet's starting ones
        now = {w.id: current(w) for w in wrestlers}
        wrestlers = [replace(w, sheet=replace(w.sheet, tv_grade=now[w.id]["tv_grade"], grudge=now[w.id]["grudge"],
                                              tiers=tier_points(w.sheet.tiers, options))) for w in wrestlers]
        stip = match.raw.get("stipulation")
        kind, chart = match_type(stip)
        if kind not in MATCH_TYPES:
            raise FedError(Problem(card.shown, where, f"stipulation {stip!r}: a Face to the Mat match is one of {', '.join(MATCH_TYPES)}, optionally with hardcore or cage (e.g. 'hardcore tag')", "Face to the Mat 9"))
        known = formats()
        fmt = match.raw.get("format") or (known[kind][0] if kind in known else None)
        if fmt is not None and fmt not in known.get(kind, ()):
            allowed = "; ".join(f"{k}: {', '.join(v)}" for k, v in known.items())
            raise FedError(Problem(card.shown, where, f"format {fmt!r} does not apply to a {kind} match ({allowed})", "Face to the Mat 9.d-e"))
        n = len(wrestlers)
        needed = {"tag": (4, 4, "a tag match is four wrestlers, the first two a team (9.c)"),
                  "three_for_all": (3, 3, "a three-for-all is three wrestlers (9.d)"),
                  "battle_royale": (4 if fmt == "four_play" else 3, 40, f"a battle royale is {'four' if fmt == 'four_play' else 'three'} to 40 wrestlers (9.e)")}
        low, high, text = needed.get(kind, (2, 2, "a singles match is two wrestlers"))
        if not low <= n <= high:
            raise FedError(Problem(card.shown, where, f"{text}, not {n}", "Face to the Mat 9"))
        if chart == "hardcore":
            soft = [w.name for w in wrestlers if "MEAN" not in w.sheet.skills]
            if soft:
                raise FedError(Problem(card.shown, where, f"{', '.join(soft)} is not MEAN: a hardcore match is only for wrestlers with MEAN", "Face to the Mat 9.f"))
        gone = [w.name for w in wrestlers if now[w.id].get("left_town")]
        if gone:
            raise FedError(Problem(card.shown, where, f"{', '.join(gone)} left town after losing a loser-leaves-town grudge match", "Face to the Mat 9.a"))
        prize = match.raw.get("special_prize")
        if prize is not None and kind != "grudge":
            raise FedError(Problem(card.shown, where, f"special_prize {prize!r}: a grudge match's stakes (9.a); this is a {kind} match", "Face to the Mat 9.a"))
        favored = match.raw.get("favored")
        if favored is not None and favored not in match.sides:
            raise FedError(Problem(card.shown, where, f"favored {favored!r} is not in this match", "Face to the Mat 4.a"))

        # 4.a billing: favored first, underdog last
        teams = [wrestlers[0:2], wrestlers[2:4]] if kind == "tag" else [[w] for w in wrestlers]
        best = [min(GRADES.index(w.sheet.tv_grade) for w in team) for team in teams]
        order = sorted(range(len(teams)), key=lambda k: (not any(w.id == favored for w in teams[k]), best[k], k))
        teams = [teams[k] for k in order]
        front = [team[0] for team in teams]

        # 4.b the HOT BOX: each side's ally and foe, and the two highest grudge grades not in the match
        def name_of(wid: str) -> str:
            return roster[wid].name if wid in roster else _title(wid)

        ally_ids, foe_ids, grudge_ids = self.hot_box([w.id for w in front], {w.id for w in wrestlers}, now, roster, states)
        # the writeup's words (data/commentary.yaml, the fed's templates/commentary/facemat.yaml over it)
        words = self.words(card.fed, match.id)
        hotbox = {"allies": [name_of(a) if a else words.say("hotbox_stand_in_ally") for a in ally_ids],
                  "foes": [name_of(f) if f else words.say("hotbox_stand_in_foe") for f in foe_ids],
                  "grudge": [name_of(g) for g in grudge_ids]}

        # the players' strategies (what the cards leave to them)
        problems = Collector()
        plans = {}
        notes = []
        missing = []
        for w in wrestlers:
            path = card.strategy_path(match, w.id)
            shown = f"{card.shown.rsplit('/', 1)[0]}/{path.name}"
            if not path.exists():
                plans[w.id] = _engine.Plan()
                missing.append(w.name)
                continue
            try:
                plans[w.id] = read_plan(load_yaml(path, shown), shown, w.sheet, roster) if cache is None else _read_kept(cache, path, shown, w.sheet, roster)
            except FedError as exc:
                problems.extend(exc)
        problems.raise_if_any()
        if missing:
            notes.append(f"No strategy from {', '.join(missing)}: the cards decide, with the card's own move names (the fed's default).")

        tiers = (options.tiers.gold, options.tiers.silver, options.tiers.bronze)
        mode = {"two_on_one": "two_on_one", "every_man": "every_man"}.get(fmt, "singles")
        partners = tuple(team[1].sheet for team in teams) if kind == "tag" else ()
        ordered = front + ([team[1] for team in teams] if kind == "tag" else [])  # side i's men: ordered[i], ordered[i + 2]
        adv = _engine.Options(
            objects=options.objects is not None, object_spaces=tuple(options.objects.spaces) if options.objects else (),
            object_bonus=options.objects.bonus if options.objects else 2, advanced_tag=options.advanced_tag,
            refreshment=options.refreshment, ref_bump=options.ref_bump, out_of_ring=options.out_of_ring,
            increased_kickouts=options.increased_kickouts, weapons=options.hardcore_weapons, cage_helped=options.cage_helped)
        setup = _engine.Setup(match.id, tuple(w.sheet for w in front), hotbox, chart, options.tv_table, tiers, options.boo_rule, partners,
                             mode=mode, plans=tuple(plans[w.id] for w in ordered), options=adv, ref_bump_at=match.raw.get("ref_bump_at"),
                             tables=self.tables(options, root),
                             champions={wid: tuple(names) for wid, names in (getattr(match, "champions", None) or {}).items()})
        label = [_word(words, "join_partners").join(w.name for w in team) for team in teams]
        if kind == "tag":
            billing = words.say("billing_tag", favored=label[0], underdogs=label[1])
        elif mode == "two_on_one":
            billing = words.say("billing_two_on_one", favored=label[0], first=label[1], second=label[2])
        elif len(label) > 2:
            billing = words.say("billing_many", favored=label[0], underdog=label[-1], order=", ".join(label))
        else:
            billing = words.say("billing", favored=label[0], underdog=label[1])
        sides = [[k, k + len(front)] for k in range(len(front))] if kind == "tag" else [[k] for k in range(len(front))]
        extra = {"stipulation": stip, "match_type": kind, "format": fmt, "sides": sides, "teams": list(_engine.teams_of(setup)),
                 "hotbox_ids": {"allies": ally_ids, "foes": foe_ids, "grudge": grudge_ids},
                 "interviews": options.interviews, "mini_match_to": options.mini_match_to, "special_prize": prize,
                 "challenges": {w.id: plans[w.id].challenge for w in ordered if plans[w.id].challenge},
                 "names": {wid: name_of(wid) for wid in {*ally_ids, *foe_ids, *(p.challenge for p in plans.values())} | {w.id for w in wrestlers} if wid}}
        return Booking(match, setup, ordered, [billing, *notes], extra)

    def resolve(self, booking: Booking, dice: Dice) -> _engine.Result:
        setup, extra = booking.setup, booking.extra
        first: list = []
        league: list = []
        if extra.get("interviews"):  # 10.d: the segment before the bell
            first, league = _royale.interview(setup.wrestlers, tuple(p.promo for p in setup.plans[: len(setup.wrestlers)]), setup.hotbox, dice, setup.tables)
            league = [(side, kind, change, f"{INTERVIEW}{why}") for side, kind, change, why in league]  # told as the interview's in the league
        # a promo sent is read before the bell; with interview segments on, the men in the
        # segment read theirs there (10.d), and a tag partner's is read before the bell
        in_segment = len(setup.wrestlers) if extra.get("interviews") else 0
        first[:0] = [_engine.told_line(0, "promo", "promo", (0,) * len(setup.wrestlers), facts={"alignment": w.sheet.alignment}, name=w.name, promo=plan.promo)
                     for k, (w, plan) in enumerate(zip(booking.wrestlers, setup.plans)) if plan.promo and k >= in_segment]
        if extra.get("match_type") == "grudge":
            grudge = roll_grudge(setup, dice, chosen_grudge_type(extra.get("stipulation")), extra.get("special_prize"))
            extra["grudge"] = grudge
            setup = replace(setup, chart=grudge["chart"])
            names = [w.name for w in setup.wrestlers]
            first.append(_engine.told_line(0, "storyline", "grudge_chosen" if grudge["chosen"] else "grudge_rolled", (0,) * len(names),
                                          type=grudge["type_text"], stakes=grudge["stakes_text"], sides=_word(self.story_teller(booking), "join_sides").join(names)))
        if extra.get("match_type") == "battle_royale":
            result = _royale.battle_royale(setup, extra["format"], dice, extra["mini_match_to"])
        else:
            result = _engine.resolve(setup, dice)
        result.facts.update(self.story_facts(booking))  # before the lines are first told
        result.lines[:0] = first
        result.league[:0] = league
        return result

    @staticmethod
    def _layout(booking: Booking) -> tuple[list, list]:
        """Each side's wrestlers (indexes into booking.wrestlers) and each side's team."""
        if "sides" in booking.extra:
            return booking.extra["sides"], booking.extra["teams"]
        n = len(booking.wrestlers)  # a booking made by hand: four is a tag match (side i: i, i + 2)
        return ([[0, 2], [1, 3]], [0, 1]) if n == 4 else ([[k] for k in range(n)], list(range(n)))

    def _winning_side_men(self, booking: Booking, result: _engine.Result) -> tuple[list, list]:
        """The wrestlers (indexes into booking.wrestlers) of the winning team and of the rest."""
        sides, teams = self._layout(booking)
        won = [k for side, members in enumerate(sides) for k in members if teams[side] == teams[result.winner]]
        lost = [k for side, members in enumerate(sides) for k in members if teams[side] != teams[result.winner]]
        return won, lost

    # ---------------------------------------------------------------- odds

    plays_odds = True

    def trial_setup(self, booking: Booking) -> OddsSetup:
        """The match setup and what `resolve` rolls before the bell: the interview segment
        (10.d), a grudge match's type and stakes (9.a); and which team each side is on."""
        extra = booking.extra
        _, teams = self._layout(booking)
        charts = None
        if extra.get("match_type") == "grudge":  # each chart's setup made here once, not once a trial
            charts = {chart: replace(booking.setup, chart=chart) for chart in ("normal", "cage", "hardcore")}
        return OddsSetup(booking.setup, bool(extra.get("interviews")), extra.get("match_type"), extra.get("stipulation"), extra.get("special_prize"),
                         extra.get("format"), extra.get("mini_match_to"), tuple(teams), charts)

    def odds_sides(self, booking: Booking) -> list[str]:
        """One side a team: a tag team's two men, two-on-one's underdogs (9.c, 9.d.i)."""
        sides, teams = self._layout(booking)
        names: dict[int, list[str]] = {}
        for side, members in enumerate(sides):
            names.setdefault(teams[side], []).extend(booking.wrestlers[k].name for k in members)
        partners = _word(self.story_teller(booking), "join_partners")
        return [partners.join(names[team]) for team in sorted(names)]

    def odds_unit(self, booking: Booking) -> str:
        return "FACs"

    def trial(self, setup: OddsSetup, dice: Dice) -> Trial:
        """The match as `resolve` plays it, rolling the same dice in the same order, but with
        no line, card list, log or text made (the engine's record-free path); the winner as
        its team (`odds_sides`)."""
        match = setup.setup
        if setup.interviews:
            _royale.interview(match.wrestlers, (), match.hotbox, dice, match.tables, record=False)
        if setup.kind == "grudge":
            chart = roll_grudge(match, dice, chosen_grudge_type(setup.stipulation), setup.prize)["chart"]
            match = setup.charts[chart] if setup.charts and chart in setup.charts else replace(match, chart=chart)
        if setup.kind == "battle_royale" and setup.format != "four_play":  # how it ends, no Result made (as below)
            won, how, facs = _royale.ending(match, setup.format, dice, setup.mini_match_to)
        else:  # how the match ends, no Result made (Four-Play is the engine's own mode, 9.e.iii)
            won, how, facs = _engine.ending(_royale.four_play(match) if setup.kind == "battle_royale" else match, dice)
        key = (None if won is None else setup.teams[won], how, facs)
        made = _TRIALS.get(key)  # a Trial is frozen: one made for each ending, not one a trial (a tenth of a microsecond against three)
        if made is None:
            if len(_TRIALS) >= 4096:
                _TRIALS.clear()
            made = _TRIALS[key] = Trial(*key)
        return made

    def outcomes(self, booking: Booking, result: _engine.Result) -> list[str]:
        if result.winner is None:
            return ["draw"] * len(booking.match.sides)
        won, _ = self._winning_side_men(booking, result)
        winners = {booking.wrestlers[k].id for k in won}
        return ["win" if wid in winners else "loss" for wid in booking.match.sides]

    def league_effects(self, booking: Booking, result: _engine.Result, states: dict, settings: dict) -> dict:
        """TV grades, grudges, allies and foes after the match: the grudge match's stakes (9.a),
        else the fed's TV rule (by default an upset lifts the underdog a grade and drops the
        favored one), the storylines' own effects, and challenges issued."""
        ws = booking.wrestlers
        sides, _ = self._layout(booking)
        new = {w.id: {**self.initial_state(w), **{k: v for k, v in states.get(w.id, {}).items() if v is not None}} for w in ws}
        old = {wid: {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()} for wid, state in new.items()}
        reasons: dict[str, list[str]] = {w.id: [] for w in ws}

        def grade(wid: str, change: int, why: str) -> None:
            before = new[wid]["tv_grade"]
            new[wid]["tv_grade"] = shift_grade(before, change)
            reasons[wid].append(f"{why}: TV grade {before} -> {new[wid]['tv_grade']}")

        grudge = booking.extra.get("grudge")
        if result.winner is not None:
            won, lost = self._winning_side_men(booking, result)
            if grudge:
                # 9.a: "Always causes TV Grade changes for participants": winners up one, losers down one
                up = 2 if grudge["stakes"] in ("tv_grade", "special_prize") else 1  # the stakes add a grade
                down = -2 if grudge["stakes"] == "tv_grade" else -1
                for k in won:
                    grade(ws[k].id, up, f"grudge match ({grudge['stakes_text']})")
                for k in lost:
                    grade(ws[k].id, down, f"grudge match ({grudge['stakes_text']})")
                if grudge["stakes"] == "loser_leaves_town":
                    for k in lost:
                        new[ws[k].id]["left_town"] = 1
                        reasons[ws[k].id].append("lost a loser-leaves-town grudge match: leaves town")
                if grudge["stakes"] == "title_shot":
                    for k in won:
                        new[ws[k].id]["title_shot"] = 1
                        reasons[ws[k].id].append("won a title shot in a grudge match")
            elif self.settings(settings).tv_changes == "upsets" and 0 not in won:
                for k in won:
                    grade(ws[k].id, 1, "upset (won as the underdog)")
                for k in sides[0]:
                    grade(ws[k].id, -1, "upset (lost as the favorite)")
        ids = booking.extra.get("hotbox_ids") or {"allies": [None] * len(sides)}
        names = booking.extra.get("names", {})

        def name(wid: str) -> str:
            return names.get(wid) or _title(wid)

        for side, kind, change, why in result.league:
            source = "interview" if str(why).startswith(INTERVIEW) else "storyline"
            for k in sides[side]:
                wid = ws[k].id
                state = new[wid]
                if kind == "tv":
                    grade(wid, change, source)
                elif kind == "grudge":
                    state["grudge"] += change
                    reasons[wid].append(f"{source}: grudge {state['grudge'] - change} -> {state['grudge']}")
                elif kind == "foe" and ids["allies"][side]:  # his HOT BOX ally turns on him
                    turned = ids["allies"][side]
                    state["allies"] = [a for a in state["allies"] if a != turned]
                    state["foes"] = [turned] + [f for f in state["foes"] if f != turned]
                    reasons[wid].append(f"storyline: {name(turned)} turns on him (ally -> foe)")
                elif kind == "ally":  # respect earned: his opponent becomes an ally
                    other = next((ws[j].id for s, members in enumerate(sides) if s != side for j in members), None)
                    if other:
                        state["foes"] = [f for f in state["foes"] if f != other]
                        state["allies"] = [other] + [a for a in state["allies"] if a != other]
                        reasons[wid].append(f"storyline: {name(other)} becomes an ally")
        for wid, target in booking.extra.get("challenges", {}).items():
            new[wid]["challenge"] = target
            reasons[wid].append(f"issued a grudge match challenge to {name(target)} (9.a)")
        # every change is recorded with its reason, even when changes cancel (a grudge match's -1
        # and an interview's +1 leave the grade as it was; both are told)
        return {wid: (state, "; ".join(reasons[wid])) for wid, state in new.items() if state != old[wid] or reasons[wid]}

    def tell_league_change(self, name: str, reason: str, changes: dict[str, dict], words: Commentary | None = None) -> list[str]:
        """TV grades, grudges, allies and foes, challenges in plain words for the card
        (`changes.tell_change`, the `change_*` phrases of the commentary table): "The Warden
        challenges La Rosa Negra to a grudge match."."""
        return tell_change(name, reason, words or self.commentary()) or super().tell_league_change(name, reason, changes)

    def summary(self, booking: Booking, result: _engine.Result) -> dict:
        ws = booking.wrestlers
        sides, teams = self._layout(booking)
        side_of = {k: side for side, members in enumerate(sides) for k in members}
        extra = {k: v for k, v in booking.extra.items() if k in ("stipulation", "match_type", "format", "grudge")}
        won = [ws[k].id for k in self._winning_side_men(booking, result)[0]] if result.winner is not None else []
        return {
            **extra,
            "winner": None if result.winner is None else ws[result.winner].id,  # the side that scored the fall (its man listed first)
            "winners": won,
            "method": result.method,
            "round": result.facs,
            "cards": [{"stage": stage, "fac": fac, "id": card, "type": kind} for stage, fac, card, kind in result.cards],
            "favored": ws[0].id,
            "sides": [{"id": w.id, "name": w.name, "track": result.positions[side_of[k]], "tv_grade": w.sheet.tv_grade} for k, w in enumerate(ws)],
            "eliminations": [{"wrestler": ws[side].id, "by": None if by is None else ws[by].id, "method": how, "fac": fac} for side, by, how, fac in result.eliminations],
            "storyline": [{"wrestler": ws[sides[side][0]].id, "kind": kind, "change": change} for side, kind, change, _ in result.league],
            "hotbox": self._hotbox_record(booking),
        }

    def rating_inputs(self, booking: Booking, result: _engine.Result) -> dict:
        """The star rating's inputs from the lines and the track (`rating.rating_inputs`); a
        grudge match (9.a) settles a grudge."""
        return _rating.rating_inputs(booking.setup, result, booking.extra.get("match_type") == "grudge")

    @staticmethod
    def story_facts(booking: Booking) -> dict:
        """The match's facts for its commentary (data/commentary.yaml): its type, its chart (a
        grudge match's, once rolled) and whether a title is on the line."""
        extra = booking.extra
        kind = extra.get("match_type") or "normal"
        kind = {"normal": "singles"}.get(kind, kind)
        chart = (extra.get("grudge") or {}).get("chart") or getattr(booking.setup, "chart", "normal")
        title = "yes" if booking.match is not None and getattr(booking.match, "for_title", None) else "no"
        return {"match_type": kind, "chart": chart, "title": title}

    def words(self, fed: FedFiles, key: str):
        """A teller of the booking's own words (the HOT BOX's stand-ins, the billing): the
        packaged table with the fed's templates/commentary/facemat.yaml over it, as the
        writeup's (`Ruleset.commentary`; read again only when the fed's file changes)."""
        name = f"commentary/{self.id}.yaml"
        return self.commentary(fed.root / "templates" / name, f"templates/{name}").teller(key)

    @staticmethod
    def story_teller(booking: Booking):
        """A fresh teller of the match: the booking's table (the fed's file over the packaged
        one), else the packaged table keyed by the match."""
        return booking.teller() or _engine.packaged().teller(booking.story_key or getattr(booking.setup, "match_id", ""))

    def describe(self, booking: Booking, result: _engine.Result) -> dict:
        ws = booking.wrestlers
        sides, teams = self._layout(booking)
        teller = self.story_teller(booking)
        partners = _word(teller, "join_partners")
        names = [partners.join(ws[k].name for k in members) for members in sides]
        facts = {**result.facts, **self.story_facts(booking)}
        if result.winner is None:
            headline = teller.say("headline_draw", facts, sides=_word(teller, "join_sides").join(names))
        else:
            winners = partners.join(names[s] for s in range(len(sides)) if teams[s] == teams[result.winner])
            losers = partners.join(names[s] for s in range(len(sides)) if teams[s] != teams[result.winner])
            kind = booking.extra.get("match_type")
            if result.method == "pin":
                how = teller.say("how_pin", facts)
            elif result.method == "finisher" and kind == "tag":
                how = teller.say("how_tag_finisher", facts)
            elif result.method == "finisher":
                plan = booking.setup.plans[result.winner] if booking.setup.plans else _engine.Plan()
                how = teller.say("how_finisher", facts, finisher=plan.finisher_name or ws[result.winner].sheet.finisher_name)
            else:
                how = ""
            if kind == "battle_royale":
                headline = teller.say("headline_four_play" if booking.extra["format"] == "four_play" else "headline_battle_royale", facts,
                                      winners=winners, how=how, facs=result.facs)
            elif booking.extra.get("format") == "every_man":
                headline = teller.say("headline_three_for_all", facts, winners=winners, how=how, facs=result.facs)
            else:
                headline = teller.say("headline_win", facts, winners=winners, losers=losers, how=how, facs=result.facs)
        lines = []
        if facts["title"] == "yes":  # the stakes, before anything else is told
            start = result.lines[0].positions if result.lines else (0,) * len(names)
            lines.append({"kind": "storyline", "text": teller.say("title_stakes", facts, sides=" and ".join(names)), "positions": tuple(0 for _ in start)})
        texts = result.told(teller, facts)
        lines += [{"kind": ln.kind, "text": text, "positions": ln.positions} for ln, text in zip(result.lines, texts) if text]
        hot = booking.setup.hotbox
        hotbox = {}
        for k, name in enumerate(names):
            if k < len(hot.get("allies", [])):
                hotbox[f"{name}'s ally"] = hot["allies"][k]
                hotbox[f"{name}'s foe"] = hot["foes"][k]
        for k, name in enumerate(hot.get("grudge", [])):
            hotbox[f"grudge {k + 1}"] = name
        return {"headline": headline, "names": names, "lines": lines, "facs": result.facs, "hotbox": hotbox,
                "hotbox_text": self._hotbox_text(booking, names, teller), "legend": self._legend(booking, names, teller)}

    @staticmethod
    def _hotbox_text(booking: Booking, names: list[str], teller=None) -> str:
        """4.b the HOT BOX in a sentence: each real ally and foe with whose he is ("Vince
        Valor's ally Skyline Sabrina"; a tag side's: "ally Skyline Sabrina and foe Mad Dog Maddox
        for Vince Valor & Marcus Bright"); the places
        nobody on the roster fills (the booking's stand-ins, told in the storylines as "a
        friend from the locker room" and "an old rival") said once, plainly; the two grudge
        places (4.b.iii)."""
        hot = booking.setup.hotbox or {}
        ids = booking.extra.get("hotbox_ids") or {}
        teller = teller or _engine.packaged().teller("hotbox")
        named, missing = [], {"allies": [], "foes": []}
        for k, name in enumerate(names):
            partners = []  # a tag side's: never "A & B's ally", a team's possessive
            for key, role in (("allies", "ally"), ("foes", "foe")):
                people = hot.get(key) or []
                wids = ids.get(key)
                if k >= len(people):
                    continue
                if wids is not None and k < len(wids) and not wids[k]:
                    missing[key].append(name)
                elif _word(teller, "join_partners") in name:
                    partners.append(teller.say(f"hotbox_team_{role}", **{role: people[k]}))
                else:
                    named.append(teller.say(f"hotbox_{role}", name=name, **{role: people[k]}))
            if partners:
                named.append(teller.say("hotbox_team", places=" and ".join(partners), team=name))
        parts = [", ".join(named)] if named else []
        everyone = len(missing["allies"]) == len(missing["foes"]) == len(names)
        if everyone:
            who = teller.say("hotbox_both_sides" if len(names) == 2 else "hotbox_everyone")
            parts.append(teller.say("hotbox_empty", who=who, ally=teller.say("hotbox_stand_in_ally"), foe=teller.say("hotbox_stand_in_foe")))
        else:
            both = [m for m in missing["allies"] if m in missing["foes"]]
            for kind, who in (("hotbox_no_ally_or_foe", both), ("hotbox_no_ally", [m for m in missing["allies"] if m not in both]),
                              ("hotbox_no_foe", [m for m in missing["foes"] if m not in both])):
                if who:
                    parts.append(teller.say(kind, who=who[0] if len(who) == 1 else ", ".join(who[:-1]) + " or " + who[-1]))
        grudge = [g for g in hot.get("grudge") or [] if g]
        if grudge:
            parts.append(teller.say("hotbox_grudge", names=" and ".join(grudge)))
        return "; ".join(parts) + "." if parts else teller.say("hotbox_nobody")

    @staticmethod
    def _legend(booking: Booking, names: list[str], teller=None) -> dict:
        """What the `[0-2]` after each line is: the track space of each side after it (4.c),
        in the order the match is billed, with the track's PIN and finisher spaces (8), in
        the commentary's words (`track_key`)."""
        track = (booking.setup.tables or data())["track"]
        pins = sorted(track["pin_spaces"])
        pin_text = f"{pins[0]}-{pins[-1]}" if pins == list(range(pins[0], pins[-1] + 1)) and len(pins) > 1 else ", ".join(map(str, pins))
        example = "[" + "-".join(str(track["start"]) for _ in names) + "]"
        teller = teller or _engine.packaged().teller("legend")
        return {"example": example,
                "text": teller.say("track_key", names=f"{', '.join(names[:-1])} and {names[-1]}", start=track["start"], pins=pin_text,
                                   finisher=track["finisher_space"])}

    # ---------------------------------------------------------------- the results JSON

    @staticmethod
    def _hotbox_record(booking: Booking) -> dict:
        """4.b the match's HOT BOX for the summary: each side's ally and foe (`for`: the side's
        first man), the two grudge wrestlers; a wrestler's id, or None for a stand-in."""
        hot = getattr(booking.setup, "hotbox", None) or {}
        ids = booking.extra.get("hotbox_ids") or {}
        fronts = [w.id for w in booking.wrestlers]

        def rows(key: str, per_side: bool) -> list[dict]:
            wids = list(ids.get(key) or [])
            return [{**({"for": fronts[k] if k < len(fronts) else None} if per_side else {}), "id": wids[k] if k < len(wids) else None, "name": name}
                    for k, name in enumerate(hot.get(key) or [])]

        return {"allies": rows("allies", True), "foes": rows("foes", True), "grudge": rows("grudge", False)}

    def result_details(self, summary: dict) -> dict:
        """Face to the Mat in `fedtool results --json`: the match type (9: normal, grudge,
        tag, three_for_all, battle_royale), the Wild Card chart played (normal, cage,
        hardcore: a grudge match's roll decides it, 9.a), the grudge roll, the favored side
        (4.a), the FACs played (how many, and each card drawn in order), each wrestler's final track space, the HOT BOX (4.b),
        eliminations and the storyline's events. A summary kept before the HOT BOX was
        recorded gives it as null."""
        grudge = summary.get("grudge") if isinstance(summary.get("grudge"), dict) else None
        kind, chart = match_type(summary.get("stipulation"))
        return {
            "match_type": summary.get("match_type") or kind,
            "chart": (grudge or {}).get("chart") or chart,
            "grudge": {k: grudge.get(k) for k in ("type", "stakes", "type_text", "stakes_text")} if grudge else None,
            "favored": summary.get("favored"),
            "facs": summary.get("round"),
            "cards": summary.get("cards") if isinstance(summary.get("cards"), list) else None,
            "winners": summary.get("winners"),
            "tracks": {side.get("id"): side.get("track") for side in summary.get("sides") or []},
            "hotbox": summary.get("hotbox"),
            "eliminations": summary.get("eliminations"),
            "storyline": summary.get("storyline"),
        }

    def announce(self, card: CardOnFile, match: MatchOnCard, wrestlers: list[WrestlerRecord], settings: dict) -> dict:
        stip = match.raw.get("stipulation") or "normal"
        kind, _ = match_type(stip)
        teams = [wrestlers[0:2], wrestlers[2:4]] if kind == "tag" else [[w] for w in wrestlers]
        options = self.settings(settings)
        tables = self.tables(options, card.fed.root) or data()
        help_table = tables["advanced"]["help"]
        partners = _word(self.words(card.fed, match.id), "join_partners")
        return {"sides": [partners.join(w.name for w in team) for team in teams], "stipulation": stip,
                "help": ", ".join(f"{roll}: {entry['spaces']:+d}" for roll, entry in sorted(help_table.items())) + " (a minus: your foe answers instead)",
                "cage": "cage" in stip.split(), "weapons": options.hardcore_weapons and ("hardcore" in stip.split() or kind == "grudge"),
                "objects": options.objects is not None, "object_bonus": options.objects.bonus if options.objects else 2,
                "interviews": options.interviews}


__all__ = ["FaceToTheMat"]
