"""What every game's screen does with the same keys (row and column numbers, zoom, help,
a still, quit), and the message a table's hand-over rides to the UI thread."""

from __future__ import annotations

from typing import Any, Callable

from textual.message import Message

from tui_grid.ui.board_view import GLYPH_ZOOMS
from tui_grid.ui.stills import save_still


class OwnerCall(Message):
    """Work a table hands to the UI thread from a driver's or a worker's thread."""

    def __init__(self, call: Callable[[], None]) -> None:
        super().__init__()
        self.call = call


class BoardKeys:
    """Mixed into a game screen, which supplies `view`, `say`, `game`, `KEYMAP`, `offers`
    and `app`."""

    view: Any
    game: Any
    KEYMAP: Any
    app: Any
    say: Callable[..., None]
    offers: Callable[[str], bool]

    def action_coords(self) -> None:
        self.view.show_coords = not self.view.show_coords
        if not self.view.show_coords:
            self.say("Row and column numbers hidden.")
        elif self.view.zoom in GLYPH_ZOOMS:
            self.say("Row and column numbers shown.")
        else:  # not "shown": half blocks have no numbers
            self.say("Row and column numbers are on: they show in the cell zooms (z), not in half blocks.")

    def action_zoom(self) -> None:
        zoom = self.view.cycle_zoom()
        self.say(f"Zoom: {zoom.label}.")
        self.view.scroll_to_focus()

    def action_help(self) -> None:
        from tui_grid.ui.help_screen import HelpScreen

        self.app.push_screen(HelpScreen(self.game, self.KEYMAP, self.offers))

    def action_still(self) -> None:
        """A picture of this moment (Textual's SVG screenshot), for a README or a slide."""
        self.say(save_still(self.app))

    def action_quit(self) -> None:
        self.app.exit_saving()
