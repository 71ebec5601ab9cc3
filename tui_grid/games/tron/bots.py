"""Tron bots: easy, medium and hard, on int bitsets.

The board is an int with one bit per free cell at index `row * S + col`, where the stride
`S = width + 1` leaves a padding column that is never free, so shifting a set of cells by
1 or S moves it left/right/up/down without wrapping. A flood fill step is four shifts
and an AND, whatever the board size.

* easy: the seed article's open-space rule: the direction with the longest straight run
  of free cells (never a crash when a free neighbour exists).
* medium: one move of look-ahead (its move against each opponent reply), scored by
  Voronoi territory: the cells it reaches strictly before the opponent minus those the
  opponent reaches first. A move's value is its worst reply plus twice its average reply
  (wary, but expecting an ordinary opponent rather than a perfect one); a head-on meeting counts as a heavy loss, so it never
  steps where the opponent could step too unless nothing else is open. Once the players
  are separated it keeps the most reachable space, hugging walls on ties.
* hard: iterative-deepening alpha-beta over simultaneous moves. While the heads are more
  than SIM_RANGE steps apart a step is searched paranoid, the opponent answering our
  move (no head-on meeting is possible then); once they are close, where a head-on
  meeting can happen in this step, the step is a matrix game: every pair of
  moves is searched and the node is worth the game's value with mixed strategies
  (neither player knows the other's move), a meeting in one cell being a draw. At the
  root the same matrix gives an optimal mix, and the move is drawn from it with a number
  fixed by the position (so the bot stays deterministic); but a bot that is not losing
  keeps out of a cell the opponent can enter too when a move elsewhere holds up against
  every reply (no avoidable head-on draws). Leaves are scored after a1k0n's 2010 Google
  AI Challenge winner: each side's Voronoi territory (cells reached first), every cell
  weighing its free neighbours as well (room to manoeuvre), and, once the territories
  are small enough for the cost, read through their chamber trees (a chamber behind a
  cut cell that the opponent can seal counts only as the best one of its siblings);
  separated leaves by each side's fillable
  space, estimated with a checkerboard parity bound and the chamber tree of articulation
  points (fill your chamber, then enter only one of the chambers behind a cut cell),
  plus a bonus SEP for the side ahead (a separated lead is nearly a win). A draw is worth
  CONTEMPT below even, a few cells of Voronoi lead (see CONTEMPT for why no more). When the search promises no better than a draw (it assumes a perfect
  opponent), `hope` re-scores the moves by their worst and average outcome over the
  opponent's replies, to keep chances against a fallible one. Once the players are
  separated at the root it switches to a space-filling depth-first search that
  maximises the cells it can still fill, with that estimate at the leaves and as a
  bound (a line whose bound cannot beat the best line is not searched), deepening until
  the soft time limit or until it has seen every line to its end. The clock is checked
  at every node; the search stops at a safety margin inside the budget (USE) and answers
  the deepest finished iteration.
  Against a predictable opponent it bets: the bot's agent keeps an
  opponent_model.GameMemory for the game, which learns from the opponent's moves how
  likely each of a few policies (never turning, hugging walls, the seed article's rule,
  the medium bot, random moves, a capable searcher) is to be the opponent's. When the
  predictable ones hold enough of that belief (MODEL_MIN), a search of our moves against
  the predicted replies runs first, the worst-case search then rates every move near its
  best one (SLACK), and `_model_pick` plays the best answer to the prediction among the
  moves whose worst case costs little (RISK, scaled by the confidence; any move when
  the worst case promises no better than a draw). Whatever the model says, the bot does
  not enter a cell the opponent can enter too while a move elsewhere is no worse by the
  worst case and by the model (`_no_needless_head_on`).

The same search runs in C (kernel.c, through kernel.py) when the machine's gcc has built
it: several times the nodes per second; this module's Python search answers otherwise.

Stdlib only, so `tui-grid tron bot` starts fast; `make_bot` imports the core lazily.
"""

from __future__ import annotations

import time

from tui_grid.games.tron import kernel

WORDS = ("UP", "DOWN", "LEFT", "RIGHT")
LEVELS = ("easy", "medium", "hard")
DEFAULT_TIME_MS = 100

