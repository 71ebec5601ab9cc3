"""How a game of Jimmy and the ghosts ends, and the sentences that say it: Jimmy escapes (in
so many moves), a ghost catches him (where, and where the ghost came from), or he is stuck
with no legal move left.
"""

from __future__ import annotations

from tui_grid.core.geometry import cell_name
from tui_grid.core.outcome import Cause, Outcome, Wording
from tui_grid.core.words import plural

DEAD_END = "dead end: no legal move"


def caught_text(jimmy: tuple[int, int], ghost: tuple[int, int]) -> str:
    """"caught at row 3, col 3 by the ghost from row 2, col 3"."""
    return f"caught at {cell_name(jimmy)} by the ghost from {cell_name(ghost)}"


class JimmyCause(Cause, family="jimmy"):
    ESCAPED = "escaped"  # numbers: (moves,)
    CAUGHT = "caught"  # cells: (where Jimmy is caught, where the ghost stepped from)
    STUCK = "stuck"  # no legal move left: caught where he stands

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        if self is JimmyCause.ESCAPED:
            moves = int(outcome.numbers[0]) if outcome.numbers else 0
            return f"Escaped in {plural(moves, 'move')}"
        if self is JimmyCause.CAUGHT and len(outcome.cells) == 2:
            text = caught_text(outcome.cells[0], outcome.cells[1])
            return text[:1].upper() + text[1:]
        return f"Caught: {DEAD_END}"
