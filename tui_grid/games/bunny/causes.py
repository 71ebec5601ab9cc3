"""How a Bunny puzzle ends, and its sentence: a program that completes the board, so many
tokens long."""

from __future__ import annotations

from tui_grid.core.outcome import Cause, Outcome, Wording
from tui_grid.core.words import plural


class BunnyCause(Cause, family="bunny"):
    COMPLETE = "complete"  # numbers: (tokens,)

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        tokens = int(outcome.numbers[0]) if outcome.numbers else 0
        return f"Complete in {plural(tokens, 'token')}"
