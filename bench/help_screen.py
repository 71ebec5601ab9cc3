"""CPU time to open, scroll and close each game's help screen, at 80x24 and 160x50: the
help as shipped (its text drawn by one widget, Rich's markdown) against a baseline
measured in the same run, the same text in Textual's Markdown widget (one widget per
block and table cell, as the help screen once had).

Each figure is the median of REPEATS rounds over a game's screen in a running app:
`open` pushes the help and waits for the screen to settle, `scroll` presses down, page
down and end, `close` presses esc. CPU time (time.process_time), so another process on
the machine changes it less than wall time would.

    python bench/help_screen.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import ComposeResult  # noqa: E402
from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import Markdown  # noqa: E402

from tui_grid.games.registry import get_game  # noqa: E402
from tui_grid.ui.app import TuiGridApp  # noqa: E402
from tui_grid.ui.help_screen import HelpScreen  # noqa: E402
from tui_grid.ui.plain import Plain  # noqa: E402
from tui_grid.ui.settings import Settings  # noqa: E402

REPEATS = 5
BOARDS = [("jimmy", "seed-1"), ("bunny", "doodle-4-two-rings"), ("evasion", "standard"), ("tron", "standard"), ("ice", "spiral")]
SIZES = [(80, 24), (160, 50)]


class MarkdownWidgetHelp(HelpScreen):
    """The baseline: the same help text in Textual's Markdown widget."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(self.source)
            yield Plain("esc closes  ·  ↑↓ pgup pgdn scroll", id="help-footer")


async def measure(game: str, board: str | None, size: tuple[int, int], screen_class: type[HelpScreen]) -> tuple[float, float, float]:
    """Median CPU seconds of (open, scroll, close) for one help screen class."""
    loaded = get_game(game).load(board) if board else None
    app = TuiGridApp(game_key=game, loaded=loaded, settings=Settings(animate=False, countdown=0))
    opened, scrolled, closed = [], [], []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if type(app.screen).__name__.endswith("SetupDialog"):
            await pilot.press("enter")  # a match game asks who plays first
            await pilot.pause()
        screen = app.screen
        for _ in range(REPEATS):
            started = time.process_time()
            app.push_screen(screen_class(screen.game, screen.KEYMAP, screen.offers))  # type: ignore[attr-defined]
            await pilot.pause()
            opened.append(time.process_time() - started)
            started = time.process_time()
            await pilot.press("down", "pagedown", "end")
            await pilot.pause()
            scrolled.append(time.process_time() - started)
            started = time.process_time()
            await pilot.press("escape")
            await pilot.pause()
            closed.append(time.process_time() - started)
            assert app.screen is screen
    return statistics.median(opened), statistics.median(scrolled), statistics.median(closed)


async def main() -> None:
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'game':8} {'size':7} | {'open ms':>7} {'base':>6} {'ratio':>5} | {'scroll':>6} {'base':>6} {'ratio':>5} | {'close':>5} {'base':>5}")
    ratios = []
    for game, board in BOARDS:
        for size in SIZES:
            ours = await measure(game, board, size, HelpScreen)
            base = await measure(game, board, size, MarkdownWidgetHelp)
            ratios.append(base[0] / ours[0])
            print(f"{game:8} {size[0]}x{size[1]:<4} | {ours[0] * 1000:7.0f} {base[0] * 1000:6.0f} {base[0] / ours[0]:5.1f} | "
                  f"{ours[1] * 1000:6.0f} {base[1] * 1000:6.0f} {base[1] / ours[1]:5.1f} | {ours[2] * 1000:5.0f} {base[2] * 1000:5.0f}")
    print(f"opening the help: the baseline takes {statistics.median(ratios):.1f} times as long (median over games and sizes)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
