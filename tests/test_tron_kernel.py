"""The C search kernel agrees with the pure-Python search on its primitives, answers legal
moves, refuses bad input, and the Python path takes over whenever the kernel is
disabled, missing or untrusted. Without gcc the kernel tests skip; the fallback tests run."""

from __future__ import annotations

import ctypes
import os
import random
import threading
import time

import pytest

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Pos
from tui_grid.games.tron import bots, kernel, opponent_model
from tui_grid.games.tron.board import board_from_rows
from tui_grid.games.tron.bots import Field, analyse, choose_move
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.generator import generate
from tui_grid.games.tron.rules import TronState

K_CELL, K_EDGES = bots.K_CELL, bots.K_EDGES


@pytest.fixture(scope="module")
def lib():  # type: ignore[no-untyped-def]
    if kernel.disabled() or not kernel.build():
        pytest.skip("no C kernel here (no gcc, or TUI_GRID_NO_KERNEL set)")
    return kernel.get()


def random_state(rng: random.Random) -> TronState:
    """A bordered board up to 20x14 with random walls and trails and two heads."""
    width, height = rng.randint(4, 20), rng.randint(4, 14)
    density = rng.choice([0.0, 0.15, 0.3, 0.5])
    grid = [["#" if r in (0, height - 1) or c in (0, width - 1) else ("#" if rng.random() < density else "-")
             for c in range(width)] for r in range(height)]
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    red, green = rng.sample(inner, 2)
    grid[red[0]][red[1]] = "r"
    grid[green[0]][green[1]] = "g"
    return TronState(tuple("".join(row) for row in grid), (Pos(*red), Pos(*green)))


def kernel_space(lib, field: Field, head: int, other: int) -> list[int]:  # type: ignore[no-untyped-def]
    out = (ctypes.c_long * 6)()
    assert lib.tron_space(field.S, field.height, bots.kernel_cells(field), head, other, K_CELL, K_EDGES, out) == 0
    return list(out)


def python_space(field: Field, head: int, other: int) -> list[int]:
    """The same six figures by bots.py: flood size, parity bound, chamber bound, chamber
    value, fill estimate, and the leaf evaluation with chambers at every size."""
    S, free, even = field.S, field.free, field.even
    region = bots.flood(free, head, S)
    parity = bots.parity_bound(region, head, even) if region else 0
    ra, rb, tied = bots.voronoi(free, head, other, S)
    if bots._separated(ra, rb, tied, S):
        lead = bots.fill_estimate(free, head, S, even) - bots.fill_estimate(free, other, S, even)
        leaf = bots.K_NODES * lead + (bots.SEP if lead > 0 else -bots.SEP if lead < 0 else 0)
    else:
        va = bots.chamber_value(ra, head, free, S, K_CELL, K_EDGES)
        vb = bots.chamber_value(rb, other, free, S, K_CELL, K_EDGES)
        leaf = bots.K_NODES * (va - vb) // bots.UNIT
    return [region.bit_count(), parity, bots.chamber_bound(region, head, S),
            bots.chamber_value(region, head, free, S, K_CELL, K_EDGES), bots.fill_estimate(free, head, S, even), leaf]


def test_kernel_and_python_agree_on_the_evaluation_primitives(lib) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(17)
    for _ in range(60):
        state = random_state(rng)
        field = Field(state.rows, state.heads)
        a, b = field.heads
        assert kernel_space(lib, field, a, b) == python_space(field, a, b), state.rows
        counts = (ctypes.c_int * 3)()
        assert lib.tron_voronoi(field.S, field.height, bots.kernel_cells(field), a, b, counts) == 0
        ra, rb, tied = bots.voronoi(field.free, a, b, field.S)
        assert list(counts) == [ra.bit_count(), rb.bit_count(), tied.bit_count()]


