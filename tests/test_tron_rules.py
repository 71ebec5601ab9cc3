"""Tron rules: simultaneous-move edge cases, board files, the engine's text forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_grid.core.boardfile import parse_board_text, read_board_file
from tui_grid.core.engine import IllegalAction, Result
from tui_grid.core.errors import BoardError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.outcome import Failure, Fault
from tui_grid.games.tron.board import board_from_rows, parse_tron, standard_board
from tui_grid.games.tron.engine import TronEngine, direction_of
from tui_grid.games.tron.rules import TronState

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT
BOARDS = Path(__file__).resolve().parent.parent / "boards" / "tron"


def engine_for(rows: list[str]) -> TronEngine:
    """A board from rows where `r`/`g` mark the heads (one each)."""
    return TronEngine(parse_tron(parse_board_text("\n".join(rows) + "\n", "t.txt")))


def step(engine: TronEngine, state: TronState, red: Direction, green: Direction):  # type: ignore[no-untyped-def]
    return engine.step(state, {0: red, 1: green})


OPEN = [
    "#######",
    "#-----#",
    "#-r-g-#",
    "#-----#",
    "#######",
]


def test_standard_board_matches_the_rules() -> None:
    board = standard_board()
    assert (board.width, board.height) == (15, 15)
    assert board.heads == (Pos(7, 1), Pos(7, 13))
    shipped = parse_tron(read_board_file(BOARDS / "standard.txt"))
    assert shipped.rows == board.rows and shipped.heads == board.heads


def test_plain_moves_leave_trails() -> None:
    engine = engine_for(OPEN)
    result = step(engine, engine.initial_state(), U, D)
    state = result.state
    assert state.heads == (Pos(1, 2), Pos(3, 4))
    assert state.rows[1][2] == "r" and state.rows[2][2] == "r" and state.rows[3][4] == "g"
    assert not state.outcome.over and result.events == ()
    assert state.headings == (U, D) and state.turn == 1


def test_both_enter_the_same_cell_is_a_draw() -> None:
    engine = engine_for(OPEN)
    result = step(engine, engine.initial_state(), R, L)
    assert result.state.outcome.result is Result.DRAW
    assert "met head-on at row 3, col 4" in result.state.outcome.reason
    assert [e.kind for e in result.events] == ["draw"]
    assert result.events[0].cells == (Pos(2, 3),)


def test_swapping_cells_is_a_head_on_draw() -> None:
    engine = engine_for(["######", "#-rg-#", "#----#", "######"])
    result = step(engine, engine.initial_state(), R, L)
    assert result.state.outcome.result is Result.DRAW
    assert "swapped cells head-on" in result.state.outcome.reason
    assert result.state.heads == (Pos(1, 2), Pos(1, 3))


def test_both_crash_is_a_draw() -> None:
    engine = engine_for(OPEN)
    result = step(engine, engine.initial_state(), L, R)  # both onto free cells: fine
    state = result.state
    result = step(engine, state, L, R)  # red into the wall at col 0, green into col 6
    assert result.state.outcome.result is Result.DRAW
    assert result.state.outcome.winner is None
    texts = [e.text for e in result.events]
    assert texts == ["red crashed into a wall at row 3, col 1", "green crashed into a wall at row 3, col 7"]


def test_crash_into_a_trail_names_whose() -> None:
    engine = engine_for(OPEN)
    state = step(engine, engine.initial_state(), D, L).state  # red (3,2), green (2,3)
    result = step(engine, state, U, R)  # red back into its own trail at (2,2); green onto (2,4): its own trail
    texts = [e.text for e in result.events]
    assert texts == ["red crashed into its own trail at row 3, col 3", "green crashed into its own trail at row 3, col 5"]
    state = step(engine, engine.initial_state(), U, L).state  # red (1,2), green (2,3)
    result = step(engine, state, R, U)  # red onto (1,3) free; green onto (1,3) too: head-on
    assert result.state.outcome.result is Result.DRAW
    state = step(engine, engine.initial_state(), D, D).state  # red (3,2), green (3,4)
    result = step(engine, state, R, U)  # red (3,3) free; green (2,4) its own trail
    assert result.state.outcome.result is Result.WON and result.state.outcome.winner == 0
    assert result.state.outcome.reason == "green crashed into its own trail at row 3, col 5: red wins"
    state = step(engine, engine.initial_state(), D, L).state  # red (3,2), green (2,3)
    result = step(engine, state, R, D)  # red (3,3); green (3,3): head-on
    assert result.state.outcome.result is Result.DRAW
    state = step(engine, engine.initial_state(), U, U).state  # red (1,2), green (1,4)
    state = step(engine, state, R, D).state  # red (1,3), green back down? (2,4) is its trail
    assert state.outcome.winner == 0


def test_crash_into_the_other_trail_and_head() -> None:
    engine = engine_for(OPEN)
    state = step(engine, engine.initial_state(), R, U).state  # red (2,3), green (1,4)
    result = step(engine, state, R, R)  # red into (2,4): green's trail; green to (1,5)
    assert result.state.outcome.winner == 1
    assert result.events[0].text == "red crashed into green's trail at row 3, col 5"
    state = step(engine, engine.initial_state(), U, U).state  # red (1,2), green (1,4)
    result = step(engine, state, R, U)  # red (1,3) ok; green into the wall
    assert result.state.outcome.winner == 0
    # Moving into the other's head while it moves elsewhere still crashes.
    engine = engine_for(["#######", "#-rg--#", "#-----#", "#######"])
    result = step(engine, engine.initial_state(), R, D)
    assert result.state.outcome.winner == 1
    assert result.events[0].text == "red crashed into green's head at row 2, col 4"


def test_off_the_board_crashes() -> None:
    state = TronState(("r--", "---", "--g"), (Pos(0, 0), Pos(2, 2)))
    engine = TronEngine(standard_board())
    result = engine.step(state, {0: U, 1: L})
    assert result.state.outcome.winner == 1
    assert result.events[0].text == "red drove off the board from row 1, col 1"


def test_a_player_with_no_move_crashes() -> None:
    engine = engine_for(["#######", "#r#---#", "###-g-#", "#######"])
    state = engine.initial_state()
    assert state.safe_moves(0) == ()
    for move in (U, D, L, R):
        result = step(engine, state, move, R)
        assert result.state.outcome.winner == 1
    # ...and if the other crashes in the same step, it is a draw.
    result = step(engine, state, D, D)
    assert result.state.outcome.result is Result.DRAW


def test_default_action_goes_straight_and_first_toward_the_centre() -> None:
    engine = TronEngine()
    state = engine.initial_state()
    assert engine.default_action(state, 0) == R and engine.default_action(state, 1) == L
    state = engine.step(state, {0: U, 1: D}).state
    assert engine.default_action(state, 0) == U and engine.default_action(state, 1) == D
    # A step missing a seat's action uses the default.
    state = engine.step(state, {0: R}).state
    assert state.headings == (R, D)


def test_forfeit_and_over() -> None:
    engine = TronEngine()
    state = engine.forfeit(engine.initial_state(), 1, Failure(Fault.BAD_OUTPUT, "None", "not one of LEFT RIGHT UP DOWN"))
    outcome = engine.outcome(state)
    assert outcome.result is Result.WON and outcome.winner == 0 and "None" in outcome.reason
    assert engine.acting_seats(state) == ()
    assert engine.legal_actions(state, 0) == ()
    with pytest.raises(IllegalAction):
        engine.step(state, {0: U, 1: U})


def test_actions_and_logs_round_trip() -> None:
    engine = TronEngine()
    for d in (U, D, L, R):
        assert engine.decode_action(engine.encode_action(d)) == d
    assert direction_of("LEFT") == L and direction_of("up") == U and direction_of("r") == R
    with pytest.raises(ValueError):
        engine.decode_action("NONE")
    steps = [{0: R, 1: L}, {0: U, 1: D}, {0: R, 1: L}]
    text = engine.format_log(steps)
    assert text == "r,l u,d r,l"
    assert engine.parse_log(text) == steps
    states = engine.replay(steps)
    assert states[-1].heads == (Pos(6, 3), Pos(8, 11))
    with pytest.raises(ValueError, match="step 2"):
        engine.parse_log("r,l x,d")


def test_observation_is_the_protocol_text() -> None:
    engine = TronEngine()
    text = engine.observation(engine.initial_state(), 1)
    lines = text.splitlines()
    assert lines[0] == "g" and lines[1] == "7 1 7 13" and len(lines) == 17
    assert lines[9] == "#r-----------g#"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("#####\n#r-g#\n#-x-#\n#####\n", "t.txt:3:3", "unknown character 'x'"),
        ("#####\n#r-g#\n#---\n#####\n", "t.txt:3:", "wide"),
        ("#####\n#r-g-\n#---#\n#####\n", "t.txt:2:5", "border"),
        ("#####\n#r--#\n#---#\n#####\n", "t.txt:1:1", "no 'g'"),
        ("#####\n#rrg#\n#---#\n#####\n", "t.txt:2:3", "second 'r'"),
        ("#####\n#r-g#\n#####\n#---#\n#####\n", "t.txt:3:1", "all walls"),
        ("heads: 1 1 1 9\n---\n#####\n#r-g#\n#####\n", "t.txt:", "off the"),
        ("heads: 1 1 1 2\n---\n#####\n#r#g#\n#####\n", "t.txt:4:3", "'#'"),
        ("heads: 1 1\n---\n#####\n#r-g#\n#####\n", "t.txt:1:1", "four integers"),
    ],
)
def test_bad_board_files_report_the_cell(text: str, where: str, message: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_tron(parse_board_text(text, "t.txt"))
    assert str(info.value).startswith(where)
    assert message in str(info.value)


def test_heads_header_and_pasted_state() -> None:
    board = parse_tron(parse_board_text("heads: 1 2 1 3\n---\n#####\n#rrg#\n#-gg#\n#####\n", "t.txt"))
    assert board.heads == (Pos(1, 2), Pos(1, 3))
    seed = parse_tron(read_board_file(BOARDS / "seed-example.txt"))
    # Line 2 says green is at (5,13), where the grid has '-': line 2 wins.
    assert seed.heads == (Pos(4, 3), Pos(5, 13))
    assert seed.rows[5][13] == "g"


def test_shipped_boards_parse_and_start_playing() -> None:
    files = sorted(BOARDS.glob("*.txt"))
    assert len(files) >= 5
    sizes = set()
    for path in files:
        board = parse_tron(read_board_file(path))
        sizes.add((board.width, board.height))
        assert not TronEngine(board).initial_state().outcome.over
    assert (15, 15) in sizes and (40, 30) in sizes


def test_board_from_rows_checks() -> None:
    with pytest.raises(ValueError, match="border"):
        board_from_rows(["-----", "#r-g#", "#####"], (1, 1), (1, 3))


def test_a_humans_turns_queue_up_and_play_one_a_tick() -> None:
    """Up then Left within one tick: Up at the next tick, Left at the one after; a repeat
    of the heading and a turn straight back are dropped."""
    from tui_grid.core.agents import Ask, HumanAgent

    engine = TronEngine(standard_board())
    start = engine.initial_state()
    state = engine.step(start, {seat: engine.default_action(start, seat) for seat in (0, 1)}).state
    human: HumanAgent = HumanAgent()
    human.start(engine, 0)
    heading = state.headings[0]
    human.push(engine, state, 0, heading)  # the heading again: nothing to do
    assert human.queued == ()
    human.push(engine, state, 0, Direction.UP if heading in (Direction.LEFT, Direction.RIGHT) else Direction.LEFT)
    first = human.queued[0]
    human.push(engine, state, 0, first.opposite)  # straight back from the queued turn: dropped
    assert human.queued == (first,)
    second = heading
    human.push(engine, state, 0, second)
    assert human.queued == (first, second)
    assert human.act(Ask(engine, state, 0)) is first and human.act(Ask(engine, state, 0)) is second
    assert human.queued == ()
