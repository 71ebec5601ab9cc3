"""An optional compiled kernel for the solver's hottest step: does `LOOP{body}` from a
state mark every needed square, for some loop counts inside the body?

Why: that question is asked for every normal-form body of the largest size from every
top-level state, and each body has up to thousands of count classes; in pure Python it
is 85-90% of a solve (see bench/bunny.py). The C below is this project's own code, built
at run time with the machine's `gcc` into a per-user cache directory and loaded with
ctypes (core/compiled.py): no dependency to install. Without gcc (or with `TUI_GRID_BUNNY_KERNEL=0`) the
solver takes its pure-Python path, which gives the same answers: the kernel runs the very
same count-class splitting (solver.py's docstring) in the very same order, so it returns
the same classes, only without the caches.

A body is passed in pre-order as ints: 0 `F`, 1 `L`, 2 `R`, and a loop as `3 end id`
followed by its body (`end` is the index just past the body, `id` the loop's pre-order
number, which indexes the class vector).
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any

from tui_grid.core.compiled import CompiledLibrary

SOURCE = r"""
#include <stdlib.h>
#include <string.h>

typedef struct { int m, q; } Cls;

/* class vectors this many splits deep (or less) are first tried on the bound below */
#define BOUND_DEPTH 1
static int abs_seq_may_cover(const int *code, int ncode, int st, int nneed, const Cls *cls);

static const int *FWD;
static int NS;
static const unsigned char *NEED;
static int use_bound = 1;         /* forever_covers rules bodies out first (set_bound) */
void set_bound(int on) { use_bound = on; }
static unsigned long long *mark_stamp;      /* per square: marked in this evaluation */
static unsigned long long mark_now;
static int remaining;
static unsigned long long *seen_stamp;      /* [depth][state] */
static int *seen_iter;            /* [depth][state] */
static int *starts;               /* [depth][iteration] */
static int cap_depth, cap_states, cap_squares;
static unsigned long long stamp_now;
static int split_at, split_n;
static Cls *split_parts;
static int split_cap;
static unsigned char *MARKS;      /* squares marked in this evaluation, as bits */
static unsigned char *AMARK_BUF;  /* squares the over-approximation marks */
static int mark_bytes;
static unsigned char *res_marks;  /* finite_outcomes: one record per leaf */
static int *res_state, *res_cls;
static size_t res_cap;

/* 64-bit stamps never wrap, so a table is never cleared mid-run. */
static unsigned long long new_stamp(void) { return ++stamp_now; }

static int gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

static void want_parts(int n) {
    if (n > split_cap) {
        split_cap = n * 2;
        split_parts = realloc(split_parts, sizeof(Cls) * (size_t)split_cap);
    }
}

static int run_seq(const int *code, int i, int e, int *ps, const Cls *cls, int d);

/* One finite loop; -1 when its class must be split (split_* say how). */
static int run_loop(const int *code, int i, int *ps, const Cls *cls, int d) {
    int end = code[i + 1], id = code[i + 2], b = i + 3;
    int m = cls[id].m, q = cls[id].q, s = *ps;
    if (q == 0 && m <= 4) {
        for (int k = 0; k < m; k++)
            if (run_seq(code, b, end, &s, cls, d + 1)) return -1;
        *ps = s;
        return 0;
    }
    unsigned long long st = new_stamp();
    unsigned long long *ss = seen_stamp + (size_t)d * cap_states;
    int *si = seen_iter + (size_t)d * cap_states;
    int *sts = starts + (size_t)d * (cap_states + 1);
    for (int it = 0;; it++) {
        if (ss[s] == st) {
            int j = si[s], p = it - j;
            if (q == 0 || q % p == 0) { s = sts[j + (m - j) % p]; break; }
            int step = q / gcd(p, q) * p, n = step / q;
            want_parts(n);
            for (int t = 0; t < n; t++) { split_parts[t].m = m + t * q; split_parts[t].q = step; }
            split_at = id; split_n = n;
            return -1;
        }
        if (it == m) {
            if (q == 0) break;
            want_parts(2);
            split_parts[0].m = m; split_parts[0].q = 0;
            split_parts[1].m = m + q; split_parts[1].q = q;
            split_at = id; split_n = 2;
            return -1;
        }
        ss[s] = st; si[s] = it; sts[it] = s;
        if (run_seq(code, b, end, &s, cls, d + 1)) return -1;
    }
    *ps = s;
    return 0;
}

