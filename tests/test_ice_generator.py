"""Ice sliding: generated maps are reproducible, solvable and as hard as asked."""

from __future__ import annotations

import pytest

from tui_grid.games.ice.baseline import bfs_baseline
from tui_grid.games.ice.board import IceBoard, make_board
from tui_grid.games.ice.generator import game_id, generate, parse_game_id
from tui_grid.games.ice.rules import replay
from tui_grid.games.ice.solver import solve


@pytest.mark.parametrize(
    ("width", "height", "min_moves", "seed"),
    [(16, 12, 8, 42), (16, 12, 15, 1), (12, 9, 5, 7), (10, 8, 4, 3), (8, 8, 10, 4), (40, 30, 30, 5), (3, 3, 4, 1), (2, 1, 1, 9)],
)
def test_generated_maps_are_solvable_and_hard_enough(width: int, height: int, min_moves: int, seed: int) -> None:
    board = generate(width, height, min_moves, seed)
    assert isinstance(board, IceBoard)
    assert (board.width, board.height) == (width, height)
    assert all(len(row) == width for row in board.rows)
    solution = solve(board)
    assert solution is not None and solution.moves >= min_moves
    assert replay(board, solution.route_string()).pos == board.end
    baseline = bfs_baseline(board)
    assert baseline is not None and (baseline.moves, baseline.distance) == (solution.moves, solution.distance)
    # the board is a real map: its rows parse back to the same board
    assert make_board(board.rows) == board


def test_same_arguments_give_the_same_map() -> None:
    assert generate(16, 12, 8, 42) == generate(16, 12, 8, 42)
    assert generate(16, 12, 8, 42) != generate(16, 12, 8, 43)


def test_generated_maps_are_interesting() -> None:
    for seed in range(1, 6):
        text = "".join(generate(16, 12, 8, seed).rows)
        assert text.count("#") >= 10 and text.count("x") >= 1 and text.count(" ") >= 80


def test_game_ids_round_trip() -> None:
    assert game_id(16, 12, 10, 42) == "ice:16x12:m10#seed42"
    assert parse_game_id("ice:16x12:m10#seed42") == (16, 12, 10, 42)
    for args in [(1, 2, 0, 0), (150, 70, 3, 5), (9, 9, 12, -7)]:
        assert parse_game_id(game_id(*args)) == args


@pytest.mark.parametrize(
    "text", ["", "ice:16x12:m10", "ice:16x12#seed4", "ice:16*12:m10#seed4", "jimmy:16x12:m10#seed4", "ice:axb:m1#seed1", "ice:16x12:m-1#seed4"]
)
def test_malformed_game_ids_are_value_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not an ice game id"):
        parse_game_id(text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, 3, 99, 1), "at most 8 moves"),
        ((0, 5, 1, 1), "at least 1"),
        ((1, 1, 1, 1), "too small"),
        ((20000, 10, 1, 1), "at most 10000"),
        ((2001, 2000, 1, 1), "at most 4,000,000 cells"),
        ((5, 5, -1, 1), "negative"),
    ],
)
def test_impossible_requests_fail_at_once(args: tuple[int, int, int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(*args)


def test_too_hard_requests_fail_after_the_tries_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match=r"could not make a 3x3 map needing at least 8 moves in \d+ tries .*best had \d+ moves"):
        generate(3, 3, 8, 1)
