"""The Jimmy screen: ghosts step, then Jimmy; trail, danger cells and no-escape explanations."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.geometry import Direction, Pos
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.bound import border_distance
from tui_grid.games.jimmy.engine import NAMES
from tui_grid.games.jimmy.rules import JimmyState, Outcome, play, step_ghosts
from tui_grid.games.jimmy.solver import survive
from tui_grid.ui.board_view import BoardView
from tui_grid.core.table import Hint
from tui_grid.ui.puzzle_screen import PuzzleScreen
from tui_grid.ui.keys import arrow_moves, keymap
from tui_grid.core.words import plural

#: Seconds the hint gives the longest-line search before showing its first answer, and
#: then the most it keeps improving that line in the background (and in nodes).
QUICK_LINE_SECONDS = 1.0
ANYTIME_SECONDS = 20.0
ANYTIME_NODES = 5_000_000
ARROWS = {Direction.UP: "↑ ", Direction.DOWN: "↓ ", Direction.LEFT: "← ", Direction.RIGHT: "→ "}


class JimmyBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    JimmyBoardView > .board--floor  { background: #20242c; color: #4a5160; }
    JimmyBoardView > .board--exit   { background: #1f7a45; color: #a6e3bd; }
    JimmyBoardView > .board--solid  { background: #5c6370; color: #8b93a3; }
    JimmyBoardView > .board--trail  { background: #3a3350; color: #a99be0; }
    JimmyBoardView > .board--jimmy  { background: #f2b90c; color: #000000; text-style: bold; }
    JimmyBoardView > .board--ghost  { background: #e05d6f; color: #ffffff; text-style: bold; }
    JimmyBoardView > .board--danger { background: #4b2630; color: #e05d6f; }
    JimmyBoardView > .board--hint   { background: #fff3b0; color: #9a6700; text-style: bold; }
    JimmyBoardView > .board--line   { background: #31405a; color: #9ec1ff; }
    JimmyBoardView > .board--doom   { background: #ff2d55; color: #ffffff; text-style: bold reverse; }
    JimmyBoardView > .board--free   { background: #2e9e5b; color: #ffffff; text-style: bold; }
    """
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("doom", "free", "jimmy", "ghost", "hint", "line", "danger", "trail", "exit", "solid", "floor")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS}
    MARKERS = {"doom": "X", "free": "o", "jimmy": "o", "ghost": "g"}

    def __init__(self) -> None:
        super().__init__(id="board")
        self._cache_key: object = None
        self._ghost_counts: Counter[Pos] = Counter()
        self._danger: frozenset[Pos] = frozenset()

    def _prepare(self) -> None:
        """Ghost counts and next-step cells, computed once per shown state, not per cell."""
        state: JimmyState = self.state
        if self._cache_key is state:
            return
        self._cache_key = state
        ghosts = state.ghosts
        if state.outcome is Outcome.CAUGHT and state.moves == 0 and self.board is not None:
            ghosts = self.board.ghosts  # caught before any move: show where they start, and their step
        self._ghost_counts = Counter(ghosts)
        if state.outcome is Outcome.PLAYING or ghosts is not state.ghosts:
            self._danger = frozenset(step_ghosts(ghosts, state.jimmy))
        else:
            self._danger = frozenset()

    def cell(self, row: int, col: int) -> tuple[str, str]:
        self._prepare()
        board: JimmyBoard = self.board
        state: JimmyState = self.state
        pos = Pos(row, col)
        ghosts = self._ghost_counts.get(pos, 0)
        if pos == state.jimmy:
            if state.outcome is Outcome.CAUGHT:
                return ("X ", "doom")
            return ("o ", "free" if state.outcome is Outcome.ESCAPED else "jimmy")
        if ghosts:
            return ("g " if ghosts == 1 else f"{min(ghosts, 9)} ", "ghost")
        marks = self.overlay.marks
        if pos in marks:
            return marks[pos]
        if pos in self._danger:
            return ("× ", "danger")
        if pos in board.solid:
            return ("██", "solid")
        if pos in state.visited:
            return ("· ", "trail")
        if board.is_border(pos):
            return ("░░", "exit")
        return ("  ", "floor")


