"""A match played to its end with no front end (`tui-grid match`, a tournament): the same
table and round conductor as every screen and the hub, on a loop run by the caller's
thread, with no countdown and no pause between rounds."""

from __future__ import annotations

from typing import Any, Callable

from tui_grid.core.conductor import Decide, MatchEnded, RoundEnded, RoundPacing
from tui_grid.core.live import LiveMatch
from tui_grid.core.loop import Loop
from tui_grid.core.match import RoundResult, most_wins_verdict
from tui_grid.core.table import Table, TableEvent


def play_out(feed: LiveMatch[Any, Any], decide: Decide = most_wins_verdict, *, on_round: Callable[[RoundResult], None] | None = None,
             should_stop: Callable[[], bool] | None = None) -> MatchEnded | None:
    """Play every round of `feed` as fast as its agents answer; `on_round` hears each
    round's result as it ends. The verdict; None when stopped first (`should_stop`, or a
    round its driver could not go on with). The feed is closed at the end."""
    loop = Loop()
    ended: list[MatchEnded] = []

    def heard(event: TableEvent) -> None:
        if isinstance(event, RoundEnded) and on_round is not None:
            on_round(event.result)
        elif isinstance(event, MatchEnded):
            ended.append(event)

    table: Table[Any] = Table(feed.session, None, to_owner=loop.call_soon, on_event=heard, follow=False)
    conductor = table.conduct(feed, RoundPacing(between_rounds=0.0), later=loop.later, clock=loop.clock, decide=decide)

    def stopped() -> bool:
        driver = feed.driver
        return bool(ended) or (driver is not None and bool(driver.refused)) or (should_stop is not None and should_stop())

    if feed.driver is not None:
        feed.driver.step_seconds = 0.0  # as fast as the agents answer, whatever pace the feed was made with
    try:
        conductor.begin()
        loop.run(stopped, poll=0.05)
    finally:
        table.close()
        feed.close()
    return ended[0] if ended else None
