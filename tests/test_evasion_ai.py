"""Evasion's bots: they play legal, deterministic games and the hunter catches."""

from __future__ import annotations

import json

from tui_grid.core.agents import Ask
from tui_grid.games.evasion.ai import BoxHunter, LookaheadPrey, RandomPrey, box_around, make_agent
from tui_grid.games.evasion.engine import HUNTER, PREY, EvasionEngine, HunterAction, PreyAction
from tui_grid.games.evasion.headless import play_game, run_match
from tui_grid.games.evasion.rules import Config


def test_builtin_hunter_catches_random_prey_quickly():
    engine = EvasionEngine(Config(n=10, m=5, max_steps=3000))
    steps = [play_game(engine, BoxHunter(), RandomPrey(seed)).steps for seed in range(5)]
    assert all(s < 600 for s in steps), steps


def test_builtin_hunter_never_walls_itself_off_and_refuses_nothing():
    engine = EvasionEngine(Config(n=10, m=5, max_steps=24_000))
    hunter, prey = BoxHunter(), LookaheadPrey()
    state = engine.initial_state()
    while not engine.outcome(state).over:
        actions = {HUNTER: hunter(engine, state)}
        if state.prey_moves_next:
            actions[PREY] = prey(engine, state)
        step = engine.step(state, actions)
        assert not [e for e in step.events if e.kind == "refused"]
        state = step.state
        left, top, right, bottom = box_around(engine.grid_of(state), *state.prey)
        hx, hy = state.hunter
        assert left <= hx <= right and top <= hy <= bottom, state
        assert len(state.walls) <= 5
    assert state.caught_at is not None


def test_match_is_deterministic_and_json_ready():
    lines: list[str] = []
    first = run_match("builtin", "random", 10, 5, games=2, seed=7, emit=lines.append)
    again = run_match("builtin", "random", 10, 5, games=2, seed=7)
    assert first == again and len(lines) == 2 and "caught at step" in lines[0]
    assert set(first) >= {"catch_steps", "median", "hunter", "prey"}
    json.dumps(first)
    baseline = run_match("nowall", "random", 10, 5, games=1, seed=7, max_steps=500)
    assert baseline["catch_steps"][0] is None or baseline["catch_steps"][0] <= 500


def test_make_agent_gives_actions_for_its_seat():
    engine = EvasionEngine()
    state = engine.step(engine.initial_state(), {HUNTER: engine.default_action(engine.initial_state(), HUNTER)}).state
    for role, kind, cls in (("hunter", "builtin", HunterAction), ("hunter", "nowall", HunterAction),
                            ("prey", "builtin", PreyAction), ("prey", "random", PreyAction)):
        agent = make_agent(role, kind, seed=1)
        seat = HUNTER if role == "hunter" else PREY
        assert isinstance(agent.act(Ask(engine, state, seat)), cls)
