"""A session: one authoritative game. It owns the state, the move log, the clock and, where
the game allows it, the undo history; views subscribe to it and send their seats' actions.

Two paces share the same code (boardgame.io's game master, Tatham's mid-end):
- turn-based (`tick_seconds is None`): a step happens as soon as every acting seat has
  submitted an action; a puzzle steps on each key;
- ticking: a human's key joins its seat's queue (core.agents.HumanAgent) and `tick()`
  steps the game with the actions the driver gathered, the default for any seat without.
Time belongs to core.driver.Driver, which asks the agents and steps; the session only
keeps the game. Its methods hold a lock, since the driver may run on its own thread.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from tui_grid.core.agents import Agent, AgentError, Clock, HumanAgent
from tui_grid.core.engine import Engine, Event, IllegalAction, Outcome, Step
from tui_grid.core.history import History
from tui_grid.core.outcome import Failure, describe

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Snapshot(Generic[S, A]):
    """A point the player can undo to: the state and the log that led there."""

    state: S
    log: tuple[Mapping[int, A], ...]


class ChangeKind(StrEnum):
    """What kind of change a session made."""

    STEP = "step"  # actions played: `steps` holds what each did
    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    FORFEIT = "forfeit"  # a seat lost by failing (a crash, no answer, leaving)
    REFUSED = "refused"  # an action was not played: `message` says why
    MESSAGE = "message"  # words about the game that changed nothing in it

    @property
    def jump(self) -> bool:
        """The state jumped to another point of the game (undo, redo, restart)."""
        return self in (ChangeKind.UNDO, ChangeKind.REDO, ChangeKind.RESTART)


@dataclass(frozen=True)
class Change(Generic[S]):
    """What observers are told after the session changed."""

    kind: ChangeKind
    state: S
    steps: tuple[Step[S], ...] = ()
    events: tuple[Event, ...] = ()
    message: str = ""
    failure: Failure | None = None  # a forfeit's, whole

    def ends_game(self, engine: Any) -> bool:
        """Whether this change ended the game: judged by the change's state, which a
        driver's thread may already be past."""
        return self.kind in (ChangeKind.STEP, ChangeKind.FORFEIT) and engine.outcome(self.state).over


Observer = Callable[["Session", Change], None]


