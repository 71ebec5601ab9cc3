"""Evasion in the app: a human prey and a human hunter on keys, paused and stepped with
`.`, and the whole 300x300 board at 80x24 (regenerate the snapshot with --snapshot-update)."""

from __future__ import annotations


from tests.conftest import make_app, until, wait_idle
from tui_grid.games import registry
from tui_grid.games.evasion.engine import HUNTER, PREY
from tui_grid.ui.board_view import Zoom


async def paused(pilot, players=None):
    """Open (or push) an Evasion screen, pause it, and wait for any agent still asked."""
    app = pilot.app
    if players is not None:
        from tui_grid.games.evasion.screen import EvasionScreen

        game = registry.get_game("evasion")
        await app.push_screen(EvasionScreen(game, game.load("standard"), app.settings, players=players))
        await pilot.pause()
    await pilot.press("space")
    await wait_idle(pilot)
    screen = app.screen
    assert screen.paused
    return screen


async def step(pilot, times: int = 1) -> None:
    for _ in range(times):
        await pilot.press("full_stop")
        await wait_idle(pilot)


async def test_human_prey_moves_by_keys_on_its_even_steps():
    app = make_app(speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot, players=("builtin", "human"))
        assert screen.is_human(PREY) and not screen.is_human(HUNTER)
        assert screen.view.zoom is Zoom.WHOLE
        before = screen.state
        await pilot.press("f")  # right
        await step(pilot, 1 if before.prey_moves_next else 2)
        after = screen.state
        assert after.tick > before.tick and after.prey_velocity == (1, 0)
        assert after.prey == (before.prey[0] + 1, before.prey[1])
        await pilot.press("d")  # stay
        await step(pilot, 2)
        assert screen.state.prey == after.prey and screen.state.prey_velocity == (0, 0)
        await pilot.press("c")  # down: it keeps going while no key says otherwise
        await step(pilot, 4)
        assert screen.state.prey == (after.prey[0], after.prey[1] + 2)
        await pilot.press("j")  # a hunter key while the bot hunts: a message, nothing else
        assert "builtin" in str(screen.query_one("#message").content)


async def test_human_hunter_builds_selects_and_removes_a_wall():
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot)
        assert screen.is_human(HUNTER)
        before = screen.state
        await pilot.press("j")
        await step(pilot)
        state = screen.state
        assert len(state.walls) == 1
        wall = state.walls[0]
        assert wall.horizontal and wall.y1 == before.hunter[1] and (wall.x1, wall.x2) == (0, 299)
        assert "built." in str(screen.query_one("#message").content)
        await pilot.press("k")  # within N steps: refused, with a message
        await step(pilot)
        assert len(screen.state.walls) == 1
        assert "Refused your wall" in str(screen.query_one("#message").content)
        await pilot.press("tab")
        assert screen.selected_wall() == wall
        await pilot.press("backspace")
        await step(pilot)
        assert screen.state.walls == ()
        await pilot.press("h")
        assert "Hint: hunter" in str(screen.query_one("#message").content)


async def test_a_whole_round_ends_with_the_catch_time_and_the_roles_swap():
    # The slowest speed: two bots at speed 9 on a busy machine can finish round 1 before
    # the pause lands, and this test sets each round's state itself.
    app = make_app(speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot, players=("builtin", "random"))
        assert not screen.session.over
        screen.session.state = screen.engine.make_state(tick=10, hunter=(100, 100), prey=(102, 102))
        await step(pilot)
        assert screen.session.over
        message = str(screen.query_one("#message").content)
        assert "caught the prey at step 11" in message and "enter plays round 2" in message
        await pilot.press("enter")
        assert screen.match.seating == (1, 0) and screen.state.tick == 0
        screen.session.state = screen.engine.make_state(tick=20, hunter=(100, 100), prey=(102, 102))
        await step(pilot)
        message = str(screen.query_one("#message").content)
        assert "Match over" in message and "builtin bot wins" in message


