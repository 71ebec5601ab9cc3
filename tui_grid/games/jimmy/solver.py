"""Exact escape search for Jimmy and the ghosts, and a best-effort longest survival line.

The search is a depth-first search over Jimmy's moves (the ghosts are a deterministic
function of his path), on bitsets: cell (r, c) is bit r*(W+1)+c, with one always-empty
guard column so that shifting by 1 never wraps from one row into the next.

Cuts, each proven sound in `solve`'s docstring:

* a free border cell next to Jimmy is an escape at once;
* reachability: the cells Jimmy can still reach (flood fill through open, unvisited
  cells) must hold a border cell;
* a memo of lost states with dominance: (Jimmy's cell, relevant stepped ghosts) -> lost
  regions; a state whose region is a subset of a lost one is lost;
* ghosts too far to ever matter again are left out of the memo key;
* the relaxed game (revisits allowed, only some of the ghosts): when even that is lost,
  the real game is lost, and every relaxed state met is stored as lost. It starts with
  the nearest ghost and adds the ghosts that spoil its escape routes; a route that never
  revisits a cell and survives all the ghosts is a real escape.

The search runs in rounds that share the memo: a short one with the cheap cuts only
(finds most escapes and small traps at once), then full ones with the relaxed game,
each with bigger budgets, the last one without a limit.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.rules import JimmyState, Outcome, initial_state, replay


@dataclass(frozen=True)
class EscapeResult:
    escape: bool
    path: tuple[Direction, ...] | None
    nodes: int
    #: The memo reached its memory budget and stopped growing: the answer is still exact,
    #: the search only ran slower from then on.
    memory_capped: bool = False


@dataclass(frozen=True)
class SurvivalLine:
    path: tuple[Direction, ...]
    end: JimmyState
    #: The search finished: no line lasts longer (else it stopped at its budget or time).
    proven: bool = False


class _Layout:
    """Precomputed index tables and masks for one board."""

    def __init__(self, board: JimmyBoard, control: SearchControl | None = None) -> None:
        width, height = board.width, board.height
        stride = width + 1
        self.width, self.height, self.stride = width, height, stride
        size = height * stride
        self.size = size
        self.row = [i // stride for i in range(size)]
        self.col = [i % stride for i in range(size)]
        # Linear time on any size: a byte per cell, then the masks from bit strings.
        is_open = bytearray(size)
        on_border = bytearray(size)
        solid = board.solid
        for r in range(height):
            if control is not None:
                control.checkpoint()
            base = r * stride
            edge_row = r == 0 or r == height - 1
            for c in range(width):
                if Pos(r, c) not in solid:
                    is_open[base + c] = 1
                    if edge_row or c == 0 or c == width - 1:
                        on_border[base + c] = 1
        self.open = _mask(is_open)
        self.border = _mask(on_border)
        deltas = [(d, d.dr * stride + d.dc) for d in DIRECTIONS]
        self.deltas = deltas
        neighbours: list[tuple[tuple[Direction, int], ...]] = []
        for i in range(size):
            if not i % stride and control is not None:
                control.checkpoint()
            r, c = self.row[i], self.col[i]
            out = []
            if c < width and is_open[i]:
                for d, delta in deltas:
                    nr, nc = r + d.dr, c + d.dc
                    if 0 <= nr < height and 0 <= nc < width:
                        n = i + delta
                        if is_open[n]:
                            out.append((d, n))
            neighbours.append(tuple(out))
        self.neighbours = neighbours
        # Static distance to the nearest open border cell through open cells (move ordering).
        far = size + 1
        dist = [far] * size
        queue: deque[int] = deque()
        for i in range(size):
            if on_border[i]:
                dist[i] = 0
                queue.append(i)
        popped = 0
        while queue:
            i = queue.popleft()
            popped += 1
            if not popped & 4095 and control is not None:
                control.checkpoint()
            for _, n in neighbours[i]:
                if dist[n] > dist[i] + 1:
                    dist[n] = dist[i] + 1
                    queue.append(n)
        self.border_dist = dist

    def index(self, p: Pos) -> int:
        return p[0] * self.stride + p[1]

    def pos(self, i: int) -> Pos:
        return Pos(self.row[i], self.col[i])

    def region(self, j: int, free: int, around: int) -> int:
        """The cells of `free` that Jimmy on `j` can still reach (not `j` itself).

        `around` is the region he had one move earlier (0 if unknown), holding `j`. When
        `j` has at most one neighbour in it, every cell of it reaches `j` through that
        neighbour, so the new region is simply the old one without `j`: no flood needed.
        """
        bit = 1 << j
        if around:
            links = 0
            for _, n in self.neighbours[j]:
                if (around >> n) & 1:
                    links += 1
            if links <= 1:
                return around & ~bit
        return self.flood(bit, free | bit) & ~bit

    def flood(self, start: int, free: int) -> int:
        """Cells of `free` connected to bit `start` (start itself included)."""
        stride = self.stride
        reach = start
        while True:
            grown = (reach | (reach << 1) | (reach >> 1) | (reach << stride) | (reach >> stride)) & free
            if grown == reach:
                return reach
            reach = grown


_LAYOUTS: dict[JimmyBoard, _Layout] = {}


def _layout(board: JimmyBoard, control: SearchControl | None = None) -> _Layout:
    layout = _LAYOUTS.get(board)
    if layout is None:
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        layout = _LAYOUTS[board] = _Layout(board, control)
    return layout


def _mask(flags: bytearray) -> int:
    """An int whose bit i is set when flags[i] is 1: one C-level parse of a binary digit
    string (lowest bit last), not a loop of ors on a growing int."""
    return int(bytes(flags).translate(_BIT_DIGIT)[::-1], 2) if flags else 0


_BIT_DIGIT = bytes.maketrans(b"\x00\x01", b"01")


#: Memory budgets: the failure memo stops growing past MEMO_BUDGET_BYTES (a cache, so
#: only time is lost), and one relaxed game keeps at most RELAX_BUDGET_BYTES of states
#: (it then gives no verdict, which is sound). Rough per-entry costs in CPython.
MEMO_BUDGET_BYTES = 400 * 1024 * 1024
RELAX_BUDGET_BYTES = 300 * 1024 * 1024
_ENTRY_BYTES = 250
_STATE_BYTES = 220

#: When a relaxed route is spoilt, the next ghost set is at least this many times bigger
#: (the spoilers first, then the nearest ghosts): fewer, bigger relaxed searches.
GROW = 2


class _Stop(Exception):
    """Internal: a node budget ran out."""


class _Phase(Exception):
    """Internal: a round of the search used up its work limit."""


@dataclass(frozen=True)
class SearchOptions:
    """Effort knobs of the exact search; any values give exact answers (tests turn cuts off
    with them). Without options, `default_options` scales them to the board.

    quick_nodes: nodes of the first, cheap round (0: skip it);
    root_relax_budget / relax_budget: states the relaxed game may use at the root / at
    other nodes in the first full round (0: do not play it there);
    round_nodes: work (search nodes plus relaxed states) allowed in the first full round;
    rounds / growth: full rounds, each with `growth` times the budgets of the one
    before; the last round has no node limit.
    """

    quick_nodes: int = 300
    root_relax_budget: int = 5_000
    relax_budget: int = 1_000
    round_nodes: int = 50_000
    rounds: int = 4
    growth: int = 4


def default_options(open_cells: int) -> SearchOptions:
    """The default effort for a board with this many open cells: relaxed-game budgets grow
    with the board, because its state spaces do."""
    return SearchOptions(
        quick_nodes=300,
        root_relax_budget=max(5_000, 200 * open_cells),
        relax_budget=max(1_000, 12 * open_cells),
        round_nodes=max(50_000, 600 * open_cells),
    )


class _Search:
    """One exact escape search from one state (see `solve` for why each cut is sound)."""

    def __init__(
        self,
        board: JimmyBoard,
        control: SearchControl | None,
        max_nodes: int | None = None,
        options: SearchOptions | None = None,
    ) -> None:
        self.lay = _layout(board, control)
        if options is None:
            options = default_options(self.lay.open.bit_count())
        self.control = control
        self.max_nodes = max_nodes
        self.nodes = 0
        self.dfs_nodes = 0
        self.relax_calls = 0
        self.relax_states = 0
        self.options = options
        # (Jimmy, relevant stepped ghosts) -> regions (bitsets) from which the game is lost.
        self.memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        self.memo_bytes = 0
        self.memo_full = False
        # Jimmy's cell -> the ghost sets stored for it, for subset lookups.
        self.keys_at: dict[int, list[tuple[int, ...]]] = {}

    def count(self, nodes: int) -> None:
        self.nodes += nodes
        if self.control is not None:
            self.control.tick(nodes)
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Stop()

    def key(self, j: int, stepped: tuple[int, ...], region: int) -> tuple[int, tuple[int, ...]]:
        """Memo key: Jimmy and the stepped ghosts that can still matter with `region` left."""
        row, col = self.lay.row, self.lay.col
        limit = 2 * region.bit_count()
        jr, jc = row[j], col[j]
        return (j, tuple(g for g in stepped if abs(row[g] - jr) + abs(col[g] - jc) < limit))

    def remember(self, key: tuple[int, tuple[int, ...]], region: int) -> None:
        """Store a lost region; past the memory budget nothing new is stored (the memo is
        only a cache: leaving an entry out costs time, never correctness)."""
        if self.memo_bytes >= MEMO_BUDGET_BYTES:
            self.memo_full = True
            return
        failed = self.memo.get(key)
        if failed is None:
            self.memo[key] = [region]
            self.keys_at.setdefault(key[0], []).append(key[1])
            self.memo_bytes += _ENTRY_BYTES + 8 * len(key[1]) + region.bit_length() // 8
        else:
            _insert(failed, region)
            self.memo_bytes += region.bit_length() // 8

    # -- the search ---------------------------------------------------------------------
    def run(self, j: int, ghosts: tuple[int, ...], visited: int) -> list[Direction] | None:
        """An escape route from this state, or None when there is none.

        Rounds of depth-first search that share one memo (its entries are sound whatever
        round wrote them): first a short one with the cheap cuts only (most escapes are
        found at once, most small traps are proven), then full ones, where the relaxed game
        is played at the root and at every node the memo does not settle, each round with
        bigger relaxed budgets, until the last round, which runs to the end.
        """
        options = self.options
        if options.quick_nodes:
            try:
                return self.dfs(j, ghosts, visited, 0, 0, self.nodes + options.quick_nodes)
            except _Phase:
                pass
        root, node, limit = options.root_relax_budget, options.relax_budget, options.round_nodes
        rounds = options.rounds if root or node else 1
        for index in range(rounds):
            last = index == rounds - 1
            try:
                return self.dfs(j, ghosts, visited, root, node, None if last else self.nodes + limit)
            except _Phase:
                root *= options.growth
                node *= options.growth
                limit *= options.growth
        raise AssertionError("the last round has no node limit")

    def dfs(
        self,
        j: int,
        ghosts: tuple[int, ...],
        visited: int,
        root_budget: int,
        relax_budget: int,
        phase_limit: int | None,
    ) -> list[Direction] | None:
        lay = self.lay
        row, col = lay.row, lay.col
        stride = lay.stride
        open_mask, border = lay.open, lay.border
        neighbours = lay.neighbours
        border_dist = lay.border_dist
        memo = self.memo
        keys_at = self.keys_at
        control = self.control
        tick = control.tick if control is not None else None
        max_nodes = self.max_nodes
        relax = self.relax
        key_of = self.key

        def expand(j: int, ghosts: tuple[int, ...], visited: int, budget: int, around: int):
            """None: this state is lost. A list of moves: an escape. Else a new frame."""
            self.nodes += 1
            self.dfs_nodes += 1
            if tick is not None:
                tick()
            if max_nodes is not None and self.nodes > max_nodes:
                raise _Stop()
            if phase_limit is not None and self.nodes > phase_limit:
                raise _Phase()
            jr, jc = row[j], col[j]
            stepped_set = set()
            gbits = 0
            for g in ghosts:
                gc = col[g]
                if gc < jc:
                    g += 1
                elif gc > jc:
                    g -= 1
                else:
                    gr = row[g]
                    if gr < jr:
                        g += stride
                    elif gr > jr:
                        g -= stride
                if g == j:
                    return None
                stepped_set.add(g)
                gbits |= 1 << g
            free = open_mask & ~visited
            cands = []
            for d, n in neighbours[j]:
                if (free >> n) & 1 and not (gbits >> n) & 1:
                    if (border >> n) & 1:
                        return [d]
                    cands.append((border_dist[n], d, n))
            if not cands:
                return None
            region = lay.region(j, free, around)
            if not region & border:
                return None
            stepped = tuple(sorted(stepped_set))
            key = key_of(j, stepped, region)
            failed = memo.get(key)
            if failed is not None:
                for other in failed:
                    if not region & ~other:
                        return None
            relevant = key[1]
            if len(relevant) > 1:
                # Lost against fewer ghosts is lost against these: scan the stored ghost sets
                # at this cell for subsets (bounded by the memo, not by 2^ghosts).
                size = len(relevant)
                relevant_set = None
                for stored in keys_at.get(j, ()):
                    if len(stored) >= size:
                        continue
                    if relevant_set is None:
                        relevant_set = set(relevant)
                    if relevant_set.issuperset(stored):
                        for other in memo[(j, stored)]:
                            if not region & ~other:
                                return None
            if budget:
                verdict = relax(j, ghosts, region, budget)
                if verdict is True:
                    return None
                if verdict:
                    return verdict
            if len(cands) > 1:
                cands.sort(key=_first)
            return [j, stepped, visited, cands, 0, key, region]

        root = expand(j, ghosts, visited, root_budget, 0)
        if root is None or isinstance(root[0], Direction):
            return root
        # Frame: [jimmy, stepped ghosts, visited, children (order, dir, cell), next child, key, region]
        stack: list[list] = [root]
        path: list[Direction] = []
        remember = self.remember
        while stack:
            frame = stack[-1]
            cands = frame[3]
            index = frame[4]
            if index == len(cands):
                stack.pop()
                remember(frame[5], frame[6])
                if path:
                    path.pop()
                continue
            frame[4] = index + 1
            _, d, n = cands[index]
            child = expand(n, frame[1], frame[2] | (1 << n), relax_budget, frame[6])
            if child is None:
                continue
            path.append(d)
            if isinstance(child[0], Direction):
                path.extend(child)
                return path
            stack.append(child)
        return None

    # -- the relaxed game -------------------------------------------------------------
    def relax(self, j: int, ghosts: tuple[int, ...], region: int, budget: int) -> bool | list[Direction] | None:
        """The relaxed game, refined on counterexamples.

        Dropping ghosts and allowing revisits both only help Jimmy, so a relaxed game he
        cannot win proves the real one lost. Start with the nearest ghost alone (small
        state spaces are cheap); while the relaxed game has an escape route, replay it
        against all the ghosts and add the ghosts that spoil it. True: lost. A list of
        moves: a real escape. None: no verdict (a relaxed escape that only fails because
        it revisits a cell, or out of budget).
        """
        lay = self.lay
        row, col = lay.row, lay.col
        jr, jc = row[j], col[j]
        order = sorted(ghosts, key=lambda g: (abs(row[g] - jr) + abs(col[g] - jc), g))
        subset: tuple[int, ...] = (order[0],)
        while True:
            verdict = self.relaxed(j, subset, region, budget)
            if verdict is True or verdict is None:
                return verdict
            route, simple = verdict
            spoilers = self.spoilers(j, ghosts, route)
            if not spoilers:
                return route if simple else None
            grown = set(subset) | spoilers
            for g in order:
                if len(grown) >= GROW * len(subset):
                    break
                grown.add(g)
            subset = tuple(sorted(grown))

    def spoilers(self, j: int, ghosts: tuple[int, ...], route: list[Direction]) -> set[int]:
        """The ghosts (by start cell) that first catch Jimmy or block his next cell when he
        walks `route` against all `ghosts`; empty when they never do (revisits allowed)."""
        lay = self.lay
        row, col, stride = lay.row, lay.col, lay.stride
        current = list(ghosts)
        for d in route:
            jr, jc = row[j], col[j]
            for k, g in enumerate(current):
                gc = col[g]
                if gc < jc:
                    g += 1
                elif gc > jc:
                    g -= 1
                else:
                    gr = row[g]
                    if gr < jr:
                        g += stride
                    elif gr > jr:
                        g -= stride
                current[k] = g
            j += d.dr * stride + d.dc
            hit = {ghosts[k] for k, g in enumerate(current) if g == j or g == j - d.dr * stride - d.dc}
            if hit:
                return hit
        return set()

    def relaxed(
        self, j: int, ghosts: tuple[int, ...], region: int, budget: int
    ) -> bool | tuple[list[Direction], bool] | None:
        """The game where Jimmy may revisit cells of `region`, against `ghosts` only.

        Breadth-first over (Jimmy, ghosts) states, moving only into `region`. True when no
        border cell is reachable: every state met is then lost for `region` (and any
        smaller region) against these ghosts and any more, and is stored in the memo.
        Else (route, simple): the shortest relaxed escape and whether it never revisits a
        cell (then it is a real escape against these ghosts). None after `budget` states.
        """
        self.relax_calls += 1
        lay = self.lay
        row, col, stride = lay.row, lay.col, lay.stride
        border = lay.border
        neighbours = lay.neighbours
        # A state is packed in one int: Jimmy's cell, then each ghost's cell, `bits` bits each.
        # Ghosts keep their order (no sorting): ghosts that meet stay together for good.
        bits = lay.size.bit_length()
        cell_mask = (1 << bits) - 1
        start = j
        shift = bits
        for g in ghosts:
            start |= g << shift
            shift += bits
        parent: dict[int, tuple[int, Direction] | None] = {start: None}
        queue = [(j, ghosts, start)]
        dead: list[tuple[int, tuple[int, ...]]] = []
        qi = 0
        result: bool | tuple[list[Direction], bool] | None = True
        # Memory: each state costs its packed int plus dict and queue entries.
        state_bytes = _STATE_BYTES + (bits * (len(ghosts) + 1)) // 8 * 2
        budget = min(budget, RELAX_BUDGET_BYTES // state_bytes)
        control = self.control
        while qi < len(queue):
            j, gs, key = queue[qi]
            qi += 1
            if not qi & 127 and control is not None:
                control.checkpoint()  # cancel within a few ms even in a huge relaxed game
            jr, jc = row[j], col[j]
            stepped = []
            packed = 0
            shift = bits
            blocked = 0
            for g in gs:
                gc = col[g]
                if gc < jc:
                    g += 1
                elif gc > jc:
                    g -= 1
                else:
                    gr = row[g]
                    if gr < jr:
                        g += stride
                    elif gr > jr:
                        g -= stride
                if g == j:
                    break
                stepped.append(g)
                packed |= g << shift
                shift += bits
                blocked |= 1 << g
            else:
                moved = tuple(stepped)
                dead.append((j, moved))
                allowed = region & ~blocked
                for d, n in neighbours[j]:
                    if (allowed >> n) & 1:
                        if (border >> n) & 1:
                            result = _relaxed_path(parent, key, cell_mask, d, n)
                            break
                        nxt = n | packed
                        if nxt not in parent:
                            if len(parent) >= budget:
                                result = None
                                break
                            parent[nxt] = (key, d)
                            queue.append((n, moved, nxt))
                if result is not True:
                    break
        self.count(len(parent))
        self.relax_states += len(parent)
        if result is not True:
            return result
        limit = 2 * region.bit_count()
        remember = self.remember
        for j, moved in dead:
            jr, jc = row[j], col[j]
            remember((j, tuple(sorted({g for g in moved if abs(row[g] - jr) + abs(col[g] - jc) < limit}))), region)
        return True


def _relaxed_path(
    parent: dict[int, tuple[int, Direction] | None], key: int, cell_mask: int, d: Direction, n: int
) -> tuple[list[Direction], bool]:
    """The relaxed route to state `key`, then `d` onto border cell `n`; and whether it never revisits a cell."""
    moves = [d]
    cells = {n}
    simple = True
    while True:
        j = key & cell_mask
        if j in cells:
            simple = False
        cells.add(j)
        link = parent[key]
        if link is None:
            break
        key, d = link
        moves.append(d)
    moves.reverse()
    return moves, simple


def _insert(failed: list[int], region: int) -> None:
    """Add a lost region, keeping only regions that no other stored one contains."""
    for other in failed:
        if not region & ~other:
            return
    failed[:] = [other for other in failed if other & ~region]
    failed.append(region)


def _insert_bound(bounds: dict, key: tuple, region: int, most: int) -> None:
    """Store (region, most) unless a stored entry already says as much; drop the ones it beats; keep a few."""
    entries = bounds.get(key)
    if entries is None:
        bounds[key] = [(region, most)]
        return
    for other, other_most in entries:
        if other_most <= most and not region & ~other:
            return
    entries[:] = [(other, other_most) for other, other_most in entries if other_most < most or other & ~region]
    entries.append((region, most))
    if len(entries) > 12:
        del entries[0]


def _first(item: tuple) -> int:
    return item[0]


def _start(board: JimmyBoard, state: JimmyState | None) -> JimmyState:
    return initial_state(board) if state is None else state


def _encode(lay: _Layout, state: JimmyState) -> tuple[int, tuple[int, ...], int]:
    j = lay.index(state.jimmy)
    ghosts = tuple(sorted({lay.index(g) for g in state.ghosts}))
    visited = 0
    for p in state.visited:
        visited |= 1 << lay.index(p)
    visited |= 1 << j
    return j, ghosts, visited


def solve(
    board: JimmyBoard,
    state: JimmyState | None = None,
    control: SearchControl | None = None,
    *,
    options: SearchOptions | None = None,
) -> EscapeResult:
    """Can Jimmy escape from `state` (default: the start)? Exact; the path replays legally.

    `nodes` counts search nodes plus relaxed-game states. Why each cut is sound, for a
    state with Jimmy on J, ghosts G (before their step) and visited cells V:

    * The future depends only on J, the stepped ghosts G' and R, the cells reachable
      from J through open cells outside V: Jimmy only ever enters cells of R, and the
      ghosts are a function of his path. So (J, G', R) decides the answer.
    * If R holds no border cell Jimmy can never stand on the border. (Ghosts are ignored
      in the flood: they only ever take moves away.)
    * Fewer cells and more ghosts never help Jimmy: an escape with region R2, a subset of
      R1, and ghosts G2, a superset of G1, is also an escape for (R1, G1), because every
      ghost moves on its own, as a function of Jimmy's path only. So a loss for
      (J, G1, R1) proves a loss for every (J, G2, R2) with R2 in R1 and G2 holding G1.
      The memo stores lost (J, G', R) and looks up with R as a subset.
    * The Manhattan distance D between a ghost and Jimmy drops by 1 on the ghost's step
      and changes by 1 on his, so it drops at most 2 a turn; a ghost only matters in a
      turn where, after its step, it is within distance 1. Jimmy can make at most |R|
      more moves, so a stepped ghost at distance >= 2|R| never matters again and is left
      out of the memo key (a subset of the ghosts: the safe side of the dominance).
    * The relaxed game lets Jimmy revisit cells of R and keeps only some of the ghosts.
      Both can only help him, so a relaxed game with no reachable border cell (a finite
      breadth-first search over (Jimmy, ghosts) states) proves the real game lost, and so
      does every state it met, for R and any smaller region. Those are added to the memo
      (single-ghost ones to a memo looked up with each ghost of the state).
    * Escapes are only ever returned as routes that were played with every ghost:
      directly by the search, or a relaxed route that visits no cell twice and is
      replayed against all the ghosts.
    """
    state = _start(board, state)
    if state.outcome is Outcome.ESCAPED:
        return EscapeResult(True, (), 0)
    if state.outcome is Outcome.CAUGHT:
        return EscapeResult(False, None, 0)
    search = _Search(board, control, options=options)
    j, ghosts, visited = _encode(search.lay, state)
    path = search.run(j, ghosts, visited)
    if path is None:
        return EscapeResult(False, None, search.nodes, search.memo_full)
    return EscapeResult(True, tuple(path), search.nodes, search.memo_full)


def solve_limited(
    board: JimmyBoard, state: JimmyState | None = None, max_nodes: int = 100_000, control: SearchControl | None = None
) -> EscapeResult | None:
    """Like `solve`, but None when the search needs more than `max_nodes` nodes (for the generator)."""
    state = _start(board, state)
    if state.outcome is not Outcome.PLAYING:
        return solve(board, state)
    search = _Search(board, control, max_nodes)
    j, ghosts, visited = _encode(search.lay, state)
    try:
        path = search.run(j, ghosts, visited)
    except _Stop:
        return None
    if path is None:
        return EscapeResult(False, None, search.nodes)
    return EscapeResult(True, tuple(path), search.nodes)


def survive(
    board: JimmyBoard,
    state: JimmyState | None = None,
    control: SearchControl | None = None,
    budget_nodes: int = 200_000,
    *,
    seconds: float | None = None,
    on_better: Callable[[tuple[Direction, ...]], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SurvivalLine:
    """A line that lasts as many turns as possible (an escape line if one is met on the way).

    Depth-first over Jimmy's moves, moves that keep him far from the ghosts first. A
    branch is cut when the moves made plus a bound on the moves still possible cannot
    beat the best line so far; the bound is the number of cells he can still reach, or
    what an earlier, finished branch proved for the same cell, ghosts and a larger
    region. Stops after `budget_nodes` nodes or `seconds` on `clock`, whichever comes
    first (the line found so far is then played out to its end); `on_better` hears of
    each longer line as it is found (an anytime hint). Deterministic for the same board,
    state and budget in nodes.
    """
    state = _start(board, state)
    if state.outcome is not Outcome.PLAYING:
        return SurvivalLine((), state)
    lay = _layout(board, control)
    row, col, stride = lay.row, lay.col, lay.stride
    open_mask, border = lay.open, lay.border
    j0, ghosts0, visited0 = _encode(lay, state)
    tick: Callable[[], None] | None = control.tick if control is not None else None

    best: list[Direction] = []
    path: list[Direction] = []
    nodes = 0
    escape: list[Direction] | None = None
    # (Jimmy, stepped ghosts) -> [(region, most moves still possible from there)]: fewer
    # cells never allow more moves, so the bound holds for every subset of the region.
    bounds: dict[tuple[int, tuple[int, ...]], list[tuple[int, int]]] = {}

    def children(j: int, ghosts: tuple[int, ...], visited: int):
        """Moves after the ghosts' step, farthest from the ghosts first; None if they catch him."""
        jr, jc = row[j], col[j]
        stepped = []
        for g in ghosts:
            gc = col[g]
            if gc < jc:
                g += 1
            elif gc > jc:
                g -= 1
            else:
                gr = row[g]
                if gr < jr:
                    g += stride
                elif gr > jr:
                    g -= stride
            if g == j:
                return None
            stepped.append(g)
        stepped_t = tuple(sorted(set(stepped)))
        free = open_mask & ~visited
        out = []
        for d, n in lay.neighbours[j]:
            if (free >> n) & 1 and n not in stepped_t:
                nr, nc = row[n], col[n]
                near = min((abs(row[g] - nr) + abs(col[g] - nc) for g in stepped_t), default=0)
                out.append((-near, d, n, stepped_t, visited | (1 << n)))
        out.sort(key=_first)
        return out

    # Frame: [children, next index, memo key, region, bound on the moves still possible]
    stack: list[list] = [[children(j0, ghosts0, visited0) or [], 0, None, 0, 0]]
    deadline = None if seconds is None else clock() + seconds
    stopped = False
    while stack:
        frame = stack[-1]
        kids, index = frame[0], frame[1]
        if index == len(kids):
            stack.pop()
            if frame[2] is not None:
                _insert_bound(bounds, frame[2], frame[3], frame[4])
            if stack:
                parent = stack[-1]
                parent[4] = max(parent[4], 1 + frame[4])
                path.pop()
            continue
        frame[1] = index + 1
        _, d, n, stepped, visited = kids[index]
        nodes += 1
        if tick is not None:
            tick()
        path.append(d)
        if (border >> n) & 1:
            escape = list(path)
            break
        if len(path) > len(best):
            best = list(path)
            if on_better is not None:
                on_better(tuple(best))
        if nodes >= budget_nodes or (deadline is not None and not nodes & 255 and clock() >= deadline):
            stopped = True
            break
        region = lay.region(n, open_mask & ~visited, frame[3])
        bound = region.bit_count()
        key = (n, stepped)
        for other, most in bounds.get(key, ()):
            if most < bound and not region & ~other:
                bound = most
        if len(path) + bound <= len(best):
            frame[4] = max(frame[4], 1 + bound)
            path.pop()
            continue
        grand = children(n, stepped, visited)
        if not grand:
            frame[4] = max(frame[4], 1)
            path.pop()
            continue
        stack.append([grand, 0, key, region, 0])
    if escape is not None:
        return SurvivalLine(tuple(escape), replay(board, escape, state), proven=True)
    # A budget stop can leave the best line unfinished: play it out, farthest from the ghosts first.
    end = replay(board, best, state)
    line = list(best)
    while end.outcome is Outcome.PLAYING:
        vis = 0
        for p in end.visited:
            vis |= 1 << lay.index(p)
        kids = children(lay.index(end.jimmy), tuple(sorted({lay.index(g) for g in end.ghosts})), vis)
        d = kids[0][1]
        line.append(d)
        end = replay(board, [d], end)
    return SurvivalLine(tuple(line), end, proven=not stopped)
