"""Network players: line-based TCP connections and an Agent whose actions come from one.

Game-agnostic: a game's server decides what line to send for an ask and how to read the
answer (`NetworkAgent(observe=..., parse=...)`); by default the engine's `observation`
and `decode_action` are used. Each network player has a thinking clock (seconds in
total, charged from sending a state to receiving its answer); running out, hanging up or
answering garbage raises `AgentError(forfeit=True)` whose failure says which
(`core.outcome.Fault`: disconnected, out of time, garbage).
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from tui_grid.core.agents import Agent, AgentError, Ask
from tui_grid.core.outcome import Failure, Fault

#: A line without its newline that sits this long with nothing after it counts as sent
#: (some course clients send an answer without "\n"), if it reads as a whole answer; a
#: part of one (a reply split over two segments) waits for the rest, up to the deadline.
UNTERMINATED_GRACE = 0.05
#: Longest line read: the longest legal answer is a few hundred bytes.
MAX_LINE = 4096


#: Seconds past a driver's deadline before an uncancelled read gives up by itself.
BACKSTOP_SECONDS = 5.0


def hang_up(sock: socket.socket) -> None:
    """End a connection both ways now (a peer blocked on it wakes up), then free it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


class Disconnected(AgentError):
    pass


class TimedOut(AgentError):
    pass


def failed(who: str, failure: Failure, kind: type[AgentError] = AgentError) -> AgentError:
    """The error of a player who failed so, its reason naming it: "ann disconnected"."""
    return kind(f"{who} {failure.phrase()}", failure=failure)


DISCONNECTED = Failure(Fault.DISCONNECTED)


class LineConnection:
    """One TCP client spoken to in lines (UTF-8, "\\n"-terminated; "\\r" stripped)."""

    def __init__(self, sock: socket.socket, peer: str = "") -> None:
        self.sock = sock
        self.peer = peer
        self.name = peer
        self._buffer = b""
        self._lock = threading.Lock()
        self.closed = False
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 10.0) -> LineConnection:
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.settimeout(None)
        return cls(sock, f"{host}:{port}")

    def send_line(self, text: str) -> None:
        """Send one line; raises Disconnected when the peer is gone."""
        try:
            with self._lock:
                self.sock.sendall((text + "\n").encode("utf-8"))
        except OSError as exc:
            raise failed(self.name, Failure(Fault.DISCONNECTED, note=str(exc.strerror or exc)), Disconnected) from None

    def read_line(self, timeout: float | None, stop: threading.Event | None = None, complete: Callable[[str], bool] | None = None) -> str:
        """The next line, waiting at most `timeout` seconds (None: forever, or until `stop`).
        Text without a newline counts as a line once nothing more comes for a moment, if
        `complete(text)` says it is a whole answer (else the rest is awaited). Raises
        TimedOut or Disconnected (AgentError, forfeit=True)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                raw, self._buffer = self._buffer[:newline], self._buffer[newline + 1 :]
                return self._decode(raw)
            if len(self._buffer) > MAX_LINE:
                raise failed(self.name, Failure(Fault.GARBAGE, note=f"a line longer than {MAX_LINE} bytes"))
            now = time.monotonic()
            left = None if deadline is None else deadline - now
            if left is not None and left <= 0:
                if self._buffer:  # part of an answer and no more: what came is the answer
                    raw, self._buffer = self._buffer, b""
                    return self._decode(raw)
                raise failed(self.name, Failure(Fault.NO_ANSWER, numbers=() if timeout is None else (timeout,)), TimedOut)
            wait = 0.2 if left is None else min(left, 0.2)
            if self._buffer:
                wait = min(wait, UNTERMINATED_GRACE)
            if stop is not None and stop.is_set():
                raise AgentError(f"stopped while waiting for {self.name}", forfeit=False)
            try:
                ready, _, _ = select.select([self.sock], [], [], wait)
            except (OSError, ValueError):
                raise failed(self.name, DISCONNECTED, Disconnected) from None
            if not ready:
                if self._buffer and (complete is None or complete(self._buffer.decode("utf-8", "replace"))):
                    raw, self._buffer = self._buffer, b""  # an answer without a newline, and nothing more coming
                    return self._decode(raw)
                continue
            try:
                chunk = self.sock.recv(65536)
            except OSError as exc:
                raise failed(self.name, Failure(Fault.DISCONNECTED, note=str(exc.strerror or exc)), Disconnected) from None
            if not chunk:
                if self._buffer:
                    raw, self._buffer = self._buffer, b""
                    return self._decode(raw)
                raise failed(self.name, DISCONNECTED, Disconnected)
            self._buffer += chunk

    def discard_pending(self) -> None:
        """Drop what the peer sent and nobody read (a late answer to an ended game)."""
        self._buffer = b""
        try:
            while select.select([self.sock], [], [], 0)[0]:
                if not self.sock.recv(65536):
                    return
        except OSError:
            return

    def _decode(self, raw: bytes) -> str:
        try:
            return raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            raise failed(self.name, Failure(Fault.GARBAGE, note="bytes that are not UTF-8 text")) from None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        hang_up(self.sock)

    def __enter__(self) -> LineConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LineListener:
    """A listening socket; `port` is the bound port (pass 0 for any free one)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
            self.sock.listen(8)
        except OSError:
            self.sock.close()
            raise
        self.host = host
        self.port: int = self.sock.getsockname()[1]

    def accept(self, timeout: float | None = None, stop: threading.Event | None = None) -> LineConnection:
        """The next client; raises TimeoutError, or InterruptedError when `stop` is set."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if stop is not None and stop.is_set():
                raise InterruptedError("stopped while waiting for players")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no player connected in time")
            wait = 0.1 if left is None else min(left, 0.1)
            ready, _, _ = select.select([self.sock], [], [], wait)
            if ready:
                sock, addr = self.sock.accept()
                sock.settimeout(None)
                return LineConnection(sock, f"{addr[0]}:{addr[1]}")

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> LineListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ThinkingClock:
    """A player's total thinking time; `charge` spends it, `left` says what remains."""

    def __init__(self, seconds: float | None) -> None:
        self.total = seconds
        self.spent = 0.0

    def left(self) -> float | None:
        return None if self.total is None else max(0.0, self.total - self.spent)

    def charge(self, seconds: float) -> None:
        self.spent += seconds

    @property
    def expired(self) -> bool:
        return self.total is not None and self.spent >= self.total


