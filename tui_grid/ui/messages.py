"""Messages the shell shows about a game's end, written once."""

from __future__ import annotations

from typing import Any

from tui_grid.core.session import Session


def next_steps(session: Session[Any, Any]) -> str:
    """What the player can do after the game ended: only what this session offers."""
    options = []
    if session.can_undo:
        options.append("u undoes")
    if session.undo_allowed:
        options.append("r restarts")
    options.append("n makes a new board")
    return " · ".join(options)


def game_over(session: Session[Any, Any]) -> str:
    return f"{session.outcome.reason}. {next_steps(session)}."


def after_game(session: Session[Any, Any]) -> str:
    return next_steps(session)
