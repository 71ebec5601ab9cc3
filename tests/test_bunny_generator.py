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


def test_the_proof_budget_counts_work_not_seconds(monkeypatch) -> None:
    """An id names the same board on any machine: a clock that races (a slow or loaded
    machine) and the pure-Python path (no compiler) change nothing."""
    from types import SimpleNamespace

    from tui_grid.games.bunny import kernel, solver

    normal = generate(8, 6, 20, 4, proof_positions=1000)
    assert normal.tries > 1  # the first try (4971 positions) is over this budget
    ticks = iter(range(0, 1 << 40, 3600))
    monkeypatch.setattr(solver, "time", SimpleNamespace(monotonic=lambda: float(next(ticks))))
    monkeypatch.setattr(kernel, "available", lambda: False)
    slow = generate(8, 6, 20, 4, proof_positions=1000)
    assert (slow.board, slow.tries, slow.solution.tokens) == (normal.board, normal.tries, normal.solution.tokens)
    assert slow.solution.proven_optimal and slow.solution.stats["positions"] <= 1000


def test_a_solve_over_its_position_budget_is_unproven_but_complete() -> None:
    import random

    from tui_grid.games.bunny.board import make_board
    from tui_grid.games.bunny.generator import _shape
    from tui_grid.games.bunny.solver import solve

    board = make_board(_shape(random.Random(4), 8, 6, 20))
    assert solve(board).tokens == 8
    cut = solve(board, max_positions=100)
    assert not cut.proven_optimal and cut.stats["positions"] == 101
    assert run(board, cut.program).complete
