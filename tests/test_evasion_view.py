"""The Evasion arena as a terminal shows it, read as text: a frame gives the arena's edge a
glyph (without colour the floor is blank, so colour alone cannot mark the edge), nothing
but the frame and the cells is drawn in the view (no scrollbar's partial blocks), and the
hunter's heading arrow is drawn next to H in every glyph zoom, in the direction it moves."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tests.conftest import make_app, wait_idle
from tui_grid.games.evasion.engine import EvasionEngine, State
from tui_grid.games.evasion.rules import Config
from tui_grid.games.evasion.view import HEADING, EvasionBoardView
from tui_grid.ui.board_view import GLYPH_ZOOMS, Zoom

WIDTH, HEIGHT = 12, 8
ENGINE = EvasionEngine(Config(width=WIDTH, height=HEIGHT, prey_start=(10, 6)))
FRAME = set("┌┐└┘─│")
CELL_GLYPHS = {" ", "H", "P", "█", "▒", "·", *(arrow[0] for arrow in HEADING.values())}


class ArenaApp(App[None]):
    """Just the Evasion board, as its screen shows it."""

    def __init__(self, state: State) -> None:
        super().__init__()
        self.view = EvasionBoardView()
        self.state = state

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        self.view.use(ENGINE, None)
        self.view.set_grid_size(WIDTH, HEIGHT)
        self.view.show(self.state)


def screen_lines(app: App[None]) -> list[str]:
    """The terminal's lines as the compositor draws them: the view with whatever Textual
    adds around it (scrollbars), as a terminal would show them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def view_lines(app: App[None], view: EvasionBoardView) -> list[str]:
    """The part of the screen the view covers, scrollbars included."""
    region = view.region
    return [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]


def find(lines: list[str], char: str) -> tuple[int, int]:
    """(line, column) of the only `char` drawn."""
    found = [(y, x) for y, line in enumerate(lines) for x, ch in enumerate(line) if ch == char]
    assert len(found) == 1, (char, found, lines)
    return found[0]


@pytest.mark.parametrize("zoom", list(Zoom))
async def test_without_colour_the_arena_has_a_frame_and_nothing_else_is_drawn(zoom: Zoom, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    wall = (2, 1, 2, 5)  # a vertical wall: it fills its cells, the frame goes round them all
    state = ENGINE.make_state(hunter=(5, 3), hunter_velocity=(1, 1), prey=(10, 6), walls=[wall])
    app = ArenaApp(state)
    async with app.run_test(size=(100, 40)) as pilot:
        view = app.view
        view.zoom_choice = zoom
        await pilot.pause()
        lines = view_lines(app, view)
        top, left = find(lines, "┌")
        cells = view._board_size(zoom) - (2, 2)  # the cells alone, inside the frame
        bottom, right = top + cells.height + 1, left + cells.width + 1
        assert lines[top][left : right + 1] == "┌" + "─" * cells.width + "┐"
        assert lines[bottom][left : right + 1] == "└" + "─" * cells.width + "┘"
        for y, line in enumerate(lines):
            for x, char in enumerate(line):
                inside = top < y < bottom and left < x < right
                on_frame = y in (top, bottom) and left <= x <= right or x in (left, right) and top <= y <= bottom
                if inside:
                    assert char in CELL_GLYPHS, (zoom, y, x, char)
                elif on_frame:
                    assert char in FRAME, (zoom, y, x, char)
                else:
                    assert char == " ", (zoom, y, x, char)  # no scrollbar, no stray glyph
        assert "H" in "".join(lines) and "P" in "".join(lines)


@pytest.mark.parametrize("zoom", GLYPH_ZOOMS)
@pytest.mark.parametrize("velocity", sorted(HEADING), ids=lambda velocity: HEADING[velocity].strip())
async def test_the_heading_arrow_is_next_to_h_in_the_direction_it_moves(zoom: Zoom, velocity: tuple[int, int], monkeypatch) -> None:
    """As in wide cells (the arrow starts the next cell's two columns), whatever the cell's
    size: in the zooms of several rows per cell H and the arrow sit in the corners that
    touch, not each in the middle of its cell a cell's height apart."""
    monkeypatch.setenv("NO_COLOR", "1")
    state = ENGINE.make_state(hunter=(5, 3), hunter_velocity=velocity, prey=(10, 6))
    app = ArenaApp(state)
    async with app.run_test(size=(100, 40)) as pilot:
        app.view.zoom_choice = zoom
        await pilot.pause()
        lines = view_lines(app, app.view)
        hunter = find(lines, "H")
        arrow = find(lines, HEADING[velocity][0])
        vx, vy = velocity
        across = vx * (1 if zoom is Zoom.NARROW else 2)
        assert arrow == (hunter[0] + vy, hunter[1] + across), (zoom, velocity, lines)


async def test_a_hunter_at_the_edge_moving_off_the_board_keeps_h_in_its_cell() -> None:
    """No heading cell to point at (it would be off the board): H in the middle, no arrow."""
    state = ENGINE.make_state(hunter=(0, 0), hunter_velocity=(-1, -1), prey=(10, 6))
    app = ArenaApp(state)
    async with app.run_test(size=(100, 40)) as pilot:
        app.view.zoom_choice = Zoom.HUGE
        await pilot.pause()
        text = "".join(view_lines(app, app.view))
        assert "H" in text and not set(HEADING[(-1, -1)]) & set(text) - {" "}
        assert app.view.glyph_corner(0, 0, "hunter") == (0, 0)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_full_size_board_without_colour_draws_only_its_frame_and_cells(size: tuple[int, int], monkeypatch) -> None:
    """The 300x300 board in play, in every zoom z reaches: scrolled, it shows the frame's
    edge it is near and the cells, and no scrollbar (it is drawn by colour alone: without
    colour only the partial blocks at its thumb's ends would show)."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        await wait_idle(pilot)
        view = app.screen.view
        seen = set()
        for _ in range(5):
            await pilot.press("z")
            await pilot.pause()
            seen.add(view.zoom)
            lines = view_lines(app, view)
            drawn = {char for line in lines for char in line}
            assert drawn <= CELL_GLYPHS | FRAME, (view.zoom, drawn - CELL_GLYPHS - FRAME)
            assert "H" in drawn  # the view follows the human's hunter
            assert "┌" in drawn or view.zoom is not Zoom.WHOLE  # the whole board shows its whole frame
            assert view.size == view.scrollable_content_region.size  # no room kept for scrollbars
        assert seen == {*GLYPH_ZOOMS, Zoom.WHOLE}
