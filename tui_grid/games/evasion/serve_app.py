"""`tui-grid serve evasion` with its display: an app of one screen, the Evasion screen
watching the architect's feed (server.ServedMatch)."""

from __future__ import annotations

from typing import Any

from textual.app import App

from tui_grid.core.policy import LOCAL
from tui_grid.games.evasion.rules import Config
from tui_grid.games.evasion.screen import EvasionScreen
from tui_grid.games.evasion.server import EvasionServer, ServedMatch
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.settings import Settings


class ServeApp(App):
    """The app for `tui-grid serve evasion` without --headless: the served game only, the
    Evasion screen watching the architect's feed."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, server: EvasionServer) -> None:
        super().__init__()
        self.settings = Settings()
        self.policy = LOCAL  # the architect's own terminal
        self.game = game
        self.loaded = loaded
        self.feed = ServedMatch(server)
        self.screen_shown: EvasionScreen | None = None

    def on_mount(self) -> None:
        server = self.feed.server
        self.screen_shown = EvasionScreen(self.game, self.loaded, self.settings, players=server.kinds, rounds=self.feed.match.rounds, feed=self.feed)
        self.push_screen(self.screen_shown)

    def exit_saving(self) -> None:
        self.exit()

    def back_to_boards(self, game: GameDefinition) -> None:
        """esc on the served game quits: there are no boards behind it."""
        self.exit()

    def pop_screen(self) -> Any:  # a dialog closing; the served game's own pop quits
        if len(self.screen_stack) <= 2:
            self.exit()
            return None
        return super().pop_screen()


def serve_live(
    game: GameDefinition,
    config: Config,
    protocol: str,
    port: int,
    hunter: str,
    prey: str,
    max_steps: int | None,
    options: dict[str, Any],
    publisher: Any = None,
) -> dict[str, Any] | None:
    """Run the architect with its game on screen; the result once the app closes."""
    from dataclasses import replace

    from tui_grid.core.errors import listen_error

    if protocol == "2016":
        config = replace(config, preset="2016")
    if max_steps is not None:
        config = replace(config, max_steps=max_steps)
    loaded = LoadedBoard(config, "served", f"N={config.n} M={config.m}")
    try:
        server = EvasionServer(config, protocol, port, hunter, prey, max_steps, keep_preset=True, **options)
    except OSError as exc:
        raise listen_error(options.get("host", "127.0.0.1"), port, exc) from None
    app = ServeApp(game, loaded, server)
    if publisher is not None:  # the lobby of a `serve ssh` watches too
        publisher.attach(server)
    try:
        app.run()
    finally:
        app.feed.close()
        if publisher is not None:
            publisher.close()
    return app.feed.result
