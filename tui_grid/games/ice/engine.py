"""Ice sliding on the engine protocol: one seat, actions are the route letters `u d l r`."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from tui_grid.core.engine import Engine, Event, IllegalAction, Joint, Outcome, PLAYING, Result, Step
from tui_grid.core.geometry import DIRECTIONS, Direction
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.causes import IceCause
from tui_grid.games.ice.rules import IceState, initial_state, is_won, play, slide_cells

DIRECTION_NAMES = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left", Direction.RIGHT: "right"}


class IceEngine(Engine[IceState, Direction]):
    seats = ("player",)
    compact_log = True

    def __init__(self, board: IceBoard) -> None:
        self.board = board

    def initial_state(self) -> IceState:
        return initial_state(self.board)

    def legal_actions(self, state: IceState, seat: int = 0) -> Sequence[Direction]:
        return tuple(d for d in DIRECTIONS if play(self.board, state, d) is not None)

    def step(self, state: IceState, actions: Joint) -> Step[IceState]:
        direction = actions[0]
        cells = slide_cells(self.board, state.pos, direction)
        if not cells:
            if is_won(self.board, state):
                raise IllegalAction("The exit is reached: no more slides.")
            ahead = state.pos.step(direction)
            what = "the edge of the map" if not self.board.in_bounds(ahead) else "an obstacle"
            raise IllegalAction(f"Can't slide {DIRECTION_NAMES[direction]}: {what} is in the way.", ((ahead.row, ahead.col),) if self.board.in_bounds(ahead) else ())
        after = IceState(cells[-1], state.moves + 1, state.distance + len(cells))
        frames = tuple(replace(after, pos=cell, distance=state.distance + i + 1) for i, cell in enumerate(cells[:-1]))
        return Step(after, (Event(f"slid {DIRECTION_NAMES[direction]} {len(cells)} tiles", "slide", 0),), frames)

    def outcome(self, state: IceState) -> Outcome:
        if is_won(self.board, state):
            return Outcome(Result.WON, IceCause.SOLVED, 0, numbers=(state.moves, state.distance))
        return PLAYING

    def observation(self, state: IceState, seat: int = 0) -> str:
        rows = [list(row) for row in self.board.rows]
        rows[state.pos.row][state.pos.col] = "@"
        return "\n".join("".join(row) for row in rows)

    def encode_action(self, action: Direction) -> str:
        return action.letter

    def decode_action(self, text: str) -> Direction:
        return Direction.from_letter(text)
