"""Bunny boards: squares, void, the start, and the board-file parser and drawing.

Characters (RULES.md section 2): `S` the start square (marked), `#` an unmarked
square, `O` a marked square and a space for void. Rows may be ragged; missing cells
are void, so short rows are padded with spaces. The bunny starts on `S` facing east.

Headings are numbered clockwise from east: 0 east, 1 south, 2 west, 3 north, so a
right turn adds one and a left turn subtracts one (mod 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

from tui_grid.core.boardfile import BoardText
from tui_grid.core.geometry import Pos

START = "S"
SQUARE = "#"
MARKED = "O"
VOID = " "
CHARS = frozenset((START, SQUARE, MARKED, VOID))

EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3
#: (row, col) step for each heading.
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
HEADING_NAMES = ("east", "south", "west", "north")
#: The bunny drawn facing each heading, in plain ASCII.
BUNNY_GLYPHS = (">", "v", "<", "^")


@dataclass(frozen=True)
class BunnyBoard:
    """A board as loaded: rows padded with void to `width`, in the board characters."""

    width: int
    height: int
    rows: tuple[str, ...]
    start: Pos

    def at(self, p: Pos) -> str:
        if 0 <= p[0] < self.height and 0 <= p[1] < self.width:
            return self.rows[p[0]][p[1]]
        return VOID

    def is_square(self, p: Pos) -> bool:
        return self.at(p) != VOID

    @cached_property
    def squares(self) -> tuple[Pos, ...]:
        """Every square (not void), in row-major order; the solver's bit order."""
        return tuple(Pos(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch != VOID)

    @cached_property
    def index(self) -> dict[Pos, int]:
        return {p: i for i, p in enumerate(self.squares)}

    @cached_property
    def initially_marked(self) -> frozenset[Pos]:
        return frozenset(p for p in self.squares if self.at(p) in (START, MARKED))

    @cached_property
    def unmarked(self) -> frozenset[Pos]:
        return frozenset(p for p in self.squares if self.at(p) == SQUARE)

    @cached_property
    def cut_off(self) -> frozenset[Pos]:
        """Squares to mark that no hop reaches: no program completes the board."""
        return self.unmarked - self.reachable()

    def hop(self, p: Pos, heading: int) -> Pos:
        """Where `F` takes the bunny: one square ahead, or nowhere if that is void or off the board."""
        dr, dc = DELTAS[heading]
        target = Pos(p[0] + dr, p[1] + dc)
        return target if self.is_square(target) else p

    def reachable(self) -> frozenset[Pos]:
        """Squares connected to the start through squares (the only ones a bunny can visit)."""
        seen = {self.start}
        todo = [self.start]
        while todo:
            p = todo.pop()
            for heading in range(4):
                q = self.hop(p, heading)
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        return frozenset(seen)


def parse_bunny(text: BoardText) -> BunnyBoard:
    """Check the rows of a bunny board and build it; raises BoardError at the exact cell."""
    rows = list(text.rows)
    width, height = text.size
    start: Pos | None = None
    for r, row in enumerate(rows):
        if r >= height:
            raise text.error(r, 0, f"the board has {len(rows)} rows, more than the declared size {width}x{height} allows")
        for c, ch in enumerate(row):
            if c >= width:
                raise text.error(r, c, f"row is {len(row)} characters wide, longer than the declared width {width}")
            if ch not in CHARS:
                raise text.error(r, c, f"unknown character {ch!r} (bunny boards use S, #, O and space)")
            if ch == START:
                if start is not None:
                    raise text.error(r, c, f"a second start 'S' (the first is at line {text.first_line + start[0]}, column {start[1] + 1})")
                start = Pos(r, c)
    if start is None:
        raise text.error(0, 0, "missing start: the board needs exactly one 'S'")
    padded = tuple(row.ljust(width, VOID) for row in rows) + (VOID * width,) * (height - len(rows))
    return BunnyBoard(width=width, height=height, rows=padded, start=start)


def make_board(rows: Iterable[str]) -> BunnyBoard:
    """A board from rows in board characters (tests, generator); ragged rows are fine."""
    rows = tuple(rows)
    return parse_bunny(BoardText(source="<board>", rows=rows))


def draw(board: BunnyBoard, marks: Iterable[Pos] | None = None, bunny: tuple[Pos, int] | None = None) -> str:
    """The board as text: `O` marked, `#` unmarked, the bunny as `> v < ^`, void as space.

    `marks` defaults to the board's initial marks; `bunny` (position, heading) to the
    start facing east. Trailing spaces are stripped from each line.
    """
    marked = board.initially_marked if marks is None else frozenset(marks)
    where, heading = (board.start, EAST) if bunny is None else bunny
    lines = []
    for r, row in enumerate(board.rows):
        out = []
        for c, ch in enumerate(row):
            p = Pos(r, c)
            if p == where:
                out.append(BUNNY_GLYPHS[heading])
            elif ch == VOID:
                out.append(VOID)
            else:
                out.append(MARKED if p in marked else SQUARE)
        lines.append("".join(out).rstrip())
    return "\n".join(lines)
