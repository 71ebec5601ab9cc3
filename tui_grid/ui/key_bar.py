"""A footer of key hints from the active keymap: the main keys first, then every other
key worth knowing (zoom, coordinates, save, pause, step, speed) as far as two lines
allow, and `? more` when some are left out. It hides what nobody at the board would
press (common actions the session does not offer, seats no human plays)."""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.widget import Widget

from tui_grid.ui.keys import Key, Keymap


#: Lines the bar may take; what does not fit is behind `? more`.
MAX_LINES = 2
MORE = ("?", "more")


def _pack(entries: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for key, label in entries:
        item = len(key) + 1 + len(label)
        if lines[-1] and used + 1 + item > width:
            lines.append([])
            used = 0
        used += item + (1 if lines[-1] else 0)
        lines[-1].append((key, label))
    return lines


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
        """The main keys (`show=True`), in keymap order: always offered first."""
        return self._entries(primary=True)

    @property
    def extras(self) -> list[tuple[str, str]]:
        """The other keys worth knowing (zoom, coordinates, save, pause, step, speed...):
        shown after the main ones as far as room allows."""
        return self._entries(primary=False)

    def _entries(self, primary: bool) -> list[tuple[str, str]]:
        seen = {key.bar_key for key in self.keymap.keys if key.show and self.shows(key)} if not primary else set()
        out = []
        for key in self.keymap.keys:
            if key.show != primary or not self.shows(key):
                continue
            if not primary and not (key.display or key.common):
                continue  # a variant of a shown key (the other arrows)
            if key.bar_key in seen:
                continue
            seen.add(key.bar_key)
            out.append((key.bar_key, key.label))
        return out

    def lines(self, width: int) -> list[list[tuple[str, str]]]:
        """What fits in MAX_LINES lines of `width`, main keys first; when keys are left
        out, the help entry becomes `? more` at the very end."""
        entries = self.items + self.extras
        lines = _pack(entries, width)
        if len(lines) <= MAX_LINES:
            return lines
        rest = [entry for entry in entries if entry[0] != "?"]
        while rest:
            lines = _pack(rest + [MORE], width)
            if len(lines) <= MAX_LINES:
                return lines
            rest.pop()
        return _pack([MORE], width)

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        label_style = self.get_component_rich_style("keybar--label")
        text = Text(no_wrap=True, overflow="crop")
        for index, line in enumerate(self.lines(max(1, self.size.width))):
            if index:
                text.append("\n")
            for position, (key, label) in enumerate(line):
                if position:
                    text.append(" ")
                text.append(key, key_style)
                text.append(" " + label, label_style)
        return text

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(max(1, width)))

    def on_resize(self) -> None:
        self.refresh(layout=True)
