"""A message that outlives the steps after it: every step clears the message line, and a
word such as "Refused your wall" must stay long enough to be read."""

from __future__ import annotations

import time
from collections.abc import Callable


class TransientNote:
    """The last note and when it expires, `seconds` after it was set by `clock`."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._text = ""
        self._until = 0.0

    def set(self, text: str) -> None:
        self._text = text
        self._until = self.clock() + self.seconds

    def clear(self) -> None:
        self._text = ""

    def current(self) -> str:
        """The note while it lasts, else ""."""
        if self._text and self.clock() < self._until:
            return self._text
        return ""
