"""Recordings anyone can replay: a command run on a pseudo-terminal of a chosen size, its
output written as an asciicast v2 file (what `asciinema play` replays). The frames are the
app's own rendering, byte for byte, so a recording looks exactly like the app."""

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


def record(argv: Sequence[str], path: Path, width: int = 80, height: int = 24, seconds: float = 20.0,
           title: str = "tui_grid", env: dict[str, str] | None = None) -> int:
    """Run `argv` on a `width`x`height` terminal for `seconds` from its first drawn text (a
    slow start on a busy machine does not eat the recording), then press q; write what it
    printed to `path` as asciicast v2. Returns the number of output events written. The
    file is written through a temporary name, so a failed recording leaves no half file."""
    master, slave = os.openpty()
    _set_size(slave, width, height)
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(width), "LINES": str(height), **(env or {})}
    process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=environment,
                               start_new_session=True, close_fds=True)
    os.close(slave)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    events: list[tuple[float, str]] = []
    started = time.monotonic()
    quit_at = started + FIRST_TEXT_WAIT + seconds  # until the app draws its first text
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
            text = decoder.decode(data)
            if text:
                events.append((time.monotonic() - started, text))
                if not drawn and VISIBLE.search(ESCAPES.sub("", text)):
                    drawn, quit_at = True, time.monotonic() + seconds
    finally:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait(QUIT_GRACE)
        os.close(master)
    _write(path, width, height, title, events)
    return len(events)


def _write(path: Path, width: int, height: int, title: str, events: list[tuple[float, str]]) -> None:
    header = {"version": 2, "width": width, "height": height, "timestamp": int(time.time()),
              "title": title, "env": {"TERM": "xterm-256color"}}
    lines = [json.dumps(header)] + [json.dumps([round(t, 6), "o", text]) for t, text in events]
    temporary = path.with_name(f".{path.name}.recording")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temporary, path)


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
