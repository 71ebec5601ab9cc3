"""Dialogs of fields (new board, new match): enter confirms from any field, a closed
dropdown included, and the error line clears as soon as a field changes."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Select

from tui_grid.core.errors import UsageError

from tui_grid.ui.plain import Plain

T = TypeVar("T")


class FormDialog(ModalScreen[T]):
    """Subclasses compose their fields with a `Plain(id="error")` line and implement
    `chosen` (the result, or UsageError naming the bad field, shown on that line)."""

    # Textual marks a focused compact field by one shade of grey, too little to tell after
    # an error which field takes the typing: a marked background, and bold for NO_COLOR,
    # where backgrounds are gone.
    DEFAULT_CSS = """
    FormDialog Input:focus { background: $accent 35%; text-style: bold; }
    FormDialog Select:focus > SelectCurrent { background: $accent 35%; text-style: bold; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        # Priority, so a focused dropdown does not take enter to open itself again; an open
        # one (its list has the focus) still takes enter to choose.
        Binding("enter", "confirm", "Confirm", show=False, priority=True),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "confirm":
            focused = self.focused
            return isinstance(focused, Select) and not focused.expanded
        return True

    def action_confirm(self) -> None:
        self.confirm()

    def confirm(self) -> None:
        """Dismiss with the fields' result, or say what is wrong with them."""
        try:
            result = self.chosen()
        except UsageError as exc:
            self.show_error(str(exc))
            return
        self.dismiss(result)

    def chosen(self) -> T:
        """The result as filled in; UsageError names the first bad field."""
        raise NotImplementedError

    def on_input_submitted(self) -> None:
        self.confirm()

    def on_button_pressed(self) -> None:
        self.confirm()

    def on_input_changed(self) -> None:
        self.show_error("")

    def show_error(self, text: str) -> None:
        for line in self.query("#error").results(Plain):
            line.update(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
