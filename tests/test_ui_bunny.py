"""Bunny coding in the app: a program typed by keys, run and stepped; hint, solve, save and
resume; a snapshot at 80x24 (regenerate with --snapshot-update)."""

from __future__ import annotations


import pytest

from tests.conftest import make_app, settle, status
from tui_grid.games import registry


from tui_grid.games.bunny.program import parse_program
from tui_grid.games.bunny.draft import Draft, reveal_text
from tui_grid.games.bunny.screen import BunnyScreen

#: The optimal program for doodle level 4, typed: LOOP{LOOP(7){L F} F}
TWO_RINGS_KEYS = ["left_square_bracket", "left_square_bracket", "7", "l", "f", "right_square_bracket", "f"]


@pytest.fixture(autouse=True)
def bunny_setup(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(registry.get_game("bunny"), "_solutions", {})  # no answer known from another test


def message(app) -> str:
    return str(app.screen.query_one("#message").content)


def test_a_digit_after_an_inner_loop_counts_that_loop_not_the_outer_one() -> None:
    """A digit after `[[ff]` counts the inner loop just closed, not the outer one."""
    draft = Draft()
    for action in (draft.open_loop, draft.open_loop, lambda: draft.insert("F"), lambda: draft.insert("F"), draft.close_loop, lambda: draft.digit(3)):
        assert action() == ""
    assert str(draft.program()[0]) == "LOOP{LOOP(3){F F}}"
    draft.insert("R")
    assert draft.digit(2) == "" and str(draft.program()[0]) == "LOOP(2){LOOP(3){F F} R}"  # inside: its own loop


def panel(app) -> str:
    return str(app.screen.query_one("#program").content)


def test_draft_edits_keep_a_valid_program() -> None:
    draft = Draft()
    for action in (draft.open_loop, lambda: draft.digit(1), lambda: draft.digit(2), lambda: draft.insert("F"), draft.close_loop, lambda: draft.insert("R")):
        assert action() == ""
    assert str(draft.program()[0]) == "LOOP(12){F} R"
    draft.move(-1)  # just after the closing brace
    draft.backspace()  # unwraps the loop, keeping its body
    assert str(draft.program()[0]) == "F R"
    assert draft.digit(3) != ""  # no loop to count
    draft.home()
    draft.open_loop()
    draft.digit(3)
    draft.backspace()  # a count's digit goes first
    assert str(draft.program()[0]) == "LOOP{} F R"
    assert Draft.of(parse_program("LOOP{LOOP(7){L F} F}")).tokens == 5
    assert reveal_text(parse_program("LOOP{LOOP(7){L F} F}"), 3) == "LOOP{LOOP(7){L …"
    assert reveal_text(parse_program("LOOP{LOOP(7){L F} F}"), 5) == "LOOP{LOOP(7){L F} F}"


async def test_type_a_program_by_keys_and_run_it_to_complete() -> None:
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        assert "best known 5" in panel(app)
        await pilot.press("f", "f", "enter")  # too short
        assert "Not complete: 12 squares left" in status(app)
        await pilot.press("backspace", "backspace")
        await pilot.press(*TWO_RINGS_KEYS)
        assert "LOOP{" in panel(app) and "LOOP(7){" in panel(app) and "5 tokens" in panel(app)
        await pilot.press("enter")
        assert "Complete in 5 tokens" in status(app)
        assert "as short as the best known" in message(app)
        assert screen.session.over
        await pilot.press("left", "left", "backspace", "r", "enter")  # runs again after a win
        assert screen.state.runs == 3 and not screen.session.over and "Stuck in a forever loop" in status(app)  # a plain next run: the board plays on
        await pilot.press("u")  # the complete run comes back, with the program as edited since
        assert screen.session.over and str(screen.draft.program()[0]) == "LOOP{LOOP(7){L R} F}"
        await pilot.press("u", "u")  # each edit is an undo step too (Tatham-style)
        assert screen.session.over and str(screen.draft.program()[0]) == "LOOP{LOOP(7){L F} F}"
        await pilot.press("y", "y", "y")
        assert screen.state.result == "stuck" and str(screen.draft.program()[0]) == "LOOP{LOOP(7){L R} F}"


async def test_step_one_token_at_a_time_then_the_run_is_recorded() -> None:
    app = make_app("bunny", "doodle-2-corner")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        await pilot.press("left_square_bracket", "f", "r", "f", "right_square_bracket")  # LOOP{F R F}
        await pilot.press("full_stop")
        assert screen.shown.steps == 1 and screen.state.runs == 0
        assert screen.executing_index() == 1  # the first F tile is highlighted
        assert "Running: step 1" in status(app)
        await pilot.press("full_stop", "full_stop")
        assert screen.shown.steps == 3 and screen.executing_index() == 3
        await pilot.press("enter")  # runs the rest
        assert screen.state.runs == 1 and "Complete in 4 tokens" in status(app)


async def test_hint_reveals_one_token_per_press_and_solve_runs_the_program() -> None:
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        await pilot.press("h")
        await settle(pilot)
        assert screen.revealed == 1 and "5 tokens" in message(app)
        assert "Hint 1/5: LOOP{ …" in panel(app)
        await pilot.press("h")
        assert "Hint 2/5" in panel(app)
        await pilot.press("s")
        await settle(pilot)
        assert "Complete in 5 tokens" in status(app)
        assert "proven optimal" in message(app) and "best 5 (proven optimal)" in panel(app)
        await pilot.press("u")  # a solve is one undo step
        assert screen.state.runs == 0


async def test_save_and_resume_keep_the_runs(tmp_path) -> None:
    app = make_app("bunny", "doodle-1-line")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "enter", "f", "enter")
        await pilot.press("ctrl+s")
        target = tmp_path / "bunny-saved.txt"
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        assert "played: edit@1:F ; F ; edit@2:F F ; F F" in target.read_text()  # edits are moves too
    again = make_app("bunny", str(target))
    async with again.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = again.screen
        assert len(screen.session.log) == 4 and "Complete in 2 tokens" in status(again)
        assert str(screen.draft.program()[0]) == "F F"


