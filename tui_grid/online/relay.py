"""Bytes between a client's SSH channel and its app's terminal, bounded both ways and never
blocking the server's loop.

Keys: the channel's data joins a buffer of at most `input_buffer_bytes`; past that the
channel stops reading (the client's SSH window closes: it waits, nothing is lost). The
buffer reaches the app's terminal at `input_bytes_per_second` (a paste of megabytes does
not flood the app), written only when the terminal can take it (`add_writer`).

Screen: the app's terminal is read only while the channel's unsent output is under its
high-water mark (`pause_writing`/`resume_writing`); while it is over, the app waits on its
terminal. A client that takes nothing for `stall_seconds` ends its session.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any, Callable

from tui_grid.online.limits import ServerLimits

READ_CHUNK = 65536


class ByteBucket:
    """A token bucket of bytes: `room()` says how many may pass now, `spend(n)` passes them."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def room(self) -> int:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        return int(self.tokens)

    def spend(self, count: int) -> None:
        self.tokens -= count

    def seconds_until(self, count: int) -> float:
        return max(0.0, (count - self.tokens) / self.rate) if self.rate > 0 else 3600.0


class Relay:
    """The pump for one session: `feed` keys from the channel, `start` reading the app's
    terminal; `on_end(reason)` is called once when either side is done."""

    def __init__(self, channel: Any, master: int, limits: ServerLimits, on_end: Callable[[str], None],
                 on_flood: Callable[[], None] = lambda: None, on_resume: Callable[[], None] = lambda: None) -> None:
        self.channel = channel
        self.master = master
        self.limits = limits
        self.on_end = on_end
        self.on_flood = on_flood  # once, when keys have come faster than the pace for flood_seconds
        self.on_resume = on_resume  # the client takes output again
        self._flooding_since: float | None = None
        self.flooded = False
        self.loop = asyncio.get_running_loop()
        self.keys = bytearray()
        self.bucket = ByteBucket(limits.input_bytes_per_second, limits.input_burst_bytes)
        self.channel_paused = False  # we stopped reading the channel: the buffer is full
        self.output_paused = False  # the client is behind: the app's terminal is not read
        self._writer_on = False
        self._reader_on = False
        self._later: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None
        self.ended = False
        os.set_blocking(master, False)

    # --- the screen: app -> client ----------------------------------------------------------
    def start(self) -> None:
        self._read_screen(True)
        self.pump()

    def _read_screen(self, on: bool) -> None:
        if self.ended or on == self._reader_on:
            return
        self._reader_on = on
        if on:
            self.loop.add_reader(self.master, self._screen_readable)
        else:
            self.loop.remove_reader(self.master)

    def _screen_readable(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app has ended and its terminal is closed
            data = b""
        if not data:
            self.end("the app ended")
            return
        try:
            self.channel.write(data)  # may call pause_writing at once
        except Exception:  # the channel is closing (asyncssh raises its own errors)
            self.end("the connection closed")

    def pause_writing(self) -> None:
        self.output_paused = True
        self._read_screen(False)
        if self._stall is None and not self.ended:
            self._stall = self.loop.call_later(self.limits.stall_seconds, self.end, "the client read nothing for too long")

    def resume_writing(self) -> None:
        self.output_paused = False
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._read_screen(True)
        self.on_resume()

    # --- keys: client -> app ------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        if self.ended or not data:
            return
        self.keys += data
        if len(self.keys) >= self.limits.input_buffer_bytes and not self.channel_paused:
            self.channel_paused = True
            self.channel.pause_reading()
        self.pump()

    def pump(self) -> None:
        """Write what the terminal takes and the rate allows; come back for the rest."""
        if self.ended or not self.keys:
            self._want_writer(False)
            return
        room = min(self.bucket.room(), len(self.keys))
        self._note_pace(room < len(self.keys))
        if room > 0:
            try:
                written = os.write(self.master, self.keys[:room])
            except BlockingIOError:
                written = 0
            except OSError:
                self.end("the app ended")
                return
            self.bucket.spend(written)
            del self.keys[:written]
            if written < room:  # the terminal is full: wait until it can take more
                self._want_writer(True)
            else:
                self._want_writer(False)
        if self.keys and not self._writer_on and self._later is None:
            wait = max(0.005, self.bucket.seconds_until(min(len(self.keys), 4096)))
            self._later = self.loop.call_later(wait, self._pump_later)
        if self.channel_paused and len(self.keys) < self.limits.input_buffer_bytes // 2:
            self.channel_paused = False
            self.channel.resume_reading()

    def _note_pace(self, held_back: bool) -> None:
        """Keys held back by the pace, for flood_seconds on end: the session floods."""
        if not held_back:
            self._flooding_since = None
            return
        now = self.loop.time()
        if self._flooding_since is None:
            self._flooding_since = now
        elif not self.flooded and now - self._flooding_since >= self.limits.flood_seconds:
            self.flooded = True
            self.bucket.rate = self.limits.flood_bytes_per_second
            self.on_flood()

    def _pump_later(self) -> None:
        self._later = None
        self.pump()

    def _want_writer(self, on: bool) -> None:
        if on == self._writer_on or self.ended:
            return
        self._writer_on = on
        if on:
            self.loop.add_writer(self.master, self.pump)
        else:
            self.loop.remove_writer(self.master)

    # --- the end ---------------------------------------------------------------------------------
    def end(self, reason: str) -> None:
        if self.ended:
            return
        self._read_screen(False)
        self._want_writer(False)
        self.ended = True
        for handle in (self._later, self._stall):
            if handle is not None:
                handle.cancel()
        self.keys.clear()
        self.on_end(reason)
