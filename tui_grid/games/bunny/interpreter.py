"""Run a bunny program step by step.

Every run starts on the board's start square facing east, with the board's own marks.
One *step* executes one primitive token (`F`, `L` or `R`); `Runner.path` is the path of
the token just executed (see `Program.node_at`), so a view can highlight it.

A run ends in one of three ways:

- **complete**: every square is marked. The run stops at once, even inside a loop.
- **stuck**: a forever loop stopped making progress. At the start of each of its
  iterations the runner remembers the bunny's square and heading; the position in the
  program is the same there every time (enclosing loops cannot advance while a forever
  loop runs), so if that (square, heading) comes back with no new mark in between, the
  iterations in between repeat for ever and nothing new will ever be marked.
- **finished**: the program ran out with squares still unmarked.

A finite loop with a huge count is fast-forwarded the same way: once its iteration start
repeats with no new mark, the remaining whole cycles are skipped (they would change
nothing), so `LOOP(1000000000){F R}` runs in a moment. `steps` still counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from tui_grid.core.geometry import Pos
from tui_grid.core.words import plural
from tui_grid.games.bunny.board import EAST, HEADING_NAMES, BunnyBoard, draw
from tui_grid.games.bunny.program import Loop, Node, Program, parse_program

RUNNING = "running"
COMPLETE = "complete"
STUCK = "stuck"
FINISHED = "finished"
#: Stopped by the step limit (MAX_RUN_STEPS) while it still ran: said as such, never as a
#: program that ended, since it might yet complete the board.
LIMIT = "limit"

#: Finite loops with more iterations than this remember iteration starts to fast-forward.
FAST_FORWARD_FROM = 16


class _Stuck(Exception):
    pass


class Runner:
    """A program running on a board, one primitive token per `step()`."""

    def __init__(self, board: BunnyBoard, program: Program) -> None:
        self.board = board
        self.program = program
        self.pos: Pos = board.start
        self.heading = EAST
        self.marks: set[Pos] = set(board.initially_marked)
        self._total = len(board.squares)
        self.steps = 0
        self.path: tuple[int, ...] | None = None
        #: The iteration (1-based) of each loop around the token just run, outermost first.
        self.loops: tuple[int, ...] = ()
        self.status = COMPLETE if len(self.marks) == self._total else RUNNING
        self._stack: list[int] = []
        self._tokens = self._walk(program.body, ())
        self._ahead: tuple[tuple[int, ...], str, tuple[int, ...]] | None = None

    @property
    def done(self) -> bool:
        return self.status != RUNNING

    @property
    def left(self) -> int:
        """Squares still unmarked."""
        return self._total - len(self.marks)

    def _next_token(self) -> tuple[tuple[int, ...], str, tuple[int, ...]] | None:
        """The next primitive token, or None with the status set when the run is over."""
        if self._ahead is not None:
            token, self._ahead = self._ahead, None
            return token
        try:
            return next(self._tokens)
        except StopIteration:
            self.status = FINISHED
        except _Stuck:
            self.status = STUCK
        return None

    def step(self) -> bool:
        """Execute the next primitive token; False (and nothing done) once the run is over.
        It looks one token ahead, so the step that runs the last token already ends the run."""
        if self.status != RUNNING:
            return False
        token = self._next_token()
        if token is None:
            return False
        path, kind, self.loops = token
        self.path = path
        self.steps += 1
        if kind == "F":
            self.pos = self.board.hop(self.pos, self.heading)
            if self.pos not in self.marks:
                self.marks.add(self.pos)
                if len(self.marks) == self._total:
                    self.status = COMPLETE
        elif kind == "L":
            self.heading = (self.heading + 3) % 4
        else:
            self.heading = (self.heading + 1) % 4
        if self.status == RUNNING:
            self._ahead = self._next_token()
        return True

    def run(self, max_steps: int | None = None) -> str:
        """Step until the run ends (or `max_steps` more steps); returns the status."""
        count = 0
        while self.status == RUNNING and (max_steps is None or count < max_steps):
            self.step()
            count += 1
        return self.status

    # The program walk: yields (path, kind, loop iterations) before each primitive is run.
    def _walk(self, nodes: tuple[Node, ...], prefix: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], str, tuple[int, ...]]]:
        stack = self._stack
        for i, node in enumerate(nodes):
            path = prefix + (i,)
            if not isinstance(node, Loop):
                yield path, node.kind, tuple(stack)
            elif node.count is None:
                seen: dict[tuple[Pos, int], int] = {}
                stack.append(0)
                while True:
                    key = (self.pos, self.heading)
                    if seen.get(key) == len(self.marks):
                        raise _Stuck()
                    seen[key] = len(self.marks)
                    stack[-1] += 1
                    depth = len(stack)
                    yield from self._walk(node.body, path)
                    del stack[depth:]
            else:
                stack.append(0)
                depth = len(stack)
                yield from self._finite(node, path)
                del stack[depth - 1 :]

    def _finite(self, node: Loop, path: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], str, tuple[int, ...]]]:
        count = node.count or 0
        depth = len(self._stack)  # this loop's counter is the last one
        # iteration start (square, heading) -> (iterations done, marks, steps) at that time
        seen: dict[tuple[Pos, int], tuple[int, int, int]] | None = {} if count > FAST_FORWARD_FROM else None
        done = 0
        while done < count:
            if seen is not None:
                key = (self.pos, self.heading)
                before = seen.get(key)
                if before is not None and before[1] == len(self.marks):
                    period = done - before[0]
                    cycles = (count - done) // period
                    self.steps += cycles * (self.steps - before[2])
                    done += cycles * period
                    seen = None
                    if done >= count:
                        break
                else:
                    seen[key] = (done, len(self.marks), self.steps)
            self._stack[depth - 1] = done + 1
            yield from self._walk(node.body, path)
            del self._stack[depth:]
            done += 1


@dataclass(frozen=True)
class RunResult:
    status: str
    steps: int
    left: int
    pos: Pos
    heading: int
    marks: frozenset[Pos]

    @property
    def complete(self) -> bool:
        return self.status == COMPLETE


def run(board: BunnyBoard, program: Program, max_steps: int | None = None) -> RunResult:
    """Run a program to its end (or `max_steps` steps) and say how it went."""
    runner = Runner(board, program)
    runner.run(max_steps)
    return RunResult(runner.status, runner.steps, runner.left, runner.pos, runner.heading, frozenset(runner.marks))


def outcome_line(status: str, tokens: int, steps: int, left: int) -> str:
    """One line about a run, written once for the CLI and the game."""
    step_text, left_text = plural(steps, "step"), plural(left, "square")
    if status == COMPLETE:
        return f"Complete in {plural(tokens, 'token')} ({step_text})"
    if status == STUCK:
        return f"Stuck in a forever loop after {step_text}: {left_text} left"
    if status == FINISHED:
        return f"Not complete: {left_text} left after {step_text}"
    if status == RUNNING:
        return f"Running: step {steps}, {left_text} left"
    if status == LIMIT:
        return f"Stopped at the limit of {MAX_RUN_STEPS:,} steps a run may take: {left_text} left"
    return f"Stopped after {step_text}: {left_text} left"


def describe(result: RunResult, tokens: int) -> str:
    """One line about a finished run."""
    return outcome_line(result.status, tokens, result.steps, result.left)


#: A run on the command line stops here (then says "Stopped after ..."): nested finite
#: loops can ask for billions of steps.
MAX_RUN_STEPS = 200_000


def run_report(board: BunnyBoard, program_text: str) -> tuple[str, RunResult]:
    """What `tui-grid run bunny BOARD --program TEXT` prints (the outcome, and the board
    with its marks and the bunny), and the run. A bad program raises ProgramError (with
    its column)."""
    program = parse_program(program_text)
    result = run(board, program, MAX_RUN_STEPS)
    if result.status == RUNNING:
        result = replace(result, status=LIMIT)
    heading = HEADING_NAMES[result.heading]
    head = f"{program}\n{describe(result, program.tokens)}; the bunny is at row {result.pos.row + 1}, column {result.pos.col + 1}, facing {heading}."
    return head + "\n" + draw(board, result.marks, (result.pos, result.heading)), result
