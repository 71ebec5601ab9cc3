"""Benchmark: our bunny solver against the exhaustive C reference, board by board.

Run from the repository root:  python bench/bunny.py  [--time-limit S] [--boards a,b] [--random N]

The boards: the seed's 12 (`boards/bunny/`) and N random boards (24 by default) from the
generator's shape maker (`generator._shape`, fixed seeds 1000.., sizes 5x5 to 11x11, 40%
of the box's cells; the generator's own solver check is skipped so the set does not
depend on the solver being measured).

The reference is `../shared/reference/bunny_ref.c` (or `--ref PATH`): built here with
`gcc -O2` into a temporary directory at every run (never copied into the project) and
run as one process per board with `-C 2048` (counts up to 2048). Both sides run in the
same run, board after board, and the table shows ours seconds (in process), C seconds
(the whole process), their ratio, and whether the token counts agree. Every program we
find is checked with the step-by-step interpreter, and every answer must be proven
optimal. Load averages are printed before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.boardfile import read_board_file  # noqa: E402
from tui_grid.games.bunny import kernel  # noqa: E402
from tui_grid.games.bunny.board import BunnyBoard, make_board, parse_bunny  # noqa: E402
from tui_grid.games.bunny.generator import _shape  # noqa: E402
from tui_grid.games.bunny.interpreter import run  # noqa: E402
from tui_grid.games.bunny.solver import solve  # noqa: E402

#: The seed's 12 boards, in the seed's order.
SEED_BOARDS = (
    "doodle-1-line",
    "doodle-2-corner",
    "doodle-3-ring",
    "doodle-4-two-rings",
    "doodle-5-window",
    "doodle-6-halo",
    "huge-open-12x12",
    "huge-big-window",
    "huge-holey-11x11",
    "huge-holey-10x10",
    "huge-lopsided-7x7",
    "huge-lopsided-9x9",
)

DEFAULT_REF = ROOT.parent / "shared" / "reference" / "bunny_ref.c"
_RESULT = re.compile(r"^RESULT k=(\d+) tokens=(\d+) program=(.*) total_time=")


def random_boards(count: int, fraction: float = 0.4) -> list[tuple[str, BunnyBoard]]:
    """`count` boards from the generator's shape maker, sizes cycling 5..11 by 5..11."""
    out = []
    for i in range(count):
        width = 5 + i % 7
        height = 5 + (i * 3 + i // 7) % 7
        squares = max(4, round(width * height * fraction))
        rows = _shape(random.Random(1000 + i), width, height, squares)
        out.append((f"r{i:02d}-{width}x{height}-n{squares}", make_board(rows)))
    return out


def seed_boards(names: list[str]) -> list[tuple[str, BunnyBoard]]:
    return [(name, parse_bunny(read_board_file(ROOT / "boards" / "bunny" / f"{name}.txt"))) for name in names]


def build_reference(source: Path, into: Path) -> Path:
    exe = into / "bunny_ref"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def run_reference(exe: Path, board: BunnyBoard, into: Path, time_limit: float) -> tuple[int | None, float, float]:
    """(tokens or None, wall seconds of the whole process, its CPU seconds)."""
    path = into / "board.txt"
    path.write_text("\n".join(board.rows) + "\n")
    before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([str(exe), str(path), "-C", "2048", "-k", "30", "-t", str(time_limit)], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - before
    for line in done.stdout.splitlines():
        match = _RESULT.match(line)
        if match:
            return int(match.group(2)), seconds, cpu
    return None, seconds, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def loadavg() -> str:
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds allowed to each side per board (default 60)")
    parser.add_argument("--boards", default=",".join(SEED_BOARDS), help="comma-separated seed board names ('' for none)")
    parser.add_argument("--random", type=int, default=24, help="random boards from the generator (default 24)")
    parser.add_argument("--ref", type=Path, default=DEFAULT_REF, help="the C reference source")
    parser.add_argument("--ref-time-limit", type=float, default=600.0, help="seconds allowed to the C reference per board (default 600)")
    parser.add_argument("--pure", action="store_true", help="our pure-Python path only (no compiled kernel)")
    args = parser.parse_args(argv)
    if args.pure:
        kernel.disable()
    boards = seed_boards([n for n in args.boards.split(",") if n]) + random_boards(args.random)

    with tempfile.TemporaryDirectory(prefix="bunny-ref-") as tmp:
        into = Path(tmp)
        exe = build_reference(args.ref, into)
        print(
            f"bunny: ours ({'pure Python' if not kernel.available() else 'Python + compiled kernel'}) vs C reference (gcc -O2, -C 2048) "
            f"- Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs"
        )
        print(f"load average before: {loadavg()}")
        header = (
            f"{'board':<24} {'ours':>4} {'C':>4} {'same':>4} {'ours s':>8} {'C s':>8} {'ratio':>6}"
            f" {'ours cpu':>8} {'C cpu':>8} {'ratio':>6}  program"
        )
        print(header)
        print("-" * len(header))
        total_ours = total_c = cpu_ours = cpu_c = 0.0
        worst = ("", 0.0)
        failures = []
        for name, board in boards:
            started, cpu_started = time.perf_counter(), time.process_time()
            solution = solve(board, args.time_limit)
            ours, ours_cpu = time.perf_counter() - started, time.process_time() - cpu_started
            tokens_c, c_seconds, c_cpu = run_reference(exe, board, into, args.ref_time_limit)
            if solution.program is None or not run(board, solution.program).complete:
                raise SystemExit(f"WRONG: {name}: {solution.program} does not complete the board")
            if not solution.proven_optimal:
                failures.append(f"{name}: not proven")
            same = solution.tokens == tokens_c
            if not same:
                failures.append(f"{name}: ours {solution.tokens} tokens, C {tokens_c}")
            total_ours += ours
            total_c += c_seconds
            cpu_ours += ours_cpu
            cpu_c += c_cpu
            if ours > worst[1]:
                worst = (name, ours)
            print(
                f"{name:<24} {solution.tokens:>4} {tokens_c if tokens_c is not None else '-':>4} {'yes' if same else 'NO':>4}"
                f" {ours:8.3f} {c_seconds:8.3f} {ours / max(c_seconds, 1e-3):6.2f}"
                f" {ours_cpu:8.3f} {c_cpu:8.3f} {ours_cpu / max(c_cpu, 1e-3):6.2f}  {solution.program}",
                flush=True,
            )
        print("-" * len(header))
        print(
            f"{'total':<24} {'':>4} {'':>4} {'':>4} {total_ours:8.2f} {total_c:8.2f} {total_ours / max(total_c, 1e-3):6.2f}"
            f" {cpu_ours:8.2f} {cpu_c:8.2f} {cpu_ours / max(cpu_c, 1e-3):6.2f}"
        )
        print(f"slowest board (ours): {worst[0]} {worst[1]:.2f}s")
        print(f"load average after: {loadavg()}")
        for failure in failures:
            print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
