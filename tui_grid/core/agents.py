"""Agents fill seats: a human at the keys, a solver or bot in a thread, an external program,
a network player. A new kind of player is one subclass of `Agent`.

The session asks an agent for its seat's action with an `Ask`: the engine, the state, the
seat, a deadline on the session's clock, and a `SearchControl` whose cancel event is set
when the answer is no longer wanted. An agent that cannot play raises `AgentError`; the
session reports it and, where the game allows forfeits, the seat loses.
"""

from __future__ import annotations

import os
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.outcome import Failure, Fault

S = TypeVar("S")
A = TypeVar("A")

Clock = Callable[[], float]


class AgentError(Exception):
    """An agent failed to give an action: it crashed, timed out or answered garbage.
    `forfeit` says whether the seat should lose the game (an external program) or just
    get the default action (a builtin bot that was slow). `reason` says it in words, the
    agent named; `failure` is what the seat's outcome keeps when it forfeits (by default
    the reason itself, as a `Fault.FAILED` note)."""

    def __init__(self, reason: str, *, forfeit: bool = True, failure: Failure | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.forfeit = forfeit
        self.failure = failure if failure is not None else Failure(Fault.FAILED, note=reason)


@dataclass
class Ask(Generic[S, A]):
    """One request for an action."""

    engine: Engine[S, A]
    state: S
    seat: int
    deadline: float | None = None  # on `clock`; None: no limit (a hint, a puzzle solve)
    clock: Clock = time.monotonic
    control: SearchControl = field(default_factory=lambda: SearchControl(cancel=threading.Event()))

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), or None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())


class Agent(ABC, Generic[S, A]):
    """Fills one seat.

    `human`: a person at the keys (a hint is offered; keys act for this seat).
    `instant`: answers at once without thinking (a queue of keys), so the driver asks it
    on its own thread. `forfeits_when_late`: an external program or a network player,
    which loses when it misses a deadline; a builtin bot just gets the default action.
    """

    kind: str = "bot"
    human: bool = False
    instant: bool = False
    forfeits_when_late: bool = False

    def __init__(self, name: str = "") -> None:
        self.name = name or type(self).__name__

    def start(self, engine: Engine[S, A], seat: int) -> None:
        """A new game begins with this agent in `seat` (a new round, or a restart)."""

    @abstractmethod
    def act(self, ask: Ask[S, A]) -> A:
        """The action for `ask.seat`; raise AgentError when there is none to give."""

    def close(self) -> None:
        """Release processes, sockets and threads; called when the seat is vacated."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class HumanAgent(Agent[S, A]):
    """A person at the keys. In a turn-based game the view's submission steps the game at
    once and this agent is never asked. In a real-time game keys queue here (the engine's
    `queue_action` says how a key joins the queue) and each tick takes the first, or the
    default action when none is queued. The one queue of keys, for every front end."""

    kind = "human"
    human = True
    instant = True

    def __init__(self, name: str = "you") -> None:
        super().__init__(name)
        self._queue: tuple[A, ...] = ()
        self._lock = threading.Lock()

    def start(self, engine: Engine[S, A], seat: int) -> None:
        self.clear()

    def push(self, engine: Engine[S, A], state: S, seat: int, action: A) -> None:
        with self._lock:
            self._queue = tuple(engine.queue_action(state, seat, self._queue, action))

    def clear(self) -> None:
        with self._lock:
            self._queue = ()

    def keep_last(self, engine: Engine[S, A], state: S, seat: int) -> None:
        """Keep only the last key queued, if the engine takes it from `state` alone (a
        turn back into the trail is dropped, as when pressed)."""
        with self._lock:
            if self._queue:
                self._queue = tuple(engine.queue_action(state, seat, (), self._queue[-1]))

    @property
    def queued(self) -> tuple[A, ...]:
        return self._queue

    def act(self, ask: Ask[S, A]) -> A:
        with self._lock:
            if self._queue:
                action, self._queue = self._queue[0], self._queue[1:]
                return action
        default = ask.engine.default_action(ask.state, ask.seat)
        if default is None:
            raise AgentError(f"{self.name} has not moved", forfeit=False)
        return default


class Placeholder(Agent[S, A]):
    """Names a seat that is played elsewhere (by a server's own agent); never asked."""

    def act(self, ask: Ask[S, A]) -> A:
        raise AgentError(f"{self.name} is played elsewhere", forfeit=False)


class LowPriority(Agent[S, A]):
    """Another agent, thinking at a lower CPU priority: the thread that asks it is reniced
    to `niceness` (Linux gives each thread its own), so a server's bot matches yield to its
    players. Where threads cannot be reniced, it is the agent itself."""

    def __init__(self, inner: Agent[S, A], niceness: int) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.niceness = niceness
        self.kind, self.human, self.instant = inner.kind, inner.human, inner.instant
        self.forfeits_when_late = inner.forfeits_when_late

    def start(self, engine: Engine[S, A], seat: int) -> None:
        self.inner.start(engine, seat)

    def act(self, ask: Ask[S, A]) -> A:
        lower_this_thread(self.niceness)
        return self.inner.act(ask)

    def close(self) -> None:
        self.inner.close()


def lower_this_thread(niceness: int) -> None:
    """Renice the calling thread to at least `niceness` (never raises its priority)."""
    try:
        thread = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, thread) < niceness:
            os.setpriority(os.PRIO_PROCESS, thread, niceness)
    except (OSError, AttributeError):
        pass


class FunctionAgent(Agent[S, A]):
    """A builtin bot given as a function of the ask: the common case for bots."""

    def __init__(self, choose: Callable[[Ask[S, A]], A], name: str = "bot") -> None:
        super().__init__(name)
        self.choose = choose

    def act(self, ask: Ask[S, A]) -> A:
        return self.choose(ask)


#: plan(engine, state, seat, control): a solver or bot planning for one seat.
Planner = Callable[[Engine[Any, Any], Any, int, SearchControl], Plan[Any]]


class PlanAgent(Agent[S, A]):
    """A puzzle solver in the player's seat: it plans once, then plays the plan one action at
    a time for as long as the game follows it (watch), and plans again if it does not."""

    kind = "solver"

    def __init__(self, planner: Planner, name: str = "solver") -> None:
        super().__init__(name)
        self.planner = planner
        self.plan: Plan[A] | None = None
        self._expected: list[S] = []
        self._index = 0

    def make_plan(self, ask: Ask[S, A]) -> Plan[A]:
        plan = self.planner(ask.engine, ask.state, ask.seat, ask.control)
        self.plan = plan
        states = [ask.state]
        for action in plan.actions:
            states.append(ask.engine.step(states[-1], {ask.seat: action}).state)
        self._expected = states
        self._index = 0
        return plan

    def act(self, ask: Ask[S, A]) -> A:
        if self.plan is None or self._index >= len(self.plan.actions) or self._expected[self._index] != ask.state:
            self.make_plan(ask)
        assert self.plan is not None
        if self._index >= len(self.plan.actions):
            raise AgentError(self.plan.message or "the solver has no move from here", forfeit=False)
        action = self.plan.actions[self._index]
        self._index += 1
        return action
