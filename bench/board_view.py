"""Repaint time of a 300x300 board in every zoom, at 80x24 and 200x60: an Ice board, and
an Evasion board in play (hunter, prey and walls after 400 steps of the builtin bots).

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


async def measure_evasion(size: tuple[int, int]) -> list[tuple[str, float, float, int]]:
    """Per zoom: a full repaint just after the walls changed (their caches rebuilt), one after
    a step that moved only the hunter and prey (caches warm), and the walls standing."""
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
            view.show(state)
            await pilot.pause()
            cold = float("inf")
            for _ in range(REPEATS):
                view._rows_for = view._blocks_for = None  # as if a wall had just been built
                view.show(before)
                view.show(state)
                cold = min(cold, repaint(view))
            view.show(before)
            repaint(view)  # the caches for these walls, built once
            view.show(state)
            rows.append((zoom.value, cold, repaint(view), len(state.walls)))
    return rows


def main() -> None:
    print("Ice, 300x300:")
    print(f"{'size':>7} {'zoom':>7} {'rows ms':>9} {'per-cell ms':>12} {'speed-up':>9}")
    for size in ((80, 24), (200, 60)):
        for zoom, ours, base in asyncio.run(measure(size)):
            print(f"{size[0]}x{size[1]:<4} {zoom:>7} {ours * 1000:9.2f} {base * 1000:12.2f} {base / ours:8.1f}x")
    print()
    print("Evasion, 300x300 in play (target: a repaint under 10 ms):")
    print(f"{'size':>7} {'zoom':>7} {'walls':>6} {'after a wall ms':>16} {'after a step ms':>16}")
    for size in ((80, 24), (200, 60)):
        for zoom, cold, warm, walls in asyncio.run(measure_evasion(size)):
            print(f"{size[0]}x{size[1]:<4} {zoom:>7} {walls:6d} {cold * 1000:16.2f} {warm * 1000:16.2f}")
    load = __import__("os").getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
