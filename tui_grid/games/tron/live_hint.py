"""Tron's live hint: while it is on, each tick the hard bot plans a move for every human's
seat, as a quiet task on the screen's table (no busy bar, not what esc cancels), and the
board marks where each would drive. An answer for a state the round has left is dropped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Direction
from tui_grid.core.session import Session
from tui_grid.core.table import Hint, Table
from tui_grid.games.tron.rules import SEAT_NAMES, TronState


class HintHost(Protocol):
    """What the live hint needs of the screen it serves."""

    hint: Hint | None
    table: Table[TronState]

    @property
    def session(self) -> Session[TronState, Any]: ...

    def tick_seconds(self) -> float: ...

    def run_in_worker(self, what: str, task: Callable[[Any], Any], done: Callable[[Any], None], *, quiet: bool = False) -> None: ...


def think_seconds(tick: float) -> float:
    """The hint's time to plan: a quarter of a tick or so (15 to 150 ms), so the marks
    arrive well before the next tick."""
    return max(15.0, min(150.0, tick * 300)) / 1000


def hint_for(state: TronState, moves: dict[int, Direction], mark: tuple[str, str]) -> Hint:
    """The hint for planned `moves` (seat: direction) from `state`: `mark` on the cell each
    seat's head would drive into, and the moves in words."""
    marks = {state.heads[seat].step(direction): mark for seat, direction in moves.items()}
    words = ", ".join(f"{SEAT_NAMES[seat]} {direction.name}" for seat, direction in moves.items())
    return Hint(f"Hint: the hard bot would drive {words}.", marks)


class LiveHint:
    """The hint key's toggle and the task it runs each tick for `host`; `mark` is the
    board view's (glyph, kind) for a planned cell."""

    def __init__(self, host: HintHost, mark: tuple[str, str]) -> None:
        self.host = host
        self.mark = mark
        self.on = False

    def toggle(self) -> str:
        """Turn the hint on or off (off clears the marks); what to say about it."""
        self.on = not self.on
        if not self.on:
            self.host.hint = None
            return "Hint off."
        session = self.host.session
        if not session.over and not session.people_act():  # every person is out of this round
            return "Hint on from the next round: no person rides in this one. h turns it off."
        return f"Hint on: {self.mark[0].strip()} marks where the hard bot would drive you, every tick. h turns it off."

    def request(self) -> None:
        """Plan this tick's moves for the human seats still riding, while the hint is on and
        the round is."""
        session = self.host.session
        if not self.on or session.over:
            return
        state = session.state
        seats = tuple(seat for seat, agent in enumerate(session.agents) if agent.human and state.riding(seat))
        if not seats:  # every human is out (an arena rides on): nothing to mark
            self.host.hint = None
            return
        seconds = think_seconds(self.host.tick_seconds())

        def plan(control: SearchControl) -> dict[int, Direction]:
            control.seconds = seconds
            return {seat: self.host.table.plan(state, control, seat).actions[0] for seat in seats}

        self.host.run_in_worker("Hint", plan, lambda moves: self._ready(state, moves), quiet=True)

    def _ready(self, state: TronState, moves: dict[int, Direction]) -> None:
        if self.on and state is self.host.session.state:
            self.host.hint = hint_for(state, moves, self.mark)
