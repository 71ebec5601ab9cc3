"""The Tron screen: the shared match shell (rounds, seats swapped, tick clock with pause,
step and speed) plus the arena (view.py), two sets of steering keys, a live hint from the
hard bot, and the setup dialog that seats the players (setup_dialog.py).

Keys belong to participants, not seats: player 1 steers with the arrows and player 2 with
W A S D in every round, whichever colour they drive; a lone human may use either set.
Turns pressed within one tick queue up (at most three) and are played one per tick; a key
straight back the way the cycle came is ignored, since it could only crash.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tui_grid.core.agents import Agent
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.live import MatchFeed
from tui_grid.core.text import clip, echo
from tui_grid.core.players import PlayerContext, is_program, parse_player
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.rules import SEAT_NAMES, TronState
from tui_grid.games.tron.setup_dialog import (
    TronSetup,
    TronSetupDialog,
    load_setup,
    save_setup,
)
from tui_grid.games.tron.view import HINT_MARK, TronBoardView
from tui_grid.ui.board_view import BoardView
from tui_grid.core.table import Hint
from tui_grid.ui.keys import ANY_HUMAN, Key
from tui_grid.ui.match_screen import MatchScreen, match_keymap
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings

#: Seconds an external program may take per move in the app, whatever the tick.
PROGRAM_TIMEOUT = 2.0
#: The longest command shown as a program seat's name (longer ones go by their file name).
PROGRAM_NAME_LIMIT = 24
#: Seconds a builtin bot may run over its thinking time before its seat drives straight on.
BOT_SLACK = 0.5
#: Seconds before a match of bots goes on to its next round by itself.
AUTO_NEXT_SECONDS = 3.0

ARROW_KEYS = (("up", "u"), ("down", "d"), ("left", "l"), ("right", "r"))
WASD_KEYS = (("w", "u"), ("s", "d"), ("a", "l"), ("d", "r"))
OWN_KEYS = tuple(
    Key(name, f"drive({letter!r}, 0)", "Steer" if index == 0 else f"Steer {name}", "player 1: steer (a lone human may use either set)",
        display="←↑↓→", show=index == 0, seat=0)
    for index, (name, letter) in enumerate(ARROW_KEYS)
) + tuple(
    Key(name, f"drive({letter!r}, 1)", "Steer" if index == 0 else f"Steer {name}", "player 2: steer with W A S D", display="WASD", show=index == 0, seat=1)
    for index, (name, letter) in enumerate(WASD_KEYS)
) + (Key("n", "setup", "New", "new match: choose the players, the board, the rounds and the speed"),)


class TronScreen(MatchScreen[TronState]):
    KEYMAP = match_keymap(OWN_KEYS)
    DEFAULT_CSS = """
    TronScreen #message { height: auto; min-height: 2; max-height: 4; }
    """

    def __init__(
        self,
        game: GameDefinition,
        loaded: LoadedBoard,
        settings: Settings | None = None,
        players: Sequence[str] | None = None,
        rounds: int | None = None,
        *,
        setup: TronSetup | None = None,
        ask_setup: bool | None = None,
        feed: MatchFeed[TronState, Any] | None = None,
    ) -> None:
        """Opened by the app (no players), it asks the setup dialog first, starting from
        the remembered choices; given players (tests, scripts), it starts at once."""
        fresh = TronSetup(speed=(settings or Settings()).speed)
        # A board chosen (from the list or the command line) is the one played: a remembered
        # "new random map" would silently replace it.
        remembered = setup or (replace(load_setup(fresh), board="this") if players is None else fresh)
        if players is not None:
            remembered = replace(remembered, players=(players[0], players[1]))
        if rounds is not None:
            remembered = replace(remembered, rounds=rounds)
        self.setup = remembered
        self.ask_setup = (players is None and feed is None) if ask_setup is None else ask_setup
        self.opened = loaded
        self._setting_up = self.ask_setup
        self._hint_on = False
        self._slow_said = False
        self._auto_timer: Any = None
        self._verdict = ""  # the last round's "who crashed where", kept on screen until the next round
        self._started = not self.ask_setup
        super().__init__(game, loaded, settings, self.setup.players, self.setup.rounds, feed=feed)

    # --- the match ---------------------------------------------------------------------------------
    def make_participant(self, player: str, index: int) -> Agent[TronState, Any]:
        """Builtin bots think within the tick (the driver owns the pace)."""
        return self.game.make_agent(player, PlayerContext(index, time_ms=self.bot_budget_ms()), self.app.policy.player_kinds)

    def bot_budget_ms(self) -> float:
        """A builtin bot's thinking time: the setup's, but no more than most of a tick."""
        return max(10.0, min(float(self.setup.time_ms), self.tick_seconds() * 600))

    def round_engine(self, index: int) -> TronEngine:
        if index > 0 and self.setup.board == "each":
            self.loaded = self._random_map()
        return TronEngine(self.loaded.board)

    def _random_map(self) -> LoadedBoard:
        game = self.game
        game_id = game.game_id_from_options({"size": self.setup.size, "walls": self.setup.walls}, random.randrange(1, 1_000_000))  # type: ignore[attr-defined]
        return game.load_id(game_id)  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        # No super().on_mount(): Textual calls every class's on_mount in the MRO itself.
        if self.ask_setup:
            self.action_setup()

    def holds_clock(self) -> bool:
        return self.ask_setup

    def engine_tick_seconds(self) -> float:
        return TronEngine.tick_seconds  # asked before the first match is set up

    def action_setup(self) -> None:
        """Open the setup dialog; the match waits meanwhile."""
        if not self.steerable:
            self.say("An online match is set up in the lobby: esc goes back to it.")
            return
        self._setting_up = True
        self._was_paused = self.paused
        if self.feed is not None:
            self.feed.pause(True)
        self.app.push_screen(TronSetupDialog(self.setup, self.opened.title), self._setup_chosen)

    def _setup_chosen(self, setup: TronSetup | None) -> None:
        first = not self._started
        if setup is None:
            self._setting_up = False
            if first and self.ask_setup:
                self.app.back_to_boards(self.game)  # cancelled before any match
            elif self.feed is not None:
                self.feed.pause(self._was_paused)
            return
        save_setup(setup, self.app.policy)
        self.apply_setup(setup)

    def apply_setup(self, setup: TronSetup) -> None:
        """Start a new match with these choices (the old one's players are closed)."""
        try:
            loaded = self.opened if setup.board == "this" else None
            self.setup = setup
            if loaded is None:
                loaded = self._random_map()
        except (BoardError, UsageError) as exc:
            self._setting_up = False
            tell(self, str(exc), title="Cannot make the map", severity="error")
            return
        self.settings = replace(self.settings, speed=setup.speed)  # this match's clock only
        self.new_match(setup.players, setup.rounds, loaded)
        self._started = True
        self._setting_up = False
        self._hint_on = False
        self._slow_said = False
        self.start_clock()

    def participant_names(self) -> list[str]:
        """A program seat is named by its command when that is short, else by the program's
        file name: that alone would call `[red]nosuchprog[/red]` "red]" and `sh -c '…'`
        "sh -c"."""
        names = super().participant_names()
        for index, player in enumerate(self.players):
            command = parse_player(self.game, player).value or ""
            if is_program(self.game, player) and len(echo(command)) <= PROGRAM_NAME_LIMIT:
                names[index] = echo(command)
        if len(set(names)) < len(names):  # two seats of one command: told apart
            names = [f"{name} ({index + 1})" for index, name in enumerate(names)]
        return names

    def serves_seat(self, seat: int) -> bool:
        """A keyset belongs to a participant, whatever colour they drive; a lone human has
        both."""
        if self.feed is None:
            return False  # no match yet: the setup dialog comes first
        humans = self._humans()
        return bool(humans) and (seat == ANY_HUMAN or len(humans) == 1 or seat in humans)

    def _humans(self) -> list[int]:
        """Participants played by people."""
        return [index for index, agent in enumerate(self.match.participants) if agent.human]

    def agent_timeout(self) -> float:
        """A program has PROGRAM_TIMEOUT per move and forfeits when late; a builtin bot
        that overruns its thinking time drives straight on."""
        tick = self.tick_seconds()
        if any(is_program(self.game, player) for player in self.players):
            return max(tick, PROGRAM_TIMEOUT)
        return max(tick, BOT_SLACK + self.bot_budget_ms() / 1000)

    # --- what the driver did ------------------------------------------------------------------------
    def session_changed(self, session: Any, change: Any) -> None:
        """As the shell, but a message stays up while the round goes on (the shell clears
        it at every step, which in a real-time game is several times a second)."""
        kept = self.message
        super().session_changed(session, change)
        if change.kind == "step" and not session.engine.outcome(change.state).over and not self.message:
            self.say(kept)

    def stepped(self) -> None:
        self._request_hint()
        self._warn_slow_programs()

    def _warn_slow_programs(self) -> None:
        """A program started afresh every move can take longer than a tick, and the clock
        waits for it: say so once a match, and what to do about it."""
        driver = self.driver
        if self._slow_said or driver is None or driver.last_ask_seconds <= 1.5 * self.tick_seconds():
            return
        if not any(parse_player(self.game, player).kind == "oneshot" for player in self.players):
            return
        self._slow_said = True
        self.say(f"A move took {driver.last_ask_seconds:.2g} s against a {self.tick_seconds():.2g} s tick: the clock waits for the "
                 f"program, which starts a new process every move. Seat it as 'program (one run per round)' to keep the pace.")

    def round_over(self) -> None:
        session = self.session
        result = self.match.score.rounds[-1]
        names = [self.match.score.names[participant] for participant in result.seating]
        line1 = f"Round {result.index + 1}: {self.game.describe_outcome(session.outcome, names)}."
        if result.winner is None:
            line1 += " A draw."
        if self.match.finished:
            _, verdict = self.game.match_verdict(self.match.score)
            line2 = verdict if not self.steerable else f"{verdict} n new match · esc back."
        elif not self.steerable:  # online: the server starts the next round and says when
            line2 = f"Score: {self.score_text()}."
        elif self._humans():
            line2 = f"Score: {self.score_text()}. enter: round {result.index + 2} (seats swap)."
        else:
            line2 = f"Score: {self.score_text()}. Round {result.index + 2} in {AUTO_NEXT_SECONDS:g} s (enter now, space holds)."
            self._auto_timer = self.set_timer(AUTO_NEXT_SECONDS, self._auto_next)
        self._verdict = ""
        self.say(f"{line1}\n{line2}")
        self._verdict = line1

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Once a round is over its verdict stays on the first line, whatever a key says
        after it: space, z or an arrow must not wipe out who crashed where."""
        if self._verdict and self.session.over and not message.startswith(self._verdict):
            message = f"{self._verdict}\n{message}" if message else self._verdict
        super().say(message, cells)

    def _auto_next(self) -> None:
        self._auto_timer = None
        if not self.paused and not self._setting_up and self.session.over and not self.match.finished and not self._humans():
            self.action_next_round()

    def action_next_round(self) -> None:
        if self.session.over and not self.match.finished:
            if self._auto_timer is not None:
                self._auto_timer.stop()
                self._auto_timer = None
        super().action_next_round()
        self._request_hint()

    def action_pause(self) -> None:
        super().action_pause()
        if self.session.over and not self.paused and self._auto_timer is None and not self.match.finished and not self._humans():
            self._auto_timer = self.set_timer(AUTO_NEXT_SECONDS, self._auto_next)  # let go: the next round comes by itself again
            self.say(f"Round {self.match.round_index + 1} in {AUTO_NEXT_SECONDS:g} s (enter now, space holds).")
        self.show_status()

    # --- keys -------------------------------------------------------------------------------------------
    def action_drive(self, letter: str, keyset: int) -> None:
        """An arrow (keyset 0) or WASD (keyset 1) key: a turn for its participant's cycle."""
        humans = self._humans()
        if not humans:
            self.say("No human drives in this match: n sets one up.")
            return
        participant = keyset if len(humans) == 2 else humans[0]
        if self.session.over:  # said in the message line, under the verdict: pressed again, nothing piles up
            if not self.steerable:
                self.say("The round is over: the server starts the next one.")
            elif self.match.finished:
                self.say(f"The match is over: {self.score_text()}. n: new match.")
            else:
                self.say("The round is over: enter plays the next one.")
            return
        seat = self.match.seating.index(participant)
        self.session.submit(seat, Direction.from_letter(letter))  # queued: TronEngine.queue_action

    def action_act(self, text: str, participant: int = 0) -> None:
        self.action_drive(text, participant)

    def action_hint(self) -> None:
        """Toggle the live hint: each tick, where the hard bot would drive each human."""
        if not self._humans():
            self.say("The hint is for human players.")
            return
        self._hint_on = not self._hint_on
        text = "Hint on: ◆ marks where the hard bot would drive you, every tick. h turns it off." if self._hint_on else "Hint off."
        if not self._hint_on:
            self.hint = None
        if self.session.over:  # the round's verdict stays above it (say)
            self.say(text)
            return
        self.say(text)
        self._request_hint()

    def _request_hint(self) -> None:
        if not self._hint_on or self.session.over:
            return
        seats = tuple(seat for seat, agent in enumerate(self.session.agents) if agent.human)
        if not seats:
            return
        # A quarter of a tick or so: the mark must arrive well before the next tick.
        seconds = max(15.0, min(150.0, self.tick_seconds() * 300)) / 1000
        state = self.session.state

        def plan(control: SearchControl) -> dict[int, Direction]:
            control.seconds = seconds
            return {seat: self.table.plan(state, control, seat).actions[0] for seat in seats}

        self.run_in_worker("Hint", plan, lambda moves: self._hint_ready(state, moves), quiet=True)

    def _hint_ready(self, state: TronState, moves: dict[int, Direction]) -> None:
        if not self._hint_on or state is not self.session.state:
            return
        marks = {state.heads[seat].step(direction): HINT_MARK for seat, direction in moves.items()}
        words = ", ".join(f"{SEAT_NAMES[seat]} {direction.name}" for seat, direction in moves.items())
        self.hint = Hint(f"Hint: the hard bot would drive {words}.", marks)

    # --- drawing hooks ------------------------------------------------------------------------------------
    def make_board_view(self) -> BoardView:
        return TronBoardView(id="board")

    def grid_size(self) -> tuple[int, int]:
        board = self.session.engine.board  # type: ignore[attr-defined]
        return board.width, board.height

    def seat_label(self, seat: int) -> str:
        names = self.match.score.names
        return names[self.match.seating[seat]]

    def _keys_of(self, participant: int) -> str:
        humans = self._humans()
        if participant not in humans:
            return ""
        if len(humans) == 1:
            return " (arrows/WASD)"
        return " (arrows)" if participant == 0 else " (WASD)"

    def redraw(self) -> None:
        super().redraw()
        red, green = (self.match.seating[0], self.match.seating[1])
        names = self.match.score.names
        # The board's name cut short, so a long one never hides who plays.
        title = f"Tron — {clip(self.loaded.title, 32)}  ·  R {names[red]}  vs  G {names[green]}"
        if self.loaded.game_id and self.loaded.game_id != self.loaded.title:
            title += f"  ·  {clip(self.loaded.game_id, 32)}"
        self.query_one("#title", Plain).update(title)
        self.query_one("#legend", Plain).update(self.legend())

    def show_status(self) -> None:
        """The shell's status line without the game id (the title has it): one line at 80
        columns even with long player names."""
        self.query_one("#status", Plain).update(f"{self.status_text(self.shown)}  ·  speed {self.settings.speed}")
        self.query_one("#message", Plain).update(self.message)

    def score_text(self) -> str:
        """Wins per player and draws, short enough for the status line."""
        score = self.match.score
        text = " · ".join(f"{name} {score.wins(index)}" for index, name in enumerate(score.names))
        return text + (f" · {score.draws} drawn" if score.draws else "")

    def status_text(self, state: TronState) -> str:
        index = min(self.match.round_index + (0 if self.session.over else 1), self.rounds)
        parts = [f"round {max(1, index)}/{self.rounds}", f"tick {state.turn}", self.score_text()]
        # A finished match has no clock to pause; a countdown holds it without a pause, so
        # no PAUSED shows above "Get ready" (nor does it in Evasion).
        if self.paused and not self.match.finished and not self.counting_down:
            parts.append("PAUSED")
        return " · ".join(parts)

    def focus_of(self, state: TronState) -> Pos:
        """The cycle the view keeps on screen when the board is larger than it: a human's
        (the first one), else red's: on a large map (40x40) nobody crashes out of sight."""
        seat = next((seat for seat, agent in enumerate(self.session.agents) if agent.human), 0)
        return state.heads[seat]

    def legend(self) -> str:
        red, green = self.match.seating[0], self.match.seating[1]
        names = self.match.score.names
        marks = "░ red  ▒ green  █ wall  X crash" + ("  ◆ hint  │  space pause  . step  +/- speed" if self.steerable else "")
        return f"R red: {names[red]}{self._keys_of(red)}   G green: {names[green]}{self._keys_of(green)}\n{marks}"

