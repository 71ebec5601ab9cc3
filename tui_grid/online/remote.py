"""A player of another server, in a match hosted here (online.federation): the hub treats
it as a link; what it is sent goes to its server through Redis, and what it sends comes
back from there (`Hub.federated`)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from tui_grid.online.protocol import Message, to_wire

if TYPE_CHECKING:
    from tui_grid.online.federation import Federation
    from tui_grid.online.hub import Hub


class RemoteLink:
    """What the hub asks of a Link, for `name` on server `server`."""

    publisher = False
    player_id = None
    returning = False

    def __init__(self, hub: Hub, federation: Federation, server: int, name: str, guest: bool = False) -> None:
        self.hub = hub
        self.federation = federation
        self.server = server
        self.name = self.bound = name
        self.guest = guest
        self.ratings: tuple[Any, ...] = ()
        self.doing = "playing"
        self.match: Any = None
        self.participant: int | None = None
        self.watching: Any = None
        self.remote_host: int | None = None
        self.closed = threading.Event()

    def send(self, message: Message, data: bytes | None = None) -> None:
        """`message` to the player's server (`data`, a local link's encoding, is not used)."""
        if not self.closed.is_set():
            self.federation.send(self.server, {"to": self.name, "host": self.federation.number, "msg": to_wire(message)})

    def end(self) -> None:
        """Its player, or its whole server, is gone: as a link that closed."""
        if self.closed.is_set():
            return
        self.closed.set()
        self.hub.link_closed(self)  # type: ignore[arg-type]

    def close(self) -> None:
        self.end()

    def __repr__(self) -> str:
        return f"RemoteLink({self.name!r} on server {self.server})"
