"""Frames of a move shown one after another on a pausable timer (a slide, a run)."""

from __future__ import annotations

from collections import deque
from typing import Callable, Generic, Sequence, TypeVar

from textual.timer import Timer
from textual.widget import Widget

from tui_grid.core.engine import Step
from tui_grid.ui.settings import thin_frames

S = TypeVar("S")


def frames_of(steps: Sequence[Step[S]]) -> list[S]:
    """What a change's steps show one after another: each step's frames (thinned to what
    the eye can follow), then where it ended."""
    frames: list[S] = []
    for step in steps:
        frames.extend(thin_frames(list(step.frames)))
        frames.append(step.state)
    return frames


class Animator(Generic[S]):
    """Shows frames through `show`, one every `seconds()`, on a timer of `owner`'s."""

    def __init__(self, owner: Widget, show: Callable[[S], None], seconds: Callable[[], float]) -> None:
        self.owner = owner
        self.show = show
        self.seconds = seconds
        self.frames: deque[S] = deque()
        self.paused = False
        self._timer: Timer | None = None

    def play(self, frames: list[S], final: S) -> None:
        """Show `frames`, then `final`, after what is still showing."""
        self.frames.extend(frames)
        if self.frames[-1] != final:
            self.frames.append(final)
        if self._timer is None:
            self._timer = self.owner.set_interval(self.seconds(), self._next)
        self._next()

    def _next(self) -> None:
        if not self.frames:
            self._stop_timer()
            self.paused = False
            return
        self.show(self.frames.popleft())

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @property
    def running(self) -> bool:
        return bool(self.frames)

    def drop(self) -> bool:
        """Forget the frames left (the caller shows the end); whether there were any."""
        self.paused = False
        if self._timer is not None:
            self._timer.resume()
        had = bool(self.frames)
        self.frames.clear()
        return had

    def toggle_pause(self) -> bool:
        """Pause or resume a running animation; False when none runs."""
        if self._timer is None or not self.frames:
            return False
        self.paused = not self.paused
        (self._timer.pause if self.paused else self._timer.resume)()
        return True

    def retime(self) -> None:
        """The speed changed: the next frames come at the new pace."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.owner.set_interval(self.seconds(), self._next)
