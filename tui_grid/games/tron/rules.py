"""Tron rules: immutable states and one simultaneous step.

Both players move at once, one cell per step, and leave a trail; a head cell is part of
its player's trail. Decisions on the edge cases:

* A player whose target cell is off the board, a wall, or any trail (its own, the
  other's, either head included) crashes there and does not move.
* Both players entering the same free cell meet head-on: both crash, a draw.
* Two players swapping cells (each moving onto the other's head) pass through each other
  head-on: both crash, a draw. (This falls out of the trail rule, since each enters a
  head cell, but it gets its own event.)
* If both crash in the same step, for whatever reasons, the game is a draw; if one does,
  the other wins.
* A player with no free neighbour has no move: whatever it plays, it crashes on the next
  step (a draw if the other crashes in that same step).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tui_grid.core.engine import PLAYING, Event, Outcome, Result
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.core.outcome import Failure
from tui_grid.games.tron.board import EMPTY, GREEN, RED, WALL, TronBoard
from tui_grid.games.tron.causes import TronCause

SEAT_NAMES = ("red", "green")
LETTERS = (RED, GREEN)


@dataclass(frozen=True)
class TronState:
    """A position: the grid (walls, trails, heads in HackerRank characters), both heads,
    the direction each last moved (None before its first move), the step count and the
    outcome; `crashes` holds, per seat, the cell it crashed into."""

    rows: tuple[str, ...]
    heads: tuple[Pos, Pos]
    headings: tuple[Direction | None, Direction | None] = (None, None)
    turn: int = 0
    outcome: Outcome = PLAYING
    crashes: tuple[Pos | None, Pos | None] = (None, None)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def cell(self, p: tuple[int, int]) -> str:
        """The character at a cell; off the board reads as a wall."""
        r, c = p
        if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0]):
            return self.rows[r][c]
        return WALL

    def is_free(self, p: tuple[int, int]) -> bool:
        return self.cell(p) == EMPTY

    def safe_moves(self, seat: int) -> tuple[Direction, ...]:
        """Directions that do not run straight into something (the other head may still
        enter the same cell)."""
        head = self.heads[seat]
        return tuple(d for d in DIRECTIONS if self.is_free(head.step(d)))


def initial_state(board: TronBoard) -> TronState:
    return TronState(board.rows, (board.red, board.green))


def toward_center(state: TronState, seat: int) -> Direction:
    """The first move of a seat that gave none: toward the board's centre, along the
    longer axis (horizontal on a tie), preferring a free cell if that one is blocked."""
    head = state.heads[seat]
    dr = (state.height - 1) / 2 - head.row
    dc = (state.width - 1) / 2 - head.col
    horizontal = Direction.RIGHT if dc > 0 else Direction.LEFT
    vertical = Direction.DOWN if dr > 0 else Direction.UP
    order = [horizontal, vertical] if abs(dc) >= abs(dr) else [vertical, horizontal]
    for d in order:
        if state.is_free(head.step(d)):
            return d
    return order[0]


def default_move(state: TronState, seat: int) -> Direction:
    """Keep going straight; before the first move, head for the centre."""
    heading = state.headings[seat]
    return heading if heading is not None else toward_center(state, seat)


def _crashed(cause: TronCause, seat: int, cell: Pos) -> Outcome:
    """`seat` crashed so at `cell`: the crash alone, nobody's win yet."""
    return Outcome(Result.LOST, cause, seat, cells=((cell.row, cell.col),), seat_words=SEAT_NAMES)


def _crash(state: TronState, seat: int, target: Pos) -> Outcome | None:
    """How moving to `target` crashes (ignoring the other player's move), or None."""
    if not (0 <= target.row < state.height and 0 <= target.col < state.width):
        return _crashed(TronCause.OFF_BOARD, seat, state.heads[seat])
    ch = state.rows[target.row][target.col]
    if ch == EMPTY:
        return None
    if ch == WALL:
        return _crashed(TronCause.WALL, seat, target)
    owner = LETTERS.index(ch)
    if owner == seat:
        return _crashed(TronCause.OWN_TRAIL, seat, target)
    return _crashed(TronCause.HEAD if target == state.heads[owner] else TronCause.TRAIL, seat, target)


def _meeting(cause: TronCause, cells: tuple[Pos, ...]) -> Outcome:
    """Both crash meeting head-on (in one cell, or passing through each other): a draw."""
    return Outcome(Result.DRAW, cause, cells=tuple((cell.row, cell.col) for cell in cells), seat_words=SEAT_NAMES)


def advance(state: TronState, moves: tuple[Direction, Direction]) -> tuple[TronState, tuple[Event, ...]]:
    """One simultaneous step: red plays moves[0], green moves[1]."""
    targets = (state.heads[0].step(moves[0]), state.heads[1].step(moves[1]))
    crashes = [_crash(state, seat, targets[seat]) for seat in (0, 1)]
    events: list[Event] = []
    meeting: Outcome | None = None
    if targets[0] == state.heads[1] and targets[1] == state.heads[0]:
        meeting = _meeting(TronCause.SWAPPED, (state.heads[0], state.heads[1]))
        events.append(Event(meeting.reason, "draw", None, (state.heads[0], state.heads[1])))
    elif targets[0] == targets[1] and crashes[0] is None:
        meeting = _meeting(TronCause.HEAD_ON, (targets[0],))
        events.append(Event(meeting.reason, "draw", None, (targets[0],)))
    else:
        for seat in (0, 1):
            lost = crashes[seat]
            if lost is not None:
                events.append(Event(lost.reason, "crash", seat, (targets[seat],)))
    crashed = (True, True) if meeting is not None else (crashes[0] is not None, crashes[1] is not None)
    grid = [list(row) for row in state.rows] if not all(crashed) else None
    heads = list(state.heads)
    cells: list[Pos | None] = [None, None]
    for seat in (0, 1):
        if crashed[seat]:
            cells[seat] = targets[seat]
        else:
            heads[seat] = targets[seat]
            assert grid is not None
            grid[targets[seat].row][targets[seat].col] = LETTERS[seat]
    rows = state.rows if grid is None else tuple("".join(row) for row in grid)
    outcome = _outcome(meeting, crashes)
    new = TronState(rows, (heads[0], heads[1]), (moves[0], moves[1]), state.turn + 1, outcome, (cells[0], cells[1]))
    return new, tuple(events)


def _outcome(meeting: Outcome | None, crashes: list[Outcome | None]) -> Outcome:
    """The step's outcome: a head-on meeting, both crashed (a draw), one (the other wins)
    or none (playing on)."""
    if meeting is not None:
        return meeting
    red, green = crashes
    if red is not None and green is not None:
        return Outcome(Result.DRAW, TronCause.BOTH, parts=(red, green), seat_words=SEAT_NAMES)
    lost = red or green
    if lost is None:
        return PLAYING
    assert lost.seat is not None
    return replace(lost, result=Result.WON, winner=1 - lost.seat)


def forfeited(state: TronState, seat: int, failure: Failure) -> TronState:
    """The state in which `seat` has lost by `failure`, and the other won."""
    return replace(state, outcome=failure.outcome(seat, 1 - seat, SEAT_NAMES))
