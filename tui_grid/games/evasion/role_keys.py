"""What the hunter's and the prey's keys do: build a wall, select and remove one, flee;
and a human's concede.

Keys belong to the roles, not to participants: the roles swap between rounds, and the
person on the wall keys hunts in whichever seat hunts. A role's key does nothing, with the
reason said, while the round is over or a bot plays that role."""

from __future__ import annotations

from typing import Any, Protocol

from tui_grid.core.match import Match
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.session import Session
from tui_grid.games.evasion.engine import HUNTER, PREY, SEATS, HunterAction, PreyAction, State
from tui_grid.games.evasion.wall_selection import WallSelection

#: Prey moves: (keys, dx, dy, name). The block w e r / s d f / x c v mirrors the eight
#: directions around d (stay); digits follow a numeric keypad; arrows move straight.
PREY_KEYS = (
    ("w,7", -1, -1, "up-left"),
    ("e,8,up", 0, -1, "up"),
    ("r,9", 1, -1, "up-right"),
    ("s,4,left", -1, 0, "left"),
    ("d,5", 0, 0, "stay"),
    ("f,6,right", 1, 0, "right"),
    ("x,1", -1, 1, "down-left"),
    ("c,2,down", 0, 1, "down"),
    ("v,3", 1, 1, "down-right"),
)
DIRECTION_NAMES = {(dx, dy): name for _, dx, dy, name in PREY_KEYS}
PREY_KEY_OF = {(dx, dy): keys.split(",")[0] for keys, dx, dy, _ in PREY_KEYS}


class Desk(Protocol):
    """The screen's side of the role keys: the match shown, and where words go."""

    @property
    def session(self) -> Session[State, Any]: ...

    @property
    def match(self) -> Match[State, Any]: ...

    @property
    def shown(self) -> State: ...

    def is_human(self, seat: int) -> bool: ...

    def concede(self, seat: int, failure: Failure) -> None:
        """`seat` loses the round (the match's feed decides how: here, or by its server)."""

    def seat_name(self, seat: int) -> str: ...

    def say(self, message: str) -> None:
        """On the message line, until the next step."""

    def toast(self, message: str) -> None:
        """Aside for a few seconds, leaving the message line as it is."""


class RoleKeys:
    """The hunter's keys (walls, with `walls` the selected one) and the prey's (moves)."""

    def __init__(self, desk: Desk, walls: WallSelection) -> None:
        self.desk = desk
        self.walls = walls

    def may_play(self, seat: int) -> bool:
        """Whether a key of `seat`'s role acts now; when not, the reason is said."""
        desk = self.desk
        if desk.session.over:
            # A toast: the round's verdict stays on screen until the next round starts.
            desk.toast(f"The round is over. {'enter plays the next one.' if not desk.match.finished else 'esc goes back.'}")
            return False
        if not desk.is_human(seat):
            desk.say(f"The {SEATS[seat]} is played by {desk.seat_name(seat)} this round: your keys are the {SEATS[1 - seat]}'s.")
            return False
        return True

    def build(self, kind: str) -> None:
        """Ask for a wall through the hunter, "h" horizontal or "v" vertical, at its next step."""
        if not self.may_play(HUNTER):
            return
        session = self.desk.session
        # Merged with a request queued for the same step (EvasionEngine.queue_action).
        session.submit(HUNTER, HunterAction(kind))
        self.desk.say(f"{'Horizontal' if kind == 'h' else 'Vertical'} wall requested for step {session.state.tick + 1}.")

    def select_next(self) -> None:
        if not self.may_play(HUNTER):
            return
        walls = self.desk.session.state.walls
        index = self.walls.select_next(walls, self.desk.shown.walls)
        if index is None:
            self.desk.say("No walls to select.")
            return
        self.desk.say(f"Selected wall {index + 1}/{len(walls)}: {walls[index].text()}. ⌫ removes it.")

    def remove_selected(self) -> None:
        if not self.may_play(HUNTER):
            return
        wall = self.walls.current(self.desk.shown.walls)
        if wall is None:
            self.desk.say("Select a wall with tab first.")
            return
        session = self.desk.session
        session.submit(HUNTER, HunterAction(None, (wall,)))
        self.walls.clear()
        self.desk.say(f"Removing wall {wall.text()} at step {session.state.tick + 1}.")

    def flee(self, dx: int, dy: int) -> None:
        """The prey's order: queued for its next move step (it moves on even steps)."""
        if self.may_play(PREY):
            self.desk.session.submit(PREY, PreyAction((dx, dy)))

    def conceding_seat(self) -> int | None:
        """The seat a concede gives up: the hunter's if a human hunts, else the prey's if a
        human flees; None, with the reason said, when no human plays or the round is over."""
        desk = self.desk
        seats = [seat for seat in (HUNTER, PREY) if desk.is_human(seat)]
        if not seats:
            desk.say("No human plays this round: nothing to concede.")
            return None
        if desk.session.over:
            desk.toast("The round is over already.")
            return None
        return seats[0]

    def concede(self, seat: int) -> None:
        """`seat` loses the round, if it is still on and a human still plays that seat."""
        if not self.desk.session.over and self.desk.is_human(seat):
            self.desk.concede(seat, Failure(Fault.CONCEDED))
