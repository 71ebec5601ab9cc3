"""Every key is discoverable: after its main keys, each game's key bar offers the others
(zoom, coordinates, save, pause, step or skip, speed, and a game's own extras) as far as
two lines allow, with `? more` when some are left out. Each such entry, in every game, is
pressed here and its effect asserted."""

from __future__ import annotations

from pathlib import Path
from typing import Awaitable, Callable

import pytest

from tests.conftest import make_app, wait_idle
from tests.test_every_key import remember_tron
from tui_grid.games.registry import all_games
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.key_bar import MORE, KeyBar
from tui_grid.ui.save_dialog import SaveDialog

BOARDS = {"ice": "spiral", "jimmy": "seed-1", "bunny": "doodle-4-two-rings", "evasion": "standard", "tron": "standard"}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TUI_GRID_DATA", str(folder))
    remember_tron(folder, players=["human", "easy"], rounds=2)
    return folder


async def open_game(pilot, game: str) -> GameScreen:  # type: ignore[no-untyped-def]
    if game == "tron":
        await pilot.press("enter")  # the setup dialog
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    if game in ("tron", "evasion"):
        await pilot.press("space")  # hold the clock: each key below is judged on a still board
        await wait_idle(pilot)
        assert screen.paused
    return screen


Check = Callable[[object, GameScreen], Awaitable[None]]


