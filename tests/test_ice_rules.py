"""Ice sliding: the board parser and its errors, and the rules of one slide."""

from __future__ import annotations

import pytest

from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.errors import BoardError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.ice.board import IceBoard, make_board, parse_ice
from tui_grid.games.ice.rules import IceState, initial_state, is_won, play, replay, slide, slide_cells

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT
SPIRAL = ["    x ", "  #   ", "   E  ", " #    ", "    # ", "S    #"]


def parse(content: str, source: str = "m.txt") -> IceBoard:
    return parse_ice(parse_board_text(content, source))


def error_of(content: str) -> str:
    with pytest.raises(BoardError) as info:
        parse(content)
    return str(info.value)


# --- parsing -----------------------------------------------------------------------


def test_raw_board_parses_with_start_end_and_padding() -> None:
    board = parse("S\n   E\n")
    assert (board.width, board.height) == (4, 2)
    assert board.rows == ("S   ", "   E")
    assert board.start == Pos(0, 0) and board.end == Pos(1, 3)
    assert board.at(Pos(1, 3)) == "E" and board.at(Pos(0, 2)) == " "
    assert board.in_bounds(Pos(1, 3)) and not board.in_bounds(Pos(2, 0)) and not board.in_bounds(Pos(0, -1))


def test_size_header_pads_rows_and_restores_stripped_trailing_rows() -> None:
    full = "size: 6x3\n---\nS  x  \n  E   \n      \n"
    stripped = "size: 6x3\n---\nS  x\n  E\n"
    assert parse(full) == parse(stripped)
    board = parse(stripped)
    assert board.rows == ("S  x  ", "  E   ", "      ")


def test_stripping_trailing_whitespace_keeps_a_sized_board() -> None:
    text = "title: spiral\nsize: 6x6\n---\n" + "\n".join(SPIRAL) + "\n"
    stripped = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    assert stripped != text
    assert parse(stripped) == parse(text) == make_board(SPIRAL)


def test_exact_parse_error_messages() -> None:
    assert error_of("title: t\n---\nS   \n  q E\n") == (
        "m.txt:4:3: unknown character 'q' (ice maps use S, E, x, #, space)"
    )
    assert error_of("S\tE\n") == "m.txt:1:2: unknown character '\\t' (ice maps use S, E, x, #, space)"
    assert error_of("title: t\n---\nS   \n  x \n") == "m.txt:3:1: missing end: the map needs exactly one 'E'"
    assert error_of("  E\nx  \n") == "m.txt:1:1: missing start: the map needs exactly one 'S'"
    assert error_of("S E S\n") == "m.txt:1:5: a second start 'S' (the first is at line 1, column 1)"
    assert error_of("size: 4x2\n---\nS  E\n E\n") == "m.txt:4:2: a second end 'E' (the first is at line 3, column 4)"
    assert error_of("S\n") == "m.txt:1:1: board too small (1x1): an ice map needs at least 2 cells"
    assert error_of("size: 3x2\n---\nS E\n  xx\n") == (
        "m.txt:4:4: row is 4 characters wide, longer than the declared width 3"
    )
    assert error_of("size: 3x1\n---\nS E\nx\n") == (
        "m.txt:4:1: the map has 2 rows, more than the declared size 3x1 allows"
    )


def test_every_error_is_one_line() -> None:
    for content in ("S q E\n", "S E S\n", "S\n", "E x\n", "size: 2x1\n---\nSE \n"):
        assert "\n" not in error_of(content)


def test_empty_file_is_reported_by_the_core() -> None:
    assert error_of("") == "m.txt:1:1: empty file: no board rows"
    assert error_of("\n\n").startswith("m.txt:1:1: empty file")


def test_lowercase_and_other_letters_are_unknown() -> None:
    assert "unknown character 's'" in error_of("s E\n")
    assert "unknown character 'X'" in error_of("S X E\n")


# --- rules -------------------------------------------------------------------------


def test_slides_stop_on_rough_tiles_and_on_the_end() -> None:
    board = make_board(["S  x  E"])
    assert slide_cells(board, board.start, R) == (Pos(0, 1), Pos(0, 2), Pos(0, 3))
    assert slide(board, Pos(0, 3), R) == Pos(0, 6)


def test_slides_stop_before_obstacles_and_the_edge() -> None:
    board = make_board(["S  #E", "     "])
    assert slide(board, board.start, R) == Pos(0, 2)
    assert slide(board, board.start, D) == Pos(1, 0)
    assert slide(board, Pos(1, 0), R) == Pos(1, 4)
    assert slide(board, board.start, U) is None  # the edge right away
    assert slide(board, board.start, L) is None
    assert slide(board, Pos(0, 2), R) is None  # the obstacle right away


def test_the_start_is_ice_when_crossed() -> None:
    board = make_board(["xS E"])
    assert slide_cells(board, Pos(0, 0), R) == (Pos(0, 1), Pos(0, 2), Pos(0, 3))


def test_no_slide_starts_on_the_end() -> None:
    board = make_board(["S  E "])
    for direction in (U, D, L, R):
        assert slide_cells(board, board.end, direction) == ()
        assert slide(board, board.end, direction) is None


def test_play_counts_moves_and_tiles_and_refuses_non_moves() -> None:
    board = make_board(SPIRAL)
    state = initial_state(board)
    assert state == IceState(Pos(5, 0), 0, 0)
    assert play(board, state, L) is None and play(board, state, D) is None
    state = play(board, state, U)
    assert state == IceState(Pos(0, 0), 1, 5)
    state = play(board, state, R)
    assert state == IceState(Pos(0, 4), 2, 9)  # stopped on the rough tile
    assert not is_won(board, state)


def test_replay_reaches_the_end_with_its_counters() -> None:
    board = make_board(SPIRAL)
    state = replay(board, "urdlur")
    assert state == IceState(board.end, 6, 16)
    assert is_won(board, state)
    assert replay(board, "") == initial_state(board)
    assert replay(board, "URDLUR") == state


def test_replay_rejects_impossible_moves() -> None:
    board = make_board(SPIRAL)
    with pytest.raises(ValueError, match=r"move 1 \('l'\) is impossible from row 6, col 1: it is blocked"):
        replay(board, "l")
    with pytest.raises(ValueError, match="already won"):
        replay(board, "urdlurd")
    with pytest.raises(ValueError):
        replay(board, "uq")


def test_a_blocked_slide_says_what_blocks_it() -> None:
    """A blocked slide names what blocks it: the edge of the map, or the obstacle (marked)."""
    from tui_grid.core.engine import IllegalAction
    from tui_grid.games.ice.engine import IceEngine

    engine = IceEngine(make_board(SPIRAL))
    with pytest.raises(IllegalAction, match="Can't slide left: the edge of the map is in the way.") as info:
        engine.step(engine.initial_state(), {0: L})
    assert info.value.cells == ()
    at = IceState(Pos(4, 3), 0, 0)  # the obstacle at (4, 4) is right of it
    with pytest.raises(IllegalAction, match="Can't slide right: an obstacle is in the way.") as info:
        engine.step(at, {0: R})
    assert info.value.cells == ((4, 4),)
