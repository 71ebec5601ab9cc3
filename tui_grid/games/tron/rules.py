"""Tron rules: immutable states and one simultaneous step, for two to eight cycles.

Every cycle still riding moves at once, one cell per step, and leaves a trail; a head
cell is part of its player's trail. Decisions on the edge cases:

* A cycle whose target cell is off the board, a wall, or any trail (its own, another's,
  any head included) crashes there and does not move.
* Cycles entering the same free cell meet head-on: all of them crash.
* Two cycles swapping cells (each moving onto the other's head) pass through each other
  head-on: both crash. (This falls out of the trail rule, since each enters a head cell,
  but it gets its own event.)
* A cycle with no free neighbour has no move: whatever it plays, it crashes next step.
* A cycle that crashed (or forfeited) is out: its trail stays on the board as a wall.

With two cycles (the duel): if both crash in the same step, for whatever reasons, the
game is a draw; if one does, the other wins. With more (the arena) the game goes on while
two or more ride; the last cycle riding wins, and cycles out in the same step share a
place (`Outcome.places`), so when the last of them crash together they share the first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from tui_grid.core.engine import PLAYING, Event, Outcome, Result
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.core.outcome import Failure
from tui_grid.games.tron.board import EMPTY, LETTERS, SEAT_NAMES, WALL, TronBoard
from tui_grid.games.tron.causes import TronCause

__all__ = ["LETTERS", "SEAT_NAMES", "TronState", "advance", "default_move", "forfeited", "initial_state", "places_of"]


@dataclass(frozen=True)
class TronState:
    """A position: the grid (walls, trails, heads in HackerRank characters), the heads,
    the direction each last moved (None before its first move), the step count and the
    outcome. `crashes` holds, per seat, the cell it crashed into (None while it rides, and
    for a seat out by forfeit); `out_at` the step each seat went out at (empty while every
    cycle rides; None for one still riding)."""

    rows: tuple[str, ...]
    heads: tuple[Pos, ...]
    headings: tuple[Direction | None, ...] = (None, None)
    turn: int = 0
    outcome: Outcome = PLAYING
    crashes: tuple[Pos | None, ...] = (None, None)
    out_at: tuple[int | None, ...] = ()

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def cycles(self) -> int:
        return len(self.heads)

    def riding(self, seat: int) -> bool:
        """Whether the seat's cycle is still in the game."""
        return not self.out_at or self.out_at[seat] is None

    def riders(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(len(self.heads)) if self.riding(seat))

    def cell(self, p: tuple[int, int]) -> str:
        """The character at a cell; off the board reads as a wall."""
        r, c = p
        if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0]):
            return self.rows[r][c]
        return WALL

    def is_free(self, p: tuple[int, int]) -> bool:
        return self.cell(p) == EMPTY

    def safe_moves(self, seat: int) -> tuple[Direction, ...]:
        """Directions that do not run straight into something (another head may still
        enter the same cell)."""
        head = self.heads[seat]
        return tuple(d for d in DIRECTIONS if self.is_free(head.step(d)))


def initial_state(board: TronBoard) -> TronState:
    cycles = len(board.heads)
    return TronState(board.rows, board.heads, (None,) * cycles, crashes=(None,) * cycles)


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


def _crashed(cause: TronCause, seat: int, cell: Pos, cycles: int, other: int | None = None) -> Outcome:
    """`seat` crashed so at `cell` (into `other`'s trail or head): the crash alone."""
    numbers = () if other is None or cycles == 2 else (float(other),)
    return Outcome(Result.LOST, cause, seat, numbers=numbers, cells=((cell.row, cell.col),), seat_words=SEAT_NAMES)


def _crash(state: TronState, seat: int, target: Pos) -> Outcome | None:
    """How moving to `target` crashes (ignoring the other cycles' moves), or None."""
    cycles = len(state.heads)
    if not (0 <= target.row < state.height and 0 <= target.col < state.width):
        return _crashed(TronCause.OFF_BOARD, seat, state.heads[seat], cycles)
    ch = state.rows[target.row][target.col]
    if ch == EMPTY:
        return None
    if ch == WALL or ch not in LETTERS[:cycles]:
        return _crashed(TronCause.WALL, seat, target, cycles)
    owner = LETTERS.index(ch)
    if owner == seat:
        return _crashed(TronCause.OWN_TRAIL, seat, target, cycles)
    head = target == state.heads[owner] and state.riding(owner)
    return _crashed(TronCause.HEAD if head else TronCause.TRAIL, seat, target, cycles, owner)


def _meeting(cause: TronCause, seats: tuple[int, ...], cells: tuple[Pos, ...], cycles: int) -> Outcome:
    """Cycles meeting head-on (in one cell, or passing through each other). In the duel
    the seats go without saying; in the arena `numbers` name them."""
    numbers = () if cycles == 2 else tuple(float(seat) for seat in seats)
    return Outcome(Result.DRAW, cause, numbers=numbers, cells=tuple((cell.row, cell.col) for cell in cells),
                   seat_words=SEAT_NAMES)


