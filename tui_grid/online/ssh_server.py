"""`tui-grid serve ssh`: the app over SSH for strangers, with nothing for them to install.

Each session is its own app, forked by a warm starter (online.zygote) onto its own
pseudo-terminal, as its own process group, in the player's own folder, under limits
(online.limits): memory, files, priority, and where the server runs as root, another
user. The server relays bytes (online.relay), bounded both ways; counts connections and
sessions per host before and after login (online.ssh_connection); knows who a player is
(with keys: the name the key claimed, online.store; without: a guest for that connection
only); and hosts the lobby's matches (online.hub). When it stops, every client is told and
its terminal restored.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import asyncssh

from tui_grid.games.registry import online_games
from tui_grid.online.arena_room import CYCLES as ARENA_CYCLES
from tui_grid.online.hub import Hub, Pace
from tui_grid.online.client import HUB_FD_VARIABLE
from tui_grid.online import authorized_keys
from tui_grid.online.cgroup import SessionsCgroup
from tui_grid.online.hosts import Counts, HostRates
from tui_grid.online.limits import ServerLimits
from tui_grid.online.names import safe_name, skeleton, unique_name
from tui_grid.online.ssh_connection import Connection
from tui_grid.online.ssh_session import GameSession, Taken, app_argv
from tui_grid.online.starter import SessionStarter
from tui_grid.online.records import NameTaken
from tui_grid.online.store import PlayerStore
from tui_grid.online.users import SessionUsers
from tui_grid.online.spawning import HUB_FD, SessionSpec

#: Seconds between log lines that sum up refused connections (a flood is one line).
REFUSALS_LOG_SECONDS = 10.0
#: Seconds clients get to read the goodbye before the server closes.
GOODBYE_SECONDS = 0.5


@dataclass(frozen=True)
class ServerConfig:
    data: Path
    auth: str  # "none": anyone, as a guest; "keys": only --authorized-keys
    authorized_keys: Path | None = None
    games: tuple[str, ...] = ()
    limits: ServerLimits = field(default_factory=ServerLimits)
    pace: Pace | None = None
    #: Sessions run as this user when the server runs as root (default "nobody").
    session_user: str | None = None
    #: Cycles in the Tron arena room's rounds (riders and bots).
    arena_cycles: int = ARENA_CYCLES
    #: The Redis URL the servers sharing one lobby meet at (None: this server alone).
    federation: str | None = None
    #: The PostgreSQL DSN of the shared store (None: this server's SQLite file).
    store: str | None = None


def shared_store(dsn: str) -> Any:
    """The PostgreSQL store at `dsn` (psycopg 3, imported only here); ValueError saying
    what is missing or unreachable."""
    try:
        from tui_grid.online.store_pg import PostgresStore
    except ImportError:
        raise ValueError("--store postgresql://… needs psycopg 3: pip install 'tui_grid[servers]'") from None
    try:
        return PostgresStore(dsn)
    except Exception as exc:
        raise ValueError(f"cannot use the store at {dsn.split('@')[-1]}: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True)
class Identity:
    name: str
    folder: Path
    guest: bool
    fingerprint: str | None = None
    uid: int | None = None
    gid: int | None = None
    player_id: int | None = None  # an account's, in the store
    returning: bool = False  # the account was known before this connection


def readable_by(user: tuple[int, int], path: str) -> bool:
    """Whether `user` may read the file at `path` (a child becomes that user and tries)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgroups([])
            os.setgid(user[1])
            os.setuid(user[0])
            with open(path, "rb") as stream:
                stream.read(1)
            code = 0
        except BaseException:
            pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def raise_open_files(wanted: int) -> int:
    """The server's soft limit on open files raised toward `wanted` (at most the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


class GameServer:
    """The live server: its listener, starter, hub and store, and the counts that bound
    what strangers may hold."""

    def __init__(self, config: ServerConfig, log: Callable[[str], None], chance: random.Random | None = None,
                 starter: SessionStarter | None = None) -> None:
        self.config = config
        self.chance = chance or random.Random()  # the early drop's
        self.limits = config.limits
        self.log = log
        self.data = config.data
        self.users = SessionUsers(config.session_user)
        self.owns_starter = starter is None  # a starter given (tests share one) outlives this server
        self.starter = starter or SessionStarter(log, self.limits.start_seconds)
        self.hub: Hub | None = None
        self.store = PlayerStore(self.data / "players.db") if config.store is None else shared_store(config.store)
        self.cgroup: SessionsCgroup | None = None
        self.sessions: set[GameSession] = set()
        self.session_hosts, self.session_keys = Counts(), Counts()
        self.unauthenticated, self.authenticated = Counts(), Counts()
        self.connection_rates = HostRates(self.limits.connections_per_minute, self.limits.rate_hosts)
        self.session_rates = HostRates(self.limits.sessions_per_minute, self.limits.rate_hosts)
        self.online = Counts()  # skeletons of connected players' names: how many sessions each
        self.port = 0
        self.host_label = "HOST"
        self._listener: Any = None
        self._keys: tuple[tuple[int, int, int], authorized_keys.AuthorizedKeys] | None = None
        self._refused: dict[str, int] = {}
        self.refusals = 0  # connections refused since the start
        self._refusals_logged: asyncio.TimerHandle | None = None

    # --- life -------------------------------------------------------------------------------
    async def start(self, host: str, port: int, key_path: Path) -> None:
        for folder in (self.data, self.data / "players", self.data / "guests"):
            folder.mkdir(parents=True, exist_ok=True)
            folder.chmod(0o700)
        for stale in (self.data / "guests").iterdir():  # guests of a server that was killed
            _remove_tree(stale)
        raise_open_files(self.limits.server_open_files)
        self.cgroup = SessionsCgroup.make(self.limits.memory_budget_bytes)
        self.log(f"sessions: at most {self.limits.max_sessions}, {self.limits.session_memory_bytes // 2**20} MiB each"
                 + (f", {self.limits.memory_budget_bytes // 2**20} MiB together (cgroup)" if self.cgroup else "")
                 + (f", {self.users.describe()}" if self.users.describe() else ""))
        probe = self.users.example()
        if probe is not None and not readable_by(probe, os.__file__):
            self.log(f"warning: the session user cannot read Python's library ({os.path.dirname(os.__file__)}): sessions "
                     "have only what the session starter loaded; install Python where that user can read it")
        if self.config.auth == "keys":
            self.report_keys()
        self.hub = Hub(self.data / "hub", pace=self.config.pace, log=self.log, store=self.store, arena_cycles=self.config.arena_cycles,
                       federation=self.config.federation)
        self.hub.start()
        self.host_label = host if host not in ("0.0.0.0", "::", "") else "HOST"
        self._listener = await asyncssh.create_server(
            lambda: Connection(self, GameSession), host, port, server_host_keys=[host_key(key_path)], encoding=None,
            line_editor=False, allow_scp=False, agent_forwarding=False, x11_forwarding=False,
            login_timeout=self.limits.login_seconds, keepalive_interval=self.limits.keepalive_seconds,
            keepalive_count_max=self.limits.keepalive_count, window=128 * 1024, max_pktsize=32768,
        )
        self.port = self._listener.sockets[0].getsockname()[1]
        asyncio.get_running_loop().create_task(self._prepare())

    async def _prepare(self) -> None:
        try:
            await self.starter.start()
        except Exception as exc:
            self.log(f"sessions cannot start yet: {exc}")

    async def stop(self, text: str = "the server is stopping; goodbye") -> None:
        """Every client told and its terminal restored, then everything closed."""
        if self._listener is not None:
            self._listener.close()
        for session in list(self.sessions):
            session.goodbye(text)
        if self.sessions:
            await asyncio.sleep(GOODBYE_SECONDS)
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None
        if self.owns_starter:
            await self.starter.stop()
        self.close()

    def close(self) -> None:
        if self.owns_starter:
            self.starter.close()
        else:
            self.starter.detach()
        if self.hub is not None:
            self.hub.close()
            self.hub = None
        if self.cgroup is not None:
            self.cgroup.close()
        if self._refusals_logged is not None:
            self._refusals_logged.cancel()
            self._log_refusals()  # what is still to be said

    # --- connections ------------------------------------------------------------------------
    def admit_connection(self, conn: Connection) -> str | None:
        limits = self.limits
        if not self.connection_rates.allow(conn.host):
            return f"too many new connections from {conn.host}"
        logging_in = self.unauthenticated.total()
        if logging_in >= limits.unauthenticated:
            return "too many connections logging in"
        start = limits.unauthenticated // 4
        if logging_in >= start:
            fuller = (logging_in - start) / max(1, limits.unauthenticated - start)
            if self.chance.random() < limits.early_drop_from + (1 - limits.early_drop_from) * fuller:
                return "too many connections logging in (dropped at random)"
        if not self.unauthenticated.take(conn.host, limits.unauthenticated_per_host):
            return f"too many connections logging in from {conn.host}"
        conn.counted = "unauthenticated"
        return None

    def logged_in(self, conn: Connection) -> str | None:
        self._give(conn)
        if self.authenticated.total() >= self.limits.connections:
            return "too many connections"
        if not self.authenticated.take(conn.host, self.limits.connections_per_host):
            return f"too many connections from {conn.host}"
        conn.counted = "authenticated"
        return None

    def connection_gone(self, conn: Connection) -> None:
        self._give(conn)

    def _give(self, conn: Connection) -> None:
        if conn.counted == "unauthenticated":
            self.unauthenticated.give(conn.host)
        elif conn.counted == "authenticated":
            self.authenticated.give(conn.host)
        conn.counted = ""

    def refused(self, why: str) -> None:
        """A connection refused: summed up in one log line every few seconds."""
        self.refusals += 1
        self._refused[why] = self._refused.get(why, 0) + 1
        if self._refusals_logged is None:
            self._refusals_logged = asyncio.get_running_loop().call_later(REFUSALS_LOG_SECONDS, self._log_refusals)

    def _log_refusals(self) -> None:
        self._refusals_logged = None
        counts, self._refused = self._refused, {}
        for why, count in sorted(counts.items()):
            self.log(f"refused {count} connection{'s' if count != 1 else ''}: {why}")

    def authorized_keys(self) -> authorized_keys.AuthorizedKeys:
        """The keys file as it is now (read again when it changed)."""
        path = self.config.authorized_keys
        if path is None:
            return authorized_keys.AuthorizedKeys((), ())
        try:
            info = path.stat()
            stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
            if self._keys is None or self._keys[0] != stamp:
                self._keys = (stamp, authorized_keys.read(path))
        except OSError:
            return authorized_keys.AuthorizedKeys((), ())
        return self._keys[1]

    def report_keys(self) -> None:
        """At start: each line of the keys file that is not used, and whether any key is."""
        path = self.config.authorized_keys
        keys = self.authorized_keys()
        for refused in keys.refused:
            self.log(f"{path}:{refused.line}:{refused.column}: key not used: {refused.why}")
        if not keys.entries:
            self.log(f"warning: {path} holds no usable key: nobody can log in until one is added (it is read at each login)")

    # --- sessions -----------------------------------------------------------------------------
    def admit_session(self, session: GameSession, taken: Taken) -> str | None:
        conn = session.connection
        if not self.session_rates.allow(conn.host):
            return f"too many new sessions from {conn.host}"
        if len(self.sessions) >= self.limits.max_sessions:
            return f"the server is full ({self.limits.max_sessions} sessions)"
        if not self.session_hosts.take(conn.host, self.limits.per_host):
            return f"{self.limits.per_host} sessions from {conn.host} already"
        taken.undo.append(lambda: self.session_hosts.give(conn.host))
        if conn.fingerprint:
            if not self.session_keys.take(conn.fingerprint, self.limits.per_key):
                return f"{self.limits.per_key} sessions with this key already"
            taken.undo.append(lambda: self.session_keys.give(conn.fingerprint or ""))
        self.sessions.add(session)
        taken.undo.append(lambda: self.sessions.discard(session))
        return None

    async def identify(self, session: GameSession, taken: Taken) -> Identity | str:
        """Who plays this session (and their folder, made), or why nobody may."""
        conn = session.connection
        wanted = safe_name(conn.conn.get_extra_info("username") or "")
        user = self.users.take()
        taken.undo.append(lambda: self.users.give(user))
        uid, gid = user if user else (None, None)
        if conn.fingerprint:
            try:
                known = await asyncio.to_thread(self.store.player_of, conn.fingerprint)
                player = known or await asyncio.to_thread(self.store.claim, conn.fingerprint, wanted)
            except NameTaken:
                return (f"the name {wanted!r} (or one like it) is taken or reserved: connect as another name "
                        f"(ssh -t -p {self.port} NAME@{self.host_label})")
            identity = Identity(player.name, self.data / "players" / player.folder, False, conn.fingerprint, uid, gid,
                                player.id, known is not None)
        else:
            name = await asyncio.to_thread(self._guest_name, wanted)
            identity = Identity(name, self.data / "guests" / secrets.token_hex(8), True, None, uid, gid)
            taken.undo.append(lambda: _remove_tree(identity.folder))
        bare = skeleton(identity.name)
        self.online.take(bare)
        taken.undo.append(lambda: self.online.give(bare))
        await asyncio.to_thread(make_private_folder, identity.folder, uid, gid)
        return identity

    def _guest_name(self, wanted: str) -> str:
        taken = self.online.keys()
        while True:
            name = unique_name(wanted, taken)
            if not self.store.claimed(name):
                return name
            taken.add(skeleton(name))

    def hub_link(self, identity: Identity, taken: Taken) -> Any:
        """The app's end of its link to the hub (None without a hub)."""
        if self.hub is None:
            return None
        theirs, link = self.hub.admit(identity.name, identity.guest, identity.player_id, identity.returning)
        taken.sockets.append(theirs)
        hub = self.hub
        taken.undo.append(lambda: hub.forget(link))
        return theirs

    def session_spec(self, session: GameSession, identity: Identity) -> SessionSpec:
        env = {"TERM": session.term or "xterm-256color", "TUI_GRID_REMOTE": "1", "TUI_GRID_PLAYER": identity.name,
               "TUI_GRID_DATA": ".", "HOME": ".", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
        if identity.guest:
            env["TUI_GRID_GUEST"] = "1"
        if self.hub is not None:
            env[HUB_FD_VARIABLE] = str(HUB_FD)
        sent = session.channel.get_environment() or {}  # what the client sent with SendEnv: only NO_COLOR is taken
        if sent.get("NO_COLOR") not in (None, ""):
            env["NO_COLOR"] = "1"
        limits = self.limits
        return SessionSpec(
            argv=app_argv(session.command, self.config.games, online_games()), env=env, folder=str(identity.folder),
            uid=identity.uid, gid=identity.gid, memory_bytes=limits.session_memory_bytes, file_bytes=limits.session_file_bytes,
            open_files=limits.session_open_files, niceness=limits.session_niceness,
            processes=limits.session_processes if self.users.separate else None,
            cgroup_procs=self.cgroup.procs if self.cgroup else None)


def make_private_folder(folder: Path, uid: int | None, gid: int | None) -> None:
    """The player's folder, 0700, owned by the user the session runs as."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    if uid is not None and gid is not None:
        for path in [folder, *folder.rglob("*")]:
            if not path.is_symlink():
                os.chown(path, uid, gid)


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def host_key(path: Path) -> Any:
    """The server's host key, made on first start and kept (0600) at `path`."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as stream:
        stream.write(key.export_private_key())
    return key
