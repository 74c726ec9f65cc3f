# Cython declarations for engine.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). `_Bout`, the record-free match (the odds' path), becomes an extension
# type: its state as C struct fields (ints and flags as C ints), its steps as C-level methods
# called without Python's call machinery. Nothing here changes what the engine does
# (tests/test_compiled.py plays it compiled and pure, roll for roll).

cimport cython

@cython.locals(best=long, k=long, low=long)
cdef long _trailing(list pos, list sides, bint card_trailing) except? -1

cdef class _Bout:
    cdef object setup, prep, dice, roll, tables, options, pins, reach, method, allies, foes
    cdef long finish, corner, start, n, size, last_scorer, first_to, winner, loser, drawn
    cdef tuple team
    cdef bint every_man, tagging, has_first_to, ref_down, over, cage, objects, increased_kickouts, helping
    cdef list men, partners, w, names, info, side_plan, ring, pool, pos, league, out
    cdef list skip, knocked, held, hidden, helped, card_chips
    cdef set chips, kickout_chips

    cdef void put(self, long i, long space) except *
    @cython.locals(best=long, k=long)
    cdef long leader(self) except? -1
    cdef long trailing(self, bint card_trailing, list among) except? -1
    @cython.locals(best=long, k=long, low=long)
    cdef long target(self, long i) except? -1
    cdef list whom(self, who)
    cdef void score(self, long i, long points, bint from_card) except *
    @cython.locals(space=long)
    cdef void moved(self, long i, long points) except *
    cdef bint wants_object(self, long i) except? -1
    @cython.locals(spaces=long)
    cdef void landed(self, long i) except *
    @cython.locals(k=long)
    cdef void tag(self, long i) except *
    @cython.locals(k=long)
    cdef void switch(self, long i) except *
    @cython.locals(space=long, o=long, k=long, got=long, faces=bytes)
    cdef void attempt(self, long i) except *
    cdef void fall(self, long i, long o, how) except *
    cdef void effect(self, eff) except *
    cdef void effect_league(self, eff) except *
    cdef bint cast_here(self, entry) except? -1
    @cython.locals(tries=long, faces=bytes)
    cdef chart_event(self, events, purpose)
    cdef void storyline(self, when) except *
    @cython.locals(k=long, best=long, low=long, scorer=bint)
    cdef long performer_of(self, card, kind, bint control) except? -2
    cdef long points_of(self, card, kind, base, bint square, long i) except? -1
    @cython.locals(i=long, spaces=long)
    cdef void call_for_help(self) except *
    @cython.locals(i=long)
    cdef void title_holder(self, card) except *
    cdef void ref_bump(self) except *
    @cython.locals(tries=long)
    cdef bint out_of_ring(self) except? -1
    @cython.locals(drawn=long, left=long, j=long, i=long, quiet=long, ref_down_until=long, scripted_bump=long, points=long,
                   boo_rule=bint, two=bint, special=bint, skill=bint, square=bint, control=bint, a=bint, b=bint)
    cpdef play(self)
