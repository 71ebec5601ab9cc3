"""Online play through real SSH sessions (asyncssh's client on each side): two players
meet in the quick-match queue and play Tron to its end, a player who drops loses by
forfeit and the other is told, a spectator watches from the lobby, and three riders and a
bot share the arena while a fourth person watches. Each session's
app is its own process on its own terminal; the match runs in the server's hub."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import asyncssh
import pytest

from tests.ssh_helpers import Terminal, serving
from tui_grid.online.hub import Pace


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


async def session(port: int, name: str, command: str | None = None):  # type: ignore[no-untyped-def]
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, encoding=None)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(80, 24))
    return conn, Terminal(process)


async def wait_for_line(lines: list[str], start: str) -> str:
    for _ in range(600):
        found = [line for line in lines if line.startswith(start)]
        if found:
            return found[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no log line {start!r} in {lines}")


async def test_two_players_meet_in_the_queue_and_play_tron_to_its_end(tmp_path: Path) -> None:
    pace = Pace(countdown=1, beat=0.1, between_rounds=0.1, tick_seconds=0.05)
    async with serving(tmp_path, pace=pace) as (port, lines, options):
        ann_conn, ann = await session(port, "ann", "tron")
        assert "Waiting for another player" in await ann.until("Waiting for another player")
        bob_conn, bob = await session(port, "bob", "tron")
        screens = await asyncio.gather(ann.until("Match over"), bob.until("Match over"))
        assert all("Match over" in screen and "ann" in screen and "bob" in screen for screen in screens)
        end = await wait_for_line(lines, "match 1 end: ")
        for conn in (ann_conn, bob_conn):
            conn.close()
            await conn.wait_closed()
        await wait_for_line(lines, "session end: bob")
    assert "match 1 start: tron standard ann vs bob" in lines
    assert end.startswith("match 1 end: Match over: ") and "ann " in end and "bob " in end


async def test_a_player_who_drops_loses_by_forfeit_and_the_other_is_told(tmp_path: Path) -> None:
    pace = Pace(countdown=1, beat=0.1, between_rounds=0.1, tick_seconds=1.0)
    async with serving(tmp_path, pace=pace) as (port, lines, options):
        ann_conn, ann = await session(port, "ann", "tron")
        await ann.until("Waiting for another player")
        bob_conn, bob = await session(port, "bob", "tron")
        assert "Go!" in await bob.until("Go!")
        await bob.until("tick 1 ")  # a move made: leaving now is a loss, not an abort
        ann_conn.close()  # the connection drops mid-round
        screen = await bob.until("ann disconnected")
        assert "bob wins: ann disconnected" in screen
        end = await wait_for_line(lines, "match 1 end: ")
        bob_conn.close()
        await bob_conn.wait_closed()
        await wait_for_line(lines, "session end: bob")
    assert end == "match 1 end: Match over: bob wins: ann disconnected. ann 0 · bob 1 · draws 0.", lines


async def test_a_spectator_watches_a_match_from_the_lobby(tmp_path: Path) -> None:
    pace = Pace(countdown=2, beat=0.5, between_rounds=0.5, tick_seconds=0.4)
    async with serving(tmp_path, pace=pace) as (port, lines, options):
        cat_conn, cat = await session(port, "cat")
        await cat.until("enter picks a game")
        cat.press(b"\x1b[B" * 5)  # down to Online (after the five games)
        cat.press(b"\r")
        assert "Online as cat" in await cat.until("Online as cat")
        ann_conn, ann = await session(port, "ann", "tron")
        await ann.until("Waiting for another player")
        bob_conn, bob = await session(port, "bob", "tron")
        assert "ann vs bob" in await cat.until("ann vs bob")  # the lobby lists the match
        cat.press(b"w")  # watches the match (the first listed)
        screen = await cat.until("Match over")
        assert "Match over" in screen and "G ann" in screen and "R bob" in screen  # round 2: seats swapped
        for conn in (cat_conn, ann_conn, bob_conn):
            conn.close()
            await conn.wait_closed()
        await wait_for_line(lines, "match 1 end: ")


async def test_three_riders_and_a_bot_share_the_arena_while_a_fourth_watches(tmp_path: Path) -> None:
    pace = Pace(countdown=1, beat=0.2, between_rounds=0.5, tick_seconds=0.3)
    async with serving(tmp_path, pace=pace, arena_cycles=4) as (port, lines, options):
        ann_conn, ann = await session(port, "ann", "arena")
        assert "Arena for 4" in await ann.until("Arena for 4")
        riders = [(ann_conn, ann)]
        for name in ("bob", "cat"):
            conn, terminal = await session(port, name, "arena")
            assert "you ride from the next round" in await terminal.until("you ride from the next round")
            riders.append((conn, terminal))
        dan_conn, dan = await session(port, "dan")
        await dan.until("enter picks a game")
        dan.press(b"\x1b[B" * 5)  # down to Online (after the five games)
        dan.press(b"\r")
        await dan.until("Online as dan")
        start = await wait_for_line(lines, "match 2 start: tron arena4 ")
        assert all(name in start for name in ("ann", "bob", "cat")) and start.count(" bot") == 1
        for _ in range(40):  # between two rounds the lobby lists none: w again
            await dan.until("Tron arena: ")
            dan.press(b"w")
            if "Arena for 4" in await dan.until("Arena for 4", seconds=2.0, fail=False):
                break
        ended = await dan.until("Arena round ")
        watched = int(re.search(r"Arena round (\d+): ", ended).group(1))  # type: ignore[union-attr]

        def all_scored(text: str) -> bool:
            """A round's end in which all three riders have points in the room (a screen
            arrives in pieces: the round's line can be drawn before its points)."""
            return "Arena round " in text and "Points: " in text and all(name in text.split("Points: ")[-1] for name in ("ann", "bob", "cat"))

        def a_later_round(text: str) -> bool:
            """The end of a round after the one watched first, its points drawn (a busy
            machine's screen may show the next round's end too briefly to be read, not the
            one after)."""
            return "Points: " in text and any(int(found) > watched for found in re.findall(r"Arena round (\d+): ", text))

        later = [dan.until_true(a_later_round, "a later round's end")]  # the watcher follows the room
        later += [terminal.until_true(all_scored, "all three riders' points") for _, terminal in riders]
        await asyncio.gather(*later)  # each fails the test if its screen never comes
        for conn in (dan_conn, *(conn for conn, _ in riders)):
            conn.close()
            await conn.wait_closed()
        for name in ("ann", "bob", "cat", "dan"):
            await wait_for_line(lines, f"session end: {name}")
    starts = [line for line in lines if re.match(r"match \d+ start: ", line)]
    assert len(starts) >= 3 and all(line.count(" bot") == 1 for line in starts[1:])  # from round 2: three riders, one bot
