"""The games tui_grid knows, found by key; UI-free so the CLI never loads textual."""

from __future__ import annotations

import argparse
import importlib
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from tui_grid.core.boardfile import BoardText
from tui_grid.core.catalog import BoardEntry, list_boards, read_board_arg
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import UsageError


@dataclass(frozen=True)
class NewGameField:
    """One input in the TUI's "new board" dialog; `choices` makes it a fixed list."""

    key: str
    label: str
    default: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadedBoard:
    """A parsed board with its name for titles and, when generated, its game id."""

    board: Any
    name: str
    title: str
    game_id: str = ""
    meta: dict[str, str] | None = None


class GameDefinition(ABC):
    """What every game offers the CLI and the app; the screen class is imported lazily."""

    key: str
    title: str
    tagline: str
    screen_path: str  # "module:Class", imported only by the app
    new_game_fields: tuple[NewGameField, ...] = ()

    # --- boards -----------------------------------------------------------------
    @abstractmethod
    def parse(self, text: BoardText) -> Any:
        """Check and convert board rows; raises BoardError."""

    @abstractmethod
    def board_rows(self, board: Any) -> tuple[str, ...]:
        """The board in file characters, for previews and `generate`."""

    def preview_rows(self, board: Any) -> tuple[str, ...]:
        """Rows for the board picker's preview; a game may make invisible cells visible."""
        return self.board_rows(board)

    def is_game_id(self, arg: str) -> bool:
        return arg.startswith(f"{self.key}:")

    @abstractmethod
    def board_from_id(self, game_id: str) -> Any:
        """Regenerate a board from a game id; raises UsageError on a bad id."""

    @abstractmethod
    def game_id_from_fields(self, values: dict[str, str], seed: int) -> str:
        """Validate the new-board dialog's values into a game id; raises UsageError."""

    def load(self, arg: str) -> LoadedBoard:
        """A BOARD argument: a game id, a file path, `-`, or a shipped board name."""
        if self.is_game_id(arg):
            return LoadedBoard(self.board_from_id(arg), arg, arg, game_id=arg)
        text = read_board_arg(self.key, arg)
        board = self.parse(text)
        name = arg if arg == "-" else re.sub(r"\.txt$", "", arg.rsplit("/", 1)[-1])
        return LoadedBoard(board, name, text.title or name, meta=dict(text.meta))

    def boards(self) -> list[BoardEntry]:
        return list_boards(self.key)

    # --- solving ------------------------------------------------------------------
    @abstractmethod
    def solve_record(self, board: Any, control: SearchControl | None = None) -> dict[str, Any]:
        """The exact JSON object `tui-grid solve GAME BOARD --json` prints."""

    @abstractmethod
    def solve_drawing(self, board: Any, record: dict[str, Any]) -> str:
        """A readable picture of the board with the answer, for `solve` without --json."""

    @abstractmethod
    def watch_frames(self, board: Any, record: dict[str, Any]) -> list[str]:
        """The board after each move of the solver's play, for `tui-grid watch`."""

    # --- generating ------------------------------------------------------------------
    @abstractmethod
    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Game-specific options of `tui-grid generate GAME`."""

    @abstractmethod
    def generate_id(self, args: argparse.Namespace) -> str:
        """The game id the parsed `generate` options describe; raises UsageError."""

    def generate_file(self, game_id: str) -> str:
        from tui_grid.core.boardfile import format_board_file

        board = self.board_from_id(game_id)
        rows = self.board_rows(board)
        meta = {"title": game_id, "id": game_id, **self.generated_meta(board)}
        return format_board_file(rows, meta)

    def generated_meta(self, board: Any) -> dict[str, str]:
        """Extra header lines for generated boards (size, known answer...)."""
        return {}

    # --- help ---------------------------------------------------------------------
    @abstractmethod
    def help_markdown(self) -> str:
        """Rules of the game, shown on its help screen above the common keys."""

    def screen_class(self) -> type:
        module, _, name = self.screen_path.partition(":")
        return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class PlannedGame:
    """A game on the roadmap: listed in the menu, not yet playable."""

    key: str
    title: str
    tagline: str


_GAME_MODULES = {
    "jimmy": "tui_grid.games.jimmy.definition",
    "ice": "tui_grid.games.ice.definition",
}

PLANNED: tuple[PlannedGame, ...] = (
    PlannedGame("bunny", "Bunny coding", "Write the shortest loop program that marks every square."),
    PlannedGame("evasion", "Evasion", "Hunter builds walls to trap the prey on a 300x300 board."),
    PlannedGame("tron", "Tron light cycles", "Two light cycles, human or bot, on a 15x15 arena."),
)

_cache: dict[str, GameDefinition] = {}


def game_keys() -> tuple[str, ...]:
    return tuple(_GAME_MODULES)


def get_game(key: str) -> GameDefinition:
    if key not in _GAME_MODULES:
        planned = {game.key for game in PLANNED}
        if key in planned:
            raise UsageError(f"game {key!r} is not playable yet; playable: {', '.join(_GAME_MODULES)}")
        raise UsageError(f"unknown game {key!r}; choose from: {', '.join(_GAME_MODULES)}")
    if key not in _cache:
        _cache[key] = importlib.import_module(_GAME_MODULES[key]).GAME
    return _cache[key]


def all_games() -> list[GameDefinition]:
    return [get_game(key) for key in _GAME_MODULES]


def parse_seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"seed must be a whole number, got {text!r}") from None


def parse_size_option(text: str) -> tuple[int, int]:
    """A `WxH` option or dialog field, as a usage error when malformed."""
    from tui_grid.core.boardfile import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise UsageError(f"size: {exc}") from None


def parse_count(name: str, text: str, minimum: int = 1) -> int:
    """A whole-number option or dialog field of at least `minimum`."""
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, got {text!r}") from None
    if value < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {value}")
    return value