static int run_seq(const int *code, int i, int e, int *ps, const Cls *cls, int d) {
    int s = *ps;
    while (i < e) {
        switch (code[i]) {
        case 0: {
            s = FWD[s];
            int sq = s >> 2;
            if (mark_stamp[sq] != mark_now) {
                mark_stamp[sq] = mark_now;
                MARKS[sq >> 3] |= (unsigned char)(1u << (sq & 7));
                if ((NEED[sq >> 3] >> (sq & 7)) & 1) remaining--;
            }
            i++;
            break;
        }
        case 1: s = s - (s & 3) + ((s + 3) & 3); i++; break;
        case 2: s = s - (s & 3) + ((s + 1) & 3); i++; break;
        default:
            if (run_loop(code, i, &s, cls, d)) return -1;
            i = code[i + 1];
        }
    }
    *ps = s;
    return 0;
}

static void setup(const int *fwd, int nstates, int depth) {
    int nsq = (nstates + 3) / 4;
    FWD = fwd; NS = nstates;
    if (depth > cap_depth || nstates > cap_states) {
        if (depth < cap_depth) depth = cap_depth;
        if (nstates < cap_states) nstates = cap_states;
        free(seen_stamp); free(seen_iter); free(starts);
        cap_depth = depth; cap_states = nstates;
        seen_stamp = calloc((size_t)cap_depth * cap_states, sizeof(unsigned long long));
        seen_iter = calloc((size_t)cap_depth * cap_states, sizeof(int));
        starts = calloc((size_t)cap_depth * (cap_states + 1), sizeof(int));
        stamp_now = 0;
    }
    if (nsq > cap_squares) {
        free(mark_stamp); free(MARKS);
        cap_squares = nsq;
        mark_stamp = calloc((size_t)cap_squares, sizeof(unsigned long long));
        MARKS = calloc((size_t)cap_squares / 8 + 1, 1);
        free(AMARK_BUF);
        AMARK_BUF = calloc((size_t)cap_squares + 1, 1);
        mark_now = 0;
    }
    mark_bytes = (nsq + 7) / 8;
}

/* Runs item (code) with classes cls from st: 0 with *end set, or -1 on a split. */
static int run_leaf(const int *code, int ncode, const Cls *cls, int st, int *end) {
    ++mark_now;
    memset(MARKS, 0, (size_t)mark_bytes);
    int s = st;
    if (run_seq(code, 0, ncode, &s, cls, 1)) return -1;
    *end = s;
    return 0;
}

static int subset(const unsigned char *a, const unsigned char *b) {  /* a within b */
    for (int k = 0; k < mark_bytes; k++)
        if (a[k] & ~b[k]) return 0;
    return 1;
}

static int *state_head, *state_tail, *rec_next, *state_order;
static char *rec_alive;
static int cap_heads;
static size_t cap_recs;

/* The distinct outcomes of the finite loop `code` from st over all its count classes,
   exactly as solver.finite_outcomes keeps them: per end state (in order of first
   appearance) the marks no other outcome's marks contain, in the order found. Returns
   how many; the getters read them. *leaves counts the class vectors run. */
