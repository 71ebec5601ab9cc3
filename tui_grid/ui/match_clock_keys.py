"""The keys of a match's clock: pause (a countdown held, the next round held), one tick,
the next round, and the clock's speed (the match's own, not the app's)."""

from __future__ import annotations

from typing import Any, Callable


class MatchClockKeys:
    """Mixed into MatchScreen, which supplies the feed, the session, the match, the
    countdown and `say`."""

    feed: Any
    session: Any
    match: Any
    settings: Any
    countdown_clock: Any
    paused: bool
    steerable: bool
    say: Callable[..., None]
    show_status: Callable[[], None]
    count_down: Callable[[], None]
    wants_countdown: Callable[[], bool]
    pace_driver: Callable[[], None]

    def action_pause(self) -> None:
        if self.feed is None:
            return
        if not self.steerable:
            self.say("The server keeps the clock: an online match cannot be paused.")
            return
        if self.countdown_clock.hold():  # space during the countdown: hold the round until space again
            self.say("Paused: . plays one tick, space resumes.")
            return
        if self.countdown_clock.held and self.paused and not self.session.over:
            self.count_down()  # ...and space again counts afresh, to a "Go!"
            return
        if self.session.over and self.match.finished:  # a finished match is never PAUSED
            self.say("The match is over: its clock has stopped. esc goes back.")
            return
        self.feed.pause()
        if self.session.over:  # between rounds: space holds the next one
            self.say("Held: the next round starts paused; space lets it run." if self.paused else "")
            return
        self.say("Paused: . plays one tick, space resumes." if self.paused else "")

    def action_step(self) -> None:
        if self.feed is not None and self.steerable and not self.session.over:
            self.feed.single_step()

    def action_next_round(self) -> None:
        assert self.feed is not None
        if not self.feed.advances:
            self.say(f"{self.feed.starter} starts each game itself.")
            return
        if not self.session.over:
            self.say("The round is still on.")
            return
        if self.match.finished:
            self.say(f"The match is over: {self.match.score.summary()}. esc goes back.")
            return
        counting = self.wants_countdown()
        if counting:
            self.feed.pause(True)  # before the new round exists, so its first tick waits too
        self.feed.next_round()  # show_round follows, from the feed
        if counting:
            self.count_down()

    def action_speed(self, change: int) -> None:
        if not self.steerable:
            self.say("The server keeps the clock: an online match runs at one speed for both.")
            return
        # The match's own clock: not written back to the app's settings, so a fast bot
        # match leaves neither the puzzles' animation nor a human's next match at speed 9.
        if limit := self.settings.at_limit(change):
            self.say(limit)
            return
        self.settings = self.settings.faster() if change > 0 else self.settings.slower()
        self.pace_driver()
        self.show_status()
