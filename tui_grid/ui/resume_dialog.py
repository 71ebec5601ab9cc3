"""Offered when a board with an autosaved game in progress is opened again."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from tui_grid.core.words import plural
from tui_grid.ui.plain import Plain, styled


class ResumeDialog(ModalScreen[bool | None]):
    """True: resume; False: start over (the save is dropped); None (esc): not now, and the
    save is kept for another time."""

    BINDINGS = [
        Binding("enter,r", "choose(True)", "Resume"),
        Binding("n", "choose(False)", "Start over"),
        Binding("escape", "not_now", "Not now", show=False),
    ]
    DEFAULT_CSS = """
    ResumeDialog { align: center middle; }
    ResumeDialog > Vertical { width: 60; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    ResumeDialog #keys { color: $text-muted; padding-top: 1; }
    """

    def __init__(self, title: str, moves: int) -> None:
        super().__init__()
        self.board_title, self.moves = title, moves

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled((f"Resume your game on {self.board_title}?", "b"), f"\nYou left it after {plural(self.moves, 'move')}."))
            yield Plain("enter or r resumes · n starts over (the saved game is dropped) · esc: not now (kept)", id="keys")

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)

    def action_not_now(self) -> None:
        self.dismiss(None)
