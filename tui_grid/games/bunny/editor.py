"""Bunny's program editor: the draft the player types, kept in step with the session.
A change of the program is a session action (an `Edit`: an undo step, kept in the
autosave); a cursor move is only the editor's. UI-free: the screen's keys call it."""

from __future__ import annotations

from collections.abc import Callable

from tui_grid.games.bunny.draft import Draft
from tui_grid.games.bunny.engine import BunnyState, Edit
from tui_grid.games.bunny.interpreter import RUNNING
from tui_grid.games.bunny.program import Program


class ProgramEditor:
    """The draft being typed, with its cursor, and how a shown run maps onto its tiles."""

    def __init__(self) -> None:
        self.draft = Draft()

    @property
    def program(self) -> Program:
        return self.draft.program()[0]

    def load(self, state: BunnyState) -> None:
        """Show what `state` says was typed (or last run), cursor included; a draft that
        already is that program keeps its own items."""
        program = state.editing if state.editing is not None else Program(())
        if self.program != program:
            self.draft = Draft.of(program)
        if state.cursor is not None:
            self.draft.cursor = min(state.cursor, len(self.draft.items))

    def show(self, program: Program) -> None:
        """Put `program` in the editor, the cursor at its end."""
        self.draft = Draft.of(program)

    def edit(self, change: Callable[[Draft], str], submit: Callable[[Edit], object]) -> str:
        """Apply `change` to a copy of the draft; `submit` gets the edit when the program
        changed (before the copy becomes the draft: the session's news reloads the draft
        first, and the copy's cursor is the one kept). Returns the change's error, or ""."""
        trial = self.draft.copy()
        error = change(trial)
        typed = trial.program()[0]
        if typed != self.program:
            submit(Edit(typed, trial.cursor))
        self.draft = trial
        return error

    def _running(self, shown: BunnyState) -> dict[tuple[int, ...], int] | None:
        """The draft index of each token by its path, while `shown` is a frame of a run of
        the draft's program; None otherwise."""
        if shown.path is None or shown.program is None or shown.result != RUNNING:
            return None
        program, index_of = self.draft.program()
        return index_of if program == shown.program else None

    def executing_index(self, shown: BunnyState) -> int | None:
        """The draft index of the token the frame `shown` just executed, if any."""
        index_of = self._running(shown)
        return index_of.get(shown.path) if index_of is not None and shown.path is not None else None

    def loop_counts(self, shown: BunnyState) -> dict[int, int]:
        """While a run is shown: the draft index of each loop around the token just run,
        and which iteration it is in."""
        index_of = self._running(shown) if shown.loops else None
        if index_of is None or shown.path is None:
            return {}
        path = shown.path
        return {index_of[path[: depth + 1]]: count for depth, count in enumerate(shown.loops) if path[: depth + 1] in index_of}


class EditorActions:
    """The editing keys' actions (the keymap's `token('F')`, `open_loop`, `digit(3)`...),
    each one change of the draft; the screen that mixes them in applies it."""

    def edit_program(self, change: Callable[[Draft], str]) -> None:
        raise NotImplementedError

    def action_token(self, kind: str) -> None:
        self.edit_program(lambda draft: draft.insert(kind))

    def action_open_loop(self) -> None:
        self.edit_program(Draft.open_loop)

    def action_close_loop(self) -> None:
        self.edit_program(Draft.close_loop)

    def action_digit(self, value: int) -> None:
        self.edit_program(lambda draft: draft.digit(value))

    def action_backspace(self) -> None:
        self.edit_program(Draft.backspace)

    def action_delete(self) -> None:
        self.edit_program(Draft.delete)

    def action_cursor(self, delta: int) -> None:
        self.edit_program(lambda draft: draft.move(delta))

    def action_home(self) -> None:
        self.edit_program(Draft.home)

    def action_end(self) -> None:
        self.edit_program(Draft.end)
