"""The screen of a puzzle (Jimmy, Bunny, Ice): one player, undo, hints, the solver
playing or watched, boards saved, generated and kept. The table (core.table) plays one
session at a time; a new board starts another at the same table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.screen import Screen

from tui_grid.core import saves
from tui_grid.core.agents import Agent, HumanAgent
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.session import Session
from tui_grid.core.table import Hint, Table
from tui_grid.games.registry import BoardFiles, GameDefinition, Generated, LoadedBoard, Plannable, Solvable
from tui_grid.ui import messages
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.bests import SolveKeeper, with_note
from tui_grid.ui.game_shell import S, shell_css
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings


class PuzzleScreen(GameScreen[S], Screen[None]):
    DEFAULT_CSS = shell_css("PuzzleScreen")
    #: The state a finished watch left, while its last moves still animate.
    _watched_until: Any = None
    #: What a solve's value counts ("slide": "7 slides"); None: the game keeps no bests.
    BEST_UNIT: ClassVar[str | None] = None
    #: Lines the message area holds (shell_css: #message max-height).
    MESSAGE_LINES = 4

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None = None) -> None:
        super().__init__()
        self.hold_game(game, loaded, settings)
        self.bests = SolveKeeper(self, self.BEST_UNIT)

    def compose(self) -> ComposeResult:
        """The table, at its first board, then the shell's widgets."""
        loaded = self.loaded
        self.table: Table[S] = Table(self.new_session(loaded), loaded, to_owner=self.to_owner, on_event=self.table_event,
                                     planner=self.game.plan if isinstance(self.game, Plannable) else None,
                                     saver=self.saver(), max_cells=self.app.policy.max_cells)
        self.game_started()
        yield from self.compose_shell()

    def game_started(self) -> None:
        """A game (the first, or a new board's) is at the table: a game may set up its own."""
        self.shown = self.session.state
        self.bests.follow(self.session, self.loaded)

    # --- bests (ui.bests): a game that keeps them sets BEST_UNIT and these two -----------------
    def solve_value(self, engine: Engine[S, Any], state: S) -> int | None:
        """The player's value (lower is better) when a step of `engine` reaching `state`
        solved the board, else None. Runs on the thread that stepped: reads only these."""
        return None

    def optimum(self, board: Any, value: int, control: SearchControl) -> int | None:
        """The fewest possible on `board`, when the game can prove it; off the UI thread,
        so it reads only its arguments. `value` is the solve just made."""
        return None

    def show_status(self) -> None:
        """The status and message, with what the solve on the board did to the player's best
        on a line below the message (when it fits), once the board shows that solve."""
        super().show_status()
        note = self.bests.note_for(self.state)
        if note and self.shown is self.state and not self.animating:
            message = self.query_one("#message", Plain)
            width = message.content_size.width or self.size.width - 2
            message.update(with_note(self.message, note, width, self.MESSAGE_LINES))

    def on_unmount(self) -> None:
        # GameScreen.on_unmount runs too (handlers run along the class hierarchy). A solve
        # still being written is kept; only when the app quits does its search for the
        # optimum stop, so that quitting never waits for it.
        self.bests.stop_following()
        if getattr(self.app, "quitting", False):
            self.bests.close()

    def offers(self, common: str) -> bool:
        if common in ("undo", "redo", "restart"):
            return self.session.undo_allowed
        if common == "hint":
            return isinstance(self.game, Plannable)
        if common in ("solve", "watch", "pause"):
            return isinstance(self.game, Solvable)
        if common == "new":
            return isinstance(self.game, Generated)
        if common == "save":
            return isinstance(self.game, BoardFiles) and self.app.policy.file_paths
        return True

    def new_session(self, loaded: LoadedBoard) -> Session[S, Any]:
        engine, steps = self.game.start(loaded)
        return Session(engine, self.make_agents(engine), log=steps)

    def saver(self) -> Callable[[Any, Session[Any, Any]], None] | None:
        """How the table keeps a game in progress: a board file's game, in the data folder."""
        if not isinstance(self.game, BoardFiles):
            return None
        return self.keep_in_data_folder

    def keep_in_data_folder(self, loaded: Any, session: Session[Any, Any]) -> None:
        if not self.in_demo:  # a demo's scene is nobody's game
            saves.autosave(self.game, loaded, session, self.app.policy)

    def make_agents(self, engine: Engine[S, Any]) -> list[Agent[S, Any]]:
        return [HumanAgent("you") for _ in engine.seats]

    def action_undo(self) -> None:
        self.finish_animation()
        self.table.undo()

    def action_redo(self) -> None:
        self.finish_animation()
        self.table.redo()

    def action_restart(self) -> None:
        self.finish_animation()
        self.table.restart()

    def action_skip(self) -> None:
        """. skips an animation; in a paused watch it plays one move, as . steps a paused
        match."""
        if self.finish_animation():
            return
        watcher = self.table.watcher
        if watcher is not None and watcher.paused:
            watcher.single_step()  # the move it plays is what the player sees
            return
        self.say("No animation to skip.")

    def find_plan(self, state: S, control: Any, seat: int | None = None) -> Plan[Any]:
        """Runs in a worker: the game's plan for a seat from `state`; hint, solve and watch
        all come here (`GameDefinition.plan`)."""
        return self.table.plan(state, control, seat)

    def refuse_when_over(self) -> bool:
        """Say so and refuse when the game is over (a hint or solve has nothing to do)."""
        if self.session.over and not self.engine.plays_on_after_end:
            self.say(messages.game_over(self.game, self.session, self.restart_key()))
            return True
        return False

    def action_hint(self) -> None:
        self.interrupt()
        if self.refuse_when_over():
            return
        self.table.hint_for(self.hint_from_plan)

    def show_hint(self, state: S, hint: Hint) -> None:
        """Show `hint`, found for `state`, unless the game has moved on."""
        self.table.show_hint(state, hint)

    def action_solve(self) -> None:
        self.interrupt()
        if self.refuse_when_over():
            return
        self.table.solve(lambda plan: f"{plan.message or 'The solver has no move from here.'} {self.next_steps()}.")

    def action_watch(self) -> None:
        """Watch: the solver takes the player's seat and the driver plays it, one move (one
        undo step) per beat; any key of the player's takes the seat back."""
        if self.table.watcher is not None or (self.animating and self._watched_until is self.state):
            # The watch may have ended (Bunny's solver plays one run) while its run still
            # animates: to the player it is still the watch, so w stops it too.
            self.stop_watching()
            self.finish_animation()
            self.say("Stopped watching.")
            return
        self.table.cancel()
        self.finish_animation()
        if self.refuse_when_over():
            return
        self.table.watch(self.settings.watch_seconds, ready=lambda: not self.animator.running)
        self.show_status()

    def action_pause(self) -> None:
        """Pause or resume what moves on its own: a watch, else a running animation."""
        watcher = self.table.watcher
        if watcher is not None:
            watcher.pause()
        elif not self.animator.toggle_pause():
            self.say("Nothing to pause: press w to watch the solver play.")
            return
        self.show_status()

    def action_speed(self, change: int) -> None:
        if limit := self.settings.at_limit(change):
            self.say(limit)
            return
        self.settings = self.settings.faster() if change > 0 else self.settings.slower()
        self.app.settings = self.settings
        watcher = self.table.watcher
        if watcher is not None:
            watcher.step_seconds = self.settings.watch_seconds
        self.animator.retime()
        self.show_status()

    def action_save(self) -> None:
        from tui_grid.ui.save_dialog import SaveDialog

        self.interrupt()
        self.app.push_screen(SaveDialog(self.game, self.loaded, self.session))

    def action_new(self) -> None:
        from tui_grid.ui.new_board import NewBoardDialog

        self.interrupt()
        self.app.push_screen(NewBoardDialog(self.game), self._new_board_chosen)

    def _new_board_chosen(self, game_id: str | None) -> None:
        if not game_id:
            return
        game = self.game
        assert isinstance(game, Generated)
        self.run_in_worker("Generating", lambda control: game.load_id(game_id, control), self.load_board)

    def load_board(self, loaded: LoadedBoard) -> None:
        """Start over on another board; the old game is kept if it was in progress."""
        self.interrupt()
        if not self.autosave():
            return
        self.table.start_board(loaded, self.new_session(loaded))  # BoardStarted sets self.loaded
        self.message = ""
        self.game_started()
        self.view.set_grid_size(*self.grid_size())
        self.redraw()

    def action_act(self, text: str, seat: int = 0) -> None:
        """A human seat's action, in the game's action encoding."""
        self.interrupt()
        if self.session.over:
            self.say(messages.game_over(self.game, self.session, self.restart_key()))
            return
        with self.bests.own():
            reason = self.table.submit(seat, self.engine.decode_action(text))
        if reason and reason != self.message:  # a refusal the session reported is already shown, with its cell
            self.say(reason)

    def autosave(self) -> bool:
        """Keep a game in progress in the user's data folder (a finished or untouched one
        leaves no save behind); whether the player may leave. When the folder cannot be
        written (read-only, full) the game stays here, in memory, the player is told once
        for these moves, and ctrl+s is offered to save it elsewhere."""
        error = self.table.keep()
        if error is None:
            return True
        elsewhere = "ctrl+s saves it elsewhere; " if self.offers("save") else ""
        text = (f"Cannot keep this game in {self.app.policy.folder_name(saves.data_dir())}: {error.strerror or error}. It is still here: "
                f"{elsewhere}esc or q again leaves without it.")
        self.say(text)
        tell(self, text, title="Not saved", severity="warning", timeout=10)
        return False

    def stop_watching(self) -> None:
        self.table.stop_watching()

    @property
    def watching(self) -> bool:
        return self.table.watcher is not None

    @property
    def driving(self) -> bool:
        """A driver is playing a step right now (tests wait for it to settle)."""
        watcher = self.table.watcher
        return watcher is not None and watcher.busy

    def watch_stopped(self, reason: str) -> None:
        self._watched_until = self.state  # what still animates is the watch's (see action_watch)
        if reason:
            self.say(f"{reason} {self.next_steps()}.")
        self.show_status()
