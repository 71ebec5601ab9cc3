"""The busy bar: what a table is working on, its progress, and that esc cancels it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import ProgressBar

from tui_grid.core.tasks import Task
from tui_grid.ui.plain import Plain

#: Seconds between looks at a task's progress: the worker writes it, the bar reads it.
POLL_SECONDS = 0.1


class BusyBar(Horizontal):
    DEFAULT_CSS = """
    BusyBar { height: 1; display: none; padding: 0 1; }
    BusyBar.-active { display: block; }
    BusyBar ProgressBar { width: 24; }
    BusyBar #busy-label { width: 1fr; padding-left: 2; }  /* never runs into the bar */
    """

    def __init__(self) -> None:
        super().__init__(id="busy")
        self.shown_task: Task | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ProgressBar(total=None, show_eta=False, show_percentage=False)
        yield Plain(id="busy-label")

    def show(self, task: Task | None) -> None:
        """Show `task` under way, or hide the bar (None)."""
        self.shown_task = task
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.set_class(task is not None, "-active")
        if task is None or not self.is_mounted:
            return
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.query_one("#busy-label", Plain).update(f"{task.what}…  esc cancels")
        self._timer = self.set_interval(POLL_SECONDS, self._poll)

    def _poll(self) -> None:
        task = self.shown_task
        if task is None or task.progress is None:
            return
        nodes, total = task.progress
        if total:
            self.query_one(ProgressBar).update(total=total, progress=min(nodes, total))
        self.query_one("#busy-label", Plain).update(f"{task.what}…  {nodes:,} nodes  ·  esc cancels")
