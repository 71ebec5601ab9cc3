"""Positions and the four grid directions, shared by every game."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


def cell_name(p: tuple[int, int]) -> str:
    """A cell the way every message names it: 1-based `row R, col C`, as the coordinates
    around a board (c) number them, so every game names one cell the same way."""
    return f"row {p[0] + 1}, col {p[1] + 1}"


class Pos(NamedTuple):
    """A cell as (row, col), 0-based from the top-left; a tuple so it hashes fast in searches."""

    row: int
    col: int

    def step(self, direction: Direction, distance: int = 1) -> Pos:
        return Pos(self.row + direction.dr * distance, self.col + direction.dc * distance)


class Direction(Enum):
    """The four orthogonal moves; the value is the lower-case letter used in routes."""

    UP = "u"
    DOWN = "d"
    LEFT = "l"
    RIGHT = "r"

    @property
    def dr(self) -> int:
        return _DELTAS[self][0]

    @property
    def dc(self) -> int:
        return _DELTAS[self][1]

    @property
    def letter(self) -> str:
        """Lower-case route letter: u, d, l, r."""
        return self.value

    @property
    def arrow(self) -> str:
        return _ARROWS[self]

    @property
    def opposite(self) -> Direction:
        return _OPPOSITES[self]

    @classmethod
    def from_letter(cls, letter: str) -> Direction:
        """Accepts u/d/l/r in either case."""
        try:
            return cls(letter.lower())
        except ValueError:
            raise ValueError(f"not a direction letter: {letter!r}") from None


_DELTAS = {
    Direction.UP: (-1, 0),
    Direction.DOWN: (1, 0),
    Direction.LEFT: (0, -1),
    Direction.RIGHT: (0, 1),
}
_ARROWS = {Direction.UP: "↑", Direction.DOWN: "↓", Direction.LEFT: "←", Direction.RIGHT: "→"}
_OPPOSITES = {
    Direction.UP: Direction.DOWN,
    Direction.DOWN: Direction.UP,
    Direction.LEFT: Direction.RIGHT,
    Direction.RIGHT: Direction.LEFT,
}

#: Fixed order used wherever a deterministic direction order matters.
DIRECTIONS: tuple[Direction, ...] = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)


def route_string(moves: list[Direction] | tuple[Direction, ...]) -> str:
    return "".join(d.letter for d in moves)


def parse_route(text: str) -> tuple[Direction, ...]:
    return tuple(Direction.from_letter(ch) for ch in text)
