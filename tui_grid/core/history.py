"""Undo and redo over immutable states, shared by every game session."""

from __future__ import annotations

from typing import Generic, TypeVar

S = TypeVar("S")


class History(Generic[S]):
    """A linear timeline of states; a new state after an undo drops the redo branch."""

    def __init__(self, initial: S) -> None:
        self._states: list[S] = [initial]
        self._index = 0

    @property
    def present(self) -> S:
        return self._states[self._index]

    @property
    def initial(self) -> S:
        return self._states[0]

    @property
    def can_undo(self) -> bool:
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        return self._index < len(self._states) - 1

    def push(self, state: S) -> None:
        del self._states[self._index + 1 :]
        self._states.append(state)
        self._index += 1

    def undo(self) -> S | None:
        if not self.can_undo:
            return None
        self._index -= 1
        return self.present

    def redo(self) -> S | None:
        if not self.can_redo:
            return None
        self._index += 1
        return self.present

    def restart(self) -> S:
        """Back to the first state as an undoable step, like Tatham's restart."""
        if self.present != self._states[0]:
            self.push(self._states[0])
        return self.present
