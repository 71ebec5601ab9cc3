"""The arena room: Tron's free-for-all that people join and leave between rounds.

Each round is a match of one round on the arena board, hosted like any other (matches.py):
the room's riders take seats, builtin bots fill the empty ones, and everyone who watches
the room is joined to it, so a round is listed in the lobby and watched the usual way.
When a round ends the room adds each rider's points (cycles finished behind, by name),
says the standings in the round's end, and after a pause starts the next round with
whoever is in the room then. A rider who leaves mid-round forfeits that round's cycle
alone; the others ride on. The room is not rated and keeps nothing in the store; it
closes when nobody rides in it or watches it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_grid.core.match import MatchScore

if TYPE_CHECKING:
    from tui_grid.online.hub import Hub, Link
    from tui_grid.online.matches import HostedMatch

GAME = "tron"
#: Cycles in the room's arena; the seats no rider takes go to bots.
CYCLES = 6
#: The bots' levels for the empty seats, in turn.
BOT_LEVELS = ("medium", "easy", "hard")
#: Seconds between a round's end and the next one's start (the hub's pace may be shorter).
NEXT_ROUND_SECONDS = 5.0
#: Standings said at a round's end: the leaders, at most.
STANDINGS_SHOWN = 5


class ArenaRoom:
    """One room: its riders (who take seats from the next round), who watches it, the
    points by name, and the round under way."""

    def __init__(self, hub: Hub, cycles: int = CYCLES) -> None:
        self.hub = hub
        self.cycles = cycles
        self.riders: list[Link] = []
        self.watchers: list[Link] = []
        self.points: dict[str, int] = {}
        self.rounds = 0
        self.current: HostedMatch | None = None
        self.waiting = False  # the next round is due (between rounds)
        self.closed = False

    @property
    def board(self) -> str:
        return f"arena{self.cycles}"

    def has(self, link: Link) -> bool:
        return link in self.riders or link in self.watchers

    # --- who is in it ---------------------------------------------------------------------
    def ride(self, link: Link) -> str:
        """`link` rides from the next round (watching the one under way); what to tell it."""
        if link in self.riders:
            return "You ride in the arena already: the next round seats you."
        if len(self.riders) >= self.cycles:
            return f"The arena is full ({self.cycles} riders): w watches it."
        if link in self.watchers:
            self.watchers.remove(link)
        self.riders.append(link)
        if self.current is not None and not self.current.stopping:
            self._watch_round(link)
            return "You join the arena: you ride from the next round (esc leaves it)."
        if not self.waiting:
            self.start_round()
        return "You join the arena (esc leaves it)."

    def watch(self, link: Link) -> None:
        """`link` watches the room: this round and the ones after."""
        if not self.has(link):
            self.watchers.append(link)

    def leave(self, link: Link) -> None:
        """`link` is out of the room (its cycle in a round under way forfeits: matches.py)."""
        for group in (self.riders, self.watchers):
            if link in group:
                group.remove(link)

    # --- rounds ---------------------------------------------------------------------------
    def seats(self) -> list[Link | str]:
        """This round's seats: the riders (still here: `start_round` kept them), bots for the
        rest, turned by one seat each round so that nobody keeps one place on the board."""
        riders = self.riders[: self.cycles]
        seats: list[Link | str] = [*riders, *(BOT_LEVELS[index % len(BOT_LEVELS)] for index in range(self.cycles - len(riders)))]
        shift = self.rounds % self.cycles
        return seats[shift:] + seats[:shift]

    def start_round(self) -> None:
        """The next round with whoever is in the room now; the room closes when nobody is."""
        self.waiting = False
        self.riders = [link for link in self.riders if not link.closed.is_set() and link.match is None]
        self.watchers = [link for link in self.watchers if not link.closed.is_set() and link.match is None]
        if not self.riders and not self.watchers:
            self.closed = True
            self.hub.arena_closed(self)
            return
        started = self.hub.start_arena_round(self, self.seats())
        if isinstance(started, str):
            self.hub.log(f"arena: no round: {started}")
            self.closed = True
            self.hub.arena_closed(self)
            return
        self.current = started
        for link in self.watchers:
            self._watch_round(link)
        for link in self.riders:
            if link.match is None:  # more riders than seats (never: ride refuses), or seated elsewhere
                self._watch_round(link)

    def _watch_round(self, link: Link) -> None:
        match = self.current
        if match is None or link.watching is match:
            return
        if link.watching is not None:
            link.watching.leave(link)
        link.watching = match
        match.join(link, None)

    def round_over(self, match: HostedMatch) -> str:
        """A round ended: the points added, and its end in words (standings, what comes next)."""
        score: MatchScore = match.feed.match.score
        self.rounds += 1
        if score.rounds:
            result = score.rounds[-1]
            for participant, name in enumerate(score.names):
                if match.participants[participant].kind != "bot":  # people's points; bots come and go
                    self.points[name] = self.points.get(name, 0) + result.beaten(participant)
        verdict = match.verdict_text().replace("Match over: ", "", 1)
        self.current = None
        self.waiting = True
        pause = max(0.1, min(NEXT_ROUND_SECONDS, self.hub.pace.between_rounds * 2))
        self.hub.loop.later(pause, self._next)
        return f"Arena round {self.rounds}: {verdict} {self.standings()} Next round in {pause:g} s (esc leaves the arena)."

    def _next(self) -> None:
        with self.hub.lock:
            if not self.closed:
                self.start_round()

    def standings(self) -> str:
        """The riders' points in this room, best first."""
        ranked = sorted(self.points.items(), key=lambda item: (-item[1], item[0]))[:STANDINGS_SHOWN]
        if not ranked:
            return "No points yet."
        return "Points: " + " · ".join(f"{name} {points}" for name, points in ranked) + "."