WIN = 1 << 20
#: A cell of territory (Voronoi or fillable space) is worth K_NODES.
K_NODES = 10
#: While the players meet, each side's Voronoi cells weigh K_CELL each plus K_EDGES per
#: free neighbour (a1k0n's 2010 weights, fitted on 11,691 games: room to manoeuvre counts
#: more than the bare cell count); UNIT of that weight is one cell (K_NODES).
K_CELL = 55
K_EDGES = 194
UNIT = K_CELL + 2 * K_EDGES
#: Up to this many Voronoi cells in all, a side's territory is read through its chamber
#: tree (cells behind a cut cell count only for the best chamber); above it the Tarjan
#: search costs more depth than it gains, and the whole region is weighed.
CHAMBER_CELLS = 120
#: Once separated a leaf is worth K_NODES per cell of fillable-space lead, plus SEP to the
#: side ahead: a separated lead is nearly a win, a Voronoi lead of the same size is not.
SEP = 500
#: Fraction of the budget the search may use (the rest is the margin for the answer to
#: travel, and for a busy machine), and the point after which no new depth starts (an
#: unfinished iteration still counts when its first, previously best, move was
#: searched; a new depth costs a few times the last, so one started later is mostly cut).
USE = 0.75
START_LIMIT = 0.45
#: What a draw is worth to the hard bot: two and a half cells of Voronoi lead, no more.
#: The search gives the opponent the negated value, so a large contempt has the model
#: opponent crave meetings that a real one (a1k0n values a draw as an even position)
#: avoids, and the bot give up cells to dodge them and call lines drawn that the
#: opponent plays on: against a1k0n at 100 ms (C kernel), 24 games each, load 4-5, the
#: empty board went 2-3-19 at 530 and 3-21-0 at 100; with the opponent model as it is,
#: games 0-59 on both boards (120 games, load 2-3) went 23-84-13 at 50, 29-78-13 at 25
#: and 26-77-17 at 10 (W-D-L).
CONTEMPT = 25
#: At the root, out of a cell the opponent can enter too (a head-on draw if it does) into
#: one it cannot, whenever that move's worst case is better than this: short of a
#: separated loss, a Voronoi deficit is worth the draw it avoids (SimpleTronBot, which
#: heads for its opponent, met the bot head-on in 5 of 24 games with CONTEMPT there).
AVOID = SEP
#: What a draw is worth in `_hopeful`, where -1 is a forced loss: next to nothing (at 0.9
#: the bot met SimpleTronBot head-on in 6 of 42 games whenever its search, which assumes
#: a perfect opponent, called every other move lost).
DRAW_HOPE = 0.99
#: Head distance (Manhattan) within which the hard bot searches a step as a matrix game:
#: 2, the only distance at which both heads can enter one cell this step. (At 4 the
#: unpruned matrix nodes cost plies of depth, and the bench lost more.)
SIM_RANGE = 2
#: The medium bot: a head-on meeting, in cells of territory (it avoids them), and the
#: weight of a move's average reply next to its worst.
MEDIUM_CONTEMPT = 1000
MEDIUM_MEAN = 2
#: Utility of a search value where outcomes are weighed by likelihood (the opponent
#: model): v / (|v| + U_SCALE), so a draw (-CONTEMPT) is -1/13 and ten cells of lead
#: 0.25; +-1 for a forced win or loss.
U_SCALE = 300
#: A separated position (a value of SEP or more either way) is worth at least
#: SEP_UTILITY: once apart, a lead of one cell nearly always decides the game, so a bet
#: that risks a separated loss to avoid a draw must be nearly sure of its prediction
#: (v / (|v| + U_SCALE) would put a separated loss by a cell at -0.63, barely below the
#: model's draw at -0.5, and a 44% belief in a never-turner would step aside from a
#: head-on race at the last moment, to lose by a cell to an opponent that turns).
SEP_UTILITY = 0.9
#: The opponent model is used from this confidence on (the belief that the opponent is
#: predictable: opponent_model.OpponentModel.confidence).
MODEL_MIN = 0.1
#: At confidence c a move may give up at most c * RISK of worst-case utility next to the
#: search's best move (0.3: about 13 cells of Voronoi lead from even; any move from a
#: draw, a proven loss only from MODEL_SURE on); never a proven win. The line search
#: plans our later moves by the same rule (opponent_model.LineRule).
RISK = 0.3
#: From this confidence on, the model's pick is not held to RISK, and a move the worst
#: case calls lost may be played when the model calls it won and nothing promises more
#: than a draw.
MODEL_SURE = 0.9
#: From a draw or worse, a move the worst case calls a separated loss (while another
#: move's is not) is a bet on the model only from this confidence on: against a
#: never-turner the belief at the moment to step aside from a head-on race is about
#: 0.64, while the medium bot, half mistaken for a capable opponent at about 0.36, had
#: the bot trade a held draw for a lost separation (its line search, which meets medium's
#: share as the capable opponent, can rate both alike).
SEP_BET = 0.5
#: A move the worst case rates below the search's own choice is played for the model only
#: when the model scores it at least BET_MARGIN (utility) higher: a predictable opponent's
#: model tells its moves apart by far more (a win against a draw is 1.25), while a mixture
#: that only half fits a capable opponent rates them all alike, and there a hair's
#: difference traded a draw for a lost separation (a1k0n, empty board, 4 of 30 games).
BET_MARGIN = 0.1
#: The root window while the model is used: every move whose worst case is within SLACK
#: of the best move's gets its exact value (SLACK covers c * RISK from any non-decisive
#: value up to a separated lead).
SLACK = 500
#: The model's line search runs first, until LINE_SHARE of the budget (no new depth after
#: LINE_SOFT); the worst-case search has the rest, to USE.
LINE_SHARE = 0.35
LINE_SOFT = 0.2


class SearchTimeout(Exception):
    pass


class Field:
    """A position as bitsets: free cells, heads as bit indices, the stride."""

    __slots__ = ("width", "height", "S", "free", "heads", "even")

    def __init__(self, rows, heads) -> None:  # type: ignore[no-untyped-def]
        height = len(rows)
        width = len(rows[0])
        S = width + 1
        table = str.maketrans({"-": "1", "#": "0", "r": "0", "g": "0"})
        free = 0
        for r, row in enumerate(rows):
            bits = row[:width].translate(table)[::-1]
            if "1" in bits:
                free |= int(bits, 2) << (r * S)
        heads = tuple(int(h[0]) * S + int(h[1]) for h in heads)
        for h in heads:
            if h >= 0:
                free &= ~(1 << h)
        self.width, self.height, self.S = width, height, S
        self.free = free
        self.heads = heads
        self.even = even_mask(width, height)


_EVEN: dict[tuple[int, int], int] = {}


def even_mask(width: int, height: int) -> int:
    """The cells with an even row + col, at the bitset layout's stride (cached per size)."""
    key = (width, height)
    mask = _EVEN.get(key)
    if mask is None:
        S = width + 1
        mask = 0
        for r in range(height):
            for c in range(width):
                if (r + c) % 2 == 0:
                    mask |= 1 << (r * S + c)
        _EVEN[key] = mask
    return mask


def _field_of(position, seat: int) -> Field:  # type: ignore[no-untyped-def]
    return Field(position.rows, position.heads)


# --- bitset helpers -----------------------------------------------------------------------


def flood(free: int, start: int, S: int) -> int:
    """Free cells reachable from cell `start` (itself not included)."""
    front = (1 << start) if start >= 0 else 0
    avail = free
    reach = 0
    while front:
        front = ((front << 1) | (front >> 1) | (front << S) | (front >> S)) & avail
        avail ^= front
        reach |= front
    return reach


def voronoi(free: int, a: int, b: int, S: int) -> tuple[int, int, int]:
    """Cells a reaches strictly first, cells b reaches strictly first, and tied cells."""
    fa = 1 << a
    fb = 1 << b
    avail = free
    ra = rb = tied = 0
    while fa or fb:
        na = ((fa << 1) | (fa >> 1) | (fa << S) | (fa >> S)) & avail
        nb = ((fb << 1) | (fb >> 1) | (fb << S) | (fb >> S)) & avail
        both = na & nb
        if both:
            na ^= both
            nb ^= both
            tied |= both
            avail &= ~both
        avail &= ~(na | nb)
        ra |= na
        rb |= nb
        fa, fb = na, nb
    return ra, rb, tied


def parity_bound(region: int, head: int, even: int) -> int:
    """Most cells a path from `head` can visit in `region`: it alternates colours."""
    total = region.bit_count()
    if (even >> head) & 1:
        same = (region & even).bit_count()
    else:
        same = total - (region & even).bit_count()
    other = total - same
    return 2 * same + 1 if other > same else 2 * other


def chamber_bound(region: int, head: int, S: int) -> int:
    """Cells fillable from `head` in `region` by the chamber tree: a depth-first search
    from the head finds cut cells (articulation points); the cells of a chamber count in
    full, but of the chambers hanging off it (behind a cut cell) only the best one."""
    return _chambers(region, head, S, 0, 1, 0)


def edge_weight(region: int, free: int, S: int) -> int:
    """Sum over the cells of `region` of their free neighbours (a1k0n's edge count: room
    to manoeuvre, which plain cell counts miss)."""
    return ((region & (free >> 1)).bit_count() + (region & (free << 1)).bit_count()
            + (region & (free >> S)).bit_count() + (region & (free << S)).bit_count())


