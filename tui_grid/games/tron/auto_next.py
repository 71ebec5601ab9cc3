"""A match of bots goes on to its next round by itself, a few seconds after the last one
ended, unless someone held it meanwhile; enter brings it at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

#: Seconds before a match of bots goes on to its next round by itself.
AUTO_NEXT_SECONDS = 3.0


class Stoppable(Protocol):
    """A timer as the screen's `set_timer` gives it."""

    def stop(self) -> None: ...


class AutoNext:
    """`schedule(seconds, callback)` sets a timer (the screen's); when it fires, `go()`
    plays the next round if `may_go()` still holds."""

    def __init__(self, schedule: Callable[[float, Callable[[], None]], Stoppable], may_go: Callable[[], bool],
                 go: Callable[[], None]) -> None:
        self.schedule = schedule
        self.may_go = may_go
        self.go = go
        self._timer: Stoppable | None = None

    @property
    def pending(self) -> bool:
        """The next round is coming by itself."""
        return self._timer is not None

    def arm(self) -> None:
        """The next round comes in AUTO_NEXT_SECONDS."""
        self._timer = self.schedule(AUTO_NEXT_SECONDS, self._fire)

    def cancel(self) -> None:
        """It does not come by itself (enter brought it already)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _fire(self) -> None:
        self._timer = None
        if self.may_go():
            self.go()
