"""One session channel of `serve ssh`: the app on a terminal of the client's size.

Everything the session takes (a slot in the counts, a name online, a folder, a hub link,
a terminal, a process) is recorded as it is taken and given back in one `finally`, on
every path: a refusal, a spawn that fails, the app ending, the client leaving, a break
or a signal, a stall, the server stopping.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import struct
import termios
from typing import TYPE_CHECKING, Any

import asyncssh

from tui_grid.core.text import printable
from tui_grid.online.relay import Relay
from tui_grid.online.starter import StarterError

if TYPE_CHECKING:
    from tui_grid.online.ssh_connection import Connection

#: A terminal type is a plain name (xterm-256color, screen.linux, rxvt-unicode); anything
#: else (a NUL, a newline, an escape) is replaced by the default.
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
DEFAULT_TERM = "xterm-256color"
#: A client's window, as the app is told it: at most this many columns and rows.
MAX_TERMINAL = 500
#: Resizes are applied at most this often (a flood of them is one resize), and not while
#: the client takes no output (a stalled client's resizes would only make the app draw).
RESIZE_SECONDS = 0.2
#: What puts a client's terminal back as it was when a session is ended from this side
#: (the app never got to): main screen, mouse reports off, bracketed paste off, cursor on,
#: colours reset.
RESTORE_TERMINAL = b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?25h\x1b[0m"
#: Seconds the server waits for the starter to report an ended app's exit code.
EXIT_WAIT_SECONDS = 5.0


def plain_term(term: str | None) -> str:
    return term if term and _TERM.fullmatch(term) else DEFAULT_TERM


def app_argv(command: str | None, games: tuple[str, ...], online_games: tuple[str, ...]) -> tuple[str, ...]:
    """What a session runs, after `tui-grid`: the menu; the lobby (`ssh -t host online`); a
    game's quick-match queue when the client names a game played online (`ssh -t host
    tron`); the Tron arena (`ssh -t host arena`); else that game's boards. Any other command is ignored: nothing a client types
    is run."""
    word = (command or "").strip().lower()
    if word == "online" and online_games:
        return ("online",)
    if word == "arena" and "tron" in online_games:
        return ("online", "arena")
    if word in online_games and word in games:
        return ("online", word)
    if word in games:
        return ("play", word)
    return ()


def set_window(fd: int, width: int, height: int) -> None:
    width, height = (max(1, min(MAX_TERMINAL, int(side or 1))) for side in (width or 80, height or 24))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


class Taken:
    """What a session holds, so that `release` gives all of it back, once."""

    def __init__(self) -> None:
        self.fds: list[int] = []
        self.sockets: list[Any] = []
        self.undo: list[Any] = []  # callables, run last first

    def fd(self, fd: int) -> int:
        self.fds.append(fd)
        return fd

    def close_fd(self, fd: int) -> None:
        if fd in self.fds:
            self.fds.remove(fd)
            os.close(fd)

    def release(self) -> None:
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()
        for sock in self.sockets:
            sock.close()
        self.sockets.clear()
        while self.undo:
            try:
                self.undo.pop()()
            except Exception:
                pass


class GameSession(asyncssh.SSHServerSession):  # type: ignore[misc]
    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.server = connection.server
        self.channel: Any = None
        self.term: str | None = None  # set by a pty request: without one there is no app
        self.size = (80, 24)
        self._applied = (0, 0)  # the size the app's terminal has
        self._early = bytearray()  # keys that came before the app
        self._early_paused = False
        self.command: str | None = None
        self.relay: Relay | None = None
        self.master: int | None = None
        self.pid: int | None = None
        self.name = ""
        self.done = asyncio.Event()
        self.reason = ""
        self._resize: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._unstarted: asyncio.TimerHandle | None = None
        self.said_goodbye = False

    # --- asyncssh's callbacks ---------------------------------------------------------------
    def connection_made(self, channel: Any) -> None:
        self.channel = channel
        channel.set_write_buffer_limits(high=self.server.limits.output_high_water)
        limit_environment_requests(channel, self.connection.request)
        # A channel that never asks for a shell holds its connection: closed after a while.
        self._unstarted = asyncio.get_running_loop().call_later(self.server.limits.idle_connection_seconds, channel.close)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        if not self.connection.request():
            return False
        self.term = plain_term(term_type)
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return self.connection.request()

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return self.connection.request()

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        if self._unstarted is not None:
            self._unstarted.cancel()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.relay is not None:
            self.relay.feed(data)
            return
        # Keys typed while the app starts wait for it, as many as the input buffer holds.
        self._early += data
        if len(self._early) >= self.server.limits.input_buffer_bytes and not self._early_paused:
            self._early_paused = True
            self.channel.pause_reading()

    def eof_received(self) -> bool:
        self.finish("the client closed its input")
        return False

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if not self.connection.request():
            return
        self.size = (width, height)
        self._schedule_resize()

    def _schedule_resize(self) -> None:
        if self._resize is None and self.master is not None and not (self.relay and self.relay.output_paused):
            self._resize = asyncio.get_running_loop().call_later(RESIZE_SECONDS, self._apply_resize)

    def break_received(self, msec: int) -> bool:
        self.connection.request()
        return False  # nothing to break: the app reads its own keys

    def signal_received(self, signal: str) -> None:
        self.connection.request()  # the app is not the client's to signal

    def pause_writing(self) -> None:
        if self.relay is not None:
            self.relay.pause_writing()

    def resume_writing(self) -> None:
        if self.relay is not None:
            self.relay.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._unstarted is not None:
            self._unstarted.cancel()
        self.finish("the connection closed")
        if self._task is None:  # never started: nothing else gives the channel back
            self.connection.session_ended()

    # --- the session ----------------------------------------------------------------------------
    def finish(self, reason: str) -> None:
        if not self.done.is_set():
            self.reason = reason
            self.done.set()
        if self.relay is not None:
            self.relay.end(reason)

    def goodbye(self, text: str) -> None:
        """The server ends this session: the client's terminal restored, and told why."""
        if self.channel is not None and not self.said_goodbye:
            self.said_goodbye = True
            try:
                self.channel.write(RESTORE_TERMINAL + f"\r\ntui-grid: {text}\r\n".encode())
            except Exception:
                pass
        self.finish(text)

    def _flooding(self) -> None:
        """Keys come faster than anyone types, for seconds: the app yields to others."""
        if self.pid is not None:
            try:
                os.setpriority(os.PRIO_PGRP, self.pid, self.server.limits.flood_niceness)
            except OSError:
                pass
            limits = self.server.limits
            self.server.log(f"session {self.name}: keys faster than typing; its app now runs at niceness "
                            f"{limits.flood_niceness} and is given {limits.flood_bytes_per_second:g} B/s of keys")

    def _apply_resize(self) -> None:
        self._resize = None
        if self.master is not None and self.size != self._applied:  # the kernel tells the app (SIGWINCH)
            self._applied = self.size
            set_window(self.master, *self.size)

    def _say(self, text: str) -> None:
        try:
            self.channel.write_stderr(f"tui-grid: {text}\r\n".encode())
        except Exception:
            pass

    async def _run(self) -> None:
        taken = Taken()
        code: int | str = "?"
        started = False
        try:
            if self.term is None:
                port = self.server.port
                self._say(f"this is a game for a terminal: connect with ssh -t -p {port} {self.server.host_label}")
                self.channel.exit(1)
                return
            why = self.server.admit_session(self, taken)
            if why:
                self._say(f"{why}; try again soon")
                self.channel.exit(1)
                return
            identity = await self.server.identify(self, taken)
            if isinstance(identity, str):
                self._say(identity)
                self.channel.exit(1)
                return
            self.name = identity.name
            master, slave = os.openpty()
            self.master = taken.fd(master)
            taken.fd(slave)
            set_window(slave, *self.size)
            self._applied = self.size
            hub_socket = self.server.hub_link(identity, taken)
            spec = self.server.session_spec(self, identity)
            if identity.uid is not None:
                os.fchown(slave, identity.uid, -1)
            self.pid = await self.server.starter.spawn(spec, slave, hub_socket.fileno() if hub_socket else None)
            started = True
            taken.close_fd(slave)
            if hub_socket is not None:
                taken.sockets.remove(hub_socket)
                hub_socket.close()
            self.server.log(f"session start: {self.name} from {self.connection.address} "
                            f"({self.size[0]}x{self.size[1]}, {self.term})")
            self.relay = Relay(self.channel, master, self.server.limits, self.finish, self._flooding, self._schedule_resize)
            self.relay.channel_paused = self._early_paused  # the relay resumes reading once its buffer drains
            self.relay.start()
            self.relay.feed(bytes(self._early))
            self._early.clear()
            if self.done.is_set():  # the client left while the app was starting
                self.relay.end(self.reason)
            await self.done.wait()
            if self.reason == "the app ended":
                code = await self._exit_code()
        except StarterError as exc:
            self._say(f"the session could not start ({exc}); try again soon")
            self.server.log(f"session refused: {exc}")
        except Exception as exc:  # whatever failed, the session ends and gives everything back
            self._say("the session failed on the server; try again soon")
            self.server.log(f"session failed: {type(exc).__name__}: {printable(exc, limit=200)}")
        finally:
            if self.relay is not None:
                self.relay.end(self.reason or "the session ended")
            if self._resize is not None:
                self._resize.cancel()
            pid = self.pid
            if started and pid is not None and code == "?":  # still running: ended, and waited for
                self.server.starter.kill(pid)
                code = await self._exit_code()
            taken.release()
            if started and pid is not None:
                ended = f"exit {code}" if self.reason == "the app ended" else f"{self.reason}; exit {code}"
                self.server.log(f"session end: {self.name} ({ended})")
                self.server.starter.forget(pid)
            self.master = None
            try:
                self.channel.exit(code if isinstance(code, int) and 0 <= code < 256 else 0)
            except Exception:
                pass
            self.connection.session_ended()

    async def _exit_code(self) -> int | str:
        assert self.pid is not None
        try:
            return await asyncio.wait_for(asyncio.shield(self.server.starter.exited(self.pid)), EXIT_WAIT_SECONDS)
        except asyncio.TimeoutError:
            return "?"


#: Environment variables a session may send (only NO_COLOR is used).
MAX_ENVIRONMENT = 16


def limit_environment_requests(channel: Any, allow: Any) -> None:
    """Environment requests count against the connection's request rate, and a session
    keeps at most MAX_ENVIRONMENT variables: asyncssh stores every one it is sent, with no
    callback to the session, so its env handler is wrapped here, on this channel only (the
    one place this package reaches into asyncssh; tests/test_ssh_limits.py checks it)."""
    original = getattr(channel, "_process_env_request", None)
    if original is None:
        return

    def env_request(packet: Any) -> bool:
        if not allow() or len(channel.get_environment_bytes()) >= MAX_ENVIRONMENT:
            return False
        return bool(original(packet))

    channel._process_env_request = env_request
