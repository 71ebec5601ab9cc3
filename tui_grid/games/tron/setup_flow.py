"""The setup's part in a Tron screen: the choices in force, the board they name (the one
the screen was opened on, or a random map made to them), and the dialog's coming and
going. The screen opens the dialog (setup_dialog.py) and hands its answer here."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tui_grid.core.errors import BoardError, UsageError
from tui_grid.games.registry import GameDefinition, Generated, LoadedBoard

if TYPE_CHECKING:
    from tui_grid.games.tron.setup_dialog import TronSetup


class SetupFlow:
    """Where a screen's setup stands. `asks`: the dialog comes before any match (the app
    opened the screen). While the dialog is `open`, no round of bots starts by itself."""

    def __init__(self, game: GameDefinition, opened: LoadedBoard, setup: TronSetup, asks: bool) -> None:
        self.game = game
        self.opened = opened  # "this board" in the dialog
        self.setup = setup
        self.asks = asks
        self.open = asks
        self.started = not asks  # a match was set up: cancelling the dialog goes back to it
        self.was_paused = False  # the clock before the dialog opened, for a cancel to restore

    def opening(self, paused: bool) -> None:
        """The dialog opens over a clock `paused` or not."""
        self.open = True
        self.was_paused = paused

    def cancelled(self) -> bool:
        """The dialog closed without a choice; whether that leaves the screen (the app asked
        it first, and no match was ever set up)."""
        self.open = False
        return self.asks and not self.started

    def choose(self, setup: TronSetup) -> LoadedBoard:
        """Take `setup`, and the board its first round plays on (an arena's own for more
        than two players; for two opened on an arena, the standard board); BoardError or UsageError
        when no map can be made to it (the dialog counts as closed then)."""
        self.setup = setup
        try:
            if len(setup.players) > 2:
                return self.game.load(f"arena{len(setup.players)}")
            if setup.board != "this":
                return self.random_map()
            return self.opened if len(self.opened.board.heads) == 2 else self.game.load("standard")
        except (BoardError, UsageError):
            self.open = False
            raise

    def begun(self) -> None:
        """The chosen match has started."""
        self.started = True
        self.open = False

    def round_board(self, index: int, current: LoadedBoard) -> LoadedBoard:
        """Round `index`'s board: a new random map for each round after the first when the
        setup asks for one each round (in a duel), else `current`."""
        each = self.setup.board == "each" and len(self.setup.players) == 2
        return self.random_map() if index > 0 and each else current

    def random_map(self) -> LoadedBoard:
        """A new map of the setup's size and walls, from a random seed."""
        assert isinstance(self.game, Generated)
        options = {"size": self.setup.size, "walls": self.setup.walls}
        return self.game.load_id(self.game.game_id_from_options(options, random.randrange(1, 1_000_000)))
