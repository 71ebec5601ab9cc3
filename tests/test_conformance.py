"""Every game against the engine protocol, as OpenSpiel's random simulation test does: random
legal play from `legal_actions` to the end (or a step bound), with every listed action
round-tripping through its text, the log round-tripping through `format_log`/`parse_log`,
a replay of the log giving the very same states, and the end honoured by `acting_seats`.

Bunny lists no legal actions (any program is one, and there are infinitely many), so its
actions are random small programs, drawn as text and read by the game's own parser.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from tui_grid.core.engine import Engine, IllegalAction
from tui_grid.games.registry import game_keys, get_game

GAME_KEYS = ("ice", "jimmy", "bunny", "evasion", "tron")
#: Shipped boards; Evasion's "board" is a setup (no files), one course and one 2016 capture.
BOARDS: dict[str, tuple[str, ...]] = {
    "ice": ("spiral", "kata-maze-6x6"),
    "jimmy": ("seed-1", "gen-10x10-g3"),
    "bunny": ("doodle-3-ring", "doodle-5-window"),
    "evasion": ("standard", "evasion:N2:M3:2016"),
    "tron": ("standard", "gen-10x10-w8"),
}
SEEDS = range(4)
#: Bounds on work, not time: steps per game. Evasion ends by its own step limit instead
#: (random play almost never catches), so its end is checked too.
MAX_STEPS = {"bunny": 12}
DEFAULT_MAX_STEPS = 400
EVASION_STEP_LIMIT = 300

#: F twice as likely as a turn, so random programs hop about and sometimes complete a board.
BUNNY_TOKENS = ("F", "F", "L", "R")


def random_program(rng: random.Random, depth: int = 0) -> str:
    """A small random program in Bunny's notation: tokens, counted and forever loops, nested."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2 and depth < 2:
            count = rng.choice(["", f"({rng.randint(2, 5)})"])
            parts.append(f"LOOP{count}{{{random_program(rng, depth + 1)}}}")
        else:
            parts.append(rng.choice(BUNNY_TOKENS))
    return " ".join(parts)


def engine_for(game_key: str, board: str) -> Engine[Any, Any]:
    """The engine the app would play, built by the game's definition from a loaded board."""
    game = get_game(game_key)
    loaded = game.load(board)
    if game_key == "evasion":
        loaded = replace(loaded, board=replace(loaded.board, max_steps=EVASION_STEP_LIMIT))
    return game.make_engine(loaded)


def check_state(engine: Engine[Any, Any], state: Any) -> None:
    """The end as `acting_seats` sees it, and every listed action's text round trip."""
    acting = engine.acting_seats(state)
    if engine.outcome(state).over and not engine.plays_on_after_end:
        assert acting == ()
        return
    assert acting, "a game that is not over has a seat to act"
    for seat in acting:
        for action in engine.legal_actions(state, seat):
            assert engine.decode_action(engine.encode_action(action)) == action


def random_joint(engine: Engine[Any, Any], game_key: str, state: Any, rng: random.Random) -> dict[int, Any]:
    joint = {}
    for seat in engine.acting_seats(state):
        legal = list(engine.legal_actions(state, seat))
        if game_key == "bunny":
            assert legal == []  # any program is legal: none are listed
            joint[seat] = engine.decode_action(random_program(rng))
        else:
            assert legal, f"seat {seat} acts but has no legal action"
            joint[seat] = rng.choice(legal)
    return joint


def random_play(engine: Engine[Any, Any], game_key: str, rng: random.Random) -> tuple[list[Any], list[dict[int, Any]]]:
    """States and log of random play until the end (or on past it, for a game that plays
    on) or the game's step bound, each state checked on the way."""
    state = engine.initial_state()
    check_state(engine, state)
    states, log = [state], []
    for _ in range(MAX_STEPS.get(game_key, DEFAULT_MAX_STEPS)):
        if not engine.acting_seats(state):
            break
        joint = random_joint(engine, game_key, state, rng)
        state = engine.step(state, joint).state
        check_state(engine, state)
        states.append(state)
        log.append(joint)
    return states, log


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_key", GAME_KEYS)
def test_random_play_round_trips_its_log_and_replays(game_key: str, seed: int) -> None:
    for board in BOARDS[game_key]:
        engine = engine_for(game_key, board)
        states, log = random_play(engine, game_key, random.Random(f"{game_key}/{board}/{seed}"))
        text = engine.format_log(log)
        parsed = engine.parse_log(text)
        assert parsed == log, board
        assert engine.format_log(parsed) == text
        assert engine.replay(parsed) == states, board
        if log and engine.outcome(states[-1]).over and not engine.plays_on_after_end:
            with pytest.raises(IllegalAction):  # no step may follow the end
                engine.step(states[-1], log[-1])
            with pytest.raises(ValueError, match="over"):
                engine.parse_log(engine.format_log([*log, log[-1]]))


def test_every_game_is_covered() -> None:
    assert sorted(GAME_KEYS) == sorted(game_keys()) == sorted(BOARDS)
