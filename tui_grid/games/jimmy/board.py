"""Jimmy boards: the immutable layout (size, solids, start cells) and the board-file parser."""

from __future__ import annotations

from dataclasses import dataclass

from tui_grid.core.boardfile import BoardText
from tui_grid.core.geometry import Pos, cell_name

JIMMY = "o"
GHOST = "g"
SOLID = "#"
EMPTY = "."
CHARS = (JIMMY, GHOST, SOLID, EMPTY)
MIN_SIZE = 2


@dataclass(frozen=True)
class JimmyBoard:
    """A board as loaded: what never changes (size, solids) plus where Jimmy and the ghosts start."""

    width: int
    height: int
    solid: frozenset[Pos]
    jimmy: Pos
    ghosts: tuple[Pos, ...]

    def in_bounds(self, p: Pos) -> bool:
        return 0 <= p[0] < self.height and 0 <= p[1] < self.width

    def is_border(self, p: Pos) -> bool:
        row, col = p
        return row == 0 or col == 0 or row == self.height - 1 or col == self.width - 1

    def is_open(self, p: Pos) -> bool:
        """Inside the board and not solid: a cell Jimmy could stand on."""
        return self.in_bounds(p) and p not in self.solid

    def rows(self) -> tuple[str, ...]:
        """The board in file characters (`o`, `g`, `#`, `.`)."""
        grid = [[EMPTY] * self.width for _ in range(self.height)]
        for row, col in self.solid:
            grid[row][col] = SOLID
        for row, col in self.ghosts:
            grid[row][col] = GHOST
        grid[self.jimmy[0]][self.jimmy[1]] = JIMMY
        return tuple("".join(line) for line in grid)

    def cells(self) -> int:
        return self.width * self.height


def parse_jimmy(text: BoardText) -> JimmyBoard:
    """Check the rows of a board file and build the board; raises BoardError at the exact cell."""
    rows = [row.rstrip() for row in text.rows]
    width = len(rows[0]) if rows else 0
    solid: set[Pos] = set()
    ghosts: list[Pos] = []
    jimmy: Pos | None = None
    for r, row in enumerate(rows):
        if not row:
            raise text.error(r, 0, "blank row inside the board")
        if len(row) != width:
            col = min(len(row), width)
            raise text.error(r, col, f"row {r + 1} is {len(row)} wide but the first row is {width} wide")
        for c, ch in enumerate(row):
            if ch == SOLID:
                solid.add(Pos(r, c))
            elif ch == GHOST:
                ghosts.append(Pos(r, c))
            elif ch == JIMMY:
                if jimmy is not None:
                    raise text.error(r, c, f"a second Jimmy 'o' (the first is at {cell_name(jimmy)})")
                jimmy = Pos(r, c)
            elif ch != EMPTY:
                raise text.error(r, c, f"unknown character {ch!r} (expected o, g, # or .)")
    height = len(rows)
    if width < MIN_SIZE or height < MIN_SIZE:
        raise text.error(0, 0, f"the board is {width}x{height}; it must be at least {MIN_SIZE}x{MIN_SIZE}")
    declared = text.declared_size
    if declared is not None and declared != (width, height):
        raise text.meta_error("size", f"says {declared[0]}x{declared[1]} but the board is {width}x{height}")
    if jimmy is None:
        raise text.error(0, 0, "no Jimmy: the board needs exactly one 'o'")
    if not ghosts:
        raise text.error(0, 0, "no ghost: the board needs at least one 'g'")
    return JimmyBoard(width, height, frozenset(solid), jimmy, tuple(ghosts))
