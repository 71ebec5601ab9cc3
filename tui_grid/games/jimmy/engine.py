"""Jimmy and the ghosts on the engine protocol: one seat, actions are `U D L R` as in the
solve JSON; the ghosts are part of the rules, not a seat."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Sequence

from tui_grid.core.engine import Engine, Event, IllegalAction, Joint, Outcome, PLAYING, Result, Step
from tui_grid.games.jimmy.causes import JimmyCause
from tui_grid.core.geometry import Direction, cell_name
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.rules import JimmyState, Outcome as JimmyOutcome, initial_state, legal_moves, play, step_ghosts

LETTERS = {Direction.UP: "U", Direction.DOWN: "D", Direction.LEFT: "L", Direction.RIGHT: "R"}
NAMES = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left", Direction.RIGHT: "right"}


class JimmyEngine(Engine[JimmyState, Direction]):
    seats = ("jimmy",)
    compact_log = True

    def __init__(self, board: JimmyBoard) -> None:
        self.board = board

    def initial_state(self) -> JimmyState:
        return initial_state(self.board)

    def legal_actions(self, state: JimmyState, seat: int = 0) -> Sequence[Direction]:
        return legal_moves(self.board, state)

    def step(self, state: JimmyState, actions: Joint) -> Step[JimmyState]:
        direction = actions[0]
        turn = play(self.board, state, direction)
        if turn is None:
            target = state.jimmy.step(direction)
            raise IllegalAction(self.refusal(state, direction), (tuple(target),) if self.board.in_bounds(target) else ())
        after = turn.state
        events = [Event(f"Jimmy went {NAMES[direction]} to {cell_name(after.jimmy)}", "move", 0)]
        if after.over:
            events.append(Event(self.outcome(after).reason, after.outcome.value, 0, (tuple(after.jimmy),)))
        return Step(after, tuple(events), (replace(state, ghosts=turn.ghosts_moved),))

    def refusal(self, state: JimmyState, direction: Direction) -> str:
        """Why a move is refused, in the player's words."""
        if state.over:
            return "The game is over."
        target = state.jimmy.step(direction)
        where = NAMES[direction]
        if not self.board.in_bounds(target):
            return f"Can't go {where}: that is off the board."
        if target in self.board.solid:
            return f"Can't go {where}: solid."
        if target in state.visited:
            return f"Can't go {where}: Jimmy has been there already."
        if target in step_ghosts(state.ghosts, state.jimmy):
            return f"Can't go {where}: a ghost steps onto that cell first."
        return f"Can't go {where}."

    def outcome(self, state: JimmyState) -> Outcome:
        if state.outcome is JimmyOutcome.ESCAPED:
            return Outcome(Result.WON, JimmyCause.ESCAPED, 0, numbers=(state.moves,))
        if state.outcome is JimmyOutcome.CAUGHT and state.caught_by is not None:
            return Outcome(Result.LOST, JimmyCause.CAUGHT, 0, cells=(tuple(state.jimmy), tuple(state.caught_by)))
        if state.outcome is JimmyOutcome.CAUGHT:
            return Outcome(Result.LOST, JimmyCause.STUCK, 0)
        return PLAYING

    def observation(self, state: JimmyState, seat: int = 0) -> str:
        grid = [list(row.replace("o", ".").replace("g", ".")) for row in self.board.rows()]
        for cell in state.visited:
            grid[cell.row][cell.col] = "*"
        for ghost, count in Counter(state.ghosts).items():
            grid[ghost.row][ghost.col] = "g" if count == 1 else str(min(count, 9))  # stacked: how many, as in the app
        grid[state.jimmy.row][state.jimmy.col] = "o"
        return "\n".join("".join(row) for row in grid)

    def encode_action(self, action: Direction) -> str:
        return LETTERS[action]

    def decode_action(self, text: str) -> Direction:
        return Direction.from_letter(text)
