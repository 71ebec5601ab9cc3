"""Evasion's rules engine: the bounce vectors, walls, capture, actions as text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_grid.core.engine import IllegalAction, Result
from tui_grid.core.outcome import Failure, Fault
from tui_grid.games.evasion.engine import (
    HUNTER,
    KEEP,
    NO_WALLS,
    PREY,
    EvasionEngine,
    HunterAction,
    PreyAction,
    decode_action,
    encode_action,
)
from tui_grid.games.evasion.rules import Config, Grid, Wall, bounce, catches, extend_wall, line_cells, make_wall


def grid(*walls: tuple[int, int, int, int], size: int = 300) -> Grid:
    return Grid(size, size, tuple(make_wall(*w) for w in walls))


# --- the bounce: every test vector from RULES.md -----------------------------------------


def test_vector_diagonal_into_the_long_side_reflects():
    assert bounce(grid((10, 200, 299, 200)), 100, 199, 1, 1) == (101, 199, 1, -1)


def test_vector_no_bounce_off_the_narrow_side():
    assert bounce(grid((10, 200, 299, 200)), 9, 200, 1, 1) == (10, 201, 1, 1)


def test_vector_corner_bounces_as_off_the_middle():
    assert bounce(grid((10, 200, 299, 200)), 9, 199, 1, 1) == (10, 199, 1, -1)


def test_vector_two_parallel_wall_ends_act_as_a_vertical_wall():
    walls = grid((0, 40, 40, 40), (0, 41, 40, 41))
    assert bounce(walls, 41, 41, -1, -1) == (41, 40, 1, -1)


def test_straight_step_into_a_wall_reverses_and_stays():
    g = grid((10, 200, 299, 200))
    assert bounce(g, 50, 199, 0, 1) == (50, 199, 0, -1)
    assert bounce(g, 9, 200, 1, 0) == (9, 200, -1, 0)  # into the narrow end
    assert bounce(g, 0, 5, -1, 0) == (0, 5, 1, 0)  # the board edge


def test_corner_of_the_board_reverses_both():
    assert bounce(grid(), 299, 299, 1, 1) == (299, 299, -1, -1)
    assert bounce(grid(), 0, 0, -1, -1) == (0, 0, 1, 1)


def test_edge_reflects_one_component():
    assert bounce(grid(), 299, 100, 1, 1) == (299, 101, -1, 1)
    assert bounce(grid(), 100, 0, 1, -1) == (101, 0, 1, 1)


def test_both_side_cells_blocked_reverses_both():
    g = grid((11, 0, 11, 20), (0, 11, 10, 11))
    assert bounce(g, 10, 10, 1, 1) == (10, 10, -1, -1)


def test_case_four_both_or_neither_blocked_reverses():
    # Only the target is blocked and C and D are both free: a lone cell hit on its corner.
    assert bounce(grid((11, 11, 11, 11)), 10, 10, 1, 1) == (10, 10, -1, -1)
    # C and D both blocked as well.
    assert bounce(grid((11, 11, 11, 12), (12, 11, 12, 11)), 10, 10, 1, 1) == (10, 10, -1, -1)


def test_case_four_c_blocked_flips_x_and_takes_the_y_step():
    g = grid((11, 11, 11, 12))  # a vertical wall whose top end is hit on its corner
    assert bounce(g, 10, 10, 1, 1) == (10, 11, -1, 1)


def test_prey_stays_with_zero_velocity():
    assert bounce(grid(), 5, 5, 0, 0) == (5, 5, 0, 0)


# --- steps ------------------------------------------------------------------------------


def test_hunter_moves_every_step_and_prey_only_on_even_steps():
    engine = EvasionEngine()
    state = engine.initial_state()
    assert engine.acting_seats(state) == (HUNTER,)
    state = engine.step(state, {HUNTER: NO_WALLS}).state
    assert state.hunter == (1, 1) and state.prey == (230, 200)
    assert engine.acting_seats(state) == (HUNTER, PREY)
    state = engine.step(state, {HUNTER: NO_WALLS, PREY: PreyAction((-1, 1))}).state
    assert state.hunter == (2, 2) and state.prey == (229, 201)
    with pytest.raises(IllegalAction):
        engine.step(state, {HUNTER: NO_WALLS, PREY: KEEP})


def test_prey_velocity_persists_with_keep():
    engine = EvasionEngine()
    state = engine.step(engine.initial_state(), {HUNTER: NO_WALLS}).state
    state = engine.step(state, {HUNTER: NO_WALLS, PREY: PreyAction((1, 0))}).state
    state = engine.step(state, {HUNTER: NO_WALLS}).state
    state = engine.step(state, {HUNTER: NO_WALLS, PREY: KEEP}).state
    assert state.prey == (232, 200) and state.prey_velocity == (1, 0)


def test_prey_slides_along_a_wall_and_a_straight_step_leaves_it_in_place():
    engine = EvasionEngine()
    state = engine.make_state(tick=1, prey=(100, 199), walls=[(50, 200, 150, 200)])
    after = engine.step(state, {HUNTER: NO_WALLS, PREY: PreyAction((1, 1))}).state
    assert after.prey == (101, 199)
    after = engine.step(state, {HUNTER: NO_WALLS, PREY: PreyAction((0, 1))}).state
    assert after.prey == (100, 199)


def refusal(engine: EvasionEngine, state, action: HunterAction) -> str:
    step = engine.step(state, {HUNTER: action} if not state.prey_moves_next else {HUNTER: action, PREY: KEEP})
    refused = [e.text for e in step.events if e.kind == "refused"]
    assert step.state.walls == state.walls, "a refused wall must not be built"
    assert len(refused) == 1
    return refused[0]


@pytest.fixture
def mid():
    """H at (100, 100) moving (1, 1) before step 11, P at (150, 100)."""
    engine = EvasionEngine(Config(n=10, m=3))
    return engine, engine.make_state(tick=10, hunter=(100, 100), prey=(150, 100))


def test_wall_must_contain_the_hunter(mid):
    engine, state = mid
    assert "does not contain the hunter" in refusal(engine, state, HunterAction(Wall(0, 50, 299, 50)))


def test_wall_must_not_contain_the_prey(mid):
    engine, state = mid
    assert "contain the prey" in refusal(engine, state, HunterAction(Wall(90, 100, 160, 100)))


def test_wall_must_not_overlap_but_may_touch(mid):
    engine, state = mid
    state = engine.make_state(tick=10, hunter=(100, 100), prey=(150, 100), walls=[(100, 110, 100, 120)])
    assert "overlaps wall 100 110 100 120" in refusal(engine, state, HunterAction(Wall(100, 90, 100, 115)))
    built = engine.step(state, {HUNTER: HunterAction(Wall(100, 90, 100, 109))}).state
    assert Wall(100, 90, 100, 109) in built.walls


def test_wall_must_not_hold_the_hunter_after_its_move():
    engine = EvasionEngine()
    # H at (100,100) moving (1,1) under a horizontal wall at y=101: a horizontal wall
    # through H would squish it (it bounces and stays put).
    state = engine.make_state(tick=10, hunter=(100, 100), walls=[(0, 101, 299, 101)])
    text = refusal(engine, state, HunterAction(Wall(50, 100, 150, 100)))
    assert "after its move" in text


def test_wall_delay_and_count(mid):
    engine, state = mid
    step = engine.step(state, {HUNTER: HunterAction("v")})
    assert step.state.walls == (Wall(100, 0, 100, 299),) and step.state.last_build == 11
    state = step.state
    for _ in range(9):
        text = refusal(engine, state, HunterAction("h"))
        assert "steps must pass" in text
        state = engine.step(state, {HUNTER: NO_WALLS, PREY: KEEP} if state.prey_moves_next else {HUNTER: NO_WALLS}).state
    acts = {HUNTER: HunterAction("h")}
    if state.prey_moves_next:
        acts[PREY] = KEEP
    assert len(engine.step(state, acts).state.walls) == 2
    full = engine.make_state(tick=10, hunter=(100, 100), prey=(150, 100),
                             walls=[(0, 5, 9, 5), (0, 7, 9, 7), (0, 9, 9, 9)])
    assert "at most 3 walls" in refusal(engine, full, HunterAction("h"))


def test_removal_is_free_and_happens_before_creation(mid):
    engine, _ = mid
    state = engine.make_state(tick=10, hunter=(100, 100), prey=(150, 100), last_build=10,
                              walls=[(0, 5, 9, 5), (0, 7, 9, 7), (0, 9, 9, 9)])
    after = engine.step(state, {HUNTER: HunterAction(None, (0, Wall(0, 7, 9, 7)))}).state
    assert after.walls == (Wall(0, 9, 9, 9),)
    missing = engine.step(state, {HUNTER: HunterAction(None, (Wall(1, 1, 2, 1),))})
    assert [e.kind for e in missing.events] == ["refused"]


def test_h_and_v_extend_to_the_nearest_obstacle():
    g = grid((50, 0, 50, 299), (0, 80, 49, 80))
    assert extend_wall(g, 20, 40, horizontal=True) == Wall(0, 40, 49, 40)
    assert extend_wall(g, 20, 40, horizontal=False) == Wall(20, 0, 20, 79)


# --- capture ------------------------------------------------------------------------------


def test_capture_distance_and_line_of_sight():
    g = grid()
    assert catches(g, 10, 10, 14, 10)
    assert catches(g, 10, 10, 10, 14)
    assert not catches(g, 10, 10, 13, 13)  # 4.24
    assert not catches(g, 10, 10, 14, 10, strict=True)
    assert catches(g, 10, 10, 12, 13, strict=True)
    walled = grid((12, 0, 12, 20))
    assert not catches(walled, 10, 10, 14, 10)
    assert catches(walled, 13, 10, 14, 10)


def test_capture_ends_the_game_with_the_hunter_winning():
    engine = EvasionEngine()
    state = engine.make_state(tick=4, hunter=(100, 100), prey=(104, 102))
    step = engine.step(state, {HUNTER: NO_WALLS})
    assert step.state.caught_at == 5
    outcome = engine.outcome(step.state)
    assert outcome.result is Result.WON and outcome.winner == HUNTER and outcome.reason == "caught at step 5"
    assert engine.acting_seats(step.state) == ()


def test_max_steps_and_forfeit_outcomes():
    engine = EvasionEngine(Config(max_steps=3))
    state = engine.initial_state()
    for _ in range(3):
        state = engine.step(state, {HUNTER: NO_WALLS}).state
    assert engine.outcome(state).winner == PREY and "3 steps" in engine.outcome(state).reason
    lost = engine.forfeit(engine.initial_state(), PREY, Failure(Fault.FAILED, note="hung up"))
    assert engine.outcome(lost).winner == HUNTER and "hung up" in engine.outcome(lost).reason


def test_bresenham_line_includes_both_ends():
    assert list(line_cells(0, 0, 3, 1)) == [(0, 0), (1, 0), (2, 1), (3, 1)]


def test_config_rejects_bad_parameters():
    with pytest.raises(ValueError):
        Config(preset="2020")
    with pytest.raises(ValueError):
        Config(prey_start=(300, 0))


# --- actions as text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action,text",
    [
        (NO_WALLS, "none"),
        (HunterAction("h"), "h"),
        (HunterAction("v", (2,)), "remove:2+v"),
        (HunterAction(Wall(5, 9, 5, 80), (Wall(1, 1, 9, 1),)), "remove:1:1:9:1+create:5:9:5:80"),
        (KEEP, "keep"),
        (PreyAction((-1, 1)), "-1:1"),
        (PreyAction((0, 0)), "0:0"),
    ],
)
def test_actions_round_trip_through_text(action, text):
    assert encode_action(action) == text
    assert decode_action(text) == action


def test_wire_forms_are_accepted():
    assert decode_action("create 5 80 5 9") == HunterAction(Wall(5, 9, 5, 80))
    assert decode_action("remove 1 1 9 1 create 5 9 5 80") == HunterAction(Wall(5, 9, 5, 80), (Wall(1, 1, 9, 1),))
    assert decode_action("change 1 -1") == PreyAction((1, -1))
    for bad in ("", "jump", "2:0", "create:1:2:3:4", "create:1:2:3", "h+v"):
        with pytest.raises(ValueError):
            decode_action(bad)


def test_log_round_trip():
    engine = EvasionEngine()
    steps = [{HUNTER: HunterAction("v")}, {HUNTER: NO_WALLS, PREY: PreyAction((1, 0))}, {HUNTER: NO_WALLS}]
    text = engine.format_log(steps)
    assert text == "v none,1:0 none"
    assert engine.parse_log(text) == steps


def test_observation_is_the_2023_state_line():
    engine = EvasionEngine()
    assert engine.observation(engine.initial_state(), HUNTER) == "0 0 0 1 1 null 230 200 0 0 0"


# --- no step ever puts a player in a wall or off the board -----------------------------------

wall_requests = st.one_of(
    st.just(NO_WALLS),
    st.sampled_from([HunterAction("h"), HunterAction("v"), HunterAction(None, (0,))]),
    st.builds(
        lambda x, y, length, horizontal, rm: HunterAction(
            Wall(x, y, min(39, x + length), y) if horizontal else Wall(x, y, x, min(39, y + length)),
            (0,) if rm else (),
        ),
        st.integers(0, 39), st.integers(0, 39), st.integers(0, 20), st.booleans(), st.booleans(),
    ),
)
prey_moves = st.sampled_from([KEEP] + [PreyAction((dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)])


@settings(max_examples=60, deadline=None)
@given(
    hunter_start=st.tuples(st.integers(0, 39), st.integers(0, 39)),
    prey_start=st.tuples(st.integers(0, 39), st.integers(0, 39)),
    velocity=st.tuples(st.sampled_from([-1, 1]), st.sampled_from([-1, 1])),
    plan=st.lists(st.tuples(wall_requests, prey_moves), min_size=1, max_size=80),
)
def test_no_step_puts_a_player_in_a_wall_or_off_the_board(hunter_start, prey_start, velocity, plan):
    engine = EvasionEngine(Config(n=2, m=4, width=40, height=40, hunter_start=hunter_start,
                                  hunter_velocity=velocity, prey_start=prey_start))
    state = engine.initial_state()
    for wall_request, prey_move in plan:
        if engine.outcome(state).over:
            break
        actions = {HUNTER: wall_request}
        if state.prey_moves_next:
            actions[PREY] = prey_move
        state = engine.step(state, actions).state
        grid_ = engine.grid_of(state)
        for x, y in (state.hunter, state.prey):
            assert 0 <= x < 40 and 0 <= y < 40
            assert not grid_.blocked(x, y), (x, y, state.walls)
        assert len(state.walls) <= 4
        for i, a in enumerate(state.walls):
            for b in state.walls[i + 1 :]:
                assert not (a.x1 <= b.x2 and b.x1 <= a.x2 and a.y1 <= b.y2 and b.y1 <= a.y2)
