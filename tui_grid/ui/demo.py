"""The attract mode (`tui-grid demo`): every game's solver or bots at work, unattended,
scene after scene, forever. Each scene is an ordinary game screen (so it looks exactly
like the app) with a banner on top: a title and a caption that says what the viewer sees
and why it is clever. The director owns the clock: a scene lasts `scene_seconds` on an
injected clock; the next scene's board is made in a worker while this one plays.

Keys while the demo runs: space pauses, n and p go to the next and previous scene, + and
- change the speed (the game's own keys), enter takes over the current game as a player,
esc leaves the demo, q quits. Leaving a game taken over goes back to the demo, at the next
scene.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from tui_grid.core.text import echo
from tui_grid.games.registry import LoadedBoard, all_games, get_game
from tui_grid.ui.match_screen import MatchScreen
from tui_grid.ui.plain import Plain, styled
from tui_grid.ui.render_caches import release_render_caches

DEFAULT_SCENE_SECONDS = 25.0


@dataclass(frozen=True)
class Scene:
    """One scene: a game and one of its demo scenes (registry.DemoScene)."""

    game: str
    title: str
    board: str
    caption: str
    players: tuple[str, ...] | None = None


def all_scenes() -> tuple[Scene, ...]:
    """Every game's scenes, in the menu's order."""
    return tuple(Scene(game.key, scene.title, scene.board, scene.caption, scene.players)
                 for game in all_games() for scene in game.demo_scenes)


SCENES = all_scenes()


def scenes_for(games: tuple[str, ...] | None) -> tuple[Scene, ...]:
    """The scenes of these games (all when None), in the usual order; ValueError naming
    the games that have scenes when `games` names none, or one without a scene."""
    if games is None:
        return SCENES
    known = sorted({scene.game for scene in SCENES})
    unknown = [key for key in games if key not in known]
    if unknown:
        raise ValueError(f"no demo scene for {echo(', '.join(unknown))} (choose from {', '.join(known)})")
    if not games:
        raise ValueError(f"names no game (choose from {', '.join(known)})")
    return tuple(scene for scene in SCENES if scene.game in games)


def scene_of(game: str, board: str) -> Scene:
    """One board played the way its game's demo scene plays (the solver, or its bots)."""
    template = next(scene for scene in SCENES if scene.game == game)
    return Scene(game, board, board.replace("{", "{{").replace("}", "}}"), "", template.players)


def board_id(scene: Scene, seed: int, cycle: int) -> str:
    """The same seed gives the same demo; each cycle through the scenes shows new boards."""
    return scene.board.format(seed=random.Random(f"{seed}:{cycle}:{scene.title}").randrange(1, 1_000_000))


class DemoBanner(Plain):
    """The scene's title and caption, over the game it shows."""

    DEFAULT_CSS = """
    DemoBanner { dock: top; height: 2; padding: 0 1; background: $primary-muted; }
    """


