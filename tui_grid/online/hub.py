"""The hub: the online half of `tui-grid serve ssh`. Who is online and what they are doing,
open challenges, the quick-match queue, and the matches between players at different
terminals.

Each player's app (its own process on its own terminal) is linked to the hub by the SSH
server: `admit` makes a connected socket pair, starts the hub's end as a link bound to the
player's name, and the server hands the other end to the app as an inherited descriptor.
No secret travels in an environment or a file. The hub's Unix socket in the server's data
folder is for publishers only (the Evasion architect), with the publishing token. A match runs here, never in either player's app: one `LiveMatch` whose
driver owns the clock, with a `HumanAgent` per player. Each player's keys join their own
seat's queue, and the driver takes what is queued at each tick, so one player's network
delay never moves the other's cycle. Every step is sent to the players and spectators as
the joint action in the engine's text encoding; their apps replay it on a mirror of the
same session (online.client), so every screen shows the same state at the same tick.

Everything a player's app sends is checked as hostile: line length, JSON shape, field
types, the game and board (a catalog name or a game id, never a path), a rate limit per
link, and a cap on what a link may leave unread.
"""

from __future__ import annotations

import itertools
import os
import secrets
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tui_grid.core.conductor import MatchEnded
from tui_grid.core.loop import Loop
from tui_grid.core.match import Ending
from tui_grid.core.network import hang_up
from tui_grid.core.text import printable
from tui_grid.games.registry import get_game, online_games
from tui_grid.online.arena_room import CYCLES as ARENA_CYCLES
from tui_grid.online.arena_room import GAME as ARENA_GAME
from tui_grid.online.arena_room import ArenaRoom
from tui_grid.online.accounts import abort_words, aborted, match_record, ratings_of
from tui_grid.online.crossing import IDS_PER_SERVER, Crossing
from tui_grid.online.matches import HostedMatch, RelayedMatch, WatchedMatch
from tui_grid.online.protocol import (QUICK_ROUNDS, Answer, Arena, Bye, Challenge, Concede, Doing, End, Error, GameRating, Hello,
                                      Key, Leave, Lobby, LobbyChallenge, LobbyPlayer, Message, Note, ProtocolError, Publish, Queue,
                                      Rematch, Result, Unqueue, Watch, Welcome, Withdraw)
from tui_grid.online.records import Store
from tui_grid.online.store_desk import STORE_MESSAGES, StoreDesk
from tui_grid.online.publish import TOKEN_FILE
from tui_grid.online.wire import LineReader, QueuedWriter, WireError, default_board, encode, only_online

#: Puzzle solves a link may have kept per second (and in a burst): more are refused.
SOLVES_PER_SECOND = 1.0
SOLVES_BURST = 5.0
#: Open challenges one player may have made at once.
MAX_CHALLENGES = 5
#: Messages a link may send per second (and in a burst): more are dropped.
RATE_PER_SECOND = 40.0
RATE_BURST = 80.0
#: What a lobby shows at most of each list.
MAX_LISTED = 200
#: Seconds the lobby waits for more changes before it is sent (a burst of changes is one
#: lobby), and it is sent only when it differs from the last one sent.
LOBBY_SECONDS = 0.05
#: The longest folder the hub's socket goes in (else a private one in the temporary folder).
MAX_SOCKET_FOLDER = 80
#: A spectator's seat in `join`.
SPECTATOR = None
#: Matches with a builtin bot in them that the server runs at once, and that one player may
#: start: a bot thinks on the server's cores, not in the player's session.
MAX_BOT_MATCHES = 4
BOT_MATCHES_PER_PLAYER = 1


@dataclass(frozen=True)
class Pace:
    """The hub's clocks, injectable for tests: the countdown before each round (counts and
    seconds per count), the pause between rounds, the idle limit in a real-time round, and
    the tick (None: the engine's pace for a person steering)."""

    countdown: int = 3
    beat: float = 1.0
    between_rounds: float = 3.0
    idle_seconds: float = 60.0
    tick_seconds: float | None = None
    bot_time_ms: float = 100.0


