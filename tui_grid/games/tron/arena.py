"""Arena boards: an open square that grows with the number of cycles, the heads spaced
evenly on a circle around its centre, red on the left as in the duel.

Each cycle gets about 90 open cells (the duel's HackerRank board gives each 84), so a
round lasts about as long with eight cycles as with two.
"""

from __future__ import annotations

import math

from tui_grid.core.geometry import Pos
from tui_grid.games.tron.board import EMPTY, LETTERS, MAX_CYCLES, WALL, TronBoard, standard_board

MIN_CYCLES = 2
#: The board's side (border included) for each number of cycles.
SIDES = {2: 15, 3: 19, 4: 21, 5: 23, 6: 25, 7: 27, 8: 29}


def check_cycles(cycles: int) -> None:
    """ValueError unless an arena can hold `cycles` cycles."""
    if not MIN_CYCLES <= cycles <= MAX_CYCLES:
        raise ValueError(f"an arena holds {MIN_CYCLES} to {MAX_CYCLES} cycles (got {cycles})")


def arena_starts(cycles: int) -> tuple[Pos, ...]:
    """Where each cycle starts: evenly on a circle two cells in from the border."""
    side = SIDES[cycles]
    centre = (side - 1) / 2
    radius = centre - 2
    heads = []
    for seat in range(cycles):
        angle = math.pi + 2 * math.pi * seat / cycles
        heads.append(Pos(round(centre - radius * math.sin(angle)), round(centre + radius * math.cos(angle))))
    return tuple(heads)


def arena_board(cycles: int) -> TronBoard:
    """The arena for `cycles` cycles; two get the duel's HackerRank board."""
    check_cycles(cycles)
    if cycles == 2:
        return standard_board()
    side = SIDES[cycles]
    grid = [[WALL if r in (0, side - 1) or c in (0, side - 1) else EMPTY for c in range(side)] for r in range(side)]
    heads = arena_starts(cycles)
    for seat, head in enumerate(heads):
        grid[head.row][head.col] = LETTERS[seat]
    return TronBoard(tuple("".join(row) for row in grid), heads, f"arena for {cycles}")
