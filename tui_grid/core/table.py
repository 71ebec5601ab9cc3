"""The table: one game being played at one board, with no UI. It owns the session and
its seating, undo, the hint, solve and watch tasks (core.tasks), the watch's driver, the
autosave, and for a match its round conductor (core.conductor); a front end calls its
methods and hears what happened as a stream of typed events.

Every event reaches the front end on the owner's thread (the one that made the table):
a session change made by a driver's thread, or a task's answer, is handed over through
`to_owner` first. So a front end handles events one at a time and never locks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar, Union

from tui_grid.core.agents import Agent, PlanAgent
from tui_grid.core.conductor import Conductor, CountdownSaid, Decide, MatchEnded, RoundEnded, RoundPacing
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.geometry import Pos
from tui_grid.core.live import MatchFeed
from tui_grid.core.loop import Clock, Later
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.tasks import Failure, Severity, Task, TaskRunner, ToOwner

S = TypeVar("S")


@dataclass(frozen=True)
class Hint:
    """What to say and which cells to mark; `kind` picks the mark's look."""

    message: str
    marks: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # cell -> (glyph, kind)


# --- events ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Changed:
    """The session changed (a step, an undo, a refusal...)."""

    change: Change[Any]


@dataclass(frozen=True)
class Said:
    """Words for the player; `cells` are the board cells they are about."""

    text: str
    cells: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class HintShown:
    hint: Hint | None


@dataclass(frozen=True)
class Busy:
    """The busy task changed: `task` is the one under way (its `what` and progress), or
    None when nothing is."""

    task: Task | None


@dataclass(frozen=True)
class TaskFailed:
    failure: Failure


@dataclass(frozen=True)
class WatchStopped:
    """The watch ended: `reason` says why when it was not the game's end or the player."""

    reason: str
    by_itself: bool


@dataclass(frozen=True)
class BoardStarted:
    """The table plays another board (a new one, or the first)."""

    loaded: Any


@dataclass(frozen=True)
class RoundBegan:
    """A match's next round began: the table plays `session` from here."""

    session: Session[Any, Any]


TableEvent = Union[Changed, Said, HintShown, Busy, TaskFailed, WatchStopped, BoardStarted, RoundBegan, CountdownSaid,
                   RoundEnded, MatchEnded]

Planner = Callable[[Engine[Any, Any], Any, int, Any], Plan[Any]]
Saver = Callable[[Any, Session[Any, Any]], None]


