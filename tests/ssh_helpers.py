"""A real `serve ssh` (GameServer) on a free port for one test, and what tests look at."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh

from tui_grid.core.hub import Pace
from tui_grid.online.limits import ServerLimits
from tui_grid.online.ssh_server import GameServer, ServerConfig

MENU = "enter picks a game"
GAMES = ("ice", "jimmy", "bunny", "tron", "evasion")
#: Small enough that tests reach every limit with a few connections.
TEST_LIMITS = replace(ServerLimits(), max_sessions=4, memory_budget_bytes=4 * 512 * 1024 * 1024)


async def read_until(process: Any, words: str, limit_bytes: int = 2_000_000, seconds: float = 30.0) -> str:
    seen = b""
    deadline = time.monotonic() + seconds
    while words.encode() not in seen and len(seen) < limit_bytes and time.monotonic() < deadline:
        try:
            data = await asyncio.wait_for(process.stdout.read(65536), timeout=1.0)
        except asyncio.TimeoutError:
            continue
        if not data:
            break
        seen += data
    return seen.decode("utf-8", "replace")


@asynccontextmanager
async def serving(tmp_path: Path, auth: str = "none", keys: Path | None = None, pace: Pace | None = None,
                  limits: ServerLimits = TEST_LIMITS) -> AsyncIterator[tuple[int, list[str], GameServer]]:
    """A server for one test: its port, its log lines and itself; stopped after."""
    lines: list[str] = []
    server = GameServer(ServerConfig(tmp_path / "ssh", auth, keys, GAMES, limits, pace), lines.append)
    await server.start("127.0.0.1", 0, tmp_path / "key")
    try:
        yield server.port, lines, server
    finally:
        await server.stop()
        server.close()


async def connect(port: int, name: str, **options: Any) -> Any:
    options.setdefault("known_hosts", None)
    options.setdefault("encoding", None)
    return await asyncssh.connect("127.0.0.1", port, username=name, **options)


async def menu_session(port: int, name: str, **options: Any) -> tuple[Any, Any]:
    """A client on the menu: its connection and process."""
    conn = await connect(port, name, **options)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
    assert MENU in await read_until(process, MENU)
    return conn, process


async def until(condition: Any, steps: int = 600, pause: float = 0.05) -> bool:
    """Wait for `condition` (bounded in steps); its last value."""
    for _ in range(steps):
        if condition():
            return True
        await asyncio.sleep(pause)
    return bool(condition())


def pid_of(server: GameServer, name: str) -> int | None:
    for session in server.sessions:
        if session.name == name and session.pid is not None:
            return session.pid
    return None


def alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def held(server: GameServer) -> dict[str, int]:
    """Everything the server counts, for `== {all zero}` after clients leave."""
    return {"sessions": len(server.sessions), "hosts": server.session_hosts.total(), "keys": server.session_keys.total(),
            "online": server.online.total(), "unauthenticated": server.unauthenticated.total(),
            "authenticated": server.authenticated.total()}


NOTHING_HELD = {"sessions": 0, "hosts": 0, "keys": 0, "online": 0, "unauthenticated": 0, "authenticated": 0}


def session_user_ids() -> tuple[int, int] | None:
    from tui_grid.online.ssh_server import session_user

    return session_user(None)


def own_file(path: Path) -> bool:
    return path.stat().st_uid == (session_user_ids() or (os.getuid(), 0))[0]
