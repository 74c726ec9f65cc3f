# Cython declarations for engine.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). `_Bout`, the record-free match (the odds' path), becomes an extension
# type: its state as C struct fields (ints and flags as C ints), its steps as C-level methods
# called without Python's call machinery. Nothing here changes what the engine does
# (tests/test_compiled.py plays it compiled and pure, roll for roll).

cimport cython
from fedtool.kernel.dice cimport _Streams  # its `roll` and `round` as C (setup.py builds this module only with dice)

# the FAC type codes and card flags `_Bout` compares, as C constants (module names for Python only
# where nothing is compiled: no other module reads them)
cdef long K_TV, K_SIGNATURE, K_TRAILING, K_GRUDGE, K_WILD, K_REF_BUMP, K_REEL, K_STRENGTH, K_TITLE, K_CHEAT, K_HELPED
cdef long F_SQUARE, F_CONTROL, F_SPECIAL, F_SKILL, NO_BASE, D6, HELP_NEVER, HELP_WHEN_TRAILING, HELP_AT_ONCE

@cython.locals(casts=dict, hit=tuple)
cpdef tuple _cast(entry)
cdef long E_NONE, E_MOVE, E_SCORE, E_SCORE_D6, E_LEAGUE, E_SKIP, E_PIN, E_OBJECT
cdef long W_FAVORED, W_UNDERDOG, W_LEADER, W_TRAILING, W_BOTH, W_HEEL, W_FACE, W_NOBODY
@cython.locals(effects=dict, hit=tuple, made=tuple)
cpdef tuple _effect_of(eff)

@cython.locals(best=long, k=long, low=long)
cdef long _trailing(list pos, list sides, bint card_trailing) except? -1

cdef class _Bout:
    cdef object setup, prep, dice, tables, options, method
    cdef _Streams streams
    cdef long finish, corner, start, n, size, last_scorer, first_to, winner, loser, drawn, width
    cdef bytes pin_at, reach_at
    cdef tuple team
    cdef bint every_man, tagging, has_first_to, ref_down, over, cage, objects, increased_kickouts, helping
    cdef list men, partners, w, names, info, side_plan, ring, pool, pos, league, out
    cdef list skip, knocked, held, hidden, helped, card_chips, able, help
    cdef set chips, kickout_chips

    cdef void begin(self, setup, dice) except *
    @cython.locals(pos=list)
    cdef void put(self, long i, long space) except *
    @cython.locals(best=long, k=long)
    cdef long leader(self) except? -1
    cdef long trailing(self, bint card_trailing, list among) except? -1
    @cython.locals(best=long, k=long, low=long)
    cdef long target(self, long i) except? -1
    cdef list whom(self, who)
    @cython.locals(k=long)
    cdef list whom_at(self, long who)
    cdef void score(self, long i, long points, bint from_card) except *
    @cython.locals(space=long, pos=list)
    cdef void moved(self, long i, long points) except *
    cdef bint wants_object(self, long i) except? -1
    @cython.locals(spaces=long)
    cdef void landed(self, long i) except *
    @cython.locals(k=long)
    cdef void tag(self, long i) except *
    @cython.locals(k=long)
    cdef void switch(self, long i) except *
    @cython.locals(space=long, o=long, k=long, got=long, x=long, ring=list, pos=list, faces=bytes, streams=_Streams)
    cdef void attempt(self, long i) except *
    cdef void fall(self, long i, long o, how) except *
    @cython.locals(code=long, who=long, amount=long, i=long, sides=list, pos=list)
    cdef void effect(self, eff) except *
    cdef void effect_league(self, long who, kind, change) except *
    cdef bint cast_here(self, entry) except? -1
    @cython.locals(tries=long, faces=bytes)
    cdef chart_event(self, events, purpose)
    cdef void storyline(self, tuple purposes) except *
    @cython.locals(k=long, best=long, low=long, scorer=bint, tier=long, at=long, x=long, space=long, row=bytes, tables=list,
                   ring=list, pos=list, tied=bint, candidates=list)
    cdef long performer_of(self, long c, long code, bint control) except? -2
    cdef points_of(self, long c, long code, long i)
    @cython.locals(i=long, x=long, spaces=long, choice=long, ring=list, pos=list, helped=list, calls=list)
    cdef void call_for_help(self) except *
    @cython.locals(i=long)
    cdef void title_holder(self, card) except *
    cdef void ref_bump(self) except *
    @cython.locals(tries=long)
    cdef bint out_of_ring(self) except? -1
    @cython.locals(drawn=long, left=long, j=long, i=long, quiet=long, ref_down_until=long, scripted_bump=long, points=long,
                   boo_rule=bint, two=bint, control=bint, a=bint, b=bint, c=long, code=long, flag=long, at=long, p0=long, p1=long,
                   base=long, cards=long, width=long, order=bytearray, identity=bytes, kinds=bytes, flags=bytes, bases=list,
                   able=list, row=bytes, pos=list, info=list, skip=list, held=list, faces=bytes, guard=long, streams=_Streams)
    cpdef run(self)
    cpdef play(self)

@cython.locals(bout=_Bout)
cdef _Bout _bout(setup, dice)
@cython.locals(bout=_Bout)
cpdef tuple ending(setup, dice)
