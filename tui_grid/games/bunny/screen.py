"""The Bunny coding screen: the shared shell plus a program editor.

The player types a program (f l r, [ digits ], backspace, cursor keys); enter runs it as
one session step (animated token by token), `.` steps through it one token at a time and,
at its end, records the run like enter does. Hint reveals the solver's optimal program
one token per press; solve shows and runs it.

Keys: `r` is the R token here, so the common restart moves to ctrl+r.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Pos
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.games.bunny import screen_text as text
from tui_grid.games.bunny.definition import APP_TIME_LIMIT, BunnyGame, plan_message
from tui_grid.games.bunny.draft import Draft
from tui_grid.games.bunny.editor import EditorActions, ProgramEditor
from tui_grid.games.bunny.board import BunnyBoard
from tui_grid.games.bunny.engine import BunnyState
from tui_grid.games.bunny.interpreter import RUNNING
from tui_grid.games.bunny.program import Program
from tui_grid.games.bunny.running import StepThrough, frames_to_show, solve_value, step_text
from tui_grid.games.bunny.solver import Solution
from tui_grid.games.bunny.view import BunnyBoardView, ProgramPanel
from tui_grid.games.bunny.keymap import COMMON_KEYS, OWN_KEYS
from tui_grid.ui.keys import keymap
from tui_grid.ui.puzzle_screen import PuzzleScreen



class BunnyScreen(EditorActions, PuzzleScreen[BunnyState]):
    KEYMAP = keymap(OWN_KEYS, COMMON_KEYS)
    VIEW = BunnyBoardView
    BEST_UNIT = "token"
    game: BunnyGame

    def solve_value(self, engine: Any, state: BunnyState) -> int | None:
        return solve_value(state)

    def optimum(self, board: BunnyBoard, value: int, control: SearchControl) -> int | None:
        """The shortest program's tokens where the solver has proven it (never searched here)."""
        known = self.game.known_solution(board)
        return known.tokens if known is not None and known.proven_optimal else None

    def game_started(self) -> None:
        super().game_started()
        self.editor = ProgramEditor()
        self.editor.load(self.session.state)
        self.stepping = StepThrough()
        self.solution: Solution | None = self.game.known_solution(self.loaded.board)
        self.revealed = 0  # tokens of the solution's program the hint shows
        self._skip_upto = 0  # tokens of the run being recorded that stepping showed already

    @property
    def draft(self) -> Draft:
        return self.editor.draft

    def compose(self) -> ComposeResult:
        self.panel = ProgramPanel(id="program")
        for widget in super().compose():
            yield widget
            if widget is self.view:
                yield self.panel

    def on_mount(self) -> None:
        # GameScreen.on_mount runs too: Textual calls the handler of every class in the MRO.
        self._draw_panel()
        self._say_if_unwinnable()

    def _say_if_unwinnable(self) -> None:
        if (notice := text.unreachable_notice(self.board.cut_off)) is not None:
            self.say(*notice)

    # --- the session ---------------------------------------------------------------------------
    def session_changed(self, session: Session[BunnyState, Any], change: Change[BunnyState]) -> None:
        state = change.state
        if change.kind is not ChangeKind.STEP:
            super().session_changed(session, change)
            if change.kind.jump:
                self.editor.load(state)
            self.stepping.reset()
            self._show_panel()
            return
        self.editor.load(state)
        if state.typed is not None:  # an edit (a run clears `typed`): nothing to animate
            self.display_state(state)
            return
        self.hint = None
        self.stepping.reset()
        self.message = ""  # said when the animation reaches the end, not before
        self.run_frames(frames_to_show(change.steps, self._skip_upto), state)
        self.say_after_animation(text.after_run_text(state, text.best_tokens(self.solution, self.game.best_known(self.loaded))))

    def display_state(self, state: BunnyState) -> None:
        super().display_state(state)
        self._show_panel()

    def _run_program(self, program: Program, skip: int = 0) -> None:
        """Record a run in the session (one undo step); after a complete run the board
        plays on, so a shorter program simply runs next. Its first `skip` tokens, shown by
        stepping, are not animated again."""
        self._skip_upto = skip
        try:
            reason = self.session.submit(0, program)
        finally:
            self._skip_upto = 0
        if reason:
            self.say(reason)

    # --- editing ---------------------------------------------------------------------------------
    def edit_program(self, change: Callable[[Draft], str]) -> None:
        """One edit from a key; it ends a watch, an animation and stepping first."""
        self.stop_watching()
        self.finish_animation()
        if self.stepping.active:
            self.stepping.reset()
            self.display_state(self.state)
        with self.bests.own():  # an edit is a step of the player's, as a run is
            self.message = self.editor.edit(change, lambda edit: self.session.submit(0, edit))
        self.show_status()
        self._show_panel()

    # --- running -------------------------------------------------------------------------------
    def action_run(self) -> None:
        self.interrupt()
        program = self.editor.program
        if not program.body:
            self.say(text.TYPE_FIRST)
            return
        with self.bests.own():
            self._run_program(program, self.stepping.steps_into(program))

    def action_step_token(self) -> None:
        self.stop_watching()
        self.cancel_solver()
        if self.finish_animation():
            return
        program = self.editor.program
        if not program.body:
            self.say(text.TYPE_FIRST)
            return
        shown, over = self.stepping.advance(self.board, program, self.state.runs)
        if shown is not None:
            self.message = step_text(shown)
            self.display_state(shown)
            if not over:
                return
        with self.bests.own():
            self._run_program(program, self.stepping.steps_into(program))

    def executing_index(self) -> int | None:
        """The draft index of the token the shown frame just executed, if any."""
        return self.editor.executing_index(self.shown)

    # --- the program panel -----------------------------------------------------------------------
    def _draw_panel(self) -> None:
        counts = text.counts_text(self.draft.tokens, self.solution, self.game.best_known(self.loaded), bool(self.board.cut_off), self.state)
        hint = text.hint_text(self.solution, self.revealed)
        self.panel.show(self.draft, self.executing_index(), self.editor.loop_counts(self.shown), counts, hint)

    def _show_panel(self) -> None:
        if self.is_mounted:  # a session's news may come before the panel is there
            self._draw_panel()

    # --- hint, solve, watch ------------------------------------------------------------------------
    def _with_solution(self, then: Callable[[Solution], None], what: str) -> None:
        """`then` gets the solver's answer: at once when known, else from a worker."""
        if self.solution is not None:
            then(self.solution)
            return
        game, board = self.game, self.board

        def found(solution: Solution) -> None:
            self.solution = solution
            then(solution)

        self.run_in_worker(what, lambda control: game.solution(board, APP_TIME_LIMIT, control), found)

    def action_hint(self) -> None:
        self.interrupt()
        self._with_solution(self._reveal_one, "Hint")

    def _reveal_one(self, solution: Solution) -> None:
        if solution.program is None:
            self.say(text.no_program_text(solution))
            return
        self.revealed, said = text.reveal(solution.program, solution.proven_optimal, self.draft, self.revealed)
        self.say(said)
        self._show_panel()

    def action_solve(self) -> None:
        self.interrupt()
        self._with_solution(self._play_solution, "Solving")

    def _play_solution(self, solution: Solution) -> None:
        if solution.program is None:
            self.say(text.no_program_text(solution))
            return
        self.revealed = solution.program.tokens
        self.editor.show(solution.program)
        self.stepping.reset()
        self._run_program(solution.program)
        self.say_after_animation(plan_message(solution))
        self._show_panel()

    def action_back(self) -> None:
        if self.animating and not self.solving and not self.watching:
            self.finish_animation()  # the run's own end message, not "skipped"
            return
        super().action_back()

    def load_board(self, loaded: Any) -> None:
        super().load_board(loaded)
        self._show_panel()
        self._say_if_unwinnable()

    # --- the hooks ---------------------------------------------------------------------------
    def status_text(self, state: BunnyState) -> str:
        summary = state.summary()
        if state.runs and state.result != RUNNING:
            summary += f"  ·  run {state.runs}"
        return summary

    def focus_of(self, state: BunnyState) -> Pos:
        return state.pos

    def legend(self) -> str:
        return "▶▼◀▲ bunny   · square to mark   O marked   S start   blank: void"