class Session(Generic[S, A]):
    def __init__(
        self,
        engine: Engine[S, A],
        agents: Sequence[Agent[S, A]] | None = None,
        *,
        clock: Clock = time.monotonic,
        start: S | None = None,
        log: Sequence[Mapping[int, A]] = (),
        undo: bool | None = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.agents: list[Agent[S, A]] = list(agents) if agents else [HumanAgent() for _ in engine.seats]
        if len(self.agents) != len(engine.seats):
            raise ValueError(f"{len(engine.seats)} seats need {len(engine.seats)} agents, got {len(self.agents)}")
        self.undo_allowed = engine.allows_undo if undo is None else undo
        self.initial: S = engine.initial_state() if start is None else start
        self.state: S = self.initial
        self.log: list[Mapping[int, A]] = []
        self.pending: dict[int, A] = {}
        #: The seat that lost this game by forfeit, if one did.
        self.forfeited: int | None = None
        self.lock = threading.RLock()
        self._observers: list[Observer] = []
        self._history: History[Snapshot[S, A]] = History(Snapshot(self.state, ()))
        for seat, agent in enumerate(self.agents):
            agent.start(engine, seat)
        if log:
            self.play_steps(log, checkpoint_each=True, notify=False)

    # --- observers -----------------------------------------------------------------------
    def subscribe(self, observer: Observer) -> Callable[[], None]:
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def _notify(self, change: Change[S]) -> None:
        for observer in list(self._observers):
            observer(self, change)

    # --- state ---------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome:
        return self.engine.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.outcome.over

    @property
    def ticking(self) -> bool:
        return self.engine.tick_seconds is not None

    def people_act(self, state: S | None = None) -> bool:
        """Whether a person's seat acts in the next step from `state` (the session's now):
        a real-time round keeps a person's pace only while one does (an arena whose people
        are out rides on at the bots')."""
        state = self.state if state is None else state
        return any(self.agents[seat].human for seat in self.engine.acting_seats(state))

    def seat_agent(self, seat: int, agent: Agent[S, A]) -> Agent[S, A]:
        """Put `agent` in `seat` (watch seats the solver); returns the agent it replaced,
        which the caller may put back. The replaced agent is not closed."""
        old = self.agents[seat]
        self.agents[seat] = agent
        agent.start(self.engine, seat)
        return old

    def close(self) -> None:
        """Vacate every seat: external programs and sockets are released."""
        for agent in self.agents:
            agent.close()

    # --- playing -------------------------------------------------------------------------
    def submit(self, seat: int, action: A) -> str | None:
        """A seat's action. Turn-based: steps once every acting seat has one, and returns the
        refusal reason if the rules refuse it. Ticking: queued for the seat's next tick."""
        with self.lock:
            if self.over and not self.engine.plays_on_after_end:
                return "The game is over."
            agent = self.agents[seat]
            if self.ticking:
                if not isinstance(agent, HumanAgent):
                    return "This seat is not played from the keys."
                agent.push(self.engine, self.state, seat, action)
                return None
            acting = self.engine.acting_seats(self.state)
            if seat not in acting:
                return "It is not this seat's turn."
            self.pending[seat] = action
            if any(s not in self.pending for s in acting):
                return None
            joint = {s: self.pending[s] for s in acting}
            self.pending.clear()
            try:
                step = self.engine.step(self.state, joint)
            except IllegalAction as exc:
                event = Event(str(exc), "refused", seat, exc.cells)
                self._notify(Change(ChangeKind.REFUSED, self.state, events=(event,), message=str(exc)))
                return str(exc)
            self._advance((joint,), (step,), checkpoint=True)
            return None

    def tick(self, actions: Mapping[int, A] | None = None) -> Step[S] | None:
        """One step of a ticking game with `actions` (the driver's answers), the default
        for any acting seat without one. None when the game is over."""
        with self.lock:
            if self.over:
                return None
            acting = self.engine.acting_seats(self.state)
            given = dict(actions or {})
            joint: dict[int, A] = {}
            for seat in acting:
                action = given.get(seat)
                if action is None:
                    action = self.engine.default_action(self.state, seat)
                if action is not None:
                    joint[seat] = action
            try:
                step = self.engine.step(self.state, joint)
            except IllegalAction as exc:
                # An action the rules refuse costs its seat that action, not the game.
                self._notify(Change(ChangeKind.REFUSED, self.state, message=str(exc)))
                joint = {seat: d for seat in acting if (d := self.engine.default_action(self.state, seat)) is not None}
                step = self.engine.step(self.state, joint)
            self._advance((joint,), (step,), checkpoint=self.undo_allowed)
            return step

    def play_answers(self, answers: Mapping[int, A]) -> tuple[Step[S] | None, str | None]:
        """The driver's answers for one step: a tick, or each seat's submission in turn.
        Returns the step played (if any) and the first refusal's reason."""
        with self.lock:
            if self.ticking:
                return self.tick(answers), None
            for seat, action in answers.items():
                reason = self.submit(seat, action)
                if reason:
                    return None, f"{self.engine.seats[seat]} played a refused action: {reason}"
            return None, None

    def play_steps(self, steps: Sequence[Mapping[int, A]], *, checkpoint_each: bool = False, notify: bool = True) -> list[Step[S]]:
        """Play several steps; without `checkpoint_each` they are one undo step (a solve).
        Raises IllegalAction at the first refused step, having played the ones before."""
        with self.lock:
            return self._play_steps(steps, checkpoint_each, notify)

    def _play_steps(self, steps: Sequence[Mapping[int, A]], checkpoint_each: bool, notify: bool) -> list[Step[S]]:
        played: list[Step[S]] = []
        joints: list[Mapping[int, A]] = []
        state = self.state
        try:
            for joint in steps:
                step = self.engine.step(state, joint)
                played.append(step)
                joints.append(joint)
                state = step.state
                if checkpoint_each:
                    self._advance((joint,), (step,), checkpoint=True, notify=notify)
        finally:
            if not checkpoint_each and played:
                self._advance(tuple(joints), tuple(played), checkpoint=True, notify=notify)
        return played

    def _advance(self, joints: tuple[Mapping[int, A], ...], steps: tuple[Step[S], ...], *, checkpoint: bool, notify: bool = True) -> None:
        self.state = steps[-1].state
        self.log.extend(joints)
        if self.undo_allowed and checkpoint:
            self._history.push(Snapshot(self.state, tuple(self.log)))
        if notify:
            events = tuple(event for step in steps for event in step.events)
            self._notify(Change(ChangeKind.STEP, self.state, steps, events))

    # --- failures ------------------------------------------------------------------------
    def report_failures(self, failures: Sequence[tuple[int, AgentError]]) -> bool:
        """Apply agent failures: a forfeit puts the seat out where the engine allows it (which
        ends a two-seat game); other failures are reported and the seat gets its default.
        True if the game ended."""
        with self.lock:
            for seat, error in failures:
                if error.forfeit and self.forfeit(seat, error.failure):
                    if self.over:
                        return True
                    continue
                self._notify(Change(ChangeKind.MESSAGE, self.state, message=f"{self.engine.seats[seat]}: {error.reason}"))
            return False

    def forfeit(self, seat: int, failure: Failure) -> bool:
        """`seat` loses now by `failure` (a failed program, or a player who concedes); False
        where the game has no forfeits or is over already. In a game of more seats the
        others may play on (`over` says whether it ended)."""
        with self.lock:
            if self.over:
                return False
            lost = self.engine.forfeit(self.state, seat, failure)
            if lost is None:
                return False
            self.state = lost
            self.forfeited = seat
            # Said with who sits where: "red (bot.py) forfeits: gave no answer within 2 s".
            outcome = self.engine.outcome(lost)
            if not outcome.over:  # the others play on: the forfeit alone is said
                outcome = failure.outcome(seat, None, self.engine.seats)
            text = describe(outcome, [agent.name for agent in self.agents])
            event = Event(text, "forfeit", seat)
            self._notify(Change(ChangeKind.FORFEIT, self.state, events=(event,), message=event.text, failure=failure))
            return True

    def report_error(self, text: str) -> None:
        """Tell the observers something went wrong outside the rules (the loop stopped)."""
        self._notify(Change(ChangeKind.MESSAGE, self.state, message=text))

    # --- undo ------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return self.undo_allowed and self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.undo_allowed and self._history.can_redo

    def undo(self) -> bool:
        with self.lock:
            if not self.can_undo:
                return False
            self._jump(self._history.undo(), ChangeKind.UNDO)
            return True

    def redo(self) -> bool:
        with self.lock:
            if not self.can_redo:
                return False
            self._jump(self._history.redo(), ChangeKind.REDO)
            return True

    def restart(self) -> bool:
        """Back to the start; undoable where undo is allowed, like Tatham's restart."""
        with self.lock:
            return self._restart()

    def _restart(self) -> bool:
        if self.state == self.initial and not self.log:
            return False
        if self.undo_allowed:
            self._jump(self._history.restart(), ChangeKind.RESTART)
        else:
            self.state, self.log, self.pending = self.initial, [], {}
            self._notify(Change(ChangeKind.RESTART, self.state))
        return True

    def _jump(self, snapshot: Snapshot[S, A] | None, kind: ChangeKind) -> None:
        assert snapshot is not None
        self.state = snapshot.state
        self.log = list(snapshot.log)
        self.pending.clear()
        self.forfeited = None  # (a forfeit is never a snapshot: the game went on before it)
        self._notify(Change(kind, self.state))

    # --- save ----------------------------------------------------------------------------
    def played_text(self) -> str:
        """The move log in the game's action encoding, for a `played:` header."""
        return self.engine.format_log(self.log)

