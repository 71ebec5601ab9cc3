"""Behaviour of the shared shell: menu, board picker, keys, help, dialogs, workers."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from textual.widgets import Input, OptionList

from tests.conftest import make_app, settle, status
from tui_grid.games.ice.screen import IceScreen
from tui_grid.games.registry import Generated, all_games, get_game
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.help_screen import HelpScreen
from tui_grid.ui.menu import BoardPickerScreen, MenuScreen
from tui_grid.ui.new_board import NewBoardDialog


async def test_menu_to_picker_to_game_and_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        games = app.screen.query_one("#games", OptionList)
        keys = [games.get_option_at_index(i).id for i in range(games.option_count)]
        assert keys[:2] == ["jimmy", "ice"]
        await pilot.press("down", "enter")
        assert isinstance(app.screen, BoardPickerScreen) and app.screen.game.key == "ice"
        preview = str(app.screen.query_one("#preview").content)
        assert "Covering all tiles" in preview and "E#xxx" in preview
        assert "route:" not in preview  # answers stay hidden until asked
        await pilot.press("enter")
        assert isinstance(app.screen, IceScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_the_board_list_widens_on_a_wide_terminal_so_titles_are_whole() -> None:
    from tui_grid.games.registry import get_game

    title = "Undertale, ice tic-tac-toe puzzle (edited)"
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        app.push_screen(BoardPickerScreen(get_game("ice")))
        await pilot.pause()
        boards = app.screen.query_one("#boards", OptionList)
        prompts = [str(boards.get_option_at_index(i).prompt) for i in range(boards.option_count)]
        assert title in prompts and boards.outer_size.width == 48
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        prompts = [str(boards.get_option_at_index(i).prompt) for i in range(boards.option_count)]
        assert boards.outer_size.width == 34 and title not in prompts and max(map(len, prompts)) <= 30
        assert any(prompt.startswith("Undertale, ice") and prompt.endswith("…") for prompt in prompts)


async def test_help_screen_shows_rules_and_every_key() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.source
        for needle in ("obstacle", "rough tile", "undo", "redo", "restart", "hint", "solve", "watch", "quit"):
            assert needle in text
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert text.splitlines()[0].lstrip("# ") in shown and "esc closes" in shown  # the rules' title on screen
        await pilot.press("end")
        await pilot.pause()
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "this help" in shown and "quit" in shown  # scrolled to the last keys
        await pilot.press("escape")
        assert isinstance(app.screen, IceScreen)


async def test_new_board_dialog_makes_a_reproducible_board() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewBoardDialog)
        dialog.query_one("#field-id").value = "ice:14x10:m6#seed42"
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, IceScreen)
        assert screen.loaded.game_id == "ice:14x10:m6#seed42"
        assert "ice:14x10:m6#seed42" in str(screen.query_one("#title").content)
        assert (screen.board.width, screen.board.height) == (14, 10)


NEW_BOARD_GAMES = [game.key for game in all_games() if isinstance(game, Generated)]


@pytest.mark.parametrize("key", NEW_BOARD_GAMES)
async def test_the_new_board_dialog_opens_for_every_game_with_its_first_field_focused(key: str) -> None:
    app = make_app(key)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        assert isinstance(picker, BoardPickerScreen)
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewBoardDialog)
        assert app.focused is dialog.query(Input).first()
        await pilot.press("escape")
        assert app.screen is picker


async def test_a_new_board_dialog_closed_before_it_is_mounted_is_no_error() -> None:
    app = make_app("ice")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        app.push_screen(NewBoardDialog(get_game("ice")))
        app.pop_screen()  # before the dialog's mount ran: its fields are gone
        await pilot.pause()
        assert app.screen is picker


async def test_a_game_without_options_still_focuses_the_seed() -> None:
    bare = SimpleNamespace(key="ice", title="Ice", options=())
    app = make_app("ice")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(NewBoardDialog(bare))  # type: ignore[arg-type]
        await pilot.pause()
        assert app.focused is app.screen.query_one("#field-seed")


async def test_new_board_dialog_reports_bad_values_inline() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        app.screen.query_one("#field-size").value = "huge"
        await pilot.press("enter")
        assert isinstance(app.screen, NewBoardDialog)
        assert "size" in str(app.screen.query_one("#error").content)
        await pilot.press("escape")
        assert isinstance(app.screen, IceScreen)


@pytest.mark.parametrize(("size", "words"), [("1x1", "too small"), ("3x", "expected WxH"), ("5000x5000", "cells")])
async def test_an_impossible_size_is_refused_inline_and_the_error_clears(size: str, words: str) -> None:
    """Every size the dialog refuses (1x1, 3x, 5000x5000) is refused inline, the dialog
    stays open, and fixing the field clears the error."""
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = app.screen
        field = dialog.query_one("#field-size")
        field.value = size
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and words in str(dialog.query_one("#error").content)
        field.focus()
        await pilot.press("backspace")
        await pilot.pause()
        assert str(dialog.query_one("#error").content) == ""


async def test_enter_on_a_closed_dropdown_confirms_the_dialog() -> None:
    """Enter on a closed dropdown makes the board, rather than opening the list again."""
    from textual.widgets import Select

    app = make_app("jimmy", "seed-1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = app.screen
        dialog.query_one("#field-size").value = "7x7"
        select = dialog.query_one("#field-escape", Select)
        select.focus()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is not dialog and app.screen.loaded.game_id.startswith("jimmy:7x7:")


async def test_an_open_dropdown_still_takes_enter_to_choose() -> None:
    from textual.widgets import Select

    app = make_app("jimmy", "seed-1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = app.screen
        select = dialog.query_one("#field-escape", Select)
        select.focus()
        select.expanded = True
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen is dialog and not select.expanded and select.value != "any"


async def test_escape_cancels_a_slow_solve_and_the_ui_stays_responsive() -> None:
    app = make_app("ice", "spiral")
    started = threading.Event()

    def slow_plan(engine, state, seat, control):
        started.set()
        while True:  # a solver that never ends unless cancelled
            control.tick()

    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        screen.table.planner = slow_plan
        await pilot.press("s")
        started.wait(5)
        await pilot.pause(0.1)
        assert screen.solving
        assert screen.query_one("#busy").has_class("-active")
        await pilot.press("right")  # keys still work while it runs; a move cancels the solve
        assert not screen.solving
        await pilot.press("s")
        await pilot.press("escape")
        assert not screen.solving and isinstance(app.screen, IceScreen)
        await settle(pilot)


async def test_a_crashing_solver_shows_a_notification_not_a_traceback() -> None:
    app = make_app("ice", "spiral")

    def broken(engine, state, seat, control):
        raise RuntimeError("boom")

    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        screen.table.planner = broken
        await pilot.press("s")
        await settle(pilot)
        assert any("boom" in n.message for n in app._notifications)
        assert app.is_running and screen.state.moves == 0


async def test_speed_keys_change_the_shared_setting() -> None:
    app = make_app("ice", "spiral", speed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("plus", "plus", "minus")
        assert app.settings.speed == 6
        assert "speed 6" in status(app)


async def test_zoom_cycles_and_the_layout_survives_resizes() -> None:
    app = make_app("ice", "mahogany-gym")
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.view
        first = view.zoom
        await pilot.press("z")
        assert view.zoom != first
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert app.screen.view.size.width > 100


async def test_a_game_opened_from_the_command_line_makes_its_picker_only_when_left(tmp_path, monkeypatch) -> None:
    """`tui-grid play ice spiral` opens the game over the menu alone (a picker composed and
    never seen would cost a third of the start); esc still leads to the boards, then the menu."""
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path))
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        assert [type(screen) for screen in app.screen_stack[-2:]] == [MenuScreen, IceScreen]
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen) and app.screen.game.key == "ice"
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_a_board_that_cannot_open_from_the_command_line_leaves_its_picker(monkeypatch) -> None:
    from tui_grid.core.errors import UsageError
    from tui_grid.games.registry import get_game

    game = get_game("ice")

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise UsageError("no room for it")

    monkeypatch.setattr(type(game), "screen_class", lambda self: refuse)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BoardPickerScreen) and app.screen.game is game
        assert any("no room for it" in str(note.message) for note in app._notifications)
