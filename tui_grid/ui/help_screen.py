"""One help screen per game: its rules, then the keys of its active keymap."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from rich.markdown import Markdown

from tui_grid.games.registry import GameDefinition
from tui_grid.ui.keys import Keymap
from tui_grid.ui.plain import Plain


def key_rows(keymap: Keymap, offers: Callable[[str], bool] = lambda _: True) -> list[tuple[str, str]]:
    """(keys, what they do), in keymap order; keys sharing one description share a row,
    which a key's `display` speaks for whole (its group's other keys are not listed)."""
    rows: list[tuple[str, str]] = []
    summed_up = False  # the last row is a display's summary of its group
    for key in keymap.keys:
        if key.common and not offers(key.common):
            continue
        shown = ", ".join(key.shown_keys.split(", ")) if not key.display else key.display
        if key.display and key.display.startswith("←"):
            shown = "← ↑ ↓ →"
        if rows and rows[-1][1] == key.help:
            if not summed_up and not key.display and shown not in rows[-1][0]:
                rows[-1] = (f"{rows[-1][0]}, {shown}", key.help)
            continue
        rows.append((shown, key.help))
        summed_up = bool(key.display)
    return rows


def help_markdown(game: GameDefinition, keymap: Keymap, offers: Callable[[str], bool] = lambda _: True) -> str:
    rows = "\n".join(f"| `{keys}` | {what} |" for keys, what in key_rows(keymap, offers))
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

    def __init__(self, game: GameDefinition, keymap: Keymap, offers: Callable[[str], bool] = lambda _: True) -> None:
        super().__init__()
        #: The help as markdown: the rules, then the keys the screen offers now.
        self.source = help_markdown(game, keymap, offers)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            # One widget for the whole text: Textual's Markdown widget mounts one per block
            # and cell (about 95 for a game's help), and opening it cost several times more.
            yield Plain(Markdown(self.source), id="help-text")
            yield Plain("esc closes  ·  ↑↓ pgup pgdn scroll", id="help-footer")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_dismiss(self) -> None:
        self.dismiss(None)
