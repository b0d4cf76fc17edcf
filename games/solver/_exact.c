/* The exact search of search.py in C: the same situations, bounds, table and order of choices, with no Python
 * object in the hot loop.
 *
 * Cards are classes (16 * kind + value: alike cards are one), and a dungeon is the sequence of classes still in it,
 * top first: the deal's untouched end and the avoided cards under it need no telling apart. A turn is what the
 * fill leaves (the room in order, and the dungeon after); turns are numbered once, by those bytes, and each keeps
 * the facts of every card not yet resolved, the children its choices lead to, and its table entries (per health,
 * weapon and limit: a score some line reaches and a score no line beats). Rooms' plans are found once per
 * (cards, weapon, limit as the room's monsters tell it apart) as rooms.py finds them, and shared by every search.
 * A room played into (one or two of its cards resolved, the turn to end as usual) is a situation too, keyed apart:
 * its cards left are its room, with no avoid, and a potion drunk earlier in the turn makes its potions heal nothing.
 *
 * Everything a search holds lives in a few growing arrays freed at once with the search; the rooms' plans, in one
 * table of bounded size (``forget_rooms`` frees it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROOM 4
#define LOST (-1000000)
#define HIGH 1000000
#define NO_LIMIT 99
#define MAXCARDS 64
#define MONSTER 0
#define WEAPON 1
#define POTION 2
#define PROMISE (1 << 14)

#define KIND(c) ((c) >> 4)
#define VALUE(c) ((c) & 15)

typedef struct {
    uint64_t counts;     /* monsters by value, 4 bits each */
    int16_t potions;
    uint8_t top_potion, r1, r2, top_monster;
} Facts;                 /* 16 bytes: a turn keeps five */

typedef struct {
    int32_t lo, hi;
    int32_t next;
    uint8_t h, w, lim;
} Entry;

/* ---- a room's plans ------------------------------------------------------------------------------------------ */

typedef struct { uint8_t d1, p, d2, last; } Numbers;
/* Plans leading to one situation: ``count`` of them, after the previous groups' (6 bytes). */
typedef struct { uint8_t carried, w, lim, unused; uint16_t count; } Group;
typedef struct { uint8_t d1, p, d2, damage; int resolved; } Way;       /* a way to die */

/* A room's plans: 40 bytes, and its arrays in the table's arena (the table holds a few hundred thousand rooms). */
typedef struct {
    uint8_t key[8];
    Numbers *plans;                /* final or terminal rooms: every plan with its clear bonus */
    Group *groups;                 /* otherwise: plans grouped by where they lead, each group's plans after them */
    Way *deaths;                   /* sorted by resolved, most first */
    uint16_t n_plans, n_groups;
    int32_t n_deaths;              /* < 0: not looked for yet */
} Plans;

/* The numbers of a room's groups: right after its groups. */
#define GROUP_NUMBERS(r) ((const Numbers *)((r)->groups + (r)->n_groups))

/* ---- a turn ------------------------------------------------------------------------------------------------- */

typedef struct {
    uint32_t key;          /* offset of its bytes in the pool: [room_n, room..., dungeon...] */
    uint16_t key_len;
    uint8_t room_n, dungeon_n;
    Facts facts;
    int32_t head[2];       /* table entries, not avoided and avoided (-1: none) */
    int32_t turn;          /* index of its Turn (-1: not built yet) */
} Sit;

/* What a turn keeps of its last questions, so that the next ones, at another health mostly, look nothing up: the
 * rooms' plans of its last weapon and limit (for its deaths, its plans at the end, its groups: as indexes into
 * ROOMS, valid while ROOMS was not emptied since), and the gains of its children (``gain``, by carried card or the
 * avoid; by slots a (child, weapon, limit) maps to, the last one met kept in each). A turn is kept by every search
 * of a hint's orders: these few bytes are most of its size. */
#define KEPT_PLANS 3
#define KEPT_GAINS 4
typedef struct { uint8_t j, w, lim, used; int16_t gain; } KeptGain;  /* 6 bytes */

typedef struct {
    uint8_t final, terminal_next, can_die, n_carry;
    uint8_t no_heal;       /* a room played into: a potion was drunk earlier in the turn */
    int lost_at_death;
    int32_t avoid;         /* the avoid's child (-1: not numbered yet, -2: no avoid) */
    uint8_t carry_class[ROOM];
    int32_t carry_child[ROOM];
    Facts carry_facts[ROOM];
    uint32_t plans_made;   /* ROOMS.made when plans_at was kept */
    int32_t plans_at[KEPT_PLANS];  /* index in ROOMS.rooms + 1 (0: none) */
    uint8_t plans_w[KEPT_PLANS], plans_lim[KEPT_PLANS];
    KeptGain gains[KEPT_GAINS];
} Turn;

typedef struct {
    PyObject_HEAD
    int n, max_health, early_end, room_counts, step;
    uint8_t classes[MAXCARDS];
    long long nodes;
    /* turns */
    Sit *sits; int32_t n_sits, cap_sits;
    int32_t *slots; uint32_t n_slots;       /* open addressing: turn number + 1, 0 free */
    uint8_t *pool; uint32_t pool_len, pool_cap;
    Turn *turns; int32_t n_turns, cap_turns;
    Entry *entries; int32_t n_entries, cap_entries;
} Exact;

/* Rooms' plans depend on the room's cards, the weapon, its limit and the rules' limit step, never on the deal: one
 * table serves every search (a hint's hundreds of orders meet the same rooms, and other deals' hints most of them
 * again), emptied when it holds ``ROOMS_BYTES`` between questions (``forget_rooms``). Emptied, it is filled again
 * at a cost: a hint makes a few hundred thousand rooms' plans from nothing. */
#ifndef ROOMS_BYTES
#define ROOMS_BYTES (48 << 20)
#endif
#define ARENA_CHUNK (1 << 20)
typedef struct {
    Plans *rooms; int32_t n_rooms, cap_rooms;
    int32_t *room_slots; uint32_t n_room_slots;
    uint32_t made;  /* how many times the table was emptied (what a turn kept of it is good while this is unchanged) */
    uint8_t **chunks; int32_t n_chunks, cap_chunks;  /* the arena of the plans' arrays, freed at once */
    uint32_t chunk_used;
} Rooms;
static Rooms ROOMS;

static int grow(void **array, int32_t *cap, int32_t need, size_t size);

/* ``bytes`` from the arena (4-byte aligned; at most ``ARENA_CHUNK``), or NULL with MemoryError. */
static void *arena(uint32_t bytes) {
    Rooms *g = &ROOMS;
    bytes = (bytes + 3) & ~3u;
    if (!g->n_chunks || g->chunk_used + bytes > ARENA_CHUNK) {
        if (grow((void **)&g->chunks, &g->cap_chunks, g->n_chunks + 1, sizeof(uint8_t *))) return NULL;
        uint8_t *chunk = malloc(ARENA_CHUNK);
        if (!chunk) { PyErr_NoMemory(); return NULL; }
        g->chunks[g->n_chunks++] = chunk;
        g->chunk_used = 0;
    }
    void *at = g->chunks[g->n_chunks - 1] + g->chunk_used;
    g->chunk_used += bytes;
    return at;
}

