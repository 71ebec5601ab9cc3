"""Who a stranger is on `serve ssh`: with keys, what authorized_keys says (its options
honoured or the line refused) and a name that belongs to the key that claimed it first;
without keys, a guest for that connection only, never a lookalike of a name online."""

from __future__ import annotations

import asyncio
from typing import Any
import time
from pathlib import Path

import asyncssh
import pytest

from tests.ssh_helpers import NOTHING_HELD, connect, held, menu_session, read_until, serving, until
from tui_grid.online.authorized_keys import expiry_seconds, from_allows, parse
from tui_grid.online.names import skeleton
from tui_grid.online.records import NameTaken
from tui_grid.online.store import PlayerStore


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


KEY = asyncssh.generate_private_key("ssh-ed25519")
OTHER = asyncssh.generate_private_key("ssh-ed25519")
PUBLIC = KEY.export_public_key().decode().strip()


def test_options_are_honoured_or_the_line_is_refused_with_its_line_and_column() -> None:
    text = "\n".join([
        "# a comment",
        PUBLIC,
        f'expiry-time="20200101" {PUBLIC}',
        f'restrict,command="/bin/false",no-pty {PUBLIC}',
        f"no-pty {PUBLIC}",
        f"restrict {PUBLIC}",
        f"restrict,pty {PUBLIC}",
        f'from="10.0.0.0/8,!10.1.2.3" {PUBLIC}',
        f"bogus-option {PUBLIC}",
        "ssh-ed25519 AAAAnotakey",
        f'cert-authority {PUBLIC}',
        f'environment="A=B",no-port-forwarding {PUBLIC}',
    ])
    keys = parse(text)
    assert [entry.line for entry in keys.entries] == [2, 3, 7, 8, 12]
    refused = {item.line: (item.column, item.why) for item in keys.refused}
    assert refused[4] == (10, "a forced command: this server runs no commands")
    assert refused[5][1] == "no-pty: the game needs a terminal" and refused[5][0] == 1
    assert refused[6][1] == "restrict without pty: the game needs a terminal"
    assert refused[9][1] == "unknown option 'bogus-option'"
    assert refused[10] == (1, "not a public key")
    assert refused[11][1] == "certificates are not accepted"
    now = time.time()
    expired, ranged = keys.entries[1], keys.entries[3]
    assert "expiry-time has passed" in (expired.admits("127.0.0.1", now) or "")
    assert ranged.admits("10.9.9.9", now) is None
    assert ranged.admits("10.1.2.3", now) is not None and ranged.admits("192.0.2.1", now) is not None
    assert keys.entries[0].admits("192.0.2.1", now) is None


def test_expiry_times_and_from_patterns_read_as_sshd_reads_them() -> None:
    assert expiry_seconds("20300101Z") == 1893456000.0
    assert expiry_seconds("203001010000Z") == expiry_seconds("20300101000000Z") == 1893456000.0
    for bad in ("2030", "20301301", "tomorrow", ""):
        with pytest.raises(ValueError):
            expiry_seconds(bad)
    assert from_allows(("127.0.0.*",), "127.0.0.9") and not from_allows(("127.0.0.*", "!127.0.0.9"), "127.0.0.9")
    assert from_allows(("::1/128",), "::1") and not from_allows(("192.0.2.0/24",), "::1")


async def test_an_expired_key_or_one_that_may_not_have_a_terminal_gets_nobody_in(tmp_path: Path) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(f'expiry-time="20200101" {PUBLIC}\nrestrict,command="/bin/false",no-pty '
                    f"{OTHER.export_public_key().decode().strip()}\n")
    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        for key in (KEY, OTHER):
            with pytest.raises(asyncssh.PermissionDenied):
                async with asyncssh.connect("127.0.0.1", port, username="alice", known_hosts=None, client_keys=[key],
                                            agent_path=None, password=None):
                    pass
        assert await until(lambda: held(server) == NOTHING_HELD)
    assert any(line.endswith(":2:10: key not used: a forced command: this server runs no commands") for line in lines)


async def test_a_keys_file_with_no_usable_key_is_reported_at_start(tmp_path: Path) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text("# nobody yet\n")
    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        pass
    assert any("holds no usable key: nobody can log in until one is added" in line for line in lines)


def test_a_name_belongs_to_the_key_that_claimed_it_and_no_lookalike_is_free(tmp_path: Path) -> None:
    store = PlayerStore(tmp_path / "players.db")
    alice = store.claim("SHA256:alice", "alice")
    assert store.claim("SHA256:alice", "carol") == alice  # the key logs in as its name, whatever it types
    for taken in ("alice", "Alice", "a1ice", "al_ice", "ALICE.", "admin", "r00t"):
        with pytest.raises(NameTaken):
            store.claim("SHA256:mallory", taken)
    carol = store.claim("SHA256:mallory", "carol")
    assert carol.name == "carol" and carol.id != alice.id and carol.folder != alice.folder
    assert PlayerStore(tmp_path / "players.db").player_of("SHA256:alice") == alice  # kept across restarts
    assert (tmp_path / "players.db").stat().st_mode & 0o777 == 0o600
    assert skeleton("B0b.") == skeleton("bob") and skeleton("bo5") == skeleton("bos")


