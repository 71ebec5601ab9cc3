"""The server's store: players and keys, ratings updated once per match in the same
transaction as the match, replays, puzzle bests, schema migrations, crash safety.

The behaviour tests take `store` (or `make_store`) and run against every implementation:
SQLite, and PostgreSQL on a real server (tests.services; skipped where there is none).
The SQLite file's own tests (migration, file mode, a killed writer) are here too;
PostgreSQL's own are in test_store_pg.py."""

from __future__ import annotations

import pickle
import signal
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path
from typing import Callable

import pytest

from tui_grid.core.match import Ending, RoundResult
from tui_grid.core.outcome import Outcome, Result, Rule
from tui_grid.online.ratings import BOT_RATINGS, Rating, rate
from tui_grid.online.records import (KeyTaken, MatchRecord, NameTaken, Participant, RoundRecord, SchemaTooNew, Store,
                                     match_ratings)
from tui_grid.online.store import SCHEMA_V1, SCHEMA_VERSION, PlayerStore, SQLiteStore

pytest_plugins = ["tests.services"]

REPO = Path(__file__).resolve().parent.parent
TRON_LOG = "R U\nR U\nU L\n"


def a_round(winner: int | None, seating: tuple[int, ...] = (0, 1), log: str = TRON_LOG) -> RoundRecord:
    result = "draw" if winner is None else "won"
    return RoundRecord(seating, winner, result, "tron:wall", "green crashed into a wall", 3, log)


def a_match(*participants: Participant, winner: int | None = 0, rated: bool = True, counts: bool = True,
            ending: Ending = Ending.PLAYED, game: str = "tron", rounds: tuple[RoundRecord, ...] | None = None) -> MatchRecord:
    played = rounds if rounds is not None else (a_round(winner), a_round(winner, (1, 0), "L D\n"))
    return MatchRecord(game, "arena", tuple(participants), played, 2, ending, winner,
                       "Match over.", 1000.0, 1060.0, rated=rated, counts=counts)


def account(store: Store, name: str) -> Participant:
    player = store.claim(f"SHA256:{name}", name)
    return Participant(name, "player", player.id)


HARD = Participant("hard bot", "bot", level="hard")
GUEST = Participant("guest-7", "guest")


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """Opens a store on this test's own file or database, the same one at every call."""
    if request.param == "sqlite":
        return lambda: SQLiteStore(tmp_path / "players.db")
    dsn = request.getfixturevalue("pg_dsn")
    from tui_grid.online.store_pg import PostgresStore

    return lambda: PostgresStore(dsn)


@pytest.fixture
def store(make_store: Callable[[], Store]) -> Store:
    return make_store()


def test_the_sqlite_store_is_a_store_and_the_old_name_still_works(tmp_path: Path) -> None:
    as_store: Store = SQLiteStore(tmp_path / "players.db")
    assert PlayerStore is SQLiteStore and as_store.rating(1, "tron") == Rating()


def test_a_player_adds_a_key_that_is_nobody_elses(store: Store) -> None:
    ann, bob = store.claim("SHA256:ann", "ann"), store.claim("SHA256:bob", "bob")
    store.add_key(ann.id, "SHA256:ann-laptop")
    store.add_key(ann.id, "SHA256:ann-laptop")  # again: kept, no error
    assert store.player_of("SHA256:ann-laptop") == ann
    assert store.claim("SHA256:ann-laptop", "someone") == ann
    with pytest.raises(KeyTaken):
        store.add_key(ann.id, "SHA256:bob")
    with pytest.raises(LookupError):
        store.add_key(999, "SHA256:new")
    assert store.player_of("SHA256:bob") == bob and store.player_of("SHA256:new") is None
    with pytest.raises(NameTaken):
        store.claim("SHA256:new", "Ann")


