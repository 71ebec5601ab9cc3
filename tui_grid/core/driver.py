"""The driver: the one game loop. It owns a session's time and asks its players.

Every front end plays through it: the app's real-time screens and watch, the headless
`match` verbs, and the Evasion architect. One step is always the same four things:
ask every acting seat whose agent is not a key-driven human (in parallel, each within
the session's deadline), apply the failures, step (a tick, or submitted actions), and
let the session notify its observers.

Deadlines are decided here and nowhere else. An answer that arrives after the deadline
(read on the injected clock) is late: a builtin bot's seat gets the engine's default
action, while an external program or a network player (`Agent.forfeits_when_late`)
forfeits. Such a seat has lost at the deadline, but the driver listens to it a little
longer (`grace`: a quarter of its time, at most a second), only to say why: an answer in
that window is named late (`Fault.LATE`: "answered 'LEFT' after 2.05 s, past its 2 s"),
none is no answer (`Fault.NO_ANSWER`: "gave no answer within 2 s"). Agents never run a
timer of their own that could race this one: the driver cancels a late ask through its
control, after the grace window.

Pace is the driver's too: paused, single step, speed, and the time between steps, all on
the injected `clock` and `sleep`, so tests run without real time.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Generic, Iterable, TypeVar

from tui_grid.core.agents import Agent, AgentError, Ask, Clock
from tui_grid.core.control import Cancelled, OutOfTime, SearchControl
from tui_grid.core.engine import Step
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.session import Session

S = TypeVar("S")
A = TypeVar("A")

Sleep = Callable[[float], None]

#: Real seconds between looks at the clock while answers are awaited: a fake clock in a
#: test moves only when an agent moves it, so the driver must look again now and then.
POLL_SECONDS = 0.02
#: The grace window past a deadline (`grace`): this share of the time allowed, at most
#: `GRACE_MAX_SECONDS`.
GRACE_SHARE = 0.25
GRACE_MAX_SECONDS = 1.0


def _raise(error: BaseException) -> None:
    raise error


def late(timeout: float) -> Failure:
    """A seat's failure to answer within `timeout` seconds."""
    return Failure(Fault.NO_ANSWER, numbers=(timeout,))


def grace(timeout: float) -> float:
    """Seconds past a `timeout` deadline that a seat which forfeits when late is still
    listened to, only to word its forfeit: bounded, so that nobody else waits longer."""
    return min(timeout * GRACE_SHARE, GRACE_MAX_SECONDS)


@dataclass(frozen=True)
class Asked(Generic[A]):
    """The outcome of asking the acting seats once: their answers, and who failed."""

    answers: dict[int, A]
    failures: tuple[tuple[int, AgentError], ...] = ()


