"""`tui-grid serve ssh`: a real SSH client gets the menu on its own terminal, its keys
reach the app, and when it quits nothing is left; remote sessions start no program and
save to no file path; sessions run under limits, in their own folders, as their own
process group, and none outlives its server."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import asyncssh
import pytest

from tests.ssh_helpers import (MENU, NOTHING_HELD, TEST_LIMITS, Terminal, alive, held, menu_session, pid_of, read_until,
                               running_as_root, serving, until)
from tui_grid.cli import main
from tui_grid.games.registry import online_games
from tui_grid.online.names import safe_name, unique_name
from tui_grid.online.ssh_session import RESTORE_TERMINAL, app_argv
from tui_grid.online.users import POOL_START


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def named_processes(name: str) -> list[int]:
    """Processes whose name (what ps shows) is `name`, cut as the kernel keeps it."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name[:15]:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


async def test_a_client_plays_the_menu_over_ssh_and_leaves_nothing(tmp_path: Path) -> None:
    async with serving(tmp_path) as (port, lines, server):
        conn, process = await menu_session(port, "bob[/x]")
        pid = pid_of(server, "bobx")
        process.change_terminal_size(100, 30)  # a resize reaches the app, which draws again
        process.stdin.write(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        assert await until(lambda: any(line.startswith("session end") for line in lines))
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
        assert not alive(pid)
    starts = [line for line in lines if line.startswith("session start")]
    assert starts == ["session start: bobx from 127.0.0.1 (80x24, xterm-256color)"]  # a name is plain
    assert "session end: bobx (exit 0)" in lines
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600  # the host key, made once


def test_remote_sessions_have_no_program_seats_and_no_save_to_a_path() -> None:
    """The environment decides once, in the command line's main: a serve ssh session's app
    is remote, whatever the environment says later."""
    from tui_grid.core.policy import LOCAL, REMOTE, Policy

    remote = Policy.for_environment({"TUI_GRID_REMOTE": "1"})
    assert remote is REMOTE and remote.player_kinds == ("human", "bot") and not remote.file_paths
    assert Policy.for_environment({}) is LOCAL and "cmd" in LOCAL.player_kinds and LOCAL.file_paths


def test_names_and_commands_from_a_client_are_data() -> None:
    assert safe_name("x" * 40) == "x" * 16 and safe_name("../../etc") == "....etc" and safe_name("") == "player"
    assert app_argv("tron", ("tron",), online_games()) == ("online", "tron")  # the quick-match queue
    assert app_argv("ICE ", ("ice",), online_games()) == ("play", "ice")
    assert app_argv("rm -rf /", ("tron",), online_games()) == ()  # anything else opens the menu, nothing runs
    assert app_argv(" Online", ("tron",), online_games()) == ("online",)  # the lobby


def test_a_public_address_needs_keys(capsys) -> None:
    assert main(["serve", "ssh", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "--auth keys needs --authorized-keys" in capsys.readouterr().err


def test_connected_names_are_unique_and_never_lookalikes() -> None:
    assert unique_name("bob", set()) == "bob"
    assert unique_name("bob", {"bob"}) == "bob-2" and unique_name("bob", {"bob", "bob2"}) == "bob-3"
    assert unique_name("B0b_", {"bob"}) == "B0b_-2"  # case, 0 for o and separators do not make a new name
    assert len(unique_name("x" * 16, {"x" * 16})) <= 16
    assert unique_name("admin", set()) == "admin-2" and unique_name("Guest", set()) == "Guest-2"  # reserved


async def test_a_session_runs_under_its_limits_in_its_own_folder(tmp_path: Path) -> None:
    """The app runs with a hard memory ceiling (its share of the budget), a file size cap,
    no core files, at a lower priority, in its own private folder, as the session user
    where the server runs as root (read back from /proc while it runs)."""
    async with serving(tmp_path) as (port, _, server):
        conn, process = await menu_session(port, "carol")
        pid = pid_of(server, "carol")
        assert pid is not None
        limits = Path(f"/proc/{pid}/limits").read_text()
        nice = os.getpriority(os.PRIO_PROCESS, pid)
        status = Path(f"/proc/{pid}/status").read_text()
        guests = [(folder.stat().st_mode & 0o777, folder.stat().st_uid) for folder in (tmp_path / "ssh" / "guests").iterdir()]
        process.stdin.write(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        assert await until(lambda: not list((tmp_path / "ssh" / "guests").iterdir()))  # a guest's folder goes with it
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)  # below the server, which runs the matches (19 is the least)
    share = str(TEST_LIMITS.session_memory_bytes)
    data = next(line for line in limits.splitlines() if line.startswith("Max data size"))
    assert data.split()[3:5] == [share, share]  # soft and hard: the app cannot raise it
    core = next(line for line in limits.splitlines() if line.startswith("Max core file size"))
    assert core.split()[4] == "0"
    size = next(line for line in limits.splitlines() if line.startswith("Max file size"))
    assert size.split()[3] == str(TEST_LIMITS.session_file_bytes)
    assert len(guests) == 1 and guests[0][0] == 0o700
    if running_as_root():  # a server running as root runs each session as a user of its own
        uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
        assert uid >= POOL_START and guests[0][1] == uid
        processes = next(line for line in limits.splitlines() if line.startswith("Max processes"))
        assert processes.split()[2:4] == [str(TEST_LIMITS.session_processes)] * 2


async def test_with_auth_keys_only_listed_keys_get_in_and_the_key_names_the_folder(tmp_path: Path) -> None:
    allowed, stranger = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(allowed.export_public_key())
    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        with pytest.raises(asyncssh.PermissionDenied):
            async with asyncssh.connect("127.0.0.1", port, username="eve", known_hosts=None, client_keys=[stranger],
                                        agent_path=None, password=None):
                pass
        conn, process = await menu_session(port, "dave", client_keys=[allowed], agent_path=None)
        process.stdin.write(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        await until(lambda: held(server) == NOTHING_HELD)
    assert [line.split(":")[0] for line in lines if line.startswith("session ")] == ["session start", "session end"]
    folder = tmp_path / "ssh" / "players" / "p1"  # the player's, by the id the key's first name got
    assert folder.is_dir() and folder.stat().st_mode & 0o777 == 0o700


async def test_a_flood_of_huge_resizes_is_clamped_and_coalesced(tmp_path: Path) -> None:
    """A client sends 150 window changes up to 99999x99999: the app's terminal ends at
    most 500x500 (read back from its pty) and the session still answers."""
    async with serving(tmp_path) as (port, lines, server):
        conn, process = await menu_session(port, "dan")
        session = next(iter(server.sessions))
        for index in range(150):
            process.change_terminal_size(99999 - index, 99999)

        def size() -> tuple[int, int]:
            if session.master is None:
                return (0, 0)
            return struct.unpack("HHHH", fcntl.ioctl(session.master, termios.TIOCGWINSZ, b"\0" * 8))[:2]

        assert await until(lambda: size() == (500, 500)), size()
        process.change_terminal_size(80, 24)
        process.stdin.write(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        assert await until(lambda: "session end: dan (exit 0)" in lines)


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _serving_line(server: subprocess.Popen[bytes]) -> int:
    assert server.stderr is not None
    for _ in range(20):
        line = server.stderr.readline().decode()
        found = re.search(r"serving ssh on 127\.0\.0\.1:(\d+)", line)
        if found:
            return int(found.group(1))
    raise AssertionError("the server never said where it serves")


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
async def test_no_session_outlives_its_server(tmp_path: Path, short_tmpdir: Path, how: str) -> None:
    """Stopped (SIGTERM, SIGINT), the server tells every client and restores its terminal
    (main screen, mouse off, cursor on), then ends the apps; killed outright, their
    terminals hang up and the kernel ends them, and the session starter goes too."""
    env = {**os.environ, "TUI_GRID_DATA": str(tmp_path / "data"), "TMPDIR": str(short_tmpdir)}
    server = subprocess.Popen([sys.executable, "-m", "tui_grid", "serve", "ssh", "--port", "0"], env=env,
                              stderr=subprocess.PIPE, start_new_session=True)
    name = f"eve{how[3:].lower()}"
    try:
        port = await asyncio.to_thread(_serving_line, server)
        conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, encoding=None)
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
        assert MENU in await read_until(process, MENU)
        sessions = named_processes(f"tui-grid {name}")
        starters = [pid for pid in named_processes("tui-grid start") if parent_of(pid) == server.pid]
        assert len(sessions) == 1 and len(starters) == 1
        server.send_signal(getattr(signal, how))
        if how != "SIGKILL":
            farewell = await read_until(process, "goodbye")
            assert RESTORE_TERMINAL.decode() in farewell and "the server is stopping; goodbye" in farewell
        await asyncio.to_thread(server.wait, 30)
        assert await until(lambda: not alive(sessions[0]) and not alive(starters[0]), steps=200)
        conn.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


async def test_a_players_game_is_kept_in_their_folder_and_offered_back(tmp_path: Path) -> None:
    """With keys, a game left mid-way is autosaved in the player's own folder (the session
    reaches it only as its working folder: as root the server runs sessions as another
    user, who may not pass through the server's folders) and offered at the next login."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        for attempt in range(2):
            conn = await asyncssh.connect("127.0.0.1", port, username="kim", known_hosts=None, client_keys=[key],
                                          agent_path=None, encoding=None)
            process = await conn.create_process("ice", term_type="xterm-256color", term_size=(80, 24))
            screen = Terminal(process)
            await screen.until("New random")  # the board picker
            screen.press(b"\r")
            if attempt == 0:
                await screen.until("Moves 0")
                screen.press(b"\x1b[A")  # one slide up
                await screen.until("Moves 1")
                screen.press(b"q")
            else:
                await screen.until("Resume")
                screen.press(b"\x1b")
                await asyncio.sleep(0.5)
                screen.press(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            conn.close()
            assert await until(lambda: held(server) == NOTHING_HELD)
    saved = list((tmp_path / "ssh" / "players" / "p1" / "autosave" / "ice").glob("*.txt"))
    assert len(saved) == 1 and "played: u" in saved[0].read_text()
    assert saved[0].stat().st_mode & 0o777 == 0o600
