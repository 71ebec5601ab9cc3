"""Strangers on `serve ssh`: each attack that could stop or grow the server, bounded in
bytes and counts. A paste, a client that stops reading, a TERM with a NUL, a break, silent
connections, a flood of requests, one host on many addresses, a planted package: none
blocks the server, grows it without bound, or keeps a slot once its client has gone."""

from __future__ import annotations

import asyncio
import os
import resource
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import asyncssh
import pytest

from tests.ssh_helpers import (MENU, NOTHING_HELD, TEST_LIMITS, alive, connect, held, menu_session, pid_of, read_until,
                               serving, until)
from tui_grid.online.hosts import host_of
from tui_grid.online.relay import READ_CHUNK
from tui_grid.online.ssh_server import raise_open_files
from tui_grid.online.ssh_session import MAX_ENVIRONMENT
from tui_grid.online.starter import StarterError


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


async def quit_session(conn, process) -> None:  # type: ignore[no-untyped-def]
    process.stdin.write(b"q")
    await asyncio.wait_for(process.wait_closed(), timeout=30)
    conn.close()


async def test_a_paste_neither_blocks_the_server_nor_queues_more_than_its_buffer(tmp_path: Path) -> None:
    """A client pastes 1 MB: another client still gets its menu meanwhile, what the server
    holds for the paste never passes the input buffer (the rest waits in the client: its
    SSH window is closed), and the pasting app yields to other players' apps."""
    limits = replace(TEST_LIMITS, flood_seconds=0.5)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        paster_conn, paster = await menu_session(port, "paster")
        session = next(iter(server.sessions))
        pid = pid_of(server, "paster")
        paster.stdin.write(b"j" * 1_000_000)
        most = 0
        for _ in range(40):
            await asyncio.sleep(0.02)
            most = max(most, len(session.relay.keys) if session.relay else 0)
        other_conn, other = await menu_session(port, "other")  # the server answers while the paste goes on
        await quit_session(other_conn, other)
        assert session.relay is not None and session.relay.channel_paused  # flow control, not loss
        assert 0 < most <= TEST_LIMITS.input_buffer_bytes + 32 * 1024
        assert await until(lambda: os.getpriority(os.PRIO_PROCESS, pid) == limits.flood_niceness)
        assert session.relay is not None and session.relay.bucket.rate == limits.flood_bytes_per_second
        assert any(line.startswith("session paster: keys faster than typing") for line in lines)
        paster_conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)


async def test_a_client_that_stops_reading_is_held_to_the_high_water_mark_and_dropped(tmp_path: Path) -> None:
    """A 500x500 client reads nothing and keeps resizing (each resize redraws the whole
    screen): the server's unsent output stays under its high-water mark plus one read, the
    app's terminal is not read meanwhile, and the session ends after `stall_seconds`."""
    limits = replace(TEST_LIMITS, stall_seconds=2.0)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        conn = await connect(port, "stall")
        process = await conn.create_process(term_type="xterm-256color", term_size=(500, 500))
        session = await _only_session(server)
        most = 0
        for index in range(200):
            if not server.sessions:
                break
            process.change_terminal_size(500 - index % 50, 500)
            await asyncio.sleep(0.06)
            most = max(most, session.channel.get_write_buffer_size())
        assert not server.sessions, "the stalled session was never dropped"
        assert most <= limits.output_high_water + READ_CHUNK
        assert any(line.startswith("session end: stall") for line in lines)
        conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)


async def _only_session(server):  # type: ignore[no-untyped-def]
    assert await until(lambda: len(server.sessions) == 1 and next(iter(server.sessions)).relay is not None)
    return next(iter(server.sessions))


@pytest.mark.parametrize("term", ["xterm\x00evil", "xterm\nsession end: forged", "\x1b]0;x\x07"])
async def test_a_terminal_type_that_is_not_a_plain_name_is_the_default_and_leaks_nothing(tmp_path: Path, term: str) -> None:
    """Six sessions in a row with a bad TERM (more than the four one host may hold at once):
    each gets the menu with the default TERM, and each slot comes back."""
    async with serving(tmp_path) as (port, lines, server):
        for index in range(6):
            conn = await connect(port, f"t{index}")
            process = await conn.create_process(term_type=term, term_size=(80, 24))
            assert MENU in await read_until(process, MENU)
            await quit_session(conn, process)
            assert await until(lambda: held(server) == NOTHING_HELD), held(server)
    starts = [line for line in lines if line.startswith("session start")]
    assert len(starts) == 6 and all(line.endswith("(80x24, xterm-256color)") for line in starts)
    assert not any("forged" in line for line in lines)