def test_the_kernel_refuses_bad_input(lib) -> None:  # type: ignore[no-untyped-def]
    info = (ctypes.c_int * 4)()
    cells = b"\x01" * 16
    assert lib.tron_best_move(4, 4, cells, 5, 5, 1000, 1000, None, info) == -1  # both heads on one cell
    assert lib.tron_best_move(4, 4, cells, 5, 16, 1000, 1000, None, info) == -1  # a head off the board
    assert lib.tron_best_move(4, 4, cells, -1, 6, 1000, 1000, None, info) == -1
    assert lib.tron_best_move(0, 4, cells, 0, 1, 1000, 1000, None, info) == -1
    assert lib.tron_best_move(200, 4, b"\x01" * 800, 0, 1, 1000, 1000, None, info) == -1  # wider than any board
    params = opponent_model.line_params([("search", 1.0)])
    model = (ctypes.c_double * len(params))(*params)
    values = (ctypes.c_double * 4)()
    assert lib.tron_line_values(4, 4, cells, 5, 6, 4, model, 3, 1000, 1000, None, values, info) == -1  # no such heading
    assert lib.tron_line_values(4, 4, cells, 5, 5, -1, model, 3, 1000, 1000, None, values, info) == -1
    assert lib.tron_line_values(4, 4, cells, 5, 6, -1, None, 3, 1000, 1000, None, values, info) == -1
    assert lib.tron_line_values(4, 4, cells, 5, 6, -1, model, 3, 1000, 1000, None, values, info) == 0


