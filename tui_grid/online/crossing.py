"""This hub's side of several servers sharing one lobby (online.federation): the players
of other servers in matches hosted here (`RemoteLink`), the shared queue's answers, what
goes to and comes from the other servers, and what they add to this lobby. Everything
here runs under the hub's lock, on whichever thread brings it (a link's, or the
federation's)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from tui_grid.online.federation import Federation
from tui_grid.online.protocol import (QUICK_ROUNDS, Answer, Concede, End, Key, Leave, LobbyChallenge, LobbyMatch, LobbyPlayer,
                                      MatchStart, Message, ProtocolError, Watch, from_wire, to_wire)
from tui_grid.online.remote import RemoteLink
from tui_grid.online.wire import default_board

if TYPE_CHECKING:
    from tui_grid.online.hub import Hub, Link

#: Match and challenge numbers each server has to itself (server n: n * this + 1 on).
IDS_PER_SERVER = 1_000_000
#: What a player in a match hosted by another server sends there.
FORWARDED = (Key, Leave, Concede)
#: What a player of another server may ask of this one: its match's messages, to watch a
#: match hosted here, and to answer a challenge made here.
FROM_OTHER_SERVERS = (*FORWARDED, Watch, Answer)


class Crossing:
    """The federation at `url`, as this hub uses it."""

    def __init__(self, hub: Hub, url: str) -> None:
        self.hub = hub
        self.url = url
        self.federation = Federation(url, hub.log, self.federated, self.server_gone, hub.lobby_changed)
        #: Players of other servers in matches hosted here, by (server, name).
        self.remote_links: dict[tuple[int, str], RemoteLink] = {}

    def start(self) -> int:
        """Join the federation; this server's number (FederationError: it does not start)."""
        number = self.federation.start()
        self.hub.log(f"federation: server {number} of the servers at {self.url}")
        return number

    def close(self) -> None:
        self.federation.close()

    @property
    def number(self) -> int:
        return self.federation.number

    def host_of(self, ident: int) -> int | None:
        """The live other server a match or challenge number belongs to, if one does."""
        server = ident // IDS_PER_SERVER
        return server if server != self.number and server in self.federation.live else None

    # --- what a player of ours asks ----------------------------------------------------------------
    def queue(self, link: Link, game: str) -> None:
        self.federation.pop_or_queue(game, link.name, lambda other: self._paired(link, game, other))

    def unqueue(self, game: str, name: str) -> None:
        self.federation.unqueue(game, name)

    def knows(self, name: str) -> bool:
        """Whether `name` is a player of another server (to be challenged from here)."""
        return any(player.name == name for player in self.federation.remote)

    def forwarded(self, link: Link, message: Message) -> bool:
        """Send a message of a player in a match hosted elsewhere there; whether it was."""
        if link.remote_host is None or not isinstance(message, FORWARDED):
            return False
        self._forward(link, message)
        return True

    def watch(self, link: Link, message: Watch) -> bool:
        """Watch a match of another server (the host sends its MatchStart, or an Error)."""
        host = self.host_of(message.id)
        if host is None:
            return False
        link.remote_host = host
        self._forward(link, message)
        return True

    def answer(self, link: Link, message: Answer) -> bool:
        """Answer a challenge made on another server: the challenger's server hosts the match."""
        host = self.host_of(message.id)
        if host is None or isinstance(link, RemoteLink):
            return False
        self._send(host, link, message)
        return True

    def gone(self, link: Link | RemoteLink) -> None:
        """A link closed: its host is told (a player of ours), or it is forgotten (theirs)."""
        if link.remote_host is not None:
            self._forward(link, Leave(), gone=True)  # type: ignore[arg-type]
        if isinstance(link, RemoteLink):
            self.remote_links.pop((link.server, link.name), None)

    def forget_idle(self) -> None:
        """Drop the remote players whose part here is over."""
        for key, remote in list(self.remote_links.items()):
            if remote.match is None and remote.watching is None:
                del self.remote_links[key]

    # --- the shared queue's answers and the other servers' news -------------------------------
    def _paired(self, link: Link, game: str, other: tuple[int, str] | None) -> None:
        """The shared queue's answer for `link` (on the federation's thread): it waits, or
        plays the player popped, here or on another server; this server hosts the match."""
        hub = self.hub
        with hub.lock:
            if link.closed.is_set() or hub.busy(link):
                return
            if other is None:
                hub.queue[game] = link
                hub.lobby_changed()
                return
            server, name = other
            if server == self.number:
                waiting = hub.links.get(name)
                if waiting is None or hub.queue.get(game) is not waiting:
                    hub.queue[game] = link  # they left meanwhile: this one waits instead
                    self.federation.pop_or_queue(game, link.name, lambda again: None)
                    return
                del hub.queue[game]
                seats: list[Any] = [waiting, link]
            else:
                remote = RemoteLink(hub, self.federation, server, name)
                self.remote_links[(server, name)] = remote
                seats = [remote, link]
            hub.start_match(game, default_board(game), QUICK_ROUNDS, seats)
            hub.lobby_changed()

    def _forward(self, link: Link, message: Message, gone: bool = False) -> None:
        assert link.remote_host is not None
        self._send(link.remote_host, link, message, gone)
        if isinstance(message, Leave):
            link.remote_host = None

    def _send(self, server: int, link: Link, message: Message, gone: bool = False) -> None:
        self.federation.send(server, {"from": link.name, "server": self.number, "msg": to_wire(message), "gone": gone})

    def federated(self, payload: dict[str, Any]) -> None:
        """A message from another server (on the federation's thread): news for a player of
        ours in a match it hosts, or a message of its player in a match hosted here."""
        try:
            message = from_wire(payload.get("msg"))  # type: ignore[arg-type]
        except (ProtocolError, AttributeError, TypeError):
            return
        hub = self.hub
        with hub.lock:
            if isinstance(payload.get("to"), str) and isinstance(payload.get("host"), int):
                link = hub.links.get(payload["to"])
                if link is None:
                    return
                if isinstance(message, MatchStart):
                    link.remote_host = payload["host"]
                    for game, waiting in list(hub.queue.items()):
                        if waiting is link:  # popped from the shared queue by the host
                            del hub.queue[game]
                link.send(message)
                if isinstance(message, End):
                    link.remote_host = None
                hub.lobby_changed()
            elif isinstance(payload.get("from"), str) and isinstance(payload.get("server"), int):
                key = (payload["server"], payload["from"])
                remote = self.remote_links.get(key)
                if remote is None and isinstance(message, (Watch, Answer)) and payload["server"] in self.federation.live:
                    remote = self.remote_links[key] = RemoteLink(hub, self.federation, *key)
                if remote is None or not isinstance(message, FROM_OTHER_SERVERS):
                    return
                if payload.get("gone") is True:
                    remote.end()
                else:
                    hub.receive(remote, message)  # type: ignore[arg-type]
                if remote.match is None and remote.watching is None:
                    self.remote_links.pop(key, None)  # a spectator who stopped, or one refused

    def server_gone(self, number: int) -> None:
        """Another server went away (its liveness lapsed): its players in matches here are
        gone (they forfeit), and our players in matches it hosted are told it ended."""
        hub = self.hub
        hub.log(f"federation: server {number} went away")
        with hub.lock:
            for (server, _), remote in list(self.remote_links.items()):
                if server == number:
                    remote.end()
            for link in list(hub.links.values()):
                if link.remote_host == number:
                    link.remote_host = None
                    link.send(End(f"The server hosting this match (server {number}) went away: the match is over."))
            hub.lobby_changed()

    # --- this lobby ---------------------------------------------------------------------------
    def publish(self) -> None:
        """This server's players, matches and open challenges, for the others' lobbies."""
        hub = self.hub
        self.federation.set_presence({name: (hub.doing(link), link.guest) for name, link in hub.links.items()},
                                     [asdict(match.summary()) for match in hub.matches.values()],
                                     [asdict(challenge) for challenge in hub.challenges.values()])

    def players(self) -> tuple[LobbyPlayer, ...]:
        """The other servers' players, each checked as the lobby's own (a name or a doing
        out of shape would break every client's lobby message)."""
        items = [{"name": player.name, "doing": f"{player.doing} · on server {player.server}", "guest": player.guest}
                 for player in self.federation.remote if player.name not in self.hub.links]
        return tuple(entry for entry in (checked(LobbyPlayer, item) for item in items) if entry is not None)

    def matches(self) -> tuple[LobbyMatch, ...]:
        return tuple(listed(LobbyMatch, self.federation.remote_matches, set(self.hub.matches)))

    def challenges(self) -> tuple[LobbyChallenge, ...]:
        return tuple(listed(LobbyChallenge, self.federation.remote_challenges, set(self.hub.challenges)))


def checked(kind: Any, item: Any) -> Any:
    """`item` as a `kind` of the lobby, checked as any message (a server is trusted no more
    than a client); None when it is not one."""
    try:
        return kind.from_wire(item)
    except (ProtocolError, AttributeError, TypeError):
        return None


def listed(kind: Any, items: list[dict[str, Any]], here: set[int]) -> list[Any]:
    """The other servers' matches or challenges (`kind`) for this lobby, checked, none twice."""
    found: list[Any] = []
    for item in items:
        entry = checked(kind, item)
        if entry is not None and entry.id not in here:
            here.add(entry.id)
            found.append(entry)
    return found
