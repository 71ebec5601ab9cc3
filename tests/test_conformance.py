"""Every game against the engine protocol, as OpenSpiel's random simulation test does: random
legal play from `legal_actions` to the end (or a step bound), with the log round-tripping
through its text and a replay of the log giving the very same states.

Bunny lists no legal actions (any program is one, and there are infinitely many), so its
actions are random small programs drawn from its own token alphabet and parser.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from tui_grid.core.engine import Engine
from tui_grid.games.registry import get_game

#: (game, board) pairs; Evasion's "board" is its setup, with a step limit so games end.
BOARDS = [
    ("ice", "spiral"),
    ("ice", "kata-maze-6x6"),
    ("jimmy", "seed-1"),
    ("jimmy", "gen-10x10-g3"),
    ("bunny", "doodle-3-ring"),
    ("bunny", "doodle-5-window"),
    ("tron", "standard"),
    ("tron", "gen-10x10-w8"),
    ("evasion", "standard"),
]
SEEDS = range(4)
#: Bounds on work, not time: steps per game.
MAX_STEPS = {"evasion": 300, "bunny": 12}
DEFAULT_MAX_STEPS = 400

BUNNY_TOKENS = ["F", "L", "R", "F", "F"]


def random_program(rng: random.Random, depth: int = 0) -> str:
    """A small random program in Bunny's notation: tokens, counted and forever loops."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.2 and depth < 2:
            count = rng.choice(["", f"({rng.randint(2, 5)})"])
            parts.append(f"LOOP{count}{{{random_program(rng, depth + 1)}}}")
        else:
            parts.append(rng.choice(BUNNY_TOKENS))
    return " ".join(parts)


def engine_for(game_key: str, board: str) -> Engine[Any, Any]:
    game = get_game(game_key)
    engine = game.make_engine(game.load(board))
    if game_key == "evasion":
        engine = type(engine)(replace(engine.config, max_steps=MAX_STEPS["evasion"]))  # type: ignore[attr-defined]
    return engine


def random_joint(engine: Engine[Any, Any], game_key: str, state: Any, rng: random.Random) -> dict[int, Any]:
    joint = {}
    for seat in engine.acting_seats(state):
        legal = list(engine.legal_actions(state, seat))
        if game_key == "bunny":
            assert legal == []  # any program is legal: none are listed
            joint[seat] = engine.decode_action(random_program(rng))
        else:
            assert legal, f"{game_key}: seat {seat} acts but has no legal action"
            joint[seat] = rng.choice(legal)
    return joint


@pytest.mark.parametrize(("game_key", "board"), BOARDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_round_trips_its_log_and_replays(game_key: str, board: str, seed: int) -> None:
    engine = engine_for(game_key, board)
    rng = random.Random(f"{game_key}/{board}/{seed}")
    state = engine.initial_state()
    states = [state]
    log: list[dict[int, Any]] = []
    for _ in range(MAX_STEPS.get(game_key, DEFAULT_MAX_STEPS)):
        outcome = engine.outcome(state)
        if outcome.over and not engine.plays_on_after_end:
            assert engine.acting_seats(state) == ()
            break
        joint = random_joint(engine, game_key, state, rng)
        if game_key not in ("bunny", "jimmy"):  # every listed action is one the rules take
            for seat, action in joint.items():
                assert action in engine.legal_actions(state, seat)
        for action in joint.values():
            assert engine.decode_action(engine.encode_action(action)) == action
        state = engine.step(state, joint).state
        states.append(state)
        log.append(joint)
    text = engine.format_log(log)
    parsed = engine.parse_log(text)
    assert [{seat: engine.encode_action(a) for seat, a in joint.items()} for joint in parsed] == [
        {seat: engine.encode_action(a) for seat, a in joint.items()} for joint in log
    ]
    assert engine.format_log(parsed) == text
    assert engine.replay(parsed) == states


@pytest.mark.parametrize("game_key", ["ice", "jimmy", "bunny", "evasion", "tron"])
def test_every_game_is_covered(game_key: str) -> None:
    assert any(key == game_key for key, _ in BOARDS)
