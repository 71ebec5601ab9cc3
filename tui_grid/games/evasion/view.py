"""The Evasion board: 300x300 cells drawn fast (wall rows and k x k blocks cached per set
of walls, lines named by the walls and marks on them so a step redraws only its own), the
hunter, its heading (drawn next to H in every zoom), the prey and the selected wall over
them, in a frame."""

from __future__ import annotations

from collections.abc import Hashable

from tui_grid.games.evasion.engine import State
from tui_grid.games.evasion.rules import PAD, Wall
from tui_grid.ui.board_view import BoardView

FLOOR = ("  ", "floor")
WALL = ("██", "wall")
SELECTED = ("▒▒", "selected")
HEADING = {(1, 1): "↘ ", (1, -1): "↗ ", (-1, 1): "↙ ", (-1, -1): "↖ "}


class EvasionBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    EvasionBoardView > .board--floor    { background: #1e2430; color: #3a4456; }
    EvasionBoardView > .board--wall     { background: #8a93a6; color: #c8d0e0; }
    EvasionBoardView > .board--selected { background: #ffb347; color: #5a3200; text-style: bold; }
    EvasionBoardView > .board--heading  { background: #5c2a2a; color: #ff8080; text-style: bold; }
    EvasionBoardView > .board--hunter   { background: #e0414f; color: #ffffff; text-style: bold; }
    EvasionBoardView > .board--prey     { background: #3ccf6e; color: #000000; text-style: bold; }
    EvasionBoardView > .board--frame    { color: #8a93a6; }
    """
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("prey", "hunter", "heading", "selected", "wall", "floor")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS} | {"board--frame"}
    FRAMED = True  # the hunter bounces off the arena's edge; without colour only a frame shows it
    MARKERS = {"prey": "P", "hunter": "H"}  # visible in the whole-board zoom in every colour mode
    GLYPHS = {"floor": " ", "wall": "█", "selected": "▒", "heading": "·"}  # blocks never see a cell

    def __init__(self) -> None:
        super().__init__(id="board")
        self._rows_for: tuple[Wall, ...] | None = None
        self._rows: list[list[tuple[str, str]]] = []
        self._kinds_for: tuple[Wall, ...] | None = None
        self._kind_rows: list[list[str]] = []
        self._blocks_for: tuple[tuple[Wall, ...], int] | None = None
        self._blocks: list[list[str]] = []

    # --- caches per set of walls --------------------------------------------------------------
    def _wall_rows(self, state: State) -> list[list[tuple[str, str]]]:
        """Each board row as cells, walls included: rebuilt only when the walls change."""
        if self._rows_for != state.walls or not self._rows:
            grid = self.engine.grid_of(state)
            cells, stride, width = grid.cells, grid.stride, grid.width
            rows = []
            for y in range(grid.height):
                start = (y + PAD) * stride + PAD
                line = cells[start : start + width]
                rows.append([WALL if b else FLOOR for b in line] if any(line) else [FLOOR] * width)
            self._rows, self._rows_for = rows, state.walls
        return self._rows

    def _wall_kinds(self, state: State) -> list[list[str]]:
        """The rows of `_wall_rows` as kinds alone, for the half-block zoom."""
        if self._kinds_for != state.walls or not self._kind_rows:
            self._kind_rows = [[kind for _, kind in row] for row in self._wall_rows(state)]
            self._kinds_for = state.walls
        return self._kind_rows

    def _wall_blocks(self, state: State, k: int) -> list[list[str]]:
        """Per block row, the kind of each k x k block from the walls alone."""
        if self._blocks_for != (state.walls, k) or not self._blocks:
            grid = self.engine.grid_of(state)
            cells, stride, width, height = grid.cells, grid.stride, grid.width, grid.height
            columns = -(-width // k)
            blocks = []
            for top in range(0, height, k):
                acc = 0
                for y in range(top, min(height, top + k)):
                    start = (y + PAD) * stride + PAD
                    acc |= int.from_bytes(cells[start : start + width], "big")
                line = acc.to_bytes(width, "big")
                blocks.append(["wall" if any(line[c * k : (c + 1) * k]) else "floor" for c in range(columns)])
            self._blocks, self._blocks_for = blocks, (state.walls, k)
        return self._blocks

    def marks(self, state: State) -> list[tuple[int, int, tuple[str, str]]]:
        """(x, y, cell) drawn over the walls, least important first."""
        out: list[tuple[int, int, tuple[str, str]]] = []
        hx, hy = state.hunter
        vx, vy = state.hunter_velocity
        if self._heading_shown(state):
            out.append((hx + vx, hy + vy, (HEADING.get((vx, vy), "· "), "heading")))
        out.append((hx, hy, ("H ", "hunter")))
        out.append((*state.prey, ("P ", "prey")))
        return out

    def _heading_shown(self, state: State) -> bool:
        """Whether the cell the hunter moves to next is drawn: it moves and stays on the board."""
        config = self.engine.config
        (hx, hy), (vx, vy) = state.hunter, state.hunter_velocity
        return (vx, vy) != (0, 0) and 0 <= hx + vx < config.width and 0 <= hy + vy < config.height

    def glyph_corner(self, row: int, col: int, kind: str) -> tuple[int, int]:
        """In the zooms of several rows per cell, H sits in the corner of its cell toward
        its heading and the arrow in the corner of its cell toward H, so the arrow is drawn
        next to H as in the one-row zooms, not a cell's height away."""
        state: State = self.state
        if kind not in ("hunter", "heading") or not self._heading_shown(state):
            return 0, 0
        vx, vy = state.hunter_velocity
        return (vy, vx) if kind == "hunter" else (-vy, -vx)

    def selected(self, state: State) -> Wall | None:
        """The selected wall, while it stands."""
        wall = self.overlay.selected
        return wall if wall is not None and wall in state.walls else None

    def rows_key(self, first: int, last: int) -> Hashable | None:
        """Rows `first..last-1` show the walls that cross them, the selected wall if it does
        and the marks on them: a step redraws only the lines its hunter and prey left or
        reached, a wall only the lines it crosses."""
        state: State | None = self.state
        if state is None or self.engine is None:
            return None
        walls = tuple(wall for wall in state.walls if wall.y1 < last and wall.y2 >= first)
        wall = self.selected(state)
        chosen = wall if wall is not None and wall.y1 < last and wall.y2 >= first else None
        marks = tuple(mark for mark in self.marks(state) if first <= mark[1] < last)
        hunter = any(kind in ("hunter", "heading") for _, _, (_, kind) in marks)
        return walls, chosen, marks, state.hunter_velocity if hunter else None  # where H and its arrow sit

    # --- drawing --------------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> tuple[str, str]:
        return self.row_cells(row, col, col + 1)[0]

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        state: State = self.state
        cells = self._wall_rows(state)[row][first:last]
        for x, cell in self._over_walls(state, row, first, last):
            cells[x - first] = cell
        return cells

    def row_kinds(self, row: int, first: int, last: int) -> list[str]:
        state: State = self.state
        kinds = self._wall_kinds(state)[row][first:last]
        for x, (_, kind) in self._over_walls(state, row, first, last):
            kinds[x - first] = kind
        return kinds

    def _over_walls(self, state: State, row: int, first: int, last: int) -> list[tuple[int, tuple[str, str]]]:
        """(x, cell) drawn over the walls of a row between `first` and `last`: the selected
        wall, then the marks (the later wins)."""
        out: list[tuple[int, tuple[str, str]]] = []
        wall = self.selected(state)
        if wall is not None and wall.y1 <= row <= wall.y2:
            out += [(x, SELECTED) for x in range(max(first, wall.x1), min(last, wall.x2 + 1))]
        out += [(x, mark) for x, y, mark in self.marks(state) if y == row and first <= x < last]
        return out

    def _block_row(self, block_row: int, k: int, first: int, last: int) -> list[str]:
        state: State = self.state
        blocks = self._wall_blocks(state, k)
        if block_row >= len(blocks):
            return ["floor"] * (last - first)
        kinds = blocks[block_row][first:last]
        rank = self._rank
        wall = self.selected(state)
        if wall is not None and wall.y1 // k <= block_row <= wall.y2 // k:
            for column in range(max(first, wall.x1 // k), min(last, wall.x2 // k + 1)):
                kinds[column - first] = "selected"
        for x, y, (_, kind) in self.marks(state):
            column = x // k
            if y // k == block_row and first <= column < last and rank[kind] < rank.get(kinds[column - first], 99):
                kinds[column - first] = kind
        return kinds
