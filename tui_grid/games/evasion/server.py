"""The architect: an Evasion server that course clients connect to over TCP.

`run_server(config, protocol, port, hunter_kind, prey_kind, ...)` listens on
127.0.0.1:`port` (0: any free port, reported through `on_listening(port)`), accepts the
TCP players, plays, and returns a result dict. It never raises for a player's fault: a
client that hangs up, answers garbage or runs out of its thinking clock (120 s by default,
`clock_seconds`) forfeits, and the result says why.

- Protocol "2023": one game. The first TCP client to connect plays the hunter (when the
  hunter is "tcp"), the next the prey. Each sends its name and gets `hunter N M` /
  `prey N M`; the hunter is sent a state line every step, the prey on its move steps;
  `end` when the game is over.
- Protocol "2016": two games with roles swapped. Player 1 (the first to connect when
  `hunter_kind` is "tcp") hunts in game 1; `hunter_kind` is player 1's kind and
  `prey_kind` player 2's. `sendname`, then `hunter`/`prey` before each game, state lines
  (to the prey only on its move steps), `done` at the end. Its capture rule is the 2016
  server's strict < 4 unless the config says otherwise explicitly via `keep_preset`.

Seats come from the player table (core.players): "tcp" (a client of the socket), the
bots "builtin", "random" (a random prey; as hunter, walls at random) and "nowall" (a
hunter that never builds; as prey, random), and "human" (keys: a display submits them
to `server.session`). Each game is one Session driven by core.driver.Driver, the same loop
as every other front end: a display subscribes (`observers`, `on_session`) and steers
the pace through `server.driver`; it never touches the state. `stop` (a threading.Event)
ends the game early from another thread; `on_state(state, events)` sees every state (the
headless log); `tick_seconds` paces the steps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tui_grid.core.agents import Agent, AgentError, Ask, HumanAgent, Placeholder
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Event
from tui_grid.core.live import MatchFeed
from tui_grid.core.match import Match
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.network import (
    Disconnected,
    LineConnection,
    LineListener,
    NetworkAgent,
    ThinkingClock,
)
from tui_grid.core.players import PlayerContext, make_player, parse_player
from tui_grid.core.session import Change, ChangeKind, Observer, Session
from tui_grid.games.evasion import protocol2016 as p2016
from tui_grid.games.evasion import protocol2023 as p2023
from tui_grid.games.evasion.engine import HUNTER, PREY, SEATS, EvasionEngine, State
from tui_grid.games.evasion.rules import Config, hunting_score
from tui_grid.core.text import printable
from tui_grid.games.registry import GameDefinition, get_game

PROTOCOLS = ("2023", "2016")
DEFAULT_CLOCK = 120.0
#: Seconds a client may take to connect/send its name (on top of nothing: not charged).
HANDSHAKE_TIMEOUT = 30.0

OnState = Callable[[State, tuple[Event, ...]], None]
#: Characters of a client's name kept.
NAME_LIMIT = 60


@dataclass
class Player:
    """Someone filling a seat (or, in 2016, both seats in turn)."""

    kind: str
    name: str
    conn: LineConnection | None = None
    agent: Agent[Any, Any] | None = None
    gone: Failure | None = None  # why a TCP player can no longer play (it forfeits what is left)
    dead: bool = False  # its connection is unusable
    extra: dict[str, Any] = field(default_factory=dict)

    def send(self, line: str) -> None:
        if self.conn is not None and not self.dead:
            try:
                self.conn.send_line(line)
            except AgentError as exc:
                self.dead = True
                self.gone = self.gone or exc.failure

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class EvasionServer:
    """One serving session; `port` is known once constructed (the socket is bound)."""

    def __init__(
        self,
        config: Config | None = None,
        protocol: str = "2023",
        port: int = 0,
        hunter_kind: str = "tcp",
        prey_kind: str = "tcp",
        max_steps: int | None = None,
        *,
        host: str = "127.0.0.1",
        on_state: OnState | None = None,
        agents: Mapping[str, Agent[Any, Any]] | None = None,
        clock_seconds: float | None = DEFAULT_CLOCK,
        handshake_timeout: float | None = HANDSHAKE_TIMEOUT,
        accept_timeout: float | None = None,
        handshake_pause: float = 0.2,
        tick_seconds: float | None = None,
        stop: threading.Event | None = None,
        seed: int = 0,
        log: Callable[[str], None] | None = None,
        keep_preset: bool = False,
        game: GameDefinition | None = None,
    ) -> None:
        #: The game's definition (who may fill a seat): the registry's, unless given.
        self.game = game or get_game("evasion")
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r} (choose {' or '.join(PROTOCOLS)})")
        for kind in (hunter_kind, prey_kind):
            parse_player(self.game, kind)  # UsageError names the choices
        config = config or Config()
        if max_steps is not None:
            config = replace(config, max_steps=max_steps)
        if protocol == "2016" and not keep_preset:
            config = replace(config, preset="2016")
        self.config = config
        self.protocol = protocol
        self.kinds = (hunter_kind, prey_kind)
        self.on_state = on_state
        self.agents = dict(agents or {})
        self.clock_seconds = clock_seconds
        self.handshake_timeout = handshake_timeout
        self.accept_timeout = accept_timeout
        self.handshake_pause = handshake_pause
        self.tick_seconds = tick_seconds
        self.stop = stop or threading.Event()
        self.seed = seed
        self.log = log or (lambda text: None)
        self.listener = LineListener(host, port) if "tcp" in self.kinds else None
        self.port = self.listener.port if self.listener is not None else 0
        self.players: list[Player] = []
        #: The game being played (a 2016 session plays two), its driver, and who watches:
        #: `observers` are subscribed to every game's session, `on_session` hears of each.
        self.session: Session[State, Any] | None = None
        self.driver: Driver[State, Any] | None = None
        self.observers: list[Observer] = []
        self.on_session: list[Callable[[Session[State, Any]], None]] = []

    # --- setup --------------------------------------------------------------------------
    def _player(self, index: int, role: str) -> Player:
        """The player for slot `index` (0 = hunter's slot / player 1); TCP ones connect."""
        kind = self.kinds[index]
        key = SEATS[index]
        if kind == "tcp":
            assert self.listener is not None
            try:
                conn = self.listener.accept(self.accept_timeout, self.stop)
            except (TimeoutError, InterruptedError) as exc:
                return Player(kind, f"{key} (nobody)", gone=Failure(Fault.FAILED, note=str(exc)))
            self.log(f"{conn.peer} connected for the {key}'s seat")
            player = Player(kind, conn.peer, conn=conn)
            try:
                if self.protocol == "2016":
                    conn.send_line(p2016.SENDNAME)
                name = conn.read_line(self.handshake_timeout, self.stop).strip()
                player.name = printable(name, limit=NAME_LIMIT) or conn.peer  # shown, logged, in the result: text
                conn.name = player.name
                if self.protocol == "2023":
                    conn.send_line(p2023.role_line(role, self.config))
            except AgentError as exc:
                player.gone = Failure(Fault.FAILED, note=f"{exc.reason} (before sending its name)")
                player.dead = isinstance(exc, Disconnected)
            return player
        agent = self.agents.get(key) or make_player(self.game, kind, PlayerContext(index, seed=self.seed))
        return Player(kind, agent.name if agent.human else kind, agent=agent)

    def _agent(self, player: Player, engine: EvasionEngine, seat: int, game_num: int) -> Agent[Any, Any]:
        """The agent for a player in this game's seat, from the player table."""
        if player.agent is not None:
            return player.agent
        if player.conn is None:  # it never connected: any agent will do, it forfeits at once
            return make_player(self.game, "builtin", PlayerContext(seat, seed=self.seed))

        def network() -> Agent[Any, Any]:
            assert player.conn is not None
            clock = ThinkingClock(self.clock_seconds)
            return NetworkAgent(player.conn, clock=clock, name=player.name, stop=self.stop, **self._wire(engine, seat, game_num, clock))

        return make_player(self.game, "tcp", PlayerContext(seat, seed=self.seed, network=network))

    # --- a game ---------------------------------------------------------------------------
    def _play(self, engine: EvasionEngine, seats: tuple[Player, Player], game_num: int) -> dict[str, Any]:
        """One game: a session whose seats are the players' agents, driven by the driver."""
        agents = [self._agent(player, engine, seat, game_num) for seat, player in enumerate(seats)]
        session: Session[State, Any] = Session(engine, agents, undo=False)
        refused = [0]  # counted, never kept: a client may ask for thousands a step

        def watch(session: Session[State, Any], change: Change[State]) -> None:
            if change.kind is ChangeKind.STEP:
                for event in change.events:
                    if event.kind == "refused":
                        refused[0] += 1
                        self.log(f"step {change.state.tick}: refused: {event.text}")
            elif change.kind is ChangeKind.REFUSED:
                self.log(f"step {change.state.tick + 1}: {change.message}; the seats do nothing this step")
            elif change.kind in (ChangeKind.FORFEIT, ChangeKind.MESSAGE) and not self.stop.is_set():
                self.log(change.message)
            if self.on_state is not None and change.kind in (ChangeKind.STEP, ChangeKind.FORFEIT):
                self.on_state(change.state, change.events)

        session.subscribe(watch)
        for observer in self.observers:
            session.subscribe(observer)
        for seat, player in enumerate(seats):
            if player.gone is not None:
                session.report_failures([(seat, AgentError(player.gone.phrase(), failure=player.gone))])
                break
        self.session = session
        driver = self.driver
        if driver is None:
            driver = self.driver = Driver(session, step_seconds=self.tick_seconds or 0.0)
        else:
            driver.attach(session)
        if self.on_state is not None:
            self.on_state(session.state, ())
        for callback in self.on_session:
            callback(session)
        driver.run(self.stop)
        for seat, player in enumerate(seats):
            state = session.state
            agent = agents[seat]
            if state.forfeit is not None and state.forfeit[0] == seat and isinstance(agent, NetworkAgent):
                # Only a client that hung up is gone for good: one that ran out of time or
                # answered garbage plays the next game, as on the 2016 server.
                player.dead = player.dead or agent.conn.closed or isinstance(agent.last_error, Disconnected)
                if player.dead:
                    player.gone = player.gone or state.forfeit[1]
                else:
                    agent.conn.discard_pending()  # a late answer must not answer the next game
        state = session.state
        stopped = not session.over
        outcome = engine.outcome(state)
        result: dict[str, Any] = {
            "caught": state.caught_at is not None,
            "catch_steps": state.caught_at,
            "steps": state.tick,
            "hunter": seats[HUNTER].name,
            "prey": seats[PREY].name,
            "reason": "stopped" if stopped else self.game.describe_outcome(outcome),
            "winner": None if stopped or not outcome.over else SEATS[outcome.winner or 0],
            "forfeit": None if state.forfeit is None else SEATS[state.forfeit[0]],
            "refused": refused[0],
        }
        if stopped:
            result["stopped"] = True
        return result

    def _wire(self, engine: EvasionEngine, seat: int, game_num: int, clock: ThinkingClock) -> dict[str, Any]:
        """observe/parse functions for a TCP seat in this protocol."""
        if self.protocol == "2023":
            if seat == HUNTER:
                return {"observe": lambda ask: p2023.state_line(ask.state),
                        "parse": lambda line, ask: p2023.parse_hunter_reply(line)}
            return {"observe": lambda ask: p2023.state_line(ask.state),
                    "parse": lambda line, ask: p2023.parse_prey_reply(line)}

        def observe(ask: Ask[Any, Any]) -> str:
            left = clock.left()
            ms = 0 if left is None else int(left * 1000)
            if left is None:
                ms = 2**31 - 1
            return p2016.state_line(ask.state, engine, game_num, ms)

        if seat == HUNTER:
            return {"observe": observe,
                    "parse": lambda line, ask: p2016.parse_hunter_reply(line, game_num, ask.state.tick, ask.state)}
        return {"observe": observe, "parse": lambda line, ask: p2016.parse_prey_reply(line, game_num, ask.state.tick)}

    # --- the whole session ------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        try:
            if self.protocol == "2023":
                return self._run_2023()
            return self._run_2016()
        finally:
            self.close()

    def _run_2023(self) -> dict[str, Any]:
        hunter = self._player(0, "hunter")
        self.players.append(hunter)
        prey = self._player(1, "prey") if hunter.gone is None else Player(self.kinds[1], "prey (not awaited)")
        self.players.append(prey)
        self._pause_after_role()
        engine = EvasionEngine(self.config)
        result = self._play(engine, (hunter, prey), 1)
        for player in self.players:
            player.send(p2023.END)
        result.update(protocol="2023", n=self.config.n, m=self.config.m)
        return result

    def _run_2016(self) -> dict[str, Any]:
        one = self._player(0, "hunter")
        self.players.append(one)
        two = self._player(1, "prey") if one.gone is None else Player(self.kinds[1], "player 2 (not awaited)")
        self.players.append(two)
        engine = EvasionEngine(replace(self.config, prey_every_step=True))  # the prey answers every step
        games = []
        for game_num, (hunter, prey) in enumerate(((one, two), (two, one))):  # 0 and 1, as in Java
            if self.stop.is_set():
                break
            hunter.send("hunter")
            prey.send("prey")
            self._pause_after_role()
            game = self._play(engine, (hunter, prey), game_num)
            game["game"] = game_num + 1
            games.append(game)
        for player in self.players:
            player.send(p2016.DONE)
        result: dict[str, Any] = {
            "protocol": "2016",
            "n": self.config.n,
            "m": self.config.m,
            "games": games,
            "catch_steps": [g["catch_steps"] for g in games],
            "caught": [g["caught"] for g in games],
            "players": [one.name, two.name],
            "winner": _winner_2016(games, one.name, two.name),
        }
        if any(g.get("stopped") for g in games) or len(games) < 2:
            result["stopped"] = True
        return result

    def _pause_after_role(self) -> None:
        """Course clients read with one recv and keep its last line (or read fixed chunks):
        the role line must arrive on its own, never glued to the first state. The real
        servers pause (the 2016 one 1/60 s); so does this one, `handshake_pause` seconds."""
        if any(p.conn is not None for p in self.players) and self.handshake_pause and not self.stop.is_set():
            self.stop.wait(self.handshake_pause)

    def close(self) -> None:
        for player in self.players:
            player.close()
        if self.listener is not None:
            self.listener.close()


def _winner_2016(games: list[dict[str, Any]], one: str, two: str) -> str | None:
    """The player whose hunter caught sooner (`rules.hunting_score`, the rule the game's
    definition gives every match), from the server's records of its two games."""
    if len(games) < 2:
        return None
    scores = [hunting_score(game["catch_steps"] if game["caught"] else game["steps"], game["forfeit"] == "hunter")
              for game in games]
    if scores[0] < scores[1]:
        return one
    if scores[1] < scores[0]:
        return two
    return None


def run_server(
    config: Config | None = None,
    protocol: str = "2023",
    port: int = 0,
    hunter_kind: str = "tcp",
    prey_kind: str = "tcp",
    max_steps: int | None = None,
    on_state: OnState | None = None,
    agents: Mapping[str, Agent[Any, Any]] | None = None,
    *,
    on_listening: Callable[[int], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Serve one session (see module doc) and return its result dict. `on_listening(port)`
    is called once the socket is bound, before any client is awaited."""
    server = EvasionServer(config, protocol, port, hunter_kind, prey_kind, max_steps,
                           on_state=on_state, agents=agents, **options)
    if on_listening is not None:
        try:
            on_listening(server.port)
        except BaseException:
            server.close()
            raise
    return server.run()


class ServedMatch(MatchFeed[State, Any]):
    """The architect's games as a match feed: a display watches the server's own sessions
    as it would a local match, steers the driver's pace and sends its human seats' keys.
    Until the first game starts, an empty board with its seats named."""

    advances = False  # the architect starts each game itself
    sets_deadline = False  # TCP players have the protocol's thinking clocks instead

    def __init__(self, server: EvasionServer) -> None:
        names = [f"{kind} ({index + 1})" for index, kind in enumerate(server.kinds)]
        engine = EvasionEngine(server.config)
        seats: list[Agent[State, Any]] = [HumanAgent(name) if kind == "human" else Placeholder(name) for name, kind in zip(names, server.kinds)]
        super().__init__(Match(lambda index: engine, seats, 2 if server.protocol == "2016" else 1, names=names))
        self.match.new_session()
        self.server = server
        self.result: dict[str, Any] | None = None
        self.thread: threading.Thread | None = None
        server.on_session.append(self._served)
        server.log = self.note

    def _served(self, session: Session[State, Any]) -> None:
        """In the server's thread, before the game's first step: the pace as wished."""
        self.driver = self.server.driver
        self._apply_pace()
        self.match.adopt(session)
        self._begin(session)

    def describe(self) -> str:
        where = f":{self.server.port}" if self.server.listener is not None else "(no TCP seats)"
        return f"architect {where} {self.server.protocol} · game {max(1, self.match.round_index + (0 if self.session.over else 1))}"

    def seat_label(self, participant: int) -> str | None:
        players = self.server.players
        if participant < len(players) and players[participant].conn is not None:
            return players[participant].name
        return None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._serve, name="evasion-server", daemon=True)
        self.thread.start()
        if self.server.listener is not None:
            host = self.server.listener.host
            self.note(f"Listening on {host}:{self.server.port} ({self.server.protocol} protocol): waiting for the TCP players.")

    def _serve(self) -> None:
        try:
            result = self.server.run()
        except Exception as exc:  # reported by the display, never a crash
            result = {"error": f"{type(exc).__name__}: {exc}"}
        self.result = result
        self.note(result_text(result) + "  q quits.")

    def close(self) -> None:
        self.server.stop.set()
        if self.driver is not None:
            self.driver.stop(join=None)
        if self.thread is not None:
            self.thread.join(2)
        self.server.close()


def result_text(result: dict[str, Any]) -> str:
    """The architect's result in one line."""
    if "error" in result:
        return f"The architect failed: {result['error']}."
    if result.get("protocol") == "2016":
        games = result.get("games", [])
        parts = [f"game {g['game']}: {g['reason']}" for g in games]
        winner = result.get("winner")
        return "; ".join(parts) + (f". Winner: {winner}." if winner else ". No winner.")
    return f"{result.get('reason', 'over')} (hunter {result.get('hunter')}, prey {result.get('prey')})."
