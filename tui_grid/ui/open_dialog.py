"""The board picker's "open a file": a board file or a game saved with ctrl+s, by path.

What ctrl+s saves, the app opens again, as the command line (`tui-grid play GAME FILE`)
does. Never offered to a remote player (no file paths for strangers): the picker leaves
the entry out there.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input

from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.text import echo
from tui_grid.core.words import article
from tui_grid.games.registry import BoardFiles, GameDefinition, LoadedBoard
from tui_grid.ui.form import FormDialog
from tui_grid.ui.plain import Plain, PlainInput, styled
from tui_grid.ui.save_dialog import working_folder


class OpenFileDialog(FormDialog[LoadedBoard | None]):
    DEFAULT_CSS = """
    OpenFileDialog { align: center middle; }
    OpenFileDialog > Vertical { width: 64; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    OpenFileDialog #error { color: $error; height: auto; }
    OpenFileDialog #folder, OpenFileDialog #keys { color: $text-muted; width: 1fr; }
    OpenFileDialog #buttons { height: 1; }
    """

    def __init__(self, game: GameDefinition) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled((f"Open {article(self.game.title)} board or saved game", "b")))
            yield PlainInput(placeholder=f"{self.game.key}-…-saved.txt", compact=True, id="path")
            yield Plain(f"a name alone is looked for in {working_folder()}", id="folder")
            yield Plain(id="error")
            with Horizontal(id="buttons"):
                yield Plain("enter opens · esc cancels", id="keys")
                yield Button("Open", variant="primary", compact=True, id="open")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def chosen(self) -> LoadedBoard:
        """The file's board (and its moves, if saved mid-game); UsageError says what is wrong,
        with the file, line and column of a bad board."""
        text = self.query_one(Input).value.strip()
        if not text:
            raise UsageError("Type the path of a board file or a saved game.")
        assert isinstance(self.game, BoardFiles)
        try:
            path = Path(text).expanduser()
            if not path.is_file():
                raise UsageError(f"{echo(path)}: no such file" if not path.exists() else f"{echo(path)} is not a file")
            loaded = self.game.load(str(path))
            self.game.start(loaded)  # a saved game's moves are checked here, not after opening
        except BoardError as exc:
            raise UsageError(str(exc)) from None
        except (OSError, RuntimeError) as exc:  # a folder we may not look into; ~nobody
            raise UsageError(f"Cannot open {echo(text)}: {echo(getattr(exc, 'strerror', None) or exc)}") from None
        return loaded
