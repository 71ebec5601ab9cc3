"""How an Ice game ends, and its sentence: the exit reached, in so many moves over so many
tiles."""

from __future__ import annotations

from tui_grid.core.outcome import Cause, Outcome, Wording
from tui_grid.core.words import plural


class IceCause(Cause, family="ice"):
    SOLVED = "solved"  # numbers: (moves, distance)

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        moves, distance = (int(n) for n in (tuple(outcome.numbers) + (0, 0))[:2])
        return f"Solved in {plural(moves, 'move')} (distance {distance})"
