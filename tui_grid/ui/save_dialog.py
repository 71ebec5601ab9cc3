"""ctrl+s: save the game in progress as a board file with its moves (`played:`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from tui_grid.core import saves
from tui_grid.core.session import Session
from tui_grid.core.words import plural
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.plain import Plain, PlainInput, styled, tell


class SaveDialog(ModalScreen[Path | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    SaveDialog { align: center middle; }
    SaveDialog > Vertical { width: 64; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    SaveDialog #error { color: $error; height: auto; }
    SaveDialog #keys, SaveDialog #folder { color: $text-muted; }
    """

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, session: Session[Any, Any]) -> None:
        super().__init__()
        self.game, self.loaded, self.session = game, loaded, session

    def compose(self) -> ComposeResult:
        name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.loaded.name)[:40] or "game"
        name = name.removeprefix(f"{self.game.key}-") or name  # a game id's name: not 'jimmy-jimmy-10x10-…'
        with Vertical():
            yield Plain(styled((f"Save this {self.game.title} game", "b"), f"  ({plural(len(self.session.log), 'move')})"))
            yield PlainInput(value=f"{self.game.key}-{name}-saved.txt", compact=True, id="path")
            yield Plain(f"a name alone saves in {working_folder()}", id="folder")
            yield Plain(id="error")
            yield Plain(f"enter saves · esc cancels · open it again with tui-grid play {self.game.key} FILE", id="keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self) -> None:
        self.query_one("#error", Plain).update("")

    def on_input_submitted(self) -> None:
        text = self.query_one(Input).value.strip()
        if not text:
            self.query_one("#error", Plain).update("Type a file name to save to.")
            return
        try:
            path = Path(text).expanduser()
            folder, taken = path.is_dir(), path.exists() or path.is_symlink()
        except (OSError, RuntimeError) as exc:  # a folder we may not look into; ~nobody
            self.query_one("#error", Plain).update(f"Cannot save to {text}: {getattr(exc, 'strerror', None) or exc}")
            return
        if folder:
            self.query_one("#error", Plain).update(f"{path} is a folder: add a file name.")
            return
        if not _is_folder(path.parent):  # never made: a typo'd folder would appear silently
            self.query_one("#error", Plain).update(f"There is no folder {path.parent}: type one that exists.")
            return
        if not taken and self._write(path, replace=False):
            return
        self._ask_to_replace(path)

    def _ask_to_replace(self, path: Path) -> None:
        from tui_grid.ui.confirm_dialog import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(path, replace=True)
            else:
                self.query_one("#error", Plain).update(f"{path} was kept: type another name.")
                self.query_one(Input).focus()

        question = ConfirmDialog(f"Replace {path}?", "It exists already; what it holds now would be lost.", yes="replace it", no="keep it")
        self.app.push_screen(question, answered)

    def _write(self, path: Path, *, replace: bool) -> bool:
        """Save; False (and the question) when the file appeared meanwhile and was not to be
        replaced, or a message when it cannot be written."""
        try:  # unlocked: a file the player names is theirs to write, and the last rename wins whole
            saves.write(path, saves.save_text(self.game, self.loaded, self.session), lock=False, replace=replace, make_folder=False)
        except FileExistsError:
            return False
        except OSError as exc:
            self.query_one("#error", Plain).update(f"Cannot save to {path}: {exc.strerror or exc}")
            return True
        tell(self, f"Saved {plural(len(self.session.log), 'move')} to {path.absolute()}", title="Saved")
        self.dismiss(path)
        return True

    def action_cancel(self) -> None:
        self.dismiss(None)


def working_folder() -> str:
    """The folder a bare file name lands in (the app's working folder), said in the dialog
    so that no save lands somewhere unannounced."""
    try:
        return str(Path.cwd())
    except OSError:  # the folder was deleted under us
        return "the current folder"


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False
