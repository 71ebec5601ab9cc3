/* Tron search kernel: the hard bot's search in C, loaded by kernel.py with ctypes.
 *
 * The same game model and evaluation as the pure-Python search in bots.py, only faster
 * (C searches several plies deeper in the same time):
 *   - iterative-deepening alpha-beta over alternating half-moves: our move, then the
 *     opponent's answer knowing it (paranoid); both entering one cell is a head-on draw;
 *     best moves of the previous iteration (a Zobrist-keyed table) are tried first, else
 *     the move last best at the same ply (a killer: in Tron the same way often stays
 *     best); after the first, moves are tried with a null window (principal variation
 *     search) and searched again only when they beat it;
 *   - leaves while the players still meet: each side's Voronoi cells (reached strictly
 *     first) read through its chamber tree (Tarjan's cut cells: a chamber behind a cut
 *     cell counts only as the best of its siblings), every cell weighing K_CELL plus
 *     K_EDGES per free neighbour;
 *   - separated leaves: each side's fillable space, the smaller of the checkerboard
 *     parity bound and the chamber-tree bound, plus SEP for the side ahead;
 *   - separated at the root: a longest-path fill, lines searched to a depth and then
 *     scored by the region's bound, a line cut where its bound cannot beat the best
 *     line's; deepened until the search saw every line to its end;
 *   - against a model of the opponent (opponent_model.py): an expectimax of our moves
 *     against its predicted replies, each policy of the belief followed along its own
 *     replies, the capable one answering with the reply worst for us.
 * The clock is read every 16 nodes; an unfinished iteration is dropped unless its first
 * (the previous best) move was searched. Inputs are bounds-checked; nothing is kept
 * between calls (every call allocates its own scratch, so threads may call at once).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIDE 96  /* boards are at most 80x80 (board.py); bots.py passes width + 1 */
#define WIN (1 << 20)
#define K_NODES 10
#define K_CELL 55
#define K_EDGES 194
#define UNIT (K_CELL + 2 * K_EDGES)
#define SEP 500
#define CONTEMPT 25 /* a draw: bots.CONTEMPT */
#define TT_BITS 18
#define MAX_PLY 512

typedef struct {
    int W, N;             /* padded width (board width + 2) and cell count */
    int d[4];             /* UP DOWN LEFT RIGHT as index deltas */
    uint8_t *g;           /* 1: free */
    uint8_t *even;        /* checkerboard colour */
    int *da, *db, *q;     /* BFS distances and queue */
    uint8_t *ra, *rb;     /* Voronoi regions */
    int *disc, *low, *sz, *ext, *sv, *sp, *si; /* Tarjan's search */
    uint64_t *zob;        /* a key per occupied cell; zob + N: head keys */
    uint64_t *tt_key;
    int8_t *tt_move;
    uint64_t hash;
    double deadline, soft;
    volatile int *cancel;
    long nodes;
    int aborted;
    int horizon;          /* fill: a line reached the search's depth */
    int8_t killer[2][MAX_PLY + 2]; /* per ply: the last move that was best at a max / min node */
} Ctx;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void tick(Ctx *c) {
    c->nodes++;
    if (!(c->nodes & 15)) {
        if (now() > c->deadline || (c->cancel && *c->cancel)) c->aborted = 1;
    }
}

/* --- evaluation primitives ------------------------------------------------------------ */

static int bfs(Ctx *c, int start, int *dist) {
    int N = c->N, head = 0, tail = 0, count = 0;
    for (int i = 0; i < N; i++) dist[i] = -1;
    dist[start] = 0;
    c->q[tail++] = start;
    while (head < tail) {
        int v = c->q[head++];
        for (int k = 0; k < 4; k++) {
            int w = v + c->d[k];
            if (c->g[w] && dist[w] < 0) {
                dist[w] = dist[v] + 1;
                c->q[tail++] = w;
                count++;
            }
        }
    }
    return count;
}

/* Region (reg[x] = 1) of the cells reachable from start, itself not included; its size. */
static int flood(Ctx *c, int start, uint8_t *reg) {
    int n = bfs(c, start, c->da);
    for (int i = 0; i < c->N; i++) reg[i] = c->da[i] > 0;
    return n;
}

static int parity_bound(Ctx *c, const uint8_t *reg, int head) {
    int same = 0, total = 0;
    for (int i = 0; i < c->N; i++) {
        if (reg[i]) {
            total++;
            same += c->even[i] == c->even[head];
        }
    }
    int other = total - same;
    return other > same ? 2 * same + 1 : 2 * other;
}

/* The chamber-tree value of the region from head (not in it): a chamber's cells count
 * in full, of the chambers behind a cut cell only the best one. */
static long chambers(Ctx *c, const uint8_t *reg, int head, int kc, int ke) {
    int N = c->N, W = c->W, top = 0, counter = 2;
    int *disc = c->disc, *low = c->low, *sz = c->sz, *ext = c->ext;
    memset(disc, 0, N * sizeof(int));
    disc[head] = low[head] = 1;
    sz[head] = ext[head] = 0;
    c->sv[0] = head; c->sp[0] = -1; c->si[0] = 0;
    while (top >= 0) {
        int v = c->sv[top], i = c->si[top];
        if (i < 4) {
            c->si[top] = i + 1;
            int w = v + c->d[i];
            if (disc[w]) {
                if (w != c->sp[top] && disc[w] < low[v]) low[v] = disc[w];
            } else if (reg[w]) {
                disc[w] = low[w] = counter++;
                sz[w] = kc + ke * (c->g[w - W] + c->g[w + W] + c->g[w - 1] + c->g[w + 1]);
                ext[w] = 0;
                top++;
                c->sv[top] = w; c->sp[top] = v; c->si[top] = 0;
            }
        } else {
            int p = c->sp[top];
            top--;
            if (p < 0) break;
            if (low[v] < low[p]) low[p] = low[v];
            if (low[v] >= disc[p]) {
                int value = sz[v] + ext[v];
                if (value > ext[p]) ext[p] = value;
            } else {
                sz[p] += sz[v];
                if (ext[v] > ext[p]) ext[p] = ext[v];
            }
        }
    }
    return (long)sz[head] + ext[head];
}

