# Cython declarations for engine.py (augmenting: the .py stays plain Python, run as is
# where nothing is compiled). Scrap becomes an extension type: its state is read as C
# struct fields instead of instance-dict lookups; `__dict__` keeps room for whatever a
# subclass or a test hangs on it. The turn loop's methods are cpdef (a Python subclass that
# overrides one, as the tests' watchers do, is still called: Cython's override check), with
# their locals typed: cards and plays (cards.pxd) as C structs, the hand's index as a dict,
# the scrap's lists as lists. Nothing here changes what the engine does.

cimport cython
# (cimported under other names: `Card` and `Play` stay the module's Python names, imported from .cards)
from fedtool.rulesets.matclash.cards cimport Card as CCard, Play as CPlay

cdef class Scrap:
    cdef dict __dict__
    cdef public object rules
    cdef public bint record
    cdef public object names
    cdef public object policies
    cdef public list _turns
    cdef public list _eager
    cdef public object dice
    cdef public int draw_limit
    cdef public int pin_after
    cdef public list deck
    cdef public list _hands
    cdef public list stacks
    cdef public list negate
    cdef public list points
    cdef public list positions
    cdef public list draws_used
    cdef public list skip_next
    cdef public list exposed
    cdef public list taken_down
    cdef public list stalled
    cdef public list resilient
    cdef public list shown
    cdef public int turn
    cdef public list events
    cdef public object fall

    @cython.locals(deck=list, n=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, faces=bytes)
    cpdef shuffle(self)

    @cython.locals(deck=list, card=CCard)
    cpdef draw(self, int i, why=*)

    @cython.locals(deck=list, cards=list, card=CCard, by=dict)
    cpdef deal(self)

    @cython.locals(card=CCard, drawn=list)
    cpdef tenth_card(self)

    cpdef _take_in(self, int i, CCard card)

    @cython.locals(by=dict, plays=list)
    cpdef list _holding(self, int i, str action)

    @cython.locals(o=int, by=dict, options=list, pos=str)
    cpdef list turn_options(self, int i)

    @cython.locals(by=dict, options=list)
    cpdef _answer(self, int i, str threat, against)

    @cython.locals(card=CCard)
    cpdef _spend(self, int i, CPlay play)

    cpdef _credit(self, int i, CCard card, points, bint given=*)

    cpdef _move(self, top)

    cpdef _table(self, int i, CCard card)

    cpdef _settle_card(self, int i, points)

    @cython.locals(o=int, rec=bint, action=str, card=CCard, stack=list, answer=CPlay, points=int)
    cpdef bint play(self, int i, CPlay play) except? -1

    @cython.locals(o=int, by=dict, play=CPlay)
    cpdef _extras(self, int i, bint scored_takedown)

    cpdef bint take_turn(self, int i) except? -1

    @cython.locals(o=int, draws_used=list, by=dict, scored=bint)
    cpdef bint _turn(self, int i) except? -1


@cython.locals(plays=list)
cdef void _file(dict by, CCard card) except *

cdef void _unfile(dict by, CCard card) except *

@cython.locals(k=Py_ssize_t)
cdef void _drop(list items, object item) except *

@cython.locals(c=CCard)
cdef list _in_hand_order(hand, tuple actions)


@cython.locals(scrap=Scrap, first=int, passes=int, player=int, plain=bint, skip_next=list, stalled=list, ban_ends=bint, record=bint, moved=bint)
cpdef quick_scrap(names, policies, deck, dice, draws=*, pin_after=*, rules=*, record=*)
