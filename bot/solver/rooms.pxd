# C types for rooms.py when Cython compiles it (the .py stays plain Python; see docs/ARCHITECTURE.md).
cimport cython


@cython.final
cdef class _Walk:
    cdef list kind, value
    cdef int step, target
    cdef bint resolve_all, keep_last
    cdef public dict plans, deaths
    cdef set seen

    @cython.locals(here=tuple, key=tuple, i=int, card=int, rest=tuple, k=int, v=int, carried=int)
    cpdef void walk(self, tuple left, int done, int d1, int p, int d2, int w, int lim, int last, int resolved,
                    tuple steps)

    @cython.locals(move=tuple, key=tuple, old=object)
    cdef void _fight(self, tuple rest, int done, int d1, int p, int d2, int w, int lim, int resolved, tuple steps,
                     int card, int v, int damage, int new_lim, bint armed)
