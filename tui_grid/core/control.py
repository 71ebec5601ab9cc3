"""Cancellation and progress for long searches, with no dependency on any UI."""

from __future__ import annotations

import threading
import time
from typing import Callable

ProgressCallback = Callable[[int, "int | None"], None]


class Cancelled(Exception):
    """Raised inside a search when its cancel event is set."""


class OutOfTime(Cancelled):
    """Raised inside a search that passed its time limit: it gave up, and says so."""

    def __init__(self, limit: float, nodes: int) -> None:
        super().__init__(f"gave up after {limit:g} s (the time limit), {nodes:,} nodes searched")
        self.limit = limit
        self.nodes = nodes


class SearchControl:
    """Counts nodes; every `every` nodes it checks for cancel and reports progress."""

    def __init__(
        self,
        cancel: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        every: int = 4096,
        total: int | None = None,
        seconds: float | None = None,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_cells: int | None = None,
    ) -> None:
        self.cancel = cancel
        #: The most cells a board made under this control may have (None: the global cap).
        self.max_cells = max_cells
        self.seconds = seconds  # a time budget the search may use (a live hint); None: its own
        self.on_progress = on_progress
        self.every = max(1, every)
        self.total = total
        self.nodes = 0
        self._next_check = self.every
        #: Seconds the whole search may take (None or 0: no limit), on `clock`.
        self.time_limit = time_limit or None
        self.clock = clock
        self._deadline = clock() + time_limit if time_limit else None

    def take_time_limit(self) -> float | None:
        """For an anytime search that settles for its best when time runs out: it takes the
        limit over (and honours it itself), so the control no longer gives up for it."""
        limit, self._deadline = self.time_limit, None
        return limit

    def tick(self, count: int = 1) -> None:
        self.nodes += count
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.every
            self.checkpoint()

    def checkpoint(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        if self._deadline is not None and self.clock() >= self._deadline:
            raise OutOfTime(self.time_limit or 0.0, self.nodes)
        if self.on_progress is not None:
            self.on_progress(self.nodes, self.total)


#: Seconds a solve, plan or generation may take unless told otherwise (`--time-limit`).
DEFAULT_TIME_LIMIT = 120.0


#: A control that never cancels and reports nothing, for plain library calls.
def unlimited() -> SearchControl:
    return SearchControl(every=1 << 30)
