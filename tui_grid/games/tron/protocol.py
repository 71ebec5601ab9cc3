"""The HackerRank Tron protocol: the state text a bot reads and the word it answers.

A state is
    line 1: the player to move, `r` or `g`;
    line 2: `r_row r_col g_row g_col`, the heads (0-based);
    then the grid rows: `#` wall, `-` empty, `r`/`g` trails (heads included).
The answer is one line: `LEFT`, `RIGHT`, `UP` or `DOWN`.

Head positions always come from line 2, whatever the grid letters say.

In an arena of more than two cycles a program is sent the same two-player text
(`state_for`): it is `r`, the nearest cycle still riding is `g`, and every other trail
(theirs and the cycles out of the game) reads `g` too, a cell it cannot enter. So every
HackerRank program plays an arena as it is.

Where a state ends, for a bot that reads one state after another on the same stdin
(`read_states`): the grid rows run until the first of
    * a row made only of `#` other than the first grid row (the bottom border: every
      board has a full `#` border and no all-`#` inner row),
    * a blank line,
    * the end of input.
Blank lines between states are skipped. So HackerRank's single 15x15 state, a stream of
states of any size, and states separated by blank lines all read correctly, and the bot
can answer as soon as the bottom border arrives, without waiting for more input.

Stdlib only: the bot loop imports this and must start fast.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # no typing/dataclasses at run time: the bot loop must start fast
    from typing import Iterable, Iterator

WORDS = ("UP", "DOWN", "LEFT", "RIGHT")
#: Every seat's trail letter, red and green first (HackerRank's two); an arena of N cycles
#: uses the first N.
SEAT_LETTERS = ("r", "g", "b", "y", "m", "c", "w", "o")
#: (row delta, col delta) per answer word.
DELTAS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
GRID_CHARS = frozenset("#-rg")


class ProtocolError(ValueError):
    """A malformed state; the message names the line (1-based, within the state)."""


class WireState:
    """One parsed state: who is to move (0 red, 1 green), both heads, the grid rows."""

    __slots__ = ("seat", "red", "green", "rows")

    def __init__(self, seat: int, red: tuple[int, int], green: tuple[int, int], rows: tuple[str, ...]) -> None:
        self.seat = seat
        self.red = red
        self.green = green
        self.rows = rows

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WireState) and (self.seat, self.red, self.green, self.rows) == (
            other.seat, other.red, other.green, other.rows)

    def __repr__(self) -> str:
        return f"WireState(seat={self.seat}, red={self.red}, green={self.green}, rows={self.rows!r})"

    @property
    def heads(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.red, self.green)


def format_state(rows: Iterable[str], heads: tuple[tuple[int, int], tuple[int, int]], seat: int) -> str:
    """The text a bot is sent, ending with a newline."""
    (rr, rc), (gr, gc) = heads
    lines = ["rg"[seat], f"{rr} {rc} {gr} {gc}", *rows]
    return "\n".join(lines) + "\n"


def state_for(rows: Iterable[str], heads: tuple[tuple[int, int], ...], seat: int, riders: Iterable[int]) -> str:
    """The text a program in `seat` is sent: the HackerRank state in a duel, its two-player
    view (see the module docstring) in an arena."""
    if len(heads) == 2:
        return format_state(rows, (heads[0], heads[1]), seat)
    me = heads[seat]
    others = [other for other in riders if other != seat] or [other for other in range(len(heads)) if other != seat]
    nearest = min(others, key=lambda other: (abs(heads[other][0] - me[0]) + abs(heads[other][1] - me[1]), other))
    mine = SEAT_LETTERS[seat]
    view = ["".join("r" if ch == mine else "g" if ch not in "#-" else ch for ch in row) for row in rows]
    return format_state(view, (me, heads[nearest]), 0)


def parse_word(text: str) -> str:
    """An answer line to one of WORDS; ValueError when it is anything else."""
    word = text.strip()
    if word.upper() in DELTAS and word == word.upper():
        return word
    raise ValueError("not one of LEFT RIGHT UP DOWN")


def _echo(text: str) -> str:
    """Input quoted in an error, through the shared escaper (`core.text.echo`: escaped, an
    undecodable byte shown as `\\xNN`, cut short); imported here, on the error path only."""
    from tui_grid.core.text import echo

    return echo(text)


def parse_lines(lines: list[str]) -> WireState:
    """A state from its lines (player, positions, grid rows); raises ProtocolError."""
    if not lines:
        raise ProtocolError("line 1: empty state")
    player = lines[0].strip()
    if player not in ("r", "g"):
        raise ProtocolError(f"line 1: expected the player to move, 'r' or 'g', got '{_echo(player)}'")
    if len(lines) < 2:
        raise ProtocolError("line 2: missing 'r_row r_col g_row g_col'")
    parts = lines[1].split()
    try:
        if len(parts) != 4:
            raise ValueError
        rr, rc, gr, gc = (int(p) for p in parts)
    except ValueError:
        raise ProtocolError(f"line 2: expected four integers 'r_row r_col g_row g_col', got '{_echo(lines[1].strip())}'") from None
    rows = tuple(line.rstrip("\r\n").strip() for line in lines[2:])
    if not rows:
        raise ProtocolError("line 3: no grid rows")
    width = len(rows[0])
    for index, row in enumerate(rows):
        if len(row) != width:
            raise ProtocolError(f"line {index + 3}: grid row is {len(row)} wide, the first is {width}")
        bad = set(row) - GRID_CHARS
        if bad:
            raise ProtocolError(f"line {index + 3}: unknown grid character '{_echo(sorted(bad)[0])}' (use # - r g)")
    for name, (r, c) in (("red", (rr, rc)), ("green", (gr, gc))):
        if not (0 <= r < len(rows) and 0 <= c < width):
            raise ProtocolError(f"line 2: {name}'s head ({r},{c}) is off the {width}x{len(rows)} grid")
    return WireState(0 if player == "r" else 1, (rr, rc), (gr, gc), rows)


def parse_state(text: str) -> WireState:
    """A single state from its text; trailing blank lines are ignored."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return parse_lines(lines)


def _is_bottom(row: str) -> bool:
    return bool(row) and row.strip("#") == ""


def read_states(stream: Iterable[str]) -> Iterator[list[str]]:
    """The lines of each state in a stream, delimited as the module docstring says.

    Yields as soon as a state is complete, so it works on a live pipe."""
    it = iter(stream)
    while True:
        head: list[str] = []
        for line in it:
            if line.strip():
                head.append(line.rstrip("\r\n"))
                break
        else:
            return
        second = next(it, None)
        if second is None:
            yield head
            return
        head.append(second.rstrip("\r\n"))
        for line in it:
            row = line.strip()
            if not row:
                break
            head.append(row)
            if len(head) > 3 and _is_bottom(row):
                break
        yield head
