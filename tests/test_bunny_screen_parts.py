"""The UI-free parts of Bunny's screen: what it says (screen_text), the editor kept in
step with the session (editor), the frames a run animates and stepping (running)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tui_grid.core.engine import Step
from tui_grid.core.geometry import Pos
from tui_grid.core.session import Session
from tui_grid.core.agents import HumanAgent
from tui_grid.games.bunny import screen_text as text
from tui_grid.games.bunny.board import make_board
from tui_grid.games.bunny.draft import Draft
from tui_grid.games.bunny.editor import EditorActions, ProgramEditor
from tui_grid.games.bunny.engine import BunnyEngine, BunnyState, Edit
from tui_grid.games.bunny.interpreter import COMPLETE, RUNNING
from tui_grid.games.bunny.program import Program, parse_program
from tui_grid.games.bunny.running import StepThrough, frames_to_show, step_text
from tui_grid.games.bunny.solver import Solution

CORNER = make_board(["S##", "  #", "  #"])
FIVE = parse_program("[[7lf]f]")  # LOOP{LOOP(7){L F} F}: 5 tokens


def solution(program: str | None, proven: bool = True, message: str = "") -> Solution:
    return Solution(parse_program(program) if program is not None else None, proven, 0.0, message)


def state(**fields: object) -> BunnyState:
    return replace(BunnyEngine(CORNER).initial_state(), **fields)  # type: ignore[arg-type]


def typed(keys: str) -> Draft:
    """A draft as typed: f l r tokens, [ and ] brackets, digits a loop's count."""
    draft = Draft()
    for key in keys:
        if key in "flr":
            draft.insert(key.upper())
        elif key == "[":
            draft.open_loop()
        elif key == "]":
            draft.close_loop()
        else:
            draft.digit(int(key))
    return draft


# --- screen_text ------------------------------------------------------------------------------------
def test_best_tokens_prefers_a_proven_optimum_else_the_smaller_known() -> None:
    assert text.best_tokens(None, None) is None
    assert text.best_tokens(None, 7) == 7
    assert text.best_tokens(solution(None), 7) == 7  # no program: the published count stands
    assert text.best_tokens(solution("fff", proven=True), 2) == 3  # proven: the optimum, whatever is published
    assert text.best_tokens(solution("fff", proven=False), 2) == 2
    assert text.best_tokens(solution("fff", proven=False), 9) == 3
    assert text.best_tokens(solution("fff", proven=False), None) == 3


def test_after_run_text_compares_the_run_with_the_best() -> None:
    assert text.after_run_text(state(result="stuck"), 3).startswith("Edit the program and press enter")
    done = state(result=COMPLETE, program=parse_program("fff"))
    assert text.after_run_text(done, None).startswith("Complete! Can it be shorter?")
    assert text.after_run_text(done, 2) == "Complete! The best known program has 2 tokens: try a shorter one (h for a hint)."
    assert text.after_run_text(done, 3) == "Complete with 3 tokens: as short as the best known program."
    assert text.after_run_text(done, 4) == "Complete with 3 tokens: shorter than the best known 4!"


def test_counts_text_names_the_best_size_or_why_there_is_none() -> None:
    fresh = state()
    assert text.counts_text(1, None, None, False, fresh) == "1 token  ·  best known ?  (h asks the solver)"
    assert text.counts_text(0, None, 6, False, fresh) == "0 tokens  ·  best known 6"
    assert text.counts_text(2, solution("fff"), 6, False, fresh) == "2 tokens  ·  best 3 (proven optimal)"
    assert text.counts_text(2, solution("fff", proven=False), None, False, fresh) == "2 tokens  ·  best 3 (best found, not proven)"
    assert text.counts_text(2, solution(None), None, False, fresh).endswith("no program completes this board")
    assert text.counts_text(2, None, 6, True, fresh).endswith("no program completes this board")  # cut off: h has nothing to find
    edited = state(runs=1, program=parse_program("f"), typed=parse_program("f f"))
    assert text.counts_text(2, None, 6, False, edited).endswith("  ·  edited since the last run")
    assert "edited" not in text.counts_text(1, None, 6, False, replace(edited, typed=parse_program("f")))


