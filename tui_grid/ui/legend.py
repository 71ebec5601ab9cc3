"""A game's legend: items ("o Jimmy", "g ghost", ...) separated by two spaces. Lines break
between items, never inside one, at whatever width the screen has."""

from __future__ import annotations

from typing import Any

from textual.events import Resize

from tui_grid.ui.plain import Plain

SEPARATOR = "  "


def wrap_items(text: str, width: int) -> str:
    """`text`'s lines, each split into items at SEPARATOR and packed greedily into lines of
    at most `width` characters (an item longer than a line gets a line of its own)."""
    out: list[str] = []
    for line in text.split("\n"):
        current = ""
        for item in (part.strip() for part in line.split(SEPARATOR)):
            if not item:
                continue
            joined = f"{current}{SEPARATOR}{item}" if current else item
            if current and len(joined) > width:
                out.append(current)
                current = item
            else:
                current = joined
        out.append(current)
    return "\n".join(out)


class Legend(Plain):
    """A Plain whose text wraps by items."""

    def __init__(self, content: str = "", **options: Any) -> None:
        self._text = content
        super().__init__(content, **options)

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        self._text = str(content)
        width = self.content_region.width if self.is_mounted else 0
        super().update(wrap_items(self._text, width) if width > 0 else self._text, layout=layout)

    def on_resize(self, event: Resize) -> None:
        self.update(self._text)
