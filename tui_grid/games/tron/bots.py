"""Tron bots: easy, medium and hard, on int bitsets.

The board is an int with one bit per free cell at index `row * S + col`, where the stride
`S = width + 1` leaves a padding column that is never free, so shifting a set of cells by
1 or S moves it left/right/up/down without wrapping. A flood fill step is four shifts
and an AND, whatever the board size.

* easy: the seed article's open-space rule: the direction with the longest straight run
  of free cells (never a crash when a free neighbour exists).
* medium: one move of paranoid look-ahead (its move, then the opponent's best reply, with
  head-on meetings scored as draws), scored by Voronoi territory: the cells it reaches
  strictly before the opponent minus those the opponent reaches first. Once the players
  are separated it keeps the most reachable space, hugging walls on ties.
* hard: iterative-deepening alpha-beta over simultaneous moves, paranoid (it picks the
  move whose worst opponent reply is best; the reply may meet it head-on, a draw, or take
  the cell it was going to take). Leaves are scored by Voronoi territory (cells reached
  first; an edge-count term after a1k0n's 2010 Google AI Challenge bot is there but
  weighted 0, as the bench found no gain at this depth), draws by a contempt value below
  an even position (it plays to win), and separated leaves by each side's fillable
  space, estimated with a checkerboard parity bound and the chamber tree of articulation
  points (fill your chamber, then enter only one of the chambers behind a cut cell). Once
  the players are separated at the root it switches to a space-filling depth-first search
  that maximises the cells it can still fill, with that estimate at the leaves and as a
  bound. The clock is checked at every node; the search stops at a safety margin inside
  the budget and answers the deepest finished iteration.

Stdlib only, so `tui-grid tron bot` starts fast; `make_bot` imports the core lazily.
"""

from __future__ import annotations

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tui_grid.core.agents import Agent
    from tui_grid.core.control import SearchControl

WORDS = ("UP", "DOWN", "LEFT", "RIGHT")
LEVELS = ("easy", "medium", "hard")
DEFAULT_TIME_MS = 100

WIN = 1 << 40
#: Score per cell of fillable-space difference once the players are separated.
SEP = 4096
#: Voronoi weights: cells and edges inside each side's territory. (a1k0n weighted edges
#: heavily; with this search depth the bench found no gain from them, so they are off.)
K_NODES = 10
K_EDGES = 0
#: Fraction of the budget the search may use, and the point after which no new depth starts.
USE = 0.55
START_LIMIT = 0.28
#: What a draw is worth to the hard bot (below an even position: it plays to win).
CONTEMPT = 4000


class _Timeout(Exception):
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
        self.even = _even_mask(width, height)


_EVEN: dict[tuple[int, int], int] = {}


def _even_mask(width: int, height: int) -> int:
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
    deltas = (-S, S, -1, 1)
    disc = {head: 0}
    low = {head: 0}
    parent = {head: -1}
    size = {head: 0}
    ext = {head: 0}
    counter = 1
    stack = [head]
    index = [0]
    while stack:
        v = stack[-1]
        i = index[-1]
        if i < 4:
            index[-1] = i + 1
            w = v + deltas[i]
            if w in disc:
                if w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
            elif w >= 0 and (region >> w) & 1:
                disc[w] = low[w] = counter
                counter += 1
                parent[w] = v
                size[w] = 1
                ext[w] = 0
                stack.append(w)
                index.append(0)
        else:
            stack.pop()
            index.pop()
            p = parent[v]
            if p < 0 and v == head:
                break
            if low[v] < low[p]:
                low[p] = low[v]
            if low[v] >= disc[p]:
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


def _free_neighbours(free: int, cell: int, S: int) -> int:
    return sum(1 for d in (-S, S, -1, 1) if cell + d >= 0 and (free >> (cell + d)) & 1)


