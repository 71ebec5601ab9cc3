"""What a game's screen shows around its table, as one composed part: the title, the board
view, the legend, the status line, the busy bar, the message line and the key bar; the
overlay of hint marks and marked cells; animation of steps; and the table's events drawn.

A puzzle screen and a match screen each own a shell. The shell asks its screen (the host)
for the game's words and hooks, and draws through the host's `say`, `show_status`,
`display_state` and `session_changed`, which a game may extend.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Generic, Protocol, TypeVar

from textual.app import ComposeResult

from tui_grid.core.geometry import Pos
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.table import Busy, BoardStarted, Changed, HintShown, Said, Table, TableEvent, TaskFailed, WatchStopped
from tui_grid.games.registry import GameDefinition
from tui_grid.ui import messages
from tui_grid.ui.animator import Animator, frames_of
from tui_grid.ui.board_view import BoardView, Overlay
from tui_grid.ui.busy_bar import BusyBar
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.keys import Key, Keymap
from tui_grid.ui.legend import Legend
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings

S = TypeVar("S")


def shell_css(screen: str) -> str:
    """The layout of a shell's widgets on the screen class called `screen`."""
    return f"""
    {screen} {{ layout: vertical; }}
    {screen} #title {{ height: 1; padding: 0 1; background: $primary-muted; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }}
    {screen} #status {{ height: auto; max-height: 3; padding: 0 1; background: $surface; }}
    {screen} #legend {{ height: auto; max-height: 2; padding: 0 1; color: $text-muted; text-align: center; }}
    {screen} #message {{ height: auto; min-height: 2; max-height: 4; padding: 0 1; color: $text-muted; }}
    """


class ShellHost(Protocol):
    """What a shell asks of its screen."""

    KEYMAP: ClassVar[Keymap]
    game: GameDefinition
    settings: Settings
    table: Any
    loaded: Any

    def query_one(self, selector: Any, expect_type: Any = ...) -> Any: ...
    def shows_key(self, key: Key) -> bool: ...
    def legend(self) -> str: ...
    def grid_size(self) -> tuple[int, int]: ...
    def status_text(self, state: Any) -> str: ...
    def focus_of(self, state: Any) -> Pos | None: ...
    def selection(self) -> Any: ...
    def next_steps(self) -> str: ...
    def step_keeps_message(self) -> bool: ...
    def game_over(self) -> None: ...
    def watch_stopped(self, reason: str) -> None: ...
    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None: ...
    def show_status(self) -> None: ...
    def display_state(self, state: Any) -> None: ...
    def session_changed(self, session: Session[Any, Any], change: Change[Any]) -> None: ...


