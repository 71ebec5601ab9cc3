"""Publishing a match played elsewhere (the Evasion architect's games) to the hub of a
`serve ssh` running for the same data folder, so its players can watch it from the lobby.

The architect plays exactly as before: the publisher only listens to its sessions and
sends each step to the hub from a thread of its own, with a bounded backlog, so a slow or
vanished hub never holds a game back (publishing just stops). Only a process that can
read the hub's folder (the same user) holds the publishing token.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Callable

from tui_grid.core.engine import Engine
from tui_grid.core.match import seating_for
from tui_grid.core.session import Change, Session
from tui_grid.online.protocol import MAX_NAME, MAX_TEXT, End, Hello, Message, Note, Publish, Result, Round, change_message
from tui_grid.online.wire import QueuedWriter

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
        self.writer = QueuedWriter(self.sock, "hub-publish")  # a hub that does not keep up: publishing stops
        self.game, self.board_of, self.names, self.rounds = game, board_of, names, rounds
        self._send(Hello(token))

    @property
    def stopped(self) -> bool:
        return self.writer.stopped

    def _send(self, message: Message) -> None:
        self.writer.send(message)

    def attach(self, server: Any) -> None:
        """Listen to a server that plays sessions (`on_session`, `observers`: the architect)."""
        server.on_session.append(self.begin)
        server.observers.append(self.changed)

    def begin(self, session: Session[Any, Any]) -> None:
        """A new game of the match (the first is the published one)."""
        if self.rounds_begun:
            self._send(Round())
        else:  # published once its rules are known
            self._send(Publish(self.game, self.board_of(session.engine), tuple(name[:MAX_NAME] for name in self.names), self.rounds))
        self.rounds_begun += 1

    def changed(self, session: Session[Any, Any], change: Change[Any]) -> None:
        engine = session.engine
        message = change_message(session, change)
        if message is not None:
            self._send(message)
        if change.ends_game(engine):
            outcome = engine.outcome(change.state)
            seating = seating_for(self.rounds_begun - 1, len(engine.seats), len(engine.seats))
            winner = seating[outcome.winner] if outcome.winner is not None else None
            self._send(Result(winner, outcome, tuple(seating), len(session.log), session.forfeited))

    def note(self, text: str) -> None:
        self._send(Note(text[:MAX_TEXT]))

    def close(self, text: str = "") -> None:
        self._send(End((text or "The architect is done.")[:MAX_TEXT]))
        self.writer.close()
