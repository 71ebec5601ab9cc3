"""Ice and Jimmy on the engine protocol: the rules modules stay the reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.engine import IllegalAction, Result
from tui_grid.core.geometry import DIRECTIONS
from tui_grid.games.ice import rules as ice_rules
from tui_grid.games.ice.board import parse_ice
from tui_grid.games.ice.engine import IceEngine
from tui_grid.games.jimmy import rules as jimmy_rules
from tui_grid.games.jimmy.engine import JimmyEngine
from tui_grid.games.registry import get_game


def ice_engine(name: str = "spiral") -> IceEngine:
    return IceEngine(get_game("ice").load(name).board)


def jimmy_engine(name: str) -> JimmyEngine:
    return JimmyEngine(get_game("jimmy").load(name).board)


def test_ice_actions_are_route_letters_and_the_log_is_one_word() -> None:
    engine = ice_engine()
    steps = engine.parse_log("urdlur")
    assert engine.format_log(steps) == "urdlur"
    final = engine.replay(steps)[-1]
    assert engine.outcome(final).result is Result.WON
    assert engine.outcome(final).reason == "Solved in 6 moves (distance 16)"
    assert [engine.decode_action(engine.encode_action(d)) for d in DIRECTIONS] == list(DIRECTIONS)


def test_ice_step_refuses_a_blocked_slide_and_animates_the_others() -> None:
    engine = ice_engine()
    start = engine.initial_state()
    with pytest.raises(IllegalAction, match="Can't slide left"):
        engine.step(start, {0: engine.decode_action("l")})
    step = engine.step(start, {0: engine.decode_action("u")})
    assert step.state.moves == 1 and len(step.frames) == step.state.distance - 1
    assert step.events[0].text.startswith("slid up")


def test_jimmy_actions_are_the_solve_json_letters() -> None:
    engine = jimmy_engine("seed-1")
    steps = engine.parse_log("ULL")
    assert engine.format_log(steps) == "ULL"
    final = engine.replay(steps)[-1]
    assert engine.outcome(final).result is Result.WON


def test_jimmy_outcome_names_the_catch_once() -> None:
    engine = jimmy_engine("seed-5")
    outcome = engine.outcome(engine.initial_state())
    assert outcome.result is Result.LOST
    assert outcome.reason.startswith("Caught") and "caught" not in outcome.reason[1:].lower().split("by")[0]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(DIRECTIONS), max_size=8))
def test_ice_engine_matches_the_rules_module(route) -> None:
    engine = ice_engine("mahogany-gym")
    state = engine.initial_state()
    reference = ice_rules.initial_state(engine.board)
    for direction in route:
        after = ice_rules.play(engine.board, reference, direction)
        if after is None:
            with pytest.raises(IllegalAction):
                engine.step(state, {0: direction})
            continue
        state = engine.step(state, {0: direction}).state
        reference = after
        assert state == reference
        assert set(engine.legal_actions(state, 0)) == {d for d in DIRECTIONS if ice_rules.play(engine.board, state, d)}


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.sampled_from(["seed-2", "seed-10", "gen-10x10-g3"]), st.lists(st.sampled_from(DIRECTIONS), max_size=8))
def test_jimmy_engine_matches_the_rules_module(name, route) -> None:
    engine = jimmy_engine(name)
    state = engine.initial_state()
    for direction in route:
        turn = jimmy_rules.play(engine.board, state, direction)
        if turn is None:
            with pytest.raises(IllegalAction):
                engine.step(state, {0: direction})
            continue
        step = engine.step(state, {0: direction})
        assert step.state == turn.state
        state = step.state
    assert engine.format_log(engine.parse_log(engine.format_log([{0: d} for d in []]))) == ""


def test_a_raw_board_keeps_an_all_ice_last_row() -> None:
    rows = ["    x           ", "S              E"] + ["  #             "] * 16 + [" " * 16]
    text = parse_board_text("\n".join(rows) + "\n\n", "kata.txt")
    assert len(text.rows) == 19
    assert parse_ice(text).height == 19