def _safe(free: int, head: int, S: int) -> list[int]:
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
    S, free = field.S, field.free
    me, opp = field.heads[seat], field.heads[1 - seat]
    deltas = (-S, S, -1, 1)
    mine = _safe(free, me, S)
    if not mine:
        return 0
    ra, rb, tied = voronoi(free, me, opp, S)
    if _separated(ra, rb, tied, S):
        def space(i: int) -> tuple[int, int]:
            t = me + deltas[i]
            rest = free & ~(1 << t)
            return (flood(rest, t, S).bit_count(), -_free_neighbours(rest, t, S))

        return max(mine, key=space)
    theirs = _safe(free, opp, S)
    best, best_value = mine[0], None
    for i in mine:
        t = me + deltas[i]
        worst = None
        for j in theirs:
            u = opp + deltas[j]
            if u == t:
                value = 0
            else:
                rest = free & ~(1 << t) & ~(1 << u)
                a, b, _ = voronoi(rest, t, u, S)
                value = a.bit_count() - b.bit_count()
            if worst is None or value < worst:
                worst = value
        if worst is None:
            worst = WIN
        if best_value is None or worst > best_value:
            best, best_value = i, worst
    return best


# --- hard ---------------------------------------------------------------------------------


class _Search:
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

    def tick(self) -> None:
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _Timeout
        if self.cancel is not None and not self.nodes & 63 and self.cancel.is_set():
            raise _Timeout

    # midgame -----------------------------------------------------------------------------
    def evaluate(self, free: int, a: int, b: int) -> int:
        S = self.S
        ra, rb, tied = voronoi(free, a, b, S)
        if _separated(ra, rb, tied, S):
            fa = fill_estimate(free, a, S, self.even)
            fb = fill_estimate(free, b, S, self.even)
            return SEP * (fa - fb)
        ea = (ra & (ra >> 1)).bit_count() + (ra & (ra >> S)).bit_count()
        eb = (rb & (rb >> 1)).bit_count() + (rb & (rb >> S)).bit_count()
        return K_NODES * (ra.bit_count() - rb.bit_count()) + K_EDGES * (ea - eb)

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

    def root(self, free: int, a: int, b: int, soft: float) -> int:
        S = self.S
        deltas = (-S, S, -1, 1)
        moves = _safe(free, a, S)
        theirs = [b + d for d in deltas if b + d >= 0 and (free >> (b + d)) & 1]
        if len(moves) <= 1:
            return moves[0] if moves else 0
        if not theirs:
            # The opponent crashes whatever it does; any safe move wins.
            self.score = WIN
            return moves[0]
        order = list(moves)
        best = order[0]
        depth = 1
        limit = (free.bit_count() + 2) // 2 + 1
        while depth <= limit:
            scores: dict[int, int] = {}
            alpha = -WIN - 1
            try:
                for i in order:
                    value = self.min_node(free, a, b, a + deltas[i], theirs, depth, 0, alpha, WIN + 1)
                    scores[i] = value
                    if value > alpha:
                        alpha = value
            except _Timeout:
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
            if abs(scores[best]) >= WIN - 1000 or time.perf_counter() > soft:
                break
            depth += 1
        return best

    # endgame -----------------------------------------------------------------------------
    def fill(self, free: int, a: int, depth: int) -> int:
        """Most cells fillable from `a`: exact `depth` moves deep, then the estimate."""
        self.tick()
        S = self.S
        bound = fill_estimate(free, a, S, self.even)
        if depth <= 0 or bound <= 1:
            return bound
        best = 0
        for d in (-S, S, -1, 1):
            t = a + d
            if t >= 0 and (free >> t) & 1:
                value = 1 + self.fill(free & ~(1 << t), t, depth - 1)
                if value > best:
                    best = value
                    if best >= bound:
                        break
        return best

    def endgame(self, free: int, a: int, soft: float) -> int:
        S = self.S
        deltas = (-S, S, -1, 1)
        moves = _safe(free, a, S)
        if len(moves) <= 1:
            return moves[0] if moves else 0

        def hug(i: int) -> int:
            t = a + deltas[i]
            return _free_neighbours(free & ~(1 << t), t, S)

        # Ties go to the move that hugs walls (fewest free neighbours after it).
        order = sorted(moves, key=hug)
        best = order[0]
        upper = fill_estimate(free, a, S, self.even)
        depth = 0
        while depth <= free.bit_count():
            scores: dict[int, int] = {}
            try:
                for i in order:
                    t = a + deltas[i]
                    scores[i] = 1 + self.fill(free & ~(1 << t), t, depth)
            except _Timeout:
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
            if scores[best] >= upper or time.perf_counter() > soft:
                break
            depth += 1
        return best


