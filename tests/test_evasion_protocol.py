"""Evasion over TCP: the architect against clients written here from the published line
formats (2023 and 2016), forfeits, and our own client against our server."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from tui_grid.core.agents import AgentError
from tui_grid.core.network import LineConnection, LineListener, NetworkAgent, ThinkingClock
from tui_grid.games.evasion import protocol2016 as p2016
from tui_grid.games.evasion import protocol2023 as p2023
from tui_grid.games.evasion.client import run_client
from tui_grid.games.evasion.engine import PREY, EvasionEngine, HunterAction, PreyAction
from tui_grid.games.evasion.rules import Config, Wall
from tui_grid.games.evasion.server import EvasionServer, run_server

#: Whole games of the builtin bots through each protocol: the prey's plain chase keeps them cheap.
pytestmark = pytest.mark.usefixtures("plain_chase_prey")


@contextmanager
def serving(protocol: str, hunter: str = "tcp", prey: str = "tcp", **options: Any) -> Iterator[dict[str, Any]]:
    """Run a server in a thread on a free port; yields a box with "port" (and "result" once done)."""
    box: dict[str, Any] = {}
    bound = threading.Event()
    stop = threading.Event()
    options.setdefault("clock_seconds", 5.0)
    options.setdefault("handshake_pause", 0.0)
    options.setdefault("accept_timeout", 5.0)
    options.setdefault("handshake_timeout", 5.0)

    def listening(port: int) -> None:
        box["port"] = port
        bound.set()

    def serve() -> None:
        try:
            box["result"] = run_server(Config(), protocol, 0, hunter, prey, options.pop("max_steps", 40),
                                       on_listening=listening, stop=stop, **options)
        except BaseException as exc:  # pragma: no cover - reported by the test
            box["error"] = exc
            bound.set()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert bound.wait(5)
    try:
        yield box
    finally:
        thread.join(10)
        stop.set()
        thread.join(5)
        assert not thread.is_alive()
        assert "error" not in box, box.get("error")


class Raw:
    """A bare-socket client, as a course team would write it: lines in, lines out."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.file = self.sock.makefile("r", encoding="utf-8", newline="\n")

    def send(self, line: str) -> None:
        self.sock.sendall((line + "\n").encode())

    def read(self) -> str:
        return self.file.readline().strip()

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_2023_clean_game_with_published_line_formats():
    with serving("2023", max_steps=40) as box:
        hunter, prey = Raw(box["port"]), Raw(box["port"])
        try:
            hunter.send("hunters")
            assert hunter.read() == "hunter 10 5"
            prey.send("preys")
            assert prey.read() == "prey 10 5"
            hunter_lines, prey_lines = [], []
            for tick in range(40):
                line = hunter.read()
                hunter_lines.append(line)
                words = line.split()
                assert int(words[0]) == tick
                hunter.send("create 0 0 0 5" if tick == 0 else "none")
                if tick % 2 == 1:
                    line = prey.read()
                    prey_lines.append(line)
                    assert line == hunter_lines[-1]
                    prey.send("change 1 0" if tick == 1 else "none")
            assert hunter.read() == "end" and prey.read() == "end"
        finally:
            hunter.close()
            prey.close()
    result = box["result"]
    assert result["caught"] is False and result["steps"] == 40 and result["forfeit"] is None
    assert (result["hunter"], result["prey"]) == ("hunters", "preys")
    # State line fields: tick 1 after the wall built at ticker 0, the prey moving right.
    words = hunter_lines[1].split()
    assert words[:6] == ["1", "1", "1", "1", "1", "0"] and words[10:] == ["1", "0", "0", "0", "5"]
    last = prey_lines[-1].split()
    assert last[8:10] == ["1", "0"] and int(last[6]) == 230 + 19


def test_2023_disconnect_forfeits_and_the_other_player_gets_end():
    with serving("2023", max_steps=1000) as box:
        hunter, prey = Raw(box["port"]), Raw(box["port"])
        try:
            hunter.send("h")
            prey.send("p")
            assert hunter.read().startswith("hunter") and prey.read().startswith("prey")
            hunter.read()
            hunter.send("none")
            hunter.read()
            hunter.close()  # hangs up mid-game
            line = prey.read()
            while line != "end":
                prey.send("none")
                line = prey.read()
        finally:
            prey.close()
    result = box["result"]
    assert result["forfeit"] == "hunter" and result["winner"] == "prey"
    assert "disconnected" in result["reason"]


