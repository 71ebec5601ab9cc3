"""Save, resume and replay: a game in progress is a board file with a `played:` header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import make_app, status
from tui_grid.core.policy import REMOTE
from tui_grid.cli import main
from tui_grid.games.registry import get_game
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.menu import BoardPickerScreen
from tui_grid.ui.resume_dialog import ResumeDialog


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


SPIRAL_SAVED = "game: ice\ntitle: Spiral\nsize: 6x6\nplayed: u\n---\n    x\n  #\n   E\n #\n    #\nS    #\n"


def test_solve_answers_from_the_saved_position(tmp_path, capsys) -> None:
    path = tmp_path / "spiral-saved.txt"
    path.write_text(SPIRAL_SAVED)
    assert main(["solve", "ice", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["moves"] == 5 and record["path"] == "rdlur"


def test_a_bad_played_header_is_located(tmp_path, capsys) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(SPIRAL_SAVED.replace("played: u", "played: uq"))
    assert main(["solve", "ice", str(path), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tui-grid: error: {path}:4:10: played: step 2") and "\n" not in err


def test_replay_prints_every_move(tmp_path, capsys) -> None:
    path = tmp_path / "jimmy-saved.txt"
    text = get_game("jimmy").save_text(get_game("jimmy").load("seed-1"), "ULL")
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(0/3)" in out and "(3/3)" in out and "step 3: L" in out and "Escaped in 3 moves" in out


async def _play_save_quit(game: str, board: str, keys: list[str], tmp_path) -> int:
    app = make_app(game, board)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        await pilot.press(*keys)
        moves = len(screen.session.log)
        assert moves == len(keys)
        await pilot.press("ctrl+s")
        assert str(Path.cwd()) in str(app.screen.query_one("#folder").content)  # where a bare name goes
        target = tmp_path / f"{game}-by-hand.txt"
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        assert target.is_file() and "played:" in target.read_text()
        assert any(str(target) in note.message for note in app._notifications)
        await pilot.press("q")  # quitting mid-game autosaves
    return moves


@pytest.mark.parametrize(("game", "board", "keys"), [("ice", "spiral", ["up", "right"]), ("jimmy", "seed-3", ["left", "left"])])
async def test_quit_autosaves_and_reopening_offers_to_resume(game, board, keys, tmp_path) -> None:
    moves = await _play_save_quit(game, board, keys, tmp_path)
    app = make_app(game, board)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        await pilot.press("enter")
        screen: GameScreen = app.screen
        assert isinstance(screen, GameScreen) and len(screen.session.log) == moves
        for _ in range(moves):
            await pilot.press("u")
        assert screen.session.log == [] and screen.state == screen.engine.initial_state()
        assert "Moves 0" in status(app)
    # the saved file plays on from where it was saved
    saved = make_app(game, str(tmp_path / f"{game}-by-hand.txt"))
    async with saved.run_test(size=(80, 24)) as pilot:
        assert len(saved.screen.session.log) == moves


async def test_starting_over_drops_the_autosave(tmp_path) -> None:
    await _play_save_quit("ice", "spiral", ["up"], tmp_path)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen) and app.screen.session.log == []
    again = make_app("ice", "spiral")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, GameScreen)


async def test_esc_on_the_resume_offer_means_not_now_and_keeps_the_save(tmp_path) -> None:
    """esc is "not now": the autosave stays; only n starts over. Opened from the command
    line (`play ice spiral`), the offer comes over the game's boards, and esc lands there
    with that board highlighted."""
    await _play_save_quit("ice", "spiral", ["up"], tmp_path)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog) and "after 1 move." in str(app.screen.query("Static").first().content)
        assert isinstance(app.screen_stack[-2], BoardPickerScreen)  # not over the main menu
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen)  # to the game's boards, not the main menu
        assert app.screen.query_one("#boards").highlighted_option.id == "spiral"
    again = make_app("ice", "spiral")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeDialog)  # still offered
        await pilot.press("enter")
        assert len(again.screen.session.log) == 1


async def test_an_unreadable_autosave_is_kept_aside_and_said(tmp_path, data_dir) -> None:
    """An unreadable autosave is kept aside under a new name, and the player is told why."""
    await _play_save_quit("ice", "spiral", ["up"], tmp_path)
    (save,) = (data_dir / "autosave" / "ice").glob("*.txt")
    broken = save.read_text().replace("played: u", "played: uzq[red]")
    save.write_text(broken)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.log == []
        (note,) = [n for n in app._notifications if n.title == "Saved game unreadable"]
        kept = save.with_name(f"{save.stem}.unreadable.txt")
        assert f"({save}:8:10: played: step 2 ('z')" in note.message and f"kept as {kept}." in note.message
    assert not save.exists() and kept.read_text() == broken


async def test_a_board_opened_by_its_id_or_its_file_shares_one_autosave(tmp_path, data_dir) -> None:
    """A board opened by its game id (made with n) and the shipped file of the same board
    share one autosave: a game begun on either is offered back from the other."""
    app = make_app("jimmy", "jimmy:10x10:g3:yes#seed42")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left")
        moves = len(app.screen.session.log)
        await pilot.press("q")
    assert moves == 1 and len(list((data_dir / "autosave" / "jimmy").glob("*.txt"))) == 1
    shipped = make_app("jimmy", "gen-10x10-g3")
    async with shipped.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(shipped.screen, ResumeDialog)
        await pilot.press("enter")
        assert len(shipped.screen.session.log) == 1
        await pilot.press("u", "q")  # untouched again: no save of this board is left
    assert list((data_dir / "autosave" / "jimmy").glob("*.txt")) == []


async def test_the_picker_opens_a_saved_game_and_says_what_is_wrong_with_a_bad_file(tmp_path, monkeypatch) -> None:
    """The board picker opens a saved game (as ctrl+s writes it), and says what is wrong
    with a missing or bad file. Remote players are never offered file paths."""
    from tui_grid.ui.menu import OPEN_FILE
    from tui_grid.ui.open_dialog import OpenFileDialog

    saved = tmp_path / "spiral-saved.txt"
    saved.write_text(SPIRAL_SAVED)
    bad = tmp_path / "bad.txt"
    bad.write_text(SPIRAL_SAVED.replace("played: u", "played: uq"))
    app = make_app("ice")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        boards = picker.query_one("#boards")
        assert boards.get_option_at_index(boards.highlighted).id not in ("__new__", OPEN_FILE)  # a board first
        boards.highlighted = 1
        assert boards.get_option_at_index(1).id == OPEN_FILE
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, OpenFileDialog)
        from tui_grid.core.text import echo

        for text, error in ((str(tmp_path / "nope.txt"), f"{echo(tmp_path / 'nope.txt')}: no such file"),
                            (str(tmp_path), f"{echo(tmp_path)} is not a file"),
                            (str(bad), f"{bad}:4:10: played: step 2 ('q')")):
            dialog.query_one("#path").value = text
            await pilot.press("enter")
            assert app.screen is dialog and str(dialog.query_one("#error").content).startswith(error)
        dialog.query_one("#path").value = str(saved)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and len(screen.session.log) == 1  # it goes on from its move
    remote = make_app("ice", policy=REMOTE)
    async with remote.run_test(size=(80, 24)) as pilot:
        boards = remote.screen.query_one("#boards")
        assert OPEN_FILE not in [boards.get_option_at_index(i).id for i in range(boards.option_count)]
