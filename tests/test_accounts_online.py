"""Accounts on the hub (online.hub with online.store): every finished match kept once with
its ratings, what the lobby says of ratings, leaderboards, finished games and replays,
aborts and guests, and rematches. Real SQLite in a temporary folder, real links."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.test_hub import Player, pair
from tui_grid.online.client import HubClient
from tui_grid.online.hub import Hub, Pace
from tui_grid.online.protocol import Welcome
from tui_grid.online.ratings import Rating, rate
from tui_grid.online.store import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    return SQLiteStore(tmp_path / "players.db")


@pytest.fixture
def hub(tmp_path: Path, store: SQLiteStore) -> Iterator[Hub]:
    lines: list[str] = []
    hub = Hub(tmp_path / "hub", pace=Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.02), log=lines.append,
              store=store)
    hub.lines = lines  # type: ignore[attr-defined]
    hub.start()
    yield hub
    hub.close()


class Account(Player):
    """A linked app of a player with an account (a key claimed the name)."""

    def __init__(self, hub: Hub, store: SQLiteStore, name: str, guest: bool = False) -> None:
        import queue

        self.heard: queue.Queue[dict[str, Any]] = queue.Queue()
        self.log: list[dict[str, Any]] = []
        self.id = None if guest else store.claim(f"SHA256:{name}", name).id
        self.client = HubClient(hub.admit(name, guest, self.id, returning=False)[0], self._heard)
        self.welcome = self.expect(lambda m: m["t"] == "welcome")


@pytest.fixture
def accounts(hub: Hub, store: SQLiteStore) -> Iterator[Any]:
    made: list[Account] = []

    def make(name: str, guest: bool = False) -> Account:
        made.append(Account(hub, store, name, guest))
        return made[-1]

    yield make
    for player in made:
        player.close()


def play_quick_match(first: Player, second: Player) -> dict[str, Any]:
    pair(first, second)
    for player in (first, second):
        player.expect(lambda m: m["t"] == "match")
    ends = [player.expect(lambda m: m["t"] == "end") for player in (first, second)]
    assert ends[0] == ends[1]
    return ends[0]


def wait_for(condition: Any, player: Player) -> None:
    """Until `condition()` holds, reading what `player` hears meanwhile (the hub writes first)."""
    while not condition():
        player.expect(lambda m: True)


def test_a_finished_match_is_kept_once_with_both_ratings_from_one_rating_period(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = accounts("ann"), accounts("bob")
    assert ann.welcome["ratings"] == [] and not ann.welcome["guest"]
    end = play_quick_match(ann, bob)
    wait_for(lambda: store.recent_matches(), ann)
    (kept,) = store.recent_matches()
    stored = store.match(kept.id)
    assert stored is not None and stored.verdict == end["text"] and stored.names == ("ann", "bob") and stored.rated
    feed = ann.client.feed
    assert feed is not None
    assert [r.log for r in stored.rounds] == [r.log for r in feed.match.score.rounds]  # what every mirror played
    winner = stored.winner
    fresh = Rating()
    for me, player in enumerate((ann, bob)):
        score = 0.5 if winner is None else 1.0 if winner == me else 0.0
        assert store.rating(player.id, "tron") == rate(fresh, [(fresh, score)])  # once, from the ratings before
        assert stored.participants[me].after == store.rating(player.id, "tron")
    lobby = ann.expect(lambda m: m["t"] == "lobby" and all(p["ratings"] for p in m["players"]))
    assert {p["name"]: p["ratings"][0]["provisional"] for p in lobby["players"]} == {"ann": True, "bob": True}


def welcome_of(hub: Hub, name: str, player_id: int | None) -> Any:
    """The Welcome a returning player's new app hears (its link then closed)."""
    import queue

    heard: queue.Queue[Any] = queue.Queue()
    client = HubClient(hub.admit(name, False, player_id, returning=True)[0], heard.put)
    try:
        while True:
            news = heard.get(timeout=20.0)
            if isinstance(news, Welcome):
                return news
    finally:
        client.close()


