"""Fuzz the command line end to end: `python -m tui_grid solve/watch/generate/replay` on
fuzzed files and option values, each run in a subprocess with a time and memory limit.

Every run must exit 0, or exit 2 with at most one line on stderr and nothing on stdout; no
traceback (a MemoryError included), within `TIMEOUT` seconds and `MEMORY_LIMIT` bytes of
address space. Each run costs about 0.2 s, so the examples are few; the in-process fuzzing
of the same parsers is in test_fuzz_parsers.py.
"""

from __future__ import annotations

import os
import resource
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from tests.test_fuzz_parsers import BOARD_GAMES, GAMES, ID_GAMES, fuzz, near_valid_files, played_values, shipped
from tui_grid.core.boardfile import format_board_file
from tui_grid.games.registry import PLAYED_KEY, Solvable

TIMEOUT = 20.0
MEMORY_LIMIT = 1536 * 1024 * 1024
SOLVE_GAMES = [key for key in BOARD_GAMES if isinstance(GAMES[key], Solvable)]
REPLAY_GAMES = [key for key in BOARD_GAMES if shipped(key)]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_cli(args: list[str], cwd: str | Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[bytes]:
    """Run `tui-grid ARGS` and check the contract; returns the finished process."""
    env = {**os.environ, "NO_COLOR": "1", "TUI_GRID_DATA": str(cwd), "PYTHONDONTWRITEBYTECODE": "1"}
    command = "tui-grid " + shlex.join(arg if len(arg) < 80 else arg[:77] + "..." for arg in args)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tui_grid", *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            preexec_fn=_limit_memory,
            cwd=cwd,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command}: still running after {timeout:g} s")
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and "MemoryError" not in stderr, f"{command}:\n{stderr[-3000:]}"
    allowed = (0, 1, 2) if args[:1] == ["run"] else (0, 2)  # `run` exits 1 for a program that does not complete
    assert proc.returncode in allowed, f"{command}: exit {proc.returncode}\n{stderr[-3000:]}"
    if proc.returncode == 2:
        assert len(stderr.splitlines()) == 1 and stderr.startswith("tui-grid: error: "), f"{command}: {stderr!r}"
        assert proc.stdout == b"", f"{command}: exit 2 after printing {proc.stdout[:200]!r}"
    return proc


def exited(proc: subprocess.CompletedProcess[bytes]) -> None:
    """Count exit codes and error kinds in the statistics."""
    message = proc.stderr.decode("utf-8", "replace").split(": ")[-1][:30] if proc.returncode else ""
    event(f"exit {proc.returncode} {message}".strip())


def file_contents(key: str) -> st.SearchStrategy[bytes]:
    """Mostly near-valid board files, sometimes bytes that are not UTF-8."""
    near = near_valid_files(key).map(lambda text: text.encode("utf-8"))
    valid = st.sampled_from(shipped(key)).map(lambda board: format_board_file(board.rows, dict(board.meta)).encode("utf-8"))
    return st.one_of(near, near, valid, st.binary(max_size=60))


#: Mostly a valid (zero) delay, so most runs get past the options.
DELAYS = st.sampled_from(["0"] * 5 + ["-0", "1e-9", "0.0", "-1", "nan", "inf", "61", "abc", "", "0x1"])


@fuzz(14)
@given(st.data())
def test_solve(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(SOLVE_GAMES))
    content = data.draw(file_contents(key))
    args = ["solve", key, "board.txt"]
    if data.draw(st.booleans()):
        args.append("--json")
    if key == "bunny":  # the solver's own limit; the default is a minute
        args += ["--time-limit", data.draw(st.sampled_from(["0.3", "0.3", "1", "0", "-1", "nan", "1e309", "x"]))]
    args += data.draw(st.sampled_from([[]] * 6 + [["board.txt"], ["-"], ["missing.txt"], ["--bogus"], [f"{key}:"]]))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "board.txt").write_bytes(content)
        exited(run_cli(args, tmp))


@fuzz(10)
@given(st.data())
def test_watch(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(SOLVE_GAMES))
    content = data.draw(file_contents(key))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "board.txt").write_bytes(content)
        exited(run_cli(["watch", key, "board.txt", "--delay", data.draw(DELAYS)], tmp))


OPTION_VALUES = st.sampled_from(["1", "2", "2", "2", "3", "3", "0", "-1", "x", "", "99999999999999999999", "1_0", "٣", " 2 "])
SIZE_VALUES = st.sampled_from(["3x3", "3x3", "4x3", "3x4", "4x4", "2x1", "1x2", "1x1", "0x3", "-3x3", "1001x1", "3X3", " 3x3 ", "3x", "x", ""])
SEED_VALUES = st.one_of(st.integers(-(10**12), 10**12).map(str), st.sampled_from(["", "x", "1.5", "0x10", "1_000", "-0", "9" * 50]))


@fuzz(10)
@given(st.data())
def test_generate(data: st.DataObject) -> None:
    """Always a tiny --size (or a bad one), so generating stays quick."""
    key = data.draw(st.sampled_from(ID_GAMES))
    args = ["generate", key]
    for option in GAMES[key].options:
        if option.key == "size":
            args += [option.flag, data.draw(SIZE_VALUES)]
        elif data.draw(st.booleans()):
            args += [option.flag, data.draw(st.sampled_from(option.choices) if option.choices else OPTION_VALUES)]
    if data.draw(st.booleans()):
        args += ["--seed", data.draw(SEED_VALUES)]
    args += data.draw(st.sampled_from([[]] * 6 + [["--bogus"], ["extra"], ["--seed"]]))
    with tempfile.TemporaryDirectory() as tmp:
        exited(run_cli(args, tmp))