class Driver(Generic[S, A]):
    """Drives one session at a time (`attach` the next round's).

    `timeout`: seconds each agent has for one action (None: no deadline; a hint or a puzzle
    solver). `step_seconds`: seconds between steps when `run` paces the game (None: the
    engine's tick for a ticking game, else as fast as the agents answer). `speed`
    multiplies the pace (2.0: twice as fast). `ready()` may hold the next step back, e.g.
    while a view still animates the last one.
    """

    def __init__(
        self,
        session: Session[S, A],
        *,
        timeout: float | None = None,
        step_seconds: float | None = None,
        speed: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        ready: Callable[[], bool] | None = None,
        on_progress: Callable[[int, int | None], None] | None = None,
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.step_seconds = step_seconds
        self.speed = speed
        self.clock: Clock = clock or session.clock
        self.sleep: Sleep = sleep or time.sleep
        self.ready = ready
        self.on_progress = on_progress
        #: Called on the driver's thread when a `start(forever=False)` loop ends by itself,
        #: with why ("" when the game is over).
        self.on_stop: Callable[[str], None] | None = None
        self.paused = False
        self.first_step_now = False
        self.refused: str | None = None  # why an agent's action was refused: the loop stops
        self.last_ask_seconds = 0.0  # how long the last step waited for its answers
        self._single = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._inflight: list[Ask[S, A]] = []
        self._stepping = False
        self._gate = threading.Lock()

    # --- asking -----------------------------------------------------------------------
    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="agent")
        return self._pool

    def ask(self) -> Asked[A]:
        """Ask every acting seat whose agent is asked (not a key-driven human), at once.
        Instant agents (a queue of keys) answer on this thread; the rest in workers, each
        until the deadline on `clock`."""
        session = self.session
        state = session.state
        # A human in a turn-based game submits through the session; in a real-time game
        # its queue of keys is asked like anyone else (it answers at once).
        seats = [s for s in session.engine.acting_seats(state) if session.ticking or not session.agents[s].human]
        answers: dict[int, A] = {}
        failures: list[tuple[int, AgentError]] = []
        if not seats:
            return Asked(answers)
        start = self.clock()
        deadline = None if self.timeout is None else start + self.timeout
        pending: dict[Future[tuple[A, float]], tuple[int, Ask[S, A]]] = {}
        for seat in seats:
            agent = session.agents[seat]
            control = SearchControl(cancel=threading.Event(), on_progress=self.on_progress, every=2048)
            ask = Ask(session.engine, state, seat, deadline, self.clock, control)
            self._inflight.append(ask)
            if agent.instant or deadline is None:
                # Nothing to time (keys, or no deadline): asked here, with no worker to wait on.
                self._collect(seat, ask, lambda agent=agent, ask=ask: agent.act(ask), answers, failures)
            else:
                pending[self._executor().submit(self._timed, agent, ask)] = (seat, ask)
        while pending:
            left = None if deadline is None else deadline - self.clock()
            if left is not None and left <= 0:
                break
            done, _ = wait(list(pending), timeout=POLL_SECONDS if left is None else min(POLL_SECONDS, left), return_when=FIRST_COMPLETED)
            self._settle(done, pending, deadline, answers, failures)
            if deadline is not None and self.clock() > deadline:
                break
        # Asks that finished as the clock passed the deadline: an answer is judged by when
        # it came, a failure is the seat's own.
        self._settle([future for future in pending if future.done()], pending, deadline, answers, failures)
        if pending and deadline is not None:
            self._listen_past(deadline + grace(deadline - start), pending)
        for future, (seat, ask) in pending.items():
            failures.append((seat, self._late(seat, ask, future)))
        self._inflight.clear()
        self.last_ask_seconds = self.clock() - start
        return Asked(answers, tuple(sorted(failures, key=lambda f: f[0])))

    def _settle(
        self,
        done: Iterable[Future[tuple[A, float]]],
        pending: dict[Future[tuple[A, float]], tuple[int, Ask[S, A]]],
        deadline: float | None,
        answers: dict[int, A],
        failures: list[tuple[int, AgentError]],
    ) -> None:
        """Judge finished asks: an answer by the deadline is kept and a failure collected,
        each taken out of `pending`; an answer past the deadline stays there, to be named
        late (`_late`)."""
        for future in done:
            seat, ask = pending[future]
            error = future.exception()
            if error is None:
                action, finished = future.result()
                if deadline is not None and finished > deadline:
                    continue
                answers[seat] = action
            else:
                self._collect(seat, ask, lambda error=error: _raise(error), answers, failures)
            del pending[future]

    def _listen_past(self, until: float, pending: dict[Future[tuple[A, float]], tuple[int, Ask[S, A]]]) -> None:
        """Past the deadline, wait until `until` on the clock (the grace window) for the
        late seats that forfeit for it, or until each has finished: one that answers is
        then named late rather than silent. Results stay as the deadline made them; the
        asks are cancelled after (`_late`)."""
        listened = [future for future, (seat, _) in pending.items() if self.session.agents[seat].forfeits_when_late]
        while True:
            listened = [future for future in listened if not future.done()]
            left = until - self.clock()
            if not listened or left <= 0:
                return
            wait(listened, timeout=min(POLL_SECONDS, left), return_when=FIRST_COMPLETED)

    def _timed(self, agent: Agent[S, A], ask: Ask[S, A]) -> tuple[A, float]:
        """Run in a worker: the answer and when it came, on the driver's clock. An agent
        that reads its answer past the deadline may say so itself (an AgentError with
        `Fault.LATE` and the answer as it was sent): it is timed here too."""
        try:
            action = agent.act(ask)
        except AgentError as exc:
            if exc.failure.fault is not Fault.LATE:
                raise
            failure = self._answered_late(ask, exc.failure.detail, self.clock())
            raise AgentError(f"{agent.name} {failure.phrase()}", forfeit=exc.forfeit, failure=failure) from None
        return action, self.clock()

    def _answered_late(self, ask: Ask[S, A], answer: str, finished: float) -> Failure:
        """An answer that came at `finished`, past the ask's deadline: how long it took."""
        if ask.deadline is None or self.timeout is None:
            return Failure(Fault.LATE, answer)
        started = ask.deadline - self.timeout
        return Failure(Fault.LATE, answer, numbers=(finished - started, self.timeout))

    def _collect(self, seat: int, ask: Ask[S, A], get: Callable[[], A], answers: dict[int, A], failures: list[tuple[int, AgentError]]) -> None:
        try:
            answers[seat] = get()
        except OutOfTime:
            raise  # a search that gave up at its time limit ends the run, and its caller says so
        except Cancelled:
            return  # the driver was stopped: nobody wants this answer, and it is no failure
        except AgentError as exc:
            failures.append((seat, exc))
        except Exception as exc:  # an agent's bug is reported, and the game goes on
            name = self.session.agents[seat].name
            failures.append((seat, AgentError(f"{name} failed: {type(exc).__name__}: {exc}", forfeit=False)))

    def _late(self, seat: int, ask: Ask[S, A], future: Future[tuple[A, float]]) -> AgentError:
        """A late answer: the ask is cancelled; whether the seat forfeits is the agent's kind's.
        An answer that came, but after the deadline, is named with how long it took; any
        other end after the deadline, or none, is no answer."""
        assert self.timeout is not None
        failure = late(self.timeout)
        if future.done() and not future.cancelled():
            error = future.exception()
            if error is None:
                action, finished = future.result()
                failure = self._answered_late(ask, ask.engine.encode_action(action), finished)
            elif isinstance(error, AgentError) and error.failure.fault is Fault.LATE:
                failure = error.failure  # the answer as the agent read it, timed by `_timed`
        if ask.control.cancel is not None:
            ask.control.cancel.set()
        future.cancel()
        agent = self.session.agents[seat]
        # A program or network player forfeits (its stream is out of step with the game);
        # a builtin bot's seat gets the default action.
        return AgentError(f"{agent.name} {failure.phrase()}", forfeit=agent.forfeits_when_late, failure=failure)

    # --- stepping -----------------------------------------------------------------------
    def step(self) -> Step[S] | None:
        """One step of the game loop: ask, apply failures, step, notify (the session does).
        Returns the step played, or None when the game ended by forfeit or is over."""
        session = self.session
        if session.over and not session.engine.plays_on_after_end:
            return None
        asked = self.ask()
        if session.report_failures(asked.failures):
            return None
        if asked.failures and not session.ticking:
            # A turn-based step waits for every acting seat: one that cannot answer stops the loop.
            self.refused = asked.failures[0][1].reason
            return None
        step, refused = session.play_answers(asked.answers)
        if refused:
            self.refused = refused
            session.report_error(refused)
        return step

    # --- pace -----------------------------------------------------------------------------
    def seconds_per_step(self) -> float:
        base = self.step_seconds if self.step_seconds is not None else (self.session.engine.tick_seconds or 0.0)
        return base / max(self.speed, 1e-6)

    def pause(self, paused: bool | None = None) -> bool:
        """Pause (or resume, or toggle with None); returns whether it is now paused. A step
        already under way finishes (`busy` says so); none starts after this returns."""
        with self._gate:
            self.paused = (not self.paused) if paused is None else paused
        return self.paused

    def single_step(self) -> None:
        """Play exactly one step while paused (the running loop plays it)."""
        with self._gate:
            self.paused = True
            self._single.set()

    def attach(self, session: Session[S, A]) -> None:
        """Drive another session (a match's next round)."""
        self.session = session
        self.refused = None

    def run(self, stop: threading.Event | None = None, *, max_steps: int | None = None) -> None:
        """Play until the game is over, `stop` is set or `max_steps` steps were played,
        at the pace. Meant for a thread (`start`) or a headless caller."""
        stop = stop or self._stop
        current = None
        next_at = 0.0
        played = 0
        while not stop.is_set() and (not self.session.over or self._plays_on(played)):
            if self.session is not current:
                # A new game: players get one beat to see the board (a watch starts at once).
                current = self.session
                next_at = self.clock() + (0.0 if self.first_step_now else self.seconds_per_step())
            if max_steps is not None and played >= max_steps:
                return
            if self.refused:
                return
            if self.paused and not self._single.is_set():
                self.sleep(POLL_SECONDS)
                next_at = self.clock() + self.seconds_per_step()  # resuming waits a beat too
                continue
            if self.ready is not None and not self.ready():
                self.sleep(POLL_SECONDS)
                continue
            wait_for = next_at - self.clock()
            if wait_for > 0 and not self._single.is_set():
                self.sleep(min(wait_for, POLL_SECONDS * 5))
                continue
            with self._gate:  # decided with pause(): once it returns, no step starts unseen
                if self.paused and not self._single.is_set():
                    continue
                self._stepping = True
                self._single.clear()
            try:
                self.step()
            finally:
                self._stepping = False
            played += 1
            beat = self.seconds_per_step()
            next_at = max(next_at + beat, self.clock() - beat)

    def _plays_on(self, played: int) -> bool:
        """A finished game that plays on (Bunny) is played until it is finished again."""
        return played == 0 and self.session.engine.plays_on_after_end

    def start(self, forever: bool = True) -> None:
        """Run in a daemon thread; observers are told on that thread. `forever` keeps going
        across rounds (a match attaches the next session) until `stop`; otherwise the loop
        ends with the game or a refusal and tells `on_stop` why."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, args=(forever,), name="driver", daemon=True)
        self._thread.start()

    def _loop(self, forever: bool) -> None:
        try:
            if not forever:
                self.run(self._stop)
            while forever and not self._stop.is_set():
                if self.session.over or self.refused:
                    self._stop.wait(POLL_SECONDS)
                    continue
                self.run(self._stop)
        except Exception as exc:  # a crash in an engine or observer ends the loop, with its reason
            self.refused = f"The game loop stopped: {type(exc).__name__}: {exc}"
            try:
                self.session.report_error(self.refused)
            except Exception:
                pass
        if not forever and not self._stop.is_set() and self.on_stop is not None:
            self.on_stop(self.refused or "")

    @property
    def busy(self) -> bool:
        """A step is under way or asked for (tests wait for this to settle)."""
        return self.running and (self._stepping or self._single.is_set())

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, join: float | None = 2.0) -> None:
        """Stop the loop (and its thread); asks in flight are cancelled, not awaited."""
        self._stop.set()
        self._single.set()
        for ask in list(self._inflight):
            if ask.control.cancel is not None:
                ask.control.cancel.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread() and join:
            thread.join(join)
        self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        """Stop and vacate the seats."""
        self.stop()
        self.session.close()

