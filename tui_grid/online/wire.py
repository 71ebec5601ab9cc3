"""The hub's wire: one JSON object per line over a Unix socket, both ways, bounded.

Shared by the hub (in the `serve ssh` process) and each player's app. Every line is read
with a size limit and checked for its shape before anything trusts it: a message that is
too long, not JSON or not an object ends the connection, and a field of the wrong type
is the reader's to refuse (`text_field`, `int_field`).
"""

from __future__ import annotations

import json
import socket
from typing import Any

from tui_grid.games.registry import get_game

#: The longest line either side accepts (a spectator's first round log fits easily).
MAX_LINE = 1 << 20
#: A quick match's rounds (two: each player plays both seats), and the most a challenge may ask.
QUICK_ROUNDS = 2
MAX_ROUNDS = 9
#: Bytes a peer may leave unread before it is dropped (a stalled client cannot make the
#: hub hold the whole match for it).
MAX_BACKLOG = 4 << 20


class WireError(Exception):
    """The peer broke the protocol or went away."""


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


class LineReader:
    """Messages from a socket, one per line; `read()` returns None at a clean end."""

    def __init__(self, sock: socket.socket, max_line: int = MAX_LINE) -> None:
        self.sock = sock
        self.max_line = max_line
        self._buffer = bytearray()

    def read(self) -> dict[str, Any] | None:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return decode(line)
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


def text_field(message: dict[str, Any], key: str, most: int = 200) -> str | None:
    """A string field of at most `most` characters, or None."""
    value = message.get(key)
    return value if isinstance(value, str) and len(value) <= most else None


def int_field(message: dict[str, Any], key: str, low: int, high: int) -> int | None:
    """An integer field within [low, high], or None (a bool is no integer here)."""
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def default_board(game: str) -> str:
    """The board of a quick match, as the game declares it."""
    online = get_game(game).online
    return online.default_board if online is not None else ""