class DemoDirector:
    """Runs the scenes on the app: pushes each one's screen, starts its solver or bots,
    and moves on when the scene's time is up."""

    def __init__(
        self,
        app: Any,
        scenes: tuple[Scene, ...] = SCENES,
        scene_seconds: float = DEFAULT_SCENE_SECONDS,
        seed: int = 1,
        clock: Callable[[], float] = time.monotonic,
        banner: bool = True,
    ) -> None:
        self.app = app
        self.banner = banner
        self.scenes = scenes
        self.scene_seconds = scene_seconds
        self.seed = seed
        self.clock = clock
        self.index = -1
        self.cycle = 0
        self.screen: Any = None
        self.paused = False
        self.running = False
        self._left = scene_seconds  # seconds of the current scene still to play
        self._since = clock()
        self._timer: Any = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo-boards")
        self._boards: dict[tuple[int, int], Future[LoadedBoard]] = {}
        #: The scene's screen the player took over: leaving it resumes the demo (`resume`).
        self.taken: Any = None

    # --- boards, made ahead ----------------------------------------------------------------
    def _board(self, index: int, cycle: int) -> Future[LoadedBoard]:
        key = (index, cycle)
        if key not in self._boards:
            scene = self.scenes[index]
            game = get_game(scene.game)
            self._boards[key] = self._pool.submit(game.load, board_id(scene, self.seed, cycle))
        return self._boards[key]

    def _ahead(self) -> None:
        index, cycle = self.index + 1, self.cycle
        if index >= len(self.scenes):
            index, cycle = 0, cycle + 1
        self._board(index, cycle)
        keep = {(self.index, self.cycle), (index, cycle)}
        for key in [key for key in self._boards if key not in keep]:
            del self._boards[key]  # shown already (or skipped past): nothing grows over hours

    # --- the scenes ------------------------------------------------------------------------
    def start(self, first: int = 0) -> None:
        self.running = True
        self.show(first)
        self._timer = self.app.set_interval(0.25, self.tick)

    def resume(self) -> None:
        """The player left the game they took over (it is off the screen): on with the scene after it."""
        self.taken = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo-boards")
        self._boards.clear()
        self.start(self.index + 1)

    def show(self, index: int) -> None:
        """Replace the current scene's screen with scene `index`'s."""
        if index < 0:
            index, self.cycle = len(self.scenes) - 1, max(0, self.cycle - 1)
        elif index >= len(self.scenes):
            index, self.cycle = 0, self.cycle + 1
        self._leave_scene()
        release_render_caches()
        self.index = index
        scene = self.scenes[index]
        game = get_game(scene.game)
        loaded = self._board(index, self.cycle).result()  # made while the last scene played
        options: dict[str, Any] = {} if scene.players is None else {"players": scene.players}
        if scene.game == "tron":
            options["rounds"] = 9
        screen = game.screen_class()(game, loaded, self.app.settings, **options)
        screen.in_demo = True
        self.screen = screen
        self.app.push_screen(screen)
        if self.banner:  # without it (a recording) the scene is the app's own screen, key bar and all
            banner = DemoBanner(self.banner_text(), id="demo-banner")
            self.app.call_after_refresh(lambda: screen.is_attached and screen.mount(banner))
            self.app.call_after_refresh(lambda: _show_key_bar(screen, False))
        if scene.players is None:
            self.app.call_after_refresh(screen.action_watch)
        self._left, self._since, self.paused = self.scene_seconds, self.clock(), False
        self._ahead()

    def banner_text(self) -> Any:
        scene = self.scenes[self.index]
        return styled((f"DEMO {self.index + 1}/{len(self.scenes)} · {scene.title}", "b"),
                      ("   keys: space n p enter esc", "dim"), "\n", scene.caption)

    def _leave_scene(self) -> None:
        screen, self.screen = self.screen, None
        if screen is not None and screen.is_attached and screen in self.app.screen_stack:
            while self.app.screen is not screen and len(self.app.screen_stack) > 1:
                self.app.pop_screen()  # a dialog a key opened over the scene
            if self.app.screen is screen:
                self.app.pop_screen()

    def tick(self) -> None:
        """On the UI timer: the next scene once this one's time is up."""
        if not self.running or self.paused:
            return
        if self.clock() - self._since >= self._left:
            self.show(self.index + 1)

    # --- keys --------------------------------------------------------------------------------
    def pause(self) -> None:
        """Space: hold the scene (its clock and its play), or go on."""
        now = self.clock()
        if self.paused:
            self._since, self.paused = now, False
        else:
            self._left, self.paused = self._left - (now - self._since), True
        screen = self.screen
        if screen is not None:
            if getattr(screen, "watching", True):  # a solver still playing, or a match: hold its play too
                screen.action_pause()
            screen.say("Demo paused: space goes on, n the next scene, enter plays from here." if self.paused else "")

    def take_over(self) -> None:
        """Enter: the demo ends here and the game shown is the player's, from this position."""
        screen = self.screen
        self.stop(leave=False)
        if screen is None:
            return
        self.taken = screen
        screen.in_demo = False  # from here it is the player's game
        for banner in screen.query("#demo-banner"):
            banner.remove()
        _show_key_bar(screen, True)
        if isinstance(screen, MatchScreen):  # a match: the player takes participant 1's seat
            screen.take_seat(0)
            screen.say("Your seat now, from here: the game's own keys steer (? shows them).")
        elif screen.watching:
            screen.stop_watching()
            screen.say("Your game now, from here.")

    def stop(self, leave: bool = True) -> None:
        """Esc: the demo ends (`leave`: its scene closes too)."""
        self.running = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if leave:
            self._leave_scene()
        self._pool.shutdown(wait=False, cancel_futures=True)


def _show_key_bar(screen: Any, shown: bool) -> None:
    """A scene hides its game's key bar: the banner names the demo's keys, and the bar's
    (n for a new board, say) would say otherwise. Taking over shows it again."""
    from tui_grid.ui.key_bar import KeyBar

    if screen.is_attached:
        for bar in screen.query(KeyBar):
            bar.display = shown