async def test_a_session_that_cannot_start_gives_its_slot_back(tmp_path: Path, monkeypatch) -> None:
    """The starter refuses, or the machine is out of terminals: the client is told in one
    line, and nothing stays taken."""
    async with serving(tmp_path) as (port, lines, server):
        async def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
            raise StarterError("no room")

        monkeypatch.setattr(server.starter, "spawn", refuse)
        for _ in range(5):
            conn = await connect(port, "unlucky")
            process = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            assert "could not start (no room)" in (await process.stderr.read()).decode()
            conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
        monkeypatch.undo()

        def no_terminal() -> tuple[int, int]:
            raise OSError(24, "Too many open files")

        monkeypatch.setattr(os, "openpty", no_terminal)
        conn = await connect(port, "unlucky")
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)


async def test_a_break_or_a_signal_neither_ends_nor_orphans_a_session(tmp_path: Path) -> None:
    """OpenSSH's ~B and a signal request are ignored; when the client then leaves, its app
    goes and its slot comes back."""
    async with serving(tmp_path) as (port, lines, server):
        conn, process = await menu_session(port, "breaker")
        pid = pid_of(server, "breaker")
        process.send_break(500)
        process.send_signal("INT")
        process.send_signal("KILL")
        process.stdin.write(b"\x1b[B")  # the app still answers a key
        assert "Jimmy" in await read_until(process, "Jimmy")
        assert alive(pid)
        conn.close()
        assert await until(lambda: not alive(pid) and held(server) == NOTHING_HELD), held(server)


async def test_connections_that_never_log_in_are_capped_per_host_and_closed_soon(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, unauthenticated_per_host=3, login_seconds=1.0)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
        try:
            assert await until(lambda: server.unauthenticated.total() == 3 and server.refusals >= 3)
            ended = await asyncio.gather(*(asyncio.to_thread(_read_to_end, sock) for sock in silent))
            assert all(ended)  # each one closed by the server: three at once, three at the login timeout
        finally:
            for sock in silent:
                sock.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)


def _read_to_end(sock: socket.socket, most: int = 65536) -> bool:
    """True once the server closes the connection (within `most` bytes and a minute)."""
    sock.settimeout(60)
    seen = 0
    try:
        while seen < most:
            data = sock.recv(4096)
            if not data:
                return True
            seen += len(data)
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
    return False


async def test_logged_in_connections_without_a_session_are_capped_and_closed(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, connections_per_host=2, idle_connection_seconds=1.0)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        conns = [await connect(port, f"idle{index}") for index in range(4)]
        # two over the cap are closed at once; the other two when they have held no session a while
        await asyncio.wait_for(asyncio.gather(*(conn.wait_closed() for conn in conns)), timeout=60)
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == raise_open_files(TEST_LIMITS.server_open_files)


async def test_a_flood_of_channel_requests_closes_the_connection(tmp_path: Path) -> None:
    """Window changes far past the request rate close the connection (the server stops
    parsing them); environment variables count too, and a session keeps a few at most."""
    async with serving(tmp_path) as (port, lines, server):
        conn, process = await menu_session(port, "flood")
        for index in range(2000):
            process.change_terminal_size(80 + index % 2, 24)
            if index % 100 == 0:
                await asyncio.sleep(0)
        await asyncio.wait_for(conn.wait_closed(), timeout=30)
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
        assert any("closed: too many requests" in line for line in lines)

        conn = await connect(port, "envs")
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), env={f"V{i}": "x" * 100 for i in range(100)})
        assert MENU in await read_until(process, MENU)
        session = next(iter(server.sessions))
        assert len(session.channel.get_environment()) == MAX_ENVIRONMENT
        await quit_session(conn, process)