def chamber_value(region: int, head: int, free: int, S: int, k_cell: int, k_edge: int) -> int:
    """chamber_bound with each cell weighing `k_cell + k_edge * (its free neighbours)`
    (a1k0n's evaluation of a player's territory while the players still meet)."""
    return _chambers(region, head, S, free, k_cell, k_edge)


#: Regions up to this many cells take the recursive chamber search (Python's recursion
#: limit is 1000 frames); larger ones the iterative one.
RECURSIVE_CELLS = 400
#: A cell's weight in `_chambers_recursive`, by its hex digit there (8 + free neighbours).
_DIGITS = "89abc"


def _chambers(region: int, head: int, S: int, free: int, k_cell: int, k_edge: int) -> int:
    """The chamber-tree value of `region` seen from `head` (see `_chambers_iterative`)."""
    if region.bit_count() <= RECURSIVE_CELLS:
        return _chambers_recursive(region, head, S, free, k_cell, k_edge)
    return _chambers_iterative(region, head, S, free, k_cell, k_edge)


def _chambers_recursive(region: int, head: int, S: int, free: int, k_cell: int, k_edge: int) -> int:
    """`_chambers_iterative`'s value, about twice as fast on small regions: the cells are
    first read into a string of hex digits, one per cell (8 for a cell of the region plus
    its number of free neighbours, 0..4 outside it), built with a few big-int operations
    (each bitset is written in binary and read back in base 16, so that four of them add
    up digit by digit without carries); the search then indexes that string and recurses."""
    n = max(region.bit_length(), head + 1) + 2 * S + 2  # padding: negative indices land in it
    fmt = f"0{n}b"
    mask = (1 << n) - 1
    if k_edge:
        total = (int(format(region, fmt), 16) << 3) + int(format((free >> 1) & mask, fmt), 16) \
            + int(format((free << 1) & mask, fmt), 16) + int(format((free >> S) & mask, fmt), 16) \
            + int(format((free << S) & mask, fmt), 16)
        code = format(total, f"0{n}x")[::-1]
    else:
        code = format(region, fmt)[::-1].replace("1", "8")
    weight = {digit: k_cell + k_edge * i for i, digit in enumerate(_DIGITS)}
    disc = [0] * n  # 0: not visited; discovery numbers start at 1
    disc[head] = 1
    counter = [1]

    def visit(v: int, parent: int) -> tuple[int, int, int]:
        """(low, own chamber's value, best chamber behind a cut cell) of v's subtree."""
        d = disc[v]
        low = d
        size = weight[code[v]] if v != head else 0
        ext = 0
        for w in (v - S, v + S, v - 1, v + 1):
            dw = disc[w]
            if dw:
                if dw < low and w != parent:
                    low = dw
            elif code[w] >= "8":
                counter[0] += 1
                disc[w] = counter[0]
                lw, sw, ew = visit(w, v)
                if lw < low:
                    low = lw
                if lw >= d:  # w's subtree is a chamber behind v
                    if sw + ew > ext:
                        ext = sw + ew
                else:
                    size += sw
                    if ew > ext:
                        ext = ew
        return low, size, ext

    _, size, ext = visit(head, -1)
    return size + ext


def _chambers_iterative(region: int, head: int, S: int, free: int, k_cell: int, k_edge: int) -> int:
    """Tarjan's depth-first search for cut cells over `region` from `head` (not in it),
    on flat lists indexed by cell (much faster than dicts). A child whose subtree cannot
    reach above its parent is a chamber behind a cut cell: the parent keeps only its best
    such chamber (`ext`); other subtrees merge into the parent's own chamber (`size`)."""
    n = max(region.bit_length(), head + 1) + S + 2
    disc = [0] * n  # 0: not visited; discovery numbers start at 1
    low = [0] * n
    size = [0] * n
    ext = [0] * n
    disc[head] = low[head] = 1
    counter = 2
    deltas = (-S, S, -1, 1)
    stack_v = [head]
    stack_p = [-1]
    stack_i = [0]
    while stack_v:
        v = stack_v[-1]
        i = stack_i[-1]
        if i < 4:
            stack_i[-1] = i + 1
            w = v + deltas[i]
            dw = disc[w] if 0 <= w < n else 0
            if dw:
                if w != stack_p[-1] and dw < low[v]:
                    low[v] = dw
            elif w >= 0 and (region >> w) & 1:
                disc[w] = low[w] = counter
                counter += 1
                if k_edge:
                    up = (free >> (w - S)) & 1 if w >= S else 0
                    size[w] = k_cell + k_edge * (up + ((free >> (w + S)) & 1)
                                                 + ((free >> (w - 1)) & 1) + ((free >> (w + 1)) & 1))
                else:
                    size[w] = k_cell
                stack_v.append(w)
                stack_p.append(v)
                stack_i.append(0)
        else:
            stack_v.pop()
            p = stack_p.pop()
            stack_i.pop()
            if p < 0:
                break
            lv = low[v]
            if lv < low[p]:
                low[p] = lv
            if lv >= disc[p]:
                value = size[v] + ext[v]
                if value > ext[p]:
                    ext[p] = value
            else:
                size[p] += size[v]
                if ext[v] > ext[p]:
                    ext[p] = ext[v]
    return size[head] + ext[head]


def fill_estimate(free: int, head: int, S: int, even: int) -> int:
    """Cells the player at `head` can still fill on its own (an optimistic estimate)."""
    region = flood(free, head, S)
    if not region:
        return 0
    bound = parity_bound(region, head, even)
    if bound <= 3:
        return bound
    chambers = chamber_bound(region, head, S)
    return chambers if chambers < bound else bound


def free_neighbours(free: int, cell: int, S: int) -> int:
    return sum(1 for d in (-S, S, -1, 1) if cell + d >= 0 and (free >> (cell + d)) & 1)


def _distance(x: int, y: int, S: int) -> int:
    """Manhattan distance between cells x and y."""
    dr = x // S - y // S
    dc = x % S - y % S
    return (dr if dr >= 0 else -dr) + (dc if dc >= 0 else -dc)


def utility(v: float) -> float:
    """A search value on -1 (lost) .. +1 (won), for expectations over predicted replies;
    a separated position at least SEP_UTILITY either way."""
    if v >= WIN - 1000:
        return 1.0
    if v <= -WIN + 1000:
        return -1.0
    size = abs(v)
    if size >= SEP:
        u = SEP_UTILITY + (1.0 - SEP_UTILITY) * (size - SEP) / (size - SEP + U_SCALE)
    else:
        u = size / (size + U_SCALE)
    return u if v >= 0 else -u


def safe_moves(free: int, head: int, S: int) -> list[int]:
    """Indices (0..3 into WORDS) of moves onto free cells."""
    out = []
    for i, d in enumerate((-S, S, -1, 1)):
        t = head + d
        if t >= 0 and (free >> t) & 1:
            out.append(i)
    return out