@pytest.mark.parametrize("answer", ["fly away", "create 1 2 3", "remove"])
def test_2023_garbage_forfeits_with_a_clear_message(answer):
    with serving("2023", hunter="tcp", prey="builtin") as box:
        hunter = Raw(box["port"])
        try:
            hunter.send("noisy")
            assert hunter.read() == "hunter 10 5"
            hunter.read()
            hunter.send(answer)
            assert hunter.read() == "end"
        finally:
            hunter.close()
    result = box["result"]
    assert result["forfeit"] == "hunter" and "garbage" in result["reason"] and answer[:4] in result["reason"]


def test_2023_a_refused_wall_is_no_forfeit():
    with serving("2023", hunter="tcp", prey="builtin", max_steps=4) as box:
        hunter = Raw(box["port"])
        try:
            hunter.send("bad walls")
            hunter.read()
            for _ in range(4):
                hunter.read()
                hunter.send("create 100 100 100 120")  # does not contain the hunter
            assert hunter.read() == "end"
        finally:
            hunter.close()
    assert box["result"]["forfeit"] is None and box["result"]["refused"] == 4


def test_2023_timeout_forfeits_on_a_short_clock():
    with serving("2023", hunter="builtin", prey="tcp", clock_seconds=0.3) as box:
        prey = Raw(box["port"])
        try:
            prey.send("sleepy")
            assert prey.read() == "prey 10 5"
            prey.read()  # a state line, never answered
            assert prey.read() == "end"
        finally:
            prey.close()
    result = box["result"]
    assert result["forfeit"] == "prey" and "thinking time" in result["reason"]


def test_2023_answer_without_newline_is_accepted():
    with serving("2023", hunter="tcp", prey="builtin", max_steps=2) as box:
        hunter = Raw(box["port"])
        try:
            hunter.sock.sendall(b"nonewline")
            assert hunter.read() == "hunter 10 5"
            for _ in range(2):
                hunter.read()
                hunter.sock.sendall(b"none")
            assert hunter.read() == "end"
        finally:
            hunter.close()
    assert box["result"]["forfeit"] is None and box["result"]["hunter"] == "nonewline"


def test_2016_two_games_with_roles_swapped():
    with serving("2016", max_steps=6) as box:
        one, two = Raw(box["port"]), Raw(box["port"])
        try:
            assert one.read() == "sendname"
            one.send("first")
            assert two.read() == "sendname"
            two.send("second")
            seen = []
            for game, (hunter, prey) in enumerate(((one, two), (two, one))):  # numbered 0 and 1, as in Java
                assert hunter.read() == "hunter" and prey.read() == "prey"
                for tick in range(6):
                    line = hunter.read().split()
                    seen.append(line)
                    time_left, game_num, t = int(line[0]), int(line[1]), int(line[2])
                    assert (game_num, t) == (game, tick) and 0 < time_left <= 5000
                    assert line[3:7] == ["5", "10", "300", "300"]
                    hunter.send(f"{game_num} {t} {1 if tick == 0 else 0}")
                    pline = prey.read().split()  # the prey is sent every state, as in Java
                    assert pline[1:] == line[1:]
                    prey.send(f"{game_num} {t} -1 0")
            assert one.read() == "done" and two.read() == "done"
        finally:
            one.close()
            two.close()
    result = box["result"]
    assert [g["hunter"] for g in result["games"]] == ["first", "second"]
    assert result["caught"] == [False, False]
    # After tick 0's horizontal wall, the state shows wallTimer and the wall as "0 y x1 x2".
    assert seen[1][7] == "9" and seen[1][14:] == ["1", "0", "0", "0", "299"]


def test_2016_a_stale_answer_is_ignored_as_the_java_server_does():
    """The 2016 server ignores an answer for another game or tick (a lagging client) and
    plays on; games are numbered 0 and 1, as it numbers them."""
    with serving("2016", hunter="tcp", prey="builtin", max_steps=6) as box:
        one = Raw(box["port"])
        games: set[str] = set()
        try:
            assert one.read() == "sendname"
            one.send("stale")
            role, first = one.read(), True
            while True:
                line = one.read()
                if line in ("hunter", "prey"):
                    role = line
                    continue
                if line in ("done", ""):
                    break
                words = line.split()
                game, tick = words[1], words[2]
                games.add(game)
                if first:
                    one.send(f"{game} 99 1")  # for a tick that is not this one: ignored
                    first = False
                else:
                    one.send(f"{game} {tick} 0" if role == "hunter" else f"{game} {tick} 0 0")
        finally:
            one.close()
    result = box["result"]
    assert games == {"0", "1"}
    assert [g["forfeit"] for g in result["games"]] == [None, None] and result["games"][0]["steps"] == 6


