"""The HackerRank protocol: state text in and out, stream delimiting, the bot loop."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tui_grid.games.tron import botmain, protocol
from tui_grid.games.tron.board import standard_board
from tui_grid.games.tron.bots import choose_index, choose_move
from tui_grid.games.tron.engine import TronEngine, parse_program_answer
from tui_grid.games.tron.generator import generate

SEED_STATE = (Path(__file__).resolve().parent.parent / "boards" / "tron" / "seed-example.txt").read_text().split("---\n", 1)[1]


def test_format_and_parse_round_trip() -> None:
    engine = TronEngine(generate(20, 12, 10, 3))
    state = engine.initial_state()
    for seat in (0, 1):
        text = engine.observation(state, seat)
        wire = protocol.parse_state(text)
        assert wire.seat == seat
        assert wire.heads == tuple(tuple(h) for h in state.heads)
        assert wire.rows == state.rows
        assert protocol.format_state(wire.rows, wire.heads, wire.seat) == text


def test_the_seed_example_parses() -> None:
    wire = protocol.parse_state(SEED_STATE)
    assert wire.seat == 0 and wire.red == (4, 3) and wire.green == (5, 13)
    assert len(wire.rows) == 15 and all(len(row) == 15 for row in wire.rows)


def test_heads_come_from_line_2_not_the_grid() -> None:
    # The grid's letters put red at (7,1) and green at (7,13); line 2 says otherwise.
    rows = list(standard_board().rows)
    rows[1] = "#-------------#"
    text = protocol.format_state(rows, ((1, 1), (13, 13)), 0)
    wire = protocol.parse_state(text)
    assert wire.heads == ((1, 1), (13, 13))
    # From (1,1) only DOWN and RIGHT are free; a bot reading the grid letters would go RIGHT from (7,1).
    for level in ("easy", "medium", "hard"):
        assert protocol.WORDS[choose_index(wire, 0, 20, level=level)] in ("DOWN", "RIGHT")
    # Green at (13,13): the corner; only UP and LEFT.
    for level in ("easy", "medium", "hard"):
        assert protocol.WORDS[choose_index(wire, 1, 20, level=level)] in ("UP", "LEFT")


def test_seed_example_moves() -> None:
    wire = protocol.parse_state(SEED_STATE)
    for level in ("easy", "medium", "hard"):
        # Red at (4,3) has DOWN and RIGHT free; green at (5,13) (a '-' cell in the grid) is boxed in
        # by its trail and the wall, and still gets an answer.
        assert choose_move(wire, 0, 20, level=level).name in ("DOWN", "RIGHT")
        assert choose_move(wire, 1, 20, level=level).name in protocol.WORDS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x\n1 1 1 3\n#####\n", "line 1"),
        ("r\n1 1 1\n#####\n", "line 2"),
        ("r\n1 1 1 3\n", "line 3"),
        ("r\n1 1 1 3\n#####\n#r-g#\n####\n", "line 5"),
        ("r\n1 1 1 3\n#####\n#r?g#\n#####\n", "'?'"),
        ("r\n1 1 9 3\n#####\n#r-g#\n#####\n", "off the"),
    ],
)
def test_malformed_states(text: str, message: str) -> None:
    with pytest.raises(protocol.ProtocolError, match=message.replace("?", r"\?")):
        protocol.parse_state(text)


def test_answers() -> None:
    assert protocol.parse_word("LEFT\n") == "LEFT"
    for bad in ("None", "left", "", "UPP"):
        with pytest.raises(ValueError, match="not one of LEFT RIGHT UP DOWN"):
            protocol.parse_word(bad)
    assert parse_program_answer(" DOWN ").name == "DOWN"


def _states(*texts: str) -> list[list[str]]:
    return list(protocol.read_states(io.StringIO("".join(texts))))


def test_read_states_delimiting() -> None:
    engine = TronEngine(generate(30, 12, 8, 1))
    big = engine.observation(engine.initial_state(), 0)
    small = protocol.format_state(["#####", "#r-g#", "#####"], ((1, 1), (1, 3)), 1)
    # Back to back, with blank lines between, and the last one cut by end of input.
    states = _states(big, small, "\n\n", big, small.rstrip("\n").rsplit("\n", 1)[0] + "\n")
    assert [len(s) for s in states] == [14, 5, 14, 4]
    assert protocol.parse_lines(states[0]).rows == engine.initial_state().rows
    assert protocol.parse_lines(states[1]).seat == 1
    # A blank line ends a state too.
    assert _states("r\n1 1 1 3\n#####\n#r-g#\n\ng\n1 1 1 3\n#####\n#r-g#\n#####\n")[0][-1] == "#r-g#"


def test_botmain_answers_each_state_at_once() -> None:
    engine = TronEngine()
    state = engine.initial_state()
    out = io.StringIO()
    stream = io.StringIO(engine.observation(state, 0) + engine.observation(state, 1) + SEED_STATE)
    assert botmain.run(stream, out, "hard", 20) == 0
    answers = out.getvalue().splitlines()
    assert len(answers) == 3 and all(a in protocol.WORDS for a in answers)
    assert answers[0] != "LEFT" and answers[1] != "RIGHT"


def test_botmain_rejects_bad_input_and_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert botmain.run(io.StringIO("q\n1 2 3 4\n###\n"), io.StringIO(), "easy", 10) == 2
    assert "state 1: line 1" in capsys.readouterr().err
    assert botmain.main(["--level", "insane"]) == 2
    assert botmain.main(["--time-ms", "0"]) == 2
    assert botmain.parse_args(["--level=easy", "--time-ms", "50"]) == ("easy", 50.0)


def test_botmain_as_a_hackerrank_program() -> None:
    """One state on stdin, one word on stdout, exit 0: exactly how HackerRank runs it."""
    run = subprocess.run(
        [sys.executable, "-m", "tui_grid.games.tron.botmain", "--time-ms", "50"],
        input=SEED_STATE, capture_output=True, text=True, timeout=20,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout in ("DOWN\n", "RIGHT\n")  # red at (4,3): UP and LEFT are its trail
