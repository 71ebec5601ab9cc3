"""Background work for a table (a hint, a solve, a new board): run on one small pool of
threads shared by every table, cancellable, with progress, and its answer handed to the
owner's thread.

A task's search is given a SearchControl that raises at its next check once the task is
cancelled, and writes its progress to the task (a front end reads it when it likes: the
worker never waits for a front end). A runner keeps one busy task (a new one cancels it)
and one quiet task (a live hint that keeps improving: no busy bar, and cancel leaves it).
Answers and failures are handed to `to_owner`, which runs them on the owner's thread; a
task cancelled or replaced before its answer arrives is dropped there.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

from tui_grid.core.control import DEFAULT_TIME_LIMIT, Cancelled, OutOfTime, SearchControl
from tui_grid.core.errors import BoardError, UsageError

#: Threads shared by every table's tasks, at most: a search is CPU work, and a cancelled
#: one leaves at its next check, so a few threads serve any number of screens.
POOL_THREADS = 4

#: Seconds a pool thread waits for more work before it ends (an idle app keeps none).
IDLE_SECONDS = 0.5

#: Nodes between a search's checks for cancel and its progress reports.
CHECK_EVERY = 2048


class SmallPool:
    """A few worker threads for short-lived work: started when work waits and none is
    free, ended once idle, never more than `threads`."""

    def __init__(self, threads: int = POOL_THREADS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.threads = threads
        self.idle_seconds = idle_seconds
        self._work: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running = 0
        self._idle = 0
        self._pending = 0

    def submit(self, call: Callable[..., None], *args: Any) -> None:
        with self._lock:
            self._pending += 1
            self._work.put(lambda: call(*args))
            if self._pending <= self._idle or self._running >= self.threads:
                return  # an idle thread takes it, or the next to be free
            self._running += 1
        threading.Thread(target=self._serve, name="task", daemon=True).start()

    def _serve(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            try:
                call = self._work.get(timeout=self.idle_seconds)
            except queue.Empty:
                with self._lock:
                    self._idle -= 1
                    if self._work.empty():  # checked under the lock `submit` takes: no work is left behind
                        self._running -= 1
                        return
                continue
            with self._lock:
                self._idle -= 1
                self._pending -= 1
            call()


_pool = SmallPool()


def shared_pool() -> SmallPool:
    return _pool


class Severity(Enum):
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Failure:
    """Why a task gave no answer, in words for the player."""

    what: str
    text: str
    severity: Severity


def failure_of(what: str, exc: BaseException) -> Failure | None:
    """The player's words for a task's exception; None for a cancel (nothing to say)."""
    if isinstance(exc, OutOfTime):
        return Failure(what, str(exc).capitalize() + ".", Severity.WARNING)
    if isinstance(exc, Cancelled):
        return None
    if isinstance(exc, (BoardError, UsageError, ValueError)):
        return Failure(what, str(exc), Severity.WARNING)
    if isinstance(exc, MemoryError):
        return Failure(what, "Not enough memory for this here: try a smaller board.", Severity.ERROR)
    return Failure(what, f"{type(exc).__name__}: {exc}", Severity.ERROR)  # a solver bug is told, not fatal


class Task:
    """One piece of background work: what it is called, its cancel flag and its progress."""

    def __init__(self, what: str, quiet: bool) -> None:
        self.what = what
        self.quiet = quiet
        self.cancel = threading.Event()
        #: Nodes searched and the total when known, written by the worker.
        self.progress: tuple[int, int | None] | None = None

    def note_progress(self, nodes: int, total: int | None) -> None:
        self.progress = (nodes, total)

    @property
    def cancelled(self) -> bool:
        return self.cancel.is_set()


Work = Callable[[SearchControl], Any]
Done = Callable[[Any], None]
Failed = Callable[[Failure], None]
ToOwner = Callable[[Callable[[], None]], None]


class TaskRunner:
    """Runs a table's tasks. `to_owner(fn)` must run `fn` later on the owner's thread and
    never wait for it; `max_cells` caps a board a task makes; `pool` defaults to the
    shared one."""

    def __init__(self, to_owner: ToOwner, *, max_cells: int | None = None, time_limit: float = DEFAULT_TIME_LIMIT,
                 pool: SmallPool | None = None) -> None:
        self.to_owner = to_owner
        self.max_cells = max_cells
        self.time_limit = time_limit
        self.pool = pool
        self.busy: Task | None = None
        self.quiet: Task | None = None

    def run(self, what: str, work: Work, done: Done, failed: Failed, *, quiet: bool = False) -> Task:
        """Start `work`; on the owner's thread `done` gets its answer or `failed` its
        failure, unless the task was cancelled or replaced first. A quiet task's failure
        is not told (a live hint that failed is simply not shown)."""
        task = Task(what, quiet)
        if quiet:
            self.cancel_quiet()
            self.quiet = task
        else:
            self.cancel_busy()
            self.busy = task
        (self.pool or shared_pool()).submit(self._work, task, work, done, failed)
        return task

    def hold(self, what: str) -> Task:
        """A busy task whose work runs elsewhere (a watch's driver plans its first move):
        shown and cancelled like any other."""
        self.cancel_busy()
        self.busy = Task(what, quiet=False)
        return self.busy

    def _work(self, task: Task, work: Work, done: Done, failed: Failed) -> None:
        control = SearchControl(cancel=task.cancel, on_progress=task.note_progress, every=CHECK_EVERY,
                                time_limit=self.time_limit, max_cells=self.max_cells)
        try:
            result = work(control)
        except Exception as exc:  # every failure is the player's to hear, never the pool's
            failure = failure_of(task.what, exc)
            if failure is not None:
                self.to_owner(lambda: self._failed(task, failure, failed))
            return
        self.to_owner(lambda: self._done(task, result, done))

    def _current(self, task: Task) -> bool:
        return not task.cancelled and task is (self.quiet if task.quiet else self.busy)

    def _done(self, task: Task, result: Any, done: Done) -> None:
        if not self._current(task):
            return
        self._clear(task)
        done(result)

    def _failed(self, task: Task, failure: Failure, failed: Failed) -> None:
        if not self._current(task):
            return
        self._clear(task)
        if not task.quiet:
            failed(failure)

    def _clear(self, task: Task) -> None:
        if task.quiet:
            self.quiet = None
        else:
            self.busy = None

    def cancel_busy(self) -> bool:
        """Cancel the busy task; whether there was one."""
        task, self.busy = self.busy, None
        if task is None:
            return False
        task.cancel.set()
        return True

    def cancel_quiet(self) -> None:
        """Cancel the quiet task: its answer would be stale."""
        task, self.quiet = self.quiet, None
        if task is not None:
            task.cancel.set()

    def cancel_all(self) -> None:
        self.cancel_busy()
        self.cancel_quiet()
