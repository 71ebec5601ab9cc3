"""Generated Jimmy boards: reproducible, answer as asked, and game ids that round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_grid.core.boardfile import read_board_file
from tui_grid.games.jimmy.baseline import BudgetExceeded, dfs_escape
from tui_grid.games.jimmy.board import parse_jimmy
from tui_grid.games.jimmy.generator import game_id, generate, parse_game_id
from tui_grid.games.jimmy.rules import Outcome, initial_state, replay
from tui_grid.games.jimmy.solver import solve

ROOT = Path(__file__).resolve().parent.parent


def test_same_seed_same_board() -> None:
    assert generate(10, 10, 3, True, 42) == generate(10, 10, 3, True, 42)
    assert generate(12, 8, 2, None, 7).rows() == generate(12, 8, 2, None, 7).rows()


def test_different_seeds_differ() -> None:
    boards = {generate(10, 10, 3, None, seed).rows() for seed in range(6)}
    assert len(boards) > 1


@pytest.mark.parametrize(("width", "height", "ghosts"), [(4, 4, 1), (5, 5, 2), (8, 8, 2), (10, 10, 3), (16, 12, 4), (20, 20, 5)])
@pytest.mark.parametrize("escape", [True, False])
def test_escape_request_is_honoured(width: int, height: int, ghosts: int, escape: bool) -> None:
    for seed in (1, 2):
        board = generate(width, height, ghosts, escape, seed)
        assert (board.width, board.height, len(board.ghosts)) == (width, height, ghosts)
        assert not board.is_border(board.jimmy)
        assert initial_state(board).outcome is Outcome.PLAYING
        assert board.jimmy not in board.solid and not set(board.ghosts) & board.solid
        assert len(set(board.ghosts)) == ghosts and board.jimmy not in board.ghosts
        result = solve(board)
        assert result.escape is escape
        if escape:
            assert replay(board, result.path).outcome is Outcome.ESCAPED
        if width * height <= 64:
            assert dfs_escape(board)[0] is escape


def test_small_boards_agree_with_the_baseline() -> None:
    for seed in range(12):
        board = generate(7, 6, 1 + seed % 3, None, seed)
        try:
            expected, _ = dfs_escape(board, max_nodes=200_000)
        except BudgetExceeded:
            continue
        assert solve(board).escape is expected


def test_jimmy_starts_away_from_the_border_when_possible() -> None:
    for seed in range(5):
        board = generate(10, 10, 3, None, seed)
        row, col = board.jimmy
        assert 2 <= row <= 7 and 2 <= col <= 7
        assert board.solid  # some solids


def test_game_id_round_trip() -> None:
    text = game_id(10, 10, 3, True, 42)
    assert text == "jimmy:10x10:g3:yes#seed42"
    assert parse_game_id(text) == (10, 10, 3, True, 42)
    assert parse_game_id(game_id(16, 12, 4, False, 7)) == (16, 12, 4, False, 7)
    assert parse_game_id(game_id(20, 20, 5, None, -3)) == (20, 20, 5, None, -3)
    assert game_id(8, 8, 2, None, 0) == "jimmy:8x8:g2:any#seed0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jimmy",
        "jimmy:10x10:g3:yes",
        "jimmy:10x10:g3:maybe#seed1",
        "jimmy:10by10:g3:yes#seed1",
        "ice:10x10:g3:yes#seed1",
        "jimmy:10x10:3:yes#seed1",
        "jimmy:10x10:g3:yes#seedx",
        "jimmy:2x2:g1:yes#seed1",
        "jimmy:10x10:g0:yes#seed1",
        "jimmy:4x4:g5:yes#seed1",
        "jimmy:500x10:g3:yes#seed1",
    ],
)
def test_bad_game_ids_raise(text: str) -> None:
    with pytest.raises(ValueError):
        parse_game_id(text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 2, 1, None, 1), "at least 3x3"),
        ((10, 2, 1, None, 1), "at least 3x3"),
        ((4, 4, 5, None, 1), "too many ghosts"),
        ((10, 10, 0, None, 1), "at least 1 ghost"),
        ((3, 3, 1, False, 1), "3x3"),
    ],
)
def test_impossible_requests_raise(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(*args)


def test_shipped_generated_boards_match_their_ids() -> None:
    found = 0
    for path in sorted((ROOT / "boards" / "jimmy").glob("*.txt")):
        text = read_board_file(path)
        if "id" not in text.meta:
            continue
        found += 1
        board = parse_jimmy(text)
        regenerated = generate(*parse_game_id(text.meta["id"]))
        assert regenerated == board, path.name
        assert solve(board).escape is (text.meta["escape"] == "yes")
    assert found >= 3