static int fill_estimate(Ctx *c, int head) {
    if (!flood(c, head, c->ra)) return 0;
    int bound = parity_bound(c, c->ra, head);
    if (bound <= 3) return bound;
    int ch = (int)chambers(c, c->ra, head, 1, 0);
    return ch < bound ? ch : bound;
}

static long floordiv(long a, long b) {
    long q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Voronoi regions by a simultaneous search from both heads, a step at a time: a cell
 * both reach in the same step is tied and blocks both (as bots.voronoi). Sets ra, rb;
 * returns the count of tied cells + 1 if any cell of one region touches the other
 * (0: the players are separated). counts (3 ints, may be NULL): |ra| |rb| |tied|. */
static int voronoi_regions(Ctx *c, int a, int b, int *counts) {
    int N = c->N, *when = c->da, *fa = c->q, *fb = c->sv, *na = c->db, *nb = c->sp;
    int la = 1, lb = 1, tied = 0, step = 0, ca = 0, cb = 0;
    memset(c->ra, 0, N);
    memset(c->rb, 0, N);
    uint8_t *own = c->even + N; /* scratch after the colour table: 0 free, 1 a, 2 b, 3 tied */
    memset(own, 0, N);
    fa[0] = a; fb[0] = b;
    while (la || lb) {
        int ka = 0, kb = 0;
        step++;
        for (int i = 0; i < la; i++)
            for (int k = 0; k < 4; k++) {
                int w = fa[i] + c->d[k];
                if (c->g[w] && !own[w]) { own[w] = 1; when[w] = step; na[ka++] = w; }
            }
        for (int i = 0; i < lb; i++)
            for (int k = 0; k < 4; k++) {
                int w = fb[i] + c->d[k];
                if (!c->g[w]) continue;
                if (!own[w]) { own[w] = 2; when[w] = step; nb[kb++] = w; }
                else if (own[w] == 1 && when[w] == step) { own[w] = 3; tied++; }
            }
        la = 0;
        for (int i = 0; i < ka; i++) if (own[na[i]] == 1) { fa[la++] = na[i]; c->ra[na[i]] = 1; ca++; }
        lb = kb;
        for (int i = 0; i < kb; i++) { fb[i] = nb[i]; c->rb[nb[i]] = 1; cb++; }
    }
    if (counts) { counts[0] = ca; counts[1] = cb; counts[2] = tied; }
    if (tied) return tied + 1;
    for (int x = 0; x < N; x++)
        if (c->ra[x] && (c->rb[x - c->W] || c->rb[x + c->W] || c->rb[x - 1] || c->rb[x + 1])) return 1;
    return 0;
}

/* Score for the player at a (the other at b), both heads already on their cells. */
static int evaluate(Ctx *c, int a, int b) {
    if (!voronoi_regions(c, a, b, NULL)) {
        int lead = fill_estimate(c, a) - fill_estimate(c, b);
        return K_NODES * lead + (lead > 0 ? SEP : lead < 0 ? -SEP : 0);
    }
    long va = chambers(c, c->ra, a, K_CELL, K_EDGES);
    long vb = chambers(c, c->rb, b, K_CELL, K_EDGES);
    return (int)floordiv(K_NODES * (va - vb), UNIT);
}

/* --- the fight: alpha-beta ------------------------------------------------------------ */

static void place(Ctx *c, int x) { c->g[x] = 0; c->hash ^= c->zob[x]; }
static void lift(Ctx *c, int x) { c->g[x] = 1; c->hash ^= c->zob[x]; }

static int tt_get(Ctx *c, uint64_t key) {
    int i = (int)(key & ((1u << TT_BITS) - 1));
    return c->tt_key[i] == key ? c->tt_move[i] : -1;
}

static void tt_put(Ctx *c, uint64_t key, int move) {
    int i = (int)(key & ((1u << TT_BITS) - 1));
    c->tt_key[i] = key;
    c->tt_move[i] = (int8_t)move;
}

static int moves_of(Ctx *c, int head, int *out) {
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (c->g[head + c->d[k]]) out[n++] = k;
    return n;
}

static void hint_first(int *ks, int n, int hint) {
    for (int i = 1; i < n; i++) {
        if (ks[i] == hint) {
            ks[i] = ks[0];
            ks[0] = hint;
            return;
        }
    }
}

static int max_node(Ctx *c, int a, int b, int depth, int ply, int alpha, int beta);

/* Both heads moved, ours to t and theirs to u: a meeting in one cell, else the position
   searched `depth - 1` more moves deep (or evaluated at the horizon). */
static int pair_value(Ctx *c, int t, int u, int depth, int ply, int alpha, int beta) {
    if (u == t) return -CONTEMPT;
    place(c, t);
    place(c, u);
    int value;
    if (depth <= 1) {
        tick(c);
        value = evaluate(c, t, u);
    } else {
        value = max_node(c, t, u, depth - 1, ply + 1, alpha, beta);
    }
    lift(c, u);
    lift(c, t);
    return value;
}

/* Our move t is chosen; the opponent answers knowing it. */
static int min_node(Ctx *c, int a, int b, int t, int depth, int ply, int alpha, int beta) {
    int ks[4], n = moves_of(c, b, ks);
    uint64_t key = c->hash ^ c->zob[c->N + a] ^ (c->zob[c->N + b] * 3) ^ (c->zob[c->N + t] * 7);
    int hint = tt_get(c, key);
    hint_first(ks, n, hint >= 0 ? hint : c->killer[1][ply]);
    int worst = WIN + 1, worst_k = n ? ks[0] : 0;
    for (int i = 0; i < n; i++) {
        int u = b + c->d[ks[i]], hi = beta < worst ? beta : worst, value;
        if (i == 0 || depth <= 1 || hi - 1 <= alpha) {
            value = pair_value(c, t, u, depth, ply, alpha, hi);
        } else {
            /* a null window first: does this reply do better than the best so far? */
            value = pair_value(c, t, u, depth, ply, hi - 1, hi);
            if (!c->aborted && value < hi && value > alpha) {
                /* it does: at most `value`; the exact value below it */
                int exact = pair_value(c, t, u, depth, ply, alpha, value);
                if (exact < value) value = exact;
            }
        }
        if (c->aborted) return 0;
        if (value < worst) {
            worst = value;
            worst_k = ks[i];
            if (worst <= alpha) break;
        }
    }
    tt_put(c, key, worst_k);
    c->killer[1][ply] = (int8_t)worst_k;
    return worst;
}

static int max_node(Ctx *c, int a, int b, int depth, int ply, int alpha, int beta) {
    tick(c);
    if (c->aborted) return 0;
    int mine[4], theirs[4];
    int n = moves_of(c, a, mine), m = moves_of(c, b, theirs);
    if (!n) return m ? -WIN + ply : -CONTEMPT;
    if (!m) return WIN - ply;
    uint64_t key = c->hash ^ c->zob[c->N + a] ^ (c->zob[c->N + b] * 3);
    int hint = tt_get(c, key);
    hint_first(mine, n, hint >= 0 ? hint : c->killer[0][ply]);
    int best = -WIN - 1, best_k = mine[0];
    for (int i = 0; i < n; i++) {
        int t = a + c->d[mine[i]], lo = alpha > best ? alpha : best, value;
        if (i == 0 || lo + 1 >= beta) {
            value = min_node(c, a, b, t, depth, ply, lo, beta);
        } else {
            /* a null window first: does this move beat the best so far? */
            value = min_node(c, a, b, t, depth, ply, lo, lo + 1);
            if (!c->aborted && value > lo && value < beta) {
                /* it does: at least `value`; the exact value above it */
                int exact = min_node(c, a, b, t, depth, ply, value, beta);
                if (exact > value) value = exact;
            }
        }
        if (c->aborted) return 0;
        if (value > best) {
            best = value;
            best_k = mine[i];
            if (best >= beta) break;
        }
    }
    tt_put(c, key, best_k);
    c->killer[0][ply] = (int8_t)best_k;
    return best;
}

static int manhattan(Ctx *c, int x, int y) {
    int dr = x / c->W - y / c->W, dc = x % c->W - y % c->W;
    return (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
}

static int count_free(Ctx *c) {
    int free_cells = 0;
    for (int i = 0; i < c->N; i++) free_cells += c->g[i];
    return free_cells;
}

/* Full moves an iterative deepening of the fight may go: no further than half the free
   cells (each move fills two), nor MAX_PLY. */
static int fight_limit(Ctx *c) {
    int limit = (count_free(c) + 2) / 2 + 1;
    return limit > MAX_PLY ? MAX_PLY : limit;
}

/* An interrupted iteration of a root counts if its first (the previous best) move was
   searched: the best of the `done` moves searched, else `best` as it was. */
static int partial_best(const int *order, const int *scores, int done, int best, int *info) {
    if (!done) return best;
    int k = 0;
    for (int i = 1; i < done; i++) if (scores[i] > scores[k]) k = i;
    info[2] = scores[k];
    return order[k];
}

/* A finished iteration: moves sorted by score, best first (stable, so ties keep the
   previous order); its depth and score go to `info`. Returns the best move. */
static int sort_by_score(int *order, int *scores, int n, int depth, int *info) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && scores[j] > scores[j - 1]; j--) {
            int t = scores[j]; scores[j] = scores[j - 1]; scores[j - 1] = t;
            t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    info[0] = depth;
    info[2] = scores[0];
    return order[0];
}

/* The fight's root. slack >= 0 widens the root window: every move is searched against
   the best so far less `slack`, so its value is exact when within `slack` of the best
   (else an upper bound at most best - slack). rows (4 ints by direction, may be NULL):
   each move's value in the last finished iteration; -WIN - 2 for a move not searched. */
static int fight_root(Ctx *c, int a, int b, int slack, int *rows, int *info) {
    int order[4], n = moves_of(c, a, order);
    int scores[4];
    /* toward the opponent first: ties go to the move that contests space */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && manhattan(c, a + c->d[order[j]], b) < manhattan(c, a + c->d[order[j - 1]], b); j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    int best = order[0], limit = fight_limit(c);
    for (int depth = 1; depth <= limit; depth++) {
        int alpha = -WIN - 1, done = 0;
        for (int i = 0; i < n; i++) {
            int value = min_node(c, a, b, a + c->d[order[i]], depth, 0, alpha - slack, WIN + 1);
            if (c->aborted) break;
            scores[i] = value;
            done = i + 1;
            if (value > alpha) alpha = value;
        }
        if (c->aborted) {
            best = partial_best(order, scores, done, best, info);
            break;
        }
        best = sort_by_score(order, scores, n, depth, info);
        if (rows)
            for (int i = 0; i < n; i++) rows[order[i]] = scores[i];
        if (scores[0] >= WIN - 1000 || scores[0] <= -WIN + 1000 || now() > c->soft) break;
    }
    return best;
}

/* --- separated: the longest fill ------------------------------------------------------ */

static int free_neighbours(Ctx *c, int x) {
    return c->g[x - c->W] + c->g[x + c->W] + c->g[x - 1] + c->g[x + 1];
}

/* Order moves by fewest free neighbours after them (Warnsdorff: hug the walls). */
static int hug_order(Ctx *c, int a, int *ks) {
    int n = moves_of(c, a, ks), key[4];
    for (int i = 0; i < n; i++) {
        int t = a + c->d[ks[i]];
        c->g[t] = 0;
        key[i] = free_neighbours(c, t);
        c->g[t] = 1;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
            int t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            t = ks[j]; ks[j] = ks[j - 1]; ks[j - 1] = t;
        }
    return n;
}

/* Most cells fillable from a (not free): every line searched `depth` moves deep, then
   the region's bound (fill_estimate). A line whose bound is at most `need` cannot matter
   to the caller and is not searched: its bound is returned. c->horizon is set when a
   line reached the depth (else the value is exact). */
static int fill(Ctx *c, int a, int depth, int need) {
    tick(c);
    if (c->aborted) return 0;
    int bound = fill_estimate(c, a);
    if (bound <= need || bound <= 1) return bound;
    if (depth <= 0) {
        c->horizon = 1;
        return bound;
    }
    int ks[4], n = hug_order(c, a, ks), best = 0;
    for (int i = 0; i < n; i++) {
        int t = a + c->d[ks[i]];
        c->g[t] = 0;
        int value = 1 + fill(c, t, depth - 1, (best > need ? best : need) - 1);
        c->g[t] = 1;
        if (c->aborted) return 0;
        if (value > best) {
            best = value;
            if (best >= bound) break;
        }
    }
    return best;
}

/* The separated root: iterative deepening of `fill` until a whole iteration met no
   horizon (it searched every line to its end: the fill is exact) or the soft limit. */
static int fill_root(Ctx *c, int a, int *info) {
    int order[4], n = hug_order(c, a, order), scores[4];
    int best = order[0], free_cells = count_free(c);
    for (int depth = 0; depth <= free_cells; depth++) {
        int done = 0, top = -1;
        c->horizon = 0;
        for (int i = 0; i < n; i++) {
            int t = a + c->d[order[i]];
            c->g[t] = 0;
            int value = 1 + fill(c, t, depth, top - 1);
            c->g[t] = 1;
            if (c->aborted) break;
            scores[i] = value;
            if (value > top) top = value;
            done = i + 1;
        }
        if (c->aborted) {
            best = partial_best(order, scores, done, best, info);
            break;
        }
        best = sort_by_score(order, scores, n, depth, info);
        if (!c->horizon || now() > c->soft) break;
    }
    return best;
}

/* --- against a model of the opponent: an expectimax ---------------------------------- */

/* The policies of opponent_model.POLICIES, in its order (P_SEARCH's share is met with
   the worst reply, so that policy itself is never asked here). */
#define POLICIES 8
enum { P_STRAIGHT, P_HUG, P_LEFT, P_RIGHT, P_OPEN, P_MEDIUM, P_RANDOM, P_SEARCH };
/* model[] as opponent_model.line_params packs it: the policies' weights (0: not asked),
   then PRUNE, U_SCALE, MEDIUM_CONTEMPT, MEDIUM_MEAN, the draw's utility, the least
   utility of a separated position (bots.SEP_UTILITY), and opponent_model.LineRule: the
   utility of the worst case that a move may give up next to the best one's, and 1 or 0
   for whether a move the worst case calls a separated loss, and one it calls a proven
   loss, may be planned. */
#define MODEL_LEN (POLICIES + 9)
/* opponent_model.LINE_GROWTH: the growth of a line search depth over the one before,
   until two were measured. */
#define LINE_GROWTH 5.0

typedef struct {
    const double *w;
    double prune, u_scale, medium_contempt, medium_mean, draw, sep_utility, risk, separated, lost;
} Model;

static const int LEFT_OF[4] = {2, 3, 1, 0}, RIGHT_OF[4] = {3, 2, 0, 1};

/* bots.utility: a value on -1 .. +1. */
static double utility(const Model *m, long v) {
    if (v >= WIN - 1000) return 1.0;
    if (v <= -WIN + 1000) return -1.0;
    double size = (double)(v < 0 ? -v : v), u;
    if (size >= SEP)
        u = m->sep_utility + (1.0 - m->sep_utility) * (size - SEP) / (size - SEP + m->u_scale);
    else
        u = size / (size + m->u_scale);
    return v < 0 ? -u : u;
}

/* bots.medium_scores for the head at b against the head at a: out[i] for each of b's
   free moves ks[0..n). Returns n. */
static int medium_scores(Ctx *c, const Model *m, int b, int a, int *ks, double *out) {
    int n = moves_of(c, b, ks), js[4], nj = moves_of(c, a, js), counts[3];
    for (int i = 0; i < n; i++) {
        int t = b + c->d[ks[i]];
        double worst = 0, total = 0;
        for (int j = 0; j < nj; j++) {
            int u = a + c->d[js[j]];
            double value;
            if (u == t) {
                value = -m->medium_contempt;
            } else {
                c->g[t] = c->g[u] = 0;
                voronoi_regions(c, t, u, counts);
                c->g[t] = c->g[u] = 1;
                value = counts[0] - counts[1];
            }
            total += value;
            if (j == 0 || value < worst) worst = value;
        }
        out[i] = nj ? worst + m->medium_mean * total / nj : WIN;
    }
    return n;
}

static void one_hot(double *p, int k) { p[0] = p[1] = p[2] = p[3] = 0; p[k] = 1; }

static void uniform(double *p, const int *ks, int n) {
    p[0] = p[1] = p[2] = p[3] = n ? 0 : 0.25;
    for (int i = 0; i < n; i++) p[ks[i]] = 1.0 / n;
}

/* One policy's probabilities p[4] of the next move of the head at b (which last moved
   `heading`, -1: unknown) with us at a; opponent_model's functions of the same names. */
static void policy(Ctx *c, const Model *m, int which, int b, int heading, int a, double *p) {
    int ks[4], n = moves_of(c, b, ks);
    double scores[4];
    switch (which) {
    case P_STRAIGHT:
        if (heading < 0) uniform(p, ks, n); else one_hot(p, heading);
        return;
    case P_HUG: {
        int tied[4], nt = 0, most = -1;
        for (int i = 0; i < n; i++) {
            int walls = 4 - free_neighbours(c, b + c->d[ks[i]]);
            if (walls > most) { most = walls; nt = 0; }
            if (walls == most) tied[nt++] = ks[i];
        }
        for (int i = 0; i < nt; i++) if (tied[i] == heading) { one_hot(p, heading); return; }
        uniform(p, tied, nt);
        return;
    }
    case P_LEFT:
    case P_RIGHT: {
        if (heading < 0) { uniform(p, ks, n); return; }
        int order[3] = {which == P_LEFT ? LEFT_OF[heading] : RIGHT_OF[heading], heading,
                        which == P_LEFT ? RIGHT_OF[heading] : LEFT_OF[heading]};
        for (int i = 0; i < 3; i++) if (c->g[b + c->d[order[i]]]) { one_hot(p, order[i]); return; }
        uniform(p, ks, n);
        return;
    }
    case P_OPEN: {
        static const int order[4] = {2, 3, 0, 1};
        int best = -1, best_run = 0;
        for (int i = 0; i < 4; i++) {
            int run = 0, t = b + c->d[order[i]];
            while (c->g[t]) { run++; t += c->d[order[i]]; }
            if (run > best_run) { best = order[i]; best_run = run; }
        }
        if (best >= 0) one_hot(p, best); else uniform(p, ks, 0);
        return;
    }
    case P_MEDIUM: {
        if (!n) { uniform(p, ks, 0); return; }
        medium_scores(c, m, b, a, ks, scores);
        int best = 0;
        for (int i = 1; i < n; i++) if (scores[i] > scores[best]) best = i;
        one_hot(p, ks[best]);
        return;
    }
    default: /* P_RANDOM */
        uniform(p, ks, n);
        return;
    }
}

/* Each policy's predicted replies for the head at b: p[k][j], the chance that policy k
   (weight w[k] > 0, the capable P_SEARCH aside) plays reply j. Replies whose share of
   the mixture (the weights normalised) is under `prune` of the predictable share are
   dropped, and each policy's chances renormalised over the rest (uniform over the free
   replies kept when it predicted only dropped ones); a reply onto a cell that is not
   free is a crash. With no free move the opponent crashes whatever it does (UP). */
static void predict(Ctx *c, const Model *m, const double *w, int b, int heading, int a, double p[][4]) {
    int ks[4], open = moves_of(c, b, ks);
    double total = 0, q[4] = {0, 0, 0, 0};
    for (int k = 0; k < POLICIES; k++) total += w[k];
    for (int k = 0; k < POLICIES; k++) {
        p[k][0] = p[k][1] = p[k][2] = p[k][3] = 0;
        if (k == P_SEARCH || w[k] <= 0) continue;
        if (!open) { p[k][0] = 1; continue; }
        policy(c, m, k, b, heading, a, p[k]);
        for (int j = 0; j < 4; j++) q[j] += w[k] / total * p[k][j];
    }
    if (!open) return;
    double share = 1.0 - w[P_SEARCH] / total;
    for (int k = 0; k < POLICIES; k++) {
        if (k == P_SEARCH || w[k] <= 0) continue;
        double kept = 0;
        for (int j = 0; j < 4; j++) {
            if (q[j] < m->prune * share) p[k][j] = 0;
            kept += p[k][j];
        }
        int free_kept = 0;
        if (kept <= 0)
            for (int j = 0; j < 4; j++) free_kept += q[j] >= m->prune * share && c->g[b + c->d[j]];
        for (int j = 0; j < 4; j++) {
            if (kept > 0) p[k][j] /= kept;
            else p[k][j] = free_kept && q[j] >= m->prune * share && c->g[b + c->d[j]] ? 1.0 / free_kept : 0;
        }
    }
}

static void line_node(Ctx *c, const Model *m, const double *w, int a, int b, int heading, int depth, double *out);

/* A never-turner at u (heading j, both heads placed) crashes at the end of the free run
   ahead of it: it is outlasted when we can make more moves than that off its path (our
   fill estimate from t with the run blocked). The board is left as it was. */
static int outlasts_straight(Ctx *c, int t, int u, int j) {
    int run = 0;
    for (int x = u + c->d[j]; c->g[x]; x += c->d[j]) {
        c->g[x] = 0;
        run++;
    }
    int ours = fill_estimate(c, t);
    for (int i = 0, x = u + c->d[j]; i < run; i++, x += c->d[j]) c->g[x] = 1;
    return ours > run;
}

/* Our move onto t against the opponent at b whose replies each policy predicts (p): the
   utility of the line to each policy (out[k]), every policy followed along its own
   replies (its weight at a node is its belief times the chances of the replies that led
   there, so a policy's prediction several moves deep is not diluted by the others'),
   the capable one (P_SEARCH) along the reply worst for us. */
static void line_pair(Ctx *c, const Model *m, const double *w, int b, int t, double p[][4], int depth, double *out) {
    double worst = 2, child[POLICIES], wj[POLICIES];
    for (int k = 0; k < POLICIES; k++) out[k] = 0;
    for (int j = 0; j < 4; j++) {
        int u = b + c->d[j], open = c->g[u], capable = w[P_SEARCH] > 0 && open;
        double mass = 0;
        for (int k = 0; k < POLICIES; k++) {
            wj[k] = k == P_SEARCH ? (capable ? w[k] : 0) : w[k] * p[k][j];
            if (k != P_SEARCH) mass += wj[k];
        }
        if (mass <= 0 && !capable) continue;
        if (u == t || !open || depth <= 1) {
            double value;
            int outlasted = 0;
            if (u == t) {
                value = m->draw;
            } else if (!open) {
                value = 1.0; /* it crashes, we do not */
            } else {
                c->g[t] = c->g[u] = 0;
                tick(c);
                value = utility(m, evaluate(c, t, u));
                outlasted = wj[P_STRAIGHT] > 0 && value < 1.0 && outlasts_straight(c, t, u, j);
                c->g[t] = c->g[u] = 1;
            }
            for (int k = 0; k < POLICIES; k++) child[k] = value;
            /* the horizon does not end a never-turner's line: its crash ahead is sure */
            if (outlasted) child[P_STRAIGHT] = 1.0;
        } else {
            c->g[t] = c->g[u] = 0;
            line_node(c, m, wj, t, u, j, depth - 1, child);
            c->g[t] = c->g[u] = 1;
        }
        if (c->aborted) return;
        for (int k = 0; k < POLICIES; k++)
            if (k != P_SEARCH) out[k] += p[k][j] * child[k];
        if (capable && child[P_SEARCH] < worst) worst = child[P_SEARCH];
    }
    out[P_SEARCH] = worst < 2 ? worst : 1.0;
}

/* The belief's expected utility of per-policy values: sum of w[k] * v[k] over sum of w. */
static double expected(const double *w, const double *v) {
    double total = 0, sum = 0;
    for (int k = 0; k < POLICIES; k++) {
        total += w[k];
        sum += w[k] * v[k];
    }
    return total > 0 ? sum / total : 0;
}

/* opponent_model.LineRule.allows: whether a move whose worst case is `worst` may be
   planned where the best worst case is `safest`. */
static int line_allows(const Model *m, double worst, double safest) {
    if (worst <= -1.0 && -1.0 < safest && !m->lost) return 0;
    if (worst <= -m->sep_utility && -m->sep_utility < safest && !m->separated) return 0;
    return safest <= m->draw || worst >= safest - m->risk;
}

/* Our move at a (the opponent at b last moved `heading`), `depth` moves deep: the move
   best for the belief w (unnormalised) and its utility to each policy (out). */
static void line_node(Ctx *c, const Model *m, const double *w, int a, int b, int heading, int depth, double *out) {
    tick(c);
    for (int k = 0; k < POLICIES; k++) out[k] = 0;
    if (c->aborted) return;
    int ks[4], n = moves_of(c, a, ks);
    double p[POLICIES][4];
    predict(c, m, w, b, heading, a, p);
    if (!n) {
        int open = moves_of(c, b, ks);
        for (int k = 0; k < POLICIES; k++) {
            double crash = 0;
            if (k == P_SEARCH) crash = open ? 0 : 1;
            else for (int j = 0; j < 4; j++) if (!c->g[b + c->d[j]]) crash += p[k][j];
            out[k] = crash * m->draw - (1.0 - crash);
        }
        return;
    }
    double all[4][POLICIES], score[4], safest = -3;
    int searched = 0, pick = -1;
    for (int i = 0; i < n; i++) {
        line_pair(c, m, w, b, a + c->d[ks[i]], p, depth, all[i]);
        if (c->aborted) return;
        score[i] = expected(w, all[i]);
        if (all[i][P_SEARCH] > safest) safest = all[i][P_SEARCH];
        searched = i + 1;
        if (score[i] >= 1.0) break;
    }
    /* as bots._model_pick: only moves the root would play here (opponent_model.LineRule) */
    for (int i = 0; i < searched; i++) {
        if (w[P_SEARCH] > 0 && !line_allows(m, all[i][P_SEARCH], safest)) continue;
        if (pick < 0 || score[i] > score[pick]) pick = i;
    }
    for (int k = 0; k < POLICIES; k++) out[k] = all[pick][k];
}

/* --- set-up and the exported functions ------------------------------------------------ */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void ctx_free(Ctx *c) {
    if (!c) return;
    free(c->g); free(c->even); free(c->da); free(c->db); free(c->q); free(c->ra); free(c->rb);
    free(c->disc); free(c->low); free(c->sz); free(c->ext); free(c->sv); free(c->sp); free(c->si);
    free(c->zob); free(c->tt_key); free(c->tt_move);
    free(c);
}

/* A context for a width x height board (cells row-major, nonzero = free), padded by a
 * blocked ring so that no neighbour is ever out of range. NULL on bad sizes. */
static Ctx *ctx_new(int width, int height, const uint8_t *cells, int with_tt) {
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE || !cells) return NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    int W = width + 2, N = W * (height + 2);
    c->W = W; c->N = N;
    c->d[0] = -W; c->d[1] = W; c->d[2] = -1; c->d[3] = 1;
    c->g = calloc(N, 1); c->even = calloc(2 * N, 1); c->ra = calloc(N, 1); c->rb = calloc(N, 1);
    c->da = malloc(N * sizeof(int)); c->db = malloc(N * sizeof(int)); c->q = malloc(N * sizeof(int));
    c->disc = malloc(N * sizeof(int)); c->low = malloc(N * sizeof(int)); c->sz = malloc(N * sizeof(int));
    c->ext = malloc(N * sizeof(int)); c->sv = malloc(N * sizeof(int)); c->sp = malloc(N * sizeof(int));
    c->si = malloc(N * sizeof(int));
    c->zob = malloc(2 * N * sizeof(uint64_t));
    if (with_tt) {
        c->tt_key = calloc((size_t)1 << TT_BITS, sizeof(uint64_t));
        c->tt_move = calloc((size_t)1 << TT_BITS, 1);
    }
    if (!c->g || !c->even || !c->ra || !c->rb || !c->da || !c->db || !c->q || !c->disc || !c->low
        || !c->sz || !c->ext || !c->sv || !c->sp || !c->si || !c->zob
        || (with_tt && (!c->tt_key || !c->tt_move))) {
        ctx_free(c);
        return NULL;
    }
    for (int r = 0; r < height; r++)
        for (int col = 0; col < width; col++) {
            int x = (r + 1) * W + col + 1;
            c->g[x] = cells[r * width + col] != 0;
            c->even[x] = ((r + col) & 1) == 0;
        }
    uint64_t seed = 0x7472306e;
    for (int i = 0; i < 2 * N; i++) c->zob[i] = splitmix(&seed);
    return c;
}