def test_bunny_level_4_80x24(snap_compare) -> None:
    keys = [*TWO_RINGS_KEYS, "left", "left", *["full_stop"] * 6]
    assert snap_compare(make_app("bunny", "doodle-4-two-rings"), terminal_size=(80, 24), press=keys)


async def test_space_pauses_a_running_program_and_resumes_it() -> None:
    """Space holds a running program's animation and space again resumes it; help says so."""
    app = make_app("bunny", "doodle-4-two-rings", animate=True, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        await pilot.press(*TWO_RINGS_KEYS, "enter")
        assert screen.animating
        await pilot.press("space")
        held = screen.shown
        assert screen.animation_paused and "paused" in status(app)
        for _ in range(4):
            await pilot.pause(0.3)  # longer than a frame at speed 1
        assert screen.shown is held
        await pilot.press("space")
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.shown is not held:
                break
        assert screen.shown is not held and not screen.animation_paused
        assert any(key.common == "pause" for key in screen.KEYMAP.keys)  # listed in help


async def test_every_edit_is_an_undo_step_and_no_typed_program_is_lost() -> None:
    """Each edit is an undo step, and undo, redo or solve never throws a typed program
    away: undoing a solve brings back the program typed before it."""
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        await pilot.press("f", "f", "enter")
        await pilot.press("backspace", "backspace", "left_square_bracket", "2", "f", "f", "r")
        typed = str(screen.draft.program()[0])
        assert typed == "LOOP(2){F F R}"
        await pilot.press("u")  # the last edit (the r), not the run
        assert str(screen.draft.program()[0]) == "LOOP(2){F F}" and screen.state.runs == 1
        await pilot.press("y")
        assert str(screen.draft.program()[0]) == typed
        await pilot.press("s")
        await settle(pilot)
        assert "Complete in 5 tokens" in status(app) and str(screen.draft.program()[0]) != typed
        await pilot.press("u")  # the solve is one step: the typed program comes back
        assert str(screen.draft.program()[0]) == typed
        assert "edited since the last run" in panel(app)


async def test_a_typed_program_never_run_is_autosaved(tmp_path, monkeypatch) -> None:
    """`[2ffr`, q, reopen: the resume offer brings back the typed program and its cursor."""
    from tui_grid.ui.resume_dialog import ResumeDialog

    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left_square_bracket", "2", "f", "f", "r", "left")
        await pilot.press("q")
    again = make_app("bunny", "doodle-4-two-rings")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeDialog)
        await pilot.press("enter")
        screen: BunnyScreen = again.screen
        assert str(screen.draft.program()[0]) == "LOOP(2){F F R}" and screen.state.runs == 0
        assert screen.draft.cursor == 4  # where the last edit left it (a cursor move alone is no step)


def test_nested_loops_differ_in_16_colours() -> None:
    """In 16 colours each loop depth keeps a background of its own."""
    import re

    from rich.color import Color, ColorSystem

    from tui_grid.games.bunny.view import ProgramPanel

    backgrounds = dict(re.findall(r"program--(op|loop\d)\s*\{ background: (#[0-9a-f]{6})", ProgramPanel.DEFAULT_CSS))
    assert set(backgrounds) == {"op", "loop0", "loop1", "loop2"}
    standard = {name: Color.parse(colour).downgrade(ColorSystem.STANDARD).number for name, colour in backgrounds.items()}
    assert len(set(standard.values())) == 4, standard