class JimmyScreen(PuzzleScreen[JimmyState]):
    KEYMAP = keymap(arrow_moves({"up": "U", "down": "D", "left": "L", "right": "R"}))
    VIEW = JimmyBoardView
    BEST_UNIT = "move"
    _best = 0  # moves of the longest line shown by the hint so far

    def solve_value(self, engine: Any, state: JimmyState) -> int | None:
        """The escape's length in Jimmy's moves: escaping is the puzzle, a shorter escape the score."""
        return state.moves if state.outcome is Outcome.ESCAPED else None

    def optimum(self, board: JimmyBoard, value: int, control: SearchControl) -> int | None:
        """Known only when this escape is as short as the border is near (jimmy.bound):
        the solver proves that an escape exists, not the shortest one."""
        return value if border_distance(board) == value else None

    def on_mount(self) -> None:
        # GameScreen.on_mount runs too (handlers run along the class hierarchy).
        if self.session.over and not self.session.log and self.state.outcome is Outcome.CAUGHT:
            self.say(f"{self.game.describe_outcome(self.session.outcome)} before the first move: g is where the ghosts start, × their first step.")

    def status_text(self, state: JimmyState) -> str:
        outcome = self.engine.outcome(state)
        if outcome.over:
            return self.game.describe_outcome(outcome)
        ghosts = len(state.ghosts)
        return f"Moves {state.moves}  ·  {ghosts} ghost{'s' if ghosts != 1 else ''}"

    def focus_of(self, state: JimmyState) -> Pos:
        return state.jimmy

    def legend(self) -> str:
        return "o Jimmy  g ghost  × ghost's next step  · trail  ░ border: escape  █ solid  ↑ hint  ◦ ! longest line, its end  X caught"

    # --- the hint: the answer at once, then a line that keeps improving (anytime) -----------
    def action_hint(self) -> None:
        self.interrupt()
        if self.refuse_when_over():
            return
        state = self.state

        def quick(control: Any) -> Plan[Any]:
            control.seconds = QUICK_LINE_SECONDS  # the answer now; the longest line comes later
            return self.find_plan(state, control)

        self.run_in_worker("Hint", quick, lambda plan: self._first_hint(state, plan))

    def _first_hint(self, state: JimmyState, plan: Plan[Any]) -> None:
        if state != self.state:
            return
        hint = self.hint_from_plan(state, plan)
        if plan.info.get("escape") or plan.info.get("proven"):
            self.show_hint(state, hint)
            return
        self._best = len(plan.actions)
        self.show_hint(state, Hint(f"{hint.message} Searching for a longer line (up to {ANYTIME_SECONDS:g} s)…", hint.marks))
        board = self.board

        def longer(control: Any) -> Any:
            def better(path: tuple[Any, ...]) -> None:
                self.app.call_from_thread(self._longer_line, state, path)

            return survive(board, state, control, budget_nodes=ANYTIME_NODES, seconds=ANYTIME_SECONDS, on_better=better)

        self.run_in_worker("Longer line", longer, lambda line: self._last_line(state, line), quiet=True)

    def _longer_line(self, state: JimmyState, path: tuple[Any, ...]) -> None:
        if state != self.state or self.hint is None or len(path) <= self._best:
            return
        self._best = len(path)
        hint = self.hint_from_plan(state, Plan(path, "", {"escape": False}))
        self.show_hint(state, Hint(f"{hint.message} Still searching…", hint.marks))

    def _last_line(self, state: JimmyState, line: Any) -> None:
        if state != self.state or self.hint is None:
            return
        hint = self.hint_from_plan(state, Plan(line.path, "", {"escape": False}))
        found = "no line lasts longer" if line.proven else f"the longest found in {ANYTIME_SECONDS:g} s"
        self.show_hint(state, Hint(f"{hint.message} ({found})", hint.marks))

    def hint_from_plan(self, state: JimmyState, plan: Plan[Any]) -> Hint:
        if plan.info.get("escape"):
            first = plan.actions[0]
            target = state.jimmy.step(first)
            return Hint(f"Hint: go {NAMES[first]}: an escape still exists ({plural(len(plan.actions), 'move')}).", {target: (ARROWS[first], "hint")})
        marks: dict[Pos, tuple[str, str]] = {}
        current = state
        for direction in plan.actions:
            turn = play(self.board, current, direction)
            if turn is None:
                break
            current = turn.state
            marks[current.jimmy] = ("◦ ", "line")
        if current.outcome is Outcome.CAUGHT:
            marks[current.jimmy] = ("! ", "doom")
        end = current.reason or "the line ends"
        return Hint(f"No escape from here. The longest line lasts {plural(len(plan.actions), 'move')}, then {end}.", marks)
