"""`tui-grid serve ssh`: a real SSH client gets the menu on its own terminal, its keys
reach the app, and when it quits nothing is left; remote sessions start no program and
save to no file path."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import os
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from tui_grid.cli import main
from tui_grid.core.hub import Pace
from tui_grid.core.ssh_server import SSHServerOptions, app_argv, safe_name, start

ANSI_TEXT = "enter picks a game"


async def read_until(process, words: str, limit_bytes: int = 2_000_000, seconds: float = 30.0) -> str:  # type: ignore[no-untyped-def]
    seen = b""
    deadline = time.monotonic() + seconds
    while words.encode() not in seen and len(seen) < limit_bytes and time.monotonic() < deadline:
        try:
            seen += await asyncio.wait_for(process.stdout.read(65536), timeout=1.0)
        except asyncio.TimeoutError:
            continue
    return seen.decode("utf-8", "replace")


@asynccontextmanager
async def serving(tmp_path: Path, auth: str = "none", keys: Path | None = None, pace: Pace | None = None,
                  ) -> AsyncIterator[tuple[int, list[str], SSHServerOptions]]:
    """A server on a free port for one test; its port, its log lines and its options."""
    lines: list[str] = []
    options = SSHServerOptions(tmp_path / "ssh", auth, keys, 4, lines.append, ("ice", "jimmy", "bunny", "tron", "evasion"), pace)
    server = await start("127.0.0.1", 0, tmp_path / "key", options)
    try:
        yield server.sockets[0].getsockname()[1], lines, options
    finally:
        server.close()
        await server.wait_closed()
        options.close()


def session_proc(player: str) -> Path | None:
    """The /proc entry of the session process that plays as `player`."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes().decode("utf-8", "replace")
            except OSError:
                continue
            if f"TUI_GRID_PLAYER={player}\x00" in environ:
                return entry
    return None


