"""Between the hub and its store: a finished hosted match as the record kept of it, and
what the lobby is told of players' ratings, leaderboards and finished games (online.protocol)."""

from __future__ import annotations

from typing import Sequence

import asyncssh

from tui_grid.core.errors import UsageError
from tui_grid.core.match import Ending, MatchScore
from tui_grid.core.outcome import Fault
from tui_grid.games.registry import all_games, get_game, online_games
from tui_grid.online.protocol import BestLine, GameLine, GameRating, LeaderLine, RecordedRound, Recorded, Welcome
from tui_grid.online.ratings import Rating, provisional
from tui_grid.online.records import Best, MatchRecord, MatchSummary, Participant, RoundRecord, StoredMatch, Store

#: Endings that, before anyone moved, abort a match: it is kept, but counts for nobody.
ABORTS = (Ending.LEFT, Ending.DISCONNECTED)


def game_rating(game: str, rating: Rating, games: int = 0) -> GameRating:
    return GameRating(game, round(rating.rating), provisional(rating), games)


def ratings_of(store: Store, player_id: int | None, games: Sequence[str]) -> tuple[GameRating, ...]:
    """A player's ratings in the games played online (none for a guest)."""
    if player_id is None:
        return ()
    known = store.ratings(player_id)
    return tuple(game_rating(game, known[game]) for game in games if game in known)


def rating_words(ratings: Sequence[GameRating]) -> str:
    """"Tron 1532 · Evasion 1500?": a provisional rating is marked with '?'."""
    return " · ".join(f"{title(r.game)} {r.rating}{'?' if r.provisional else ''}" for r in ratings)


def rated_name(name: str, game: str, ratings: Sequence[GameRating]) -> str:
    """"ann (1532)": a name with its rating in `game`, when it has one ("1500?": provisional)."""
    found = next((r for r in ratings if r.game == game), None)
    return f"{name} ({found.rating}{'?' if found.provisional else ''})" if found is not None else name


def greeting(welcome: Welcome) -> str:
    """What the lobby says first: a returning player by name with their ratings; a new
    account, that it is kept; a guest, that nothing is."""
    if welcome.guest:
        return f"Welcome, {welcome.name}: as a guest nothing is kept after this connection (connect with a key to keep a rating)."
    if welcome.returning:
        words = rating_words(welcome.ratings)
        return f"Welcome back, {welcome.name}{': ' + words if words else ''}."
    return f"Welcome, {welcome.name}: your ratings and games are kept under your key."


def fault_of(cause: str) -> Fault:
    """The fault a stored round's cause names (a round forfeited for another reason: LEFT)."""
    family, _, value = cause.partition(":")
    if family == "fault":
        try:
            return Fault(value)
        except ValueError:
            pass
    return Fault.LEFT


def title(game: str) -> str:
    """A game's short name (its online title), or the key of one not known."""
    try:
        online = get_game(game).online
    except UsageError:
        return game
    return online.short_title if online is not None else game


def aborted(score: MatchScore, ending: Ending) -> bool:
    """Whether a match ended before anyone moved (every round so far ended at step 0), by a
    player who left or went away."""
    return ending in ABORTS and all(r.steps == 0 for r in score.rounds)


def abort_words(detail: str) -> str:
    """The verdict of an aborted match: "Match aborted: ann left the match before anyone moved.
    It counts for nobody." """
    return f"Match aborted: {detail} before anyone moved. It counts for nobody."


def match_record(game: str, board: str, participants: Sequence[Participant], score: MatchScore, planned_rounds: int,
                 ending: Ending, winner: int | None, ended_by: int | None, verdict: str, started: float, ended: float,
                 *, rated: bool, counts: bool) -> MatchRecord:
    """The record of a finished match, each round's end in the game's words."""
    definition = get_game(game)
    rounds = tuple(RoundRecord.of(r, definition.describe_outcome(r.outcome, [score.names[p] for p in r.seating]))
                   for r in score.rounds)
    return MatchRecord(game, board, tuple(participants), rounds, planned_rounds, ending, winner, verdict, started, ended,
                       ended_by, rated, counts)


def leader_lines(store: Store, game: str, limit: int) -> tuple[LeaderLine, ...]:
    return tuple(LeaderLine(row.rank, row.name, round(row.rating), row.provisional, row.games)
                 for row in store.leaderboard(game, limit))


def game_lines(summaries: Sequence[MatchSummary]) -> tuple[GameLine, ...]:
    return tuple(GameLine(m.id, m.game, m.board, m.names, m.verdict, m.rated, m.ended) for m in summaries)


def recorded(stored: StoredMatch) -> Recorded:
    return Recorded(stored.id, stored.game, stored.board, stored.names,
                    tuple(RecordedRound(r.seating, r.log, r.forfeit_seat, r.cause) for r in stored.rounds), stored.verdict)


def puzzle_games() -> tuple[str, ...]:
    """The games whose boards are solved alone (bests are kept for them)."""
    return tuple(game.key for game in all_games() if game.key not in online_games())


def best_line(best: Best) -> BestLine:
    return BestLine(best.board, best.value, best.optimum, best.solves)


def key_fingerprint(line: str) -> str | None:
    """The SHA256 fingerprint of an OpenSSH public key line, as a login reports it; None
    when the line is not one."""
    try:
        return str(asyncssh.import_public_key(line.strip()).get_fingerprint())
    except (asyncssh.KeyImportError, ValueError, TypeError):
        return None
