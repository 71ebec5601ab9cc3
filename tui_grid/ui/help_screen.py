"""One help screen per game: its rules, then the keys every game shares."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tui_grid.games.registry import GameDefinition
from tui_grid.ui.keys import KEY_HELP


def help_markdown(game: GameDefinition) -> str:
    rows = "\n".join(f"| `{keys}` | {what} |" for keys, what in KEY_HELP)
    return f"{game.help_markdown().strip()}\n\n## Keys\n\n| Key | Action |\n|---|---|\n{rows}\n"


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    HelpScreen #help-footer { dock: bottom; height: 1; color: $text-muted; }
    """

    def __init__(self, game: GameDefinition) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(help_markdown(self.game))
            yield Static("esc closes  ·  ↑↓ pgup pgdn scroll", id="help-footer")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_dismiss(self) -> None:
        self.dismiss(None)