async def test_with_keys_a_key_plays_as_its_own_name_and_another_key_cannot_take_it(tmp_path: Path) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(f"{PUBLIC}\n{OTHER.export_public_key().decode().strip()}\n")
    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        for typed in ("alice", "admin"):  # the first name claims; later it is the key's whatever is typed
            conn, process = await menu_session(port, typed, client_keys=[KEY], agent_path=None)
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            conn.close()
        conn = await connect(port, "Alice_", client_keys=[OTHER], agent_path=None)
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        assert "the name 'Alice_' (or one like it) is taken or reserved" in (await process.stderr.read()).decode()
        conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD), held(server)
    starts = [line for line in lines if line.startswith("session start")]
    assert [line.split()[2] for line in starts] == ["alice", "alice"]


async def test_a_guest_is_a_guest_for_one_connection_and_never_a_lookalike(tmp_path: Path) -> None:
    """Without keys every player is a guest: listed as one in the lobby, with a folder that
    goes with the connection (the next guest of the same name finds nothing of it), and a
    name that is not a lookalike of one online."""
    async with serving(tmp_path) as (port, lines, server):
        first = await menu_session(port, "ann")
        second = await menu_session(port, "Ann_")
        assert sorted(session.name for session in server.sessions) == ["Ann_-2", "ann"]
        folders = sorted((tmp_path / "ssh" / "guests").iterdir())
        assert len(folders) == 2
        (folders[0] / "autosave").mkdir()
        (folders[0] / "autosave" / "mine.txt").write_text("a game in progress")
        for conn, process in (first, second):
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait_closed(), timeout=30)
            conn.close()
        assert await until(lambda: held(server) == NOTHING_HELD)
        assert not list((tmp_path / "ssh" / "guests").iterdir())
        conn, process = await menu_session(port, "ann")
        assert not list((tmp_path / "ssh" / "guests").iterdir())[0].joinpath("autosave").exists()
        process.stdin.write(b"\x1b[B" * 5 + b"\r")  # Online
        assert "(guest) (you)" in await read_until(process, "(guest) (you)")
        hub = server.hub
        assert hub is not None  # the lobby shows before the hub has read the app's "in the lobby"
        assert await until(lambda: [(p.name, p.doing, p.guest) for p in hub.lobby().players] == [("ann", "in the lobby", True)])
        conn.close()


async def test_an_accounts_solves_are_marked_in_its_picker_over_ssh_and_kept_for_its_next_session(tmp_path: Path) -> None:
    """A board solved over SSH is marked with its best in that account's picker, in this
    session and the next one; another account's picker has no mark."""
    from tests.ssh_helpers import Terminal
    from tui_grid.games.registry import get_game

    ICE = get_game("ice")

    keys = tmp_path / "authorized_keys"
    keys.write_text(f"{PUBLIC}\n{OTHER.export_public_key().decode().strip()}\n")
    down, right, up, left = b"\x1b[B", b"\x1b[C", b"\x1b[A", b"\x1b[D"

    async def picker(name: str, key: Any) -> tuple[Any, Any, Terminal]:
        conn = await connect(port, name, client_keys=[key], agent_path=None)
        process = await conn.create_process("ice", term_type="xterm-256color", term_size=(80, 24))
        terminal = Terminal(process)
        await terminal.until("Ice")
        return conn, process, terminal

    async with serving(tmp_path, "keys", keys) as (port, lines, server):
        conn, process, terminal = await picker("alice", KEY)
        spiral = [entry.name for entry in ICE.boards()].index("spiral")  # the list starts at the first board
        for _ in range(spiral):
            terminal.press(down)
            await asyncio.sleep(0.2)
        terminal.press(b"\r")
        await terminal.until("Ice sliding — A simple spiral")
        for key in (up, right, down, left, up, right):  # urdlur: the spiral's 6 slides
            terminal.press(key)
            await asyncio.sleep(0.3)
        await terminal.until("New best: 6 slides (optimal)")
        terminal.press(b"\x1b")
        await terminal.until("6 slides · optimal")
        assert "✓ A simple spiral" in terminal.text()
        terminal.press(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        conn, process, terminal = await picker("alice", KEY)  # her next session
        # the list's mark and the preview's best may reach the screen in two writes
        await terminal.until_true(lambda text: "✓ A simple spiral" in text and "6 slides · optimal" in text, "the kept best")
        terminal.press(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
        conn, process, terminal = await picker("bob", OTHER)  # another account
        await terminal.until("A simple spiral")
        assert "✓" not in terminal.text()
        terminal.press(b"q")
        await asyncio.wait_for(process.wait_closed(), timeout=30)
        conn.close()
