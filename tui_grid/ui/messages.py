"""Messages the shell shows about a game's end, written once."""

from __future__ import annotations

from typing import Any

from tui_grid.core.session import Session
from tui_grid.games.registry import GameDefinition


def next_steps(session: Session[Any, Any], restart_key: str = "r") -> str:
    """What the player can do after the game ended: only what this session offers, with
    the game's own restart key (Bunny's is ctrl+r: r types a token there)."""
    options = []
    if session.can_undo:
        options.append("u undoes")
    if session.undo_allowed:
        options.append(f"{restart_key} restarts")
    options.append("n makes a new board")
    return " · ".join(options)


def game_over(game: GameDefinition, session: Session[Any, Any], restart_key: str = "r") -> str:
    """How the game ended, in the game's words (`GameDefinition.describe_outcome`), and
    what comes next."""
    said = game.describe_outcome(session.outcome)
    return f"{said}. {next_steps(session, restart_key)}."


def title(game: GameDefinition, loaded: Any) -> str:
    """A game screen's title: the game, the board, and its id when that says more."""
    text = f"{game.title} — {loaded.title}"
    if loaded.game_id and loaded.game_id != loaded.title:
        text += f"  [{loaded.game_id}]"
    return text
