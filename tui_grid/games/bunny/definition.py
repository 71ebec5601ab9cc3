"""Bunny coding as the CLI and the app see it: loading, JSON answers, generation, the
`run` verb and help. An action is a whole program; the saved `played:` header lists the
programs run, separated by ` ; `."""

from __future__ import annotations

import argparse
import threading
from typing import Any, Mapping

from tui_grid.core.boardfile import BoardText
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.errors import UsageError
from tui_grid.core.words import plural
from tui_grid.games.bunny.board import BunnyBoard, draw, parse_bunny
from tui_grid.games.bunny.engine import BunnyEngine, BunnyState
from tui_grid.games.bunny.generator import check, game_id, generate, parse_game_id
from tui_grid.games.bunny.interpreter import run, run_report
from tui_grid.games.bunny.program import ProgramError, parse_program
from tui_grid.games.bunny.solver import Solution, solve, solve_record
from tui_grid.games.registry import (
    DemoScene,
    BoardFiles,
    GameDefinition,
    GameOption,
    Generated,
    LoadedBoard,
    Solvable,
    Verb,
    parse_count,
    parse_size_option,
    usage_errors,
)

#: Seconds the app's hint, solve and watch give the solver before settling for the best found.
APP_TIME_LIMIT = 20.0
#: Proven solutions kept, oldest dropped first.
MAX_REMEMBERED = 256
#: Seconds a library call of `solve_record` without a control gives the solver.
CLI_TIME_LIMIT = 60.0

HELP = """\
# Bunny coding ("Coding for Carrots")

Write the **shortest program** that takes the bunny over every square.

- The bunny starts on `S` facing east. Every square it stands on is marked (eaten).
- `F` hops one square forward; if that is void or off the board, nothing happens.
- `L` and `R` turn left and right by 90 degrees.
- `LOOP(n){...}` repeats its body n times; `LOOP{...}` repeats forever. Loops nest.
- Each `F`, `L`, `R` and `LOOP` is **one token**; loop counts are free.
- A run stops the moment every square is marked: *Complete in N tokens*. A program that
  ends first says how many squares are left, and a forever loop that stops marking new
  squares fails.

Every run starts afresh from `S`. Type the program with the keys below: `[` opens a loop
and digits right after it set its count (no count means forever); `]` steps out of the
loop. The line under the board shows the program as tiles, with the token count and the
best known count for the board (its published score, or the solver's answer once known).

*Enter* runs the program, animated, highlighting the token being executed; `.` steps
through it one token at a time. Running again after a complete run starts over (undo
brings the earlier run back). *Hint* reveals the optimal program one token more per
press; *solve* shows all of it and runs it. The solver proves its answer optimal, or
says "best found, not proven" when it runs out of time (20 s).

| Glyph | Meaning |
|---|---|
| `▶ ▼ ◀ ▲` | the bunny, facing east, south, west, north |
| `O` | a marked (eaten) square |
| `·` | a square still to mark |
| blank | void |

*New* makes a random board whose optimal program the solver proves within a fixed budget
of search positions: seconds at the shipped boards' sizes, a minute or more for a large
board with many squares (esc cancels). Its game id (such
as `bunny:8x6:n14#seed42`) makes the same board again, on any machine.
"""


