"""The screen every game shares: its widgets around a Table (core.table), which owns the
game. Keys go to the table; its events, always on the UI thread, are drawn. A game's
screen sets KEYMAP and supplies the hooks at the bottom; it may extend `start_game`,
`session_changed`, `display_state`, `redraw` and `show_status`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from textual.app import ComposeResult
from textual.screen import Screen

from tui_grid.core.engine import Engine, Plan
from tui_grid.core.geometry import Pos
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.table import Busy, BoardStarted, Changed, Hint, HintShown, Said, Table, TableEvent, TaskFailed, WatchStopped
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui import messages
from tui_grid.ui.animator import Animator, frames_of
from tui_grid.ui.board_keys import BoardKeys, OwnerCall
from tui_grid.ui.board_view import BoardView, Overlay
from tui_grid.ui.busy_bar import BusyBar
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.keys import Key, Keymap, keymap
from tui_grid.ui.legend import Legend
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings

S = TypeVar("S")


class GameScreen(BoardKeys, Screen, Generic[S]):
    """What a puzzle's screen and a match's share: the widgets, the table's news, the
    board's overlay, animation, and the keys every game has (coords, zoom, help, still,
    back, quit)."""

    KEYMAP: ClassVar[Keymap] = keymap(())
    table: Table[S]
    loaded: LoadedBoard
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #title { height: 1; padding: 0 1; background: $primary-muted; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }
    GameScreen #status { height: auto; max-height: 3; padding: 0 1; background: $surface; }
    GameScreen #legend { height: auto; max-height: 2; padding: 0 1; color: $text-muted; text-align: center; }
    GameScreen #message { height: auto; min-height: 2; max-height: 4; padding: 0 1; color: $text-muted; }
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.BINDINGS = cls.KEYMAP.bindings()  # before Textual merges the class's bindings
        super().__init_subclass__(**kwargs)

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None = None) -> None:
        super().__init__()
        self.game = game
        self.settings = settings or Settings()
        self._marked: frozenset[tuple[int, int]] = frozenset()
        self.message = ""
        self._end_message = ""  # said when the animation reaches the end (`say_after_animation`)
        self.animator: Animator[S] = Animator(self, self.display_state, lambda: self.settings.frame_seconds)
        self.busy_bar = BusyBar()
        self.view = self.make_board_view()
        self.start_game(loaded)
        self.view.use(self.engine, self.board)
        self.view.state = self.shown

    def start_game(self, loaded: LoadedBoard) -> None:
        """Set `loaded` and `table` up: a puzzle's table plays one session, a match's
        follows its feed from round to round."""
        raise NotImplementedError

    # --- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Plain(id="title")
        yield self.view
        yield Legend(self.legend(), id="legend")
        yield Plain(id="status")
        yield self.busy_bar
        yield Plain(id="message")
        yield KeyBar(self.KEYMAP, self.shows_key)

    def on_mount(self) -> None:
        self.view.set_grid_size(*self.grid_size())
        self.redraw()

    @property
    def session(self) -> Session[S, Any]:
        return self.table.session

    @property
    def engine(self) -> Engine[S, Any]:
        return self.session.engine

    # --- what the board view is given -----------------------------------------------------
    @property
    def hint(self) -> Hint | None:
        return self.table.hint

    @hint.setter
    def hint(self, hint: Hint | None) -> None:
        self.table.hint = hint
        self.push_overlay()

    def overlay(self) -> Overlay:
        """What the view draws over the state: the hint's marks, the game's selection, the
        cells the message is about."""
        hint = self.table.hint
        return Overlay(hint.marks if hint is not None else {}, self.selection(), self._marked)

    def selection(self) -> Any:
        """A game's selection drawn on the board (Evasion's selected wall); none by default."""
        return None

    def push_overlay(self) -> None:
        self.view.show_overlay(self.overlay())

    @property
    def board(self) -> Any:
        return self.loaded.board

    @property
    def state(self) -> S:
        return self.session.state

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

    def redraw(self) -> None:
        self.query_one("#title", Plain).update(messages.title(self.game, self.loaded))
        self.show_status()
        self.view.use(self.engine, self.board)
        self.view.show(self.shown, self.overlay(), self.focus_of(self.shown))

    def show_status(self) -> None:
        parts = [self.status_text(self.shown)]
        watcher = self.table.watcher
        if watcher is not None:
            parts.append("watching (paused)" if watcher.paused else "watching")
        elif self.animation_paused:
            parts.append("paused: space resumes")
        parts.append(f"speed {self.settings.speed}")
        self.query_one("#status", Plain).update("  ·  ".join(parts))
        self.query_one("#message", Plain).update(self.message)

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Show a message; `cells` are the board cells it is about, marked until the next one."""
        self.message = message
        self._marked = frozenset(cells)
        self.show_status()
        self.push_overlay()

    def say_after_animation(self, message: str) -> None:
        """A verdict on what the board is still animating ("Optimal", "Complete") waits
        until the board shows it."""
        if self.animating:
            self._end_message = message
        else:
            self.say(message)

    # --- the table's news ----------------------------------------------------------------------
    def to_owner(self, call: Callable[[], None]) -> None:
        """The table's hand-over to the UI thread (from a driver's or a worker's)."""
        self.post_message(OwnerCall(call))

    def on_owner_call(self, message: OwnerCall) -> None:
        message.call()  # the table's news, on the UI thread

    def on_ui_thread(self) -> bool:
        """Whether news arrives on the UI thread (a key), not a driver's or server's thread."""
        return self.table.on_owner_thread()

    def observe(self, session: Session[S, Any], change: Change[S]) -> None:
        """A session observer on any thread (a match's feed): the table brings it here."""
        self.table.observe(session, change)

    def table_event(self, event: TableEvent) -> None:
        """What the table did, on the UI thread."""
        if isinstance(event, Changed):
            self.session_changed(self.session, event.change)
        elif isinstance(event, Said):
            self.say(event.text, event.cells)
        elif isinstance(event, HintShown):
            self.push_overlay()
        elif isinstance(event, Busy):
            self.busy_bar.show(event.task)
        elif isinstance(event, TaskFailed):
            failure = event.failure
            tell(self, failure.text, title=f"{failure.what} failed", severity=failure.severity.value)
        elif isinstance(event, WatchStopped):
            self.watch_stopped(event.reason)
        elif isinstance(event, BoardStarted):
            self.loaded = event.loaded

    def session_changed(self, session: Session[S, Any], change: Change[S]) -> None:
        # A driver's thread may be ahead of the message being handled: judge by its state.
        over = session.engine.outcome(change.state).over
        if change.kind is ChangeKind.STEP:
            self.message = self.next_steps() if over else ""
            self._marked = frozenset(cell for event in change.events for cell in event.cells)
            self.run_frames(frames_of(change.steps), change.state)
            if over:
                self.game_over()
        elif change.kind.jump:
            self.animator.drop()
            self._end_message = ""
            self.message = ""
            self.display_state(change.state)
        else:  # refused, forfeit, a message: words, cells marked
            self.say(change.message, tuple(cell for event in change.events for cell in event.cells))

    def run_frames(self, frames: list[S], final: S) -> None:
        """Animate `frames` up to `final` (or show `final` at once when animation is off)."""
        if not self.settings.animate or not frames:
            self.animator.drop()
            self.display_state(final)
            return
        self.animator.play(frames, final)

    def finish_animation(self) -> bool:
        """Show the end of a running animation now; whether one ran."""
        if self.animator.drop():
            self.display_state(self.state)
            return True
        return False

    @property
    def animating(self) -> bool:
        return self.animator.running

    @property
    def animation_paused(self) -> bool:
        return self.animator.paused

    def display_state(self, state: S) -> None:
        if self._end_message and not self.animator.running and state is self.state:
            self.message, self._end_message = self._end_message, ""
        self.shown = state
        self.show_status()
        self.view.show(state, self.overlay(), self.focus_of(state))

    def interrupt(self) -> None:
        """The player acts: the watch, a search and an animation stop."""
        self.table.interrupt()
        self.finish_animation()

    # --- tasks ----------------------------------------------------------------------------------
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

    # --- hint, solve, watch --------------------------------------------------------------------
    # --- other keys -----------------------------------------------------------------------
    def action_back(self) -> None:
        if self.cancel_solver():
            self.stop_watching()
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

    def on_unmount(self) -> None:
        self.table.close()

    # --- saving -----------------------------------------------------------------------------
    def autosave(self) -> bool:
        """Keep the game in progress before leaving; whether the player may leave. A match
        is not kept: there is nothing to resume into."""
        return True

    #: A demo's scene: nobody's game (no autosave), and the keys are the demo's.
    in_demo = False

    # --- the hooks a game supplies ---------------------------------------------------------------
    def make_board_view(self) -> BoardView:
        raise NotImplementedError

    def grid_size(self) -> tuple[int, int]:
        return self.board.width, self.board.height

    def status_text(self, state: S) -> str:
        raise NotImplementedError

    def focus_of(self, state: S) -> Pos | None:
        return None

    def restart_key(self) -> str:
        """The key this game restarts with, as the key bar shows it."""
        return next((key.bar_key for key in self.KEYMAP.keys if key.common == "restart"), "r")

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
