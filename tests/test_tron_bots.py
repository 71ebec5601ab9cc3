"""Tron bots: always a legal move when there is one, within the budget, as core agents."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_grid.core.agents import Ask
from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import DIRECTIONS, Direction, Pos
from tui_grid.games.tron import bots, opponent_model
from tui_grid.games.tron.agent import make_bot
from tui_grid.games.tron.bots import analyse, Field, chamber_bound, chamber_value, choose_move, edge_weight, flood, parity_bound, solve_matrix
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.generator import generate
from tui_grid.games.tron.rules import TronState


@st.composite
def positions(draw):  # type: ignore[no-untyped-def]
    """A random bordered board with random trails and two heads."""
    width = draw(st.integers(4, 12))
    height = draw(st.integers(4, 10))
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    red, green = draw(st.lists(st.sampled_from(inner), min_size=2, max_size=2, unique=True))
    density = draw(st.sampled_from([0.0, 0.2, 0.45, 0.7]))
    marks = draw(st.lists(st.floats(0, 1), min_size=len(inner), max_size=len(inner)))
    grid = [["#" if r in (0, height - 1) or c in (0, width - 1) else "-" for c in range(width)] for r in range(height)]
    for (r, c), x in zip(inner, marks):
        if x < density:
            grid[r][c] = "#rg"[int(x * 1000) % 3]
    grid[red[0]][red[1]] = "r"
    grid[green[0]][green[1]] = "g"
    return TronState(tuple("".join(row) for row in grid), (Pos(*red), Pos(*green)))


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(["easy", "medium", "hard"]), st.integers(0, 1))
def test_bots_move_onto_a_free_cell_when_there_is_one(state: TronState, level: str, seat: int) -> None:
    move = choose_move(state, seat, 8, level=level)
    assert move in DIRECTIONS
    if state.safe_moves(seat):
        assert move in state.safe_moves(seat)


def test_the_hard_bot_plays_the_largest_board() -> None:
    """Safe moves on a 40x30 map within its budget's search; how long a move takes is
    bench/tron.py's to measure (a test never asserts seconds)."""
    engine = TronEngine(generate(40, 30, 10, 3))
    state = engine.initial_state()
    for _ in range(6):
        moves = {seat: choose_move(state, seat, 60, level="hard") for seat in (0, 1)}
        for seat, move in moves.items():
            if state.safe_moves(seat):
                assert move in state.safe_moves(seat)
        state = engine.step(state, moves).state


def test_the_hard_bot_stops_when_cancelled() -> None:
    engine = TronEngine(generate(40, 30, 10, 3))
    cancel = threading.Event()
    cancel.set()
    move = choose_move(engine.initial_state(), 0, 5000, SearchControl(cancel=cancel), level="hard")
    assert move in engine.initial_state().safe_moves(0)  # a cancelled search still answers, safely
    # Stopped in work, not seconds: a 5 s budget searches hundreds of thousands of nodes;
    # cancelled, the search stops at its first look at the event.
    record = analyse(engine.initial_state(), 0, 5000, SearchControl(cancel=cancel))
    assert record["nodes"] <= 200


def test_the_hard_bot_takes_a_winning_cut() -> None:
    # Green must go down the corridor; red, one step from the corridor's mouth, shuts it.
    rows = (
        "#########",
        "#------g#",
        "#-#######",
        "#-r-----#",
        "#########",
    )
    state = TronState(rows, (Pos(3, 2), Pos(1, 7)))
    assert choose_move(state, 0, 50, level="hard").name == "LEFT"


def test_endgame_fills_the_space() -> None:
    # Separated: red should fill its 2-row room, not cut it in half.
    rows = (
        "########",
        "#r-----#",
        "#------#",
        "########",
        "#g-----#",
        "########",
    )
    engine = TronEngine()
    state = TronState(rows, (Pos(1, 1), Pos(4, 1)))
    filled = 0
    while True:
        move = choose_move(state, 0, 30, level="hard")
        target = state.heads[0].step(move)
        if not state.is_free(target):
            break
        state = TronState(state.rows[: target.row] + (state.rows[target.row][: target.col] + "r" + state.rows[target.row][target.col + 1 :],) + state.rows[target.row + 1 :], (target, state.heads[1]))
        filled += 1
    assert filled == 11
    del engine


def test_space_estimates() -> None:
    field = Field(("#######", "#r----#", "#-##-##", "#-##--#", "#######"), ((1, 1), (3, 5)))
    region = flood(field.free, field.heads[0], field.S)
    assert region.bit_count() == 8  # green's head at (3,5) counts as occupied
    assert parity_bound(region, field.heads[0], field.even) == 8
    # Two arms from the head: down (2 cells), or right along the top (3 cells) then either
    # the dead end (1 cell) or down (2 cells): best is 5.
    assert chamber_bound(region, field.heads[0], field.S) == 5


