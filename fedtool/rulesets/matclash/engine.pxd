# Cython declarations for engine.py (augmenting: the .py stays plain Python, run as is
# where nothing is compiled). Scrap becomes an extension type: its state is read as C
# struct fields instead of instance-dict lookups; `__dict__` keeps room for whatever a
# subclass or a test hangs on it. Nothing here changes what the engine does.

cdef class Scrap:
    cdef dict __dict__
    cdef public object rules
    cdef public bint record
    cdef public object names
    cdef public object policies
    cdef public list _turns
    cdef public list _eager
    cdef public object dice
    cdef public object draw_limit
    cdef public object pin_after
    cdef public object deck
    cdef public list _hands
    cdef public object stacks
    cdef public object negate
    cdef public object points
    cdef public object positions
    cdef public object draws_used
    cdef public object skip_next
    cdef public object exposed
    cdef public object taken_down
    cdef public object stalled
    cdef public object resilient
    cdef public object shown
    cdef public object turn
    cdef public object events
    cdef public object fall
