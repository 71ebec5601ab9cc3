"""The countdown before a round: "Get ready: 3…", 2, 1, a count per beat, then "Go!" and
the clock runs. One rule for every front end: a screen beats it with a timer, the hub
with its match's thread."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Countdown:
    counts: int
    left: int = 0

    def start(self) -> str:
        """From the top; the words to show now."""
        self.left = self.counts
        return self.words()

    def beat(self) -> str:
        """One count less; the words to show now ("Go!" once none is left)."""
        self.left = max(0, self.left - 1)
        return self.words()

    @property
    def running(self) -> bool:
        return self.left > 0

    def words(self) -> str:
        return f"Get ready: {self.left}…" if self.left > 0 else "Go!"
