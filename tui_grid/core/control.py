"""Cancellation and progress for long searches, with no dependency on any UI."""

from __future__ import annotations

import threading
from typing import Callable

ProgressCallback = Callable[[int, "int | None"], None]


class Cancelled(Exception):
    """Raised inside a search when its cancel event is set."""


class SearchControl:
    """Counts nodes; every `every` nodes it checks for cancel and reports progress."""

    def __init__(
        self,
        cancel: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        every: int = 4096,
        total: int | None = None,
        seconds: float | None = None,
    ) -> None:
        self.cancel = cancel
        self.seconds = seconds  # a time budget the search may use (a live hint); None: its own
        self.on_progress = on_progress
        self.every = max(1, every)
        self.total = total
        self.nodes = 0
        self._next_check = self.every

    def tick(self, count: int = 1) -> None:
        self.nodes += count
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.every
            self.checkpoint()

    def checkpoint(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        if self.on_progress is not None:
            self.on_progress(self.nodes, self.total)


#: A control that never cancels and reports nothing, for plain library calls.
def unlimited() -> SearchControl:
    return SearchControl(every=1 << 30)
