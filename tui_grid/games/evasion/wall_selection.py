"""The hunter's selected wall: tab cycles through the walls, ⌫ removes the one selected. A
selection lasts while its wall stands on the board shown."""

from __future__ import annotations

from collections.abc import Sequence

from tui_grid.games.evasion.rules import Wall


class WallSelection:
    def __init__(self) -> None:
        self._wall: Wall | None = None

    def current(self, standing: Sequence[Wall]) -> Wall | None:
        """The selected wall if it is among `standing`; a wall gone is unselected."""
        if self._wall is not None and self._wall not in standing:
            self._wall = None
        return self._wall

    def select_next(self, walls: Sequence[Wall], shown: Sequence[Wall]) -> int | None:
        """Select the wall after the selected one in `walls` (the first when none is
        selected among `shown`, the walls on the board shown) and return its index; None
        when there are no walls."""
        if not walls:
            return None
        selected = self.current(shown)
        # The board shown may lag the live state by a step: a wall gone from it starts afresh.
        index = (walls.index(selected) + 1) % len(walls) if selected in walls else 0
        self._wall = walls[index]
        return index

    def clear(self) -> None:
        self._wall = None
