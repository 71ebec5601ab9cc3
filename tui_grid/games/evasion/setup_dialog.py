"""Evasion's new-match dialog: who plays (a human or a builtin bot, each side) and how
many rounds; the roles swap every round, so player 1 hunts in the odd ones. Any pairing
plays in the app, two bots included, with no architect server needed. `ask_new_match`
opens it over a match screen and starts the match chosen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input

from tui_grid.games.registry import GameDefinition, parse_count
from tui_grid.ui.plain import Plain, PlainInput, PlainLabel, styled
from tui_grid.ui.player_fields import KEYS_LINE, MatchSetupDialog, chosen_players, player_rows

if TYPE_CHECKING:
    from tui_grid.ui.match_screen import MatchScreen

MAX_ROUNDS = 20


@dataclass(frozen=True)
class EvasionSetup:
    players: tuple[str, str]
    rounds: int


class EvasionSetupDialog(MatchSetupDialog[EvasionSetup | None]):
    """Players and rounds for a new match on the board shown; fits 80x24."""

    DEFAULT_CSS = """
    EvasionSetupDialog > Vertical { width: 70; }
    EvasionSetupDialog Grid { grid-columns: 24 1fr; }
    EvasionSetupDialog .kind { width: 24; }
    """

    def __init__(self, setup: EvasionSetup, board_title: str, game: GameDefinition) -> None:
        super().__init__()
        self.setup = setup
        self.board_title = board_title
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(styled(("New Evasion match", "b"), f" on {self.board_title}"))
            with Grid():
                yield from player_rows(self.game, self.setup.players, ("Player 1 (hunts first)", "Player 2 (flees first)"),
                                      self.app.policy.player_kinds)
                yield PlainLabel("Rounds")
                yield PlainInput(value=str(self.setup.rounds), compact=True, id="rounds", classes="short")
            yield Plain("The roles swap every round; whose hunter catches the prey sooner wins. "
                        "Two bots: you watch (space pauses, . steps, + and - change the speed).", id="about")
            yield Plain(id="error")
            with Horizontal(id="buttons"):
                yield Plain(KEYS_LINE, id="keys")
                yield Button("Start", variant="primary", compact=True, id="start")

    def chosen(self) -> EvasionSetup:
        """The setup as filled in; UsageError names the first bad field."""
        players = chosen_players(self, self.game, 2, self.app.policy.player_kinds)
        rounds = parse_count("rounds", self.query_one("#rounds", Input).value.strip(), 1, MAX_ROUNDS)
        return EvasionSetup((players[0], players[1]), rounds)


def ask_new_match(screen: MatchScreen[Any]) -> None:
    """Open the new-match dialog over `screen`, its clock stopped while it is open; what is
    chosen starts a new match there. A match run by a server keeps its players."""
    if not screen.runs_match:
        screen.say("This match is run by its server (the architect or the lobby), or replays a finished one: its players are set.")
        return
    setup = EvasionSetup((screen.players[0], screen.players[1]), screen.rounds)

    def chosen(new: EvasionSetup | None) -> None:
        if new is not None:
            screen.new_match(new.players, new.rounds, screen.loaded)
            screen.start_clock()

    screen.push_holding_clock(EvasionSetupDialog(setup, screen.loaded.title, screen.game), chosen)
