"""Outside text as text: the one place that makes names, board titles and ids, typed text,
program output and network messages safe to show.

Anything that did not come from this package's own source is hostile: it may hold
terminal escapes (an OSC that retitles the window, a CSI that clears the screen), bidi
overrides that make text read differently than it is, or be megabytes long. `printable`
turns every such character into a visible escape (`\\x1b`, `\\u202e`), and a byte that was
not UTF-8 (read with `surrogateescape`) into the byte's own (`\\xab`), so what reaches a
screen, a terminal or a log is exactly what was sent, character by character. The app's
widgets (`tui_grid.ui.plain`) and the command line's streams (`SafeStream`) both go
through it, so a new path cannot forget.
"""

from __future__ import annotations

import re
from typing import TextIO

#: C0 and C1 controls, DEL, zero-width and bidi formatting characters, line and paragraph
#: separators, the byte-order mark, and lone surrogates (no terminal can show one, and a
#: UTF-8 stream refuses to write one). Newline and tab are decided by the caller.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ud800-\udfff\ufeff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ud800-\udfff\ufeff]")
#: `surrogateescape` reads an undecodable byte 0xNN as the lone surrogate U+DC00 + 0xNN.
_ESCAPED_BYTES = range(0xDC80, 0xDD00)
#: Characters of outside text echoed in a reason or a result, at most.
ECHO_LIMIT = 80


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in _ESCAPED_BYTES:  # the byte that was not UTF-8, as it was sent
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, *, multiline: bool = False, limit: int | None = None) -> str:
    """`text` with every control or formatting character shown as an escape. With
    `multiline`, newlines and tabs stay (a stderr tail, a board preview); else they are
    escaped too, so one name is one line. `limit` clips to that many characters."""
    raw = text if isinstance(text, str) else str(text)
    if limit is not None and len(raw) > limit * 4:
        raw = raw[: limit * 4]  # escaping only grows text: never scan megabytes for 80 characters
    safe = (_UNSAFE if multiline else _UNSAFE_LINE).sub(_escape, raw)
    return clip(safe, limit) if limit is not None else safe


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """At most `limit` characters, with `…` saying some were cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """Outside text quoted inside one of our messages ("printed 'xyz'"): one line, escaped,
    at most `limit` characters."""
    return printable(text, limit=limit)


class SafeStream:
    """A text stream that escapes control characters in everything written to it (newlines
    and tabs stay), for the command line's stdout and stderr. Our own terminal controls
    (a progress line's `\\r\\x1b[K`, a frame's clear-screen) go through `control`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text, multiline=True))

    def control(self, sequence: str) -> None:
        """Write one of our own escape sequences as it is."""
        self.stream.write(sequence)

    def __getattr__(self, name: str) -> object:  # flush, isatty, fileno, encoding, buffer...
        return getattr(self.stream, name)


def write_control(stream: TextIO, sequence: str) -> None:
    """Our own terminal control sequence, through a `SafeStream` or straight to a plain one."""
    if isinstance(stream, SafeStream):
        stream.control(sequence)
    else:
        stream.write(sequence)
