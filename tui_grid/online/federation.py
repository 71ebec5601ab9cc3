"""Several `serve ssh` servers, one lobby: what the servers share through one Redis.

Each server stays the authority for its own players' links (its hub); Redis carries what
crosses servers, with redis-py's asyncio client on a thread of its own, so no hub thread
ever waits on Redis:

* **liveness:** every server holds `tg:alive:<n>` with a short expiry, renewed each beat;
  a server whose key lapsed has gone away (killed, or its machine lost).
* **presence:** each server's players (name, what they do) in the hash `tg:presence:<n>`,
  read back each beat for the others' lobbies.
* **quick-match queues:** one list per game, `tg:queue:<game>`; a Lua script pops a live
  player of another entry or queues this one, atomically, so two servers never both wait.
* **routing:** each server reads its channel `tg:srv:<n>`. A match is hosted by one
  server; a player on another is a `RemoteLink` there, whose news is published to the
  player's server and handed to the player's link, and whose keys come back the same way.

A lost Redis connection is said in the log and retried every RETRY_SECONDS; meanwhile each
server's lobby shows its own players and matches go on.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Any, Callable

from tui_grid.core.words import plural

#: How often a server renews its liveness and reads the others' presence.
BEAT_SECONDS = 1.0
#: A server whose liveness is older than this has gone away.
ALIVE_MS = 3000
RETRY_SECONDS = 1.0
#: The longest wait for Redis when a server starts (its number).
CONNECT_SECONDS = 10.0
#: The presence fields that hold a server's matches and challenges (no player's name starts with NUL).
MATCHES_FIELD = b"\x00matches"
CHALLENGES_FIELD = b"\x00challenges"
#: A server's matches listed in the others' lobbies, at most.
MAX_MATCHES = 200

POP_OR_QUEUE = """
local queue, me = KEYS[1], ARGV[1]
while true do
  local other = redis.call('LPOP', queue)
  if not other then
    redis.call('RPUSH', queue, me)
    return false
  end
  if other ~= me then
    local server = string.match(other, '^([^|]+)|')
    if server and redis.call('EXISTS', 'tg:alive:' .. server) == 1 then
      return other
    end
  end
