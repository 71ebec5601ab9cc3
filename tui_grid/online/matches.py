"""The matches the hub lists: one hosted here (players linked to the hub, or a player and a
builtin bot, played by a driver and conducted by a table on the hub's loop), or one
relayed from a publisher (the Evasion architect's). Each knows who watches it and its
line in the lobby."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from tui_grid.core.agents import Agent, HumanAgent, LowPriority
from tui_grid.core.conductor import CountdownSaid, MatchEnded, RoundEnded, RoundPacing
from tui_grid.core.live import LiveMatch
from tui_grid.core.match import Ending, MatchScore, RoundResult
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.players import PlayerContext, told_apart
from tui_grid.core.session import Change, Session
from tui_grid.core.table import Table, TableEvent
from tui_grid.core.text import printable
from tui_grid.games.registry import get_game
from tui_grid.online.protocol import (End, Forfeit, LobbyMatch, MatchStart, Message, Note, Publish, Result, Round,
                                      Step, change_message)
from tui_grid.online.records import Participant
from tui_grid.online.wire import encode

if TYPE_CHECKING:
    from tui_grid.online.arena_room import ArenaRoom
    from tui_grid.online.hub import Hub, Link

#: How much lower than the hub's the bots' thinking runs (players' sessions run at 5).
BOT_NICENESS = 10
#: The tick of an arena round once only bots ride in it: nobody steers, so it is not kept
#: at a person's pace, and the bots' endgame passes quickly for whoever watches.
BOTS_ONLY_TICK = 0.1


class WatchedMatch:
    """What every match in the lobby shares: who watches it, the news they are all sent, and
    its line in the lobby (from `score_text` and `round_now`)."""

    id: int
    game_key: str
    board: str
    names: tuple[str, ...]
    rounds: int
    players: list[Link | None]
    watchers: list[Link]
    ended: bool

    @property
    def stopping(self) -> bool:
        """Over, or ending: no longer counted as running."""
        return self.ended

    def _send_all(self, message: Message) -> None:
        data = encode(message)
        for link in list(self.watchers):
            link.send(message, data)

    def score_text(self) -> str:
        raise NotImplementedError

    def verdict_text(self) -> str:
        raise NotImplementedError

    def round_now(self) -> int:
        raise NotImplementedError

    def summary(self) -> LobbyMatch:
        return LobbyMatch(self.id, self.game_key, self.board, self.names, self.score_text(),
                          min(self.rounds, self.round_now() + 1), self.rounds,
                          sum(1 for w in self.watchers if w not in self.players))


class HostedMatch(WatchedMatch):
    """A match between linked players (or a player and a builtin bot) played here: the
    driver on its thread, and a table on the hub's loop whose conductor counts down,
    begins rounds, checks idling and decides the match (core.conductor)."""

    def __init__(self, hub: Hub, match_id: int, game_key: str, board: str, rounds: int, seats: list[Link | str],
                 started_by: Link | None = None, rated: bool = True, room: ArenaRoom | None = None) -> None:
        self.hub, self.id, self.game_key, self.board, self.rounds = hub, match_id, game_key, board, rounds
        #: The arena room this is a round of: a rider who leaves forfeits their cycle alone,
        #: nobody forfeits for idling, and the room says the end (arena_room.py).
        self.room = room
        #: Who asked for this match, when it has a bot in it (the per-player bot limit).
        self.started_by = started_by
        self.has_bots = any(isinstance(who, str) for who in seats)
        self.rated = rated
        self.started = time.time()
        #: Who played each part, as the store keeps them.
        self.participants = tuple(
            Participant(who.name, "guest" if who.guest or who.player_id is None else "player", who.player_id)
            if not isinstance(who, str) else Participant(f"{who} bot", "bot", level=who) for who in seats)
        game = get_game(game_key)
        loaded = game.load(board)
        participants: list[Agent[Any, Any]] = []
        names: list[str] = []
        self.players: list[Link | None] = []
        for index, who in enumerate(seats):
            if not isinstance(who, str):
                participants.append(HumanAgent(who.name))
                names.append(who.name)
                self.players.append(who)
            else:
                context = PlayerContext(index, time_ms=hub.pace.bot_time_ms)
                participants.append(LowPriority(game.make_agent(who, context, ("bot",)), BOT_NICENESS))
                names.append(f"{who} bot")
                self.players.append(None)
        names = told_apart(names)  # an arena's bots of one level
        self.names = tuple(names)
        engine = game.make_engine(loaded)
        pace = hub.pace
        tick = pace.tick_seconds or engine.human_tick_seconds or engine.tick_seconds or 0.25
        self.feed: LiveMatch[Any, Any] = LiveMatch(lambda index: game.make_engine(loaded), participants, rounds,
                                                  names=names, timeout=max(0.05, tick), step_seconds=tick)
        self.watchers: list[Link] = []
        self.round_forfeit: Forfeit | None = None
        self.round_earlier: list[Forfeit] = []  # forfeits the round played on after (an arena's)
        self.bots_only = False  # an arena round in which no person rides any more
        self.ended = False
        self.announced = ""  # the verdict as the players were told it, once the match is over
        # Steps go out from the driver's thread as they are made, in order (see `join`).
        self.feed.subscribe(self._changed)
        self.feed.on_round(self._round_began)
        loop = hub.loop
        self.table: Table[Any] = Table(self.feed.session, loaded, to_owner=lambda call: loop.call_soon(self._guarded(call)),
                                       on_event=self._table_event, follow=False, owner=loop.thread_id)
        people = () if room is not None else tuple(index for index, who in enumerate(seats) if not isinstance(who, str))
        self.conductor = self.table.conduct(
            self.feed, RoundPacing(pace.countdown, pace.beat, pace.between_rounds, pace.idle_seconds),
            later=lambda seconds, call: loop.later(seconds, self._guarded(call)), clock=loop.clock,
            decide=game.match_verdict, watched=people)

    # --- who watches ----------------------------------------------------------------------
    def join(self, link: Link, participant: int | None) -> None:
        """A player or spectator: the match so far, then every step from here, none missed
        and none twice (the session's lock holds the driver while the snapshot is taken)."""
        session = self.feed.session
        with session.lock:
            results = tuple(Result(r.winner, r.outcome, r.seating, r.steps, r.forfeit_seat) for r in self.feed.match.score.rounds)
            link.send(MatchStart(self.id, self.game_key, self.board, self.rounds, self.names, participant, results,
                                 self.feed.match.round_index, session.engine.format_log(session.log), self.round_forfeit,
                                 rematch=not self.has_bots and len(self.players) == 2, earlier=tuple(self.round_earlier)))
            self.watchers.append(link)

    def leave(self, link: Link, ending: Ending = Ending.LEFT) -> None:
        """A link stops watching; a player who leaves (or disconnects) hands the match over,
        at any moment of it (the conductor's rule)."""
        if link in self.watchers:
            self.watchers.remove(link)
        if link in self.players and not self.ended:
            participant = self.players.index(link)
            self.players[participant] = None  # no more keys from them
            if self.room is None:
                self.hub.loop.call_soon(self._guarded(lambda: self.conductor.leave(participant, ending)))
                return
            # An arena round: only this rider's cycle forfeits, the others ride on.
            self._forfeit(participant, Fault.DISCONNECTED if ending is Ending.DISCONNECTED else Fault.LEFT)
        if not self.watchers and not any(self.players):  # bots (or only cycles out) with nobody watching: stop
            self.stop_early("nobody was watching")

    def concede(self, link: Link) -> None:
        """A player gives up the round under way: their seat forfeits it, and the match goes
        on to the next round as after any other."""
        if link in self.players:
            self._forfeit(self.players.index(link), Fault.CONCEDED)

    def _forfeit(self, participant: int, fault: Fault) -> None:
        """The participant's seat forfeits the round under way, on the hub's loop."""
        def forfeit() -> None:
            seating, session = self.feed.match.seating, self.feed.session
            if participant in seating and not session.over:
                session.forfeit(seating.index(participant), Failure(fault))

        self.hub.loop.call_soon(self._guarded(forfeit))

    def stop_early(self, why: str) -> None:
        """Stop with nobody winning (nobody watches its bots; the server stops or failed)."""
        self.hub.loop.call_soon(self._guarded(lambda: self.conductor.stop(why)))

    @property
    def stopping(self) -> bool:
        return self.ended or self.conductor.over

    def note(self, text: str) -> None:
        self._send_all(Note(text))

    # --- what the driver did ------------------------------------------------------------------
    def _changed(self, session: Session[Any, Any], change: Change[Any]) -> None:
        if self.room is not None and not self.bots_only and not session.people_act(change.state):
            self.bots_only = True
            self.feed.pace(min(BOTS_ONLY_TICK, self.hub.pace.tick_seconds or BOTS_ONLY_TICK), BOTS_ONLY_TICK)
        message = change_message(session, change)
        if isinstance(message, Forfeit) and message.at is not None:
            self.round_earlier.append(message)
        elif isinstance(message, Forfeit):
            self.round_forfeit = message
        if message is not None:
            self._send_all(message)

    def _round_began(self, session: Session[Any, Any]) -> None:
        self.round_forfeit, self.round_earlier = None, []
        self._send_all(Round(self.feed.match.round_index))

    def key(self, link: Link, text: str) -> None:
        """A player's key for the seat they sit in this round; anything else is ignored."""
        if link not in self.players:
            return
        participant = self.players.index(link)
        self.conductor.pressed(participant)
        seating = self.feed.match.seating
        if participant not in seating:
            return
        try:
            action = self.feed.session.engine.decode_action(text)
        except ValueError:
            return
        self.feed.session.submit(seating.index(participant), action)

    # --- the table's news, on the hub's loop --------------------------------------------------------
    def start(self) -> None:
        self.hub.loop.call_soon(self._guarded(self.conductor.begin))

    def _table_event(self, event: TableEvent) -> None:
        if isinstance(event, CountdownSaid):
            self.note(event.words)
        elif isinstance(event, RoundEnded) and not event.last:
            result = event.result
            said = get_game(self.game_key).describe_outcome(result.outcome, [self.names[p] for p in result.seating])
            pause = f" in {event.next_in:.0f} s" if event.next_in is not None else ""
            self.note(f"{said}. Score: {self.feed.match.score.summary()}. Round {result.index + 2}{pause} (seats swap).")
        elif isinstance(event, MatchEnded):
            self.ended = True
            # An arena round is the room's to say; a match is kept, with an abort's words or the verdict's.
            self.announced = self.hub.arena_round_over(self) if self.room is not None else self.hub.record(self, event)
            self._send_all(End(self.announced))
            self.table.close()
            self.feed.close()
            self.hub.match_ended(self)

    def _guarded(self, call: Callable[[], None]) -> Callable[[], None]:
        """`call` for the hub's loop: if it fails, the match is reported and stopped (the
        hub and its other matches go on)."""
        def run() -> None:
            try:
                call()
            except Exception as exc:
                self.hub.log(f"match {self.id} failed: {type(exc).__name__}: {exc}")
                self.conductor.stop("the match failed on the server")

        return run

    def verdict_text(self) -> str:
        """The match's verdict as announced (an abort's own words), else by the game's rule
        (the one the players' screens use)."""
        if self.announced:
            return self.announced
        if self.conductor.verdict is not None:
            return self.conductor.verdict.text
        conductor = self.conductor
        return get_game(self.game_key).match_verdict(self.feed.match.score, conductor.ending, conductor.ended_by, conductor.detail)[1]

    def score_text(self) -> str:
        return self.feed.match.score.summary()

    def round_now(self) -> int:
        return self.feed.match.round_index


class RelayedMatch(WatchedMatch):
    """A match played elsewhere (the Evasion architect's) that a publisher link sends step
    by step: kept here (the rounds so far and this round's log) for spectators who join
    midway, and relayed to everyone watching. Nobody plays it from the lobby."""

    def __init__(self, hub: Hub, match_id: int, publisher: Link, published: Publish) -> None:
        self.hub, self.id, self.publisher = hub, match_id, publisher
        self.game_key, self.board, self.rounds = published.game, published.board, published.rounds
        self.names = tuple(printable(name, limit=40) for name in published.names)
        self.players: list[Link | None] = []
        self.watchers: list[Link] = []
        self.results: list[Result] = []
        self.log: list[str] = []
        self.round_forfeit: Forfeit | None = None
        self.abandoned = ""
        self.end_text = ""  # the architect's own verdict, once it has said it
        self.ended = False

    def verdict_text(self) -> str:
        """The architect's verdict; if it went away first, a stop, with the rounds it sent."""
        if self.end_text:
            return self.end_text
        score = MatchScore(self.names, [RoundResult(index, r.seating, r.winner, r.outcome, r.steps, forfeit_seat=r.forfeit_seat)
                                        for index, r in enumerate(self.results)])
        return get_game(self.game_key).match_verdict(score, Ending.STOPPED, None, self.abandoned or "the architect stopped")[1]

    def join(self, link: Link, participant: int | None) -> None:
        link.send(MatchStart(self.id, self.game_key, self.board, self.rounds, self.names, None, tuple(self.results),
                             len(self.results), " ".join(self.log), self.round_forfeit))
        self.watchers.append(link)

    def leave(self, link: Link) -> None:
        if link in self.watchers:
            self.watchers.remove(link)

    def relay(self, message: Message) -> str | None:
        """One message from the publisher, recorded and passed on; why it cannot be, if not
        ("end": the match is over)."""
        if isinstance(message, Step):
            self.log.append(message.joint)
            self._send_all(message)
        elif isinstance(message, Forfeit):
            self.round_forfeit = message
            self._send_all(message)
        elif isinstance(message, Result):
            if len(self.results) >= self.rounds:
                return "more results than rounds"
            self.results.append(message)  # its texts are raw: whoever says it escapes them
        elif isinstance(message, Round):
            self.log, self.round_forfeit = [], None
            self._send_all(Round(len(self.results)))
        elif isinstance(message, Note):
            self._send_all(message)
        elif isinstance(message, End):
            self.ended = True
            self.end_text = printable(message.text, limit=400)
            self._send_all(message)
            return "end"
        else:
            return f"a {message.TYPE} message from a publisher"
        return None

    def score_text(self) -> str:
        wins = [sum(1 for r in self.results if r.winner == index) for index in range(len(self.names))]
        draws = sum(1 for r in self.results if r.winner is None)
        return " · ".join(f"{name} {count}" for name, count in zip(self.names, wins)) + f" · draws {draws}"

    def round_now(self) -> int:
        return len(self.results)
