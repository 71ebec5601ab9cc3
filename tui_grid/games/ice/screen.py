"""The Ice sliding screen: the shared shell plus how ice is drawn, moved and hinted."""

from __future__ import annotations

from dataclasses import replace

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.rules import IceState, initial_state, is_won, play, slide_cells
from tui_grid.games.ice.solver import solve
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.game_screen import GameScreen, Hint, Plan, Played

TILES = {" ": ("  ", "ice"), "x": ("░░", "rough"), "#": ("██", "wall"), "S": ("S ", "start"), "E": ("E ", "end")}
ARROWS = {Direction.UP: "↑ ", Direction.DOWN: "↓ ", Direction.LEFT: "← ", Direction.RIGHT: "→ "}
DIRECTION_NAMES = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left", Direction.RIGHT: "right"}


class IceBoardView(BoardView):
    COMPONENT_CLASSES = {f"board--{kind}" for kind in ("ice", "rough", "wall", "start", "end", "player", "won", "hint", "target")}

    def __init__(self, screen: IceScreen) -> None:
        super().__init__(id="board")
        self.game_screen = screen

    def cell(self, row: int, col: int) -> tuple[str, str]:
        screen = self.game_screen
        board: IceBoard = screen.board
        state: IceState = screen.shown
        pos = Pos(row, col)
        if pos == state.pos:
            return ("@ ", "won") if pos == board.end else ("@ ", "player")
        hint = screen.hint
        if hint is not None and pos in hint.marks:
            return hint.marks[pos]
        return TILES[board.rows[row][col]]


class IceScreen(GameScreen[IceState]):
    def make_board_view(self) -> BoardView:
        return IceBoardView(self)

    def grid_size(self) -> tuple[int, int]:
        return self.board.width, self.board.height

    def initial_state(self, board: IceBoard) -> IceState:
        return initial_state(board)

    def play(self, state: IceState, direction: Direction) -> Played[IceState] | str:
        after = play(self.board, state, direction)
        if after is None:
            return f"Can't slide {DIRECTION_NAMES[direction]}: something is in the way."
        cells = slide_cells(self.board, state.pos, direction)
        frames = tuple(
            replace(after, pos=cell, distance=state.distance + index + 1) for index, cell in enumerate(cells[:-1])
        )
        return Played(after, frames)

    def is_over(self, state: IceState) -> bool:
        return is_won(self.board, state)

    def over_message(self, state: IceState) -> str:
        return f"Solved in {state.moves} moves"

    def status_text(self, state: IceState) -> str:
        if self.is_over(state):
            return f"Solved in {state.moves} moves (distance {state.distance})"
        return f"Moves {state.moves}  ·  Distance {state.distance}"

    def focus_of(self, state: IceState) -> Pos:
        return state.pos

    def legend(self) -> str:
        return "@ you   S start   E exit   ░ rough: stops you   █ obstacle   blank: ice"

    def find_plan(self, state: IceState, control: SearchControl) -> Plan:
        solution = solve(self.board, state.pos, control)
        if solution is None:
            return Plan((), "E cannot be reached from here — undo (u) or restart (r).")
        return Plan(solution.route, f"Optimal from here: {solution.moves} moves, distance {solution.distance} ({solution.route_string()}).")

    def find_hint(self, state: IceState, control: SearchControl) -> Hint:
        solution = solve(self.board, state.pos, control)
        if solution is None:
            return Hint("E cannot be reached from here — undo (u) or restart (r).")
        first = solution.route[0]
        cells = slide_cells(self.board, state.pos, first)
        marks = {cell: (ARROWS[first], "hint") for cell in cells[:-1]}
        marks[cells[-1]] = ("* ", "target")
        left = solution.moves
        return Hint(f"Hint: slide {DIRECTION_NAMES[first]} — {left} move{'s' if left != 1 else ''} to go on the best route.", marks)
