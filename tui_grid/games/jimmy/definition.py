"""Jimmy and the ghosts as the CLI and the app see it: loading, JSON answers, generation, help."""

from __future__ import annotations

from typing import Any, Mapping

from tui_grid.core.words import plural
from tui_grid.core.boardfile import BoardText
from tui_grid.core.control import OutOfTime, SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.errors import UsageError
from tui_grid.core.text import echo
from tui_grid.core.geometry import Direction
from tui_grid.games.jimmy.board import JimmyBoard, parse_jimmy
from tui_grid.games.jimmy.engine import LETTERS, JimmyEngine
from tui_grid.games.jimmy.generator import game_id, generate, parse_game_id
from tui_grid.games.jimmy.rules import JimmyState, Outcome, play
from tui_grid.games.jimmy.solver import solve, survive
from tui_grid.games.registry import (
    DemoScene,
    BoardFiles,
    GameDefinition,
    GameOption,
    Generated,
    LoadedBoard,
    Solvable,
    parse_count,
    parse_size_option,
    usage_errors,
)

HELP = """\
# Jimmy and the ghosts

Jimmy `o` must reach the edge of the board before the ghosts `g` catch him.

Each turn:

1. **Every ghost steps first**, one cell toward Jimmy. A ghost in a different column
   from Jimmy steps sideways toward his column; a ghost in his column steps up or down
   toward him. Ghosts fly through solids `█` and may share a cell.
2. If a ghost lands on Jimmy, he is **caught**.
3. Jimmy steps up, down, left or right. He cannot enter a solid, a cell a ghost is on,
   or **any cell he has already visited** — the start cell counts as visited. With no
   legal step he is caught.
4. If he now stands on a border cell, he has **escaped**. Starting on the border is an
   escape in 0 moves.

| Glyph | Meaning |
|---|---|
| `o` | Jimmy |
| `g` | a ghost (`2`…`9` when several share a cell) |
| `█` | solid (`#` in board files) |
| `·` | his trail: visited cells he cannot re-enter |
| `░` | border cell: reach one to escape |
| `×` | where a ghost will step next: he cannot go there |
| `↑` | a hint: a move that still leads to an escape |
| `◦` `!` | no escape: the longest line, and where it ends |
| `X` | Jimmy caught |

When the board is won or lost, moves stop; undo (`u`) steps back and `r` restarts.
*Hint* marks a move that still escapes, or says `No escape from here` and shows the
longest line and what ends it: the ghost that catches him, or the dead end. *Solve*
plays an escape (or the longest survival line) as one undo step; *watch* plays it move
by move. *New* makes a random board of the size, ghost count and answer you ask for;
its game id (such as `jimmy:10x10:g3:yes#seed42`) makes the same board again.

Settled by tui_grid where the original puzzle is loose: a move into a cell a ghost will
step onto is refused (the game tells you why) rather than played as a capture, and the
game ends as soon as the next ghost step would catch Jimmy or leave him no legal move.
"""

ESCAPE_CHOICES = ("any", "yes", "no")