class GameShell(Generic[S]):
    def __init__(self, host: ShellHost, view: BoardView, animation_seconds: Callable[[], float]) -> None:
        self.host = host
        self.view = view
        self.busy_bar = BusyBar()
        self.animator: Animator[S] = Animator(host, host.display_state, animation_seconds)  # type: ignore[arg-type]
        self.message = ""
        self.marked: frozenset[tuple[int, int]] = frozenset()
        self.end_message = ""  # said when the animation reaches the end (`say_after_animation`)
        self.shown: Any = None

    @property
    def table(self) -> Table[S]:
        return self.host.table

    def compose(self) -> ComposeResult:
        yield Plain(id="title")
        yield self.view
        yield Legend(self.host.legend(), id="legend")
        yield Plain(id="status")
        yield self.busy_bar
        yield Plain(id="message")
        yield KeyBar(self.host.KEYMAP, self.host.shows_key)

    def start(self, state: S) -> None:
        """The board view shows the table's game from `state`."""
        self.view.use(self.table.engine, self.host.loaded.board)
        self.shown = state
        self.view.state = state

    # --- what the board view is given -------------------------------------------------------
    def overlay(self) -> Overlay:
        """What the view draws over the state: the hint's marks, the game's selection, the
        cells the message is about."""
        hint = self.table.hint
        return Overlay(hint.marks if hint is not None else {}, self.host.selection(), self.marked)

    def push_overlay(self) -> None:
        self.view.show_overlay(self.overlay())

    def refresh_keys(self) -> None:
        """The key bar again: what it shows (the host's `shows_key`) has changed."""
        self.host.query_one(KeyBar).refresh(layout=True)

    def redraw(self) -> None:
        self.host.query_one("#title", Plain).update(messages.title(self.host.game, self.host.loaded))
        self.host.show_status()
        self.view.use(self.table.engine, self.host.loaded.board)
        self.view.show(self.shown, self.overlay(), self.host.focus_of(self.shown))

    def status_parts(self) -> list[str]:
        """The status line's parts: the game's words, the watch or a paused animation, the speed."""
        parts = [self.host.status_text(self.shown)]
        watcher = self.table.watcher
        if watcher is not None:
            parts.append("watching (paused)" if watcher.paused else "watching")
        elif self.animator.paused:
            parts.append("paused: space resumes")
        parts.append(f"speed {self.host.settings.speed}")
        return parts

    def put_status(self, status: str) -> None:
        self.host.query_one("#status", Plain).update(status)
        self.host.query_one("#message", Plain).update(self.message)

    def say(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        """Show a message; `cells` are the board cells it is about, marked until the next one."""
        self.message = message
        self.marked = frozenset(cells)
        self.host.show_status()
        self.push_overlay()

    def say_after_animation(self, message: str) -> None:
        """A verdict on what the board is still animating ("Optimal", "Complete") waits
        until the board shows it."""
        if self.animator.running:
            self.end_message = message
        else:
            self.host.say(message)

    # --- the table's news -------------------------------------------------------------------
    def table_event(self, event: TableEvent) -> None:
        """What the table did, on the UI thread."""
        if isinstance(event, Changed):
            self.host.session_changed(self.table.session, event.change)
        elif isinstance(event, Said):
            self.host.say(event.text, event.cells)
        elif isinstance(event, HintShown):
            self.push_overlay()
        elif isinstance(event, Busy):
            self.busy_bar.show(event.task)
        elif isinstance(event, TaskFailed):
            failure = event.failure
            tell(self.host, failure.text, title=f"{failure.what} failed", severity=failure.severity.value)  # type: ignore[arg-type]
        elif isinstance(event, WatchStopped):
            self.host.watch_stopped(event.reason)
        elif isinstance(event, BoardStarted):
            self.host.loaded = event.loaded

    def show_change(self, session: Session[S, Any], change: Change[S]) -> None:
        """A change drawn: a step animated (and the game's end said), a jump shown at once,
        anything else said with its cells marked."""
        # A driver's thread may be ahead of the message being handled: judge by its state.
        over = session.engine.outcome(change.state).over
        if change.kind is ChangeKind.STEP:
            if over or not self.host.step_keeps_message():
                self.message = self.host.next_steps() if over else ""
                self.marked = frozenset(cell for event in change.events for cell in event.cells)
            else:
                self.marked = frozenset()
            self.run_frames(frames_of(change.steps), change.state)
            if over:
                self.host.game_over()
        elif change.kind.jump:
            self.animator.drop()
            self.end_message = ""
            self.message = ""
            self.host.display_state(change.state)
        else:  # refused, forfeit, a message: words, cells marked
            self.host.say(change.message, tuple(cell for event in change.events for cell in event.cells))

    # --- animation --------------------------------------------------------------------------
    def run_frames(self, frames: list[S], final: S) -> None:
        """Animate `frames` up to `final` (or show `final` at once when animation is off)."""
        if not self.host.settings.animate or not frames:
            self.animator.drop()
            self.host.display_state(final)
            return
        self.animator.play(frames, final)

    def finish_animation(self) -> bool:
        """Show the end of a running animation now; whether one ran."""
        if self.animator.drop():
            self.host.display_state(self.table.state)
            return True
        return False

    def show_state(self, state: S) -> None:
        """Draw `state` (an animation's frame, or the game's state)."""
        if self.end_message and not self.animator.running and state is self.table.state:
            self.message, self.end_message = self.end_message, ""
        self.shown = state
        self.host.show_status()
        self.view.show(state, self.overlay(), self.host.focus_of(state))
