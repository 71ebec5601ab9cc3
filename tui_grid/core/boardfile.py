"""Board files: optional `key: value` header lines closed by `---`, then the board rows.

A file whose first line has no colon is a raw board in the seed's own characters.
Rows keep their characters; trailing whitespace handling is each game's business,
helped by the optional `size: WxH` header that pins the board's width and height.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.text import printable

HEADER_END = "---"
#: The most cells of any board: files, game ids and generators share this cap. Boards are
#: capped by what they cost (cells), not by a side: 2000x2000 and 10000x400 both fit.
MAX_CELLS = 4_000_000
#: The longest side, so a 1x4000000 strip cannot make a row of megabytes.
MAX_SIDE = 10_000
#: The most bytes read from a board file or stdin: a board of MAX_CELLS 4-byte characters
#: is 16 MB, so this leaves room for long `played:` headers, while `/dev/zero`, a FIFO or a
#: huge file cannot exhaust memory.
MAX_FILE_BYTES = 24 * 1024 * 1024
_HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]*)[ \t]*:[ \t]?(.*)$")
_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


@dataclass(frozen=True)
class BoardText:
    """The rows of one board with where they came from, so games can report exact positions."""

    source: str
    rows: tuple[str, ...]
    first_line: int = 1
    meta: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    meta_lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Each header value's first column (1-based), so an error inside one can point at it.
    meta_columns: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def error(self, row: int, col: int, message: str) -> BoardError:
        """An error at board cell (row, col), 0-based, reported at file line and column."""
        return BoardError(self.source, self.first_line + row, col + 1, message)

    def meta_error(self, key: str, message: str) -> BoardError:
        return BoardError(self.source, self.meta_lines.get(key, 1), 1, f"{key}: {message}")

    @property
    def title(self) -> str:
        return self.meta.get("title", "")

    @property
    def size(self) -> tuple[int, int]:
        """(width, height): the `size:` header when there is one, else measured from the rows."""
        return self.declared_size or (max(len(row) for row in self.rows), len(self.rows))

    @property
    def declared_size(self) -> tuple[int, int] | None:
        """(width, height) from a `size:` header, already validated on parse."""
        text = self.meta.get("size")
        return parse_size(text) if text is not None else None


def parse_size(text: str) -> tuple[int, int]:
    """`WxH` to (width, height); raises ValueError with a readable message."""
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"expected WxH such as 16x12, got {text!r}")
    if max(len(match.group(1)), len(match.group(2))) > 9:
        # Far over the cap, and int() refuses more than 4300 digits with a message about
        # sys.set_int_max_str_digits().
        raise ValueError(f"width and height must be at most {MAX_SIDE}, got {text.strip()[:40]!r}")
    width, height = int(match.group(1)), int(match.group(2))
    check_side(width, height)
    return width, height


def check_side(width: int, height: int, max_cells: int = MAX_CELLS) -> None:
    """The one size check for every board, with one wording; `max_cells` is lower where
    the policy says so (a `serve ssh` session's boards fit its share of memory)."""
    if width < 1 or height < 1:
        raise ValueError(f"width and height must be at least 1, got {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValueError(f"width and height must be at most {MAX_SIDE}, got {width}x{height}")
    if width * height > MAX_CELLS:
        raise ValueError(f"a board has at most {MAX_CELLS:,} cells (2000x2000), got {width}x{height} = {width * height:,}")
    if width * height > max_cells:
        side = int(max_cells ** 0.5)
        raise ValueError(f"a board on this server has at most {max_cells:,} cells ({side}x{side}), got {width}x{height} = {width * height:,}")


def parse_board_text(text: str, source: str = "<string>") -> BoardText:
    """Split header and rows; the rows are checked by the game that reads them."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if text.endswith(("\n", "\r")):
        lines.pop()
    if not any(line.strip() for line in lines):
        raise BoardError(source, 1, 1, "empty file: no board rows")
    meta: dict[str, str] = {}
    meta_lines: dict[str, int] = {}
    meta_columns: dict[str, int] = {}
    first = 0
    if _HEADER_LINE.match(lines[0]):
        for index, line in enumerate(lines):
            if line.rstrip() == HEADER_END:
                first = index + 1
                break
            if not line.strip():
                continue
            match = _HEADER_LINE.match(line)
            if not match:
                raise BoardError(source, index + 1, 1, "expected a 'key: value' header line or '---'")
            key = match.group(1).lower()
            if key in meta:
                raise BoardError(source, index + 1, 1, f"duplicate header key {key!r}")
            value = match.group(2)
            meta[key] = value.strip()
            meta_lines[key] = index + 1
            meta_columns[key] = match.start(2) + len(value) - len(value.lstrip()) + 1
        else:
            raise BoardError(source, len(lines), 1, "header is not closed by a '---' line")
    rows = lines[first:]
    # A line of spaces is a row of a raw board (an all-ice row); only truly empty lines
    # end it. After a header, `size:` keeps the meaning, so blank-looking lines go too.
    while rows and (not rows[-1] if not meta else not rows[-1].strip()):
        rows.pop()
    if not rows:
        # The line after `---` when there is one, else the `---` line itself.
        raise BoardError(source, min(first + 1, len(lines)), 1, "no board rows after the header")
    if len(rows) > MAX_SIDE:
        raise BoardError(source, first + MAX_SIDE + 1, 1, f"more than {MAX_SIDE} rows: width and height must be at most {MAX_SIDE}")
    widest = 0
    for index, row in enumerate(rows):
        if len(row) > MAX_SIDE:
            raise BoardError(source, first + index + 1, MAX_SIDE + 1, f"row longer than {MAX_SIDE}: width and height must be at most {MAX_SIDE}")
        widest = max(widest, len(row))
        if widest * (index + 1) > MAX_CELLS:
            raise BoardError(source, first + index + 1, 1, f"more than {MAX_CELLS:,} cells (2000x2000): too big a board")
    board = BoardText(
        source=source,
        rows=tuple(rows),
        first_line=first + 1,
        meta=MappingProxyType(meta),
        meta_lines=MappingProxyType(meta_lines),
        meta_columns=MappingProxyType(meta_columns),
    )
    if "size" in meta:
        try:
            parse_size(meta["size"])
        except ValueError as exc:
            raise board.meta_error("size", str(exc)) from None
    return board


def read_board_file(path: str | Path) -> BoardText:
    """Read a board from a path, or from stdin when the path is `-`."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        _check_length(data, "<stdin>")
        return parse_board_text(decode_text(data, "<stdin>"), "<stdin>")
    path = Path(path)
    source = printable(str(path))  # a newline or an escape in a file name stays in one line
    try:
        if path.is_dir():
            raise UsageError(f"{source}: is a folder, not a board file")
        with path.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"{source}: cannot read: {exc.strerror or exc}") from None
    _check_length(data, source)
    return parse_board_text(decode_text(data, source), source)


def _check_length(data: bytes, source: str) -> None:
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"{source}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: too big for a board file")


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 text, or a BoardError at the first bad byte's own line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Lines end as parse_board_text ends them: at \r\n, \r or \n.
        before = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise BoardError(source, line, column, f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def format_board_file(rows: list[str] | tuple[str, ...], meta: Mapping[str, str] | None = None) -> str:
    """Write a board in file format; the header goes first so the text round-trips."""
    out = [f"{key}: {value}" for key, value in (meta or {}).items()]
    if out:
        out.append(HEADER_END)
    out.extend(rows)
    return "\n".join(out) + "\n"
