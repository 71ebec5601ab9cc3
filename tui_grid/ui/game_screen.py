"""The shell every game shares: keys, undo history, animation, solver workers and watching.

A game's screen subclasses GameScreen and supplies the rules hooks at the bottom. The
base class owns all timing, so every game animates, watches and cancels the same way.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ProgressBar, Static

from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.history import History
from tui_grid.games.registry import GameDefinition, LoadedBoard
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.keys import GAME_BINDINGS
from tui_grid.ui.settings import Settings, thin_frames

S = TypeVar("S")
AFTER_GAME = "u undoes · r restarts · n makes a new board"


@dataclass(frozen=True)
class Played(Generic[S]):
    """A legal move: the state after it and the states to show on the way there."""

    state: S
    frames: tuple[S, ...] = ()


@dataclass(frozen=True)
class Plan:
    """The solver's moves from a state, and what to tell the player about them."""

    moves: tuple[Direction, ...]
    message: str = ""


@dataclass(frozen=True)
class Hint:
    """What to say and which cells to mark; `kind` picks the mark's look."""

    message: str
    marks: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # cell -> (glyph, kind)


class GameScreen(Screen, Generic[S]):
    BINDINGS = GAME_BINDINGS
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #title { height: 1; padding: 0 1; background: $primary-muted; text-style: bold; }
    GameScreen #status { height: 1; padding: 0 1; background: $surface; }
    GameScreen #legend { height: 1; padding: 0 1; color: $text-muted; text-align: center; }
    GameScreen #message { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    GameScreen #busy { height: 1; display: none; padding: 0 1; }
    GameScreen #busy.-active { display: block; }
    GameScreen #busy ProgressBar { width: 24; }
    GameScreen #busy-label { width: 1fr; }
    """

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None = None) -> None:
        super().__init__()
        self.game = game
        self.loaded = loaded
        self.settings = settings or Settings()
        self.history: History[S] = History(self.initial_state(loaded.board))
        self.shown: S = self.history.present
        self.hint: Hint | None = None
        self.message = ""
        self._frames: deque[S] = deque()
        self._frame_timer: Timer | None = None
        self._watch_timer: Timer | None = None
        self._watch_plan: deque[Direction] = deque()
        self._watch_paused = False
        self._cancel: threading.Event | None = None
        self._busy_what = ""
        self.view = self.make_board_view()

    # --- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield self.view
        yield Static(self.legend(), id="legend")
        yield Static(id="status")
        with Horizontal(id="busy"):
            yield ProgressBar(total=None, show_eta=False, show_percentage=False)
            yield Static(id="busy-label")
        yield Static(id="message")
        yield KeyBar(GAME_BINDINGS)

    def on_mount(self) -> None:
        self.view.set_grid_size(*self.grid_size())
        self._refresh_all()

    @property
    def board(self) -> Any:
        return self.loaded.board

    @property
    def state(self) -> S:
        return self.history.present

    def _refresh_all(self) -> None:
        title = f"{self.game.title} — {self.loaded.title}"
        if self.loaded.game_id and self.loaded.game_id != self.loaded.title:
            title += f"  [{self.loaded.game_id}]"
        self.query_one("#title", Static).update(title)
        self._show_status()
        self.view.show(self.focus_of(self.shown))

    def _show_status(self) -> None:
        parts = [self.status_text(self.shown)]
        if self.loaded.game_id:
            parts.append(self.loaded.game_id)
        if self._watch_timer is not None:
            parts.append("watching (paused)" if self._watch_paused else "watching")
        parts.append(f"speed {self.settings.speed}")
        self.query_one("#status", Static).update("  ·  ".join(parts))
        self.query_one("#message", Static).update(self.message)

    def say(self, message: str) -> None:
        self.message = message
        self._show_status()

    # --- moves, history, animation ---------------------------------------------------------
    def action_move(self, letter: str) -> None:
        self._stop_watching()
        self.cancel_solver()
        self._finish_animation()
        if self.is_over(self.state):
            self.say(self.over_message(self.state) + " — r restarts, u undoes, n for a new board.")
            return
        self.try_move(Direction.from_letter(letter))

    def try_move(self, direction: Direction) -> bool:
        result = self.play(self.state, direction)
        if isinstance(result, str):
            self.say(result)
            return False
        self.hint = None
        self.history.push(result.state)
        self.message = AFTER_GAME if self.is_over(result.state) else ""
        self._run_frames(list(thin_frames(list(result.frames))), result.state)
        return True

    def _run_frames(self, frames: list[S], final: S) -> None:
        if not self.settings.animate or not frames:
            self._frames.clear()
            self._display(final)
            return
        self._frames.extend(frames)
        if self._frames[-1] != final:
            self._frames.append(final)
        if self._frame_timer is None:
            self._frame_timer = self.set_interval(self.settings.frame_seconds, self._next_frame)
        self._next_frame()

    def _next_frame(self) -> None:
        if not self._frames:
            if self._frame_timer is not None:
                self._frame_timer.stop()
                self._frame_timer = None
            return
        self._display(self._frames.popleft())

    def _finish_animation(self) -> None:
        if self._frames:
            self._frames.clear()
            self._display(self.state)

    @property
    def animating(self) -> bool:
        return bool(self._frames)

    def _display(self, state: S) -> None:
        self.shown = state
        self._show_status()
        self.view.show(self.focus_of(state))

    def _jump_to(self, state: S | None, message: str) -> None:
        if state is None:
            self.say(message)
            return
        self._frames.clear()
        self.hint = None
        self.message = ""
        self._display(state)

    def action_undo(self) -> None:
        self._interrupt()
        self._jump_to(self.history.undo(), "Nothing to undo.")

    def action_redo(self) -> None:
        self._interrupt()
        self._jump_to(self.history.redo(), "Nothing to redo.")

    def action_restart(self) -> None:
        self._interrupt()
        self._jump_to(self.history.restart(), "")

    def _interrupt(self) -> None:
        self._stop_watching()
        self.cancel_solver()
        self._finish_animation()

    # --- solver workers ------------------------------------------------------------------
    def run_in_worker(self, what: str, task: Callable[[SearchControl], Any], done: Callable[[Any], None]) -> None:
        """Run `task` in a thread; `done` gets its result on the UI thread unless cancelled."""
        self.cancel_solver()
        cancel = threading.Event()
        self._cancel = cancel
        self._busy_what = what
        self._set_busy(True, f"{what}…  esc cancels")
        self._solver_worker(task, done, cancel)

    @work(thread=True, exclusive=True, group="solver", exit_on_error=False)
    def _solver_worker(self, task: Callable[[SearchControl], Any], done: Callable[[Any], None], cancel: threading.Event) -> None:
        def progress(nodes: int, total: int | None) -> None:
            self.app.call_from_thread(self._progress, cancel, nodes, total)

        control = SearchControl(cancel=cancel, on_progress=progress, every=2048)
        try:
            result = task(control)
        except Cancelled:
            return
        except (BoardError, UsageError, ValueError) as exc:
            self.app.call_from_thread(self._worker_failed, cancel, str(exc), "warning")
            return
        except Exception as exc:  # a solver bug must not take the app down
            self.app.call_from_thread(self._worker_failed, cancel, f"{type(exc).__name__}: {exc}", "error")
            return
        self.app.call_from_thread(self._worker_done, cancel, done, result)

    def _progress(self, cancel: threading.Event, nodes: int, total: int | None) -> None:
        if cancel is not self._cancel:
            return
        bar = self.query_one("#busy ProgressBar", ProgressBar)
        if total:
            bar.update(total=total, progress=min(nodes, total))
        label = f"{self._busy_what}…  {nodes:,} nodes  ·  esc cancels"
        self.query_one("#busy-label", Static).update(label)

    def _worker_done(self, cancel: threading.Event, done: Callable[[Any], None], result: Any) -> None:
        if cancel is not self._cancel or cancel.is_set():
            return
        self._cancel = None
        self._set_busy(False)
        done(result)

    def _worker_failed(self, cancel: threading.Event, text: str, severity: str) -> None:
        if cancel is not self._cancel:
            return
        self._cancel = None
        self._set_busy(False)
        self.notify(text, title=f"{self._busy_what} failed", severity=severity)

    def _set_busy(self, busy: bool, label: str = "") -> None:
        box = self.query_one("#busy")
        box.set_class(busy, "-active")
        if busy:
            self.query_one("#busy ProgressBar", ProgressBar).update(total=None, progress=0)
            self.query_one("#busy-label", Static).update(label)

    @property
    def solving(self) -> bool:
        return self._cancel is not None

    def cancel_solver(self) -> bool:
        if self._cancel is None:
            return False
        self._cancel.set()
        self._cancel = None
        self._set_busy(False)
        return True

    # --- hint, solve, watch ------------------------------------------------------------------
    def action_hint(self) -> None:
        self._interrupt()
        if self._refuse_when_over():
            return
        state = self.state
        self.run_in_worker("Hint", lambda control: self.find_hint(state, control), lambda hint: self._show_hint(state, hint))

    def _show_hint(self, state: S, hint: Hint) -> None:
        if state != self.state:
            return
        self.hint = hint
        self.say(hint.message)
        self.view.refresh()

    def action_solve(self) -> None:
        self._interrupt()
        if self._refuse_when_over():
            return
        state = self.state
        self.run_in_worker("Solving", lambda control: self.find_plan(state, control), lambda plan: self._play_plan(state, plan))

    def _play_plan(self, state: S, plan: Plan) -> None:
        if state != self.state:
            return
        frames: list[S] = []
        current = state
        for direction in plan.moves:
            result = self.play(current, direction)
            if isinstance(result, str):  # a solver bug: say so rather than play nonsense
                self.notify(f"Solver move {direction.letter} refused: {result}", severity="error")
                break
            frames.extend(thin_frames(list(result.frames)))
            frames.append(result.state)
            current = result.state
        if current == state:
            self.say(plan.message or "The solver has no move from here.")
            return
        self.hint = None
        self.history.push(current)  # the whole solve is one undo step
        self.message = plan.message
        self._run_frames(frames, current)

    def action_watch(self) -> None:
        if self._watch_timer is not None:
            self._stop_watching()
            self.say("Stopped watching.")
            return
        self.cancel_solver()
        self._finish_animation()
        if self._refuse_when_over():
            return
        state = self.state
        self.run_in_worker("Planning", lambda control: self.find_plan(state, control), lambda plan: self._start_watching(state, plan))

    def _start_watching(self, state: S, plan: Plan) -> None:
        if state != self.state:
            return
        if not plan.moves:
            self.say(plan.message or "The solver has no move from here.")
            return
        self._watch_plan = deque(plan.moves)
        self._watch_paused = False
        self._watch_timer = self.set_interval(self.settings.watch_seconds, self.watch_step)
        self.say(plan.message)
        self.watch_step()

    def watch_step(self) -> None:
        """Play the next planned move; each is its own undo step so a watch can be rewound."""
        if self._watch_paused or self.animating:
            return
        if not self._watch_plan or self.is_over(self.state):
            self._stop_watching()
            self._show_status()
            return
        direction = self._watch_plan.popleft()
        if not self.try_move(direction):
            self._stop_watching()

    def _stop_watching(self) -> None:
        if self._watch_timer is not None:
            self._watch_timer.stop()
            self._watch_timer = None
        self._watch_plan.clear()
        self._watch_paused = False

    @property
    def watching(self) -> bool:
        return self._watch_timer is not None

    def action_pause(self) -> None:
        if self._watch_timer is None:
            self.say("Nothing to pause: press w to watch the solver play.")
            return
        self._watch_paused = not self._watch_paused
        self._show_status()

    def action_speed(self, change: int) -> None:
        self.settings = self.settings.faster() if change > 0 else self.settings.slower()
        self.app.settings = self.settings
        if self._watch_timer is not None:
            self._watch_timer.stop()
            self._watch_timer = self.set_interval(self.settings.watch_seconds, self.watch_step)
        if self._frame_timer is not None:
            self._frame_timer.stop()
            self._frame_timer = self.set_interval(self.settings.frame_seconds, self._next_frame)
        self._show_status()

    def _refuse_when_over(self) -> bool:
        if self.is_over(self.state):
            self.say(self.over_message(self.state) + " — r restarts, u undoes.")
            return True
        return False

    # --- other keys -----------------------------------------------------------------------
    def action_zoom(self) -> None:
        zoom = self.view.cycle_zoom()
        self.say(f"Zoom: {zoom.value}.")
        self.view.scroll_to_focus()

    def action_help(self) -> None:
        from tui_grid.ui.help_screen import HelpScreen

        self.app.push_screen(HelpScreen(self.game))

    def action_back(self) -> None:
        if self.cancel_solver():
            self.say("Cancelled.")
            return
        if self._watch_timer is not None:
            self._stop_watching()
            self.say("Stopped watching.")
            return
        self._finish_animation()
        self.app.pop_screen()

    def action_new(self) -> None:
        from tui_grid.ui.new_board import NewBoardDialog

        self._interrupt()
        self.app.push_screen(NewBoardDialog(self.game), self._new_board_chosen)

    def _new_board_chosen(self, game_id: str | None) -> None:
        if not game_id:
            return
        self.run_in_worker("Generating", lambda control: self.game.load(game_id), self.load_board)

    def load_board(self, loaded: LoadedBoard) -> None:
        """Start over on another board; the old game's history goes with it."""
        self._interrupt()
        self.loaded = loaded
        self.history = History(self.initial_state(loaded.board))
        self.hint = None
        self.message = ""
        self.shown = self.history.present
        self.view.set_grid_size(*self.grid_size())
        self._refresh_all()

    # --- the hooks a game supplies ---------------------------------------------------------------
    def make_board_view(self) -> BoardView:
        raise NotImplementedError

    def grid_size(self) -> tuple[int, int]:
        raise NotImplementedError

    def initial_state(self, board: Any) -> S:
        raise NotImplementedError

    def play(self, state: S, direction: Direction) -> Played[S] | str:
        """The move's result, or why it is refused."""
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def over_message(self, state: S) -> str:
        raise NotImplementedError

    def status_text(self, state: S) -> str:
        raise NotImplementedError

    def focus_of(self, state: S) -> Pos | None:
        return None

    def legend(self) -> str:
        """One line under the board naming the glyphs."""
        return ""

    def find_plan(self, state: S, control: SearchControl) -> Plan:
        """Runs in a worker thread: the moves solve and watch will play."""
        raise NotImplementedError

    def find_hint(self, state: S, control: SearchControl) -> Hint:
        """Runs in a worker thread."""
        raise NotImplementedError
