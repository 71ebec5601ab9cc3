"""Saves that cannot lose or leak: a read-only or full data folder keeps the game on
screen with a message, a link planted in the folder is never followed, two writers never
corrupt one save, and ctrl+s asks before replacing a file."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from tests.conftest import make_app
from tui_grid.core import saves
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.save_dialog import SaveDialog


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TUI_GRID_DATA", str(folder))
    return folder


def message(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#message").content)


def full_disk(fd: int, data: bytes) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("key", ["escape", "q"])
@pytest.mark.parametrize("how", ["read-only", "full"])
async def test_a_folder_that_cannot_be_written_keeps_the_game(data_dir: Path, monkeypatch, how: str, key: str) -> None:
    """Found by an attack pass: a read-only or full data folder gave a traceback on q/esc
    and the game was lost. Now the game stays, the message offers ctrl+s, and only the same
    key again leaves without the save."""
    if how == "read-only":
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders")
        data_dir.mkdir(parents=True)
        data_dir.chmod(0o500)
    else:
        monkeypatch.setattr(saves, "_write_all", full_disk)
    app = make_app("ice", "spiral")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen: GameScreen = app.screen
            await pilot.press("up")
            log = list(screen.session.log)
            await pilot.press(key)  # the save fails: the game stays
            await pilot.pause()
            assert app.is_running and app.screen is screen and screen.session.log == log
            assert "Cannot keep this game" in message(app) and "ctrl+s" in message(app)
            await pilot.press(key)  # told once: the same key again leaves without the save
            await pilot.pause()
            assert app.screen is not screen or not app.is_running
        assert app.return_code in (0, None)
    finally:
        if data_dir.exists():
            data_dir.chmod(0o700)
    assert not list(data_dir.rglob("*.tmp"))  # a failed save leaves no temporary file behind


def test_a_full_disk_leaves_the_old_save_as_it_was(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "save.txt"
    saves.write(path, "old\n")
    monkeypatch.setattr(saves, "_write_all", full_disk)
    with pytest.raises(OSError):
        saves.write(path, "new\n")
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_a_planted_link_is_never_followed(tmp_path: Path) -> None:
    """The old fixed temporary name could be a link to a file outside the folder."""
    folder = tmp_path / "saves"
    folder.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    path = folder / "game.txt"
    for name in ("game.txt.tmp", ".game.txt.tmp", ".game.txt.lock"):
        (folder / name).symlink_to(outside)
    with pytest.raises(OSError):  # the lock file is a link: refused, not followed
        saves.write(path, "new\n")
    (folder / ".game.txt.lock").unlink()
    saves.write(path, "new\n")
    assert outside.read_text() == "keep me\n" and path.read_text() == "new\n" and not path.is_symlink()
    path.unlink()
    path.symlink_to(outside)  # a link at the save's own name is replaced, not written through
    saves.write(path, "newer\n")
    assert outside.read_text() == "keep me\n" and path.read_text() == "newer\n" and not path.is_symlink()


def test_two_writers_never_corrupt_one_save(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    texts = [f"writer {w} save {i}\n" * 200 for w in range(2) for i in range(100)]
    errors: list[BaseException] = []
    seen: list[str] = []
    stop = threading.Event()

    def writer(w: int) -> None:
        try:
            for i in range(100):
                saves.write(path, f"writer {w} save {i}\n" * 200)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def reader() -> None:
        while not stop.is_set():
            if path.exists():
                seen.append(path.read_text())

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(2)]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    watcher.join()
    assert errors == []
    assert path.read_text() in texts and all(text in texts for text in seen)
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"] or all(p.name == "game.txt" or p.name.endswith(".lock") for p in tmp_path.iterdir())


async def test_ctrl_s_asks_before_replacing_a_file(tmp_path: Path) -> None:
    target = tmp_path / "mine.txt"
    target.write_text("someone's notes\n")
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        dialog.query_one("Input").value = str(target)
        await pilot.press("enter")
        assert app.screen is dialog and "exists: enter again replaces it" in str(dialog.query_one("#error").content)
        assert target.read_text() == "someone's notes\n"
        await pilot.press("escape")  # no: the file is kept
        await pilot.pause()
        assert target.read_text() == "someone's notes\n"
        await pilot.press("ctrl+s")
        dialog = app.screen
        dialog.query_one("Input").value = str(target)
        await pilot.press("enter", "enter")  # yes: asked, then confirmed
        await pilot.pause()
        assert "played: u" in target.read_text()
