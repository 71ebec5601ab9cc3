"""The Ice map: ice, rough tiles, obstacles, start, exit and the player, each a colour and
a glyph, and a hint's marks over them; drawn from the state and overlay it is given."""

from __future__ import annotations

from collections.abc import Hashable

from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.rules import IceState
from tui_grid.ui.board_view import BoardView

TILES = {" ": ("  ", "ice"), "x": ("░░", "rough"), "#": ("██", "wall"), "S": ("S ", "start"), "E": ("E ", "end")}
ARROWS = {Direction.UP: "↑ ", Direction.DOWN: "↓ ", Direction.LEFT: "← ", Direction.RIGHT: "→ "}


def mark_over(tile: tuple[str, str], mark: tuple[str, str]) -> tuple[str, str]:
    """A hint mark drawn over a tile. On plain ice the mark alone; on a tile that means
    something (the exit a slide stops at, rough ice, the start it passes) the tile's
    glyph first, the one narrow cells keep, and the mark's after it, in the mark's colours:
    the player sees what is under the end of the hinted slide, with colour or without."""
    if tile[1] == "ice":
        return mark
    return tile[0][0] + mark[0][0], mark[1]


class IceBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    IceBoardView > .board--ice      { background: #cfe6f5; color: #5b7f99; }
    IceBoardView > .board--rough    { background: #b9a17a; color: #5e4a2c; }
    IceBoardView > .board--wall     { background: #3b4252; color: #6b7385; }
    IceBoardView > .board--start    { background: #cfe6f5; color: #1d4f91; text-style: bold; }
    IceBoardView > .board--end      { background: #2e9e5b; color: #ffffff; text-style: bold; }
    IceBoardView > .board--player   { background: #d64545; color: #ffffff; text-style: bold; }
    IceBoardView > .board--won      { background: #ffd23f; color: #000000; text-style: bold; }
    IceBoardView > .board--hint     { background: #fff3b0; color: #9a6700; text-style: bold; }
    IceBoardView > .board--target   { background: #ffd23f; color: #000000; text-style: bold; }
    IceBoardView > .board--frame    { color: #6b7385; }
    """
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("player", "won", "target", "hint", "end", "start", "wall", "rough", "ice")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS} | {"board--frame"}
    FRAMED = True  # the map's edge stops slides like a wall
    MARKERS = {"player": "@", "won": "@", "end": "E", "start": "S", "target": "*"}
    GLYPHS = {"hint": "·"}  # the path of a hinted slide in blocks: its arrows differ, its dots do not

    def cell(self, row: int, col: int) -> tuple[str, str]:
        board: IceBoard = self.board
        state: IceState = self.state
        pos = Pos(row, col)
        if pos == state.pos:
            return ("@ ", "won") if pos == board.end else ("@ ", "player")
        tile = TILES[board.rows[row][col]]
        mark = self.overlay.marks.get(pos)
        return tile if mark is None else mark_over(tile, mark)

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        """A whole row from the map string; only the player and hint marks need a lookup."""
        line = self.board.rows[row]
        cells = [TILES[ch] for ch in line[first:last]]
        state: IceState = self.state
        if state.pos.row == row and first <= state.pos.col < last:
            cells[state.pos.col - first] = self.cell(row, state.pos.col)
        for pos, mark in self.overlay.marks.items():
            if pos.row == row and first <= pos.col < last and pos != state.pos:
                cells[pos.col - first] = mark_over(cells[pos.col - first], mark)
        return cells

    def rows_key(self, first: int, last: int) -> Hashable | None:
        """The map is fixed for a board (`use` drops every line when it changes), so rows
        `first..last-1` differ only by the player and the hint marks on them: a slide redraws
        the lines it left and reached, not the whole 1000-row map."""
        state: IceState | None = self.state
        if state is None or self.board is None:
            return None
        pos = state.pos
        player = (pos, pos == self.board.end) if first <= pos.row < last else None
        return player, frozenset((at, mark) for at, mark in self.overlay.marks.items() if first <= at.row < last)
