"""The table (core.table) and its tasks (core.tasks), with no UI: a front end's view of a
game being played. Events come to the owner's thread through a queue the test drains."""

from __future__ import annotations

import errno
import queue
import threading
from typing import Any

import pytest

from tui_grid.core.agents import HumanAgent
from tui_grid.core.control import SearchControl
from tui_grid.core.countdown import Countdown
from tui_grid.core.session import Session
from tui_grid.core.table import Busy, Changed, Hint, HintShown, Said, Table, TableEvent, TaskFailed, WatchStopped
from tui_grid.core.tasks import SmallPool, Severity, TaskRunner
from tui_grid.games.registry import get_game

#: Seconds a test waits for a worker's answer before it fails (work is bounded, not timed).
WAIT = 10.0


class Owner:
    """The owner's thread, played by the test: handed-over calls queue until `drain`."""

    def __init__(self) -> None:
        self.calls: queue.Queue[Any] = queue.Queue()
        self.events: list[TableEvent] = []

    def to_owner(self, call: Any) -> None:
        self.calls.put(call)

    def drain(self, until: Any = None) -> None:
        """Run handed-over calls until `until()` holds (or one call when None)."""
        while True:
            self.calls.get(timeout=WAIT)()
            if until is None or until():
                return

    def said(self) -> list[str]:
        return [event.text for event in self.events if isinstance(event, Said)]


def ice_table(owner: Owner, planner: Any = None, saver: Any = None) -> Table[Any]:
    game = get_game("ice")
    loaded = game.load("spiral")
    engine, steps = game.start(loaded)
    session: Session[Any, Any] = Session(engine, [HumanAgent("you")], log=steps)
    return Table(session, loaded, to_owner=owner.to_owner, on_event=owner.events.append,
                 planner=planner or game.plan, saver=saver)


# --- tasks --------------------------------------------------------------------------------------
def test_a_task_answers_on_the_owners_thread_and_a_replaced_one_is_dropped() -> None:
    owner = Owner()
    runner = TaskRunner(owner.to_owner)
    release = threading.Event()
    answers: list[Any] = []
    runner.run("first", lambda control: release.wait(WAIT) and "stale", answers.append, answers.append)
    runner.run("second", lambda control: "fresh", answers.append, answers.append)  # cancels the first
    release.set()
    owner.drain()
    owner.drain()
    assert answers == ["fresh"] and runner.busy is None


def test_a_cancelled_search_stops_at_its_next_check_and_says_nothing() -> None:
    owner = Owner()
    runner = TaskRunner(owner.to_owner)
    started, ended = threading.Event(), threading.Event()
    told: list[Any] = []

    def endless(control: SearchControl) -> None:
        started.set()
        try:
            while True:
                control.tick()
        finally:
            ended.set()

    runner.run("Solving", endless, told.append, told.append)
    assert started.wait(WAIT)
    assert runner.cancel_busy()
    assert ended.wait(WAIT)
    assert told == [] and owner.calls.empty()


@pytest.mark.parametrize("error, severity, words", [
    (ValueError("no exit"), Severity.WARNING, "no exit"),
    (MemoryError(), Severity.ERROR, "Not enough memory"),
    (RuntimeError("boom"), Severity.ERROR, "RuntimeError: boom"),
])
def test_a_failing_task_is_told_in_words_and_a_quiet_one_is_not(error: Exception, severity: Severity, words: str) -> None:
    owner = Owner()
    runner = TaskRunner(owner.to_owner)
    failures: list[Any] = []

    def fail(control: SearchControl) -> None:
        raise error

    runner.run("Hint", fail, failures.append, failures.append)
    owner.drain()
    assert len(failures) == 1 and failures[0].severity is severity and words in failures[0].text
    runner.run("Live hint", fail, failures.append, failures.append, quiet=True)
    owner.drain()
    assert len(failures) == 1 and runner.quiet is None


def test_the_small_pool_never_runs_more_than_its_threads_and_ends_them_when_idle() -> None:
    pool = SmallPool(threads=2, idle_seconds=0.05)
    lock, running, most = threading.Lock(), [0], [0]
    done = threading.Semaphore(0)
    release = threading.Event()

    def work() -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(WAIT)
        with lock:
            running[0] -= 1
        done.release()

    before = {thread for thread in threading.enumerate() if thread.name == "task"}
    for _ in range(6):
        pool.submit(work)
    release.set()
    for _ in range(6):
        assert done.acquire(timeout=WAIT)
    assert most[0] <= 2
    for thread in [t for t in threading.enumerate() if t.name == "task" and t not in before]:
        thread.join(WAIT)
        assert not thread.is_alive()


