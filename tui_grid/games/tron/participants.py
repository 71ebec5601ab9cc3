"""Who is who in a Tron match on screen: the name each participant goes by, and the keys
each human steers with. Keys belong to participants, not seats: the first human player has the
arrows and the second W A S D whichever colour they drive, and a lone human may use
either set."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tui_grid.core.agents import Agent
from tui_grid.core.geometry import Direction
from tui_grid.core.players import Roster, is_program, parse_player
from tui_grid.core.text import echo
from tui_grid.games.tron.rules import TronState

#: The longest command shown as a program seat's name (longer ones go by their file name).
PROGRAM_NAME_LIMIT = 24
#: Each keyset's keys and the direction letter each steers to: player 1's, then player 2's.
ARROW_KEYS = (("up", "u"), ("down", "d"), ("left", "l"), ("right", "r"))
WASD_KEYS = (("w", "u"), ("s", "d"), ("a", "l"), ("d", "r"))


def shown_names(game: Roster, players: Sequence[str], names: Sequence[str]) -> list[str]:
    """`names` (core.players' participant names), but a program seat is named by its command
    when that is short: its file name alone would call `[red]nosuchprog[/red]` "red]" and
    `sh -c '…'` "sh -c". Two seats of one command are told apart by their number."""
    shown = list(names)
    for index, player in enumerate(players):
        command = parse_player(game, player).value or ""
        if is_program(game, player) and len(echo(command)) <= PROGRAM_NAME_LIMIT:
            shown[index] = echo(command)
    return [f"{name} ({index + 1})" if shown.count(name) > 1 else name for index, name in enumerate(shown)]


def serves(keyset: int | None, humans: Sequence[int]) -> bool:
    """Whether someone at this keyboard steers with `keyset` (None: with any), given the
    participants played by people: the first human has the arrows, the second W A S D, a
    lone human either."""
    return bool(humans) and (keyset is None or len(humans) == 1 or keyset < len(humans))


def keyset_driver(keyset: int, humans: Sequence[int]) -> int:
    """The participant a keyset (0 the arrows, 1 W A S D) steers, given the participants
    played by people (at least one): the keyset's own human with two, else the lone one."""
    return humans[keyset] if len(humans) == 2 else humans[0]


def keyset_rides(keyset: int, humans: Sequence[int], seating: Sequence[int], riding: Callable[[int], bool]) -> bool:
    """Whether the cycle a keyset steers is still riding, given the participants played by
    people (at least one), the seat of each participant this round and whether a seat rides."""
    participant = keyset_driver(keyset, humans)
    return participant not in seating or riding(seating.index(participant))


class OutTold:
    """The seats of people told in this round that their cycle is out, each told once."""

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def newly_out(self, agents: Sequence[Agent[TronState, Any]], state: TronState) -> list[int]:
        """The seats of people whose cycle is out in `state` and who were not told yet (a
        seat riding again, in a new round, is forgotten); counted as told from now on."""
        self.seats = {seat for seat in self.seats if not state.riding(seat)}
        out = [seat for seat, agent in enumerate(agents) if agent.human and not state.riding(seat) and seat not in self.seats]
        self.seats.update(out)
        return out


def keys_label(participant: int, humans: Sequence[int]) -> str:
    """The keys a participant steers with, for the legend (nothing for a bot)."""
    if participant not in humans:
        return ""
    if len(humans) == 1:
        return " (arrows/WASD)"
    return " (arrows)" if participant == humans[0] else " (WASD)"


#: Said the first time in a match a key would turn a cycle straight back into its trail.
TURN_BACK_IGNORED = "A cycle cannot turn straight back into its own trail: that key is ignored."


def turns_back(heading: Direction | None, queued: Sequence[Direction], turn: Direction) -> bool:
    """Whether `turn` points straight back from where the cycle will be heading."""
    last = queued[-1] if queued else heading
    return last is not None and turn == last.opposite
