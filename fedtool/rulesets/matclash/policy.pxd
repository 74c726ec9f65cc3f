# Cython declarations for policy.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). Policy and Compiled (a plan) become extension types: the attributes a
# decision reads on every turn are C struct fields instead of instance-dict lookups;
# `__dict__` keeps room for whatever else is hung on a policy. A turn's decision (`turn`,
# `_best`, `_gate`) and an answer are cpdef with typed locals (a subclass that overrides one
# is still called: Cython's override check), the plays read as C structs (cards.pxd).
# Nothing here changes what a policy decides.

cimport cython
from fedtool.rulesets.matclash.cards cimport Play as CPlay


cdef class Compiled:
    cdef public list order
    cdef public dict rank
    cdef public object allowed
    cdef public object forbidden
    cdef public dict hold
    cdef public object draw
    cdef public object momentum
    cdef public dict answers
    cdef public dict ranked


cdef class Policy:
    cdef dict __dict__
    cdef public object model
    cdef public object rules
    cdef public object moves
    cdef public object conditional
    cdef public object base_hold
    cdef public dict _cache
    cdef public object _asked
    cdef public dict _slots
    cdef public dict _judges
    cdef public dict _bearing
    cdef public object warnings
    cdef public object notes
    cdef public object lines
    cdef public bint momentum_after_takedown_only

    @cython.locals(plain=Compiled)
    cpdef turn(self, scrap, int i, can_draw)

    @cython.locals(best_n=Py_ssize_t, n=Py_ssize_t, rank=dict, p=CPlay, found=tuple)
    cpdef _best(self, scrap, int i, options, state, Compiled plan)

    cpdef bint _gate(self, gate, scrap, int i, state) except? -1

    @cython.locals(plan=Compiled, ranked=dict, ending=bint, best_n=Py_ssize_t, o=CPlay, k=str)
    cpdef answer(self, scrap, int i, threat, options)
