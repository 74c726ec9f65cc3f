# Types for the compiled path only (setup.py's COMPILED; docs/architecture.md, "The compiled path"):
# Cython reads this beside strategy.py; plain Python never does.
cimport cython


@cython.locals(m=cython.Py_ssize_t, k=cython.Py_ssize_t, struck=bint, taken=cython.Py_ssize_t, row=tuple, swing=cython.Py_ssize_t,
               mine=cython.Py_ssize_t)
cpdef object _best_swing(object best, Py_ssize_t least, Py_ssize_t taking, bint steal, bint strike_only, object c, object q, list theirs,
                         set theirs_strikes, list mine_coll, set mine_strikes, list values, list strike_values)