static int cell_of(Ctx *c, int width, int height, int index) {
    if (index < 0 || index >= width * height) return -1;
    return (index / width + 1) * c->W + index % width + 1;
}

/* A search's context: the board, both heads taken off it, the clock started, and with_tt:
 * a table of best moves; NULL on bad input (a head off the board, or both on one cell). */
static Ctx *search_ctx(int width, int height, const uint8_t *cells, int me, int opp, long budget_us,
                       long soft_us, volatile int *cancel, int with_tt, int *a, int *b) {
    double start = now();
    Ctx *c = ctx_new(width, height, cells, with_tt);
    if (!c) return NULL;
    *a = cell_of(c, width, height, me);
    *b = cell_of(c, width, height, opp);
    if (*a < 0 || *b < 0 || *a == *b) { ctx_free(c); return NULL; }
    c->g[*a] = c->g[*b] = 0;
    c->deadline = start + (budget_us > 0 ? budget_us : 1) * 1e-6;
    c->soft = start + (soft_us > 0 ? soft_us : 0) * 1e-6;
    c->cancel = cancel;
    c->aborted = cancel && *cancel; /* cancelled before it began */
    return c;
}

int tron_root_scores(int width, int height, const uint8_t *cells, int me, int opp, long budget_us,
                     long soft_us, volatile int *cancel, int slack, int *rows, int *info);

