"""The Jimmy screen: ghosts step, then Jimmy; trail, danger cells and no-escape explanations."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.rules import JimmyState, Outcome, initial_state, play, step_ghosts
from tui_grid.games.jimmy.solver import solve, survive
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.game_screen import GameScreen, Hint, Plan, Played

ARROWS = {Direction.UP: "↑ ", Direction.DOWN: "↓ ", Direction.LEFT: "← ", Direction.RIGHT: "→ "}
NAMES = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left", Direction.RIGHT: "right"}
KINDS = ("floor", "exit", "solid", "trail", "jimmy", "ghost", "danger", "hint", "line", "doom", "free")


class JimmyBoardView(BoardView):
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS}

    def __init__(self, screen: JimmyScreen) -> None:
        super().__init__(id="board")
        self.game_screen = screen
        self._cache_key: object = None
        self._ghost_counts: Counter[Pos] = Counter()
        self._danger: frozenset[Pos] = frozenset()

    def _prepare(self) -> None:
        """Ghost counts and next-step cells, computed once per shown state, not per cell."""
        state: JimmyState = self.game_screen.shown
        if self._cache_key is state:
            return
        self._cache_key = state
        self._ghost_counts = Counter(state.ghosts)
        if state.outcome is Outcome.PLAYING:
            self._danger = frozenset(step_ghosts(state.ghosts, state.jimmy))
        else:
            self._danger = frozenset()

    def cell(self, row: int, col: int) -> tuple[str, str]:
        self._prepare()
        screen = self.game_screen
        board: JimmyBoard = screen.board
        state: JimmyState = screen.shown
        pos = Pos(row, col)
        ghosts = self._ghost_counts.get(pos, 0)
        if pos == state.jimmy:
            if state.outcome is Outcome.CAUGHT:
                return ("X ", "doom")
            return ("o ", "free" if state.outcome is Outcome.ESCAPED else "jimmy")
        if ghosts:
            return ("g " if ghosts == 1 else f"{min(ghosts, 9)} ", "ghost")
        hint = screen.hint
        if hint is not None and pos in hint.marks:
            return hint.marks[pos]
        if pos in self._danger:
            return ("× ", "danger")
        if pos in board.solid:
            return ("██", "solid")
        if pos in state.visited:
            return ("· ", "trail")
        if board.is_border(pos):
            return ("░░", "exit")
        return ("  ", "floor")


class JimmyScreen(GameScreen[JimmyState]):
    def make_board_view(self) -> BoardView:
        return JimmyBoardView(self)

    def grid_size(self) -> tuple[int, int]:
        return self.board.width, self.board.height

    def initial_state(self, board: JimmyBoard) -> JimmyState:
        return initial_state(board)

    def play(self, state: JimmyState, direction: Direction) -> Played[JimmyState] | str:
        turn = play(self.board, state, direction)
        if turn is None:
            return self._refusal(state, direction)
        ghosts_first = replace(state, ghosts=turn.ghosts_moved)
        return Played(turn.state, (ghosts_first,))

    def _refusal(self, state: JimmyState, direction: Direction) -> str:
        board: JimmyBoard = self.board
        target = state.jimmy.step(direction)
        where = NAMES[direction]
        if not board.in_bounds(target):
            return f"Can't go {where}: that is off the board."
        if target in board.solid:
            return f"Can't go {where}: solid."
        if target in state.visited:
            return f"Can't go {where}: Jimmy has been there already."
        if target in step_ghosts(state.ghosts, state.jimmy):
            return f"Can't go {where}: a ghost steps onto that cell first."
        return f"Can't go {where}."

    def is_over(self, state: JimmyState) -> bool:
        return state.outcome is not Outcome.PLAYING

    def over_message(self, state: JimmyState) -> str:
        if state.outcome is Outcome.ESCAPED:
            return f"Escaped in {state.moves} moves"
        return f"Caught: {state.reason}"

    def status_text(self, state: JimmyState) -> str:
        if self.is_over(state):
            return self.over_message(state)
        ghosts = len(state.ghosts)
        return f"Moves {state.moves}  ·  {ghosts} ghost{'s' if ghosts != 1 else ''}"

    def focus_of(self, state: JimmyState) -> Pos:
        return state.jimmy

    def legend(self) -> str:
        return "o Jimmy   g ghost   × ghost's next step   · trail   ░ border: escape   █ solid"

    def find_plan(self, state: JimmyState, control: SearchControl) -> Plan:
        result = solve(self.board, state, control)
        if result.escape:
            return Plan(result.path, f"Escape in {len(result.path)} moves.")
        line = survive(self.board, state, control)
        return Plan(line.path, f"No escape from here; playing the longest line found ({len(line.path)} moves), which ends: {line.end.reason}.")

    def find_hint(self, state: JimmyState, control: SearchControl) -> Hint:
        result = solve(self.board, state, control)
        if result.escape:
            first = result.path[0]
            target = state.jimmy.step(first)
            return Hint(f"Hint: go {NAMES[first]} — an escape still exists ({len(result.path)} moves).", {target: (ARROWS[first], "hint")})
        line = survive(self.board, state, control)
        marks: dict[Pos, tuple[str, str]] = {}
        current = state
        for direction in line.path:
            turn = play(self.board, current, direction)
            if turn is None:
                break
            current = turn.state
            marks[current.jimmy] = ("∙ ", "line")
        end = line.end
        if end.outcome is Outcome.CAUGHT:
            marks[end.jimmy] = ("! ", "doom")
        return Hint(f"No escape from here. The longest line lasts {len(line.path)} moves, then {end.reason}.", marks)