def test_one_host_is_an_ipv4_address_an_ipv6_64_or_loopback_as_a_whole() -> None:
    assert host_of("127.0.0.1") == host_of("127.0.0.5") == host_of("::1") == host_of("::ffff:127.0.0.9") == "loopback"
    assert host_of("2001:db8:1:2::1") == host_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert host_of("2001:db8:1:3::1") != host_of("2001:db8:1:2::1")
    assert host_of("::ffff:192.0.2.7") == host_of("192.0.2.7") == "192.0.2.7"
    assert host_of("fe80::1%eth0") == "fe80::/64"


async def test_sessions_from_several_loopback_addresses_count_as_one_host(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, per_host=2, max_sessions=8)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        held_open = [await menu_session(port, f"h{index}", local_addr=(f"127.0.0.{index + 1}", 0)) for index in range(2)]
        conn = await connect(port, "h3", local_addr=("127.0.0.3", 0))
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        assert "2 sessions from loopback already" in (await process.stderr.read()).decode()
        conn.close()
        for held_conn, held_process in held_open:
            await quit_session(held_conn, held_process)


async def test_a_package_planted_in_the_servers_folder_is_never_run(tmp_path: Path, monkeypatch) -> None:
    """Sessions start with `python -I` from the folder of the server's own package: a
    `tui_grid/` in the folder the server was started from is not imported."""
    planted = tmp_path / "cwd" / "tui_grid"
    planted.mkdir(parents=True)
    marker = tmp_path / "planted-ran"
    (planted / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (planted / "__main__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path / "cwd")
    async with serving(tmp_path, own_starter=True) as (port, lines, server):  # started from this folder
        conn, process = await menu_session(port, "victim")
        await quit_session(conn, process)
    assert not marker.exists()


async def test_another_process_of_the_session_user_cannot_read_a_sessions_environment(tmp_path: Path) -> None:
    """Sessions are not dumpable: /proc/PID/environ and /proc/PID/mem of one session are
    closed to every other process of its user (a session never gets another's hub link),
    and the hub link is a descriptor, not a secret in the environment."""
    async with serving(tmp_path) as (port, lines, server):
        conn, process = await menu_session(port, "secret")
        pid = pid_of(server, "secret")
        status = Path(f"/proc/{pid}/status").read_text()
        uid, gid = (int(line.split()[1]) for line in status.splitlines() if line.startswith(("Uid:", "Gid:")))
        user = (uid, gid) if os.geteuid() == 0 else None  # (not root: the session runs as this process's user)

        refused = await asyncio.to_thread(_read_as, user, f"/proc/{pid}/environ")
        environ = Path(f"/proc/{pid}/environ").read_bytes() if os.geteuid() == 0 else b""
        await quit_session(conn, process)
    assert refused
    assert b"TOKEN" not in environ and b"TUI_GRID_HUB=" not in environ  # (what a session was started with: the starter's)


@pytest.mark.skipif(os.geteuid() != 0, reason="a server that is not root runs every session as itself")
async def test_as_root_each_session_is_a_user_of_its_own_that_cannot_signal_another(tmp_path: Path) -> None:
    async with serving(tmp_path) as (port, lines, server):
        first, second = await menu_session(port, "one"), await menu_session(port, "two")
        pids = [pid_of(server, name) for name in ("one", "two")]
        uids = [int(next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                         if line.startswith("Uid:")).split()[1]) for pid in pids]
        child = os.fork()
        if child == 0:  # a process of the first session's user tries to stop the second
            code = 2
            try:
                os.setgid(65534)
                os.setuid(uids[0])
                os.kill(pids[1], 19)
                code = 1
            except PermissionError:
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        for conn, process in (first, second):
            await quit_session(conn, process)
    assert uids[0] != uids[1] and os.waitstatus_to_exitcode(status) == 0


def _read_as(user: tuple[int, int] | None, path: str) -> bool:
    """Whether a process of `user` (None: this one's) is refused reading `path`: a child
    that becomes that user and tries."""
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            if user is not None:
                os.setgid(user[1])
                os.setuid(user[0])
            with open(path, "rb") as stream:
                stream.read()
            code = 1
        except PermissionError:
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


async def test_a_stale_hub_socket_of_a_killed_server_is_removed_at_start(tmp_path: Path) -> None:
    hub = tmp_path / "ssh" / "hub"
    hub.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = hub / f"hub-{dead.pid}.sock"
    stale.touch()
    async with serving(tmp_path) as (port, lines, server):
        assert not stale.exists()
        assert server.hub is not None and server.hub.path.exists()


async def test_without_a_terminal_the_client_is_told_to_use_ssh_t(tmp_path: Path) -> None:
    async with serving(tmp_path) as (port, lines, server):
        for command in (None, "tron"):
            conn = await connect(port, "notty")
            process = await conn.create_process(command)  # no pty, as ssh -T or ssh host tron </dev/null
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            assert f"connect with ssh -t -p {port}" in (await process.stderr.read()).decode()
            assert process.exit_status == 1
            conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
    assert not any(line.startswith("session start") for line in lines)


async def test_sessions_are_held_to_the_memory_budget_in_a_cgroup_where_one_can_be_made(tmp_path: Path) -> None:
    async with serving(tmp_path) as (port, lines, server):
        if server.cgroup is None:
            pytest.skip("no writable memory cgroup on this machine: the per-session hard limits alone apply")
        conn, process = await menu_session(port, "grouped")
        pid = pid_of(server, "grouped")
        members = Path(server.cgroup.procs).read_text().split()
        await quit_session(conn, process)
        assert server.cgroup.limit() == TEST_LIMITS.memory_budget_bytes
    assert str(pid) in members


async def test_a_session_channel_that_never_asks_for_a_shell_is_closed(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, idle_connection_seconds=1.0)
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        conn = await connect(port, "lurker")
        from asyncssh.channel import SSHClientChannel

        channel = SSHClientChannel(conn, asyncio.get_running_loop(), "strict", None, "strict", 65536, 32768)
        await channel._open(b"session")  # a session channel and no request on it (asyncssh's first step, alone)
        assert await until(lambda: server.authenticated.total() == 1 and not server.sessions)
        await asyncio.wait_for(channel.wait_closed(), timeout=30)
        await asyncio.wait_for(conn.wait_closed(), timeout=30)  # then the connection, holding no session
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)


