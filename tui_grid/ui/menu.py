"""The opening menu of games, and each game's board list with a preview."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList

from tui_grid.core.catalog import BoardEntry
from tui_grid.core.control import DEFAULT_TIME_LIMIT, Cancelled, OutOfTime, SearchControl
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.online.client import hub_available
from tui_grid.core.text import clip
from tui_grid.games.registry import BoardFiles, GameDefinition, LoadedBoard, all_games
from tui_grid.online.records import Best
from tui_grid.ui import bests
from tui_grid.ui.board_keys import OwnerCall
from tui_grid.ui.plain import Plain, option, plain, styled, tell

LOGO = "▀█▀ █ █ ▀█▀   █▀▀ █▀█ ▀█▀ █▀▄\n █  █▄█ ▄█▄   █▄█ █▀▄ ▄█▄ █▄▀"
NEW_BOARD = "__new__"
OPEN_FILE = "__open__"
DEMO = "__demo__"
ONLINE = "__online__"
PREVIEW_ROWS, PREVIEW_COLS = 18, 48
#: The board list's width: the least (80 columns), and the most on a wide terminal, where
#: it takes 3/10 of the width so long titles are not cut.
LIST_WIDTH, WIDE_LIST_WIDTH = 34, 50


def list_width(screen_width: int) -> int:
    return max(LIST_WIDTH, min(WIDE_LIST_WIDTH, screen_width * 3 // 10))


class MenuScreen(Screen):
    # esc does not quit here: one stray key must not end the app. The about line names the
    # keys; there is no key bar.
    BINDINGS = [Binding("q", "app.quit", "Quit", show=False)]
    DEFAULT_CSS = """
    MenuScreen { align: center middle; }
    MenuScreen > Vertical { width: 100%; max-width: 100; height: auto; max-height: 100%; padding: 0 1; }
    MenuScreen #logo { color: $accent; text-align: center; width: 100%; padding-bottom: 1; }
    MenuScreen OptionList { height: auto; max-height: 14; }
    MenuScreen #about { color: $text-muted; padding: 1 1 0 1; height: auto; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(LOGO, id="logo")
            options = [option(styled(game.title, (f"  — {game.tagline}", "dim")), id=game.key) for game in all_games()]
            if hub_available():
                options.append(option(styled("Online", ("  — the lobby: play Tron and Evasion against other players, or watch", "dim")), id=ONLINE))
            options.append(option(styled("Demo", ("  — every solver and bot at work, scene after scene", "dim")), id=DEMO))
            yield OptionList(*options, id="games")
            # The menu's keys, said once (a key bar would repeat "q Quit" at a fifth of the
            # cost of drawing the menu, which every SSH session pays at connection).
            yield Plain("enter picks a game  ·  ? in a game shows its rules and keys  ·  q quits", id="about")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from tui_grid.games.registry import get_game

        if event.option.id == DEMO:
            self.app.start_demo()
            return
        if event.option.id == ONLINE:
            self.app.open_lobby()
            return
        self.app.push_screen(BoardPickerScreen(get_game(event.option.id)))


