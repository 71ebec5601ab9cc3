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
import socket
import struct
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Callable

from tui_grid.core.agents import Agent, HumanAgent, LowPriority
from tui_grid.online.publish import TOKEN_FILE
from tui_grid.online.wire import (MAX_BACKLOG, MAX_ROUNDS, QUICK_ROUNDS, LineReader, WireError, default_board, encode,
                                  int_field, text_field)
from tui_grid.core.live import LiveMatch
from tui_grid.core.network import hang_up
from tui_grid.core.players import PlayerContext
from tui_grid.core.session import Change, Session
from tui_grid.core.text import printable
from tui_grid.games.registry import get_game, online_games

#: Open challenges one player may have made at once.
MAX_CHALLENGES = 5
#: Messages a link may send per second (and in a burst): more are dropped.
RATE_PER_SECOND = 40.0
RATE_BURST = 80.0
#: What a lobby shows at most of each list.
MAX_LISTED = 200
#: Seconds a send may block on an app that reads nothing before the link is dropped.
SEND_TIMEOUT = 10
#: The longest folder the hub's socket goes in (else a private one in the temporary folder).
MAX_SOCKET_FOLDER = 80
#: A spectator's seat in `join`.
SPECTATOR = None
#: Matches with a builtin bot in them that the server runs at once, and that one player may
#: start: a bot thinks on the server's cores, not in the player's session.
MAX_BOT_MATCHES = 4
BOT_MATCHES_PER_PLAYER = 1
#: How much lower than the hub's the bots' thinking runs (players' sessions run at 5).
BOT_NICENESS = 10


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


