"""How a Tron round ends by the rules, and the sentences that say it.

A crash is an `Outcome` with its cause, the seat that crashed and the cell named: the one
driven into, or for `OFF_BOARD` the cell the cycle drove off from. In a duel a lone crash
is won by the other seat; two at once are a draw (`BOTH`, one part per seat), as are the
head-on meetings, which concern no one seat and name the cells where they met. In an
arena a crash into another's trail or head names that seat in `numbers`, a meeting names
its seats there, and the end is `LAST_STANDING` (one cycle left) or `ALL_OUT` (the last
ones went out together), with the final step's crashes as `parts`.
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
    LAST_STANDING = "last_standing"  # an arena's last cycle riding wins (`parts`: the final crashes)
    ALL_OUT = "all_out"  # an arena's last cycles went out in one step (`parts`)

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        if self is TronCause.BOTH:
            return "both crashed: " + "; ".join(crash(part, words) for part in outcome.parts)
        if self is TronCause.LAST_STANDING:
            return f"{words.who(outcome.winner)} is the last cycle riding{_after(outcome, words)}"
        if self is TronCause.ALL_OUT:
            return f"the last cycles went out together, a shared win{_after(outcome, words)}"
        if self in (TronCause.HEAD_ON, TronCause.SWAPPED):
            return meeting(outcome, words)
        text = crash(outcome, words)
        return text if outcome.winner is None else f"{text}: {words.who(outcome.winner)} wins"


def _after(outcome: Outcome, words: Wording) -> str:
    return ": " + "; ".join(part.cause.sentence(part, words) for part in outcome.parts if part.cause) if outcome.parts else ""


def _seats(outcome: Outcome) -> list[int]:
    """The seats a meeting names: `numbers` in an arena, red and green in a duel."""
    return [int(seat) for seat in outcome.numbers] if outcome.numbers else [0, 1]


def meeting(outcome: Outcome, words: Wording) -> str:
    """Cycles meeting head-on: "red and green met head-on at row 3, col 5: both crash"."""
    seats = [words.who(seat) for seat in _seats(outcome)]
    who = " and ".join(seats) if len(seats) == 2 else ", ".join(seats[:-1]) + " and " + seats[-1]
    crash_words = "both crash" if len(seats) == 2 else "all crash"
    if outcome.cause is TronCause.SWAPPED:
        return f"{who} swapped cells head-on between {_cell(outcome, 0)} and {_cell(outcome, 1)}: {crash_words}"
    return f"{who} met head-on at {_cell(outcome, 0)}: {crash_words}"


def crash(outcome: Outcome, words: Wording) -> str:
    """One seat's crash: "red crashed into green's trail at row 3, col 5"."""
    seat = outcome.seat
    who = words.who(seat)
    where = _cell(outcome, 0)
    other = words.word(int(outcome.numbers[0]) if outcome.numbers else None if seat is None else 1 - seat)
    return {
        TronCause.OFF_BOARD: f"{who} drove off the board from {where}",
        TronCause.WALL: f"{who} crashed into a wall at {where}",
        TronCause.OWN_TRAIL: f"{who} crashed into its own trail at {where}",
        TronCause.TRAIL: f"{who} crashed into {other}'s trail at {where}",
        TronCause.HEAD: f"{who} crashed into {other}'s head at {where}",
    }.get(outcome.cause, f"{who} crashed at {where}")  # type: ignore[arg-type]


def _cell(outcome: Outcome, index: int) -> str:
    return cell_name(outcome.cells[index]) if index < len(outcome.cells) else "an unknown cell"
