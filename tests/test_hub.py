"""The online hub (online.hub) and the apps' mirrors of its matches (online.client),
without SSH or a screen: quick-match pairing, identical mirrors for both players and a
spectator, forfeit on disconnect and on idling, challenges, bots, and hostile links."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tui_grid.core.geometry import Direction
from tui_grid.online.hub import Hub, Pace, check_board
from tui_grid.core.match import most_wins
from tui_grid.online.client import Gone, HubClient
from tui_grid.online.protocol import from_wire, to_wire

WAIT = 20.0  # seconds a test waits for news before it fails (never a measured time)


@pytest.fixture
def hub(tmp_path: Path):  # type: ignore[no-untyped-def]
    lines: list[str] = []
    hub = Hub(tmp_path / "hub", pace=Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.02), log=lines.append)
    hub.lines = lines  # type: ignore[attr-defined]
    hub.start()
    yield hub
    hub.close()


class Player:
    """A linked app without a screen: every message it hears, in order."""

    def __init__(self, hub: Hub, name: str) -> None:
        self.heard: queue.Queue[dict[str, Any]] = queue.Queue()
        self.log: list[dict[str, Any]] = []
        self.client = HubClient(hub.admit(name)[0], self._heard)
        self.expect(lambda m: m["t"] == "welcome")

    def expect(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.heard.get(timeout=WAIT)
            self.log.append(message)
            if wanted(message):
                return message

    def _heard(self, news: Any) -> None:
        """Kept as the wire has it, so tests read fields by name."""
        self.heard.put({"t": "gone"} if isinstance(news, Gone) else to_wire(news))

    def send(self, **message: Any) -> None:
        self.client.send(from_wire(message))

    def close(self) -> None:
        self.client.close()


def pair(first: Player, second: Player, game: str = "tron") -> None:
    """A quick match with `first` as participant 0: it queues, and is seen waiting, first."""
    first.send(t="queue", game=game)
    first.expect(lambda m: m["t"] == "lobby" and any(p["doing"].startswith("waiting for a") for p in m["players"]))
    second.send(t="queue", game=game)


@pytest.fixture
def players(hub: Hub):  # type: ignore[no-untyped-def]
    made: list[Player] = []

    def make(name: str) -> Player:
        made.append(Player(hub, name))
        return made[-1]

    yield make
    for player in made:
        player.close()


def test_a_quick_match_is_played_to_its_end_and_both_mirrors_agree(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann, bob = players("ann"), players("bob")
    ann.send(t="queue", game="tron")
    lobby = ann.expect(lambda m: m["t"] == "lobby" and any(p["doing"] == "waiting for a tron match" for p in m["players"]))
    assert [p["name"] for p in lobby["players"]] == ["ann", "bob"]
    bob.send(t="queue", game="tron")
    starts = [p.expect(lambda m: m["t"] == "match") for p in (ann, bob)]
    assert [s["you"] for s in starts] == [0, 1] and starts[0]["names"] == ["ann", "bob"]
    ends = [p.expect(lambda m: m["t"] == "end") for p in (ann, bob)]
    assert ends[0] == ends[1] and ends[0]["text"].startswith("Match over")
    a, b = ann.client.feed, bob.client.feed
    assert a is not None and b is not None and a.match.finished and b.match.finished
    assert [r.log for r in a.match.score.rounds] == [r.log for r in b.match.score.rounds]
    assert [r.winner for r in a.match.score.rounds] == [r.winner for r in b.match.score.rounds]
    assert a.match.score.summary() in ends[0]["text"]
    assert any(line == f"match 1 end: {ends[0]['text']}" for line in hub.lines)  # type: ignore[attr-defined]
    assert [r.seating for r in a.match.score.rounds] == [(0, 1), (1, 0)]  # seats swap


def test_keys_steer_only_the_players_own_seat(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.2)
    ann, bob = players("ann"), players("bob")
    pair(ann, bob)
    ann.expect(lambda m: m["t"] == "note" and m["text"] == "Go!")
    feed = ann.client.feed
    assert feed is not None
    session = feed.session
    engine = session.engine
    seat = feed.match.seating.index(0)
    turn = next(a for a in engine.legal_actions(session.state, seat) if a != engine.default_action(session.state, seat))
    session.submit(seat, turn)  # the HubSeat sends it; the hub queues it in ann's real seat
    for _ in range(8):  # the key is played at the hub's next tick after it arrives
        ann.expect(lambda m: m["t"] in ("step", "forfeit"))
        if any(joint[seat] == turn for joint in feed.session.log) or feed.session.over:
            break
    assert [joint[seat] for joint in feed.session.log].count(turn) == 1
    other = 1 - seat
    assert all(joint[other] == engine.default_action(state, other)
               for joint, state in zip(feed.session.log, engine.replay(feed.session.log)))  # bob pressed nothing


def test_a_player_who_disconnects_loses_by_forfeit_and_the_other_is_told(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.5)
    ann, bob = players("ann"), players("bob")
    pair(ann, bob)
    bob.expect(lambda m: m["t"] == "step")  # a move made: leaving now loses (before it, it aborts)
    ann.close()
    forfeit = bob.expect(lambda m: m["t"] == "forfeit")
    assert forfeit["fault"] == "disconnected"
    end = bob.expect(lambda m: m["t"] == "end")
    assert end["text"].startswith("Match over: bob wins: ann disconnected.")
    feed = bob.client.feed
    assert feed is not None and feed.session.over
    outcome = feed.session.outcome
    said = feed.game.describe_outcome(outcome, [feed.match.score.names[p] for p in feed.match.seating])
    assert feed.match.seating[outcome.winner] == 1 and "(ann) forfeits: disconnected" in said, (said, feed.match.seating, bob.log)


def test_an_idle_player_forfeits(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.01, idle_seconds=0.0)
    ann = players("ann")
    ann.send(t="challenge", to="bot:builtin", game="evasion")
    ann.expect(lambda m: m["t"] == "match")
    forfeit = ann.expect(lambda m: m["t"] == "forfeit")
    assert (forfeit["fault"], forfeit["numbers"]) == ("idle", [0.0])
    assert "ann idled" in ann.expect(lambda m: m["t"] == "end")["text"]


def test_a_spectator_joining_mid_match_sees_what_the_players_see(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.05)
    ann, bob, cat = players("ann"), players("bob"), players("cat")
    pair(ann, bob)
    ann.expect(lambda m: m["t"] == "step")
    lobby = cat.expect(lambda m: m["t"] == "lobby" and m["matches"])
    cat.send(t="watch", id=lobby["matches"][0]["id"])
    joined = cat.expect(lambda m: m["t"] == "match")
    assert joined["you"] is None
    for player in (ann, cat):
        player.expect(lambda m: m["t"] == "end")
    a, c = ann.client.feed, cat.client.feed
    assert a is not None and c is not None
    assert [r.log for r in c.match.score.rounds] == [r.log for r in a.match.score.rounds]
    assert c.match.score.summary() == a.match.score.summary()


def test_a_challenge_is_accepted_or_declined(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann, bob = players("ann"), players("bob")
    ann.send(t="challenge", to="bob", game="tron", board="pillars", rounds=1)
    lobby = bob.expect(lambda m: m["t"] == "lobby" and m["challenges"])
    challenge = lobby["challenges"][0]
    assert (challenge["by"], challenge["to"], challenge["board"], challenge["rounds"]) == ("ann", "bob", "pillars", 1)
    bob.send(t="answer", id=challenge["id"], accept=False)
    assert "bob declined" in ann.expect(lambda m: m["t"] == "error")["text"]
    ann.send(t="challenge", to="bob", game="tron", board="pillars", rounds=1)
    challenge = bob.expect(lambda m: m["t"] == "lobby" and m["challenges"])["challenges"][0]
    bob.send(t="answer", id=challenge["id"], accept=True)
    start = ann.expect(lambda m: m["t"] == "match")
    assert (start["board"], start["rounds"]) == ("pillars", 1)
    ann.expect(lambda m: m["t"] == "end")


@pytest.mark.parametrize(("message", "error"), [
    ({"t": "challenge", "to": "bob", "game": "ice"}, "Only Evasion and Tron are played online"),
    ({"t": "challenge", "to": "bob", "game": "tron", "board": "/etc/passwd"}, "No tron board called /etc/passwd"),
    ({"t": "challenge", "to": "bob", "game": "tron", "board": "../boards/tron/standard"}, "No tron board"),
    ({"t": "challenge", "to": "nobody", "game": "tron"}, "nobody is not online"),
    ({"t": "challenge", "to": "ann", "game": "tron"}, "somebody else"),
    ({"t": "challenge", "to": "bot:cmd:sh", "game": "tron"}, "No cmd:sh bot"),
    ({"t": "watch", "id": 99}, "That match is over"),
    ({"t": "answer", "id": 99, "accept": True}, "That challenge is gone"),
])
def test_what_a_player_may_not_ask_is_refused_with_a_reason(hub: Hub, players, message, error) -> None:  # type: ignore[no-untyped-def]
    ann, _ = players("ann"), players("bob")
    ann.send(**message)
    assert error in ann.expect(lambda m: m["t"] == "error")["text"]
    assert not hub.matches


def test_hostile_links_are_dropped_and_the_hub_goes_on(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    def raw(data: bytes) -> bytes:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(WAIT)
            sock.connect(str(hub.path))
            try:
                sock.sendall(data)
            except BrokenPipeError:  # dropped while it was still sending: the point
                pass
            received = b""
            try:
                while chunk := sock.recv(65536):
                    received += chunk
            except ConnectionResetError:  # dropped with unread bytes: the same
                pass
            return received

    assert b"not known" in raw(b'{"t":"hello","token":"guess"}\n')
    assert raw(b"not json\n") == b""
    assert raw(b'{"t":"hello","token":' + b"x" * (2 << 20)) == b""  # no end of line, ever: dropped at the cap
    assert raw(b"[1,2]\n") == b""
    ann = players("ann")
    ann.send(t="doing", doing="\x1b]0;PWNED\x07playing [b]ice[/b]" + "x" * 100)
    doing = ann.expect(lambda m: m["t"] == "lobby" and m["players"][0]["doing"] != "in the menu")["players"][0]["doing"]
    assert "\x1b" not in doing and "\x07" not in doing and len(doing) <= 40
    ann.client.sock.sendall(b'{"t":"challenge","to":["bob"],"game":{"x":1},"rounds":1000000000}\n')  # past the app's own checks
    assert "Not understood: a challenge message: 'to' is not a text" in ann.expect(lambda m: m["t"] == "error")["text"]


def test_a_flood_is_rate_limited_not_served(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann = players("ann")
    for _ in range(2000):
        ann.send(t="challenge", to="nobody", game="tron")
    time.sleep(1.0)  # the bucket refills: the next message is served
    ann.send(t="doing", doing="done")
    errors = 0
    while True:
        message = ann.expect(lambda m: True)
        errors += message["t"] == "error"
        if message["t"] == "lobby" and message["players"][0]["doing"] == "done":
            break
        if errors > 400:
            break
    assert 80 <= errors <= 400  # the bucket's burst and its refill while the flood is read, not 2000


def test_board_names_are_catalog_names_or_ids() -> None:
    assert check_board("tron", "standard") is None
    assert check_board("tron", "tron:15x15:w10#seed3") is None
    assert check_board("evasion", "evasion:N10:M5") is None
    assert "No tron board" in (check_board("tron", "boards/tron/standard.txt") or "")
    for spaced in ("tron:15x15:w12#seed1\n", " tron:15x15:w12#seed1", "tron:15x15:w12#seed1\x1b"):
        assert "No tron board" in (check_board("tron", spaced) or "")  # an id as the log and the lobby show it, whole
    json.dumps(check_board("tron", "x" * 80))


def test_two_bots_play_while_a_player_watches_and_stop_when_nobody_does(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.2)
    ann = players("ann")
    ann.send(t="challenge", to="bot:hard", game="tron", **{"as": "bot:easy"}, rounds=9)
    start = ann.expect(lambda m: m["t"] == "match")
    assert start["you"] is None and start["names"] == ["easy bot", "hard bot"]
    ann.expect(lambda m: m["t"] == "step")
    ann.send(t="leave")
    lobby = ann.expect(lambda m: m["t"] == "lobby" and not m["matches"])
    assert lobby["players"][0]["doing"] == "in the menu"
    assert any("nobody was watching" in line for line in hub.lines)  # type: ignore[attr-defined]


def test_bot_matches_are_one_per_player_and_capped_on_the_server_and_think_at_a_lower_priority(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    """Thirty requests for bot matches from one link leave one running (each new one ends
    the one it watched, which nobody else watches); one that someone else watches too
    stays, and then its starter may start no other; other players together reach the cap
    and no further; a bot's thinking thread runs at BOT_NICENESS; when everyone leaves, the
    bot matches stop."""
    from tui_grid.online.hub import MAX_BOT_MATCHES
    from tui_grid.online.matches import BOT_NICENESS

    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.5)  # rounds outlast the test's checks
    ann = players("ann")
    for _ in range(30):
        ann.send(t="challenge", to="bot:hard", game="tron", **{"as": "bot:hard"}, rounds=9)
    deadline = time.monotonic() + WAIT
    while sum(" start: " in line for line in hub.lines) < 30 and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.02)
    assert _bot_matches(hub) == 1
    bob = players("bob")
    with hub.lock:
        running = next(match.id for match in hub.matches.values() if not match.stopping)
    bob.send(t="watch", id=running)
    bob.expect(lambda m: m["t"] == "match")
    ann.send(t="challenge", to="bot:easy", game="tron", rounds=9)
    assert "A bot match you started is still running" in ann.expect(lambda m: m["t"] == "error")["text"]
    others = [players(f"p{index}") for index in range(MAX_BOT_MATCHES)]
    for other in others[:-1]:  # one at a time: links are read in parallel
        other.send(t="challenge", to="bot:easy", game="tron", rounds=9)
        other.expect(lambda m: m["t"] == "match")
    others[-1].send(t="challenge", to="bot:easy", game="tron", rounds=9)
    assert "bot matches already" in others[-1].expect(lambda m: m["t"] == "error")["text"]
    assert _bot_matches(hub) == MAX_BOT_MATCHES
    ann.expect(lambda m: m["t"] == "step")
    assert max(_thread_niceness()) >= BOT_NICENESS
    for player in [ann, bob, *others]:
        player.close()
    deadline = time.monotonic() + WAIT
    while _bot_matches(hub) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _bot_matches(hub) == 0


def _bot_matches(hub: Hub) -> int:
    with hub.lock:
        return sum(1 for match in hub.matches.values() if getattr(match, "has_bots", False) and not match.stopping)


def _thread_niceness() -> list[int]:
    """The niceness of each thread of this process (Linux: /proc/self/task)."""
    found = []
    for task in Path("/proc/self/task").iterdir():
        try:
            found.append(int((task / "stat").read_text().rsplit(")", 1)[1].split()[16]))
        except (OSError, ValueError, IndexError):
            continue
    return found


@pytest.mark.parametrize("protocol", ["2023", "2016"])
def test_a_spectator_watches_the_architects_games(hub: Hub, players, protocol: str) -> None:  # type: ignore[no-untyped-def]
    """`serve evasion --online`: the architect publishes its games to the lobby; a player
    watching sees each step as the architect played it, both games of a 2016 session."""
    from tui_grid.online.publish import HubPublisher, find_hub
    from tui_grid.games.evasion.definition import config_id
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.server import EvasionServer

    found = find_hub(hub.folder)
    assert found is not None and found[0] == hub.path
    cat = players("cat")
    server = EvasionServer(Config(n=10, m=5), protocol, 0, "builtin", "random", 120, tick_seconds=0.0, handshake_pause=0.0)
    publisher = HubPublisher(found[0], found[1], "evasion", lambda engine: config_id(engine.config), ["builtin (1)", "random (2)"],
                             2 if protocol == "2016" else 1)
    publisher.attach(server)
    logs: list[list[dict]] = []
    server.on_session.append(lambda session: logs.append(session.log))
    watching = threading.Event()

    def watch(session) -> None:  # type: ignore[no-untyped-def]
        """Before the first step (the architect's thread): a spectator joins."""
        if watching.is_set():
            return
        lobby = cat.expect(lambda m: m["t"] == "lobby" and m["matches"])
        assert lobby["matches"][0]["names"] == ["builtin (1)", "random (2)"] and lobby["players"][0]["name"] == "cat"
        cat.send(t="watch", id=lobby["matches"][0]["id"])
        cat.expect(lambda m: m["t"] == "match")
        watching.set()

    server.on_session.append(watch)
    server.run()
    publisher.close()
    assert cat.expect(lambda m: m["t"] == "end")["text"] == "The architect is done."
    feed = cat.client.feed
    assert feed is not None
    mirrored = [r.log for r in feed.match.score.rounds]
    assert mirrored == [feed.session.engine.format_log(log) for log in logs] and len(logs) == (2 if protocol == "2016" else 1)
    assert any(line.startswith("match 1 end:") for line in hub.lines)  # type: ignore[attr-defined]


def test_only_the_publishing_token_publishes(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann = players("ann")
    ann.send(t="publish", game="evasion", board="evasion:N10:M5", names=["x"], rounds=1)
    ann.send(t="step", joint="x")
    ann.send(t="doing", doing="still here")
    ann.expect(lambda m: m["t"] == "lobby" and m["players"][0]["doing"] == "still here")
    assert not hub.matches


def test_a_burst_of_lobby_changes_is_one_lobby_and_an_unchanged_lobby_is_not_sent(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann = players("ann")
    ann.expect(lambda m: m["t"] == "lobby")
    seen = len(ann.log)
    with hub.lock:  # thirty changes before the lobby can be looked at again: one lobby for them all
        for index in range(30):
            hub.links["ann"].doing = f"change {index}"
            hub.lobby_changed()
    lobby = ann.expect(lambda m: m["t"] == "lobby")
    assert lobby["players"][0]["doing"] == "change 29"
    with hub.lock:
        hub.lobby_changed()  # nothing changed
    ann.send(t="doing", doing="last")  # (a change after it, to know the hub has looked)
    last = ann.expect(lambda m: m["t"] == "lobby")
    assert last["players"][0]["doing"] == "last"
    assert [m["t"] for m in ann.log[seen:]].count("lobby") == 2


def test_a_lobby_is_encoded_once_for_all_the_links_it_goes_to(hub: Hub, players, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The lobby is the largest message and goes to every link at every change: encoding
    it per link made each change cost links x lobby under the hub's lock."""
    import tui_grid.online.hub as hub_module
    import tui_grid.online.wire as wire
    from tui_grid.online.protocol import Lobby

    encoded: list[str] = []

    def counting(original):  # type: ignore[no-untyped-def]
        def encode(message):  # type: ignore[no-untyped-def]
            if isinstance(message, Lobby):
                encoded.append(",".join(player.doing for player in message.players))
            return original(message)
        return encode

    monkeypatch.setattr(hub_module, "encode", counting(hub_module.encode))
    monkeypatch.setattr(wire, "encode", counting(wire.encode))
    ann, bob, cat = players("ann"), players("bob"), players("cat")
    for player in (ann, bob, cat):
        player.expect(lambda m: m["t"] == "lobby" and len(m["players"]) == 3)
    encoded.clear()
    ann.send(t="doing", doing="reading")
    for player in (ann, bob, cat):
        player.expect(lambda m: m["t"] == "lobby" and "reading" in [p["doing"] for p in m["players"]])
    assert len([text for text in encoded if "reading" in text]) == 1


def test_a_player_in_a_match_is_sent_no_lobby_until_back(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    """Their app shows the match, not the lobby: lobbies sent there would be read and
    dropped. Back from the match, they are sent the lobby as it is then."""
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=30.0, tick_seconds=0.02)  # the match lasts the test
    ann, bob, cat = players("ann"), players("bob"), players("cat")
    pair(ann, bob)
    ann.expect(lambda m: m["t"] == "match")
    bob.expect(lambda m: m["t"] == "match")
    seen = len(ann.log)
    for index in range(3):
        cat.send(t="doing", doing=f"busy {index}")
        cat.expect(lambda m: m["t"] == "lobby" and "busy " + str(index) in [p["doing"] for p in m["players"]])
    ann.send(t="leave")
    back = ann.expect(lambda m: m["t"] == "lobby")  # everything ann was sent before it is in ann.log
    assert [m for m in ann.log[seen:] if m["t"] == "lobby"] == [back]
    assert "busy 2" in [p["doing"] for p in back["players"]]


def test_a_mirror_plays_each_step_it_is_sent_once() -> None:
    from tui_grid.games.tron.engine import TronEngine
    from tui_grid.online.client import HubFeed
    from tui_grid.online.protocol import MatchStart, Step

    class Link:
        def send(self, message: Any) -> None:
            pass

    steps = 0
    original = TronEngine.step

    def counted(self, state, actions):  # type: ignore[no-untyped-def]
        nonlocal steps
        steps += 1
        return original(self, state, actions)

    feed = HubFeed(Link(), MatchStart(1, "tron", "standard", 2, ("ann", "bob"), None))  # type: ignore[arg-type]
    TronEngine.step = counted  # type: ignore[method-assign]
    try:
        for _ in range(3):
            feed.handle(Step("R,L"))
    finally:
        TronEngine.step = original  # type: ignore[method-assign]
    assert steps == 3 and feed.session.state.turn == 3


@pytest.mark.parametrize("moment", ["first countdown", "before the first move", "mid-round", "between rounds", "second countdown"])
@pytest.mark.parametrize("how", ["leave", "disconnect"])
def test_leaving_at_any_moment_hands_the_match_to_the_other(hub: Hub, players, moment: str, how: str) -> None:  # type: ignore[no-untyped-def]
    """Once anyone has moved, a player who leaves (or whose link drops) in a countdown,
    mid-round or between rounds loses the match, whatever the score; before anyone moved
    the match is aborted and counts for nobody. The other player's last news is the
    verdict, and the lobby lists no match."""
    slow = 30.0  # a phase that lasts past the test's checks
    pace = {"first countdown": Pace(countdown=1, beat=slow, tick_seconds=0.05),
            "before the first move": Pace(countdown=1, beat=0.01, tick_seconds=slow),
            "mid-round": Pace(countdown=1, beat=0.01, tick_seconds=0.3),
            "between rounds": Pace(countdown=1, beat=0.01, between_rounds=slow, tick_seconds=0.02),
            "second countdown": Pace(countdown=2, beat=0.01, between_rounds=0.01, tick_seconds=0.02)}[moment]
    hub.pace = pace
    ann, bob = players("ann"), players("bob")
    pair(ann, bob)
    if moment == "first countdown":
        bob.expect(lambda m: m["t"] == "note" and m["text"].startswith("Get ready"))
    elif moment == "before the first move":
        bob.expect(lambda m: m["t"] == "note" and m["text"] == "Go!")
    elif moment == "mid-round":
        bob.expect(lambda m: m["t"] == "step")
    elif moment == "between rounds":
        bob.expect(lambda m: m["t"] == "note" and "Round 2 in" in m["text"])
    else:
        bob.expect(lambda m: m["t"] == "round")
        hub.pace = Pace(countdown=2, beat=slow)  # round 2's countdown lasts past the checks
    if how == "leave":
        ann.send(t="leave")
    else:
        ann.close()
    end = bob.expect(lambda m: m["t"] == "end")
    went = "left the match" if how == "leave" else "disconnected"
    if moment in ("first countdown", "before the first move"):
        assert end["text"] == f"Match aborted: ann {went} before anyone moved. It counts for nobody.", end
    else:
        assert end["text"].startswith(f"Match over: bob wins: ann {went}."), end
    assert bob.client.feed is not None and bob.client.feed.ended == end["text"]
    bob.expect(lambda m: m["t"] == "lobby" and not m["matches"])


def test_a_hundred_online_matches_with_random_leave_times_each_end_on_the_verdict(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    """Pairs play quick matches and one of them leaves (or drops) at a random moment, or
    nobody does: every remaining player's last match news is the verdict, naming the right
    winner, and the hub logs the same verdict once per match."""
    import random

    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.01)
    chance = random.Random(20261127)
    batch, matches = 10, 100
    verdicts = []
    for first in range(0, matches, batch):
        pairs = []
        for index in range(first, first + batch):
            a, b = players(f"a{index}"), players(f"b{index}")
            a.send(t="challenge", to=b.client.name, game="tron", rounds=2)
            pairs.append((index, a, b))
        for index, a, b in pairs:
            challenge = b.expect(lambda m: m["t"] == "lobby" and any(c["to"] == f"b{index}" for c in m["challenges"]))
            found = next(c for c in challenge["challenges"] if c["to"] == f"b{index}")
            b.send(t="answer", id=found["id"], accept=True)
        for index, a, b in pairs:
            b.expect(lambda m: m["t"] == "match")
            plan = chance.choice(["stay", "leave", "drop"])
            if plan != "stay":
                time.sleep(chance.uniform(0.0, 0.1))  # any moment: a countdown, a round, between rounds
                if plan == "leave":
                    a.send(t="leave")
                else:
                    a.close()
            end = b.expect(lambda m: m["t"] == "end")
            feed = b.client.feed
            assert feed is not None and feed.ended == end["text"]
            winner = most_wins(feed.match.score)
            played = f"Match over: {feed.match.score.names[winner]} wins." if winner is not None else "Match over: a draw."
            if plan == "stay":
                assert end["text"].startswith(played), end
            else:  # it went before anyone moved (an abort), before the match ended (it hands it over), or after
                aborted = f"Match aborted: a{index} {'left the match' if plan == 'leave' else 'disconnected'} before anyone moved."
                assert end["text"].startswith((aborted, f"Match over: b{index} wins: a{index} ", played)), end
            verdicts.append(end["text"])
            a.close()
            b.close()
    assert len(verdicts) == matches
    logged = [line for line in hub.lines if " end: Match " in line]  # type: ignore[attr-defined]
    assert len(logged) == matches and sorted(line.split(" end: ", 1)[1] for line in logged) == sorted(verdicts)


def test_keys_sent_during_the_countdown_are_one_intention_at_go(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    """The held clock's rule online too (MatchFeed.pause): a burst typed while waiting for
    Go! is not played a key a tick; the last key is the one turn."""
    hub.pace = Pace(countdown=1, beat=1.0, between_rounds=0.01, tick_seconds=0.3)
    ann, bob = players("ann"), players("bob")
    pair(ann, bob)
    ann.expect(lambda m: m["t"] == "note" and m["text"].startswith("Get ready"))
    for letter in "URRDDL":
        ann.send(t="key", action=letter)
    ann.expect(lambda m: m["t"] == "note" and m["text"] == "Go!")
    feed = ann.client.feed
    assert feed is not None
    session, seat = feed.session, feed.match.seating.index(0)  # this round's, whatever follows
    for _ in range(3):
        ann.expect(lambda m: m["t"] in ("step", "forfeit"))
        if session.over:
            break
    moves = {joint[seat] for joint in session.log}
    assert moves == {Direction.LEFT}, moves  # not up, then right, then left into its trail


def test_a_folder_the_hub_makes_for_its_socket_is_gone_when_it_closes(tmp_path: Path) -> None:
    """A folder with too long a path for a Unix socket: the hub serves from one it makes,
    and removes that one when it closes (every start would leave one behind)."""
    deep = tmp_path / ("x" * 60) / ("y" * 60)
    hub = Hub(deep, pace=Pace(countdown=1, beat=0.01, between_rounds=0.01))
    hub.start()
    made = hub.folder
    assert made != deep and made.is_dir() and hub.path.exists()
    hub.close()
    assert not made.exists()


def test_a_closed_hub_leaves_no_thread_and_its_socket_refuses(tmp_path: Path) -> None:
    """Closing the listening socket alone leaves a thread blocked in accept for good (and the
    socket with it): close wakes it, and every thread the hub started has ended."""
    before = set(threading.enumerate())
    hub = Hub(tmp_path, pace=Pace(countdown=1, beat=0.01, between_rounds=0.01))
    hub.start()
    started = set(threading.enumerate()) - before
    assert {thread.name for thread in started} >= {"hub-accept", "hub-loop", "hub-lobby"}
    hub.close()
    assert not [thread.name for thread in started if thread.is_alive()]
