# Types for the compiled path only (setup.py's COMPILED; docs/architecture.md, "The compiled path"):
# Cython reads this beside engine.py and makes `Play` an extension type with typed attributes and
# C-level method calls. Plain Python never reads it. Every attribute stays public (the writeups,
# the strategy and the tests read them) and every method cpdef (a Python subclass may override it).
cimport cython


@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, face=cython.Py_ssize_t, order=list)
cpdef list shuffle(object cards, object dice, str purpose)

@cython.locals(alive=list, per=cython.Py_ssize_t, rows=list, k=cython.Py_ssize_t, base=cython.Py_ssize_t, p=cython.Py_ssize_t, shown=list,
               present=set, deck=list)
cpdef tuple icon_battle(object cards, Py_ssize_t players, object dice, str label, list icons=*)

@cython.locals(mine=list, n=cython.Py_ssize_t, q=cython.Py_ssize_t)
cpdef list _newest_first(dict places, list lost)

@cython.locals(before=cython.Py_ssize_t, i=cython.Py_ssize_t, at=cython.Py_ssize_t)
cpdef Py_ssize_t _merged_at(list first, list second, Py_ssize_t k)


cdef class Play:
    cdef public object deck, sides, dice, rules, tables, current, _roll
    cdef public str variation, label, _p_recall, _p_pick, _p_gamble, _how
    cdef public Py_ssize_t fade, die, number, first, columns, per_turn, multi_grid, grid_monsters, turn, freeze_turn, _at
    cdef public bint record, classic
    cdef public list cards, battle, mon, grid, grid_count, hands, colls, strikes, out, orphans, used, places, lost, unseen
    cdef public list deny, memories, pair_value, pairs_held, pair_owner, spare_ok, gamble, log, pairs, _frozen_order, paired
    cdef public set frozen, seen, multi, down
    cdef public dict known

    @cython.locals(total=cython.Py_ssize_t, k=cython.Py_ssize_t, m=cython.Py_ssize_t, values=list, strike_values=list, strikes=set)
    cpdef Py_ssize_t score(self, Py_ssize_t p)

    cpdef list frozen_order(self)

    @cython.locals(ago=cython.Py_ssize_t, need=cython.Py_ssize_t, die=cython.Py_ssize_t, ok=bint, lost=list)
    cpdef bint _recall(self, Py_ssize_t p, Py_ssize_t pos, Py_ssize_t m, dict recalled)

    @cython.locals(m=cython.Py_ssize_t, places=dict, lost=list)
    cpdef _see(self, Py_ssize_t pos)

    @cython.locals(c=cython.Py_ssize_t, m=cython.Py_ssize_t, left=cython.Py_ssize_t, places=dict, lost=list)
    cpdef _gone(self, Py_ssize_t pos)

    @cython.locals(mon=list, grid=list, places_of=list, down=set, lost=list, frozen=set, classic=bint, gamble=bint, face=list,
                   k=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, m=cython.Py_ssize_t, first=bint, count=cython.Py_ssize_t,
                   hazy=cython.Py_ssize_t, hazy_m=cython.Py_ssize_t, owner=list, places=dict, pos=cython.Py_ssize_t, rank=list,
                   best=cython.Py_ssize_t, best_rank=cython.Py_ssize_t, r=cython.Py_ssize_t, q=cython.Py_ssize_t, got=cython.Py_ssize_t,
                   held=list, spare_ok=list, unseen=list, extra=list, pool=list, how=str, size=cython.Py_ssize_t, face_=cython.Py_ssize_t,
                   c=cython.Py_ssize_t, at=cython.Py_ssize_t)
    cpdef Py_ssize_t _choose(self, Py_ssize_t p, list up, Py_ssize_t left, dict recalled) except -1

    @cython.locals(known=dict, lost=list, down=set, pool=list, q=cython.Py_ssize_t, face=cython.Py_ssize_t)
    cpdef Py_ssize_t _gamble(self, Py_ssize_t p, Py_ssize_t pos, Py_ssize_t m) except -1

    @cython.locals(owner=list, held=list, paired=list)
    cpdef _held(self, Py_ssize_t p, Py_ssize_t m)

    @cython.locals(record=bint, freeze=bint, extends=bint, up=list, recalled=dict, left=cython.Py_ssize_t, is_action=list,
                   is_freeze=list, down=set, grid=list, seen=set, unseen=list, pos=cython.Py_ssize_t, c=cython.Py_ssize_t, at=cython.Py_ssize_t,
                   q=cython.Py_ssize_t, m=cython.Py_ssize_t)
    cpdef bint play_turn(self, Py_ssize_t p, bint forced_freeze)

    @cython.locals(mon=list, grid=list, frozen=set, face=list, ms=list, k=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t,
                   first=bint, count=cython.Py_ssize_t, keep=list, record=bint, classic=bint, colls=list,
                   m=cython.Py_ssize_t, coll=list, before=cython.Py_ssize_t, pos=cython.Py_ssize_t, q=cython.Py_ssize_t,
                   c=cython.Py_ssize_t, down=set, seen=set, places_of=list, known=dict, multi=set, turn=cython.Py_ssize_t, lost=list)
    cpdef _collect(self, Py_ssize_t p, list up, bint freeze)

    cpdef _finish_turn(self, Py_ssize_t p)

    cpdef thaw(self)

    @cython.locals(n=cython.Py_ssize_t, taken=cython.Py_ssize_t, lose=cython.Py_ssize_t, gain=cython.Py_ssize_t, mine=cython.Py_ssize_t)
    cpdef Py_ssize_t swing(self, Py_ssize_t p, Py_ssize_t q, Py_ssize_t m, object action)

    cpdef _use_action(self, Py_ssize_t p, Py_ssize_t c, Py_ssize_t q, Py_ssize_t m)

    @cython.locals(owner=list, spare_ok=list, grid_count=list, m=cython.Py_ssize_t)
    cpdef bint collectable(self)
