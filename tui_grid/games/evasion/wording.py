"""What the Evasion screen says in words: a round's end, the walls' news of a step, and a
bot's action offered as a hint in the keys that would play it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui_grid.core.engine import Event
from tui_grid.core.outcome import Fault
from tui_grid.games.evasion.engine import HUNTER, EvasionEngine, State
from tui_grid.games.evasion.role_keys import DIRECTION_NAMES, PREY_KEY_OF


def round_report(state: State, *, seating: Sequence[int], names: Sequence[str], index: int, outcome: str,
                 summary: str, verdict: str | None, steerable: bool) -> str:
    """The message when round `index` (from 0) ends in `state`. `seating[seat]` is the
    participant in that seat, `names` theirs; `outcome` the round's end in words, `summary`
    the match so far; `verdict` the match's once it is finished (else None); `steerable`:
    enter starts the next round here (else the server starts it)."""
    if state.caught_at is not None:
        what = f"{names[seating[HUNTER]]} caught the prey at step {state.caught_at}"
    elif state.forfeit is not None and state.forfeit[1].fault is Fault.CONCEDED:
        who = names[seating[state.forfeit[0]]]
        what = f"Round {index + 1}: {outcome} by {who} at step {state.tick}"
    else:
        what = f"{outcome} (step {state.tick})"
    what = what[:1].upper() + what[1:]  # "you caught" starts the line
    if verdict is not None:
        return f"{what}. {verdict} esc goes back."  # the verdict may run past 2 lines
    if not steerable:  # online: the server starts the next round and says when
        return f"{what}. So far: {summary}. Round {index + 2} swaps the roles."
    return f"{what}. So far: {summary}. enter plays round {index + 2}: the roles swap."


def event_note(event: Event, human_hunts: bool, hunter: str) -> str:
    """A step's wall news worth a note: a refused wall (whoever hunts), a built one (to a
    human hunter, who asked for it); "" for any other event. `hunter`: its player's name."""
    if event.kind == "refused":
        who = "your" if human_hunts else f"{hunter}'s"
        return f"Refused {who} wall: {event.text}"
    if event.kind == "built" and human_hunts:
        return event.text[:1].upper() + event.text[1:] + "."  # "Wall 0 95 299 95 built."
    return ""


def hint_text(engine: EvasionEngine, state: State, seat: int, action: Any) -> str:
    """A bot's action for `seat`, in words and keys."""
    if seat == HUNTER:
        parts = [f"remove wall {state.walls[r].text() if isinstance(r, int) else r.text()} (tab, ⌫)" for r in action.remove]
        if action.build is not None:
            parts.append("build a horizontal wall now (j)" if action.build == "h" else "build a vertical wall now (k)")
        wait = engine.build_wait(state)
        return "hunter: " + (", ".join(parts) if parts else f"no wall yet (wall {'ready' if wait == 0 else f'in {wait}'})")
    velocity = action.velocity or state.prey_velocity
    if velocity == (0, 0):
        return f"prey: stay where you are ({PREY_KEY_OF[velocity]})"
    return f"prey: go {DIRECTION_NAMES[velocity]} ({PREY_KEY_OF[velocity]})"
