"""The one path text takes to the screen: plain text, never Textual markup, with control
characters escaped (`tui_grid.core.text.printable`).

Every text widget in the app is a `Plain` or a `PlainLabel`, every notification goes
through `tell`, every list option through `option`, every text field is a `PlainInput`. A test scans
the package so that no other `Static`, `Label`, `Input`, `notify` or `Option` appears: a new path cannot forget. Our own
emphasis is written with `styled`, which escapes each part and styles it, never by markup.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.dom import DOMNode
from textual.widgets import Input, Label, Static
from textual.widgets.option_list import Option

from tui_grid.core.text import printable


def plain(text: object, style: str = "") -> Text:
    """Text shown exactly as given: no markup, control characters escaped."""
    return Text(printable(text, multiline=True), style=style)


def styled(*parts: str | tuple[str, str]) -> Text:
    """Our own emphasis: each part is `text` or `(text, style)`, each escaped."""
    text = Text()
    for part in parts:
        value, style = (part, "") if isinstance(part, str) else part
        text.append(printable(value, multiline=True), style=style)
    return text


def _safe(content: Any) -> Any:
    if isinstance(content, Text):
        if printable(content.plain, multiline=True) != content.plain:
            return plain(content.plain)  # built from raw outside text: keep the words, drop the styles
        return content
    if isinstance(content, str):
        return plain(content)
    return content  # a renderable of our own (a progress bar, a table)


class _PlainContent:
    """Static's content, made plain on the way in."""

    def __init__(self, content: Any = "", **options: Any) -> None:
        safe = _safe(content)
        super().__init__(safe, markup=False, **options)  # type: ignore[call-arg]
        self._shown = safe if isinstance(safe, (str, Text)) else None

    def update(self, content: Any = "", *, layout: bool | None = None) -> None:
        """New content; a layout pass only when its size may change (None: decide here). A
        match's status changes every tick, and a layout pass redraws the whole screen."""
        safe = _safe(content)
        if isinstance(safe, (str, Text)) and safe == self._shown:
            return
        if layout is None:
            layout = not self._same_size(self._shown, safe)
        self._shown = safe if isinstance(safe, (str, Text)) else None
        super().update(safe, layout=layout)  # type: ignore[misc]

    _shown: str | Text | None = None

    def _same_size(self, old: Any, new: Any) -> bool:
        """Whether `new` takes the room `old` took: a widget of fixed width (not auto)
        whose lines fit unwrapped, before and after, in as many lines."""
        if not isinstance(old, (str, Text)) or not isinstance(new, (str, Text)):
            return False
        width = self.content_size.width  # type: ignore[attr-defined]
        styles = self.styles  # type: ignore[attr-defined]
        if width <= 0 or (styles.width is not None and styles.width.is_auto):
            return False
        lines = [Text(str(text) if isinstance(text, str) else text.plain).split("\n") for text in (old, new)]
        if len(lines[0]) != len(lines[1]):
            return False
        return all(line.cell_len <= width for text in lines for line in text)


class Plain(_PlainContent, Static):
    """A Static that shows plain text."""


class PlainLabel(_PlainContent, Label):
    """A Label that shows plain text."""


#: What a typed or pasted field may hold: no control or formatting characters.
PRINTABLE_INPUT = "[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]*"


class PlainInput(Input):
    """An Input that refuses control characters, typed or pasted."""

    def __init__(self, value: str | None = None, **options: Any) -> None:
        options.setdefault("restrict", PRINTABLE_INPUT)
        super().__init__(printable(value) if value is not None else None, **options)


def tell(node: DOMNode, message: object, *, title: str = "", severity: str = "information", timeout: float | None = None) -> None:
    """A notification with plain text in it."""
    node.notify(printable(message, multiline=True), title=printable(title), severity=severity, timeout=timeout, markup=False)  # type: ignore[arg-type]


def option(prompt: object, id: str | None = None, disabled: bool = False) -> Option:
    """A list option whose prompt is plain text (or our own `styled` Text); a disabled one
    is a heading."""
    return Option(_safe(prompt) if isinstance(prompt, (str, Text)) else plain(prompt), id=id, disabled=disabled)
