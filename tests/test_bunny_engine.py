"""Bunny on the engine protocol: programs as actions, runs from the start, outcome, logs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tui_grid.core.engine import Result
from tui_grid.core.session import Session
from tui_grid.games.bunny.board import make_board
from tui_grid.games.bunny.engine import MAX_FRAMES, BunnyEngine
from tui_grid.games.bunny.interpreter import COMPLETE, STUCK
from tui_grid.games.bunny.program import Program, ProgramError, parse_program
from tests.test_bunny_program import programs

CORNER = make_board(["S##", "  #", "  #"])


def test_seats_and_undo() -> None:
    engine = BunnyEngine(CORNER)
    assert engine.seats == ("player",)
    assert engine.allows_undo


@settings(derandomize=True, max_examples=100)
@given(programs())
def test_encode_decode_round_trip(program: Program) -> None:
    engine = BunnyEngine(CORNER)
    assert engine.decode_action(engine.encode_action(program)) == program


def test_decode_error_is_a_value_error_with_column() -> None:
    with pytest.raises(ProgramError) as info:
        BunnyEngine(CORNER).decode_action("LOOP(2){F")
    assert info.value.column == 10


def test_failed_run_is_not_a_loss_and_each_run_starts_fresh() -> None:
    engine = BunnyEngine(CORNER)
    state = engine.initial_state()
    assert not engine.outcome(state).over
    stuck = engine.step(state, {0: parse_program("LOOP{F R}")})
    assert stuck.state.result == STUCK and stuck.state.left == 3
    assert engine.outcome(stuck.state).result is Result.PLAYING
    assert len(stuck.frames) == stuck.state.steps
    won = engine.step(stuck.state, {0: parse_program("LOOP(2){F F R}")})
    assert won.state.result == COMPLETE and won.state.runs == 2
    assert won.state.steps == 5  # fresh from the start, not from where the last run ended
    outcome = engine.outcome(won.state)
    assert outcome.result is Result.WON and outcome.reason == "Complete in 4 tokens"
    assert [frame.path for frame in won.frames] == [(0, 0), (0, 1), (0, 2), (0, 0), (0, 1)]
    assert won.frames[-1] == won.state
    assert "Complete in 4 tokens" in won.events[0].text


def test_frames_are_capped() -> None:
    board = make_board(["S" + "#" * 40, "#" * 41])
    engine = BunnyEngine(board)
    step = engine.step(engine.initial_state(), {0: parse_program("LOOP(3000){F L F L F R F R}")})
    assert step.state.steps > MAX_FRAMES
    assert len(step.frames) <= MAX_FRAMES
    assert step.frames[-1] == step.state
    steps = [frame.steps for frame in step.frames]
    assert steps == sorted(steps)


def test_log_round_trip() -> None:
    engine = BunnyEngine(CORNER)
    runs = [{0: parse_program("LOOP{F R}")}, {0: parse_program("F L")}, {0: parse_program("LOOP(2){F F R}")}]
    text = engine.format_log(runs)
    assert text == "LOOP{F R} ; F L ; LOOP(2){F F R}"
    assert engine.parse_log(text) == runs
    assert engine.parse_log("") == []
    with pytest.raises(ValueError, match="run 2"):
        engine.parse_log("F ; LOOP(")
    states = engine.replay(runs)
    assert engine.outcome(states[-1]).result is Result.WON


def test_observation_draws_the_board() -> None:
    engine = BunnyEngine(CORNER)
    state = engine.step(engine.initial_state(), {0: parse_program("F F R")}).state
    assert engine.observation(state, 0) == "OOv\n  #\n  #"


def test_the_board_plays_on_after_a_complete_run() -> None:
    """Tatham's status: complete is a status, not a lock. Another run follows a complete one,
    the log keeps both, and the outcome is the latest run's."""
    engine = BunnyEngine(CORNER)
    assert engine.plays_on_after_end
    complete = engine.step(engine.initial_state(), {0: parse_program("LOOP(2){F F R}")}).state
    assert engine.outcome(complete).result is Result.WON and engine.acting_seats(complete) == (0,)
    after = engine.step(complete, {0: parse_program("F")}).state
    assert not engine.outcome(after).over and after.runs == 2
    log = [{0: parse_program("LOOP(2){F F R}")}, {0: parse_program("F")}]
    assert engine.parse_log(engine.format_log(log)) == log
    assert engine.replay(log)[-1] == after


def test_a_session_takes_runs_after_a_complete_one_each_one_undo_step() -> None:
    """What the screen relies on: no restart before a run after a win, and plain undo/redo."""
    engine = BunnyEngine(CORNER)
    complete, stuck = parse_program("LOOP(2){F F R}"), parse_program("LOOP{F R}")
    session = Session(engine)
    assert session.submit(0, complete) is None and session.over
    assert session.submit(0, stuck) is None and not session.over
    assert session.submit(0, complete) is None and session.state.runs == 3
    assert session.undo() and session.state.result == STUCK
    assert session.undo() and session.over and session.state.runs == 1
    assert session.redo() and session.state.result == STUCK
    resumed = Session(engine, log=engine.parse_log(engine.format_log([{0: complete}, {0: stuck}, {0: complete}])))
    assert resumed.state == engine.replay(resumed.log)[-1] and resumed.over and len(resumed.log) == 3
