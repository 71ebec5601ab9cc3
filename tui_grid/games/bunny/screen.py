"""The Bunny coding screen: the shared shell plus a program editor.

The player types a program (f l r, [ digits ], backspace, cursor keys); enter runs it as
one session step (animated token by token), `.` steps through it one token at a time and,
at its end, records the run like enter does. Hint reveals the solver's optimal program
one token per press; solve shows and runs it.

Keys: `r` is the R token here, so the common restart moves to ctrl+r.
"""

from __future__ import annotations

from typing import Any, Callable

from textual.app import ComposeResult

from tui_grid.core.geometry import Pos
from tui_grid.games.bunny.definition import APP_TIME_LIMIT, BunnyGame, plan_message
from tui_grid.games.bunny.engine import BunnyState, Edit
from tui_grid.games.bunny.interpreter import RUNNING, Runner
from tui_grid.games.bunny.program import Program
from tui_grid.games.bunny.solver import Solution
from tui_grid.games.bunny.draft import CLOSE, Draft, reveal_text
from tui_grid.core.words import plural
from tui_grid.games.bunny.view import BunnyBoardView, ProgramPanel
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.puzzle_screen import PuzzleScreen
from tui_grid.ui.keys import Key, keymap

#: Most frames one run animates (the engine already caps them); esc skips to the end.
MAX_ANIMATION_FRAMES = 240