# --- easy ---------------------------------------------------------------------------------


def easy_move(field: Field, seat: int) -> int:
    """The direction with the longest straight run of free cells (first best in the seed's
    order LEFT, RIGHT, UP, DOWN)."""
    S = field.S
    free = field.free
    head = field.heads[seat]
    deltas = (-S, S, -1, 1)
    best, best_run = -1, 0
    for i in (2, 3, 0, 1):
        run = 0
        t = head + deltas[i]
        while t >= 0 and (free >> t) & 1:
            run += 1
            t += deltas[i]
        if run > best_run:
            best, best_run = i, run
    return best if best >= 0 else 0


# --- medium -------------------------------------------------------------------------------


def _separated(ra: int, rb: int, tied: int, S: int) -> bool:
    if tied:
        return False
    return not (((ra << 1) | (ra >> 1) | (ra << S) | (ra >> S)) & rb)


def medium_move(field: Field, seat: int) -> int:
    return medium_index(field.free, field.S, field.heads[seat], field.heads[1 - seat])


def medium_index(free: int, S: int, me: int, opp: int) -> int:
    """The medium bot's move for the head at `me` (index into WORDS)."""
    deltas = (-S, S, -1, 1)
    mine = safe_moves(free, me, S)
    if not mine:
        return 0
    ra, rb, tied = voronoi(free, me, opp, S)
    if _separated(ra, rb, tied, S):
        def space(i: int) -> tuple[int, int]:
            t = me + deltas[i]
            rest = free & ~(1 << t)
            return (flood(rest, t, S).bit_count(), -free_neighbours(rest, t, S))

        return max(mine, key=space)
    best, best_value = mine[0], None
    for i, value in medium_scores(free, S, me, opp):
        if best_value is None or value > best_value:
            best, best_value = i, value
    return best


def medium_scores(free: int, S: int, me: int, opp: int, meet: float = -MEDIUM_CONTEMPT) -> list[tuple[int, float]]:
    """The medium bot's score of each of its moves onto a free cell (index into WORDS):
    its worst reply plus MEDIUM_MEAN times its average reply, in cells of Voronoi lead,
    a head-on meeting counting `meet` (WIN when the opponent has no move)."""
    deltas = (-S, S, -1, 1)
    theirs = safe_moves(free, opp, S)
    out = []
    for i in safe_moves(free, me, S):
        t = me + deltas[i]
        worst = None
        total = 0
        for j in theirs:
            u = opp + deltas[j]
            if u == t:
                value = meet
            else:
                rest = free & ~(1 << t) & ~(1 << u)
                a, b, _ = voronoi(rest, t, u, S)
                value = a.bit_count() - b.bit_count()
            total += value
            if worst is None or value < worst:
                worst = value
        if worst is None:
            out.append((i, float(WIN)))
        else:
            out.append((i, worst + MEDIUM_MEAN * total / len(theirs)))
    return out


# --- simultaneous moves: small zero-sum matrix games ---------------------------------------


def _solve_linear(rows: list[list[float]]) -> list[float] | None:
    """Gaussian elimination on an augmented square system; None when singular."""
    n = len(rows)
    m = [list(r) for r in rows]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-9:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        inv = 1.0 / m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] * inv
                mr, mc = m[r], m[col]
                for k in range(col, n + 1):
                    mr[k] -= f * mc[k]
    return [m[r][n] / m[r][r] for r in range(n)]


def solve_matrix(M: list[list[int]]) -> tuple[float, list[float]]:
    """Value and an optimal mixed strategy of the row player (maximiser) of the zero-sum
    game M (at most 3x3 here: each player's moves onto free cells). Pure saddle points
    first, then supports of size 2 and 3 by the indifference equations."""
    m, n = len(M), len(M[0])
    lower = max(min(row) for row in M)
    upper = min(max(M[i][j] for i in range(m)) for j in range(n))
    if lower >= upper:
        best = max(range(m), key=lambda i: min(M[i]))
        return float(lower), [1.0 if i == best else 0.0 for i in range(m)]
    scale = float(max(abs(x) for row in M for x in row)) or 1.0
    A = [[x / scale for x in row] for row in M]
    eps = 1e-9
    best_v, best_p = None, None
    for k in range(2, min(m, n) + 1):
        for R in _subsets(m, k):
            for C in _subsets(n, k):
                # p over R: sum_i p_i A[i][c] = v for c in C, sum p = 1  (unknowns p..., v)
                eqs = [[A[i][c] for i in R] + [-1.0, 0.0] for c in C] + [[1.0] * k + [0.0, 1.0]]
                sol = _solve_linear(eqs)
                if sol is None or min(sol[:k]) < -eps:
                    continue
                v = sol[k]
                p = [0.0] * m
                for idx, i in enumerate(R):
                    p[i] = max(0.0, sol[idx])
                if any(sum(p[i] * A[i][j] for i in range(m)) < v - 1e-7 for j in range(n)):
                    continue
                # the column player's strategy must make the rows outside R no better
                eqs = [[A[r][c] for c in C] + [-1.0, 0.0] for r in R] + [[1.0] * k + [0.0, 1.0]]
                sol_q = _solve_linear(eqs)
                if sol_q is None or min(sol_q[:k]) < -eps:
                    continue
                q = [0.0] * n
                for idx, c in enumerate(C):
                    q[c] = sol_q[idx]
                if any(sum(A[i][j] * q[j] for j in range(n)) > v + 1e-7 for i in range(m)):
                    continue
                if best_v is None or v > best_v:
                    best_v, best_p = v, p
        if best_v is not None:
            break
    if best_v is None:  # degenerate: fall back on the pure maximin
        best = max(range(m), key=lambda i: min(M[i]))
        return float(lower), [1.0 if i == best else 0.0 for i in range(m)]
    return best_v * scale, best_p


def _pick(mix: list[float], free: int, a: int, b: int) -> int:
    """An index drawn from `mix` (weights under 5% dropped) by a number fixed by the position."""
    weights = [w if w >= 0.05 else 0.0 for w in mix]
    total = sum(weights)
    if total <= 0:
        return max(range(len(mix)), key=lambda i: mix[i])
    x = (hash((free, a, b)) & 0xFFFFFFFF) / 4294967296.0 * total
    for i, w in enumerate(weights):
        if w > 0.0:
            if x < w:
                return i
            x -= w
    return max(range(len(mix)), key=lambda i: weights[i])


def _subsets(n: int, k: int) -> list[tuple[int, ...]]:
    return [c for c in _SUBSETS if len(c) == k and c[-1] < n]


_SUBSETS = ((0, 1), (0, 2), (1, 2), (0, 1, 2))


# --- hard ---------------------------------------------------------------------------------


