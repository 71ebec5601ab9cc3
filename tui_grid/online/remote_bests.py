"""Puzzle bests kept by the server for the player's account, asked for through the app's
link to the hub (a `serve ssh` session's app has no store of its own that SQLite could
open: its folder is reached only from inside). A guest's are not kept."""

from __future__ import annotations

import errno
from typing import Any, Callable

from tui_grid.online.client import HubClient
from tui_grid.online.protocol import BestLine, BestList, Bests, Error, Solved, SolveKept
from tui_grid.online.records import Best

#: Seconds the board picker waits for the server's bests (past them: no marks).
READ_SECONDS = 0.5
#: Seconds a solve waits to be kept.
WRITE_SECONDS = 5.0


def best_of(line: BestLine) -> Best:
    return Best(line.board, line.value, line.optimum, line.solves, 0.0, 0.0)


class HubBests:
    """`link()` gives the app's link to the hub (None: there is none)."""

    def __init__(self, link: Callable[[], HubClient | None]) -> None:
        self.link = link

    def read(self, game_key: str) -> dict[str, Best]:
        client = self.link()
        reply = client.ask(Bests(game_key), lambda news: isinstance(news, BestList) and news.game == game_key,
                           READ_SECONDS) if client is not None else None
        return {line.board: best_of(line) for line in reply.rows} if isinstance(reply, BestList) else {}

    def record(self, game_key: str, board: str, value: int, optimum: int | None, policy: Any) -> tuple[Best | None, Best]:
        client = self.link()
        if client is None:
            raise OSError(errno.ENOTCONN, "the server cannot be reached")
        reply = client.ask(Solved(game_key, board, value, optimum),
                           lambda news: isinstance(news, SolveKept) and news.game == game_key, WRITE_SECONDS)
        if isinstance(reply, SolveKept):
            return (best_of(reply.before) if reply.before is not None else None), best_of(reply.after)
        raise OSError(errno.EIO, reply.text if isinstance(reply, Error) else "the server did not answer in time")
