"""A scrolling grid drawn line by line, shared by every game's screen.

Each game subclasses it, declares its cell kinds as component classes (colours live in
CSS) and answers `cell(row, col)` with a two-character glyph and a kind. The glyph keeps
every cue readable without colour; half-block zoom trades glyphs for an overview.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui_grid.core.geometry import Pos


class Zoom(Enum):
    """How many terminal columns and rows one board cell takes."""

    WIDE = "wide"  # 2 columns x 1 row, full glyphs
    NARROW = "narrow"  # 1 column x 1 row, first glyph character
    HALF = "half"  # 1 column x half a row, colour only

    @property
    def cell_width(self) -> int:
        return 2 if self is Zoom.WIDE else 1

    @property
    def rows_per_line(self) -> int:
        return 2 if self is Zoom.HALF else 1


ZOOM_ORDER = (Zoom.WIDE, Zoom.NARROW, Zoom.HALF)


class BoardView(ScrollView, can_focus=False):
    """Subclasses set KINDS and COMPONENT_CLASSES and implement `cell`."""

    DEFAULT_CSS = """
    BoardView {
        height: 1fr;
        width: 1fr;
        scrollbar-size: 1 1;
    }
    """
    #: Kind names; each needs a component class `board--<kind>` styled in CSS.
    KINDS: ClassVar[tuple[str, ...]] = ()

    zoom_choice: reactive[Zoom | None] = reactive(None)  # None picks the largest zoom that fits

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.grid_width = 1
        self.grid_height = 1
        self.focus_cell: Pos | None = None
        self._styles: dict[str, Style] = {}

    # --- to implement ------------------------------------------------------------
    def cell(self, row: int, col: int) -> tuple[str, str]:
        """(two-character glyph, kind) for one cell of what is shown now."""
        raise NotImplementedError

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
        for zoom in (Zoom.WIDE, Zoom.NARROW):
            if self.grid_width * zoom.cell_width <= width and self.grid_height <= height:
                return zoom
        if self.grid_width <= width and (self.grid_height + 1) // 2 <= height:
            return Zoom.HALF
        return Zoom.NARROW  # too big for any zoom: scroll with glyphs visible

    def cycle_zoom(self) -> Zoom:
        """Next zoom level after the current one; the last step returns to automatic."""
        current = self.zoom
        index = ZOOM_ORDER.index(current)
        self.zoom_choice = ZOOM_ORDER[(index + 1) % len(ZOOM_ORDER)]
        return self.zoom

    def watch_zoom_choice(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def on_resize(self) -> None:
        self._update_virtual_size()
        self.scroll_to_focus()

    def _board_size(self, zoom: Zoom) -> Size:
        lines = (self.grid_height + zoom.rows_per_line - 1) // zoom.rows_per_line
        return Size(self.grid_width * zoom.cell_width, lines)

    def _update_virtual_size(self) -> None:
        self.virtual_size = self._board_size(self.zoom)

    def _margins(self, zoom: Zoom) -> tuple[int, int]:
        """Left and top margins that centre a board smaller than the view."""
        board = self._board_size(zoom)
        width, height = self.scrollable_content_region.size
        return max(0, (width - board.width) // 2), max(0, (height - board.height) // 2)

    def cell_region(self, pos: Pos) -> Region:
        zoom = self.zoom
        return Region(pos.col * zoom.cell_width, pos.row // zoom.rows_per_line, zoom.cell_width, 1)

    def scroll_to_focus(self) -> None:
        if self.focus_cell is not None:
            self.scroll_to_region(self.cell_region(self.focus_cell).grow((2, 4, 2, 4)), animate=False, force=True)

    def show(self, focus: Pos | None = None) -> None:
        """Redraw after the game state changed, keeping `focus` on screen."""
        self.focus_cell = focus
        self.scroll_to_focus()
        self.refresh()

    # --- drawing ----------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._styles.clear()
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
        first_col = max(0, scroll_x // zoom.cell_width)
        last_col = min(self.grid_width, (scroll_x + width) // zoom.cell_width + 1)
        if zoom is Zoom.HALF:
            segments = self._half_block_segments(line * 2, first_col, last_col)
        else:
            segments = self._glyph_segments(line, first_col, last_col, zoom)
        left = [Segment(" " * margin_x, base)] if margin_x else []
        strip = Strip(left + segments).crop(scroll_x - first_col * zoom.cell_width, None)
        return strip.extend_cell_length(width, base).crop(0, width)

    def _glyph_segments(self, row: int, first: int, last: int, zoom: Zoom) -> list[Segment]:
        segments: list[Segment] = []
        run_text: list[str] = []
        run_kind = None
        for col in range(first, last):
            glyph, kind = self.cell(row, col)
            text = glyph if zoom is Zoom.WIDE else glyph[0]
            if kind != run_kind and run_text:
                segments.append(Segment("".join(run_text), self.style_of(run_kind)))
                run_text = []
            run_kind = kind
            run_text.append(text)
        if run_text:
            segments.append(Segment("".join(run_text), self.style_of(run_kind)))
        return segments

    def _half_block_segments(self, top_row: int, first: int, last: int) -> list[Segment]:
        segments: list[Segment] = []
        for col in range(first, last):
            top = self._fill_colour(self.cell(top_row, col)[1])
            if top_row + 1 < self.grid_height:
                bottom = self._fill_colour(self.cell(top_row + 1, col)[1])
                segments.append(Segment("▀", Style(color=top, bgcolor=bottom)))
            else:
                segments.append(Segment("▀", Style(color=top)))
        return segments

    def _fill_colour(self, kind: str):
        style = self.style_of(kind)
        return style.bgcolor or style.color
