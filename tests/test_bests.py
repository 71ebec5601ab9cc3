"""Puzzles remember (ui.bests): a board solved with the player's own moves is recorded in
the data folder's store with its value and the proven optimum, the best only ever gets
better, a board the solver played on is not the player's, the picker marks solved boards
with their best, and a store that cannot be written never stops the game."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import OptionList

from tests.conftest import make_app, settle, status
from tui_grid.core import saves
from tui_grid.games.registry import get_game
from tui_grid.online.records import Best
from tui_grid.online.store import SQLiteStore
from tui_grid.ui import bests
from tui_grid.ui.menu import LIST_WIDTH, BoardPickerScreen

SPIRAL = ["up", "right", "down", "left", "up", "right"]  # its optimal route, 6 slides


@pytest.fixture(autouse=True)
def no_known_bunny_solutions(monkeypatch) -> None:
    """Bunny's optimum is what its solver proved in this process: none, unless a test asks."""
    monkeypatch.setattr(get_game("bunny"), "_solutions", {})


def stored(game: str) -> dict[str, Best]:
    path = bests.store_path()
    return SQLiteStore(path).bests(bests.OWNER, game) if path.exists() else {}


def key(game: str, board: str) -> str:
    definition = get_game(game)
    return bests.board_key(definition, definition.load(board).board)