long long finite_outcomes(const int *fwd, int nstates, const int *code, int ncode, int nloops,
                          int st, const unsigned char *zero_need, long long *leaves) {
    setup(fwd, nstates, nloops + 2);
    NEED = zero_need;
    size_t cap = 64, top = 0, w = nloops > 0 ? nloops : 1, n = 0;
    int nstates_seen = 0;
    long long count = 0;
    Cls *stack = malloc(sizeof(Cls) * cap * w);
    for (int k = 0; k < nloops; k++) { stack[k].m = 2; stack[k].q = 1; }
    top = 1;
    if (nstates > cap_heads) {
        cap_heads = nstates;
        state_head = realloc(state_head, sizeof(int) * cap_heads);
        state_tail = realloc(state_tail, sizeof(int) * cap_heads);
        state_order = realloc(state_order, sizeof(int) * cap_heads);
    }
    for (int k = 0; k < nstates; k++) state_head[k] = -1;
    res_cap = 0;  /* sizes differ between calls: regrow from scratch */
    while (top > 0) {
        top--;
        Cls cls[64];
        memcpy(cls, stack + top * w, sizeof(Cls) * w);
        int end;
        count++;
        if (run_leaf(code, ncode, cls, st, &end)) {
            if (top + split_n > cap) {
                while (top + split_n > cap) cap *= 2;
                stack = realloc(stack, sizeof(Cls) * cap * w);
            }
            for (int t = split_n - 1; t >= 0; t--) {
                memcpy(stack + top * w, cls, sizeof(Cls) * w);
                stack[top * w + split_at] = split_parts[t];
                top++;
            }
            continue;
        }
        if (state_head[end] < 0) {
            state_order[nstates_seen++] = end;
        } else {
            int dominated = 0;
            for (int r = state_head[end]; r >= 0; r = rec_next[r])
                if (rec_alive[r] && subset(MARKS, res_marks + (size_t)r * mark_bytes)) { dominated = 1; break; }
            if (dominated) continue;
            for (int r = state_head[end]; r >= 0; r = rec_next[r])
                if (rec_alive[r] && subset(res_marks + (size_t)r * mark_bytes, MARKS)) rec_alive[r] = 0;
        }
        if (n >= res_cap) {
            res_cap = n ? n * 2 : 256;
            res_state = realloc(res_state, sizeof(int) * res_cap);
            res_marks = realloc(res_marks, res_cap * (size_t)mark_bytes);
            res_cls = realloc(res_cls, res_cap * w * sizeof(Cls));
        }
        if (res_cap > cap_recs) {
            cap_recs = res_cap;
            rec_next = realloc(rec_next, sizeof(int) * cap_recs);
            rec_alive = realloc(rec_alive, cap_recs);
        }
        res_state[n] = end;
        memcpy(res_marks + n * (size_t)mark_bytes, MARKS, (size_t)mark_bytes);
        memcpy(res_cls + n * w * 2, cls, sizeof(Cls) * w);
        rec_next[n] = -1;
        rec_alive[n] = 1;
        if (state_head[end] < 0) state_head[end] = (int)n;
        else rec_next[state_tail[end]] = (int)n;
        state_tail[end] = (int)n;
        n++;
    }
    free(stack);
    /* compact in place: by state in order of first appearance, then in order found */
    size_t kept = 0;
    unsigned char *tmp_marks = malloc((n ? n : 1) * (size_t)mark_bytes);
    int *tmp_cls = malloc((n ? n : 1) * w * sizeof(Cls));
    int *tmp_state = malloc((n ? n : 1) * sizeof(int));
    for (int k = 0; k < nstates_seen; k++)
        for (int r = state_head[state_order[k]]; r >= 0; r = rec_next[r]) {
            if (!rec_alive[r]) continue;
            tmp_state[kept] = res_state[r];
            memcpy(tmp_marks + kept * (size_t)mark_bytes, res_marks + (size_t)r * mark_bytes, (size_t)mark_bytes);
            memcpy(tmp_cls + kept * w * 2, res_cls + (size_t)r * w * 2, sizeof(Cls) * w);
            kept++;
        }
    if (kept) {
        memcpy(res_state, tmp_state, kept * sizeof(int));
        memcpy(res_marks, tmp_marks, kept * (size_t)mark_bytes);
        memcpy(res_cls, tmp_cls, kept * w * sizeof(Cls));
    }
    free(tmp_marks); free(tmp_cls); free(tmp_state);
    *leaves = count;
    return (long long)kept;
}

/* The first count class (in the solver's order) for which the finite loop `code` from
   st, then one F, marks every needed square: returns 1 with its end state in *end and
   its classes in out (2 when the loop alone marks them all), else 0. A class that returns to st marking nothing needed is
   skipped (rule 14). *leaves counts the class vectors run. */
