"""A real `serve ssh` (GameServer) on a free port for one test, and what tests look at."""

from __future__ import annotations

import asyncio
import atexit
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from tui_grid.online.hub import Pace
from tui_grid.online.limits import ServerLimits
from tui_grid.online.ssh_server import GameServer, ServerConfig
from tui_grid.online.starter import SessionStarter

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


#: One session starter for every server of a test process (a starter warms up for a
#: second: each test's server would pay it), stopped when the process ends.
SHARED_STARTER = SessionStarter(lambda text: None)
atexit.register(SHARED_STARTER.close)


@asynccontextmanager
async def serving(tmp_path: Path, auth: str = "none", keys: Path | None = None, pace: Pace | None = None,
                  limits: ServerLimits = TEST_LIMITS, seed: int = 1,
                  own_starter: bool = False, arena_cycles: int = 6) -> AsyncIterator[tuple[int, list[str], GameServer]]:
    """A server for one test: its port, its log lines and itself; stopped after. Its random
    early drop is seeded; its sessions come from the shared starter unless `own_starter`."""
    import random

    lines: list[str] = []
    config = ServerConfig(tmp_path / "ssh", auth, keys, GAMES, limits, pace, arena_cycles=arena_cycles)
    server = GameServer(config, lines.append, random.Random(seed),
                        None if own_starter else SHARED_STARTER)
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


def running_as_root() -> bool:
    return os.geteuid() == 0


class Terminal:
    """What a client's 80x24 terminal shows (pyte renders the bytes the session sent)."""

    def __init__(self, process) -> None:  # type: ignore[no-untyped-def]
        self.process = process
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        """The screen's words, lines joined (a message wrapped over two lines still reads whole)."""
        return " ".join(" ".join(self.screen.display).split())

    async def until(self, words: str, seconds: float = 60.0, fail: bool = True) -> str:
        """The screen once it shows `words`; after `seconds` without, the test fails (or
        without `fail`, the screen as it is)."""
        return await self.until_true(lambda text: words in text, repr(words), seconds, fail)

    async def until_true(self, check: Any, what: str, seconds: float = 60.0, fail: bool = True) -> str:
        """The screen once `check(text)` holds, checked after every read; as `until`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        words = what
        while not check(self.text()):
            left = deadline - loop.time()
            if left <= 0 and not fail:
                return self.text()
            assert left > 0, f"{words} never shown; the screen:\n" + "\n".join(self.screen.display)
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536), timeout=min(1.0, left))
            except asyncio.TimeoutError:
                continue
            assert data, f"the session ended before showing {words}:\n{self.text()}"
            self.stream.feed(data)
        return self.text()

    def press(self, data: bytes) -> None:
        self.process.stdin.write(data)
