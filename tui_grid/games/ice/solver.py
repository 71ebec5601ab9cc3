"""The optimal ice solver: fewest moves, then fewest tiles slid over.

Only cells where a slide can end are search nodes. A slide is one C-level
`str.find`/`str.rfind` for the next stopper on a "lane" string (one per row and one
per column, see `board.Lanes`) plus one lookup saying whether you stop on it or
before it. The search is a breadth-first search by layers of moves that keeps the
least distance per node within a layer: every optimal route to a node first reached
after k moves goes through nodes first reached after k - 1 moves, so this is exactly
the (moves, distance) order. A random 1000x1000 map takes well under a second in pure
Python (see `bench/ice.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from tui_grid.core.control import SearchControl, unlimited
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos, route_string
from tui_grid.games.ice.board import IceBoard, Lanes

_UP, _DOWN, _LEFT, _RIGHT = range(4)
_CODES = {Direction.UP: _UP, Direction.DOWN: _DOWN, Direction.LEFT: _LEFT, Direction.RIGHT: _RIGHT}
_BY_CODE = {code: direction for direction, code in _CODES.items()}
assert tuple(_BY_CODE[code] for code in range(4)) == DIRECTIONS


@dataclass(frozen=True)
class IceSolution:
    """An optimal route with its move count and the number of tiles it slides over."""

    route: tuple[Direction, ...]
    moves: int
    distance: int

    def route_string(self) -> str:
        return route_string(self.route)


# A frontier entry is (row, col, distance so far).
Frontier = list[tuple[int, int, int]]
#: Nodes expanded between two calls of the progress/cancel tick.
CHUNK = 256


def layered_search(
    lanes: Lanes,
    start: tuple[int, int],
    goal: int,
    tick: Callable[[int], None],
) -> tuple[list[int], list[Frontier]]:
    """Search from `start` over a map's lanes until the layer that reaches cell index `goal`.

    Returns the parent links and the layers: layer k holds the cells first reached
    after k moves, with their least distance. `parents[row * width + col]` is
    `previous_index * 4 + direction_code`, or -1 for cells not reached (and the start).
    With `goal` = -1 the whole reachable set is explored. The goal cell is never
    expanded: the game ends there. `tick(n)` is called with the number of nodes about
    to be expanded, in chunks of at most `CHUNK`.
    """
    rows, cols, stop_rows, stop_cols = lanes
    height, width = len(rows), len(cols)
    last_row, last_col = height - 1, width - 1
    seen = bytearray(width * height)
    parents = [-1] * (width * height)
    sr, sc = start
    seen[sr * width + sc] = 1
    frontier: Frontier = [(sr, sc, 0)]
    layers = [frontier]
    if sr * width + sc == goal:
        return parents, layers
    while frontier:
        best: dict[int, int] = {}  # cell index -> least distance this layer
        link: dict[int, int] = {}  # cell index -> parent link for that distance
        get = best.get
        for first in range(0, len(frontier), CHUNK):
            chunk = frontier[first : first + CHUNK]
            tick(len(chunk))
            for r, c, d in chunk:
                here = r * width + c
                if here == goal:
                    continue
                col = cols[c]
                row = rows[r]
                # up: the nearest stopper above; stop on it if rough, else just below it
                p = stop_cols[c].rfind("#", 0, r)
                t = 0 if p < 0 else p if col[p] == "x" else p + 1
                if t != r:
                    i = t * width + c
                    if not seen[i]:
                        nd = d + r - t
                        old = get(i)
                        if old is None or nd < old:
                            best[i] = nd
                            link[i] = here * 4
                # down
                p = stop_cols[c].find("#", r + 1)
                t = last_row if p < 0 else p if col[p] == "x" else p - 1
                if t != r:
                    i = t * width + c
                    if not seen[i]:
                        nd = d + t - r
                        old = get(i)
                        if old is None or nd < old:
                            best[i] = nd
                            link[i] = here * 4 + 1
                # left
                p = stop_rows[r].rfind("#", 0, c)
                t = 0 if p < 0 else p if row[p] == "x" else p + 1
                if t != c:
                    i = here - c + t
                    if not seen[i]:
                        nd = d + c - t
                        old = get(i)
                        if old is None or nd < old:
                            best[i] = nd
                            link[i] = here * 4 + 2
                # right
                p = stop_rows[r].find("#", c + 1)
                t = last_col if p < 0 else p if row[p] == "x" else p - 1
                if t != c:
                    i = here - c + t
                    if not seen[i]:
                        nd = d + t - c
                        old = get(i)
                        if old is None or nd < old:
                            best[i] = nd
                            link[i] = here * 4 + 3
        if not best:
            break
        frontier = []
        append = frontier.append
        for i, nd in best.items():
            seen[i] = 1
            parents[i] = link[i]
            r, c = divmod(i, width)
            append((r, c, nd))
        layers.append(frontier)
        if goal in best:
            break
    return parents, layers


def rest_cell_count(board: IceBoard) -> int:
    """How many cells a slide can end on (plus the start): the most nodes a search expands."""
    width = board.width
    full = (1 << width) - 1
    edges = 1 | (1 << (width - 1))
    free_bits = str.maketrans({" ": "1", "x": "1", "#": "0"})
    stop_bits = str.maketrans({" ": "0", "x": "1", "#": "0"})
    free = [int(row.translate(free_bits), 2) for row in board.lanes.rows]
    stops = [int(row.translate(stop_bits), 2) for row in board.lanes.rows]
    sr, sc = board.start
    count = 0
    for r, f in enumerate(free):
        walls = full ^ f
        above = full ^ free[r - 1] if r > 0 else full
        below = full ^ free[r + 1] if r + 1 < len(free) else full
        rest = f & ((walls << 1) | (walls >> 1) | edges | above | below | stops[r])
        count += rest.bit_count()
        if r == sr and not (rest >> (width - 1 - sc)) & 1:
            count += 1
    return count


def solve(board: IceBoard, start: Pos | None = None, control: SearchControl | None = None) -> IceSolution | None:
    """The optimal route from `start` (default: the board's start) to E, or None if E is unreachable.

    Optimal means the fewest moves, then the fewest tiles slid over; any remaining
    tie is broken deterministically. `control` counts every expanded node (ticking
    in chunks of `CHUNK`), so a cancel event stops the search with `Cancelled`; its
    `total` is set to the number of cells a slide can end on when not given.
    """
    if start is None:
        start = board.start
    elif not board.in_bounds(start) or board.at(start) == "#":
        raise ValueError(f"cannot solve from {tuple(start)}: not an open cell of the map")
    if start == board.end:
        return IceSolution((), 0, 0)
    if control is None:
        control = unlimited()
    elif control.total is None:
        control.total = rest_cell_count(board)
    width = board.width
    goal = board.end[0] * width + board.end[1]
    parents, _ = layered_search(board.lanes, (start[0], start[1]), goal, control.tick)
    if parents[goal] < 0:
        return None
    route: list[Direction] = []
    here = goal
    origin = start[0] * width + start[1]
    distance = 0
    while here != origin:
        prev, code = divmod(parents[here], 4)
        route.append(_BY_CODE[code])
        distance += abs(here - prev) // width if code in (_UP, _DOWN) else abs(here - prev)
        here = prev
    route.reverse()
    return IceSolution(tuple(route), len(route), distance)
