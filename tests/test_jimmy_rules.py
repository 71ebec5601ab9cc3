"""Rules of Jimmy and the ghosts: parsing, ghost steps, captures, settling, replay."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.errors import BoardError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.jimmy.board import JimmyBoard, parse_jimmy
from tui_grid.games.jimmy.rules import (
    DEAD_END,
    JimmyState,
    Outcome,
    initial_state,
    legal_moves,
    play,
    replay,
    step_ghosts,
)

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def board(text: str, source: str = "b.txt") -> JimmyBoard:
    return parse_jimmy(parse_board_text(text, source))


def parse_error(text: str, source: str = "b.txt") -> str:
    with pytest.raises(BoardError) as info:
        board(text, source)
    return str(info.value)


# --- parsing ------------------------------------------------------------------------------
def test_parse_and_rows_round_trip() -> None:
    text = "##########\n......g...\n#.o.......\n#.....g...\n##########\n"
    b = board(text)
    assert (b.width, b.height) == (10, 5)
    assert b.jimmy == Pos(2, 2)
    assert b.ghosts == (Pos(1, 6), Pos(3, 6))
    assert Pos(0, 0) in b.solid and Pos(2, 0) in b.solid and Pos(1, 0) not in b.solid
    assert b.rows() == tuple(text.split())


def test_parse_with_header_and_trailing_whitespace() -> None:
    b = board("title: t\nescape: no\n---\n#o.  \n.g.\t\n")
    assert b.rows() == ("#o.", ".g.")


def test_border_and_bounds() -> None:
    b = board("....\n.o..\n..g.\n....\n")
    assert b.is_border(Pos(0, 2)) and b.is_border(Pos(3, 1)) and b.is_border(Pos(2, 3)) and b.is_border(Pos(1, 0))
    assert not b.is_border(Pos(1, 1)) and not b.is_border(Pos(2, 2))
    assert b.in_bounds(Pos(3, 3)) and not b.in_bounds(Pos(4, 0)) and not b.in_bounds(Pos(0, -1))


def test_unknown_character_exact_position() -> None:
    assert parse_error("g...\n.o..\n...x\n") == "b.txt:3:4: unknown character 'x' (expected o, g, # or .)"


def test_unknown_character_after_header_counts_header_lines() -> None:
    assert parse_error("title: t\n---\ng...\n.o .\n").startswith("b.txt:4:3: unknown character ' '")


def test_second_jimmy_points_at_the_second() -> None:
    assert parse_error("g...\n.o..\n..o.\n") == "b.txt:3:3: a second Jimmy 'o' (the first is at row 2, col 2)"


def test_missing_jimmy_and_missing_ghost() -> None:
    assert parse_error("g..\n...\n") == "b.txt:1:1: no Jimmy: the board needs exactly one 'o'"
    assert parse_error("#..\n.o.\n") == "b.txt:1:1: no ghost: the board needs at least one 'g'"


def test_ragged_rows_point_at_first_offending_cell() -> None:
    assert parse_error("g...\n.o.\n....\n") == "b.txt:2:4: row 2 is 3 wide but the first row is 4 wide"
    assert parse_error("g...\n.o...\n") == "b.txt:2:5: row 2 is 5 wide but the first row is 4 wide"


def test_too_small_and_blank_row() -> None:
    assert parse_error("go\n") == "b.txt:1:1: the board is 2x1; it must be at least 2x2"
    assert parse_error("g\no\n") == "b.txt:1:1: the board is 1x2; it must be at least 2x2"
    assert parse_error("g..\n\n.o.\n") == "b.txt:2:1: blank row inside the board"


def test_size_header_must_match() -> None:
    assert parse_error("size: 4x2\n---\ng..\n.o.\n") == "b.txt:1:1: size: says 4x2 but the board is 3x2"


# --- ghost steps --------------------------------------------------------------------------
def test_ghost_moves_horizontally_while_column_differs() -> None:
    jimmy = Pos(5, 5)
    assert step_ghosts((Pos(0, 0),), jimmy) == (Pos(0, 1),)
    assert step_ghosts((Pos(9, 9),), jimmy) == (Pos(9, 8),)
    assert step_ghosts((Pos(5, 2),), jimmy) == (Pos(5, 3),)


def test_ghost_moves_vertically_in_jimmys_column() -> None:
    jimmy = Pos(5, 5)
    assert step_ghosts((Pos(1, 5), Pos(8, 5)), jimmy) == (Pos(2, 5), Pos(7, 5))
    assert step_ghosts((Pos(5, 5),), jimmy) == (Pos(5, 5),)


def test_ghosts_may_share_a_cell() -> None:
    assert step_ghosts((Pos(2, 4), Pos(2, 6)), Pos(5, 5)) == (Pos(2, 5), Pos(2, 5))


# --- the game ------------------------------------------------------------------------------
def test_caught_by_the_first_ghost_step() -> None:
    state = initial_state(board(".....\n..g..\n.go..\n.....\n.....\n"))
    assert state.outcome is Outcome.CAUGHT
    assert state.reason == "caught at row 3, col 3 by the ghost from row 2, col 3"  # the ghost now stands on him
    assert Pos(2, 2) in state.ghosts and state.moves == 0


def test_no_legal_move_is_caught() -> None:
    state = initial_state(board("###.......\n#o#......g\n###.......\n"))
    assert state.outcome is Outcome.CAUGHT and state.reason == DEAD_END
    assert legal_moves(board("###.......\n#o#......g\n###.......\n"), state) == ()


def test_start_on_border_is_escaped() -> None:
    b = board("#.\nog\n")
    state = initial_state(b)
    assert state.outcome is Outcome.ESCAPED and state.moves == 0 and state.reason == "started on the border"
    assert legal_moves(b, state) == ()
    assert play(b, state, Direction.UP) is None


def test_start_cell_counts_as_visited() -> None:
    b = board("#######\n#.....#\n#..o..#\n#.....#\n#######\ng......\n")
    state = initial_state(b)
    assert state.visited == frozenset({Pos(2, 3)})
    turn = play(b, state, R)
    assert turn is not None and turn.state.outcome is Outcome.PLAYING
    assert L not in legal_moves(b, turn.state)
    assert play(b, turn.state, L) is None


def test_illegal_moves_are_refused() -> None:
    b = board("#######\n#.#...#\n#..o..#\n#.....#\n#######\n.....g.\n")
    state = initial_state(b)
    assert set(legal_moves(b, state)) == {U, D, L, R}
    after = play(b, state, L).state  # (2, 2): up is solid
    assert play(b, after, U) is None
    assert play(b, after, R) is None  # visited


def test_cannot_enter_a_cell_a_ghost_steps_onto() -> None:
    b = board("#######\n#.....#\n#..o.g#\n#.....#\n#######\n")
    state = initial_state(b)
    # The ghost at (2, 5) steps to (2, 4), right beside Jimmy.
    assert step_ghosts(state.ghosts, state.jimmy) == (Pos(2, 4),)
    assert R not in legal_moves(b, state)
    assert play(b, state, R) is None


def test_turn_reports_ghosts_before_jimmy_moves() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    state = initial_state(b)
    turn = play(b, state, L)
    assert turn is not None and turn.direction is L
    assert turn.ghosts_moved == (Pos(1, 5), Pos(3, 5))
    assert turn.state.ghosts == turn.ghosts_moved
    assert turn.state.jimmy == Pos(2, 1) and turn.state.moves == 1
    assert turn.state.visited == frozenset({Pos(2, 2), Pos(2, 1)})


def test_seed_escape_left_up_left() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    end = replay(b, [L, U, L])
    assert end.outcome is Outcome.ESCAPED and end.moves == 3 and end.jimmy == Pos(1, 0)
    assert end.reason == "escaped at row 2, col 1"
    assert play(b, end, D) is None


def test_settle_when_the_next_ghost_step_catches() -> None:
    # Jimmy steps down next to the ghost's column; the ghost's next step lands on him.
    b = board("#######\n#..o..#\n#.....#\n#.....#\n#g....#\n#######\n")
    state = initial_state(b)
    assert state.outcome is Outcome.PLAYING
    turn = play(b, state, D)  # ghost (4,1)->(4,2); Jimmy to (2,3)
    assert turn is not None and turn.state.outcome is Outcome.PLAYING
    turn = play(b, turn.state, L)  # ghost (4,2)->(4,3)? no: Jimmy at (2,3), ghost to (4,3); Jimmy to (2,2)
    assert turn is not None
    state = turn.state
    assert state.outcome is Outcome.PLAYING
    turn = play(b, state, D)  # ghost (4,3)->(4,2); Jimmy to (3,2): the ghost is right below him
    assert turn is not None
    end = turn.state
    assert end.outcome is Outcome.CAUGHT
    assert end.reason == "caught at row 4, col 3 by the ghost from row 5, col 3"
    assert end.ghosts == (Pos(3, 2),) and end.jimmy == Pos(3, 2)
    assert legal_moves(b, end) == ()


def test_settle_when_the_next_ghost_step_leaves_no_move() -> None:
    b = board("#####\n#.o.#\n#####\n....g\n")
    state = initial_state(b)
    turn = play(b, state, L)  # ghost (3,4)->(3,3); Jimmy to (1,1), a dead end
    assert turn is not None
    assert turn.state.outcome is Outcome.CAUGHT and turn.state.reason == DEAD_END
    assert turn.state.moves == 1


def test_dead_end_when_the_ghost_blocks_the_last_exit() -> None:
    b = board("#####\n#o..#\n#.###\n#####\n##g##\n")
    state = initial_state(b)
    # The ghost steps to (4, 1), then (3, 1)... Jimmy's cells: (1,2) right, (2,1) down.
    assert state.outcome is Outcome.PLAYING
    turn = play(b, state, D)
    assert turn is not None
    # Ghost at (4,1) after the first step; next step to (3,1) and Jimmy at (2,1) has no move.
    assert turn.state.outcome is Outcome.CAUGHT


def test_legal_moves_empty_for_an_unsettled_capture() -> None:
    b = board("#####\n#...#\n#.o.#\n#...#\n#####\n..g..\n")
    state = JimmyState(Pos(2, 2), (Pos(1, 2),), frozenset({Pos(2, 2)}), 0, Outcome.PLAYING, "")
    assert legal_moves(b, state) == ()
    assert play(b, state, L) is None


def test_replay_raises_on_illegal_moves() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    with pytest.raises(ValueError, match="move 2"):
        replay(b, [R, L])
    with pytest.raises(ValueError, match="already over"):
        replay(b, [L, U, L, R])


def test_replay_from_a_mid_game_state() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    mid = play(b, initial_state(b), L).state
    assert replay(b, [U, L], mid).outcome is Outcome.ESCAPED


def test_states_are_values() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    assert initial_state(b) == initial_state(b)
    assert replace(initial_state(b), moves=3).moves == 3


def test_stacked_ghosts_are_drawn_as_their_count_headless_as_in_the_app() -> None:
    """Two ghosts on one cell are drawn as `2` in CLI frames, as the app shows them."""
    from dataclasses import replace as _replace

    from tui_grid.games.registry import get_game

    jimmy = get_game("jimmy")
    loaded = jimmy.load("seed-1")
    engine, state = jimmy.state_after(loaded)
    ghost = state.ghosts[0]
    stacked = _replace(state, ghosts=(ghost, ghost))
    drawn = engine.observation(stacked).splitlines()
    assert drawn[ghost.row][ghost.col] == "2" and "g" not in "".join(drawn)
