"""The server's store, kept in its data folder: players and their keys, ratings, finished
matches with everything needed to replay them, and puzzle bests.

With `--auth keys` a name belongs to the key that first claimed it; that key logs in as
that name whatever name it types, and no other key may take the name or a lookalike of
it (names.skeleton).

`Store` is the interface the server uses; `SQLiteStore` implements it on one SQLite file
(the standard library's). Every call opens its own connection, so callers may use any
thread or process, and every write is one `BEGIN IMMEDIATE` transaction: it holds the
write lock from its first statement, so what it read stays true until it commits. The
file's schema version is the `meta` row 'schema'; opening an older file migrates it in
one transaction, a newer one is refused.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Callable, Iterator

from tui_grid.online.names import reserved, skeleton
from tui_grid.online.ratings import PROVISIONAL_RD, Rating
from tui_grid.online.records import (Best, KeyTaken, LeaderRow, MatchRecord, MatchSummary, NameTaken, Player, SchemaTooNew,
                                     StoredMatch, check_record, leader_rows, match_row, participant_rows, rateable,
                                     ratings_around, round_rows, stored_match, summaries_of_rows)

SCHEMA_VERSION = 2
#: Version 1: players and their keys (the statements are safe to run again).
SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    skeleton TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS keys (
    fingerprint TEXT PRIMARY KEY,
    player INTEGER NOT NULL REFERENCES players(id),
    added REAL NOT NULL
);
"""
#: Version 2: ratings, matches and their players and rounds, puzzle bests. Times are Unix
#: seconds; a participant is an index into the match's participants, in their order.
SCHEMA_V2 = """
CREATE INDEX keys_player ON keys (player);
CREATE TABLE ratings (
    player INTEGER NOT NULL REFERENCES players(id),
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (player, game)
) WITHOUT ROWID;
CREATE INDEX ratings_leaderboard ON ratings (game, rating DESC);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    board TEXT NOT NULL,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    counts INTEGER NOT NULL CHECK (counts IN (0, 1)),
    started REAL NOT NULL,
    ended REAL NOT NULL,
    planned_rounds INTEGER NOT NULL,
    ending TEXT NOT NULL,
    winner INTEGER,
    ended_by INTEGER,
    verdict TEXT NOT NULL
);
CREATE INDEX matches_game ON matches (game, id);
CREATE TABLE match_players (
    match INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    participant INTEGER NOT NULL,
    player INTEGER REFERENCES players(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('player', 'guest', 'bot')),
    level TEXT,
    rating_before REAL,
    rd_before REAL,
    volatility_before REAL,
    rating_after REAL,
    rd_after REAL,
    volatility_after REAL,
    PRIMARY KEY (match, participant),
    CHECK ((kind = 'player') = (player IS NOT NULL))
) WITHOUT ROWID;
CREATE INDEX match_players_player ON match_players (player, match) WHERE player IS NOT NULL;
CREATE TABLE rounds (
    match INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seating TEXT NOT NULL,
    winner INTEGER,
    result TEXT NOT NULL,
    cause TEXT NOT NULL,
    outcome TEXT NOT NULL,
    steps INTEGER NOT NULL,
    forfeit_seat INTEGER,
    log TEXT NOT NULL,
    PRIMARY KEY (match, idx)
) WITHOUT ROWID;
CREATE TABLE puzzle_bests (
    owner TEXT NOT NULL,
    game TEXT NOT NULL,
    board TEXT NOT NULL,
    best INTEGER NOT NULL,
    optimum INTEGER,
    solves INTEGER NOT NULL,
    first_solved REAL NOT NULL,
    best_at REAL NOT NULL,
    PRIMARY KEY (owner, game, board)
) WITHOUT ROWID;
"""
#: MIGRATIONS[v] takes a file from version v - 1 to v.
MIGRATIONS: dict[int, str] = {1: SCHEMA_V1, 2: SCHEMA_V2}

# --- SQLite -------------------------------------------------------------------------------------
def _statements(script: str) -> list[str]:
    """The statements of one of our schema scripts (no ';' inside any literal)."""
    return [s.strip() for s in script.split(";") if s.strip()]


Connect = Callable[[Path], sqlite3.Connection]


def connect_file(path: Path) -> sqlite3.Connection:
    """A connection to the file that waits up to 10 s for another writer."""
    return sqlite3.connect(path, timeout=10.0)


#: The queries both stores share (their parameters are added after them).
SUMMARY_QUERY = ("SELECT id, game, board, rated, counts, started, ended, planned_rounds, ending, winner, ended_by, verdict "
                 "FROM matches")
PARTICIPANTS_QUERY = ("SELECT match, participant, name, kind, player, level, rating_before, rd_before, volatility_before, "
                      "rating_after, rd_after, volatility_after FROM match_players")
ROUNDS_QUERY = "SELECT seating, winner, result, cause, outcome, steps, log, forfeit_seat FROM rounds"
LEADERBOARD_QUERY = ("SELECT ratings.player, players.name, rating, rd, games FROM ratings "
                     "JOIN players ON players.id = ratings.player WHERE game = {0} "
                     "ORDER BY rd > {0}, rating DESC, games DESC, players.name LIMIT {0}")
