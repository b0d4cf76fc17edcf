# C types for rooms.py when Cython compiles it (the .py stays plain Python; see docs/ARCHITECTURE.md).
cimport cython

# The tables' sizes (the array sizes below, and the literal list sizes in rooms.py, must match them).
cdef int MAX_CARDS, MAX_PLANS, MAX_GROUPS
cdef unsigned long long SEEN_SLOTS, SPARE_BITS
# C numbers for the walk's comparisons (imported from deal)
cdef int NO_LIMIT, POTION_K, WEAPON_K


@cython.locals(walk=_Walk)
cpdef tuple room_options(object deal, tuple room, int weapon, int limit, bint resolve_all, bint keep_last,
                         bint deaths=*)


@cython.final
cdef class _Walk:
    cdef tuple cards
    cdef int n, step, target, n_found
    cdef int[4] kinds, values
    cdef list plain, armed
    cdef bint resolve_all, keep_last
    cdef dict deaths
    cdef unsigned long long[1021] seen
    cdef unsigned long long[384] found
    cdef int[384] paths

    # left is 64-bit so that ``here`` (eight numbers of 8 bits, the first being left) is computed in 64 bits
    @cython.locals(here=cython.ulonglong, at=cython.ulonglong, i=int, rest=int, k=int, v=int, here_path=int)
    cdef void walk(self, long long left, int done, int d1, int p, int d2, int w, int lim, int last, int resolved,
                   int path)

    @cython.locals(key=tuple, old=object)
    cdef void _fight(self, int rest, int done, int d1, int p, int d2, int w, int resolved, int v, int damage,
                     int new_lim, int path)

    @cython.locals(steps=list, done=int, step=int)
    cdef tuple steps(self, int path, int count)

    @cython.locals(n=int, group_keys=cython.int[20], sizes=cython.int[20], group_of=cython.int[384], n_groups=int,
                   j=int, key=int, g=int, starts=cython.int[21], order=cython.ulonglong[384],
                   plan=cython.ulonglong, d1=cython.longlong, p=cython.longlong, d2=cython.longlong,
                   rank=cython.ulonglong, at=int, kept=list, chosen=int, c=int, fields=cython.ulonglong)
    cdef list undominated(self)

    @cython.locals(plan=cython.ulonglong, carried=int, i=int)
    cdef tuple plan(self, int j)


@cython.locals(leads=cython.longlong[384], groups=list, plan=tuple, carried=int, kind_value=int, d1=int, p=int, d2=int,
               weapon=int, limit=int, lead=cython.longlong, g=int, numbers=tuple)
cpdef list plan_groups(list plans, list card_class)
