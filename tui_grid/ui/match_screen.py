"""The shared view of a real-time game between seats: a Match of rounds played by the core
driver (its clock, pause, single step and speed), humans' keys sent to their seat's
queue in the session. Tron and Evasion add their drawing and keys.

Keys belong to participants, not seats: seats swap between rounds, and the player on the
arrow keys keeps them when his cycle changes colour.
"""

from __future__ import annotations

import time
from typing import Any, Callable, ClassVar, Sequence

from textual.app import ComposeResult
from textual.screen import Screen

from tui_grid.core.agents import Agent, HumanAgent
from tui_grid.core.conductor import Conductor, CountdownSaid, RoundPacing
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Engine
from tui_grid.core.live import LiveMatch, MatchFeed
from tui_grid.core.match import Match
from tui_grid.core.players import PlayerContext, participant_names
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.table import RoundBegan, Table, TableEvent
from tui_grid.games.registry import GameDefinition, LoadedBoard, Plannable
from tui_grid.ui import match_words
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.match_clock_keys import MatchClockKeys
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.game_shell import S, shell_css
from tui_grid.ui.keys import ANY_HUMAN, Key, Keymap, match_keymap
from tui_grid.ui.settings import Settings

#: Said while no human plays a local match: how to steer the watching.
WATCHING = "Watching: space pauses, . steps one tick, + and - change the speed."

