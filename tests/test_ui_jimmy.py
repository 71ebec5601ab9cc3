from __future__ import annotations

from tests.conftest import make_app, settle, status, until, wait_idle
from tui_grid.core.geometry import Direction
from tui_grid.games.jimmy.rules import Outcome
from tui_grid.games.jimmy.screen import JimmyScreen


async def test_play_seed_case_to_escaped() -> None:
    app = make_app("jimmy", "seed-1")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: JimmyScreen = app.screen
        await pilot.press("right")  # toward a ghost's next cell? either refused or played
        await pilot.press("u")
        await pilot.press("left", "up", "left")
        assert screen.state.outcome is Outcome.ESCAPED
        assert "Escaped in 3 moves" in status(app)


async def test_refused_moves_say_why_and_trail_blocks_return() -> None:
    app = make_app("jimmy", "seed-1")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: JimmyScreen = app.screen
        await pilot.press("left")
        await pilot.press("right")
        assert screen.state.moves == 1 and "been there" in screen.message


async def test_caught_board_and_no_escape_hint() -> None:
    app = make_app("jimmy", "seed-9")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: JimmyScreen = app.screen
        await pilot.press("h")
        await settle(pilot)
        assert screen.message.startswith("No escape from here")
        assert screen.hint is not None and screen.hint.marks
        await pilot.press("s")
        await settle(pilot)
        assert screen.state.outcome is Outcome.CAUGHT
        assert status(app).startswith("Caught")
        await pilot.press("u")
        assert screen.state.outcome is Outcome.PLAYING


async def test_hint_and_solve_on_an_escapable_board() -> None:
    app = make_app("jimmy", "seed-4")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: JimmyScreen = app.screen
        await pilot.press("h")
        await settle(pilot)
        assert "escape still exists" in screen.message
        await pilot.press("s")
        await settle(pilot)
        assert screen.state.outcome is Outcome.ESCAPED


async def test_watch_says_it_plays_the_longest_line_when_there_is_no_escape() -> None:
    app = make_app("jimmy", "seed-10", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await wait_idle(pilot)
        assert app.screen.watching and "longest line" in app.screen.message
        await pilot.press("w")


async def test_coordinates_toggle_and_a_refusal_marks_its_cell() -> None:
    app = make_app("jimmy", "seed-3")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("c")
        assert screen.view.show_coords and " 1 " in "".join(screen.view.render_line(y).text for y in range(4))
        await pilot.press("left", "right")  # back onto his own trail: refused
        assert "has been there already" in screen.message
        assert screen.view.marked == {tuple(screen.state.jimmy.step(Direction.RIGHT))}
        await pilot.press("c")
        assert not screen.view.show_coords


async def test_quitting_while_a_hint_runs_cancels_it_saves_and_exits_cleanly(tmp_path, monkeypatch) -> None:
    """q during a long hint cancels it, autosaves the game and exits with code 0."""
    from tui_grid.core import saves

    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path))
    app = make_app("jimmy", "jimmy:60x60:g4:any#seed3")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: JimmyScreen = app.screen
        before = screen.state
        for key in ("up", "down", "left", "right"):
            await pilot.press(key)
            if screen.state != before:
                break
        assert screen.session.log, "a first move is played"
        await pilot.press("h")
        assert screen.solving or screen.quiet_task_running  # the answer, or the line improving
        loaded, game = screen.loaded, screen.game
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert saves.pending(game, loaded) is not None  # the move was kept


async def test_a_board_caught_at_the_start_shows_the_ghosts_and_why() -> None:
    """A board caught before the first move shows the ghosts where they start, the X, and why."""
    app = make_app("jimmy", "seed-5")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen: JimmyScreen = app.screen
        assert screen.session.over
        board = screen.board
        for ghost in board.ghosts:
            assert screen.view.cell(*ghost)[1] == "ghost"  # where they start
        assert screen.view.cell(*board.jimmy) == ("X ", "doom")
        assert "before the first move" in screen.message and "row 2, col 3" in screen.message


async def test_the_no_escape_hint_answers_at_once_then_improves_its_line(monkeypatch) -> None:
    """On jimmy:60x60:g4:any#seed3 "no escape" is known at once, long before the longest
    line: the answer and the best line so far come at once, and the line improves in the
    background within a stated budget (here bounded in nodes, so the test does not depend
    on the machine's speed)."""
    import tui_grid.games.jimmy.screen as jimmy_screen

    monkeypatch.setattr(jimmy_screen, "QUICK_LINE_SECONDS", 0.0)
    monkeypatch.setattr(jimmy_screen, "ANYTIME_NODES", 3000)
    app = make_app("jimmy", "jimmy:60x60:g4:any#seed3")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        shown: list[str] = []
        original = screen.show_hint

        def record(state, hint):  # type: ignore[no-untyped-def]
            shown.append(hint.message)
            original(state, hint)

        monkeypatch.setattr(screen, "show_hint", record)
        await pilot.press("h")
        # The answer's worker starts the longer line's as it ends: wait for the last word
        # rather than for no worker to run (there is a moment between the two with none).
        await until(pilot, lambda: bool(shown) and shown[-1].endswith(")"), limit=60)
        assert shown[0].startswith("No escape from here.") and "Searching for a longer line (up to 20 s)" in shown[0]
        assert shown[-1].endswith("(the longest found in 20 s)") and screen.hint is not None and screen.hint.marks
        lengths = [int(m.split("lasts ")[1].split(" move")[0]) for m in shown]
        assert lengths == sorted(lengths) and lengths[-1] > lengths[0]  # it only ever gets longer
