"""The bunny solver: seed boards within the published counts, proofs, a brute-force
cross-check on tiny random boards, time limits and cancelling."""

from __future__ import annotations

import threading
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_grid.core.boardfile import read_board_file
from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.games.bunny.board import BunnyBoard, make_board, parse_bunny
from tui_grid.games.bunny.interpreter import run
from tui_grid.games.bunny.program import F, L, R, Loop, Program, parse_program
from tui_grid.games.bunny.solver import ShapeBank, solve, solve_record, valid_body

BOARDS = Path(__file__).resolve().parent.parent / "boards" / "bunny"

# (name, optimum) for the fast seed boards; the slow ones are in bench/bunny.py.
FAST = [
    ("doodle-1-line", 2),
    ("doodle-2-corner", 4),
    ("doodle-3-ring", 4),
    ("doodle-4-two-rings", 5),
    ("doodle-5-window", 5),
    ("doodle-6-halo", 4),
    ("huge-holey-11x11", 6),
    ("huge-holey-10x10", 6),
    ("huge-lopsided-7x7", 6),
]


def load(name: str) -> tuple[BunnyBoard, int]:
    text = read_board_file(BOARDS / f"{name}.txt")
    return parse_bunny(text), int(text.meta["published"])


@pytest.mark.parametrize("name, optimum", FAST)
def test_seed_boards_within_published_count(name: str, optimum: int) -> None:
    board, published = load(name)
    solution = solve(board, time_limit=30)
    assert solution.program is not None
    assert solution.proven_optimal
    assert solution.tokens == optimum <= published
    assert run(board, solution.program).complete


def test_lopsided_7x7_beats_the_published_answer_with_a_big_count() -> None:
    board, published = load("huge-lopsided-7x7")
    solution = solve(board)
    assert solution.tokens == published - 1
    counts = [node.count for node in _loops(solution.program.body) if node.count]
    assert max(counts) > 8  # the published search tried counts 3..8 only


def _loops(nodes):
    for node in nodes:
        if isinstance(node, Loop):
            yield node
            yield from _loops(node.body)


def test_solve_record_shape() -> None:
    board, _ = load("doodle-3-ring")
    record = solve_record(board, 10)
    assert set(record) == {"solvable", "program", "tokens", "proven_optimal", "seconds"}
    assert record["tokens"] == 4 and record["proven_optimal"] is True
    assert parse_program(record["program"]).tokens == 4


def test_unreachable_squares_mean_no_program() -> None:
    board = make_board(["S# #"])
    solution = solve(board)
    assert solution.program is None and "cannot be reached" in solution.message


def test_time_limit_returns_best_so_far_unproven() -> None:
    board, _ = load("huge-lopsided-9x9")
    solution = solve(board, time_limit=0.05)
    assert not solution.proven_optimal
    assert solution.program is not None and run(board, solution.program).complete


def test_cancel_raises_cancelled_quickly() -> None:
    """Quickly in work, not seconds: once cancelled, the search stops at its next check."""
    board, _ = load("huge-lopsided-9x9")
    cancel = threading.Event()
    progress: list[int] = []
    control = SearchControl(cancel=cancel, on_progress=lambda nodes, total: (progress.append(nodes), cancel.set() if len(progress) == 3 else None))
    with pytest.raises(Cancelled):
        solve(board, control=control)
    assert len(progress) == 3  # the check that saw the cancel raised: no node searched past it


def test_shape_bank_respects_the_prunes() -> None:
    bank = ShapeBank()
    for size in range(1, 6):
        for body in bank.bodies(size):
            assert valid_body(body)
            text = " ".join(map(str, body))
            for bad in ("'L', 'R'", "'R', 'L'", "'R', 'R'", "'L', 'L', 'L'", "'F', 'F'"):
                assert bad not in repr(body), text


# --- brute force on tiny boards -------------------------------------------------------------

MAX_TOKENS = 4
COUNTS = (None, 1, 2, 3, 4, 5, 6, 7)  # None: forever


def _shapes(size: int):
    if size == 0:
        yield ()
        return
    for first in range(1, size + 1):
        for rest in _shapes(size - first):
            if first == 1:
                for op in (F, L, R):
                    yield (op,) + rest
            else:
                for body in _shapes(first - 1):
                    yield (("loop", body),) + rest


def _fill(shape, counts):
    out = []
    for item in shape:
        if isinstance(item, tuple):
            out.append(Loop(_fill(item[1], counts), next(counts)))
        else:
            out.append(item)
    return tuple(out)


def _n_loops(shape) -> int:
    return sum(1 + _n_loops(item[1]) for item in shape if isinstance(item, tuple))


class _Forever(Exception):
    pass


def _covers(board: BunnyBoard, program: Program) -> bool:
    """An independent, plain evaluation: True if the program marks every square."""
    squares = set(board.squares)
    marks = set(board.initially_marked)
    state = [board.start, 0]

    def go(nodes) -> None:
        for node in nodes:
            if isinstance(node, Loop):
                if node.count is None:
                    seen = set()
                    while (tuple(state), len(marks)) not in seen:
                        seen.add((tuple(state), len(marks)))
                        go(node.body)
                    raise _Forever()
                for _ in range(node.count):
                    go(node.body)
            elif node == F:
                state[0] = board.hop(state[0], state[1])
                marks.add(state[0])
            else:
                state[1] = (state[1] + (3 if node == L else 1)) % 4

    try:
        go(program.body)
    except _Forever:
        pass
    return marks == squares


