"""The lobby's wire: the protocol's messages (online.protocol), one JSON object per line
over a stream socket, both ways, bounded.

Shared by the hub (in the `serve ssh` process), each player's app and the publisher: one
line reader (a line too long, not JSON or not an object ends the connection; a field of
the wrong shape is a ProtocolError the reader's owner decides about), and one queued
writer (a send never blocks its caller; a peer that leaves too much unread is given up on).
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from queue import SimpleQueue
from typing import Any, Callable

from tui_grid.core.network import hang_up
from tui_grid.games.registry import get_game, online_games
from tui_grid.online.protocol import MAX_ROUNDS, QUICK_ROUNDS, Message, from_wire, to_wire

#: The longest line either side accepts (a spectator's first round log fits easily).
MAX_LINE = 1 << 20
#: Bytes a peer may leave unread before it is given up on (a stalled client cannot make the
#: hub hold the whole match for it).
MAX_BACKLOG = 4 << 20
#: Seconds one send may block on a peer that reads nothing before the link is dropped.
SEND_TIMEOUT = 10

__all__ = ["MAX_BACKLOG", "MAX_LINE", "MAX_ROUNDS", "QUICK_ROUNDS", "LineReader", "QueuedWriter", "WireError",
           "default_board", "encode"]


class WireError(Exception):
    """The peer broke the protocol or went away."""


def encode(message: Message) -> bytes:
    return json.dumps(to_wire(message), separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


class LineReader:
    """Messages from a socket, one per line; `read()` returns None at a clean end, raises
    WireError for a broken line and ProtocolError for a line that is no message of ours."""

    def __init__(self, sock: socket.socket, max_line: int = MAX_LINE) -> None:
        self.sock = sock
        self.max_line = max_line
        self._buffer = bytearray()

    def read(self) -> Message | None:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return from_wire(decode(line))
            if len(self._buffer) > self.max_line:
                raise WireError(f"a line over {self.max_line} bytes")
            try:
                chunk = self.sock.recv(65536)
            except OSError as exc:
                raise WireError(str(exc)) from None
            if not chunk:
                if self._buffer:
                    raise WireError("the connection ended inside a line")
                return None
            self._buffer += chunk


def decode(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise WireError("a line that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise WireError("a message without a type")
    return message


class QueuedWriter:
    """Sends a socket's messages on a thread of its own, so `send` never blocks its caller
    (the hub holding a session's lock, the app's UI thread). What a peer leaves unread is
    bounded by `max_backlog`: past it, and after `close`, the writer sends what it has and
    hangs up, and `on_done` is called once."""

    def __init__(self, sock: socket.socket, name: str, on_done: Callable[[], None] = lambda: None,
                 max_backlog: int = MAX_BACKLOG) -> None:
        self.sock = sock
        self.on_done = on_done
        self.max_backlog = max_backlog
        self._out: SimpleQueue[bytes | None] = SimpleQueue()
        self._backlog = 0
        self._lock = threading.Lock()
        self.stopped = False
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", SEND_TIMEOUT, 0))
        except OSError:
            pass
        threading.Thread(target=self._write, name=name, daemon=True).start()

    def send(self, message: Message, data: bytes | None = None) -> bool:
        """Queue one message (`data`: its `encode`, when the caller has it already: a message
        sent to many is encoded once); False when the writer has stopped (the peer is gone
        or stalled)."""
        data = encode(message) if data is None else data
        with self._lock:
            if self.stopped:
                return False
            self._backlog += len(data)
            if self._backlog > self.max_backlog:
                self.stopped = True
                self._out.put(None)
                return False
        self._out.put(data)
        return True

    def close(self) -> None:
        """No more messages: what is queued still goes out, then the socket is hung up."""
        with self._lock:
            if self.stopped:
                return
            self.stopped = True
        self._out.put(None)

    def _write(self) -> None:
        while (data := self._out.get()) is not None:
            try:
                self.sock.sendall(data)  # at most SEND_TIMEOUT on a peer that reads nothing
            except OSError:
                break
            with self._lock:
                self._backlog -= len(data)
        with self._lock:
            self.stopped = True
        hang_up(self.sock)
        self.on_done()


def default_board(game: str) -> str:
    """The board of a quick match, as the game declares it."""
    online = get_game(game).online
    return online.default_board if online is not None else ""


def only_online() -> str:
    """Said to a request for a game that is not played online."""
    return f"Only {' and '.join(get_game(key).online.short_title for key in online_games())} are played online."  # type: ignore[union-attr]