def message(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#message").content)


async def written(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every solve heard so far is in the store, and what it said is on screen."""
    pilot.app.screen.bests.wait(10)
    await settle(pilot)


async def test_a_solve_by_keys_is_recorded_once_with_its_value_and_optimum() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*SPIRAL)
        await written(pilot)
        assert "Solved in 6 moves" in status(app)
        shown = message(app)
        assert shown.startswith(app.screen.message) and shown.endswith("\nNew best: 6 slides (optimal).")
        assert "Optimal: no route has fewer moves" in shown  # the game's own verdict, whole
    best = stored("ice")[key("ice", "spiral")]
    assert (best.value, best.optimum, best.solves) == (6, 6, 1)
    assert bests.store_path() == saves.data_dir() / "bests.sqlite3"


async def test_a_better_solve_replaces_the_best_and_a_worse_one_keeps_it() -> None:
    """Bunny plays on after a complete run: each complete run is a solve."""
    app = make_app("bunny", "doodle-1-line")
    async with app.run_test(size=(80, 24)) as pilot:
        for program, said in ((["f", "l", "r", "f"], "New best: 4 tokens."), (["f", "f"], "New best: 2 tokens."),
                              (["f", "f", "l"], "Your best: 2 tokens.")):
            await pilot.press("ctrl+r", *program, "enter")
            await written(pilot)
            assert "Complete" in message(app) and message(app).endswith(f"\n{said}")
        await pilot.press("f")  # an edit after a complete run is no new solve, and the note goes
        await written(pilot)
        assert "best" not in message(app).lower()
    best = stored("bunny")[key("bunny", "doodle-1-line")]
    assert (best.value, best.optimum, best.solves) == (2, None, 3)


async def test_the_optimum_is_recorded_once_the_solver_has_proven_it() -> None:
    app = make_app("bunny", "doodle-1-line")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")  # the hint has the solver prove the shortest program (2 tokens)
        await settle(pilot)
        await pilot.press("f", "f", "l", "enter")
        await written(pilot)
        assert message(app).endswith("\nNew best: 3 tokens (optimum 2).")
    best = stored("bunny")[key("bunny", "doodle-1-line")]
    assert (best.value, best.optimum) == (3, 2)


@pytest.mark.parametrize(("board", "keys", "optimum"), [("seed-1", ["left", "up", "left"], 3),
                                                        ("seed-3", ["left"] * 4, None)])
async def test_a_jimmy_escape_is_optimal_only_when_as_short_as_the_border_is_near(board, keys, optimum) -> None:
    app = make_app("jimmy", board)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await written(pilot)
        assert "Escaped" in status(app)
    best = stored("jimmy")[key("jimmy", board)]
    assert (best.value, best.optimum) == (len(keys), optimum)


async def test_a_board_the_solver_solved_is_solved_with_help_and_not_recorded() -> None:
    app = make_app("ice", "spiral", speed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await settle(pilot)
        await written(pilot)
        assert "Solved in 6 moves" in status(app) and "best" not in message(app)
        await pilot.press("u", "up", "right", "down", "left", "up")  # the solver's move undone: then one by hand
        await pilot.press("r", "w")  # restart, and watch the solver play it all
        await settle(pilot)
        for _ in range(200):
            if app.screen.session.over and not app.screen.watching:
                break
            await pilot.pause(0.02)
        await written(pilot)
        assert "best" not in message(app) and stored("ice") == {}
        await pilot.press("u")  # back one watched slide: the last by hand still has the solver's before it
        await pilot.press("right")
        await written(pilot)
        assert "best" not in message(app) and stored("ice") == {}
        await pilot.press("r", *SPIRAL)  # from the start by hand: the player's own
        await written(pilot)
        assert message(app).endswith("\nNew best: 6 slides (optimal).")
    assert stored("ice")[key("ice", "spiral")].solves == 1


def option_lines(app, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    boards = app.screen.query_one("#boards", OptionList)
    return str(boards.get_option(name).prompt).split("\n")


async def test_the_picker_marks_a_solved_board_with_its_best_at_80x24() -> None:
    app = make_app("ice")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        assert isinstance(picker, BoardPickerScreen)
        assert option_lines(app, "spiral") == ["A simple spiral"]  # a fresh folder: no marks, titles unmoved
        boards = picker.query_one("#boards", OptionList)
        boards.highlighted = boards.get_option_index("spiral")
        await pilot.press("enter")
        await pilot.press(*SPIRAL[:-1], "left", "right")  # 7 slides: one more than the best route
        await written(pilot)
        assert message(app).endswith("\nNew best: 7 slides (optimum 6).")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is picker
        assert option_lines(app, "spiral") == ["✓ A simple spiral", "  7 slides · optimum 6"]
        assert option_lines(app, "one-way")[0].startswith("  ")  # unsolved: no mark, aligned
        assert all(len(line) <= LIST_WIDTH - 4 for name in picker.entries for line in option_lines(app, name))
        assert "✓ Your best: 7 slides · optimum 6 (solved once)" in str(picker.query_one("#preview").content)
        await pilot.press("enter", *SPIRAL)  # again, in the fewest slides
        await written(pilot)
        assert message(app).endswith("\nNew best: 6 slides (optimal).")
        await pilot.press("escape")
        await settle(pilot)
        assert option_lines(app, "spiral") == ["✓ A simple spiral", "  6 slides · optimal"]


async def test_a_picker_made_after_the_game_reads_the_solve() -> None:
    """Opened from the command line, the game has no picker beneath: esc makes one."""
    app = make_app("jimmy", "seed-1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left", "up", "left")
        await written(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, BoardPickerScreen)
        assert option_lines(app, "seed-1") == ["✓ Seed case 1", "  3 moves · optimal"]


def unwritable_folder(tmp_path: Path, how: str) -> Path:
    if how == "read-only":
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        folder = tmp_path / "data"
        folder.mkdir()
        folder.chmod(0o500)
        return folder
    blocker = tmp_path / "a-file"
    blocker.write_text("a file where the data folder should be\n")
    return blocker / "data"


@pytest.mark.parametrize("how", ["read-only", "not a folder"])
async def test_a_data_folder_that_cannot_be_written_neither_crashes_nor_blocks_the_game(tmp_path, monkeypatch, how) -> None:
    monkeypatch.setenv("TUI_GRID_DATA", str(unwritable_folder(tmp_path, how)))
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*SPIRAL)
        await written(pilot)
        note = message(app).split("\n")[-1]
        assert note.startswith("Your best could not be kept: ") and len(note) <= 78
        await pilot.press("u")  # the game goes on
        assert app.screen.state.moves == 5 and "could not be kept" not in message(app)
        await pilot.press("right")
        await written(pilot)
        await pilot.press("escape")  # the picker, with no marks and no store to read
        await settle(pilot)
        assert isinstance(app.screen, BoardPickerScreen) and option_lines(app, "spiral") == ["A simple spiral"]


async def test_a_full_store_is_one_line_and_the_game_goes_on(monkeypatch) -> None:
    def full(*_: object, **__: object) -> Best:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SQLiteStore, "record_solve", full)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*SPIRAL)
        await written(pilot)
        assert message(app).endswith("\nYour best could not be kept: database or disk is full.")
        await pilot.press("u")
        assert app.screen.state.moves == 5


def test_the_words_for_a_best() -> None:
    best = Best("b", 7, 6, 2, 0.0, 0.0)
    assert bests.best_words(best, "slide") == "7 slides · optimum 6"
    assert bests.best_words(Best("b", 6, 6, 1, 0.0, 0.0), "slide") == "6 slides · optimal"
    assert bests.best_words(Best("b", 1, None, 1, 0.0, 0.0), "move") == "1 move"
    assert bests.solve_note(None, best, 7, "slide") == "New best: 7 slides (optimum 6)."
    assert bests.solve_note(Best("b", 6, 6, 1, 0.0, 0.0), Best("b", 6, 6, 2, 0.0, 0.0), 8, "slide") == "Your best: 6 slides (optimal)."


def test_a_note_never_cuts_the_message() -> None:
    assert bests.with_note("Solved.", "New best: 6 slides.", 78, 4) == "Solved.\nNew best: 6 slides."
    long = "word " * 60  # four lines of 78 already
    assert bests.with_note(long, "New best: 6 slides.", 78, 4) == long
    assert bests.with_note("", "New best: 6 slides.", 78, 4) == "New best: 6 slides."