BESTS_QUERY = "SELECT board, best, optimum, solves, first_solved, best_at FROM puzzle_bests"


class SQLiteStore:
    """The store on one SQLite file at `path`. `connect` opens a connection to it (a
    different timeout, a tracing or instrumented connection); the store sets its own
    pragmas and transaction mode on whatever it returns."""

    def __init__(self, path: Path, connect: Connect = connect_file) -> None:
        self.path = path
        self._open = connect
        path.parent.mkdir(parents=True, exist_ok=True)
        self._migrate()
        path.chmod(0o600)

    # connections and transactions
    def _connect(self) -> sqlite3.Connection:
        db = self._open(self.path)
        db.isolation_level = None  # autocommit: transactions are the explicit BEGIN IMMEDIATEs
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every statement in the block reads the same snapshot."""
        with closing(self._connect()) as db:
            db.execute("BEGIN")
            try:
                yield db
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _version(db: sqlite3.Connection) -> int:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
            return 0
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        with self._reading() as db:
            if self._version(db) == SCHEMA_VERSION:
                return
        with self._writing() as db:
            version = self._version(db)  # again: another process may have migrated it meanwhile
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"{self.path} holds schema version {version}, newer than this server's "
                                   f"{SCHEMA_VERSION}: run a newer tui_grid on it, or another data folder")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _statements(MIGRATIONS[step]):
                    db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    # players and keys
    def player_of(self, fingerprint: str) -> Player | None:
        with self._reading() as db:
            return self._player_of(db, fingerprint)

    @staticmethod
    def _player_of(db: sqlite3.Connection, fingerprint: str) -> Player | None:
        row = db.execute("SELECT players.id, players.name FROM keys JOIN players ON players.id = keys.player "
                         "WHERE keys.fingerprint = ?", (fingerprint,)).fetchone()
        return Player(*row) if row else None

    def claim(self, fingerprint: str, wanted: str) -> Player:
        """The key's player: the one it claimed before, else a new player named `wanted`.
        Raises NameTaken when `wanted` (or a lookalike) is another's or reserved."""
        with self._writing() as db:
            known = self._player_of(db, fingerprint)
            if known:
                return known
            if reserved(wanted) or db.execute("SELECT 1 FROM players WHERE skeleton = ?", (skeleton(wanted),)).fetchone():
                raise NameTaken(wanted)
            now = time.time()
            cursor = db.execute("INSERT INTO players (name, skeleton, created) VALUES (?, ?, ?)", (wanted, skeleton(wanted), now))
            player = Player(int(cursor.lastrowid or 0), wanted)
            db.execute("INSERT INTO keys VALUES (?, ?, ?)", (fingerprint, player.id, now))
            return player

    def claimed(self, name: str) -> bool:
        """Whether a player holds `name` or a lookalike."""
        with self._reading() as db:
            return db.execute("SELECT 1 FROM players WHERE skeleton = ?", (skeleton(name),)).fetchone() is not None

    def add_key(self, player_id: int, fingerprint: str) -> None:
        """Another key for the player (asked from a session already theirs); a key they
        hold already is kept. Raises KeyTaken when the key is another player's, LookupError
        when there is no such player."""
        with self._writing() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise LookupError(f"no player {player_id}")
            holder = self._player_of(db, fingerprint)
            if holder is not None and holder.id != player_id:
                raise KeyTaken(fingerprint)
            if holder is None:
                db.execute("INSERT INTO keys (fingerprint, player, added) VALUES (?, ?, ?)", (fingerprint, player_id, time.time()))

    # ratings
    def rating(self, player_id: int, game: str) -> Rating:
        """The player's rating at `game`; a newcomer's before their first rated match."""
        with self._reading() as db:
            return self._rating_of(db, player_id, game)

    @staticmethod
    def _rating_of(db: sqlite3.Connection, player_id: int, game: str) -> Rating:
        row = db.execute("SELECT rating, rd, volatility FROM ratings WHERE player = ? AND game = ?",
                         (player_id, game)).fetchone()
        return Rating(*row) if row else Rating()

    def ratings(self, player_id: int) -> dict[str, Rating]:
        """The player's rating at each game they have a rated match in."""
        with self._reading() as db:
            rows = db.execute("SELECT game, rating, rd, volatility FROM ratings WHERE player = ? ORDER BY game",
                              (player_id,)).fetchall()
        return {game: Rating(rating, rd, volatility) for game, rating, rd, volatility in rows}

    # matches
    def record_match(self, record: MatchRecord) -> int:
        """Store a finished match, its participants and rounds and, when it is rated, every
        account's new rating: all of it in one transaction, or none. Returns its id; ids
        grow in the order matches are recorded. Raises ValueError for a record that
        contradicts itself, LookupError when a player id names no player."""
        check_record(record)
        rated = rateable(record)
        with self._writing() as db:
            unknown = [p.player_id for p in record.participants if p.player_id is not None
                       and db.execute("SELECT 1 FROM players WHERE id = ?", (p.player_id,)).fetchone() is None]
            if unknown:
                raise LookupError(f"no player {unknown[0]}")
            before, after = ratings_around(record, rated, lambda player_id: self._rating_of(db, player_id, record.game))
            cursor = db.execute(
                "INSERT INTO matches (game, board, rated, counts, started, ended, planned_rounds, ending, winner, ended_by, "
                "verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match_row(record, rated))
            match_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO match_players (match, participant, player, name, kind, level, rating_before, rd_before, "
                "volatility_before, rating_after, rd_after, volatility_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                participant_rows(match_id, record, before, after))
            db.executemany(
                "INSERT INTO rounds (match, idx, seating, winner, result, cause, outcome, steps, forfeit_seat, log) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", round_rows(match_id, record))
            if rated:
                now = time.time()
                db.executemany(
                    "INSERT INTO ratings (player, game, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, 1, ?) "
                    "ON CONFLICT (player, game) DO UPDATE SET "
                    "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
                    "games = games + 1, updated = excluded.updated",
                    [(p.player_id, record.game, new.rating, new.rd, new.volatility, now)
                     for p, new in zip(record.participants, after, strict=True) if p.player_id is not None and new is not None])
            return match_id

    def match(self, match_id: int) -> StoredMatch | None:
        """The match with its rounds and logs; None when there is no such match."""
        with self._reading() as db:
            summaries = self._summaries(db, f"{SUMMARY_QUERY} WHERE id = ?", (match_id,))
            if not summaries:
                return None
            rows = db.execute(f"{ROUNDS_QUERY} WHERE match = ? ORDER BY idx", (match_id,)).fetchall()
        return stored_match(summaries[0], rows)

    def recent_matches(self, limit: int = 20, game: str | None = None) -> list[MatchSummary]:
        """The latest matches, newest first, of every game or of `game`."""
        with self._reading() as db:
            if game is None:
                return self._summaries(db, f"{SUMMARY_QUERY} ORDER BY id DESC LIMIT ?", (limit,))
            return self._summaries(db, f"{SUMMARY_QUERY} WHERE game = ? ORDER BY id DESC LIMIT ?", (game, limit))

    def matches_of(self, player_id: int, limit: int = 20) -> list[MatchSummary]:
        """The player's latest matches, newest first."""
        with self._reading() as db:
            return self._summaries(db, f"{SUMMARY_QUERY} WHERE id IN (SELECT match FROM match_players WHERE player = ? "
                                       "ORDER BY match DESC LIMIT ?) ORDER BY id DESC", (player_id, limit))

    @staticmethod
    def _summaries(db: sqlite3.Connection, query: str, parameters: tuple[object, ...]) -> list[MatchSummary]:
        rows = db.execute(query, parameters).fetchall()
        if not rows:
            return []
        ids = tuple(row[0] for row in rows)
        marks = ", ".join("?" * len(ids))
        people = db.execute(f"{PARTICIPANTS_QUERY} WHERE match IN ({marks}) ORDER BY match, participant", ids).fetchall()
        return summaries_of_rows(rows, people)

    def leaderboard(self, game: str, limit: int = 20) -> list[LeaderRow]:
        """The best-rated players at `game`: established players first, then provisional
        ones (RD above PROVISIONAL_RD), each by rating, highest first. Provisional players
        are listed, not left out, so a small server's board is not empty while everyone is
        new; their flag lets a view set them apart."""
        with self._reading() as db:
            rows = db.execute(LEADERBOARD_QUERY.format("?"), (game, PROVISIONAL_RD, limit)).fetchall()
        return leader_rows(rows)

    # puzzle bests
    def record_solve(self, owner: str, game: str, board: str, value: int, optimum: int | None = None) -> Best:
        """Count a solve of `board` by `owner` (an account's folder, "p12", or "local") and
        keep the lowest value; returns the board's best after it. A known `optimum`
        replaces the stored one."""
        now = time.time()
        with self._writing() as db:
            db.execute("INSERT INTO puzzle_bests (owner, game, board, best, optimum, solves, first_solved, best_at) "
                       "VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (owner, game, board) DO UPDATE SET "
                       "best_at = CASE WHEN excluded.best < best THEN excluded.best_at ELSE best_at END, "
                       "best = min(best, excluded.best), optimum = coalesce(excluded.optimum, optimum), solves = solves + 1",
                       (owner, game, board, value, optimum, now, now))
            row = db.execute(f"{BESTS_QUERY} WHERE owner = ? AND game = ? AND board = ?", (owner, game, board)).fetchone()
        return Best(*row)

    def bests(self, owner: str, game: str) -> dict[str, Best]:
        """The owner's best solve of each board of `game` they solved."""
        with self._reading() as db:
            rows = db.execute(f"{BESTS_QUERY} WHERE owner = ? AND game = ? ORDER BY board", (owner, game)).fetchall()
        return {row[0]: Best(*row) for row in rows}


#: The name `ssh_server` and its tests know the store by.
PlayerStore = SQLiteStore
