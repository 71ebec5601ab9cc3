"""What a match screen says at a round's end and before a player leaves: words only."""

from __future__ import annotations

from typing import Any

from tui_grid.core.match import Match
from tui_grid.core.outcome import Outcome
from tui_grid.games.registry import GameDefinition


def round_over(game: GameDefinition, match: Match[Any, Any], outcome: Outcome, steerable: bool) -> str:
    """The round's end in the game's words (its players named), the score, and what comes
    next: the verdict once the match is over; nothing more where a server runs the match
    (it says what comes next); else the key for the next round."""
    said = game.describe_outcome(outcome, [match.score.names[p] for p in match.seating])
    if match.finished:
        return f"{said}. {game.match_verdict(match.score)[1]}"
    score = match.score.summary()
    if not steerable:
        return f"{said}. Score: {score}."
    return f"{said}. Score: {score}. enter plays round {match.round_index + 1} (seats swap)."


def leaving_loses(match: Match[Any, Any], local: bool, you: int | None = None) -> str:
    """What leaving a match costs: a local match is lost, not saved; one run elsewhere goes
    to the others (all but `you`), at any moment of it, unless nobody has moved yet: then
    it is aborted and counts for nobody."""
    score = match.score
    if local:
        return f"A match is not saved: this one ({score.summary()}) is lost."
    session = match.session
    if not (session is not None and session.log) and not any(r.steps for r in score.rounds):
        return "Nobody has moved yet: leaving now aborts the match, and it counts for nobody."
    others = [name for index, name in enumerate(score.names) if index != you]
    return f"Leaving now hands the match to {' and '.join(others)}, at any moment of it."
