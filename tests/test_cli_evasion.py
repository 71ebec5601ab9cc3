"""`tui-grid match|serve|client evasion`: output formats, the architect headless over TCP,
and one-line errors with exit 2 for bad arguments."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading

import pytest

from tui_grid.cli import main
from tui_grid.games import registry

REGISTER = "from tui_grid.cli import main; import sys; sys.exit(main(sys.argv[1:]))"


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_match_json_last_line(capsys):
    code, out, err = run(capsys, "match", "evasion", "--hunter", "builtin", "--prey", "random", "-N", "10", "-M", "5",
                         "--games", "2", "--seed", "3", "--max-steps", "3000", "--json")
    assert code == 0 and err == []
    assert len(out) == 3 and out[0].startswith("game 1/2 seed 3: builtin hunter vs random prey")
    record = json.loads(out[-1])
    assert list(record)[:4] == ["catch_steps", "median", "hunter", "prey"]
    assert (record["hunter"], record["prey"]) == ("builtin", "random") and len(record["catch_steps"]) == 2
    assert all(isinstance(steps, int) for steps in record["catch_steps"])


def test_match_is_reachable_as_game_verb_and_random_hunter(capsys):
    code, out, _ = run(capsys, "evasion", "match", "--hunter", "random", "--prey", "random", "--max-steps", "200", "--json")
    assert code == 0 and json.loads(out[-1])["hunter"] == "random"


def test_serve_headless_bots_print_one_json_line(capsys):
    code, out, _ = run(capsys, "serve", "evasion", "--headless", "--port", "0", "--hunter", "builtin", "--prey", "random",
                       "--max-steps", "3000")
    assert code == 0 and len(out) == 1
    result = json.loads(out[0])
    assert result["caught"] is True and isinstance(result["catch_steps"], int)


class Raw:
    """A bare 2023 course client that answers `none` to every state line."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("r", encoding="utf-8", newline="\n")
        self.sock.sendall((name + "\n").encode())
        self.role = self.file.readline().split()
        self.states = 0

    def play(self) -> None:
        for line in self.file:
            if line.strip() == "end":
                return
            self.states += 1
            self.sock.sendall(b"none\n")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_serve_headless_with_two_tcp_clients_on_port_0():
    proc = subprocess.Popen([sys.executable, "-c", REGISTER, "serve", "evasion", "--headless", "--port", "0",
                             "--protocol", "2023", "--max-steps", "30", "--clock", "10"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients: list[Raw] = []
    try:
        line = proc.stderr.readline()
        assert "listening on 127.0.0.1:" in line, line
        port = int(line.rsplit(":", 1)[1])
        clients = [Raw(port, "h")]
        clients.append(Raw(port, "p"))
        threads = [threading.Thread(target=client.play) for client in clients]
        for thread in threads:
            thread.start()
        out, err = proc.communicate(timeout=20)
        for thread in threads:
            thread.join(5)
    finally:
        for client in clients:
            client.close()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert [c.role for c in clients] == [["hunter", "10", "5"], ["prey", "10", "5"]]
    result = json.loads(out.strip().splitlines()[-1])
    assert len(out.strip().splitlines()) == 1
    assert result["caught"] is False and result["catch_steps"] is None and result["steps"] == 30
    assert (result["hunter"], result["prey"]) == ("h", "p") and clients[0].states == 30


def test_client_verb_plays_an_architect(capsys):
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.server import run_server

    box: dict = {}
    bound = threading.Event()

    def listening(port: int) -> None:
        box["port"] = port
        bound.set()

    thread = threading.Thread(target=lambda: box.update(result=run_server(
        Config(), "2023", 0, "builtin", "tcp", 60, on_listening=listening, handshake_pause=0.0, accept_timeout=10)))
    thread.start()
    try:
        assert bound.wait(5)
        code, out, _ = run(capsys, "evasion", "client", "--port", str(box["port"]), "--name", "us", "--timeout", "10")
    finally:
        thread.join(10)
    assert code == 0 and out[0] == "playing the prey with N=10 M=5"
    summary = json.loads(out[-1])
    assert summary["ended"] and summary["roles"] == ["prey"]
    assert box["result"]["prey"] == "us"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", "evasion"], "no solver"),
        (["generate", "evasion"], "cannot generate"),
        (["match", "evasion", "-N", "0"], "-N"),
        (["match", "evasion", "-N", "51"], "-N"),
        (["match", "evasion", "-M", "1"], "-M"),
        (["match", "evasion", "-M", "x"], "whole number"),
        (["match", "evasion", "--hunter", "tcp"], "--hunter"),
        (["match", "evasion", "--prey", "nowall"], "--prey"),
        (["match", "evasion", "--games", "0"], "--games"),
        (["match", "evasion", "--seed", "x"], "seed"),
        (["serve", "evasion", "--port", "70000"], "--port"),
        (["serve", "evasion", "--port", "-1"], "--port"),
        (["serve", "evasion", "--protocol", "1999"], "--protocol"),
        (["serve", "evasion", "--headless", "--prey", "human"], "human"),
        (["serve", "evasion", "--headless", "--hunter", "builtin", "--prey", "random"], "--max-steps"),
        (["serve", "evasion", "--clock", "0"], "--clock"),
        (["evasion", "client"], "--port"),
        (["evasion", "client", "--port", "1", "--protocol", "2020"], "--protocol"),
        (["evasion", "client", "--port", "1", "--level", "genius"], "--level"),
        (["evasion", "fly"], "its commands: match, serve, client"),
        (["run", "ice", "spiral"], "ice has no 'run' command; its commands: none of its own (and play, boards, solve"),
        (["play", "evasion", "evasion:N99"], "N (steps between walls)"),
        (["play", "evasion", "ice:10x10"], "ice game id"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == []
    assert len(err) == 1 and err[0].startswith("tui-grid: error:") and words in err[0], err


def test_client_to_a_closed_port_is_one_line(capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening: connections are refused
        code, out, err = run(capsys, "evasion", "client", "--port", str(port), "--timeout", "2")
    assert code == 2 and len(err) == 1 and "cannot reach the architect" in err[0]


def test_setups_load_and_draw():
    game = registry.get_game("evasion")
    loaded = game.load("evasion:N20:M3:2016#seed4")
    assert (loaded.board.n, loaded.board.m, loaded.board.preset) == (20, 3, "2016")
    assert game.load("standard").board.n == 10
    engine = game.make_engine(loaded)
    text = game.draw(engine, engine.initial_state())
    assert text.splitlines()[1].startswith("|H") and "P" in text and "walls 0/3" in text
    assert game.game_id_from_options({"n": "7", "m": "4"}, 9) == "evasion:N7:M4#seed9"
