"""A scrolling grid drawn line by line, shared by every game's screen.

Each game subclasses it, declares its cell kinds as component classes (colours live in
CSS) and answers `cell(row, col)` with a two-character glyph and a kind (or a whole row at
once with `row_cells`). The glyph keeps every cue readable without colour; half-block
zoom trades glyphs for an overview, and the whole-board zoom shows a k x k block of cells
per half block, the block's most important kind winning (KINDS lists kinds from the most
important down), so a 300x300 board fits 80x24.

Drawn lines are kept: a game that names what its rows show (`rows_key`) has a line drawn
again, and marked dirty for Textual, only when that changes, so a step of play costs the
few lines it touched rather than the whole view.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from itertools import groupby, repeat
from typing import Any, ClassVar, Mapping, NamedTuple

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
            Zoom.HALF: "half blocks (two rows of cells per line)",
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


class Frame(NamedTuple):
    """What every line of one repaint shares, measured once per repaint (the layout and
    the base style cost more than a cached line). `key` holds all of it that changes how a
    board line looks: when it changes, every cached line is dropped."""

    zoom: Zoom
    block: int
    scroll_x: int
    scroll_y: int
    margin_x: int
    margin_y: int
    width: int
    board_lines: int
    base: Style
    no_color: bool
    key: Hashable


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
    /* A scrollbar is drawn by colour alone: without colour only the partial blocks at the
       ends of its thumb are left, stray marks beside the board. The frame and the screen's
       pointer to a player off screen say where the view is. */
    BoardView:nocolor { scrollbar-size: 0 0; }
    BoardView > .board--mark { text-style: reverse bold; }
    BoardView > .board--coords { color: $text-muted; }
    BoardView > .board--frame { color: $text-muted; }
    """
    #: Kind names; each needs a component class `board--<kind>` styled in CSS.
    KINDS: ClassVar[tuple[str, ...]] = ()
    #: Draw a line frame around the board where its edge stops play (ice: a wall; evasion:
    #: the hunter bounces off it), so the player sees it: in the glyph zooms always, and in
    #: the half-block zooms without colour (with colour the floor's own colour shows it).
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
        #: (top kind, bottom kind) -> (character, style) of a half block.
        self._pair_styles: dict[tuple[str, str | None], tuple[str, Style]] = {}
        #: Board line -> (what it showed, its strip), valid while `_lines_frame` holds.
        self._lines: dict[int, tuple[Hashable, Strip]] = {}
        self._lines_frame: Hashable = None
        self._frame_now: Frame | None = None  # set while Textual renders a batch of lines
        #: Board lines drawn afresh (not from the cache) so far: tests bound work with it.
        self.lines_drawn = 0
        self._rank = {kind: index for index, kind in enumerate(self.KINDS)}
        #: Each kind's glyph (its first character), learnt while drawing: without colour,
        #: a half block shows the glyph of the more important of its two cells instead.
        self._glyph_of: dict[str, str] = dict(self.GLYPHS)
        #: (terminal and board size, the widest and tallest this view has been for them):
        #: what the automatic zoom is fitted to (see `_fit_size`).
        self._largest: tuple[Hashable, Size] = (None, Size(0, 0))

    # --- to implement ------------------------------------------------------------
    def cell(self, row: int, col: int) -> tuple[str, str]:
        """(two-character glyph, kind) for one cell of what is shown now."""
        raise NotImplementedError

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        """Cells `first..last-1` of a row; a game may override this to hand over a row at once."""
        cell = self.cell
        return [cell(row, col) for col in range(first, last)]

    def glyph_corner(self, row: int, col: int, kind: str) -> tuple[int, int]:
        """Where a cell's glyph sits in the zooms of several rows per cell, as (down,
        across), each -1 (top or left edge), 0 (the middle) or 1 (bottom or right edge).
        The middle by default; a game puts two glyphs that belong together (Evasion's
        hunter and its heading) toward each other, so they read as neighbours in every zoom."""
        return 0, 0

    def row_kinds(self, row: int, first: int, last: int) -> list[str]:
        """The kinds of cells `first..last-1` of a row, all the half-block zoom needs; a game
        that keeps its rows as kinds may answer without building cells (then each of its
        kinds needs a glyph in GLYPHS or MARKERS, as none is learnt)."""
        return self._kinds(self.row_cells(row, first, last))

    def rows_key(self, first: int, last: int) -> Hashable | None:
        """A hashable naming what board rows `first..last-1` show now (state and overlay),
        equal only when their cells are: a line whose key is unchanged is not drawn again.
        None, the default, draws every line on every repaint; a game whose rows are cheap to
        name (Evasion: the walls, marks and selection among them) makes a step cost only
        the lines it touched."""
        return None

    # --- geometry --------------------------------------------------------------------
    def set_grid_size(self, width: int, height: int) -> None:
        self.grid_width, self.grid_height = width, height
        self._update_virtual_size()
        self.refresh()

    @property
    def zoom(self) -> Zoom:
        return self._zoom_in(self.scrollable_content_region.size)

    def _zoom_in(self, view: Size) -> Zoom:
        """The zoom for a view of this size (the chosen one, else the largest that fits)."""
        if self.zoom_choice is not None:
            return self.zoom_choice
        return self._fitting_zoom(self._fit_size(view))

    def _fit_size(self, view: Size) -> Size:
        """The size the automatic zoom is fitted to: the widest and tallest this view has
        been at this terminal size for a board of this size. Lines the widgets around it
        take for a while (a round's longer verdict, the busy bar) then scroll the board by
        those lines instead of changing its zoom at every round's end and back."""
        key = (self.app.size, self.grid_width, self.grid_height)
        held_key, held = self._largest
        if held_key == key:
            view = Size(max(view.width, held.width), max(view.height, held.height))
        self._largest = (key, view)
        return view

    def _fitting_zoom(self, view: Size) -> Zoom:
        """The largest zoom whose board fits a view of this size."""
        width, height = view
        if width <= 0 or height <= 0:
            return Zoom.WIDE
        for zoom in (Zoom.HUGE, Zoom.LARGE, Zoom.WIDE, Zoom.NARROW):
            size = self._board_size(zoom)
            if size.width <= width and size.height <= height:
                return zoom
        # Half blocks by themselves only where colour tells a block's two cells apart: without
        # it a glyph cannot say which of its two rows it is on.
        half = self._board_size(Zoom.HALF)
        if half.width <= width and half.height <= height and not self.app.no_color:
            return Zoom.HALF
        return Zoom.NARROW  # too big: scroll with glyphs visible (z reaches the whole board)

    @property
    def block(self) -> int:
        """Cells per block side in the whole-board zoom: the least that fits the view."""
        view = self.scrollable_content_region.size
        return self._block_in(self._zoom_in(view), view)

    def _block_in(self, zoom: Zoom, view: Size) -> int:
        if zoom is not Zoom.WHOLE:
            return 1
        edges = 2 if self._framed(zoom) else 0
        width, height = max(1, view.width - edges), max(1, view.height - edges)
        return max(1, -(-self.grid_width // width), -(-self.grid_height // (2 * height)))

    def cycle_zoom(self) -> Zoom:
        """The next zoom level after the current one, round and round; the whole board is
        skipped where it would draw what half blocks draw (a board that fits in them, where
        that press would change nothing), and half blocks without colour."""
        view = self.scrollable_content_region.size
        index = ZOOM_ORDER.index(self.zoom)
        no_color = self.app.no_color
        for step in range(1, len(ZOOM_ORDER) + 1):
            zoom = ZOOM_ORDER[(index + step) % len(ZOOM_ORDER)]
            if zoom is Zoom.HALF and no_color:
                continue  # without colour a half block cannot say which of its rows a glyph is on
            if zoom is not Zoom.WHOLE or self._block_in(zoom, view) > 1:
                break
        self.zoom_choice = zoom
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
        """Whether this zoom draws the frame (see FRAMED)."""
        return self.FRAMED and (zoom in GLYPH_ZOOMS or self.app.no_color)

    def _coords(self, zoom: Zoom) -> bool:
        """Row and column numbers, in the zooms that draw one cell per glyph."""
        return self.show_coords and zoom in GLYPH_ZOOMS

    def _decorated(self, zoom: Zoom) -> bool:
        """Zooms with a frame or coordinates are drawn by `_decorated_line`."""
        return self._framed(zoom) or self._coords(zoom)

    def _origin(self, zoom: Zoom) -> tuple[int, int]:
        """Content (x, y) of cell (0, 0): after the row-number gutter, the ruler and the frame."""
        edge = 1 if self._framed(zoom) else 0
        if not self._coords(zoom):
            return edge, edge
        return len(str(self.grid_height)) + 1 + edge, 1 + edge

    def _columns(self, zoom: Zoom, block: int) -> int:
        """Board columns drawn: cells, or k x k blocks in the whole-board zoom."""
        return -(-self.grid_width // block) if zoom is Zoom.WHOLE else self.grid_width

    def _cells_size(self, zoom: Zoom, block: int) -> Size:
        """Columns and lines the cells alone take, without frame or coordinates."""
        rows = -(-self.grid_height // block) if zoom is Zoom.WHOLE else self.grid_height
        lines = -(-rows // zoom.rows_per_line)
        return Size(self._columns(zoom, block) * zoom.cell_width, lines * zoom.scale)

    def _board_size(self, zoom: Zoom, block: int | None = None) -> Size:
        k = (self.block if block is None else block) if zoom is Zoom.WHOLE else 1
        cells = self._cells_size(zoom, k)
        x0, y0 = self._origin(zoom)
        edge = 1 if self._framed(zoom) else 0
        return Size(x0 + cells.width + edge, y0 + cells.height + edge)

    def _update_virtual_size(self) -> None:
        self.virtual_size = self._board_size(self.zoom)

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
        """The rules and the board being played (a new board or round brings new ones): no
        cached line drawn from the old board survives."""
        self.engine = engine
        self.board = board
        self._lines.clear()

    @property
    def marked(self) -> frozenset[tuple[int, int]]:
        return self.overlay.marked

    def show(self, state: Any, overlay: Overlay = NO_OVERLAY, focus: Pos | None = None) -> None:
        """Draw `state` with `overlay`, keeping `focus` on screen."""
        self.state = state
        self.overlay = overlay
        self.focus_cell = focus
        self.scroll_to_focus()
        self.refresh_changed()

    def show_overlay(self, overlay: Overlay) -> None:
        """The same state with another overlay (a hint arrived, a selection moved)."""
        self.overlay = overlay
        self.refresh_changed()

    def refresh_changed(self) -> None:
        """Mark dirty only the lines on screen that now show something else, so Textual
        restyles and sends just those; all of them when the frame changed (zoom, size,
        scroll...) or the game cannot name its rows. The cache holds what is on screen:
        every line Textual drew went through it."""
        if not self.is_mounted or self._lines_frame is None:
            self.refresh()
            return
        frame = self.frame()
        if frame.key != self._lines_frame:
            self.refresh()
            return
        top = frame.scroll_y - frame.margin_y
        shown = range(max(0, top), min(frame.board_lines, top + self.size.height))  # all Textual draws
        changed = self._changed_lines(shown, frame)
        if changed is None:
            self.refresh()
            return
        for _, group in groupby(enumerate(changed), lambda pair: pair[1] - pair[0]):  # runs of lines
            run = [line for _, line in group]
            self.refresh_lines(run[0] + frame.margin_y, len(run))

    def _changed_lines(self, shown: range, frame: Frame) -> list[int] | None:
        """The board lines among `shown` whose key differs from the cached one, in order;
        None when a line has no key (all must be drawn)."""
        lines = self._lines
        changed = []
        for line in shown:
            key = self.line_key(line, frame)
            if key is None:
                return None
            cached = lines.get(line)
            if cached is None or cached[0] != key:
                changed.append(line)
        return changed

    # --- drawing ----------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._styles.clear()
        self._pair_styles.clear()
        self._lines.clear()
        super().notify_style_update()

    def style_of(self, kind: str) -> Style:
        style = self._styles.get(kind)
        if style is None:
            style = self.get_component_rich_style(f"board--{kind}", partial=True)
            self._styles[kind] = style
        return style

    def frame(self) -> Frame:
        """Measure what this repaint's lines share (see `Frame`)."""
        region = self.scrollable_content_region
        zoom = self._zoom_in(region.size)
        k = self._block_in(zoom, region.size)
        board = self._board_size(zoom, k)
        width, height = region.size
        scroll_x, scroll_y = self.scroll_offset
        margin_x, margin_y = max(0, (width - board.width) // 2), max(0, (height - board.height) // 2)
        base = self.rich_style
        no_color = self.app.no_color
        learnt = len(self._glyph_of) if no_color else 0  # glyphs learnt since show without colour
        key = (zoom, k, scroll_x, margin_x, width, base, no_color, self.show_coords, self.grid_width, self.grid_height, learnt)
        return Frame(zoom, k, scroll_x, scroll_y, margin_x, margin_y, width, board.height, base, no_color, key)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's repaint: measure the frame once for all its lines."""
        self._frame_now = self.frame()
        try:
            return super().render_lines(crop)
        finally:
            self._frame_now = None

    def render_line(self, y: int) -> Strip:
        frame = self._frame_now or self.frame()
        line = y + frame.scroll_y - frame.margin_y
        if line < 0 or line >= frame.board_lines:
            return Strip.blank(frame.width, frame.base)
        return self._cached_line(line, frame)

    def _cached_line(self, line: int, frame: Frame) -> Strip:
        """A board line from the cache while it shows the same rows in the same frame, else
        drawn afresh: a step in play redraws only the lines it changed."""
        if frame.key != self._lines_frame:
            self._lines.clear()
            self._lines_frame = frame.key
        key = self.line_key(line, frame)
        if key is not None:
            cached = self._lines.get(line)
            if cached is not None and cached[0] == key:
                return cached[1]
        strip = self._draw_line(line, frame)
        self.lines_drawn += 1
        if key is not None:
            self._lines[line] = (key, strip)
        return strip

    def line_rows(self, line: int, frame: Frame) -> range:
        """The board rows a board line draws (none for the ruler and the frame)."""
        zoom = frame.zoom
        relative = line - self._origin(zoom)[1]
        if relative < 0 or relative >= self._cells_size(zoom, frame.block).height:
            return range(0)
        if zoom is Zoom.WHOLE:
            top = relative * 2 * frame.block
            return range(top, min(self.grid_height, top + 2 * frame.block))
        if zoom is Zoom.HALF:
            return range(2 * relative, min(self.grid_height, 2 * relative + 2))
        row = relative // zoom.scale
        return range(row, row + 1)

    def line_key(self, line: int, frame: Frame) -> Hashable | None:
        """What a board line shows: its rows' key from the game and the marked cells among
        them (the board draws those itself); None when the game cannot say."""
        rows = self.line_rows(line, frame)
        if not rows:
            return ()
        shown = self.rows_key(rows.start, rows.stop)
        if shown is None:
            return None
        marked = self.marked
        return shown, tuple(sorted(cell for cell in marked if cell[0] in rows)) if marked else ()

    def _draw_line(self, line: int, frame: Frame) -> Strip:
        """One board line drawn from the cells, `line` counted from the board's top."""
        zoom, width, base = frame.zoom, frame.width, frame.base
        scroll_x, margin_x = frame.scroll_x, frame.margin_x
        if self._decorated(zoom):
            return self._decorated_line(line, frame)
        first_col = max(0, scroll_x // zoom.cell_width)
        last_col = min(self._columns(zoom, frame.block), (scroll_x + width) // zoom.cell_width + 1)
        segments = self._line_segments(line, first_col, last_col, frame)
        left = [Segment(" " * margin_x, base)] if margin_x else []
        strip = Strip(left + segments).crop(scroll_x - first_col * zoom.cell_width, None)
        return strip.extend_cell_length(width, base).crop(0, width)

    def _line_segments(self, relative: int, first_col: int, last_col: int, frame: Frame) -> list[Segment]:
        """Columns `first_col..last_col-1` of the cells' line `relative` (counted from the
        first line of cells, after the ruler and the frame)."""
        zoom = frame.zoom
        if zoom is Zoom.WHOLE:
            return self._block_segments(relative * 2, first_col, last_col, frame.block, frame.no_color)
        if zoom is Zoom.HALF:
            return self._half_block_segments(relative * 2, first_col, last_col, frame.no_color)
        if zoom.scale > 1:
            return self._scaled_segments(relative // zoom.scale, relative % zoom.scale, first_col, last_col, zoom.scale)
        return self._glyph_segments(relative, first_col, last_col, zoom)

    def _decorated_line(self, line: int, frame: Frame) -> Strip:
        """A line with the optional column ruler, row numbers and frame; board column c
        starts at content x `x0 + c * cell width`."""
        zoom, scroll_x, width, base = frame.zoom, frame.scroll_x, frame.width, frame.base
        cw, scale = zoom.cell_width, zoom.scale
        x0, y0 = self._origin(zoom)
        framed = self._framed(zoom)
        coords, edge = self.style_of("coords"), self.style_of("frame")
        gutter = x0 - (1 if framed else 0)
        left = [Segment(" " * frame.margin_x, base)] if frame.margin_x else []
        columns = self._columns(zoom, frame.block)
        relative = line - y0
        row, sub = (relative // scale, relative % scale) if relative >= 0 else (-1, 0)
        if self._coords(zoom) and line == 0:
            text = " " * x0 + self._ruler(cw)
            return Strip(left + [Segment(text, coords)]).crop(scroll_x, None).extend_cell_length(width, base).crop(0, width)
        if framed and (relative == -1 or relative == self._cells_size(zoom, frame.block).height):
            corners = ("┌", "┐") if relative == -1 else ("└", "┘")
            border = corners[0] + "─" * (columns * cw) + corners[1]
            strip = Strip(left + [Segment(" " * gutter, base), Segment(border, edge)]).crop(scroll_x, None)
            return strip.extend_cell_length(width, base).crop(0, width)
        first_col = max(0, (scroll_x - x0) // cw)
        last_col = min(columns, (scroll_x + width) // cw + 1)
        segments = self._line_segments(relative, first_col, last_col, frame)
        start = x0 + first_col * cw
        if first_col == 0:
            prefix: list[Segment] = []
            if gutter:
                number = f"{row + 1}" if sub == scale // 2 else ""
                prefix.append(Segment(f"{number:>{gutter - 1}} ", coords))
            if framed:
                prefix.append(Segment("│", edge))
            segments = prefix + segments
            start = 0
        if last_col == columns and framed:
            segments.append(Segment("│", edge))
        strip = Strip(left + segments).crop(max(0, scroll_x - start), None)
        return strip.extend_cell_length(width, base).crop(0, width)

    def _ruler(self, cw: int) -> str:
        """The column numbers above the cells: every fifth narrow cell, every second wide
        one, every large one."""
        ruler = [" "] * (self.grid_width * cw)
        step = 5 if cw == 1 else 2 if cw == 2 else 1
        for col in range(0, self.grid_width, step):
            label = str(col + 1)
            at = col * cw
            if at + len(label) <= len(ruler):
                ruler[at : at + len(label)] = label
        return "".join(ruler)

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
        block of its kind's colours, its glyph where `glyph_corner` puts it (the middle,
        unless the game says otherwise). A glyph that starts with a filling character fills
        the cell with it, so walls stay solid and a mark after it ("░*") still shows."""
        marked = self.marked
        segments: list[Segment] = []
        for col, (glyph, kind) in enumerate(self.row_cells(row, first, last), first):
            pad = glyph[0] if glyph[:1] in FILL_GLYPHS else " "
            text = _placed(glyph, self.glyph_corner(row, col, kind), sub, scale, pad)
            if marked and (row, col) in marked:
                kind = "mark"
            segments.append(Segment(text, self.style_of(kind)))
        return list(Segment.simplify(segments))

    def _half_block_segments(self, top_row: int, first: int, last: int, no_color: bool) -> list[Segment]:
        top = self.row_kinds(top_row, first, last)
        bottom = self.row_kinds(top_row + 1, first, last) if top_row + 1 < self.grid_height else None
        return self._pair_segments(top, bottom, no_color)

    def _kinds(self, cells: list[tuple[str, str]]) -> list[str]:
        """The cells' kinds, learning the glyph of each kind seen for the first time."""
        kinds = [kind for _, kind in cells]
        glyphs = self._glyph_of
        for kind in set(kinds).difference(glyphs):
            glyphs[kind] = cells[kinds.index(kind)][0][:1] or " "
        return kinds

    @staticmethod
    def _pairs(top: list[str], bottom: list[str] | None) -> Iterable[tuple[str, str | None]]:
        return zip(top, bottom if bottom is not None else repeat(None))

    def _pair_segments(self, top: list[str], bottom: list[str] | None, no_color: bool) -> list[Segment]:
        """Upper-half blocks: the top kind as foreground, the bottom one as background. A
        marker kind (the player, a ghost...) is drawn as its glyph instead, so it stays
        visible where colours are few or none (NO_COLOR, 16 colours). One segment per run
        of equal pairs: a line of floor is one segment, not a segment per cell."""
        if no_color:
            return self._pair_glyphs(top, bottom)
        looks = self._pair_styles
        segments: list[Segment] = []
        for pair, run in groupby(self._pairs(top, bottom)):
            look = looks.get(pair)
            if look is None:
                look = looks[pair] = self._pair_look(pair)
            segments.append(Segment(look[0] * len(list(run)), look[1]))
        return list(Segment.simplify(segments))

    def _pair_look(self, pair: tuple[str, str | None]) -> tuple[str, Style]:
        """The character and style of a half block showing these two kinds."""
        kind, other = pair
        markers = self.MARKERS
        if kind in markers or other in markers:
            marker = self._shown_of_pair(kind, other)
            return markers[marker], self.style_of(marker)
        colour = self._fill_colour(kind)
        return "▀", Style(color=colour, bgcolor=self._fill_colour(other)) if other is not None else Style(color=colour)

    def _pair_glyphs(self, top: list[str], bottom: list[str] | None) -> list[Segment]:
        """Without colour a half block says nothing: each character shows the glyph of the
        more important of its two cells (a marker first, then by KINDS order), so walls,
        trails and players stay apart (NO_COLOR)."""
        markers = self.MARKERS
        glyphs = self._glyph_of
        segments: list[Segment] = []
        for (kind, other), run in groupby(self._pairs(top, bottom)):
            kind = self._shown_of_pair(kind, other)
            text = markers.get(kind) or glyphs.get(kind, "▀")
            segments.append(Segment(text * len(list(run)), self.style_of(kind)))
        return list(Segment.simplify(segments))

    def _shown_of_pair(self, kind: str, other: str | None) -> str:
        """Which of a half block's two kinds it shows as a glyph: a marker before anything
        else, then the more important by KINDS order (the player over the start square it
        left, so an '@' never vanishes under the 'S' below it)."""
        if other is None:
            return kind
        markers = self.MARKERS
        if (kind in markers) != (other in markers):
            return kind if kind in markers else other
        rank, worst = self._rank, len(self._rank)
        return other if rank.get(other, worst) < rank.get(kind, worst) else kind

    def _block_segments(self, top_line: int, first: int, last: int, k: int, no_color: bool) -> list[Segment]:
        """Two rows of k x k blocks, each shown as the most important kind inside it."""
        top = self._block_row(top_line, k, first, last)
        bottom_row = top_line + 1
        bottom = self._block_row(bottom_row, k, first, last) if bottom_row * k < self.grid_height else None
        return self._pair_segments(top, bottom, no_color)

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


def _placed(glyph: str, corner: tuple[int, int], sub: int, scale: int, pad: str = " ") -> str:
    """Line `sub` of a cell `scale` lines high and `2 * scale` columns wide with its
    two-character glyph toward `corner` (down, across): on the cell's top, middle or bottom
    line, at its left edge, centre or right edge; `pad` around it and on its other lines."""
    width = 2 * scale
    down, across = corner
    if sub != {-1: 0, 0: scale // 2, 1: scale - 1}[down]:
        return pad * width
    at = {-1: 0, 0: (width - 2) // 2, 1: width - 2}[across]
    return pad * at + glyph + pad * (width - 2 - at)
