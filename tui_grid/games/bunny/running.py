"""Runs on Bunny's screen: the frames a recorded run animates, and stepping through a
program one token per press (`.`) before the run is recorded. UI-free."""

from __future__ import annotations

from collections.abc import Iterable

from tui_grid.core.engine import Step
from tui_grid.games.bunny.board import BunnyBoard
from tui_grid.games.bunny.engine import BunnyState, snapshot
from tui_grid.games.bunny.interpreter import RUNNING, Runner
from tui_grid.games.bunny.program import Program

#: Most frames one run animates (the engine already caps them); esc skips to the end.
MAX_ANIMATION_FRAMES = 240


def frames_to_show(steps: Iterable[Step[BunnyState]], skip_upto: int = 0, most: int = MAX_ANIMATION_FRAMES) -> list[BunnyState]:
    """The frames of a run to animate: those after the first `skip_upto` tokens (already
    shown by stepping), evenly thinned to at most `most`, the last always kept."""
    frames = [frame for step in steps for frame in step.frames if frame.steps > skip_upto]
    if len(frames) <= most:
        return frames
    stride = len(frames) / most
    return [frames[int(i * stride)] for i in range(most - 1)] + [frames[-1]]


def step_text(shown: BunnyState) -> str:
    """What the screen says after a `.` step ran the token `shown` stands after."""
    program = shown.program
    token = program.node_at(shown.path) if program is not None and shown.path is not None else None
    return f"Step {shown.steps}: {token}.  . steps on, enter runs the rest."


class StepThrough:
    """The program being stepped through, one primitive token per `advance`; stepping a
    different program starts it over from S."""

    def __init__(self) -> None:
        self.runner: Runner | None = None

    @property
    def active(self) -> bool:
        return self.runner is not None

    def reset(self) -> None:
        self.runner = None

    def steps_into(self, program: Program) -> int:
        """How many tokens of `program` stepping has run (none unless it is the one stepped)."""
        runner = self.runner
        return runner.steps if runner is not None and runner.program == program else 0

    def advance(self, board: BunnyBoard, program: Program, runs: int) -> tuple[BunnyState | None, bool]:
        """Run one more token of `program`: the frame it leaves (None once the run was
        over already), and whether the run is over now (so it is to be recorded)."""
        if self.runner is None or self.runner.program != program:
            self.runner = Runner(board, program)
        runner = self.runner
        if not runner.step():
            return None, True
        shown = snapshot(runner, program, runs, RUNNING)
        return shown, runner.done


def solve_value(state: BunnyState) -> int | None:
    """The tokens of a program whose run just completed the board, the player's value for
    their best (an edit after a complete run is no new solve)."""
    if state.typed is None and state.complete and state.program is not None:
        return state.program.tokens
    return None