class MatchScreen(MatchClockKeys, GameScreen[S], Screen[None]):
    """A view of a match feed (core.live): by default a LiveMatch of `players` (player
    texts, core.players; the game's defaults when none are given) played here, or any feed
    given, such as the Evasion architect's. The feed's driver owns the clock; this screen
    starts it, steers its pace (space, `.`, + and -) and draws what it is told."""

    KEYMAP: ClassVar[Keymap] = match_keymap(())
    DEFAULT_CSS = shell_css("MatchScreen")
    #: Seconds per count of the countdown.
    COUNTDOWN_BEAT: ClassVar[float] = 1.0

    def __init__(
        self,
        game: GameDefinition,
        loaded: LoadedBoard,
        settings: Settings | None = None,
        players: Sequence[str] | None = None,
        rounds: int = 1,
        *,
        feed: MatchFeed[S, Any] | None = None,
    ) -> None:
        super().__init__()
        self.hold_game(game, loaded, settings)
        self.players = tuple(players or game.default_players)
        self.rounds = rounds
        self.feed: MatchFeed[S, Any] | None = feed

    def compose(self) -> ComposeResult:
        """The table at the match, then the shell's widgets."""
        self.open_match(self.loaded)
        yield from self.compose_shell()

    # --- the feed ----------------------------------------------------------------------------
    def open_match(self, loaded: LoadedBoard) -> None:
        """The table at a match: the feed given, or a new one of `players`."""
        self.loaded = loaded
        if self.feed is None:
            self.feed = self.make_feed()
        # The feed relays every round's session, so the table follows the feed's news.
        self.table: Table[S] = Table(self.feed.session, loaded, to_owner=self.to_owner, on_event=self.table_event,
                                     planner=self.game.plan if isinstance(self.game, Plannable) else None,
                                     max_cells=self.app.policy.max_cells, follow=False)
        self.table.conduct(self.feed, RoundPacing(), later=self.set_timer, clock=time.monotonic, decide=self.game.match_verdict)
        self.conductor.pacing = self.round_pacing()
        self.feed.on_note(self._feed_note)
        self.shown = self.session.state
        self.pace_driver()

    @property
    def conductor(self) -> Conductor:
        assert self.table.conductor is not None
        return self.table.conductor

    def round_pacing(self) -> RoundPacing:
        advances = self.feed is not None and self.feed.advances
        return RoundPacing.at_board(advances, self.serves_seat(ANY_HUMAN), self.settings.countdown, self.COUNTDOWN_BEAT)

    def make_feed(self) -> MatchFeed[S, Any]:
        participants = [self.make_participant(player, index) for index, player in enumerate(self.players)]
        return LiveMatch(self.round_engine, participants, self.rounds, names=self.participant_names(), timeout=None, step_seconds=None)

    def make_participant(self, player: str, index: int) -> Agent[Any, Any]:
        return self.game.make_agent(player, PlayerContext(index), self.app.policy.player_kinds)

    def round_engine(self, index: int) -> Engine[S, Any]:
        return self.game.make_engine(self.loaded)

    def participant_names(self) -> list[str]:
        return participant_names(self.game, self.players)

    @property
    def match(self) -> Match[S, Any]:
        assert self.feed is not None
        return self.feed.match

    @property
    def driver(self) -> Driver[S, Any] | None:
        return self.feed.driver if self.feed is not None else None

    def pace_driver(self) -> None:
        """The feed's beat and deadline from this screen's speed."""
        if self.feed is not None:
            self.feed.pace(self.tick_seconds(), self.agent_timeout())

    def _feed_note(self, text: str) -> None:
        """A line from the feed outside any game (a server's log or result): said, and the
        key bar shown anew (the match may be over: a rematch is offered)."""
        def say() -> None:
            self.say(text)
            self.shell.refresh_keys()

        self.to_owner(say)

    def table_event(self, event: TableEvent) -> None:
        if isinstance(event, RoundBegan):
            self.show_round(event.session)
        elif isinstance(event, CountdownSaid):
            self.say(event.words)
        else:
            self.shell.table_event(event)

    def show_round(self, session: Session[S, Any]) -> None:
        """A new round's session (the table follows it): show it from its start."""
        self.shown = session.state
        self.pace_driver()
        self.hint = None
        self.message = WATCHING if self.steerable and not self.serves_seat(ANY_HUMAN) else ""
        self.view.set_grid_size(*self.grid_size())
        self.redraw()
        self.shell.refresh_keys()  # seats swap: so do whose keys are shown

    def on_mount(self) -> None:
        # Textual runs GameScreen.on_mount too (handlers run along the class hierarchy).
        if self.feed is not None and not self.holds_clock():
            self.start_clock()

    def start_clock(self) -> None:
        """Start the feed; with a human at the board, held for a visible countdown first
        (3, 2, 1 on screen, a beat each: nobody is caught unready)."""
        self.conductor.pacing = self.round_pacing()
        self.conductor.begin()

    @property
    def counting_down(self) -> bool:
        return self.conductor.counting

    def holds_clock(self) -> bool:  # the clock waits (a setup dialog first); else the feed starts at once
        return False

    def engine_tick_seconds(self) -> float:
        """The game's own tick at speed 5 (its engine's), before any round exists too."""
        return self.session.engine.tick_seconds or 0.25

    def tick_seconds(self) -> float:
        base = self.engine_tick_seconds()
        if self.feed is not None and self.serves_seat(ANY_HUMAN) and (self.session.over or self.session.people_act()):
            base = self.session.engine.human_tick_seconds or base
        return self.settings.tick(base)

    def agent_timeout(self) -> float:
        """Seconds each agent has per step: about a tick."""
        return max(0.05, self.tick_seconds())

    @property
    def steerable(self) -> bool:
        return self.feed is None or self.feed.steerable

    @property
    def paused(self) -> bool:
        return self.feed is not None and self.feed.paused

    @property
    def driving(self) -> bool:
        return self.driver is not None and self.driver.busy

    def serves_seat(self, seat: int) -> bool:
        if self.feed is None:
            return False  # no match yet (a setup dialog first)
        humans = [index for index, agent in enumerate(self.session.agents) if agent.human]
        return bool(humans) and (seat == ANY_HUMAN or seat in humans)

    @property
    def runs_match(self) -> bool:
        """Whether this screen runs its match (not the architect's, the lobby's or a replay):
        only then are its players ours to choose (a game's `setup` key)."""
        return self.feed is None or self.feed.chosen_here

    def shows_key(self, key: Key) -> bool:
        """Between rounds the bar drops what cannot act (a seat's keys, the hint), and once
        the match is over the key for a next round. A `setup` key shows only where this
        screen runs the match."""
        if key.action == "setup" and not self.runs_match:
            return False
        if self.feed is not None and self.session.over:
            if key.seat is not None or key.common == "hint":
                return False
            if self.match.finished and key.common in ("next", "pause", "step", "faster", "slower"):
                return False  # no clock left to steer
        return super().shows_key(key)

    def offers(self, common: str) -> bool:
        if common in ("undo", "redo", "restart", "solve", "watch", "new", "save"):
            return False
        if common == "hint":  # not online: both players see the same board, unaided
            return any(agent.human for agent in self.session.agents) and self.steerable
        if common == "rematch":
            return self.feed is not None and self.feed.rematches and self.match_over
        if common in ("pause", "step", "faster", "slower", "next"):
            return self.steerable
        return True

    # --- what the driver did -----------------------------------------------------------------------
    def session_changed(self, session: Session[S, Any], change: Change[S]) -> None:
        self.shell.show_change(session, change)
        if change.kind in (ChangeKind.STEP, ChangeKind.FORFEIT):
            if change.ends_game(session.engine):
                self.round_over()
                self.shell.refresh_keys()  # what acts between rounds (`shows_key`)
            else:
                self.stepped()

    def stepped(self) -> None:
        """After a step that did not end the round (Tron asks for its live hint here)."""

    def round_over(self) -> None:
        """The round ended; the feed has recorded it (`self.match.score`)."""
        steerable = self.feed is None or self.feed.steerable
        self.say(match_words.round_over(self.game, self.match, self.session.outcome, steerable))

    # --- keys --------------------------------------------------------------------------------------
    def action_act(self, text: str, participant: int = 0) -> None:
        """A participant's key: it acts for the seat that participant sits in this round."""
        seating = self.match.seating
        if participant >= len(seating) or participant not in seating:
            return
        seat = seating.index(participant)
        if not self.session.agents[seat].human or self.session.over:
            return
        self.session.submit(seat, self.session.engine.decode_action(text))
        self.hint = None

    def action_rematch(self) -> None:
        """After an online match: offer the other player a rematch, or take theirs."""
        if self.feed is None:
            return
        self.feed.offer_rematch()
        self.say("Rematch asked for: it starts when both want it (esc goes back to the lobby).")
        self.shell.refresh_keys()

    def action_help(self) -> None:
        """Help stops the clock while it is open, so nobody crashes while reading."""
        from tui_grid.ui.help_screen import HelpScreen

        self.push_holding_clock(HelpScreen(self.game, self.KEYMAP, self.offers))

    def push_holding_clock(self, screen: Screen[Any], answered: Callable[[Any], None] | None = None) -> None:
        """Open a dialog or help over the match with the clock stopped (where this app
        keeps it), and start it again when it closes; `answered` gets its result first."""
        # Held: else "Go!" would start the round under the dialog. Released, a countdown
        # counts from the top: nobody is caught unready.
        release = self.conductor.hold() if self.steerable else (lambda: None)
        feed = self.feed

        def closed(result: Any) -> None:
            if answered is not None:
                answered(result)
            if self.feed is feed:  # a new match keeps its own clock
                release()
                self.show_status()  # PAUSED goes with the hold

        self.app.push_screen(screen, closed)

    def action_quit(self) -> None:
        """q while a human is in a match asks first: a match is not saved, and one key
        must not end it by a slip."""
        self._leave_asking("Quit in the middle of the match?", "quit", super().action_quit)

    def action_back(self) -> None:
        """esc asks as q does: one key must not throw a match away."""
        self._leave_asking("Leave the match?", "leave", self.leave_board)

    def _leave_asking(self, question: str, yes: str, leave: Callable[[], None]) -> None:
        """`leave` at once, unless a human plays in a match still on (here or online): then
        after a yes to `question`, with the clock held while it is asked where it is ours."""
        if not (self.feed is not None and self.serves_seat(ANY_HUMAN) and not self.match_over):
            leave()
            return
        lost = match_words.leaving_loses(self.match, self.runs_match, getattr(self.feed, "you", None))
        self.push_holding_clock(ConfirmDialog(question, lost, yes=yes, no="play on"), lambda answer: answer and leave())

    @property
    def match_over(self) -> bool:
        """Every round played, or the server has said the verdict."""
        return self.feed is not None and (self.match.finished or bool(self.feed.ended))

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Once the server has said the match's verdict, it stays on the message line: a
        round's end processed after it, or any key, only adds below."""
        ended = self.feed.ended if self.feed is not None else ""
        if ended and ended not in message:
            message = f"{ended}  esc goes back.\n{message}" if message else f"{ended}  esc goes back."
        self.shell.say(message, cells)

    def take_seat(self, participant: int, name: str = "you") -> None:
        """A person named `name` takes `participant`'s place from the position shown (the
        demo's enter), in this round and the next, at a human's pace, after a countdown."""
        self.match.seat_instead(participant, HumanAgent(name), name)
        self.players = tuple("human" if index == participant else kind for index, kind in enumerate(self.players))
        self.conductor.pacing = self.round_pacing()
        self.pace_driver()
        self.conductor.count_down_if_running()
        self.redraw()
        self.shell.refresh_keys()

    def new_match(self, players: Sequence[str], rounds: int, loaded: LoadedBoard) -> None:
        """Another match on this screen (a setup's choices); the old one's players are closed."""
        self.close_feed()
        self.table.close()
        self.players = tuple(players)
        self.rounds = rounds
        self.open_match(loaded)
        self.show_round(self.session)

    def close_feed(self) -> None:
        """Stop the match and let go of it (a new setup makes another)."""
        if self.feed is not None:
            self.feed.unsubscribe_all()
            self.feed.close()
            self.feed = None

    def on_unmount(self) -> None:
        self.close_feed()  # GameScreen.on_unmount runs as well, along the class hierarchy