/* The hard bot's move (0..3 = UP DOWN LEFT RIGHT) for the head at `me` (row * width +
 * col) against `opp`, both marked not free in `cells`. info (4 ints, may be NULL):
 * depth of the last finished iteration, nodes, score, mode (0 forced, 1 fight, 2 fill).
 * budget_us: the hard limit; soft_us: no new iteration after it. cancel: polled. */
int tron_best_move(int width, int height, const uint8_t *cells, int me, int opp,
                   long budget_us, long soft_us, volatile int *cancel, int *info) {
    return tron_root_scores(width, height, cells, me, opp, budget_us, soft_us, cancel, 0, NULL, info);
}

/* tron_best_move, and while the players still meet, each move's value (rows: 4 ints by
 * direction, may be NULL; exact within `slack` of the best, see fight_root; -WIN - 2 for
 * a move not searched, and for every move once separated or forced). */
int tron_root_scores(int width, int height, const uint8_t *cells, int me, int opp, long budget_us,
                     long soft_us, volatile int *cancel, int slack, int *rows, int *info) {
    int scratch[4] = {0, 0, 0, 0};
    if (!info) info = scratch;
    info[0] = info[1] = info[2] = info[3] = 0;
    if (rows)
        for (int i = 0; i < 4; i++) rows[i] = -WIN - 2;
    if (slack < 0) slack = 0;
    if (slack > 2 * WIN) slack = 2 * WIN;
    int a, b;
    Ctx *c = search_ctx(width, height, cells, me, opp, budget_us, soft_us, cancel, 1, &a, &b);
    if (!c) return -1;
    int ks[4], n = moves_of(c, a, ks), move;
    if (n <= 1) {
        move = n ? ks[0] : 0;
    } else if (!moves_of(c, b, scratch)) {
        move = ks[0];
        info[2] = WIN;
        info[3] = 1;
    } else {
        bfs(c, a, c->da);
        bfs(c, b, c->db);
        int shared = 0;
        for (int i = 0; i < c->N; i++) shared |= c->da[i] > 0 && c->db[i] > 0;
        if (shared) {
            info[3] = 1;
            move = fight_root(c, a, b, slack, rows, info);
        } else {
            info[3] = 2;
            move = fill_root(c, a, info);
        }
    }
    info[1] = (int)(c->nodes > 0x7fffffff ? 0x7fffffff : c->nodes);
    ctx_free(c);
    return move;
}

