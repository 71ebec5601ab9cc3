"""An owner loop: calls handed over from any thread, and timers, run one at a time on one
thread. A table's owner is a loop: the hub runs one on its own thread for every match it
hosts, a headless match runs one on the main thread, and a Textual screen is one already
(its message queue and `set_timer`).

Time comes from an injected clock, so a test can run a loop's due timers at a time it
chooses (`run_due`) and never sleeps.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

Clock = Callable[[], float]


class Stoppable(Protocol):
    """A timer that may be stopped before it fires (a loop's, or a Textual screen's)."""

    def stop(self) -> None: ...


#: Sets a one-shot timer: `later(seconds, call)` runs `call` on the owner's thread.
Later = Callable[[float, Callable[[], None]], Stoppable]


@dataclass(order=True)
class _Timer:
    due: float
    order: int
    call: Callable[[], None] = field(compare=False)
    stopped: bool = field(default=False, compare=False)

    def stop(self) -> None:
        self.stopped = True


class Loop:
    """Calls and timers run in order on the thread that runs the loop."""

    def __init__(self, clock: Clock = time.monotonic, on_error: Callable[[Exception], None] | None = None) -> None:
        """`on_error` hears a call that raised (the loop goes on with the next); without
        it the error propagates to whoever runs the loop."""
        self.clock = clock
        self.on_error = on_error
        self._timers: list[_Timer] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._closed = False
        self.thread_id: int | None = None
        self._thread: threading.Thread | None = None

    def call_soon(self, call: Callable[[], None]) -> None:
        """Run `call` on the loop's thread, after the calls handed over before it."""
        self.later(0.0, call)

    def later(self, seconds: float, call: Callable[[], None]) -> _Timer:
        """Run `call` in `seconds` (a timer that may be stopped first)."""
        with self._wake:
            timer = _Timer(self.clock() + max(0.0, seconds), next(self._order), call)
            heapq.heappush(self._timers, timer)
            self._wake.notify_all()
        return timer

    def next_due(self) -> float | None:
        """When the next timer is due by the clock (None: none is set)."""
        with self._wake:
            while self._timers and self._timers[0].stopped:
                heapq.heappop(self._timers)
            return self._timers[0].due if self._timers else None

    def run_due(self) -> int:
        """Run every call due by the clock now, in order; how many ran. A call that a call
        makes due now runs too."""
        ran = 0
        while True:
            with self._wake:
                if not self._timers or self._timers[0].due > self.clock():
                    return ran
                timer = heapq.heappop(self._timers)
            if timer.stopped:
                continue
            ran += 1
            if self.on_error is None:
                timer.call()
                continue
            try:
                timer.call()
            except Exception as exc:  # one failed call never stops the others'
                self.on_error(exc)

    def run(self, until: Callable[[], bool], poll: float = 0.5) -> None:
        """Run calls on this thread until `until()` holds after one (or the loop closes)."""
        self.thread_id = threading.get_ident()
        while not self._closed and not until():
            self.run_due()
            if until():
                return
            with self._wake:
                wait = poll if not self._timers else min(poll, self._timers[0].due - self.clock())
                if wait > 0 and not self._closed:
                    self._wake.wait(wait)

    def start(self, name: str) -> None:
        """Run the loop on a thread of its own until `close`."""
        started = threading.Event()

        def serve() -> None:
            self.thread_id = threading.get_ident()
            started.set()
            self.run(lambda: False)

        self._thread = threading.Thread(target=serve, name=name, daemon=True)
        self._thread.start()
        started.wait()

    def call_and_wait(self, call: Callable[[], None], timeout: float) -> bool:
        """Run `call` on the loop's thread and wait for it (at most `timeout` seconds);
        whether it ran. On the loop's own thread it runs at once."""
        if self.on_thread():
            call()
            return True
        done = threading.Event()

        def run() -> None:
            try:
                call()
            finally:
                done.set()

        self.call_soon(run)
        return done.wait(timeout)

    def on_thread(self) -> bool:
        return threading.get_ident() == self.thread_id

    def close(self) -> None:
        """Stop the loop; a loop started on its own thread is waited for (at most 2 s: a
        call still running finishes first)."""
        with self._wake:
            self._closed = True
            self._timers.clear()
            self._wake.notify_all()
        if self._thread is not None and not self.on_thread():
            self._thread.join(2.0)
