"""Ice maps: the immutable layout (rows, start, end) and the board-file parser.

Rows use the kata's characters: `S` start, `E` end, space for ice, `x` for a rough
tile you stop on, `#` for an obstacle. Editors may strip trailing spaces, so short
rows are padded with ice up to the board width: the `size: WxH` header when there
is one (which also restores stripped trailing blank rows), else the longest row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, Sequence

from tui_grid.core.boardfile import BoardText
from tui_grid.core.geometry import Pos

START = "S"
END = "E"
ICE = " "
ROUGH = "x"
OBSTACLE = "#"
CHARS = frozenset((START, END, ICE, ROUGH, OBSTACLE))
MIN_CELLS = 2

# Lanes for fast slides (see `Lanes`).
_LANE = str.maketrans({START: ICE, END: ROUGH})
_STOPS = str.maketrans({ROUGH: OBSTACLE})
_UNKNOWN = re.compile(r"[^SEx# ]")


@dataclass(frozen=True)
class IceBoard:
    """A map as loaded: rows padded to `width`, in the map characters, plus S and E."""

    width: int
    height: int
    rows: tuple[str, ...]
    start: Pos
    end: Pos

    def at(self, p: Pos) -> str:
        return self.rows[p[0]][p[1]]

    def in_bounds(self, p: Pos) -> bool:
        return 0 <= p[0] < self.height and 0 <= p[1] < self.width

    @cached_property
    def lanes(self) -> Lanes:
        """The map as lane strings for fast slides (computed once per board)."""
        return make_lanes(self.rows)


class Lanes(NamedTuple):
    """Rows and columns (as strings, columns top to bottom) in two alphabets.

    In `rows`/`cols`, `x` marks a tile you stop on (rough tiles and the end), `#` a
    tile you stop before, and a space anything you slide over (ice, the start). In
    `stop_rows`/`stop_cols` both kinds of stopper are `#`, so one `str.find` finds
    the next stopper and one lookup in `rows`/`cols` says which kind it is.
    """

    rows: tuple[str, ...]
    cols: tuple[str, ...]
    stop_rows: tuple[str, ...]
    stop_cols: tuple[str, ...]


def make_lanes(map_rows: Sequence[str]) -> Lanes:
    rows = tuple(row.translate(_LANE) for row in map_rows)
    cols = tuple("".join(col) for col in zip(*rows))
    stop_rows = tuple(row.translate(_STOPS) for row in rows)
    stop_cols = tuple(col.translate(_STOPS) for col in cols)
    return Lanes(rows, cols, stop_rows, stop_cols)


def human(text: BoardText, p: Pos) -> str:
    """A cell as its position in the file: `line L, column C` (1-based)."""
    return f"line {text.first_line + p[0]}, column {p[1] + 1}"


def parse_ice(text: BoardText) -> IceBoard:
    """Check the rows of an ice map and build the board; raises BoardError at the exact cell."""
    rows = list(text.rows)
    width, height = text.size
    start: Pos | None = None
    end: Pos | None = None
    for r, row in enumerate(rows):
        if r >= height:
            raise text.error(r, 0, f"the map has {len(rows)} rows, more than the declared size {width}x{height} allows")
        # Fast path (C-level scans) for the usual clean row; the slow scan below finds
        # the first problem in column order.
        starts, ends = row.count(START), row.count(END)
        if (
            len(row) <= width
            and _UNKNOWN.search(row) is None
            and starts <= (start is None)
            and ends <= (end is None)
        ):
            if starts:
                start = Pos(r, row.index(START))
            if ends:
                end = Pos(r, row.index(END))
            continue
        for c, ch in enumerate(row):
            if c >= width:
                raise text.error(r, c, f"row is {len(row)} characters wide, longer than the declared width {width}")
            if ch in CHARS:
                if ch == START:
                    if start is not None:
                        raise text.error(r, c, f"a second start 'S' (the first is at {human(text, start)})")
                    start = Pos(r, c)
                elif ch == END:
                    if end is not None:
                        raise text.error(r, c, f"a second end 'E' (the first is at {human(text, end)})")
                    end = Pos(r, c)
                continue
            raise text.error(r, c, f"unknown character {ch!r} (ice maps use S, E, x, #, space)")
    if width * height < MIN_CELLS:
        raise text.error(0, 0, f"board too small ({width}x{height}): an ice map needs at least {MIN_CELLS} cells")
    if start is None:
        raise text.error(0, 0, "missing start: the map needs exactly one 'S'")
    if end is None:
        raise text.error(0, 0, "missing end: the map needs exactly one 'E'")
    padded = tuple(row.ljust(width, ICE) for row in rows) + (ICE * width,) * (height - len(rows))
    return IceBoard(width=width, height=height, rows=padded, start=start, end=end)


def make_board(rows: list[str] | tuple[str, ...]) -> IceBoard:
    """A board from equal-width rows in map characters (for the generator and tests).

    Goes through the same checks as a file with a `size:` header, so trailing ice
    rows and columns are kept.
    """
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    text = BoardText(source="<map>", rows=tuple(rows), meta={"size": f"{width}x{height}"})
    return parse_ice(text)