async def test_the_hint_goes_on_from_a_typed_start_and_says_when_it_is_not_one() -> None:
    """The hint goes on from a typed start that leads to the optimum, and says when it does not."""
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left_square_bracket", "left_square_bracket", "7", "l")  # LOOP{LOOP(7){L
        await pilot.press("h")
        await settle(pilot)
        assert "Hint 4/5: LOOP{LOOP(7){L F" in panel(app)
        assert "(3 tokens) is the start of it" in message(app)
        await pilot.press("ctrl+r")
        app.screen.session.restart()
        await pilot.press("f", "h")
        await settle(pilot)
        assert "not the start of it" in message(app)


async def test_w_again_stops_a_watched_run_that_is_still_animating() -> None:
    """The solver's run is one step, so the watch ends while the run still plays on screen:
    a second w then stops the animation rather than starting the watch over."""
    app = make_app("bunny", "doodle-4-two-rings", animate=True, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        await pilot.press("w")
        for _ in range(200):
            await pilot.pause(0.05)
            if not screen.watching and screen.state.runs:
                break
        assert screen.state.runs == 1 and screen.animating
        await pilot.press("w")
        assert not screen.animating and not screen.watching
        assert message(app) == "Stopped watching." and screen.state.runs == 1
        assert "Complete in 5 tokens" in status(app)


async def test_a_board_no_program_can_complete_says_so_at_once(tmp_path) -> None:
    """A board with a square no hop reaches says at once that no program can complete it,
    marks that square, and the hint says so too."""
    board = tmp_path / "cut.txt"
    board.write_text("S##  #\n")
    app = make_app("bunny", str(board))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert message(app) == "No program can complete this board: 1 square cannot be reached from S (marked)."
        assert app.screen.view.marked == frozenset({(0, 5)})
        assert "no program completes this board" in panel(app)  # not "best known ?  (h asks the solver)"
        await pilot.press("h")
        await settle(pilot)
        assert message(app) == "No program completes this board: some squares cannot be reached."


async def test_a_long_program_shows_the_lines_around_the_cursor_and_its_counts() -> None:
    """A long program shows the lines around the cursor in the panel's four lines, with
    the cursor and the token count always in view."""
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        screen.editor.draft = Draft.of(parse_program("[2" + "flr" * 40 + "]ffff"))  # as typed (typing takes seconds)
        await pilot.press("end")
        lines = panel(app).splitlines()
        assert len(lines) == 4 and lines[0].startswith("… ") and "▏" in lines[2]  # the cursor, at the end
        assert lines[3].startswith("125 tokens")
        await pilot.press("home")
        lines = panel(app).splitlines()
        assert lines[0].startswith("Program ▏LOOP(2){") and lines[2].endswith(" …") and lines[3].startswith("125 tokens")


async def test_a_program_typed_after_a_complete_run_is_kept_on_quit(tmp_path) -> None:
    """A program typed after a solve completed the board is autosaved on quit: Bunny plays
    on after its end, so its game is not dropped as finished."""
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await settle(pilot)
        assert app.screen.session.over
        await pilot.press("f", "f", "f", "q")
    again = make_app("bunny", "doodle-4-two-rings")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # resume
        assert str(again.screen.draft.program()[0]) == "LOOP{LOOP(7){L F} F} F F F"  # the solved program, then fff


async def test_after_the_end_bunny_names_its_own_restart_key(tmp_path) -> None:
    """After the end Bunny names ctrl+r as its restart key: r types the R token there."""
    board = tmp_path / "cut.txt"
    board.write_text("S##  #\n")
    app = make_app("bunny", str(board))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await settle(pilot)
        assert message(app).endswith("ctrl+r restarts · n makes a new board."), message(app)


async def test_nested_loops_in_a_long_program_never_wrap_the_count_away() -> None:
    """With 30 nested loops every line, '… ' included, fits the panel's width, so none
    wraps and the token count stays in the panel."""
    app = make_app("bunny", "doodle-6-halo")
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        screen.editor.draft = Draft.of(parse_program("[3f" * 30 + "]" * 30))
        await pilot.press("end")
        widget = app.screen.query_one("#program")
        lines = panel(app).splitlines()
        assert len(lines) == 4 and lines[3].startswith("60 tokens") and "▏" in panel(app)
        assert all(len(line) <= widget.content_size.width for line in lines[:3])
