"""Ice sliding as the CLI and the app see it: loading, JSON answers, generation, help."""

from __future__ import annotations

from typing import Any, Mapping

from tui_grid.core.words import plural
from tui_grid.core.boardfile import BoardText
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.errors import UsageError
from tui_grid.core.geometry import parse_route
from tui_grid.games.ice.board import IceBoard, parse_ice
from tui_grid.games.ice.engine import IceEngine
from tui_grid.games.ice.generator import check_request, game_id, generate, parse_game_id
from tui_grid.games.ice.rules import IceState, slide_cells
from tui_grid.games.ice.solver import solve
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
# Ice sliding

Get from **S** to **E** in the fewest slides.

- A move picks a direction and keeps sliding over ice until something stops it.
- You stop **on** a rough tile `x` or on the exit `E`, and **before** an obstacle `#`
  or the edge of the map.
- The start `S` is ice too: sliding across it does not stop you.
- A direction that cannot move you at all is not a move.
- The best route has the fewest moves; among those, the fewest tiles slid over.

| Glyph | Meaning |
|---|---|
| `@` | you |
| `S` | start (ice) |
| `E` | exit |
| `░` | rough tile `x`: you stop on it |
| `█` | obstacle `#` |
| blank | ice |
| `→` `*` | a hint: the next slide and where it stops |

The status line counts moves and the distance slid. *Hint* marks the next optimal
slide from where you stand, or says when the exit can no longer be reached.
*Solve* plays the optimal route from here; *watch* plays it one slide at a time.
*New* makes a random solvable map of the size you ask for whose optimal route needs
at least the number of moves you ask for; its game id (such as `ice:16x12:m10#seed42`)
makes the same map again, in the app or with `tui-grid play ice ID`.
"""

class IceGame(BoardFiles, Generated, Solvable, GameDefinition):
    key = "ice"
    order = 20
    demo_scenes = (
        DemoScene("Ice: the optimal route", "ice:20x12:m10#seed{seed}",
                  "Proven optimal: no route to E takes fewer slides (then fewer tiles)."),
    )
    title = "Ice sliding"
    tagline = "Reach the exit in the fewest slides."
    screen_path = "tui_grid.games.ice.screen:IceScreen"
    options = (
        GameOption("size", "Size (WxH)", "16x12", "map size", metavar="WxH"),
        GameOption("min_moves", "Min. moves", "8", "least optimal move count", metavar="N"),
    )
    spoiler_keys = ("route", "moves", "distance", "note")

    def help_markdown(self) -> str:
        return HELP

    def make_engine(self, loaded: LoadedBoard) -> IceEngine:
        return IceEngine(loaded.board)

    # --- board files ------------------------------------------------------------------------
    def parse(self, text: BoardText) -> IceBoard:
        return parse_ice(text)

    def board_rows(self, board: IceBoard) -> tuple[str, ...]:
        return board.rows

    def preview_rows(self, board: IceBoard) -> tuple[str, ...]:
        return tuple(row.replace(" ", "·") for row in board.rows)

    def file_meta(self, board: IceBoard, meta: dict[str, str]) -> dict[str, str]:
        return {**meta, "size": f"{board.width}x{board.height}"}

    # --- generator --------------------------------------------------------------------------
    def board_from_id(self, text: str, control: SearchControl | None = None) -> IceBoard:
        try:
            width, height, min_moves, seed = parse_game_id(text)
            return generate(width, height, min_moves, seed, control)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def check_game_id(self, game_id: str) -> None:
        with usage_errors():
            check_request(*parse_game_id(game_id)[:3])

    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        width, height = parse_size_option(values.get("size", ""))
        return game_id(width, height, parse_count("min moves", values.get("min_moves", "")), seed)

    def generated_meta(self, board: IceBoard) -> dict[str, str]:
        record = self.solve_record(IceEngine(board), None)
        return {
            "route": record["path"] or "none",
            "moves": str(record.get("moves", "")),
            "distance": str(record.get("distance", "")),
        }

    # --- solver -----------------------------------------------------------------------------
    def solve_record(self, engine: IceEngine, state: IceState | None, control: SearchControl | None = None, **_: Any) -> dict[str, Any]:
        solution = solve(engine.board, None if state is None else state.pos, control)
        if solution is None:
            return {"solvable": False, "path": None}
        return {"solvable": True, "path": solution.route_string(), "moves": solution.moves, "distance": solution.distance}

    def solve_drawing(self, engine: IceEngine, state: IceState, record: dict[str, Any], control: SearchControl | None = None) -> str:
        board = engine.board
        grid = [list(row) for row in board.rows]
        pos = state.pos
        for direction in parse_route(record["path"] or ""):
            cells = slide_cells(board, pos, direction)
            for cell in cells[:-1]:
                if grid[cell.row][cell.col] == " ":
                    grid[cell.row][cell.col] = direction.arrow
            pos = cells[-1]
            if grid[pos.row][pos.col] in " x":
                grid[pos.row][pos.col] = "*"
        return _framed(grid, _summary(record))

    def plan(self, engine: IceEngine, state: IceState, seat: int, control: SearchControl) -> Plan:
        solution = solve(engine.board, state.pos, control)
        if solution is None:
            return Plan((), UNREACHABLE)
        return Plan(solution.route, f"Optimal from here: {plural(solution.moves, 'move')}, distance {solution.distance} ({short_route(solution.route_string())}).")

    def draw(self, engine: IceEngine, state: IceState) -> str:
        grid = [list(row) for row in engine.board.rows]
        grid[state.pos.row][state.pos.col] = "@"
        return _framed(grid, f"moves {state.moves}, distance {state.distance}")


UNREACHABLE = "E cannot be reached from here."
ROUTE_SHOWN = 40


def short_route(route: str) -> str:
    """A route for a message line: long ones are cut, so the message keeps its place."""
    return route if len(route) <= ROUTE_SHOWN else f"{route[:ROUTE_SHOWN]}… {len(route) - ROUTE_SHOWN} more"


def _framed(grid: list[list[str]], caption: str) -> str:
    """The map inside a +--+ frame, so ice at the edges stays visible in a terminal."""
    border = "+" + "-" * len(grid[0]) + "+"
    return "\n".join([border, *(f"|{''.join(row)}|" for row in grid), border, caption])


def _summary(record: dict[str, Any]) -> str:
    if not record["solvable"]:
        return "unsolvable: E cannot be reached from S"
    return f"{plural(record['moves'], 'move')}, distance {record['distance']}: {record['path']}"


GAME = IceGame()
