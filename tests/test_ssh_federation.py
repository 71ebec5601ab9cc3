"""Two real `tui-grid serve ssh` servers sharing one lobby through one Redis and one store
in one PostgreSQL: a player on each meets the other in Tron's quick-match queue, a third
player on the first server watches the match from the lobby, the second server is killed
mid-match (SIGKILL: no goodbye), its player forfeits with the reason, the other servers
go on, and the match is kept once in the shared store."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_ssh_online import session

pytest_plugins = ["tests.services"]


class Server:
    """One `serve ssh` process with its own data folder, in a process group of its own."""

    def __init__(self, folder: Path, redis_url: str, dsn: str, tmpdir: Path) -> None:
        from tests.services import free_port  # (imported here: the module is this test's plugin)

        self.port = free_port()
        self.log = folder / "server.log"
        folder.mkdir(parents=True)
        env = {**os.environ, "TUI_GRID_DATA": str(folder / "data"), "TMPDIR": str(tmpdir)}
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tui_grid", "serve", "ssh", "--port", str(self.port), "--auth", "none",
                 "--hub", redis_url, "--store", dsn, "--max-per-host", "8"],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()

    async def wait_for(self, start: str, seconds: float = 60.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = [line for line in self.lines() if line.startswith(f"tui-grid: {start}")]
            if found:
                return found[-1]
            assert self.process.poll() is None, "the server ended:\n" + "\n".join(self.lines())
            await asyncio.sleep(0.05)
        raise AssertionError(f"no line {start!r} in:\n" + "\n".join(self.lines()))

    def kill(self) -> None:
        """Everything of it, at once (as a lost machine)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


def group_gone(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_two_servers_one_lobby_and_a_server_killed_mid_match(tmp_path: Path, short_tmpdir: Path, redis_url: str, pg_dsn: str) -> None:
    import psycopg

    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(pg_dsn)
    store_url = f"postgresql://{parts['user']}@{parts['host']}:{parts['port']}/{parts['dbname']}"
    servers = [Server(tmp_path / f"server{index}", redis_url, store_url, short_tmpdir) for index in (1, 2)]
    conns = []
    try:
        for server in servers:
            await server.wait_for("serving ssh on ")
        first, second = servers
        bob_conn, bob = await session(second.port, "bob", "tron")
        conns.append(bob_conn)
        await bob.until("Waiting for another player")
        cat_conn, cat = await session(first.port, "cat", "online")
        conns.append(cat_conn)
        assert "on server" in await cat.until("on server")  # bob, on the other server, in cat's lobby
        ann_conn, ann = await session(first.port, "ann", "tron")  # pops bob: the first server hosts
        conns.append(ann_conn)
        start = await first.wait_for("match ")
        assert "start: tron standard bob vs ann" in start
        await asyncio.gather(ann.until("R bob"), bob.until("R bob"))
        assert "bob vs ann" in await cat.until("bob vs ann")  # the lobby lists the match
        cat.press(b"w")
        await cat.until("R bob")
        await ann.until("tick 3")  # moves played: a disconnect before any would abort the match
        second.kill()  # mid-match, no goodbye
        try:
            screens = await asyncio.gather(ann.until("Match over"), cat.until("Match over"))
        except AssertionError:
            print("\n".join(first.lines()))
            raise
        assert all("ann wins" in screen and "bob disconnected" in screen for screen in screens)
        gone = await first.wait_for("federation: server ")
        assert gone.endswith("went away")
        kept = await first.wait_for("match ")  # the newest of its match lines
        deadline = time.monotonic() + 20
        while "kept as game" not in "\n".join(first.lines()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        with psycopg.connect(pg_dsn) as db:
            rows = db.execute("select count(*) from matches").fetchone()
        assert rows == (1,), kept
        assert group_gone(second.process.pid)
    finally:
        for conn in conns:
            conn.close()
        for server in servers:
            server.stop()
    for server in servers:
        assert group_gone(server.process.pid)
