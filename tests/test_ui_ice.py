from __future__ import annotations

import threading

from tests.conftest import make_app, settle, status, until, wait_idle
from tui_grid.games.ice.screen import IceScreen


async def test_play_spiral_by_keys_then_undo_hint_and_solve() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        await pilot.press("left")  # blocked at the start: refused, not counted
        assert screen.state.moves == 0 and "Can't slide left" in screen.message
        await pilot.press("up", "right", "down", "left", "up", "right")
        assert "Solved in 6 moves" in status(app)
        await pilot.press("down")  # no moves after the win
        assert screen.state.moves == 6
        await pilot.press("u")
        assert screen.state.moves == 5 and "Solved" not in status(app)
        await pilot.press("h")
        await settle(pilot)
        assert screen.hint is not None and "slide right" in screen.hint.message
        assert any(kind == "target" for _, kind in screen.hint.marks.values())
        await pilot.press("r")
        assert screen.state.moves == 0
        await pilot.press("s")
        await settle(pilot)
        assert "Solved in 6 moves" in status(app)
        assert screen.state.distance == 16
        await pilot.press("u")  # the whole solve is one undo step
        assert screen.state.moves == 0
        await pilot.press("y")
        assert screen.state.moves == 6


async def test_hint_says_when_the_exit_cannot_be_reached() -> None:
    app = make_app("ice", "kata-maze-6x6")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        assert "cannot be reached" in app.screen.message


async def test_watch_plays_one_undoable_move_per_step() -> None:
    app = make_app("ice", "spiral", speed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        hold = threading.Event()  # the solver waits until the watch is paused: no race with the beat
        plan = screen.table.planner
        screen.table.planner = lambda engine, state, seat, control: (hold.wait(5), plan(engine, state, seat, control))[1]
        await pilot.press("w", "space")  # paused while the first move is being planned
        assert "watching (paused)" in status(app)
        hold.set()
        assert await until(pilot, lambda: screen.state.moves == 1)  # the move under way is played
        await wait_idle(pilot)
        for _ in range(5):
            await pilot.pause(0.06)  # longer than a beat at speed 9
        assert screen.state.moves == 1
        await pilot.press("full_stop")  # . in a paused watch plays one move
        assert await until(pilot, lambda: screen.state.moves == 2)
        await wait_idle(pilot)
        for _ in range(5):
            await pilot.pause(0.06)
        assert screen.state.moves == 2 and screen.watching and "watching (paused)" in status(app)
        await pilot.press("space")
        assert await until(pilot, lambda: screen.session.over)
        assert screen.state.moves == 6 and "Solved in 6 moves" in status(app)
        assert await until(pilot, lambda: not screen.watching)
        await pilot.press("u")
        assert screen.state.moves == 5


async def test_slides_animate_tile_by_tile() -> None:
    app = make_app("ice", "spiral", animate=True, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        start = screen.shown.pos
        await pilot.press("up")
        assert screen.state.pos != start  # the rules already moved...
        assert screen.animating  # ...while the screen still shows the slide in progress
        shown = [screen.shown.pos]
        while screen.animating:
            await pilot.pause(0.05)
            shown.append(screen.shown.pos)
        assert shown[-1] == screen.state.pos
        assert len(set(shown)) > 1


async def test_a_solved_board_says_whether_the_route_was_optimal() -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        await pilot.press("up", "right", "down", "left", "up", "right")
        await wait_idle(pilot)
        assert screen.message.startswith("Optimal")
        await pilot.press("u", "u", "u", "u", "u", "u")
        await pilot.press("up", "right", "down", "left", "up", "left", "right")  # a longer way round
        await wait_idle(pilot)
        assert screen.session.over and screen.state.moves == 7
        assert "optimal route takes 6 moves, distance 16 (urdlur)" in screen.message


async def test_the_verdict_waits_for_the_last_slide_to_be_shown() -> None:
    """The verdict ("Optimal: …") is said only once the solve's last slide reaches the exit
    on screen, not while the slides still play."""
    app = make_app("ice", "spiral", animate=True, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        await pilot.press("s", "space")  # solve, and hold the slides where they are
        await app.workers.wait_for_complete()  # the verdict's solve is done...
        await pilot.pause()
        assert screen.session.over and screen.animating and screen.shown != screen.state  # ...the slides are not
        assert "no route has fewer" not in screen.message
        await pilot.press("space")
        while screen.animating:
            await pilot.pause(0.05)
        assert screen.message.startswith("Optimal: no route has fewer moves")


async def test_watching_a_board_with_no_way_out_says_so() -> None:
    app = make_app("ice", "kata-maze-6x6")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: IceScreen = app.screen
        await pilot.press("w")
        await wait_idle(pilot)
        assert not screen.watching and "cannot be reached" in screen.message
        assert "u undoes" not in screen.message  # nothing to undo yet


async def test_a_move_that_loses_the_exit_is_said_at_once() -> None:
    """A move that makes the exit unreachable is said at once, without h; undo clears it."""
    app = make_app("ice", "one-way")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("up")
        await wait_idle(pilot)
        await pilot.pause()
        assert "can no longer be reached" in str(screen.query_one("#message").content)
        await pilot.press("u")
        await wait_idle(pilot)
        assert "can no longer be reached" not in str(screen.query_one("#message").content)
