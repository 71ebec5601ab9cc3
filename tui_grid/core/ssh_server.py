"""`tui-grid serve ssh`: the app over SSH, with nothing for the player to install.

Each connection gets its own `tui_grid` process on its own pseudo-terminal: the client's
TERM and window size reach it, resizes follow, and a session that crashes or is killed
disturbs no other. When the connection drops, the process group is killed. The server
logs one line per session start and end.

Remote sessions run in remote mode (`TUI_GRID_REMOTE=1`): no program seats, no file paths
to save to, and a data folder of their own (per user name with `--auth none`, per key
fingerprint with `--auth keys`), never shared between players.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import os
import re
import signal
import struct
import sys
import termios
from pathlib import Path
from typing import Any, Callable

from tui_grid.core.hub import Hub, Pace

#: Printable characters a remote name keeps (and at most 16 of them).
_NAME = re.compile(r"[^A-Za-z0-9_.-]")
MAX_NAME = 16
READ_CHUNK = 65536
#: Sessions one address, or one key (--auth keys), may hold at once.
MAX_PER_ADDRESS = 4
MAX_PER_KEY = 4
#: A client's window, as the app is told it: at most this many columns and rows (a
#: terminal of 65535x65535 would make the app draw gigabytes).
MAX_TERMINAL = 500
#: Resizes are applied at most this often (a flood of them is one resize).
RESIZE_SECONDS = 0.05
#: How much lower than the server's a session's priority is.
SESSION_NICENESS = 5
#: Memory each session's app may use (its heap: RLIMIT_DATA), and no core files.
SESSION_MEMORY_BYTES = 2 * 1024**3


def unique_name(name: str, taken: set[str]) -> str:
    """`name`, or `name-2`, `name-3`...: names are unique while their players are connected."""
    if name not in taken:
        return name
    for number in range(2, 10_000):
        candidate = f"{name[: MAX_NAME - 1 - len(str(number))]}-{number}"
        if candidate not in taken:
            return candidate
    raise RuntimeError("no free name")


def _limit_session() -> None:
    """In the session's process, before the app starts: a memory ceiling, no core files, and
    a lower priority than the server's, so no session's solver can starve the matches the
    hub runs for everyone."""
    import resource

    # The pty becomes the session's controlling terminal: when the connection's side of it
    # closes, the kernel hangs the app up (SIGHUP), so no app outlives its terminal, even
    # if this server is killed outright.
    try:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError:
        pass
    os.nice(SESSION_NICENESS)
    for kind, value in ((resource.RLIMIT_DATA, SESSION_MEMORY_BYTES), (resource.RLIMIT_CORE, 0)):
        soft, hard = resource.getrlimit(kind)
        ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (ceiling, hard))


def host_key(path: Path) -> Any:
    """The server's host key, made on first start and kept (0600) at `path`."""
    import asyncssh

    if path.exists():
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as stream:
        stream.write(key.export_private_key())
    return key


def safe_name(name: str) -> str:
    """A user name fit for a folder and a screen: at most 16 plain characters."""
    return _NAME.sub("", name)[:MAX_NAME] or "player"


def app_argv(command: str | None, games: tuple[str, ...]) -> list[str]:
    """What a session runs: the menu; a game's quick-match queue when the client names a
    game played online (`ssh -t host tron`); else that game's boards. Any other command is
    ignored: nothing a client types is run."""
    from tui_grid.core.hub_wire import ONLINE_GAMES

    argv = [sys.executable, "-m", "tui_grid"]
    word = (command or "").strip().lower()
    if word in ONLINE_GAMES and word in games:
        argv += ["online", word]
    elif word in games:
        argv += ["play", word]
    return argv


class SSHServerOptions:
    """The server's settings and its live bookkeeping: sessions, names, addresses, the hub."""

    def __init__(self, data: Path, auth: str, authorized_keys: Path | None, max_sessions: int,
                 log: Callable[[str], None], games: tuple[str, ...], pace: Pace | None = None) -> None:
        self.data = data
        self.auth = auth
        self.authorized_keys = authorized_keys
        self.max_sessions = max_sessions
        self.log = log
        self.games = games
        self.sessions = 0
        self.names: set[str] = set()  # connected players' names: unique while connected
        self.per_address: dict[str, int] = {}
        self.per_key: dict[str, int] = {}
        self.max_per_address = MAX_PER_ADDRESS
        self.children: set[int] = set()  # the sessions' apps, each leading its process group
        self.pace = pace
        self.hub: Hub | None = None  # made by `start`; `close` ends it


    def close(self) -> None:
        """End every session's app, and the hub (its matches, links and socket)."""
        for pid in list(self.children):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.hub is not None:
            self.hub.close()
            self.hub = None


def _server_class(options: SSHServerOptions) -> type:
    import asyncssh

    class Server(asyncssh.SSHServer):  # type: ignore[misc]
        def connection_made(self, conn: Any) -> None:
            self.conn = conn
            self.peer = conn.get_extra_info("peername")

        fingerprint: str | None = None  # the client's key, once it proved it holds it

        def begin_auth(self, username: str) -> bool:
            return options.auth != "none"  # none: anyone, with any name (as sshtron)

        def public_key_auth_supported(self) -> bool:
            return options.auth == "keys"

        def validate_public_key(self, username: str, key: Any) -> bool:
            """Only keys in the authorized-keys file (read at each login, so edits take
            effect at once); the key's fingerprint names the player's data folder."""
            path = options.authorized_keys
            if path is None or not path.is_file():
                return False
            try:
                allowed = asyncssh.read_authorized_keys(str(path))
            except (OSError, ValueError):
                return False
            peer = self.conn.get_extra_info("peername") or ("", 0)
            if allowed.validate(key, peer[0], peer[0]) is None:
                return False
            self.fingerprint = key.get_fingerprint()
            return True

    return Server


