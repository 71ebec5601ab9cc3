"""The Tron arena: three to eight cycles on one board, every rider moving at once; crashes
in one step, head-on meetings of two or three, the last cycle standing, shared places,
forfeits that put one cycle out, logs that replay, the two-player view a program gets,
and the free-for-all bots."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_grid.core.agents import Ask
from tui_grid.core.engine import Result
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.core.outcome import Failure, Fault
from tui_grid.games.tron.arena import SIDES, arena_board, arena_starts, check_cycles
from tui_grid.games.tron import arena_bots
from tui_grid.games.tron.arena_bots import ArenaBot
from tui_grid.games.tron.board import LETTERS, TronBoard
from tui_grid.games.tron.causes import TronCause
from tui_grid.games.tron.cycle_bot import CycleBot
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.protocol import parse_state
from tui_grid.games.tron.rules import places_of

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def board(rows: list[str]) -> TronBoard:
    """A board whose lowercase seat letters (r g b y ...) are the heads, in seat order."""
    found = {ch: Pos(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in LETTERS}
    heads = tuple(found[letter] for letter in LETTERS if letter in found)
    return TronBoard(tuple(rows), heads)


CROSS = [  # three cycles around the centre cell (2, 3)
    "#######",
    "#--r--#",
    "#-g-b-#",
    "#-----#",
    "#######",
]


def test_three_cycles_meeting_in_one_cell_all_crash_and_share_the_win() -> None:
    engine = TronEngine(board(CROSS))
    assert engine.seats == ("red", "green", "blue")
    result = engine.step(engine.initial_state(), {0: D, 1: R, 2: L})
    outcome = result.state.outcome
    assert outcome.result is Result.DRAW and outcome.cause is TronCause.ALL_OUT
    assert outcome.places == (1, 1, 1)
    (meeting,) = outcome.parts
    assert meeting.cause is TronCause.HEAD_ON and meeting.numbers == (0, 1, 2) and meeting.cells == ((2, 3),)
    assert "red, green and blue met head-on at row 3, col 4: all crash" in outcome.reason
    assert [event.kind for event in result.events] == ["meet"]


def test_two_meet_head_on_while_the_third_rides_on_and_wins() -> None:
    engine = TronEngine(board(CROSS))
    result = engine.step(engine.initial_state(), {0: L, 1: R, 2: L})  # green and blue both enter (2, 3)
    state = result.state
    outcome = state.outcome
    assert outcome.result is Result.WON and outcome.winner == 0 and outcome.cause is TronCause.LAST_STANDING
    assert outcome.places == (1, 2, 2)
    assert outcome.reason.startswith("red is the last cycle riding: green and blue met head-on at row 3, col 4")
    assert state.heads[0] == Pos(1, 2) and state.crashes[1] == Pos(2, 3) == state.crashes[2]


SIX = [
    "##########",
    "#r------g#",
    "#--------#",
    "#b------y#",
    "#--------#",
    "#m------c#",
    "##########",
]


def test_crashes_in_one_step_put_several_out_and_the_rest_play_on() -> None:
    engine = TronEngine(board(SIX))
    state = engine.initial_state()
    result = engine.step(state, {0: L, 1: R, 2: R, 3: U, 4: L, 5: U})  # red, green and magenta hit walls
    state = result.state
    assert not state.outcome.over
    assert state.riders() == (2, 3, 5)
    assert engine.acting_seats(state) == (2, 3, 5)
    assert state.out_at == (1, 1, None, None, 1, None)
    assert sorted(event.seat for event in result.events if event.kind == "crash") == [0, 1, 4]
    assert places_of(state) == (4, 4, 1, 1, 4, 1)
    # The trails of the cycles out stay: yellow drives into green's and is out too.
    result = engine.step(state, {2: D, 3: U, 5: L})
    state = result.state
    assert state.riders() == (2, 5) and state.crashes[3] == Pos(1, 8)
    assert [event.text for event in result.events] == ["yellow crashed into green's trail at row 2, col 9"]
    outcome = engine.step(state, {2: U, 5: L}).state.outcome  # blue runs into its own trail
    assert outcome.winner == 5 and outcome.places == (4, 4, 2, 3, 4, 1)


def test_swapping_cells_in_an_arena_names_both() -> None:
    rows = ["#######", "#rg---#", "#-----#", "#b----#", "#######"]
    engine = TronEngine(board(rows))
    state = engine.step(engine.initial_state(), {0: R, 1: L, 2: U}).state
    assert state.outcome.winner == 2
    (swap,) = state.outcome.parts
    assert swap.cause is TronCause.SWAPPED and swap.numbers == (0, 1)


def test_a_forfeit_puts_one_cycle_out_and_the_last_forfeit_ends_the_game() -> None:
    engine = TronEngine(arena_board(4))
    state = engine.forfeit(engine.initial_state(), 1, Failure(Fault.NO_ANSWER, numbers=(2.0,)))
    assert not state.outcome.over and state.riders() == (0, 2, 3)
    state = engine.step(state, {0: R, 2: L, 3: D}).state
    state = engine.forfeit(state, 0, Failure(Fault.LEFT))
    state = engine.forfeit(state, 3, Failure(Fault.CONCEDED))
    outcome = state.outcome
    assert outcome.winner == 2 and outcome.cause is Fault.CONCEDED and outcome.places == (2, 4, 1, 2)


def test_arena_boards_grow_and_are_fair() -> None:
    for cycles in range(2, 9):
        built = arena_board(cycles)
        assert len(built.heads) == cycles == len(set(built.heads))
        assert built.width == built.height == SIDES[cycles]
        per_cycle = built.free_cells() / cycles
        assert 80 <= per_cycle <= 100 or cycles == 2
    assert arena_starts(4) == (Pos(10, 2), Pos(18, 10), Pos(10, 18), Pos(2, 10))
    for bad in (1, 9):
        with pytest.raises(ValueError, match="2 to 8 cycles"):
            check_cycles(bad)


def test_a_program_sees_an_arena_as_a_duel_against_the_nearest_rider() -> None:
    engine = TronEngine(board(SIX))
    state = engine.initial_state()
    seen = parse_state(engine.observation(state, 3))  # yellow at (3, 8): green (1, 8) is nearest
    assert seen.seat == 0 and seen.red == (3, 8) and seen.green == (1, 8)
    assert seen.rows[3] == "#g------r#" and set("".join(seen.rows)) <= set("#-rg")
    state = engine.step(state, {0: D, 1: R, 2: D, 3: D, 4: R, 5: L}).state  # green is out
    seen = parse_state(engine.observation(state, 3))
    assert seen.red == (4, 8) and seen.green == (5, 7)  # the nearest cycle still riding


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 8), st.integers(0, 10_000))
def test_random_legal_play_replays_from_its_log(cycles: int, seed: int) -> None:
    """Random moves (some crashing) to the end; the log's text replays to the same states,
    and the places always rank the riders ahead of the cycles out."""
    rng = random.Random(seed)
    engine = TronEngine(arena_board(cycles))
    states = [engine.initial_state()]
    log = []
    while not states[-1].outcome.over:
        state = states[-1]
        joint = {seat: rng.choice(state.safe_moves(seat) or DIRECTIONS) if rng.random() < 0.95 else rng.choice(DIRECTIONS)
                 for seat in engine.acting_seats(state)}
        log.append(joint)
        states.append(engine.step(state, joint).state)
        places = places_of(states[-1])
        riders = states[-1].riders()
        assert all(places[seat] == 1 for seat in riders)
        assert all(places[seat] > len(riders) for seat in range(cycles) if seat not in riders) or not riders
    assert engine.replay(engine.parse_log(engine.format_log(log))) == states
    outcome = states[-1].outcome
    assert sorted(outcome.places)[0] == 1 and len(outcome.places) == cycles
    winners = [seat for seat, place in enumerate(outcome.places) if place == 1]
    assert (outcome.result is Result.WON) == (len(winners) == 1)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_arena_bots_never_crash_while_a_free_cell_is_next_to_them(level: str) -> None:
    engine = TronEngine(arena_board(6))
    bots = [CycleBot(level, 20) for _ in range(6)]
    state = engine.initial_state()
    steps = 0
    while not state.outcome.over and steps < 400:
        joint = {seat: bots[seat].act(Ask(engine, state, seat)) for seat in engine.acting_seats(state)}
        for seat, move in joint.items():
            if state.safe_moves(seat):
                assert move in state.safe_moves(seat)
        state = engine.step(state, joint).state
        steps += 1
    assert state.outcome.over


def test_the_hard_arena_bot_keeps_out_of_a_cell_another_head_can_enter() -> None:
    rows = ["#########", "#-------#", "#---r---#", "#-------#", "#---g---#", "#b------#", "#########"]
    state = TronEngine(board(rows)).initial_state()  # green's UP enters (3, 4), which red may enter too
    heads = tuple((head.row, head.col) for head in state.heads)
    for level in ("medium", "hard"):
        move = ArenaBot(level).choose(state.rows, heads, state.riders(), 1, 50)
        target = state.heads[1].step((U, D, L, R)[move])
        assert abs(target.row - 2) + abs(target.col - 4) > 1  # never next to red's head, where red may go


def _choice(rows: list[str], seat: int, level: str, time_ms: float = 50) -> Direction:
    state = TronEngine(board(rows)).initial_state()
    heads = tuple((head.row, head.col) for head in state.heads)
    return (U, D, L, R)[ArenaBot(level).choose(state.rows, heads, state.riders(), seat, time_ms)]


def test_the_arena_bots_take_a_likely_head_on_before_a_dead_end() -> None:
    rows = ["#######", "##-####", "##r-g-#", "###--b#", "#######"]  # red's UP is a dead end; RIGHT is next to green
    for level in ("medium", "hard"):
        assert _choice(rows, 0, level) == R


def test_the_hard_search_only_follows_cycles_that_can_meet_it(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = ["#########", "#r--#---#", "#---#-g-#", "#---#---#", "#b--#---#", "#########"]
    field = arena_bots.ArenaField(tuple(rows), ((1, 1), (2, 6), (4, 1)))
    assert arena_bots.interacting(field.free, field.heads[0], field.heads[1:], field.S) == (field.heads[2],)
    # With the depth bounded and time to spare the search ends by its depth: the same safe answer every time.
    monkeypatch.setattr(arena_bots, "MAX_DEPTH", 3)
    answers = {_choice(rows, 0, "hard", 60_000) for _ in range(2)}
    assert len(answers) == 1 and answers <= {D, R}


def test_the_rivals_moves_are_predicted_as_the_medium_and_the_easy_bots_play() -> None:
    rows = ["#########", "#g------#", "#-------#", "#########"]
    field = arena_bots.ArenaField(tuple(rows), ((1, 1),))
    S = field.S
    assert arena_bots.predict_run(field.free, field.heads[0], S) == 1 * S + 2  # the longest straight run: right
    boxed = arena_bots.ArenaField(("###", "#g#", "###"), ((1, 1),))
    assert arena_bots.predict(boxed.free, boxed.heads[0], (), boxed.S) == -1
    assert arena_bots.predict_run(boxed.free, boxed.heads[0], boxed.S) == -1


def test_the_hard_bot_past_its_deadline_still_answers_a_safe_move() -> None:
    state = TronEngine(arena_board(4)).initial_state()
    heads = tuple((head.row, head.col) for head in state.heads)
    for seat in state.riders():
        move = (U, D, L, R)[ArenaBot("hard").choose(state.rows, heads, state.riders(), seat, 0)]
        assert move in state.safe_moves(seat)
