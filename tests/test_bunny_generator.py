"""Random bunny boards: reproducible, proven optimal, named by a game id."""

from __future__ import annotations

import threading

import pytest

from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.games.bunny.generator import game_id, generate, parse_game_id
from tui_grid.games.bunny.interpreter import run


def test_game_id_round_trip() -> None:
    assert game_id(8, 6, 14, 42) == "bunny:8x6:n14#seed42"
    assert parse_game_id("bunny:8x6:n14#seed42") == (8, 6, 14, 42)
    with pytest.raises(ValueError):
        parse_game_id("ice:8x6:m14#seed42")


def test_same_seed_same_board_and_proven() -> None:
    first = generate(8, 6, 14, 42)
    second = generate(8, 6, 14, 42)
    assert first.board == second.board
    assert len(first.board.squares) == 14
    assert first.solution.proven_optimal
    assert run(first.board, first.solution.program).complete
    assert generate(8, 6, 14, 43).board != first.board


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        generate(2, 2, 5, 1)
    with pytest.raises(ValueError):
        generate(0, 3, 2, 1)


def test_cancel() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        generate(8, 6, 14, 1, SearchControl(cancel=cancel))