int finite_then_hop(const int *fwd, int nstates, const int *code, int ncode, int nloops,
                    int st, const unsigned char *need, int nneed, int *out, int *endp, long long *leaves) {
    setup(fwd, nstates, nloops + 2);
    NEED = need;
    size_t cap = 64, top = 0, w = nloops > 0 ? nloops : 1;
    Cls *stack = malloc(sizeof(Cls) * cap * w);
    int *depth = malloc(sizeof(int) * cap);
    for (int k = 0; k < nloops; k++) { stack[k].m = 2; stack[k].q = 1; }
    depth[0] = 0;
    top = 1;
    int found = 0;
    long long count = 0;
    while (top > 0) {
        top--;
        Cls cls[64];
        memcpy(cls, stack + top * w, sizeof(Cls) * w);
        count++;
        int dep = depth[top];
        if (dep <= BOUND_DEPTH && use_bound && !abs_seq_may_cover(code, ncode, st, nneed - 1, cls)) continue;
        int end;
        remaining = nneed;
        if (run_leaf(code, ncode, cls, st, &end)) {
            if (top + split_n > cap) {
                while (top + split_n > cap) cap *= 2;
                stack = realloc(stack, sizeof(Cls) * cap * w);
                depth = realloc(depth, sizeof(int) * cap);
            }
            for (int t = split_n - 1; t >= 0; t--) {
                memcpy(stack + top * w, cls, sizeof(Cls) * w);
                stack[top * w + split_at] = split_parts[t];
                depth[top] = dep + 1;
                top++;
            }
            continue;
        }
        if (end == st && remaining == nneed) continue;
        int ok = remaining == 0;
        if (!ok && remaining == 1) {
            int t = FWD[end], sq = t >> 2;
            ok = t != end && ((NEED[sq >> 3] >> (sq & 7)) & 1) && mark_stamp[sq] != mark_now;
        }
        if (ok) {
            for (int k = 0; k < nloops; k++) { out[2 * k] = cls[k].m; out[2 * k + 1] = cls[k].q; }
            *endp = end;
            found = remaining == 0 ? 2 : 1;
            break;
        }
    }
    free(stack);
    free(depth);
    *leaves = count;
    return found;
}

int *result_states(void) { return res_state; }
unsigned char *result_marks(void) { return res_marks; }
int *result_classes(void) { return res_cls; }

/* ---- an over-approximation, to rule a whole body out before its count classes ----
   Sets of states stand for "any count >= 2 in every invocation of every loop": if
   even that cannot mark every needed square, no count classes can. */
typedef struct { int *it; int n; unsigned char *in; } Set;
static unsigned char *AMARK;
static int aremaining;

static Set *pool;                 /* cleared sets of pool_ns states, reused */
static int pool_n, pool_cap, pool_ns;

static void set_clear(Set *s) { for (int k = 0; k < s->n; k++) s->in[s->it[k]] = 0; s->n = 0; }
static void set_new(Set *s) {
    if (pool_ns != NS) {  /* another board: drop the pool */
        for (int k = 0; k < pool_n; k++) { free(pool[k].it); free(pool[k].in); }
        pool_n = 0; pool_ns = NS;
    }
    if (pool_n > 0) { *s = pool[--pool_n]; return; }
    s->it = malloc(sizeof(int) * (size_t)NS); s->in = calloc((size_t)NS, 1); s->n = 0;
}
static void set_free(Set *s) {
    set_clear(s);
    if (pool_n == pool_cap) { pool_cap = pool_cap ? pool_cap * 2 : 64; pool = realloc(pool, sizeof(Set) * (size_t)pool_cap); }
    pool[pool_n++] = *s;
}
static int set_add(Set *s, int x) { if (s->in[x]) return 0; s->in[x] = 1; s->it[s->n++] = x; return 1; }

static const Cls *ACLS;           /* the classes known so far */

static void abs_seq(const int *code, int i, int e, const Set *in, Set *out);

