"""Several servers, one lobby (online.federation), with a real Redis and a real PostgreSQL:
two hubs share presence and the quick-match queue, a Tron match between a player of each
is hosted by one and mirrored to the other's player, and it is kept once in the shared
store; a hub without Redis says so and does not start."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from tests.test_hub import Player
from tui_grid.online.federation import FederationError
from tui_grid.online.hub import Hub, Pace
from tui_grid.online.store_pg import PostgresStore

pytest_plugins = ["tests.services"]

PACE = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.02)


@pytest.fixture
def two_hubs(tmp_path: Path, redis_url: str, pg_dsn: str) -> Iterator[tuple[Hub, Hub, PostgresStore]]:
    store = PostgresStore(pg_dsn)
    hubs = []
    for index in (1, 2):
        lines: list[str] = []
        hub = Hub(tmp_path / f"hub{index}", pace=PACE, log=lines.append, store=store, federation=redis_url)
        hub.lines = lines  # type: ignore[attr-defined]
        hub.start()
        hubs.append(hub)
    try:
        yield hubs[0], hubs[1], store
    finally:
        for hub in hubs:
            hub.close()


def eventually(check, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    """Polls `check` (news crosses servers at the next beat); the test fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return bool(check())


def test_the_lobby_lists_the_players_of_every_server(two_hubs) -> None:  # type: ignore[no-untyped-def]
    first, second, _ = two_hubs
    ann, bob = Player(first, "ann"), Player(second, "bob")
    try:
        lobby = ann.expect(lambda m: m["t"] == "lobby" and any(p["name"] == "bob" for p in m["players"]))
        bob_line = next(p for p in lobby["players"] if p["name"] == "bob")
        assert bob_line["doing"].endswith(f"on server {second.crossing.number}")
        bob.expect(lambda m: m["t"] == "lobby" and any(p["name"] == "ann" for p in m["players"]))
    finally:
        ann.close()
        bob.close()


def test_a_quick_match_across_servers_is_hosted_once_mirrored_and_kept_once(two_hubs) -> None:  # type: ignore[no-untyped-def]
    first, second, store = two_hubs
    ann, bob = Player(first, "ann"), Player(second, "bob")
    try:
        bob.send(t="queue", game="tron")
        bob.expect(lambda m: m["t"] == "lobby" and any(p["doing"].startswith("waiting for a") for p in m["players"]))
        ann.send(t="queue", game="tron")  # pops bob from the shared queue: this server hosts
        starts = [p.expect(lambda m: m["t"] == "match") for p in (ann, bob)]
        assert starts[0]["id"] == starts[1]["id"] and starts[0]["id"] > first.crossing.number * 1_000_000
        assert starts[0]["names"] == ["bob", "ann"] and [s["you"] for s in starts] == [1, 0]
        ends = [p.expect(lambda m: m["t"] == "end") for p in (ann, bob)]
        assert ends[0] == ends[1] and ends[0]["text"].startswith("Match over")
        a, b = ann.client.feed, bob.client.feed
        assert a is not None and b is not None
        assert [r.log for r in a.match.score.rounds] == [r.log for r in b.match.score.rounds]
        assert eventually(lambda: len(store.recent_matches(10)) == 1)
        kept = store.recent_matches(10)
        assert len(kept) == 1 and sorted(kept[0].names) == ["ann", "bob"]  # type: ignore[attr-defined]
        assert any(line.startswith(f"match {starts[0]['id']} start") for line in first.lines)  # type: ignore[attr-defined]
        assert not any(line.startswith(f"match {starts[0]['id']} start") for line in second.lines)  # type: ignore[attr-defined]
    finally:
        ann.close()
        bob.close()


def test_a_hub_whose_redis_cannot_be_reached_does_not_start(tmp_path: Path) -> None:
    from tests.services import free_port

    hub = Hub(tmp_path / "hub", federation=f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(FederationError, match="cannot reach Redis at redis://127.0.0.1:"):
        hub.start()
    hub.close()


def test_a_match_on_another_server_is_listed_and_watched_from_here(two_hubs) -> None:  # type: ignore[no-untyped-def]
    first, second, _ = two_hubs
    second.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.2)
    ann, bob, cat = Player(second, "ann"), Player(second, "bob"), Player(first, "cat")
    try:
        bob.send(t="queue", game="tron")
        bob.expect(lambda m: m["t"] == "lobby" and any(p["doing"].startswith("waiting for a") for p in m["players"]))
        ann.send(t="queue", game="tron")
        start = ann.expect(lambda m: m["t"] == "match")
        assert start["id"] // 1_000_000 == second.crossing.number
        listed = cat.expect(lambda m: m["t"] == "lobby" and any(match["id"] == start["id"] for match in m["matches"]))
        assert next(match for match in listed["matches"] if match["id"] == start["id"])["names"] == ["bob", "ann"]
        cat.send(t="watch", id=start["id"])
        watching = cat.expect(lambda m: m["t"] == "match")
        assert watching["id"] == start["id"] and watching["you"] is None
        ends = [p.expect(lambda m: m["t"] == "end") for p in (ann, cat)]
        assert ends[0] == ends[1]
        watched, played = cat.client.feed.match.score.rounds, ann.client.feed.match.score.rounds
        assert [r.winner for r in watched] == [r.winner for r in played] and watched[-1].log == played[-1].log
        cat.send(t="leave")
        assert eventually(lambda: not second.crossing.remote_links)
    finally:
        for player in (ann, bob, cat):
            player.close()