def test_both_paths_answer_legal_moves(lib, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    states = [random_state(rng) for _ in range(25)]
    for disabled in ("", "1"):
        monkeypatch.setenv(kernel.DISABLE_ENV, disabled)
        for state in states:
            for seat in (0, 1):
                move = choose_move(state, seat, 5, level="hard")
                if state.safe_moves(seat):
                    assert move in state.safe_moves(seat), (disabled, state.rows, seat)


def test_the_kernel_plays_the_largest_board_and_a_game(lib) -> None:  # type: ignore[no-untyped-def]
    rows = ["#" * 80] + ["#" + "-" * 78 + "#" for _ in range(78)] + ["#" * 80]
    rows[40] = "#r" + "-" * 76 + "g#"
    largest = board_from_rows(rows, Pos(40, 1), Pos(40, 78))  # board.py's MAX_SIDE
    for board in (largest, None):
        engine = TronEngine(board) if board else TronEngine()
        state = engine.initial_state()
        for _ in range(4 if board else 200):
            if state.outcome.over:
                break
            moves = {seat: choose_move(state, seat, 10, level="hard") for seat in (0, 1)}
            for seat, move in moves.items():
                if state.safe_moves(seat):
                    assert move in state.safe_moves(seat)
            state = engine.step(state, moves).state


def test_the_kernel_takes_a_winning_cut_and_fills_its_room(lib) -> None:  # type: ignore[no-untyped-def]
    corridor = TronState(("#########", "#------g#", "#-#######", "#-r-----#", "#########"), (Pos(3, 2), Pos(1, 7)))
    assert choose_move(corridor, 0, 50, level="hard").name == "LEFT"
    record = analyse(corridor, 0, 50)
    assert record["mode"] == "territory" and record["nodes"] > 0
    room = TronState(("########", "#r-----#", "#------#", "########", "#g-----#", "########"), (Pos(1, 1), Pos(4, 1)))
    record = analyse(room, 0, 50)
    assert record["mode"] == "endgame" and record["score"] == 11  # all 11 free cells of its room


def test_no_head_on_draw_when_a_win_is_available(lib) -> None:  # type: ignore[no-untyped-def]
    rows = ("#######", "#g#---#", "#-#---#", "#r----#", "#-----#", "#######")
    state = TronState(rows, (Pos(3, 1), Pos(1, 1)))
    assert choose_move(state, 0, 50, level="hard").name in ("DOWN", "RIGHT")


def test_a_cancelled_kernel_search_stops_at_once(lib) -> None:  # type: ignore[no-untyped-def]
    """Stopped in work, not seconds: a 5 s budget would search millions of nodes."""
    state = TronEngine(generate(40, 30, 10, 3)).initial_state()
    cancel = threading.Event()
    cancel.set()
    record = analyse(state, 0, 5000, SearchControl(cancel=cancel))
    assert record["move"] in [d.name for d in state.safe_moves(0)]
    assert record["nodes"] <= 2  # the kernel reads the flag as it starts (then every 16 nodes)


def test_python_searches_when_the_kernel_is_disabled(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(kernel.DISABLE_ENV, "1")
    assert kernel.get() is None

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the kernel was asked while disabled")

    monkeypatch.setattr(bots, "_kernel_move", refuse)
    state = TronEngine().initial_state()
    record = analyse(state, 0, 20)
    assert record["mode"] == "territory" and record["nodes"] > 0


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """An empty cache folder and a kernel module that has loaded nothing yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.delenv(kernel.DISABLE_ENV, raising=False)
    monkeypatch.setattr(kernel, "_library", None)
    monkeypatch.setattr(kernel, "_lib", None)
    monkeypatch.setattr(kernel, "_logged", True)  # no log line in the test output
    return tmp_path / "cache" / "tui_grid"


def test_an_untrusted_library_is_never_loaded(fresh_cache, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    if not kernel.build():
        pytest.skip("no C compiler here")
    path = fresh_cache / kernel.library().file_name()

    def fresh_get():  # type: ignore[no-untyped-def]
        monkeypatch.setattr(kernel, "_library", None)
        monkeypatch.setattr(kernel, "_lib", None)
        return kernel.get()

    os.chmod(path, 0o766)  # writable by anyone
    assert fresh_get() is None
    os.chmod(path, 0o700)
    os.chmod(path.parent, 0o777)
    assert fresh_get() is None
    os.chmod(path.parent, 0o700)
    assert fresh_get() is not None  # the same file, once nobody else may write it


def test_a_failed_build_falls_back_to_python(fresh_cache, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CC", str(fresh_cache / "no-such-compiler"))
    assert kernel.build() is False
    assert kernel.get() is None
    assert oct(fresh_cache.stat().st_mode & 0o777) == "0o700"
    assert list(fresh_cache.iterdir()) == []  # no temporary file left behind
    state = TronEngine().initial_state()
    assert choose_move(state, 0, 10, level="hard") in state.safe_moves(0)


def test_a_search_does_not_wait_for_a_build_under_way(fresh_cache) -> None:  # type: ignore[no-untyped-def]
    with kernel._lock:  # as a build in the background holds it
        assert kernel.get() is None
        state = TronEngine().initial_state()
        assert choose_move(state, 0, 10, level="hard") in state.safe_moves(0)


def test_the_kernel_values_a_draw_as_the_python_search_does(lib) -> None:  # type: ignore[no-untyped-def]
    assert lib.tron_contempt() == bots.CONTEMPT


def test_kernel_and_python_line_searches_agree(lib, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search against the opponent model: the same expected utilities from C as from
    opponent_model.LineSearch, for any belief (with chambers read at every size, as the
    kernel's evaluation does)."""
    monkeypatch.setattr(bots, "CHAMBER_CELLS", 10**9)
    rng = random.Random(3)
    for _ in range(12):
        state = random_state(rng)
        field = Field(state.rows, state.heads)
        memory = opponent_model.GameMemory()
        memory.model.evidence = {name: rng.uniform(-3.0, 0.0) for name in opponent_model.POLICIES}
        memory.heading = rng.choice([None, 0, 1, 2, 3])
        a, b = field.heads
        for depth in (1, 2):
            monkeypatch.setattr(opponent_model, "MAX_DEPTH", depth)
            far = time.perf_counter() + 1000.0  # bounded by the depth, not the clock
            python = opponent_model.LineSearch(memory.model, field, far).root(field.free, a, b, memory.heading, depth)
            c = opponent_model.line_values(memory, field, 0, far, far)
            assert c.keys() == python.keys(), state.rows
            assert all(abs(c[k] - python[k]) < 1e-9 for k in c), (state.rows, depth, c, python)


def test_the_kernel_rates_every_move_within_the_slack(lib) -> None:  # type: ignore[no-untyped-def]
    """With a slack wider than any value, every move gets its worst-case value (the hard
    bot weighs them against the opponent model); a move onto a wall gets none."""
    state = TronEngine().initial_state()
    field = Field(state.rows, state.heads)
    a, b = field.heads
    scores = (ctypes.c_int * 4)()
    info = (ctypes.c_int * 4)()
    move = lib.tron_root_scores(field.S, field.height, bots.kernel_cells(field), a, b, 30000, 15000, None, 10**7, scores, info)
    safe = bots.safe_moves(field.free, a, field.S)
    assert move in safe and info[0] >= 1
    assert all(-bots.WIN < scores[k] < bots.WIN for k in safe)
    assert all(scores[k] == -bots.WIN - 2 for k in range(4) if k not in safe)
