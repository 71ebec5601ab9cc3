"""Where shipped boards live and how a BOARD argument (path, name or `-`) is found."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from tui_grid.core.boardfile import BoardText, read_board_file
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.text import echo

BOARD_SUFFIX = ".txt"


def boards_root() -> Path:
    """`$TUI_GRID_BOARDS`, else the copy packed into the wheel, else the source tree's `boards/`."""
    override = os.environ.get("TUI_GRID_BOARDS")
    if override:
        return Path(override)
    packaged = Path(__file__).resolve().parent.parent / "boards"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "boards"


@dataclass(frozen=True)
class BoardEntry:
    name: str
    path: Path

    def load(self) -> BoardText:
        return read_board_file(self.path)

    def title(self) -> str:
        """The header title, or the name when the file has none or cannot be read."""
        try:
            return self.load().title or self.name
        except (BoardError, UsageError):
            return self.name


def list_boards(game: str) -> list[BoardEntry]:
    folder = boards_root() / game
    if not folder.is_dir():
        return []
    return [
        BoardEntry(path.stem, path)
        for path in sorted(folder.iterdir(), key=natural_key)
        if path.suffix == BOARD_SUFFIX and path.is_file()
    ]


def natural_key(path: Path) -> tuple[object, ...]:
    """seed-2 before seed-10: runs of digits compare as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower()) for part in re.split(r"(\d+)", path.name) if part)


def find_board(game: str, name: str) -> BoardEntry | None:
    for entry in list_boards(game):
        if entry.name == name or entry.path.name == name:
            return entry
    return None


def read_board_arg(game: str, arg: str) -> BoardText:
    """A BOARD argument: `-` for stdin, an existing file path, or a shipped board's name."""
    try:
        exists = arg == "-" or Path(arg).exists()
    except (OSError, ValueError):  # a name too long, or with a NUL, is no file
        exists = False
    if exists:
        return read_board_file(arg)
    entry = find_board(game, arg)
    if entry is None:
        raise UsageError(f"{echo(arg)}: no such file, and no {game} board by that name (see 'tui-grid boards {game}')")
    return entry.load()
