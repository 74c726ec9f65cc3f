# Cython declarations for policy.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). Policy becomes an extension type: the attributes a decision reads on
# every turn are C struct fields instead of instance-dict lookups; `__dict__` keeps room for
# whatever else is hung on a policy. Nothing here changes what a policy decides.

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