class Table(Generic[S]):
    """A table plays `session` on the board `loaded` (opaque here: the game's). `planner`
    gives the game's plan for a seat (None: no hint, solve or watch); `saver(loaded,
    session)` keeps a game in progress (None: nothing is kept) and raises OSError when it
    cannot. With `follow` the table hears its session itself; a match's feed, which
    relays every round's session, is heard through `conduct`. The owner's thread is the
    one that makes the table unless `owner` names another (a loop's)."""

    def __init__(self, session: Session[S, Any], loaded: Any, *, to_owner: ToOwner, on_event: Callable[[TableEvent], None],
                 planner: Planner | None = None, saver: Saver | None = None, max_cells: int | None = None,
                 follow: bool = True, owner: int | None = None) -> None:
        self.to_owner = to_owner
        self.on_event = on_event
        self.planner = planner
        self.saver = saver
        self.tasks = TaskRunner(to_owner, max_cells=max_cells)
        self.hint: Hint | None = None
        self._owner = threading.get_ident() if owner is None else owner
        self.conductor: Conductor | None = None
        self._watcher: Driver[S, Any] | None = None
        self._seated: Agent[S, Any] | None = None
        self._watch_first = False
        self._follow = follow
        self._warned_about: str | None = None  # the moves a "cannot keep this game" was about
        self._unsubscribe: Callable[[], None] | None = None
        self.loaded = loaded
        self.session = session
        self._listen(session)

    def _listen(self, session: Session[S, Any]) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._follow:
            self._unsubscribe = session.subscribe(self.observe)

    @property
    def engine(self) -> Engine[S, Any]:
        return self.session.engine

    @property
    def state(self) -> S:
        return self.session.state

    # --- events -----------------------------------------------------------------------------
    def _emit(self, event: TableEvent) -> None:
        self.on_event(event)

    def on_owner_thread(self) -> bool:
        return threading.get_ident() == self._owner

    def observe(self, session: Session[S, Any], change: Change[S]) -> None:
        """A session observer, on any thread: the change reaches `on_event` on the owner's."""
        if self.on_owner_thread():
            self._changed(session, change)
        else:
            self.to_owner(lambda: self._changed(session, change))

    def _changed(self, session: Session[S, Any], change: Change[S]) -> None:
        if session is not self.session:
            return  # a board this table has left
        if change.kind is ChangeKind.STEP or change.kind.jump:
            self.hint = None
        self._emit(Changed(change))
        if change.kind is ChangeKind.STEP:
            self._watch_moved()
        if self.conductor is not None and change.ends_game(session.engine):
            self.conductor.round_ended()

    def say(self, text: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        self._emit(Said(text, cells))

    def show_hint(self, state: S, hint: Hint) -> None:
        """Show `hint`, made for `state`, if the game is still there."""
        if state != self.state:
            return
        self.hint = hint
        self._emit(HintShown(hint))
        self.say(hint.message)

    # --- moves ------------------------------------------------------------------------------
    def interrupt(self) -> None:
        """Stop what runs by itself (the watch, a task): the player acts."""
        self.stop_watching()
        self.cancel()
        self.tasks.cancel_quiet()

    def submit(self, seat: int, action: Any) -> str | None:
        return self.session.submit(seat, action)

    def undo(self) -> None:
        self.interrupt()
        if not self.session.undo():
            self.say("Nothing to undo.")

    def redo(self) -> None:
        self.interrupt()
        if not self.session.redo():
            self.say("Nothing to redo.")

    def restart(self) -> None:
        self.interrupt()
        if not self.session.restart():
            self.say("Already at the start.")

    # --- tasks ------------------------------------------------------------------------------
    def run(self, what: str, work: Callable[[Any], Any], done: Callable[[Any], None], *, quiet: bool = False) -> None:
        """Run `work(control)` on the pool; `done` gets its answer on the owner's thread. A
        busy task is shown (Busy events) and told when it fails; a quiet one is neither."""
        def failed(failure: Failure) -> None:
            self._emit(Busy(None))
            self.stop_watching()
            self._emit(TaskFailed(failure))

        def answered(result: Any) -> None:
            if not quiet:
                self._emit(Busy(None))
            done(result)

        task = self.tasks.run(what, work, answered, failed, quiet=quiet)
        if not quiet:
            self._emit(Busy(task))

    @property
    def busy(self) -> Task | None:
        return self.tasks.busy

    def cancel(self) -> bool:
        """Cancel the busy task (a hint, a solve, a watch's planning); whether there was one."""
        if not self.tasks.cancel_busy():
            return False
        self._emit(Busy(None))
        return True

    def seat_planned(self) -> int:
        """The seat a hint, solve or watch is for: the one a human plays (seat 0 in a puzzle)."""
        return next((seat for seat, agent in enumerate(self.session.agents) if agent.human), 0)

    def plan(self, state: S, control: Any, seat: int | None = None) -> Plan[Any]:
        """Runs in a worker: the game's plan for a seat from `state`."""
        assert self.planner is not None
        return self.planner(self.engine, state, self.seat_planned() if seat is None else seat, control)

    def hint_for(self, describe: Callable[[S, Plan[Any]], Hint]) -> None:
        """Look for a hint from here; `describe` (run in the worker) turns the plan into it."""
        self.interrupt()
        state = self.state
        self.run("Hint", lambda control: describe(state, self.plan(state, control)), lambda hint: self.show_hint(state, hint))

    def solve(self, nothing_left: Callable[[Plan[Any]], str]) -> None:
        """Find a plan from here and play it as one undo step; `nothing_left(plan)` says
        what to say when the plan has no move."""
        self.interrupt()
        state = self.state
        self.run("Solving", lambda control: self.plan(state, control), lambda plan: self._play_plan(state, plan, nothing_left))

    def _play_plan(self, state: S, plan: Plan[Any], nothing_left: Callable[[Plan[Any]], str]) -> None:
        if state != self.state:
            return
        if not plan.actions:
            self.say(nothing_left(plan))
            return
        seat = self.seat_planned()
        try:
            self.session.play_steps([{seat: action} for action in plan.actions])  # one undo step
        except ValueError as exc:  # a solver bug: say so rather than play nonsense
            self._emit(TaskFailed(Failure("Solving", f"Solver move refused: {exc}", Severity.ERROR)))
            return
        self.say(plan.message)

    # --- watch ------------------------------------------------------------------------------
    def watch(self, step_seconds: float, ready: Callable[[], bool]) -> None:
        """The solver takes the planned seat and a driver plays it, one move (one undo step)
        per beat while `ready()`; `stop_watching` gives the seat back."""
        self.cancel()
        seat = self.seat_planned()
        agent: PlanAgent[S, Any] = PlanAgent(lambda engine, state, seat, control: self.plan(state, control, seat), "solver")
        self._seated = self.session.seat_agent(seat, agent)
        self._watch_first = True
        planning = self.tasks.hold("Planning")
        watcher: Driver[S, Any] = Driver(self.session, step_seconds=step_seconds, ready=ready, on_progress=planning.note_progress)
        watcher.first_step_now = True
        self._watcher = watcher
        watcher.on_stop = lambda reason: self.to_owner(lambda: self._watch_ended(watcher, reason))
        self._emit(Busy(planning))
        watcher.start(forever=False)

    def _watch_moved(self) -> None:
        """After the solver's first move: the busy bar goes, and the plan says what is watched."""
        if self._watcher is None or not self._watch_first:
            return
        self._watch_first = False
        self.cancel()
        plan = getattr(self.session.agents[self.seat_planned()], "plan", None)
        if plan is not None and plan.message and not self.session.over:
            self.say(plan.message)  # what is being watched: an escape, or the longest line

    def _watch_ended(self, watcher: Driver[S, Any], reason: str) -> None:
        if watcher is not self._watcher:
            return
        self.stop_watching()
        self._emit(WatchStopped(reason, by_itself=True))

    def stop_watching(self) -> bool:
        """Give the seat back; whether a watch was on."""
        watcher, self._watcher = self._watcher, None
        if watcher is None:
            return False
        watcher.stop(join=None)
        if self._seated is not None:
            self.session.seat_agent(self.seat_planned(), self._seated)
            self._seated = None
        if self.tasks.busy is not None and self.tasks.busy.what == "Planning":
            self.cancel()
        return True

    @property
    def watcher(self) -> Driver[S, Any] | None:
        return self._watcher

    # --- boards and saving ------------------------------------------------------------------
    def keep(self) -> OSError | None:
        """Keep the game in progress before the player leaves it. None: they may leave
        (kept, nothing to keep, or they were told for these very moves that it cannot be
        kept, so leaving is their call). An OSError: it could not be kept, and they have
        not heard so for these moves: tell them, and stay."""
        if self.saver is None:
            return None
        try:
            self.saver(self.loaded, self.session)
        except OSError as exc:
            played = self.session.played_text()
            if played == self._warned_about:
                return None
            self._warned_about = played
            return exc
        self._warned_about = None
        return None

    def start_board(self, loaded: Any, session: Session[S, Any]) -> None:
        """Play `session` on `loaded` from here on; the caller kept the old game first."""
        self.interrupt()
        self.session.close()
        self.loaded = loaded
        self.hint = None
        self.session = session
        self._listen(session)
        self._emit(BoardStarted(loaded))

    # --- a match ----------------------------------------------------------------------------
    def conduct(self, feed: MatchFeed[S, Any], pacing: RoundPacing, *, later: Later, clock: Clock, decide: Decide,
                watched: tuple[int, ...] = ()) -> Conductor:
        """Play `feed`'s match: hear every round's changes and new rounds, and conduct its
        rounds by `pacing` (`watched`: the participants whose idling forfeits)."""
        feed.subscribe(self.observe)
        feed.on_round(self._round_began)
        self.conductor = Conductor(feed, pacing, later=later, clock=clock, decide=decide, emit=self._emit,
                                   watched=watched)
        return self.conductor

    def _round_began(self, session: Session[S, Any]) -> None:
        """The feed began a round, on any thread (a server's next game)."""
        if self.on_owner_thread():
            self._follow_round(session)
        else:
            self.to_owner(lambda: self._follow_round(session))

    def _follow_round(self, session: Session[S, Any]) -> None:
        self.follow(session)
        self._emit(RoundBegan(session))

    def follow(self, session: Session[S, Any]) -> None:
        """Play on with `session` (a match's next round): what ran for the last one stops."""
        self.interrupt()
        self.hint = None
        self.session = session
        self._listen(session)

    def close(self) -> None:
        if self.conductor is not None:
            self.conductor.close()
        self.tasks.cancel_all()
        self.stop_watching()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._follow:
            self.session.close()  # a feed's sessions are the feed's to close

