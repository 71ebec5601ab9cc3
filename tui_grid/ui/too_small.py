"""Shown over everything while the terminal is smaller than the app can use."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from tui_grid.ui.plain import Plain

MIN_WIDTH, MIN_HEIGHT = 40, 12


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmallScreen(ModalScreen[None]):
    BINDINGS = [Binding("q,ctrl+c", "app.quit", "Quit")]
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: auto; height: auto; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        yield Plain(id="notice")

    def on_mount(self) -> None:
        self._update()

    def on_resize(self) -> None:
        self._update()

    def _update(self) -> None:
        width, height = self.app.size
        if not too_small(width, height):
            if self.is_current:
                self.dismiss()
            return
        self.query_one("#notice", Plain).update(
            f"Terminal too small: {width}x{height}.\nThe app needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\nq quits."
        )
