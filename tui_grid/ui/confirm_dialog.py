"""A yes/no question before something that cannot be undone (replacing a file)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from tui_grid.ui.plain import Plain, styled


class ConfirmDialog(ModalScreen[bool]):
    """True only for y; n and esc say no. Enter is neither, so an enter typed twice (or a
    held key) never answers yes for the player."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical { width: 64; height: auto; border: thick $warning; background: $surface; padding: 0 1; }
    ConfirmDialog #keys { color: $text-muted; padding-top: 1; }
    """

    def __init__(self, question: str, detail: str = "", yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.question, self.detail, self.yes, self.no = question, detail, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled((self.question, "b"), f"\n{self.detail}" if self.detail else ""), id="question")
            yield Plain(f"y: {self.yes} · n or esc: {self.no}", id="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
