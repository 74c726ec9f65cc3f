# Cython declarations for cards.py (augmenting: the .py stays plain Python, run as is where
# nothing is compiled). Card and Play become extension types: the engine and the policy read
# their fields as C struct fields (cimported by engine.pxd and policy.pxd) instead of
# instance-dict lookups. The fields are set once, by `__init__` (as C fields), and are
# read-only after (`readonly`; the class's `__setattr__` refuses too). Nothing here changes
# what a card is or does.

cdef class Card:
    cdef readonly str id
    cdef readonly object name
    cdef readonly str action
    cdef readonly object points
    cdef readonly str kind
    cdef readonly object set
    cdef readonly object timing
    cdef readonly object effect
    cdef readonly object defence
    cdef readonly dict _plays
    cdef readonly Play own
    cdef readonly tuple stands


cdef class Play:
    cdef readonly Card card
    cdef readonly str action
    cdef readonly str key
    cdef readonly str text