def test_human_seat_fed_through_the_session_and_stop_event():
    stop = threading.Event()
    states = []

    def on_state(state, events):
        states.append(state)
        if state.tick == 10:
            stop.set()

    server = EvasionServer(Config(), "2023", 0, "builtin", "human", None, on_state=on_state, stop=stop)
    server.on_session.append(lambda session: session.submit(PREY, PreyAction((-1, 0))))
    result = server.run()
    assert result.get("stopped") and states[-1].tick == 10
    assert states[2].prey == (229, 200) and states[4].prey == (228, 200)  # the velocity persists


def test_line_protocol_parsers_round_trip():
    engine = EvasionEngine()
    state = engine.make_state(tick=7, hunter=(3, 4), hunter_velocity=(-1, 1), prey=(9, 8), prey_velocity=(0, -1),
                              last_build=5, walls=[(0, 10, 20, 10), (30, 0, 30, 40)])
    line = p2023.state_line(state)
    assert line == "7 3 4 -1 1 4 9 8 0 -1 2 0 10 20 10 30 0 30 40"
    assert p2023.parse_state_line(line, engine) == state
    line16 = p2016.state_line(state, engine, 2, 1234)
    assert line16 == "1234 2 7 5 10 300 300 7 3 4 -1 1 9 8 2 0 10 0 20 1 30 0 40"
    _, game, parsed = p2016.parse_state_line(line16, engine)
    assert game == 2 and parsed.walls == state.walls and engine.build_wait(parsed) == 7
    assert p2016.parse_hunter_reply("2 7 2 1 0", 2, 7, state) == HunterAction("v", (1, 0))
    assert p2016.parse_prey_reply("2 7 -1 1", 2, 7) == PreyAction((-1, 1))
    action = HunterAction("h", (Wall(30, 0, 30, 40),))
    assert p2023.hunter_reply(action, state, engine) == "remove 30 0 30 40 create 0 4 299 4"
    assert p2016.hunter_reply(action, state, engine, 2) == "2 7 1 1"
    assert p2023.parse_prey_reply("change 5 -3") == PreyAction((1, -1))


def test_network_agent_charges_its_clock():
    with LineListener() as listener:
        client = LineConnection.connect("127.0.0.1", listener.port)
        server_side = listener.accept(2)
        try:
            clock = ThinkingClock(0.2)
            agent = NetworkAgent(server_side, clock=clock, observe=lambda ask: "state",
                                 parse=lambda line, ask: line.upper())
            client.send_line("go")
            assert agent.act(_ask()) == "GO"
            assert client.read_line(1) == "state"
            with pytest.raises(AgentError, match="thinking time"):
                agent.act(_ask())
            assert clock.expired
        finally:
            client.close()
            server_side.close()


def _ask():
    from tui_grid.core.agents import Ask

    engine = EvasionEngine()
    return Ask(engine, engine.initial_state(), 0)


#: Catch steps of our builtin client against itself through the architect (N=4, M=3), one
#: game each, the prey on its plain chase (`plain_chase_prey`). Serving a protocol must not
#: change a move: these change only with the bots' play, which the bench measures.
CATCH_BEFORE = {"2023": 996, "2016": [811, 811]}


@pytest.mark.parametrize("protocol", ["2023", "2016"])
def test_two_builtin_clients_play_our_server_to_a_catch_at_the_same_steps_as_before(protocol: str) -> None:
    # Our client on both sides of our server: every game ends in a catch, with no forfeit
    # and no refused request, at the step it always has.
    box: dict[str, Any] = {}
    ended: dict[str, Any] = {}
    bound = threading.Event()

    def serve() -> None:
        box["result"] = run_server(Config(n=4, m=3), protocol, 0, "tcp", "tcp", 3000, handshake_pause=0.0,
                                   accept_timeout=10, clock_seconds=600.0,  # a loaded machine's thinking never forfeits
                                   on_listening=lambda port: (box.__setitem__("port", port), bound.set()))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    assert bound.wait(5)
    # Both clients are the same builtin program, so which one connects first does not matter.
    clients = [threading.Thread(target=lambda name=name: ended.update({name: run_client(protocol, "127.0.0.1", box["port"], name, timeout=30)["ended"]}),
                                daemon=True) for name in ("a", "b")]
    for client in clients:
        client.start()
    for thread in (*clients, server):
        thread.join(60)
        assert not thread.is_alive()
    result = box["result"]
    assert result["catch_steps"] == CATCH_BEFORE[protocol] and ended == {"a": True, "b": True}
    if protocol == "2023":
        assert result["caught"] and result["forfeit"] is None and result["refused"] == 0
    else:
        assert all(result["caught"]) and all(g["refused"] == 0 and g["forfeit"] is None for g in result["games"])
