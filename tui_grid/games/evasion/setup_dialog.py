"""Evasion's new-match dialog: who plays (a human or a builtin bot, each side) and how
many rounds; the roles swap every round, so player 1 hunts in the odd ones. Found by a
new user: the app only ever played "you hunt, the builtin bot flees", and watching two
bots took the architect server."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input

from tui_grid.core.errors import UsageError
from tui_grid.core.players import LOCAL_KINDS, parse_player
from tui_grid.games.evasion.definition import GAME as EVASION
from tui_grid.games.registry import parse_count
from tui_grid.ui.form import FormDialog
from tui_grid.ui.plain import Plain, PlainInput, PlainLabel, styled
from tui_grid.ui.player_fields import chosen_players, player_rows, show_command_fields

MAX_ROUNDS = 20


@dataclass(frozen=True)
class EvasionSetup:
    players: tuple[str, str]
    rounds: int


def check_player(text: str) -> str:
    """A player text the app may seat (UsageError names the choices)."""
    parse_player(EVASION, text, LOCAL_KINDS)
    return text.strip()


class EvasionSetupDialog(FormDialog[EvasionSetup | None]):
    """Players and rounds for a new match on the board shown; fits 80x24."""

    DEFAULT_CSS = """
    EvasionSetupDialog { align: center middle; }
    EvasionSetupDialog > Vertical {
        width: 70; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    EvasionSetupDialog Grid { grid-size: 2; grid-columns: 24 1fr; grid-rows: 1; grid-gutter: 1 0; height: auto; margin: 1 0 0 0; }
    EvasionSetupDialog Grid Horizontal { height: 1; }
    EvasionSetupDialog .kind { width: 24; }
    EvasionSetupDialog .command { width: 1fr; margin-left: 1; }
    EvasionSetupDialog .short { width: 9; }
    EvasionSetupDialog #about { color: $text-muted; height: auto; margin: 1 0 0 0; }
    EvasionSetupDialog #error { color: $error; height: auto; }
    EvasionSetupDialog #buttons { height: 1; margin-top: 1; }
    EvasionSetupDialog #keys { width: 1fr; color: $text-muted; }
    """

    def __init__(self, setup: EvasionSetup, board_title: str) -> None:
        super().__init__()
        self.setup = setup
        self.board_title = board_title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled(("New Evasion match", "b"), f" on {self.board_title}"))
            with Grid():
                yield from player_rows(EVASION, self.setup.players, ("Player 1 (hunts first)", "Player 2 (flees first)"))
                yield PlainLabel("Rounds")
                yield PlainInput(value=str(self.setup.rounds), compact=True, id="rounds", classes="short")
            yield Plain("The roles swap every round; whose hunter catches the prey sooner wins. "
                        "Two bots: you watch (space pauses, . steps, + and - change the speed).", id="about")
            yield Plain(id="error")
            with Horizontal(id="buttons"):
                yield Plain("enter starts · esc cancels · tab moves", id="keys")
                yield Button("Start", variant="primary", compact=True, id="start")

    def on_mount(self) -> None:
        show_command_fields(self, 2)
        self.query_one("#start", Button).focus()

    def on_select_changed(self) -> None:
        self.show_error("")
        show_command_fields(self, 2)

    def confirm(self) -> None:
        try:
            setup = self.chosen()
        except UsageError as exc:
            self.show_error(str(exc))
            return
        self.dismiss(setup)

    def chosen(self) -> EvasionSetup:
        """The setup as filled in; UsageError names the first bad field."""
        players = chosen_players(self, 2, check_player)
        rounds = parse_count("rounds", self.query_one("#rounds", Input).value.strip())
        if rounds > MAX_ROUNDS:
            raise UsageError(f"rounds must be at most {MAX_ROUNDS}, got {rounds}")
        return EvasionSetup((players[0], players[1]), rounds)
