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
from tui_grid.core.policy import REMOTE
from tui_grid.core import saves
from tui_grid.ui.confirm_dialog import ConfirmDialog
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


def read_only_system(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


def make_read_only(folder: Path) -> None:
    """chmod 0o500, or a skip where that does not stop this process (root with its
    capabilities: run as a user, or with `setpriv --bounding-set=-dac_override`)."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o500)
    probe = folder / "probe"
    try:
        probe.touch()
    except PermissionError:
        return
    probe.unlink()
    folder.chmod(0o700)
    pytest.skip("this process writes into read-only folders (root)")


@pytest.mark.parametrize("key", ["escape", "q"])
@pytest.mark.parametrize("how", ["read-only", "read-only system", "full"])
async def test_a_folder_that_cannot_be_written_keeps_the_game(data_dir: Path, monkeypatch, how: str, key: str) -> None:
    """With a read-only or full data folder, q/esc keeps the game on screen, the message
    offers ctrl+s, and only the same key again leaves without the save."""
    if how == "read-only":
        make_read_only(data_dir)
    elif how == "read-only system":
        monkeypatch.setattr(saves, "_new_temporary", read_only_system)
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
    """A link planted at a temporary, lock or save name is never written through."""
    folder = tmp_path / "saves"
    folder.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    path = folder / "game.txt"
    for name in ("game.txt.tmp", ".game.txt.tmp", ".game.txt.lock"):
        (folder / name).symlink_to(outside)
    saves.write(path, "new\n")
    assert outside.read_text() == "keep me\n" and path.read_text() == "new\n" and not path.is_symlink()
    path.unlink()
    path.symlink_to(outside)  # a link at the save's own name is replaced, not written through
    saves.write(path, "newer\n")
    assert outside.read_text() == "keep me\n" and path.read_text() == "newer\n" and not path.is_symlink()


def test_a_link_at_the_next_temporary_name_is_never_followed(tmp_path: Path, monkeypatch) -> None:
    """Whatever name the temporary file would get, a link already there is skipped, not
    written through: here the random names are made known in advance and every first
    choice is a planted link to a file outside."""
    folder = tmp_path / "saves"
    folder.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    names = iter(["planted", "planted", "free"])
    monkeypatch.setattr(saves.secrets, "token_hex", lambda size: next(names))
    (folder / ".game.txt.planted.tmp").symlink_to(outside)
    saves.write(folder / "game.txt", "new\n")
    assert outside.read_text() == "keep me\n" and (folder / "game.txt").read_text() == "new\n"
    assert (folder / ".game.txt.planted.tmp").is_symlink()  # left alone, not followed or removed


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
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


async def test_ctrl_s_asks_before_replacing_a_file(tmp_path: Path) -> None:
    """ctrl+s onto an existing file asks first, and only yes replaces it."""
    target = tmp_path / "mine.txt"
    target.write_text("someone's notes\n")
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        dialog.query_one("Input").value = str(target)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmDialog) and "Replace" in str(app.screen.query_one("#question").content)
        await pilot.press("enter", "enter")  # enter is not yes: a doubled key never replaces
        assert isinstance(app.screen, ConfirmDialog) and target.read_text() == "someone's notes\n"
        await pilot.press("n")  # no: the file is kept, the dialog stays for another name
        await pilot.pause()
        assert app.screen is dialog and "was kept" in str(dialog.query_one("#error").content)
        assert target.read_text() == "someone's notes\n"
        await pilot.press("enter", "escape")  # esc on the question is no as well
        await pilot.pause()
        assert app.screen is dialog and target.read_text() == "someone's notes\n"
        await pilot.press("enter", "y")  # yes: replaced
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and "played: u" in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == ["mine.txt"]  # no lock or temporary litter


async def test_a_link_in_the_players_folder_is_asked_about_and_replaced_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    link = tmp_path / "save.txt"
    link.symlink_to(outside)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "ctrl+s")
        app.screen.query_one("Input").value = str(link)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
    assert outside.read_text() == "keep me\n" and not link.is_symlink() and "played: u" in link.read_text()


async def test_ctrl_s_to_a_folder_that_cannot_be_looked_into_is_a_message(tmp_path: Path, monkeypatch) -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "ctrl+s")
        dialog = app.screen
        dialog.query_one("Input").value = str(tmp_path / "x" / "y.txt")
        with monkeypatch.context() as patch:
            patch.setattr(Path, "is_dir", read_only_system)
            await pilot.press("enter")
        assert app.screen is dialog and "Cannot save to" in str(dialog.query_one("#error").content)
        dialog.query_one("Input").value = "~no-such-user-here/y.txt"
        await pilot.press("enter")
        assert app.screen is dialog and "Cannot save to" in str(dialog.query_one("#error").content)


async def test_ctrl_s_never_makes_a_folder_the_player_typed(tmp_path: Path) -> None:
    """ctrl+s into a folder that does not exist says so, naming it as typed, and makes none."""
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "ctrl+s")
        dialog = app.screen
        dialog.query_one("Input").value = str(tmp_path / "nope" / "[red]x[/red]")
        await pilot.press("enter")
        error = str(dialog.query_one("#error").content)
        assert app.screen is dialog and error == f"There is no folder {tmp_path / 'nope' / '[red]x['}: type one that exists."
        assert "play ice FILE" in str(dialog.query_one("#keys").content)
    assert not (tmp_path / "nope").exists()


async def test_the_file_name_offered_for_a_game_id_does_not_repeat_the_game() -> None:
    """The file name offered for a game id names its game once, not twice."""
    app = make_app("jimmy", "jimmy:10x10:g3:yes#seed42")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        assert app.screen.query_one("Input").value == "jimmy-10x10-g3-yes-seed42-saved.txt"


async def test_moves_after_the_warning_are_warned_about_again(data_dir: Path, monkeypatch) -> None:
    """Told once that the save failed, the player plays on: the next q warns again rather
    than leaving with the newer moves unsaved."""
    room = saves._write_all
    monkeypatch.setattr(saves, "_write_all", full_disk)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        await pilot.press("up", "escape")
        assert app.screen is screen and "Cannot keep this game" in message(app)
        await pilot.press("right")
        log = list(screen.session.log)
        assert len(log) == 2
        await pilot.press("escape")  # new moves: warned again, still here
        await pilot.pause()
        assert app.screen is screen and screen.session.log == log
        monkeypatch.setattr(saves, "_write_all", room)  # the disk has room again: the next esc saves and leaves
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen
    assert len(list(data_dir.rglob("*.txt"))) == 1


async def test_ctrl_s_after_the_warning_saves_elsewhere(data_dir: Path, tmp_path: Path, monkeypatch) -> None:
    writable = saves._new_temporary
    monkeypatch.setattr(saves, "_new_temporary", read_only_system)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        await pilot.press("up", "q")
        assert app.is_running and app.screen is screen
        monkeypatch.setattr(saves, "_new_temporary", writable)  # another place, that can be written
        await pilot.press("ctrl+s")
        app.screen.query_one("Input").value = str(tmp_path / "elsewhere.txt")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "played: u" in (tmp_path / "elsewhere.txt").read_text()


def test_a_save_that_cannot_be_dropped_is_no_error(tmp_path: Path, monkeypatch) -> None:
    """A finished game in a read-only folder: its old save stays (offered again), nothing raises."""
    path = tmp_path / "game.txt"
    path.write_text("old\n")
    with monkeypatch.context() as patch:
        patch.setattr(Path, "unlink", read_only_system)
        assert saves.drop(path) is False
    assert path.read_text() == "old\n" and saves.drop(path) is True and not path.exists()


def test_a_file_system_without_locks_still_saves(tmp_path: Path, monkeypatch) -> None:
    fcntl = pytest.importorskip("fcntl")

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    saves.write(tmp_path / "game.txt", "new\n")
    assert (tmp_path / "game.txt").read_text() == "new\n"


def test_a_save_and_an_autosave_leave_no_lock_file(data_dir: Path) -> None:
    """The lock is on the folder itself: nothing is left beside the saves."""
    from tui_grid.core.session import Session
    from tui_grid.games.registry import get_game

    game = get_game("ice")
    loaded = game.load("spiral")
    engine, _ = game.start(loaded)
    session = Session(engine, log=[{0: engine.legal_actions(engine.initial_state())[0]}])
    path = saves.autosave(game, loaded, session)
    assert path is not None and path.is_file()
    saves.write(path.with_name("other.txt"), "a save\n")
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, "other.txt"])
    assert list(data_dir.rglob("*.lock")) == []


def test_two_writers_of_one_folder_exclude_each_other(tmp_path: Path, monkeypatch) -> None:
    """While one writer holds the folder's lock another cannot take it: tried without
    waiting from inside a save, and from a second descriptor while the lock is held."""
    fcntl = pytest.importorskip("fcntl")
    taken: list[bool] = []

    def try_lock() -> bool:
        fd = os.open(tmp_path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        finally:
            os.close(fd)
        return True

    write_all = saves._write_all

    def writing(fd: int, data: bytes) -> None:
        taken.append(try_lock())
        write_all(fd, data)

    monkeypatch.setattr(saves, "_write_all", writing)
    saves.write(tmp_path / "game.txt", "new\n")
    saves.write(tmp_path / "named.txt", "new\n", lock=False)
    assert taken == [False, True]  # locked while an autosave is written; a named file is not
    assert try_lock()  # released once written
    with saves._locked(tmp_path):
        assert not try_lock()
    assert try_lock()


WRITER = """
import sys
from pathlib import Path
from tui_grid.core import saves
path, who, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for i in range(count):
    saves.write(path, f"writer {who} save {i}\\n" * 300)
"""


def test_two_app_processes_never_corrupt_one_save(tmp_path: Path) -> None:
    """Two processes write 200 saves each to one autosave while this one reads: every read
    is one whole save, and neither writer fails."""
    import subprocess
    import sys

    path = tmp_path / "game.txt"
    count = 200
    texts = {f"writer {w} save {i}\n" * 300 for w in "ab" for i in range(count)}
    root = Path(saves.__file__).resolve().parents[2]
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), w, str(count)], cwd=root, stderr=subprocess.PIPE)
               for w in "ab"]
    reads = 0
    while any(writer.poll() is None for writer in writers):
        if path.exists():
            assert path.read_text() in texts  # never half a save, never two mixed
            reads += 1
    errors = [writer.stderr.read().decode() for writer in writers if writer.stderr]
    assert [writer.returncode for writer in writers] == [0, 0], errors
    assert path.read_text() in texts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]  # no temporary or lock file left


async def test_a_remote_player_is_not_offered_ctrl_s(monkeypatch) -> None:
    """Over ssh there is no save to a path: the message must not offer a key that does nothing."""
    monkeypatch.setattr(saves, "_write_all", full_disk)
    app = make_app("ice", "spiral", policy=REMOTE)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        await pilot.press("up", "q")
        await pilot.pause()
        assert app.screen is screen and "Cannot keep this game" in message(app) and "ctrl+s" not in message(app)


async def test_an_autosave_folder_that_cannot_be_looked_into_still_opens_the_board(data_dir: Path) -> None:
    """chmod 0o000 on the folder: is_file raises PermissionError on Python 3.11; the board
    opens without an offer rather than with a traceback."""
    folder = data_dir / "autosave" / "ice"
    folder.mkdir(parents=True)
    folder.chmod(0)
    try:
        probe_blocked = not os.access(folder, os.X_OK)
        if not probe_blocked:
            pytest.skip("this process looks into any folder (root)")
        app = make_app("ice", "spiral")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
    finally:
        folder.chmod(0o700)


async def test_starting_over_where_the_save_cannot_be_dropped_opens_the_board(data_dir: Path, monkeypatch) -> None:
    """n on the resume offer with a read-only autosave folder opens the board fresh; the
    save stays, to be offered again."""
    from tests.conftest import make_app as fresh_app
    from tui_grid.ui.resume_dialog import ResumeDialog

    app = fresh_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "q")
        await pilot.pause()
    app = fresh_app("ice", "spiral")
    monkeypatch.setattr(Path, "unlink", read_only_system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.log == []


def test_a_new_file_is_never_replaced_even_if_it_appears_meanwhile(tmp_path: Path) -> None:
    """ctrl+s to a name nobody had: if a file takes the name between the look and the write,
    it is kept (FileExistsError), and the player is asked instead."""
    path = tmp_path / "mine.txt"
    path.write_text("someone else's\n")
    with pytest.raises(FileExistsError):
        saves.write(path, "ours\n", lock=False, replace=False)
    assert path.read_text() == "someone else's\n" and sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]
    saves.write(tmp_path / "new.txt", "ours\n", lock=False, replace=False)
    assert (tmp_path / "new.txt").read_text() == "ours\n" and sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt", "new.txt"]


async def test_a_link_planted_as_the_autosave_folder_is_not_followed(data_dir: Path, tmp_path: Path) -> None:
    """A link put where the app's own `autosave/ice` folder goes would send the save
    elsewhere: the game stays, with a message, and nothing is written there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (data_dir / "autosave").mkdir(parents=True)
    (data_dir / "autosave" / "ice").symlink_to(elsewhere)
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        await pilot.press("up", "q")
        await pilot.pause()
        assert app.screen is screen and "is a link" in message(app)
    assert list(elsewhere.iterdir()) == []
