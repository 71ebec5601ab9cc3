"""The countdown on a match screen: core.countdown's words, one per beat of a Textual
timer, then `go`. Space during it holds it (`held`), and space again counts afresh."""

from __future__ import annotations

from typing import Callable

from textual.timer import Timer
from textual.widget import Widget

from tui_grid.core.countdown import Countdown


class CountdownClock:
    def __init__(self, owner: Widget, say: Callable[[str], None], go: Callable[[], None]) -> None:
        self.owner = owner
        self.say = say
        self.go = go
        self.countdown = Countdown(0)
        #: Space stopped a countdown: the round waits, and space again counts afresh.
        self.held = False
        self._timer: Timer | None = None

    def start(self, counts: int, beat_seconds: float) -> None:
        """From the top: the first words now, the next at each beat."""
        self.stop()
        self.held = False
        self.countdown = Countdown(counts)
        self._timer = self.owner.set_interval(beat_seconds, self.tick)
        self.say(self.countdown.start())

    def tick(self) -> None:
        """One beat: the next count, or "Go!" and the clock runs."""
        words = self.countdown.beat()
        if not self.countdown.running:
            self.stop()
            self.go()
        self.say(words)

    def stop(self) -> bool:
        """Stop counting; whether a countdown was running."""
        timer, self._timer = self._timer, None
        if timer is None:
            return False
        timer.stop()
        return True

    def hold(self) -> bool:
        """Space during the countdown: stop, and remember to count afresh; whether it ran."""
        if not self.stop():
            return False
        self.held = True
        return True

    @property
    def running(self) -> bool:
        return self._timer is not None
