"""Does progress reporting slow the work? A hint on a 1000x1000 ice map in the app
(worker thread, progress read by a UI timer) against the same solve headless, and against
the whole `tui-grid solve` process, in one run.

    python bench/progress.py
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_grid.core.control import SearchControl  # noqa: E402
from tui_grid.games.ice.solver import solve  # noqa: E402
from tui_grid.games.registry import get_game  # noqa: E402
from tui_grid.ui.app import TuiGridApp  # noqa: E402
from tui_grid.ui.settings import Settings  # noqa: E402

GAME_ID = "ice:1000x1000:m40#seed1"
REPEATS = 3


async def in_app(loaded) -> float:
    app = TuiGridApp(game_key="ice", loaded=loaded, settings=Settings(animate=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        best = float("inf")
        for _ in range(REPEATS):
            screen.hint = None
            started = time.perf_counter()
            await pilot.press("h")
            while screen.hint is None:
                await asyncio.sleep(0.005)
            best = min(best, time.perf_counter() - started)
        return best


def main() -> None:
    game = get_game("ice")
    loaded = game.load(GAME_ID)
    board = loaded.board
    plain = min(_timed(lambda: solve(board)) for _ in range(REPEATS))
    reported = min(_timed(lambda: solve(board, control=SearchControl(on_progress=lambda n, t: None, every=2048))) for _ in range(REPEATS))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.txt"
        path.write_text(game.generate_file(GAME_ID))
        process = min(
            _timed(lambda: subprocess.run([sys.executable, "-m", "tui_grid", "solve", "ice", str(path), "--json"], check=True, capture_output=True))
            for _ in range(REPEATS)
        )
    app_time = asyncio.run(in_app(loaded))
    print(f"{'what':44} {'seconds':>8} {'vs headless':>12}")
    for what, seconds in (
        ("headless solve, no progress", plain),
        ("headless solve, progress every 2048 nodes", reported),
        ("whole `tui-grid solve` process", process),
        ("hint in the app (worker + UI timer)", app_time),
    ):
        print(f"{what:44} {seconds:8.3f} {seconds / plain:11.2f}x")
    print(f"target: the app within 1.3x of the headless `tui-grid solve` process: {app_time / process:.2f}x here "
          f"({app_time / plain:.2f}x of the bare in-process solve)")


def _timed(task) -> float:
    started = time.perf_counter()
    task()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