def test_a_rated_match_updates_both_accounts_once_from_their_ratings_before_it(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    first = store.record_match(a_match(ann, bob, winner=0))
    ann_1, bob_1 = rate(Rating(), [(Rating(), 1.0)]), rate(Rating(), [(Rating(), 0.0)])
    assert store.rating(ann.player_id or 0, "tron") == ann_1 and store.rating(bob.player_id or 0, "tron") == bob_1
    second = store.record_match(a_match(ann, bob, winner=1))
    assert second > first
    ann_2, bob_2 = rate(ann_1, [(bob_1, 0.0)]), rate(bob_1, [(ann_1, 1.0)])
    assert store.ratings(ann.player_id or 0) == {"tron": ann_2} and store.ratings(bob.player_id or 0) == {"tron": bob_2}
    draw = store.record_match(a_match(bob, ann, winner=None))
    stored = store.match(draw)
    assert stored is not None and stored.rated
    assert [p.before for p in stored.participants] == [bob_2, ann_2]
    assert [p.after for p in stored.participants] == [rate(bob_2, [(ann_2, 0.5)]), rate(ann_2, [(bob_2, 0.5)])]
    assert [row.games for row in store.leaderboard("tron")] == [3, 3]
    assert store.ratings(ann.player_id or 0).keys() == {"tron"}  # other games untouched


def test_a_bot_match_rates_only_the_account_against_the_bots_fixed_rating(store: Store) -> None:
    ann = account(store, "ann")
    match_id = store.record_match(a_match(HARD, ann, winner=1))
    hard = BOT_RATINGS[("tron", "hard")]
    assert store.rating(ann.player_id or 0, "tron") == rate(Rating(), [(hard, 1.0)])
    stored = store.match(match_id)
    assert stored is not None and stored.rated
    assert stored.participants[0].before == stored.participants[0].after == hard
    assert [row.name for row in store.leaderboard("tron")] == ["ann"]


@pytest.mark.parametrize("why", ["guest", "aborted", "stopped", "not asked", "same account twice", "unknown bot"])
def test_an_unrated_match_is_stored_and_changes_no_rating(store: Store, why: str) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    store.record_match(a_match(ann, bob, winner=0))
    before = (store.ratings(ann.player_id or 0), store.ratings(bob.player_id or 0))
    record = {
        "guest": a_match(ann, GUEST),
        "aborted": a_match(ann, bob, counts=False, rounds=()),
        "stopped": a_match(ann, bob, winner=None, ending=Ending.STOPPED),
        "not asked": a_match(ann, bob, rated=False),
        "same account twice": a_match(ann, ann),
        "unknown bot": a_match(ann, Participant("my program", "bot")),
    }[why]
    match_id = store.record_match(record)
    assert (store.ratings(ann.player_id or 0), store.ratings(bob.player_id or 0)) == before
    stored = store.match(match_id)
    assert stored is not None and not stored.rated and stored.counts == record.counts
    assert all(p.before is None and p.after is None for p in stored.participants)
    assert stored.rounds == record.rounds


def test_a_match_that_names_no_such_participant_is_refused_whole(store: Store) -> None:
    ann = account(store, "ann")
    with pytest.raises(ValueError):
        store.record_match(a_match(ann, HARD, winner=2))
    with pytest.raises(ValueError):
        store.record_match(a_match(ann, Participant("bob", "player")))
    with pytest.raises(LookupError):
        store.record_match(a_match(ann, Participant("ghost", "player", 999)))
    assert store.recent_matches() == [] and store.ratings(ann.player_id or 0) == {}


def test_a_match_replays_from_what_is_stored(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    rounds = (a_round(0, log="R U\n" * 500), RoundRecord((1, 0), None, "draw", "tron:head_on", "a draw", 7, "L D\nU U\n", 1))
    record = MatchRecord("tron", "arena", (ann, bob), rounds, 3, Ending.LEFT, 0, "Match over: ann wins: bob left.",
                         1000.5, 1090.25, ended_by=1, rated=True)
    stored = store.match(store.record_match(record))
    assert stored is not None
    assert stored.rounds == rounds and [r.log for r in stored.rounds] == [r.log for r in rounds]
    assert (stored.game, stored.board, stored.planned_rounds, stored.ending, stored.winner, stored.ended_by) == \
        ("tron", "arena", 3, Ending.LEFT, 0, 1)
    assert (stored.verdict, stored.started, stored.ended, stored.names) == (record.verdict, 1000.5, 1090.25, ("ann", "bob"))
    assert [(p.index, p.kind, p.player_id) for p in stored.participants] == [(0, "player", ann.player_id), (1, "player", bob.player_id)]
    assert store.match(stored.id + 1) is None


def test_a_round_record_is_made_from_a_matchs_round() -> None:
    result = RoundResult(1, (1, 0), 1, Outcome(Result.WON, Rule.WON, winner=0), 42, "R U\n", None)
    assert RoundRecord.of(result, "red (bob) wins") == RoundRecord((1, 0), 1, "won", "rule:won", "red (bob) wins", 42, "R U\n")
    assert RoundRecord.of(RoundResult(0, (0,), None, Outcome(Result.DRAW), 3), "A draw").cause == ""


def test_match_lists_are_newest_first_by_game_and_by_player(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    tron_1 = store.record_match(a_match(ann, bob))
    evasion = store.record_match(a_match(ann, Participant("builtin", "bot", level="builtin"), game="evasion"))
    tron_2 = store.record_match(a_match(bob, GUEST))
    assert [m.id for m in store.recent_matches()] == [tron_2, evasion, tron_1]
    assert [m.id for m in store.recent_matches(limit=2)] == [tron_2, evasion]
    assert [m.id for m in store.recent_matches(game="tron")] == [tron_2, tron_1]
    assert [m.id for m in store.matches_of(ann.player_id or 0)] == [evasion, tron_1]
    assert [m.id for m in store.matches_of(bob.player_id or 0, limit=1)] == [tron_2]
    assert store.recent_matches()[0].names == ("bob", "guest-7")
    assert set(store.ratings(ann.player_id or 0)) == {"tron", "evasion"}


def test_the_leaderboard_lists_established_players_before_provisional_ones(store: Store) -> None:
    ann, bob, cyd = account(store, "ann"), account(store, "bob"), account(store, "cyd")
    for k in range(11):  # eleven matches bring a newcomer's RD under 110
        store.record_match(a_match(ann, HARD, winner=k % 2))
    store.record_match(a_match(bob, HARD, winner=0))  # one big win: rated higher than ann, but provisional
    store.record_match(a_match(cyd, HARD, winner=1))
    board = store.leaderboard("tron")
    assert [(row.rank, row.name, row.provisional) for row in board] == [(1, "ann", False), (2, "bob", True), (3, "cyd", True)]
    assert board[1].rating > board[0].rating and board[0].games == 11 and board[0].rd <= 110
    assert [row.name for row in store.leaderboard("tron", limit=2)] == ["ann", "bob"]
    assert store.leaderboard("evasion") == []


def test_puzzle_bests_keep_the_lowest_value_and_count_solves(store: Store) -> None:
    assert store.record_solve("p1", "ice", "spiral", 12).value == 12
    store.record_solve("p1", "ice", "spiral", 9, optimum=7)
    best = store.record_solve("p1", "ice", "spiral", 15)
    assert (best.value, best.optimum, best.solves) == (9, 7, 3) and best.first_solved <= best.best_at
    store.record_solve("local", "ice", "spiral", 7)
    store.record_solve("p1", "ice", "corner", 4)
    store.record_solve("p1", "bunny", "level-1", 5)
    assert {board: b.value for board, b in store.bests("p1", "ice").items()} == {"spiral": 9, "corner": 4}
    assert store.bests("local", "ice")["spiral"].solves == 1 and store.bests("p2", "ice") == {}


def test_reopening_keeps_everything(make_store: Callable[[], Store]) -> None:
    store = make_store()
    ann = account(store, "ann")
    match_id = store.record_match(a_match(ann, HARD))
    store.record_solve("p1", "ice", "spiral", 9)
    again = make_store()
    assert again.player_of("SHA256:ann") == store.player_of("SHA256:ann")
    assert again.match(match_id) == store.match(match_id) and again.ratings(1) == store.ratings(1)
    assert again.bests("p1", "ice") == store.bests("p1", "ice")


def test_the_sqlite_file_is_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "players.db"
    SQLiteStore(path)
    assert path.stat().st_mode & 0o777 == 0o600


def _schema_of(path: Path) -> str:
    with closing(sqlite3.connect(path)) as db:
        return str(db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0])


def test_a_version_1_file_migrates_and_keeps_its_players_and_keys(tmp_path: Path) -> None:
    path = tmp_path / "players.db"
    with closing(sqlite3.connect(path)) as db, db:
        db.executescript(SCHEMA_V1)
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.execute("INSERT INTO players VALUES (1, 'ann', 'ann', 5.0), (2, 'bob', 'bob', 6.0)")
        db.execute("INSERT INTO keys VALUES ('SHA256:ann', 1, 5.0), ('SHA256:ann2', 1, 7.0), ('SHA256:bob', 2, 6.0)")
    store = SQLiteStore(path)
    assert _schema_of(path) == str(SCHEMA_VERSION) == "2"
    assert [store.player_of(key) for key in ("SHA256:ann", "SHA256:ann2", "SHA256:bob")] == \
        [(ann := store.player_of("SHA256:ann")), ann, store.player_of("SHA256:bob")]
    assert ann is not None and (ann.id, ann.name) == (1, "ann") and store.claimed("ANN")
    match_id = store.record_match(a_match(Participant("ann", "player", 1), Participant("bob", "player", 2)))
    assert store.match(match_id) is not None and store.claim("SHA256:cyd", "cyd").id == 3


def test_a_file_from_a_newer_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "players.db"
    SQLiteStore(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(SchemaTooNew, match="schema version 99, newer than this server's 2"):
        SQLiteStore(path)
    assert _schema_of(path) == "99"


def test_threads_record_matches_side_by_side(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    ids: list[int] = []

    def play() -> None:
        for _ in range(5):
            ids.append(store.record_match(a_match(ann, bob)))

    threads = [threading.Thread(target=play) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(ids)) == 20 and [row.games for row in store.leaderboard("tron")] == [20, 20]


def test_concurrent_matches_of_the_same_players_lose_no_rating_update(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    failures: list[BaseException] = []

    def play(winner: int) -> None:
        try:
            for _ in range(5):
                store.record_match(a_match(ann, bob, winner=winner))
        except BaseException as error:  # reported below: a thread's exception would be lost
            failures.append(error)

    threads = [threading.Thread(target=play, args=(winner,)) for winner in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    # Some order of the ten matches, each rated from the ratings the one before it left.
    summaries = sorted(store.recent_matches(limit=100), key=lambda m: m.id)
    assert len(summaries) == 10 and sorted(m.winner for m in summaries) == [0] * 5 + [1] * 5
    current = [Rating(), Rating()]
    for summary in summaries:
        assert [p.before for p in summary.participants] == current
        current = match_ratings(a_match(ann, bob, winner=summary.winner), current)
        assert [p.after for p in summary.participants] == current
    assert [store.rating(who.player_id or 0, "tron") for who in (ann, bob)] == current
    assert [row.games for row in store.leaderboard("tron")] == [10, 10]


# The child records a match through a connection whose trace callback kills the process
# with SIGKILL as the named statement starts: the transaction is cut off midway.
CHILD = """
import os, pickle, signal, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tui_grid.online.store import SQLiteStore, connect_file

def connect(path):
    db = connect_file(path)
    def trace(statement):
        if statement.lstrip().upper().startswith(sys.argv[3]):
            os.kill(os.getpid(), signal.SIGKILL)
    db.set_trace_callback(trace)
    return db

SQLiteStore(Path(sys.argv[2]), connect).record_match(pickle.loads(sys.stdin.buffer.read()))
"""


@pytest.mark.parametrize("statement", ["INSERT INTO MATCH_PLAYERS", "INSERT INTO RATINGS", "COMMIT"])
def test_a_process_killed_while_recording_leaves_the_whole_match_or_none_of_it(tmp_path: Path, statement: str) -> None:
    path = tmp_path / "players.db"
    store = SQLiteStore(path)
    ann, bob = account(store, "ann"), account(store, "bob")
    store.record_match(a_match(ann, bob, winner=0))
    ratings = {who: store.rating(who, "tron") for who in (ann.player_id or 0, bob.player_id or 0)}
    record = a_match(ann, bob, winner=1)
    child = subprocess.run([sys.executable, "-c", CHILD, str(REPO), str(path), statement], input=pickle.dumps(record),
                           capture_output=True, timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    after = SQLiteStore(path)
    recorded = [m for m in after.recent_matches() if m.winner == 1]
    if recorded:  # the whole match: its players, rounds and both new ratings
        stored = after.match(recorded[0].id)
        assert stored is not None and stored.rounds == record.rounds and len(stored.participants) == 2
        assert {p.player_id: p.after for p in stored.participants} == \
            {who: after.rating(who, "tron") for who in ratings}
    else:  # none of it: no rows of it anywhere, and the ratings as they were
        assert {who: after.rating(who, "tron") for who in ratings} == ratings
        with closing(sqlite3.connect(path)) as db:
            assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
            assert db.execute("SELECT count(*) FROM match_players").fetchone()[0] == 2
            assert db.execute("SELECT count(*) FROM rounds").fetchone()[0] == 2
    assert after.record_match(record) > 1  # and the file takes the next match
