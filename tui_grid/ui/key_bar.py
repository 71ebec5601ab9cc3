"""A footer of key hints that wraps onto a second line instead of cutting keys off at 80 columns."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget


class KeyBar(Widget):
    COMPONENT_CLASSES = {"keybar--key", "keybar--label"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: auto; background: $footer-background; color: $footer-foreground; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--label { color: $footer-description-foreground; }
    """

    def __init__(self, bindings: list[Binding], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items = [(b.key_display or b.key, b.description) for b in bindings if b.show]

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
