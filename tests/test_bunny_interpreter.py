"""Bunny runs: hops into the void, forever loops that stop making progress, completion
in the middle of a loop, fast-forwarded counts, the run report."""

from __future__ import annotations

import pytest

from tui_grid.core.geometry import Pos
from tui_grid.games.bunny.board import EAST, NORTH, SOUTH, make_board
from tui_grid.games.bunny.interpreter import COMPLETE, FINISHED, STUCK, Runner, run, run_report
from tui_grid.games.bunny.program import ProgramError, parse_program

CORNER = make_board(["S##", "  #", "  #"])


def test_hop_into_void_or_off_the_board_does_nothing() -> None:
    result = run(CORNER, parse_program("L F R F F F F"))
    assert result.pos == Pos(0, 2) and result.heading == EAST
    assert result.status == FINISHED and result.left == 2
    assert result.steps == 7
    # a ragged row: missing cells are void
    board = make_board(["S#", "###"])
    assert run(board, parse_program("F F")).pos == Pos(0, 1)


def test_turns() -> None:
    assert run(CORNER, parse_program("R")).heading == SOUTH
    assert run(CORNER, parse_program("L")).heading == NORTH


def test_forever_loop_that_stops_making_progress_is_stuck() -> None:
    result = run(CORNER, parse_program("LOOP{F R}"))
    assert result.status == STUCK
    assert result.left == 3
    assert run(CORNER, parse_program("LOOP{}")).status == STUCK
    assert run(CORNER, parse_program("F LOOP{L L L L}")).status == STUCK


def test_forever_loop_that_keeps_marking_goes_on() -> None:
    # LOOP{F} marks one new square per iteration until the wall, then stops progressing
    result = run(CORNER, parse_program("LOOP{F}"))
    assert result.status == STUCK and result.pos == Pos(0, 2)
    assert run(CORNER, parse_program("LOOP{F F R}")).status == COMPLETE


def test_completion_in_the_middle_of_a_loop_stops_the_run() -> None:
    runner = Runner(CORNER, parse_program("LOOP(2){F F R} F F"))
    assert runner.run() == COMPLETE
    assert runner.steps == 5  # F F R F F: the last R of the loop never runs
    assert runner.path == (0, 1)
    assert runner.heading == SOUTH


def test_runner_exposes_the_token_path() -> None:
    runner = Runner(CORNER, parse_program("F LOOP(2){L R}"))
    paths = []
    while runner.step():
        paths.append(runner.path)
    assert paths == [(0,), (1, 0), (1, 1), (1, 0), (1, 1)]
    assert runner.status == FINISHED


def test_huge_counts_are_fast_forwarded() -> None:
    result = run(CORNER, parse_program("LOOP(999999999){F R} F"))
    assert result.status == FINISHED
    assert result.steps == 1_999_999_999
    nested = run(CORNER, parse_program("LOOP(1000000){LOOP(1000000){L}} LOOP(2){F F R}"))
    assert nested.status == COMPLETE


def test_already_complete_board() -> None:
    board = make_board(["SO"])
    assert run(board, parse_program("")).status == COMPLETE


def test_run_report_draws_marks_and_bunny() -> None:
    report, _ = run_report(CORNER, "LOOP(2){F F R}")
    assert "Complete in 4 tokens (5 steps)" in report
    assert report.splitlines()[-3:] == ["OOO", "  O", "  v"]
    with pytest.raises(ProgramError) as info:
        run_report(CORNER, "LOOP(2){F F R")
    assert info.value.column == 14


def test_a_run_knows_each_loops_iteration() -> None:
    """What the panel shows while a run plays: the iteration of every loop around the token."""
    from tui_grid.games.bunny.interpreter import Runner
    from tui_grid.games.registry import get_game

    board = get_game("bunny").load("doodle-4-two-rings").board
    runner = Runner(board, parse_program("LOOP{LOOP(7){L F} F}"))
    seen = []
    while runner.step() and len(seen) < 17:
        seen.append((runner.path, runner.loops))
    assert seen[0] == ((0, 0, 0), (1, 1)) and seen[3] == ((0, 0, 1), (1, 2))
    assert seen[14] == ((0, 1), (1,))  # the outer F: only the outer loop around it
    assert seen[15] == ((0, 0, 0), (2, 1))  # the inner loop starts over in the outer's 2nd turn
