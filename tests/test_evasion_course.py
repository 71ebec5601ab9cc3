"""The architect speaks the course's protocols as the real servers do (the 2016 Java
server's framing, numbering, clamping, per-step states, timeout scoring, build order and
line of sight), and bounds the work any one client can cause."""

from __future__ import annotations

import socket
import threading
import time
import tracemalloc
from collections.abc import Callable

import pytest

from tests.test_evasion_protocol import Raw, serving
from tui_grid.games.evasion import protocol2016 as p2016
from tui_grid.games.evasion import protocol2023 as p2023
from tui_grid.games.evasion.engine import HUNTER, EvasionEngine, HunterAction, PreyAction
from tui_grid.games.evasion.rules import Config, Wall, bounce, catches, line_cells, line_cells_2016


class LastLineOnly:
    """The course's own random player reads with one recv and keeps only the last line of
    what arrived: a role glued to the first state is lost. It answers with nothing."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.name = name
        self.roles: list[str] = []
        self.missed_role = False

    def last_line(self) -> str:
        data = self.sock.recv(65536).decode()
        if not data:
            return ""
        lines = [line for line in data.split("\n") if line.strip()]
        return lines[-1] if lines else ""

    def play(self) -> None:
        role = None
        while True:
            line = self.last_line()
            if line in ("", "done"):
                return
            if line == "sendname":
                self.sock.sendall(f"{self.name}\n".encode())
            elif line in ("hunter", "prey"):
                role = line
                self.roles.append(role)
            elif role is None:
                self.missed_role = True
                return
            else:
                words = line.split()
                game, tick = words[1], words[2]
                reply = f"{game} {tick} 0" if role == "hunter" else f"{game} {tick} 0 0"
                self.sock.sendall(f"{reply}\n".encode())

    def close(self) -> None:
        self.sock.close()


def test_a_client_that_keeps_only_the_last_line_of_each_read_plays_20_sessions() -> None:
    """The role line arrives on its own (the server pauses after it, as the Java one does),
    so 20 sessions of two games each pass without a forfeit."""
    for session in range(20):
        with serving("2016", max_steps=4, handshake_pause=0.05) as box:
            clients = [LastLineOnly(box["port"], f"random{session}{i}") for i in range(2)]
            threads = [threading.Thread(target=client.play) for client in clients]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(20)
            for client in clients:
                client.close()
        result = box["result"]
        assert not any(client.missed_role for client in clients), session
        assert [g["forfeit"] for g in result["games"]] == [None, None], (session, result)
        assert [client.roles for client in clients] == [["hunter", "prey"], ["prey", "hunter"]]


def test_out_of_range_prey_moves_are_clamped_and_odd_wall_types_build_nothing() -> None:
    assert p2016.parse_prey_reply("1 229 -3 -3", 1, 229) == PreyAction((-1, -1))
    assert p2016.parse_prey_reply("0 8 5 0", 0, 8) == PreyAction((1, 0))
    assert p2016.parse_hunter_reply("0 4 7", 0, 4, None) == HunterAction(None, ())  # type: ignore[arg-type]
    assert p2016.parse_hunter_reply("0 4 -1 0 1", 0, 4, None) == HunterAction(None, (0, 1))  # type: ignore[arg-type]
    assert p2016.parse_hunter_reply("0 3 1", 0, 4, None) == HunterAction(None, ())  # type: ignore[arg-type]  # another tick: ignored
    with pytest.raises(ValueError):
        p2016.parse_prey_reply("0 8 left up", 0, 8)


def test_a_published_clients_out_of_range_moves_play_on_the_server() -> None:
    def answer(game: int, role: str, words: list[str]) -> str:
        return f"{words[1]} {words[2]} -3 -3" if role == "prey" else f"{words[1]} {words[2]} 9"

    with serving("2016", hunter="builtin", prey="tcp", max_steps=8) as box:
        play_2016(box["port"], "clamped", answer)
    assert [g["forfeit"] for g in box["result"]["games"]] == [None, None]


def test_a_reply_split_over_two_segments_is_accepted() -> None:
    """A reply whose halves come 100 ms apart is one reply: its first half is not taken
    for garbage."""
    with serving("2023", hunter="tcp", prey="builtin", max_steps=4) as box:
        client = Raw(box["port"])
        try:
            client.send("split")
            assert client.read().startswith("hunter")
            steps = 0
            while True:
                line = client.read()
                if line in ("end", ""):
                    break
                client.sock.sendall(b"no")
                time.sleep(0.1)
                client.sock.sendall(b"ne\n")
                steps += 1
        finally:
            client.close()
    result = box["result"]
    assert result["forfeit"] is None and result["steps"] == 4 and steps == 4


def test_a_flooding_hunter_is_bounded_in_memory_and_in_what_is_kept() -> None:
    """Thousands of removals a step are counted, not stored: a flood as long as a line may
    be (4 KiB) costs one summarised refusal a step; a longer line is garbage at once."""
    flood = " ".join(["remove 0 0 0 1"] * 270)  # just under the 4096-byte line cap
    assert len(flood) < 4096
    tracemalloc.start()
    try:  # the random prey: what is measured is the server's, and tracemalloc slows any search
        with serving("2023", hunter="tcp", prey="random", max_steps=60) as box:
            client = Raw(box["port"])
            try:
                client.send("flood")
                client.read()
                while True:
                    line = client.read()
                    if line in ("end", ""):
                        break
                    client.send(flood)
            finally:
                client.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    result = box["result"]
    assert result["forfeit"] is None and result["steps"] == 60 and result["refused"] == 60  # one per step
    assert peak < 8 * 1024 * 1024, peak
    with serving("2023", hunter="tcp", prey="random", max_steps=60) as box:
        client = Raw(box["port"])
        try:
            client.send("flood")
            client.read()
            client.read()
            client.send(" ".join(["remove 0 0 0 1"] * 40_000))
            while client.read() not in ("end", ""):
                pass
        finally:
            client.close()
    assert box["result"]["forfeit"] == "hunter" and box["result"]["steps"] == 0


def play_2016(port: int, name: str, answer: Callable[[int, str, list[str]], str | None]) -> None:
    """A bare 2016 client: `answer(game, role, state words)` gives each reply (None: none,
    so its clock runs out). Games count from 0, as the server numbers them."""
    client = Raw(port)
    try:
        assert client.read() == "sendname"
        client.send(name)
        role, game = "", -1
        while True:
            line = client.read()
            if line in ("done", ""):
                return
            if line in ("hunter", "prey"):
                role, game = line, game + 1
                continue
            reply = answer(game, role, line.split())
            if reply is not None:
                client.send(reply)
    finally:
        client.close()


def nothing(role: str, words: list[str]) -> str:
    """The reply that does nothing: no wall, or stay put."""
    return f"{words[1]} {words[2]} 0" if role == "hunter" else f"{words[1]} {words[2]} 0 0"


def test_a_forfeit_in_game_1_does_not_forfeit_game_2() -> None:
    with serving("2016", hunter="tcp", prey="builtin", max_steps=4) as box:
        play_2016(box["port"], "messy", lambda game, role, words: "garbage!" if game == 0 else nothing(role, words))
    games = box["result"]["games"]
    assert games[0]["forfeit"] == "hunter" and games[1]["forfeit"] is None and games[1]["steps"] == 4


def test_a_prey_that_times_out_scores_the_steps_reached_and_game_2_is_played() -> None:
    def answer(game: int, role: str, words: list[str]) -> str | None:
        if game == 0 and role == "prey" and words[2] == "2":
            return None  # stop answering: the thinking clock runs out
        return nothing(role, words)

    with serving("2016", hunter="builtin", prey="tcp", max_steps=6, clock_seconds=0.3) as box:
        play_2016(box["port"], "sleepy", answer)  # player 2: the prey in game 0, the hunter in game 1
    result = box["result"]
    games = result["games"]
    assert games[0]["forfeit"] == "prey" and games[0]["steps"] == 2
    assert games[1]["forfeit"] is None and games[1]["steps"] == 6
    assert result["winner"] == result["players"][0]  # the prey that timed out scored 2: it loses


# --- the 2016 preset's rules, against the Java server's ---------------------------------------
def test_the_2016_line_of_sight_uses_the_java_cells() -> None:
    assert line_cells_2016(0, 0, 1, 2) == [(0, 0), (0, 1), (1, 2)]
    assert list(line_cells(0, 0, 1, 2)) == [(0, 0), (1, 1), (1, 2)]
    assert line_cells_2016(0, 0, 2, 1) == [(0, 0), (1, 0), (2, 1)]
    assert line_cells_2016(2, 1, 0, 0) == [(0, 0), (1, 0), (2, 1)]
    engine = EvasionEngine(Config(preset="2016"))
    grid = engine.grid((Wall(1, 1, 1, 1),))
    assert catches(grid, 0, 0, 1, 2, strict=True)  # Java's cells pass beside the wall
    assert not catches(grid, 0, 0, 1, 2, strict=False)


def test_the_2016_order_moves_the_hunter_before_the_wall_is_built() -> None:
    """Java moves the hunter on the board without the new wall, then builds it from the
    cell it left, refusing a wall that covers its new cell."""
    walls = (Wall(6, 6, 6, 20),)
    for preset in ("2016", "course"):
        engine = EvasionEngine(Config(preset=preset))
        state = engine.make_state(tick=10, hunter=(5, 5), hunter_velocity=(1, 1), walls=walls, prey=(100, 100))
        after = engine.step(state, {HUNTER: HunterAction("h", ())}).state
        if preset == "2016":
            expected = bounce(engine.grid(walls), 5, 5, 1, 1)
            assert (*after.hunter, *after.hunter_velocity) == expected
        else:
            with_wall = engine.grid(after.walls)
            assert (*after.hunter, *after.hunter_velocity) == bounce(with_wall, 5, 5, 1, 1)


def test_the_client_reads_walltimer_0_as_ready_now() -> None:
    engine = EvasionEngine(Config(n=10, preset="2016"))
    _, _, state = p2016.parse_state_line("1000 0 57 5 10 300 300 0 57 57 1 1 230 200 1 0 40 0 299", engine)
    assert state.last_build is not None and engine.build_wait(state) == 0
    _, _, first = p2016.parse_state_line("1000 0 0 5 10 300 300 0 0 0 1 1 230 200 0", engine)
    assert first.last_build is None


@pytest.mark.parametrize("line", [
    "1 5 0 1 1 null 230 200 0 0 1 5 0 5 1000000000",
    "1 5 0 1 1 null 230 200 0 0 1 0 5 1e14 5",
    "1 5000 0 1 1 null 230 200 0 0 0",
])
def test_the_client_refuses_geometry_off_the_board_before_allocating(line: str) -> None:
    engine = EvasionEngine(Config())
    tracemalloc.start()
    try:
        with pytest.raises(ValueError):
            p2023.parse_state_line(line, engine)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


def test_the_client_refuses_a_2016_board_too_big_to_draw() -> None:
    with pytest.raises(ValueError, match="not one this client plays"):
        p2016.parse_state_line("1000 0 0 5 10 100000000 300 0 0 0 1 1 230 200 0", EvasionEngine(Config()))

