"""Recordings anyone can replay: a command run on a pseudo-terminal, its output written as
an asciicast v2 file (what `asciinema play` replays). The frames are the app's own
rendering, byte for byte, so a recording looks exactly like the app. `record` runs it
unattended on a terminal of a chosen size; `record_play` relays the player's own terminal
to it while they play."""

from __future__ import annotations

import codecs
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
import tty
from pathlib import Path
from typing import Sequence

#: Seconds the recorded app has to quit after `q` before it is killed.
QUIT_GRACE = 5.0


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


#: Terminal escape sequences (CSI, OSC and two-byte ones), to tell drawn text from setup.
ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
VISIBLE = re.compile(r"[^\s\x00-\x1f]")
#: Longest wait for the app's first text before the recording's own seconds run anyway.
FIRST_TEXT_WAIT = 60.0


def _spawn(argv: Sequence[str], width: int, height: int, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """Start `argv` on a new `width`x`height` pseudo-terminal, in its own process group;
    returns the process and the terminal's master end."""
    master, slave = os.openpty()
    _set_size(slave, width, height)
    process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True, close_fds=True)
    os.close(slave)
    return process, master


def _end(process: subprocess.Popen[bytes], master: int) -> None:
    """The recorded app's process group killed if it still runs, and its terminal closed."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(QUIT_GRACE)
    os.close(master)


class _Cast:
    """The events of a recording, timed from its start: output ("o") as UTF-8 text (a
    character cut between two reads waits for its end) and resizes ("r", "WxH")."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.events: list[tuple[float, str, str]] = []
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def output(self, data: bytes) -> str:
        text = self._decoder.decode(data)
        if text:
            self.events.append((time.monotonic() - self.started, "o", text))
        return text

    def resize(self, width: int, height: int) -> None:
        self.events.append((time.monotonic() - self.started, "r", f"{width}x{height}"))

    @property
    def frames(self) -> int:
        return sum(1 for _, kind, _ in self.events if kind == "o")


def record(argv: Sequence[str], path: Path, width: int = 80, height: int = 24, seconds: float = 20.0,
           title: str = "tui_grid", env: dict[str, str] | None = None) -> int:
    """Run `argv` on a `width`x`height` terminal for `seconds` from its first drawn text (a
    slow start on a busy machine does not eat the recording), then press q; write what it
    printed to `path` as asciicast v2. Returns the number of output events written. The
    file is written through a temporary name, so a failed recording leaves no half file."""
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(width), "LINES": str(height), **(env or {})}
    process, master = _spawn(argv, width, height, environment)
    cast = _Cast()
    quit_at = cast.started + FIRST_TEXT_WAIT + seconds  # until the app draws its first text
    drawn = False
    pressed = False
    try:
        while True:
            now = time.monotonic()
            if not pressed and now >= quit_at:
                os.write(master, b"q")
                pressed = True
            if pressed and now >= quit_at + QUIT_GRACE:
                break
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal: it has exited
                break
            if not data:
                break
            text = cast.output(data)
            if not drawn and VISIBLE.search(ESCAPES.sub("", text)):
                drawn, quit_at = True, time.monotonic() + seconds
    finally:
        _end(process, master)
    _write(path, width, height, title, cast.events)
    return cast.frames


def record_play(argv: Sequence[str], path: Path, title: str = "tui_grid", keys: int = 0, screen: int = 1) -> int:
    """Run `argv` on a pseudo-terminal the size of the player's own (`keys` and `screen`
    are its input and output, both a terminal) until it exits, relaying both ways: the
    player's keys to the app, and the app's output to the player's screen and into an
    asciicast v2 file at `path`, with the terminal's resizes. The player's terminal is in
    raw mode meanwhile (every key goes to the app, ctrl+c too) and restored after. Returns
    the number of output events written; the file is written as `record` writes it."""
    width, height = os.get_terminal_size(screen)
    # The app reads its size from the terminal, not from COLUMNS and LINES, which a resize
    # would leave stale.
    environment = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
    saved = termios.tcgetattr(keys)
    process, master = _spawn(argv, width, height, environment)
    cast = _Cast()
    size = (width, height)
    try:
        tty.setraw(keys)
        reading_keys = True
        while True:
            now_size = tuple(os.get_terminal_size(screen))
            if now_size != size:
                size = now_size
                _set_size(master, *size)
                cast.resize(*size)
                try:
                    os.killpg(process.pid, signal.SIGWINCH)  # the app has no controlling terminal to tell it
                except ProcessLookupError:
                    pass
            ready, _, _ = select.select([master, keys] if reading_keys else [master], [], [], 0.05)
            if keys in ready:
                typed = os.read(keys, 4096)
                if typed:
                    os.write(master, typed)
                else:
                    reading_keys = False  # the keys ended: the app goes on until it quits
            if master in ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # the app closed its terminal: it has exited
                    break
                if not data:
                    break
                cast.output(data)
                _write_all(screen, data)
            elif not ready and process.poll() is not None:
                break
    finally:
        termios.tcsetattr(keys, termios.TCSADRAIN, saved)
        _end(process, master)
    _write(path, width, height, title, cast.events, os.environ.get("TERM", "xterm-256color"))
    return cast.frames


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def check_writable(path: Path) -> None:
    """OSError when the recording could not be written at `path` (no right to write in its
    folder): said before anything is recorded, not after."""
    temporary = _temporary(path)
    temporary.touch()
    temporary.unlink()


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.recording")


def _write(path: Path, width: int, height: int, title: str, events: list[tuple[float, str, str]],
           term: str = "xterm-256color") -> None:
    header = {"version": 2, "width": width, "height": height, "timestamp": int(time.time()),
              "title": title, "env": {"TERM": term}}
    lines = [json.dumps(header)] + [json.dumps([round(t, 6), kind, data]) for t, kind, data in events]
    temporary = _temporary(path)
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def write_frames(path: Path, title: str, frames: Sequence[str], seconds_per_frame: float) -> int:
    """Text frames as an asciicast v2 file, each drawn over the last a beat apart, on a
    terminal just large enough for the largest; returns the number of frames written."""
    lines = [frame.split("\n") for frame in frames]
    width = max((len(line) for frame in lines for line in frame), default=1)
    height = max((len(frame) for frame in lines), default=1)
    events = [(index * seconds_per_frame, "o", "\x1b[H\x1b[2J" + "\r\n".join(frame)) for index, frame in enumerate(lines)]
    _write(path, max(width, 20), max(height, 5), title, events)
    return len(events)


def read_cast(path: Path) -> tuple[dict, list[tuple[float, str, str]]]:
    """An asciicast v2 file's header and events; ValueError when it is not one."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ValueError(f"{path}: empty")
    header = json.loads(lines[0])
    if header.get("version") != 2:
        raise ValueError(f"{path}: not asciicast v2")
    events = []
    for number, line in enumerate(lines[1:], 2):
        event = json.loads(line)
        if not (isinstance(event, list) and len(event) == 3 and isinstance(event[0], (int, float)) and isinstance(event[2], str)):
            raise ValueError(f"{path}:{number}: not an event")
        events.append((float(event[0]), str(event[1]), event[2]))
    return header, events
