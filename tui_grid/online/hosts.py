"""Who a connection comes from, for limits: one host is an IPv4 address, an IPv6 /64 (what
one customer is usually given), or loopback as a whole (::1 and all of 127/8 are one
machine). Counting exact addresses would let one host take the server."""

from __future__ import annotations

import ipaddress
from collections import OrderedDict

from tui_grid.online.hub import RateLimit


def host_of(address: str) -> str:
    """The host an address belongs to, as a key for counting."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address or "?"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Counts:
    """How many of something each key holds, with a limit per key: `take` counts one in if
    there is room, `give` gives one back. Keys at zero are forgotten (no growth)."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}

    def take(self, key: str, limit: int | None = None) -> bool:
        held = self._held.get(key, 0)
        if limit is not None and held >= limit:
            return False
        self._held[key] = held + 1
        return True

    def give(self, key: str) -> None:
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)

    def __getitem__(self, key: str) -> int:
        return self._held.get(key, 0)

    def keys(self) -> set[str]:
        return set(self._held)

    def total(self) -> int:
        return sum(self._held.values())

    def __len__(self) -> int:
        return len(self._held)


class HostRates:
    """A token bucket per host (`per_minute`, a burst of a sixth of it), for the most
    recently seen `hosts` hosts: memory stays bounded however many hosts come."""

    def __init__(self, per_minute: int, hosts: int) -> None:
        self.per_minute = per_minute
        self.hosts = hosts
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def allow(self, host: str) -> bool:
        bucket = self._buckets.get(host)
        if bucket is None:
            bucket = self._buckets[host] = RateLimit(self.per_minute / 60.0, max(1.0, self.per_minute / 6.0))
            while len(self._buckets) > self.hosts:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(host)
        return bucket.allow()