class BunnyGame(BoardFiles, Generated, Solvable, GameDefinition):
    key = "bunny"
    order = 30
    demo_scenes = (
        DemoScene("Bunny: the shortest program", "bunny:8x6:n12#seed{seed}",
                  "Iterative deepening proves no shorter loop program marks every square."),
    )
    title = "Bunny coding"
    watch_frames = True  # a run is one move: watch prints each of its steps
    tagline = "Write the shortest loop program that marks every square."
    screen_path = "tui_grid.games.bunny.screen:BunnyScreen"
    options = (
        GameOption("size", "Size (WxH)", "8x6", "box the board is grown in", metavar="WxH"),
        GameOption("squares", "Squares", "14", "number of squares", metavar="N"),
    )
    spoiler_keys = ("program",)

    def __init__(self) -> None:
        self._solutions: dict[BunnyBoard, Solution] = {}
        self._lock = threading.Lock()

    def help_markdown(self) -> str:
        return HELP

    def make_engine(self, loaded: LoadedBoard) -> BunnyEngine:
        return BunnyEngine(loaded.board)

    def prepare(self) -> None:
        from tui_grid.games.bunny import kernel

        super().prepare()
        kernel.available()

    # --- board files ------------------------------------------------------------------------
    def parse(self, text: BoardText) -> BunnyBoard:
        return parse_bunny(text)

    def board_rows(self, board: BunnyBoard) -> tuple[str, ...]:
        return board.rows

    def preview_rows(self, board: BunnyBoard) -> tuple[str, ...]:
        return tuple(row.replace("#", "·") for row in board.rows)

    def file_meta(self, board: BunnyBoard, meta: dict[str, str]) -> dict[str, str]:
        return {**meta, "size": f"{board.width}x{board.height}"}

    def best_known(self, loaded: LoadedBoard) -> int | None:
        """The board's published (or generated) token count, if its header has one."""
        for key in ("published", "tokens"):
            text = loaded.meta.get(key, "")
            if text.strip().isdigit():
                return int(text)
        return None

    # --- solutions, shared by the app and the CLI ----------------------------------------------
    def solution(self, board: BunnyBoard, time_limit: float | None, control: SearchControl | None = None) -> Solution:
        """The solver's answer, remembered once proven (runs never change the board)."""
        with self._lock:
            known = self._solutions.get(board)
        if known is not None:
            return known
        found = solve(board, time_limit, control)
        if found.proven_optimal:
            self._remember(board, found)
        return found

    def _remember(self, board: BunnyBoard, solution: Solution) -> None:
        """Proven answers, for boards met again; a bounded number (a demo makes boards all day)."""
        with self._lock:
            if len(self._solutions) >= MAX_REMEMBERED:
                self._solutions.pop(next(iter(self._solutions)))
            self._solutions[board] = solution

    def known_solution(self, board: BunnyBoard) -> Solution | None:
        with self._lock:
            return self._solutions.get(board)

    # --- generator --------------------------------------------------------------------------
    def board_from_id(self, text: str, control: SearchControl | None = None) -> BunnyBoard:
        try:
            width, height, squares, seed = parse_game_id(text)
            made = generate(width, height, squares, seed, control)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self._remember(made.board, made.solution)
        return made.board

    def load_id(self, game_id: str, control: SearchControl | None = None) -> LoadedBoard:
        board = self.board_from_id(game_id, control)
        return LoadedBoard(board, game_id, game_id, game_id=game_id, meta=self.generated_meta(board))

    def check_game_id(self, game_id: str) -> None:
        with usage_errors():
            check(*parse_game_id(game_id)[:3])

    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        width, height = parse_size_option(values.get("size", ""))
        squares = parse_count("squares", values.get("squares", ""), minimum=2)
        try:
            check(width, height, squares)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return game_id(width, height, squares, seed)

    def generated_meta(self, board: BunnyBoard) -> dict[str, str]:
        known = self.known_solution(board)
        if known is None or known.program is None:
            return {}
        return {"tokens": str(known.tokens), "program": str(known.program)}

    # --- solver -----------------------------------------------------------------------------
    def solve_record(self, engine: BunnyEngine, state: BunnyState | None, control: SearchControl | None = None, **options: Any) -> dict[str, Any]:
        # Anytime: past the time limit (`--time-limit`) the best program found is the answer.
        limit = control.take_time_limit() if control is not None else CLI_TIME_LIMIT
        return solve_record(engine.board, limit, control)

    def solve_drawing(self, engine: BunnyEngine, state: BunnyState, record: dict[str, Any], control: SearchControl | None = None) -> str:
        if record["program"] is None:
            return "unsolvable: some squares cannot be reached from S"
        program = parse_program(record["program"])
        result = run(engine.board, program)
        proof = "proven optimal" if record["proven_optimal"] else "best found, not proven"
        head = f"{record['program']}\n{plural(record['tokens'], 'token')}, {proof} ({record['seconds']:g} s)"
        return head + "\n" + draw(engine.board, result.marks, (result.pos, result.heading))

    def plan(self, engine: BunnyEngine, state: BunnyState, seat: int, control: SearchControl) -> Plan:
        found = self.solution(engine.board, APP_TIME_LIMIT, control)
        if found.program is None:
            return Plan((), "No program completes this board: some squares cannot be reached.")
        return Plan((found.program,), plan_message(found))

    def draw(self, engine: BunnyEngine, state: BunnyState) -> str:
        return draw(engine.board, state.marks, (state.pos, state.heading)) + "\n" + state.summary()

    # --- verbs --------------------------------------------------------------------------------
    def verbs(self) -> tuple[Verb, ...]:
        return (Verb("run", "run a program on a board and draw what it marked", _configure_run, self._run),)

    def _run(self, args: argparse.Namespace) -> int:
        loaded = self.load(args.board)
        try:
            report, result = run_report(loaded.board, args.program)
        except ProgramError as exc:
            raise UsageError(f"--program: column {exc.column}: {exc.message}") from None
        print(report)
        return 0 if result.complete else 1


def plan_message(found: Solution) -> str:
    tokens = found.tokens
    if found.proven_optimal:
        return f"Optimal: {found.program} ({tokens} tokens, proven optimal)."
    return f"{found.program} ({tokens} tokens): best found, not proven."


def _configure_run(parser: argparse.ArgumentParser) -> None:
    parser.description = "Run a program on a board; exit status 0 when it completes the board, 1 when not."
    parser.add_argument("board", metavar="BOARD", help="file path, board name, game id, or - for stdin")
    parser.add_argument("--program", required=True, metavar="TEXT", help='the program, e.g. "LOOP{F F R}", "loop(3){ffr}" or, as the app\'s keys type it, "[3ffr]"')


GAME = BunnyGame()