@fuzz(12)
@given(st.data())
def test_replay(data: st.DataObject) -> None:
    """A shipped board with a fuzzed `played:` header, with or without `game:`."""
    key = data.draw(st.sampled_from(REPLAY_GAMES))
    base = data.draw(st.sampled_from(shipped(key)))
    files = GAMES[key]
    meta = {k: v for k, v in base.meta.items() if k != PLAYED_KEY}
    header_game = data.draw(st.sampled_from([key] * 4 + [None, "evasion", "nope", ""]))
    if header_game is not None:
        meta["game"] = header_game
    played = data.draw(played_values(key, base))
    if played or data.draw(st.booleans()):
        meta[PLAYED_KEY] = played
    text = format_board_file(base.rows, files.file_meta(files.parse(base), meta))
    args = ["replay", "saved.txt", "--delay", data.draw(DELAYS)]
    args += data.draw(st.sampled_from([[]] * 4 + [["--game", key], ["--game", "nope"], ["--game", "evasion"]]))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "saved.txt").write_text(text, encoding="utf-8")
        exited(run_cli(args, tmp))


# --- inputs a fuzzer rarely makes: special files and names ------------------------------------------
SPECIAL = [
    ["replay", "a" * 300],  # ENAMETOOLONG from Path.is_dir(): one line, no traceback
    ["replay", "."],
    ["replay", "-"],  # empty stdin
    ["replay", "big.txt"],  # over the file size cap
    ["solve", "ice", "-"],
    ["solve", "ice", "big.txt"],
    ["solve", "ice", "."],
    ["solve", "ice", "-", "-"],
    ["watch", "jimmy", "ice:3x3:m1#seed1"],
    ["generate", "ice", "--size", "-5x5"],
    ["generate", "evasion"],
]
if Path("/dev/zero").exists():
    SPECIAL += [["solve", "ice", "/dev/zero"], ["replay", "/dev/zero"]]  # endless input: bounded, never a MemoryError


@pytest.mark.parametrize("args", SPECIAL, ids=lambda args: " ".join(arg[:12] for arg in args))
def test_special_inputs_exit_2(args: list[str], tmp_path: Path) -> None:
    if "big.txt" in args:
        (tmp_path / "big.txt").write_bytes(b"S E\n" * (4 * 1024 * 1024 + 1))
    assert run_cli(args, tmp_path).returncode == 2


# --- known bugs outside the files this suite may fix (see the fuzz report) -----------------------
def test_solve_overlong_board_name(tmp_path: Path) -> None:
    run_cli(["solve", "ice", "a" * 300], tmp_path)


def test_solve_id_with_a_newline(tmp_path: Path) -> None:
    run_cli(["solve", "ice", "ice:\nsecond line"], tmp_path)


@pytest.mark.skipif("bunny" not in GAMES, reason="no bunny")
def test_run_bunny_superscript_loop_count(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("S##\n")
    run_cli(["run", "bunny", "b.txt", "--program", "LOOP(²){F}"], tmp_path)


NESTED_16 = "".join("LOOP(16){" for _ in range(8)) + "F" + "}" * 8


@pytest.mark.skipif("bunny" not in GAMES, reason="no bunny")
def test_run_bunny_nested_loops_is_bounded(tmp_path: Path) -> None:
    """16**8 hops asked for: the run stops at the step cap (work, not seconds)."""
    from tui_grid.games.bunny.board import make_board
    from tui_grid.games.bunny.interpreter import MAX_RUN_STEPS, run_report

    _, result = run_report(make_board(["S#", " #"]), NESTED_16)  # what `run bunny` runs
    assert result.steps <= MAX_RUN_STEPS
    (tmp_path / "b.txt").write_text("S#\n #\n")
    proc = run_cli(["run", "bunny", "b.txt", "--program", NESTED_16], tmp_path)  # the default limit only catches a hang
    assert len(proc.stdout) < 10_000


@pytest.mark.skipif("bunny" not in GAMES, reason="no bunny")
def test_replay_bunny_nested_loops_is_bounded(tmp_path: Path) -> None:
    """16**6 hops asked for: the run stops at the engine's step cap and keeps a bounded
    number of frames, and the replay prints a bounded amount (work, not seconds)."""
    from tui_grid.games.bunny.board import make_board
    from tui_grid.games.bunny.engine import MAX_FRAMES, MAX_STEPS, BunnyEngine
    from tui_grid.games.bunny.program import parse_program

    program = "LOOP(16){" * 6 + "F" + "}" * 6
    engine = BunnyEngine(make_board(["S#", " #"]))
    step = engine.step(engine.initial_state(), {0: parse_program(program)})
    assert step.state.steps <= MAX_STEPS and len(step.frames) <= MAX_FRAMES
    (tmp_path / "saved.txt").write_text(f"game: bunny\nplayed: {program}\n---\nS#\n #\n")
    proc = run_cli(["replay", "saved.txt"], tmp_path)  # the default limit only catches a hang
    assert proc.returncode == 0 and len(proc.stdout) < 10_000
