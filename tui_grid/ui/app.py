"""The Textual application: menu first, or straight into a game from `tui-grid play`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.app import App
from textual.binding import Binding

from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.policy import LOCAL, Policy
from tui_grid.games.registry import BoardFiles, GameDefinition, LoadedBoard, get_game
from tui_grid.ui.plain import tell
from tui_grid.ui.settings import Settings


class TuiGridApp(App):
    TITLE = "tui_grid"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        # The demo's keys, over the scene's game while the demo runs (check_action).
        Binding("space", "demo('pause')", "Pause", show=False, priority=True),
        Binding("n", "demo('next')", "Next scene", show=False, priority=True),
        Binding("p", "demo('previous')", "Previous scene", show=False, priority=True),
        Binding("enter", "demo('take_over')", "Play", show=False, priority=True),
        Binding("escape", "demo('stop')", "Leave", show=False, priority=True),
    ]

    def __init__(
        self,
        game_key: str | None = None,
        loaded: LoadedBoard | None = None,
        settings: Settings | None = None,
        demo: dict[str, Any] | None = None,
        online: str | None = None,
        policy: Policy = LOCAL,
    ) -> None:
        super().__init__()
        #: What whoever is at the keys may do (core.policy): decided by the command line.
        self.policy = policy
        self.settings = settings or Settings()
        self._demo_options = demo
        self.demo: Any = None  # the running DemoDirector, if any
        self.taken_from_demo: Any = None  # the stopped DemoDirector whose game the player took over
        self.quitting = False  # set by exit_saving: keys queued behind q do nothing
        self._start_game_key = game_key
        self._start_loaded = loaded
        self._start_online = online  # "" opens the lobby; a game also joins its quick-match queue
        self.hub: Any = None  # the link to the `serve ssh` hub, made when Online is first opened

    def on_mount(self) -> None:
        from tui_grid.online.client import hub_available
        from tui_grid.ui import bests
        from tui_grid.ui.menu import BoardPickerScreen, MenuScreen

        if self.policy.remote and hub_available():  # a serve ssh session: the server keeps an account's bests
            from tui_grid.online.remote_bests import HubBests

            bests.use(HubBests(self._quiet_hub_link))

        self.push_screen(MenuScreen())
        self.call_after_refresh(self._check_size)
        if self._demo_options is not None:
            self.call_after_refresh(self.start_demo, **self._demo_options)
            return
        if self._start_online is not None:
            self.call_after_refresh(self.open_lobby, self._start_online or None)
            return
        if self._start_game_key is None:
            return
        game = get_game(self._start_game_key)
        if self._start_loaded is None:
            self.push_screen(BoardPickerScreen(game))
        else:  # its picker is made when the player goes back to it (`back_to_boards`)
            self.start_game(game, self._start_loaded)

    def start_game(self, game: GameDefinition, loaded: LoadedBoard) -> None:
        """Open a game; if this board has an autosaved game in progress, offer it first."""
        from tui_grid.core import saves
        from tui_grid.core.boardfile import read_board_file
        from tui_grid.ui.menu import BoardPickerScreen
        from tui_grid.ui.resume_dialog import ResumeDialog

        path = saves.pending(game, loaded) if isinstance(game, BoardFiles) and not loaded.played else None
        if path is None:
            self._open(game, loaded)
            return
        if not isinstance(self.screen, BoardPickerScreen):  # opened from the command line: the offer
            self.push_screen(BoardPickerScreen(game, highlight=loaded.name))  # comes over the game's boards
        try:
            text = read_board_file(path)  # its errors name the save, not the board
            saved = replace(loaded, played=text.meta.get("played", ""), source=text.source,
                            meta_lines=dict(text.meta_lines), meta_columns=dict(text.meta_columns))
            moves = len(game.start(saved)[1])
        except (BoardError, UsageError, OSError) as exc:  # a broken or unreadable save: the board, fresh
            # An autosave that cannot be read is kept aside under another name, and the
            # player told: nothing is deleted unseen.
            kept = saves.set_aside(path)
            self._open(game, loaded)
            where = f"it was kept as {kept}" if kept is not None else f"it stays at {path}"
            tell(self, f"Your saved game of this board could not be read ({exc}); {where}. The board starts fresh.",
                 title="Saved game unreadable", severity="warning", timeout=15)
            return

        def chosen(resume: bool | None) -> None:
            if resume is None:  # esc: not now; the save stays for another time
                if not isinstance(self.screen, BoardPickerScreen):  # opened from the command line
                    self.push_screen(BoardPickerScreen(game, highlight=loaded.name))
                return
            if resume:
                self._open(game, saved)
            else:  # a save that cannot be dropped (read-only folder) is only offered again
                saves.drop(path)
                self._open(game, loaded)

        self.push_screen(ResumeDialog(loaded.title, moves), chosen)

    def _open(self, game: GameDefinition, loaded: LoadedBoard) -> None:
        from tui_grid.ui.menu import BoardPickerScreen

        try:
            screen = game.screen_class()(game, loaded, self.settings)
        except (BoardError, UsageError) as exc:
            if not isinstance(self.screen, BoardPickerScreen):  # opened from the command line
                self.push_screen(BoardPickerScreen(game))
            tell(self, str(exc), title="Cannot open board", severity="error")
            return
        self.push_screen(screen)

    def back_to_boards(self, game: GameDefinition) -> None:
        """Leave a game's screen for its board picker: the one beneath it, or a new one when
        the game was opened straight from the command line (none is made at start, which
        makes `tui-grid play GAME BOARD` start a third faster). A game taken over from the
        demo goes back to the demo, at its next scene."""
        from tui_grid.ui.menu import BoardPickerScreen, MenuScreen

        below = self.screen_stack[-2] if len(self.screen_stack) >= 2 else None
        taken_from = self.taken_from_demo
        if taken_from is not None and taken_from.taken is self.screen:
            self.taken_from_demo, self.demo = None, taken_from
            self.pop_screen()
            taken_from.resume()
        elif isinstance(below, MenuScreen):
            self.switch_screen(BoardPickerScreen(game))
        else:  # its picker, the lobby, a demo: whatever opened it
            self.pop_screen()

    def on_resize(self) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        """A notice over everything while the terminal is too small; it dismisses itself
        once the terminal is big enough again."""
        from tui_grid.ui.too_small import TooSmallScreen, too_small

        if too_small(*self.size) and not isinstance(self.screen, TooSmallScreen):
            self.push_screen(TooSmallScreen())

    def hub_link(self) -> Any:
        """This session's link to the `serve ssh` hub, made on first use; None where there
        is none (not a session, or the link cannot be made: OSError)."""
        from tui_grid.online.client import hub_from_environment

        if self.hub is None:
            self.hub = hub_from_environment()
        return self.hub

    def open_lobby(self, quick: str | None = None) -> None:
        """The Online lobby, linked to this session's hub on first use."""
        from tui_grid.ui.lobby import LobbyScreen

        if self.hub is not None and self.hub.closed.is_set():
            tell(self, "The link to the server's lobby was closed: reconnect to play online.", title="Online", severity="error")
            return
        try:
            self.hub_link()
        except OSError as exc:
            tell(self, f"Cannot reach the server's lobby: {exc.strerror or exc}", title="Online", severity="error")
            return
        if self.hub is None:
            tell(self, "Online play is for sessions of 'tui-grid serve ssh'.", title="Online", severity="warning")
            return
        self.push_screen(LobbyScreen(self.hub, quick))

    def _quiet_hub_link(self) -> Any:
        try:
            return self.hub_link()
        except OSError:
            return None

    def on_unmount(self) -> None:
        if self.hub is not None:
            self.hub.close()

    def start_demo(self, **options: Any) -> None:
        """The attract mode (ui.demo): scenes of every game, until a key ends it."""
        from tui_grid.ui.demo import DemoDirector

        if self.demo is not None:
            self.demo.stop()
        self.demo = DemoDirector(self, **options)
        self.demo.start()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "demo":
            demo = self.demo
            return demo is not None and demo.running and self.screen is demo.screen
        return True

    def action_demo(self, what: str) -> None:
        demo = self.demo
        if what == "pause":
            demo.pause()
        elif what == "next":
            demo.show(demo.index + 1)
        elif what == "previous":
            demo.show(demo.index - 1)
        elif what == "take_over":
            demo.take_over()
            self.demo, self.taken_from_demo = None, demo
        else:
            demo.stop()
            self.demo = None

    def action_quit(self) -> None:
        self.exit_saving()

    def exit_saving(self) -> None:
        """Quit; every game in progress is autosaved first, so nothing is lost."""
        from tui_grid.ui.game_screen import GameScreen

        if self.quitting:
            return
        if self.demo is not None:
            self.demo.stop(leave=False)
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and not screen.autosave():
                return  # told; q again quits without the save
        self.quitting = True
        self.exit()
