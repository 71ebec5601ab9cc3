"""The lobby's lists from the server's store: a game's leaderboard, your finished games and
the server's most recent ones. A finished game replays with enter (the lobby asks the
hub for it). Everything here came from other players: plain text only."""

from __future__ import annotations

import time
from typing import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList

from tui_grid.online.accounts import title
from tui_grid.online.protocol import GameList, Leaders, Message, Replay, Top
from tui_grid.ui.plain import Plain, option, styled

Shown = Leaders | GameList


def when(ended: float, now: float) -> str:
    """How long ago, in words that fit a list line."""
    seconds = max(0.0, now - ended)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return "just now"


class LobbyList(Screen[None]):
    """One list at a time: `show` replaces it when the hub answers another request."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("tab", "next_game", "Next game"),
        Binding("q", "app.quit", "Quit", show=False),
    ]
    DEFAULT_CSS = """
    LobbyList > Vertical { padding: 0 1; }
    LobbyList #heading { color: $accent; text-style: bold; }
    LobbyList OptionList { height: 1fr; }
    LobbyList #about { color: $text-muted; height: auto; }
    """

    def __init__(self, shown: Shown, send: Callable[[Message], None], games: tuple[str, ...],
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.shown = shown
        self.send = send
        self.games = games
        self.clock = clock

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain("", id="heading")
            yield OptionList(id="rows")
            yield Plain("", id="about")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.show(self.shown)

    def show(self, shown: Shown) -> None:
        self.shown = shown
        rows = self.query_one("#rows", OptionList)
        rows.clear_options()
        if isinstance(shown, Leaders):
            self.query_one("#heading", Plain).update(f"{title(shown.game)} leaderboard")
            self.query_one("#about", Plain).update("? provisional: a rating still settling · tab: the next game · esc: back")
            rows.add_options([option(f"{row.rank:>3}. {row.name}  {row.rating}{'?' if row.provisional else ''}"
                                     f"  ({row.games} game{'s' if row.games != 1 else ''})") for row in shown.rows]
                             or [option(styled(("  nobody is rated yet: play a rated match", "dim")), disabled=True)])
            self.refresh_bindings()
            return
        now = self.clock()
        self.query_one("#heading", Plain).update("Your finished games" if shown.mine else "Recent games on this server")
        self.query_one("#about", Plain).update("enter replays a game (space pauses, . steps, + and - change the speed) · esc: back")
        rows.add_options([option(f"{line.id}. {title(line.game)}: {' vs '.join(line.names)} · {when(line.ended, now)}"
                                 f"{'' if line.rated else ' · casual'}\n    {line.verdict}", id=str(line.id))
                          for line in shown.rows]
                         or [option(styled(("  no finished game yet", "dim")), disabled=True)])
        rows.highlighted = 0 if shown.rows else None
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_game":
            return isinstance(self.shown, Leaders)  # a list of games has no next game
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if isinstance(self.shown, GameList) and event.option.id:
            self.send(Replay(int(event.option.id)))

    def action_next_game(self) -> None:
        if isinstance(self.shown, Leaders) and self.games:
            index = self.games.index(self.shown.game) if self.shown.game in self.games else -1
            self.send(Top(self.games[(index + 1) % len(self.games)]))
