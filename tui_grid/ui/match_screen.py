"""The shared view of a real-time game between seats: a Match of rounds, a tick clock with
pause, single step and speed, agents asked in a worker every tick, and humans' keys latched
for their seat. Tron and Evasion subclass it and add their drawing and keys.

Keys belong to participants, not seats: seats swap between rounds, and the player on the
arrow keys keeps them when his cycle changes colour.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Sequence

from textual import work

from tui_grid.core.agents import Agent
from tui_grid.core.engine import Engine
from tui_grid.core.match import Match
from tui_grid.core.session import Session
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.game_screen import GameScreen, S
from tui_grid.ui.keys import MATCH_COMMON, Key, Keymap, keymap
from tui_grid.ui.settings import Settings

#: Multiplies the game's tick length at each speed (5 is the game's own pace).
TICK_FACTOR = {1: 3.0, 2: 2.2, 3: 1.6, 4: 1.25, 5: 1.0, 6: 0.75, 7: 0.5, 8: 0.3, 9: 0.12}



#: The common keys' help, as it reads in a real-time match.
MATCH_HELP = {
    "hint": "hint: mark where the strongest bot would go for your seat",
    "faster": "faster clock",
    "slower": "slower clock",
    "quit": "quit (a match is not saved)",
    "back": "back to the boards",
}


def match_keymap(own: tuple[Key, ...], help: dict[str, str] | None = None) -> Keymap:
    """A match's keymap; `help` overrides the common keys' help for this game."""
    texts = {**MATCH_HELP, **(help or {})}
    base = keymap(own, MATCH_COMMON)
    return Keymap(tuple(replace(key, help=texts.get(key.common, key.help)) for key in base.keys))


class MatchScreen(GameScreen[S]):
    """`players` names what fills each participant (see GameDefinition.players)."""

    KEYMAP: ClassVar[Keymap] = match_keymap(())

    def __init__(
        self,
        game: GameDefinition,
        loaded: LoadedBoard,
        settings: Settings | None = None,
        players: Sequence[str] | None = None,
        rounds: int = 1,
    ) -> None:
        self.players = tuple(players or self.default_players(game))
        self.rounds = rounds
        self._paused = False
        self._asking = False
        super().__init__(game, loaded, settings)

    def default_players(self, game: GameDefinition) -> tuple[str, ...]:
        return ("human",) * 2

    def _start(self, loaded: LoadedBoard) -> None:
        self.loaded = loaded
        game = self.game
        participants: list[Agent[Any, Any]] = [game.make_agent(player, index) for index, player in enumerate(self.players)]
        self.match: Match[S, Any] = Match(lambda index: self.round_engine(index), participants, self.rounds, names=self.participant_names())
        self._new_round()

    def round_engine(self, index: int) -> Engine[S, Any]:
        return self.game.make_engine(self.loaded)

    def participant_names(self) -> list[str]:
        return [f"{player} ({i + 1})" for i, player in enumerate(self.players)]

    def _new_round(self) -> None:
        self.session: Session[S, Any] = self.match.new_session()
        self.session.subscribe(self._on_change)
        self.shown = self.session.state

    def on_mount(self) -> None:
        # Textual runs GameScreen.on_mount too (handlers run along the class hierarchy),
        # so this only adds the clock, once.
        if getattr(self, "_tick_timer", None) is None:
            self._tick_timer = self.set_interval(self.tick_seconds(), self._tick)

    def tick_seconds(self) -> float:
        return (self.session.engine.tick_seconds or 0.25) * TICK_FACTOR[self.settings.speed]

    def offers(self, common: str) -> bool:
        if common in ("undo", "redo", "restart", "solve", "watch", "new", "save"):
            return False
        if common == "hint":
            return any(agent.human for agent in self.session.agents)
        return True

    # --- the clock -------------------------------------------------------------------------------
    def _tick(self, force: bool = False) -> None:
        session = self.session
        if session.over or self._asking or (self._paused and not force):
            return
        if any(not session.agents[s].human for s in session.engine.acting_seats(session.state)):
            self._asking = True
            self._ask_agents(session)
        else:
            session.tick()
            self._after_tick()

    @work(thread=True, exclusive=True, group="agents", exit_on_error=False)
    def _ask_agents(self, session: Session[S, Any]) -> None:
        answers, failures = session.ask_agents(self.agent_timeout())
        self.app.call_from_thread(self._agents_answered, session, answers, failures)

    def agent_timeout(self) -> float:
        return max(0.05, self.tick_seconds())

    def _agents_answered(self, session: Session[S, Any], answers: dict[int, Any], failures: list[Any]) -> None:
        self._asking = False
        if session is not self.session or session.over:
            return
        if not session.report_failures(failures):
            session.tick(answers)
        self._after_tick()

    def _after_tick(self) -> None:
        if self.session.over:
            result = self.match.finish_round()
            score = self.match.score.summary()
            if self.match.finished:
                self.say(f"{self.session.outcome.reason}. Match over: {score}.")
            else:
                self.say(f"{self.session.outcome.reason}. Score: {score}. enter plays round {result.index + 2} (seats swap).")

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

    def action_help(self) -> None:
        """Help stops the clock while it is open, so nobody crashes while reading."""
        from tui_grid.ui.help_screen import HelpScreen

        was_running = not self._paused
        if was_running:
            self.action_pause()

        def closed(_: object) -> None:
            if was_running and self._paused:
                self.action_pause()

        self.app.push_screen(HelpScreen(self.game, self.KEYMAP, self.offers), closed)

    def action_pause(self) -> None:
        self._paused = not self._paused
        self.say("Paused: . plays one tick, space resumes." if self._paused else "")

    def action_step(self) -> None:
        if not self._paused:
            self._paused = True
        self._tick(force=True)

    def action_next_round(self) -> None:
        if not self.session.over:
            self.say("The round is still on.")
            return
        if self.match.finished:
            self.say(f"The match is over: {self.match.score.summary()}. esc goes back.")
            return
        self.session.close()
        self._new_round()
        self.message = ""
        self.view.set_grid_size(*self.grid_size())
        self._refresh_all()

    def action_speed(self, change: int) -> None:
        self.settings = self.settings.faster() if change > 0 else self.settings.slower()
        self.app.settings = self.settings
        self._tick_timer.stop()
        self._tick_timer = self.set_interval(self.tick_seconds(), self._tick)
        self._show_status()

    def autosave(self) -> None:
        """A real-time match is not saved: there is nothing to resume into."""

    def on_unmount(self) -> None:
        self.match.close()  # GameScreen.on_unmount runs as well, along the class hierarchy