def brute_force(board: BunnyBoard) -> int | None:
    for size in range(0, MAX_TOKENS + 1):
        for shape in _shapes(size):
            for counts in product(COUNTS, repeat=_n_loops(shape)):
                if _covers(board, Program(_fill(shape, iter(counts)))):
                    return size
    return None


@st.composite
def tiny_boards(draw) -> BunnyBoard:
    """A connected shape of 2..6 squares in a 3x3 box, S somewhere, maybe one O."""
    size = draw(st.integers(2, 6))
    cells = [draw(st.sampled_from([(r, c) for r in range(3) for c in range(3)]))]
    while len(cells) < size:
        frontier = sorted(
            {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if 0 <= r + dr < 3 and 0 <= c + dc < 3} - set(cells)
        )
        cells.append(draw(st.sampled_from(frontier)))
    start = draw(st.sampled_from(cells))
    others = [cell for cell in cells if cell != start]
    marked = set(draw(st.lists(st.sampled_from(others), max_size=1)))
    rows = []
    for r in range(3):
        rows.append("".join("S" if (r, c) == start else "O" if (r, c) in marked else "#" if (r, c) in cells else " " for c in range(3)))
    return make_board(rows)


SEEN: list = []


@settings(derandomize=True, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_boards())
def test_solver_agrees_with_brute_force(board: BunnyBoard) -> None:
    solution = solve(board, time_limit=20)
    expected = brute_force(board)
    SEEN.append((expected, solution.tokens))
    if solution.program is None:
        assert expected is None
        return
    assert solution.proven_optimal
    assert _covers(board, solution.program)
    assert run(board, solution.program).complete
    if expected is not None:
        # never worse than brute force; better only with a count brute force did not try
        assert solution.tokens <= expected
        if solution.tokens < expected:
            assert any((node.count or 0) > max(c for c in COUNTS if c) for node in _loops(solution.program.body))
    else:
        assert solution.tokens > MAX_TOKENS or any(
            (node.count or 0) > max(c for c in COUNTS if c) for node in _loops(solution.program.body)
        )


def test_brute_force_cases_were_informative() -> None:
    # the cross-check above must have compared real optima, not only trivial cases
    if SEEN:
        assert sum(1 for expected, _ in SEEN if expected is not None and expected >= 3) >= 5


# --- the compiled kernel and the pure-Python path agree ----------------------------------------


@pytest.fixture
def pure_python():
    """Runs the test body's solves on the pure-Python path, then restores the kernel."""
    from tui_grid.games.bunny import kernel

    kernel.disable()
    try:
        yield
    finally:
        kernel.enable()


def _small_random_boards() -> list[BunnyBoard]:
    import random

    from tui_grid.games.bunny.generator import _shape

    return [make_board(_shape(random.Random(seed), 5 + seed % 3, 5 + seed % 2, 8 + seed % 5)) for seed in range(8)]


def _answers(boards: list[BunnyBoard]) -> list[tuple]:
    out = []
    for board in boards:
        solution = solve(board, time_limit=30)
        out.append((solution.tokens, solution.proven_optimal, str(solution.program)))
    return out


def test_kernel_and_pure_python_give_the_same_programs(request) -> None:
    from tui_grid.games.bunny import kernel

    if not kernel.available():
        pytest.skip("no C compiler: only the pure-Python path exists here")
    boards = [load(name)[0] for name, _ in FAST if name != "huge-lopsided-7x7"] + _small_random_boards()
    with_kernel = _answers(boards)
    request.getfixturevalue("pure_python")
    assert not kernel.available()
    assert _answers(boards) == with_kernel
    assert all(proven for _, proven, _ in with_kernel)


def test_kernel_leaves_match_the_python_evaluator() -> None:
    """Every count class of some loops, from every state, in the same order with the same
    end states, marks and classes; and the same forever-loop answers."""
    from tui_grid.games.bunny import kernel

    if not kernel.available():
        pytest.skip("no C compiler")
    from tui_grid.games.bunny.solver import _Search

    board, _ = load("huge-lopsided-7x7")
    search = _Search(board, SearchControl(), None)
    assert search.kernel is not None
    k = search.kernel
    search.kernel = None  # the Python side of _finite_leaves / forever_covers
    bank = ShapeBank()
    bodies = [body for size in (2, 3, 4) for body in bank.bodies(size)][::7]
    checked = hits = 0
    for body in bodies:
        for state in range(0, search.ev.n_states, 11):
            item = ("loop", body)
            assert k.finite_outcomes(item, state)[0] == search.finite_outcomes(item, state)
            need = search.ev.full & ~search.ev.init_marks
            assert k.forever_covers(body, state, need)[0] == search.forever_covers(body, state, need)
            assert k.forever_covers(body, state, need & 0b1011011)[0] == search.forever_covers(body, state, need & 0b1011011)
            for some in (need, need & 0b1011011, need & 0b11):
                assert k.finite_then_hop(item, state, some)[0] == search.finite_then_hop(item, state, some)
                hits += search.finite_then_hop(item, state, some) is not None
            checked += 1
    assert checked > 100 and hits > 10
