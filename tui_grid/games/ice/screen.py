"""The Ice sliding screen: the shared shell plus how ice is drawn and hinted."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from tui_grid.core.engine import Plan
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.definition import short_route
from tui_grid.games.ice.engine import DIRECTION_NAMES
from tui_grid.games.ice.rules import IceState, slide_cells
from tui_grid.games.ice.solver import solve
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.game_screen import GameScreen, Hint
from tui_grid.ui.keys import arrow_moves, keymap
from tui_grid.core.words import plural

TILES = {" ": ("  ", "ice"), "x": ("░░", "rough"), "#": ("██", "wall"), "S": ("S ", "start"), "E": ("E ", "end")}
ARROWS = {Direction.UP: "↑ ", Direction.DOWN: "↓ ", Direction.LEFT: "← ", Direction.RIGHT: "→ "}


class IceBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    IceBoardView > .board--ice      { background: #cfe6f5; color: #5b7f99; }
    IceBoardView > .board--rough    { background: #b9a17a; color: #5e4a2c; }
    IceBoardView > .board--wall     { background: #3b4252; color: #6b7385; }
    IceBoardView > .board--start    { background: #cfe6f5; color: #1d4f91; text-style: bold; }
    IceBoardView > .board--end      { background: #2e9e5b; color: #ffffff; text-style: bold; }
    IceBoardView > .board--player   { background: #d64545; color: #ffffff; text-style: bold; }
    IceBoardView > .board--won      { background: #ffd23f; color: #000000; text-style: bold; }
    IceBoardView > .board--hint     { background: #fff3b0; color: #9a6700; text-style: bold; }
    IceBoardView > .board--target   { background: #ffd23f; color: #000000; text-style: bold; }
    IceBoardView > .board--frame    { color: #6b7385; }
    """
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("player", "won", "target", "hint", "end", "start", "wall", "rough", "ice")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS} | {"board--frame"}
    FRAMED = True  # the map's edge stops slides like a wall
    MARKERS = {"player": "@", "won": "@", "end": "E", "start": "S", "target": "*"}

    def cell(self, row: int, col: int) -> tuple[str, str]:
        board: IceBoard = self.board
        state: IceState = self.state
        pos = Pos(row, col)
        if pos == state.pos:
            return ("@ ", "won") if pos == board.end else ("@ ", "player")
        marks = self.overlay.marks
        if pos in marks:
            return marks[pos]
        return TILES[board.rows[row][col]]

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        """A whole row from the map string; only the player and hint marks need a lookup."""
        line = self.board.rows[row]
        cells = [TILES[ch] for ch in line[first:last]]
        state: IceState = self.state
        if state.pos.row == row and first <= state.pos.col < last:
            cells[state.pos.col - first] = self.cell(row, state.pos.col)
        for pos, mark in self.overlay.marks.items():
            if pos.row == row and first <= pos.col < last and pos != state.pos:
                cells[pos.col - first] = mark
        return cells

    def rows_key(self, first: int, last: int) -> Hashable | None:
        """The map is fixed for a board (`use` drops every line when it changes), so rows
        `first..last-1` differ only by the player and the hint marks on them: a slide redraws
        the lines it left and reached, not the whole 1000-row map."""
        state: IceState | None = self.state
        if state is None or self.board is None:
            return None
        pos = state.pos
        player = (pos, pos == self.board.end) if first <= pos.row < last else None
        return player, frozenset((at, mark) for at, mark in self.overlay.marks.items() if first <= at.row < last)


class IceScreen(GameScreen[IceState]):
    KEYMAP = keymap(arrow_moves({"up": "u", "down": "d", "left": "l", "right": "r"}, help_text="slide"))

    def make_board_view(self) -> BoardView:
        return IceBoardView(id="board")

    def status_text(self, state: IceState) -> str:
        outcome = self.engine.outcome(state)
        if outcome.over:
            return outcome.reason
        return f"Moves {state.moves}  ·  Distance {state.distance}"

    def focus_of(self, state: IceState) -> Pos:
        return state.pos

    def legend(self) -> str:
        return "@ you   S start   E exit   ░ rough: stops you   █ obstacle   blank: ice   → * hint: slide and stop"

    def session_changed(self, session: Any, change: Any) -> None:
        super().session_changed(session, change)
        if change.kind == "step" and not self.engine.outcome(change.state).over:
            self._check_reachable(change.state)

    def _check_reachable(self, state: IceState) -> None:
        """Say at once when the exit became unreachable, without waiting for h: a quiet
        search from here after every move (a plain BFS over stopping cells)."""
        board = self.board
        log = len(self.session.log)

        def said(reachable: bool) -> None:
            if not reachable and self.state == state and len(self.session.log) == log:
                self.say(f"The exit can no longer be reached from here: {self.next_steps()}.")

        self.run_in_worker("Checking the exit", lambda control: solve(board, state.pos, control) is not None, said, quiet=True)

    def game_over(self) -> None:
        """Say whether the route just played was optimal, from a solve of the whole map."""
        final = self.state
        log = len(self.session.log)
        start = self.engine.initial_state()

        def verdict(plan: Plan[Any]) -> None:
            if self.state != final or len(self.session.log) != log:
                return
            best = len(plan.actions)
            distance = self.engine.replay([{0: a} for a in plan.actions], start)[-1].distance
            if (final.moves, final.distance) == (best, distance):
                self.say_after_animation(f"Optimal: no route has fewer moves, or as few moves and less distance. {self.next_steps()}")
            else:
                route = short_route("".join(a.letter for a in plan.actions))
                self.say_after_animation(f"The optimal route takes {plural(best, 'move')}, distance {distance} ({route}). {self.next_steps()}")

        self.run_in_worker("Checking the route", lambda control: self.find_plan(start, control), verdict)

    def hint_from_plan(self, state: IceState, plan: Plan[Any]) -> Hint:
        if not plan.actions:
            return Hint(f"{plan.message} {self.next_steps()}.")
        first = plan.actions[0]
        cells = slide_cells(self.board, state.pos, first)
        marks = {cell: (ARROWS[first], "hint") for cell in cells[:-1]}
        marks[cells[-1]] = ("* ", "target")
        left = len(plan.actions)
        return Hint(f"Hint: slide {DIRECTION_NAMES[first]}: {left} move{'s' if left != 1 else ''} to go on the best route.", marks)