async def _session(process: Any, options: SSHServerOptions) -> None:
    """One connection: the app on a PTY of the client's size, bytes relayed both ways."""
    import asyncssh

    conn = process.channel.get_connection()
    peer = conn.get_extra_info("peername")
    address = peer[0] if peer else "?"
    fingerprint = getattr(conn.get_owner(), "fingerprint", None)
    why = ""
    if options.sessions >= options.max_sessions:
        why = f"the server is full ({options.max_sessions} sessions)"
    elif options.per_address.get(address, 0) >= options.max_per_address:
        why = f"{options.max_per_address} sessions from {address} already"
    elif fingerprint and options.per_key.get(fingerprint, 0) >= MAX_PER_KEY:
        why = f"{MAX_PER_KEY} sessions with this key already"
    if why:
        process.stderr.write(f"tui-grid: {why}; try again soon\r\n".encode())
        process.exit(1)
        return
    user = unique_name(safe_name(conn.get_extra_info("username") or ""), options.names)
    # A folder per key with --auth keys (the same player whatever name it gives); else per
    # connected name: two connected players never share one.
    folder = hashlib.sha256((fingerprint or f"name:{user}").encode()).hexdigest()[:16]
    options.names.add(user)
    options.per_address[address] = options.per_address.get(address, 0) + 1
    if fingerprint:
        options.per_key[fingerprint] = options.per_key.get(fingerprint, 0) + 1
    width, height, _, _ = process.get_terminal_size() if process.get_terminal_type() else (80, 24, 0, 0)
    term = process.get_terminal_type() or "xterm-256color"
    env = {**os.environ, "TERM": term, "TUI_GRID_REMOTE": "1", "TUI_GRID_PLAYER": user,
           "TUI_GRID_DATA": str(options.data / "players" / folder)}
    sent = process.env or {}  # what the client sent with SendEnv: only NO_COLOR is taken
    if sent.get("NO_COLOR") not in (None, ""):
        env["NO_COLOR"] = "1"
    token = options.hub.admit(user) if options.hub is not None else None
    if options.hub is not None and token is not None:
        env.update({"TUI_GRID_HUB": str(options.hub.path), "TUI_GRID_HUB_TOKEN": token})
    master, slave = os.openpty()
    _resize(slave, width or 80, height or 24)
    options.sessions += 1
    options.log(f"session start: {user} from {address} ({width}x{height}, {term})")
    child = await asyncio.create_subprocess_exec(
        *app_argv(process.command, options.games), stdin=slave, stdout=slave, stderr=slave, env=env,
        start_new_session=True, preexec_fn=_limit_session)
    os.close(slave)
    options.children.add(child.pid)
    loop = asyncio.get_running_loop()
    done = asyncio.Event()

    def readable() -> None:
        try:
            data = os.read(master, READ_CHUNK)
        except OSError:
            data = b""
        if data:
            try:
                process.stdout.write(data)
                return
            except (OSError, asyncssh.Error):  # the client's channel closed: the session ends
                pass
        loop.remove_reader(master)
        done.set()

    loop.add_reader(master, readable)
    wanted: list[tuple[int, int]] = []  # the latest size asked for, applied at most every RESIZE_SECONDS
    applying: list[asyncio.TimerHandle] = []

    def apply_resize() -> None:
        applying.clear()
        _resize(master, *wanted[-1])
        try:
            os.killpg(child.pid, signal.SIGWINCH)
        except ProcessLookupError:
            pass

    async def keys() -> None:
        while not done.is_set():
            try:
                data = await process.stdin.read(READ_CHUNK)
            except asyncssh.TerminalSizeChanged as change:  # the client's window: the app's terminal
                wanted[:] = [(change.width, change.height)]
                if not applying:
                    applying.append(loop.call_later(RESIZE_SECONDS, apply_resize))
                continue
            except (asyncssh.Error, OSError):
                break
            if not data:
                break
            os.write(master, data)
        done.set()

    reader = asyncio.create_task(keys())
    try:
        await done.wait()
    finally:
        for handle in applying:
            handle.cancel()
        reader.cancel()
        loop.remove_reader(master)
        try:
            os.killpg(child.pid, signal.SIGKILL)  # a dropped connection leaves no process
        except ProcessLookupError:
            pass
        await child.wait()
        options.children.discard(child.pid)
        os.close(master)
        if options.hub is not None and token is not None:
            options.hub.forget(token)
        options.sessions -= 1
        options.names.discard(user)
        options.per_address[address] -= 1
        if fingerprint:
            options.per_key[fingerprint] -= 1
        options.log(f"session end: {user} (exit {child.returncode})")
        process.exit(0)


def _resize(fd: int, width: int, height: int) -> None:
    width, height = (max(1, min(MAX_TERMINAL, int(side or 1))) for side in (width or 80, height or 24))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


async def start(host: str, port: int, key_path: Path, options: SSHServerOptions) -> Any:
    """Listen; returns the asyncssh server (its `sockets` give the port when 0 was asked)."""
    import asyncssh

    if options.hub is None:
        options.hub = Hub(options.data / "hub", pace=options.pace, log=options.log)
        options.hub.start()
    return await asyncssh.create_server(
        _server_class(options), host, port, server_host_keys=[host_key(key_path)],
        process_factory=lambda process: _session(process, options), encoding=None,
        line_editor=False, allow_scp=False, agent_forwarding=False, x11_forwarding=False,
    )
