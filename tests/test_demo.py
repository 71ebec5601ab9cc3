"""`tui-grid demo`: every scene, with its title and caption, reaches play on an injected
clock; each demo key does what it says; the same seed gives the same demo."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_app, until
from tui_grid.cli import main
from tui_grid.ui.demo import SCENES, board_id, scenes_for
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.menu import MenuScreen


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def demo_app(clock: FakeClock, scenes=SCENES):  # type: ignore[no-untyped-def]
    app = make_app(speed=9)
    app._demo_options = {"scenes": scenes, "scene_seconds": 10.0, "seed": 7, "clock": clock}
    return app


def played(screen: GameScreen) -> bool:
    """The scene's solver or bots have made a move."""
    if hasattr(screen, "feed"):
        return screen.session.state != screen.session.engine.initial_state()
    return bool(screen.session.log)


def banner(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#demo-banner").content)


async def test_every_scene_shows_its_title_and_caption_and_plays() -> None:
    clock = FakeClock()
    app = demo_app(clock)
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        director = app.demo
        for index, scene in enumerate(SCENES):
            assert director.index == index
            screen = director.screen
            assert await until(pilot, lambda: bool(screen.query("#demo-banner")))
            assert scene.title in banner(app) and scene.caption in banner(app)
            assert screen.game.key == scene.game and screen.in_demo
            assert await until(pilot, lambda: played(screen), limit=60), scene.title
            clock.now += 9.0
            director.tick()
            assert director.index == index  # not yet: the scene has 10 s
            clock.now += 1.0
            director.tick()
        assert director.index == 0 and director.cycle == 1  # round again, with new boards
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.demo is None


async def test_the_demo_keys() -> None:
    clock = FakeClock()
    app = demo_app(clock, scenes_for(("ice", "jimmy")))
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        director = app.demo
        await pilot.pause()
        assert not director.screen.query_one(KeyBar).display  # the banner names the demo's keys
        await pilot.press("n")  # next scene
        assert director.index == 1 and app.screen is director.screen
        await pilot.press("p")  # previous scene
        assert director.index == 0
        await pilot.press("space")  # pause: the scene's clock and play hold
        assert director.paused
        clock.now += 100.0
        director.tick()
        assert director.index == 0
        await pilot.press("space")
        assert not director.paused
        screen = director.screen
        assert await until(pilot, lambda: played(screen), limit=30)
        await pilot.press("enter")  # take over: the demo ends, the game is the player's
        await pilot.pause()
        assert app.demo is None and app.screen is screen and not screen.watching and not screen.in_demo
        assert not screen.query("#demo-banner") and screen.query_one(KeyBar).display
        before = len(screen.session.log)
        await pilot.press("u")  # the game's own keys work again
        assert len(screen.session.log) == before - 1
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


def test_the_same_seed_gives_the_same_demo() -> None:
    for scene in SCENES:
        assert board_id(scene, 7, 0) == board_id(scene, 7, 0)
    assert any(board_id(scene, 7, 0) != board_id(scene, 8, 0) for scene in SCENES)
    assert any(board_id(scene, 7, 0) != board_id(scene, 7, 1) for scene in SCENES)


@pytest.mark.parametrize(("args", "words"), [(["--games", "chess"], "no demo scene for chess"),
                                              (["--scene-seconds", "-1"], "--scene-seconds"),
                                              (["--seed", "x"], "--seed")])
def test_bad_demo_options_are_one_line(capsys, args, words) -> None:
    assert main(["demo", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


async def test_the_menu_starts_the_demo() -> None:
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("end", "enter")  # the last entry: Demo
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        assert f"DEMO 1/{len(SCENES)}" in banner(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_enter_in_a_match_scene_seats_the_player() -> None:
    from tui_grid.ui.demo import scenes_for

    clock = FakeClock()
    app = demo_app(clock, scenes_for(("tron",)))
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        screen = app.demo.screen
        await pilot.press("enter")
        await pilot.pause()
        assert app.demo is None and screen.session.agents[screen.match.seating.index(0)].human
        assert screen.serves_seat(0)  # its keys show, and the clock runs at a human's pace
        title = str(screen.query_one("#title").content)
        assert screen.match.score.names[0] == "you" and "R you" in title and "hard bot" not in title  # named as the player
        assert "you" in str(screen.query_one("#legend").content)
        await pilot.press("space")


async def test_a_scene_names_the_demos_keys_after_its_game_ends() -> None:
    """A puzzle scene ends: what to do next is said in the demo's keys (n is the next scene
    there, not a new board)."""
    clock = FakeClock()
    app = demo_app(clock, scenes_for(("ice",)))
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        screen = app.demo.screen
        assert screen.next_steps() == "n shows the next scene · enter plays from here"
        await pilot.press("enter")
        await pilot.pause()
        assert "n makes a new board" in screen.next_steps()


async def test_leaving_a_game_taken_over_goes_back_to_the_demo_at_the_next_scene() -> None:
    clock = FakeClock()
    app = demo_app(clock, scenes_for(("ice", "jimmy")))
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        taken = app.demo.screen
        await pilot.press("enter")
        await pilot.pause()
        assert app.demo is None and app.screen is taken
        await pilot.press("escape")
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        assert app.demo.running and app.demo.index == 1 and app.screen is app.demo.screen is not taken
        assert "DEMO 2/" in banner(app) and isinstance(app.screen_stack[-2], MenuScreen)
        clock.now += 100.0
        app.demo.tick()  # and the demo goes on by itself
        assert await until(pilot, lambda: app.demo.index == 2)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_taking_over_a_match_counts_down_before_the_player_steers(monkeypatch) -> None:
    from tui_grid.ui.demo import scenes_for
    from tui_grid.ui.match_screen import MatchScreen

    monkeypatch.setattr(MatchScreen, "COUNTDOWN_BEAT", 3600.0)  # counted by hand
    clock = FakeClock()
    app = make_app(speed=9, countdown=3)
    app._demo_options = {"scenes": scenes_for(("tron",)), "scene_seconds": 10.0, "seed": 7, "clock": clock}
    async with app.run_test(size=(100, 34)) as pilot:
        assert await until(pilot, lambda: app.demo is not None and app.demo.screen is not None)
        screen = app.demo.screen
        await pilot.press("enter")
        await pilot.pause()
        assert screen.counting_down and screen.paused  # the clock waits for Go!
        turn = screen.state.turn
        for _ in range(3):
            screen.conductor.beat()
        assert not screen.counting_down and not screen.paused
        assert await until(pilot, lambda: screen.state.turn > turn)


def test_demo_help_says_its_keys_and_lists_every_scene(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = capsys.readouterr().out
    assert "space pauses, n the next scene" in out.replace("\n", " ")
    for scene in SCENES:
        assert f"  {scene.game}: {scene.title}" in out
