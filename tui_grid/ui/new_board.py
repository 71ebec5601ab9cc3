"""The "new board" dialog: the game's own options plus a seed, or a pasted game id."""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Select

from tui_grid.core.errors import UsageError
from tui_grid.games.registry import GameDefinition, parse_seed
from tui_grid.ui.form import FormDialog
from tui_grid.ui.plain import Plain, PlainInput, PlainLabel, styled

#: The last values typed per game, so `n` again offers the same settings with a new seed.
_remembered: dict[str, dict[str, str]] = {}


class NewBoardDialog(FormDialog[str | None]):
    DEFAULT_CSS = """
    NewBoardDialog { align: center middle; }
    NewBoardDialog > Vertical {
        width: 60; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    NewBoardDialog Grid { grid-size: 2; grid-columns: 17 1fr; grid-rows: 1; grid-gutter: 1 0; height: auto; margin: 1 0; }
    NewBoardDialog #error { color: $error; height: auto; }
    NewBoardDialog #buttons { height: 1; }
    NewBoardDialog #keys { width: 1fr; color: $text-muted; }
    """

    def __init__(self, game: GameDefinition, rng: random.Random | None = None) -> None:
        super().__init__()
        self.game = game
        self.rng = rng or random.Random()

    def compose(self) -> ComposeResult:
        remembered = _remembered.get(self.game.key, {})
        with Vertical():
            yield Plain(styled((f"New {self.game.title} board", "b")))
            with Grid():
                for spec in self.game.options:
                    yield PlainLabel(spec.label)
                    value = remembered.get(spec.key, spec.default)
                    if spec.choices:
                        yield Select([(c, c) for c in spec.choices], value=value, allow_blank=False, compact=True, id=f"field-{spec.key}")
                    else:
                        yield PlainInput(value=value, compact=True, id=f"field-{spec.key}")
                yield PlainLabel("Seed")
                yield PlainInput(value=str(self.rng.randrange(1, 1_000_000)), compact=True, id="field-seed")
                yield PlainLabel("or game id")
                yield PlainInput(placeholder=f"{self.game.key}:...#seed42", compact=True, id="field-id")
            yield Plain(id="error")
            with Horizontal(id="buttons"):
                yield Plain("enter makes it · esc cancels · tab moves", id="keys")
                yield Button("Make board", variant="primary", compact=True, id="make")

    def on_mount(self) -> None:
        """Typing goes to the first field; a dialog closed before it was mounted has no
        fields left to focus, and that is no error."""
        for field in self.query(Input).results(Input):
            field.focus()
            return

    def chosen(self) -> str:
        """The game id: the pasted one, else one made from the fields."""
        pasted = self.query_one("#field-id", Input).value.strip()
        if pasted:
            if not self.game.is_game_id(pasted):
                raise UsageError(f"{self.game.title} game ids start with '{self.game.key}:'")
            self.game.check_game_id(pasted)
            return pasted
        values = {}
        for spec in self.game.options:
            widget = self.query_one(f"#field-{spec.key}")
            values[spec.key] = str(widget.value).strip()
        seed = parse_seed(self.query_one("#field-seed", Input).value.strip())
        game_id = self.game.game_id_from_options(values, seed)
        self.game.check_game_id(game_id)
        _remembered[self.game.key] = values
        return game_id