def hard_move(field: Field, seat: int, time_ms: float, control=None, start: float | None = None) -> int:  # type: ignore[no-untyped-def]
    return _hard(field, seat, time_ms, control, start)[0]


def _hard(field: Field, seat: int, time_ms: float, control=None, start: float | None = None) -> tuple[int, _Search | None, str]:  # type: ignore[no-untyped-def]
    """The hard bot's move, the search that found it (None when the move was forced) and
    the search's mode: "forced", "territory" (the players still meet) or "endgame"."""
    begin = time.perf_counter() if start is None else start
    budget = max(0.001, time_ms / 1000.0)
    search = _Search(field, begin + budget * USE, control)
    soft = begin + budget * START_LIMIT
    S, free = field.S, field.free
    me, opp = field.heads[seat], field.heads[1 - seat]
    mine = _safe(free, me, S)
    if not mine:
        return 0, None, "forced"
    if len(mine) == 1:
        return mine[0], None, "forced"
    ra, rb, tied = voronoi(free, me, opp, S)
    try:
        if _separated(ra, rb, tied, S):
            return search.endgame(free, me, soft), search, "endgame"
        return search.root(free, me, opp, soft), search, "territory"
    except _Timeout:  # pragma: no cover - the roots catch their own timeouts
        return mine[0], search, "territory"


# --- the public interface -----------------------------------------------------------------


def choose_index(position, seat: int, time_ms: float = DEFAULT_TIME_MS, control=None, level: str = "hard", start: float | None = None) -> int:  # type: ignore[no-untyped-def]
    """The move for `seat` as an index into WORDS (UP, DOWN, LEFT, RIGHT).

    `position` is anything with `rows` (HackerRank characters) and `heads` ((row, col) of
    red and green): a TronState or a parsed protocol state. Heads come from `heads`
    whatever the grid letters say. Always a move onto a free cell when one exists.
    """
    field = _field_of(position, seat)
    if level == "easy":
        return easy_move(field, seat)
    if level == "medium":
        return medium_move(field, seat)
    if level == "hard":
        return hard_move(field, seat, time_ms, control, start)
    raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")


def analyse(position, seat: int, time_ms: float = DEFAULT_TIME_MS, control=None) -> dict:  # type: ignore[no-untyped-def]
    """The hard bot's move with what its search found, for `tui-grid solve tron`:
    `move` (UP DOWN LEFT RIGHT), `score` (the search value for `seat`: positive is good;
    in "territory" mode 10 per cell of Voronoi lead, 4096 per cell of fillable-space lead
    once separated, about +-2**40 for a forced win or loss, -4000 for a forced draw; in
    "endgame" mode the cells it can still fill; null when the move is forced), `depth`
    (plies of the deepest finished iteration), `nodes` and `mode`."""
    field = _field_of(position, seat)
    index, search, mode = _hard(field, seat, time_ms, control)
    safe = _safe(field.free, field.heads[seat], field.S)
    return {
        "move": WORDS[index],
        "score": None if search is None else search.score,
        "depth": 0 if search is None else search.depth_done,
        "nodes": 0 if search is None else search.nodes,
        "mode": mode if safe else "crash",
    }


def choose_move(position, seat: int, time_ms: float | None = DEFAULT_TIME_MS, control=None, level: str = "hard"):  # type: ignore[no-untyped-def]
    """The move for `seat` as a Direction; `time_ms` None means the default budget."""
    from tui_grid.core.geometry import Direction

    index = choose_index(position, seat, DEFAULT_TIME_MS if time_ms is None else time_ms, control, level)
    return (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)[index]


#: Milliseconds kept back from an ask's deadline for the answer to travel.
MARGIN_MS = 15


def make_bot(level: str = "hard", time_ms: float = DEFAULT_TIME_MS) -> "Agent":
    """A core agent playing Tron at `level` within `time_ms` per move (less if the ask's
    deadline is nearer)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    from tui_grid.core.agents import FunctionAgent

    def choose(ask) -> object:  # type: ignore[no-untyped-def]
        budget = float(time_ms)
        remaining = ask.remaining()
        if remaining is not None:
            budget = max(1.0, min(budget, remaining * 1000.0 - MARGIN_MS))
        return choose_move(ask.state, ask.seat, budget, ask.control, level)

    return FunctionAgent(choose, name=f"{level} bot")