/* What the table holds, in bytes. */
static size_t rooms_held(void) {
    return (size_t)ROOMS.n_chunks * ARENA_CHUNK + (size_t)ROOMS.cap_rooms * sizeof(Plans)
           + (size_t)ROOMS.n_room_slots * sizeof(int32_t);
}

static int grow(void **array, int32_t *cap, int32_t need, size_t size) {
    if (need <= *cap) return 0;
    int32_t cap2 = *cap ? *cap : 256;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(*array, (size_t)cap2 * size);
    if (!p) { PyErr_NoMemory(); return -1; }
    *array = p;
    *cap = cap2;
    return 0;
}

static uint64_t hash_bytes(const uint8_t *b, int len) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)len;
    for (; len >= 8; b += 8, len -= 8) {  /* eight bytes at a time */
        uint64_t word;
        memcpy(&word, b, 8);
        h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 32;
    }
    for (int i = 0; i < len; i++) { h ^= b[i]; h *= 1099511628211ULL; }
    return h ^ (h >> 29);
}

/* ---- facts and bounds --------------------------------------------------------------------------------------- */

static inline void facts_add(Facts *f, int c) {
    int k = KIND(c), v = VALUE(c);
    if (k == MONSTER) {
        f->counts += 1ULL << (4 * v);
        if (v > f->top_monster) f->top_monster = (uint8_t)v;
    } else if (k == WEAPON) {
        if (v > f->r1) { f->r2 = f->r1; f->r1 = (uint8_t)v; }
        else if (v > f->r2) f->r2 = (uint8_t)v;
    } else {
        f->potions = (int16_t)(f->potions + v);
        if (v > f->top_potion) f->top_potion = (uint8_t)v;
    }
}

static void facts_of(const Exact *x, const uint8_t *cards, int len, Facts *f) {
    memset(f, 0, sizeof *f);
    for (int i = 0; i < len; i++) facts_add(f, cards[i]);
}

static inline void best_two(int r1, int r2, int w, int lim, int v, int *a1, int *a2) {
    *a1 = r1; *a2 = r2;
    if (w && v < lim && w > r2) {
        if (w > r1) { *a1 = w; *a2 = r1; } else { *a2 = w; }
    }
}

/* The least damage the monsters counted in ``packed`` can do: each meets the best weapon that could reach it, a
 * weapon killing at most one monster of a value (under "lower or equal", it may repeat). When the game ends early,
 * up to 3 cards are never played: the 3 monsters whose damage counts the most are left out (a value's other
 * monsters count at least as much as its first, so the 3 largest shares can be left out together). */
static int least_damage(const Exact *x, int r1, int r2, uint64_t packed, int w, int lim) {
    /* the best two weapons that could reach a monster below the limit (the one held counts), and above it */
    int b1, b2;
    best_two(r1, r2, w, lim, 0, &b1, &b2);
    int below_second = x->step ? b1 : b2, above_second = x->step ? r1 : r2;
    int damage = 0, top[4] = {0, 0, 0, 0};  /* the 3 largest shares (top[3]: room to insert) */
    packed &= ~15ULL;  /* no monster of value 0 */
    while (packed) {
        int v = __builtin_ctzll(packed) >> 2;
        int c = (int)(packed >> (4 * v) & 15);
        packed &= ~(15ULL << (4 * v));
        int a1 = v < lim ? b1 : r1, second = v < lim ? below_second : above_second;
        int first = a1 < v ? v - a1 : 0, more = second < v ? v - second : 0;
        damage += first + (c - 1) * more;
        if (x->early_end) {
            for (int i = 0; i < c && i < 3; i++) {
                int share = i < c - 1 ? more : first;
                int j = 3;
                while (j > 0 && top[j - 1] < share) { top[j] = top[j - 1]; j--; }
                top[j] = share;
            }
        }
    }
    return damage - top[0] - top[1] - top[2];
}

/* least_damage's last answers (a turn's children are met again at every health and every test) */
#define DAMAGE_MEMO 16384
typedef struct { uint64_t counts; uint32_t rest; int32_t damage; } Damage;
static Damage DAMAGE[DAMAGE_MEMO];

