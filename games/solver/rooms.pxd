# C types for rooms.py when Cython compiles it (the .py stays plain Python; see docs/ARCHITECTURE.md).
cimport cython


@cython.final
cdef class _Walk:
    cdef tuple cards
    cdef list kinds, values, plain, armed, path
    cdef int step, target
    cdef bint resolve_all, keep_last
    cdef public dict plans, deaths
    cdef set seen

    # left is 64-bit so that ``here`` (eight numbers of 8 bits, the first being left) is computed in 64 bits
    @cython.locals(here=cython.longlong, key=tuple, i=int, rest=int, k=int, v=int, carried=int)
    cpdef void walk(self, long long left, int done, int d1, int p, int d2, int w, int lim, int last, int resolved)

    @cython.locals(key=tuple, old=object)
    cdef void _fight(self, int rest, int done, int d1, int p, int d2, int w, int resolved, int i, int v,
                     int damage, int new_lim, bint armed)


@cython.locals(groups=dict, key=tuple, carried=int, d1=int, p=int, d2=int, weapon=int, limit=int, last=int,
               kept=list, group=list, chosen=list, net=int, c_net=int, c_d1=int, c_d2=int, c_weapon=int, c_limit=int)
cpdef list _undominated(dict found)
