"""Every limit `tui-grid serve ssh` puts on strangers, named once.

The server is public: each number here bounds what one client (or one host, or everyone
together) can make it hold, read, write, start or wait for. `ServerLimits()` holds the
defaults; `serve ssh` options and tests replace single fields.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

MiB = 1024 * 1024


def physical_memory() -> int:
    """This machine's memory in bytes (4 GiB where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4096 * MiB


def default_memory_budget() -> int:
    """What all sessions' apps together may hold: half of the machine's memory."""
    return physical_memory() // 2


#: An app's share is never below this, however many sessions share the budget: a session
#: starts with the starter's pages (some 60 MiB) and a game needs room beyond them.
SESSION_MEMORY_FLOOR = 256 * MiB


@dataclass(frozen=True)
class ServerLimits:
    # --- sessions: one app each ------------------------------------------------------------
    #: Sessions at once, in all.
    max_sessions: int = 32
    #: Sessions at once from one host: an IPv4 address, an IPv6 /64, or loopback as a whole.
    per_host: int = 4
    #: Sessions at once with one key (--auth keys).
    per_key: int = 4
    #: Session channels one connection may open (OpenSSH's MaxSessions).
    channels_per_connection: int = 4

    # --- connections, before and after logging in (OpenSSH's MaxStartups, LoginGraceTime) --
    #: Connections that have not logged in yet, in all and from one host.
    unauthenticated: int = 64
    unauthenticated_per_host: int = 8
    #: Seconds a connection has to log in.
    login_seconds: float = 20.0
    #: Past a quarter of `unauthenticated`, a new connection is dropped at random, more
    #: often the fuller it gets (as sshd's MaxStartups 16:30:64): hosts that fill the login
    #: slots together cannot keep everyone else out.
    early_drop_from: float = 0.3
    #: New connections and new sessions one host may open per minute (and in a burst, a
    #: sixth of that): each costs a handshake, a session an app.
    connections_per_minute: int = 120
    sessions_per_minute: int = 60
    #: Hosts whose rates are remembered at once (the least recently seen are forgotten).
    rate_hosts: int = 4096
    #: Logged-in connections, with or without a session: in all, and from one host.
    connections: int = 256
    connections_per_host: int = 8
    #: Seconds a logged-in connection may hold no session (or a session channel that never
    #: asks for a shell) before it is closed.
    idle_connection_seconds: float = 15.0

    # --- what one session may send and leave unread --------------------------------------
    #: Channel requests (window changes, breaks, signals, environment) a connection may
    #: make per second, and in a burst; past that the connection is closed.
    requests_per_second: float = 20.0
    request_burst: float = 200.0
    #: Keys waiting for the app, at most; past that the client's SSH window closes (flow
    #: control: the client waits, nothing is lost).
    input_buffer_bytes: int = 64 * 1024
    #: Bytes of keys a second the app is given, and in a burst: people type a few dozen and
    #: a moving mouse sends about a KiB; a paste of megabytes reaches the app at this pace
    #: (which it keeps up with) instead of piling up in its memory.
    input_bytes_per_second: float = 2 * 1024
    input_burst_bytes: int = 8 * 1024
    #: A session that keeps its keys at that pace for this long is pasting or flooding: for
    #: the rest of the session its app runs at this niceness and is given keys at this pace
    #: (above a held arrow key's auto-repeat, about 90 bytes a second; each key costs its
    #: app a redraw), so it costs other players little.
    flood_seconds: float = 2.0
    flood_niceness: int = 15
    flood_bytes_per_second: float = 128
    #: Screen output waiting for a slow client, at most; while it waits, the app's output
    #: is not read (the app waits on its terminal).
    output_high_water: int = 256 * 1024
    #: Seconds a client may read nothing while output waits before its session ends.
    stall_seconds: float = 90.0
    #: Seconds between the server's keepalives, and how many may go unanswered.
    keepalive_seconds: float = 30.0
    keepalive_count: int = 3

    # --- what one session's app may use -----------------------------------------------------
    #: Memory for all sessions' apps together; each app may hold its share (a hard limit),
    #: and where the server may make a cgroup, the sessions' cgroup holds them all to it.
    memory_budget_bytes: int = field(default_factory=default_memory_budget)
    #: An app's share never exceeds this, however large the budget.
    session_memory_cap_bytes: int = 1024 * MiB
    #: The largest file an app may write, and how many files it may hold open.
    session_file_bytes: int = 16 * MiB
    session_open_files: int = 256
    #: Processes and threads an app may have (where each session has a user of its own,
    #: which the kernel counts them by).
    session_processes: int = 64
    #: How much lower than the server's an app's priority is (the hub's matches come first).
    session_niceness: int = 5
    #: Seconds the server waits for the session starter when it is busy or restarting.
    start_seconds: float = 30.0

    # --- the server itself ---------------------------------------------------------------------
    #: Open files the server asks for at start (its soft limit is raised to this, at most
    #: its hard limit), so a crowd of connections cannot make accept() fail.
    server_open_files: int = 65536

    @property
    def session_memory_bytes(self) -> int:
        """One app's hard memory limit: its share of the budget, within the cap."""
        return max(SESSION_MEMORY_FLOOR, min(self.session_memory_cap_bytes, self.memory_budget_bytes // max(1, self.max_sessions)))
