"""What every game's screen has, shared by the two sibling screens, PuzzleScreen and
MatchScreen (each a Textual Screen): a table (core.table) that owns the game, and a shell
(ui.game_shell) that shows it. Keys go to the table; its events, always on the UI thread,
go to the shell. A game's screen sets KEYMAP and VIEW and supplies the hooks at the
bottom; it may extend `session_changed`, `display_state`, `redraw` and `show_status`.

The table and the shell's widgets are made when the screen is composed, never in a
constructor: a game's screen sets its own fields in its constructor, after its sibling's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic

from textual.app import ComposeResult

from tui_grid.core.engine import Engine, Plan
from tui_grid.core.geometry import Pos
from tui_grid.core.session import Change, Session
from tui_grid.core.table import Hint, Table, TableEvent
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui import messages
from tui_grid.ui.animator import Animator
from tui_grid.ui.board_keys import BoardKeys, OwnerCall
from tui_grid.ui.board_view import BoardView, Overlay
from tui_grid.ui.busy_bar import BusyBar
from tui_grid.ui.game_shell import S, GameShell
from tui_grid.ui.keys import Key, Keymap, keymap
from tui_grid.ui.settings import Settings


class GameScreen(BoardKeys, Generic[S]):
    """The trait of a game's screen: its table and shell, the keys every game has (coords,
    zoom, help, still, back, quit), and the hooks a game supplies."""

    KEYMAP: ClassVar[Keymap] = keymap(())
    #: The game's board view.
    VIEW: ClassVar[Callable[[], BoardView]]
    table: Table[S]
    loaded: LoadedBoard
    shell: GameShell[S]
    game: GameDefinition
    settings: Settings

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.BINDINGS = cls.KEYMAP.bindings()  # before Textual merges the class's bindings
        super().__init_subclass__(**kwargs)

    def hold_game(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None) -> None:
        """The game this screen shows, and its shell (its widgets are composed later)."""
        self.game = game
        self.loaded = loaded
        self.settings = settings or Settings()
        view = self.VIEW()
        if view.id is None:
            view.id = "board"
        self.shell = GameShell(self, view, lambda: self.settings.frame_seconds)  # type: ignore[arg-type]

    def compose_shell(self) -> ComposeResult:
        """The shell's widgets around the table's game, shown from its state."""
        self.shell.start(self.session.state)
        yield from self.shell.compose()

    def on_mount(self) -> None:
        self.view.set_grid_size(*self.grid_size())
        self.redraw()

    # --- the shell's parts ---------------------------------------------------------------------
    @property
    def view(self) -> BoardView:
        return self.shell.view

    @property
    def busy_bar(self) -> BusyBar:
        return self.shell.busy_bar

    @property
    def animator(self) -> Animator[S]:
        return self.shell.animator

    @property
    def message(self) -> str:
        return self.shell.message

    @message.setter
    def message(self, text: str) -> None:
        self.shell.message = text

    @property
    def shown(self) -> Any:
        """The state on the board now (an animation's frame, or the game's state)."""
        return self.shell.shown

    @shown.setter
    def shown(self, state: Any) -> None:
        self.shell.shown = state

    @property
    def session(self) -> Session[S, Any]:
        return self.table.session

    @property
    def engine(self) -> Engine[S, Any]:
        return self.session.engine

    @property
    def board(self) -> Any:
        return self.loaded.board

    @property
    def state(self) -> S:
        return self.session.state

    @property
    def hint(self) -> Hint | None:
        return self.table.hint

    @hint.setter
    def hint(self, hint: Hint | None) -> None:
        self.table.hint = hint
        self.push_overlay()

    def overlay(self) -> Overlay:
        return self.shell.overlay()

    def push_overlay(self) -> None:
        self.shell.push_overlay()

    # --- keys -----------------------------------------------------------------------------------
    def shows_key(self, key: Key) -> bool:
        """Whether the key bar shows `key`: its common action is offered, and in a match
        someone at this board would press it."""
        if key.common and not self.offers(key.common):
            return False
        return key.seat is None or self.serves_seat(key.seat)

    def serves_seat(self, seat: int) -> bool:
        """Whether a human plays `seat` (or any seat, for ANY_HUMAN): a solo puzzle's always."""
        return True

    def offers(self, common: str) -> bool:
        """Whether a common action is available here, for the key bar, help and bindings."""
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "quitting", False):
            return False  # keys typed after q, still queued while the app closes
        for key in self.KEYMAP.keys:
            if key.common and key.action.split("(")[0] == action:
                return self.offers(key.common)
        return True

    # --- drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.shell.redraw()

    def show_status(self) -> None:
        self.shell.put_status("  ·  ".join(self.shell.status_parts()))

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Show a message; `cells` are the board cells it is about, marked until the next one."""
        self.shell.say(message, cells)

    def say_after_animation(self, message: str) -> None:
        self.shell.say_after_animation(message)

    def display_state(self, state: S) -> None:
        self.shell.show_state(state)

    def session_changed(self, session: Session[S, Any], change: Change[S]) -> None:
        self.shell.show_change(session, change)

    def run_frames(self, frames: list[S], final: S) -> None:
        self.shell.run_frames(frames, final)

    def finish_animation(self) -> bool:
        return self.shell.finish_animation()

    @property
    def animating(self) -> bool:
        return self.animator.running

    @property
    def animation_paused(self) -> bool:
        return self.animator.paused

    # --- the table's news: the one adapter from its threads to Textual's ---------------------------
    def to_owner(self, call: Callable[[], None]) -> None:
        """The table's hand-over to the UI thread (from a driver's or a worker's)."""
        self.post_message(OwnerCall(call))  # type: ignore[attr-defined]

    def on_owner_call(self, message: OwnerCall) -> None:
        message.call()  # the table's news, on the UI thread

    def on_ui_thread(self) -> bool:
        """Whether news arrives on the UI thread (a key), not a driver's or server's thread."""
        return self.table.on_owner_thread()

    def table_event(self, event: TableEvent) -> None:
        """What the table did, on the UI thread."""
        self.shell.table_event(event)

    def interrupt(self) -> None:
        """The player acts: the watch, a search and an animation stop."""
        self.table.interrupt()
        self.finish_animation()

    # --- tasks -----------------------------------------------------------------------------------
    def run_in_worker(self, what: str, task: Callable[[Any], Any], done: Callable[[Any], None], *, quiet: bool = False) -> None:
        """Run `task(control)` on the table's pool; `done` gets its result on the UI thread
        unless cancelled. A `quiet` task (a live hint every tick) shows no busy bar and is
        not what esc cancels."""
        self.table.run(what, task, done, quiet=quiet)

    @property
    def solving(self) -> bool:
        return self.table.busy is not None

    @property
    def quiet_task_running(self) -> bool:
        return self.table.tasks.quiet is not None

    def cancel_solver(self) -> bool:
        return self.table.cancel()

    # --- leaving ---------------------------------------------------------------------------------
    def leave_board(self) -> None:
        """esc: cancel what runs, else stop the watch or the animation, else keep the game and
        go back to the boards."""
        if self.cancel_solver():
            self.table.stop_watching()
            self.say("Cancelled.")
            return
        if self.table.stop_watching():
            self.say("Stopped watching.")
            return
        if self.finish_animation():
            self.say("Animation skipped to its end.")
            return
        if not self.autosave():
            return  # told: a second esc leaves without the save
        self.app.back_to_boards(self.game)

    def action_back(self) -> None:
        self.leave_board()

    def on_unmount(self) -> None:
        self.table.close()

    def autosave(self) -> bool:
        """Keep the game in progress before leaving; whether the player may leave. A match
        is not kept: there is nothing to resume into."""
        return True

    #: A demo's scene: nobody's game (no autosave), and the keys are the demo's.
    in_demo = False

    # --- the hooks a game supplies -----------------------------------------------------------------
    def grid_size(self) -> tuple[int, int]:
        return self.board.width, self.board.height

    def status_text(self, state: S) -> str:
        raise NotImplementedError

    def focus_of(self, state: S) -> Pos | None:
        return None

    def selection(self) -> Any:
        """A game's selection drawn on the board (Evasion's selected wall); none by default."""
        return None

    def restart_key(self) -> str:
        """The key this game restarts with, as the key bar shows it."""
        return next((key.bar_key for key in self.KEYMAP.keys if key.common == "restart"), "r")

    def step_keeps_message(self) -> bool:
        """Whether a step that does not end the game leaves the message up (most games
        clear it: the message was about the move before)."""
        return False

    def next_steps(self) -> str:
        """What the player can do after the game ended, in this game's keys (in a demo's
        scene, the demo's: its n is the next scene, not a new board)."""
        if self.in_demo:
            return "n shows the next scene · enter plays from here"
        return messages.next_steps(self.session, self.restart_key())

    def legend(self) -> str:
        """A line under the board naming the glyphs."""
        return ""

    def watch_stopped(self, reason: str) -> None:
        """A watch ended by itself (puzzles watch a solver; a match has no watch)."""

    def game_over(self) -> None:
        """Called once a step ends the game; a game may add a verdict (was it optimal?)."""

    def hint_from_plan(self, state: S, plan: Plan[Any]) -> Hint:
        """Runs in a worker thread: what the hint key shows, from the solver's plan."""
        return Hint(plan.message)
