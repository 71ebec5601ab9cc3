"""The Tron board: walls, every cycle's trail, the heads with their heading, crashes
and the hint mark, each a colour and a glyph (so NO_COLOR tells eight cycles apart);
drawn from the state and overlay it is given."""

from __future__ import annotations

from collections.abc import Hashable

from tui_grid.core.geometry import Pos
from tui_grid.games.tron.board import LETTERS, SEAT_NAMES
from tui_grid.games.tron.panel_text import TRAIL_GLYPHS
from tui_grid.games.tron.rules import TronState
from tui_grid.ui.board_view import BoardView

TILES = {"-": ("  ", "floor"), "#": ("██", "wall"),
         **{letter: (glyph * 2, f"{name}-trail") for letter, glyph, name in zip(LETTERS, TRAIL_GLYPHS, SEAT_NAMES)}}
HEAD_KINDS = tuple(f"{name}-head" for name in SEAT_NAMES)
HEAD_LETTERS = tuple(letter.upper() for letter in LETTERS)
#: Each seat's (trail background, trail glyph, head background, head text) colours.
COLOURS = (
    ("#7a1f2b", "#c0485a", "#ff4d5e", "#ffffff"),
    ("#1d5e36", "#44b06e", "#3ddc84", "#000000"),
    ("#1f3f7a", "#4a78c8", "#4d8dff", "#ffffff"),
    ("#6b5a14", "#c8a93a", "#ffd84d", "#000000"),
    ("#6b1f6b", "#b84ab8", "#ff5cff", "#000000"),
    ("#145e66", "#3ab0bc", "#4de8ff", "#000000"),
    ("#5a5f6b", "#b8bcc8", "#f0f0f0", "#000000"),
    ("#7a4314", "#d0813a", "#ff9a3d", "#000000"),
)
CRASH = ("X ", "crash")
HINT_MARK = ("◆ ", "hint")


class TronBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    TronBoardView > .board--floor       { background: #14171f; color: #2a3040; }
    TronBoardView > .board--wall        { background: #6b7385; color: #9aa3b5; }
    TronBoardView > .board--crash       { background: #ffd23f; color: #000000; text-style: bold; }
    TronBoardView > .board--hint        { background: #fff3b0; color: #9a6700; text-style: bold; }
    """ + "".join(
        f"TronBoardView > .board--{name}-trail {{ background: {trail}; color: {glyph}; }}\n"
        f"TronBoardView > .board--{name}-head {{ background: {head}; color: {text}; text-style: bold; }}\n"
        for name, (trail, glyph, head, text) in zip(SEAT_NAMES, COLOURS))
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("crash", "hint", *HEAD_KINDS, *(f"{name}-trail" for name in SEAT_NAMES), "wall", "floor")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS}
    #: Kept as glyphs in the half-block zooms (big boards), so heads stay findable.
    MARKERS = {"crash": "X", "hint": "◆", **dict(zip(HEAD_KINDS, HEAD_LETTERS))}

    def cell(self, row: int, col: int) -> tuple[str, str]:
        return self.row_cells(row, col, col + 1)[0]

    def rows_key(self, first: int, last: int) -> Hashable | None:
        """Rows `first..last-1` as the state has them (their strings: a step changes the two
        its heads move on) and the heads, crashes and marks on them: a tick redraws two or
        three lines, not the arena."""
        state: TronState | None = self.state
        if state is None:
            return None
        heads = tuple((seat, head, state.headings[seat]) for seat, head in enumerate(state.heads) if first <= head.row < last)
        crashes = tuple(crash for crash in state.crashes if crash is not None and first <= crash.row < last)
        marks = frozenset((pos, mark) for pos, mark in self.overlay.marks.items() if first <= pos.row < last)
        return state.rows[first:last], heads, crashes, marks

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        state: TronState = self.state
        cells = [TILES.get(ch, TILES["#"]) for ch in state.rows[row][first:last]]

        def put(pos: Pos | None, mark: tuple[str, str]) -> None:
            if pos is not None and pos.row == row and first <= pos.col < last:
                cells[pos.col - first] = mark

        for seat, head in enumerate(state.heads):  # a cycle out keeps its letter where it stopped
            heading = state.headings[seat]
            put(head, (HEAD_LETTERS[seat] + (heading.arrow if heading is not None else " "), HEAD_KINDS[seat]))
        for pos, mark in self.overlay.marks.items():
            put(pos, mark)
        for crash in state.crashes:
            put(crash, CRASH)
        return cells
