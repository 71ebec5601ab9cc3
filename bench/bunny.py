"""Benchmark: the bunny solver on the 12 seed boards, against a plain baseline.

Run from the repository root:  python bench/bunny.py  [--time-limit S] [--budget S] [--boards a,b]

For each board: the published token count (the best published answer, 67 in total),
ours, the seconds our solver took (its time limit is `--time-limit`, 60 by default),
whether it proved its answer optimal, and the plain baseline (every program by size,
no pruning or caching, counts 2..20) measured in the same run and stopped after
`--budget` seconds (shown as ">Ns"; its ratio is then a lower bound). Every program
found is checked with the step-by-step interpreter.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.boardfile import read_board_file  # noqa: E402
from tui_grid.core.control import Cancelled, SearchControl  # noqa: E402
from tui_grid.games.bunny.baseline import baseline_solve  # noqa: E402
from tui_grid.games.bunny.board import parse_bunny  # noqa: E402
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


class Budget(SearchControl):
    """Stops a search with Cancelled once `seconds` have passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(every=1024)
        self.deadline = time.perf_counter() + seconds

    def checkpoint(self) -> None:
        if time.perf_counter() > self.deadline:
            raise Cancelled()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds allowed to our solver per board (default 60)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds allowed to the baseline per board (default 10)")
    parser.add_argument("--boards", default=",".join(SEED_BOARDS), help="comma-separated board names")
    args = parser.parse_args(argv)
    names = [name for name in args.boards.split(",") if name]

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"bunny solver benchmark — Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {load:.2f}, baseline budget {args.budget:g}s"
    )
    header = f"{'board':<20} {'published':>9} {'ours':>5} {'seconds':>8} {'proven':>6}  {'baseline':>9} {'ratio':>7}  program"
    print(header)
    print("-" * len(header))
    totals = {"published": 0, "ours": 0, "seconds": 0.0, "proven": 0, "base": 0.0}
    capped = False
    for name in names:
        text = read_board_file(ROOT / "boards" / "bunny" / f"{name}.txt")
        board = parse_bunny(text)
        published = int(text.meta.get("published", "0"))
        solution = solve(board, args.time_limit)
        assert solution.program is not None
        if not run(board, solution.program).complete:
            raise SystemExit(f"WRONG: {name}: {solution.program} does not complete the board")
        started = time.perf_counter()
        try:
            base = baseline_solve(board, Budget(args.budget))
            base_time = time.perf_counter() - started
            if base is None or not run(board, base).complete:
                raise SystemExit(f"baseline failed on {name}")
            base_text = f"{base_time:8.2f}s" + ("" if base.tokens == solution.tokens else f" ({base.tokens})")
            ratio = f"{base_time / solution.seconds:6.0f}x" if solution.seconds >= 1e-3 else "-"
        except Cancelled:
            base_time = args.budget
            capped = True
            base_text = f">{args.budget:g}s"
            ratio = f">{args.budget / max(solution.seconds, 1e-4):.0f}x"
        totals["published"] += published
        totals["ours"] += solution.tokens or 0
        totals["seconds"] += solution.seconds
        totals["proven"] += solution.proven_optimal
        totals["base"] += base_time
        print(
            f"{name:<20} {published:>9} {solution.tokens:>5} {solution.seconds:7.2f}s {'yes' if solution.proven_optimal else 'NO':>6}"
            f"  {base_text:>9} {ratio:>7}  {solution.program}",
            flush=True,
        )
    print("-" * len(header))
    print(
        f"{'total':<20} {totals['published']:>9} {totals['ours']:>5} {totals['seconds']:7.2f}s {totals['proven']:>3}/{len(names):<2}"
        f"  {'>=' if capped else ''}{totals['base']:.1f}s {totals['base'] / max(totals['seconds'], 1e-4):5.0f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
