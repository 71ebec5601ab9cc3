"""What Tron's match screen says and keeps: the round's verdict stays past the next key,
refusals are said once in the message line rather than as toasts, the setup dialog moves
by arrows and checks the bots' time only when a bot plays, program seats are named by
their commands, and q asks before ending a match."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from tests.conftest import make_app, status, until, wait_idle
from tests.test_ui_tron import data_dir, message, remember, start, step  # noqa: F401 (data_dir: a fixture)
from tui_grid.games.tron.screen import TronScreen
from tui_grid.games.tron.setup_dialog import TronSetupDialog
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.key_bar import KeyBar


async def crash_into_the_top_wall(pilot, screen: TronScreen) -> None:  # type: ignore[no-untyped-def]
    """Drive the human's red cycle straight up until the round ends."""
    await step(pilot, "up")
    for _ in range(20):
        if screen.session.over:
            return
        await step(pilot)


async def test_the_verdict_stays_and_refusals_do_not_pile_up(data_dir) -> None:  # noqa: F811
    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("space")  # the clock runs again: the match ends unpaused
        await crash_into_the_top_wall(pilot, screen)
        assert screen.match.finished
        verdict = message(app).splitlines()[0]
        assert verdict.startswith("Round 1: red (you) crashed into a wall")
        await pilot.press("space")  # nothing to pause on a finished match
        assert "PAUSED" not in status(app)
        assert message(app).splitlines()[0] == verdict and "The match is over" in message(app)
        assert "Paused" not in message(app)
        await pilot.press("z")
        assert message(app).splitlines()[0] == verdict and "Zoom:" in message(app)
        await pilot.press("up", "up", "left", "down")
        assert message(app) == f"{verdict}\nThe match is over: {screen.score_text()}. n: new match."
        assert not app._notifications  # said once in the message line, no toasts over the board
        labels = {label for _, label in screen.query_one(KeyBar).items}
        assert "Pause" not in labels and "Step" not in labels and "New" in labels  # no clock left to steer


async def test_space_between_rounds_holds_the_next_round_and_keeps_the_verdict(data_dir) -> None:  # noqa: F811
    remember(data_dir, players=["human", "easy"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await crash_into_the_top_wall(pilot, screen)
        verdict = message(app).splitlines()[0]
        assert screen.paused  # still held from start(): space lets the next round run
        await pilot.press("space")
        assert not screen.paused and message(app).startswith(verdict) and "Paused: ." not in message(app)
        await pilot.press("space")
        assert screen.paused and message(app) == f"{verdict}\nHeld: the next round starts paused; space lets it run."


async def test_the_setup_dialog_focuses_the_first_choice_and_moves_by_arrows(data_dir) -> None:  # noqa: F811
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TronSetupDialog)
        assert dialog.focused is dialog.query_one("#kind-0", Select)
        await pilot.press("down")  # a list opens on down
        assert dialog.query_one("#kind-0", Select).expanded
        await pilot.press("escape")
        dialog.query_one("#rounds").focus()
        await pilot.press("down")  # a field with no use for down passes to the next
        assert dialog.focused is dialog.query_one("#speed")
        await pilot.press("up")
        assert dialog.focused is dialog.query_one("#rounds")


async def test_the_bots_time_is_checked_only_when_a_bot_plays(data_dir) -> None:  # noqa: F811
    remember(data_dir, players=["human", "human"], rounds=1, time_ms=250)
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        field = dialog.query_one("#time-ms", Input)
        assert field.disabled  # nobody it applies to
        field.value = "abc"
        dialog.query_one("#kind-1", Select).value = "easy"
        await pilot.pause()
        assert not field.disabled
        await pilot.click("#start")
        assert "bot ms/move must be a whole number" in str(dialog.query_one("#error").content)
        dialog.query_one("#kind-1", Select).value = "human"
        await pilot.pause()
        # A button ignores clicks while it still shows the last one (Textual's -active, 0.2 s).
        assert await until(pilot, lambda: not dialog.query_one("#start").has_class("-active"))
        await pilot.click("#start")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TronScreen) and screen.players == ("human", "human") and screen.setup.time_ms == 250


async def test_the_command_hint_fits_at_80x24(data_dir) -> None:  # noqa: F811
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#kind-1", Select).value = "cmd"
        await pilot.pause()
        field = app.screen.query_one("#command-1", Input)
        assert field.display and field.value == ""
        assert len(field.placeholder) <= field.content_region.width


