"""The Tron arena in the app: the setup dialog's cycles and player rows, two humans and
four bots on one keyboard (each human's keyset steers their own cycle whatever seat it
sits in), the legend and status of six, and snapshots at 80x24 and 160x50."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Select

from tests.conftest import make_app, status, until, wait_idle
from tests.test_ui_tron import data_dir, remember, start, step  # noqa: F401  (data_dir: the same autouse fixture)
from tui_grid.core.geometry import Direction
from tui_grid.games.tron.screen import TronScreen
from tui_grid.games.tron.setup_dialog import SETUP_FILE, TronSetupDialog
from tui_grid.ui.key_bar import KeyBar


SIX = ["human", "easy", "medium", "human", "easy", "medium"]


async def test_two_humans_and_four_bots_share_an_arena(data_dir) -> None:
    remember(data_dir, players=SIX, rounds=2)
    app = make_app("tron", "arena6", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert screen.loaded.name == "arena6" and len(screen.session.agents) == 6
        assert screen.match.seating == (0, 1, 2, 3, 4, 5)
        before = screen.state
        await step(pilot, "up", "s")  # the arrows: player 1 (red); W A S D: player 4 (yellow)
        assert screen.state.heads[0] == before.heads[0].step(Direction.UP)
        assert screen.state.heads[3] == before.heads[3].step(Direction.DOWN)
        legend = str(screen.query_one("#legend").content)
        assert "R░ player 1 (arrows) 0" in legend and "Y: player 4 (WASD) 0" in legend and "O*" not in legend
        assert "no points yet" in status(app) and "round 1/2" in status(app)
        await pilot.press("down")  # a reverse into its own trail is ignored, and said once
        await pilot.pause()
        assert "cannot turn straight back" in str(screen.query_one("#message").content)
        for _ in range(200):
            if screen.session.over:
                break
            await step(pilot)
        assert screen.session.over
        result = screen.match.score.rounds[-1]
        assert sorted(result.places)[0] == 1 and len(result.places) == 6
        assert "leads with" in status(app) or "share the lead" in status(app)
        message = str(screen.query_one("#message").content)
        assert message.startswith("Round 1: ") and "enter: round 2 (seats turn)" in message
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match.seating == (5, 0, 1, 2, 3, 4)  # every seat turns by one
        before = screen.state
        await step(pilot, "right", "a")  # player 1 now drives green (seat 1), player 4 magenta (seat 4)
        assert screen.state.heads[1] == before.heads[1].step(Direction.RIGHT)
        assert screen.state.heads[4] == before.heads[4].step(Direction.LEFT)


async def test_the_dialog_opens_on_a_remembered_arena_and_rows_added_are_bots(data_dir) -> None:
    # Opened on a duel's board, the dialog still offers the arena played last; rows added
    # after the remembered ones take the last bot's level, never a copy of a person.
    remember(data_dir, players=["human", "human", "hard", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = pilot.app.screen
        assert isinstance(dialog, TronSetupDialog)
        assert dialog.query_one("#cycles", Select).value == 4
        assert [dialog.query_one(f"#kind-{index}", Select).value for index in range(4)] == ["human", "human", "hard", "easy"]
        dialog.query_one("#cycles", Select).value = 6
        assert await until(pilot, lambda: dialog.player_row_count() == 6)  # the rows added are mounted
        assert [dialog.query_one(f"#kind-{index}", Select).value for index in range(6)] == ["human", "human", "hard", "easy", "easy", "easy"]
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, TronSetupDialog) and len(app.screen.players) == 6


async def test_the_setup_dialog_sets_up_an_arena(data_dir) -> None:
    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = pilot.app.screen
        assert isinstance(dialog, TronSetupDialog)
        def shown_rows() -> list[int]:
            return [index for index in range(8) if any(widget.display for widget in dialog.query(f".player-{index}"))]

        assert shown_rows() == [0, 1]  # a duel: two rows
        dialog.query_one("#cycles", Select).value = 4
        await pilot.pause()
        assert shown_rows() == [0, 1, 2, 3]
        # the added rows sit between the duel's and the board's, in the order tab takes
        labels = [str(label.content) for label in dialog.query("PlainLabel")]
        # a row's label names its keys only when a person plays it
        assert labels[1:7] == ["Player 1 (←↑↓→)", "Player 2", "Player 3", "Player 4", "Board", "Random map"]
        dialog.query_one("#cycles", Select).value = 3
        await pilot.pause()
        assert shown_rows() == [0, 1, 2]
        dialog.query_one("#cycles", Select).value = 4
        await pilot.pause()
        assert shown_rows() == [0, 1, 2, 3]
        assert dialog.query_one("#board", Select).disabled
        assert "An arena for 4" in str(dialog.query_one("#about").content)
        for index in (1, 2):
            dialog.query_one(f"#kind-{index}", Select).value = "human"
        await pilot.pause()
        labels = [str(label.content) for label in dialog.query("PlainLabel")]
        assert labels[1:5] == ["Player 1 (←↑↓→)", "Player 2 (WASD)", "Player 3", "Player 4"]
        dialog.query_one("#rounds").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "At most 2 humans share one keyboard" in str(dialog.query_one("#error").content)
        dialog.query_one("#kind-2", Select).value = "medium"
        await pilot.pause()
        dialog.query_one("#rounds").focus()
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TronScreen)
        assert screen.loaded.name == "arena4" and screen.players == ("human", "human", "medium", "easy")
        saved = json.loads((data_dir / SETUP_FILE).read_text())
        assert saved["players"] == ["human", "human", "medium", "easy"]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_snapshot_arena_of_six(snap_compare, data_dir, size: tuple[int, int]) -> None:
    remember(data_dir, players=["human", "easy", "medium", "easy", "medium", "easy"], rounds=3, speed=5)

    async def play(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        screen.apply_setup(screen.setup)  # a fresh match, paused before its first tick
        screen.driver.pause(True)
        for keys in (["up"], [], ["right"], [], [], ["down"]):
            await step(pilot, *keys)
        await wait_idle(pilot)

    assert snap_compare(make_app("tron", "arena6", speed=5), terminal_size=size, run_before=play)


async def test_rows_still_being_mounted_count_as_their_first_players(data_dir) -> None:
    """Enter right after choosing more cycles starts the arena chosen, rows laid out or not."""
    remember(data_dir, players=["human", "medium"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = pilot.app.screen
        assert isinstance(dialog, TronSetupDialog)
        dialog.query_one("#cycles", Select).value = 5
        dialog.on_select_changed()  # the change as the list reports it, before any pause
        assert dialog.player_row_count() == 2
        assert dialog.chosen().players == ("human", "medium", "medium", "medium", "medium")
        await pilot.pause()
        assert dialog.player_row_count() == 5
        assert dialog.chosen().players == ("human", "medium", "medium", "medium", "medium")


async def test_a_person_out_of_an_arena_is_told_and_the_bots_ride_on_at_their_pace(data_dir) -> None:
    """The human drives into the wall: the message says how and that they are out, the
    live hint marks nothing for them, the legend keeps the points of the round's end, and
    the bots ride on at the bots' tick, not a person's."""
    remember(data_dir, players=["human", "easy", "easy", "easy"], rounds=1)
    app = make_app("tron", "arena4", speed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        person_tick = screen.tick_seconds()
        await pilot.press("h")  # the live hint on
        seat = screen.match.seating.index(0)
        bar = screen.query_one(KeyBar)
        assert "Steer" in dict(bar.items).values() and "h" in dict(bar.items + bar.extras)
        for _ in range(40):  # no key: straight on into the wall ahead
            if not screen.state.riding(seat) or screen.session.over:
                break
            await step(pilot)
        assert not screen.state.riding(seat) and not screen.session.over
        message = str(screen.query_one("#message").content)
        assert message.startswith("Red crashed into") and "Out: you (red); the bots ride on at their own pace." in message, message
        assert screen.tick_seconds() < person_tick
        assert screen.driver.step_seconds == screen.tick_seconds()
        shown_keys = {key for key, _ in bar.items + bar.extras}  # no steering a cycle that is out
        assert not shown_keys & {"←↑↓→", "WASD", "h"} and "Steer" not in bar.render().plain
        await step(pilot)
        assert screen.hint is None
        await pilot.press("h", "h")  # off, then on again while out: for the next round
        assert screen.live_hint.on and "from the next round" in str(screen.query_one("#message").content)
        for _ in range(300):
            if screen.session.over:
                break
            await step(pilot)
        score = screen.match.score
        legend = str(screen.query_one("#legend").content)
        assert sum(score.points(index) for index in range(4)) > 0
        for bot in (1, 2, 3):  # the points of the round's end, not the round's start
            assert f"{score.names[bot]} {score.points(bot)}" in legend.replace("\n", " ")


async def test_an_arena_of_eight_names_every_driver_at_80x24(data_dir) -> None:
    remember(data_dir, players=["human", *(["easy"] * 7)], rounds=1)
    app = make_app("tron", "arena8", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await wait_idle(pilot)
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert all(f"easy bot ({index})" in shown for index in range(2, 9)), shown
        assert "(points)" in shown and "█ wall" in shown, shown
