"""The keys of a match's clock: pause (a countdown held, the next round held), one tick,
the next round, and the clock's speed (the match's own, not the app's). The rules are
the table's round conductor's (core.conductor); these keys say what they did."""

from __future__ import annotations

from typing import Any, Callable

from tui_grid.core.conductor import Paused

#: What the pause key says it did.
PAUSE_WORDS = {
    Paused.COUNTDOWN_HELD: "Paused: . plays one tick, space resumes.",
    Paused.PAUSED: "Paused: . plays one tick, space resumes.",
    Paused.NEXT_HELD: "Held: the next round starts paused; space lets it run.",
    Paused.MATCH_OVER: "The match is over: its clock has stopped. esc goes back.",
}


class MatchClockKeys:
    """Mixed into MatchScreen, which supplies the feed, the session, the match, the
    conductor and `say`."""

    feed: Any
    game: Any
    session: Any
    match: Any
    settings: Any
    conductor: Any
    steerable: bool
    say: Callable[..., None]
    show_status: Callable[[], None]
    pace_driver: Callable[[], None]

    def action_pause(self) -> None:
        if self.feed is None:
            return
        if not self.steerable:
            self.say("The server keeps the clock: an online match cannot be paused.")
            return
        done = self.conductor.pause()
        if done is not Paused.COUNTING_AFRESH:  # the countdown says its own words
            self.say(self.pause_words(done))

    def pause_words(self, done: Paused) -> str:
        """What the pause key says it did (a game may say more); after the match, its
        verdict again, since these words take the line that said it."""
        words = PAUSE_WORDS.get(done, "")
        if done is Paused.MATCH_OVER and self.match.finished:
            words = f"{self.game.match_verdict(self.match.score)[1]} {words}"
        return words

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
        self.conductor.next_round()  # show_round follows, from the table

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