end
"""


class FederationError(Exception):
    """Redis cannot be reached (or its client is missing) when a server starts."""


@dataclass(frozen=True)
class RemotePlayer:
    """A player linked to another server, as its presence says."""

    server: int
    name: str
    doing: str
    guest: bool


class Federation:
    """This server's part: its number, its beat, its channel, and calls to make on Redis.
    `deliver(payload)` and `gone(server)` are called on the federation's thread."""

    def __init__(self, url: str, log: Callable[[str], None], deliver: Callable[[dict[str, Any]], None],
                 gone: Callable[[int], None], changed: Callable[[], None] = lambda: None) -> None:
        import importlib

        try:
            importlib.import_module("redis.asyncio")
        except ImportError:
            raise FederationError("--hub redis://… needs redis-py: pip install 'tui_grid[servers]'") from None
        self.url = url
        self.log = log
        self.deliver = deliver
        self.gone = gone
        self.changed = changed  # the other servers' players changed: a lobby to send
        self.number = 0
        self.remote: list[RemotePlayer] = []
        #: The other servers' matches and open challenges, as their lobbies list them (wire objects).
        self.remote_matches: list[dict[str, Any]] = []
        self.remote_challenges: list[dict[str, Any]] = []
        self.live: set[int] = set()
        self.connected = False
        self.operations = 0  # Redis commands sent, for the bench
        self._presence: dict[str, str] = {}
        self._presence_dirty = True
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="federation", daemon=True)
        self._stopped = False
        self._redis: Any = None
        #: Messages to other servers, published in the order they were sent (`_publisher`).
        self._outbox: asyncio.Queue[tuple[int, str]] = asyncio.Queue()

    # --- life ---------------------------------------------------------------------------------
    def start(self) -> int:
        """Connect, take this server's number and begin the beat; FederationError when
        Redis cannot be reached in CONNECT_SECONDS."""
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._connect(), self._loop)
        try:
            self.number = future.result(CONNECT_SECONDS)
        except Exception as exc:
            self.close()
            raise FederationError(f"cannot reach Redis at {self.url}: {type(exc).__name__}: {exc}") from None
        asyncio.run_coroutine_threadsafe(self._beat(), self._loop)
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        asyncio.run_coroutine_threadsafe(self._publisher(), self._loop)
        return self.number

    async def _connect(self) -> int:
        import redis.asyncio as redis

        self._redis = redis.Redis.from_url(self.url, socket_connect_timeout=5, socket_timeout=5, health_check_interval=5)
        number = int(await self._redis.incr("tg:server_seq"))
        await self._redis.set(f"tg:alive:{number}", "1", px=ALIVE_MS)
        self.connected = True
        return number

    def close(self) -> None:
        """Leave the federation: this server's presence and liveness go at once (a server
        that dies instead lapses after ALIVE_MS)."""
        if self._stopped:
            return
        self._stopped = True
        if self._redis is not None and self.number:
            try:
                asyncio.run_coroutine_threadsafe(self._leave(), self._loop).result(2.0)
            except Exception:
                pass
        self._loop.call_soon_threadsafe(self._loop.stop)

    async def _leave(self) -> None:
        """Say goodbye, then end every task of this loop (the beat, the channel) and the client."""
        try:
            await self._redis.delete(f"tg:alive:{self.number}", f"tg:presence:{self.number}")
        finally:
            tasks = [task for task in asyncio.all_tasks(self._loop) if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._redis.aclose()

    # --- the beat -----------------------------------------------------------------------------
    async def _beat(self) -> None:
        while not self._stopped:
            try:
                if not self.connected:
                    self._presence_dirty = True  # a Redis that restarted has lost it
                await self._renew()
                if not self.connected:
                    self.log("redis: connected again")
                self.connected = True
            except Exception as exc:
                if self.connected:
                    self.log(f"redis: connection lost ({type(exc).__name__}: {exc}); retrying every {RETRY_SECONDS:g} s")
                self.connected = False
            await asyncio.sleep(BEAT_SECONDS)

    async def _renew(self) -> None:
        redis = self._redis
        pipe = redis.pipeline(transaction=False)
        pipe.set(f"tg:alive:{self.number}", "1", px=ALIVE_MS)
        key = f"tg:presence:{self.number}"
        if self._presence_dirty:
            pipe.delete(key)
            if self._presence:
                pipe.hset(key, mapping=self._presence)
            self._presence_dirty = False
        pipe.pexpire(key, ALIVE_MS)
        await pipe.execute()
        self.operations += 4
        numbers = [int(key.split(b":")[-1]) async for key in redis.scan_iter(match="tg:alive:*")]
        self.operations += 1
        live = {number for number in numbers if number != self.number}
        for number in sorted(self.live - live):
            self.gone(number)
        self.live = live
        remote: list[RemotePlayer] = []
        matches: list[dict[str, Any]] = []
        challenges: list[dict[str, Any]] = []
        for number in sorted(live):
            entries = await redis.hgetall(f"tg:presence:{number}")
            self.operations += 1
            for name, value in entries.items():
                try:
                    data = json.loads(value)
                    if name in (MATCHES_FIELD, CHALLENGES_FIELD):
                        listed = matches if name == MATCHES_FIELD else challenges
                        listed += [item for item in data if isinstance(item, dict)][:MAX_MATCHES]
                        continue
                    remote.append(RemotePlayer(number, name.decode(), str(data.get("doing", "")), bool(data.get("guest"))))
                except (ValueError, UnicodeDecodeError, AttributeError):
                    continue
        if (remote, matches, challenges) != (self.remote, self.remote_matches, self.remote_challenges):
            self.remote, self.remote_matches, self.remote_challenges = remote, matches, challenges
            self.changed()

    def set_presence(self, players: dict[str, tuple[str, bool]], matches: list[dict[str, Any]],
                     challenges: list[dict[str, Any]]) -> None:
        """This server's players (name: (what they do, guest)), matches and open challenges
        (their lobby lines' wire objects), written at the next beat."""
        presence: dict[Any, str] = {name: json.dumps({"doing": doing, "guest": guest}) for name, (doing, guest) in players.items()}
        presence[MATCHES_FIELD] = json.dumps(matches[:MAX_MATCHES])
        presence[CHALLENGES_FIELD] = json.dumps(challenges[:MAX_MATCHES])
        self._loop.call_soon_threadsafe(self._set_presence, presence)

    def _set_presence(self, presence: dict[str, str]) -> None:
        if presence != self._presence:
            self._presence, self._presence_dirty = presence, True

    # --- routing ------------------------------------------------------------------------------
    async def _listen(self) -> None:
        while not self._stopped:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(f"tg:srv:{self.number}")
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    try:
                        payload = json.loads(item["data"])
                    except ValueError:
                        continue
                    if isinstance(payload, dict):
                        self.deliver(payload)
            except Exception as exc:
                if not self._stopped:
                    self.log(f"redis: channel lost ({type(exc).__name__}); listening again")
                    await asyncio.sleep(RETRY_SECONDS)

    def send(self, server: int, payload: dict[str, Any]) -> None:
        """Publish `payload` to `server`'s channel (from any thread; never waits), after
        everything sent before it."""
        text = json.dumps(payload)
        self._loop.call_soon_threadsafe(self._outbox.put_nowait, (server, text))

    async def _publisher(self) -> None:
        """One task publishes, in order: a task per message would race on the client's
        pool of connections, and a match's end could reach the other server before its
        last steps. What has gathered meanwhile goes in one pipeline."""
        while not self._stopped:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self._redis.pipeline(transaction=False)
                for server, text in batch:
                    pipe.publish(f"tg:srv:{server}", text)
                await pipe.execute()
                self.operations += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.log(f"redis: {plural(len(batch), 'message')} to other servers lost ({type(exc).__name__})")

    # --- queues -------------------------------------------------------------------------------
    def entry(self, name: str) -> str:
        return f"{self.number}|{name}"

    def pop_or_queue(self, game: str, name: str, answer: Callable[[tuple[int, str] | None], None]) -> None:
        """Pair `name` with a live player of another entry in `game`'s queue, or queue it:
        `answer((server, name))` or `answer(None)` (queued), on the federation's thread."""
        async def run() -> None:
            try:
                other = await self._redis.eval(POP_OR_QUEUE, 1, f"tg:queue:{game}", self.entry(name))
                self.operations += 1
            except Exception as exc:
                self.log(f"redis: queue {game}: {type(exc).__name__}: {exc}")
                other = None
            if other:
                server, _, who = other.decode().partition("|")
                answer((int(server), who))
            else:
                answer(None)

        self._loop.call_soon_threadsafe(lambda: self._loop.create_task(run()))

    def unqueue(self, game: str, name: str) -> None:
        async def run() -> None:
            try:
                await self._redis.lrem(f"tg:queue:{game}", 0, self.entry(name))
                self.operations += 1
            except Exception:
                pass

        self._loop.call_soon_threadsafe(lambda: self._loop.create_task(run()))
