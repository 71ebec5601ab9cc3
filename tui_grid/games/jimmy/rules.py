"""The rules of Jimmy and the ghosts: ghost steps, Jimmy's legal moves, settled game states.

A turn: every ghost steps one cell toward Jimmy (sideways while its column differs from
his, else up or down); a ghost landing on him catches him; then Jimmy steps to an open,
unvisited, ghost-free cell; standing on the border after his step means he escaped.

States are *settled*: a state that is still PLAYING always has a legal move. When the
next ghost step would catch Jimmy, or leave him without a legal move, the state already
shows that end, with the ghosts on their stepped cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from tui_grid.core.geometry import DIRECTIONS, Direction, Pos, cell_name
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.causes import DEAD_END, caught_text


class Outcome(Enum):
    PLAYING = "playing"
    ESCAPED = "escaped"
    CAUGHT = "caught"


@dataclass(frozen=True)
class JimmyState:
    """Where everyone is at the start of a turn (ghosts not yet stepped) and how it went;
    `caught_by`: where the ghost that caught Jimmy stepped from."""

    jimmy: Pos
    ghosts: tuple[Pos, ...]
    visited: frozenset[Pos]
    moves: int
    outcome: Outcome
    reason: str
    caught_by: Pos | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not Outcome.PLAYING


@dataclass(frozen=True)
class Turn:
    """One played turn: the ghosts after their step (before Jimmy moves), and the new state."""

    direction: Direction
    ghosts_moved: tuple[Pos, ...]
    state: JimmyState


STARTED_ON_BORDER = "started on the border"


def step_ghost(ghost: Pos, jimmy: Pos) -> Pos:
    """One ghost's step: toward Jimmy's column while it differs, else toward his row."""
    row, col = ghost
    if col < jimmy[1]:
        return Pos(row, col + 1)
    if col > jimmy[1]:
        return Pos(row, col - 1)
    if row < jimmy[0]:
        return Pos(row + 1, col)
    if row > jimmy[0]:
        return Pos(row - 1, col)
    return Pos(row, col)


def step_ghosts(ghosts: Sequence[Pos], jimmy: Pos) -> tuple[Pos, ...]:
    """Every ghost's step toward Jimmy, in the same order (ghosts that meet stay listed twice)."""
    return tuple(step_ghost(ghost, jimmy) for ghost in ghosts)


def open_moves(board: JimmyBoard, jimmy: Pos, visited: frozenset[Pos], blocked: Sequence[Pos]) -> tuple[Direction, ...]:
    """Directions into cells that are on the board, not solid, not visited and not in `blocked`."""
    out = []
    for direction in DIRECTIONS:
        target = Pos(jimmy[0] + direction.dr, jimmy[1] + direction.dc)
        if board.in_bounds(target) and target not in board.solid and target not in visited and target not in blocked:
            out.append(direction)
    return tuple(out)


def _settle(board: JimmyBoard, jimmy: Pos, ghosts: tuple[Pos, ...], visited: frozenset[Pos], moves: int) -> JimmyState:
    """The state at the start of a turn, ended at once if the coming ghost step decides it."""
    stepped = step_ghosts(ghosts, jimmy)
    for before, after in zip(ghosts, stepped):
        if after == jimmy:
            return JimmyState(jimmy, stepped, visited, moves, Outcome.CAUGHT, caught_text(jimmy, before), before)
    if not open_moves(board, jimmy, visited, stepped):
        return JimmyState(jimmy, stepped, visited, moves, Outcome.CAUGHT, DEAD_END)
    return JimmyState(jimmy, ghosts, visited, moves, Outcome.PLAYING, "")


def initial_state(board: JimmyBoard) -> JimmyState:
    """The start: escaped already if Jimmy is on the border, else settled like any turn start."""
    visited = frozenset((board.jimmy,))
    if board.is_border(board.jimmy):
        return JimmyState(board.jimmy, board.ghosts, visited, 0, Outcome.ESCAPED, STARTED_ON_BORDER)
    return _settle(board, board.jimmy, board.ghosts, visited, 0)


def legal_moves(board: JimmyBoard, state: JimmyState) -> tuple[Direction, ...]:
    """Jimmy's legal moves this turn; empty when the game is over or the ghost step catches him."""
    if state.outcome is not Outcome.PLAYING:
        return ()
    stepped = step_ghosts(state.ghosts, state.jimmy)
    if state.jimmy in stepped:
        return ()
    return open_moves(board, state.jimmy, state.visited, stepped)


def play(board: JimmyBoard, state: JimmyState, direction: Direction) -> Turn | None:
    """Play one turn with Jimmy moving `direction`; None if the game is over or the move is illegal."""
    if state.outcome is not Outcome.PLAYING:
        return None
    stepped = step_ghosts(state.ghosts, state.jimmy)
    if state.jimmy in stepped:
        return None
    target = state.jimmy.step(direction)
    if not board.in_bounds(target) or target in board.solid or target in state.visited or target in stepped:
        return None
    visited = state.visited | {target}
    moves = state.moves + 1
    if board.is_border(target):
        new = JimmyState(target, stepped, visited, moves, Outcome.ESCAPED, f"escaped at {cell_name(target)}")
    else:
        new = _settle(board, target, stepped, visited, moves)
    return Turn(direction, stepped, new)


def replay(board: JimmyBoard, path: Sequence[Direction], state: JimmyState | None = None) -> JimmyState:
    """Play `path` from the start (or from `state`); raises ValueError at the first illegal move."""
    current = initial_state(board) if state is None else state
    for index, direction in enumerate(path):
        turn = play(board, current, direction)
        if turn is None:
            if current.outcome is not Outcome.PLAYING:
                raise ValueError(f"move {index + 1} ({direction.letter}): the game is already over ({current.outcome.value})")
            raise ValueError(f"move {index + 1} ({direction.letter}): illegal from {cell_name(current.jimmy)}")
        current = turn.state
    return current