static inline int gain(const Exact *x, const Facts *f, int w, int lim) {
    uint32_t rest = (uint32_t)f->r1 << 24 | (uint32_t)f->r2 << 16 | (uint32_t)w << 8 | (uint32_t)lim;
    rest = (rest << 1 | (uint32_t)(x->step & 1)) << 1 | (uint32_t)(x->early_end != 0);
    uint64_t h = (f->counts ^ (f->counts >> 29) ^ rest * 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    Damage *d = &DAMAGE[h >> 50];
    if (d->counts != f->counts || d->rest != rest || !d->counts) {
        d->counts = f->counts;
        d->rest = rest;
        d->damage = least_damage(x, f->r1, f->r2, f->counts, w, lim);
    }
    return f->potions - d->damage;
}

typedef struct { double ratio; int dv, v; } Item;

static int by_ratio(const void *a, const void *b) {
    const Item *p = a, *q = b;
    if (p->ratio != q->ratio) return p->ratio < q->ratio ? 1 : -1;
    if (p->dv != q->dv) return q->dv - p->dv;
    return q->v - p->v;
}

/* No death from here scores more than this (see Search.death_bound). */
static int death_bound(const Exact *x, const Facts *f, int h, int w, int lim) {
    int total = 0, free_value = 0, n_items = 0, n_monsters = 0;
    Item items[64];
    int monsters[64];
    for (int v = 1; v < 16; v++) {
        int c = (f->counts >> (4 * v)) & 15;
        if (!c) continue;
        int a1, a2;
        best_two(f->r1, f->r2, w, lim, v, &a1, &a2);
        int second = x->step ? a1 : a2;
        for (int i = 0; i < c; i++) {
            int a = i == 0 ? a1 : second;
            total += v;
            monsters[n_monsters++] = v;
            if (a >= v) free_value += v;
            else { items[n_items].ratio = (double)v / (v - a); items[n_items].dv = v - a; items[n_items].v = v; n_items++; }
        }
    }
    qsort(items, n_items, sizeof(Item), by_ratio);
    /* the strongest monsters (one, or four when the room's unresolved ones count) leave the dungeon too */
    int keep = x->room_counts ? 1 : ROOM;
    for (int i = n_monsters - 1, taken = 0; i >= 0 && taken < keep; i--, taken++) free_value += monsters[i];
    int budget = h - 1 + f->potions, weight = 0, value = 0, i = 0;
    int all_weight = 0;
    for (int j = 0; j < n_items; j++) all_weight += items[j].dv;
    if (budget >= all_weight) return 0;
    while (i < n_items && weight + items[i].dv <= budget) { weight += items[i].dv; value += items[i].v; i++; }
    int reach = free_value + value;
    if (i < n_items) reach += (int)((budget - weight) * items[i].ratio);
    return reach < total ? reach - total : 0;
}

static inline int capped(const Exact *x, const Facts *f, int best_health, int h, int w, int lim, int deaths) {
    if (best_health <= 0) return deaths ? death_bound(x, f, h, w, lim) : 0;
    if (best_health >= x->max_health) return x->max_health + f->top_potion;
    return best_health;
}

static inline int upper_bound(const Exact *x, const Facts *f, int h, int w, int lim, int deaths) {
    return capped(x, f, h + gain(x, f, w, lim), h, w, lim, deaths);
}

/* ---- rooms (rooms.py's walk) ------------------------------------------------------------------------------- */

#define SEEN 1021
/* A room's plans are found for the limit as the room's monsters tell it apart (``room_plans``): a plan that leaves
 * the weapon's limit as it was carries AS_GIVEN + that limit, read back as the limit the room was entered with. */
#define AS_GIVEN 100
#define LIM_RANK(l) ((l) >= AS_GIVEN ? NO_LIMIT - 1 : (l))  /* below a fresh weapon's, above any kill's in the room */
#define MAX_FOUND 384

typedef struct {
    const Exact *x;
    int n, target, keep_last, want_deaths, no_heal;
    uint8_t cards[ROOM];
    uint64_t seen[SEEN];
    uint64_t found[MAX_FOUND];
    int n_found;
    Way deaths[MAX_FOUND];
    int n_deaths;
    uint16_t used[SEEN];   /* the slots of ``seen`` taken, emptied after the walk (one walk at a time) */
    int n_used;
} Walk;

static Walk WALK;

static void walk_done(Walk *k) {
    for (int i = 0; i < k->n_used; i++) k->seen[k->used[i]] = 0;
    k->n_used = 0;
}

static void walk(Walk *k, int left, int done, int d1, int p, int d2, int w, int lim, int last, int resolved);

static void fight(Walk *k, int rest, int done, int d1, int p, int d2, int w, int resolved, int v, int damage,
                  int new_lim) {
    if (damage && k->want_deaths) {
        int j;
        for (j = 0; j < k->n_deaths; j++) {
            Way *d = &k->deaths[j];
            if (d->d1 == d1 && d->p == p && d->d2 == d2 && d->damage == damage) break;
        }
        if (j == k->n_deaths) {
            if (j < MAX_FOUND) {
                k->deaths[j] = (Way){(uint8_t)d1, (uint8_t)p, (uint8_t)d2, (uint8_t)damage, resolved + v};
                k->n_deaths++;
            }
        } else if (k->deaths[j].resolved < resolved + v) {
            k->deaths[j].resolved = resolved + v;
        }
    }
    if (p) walk(k, rest, done + 1, d1, p, d2 + damage, w, new_lim, 0, resolved + v);
    else walk(k, rest, done + 1, d1 + damage, p, d2, w, new_lim, 0, resolved + v);
}

static void walk(Walk *k, int left, int done, int d1, int p, int d2, int w, int lim, int last, int resolved) {
    if (!k->keep_last) last = 0;
    uint64_t here = ((((((((uint64_t)left << 8 | d1) << 8 | p) << 8 | d2) << 8 | w) << 8 | lim) << 8 | last) << 8)
                    | (uint64_t)resolved;
    uint32_t at = (uint32_t)(here % SEEN);
    while (k->seen[at]) {
        if (k->seen[at] == here + 1) return;
        at = at + 1 < SEEN ? at + 1 : 0;
    }
    k->seen[at] = here + 1;
    k->used[k->n_used++] = (uint16_t)at;
    if (done == k->target) {
        if (k->n_found < MAX_FOUND) k->found[k->n_found++] = here >> 8;
        return;
    }
    for (int i = 0; i < k->n; i++) {
        if (!(left >> i & 1)) continue;
        int rest = left & ~(1 << i);
        int c = k->cards[i], kind = KIND(c), v = VALUE(c);
        if (kind == WEAPON) {
            walk(k, rest, done + 1, d1, p, d2, v, NO_LIMIT, 0, resolved);
        } else if (kind == POTION) {
            walk(k, rest, done + 1, d1, p || k->no_heal ? p : v, d2, w, lim, v, resolved);
        } else {
            fight(k, rest, done, d1, p, d2, w, resolved, v, v, lim);
            if (w && v < (lim >= AS_GIVEN ? lim - AS_GIVEN : lim))
                fight(k, rest, done, d1, p, d2, w, resolved, v, v > w ? v - w : 0, v + k->x->step);
        }
    }
}

/* A plan found: left (4 bits) d1 p d2 w lim last, 8 bits each from the top. */
#define F_LEFT(f) ((int)((f) >> 48 & 255))
#define F_D1(f) ((int)((f) >> 40 & 255))
#define F_P(f) ((int)((f) >> 32 & 255))
#define F_D2(f) ((int)((f) >> 24 & 255))
#define F_W(f) ((int)((f) >> 16 & 255))
#define F_LIM(f) ((int)((f) >> 8 & 255))
#define F_LAST(f) ((int)((f) & 255))

static int by_resolved(const void *a, const void *b) {
    return ((const Way *)b)->resolved - ((const Way *)a)->resolved;
}

/* Packed ranks, in ascending order. */
static int by_key(const void *a, const void *b) {
    uint64_t p = *(const uint64_t *)a, q = *(const uint64_t *)b;
    return p < q ? -1 : p > q;
}

/* The plans no other plan to the same card left and clear bonus beats (rooms.py's ``undominated``), met in the order
 * of (d1 + d2 - p, d1, d2, -w, -lim), ties in the order found. */
static int undominated(Walk *k, uint64_t *kept) {
    int n_kept = 0;
    uint64_t order[MAX_FOUND];
    for (int i = 0; i < k->n_found; i++) {
        uint64_t f = k->found[i];
        uint64_t rank = (uint64_t)(F_D1(f) + F_D2(f) - F_P(f) + 256) << 41 | (uint64_t)F_D1(f) << 33
                        | (uint64_t)F_D2(f) << 25 | (uint64_t)(255 - F_W(f)) << 17
                        | (uint64_t)(255 - LIM_RANK(F_LIM(f))) << 9;
        order[i] = rank | (uint64_t)i;
    }
    qsort(order, k->n_found, sizeof(uint64_t), by_key);
    int16_t head[16], next[MAX_FOUND];  /* the plans kept, by the cards they leave: only those can beat a plan */
    for (int i = 0; i < 16; i++) head[i] = -1;
    for (int i = 0; i < k->n_found; i++) {
        uint64_t f = k->found[order[i] & 511];
        int beaten = 0;
        for (int j = head[F_LEFT(f)]; j >= 0 && !beaten; j = next[j]) {
            uint64_t g = kept[j];
            beaten = F_LAST(g) == F_LAST(f)
                     && F_D1(g) + F_D2(g) - F_P(g) <= F_D1(f) + F_D2(f) - F_P(f) && F_D1(g) <= F_D1(f)
                     && F_D2(g) <= F_D2(f) && F_W(g) >= F_W(f) && LIM_RANK(F_LIM(g)) >= LIM_RANK(F_LIM(f));
        }
        if (!beaten) {
            next[n_kept] = head[F_LEFT(f)];
            head[F_LEFT(f)] = (int16_t)n_kept;
            kept[n_kept++] = f;
        }
    }
    return n_kept;
}

/* mode: bit 0 resolve every card (final room), bit 1 keep the last card (the room ends the game), bit 2 a potion
 * was drunk earlier in the turn (the room's potions heal nothing) */
static Plans *room_plans(Exact *x, const uint8_t *room, int room_n, int w, int lim, int mode, int want_deaths) {
    if (w) {  /* the least limit that lets the weapon kill the same monsters of the room */
        int below = 0, least = 0;
        for (int i = 0; i < room_n; i++) {
            if (KIND(room[i]) != MONSTER) continue;
            int v = VALUE(room[i]);
            if (v < lim && v > below) below = v;
            if (!least || v < least) least = v;
        }
        lim = below ? below + 1 : least;
    } else {
        lim = 0;
    }
    uint8_t key[8] = {255, 255, 255, 255, (uint8_t)w, (uint8_t)lim, (uint8_t)mode, (uint8_t)(room_n | x->step << 4)};
    memcpy(key, room, room_n);
    for (int i = 1; i < room_n; i++)  /* sorted: the order of a room's cards does not change its plans */
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) { uint8_t t = key[j]; key[j] = key[j - 1]; key[j - 1] = t; }
    Rooms *g = &ROOMS;
    if (!g->room_slots) {
        g->n_room_slots = 1024;
        g->room_slots = calloc(g->n_room_slots, sizeof(int32_t));
        if (!g->room_slots) { g->n_room_slots = 0; PyErr_NoMemory(); return NULL; }
    }
    uint64_t h = hash_bytes(key, 8);
    uint32_t mask = g->n_room_slots - 1, at = (uint32_t)h & mask;
    Plans *found = NULL;
    while (g->room_slots[at]) {
        Plans *r = &g->rooms[g->room_slots[at] - 1];
        if (!memcmp(r->key, key, 8)) { found = r; break; }
        at = (at + 1) & mask;
    }
    if (found && (!want_deaths || found->n_deaths >= 0)) return found;

    Walk *k = &WALK;
    k->n_found = k->n_deaths = 0;
    k->x = x;
    k->n = room_n;
    k->target = (mode & 1) ? room_n : room_n - 1;
    k->keep_last = (mode & 2) != 0;
    k->no_heal = (mode & 4) != 0;
    k->want_deaths = want_deaths;
    memcpy(k->cards, key, room_n);
    walk(k, (1 << room_n) - 1, 0, 0, 0, 0, w, lim + AS_GIVEN, 0, 0);
    if (found) {  /* plans known: only the deaths were missing */
        found->deaths = arena(sizeof(Way) * (uint32_t)k->n_deaths);
        if (!found->deaths) { walk_done(k); return NULL; }
        memcpy(found->deaths, k->deaths, sizeof(Way) * k->n_deaths);
        qsort(found->deaths, k->n_deaths, sizeof(Way), by_resolved);
        found->n_deaths = k->n_deaths;
        walk_done(k);
        return found;
    }
    if (grow((void **)&g->rooms, &g->cap_rooms, g->n_rooms + 1, sizeof(Plans))) { walk_done(k); return NULL; }
    Plans *r = &g->rooms[g->n_rooms];
    memset(r, 0, sizeof *r);
    memcpy(r->key, key, 8);
    r->n_deaths = -1;
    uint64_t kept[MAX_FOUND];
    int n_kept = undominated(k, kept);
    if (mode & 3) {  /* the room ends the game or is the one before the end: each plan's score is known at once */
        r->plans = arena(sizeof(Numbers) * (uint32_t)n_kept);
        if (!r->plans) { walk_done(k); return NULL; }
        for (int i = 0; i < n_kept; i++)
            r->plans[i] = (Numbers){(uint8_t)F_D1(kept[i]), (uint8_t)F_P(kept[i]), (uint8_t)F_D2(kept[i]),
                                    (uint8_t)F_LAST(kept[i])};
        r->n_plans = (uint16_t)n_kept;
    }
    if (!(mode & 1)) {  /* grouped by where they lead: the card left (as a class), the weapon and limit */
        Group groups[MAX_FOUND];
        Numbers numbers[MAX_FOUND];
        int n_groups = 0, n_numbers = 0;
        for (int i = 0; i < n_kept; i++) {  /* groups in the order first met, as plan_groups makes them */
            uint64_t f = kept[i];
            int slot = __builtin_ctz(F_LEFT(f));
            uint8_t carried = key[slot];
            int g;
            for (g = 0; g < n_groups; g++)
                if (groups[g].carried == carried && groups[g].w == F_W(f) && groups[g].lim == F_LIM(f)) break;
            if (g == n_groups) groups[n_groups++] = (Group){carried, (uint8_t)F_W(f), (uint8_t)F_LIM(f), 0, 0};
        }
        for (int g = 0; g < n_groups; g++) {
            Group *grp = &groups[g];
            int first = n_numbers;
            for (int i = 0; i < n_kept; i++) {
                uint64_t f = kept[i];
                int slot = __builtin_ctz(F_LEFT(f));
                if (key[slot] != grp->carried || F_W(f) != grp->w || F_LIM(f) != grp->lim) continue;
                Numbers num = {(uint8_t)F_D1(f), (uint8_t)F_P(f), (uint8_t)F_D2(f), 0};
                int dup = 0;
                for (int j = first; j < n_numbers && !dup; j++)
                    dup = numbers[j].d1 == num.d1 && numbers[j].p == num.p && numbers[j].d2 == num.d2;
                if (!dup) numbers[n_numbers++] = num;
            }
            grp->count = (uint16_t)(n_numbers - first);
        }
        /* the groups, then their plans: one place in memory */
        r->groups = arena(sizeof(Group) * (uint32_t)n_groups + sizeof(Numbers) * (uint32_t)n_numbers);
        if (!r->groups) { walk_done(k); return NULL; }
        r->n_groups = (uint16_t)n_groups;
        memcpy(r->groups, groups, sizeof(Group) * n_groups);
        memcpy((Numbers *)GROUP_NUMBERS(r), numbers, sizeof(Numbers) * n_numbers);
    }
    if (want_deaths) {
        r->deaths = arena(sizeof(Way) * (uint32_t)k->n_deaths);
        if (!r->deaths) { walk_done(k); return NULL; }
        memcpy(r->deaths, k->deaths, sizeof(Way) * k->n_deaths);
        qsort(r->deaths, k->n_deaths, sizeof(Way), by_resolved);
        r->n_deaths = k->n_deaths;
    }
    walk_done(k);
    g->n_rooms++;
    if ((uint32_t)g->n_rooms * 2 > g->n_room_slots) {  /* rehash */
        uint32_t n2 = g->n_room_slots * 2;
        int32_t *s2 = calloc(n2, sizeof(int32_t));
        if (!s2) { PyErr_NoMemory(); return NULL; }
        for (int32_t i = 0; i < g->n_rooms; i++) {
            uint32_t a = (uint32_t)hash_bytes(g->rooms[i].key, 8) & (n2 - 1);
            while (s2[a]) a = (a + 1) & (n2 - 1);
            s2[a] = i + 1;
        }
        free(g->room_slots);
        g->room_slots = s2;
        g->n_room_slots = n2;
    } else {
        g->room_slots[at] = g->n_rooms;
    }
    return &g->rooms[g->n_rooms - 1];
}

