"""Real services for tests: a PostgreSQL server of our own, one per test session (per
xdist worker), with a fresh database for each test; and a Redis server of each test's own.

PostgreSQL refuses to run as root, so when the tests run as root the server runs as
`nobody` (setpriv), in a temporary folder that user owns. It listens on a free port of
127.0.0.1 and on a socket in that folder, trusts every local connection (nothing else can
reach it), and skips fsync: the tests need its transactions, not its durability against a
power cut. When the binaries are missing or the server will not start, tests that need it
are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

NOBODY = 65534
BIN_DIRS = ("/usr/local/bin", *sorted(map(str, Path("/usr/lib/postgresql").glob("*/bin")), reverse=True))


def _binary(name: str) -> str | None:
    for folder in BIN_DIRS:
        if os.access(Path(folder) / name, os.X_OK):
            return str(Path(folder) / name)
    return shutil.which(name)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Postgres:
    port: int
    folder: Path

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname}"

    def new_database(self) -> str:
        """The DSN of a new, empty database."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.dsn(), autocommit=True, connect_timeout=5) as db:
            db.execute(f"CREATE DATABASE {name}".encode())
        return self.dsn(name)


def _start(folder: Path) -> tuple[subprocess.Popen[bytes], Postgres]:
    initdb, postgres = _binary("initdb"), _binary("postgres")
    if initdb is None or postgres is None:
        pytest.skip("PostgreSQL not found (initdb, postgres)")
    pytest.importorskip("psycopg")
    drop: list[str] = []
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    data = folder / "data"
    done = subprocess.run([*drop, initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
                          capture_output=True, timeout=60)
    if done.returncode != 0:
        pytest.skip(f"initdb failed: {done.stderr.decode(errors='replace')[-500:]}")
    port = free_port()
    log = open(folder / "postgres.log", "wb")
    # setpriv execs postgres, so this process is the postmaster and ours to wait for.
    server = subprocess.Popen([*drop, postgres, "-D", str(data), "-p", str(port), "-k", str(folder),
                               "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                               "-c", "full_page_writes=off", "-c", "max_connections=100"],
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    service = Postgres(port, folder)
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(service.dsn(), connect_timeout=2).close()
            return server, service
        except psycopg.OperationalError:
            if server.poll() is not None or time.monotonic() > deadline:
                _stop(server, data, drop)
                pytest.skip(f"PostgreSQL did not start: {(folder / 'postgres.log').read_text(errors='replace')[-500:]}")
            time.sleep(0.05)


def _stop(server: subprocess.Popen[bytes], data: Path, drop: list[str]) -> None:
    """Immediate shutdown, then make sure the postmaster (and so its children) is gone."""
    pg_ctl = _binary("pg_ctl")
    if server.poll() is None and pg_ctl is not None:
        subprocess.run([*drop, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "-t", "10", "stop"],
                       capture_output=True, timeout=20)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(server.pid, signal.SIGKILL)  # its own session: whatever of the postmaster and its backends is left
    except ProcessLookupError:
        pass
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    folder = Path(tempfile.mkdtemp(prefix="tui-grid-pg-"))
    try:
        server, service = _start(folder)
        try:
            yield service
        finally:
            _stop(server, folder / "data", ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
                  if os.geteuid() == 0 else [])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_dsn(postgres_server: Postgres) -> str:
    """The DSN of a database of this test's own."""
    return postgres_server.new_database()


class RedisProcess:
    """Debian's redis-server on `port` of 127.0.0.1, keeping nothing on disk."""

    def __init__(self, folder: Path, port: int) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server not found (apt install redis-server)")
        pytest.importorskip("redis")
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
                                         "--appendonly", "no", "--protected-mode", "yes"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 20
        while not self._pong():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.skip("redis-server did not start")
            time.sleep(0.05)

    def _pong(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A Redis server of this test's own, on a free port; stopped after the test."""
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisProcess(folder, free_port())
    try:
        yield server.url
    finally:
        server.stop()