def test_whole_board_80x24(snap_compare):
    async def run_before(pilot) -> None:
        screen = await paused(pilot)
        screen.session.restart()  # deterministic: from the start, whatever ticked before the pause
        await pilot.pause()
        await step(pilot, 40)
        await pilot.press("k")
        await step(pilot)

    assert snap_compare(make_app("evasion", "standard", speed=1), terminal_size=(80, 24), run_before=run_before)


async def test_opened_from_the_menu_with_a_new_setup():
    from tui_grid.games.evasion.screen import EvasionScreen

    app = make_app(speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        games = app.screen.query_one("#games")
        games.highlighted = [option.id for option in games.options].index("evasion")
        await pilot.press("enter")  # the picker: only "new"
        await pilot.press("enter")  # the dialog: N, M, seed
        await pilot.pause()
        await pilot.press("enter")
        await wait_idle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, EvasionScreen)
        assert app.screen.config.n == 10 and app.screen.players == ("human", "builtin")
        await pilot.press("space")
        await wait_idle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, EvasionScreen)


async def test_served_game_on_screen_with_a_human_prey():
    from tui_grid.games.evasion.definition import GAME
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.serve_app import ServeApp

    from tui_grid.games.evasion.server import EvasionServer

    server = EvasionServer(Config(max_steps=40), "2023", 0, "builtin", "human", 40)
    app = ServeApp(GAME, registry.LoadedBoard(Config(max_steps=40), "served", "N=10 M=5"), server)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen_shown
        await pilot.pause(0.1)
        await pilot.press("c")  # down, queued for the server's next prey step
        await until(pilot, lambda: app.feed.result is not None, limit=30)  # a human's pace: ~7 steps/s
        await pilot.pause(0.1)
        assert app.feed.result is not None and app.feed.result["steps"] == 40
        assert screen.shown.prey[1] > 200 and screen.shown.prey_velocity == (0, 1)
        assert "q quits" in str(screen.query_one("#message").content)
    assert not app.feed.thread.is_alive()


async def test_the_architects_live_display_shows_every_step(monkeypatch, plain_chase_prey):
    """Two TCP clients through the architect on screen: the screen is told of every step of
    the server's own session, in order, up to the step cap that ends the game (the headless
    catch step of these clients is test_evasion_protocol's)."""
    import threading

    from tui_grid.games.evasion.client import run_client
    from tui_grid.games.evasion.definition import GAME
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.screen import EvasionScreen
    from tui_grid.games.evasion.serve_app import ServeApp
    from tui_grid.games.evasion.server import EvasionServer

    monkeypatch.setattr(EvasionScreen, "tick_seconds", lambda self: 0.0)  # as fast as the clients answer
    shown: list[int] = []
    original = EvasionScreen.session_changed

    def record(self, session, change):  # type: ignore[no-untyped-def]
        if change.kind == "step":
            shown.append(change.state.tick)
        original(self, session, change)

    monkeypatch.setattr(EvasionScreen, "session_changed", record)
    cap = 240  # before these clients' catch
    config = Config(n=4, m=3, max_steps=cap)
    server = EvasionServer(config, "2023", 0, "tcp", "tcp", cap, handshake_pause=0.0, accept_timeout=10)
    app = ServeApp(GAME, registry.LoadedBoard(config, "served", "N=4 M=3"), server)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen_shown
        clients = [threading.Thread(target=run_client, args=("2023", "127.0.0.1", server.port, name), kwargs={"timeout": 30}, daemon=True)
                   for name in ("a", "b")]
        for client in clients:
            client.start()
        for _ in range(1500):
            await pilot.pause(0.02)
            result = app.feed.result
            if result is not None and shown and shown[-1] == result["steps"]:
                break
        assert app.feed.result is not None and app.feed.result["steps"] == cap
        assert shown == list(range(1, cap + 1))
        assert "not caught in 240 steps" in str(screen.query_one("#message").content).lower()  # first in the line once the match's end is said
    for client in clients:
        client.join(10)
        assert not client.is_alive()
    assert not app.feed.thread.is_alive()