def test_a_returning_player_is_greeted_by_name_with_their_ratings(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = accounts("ann"), accounts("bob")
    assert welcome_of(hub, "cat", store.claim("SHA256:cat", "cat").id).ratings == ()
    play_quick_match(ann, bob)
    wait_for(lambda: store.recent_matches(), ann)
    welcome = welcome_of(hub, "bob", bob.id)
    assert welcome.returning and not welcome.guest and welcome.name == "bob"
    (tron,) = welcome.ratings
    assert tron.game == "tron" and tron.rating == round(store.rating(bob.id, "tron").rating) and tron.provisional


def test_leaving_before_anyone_moved_aborts_the_match_for_nobody(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=3, beat=5.0, tick_seconds=0.02)  # the countdown outlasts the test
    ann, bob = accounts("ann"), accounts("bob")
    pair(ann, bob)
    ann.expect(lambda m: m["t"] == "match")
    ann.send(t="leave")
    end = bob.expect(lambda m: m["t"] == "end")
    assert end["text"] == "Match aborted: ann left the match before anyone moved. It counts for nobody."
    wait_for(lambda: store.recent_matches(), bob)
    (kept,) = store.recent_matches()
    assert not kept.counts and kept.winner is None and kept.verdict == end["text"]
    wait_for(lambda: any(" end: " in line for line in hub.lines), bob)  # type: ignore[attr-defined]
    assert f"match 1 end: {end['text']}" in hub.lines  # type: ignore[attr-defined]  # the log says what the players were told
    assert store.ratings(ann.id) == {} and store.ratings(bob.id) == {}


def test_a_guest_plays_unrated_and_has_no_games_kept(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, guest = accounts("ann"), accounts("gus", guest=True)
    assert guest.welcome["guest"]
    play_quick_match(ann, guest)
    wait_for(lambda: store.recent_matches(), ann)
    (kept,) = store.recent_matches()
    assert not kept.rated and store.ratings(ann.id) == {}
    assert [p.kind for p in kept.participants] == ["player", "guest"]
    guest.send(t="games", mine=True)
    assert "guest's games are not kept" in guest.expect(lambda m: m["t"] == "error")["text"]


def test_leaderboard_games_and_a_replay_come_from_the_store(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = accounts("ann"), accounts("bob")
    play_quick_match(ann, bob)
    wait_for(lambda: store.recent_matches(), ann)
    ann.send(t="top", game="tron")
    leaders = ann.expect(lambda m: m["t"] == "leaders")
    assert sorted(row["name"] for row in leaders["rows"]) == ["ann", "bob"] and all(row["provisional"] for row in leaders["rows"])
    bob.send(t="games", mine=True)
    mine = bob.expect(lambda m: m["t"] == "gamelist")
    (line,) = mine["rows"]
    assert line["names"] == ["ann", "bob"] and line["verdict"].startswith("Match over")
    bob.send(t="replay", id=line["id"])
    record = bob.expect(lambda m: m["t"] == "recorded")
    feed = bob.client.feed
    assert feed is not None and [r["log"] for r in record["rounds"]] == [r.log for r in feed.match.score.rounds]
    bob.send(t="replay", id=999)
    assert "No game 999" in bob.expect(lambda m: m["t"] == "error")["text"]


def test_a_rematch_offered_and_taken_starts_with_the_seats_swapped(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = accounts("ann"), accounts("bob")
    play_quick_match(ann, bob)
    bob.send(t="rematch")
    offer = ann.expect(lambda m: m["t"] == "note" and "offers a rematch" in m["text"])
    assert offer["text"].startswith("bob offers a rematch")
    ann.send(t="rematch")
    starts = [player.expect(lambda m: m["t"] == "match") for player in (ann, bob)]
    assert starts[0]["names"] == ["bob", "ann"] and starts[0]["you"] == 1 and starts[1]["you"] == 0


def test_live_match_numbers_count_in_order_whatever_challenges_came_between(hub: Hub, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = accounts("ann"), accounts("bob"), accounts("cat")
    cat.send(t="challenge", to="ann", game="tron")
    cat.send(t="challenge", to="bob", game="tron")
    ann.expect(lambda m: m["t"] == "lobby" and len(m["challenges"]) == 2)
    pair(ann, bob)
    start = ann.expect(lambda m: m["t"] == "match")
    assert start["id"] == 1


def test_online_top_prints_the_leaderboard_from_the_servers_data_folder(tmp_path: Path, store: SQLiteStore,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from tui_grid.cli import main
    from tui_grid.core.match import Ending
    from tui_grid.online.records import MatchRecord, Participant, RoundRecord

    ann, bob = store.claim("SHA256:ann", "ann").id, store.claim("SHA256:bob", "bob").id
    players = (Participant("ann", "player", ann), Participant("bob", "player", bob))
    won = RoundRecord((0, 1), 0, "won", "tron:wall", "green crashed into a wall", 3, "U,D\nU,D\nU,D\n")
    store.record_match(MatchRecord("tron", "standard", players, (won,), 1, Ending.PLAYED, 0, "Match over: ann wins.", 1.0, 2.0,
                                   rated=True))
    assert main(["online", "top", "tron", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Tron light cycles leaderboard")
    first, second = lines[2].split(), lines[3].split()
    assert first[:2] == ["1", "ann"] and second[:2] == ["2", "bob"] and first[2].endswith("?")
    assert int(first[2].rstrip("?")) == round(store.rating(ann, "tron").rating) and first[-1] == "1"
    assert main(["online", "top", "evasion", "--data", str(tmp_path)]) == 0
    assert "nobody has a rating" in capsys.readouterr().out
    assert main(["online", "top", "tron", "--data", str(tmp_path / "none")]) == 2
    assert "no server store here" in capsys.readouterr().err


def test_the_lobby_words_for_ratings_greetings_and_stored_causes() -> None:
    from tui_grid.core.outcome import Fault
    from tui_grid.online.accounts import fault_of, greeting, rated_name, rating_words
    from tui_grid.online.protocol import GameRating

    ratings = (GameRating("tron", 1532, False, 30), GameRating("evasion", 1488, True, 2))
    assert rating_words(ratings) == "Tron 1532 · Evasion 1488?"
    assert rated_name("ann", "evasion", ratings) == "ann (1488?)" and rated_name("easy bot", "tron", ()) == "easy bot"
    assert greeting(Welcome("ann", ("tron",), returning=True, ratings=ratings)) == "Welcome back, ann: Tron 1532 · Evasion 1488?."
    assert "kept under your key" in greeting(Welcome("bob", ("tron",)))
    assert "nothing is kept" in greeting(Welcome("gus", ("tron",), guest=True))
    assert fault_of("fault:idle") is Fault.IDLE and fault_of("fault:exploded") is Fault.LEFT and fault_of("tron:wall") is Fault.LEFT


def test_a_player_adds_another_key_which_then_logs_in_as_them(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    import asyncssh

    ann, bob, gus = accounts("ann"), accounts("bob"), accounts("gus", guest=True)
    line = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    fingerprint = asyncssh.import_public_key(line).get_fingerprint()
    ann.send(t="addkey", key=line)
    assert ann.expect(lambda m: m["t"] == "note")["text"].startswith(f"Key added: {fingerprint} logs in as ann")
    held = store.player_of(fingerprint)
    assert held is not None and held.id == ann.id
    bob.send(t="addkey", key=line)
    assert "another player" in bob.expect(lambda m: m["t"] == "error")["text"]
    bob.send(t="addkey", key="ssh-ed25519 not-a-key")
    assert "not an OpenSSH public key" in bob.expect(lambda m: m["t"] == "error")["text"]
    gus.send(t="addkey", key=line)
    assert "logged in with a key" in gus.expect(lambda m: m["t"] == "error")["text"]


def test_online_replay_prints_saves_and_records_a_finished_game(tmp_path: Path, store: SQLiteStore,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_lobby_ui import a_finished_bot_match
    from tui_grid.cli import main
    from tui_grid.core.recording import read_cast

    played, record = a_finished_bot_match()
    game_id = store.record_match(record)
    data = ["--data", str(tmp_path)]
    assert main(["online", "replay", str(game_id), *data, "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(record.verdict) and f"game {game_id}, round 2" in out
    saved = tmp_path / "round2.txt"
    assert main(["online", "replay", str(game_id), *data, "--round", "2", "--save", str(saved)]) == 0
    assert f"played: {played.match.score.rounds[1].log}" in saved.read_text()
    assert main(["replay", str(saved), "--delay", "0"]) == 0  # a game file like any other
    cast = tmp_path / "game.cast"
    assert main(["online", "replay", str(game_id), *data, "--record", str(cast)]) == 0
    header, events = read_cast(cast)
    steps = sum(r.steps for r in played.match.score.rounds)
    assert header["version"] == 2 and len(events) == steps + 2  # each round's start, then every step
    assert main(["online", "replay", str(game_id), *data, "--record", str(cast)]) == 2  # no overwrite without --force
    assert main(["online", "replay", "999", *data]) == 2
    assert "no finished game 999" in capsys.readouterr().err


def test_an_accounts_puzzle_solves_are_kept_by_the_server_and_a_guests_are_not(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, gus = accounts("ann"), accounts("gus", guest=True)
    board = "0123456789abcdef"
    ann.send(t="solved", game="ice", board=board, value=7, optimum=6)
    first = ann.expect(lambda m: m["t"] == "kept")
    assert first["before"] is None and first["after"] == {"board": board, "value": 7, "optimum": 6, "solves": 1}
    ann.send(t="solved", game="ice", board=board, value=9, optimum=6)  # worse: the best stays
    assert ann.expect(lambda m: m["t"] == "kept")["after"]["value"] == 7
    ann.send(t="bests", game="ice")
    assert ann.expect(lambda m: m["t"] == "bestlist")["rows"] == [{"board": board, "value": 7, "optimum": 6, "solves": 2}]
    assert store.bests(f"p{ann.id}", "ice")[board].solves == 2
    for _ in range(4):  # a burst of solves: a few are kept, then they are refused
        ann.send(t="solved", game="ice", board=board, value=5)
    assert "Too many solves" in ann.expect(lambda m: m["t"] == "error")["text"]
    ann.send(t="solved", game="tron", board=board, value=5)
    assert "No puzzle called tron" in ann.expect(lambda m: m["t"] == "error")["text"]
    gus.send(t="solved", game="ice", board=board, value=3)
    assert "you play as a guest" in gus.expect(lambda m: m["t"] == "error")["text"]
    assert set(store.bests(f"p{ann.id}", "ice")) == {board}


def test_after_a_bot_match_there_is_no_rematch_to_offer_and_nobody_else_is_asked(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann, bob = accounts("ann"), accounts("bob")
    play_quick_match(ann, bob)  # their last match together...
    ann.send(t="challenge", to="bot:easy", game="tron", rounds=1)
    start = ann.expect(lambda m: m["t"] == "match" and "easy bot" in m["names"])
    assert not start["rematch"]  # ...then a bot's: no rematch key on its last screen
    ann.expect(lambda m: m["t"] == "end")
    ann.send(t="rematch")
    assert "No match to play again" in ann.expect(lambda m: m["t"] == "error")["text"]
    bob.send(t="doing", doing="in the lobby")
    bob.expect(lambda m: m["t"] == "lobby" and not m["challenges"])  # bob was offered nothing


def test_a_player_concedes_a_round_online_and_the_match_goes_on(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    hub.pace = Pace(countdown=1, beat=0.01, between_rounds=0.01, tick_seconds=0.05)
    ann, bob = accounts("ann"), accounts("bob")
    pair(ann, bob, game="evasion")
    start = ann.expect(lambda m: m["t"] == "match")
    assert start["rematch"]
    ann.expect(lambda m: m["t"] == "step")
    ann.send(t="concede")
    forfeit = bob.expect(lambda m: m["t"] == "forfeit")
    assert forfeit["fault"] == "conceded" and forfeit["seat"] == 0  # ann's seat in round 1
    assert bob.expect(lambda m: m["t"] in ("round", "end"))["t"] == "round"  # round 2 follows


def test_logging_in_again_closes_the_first_sessions_link_saying_why(hub: Hub, store: SQLiteStore, accounts) -> None:  # type: ignore[no-untyped-def]
    ann = accounts("ann")
    welcome_of(hub, "ann", ann.id)  # another session of hers
    bye = ann.expect(lambda m: m["t"] == "bye")
    assert bye["text"].startswith("ann logged in again from another session")
    ann.expect(lambda m: m["t"] == "gone")
    assert ann.client.farewell == bye["text"] and ann.client.closed.is_set()
