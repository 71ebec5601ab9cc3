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
from dataclasses import dataclass
from typing import Any, Callable, Union

from tui_grid.core.agents import Agent, HumanAgent, Placeholder
from tui_grid.core.engine import Engine
from tui_grid.core.live import MatchFeed
from tui_grid.core.match import Match, RoundResult, places_by_participant
from tui_grid.core.network import hang_up
from tui_grid.games.registry import get_game
from tui_grid.core.outcome import Failure
from tui_grid.online.protocol import (Bye, Concede, End, Error, Forfeit, Hello, Key, Leave, Lobby, MatchStart, Message, Note,
                                      ProtocolError, Rematch, Round, Step, Welcome)
from tui_grid.online.wire import LineReader, QueuedWriter, WireError

@dataclass(frozen=True)
class Gone:
    """Said to the listeners when the link to the hub ends (never on the wire)."""


News = Union[Message, Gone]
Listener = Callable[[News], None]


class HubClient:
    """The link: `send` messages (queued: the UI thread never waits on the socket), and
    `listen` for what the hub says (called on the link's reader thread). Match news goes
    to the current `HubFeed` first, in order."""

    def __init__(self, sock: socket.socket, listener: Listener | None = None) -> None:
        self.sock = sock
        self.name = ""
        self.welcome: Welcome | None = None
        #: Why the hub closed the link, when it said (a login from another session).
        self.farewell = ""
        self.lobby = Lobby()
        self.feed: HubFeed | None = None
        self._listeners: list[Listener] = [listener] if listener else []  # before the first news
        self.closed = threading.Event()
        self.writer = QueuedWriter(sock, "hub-client-write", on_done=self.close)
        self.send(Hello())
        self._thread = threading.Thread(target=self._read, name="hub-client", daemon=True)
        self._thread.start()

    def listen(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def send(self, message: Message) -> None:
        if not self.closed.is_set():
            self.writer.send(message)

    def _read(self) -> None:
        reader = LineReader(self.sock)
        try:
            while True:
                try:
                    message = reader.read()
                except ProtocolError:
                    continue  # a message this app does not know: the hub is newer; nothing to do with it
                if message is None:
                    break
                self._dispatch(message)
        except (WireError, OSError):
            pass
        finally:
            self.close()
            self._tell(Gone())

    def _dispatch(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self.name, self.welcome = message.name, message
        elif isinstance(message, Bye):
            self.farewell = message.text
        elif isinstance(message, Lobby):
            self.lobby = message
        elif isinstance(message, MatchStart):
            if self.feed is not None:
                self.feed.detach()
            try:
                self.feed = HubFeed(self, message)
            except (ValueError, KeyError, TypeError) as exc:  # a board this app cannot load
                self.feed = None
                self.send(Leave())
                self._tell(Error(f"Cannot show that match: {exc}"))
                return
        elif isinstance(message, Error) and self.feed is not None:
            self.feed.note(message.text)  # said where the player is: on the match's screen (the lobby hears it too)
        elif isinstance(message, (Step, Round, Forfeit, Note, End)) and self.feed is not None:
            try:
                self.feed.handle(message)
            except (ValueError, KeyError, TypeError, IndexError) as exc:  # out of step with the hub: stop following
                feed, self.feed = self.feed, None
                feed.note(f"This match cannot be followed here ({exc}): esc goes back.")
                feed.detach()
                self.send(Leave())
                return
        self._tell(message)

    def _tell(self, message: News) -> None:
        for listener in list(self._listeners):
            listener(message)

    def ask(self, message: Message, answer: Callable[[News], bool], timeout: float) -> News | None:
        """Send `message` and wait (at most `timeout` seconds) for the first news that
        `answer` accepts: the reply, or an Error; None when none came in time."""
        heard: list[News] = []
        came = threading.Event()

        def hear(news: News) -> None:
            if not came.is_set() and (answer(news) or isinstance(news, (Error, Gone))):
                heard.append(news)
                came.set()

        stop = self.listen(hear)
        try:
            self.send(message)
            came.wait(timeout)
        finally:
            stop()
        return heard[0] if heard else None

    def leave_match(self) -> None:
        """The player closed the match's screen: a player concedes, a spectator stops."""
        if self.feed is not None:
            self.feed.detach()
            self.feed = None
        self.send(Leave())

    def close(self) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        self.writer.close()
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
        self.client.send(Key(engine.encode_action(action)))


class HubFeed(MatchFeed[Any, Any]):
    """An online match as the hub plays it, mirrored step by step."""

    advances = False  # the hub starts each round
    sets_deadline = False
    steerable = False  # nobody pauses or speeds the hub's clock
    starter = "The server"

    def __init__(self, client: HubClient, start: MatchStart) -> None:
        self.client = client
        self.match_id = start.id
        self.game = get_game(start.game)
        self.loaded = self.game.load(start.board)
        names = list(start.names)
        self.you: int | None = start.you
        self.rematches = start.rematch and start.you is not None
        participants: list[Agent[Any, Any]] = [
            HubSeat(client, name) if index == self.you else Placeholder(name) for index, name in enumerate(names)]
        super().__init__(Match(self._engine, participants, start.rounds, names=names))
        for index, result in enumerate(start.results):
            self.match.score.rounds.append(RoundResult(index, result.seating, result.winner, result.outcome, result.steps,
                                                       forfeit_seat=result.forfeit_seat,
                                                       places=places_by_participant(result.outcome, result.seating)))
        session = self.match.new_session()
        words = start.log.split()
        played = 0
        for forfeit in sorted(start.earlier, key=lambda f: f.at or 0):  # the steps up to each, then it
            at = min(len(words), max(played, forfeit.at or 0))
            self._replay(session, words[played:at])
            session.forfeit(forfeit.seat, forfeit.failure)
            played = at
        self._replay(session, words[played:])
        if start.forfeit is not None:
            session.forfeit(start.forfeit.seat, start.forfeit.failure)
        self._begin(session)

    @staticmethod
    def _replay(session: Any, words: list[str]) -> None:
        joints = session.engine.parse_log(" ".join(words), start=session.state)
        if joints:
            session.play_steps(joints, notify=False)

    def _engine(self, index: int) -> Engine[Any, Any]:
        return self.game.make_engine(self.loaded)

    def handle(self, message: Message) -> None:
        """A step, a new round, a forfeit, a line to show, or the end, from the hub. A step
        is decoded for the seats that act now and played once."""
        session = self.session
        if isinstance(message, Step):
            with session.lock:
                session.tick(session.engine.parse_step(message.joint, session.state))
        elif isinstance(message, Forfeit):
            session.forfeit(message.seat, message.failure)  # in an arena the others play on
        elif isinstance(message, Round):
            session.close()
            self._begin(self.match.new_session())
        elif isinstance(message, Note):
            self.note(message.text)
        elif isinstance(message, End):
            self.ended = message.text
            self.note(self.ended + "  esc goes back to the lobby.")

    def pause(self, paused: bool | None = None) -> bool:
        return False

    def offer_rematch(self) -> None:
        self.client.send(Rematch())

    def concede(self, seat: int, failure: Failure) -> None:
        """The hub plays the match: it is asked to forfeit this player's seat of the round."""
        self.client.send(Concede())

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
