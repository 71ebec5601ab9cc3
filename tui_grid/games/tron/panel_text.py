"""The lines around Tron's arena: the title, the legend under the board and the status
line. Plain text from plain values, so it is checked without a screen."""

from __future__ import annotations

from collections.abc import Sequence

from tui_grid.core.text import clip
from tui_grid.games.tron.board import LETTERS, SEAT_NAMES
from tui_grid.games.tron.participants import keys_label

#: The longest board name or game id the title shows: a long one never hides who plays.
TITLE_PART_LIMIT = 32


def title(board_title: str, game_id: str, names: Sequence[str], seating: Sequence[int]) -> str:
    """The board and who drives which colour (`names` of the participants, `seating` the
    participant in each seat), then the map's game id when it has one of its own (a random
    map's), to make it again."""
    if len(seating) > 2:
        text = f"Tron — {clip(board_title, TITLE_PART_LIMIT)}  ·  {len(seating)} cycles, last one riding wins"
    else:
        red, green = names[seating[0]], names[seating[1]]
        text = f"Tron — {clip(board_title, TITLE_PART_LIMIT)}  ·  R {red}  vs  G {green}"
    if game_id and game_id != board_title:
        text += f"  ·  {clip(game_id, TITLE_PART_LIMIT)}"
    return text


def legend(names: Sequence[str], seating: Sequence[int], humans: Sequence[int], steerable: bool,
           points: Sequence[int] = ()) -> str:
    """Who drives which colour, and with which keys when a human does (`humans`: the
    participants played by people), then the glyphs; where the clock is this screen's
    (`steerable`), its keys too. In an arena each driver's `points` follow their name."""
    keys = "  ◆ hint  │  space pause  . step  +/- speed" if steerable else ""
    if len(seating) > 2:
        drivers = "  ".join(f"{LETTERS[seat].upper()}{TRAIL_GLYPHS[seat]} {names[participant]}{keys_label(participant, humans)}"
                            + (f" {points[participant]}" if points else "") for seat, participant in enumerate(seating))
        return f"{drivers}{'  (points)' if points else ''}\n█ wall  X crash{keys}"
    red, green = (names[seating[seat]] + keys_label(seating[seat], humans) for seat in (0, 1))
    marks = "░ red  ▒ green  █ wall  X crash" + keys
    return f"R red: {red}   G green: {green}\n{marks}"


def who_drives(humans: Sequence[int], seating: Sequence[int]) -> str:
    """The colour each person drives this round, for the countdown (seats turn every
    round): "You drive green (G)." for one, each keyset's colour for two."""
    seats = [seating.index(person) for person in humans if person in seating]
    colours = [f"{SEAT_NAMES[seat]} ({LETTERS[seat].upper()})" for seat in seats]
    if len(colours) == 1:
        return f"You drive {colours[0]}."
    return f"The arrows drive {colours[0]}, W A S D {colours[1]}." if len(colours) == 2 else ""


#: Each seat's trail glyph (as the board view draws it), for the arena's legend.
TRAIL_GLYPHS = ("░", "▒", "▓", ":", "+", "=", "~", "*")
assert len(TRAIL_GLYPHS) == len(SEAT_NAMES)


def status(round_index: int, over: bool, rounds: int, tick: int, score: str, paused: bool) -> str:
    """Round, tick and score, then PAUSED when `paused`. `round_index` is the number of
    rounds recorded: a round still on is the one after them, a round `over` the last."""
    number = min(round_index + (0 if over else 1), rounds)
    parts = [f"round {max(1, number)}/{rounds}", f"tick {tick}", score]
    if paused:
        parts.append("PAUSED")
    return " · ".join(parts)
