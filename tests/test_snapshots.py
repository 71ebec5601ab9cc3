"""SVG snapshots at fixed sizes; regenerate with `pytest tests/test_snapshots.py --snapshot-update`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import make_app


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def test_menu_80x24(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_ice_spiral_80x24(snap_compare) -> None:
    assert snap_compare(make_app("ice", "spiral"), terminal_size=(80, 24), press=["up", "right"])


def test_ice_picker_80x24(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), press=["down", "enter"])


def test_jimmy_80x24(snap_compare) -> None:
    assert snap_compare(make_app("jimmy", "seed-1"), terminal_size=(80, 24), press=["left"])


def test_ice_large_board_half_blocks_120x40(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:150x70:m3#seed5"), terminal_size=(120, 40), press=["z"])


def test_ice_300x300_whole_board_80x24(snap_compare) -> None:
    assert snap_compare(make_app("ice", "ice:300x300:m3#seed7"), terminal_size=(80, 24), press=["z", "z"])


def test_jimmy_half_blocks_no_color_80x24(snap_compare, monkeypatch) -> None:
    """Without colour the blocks still show Jimmy and the ghosts as glyphs (z skips half
    blocks there: from narrow cells it goes to the whole board)."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app("jimmy", "jimmy:40x40:g6:any#seed3"), terminal_size=(80, 24), press=["z"])


def test_jimmy_half_blocks_16_colours_80x24(snap_compare, monkeypatch) -> None:
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    assert snap_compare(make_app("jimmy", "jimmy:40x40:g6:any#seed3"), terminal_size=(80, 24), press=["z", "z"])


def test_ice_whole_board_no_color_80x24(snap_compare, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app("ice", "ice:300x300:m3#seed7"), terminal_size=(80, 24), press=["z"])


def _board_text(app) -> str:  # type: ignore[no-untyped-def]
    board = app.screen.query_one("#board")
    return "\n".join(board.render_line(y).text for y in range(board.size.height))


async def test_a_large_tron_board_stays_readable_without_colour(monkeypatch) -> None:
    """With NO_COLOR, trails and walls of gen-40x30-w10 in half blocks stay apart: each
    character shows the glyph of the more important of its two cells."""
    from tests.test_ui_tron import remember

    monkeypatch.setenv("NO_COLOR", "1")
    remember(Path(os.environ["TUI_GRID_DATA"]), players=["easy", "easy"], rounds=1)
    from tui_grid.ui.board_view import Zoom

    app = make_app("tron", "gen-40x30-w10")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        screen.view.zoom_choice = Zoom.HALF  # chosen: without colour it is not the first zoom
        for _ in range(200):
            await pilot.pause(0.05)
            if screen.shown.turn >= 6:
                break
        await pilot.press("space")
        text = _board_text(app)
        assert "▀" not in text
        assert text.count("█") > 100 and "░" in text and "▒" in text  # walls, red and green trails


async def test_the_whole_evasion_board_shows_its_walls_without_colour(monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("evasion", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()
        await pilot.press("j")  # a horizontal wall from the hunter
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.shown.walls:
                break
        await pilot.press("space")
        text = _board_text(app)
        assert "▀" not in text and "H" in text and "P" in text and text.count("█") >= 20


@pytest.mark.parametrize(("size", "zoom"), [((160, 50), "huge"), ((80, 24), "large"), ((80, 18), "wide")])
async def test_the_board_grows_with_the_terminal(size, zoom) -> None:
    """A small board uses the room it has: the largest zoom that fits is chosen, 3 rows a
    cell, 2, or 1."""
    app = make_app("ice", "spiral")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        view = app.screen.query_one("#board")
        assert view.zoom.value == zoom
        text = _board_text(app)
        assert "@" in text and "E" in text and "┌" in text  # the player, the exit, and the map's edge
        await pilot.press("z")
        assert view.zoom.value != zoom


async def test_the_player_shows_over_the_start_square_without_colour(monkeypatch) -> None:
    """With NO_COLOR in half blocks, a player in the half block above the start square
    shows as '@', never hidden by the 'S' (mahogany-gym at 80x24, one step up)."""
    from tui_grid.ui.board_view import Zoom

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("ice", "mahogany-gym")
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.view
        assert view.zoom is Zoom.NARROW  # without colour half blocks are never the first choice
        view.zoom_choice = Zoom.HALF
        await pilot.press("up")
        await pilot.pause()
        assert app.screen.state.moves == 1
        text = _board_text(app)
        assert text.count("@") == 1 and "S" not in text


async def test_zoom_skips_a_whole_board_that_is_half_blocks_and_coords_say_where_they_show() -> None:
    """On a small board z skips a whole-board zoom that would draw what half blocks draw
    (a press that changes nothing), and c says when numbers cannot show."""
    from tui_grid.ui.board_view import Zoom

    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        seen = []
        for _ in range(6):
            await pilot.press("z")
            seen.append(screen.view.zoom)
        assert Zoom.WHOLE not in seen and Zoom.HALF in seen and len(set(seen)) == 5
        while screen.view.zoom is not Zoom.HALF:
            await pilot.press("z")
        await pilot.press("c")
        assert "not in half blocks" in screen.message
        await pilot.press("z")
        await pilot.press("c", "c")
        assert screen.message == "Row and column numbers shown."


async def test_without_colour_z_never_picks_half_blocks(monkeypatch) -> None:
    """Without colour z never picks half blocks, as README says."""
    from tui_grid.ui.board_view import Zoom

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        seen = []
        for _ in range(8):
            await pilot.press("z")
            seen.append(app.screen.view.zoom)
        assert Zoom.HALF not in seen and {Zoom.HUGE, Zoom.LARGE, Zoom.WIDE, Zoom.NARROW} <= set(seen)