/* ---- turns ------------------------------------------------------------------------------------------------- */

static int rehash_sits(Exact *x) {
    uint32_t n2 = x->n_slots * 2;
    int32_t *s2 = calloc(n2, sizeof(int32_t));
    if (!s2) { PyErr_NoMemory(); return -1; }
    for (int32_t i = 0; i < x->n_sits; i++) {
        uint32_t a = (uint32_t)hash_bytes(x->pool + x->sits[i].key, x->sits[i].key_len) & (n2 - 1);
        while (s2[a]) a = (a + 1) & (n2 - 1);
        s2[a] = i + 1;
    }
    free(x->slots);
    x->slots = s2;
    x->n_slots = n2;
    return 0;
}

static int32_t sit_id(Exact *x, const uint8_t *key, int key_len, int room_n, const Facts *facts);

/* The turn whose dungeon is ``dungeon`` (classes, top first) with ``carried`` (-1: none) left from the last room:
 * its number, found or made. ``facts``: those of its cards if the caller has them. */
static int32_t turn_id(Exact *x, const uint8_t *dungeon, int len, int carried, const Facts *facts) {
    uint8_t key[2 + MAXCARDS + ROOM];
    int room_n = 0;
    if (carried >= 0) key[1 + room_n++] = (uint8_t)carried;
    int take = len < ROOM - room_n ? len : ROOM - room_n;
    memcpy(key + 1 + room_n, dungeon, take);
    room_n += take;
    key[0] = (uint8_t)room_n;
    memcpy(key + 1 + room_n, dungeon + take, len - take);
    return sit_id(x, key, 1 + room_n + len - take, room_n, facts);
}

