# Cython declarations for dice.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). `_Streams`, a seed's two streams, becomes an extension type: its
# buffers and positions C fields, a byte of the shared stream read as a C char. Nothing here
# changes a roll (tests/test_dice_stream.py, tests/test_compiled.py).

cimport cython

cdef class _Streams:
    cdef object me
    cdef bytes key, table, delete, buffer, other
    cdef list log
    cdef Py_ssize_t at, block, squeezed, spot, other_block, other_squeezed

    cdef bytes _more_d6(self)
    cdef void _more_other(self) except *
    @cython.locals(usable=long, byte=long)
    cdef long _face(self, long sides) except -1
    @cython.locals(faces=bytearray, made=bytes)
    cpdef bytes roll_each(self, sizes, purpose)
    @cython.locals(at=Py_ssize_t, end=Py_ssize_t, faces=bytes, left=bytes)
    cpdef bytes roll(self, long count, long sides, purpose)
    @cython.locals(left=bytes)
    cpdef tuple d6_buffer(self, Py_ssize_t need, position=*)
