"""The Ice hint over the map: the star at the end of a hinted slide, and the arrows on its
way, keep the tile under them in sight (the exit, rough ice, the start), with colour or
without; on plain ice the mark alone is drawn."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.ice.board import IceBoard, parse_ice
from tui_grid.games.ice.rules import IceState, slide_cells
from tui_grid.games.ice.view import ARROWS, IceBoardView, mark_over
from tui_grid.ui.board_view import Overlay, Zoom

#: From the start a slide right crosses ice and stops on the rough tile; from (1, 4) a slide
#: down stops on the exit.
MAP = "S   x\n     \n#   E\n"
TARGET = ("* ", "target")


def board() -> IceBoard:
    return parse_ice(parse_board_text(MAP))


def hint(state: IceState, direction: Direction) -> Overlay:
    """The marks the screen's hint draws for one slide: arrows on the way, a star at its end."""
    cells = slide_cells(board(), state.pos, direction)
    marks = {cell: (ARROWS[direction], "hint") for cell in cells[:-1]}
    marks[cells[-1]] = TARGET
    return Overlay(marks)


def view_of(state: IceState, overlay: Overlay) -> IceBoardView:
    view = IceBoardView()  # a view draws what it is given: no screen needed for its cells
    view.use(None, board())
    view.state = state
    view.overlay = overlay
    return view


def test_a_mark_keeps_a_meaningful_tile_and_replaces_plain_ice() -> None:
    assert mark_over(("  ", "ice"), TARGET) == TARGET
    assert mark_over(("E ", "end"), TARGET) == ("E*", "target")
    assert mark_over(("░░", "rough"), TARGET) == ("░*", "target")
    assert mark_over(("S ", "start"), (ARROWS[Direction.UP], "hint")) == ("S↑", "hint")


def test_the_star_on_rough_ice_and_on_the_exit_shows_both() -> None:
    start = IceState(Pos(0, 0))
    view = view_of(start, hint(start, Direction.RIGHT))
    assert view.row_cells(0, 0, 5) == [("@ ", "player"), ("→ ", "hint"), ("→ ", "hint"), ("→ ", "hint"), ("░*", "target")]
    assert view.cell(0, 4) == ("░*", "target")
    above_exit = IceState(Pos(1, 4), moves=1, distance=4)
    view = view_of(above_exit, hint(above_exit, Direction.DOWN))
    assert view.cell(2, 4) == view.row_cells(2, 0, 5)[4] == ("E*", "target")


def test_an_arrow_over_the_start_keeps_the_start() -> None:
    beside = IceState(Pos(0, 3), moves=1, distance=3)
    view = view_of(beside, Overlay({Pos(0, 1): (ARROWS[Direction.LEFT], "hint"), Pos(0, 0): TARGET}))
    assert view.row_cells(0, 0, 5)[:2] == [("S*", "target"), ("← ", "hint")]


class IceApp(App[None]):
    """Just the Ice map with a hint, as its screen shows it."""

    def __init__(self, state: IceState, overlay: Overlay) -> None:
        super().__init__()
        self.view = IceBoardView()
        self.state = state
        self.overlay = overlay

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        self.view.use(None, board())
        self.view.set_grid_size(5, 3)
        self.view.show(self.state, self.overlay)


@pytest.mark.parametrize(("zoom", "row"), [
    (Zoom.HUGE, "│  @     →     →     →   ░░░*░░│"),
    (Zoom.LARGE, "│ @   →   →   →  ░░*░│"),
    (Zoom.WIDE, "│@ → → → ░*│"),
    (Zoom.NARROW, "│@→→→░│"),
], ids=lambda value: value.name if isinstance(value, Zoom) else "")
async def test_without_colour_the_star_and_the_rough_tile_are_both_drawn(zoom: Zoom, row: str, monkeypatch) -> None:
    """Each zoom shows the rough tile's texture with the star in it (the cell's other lines
    stay rough); narrow cells have one character, the tile's (the star is then the cell's
    colour)."""
    monkeypatch.setenv("NO_COLOR", "1")
    start = IceState(Pos(0, 0))
    app = IceApp(start, hint(start, Direction.RIGHT))
    async with app.run_test(size=(60, 20)) as pilot:
        app.view.zoom_choice = zoom
        await pilot.pause()
        lines = [strip.text.strip() for strip in app.view.render_lines(app.view.region.reset_offset)]
        assert row in lines, (zoom, lines)
        top = next(index for index, line in enumerate(lines) if line.startswith("┌"))
        first_row = lines[top + 1 : top + 1 + zoom.scale]
        assert row in first_row and all(line.endswith("░" * 2 * zoom.scale + "│") for line in first_row if line != row), first_row