@dataclass(frozen=True)
class Challenge:
    id: int
    by: str
    to: str
    game: str
    board: str
    rounds: int


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
    """One player's app, linked: a reader thread for what it sends and a writer thread with a
    bounded backlog for what it is sent, so a stalled app never blocks a match."""

    def __init__(self, hub: Hub, sock: socket.socket, bound: str = "", guest: bool = False) -> None:
        self.hub = hub
        self.sock = sock
        self.name = ""
        #: The player this link is for, when the SSH server made it (`Hub.admit`); a link
        #: from the hub's socket is a publisher's, or nobody's.
        self.bound = bound
        self.guest = guest
        self.doing = "in the menu"
        self.match: HostedMatch | None = None
        self.participant: int | None = None
        self.watching: HostedMatch | RelayedMatch | None = None
        self.publisher = False  # an architect publishing its games, not a player
        self.limit = RateLimit(RATE_PER_SECOND, RATE_BURST)
        self._out: SimpleQueue[bytes | None] = SimpleQueue()
        self._backlog = 0
        self._backlog_lock = threading.Lock()
        self.closed = threading.Event()
        self._shut_down = False
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", SEND_TIMEOUT, 0))

    def start(self) -> None:
        threading.Thread(target=self._read, name="hub-link-read", daemon=True).start()
        threading.Thread(target=self._write, name="hub-link-write", daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        if self.closed.is_set():
            return
        data = encode(message)
        with self._backlog_lock:
            self._backlog += len(data)
            stalled = self._backlog > MAX_BACKLOG
        # A stalled app is dropped by its writer thread, never here: a sender may hold a
        # session's lock, and closing takes the hub's.
        self._out.put(None if stalled else data)

    def _write(self) -> None:
        while True:
            data = self._out.get()
            if data is None:
                break
            try:
                self.sock.sendall(data)  # at most SEND_TIMEOUT on a peer that reads nothing
            except OSError:
                break
            with self._backlog_lock:
                self._backlog -= len(data)
        self._shut()

    def _read(self) -> None:
        reader = LineReader(self.sock)
        try:
            while not self.closed.is_set():
                message = reader.read()
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
        the writer closes the socket."""
        if self.closed.is_set():
            return
        self.closed.set()
        self._out.put(None)
        self.hub.link_closed(self)

    def close(self) -> None:
        """End the link now."""
        self.end()
        self._shut()

    def _shut(self) -> None:
        with self._backlog_lock:
            if self._shut_down:
                return
            self._shut_down = True
        hang_up(self.sock)


class WatchedMatch:
    """What every match in the lobby shares: who watches it, the news they are all sent, and
    its line in the lobby (from `score_text` and `round_now`)."""

    id: int
    game_key: str
    board: str
    names: tuple[str, ...]
    rounds: int
    players: list[Link | None]
    watchers: list[Link]

    def _send_all(self, message: dict[str, Any]) -> None:
        for link in list(self.watchers):
            link.send(message)

    def score_text(self) -> str:
        raise NotImplementedError

    def round_now(self) -> int:
        raise NotImplementedError

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game_key, "board": self.board, "names": list(self.names),
                "score": self.score_text(), "round": min(self.rounds, self.round_now() + 1), "rounds": self.rounds,
                "watchers": sum(1 for w in self.watchers if w not in self.players)}


class HostedMatch(WatchedMatch):
    """A match between linked players (or a player and a builtin bot) played here: the
    driver on its thread, a conductor thread for countdowns, idle checks and rounds."""

    def __init__(self, hub: Hub, match_id: int, game_key: str, board: str, rounds: int, seats: list[Link | str],
                 started_by: Link | None = None) -> None:
        self.hub, self.id, self.game_key, self.board, self.rounds = hub, match_id, game_key, board, rounds
        #: Who asked for this match, when it has a bot in it (the per-player bot limit).
        self.started_by = started_by
        self.has_bots = any(isinstance(who, str) for who in seats)
        game = get_game(game_key)
        loaded = game.load(board)
        participants: list[Agent[Any, Any]] = []
        names: list[str] = []
        self.players: list[Link | None] = []
        for index, who in enumerate(seats):
            if isinstance(who, Link):
                participants.append(HumanAgent(who.name))
                names.append(who.name)
                self.players.append(who)
            else:
                context = PlayerContext(index, time_ms=hub.pace.bot_time_ms)
                participants.append(LowPriority(game.make_agent(who, context, ("bot",)), BOT_NICENESS))
                names.append(f"{who} bot")
                self.players.append(None)
        self.names = tuple(names)
        engine = game.make_engine(loaded)
        tick = hub.pace.tick_seconds or engine.human_tick_seconds or engine.tick_seconds or 0.25
        self.feed: LiveMatch[Any, Any] = LiveMatch(lambda index: game.make_engine(loaded), participants, rounds,
                                                  names=names, timeout=max(0.05, tick), step_seconds=tick)
        self.watchers: list[Link] = []
        self.last_key = [time.monotonic()] * len(seats)
        self.round_over = threading.Event()
        self.stop = threading.Event()
        self.abandoned = ""
        self._forfeit_reason = ""
        self.round_forfeit: tuple[int, str] | None = None
        self.ended = False
        self.feed.subscribe(self._changed)
        self.feed.on_round(self._round_began)

    # --- who watches ----------------------------------------------------------------------
    def join(self, link: Link, participant: int | None) -> None:
        """A player or spectator: the match so far, then every step from here, none missed
        and none twice (the session's lock holds the driver while the snapshot is taken)."""
        session = self.feed.session
        with session.lock:
            link.send({
                "t": "match", "id": self.id, "game": self.game_key, "board": self.board, "rounds": self.rounds,
                "names": list(self.names), "you": participant,
                "results": [[r.winner, r.reason, list(r.seating), r.steps] for r in self.feed.match.score.rounds],
                "round": self.feed.match.round_index, "log": session.engine.format_log(session.log),
                "forfeit": list(self.round_forfeit) if self.round_forfeit else None,
            })
            self.watchers.append(link)

    def leave(self, link: Link) -> None:
        if link in self.watchers:
            self.watchers.remove(link)
        if link in self.players and not self.ended:
            participant = self.players.index(link)
            self.abandon(participant, f"{link.name} left the match")
        elif not self.watchers and not any(self.players):  # bots with nobody watching: stop
            self.abandoned = self.abandoned or "nobody was watching"
            self.stop.set()

    def abandon(self, participant: int, reason: str) -> None:
        """A player left or idled: their seat forfeits this round and the match ends."""
        self.abandoned = self.abandoned or reason
        self.players[participant] = None
        seating = self.feed.match.seating
        session = self.feed.session
        if participant in seating and not session.over:
            self._forfeit(session, seating.index(participant), reason)
        self.round_over.set()

    def note(self, text: str) -> None:
        self._send_all({"t": "note", "text": text})

    # --- what the driver did ------------------------------------------------------------------
    def _forfeit(self, session: Session[Any, Any], seat: int, reason: str) -> None:
        with session.lock:
            self._forfeit_reason = reason
            session.forfeit(seat, reason)

    def _changed(self, session: Session[Any, Any], change: Change[Any]) -> None:
        if change.kind == "step" and session.log:
            self._send_all({"t": "step", "joint": session.engine.format_log([session.log[-1]])})
        elif change.kind == "forfeit" and change.events:
            seat = change.events[0].seat
            self.round_forfeit = (seat, self._forfeit_reason)
            self._send_all({"t": "forfeit", "seat": seat, "reason": self._forfeit_reason})
        if change.kind in ("step", "forfeit") and session.engine.outcome(change.state).over:
            self.round_over.set()

    def _round_began(self, session: Session[Any, Any]) -> None:
        self.round_forfeit = None
        self._send_all({"t": "round", "round": self.feed.match.round_index})

    def key(self, link: Link, text: str) -> None:
        """A player's key for the seat they sit in this round; anything else is ignored."""
        if link not in self.players:
            return
        participant = self.players.index(link)
        self.last_key[participant] = time.monotonic()
        seating = self.feed.match.seating
        if participant not in seating:
            return
        session = self.feed.session
        try:
            action = session.engine.decode_action(text)
        except ValueError:
            return
        session.submit(seating.index(participant), action)

    # --- the conductor ----------------------------------------------------------------------
    def start(self) -> None:
        threading.Thread(target=self._conduct, name=f"hub-match-{self.id}", daemon=True).start()

    def _conduct(self) -> None:
        try:
            self.feed.pause(True)
            self.feed.start()
            while not self.stop.is_set():
                self._count_down()
                self._await_round_end()
                if self.stop.is_set() or self.abandoned or self.feed.match.finished:
                    break
                result = self.feed.match.score.rounds[-1]
                pause = self.hub.pace.between_rounds
                self.note(f"{result.reason}. Score: {self.feed.match.score.summary()}. Round {result.index + 2} in {pause:.0f} s (seats swap).")
                if self.stop.wait(pause):
                    break
                self.feed.pause(True)
                self.round_over.clear()
                self.feed.next_round()
            self._end()
        except Exception as exc:  # reported to the players; the hub goes on
            self.hub.log(f"match {self.id} failed: {type(exc).__name__}: {exc}")
            self.abandoned = self.abandoned or "the match failed on the server"
            self._end()
        finally:
            self.feed.close()
            self.hub.match_ended(self)

    def _count_down(self) -> None:
        pace = self.hub.pace
        for left in range(pace.countdown, 0, -1):
            self.note(f"Get ready: {left}…")
            if self.stop.wait(pace.beat):
                return
        now = time.monotonic()
        self.last_key = [now] * len(self.last_key)
        self.note("Go!")
        self.feed.pause(False)

    def _await_round_end(self) -> None:
        idle = self.hub.pace.idle_seconds
        while not self.stop.is_set() and not self.round_over.wait(0.1):
            now = time.monotonic()
            for participant, link in enumerate(self.players):
                if link is not None and now - self.last_key[participant] > idle:
                    self.abandon(participant, f"{link.name} idled for {idle:.0f} s")
        self.feed.pause(True)

    def _end(self) -> None:
        self.ended = True
        score = self.feed.match.score
        if self.abandoned:
            text = f"Match over: {self.abandoned}. {score.summary()}."
        else:
            text = f"Match over: {score.summary()}."
        self._send_all({"t": "end", "text": text})

    def score_text(self) -> str:
        return self.feed.match.score.summary()

    def round_now(self) -> int:
        return self.feed.match.round_index


class RelayedMatch(WatchedMatch):
    """A match played elsewhere (the Evasion architect's) that a publisher link sends step
    by step: kept here (the rounds so far and this round's log) for spectators who join
    midway, and relayed to everyone watching. Nobody plays it from the lobby."""

    def __init__(self, hub: Hub, match_id: int, publisher: Link, game_key: str, board: str, names: list[str], rounds: int) -> None:
        self.hub, self.id, self.publisher = hub, match_id, publisher
        self.game_key, self.board, self.names, self.rounds = game_key, board, tuple(names), rounds
        self.players: list[Link | None] = []
        self.watchers: list[Link] = []
        self.results: list[list[Any]] = []
        self.log: list[str] = []
        self.round_forfeit: list[Any] | None = None
        self.abandoned = ""
        self.ended = False
        self.stop = threading.Event()

    def join(self, link: Link, participant: int | None) -> None:
        link.send({"t": "match", "id": self.id, "game": self.game_key, "board": self.board, "rounds": self.rounds,
                   "names": list(self.names), "you": None, "results": self.results, "round": len(self.results),
                   "log": " ".join(self.log), "forfeit": self.round_forfeit})
        self.watchers.append(link)

    def leave(self, link: Link) -> None:
        if link in self.watchers:
            self.watchers.remove(link)

    def relay(self, message: dict[str, Any]) -> str | None:
        """One message from the publisher, checked, recorded and passed on."""
        kind = message["t"]
        if kind == "step":
            joint = text_field(message, "joint", 400)
            if joint is None:
                return "a step without its actions"
            self.log.append(joint)
            self._send_all({"t": "step", "joint": joint})
        elif kind == "forfeit":
            seat, reason = int_field(message, "seat", 0, 8), text_field(message, "reason", 400)
            if seat is None or reason is None:
                return "a forfeit without its seat"
            self.round_forfeit = [seat, reason]
            self._send_all({"t": "forfeit", "seat": seat, "reason": reason})
        elif kind == "result":
            result = message.get("result")
            if not isinstance(result, list) or len(result) != 4 or len(self.results) >= self.rounds:
                return "a malformed result"
            winner, reason, seating, steps = result
            if not (winner is None or isinstance(winner, int)) or not isinstance(seating, list) or not isinstance(steps, int):
                return "a malformed result"
            self.results.append([winner, printable(str(reason))[:200], [int(s) for s in seating][:8], steps])
        elif kind == "round":
            self.log, self.round_forfeit = [], None
            self._send_all({"t": "round", "round": len(self.results)})
        elif kind == "note":
            text = text_field(message, "text", 400)
            if text is not None:
                self._send_all({"t": "note", "text": text})
        elif kind == "end":
            self.ended = True
            text = text_field(message, "text", 400) or "The match is over."
            self._send_all({"t": "end", "text": text})
            return "end"
        return None

    def score_text(self) -> str:
        wins = [sum(1 for r in self.results if r[0] == index) for index in range(len(self.names))]
        draws = sum(1 for r in self.results if r[0] is None)
        return " · ".join(f"{name} {count}" for name, count in zip(self.names, wins)) + f" · draws {draws}"

    def round_now(self) -> int:
        return len(self.results)


class Hub:
    """The lobby and its matches. `admit` a session's player (the SSH server does, and
    passes the token to the app); the app links with it."""

    def __init__(self, folder: Path, *, pace: Pace | None = None, log: Callable[[str], None] = lambda text: None) -> None:
        if len(str(folder)) > MAX_SOCKET_FOLDER:  # a Unix socket's path has room for about 100 bytes
            folder = Path(tempfile.mkdtemp(prefix="tui-grid-hub-"))
        self.folder = folder
        self.path = folder / f"hub-{os.getpid()}.sock"
        self.pace = pace or Pace()
        self.log = log
        self.lock = threading.RLock()
        self.links: dict[str, Link] = {}
        self.challenges: dict[int, Challenge] = {}
        self.queue: dict[str, Link] = {}
        self.matches: dict[int, WatchedMatch] = {}
        self.publish_token = secrets.token_hex(16)  # in the hub's folder, for the same user's architect
        self.publishers = itertools.count(1)
        self._ids = itertools.count(1)
        self._listener: socket.socket | None = None
        self._stopped = threading.Event()

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
        threading.Thread(target=self._accept, name="hub-accept", daemon=True).start()

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
        if self._listener is not None:
            self._listener.close()
        for match in list(self.matches.values()):
            match.stop.set()
        for link in list(self.links.values()):
            link.close()
        self.path.unlink(missing_ok=True)
        (self.folder / TOKEN_FILE).unlink(missing_ok=True)

    def admit(self, name: str, guest: bool = False) -> tuple[socket.socket, Link]:
        """A session's player: the app's end of a new link (to hand down to the app), and
        the hub's end, bound to `name` (to `forget` when the session ends)."""
        theirs, ours = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        link = Link(self, ours, bound=name, guest=guest)
        link.start()
        return theirs, link

    def forget(self, link: Link) -> None:
        """The session ended: its link is closed (a match it plays in is forfeited)."""
        link.close()

    # --- messages ------------------------------------------------------------------------------
    def receive(self, link: Link, message: dict[str, Any]) -> bool:
        """One message from a link; False ends the link."""
        kind = message["t"]
        with self.lock:
            if not link.name:
                return self._hello(link, message) if kind == "hello" else False
            if link.publisher:
                return self._published(link, message)
            handler = getattr(self, f"_on_{kind}", None)
            if handler is None:
                return True
            error = handler(link, message)
            if error:
                link.send({"t": "error", "text": error})
            self._lobby_changed()
        return True

    def _hello(self, link: Link, message: dict[str, Any]) -> bool:
        token = text_field(message, "token", 64) or ""
        if not link.bound and secrets.compare_digest(token, self.publish_token):
            link.name, link.publisher = f"publisher {next(self.publishers)}", True
            return True
        name = link.bound
        if not name:
            link.send({"t": "error", "text": "This session is not known to the server."})
            return False
        old = self.links.get(name)
        link.name = name
        self.links[name] = link
        if old is not None:
            old.close()
        link.send({"t": "welcome", "name": name, "games": list(online_games())})
        self._lobby_changed()
        return True

    def _published(self, link: Link, message: dict[str, Any]) -> bool:
        """A publisher's message: `publish` once, then its match's news."""
        match = link.watching
        if message["t"] == "publish" and match is None:
            game, board = text_field(message, "game", 20) or "", text_field(message, "board", 80) or ""
            names, rounds = message.get("names"), int_field(message, "rounds", 1, MAX_ROUNDS)
            if (game not in online_games() or check_board(game, board) or rounds is None or not isinstance(names, list)
                    or not 1 <= len(names) <= 8):
                return False
            names = [printable(str(name))[:40] for name in names]
            link.watching = RelayedMatch(self, next(self._ids), link, game, board, names, rounds)
            self.matches[link.watching.id] = link.watching
            self.log(f"match {link.watching.id} published: {game} {board} {' vs '.join(names)}")
            self._lobby_changed()
            return True
        if not isinstance(match, RelayedMatch):
            return False
        verdict = match.relay(message)
        if message["t"] in ("result", "end"):
            self._lobby_changed()
        if verdict == "end":
            self.match_ended(match)
            link.watching = None
            return True
        return verdict is None

    def _on_doing(self, link: Link, message: dict[str, Any]) -> str | None:
        doing = text_field(message, "doing", 200)
        if doing is not None:
            link.doing = printable(doing)[:40]
        return None

    def _on_challenge(self, link: Link, message: dict[str, Any]) -> str | None:
        to = text_field(message, "to", 40) or ""
        game = text_field(message, "game", 20) or ""
        rounds = int_field(message, "rounds", 1, MAX_ROUNDS) or QUICK_ROUNDS
        if game not in online_games():
            return f"Only {' and '.join(get_game(key).online.short_title for key in online_games())} are played online."  # type: ignore[union-attr]
        if self._busy(link):
            return "You are in a match already."
        board = text_field(message, "board", 80) or default_board(game)
        error = check_board(game, board)
        if error:
            return error
        if to.startswith("bot:"):
            seat = text_field(message, "as", 40) or ""
            error = self._bot_match_refused(link)
            if error:
                return error
            self._stop_watching(link)  # a bot match nobody watches any more stops
            if seat.startswith("bot:"):  # two bots, and this player watches them
                started = self._start(game, board, rounds, [seat[4:], to[4:]], started_by=link)
                if isinstance(started, str):
                    return started
                link.watching = started
                started.join(link, SPECTATOR)
                return None
            started = self._start(game, board, rounds, [link, to[4:]], started_by=link)
            return started if isinstance(started, str) else None
        other = self.links.get(to)
        if other is None or other is link:
            return f"{printable(to)} is not online." if other is None else "Challenge somebody else."
        mine = [c for c in self.challenges.values() if c.by == link.name]
        if len(mine) >= MAX_CHALLENGES:
            return f"You have {MAX_CHALLENGES} open challenges: wait for answers."
        if any(c.by == link.name and c.to == to for c in mine):
            return f"You have challenged {to} already."
        challenge = Challenge(next(self._ids), link.name, to, game, board, rounds)
        self.challenges[challenge.id] = challenge
        return None

    def _on_answer(self, link: Link, message: dict[str, Any]) -> str | None:
        challenge = self.challenges.get(int_field(message, "id", 0, 1 << 31) or -1)
        if challenge is None or challenge.to != link.name:
            return "That challenge is gone."
        del self.challenges[challenge.id]
        by = self.links.get(challenge.by)
        if message.get("accept") is not True:
            if by is not None:
                by.send({"t": "error", "text": f"{link.name} declined your {challenge.game} challenge."})
            return None
        if by is None:
            return f"{challenge.by} has left."
        if self._busy(by) or self._busy(link):
            return f"{challenge.by} is in a match already." if self._busy(by) else "You are in a match already."
        started = self._start(challenge.game, challenge.board, challenge.rounds, [by, link])
        return started if isinstance(started, str) else None

    def _on_withdraw(self, link: Link, message: dict[str, Any]) -> str | None:
        challenge = self.challenges.get(int_field(message, "id", 0, 1 << 31) or -1)
        if challenge is not None and challenge.by == link.name:
            del self.challenges[challenge.id]
        return None

    def _on_queue(self, link: Link, message: dict[str, Any]) -> str | None:
        game = text_field(message, "game", 20) or ""
        if game not in online_games():
            return f"Only {' and '.join(get_game(key).online.short_title for key in online_games())} are played online."  # type: ignore[union-attr]
        if self._busy(link):
            return "You are in a match already."
        self._unqueue(link)
        waiting = self.queue.pop(game, None)
        if waiting is None or waiting.closed.is_set():
            self.queue[game] = link
            return None
        started = self._start(game, default_board(game), QUICK_ROUNDS, [waiting, link])
        return started if isinstance(started, str) else None

    def _on_unqueue(self, link: Link, message: dict[str, Any]) -> str | None:
        self._unqueue(link)
        return None

    def _on_watch(self, link: Link, message: dict[str, Any]) -> str | None:
        match = self.matches.get(int_field(message, "id", 0, 1 << 31) or -1)
        if match is None:
            return "That match is over."
        if self._busy(link):
            return "You are in a match already."
        self._stop_watching(link)
        link.watching = match
        match.join(link, SPECTATOR)
        return None

    def _on_key(self, link: Link, message: dict[str, Any]) -> str | None:
        text = text_field(message, "action", 40)
        if text is not None and link.match is not None:
            link.match.key(link, text)
        return None

    def _on_leave(self, link: Link, message: dict[str, Any]) -> str | None:
        self._unqueue(link)
        self._stop_watching(link)
        if link.match is not None:
            match, link.match, link.participant = link.match, None, None
            match.leave(link)
        return None

    # --- matches ----------------------------------------------------------------------------------
    def _busy(self, link: Link) -> bool:
        return link.match is not None

    def _bot_match_refused(self, link: Link) -> str | None:
        """Why `link` may not start a bot match now, if it may not."""
        # The one this link alone watches stops when it starts another: not counted.
        running = [m for m in self.matches.values() if isinstance(m, HostedMatch) and m.has_bots and not m.stop.is_set()
                   and not m.ended and not (m is link.watching and m.watchers == [link])]
        if sum(1 for m in running if m.started_by is link) >= BOT_MATCHES_PER_PLAYER:
            return "A bot match you started is still running: one at a time."
        if len(running) >= MAX_BOT_MATCHES:
            return f"The server runs {MAX_BOT_MATCHES} bot matches already: try again soon."
        return None

    def _start(self, game: str, board: str, rounds: int, seats: list[Link | str], *,
               started_by: Link | None = None) -> HostedMatch | str:
        """The new match, started; or why it could not be."""
        levels = get_game(game).bot_levels
        for level in seats:
            if isinstance(level, str) and level not in levels:
                return f"No {printable(level)} bot: {', '.join(levels)}."
        match = HostedMatch(self, next(self._ids), game, board, rounds, seats, started_by)
        self.matches[match.id] = match
        for participant, who in enumerate(seats):
            if isinstance(who, Link):
                self._unqueue(who)
                self._stop_watching(who)
                self._withdraw_all(who)
                who.match, who.participant = match, participant
                match.join(who, participant)
        self.log(f"match {match.id} start: {game} {board} {' vs '.join(match.names)}")
        match.start()
        return match

    def match_ended(self, match: HostedMatch | RelayedMatch) -> None:
        with self.lock:
            self.matches.pop(match.id, None)
            for link in match.players:
                if link is not None and link.match is match:
                    link.match, link.participant = None, None
            for link in list(match.watchers):
                if link.watching is match:
                    link.watching = None
            self.log(f"match {match.id} end: {match.score_text()}" + (f" ({match.abandoned})" if match.abandoned else ""))
            self._lobby_changed()

    def _unqueue(self, link: Link) -> None:
        for game, waiting in list(self.queue.items()):
            if waiting is link:
                del self.queue[game]

    def _stop_watching(self, link: Link) -> None:
        if link.watching is not None:
            link.watching.leave(link)
            link.watching = None

    def _withdraw_all(self, link: Link) -> None:
        for challenge in list(self.challenges.values()):
            if link.name in (challenge.by, challenge.to):
                del self.challenges[challenge.id]

    def link_closed(self, link: Link) -> None:
        with self.lock:
            if link.publisher and isinstance(link.watching, RelayedMatch):  # the architect went away
                match, link.watching = link.watching, None
                if not match.ended:
                    match.relay({"t": "end", "text": "The architect stopped publishing."})
                    match.abandoned = "the architect went away"
                self.match_ended(match)
                return
            if link.name and self.links.get(link.name) is link:
                del self.links[link.name]
                self._withdraw_all(link)
            self._on_leave(link, {})
            self._lobby_changed()

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

    def lobby(self) -> dict[str, Any]:
        players = [{"name": name, "doing": self.doing(link), "guest": link.guest}
                   for name, link in sorted(self.links.items())][:MAX_LISTED]
        challenges = [{"id": c.id, "by": c.by, "to": c.to, "game": c.game, "board": c.board, "rounds": c.rounds}
                      for c in self.challenges.values()][:MAX_LISTED]
        matches = [match.summary() for match in self.matches.values()][:MAX_LISTED]
        return {"t": "lobby", "players": players, "challenges": challenges, "matches": matches}

    def _lobby_changed(self) -> None:
        snapshot = self.lobby()
        for link in list(self.links.values()):
            link.send(snapshot)


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