class RateLimit:
    """A token bucket: `allow()` is False once a link sends faster than it may."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Link:
    """One player's app (or a publisher), linked: a reader thread for what it sends and a
    queued writer for what it is sent, so a stalled app never blocks a match."""

    def __init__(self, hub: Hub, sock: socket.socket, bound: str = "", guest: bool = False, player_id: int | None = None,
                 returning: bool = False) -> None:
        self.hub = hub
        self.sock = sock
        self.name = ""
        #: The player this link is for, when the SSH server made it (`Hub.admit`); a link
        #: from the hub's socket is a publisher's, or nobody's. An account has its store id.
        self.bound = bound
        self.guest = guest
        self.player_id = player_id
        self.returning = returning
        self.ratings: tuple[GameRating, ...] = ()
        #: A lobby changed while this player was in a match or watching one (and was not
        #: sent it: their app shows the match): the lobby is sent as soon as they are back.
        self.missed_lobby = False
        #: Puzzle solves this link may have kept, a second apart (each is a write to the store).
        self.solves = RateLimit(SOLVES_PER_SECOND, SOLVES_BURST)
        self.doing = "in the menu"
        self.match: HostedMatch | None = None
        self.participant: int | None = None
        self.watching: HostedMatch | RelayedMatch | None = None
        self.publisher = False  # an architect publishing its games, not a player
        #: The server hosting the match this player is in, when it is another (federation).
        self.remote_host: int | None = None
        self.limit = RateLimit(RATE_PER_SECOND, RATE_BURST)
        self.closed = threading.Event()
        # A stalled app is given up on by its writer, never by a sender: a sender may hold
        # a session's lock, and ending a link takes the hub's.
        self.writer = QueuedWriter(sock, "hub-link-write", on_done=self.end)

    def start(self) -> None:
        threading.Thread(target=self._read, name="hub-link-read", daemon=True).start()

    def send(self, message: Message, data: bytes | None = None) -> None:
        """`message` to this app (`data`: its encoding, for a message sent to many)."""
        if not self.closed.is_set():
            self.writer.send(message, data)

    def _read(self) -> None:
        reader = LineReader(self.sock)
        try:
            while not self.closed.is_set():
                try:
                    message = reader.read()
                except ProtocolError as exc:  # a message of ours with a field out of shape
                    if not self.publisher and self.limit.allow():
                        self.send(Error(f"Not understood: {printable(exc, limit=120)}."))
                    continue
                if message is None:
                    break
                if not self.publisher and not self.limit.allow():
                    continue  # a player flooding: dropped, not the hub's problem (an architect's steps all count)
                if not self.hub.receive(self, message):
                    break
        except WireError:
            pass
        finally:
            self.end()

    def end(self) -> None:
        """No more news for this link: what is queued still goes out (a last error), then
        the writer hangs up."""
        if self.closed.is_set():
            return
        self.closed.set()
        self.writer.close()
        self.hub.link_closed(self)

    def close(self) -> None:
        """End the link now."""
        self.end()
        hang_up(self.sock)


class Hub:
    """The lobby and its matches. `admit` a session's player (the SSH server does, and
    passes the token to the app); the app links with it."""

    def __init__(self, folder: Path, *, pace: Pace | None = None, log: Callable[[str], None] = lambda text: None,
                 store: Store | None = None, arena_cycles: int = ARENA_CYCLES, federation: str | None = None) -> None:
        """`store` keeps accounts' ratings and every finished match (none: nothing is kept);
        `arena_cycles`: the cycles in the arena room's rounds; `federation`: the Redis URL
        that servers sharing one lobby meet at (online.federation; none: this server alone)."""
        #: Whether the hub made its folder (the one given had too long a path for a Unix
        #: socket's, about 100 bytes); it removes the folder it made when it closes.
        self.own_folder = len(str(folder)) > MAX_SOCKET_FOLDER
        if self.own_folder:
            folder = Path(tempfile.mkdtemp(prefix="tui-grid-hub-"))
        self.folder = folder
        self.path = folder / f"hub-{os.getpid()}.sock"
        self.pace = pace or Pace()
        self.log = log
        self.lock = threading.RLock()
        self.links: dict[str, Link] = {}
        self.challenges: dict[int, LobbyChallenge] = {}  # open ones, as the lobby lists them
        self.queue: dict[str, Link] = {}
        self.matches: dict[int, WatchedMatch] = {}
        self.publish_token = secrets.token_hex(16)  # in the hub's folder, for the same user's architect
        self.publishers = itertools.count(1)
        self._ids = itertools.count(1)
        self._match_ids = itertools.count(1)  # matches are numbered in order, apart from challenges
        #: Requests that read or write the store are answered there, off the hub's lock.
        self.desk = StoreDesk(store, self.log)
        #: name -> (the opponent, the game, board, rounds, rated, the participants in order) of their last match.
        self.last_match: dict[str, tuple[str, str, str, int, bool, tuple[str, ...]]] = {}
        #: A rematch challenge's seats, by name in order (the last match's, swapped).
        self.rematch_seats: dict[int, tuple[str, ...]] = {}
        #: This server's part in several servers sharing one lobby (none: it is alone).
        self.crossing = Crossing(self, federation) if federation else None
        #: The Tron arena room, while anybody rides in it or watches it.
        self.arena: ArenaRoom | None = None
        self.arena_cycles = arena_cycles
        #: Where every hosted match's table runs: countdowns, rounds, idling, verdicts.
        self.loop = Loop(on_error=lambda exc: self.log(f"hub loop: {type(exc).__name__}: {exc}"))
        self._listener: socket.socket | None = None
        self._threads: list[threading.Thread] = []  # accepting links, sending lobbies: joined by close
        self._stopped = threading.Event()
        self._lobby_dirty = threading.Event()
        self._last_lobby: Lobby | None = None
        self._handlers: dict[type, Callable[[Link, Any], str | None]] = {
            Doing: self._on_doing, Challenge: self._on_challenge, Answer: self._on_answer, Withdraw: self._on_withdraw,
            Queue: self._on_queue, Unqueue: self._on_unqueue, Arena: self._on_arena, Watch: self._on_watch, Key: self._on_key, Leave: self._on_leave,
            Rematch: self._on_rematch, Concede: self._on_concede}

    @property
    def store(self) -> Store | None:
        """Where accounts, ratings and finished matches are kept (None: nowhere)."""
        return self.desk.store

    @store.setter
    def store(self, store: Store | None) -> None:
        self.desk.store = store

    # --- life -------------------------------------------------------------------------------
    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o700)
        remove_stale_sockets(self.folder)
        self.path.unlink(missing_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(self.path))
        self.path.chmod(0o600)
        listener.listen(64)
        self._listener = listener
        token_file = self.folder / TOKEN_FILE
        fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w") as stream:
            stream.write(self.publish_token + "\n")
        if self.crossing is not None:
            number = self.crossing.start()  # FederationError: the server does not start
            self._match_ids = itertools.count(number * IDS_PER_SERVER + 1)  # unique across the servers
            self._ids = itertools.count(number * IDS_PER_SERVER + 1)
        self.loop.start("hub-loop")
        self._threads = [threading.Thread(target=self._accept, name="hub-accept", daemon=True),
                         threading.Thread(target=self._send_lobbies, name="hub-lobby", daemon=True)]
        for thread in self._threads:
            thread.start()

    def _accept(self) -> None:
        assert self._listener is not None
        while not self._stopped.is_set():
            try:
                sock, _ = self._listener.accept()
            except OSError:
                break
            Link(self, sock).start()

    def close(self) -> None:
        self._stopped.set()
        self._lobby_dirty.set()
        if self._listener is not None:
            hang_up(self._listener)  # a close alone leaves the accepting thread blocked in accept
        for thread in self._threads:
            thread.join(2.0)
        hosted = [match for match in list(self.matches.values()) if isinstance(match, HostedMatch)]
        self.loop.call_and_wait(lambda: [match.conductor.stop("the server stopped") for match in hosted], 2.0)
        self.loop.close()
        self.desk.close()
        if self.crossing is not None:
            self.crossing.close()
        for link in list(self.links.values()):
            link.close()
        self.path.unlink(missing_ok=True)
        (self.folder / TOKEN_FILE).unlink(missing_ok=True)
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def admit(self, name: str, guest: bool = False, player_id: int | None = None,
              returning: bool = False) -> tuple[socket.socket, Link]:
        """A session's player: the app's end of a new link (to hand down to the app), and
        the hub's end, bound to `name` (an account's `player_id`; `returning`: seen before),
        to `forget` when the session ends."""
        theirs, ours = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        link = Link(self, ours, bound=name, guest=guest, player_id=player_id, returning=returning)
        link.start()
        return theirs, link

    def forget(self, link: Link) -> None:
        """The session ended: its link is closed (a match it plays in is forfeited)."""
        link.close()

    # --- messages ------------------------------------------------------------------------------
    def receive(self, link: Link, message: Message) -> bool:
        """One message from a link; False ends the link. The store is never called under the
        hub's lock: a store that hangs holds up only the asker (`StoreDesk`)."""
        if not link.name and isinstance(message, Hello):
            ratings = self._ratings(link) if link.bound else ()  # before the lock
            with self.lock:
                return self._hello(link, message, ratings)
        if link.name and not link.publisher and isinstance(message, STORE_MESSAGES):
            self.desk.ask(link, message)
            return True
        with self.lock:
            if not link.name:
                return False
            if link.publisher:
                return self._published(link, message)
            if self.crossing is not None and self.crossing.forwarded(link, message):
                return True
            handler = self._handlers.get(type(message))
            if handler is None:
                return True
            error = handler(link, message)
            if error:
                link.send(Error(error))
            self.lobby_changed()
        return True

    def _hello(self, link: Link, hello: Hello, ratings: tuple[GameRating, ...] = ()) -> bool:
        if not link.bound and secrets.compare_digest(hello.token, self.publish_token):
            link.name, link.publisher = f"publisher {next(self.publishers)}", True
            return True
        name = link.bound
        if not name:
            link.send(Error("This session is not known to the server."))
            return False
        old = self.links.get(name)
        link.name = name
        self.links[name] = link
        if old is not None:  # told why, then closed once what is queued has gone out
            old.send(Bye(f"{name} logged in again from another session: this session's link to the lobby is closed."))
            old.end()
        link.ratings = ratings
        link.send(Welcome(name, online_games(), link.guest, link.returning, link.ratings))
        link.send(self.lobby())  # the lobby as it is (the others hear of this player with the next change)
        self.lobby_changed()
        return True

    def _published(self, link: Link, message: Message) -> bool:
        """A publisher's message: `Publish` once, then its match's news."""
        match = link.watching
        if isinstance(message, Publish) and match is None:
            if message.game not in online_games() or check_board(message.game, message.board):
                return False
            link.watching = RelayedMatch(self, next(self._match_ids), link, message)
            self.matches[link.watching.id] = link.watching
            self.log(f"match {link.watching.id} published: {message.game} {message.board} {' vs '.join(link.watching.names)}")
            self.lobby_changed()
            return True
        if not isinstance(match, RelayedMatch):
            return False
        verdict = match.relay(message)
        if isinstance(message, (Result, End)):
            self.lobby_changed()
        if verdict == "end":
            self.match_ended(match)
            link.watching = None
            return True
        return verdict is None

    def _on_doing(self, link: Link, message: Doing) -> str | None:
        link.doing = printable(message.doing, limit=40)
        return None

    def _on_challenge(self, link: Link, message: Challenge) -> str | None:
        to, game = message.to, message.game
        if game not in online_games():
            return only_online()
        if self.busy(link):
            return "You are in a match already."
        board = message.board or default_board(game)
        error = check_board(game, board)
        if error:
            return error
        if to.startswith("bot:"):
            error = self._bot_match_refused(link)
            if error:
                return error
            self._stop_watching(link)  # a bot match nobody watches any more stops
            if message.seat_as.startswith("bot:"):  # two bots, and this player watches them
                started = self.start_match(game, board, message.rounds, [message.seat_as[4:], to[4:]], started_by=link)
                if isinstance(started, str):
                    return started
                link.watching = started
                started.join(link, SPECTATOR)
                return None
            started = self.start_match(game, board, message.rounds, [link, to[4:]], started_by=link, rated=message.rated)
            return started if isinstance(started, str) else None
        other = self.links.get(to)
        remote = self.crossing is not None and self.crossing.knows(to)
        if (other is None and not remote) or other is link:
            return f"{printable(to)} is not online." if other is None else "Challenge somebody else."
        mine = [c for c in self.challenges.values() if c.by == link.name]
        if len(mine) >= MAX_CHALLENGES:
            return f"You have {MAX_CHALLENGES} open challenges: wait for answers."
        if any(c.by == link.name and c.to == to for c in mine):
            return f"You have challenged {to} already."
        challenge = LobbyChallenge(next(self._ids), link.name, to, game, board, message.rounds, message.rated)
        self.challenges[challenge.id] = challenge
        return None

    def _on_answer(self, link: Link, message: Answer) -> str | None:
        challenge = self.challenges.get(message.id)
        if challenge is None and self.crossing is not None and self.crossing.answer(link, message):
            return None  # the challenger's server answers (and hosts the match)
        if challenge is None or challenge.to != link.name:
            return "That challenge is gone."
        del self.challenges[challenge.id]
        order = self.rematch_seats.pop(challenge.id, (challenge.by, link.name))
        by = self.links.get(challenge.by)
        if not message.accept:
            if by is not None:
                by.send(Error(f"{link.name} declined your {challenge.game} challenge."))
            return None
        if by is None:
            return f"{challenge.by} has left."
        if self.busy(by) or self.busy(link):
            return f"{challenge.by} is in a match already." if self.busy(by) else "You are in a match already."
        seats: list[Link | str] = [by if name == by.name else link for name in order]
        started = self.start_match(challenge.game, challenge.board, challenge.rounds, seats, rated=challenge.rated)
        return started if isinstance(started, str) else None

    def _on_withdraw(self, link: Link, message: Withdraw) -> str | None:
        challenge = self.challenges.get(message.id)
        if challenge is not None and challenge.by == link.name:
            del self.challenges[challenge.id]
            self.rematch_seats.pop(challenge.id, None)
        return None

    def _on_queue(self, link: Link, message: Queue) -> str | None:
        game = message.game
        if game not in online_games():
            return only_online()
        if self.busy(link):
            return "You are in a match already."
        self._unqueue(link)
        if self.crossing is not None:
            self.crossing.queue(link, game)
            return None
        waiting = self.queue.pop(game, None)
        if waiting is None or waiting.closed.is_set():
            self.queue[game] = link
            return None
        started = self.start_match(game, default_board(game), QUICK_ROUNDS, [waiting, link])
        return started if isinstance(started, str) else None

    def _on_unqueue(self, link: Link, message: Unqueue) -> str | None:
        self._unqueue(link)
        return None

    def _on_watch(self, link: Link, message: Watch) -> str | None:
        match = self.matches.get(message.id)
        if match is None and self.crossing is not None and not self.busy(link) and self.crossing.host_of(message.id) is not None:
            self._stop_watching(link)
            self.crossing.watch(link, message)  # the host server takes it from here (a MatchStart, or an Error)
            return None
        if match is None:
            return "That match is over."
        if self.busy(link):
            return "You are in a match already."
        self._stop_watching(link)
        link.watching = match
        match.join(link, SPECTATOR)
        if isinstance(match, HostedMatch) and match.room is not None:
            match.room.watch(link)  # an arena round: the rounds after it too
        return None

    # --- the arena room ----------------------------------------------------------------------------
    def _on_arena(self, link: Link, message: Arena) -> str | None:
        if ARENA_GAME not in online_games():
            return only_online()
        if self.busy(link):
            return "You are in a match already."
        self._unqueue(link)
        self._withdraw_all(link)
        if self.arena is None or self.arena.closed:
            self.arena = ArenaRoom(self, self.arena_cycles)
        link.send(Note(self.arena.ride(link)))
        return None

    def start_arena_round(self, room: ArenaRoom, seats: list[Link | str]) -> HostedMatch | str:
        """A round of the arena room, as a match of one round (unrated, kept nowhere)."""
        return self.start_match(ARENA_GAME, room.board, 1, seats, rated=False, room=room)

    def arena_round_over(self, match: HostedMatch) -> str:
        """An arena round ended (on the hub's loop): the room's words for its end."""
        assert match.room is not None
        with self.lock:
            words = match.room.round_over(match)
            self.log(f"arena round {match.room.rounds}: {match.verdict_text()}")
            return words

    def arena_closed(self, room: ArenaRoom) -> None:
        if self.arena is room:
            self.arena = None

    def _on_key(self, link: Link, message: Key) -> str | None:
        if link.match is not None:
            link.match.key(link, message.action)
        return None

    def _on_concede(self, link: Link, message: Concede) -> str | None:
        if link.match is not None:
            link.match.concede(link)
        return None

    def _on_leave(self, link: Link, message: Leave) -> str | None:
        self._leave(link, Ending.LEFT)
        return None

    def _leave(self, link: Link, ending: Ending) -> None:
        """The link leaves the queue, what it watches, and the match it plays (handing it to
        the other player: `ending` says how it went), and the arena room."""
        self._unqueue(link)
        self._stop_watching(link)
        if self.arena is not None:
            self.arena.leave(link)
        if link.match is not None:
            match, link.match, link.participant = link.match, None, None
            match.leave(link, ending)

    # --- matches ----------------------------------------------------------------------------------
    def busy(self, link: Link) -> bool:
        return link.match is not None or link.remote_host is not None

    def _bot_match_refused(self, link: Link) -> str | None:
        """Why `link` may not start a bot match now, if it may not."""
        # The one this link alone watches stops when it starts another: not counted.
        running = [m for m in self.matches.values() if isinstance(m, HostedMatch) and m.has_bots and not m.stopping
                   and not m.ended and not (m is link.watching and m.watchers == [link])]
        if sum(1 for m in running if m.started_by is link) >= BOT_MATCHES_PER_PLAYER:
            return "A bot match you started is still running: one at a time."
        if len(running) >= MAX_BOT_MATCHES:
            return f"The server runs {MAX_BOT_MATCHES} bot matches already: try again soon."
        return None

    def start_match(self, game: str, board: str, rounds: int, seats: list[Link | str], *,
               started_by: Link | None = None, rated: bool = True, room: ArenaRoom | None = None) -> HostedMatch | str:
        """The new match, started; or why it could not be."""
        levels = get_game(game).bot_levels
        for level in seats:
            if isinstance(level, str) and level not in levels:
                return f"No {printable(level)} bot: {', '.join(levels)}."
        match = HostedMatch(self, next(self._match_ids), game, board, rounds, seats, started_by, rated, room)
        self.matches[match.id] = match
        for participant, who in enumerate(seats):
            if not isinstance(who, str):  # a Link, or a RemoteLink
                self._unqueue(who)
                self._stop_watching(who)
                self._withdraw_all(who)
                who.match, who.participant = match, participant
                match.join(who, participant)
        self.log(f"match {match.id} start: {game} {board} {' vs '.join(match.names)}")
        match.start()
        return match

    # --- accounts ----------------------------------------------------------------------------------
    def _ratings(self, link: Link) -> tuple[GameRating, ...]:
        if self.store is None or link.player_id is None:
            return ()
        try:
            return ratings_of(self.store, link.player_id, online_games())
        except Exception as exc:  # a store that fails is said in the log; the lobby goes on
            self.log(f"store: ratings of {link.name}: {type(exc).__name__}: {exc}")
            return ()

    def record(self, match: HostedMatch, ended: MatchEnded) -> str:
        """Keep a finished match and its ratings (one transaction in the store), and tell
        its players' lobbies their new ratings; the verdict to announce (an abort's own).
        On the hub's loop."""
        conductor = match.conductor
        score = match.feed.match.score
        counts = not aborted(score, conductor.ending)
        verdict = ended.text if counts else abort_words(conductor.detail)
        with self.lock:
            names = [link.name if link is not None else "" for link in match.players]
            for index, name in enumerate(names):
                others = [n for i, n in enumerate(match.names) if i != index]
                if name and len(others) == 1 and not match.has_bots:
                    self.last_match[name] = (others[0], match.game_key, match.board, match.rounds, match.rated, match.names)
                elif name:
                    self.last_match.pop(name, None)  # a bot's match: nobody to offer a rematch
        if self.store is None:
            return verdict
        record = match_record(match.game_key, match.board, match.participants, score, match.rounds, conductor.ending,
                              ended.verdict.winner if counts else None, conductor.ended_by, verdict, match.started,
                              time.time(), rated=match.rated, counts=counts)
        try:
            stored = self.store.record_match(record)
        except Exception as exc:
            self.log(f"store: match {match.id} not kept: {type(exc).__name__}: {exc}")
            return verdict
        self.log(f"match {match.id} kept as game {stored}{'' if counts else ' (aborted: it counts for nobody)'}")
        with self.lock:
            players = [link for link in self.links.values()
                       if link.player_id is not None and any(p.player_id == link.player_id for p in match.participants)]
        ratings = [self._ratings(link) for link in players]  # the store, outside the lock
        with self.lock:
            for link, rating in zip(players, ratings):
                link.ratings = rating
            self.lobby_changed()
        return verdict

    def _on_rematch(self, link: Link, message: Rematch) -> str | None:
        """Offer the last opponent a rematch, seats swapped; or take the one they offered."""
        last = self.last_match.get(link.name)
        if last is None:
            return "No match to play again: challenge a player from the lobby."
        other_name, game, board, rounds, rated, order = last
        offered = next((c for c in self.challenges.values() if c.rematch and c.by == other_name and c.to == link.name), None)
        if offered is not None:
            return self._on_answer(link, Answer(offered.id, True))
        other = self.links.get(other_name)
        if other is None:
            return f"{other_name} has left."
        if self.busy(link) or self.busy(other):
            return "You are in a match already." if self.busy(link) else f"{other_name} is in a match already."
        if any(c.rematch and c.by == link.name and c.to == other_name for c in self.challenges.values()):
            return f"You offered {other_name} a rematch already: waiting for an answer."
        challenge = LobbyChallenge(next(self._ids), link.name, other_name, game, board, rounds, rated, rematch=True)
        self.challenges[challenge.id] = challenge
        self.rematch_seats[challenge.id] = tuple(reversed(order))
        other.send(Note(f"{link.name} offers a rematch (seats swap): m accepts."))
        return None

    def match_ended(self, match: HostedMatch | RelayedMatch) -> None:
        with self.lock:
            self.matches.pop(match.id, None)
            for link in match.players:
                if link is not None and link.match is match:
                    link.match, link.participant = None, None
                    link.doing = "after a match"  # until their app says where they went
            for link in list(match.watchers):
                if link.watching is match:
                    link.watching = None
            if self.crossing is not None:
                self.crossing.forget_idle()
            if not (isinstance(match, HostedMatch) and match.room is not None):  # arena_round_over logs a round's end
                self.log(f"match {match.id} end: {match.verdict_text()}")
            self.lobby_changed()

    def _unqueue(self, link: Link) -> None:
        for game, waiting in list(self.queue.items()):
            if waiting is link:
                del self.queue[game]
                if self.crossing is not None:
                    self.crossing.unqueue(game, link.name)

    def _stop_watching(self, link: Link) -> None:
        if link.watching is not None:
            link.watching.leave(link)
            link.watching = None

    def _withdraw_all(self, link: Link) -> None:
        for challenge in list(self.challenges.values()):
            if link.name in (challenge.by, challenge.to):
                del self.challenges[challenge.id]
                self.rematch_seats.pop(challenge.id, None)

    def link_closed(self, link: Link) -> None:
        with self.lock:
            if link.publisher and isinstance(link.watching, RelayedMatch):  # the architect went away
                match, link.watching = link.watching, None
                if not match.ended:
                    match.abandoned = "the architect went away"
                    match.relay(End(match.verdict_text()))
                self.match_ended(match)
                return
            if link.name and self.links.get(link.name) is link:
                del self.links[link.name]
                self._withdraw_all(link)
            if self.crossing is not None:
                self.crossing.gone(link)
            self._leave(link, Ending.DISCONNECTED)
            self.lobby_changed()

    # --- the lobby --------------------------------------------------------------------------------
    def doing(self, link: Link) -> str:
        if link.match is not None:
            others = [n for n in link.match.names if n != link.name]
            return f"playing {link.match.game_key} vs {', '.join(others)}"
        if link.watching is not None:
            return f"watching match {link.watching.id}"
        for game, waiting in self.queue.items():
            if waiting is link:
                return f"waiting for {'an' if game[0] in 'aeiou' else 'a'} {game} match"
        return link.doing

    def lobby(self) -> Lobby:
        players = tuple(LobbyPlayer(name, self.doing(link), link.guest, link.ratings) for name, link in sorted(self.links.items()))
        challenges = tuple(self.challenges.values())
        matches = tuple(match.summary() for match in self.matches.values())
        if self.crossing is not None:
            players += self.crossing.players()
            matches += self.crossing.matches()
            challenges += self.crossing.challenges()
        return Lobby(players[:MAX_LISTED], challenges[:MAX_LISTED], matches[:MAX_LISTED])

    def lobby_changed(self) -> None:
        """The lobby may have changed: sent within LOBBY_SECONDS, once for a burst of
        changes, and only if it did change; not to a player in a match or watching one,
        who is sent the lobby once back (the next change of any kind: their own return)."""
        self._lobby_dirty.set()

    def _send_lobbies(self) -> None:
        while not self._stopped.is_set():
            self._lobby_dirty.wait()
            if self._stopped.wait(LOBBY_SECONDS):
                return
            self._lobby_dirty.clear()
            with self.lock:
                if self.crossing is not None:
                    self.crossing.publish()
                snapshot = self.lobby()
                changed, self._last_lobby = snapshot != self._last_lobby, snapshot
                data: bytes | None = None  # encoded once for all: the lobby is the largest message
                for link in list(self.links.values()):
                    if self.busy(link) or link.watching is not None:  # its app shows a match: the lobby when back
                        link.missed_lobby = link.missed_lobby or changed
                    elif changed or link.missed_lobby:
                        link.missed_lobby = False
                        data = data or encode(snapshot)
                        link.send(snapshot, data)


def remove_stale_sockets(folder: Path) -> None:
    """The sockets of hubs that are gone (a server killed outright leaves its own)."""
    for path in folder.glob("hub-*.sock"):
        try:
            pid = int(path.stem.split("-", 1)[1])
        except ValueError:
            continue
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except PermissionError:  # another user's live process: not ours to remove
            pass


def check_board(game: str, board: str) -> str | None:
    """A board a remote player may name: one of the game's catalog boards or a game id,
    never a path. None when it loads; else why not."""
    from tui_grid.core.errors import BoardError, UsageError

    definition = get_game(game)
    names = {entry.name for entry in getattr(definition, "boards", lambda: [])()}
    is_id = getattr(definition, "is_game_id", lambda arg: False)(board)
    if board not in names and not (is_id and board == board.strip() and printable(board) == board):
        return f"No {game} board called {printable(board)}."
    try:
        definition.load(board)
    except (BoardError, UsageError, ValueError, OSError) as exc:
        return f"Cannot use {printable(board)}: {printable(str(exc))}"
    return None
