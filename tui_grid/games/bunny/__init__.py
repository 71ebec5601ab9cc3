"""Bunny coding ("Coding for Carrots"): write the shortest loop program that marks every square.

Headless parts (no textual): `board` (boards, parsing, drawing), `program` (model,
parser, printer), `interpreter` (step-by-step runs), `solver` (the proven-shortest
program), `engine` (the engine protocol), `generator` (random boards) and `baseline`
(the plain search the benchmark compares against).

For the command line: `solve_record(board, time_limit, control)` is one `solve --json`
line, and `run_report(board, program_text)` is what `run --program` prints.
"""

from tui_grid.games.bunny.board import BunnyBoard, draw, make_board, parse_bunny
from tui_grid.games.bunny.interpreter import Runner, run, run_report
from tui_grid.games.bunny.program import Loop, Op, Program, ProgramError, format_program, parse_program
from tui_grid.games.bunny.solver import Solution, solve, solve_record

__all__ = [
    "BunnyBoard",
    "Loop",
    "Op",
    "Program",
    "ProgramError",
    "Runner",
    "Solution",
    "draw",
    "format_program",
    "make_board",
    "parse_bunny",
    "parse_program",
    "run",
    "run_report",
    "solve",
    "solve_record",
]
