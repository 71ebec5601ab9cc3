"""How a Tron round ends by the rules, and the sentences that say it.

A crash is an `Outcome` with its cause, the seat that crashed and the cell named: the one
driven into, or for `OFF_BOARD` the cell the cycle drove off from. A lone crash is won by
the other seat; two at once are a draw (`BOTH`, one part per seat), as are the head-on
meetings, which concern no one seat and name the cells where they met.
"""

from __future__ import annotations

from tui_grid.core.geometry import cell_name
from tui_grid.core.outcome import Cause, Outcome, Wording


class TronCause(Cause, family="tron"):
    OFF_BOARD = "off_board"
    WALL = "wall"
    OWN_TRAIL = "own_trail"
    TRAIL = "trail"  # the other player's trail
    HEAD = "head"  # the other player's head
    HEAD_ON = "head_on"  # both entered one cell
    SWAPPED = "swapped"  # each drove onto the other's head
    BOTH = "both"  # both crashed, each its own way (`parts`)

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        if self is TronCause.BOTH:
            return "both crashed: " + "; ".join(crash(part, words) for part in outcome.parts)
        if self is TronCause.HEAD_ON:
            return f"{words.who(0)} and {words.who(1)} met head-on at {_cell(outcome, 0)}: both crash"
        if self is TronCause.SWAPPED:
            return (f"{words.who(0)} and {words.who(1)} swapped cells head-on between {_cell(outcome, 0)} "
                    f"and {_cell(outcome, 1)}: both crash")
        text = crash(outcome, words)
        return text if outcome.winner is None else f"{text}: {words.who(outcome.winner)} wins"


def crash(outcome: Outcome, words: Wording) -> str:
    """One seat's crash: "red crashed into green's trail at row 3, col 5"."""
    seat = outcome.seat
    who = words.who(seat)
    where = _cell(outcome, 0)
    other = words.word(None if seat is None else 1 - seat)
    return {
        TronCause.OFF_BOARD: f"{who} drove off the board from {where}",
        TronCause.WALL: f"{who} crashed into a wall at {where}",
        TronCause.OWN_TRAIL: f"{who} crashed into its own trail at {where}",
        TronCause.TRAIL: f"{who} crashed into {other}'s trail at {where}",
        TronCause.HEAD: f"{who} crashed into {other}'s head at {where}",
    }.get(outcome.cause, f"{who} crashed at {where}")  # type: ignore[arg-type]


def _cell(outcome: Outcome, index: int) -> str:
    return cell_name(outcome.cells[index]) if index < len(outcome.cells) else "an unknown cell"
