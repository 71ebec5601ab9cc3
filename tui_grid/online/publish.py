"""Publishing a match played elsewhere (the Evasion architect's games) to the hub of a
`serve ssh` running for the same data folder, so its players can watch it from the lobby.

The architect plays exactly as before: the publisher only listens to its sessions and
sends each step to the hub from a thread of its own, with a bounded backlog, so a slow or
vanished hub never holds a game back (publishing just stops). Only a process that can
read the hub's folder (the same user) holds the publishing token.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Callable

from tui_grid.core.engine import Engine
from tui_grid.online.wire import MAX_BACKLOG, encode
from tui_grid.core.match import seating_for
from tui_grid.core.session import Change, Session

TOKEN_FILE = "publish.token"


def find_hub(folder: Path) -> tuple[Path, str] | None:
    """The newest hub socket in `folder` and the token to publish with, if a hub runs."""
    try:
        token = (folder / TOKEN_FILE).read_text().strip()
        sockets = sorted(folder.glob("hub-*.sock"), key=lambda path: path.stat().st_mtime)
    except OSError:
        return None
    return (sockets[-1], token) if sockets and token else None


class HubPublisher:
    """Sends one match's sessions to the hub: `begin` for each new session (round),
    `changed` for every change of it (subscribe it), `close` at the end."""

    def __init__(self, path: Path, token: str, game: str, board_of: Callable[[Engine[Any, Any]], str], names: list[str],
                 rounds: int) -> None:
        """`board_of(engine)`: the board id that makes the same engine (a mirror must play
        by exactly the rules of the first game: step cap and all)."""
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.rounds_begun = 0
        self._out: SimpleQueue[bytes | None] = SimpleQueue()
        self._backlog = 0
        self._lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._write, name="hub-publish", daemon=True).start()
        self.game, self.board_of, self.names, self.rounds = game, board_of, names, rounds
        self._send({"t": "hello", "token": token})

    def _send(self, message: dict[str, Any]) -> None:
        data = encode(message)
        with self._lock:
            if self.stopped:
                return
            self._backlog += len(data)
            if self._backlog > MAX_BACKLOG:  # the hub does not keep up: stop publishing, play on
                self.stopped = True
                self._out.put(None)
                return
        self._out.put(data)

    def _write(self) -> None:
        while (data := self._out.get()) is not None:
            try:
                self.sock.sendall(data)
            except OSError:
                break
            with self._lock:
                self._backlog -= len(data)
        with self._lock:
            self.stopped = True
        self.sock.close()

    def attach(self, server: Any) -> None:
        """Listen to a server that plays sessions (`on_session`, `observers`: the architect)."""
        server.on_session.append(self.begin)
        server.observers.append(self.changed)

    def begin(self, session: Session[Any, Any]) -> None:
        """A new game of the match (the first is the published one)."""
        if self.rounds_begun:
            self._send({"t": "round"})
        else:  # published once its rules are known
            self._send({"t": "publish", "game": self.game, "board": self.board_of(session.engine), "names": self.names,
                        "rounds": self.rounds})
        self.rounds_begun += 1

    def changed(self, session: Session[Any, Any], change: Change[Any]) -> None:
        engine = session.engine
        if change.kind == "step" and session.log:
            self._send({"t": "step", "joint": engine.format_log([session.log[-1]])})
        elif change.kind == "forfeit" and change.events:
            seat = change.events[0].seat
            raw = getattr(change.state, "forfeit", None)  # the engine's own record of why, if it keeps one
            reason = raw[1] if isinstance(raw, tuple) and len(raw) == 2 else change.events[0].text
            self._send({"t": "forfeit", "seat": seat, "reason": str(reason)})
        if change.kind in ("step", "forfeit") and engine.outcome(change.state).over:
            outcome = engine.outcome(change.state)
            seating = seating_for(self.rounds_begun - 1, len(engine.seats), len(engine.seats))
            winner = seating[outcome.winner] if outcome.winner is not None else None
            self._send({"t": "result", "result": [winner, outcome.reason, list(seating), len(session.log)]})

    def note(self, text: str) -> None:
        self._send({"t": "note", "text": text})

    def close(self, text: str = "") -> None:
        self._send({"t": "end", "text": text or "The architect is done."})
        self._out.put(None)
