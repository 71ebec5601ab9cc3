"""Benchmark: the ice solver against the textbook baseline on big deterministic maps.

Run from the repository root:  python bench/ice.py  [--budget SECONDS] [--sizes 100,200,...]

Maps are made from fixed seeds, so every run times the same maps:
- random: 20% obstacles, 5% rough tiles;
- open:   mostly ice, 2% obstacles and 0.5% rough tiles.
S goes near the top-left corner and E near the bottom-right one; the seed is bumped
until E is reachable, so every row times a full solve (the check is not timed).
The baseline runs in the same process and is stopped after `--budget` seconds
(shown as ">Ns"). "ours" includes building the solver's lane strings.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_grid.core.control import Cancelled, SearchControl  # noqa: E402
from tui_grid.core.geometry import Pos  # noqa: E402
from tui_grid.games.ice.baseline import bfs_baseline  # noqa: E402
from tui_grid.games.ice.board import IceBoard  # noqa: E402
from tui_grid.games.ice.solver import solve  # noqa: E402

KINDS = {"random": (0.20, 0.05), "open": (0.02, 0.005)}
SIZES = (100, 200, 500, 1000, 2000)
SEED = 2024


class Budget(SearchControl):
    """Stops a search with Cancelled once `seconds` have passed (checked every 4096 nodes)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(every=4096)
        self.deadline = time.perf_counter() + seconds

    def checkpoint(self) -> None:
        if time.perf_counter() > self.deadline:
            raise Cancelled()


def make_map(size: int, kind: str, seed: int) -> IceBoard:
    obstacles, rough = KINDS[kind]
    rng = random.Random(seed)
    rows = []
    for _ in range(size):
        line = []
        for _ in range(size):
            u = rng.random()
            line.append("#" if u < obstacles else "x" if u < obstacles + rough else " ")
        rows.append(line)
    corner = max(1, size // 10)
    start = Pos(rng.randrange(corner), rng.randrange(corner))
    end = Pos(size - 1 - rng.randrange(corner), size - 1 - rng.randrange(corner))
    rows[start.row][start.col] = "S"
    rows[end.row][end.col] = "E"
    return IceBoard(size, size, tuple("".join(line) for line in rows), start, end)


def solvable_map(size: int, kind: str) -> IceBoard:
    seed = SEED * 1000 + size * 10 + (kind == "open")
    while True:
        board = make_map(size, kind, seed)
        if solve(board) is not None:
            return replace(board)  # a fresh copy: no cached lanes from the check
        seed += 7919


def timed(fn):
    started = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=30.0, help="seconds allowed to each baseline run (default 30)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="comma-separated map sizes")
    args = parser.parse_args(argv)
    sizes = [int(text) for text in args.sizes.split(",") if text]

    print(f"ice solver benchmark — Python {platform.python_version()} on {platform.machine()}, baseline budget {args.budget:g}s")
    header = f"{'size':>10}  {'kind':<6}  {'ours':>8}  {'baseline':>9}  {'ratio':>7}  {'moves':>5}  {'distance':>8}"
    print(header)
    print("-" * len(header))
    total_started = time.perf_counter()
    for size in sizes:
        for kind in KINDS:
            board = solvable_map(size, kind)
            ours, ours_time = timed(lambda: solve(board))
            try:
                base, base_time = timed(lambda: bfs_baseline(board, Budget(args.budget)))
                if (base.moves, base.distance) != (ours.moves, ours.distance):
                    raise SystemExit(f"MISMATCH at {size} {kind}: ours {ours}, baseline {base}")
                base_text, ratio_text = f"{base_time:8.3f}s", f"{base_time / ours_time:6.1f}x"
            except Cancelled:
                base_text, ratio_text = f"{'>' + format(args.budget, 'g') + 's':>9}", f"{'>' + format(args.budget / ours_time, '.0f') + 'x':>7}"
            print(
                f"{f'{size}x{size}':>10}  {kind:<6}  {ours_time:7.3f}s  {base_text:>9}  {ratio_text:>7}  {ours.moves:>5}  {ours.distance:>8}",
                flush=True,
            )
    print(f"total {time.perf_counter() - total_started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
