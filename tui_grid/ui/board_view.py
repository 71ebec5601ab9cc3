"""A scrolling grid drawn line by line, shared by every game's screen.

Each game subclasses it, declares its cell kinds as component classes (colours live in
CSS) and answers `cell(row, col)` with a two-character glyph and a kind (or a whole row at
once with `row_cells`). The glyph keeps every cue readable without colour; half-block
zoom trades glyphs for an overview, and the whole-board zoom shows a k x k block of cells
per half block, the block's most important kind winning (KINDS lists kinds from the most
important down), so a 300x300 board fits 80x24.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Mapping

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui_grid.core.geometry import Pos


class Zoom(Enum):
    """How many terminal columns and rows one board cell takes."""

    HUGE = "huge"  # 6 columns x 3 rows: a small board fills a big terminal
    LARGE = "large"  # 4 columns x 2 rows
    WIDE = "wide"  # 2 columns x 1 row, full glyphs
    NARROW = "narrow"  # 1 column x 1 row, first glyph character
    HALF = "half"  # 1 column x half a row, colour only
    WHOLE = "whole"  # half blocks of k x k cells: the whole board at once

    @property
    def scale(self) -> int:
        """Terminal rows per cell (the glyph zooms that grow with the terminal)."""
        return {Zoom.HUGE: 3, Zoom.LARGE: 2}.get(self, 1)

    @property
    def cell_width(self) -> int:
        return 2 * self.scale if self in (Zoom.HUGE, Zoom.LARGE, Zoom.WIDE) else 1

    @property
    def rows_per_line(self) -> int:
        return 2 if self in (Zoom.HALF, Zoom.WHOLE) else 1

    @property
    def label(self) -> str:
        return {
            Zoom.HUGE: "huge cells (3 rows each)",
            Zoom.LARGE: "large cells (2 rows each)",
            Zoom.WIDE: "wide cells",
            Zoom.NARROW: "narrow cells",
            Zoom.HALF: "half blocks (colour only)",
            Zoom.WHOLE: "whole board (each block shows its most important cell)",
        }[self]


ZOOM_ORDER = (Zoom.HUGE, Zoom.LARGE, Zoom.WIDE, Zoom.NARROW, Zoom.HALF, Zoom.WHOLE)
#: The zooms that draw each cell's glyph (and so may have a frame and coordinates).
GLYPH_ZOOMS = (Zoom.HUGE, Zoom.LARGE, Zoom.WIDE, Zoom.NARROW)
#: Glyphs that fill a cell: drawn across the whole of a large cell, so walls stay solid.
FILL_GLYPHS = frozenset("█░▒▓")


@dataclass(frozen=True)
class Overlay:
    """What is drawn over the state: hint marks (cell -> glyph, kind), a selection a game
    keeps (Evasion's wall), and the cells a message is about (drawn reversed)."""

    marks: Mapping[Pos, tuple[str, str]] = field(default_factory=dict)
    selected: Any = None
    marked: frozenset[tuple[int, int]] = frozenset()


NO_OVERLAY = Overlay()


class BoardView(ScrollView, can_focus=False):
    """Subclasses set KINDS and COMPONENT_CLASSES and implement `cell` from `self.state`,
    `self.overlay` and what they were built with; a screen pushes both with `show`, so a
    view never reads its screen."""

    DEFAULT_CSS = """
    BoardView {
        height: 1fr;
        width: 1fr;
        scrollbar-size: 1 1;
    }
    BoardView > .board--mark { text-style: reverse bold; }
    BoardView > .board--coords { color: $text-muted; }
    BoardView > .board--frame { color: $text-muted; }
    """
    #: Kind names; each needs a component class `board--<kind>` styled in CSS.
    KINDS: ClassVar[tuple[str, ...]] = ()
    #: Draw a line frame around the board in the glyph zooms: where the board's edge is a
    #: wall (ice), the player must see it.
    FRAMED: ClassVar[bool] = False
    #: Kinds drawn as a glyph even in the half-block zooms: kind -> one character.
    MARKERS: ClassVar[dict[str, str]] = {}
    #: One character per kind for half blocks without colour; kinds not given are learnt
    #: from the cells drawn (their glyph's first character).
    GLYPHS: ClassVar[dict[str, str]] = {}

    zoom_choice: reactive[Zoom | None] = reactive(None)  # None picks the largest zoom that fits
    show_coords: reactive[bool] = reactive(False)  # row and column numbers around the board
    COMPONENT_CLASSES = {"board--mark", "board--coords", "board--frame"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.grid_width = 1
        self.grid_height = 1
        self.focus_cell: Pos | None = None
        self.state: Any = None
        self.overlay: Overlay = NO_OVERLAY
        self.engine: Any = None
        self.board: Any = None
        self._styles: dict[str, Style] = {}
        self._pair_styles: dict[tuple[str, str | None], Style] = {}
        self._rank = {kind: index for index, kind in enumerate(self.KINDS)}
        #: Each kind's glyph (its first character), learnt while drawing: without colour,
        #: a half block shows the glyph of the more important of its two cells instead.
        self._glyph_of: dict[str, str] = dict(self.GLYPHS)

    # --- to implement ------------------------------------------------------------
    def cell(self, row: int, col: int) -> tuple[str, str]:
        """(two-character glyph, kind) for one cell of what is shown now."""
        raise NotImplementedError

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        """Cells `first..last-1` of a row; a game may override this to hand over a row at once."""
        cell = self.cell
        return [cell(row, col) for col in range(first, last)]

    # --- geometry --------------------------------------------------------------------
    def set_grid_size(self, width: int, height: int) -> None:
        self.grid_width, self.grid_height = width, height
        self._update_virtual_size()
        self.refresh()

    @property
    def zoom(self) -> Zoom:
        if self.zoom_choice is not None:
            return self.zoom_choice
        width, height = self.scrollable_content_region.size
        if width <= 0 or height <= 0:
            return Zoom.WIDE
        for zoom in (Zoom.HUGE, Zoom.LARGE, Zoom.WIDE, Zoom.NARROW):  # the largest that fits
            size = self._board_size(zoom)
            if size.width <= width and size.height <= height:
                return zoom
        if self.grid_width <= width and (self.grid_height + 1) // 2 <= height:
            return Zoom.HALF
        return Zoom.NARROW  # too big: scroll with glyphs visible (z reaches the whole board)

    @property
    def block(self) -> int:
        """Cells per block side in the whole-board zoom: the least that fits the view."""
        if self.zoom is not Zoom.WHOLE:
            return 1
        width, height = self.scrollable_content_region.size
        width, height = max(1, width), max(1, height)
        return max(1, -(-self.grid_width // width), -(-self.grid_height // (2 * height)))

    def cycle_zoom(self) -> Zoom:
        """Next zoom level after the current one; the last step returns to automatic."""
        current = self.zoom
        index = ZOOM_ORDER.index(current)
        self.zoom_choice = ZOOM_ORDER[(index + 1) % len(ZOOM_ORDER)]
        return self.zoom

    def watch_show_coords(self) -> None:
        self._update_virtual_size()
        self.scroll_to_focus()
        self.refresh()

    def watch_zoom_choice(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def on_resize(self) -> None:
        self._update_virtual_size()
        self.scroll_to_focus()

    def _framed(self, zoom: Zoom) -> bool:
        return self.FRAMED and zoom in GLYPH_ZOOMS

    def _decorated(self, zoom: Zoom) -> bool:
        """Glyph zooms with a frame or coordinates are drawn by `_decorated_line`."""
        return zoom in GLYPH_ZOOMS and (self.FRAMED or self.show_coords)

    def _origin(self, zoom: Zoom) -> tuple[int, int]:
        """Content (x, y) of cell (0, 0): after the row-number gutter, the ruler and the frame."""
        if not self._decorated(zoom):
            return 0, 0
        edge = 1 if self._framed(zoom) else 0
        gutter = len(str(self.grid_height)) + 1 if self.show_coords else 0
        return gutter + edge, (1 if self.show_coords else 0) + edge

    def _board_size(self, zoom: Zoom) -> Size:
        if self._decorated(zoom):
            x0, y0 = self._origin(zoom)
            edge = 1 if self._framed(zoom) else 0
            return Size(x0 + self.grid_width * zoom.cell_width + edge, y0 + self.grid_height * zoom.scale + edge)
        if zoom is Zoom.WHOLE:
            k = self.block
            columns, rows = -(-self.grid_width // k), -(-self.grid_height // k)
            return Size(columns, (rows + 1) // 2)
        lines = (self.grid_height + zoom.rows_per_line - 1) // zoom.rows_per_line
        return Size(self.grid_width * zoom.cell_width, lines * zoom.scale)

    def _update_virtual_size(self) -> None:
        self.virtual_size = self._board_size(self.zoom)

    def _margins(self, zoom: Zoom) -> tuple[int, int]:
        """Left and top margins that centre a board smaller than the view."""
        board = self._board_size(zoom)
        width, height = self.scrollable_content_region.size
        return max(0, (width - board.width) // 2), max(0, (height - board.height) // 2)

    def cell_region(self, pos: Pos) -> Region:
        zoom = self.zoom
        k = self.block
        x0, y0 = self._origin(zoom)
        return Region(x0 + pos.col // k * zoom.cell_width, y0 + pos.row // k // zoom.rows_per_line * zoom.scale, zoom.cell_width, zoom.scale)

    def is_visible(self, pos: Pos) -> bool:
        """Whether a cell is on screen now (a scrolled full-size board hides most of it)."""
        width, height = self.scrollable_content_region.size
        if width <= 0 or height <= 0:
            return True  # not laid out yet: nothing to point at
        scroll_x, scroll_y = self.scroll_offset
        return Region(scroll_x, scroll_y, width, height).overlaps(self.cell_region(pos))

    def scroll_to_focus(self) -> None:
        """Keep the focus cell in view with a margin of a quarter of the view on every side,
        so the player is never drawn against the edge or the scrollbar."""
        width, height = self.scrollable_content_region.size
        if self.focus_cell is not None and width > 0 and height > 0:  # not before layout
            across, down = max(2, width // 4), max(1, height // 4)
            self.scroll_to_region(self.cell_region(self.focus_cell).grow((down, across, down, across)), animate=False, force=True)

    def use(self, engine: Any, board: Any) -> None:
        """The rules and the board being played (a new board or round brings new ones)."""
        self.engine = engine
        self.board = board

    @property
    def marked(self) -> frozenset[tuple[int, int]]:
        return self.overlay.marked

    def show(self, state: Any, overlay: Overlay = NO_OVERLAY, focus: Pos | None = None) -> None:
        """Draw `state` with `overlay`, keeping `focus` on screen."""
        self.state = state
        self.overlay = overlay
        self.focus_cell = focus
        self.scroll_to_focus()
        self.refresh()

    def show_overlay(self, overlay: Overlay) -> None:
        """The same state with another overlay (a hint arrived, a selection moved)."""
        self.overlay = overlay
        self.refresh()

    # --- drawing ----------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._styles.clear()
        self._pair_styles.clear()
        super().notify_style_update()

    def style_of(self, kind: str) -> Style:
        style = self._styles.get(kind)
        if style is None:
            style = self.get_component_rich_style(f"board--{kind}", partial=True)
            self._styles[kind] = style
        return style

    def render_line(self, y: int) -> Strip:
        zoom = self.zoom
        scroll_x, scroll_y = self.scroll_offset
        margin_x, margin_y = self._margins(zoom)
        width = self.scrollable_content_region.width
        base = self.rich_style
        line = y + scroll_y - margin_y
        board_lines = self._board_size(zoom).height
        if line < 0 or line >= board_lines:
            return Strip.blank(width, base)
        if self._decorated(zoom):
            return self._decorated_line(line, board_lines, zoom, scroll_x, margin_x, width, base)
        first_col = max(0, scroll_x // zoom.cell_width)
        last_col = min(self.grid_width, (scroll_x + width) // zoom.cell_width + 1)
        if zoom is Zoom.WHOLE:
            segments = self._block_segments(line * 2, first_col, min(last_col, self._board_size(zoom).width))
        elif zoom is Zoom.HALF:
            segments = self._half_block_segments(line * 2, first_col, last_col)
        elif zoom.scale > 1:
            segments = self._scaled_segments(line // zoom.scale, line % zoom.scale, first_col, last_col, zoom.scale)
        else:
            segments = self._glyph_segments(line, first_col, last_col, zoom)
        left = [Segment(" " * margin_x, base)] if margin_x else []
        strip = Strip(left + segments).crop(scroll_x - first_col * zoom.cell_width, None)
        return strip.extend_cell_length(width, base).crop(0, width)

    def _decorated_line(self, line: int, lines: int, zoom: Zoom, scroll_x: int, margin_x: int, width: int, base: Style) -> Strip:
        """A glyph-zoom line with the optional column ruler, row numbers and frame; board
        column c starts at content x `x0 + c * cell width`."""
        cw = zoom.cell_width
        x0, y0 = self._origin(zoom)
        framed = self._framed(zoom)
        frame = self.style_of("frame")
        coords = self.style_of("coords")
        gutter = x0 - (1 if framed else 0)
        left = [Segment(" " * margin_x, base)] if margin_x else []
        scale = zoom.scale
        relative = line - y0
        row, sub = (relative // scale, relative % scale) if relative >= 0 else (-1, 0)
        if self.show_coords and line == 0:
            ruler = [" "] * (self.grid_width * cw)
            step = 5 if cw == 1 else 2 if cw == 2 else 1
            for col in range(0, self.grid_width, step):
                label = str(col + 1)
                at = col * cw
                if at + len(label) <= len(ruler):
                    ruler[at : at + len(label)] = label
            text = " " * x0 + "".join(ruler)
            return Strip(left + [Segment(text, coords)]).crop(scroll_x, None).extend_cell_length(width, base).crop(0, width)
        if framed and (relative == -1 or relative == self.grid_height * scale):
            corners = ("┌", "┐") if relative == -1 else ("└", "┘")
            border = corners[0] + "─" * (self.grid_width * cw) + corners[1]
            strip = Strip(left + [Segment(" " * gutter, base), Segment(border, frame)]).crop(scroll_x, None)
            return strip.extend_cell_length(width, base).crop(0, width)
        first_col = max(0, (scroll_x - x0) // cw)
        last_col = min(self.grid_width, (scroll_x + width) // cw + 1)
        if scale > 1:
            segments = self._scaled_segments(row, sub, first_col, last_col, scale)
        else:
            segments = self._glyph_segments(row, first_col, last_col, zoom)
        start = x0 + first_col * cw
        if first_col == 0:
            prefix: list[Segment] = []
            if gutter:
                number = f"{row + 1}" if sub == scale // 2 else ""
                prefix.append(Segment(f"{number:>{gutter - 1}} ", coords))
            if framed:
                prefix.append(Segment("│", frame))
            segments = prefix + segments
            start = 0
        if last_col == self.grid_width and framed:
            segments.append(Segment("│", frame))
        strip = Strip(left + segments).crop(max(0, scroll_x - start), None)
        return strip.extend_cell_length(width, base).crop(0, width)

    def _glyph_segments(self, row: int, first: int, last: int, zoom: Zoom) -> list[Segment]:
        segments: list[Segment] = []
        run_text: list[str] = []
        run_kind = None
        marked = self.marked
        for col, (glyph, kind) in enumerate(self.row_cells(row, first, last), first):
            if marked and (row, col) in marked:
                kind = "mark"
            text = glyph if zoom is Zoom.WIDE else glyph[0]
            if kind != run_kind and run_text:
                segments.append(Segment("".join(run_text), self.style_of(run_kind)))
                run_text = []
            run_kind = kind
            run_text.append(text)
        if run_text:
            segments.append(Segment("".join(run_text), self.style_of(run_kind)))
        return segments

    def _scaled_segments(self, row: int, sub: int, first: int, last: int, scale: int) -> list[Segment]:
        """One of `scale` terminal lines of a board row in a large zoom: each cell is a
        block of its kind's colours, its glyph in the middle (filling glyphs fill it)."""
        width = 2 * scale
        middle = sub == scale // 2
        pad = (width - 2) // 2
        marked = self.marked
        segments: list[Segment] = []
        for col, (glyph, kind) in enumerate(self.row_cells(row, first, last), first):
            if marked and (row, col) in marked:
                kind = "mark"
            if glyph[:1] in FILL_GLYPHS:
                text = glyph[0] * width
            elif middle:
                text = " " * pad + glyph + " " * (width - 2 - pad)
            else:
                text = " " * width
            segments.append(Segment(text, self.style_of(kind)))
        return list(Segment.simplify(segments))

    def _half_block_segments(self, top_row: int, first: int, last: int) -> list[Segment]:
        top = self._kinds(self.row_cells(top_row, first, last))
        bottom = self._kinds(self.row_cells(top_row + 1, first, last)) if top_row + 1 < self.grid_height else None
        return self._pair_segments(top, bottom)

    def _kinds(self, cells: list[tuple[str, str]]) -> list[str]:
        glyphs = self._glyph_of
        kinds = []
        for glyph, kind in cells:
            if kind not in glyphs:
                glyphs[kind] = glyph[:1] or " "
            kinds.append(kind)
        return kinds

    def _pair_segments(self, top: list[str], bottom: list[str] | None) -> list[Segment]:
        """Upper-half blocks: the top kind as foreground, the bottom one as background. A
        marker kind (the player, a ghost...) is drawn as its glyph instead, so it stays
        visible where colours are few or none (NO_COLOR, 16 colours)."""
        if self.app.no_color:
            return self._pair_glyphs(top, bottom)
        segments: list[Segment] = []
        styles = self._pair_styles
        markers = self.MARKERS
        for index, kind in enumerate(top):
            pair = (kind, bottom[index] if bottom is not None else None)
            if markers and (kind in markers or pair[1] in markers):
                marker = kind if kind in markers else pair[1]
                segments.append(Segment(markers[marker], self.style_of(marker)))
                continue
            style = styles.get(pair)
            if style is None:
                colour = self._fill_colour(kind)
                style = Style(color=colour, bgcolor=self._fill_colour(pair[1])) if pair[1] is not None else Style(color=colour)
                styles[pair] = style
            segments.append(Segment("▀", style))
        return list(Segment.simplify(segments))

    def _pair_glyphs(self, top: list[str], bottom: list[str] | None) -> list[Segment]:
        """Without colour a half block says nothing: each character shows the glyph of the
        more important of its two cells (a marker first, then by KINDS order), so walls,
        trails and players stay apart (NO_COLOR)."""
        markers = self.MARKERS
        rank = self._rank
        worst = len(rank)
        glyphs = self._glyph_of
        segments: list[Segment] = []
        for index, kind in enumerate(top):
            other = bottom[index] if bottom is not None else None
            if other is not None and (other in markers or (kind not in markers and rank.get(other, worst) < rank.get(kind, worst))):
                kind = other
            text = markers.get(kind) or glyphs.get(kind, "▀")
            segments.append(Segment(text, self.style_of(kind)))
        return list(Segment.simplify(segments))

    def _block_segments(self, top_line: int, first: int, last: int) -> list[Segment]:
        """Two rows of k x k blocks, each shown as the most important kind inside it."""
        k = self.block
        top = self._block_row(top_line, k, first, last)
        bottom_row = top_line + 1
        bottom = self._block_row(bottom_row, k, first, last) if bottom_row * k < self.grid_height else None
        return self._pair_segments(top, bottom)

    def _block_row(self, block_row: int, k: int, first: int, last: int) -> list[str]:
        kinds = self.KINDS
        rank = self._rank
        worst = len(kinds)
        best = [worst] * (last - first)
        start_col, end_col = first * k, min(self.grid_width, last * k)
        for row in range(block_row * k, min(self.grid_height, (block_row + 1) * k)):
            cells = self.row_cells(row, start_col, end_col)
            for offset, kind in enumerate(self._kinds(cells)):
                value = rank.get(kind, worst)
                index = offset // k
                if value < best[index]:
                    best[index] = value
        return [kinds[value] if value < worst else (kinds[-1] if kinds else "") for value in best]


    def _fill_colour(self, kind: str):
        style = self.style_of(kind)
        return style.bgcolor or style.color