def test_the_countdown_says_each_count_then_go() -> None:
    countdown = Countdown(3)
    words = [countdown.start()]
    while countdown.running:
        words.append(countdown.beat())
    assert words == ["Get ready: 3…", "Get ready: 2…", "Get ready: 1…", "Go!"]
    assert Countdown(0).start() == "Go!"


# --- the table ----------------------------------------------------------------------------------
def test_undo_with_nothing_played_says_so_and_a_move_is_an_event() -> None:
    owner = Owner()
    table = ice_table(owner)
    table.undo()
    assert owner.said() == ["Nothing to undo."]
    table.submit(0, table.engine.decode_action("U"))
    assert any(isinstance(event, Changed) and event.change.kind == "step" for event in owner.events)
    table.close()


def test_a_hint_is_shown_for_its_state_and_a_stale_one_is_dropped() -> None:
    owner = Owner()
    table = ice_table(owner)
    table.hint_for(lambda state, plan: Hint(f"{len(plan.actions)} slides"))
    assert isinstance(owner.events[-1], Busy) and owner.events[-1].task is not None
    owner.drain()
    assert table.hint is not None and owner.said()[-1] == "6 slides"
    assert any(isinstance(event, HintShown) for event in owner.events)
    # A hint that arrives after a move is about a board that is gone.
    release = threading.Event()
    planner = table.planner
    table.planner = lambda engine, state, seat, control: (release.wait(WAIT), planner(engine, state, seat, control))[1]
    table.hint_for(lambda state, plan: Hint("stale"))
    table.tasks.busy = None  # as a move does: the task is no longer the current one
    release.set()
    owner.drain()
    assert "stale" not in owner.said()
    table.close()


def test_solve_plays_the_plan_as_one_undo_step() -> None:
    owner = Owner()
    table = ice_table(owner)
    table.solve(lambda plan: "no move")
    owner.drain()
    assert table.session.over and table.state.moves == 6
    table.undo()
    assert table.state.moves == 0


def test_a_game_that_cannot_be_kept_holds_the_player_once_per_moves() -> None:
    owner = Owner()

    def full(loaded: Any, session: Session[Any, Any]) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    table = ice_table(owner, saver=full)
    first, second = table.plan(table.state, SearchControl()).actions[:2]
    table.submit(0, first)
    assert isinstance(table.keep(), OSError)  # told: stay
    assert table.keep() is None  # told already for these moves: leaving is their call
    table.submit(0, second)
    assert isinstance(table.keep(), OSError)  # a move since: told again
    table.close()


def test_a_watch_plays_from_a_drivers_thread_and_every_event_reaches_the_owner() -> None:
    owner = Owner()
    table = ice_table(owner)
    owner_thread = threading.get_ident()
    threads: set[int] = set()
    owner.events = _Recorder(owner.events, threads)  # type: ignore[assignment]
    table.on_event = owner.events.append
    table.watch(0.0, ready=lambda: True)
    owner.drain(until=lambda: any(isinstance(event, WatchStopped) for event in owner.events))
    assert table.session.over and table.watcher is None
    assert threads == {owner_thread}
    assert not any(isinstance(event, TaskFailed) for event in owner.events)


class _Recorder(list):  # type: ignore[type-arg]
    """Events, and the threads they arrived on."""

    def __init__(self, events: list[Any], threads: set[int]) -> None:
        super().__init__(events)
        self.threads = threads

    def append(self, event: Any) -> None:
        self.threads.add(threading.get_ident())
        super().append(event)


# --- a human's keys around a held clock ------------------------------------------------------------
def tron_feed() -> Any:
    from tui_grid.core.live import LiveMatch

    game = get_game("tron")
    loaded = game.load("standard")
    return LiveMatch(lambda index: game.make_engine(loaded), [HumanAgent("ann"), HumanAgent("bob")], 1,
                     names=["ann", "bob"], timeout=None, step_seconds=None)


def test_keys_typed_while_the_clock_is_held_come_down_to_the_last_intention() -> None:
    from tui_grid.core.geometry import Direction

    feed = tron_feed()
    session = feed.session
    agent = session.agents[0]
    turns = [Direction.UP, Direction.LEFT]  # no heading before the first tick: any turn is taken
    feed.pause(True)  # a countdown
    for turn in (turns[0], turns[1], turns[0], turns[1]):
        session.submit(0, turn)
    assert len(agent.queued) > 1  # queued while waiting...
    feed.pause(False)  # Go!
    assert agent.queued == (turns[1],)  # ...one intention when the clock runs
    session.submit(0, turns[0])
    feed.pause(True)  # a pause drops what was meant before it
    assert agent.queued == ()
    feed.close()
