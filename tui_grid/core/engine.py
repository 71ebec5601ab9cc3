"""The engine protocol every game implements: seats, actions as text, a step, an outcome.

Modelled on OpenSpiel's Game/State split, with immutable states: an engine is the rules
of one game on one board (or setup), and every method is a pure function of a state.
A step takes the actions of every seat that acts in it (one seat in a puzzle, both in a
simultaneous game), so turn-based and ticking games share one session and one log.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Generic, Mapping, Sequence, TypeVar

from tui_grid.core.outcome import PLAYING, Failure, Outcome, Result

__all__ = ["PLAYING", "Engine", "Event", "IllegalAction", "Joint", "LogError", "Outcome", "Plan", "Result", "Step"]

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Event:
    """Something a step did that a view or a log may want to say ("slid 5 tiles")."""

    text: str
    kind: str = ""
    seat: int | None = None
    cells: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Step(Generic[S]):
    """A step's result: the new state, what happened, and in-between states to animate."""

    state: S
    events: tuple[Event, ...] = ()
    frames: tuple[S, ...] = ()


class IllegalAction(ValueError):
    """An action the rules refuse; the message says why, in words a player understands,
    and `cells` are the (row, col) cells it is about, for a view to mark."""

    def __init__(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        super().__init__(message)
        self.cells = cells


class LogError(ValueError):
    """A saved move list (`parse_log`) that does not replay: `offset` is where the bad step
    starts in the text, so a file's error can point at its column."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


#: The actions of one step: seat index -> action.
Joint = Mapping[int, A]


class Engine(ABC, Generic[S, A]):
    """The rules of one game on one board. Subclasses set `seats` and implement the rest.

    `allows_undo` is True for solo puzzles; a session offers undo only then.
    `tick_seconds` is None for turn-based games (the clock advances on input), else the
    default time between ticks of a real-time game.
    """

    seats: tuple[str, ...] = ("player",)
    allows_undo: bool = True
    tick_seconds: float | None = None
    #: The tick when a person steers a seat (None: `tick_seconds`): a person reacting in a
    #: quarter of a second must be able to steer. The app's match screens and the online
    #: hub both pace human games by it.
    human_tick_seconds: float | None = None
    #: A puzzle that stays playable once solved (Tatham's `status()`: solved is a status,
    #: not a lock): the session still takes moves after the end, e.g. a shorter program.
    plays_on_after_end: bool = False

    # --- the game ---------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S: ...

    def acting_seats(self, state: S) -> tuple[int, ...]:
        """Seats whose actions the next step takes (all by default; none once it is over,
        unless the engine plays on after the end)."""
        if self.outcome(state).over and not self.plays_on_after_end:
            return ()
        return tuple(range(len(self.seats)))

    def elapsed(self, state: S) -> int | None:
        """How many steps the game has run, as the state counts them (a tick, a turn);
        None where the state does not count: the log's length is the count then."""
        return None

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]: ...

    @abstractmethod
    def step(self, state: S, actions: Joint) -> Step[S]:
        """Apply one action per acting seat; raises IllegalAction with the reason."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome: ...

    def default_action(self, state: S, seat: int) -> A | None:
        """What a seat does when it gives no action in time (ticking games); None: it must act."""
        return None

    def queue_action(self, state: S, seat: int, queued: tuple[A, ...], action: A) -> tuple[A, ...]:
        """A human's key in a real-time game joins the seat's queue of actions, played one
        per tick. By default the latest key replaces what is queued; a game may keep a few
        turns ahead (Tron) or merge requests (Evasion's walls)."""
        return (action,)

    def forfeit(self, state: S, seat: int, failure: Failure) -> S | None:
        """The state in which `seat` has lost by forfeit (a bot crashed), or None when the game
        has no forfeits and the seat gets its default action instead. Its outcome keeps the
        `failure` whole (`Failure.outcome`): "red forfeits: gave no answer within 2 s"."""
        return None

    def observation(self, state: S, seat: int) -> str:
        """What a seat sees, as text: the state line an external program is sent."""
        return repr(state)

    # --- actions as text ---------------------------------------------------------------
    @abstractmethod
    def encode_action(self, action: A) -> str: ...

    @abstractmethod
    def decode_action(self, text: str) -> A:
        """Parse one action; raises ValueError with a readable message."""

    #: Single-character actions of a one-seat game log as one word ("urdlur").
    compact_log: bool = False

    def format_log(self, steps: Sequence[Joint]) -> str:
        """A move log as one line: steps separated by spaces, a simultaneous step's actions
        by commas in seat order."""
        words = [",".join(self.encode_action(joint[seat]) for seat in sorted(joint)) for joint in steps]
        if self.compact_log and all(len(word) == 1 for word in words):
            return "".join(words)
        return " ".join(words)

    def parse_log(self, text: str, start: S | None = None) -> list[dict[int, A]]:
        """The inverse of `format_log`, replayed from `start` to know who acts in each step;
        raises ValueError naming the step."""
        state = self.initial_state() if start is None else start
        found = [(match.start(), match.group()) for match in re.finditer(r"\S+", text)]
        if self.compact_log and len(found) == 1 and len(found[0][1]) > 1 and "," not in found[0][1]:
            at, word = found[0]
            found = [(at + i, letter) for i, letter in enumerate(word)]
        steps: list[dict[int, A]] = []
        for index, (offset, word) in enumerate(found):
            try:
                joint = self.parse_step(word, state)
                state = self.step(state, joint).state
            except ValueError as exc:
                raise LogError(f"step {index + 1} ({word!r}): {exc}", offset) from None
            steps.append(joint)
        return steps

    def parse_step(self, word: str, state: S) -> dict[int, A]:
        """One step of a log (`format_log`'s word) as the joint action of the seats acting
        in `state`, decoded without playing it; ValueError when it is not one."""
        seats = self.acting_seats(state)
        parts = word.strip().split(",")
        if not seats:
            raise ValueError("the game is already over")
        if len(parts) != len(seats):
            raise ValueError(f"expected {len(seats)} action(s), got {len(parts)}")
        return {seat: self.decode_action(part) for seat, part in zip(seats, parts)}

    def replay(self, steps: Sequence[Joint], start: S | None = None) -> list[S]:
        """Every state from `start` through each step, first and last included."""
        states = [self.initial_state() if start is None else start]
        for joint in steps:
            states.append(self.step(states[-1], joint).state)
        return states


@dataclass(frozen=True)
class Plan(Generic[A]):
    """A solver's or bot's answer for one seat: actions to play from a state, and what to
    tell the player about them."""

    actions: tuple[A, ...]
    message: str = ""
    info: Mapping[str, object] = field(default_factory=dict)
