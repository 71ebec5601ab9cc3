"""Repaint time of a 300x300 board in every zoom, at 80x24 and 200x60.

`rows` is the board view as shipped (a game hands over whole rows, styles cached);
`per-cell` is the same view forced through one `cell()` call per cell, as every game
drew before, measured in the same run. A repaint renders every visible line once.

    python bench/board_view.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_grid.games.ice.screen import IceBoardView, IceScreen  # noqa: E402
from tui_grid.games.registry import get_game  # noqa: E402
from tui_grid.ui.app import TuiGridApp  # noqa: E402
from tui_grid.ui.board_view import BoardView, Zoom  # noqa: E402
from tui_grid.ui.settings import Settings  # noqa: E402

REPEATS = 5


def repaint(view: BoardView) -> float:
    """Seconds for one full repaint (best of REPEATS)."""
    best = float("inf")
    height = view.scrollable_content_region.height
    for _ in range(REPEATS):
        view._styles.clear()
        view._pair_styles.clear()
        started = time.perf_counter()
        for y in range(height):
            view.render_line(y)
        best = min(best, time.perf_counter() - started)
    return best


async def measure(size: tuple[int, int]) -> list[tuple[str, float, float]]:
    loaded = get_game("ice").load("ice:300x300:m3#seed7")
    app = TuiGridApp(game_key="ice", loaded=loaded, settings=Settings(animate=False))
    rows = []
    async with app.run_test(size=size) as pilot:
        screen: IceScreen = app.screen
        view: IceBoardView = screen.view
        for zoom in (Zoom.WIDE, Zoom.NARROW, Zoom.HALF, Zoom.WHOLE):
            view.zoom_choice = zoom
            await pilot.pause()
            ours = repaint(view)
            view.row_cells = lambda row, first, last: BoardView.row_cells(view, row, first, last)  # per-cell path
            base = repaint(view)
            del view.row_cells
            rows.append((zoom.value, ours, base))
    return rows


def main() -> None:
    print(f"{'size':>7} {'zoom':>7} {'rows ms':>9} {'per-cell ms':>12} {'speed-up':>9}")
    for size in ((80, 24), (200, 60)):
        for zoom, ours, base in asyncio.run(measure(size)):
            print(f"{size[0]}x{size[1]:<4} {zoom:>7} {ours * 1000:9.2f} {base * 1000:12.2f} {base / ours:8.1f}x")


if __name__ == "__main__":
    main()
