"""Tron in the app: the setup dialog, a human against the easy bot by keys, two humans on
one keyboard, a bot match watched to a round's end, the live hint, programs that fail or
are left running, and snapshots at 80x24 (regenerate with --snapshot-update)."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import make_app, status, until, wait_idle


from tui_grid.core.agents import AgentError
from tui_grid.core.external import ExternalProgramAgent
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.outcome import Failure, Fault, Outcome, Result
from tui_grid.games.tron.causes import TronCause
from tui_grid.games.tron.screen import TronScreen
from tui_grid.games.tron.setup_dialog import SETUP_FILE, TronSetupDialog
from tui_grid.ui.board_view import Overlay
from textual.widgets import Input, Select

SEED_BOT = "/work/shared/opponents/tron_seed_bot.py"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TUI_GRID_DATA", str(folder))
    return folder


def remember(folder: Path, **choices) -> None:  # type: ignore[no-untyped-def]
    """Write a remembered setup, as the dialog would have saved it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETUP_FILE).write_text(json.dumps(choices))


def message(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#message").content)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie waiting for its parent has ended too
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except OSError:
        return True


async def start(pilot) -> TronScreen:  # type: ignore[no-untyped-def]
    """Accept the setup dialog (enter starts) and pause at once."""
    assert isinstance(pilot.app.screen, TronSetupDialog)
    await pilot.press("enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TronScreen)
    await pilot.press("space")
    await wait_idle(pilot)
    return screen


async def submit(pilot) -> None:  # type: ignore[no-untyped-def]
    """Enter in a field of the setup dialog starts the match (or shows what is wrong)."""
    pilot.app.screen.query_one("#rounds").focus()
    await pilot.press("enter")
    await pilot.pause()


async def step(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Press keys, then play one tick and let the bots answer."""
    await pilot.press(*keys, "full_stop")
    await wait_idle(pilot)


async def test_a_human_plays_the_easy_bot_by_keys(data_dir) -> None:
    remember(data_dir, players=["human", "easy"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert screen.match.seating == (0, 1)  # player 1 drives red in round 1
        before = screen.state
        await step(pilot, "up")
        assert screen.state.turn == before.turn + 1
        assert screen.state.heads[0] == before.heads[0].step(Direction.UP)
        assert "PAUSED" in status(app)
        for _ in range(20):  # straight up into the top wall
            if screen.session.over:
                break
            await step(pilot)
        assert screen.session.over
        crash = screen.state.crashes[0]
        assert crash is not None and crash.row == 0
        text = message(app)
        assert "Round 1: red (you) crashed into a wall at row 1, col" in text
        assert "green (easy bot) wins" in text and "enter: round 2" in text
        assert screen.view.cell(crash.row, crash.col) == ("X ", "crash")
        await pilot.press("up", "left", "down")  # keys pressed as the cycle crashes...
        verdict = text.splitlines()[0]  # ...leave the verdict on screen until the next round
        assert message(app) == f"{verdict}\nThe round is over: enter plays the next one."
        assert not app._notifications  # said in the message line, not as toasts piling up
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match.seating == (1, 0)  # seats swapped: you drive green now
        before = screen.state
        await step(pilot, "left")
        assert screen.state.heads[1] == before.heads[1].step(Direction.LEFT)


async def test_a_step_leaves_the_message_line_alone(data_dir, monkeypatch) -> None:
    """A message stays up while the round goes on, and a step does not redraw it: over SSH
    each redrawn line is bytes on the wire several times a second."""
    remember(data_dir, players=["human", "easy"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await step(pilot, "up")
        screen.say("a word that stays")
        await pilot.pause()
        line = screen.query_one("#message")
        redraws: list[bool] = []
        original = line.refresh
        monkeypatch.setattr(line, "refresh", lambda *regions, **options: (redraws.append(True), original(*regions, **options))[1])
        for _ in range(3):
            await step(pilot)
        assert not screen.session.over and message(app) == "a word that stays" and redraws == []


async def test_a_reverse_turn_is_ignored_and_turns_queue_up(data_dir) -> None:
    remember(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await step(pilot, "right")
        head = screen.state.heads[0]
        await pilot.press("left")  # straight back: ignored, and said once a match
        assert "cannot turn straight back" in message(app)
        await step(pilot)
        assert screen.state.heads[0] == head.step(Direction.RIGHT)  # the cycle kept going right
        screen.say("")
        await pilot.press("left")
        assert "cannot turn straight back" not in message(app)  # not said twice
        await step(pilot)
        head = screen.state.heads[0]
        await pilot.press("up", "left")  # two turns in one tick: both queue up (played a tick each when running)
        assert screen.session.agents[0].queued == (Direction.UP, Direction.LEFT)


async def test_two_humans_share_the_keyboard(data_dir) -> None:
    remember(data_dir, players=["human", "human"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert screen.match.score.names == ("player 1", "player 2")
        before = screen.state
        await step(pilot, "down", "w")  # player 1 (arrows) drives red, player 2 (WASD) green
        assert screen.state.heads == (before.heads[0].step(Direction.DOWN), before.heads[1].step(Direction.UP))
        for _ in range(10):
            if screen.session.over:
                break
            await step(pilot)
        # red drove into the bottom wall as green drove into the top one: a draw.
        assert screen.session.over and screen.match.score.draws == 1
        assert "A draw." in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match.seating == (1, 0)
        before = screen.state
        await step(pilot, "left", "d")  # player 1 keeps the arrows and now drives green
        assert screen.state.heads == (before.heads[0].step(Direction.RIGHT), before.heads[1].step(Direction.LEFT))
        assert "R red: player 2 (WASD)" in str(screen.query_one("#legend").content)


async def test_a_bot_match_is_watched_to_the_end_of_a_round(data_dir) -> None:
    remember(data_dir, players=["easy", "medium"], rounds=2, speed=3)
    app = make_app("tron", "gen-10x10-w8")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, TronScreen)
        assert "Watching" in message(app)
        await pilot.press("space")  # pause, then one tick at a time
        await wait_idle(pilot)
        turn = screen.state.turn
        await step(pilot)
        assert screen.state.turn == turn + 1 and "PAUSED" in status(app)
        await pilot.press("plus", "plus", "plus", "plus", "plus", "plus")
        assert "speed 9" in status(app)
        await pilot.press("space")  # resume, fast
        deadline = time.monotonic() + 10
        while not screen.session.over and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert screen.session.over
        assert "Round 1:" in message(app) and "Round 2 in 3 s" in message(app)
        await pilot.press("space", "enter")  # hold, and start the next round at once, paused
        await pilot.pause()
        assert screen.match.round_index == 1 and screen.match.seating == (1, 0) and screen.state.turn == 0


async def test_a_chosen_board_is_played_whatever_map_was_remembered(data_dir) -> None:
    """A board picked from the list (or named on the command line) is the one played, even
    when the remembered setup says "a new random map"; the map's size stays remembered."""
    remember(data_dir, players=["easy", "easy"], rounds=1, board="new", size="40x30", walls="12")
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        assert pilot.app.screen.query_one("#board", Select).value == "this"
        assert pilot.app.screen.query_one("#size", Input).value == "40x30"  # the map's size is still remembered
        screen = await start(pilot)
        assert screen.loaded.name == "standard" and screen.engine.board.width == 15


async def test_a_new_random_map_every_round(data_dir) -> None:
    remember(data_dir, players=["easy", "easy"], rounds=2, size="12x10", walls="10")
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        pilot.app.screen.query_one("#board", Select).value = "each"
        await pilot.pause()
        screen = await start(pilot)
        first = screen.loaded.game_id
        assert first.startswith("tron:12x10:w10#seed") and screen.engine.board.width == 12
        screen.session.report_failures([(0, AgentError("gave up", forfeit=True))])  # end round 1 now
        await pilot.pause()
        assert screen.session.over and "red (easy bot (1)) forfeits: gave up" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.loaded.game_id.startswith("tron:12x10:w10#seed") and screen.loaded.game_id != first
        assert screen.loaded.game_id in str(screen.query_one("#title").content)


async def test_the_hint_marks_the_hard_bots_move(data_dir) -> None:
    remember(data_dir, players=["easy", "human"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("h")
        await wait_idle(pilot)
        assert screen.hint is not None and len(screen.hint.marks) == 1
        (cell,) = screen.hint.marks
        head = screen.state.heads[1]  # the human drives green
        assert abs(cell.row - head.row) + abs(cell.col - head.col) == 1 and screen.state.is_free(cell)
        assert screen.view.cell(cell.row, cell.col) == ("◆ ", "hint")
        await step(pilot)
        await wait_idle(pilot)
        assert screen.hint is not None and screen.hint.marks  # recomputed every tick
        await pilot.press("h")
        assert screen.hint is None and "Hint off" in message(app)


async def test_the_setup_dialog_checks_and_remembers(data_dir) -> None:
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, TronSetupDialog)
        dialog.query_one("#rounds").value = "0"
        await pilot.click("#start")
        assert "rounds must be at least 1" in str(dialog.query_one("#error").content)
        dialog.query_one("#rounds").value = "2"
        dialog.query_one("#kind-1").value = "oneshot"
        await pilot.pause()
        assert dialog.query_one("#command-1").display
        await submit(pilot)
        assert "type the program's command line" in str(dialog.query_one("#error").content)
        dialog.query_one("#kind-1").value = "hard"
        dialog.query_one("#board").value = "new"
        dialog.query_one("#size").value = "12x10"
        await submit(pilot)
        screen = app.screen
        assert isinstance(screen, TronScreen)
        assert screen.players == ("human", "hard") and screen.rounds == 2
        assert screen.engine.board.width == 12 and screen.loaded.game_id.startswith("tron:12x10:w12#seed")
    saved = json.loads((data_dir / SETUP_FILE).read_text())
    assert saved["players"] == ["human", "hard"] and saved["rounds"] == 2 and saved["board"] == "new"
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert dialog.query_one("#kind-1").value == "hard" and dialog.query_one("#rounds").value == "2"
        await pilot.press("escape")  # cancelled before a match: back to the boards
        await pilot.pause()
        assert type(app.screen).__name__ == "BoardPickerScreen"


async def test_a_failing_program_loses_and_the_match_goes_on(data_dir) -> None:
    garbage = f"{sys.executable} -c " + shlex.quote("print('BANANA')")
    remember(data_dir, players=["easy", f"oneshot:{garbage}"], rounds=2)
    app = make_app("tron", "standard", speed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        deadline = time.monotonic() + 10
        while not screen.session.over and time.monotonic() < deadline:
            await pilot.pause(0.05)
        label = f"{Path(sys.executable).name} -c"  # python3 here, python in a virtual environment
        assert f"Round 1: green ({label}) forfeits: printed 'BANANA', not one of LEFT RIGHT UP DOWN." in message(app)
        assert screen.match.score.wins(0) == 1
        await pilot.press("enter")
        deadline = time.monotonic() + 10
        while not screen.match.finished and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert screen.match.score.wins(0) == 2 and "Match over" in message(app)
        program = screen.match.participants[1]
        assert isinstance(program, ExternalProgramAgent) and len(program.pids) == 2
        assert all(gone(pid) for pid in program.pids)


async def test_no_program_outlives_the_screen_or_the_app(data_dir) -> None:
    bot = f"{sys.executable} -m tui_grid.games.tron.botmain --level easy"
    remember(data_dir, players=[f"cmd:{bot}", f"cmd:{bot}"], rounds=3, speed=5)
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        deadline = time.monotonic() + 10
        while screen.state.turn < 3 and time.monotonic() < deadline:
            await pilot.pause(0.05)
        programs = [agent for agent in screen.match.participants if isinstance(agent, ExternalProgramAgent)]
        pids = [pid for agent in programs for pid in agent.pids]
        assert len(pids) == 2 and not any(gone(pid) for pid in pids)  # persistent: one each
        await pilot.press("escape")  # close the screen mid-round
        await pilot.pause()
        assert type(app.screen).__name__ == "BoardPickerScreen"
        assert all(gone(pid) for pid in pids)
        await pilot.press("enter")  # open the board again and quit the app mid-round
        await pilot.press("enter")
        screen = app.screen
        deadline = time.monotonic() + 10
        while screen.state.turn < 2 and time.monotonic() < deadline:
            await pilot.pause(0.05)
        pids = [pid for agent in screen.match.participants if isinstance(agent, ExternalProgramAgent) for pid in agent.pids]
        assert pids
        await pilot.press("q")
        await pilot.pause()
    assert all(gone(pid) for pid in pids)


def test_the_arena_glyphs(data_dir) -> None:
    from tui_grid.games.tron.definition import GAME
    from tui_grid.games.tron.view import TronBoardView

    loaded = GAME.load("standard")
    engine = GAME.make_engine(loaded)
    state = engine.step(engine.initial_state(), {0: Direction.UP, 1: Direction.LEFT}).state
    view = TronBoardView()  # a view draws what it is given: no screen needed
    view.use(engine, loaded.board)
    view.state = state
    assert view.cell(6, 1) == ("R↑", "red-head")
    assert view.cell(7, 1) == ("░░", "red-trail")
    assert view.cell(7, 12) == ("G←", "green-head")
    assert view.cell(7, 13) == ("▒▒", "green-trail")
    assert view.cell(0, 0) == ("██", "wall") and view.cell(5, 5) == ("  ", "floor")
    view.overlay = Overlay({Pos(5, 1): ("◆ ", "hint")})
    assert view.cell(5, 1) == ("◆ ", "hint")


def test_snapshot_setup_dialog_80x24(snap_compare, data_dir) -> None:
    async def layout(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        pilot.app.screen.query_one("#start").focus()  # the layout; where focus opens is test_ui_tron_feedback's
        await pilot.pause()

    assert snap_compare(make_app("tron", "standard"), terminal_size=(80, 24), run_before=layout)


def test_snapshot_round_over_80x24(snap_compare, data_dir) -> None:
    remember(data_dir, players=["human", "easy"], rounds=3, speed=5)

    async def play(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        screen.apply_setup(screen.setup)  # a fresh match, paused before its first tick
        screen.driver.pause(True)
        for keys in (["up"], ["right"], ["right"], ["down"], ["down"], ["down"], ["left"], ["left"]):
            await step(pilot, *keys)
        await step(pilot, "up")
        await step(pilot)  # straight on into its own trail at (7,1)
        await wait_idle(pilot)

    assert snap_compare(make_app("tron", "standard", speed=5), terminal_size=(80, 24), run_before=play)


async def test_a_slow_per_move_program_is_named_as_what_slows_the_clock(data_dir) -> None:
    """A program started once per move that slows the clock is named as what slows it."""
    slow = f"{sys.executable} -c " + shlex.quote("import time; time.sleep(0.2); print('UP')")
    remember(data_dir, players=["easy", f"oneshot:{slow}"], rounds=1)
    app = make_app("tron", "standard", speed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        for _ in range(200):
            if "the clock waits for the program" in message(app) or screen.session.over:
                break
            await pilot.pause(0.05)
        assert "the clock waits for the program" in message(app) and "one run per round" in message(app)


async def test_a_match_of_bots_shows_no_steering_keys(data_dir) -> None:
    """With no human driving, the key bar offers no steer or hint keys."""
    from tui_grid.ui.key_bar import KeyBar

    remember(data_dir, players=["easy", "medium"], rounds=1)
    app = make_app("tron", "standard")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        labels = {label for _, label in app.screen.query_one(KeyBar).items}
        assert "Steer" not in labels and "Hint" not in labels and "Help" in labels
        await pilot.press("space")


async def test_a_round_with_a_human_starts_after_a_countdown(data_dir, monkeypatch) -> None:
    """A round with a human counts down 3, 2, 1 before it starts (counted here by hand: the
    beat never fires), then runs at a human's pace."""
    from tui_grid.ui.match_screen import MatchScreen

    monkeypatch.setattr(MatchScreen, "COUNTDOWN_BEAT", 3600.0)
    remember(data_dir, players=["human", "easy"], rounds=2)
    app = make_app("tron", "standard", countdown=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        await pilot.pause()
        assert screen.paused and screen.counting_down and "Get ready: 3" in message(app)
        assert "You drive red (R)." in message(app)  # whose cycle is whose, before it moves
        assert "PAUSED" not in status(app)  # held for the countdown, not paused by anyone
        assert screen.tick_seconds() == pytest.approx(0.4)  # a human drives: 2.5 ticks a second at speed 5
        screen.conductor.beat()
        assert "Get ready: 2" in message(app) and screen.session.state.turn == 0
        screen.conductor.beat()
        screen.conductor.beat()
        assert not screen.paused and not screen.counting_down and "Go!" in message(app)
        assert await until(pilot, lambda: screen.session.over, limit=30)
        await pilot.press("enter")  # round 2 counts down too
        await pilot.pause()
        assert screen.paused and screen.counting_down and screen.session.state.turn == 0
        await pilot.press("space")  # space during the countdown holds the round
        assert screen.paused and not screen.counting_down and "space resumes" in message(app)
        await pilot.press("space")  # ...and space again counts down afresh rather than starting at once
        assert screen.paused and screen.counting_down and "Get ready: 3" in message(app)
        assert "You drive green (G)." in message(app)  # the seats swapped
        assert screen.session.state.turn == 0


async def test_the_view_keeps_the_human_cycle_on_a_board_larger_than_the_screen(data_dir) -> None:
    """On 40x40 at 80x24 the view scrolls to keep the human's cycle in sight, huge cells
    included, so the player sees where it drives."""
    remember(data_dir, players=["easy", "human"], rounds=1)  # the human drives green
    app = make_app("tron", "tron:40x40:w40#seed7")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        view = screen.view

        def on_screen(pos) -> bool:  # type: ignore[no-untyped-def]
            region = view.cell_region(pos)
            x, y = view.scroll_offset
            width, height = view.scrollable_content_region.size
            return x <= region.x and region.right <= x + width and y <= region.y and region.bottom <= y + height

        human = next(seat for seat, agent in enumerate(screen.session.agents) if agent.human)
        assert view.virtual_size.height > view.scrollable_content_region.height  # it does scroll
        assert view.focus_cell == screen.state.heads[human] and on_screen(screen.state.heads[human])
        while view.zoom.name != "HUGE":
            await pilot.press("z")
        await pilot.pause()
        assert on_screen(screen.state.heads[human])


def test_a_programs_output_in_a_verdict_is_never_rewritten() -> None:
    """A program that prints '[red]UP[/red]' is quoted as it printed it: the seats are
    named from the outcome's seat, never by looking for colours in its output."""
    from tui_grid.games.registry import get_game

    tron = get_game("tron")
    forfeit = Failure(Fault.BAD_OUTPUT, "[red]UP[/red] red green", "not a move").outcome(1, 0)
    assert tron.describe_outcome(forfeit, ("you", "prog")) == "green (prog) forfeits: printed '[red]UP[/red] red green', not a move"
    crash = Outcome(Result.WON, TronCause.TRAIL, 0, 1, cells=((2, 4),))
    assert tron.describe_outcome(crash, ("you", "easy bot")) == "red (you) crashed into green's trail at row 3, col 5: green (easy bot) wins"


async def test_a_long_board_id_never_hides_who_plays(data_dir) -> None:
    """A 200-digit seed is cut short in the title line, so the players stay in it."""
    remember(data_dir, players=["human", "easy"], rounds=1)
    game_id = "tron:15x15:w12#seed" + "9" * 200
    app = make_app("tron", game_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, TronScreen))
        title = str(screen.query_one("#title").content)
        assert len(title) < 100 and "R you  vs  G easy bot" in title and "…" in title
