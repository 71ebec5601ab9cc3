"""The "who plays" rows of a match's setup dialog, shared by every game that has one: a
list of the player table's choices per participant and, for a program, its command line.
The kinds offered are the app's policy's (core.policy): a remote session's has no
programs, so a stranger can never name one here."""

from __future__ import annotations

from typing import Iterator, Sequence, TypeVar

from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Select

from tui_grid.core.errors import UsageError
from tui_grid.core.players import Roster, check_player, dialog_choices, join_player, split_player, takes_text
from tui_grid.ui.form import FormDialog
from tui_grid.ui.plain import PlainInput, PlainLabel

T = TypeVar("T")

#: The keys line of a match's setup dialog: enter starts from any field, so a list opens
#: with space.
KEYS_LINE = "enter starts · space opens a list · esc cancels"


def player_rows(game: Roster, players: Sequence[str], labels: Sequence[str], kinds: Sequence[str],
                first: int = 0) -> Iterator[Widget]:
    """Label and (choice, command) pairs for each participant, ids `kind-N` and `command-N`,
    offering `kinds` only (a remembered player of another kind starts as the first choice).
    Yields widgets for a two-column Grid: the caller lays them out inside its compose.
    Both widgets of row N have the class `player-N`, for a dialog that shows fewer rows.
    `first` numbers the rows from there, for a dialog that adds rows later."""
    choices = dialog_choices(game, kinds)
    for index, label in enumerate(labels, start=first):
        kind, command = split_player(game, starting_player(game, players[index - first], kinds))
        yield PlainLabel(label, classes=f"player-{index}")
        yield Horizontal(
            Select(choices, value=kind, allow_blank=False, compact=True, id=f"kind-{index}", classes="kind"),
            PlainInput(value=command, placeholder="e.g. python3 bot.py", compact=True, id=f"command-{index}", classes="command"),
            classes=f"player-{index}",
        )


def starting_player(game: Roster, player: str, kinds: Sequence[str]) -> str:
    """The player a row starts with: `player`, or the first choice offered where its kind
    is not (a remembered program in a session that offers none)."""
    choices = dialog_choices(game, kinds)
    kind, _ = split_player(game, player)
    return player if kind in {value for _, value in choices} else str(choices[0][1])


def show_command_fields(screen: Screen[object], count: int) -> None:
    """A command field only for a program's row."""
    for index in range(count):
        kind = screen.query_one(f"#kind-{index}", Select).value
        screen.query_one(f"#command-{index}", Input).display = takes_text(str(kind))


def chosen_players(screen: Screen[object], game: Roster, count: int, kinds: Sequence[str]) -> tuple[str, ...]:
    """The players as filled in, checked against the player table and `kinds`; UsageError
    names the row."""
    players = []
    for index in range(count):
        kind = str(screen.query_one(f"#kind-{index}", Select).value)
        try:
            players.append(check_player(game, join_player(kind, screen.query_one(f"#command-{index}", Input).value), kinds))
        except UsageError as exc:
            raise UsageError(f"Player {index + 1}: {exc}") from None
    return tuple(players)


class MatchSetupDialog(FormDialog[T]):
    """A new match's dialog: a frame, a two-column grid of labels and fields (the player
    rows first), a line about the match, the error line, and the keys with a Start
    button. Each game's dialog sets its widths, and `PLAYER_ROWS` (or `player_row_count`) when
    it has more than two."""

    PLAYER_ROWS = 2

    def player_row_count(self) -> int:
        """The player rows on screen now (a dialog that adds rows later says how many)."""
        return self.PLAYER_ROWS

    DEFAULT_CSS = """
    MatchSetupDialog { align: center middle; }
    MatchSetupDialog > Vertical { height: auto; max-height: 100%; border: thick $primary; background: $surface; padding: 0 1; }
    MatchSetupDialog Grid { grid-size: 2; grid-rows: 1; grid-gutter: 1 0; height: auto; margin: 1 0 0 0; }
    MatchSetupDialog Grid Horizontal { height: 1; }
    MatchSetupDialog .command { width: 1fr; margin-left: 1; }
    MatchSetupDialog .short { width: 9; }
    MatchSetupDialog .gap { width: auto; padding: 0 1 0 2; color: $text-muted; }
    MatchSetupDialog #about { color: $text-muted; height: auto; margin: 1 0 0 0; }
    MatchSetupDialog #error { color: $error; height: auto; }
    MatchSetupDialog #buttons { height: 1; margin-top: 1; }
    MatchSetupDialog #keys { width: 1fr; color: $text-muted; }
    MatchSetupDialog SelectOverlay.-textual-compact { border: round $accent !important; background: $panel; }
    """

    BINDINGS = [
        # Up and down move between fields where the field has no use for them (an open
        # list keeps its own), so down always does something.
        Binding("down", "app.focus_next", "Next field", show=False),
        Binding("up", "app.focus_previous", "Previous field", show=False),
    ]

    def on_mount(self) -> None:
        # A game's own on_mount and on_select_changed run as well (Textual calls the
        # handlers along the class hierarchy): they add only what is the game's.
        show_command_fields(self, self.player_row_count())
        # The first choice, not the Start button: a compact button's focus hardly shows, and
        # down must work before any tab. Enter still starts from here.
        self.query_one("#kind-0", Select).focus()

    def action_confirm(self) -> None:
        """Enter on a closed list: checked after the changes already queued (a field's
        Changed clears the error line, and must not clear the error this enter shows)."""
        self.call_later(self._confirm_if_open)

    def _confirm_if_open(self) -> None:
        if self.is_current:  # a second enter, queued before the first closed the dialog
            self.confirm()

    def on_select_changed(self) -> None:
        self.show_error("")
        show_command_fields(self, self.player_row_count())
