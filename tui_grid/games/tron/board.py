"""Tron boards: walls, starting trails and the two heads, and the board-file parser.

A board file uses HackerRank's grid characters: `#` wall, `-` empty, `r` red's trail,
`g` green's trail. Where the heads are is said in one of three ways:

* a start board: exactly one `r` and one `g` in the grid; they are the heads;
* a `heads: R_ROW R_COL G_ROW G_COL` header (HackerRank's line 2), for a board that
  already has trails;
* a pasted HackerRank state with no header: line 1 `r` or `g` (the player to move, kept
  as `to_move` for `tui-grid solve tron`), line 2 `R_ROW R_COL G_ROW G_COL`, then the grid.

Every board must be a rectangle at least 3x3 with a full `#` border, and no row may be all
`#` except the top and bottom borders: the bot protocol ends a state at its all-`#` bottom
row (see `protocol.py`), and such a row would cut the board in two anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui_grid.core.boardfile import BoardText
from tui_grid.core.geometry import Pos
from tui_grid.games.tron.protocol import SEAT_LETTERS

WALL = "#"
EMPTY = "-"
RED = "r"
GREEN = "g"
#: Every seat's trail letter (the protocol's) and name, red and green first (HackerRank's
#: two); an arena of N cycles uses the first N.
LETTERS = SEAT_LETTERS
SEAT_NAMES = ("red", "green", "blue", "yellow", "magenta", "cyan", "white", "orange")
MAX_CYCLES = len(LETTERS)
CHARS = (WALL, EMPTY, RED, GREEN)
TRAILS = (RED, GREEN)
MIN_SIDE = 3
MAX_SIDE = 80

_HEADS = re.compile(r"^\s*(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s*$")


@dataclass(frozen=True)
class TronBoard:
    """A board as loaded: the grid rows (walls and any starting trails) and the heads, one
    per cycle (red's and green's in a duel).

    `rows` use the file characters and mark each head cell with its player's letter.
    """

    rows: tuple[str, ...]
    heads: tuple[Pos, ...]
    title: str = ""
    #: The player to move (0 red, 1 green) from a pasted state's line 1; red otherwise.
    to_move: int = 0

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def red(self) -> Pos:
        return self.heads[0]

    @property
    def green(self) -> Pos:
        return self.heads[1]

    def in_bounds(self, p: tuple[int, int]) -> bool:
        return 0 <= p[0] < self.height and 0 <= p[1] < self.width

    def free_cells(self) -> int:
        return sum(row.count(EMPTY) for row in self.rows)


def parse_heads(text: str) -> tuple[Pos, Pos]:
    """`R_ROW R_COL G_ROW G_COL` to the two heads; ValueError when it is not four integers."""
    match = _HEADS.match(text)
    if not match:
        raise ValueError(f"expected four integers 'r_row r_col g_row g_col', got {text.strip()!r}")
    a, b, c, d = (int(match.group(i)) for i in range(1, 5))
    return Pos(a, b), Pos(c, d)


def check_grid(rows: list[str], error) -> None:  # type: ignore[no-untyped-def]
    """Shape, characters and border of a grid; `error(row, col, message)` builds the exception."""
    if not rows:
        raise error(0, 0, "no grid rows")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if not row:
            raise error(r, 0, "blank row inside the board")
        if len(row) != width:
            raise error(r, min(len(row), width), f"row {r + 1} is {len(row)} wide but the first row is {width} wide")
        for c, ch in enumerate(row):
            if ch not in CHARS:
                raise error(r, c, f"unknown character {ch!r} (tron boards use # - r g)")
    height = len(rows)
    if width < MIN_SIDE or height < MIN_SIDE:
        raise error(0, 0, f"a board must be at least {MIN_SIDE}x{MIN_SIDE} including its border (got {width}x{height})")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise error(0, 0, f"a board can be at most {MAX_SIDE}x{MAX_SIDE} (got {width}x{height})")
    for r in (0, height - 1):
        for c, ch in enumerate(rows[r]):
            if ch != WALL:
                raise error(r, c, f"the border must be '#' walls, found {ch!r}")
    for r in range(1, height - 1):
        for c in (0, width - 1):
            if rows[r][c] != WALL:
                raise error(r, c, f"the border must be '#' walls, found {rows[r][c]!r}")
        if rows[r] == WALL * width:
            raise error(r, 0, f"row {r + 1} is all walls: only the top and bottom borders may be (it would cut the board in two)")


def check_heads(rows: list[str], red: Pos, green: Pos, error) -> list[str]:  # type: ignore[no-untyped-def]
    """The rows with both heads marked. A head may sit on its own letter or on `-` (the
    positions line wins over the grid, as in the protocol); on `#` or the other player's
    letter it is an error."""
    rows = list(rows)
    if red == green:
        raise error(red[0], red[1], "both heads are on the same cell")
    for name, letter, head in (("red", RED, red), ("green", GREEN, green)):
        if not (0 <= head[0] < len(rows) and 0 <= head[1] < len(rows[0])):
            raise error(0, 0, f"{name}'s head ({head[0]},{head[1]}) is off the {len(rows[0])}x{len(rows)} board")
        found = rows[head[0]][head[1]]
        if found not in (letter, EMPTY):
            raise error(head[0], head[1], f"{name}'s head must be on a {letter!r} or '-' cell, found {found!r}")
        row = rows[head[0]]
        rows[head[0]] = row[: head[1]] + letter + row[head[1] + 1 :]
    return rows


def parse_tron(text: BoardText) -> TronBoard:
    """Check a board file and build the board; raises BoardError at the exact cell."""
    rows = [row.rstrip() for row in text.rows]
    offset = 0
    to_move = 0
    heads: tuple[Pos, Pos] | None = None
    if "heads" in text.meta:
        try:
            heads = parse_heads(text.meta["heads"])
        except ValueError as exc:
            raise text.meta_error("heads", str(exc)) from None
    elif len(rows) >= 2 and rows[0].strip() in TRAILS and _HEADS.match(rows[1]):
        # A pasted HackerRank state: player line, positions line, grid.
        heads = parse_heads(rows[1])
        to_move = TRAILS.index(rows[0].strip())
        offset = 2
    grid = rows[offset:]

    def error(r: int, c: int, message: str):  # type: ignore[no-untyped-def]
        return text.error(r + offset, c, message)

    check_grid(grid, error)
    if heads is None:
        found: dict[str, list[Pos]] = {RED: [], GREEN: []}
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch in found:
                    found[ch].append(Pos(r, c))
        for letter, name in ((RED, "red"), (GREEN, "green")):
            cells = found[letter]
            if not cells:
                raise error(0, 0, f"no {letter!r}: a start board needs one {letter!r} for {name}'s head")
            if len(cells) > 1:
                r, c = cells[1]
                raise error(r, c, f"a second {letter!r}: a board with trails needs a 'heads: r_row r_col g_row g_col' header")
        heads = (found[RED][0], found[GREEN][0])
    grid = check_heads(grid, heads[0], heads[1], error)
    return TronBoard(tuple(grid), (heads[0], heads[1]), text.title, to_move)


def board_from_rows(rows: list[str] | tuple[str, ...], red: Pos, green: Pos, title: str = "") -> TronBoard:
    """A board from grid rows and heads, checked (ValueError on a bad grid)."""
    rows = [str(row) for row in rows]

    def error(r: int, c: int, message: str) -> ValueError:
        return ValueError(f"row {r + 1}, col {c + 1}: {message}")

    check_grid(rows, error)
    rows = check_heads(rows, Pos(*red), Pos(*green), error)
    return TronBoard(tuple(rows), (Pos(*red), Pos(*green)), title)


def standard_board() -> TronBoard:
    """HackerRank's empty 15x15 board with red at (7, 1) and green at (7, 13)."""
    rows = ["#" * 15] + ["#" + "-" * 13 + "#" for _ in range(13)] + ["#" * 15]
    rows[7] = "#r-----------g#"
    return TronBoard(tuple(rows), (Pos(7, 1), Pos(7, 13)), "HackerRank 15x15")