async def zoom(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    before = screen.view.zoom
    await pilot.press("z")
    assert screen.view.zoom != before


async def coords(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    before = screen.view.show_coords
    await pilot.press("c")
    assert screen.view.show_coords != before


async def save(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert isinstance(pilot.app.screen, SaveDialog)
    await pilot.press("escape")
    await pilot.pause()
    assert pilot.app.screen is screen


async def faster(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    before = screen.settings.speed
    await pilot.press("plus")
    assert screen.settings.speed == before + 1


async def slower(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    before = screen.settings.speed
    await pilot.press("minus")
    assert screen.settings.speed == before - 1
    await pilot.press(*["minus"] * 9)  # at the end of the scale it says so
    assert screen.settings.speed == 1 and "Slowest already: speed 1." in str(screen.query_one("#message").content)
    await pilot.press(*["plus"] * 10)
    assert screen.settings.speed == 9 and "Fastest already: speed 9." in str(screen.query_one("#message").content)
    await pilot.press(*["minus"] * (9 - before + 1))
    assert screen.settings.speed == before - 1


async def pause(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    if hasattr(screen, "feed"):  # a match: the clock holds and runs again
        before = screen.paused
        await pilot.press("space")
        await wait_idle(pilot)
        assert screen.paused != before
        await pilot.press("space")
        await wait_idle(pilot)
        assert screen.paused == before
        return
    await start_animation(pilot, screen)  # a puzzle: space holds the running animation
    await pilot.press("space")
    assert screen.animation_paused and screen.animating
    await pilot.press("space")
    assert not screen.animation_paused
    await pilot.press("full_stop")


async def start_animation(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    screen.settings = screen.settings.__class__(speed=1, animate=True)
    screen.animator.seconds = lambda: 60.0  # a frame outlasts the test: no race with a busy machine
    if hasattr(screen, "draft"):
        screen.session.restart()
        await pilot.press("f", "f", "enter")
    else:
        for candidate in ("left", "right", "up", "down"):
            await pilot.press(candidate)
            if screen.animating:
                break
    assert screen.animating


async def skip(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    """A running animation jumps to its end."""
    await start_animation(pilot, screen)
    await pilot.press("full_stop")
    assert not screen.animating and screen.shown == screen.state


async def step(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    """A match's . plays one tick while paused."""
    before = screen.session.state
    await pilot.press("full_stop")
    await wait_idle(pilot)
    assert screen.session.state != before and screen.paused


async def count(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    screen.session.restart()  # an empty editor, whatever the checks before typed
    await pilot.pause()
    await pilot.press("left_square_bracket", "3")
    assert str(screen.draft.program()[0]) == "LOOP(3){}"


async def delete_after(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    screen.session.restart()  # an empty editor, whatever the checks before typed
    await pilot.pause()
    await pilot.press("f", "left", "delete")
    assert str(screen.draft.program()[0]) == ""


async def home_end(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    screen.session.restart()  # an empty editor, whatever the checks before typed
    await pilot.pause()
    await pilot.press("f", "l", "home")
    assert screen.draft.cursor == 0
    await pilot.press("end")
    assert screen.draft.cursor == 2


async def restart(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    screen.session.restart()  # an empty editor, whatever the checks before typed
    await pilot.pause()
    await pilot.press("f", "enter")
    assert screen.state.runs == 1
    await pilot.press("ctrl+r")
    assert screen.state.runs == 0


async def next_round(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    """After a round, enter plays the next one, seats swapped."""
    for _ in range(300):
        if screen.session.over:
            break
        await pilot.press(*(("g", "y") if screen.game.key == "evasion" else ("full_stop",)))  # concede, or tick until a crash
        await wait_idle(pilot)
    assert screen.session.over
    seating = screen.match.seating
    await pilot.press("enter")
    await wait_idle(pilot)
    assert not screen.session.over and screen.match.seating != seating
    if not screen.paused:
        await pilot.press("space")
        await wait_idle(pilot)


async def still(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    """f12: an SVG of this moment in the data folder's stills/."""
    import os

    folder = Path(os.environ["TUI_GRID_DATA"]) / "stills"
    before = set(folder.glob("*.svg")) if folder.exists() else set()
    await pilot.press("f12")
    await pilot.pause()
    made = set(folder.glob("*.svg")) - before
    assert len(made) == 1 and "<svg" in next(iter(made)).read_text()[:2000]
    assert "Still saved" in str(screen.query_one("#message").content)


#: Every secondary entry any bar shows, and how its effect is checked.
CHECKS: dict[tuple[str, str], Check] = {
    ("z", "Zoom"): zoom,
    ("c", "Coords"): coords,
    ("ctrl+s", "Save"): save,
    ("+", "Faster"): faster,
    ("-", "Slower"): slower,
    ("space", "Pause"): pause,
    (".", "Skip"): skip,
    (".", "Step"): step,
    ("0-9", "Count"): count,
    ("del", "Delete after"): delete_after,
    ("home end", "Start/end"): home_end,
    ("ctrl+r", "Restart"): restart,
    ("enter", "Next"): next_round,
    ("f12", "Still"): still,
}


@pytest.mark.parametrize("game", list(BOARDS))
async def test_every_secondary_key_does_what_its_entry_says(game: str) -> None:
    app = make_app(game, BOARDS[game], speed=2)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_game(pilot, game)
        extras = screen.query_one(KeyBar).extras
        assert extras, game
        for entry in extras:
            assert entry in CHECKS, f"{game}: no test presses {entry}"
            await CHECKS[entry](pilot, screen)
            assert pilot.app.screen is screen, entry


@pytest.mark.parametrize("game", list(BOARDS))
async def test_what_does_not_fit_is_behind_more(game: str) -> None:
    """At 80 columns: the main keys come first, the bar keeps to two lines, and `? more`
    ends it when keys were left out; at 160 columns, everything fits."""
    app = make_app(game, BOARDS[game])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, game)
        bar = screen.query_one(KeyBar)
        lines = bar.lines(80)
        shown = [entry for line in lines for entry in line]
        assert len(lines) <= 2 and all(sum(len(k) + len(v) + 2 for k, v in line) - 1 <= 80 for line in lines)
        entries = bar.items + bar.extras
        if MORE in shown:
            body = shown[:-1]
            assert shown[-1] == MORE and ("?", "Help") not in shown
            assert body == [entry for entry in entries if entry[0] != "?"][: len(body)]  # main keys first, in order
        else:
            assert shown == entries
        wide = [entry for line in bar.lines(400) for entry in line]
        assert wide == entries


def test_every_game_shows_secondary_keys_that_are_checked() -> None:
    """The same table against every keymap, as if its screen offered everything."""
    for game in all_games():
        keymap = game.screen_class().KEYMAP
        bar = KeyBar(keymap)
        for entry in bar.extras:
            assert entry in CHECKS, (game.key, entry)