def _hopeful(M: list[list[int]], best: int) -> int:
    """`Search.hope`'s pick among the rows of M (our moves against theirs), or `best`:
    values squashed to -1 (lost) .. +1 (won) with a draw at -DRAW_HOPE, each row scored half by
    its worst case, half by its average; equal scores go to the better plain average."""
    span = CONTEMPT / DRAW_HOPE

    def squash(v: int) -> float:
        # A draw barely above a forced loss: the search calls a line lost when a perfect
        # opponent wins it, and a fallible one often does not.
        if v > -CONTEMPT:
            return min(1.0, v / span)
        return max(-1.0, -DRAW_HOPE + (1 - DRAW_HOPE) * (v + CONTEMPT) / WIN)

    def chances(k: int) -> tuple[float, float]:
        # Ties (the squash is flat beyond a lead of about ten cells) go to the better
        # plain average: in a side-by-side race the row that takes the cell between the
        # heads gains a cell over running beside the opponent, and only that tells them apart.
        row = [squash(v) for v in M[k]]
        return 0.5 * min(row) + 0.5 * sum(row) / len(row), sum(M[k]) / len(M[k])

    pick = max(range(len(M)), key=chances)
    return pick if chances(pick) > chances(best) else best


def _matrix_move(M: list[list[int]], moves: list[int], targets: list[int], theirs: list[int], free: int, a: int, b: int) -> tuple[int, float]:
    """The root move from the matrix game M (rows: our `moves` onto `targets`, columns:
    their moves onto `theirs`), as `Search.sim_root` picks it: drawn from the optimal
    mix by a number fixed by the position; when the value is a draw or worse, the
    hopeful pick; else out of a cell the opponent can enter too when a move elsewhere
    holds against every reply (no avoidable head-on draws). Returns (move, value)."""
    value, mix = solve_matrix(M)
    k = _pick(mix, free, a, b)
    if value <= -CONTEMPT:
        return moves[_hopeful(M, k)], value
    return moves[_kept_apart(M, k, targets, theirs)], value


def _kept_apart(M: list[list[int]], k: int, targets: list[int], theirs: list[int]) -> int:
    """Row k, unless its cell is one the opponent can enter too: a bot that is not losing
    keeps out of head-on draws, so then the best row (by its worst reply) onto a cell the
    opponent cannot reach, if that worst reply is better than -AVOID."""
    if targets[k] in theirs:
        apart = [i for i, t in enumerate(targets) if t not in theirs]
        if apart:
            i = max(apart, key=lambda i: min(M[i]))
            if min(M[i]) > -AVOID:
                return i
    return k


