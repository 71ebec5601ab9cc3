"""Jimmy and the ghosts as the CLI and the app see it: loading, JSON answers, generation, help."""

from __future__ import annotations

import argparse
import random
from typing import Any

from tui_grid.core.boardfile import BoardText
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import UsageError
from tui_grid.core.geometry import Direction
from tui_grid.games.jimmy.board import JimmyBoard, parse_jimmy
from tui_grid.games.jimmy.generator import game_id, generate, parse_game_id
from tui_grid.games.jimmy.rules import initial_state, play
from tui_grid.games.jimmy.solver import solve, survive
from tui_grid.games.registry import GameDefinition, NewGameField, parse_count, parse_seed, parse_size_option

HELP = """\
# Jimmy and the ghosts

Jimmy `o` must reach the edge of the board before the ghosts `g` catch him.

Each turn:

1. **Every ghost steps first**, one cell toward Jimmy. A ghost in a different column
   from Jimmy steps sideways toward his column; a ghost in his column steps up or down
   toward him. Ghosts fly through solids `#` and may share a cell.
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
| `#` | solid |
| `·` | his trail: visited cells he cannot re-enter |
| `░` | border cell: reach one to escape |
| `×` | where a ghost will step next: he cannot go there |
| `↑` | a hint: a move that still leads to an escape |
| `∙` `!` | no escape: the longest line, and where it ends |

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

LETTERS = {Direction.UP: "U", Direction.DOWN: "D", Direction.LEFT: "L", Direction.RIGHT: "R"}


class JimmyGame(GameDefinition):
    key = "jimmy"
    title = "Jimmy and the ghosts"
    tagline = "Reach the border before the ghosts catch you."
    screen_path = "tui_grid.games.jimmy.screen:JimmyScreen"
    new_game_fields = (
        NewGameField("size", "Size (WxH)", "10x10"),
        NewGameField("ghosts", "Ghosts", "3"),
        NewGameField("escape", "Escapable", "yes", choices=("yes", "no", "any")),
    )

    def parse(self, text: BoardText) -> JimmyBoard:
        return parse_jimmy(text)

    def board_rows(self, board: JimmyBoard) -> tuple[str, ...]:
        return board.rows()

    def board_from_id(self, text: str) -> JimmyBoard:
        try:
            width, height, ghosts, escape, seed = parse_game_id(text)
            return generate(width, height, ghosts, escape, seed)
        except ValueError as exc:
            raise UsageError(f"{text}: {exc}") from None

    def game_id_from_fields(self, values: dict[str, str], seed: int) -> str:
        width, height = parse_size_option(values.get("size", ""))
        ghosts = parse_count("ghosts", values.get("ghosts", ""))
        escape_text = values.get("escape", "any")
        if escape_text not in ("yes", "no", "any"):
            raise UsageError(f"escape must be yes, no or any, got {escape_text!r}")
        escape = {"yes": True, "no": False, "any": None}[escape_text]
        try:
            text = game_id(width, height, ghosts, escape, seed)
            parse_game_id(text)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return text

    def solve_record(self, board: JimmyBoard, control: SearchControl | None = None) -> dict[str, Any]:
        result = solve(board, control=control)
        if not result.escape:
            return {"escape": False, "path": None}
        return {"escape": True, "path": [LETTERS[d] for d in result.path]}

    def solve_drawing(self, board: JimmyBoard, record: dict[str, Any]) -> str:
        moves, summary = self._line(board, record)
        grid = [list(row) for row in board.rows()]
        state = initial_state(board)
        for direction in moves:
            turn = play(board, state, direction)
            if turn is None:
                break
            grid[state.jimmy.row][state.jimmy.col] = direction.arrow
            state = turn.state
        if state.jimmy != board.jimmy or not moves:
            grid[state.jimmy.row][state.jimmy.col] = "O" if record["escape"] else "X"
        return "\n".join(["".join(row) for row in grid] + [summary])

    def watch_frames(self, board: JimmyBoard, record: dict[str, Any]) -> list[str]:
        moves, summary = self._line(board, record)
        state = initial_state(board)
        frames = [self._frame(board, state, "start")]
        for direction in moves:
            turn = play(board, state, direction)
            if turn is None:
                break
            state = turn.state
            frames.append(self._frame(board, state, f"move {LETTERS[direction]}"))
        frames[-1] += "\n" + summary
        return frames

    @staticmethod
    def _line(board: JimmyBoard, record: dict[str, Any]) -> tuple[list[Direction], str]:
        """The moves to show: the escape, or else the longest survival line found."""
        if record["escape"]:
            moves = [Direction.from_letter(letter) for letter in record["path"]]
            return moves, f"escape in {len(moves)} moves: {''.join(record['path']) or '(already on the border)'}"
        line = survive(board)
        return list(line.path), f"no escape; the longest line lasts {len(line.path)} moves, then {line.end.reason}"

    @staticmethod
    def _frame(board: JimmyBoard, state, what: str) -> str:
        """Seed characters, with `*` for his trail."""
        grid = [list(row.replace("o", ".").replace("g", ".")) for row in board.rows()]
        for cell in state.visited:
            grid[cell.row][cell.col] = "*"
        for ghost in state.ghosts:
            grid[ghost.row][ghost.col] = "g"
        grid[state.jimmy.row][state.jimmy.col] = "o"
        status = {"PLAYING": "", "ESCAPED": " — escaped", "CAUGHT": f" — caught: {state.reason}"}[state.outcome.name]
        return "\n".join("".join(row) for row in grid) + f"\n{what}: moves {state.moves}{status}"

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", default="10x10", metavar="WxH", help="board size (default 10x10)")
        parser.add_argument("--ghosts", default="3", metavar="N", help="number of ghosts (default 3)")
        parser.add_argument("--escape", default="any", choices=("yes", "no", "any"), help="ask for an escapable board or not (default any)")
        parser.add_argument("--seed", default=None, metavar="S", help="random seed (default: a new one)")

    def generate_id(self, args: argparse.Namespace) -> str:
        seed = parse_seed(args.seed) if args.seed is not None else random.randrange(1, 1_000_000)
        return self.game_id_from_fields({"size": args.size, "ghosts": args.ghosts, "escape": args.escape}, seed)

    def generated_meta(self, board: JimmyBoard) -> dict[str, str]:
        record = self.solve_record(board)
        return {"size": f"{board.width}x{board.height}", "escape": "yes" if record["escape"] else "no"}

    def help_markdown(self) -> str:
        return HELP


GAME = JimmyGame()