async def test_a_human_hunter_can_concede_and_the_roles_swap():
    """A human hunter has a step cap and can concede (asked first); the roles then swap."""
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot)
        assert screen.is_human(HUNTER) and screen.engine.config.max_steps == 24_000  # the course's cap
        await pilot.press("g", "n")  # a slip: asked, and n plays on
        await wait_idle(pilot)
        assert not screen.session.over and app.screen is screen
        await pilot.press("g", "y")
        await wait_idle(pilot)
        assert screen.session.over and "the hunter forfeits: conceded" in str(screen.query_one("#message").content)
        await pilot.press("enter")
        assert screen.match.seating == (1, 0) and screen.is_human(PREY) and not screen.session.over


async def test_the_key_bar_shows_only_the_keys_of_the_human_seat() -> None:
    """The key bar offers only the human seat's keys, hunter or prey, and changes with it
    as the roles swap each round."""
    from tui_grid.ui.key_bar import KeyBar

    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot)
        labels = {label for _, label in screen.query_one(KeyBar).items}
        assert screen.is_human(HUNTER) and "H-wall" in labels and "Prey" not in labels and "Concede" in labels
        await pilot.press("g", "y")
        await wait_idle(pilot)
        bar = screen.query_one(KeyBar)
        labels = {label for _, label in bar.items + bar.extras}
        assert "Concede" not in labels and "H-wall" not in labels and "Hint" not in labels  # nothing to steer between rounds
        assert "Next" in labels
        await pilot.press("enter")  # round 2: the human is the prey
        await pilot.pause()
        labels = {label for _, label in screen.query_one(KeyBar).items}
        assert screen.is_human(PREY) and "Prey" in labels and "H-wall" not in labels and "Concede" in labels
        await pilot.press("g", "y")
        await wait_idle(pilot)
        assert screen.match.finished and "Next" not in {label for _, label in bar.items + bar.extras}  # no next round


async def test_the_full_size_view_points_to_the_other_player_off_screen() -> None:
    """In the full-size view the status line points to the other player when it is off screen."""
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot)
        assert "off screen" not in status_line(app)  # the whole board: both are shown
        await pilot.press("z", "z")  # full size, centred on the human hunter
        await pilot.pause()
        state = screen.state
        dx, dy = state.prey[0] - state.hunter[0], state.prey[1] - state.hunter[1]
        assert f"P {'↘' if dx > 0 and dy > 0 else ''}" in status_line(app) or "off screen" in status_line(app)
        assert f"{abs(dx)},{abs(dy)} off screen" in status_line(app)


def status_line(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#status").content)


async def test_a_matchs_speed_is_its_own() -> None:
    """+ in an Evasion match sets that match's speed only, not the app's: the puzzles and
    the next Tron match keep a pace a human can steer at."""
    app = make_app("evasion", "standard", speed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await paused(pilot)
        await pilot.press("plus", "plus", "plus", "plus")
        assert screen.settings.speed == 9 and "speed 9" in status_line(app)
        assert app.settings.speed == 5


async def test_the_new_match_dialog_checks_its_fields_and_esc_keeps_the_match() -> None:
    from textual.widgets import Input

    from tui_grid.games.evasion.setup_dialog import EvasionSetupDialog

    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_idle(pilot)
        assert not screen.paused
        feed = screen.feed
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, EvasionSetupDialog) and screen.paused  # the clock waits meanwhile
        dialog.query_one("#rounds", Input).value = "0"
        await pilot.press("enter")
        assert app.screen is dialog and "rounds must be at least 1, got 0" in str(dialog.query_one("#error").content)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.feed is feed and not screen.paused  # the same match goes on
