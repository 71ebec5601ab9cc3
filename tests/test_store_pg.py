"""PostgresStore's own tests, on a real PostgreSQL (tests.services): schema versions, a
client killed while recording, and a database that cannot be reached or does not answer.
The behaviour every store shares is tested on it in test_store.py."""

from __future__ import annotations

import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.test_store import a_match, account
from tui_grid.online.records import SchemaTooNew, StoreUnreachable

psycopg = pytest.importorskip("psycopg")
from tui_grid.online.store_pg import SCHEMA_V1, SCHEMA_VERSION, PostgresStore  # noqa: E402

pytest_plugins = ["tests.services"]

REPO = Path(__file__).resolve().parent.parent


def _one(dsn: str, query: str) -> object:
    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute(query.encode()).fetchone()
        return row[0] if row else None


def test_a_version_1_database_migrates_and_keeps_its_players_and_keys(pg_dsn: str) -> None:
    with psycopg.connect(pg_dsn) as db:
        db.execute(SCHEMA_V1.encode())
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.execute("INSERT INTO players (name, skeleton, created) VALUES ('ann', 'ann', 5.0)")
        db.execute("INSERT INTO keys SELECT 'SHA256:ann', id, 5.0 FROM players")
    store = PostgresStore(pg_dsn)
    assert _one(pg_dsn, "SELECT value FROM meta WHERE key = 'schema'") == str(SCHEMA_VERSION) == "2"
    ann = store.player_of("SHA256:ann")
    assert ann is not None and ann.name == "ann" and store.claimed("ANN")
    bob = account(store, "bob")
    assert store.match(store.record_match(a_match(account(store, "ann"), bob))) is not None
    assert PostgresStore(pg_dsn).rating(ann.id, "tron") == store.rating(ann.id, "tron")  # opening again migrates nothing


def test_a_database_from_a_newer_server_is_refused(pg_dsn: str) -> None:
    PostgresStore(pg_dsn)
    with psycopg.connect(pg_dsn) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(SchemaTooNew, match="schema version 99, newer than this server's 2"):
        PostgresStore(pg_dsn)
    assert _one(pg_dsn, "SELECT value FROM meta WHERE key = 'schema'") == "99"


def test_servers_opening_a_new_database_together_migrate_it_once(pg_dsn: str) -> None:
    failures: list[BaseException] = []

    def open_it() -> None:
        try:
            PostgresStore(pg_dsn)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and _one(pg_dsn, "SELECT count(*) FROM meta") == 1


# The child records a match with psycopg patched to kill the process with SIGKILL as the
# named statement is about to be sent (or, for "AFTER COMMIT", once the commit returned).
CHILD = """
import os, pickle, signal, sys
sys.path.insert(0, sys.argv[1])
import psycopg
from tui_grid.online.store_pg import PostgresStore

store = PostgresStore(sys.argv[2])
record = pickle.loads(sys.stdin.buffer.read())
where = sys.argv[3]

def kill_at(text):
    if text == where:
        os.kill(os.getpid(), signal.SIGKILL)

def query_text(query):
    return (query.decode() if isinstance(query, bytes) else str(query)).lstrip().upper()

execute, executemany, commit = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Connection.commit
def patched_execute(self, query, *args, **kwargs):
    kill_at(" ".join(query_text(query).split()[:3]))
    return execute(self, query, *args, **kwargs)
def patched_executemany(self, query, *args, **kwargs):
    kill_at(" ".join(query_text(query).split()[:3]))
    return executemany(self, query, *args, **kwargs)
def patched_commit(self):
    kill_at("COMMIT")
    commit(self)
    kill_at("AFTER COMMIT")
psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Connection.commit = (
    patched_execute, patched_executemany, patched_commit)
store.record_match(record)
"""


@pytest.mark.parametrize("statement", ["INSERT INTO MATCH_PLAYERS", "INSERT INTO RATINGS", "COMMIT", "AFTER COMMIT"])
def test_a_client_killed_while_recording_leaves_the_whole_match_or_none_of_it(pg_dsn: str, statement: str) -> None:
    store = PostgresStore(pg_dsn)
    ann, bob = account(store, "ann"), account(store, "bob")
    store.record_match(a_match(ann, bob, winner=0))
    ratings = {who: store.rating(who, "tron") for who in (ann.player_id or 0, bob.player_id or 0)}
    record = a_match(ann, bob, winner=1)
    child = subprocess.run([sys.executable, "-c", CHILD, str(REPO), pg_dsn, statement], input=pickle.dumps(record),
                           capture_output=True, timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    recorded = [m for m in store.recent_matches() if m.winner == 1]
    assert bool(recorded) == (statement == "AFTER COMMIT")
    if recorded:  # the whole match: its players, rounds and both new ratings
        stored = store.match(recorded[0].id)
        assert stored is not None and stored.rounds == record.rounds and len(stored.participants) == 2
        assert {p.player_id: p.after for p in stored.participants} == {who: store.rating(who, "tron") for who in ratings}
    else:  # none of it: no rows of it anywhere, and the ratings as they were
        assert {who: store.rating(who, "tron") for who in ratings} == ratings
        counts = [_one(pg_dsn, f"SELECT count(*) FROM {table}") for table in ("matches", "match_players", "rounds")]
        assert counts == [1, 2, 2]
    assert store.record_match(record) > 1  # and the database takes the next match (the dead client's locks are gone)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_stopped_server_is_reported_at_once_with_where_it_was() -> None:
    port = _free_port()  # nothing listens there: as after the server stopped
    started = time.monotonic()
    with pytest.raises(StoreUnreachable, match=f"the database at 127.0.0.1:{port}/lobby cannot be reached"):
        PostgresStore(f"host=127.0.0.1 port={port} user=postgres dbname=lobby", connect_timeout=1)
    assert time.monotonic() - started < 3


def test_a_server_that_never_answers_is_given_up_after_the_connect_timeout() -> None:
    with socket.socket() as silent:  # accepts connections (the kernel does) and never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(StoreUnreachable, match=f"127.0.0.1:{port}/lobby cannot be reached"):
            PostgresStore(f"host=127.0.0.1 port={port} user=postgres dbname=lobby", connect_timeout=1)
        assert time.monotonic() - started < 4


def test_a_statement_that_waits_too_long_is_given_up(pg_dsn: str) -> None:
    store = PostgresStore(pg_dsn, statement_timeout=0.5)
    ann, bob = account(store, "ann"), account(store, "bob")
    with psycopg.connect(pg_dsn) as holder:  # another server, stuck holding ann's row
        holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (ann.player_id,))
        started = time.monotonic()
        with pytest.raises(StoreUnreachable, match="did not answer"):
            store.record_match(a_match(ann, bob))
        assert time.monotonic() - started < 3
    assert store.recent_matches() == []
