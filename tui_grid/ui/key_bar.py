"""A footer of key hints from the active keymap; it wraps onto a second line instead of
cutting keys off at 80 columns, and hides common actions the session does not offer."""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.widget import Widget

from tui_grid.ui.keys import Key, Keymap


class KeyBar(Widget):
    COMPONENT_CLASSES = {"keybar--key", "keybar--label"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: auto; background: $footer-background; color: $footer-foreground; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--label { color: $footer-description-foreground; }
    """

    def __init__(self, keymap: Keymap, shows: Callable[[Key], bool] = lambda _: True, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keymap = keymap
        self.shows = shows

    @property
    def items(self) -> list[tuple[str, str]]:
        return [(key.bar_key, key.label) for key in self.keymap.keys if key.show and self.shows(key)]

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        label_style = self.get_component_rich_style("keybar--label")
        width = max(1, self.size.width)
        text = Text(no_wrap=True, overflow="crop")
        used = 0
        for key, label in self.items:
            item = len(key) + 1 + len(label)
            if used and used + 1 + item > width:
                text.append("\n")
                used = 0
            elif used:
                text.append(" ")
                used += 1
            text.append(key, key_style)
            text.append(" " + label, label_style)
            used += item
        return text

    def get_content_height(self, container, viewport, width: int) -> int:
        lines, used = 1, 0
        for key, label in self.items:
            item = len(key) + 1 + len(label)
            if used and used + 1 + item > width:
                lines, used = lines + 1, item
            else:
                used += item + (1 if used else 0)
        return lines

    def on_resize(self) -> None:
        self.refresh(layout=True)