def test_hint_text_shows_the_revealed_tokens() -> None:
    assert text.hint_text(solution("[[7lf]f]"), 0) == ""
    assert text.hint_text(None, 2) == ""
    assert text.hint_text(solution(None), 2) == ""
    assert text.hint_text(solution("[[7lf]f]"), 2).startswith("Hint 2/5: ")


def test_typed_prefix_counts_the_tokens_of_the_best_program_typed_so_far() -> None:
    assert text.typed_prefix(Draft(), FIVE) == 0
    assert text.typed_prefix(typed("[[7l"), FIVE) == 3  # the open loops' closings are still ahead
    assert text.typed_prefix(typed("[[7lf]f"), FIVE) == 5
    assert text.typed_prefix(typed("f"), FIVE) is None


def test_reveal_goes_on_from_what_was_typed_and_stops_at_the_end() -> None:
    revealed, said = text.reveal(FIVE, True, Draft(), 0)
    assert revealed == 1 and said == "The best program has 5 tokens (proven optimal). h shows one more token."
    revealed, said = text.reveal(FIVE, False, typed("[[7"), 1)
    assert revealed == 3 and "(best found, not proven)" in said and "What you typed (2 tokens) is the start of it" in said
    revealed, said = text.reveal(FIVE, True, typed("f"), 2)
    assert revealed == 3 and "Your program is not the start of it" in said
    revealed, said = text.reveal(FIVE, True, Draft(), 4)
    assert revealed == 5 and said.endswith("That is all of it: type it in, or s runs it.")
    assert text.reveal(FIVE, True, Draft(), 5)[0] == 5


def test_an_unwinnable_board_is_named_with_its_cut_off_squares() -> None:
    assert text.unreachable_notice(frozenset()) is None
    said, cells = text.unreachable_notice(frozenset({Pos(1, 2), Pos(0, 5)}))  # type: ignore[misc]
    assert said == "No program can complete this board: 2 squares cannot be reached from S (marked)."
    assert cells == ((0, 5), (1, 2))


def test_no_program_text_uses_the_solvers_message() -> None:
    assert text.no_program_text(solution(None, message="Nope.")) == "Nope."
    assert text.no_program_text(solution(None)) == "No program completes this board."


# --- running ----------------------------------------------------------------------------------------------
def test_frames_to_show_skips_the_stepped_tokens_and_thins_evenly() -> None:
    frames = tuple(state(steps=n) for n in range(1, 11))
    steps = [Step(frames[-1], (), frames[:5]), Step(frames[-1], (), frames[5:])]
    assert frames_to_show(steps) == list(frames)
    assert [f.steps for f in frames_to_show(steps, skip_upto=7)] == [8, 9, 10]
    thinned = frames_to_show(steps, most=4)
    assert [f.steps for f in thinned] == [1, 3, 6, 10]  # evenly, the last kept


def test_stepping_runs_one_token_per_advance_and_says_which() -> None:
    program = parse_program("f f r f")
    stepping = StepThrough()
    assert not stepping.active and stepping.steps_into(program) == 0
    shown, over = stepping.advance(CORNER, program, runs=2)
    assert shown is not None and not over and stepping.active
    assert (shown.pos, shown.steps, shown.runs, shown.result) == (Pos(0, 1), 1, 2, RUNNING)
    assert step_text(shown) == "Step 1: F.  . steps on, enter runs the rest."
    assert stepping.steps_into(program) == 1 and stepping.steps_into(parse_program("f")) == 0
    stepping.advance(CORNER, program, runs=2)
    shown, _ = stepping.advance(CORNER, program, runs=2)
    assert shown is not None and step_text(shown).startswith("Step 3: R.")
    shown, over = stepping.advance(CORNER, program, runs=2)
    assert over and shown is not None and shown.pos == Pos(1, 2)  # the last token: the run is to be recorded
    assert stepping.advance(CORNER, program, runs=2) == (None, True)  # nothing more to run
    shown, _ = stepping.advance(CORNER, parse_program("r"), runs=2)  # another program starts over
    assert shown is not None and shown.steps == 1 and shown.pos == CORNER.start
    stepping.reset()
    assert not stepping.active


