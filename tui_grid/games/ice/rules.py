"""Ice sliding rules: one slide at a time, with move and distance counters.

A move picks a direction and keeps sliding over ice (and over the start, which is
ice too). It stops on a rough tile `x` or on the end `E`, or before an obstacle `#`
or the edge. A direction that cannot move at all is not a move, and once on `E` the
game is over, so no slide starts there.
"""

from __future__ import annotations

from dataclasses import dataclass

from tui_grid.core.geometry import Direction, Pos, parse_route
from tui_grid.games.ice.board import END, OBSTACLE, ROUGH, IceBoard

STOP_ON = frozenset((ROUGH, END))


@dataclass(frozen=True)
class IceState:
    """Where the player stands, and how many moves and tiles it took to get there."""

    pos: Pos
    moves: int = 0
    distance: int = 0


def initial_state(board: IceBoard) -> IceState:
    return IceState(board.start)


def slide_cells(board: IceBoard, pos: Pos, direction: Direction) -> tuple[Pos, ...]:
    """The cells a slide passes through, destination last; empty when it cannot move."""
    if pos == board.end:
        return ()
    rows = board.rows
    height, width = board.height, board.width
    dr, dc = direction.dr, direction.dc
    row, col = pos
    cells: list[Pos] = []
    while True:
        row += dr
        col += dc
        if not (0 <= row < height and 0 <= col < width):
            break
        ch = rows[row][col]
        if ch == OBSTACLE:
            break
        cells.append(Pos(row, col))
        if ch in STOP_ON:
            break
    return tuple(cells)


def slide(board: IceBoard, pos: Pos, direction: Direction) -> Pos | None:
    """Where a slide from `pos` ends, or None when that direction cannot move."""
    cells = slide_cells(board, pos, direction)
    return cells[-1] if cells else None


def play(board: IceBoard, state: IceState, direction: Direction) -> IceState | None:
    """The state after one slide, or None when it is not a move (blocked, or already won)."""
    cells = slide_cells(board, state.pos, direction)
    if not cells:
        return None
    return IceState(cells[-1], state.moves + 1, state.distance + len(cells))


def is_won(board: IceBoard, state: IceState) -> bool:
    return state.pos == board.end


def replay(board: IceBoard, route: str) -> IceState:
    """Play a route of u/d/l/r letters from the start; ValueError on an impossible move."""
    state = initial_state(board)
    for index, direction in enumerate(parse_route(route)):
        after = play(board, state, direction)
        if after is None:
            row, col = state.pos
            why = "the game is already won" if is_won(board, state) else "it is blocked"
            raise ValueError(
                f"move {index + 1} ({direction.letter!r}) is impossible from row {row + 1}, col {col + 1}: {why}"
            )
        state = after
    return state