def test_a_lost_redis_is_said_and_retried_and_the_lobby_goes_on(tmp_path: Path) -> None:
    from tests.services import RedisProcess, free_port

    folder = tmp_path / "redis"
    folder.mkdir()
    port = free_port()
    redis = RedisProcess(folder, port)
    lines: list[str] = []
    hub = Hub(tmp_path / "hub", pace=PACE, log=lines.append, federation=redis.url)
    hub.start()
    ann = Player(hub, "ann")
    try:
        redis.stop()
        assert eventually(lambda: any(line.startswith("redis: connection lost") for line in lines))
        bob = Player(hub, "bob")  # the lobby goes on: this server's players meet as before
        ann.expect(lambda m: m["t"] == "lobby" and any(p["name"] == "bob" for p in m["players"]))
        bob.close()
        redis = RedisProcess(folder, port)
        assert eventually(lambda: "redis: connected again" in lines)
    finally:
        ann.close()
        hub.close()
        redis.stop()


def test_a_challenge_to_a_player_of_another_server_is_listed_there_and_accepted(two_hubs) -> None:  # type: ignore[no-untyped-def]
    first, second, _ = two_hubs
    ann, bob = Player(first, "ann"), Player(second, "bob")
    try:
        ann.expect(lambda m: m["t"] == "lobby" and any(p["name"] == "bob" for p in m["players"]))
        ann.send(t="challenge", to="bob", game="tron", board="standard", rounds=1)
        lobby = bob.expect(lambda m: m["t"] == "lobby" and any(c["to"] == "bob" for c in m["challenges"]))
        challenge = next(c for c in lobby["challenges"] if c["to"] == "bob")
        assert challenge["by"] == "ann" and challenge["id"] // 1_000_000 == first.crossing.number
        bob.send(t="answer", id=challenge["id"], accept=True)
        starts = [p.expect(lambda m: m["t"] == "match") for p in (ann, bob)]
        assert starts[0]["id"] == starts[1]["id"] and starts[0]["names"] == ["ann", "bob"]
        assert [p.expect(lambda m: m["t"] == "end")["text"] for p in (ann, bob)][0].startswith("Match over")
        ann.send(t="challenge", to="bob", game="tron", board="standard", rounds=1)
        lobby = bob.expect(lambda m: m["t"] == "lobby" and any(c["to"] == "bob" for c in m["challenges"]))
        bob.send(t="answer", id=next(c for c in lobby["challenges"] if c["to"] == "bob")["id"], accept=False)
        assert "bob declined your tron challenge" in ann.expect(lambda m: m["t"] == "error")["text"]
    finally:
        ann.close()
        bob.close()


def test_a_store_that_does_not_answer_holds_up_only_the_asker(tmp_path: Path, pg_dsn: str) -> None:
    """The store's host stops answering (a listener that accepts and says nothing): a
    leaderboard request waits for the store's connect timeout, while the lobby goes on for
    everyone, and the asker is told plainly."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    store = PostgresStore(pg_dsn, connect_timeout=5)
    hub = Hub(tmp_path / "hub", pace=PACE, store=store)
    hub.start()
    ann, bob = Player(hub, "ann"), Player(hub, "bob")
    try:
        store.dsn = f"host=127.0.0.1 port={silent.getsockname()[1]} user=postgres dbname=none"
        ann.send(t="top", game="tron")
        bob.send(t="doing", doing="in the lobby")  # the hub answers bob while ann's request waits
        cat = Player(hub, "cat")  # and lets a new player in
        bob.expect(lambda m: m["t"] == "lobby" and any(p["name"] == "cat" for p in m["players"]))
        assert not any(m["t"] == "error" for m in list(ann.heard.queue))  # ann's answer is still coming
        error = ann.expect(lambda m: m["t"] == "error")
        assert error["text"] == "The server's records cannot be reached just now: try again later."
        cat.close()
    finally:
        ann.close()
        bob.close()
        hub.close()
        silent.close()
