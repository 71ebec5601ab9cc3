"""Ice sliding: the fast solver against the kata's answers, the textbook baseline and a brute force."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.examples import examples

from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.core.geometry import DIRECTIONS, Pos
from tui_grid.games.ice.baseline import bfs_baseline
from tui_grid.games.ice.board import IceBoard, make_board
from tui_grid.games.ice.rules import IceState, replay, slide_cells
from tui_grid.games.ice.solver import IceSolution, rest_cell_count, solve

KATA = {
    "spiral": (["    x ", "  #   ", "   E  ", " #    ", "    # ", "S    #"], "urdlur", 16),
    "one-way": ([" #    ", "x   E ", "      ", "     S", "      ", " #    "], "lur", 11),
    "tiebreak-moves": (["E#   #", "      ", "#     ", "  #   ", " #    ", " S    "], "rulu", 14),
    "tiebreak-distance": (["    E ", "     #", "      ", "# #   ", "    # ", " #  S "], "lurur", 9),
    "all-x": (["E#xxx", "x#x#x", "x#x#x", "x#x#x", "xxx#S"], "uuuullddddlluuuu", 16),
}


def brute_force(board: IceBoard, start: Pos) -> tuple[int, int] | None:
    """(moves, distance) by dynamic programming over walks of exactly k moves, k = 1, 2, ...

    No pruning by first visit: layer k keeps the least distance of any k-move walk to
    each cell, so it is a different argument from the solver's. k never needs to
    exceed the number of cells.
    """
    if start == board.end:
        return (0, 0)
    layer = {start: 0}
    for moves in range(1, board.width * board.height + 1):
        nxt: dict[Pos, int] = {}
        for here, distance in layer.items():
            if here == board.end:
                continue
            for direction in DIRECTIONS:
                cells = slide_cells(board, here, direction)
                if cells:
                    there, total = cells[-1], distance + len(cells)
                    if total < nxt.get(there, total + 1):
                        nxt[there] = total
        if board.end in nxt:
            return (moves, nxt[board.end])
        if not nxt:
            return None
        layer = nxt
    return None


def assert_route_is_valid(board: IceBoard, start: Pos, solution: IceSolution) -> None:
    state = IceState(start)
    for direction in solution.route:
        cells = slide_cells(board, state.pos, direction)
        assert cells, f"{direction} cannot move from {state.pos}"
        state = IceState(cells[-1], state.moves + 1, state.distance + len(cells))
    assert state == IceState(board.end, solution.moves, solution.distance)


@pytest.mark.parametrize("name", list(KATA))
def test_kata_examples_match_the_published_routes(name: str) -> None:
    rows, route, distance = KATA[name]
    board = make_board(rows)
    solution = solve(board)
    assert solution is not None
    assert (solution.moves, solution.distance) == (len(route), distance)
    assert solution.route_string() == route
    assert replay(board, route) == IceState(board.end, len(route), distance)


def test_kata_unsolvable_maps_give_none() -> None:
    for rows in (["E#    ", "      ", "      ", "      ", "      ", " #   S"], ["E# ", "#S#", " # "]):
        board = make_board(rows)
        assert solve(board) is None
        assert bfs_baseline(board) is None
        assert brute_force(board, board.start) is None


def test_solving_from_any_cell() -> None:
    board = make_board(KATA["spiral"][0])
    assert solve(board, board.end) == IceSolution((), 0, 0)
    rest = solve(board, Pos(0, 4))  # after "ur"
    assert rest is not None and rest.route_string() == "dlur" and (rest.moves, rest.distance) == (4, 7)
    assert solve(board, Pos(1, 0)) is not None  # a cell no route stops on is fine too


def test_route_string_and_fields() -> None:
    solution = solve(make_board(["S E"]))
    assert solution is not None
    assert solution.route_string() == "r" and solution.moves == 1 and solution.distance == 2


def test_progress_total_is_the_rest_cell_count_and_ticks_are_counted() -> None:
    board = make_board(KATA["spiral"][0])
    seen: list[tuple[int, int | None]] = []
    control = SearchControl(on_progress=lambda n, total: seen.append((n, total)), every=1)
    solve(board, control=control)
    assert control.total == rest_cell_count(board)
    assert control.nodes > 0 and seen and all(total == control.total for _, total in seen)
    assert control.nodes <= control.total


def test_rest_cell_count_on_a_tiny_board() -> None:
    # every cell of a 3x1 strip is next to the edge above and below, so all 3 are rest cells
    assert rest_cell_count(make_board(["S E"])) == 3
    # the middle of an open 5x5 is not a rest cell unless rough or the start
    assert rest_cell_count(make_board(["     ", "     ", "  S  ", "     ", "    E"])) == 16 + 1


def test_cancel_stops_the_search() -> None:
    board = random_board(random.Random(5), 200, 200, 0.2, 0.05)
    counting = SearchControl()
    solve(board, control=counting)
    assert counting.nodes > 1000  # a search long enough to be cancelled part way
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        solve(board, control=SearchControl(cancel=cancel, every=16))


def random_board(rng: random.Random, width: int, height: int, obstacles: float, rough: float) -> IceBoard:
    cells = [[" "] * width for _ in range(height)]
    for r in range(height):
        for c in range(width):
            u = rng.random()
            cells[r][c] = "#" if u < obstacles else "x" if u < obstacles + rough else " "
    spots = rng.sample([(r, c) for r in range(height) for c in range(width)], 2)
    (sr, sc), (er, ec) = spots
    cells[sr][sc], cells[er][ec] = "S", "E"
    return make_board(["".join(line) for line in cells])


@st.composite
def small_maps(draw: st.DrawFn) -> IceBoard:
    """Maps up to 8x8 with any mix of ice, rough tiles and obstacles, and distinct S and E."""
    width = draw(st.integers(1, 8))
    height = draw(st.integers(2 if width == 1 else 1, 8))
    tiles = st.sampled_from("    ##x")  # mostly ice, so that slides are long
    cells = [[draw(tiles) for _ in range(width)] for _ in range(height)]
    spots = [(r, c) for r in range(height) for c in range(width)]
    start = draw(st.sampled_from(spots))
    end = draw(st.sampled_from([spot for spot in spots if spot != start]))
    cells[start[0]][start[1]] = "S"
    cells[end[0]][end[1]] = "E"
    return make_board(["".join(line) for line in cells])


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=small_maps(), data=st.data())
def test_solver_is_optimal_on_small_random_maps(board: IceBoard, data: st.DataObject) -> None:
    expected = brute_force(board, board.start)
    solution = solve(board)
    baseline = bfs_baseline(board)
    if expected is None:
        assert solution is None and baseline is None
    else:
        assert solution is not None and baseline is not None
        assert (solution.moves, solution.distance) == expected
        assert (baseline.moves, baseline.distance) == expected
        assert_route_is_valid(board, board.start, solution)
        assert_route_is_valid(board, board.start, baseline)
        assert replay(board, solution.route_string()) == IceState(board.end, *expected)
    # and from any other open cell, as the hint and solve keys do mid-game
    open_cells = [Pos(r, c) for r in range(board.height) for c in range(board.width) if board.rows[r][c] != "#"]
    other = data.draw(st.sampled_from(open_cells))
    from_other = solve(board, other)
    want = brute_force(board, other)
    assert (None if from_other is None else (from_other.moves, from_other.distance)) == want
    if from_other is not None:
        assert_route_is_valid(board, other, from_other)


@pytest.mark.parametrize(("size", "obstacles", "rough", "seed"), [(60, 0.2, 0.05, 1), (120, 0.03, 0.01, 2), (150, 0.3, 0.02, 3)])
def test_solver_agrees_with_the_baseline_on_bigger_maps(size: int, obstacles: float, rough: float, seed: int) -> None:
    board = random_board(random.Random(seed), size, size, obstacles, rough)
    solution, baseline = solve(board), bfs_baseline(board)
    assert (solution is None) == (baseline is None)
    if solution is not None:
        assert (solution.moves, solution.distance) == (baseline.moves, baseline.distance)
        assert_route_is_valid(board, board.start, solution)


def test_a_1000x1000_map_is_solved_with_a_replayable_route() -> None:
    """Size only: speed is measured in bench/ice.py, never asserted in a test."""
    board = random_board(random.Random(12), 1000, 1000, 0.2, 0.05)  # seed 12: E is reachable
    solution = solve(board)
    assert solution is not None and solution.moves > 100
    assert_route_is_valid(board, board.start, solution)
