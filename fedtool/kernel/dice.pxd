# Cython declarations for dice.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). `_Streams`, a seed's two streams, becomes an extension type: its
# buffers and positions C fields, a byte of the shared stream read as a C char. Nothing here
# changes a roll (tests/test_dice_stream.py, tests/test_compiled.py).
#
# Face to the Mat's engine cimports `_Streams` (`streams_of`): its record-free bout calls `roll`
# and sets `round` as C, without Python's call. A module that cimports this one is built only
# with it and run compiled only while it runs compiled (setup.py, fedtool/__init__.py `_fresh`):
# a change here changes the layout that module was built against.

cimport cython

cdef class _Streams:
    cdef public long round
    cdef bytes key, table, delete, buffer, other
    cdef public list log
    cdef public bint flat
    cdef Py_ssize_t at, block, squeezed, spot, other_block, other_squeezed

    cdef bytes _more_d6(self)
    cdef void _more_other(self) except *
    @cython.locals(usable=long, byte=long)
    cdef long _face(self, long sides) except -1
    @cython.locals(faces=bytearray, made=bytes, log=list)
    cpdef bytes roll_each(self, sizes, purpose)
    @cython.locals(at=Py_ssize_t, end=Py_ssize_t, faces=bytes, left=bytes, log=list)
    cpdef bytes roll(self, long count, long sides, purpose)
    @cython.locals(left=bytes)
    cpdef tuple d6_buffer(self, Py_ssize_t need, position=*)

cpdef _Streams streams_of(dice)
cdef list _entries(list rolled)