@settings(max_examples=80, deadline=None)
@given(positions(), st.integers(0, 1), st.sampled_from([(1, 0), (55, 194), (0, 1)]))
def test_the_two_chamber_searches_agree(state: TronState, seat: int, weights: tuple[int, int]) -> None:
    """The recursive chamber search (small regions) computes the iterative one's value."""
    field = Field(state.rows, state.heads)
    head = field.heads[seat]
    region = flood(field.free, head, field.S)
    k_cell, k_edge = weights
    expected = bots._chambers_iterative(region, head, field.S, field.free, k_cell, k_edge)
    assert bots._chambers_recursive(region, head, field.S, field.free, k_cell, k_edge) == expected


def test_territory_while_connected_counts_chambers_and_edges() -> None:
    """The fight's evaluation (after a1k0n): each side's Voronoi cells, weighed by cell and
    by free neighbours, through the chamber tree (cells behind a cut cell count only for
    the best chamber)."""
    field = Field(("#######", "#r----#", "#-##-##", "#-##--#", "#######"), ((1, 1), (3, 5)))
    region = flood(field.free, field.heads[0], field.S)
    S, head = field.S, field.heads[0]
    # Cells only: the same as the fill estimate's chamber tree.
    assert chamber_value(region, head, field.free, S, 1, 0) == chamber_bound(region, head, S) == 5
    # Edges: the best line is right along the top (1,2) (1,3) (1,4), then down (2,4) (3,4)
    # rather than into (1,5); their free neighbours: 1, 2, 3, then 2, 1 (green's head is
    # not free).
    assert chamber_value(region, head, field.free, S, 0, 1) == 9
    assert edge_weight(1 << (1 * S + 2), field.free, S) == 1
    # A corridor of four free cells: the two middle ones have two free neighbours each.
    corridor = Field(("######", "#----#", "######"), ((-1, -1), (-1, -1)))
    middle = (1 << (corridor.S + 2)) | (1 << (corridor.S + 3))
    assert edge_weight(middle, corridor.free, corridor.S) == 4