class BoardPickerScreen(Screen):
    BINDINGS = [
        Binding("escape,b", "back", "Back"),
        Binding("n", "new", "New random"),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    BoardPickerScreen #heading { height: 1; padding: 0 1; background: $primary-muted; text-style: bold; }
    BoardPickerScreen #boards { height: 1fr; }
    BoardPickerScreen #preview { width: 1fr; height: 1fr; padding: 0 1; border: round $primary-muted; }
    """

    def __init__(self, game: GameDefinition, highlight: str | None = None) -> None:
        """`highlight`: the board to start on (the one just opened), else the first."""
        super().__init__()
        self.game = game
        self.highlight = highlight
        self.entries: dict[str, BoardEntry] = {entry.name: entry for entry in game.boards()}
        self._cancel: threading.Event | None = None
        #: What a solve of this game counts (None: it keeps no bests), the player's bests
        #: by board key, and each entry's board key (worked out once there are bests).
        self.best_unit: str | None = getattr(game.screen_class(), "BEST_UNIT", None)
        self.solved: dict[str, Best] = {}
        self._board_keys: dict[str, str | None] = {}
        self._stop_listening: Callable[[], None] = lambda: None
        self.entry_width = LIST_WIDTH  # the list's, set from the screen's at compose and on resize

    def compose(self) -> ComposeResult:
        yield Plain(f"{self.game.title} — pick a board", id="heading")
        if self.best_unit is not None:  # before reading: a solve recorded meanwhile is heard
            self._stop_listening = bests.listen(self.game.key, lambda: self.post_message(OwnerCall(self.show_bests)))
            self.solved = bests.read_bests(self.game.key)
        with Horizontal():
            options = [option("＋ new random board…", id=NEW_BOARD)]
            if self._opens_files():
                options.append(option("↗ open a file…", id=OPEN_FILE))
            self.entry_width = list_width(self.app.size.width)
            options += [option(self._prompt(name), id=name) for name in self.entries]
            boards = OptionList(*options, id="boards")
            boards.styles.width = self.entry_width
            yield boards
            yield Plain(id="preview")
        yield Footer(compact=True)

    # --- the player's bests: solved boards marked, each with its best against the optimum ------
    def _prompt(self, name: str) -> Text:
        """An entry's line: its title, and for a solved board the mark and a second line
        with the best. Titles move right by the mark's width only once any board is solved."""
        title, width = self.entries[name].title(), self.entry_width
        if not self.solved:
            return plain(clip(title, width - 4))
        best = self._best_of(name)
        if best is None or self.best_unit is None:
            return styled("  " + clip(title, width - 6))
        words = bests.best_words(best, self.best_unit)
        return styled((f"{bests.SOLVED_MARK} ", "b green"), clip(title, width - 6), "\n",
                      (clip(f"  {words}", width - 4), "dim"))

    def _best_of(self, name: str) -> Best | None:
        if name not in self._board_keys:
            try:
                board = self.game.parse(self.entries[name].load())
                self._board_keys[name] = bests.board_key(self.game, board)
            except (BoardError, UsageError):
                self._board_keys[name] = None
        key = self._board_keys[name]
        return None if key is None else self.solved.get(key)

    def show_bests(self) -> None:
        """Read the bests again and redraw the entries (a solve was recorded)."""
        self.solved = bests.read_bests(self.game.key)
        self._redraw_entries()

    def _redraw_entries(self) -> None:
        boards = self.query_one("#boards", OptionList)
        for name in self.entries:
            boards.replace_option_prompt(name, self._prompt(name))
        self._show_highlighted()

    def on_resize(self) -> None:
        """A wider or narrower terminal: the list's width follows, and its titles' clipping."""
        width = list_width(self.app.size.width)
        if width != self.entry_width:
            self.entry_width = width
            self.query_one("#boards", OptionList).styles.width = width
            self._redraw_entries()

    def on_owner_call(self, message: OwnerCall) -> None:
        message.call()

    def on_unmount(self) -> None:
        self._stop_listening()

    def on_mount(self) -> None:
        boards = self.query_one("#boards", OptionList)
        first = boards.option_count - len(self.entries) if self.entries else 0
        names = list(self.entries)
        boards.highlighted = first + names.index(self.highlight) if self.highlight in names else first
        boards.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.query_one("#preview", Plain).update(self._preview(event.option.id))

    def _preview(self, name: str | None) -> Text:
        if name == OPEN_FILE:
            return styled("A board file, or a game saved with ctrl+s: it goes on from its last move.")
        if name == NEW_BOARD or name not in self.entries:
            return styled("A new board: choose its options (and a seed), or paste a game id.")
        try:
            text = self.entries[name].load()
            board = self.game.parse(text)
        except (BoardError, UsageError) as exc:
            return styled(("This board cannot be loaded:", "b red"), "\n", str(exc))
        spoilers = set(self.game.spoiler_keys)
        all_rows = self.game.preview_rows(board)
        rows = [row[:PREVIEW_COLS] for row in all_rows[:PREVIEW_ROWS]]
        cropped = len(all_rows) > PREVIEW_ROWS or any(len(row) > PREVIEW_COLS for row in all_rows)
        body = "\n".join(rows) + ("\n…" if cropped else "")
        meta: list[str | tuple[str, str]] = []
        for key, value in text.meta.items():
            if key not in spoilers and key not in ("title", "played", "game"):
                meta += ["\n", (f"{key}:", "dim"), f" {value}"]
        best = self._best_of(name) if self.solved and self.best_unit else None
        if best is not None and self.best_unit is not None:
            times = "once" if best.solves == 1 else f"{best.solves} times"
            meta += ["\n\n", (f"{bests.SOLVED_MARK} Your best: {bests.best_words(best, self.best_unit)}", "b"),
                     f" (solved {times})"]
        return styled((text.title or name, "b"), "\n\n", body, "\n", *meta)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == NEW_BOARD:
            self.action_new()
            return
        if event.option.id == OPEN_FILE:
            from tui_grid.ui.open_dialog import OpenFileDialog

            self.app.push_screen(OpenFileDialog(self.game), self._file_chosen)
            return
        try:
            loaded = self.game.load(str(self.entries[event.option.id].path))
        except (BoardError, UsageError) as exc:
            tell(self, str(exc), title="Cannot open board", severity="error")
            return
        self.app.start_game(self.game, replace(loaded, name=event.option.id))

    def _opens_files(self) -> bool:
        """Files by path for a local player only (never a file path for a stranger)."""
        return isinstance(self.game, BoardFiles) and self.app.policy.file_paths

    def _file_chosen(self, loaded: LoadedBoard | None) -> None:
        if loaded is not None:
            self.app.start_game(self.game, loaded)

    def action_new(self) -> None:
        from tui_grid.ui.new_board import NewBoardDialog

        self.app.push_screen(NewBoardDialog(self.game), self._new_board_chosen)

    def _new_board_chosen(self, game_id: str | None) -> None:
        if not game_id:
            return
        # Said in the preview, not a toast: a toast outlives a quick board and lies over the
        # next screen; the preview is redrawn once the board is made.
        self.query_one("#preview", Plain).update(styled((f"Generating {game_id}…", "b"), "\n\nesc cancels"))
        self._cancel = threading.Event()
        self._generate(game_id, self._cancel)

    def _show_highlighted(self) -> None:
        """The preview of the highlighted entry again, after a board was generated or not."""
        boards = self.query_one("#boards", OptionList)
        highlighted = boards.highlighted
        name = boards.get_option_at_index(highlighted).id if highlighted is not None else None
        self.query_one("#preview", Plain).update(self._preview(name))

    @work(thread=True, exclusive=True, group="generate", exit_on_error=False)
    def _generate(self, game_id: str, cancel: threading.Event) -> None:
        """Generate off the UI thread: a 1000x1000 map takes seconds."""
        try:
            loaded = self.game.load_id(game_id, SearchControl(cancel=cancel, every=256, time_limit=DEFAULT_TIME_LIMIT,
                                                                 max_cells=self.app.policy.max_cells))
        except OutOfTime as exc:
            self._after_generating(f"{game_id}: {exc}; try a smaller board or other options")
            return
        except Cancelled:
            self._after_generating()
            return
        except (BoardError, UsageError, ValueError) as exc:
            self._after_generating(str(exc))
            return
        self._after_generating()
        if not cancel.is_set():
            self.app.call_from_thread(self.app.start_game, self.game, loaded)

    def _after_generating(self, error: str = "") -> None:
        """From the worker: the preview back, and what went wrong if anything did."""
        self.app.call_from_thread(self._show_highlighted)
        if error:
            self.app.call_from_thread(tell, self, error, title="Cannot make board", severity="error")

    def action_back(self) -> None:
        if self._cancel is not None and not self._cancel.is_set() and any(w.is_running for w in self.workers):
            self._cancel.set()
            tell(self, "Cancelled.", title="New board")
            return
        self.app.pop_screen()
