"""Keymaps: one per game, no collisions, and every key in a key bar does what it says."""

from __future__ import annotations

import pytest

from tests.conftest import make_app, status, wait_idle
from tui_grid.games.registry import all_games
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.help_screen import HelpScreen, key_rows
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.menu import MenuScreen


def screens() -> list[type[GameScreen]]:
    return [game.screen_class() for game in all_games()]


@pytest.mark.parametrize("screen", screens(), ids=lambda s: s.__name__)
def test_no_key_is_bound_to_two_actions(screen) -> None:
    assert screen.KEYMAP.collisions() == []


@pytest.mark.parametrize("screen", screens(), ids=lambda s: s.__name__)
def test_help_lists_every_key_of_the_keymap(screen) -> None:
    rows = key_rows(screen.KEYMAP)
    described = {what for _, what in rows}
    assert {key.help for key in screen.KEYMAP.keys} == described


def test_a_keys_display_speaks_for_its_group_in_the_help() -> None:
    from tui_grid.games.evasion.screen import EvasionScreen

    (row,) = [keys for keys, what in key_rows(EvasionScreen.KEYMAP) if what.startswith("prey: move")]
    assert row == "wer/sdf/xcv"  # not followed by each of the group's 24 keys


async def test_every_key_in_the_ice_key_bar_does_what_it_says(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path))
    app = make_app("ice", "spiral", speed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        shown = {label for _, label in screen.query_one(KeyBar).items}
        assert shown == {"Move", "Undo", "Redo", "Restart", "New", "Hint", "Solve", "Watch", "Help", "Back", "Quit"}
        await pilot.press("up")
        assert screen.state.moves == 1  # Move
        await pilot.press("u")
        assert screen.state.moves == 0  # Undo
        await pilot.press("y")
        assert screen.state.moves == 1  # Redo
        await pilot.press("r")
        assert screen.state.moves == 0  # Restart
        await pilot.press("h")
        await wait_idle(pilot)
        assert screen.hint is not None  # Hint
        await pilot.press("s")
        await wait_idle(pilot)
        assert "Solved in 6 moves" in status(app)  # Solve
        await pilot.press("u", "w")
        await wait_idle(pilot)
        assert screen.watching or screen.state.moves > 0  # Watch
        await pilot.press("w")
        assert not screen.watching
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)  # Help
        await pilot.press("escape")
        await pilot.press("n")
        assert type(app.screen).__name__ == "NewBoardDialog"  # New
        await pilot.press("escape")
        await pilot.press("escape")
        assert type(app.screen).__name__ == "BoardPickerScreen"  # Back
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")  # Quit
        await pilot.pause()
    assert not app.is_running


async def test_ctrl_c_quits_a_game() -> None:
    app = make_app("jimmy", "seed-3")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert not app.is_running


async def test_escape_on_the_menu_does_not_quit() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, MenuScreen)
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_a_too_small_terminal_gets_a_notice_until_it_grows() -> None:
    from tui_grid.ui.too_small import TooSmallScreen

    app = make_app("ice", "spiral")
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_keys_typed_after_q_do_nothing() -> None:
    """In a real terminal, keys typed right after q arrive while the app closes, where `n`
    would open a dialog on a closing app and crash it. Once quitting, game keys do nothing."""
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        app.quitting = True  # as exit_saving leaves it, before the app has closed
        await pilot.press("n", "up")
        assert app.screen is screen and screen.state.moves == 0
