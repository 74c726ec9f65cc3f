"""The one source of chance. Engines never import `random`; they are handed a Dice.

Every roll is logged as (round, purpose, faces). The log, written out by `format_log`,
is itself a valid scripted-dice file, so any match can be replayed from its log.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .errors import FedError, Problem

LogEntry = tuple  # (round: int, purpose: str, faces: bytes)


def derive_seed(secret: str, *parts: object) -> int:
    """A seed from the fed's secret and a context (week, match...): repeatable, unpredictable."""
    text = "\x1f".join([secret, *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


# ---------------------------------------------------------------- commitments
#
# When a week opens, each match's run seed is published as a commitment: the SHA-256 of
# its seed text, which the results reveal after the run. The seed text is ASCII, with no
# newline: `week W match M seed S`, W the week number in decimal (no leading zeros), M the
# match id, S the seed as 16 lowercase hex digits. The commitment is the SHA-256 of those
# bytes in lowercase hex, so `printf '%s' 'week 1 match m1 seed ...' | sha256sum` checks it.

SEED_TEXT = re.compile(r"week (0|[1-9][0-9]{0,3}) match ([a-z0-9][a-z0-9-]{0,31}) seed ([0-9a-f]{16})")
COMMITMENT = re.compile(r"[0-9a-f]{64}")


def seed_text(week: int, match_id: str, seed: int) -> str:
    """A match's seed as the text its commitment hashes (see above)."""
    return f"week {week} match {match_id} seed {seed:016x}"


def commitment(text: str) -> str:
    """The published commitment to a seed text: SHA-256, lowercase hex."""
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class Dice:
    """Rolls dice and logs each roll with its purpose.

    `round` is context the engine sets (the match round, 0 before the bell) so the
    log can be read round by round.
    """

    def __init__(self) -> None:
        self._log: list[LogEntry] = []
        self.round = 0

    @property
    def log(self) -> list[LogEntry]:
        """Every roll so far: (round, purpose, faces)."""
        return self._log

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        """Roll `count` dice with `sides` faces; returns the faces in order.

        Faces come as `bytes`: a compact, immutable sequence of small ints
        (`faces[0]`, `sum(faces)`, `list(faces)` all work), cheap enough for the hot loop.
        """
        raise NotImplementedError

    def die(self, sides: int, purpose: str) -> int:
        """Roll one die."""
        return self.roll(1, sides, purpose)[0]

    def roll_each(self, sizes: list[int], purpose: str) -> bytes:
        """One die of each size, in order, logged as one roll (a shuffle: d55, d54, ... d2).

        Replayed from a log, each face is checked against its own die."""
        faces = bytearray()
        for sides in sizes:
            faces += self._face(sides)
        faces = bytes(faces)
        self._log.append((self.round, purpose, faces))
        return faces

    def _face(self, sides: int) -> bytes:
        raise NotImplementedError

    def take_log(self) -> list[LogEntry]:
        """Return the log so far and start a fresh one."""
        log = list(self._log)
        self._log.clear()
        return log


class SeededDice(Dice):
    """Pseudo-random dice from a seed: the same seed gives the same rolls.

    The streams are SHAKE-256 of (seed, stream, block number): cheap to start, the same on
    every machine and Python version. d6 rolls (nearly all of them) have their own stream,
    mapped onto faces in bulk with `bytes.translate`, dropping the few high bytes that would
    bias the result (rejection sampling), so a roll is a slice of a buffer; every other die
    shares a second stream, sampled byte by byte the same way.
    """

    _BLOCK = 512

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._key = seed.to_bytes(16, "big", signed=True)
        self.roll = self._rollers()  # type: ignore[method-assign]

    @property
    def log(self) -> list[LogEntry]:
        """`Dice.log`: every roll so far, (round, purpose, faces). Until it is first read the
        streams keep it flat (each roll's round, purpose and faces appended in turn, no tuple a
        roll: issue 18, "the log kept compactly and expanded only when read"); read, it is made
        the list of entries, and from then on the streams append each roll's entry to that very
        list, so the list read grows with every roll after, as `Dice.log` does."""
        streams = self._streams
        if streams.flat:
            streams.log = _entries(streams.log)
            streams.flat = False
        return streams.log

    def take_log(self) -> list[LogEntry]:
        """`Dice.take_log`."""
        streams = self._streams
        log = streams.log
        taken = _entries(log) if streams.flat else list(log)
        log.clear()
        return taken

    @property
    def round(self) -> int:  # type: ignore[override]
        """`Dice.round`, kept by the seed's streams (`_Streams.round`: a C field where compiled,
        which an engine holding the streams sets without Python's attribute machinery)."""
        return self._streams.round

    @round.setter
    def round(self, value: int) -> None:
        self._streams.round = value

    def d6_buffer(self, need: int, position: int | None = None) -> tuple[bytes, int]:
        """The d6 stream for a reader that takes its faces itself, unlogged (the odds'
        record-free path, which draws a round's dice in one go): returns the buffer and the
        position of the next face, with at least `need` faces from there. `position` (in the
        buffer this last returned) says how far the reader has read: the faces before it are
        rolled, and a reader that stops hands its position back (`d6_buffer(0, position)`).
        The faces are the ones `roll` would have given in the same order; nothing is logged."""
        raise NotImplementedError  # replaced per instance by `_rollers`

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        """Dice other than d6 (grids, shuffles, bigger style dice): one shared stream, each
        byte kept only if it maps evenly onto the die (rejection sampling)."""
        return self.roll_each([sides] * count, purpose)

    def roll_each(self, sizes: list[int], purpose: str) -> bytes:
        """`Dice.roll_each` in one pass over the shared stream (a shuffle is many dice)."""
        raise NotImplementedError  # replaced per instance by `_rollers`

    def _rollers(self):
        """`roll`, with `roll_each` and `d6_buffer` set on the instance: the bound methods of the
        seed's `_Streams` (the compiled path, setup.py and dice.pxd, makes that a C type)."""
        streams = self._streams = _Streams(self._key)
        self.d6_buffer = streams.d6_buffer  # type: ignore[method-assign]
        self.roll_each = streams.roll_each  # type: ignore[method-assign]
        return streams.roll


_FULL = SeededDice._BLOCK  # bytes of a stream per (seed, stream, block number)
_FIRST = 136  # squeezed first of each block: one SHAKE-256 rate, a Face to the Mat match's dice


class _Streams:
    """A seed's two SHAKE-256 streams and the rolls taken from them (SeededDice's hot path).

    The d6 stream is mapped onto faces in bulk (`bytes.translate`, the biased bytes dropped);
    every other die reads the shared stream a byte at a time (a die's size changes from roll
    to roll: a FAC draw is a d121, then a d120...), each byte kept only if it maps evenly onto
    the die. Each block is squeezed in two parts, its first `_FIRST` bytes and, only when they
    run out, the rest up to `_FULL`: a SHAKE output is a prefix of any longer one, so the
    bytes are the very bytes of the whole block, and a match that needs few dice pays for
    few (most of a Face to the Mat match's dice cost was squeezing 512 bytes of each stream).
    """

    def __init__(self, key: bytes) -> None:
        # the round each roll is logged in is the streams' own (`SeededDice.round` reads and sets
        # it), and they hold nothing of the dice: the dice hold these streams' methods, so a
        # reference back would make every SeededDice a reference cycle, its log (a tuple a roll)
        # left for the cyclic garbage collector to find (a tenth of a Face to the Mat trial's time)
        # instead of freed when the dice go
        self.round = 0
        self.key = key
        self.log: list = []  # the rolls: flat (round, purpose, faces, round, ...) until the log is first read (`SeededDice.log`)
        self.flat = True
        self.table, self.delete = _translation(6)
        self.buffer, self.at, self.block, self.squeezed = b"", 0, -1, _FULL  # the d6 stream: faces not yet read from `at`
        self.other, self.spot, self.other_block, self.other_squeezed = b"", 0, -1, _FULL  # the shared stream: raw bytes

    def _more_d6(self) -> bytes:
        """The d6 stream's next faces: the rest of the block squeezed last, or the next block's start."""
        if self.squeezed < _FULL:
            raw = hashlib.shake_256(b"%b/d6/%d" % (self.key, self.block)).digest(_FULL)[self.squeezed:]
            self.squeezed = _FULL
        else:
            self.block += 1
            raw = hashlib.shake_256(b"%b/d6/%d" % (self.key, self.block)).digest(_FIRST)
            self.squeezed = _FIRST
        return raw.translate(self.table, self.delete)

    def _more_other(self) -> None:
        """The shared stream's next raw bytes, in `other` from `spot` 0."""
        if self.other_squeezed < _FULL:
            self.other = hashlib.shake_256(b"%b/other/%d" % (self.key, self.other_block)).digest(_FULL)[self.other_squeezed:]
            self.other_squeezed = _FULL
        else:
            self.other_block += 1
            self.other = hashlib.shake_256(b"%b/other/%d" % (self.key, self.other_block)).digest(_FIRST)
            self.other_squeezed = _FIRST
        self.spot = 0

    def _face(self, sides: int) -> int:
        """One die of `sides` (1-255) from the shared stream: rejection sampling, byte by byte."""
        usable = 256 - 256 % sides
        while True:
            if self.spot >= len(self.other):
                self._more_other()
            byte = self.other[self.spot]
            self.spot += 1
            if byte < usable:
                return byte % sides + 1

    def roll_each(self, sizes: list, purpose: str) -> bytes:
        """`Dice.roll_each` from the shared stream (a shuffle is many dice)."""
        if sizes and (min(sizes) < 1 or max(sizes) > 255):  # (min and max in C: a generator here was a quarter of a Quick Scrap's dice)
            raise ValueError(f"a die of {max(sizes)} or {min(sizes)} sides cannot be rolled")
        faces = bytearray()
        for sides in sizes:
            faces.append(self._face(sides))
        made = bytes(faces)
        log = self.log
        if self.flat:
            log.append(self.round)
            log.append(purpose)
            log.append(made)
        else:
            log.append((self.round, purpose, made))
        return made

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        """`SeededDice.roll`: d6 sliced off the mapped stream; one die of another size (a FAC
        draw, a recall) sampled from the shared one; several of another size, `roll_each`."""
        if sides != 6:
            if count != 1 or not 1 <= sides <= 255:
                return self.roll_each([sides] * count, purpose)
            faces = _ONE_FACE[self._face(sides)]
        else:
            at = self.at
            end = at + count
            if end > len(self.buffer):
                left = self.buffer[at:]
                while len(left) < count:
                    left += self._more_d6()
                self.buffer, at, end = left, 0, count
            faces = self.buffer[at:end]
            self.at = end
        log = self.log
        if self.flat:
            log.append(self.round)
            log.append(purpose)
            log.append(faces)
        else:
            log.append((self.round, purpose, faces))
        return faces

    def d6_buffer(self, need: int, position: int | None = None) -> tuple:
        """`SeededDice.d6_buffer`."""
        if position is not None:
            self.at = position
        if self.at + need > len(self.buffer):
            left = self.buffer[self.at:]
            while len(left) < need:
                left += self._more_d6()
            self.buffer, self.at = left, 0
        return self.buffer, self.at


class _Forward(_Streams):
    """`streams_of` for dice that are not a seed's own streams (scripted dice, a wrapper that
    records the calls): each roll handed to the dice's own `roll`, after their `round` is set
    to this one's, so the dice log exactly what they would have logged, called directly."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.round = dice.round

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        dice = self.dice
        dice.round = self.round
        return dice.roll(count, sides, purpose)

    def roll_each(self, sizes: list, purpose: str) -> bytes:
        dice = self.dice
        dice.round = self.round
        return dice.roll_each(sizes, purpose)


def streams_of(dice: Dice) -> _Streams:
    """What an engine's hot loop rolls through (Face to the Mat's record-free bout): an object
    with `roll(count, sides, purpose)` and `roll_each` as the dice's, and `round`, the round its
    rolls are logged in (set it where the engine would set `dice.round`; set `dice.round` too
    where the dice are handed on). For seeded dice whose `roll` is their streams' own, those
    streams (a C type where compiled: an engine that cimports dice.pxd calls it as C, no Python
    call a roll; setup.py then builds that engine only with dice, and fedtool runs it compiled
    only with dice); for any other dice, a `_Forward` to them. The same rolls, purposes and log
    either way."""
    streams = getattr(dice, "_streams", None)
    if streams is not None and getattr(dice.roll, "__self__", None) is streams:
        return streams
    return _Forward(dice)


def _entries(rolled: list) -> list:
    """A log kept flat (round, purpose, faces, round, ...) as its entries: one iterator zipped
    with itself, three items a tuple (no slices: about 35 ns an entry, what a tuple made a roll cost)."""
    items = iter(rolled)
    return list(zip(items, items, items))


_ONE_FACE = [bytes((face,)) for face in range(256)]  # a roll of one die: the same bytes object for each face


_TRANSLATIONS: dict[int, tuple[bytes, bytes]] = {}


def _translation(sides: int) -> tuple[bytes, bytes]:
    """Byte table mapping 0..255 onto faces 1..sides, and the bytes to drop as biased."""
    if not 1 <= sides <= 255:
        raise ValueError(f"a d{sides} cannot be rolled")
    if sides not in _TRANSLATIONS:
        usable = 256 - 256 % sides
        table = bytes((b % sides) + 1 if b < usable else 0 for b in range(256))
        _TRANSLATIONS[sides] = (table, bytes(range(usable, 256)))
    return _TRANSLATIONS[sides]


class DiceExhausted(FedError):
    """A scripted dice file ran out."""


class ScriptedDice(Dice):
    """Dice read from a script: integers separated by white space, `#` starts a comment.

    Used to replay a rulebook example, a disputed match, or a stored log.
    """

    def __init__(self, faces: list[int], source: str = "scripted dice", lines: list[int] | None = None) -> None:
        super().__init__()
        self.faces = list(faces)
        self.lines = lines or [0] * len(self.faces)
        self.source = source
        self.position = 0

    @classmethod
    def parse(cls, text: str, source: str) -> "ScriptedDice":
        faces: list[int] = []
        lines: list[int] = []
        text = text.removeprefix("\ufeff")  # the byte-order mark Notepad writes first: no die face
        for number, line in enumerate(text.splitlines(), start=1):
            for token in line.split("#", 1)[0].split():
                if not re.fullmatch(r"[0-9]{1,3}", token):
                    raise FedError(
                        Problem(source, f"line {number}", f"{token!r} is not a die face (a whole number)", "scripted dice format")
                    )
                faces.append(int(token))
                lines.append(number)
        return cls(faces, source, lines)

    @classmethod
    def from_file(cls, path: Path) -> "ScriptedDice":
        from .yamlio import read_text

        return cls.parse(read_text(path, str(path), limit=10_000_000), str(path))

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.position

    def roll(self, count: int, sides: int, purpose: str) -> bytes:
        if not 1 <= sides <= 255:
            raise ValueError(f"a d{sides} cannot be rolled")
        start = self.position
        if start + count > len(self.faces):
            raise DiceExhausted(
                Problem(
                    self.source,
                    f"after die {len(self.faces)} (the end of the file)",
                    f"ran out of dice: round {self.round} needs {count}d{sides} for {purpose}, "
                    f"{len(self.faces) - start} left",
                    "scripted dice must cover every roll",
                )
            )
        for index in range(start, start + count):
            face = self.faces[index]
            if not 1 <= face <= sides:
                raise FedError(
                    Problem(
                        self.source,
                        f"line {self.lines[index]}, die {index + 1}",
                        f"{face} cannot be rolled on a d{sides} (round {self.round}, {purpose})",
                        "scripted dice must be legal faces",
                    )
                )
        faces = bytes(self.faces[start : start + count])
        self.position = start + count
        self._log.append((self.round, purpose, faces))
        return faces


def _one_line(text: str) -> str:
    """A purpose as one comment line: whatever `splitlines` would break on becomes a space."""
    return " ".join(text.splitlines())


def _scripted_face(self: "ScriptedDice", sides: int) -> bytes:
    index = self.position
    if index >= len(self.faces):
        raise DiceExhausted(Problem(self.source, f"after die {len(self.faces)} (the end of the file)", f"ran out of dice: round {self.round} needs a d{sides}", "scripted dice must cover every roll"))
    face = self.faces[index]
    if not 1 <= face <= sides:
        raise FedError(Problem(self.source, f"line {self.lines[index]}, die {index + 1}", f"{face} cannot be rolled on a d{sides} (round {self.round})", "scripted dice must be legal faces"))
    self.position += 1
    return bytes((face,))


ScriptedDice._face = _scripted_face  # type: ignore[method-assign]


def format_log(log: list[LogEntry], heading: str | None = None) -> str:
    """Render a dice log as a replayable script: a comment per roll, then its faces."""
    out = [f"# {heading}"] if heading else []
    for round_no, purpose, faces in log:
        where = f"round {round_no}: " if round_no else ""
        out.append(f"{' '.join(map(str, faces)):<8} # {where}{_one_line(purpose)}")
    return "\n".join(out) + "\n"
