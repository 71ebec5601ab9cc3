"""Bunny's widgets: the board (the bunny, its marks) and the program panel (token tiles,
the cursor, the token being executed, counts and the revealed hint)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tui_grid.core.geometry import Pos
from tui_grid.games.bunny.board import VOID
from tui_grid.games.bunny.draft import CLOSE, Draft, Open, item_text
from tui_grid.games.bunny.engine import BunnyState
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.plain import Plain

BUNNY = ("▶ ", "▼ ", "◀ ", "▲ ")


class BunnyBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    BunnyBoardView > .board--void   { background: #1b1f27; color: #1b1f27; }
    BunnyBoardView > .board--square { background: #3d6b35; color: #d9f5c4; text-style: bold; }
    BunnyBoardView > .board--marked { background: #b07a3a; color: #4a2f10; }
    BunnyBoardView > .board--start  { background: #b07a3a; color: #000000; text-style: bold; }
    BunnyBoardView > .board--bunny  { background: #f4f4f4; color: #c2185b; text-style: bold; }
    BunnyBoardView > .board--won    { background: #ffd23f; color: #000000; text-style: bold; }
    """
    #: Most important first: in the whole-board zoom a block shows its first kind.
    KINDS = ("bunny", "won", "square", "start", "marked", "void")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS}

    def cell(self, row: int, col: int) -> tuple[str, str]:
        board = self.board
        state: BunnyState = self.state
        ch = board.rows[row][col]
        pos = Pos(row, col)
        if pos == state.pos:
            return BUNNY[state.heading], "won" if state.complete else "bunny"
        if ch == VOID:
            return "  ", "void"
        if pos not in state.marks:
            return "· ", "square"
        return ("S ", "start") if pos == board.start else ("O ", "marked")


class ProgramPanel(Plain):
    """The program as token tiles with the cursor, its size and the best known size, and
    the hint's revealed tokens."""
    DEFAULT_CSS = """
    ProgramPanel { height: auto; max-height: 4; padding: 0 1; }
    ProgramPanel > .program--label  { color: $text-muted; }
    ProgramPanel > .program--op     { background: #31405a; color: #ffffff; text-style: bold; }
    ProgramPanel > .program--loop0  { background: #8e44ad; color: #ffffff; text-style: bold; }
    ProgramPanel > .program--loop1  { background: #1f8a8a; color: #ffffff; text-style: bold; }
    ProgramPanel > .program--loop2  { background: #9c5a2c; color: #ffffff; text-style: bold; }
    ProgramPanel > .program--cursor { color: #ffd23f; text-style: bold; }
    ProgramPanel > .program--exec   { background: #ffd23f; color: #000000; text-style: bold; }
    ProgramPanel > .program--hint   { color: #e0b84a; }
    """

    COMPONENT_CLASSES = {
        "program--op",
        "program--loop0",
        "program--loop1",
        "program--loop2",
        "program--cursor",
        "program--exec",
        "program--label",
        "program--hint",
    }
    #: Lines of the panel (its CSS max-height); the program gets what counts and hint leave.
    LINES = 4

    def show(self, draft: Draft, executing: int | None, counts: dict[int, int], counts_line: str, hint: str) -> None:
        """The draft's tiles, the token being `executing` highlighted, each running loop's
        iteration (`counts`, by draft index), then the counts line and the hint line. A
        program longer than its lines shows the ones around the cursor (or the token being
        run), with "…" where lines are left out, so a long program never hides its own
        end, the cursor or the counts."""
        style = self.get_component_rich_style
        pieces: list[Text] = [Text("Program ", style("program--label"))]
        focus = 0
        depth = 0
        for i, item in enumerate(draft.items):
            piece = Text("▏" if i == draft.cursor else " ", style("program--cursor"))
            if item == CLOSE:
                depth -= 1
            tile = style(f"program--loop{depth % 3}") if isinstance(item, Open) or item == CLOSE else style("program--op")
            if i == executing:
                tile = style("program--exec")
            label = item_text(item)
            if i in counts:  # a running loop: which iteration, of how many
                label = f"LOOP({counts[i]}/{item.count}){{" if item.count is not None else f"LOOP(#{counts[i]}){{"
            piece.append(f" {label} " if not isinstance(item, Open) and item != CLOSE else label, tile)
            if isinstance(item, Open):
                depth += 1
            if i == (executing if executing is not None else draft.cursor):
                focus = len(pieces)
            pieces.append(piece)
        if draft.cursor == len(draft.items):
            if executing is None:
                focus = len(pieces)
            pieces.append(Text("▏", style("program--cursor")))
        if not draft.items:
            pieces.append(Text("  (type f l r [ ] to write one)", style("program--label")))
        room = self.LINES - 1 - (1 if hint else 0)
        text = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(_window(pieces, focus, self._width(), room, style("program--label"))):
            if n:
                text.append("\n")
            text.append_text(line)
        text.append("\n")
        text.append(counts_line, style("program--label"))
        if hint:
            text.append("\n")
            text.append(hint, style("program--hint"))
        self.update(text)

    def _width(self) -> int:
        """Columns for the program: the panel's content width once laid out, else the
        screen's less the padding."""
        width = self.content_size.width or (self.app.size.width - 2 if self.is_attached else 0)
        return max(20, width)


def _window(pieces: list[Text], focus: int, width: int, room: int, label_style: Any) -> list[Text]:
    """The pieces packed into lines of `width` columns, never splitting one; at most `room`
    lines, those around the line that holds piece `focus`, "…" where lines are left out."""
    lines: list[list[Text]] = [[]]
    used = 0
    where = 0
    width -= 4  # room for a leading "… " and a trailing " …": a line never wraps
    for index, piece in enumerate(pieces):
        if lines[-1] and used + piece.cell_len > width:
            lines.append([])
            used = 0
        lines[-1].append(piece)
        used += piece.cell_len
        if index == focus:
            where = len(lines) - 1
    first = max(0, min(where - room // 2, len(lines) - room))
    shown = lines[first : first + max(1, room)]
    out = [Text().join(line) for line in shown]
    if first > 0:
        out[0] = Text("… ", label_style) + out[0]
    if first + len(shown) < len(lines):
        out[-1] = out[-1] + Text(" …", label_style)
    return out