@pytest.mark.parametrize(
    ("command", "name"),
    [("[red]nosuchprog[/red]", "[red]nosuchprog[/red]"), ("sh -c 'echo UP; sleep 9'", "sh -c 'echo UP; sleep 9'")],
)
async def test_a_program_seat_is_named_by_its_command(data_dir, command: str, name: str) -> None:  # noqa: F811
    remember(data_dir, players=["easy", f"cmd:{command}"], rounds=1)
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, TronScreen)
        assert f"G {name}" in str(screen.query_one("#title").content)
        assert f"G green: {name}" in str(screen.query_one("#legend").content)
        if command.startswith("[red]"):
            assert await until(pilot, lambda: screen.session.over)
            assert f"green ({name}) forfeits: could not start '{command}': No such file or directory." in message(app)


async def test_q_in_a_match_asks_first(data_dir) -> None:  # noqa: F811
    remember(data_dir, players=["human", "easy"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("space")  # running
        await wait_idle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog) and screen.paused  # the clock waits for the answer
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and app.is_running and not screen.paused
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running


async def test_q_during_the_countdown_holds_it_until_answered(data_dir, monkeypatch) -> None:  # noqa: F811
    """q during the countdown holds it while the question is asked, so the round never
    starts behind the question; esc brings the countdown back from 3."""
    from tui_grid.ui.match_screen import MatchScreen

    monkeypatch.setattr(MatchScreen, "COUNTDOWN_BEAT", 3600.0)  # counted by hand
    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", countdown=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TronScreen) and screen.counting_down
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog) and not screen.counting_down and screen.paused
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.counting_down and "Get ready: 3" in message(app)


async def test_the_zoom_stays_from_a_rounds_play_to_its_end_at_80x24(data_dir) -> None:  # noqa: F811
    """At 80x24 the verdict's longer message takes lines from the board, and the board
    keeps its zoom through the round's end and into the next round. Two easy bots meet
    head-on on the standard board: a draw, the longest verdict."""
    remember(data_dir, players=["easy", "easy"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        view = screen.view
        playing = {view.zoom}
        height = view.size.height
        for _ in range(40):
            if screen.session.over:
                break
            await step(pilot)
            playing.add(view.zoom)
        assert screen.session.over and "A draw" in message(app)
        assert view.size.height < height  # the verdict took lines from the board...
        assert playing == {view.zoom}  # ...and the zoom stayed
        await pilot.press("enter")  # the next round, paused at its start
        await pilot.pause()
        await step(pilot)
        assert screen.match.round_index == 1 and playing == {view.zoom}


async def test_keys_pressed_during_the_countdown_are_one_intention_at_go(data_dir, monkeypatch) -> None:  # noqa: F811
    """Up Right Right Down Down Left while waiting for Go! is not played a key a tick into
    the wall: the clock starts with the last key as the one turn queued."""
    from tui_grid.ui.match_screen import MatchScreen

    monkeypatch.setattr(MatchScreen, "COUNTDOWN_BEAT", 3600.0)  # counted by hand
    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", countdown=3, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TronScreen) and screen.counting_down
        await pilot.press("up", "right", "right", "down", "down", "left")
        seat = screen.match.seating.index(0)
        human = screen.session.agents[seat]
        assert len(human.queued) > 1  # queued while waiting
        for _ in range(3):
            screen.conductor.beat()
        assert not screen.counting_down and len(human.queued) <= 1  # Go!: the last intention at most


async def test_keys_pressed_while_paused_are_one_intention_at_each_step(data_dir) -> None:  # noqa: F811
    """Paused, Up then Right then `.` plays Right once, not Up then Right a tick each: a
    step is a release for one tick, as space is."""
    from tui_grid.core.geometry import Direction

    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        seat = screen.match.seating.index(0)
        before = screen.state
        await pilot.press("up", "right")
        assert len(screen.session.agents[seat].queued) == 2  # both kept while held
        await step(pilot)
        after = screen.state
        assert after.headings[seat] is Direction.RIGHT and after.heads[seat] == before.heads[seat].step(Direction.RIGHT)
        assert screen.session.agents[seat].queued == ()
        await step(pilot)
        assert screen.state.heads[seat] == after.heads[seat].step(Direction.RIGHT)  # no Up left over


async def test_space_after_the_match_keeps_its_verdict_on_screen(data_dir) -> None:  # noqa: F811
    remember(data_dir, players=["easy", "medium"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        for _ in range(200):
            if screen.session.over:
                break
            await step(pilot)
        assert screen.match.finished
        verdict = app.screen.game.match_verdict(screen.match.score)[1]
        await pilot.press("space")
        assert verdict in message(app) and "its clock has stopped" in message(app)