def _meetings(state: TronState, targets: dict[int, Pos], crashes: dict[int, Outcome | None]) -> list[tuple[tuple[int, ...], Outcome]]:
    """The head-on meetings of a step: pairs swapping cells, and groups entering one free cell."""
    cycles = len(state.heads)
    found: list[tuple[tuple[int, ...], Outcome]] = []
    seats = sorted(targets)
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if targets[a] == state.heads[b] and targets[b] == state.heads[a]:
                found.append(((a, b), _meeting(TronCause.SWAPPED, (a, b), (state.heads[a], state.heads[b]), cycles)))
    by_cell: dict[Pos, list[int]] = {}
    for seat in seats:
        if crashes[seat] is None:
            by_cell.setdefault(targets[seat], []).append(seat)
    for cell, group in by_cell.items():
        if len(group) > 1:
            found.append((tuple(group), _meeting(TronCause.HEAD_ON, tuple(group), (cell,), cycles)))
    return found


def advance(state: TronState, moves: Sequence[Direction | None]) -> tuple[TronState, tuple[Event, ...]]:
    """One simultaneous step: seat k plays moves[k] (ignored for a seat that is out)."""
    cycles = len(state.heads)
    chosen = {seat: moves[seat] or default_move(state, seat) for seat in state.riders()}
    targets = {seat: state.heads[seat].step(move) for seat, move in chosen.items()}
    crashes = {seat: _crash(state, seat, target) for seat, target in targets.items()}
    meetings = _meetings(state, targets, crashes)
    events: list[Event] = []
    out: set[int] = set()
    for seats, meeting in meetings:
        out.update(seats)
        events.append(Event(meeting.reason, "draw" if cycles == 2 else "meet", None, tuple(Pos(*cell) for cell in meeting.cells)))
    lone = {seat: lost for seat, lost in crashes.items() if lost is not None and seat not in out}
    for seat, lost in lone.items():
        events.append(Event(lost.reason, "crash", seat, (targets[seat],)))
    out.update(lone)
    grid = [list(row) for row in state.rows]
    heads = list(state.heads)
    cells = list(state.crashes)
    headings = list(state.headings)
    turn = state.turn + 1
    out_at = list(state.out_at) if state.out_at else [None] * cycles
    for seat, target in targets.items():
        headings[seat] = chosen[seat]
        if seat in out:
            cells[seat] = target
            out_at[seat] = turn
        else:
            heads[seat] = target
            grid[target.row][target.col] = LETTERS[seat]
    moved = len(out) < len(targets)
    rows = tuple("".join(row) for row in grid) if moved else state.rows
    new = TronState(rows, tuple(heads), tuple(headings), turn, PLAYING, tuple(cells), tuple(out_at) if out else state.out_at)
    if cycles == 2:
        outcome = _duel_outcome(meetings, [crashes[0], crashes[1]])
    else:
        outcome = _arena_outcome(new, [meeting for _, meeting in meetings] + list(lone.values()))
    return replace(new, outcome=outcome), tuple(events)


def _duel_outcome(meetings: list[tuple[tuple[int, ...], Outcome]], crashes: list[Outcome | None]) -> Outcome:
    """The duel's outcome: a head-on meeting, both crashed (a draw), one (the other wins)
    or none (playing on)."""
    if meetings:
        return meetings[0][1]
    red, green = crashes
    if red is not None and green is not None:
        return Outcome(Result.DRAW, TronCause.BOTH, parts=(red, green), seat_words=SEAT_NAMES)
    lost = red or green
    if lost is None:
        return PLAYING
    assert lost.seat is not None
    return replace(lost, result=Result.WON, winner=1 - lost.seat)


def places_of(state: TronState) -> tuple[int, ...]:
    """Each seat's place (1 the best): a cycle still riding beats every one that is out,
    and one out later beats one out earlier; cycles out in the same step share a place."""
    last = state.turn + 1
    went = [last if at is None else at for at in (state.out_at or (None,) * len(state.heads))]
    return tuple(1 + sum(1 for other in went if other > mine) for mine in went)


def _arena_outcome(state: TronState, ends: list[Outcome]) -> Outcome:
    """The arena's outcome after a step: playing on while two or more ride; else the last
    one riding wins (LAST_STANDING), or the last to go out share it (ALL_OUT); `parts` are
    the final step's crashes and meetings."""
    riders = state.riders()
    if len(riders) > 1:
        return PLAYING
    places = places_of(state)
    if riders:
        return Outcome(Result.WON, TronCause.LAST_STANDING, winner=riders[0], parts=tuple(ends), places=places, seat_words=SEAT_NAMES)
    return Outcome(Result.DRAW, TronCause.ALL_OUT, parts=tuple(ends), places=places, seat_words=SEAT_NAMES)


def forfeited(state: TronState, seat: int, failure: Failure) -> TronState:
    """The state in which `seat` has lost by `failure`: in the duel the other wins; in the
    arena the seat is out (its trail stays) and the game ends only if one cycle is left."""
    cycles = len(state.heads)
    if cycles == 2:
        return replace(state, outcome=failure.outcome(seat, 1 - seat, SEAT_NAMES))
    out_at = list(state.out_at) if state.out_at else [None] * cycles
    out_at[seat] = state.turn
    new = replace(state, out_at=tuple(out_at))
    riders = new.riders()
    if len(riders) > 1:
        return new
    ended = failure.outcome(seat, riders[0], SEAT_NAMES)
    return replace(new, outcome=replace(ended, places=places_of(new)))