/* The root as a matrix game, for heads close enough to meet in one cell this step:
 * M[4 * k + j] is the value (for us) of our move k against their move j (a head-on
 * meeting is a draw), searched by iterative deepening; the last finished matrix is
 * kept. Moves that are not free get -WIN - 2 (ours) or stay untouched (theirs: the caller
 * reads only free ones). info as tron_best_move. Returns 0, or -1 on bad input. */
int tron_root_matrix(int width, int height, const uint8_t *cells, int me, int opp,
                     long budget_us, long soft_us, volatile int *cancel, int *M, int *info) {
    int scratch[4] = {0, 0, 0, 0};
    if (!info) info = scratch;
    info[0] = info[1] = info[2] = info[3] = 0;
    if (!M) return -1;
    int a, b;
    Ctx *c = search_ctx(width, height, cells, me, opp, budget_us, soft_us, cancel, 1, &a, &b);
    if (!c) return -1;
    info[3] = 1;
    int mine[4], theirs[4], n = moves_of(c, a, mine), m = moves_of(c, b, theirs), work[16];
    for (int i = 0; i < 16; i++) M[i] = -WIN - 2;
    int limit = fight_limit(c);
    for (int depth = 1; depth <= limit && n && m; depth++) {
        int decided = 1;
        for (int i = 0; i < n && !c->aborted; i++) {
            int t = a + c->d[mine[i]];
            for (int j = 0; j < m && !c->aborted; j++) {
                int value = pair_value(c, t, b + c->d[theirs[j]], depth, 0, -WIN - 1, WIN + 1);
                work[4 * mine[i] + theirs[j]] = value;
                if (value < WIN - 1000 && value > -WIN + 1000) decided = 0;
            }
        }
        if (c->aborted) break;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) M[4 * mine[i] + theirs[j]] = work[4 * mine[i] + theirs[j]];
        info[0] = depth;
        if (decided || now() > c->soft) break;
    }
    info[1] = (int)(c->nodes > 0x7fffffff ? 0x7fffffff : c->nodes);
    ctx_free(c);
    return 0;
}

