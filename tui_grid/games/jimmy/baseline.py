"""Plain exhaustive depth-first search: no pruning, no memo. The oracle for tests, the baseline for the bench.

It tries every sequence of Jimmy's moves, in the fixed direction order, until one escapes.
"""

from __future__ import annotations

import sys

from tui_grid.core.geometry import DIRECTIONS
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.rules import JimmyState, Outcome, initial_state


class BudgetExceeded(Exception):
    """Raised by `dfs_escape` when `max_nodes` is given and the search needs more."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"gave up after {nodes} nodes")
        self.nodes = nodes


def dfs_escape(board: JimmyBoard, state: JimmyState | None = None, *, max_nodes: int | None = None) -> tuple[bool, int]:
    """(can Jimmy escape, number of search nodes) by trying every move sequence."""
    if state is None:
        state = initial_state(board)
    if state.outcome is Outcome.ESCAPED:
        return True, 0
    if state.outcome is Outcome.CAUGHT:
        return False, 0
    height, width = board.height, board.width
    solid = board.solid
    visited = set(state.visited)
    limit = max_nodes if max_nodes is not None else -1
    nodes = 0

    def search(jr: int, jc: int, ghosts: list[tuple[int, int]]) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes == limit:
            raise BudgetExceeded(nodes)
        stepped = []
        for gr, gc in ghosts:
            if gc < jc:
                gc += 1
            elif gc > jc:
                gc -= 1
            elif gr < jr:
                gr += 1
            elif gr > jr:
                gr -= 1
            if gr == jr and gc == jc:
                return False
            stepped.append((gr, gc))
        for direction in DIRECTIONS:
            nr, nc = jr + direction.dr, jc + direction.dc
            if not (0 <= nr < height and 0 <= nc < width):
                continue
            cell = (nr, nc)
            if cell in solid or cell in visited or cell in stepped:
                continue
            if nr == 0 or nc == 0 or nr == height - 1 or nc == width - 1:
                return True
            visited.add(cell)
            found = search(nr, nc, stepped)
            visited.discard(cell)
            if found:
                return True
        return False

    old_limit = sys.getrecursionlimit()
    need = board.width * board.height + 200
    if need > old_limit:
        sys.setrecursionlimit(need)
    try:
        jr, jc = state.jimmy
        return search(jr, jc, [tuple(g) for g in state.ghosts]), nodes
    finally:
        if need > old_limit:
            sys.setrecursionlimit(old_limit)