/* A room played into (``room``: the cards not played yet; no avoid): the key's first byte tells it from a turn. */
#define PLAYED_INTO 16
#define DRUNK 32
static int32_t played_into_id(Exact *x, const uint8_t *room, int room_n, const uint8_t *dungeon, int len, int drunk) {
    uint8_t key[2 + MAXCARDS + ROOM];
    key[0] = (uint8_t)(PLAYED_INTO | (drunk ? DRUNK : 0) | room_n);
    memcpy(key + 1, room, room_n);
    memcpy(key + 1 + room_n, dungeon, len);
    return sit_id(x, key, 1 + room_n + len, room_n, NULL);
}

/* The situation whose key is ``key`` (``room_n`` cards of it the room): its number, found or made. */
static int32_t sit_id(Exact *x, const uint8_t *key, int key_len, int room_n, const Facts *facts) {
    uint64_t h = hash_bytes(key, key_len);
    uint32_t mask = x->n_slots - 1, at = (uint32_t)h & mask;
    while (x->slots[at]) {
        Sit *s = &x->sits[x->slots[at] - 1];
        if (s->key_len == key_len && !memcmp(x->pool + s->key, key, key_len)) return x->slots[at] - 1;
        at = (at + 1) & mask;
    }
    if (grow((void **)&x->sits, &x->cap_sits, x->n_sits + 1, sizeof(Sit))) return -1;
    if (x->pool_len + key_len > x->pool_cap) {
        uint32_t cap = x->pool_cap ? x->pool_cap : 4096;
        while (cap < x->pool_len + key_len) cap *= 2;
        uint8_t *p = realloc(x->pool, cap);
        if (!p) { PyErr_NoMemory(); return -1; }
        x->pool = p;
        x->pool_cap = cap;
    }
    int32_t id = x->n_sits++;
    Sit *s = &x->sits[id];
    s->key = x->pool_len;
    s->key_len = (uint16_t)key_len;
    s->room_n = (uint8_t)room_n;
    s->dungeon_n = (uint8_t)(key_len - 1 - room_n);
    memcpy(x->pool + x->pool_len, key, key_len);
    x->pool_len += key_len;
    if (facts) s->facts = *facts;
    else facts_of(x, key + 1, key_len - 1, &s->facts);
    s->head[0] = s->head[1] = -1;
    s->turn = -1;
    x->slots[at] = id + 1;
    if ((uint32_t)x->n_sits * 2 > x->n_slots && rehash_sits(x)) return -1;
    return id;
}

static Turn *build_turn(Exact *x, int32_t sid) {
    if (grow((void **)&x->turns, &x->cap_turns, x->n_turns + 1, sizeof(Turn))) return NULL;
    Sit *s = &x->sits[sid];
    const uint8_t *room = x->pool + s->key + 1, *dungeon = room + s->room_n;
    int dn = s->dungeon_n, empty_after = dn == 0;
    Turn *t = &x->turns[x->n_turns];
    memset(t, 0, sizeof *t);
    t->final = empty_after && !x->early_end;
    t->terminal_next = x->early_end && 1 + dn < ROOM;
    t->avoid = empty_after ? -2 : -1;
    uint8_t marker = x->pool[s->key];
    if (marker & PLAYED_INTO) {
        t->avoid = -2;
        t->no_heal = (marker & DRUNK) != 0;
    }
    int room_monsters = 0, dungeon_monsters = 0;
    for (int i = 0; i < s->room_n; i++) if (KIND(room[i]) == MONSTER) room_monsters += VALUE(room[i]);
    for (int i = 0; i < dn; i++) if (KIND(dungeon[i]) == MONSTER) dungeon_monsters += VALUE(dungeon[i]);
    t->can_die = room_monsters > 0;
    t->lost_at_death = dungeon_monsters + (x->room_counts ? room_monsters : 0);
    if (!t->final && !t->terminal_next) {
        Facts rest;  /* the dungeon's: each carried card's turn adds that card to them */
        facts_of(x, dungeon, dn, &rest);
        for (int i = 0; i < s->room_n; i++) {
            int j;
            for (j = 0; j < t->n_carry; j++) if (t->carry_class[j] == room[i]) break;
            if (j < t->n_carry) continue;
            t->carry_class[j] = room[i];
            t->carry_child[j] = -1;
            t->carry_facts[j] = rest;
            facts_add(&t->carry_facts[j], room[i]);
            t->n_carry++;
        }
    }
    s->turn = x->n_turns;
    return &x->turns[x->n_turns++];
}

/* ---- the search ---------------------------------------------------------------------------------------------- */

typedef struct {
    long long promise;
    int32_t child;      /* turn number, or -1 with ``carry`` the index of the carry (-2: the avoid) */
    int carry;
    int avoided, h, w, lim;
} Child;

static int test(Exact *x, int32_t sid, int avoided, int h, int w, int lim, int t);

static int32_t carry_child(Exact *x, int32_t sid, int j) {
    Turn *t = &x->turns[x->sits[sid].turn];
    if (t->carry_child[j] >= 0) return t->carry_child[j];
    Sit *s = &x->sits[sid];
    uint8_t dungeon[MAXCARDS];
    int dn = s->dungeon_n;
    memcpy(dungeon, x->pool + s->key + 1 + s->room_n, dn);
    Facts f = t->carry_facts[j];
    int32_t id = turn_id(x, dungeon, dn, t->carry_class[j], &f);
    if (id >= 0) x->turns[x->sits[sid].turn].carry_child[j] = id;  /* turns may have moved */
    return id;
}

