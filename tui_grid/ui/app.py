"""The Textual application: menu first, or straight into a game from `tui-grid play`."""

from __future__ import annotations

from textual.app import App

from tui_grid.games.registry import GameDefinition, LoadedBoard, get_game
from tui_grid.ui.settings import Settings


class TuiGridApp(App):
    TITLE = "tui_grid"
    CSS_PATH = "tui_grid.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        game_key: str | None = None,
        loaded: LoadedBoard | None = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self._start_game_key = game_key
        self._start_loaded = loaded

    def on_mount(self) -> None:
        from tui_grid.ui.menu import BoardPickerScreen, MenuScreen

        self.push_screen(MenuScreen())
        if self._start_game_key is None:
            return
        game = get_game(self._start_game_key)
        self.push_screen(BoardPickerScreen(game))
        if self._start_loaded is not None:
            self.start_game(game, self._start_loaded)

    def start_game(self, game: GameDefinition, loaded: LoadedBoard) -> None:
        self.push_screen(game.screen_class()(game, loaded, self.settings))
