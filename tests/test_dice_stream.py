"""The seeded dice roll the streams their docstring defines, whatever order the rolls come in
(issue 18: the dice may be drawn in blocks, squeezed in parts, typed for the compiled path, but
every roll, its purpose in the log and the replay from seed and log stay exactly as they were).

The reference here is the stream as `SeededDice` defines it, written the plain way: SHAKE-256
of (seed, stream, block number), 512 bytes a block; d6 faces the d6 stream's bytes below 252
taken mod 6 (plus 1); every other die (and every die of `roll_each`) the next byte of the shared stream below 256 - 256 % n
taken mod n (plus 1). Random mixes of `roll`, `roll_each` and `d6_buffer` (with readers that
take their own faces and hand the position back) must give the reference's faces and log, long
enough to cross many blocks; and the log replays as scripted dice to the same faces.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.dice import ScriptedDice, SeededDice, format_log, streams_of


class Reference:
    """The two streams, a whole 512-byte block at a time."""

    def __init__(self, seed: int) -> None:
        self.key = seed.to_bytes(16, "big", signed=True)
        self.streams = {"d6": self._stream("d6"), "other": self._stream("other")}

    def _stream(self, name: str):
        block = 0
        while True:
            yield from hashlib.shake_256(b"%b/%b/%d" % (self.key, name.encode(), block)).digest(512)
            block += 1

    def die(self, sides: int, stream: str = "") -> int:
        """The next die from its stream: `roll`'s d6 from the d6 stream, any other die (and
        every die of `roll_each`, d6 included) from the shared one."""
        stream = self.streams[stream or ("d6" if sides == 6 else "other")]
        usable = 256 - 256 % sides
        for byte in stream:
            if byte < usable:
                return byte % sides + 1
        raise AssertionError("unreachable")


# a step: ("roll", count, sides) | ("each", sizes) | ("buffer", faces a reader takes itself) |
# ("read",): the log read (and the list kept) | ("take",): the log taken
STEP = st.one_of(
    st.tuples(st.just("roll"), st.integers(0, 12), st.sampled_from([6, 6, 6, 2, 3, 10, 20, 55, 100, 121, 255])),
    st.tuples(st.just("each"), st.lists(st.one_of(st.just(6), st.integers(1, 255)), max_size=60)),
    st.tuples(st.just("buffer"), st.integers(0, 40)),
    st.tuples(st.just("read")),
    st.tuples(st.just("take")),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2**63), 2**63 - 1), st.lists(STEP, max_size=80), st.integers(1, 3))
def test_any_mix_of_rolls_reads_the_streams_as_defined(seed, steps, repeat):
    dice, ref = SeededDice(seed), Reference(seed)
    expected_log = []  # every roll
    pending = []  # the rolls since the log was last taken
    held = []  # each list `dice.log` gave: one list, which grows with every roll after (the log is kept flat until first read)
    for number, step in enumerate(steps * repeat):  # repeated: enough dice to cross blocks
        dice.round = number
        assert dice.round == number
        if step[0] == "read":
            held.append(dice.log)
            assert held[-1] == pending and held[-1] is held[0]
            continue
        if step[0] == "take":
            assert dice.take_log() == pending
            pending = []
            continue
        rolls = len(expected_log)
        if step[0] == "roll":
            _, count, sides = step
            want = bytes(ref.die(sides) for _ in range(count))
            assert dice.roll(count, sides, f"step {number}") == want
            expected_log.append((number, f"step {number}", want))
        elif step[0] == "each":
            want = bytes(ref.die(sides, "other") for sides in step[1])
            assert dice.roll_each(step[1], f"step {number}") == want
            expected_log.append((number, f"step {number}", want))
        else:  # the odds' reader (MatchMatch): d6 faces taken from the buffer, unlogged, position handed back
            buffer, at = dice.d6_buffer(step[1])
            assert len(buffer) - at >= step[1]
            assert bytes(buffer[at:at + step[1]]) == bytes(ref.die(6) for _ in range(step[1]))
            dice.d6_buffer(0, at + step[1])
        pending += expected_log[rolls:]
    assert dice.log == pending and all(log is dice.log for log in held)
    # the log replays: as a scripted-dice file it gives the same faces, roll for roll
    replay = ScriptedDice.parse(format_log(dice.log, "replay"), "replay")
    for round_no, purpose, faces in pending:
        assert replay.roll(len(faces), 255, purpose) == faces


def test_a_match_length_of_dice_crosses_blocks_as_defined():
    """Thousands of d6 and FAC-draw dice from one seed (many blocks of each stream, each
    squeezed in parts): the very faces of the whole-block streams."""
    dice, ref = SeededDice(2024), Reference(2024)
    for k in range(3000):
        assert dice.roll(2, 6, "d66") == bytes((ref.die(6), ref.die(6)))
        left = 121 - k % 120
        assert dice.roll(1, left, "draw") == bytes((ref.die(left),))


def test_seeded_dice_are_freed_when_the_last_reference_goes():
    """No reference cycle: dice that rolled (their log a tuple a roll) go when nothing holds
    them, not when the cyclic garbage collector next runs (issue 18: it took a tenth of a Face
    to the Mat trial, one SeededDice and its log per trial). A roll kept past its dice still
    rolls the stream."""
    import gc
    import weakref

    was = gc.isenabled()
    gc.disable()
    try:
        dice = SeededDice(99)
        dice.round = 3
        dice.roll(2, 6, "kickout")
        dice.roll(1, 121, "draw")
        dice.roll_each([55, 54], "shuffle")
        dice.d6_buffer(10)
        gone = weakref.ref(dice)
        del dice
        assert gone() is None
        roll = SeededDice(99).roll  # the dice go at once; their roll still reads the stream
        ref = Reference(99)
        assert roll(3, 6, "after") == bytes(ref.die(6) for _ in range(3))
    finally:
        if was:
            gc.enable()


def test_what_an_engine_rolls_through_streams_of_is_what_the_dice_roll():
    """`streams_of` (Face to the Mat's record-free bout rolls through it, as C where compiled):
    for seeded dice, their own streams, whose `round` is the dice's; for any other dice
    (scripted, or seeded with `roll` replaced by a wrapper), a forwarder to their own `roll`
    that sets their `round` first. Either way the same faces and the same log, round and
    purpose, as rolling the dice themselves with `dice.round` set; and the wrapper sees each call."""
    calls = []

    def wrapped(seed: int) -> SeededDice:
        dice = SeededDice(seed)
        inner = dice.roll

        def roll(count: int, sides: int, purpose: str) -> bytes:
            calls.append(purpose)
            return inner(count, sides, purpose)

        dice.roll = roll
        return dice

    script = " ".join(str(1 + k % 6) for k in range(200))
    for make in (SeededDice, lambda seed: ScriptedDice.parse(script, "script"), wrapped):
        direct, through = make(5), make(5)
        streams = streams_of(through)
        assert (streams is getattr(through, "_streams", None)) == (make is SeededDice)
        direct.round = streams.round = 7  # (the round is set on the streams, as the engine sets it)
        steps = [(0, 1, 6, "before the bell"), (1, 1, 55, "draw"), (1, 2, 6, "kickout"), (2, 3, 6, "three"), (2, 1, 6, "one"), (0, 1, 6, "after")]
        for round_no, count, sides, purpose in steps:
            if round_no:
                direct.round = round_no
                streams.round = round_no
            if purpose == "after":
                direct.round = streams.round = 0
            assert make is not SeededDice or through.round == streams.round  # a seed's streams keep the dice's round
            assert streams.roll(count, sides, purpose) == direct.roll(count, sides, purpose)
        assert through.log == direct.log and [r for r, _, _ in direct.log] == [7, 1, 1, 2, 2, 0]
        assert streams.roll_each([6, 10], "each") == direct.roll_each([6, 10], "each") and through.log == direct.log
    assert calls.count("kickout") == 2  # the wrapper's dice rolled through it both ways