static int32_t avoid_child(Exact *x, int32_t sid) {
    Turn *t = &x->turns[x->sits[sid].turn];
    if (t->avoid >= 0) return t->avoid;
    Sit *s = &x->sits[sid];
    uint8_t dungeon[MAXCARDS + ROOM];
    const uint8_t *room = x->pool + s->key + 1;
    int dn = s->dungeon_n;
    memcpy(dungeon, room + s->room_n, dn);       /* the dungeon, then the room under it, in its order */
    memcpy(dungeon + dn, room, s->room_n);
    Facts f = s->facts;
    int32_t id = turn_id(x, dungeon, dn + s->room_n, -1, &f);
    if (id >= 0) x->turns[x->sits[sid].turn].avoid = id;
    return id;
}

#define FAIL (-2000000000)

/* Health after facing a room as (d1, p, d2) from ``h`` (rooms.py's ``health_after``): 0 or less, dead on the way. */
static inline int health_after(int h, int d1, int p, int d2, int max_health) {
    if (h <= d1) return 0;
    int mid = h - d1 + p;
    return (mid > max_health ? max_health : mid) - d2;
}

/* ``room_plans`` of the turn's room, question ``k`` (0 deaths, 1 plans at the end, 2 groups), as the turn kept it. */
static Plans *turn_plans(Exact *x, Turn *turn, int k, const uint8_t *room, int room_n, int w, int lim, int mode,
                         int want_deaths) {
    if (turn->plans_made == ROOMS.made && turn->plans_at[k] && turn->plans_w[k] == w && turn->plans_lim[k] == lim)
        return &ROOMS.rooms[turn->plans_at[k] - 1];
    Plans *r = room_plans(x, room, room_n, w, lim, mode, want_deaths);
    if (!r) return NULL;
    if (turn->plans_made != ROOMS.made) {
        memset(turn->plans_at, 0, sizeof turn->plans_at);
        turn->plans_made = ROOMS.made;
    }
    turn->plans_at[k] = (int32_t)(r - ROOMS.rooms) + 1;
    turn->plans_w[k] = (uint8_t)w;
    turn->plans_lim[k] = (uint8_t)lim;
    return r;
}

/* ``gain`` of the turn's child ``j`` (a carried card's index, or ROOM: the avoid), as the turn kept it. */
static inline int turn_gain(const Exact *x, Turn *turn, int j, const Facts *f, int w, int lim) {
    KeptGain *k = &turn->gains[(j * 5 + w * 3 + lim) & (KEPT_GAINS - 1)];
    if (k->used && k->j == j && k->w == w && k->lim == lim) return k->gain;
    int g = gain(x, f, w, lim);
    *k = (KeptGain){(uint8_t)j, (uint8_t)w, (uint8_t)lim, 1, (int16_t)g};
    return g;
}

static int best(Exact *x, int32_t sid, int avoided, int h, int w, int lim, int t) {
    if (x->sits[sid].turn < 0 && !build_turn(x, sid)) return FAIL;
    /* Pointers into the arrays, good until the children are searched (which may move them). */
    Turn *turn = &x->turns[x->sits[sid].turn];
    const Sit *s = &x->sits[sid];
    const uint8_t *room_at = x->pool + s->key + 1;
    uint8_t room[ROOM];
    int room_n = s->room_n;
    memcpy(room, room_at, room_n);
    int max_health = x->max_health, result = LOST, drunk = turn->no_heal ? 4 : 0;
    if (t <= 0) {
        /* the best death here: the most monster value resolved in the room before dying (when it counts) */
        Plans *r = turn_plans(x, turn, 0, room, room_n, w, lim,
                              (turn->final ? 3 : (x->early_end ? 2 : 0)) | drunk, 1);
        if (!r) return FAIL;
        for (int i = 0; i < r->n_deaths; i++) {
            Way *d = &r->deaths[i];
            int left = health_after(h, d->d1, d->p, d->d2, max_health);
            if (left > 0 && left <= d->damage) {
                result = (x->room_counts ? d->resolved : 0) - turn->lost_at_death;
                break;
            }
        }
        if (result >= t) return result;
    } else if (turn->can_die) {
        result = 0;  /* deaths were not looked at: they score at most 0, below t */
    }
    if (turn->final || turn->terminal_next) {
        Plans *r = turn_plans(x, turn, 1, room, room_n, w, lim, (turn->final ? 3 : 2) | drunk, 0);
        if (!r) return FAIL;
        for (int i = 0; i < r->n_plans; i++) {
            Numbers *p = &r->plans[i];
            int h2 = health_after(h, p->d1, p->p, p->d2, max_health);
            if (h2 > 0) {
                int score = h2 == max_health ? h2 + p->last : h2;
                if (score >= t && !turn->final) return score;
                if (score > result) result = score;
            }
        }
        if (turn->final) return result;
    }
    Child children[64];
    int n_children = 0;
    if (!turn->final && !turn->terminal_next) {
        Plans *r = turn_plans(x, turn, 2, room, room_n, w, lim, (x->early_end ? 2 : 0) | drunk, 0);
        if (!r) return FAIL;
        const Numbers *p = GROUP_NUMBERS(r);
        for (int g = 0; g < r->n_groups; g++) {
            const Group *grp = &r->groups[g];
            int h2 = 0;
            for (const Numbers *end = p + grp->count; p < end; p++) {
                int left = health_after(h, p->d1, p->p, p->d2, max_health);
                if (left > h2) h2 = left;
            }
            if (!h2) continue;
            int j = 0;
            while (turn->carry_class[j] != grp->carried) j++;
            const Facts *f = &turn->carry_facts[j];
            int w2 = grp->w, lim2 = grp->lim >= AS_GIVEN ? lim : grp->lim;
            if (lim2 && lim2 > f->top_monster) lim2 = f->top_monster + 1;
            int raw = turn_gain(x, turn, j, f, w2, lim2) + h2;
            int b = capped(x, f, raw, h2, w2, lim2, t <= 0);
            if (b < t) { if (b > result) result = b; continue; }
            children[n_children++] = (Child){(long long)b * PROMISE + raw * 4 + w2, -1, j, 0, h2, w2, lim2};
        }
    }
    if (turn->avoid != -2 && !avoided) {
        const Facts *f = &s->facts;
        int lim2 = !lim || lim <= f->top_monster ? lim : f->top_monster + 1;
        int raw = turn_gain(x, turn, ROOM, f, w, lim2) + h;
        int b = capped(x, f, raw, h, w, lim2, t <= 0);
        if (b < t) { if (b > result) result = b; }
        else children[n_children++] = (Child){(long long)b * PROMISE + (raw - 5) * 4 + w, -1, -2, 1, h, w, lim2};
    }
    /* most promising first (a stable sort, as search.py's) */
    for (int i = 1; i < n_children; i++) {
        Child c = children[i];
        int j = i;
        while (j > 0 && children[j - 1].promise < c.promise) { children[j] = children[j - 1]; j--; }
        children[j] = c;
    }
    for (int i = 0; i < n_children; i++) {
        Child *c = &children[i];
        int32_t child = c->carry == -2 ? avoid_child(x, sid) : carry_child(x, sid, c->carry);
        if (child < 0) return FAIL;
        int v = test(x, child, c->avoided, c->h, c->w, c->lim, t);
        if (v == FAIL) return FAIL;
        if (v >= t) return v;
        if (v > result) result = v;
    }
    return result;
}

