"""What a player asks of the server's records: leaderboards, game lists, a replay, another
key for their account, and their puzzle bests.

Each request reads or writes the store, which may be a PostgreSQL server across a network,
so none is answered under the hub's lock: they run on workers of their own (STORE_WORKERS),
MAX_STORE_CALLS waiting at most, and a store that fails or stops answering holds up only
the player who asked, who is told so in plain words.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

from tui_grid.core.text import printable
from tui_grid.games.registry import online_games
from tui_grid.online.accounts import best_line, game_lines, key_fingerprint, leader_lines, puzzle_games, recorded
from tui_grid.online.protocol import (MAX_ROWS, AddKey, BestList, Bests, Error, GameList, Games, Leaders, Message, Note, Replay,
                                      SolveKept, Solved, Top)
from tui_grid.online.records import KeyTaken, Store
from tui_grid.online.wire import only_online

if TYPE_CHECKING:
    from tui_grid.online.hub import Link

#: The messages answered here.
STORE_MESSAGES = (Top, Games, Replay, AddKey, Solved, Bests)
STORE_WORKERS = 2
MAX_STORE_CALLS = 64
BUSY = "The server is busy with its records: try again in a moment."
UNREACHABLE = "The server's records cannot be reached just now: try again later."


class StoreDesk:
    """Answers STORE_MESSAGES from `store` (None: a server that keeps nothing, and says so)."""

    def __init__(self, store: Store | None, log: Callable[[str], None]) -> None:
        self.store = store
        self.log = log
        self._pool = ThreadPoolExecutor(STORE_WORKERS, thread_name_prefix="hub-store")
        self._lock = threading.Lock()
        self._waiting = 0
        self._handlers: dict[type, Callable[[Link, Any], str | None]] = {
            Top: self._top, Games: self._games, Replay: self._replay, AddKey: self._add_key, Solved: self._solved,
            Bests: self._bests}

    def ask(self, link: Link, message: Message) -> None:
        """Answer `message` on a worker; refused at once while MAX_STORE_CALLS wait."""
        handler = self._handlers[type(message)]
        with self._lock:
            if self._waiting >= MAX_STORE_CALLS:
                link.send(Error(BUSY))
                return
            self._waiting += 1

        def run() -> None:
            try:
                error = handler(link, message)
            except Exception as exc:
                self.log(f"store: {message.TYPE} for {link.name}: {type(exc).__name__}: {exc}")
                error = UNREACHABLE
            finally:
                with self._lock:
                    self._waiting -= 1
            if error:
                link.send(Error(error))

        self._pool.submit(run)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # --- the requests: each returns what to tell the asker when it cannot be answered ----------
    def _top(self, link: Link, message: Top) -> str | None:
        if message.game not in online_games():
            return only_online()
        if self.store is None:
            return "This server keeps no ratings."
        link.send(Leaders(message.game, leader_lines(self.store, message.game, MAX_ROWS)))
        return None

    def _games(self, link: Link, message: Games) -> str | None:
        if self.store is None:
            return "This server keeps no games."
        if message.mine and link.player_id is None:
            return "A guest's games are not kept: connect with a key to have yours."
        found = self.store.matches_of(link.player_id, MAX_ROWS) if message.mine and link.player_id is not None \
            else self.store.recent_matches(MAX_ROWS)
        link.send(GameList(message.mine, game_lines(found)))
        return None

    def _replay(self, link: Link, message: Replay) -> str | None:
        stored = self.store.match(message.id) if self.store is not None else None
        if stored is None:
            return f"No game {message.id} is kept here."
        link.send(recorded(stored))
        return None

    def _add_key(self, link: Link, message: AddKey) -> str | None:
        """Another key of this account's player: it logs in as them from now on (it must
        still be one the server admits, in its authorized keys)."""
        if self.store is None or link.player_id is None:
            return "Only a player who logged in with a key can add another."
        fingerprint = key_fingerprint(message.key)
        if fingerprint is None:
            return "That is not an OpenSSH public key line (ssh-ed25519 AAAA... or the like)."
        held = self.store.player_of(fingerprint)
        if held is not None and held.id == link.player_id:
            return f"That key is yours already: {fingerprint}."
        try:
            self.store.add_key(link.player_id, fingerprint)
        except KeyTaken:
            return "That key logs in as another player already."
        link.send(Note(f"Key added: {fingerprint} logs in as {link.name} once the server's authorized keys list it."))
        self.log(f"{link.name} added the key {fingerprint}")
        return None

    def _puzzle_owner(self, link: Link, game: str) -> str:
        """The store's owner of this link's puzzle bests ("p12"), or why there is none."""
        if game not in puzzle_games():
            raise LookupError(f"No puzzle called {printable(game)}.")
        if self.store is None:
            raise LookupError("This server keeps no bests.")
        if link.player_id is None:
            raise LookupError("you play as a guest (connect with a key to keep your bests)")
        return f"p{link.player_id}"

    def _solved(self, link: Link, message: Solved) -> str | None:
        try:
            owner = self._puzzle_owner(link, message.game)
        except LookupError as exc:
            return str(exc)
        if not link.solves.allow():
            return "Too many solves at once: this one is not kept."
        assert self.store is not None
        before = self.store.bests(owner, message.game).get(message.board)
        after = self.store.record_solve(owner, message.game, message.board, message.value, message.optimum)
        link.send(SolveKept(message.game, best_line(before) if before else None, best_line(after)))
        return None

    def _bests(self, link: Link, message: Bests) -> str | None:
        try:
            owner = self._puzzle_owner(link, message.game)
        except LookupError as exc:
            return str(exc)
        assert self.store is not None
        link.send(BestList(message.game, tuple(best_line(b) for b in self.store.bests(owner, message.game).values())))
        return None