class JimmyGame(BoardFiles, Generated, Solvable, GameDefinition):
    key = "jimmy"
    order = 10
    demo_scenes = (
        DemoScene("Jimmy: an escape among eight ghosts", "jimmy:16x12:g8:yes#seed{seed}",
                  "Searched against every step of every ghost: this escape cannot be caught."),
        DemoScene("Jimmy: no way out", "jimmy:12x10:g3:no#seed{seed}",
                  "No escape exists, proven: Jimmy plays the longest line the solver found."),
    )
    title = "Jimmy and the ghosts"
    tagline = "Reach the border before the ghosts catch you."
    screen_path = "tui_grid.games.jimmy.screen:JimmyScreen"
    options = (
        GameOption("size", "Size (WxH)", "10x10", "board size", metavar="WxH"),
        GameOption("ghosts", "Ghosts", "3", "number of ghosts", metavar="N"),
        GameOption("escape", "Escapable", "any", "ask for an escapable board or not", choices=ESCAPE_CHOICES),
    )
    spoiler_keys = ("escape", "path", "note", "source")

    def help_markdown(self) -> str:
        return HELP

    def make_engine(self, loaded: LoadedBoard) -> JimmyEngine:
        return JimmyEngine(loaded.board)

    # --- board files ------------------------------------------------------------------------
    def parse(self, text: BoardText) -> JimmyBoard:
        return parse_jimmy(text)

    def board_rows(self, board: JimmyBoard) -> tuple[str, ...]:
        return board.rows()

    # --- generator --------------------------------------------------------------------------
    def board_from_id(self, text: str, control: SearchControl | None = None) -> JimmyBoard:
        try:
            width, height, ghosts, escape, seed = parse_game_id(text)
            return generate(width, height, ghosts, escape, seed, control)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def check_game_id(self, game_id: str) -> None:
        with usage_errors():
            parse_game_id(game_id)  # checks the request too

    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        width, height = parse_size_option(values.get("size", ""))
        ghosts = parse_count("ghosts", values.get("ghosts", ""))
        escape_text = values.get("escape", "any")
        if escape_text not in ESCAPE_CHOICES:
            raise UsageError(f"escape must be yes, no or any, got '{echo(escape_text)}'")
        escape = {"yes": True, "no": False, "any": None}[escape_text]
        try:
            text = game_id(width, height, ghosts, escape, seed)
            parse_game_id(text)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return text

    def generated_meta(self, board: JimmyBoard) -> dict[str, str]:
        record = self.solve_record(JimmyEngine(board), None)
        return {"size": f"{board.width}x{board.height}", "escape": "yes" if record["escape"] else "no"}

    # --- solver -----------------------------------------------------------------------------
    def solve_record(self, engine: JimmyEngine, state: JimmyState | None, control: SearchControl | None = None, **_: Any) -> dict[str, Any]:
        result = solve(engine.board, state, control=control)
        record: dict[str, Any] = {"escape": True, "path": [LETTERS[d] for d in result.path]} if result.escape else {"escape": False, "path": None}
        if result.memory_capped:
            record["memory_capped"] = True  # exact, but the memo hit its budget (exit code 3)
        return record

    def plan(self, engine: JimmyEngine, state: JimmyState, seat: int, control: SearchControl) -> Plan:
        result = solve(engine.board, state, control)
        capped = " (The search reached its memory budget and ran without caching from there: slower, still exact.)" if result.memory_capped else ""
        if result.escape:
            return Plan(result.path, f"Escape in {plural(len(result.path), 'move')}.{capped}", {"escape": True})
        line = survive(engine.board, state, control, seconds=control.seconds)
        return Plan(
            line.path,
            f"No escape from here: playing the longest line found ({plural(len(line.path), 'move')}), which ends: {line.end.reason}.{capped}",
            {"escape": False, "proven": line.proven},
        )

    def solve_drawing(self, engine: JimmyEngine, state: JimmyState, record: dict[str, Any], control: SearchControl | None = None) -> str:
        board = engine.board
        if record["escape"]:
            moves = [Direction.from_letter(letter) for letter in record["path"]]
            summary = f"escape in {plural(len(moves), 'move')}: {''.join(record['path']) or '(already on the border)'}"
        else:
            try:
                line = survive(board, state, control, seconds=control.seconds if control is not None else None)
                moves = list(line.path)
                summary = f"no escape; the longest line lasts {plural(len(moves), 'move')}, then {line.end.reason}"
            except OutOfTime:  # proven: no escape; the longest line is what ran out of time
                moves, summary = [], "no escape (proven); the time limit ran out while looking for the longest line"
        grid = [list(row) for row in engine.observation(state).replace("o", ".").split("\n")]
        current = state
        for direction in moves:
            turn = play(board, current, direction)
            if turn is None:
                break
            grid[current.jimmy.row][current.jimmy.col] = direction.arrow
            current = turn.state
        grid[current.jimmy.row][current.jimmy.col] = "O" if current.outcome is Outcome.ESCAPED else "X" if current.over else "o"
        return "\n".join(["".join(row) for row in grid] + [summary])

    def draw(self, engine: JimmyEngine, state: JimmyState) -> str:
        outcome = engine.outcome(state)
        status = f" — {self.describe_outcome(outcome)}" if outcome.over else ""
        return engine.observation(state) + f"\nmoves {state.moves}{status}"


GAME = JimmyGame()