# --- editor -----------------------------------------------------------------------------------------------
def test_the_editor_loads_what_the_state_says_was_typed() -> None:
    editor = ProgramEditor()
    editor.load(state())
    assert editor.program == Program(()) and editor.draft.items == []
    editor.load(state(program=parse_program("f"), typed=parse_program("f [2 l]"), cursor=2))
    assert str(editor.program) == "F LOOP(2){L}" and editor.draft.cursor == 2
    editor.load(state(program=parse_program("r")))  # no edit since: the program last run
    assert str(editor.program) == "R" and editor.draft.cursor == 1
    editor.load(state(typed=parse_program("r"), cursor=99))
    assert editor.draft.cursor == 1  # held inside the program


def test_an_edit_is_submitted_only_when_it_changes_the_program() -> None:
    editor = ProgramEditor()
    submitted: list[Edit] = []
    assert editor.edit(lambda draft: draft.insert("F"), submitted.append) == ""
    assert submitted == [Edit(parse_program("f"), 1)]
    assert editor.edit(lambda draft: draft.move(-1), submitted.append) == ""
    assert len(submitted) == 1 and editor.draft.cursor == 0  # a cursor move is only the editor's
    assert editor.edit(lambda draft: draft.digit(3), submitted.append) != ""  # no loop to count
    assert len(submitted) == 1


def test_the_session_reloading_the_draft_mid_edit_keeps_the_edits_cursor() -> None:
    engine = BunnyEngine(CORNER)
    session = Session(engine, [HumanAgent("you")])
    editor = ProgramEditor()
    editor.edit(lambda draft: draft.insert("F"), lambda edit: session.submit(0, edit))
    editor.edit(lambda draft: draft.insert("L"), lambda edit: session.submit(0, edit))

    def submit(edit: Edit) -> None:
        session.submit(0, edit)
        editor.load(session.state)  # the session's news arrives during the submit

    editor.edit(Draft.home, submit)
    editor.edit(lambda draft: draft.insert("R"), submit)
    assert str(editor.program) == "R F L" and editor.draft.cursor == 1
    assert session.state.typed == editor.program and session.state.cursor == 1


def test_the_executing_token_and_loop_counts_map_onto_the_draft() -> None:
    editor = ProgramEditor()
    editor.show(parse_program("f [3 l f]"))
    program = editor.program
    frame = state(program=program, result=RUNNING, path=(1, 1), loops=(2,), steps=4)
    assert editor.executing_index(frame) == 3  # F, LOOP, L, F: the F inside the loop
    assert editor.loop_counts(frame) == {1: 2}
    assert editor.executing_index(replace(frame, result=COMPLETE)) is None
    assert editor.loop_counts(replace(frame, loops=())) == {}
    other = replace(frame, program=parse_program("f [3 l r]"))
    assert editor.executing_index(other) is None and editor.loop_counts(other) == {}


def test_editor_actions_are_one_change_of_the_draft_each() -> None:
    class Recorder(EditorActions):
        def __init__(self) -> None:
            self.draft = typed("f[2l]")
            self.draft.cursor = 2  # inside the loop, before its L
            self.said: list[str] = []

        def edit_program(self, change: Callable[[Draft], str]) -> None:
            self.said.append(change(self.draft))

    keys = Recorder()
    keys.action_token("R")
    assert str(keys.draft.program()[0]) == "F LOOP(2){R L}"
    keys.action_digit(5)
    assert str(keys.draft.program()[0]) == "F LOOP(25){R L}"
    keys.action_home()
    assert keys.draft.cursor == 0
    keys.action_delete()
    keys.action_end()
    keys.action_cursor(-1)
    keys.action_backspace()
    assert str(keys.draft.program()[0]) == "LOOP(25){R}"
    keys.action_end()
    keys.action_open_loop()
    keys.action_token("F")
    keys.action_close_loop()
    assert str(keys.draft.program()[0]) == "LOOP(25){R} LOOP{F}" and keys.draft.cursor == len(keys.draft.items)
    assert len(keys.said) == 11
