"""The online arena room (online.arena_room) on a hub, without SSH or a screen: riders
join between rounds and bots fill the empty seats, everyone's mirror agrees, a spectator
follows round after round, a rider who leaves mid-round forfeits their cycle alone while
the others ride on, points add up by name, and the room closes when nobody is in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_hub import players  # noqa: F401  (the fixture, on this module's hub)
from tui_grid.online.hub import Hub, Pace


@pytest.fixture
def hub(tmp_path: Path):  # type: ignore[no-untyped-def]
    lines: list[str] = []
    hub = Hub(tmp_path / "hub", pace=Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.02), log=lines.append,
              arena_cycles=4)
    hub.lines = lines  # type: ignore[attr-defined]
    hub.start()
    yield hub
    hub.close()


def is_start(message: dict) -> bool:  # type: ignore[type-arg]
    return message["t"] == "match"


def test_riders_share_rounds_with_bots_and_a_spectator_follows_them(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat, dan = players("ann"), players("bob"), players("cat"), players("dan")
    ann.send(t="arena")
    first = ann.expect(is_start)
    assert first["board"] == "arena4" and first["rounds"] == 1 and first["you"] is not None
    assert sorted(first["names"]) == sorted(["ann", "medium bot", "easy bot", "hard bot"])
    for rider in (bob, cat):
        rider.send(t="arena")
        watching = rider.expect(is_start)  # the round under way, watched
        assert watching["you"] is None and watching["id"] == first["id"]
        assert "you ride from the next round" in rider.expect(lambda m: m["t"] == "note")["text"]
    dan.send(t="watch", id=first["id"])
    dan.expect(is_start)
    ends = [p.expect(lambda m: m["t"] == "end") for p in (ann, bob, cat, dan)]
    assert all(end == ends[0] for end in ends)
    assert ends[0]["text"].startswith("Arena round 1: ") and "Next round in" in ends[0]["text"]
    second = [p.expect(is_start) for p in (ann, bob, cat, dan)]
    assert len({start["id"] for start in second}) == 1 and second[0]["id"] != first["id"]
    names = second[0]["names"]
    assert sorted(n for n in names if not n.endswith("bot")) == ["ann", "bob", "cat"] and len(names) == 4
    assert [start["you"] for start in second] == [names.index("ann"), names.index("bob"), names.index("cat"), None]
    mirrors = [p.client.feed for p in (ann, bob, cat, dan)]
    for player in (ann, bob, cat, dan):
        player.expect(lambda m: m["t"] == "end")
    assert len({tuple(map(str, feed.session.log)) for feed in mirrors}) == 1  # every mirror saw the same round
    places = mirrors[0].match.score.rounds[-1].places
    assert sorted(places)[0] == 1 and len(places) == 4
    room = hub.arena
    assert room is not None and room.rounds == 2 and set(room.points) == {"ann", "bob", "cat"}
    logged = [line for line in hub.lines if line.startswith("arena round 1:") or line.startswith(f"match {first['id']} end")]  # type: ignore[attr-defined]
    assert len(logged) == 1 and "esc" not in logged[0], logged  # the log says the round once, not the players' keys


def test_a_rider_who_leaves_mid_round_forfeits_alone_and_the_room_closes_when_empty(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.2)
    ann, bob = players("ann"), players("bob")
    ann.send(t="arena")
    ann.expect(is_start)
    bob.send(t="arena")
    bob.expect(is_start)
    ann.expect(lambda m: m["t"] == "end")
    start = bob.expect(is_start)  # round 2: both ride
    ann.expect(is_start)
    ann.expect(lambda m: m["t"] == "note" and m["text"] == "Go!")
    ann.send(t="leave")
    forfeit = bob.expect(lambda m: m["t"] == "forfeit")
    assert forfeit["seat"] == start["names"].index("ann") and forfeit["fault"] == "left" and forfeit["at"] is not None
    feed = bob.client.feed
    assert feed is not None and not feed.session.over  # the others ride on
    eve = players("eve")  # joins after the forfeit: her mirror replays it where it happened
    eve.send(t="watch", id=start["id"])
    joined = eve.expect(is_start)
    assert [item["seat"] for item in joined["earlier"]] == [forfeit["seat"]]
    end = bob.expect(lambda m: m["t"] == "end")
    eve.expect(lambda m: m["t"] == "end")
    assert "ann" in end["text"] and "Points: " in end["text"]
    assert eve.client.feed is not None and eve.client.feed.session.state == feed.session.state
    assert hub.arena is not None and ann.client.feed is not None  # ann's mirror of the round she left
    bob.send(t="leave")
    eve.send(t="leave")
    for _ in range(200):
        if hub.arena is None:
            break
        import time

        time.sleep(0.02)
    assert hub.arena is None and not any(not m.stopping for m in hub.matches.values())


def test_a_full_arena_is_watched_not_joined(hub: Hub, players) -> None:  # type: ignore[no-untyped-def]
    riders = [players(name) for name in ("ann", "bob", "cat", "dan")]
    for rider in riders:
        rider.send(t="arena")
        rider.expect(is_start)
    eve = players("eve")
    eve.send(t="arena")
    assert "The arena is full (4 riders)" in eve.expect(lambda m: m["t"] == "note")["text"]


def test_bots_of_one_level_are_told_apart_by_their_seat(tmp_path: Path) -> None:
    from tests.test_hub import Player

    big = Hub(tmp_path / "big", pace=Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.02), log=lambda line: None,
              arena_cycles=6)
    big.start()
    ann = Player(big, "ann")
    try:
        ann.send(t="arena")
        names = ann.expect(is_start)["names"]
        assert len(set(names)) == 6 and "ann" in names
        mediums = [(index, name) for index, name in enumerate(names) if name.startswith("medium bot")]
        assert len(mediums) == 2 and all(name == f"medium bot ({index + 1})" for index, name in mediums)
    finally:
        ann.close()
        big.close()
