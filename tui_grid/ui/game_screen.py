"""The view every game shares: it observes a Session, sends the human seat's actions, and
runs solvers in workers. The session owns the game and a driver (core.driver) owns its
time: a watch seats the solver and lets a driver play; a match screen watches a feed
(core.live). This screen only shows what it is told: it pushes the state and an Overlay
(hint marks, selection, marked cells) to its board view, and animates frames.

A game's screen sets KEYMAP and supplies the hooks at the bottom (its board view, status
line, focus, legend, hint); it may extend the public steps `start_game`,
`session_changed`, `display_state`, `redraw` and `show_status`.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ProgressBar

from tui_grid.core.agents import Agent, HumanAgent, PlanAgent
from tui_grid.core.control import Cancelled, DEFAULT_TIME_LIMIT, OutOfTime, SearchControl
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Pos
from tui_grid.core.session import Change, Session
from tui_grid.games.registry import (
    BoardFiles,
    GameDefinition,
    Generated,
    LoadedBoard,
    Plannable,
    Solvable,
)
from tui_grid.ui import messages
from tui_grid.ui.board_view import GLYPH_ZOOMS, BoardView, Overlay
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.keys import Key, Keymap, keymap
from tui_grid.ui.legend import Legend
from tui_grid.ui.plain import Plain, tell
from tui_grid.ui.settings import Settings, thin_frames

S = TypeVar("S")


@dataclass(frozen=True)
class Hint:
    """What to say and which cells to mark; `kind` picks the mark's look."""

    message: str
    marks: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # cell -> (glyph, kind)


class SessionChanged(Message):
    """A session's change, carried to the UI thread when a driver's thread made it."""

    def __init__(self, session: Session[Any, Any], change: Change[Any]) -> None:
        super().__init__()
        self.session = session
        self.change = change


class WatchEnded(Message):
    """A watch's driver stopped by itself; `reason` says why when it was not the game's end."""

    def __init__(self, watcher: Driver[Any, Any], reason: str) -> None:
        super().__init__()
        self.watcher = watcher
        self.reason = reason