static int remember(Exact *x, int32_t sid, int avoided, int h, int w, int lim, int lo, int hi) {
    for (int32_t e = x->sits[sid].head[avoided]; e >= 0; e = x->entries[e].next) {
        Entry *en = &x->entries[e];
        if (en->h == h && en->w == w && en->lim == lim) {
            if (lo > en->lo) en->lo = lo;
            if (hi < en->hi) en->hi = hi;
            return 0;
        }
    }
    if (grow((void **)&x->entries, &x->cap_entries, x->n_entries + 1, sizeof(Entry))) return -1;
    Entry *en = &x->entries[x->n_entries];
    *en = (Entry){lo, hi, x->sits[sid].head[avoided], (uint8_t)h, (uint8_t)w, (uint8_t)lim};
    x->sits[sid].head[avoided] = x->n_entries++;
    return 0;
}

static int test(Exact *x, int32_t sid, int avoided, int h, int w, int lim, int t) {
    x->nodes++;
    int32_t e = x->sits[sid].head[avoided];
    if (e >= 0) {
        int lo = LOST, hi = HIGH;
        for (; e >= 0; e = x->entries[e].next) {
            Entry *en = &x->entries[e];
            if (en->h >= h && en->w >= w && en->lim >= lim && en->hi < hi) hi = en->hi;
            if (en->h <= h && en->w <= w && en->lim <= lim && en->lo > lo) lo = en->lo;
        }
        if (lo >= t) return lo;
        if (hi < t) return hi;
    }
    Facts f = x->sits[sid].facts;
    int ceiling = upper_bound(x, &f, h, w, lim, t <= 0);
    if (ceiling < t) return ceiling;
    int found = best(x, sid, avoided, h, w, lim, t);
    if (found == FAIL) return FAIL;
    if (found > ceiling) {
        PyErr_SetString(PyExc_AssertionError, "the upper bound was beaten");
        return FAIL;
    }
    if (remember(x, sid, avoided, h, w, lim, found >= t ? found : LOST, found >= t ? HIGH : found)) return FAIL;
    return found;
}

/* ---- Python ------------------------------------------------------------------------------------------------ */

/* A tuple of deal positions -> their classes */
static int classes_of(Exact *x, PyObject *cards, uint8_t *out) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(cards, i));
        if (c < 0 || c >= x->n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a card of this deal");
            return -1;
        }
        out[i] = x->classes[c];
    }
    return 0;
}

/* (pos, queue, carried) in deal positions -> the dungeon's classes and the carried card's class */
static int dungeon_of(Exact *x, int pos, PyObject *queue, int carried, uint8_t *out, int *len, int *carried_class) {
    if (pos < 0 || pos > x->n || carried >= x->n || !PyTuple_Check(queue)) {
        PyErr_SetString(PyExc_ValueError, "not a situation of this deal");
        return -1;
    }
    int k = 0;
    for (int i = pos; i < x->n; i++) out[k++] = x->classes[i];
    Py_ssize_t q = PyTuple_GET_SIZE(queue);
    if (k + q > MAXCARDS) { PyErr_SetString(PyExc_ValueError, "too many cards"); return -1; }
    if (classes_of(x, queue, out + k)) return -1;
    *len = k + (int)q;
    *carried_class = carried >= 0 ? x->classes[carried] : -1;
    return 0;
}

/* A room played into: ``room`` (deal positions of the cards not played yet, in the room's order), the dungeon
 * after it (``pos``, ``queue``), whether a potion was drunk earlier in the turn. */
static int32_t played_into(Exact *x, PyObject *room, int pos, PyObject *queue, int drunk) {
    uint8_t dungeon[MAXCARDS], cards[ROOM];
    int len, cls;
    if (!PyTuple_Check(room) || PyTuple_GET_SIZE(room) < 1 || PyTuple_GET_SIZE(room) > ROOM) {
        PyErr_SetString(PyExc_ValueError, "a room played into holds 1 to 4 cards");
        return -1;
    }
    if (dungeon_of(x, pos, queue, -1, dungeon, &len, &cls)) return -1;
    int room_n = (int)PyTuple_GET_SIZE(room);
    if (len + room_n > MAXCARDS) { PyErr_SetString(PyExc_ValueError, "too many cards"); return -1; }
    if (classes_of(x, room, cards)) return -1;
    return played_into_id(x, cards, room_n, dungeon, len, drunk);
}

static int32_t situation(Exact *x, int pos, PyObject *queue, int carried) {
    uint8_t dungeon[MAXCARDS];
    int len, cls;
    if (dungeon_of(x, pos, queue, carried, dungeon, &len, &cls)) return -1;
    return turn_id(x, dungeon, len, cls, NULL);
}

static void forget_rooms(void) {
    Rooms *g = &ROOMS;
    for (int32_t i = 0; i < g->n_chunks; i++) free(g->chunks[i]);
    free(g->chunks);
    free(g->rooms);
    free(g->room_slots);
    uint32_t made = g->made + 1;
    memset(g, 0, sizeof *g);
    g->made = made;
}

static void clear(Exact *x) {
    free(x->sits); free(x->slots); free(x->pool); free(x->turns);
    free(x->entries);
    x->sits = NULL; x->slots = NULL; x->pool = NULL; x->turns = NULL;
    x->entries = NULL;
    x->n_sits = x->cap_sits = x->n_turns = x->cap_turns = 0;
    x->n_entries = x->cap_entries = 0;
    x->pool_len = x->pool_cap = 0;
    x->n_slots = 0;
}

static int fresh(Exact *x) {
    x->n_slots = 1024;
    x->slots = calloc(x->n_slots, sizeof(int32_t));
    if (!x->slots) { PyErr_NoMemory(); return -1; }
    return 0;
}

static int Exact_init(Exact *x, PyObject *args, PyObject *kwds) {
    static char *names[] = {"classes", "max_health", "early_end", "room_counts_at_death", "limit_step", NULL};
    Py_buffer classes;
    int max_health, early_end, room_counts, step;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*ippi", names, &classes, &max_health, &early_end, &room_counts,
                                     &step))
        return -1;
    if (classes.len > MAXCARDS || max_health <= 0 || max_health > 120) {
        PyBuffer_Release(&classes);
        PyErr_SetString(PyExc_ValueError, "at most 64 cards and a maximum health of 1 to 120");
        return -1;
    }
    clear(x);
    x->n = (int)classes.len;
    memcpy(x->classes, classes.buf, classes.len);
    PyBuffer_Release(&classes);
    for (int i = 0; i < x->n; i++)
        if (KIND(x->classes[i]) > POTION || VALUE(x->classes[i]) == 0) {
            PyErr_SetString(PyExc_ValueError, "a card class is 16 * kind (0, 1 or 2) + value (1 to 15)");
            return -1;
        }
    x->max_health = max_health;
    x->early_end = early_end;
    x->room_counts = room_counts;
    x->step = step;
    x->nodes = 0;
    return fresh(x);
}