OWN_KEYS = (
    Key("f", "token('F')", "Token", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r"),
    Key("l", "token('L')", "Token L", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r", show=False),
    Key("r", "token('R')", "Token R", "insert a token: f hop forward (F), l turn left (L), r turn right (R)", display="f l r", show=False),
    Key("left_square_bracket", "open_loop", "Loop", "open a loop; digits then set its count (none: forever)", display="["),
    *(
        Key(str(d), f"digit({d})", "Count", "type the count of the loop the cursor is in (or of the loop just closed)", display="0-9", show=False)
        for d in range(10)
    ),
    Key("right_square_bracket", "close_loop", "Close", "close the loop: the cursor steps out of it", display="]"),
    Key("backspace", "backspace", "Delete", "delete before the cursor (a count's digit, a token; a LOOP keeps its body)", display="⌫"),
    Key("delete", "delete", "Delete after", "delete after the cursor", display="del", show=False),
    Key("left", "cursor(-1)", "Cursor", "move the cursor through the program", display="◀▶"),
    Key("right", "cursor(1)", "Cursor right", "move the cursor through the program", display="◀▶", show=False),
    Key("home", "home", "Start/end", "cursor to the start / end of the program", display="home end", show=False),
    Key("end", "end", "End", "cursor to the start / end of the program", display="home end", show=False),
    Key("enter", "run", "Run", "run the program from S, animated (after a complete run too: try a shorter one)", display="enter"),
    Key("full_stop", "step_token", "Step", "step: execute one more token (the last step records the run)", display="."),
    Key("ctrl+r", "restart", "Restart", "restart: an empty program on the board before any run (u brings your program back); r is the R token", show=False, common="restart"),
)

COMMON_KEYS = ("undo", "redo", "new", "hint", "solve", "watch", "pause", "faster", "slower", "zoom", "save", "still", "help", "back", "quit")


def typed_prefix(draft: Draft, best: Program) -> int | None:
    """How many tokens of `best` the typed program already is, when it is the start of it
    (open loops still to be closed are fine); None when it is not."""
    items = list(draft.items)
    while items and items[-1] == CLOSE:
        items.pop()  # brackets typed in pairs: the closings still ahead of the cursor
    if Draft.of(best).items[: len(items)] != items:
        return None
    return sum(1 for item in items if item != CLOSE)


class BunnyScreen(PuzzleScreen[BunnyState]):
    KEYMAP = keymap(OWN_KEYS, COMMON_KEYS)
    game: BunnyGame

    def game_started(self) -> None:
        super().game_started()
        self.draft = Draft()
        self._load_draft(self.session.state)
        self.stepper: Runner | None = None
        self.solution: Solution | None = self.game.known_solution(self.loaded.board)
        self.revealed = 0
        self._skip_upto = 0

    def compose(self) -> ComposeResult:
        self.panel = ProgramPanel(id="program")
        for widget in super().compose():
            yield widget
            if widget is self.view:
                yield self.panel

    def on_mount(self) -> None:
        # GameScreen.on_mount runs too: Textual calls the handler of every class in the MRO.
        self.panel.show(self)
        self._say_if_unwinnable()

    def _say_if_unwinnable(self) -> None:
        """A board with squares no hop reaches opens saying so, those squares marked: it
        must not look as if it could be won."""
        if self.board.cut_off:
            cells = tuple(sorted((pos.row, pos.col) for pos in self.board.cut_off))
            self.say(f"No program can complete this board: {plural(len(cells), 'square')} cannot be reached from S (marked).", cells)

    # --- the session ---------------------------------------------------------------------------
    def session_changed(self, session: Any, change: Any) -> None:
        if change.kind != "step":
            super().session_changed(session, change)
            if change.kind in ("undo", "redo", "load", "restart"):
                self._load_draft(change.state)
            self.stepper = None
            self._show_panel()
            return
        if change.state.typed is not None:  # an edit (a run clears `typed`): nothing to animate
            self._load_draft(change.state)
            self.display_state(change.state)
            return
        self.hint = None
        self.stepper = None
        frames = [frame for step in change.steps for frame in step.frames if frame.steps > self._skip_upto]
        if len(frames) > MAX_ANIMATION_FRAMES:
            stride = len(frames) / MAX_ANIMATION_FRAMES
            frames = [frames[int(i * stride)] for i in range(MAX_ANIMATION_FRAMES - 1)] + [frames[-1]]
        state: BunnyState = change.state
        self._load_draft(state)
        self.message = ""  # said when the animation reaches the end, not before
        self.run_frames(frames, state)
        self.say_after_animation(self._after_run(state))

    def _load_draft(self, state: BunnyState) -> None:
        """The editor shows what the state says was typed (or last run), cursor included."""
        program = state.editing
        if program is None:
            program = Program(())
        if self.draft.program()[0] != program:
            self.draft = Draft.of(program)
        if state.cursor is not None:
            self.draft.cursor = min(state.cursor, len(self.draft.items))

    def _after_run(self, state: BunnyState) -> str:
        if not state.complete:
            return "Edit the program and press enter to run it again; . steps through it."
        best = self.best_tokens()
        tokens = state.program.tokens if state.program is not None else 0
        if best is None:
            return "Complete! Can it be shorter? Edit and press enter; h reveals the optimal program."
        if tokens > best:
            return f"Complete! The best known program has {best} tokens: try a shorter one (h for a hint)."
        if tokens == best:
            return f"Complete with {tokens} tokens: as short as the best known program."
        return f"Complete with {tokens} tokens: shorter than the best known {best}!"

    def display_state(self, state: BunnyState) -> None:
        super().display_state(state)
        self._show_panel()

    def _show_panel(self) -> None:
        if self.is_mounted:
            self.panel.show(self)

    def _run_program(self, program: Program, skip: int = 0) -> None:
        """Record a run in the session (one undo step); after a complete run the board
        plays on, so a shorter program simply runs next."""
        self._skip_upto = skip
        try:
            reason = self.session.submit(0, program)
        finally:
            self._skip_upto = 0
        if reason:
            self.say(reason)

    # --- editing ---------------------------------------------------------------------------------
    def _edit(self, change: Callable[[Draft], str]) -> None:
        """Apply one edit to a copy of the draft: a change of the program is a session step
        (an undo step, kept in the autosave); a cursor move is only the editor's."""
        self.stop_watching()
        self.finish_animation()
        if self.stepper is not None:
            self.stepper = None
            self.display_state(self.state)
        trial = self.draft.copy()
        error = change(trial)
        typed = trial.program()[0]
        if typed != self.draft.program()[0]:
            self.session.submit(0, Edit(typed, trial.cursor))
        self.draft = trial
        self.message = error
        self.show_status()
        self._show_panel()

    def action_token(self, kind: str) -> None:
        self._edit(lambda draft: draft.insert(kind))

    def action_open_loop(self) -> None:
        self._edit(Draft.open_loop)

    def action_close_loop(self) -> None:
        self._edit(Draft.close_loop)

    def action_digit(self, value: int) -> None:
        self._edit(lambda draft: draft.digit(value))

    def action_backspace(self) -> None:
        self._edit(Draft.backspace)

    def action_delete(self) -> None:
        self._edit(Draft.delete)

    def action_cursor(self, delta: int) -> None:
        self._edit(lambda draft: draft.move(delta))

    def action_home(self) -> None:
        self._edit(Draft.home)

    def action_end(self) -> None:
        self._edit(Draft.end)

    # --- running -------------------------------------------------------------------------------
    def action_run(self) -> None:
        self.interrupt()
        program, _ = self.draft.program()
        if not program.body:
            self.say("Type a program first: f l r insert tokens, [ ] make a loop.")
            return
        stepper = self.stepper
        skip = stepper.steps if stepper is not None and stepper.program == program else 0
        self._run_program(program, skip)

    def action_step_token(self) -> None:
        self.stop_watching()
        self.cancel_solver()
        if self.finish_animation():
            return
        program, _ = self.draft.program()
        if not program.body:
            self.say("Type a program first: f l r insert tokens, [ ] make a loop.")
            return
        if self.stepper is None or self.stepper.program != program:
            self.stepper = Runner(self.board, program)
        runner = self.stepper
        if runner.step():
            shown = BunnyState(
                pos=runner.pos,
                heading=runner.heading,
                marks=frozenset(runner.marks),
                program=program,
                result=RUNNING,
                steps=runner.steps,
                left=runner.left,
                runs=self.state.runs,
                path=runner.path,
                loops=runner.loops,
            )
            token = program.node_at(runner.path) if runner.path is not None else None
            self.message = f"Step {runner.steps}: {token}.  . steps on, enter runs the rest."
            self.display_state(shown)
            if not runner.done:
                return
        self._run_program(program, runner.steps)

    def executing_index(self) -> int | None:
        """The draft index of the token the shown frame just executed, if any."""
        state: BunnyState = self.shown
        if state.path is None or state.program is None or state.result != RUNNING:
            return None
        program, index_of = self.draft.program()
        if program != state.program:
            return None
        return index_of.get(state.path)

    def loop_counts(self) -> dict[int, int]:
        """While a run is shown: the draft index of each loop around the token just run,
        and which iteration it is in."""
        state: BunnyState = self.shown
        if state.path is None or state.program is None or state.result != RUNNING or not state.loops:
            return {}
        program, index_of = self.draft.program()
        if program != state.program:
            return {}
        return {index_of[state.path[: depth + 1]]: count for depth, count in enumerate(state.loops) if state.path[: depth + 1] in index_of}

    # --- what the panel says ---------------------------------------------------------------------
    def best_tokens(self) -> int | None:
        if self.solution is not None and self.solution.program is not None and self.solution.proven_optimal:
            return self.solution.tokens
        known = self.game.best_known(self.loaded)
        if self.solution is not None and self.solution.program is not None:
            return min(known, self.solution.tokens) if known is not None else self.solution.tokens
        return known

    def counts_text(self) -> str:
        tokens = self.draft.tokens
        parts = [f"{tokens} token{'s' if tokens != 1 else ''}"]
        solution = self.solution
        published = self.game.best_known(self.loaded)
        if solution is not None and solution.program is not None:
            proof = "proven optimal" if solution.proven_optimal else "best found, not proven"
            parts.append(f"best {solution.tokens} ({proof})")
        elif solution is not None or self.board.cut_off:
            parts.append("no program completes this board")  # not "best known ?": h has nothing to find
        elif published is not None:
            parts.append(f"best known {published}")
        else:
            parts.append("best known ?  (h asks the solver)")
        state: BunnyState = self.state
        if state.runs and state.typed is not None and state.typed != state.program:
            parts.append("edited since the last run")
        return "  ·  ".join(parts)

    def hint_text(self) -> str:
        if not self.revealed or self.solution is None or self.solution.program is None:
            return ""
        program = self.solution.program
        return f"Hint {self.revealed}/{program.tokens}: {reveal_text(program, self.revealed)}"

    # --- hint, solve, watch ------------------------------------------------------------------------
    def _with_solution(self, then: Callable[[Solution], None], what: str) -> None:
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
            self.say(solution.message or "No program completes this board.")
            return
        total = solution.program.tokens
        proof = "proven optimal" if solution.proven_optimal else "best found, not proven"
        typed = typed_prefix(self.draft, solution.program)
        if typed is None:
            self.revealed = min(total, self.revealed + 1)
            start = "Your program is not the start of it: the hint shows it from the beginning. " if self.draft.tokens else ""
        else:
            self.revealed = min(total, max(self.revealed, typed) + 1)
            start = f"What you typed ({plural(typed, 'token')}) is the start of it, so the hint goes on from there. " if typed else ""
        more = "h shows one more token." if self.revealed < total else "That is all of it: type it in, or s runs it."
        self.say(f"The best program has {total} tokens ({proof}). {start}{more}")
        self._show_panel()

    def action_solve(self) -> None:
        self.interrupt()
        self._with_solution(self._play_solution, "Solving")

    def _play_solution(self, solution: Solution) -> None:
        if solution.program is None:
            self.say(solution.message or "No program completes this board.")
            return
        self.revealed = solution.program.tokens
        self.draft = Draft.of(solution.program)
        self.stepper = None
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
    def make_board_view(self) -> BoardView:
        return BunnyBoardView(id="board")

    def status_text(self, state: BunnyState) -> str:
        text = state.summary()
        if state.runs and state.result != RUNNING:
            text += f"  ·  run {state.runs}"
        return text

    def focus_of(self, state: BunnyState) -> Pos:
        return state.pos

    def legend(self) -> str:
        return "▶▼◀▲ bunny   · square to mark   O marked   S start   blank: void"
