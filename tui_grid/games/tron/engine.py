"""The Tron engine: two to eight cycles (red, green, blue...) moving at once, one step per tick."""

from __future__ import annotations

from typing import Sequence

from tui_grid.core.engine import Engine, IllegalAction, Outcome, Step
from tui_grid.core.geometry import DIRECTIONS, Direction
from tui_grid.core.outcome import Failure
from tui_grid.games.tron import protocol
from tui_grid.games.tron.board import TronBoard, standard_board
from tui_grid.games.tron.rules import SEAT_NAMES, TronState, advance, default_move, forfeited, initial_state

_WORD = {Direction.UP: "UP", Direction.DOWN: "DOWN", Direction.LEFT: "LEFT", Direction.RIGHT: "RIGHT"}
_BY_TEXT = {**{d.letter: d for d in DIRECTIONS}, **{w.lower(): d for d, w in _WORD.items()}}


def word(direction: Direction) -> str:
    """The protocol word for a direction (`UP`...)."""
    return _WORD[direction]


def direction_of(text: str) -> Direction:
    """A direction from a letter (u d l r) or a word (UP, left...), any case."""
    try:
        return _BY_TEXT[text.strip().lower()]
    except KeyError:
        raise ValueError(f"not a direction: {text!r} (use u d l r or UP DOWN LEFT RIGHT)") from None


#: Turns a player may queue ahead of the ticks.
QUEUE = 3


class TronEngine(Engine[TronState, Direction]):
    """Tron light cycles on one board.

    The board's heads make the seats: two for the duel, up to eight for an arena.
    Actions are Directions, logged as letters `u d l r` (a step is the riding seats'
    actions in seat order, e.g. `r,l`). Every direction is legal (running into something
    is a crash, not an illegal move). A seat that gives no action in time keeps going
    straight (`default_action`), and on its first move heads for the centre. A step
    missing a seat's action uses that default. A seat that is out acts no more.
    """

    seats = SEAT_NAMES[:2]
    allows_undo = False
    tick_seconds = 0.25
    human_tick_seconds = 0.4  # 2.5 ticks a second with a human driving; bots alone: 4

    def __init__(self, board: TronBoard | None = None) -> None:
        self.board = board if board is not None else standard_board()
        self.seats = SEAT_NAMES[: len(self.board.heads)]

    def initial_state(self) -> TronState:
        return initial_state(self.board)

    def acting_seats(self, state: TronState) -> tuple[int, ...]:
        return () if state.outcome.over else state.riders()

    def legal_actions(self, state: TronState, seat: int) -> Sequence[Direction]:
        return () if state.outcome.over or not state.riding(seat) else DIRECTIONS

    def step(self, state: TronState, actions) -> Step[TronState]:  # type: ignore[no-untyped-def,override]
        if state.outcome.over:
            raise IllegalAction("the game is over")
        moves: list[Direction | None] = []
        for seat in range(len(state.heads)):
            action = actions.get(seat) if state.riding(seat) else None
            if action is None and state.riding(seat):
                action = default_move(state, seat)
            if action is not None and not isinstance(action, Direction):
                raise IllegalAction(f"{SEAT_NAMES[seat]}: not a direction: {action!r}")
            moves.append(action)
        new, events = advance(state, moves)
        return Step(new, events)

    def outcome(self, state: TronState) -> Outcome:
        return state.outcome

    def default_action(self, state: TronState, seat: int) -> Direction | None:
        return default_move(state, seat)

    def queue_action(self, state: TronState, seat: int, queued: tuple[Direction, ...], action: Direction) -> tuple[Direction, ...]:
        """Turns pressed within one tick queue up (at most QUEUE, the last replaced when
        full); a key the same way again changes nothing, and one straight back is ignored,
        since it could only crash."""
        last = queued[-1] if queued else state.headings[seat]
        if last is not None and (action == last or action == last.opposite):
            return queued
        if len(queued) >= QUEUE:
            queued = queued[:-1]
        return queued + (action,)

    def forfeit(self, state: TronState, seat: int, failure: Failure) -> TronState:
        return forfeited(state, seat, failure)

    def observation(self, state: TronState, seat: int) -> str:
        """The HackerRank state text for `seat` (what an external bot is sent)."""
        return protocol.state_for(state.rows, state.heads, seat, state.riders())

    def encode_action(self, action: Direction) -> str:
        return action.letter

    def decode_action(self, text: str) -> Direction:
        return direction_of(text)


def encode_for_program(ask) -> str:  # type: ignore[no-untyped-def]
    """`encode_state` for an ExternalProgramAgent: the HackerRank state text."""
    return protocol.state_for(ask.state.rows, ask.state.heads, ask.seat, ask.state.riders())


def parse_program_answer(line: str) -> Direction:
    """`parse_answer` for an ExternalProgramAgent: exactly one of LEFT RIGHT UP DOWN."""
    return direction_of(protocol.parse_word(line))