class Search:
    def __init__(self, field: Field, deadline: float, control) -> None:  # type: ignore[no-untyped-def]
        self.S = field.S
        self.even = field.even
        self.deadline = deadline
        self.cancel = getattr(control, "cancel", None) if control is not None else None
        self.nodes = 0
        self.depth_done = 0
        #: The value of the move answered (None when it was forced: one safe move or none).
        self.score: int | None = None
        #: Best move found at each node by the previous iteration, tried first in the next.
        self.best_mine: dict[tuple[int, int, int], int] = {}
        self.best_theirs: dict[tuple[int, int, int, int], int] = {}
        self.spaces: dict[tuple[int, int], int] = {}
        #: Worst-case value of each root move (index into WORDS) in the last finished
        #: iteration, for the moves where it is exact (see `root`'s slack).
        self.rows: dict[int, int] = {}
        #: Set by `fill` when a line reached the search's depth.
        self.horizon = False

    def tick(self) -> None:
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise SearchTimeout
        if self.cancel is not None and not self.nodes & 63 and self.cancel.is_set():
            raise SearchTimeout

    # midgame -----------------------------------------------------------------------------
    def evaluate(self, free: int, a: int, b: int) -> int:
        S = self.S
        ra, rb, tied = voronoi(free, a, b, S)
        if _separated(ra, rb, tied, S):
            lead = self.space(free, a) - self.space(free, b)
            return K_NODES * lead + (SEP if lead > 0 else -SEP if lead < 0 else 0)
        if ra.bit_count() + rb.bit_count() <= CHAMBER_CELLS:
            va = chamber_value(ra, a, free, S, K_CELL, K_EDGES)
            vb = chamber_value(rb, b, free, S, K_CELL, K_EDGES)
        else:
            va = K_CELL * ra.bit_count() + K_EDGES * edge_weight(ra, free, S)
            vb = K_CELL * rb.bit_count() + K_EDGES * edge_weight(rb, free, S)
        return K_NODES * (va - vb) // UNIT

    def space(self, free: int, head: int) -> int:
        """fill_estimate, cached by the head's region (one side's region often recurs)."""
        region = flood(free, head, self.S)
        key = (region, head)
        value = self.spaces.get(key)
        if value is None:
            if not region:
                value = 0
            else:
                value = parity_bound(region, head, self.even)
                if value > 3:
                    chambers = chamber_bound(region, head, self.S)
                    if chambers < value:
                        value = chambers
            self.spaces[key] = value
        return value

    def max_node(self, free: int, a: int, b: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        """Value for the player at `a` to move (paranoid: `b` answers knowing the move)."""
        self.tick()
        S = self.S
        deltas = (-S, S, -1, 1)
        mine = [a + d for d in deltas if a + d >= 0 and (free >> (a + d)) & 1]
        theirs = [b + d for d in deltas if b + d >= 0 and (free >> (b + d)) & 1]
        if not mine:
            return -CONTEMPT if not theirs else -WIN + ply
        if not theirs:
            return WIN - ply
        if self.close(a, b):
            return self.sim_node(free, a, b, mine, theirs, depth, ply)[0]
        key = (free, a, b)
        hint = self.best_mine.get(key)
        if hint is not None and hint != mine[0] and hint in mine:
            mine.remove(hint)
            mine.insert(0, hint)
        best = -WIN - 1
        best_t = mine[0]
        for t in mine:
            value = self.min_node(free, a, b, t, theirs, depth, ply, max(alpha, best), beta)
            if value > best:
                best = value
                best_t = t
                if best >= beta:
                    break
        self.best_mine[key] = best_t
        return best

    def close(self, a: int, b: int) -> bool:
        """Heads near enough (SIM_RANGE) for the simultaneous moves to matter: a head-on
        meeting in one cell this step."""
        S = self.S
        dr = a // S - b // S
        dc = a % S - b % S
        return (dr if dr >= 0 else -dr) + (dc if dc >= 0 else -dc) <= SIM_RANGE

    def sim_node(self, free: int, a: int, b: int, mine: list[int], theirs: list[int], depth: int, ply: int) -> tuple[float, list[float], list[list[int]]]:
        """The simultaneous step as a matrix game: every pair of moves searched (a head-on
        meeting is a draw), then its value with mixed strategies, neither player knowing
        the other's move. Returns the value, the row player's mix and the matrix."""
        M = []
        for t in mine:
            row = []
            for u in theirs:
                if u == t:
                    value = -CONTEMPT
                else:
                    rest = free & ~(1 << t) & ~(1 << u)
                    if depth <= 1:
                        self.tick()
                        value = self.evaluate(rest, t, u)
                    else:
                        value = self.max_node(rest, t, u, depth - 1, ply + 1, -WIN - 1, WIN + 1)
                row.append(value)
            M.append(row)
        v, p = solve_matrix(M)
        return int(round(v)), p, M

    def min_node(self, free: int, a: int, b: int, t: int, theirs: list[int], depth: int, ply: int, alpha: int, beta: int) -> int:
        worst = WIN + 1
        key = (free, a, b, t)
        hint = self.best_theirs.get(key)
        if hint is not None and hint != theirs[0] and hint in theirs:
            theirs = [hint] + [u for u in theirs if u != hint]
        worst_u = theirs[0]
        for u in theirs:
            if u == t:
                value = -CONTEMPT  # head-on in the same cell: a draw
            else:
                rest = free & ~(1 << t) & ~(1 << u)
                if depth <= 1:
                    self.tick()
                    value = self.evaluate(rest, t, u)
                else:
                    value = self.max_node(rest, t, u, depth - 1, ply + 1, alpha, min(beta, worst))
            if value < worst:
                worst = value
                worst_u = u
                if worst <= alpha:
                    break
        self.best_theirs[key] = worst_u
        return worst

    def root(self, free: int, a: int, b: int, soft: float, slack: int = 0) -> int:
        """The best move by iterative deepening. With `slack` > 0 each move is searched
        against the best so far less `slack`, so `rows` gets the exact value of every move
        within `slack` of the best (the others fail low and are left out)."""
        S = self.S
        deltas = (-S, S, -1, 1)
        moves = safe_moves(free, a, S)
        theirs = [b + d for d in deltas if b + d >= 0 and (free >> (b + d)) & 1]
        if len(moves) <= 1:
            return moves[0] if moves else 0
        if not theirs:
            # The opponent crashes whatever it does; any safe move wins.
            self.score = WIN
            return moves[0]
        # Toward the opponent first, so that ties go to the move that contests space and
        # both seats play alike (the fixed UP DOWN LEFT RIGHT order would send red, on
        # the left, to its wall on a tie and green to the centre).
        moves.sort(key=lambda i: _distance(a + deltas[i], b, S))
        order = list(moves)
        best = order[0]
        depth = 1
        limit = (free.bit_count() + 2) // 2 + 1
        if self.close(a, b):
            return self.sim_root(free, a, b, moves, theirs, soft, limit)
        while depth <= limit:
            scores: dict[int, int] = {}
            alpha = -WIN - 1
            try:
                for i in order:
                    value = self.min_node(free, a, b, a + deltas[i], theirs, depth, 0, alpha - slack, WIN + 1)
                    scores[i] = value
                    if value > alpha:
                        alpha = value
            except SearchTimeout:
                # A partly searched iteration still improves on the last if its best move
                # was searched first (it was the previous best) or beat it.
                if scores:
                    partial = max(scores, key=lambda k: scores[k])
                    if partial == order[0] or scores[partial] > scores.get(order[0], -WIN - 1):
                        best = partial
                        self.score = scores[partial]
                break
            order.sort(key=lambda k: -scores[k])
            best = order[0]
            self.score = scores[best]
            self.depth_done = depth
            self.rows = {k: v for k, v in scores.items() if k == best or v > scores[best] - slack}
            if abs(scores[best]) >= WIN - 1000 or time.perf_counter() > soft:
                break
            depth += 1
        if self.score is not None and self.score <= -CONTEMPT:
            best = self.hope(free, a, b, moves, theirs, best)
        return best

    def sim_root(self, free: int, a: int, b: int, moves: list[int], theirs: list[int], soft: float, limit: int) -> int:
        """The root as a matrix game (heads close): iterative deepening on the matrix, then
        a move drawn from the optimal mix, with a pseudo-random number fixed by the
        position (so the bot stays deterministic)."""
        deltas = (-self.S, self.S, -1, 1)
        targets = [a + deltas[i] for i in moves]
        k = 0
        depth = 1
        matrix: list[list[int]] | None = None
        while depth <= limit:
            try:
                value, mix, M = self.sim_node(free, a, b, targets, theirs, depth, 0)
            except SearchTimeout:
                break
            k = _pick(mix, free, a, b)
            matrix = M
            self.rows = {i: min(row) for i, row in zip(moves, M)}
            self.score = value
            self.depth_done = depth
            if abs(value) >= WIN - 1000 or time.perf_counter() > soft:
                break
            depth += 1
        if self.score is not None and self.score <= -CONTEMPT:
            return self.hope(free, a, b, moves, theirs, moves[k])
        if matrix is not None:
            k = _kept_apart(matrix, k, targets, theirs)
        return moves[k]

    def hope(self, free: int, a: int, b: int, moves: list[int], theirs: list[int], best: int) -> int:
        """When the best the search promises is a draw or worse (it assumes the opponent
        plays perfectly), pick the move with the best chances against a fallible one:
        every pair of moves searched a little shallower, values squashed to -1 (lost) ..
        +1 (won) with a draw at -DRAW_HOPE (barely better than a loss: the bench counts wins),
        and each move scored half by its worst case, half by its average over the
        opponent's moves."""
        deltas = (-self.S, self.S, -1, 1)
        targets = [a + deltas[i] for i in moves]
        depth = max(1, self.depth_done - 1)
        try:
            _, _, M = self.sim_node(free, a, b, targets, theirs, depth, 0)
        except SearchTimeout:
            return best
        return moves[_hopeful(M, moves.index(best))]

    # endgame -----------------------------------------------------------------------------
    def fill(self, free: int, a: int, depth: int, need: int = -1) -> int:
        """Most cells fillable from `a` (not free): every line searched `depth` moves deep,
        then the region's bound (`space`). A line whose bound is at most `need` cannot
        matter to the caller and is not searched: its bound is returned. Sets `horizon`
        when a line reached the depth (else the value is exact)."""
        self.tick()
        S = self.S
        bound = self.space(free, a)
        if bound <= need or bound <= 1:
            return bound
        if depth <= 0:
            self.horizon = True
            return bound
        best = 0
        nexts = [a + d for d in (-S, S, -1, 1) if a + d >= 0 and (free >> (a + d)) & 1]
        if len(nexts) > 1:  # Warnsdorff: the cell with the fewest ways on first
            nexts.sort(key=lambda t: free_neighbours(free, t, S))
        for t in nexts:
            value = 1 + self.fill(free & ~(1 << t), t, depth - 1, max(best, need) - 1)
            if value > best:
                best = value
                if best >= bound:
                    break
        return best

    def endgame(self, free: int, a: int, soft: float) -> int:
        """The separated root: iterative deepening of `fill` until a whole iteration met
        no horizon (it saw every line's end: the fill is exact) or the soft limit."""
        S = self.S
        deltas = (-S, S, -1, 1)
        moves = safe_moves(free, a, S)
        if len(moves) <= 1:
            return moves[0] if moves else 0

        def hug(i: int) -> int:
            t = a + deltas[i]
            return free_neighbours(free & ~(1 << t), t, S)

        # Ties go to the move that hugs walls (fewest free neighbours after it).
        order = sorted(moves, key=hug)
        best = order[0]
        depth = 0
        while depth <= free.bit_count():
            scores: dict[int, int] = {}
            self.horizon = False
            try:
                top = -1
                for i in order:
                    t = a + deltas[i]
                    scores[i] = 1 + self.fill(free & ~(1 << t), t, depth, top - 1)
                    top = max(top, scores[i])
            except SearchTimeout:
                if scores:
                    partial = max(order, key=lambda k: scores.get(k, -1))
                    if partial == order[0] or scores[partial] > scores.get(order[0], -1):
                        best = partial
                        self.score = scores[partial]
                break
            order.sort(key=lambda k: -scores[k])  # stable: hugging breaks ties
            best = order[0]
            self.score = scores[best]
            self.depth_done = depth
            if not self.horizon or time.perf_counter() > soft:
                break
            depth += 1
        return best


def hard_move(field: Field, seat: int, time_ms: float, control=None, start: float | None = None, memory=None) -> int:  # type: ignore[no-untyped-def]
    return _hard(field, seat, time_ms, control, start, memory)[0]


def _hard(field: Field, seat: int, time_ms: float, control=None, start: float | None = None, memory=None) -> tuple[int, Search | KernelSearch | None, str]:  # type: ignore[no-untyped-def]
    """The hard bot's move, the search that found it (None when the move was forced) and
    the search's mode: "forced", "territory" (the players still meet) or "endgame".

    `memory` (an opponent_model.GameMemory, or None): what the bot learnt of its opponent
    in this game. When its model is confident (MODEL_MIN) the model's line search runs
    first, then the worst-case search with a root window (SLACK), and `_model_pick`
    weighs the two; `_no_needless_head_on` has the last word either way."""
    begin = time.perf_counter() if start is None else start
    budget = max(0.001, time_ms / 1000.0)
    deadline = begin + budget * USE
    soft = begin + budget * START_LIMIT
    S, free = field.S, field.free
    me, opp = field.heads[seat], field.heads[1 - seat]
    mine = safe_moves(free, me, S)
    if not mine:
        return 0, None, "forced"
    if len(mine) == 1:
        return mine[0], None, "forced"
    ra, rb, tied = voronoi(free, me, opp, S)
    if _separated(ra, rb, tied, S):
        return _worst_case(field, seat, deadline, soft, control, 0)[:3]
    line: dict[int, float] = {}
    confidence = memory.model.confidence() if memory is not None else 0.0
    if confidence >= MODEL_MIN and safe_moves(free, opp, S):
        line = memory.line_values(field, seat, begin + budget * LINE_SHARE, begin + budget * LINE_SOFT, control)
    move, search, mode, rows = _worst_case(field, seat, deadline, soft, control, SLACK if line else 0)
    contested = {i for i in mine if _distance(me + (-S, S, -1, 1)[i], opp, S) == 1}
    if line and rows and mode == "territory":
        move = _model_pick(move, rows, line, confidence)
    return _no_needless_head_on(move, rows, line, contested), search, mode


def _worst_case(field: Field, seat: int, deadline: float, soft: float, control, slack: int) -> tuple[int, Search | KernelSearch | None, str, dict[int, int]]:  # type: ignore[no-untyped-def]
    """The worst-case search (the C kernel's when it is built, else Python's): its move,
    the search, the mode, and the exact worst-case value of each move it could rate
    (every move when the heads are close; else those within `slack` of the best)."""
    lib = kernel.get()
    if lib is not None:
        found = _kernel_move(lib, field, seat, deadline, soft, control, slack)
        if found is not None:
            return found
    S, free = field.S, field.free
    me, opp = field.heads[seat], field.heads[1 - seat]
    search = Search(field, deadline, control)
    ra, rb, tied = voronoi(free, me, opp, S)
    try:
        if _separated(ra, rb, tied, S):
            return search.endgame(free, me, soft), search, "endgame", {}
        move = search.root(free, me, opp, soft, slack)
        return move, search, "territory", search.rows
    except SearchTimeout:  # pragma: no cover - the roots catch their own timeouts
        return safe_moves(free, me, S)[0], search, "territory", {}


def _model_pick(chosen: int, rows: dict[int, int], line: dict[int, float], confidence: float) -> int:
    """The move against the opponent model: among the moves whose worst case (`rows`,
    search values) gives up at most confidence * RISK of utility next to the best one's,
    the best by confidence * (utility against the model, `line`) + (1 - confidence) *
    (utility of the worst case). When the best worst case is no better than a draw, any
    move, by its utility against the model alone (a draw is no win either: as `hope`,
    play for the opponent's mistakes, here the ones the model expects); a move the
    worst case calls lost only from confidence MODEL_SURE on, and one it calls a
    separated loss, when another move's worst case is better, only from SEP_BET on. Ties
    go to the better worst case (the model does not endorse a gamble of the matrix
    game's mix that it cannot tell from a safer move). The search's `chosen` move stays
    whenever its worst case is a proven win, and against a move the worst case rates
    lower unless the model scores that one BET_MARGIN higher."""
    if chosen not in rows or chosen not in line or rows[chosen] >= WIN - 1000:
        return chosen
    best = max(rows.values())
    top = utility(best)

    def score(i: int) -> float:
        if best <= -CONTEMPT:
            return line[i]
        return confidence * line[i] + (1.0 - confidence) * utility(rows[i])

    allowed = [i for i in rows if i in line and (rows[i] > -WIN + 1000 or confidence >= MODEL_SURE)
               and (rows[i] > -SEP or best <= -SEP or confidence >= SEP_BET)
               and (best <= -CONTEMPT or confidence >= MODEL_SURE or utility(rows[i]) >= top - confidence * RISK)]
    if not allowed:
        return chosen
    pick = max(allowed, key=lambda i: (score(i), rows[i]))
    if chosen not in allowed or rows[pick] > rows[chosen]:
        return pick
    margin = BET_MARGIN if rows[pick] < rows[chosen] else 1e-9
    return pick if score(pick) > score(chosen) + margin else chosen


def _no_needless_head_on(move: int, rows: dict[int, int], line: dict[int, float], contested: set[int]) -> int:
    """`move`, unless it enters a cell the opponent can enter too (a head-on draw if it
    does) while a move elsewhere that is not a proven loss is no worse by the worst case
    (`rows`) and, when there is one, by the opponent model (`line`): then the best such."""
    if move not in contested or move not in rows:
        return move
    better = [i for i in rows if i not in contested and rows[i] > -WIN + 1000 and rows[i] >= rows[move]
              and (not line or line.get(i, -2.0) >= line.get(move, -2.0))]
    if not better:
        return move
    return max(better, key=lambda i: (line.get(i, 0.0), rows[i]))


class KernelSearch:
    """What the C kernel's search found, read like `Search` by `analyse`."""

    __slots__ = ("score", "depth_done", "nodes")

    def __init__(self, score: int, depth_done: int, nodes: int) -> None:
        self.score = score
        self.depth_done = depth_done
        self.nodes = nodes


_MODES = ("forced", "territory", "endgame")
_CELLS = bytes.maketrans(b"01", b"\x00\x01")


def kernel_cells(field: Field) -> bytes:
    """The field's free cells, one byte per cell, rows `S` wide (the padding column is
    never free, so the kernel needs no special case for it)."""
    n = field.height * field.S
    return format(field.free, f"0{n}b")[::-1].encode().translate(_CELLS)


def _kernel_move(lib, field: Field, seat: int, deadline: float, soft: float, control, slack: int = 0) -> tuple[int, KernelSearch, str, dict[int, int]] | None:  # type: ignore[no-untyped-def]
    """The hard bot's move searched by the C kernel with the worst-case values of the
    moves it rated (as `_worst_case`), or None when it refuses the input (then the Python
    search answers). A cancel event set during the search stops it."""
    import ctypes

    cancel = getattr(control, "cancel", None) if control is not None else None
    flag = ctypes.c_int(0)
    now = time.perf_counter()
    if cancel is not None:
        if cancel.is_set():
            flag.value = 1
        else:
            import threading

            def watch() -> None:
                if cancel.wait(max(0.0, deadline - now)):
                    flag.value = 1

            threading.Thread(target=watch, daemon=True).start()
    info = (ctypes.c_int * 4)()
    me, opp = field.heads[seat], field.heads[1 - seat]
    S = field.S
    if _distance(me, opp, S) <= SIM_RANGE:
        return _kernel_matrix_move(lib, field, me, opp, deadline, soft, flag, info)
    scores = (ctypes.c_int * 4)()
    move = lib.tron_root_scores(field.S, field.height, kernel_cells(field), me, opp, int((deadline - now) * 1e6),
                                int((soft - now) * 1e6), ctypes.byref(flag), slack, scores, info)
    if not 0 <= move < 4:
        return None
    best = scores[move]
    rows = {k: scores[k] for k in range(4) if scores[k] > -WIN - 2 and (k == move or scores[k] > best - slack)}
    return move, KernelSearch(info[2], info[0], info[1]), _MODES[info[3]], rows


def _kernel_matrix_move(lib, field: Field, me: int, opp: int, deadline: float, soft: float, flag, info) -> tuple[int, KernelSearch, str, dict[int, int]] | None:  # type: ignore[no-untyped-def]
    """Heads close (a head-on meeting possible this step): the kernel searches every pair
    of moves, and the move comes from that matrix game as in `Search.sim_root`."""
    import ctypes

    S, free = field.S, field.free
    deltas = (-S, S, -1, 1)
    moves = safe_moves(free, me, S)
    theirs_k = safe_moves(free, opp, S)
    if not theirs_k:
        return None
    cells = (ctypes.c_int * 16)()
    now = time.perf_counter()
    done = lib.tron_root_matrix(S, field.height, kernel_cells(field), me, opp, int((deadline - now) * 1e6),
                                int((soft - now) * 1e6), ctypes.byref(flag), cells, info)
    if done != 0 or info[0] == 0:
        return None if done != 0 else (moves[0], KernelSearch(0, 0, info[1]), "territory", {})
    M = [[cells[4 * i + j] for j in theirs_k] for i in moves]
    targets = [me + deltas[i] for i in moves]
    theirs = [opp + deltas[j] for j in theirs_k]
    move, value = _matrix_move(M, moves, targets, theirs, free, me, opp)
    rows = {i: min(row) for i, row in zip(moves, M)}
    return move, KernelSearch(int(round(value)), info[0], info[1]), "territory", rows


# --- the public interface -----------------------------------------------------------------


def choose_index(position, seat: int, time_ms: float = DEFAULT_TIME_MS, control=None, level: str = "hard", start: float | None = None, memory=None) -> int:  # type: ignore[no-untyped-def]
    """The move for `seat` as an index into WORDS (UP, DOWN, LEFT, RIGHT).

    `position` is anything with `rows` (HackerRank characters) and `heads` ((row, col) of
    red and green): a TronState or a parsed protocol state. Heads come from `heads`
    whatever the grid letters say. Always a move onto a free cell when one exists.
    `memory`: the hard bot's opponent_model.GameMemory for this game, which has seen
    `position` (without one it meets every opponent with its worst-case search).
    """
    field = _field_of(position, seat)
    if level == "easy":
        return easy_move(field, seat)
    if level == "medium":
        return medium_move(field, seat)
    if level == "hard":
        return hard_move(field, seat, time_ms, control, start, memory)
    raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")


def analyse(position, seat: int, time_ms: float = DEFAULT_TIME_MS, control=None) -> dict:  # type: ignore[no-untyped-def]
    """The hard bot's move with what its search found, for `tui-grid solve tron`:
    `move` (UP DOWN LEFT RIGHT), `score` (the search value for `seat`: positive is good;
    in "territory" mode 10 per cell of Voronoi lead, once separated 10 per cell of
    fillable-space lead plus or minus 500, about +-2**20 for a forced win or loss,
    -CONTEMPT for a draw; in "endgame" mode the cells it can still fill; null when the move is
    forced), `depth`
    (plies of the deepest finished iteration), `nodes` and `mode`."""
    field = _field_of(position, seat)
    index, search, mode = _hard(field, seat, time_ms, control)
    safe = safe_moves(field.free, field.heads[seat], field.S)
    return {
        "move": WORDS[index],
        "score": None if search is None else search.score,
        "depth": 0 if search is None else search.depth_done,
        "nodes": 0 if search is None else search.nodes,
        "mode": mode if safe else "crash",
    }


def choose_move(position, seat: int, time_ms: float | None = DEFAULT_TIME_MS, control=None, level: str = "hard", memory=None):  # type: ignore[no-untyped-def]
    """The move for `seat` as a Direction; `time_ms` None means the default budget."""
    from tui_grid.core.geometry import Direction

    index = choose_index(position, seat, DEFAULT_TIME_MS if time_ms is None else time_ms, control, level, memory=memory)
    return (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)[index]
