"""The Ice sliding screen: the shared shell plus how ice is drawn and hinted."""

from __future__ import annotations

from typing import Any

from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.geometry import Pos
from tui_grid.core.session import ChangeKind
from tui_grid.games.ice.definition import short_route
from tui_grid.games.ice.engine import DIRECTION_NAMES, IceEngine
from tui_grid.games.ice.board import IceBoard
from tui_grid.games.ice.rules import IceState, is_won, slide_cells
from tui_grid.games.ice.solver import solve
from tui_grid.core.table import Hint
from tui_grid.core.words import plural
from tui_grid.games.ice.view import ARROWS, IceBoardView
from tui_grid.ui.keys import arrow_moves, keymap
from tui_grid.ui.puzzle_screen import PuzzleScreen

class IceScreen(PuzzleScreen[IceState]):
    KEYMAP = keymap(arrow_moves({"up": "u", "down": "d", "left": "l", "right": "r"}, help_text="slide"))
    VIEW = IceBoardView
    BEST_UNIT = "slide"

    def solve_value(self, engine: IceEngine, state: IceState) -> int | None:
        """Slides to the exit: the solver's optimum counts slides first."""
        return state.moves if is_won(engine.board, state) else None

    def optimum(self, board: IceBoard, value: int, control: SearchControl) -> int | None:
        """The fewest slides from S, by the solver's breadth-first search."""
        solution = solve(board, None, control)
        return None if solution is None else solution.moves

    def status_text(self, state: IceState) -> str:
        outcome = self.engine.outcome(state)
        if outcome.over:
            return self.game.describe_outcome(outcome)
        return f"Moves {state.moves}  ·  Distance {state.distance}"

    def focus_of(self, state: IceState) -> Pos:
        return state.pos

    def legend(self) -> str:
        return "@ you   S start   E exit   ░ rough: stops you   █ obstacle   blank: ice   → * hint: slide and stop"

    def session_changed(self, session: Any, change: Any) -> None:
        super().session_changed(session, change)
        if change.kind is ChangeKind.STEP and not self.engine.outcome(change.state).over:
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
