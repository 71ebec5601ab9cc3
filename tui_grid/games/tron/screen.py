"""The Tron screen: the match shell around the arena (view.py), two sets of steering keys,
wired to plain parts: the setup flow (setup_flow.py), the live hint (live_hint.py),
thinking time (pace.py), who steers with which keys (participants.py), and the words
around the arena and at a round's end (panel_text.py, round_text.py). Rounds follow the
table's conductor: a match of bots goes on by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tui_grid.core.agents import Agent
from tui_grid.core.conductor import CountdownSaid, Paused
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.live import MatchFeed
from tui_grid.core.players import PlayerContext
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.table import TableEvent
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.games.tron import pace, panel_text, participants, round_text
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.live_hint import LiveHint
from tui_grid.games.tron.rules import SEAT_NAMES, TronState
from tui_grid.games.tron.setup_dialog import TronSetup, TronSetupDialog, fit_players, save_setup, starting_setup
from tui_grid.games.tron.setup_flow import SetupFlow
from tui_grid.games.tron.view import HINT_MARK, TronBoardView
from tui_grid.ui.keys import ANY_HUMAN, Key, match_keymap
from tui_grid.ui.match_screen import MatchScreen
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings

OWN_KEYS = tuple(
    Key(name, f"drive({letter!r}, 0)", "Steer" if index == 0 else f"Steer {name}", "player 1: steer (a lone human may use either set)",
        display="←↑↓→", show=index == 0, seat=0)
    for index, (name, letter) in enumerate(participants.ARROW_KEYS)
) + tuple(
    Key(name, f"drive({letter!r}, 1)", "Steer" if index == 0 else f"Steer {name}", "player 2: steer with W A S D", display="WASD", show=index == 0, seat=1)
    for index, (name, letter) in enumerate(participants.WASD_KEYS)
) + (Key("n", "setup", "New", "new match: choose the players, the board, the rounds and the speed"),)


class TronScreen(MatchScreen[TronState]):
    KEYMAP = match_keymap(OWN_KEYS)
    VIEW = TronBoardView
    # An arena of eight names its drivers on three lines at 80 columns, its marks on a fourth.
    DEFAULT_CSS = "TronScreen #message { height: auto; min-height: 2; max-height: 4; } TronScreen #legend { max-height: 4; }"

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None = None, players: Sequence[str] | None = None,
                 rounds: int | None = None, *, setup: TronSetup | None = None, ask_setup: bool | None = None,
                 feed: MatchFeed[TronState, Any] | None = None) -> None:
        """Opened by the app (no players) it asks the setup dialog first, which opens on the
        remembered choices (an arena's cycles too); given players, it plays the board opened."""
        chosen = starting_setup((settings or Settings()).speed, players, rounds, setup)
        fitted = fit_players(chosen, len(loaded.board.heads))  # a player per cycle of the board opened
        super().__init__(game, loaded, settings, fitted.players, fitted.rounds, feed=feed)
        asks = (players is None and feed is None) if ask_setup is None else ask_setup
        self.flow = SetupFlow(game, loaded, chosen if asks else fitted, asks)
        self.live_hint = LiveHint(self, HINT_MARK)
        self.slow_warning, self.turn_back_said = pace.SlowProgramWarning(game), False
        self._verdict = ""  # the last round's "who crashed where", kept on screen until the next round
        self.told_out = participants.OutTold()

    @property
    def setup(self) -> TronSetup:
        """The choices in force (the dialog starts from them)."""
        return self.flow.setup

    def make_participant(self, player: str, index: int) -> Agent[TronState, Any]:
        """Builtin bots think within the tick (the driver owns the pace)."""
        return self.game.make_agent(player, PlayerContext(index, time_ms=self.bot_budget_ms()), self.app.policy.player_kinds)

    def bot_budget_ms(self) -> float:
        return pace.bot_budget_ms(self.setup.time_ms, self.tick_seconds())

    def agent_timeout(self) -> float:
        return pace.agent_timeout(self.game, self.players, self.tick_seconds(), self.bot_budget_ms())

    def round_engine(self, index: int) -> TronEngine:
        self.loaded = self.flow.round_board(index, self.loaded)
        return TronEngine(self.loaded.board)

    def on_mount(self) -> None:
        # No super().on_mount(): Textual calls every class's on_mount in the MRO itself.
        if self.flow.asks:
            self.action_setup()

    def holds_clock(self) -> bool:
        return self.flow.asks

    def engine_tick_seconds(self) -> float:
        return TronEngine.tick_seconds  # asked before the first match is set up

    def action_setup(self) -> None:
        """Open the setup dialog; the match waits meanwhile."""
        if not self.runs_match:
            self.say("An online match is set up in the lobby, and a replay plays a finished one: esc goes back.")
            return
        self.flow.opening(self.paused)
        self.push_holding_clock(TronSetupDialog(self.setup, self.flow.opened.title), self._setup_chosen)

    def _setup_chosen(self, setup: TronSetup | None) -> None:
        """A new match, or the old one's clock goes on as it was (push_holding_clock)."""
        if setup is not None:
            save_setup(setup, self.app.policy)
            self.apply_setup(setup)
        elif self.flow.cancelled():
            self.app.back_to_boards(self.game)  # cancelled before any match

    def apply_setup(self, setup: TronSetup) -> None:
        """Start a new match with these choices (the old one's players are closed)."""
        try:
            loaded = self.flow.choose(setup)
        except (BoardError, UsageError) as exc:
            tell(self, str(exc), title="Cannot make the map", severity="error")
            return
        self.settings = replace(self.settings, speed=setup.speed)  # this match's clock only
        self.new_match(setup.players, setup.rounds, loaded)
        self.flow.begun()
        self.live_hint.on = False
        self.slow_warning.said = self.turn_back_said = False
        self.start_clock()

    def participant_names(self) -> list[str]:
        return participants.shown_names(self.game, self.players, super().participant_names())

    def humans(self) -> list[int]:
        """Participants played by people."""
        return [index for index, agent in enumerate(self.match.participants) if agent.human]

    def serves_seat(self, seat: int) -> bool:
        """A keyset belongs to a participant whatever colour; a lone human has both; no match yet: nobody."""
        return self.feed is not None and participants.serves(None if seat == ANY_HUMAN else seat, self.humans())

    def shows_key(self, key: Key) -> bool:
        """A keyset's keys leave the bar while the cycle it steers is out of the round, the hint once no person rides."""
        out = key.seat is not None and self.serves_seat(key.seat) and not participants.keyset_rides(key.seat, self.humans(), self.match.seating, self.state.riding)
        idle = key.common == "hint" and self.serves_seat(ANY_HUMAN) and not self.session.over and not self.session.people_act()
        return not (out or idle) and super().shows_key(key)

    def session_changed(self, session: Session[TronState, Any], change: Change[TronState]) -> None:
        """A person's cycle out of a round that rides on: how, said once; the bots' pace once none rides."""
        super().session_changed(session, change)
        riding_on = change.kind is ChangeKind.STEP and not change.ends_game(session.engine)
        if riding_on and (out := self.told_out.newly_out(session.agents, change.state)):
            people = [f"{self.match.score.names[self.match.seating[seat]]} ({SEAT_NAMES[seat]})" for seat in out]
            self.say(round_text.out_line(change.events, people, session.people_act(change.state)))
            self.pace_driver()
            self.shell.refresh_keys()  # the keys of a cycle out go (`shows_key`)

    def step_keeps_message(self) -> bool:
        return True  # a message stays up while the round goes on: a step comes several times a second

    def stepped(self) -> None:
        self.live_hint.request()
        if self.driver is not None and (warning := self.slow_warning.check(self.driver.last_ask_seconds, self.tick_seconds(), self.players)):
            self.say(warning)

    def round_over(self) -> None:
        score = self.match.score
        outcome = self.game.describe_outcome(self.session.outcome, [score.names[participant] for participant in score.rounds[-1].seating])
        finished = self.game.match_verdict(score)[1] if self.match.finished else None
        humans = bool(self.humans())
        verdict, line2 = round_text.round_end(score, outcome, match_verdict=finished, steerable=self.steerable, humans=humans)
        self._verdict = verdict
        super().say(f"{verdict}\n{line2}")  # not under the last round's verdict (say)
        self.query_one("#legend", Plain).update(self.legend())  # the points as they stand now

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Once a round is over its verdict stays on the first line, whatever a key says
        after it: space, z or an arrow must not wipe out who crashed where."""
        if self._verdict and self.session.over:
            message = round_text.under_verdict(self._verdict, message)
        super().say(message, cells)

    def action_next_round(self) -> None:
        super().action_next_round()
        self.live_hint.request()

    def pause_words(self, done: Paused) -> str:
        if done is Paused.NEXT_RELEASED and self.conductor.pacing.between_rounds is not None:
            return round_text.auto_next_line(self.match.round_index + 1)  # let go: it comes by itself again
        return super().pause_words(done)

    def action_drive(self, letter: str, keyset: int) -> None:
        """An arrow (keyset 0) or WASD (keyset 1) key: a turn for its participant's cycle."""
        humans = self.humans()
        if not humans:
            self.say("No human drives in this match: n sets one up.")
        elif self.session.over:  # said in the message line, under the verdict: pressed again, nothing piles up
            self.say(round_text.after_round(self.steerable, self.match.finished, self.score_text()))
        else:
            seat, turn = self.match.seating.index(participants.keyset_driver(keyset, humans)), Direction.from_letter(letter)
            if not self.turn_back_said and participants.turns_back(self.state.headings[seat], getattr(self.session.agents[seat], "queued", ()), turn):
                self.turn_back_said = True  # once a match: the key is ignored (TronEngine.queue_action)
                self.say(participants.TURN_BACK_IGNORED)
            self.session.submit(seat, turn)  # queued; a held clock keeps the last (MatchFeed.pause)

    def table_event(self, event: TableEvent) -> None:
        """The countdown also says which colour each person drives this round."""
        if isinstance(event, CountdownSaid) and (humans := self.humans()):
            event = CountdownSaid(f"{event.words} {panel_text.who_drives(humans, self.match.seating)}")
        super().table_event(event)

    def action_act(self, text: str, participant: int = 0) -> None:
        self.action_drive(text, participant)

    def action_hint(self) -> None:
        """Toggle the live hint: each tick, where the hard bot would drive each human."""
        if not self.humans():
            self.say("The hint is for human players.")
            return
        self.say(self.live_hint.toggle())  # between rounds, under the round's verdict (say)
        self.live_hint.request()

    def grid_size(self) -> tuple[int, int]:
        board = self.session.engine.board  # type: ignore[attr-defined]
        return board.width, board.height

    def redraw(self) -> None:
        super().redraw()
        self.query_one("#title", Plain).update(panel_text.title(self.loaded.title, self.loaded.game_id, self.match.score.names, self.match.seating))
        self.query_one("#legend", Plain).update(self.legend())

    def show_status(self) -> None:
        """The shell's status line without the game id (the title has it): one line at 80 columns."""
        self.query_one("#status", Plain).update(f"{self.status_text(self.shown)}  ·  speed {self.settings.speed}")
        self.query_one("#message", Plain).update(self.message)

    def score_text(self) -> str:
        return round_text.score_line(self.match.score)

    def status_text(self, state: TronState) -> str:
        # A finished match has no clock to pause; a countdown holds it without a pause, so
        # no PAUSED shows above "Get ready" (nor does it in Evasion).
        paused = self.paused and not self.match.finished and not self.counting_down
        return panel_text.status(self.match.round_index, self.session.over, self.rounds, state.turn, self.score_text(), paused)

    def focus_of(self, state: TronState) -> Pos:
        """The cycle kept on screen on a board larger than it (40x40): the first human's, else red's."""
        seat = next((seat for seat, agent in enumerate(self.session.agents) if agent.human), 0)
        return state.heads[seat]

    def legend(self) -> str:
        score = self.match.score
        points = [score.points(index) for index in range(len(score.names))] if score.ranked else []
        return panel_text.legend(score.names, self.match.seating, self.humans(), self.steerable, points)
