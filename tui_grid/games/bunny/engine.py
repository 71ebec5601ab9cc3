"""Bunny coding on the engine protocol: one seat, and an action *is* a program.

Each step runs the whole program from the board's start (square `S`, facing east,
the board's own marks): runs do not build on each other, the player edits and tries
again. The state keeps the program last run and where that run ended; a failed run is
not a loss, so the outcome is WON after a run that completes the board and PLAYING
otherwise.

`step()` returns one animation frame per executed token (the state after it, with
`path` naming the token), except that a run of more than `MAX_FRAMES` tokens is
thinned: frames are taken at evenly spaced steps, always including the last one, so
no run produces more than `MAX_FRAMES` frames.

An edit of the typed program is an action too (`Edit`: the program as typed and the
cursor), so each edit is one undo step, as in Tatham's puzzles, and a program typed but
not run is in the log, and so in the autosave: no edit is ever lost.

The move log is the programs run and the edits, in canonical text, separated by ` ; `
(programs contain spaces, so the default space-separated log would not round-trip); an
edit reads `edit@CURSOR:PROGRAM`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence, Union

from tui_grid.core.engine import (
    PLAYING,
    Engine,
    Event,
    IllegalAction,
    Joint,
    Outcome,
    Result,
    Step,
)
from tui_grid.core.geometry import Pos
from tui_grid.core.text import echo
from tui_grid.core.words import plural
from tui_grid.games.bunny.board import EAST, BunnyBoard, draw
from tui_grid.games.bunny.causes import BunnyCause
from tui_grid.games.bunny.interpreter import (
    COMPLETE,
    LIMIT,
    MAX_RUN_STEPS,
    RUNNING,
    Runner,
    outcome_line,
)
from tui_grid.games.bunny.program import (
    Loop,
    Node,
    Program,
    ProgramError,
    format_program,
    parse_program,
)

MAX_FRAMES = 2000
LOG_SEPARATOR = " ; "
#: A run stops (as "finished") after this many steps; fast-forwarding makes it rare.
MAX_STEPS = MAX_RUN_STEPS

NOT_RUN = "not run"
EDIT_PREFIX = "edit@"


@dataclass(frozen=True)
class Edit:
    """The program as typed after one edit, and where the cursor stands in it (an index
    into the editor's items: tokens and brackets)."""

    typed: Program
    cursor: int


Action = Union[Program, Edit]


@dataclass(frozen=True)
class BunnyState:
    """After a run (or before the first): the program, marks, the bunny and the result.

    `result` is `not run`, `running` (an animation frame), `complete`, `stuck` or
    `finished` (the program ended with squares left).
    """

    pos: Pos
    heading: int
    marks: frozenset[Pos]
    program: Program | None = None
    result: str = NOT_RUN
    steps: int = 0
    left: int = 0
    runs: int = 0
    path: tuple[int, ...] | None = None
    #: The program in the editor and its cursor, when an edit made it differ from `program`.
    typed: Program | None = None
    cursor: int | None = None
    #: While running: the iteration of each loop around the token just run, outermost first.
    loops: tuple[int, ...] = ()

    @property
    def editing(self) -> Program | None:
        """What the editor shows: the typed program, else the one last run."""
        return self.typed if self.typed is not None else self.program

    @property
    def complete(self) -> bool:
        return self.result == COMPLETE

    def summary(self) -> str:
        if self.result == NOT_RUN:
            return f"{plural(self.left, 'square')} to mark"
        tokens = 0 if self.program is None else self.program.tokens
        return outcome_line(self.result, tokens, self.steps, self.left)


class BunnyEngine(Engine[BunnyState, Action]):
    seats = ("player",)
    #: A complete program is a status, not a lock: the player may run a shorter one.
    plays_on_after_end = True
    allows_undo = True

    def __init__(self, board: BunnyBoard) -> None:
        self.board = board

    def initial_state(self) -> BunnyState:
        marks = self.board.initially_marked
        return BunnyState(self.board.start, EAST, marks, left=len(self.board.squares) - len(marks))

    def legal_actions(self, state: BunnyState, seat: int = 0) -> Sequence[Action]:
        """Any program is legal; there are infinitely many, so none are listed."""
        return ()

    def step(self, state: BunnyState, actions: Joint) -> Step[BunnyState]:
        program = actions[0]
        if isinstance(program, Edit):
            if not 0 <= program.cursor <= _items(program.typed):
                raise IllegalAction(f"cursor {program.cursor} is outside the program")
            return Step(replace(state, typed=program.typed, cursor=program.cursor, path=None), (), ())
        if not isinstance(program, Program):
            raise IllegalAction(f"an action is a program or an edit, not {type(program).__name__}")
        runner = Runner(self.board, program)
        runs = state.runs + 1
        frames: list[BunnyState] = []
        stride = 1  # keep every stride-th step; doubled whenever the frames fill up
        while runner.steps < MAX_STEPS and runner.step():
            if runner.steps % stride == 0:
                frames.append(snapshot(runner, program, runs, RUNNING))
                if len(frames) >= 4 * MAX_FRAMES:
                    frames = frames[1::2]
                    stride *= 2
        if runner.status == RUNNING:  # still running at the step limit
            runner.status = LIMIT
        final = snapshot(runner, program, runs, runner.status)
        if frames:
            frames.pop()  # the last frame is the final state itself
        kept = _thin(frames, MAX_FRAMES - 1)
        event = Event(final.summary(), runner.status, 0, (runner.pos,))
        return Step(final, (event,), tuple(kept) + (final,) if frames or runner.steps else ())

    def outcome(self, state: BunnyState) -> Outcome:
        if state.complete and state.program is not None:
            return Outcome(Result.WON, BunnyCause.COMPLETE, 0, numbers=(state.program.tokens,))
        return PLAYING

    def observation(self, state: BunnyState, seat: int = 0) -> str:
        return draw(self.board, state.marks, (state.pos, state.heading))

    def encode_action(self, action: Action) -> str:
        if isinstance(action, Edit):
            return f"{EDIT_PREFIX}{action.cursor}:{format_program(action.typed)}"
        return format_program(action)

    def decode_action(self, text: str) -> Action:
        stripped = text.strip()
        if stripped.startswith(EDIT_PREFIX):
            cursor, _, typed = stripped[len(EDIT_PREFIX):].partition(":")
            if not cursor.isdigit() or len(cursor) > 9:
                raise ProgramError(0, f"an edit reads {EDIT_PREFIX}CURSOR:PROGRAM, got '{echo(stripped)}'")
            edit = Edit(parse_program(typed), int(cursor))
            if edit.cursor > _items(edit.typed):
                raise ProgramError(0, f"cursor {edit.cursor} is outside the program")
            return edit
        return parse_program(text)

    def format_log(self, steps: Sequence[Joint]) -> str:
        """Programs run, in order, separated by ` ; `."""
        return LOG_SEPARATOR.join(self.encode_action(joint[0]) for joint in steps)

    def parse_log(self, text: str, start: BunnyState | None = None) -> list[dict[int, Action]]:
        """The inverse of `format_log`; an empty text is no runs. Errors name the run.
        Every run starts from S and the board plays on after a complete one, so any
        program may follow any other: no replay from `start` is needed to check the log."""
        if not text.strip():
            return []
        steps: list[dict[int, Action]] = []
        for index, part in enumerate(text.split(";")):
            try:
                steps.append({0: self.decode_action(part)})
            except ProgramError as exc:
                raise ValueError(f"run {index + 1} ('{echo(part.strip())}'): {exc}") from None
        return steps


def _items(program: Program) -> int:
    """How many items the editor shows for `program`: a token each, and a closing bracket
    for each loop (its opening is a token)."""

    def closings(nodes: tuple[Node, ...]) -> int:
        return sum(1 + closings(node.body) for node in nodes if isinstance(node, Loop))

    return program.tokens + closings(program.body)


def _thin(frames: list[BunnyState], limit: int) -> list[BunnyState]:
    """At most `limit` frames, evenly spaced, keeping the order."""
    if len(frames) <= limit:
        return frames
    if limit <= 0:
        return []
    stride = len(frames) / limit
    return [frames[int(i * stride)] for i in range(limit)]

def snapshot(runner: Runner, program: Program, runs: int, result: str) -> BunnyState:
    """The state a run shows at this point: a frame while RUNNING, else its end."""
    return BunnyState(
        pos=runner.pos,
        heading=runner.heading,
        marks=frozenset(runner.marks),
        program=program,
        result=result,
        steps=runner.steps,
        left=runner.left,
        runs=runs,
        path=runner.path,
        loops=runner.loops if result == RUNNING else (),
    )