async def test_one_host_opens_connections_and_sessions_at_a_bounded_rate(tmp_path: Path) -> None:
    """Connections past a host's rate are closed at once, and sessions past its rate are
    refused with a line; a flood of session channels on one connection closes it."""
    limits = replace(TEST_LIMITS, connections_per_minute=60, sessions_per_minute=12)  # bursts of 10 and 2
    async with serving(tmp_path, limits=limits) as (port, lines, server):
        conn = await connect(port, "churn")
        said = []
        for _ in range(3):  # sessions one after another on one connection
            process = await conn.create_process(term_type="xterm", term_size=(80, 24))
            try:
                process.stdin.write(b"q")  # typed at once: it waits for the app
            except BrokenPipeError:  # refused: the channel is closed already
                pass
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            said.append((await process.stderr.read()).decode())
        conn.close()
        assert "too many new sessions from loopback" in said[-1] and not said[0]
        sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(14)]
        assert await until(lambda: server.refusals >= 4)
        for sock in sockets:
            sock.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
    async with serving(tmp_path, limits=TEST_LIMITS) as (port, lines, server):
        conn = await connect(port, "channels")
        opened = 0
        with pytest.raises((asyncssh.Error, OSError)):
            for opened in range(1000):
                channel, _ = await conn.create_session(asyncssh.SSHClientSession, "x")
                channel.close()
        assert opened < 300
        assert any("closed: too many requests" in line for line in lines)


async def test_logins_past_a_quarter_of_the_slots_are_dropped_at_random(tmp_path: Path) -> None:
    """As sshd's MaxStartups: with 8 login slots, from the third connection on each new one
    is dropped at random (30% at first, all when full), so hosts that fill the slots
    together do not keep everyone out: here, of 12 silent connections (seeded), some are
    dropped before the slots fill."""
    limits = replace(TEST_LIMITS, unauthenticated=8, unauthenticated_per_host=8, login_seconds=2.0)
    async with serving(tmp_path, limits=limits, seed=3) as (port, lines, server):
        sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(12)]
        try:
            assert await until(lambda: server.unauthenticated.total() + server.refusals == 12)
            assert server.refusals >= 4 and server.unauthenticated.total() <= 8
        finally:
            for sock in sockets:
                sock.close()
    assert any(line.endswith("too many connections logging in (dropped at random)") for line in lines), lines
