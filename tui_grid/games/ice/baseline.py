"""A plain textbook solver, for the benchmark and as a test oracle.

Dijkstra over cells with (moves, distance) as the cost, simulating every slide one
tile at a time. It shares nothing with the fast solver but the board and the
solution type, so agreeing with it is real evidence.
"""

from __future__ import annotations

import heapq

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.solver import IceSolution


def bfs_baseline(board: IceBoard, control: SearchControl | None = None) -> IceSolution | None:
    """The optimal (fewest moves, then fewest tiles) route from S to E, or None."""
    grid = [list(row) for row in board.rows]
    height, width = board.height, board.width
    start, end = board.start, board.end
    best: dict[Pos, tuple[int, int]] = {start: (0, 0)}
    came_from: dict[Pos, tuple[Pos, Direction]] = {}
    queue: list[tuple[int, int, int, int]] = [(0, 0, start.row, start.col)]
    while queue:
        moves, distance, row, col = heapq.heappop(queue)
        here = Pos(row, col)
        if best[here] < (moves, distance):
            continue  # a stale queue entry
        if control is not None:
            control.tick()
        if here == end:
            route: list[Direction] = []
            while here != start:
                here, direction = came_from[here]
                route.append(direction)
            route.reverse()
            return IceSolution(tuple(route), moves, distance)
        for direction in DIRECTIONS:
            r, c, steps = row, col, 0
            while True:
                nr, nc = r + direction.dr, c + direction.dc
                if nr < 0 or nr >= height or nc < 0 or nc >= width or grid[nr][nc] == "#":
                    break
                r, c, steps = nr, nc, steps + 1
                if grid[r][c] in ("x", "E"):
                    break
            if steps == 0:
                continue
            there = Pos(r, c)
            cost = (moves + 1, distance + steps)
            if there not in best or cost < best[there]:
                best[there] = cost
                came_from[there] = (here, direction)
                heapq.heappush(queue, (cost[0], cost[1], r, c))
    return None
