"""Repaint time of a 300x300 board in every zoom, at 80x24 and 200x60: an Ice board, and
an Evasion board in play (hunter, prey and walls after 400 steps of the builtin bots).

A repaint is what Textual does after `refresh()`: `render_lines` over the whole view, the
board view drawing each line it does not have already. For Ice, `rows` is a full repaint
by the view as shipped (its line cache emptied), `per-cell` the same view forced through
one `cell()` call per cell, and `slide` the repaint after the first slide of play, which
draws only the lines the player left and reached (`lines`). For Evasion, `full` draws
every line (the line cache emptied, as after a resize or a zoom) and `step` is the
repaint after one step of play, which draws only the lines whose rows changed (`lines`):
`show()` marks them dirty and Textual renders just those; all measured in the same run.

    python bench/board_view.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.geometry import Region  # noqa: E402

from tui_grid.games.ice.screen import IceBoardView, IceScreen  # noqa: E402
from tui_grid.games.registry import get_game  # noqa: E402
from tui_grid.ui.app import TuiGridApp  # noqa: E402
from tui_grid.ui.board_view import BoardView, Zoom  # noqa: E402
from tui_grid.ui.settings import Settings  # noqa: E402

REPEATS = 5


def forget_lines(view: BoardView) -> None:
    """Empty the view's line cache (absent before the cache existed)."""
    getattr(view, "_lines", {}).clear()


def repaint(view: BoardView, before: Callable[[], None] = lambda: None) -> float:
    """Seconds for one whole repaint as Textual asks for it (best of REPEATS); `before`
    runs untimed ahead of each (to set up what the repaint sees)."""
    best = float("inf")
    for _ in range(REPEATS):
        before()
        started = time.perf_counter()
        repaint_once(view)
        best = min(best, time.perf_counter() - started)
    return best


def repaint_once(view: BoardView) -> None:
    """Mark the whole view dirty and render it, as Textual's next frame would."""
    view.refresh()
    view.render_lines(Region(0, 0, view.size.width, view.size.height))


async def measure(size: tuple[int, int]) -> list[tuple[str, float, float]]:
    loaded = get_game("ice").load("ice:300x300:m3#seed7")
    app = TuiGridApp(game_key="ice", loaded=loaded, settings=Settings(animate=False))
    rows = []
    async with app.run_test(size=size) as pilot:
        screen: IceScreen = app.screen
        view: IceBoardView = screen.view
        start, moved = first_slide(screen.engine.board)
        for zoom in (Zoom.WIDE, Zoom.NARROW, Zoom.HALF, Zoom.WHOLE):
            view.zoom_choice = zoom
            await pilot.pause()
            ours = repaint(view, lambda: forget_lines(view))
            view.row_cells = lambda row, first, last: BoardView.row_cells(view, row, first, last)  # per-cell path
            base = repaint(view, lambda: forget_lines(view))
            del view.row_cells
            step, lines = await step_repaint(pilot, screen, start, moved)
            rows.append((zoom.value, ours, base, step, lines))
    return rows


def first_slide(board):  # type: ignore[no-untyped-def]
    """The start, and where the first legal slide from it ends (a real move of play)."""
    from tui_grid.core.geometry import Direction
    from tui_grid.games.ice.rules import initial_state, play

    start = initial_state(board)
    return start, next(after for d in Direction if (after := play(board, start, d)) is not None)


def evasion_in_play():  # type: ignore[no-untyped-def]
    """An Evasion state after 400 steps of the builtin hunter and prey (walls standing)."""
    from tui_grid.core.agents import Ask
    from tui_grid.games.evasion.definition import RoleAgent
    from tui_grid.games.evasion.engine import EvasionEngine
    from tui_grid.games.evasion.rules import Config

    engine = EvasionEngine(Config(n=10, m=5))
    agents = [RoleAgent("builtin", seed=1), RoleAgent("builtin", seed=2)]
    for seat, agent in enumerate(agents):
        agent.start(engine, seat)
    state = engine.initial_state()
    previous = state
    for _ in range(400):
        seats = engine.acting_seats(state)
        if not seats:
            break
        previous, state = state, engine.step(state, {seat: agents[seat].act(Ask(engine, state, seat)) for seat in seats}).state
    return engine, previous, state


async def measure_evasion(size: tuple[int, int]) -> list[tuple[str, float, float, int | None, int]]:
    """Per zoom: a repaint drawing every line, and one after a step of play (the state
    before it drawn by Textual, the focus followed as the screen does), with how many
    lines that step drew."""
    from tui_grid.games.evasion.screen import EvasionScreen

    engine, before, state = evasion_in_play()
    loaded = get_game("evasion").load("evasion:N10:M5")
    app = TuiGridApp(game_key="evasion", loaded=loaded, settings=Settings(animate=False, countdown=0))
    rows = []
    async with app.run_test(size=size) as pilot:
        screen: EvasionScreen = app.screen
        if screen.feed is not None:
            screen.feed.pause(True)
        view = screen.view
        view.use(engine, state)
        for zoom in (Zoom.WIDE, Zoom.NARROW, Zoom.HALF, Zoom.WHOLE):
            view.zoom_choice = zoom
            view.show(state, focus=screen.focus_of(state))
            await pilot.pause()
            full = repaint(view, lambda: forget_lines(view))
            step, lines = await step_repaint(pilot, screen, before, state)
            rows.append((zoom.value, full, step, lines, len(state.walls)))
    return rows


async def step_repaint(pilot, screen, before, state) -> tuple[float, int | None]:  # type: ignore[no-untyped-def]
    """Seconds for `show()` of a step and the repaint after it (best of REPEATS), and the
    lines it drew (None before the line cache: all)."""
    view = screen.view
    best, lines = float("inf"), None
    for _ in range(REPEATS):
        view.show(before, focus=screen.focus_of(before))
        await pilot.pause()  # scrolled to the focus and drawn
        drawn = getattr(view, "lines_drawn", None)
        started = time.perf_counter()
        view.show(state, focus=screen.focus_of(state))  # marks dirty what changed (before: all)
        view.render_lines(Region(0, 0, view.size.width, view.size.height))
        best = min(best, time.perf_counter() - started)
        lines = None if drawn is None else view.lines_drawn - drawn
    return best, lines


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    print(f"load average at the start {load()} ({os.cpu_count()} cores)")
    print("Ice, 300x300:")
    print(f"{'size':>7} {'zoom':>7} {'rows ms':>9} {'per-cell ms':>12} {'speed-up':>9} {'slide ms':>9} {'lines':>6}")
    for size in ((80, 24), (200, 60)):
        for zoom, ours, base, step, lines in asyncio.run(measure(size)):
            drawn = "all" if lines is None else str(lines)
            print(f"{size[0]}x{size[1]:<4} {zoom:>7} {ours * 1000:9.2f} {base * 1000:12.2f} {base / ours:8.1f}x {step * 1000:9.2f} {drawn:>6}")
    print()
    print("Evasion, 300x300 in play (target: a repaint under 10 ms):")
    print(f"{'size':>7} {'zoom':>7} {'walls':>6} {'full ms':>9} {'step ms':>9} {'lines':>6} {'speed-up':>9}")
    for size in ((80, 24), (200, 60)):
        for zoom, full, step, lines, walls in asyncio.run(measure_evasion(size)):
            drawn = "all" if lines is None else str(lines)
            print(f"{size[0]}x{size[1]:<4} {zoom:>7} {walls:6d} {full * 1000:9.2f} {step * 1000:9.2f} {drawn:>6} {full / step:8.1f}x")
    print(f"load average at the end {load()}")


if __name__ == "__main__":
    main()