class GameScreen(Screen, Generic[S]):
    KEYMAP: ClassVar[Keymap] = keymap(())
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #title { height: 1; padding: 0 1; background: $primary-muted; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }
    GameScreen #status { height: auto; max-height: 3; padding: 0 1; background: $surface; }
    GameScreen #legend { height: auto; max-height: 2; padding: 0 1; color: $text-muted; text-align: center; }
    GameScreen #message { height: auto; min-height: 2; max-height: 4; padding: 0 1; color: $text-muted; }
    GameScreen #busy { height: 1; display: none; padding: 0 1; }
    GameScreen #busy.-active { display: block; }
    GameScreen #busy ProgressBar { width: 24; }
    GameScreen #busy-label { width: 1fr; padding-left: 2; }  /* never runs into the bar */
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.BINDINGS = cls.KEYMAP.bindings()  # before Textual merges the class's bindings
        super().__init_subclass__(**kwargs)

    def __init__(self, game: GameDefinition, loaded: LoadedBoard, settings: Settings | None = None) -> None:
        super().__init__()
        self.game = game
        self.settings = settings or Settings()
        self._hint: Hint | None = None
        self._marked: frozenset[tuple[int, int]] = frozenset()
        self.message = ""
        self._frames: deque[S] = deque()
        self._end_message = ""  # said when the animation reaches the end (`say_after_animation`)
        self._frame_timer: Timer | None = None
        self.animation_paused = False
        self._watcher: Driver[S, Any] | None = None
        self._seated: Agent[S, Any] | None = None
        self._watched_until: S | None = None  # the state a finished watch left, while it animates
        self._cancel: threading.Event | None = None
        self._quiet_cancel: threading.Event | None = None
        self._progress: tuple[int, int | None] | None = None
        self._progress_timer: Timer | None = None
        self._busy_what = ""
        self.view = self.make_board_view()
        self.start_game(loaded)
        self.view.use(self.engine, self.board)
        self.view.state = self.shown

    def start_game(self, loaded: LoadedBoard) -> None:
        self.loaded = loaded
        engine, steps = self.game.start(loaded)
        self.session: Session[S, Any] = Session(engine, self.make_agents(engine), log=steps)
        self.session.subscribe(self.observe)
        self.shown: S = self.session.state

    def make_agents(self, engine: Engine[S, Any]) -> list[Agent[S, Any]]:
        return [HumanAgent("you") for _ in engine.seats]

    # --- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Plain(id="title")
        yield self.view
        yield Legend(self.legend(), id="legend")
        yield Plain(id="status")
        with Horizontal(id="busy"):
            yield ProgressBar(total=None, show_eta=False, show_percentage=False)
            yield Plain(id="busy-label")
        yield Plain(id="message")
        yield KeyBar(self.KEYMAP, self.shows_key)

    def on_mount(self) -> None:
        self.view.set_grid_size(*self.grid_size())
        self.redraw()

    @property
    def engine(self) -> Engine[S, Any]:
        return self.session.engine

    # --- what the board view is given -----------------------------------------------------
    @property
    def hint(self) -> Hint | None:
        return self._hint

    @hint.setter
    def hint(self, hint: Hint | None) -> None:
        self._hint = hint
        self.push_overlay()

    def overlay(self) -> Overlay:
        """What the view draws over the state: the hint's marks, the game's selection, the
        cells the message is about."""
        return Overlay(self._hint.marks if self._hint is not None else {}, self.selection(), self._marked)

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "quitting", False):
            return False  # keys typed after q, still queued while the app closes
        for key in self.KEYMAP.keys:
            if key.common and key.action.split("(")[0] == action:
                return self.offers(key.common)
        return True

    def redraw(self) -> None:
        title = f"{self.game.title} — {self.loaded.title}"
        if self.loaded.game_id and self.loaded.game_id != self.loaded.title:
            title += f"  [{self.loaded.game_id}]"
        self.query_one("#title", Plain).update(title)
        self.show_status()
        self.view.use(self.engine, self.board)
        self.view.show(self.shown, self.overlay(), self.focus_of(self.shown))

    def show_status(self) -> None:
        # The game id is in the title; here it pushed the speed and the watch off the line.
        parts = [self.status_text(self.shown)]
        if self._watcher is not None:
            parts.append("watching (paused)" if self._watcher.paused else "watching")
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

    # --- the session -------------------------------------------------------------------------
    def observe(self, session: Session[S, Any], change: Change[S]) -> None:
        """A session observer: a change made on the UI thread (a key) is shown at once; one
        made by a driver's thread is posted to the UI thread as a message."""
        if self.on_ui_thread():
            self.session_changed(session, change)
        else:
            self.post_message(SessionChanged(session, change))

    def on_ui_thread(self) -> bool:
        """Whether news arrives on the UI thread (a key), not a driver's or server's thread."""
        return threading.get_ident() == self._thread_id

    def on_session_changed(self, message: SessionChanged) -> None:
        if message.session is self.session:
            self.session_changed(message.session, message.change)

    def session_changed(self, session: Session[S, Any], change: Change[S]) -> None:
        # A driver's thread may be ahead of the message being handled: judge by its state.
        over = session.engine.outcome(change.state).over
        if change.kind == "step":
            self.hint = None
            frames: list[S] = []
            for step in change.steps:
                frames.extend(thin_frames(list(step.frames)))
                frames.append(step.state)
            self.message = self.next_steps() if over else ""
            self._marked = frozenset(cell for event in change.events for cell in event.cells)
            self._run_frames(frames, change.state)
            self._watch_moved()
            if over:
                self.game_over()
        elif change.kind in ("undo", "redo", "restart", "load"):
            self._frames.clear()
            self._end_message = ""
            self.hint = None
            self.message = ""
            self.display_state(change.state)
        elif change.kind in ("refused", "message", "forfeit"):
            self.say(change.message, tuple(cell for event in change.events for cell in event.cells))

    def action_act(self, text: str, seat: int = 0) -> None:
        """A human seat's action, in the game's action encoding."""
        self.stop_watching()
        self.cancel_solver()
        self.cancel_quiet()
        self._finish_animation()
        if self.session.over:
            self.say(messages.game_over(self.session, self.restart_key()))
            return
        reason = self.session.submit(seat, self.engine.decode_action(text))
        if reason and reason != self.message:  # a refusal the session reported is already shown, with its cell
            self.say(reason)

    def _run_frames(self, frames: list[S], final: S) -> None:
        if not self.settings.animate or not frames:
            self._frames.clear()
            self.display_state(final)
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
            self.animation_paused = False
            return
        self.display_state(self._frames.popleft())

    def _finish_animation(self) -> bool:
        self.animation_paused = False
        if self._frame_timer is not None:
            self._frame_timer.resume()
        if self._frames:
            self._frames.clear()
            self.display_state(self.state)
            return True
        return False

    @property
    def animating(self) -> bool:
        return bool(self._frames)

    def display_state(self, state: S) -> None:
        if self._end_message and not self._frames and state is self.state:
            self.message, self._end_message = self._end_message, ""
        self.shown = state
        self.show_status()
        self.view.show(state, self.overlay(), self.focus_of(state))

    def action_undo(self) -> None:
        self._interrupt()
        if not self.session.undo():
            self.say("Nothing to undo.")

    def action_redo(self) -> None:
        self._interrupt()
        if not self.session.redo():
            self.say("Nothing to redo.")

    def action_restart(self) -> None:
        self._interrupt()
        if not self.session.restart():
            self.say("Already at the start.")

    def action_skip(self) -> None:
        """. skips an animation; in a paused watch it plays one move, as . steps a paused
        match."""
        if self._finish_animation():
            return
        if self._watcher is not None and self._watcher.paused:
            self._watcher.single_step()  # the move it plays is what the player sees
            return
        self.say("No animation to skip.")

    def _interrupt(self) -> None:
        self.stop_watching()
        self.cancel_solver()
        self.cancel_quiet()
        self._finish_animation()

    def cancel_quiet(self) -> None:
        """Stop a quiet background search (a hint still improving): its answer is stale."""
        if self._quiet_cancel is not None:
            self._quiet_cancel.set()
            self._quiet_cancel = None

    # --- workers ------------------------------------------------------------------------------
    def run_in_worker(self, what: str, task: Callable[[SearchControl], Any], done: Callable[[Any], None], *, quiet: bool = False) -> None:
        """Run `task` in a thread; `done` gets its result on the UI thread unless cancelled.
        Hint, solve, watch's planning and generation all come through here. A `quiet` task
        (a live hint every tick) shows no busy bar and is not what esc cancels."""
        cancel = threading.Event()
        if quiet:
            if self._quiet_cancel is not None:
                self._quiet_cancel.set()
            self._quiet_cancel = cancel
            self._quiet_worker(task, done, cancel)
            return
        self.cancel_solver()
        self._cancel = cancel
        self._busy_what = what
        self._progress = None
        self._set_busy(True, f"{what}…  esc cancels")
        self._progress_timer = self.set_interval(0.1, self._show_progress)
        self._solver_worker(task, done, cancel)

    @work(thread=True, exclusive=True, group="solver", exit_on_error=False)
    def _solver_worker(self, task: Callable[[SearchControl], Any], done: Callable[[Any], None], cancel: threading.Event) -> None:
        self._run_task(task, done, cancel)

    @work(thread=True, exclusive=True, group="quiet", exit_on_error=False)
    def _quiet_worker(self, task: Callable[[SearchControl], Any], done: Callable[[Any], None], cancel: threading.Event) -> None:
        self._run_task(task, done, cancel)

    def _run_task(self, task: Callable[[SearchControl], Any], done: Callable[[Any], None], cancel: threading.Event) -> None:
        def progress(nodes: int, total: int | None) -> None:
            self._progress = (nodes, total)  # read by a UI timer: the worker never waits for the UI

        control = SearchControl(cancel=cancel, on_progress=progress, every=2048, time_limit=DEFAULT_TIME_LIMIT,
                                max_cells=self.app.policy.max_cells)
        try:
            result = task(control)
        except OutOfTime as exc:
            self.app.call_from_thread(self._worker_failed, cancel, str(exc).capitalize() + ".", "warning")
            return
        except Cancelled:
            return
        except (BoardError, UsageError, ValueError) as exc:
            self.app.call_from_thread(self._worker_failed, cancel, str(exc), "warning")
            return
        except MemoryError:
            self.app.call_from_thread(self._worker_failed, cancel, "Not enough memory for this here: try a smaller board.", "error")
            return
        except Exception as exc:  # a solver bug must not take the app down
            self.app.call_from_thread(self._worker_failed, cancel, f"{type(exc).__name__}: {exc}", "error")
            return
        self.app.call_from_thread(self._worker_done, cancel, done, result)

    def _show_progress(self) -> None:
        if self._progress is None or not self._busy_what:
            return
        nodes, total = self._progress
        for bar in self.query("#busy ProgressBar").results(ProgressBar):
            if total:
                bar.update(total=total, progress=min(nodes, total))
        for label in self.query("#busy-label").results(Plain):
            label.update(f"{self._busy_what}…  {nodes:,} nodes  ·  esc cancels")

    def _worker_done(self, cancel: threading.Event, done: Callable[[Any], None], result: Any) -> None:
        if cancel.is_set():
            return
        if cancel is self._quiet_cancel:
            self._quiet_cancel = None
            done(result)
            return
        if cancel is not self._cancel:
            return
        self._end_busy()
        done(result)

    def _worker_failed(self, cancel: threading.Event, text: str, severity: str) -> None:
        if cancel is self._quiet_cancel:
            self._quiet_cancel = None
            return  # a live hint that failed is simply not shown
        if cancel is not self._cancel:
            return
        what = self._busy_what
        self._end_busy()
        self.stop_watching()
        tell(self, text, title=f"{what} failed", severity=severity)

    def _end_busy(self) -> None:
        self._cancel = None
        self._busy_what = ""
        if self._progress_timer is not None:
            self._progress_timer.stop()
            self._progress_timer = None
        self._set_busy(False)

    def _set_busy(self, busy: bool, label: str = "") -> None:
        for box in self.query("#busy"):  # gone once the screen is unmounting
            box.set_class(busy, "-active")
            if busy:
                self.query_one("#busy ProgressBar", ProgressBar).update(total=None, progress=0)
                self.query_one("#busy-label", Plain).update(label)

    @property
    def solving(self) -> bool:
        return self._cancel is not None

    def cancel_solver(self) -> bool:
        if self._cancel is None:
            return False
        self._cancel.set()
        self._end_busy()
        return True

    # --- hint, solve, watch --------------------------------------------------------------------
    def hint_seat(self) -> int:
        """The seat a hint or a solve is for: the one a human plays (seat 0 in a puzzle)."""
        return next((seat for seat, agent in enumerate(self.session.agents) if agent.human), 0)

    def find_plan(self, state: S, control: SearchControl, seat: int | None = None) -> Plan[Any]:
        """Runs in a worker: the game's plan for a seat from `state`; hint, solve and watch
        all come here (`GameDefinition.plan`)."""
        game = self.game
        assert isinstance(game, Plannable)
        return game.plan(self.engine, state, self.hint_seat() if seat is None else seat, control)

    def _refuse_when_over(self) -> bool:
        if self.session.over and not self.engine.plays_on_after_end:
            self.say(messages.game_over(self.session, self.restart_key()))
            return True
        return False

    def action_hint(self) -> None:
        self._interrupt()
        if self._refuse_when_over():
            return
        state = self.state
        self.run_in_worker("Hint", lambda control: self.hint_from_plan(state, self.find_plan(state, control)), lambda hint: self._show_hint(state, hint))

    def _show_hint(self, state: S, hint: Hint) -> None:
        if state != self.state:
            return
        self.hint = hint
        self.say(hint.message)

    def action_solve(self) -> None:
        self._interrupt()
        if self._refuse_when_over():
            return
        state = self.state
        self.run_in_worker("Solving", lambda control: self.find_plan(state, control), lambda plan: self._play_plan(state, plan))

    def _play_plan(self, state: S, plan: Plan[Any]) -> None:
        if state != self.state:
            return
        if not plan.actions:
            self.say(f"{plan.message or 'The solver has no move from here.'} {self.next_steps()}.")
            return
        seat = self.hint_seat()
        try:
            self.session.play_steps([{seat: action} for action in plan.actions])  # one undo step
        except ValueError as exc:  # a solver bug: say so rather than play nonsense
            tell(self, f"Solver move refused: {exc}", severity="error")
        self.message = plan.message
        self.show_status()

    def action_watch(self) -> None:
        """Watch: the solver takes the player's seat and the driver plays it, one move (one
        undo step) per beat; any key of the player's takes the seat back."""
        if self._watcher is not None or (self.animating and self._watched_until is self.state):
            # The watch may have ended (Bunny's solver plays one run) while its run still
            # animates: to the player it is still the watch, so w stops it too.
            self.stop_watching()
            self._finish_animation()
            self.say("Stopped watching.")
            return
        self.cancel_solver()
        self._finish_animation()
        if self._refuse_when_over():
            return
        seat = self.hint_seat()
        agent: PlanAgent[S, Any] = PlanAgent(lambda engine, state, seat, control: self.find_plan(state, control, seat), "solver")
        self._seated = self.session.seat_agent(seat, agent)
        self._watch_first = True
        self._progress = None
        self._busy_what = "Planning"
        self._set_busy(True, "Planning…  esc cancels")
        self._progress_timer = self.set_interval(0.1, self._show_progress)
        watcher: Driver[S, Any] = Driver(self.session, step_seconds=self.settings.watch_seconds, ready=lambda: not self._frames,
                                         on_progress=self._note_progress)
        watcher.first_step_now = True
        self._watcher = watcher
        watcher.on_stop = lambda reason: self.post_message(WatchEnded(watcher, reason))
        self.show_status()
        watcher.start(forever=False)

    def _note_progress(self, nodes: int, total: int | None) -> None:
        self._progress = (nodes, total)  # read by a UI timer: the driver never waits for the UI

    def on_watch_ended(self, message: WatchEnded) -> None:
        """The watch's driver stopped by itself: the game ended, or the solver has no move."""
        if message.watcher is not self._watcher:
            return
        self._watched_until = self.state  # what is still animating is the watch's (see action_watch)
        self.stop_watching()
        if message.reason:
            self.say(f"{message.reason} {self.next_steps()}.")
        self.show_status()

    def _watch_moved(self) -> None:
        """After the solver's first move: say what is being watched, and drop the busy bar."""
        if self._watcher is None or not self._watch_first:
            return
        self._watch_first = False
        self._end_busy()
        agent = self.session.agents[self.hint_seat()]
        plan = getattr(agent, "plan", None)
        if plan is not None and plan.message and not self.session.over:
            self.say(plan.message)  # what is being watched: an escape, or the longest line

    def stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is None:
            return
        watcher.stop(join=None)
        if self._seated is not None:
            self.session.seat_agent(self.hint_seat(), self._seated)
            self._seated = None
        if self._busy_what == "Planning":
            self._end_busy()

    @property
    def watching(self) -> bool:
        return self._watcher is not None

    @property
    def driving(self) -> bool:
        """A driver is playing a step right now (tests wait for it to settle)."""
        return self._watcher is not None and self._watcher.busy

    def action_pause(self) -> None:
        """Pause or resume what moves on its own: a watch, else a running animation."""
        if self._watcher is not None:
            self._watcher.pause()
        elif self._frame_timer is not None and self._frames:
            self.animation_paused = not self.animation_paused
            (self._frame_timer.pause if self.animation_paused else self._frame_timer.resume)()
        else:
            self.say("Nothing to pause: press w to watch the solver play.")
            return
        self.show_status()

    def action_speed(self, change: int) -> None:
        if limit := self.settings.at_limit(change):
            self.say(limit)
            return
        self.settings = self.settings.faster() if change > 0 else self.settings.slower()
        self.app.settings = self.settings
        if self._watcher is not None:
            self._watcher.step_seconds = self.settings.watch_seconds
        if self._frame_timer is not None:
            self._frame_timer.stop()
            self._frame_timer = self.set_interval(self.settings.frame_seconds, self._next_frame)
        self.show_status()

    # --- other keys -----------------------------------------------------------------------
    def action_coords(self) -> None:
        self.view.show_coords = not self.view.show_coords
        if not self.view.show_coords:
            self.say("Row and column numbers hidden.")
        elif self.view.zoom in GLYPH_ZOOMS:
            self.say("Row and column numbers shown.")
        else:  # not "shown": half blocks have no numbers
            self.say("Row and column numbers are on: they show in the cell zooms (z), not in half blocks.")

    def action_zoom(self) -> None:
        zoom = self.view.cycle_zoom()
        self.say(f"Zoom: {zoom.label}.")
        self.view.scroll_to_focus()

    def action_help(self) -> None:
        from tui_grid.ui.help_screen import HelpScreen

        self.app.push_screen(HelpScreen(self.game, self.KEYMAP, self.offers))

    def action_back(self) -> None:
        if self.cancel_solver():
            self.stop_watching()
            self.say("Cancelled.")
            return
        if self._watcher is not None:
            self.stop_watching()
            self.say("Stopped watching.")
            return
        if self._finish_animation():
            self.say("Animation skipped to its end.")
            return
        if not self.autosave() and not self._leave_unsaved:
            self._leave_unsaved = True  # said once: a second esc leaves without the save
            return
        self.app.back_to_boards(self.game)

    def action_quit(self) -> None:
        self.app.exit_saving()

    def on_unmount(self) -> None:
        self.cancel_solver()
        if self._quiet_cancel is not None:
            self._quiet_cancel.set()
        self.stop_watching()
        self.session.close()

    # --- saving -----------------------------------------------------------------------------
    _leave_unsaved = False  # the autosave failed and the player was told: leaving is their call
    _warned_about: str | None = None  # the moves (played text) that warning was about
    #: A demo's scene: nobody's game (no autosave), and the keys are the demo's.
    in_demo = False

    def autosave(self) -> bool:
        """Keep a game in progress in the user's data folder; a finished or untouched one
        leaves no save behind. False when the folder cannot be written (read-only, full):
        the game stays here, in memory, and the message offers ctrl+s to another place."""
        from tui_grid.core import saves

        if not isinstance(self.game, BoardFiles) or self.in_demo:
            return True
        try:
            saves.autosave(self.game, self.loaded, self.session, self.app.policy)
        except OSError as exc:
            played = self.session.played_text()
            if played != self._warned_about:  # moves since the last warning: warn again, not leave
                self._warned_about, self._leave_unsaved = played, False
            elsewhere = "ctrl+s saves it elsewhere; " if self.offers("save") else ""
            text = (f"Cannot keep this game in {self.app.policy.folder_name(saves.data_dir())}: {exc.strerror or exc}. It is still here: "
                    f"{elsewhere}esc or q again leaves without it.")
            self.say(text)
            tell(self, text, title="Not saved", severity="warning", timeout=10)
            return False
        self._leave_unsaved = False
        return True

    def action_still(self) -> None:
        """A picture of this moment (Textual's SVG screenshot), for a README or a slide."""
        import time

        from tui_grid.core import saves

        folder = saves.data_dir() / "stills"
        refused = self.app.policy.still_refused(folder, time.time())
        if refused:
            self.say(refused)
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.app.save_screenshot(path=str(folder))
        except OSError as exc:
            self.say(f"Cannot save a still in {self.app.policy.folder_name(folder)}: {exc.strerror or exc}")
            return
        self.say(self.app.policy.keep_stills(folder, Path(path)) or f"Still saved: {path}")

    def action_save(self) -> None:
        from tui_grid.ui.save_dialog import SaveDialog

        self._interrupt()
        self.app.push_screen(SaveDialog(self.game, self.loaded, self.session))

    def action_new(self) -> None:
        from tui_grid.ui.new_board import NewBoardDialog

        self._interrupt()
        self.app.push_screen(NewBoardDialog(self.game), self._new_board_chosen)

    def _new_board_chosen(self, game_id: str | None) -> None:
        if not game_id:
            return
        game = self.game
        assert isinstance(game, Generated)
        self.run_in_worker("Generating", lambda control: game.load_id(game_id, control), self.load_board)

    def load_board(self, loaded: LoadedBoard) -> None:
        """Start over on another board; the old game is saved if it was in progress."""
        self._interrupt()
        if not self.autosave() and not self._leave_unsaved:
            self._leave_unsaved = True
            return
        self.session.close()
        self.start_game(loaded)
        self.hint = None
        self.message = ""
        self.view.set_grid_size(*self.grid_size())
        self.redraw()

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

    def game_over(self) -> None:
        """Called once a step ends the game; a game may add a verdict (was it optimal?)."""

    def hint_from_plan(self, state: S, plan: Plan[Any]) -> Hint:
        """Runs in a worker thread: what the hint key shows, from the solver's plan."""
        return Hint(plan.message)