static void Exact_dealloc(Exact *x) {
    clear(x);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

static int ready(Exact *x) {
    if (!x->slots) { PyErr_SetString(PyExc_RuntimeError, "the search was released"); return -1; }
    return 0;
}

static PyObject *Exact_test(Exact *x, PyObject *args) {
    int pos, carried, avoided, h, w, lim, t;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "iOipiiii", &pos, &queue, &carried, &avoided, &h, &w, &lim, &t)) return NULL;
    if (ready(x)) return NULL;
    if (rooms_held() > ROOMS_BYTES) forget_rooms();  /* between questions: no search holds a room's plans */
    int32_t sid = situation(x, pos, queue, carried);
    if (sid < 0) return NULL;
    int v = test(x, sid, avoided, h, w, lim, t);
    if (v == FAIL) return NULL;
    return PyLong_FromLong(v);
}

/* The limit a search is asked at: one above every monster left is as good as none (``Exact_limit``). */
static inline int asked_limit(Exact *x, int32_t sid, int lim) {
    int top = x->sits[sid].facts.top_monster + 1;
    return lim && lim > top ? top : lim;
}

/* Whether the table already shows that the situation scores at least t (a line found from no more health, weapon
 * and limit). */
static int proven(Exact *x, int32_t sid, int avoided, int h, int w, int lim, int t) {
    for (int32_t e = x->sits[sid].head[avoided]; e >= 0; e = x->entries[e].next) {
        Entry *en = &x->entries[e];
        if (en->lo >= t && en->h <= h && en->w <= w && en->lim <= lim) return 1;
    }
    return 0;
}

static PyObject *Exact_test_played_into(Exact *x, PyObject *args) {
    int pos, drunk, h, w, lim, t;
    PyObject *room, *queue;
    if (!PyArg_ParseTuple(args, "OiOpiiii", &room, &pos, &queue, &drunk, &h, &w, &lim, &t)) return NULL;
    if (ready(x)) return NULL;
    if (rooms_held() > ROOMS_BYTES) forget_rooms();
    int32_t sid = played_into(x, room, pos, queue, drunk);
    if (sid < 0) return NULL;
    int v = test(x, sid, 0, h, w, asked_limit(x, sid, lim), t);
    if (v == FAIL) return NULL;
    return PyLong_FromLong(v);
}

static PyObject *Exact_proven_played_into(Exact *x, PyObject *args) {
    int pos, drunk, h, w, lim, t;
    PyObject *room, *queue;
    if (!PyArg_ParseTuple(args, "OiOpiiii", &room, &pos, &queue, &drunk, &h, &w, &lim, &t)) return NULL;
    if (ready(x)) return NULL;
    int32_t sid = played_into(x, room, pos, queue, drunk);
    if (sid < 0) return NULL;
    return PyBool_FromLong(proven(x, sid, 0, h, w, asked_limit(x, sid, lim), t));
}

static PyObject *Exact_proven(Exact *x, PyObject *args) {
    int pos, carried, avoided, h, w, lim, t;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "iOipiiii", &pos, &queue, &carried, &avoided, &h, &w, &lim, &t)) return NULL;
    if (ready(x)) return NULL;
    int32_t sid = situation(x, pos, queue, carried);
    if (sid < 0) return NULL;
    return PyBool_FromLong(proven(x, sid, avoided, h, w, lim, t));
}

static PyObject *Exact_ceiling(Exact *x, PyObject *args) {
    int pos, carried, h, w, lim;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "iOiiii", &pos, &queue, &carried, &h, &w, &lim)) return NULL;
    if (ready(x)) return NULL;
    int32_t sid = situation(x, pos, queue, carried);
    if (sid < 0) return NULL;
    Facts f = x->sits[sid].facts;
    return PyLong_FromLong(upper_bound(x, &f, h, w, lim, 1));
}

static PyObject *Exact_limit(Exact *x, PyObject *args) {
    int lim, pos, carried;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "iiOi", &lim, &pos, &queue, &carried)) return NULL;
    if (ready(x)) return NULL;
    if (lim == 0) return PyLong_FromLong(0);
    int32_t sid = situation(x, pos, queue, carried);
    if (sid < 0) return NULL;
    return PyLong_FromLong(asked_limit(x, sid, lim));
}

static PyObject *Exact_size(Exact *x, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(x->n_sits);
}

static PyObject *Exact_release(Exact *x, PyObject *Py_UNUSED(args)) {
    clear(x);  /* freed at once: a few plain arrays */
    Py_RETURN_TRUE;
}

static PyObject *Exact_held(Exact *x, PyObject *Py_UNUSED(ignored)) {
    size_t bytes = (size_t)x->cap_sits * sizeof(Sit) + (size_t)x->n_slots * sizeof(int32_t) + x->pool_cap
                   + (size_t)x->cap_turns * sizeof(Turn) + (size_t)x->cap_entries * sizeof(Entry);
    return PyLong_FromSize_t(bytes);
}

static PyObject *Exact_get_nodes(Exact *x, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(x->nodes); }

static PyMethodDef Exact_methods[] = {
    {"test", (PyCFunction)Exact_test, METH_VARARGS,
     "test(pos, queue, carried, avoided, h, w, lim, t): can the turn score at least t? Fail-soft."},
    {"test_played_into", (PyCFunction)Exact_test_played_into, METH_VARARGS,
     "test_played_into(room, pos, queue, drunk, h, w, lim, t): can a room played into (room: the cards not played "
     "yet, the turn to end as usual) score at least t? Fail-soft."},
    {"proven_played_into", (PyCFunction)Exact_proven_played_into, METH_VARARGS,
     "proven_played_into(room, pos, queue, drunk, h, w, lim, t): the table already shows a score of at least t."},
    {"proven", (PyCFunction)Exact_proven, METH_VARARGS,
     "proven(pos, queue, carried, avoided, h, w, lim, t): the table already shows a score of at least t."},
    {"ceiling", (PyCFunction)Exact_ceiling, METH_VARARGS,
     "ceiling(pos, queue, carried, h, w, lim): the upper bound of the turn's best score."},
    {"limit", (PyCFunction)Exact_limit, METH_VARARGS,
     "limit(lim, pos, queue, carried): a limit above every monster left made as good as no limit."},
    {"size", (PyCFunction)Exact_size, METH_NOARGS, "How many turns the search has met."},
    {"held", (PyCFunction)Exact_held, METH_NOARGS, "Bytes the search holds."},
    {"release", (PyCFunction)Exact_release, METH_VARARGS, "release(items): free everything; True."},
    {NULL}
};

static PyGetSetDef Exact_getset[] = {
    {"nodes", (getter)Exact_get_nodes, NULL, "tests made", NULL},
    {NULL}
};

static PyTypeObject ExactType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.solver._exact.Exact",
    .tp_doc = "Exact(classes, max_health, early_end, room_counts_at_death, limit_step): one deal's exact search.",
    .tp_basicsize = sizeof(Exact),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Exact_init,
    .tp_dealloc = (destructor)Exact_dealloc,
    .tp_methods = Exact_methods,
    .tp_getset = Exact_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_exact", "The exact search, in C.", -1, NULL};

PyMODINIT_FUNC PyInit__exact(void) {
    if (PyType_Ready(&ExactType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&ExactType);
    if (PyModule_AddObject(m, "Exact", (PyObject *)&ExactType) < 0) {
        Py_DECREF(&ExactType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