/* opponent_model.line_next_cost: the time the next depth will take, from the last one's
   (`took`, `last` nodes) and the nodes of the one before. */
static double line_next_cost(double took, long last, long before) {
    double growth = before > 0 ? (double)last / (double)before : LINE_GROWTH;
    if (growth < 1.0) growth = 1.0;
    return took * growth;
}

/* Our moves against a model of the opponent (opponent_model.LineSearch): for the head at
 * `me` against `opp` (which last moved `heading`, 0..3, or -1: unknown), each move's
 * expected utility (values: 4 doubles by direction; -3 for a move onto a cell not free)
 * by iterative deepening up to `max_depth` moves, no depth started that would not end
 * by the deadline at the last depth's growth (an unfinished depth is dropped). model:
 * MODEL_LEN doubles (see Model). info as tron_best_move (mode 1). Returns 0, or -1 on
 * bad input. */
int tron_line_values(int width, int height, const uint8_t *cells, int me, int opp, int heading,
                     const double *model, int max_depth, long budget_us, long soft_us,
                     volatile int *cancel, double *values, int *info) {
    int scratch[4] = {0, 0, 0, 0};
    if (!info) info = scratch;
    info[0] = info[1] = info[2] = info[3] = 0;
    if (!model || !values || heading < -1 || heading > 3) return -1;
    int a, b;
    Ctx *c = search_ctx(width, height, cells, me, opp, budget_us, soft_us, cancel, 0, &a, &b);
    if (!c) return -1;
    Model m = {model, model[POLICIES], model[POLICIES + 1], model[POLICIES + 2], model[POLICIES + 3],
               model[POLICIES + 4], model[POLICIES + 5], model[POLICIES + 6], model[POLICIES + 7],
               model[POLICIES + 8]};
    info[3] = 1;
    int ks[4], n = moves_of(c, a, ks);
    double p[POLICIES][4], work[4], per[POLICIES];
    for (int k = 0; k < 4; k++) values[k] = -3;
    predict(c, &m, m.w, b, heading, a, p);
    long before = 0; /* the nodes of the depth before the last */
    for (int depth = 1; depth <= max_depth && n; depth++) {
        int decided = 1;
        double began = now();
        long start_nodes = c->nodes;
        for (int i = 0; i < n && !c->aborted; i++) {
            line_pair(c, &m, m.w, b, a + c->d[ks[i]], p, depth, per);
            work[i] = expected(m.w, per);
            if (work[i] > -1.0 && work[i] < 1.0) decided = 0;
        }
        if (c->aborted) break;
        for (int i = 0; i < n; i++) values[ks[i]] = work[i];
        info[0] = depth;
        long last = c->nodes - start_nodes;
        double t = now();
        if (decided || t > c->soft || t + line_next_cost(t - began, last, before) > c->deadline) break;
        before = last;
    }
    info[1] = (int)(c->nodes > 0x7fffffff ? 0x7fffffff : c->nodes);
    ctx_free(c);
    return 0;
}

