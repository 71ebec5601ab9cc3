"""Tron map generator: reproducible from the game id, point-symmetric, playable."""

from __future__ import annotations

import pytest

from tui_grid.core.boardfile import format_board_file, parse_board_text
from tui_grid.core.geometry import Pos
from tui_grid.games.tron.board import parse_tron
from tui_grid.games.tron.bots import Field, flood
from tui_grid.games.tron.generator import game_id, generate, generate_id, parse_game_id


@pytest.mark.parametrize(("width", "height", "walls", "seed"), [(15, 15, 12, 42), (10, 10, 0, 1), (40, 30, 20, 7), (23, 11, 35, 3)])
def test_maps_are_reproducible_symmetric_and_connected(width: int, height: int, walls: int, seed: int) -> None:
    board = generate(width, height, walls, seed)
    assert board == generate(width, height, walls, seed)
    assert board.title == game_id(width, height, walls, seed) == f"tron:{width}x{height}:w{walls}#seed{seed}"
    assert (board.width, board.height) == (width, height)
    for r in range(height):
        for c in range(width):
            a = board.rows[r][c]
            b = board.rows[height - 1 - r][width - 1 - c]
            assert (a == "#") == (b == "#"), (r, c)
    assert board.green == Pos(height - 1 - board.red.row, width - 1 - board.red.col)
    if (width, height) == (15, 15):
        assert board.heads == (Pos(7, 1), Pos(7, 13))
    field = Field(board.rows, board.heads)
    reach = flood(field.free, field.heads[0], field.S)
    assert reach == field.free  # every free cell is reachable; green's neighbours too
    assert flood(field.free, field.heads[1], field.S) == field.free
    # The file round-trips through the board parser.
    assert parse_tron(parse_board_text(format_board_file(board.rows, {"id": board.title}), "g.txt")).rows == board.rows


def test_different_seeds_differ_and_ids_parse() -> None:
    assert generate(15, 15, 12, 1).rows != generate(15, 15, 12, 2).rows
    assert parse_game_id("tron:15x15:w12#seed42") == (15, 15, 12, 42)
    assert generate_id("tron:20x12:w10#seed5") == generate(20, 12, 10, 5)
    for bad in ("tron:15x15#seed1", "ice:15x15:w1#seed1", "tron:9x15:w12#seed1", "tron:15x15:w60#seed1"):
        with pytest.raises(ValueError):
            parse_game_id(bad)
