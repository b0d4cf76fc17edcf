# C types for search.py when Cython compiles it (the .py stays plain Python; see docs/ARCHITECTURE.md).
cimport cython


@cython.final
cdef class Search:
    cdef public object deal
    cdef public int max_health, n
    cdef public bint early_end, room_counts_at_death
    cdef public list kind, value, card_class, suffix_monsters, suffix_packed, suffix_weapons, suffix_potions
    cdef public list suffix_potion_max, suffix_monster_max
    cdef public long nodes
    cdef public dict _ids, _alike, _rooms, _queue_facts, _death, _deaths_in
    cdef public list _damage_tables
    cdef public int _damage_base
    cdef public list _where, _facts_of, _turns, _table

    @cython.locals(n=int, room=tuple, take=int, need=int)
    cpdef tuple fill(self, int pos, tuple queue, int carried)

    @cython.locals(found=tuple, kind=list, value=list, counts=list, monster_sum=int, potion_sum=int, top_potion=int,
                   top_monster=int, w1=int, w2=int, packed=cython.ulonglong, one=cython.ulonglong, c=int, k=int, v=int)
    cpdef tuple _facts(self, tuple cards)

    @cython.locals(rest=tuple, r1=int, r2=int, v=int, top_monster=int, top_potion=int, facts=list)
    cpdef list _remaining_facts(self, int pos, tuple queue, int carried)

    cpdef int dungeon_monsters(self, int pos, tuple queue)

    @cython.locals(k=int, potions=int, top_potion=int, r1=int, r2=int, top_monster=int)  # v: a Python int (1 << 4v)
    cpdef list _with_card(self, list facts, int card)

    @cython.locals(room=tuple, pos2=int, queue2=tuple, empty_after=bint, early_end=bint, final=bint, terminal_next=bint,
                   avoid=list, carry=dict, base=list, facts=list, card=int, room_monsters=int, lost_at_death=int, turn=tuple)
    cdef tuple _turn(self, int sid)

    @cython.locals(key=tuple, found=tuple, facts=tuple, keep_last=bint)
    cpdef tuple _options(self, object room, int w, int lim, bint resolve_all)

    cpdef int upper_bound(self, list facts, int h, int w, int lim, bint deaths=*)

    cdef int _capped(self, list facts, int best_health, int h, int w, int lim, bint deaths)

    @cython.locals(key=tuple, found=tuple, total=int, reach=int, weights=list, values=list, ratios=list,
                   budget=int, i=int)
    cpdef int death_bound(self, list facts, int h, int w, int lim)

    @cython.locals(i=int, table=bytes, damage=int, v=int, c=int, shares=list)
    cdef int _least_damage(self, int r1, int r2, unsigned long long packed, int w, int lim)

    @cython.locals(key=long, entries=list, e=list, lo=int, hi=int, ceiling=int, found=int, eh=int, ew=int, el=int,
                   v=int)
    cdef int _test(self, int sid, bint avoided, int h, int w, int lim, int t)

    cdef int _gain(self, list facts, int w, int lim)

    @cython.locals(key=object, found=object, cls=list, same=object, room=tuple, pos2=int, queue2=tuple, first=int,
                   code=cython.longlong, c=int)
    cpdef int _id(self, int pos, tuple queue, int carried, list facts=*)

    @cython.locals(turn=tuple, final=bint, terminal_next=bint, can_die=bint, best=int, score=int, max_health=int,
                   d1=int, p=int, d2=int, last_potion=int, h2=int, left=int, b=int, top=int,
                   w2=int, lim2=int, child=int, v=int, avoided2=bint, children=list, after=list, facts=list,
                   by_weapon=dict, carry=dict, plans=list, lost_at_death=int, resolved=int, damage=int,
                   deaths=list, raw=int)
    cdef int _best(self, int sid, bint avoided, int h, int w, int lim, int t)