static void abs_loop(const int *code, int i, const Set *in, Set *out) {
    int end = code[i + 1], b = i + 3, m = ACLS[code[i + 2]].m, q = ACLS[code[i + 2]].q;
    Set once, frontier, next;
    set_new(&once); set_new(&frontier); set_new(&next);
    set_clear(out);
    for (int k = 0; k < in->n; k++) set_add(out, in->it[k]);
    for (int r = 0; r < m && aremaining > 0; r++) {  /* the least count, exactly */
        abs_seq(code, b, end, out, &once);
        Set t = *out; *out = once; once = t;
    }
    if (q == 0) { set_free(&once); set_free(&frontier); set_free(&next); return; }
    for (int k = 0; k < out->n; k++) set_add(&frontier, out->it[k]);
    while (frontier.n > 0 && aremaining > 0) {
        abs_seq(code, b, end, &frontier, &next);
        set_clear(&frontier);
        for (int k = 0; k < next.n; k++)
            if (set_add(out, next.it[k])) set_add(&frontier, next.it[k]);
    }
    set_free(&once); set_free(&frontier); set_free(&next);
}

static void abs_seq(const int *code, int i, int e, const Set *in, Set *out) {
    Set a, c;
    set_new(&a); set_new(&c);
    for (int k = 0; k < in->n; k++) set_add(&a, in->it[k]);
    while (i < e && aremaining > 0) {
        set_clear(&c);
        switch (code[i]) {
        case 0:
            for (int k = 0; k < a.n; k++) {
                int t = FWD[a.it[k]], sq = t >> 2;
                set_add(&c, t);
                if (!AMARK[sq]) { AMARK[sq] = 1; if ((NEED[sq >> 3] >> (sq & 7)) & 1) aremaining--; }
            }
            i++;
            break;
        case 1: for (int k = 0; k < a.n; k++) { int x = a.it[k]; set_add(&c, x - (x & 3) + ((x + 3) & 3)); } i++; break;
        case 2: for (int k = 0; k < a.n; k++) { int x = a.it[k]; set_add(&c, x - (x & 3) + ((x + 1) & 3)); } i++; break;
        default: abs_loop(code, i, &a, &c); i = code[i + 1];
        }
        Set t = a; a = c; c = t;
    }
    set_clear(out);
    for (int k = 0; k < a.n; k++) set_add(out, a.it[k]);
    set_free(&a); set_free(&c);
}

/* 1 when LOOP{body} from st may mark every needed square for some counts. */
static int abs_may_cover(const int *code, int ncode, int st, int nneed, const Cls *cls) {
    ACLS = cls;
    memset(AMARK_BUF, 0, (size_t)(NS / 4 + 1));
    AMARK = AMARK_BUF;
    aremaining = nneed;
    Set seen, frontier, next;
    set_new(&seen); set_new(&frontier); set_new(&next);
    set_add(&seen, st); set_add(&frontier, st);
    while (frontier.n > 0 && aremaining > 0) {
        abs_seq(code, 0, ncode, &frontier, &next);
        set_clear(&frontier);
        for (int k = 0; k < next.n; k++)
            if (set_add(&seen, next.it[k])) set_add(&frontier, next.it[k]);
    }
    set_free(&seen); set_free(&frontier); set_free(&next);
    return aremaining <= 0;
}

/* 0 when the finite loop `code` from st cannot mark all but `slack` needed squares,
   for any counts from cls on. */
static int abs_seq_may_cover(const int *code, int ncode, int st, int nneed, const Cls *cls) {
    ACLS = cls;
    memset(AMARK_BUF, 0, (size_t)(NS / 4 + 1));
    AMARK = AMARK_BUF;
    aremaining = nneed;
    Set in, out;
    set_new(&in); set_new(&out);
    set_add(&in, st);
    abs_seq(code, 0, ncode, &in, &out);
    set_free(&in); set_free(&out);
    return aremaining <= 0;
}

/* Returns 1 (classes in out, 2 ints per loop) when some classes make LOOP{body} from
   st mark every square of need, else 0. *leaves counts the class vectors run. */