async def test_a_client_plays_the_menu_over_ssh_and_leaves_nothing(tmp_path: Path) -> None:
    async with serving(tmp_path) as (port, lines, options):
        async with asyncssh.connect("127.0.0.1", port, username="bob[/x]", known_hosts=None, encoding=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
            assert ANSI_TEXT in await read_until(process, ANSI_TEXT)
            process.change_terminal_size(100, 30)  # a resize reaches the app, which draws again
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
        for _ in range(100):
            if any(line.startswith("session end") for line in lines):
                break
            await asyncio.sleep(0.05)
    assert lines[0].startswith("session start: bobx from 127.0.0.1 (80x24, xterm-256color)")  # a name is plain
    assert lines[-1] == "session end: bobx (exit 0)"
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600  # the host key, made once
    assert options.sessions == 0


def test_remote_sessions_have_no_program_seats_and_no_save_to_a_path() -> None:
    code = ("from tui_grid.core.players import LOCAL_KINDS; from tui_grid.core.remote import remote_session; "
            "print(LOCAL_KINDS, remote_session())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TUI_GRID_REMOTE": "1"},
                         capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == "('human', 'bot') True"


def test_names_and_commands_from_a_client_are_data() -> None:
    assert safe_name("x" * 40) == "x" * 16 and safe_name("../../etc") == "....etc" and safe_name("") == "player"
    assert app_argv("tron", ("tron",))[-2:] == ["online", "tron"]  # the quick-match queue
    assert app_argv("ICE ", ("ice",))[-2:] == ["play", "ice"]
    assert app_argv("rm -rf /", ("tron",))[-1] == "tui_grid"  # anything else opens the menu, nothing runs


def test_a_public_address_needs_keys(capsys) -> None:
    assert main(["serve", "ssh", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "--auth keys needs --authorized-keys" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def test_connected_names_are_unique() -> None:
    from tui_grid.core.ssh_server import unique_name

    assert unique_name("bob", set()) == "bob"
    assert unique_name("bob", {"bob"}) == "bob-2" and unique_name("bob", {"bob", "bob-2"}) == "bob-3"
    assert len(unique_name("x" * 16, {"x" * 16})) <= 16


async def test_a_session_runs_under_a_memory_limit(tmp_path: Path) -> None:
    """The session's app runs with a memory ceiling and no core files (read back from
    /proc while it runs)."""
    async with serving(tmp_path) as (port, _, _):
        async with asyncssh.connect("127.0.0.1", port, username="carol", known_hosts=None, encoding=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
            assert ANSI_TEXT in await read_until(process, ANSI_TEXT)
            entry = session_proc("carol")
            limits = (entry / "limits").read_text() if entry is not None else ""
            nice = os.getpriority(os.PRIO_PROCESS, int(entry.name)) if entry is not None else None
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
    assert nice == os.getpriority(os.PRIO_PROCESS, 0) + 5  # below the server, which runs the matches
    data = next(line for line in limits.splitlines() if line.startswith("Max data size"))
    core = next(line for line in limits.splitlines() if line.startswith("Max core file size"))
    assert str(2 * 1024**3) in data and core.split()[4] == "0"


async def test_with_auth_keys_only_listed_keys_get_in_and_the_key_names_the_folder(tmp_path: Path) -> None:
    allowed, stranger = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(allowed.export_public_key())
    async with serving(tmp_path, "keys", keys) as (port, lines, _):
        with pytest.raises(asyncssh.PermissionDenied):
            async with asyncssh.connect("127.0.0.1", port, username="eve", known_hosts=None, client_keys=[stranger],
                                        agent_path=None, password=None):
                pass
        async with asyncssh.connect("127.0.0.1", port, username="dave", known_hosts=None, client_keys=[allowed],
                                    agent_path=None, encoding=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
            assert ANSI_TEXT in await read_until(process, ANSI_TEXT)
            entry = session_proc("dave")
            environ = (entry / "environ").read_bytes().decode("utf-8", "replace").replace("\x00", "\n") if entry is not None else ""
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
    assert [line.split(":")[0] for line in lines] == ["session start", "session end"]
    import hashlib

    folder = hashlib.sha256(allowed.get_fingerprint().encode()).hexdigest()[:16]
    assert f"TUI_GRID_DATA={tmp_path / 'ssh' / 'players' / folder}" in environ  # the key names the folder



async def test_a_flood_of_huge_resizes_is_clamped_and_coalesced(tmp_path: Path) -> None:
    """A client sends 300 window changes up to 99999x99999: the app's terminal ends at
    most 500x500 (read back from its pty) and the session still answers."""
    import fcntl
    import struct
    import termios

    async with serving(tmp_path) as (port, lines, _):
        async with asyncssh.connect("127.0.0.1", port, username="dan", known_hosts=None, encoding=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
            assert ANSI_TEXT in await read_until(process, ANSI_TEXT)
            entry = session_proc("dan")
            assert entry is not None
            for index in range(300):
                process.change_terminal_size(99999 - index, 99999)
            size = (24, 80)
            for _ in range(200):
                with open(entry / "fd" / "0", "rb", buffering=0) as tty:
                    size = struct.unpack("HHHH", fcntl.ioctl(tty.fileno(), termios.TIOCGWINSZ, b"\0" * 8))[:2]
                if size != (24, 80):
                    break
                await asyncio.sleep(0.05)
            assert size == (500, 500)
            process.change_terminal_size(80, 24)
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
    assert lines[-1] == "session end: dan (exit 0)"


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
async def test_no_session_outlives_its_server(tmp_path: Path, how: str) -> None:
    """Found trying it as a user: apps of a server that was killed kept running, at 15-20%
    CPU each, on terminals nobody held. Stopped (SIGTERM), the server ends them; killed
    outright, their terminal hangs up and the kernel ends them."""
    import signal

    env = {**os.environ, "TUI_GRID_DATA": str(tmp_path / "data")}
    server = subprocess.Popen([sys.executable, "-m", "tui_grid", "serve", "ssh", "--port", "0"], env=env,
                              stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert server.stderr is not None
        line = await asyncio.to_thread(server.stderr.readline)
        port = int(line.decode().split(":")[2].split()[0])
        conn = await asyncssh.connect("127.0.0.1", port, username=f"eve{how[3:].lower()}", known_hosts=None, encoding=None)
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
        assert ANSI_TEXT in await read_until(process, ANSI_TEXT)
        entry = session_proc(f"eve{how[3:].lower()}")
        assert entry is not None
        server.send_signal(getattr(signal, how))
        await asyncio.to_thread(server.wait, 30)
        for _ in range(200):
            if not entry.exists():
                break
            await asyncio.sleep(0.05)
        assert not entry.exists()
        conn.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
