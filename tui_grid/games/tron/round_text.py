"""What Tron's message line says when a round ends and until the next one: the round's
verdict, the score and what comes next. Plain text from plain values, so it is checked
without a screen."""

from __future__ import annotations

from collections.abc import Sequence

from tui_grid.core.engine import Event
from tui_grid.core.match import MatchScore
from tui_grid.core.conductor import AUTO_NEXT_SECONDS


def score_line(score: MatchScore) -> str:
    """Wins per player and draws, short enough for the status line; in an arena, who
    leads on points (the legend gives everyone's)."""
    if score.ranked:
        return leader_line(score)
    text = " · ".join(f"{name} {score.wins(index)}" for index, name in enumerate(score.names))
    return text + (f" · {score.draws} drawn" if score.draws else "")


def leader_line(score: MatchScore) -> str:
    """An arena's leader on points: "ann leads with 7 points", or who share the lead."""
    points = [score.points(index) for index in range(len(score.names))]
    best = max(points, default=0)
    if not best:
        return "no points yet"
    leaders = [name for name, mine in zip(score.names, points) if mine == best]
    if len(leaders) == 1:
        return f"{leaders[0]} leads with {best} point{'s' if best != 1 else ''}"
    return f"{len(leaders)} share the lead with {best} point{'s' if best != 1 else ''}"


def round_verdict(number: int, outcome: str, drawn: bool) -> str:
    """The verdict's line: round `number` (counted from 1) and how it ended, in words."""
    return f"Round {number}: {outcome}." + (" A draw." if drawn else "")


def auto_next_line(number: int) -> str:
    """Round `number` of a match of bots is coming by itself: enter brings it, space holds it."""
    return f"Round {number} in {AUTO_NEXT_SECONDS:g} s (enter now, space holds)."


def what_next(score: str, next_round: int, *, match_verdict: str | None, steerable: bool, humans: bool,
              arena: bool = False) -> str:
    """The line under a round's verdict: the match's verdict once it is over (`match_verdict`),
    else the score and how the next round comes. Online (not `steerable`) the server starts
    it and says when; with a human it waits for enter; a match of bots goes on by itself."""
    if match_verdict is not None:
        return f"{match_verdict} n new match · esc back." if steerable else match_verdict
    if not steerable:
        return f"Score: {score}."
    if humans:
        return f"Score: {score}. enter: round {next_round} (seats {'turn' if arena else 'swap'})."
    return f"Score: {score}. {auto_next_line(next_round)}"


def round_end(score: MatchScore, outcome: str, *, match_verdict: str | None, steerable: bool, humans: bool) -> tuple[str, str]:
    """The two lines said when the last round in `score` ends (`outcome`: how, in words):
    its verdict, and what comes next (`what_next`)."""
    result = score.rounds[-1]
    verdict = round_verdict(result.index + 1, outcome, result.winner is None and not result.places)
    return verdict, what_next(score_line(score), result.index + 2, match_verdict=match_verdict, steerable=steerable, humans=humans,
                              arena=score.ranked)


def after_round(steerable: bool, finished: bool, score: str) -> str:
    """What a steering key says once the round is over: how the next one comes, if any."""
    if not steerable:
        return "The round is over: the server starts the next one."
    if finished:
        return f"The match is over: {score}. n: new match."
    return "The round is over: enter plays the next one."


def under_verdict(verdict: str, message: str) -> str:
    """`message` under the round's verdict line, which stays first until the next round
    (a message that already starts with it is left as it is)."""
    if message.startswith(verdict):
        return message
    return f"{verdict}\n{message}" if message else verdict


def out_line(events: Sequence[Event], people: list[str], people_ride: bool) -> str:
    """Said when people's cycles go out while the arena rides on: what happened (the step's
    crashes and meetings), who is out, and that the rest ride on (at the bots' own pace
    once no person rides)."""
    happened = [event.text for event in events if event.kind in ("crash", "meet")]
    what = "".join(f"{text[:1].upper()}{text[1:]}. " for text in happened)
    rest = "the others ride on" if people_ride else "the bots ride on at their own pace"
    return f"{what}Out: {' and '.join(people)}; {rest}."