int forever_covers(const int *fwd, int nstates, const int *code, int ncode, int nloops,
                   int st, const unsigned char *need, int nneed, int *out, long long *leaves) {
    setup(fwd, nstates, nloops + 2);
    NEED = need;
    size_t cap = 64, top = 0, w = nloops > 0 ? nloops : 1;
    Cls *stack = malloc(sizeof(Cls) * cap * w);
    int *depth = malloc(sizeof(int) * cap);
    for (int k = 0; k < nloops; k++) { stack[k].m = 2; stack[k].q = 1; }
    depth[0] = 0;
    top = 1;
    int found = 0;
    long long count = 0;
    while (top > 0) {
        top--;
        Cls cls[64];
        memcpy(cls, stack + top * w, sizeof(Cls) * w);
        int dep = depth[top];
        if (nloops > 0 && dep <= BOUND_DEPTH && use_bound && !abs_may_cover(code, ncode, st, nneed, cls)) { count++; continue; }
        count++;
        ++mark_now;
        remaining = nneed;
        unsigned long long fst = new_stamp();
        unsigned long long *ss = seen_stamp;
        int s = st, split = 0;
        while (ss[s] != fst) {
            ss[s] = fst;
            if (run_seq(code, 0, ncode, &s, cls, 1)) { split = 1; break; }
            if (remaining == 0) break;
        }
        if (split) {
            if (top + split_n > cap) {
                while (top + split_n > cap) cap *= 2;
                stack = realloc(stack, sizeof(Cls) * cap * w);
                depth = realloc(depth, sizeof(int) * cap);
            }
            for (int t = split_n - 1; t >= 0; t--) {
                memcpy(stack + top * w, cls, sizeof(Cls) * w);
                stack[top * w + split_at] = split_parts[t];
                depth[top] = dep + 1;
                top++;
            }
            continue;
        }
        if (remaining == 0) {
            for (int k = 0; k < nloops; k++) { out[2 * k] = cls[k].m; out[2 * k + 1] = cls[k].q; }
            found = 1;
            break;
        }
    }
    free(stack);
    free(depth);
    *leaves = count;
    return found;
}
"""

#: Set to "0" to keep the solver on its pure-Python path.
ENV_SWITCH = "TUI_GRID_BUNNY_KERNEL"
#: Loops nested in one body at most (the class vector the C side copies per leaf).
MAX_LOOPS = 60

#: The C side keeps its tables in statics: one call at a time (solves may run in threads).
_LOCK = threading.Lock()
_lib: Any = None
_tried = False
_disabled = os.environ.get(ENV_SWITCH, "1") == "0"


_LIBRARY = CompiledLibrary("bunny_kernel", SOURCE)


def _build() -> Any:
    """Build (once per source version) and load the kernel; None when that fails."""
    lib = _LIBRARY.load()
    if lib is None:
        return None
    fn = lib.forever_covers
    fn.restype = ctypes.c_int
    fn.argtypes = [
        ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
        ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong),
    ]
    fn = lib.finite_outcomes
    fn.restype = ctypes.c_longlong
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_longlong)]
    fn = lib.finite_then_hop
    fn.restype = ctypes.c_int
    fn.argtypes = [
        ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
        ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_longlong),
    ]
    for getter in (lib.result_states, lib.result_marks, lib.result_classes):
        getter.restype = ctypes.c_void_p
        getter.argtypes = []
    return lib


def _load() -> Any:
    global _lib, _tried
    if not _tried:
        _tried = True
        _lib = None if _disabled else _build()
    return _lib


def available() -> bool:
    """True when the compiled kernel is in use."""
    return not _disabled and _load() is not None


def disable() -> None:
    """Use the pure-Python path from now on (tests, the bench's --pure)."""
    global _disabled
    _disabled = True


def enable() -> None:
    global _disabled
    _disabled = os.environ.get(ENV_SWITCH, "1") == "0"


def encode(items: tuple) -> tuple[list[int], int]:
    """A body shape (solver's tuples) as the kernel's pre-order ints, and its loop count."""
    code: list[int] = []
    loops = 0

    def emit(seq: tuple) -> None:
        nonlocal loops
        for item in seq:
            if type(item) is tuple:
                at = len(code)
                code.extend((3, 0, loops))
                loops += 1
                emit(item[1])
                code[at + 1] = len(code)
            else:
                code.append("FLR".index(item))

    emit(items)
    return code, loops


class Kernel:
    """The kernel bound to one board's hop table."""

    def __init__(self, fwd: list[int], n_squares: int) -> None:
        self.lib = _load()
        self.n_states = len(fwd)
        self.fwd = (ctypes.c_int * len(fwd))(*fwd)
        self.n_bytes = (n_squares + 7) // 8 or 1
        self._codes: dict[int, tuple] = {}
        self._loop_codes: dict[int, tuple] = {}
        self._zero = bytes(self.n_bytes)
        self._leaves = ctypes.c_longlong(0)
        self._out = (ctypes.c_int * (2 * MAX_LOOPS))()

    def _code(self, items: tuple) -> tuple[Any, int, int]:
        # keyed by identity (the solver passes the same body objects again and again, and
        # hashing a nested tuple costs more than encoding it), checked against the object
        got = self._codes.get(id(items))
        if got is None or got[0] is not items:
            code, loops = encode(items)
            got = (items, (ctypes.c_int * len(code))(*code), len(code), loops)
            self._codes[id(items)] = got
        return got[1:]

    def _loop_code(self, item: tuple) -> tuple[Any, int, int]:
        """The code of the one-item sequence `(item,)`, keyed by the loop's body."""
        got = self._loop_codes.get(id(item[1]))
        if got is None or got[0] is not item[1]:
            code, loops = encode((item,))
            got = (item[1], (ctypes.c_int * len(code))(*code), len(code), loops)
            self._loop_codes[id(item[1])] = got
        return got[1:]

    def fits(self, body: tuple) -> bool:
        """True when the kernel takes this body (or a loop of it): loops nest at most
        MAX_LOOPS - 1 in all."""
        return self._code(body)[2] < MAX_LOOPS

    def finite_outcomes(self, item: tuple, st: int) -> tuple[list[tuple[int, int, tuple]], int]:
        """(the outcomes solver.finite_outcomes keeps for the finite loop `item` from `st`,
        in its order; the number of count classes run)."""
        code, length, loops = self._loop_code(item)
        lib = self.lib
        nb = self.n_bytes
        width = max(loops, 1) * 2
        with _LOCK:  # the C side keeps its tables and results in statics
            n = lib.finite_outcomes(self.fwd, self.n_states, code, length, loops, st, self._zero, ctypes.byref(self._leaves))
            leaves = self._leaves.value
            if n == 0:
                return [], leaves
            states = list((ctypes.c_int * n).from_address(lib.result_states()))
            marks = ctypes.string_at(lib.result_marks(), n * nb)
            flat = list((ctypes.c_int * (n * width)).from_address(lib.result_classes()))
        from_bytes = int.from_bytes
        out = []
        for i in range(n):
            base = i * width
            classes = tuple(zip(flat[base : base + 2 * loops : 2], flat[base + 1 : base + 2 * loops : 2]))
            out.append((states[i], from_bytes(marks[i * nb : (i + 1) * nb], "little"), classes))
        return out, leaves

    def finite_then_hop(self, item: tuple, st: int, need: int) -> tuple[tuple[int, tuple, bool] | None, int]:
        """((end state, classes, whether the loop alone marks all) of the first count class
        for which the finite loop `item` from `st` and then one `F` mark all of `need`, or
        None; leaves run)."""
        code, length, loops = self._loop_code(item)
        end = ctypes.c_int(0)
        with _LOCK:
            found = self.lib.finite_then_hop(
                self.fwd, self.n_states, code, length, loops, st,
                need.to_bytes(self.n_bytes, "little"), need.bit_count(), self._out, ctypes.byref(end), ctypes.byref(self._leaves),
            )
            leaves = self._leaves.value
        if not found:
            return None, leaves
        flat = list(self._out[: 2 * loops])
        return (end.value, tuple(zip(flat[0::2], flat[1::2])), found == 2), leaves

    def forever_covers(self, body: tuple, st: int, need: int) -> tuple[tuple | None, int]:
        """(classes for which LOOP{body} from st marks all of need, or None; leaves run)."""
        code, length, loops = self._code(body)
        with _LOCK:
            found = self.lib.forever_covers(
                self.fwd, self.n_states, code, length, loops, st,
                need.to_bytes(self.n_bytes, "little"), need.bit_count(), self._out, ctypes.byref(self._leaves),
            )
            leaves = self._leaves.value
        if not found:
            return None, leaves
        flat = list(self._out[: 2 * loops])
        return tuple(zip(flat[0::2], flat[1::2])), leaves
