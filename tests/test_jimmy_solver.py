"""The exact solver against the seed cases, the brute-force baseline, and mid-game states."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.examples import examples

from tui_grid.core.boardfile import parse_board_text, read_board_file
from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.core.geometry import Direction, Pos, parse_route
from tui_grid.games.jimmy.baseline import BudgetExceeded, dfs_escape
from tui_grid.games.jimmy.board import JimmyBoard, parse_jimmy
from tui_grid.games.jimmy.rules import JimmyState, Outcome, initial_state, legal_moves, play, replay
from tui_grid.games.jimmy.solver import SearchOptions, solve, survive

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "boards" / "jimmy").glob("*.txt"))
HARD = sorted((ROOT / "bench" / "jimmy_hard").glob("*.txt"))

#: Option sets that switch cuts on and off, so each cut is checked against the baseline alone.
VARIANTS = {
    "default": SearchOptions(),
    "memo+reach only": SearchOptions(quick_nodes=0, root_relax_budget=0, relax_budget=0),
    "relaxed everywhere, tiny budget": SearchOptions(quick_nodes=0, root_relax_budget=40, relax_budget=40),
    "relaxed at nodes only": SearchOptions(quick_nodes=5, root_relax_budget=0, relax_budget=500),
}


def load(path: Path) -> tuple[JimmyBoard, dict[str, str]]:
    text = read_board_file(path)
    return parse_jimmy(text), dict(text.meta)


def board(text: str) -> JimmyBoard:
    return parse_jimmy(parse_board_text(text))


def check(board: JimmyBoard, state: JimmyState | None = None, options: SearchOptions | None = None) -> bool:
    result = solve(board, state, options=options)
    if result.escape:
        assert result.path is not None
        assert replay(board, result.path, state).outcome is Outcome.ESCAPED
    else:
        assert result.path is None
    return result.escape


# --- shipped boards --------------------------------------------------------------------------
@pytest.mark.parametrize("path", BOARDS + HARD, ids=lambda p: p.stem)
def test_shipped_boards_have_the_stated_answer(path: Path) -> None:
    b, meta = load(path)
    assert meta["escape"] in ("yes", "no")
    assert check(b) is (meta["escape"] == "yes")
    if "path" in meta:
        assert replay(b, parse_route(meta["path"])).outcome is Outcome.ESCAPED


def test_seed_cases() -> None:
    names = {p.stem: p for p in BOARDS}
    for i in range(1, 5):
        assert check(load(names[f"seed-{i}"])[0]) is True  # the seed's truthy cases
    for i in range(5, 11):
        assert check(load(names[f"seed-{i}"])[0]) is False  # and its falsy ones


def test_seed_cases_agree_with_baseline() -> None:
    for path in BOARDS:
        b, _ = load(path)
        if b.width * b.height <= 100:
            assert dfs_escape(b)[0] is solve(b).escape


def test_border_start_has_empty_path() -> None:
    result = solve(board("#.\nog\n"))
    assert result == type(result)(True, (), 0)


def test_caught_start_has_no_path() -> None:
    result = solve(board(".....\n..g..\n.go..\n.....\n.....\n"))
    assert not result.escape and result.path is None


def test_mid_game_state_respects_visited_cells() -> None:
    # A corridor with an exit at each end; after a step right, only the right exit remains.
    b = board("#########\n....o....\n#########\n#########\ng########\n")
    mid = play(b, initial_state(b), Direction.RIGHT).state
    result = solve(b, mid)
    assert result.path == (Direction.RIGHT,) * 3
    # With the right end walled off, the visited start cell blocks the way back left.
    walled = board("#########\n....o...#\n#########\n#########\ng########\n")
    assert solve(walled).escape
    mid = play(walled, initial_state(walled), Direction.RIGHT).state
    assert not solve(walled, mid).escape and not dfs_escape(walled, mid)[0]


def test_solve_from_finished_states() -> None:
    b = board("##########\n......g...\n#.o.......\n#.....g...\n##########\n")
    end = replay(b, parse_route("lul"))
    assert solve(b, end).escape and solve(b, end).path == ()


def test_cancel_and_progress() -> None:
    b, _ = load(ROOT / "boards" / "jimmy" / "seed-10.txt")
    seen: list[int] = []
    control = SearchControl(on_progress=lambda nodes, total: seen.append(nodes), every=1)
    solve(b, control=control)
    assert seen and control.nodes > 0
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        solve(b, control=SearchControl(cancel=cancel, every=1))


def test_baseline_budget() -> None:
    b, _ = load(ROOT / "boards" / "jimmy" / "seed-4.txt")
    with pytest.raises(BudgetExceeded):
        dfs_escape(b, max_nodes=3)


# --- survival lines ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [f"seed-{i}" for i in range(5, 11)])
def test_survive_ends_caught_and_replays(name: str) -> None:
    b, _ = load(ROOT / "boards" / "jimmy" / f"{name}.txt")
    line = survive(b)
    end = replay(b, line.path)
    assert end == line.end
    assert end.outcome is Outcome.CAUGHT and end.reason
    assert survive(b) == line  # deterministic


def test_survive_takes_the_longer_line() -> None:
    # Left is a 1-cell pocket (1 move), right a corridor the ghost closes after 2 moves.
    b = board("##########\n##.o...#.g\n##########\n")
    line = survive(b)
    assert line.path == (Direction.RIGHT, Direction.RIGHT)
    assert line.end.outcome is Outcome.CAUGHT and line.end.reason == "dead end: no legal move"


def test_survive_with_a_tiny_budget_still_ends_the_game() -> None:
    for path in BOARDS + HARD:
        b, _ = load(path)
        if solve(b).escape:
            continue
        line = survive(b, budget_nodes=3)
        assert line.end.outcome is Outcome.CAUGHT
        assert replay(b, line.path) == line.end


def test_survive_from_mid_game() -> None:
    b, _ = load(ROOT / "boards" / "jimmy" / "seed-10.txt")
    mid = play(b, initial_state(b), Direction.UP).state
    line = survive(b, mid)
    assert replay(b, line.path, mid) == line.end and line.end.outcome is Outcome.CAUGHT


# --- property: solver == brute force ------------------------------------------------------------
@st.composite
def boards(draw, max_side: int = 6) -> JimmyBoard:
    width = draw(st.integers(2, max_side))
    height = draw(st.integers(2, max_side))
    cells = [Pos(r, c) for r in range(height) for c in range(width)]
    order = draw(st.permutations(cells))
    ghosts = draw(st.integers(1, min(3, len(cells) - 1)))
    jimmy = order[0]
    placed = tuple(order[1 : 1 + ghosts])
    rest = order[1 + ghosts :]
    border_solid = draw(st.floats(0, 1))
    inner_solid = draw(st.floats(0, 0.5))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(rest), max_size=len(rest)))
    solid = frozenset(
        p
        for p, f in zip(rest, flags)
        if f < (border_solid if p.row in (0, height - 1) or p.col in (0, width - 1) else inner_solid)
    )
    return JimmyBoard(width, height, solid, jimmy, placed)


def walk(b: JimmyBoard, choices: list[int]) -> JimmyState:
    state = initial_state(b)
    for choice in choices:
        moves = legal_moves(b, state)
        if not moves:
            break
        state = play(b, state, moves[choice % len(moves)]).state
    return state


@settings(max_examples=examples(1500), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_solver_matches_baseline(b: JimmyBoard) -> None:
    expected, _ = dfs_escape(b)
    for options in VARIANTS.values():
        assert check(b, options=options) is expected


@settings(max_examples=examples(1200), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.lists(st.integers(0, 3), max_size=6))
def test_solver_matches_baseline_mid_game(b: JimmyBoard, choices: list[int]) -> None:
    state = walk(b, choices)
    expected, _ = dfs_escape(b, state)
    for options in VARIANTS.values():
        assert check(b, state, options) is expected


@settings(max_examples=examples(300), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_side=5), st.lists(st.integers(0, 3), max_size=3))
def test_survive_lines_replay(b: JimmyBoard, choices: list[int]) -> None:
    state = walk(b, choices)
    line = survive(b, state)
    assert replay(b, line.path, state) == line.end
    if not solve(b, state).escape:
        assert line.end.outcome is Outcome.CAUGHT


def test_a_memo_past_its_budget_stops_growing_and_says_so(monkeypatch) -> None:
    from tui_grid.games.jimmy import solver as jimmy_solver

    b, _ = load(ROOT / "boards" / "jimmy" / "gen-16x12-g4.txt")  # no escape: the memo is used
    exact = jimmy_solver.solve(b)
    monkeypatch.setattr(jimmy_solver, "MEMO_BUDGET_BYTES", 0)
    capped = jimmy_solver.solve(b)
    assert capped.escape == exact.escape and capped.memory_capped and not exact.memory_capped