class _Either:
    """Set when either event is: the server stops, or the driver gave up on this ask."""

    def __init__(self, *events: threading.Event | None) -> None:
        self.events = [event for event in events if event is not None]

    def is_set(self) -> bool:
        return any(event.is_set() for event in self.events)


Observe = Callable[[Ask[Any, Any]], str]
Parse = Callable[[str, Ask[Any, Any]], Any]


class NetworkAgent(Agent[Any, Any]):
    """A seat played by a TCP client: each ask sends one line and reads one answer.

    `observe(ask)` makes the line (None: nothing is sent, just read), `parse(line, ask)` reads
    the answer (raise ValueError for garbage). Time from sending to the answer is charged
    to `clock`; the ask's own deadline, if earlier, limits the wait too."""

    kind = "network"
    forfeits_when_late = True

    def __init__(
        self,
        conn: LineConnection,
        *,
        clock: ThinkingClock | None = None,
        observe: Observe | None = None,
        parse: Parse | None = None,
        name: str = "",
        stop: threading.Event | None = None,
    ) -> None:
        super().__init__(name or conn.name)
        self.conn = conn
        self.clock = clock or ThinkingClock(None)
        self.observe = observe or (lambda ask: ask.engine.observation(ask.state, ask.seat))
        self.parse = parse or (lambda line, ask: ask.engine.decode_action(line))
        self.stop = stop
        #: Why the last ask failed, if it did (the server tells a timeout from a hang-up).
        self.last_error: AgentError | None = None

    def act(self, ask: Ask[Any, Any]) -> Any:
        line = self.observe(ask)
        started = time.monotonic()
        if line is not None:
            self.conn.send_line(line)
        # The thinking clock is the protocol's own budget; a driver's per-step deadline is
        # the driver's to enforce (it cancels), so it only bounds the wait loosely here.
        limit = self.clock.left()
        remaining = ask.remaining()
        if remaining is not None:
            backstop = remaining + BACKSTOP_SECONDS
            limit = backstop if limit is None else min(limit, backstop)
        try:
            return self._answer(ask, limit, started)
        except AgentError as exc:
            self.last_error = exc
            raise

    def _answer(self, ask: Ask[Any, Any], limit: float | None, started: float) -> Any:
        def complete(text: str) -> bool:
            try:
                self.parse(text, ask)
            except (ValueError, IndexError, KeyError):
                return False
            return True

        try:
            answer = self.conn.read_line(limit, _Either(self.stop, ask.control.cancel), complete)
        except TimedOut:
            self.clock.charge(time.monotonic() - started)
            total = self.clock.total
            raise failed(self.name, Failure(Fault.OUT_OF_TIME, numbers=() if total is None else (total,)), TimedOut) from None
        except Disconnected as exc:
            raise failed(self.name, exc.failure, Disconnected) from exc
        self.clock.charge(time.monotonic() - started)
        try:
            return self.parse(answer, ask)
        except (ValueError, IndexError, KeyError) as exc:
            raise failed(self.name, Failure(Fault.GARBAGE, answer, str(exc))) from None

    def close(self) -> None:
        self.conn.close()
