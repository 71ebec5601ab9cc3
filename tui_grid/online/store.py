"""The server's players, kept in its data folder: which key holds which name.

With `--auth keys` a name belongs to the key that first claimed it; that key logs in as
that name whatever name it types, and no other key may take the name or a lookalike of
it (names.skeleton). SQLite (the standard library's), one small file; each call opens its
own connection, so callers may use any thread.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from tui_grid.online.names import reserved, skeleton

SCHEMA_VERSION = 1
SCHEMA = """
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


@dataclass(frozen=True)
class Player:
    id: int
    name: str

    @property
    def folder(self) -> str:
        """The player's folder under the server's `players/`: by id, never by a name."""
        return f"p{self.id}"


class NameTaken(Exception):
    """The name, or one like it, is another player's."""


class PlayerStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as db, db:
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        path.chmod(0o600)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def player_of(self, fingerprint: str) -> Player | None:
        with closing(self._connect()) as db:
            row = db.execute("SELECT players.id, players.name FROM keys JOIN players ON players.id = keys.player "
                             "WHERE keys.fingerprint = ?", (fingerprint,)).fetchone()
        return Player(*row) if row else None

    def claim(self, fingerprint: str, wanted: str) -> Player:
        """The key's player: the one it claimed before, else a new player named `wanted`.
        Raises NameTaken when `wanted` (or a lookalike) is another's or reserved."""
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT players.id, players.name FROM keys JOIN players ON players.id = keys.player "
                                 "WHERE keys.fingerprint = ?", (fingerprint,)).fetchone()
                if row:
                    db.execute("COMMIT")
                    return Player(*row)
                if reserved(wanted) or db.execute("SELECT 1 FROM players WHERE skeleton = ?", (skeleton(wanted),)).fetchone():
                    raise NameTaken(wanted)
                now = time.time()
                cursor = db.execute("INSERT INTO players (name, skeleton, created) VALUES (?, ?, ?)", (wanted, skeleton(wanted), now))
                player = Player(int(cursor.lastrowid or 0), wanted)
                db.execute("INSERT INTO keys VALUES (?, ?, ?)", (fingerprint, player.id, now))
                db.execute("COMMIT")
                return player
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def claimed(self, name: str) -> bool:
        """Whether a player holds `name` or a lookalike."""
        with closing(self._connect()) as db:
            return db.execute("SELECT 1 FROM players WHERE skeleton = ?", (skeleton(name),)).fetchone() is not None
