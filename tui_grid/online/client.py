"""A player's app linked to the hub (online.hub): the lobby's news, and online matches shown
as a `MatchFeed` that mirrors the hub's authoritative session.

The mirror is the same engine on the same board, stepped with the joint actions the hub
played, in order: it is the hub's session, tick for tick, so the match screen draws it as
it would a local match. The player's own seat is a `HubSeat`: its keys go to the hub,
which queues them in the real seat. Nobody on this side can pause, single-step or speed
the clock: the hub owns it.
"""

from __future__ import annotations

import os
import socket
import threading
from typing import Any, Callable

from tui_grid.core.agents import Agent, HumanAgent, Placeholder
from tui_grid.core.engine import Engine
from tui_grid.online.wire import LineReader, WireError, encode
from tui_grid.core.live import MatchFeed
from tui_grid.core.match import Match, RoundResult
from tui_grid.core.network import hang_up

Listener = Callable[[dict[str, Any]], None]


class HubClient:
    """The link: `send` messages, and `listen` for what the hub says (called on the
    link's reader thread). Match news goes to the current `HubFeed` first, in order."""

    def __init__(self, sock: socket.socket, listener: Listener | None = None) -> None:
        self.sock = sock
        self.name = ""
        self.lobby: dict[str, Any] = {"players": [], "challenges": [], "matches": []}
        self.feed: HubFeed | None = None
        self._listeners: list[Listener] = [listener] if listener else []  # before the first news
        self._send_lock = threading.Lock()
        self.closed = threading.Event()
        self.send({"t": "hello"})
        self._thread = threading.Thread(target=self._read, name="hub-client", daemon=True)
        self._thread.start()

    def listen(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def send(self, message: dict[str, Any]) -> None:
        if self.closed.is_set():
            return
        try:
            with self._send_lock:
                self.sock.sendall(encode(message))
        except OSError:
            self.close()

    def _read(self) -> None:
        reader = LineReader(self.sock)
        try:
            while True:
                message = reader.read()
                if message is None:
                    break
                self._dispatch(message)
        except (WireError, OSError):
            pass
        finally:
            self.close()
            self._tell({"t": "gone"})

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "welcome":
            self.name = str(message.get("name", ""))
        elif kind == "lobby":
            self.lobby = message
        elif kind == "match":
            if self.feed is not None:
                self.feed.detach()
            try:
                self.feed = HubFeed(self, message)
            except (ValueError, KeyError, TypeError) as exc:  # a board this app cannot load
                self.feed = None
                self.send({"t": "leave"})
                self._tell({"t": "error", "text": f"Cannot show that match: {exc}"})
                return
        elif kind in ("step", "round", "forfeit", "note", "end") and self.feed is not None:
            try:
                self.feed.handle(message)
            except (ValueError, KeyError, TypeError, IndexError) as exc:  # out of step with the hub: stop following
                feed, self.feed = self.feed, None
                feed.note(f"This match can no longer be followed here ({exc}): esc goes back.")
                feed.detach()
                self.send({"t": "leave"})
                return
        self._tell(message)

    def _tell(self, message: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(message)

    def leave_match(self) -> None:
        """The player closed the match's screen: a player concedes, a spectator stops."""
        if self.feed is not None:
            self.feed.detach()
            self.feed = None
        self.send({"t": "leave"})

    def close(self) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        hang_up(self.sock)


#: The environment variable that names the descriptor of the link `serve ssh` handed down.
HUB_FD_VARIABLE = "TUI_GRID_HUB_FD"


def hub_available() -> bool:
    """Whether this app runs in a `serve ssh` session with a link to its hub."""
    return bool(os.environ.get(HUB_FD_VARIABLE))


def hub_from_environment() -> HubClient | None:
    """The link to the hub of the `serve ssh` that started this app, if there is one: the
    descriptor `serve ssh` handed down. Call it once per process (the app keeps the client):
    once closed, the descriptor's number may be another file's. Raises OSError when it
    cannot be used."""
    number = os.environ.get(HUB_FD_VARIABLE)
    if not number:
        return None
    try:
        sock = socket.socket(fileno=int(number))
    except ValueError:
        raise OSError(f"{HUB_FD_VARIABLE} is not a descriptor number") from None
    return HubClient(sock)


class HubSeat(HumanAgent[Any, Any]):
    """This player's seat in an online match: keys go to the hub, which plays them in the
    real seat at its next tick. The mirror never asks this agent: the hub's steps say what
    the seat did."""

    kind = "online"

    def __init__(self, client: HubClient, name: str) -> None:
        super().__init__(name)
        self.client = client

    def push(self, engine: Engine[Any, Any], state: Any, seat: int, action: Any) -> None:
        self.client.send({"t": "key", "action": engine.encode_action(action)})


class HubFeed(MatchFeed[Any, Any]):
    """An online match as the hub plays it, mirrored step by step."""

    advances = False  # the hub starts each round
    sets_deadline = False
    steerable = False  # nobody pauses or speeds the hub's clock
    starter = "The server"

    def __init__(self, client: HubClient, message: dict[str, Any]) -> None:
        from tui_grid.games.registry import get_game

        self.client = client
        self.match_id = int(message["id"])
        self.game = get_game(str(message["game"]))
        self.loaded = self.game.load(str(message["board"]))
        names = [str(name) for name in message["names"]]
        you = message.get("you")
        self.you: int | None = you if isinstance(you, int) and 0 <= you < len(names) else None
        participants: list[Agent[Any, Any]] = [
            HubSeat(client, name) if index == self.you else Placeholder(name) for index, name in enumerate(names)]
        rounds = int(message["rounds"])
        super().__init__(Match(self._engine, participants, rounds, names=names))
        for index, (winner, reason, seating, steps) in enumerate(message.get("results") or []):
            self.match.score.rounds.append(RoundResult(index, tuple(seating), winner, str(reason), int(steps)))
        session = self.match.new_session()
        joints = session.engine.parse_log(str(message.get("log") or ""))
        if joints:
            session.play_steps(joints, notify=False)
        forfeit = message.get("forfeit")
        if forfeit:
            session.forfeit(int(forfeit[0]), str(forfeit[1]))
        self._begin(session)
        self.ended = ""

    def _engine(self, index: int) -> Engine[Any, Any]:
        return self.game.make_engine(self.loaded)

    def handle(self, message: dict[str, Any]) -> None:
        """A step, a new round, a forfeit, a line to show, or the end, from the hub."""
        kind = message["t"]
        session = self.session
        if kind == "step":
            with session.lock:
                joints = session.engine.parse_log(str(message.get("joint", "")), start=session.state)
                for joint in joints:
                    session.tick(joint)
        elif kind == "forfeit":
            session.forfeit(int(message["seat"]), str(message.get("reason", "")))
        elif kind == "round":
            session.close()
            self._begin(self.match.new_session())
        elif kind == "note":
            self.note(str(message.get("text", "")))
        elif kind == "end":
            self.ended = str(message.get("text", ""))
            self.note(self.ended + "  esc goes back to the lobby.")

    def pause(self, paused: bool | None = None) -> bool:
        return False

    def single_step(self) -> None:
        """The hub owns the clock."""

    def describe(self) -> str:
        return f"online match {self.match_id}" + ("" if self.you is not None else " (watching)")

    def detach(self) -> None:
        self.unsubscribe_all()

    def close(self) -> None:
        """The screen closed: the hub hears that this player left (a player concedes)."""
        if self.client.feed is self:
            self.client.leave_match()
