"""`tui-grid play GAME BOARD --record FILE.cast` records the player's own play: the app
runs on a pseudo-terminal relayed to the player's terminal (here a pseudo-terminal the
test types into), and what it drew is written as asciicast v2. Like `tui-grid record`,
it refuses to replace a file without --force, and a bad path is one line. What is
asserted is what was drawn and written, never how fast."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from tui_grid.cli import main
from tui_grid.core.recording import read_cast
from tui_grid.games.registry import get_game
from tui_grid.online.store import SQLiteStore
from tui_grid.ui import bests

UP, DOWN, RIGHT, LEFT = b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"
SPIRAL = [UP, RIGHT, DOWN, LEFT, UP, RIGHT]
#: Only so that a broken run ends: nothing is timed.
PATIENCE = 90.0


class Terminal:
    """The player's terminal: a pseudo-terminal of 80x24 running the command line, with
    what it shows kept in a terminal emulator."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen([sys.executable, "-m", "tui_grid", *argv], stdin=slave, stdout=slave, stderr=slave,
                                        cwd=cwd, env={**os.environ, "TERM": "xterm-256color"}, start_new_session=True)
        os.close(slave)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.seen = b""

    def shows(self, text: str) -> bool:
        return any(text in line for line in self.screen.display)

    def until(self, condition) -> bool:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + PATIENCE
        while not condition() and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return condition()
                self.seen += data
                self.stream.feed(data)
        return condition()

    def type(self, *keys: bytes) -> None:
        for key in keys:
            os.write(self.master, key)

    def close(self) -> int:
        self.until(lambda: self.process.poll() is not None)
        try:
            return self.process.wait(PATIENCE)
        finally:
            os.close(self.master)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def shown_at_some_point(path: Path, text: str) -> bool:
    """Whether the recording, replayed event by event into a terminal emulator, shows `text`."""
    header, events = read_cast(path)
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    for _, kind, data in events:
        if kind == "o":
            stream.feed(data)
            if any(text in line for line in screen.display):
                return True
    return False


@pytest.mark.parametrize("existing", [False, True])
def test_play_record_writes_the_players_own_game_as_asciicast(tmp_path: Path, data_dir: Path, existing: bool) -> None:
    cast = tmp_path / "mine.cast"
    if existing:
        cast.write_text("an older recording\n")
    terminal = Terminal(["play", "ice", "spiral", "--record", str(cast), *(["--force"] if existing else [])], tmp_path)
    assert terminal.until(lambda: terminal.shows("Moves 0"))  # the app, relayed to the player's terminal
    terminal.type(*SPIRAL)
    assert terminal.until(lambda: terminal.shows("Solved in 6 moves"))
    assert terminal.until(lambda: terminal.shows("New best: 6 slides (optimal)."))
    terminal.type(b"q")
    assert terminal.close() == 0
    assert b"recorded" in terminal.seen and b"asciinema play" in terminal.seen

    lines = cast.read_text(encoding="utf-8").splitlines()
    header, events = read_cast(cast)
    assert lines[0].startswith("{") and header["version"] == 2 and (header["width"], header["height"]) == (80, 24)
    assert header["title"] == "tui-grid play ice spiral" and header["env"]["TERM"] == "xterm-256color"
    assert events and all(kind == "o" for _, kind, _ in events)
    times = [t for t, _, _ in events]
    assert times == sorted(times) and times[0] >= 0
    assert shown_at_some_point(cast, "Ice sliding — A simple spiral") and shown_at_some_point(cast, "Solved in 6 moves")
    ice = get_game("ice")
    best = SQLiteStore(data_dir / bests.STORE_FILE).bests(bests.OWNER, "ice")[bests.board_key(ice, ice.load("spiral").board)]
    assert best.value == 6  # the recorded game was the player's own, and kept as such


def test_play_record_refuses_to_replace_a_file_and_says_so_in_one_line(tmp_path: Path, capsys) -> None:
    cast = tmp_path / "taken.cast"
    cast.write_text("an older recording\n")
    assert main(["play", "ice", "spiral", "--record", str(cast)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(cast) in err and "exists: add --force" in err
    assert cast.read_text() == "an older recording\n"


@pytest.mark.parametrize("where", ["missing/x.cast", "."])
def test_play_record_names_a_bad_path(tmp_path: Path, capsys, where: str) -> None:
    target = str(tmp_path / where)
    assert main(["play", "ice", "spiral", "--record", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tui-grid: error: --record: ") and target in err


def test_play_record_names_a_folder_it_cannot_write(tmp_path: Path, capsys) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert main(["play", "ice", "spiral", "--record", str(folder / "x.cast")]) == 2
    finally:
        folder.chmod(0o700)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(folder / "x.cast") in err and "Permission denied" in err


def test_play_record_checks_the_board_before_anything(tmp_path: Path, capsys) -> None:
    assert main(["play", "ice", "nosuchboard", "--record", str(tmp_path / "x.cast")]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not (tmp_path / "x.cast").exists()
