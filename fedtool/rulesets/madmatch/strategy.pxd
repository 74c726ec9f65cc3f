# Types for the compiled path only (setup.py's COMPILED; docs/architecture.md, "The compiled path"):
# Cython reads this beside strategy.py; plain Python never does.
cimport cython


@cython.locals(m=cython.Py_ssize_t, k=cython.Py_ssize_t, struck=bint, taken=cython.Py_ssize_t, row=tuple, swing=cython.Py_ssize_t,
               mine=cython.Py_ssize_t)
cpdef object _best_swing(object best, Py_ssize_t least, Py_ssize_t taking, bint steal, bint strike_only, object c, object q, list theirs,
                         set theirs_strikes, list mine_coll, set mine_strikes, list values, list strike_values)

@cython.locals(done=list, n=cython.Py_ssize_t, values=list, strike_values=list, colls=list, strikes=list, mine_coll=list, mine_strikes=set,
               actions=dict, cards=list, facts=dict, scores=list, c=cython.Py_ssize_t, when=str, target=str, leader=bint, only_next=bint,
               top=cython.Py_ssize_t, after=cython.Py_ssize_t, strike_only=bint, kind=str, steal=bint, taking=cython.Py_ssize_t,
               q=cython.Py_ssize_t)
cpdef object _action_to_use(object strategy, object play, Py_ssize_t p)

@cython.locals(q=cython.Py_ssize_t)
cpdef object _top_other(list scores, Py_ssize_t p)
