"""One SSH connection to `serve ssh`, from its first byte to its last: counted against its
host before it logs in and after, given a short time to log in and then to open a session,
its keys checked against `--authorized-keys` with their options, and its channel requests
rate-limited (a flood closes it)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Callable

import asyncssh

from tui_grid.online.hub import RateLimit
from tui_grid.online.hosts import host_of

if TYPE_CHECKING:
    from tui_grid.online.ssh_server import GameServer


class Connection(asyncssh.SSHServer):  # type: ignore[misc]
    def __init__(self, server: GameServer, session_type: Callable[[Connection], Any]) -> None:
        self.server = server
        self.session_type = session_type  # what each session channel becomes (online.ssh_session)
        self.conn: Any = None
        self.address = "?"
        self.host = "?"
        self.logged_in = False
        self.counted = ""  # "unauthenticated" or "authenticated": what connection_lost gives back
        self.fingerprint: str | None = None
        self.sessions = 0  # session channels open on this connection
        self.requests = RateLimit(server.limits.requests_per_second, server.limits.request_burst)
        self._idle: asyncio.TimerHandle | None = None
        self.closing = False

    # --- before logging in ----------------------------------------------------------------
    def connection_made(self, conn: Any) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.host = host_of(self.address)
        why = self.server.admit_connection(self)
        if why:
            self.server.refused(why)
            self.closing = True
            asyncio.get_running_loop().call_soon(conn.abort)

    def begin_auth(self, username: str) -> bool:
        return self.server.config.auth != "none"  # none: anyone, with any name, as a guest

    def public_key_auth_supported(self) -> bool:
        return self.server.config.auth == "keys"

    def validate_public_key(self, username: str, key: Any) -> bool:
        entries = self.server.authorized_keys().find(key)
        now = time.time()
        for entry in entries:
            if entry.admits(self.address, now) is None:
                self.fingerprint = key.get_fingerprint()
                return True
        return False

    def auth_completed(self) -> None:
        self.logged_in = True
        why = self.server.logged_in(self)
        if why:
            self.server.refused(why)
            self.close()
            return
        self._wait_for_session()

    # --- after ------------------------------------------------------------------------------
    def _wait_for_session(self) -> None:
        """A logged-in connection holds a session, or is closed after a short while."""
        if self._idle is None and not self.closing:
            self._idle = asyncio.get_running_loop().call_later(
                self.server.limits.idle_connection_seconds, self.close)

    def session_requested(self) -> Any:
        if not self.request():  # opening a channel costs the server too: counted like a request
            return False
        if self.closing or not self.logged_in or self.sessions >= self.server.limits.channels_per_connection:
            return False
        self.sessions += 1
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        return self.session_type(self)

    def session_ended(self) -> None:
        self.sessions -= 1
        if self.sessions == 0:
            self._wait_for_session()

    def request(self) -> bool:
        """One channel request (a window change, a break, a signal, an environment
        variable): False, and the connection closed, once they come too fast."""
        if self.requests.allow():
            return True
        if not self.closing:
            self.server.log(f"connection from {self.address} closed: too many requests")
            self.close()
        return False

    def close(self) -> None:
        self.closing = True
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self.conn is not None:
            self.conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self.closing = True
        self.server.connection_gone(self)
