"""The fewest moves any escape can take: Jimmy's distance to the border through open
cells, ghosts left out.

Every escape is such a walk (ghosts and his trail only forbid cells, never open new
ones), so none is shorter; an escape of exactly this length is the shortest there is.
The exact solver (jimmy.solver) proves whether an escape exists, not how short one can
be, so this bound is what proves an escape optimal.
"""

from __future__ import annotations

from collections import deque

from tui_grid.core.geometry import DIRECTIONS, Pos
from tui_grid.games.jimmy.board import JimmyBoard


def border_distance(board: JimmyBoard) -> int | None:
    """Steps from Jimmy's start to the nearest border cell (0 on the border), by a
    breadth-first search over open cells; None when solids wall him in."""
    start = board.jimmy
    seen: set[Pos] = {start}
    queue: deque[tuple[Pos, int]] = deque([(start, 0)])
    while queue:
        pos, steps = queue.popleft()
        if board.is_border(pos):
            return steps
        for direction in DIRECTIONS:
            after = pos.step(direction)
            if after not in seen and board.is_open(after):
                seen.add(after)
                queue.append((after, steps + 1))
    return None