def test_solve_matrix_finds_saddle_points_and_mixed_strategies() -> None:
    # A pure saddle point: the row player's second row is safe whatever the column.
    value, mix = solve_matrix([[-40, 5, 5], [-5, 0, 0], [-5, 0, 0]])
    assert value == -5 and mix[0] == 0.0
    # Matching pennies: half and half, worth the average.
    value, mix = solve_matrix([[1, -1], [-1, 1]])
    assert abs(value) < 1e-9 and all(abs(p - 0.5) < 1e-9 for p in mix)
    # Rock-paper-scissors: uniform.
    value, mix = solve_matrix([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert abs(value) < 1e-9 and all(abs(p - 1 / 3) < 1e-9 for p in mix)
    # A 2x3 game with a mixed solution: every column pays the row player at least the value.
    M = [[3, -1, 2], [-2, 1, 4]]
    value, mix = solve_matrix(M)
    assert abs(sum(mix) - 1) < 1e-9 and min(mix) >= 0
    assert all(sum(mix[i] * M[i][j] for i in range(2)) >= value - 1e-6 for j in range(3))
    assert abs(value - 1 / 7) < 1e-6


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_no_head_on_draw_when_a_win_is_available(level: str) -> None:
    # Green's only move is the cell above red, which is a dead end for it: red wins by
    # going anywhere else, and only draws by meeting it there head-on.
    rows = (
        "#######",
        "#g#---#",
        "#-#---#",
        "#r----#",
        "#-----#",
        "#######",
    )
    state = TronState(rows, (Pos(3, 1), Pos(1, 1)))
    assert choose_move(state, 0, 50, level=level).name in ("DOWN", "RIGHT")


def test_moves_drawn_from_a_mix_are_fixed_by_the_position() -> None:
    # The hard bot draws its root move from the matrix game's mix with a number fixed by
    # the position: the same position always gets the same draw, and a move with (near)
    # zero weight is never drawn.
    picks = [bots._pick([0.5, 0.0, 0.5], free, 3, 9) for free in range(1, 400)]
    assert picks == [bots._pick([0.5, 0.0, 0.5], free, 3, 9) for free in range(1, 400)]
    assert set(picks) == {0, 2}
    assert {bots._pick([0.02, 0.98], free, 1, 2) for free in range(1, 400)} == {1}


def test_hopeful_ties_go_to_the_better_plain_average() -> None:
    # A side-by-side race seen from the root: running beside the opponent (row 0) and
    # taking the cell between the heads (row 1) both draw against its worst reply and
    # win big against another; squashed, the two wins are both +1, so only the plain
    # average (one cell more for row 1) tells them apart. A row that loses stays out.
    M = [[730, -100, -100], [750, -100, -100], [-730, -100, -750]]
    assert bots._hopeful(M, 0) == 1
    assert bots._hopeful(M, 1) == 1
    # Better chances still come first, whatever the plain average says.
    assert bots._hopeful([[90, 0], [5000, -100]], 1) == 0


def test_make_bot_is_a_core_agent() -> None:
    engine = TronEngine()
    state = engine.initial_state()
    for level in bots.LEVELS:
        agent = make_bot(level, 30)
        ask = Ask(engine, state, 0, deadline=time.monotonic() + 0.2)
        assert agent.act(ask) in state.safe_moves(0)
    with pytest.raises(ValueError):
        make_bot("insane")


# --- the opponent model: predictable opponents are punished ---------------------------------

WAYS = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)
Opponent = Callable[[TronState, int], Direction]


def never_turns(state: TronState, seat: int) -> Direction:
    """Keeps the way it last moved, even into a wall (its first move: toward the centre)."""
    return state.headings[seat] or (Direction.RIGHT if seat == 0 else Direction.LEFT)


def hugs_walls(state: TronState, seat: int) -> Direction:
    """The free cell with the most blocked neighbours, keeping its way on ties."""
    field = Field(state.rows, state.heads)
    heading = state.headings[seat]
    p = opponent_model.hug(field.free, field.S, field.heads[seat], None if heading is None else WAYS.index(heading), -1)
    return WAYS[max(range(4), key=lambda i: p[i])]


def play_hard(opponent: Opponent, seat: int, engine: TronEngine, opening: int = 0, time_ms: float = 60) -> str:
    """One game of the hard bot's agent (it learns its opponent as it plays) in `seat`:
    W, D or L. The first `opening` steps are random free moves for both (seeded)."""
    rng = random.Random(f"opening-{seat}-{opening}")
    agent = make_bot("hard", time_ms)
    agent.start(engine, seat)
    state = engine.initial_state()
    while not state.outcome.over:
        moves = {}
        for s in (0, 1):
            if state.turn < opening:
                moves[s] = rng.choice(state.safe_moves(s) or DIRECTIONS)
            elif s == seat:
                moves[s] = agent.act(Ask(engine, state, s))
            else:
                moves[s] = opponent(state, s)
        state = engine.step(state, moves).state
    winner = state.outcome.winner
    return "D" if winner is None else "W" if winner == seat else "L"


@pytest.mark.parametrize("seat", [0, 1])
def test_the_hard_bot_beats_an_opponent_that_never_turns(seat: int) -> None:
    # From the standard start both heads race along row 7 for the cell between them: a
    # head-on draw unless one steps aside, and stepping aside at the last moment loses to
    # an opponent that turns. The hard bot learns that this one never turns.
    engine = TronEngine()
    assert play_hard(never_turns, seat, engine) == "W"
    assert play_hard(never_turns, seat, engine, opening=2) == "W"


def test_the_hard_bot_beats_a_wall_hugger() -> None:
    assert play_hard(hugs_walls, 0, TronEngine(), time_ms=30) == "W"
    assert play_hard(hugs_walls, 1, TronEngine(generate(15, 15, 10, 4)), time_ms=30) == "W"


@pytest.mark.parametrize("seat", [0, 1])
def test_no_head_on_meeting_when_a_safe_equal_move_exists(seat: int) -> None:
    # Red (top left) can go down, into the cell green can enter too, or right; green can
    # go up into that cell or down into its dead end. Against green going up both moves
    # are worth the same (a draw at worst), against green going down both win: red must
    # not risk the meeting. Small enough that the search reads every line to the end.
    rows = (
        "#####",
        "#r--#",
        "#---#",
        "#g###",
        "#---#",
        "#####",
    )
    heads = (Pos(1, 1), Pos(3, 1))
    if seat == 1:  # the same position with the colours swapped
        rows = tuple(row.translate(str.maketrans("rg", "gr")) for row in rows)
        heads = (heads[1], heads[0])
    state = TronState(rows, heads)
    assert choose_move(state, seat, 50, level="hard") == Direction.RIGHT
    memory = opponent_model.GameMemory()
    memory.see(state, seat)
    assert choose_move(state, seat, 50, level="hard", memory=memory) == Direction.RIGHT


def test_the_model_learns_a_straight_mover_and_forgets_at_a_new_game() -> None:
    engine = TronEngine()
    state = engine.initial_state()
    memory = opponent_model.GameMemory()
    for _ in range(6):
        memory.see(state, 0)
        state = engine.step(state, {0: Direction.RIGHT if state.turn % 2 else Direction.UP, 1: Direction.LEFT}).state
    memory.see(state, 0)
    weights = memory.model.weights()
    assert weights["random"] < 0.05 and memory.model.confidence() > 0.5
    assert memory.heading == WAYS.index(Direction.LEFT)
    memory.see(engine.initial_state(), 0)  # an earlier turn: a new game
    assert memory.model.seen == 0 and memory.heading is None