/* The draw value, for the test that holds it to bots.CONTEMPT. */
int tron_contempt(void) { return CONTEMPT; }

/* Primitives for the tests that hold the kernel to the Python search. out: 3 ints. */
int tron_voronoi(int width, int height, const uint8_t *cells, int a, int b, int *out) {
    Ctx *c = ctx_new(width, height, cells, 0);
    if (!c) return -1;
    int x = cell_of(c, width, height, a), y = cell_of(c, width, height, b);
    if (x < 0 || y < 0 || !out) { ctx_free(c); return -1; }
    c->g[x] = c->g[y] = 0;
    voronoi_regions(c, x, y, out);
    ctx_free(c);
    return 0;
}

/* From the head at `head` (not free): out = flood size, parity bound, chamber bound,
 * chamber value with weights kc, ke, fill estimate, and a leaf evaluation against
 * `other` (both heads not free). */
int tron_space(int width, int height, const uint8_t *cells, int head, int other, int kc, int ke, long *out) {
    Ctx *c = ctx_new(width, height, cells, 0);
    if (!c) return -1;
    int x = cell_of(c, width, height, head), y = cell_of(c, width, height, other);
    if (x < 0 || !out) { ctx_free(c); return -1; }
    c->g[x] = 0;
    if (y >= 0) c->g[y] = 0;
    out[0] = flood(c, x, c->rb);
    out[1] = out[0] ? parity_bound(c, c->rb, x) : 0;
    out[2] = chambers(c, c->rb, x, 1, 0);
    out[3] = chambers(c, c->rb, x, kc, ke);
    out[4] = fill_estimate(c, x);
    out[5] = (y >= 0 && y != x) ? evaluate(c, x, y) : 0;
    ctx_free(c);
    return 0;
}
