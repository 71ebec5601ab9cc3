"""What a remote player (a `serve ssh` session: TUI_GRID_REMOTE=1) may keep and make on
the server: a folder of a few MiB, the last few stills taken at a bounded pace, boards
that fit a session's share of memory, and never a server path in a message."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tests.conftest import make_app
from tui_grid.core import policy, saves
from tui_grid.core.boardfile import check_side
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import UsageError
from tui_grid.core.policy import LOCAL, REMOTE
from tui_grid.games.registry import get_game


@pytest.fixture
def player_folder(tmp_path: Path, monkeypatch) -> Path:
    """A remote session's folder, as serve ssh gives it: the working folder, named '.'."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TUI_GRID_DATA", ".")
    return tmp_path


def test_saves_stop_at_the_players_quota_and_the_old_save_stays(player_folder: Path) -> None:
    path = saves.data_dir() / "autosave" / "ice" / "board-1.txt"
    saves.write(path, "small", policy=REMOTE)
    room = 16_000
    (player_folder / "filler").write_bytes(b"x" * (REMOTE.quota_bytes - policy.folder_bytes(player_folder) - room))
    saves.write(path, "x" * 9000, policy=REMOTE)  # replacing a save counts only what it adds
    with pytest.raises(OSError) as caught:
        saves.write(path, "x" * 30_000, policy=REMOTE)
    assert caught.value.errno == errno.EDQUOT and "full (4 MiB)" in str(caught.value)
    assert path.read_text() == "x" * 9000


def test_empty_files_count_so_the_quota_bounds_how_many_there_are(player_folder: Path) -> None:
    for index in range(10):
        (player_folder / f"empty-{index}").touch()
    assert policy.folder_bytes(player_folder) == 10 * policy.FILE_BYTES_AT_LEAST
    assert REMOTE.quota_bytes // policy.FILE_BYTES_AT_LEAST == 1024  # files a player may hold, at most


def test_a_save_leaves_no_other_file_and_a_dropped_one_none(player_folder: Path) -> None:
    path = saves.data_dir() / "autosave" / "ice" / "board-1.txt"
    saves.write(path, "a game", policy=REMOTE)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no lock file counts against the quota
    assert saves.drop(path) and list(path.parent.iterdir()) == []


def test_without_a_remote_session_nothing_is_counted(tmp_path: Path) -> None:
    LOCAL.ensure_room(tmp_path, 10 * policy.REMOTE_QUOTA_BYTES)
    assert LOCAL.still_refused(tmp_path, 0.0) is None and LOCAL.folder_name(tmp_path) == str(tmp_path)


def test_stills_are_paced_and_only_the_last_few_kept(player_folder: Path) -> None:
    stills = player_folder / "stills"
    stills.mkdir()
    made = []
    for index in range(REMOTE.stills_kept + 3):
        path = stills / f"still-{index}.svg"
        path.write_text("<svg/>")
        os.utime(path, (1000.0 + index, 1000.0 + index))
        made.append(path)
        assert REMOTE.keep_stills(stills, path) is None
    assert sorted(stills.iterdir()) == sorted(made[-REMOTE.stills_kept:])
    newest = 1000.0 + REMOTE.stills_kept + 2
    assert "One still every" in (REMOTE.still_refused(stills, newest + 1.0) or "")
    assert REMOTE.still_refused(stills, newest + REMOTE.still_seconds) is None
    (player_folder / "filler").write_bytes(b"x" * REMOTE.quota_bytes)
    assert "full" in (REMOTE.still_refused(stills, newest + 60.0) or "")


async def test_f12_twice_in_a_remote_game_saves_one_still_and_says_why_not_the_second(player_folder: Path) -> None:
    app = make_app("ice", "spiral", policy=REMOTE)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        first = str(app.screen.query_one("#message").content)
        await pilot.press("f12")
        await pilot.pause()
        second = str(app.screen.query_one("#message").content)
    assert first.startswith("Still saved: stills/") and str(player_folder) not in first
    assert "One still every" in second
    assert len(list((player_folder / "stills").glob("*.svg"))) == 1


def test_a_remote_player_makes_boards_that_fit_a_sessions_memory() -> None:
    check_side(500, 500, REMOTE.max_cells)
    with pytest.raises(ValueError, match="on this server has at most 250,000 cells"):
        check_side(2000, 2000, REMOTE.max_cells)
    with pytest.raises(UsageError, match="on this server"):
        get_game("ice").load_id("ice:2000x2000:m5#seed1", SearchControl(max_cells=REMOTE.max_cells))


def test_a_remote_player_is_never_shown_a_server_path(player_folder: Path) -> None:
    assert REMOTE.folder_name(player_folder) == "your folder on the server"
